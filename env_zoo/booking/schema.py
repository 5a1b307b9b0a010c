"""Booking.com's objects as tables: cities, accommodations with their rooms, products (rate plans) and availability
calendar; traveller accounts and their signed-in session; orders; guest reviews; wish lists. Money is in the
property's currency as decimal amounts, as the Demand API returns it; dates are YYYY-MM-DD."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

cities = Table(
    "cities",
    metadata,
    Column("id", Integer, primary_key=True),  # Booking.com location id, negative (-2140479 is Amsterdam)
    Column("name", String, nullable=False),
    Column("country", String, nullable=False),  # ISO 3166-1 alpha-2, lowercase
    Column("utc_offset", String, nullable=False),  # "+02:00": the properties' local time (summer)
)

accommodations = Table(
    "accommodations",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    # hotel | apartment | aparthotel | hostel | guest_house | bed_and_breakfast
    Column("accommodation_type", String, nullable=False),
    Column("city_id", Integer, ForeignKey("cities.id"), nullable=False),
    Column("address", String, nullable=False),
    Column("postal_code", String, nullable=False),
    Column("stars", Integer),  # official rating 1-5; null when unrated
    Column("distance_to_centre", Float, nullable=False),  # km
    Column("description", Text, nullable=False),
    Column("facilities", JSON, nullable=False),  # ["Free WiFi", "Airport shuttle", ...]
    Column("checkin_from", String, nullable=False),  # "15:00"
    Column("checkin_until", String, nullable=False),  # "23:00"; "00:00" is midnight
    Column("checkout_until", String, nullable=False),  # "11:00"
    Column("pets_allowed", Boolean, nullable=False),
    Column("children_allowed", Boolean, nullable=False),  # false: adults only
    Column("currency", String, nullable=False),
    Column("genius_discounts", JSON),  # {"1": 10, "2": 15, "3": 20} percent by Genius level; null: not a partner
    Column("genius_free_breakfast", Boolean, nullable=False),  # Genius level 2+ get breakfast on room-only rates
)

rooms = Table(
    "rooms",
    metadata,
    Column("id", Integer, primary_key=True),  # accommodation id * 100 + n
    Column("accommodation_id", Integer, ForeignKey("accommodations.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("max_adults", Integer, nullable=False),
    Column("max_persons", Integer, nullable=False),  # adults and children together
    Column("bed_configuration", String, nullable=False),
    Column("room_size", Integer, nullable=False),  # m2
    Column("facilities", JSON, nullable=False),
    Column("number_of_units", Integer, nullable=False),
)

products = Table(
    "products",
    metadata,
    Column("id", String, primary_key=True),  # "<room>_<rate>_<occupancy>_0_0", as the Demand API's product ids
    Column("room_id", Integer, ForeignKey("rooms.id"), nullable=False),
    Column("accommodation_id", Integer, ForeignKey("accommodations.id"), nullable=False),
    Column("name", String, nullable=False),  # the rate plan: "Standard rate", "Non-refundable", ...
    Column("meal_plan", String, nullable=False),  # room_only | breakfast_included | half_board
    Column("cancellation_type", String, nullable=False),  # free_cancellation | non_refundable
    Column("free_cancellation_days", Integer),  # free until 23:59 local this many days before check-in
    Column("late_cancellation_fee", String),  # first_night | total: charged after the deadline
    Column("price_factor", Float, nullable=False),  # times the room's nightly calendar price
    Column("genius_eligible", Boolean, nullable=False),
)

availability = Table(
    "availability",
    metadata,
    Column("id", String, primary_key=True),  # "<room id>:<date>"
    Column("room_id", Integer, ForeignKey("rooms.id"), nullable=False),
    Column("date", String, nullable=False),
    Column("units_available", Integer, nullable=False),  # rooms left to sell for this night
    Column("price", Float, nullable=False),  # the room's nightly price before the rate plan's factor
    Column("min_stay", Integer, nullable=False),  # minimum nights for stays arriving this date
    Index("ix_availability_room_date", "room_id", "date"),  # a room's nights of a stay
)

bookers = Table(
    "bookers",
    metadata,
    Column("id", String, primary_key=True),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("telephone", String, nullable=False),
    Column("country", String, nullable=False),
    Column("genius_level", Integer, nullable=False),  # 1-3, kept for life once reached
    Column("member_since", String, nullable=False),
    Column("payment_card", JSON),  # {"brand", "last4", "expiry"}; null: no card saved
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # always "current"
    Column("booker_id", String, ForeignKey("bookers.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

orders = Table(
    "orders",
    metadata,
    Column("id", String, primary_key=True),  # the confirmation number
    Column("pin_code", String, nullable=False),
    Column("booker_id", String, ForeignKey("bookers.id"), nullable=False),
    Column("accommodation_id", Integer, ForeignKey("accommodations.id"), nullable=False),
    Column("product_id", String, ForeignKey("products.id"), nullable=False),
    Column("checkin", String, nullable=False),
    Column("checkout", String, nullable=False),
    Column("number_of_rooms", Integer, nullable=False),
    Column("number_of_adults", Integer, nullable=False),
    Column("children_ages", JSON, nullable=False),
    Column("guest_name", String, nullable=False),
    Column("special_requests", Text, nullable=False, default=""),
    Column("estimated_arrival_time", String),  # "HH:MM" local
    # booked | stayed | no_show | cancelled_by_guest | cancelled_by_accommodation
    Column("status", String, nullable=False),
    Column("meal_plan", String, nullable=False),  # the rate's, or breakfast_included through Genius
    Column("payment_timing", String, nullable=False),  # pay_at_the_property | pay_online_now
    Column("currency", String, nullable=False),
    Column("nightly_prices", JSON, nullable=False),  # [{"date", "price"}] for all rooms, after the Genius discount
    Column("price_base", Float, nullable=False),  # before the Genius discount
    Column("genius_discount", Float, nullable=False),
    Column("price_total", Float, nullable=False),
    Column("genius_benefits", JSON, nullable=False),  # ["15% Genius discount", "Free breakfast"]
    Column("free_cancellation_until", String),  # ISO with the property's offset; null: non-refundable
    Column("cancellation_fee", Float),  # charged when cancelled
    Column("cancellation_reason", String),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("modified", String, info={"volatile": True}),
    Column("cancelled_at", String, info={"volatile": True}),
)

reviews = Table(
    "reviews",
    metadata,
    Column("id", String, primary_key=True),
    Column("accommodation_id", Integer, ForeignKey("accommodations.id"), nullable=False),
    Column("order_id", String, ForeignKey("orders.id"), unique=True),  # null for guests outside this data set
    Column("reviewer_name", String, nullable=False),
    Column("reviewer_country", String, nullable=False),
    Column("traveller_type", String, nullable=False),  # couple | family | solo | group | business
    Column("score", Integer, nullable=False),  # 1-10
    Column("title", String, nullable=False, default=""),
    Column("positive", Text, nullable=False, default=""),
    Column("negative", Text, nullable=False, default=""),
    Column("stayed_in", String, nullable=False),  # YYYY-MM of the check-out
    Column("date", String, nullable=False, info={"volatile": True}),  # YYYY-MM-DD submitted
)

wish_lists = Table(
    "wish_lists",
    metadata,
    Column("id", String, primary_key=True),
    Column("booker_id", String, ForeignKey("bookers.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
)

wish_list_items = Table(
    "wish_list_items",
    metadata,
    Column("id", String, primary_key=True),  # "<wish list id>:<accommodation id>"
    Column("wish_list_id", String, ForeignKey("wish_lists.id"), nullable=False),
    Column("accommodation_id", Integer, ForeignKey("accommodations.id"), nullable=False),
    Column("added", String, nullable=False, info={"volatile": True}),
)
