"""OpenTable's objects as tables: restaurants with their seatings, tables and special-event experiences; diners
and their signed-in session; slot locks, reservations with card guarantees, fees, waitlist entries; dining
points, rewards, saved restaurants and reviews. Times are restaurant-local (Chicago), money is integer cents."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

restaurants = Table(
    "restaurants",
    metadata,
    Column("rid", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("cuisine", String, nullable=False),  # primary cuisine
    Column("cuisines", JSON, nullable=False),
    Column("neighborhood", String, nullable=False),
    Column("city", String, nullable=False),
    Column("address", String, nullable=False),
    Column("phone", String, nullable=False),
    Column("price_band", String, nullable=False),  # $ | $$ | $$$ | $$$$
    Column("dining_style", String, nullable=False),  # Casual Dining | Casual Elegant | Fine Dining
    Column("dress_code", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("max_party_size", Integer, nullable=False),  # larger parties must call
    Column("cc_party_threshold", Integer, nullable=False),  # parties this size or larger need a card guarantee
    Column("no_show_fee_per_person", Integer, nullable=False),  # cents
    Column("cancellation_window_hours", Integer, nullable=False),  # guaranteed bookings: free to cancel before
    Column("booking_window_days", Integer, nullable=False),
    Column("accepts_waitlist", Boolean, nullable=False),
    Column("bonus_points", JSON, nullable=False),  # [{"days": [1, 2], "from": "17:00", "to": "17:45"}] 1,000 pts
)

seatings = Table(
    "seatings",
    metadata,
    Column("id", String, primary_key=True),
    Column("rid", String, ForeignKey("restaurants.rid"), nullable=False),
    Column("name", String, nullable=False),  # Lunch | Dinner | Brunch
    Column("days", JSON, nullable=False),  # weekdays, 0 Monday .. 6 Sunday
    Column("first_seating", String, nullable=False),  # "17:00"
    Column("last_seating", String, nullable=False),  # "21:30"
    Column("interval_minutes", Integer, nullable=False),
)

dining_tables = Table(
    "dining_tables",
    metadata,
    Column("id", String, primary_key=True),
    Column("rid", String, ForeignKey("restaurants.rid"), nullable=False),
    Column("label", String, nullable=False),
    Column("section", String, nullable=False),  # standard | bar | outdoor | counter | private_room
    Column("min_size", Integer, nullable=False),
    Column("max_size", Integer, nullable=False),
)

experiences = Table(
    "experiences",
    metadata,
    Column("id", String, primary_key=True),
    Column("rid", String, ForeignKey("restaurants.rid"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("date", String, nullable=False),  # YYYY-MM-DD
    Column("times", JSON, nullable=False),  # ["18:00", "20:30"]
    Column("section", String, nullable=False),  # the tables it seats
    Column("price_per_person", Integer, nullable=False),  # cents, paid at the restaurant
    Column("no_show_fee_per_person", Integer, nullable=False),  # cents
    Column("cancellation_window_hours", Integer, nullable=False),
)

diners = Table(
    "diners",
    metadata,
    Column("id", String, primary_key=True),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("phone", String, nullable=False),
    Column("member_since", String, nullable=False),
    Column("points_balance", Integer, nullable=False),
    Column("card", JSON, nullable=True),  # {"brand", "last4", "exp_month", "exp_year"}
    Column("dietary_notes", String, nullable=False, default=""),
)

diner_sessions = Table(
    "diner_sessions",
    metadata,
    Column("id", String, primary_key=True),  # always "current"
    Column("diner_id", String, ForeignKey("diners.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

slot_locks = Table(
    "slot_locks",
    metadata,
    Column("id", String, primary_key=True),
    Column("rid", String, ForeignKey("restaurants.rid"), nullable=False),
    Column("diner_id", String, ForeignKey("diners.id"), nullable=False),
    Column("table_id", String, ForeignKey("dining_tables.id"), nullable=False),
    Column("date_time", String, nullable=False),  # local "YYYY-MM-DDTHH:MM"
    Column("party_size", Integer, nullable=False),
    Column("experience_id", String, ForeignKey("experiences.id"), nullable=True),
    Column("expires_at", String, nullable=False, info={"volatile": True}),  # UTC
    Column("used", Boolean, nullable=False, default=False),
)

reservations = Table(
    "reservations",
    metadata,
    Column("id", String, primary_key=True),  # the confirmation number
    Column("rid", String, ForeignKey("restaurants.rid"), nullable=False),
    Column("diner_id", String, ForeignKey("diners.id"), nullable=False),
    Column("table_id", String, ForeignKey("dining_tables.id"), nullable=False),
    Column("date_time", String, nullable=False),  # local "YYYY-MM-DDTHH:MM"
    Column("party_size", Integer, nullable=False),
    Column("experience_id", String, ForeignKey("experiences.id"), nullable=True),
    # pending (card hold awaiting the diner's bank) | booked | seated | done | cancelled | no_show
    Column("status", String, nullable=False),
    Column("credit_card_required", Boolean, nullable=False),
    Column("card_hold_status", String, nullable=True),  # awaiting_confirmation | confirmed | released | charged
    Column("special_request", Text, nullable=False, default=""),
    Column("occasion", String, nullable=True),  # birthday | anniversary | date_night | business_meal | celebration
    Column("points", Integer, nullable=False),  # earned when seated: 100, or 1,000 on bonus tables
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("cancelled_at", String, nullable=True, info={"volatile": True}),
    Index("ix_reservations_restaurant_time", "rid", "date_time"),  # the tables a restaurant has taken on a day
    Index("ix_reservations_diner", "diner_id", "status"),  # a diner's upcoming bookings
)

charges = Table(
    "charges",
    metadata,
    Column("id", String, primary_key=True),
    Column("reservation_id", String, ForeignKey("reservations.id"), nullable=False),
    Column("diner_id", String, ForeignKey("diners.id"), nullable=False),
    Column("kind", String, nullable=False),  # late_cancellation | no_show
    Column("amount", Integer, nullable=False),  # cents
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

waitlist_entries = Table(
    "waitlist_entries",
    metadata,
    Column("id", String, primary_key=True),
    Column("rid", String, ForeignKey("restaurants.rid"), nullable=False),
    Column("diner_id", String, ForeignKey("diners.id"), nullable=False),
    Column("date", String, nullable=False),
    Column("party_size", Integer, nullable=False),
    Column("status", String, nullable=False),  # waiting | seated | cancelled
    Column("quoted_wait_minutes", Integer, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

points_activity = Table(
    "points_activity",
    metadata,
    Column("id", String, primary_key=True),
    Column("diner_id", String, ForeignKey("diners.id"), nullable=False),
    Column("reservation_id", String, ForeignKey("reservations.id"), nullable=True),
    Column("points", Integer, nullable=False),  # negative when redeemed
    Column("description", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

rewards = Table(
    "rewards",
    metadata,
    Column("id", String, primary_key=True),
    Column("diner_id", String, ForeignKey("diners.id"), nullable=False),
    Column("points", Integer, nullable=False),
    Column("amount", Integer, nullable=False),  # cents off the bill
    Column("status", String, nullable=False),  # active | used
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

favorites = Table(
    "favorites",
    metadata,
    Column("id", String, primary_key=True),  # "<diner_id>-<rid>"
    Column("diner_id", String, ForeignKey("diners.id"), nullable=False),
    Column("rid", String, ForeignKey("restaurants.rid"), nullable=False),
)

reviews = Table(
    "reviews",
    metadata,
    Column("id", String, primary_key=True),
    Column("rid", String, ForeignKey("restaurants.rid"), nullable=False),
    Column("diner_id", String, ForeignKey("diners.id"), nullable=False),
    Column("reservation_id", String, ForeignKey("reservations.id"), nullable=False, unique=True),
    Column("overall", Integer, nullable=False),
    Column("food", Integer, nullable=False),
    Column("service", Integer, nullable=False),
    Column("ambience", Integer, nullable=False),
    Column("value", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("dined_on", String, nullable=False),
    Column("submitted_at", String, nullable=False, info={"volatile": True}),
    Index("ix_reviews_restaurant", "rid"),  # ratings and latest reviews of a restaurant
)
