"""Tables of the Rapid partner account: regions and property content, room types, rate plans, nightly allotments,
guest reviews, price-check tokens, and itineraries with their booked rooms."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table

metadata = MetaData()

regions = Table(
    "regions",
    metadata,
    Column("region_id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # city, neighborhood, airport, point_of_interest
    Column("country_code", String, nullable=False),
    Column("parent_id", String),
    Column("property_ids", JSON, nullable=False),
)

properties = Table(
    "properties",
    metadata,
    Column("property_id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("region_id", String, ForeignKey("regions.region_id"), nullable=False),
    Column("line_1", String, nullable=False),
    Column("city", String, nullable=False),
    Column("postal_code", String, nullable=False),
    Column("country_code", String, nullable=False),
    Column("category", String, nullable=False),  # Hotel, Resort, Apartment, Bed & breakfast
    Column("chain", String),
    Column("star_rating", String, nullable=False),  # "4.5"
    Column("guest_rating", String, nullable=False),  # "8.7" out of 10
    Column("phone", String, nullable=False),
    Column("checkin_begin_time", String, nullable=False),
    Column("checkin_end_time", String, nullable=False),
    Column("checkout_time", String, nullable=False),
    Column("checkin_min_age", Integer, nullable=False),
    Column("amenities", JSON, nullable=False),  # names
    Column("pets_allowed", Boolean, nullable=False),
    Column("know_before_you_go", String, nullable=False),
    Column("resort_fee", Integer, nullable=False),  # cents per night, paid at the property
    Column("payment_types", JSON, nullable=False),  # card brands the property takes at the desk
)

rooms = Table(
    "rooms",
    metadata,
    Column("room_id", String, primary_key=True),
    Column("property_id", String, ForeignKey("properties.property_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("max_adults", Integer, nullable=False),
    Column("max_occupancy", Integer, nullable=False),
    Column("bed_group", String, nullable=False),
    Column("amenities", JSON, nullable=False),
)

rates = Table(
    "rates",
    metadata,
    Column("rate_id", String, primary_key=True),
    Column("room_id", String, ForeignKey("rooms.room_id"), nullable=False),
    Column("property_id", String, ForeignKey("properties.property_id"), nullable=False),
    Column("board", String, nullable=False),  # room_only, breakfast
    Column("refundable", Boolean, nullable=False),
    Column("free_cancel_hours", Integer, nullable=False),  # hours before check-in when the penalty window opens
    Column("penalty_type", String, nullable=False),  # nights, percent, amount
    Column("penalty_value", Integer, nullable=False),  # nights, percent, or cents
    Column("nightly_base", Integer, nullable=False),  # cents per room per night, before taxes
    Column("tax_percent", Integer, nullable=False),
    Column("holdable", Boolean, nullable=False),
    Column("live_change_percent", Integer, nullable=False),  # how far the live price moved from the cached one
)

allotments = Table(
    "allotments",
    metadata,
    Column("allotment_id", String, primary_key=True),  # <room_id>:<date>
    Column("room_id", String, ForeignKey("rooms.room_id"), nullable=False),
    Column("date", String, nullable=False),
    Column("available", Integer, nullable=False),
)

reviews = Table(
    "reviews",
    metadata,
    Column("review_id", String, primary_key=True),
    Column("property_id", String, ForeignKey("properties.property_id"), nullable=False),
    Column("rating", String, nullable=False),
    Column("title", String, nullable=False),
    Column("text", String, nullable=False),
    Column("date_submitted", String, nullable=False),
    Column("traveler_type", String, nullable=False),
    Column("reviewer_name", String, nullable=False),
)

price_checks = Table(
    "price_checks",
    metadata,
    Column("token", String, primary_key=True),
    Column("property_id", String, ForeignKey("properties.property_id"), nullable=False),
    Column("room_id", String, ForeignKey("rooms.room_id"), nullable=False),
    Column("rate_id", String, ForeignKey("rates.rate_id"), nullable=False),
    Column("checkin", String, nullable=False),
    Column("checkout", String, nullable=False),
    Column("occupancy", JSON, nullable=False),
    Column("status", String, nullable=False),  # available, price_changed, sold_out
    Column("total", Integer, nullable=False),  # cents, all rooms, taxes included
    Column("used", Boolean, nullable=False),
)

itineraries = Table(
    "itineraries",
    metadata,
    Column("itinerary_id", String, primary_key=True),
    Column("property_id", String, ForeignKey("properties.property_id"), nullable=False),
    Column("email", String, nullable=False),
    Column("phone", String, nullable=False),
    Column("affiliate_reference_id", String),
    Column("hold_status", String),  # held, resumed, released; null for an instant booking
    Column("hold_expires_at", String, info={"volatile": True}),
    Column("payment_type", String, nullable=False),  # affiliate_collect, property_collect
    Column("creation_date_time", String, nullable=False, info={"volatile": True}),
)

itinerary_rooms = Table(
    "itinerary_rooms",
    metadata,
    Column("id", String, primary_key=True),
    Column("itinerary_id", String, ForeignKey("itineraries.itinerary_id"), nullable=False),
    Column("room_id", String, ForeignKey("rooms.room_id"), nullable=False),
    Column("rate_id", String, ForeignKey("rates.rate_id"), nullable=False),
    Column("checkin", String, nullable=False),
    Column("checkout", String, nullable=False),
    Column("number_of_adults", Integer, nullable=False),
    Column("child_ages", JSON, nullable=False),
    Column("given_name", String, nullable=False),
    Column("family_name", String, nullable=False),
    Column("smoking", Boolean, nullable=False),
    Column("special_request", String),
    Column("status", String, nullable=False),  # pending, booked, canceled
    Column("confirmation_expedia", String, nullable=False),
    Column("nightly", JSON, nullable=False),  # [[base cents, tax cents], ...] one per night
    Column("refundable", Boolean, nullable=False),
    Column("cancel_penalties", JSON, nullable=False),  # [{start, end, amount|nights|percent}]
    Column("penalty_charged", Integer),
    Column("refund", Integer),
)
