"""Turo's objects as tables: accounts (guests and hosts) and their session, saved cards; vehicles with their listing
rules, blocked dates, Extras and reviews; the protection plans; trips with their change requests, check-in and
checkout records (photos, odometer, fuel), host reimbursement requests and trip messages. Money is integer cents
(USD); trip times are `YYYY-MM-DDTHH:MM` in the vehicle's local time."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),  # Turo's numeric profile id, e.g. "4120391"
    Column("name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("role", String, nullable=False),  # guest | host
    Column("city", String, nullable=False),
    Column("birth_date", String, nullable=False),
    Column("approved_to_drive", Boolean, nullable=False),
    Column("all_star_host", Boolean, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

payment_methods = Table(
    "payment_methods",
    metadata,
    Column("id", String, primary_key=True),  # "card_..."
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("brand", String, nullable=False),
    Column("last4", String, nullable=False),
    Column("exp_month", Integer, nullable=False),
    Column("exp_year", Integer, nullable=False),
    Column("is_default", Boolean, nullable=False),
)

vehicles = Table(
    "vehicles",
    metadata,
    Column("id", String, primary_key=True),  # listing number, e.g. "683717"
    Column("host_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("make", String, nullable=False),
    Column("model", String, nullable=False),
    Column("year", Integer, nullable=False),
    Column("vehicle_type", String, nullable=False),  # car | suv | minivan | truck | van
    Column("vehicle_class", String, nullable=False),  # economy | standard | deluxe | super_deluxe
    Column("color", String, nullable=False),
    Column("city", String, nullable=False),
    Column("neighborhood", String, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("fuel_type", String, nullable=False),  # gas | hybrid | electric
    Column("transmission", String, nullable=False),  # automatic | manual
    Column("daily_price", Integer, nullable=False),  # cents
    Column("distance_per_day", Integer, nullable=True),  # miles included a day; null = unlimited
    Column("extra_mile_fee", Integer, nullable=False),  # cents per mile over the allowance
    Column("discount_3_day", Integer, nullable=False),  # percent off the trip price for 3+ day trips
    Column("discount_7_day", Integer, nullable=False),
    Column("discount_30_day", Integer, nullable=False),
    Column("min_trip_days", Integer, nullable=False),
    Column("max_trip_days", Integer, nullable=False),
    Column("advance_notice_hours", Integer, nullable=False),
    Column("instant_book", Boolean, nullable=False),
    Column("pets_allowed", Boolean, nullable=False),
    Column("description", Text, nullable=False),
    Column("rating", Integer, nullable=True),  # hundredths of a star
    Column("trip_count", Integer, nullable=False),
    Column("status", String, nullable=False),  # listed | snoozed
    Index("ix_vehicles_city", "city"),
    Index("ix_vehicles_host", "host_id"),
)

blocked_dates = Table(
    "blocked_dates",
    metadata,
    Column("id", String, primary_key=True),
    Column("vehicle_id", String, ForeignKey("vehicles.id"), nullable=False),
    Column("date", String, nullable=False),
    Index("ix_blocked_vehicle_date", "vehicle_id", "date"),
)

extras = Table(
    "extras",
    metadata,
    Column("id", String, primary_key=True),  # "ext_..."
    Column("vehicle_id", String, ForeignKey("vehicles.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("price", Integer, nullable=False),  # cents per unit
    Column("per", String, nullable=False),  # day | trip
    Column("max_quantity", Integer, nullable=False),
    Index("ix_extras_vehicle", "vehicle_id"),
)

protection_plans = Table(
    "protection_plans",
    metadata,
    Column("id", String, primary_key=True),  # premier | standard | minimum
    Column("name", String, nullable=False),
    Column("percent_of_trip_price", Integer, nullable=False),
    Column("out_of_pocket_max", Integer, nullable=False),  # cents
    Column("description", Text, nullable=False),
)

trips = Table(
    "trips",
    metadata,
    Column("id", String, primary_key=True),  # reservation number, e.g. "31840562"
    Column("guest_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("host_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("vehicle_id", String, ForeignKey("vehicles.id"), nullable=False),
    Column("start_at", String, nullable=False),
    Column("end_at", String, nullable=False),
    # pending | booked | in_progress | completed | canceled | declined | expired
    Column("status", String, nullable=False),
    Column("protection_plan", String, nullable=False),
    Column("extras", JSON, nullable=False),  # [{"extra_id": ..., "quantity": n}]
    Column("days", Integer, nullable=False),
    Column("daily_price", Integer, nullable=False),  # the listing's price when booked
    Column("trip_price", Integer, nullable=False),
    Column("discount", Integer, nullable=False),
    Column("trip_fee", Integer, nullable=False),
    Column("protection_cost", Integer, nullable=False),
    Column("extras_cost", Integer, nullable=False),
    Column("young_driver_fee", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("distance_allowed", Integer, nullable=True),  # miles for the whole trip; null = unlimited
    Column("extra_mile_fee", Integer, nullable=False),
    Column("payment_method_id", String, ForeignKey("payment_methods.id"), nullable=True),
    Column("requested_at", String, nullable=False, info={"volatile": True}),
    Column("booked_at", String, nullable=True, info={"volatile": True}),
    Column("checkin_odometer", Integer, nullable=True),
    Column("checkin_fuel", Integer, nullable=True),  # percent of a tank (or battery)
    Column("checkin_at", String, nullable=True, info={"volatile": True}),
    Column("checkout_odometer", Integer, nullable=True),
    Column("checkout_fuel", Integer, nullable=True),
    Column("checkout_at", String, nullable=True, info={"volatile": True}),
    Column("canceled_by", String, nullable=True),  # guest | host
    Column("cancel_reason", String, nullable=True),
    Column("cancellation_fee", Integer, nullable=True),
    Column("refund", Integer, nullable=True),
    Column("host_penalty", Integer, nullable=True),
    Column("canceled_at", String, nullable=True, info={"volatile": True}),
    Index("ix_trips_guest", "guest_id"),
    Index("ix_trips_host", "host_id"),
    Index("ix_trips_vehicle", "vehicle_id"),
)

trip_changes = Table(
    "trip_changes",
    metadata,
    Column("id", String, primary_key=True),  # "chg_..."
    Column("trip_id", String, ForeignKey("trips.id"), nullable=False),
    Column("new_start_at", String, nullable=False),
    Column("new_end_at", String, nullable=False),
    Column("new_days", Integer, nullable=False),
    Column("price_difference", Integer, nullable=False),  # cents; negative = refund
    Column("message", Text, nullable=True),
    Column("status", String, nullable=False),  # pending | approved | declined | withdrawn
    Column("requested_at", String, nullable=False, info={"volatile": True}),
    Column("expires_at", String, nullable=False, info={"volatile": True}),
    Index("ix_changes_trip", "trip_id"),
)

trip_photos = Table(
    "trip_photos",
    metadata,
    Column("id", String, primary_key=True),  # "ph_..."
    Column("trip_id", String, ForeignKey("trips.id"), nullable=False),
    Column("phase", String, nullable=False),  # check_in | checkout
    Column("angle", String, nullable=False),  # front | rear | driver_side | passenger_side | interior | dashboard
    Column("taken_by", String, nullable=False),  # guest | host
    Column("taken_at", String, nullable=False, info={"volatile": True}),
    Index("ix_photos_trip", "trip_id"),
)

reimbursements = Table(
    "reimbursements",
    metadata,
    Column("id", String, primary_key=True),  # "rmb_..."
    Column("trip_id", String, ForeignKey("trips.id"), nullable=False),
    Column("kind", String, nullable=False),  # fuel | distance | tolls | tickets | cleaning | smoking | late_return
    Column("amount", Integer, nullable=False),  # cents the guest is asked to pay
    Column("description", Text, nullable=False),
    Column("status", String, nullable=False),  # requested | paid | disputed
    Column("dispute_reason", Text, nullable=True),
    Column("payment_method_id", String, nullable=True),
    Column("requested_at", String, nullable=False, info={"volatile": True}),
    Column("due_at", String, nullable=False, info={"volatile": True}),
    Index("ix_reimbursements_trip", "trip_id"),
)

reviews = Table(
    "reviews",
    metadata,
    Column("id", String, primary_key=True),  # "rev_..."
    Column("vehicle_id", String, ForeignKey("vehicles.id"), nullable=False),
    Column("author", String, nullable=False),
    Column("rating", Integer, nullable=False),  # 1-5
    Column("text", Text, nullable=False),
    Column("created_date", String, nullable=False),
    Index("ix_reviews_vehicle", "vehicle_id"),
)

messages = Table(
    "messages",
    metadata,
    Column("id", String, primary_key=True),  # "msg_..."
    Column("trip_id", String, ForeignKey("trips.id"), nullable=False),
    Column("sender_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("text", Text, nullable=False),
    Column("sent_at", String, nullable=False, info={"volatile": True}),
    Index("ix_messages_trip", "trip_id"),
)
