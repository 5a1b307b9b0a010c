"""Delta's customer-side records as tables: airports, scheduled flights with their fares by brand, SkyMiles members,
trips (reservations under a six-character confirmation number) with passengers, flight segments and seats, eCredits,
and the SkyMiles activity history. Money is integer cents (USD); times are UTC ISO timestamps."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

airports = Table(
    "airports",
    metadata,
    Column("code", String, primary_key=True),  # IATA, e.g. ATL
    Column("city", String, nullable=False),
    Column("country", String, nullable=False),
)

flights = Table(
    "flights",
    metadata,
    Column("id", String, primary_key=True),  # "DL1234-2026-07-02"
    Column("flight_number", String, nullable=False),  # "DL1234"
    Column("flight_date", String, nullable=False),
    Column("origin", String, ForeignKey("airports.code"), nullable=False),
    Column("destination", String, ForeignKey("airports.code"), nullable=False),
    Column("departs_at", String, nullable=False),
    Column("arrives_at", String, nullable=False),
    Column("aircraft", String, nullable=False),
    Column("status", String, nullable=False),  # SCHEDULED | DELAYED | CANCELED | DEPARTED
    Column("fares", JSON, nullable=False),  # brand -> cents per passenger, e.g. {"MAIN_BASIC": 12900, ...}
    Column("award_miles", JSON, nullable=False),  # brand -> miles per passenger
    Column("seats_left", JSON, nullable=False),  # cabin -> seats still sold: FIRST, COMFORT_PLUS, MAIN
    Index("ix_flights_route", "origin", "destination", "flight_date"),
)

customers = Table(
    "customers",
    metadata,
    Column("skymiles_number", String, primary_key=True),  # ten digits
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("password", String, nullable=False),
    Column("medallion", String, nullable=False),  # NONE | SILVER | GOLD | PLATINUM | DIAMOND
    Column("miles_balance", Integer, nullable=False),
    Column("card_last4", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("skymiles_number", String, ForeignKey("customers.skymiles_number"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

trips = Table(
    "trips",
    metadata,
    Column("confirmation", String, primary_key=True),  # six letters and digits, e.g. "GX7K2M"
    Column("skymiles_number", String, ForeignKey("customers.skymiles_number"), nullable=False),
    Column("ticket_number", String, nullable=False),  # 006 + ten digits
    Column("fare_brand", String, nullable=False),  # MAIN_BASIC | MAIN_CLASSIC | COMFORT_PLUS | FIRST
    Column("refundable", Boolean, nullable=False),
    Column("payment", String, nullable=False),  # CARD | MILES | ECREDIT
    Column("fare_paid", Integer, nullable=False),  # cents (taxes included for cash tickets)
    Column("miles_paid", Integer, nullable=False),
    Column("purchased_at", String, nullable=False, info={"volatile": True}),
    Column("status", String, nullable=False),  # TICKETED | CANCELED | FLOWN
    Index("ix_trips_owner", "skymiles_number"),
)

passengers = Table(
    "passengers",
    metadata,
    Column("id", String, primary_key=True),  # confirmation + "-" + index
    Column("confirmation", String, ForeignKey("trips.confirmation"), nullable=False),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("skymiles_number", String, nullable=True),
    Column("known_traveler_number", String, nullable=True),
    Index("ix_passengers_trip", "confirmation"),
)

segments = Table(
    "segments",
    metadata,
    Column("id", String, primary_key=True),
    Column("confirmation", String, ForeignKey("trips.confirmation"), nullable=False),
    Column("flight_id", String, ForeignKey("flights.id"), nullable=False),
    Column("fare_paid", Integer, nullable=False),  # cents per passenger (miles for awards)
    Column("status", String, nullable=False),  # CONFIRMED | STANDBY | REMOVED | CANCELED | FLOWN
    Column("checked_in", Boolean, nullable=False),
    Index("ix_segments_trip", "confirmation"),
    Index("ix_segments_flight", "flight_id"),
)

seat_assignments = Table(
    "seat_assignments",
    metadata,
    Column("id", String, primary_key=True),
    Column("flight_id", String, ForeignKey("flights.id"), nullable=False),
    Column("seat", String, nullable=False),  # e.g. "21C"
    Column("passenger_id", String, nullable=True),  # null: taken by another traveler
    Column("fee", Integer, nullable=False),
    Index("ix_seats_flight", "flight_id"),
)

ecredits = Table(
    "ecredits",
    metadata,
    Column("credit_number", String, primary_key=True),  # the original ticket number, 006 + ten digits
    Column("skymiles_number", String, ForeignKey("customers.skymiles_number"), nullable=False),
    Column("original_value", Integer, nullable=False),
    Column("remaining", Integer, nullable=False),
    Column("issued_on", String, nullable=False),
    Column("expires_on", String, nullable=False),
    Column("source_confirmation", String, nullable=True),
    Index("ix_ecredits_owner", "skymiles_number"),
)

miles_activity = Table(
    "miles_activity",
    metadata,
    Column("id", String, primary_key=True),
    Column("skymiles_number", String, ForeignKey("customers.skymiles_number"), nullable=False),
    Column("posted_on", String, nullable=False),
    Column("description", String, nullable=False),
    Column("miles", Integer, nullable=False),
    Index("ix_activity_owner", "skymiles_number"),
)
