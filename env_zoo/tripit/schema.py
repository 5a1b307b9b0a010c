"""TripIt's objects as tables: traveler profiles and their connections, trips with their invitees, travel plans
(air, lodging, car and activity objects; flights carry segments with a flight status), flight alerts, and the inbox
of forwarded confirmation emails. Dates are ISO `YYYY-MM-DD`, times `HH:MM` local to the place they happen; costs
are decimal strings with a currency, as TripIt keeps them."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

profiles = Table(
    "profiles",
    metadata,
    Column("ref", String, primary_key=True),  # profile_ref, 22 letters and digits
    Column("screen_name", String, nullable=False),
    Column("public_display_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("home_city", String, nullable=False),
    Column("company", String, nullable=True),
    Column("is_pro", Boolean, nullable=False),  # TripIt Pro: flight alerts
)

connections = Table(
    "connections",
    metadata,
    Column("id", String, primary_key=True),
    Column("profile_ref", String, ForeignKey("profiles.ref"), nullable=False),
    Column("connection_ref", String, ForeignKey("profiles.ref"), nullable=False),
    Index("ix_connections_profile", "profile_ref"),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("profile_ref", String, ForeignKey("profiles.ref"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

trips = Table(
    "trips",
    metadata,
    Column("id", String, primary_key=True),  # numeric string, e.g. "318204417"
    Column("owner_ref", String, ForeignKey("profiles.ref"), nullable=False),
    Column("display_name", String, nullable=False),
    Column("primary_location", String, nullable=False),
    Column("start_date", String, nullable=False),
    Column("end_date", String, nullable=False),
    Column("description", Text, nullable=True),
    Column("purpose_type_code", String, nullable=True),  # B business | L leisure | C conference | H holiday
    Column("is_private", Boolean, nullable=False),
    Column("last_modified", String, nullable=False, info={"volatile": True}),
    Index("ix_trips_owner", "owner_ref"),
)

invitees = Table(
    "invitees",
    metadata,
    Column("id", String, primary_key=True),
    Column("trip_id", String, ForeignKey("trips.id"), nullable=False),
    Column("profile_ref", String, ForeignKey("profiles.ref"), nullable=True),  # None: invited by email only
    Column("email", String, nullable=False),
    Column("is_traveler", Boolean, nullable=False),
    Column("is_read_only", Boolean, nullable=False),
    Column("status", String, nullable=False),  # pending | accepted
    Index("ix_invitees_trip", "trip_id"),
    Index("ix_invitees_profile", "profile_ref"),
)

objects = Table(
    "objects",
    metadata,
    Column("id", String, primary_key=True),  # numeric string, e.g. "2104558713"
    Column("trip_id", String, ForeignKey("trips.id"), nullable=False),
    Column("type", String, nullable=False),  # air | lodging | car | activity
    Column("display_name", String, nullable=False),
    Column("supplier_name", String, nullable=False),
    Column("supplier_conf_num", String, nullable=True),
    Column("booking_site_name", String, nullable=True),
    Column("start_date", String, nullable=False),
    Column("start_time", String, nullable=True),
    Column("end_date", String, nullable=False),
    Column("end_time", String, nullable=True),
    Column("location", String, nullable=True),  # address or city; a car's pick-up place
    Column("details", JSON, nullable=False),  # type-specific fields (room_type, car_type, detail_type_code, ...)
    Column("total_cost", String, nullable=True),  # "412.80 USD"
    Column("notes", Text, nullable=True),
    Column("created_by", String, ForeignKey("profiles.ref"), nullable=False),
    Index("ix_objects_trip", "trip_id"),
)

segments = Table(
    "segments",
    metadata,
    Column("id", String, primary_key=True),
    Column("object_id", String, ForeignKey("objects.id"), nullable=False),
    Column("marketing_airline_code", String, nullable=False),
    Column("marketing_flight_number", String, nullable=False),
    Column("start_airport_code", String, nullable=False),
    Column("end_airport_code", String, nullable=False),
    Column("start_date", String, nullable=False),
    Column("start_time", String, nullable=False),
    Column("end_date", String, nullable=False),
    Column("end_time", String, nullable=False),
    Column("seats", String, nullable=True),
    Column("service_class", String, nullable=True),
    Column("flight_status", Integer, nullable=False),  # TripIt flight status code (300 scheduled, 401 delayed, ...)
    Column("departure_terminal", String, nullable=True),
    Column("departure_gate", String, nullable=True),
    Column("estimated_departure_time", String, nullable=True),
    Index("ix_segments_object", "object_id"),
)

alerts = Table(
    "alerts",
    metadata,
    Column("id", String, primary_key=True),
    Column("profile_ref", String, ForeignKey("profiles.ref"), nullable=False),
    Column("segment_id", String, ForeignKey("segments.id"), nullable=True),
    Column("alert_type", String, nullable=False),  # delay | cancellation | gate_change | checkin | connection_risk
    Column("message", Text, nullable=False),
    Column("created_at", String, nullable=False),
    Column("is_read", Boolean, nullable=False),
    Index("ix_alerts_profile", "profile_ref"),
)

inbox = Table(
    "inbox",
    metadata,
    Column("id", String, primary_key=True),
    Column("profile_ref", String, ForeignKey("profiles.ref"), nullable=False),
    Column("from_address", String, nullable=False),
    Column("subject", String, nullable=False),
    Column("received_at", String, nullable=False),
    Column("status", String, nullable=False),  # unfiled | filed | unrecognized
    Column("parsed", JSON, nullable=True),  # the plan TripIt read from the email (type, supplier, dates, segments)
    Column("trip_id", String, ForeignKey("trips.id"), nullable=True),
    Column("object_id", String, ForeignKey("objects.id"), nullable=True),
    Index("ix_inbox_profile", "profile_ref"),
)
