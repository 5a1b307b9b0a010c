"""Fitbit's records as tables. Users have Fitbit's six-character encoded ids (e.g. 7QX4TB); logs have numeric log
ids; trackers numeric device ids. Distances are stored in kilometres, weights in kilograms, water in millilitres
(the tools convert to and from the user's units). Dates are yyyy-MM-dd in the user's own time zone."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),  # encodedId
    Column("email", String, nullable=False, unique=True),
    Column("full_name", String, nullable=False),
    Column("display_name", String, nullable=False),
    Column("timezone", String, nullable=False),  # IANA name, e.g. America/Chicago
    Column("member_since", String, nullable=False),
    Column("height_cm", Float, nullable=False),
    Column("gender", String, nullable=False),  # FEMALE | MALE | NA
    Column("stride_walking_cm", Float, nullable=False),
    Column("stride_running_cm", Float, nullable=False),
    Column("distance_unit", String, nullable=False),  # en_US (miles) | METRIC (km)
    Column("weight_unit", String, nullable=False),  # en_US (lb) | METRIC (kg)
    Column("water_unit", String, nullable=False),  # en_US (fl oz) | METRIC (ml)
    Column("sleep_goal_minutes", Integer, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the user who authorized the assistant
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("scopes", JSON, nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

friends = Table(
    "friends",
    metadata,
    Column("user_id", String, ForeignKey("users.id"), primary_key=True),
    Column("friend_id", String, ForeignKey("users.id"), primary_key=True),
)

daily_activity = Table(
    "daily_activity",
    metadata,
    Column("user_id", String, ForeignKey("users.id"), primary_key=True),
    Column("date", String, primary_key=True),
    Column("steps", Integer, nullable=False),  # what the tracker counted (logged activities add to it)
    Column("floors", Integer, nullable=False),
    Column("distance_km", Float, nullable=False),
    Column("calories_out", Integer, nullable=False),
    Column("very_active_minutes", Integer, nullable=False),
    Column("fairly_active_minutes", Integer, nullable=False),
    Column("lightly_active_minutes", Integer, nullable=False),
    Column("sedentary_minutes", Integer, nullable=False),
)

activity_types = Table(
    "activity_types",
    metadata,
    Column("id", Integer, primary_key=True),  # Fitbit's activityId, e.g. 90009 Run
    Column("name", String, nullable=False),
    Column("category", String, nullable=False),
    Column("mets", Float, nullable=False),
    Column("has_distance", Boolean, nullable=False),
)

activity_logs = Table(
    "activity_logs",
    metadata,
    Column("id", Integer, primary_key=True),  # logId
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("activity_id", Integer, ForeignKey("activity_types.id")),  # None: a custom activity logged by name
    Column("activity_name", String, nullable=False),
    Column("log_type", String, nullable=False),  # auto_detected | manual | tracker
    Column("date", String, nullable=False),
    Column("start_time", String, nullable=False),  # HH:mm local
    Column("duration_ms", Integer, nullable=False),
    Column("distance_km", Float),
    Column("calories", Integer, nullable=False),
    Column("steps", Integer, nullable=False),
    Index("ix_activity_logs_user_date", "user_id", "date"),  # per-user, per-day reads
)

activity_goals = Table(
    "activity_goals",
    metadata,
    Column("user_id", String, ForeignKey("users.id"), primary_key=True),
    Column("period", String, primary_key=True),  # daily | weekly
    Column("steps", Integer, nullable=False),
    Column("distance_km", Float, nullable=False),
    Column("floors", Integer, nullable=False),
    Column("active_minutes", Integer),  # daily only
    Column("calories_out", Integer),  # daily only
)

sleep_logs = Table(
    "sleep_logs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("date_of_sleep", String, nullable=False),  # the date the sleep ended
    Column("start", String, nullable=False),  # yyyy-MM-ddTHH:mm local
    Column("duration_ms", Integer, nullable=False),
    Column("minutes_asleep", Integer, nullable=False),
    Column("minutes_awake", Integer, nullable=False),
    Column("type", String, nullable=False),  # stages (tracked) | classic (logged by hand)
    Column("log_type", String, nullable=False),  # auto_detected | manual
    Column("deep", Integer),  # stage minutes, stages logs only
    Column("light", Integer),
    Column("rem", Integer),
    Column("wake", Integer),
    Index("ix_sleep_logs_user_date", "user_id", "date_of_sleep"),  # per-user, per-day reads
)

body_logs = Table(
    "body_logs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("kind", String, nullable=False),  # weight | fat
    Column("date", String, nullable=False),
    Column("time", String, nullable=False),  # HH:mm:ss
    Column("value", Float, nullable=False),  # kg for weight, percent for fat
    Column("source", String, nullable=False),  # Aria | API | Web
    Index("ix_body_logs_user_date", "user_id", "date"),  # per-user, per-day reads
)

weight_goals = Table(
    "weight_goals",
    metadata,
    Column("user_id", String, ForeignKey("users.id"), primary_key=True),
    Column("start_date", String, nullable=False),
    Column("start_kg", Float, nullable=False),
    Column("goal_kg", Float, nullable=False),
)

food_logs = Table(
    "food_logs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("date", String, nullable=False),
    Column("food_name", String, nullable=False),
    Column("brand", String, nullable=False, default=""),
    Column("meal_type_id", Integer, nullable=False),  # 1 Breakfast .. 7 Anytime (6 unused)
    Column("unit_id", Integer, nullable=False),
    Column("amount", Float, nullable=False),
    Column("calories", Integer, nullable=False),
    Index("ix_food_logs_user_date", "user_id", "date"),  # per-user, per-day reads
)

water_logs = Table(
    "water_logs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("date", String, nullable=False),
    Column("amount_ml", Float, nullable=False),
    Index("ix_water_logs_user_date", "user_id", "date"),  # per-user, per-day reads
)

devices = Table(
    "devices",
    metadata,
    Column("id", String, primary_key=True),  # Fitbit's numeric device id, as a string
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("device_version", String, nullable=False),  # Charge 6, Inspire 3, Aria Air ...
    Column("type", String, nullable=False),  # TRACKER | SCALE
    Column("battery_level", Integer, nullable=False),
    Column("last_sync_time", String, nullable=False),  # local yyyy-MM-ddTHH:mm:ss.SSS
    Column("mac", String, nullable=False),
)

alarms = Table(
    "alarms",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("device_id", String, ForeignKey("devices.id"), nullable=False),
    Column("time", String, nullable=False),  # HH:mm local
    Column("enabled", Boolean, nullable=False),
    Column("week_days", JSON, nullable=False),  # MONDAY .. SUNDAY; empty: a one-time alarm
    Column("snooze_length", Integer, nullable=False),
    Column("snooze_count", Integer, nullable=False),
    Column("label", String, nullable=False, default=""),
)
