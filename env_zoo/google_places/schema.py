"""Google Places as tables: places with their hours and amenities, public and own reviews, Google accounts and the
signed-in session, saved lists with their places and followers, private labels and visits (Timeline and
check-ins). Opening hours are stored per weekday in local time, 0 = Sunday as in the Places API."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

places = Table(
    "places",
    metadata,
    Column("id", String, primary_key=True),  # place ID, ChIJ...
    Column("display_name", String, nullable=False),
    Column("primary_type", String, nullable=False),
    Column("primary_type_display_name", String, nullable=False),
    Column("types", JSON, nullable=False),  # Table A types, most specific first
    Column("formatted_address", String, nullable=False),
    Column("short_formatted_address", String, nullable=False),
    Column("neighborhood", String, nullable=False),
    Column("latitude", Float, nullable=False),
    Column("longitude", Float, nullable=False),
    Column("national_phone_number", String),
    Column("international_phone_number", String),
    Column("website_uri", String),
    Column("google_maps_uri", String, nullable=False),
    Column("rating_total", Integer, nullable=False, default=0),  # sum of all star ratings
    Column("user_rating_count", Integer, nullable=False, default=0),
    # PRICE_LEVEL_FREE | PRICE_LEVEL_INEXPENSIVE | PRICE_LEVEL_MODERATE | PRICE_LEVEL_EXPENSIVE |
    # PRICE_LEVEL_VERY_EXPENSIVE; null when unknown
    Column("price_level", String),
    Column("business_status", String, nullable=False),  # OPERATIONAL | CLOSED_TEMPORARILY | CLOSED_PERMANENTLY
    Column("utc_offset_minutes", Integer, nullable=False),
    # {"0": [["09:00", "17:00"]], ...}: local opening intervals per weekday (0 Sunday); a close at or before the
    # open runs past midnight, ["00:00", "24:00"] every day is open 24 hours; null: no hours published
    Column("opening_hours", JSON),
    Column("special_days", JSON, nullable=False),  # [{"date": "2025-06-13", "hours": [["08:00", "02:00"]]}], [] closed
    Column("accessibility_options", JSON, nullable=False),  # wheelchair_accessible_parking/entrance/restroom/seating
    Column("delivery", Boolean),
    Column("dine_in", Boolean),
    Column("takeout", Boolean),
    Column("reservable", Boolean),
    Column("serves_vegetarian_food", Boolean),
    Column("outdoor_seating", Boolean),
    Column("good_for_children", Boolean),
    Column("allows_dogs", Boolean),
    Column("editorial_summary", Text),
)

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),  # Google account ID, 21 digits
    Column("email", String, nullable=False, unique=True),
    Column("display_name", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current"
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

reviews = Table(
    "reviews",
    metadata,
    Column("id", String, primary_key=True),  # places/{place_id}/reviews/{id}
    Column("place_id", String, ForeignKey("places.id"), nullable=False),
    Column("author_id", String, ForeignKey("users.id")),  # null: a Google user outside this directory
    Column("author_display_name", String, nullable=False),
    Column("rating", Integer, nullable=False),  # 1..5 stars
    Column("text", Text),
    Column("language_code", String, nullable=False),
    Column("publish_time", String, nullable=False, info={"volatile": True}),
    Column("update_time", String, info={"volatile": True}),
)

saved_lists = Table(
    "saved_lists",
    metadata,
    Column("id", String, primary_key=True),  # list_...
    Column("owner_id", String, ForeignKey("users.id"), nullable=False),
    Column("kind", String, nullable=False),  # FAVORITES | WANT_TO_GO | TRAVEL_PLANS | STARRED | CUSTOM
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("emoji", String),
    Column("visibility", String, nullable=False),  # PRIVATE | SHARED (anyone with the link) | PUBLIC (on profile)
    Column("collaborative", Boolean, nullable=False, default=False),  # followers may add places
    Column("share_url", String, unique=True),  # null while private
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

saved_places = Table(
    "saved_places",
    metadata,
    Column("id", String, primary_key=True),  # item_...
    Column("list_id", String, ForeignKey("saved_lists.id"), nullable=False),
    Column("place_id", String, ForeignKey("places.id"), nullable=False),
    Column("note", Text, nullable=False, default=""),
    Column("added_by", String, ForeignKey("users.id"), nullable=False),
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

list_followers = Table(
    "list_followers",
    metadata,
    Column("id", String, primary_key=True),  # follow_...
    Column("list_id", String, ForeignKey("saved_lists.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("followed_at", String, nullable=False, info={"volatile": True}),
)

labels = Table(
    "labels",
    metadata,
    Column("id", String, primary_key=True),  # label_...
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("place_id", String, ForeignKey("places.id"), nullable=False),
    Column("name", String, nullable=False),  # Home and Work are one place each
)

visits = Table(
    "visits",
    metadata,
    Column("id", String, primary_key=True),  # visit_...
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("place_id", String, ForeignKey("places.id"), nullable=False),
    Column("source", String, nullable=False),  # TIMELINE | CHECK_IN
    Column("visited_at", String, nullable=False, info={"volatile": True}),
)
