"""Yelp's objects as tables: places a search can be centred on, categories, businesses with hours, special hours
and their Reservations and Waitlist settings; people and their signed-in session; reviews; reservation holds and
reservations; waitlist visits; collections and their saved businesses; check-ins. Times are San Francisco local."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

places = Table(
    "places",
    metadata,
    Column("name", String, primary_key=True),  # "Mission", "San Francisco"
    Column("kind", String, nullable=False),  # neighborhood | city
    Column("latitude", Float, nullable=False),
    Column("longitude", Float, nullable=False),
)

categories = Table(
    "categories",
    metadata,
    Column("alias", String, primary_key=True),  # "pizza"
    Column("title", String, nullable=False),  # "Pizza"
    Column("parent", String, nullable=True),  # "restaurants"
)

businesses = Table(
    "businesses",
    metadata,
    Column("id", String, primary_key=True),  # 22 characters, e.g. "WavvLdfdP6g8aZTtbBQHTw"
    Column("alias", String, nullable=False, unique=True),  # "tartine-bakery-san-francisco"
    Column("name", String, nullable=False),
    Column("categories", JSON, nullable=False),  # category aliases
    Column("price", Integer, nullable=True),  # 1 ($) .. 4 ($$$$)
    Column("rating", Float, nullable=False),  # average of reviews, to the half star
    Column("review_count", Integer, nullable=False),
    Column("neighborhood", String, ForeignKey("places.name"), nullable=False),
    Column("address1", String, nullable=False),
    Column("zip_code", String, nullable=False),
    Column("phone", String, nullable=False),  # +14155550100
    Column("latitude", Float, nullable=False),
    Column("longitude", Float, nullable=False),
    Column("transactions", JSON, nullable=False),  # restaurant_reservation, waitlist_reservation, delivery, pickup
    Column("is_closed", Boolean, nullable=False),  # permanently closed
    Column("hours", JSON, nullable=False),  # [{"day": 0, "start": "1100", "end": "2200", "is_overnight": false}]
    Column("special_hours", JSON, nullable=False),  # [{"date", "is_closed", "start", "end", "is_overnight"}]
    Column("owner_id", String, ForeignKey("users.id"), nullable=True),  # the claimed business's owner
    Column("max_covers", Integer, nullable=False),  # largest party Reservations or Waitlist takes online
    Column("covers_per_slot", Integer, nullable=False),  # guests the restaurant seats per 30-minute slot
    Column("booking_window_days", Integer, nullable=False),
    Column("change_cutoff_minutes", Integer, nullable=False),  # online changes/cancellations end this long before
    Column("waitlist_open", Boolean, nullable=False),
    Column("wait_minutes_per_party", Integer, nullable=False),
)

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),  # "Maya O."
    Column("full_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("yelping_since", String, nullable=False),
    Column("elite", Boolean, nullable=False),
)

user_sessions = Table(
    "user_sessions",
    metadata,
    Column("id", String, primary_key=True),  # always "current"
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

reviews = Table(
    "reviews",
    metadata,
    Column("id", String, primary_key=True),
    Column("business_id", String, ForeignKey("businesses.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("rating", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("time_created", String, nullable=False, info={"volatile": True}),  # local "YYYY-MM-DD HH:MM:SS"
    Column("time_updated", String, nullable=True, info={"volatile": True}),
    Index("ix_reviews_business", "business_id"),
    Index("ix_reviews_user", "user_id"),
)

holds = Table(
    "holds",
    metadata,
    Column("id", String, primary_key=True),
    Column("business_id", String, ForeignKey("businesses.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("date", String, nullable=False),
    Column("time", String, nullable=False),  # "19:30"
    Column("covers", Integer, nullable=False),
    Column("expires_at", String, nullable=False, info={"volatile": True}),  # UTC
    Column("used", Boolean, nullable=False),
)

reservations = Table(
    "reservations",
    metadata,
    Column("id", String, primary_key=True),
    Column("business_id", String, ForeignKey("businesses.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("date", String, nullable=False),
    Column("time", String, nullable=False),  # "19:30"
    Column("covers", Integer, nullable=False),
    Column("status", String, nullable=False),  # confirmed | cancelled | seated | no_show
    Column("notes", Text, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_reservations_business_date", "business_id", "date"),
    Index("ix_reservations_user", "user_id", "status"),
)

waitlist_visits = Table(
    "waitlist_visits",
    metadata,
    Column("id", String, primary_key=True),
    Column("business_id", String, ForeignKey("businesses.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("party_size", Integer, nullable=False),
    Column("status", String, nullable=False),  # waiting | seated | left
    Column("quoted_wait_minutes", Integer, nullable=False),
    Column("notes", Text, nullable=False),
    Column("joined_at", String, nullable=False, info={"volatile": True}),  # local, the order of the line
    Index("ix_waitlist_business", "business_id", "status"),
)

collections = Table(
    "collections",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("visibility", String, nullable=False),  # public | private
    Column("is_default", Boolean, nullable=False),  # "My Bookmarks"
)

collection_items = Table(
    "collection_items",
    metadata,
    Column("id", String, primary_key=True),  # "<collection_id>-<business_id>"
    Column("collection_id", String, ForeignKey("collections.id"), nullable=False),
    Column("business_id", String, ForeignKey("businesses.id"), nullable=False),
    Column("note", Text, nullable=False),
    Column("added_on", String, nullable=False),  # local date
    Index("ix_collection_items_collection", "collection_id"),
)

checkins = Table(
    "checkins",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("business_id", String, ForeignKey("businesses.id"), nullable=False),
    Column("date", String, nullable=False),  # local date
    Column("time", String, nullable=False, info={"volatile": True}),  # local "HH:MM"
    Column("comment", Text, nullable=False),
    Index("ix_checkins_user", "user_id", "date"),
)
