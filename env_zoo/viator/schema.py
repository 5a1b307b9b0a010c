"""Viator's partner-side objects as tables: destinations and tags; products with their options, age bands,
pickup locations, availability slots and reviews; the partner's bookings (held in a cart, then booked).
Money is integer cents in the partner's currency (USD); dates are ISO `YYYY-MM-DD`, start times `HH:MM` local to
the destination."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

destinations = Table(
    "destinations",
    metadata,
    Column("id", Integer, primary_key=True),  # Viator destination id, e.g. 732 (Paris)
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # CITY | REGION | COUNTRY
    Column("parent_id", Integer, ForeignKey("destinations.id"), nullable=True),
)

tags = Table(
    "tags",
    metadata,
    Column("id", Integer, primary_key=True),  # Viator tag id, e.g. 21972
    Column("name", String, nullable=False),
)

products = Table(
    "products",
    metadata,
    Column("product_code", String, primary_key=True),  # e.g. "5010PAR"
    Column("title", String, nullable=False),
    Column("destination_id", Integer, ForeignKey("destinations.id"), nullable=False),
    Column("tag_ids", JSON, nullable=False),
    Column("description", Text, nullable=False),
    Column("duration_minutes", Integer, nullable=False),
    Column("supplier", String, nullable=False),
    Column("status", String, nullable=False),  # ACTIVE | INACTIVE
    Column("confirmation_type", String, nullable=False),  # INSTANT | MANUAL (on request: booked as PENDING)
    Column("cancellation_type", String, nullable=False),  # STANDARD | ALL_SALES_FINAL | CUSTOM
    Column("refund_tiers", JSON, nullable=False),  # CUSTOM: [{"day_range_min": 7, "percentage_refundable": 100}]
    Column("booking_questions", JSON, nullable=False),  # question ids the booking must answer
    Column("pickup_offered", Boolean, nullable=False),
    Column("min_travelers", Integer, nullable=False),
    Column("max_travelers", Integer, nullable=False),
    Column("adult_required", Boolean, nullable=False),  # children and infants need an adult on the booking
    Column("rating", Integer, nullable=True),  # hundredths of a star
    Column("review_count", Integer, nullable=False),
    Index("ix_products_destination", "destination_id"),
)

age_bands = Table(
    "age_bands",
    metadata,
    Column("id", String, primary_key=True),
    Column("product_code", String, ForeignKey("products.product_code"), nullable=False),
    Column("band", String, nullable=False),  # ADULT | SENIOR | YOUTH | CHILD | INFANT | TRAVELER
    Column("start_age", Integer, nullable=False),
    Column("end_age", Integer, nullable=False),
    Column("min_per_booking", Integer, nullable=False),
    Column("max_per_booking", Integer, nullable=False),
    Index("ix_age_bands_product", "product_code"),
)

product_options = Table(
    "product_options",
    metadata,
    Column("id", String, primary_key=True),  # product_code + "~" + option code
    Column("product_code", String, ForeignKey("products.product_code"), nullable=False),
    Column("option_code", String, nullable=False),  # e.g. "TG1"
    Column("title", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("languages", JSON, nullable=False),
    Column("prices", JSON, nullable=False),  # {"ADULT": 8900, "CHILD": 4500} cents per traveler
    Index("ix_options_product", "product_code"),
)

pickup_locations = Table(
    "pickup_locations",
    metadata,
    Column("id", String, primary_key=True),  # "LOC-..." reference
    Column("product_code", String, ForeignKey("products.product_code"), nullable=False),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # HOTEL | PORT | AIRPORT | LOCATION
    Column("address", String, nullable=False),
    Index("ix_pickups_product", "product_code"),
)

slots = Table(
    "slots",
    metadata,
    Column("id", String, primary_key=True),
    Column("product_code", String, ForeignKey("products.product_code"), nullable=False),
    Column("option_code", String, nullable=False),
    Column("travel_date", String, nullable=False),
    Column("start_time", String, nullable=False),  # HH:MM
    Column("capacity", Integer, nullable=False),  # seats left
    Index("ix_slots_product_date", "product_code", "travel_date"),
)

bookings = Table(
    "bookings",
    metadata,
    Column("booking_ref", String, primary_key=True),  # "BR-" + 9 digits
    Column("cart_ref", String, nullable=False),  # "CR-" + digits
    Column("partner_booking_ref", String, nullable=True),  # the partner's own reference
    Column("product_code", String, ForeignKey("products.product_code"), nullable=False),
    Column("option_code", String, nullable=False),
    Column("travel_date", String, nullable=False),
    Column("start_time", String, nullable=False),
    Column("travelers", JSON, nullable=False),  # {"ADULT": 2, "CHILD": 1}
    Column("line_items", JSON, nullable=False),  # [{"band": "ADULT", "count": 2, "subtotal": 17800}]
    Column("total", Integer, nullable=False),  # cents
    Column("status", String, nullable=False),  # HELD | CONFIRMED | PENDING | REJECTED | CANCELLED | EXPIRED
    Column("hold_expires_at", String, nullable=True, info={"volatile": True}),
    Column("lead_traveler", String, nullable=True),
    Column("email", String, nullable=True),
    Column(
        "answers", JSON, nullable=False
    ),  # {"travelers": [...], "pickup_location_id": ..., "special_requirements": ...}
    Column("booked_at", String, nullable=True, info={"volatile": True}),
    Column("rejection_reason", String, nullable=True),
    Column("cancel_reason", String, nullable=True),
    Column("refund", Integer, nullable=True),  # cents refunded on cancellation
    Column("cancelled_at", String, nullable=True, info={"volatile": True}),
    Index("ix_bookings_product", "product_code"),
)

reviews = Table(
    "reviews",
    metadata,
    Column("id", String, primary_key=True),
    Column("product_code", String, ForeignKey("products.product_code"), nullable=False),
    Column("provider", String, nullable=False),  # VIATOR | TRIPADVISOR
    Column("rating", Integer, nullable=False),  # 1-5
    Column("title", String, nullable=False),
    Column("text", Text, nullable=False),
    Column("author", String, nullable=False),
    Column("published_date", String, nullable=False),
    Column("traveler_type", String, nullable=False),  # COUPLES | FAMILY | FRIENDS | SOLO | BUSINESS
    Index("ix_reviews_product", "product_code"),
)
