"""Amtrak's booking objects as tables: the timetable (stations, routes, trains, stops, daily departures with their
seat inventory per leg), fares by route and class, Guest Rewards members, and reservations with their segments,
passengers, eTickets, payments, eVouchers and points activity. Amounts are integers in cents."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table

metadata = MetaData()

stations = Table(
    "stations",
    metadata,
    Column("code", String, primary_key=True),  # three-letter station code: NYP, WAS, BOS
    Column("name", String, nullable=False),
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),  # two-letter state code
    Column("timezone", String, nullable=False),  # IANA zone of the timetable's local times
    Column("ticket_office", Boolean, nullable=False),
    Column("accessible", Boolean, nullable=False),
)

routes = Table(
    "routes",
    metadata,
    Column("route_id", String, primary_key=True),  # ACELA, NER, KEY, EMP, VTR, LSL, CL, SM
    Column("route_name", String, nullable=False),
    Column("route_type", String, nullable=False),  # corridor | long_distance
)

fare_plans = Table(
    "fare_plans",
    metadata,
    Column("fare_plan_id", String, primary_key=True),  # <route_id>-<fare_code>
    Column("route_id", String, ForeignKey("routes.route_id"), nullable=False),
    # SAVER | VALUE | FLEX | BUSINESS | FIRST | ROOMETTE | BEDROOM
    Column("fare_code", String, nullable=False),
    Column("class_of_service", String, nullable=False),  # coach | business | first | roomette | bedroom
    Column("base_cents", Integer, nullable=False),
    Column("per_mile_cents", Float, nullable=False),
)

trains = Table(
    "trains",
    metadata,
    Column("train_number", String, primary_key=True),
    Column("route_id", String, ForeignKey("routes.route_id"), nullable=False),
    Column("train_name", String, nullable=False),
    Column("days_of_operation", JSON, nullable=False),  # ["Mon", "Tue", ...]
    Column("capacity", JSON, nullable=False),  # {class_of_service: seats (rooms for sleepers)}
    Column("amenities", JSON, nullable=False),
)

train_stops = Table(
    "train_stops",
    metadata,
    Column("stop_id", String, primary_key=True),  # <train_number>-<stop_sequence>
    Column("train_number", String, ForeignKey("trains.train_number"), nullable=False),
    Column("stop_sequence", Integer, nullable=False),
    Column("station_code", String, ForeignKey("stations.code"), nullable=False),
    Column("arrival_time", String),  # HH:MM local; null at the origin
    Column("departure_time", String),  # HH:MM local; null at the destination
    Column("day_offset", Integer, nullable=False),  # days after the train's service date
    Column("miles", Float, nullable=False),  # from the train's origin
)

departures = Table(
    "departures",
    metadata,
    Column("departure_id", String, primary_key=True),  # <train_number>-<YYYY-MM-DD>
    Column("train_number", String, ForeignKey("trains.train_number"), nullable=False),
    Column("service_date", String, nullable=False),  # the date the train leaves its origin
    Column("status", String, nullable=False),  # SCHEDULED | DELAYED | CANCELLED
    Column("delay_minutes", Integer, nullable=False, default=0),
    Column("service_alert", String),
    Column("demand_pct", Integer, nullable=False),  # price level of the day, 100 = base fares
    Column("saver_seats", Integer, nullable=False),  # seats still sold at the Saver fare
    # {class_of_service: [seats (rooms) left on each leg, leg i from stop i to stop i + 1]}
    Column("seats_available", JSON, nullable=False),
)

members = Table(
    "members",
    metadata,
    Column("member_number", String, primary_key=True),  # Amtrak Guest Rewards number, 10 digits
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("phone", String, nullable=False),
    Column("tier", String, nullable=False),  # Member | Select | Select Plus | Select Executive
    Column("points_balance", Integer, nullable=False),
    Column("card_on_file", JSON),  # {"brand", "last4", "expires"}; null: none saved
    Column("home_station", String, ForeignKey("stations.code")),
    Column("member_since", String, nullable=False),
)

reservations = Table(
    "reservations",
    metadata,
    Column("reservation_number", String, primary_key=True),  # six characters, e.g. 4C7A1F
    Column("member_number", String, ForeignKey("members.member_number"), nullable=False),
    Column("status", String, nullable=False),  # CONFIRMED | CANCELLED | COMPLETED
    Column("trip_type", String, nullable=False),  # one_way | round_trip | multi_city
    Column("contact_email", String, nullable=False),
    Column("contact_phone", String, nullable=False),
    Column("total_cents", Integer, nullable=False),  # fares of the segments not cancelled
    Column("paid_card_cents", Integer, nullable=False),  # paid by card and not yet refunded
    Column("paid_evoucher_cents", Integer, nullable=False),  # paid by eVoucher and not yet given back
    Column("award", Boolean, nullable=False, default=False),  # paid with Guest Rewards points
    Column("paid_points", Integer, nullable=False),  # points redeemed and not yet redeposited
    Column("booked_at", String, nullable=False, info={"volatile": True}),
)

passengers = Table(
    "passengers",
    metadata,
    Column("passenger_id", String, primary_key=True),  # PAX...
    Column("reservation_number", String, ForeignKey("reservations.reservation_number"), nullable=False),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("passenger_type", String, nullable=False),  # adult | senior | child | infant | military
    Column("status", String, nullable=False),  # ACTIVE | REMOVED
)

segments = Table(
    "segments",
    metadata,
    Column("segment_id", String, primary_key=True),  # SEG...
    Column("reservation_number", String, ForeignKey("reservations.reservation_number"), nullable=False),
    Column("sequence", Integer, nullable=False),
    Column("departure_id", String, ForeignKey("departures.departure_id"), nullable=False),
    Column("train_number", String, ForeignKey("trains.train_number"), nullable=False),
    Column("service_date", String, nullable=False),
    Column("origin", String, ForeignKey("stations.code"), nullable=False),
    Column("destination", String, ForeignKey("stations.code"), nullable=False),
    Column("fare_code", String, nullable=False),
    Column("class_of_service", String, nullable=False),
    Column("rooms", Integer, nullable=False, default=0),  # sleeper rooms held
    Column("passenger_fares", JSON, nullable=False),  # {passenger_id: rail fare in cents}
    Column("accommodation_cents", Integer, nullable=False, default=0),  # sleeper room charges
    Column("status", String, nullable=False),  # CONFIRMED | CANCELLED | USED | NO_SHOW
)

etickets = Table(
    "etickets",
    metadata,
    Column("eticket_number", String, primary_key=True),  # 13 digits
    Column("reservation_number", String, ForeignKey("reservations.reservation_number"), nullable=False),
    Column("status", String, nullable=False),  # ISSUED | VOID
    Column("void_reason", String),  # exchanged | cancelled
    Column("issued_at", String, nullable=False, info={"volatile": True}),
)

evouchers = Table(
    "evouchers",
    metadata,
    Column("evoucher_number", String, primary_key=True),  # EV...
    Column("member_number", String, ForeignKey("members.member_number"), nullable=False),
    Column("source_reservation", String, ForeignKey("reservations.reservation_number")),
    Column("original_cents", Integer, nullable=False),
    Column("balance_cents", Integer, nullable=False),
    Column("expires_on", String, nullable=False),  # YYYY-MM-DD, a year after issue
    Column("status", String, nullable=False),  # ACTIVE | REDEEMED | EXPIRED
    Column("issued_at", String, nullable=False, info={"volatile": True}),
)

payments = Table(
    "payments",
    metadata,
    Column("payment_id", String, primary_key=True),  # PMT...
    Column("reservation_number", String, ForeignKey("reservations.reservation_number"), nullable=False),
    Column("kind", String, nullable=False),  # charge | refund | fee | forfeit
    Column("method", String, nullable=False),  # card | evoucher | points | none
    Column("amount_cents", Integer, nullable=False),
    Column("points", Integer, nullable=False, default=0),
    Column("evoucher_number", String, ForeignKey("evouchers.evoucher_number")),
    Column("description", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

rewards_activity = Table(
    "rewards_activity",
    metadata,
    Column("activity_id", String, primary_key=True),  # AGR...
    Column("member_number", String, ForeignKey("members.member_number"), nullable=False),
    Column("reservation_number", String, ForeignKey("reservations.reservation_number")),
    Column("description", String, nullable=False),
    Column("points", Integer, nullable=False),  # negative: redeemed
    Column("posted_at", String, nullable=False, info={"volatile": True}),
)
