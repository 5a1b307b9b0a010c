"""Lyft's rider-side objects as tables: riders and their sign-in, payment methods and saved places; the service
zones of each region with their Prime Time and driver supply, named places to search, the ride types a region
offers with their rate cards, drivers, rides (now or scheduled) and lost-item reports. Money is integer cents
(USD); timestamps are ISO UTC strings."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

riders = Table(
    "riders",
    metadata,
    Column("user_id", String, primary_key=True),  # Lyft user id, digits
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("phone_number", String, nullable=False),  # E.164, how a rider logs in
    Column("email", String, nullable=False),
    Column("home_region", String, nullable=False),
    Column("has_taken_a_ride", Boolean, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the rider logged in to the app
    Column("user_id", String, ForeignKey("riders.user_id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

payment_methods = Table(
    "payment_methods",
    metadata,
    Column("payment_method_id", String, primary_key=True),  # "pm_" + 8 characters
    Column("user_id", String, ForeignKey("riders.user_id"), nullable=False),
    Column("type", String, nullable=False),  # card | apple_pay | google_pay | paypal
    Column("brand", String, nullable=True),  # visa | mastercard | amex | discover
    Column("last4", String, nullable=True),
    Column("expires", String, nullable=True),  # YYYY-MM, cards only
    Column("label", String, nullable=False),  # the rider's own name for it, e.g. "Work Amex"
    Column("is_default", Boolean, nullable=False),
    Index("ix_payment_methods_user", "user_id"),
)

zones = Table(
    "zones",
    metadata,
    Column("zone_id", String, primary_key=True),
    Column("region", String, nullable=False),  # SEA | BOS
    Column("name", String, nullable=False),
    Column("lat", Float, nullable=False),
    Column("lng", Float, nullable=False),
    Column("primetime_percentage", Integer, nullable=False),  # 0, 25, 50, 100 ...
    Column("eta_seconds", JSON, nullable=False),  # {"lyft": 240, "lyft_plus": 540}; a type absent = no drivers
)

places = Table(
    "places",
    metadata,
    Column("place_id", String, primary_key=True),
    Column("region", String, nullable=False),
    Column("name", String, nullable=False),
    Column("address", String, nullable=False),
    Column("lat", Float, nullable=False),
    Column("lng", Float, nullable=False),
    Column("kind", String, nullable=False),  # airport | station | venue | hotel | address | office
    Index("ix_places_region", "region"),
)

ride_types = Table(
    "ride_types",
    metadata,
    Column("id", String, primary_key=True),  # region + ":" + ride_type
    Column("region", String, nullable=False),
    Column("ride_type", String, nullable=False),  # lyft | lyft_line | lyft_plus | lyft_premier | lyft_lux | lyft_luxsuv
    Column("display_name", String, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("base_charge", Integer, nullable=False),
    Column("cost_per_mile", Integer, nullable=False),
    Column("cost_per_minute", Integer, nullable=False),
    Column("cost_minimum", Integer, nullable=False),
    Column("trust_and_service", Integer, nullable=False),
    Column("cancel_penalty_amount", Integer, nullable=False),
    Column("schedulable", Boolean, nullable=False),
)

saved_places = Table(
    "saved_places",
    metadata,
    Column("place_id", String, primary_key=True),  # "sp_" + digits
    Column("user_id", String, ForeignKey("riders.user_id"), nullable=False),
    Column("label", String, nullable=False),  # home | work | other
    Column("name", String, nullable=False),
    Column("address", String, nullable=False),
    Column("lat", Float, nullable=False),
    Column("lng", Float, nullable=False),
    Index("ix_saved_places_user", "user_id"),
)

drivers = Table(
    "drivers",
    metadata,
    Column("driver_id", String, primary_key=True),
    Column("first_name", String, nullable=False),
    Column("phone_number", String, nullable=False),
    Column("rating", Float, nullable=False),
    Column("vehicle", JSON, nullable=False),  # {"make", "model", "year", "color", "license_plate"}
)

rides = Table(
    "rides",
    metadata,
    Column("ride_id", String, primary_key=True),  # digits
    Column("user_id", String, ForeignKey("riders.user_id"), nullable=False),
    Column("region", String, nullable=False),
    Column("ride_type", String, nullable=False),
    # pending | accepted | arrived | pickedUp | droppedOff | canceled | scheduled
    Column("status", String, nullable=False),
    Column("origin", JSON, nullable=False),  # {"lat", "lng", "address"}
    Column("destination", JSON, nullable=False),
    Column("party_size", Integer, nullable=False),
    Column("primetime_percentage", Integer, nullable=False),
    Column("distance_miles", Float, nullable=False),
    Column("duration_seconds", Integer, nullable=False),
    Column("price", Integer, nullable=False),  # cents: the fare charged, or the upfront quote while not dropped off
    Column("line_items", JSON, nullable=False),  # [{"type": "Ride fare", "amount": 1234}]
    Column("payment_method_id", String, nullable=False),
    Column("driver_id", String, ForeignKey("drivers.driver_id"), nullable=True),
    Column("requested_at", String, nullable=False, info={"volatile": True}),
    Column("scheduled_pickup_at", String, nullable=True),
    Column("accepted_at", String, nullable=True),
    Column("original_eta_at", String, nullable=True),  # pickup time promised when the driver accepted
    Column("eta_at", String, nullable=True),  # the driver's pickup time now
    Column("pickup_at", String, nullable=True),
    Column("dropoff_at", String, nullable=True),
    Column("canceled_at", String, nullable=True, info={"volatile": True}),
    Column("canceled_by", String, nullable=True),  # passenger | driver | dispatcher
    Column("cancel_fee", Integer, nullable=False),
    Column("rating", Integer, nullable=True),
    Column("feedback", String, nullable=True, info={"volatile": True}),
    Column("tip", Integer, nullable=False),
    Column("tipped_at", String, nullable=True, info={"volatile": True}),
    Index("ix_rides_user", "user_id", "requested_at"),
)

lost_items = Table(
    "lost_items",
    metadata,
    Column("report_id", String, primary_key=True),  # "LF-" + 6 digits
    Column("ride_id", String, ForeignKey("rides.ride_id"), nullable=False),
    Column("user_id", String, ForeignKey("riders.user_id"), nullable=False),
    Column("description", String, nullable=False, info={"volatile": True}),
    Column("contact_phone", String, nullable=False),
    # reported | driver_has_item | driver_no_item | return_arranged | returned
    Column("status", String, nullable=False),
    Column("reported_at", String, nullable=False, info={"volatile": True}),
    Column("return_address", String, nullable=True, info={"volatile": True}),
    Column("return_fee", Integer, nullable=False),
    Column("return_arranged_at", String, nullable=True, info={"volatile": True}),
    Index("ix_lost_items_user", "user_id"),
)
