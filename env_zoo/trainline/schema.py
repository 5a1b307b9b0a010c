"""Trainline's objects as tables: stations (CRS codes), train services with their Advance quotas, walk-up route
fares (Off-Peak and Anytime, single and return), travellers with their Railcards and saved passengers, and the
traveller's bookings with their tickets (e-tickets or mobile tickets, seat reservations) and refunds. Money is
integer pence (GBP); times are UK local `YYYY-MM-DDTHH:MM`."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

stations = Table(
    "stations",
    metadata,
    Column("code", String, primary_key=True),  # CRS code, e.g. "KGX"
    Column("name", String, nullable=False),
    Column("city", String, nullable=False),
    Column("country", String, nullable=False),  # GB | FR | BE
)

services = Table(
    "services",
    metadata,
    Column("id", String, primary_key=True),  # "svc_20250410_1E07"
    Column("headcode", String, nullable=False),
    Column("operator", String, nullable=False),  # LNER | Avanti West Coast | ...
    Column("origin", String, ForeignKey("stations.code"), nullable=False),
    Column("destination", String, ForeignKey("stations.code"), nullable=False),
    Column("travel_date", String, nullable=False),
    Column("departs", String, nullable=False),  # local YYYY-MM-DDTHH:MM (at the station: Paris and Brussels are CET)
    Column("arrives", String, nullable=False),
    Column("status", String, nullable=False),  # SCHEDULED | CANCELLED
    Column("advance_standard", Integer, nullable=True),  # pence; None when no Advance fare is sold (Eurostar: its fare)
    Column("advance_standard_left", Integer, nullable=False),
    Column("advance_first", Integer, nullable=True),
    Column("advance_first_left", Integer, nullable=False),
    Column("seats_standard", Integer, nullable=False),  # reservable seats in standard class
    Column("seats_first", Integer, nullable=False),
    Index("ix_services_route_date", "origin", "destination", "travel_date"),
)

route_fares = Table(
    "route_fares",
    metadata,
    Column("id", String, primary_key=True),  # "KGX-EDB-OFF_PEAK-STANDARD"
    Column("origin", String, ForeignKey("stations.code"), nullable=False),
    Column("destination", String, ForeignKey("stations.code"), nullable=False),
    Column("fare_type", String, nullable=False),  # OFF_PEAK | ANYTIME
    Column("travel_class", String, nullable=False),  # STANDARD | FIRST
    Column("single", Integer, nullable=False),  # pence, adult
    Column("return_fare", Integer, nullable=False),
    Index("ix_route_fares_route", "origin", "destination"),
)

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),  # "usr_..."
    Column("name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("password", String, nullable=False),
    Column("card_last4", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

railcards = Table(
    "railcards",
    metadata,
    Column("id", String, primary_key=True),  # "rc_..."
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("type", String, nullable=False),  # 16-25 | 26-30 | SENIOR | TWO_TOGETHER | FAMILY_AND_FRIENDS | DISABLED
    Column("number", String, nullable=False),
    Column("holders", JSON, nullable=False),  # names on the card
    Column("expires", String, nullable=False),  # YYYY-MM-DD
    Column("status", String, nullable=False),  # ACTIVE | REMOVED
    Index("ix_railcards_user", "user_id"),
)

passengers = Table(
    "passengers",
    metadata,
    Column("id", String, primary_key=True),  # "pax_..."
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("passenger_type", String, nullable=False),  # ADULT | CHILD
    Column("date_of_birth", String, nullable=False),
    Index("ix_passengers_user", "user_id"),
)

bookings = Table(
    "bookings",
    metadata,
    Column("booking_ref", String, primary_key=True),  # "TL" + 8 digits
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("status", String, nullable=False),  # CONFIRMED | PARTLY_REFUNDED | REFUNDED | EXCHANGED
    Column("railcard_id", String, ForeignKey("railcards.id"), nullable=True),
    Column("delivery", String, nullable=False),  # ETICKET | MTICKET
    Column("total", Integer, nullable=False),  # pence paid
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("exchanged_to", String, nullable=True),  # booking_ref of the booking an exchange produced
    Column("exchanged_from", String, nullable=True),  # the booking this one replaced in a change of journey
    Column("change_paid", Integer, nullable=True),  # pence paid for that change (fare difference and admin fees)
    Index("ix_bookings_user", "user_id"),
)

tickets = Table(
    "tickets",
    metadata,
    Column("id", String, primary_key=True),  # "tkt_..."
    Column("booking_ref", String, ForeignKey("bookings.booking_ref"), nullable=False),
    Column("passenger_name", String, nullable=False),
    Column("passenger_type", String, nullable=False),  # ADULT | CHILD
    Column("fare_type", String, nullable=False),  # ADVANCE | OFF_PEAK | ANYTIME | EUROSTAR
    Column("travel_class", String, nullable=False),
    Column("journey_type", String, nullable=False),  # SINGLE | RETURN
    Column("service_id", String, ForeignKey("services.id"), nullable=False),
    Column("return_service_id", String, ForeignKey("services.id"), nullable=True),
    Column("price", Integer, nullable=False),  # pence
    Column("railcard_applied", Boolean, nullable=False),
    Column("status", String, nullable=False),  # ISSUED | ACTIVATED | REFUNDED | EXCHANGED
    Column("coach", String, nullable=True),
    Column("seat", Integer, nullable=True),
    Column("return_coach", String, nullable=True),
    Column("return_seat", Integer, nullable=True),
    Index("ix_tickets_booking", "booking_ref"),
    Index("ix_tickets_service", "service_id"),
)

refunds = Table(
    "refunds",
    metadata,
    Column("id", String, primary_key=True),  # "rfd_..."
    Column("booking_ref", String, ForeignKey("bookings.booking_ref"), nullable=False),
    Column("ticket_ids", JSON, nullable=False),
    Column("ticket_value", Integer, nullable=False),
    Column("fee", Integer, nullable=False),
    Column("amount", Integer, nullable=False),
    Column("reason", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
