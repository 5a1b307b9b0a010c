"""Amadeus flight data as tables: locations, airlines, aircraft, fare families, flights, travelers, orders, payments."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

locations = Table(
    "locations",
    metadata,
    Column("id", String, primary_key=True),  # Amadeus location id: "A" + IATA for airports, "C" + IATA for cities
    Column("sub_type", String, nullable=False),  # AIRPORT | CITY
    Column("iata_code", String, nullable=False),
    Column("name", String, nullable=False),
    Column("detailed_name", String, nullable=False),
    Column("city_code", String, nullable=False),
    Column("city_name", String, nullable=False),
    Column("country_code", String, nullable=False),
    Column("country_name", String, nullable=False),
    Column("latitude", Float, nullable=False),
    Column("longitude", Float, nullable=False),
    Column("time_zone_offset", String, nullable=False),  # e.g. +02:00, valid over the whole schedule window
    Column("traveler_score", Integer, nullable=False),  # analytics.travelers.score, 0-100
    Column("passenger_charge", Integer, nullable=True),  # taxes and airport charges per departing passenger, EUR
)

airlines = Table(
    "airlines",
    metadata,
    Column("code", String, primary_key=True),  # IATA airline code
    Column("business_name", String, nullable=False),
    Column("alliance", String, nullable=True),  # STAR_ALLIANCE | ONEWORLD | SKYTEAM | null
    Column("loyalty_program", String, nullable=True),  # name of the frequent flyer program it runs
)

aircraft = Table(
    "aircraft",
    metadata,
    Column("code", String, primary_key=True),  # IATA aircraft type code
    Column("name", String, nullable=False),
    # {"cabins": [{"cabin": "BUSINESS", "rows": [1, 4], "columns": "AC DF"}, ...], "exitRows": [11, 12]}
    Column("layout", JSON, nullable=False),
)

fare_families = Table(
    "fare_families",
    metadata,
    Column("id", String, primary_key=True),  # <carrier>-<brandedFare>
    Column("carrier_code", String, ForeignKey("airlines.code"), nullable=False),
    Column("cabin", String, nullable=False),  # ECONOMY | PREMIUM_ECONOMY | BUSINESS | FIRST
    Column("branded_fare", String, nullable=False),
    Column("branded_fare_label", String, nullable=False),
    Column("fare_type", String, nullable=False),  # BASIC | STANDARD | FLEX
    Column("booking_class", String, nullable=False),
    Column("fare_basis", String, nullable=False),
    Column("included_checked_bags", Integer, nullable=False),
    Column("price_factor", Float, nullable=False),  # multiplier on the flight's cabin base fare
    Column("refundable", Boolean, nullable=False),
    Column("cancellation_fee", Integer, nullable=False),  # EUR per traveler
    Column("changeable", Boolean, nullable=False),
    Column("change_fee", Integer, nullable=False),  # EUR per traveler
)

flights = Table(
    "flights",
    metadata,
    Column("id", String, primary_key=True),  # <carrier><number>-<YYYYMMDD>
    Column("carrier_code", String, ForeignKey("airlines.code"), nullable=False),
    Column("number", String, nullable=False),
    Column("departure_iata", String, nullable=False),
    Column("departure_terminal", String, nullable=True),
    Column("departure_at", String, nullable=False),  # local time, YYYY-MM-DDTHH:MM:SS
    Column("arrival_iata", String, nullable=False),
    Column("arrival_terminal", String, nullable=True),
    Column("arrival_at", String, nullable=False),  # local time
    Column("duration", String, nullable=False),  # ISO 8601, e.g. PT2H10M
    Column("aircraft_code", String, ForeignKey("aircraft.code"), nullable=False),
    Column("base_fares", JSON, nullable=False),  # cabin -> base fare of its cheapest brand, EUR
    Column("seats_left", JSON, nullable=False),  # cabin -> seats still for sale
    Column("occupied_seats", JSON, nullable=False),  # seat numbers taken by other passengers
    Index("ix_flights_departure", "departure_iata", "departure_at"),  # flights out of an airport on a day
    Index("ix_flights_arrival", "arrival_iata", "departure_at"),  # connections into the destination
)

travelers = Table(
    "travelers",
    metadata,
    Column("id", String, primary_key=True),
    Column("first_name", String, nullable=False),  # upper case, as airlines store names
    Column("last_name", String, nullable=False),
    Column("date_of_birth", String, nullable=True),  # YYYY-MM-DD
    Column("gender", String, nullable=True),  # MALE | FEMALE
    Column("email", String, nullable=True),
    Column("phone", String, nullable=True),  # E.164, e.g. +4915112345678
    Column("loyalty_programs", JSON, nullable=False, default=list),  # [{"programOwner": "LH", "id": "..."}]
)

flight_orders = Table(
    "flight_orders",
    metadata,
    Column("id", String, primary_key=True),
    Column("record_locator", String, nullable=False, unique=True),  # the PNR reference
    Column("status", String, nullable=False),  # HELD | TICKETED | CANCELLED
    Column("flight_offer_id", String, nullable=False),  # the booked flights and branded fare
    # [{"id": "1", "profileId", "travelerType", "associatedAdultId", "firstName", "lastName", "dateOfBirth",
    #   "loyaltyProgram": {"programOwner", "id"} | null}]
    Column("travelers", JSON, nullable=False),
    Column("seats", JSON, nullable=False, default=list),  # [{"flightId", "travelerId", "number"}]
    Column("base_total", Integer, nullable=False),  # cents
    Column("grand_total", Integer, nullable=False),  # cents
    Column("currency", String, nullable=False),
    Column("ticketing_option", String, nullable=False),  # CONFIRM | DELAY_TO_CANCEL
    Column("last_ticketing_date", String, nullable=True),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

payments = Table(
    "payments",
    metadata,
    Column("id", String, primary_key=True),
    Column("flight_order_id", String, ForeignKey("flight_orders.id"), nullable=False, index=True),
    Column("type", String, nullable=False),  # CHARGE | CHANGE_FEE | FARE_DIFFERENCE | REFUND
    Column("amount", Integer, nullable=False),  # cents, always positive
    Column("currency", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
