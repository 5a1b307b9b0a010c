"""Uber Eats as tables, eater side: eaters and their saved places, stores with weekly hours, holiday hours and
online status, menus (items, modifier groups, options), the eater's cart, promotions, orders and reported issues.
Money is integer cents (USD); times are ISO timestamps on the simulated clock, read as the city's local time."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

eaters = Table(
    "eaters",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("phone", String, nullable=False),
    Column("uber_one", Boolean, nullable=False),  # Uber One membership
    Column("uber_cash", Integer, nullable=False),  # Uber Cash balance, cents
    Column("birth_date", String, nullable=False),  # YYYY-MM-DD (alcohol needs 21+)
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the eater signed in to the app
    Column("eater_id", String, ForeignKey("eaters.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

places = Table(
    "places",
    metadata,
    Column("id", String, primary_key=True),  # "pl_" + digits
    Column("eater_id", String, ForeignKey("eaters.id"), nullable=False),
    Column("label", String, nullable=False),  # Home | Work | custom
    Column("address", String, nullable=False),
    Column("neighborhood", String, nullable=False),
    Column("dropoff_option", String, nullable=False),  # LEAVE_AT_DOOR | MEET_AT_DOOR | MEET_OUTSIDE
    Column("instructions", String, nullable=True),
    Index("ix_places_eater", "eater_id"),
)

stores = Table(
    "stores",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("name", String, nullable=False),
    Column("cuisine", String, nullable=False),
    Column("address", String, nullable=False),
    Column("neighborhood", String, nullable=False),
    Column("delivers_to", JSON, nullable=False),  # neighborhoods in its delivery area
    Column("status", String, nullable=False),  # ONLINE | PAUSED | INVISIBLE
    Column("paused_until", String, nullable=True),
    Column("hours", JSON, nullable=False),  # {"monday": [["11:00", "22:00"]], ...}
    Column("holiday_hours", JSON, nullable=False),  # {"2026-07-04": [] (closed) or [["12:00", "18:00"]]}
    Column("delivery_fee", Integer, nullable=False),
    Column("min_order", Integer, nullable=False),  # smallest subtotal the store takes, cents (0: none)
    Column("prep_minutes", Integer, nullable=False),
    Column("pickup", Boolean, nullable=False),  # offers pick-up
    Column("uber_one_eligible", Boolean, nullable=False),
    Column("alcohol", Boolean, nullable=False),
    Column("rating", Integer, nullable=False),  # tenths of a star
    Column("rating_count", Integer, nullable=False),
    Column("price_bucket", String, nullable=False),  # $ | $$ | $$$
)

menu_items = Table(
    "menu_items",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("store_id", String, ForeignKey("stores.id"), nullable=False),
    Column("category", String, nullable=False),
    Column("title", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("price", Integer, nullable=False),
    Column("modifier_group_ids", JSON, nullable=False),
    Column("suspended_until", String, nullable=True),  # sold out until then
    Column("alcohol", Boolean, nullable=False),
    Column("position", Integer, nullable=False),
    Index("ix_items_store", "store_id"),
)

modifier_groups = Table(
    "modifier_groups",
    metadata,
    Column("id", String, primary_key=True),
    Column("store_id", String, ForeignKey("stores.id"), nullable=False),
    Column("title", String, nullable=False),
    Column("min_permitted", Integer, nullable=False),
    Column("max_permitted", Integer, nullable=False),
)

modifier_options = Table(
    "modifier_options",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", String, ForeignKey("modifier_groups.id"), nullable=False),
    Column("title", String, nullable=False),
    Column("price", Integer, nullable=False),
    Column("position", Integer, nullable=False),
    Index("ix_options_group", "group_id"),
)

carts = Table(
    "carts",
    metadata,
    Column("eater_id", String, ForeignKey("eaters.id"), primary_key=True),  # one cart per eater
    Column("store_id", String, ForeignKey("stores.id"), nullable=False),
    Column("promo_code", String, nullable=True),
)

cart_items = Table(
    "cart_items",
    metadata,
    Column("id", String, primary_key=True),  # "ci_" + digits
    Column("eater_id", String, ForeignKey("eaters.id"), nullable=False),
    Column("item_id", String, ForeignKey("menu_items.id"), nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("option_ids", JSON, nullable=False),
    Column("special_instructions", String, nullable=True),
    Index("ix_cart_items_eater", "eater_id"),
)

promotions = Table(
    "promotions",
    metadata,
    Column("code", String, primary_key=True),
    Column("description", String, nullable=False),
    Column("type", String, nullable=False),  # FLATOFF | PERCENTOFF | FREEDELIVERY
    Column("amount", Integer, nullable=False),  # cents off (FLATOFF) or percent (PERCENTOFF)
    Column("max_discount", Integer, nullable=True),  # cap for PERCENTOFF, cents
    Column("min_subtotal", Integer, nullable=False),
    Column("store_id", String, ForeignKey("stores.id"), nullable=True),  # only at this store
    Column("first_order_only", Boolean, nullable=False),
    Column("uber_one_only", Boolean, nullable=False),
    Column("uses_per_eater", Integer, nullable=False),
    Column("starts_at", String, nullable=False),
    Column("expires_at", String, nullable=False),
)

orders = Table(
    "orders",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("display_id", String, nullable=False),  # short code shown to the eater and store, e.g. "3F2A1"
    Column("eater_id", String, ForeignKey("eaters.id"), nullable=False),
    Column("store_id", String, ForeignKey("stores.id"), nullable=False),
    Column("fulfillment_type", String, nullable=False),  # DELIVERY_BY_UBER | PICK_UP
    Column("place_id", String, ForeignKey("places.id"), nullable=True),
    Column("current_state", String, nullable=False),  # SCHEDULED|CREATED|ACCEPTED|HANDED_OFF|FINISHED|DENIED|CANCELED
    Column("items", JSON, nullable=False),  # [{"line_id", "item_id", "title", "quantity", "options", "total"}]
    Column("subtotal", Integer, nullable=False),
    Column("delivery_fee", Integer, nullable=False),
    Column("service_fee", Integer, nullable=False),
    Column("small_order_fee", Integer, nullable=False),
    Column("discount", Integer, nullable=False),
    Column("promo_code", String, nullable=True),
    Column("tip", Integer, nullable=False),
    Column("uber_cash_used", Integer, nullable=False),
    Column("total", Integer, nullable=False),  # charged: subtotal + fees - discount + tip
    Column("placed_at", String, nullable=False, info={"volatile": True}),
    Column("scheduled_for", String, nullable=True),
    Column("delivered_at", String, nullable=True),
    Column("cancel_reason", String, nullable=True),
    Column("refund", Integer, nullable=False),  # cents refunded so far
    Column("rating", Integer, nullable=True),
    Column("rating_comment", String, nullable=True),
    Index("ix_orders_eater", "eater_id"),
)

order_issues = Table(
    "order_issues",
    metadata,
    Column("id", String, primary_key=True),  # "iss_" + digits
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("line_id", String, nullable=False),
    Column("issue_type", String, nullable=False),  # MISSING_ITEM | WRONG_ITEM | QUALITY
    Column("quantity", Integer, nullable=False),
    Column("refund", Integer, nullable=False),
    Column("refund_to", String, nullable=False),  # UBER_CASH | ORIGINAL_PAYMENT
    Column("details", String, nullable=True),
    Column("reported_at", String, nullable=False, info={"volatile": True}),
)
