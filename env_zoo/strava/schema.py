"""Strava's objects as tables: athletes and the app's OAuth token, follows, gear, activities with laps and
segment efforts, segments and stars, kudos and comments, clubs and memberships, routes, and the activity files
waiting on the athlete's watch with the uploads made from them. Distances are meters, times seconds."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

athletes = Table(
    "athletes",
    metadata,
    Column("id", String, primary_key=True),
    Column("username", String, nullable=False, unique=True),
    Column("firstname", String, nullable=False),
    Column("lastname", String, nullable=False),
    Column("email", String, nullable=False, unique=True),  # Strava login; never returned by the API
    Column("bio", Text, nullable=False, default=""),
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),
    Column("country", String, nullable=False),
    Column("sex", String, nullable=False),  # M | F
    Column("summit", Boolean, nullable=False, default=False),  # subscriber
    Column("created_at", String, nullable=False),
    Column("weight", Float, nullable=True),  # kilograms
    Column("ftp", Integer, nullable=True),  # watts
    Column("max_heartrate", Integer, nullable=True),  # bpm, basis of the default heart rate zones
    Column("custom_hr_zones", JSON, nullable=True),  # [{"min", "max"}] x 5, max -1 on the last
    Column("measurement_preference", String, nullable=False),  # feet | meters
    Column("timezone", String, nullable=False),  # "(GMT-06:00) America/Denver"
    Column("default_visibility", String, nullable=False),  # everyone | followers_only | only_me
)

oauth_tokens = Table(
    "oauth_tokens",
    metadata,
    Column("id", String, primary_key=True),  # always "current": the athlete who authorized the app
    Column("athlete_id", String, ForeignKey("athletes.id"), nullable=False),
    Column("scope", JSON, nullable=False),  # e.g. ["read", "activity:read_all", "activity:write"]
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

follows = Table(
    "follows",
    metadata,
    Column("id", String, primary_key=True),  # "<follower_id>-<athlete_id>"
    Column("follower_id", String, ForeignKey("athletes.id"), nullable=False),
    Column("athlete_id", String, ForeignKey("athletes.id"), nullable=False),
)

gear = Table(
    "gear",
    metadata,
    Column("id", String, primary_key=True),  # "b..." bikes, "g..." shoes
    Column("athlete_id", String, ForeignKey("athletes.id"), nullable=False),
    Column("kind", String, nullable=False),  # bike | shoes
    Column("name", String, nullable=False),
    Column("brand_name", String, nullable=False),
    Column("model_name", String, nullable=False),
    Column("frame_type", Integer, nullable=True),  # bikes: 1 mtb, 2 cross, 3 road, 4 time trial, 5 gravel
    Column("description", Text, nullable=False, default=""),
    Column("primary", Boolean, nullable=False, default=False),  # the default for new activities of its kind
    Column("retired", Boolean, nullable=False, default=False),
    Column("distance", Float, nullable=False),  # meters: starting distance plus every activity with this gear
    Column("notification_distance", Float, nullable=True),  # meters: "replace me" reminder for shoes
)

activities = Table(
    "activities",
    metadata,
    Column("id", String, primary_key=True),
    Column("athlete_id", String, ForeignKey("athletes.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("sport_type", String, nullable=False),
    Column("workout_type", Integer, nullable=True),  # runs: 0 default, 1 race, 2 long run, 3 workout; rides 10-12
    Column("start_date", String, nullable=False),  # UTC
    Column("start_date_local", String, nullable=False),
    Column("timezone", String, nullable=False),
    Column("utc_offset", Integer, nullable=False),  # seconds
    Column("distance", Float, nullable=False),
    Column("moving_time", Integer, nullable=False),
    Column("elapsed_time", Integer, nullable=False),
    Column("total_elevation_gain", Float, nullable=False),
    Column("average_speed", Float, nullable=False),  # m/s
    Column("max_speed", Float, nullable=False),
    Column("average_heartrate", Float, nullable=True),
    Column("max_heartrate", Float, nullable=True),
    Column("average_watts", Float, nullable=True),
    Column("calories", Float, nullable=True),
    Column("trainer", Boolean, nullable=False, default=False),
    Column("commute", Boolean, nullable=False, default=False),
    Column("manual", Boolean, nullable=False, default=False),
    Column("visibility", String, nullable=False),  # everyone | followers_only | only_me
    Column("hide_from_home", Boolean, nullable=False, default=False),
    Column("gear_id", String, ForeignKey("gear.id"), nullable=True),
    Column("device_name", String, nullable=True),
    Column("external_id", String, nullable=True),  # the uploaded file's name
)

laps = Table(
    "laps",
    metadata,
    Column("id", String, primary_key=True),
    Column("activity_id", String, ForeignKey("activities.id"), nullable=False),
    Column("lap_index", Integer, nullable=False),
    Column("name", String, nullable=False),
    Column("elapsed_time", Integer, nullable=False),
    Column("moving_time", Integer, nullable=False),
    Column("distance", Float, nullable=False),
    Column("total_elevation_gain", Float, nullable=False),
    Column("average_speed", Float, nullable=False),
    Column("average_heartrate", Float, nullable=True),
    Column("average_watts", Float, nullable=True),
)

segments = Table(
    "segments",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("activity_type", String, nullable=False),  # Ride | Run
    Column("distance", Float, nullable=False),
    Column("average_grade", Float, nullable=False),  # percent
    Column("maximum_grade", Float, nullable=False),
    Column("elevation_high", Float, nullable=False),
    Column("elevation_low", Float, nullable=False),
    Column("total_elevation_gain", Float, nullable=False),
    Column("climb_category", Integer, nullable=False),  # 0 uncategorized, 1 cat 4 ... 4 cat 1, 5 HC
    Column("start_latlng", JSON, nullable=False),
    Column("end_latlng", JSON, nullable=False),
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),
    Column("country", String, nullable=False),
    Column("private", Boolean, nullable=False, default=False),
    Column("hazardous", Boolean, nullable=False, default=False),
    Column("created_by", String, ForeignKey("athletes.id"), nullable=True),
)

segment_efforts = Table(
    "segment_efforts",
    metadata,
    Column("id", String, primary_key=True),
    Column("activity_id", String, ForeignKey("activities.id"), nullable=False),
    Column("segment_id", String, ForeignKey("segments.id"), nullable=False),
    Column("athlete_id", String, ForeignKey("athletes.id"), nullable=False),
    Column("elapsed_time", Integer, nullable=False),
    Column("moving_time", Integer, nullable=False),
    Column("start_date", String, nullable=False),
    Column("start_date_local", String, nullable=False),
    Column("distance", Float, nullable=False),
    Column("average_heartrate", Float, nullable=True),
    Column("average_watts", Float, nullable=True),
)

segment_stars = Table(
    "segment_stars",
    metadata,
    Column("id", String, primary_key=True),  # "<athlete_id>-<segment_id>"
    Column("athlete_id", String, ForeignKey("athletes.id"), nullable=False),
    Column("segment_id", String, ForeignKey("segments.id"), nullable=False),
)

kudos = Table(
    "kudos",
    metadata,
    Column("id", String, primary_key=True),  # "<activity_id>-<athlete_id>"
    Column("activity_id", String, ForeignKey("activities.id"), nullable=False),
    Column("athlete_id", String, ForeignKey("athletes.id"), nullable=False),
)

comments = Table(
    "comments",
    metadata,
    Column("id", String, primary_key=True),
    Column("activity_id", String, ForeignKey("activities.id"), nullable=False),
    Column("athlete_id", String, ForeignKey("athletes.id"), nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

clubs = Table(
    "clubs",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("vanity", String, nullable=False, unique=True),  # strava.com/clubs/<vanity>
    Column("sport_type", String, nullable=False),  # cycling | running | triathlon | other
    Column("description", Text, nullable=False, default=""),
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),
    Column("country", String, nullable=False),
    Column("private", Boolean, nullable=False, default=False),  # joining needs an admin's approval
    Column("verified", Boolean, nullable=False, default=False),
)

club_memberships = Table(
    "club_memberships",
    metadata,
    Column("id", String, primary_key=True),  # "<club_id>-<athlete_id>"
    Column("club_id", String, ForeignKey("clubs.id"), nullable=False),
    Column("athlete_id", String, ForeignKey("athletes.id"), nullable=False),
    Column("membership", String, nullable=False),  # member | pending
    Column("role", String, nullable=False),  # member | admin | owner
    Column("joined_at", String, nullable=False, info={"volatile": True}),
)

routes = Table(
    "routes",
    metadata,
    Column("id", String, primary_key=True),
    Column("athlete_id", String, ForeignKey("athletes.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("type", Integer, nullable=False),  # 1 ride, 2 run
    Column("sub_type", Integer, nullable=False),  # 1 road, 2 mountain bike, 3 cross, 4 trail, 5 mixed
    Column("distance", Float, nullable=False),
    Column("elevation_gain", Float, nullable=False),
    Column("estimated_moving_time", Integer, nullable=False),
    Column("private", Boolean, nullable=False, default=False),
    Column("starred", Boolean, nullable=False, default=False),
    Column("segment_ids", JSON, nullable=False, default=list),
    Column("created_at", String, nullable=False),
)

device_files = Table(
    "device_files",
    metadata,
    Column("id", String, primary_key=True),  # the file name on the watch, e.g. "2025-06-14-06-12-40.fit"
    Column("athlete_id", String, ForeignKey("athletes.id"), nullable=False),
    Column("device_name", String, nullable=False),
    # the recording: sport_type, start_date_local, elapsed_time, moving_time, distance, total_elevation_gain,
    # max_speed, average_heartrate, max_heartrate, average_watts, calories, laps [...], efforts [...]
    Column("data", JSON, nullable=False),
)

uploads = Table(
    "uploads",
    metadata,
    Column("id", String, primary_key=True),
    Column("athlete_id", String, ForeignKey("athletes.id"), nullable=False),
    Column("external_id", String, nullable=False),
    Column("data_type", String, nullable=False),  # fit | tcx | gpx
    Column("status", String, nullable=False),
    Column("error", String, nullable=True),
    Column("activity_id", String, ForeignKey("activities.id"), nullable=True),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
