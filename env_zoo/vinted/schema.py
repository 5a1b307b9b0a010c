"""Vinted's member-side objects as tables: members and their shipping and bundle settings, brands, catalog
items, favourites, conversations with messages and offers, orders (transactions) with shipping labels, tracking
events, issues and feedback. Money is integer pence (GBP); times are ISO timestamps."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

members = Table(
    "members",
    metadata,
    Column("id", Integer, primary_key=True),  # Vinted user id, e.g. 84213377
    Column("login", String, nullable=False, unique=True),  # the member's username
    Column("email", String, nullable=False),
    Column("real_name", String, nullable=False),
    Column("city", String, nullable=False),
    Column("feedback_reputation", Integer, nullable=False),  # tenths of a star, 0 when no reviews
    Column("feedback_count", Integer, nullable=False),
    Column("is_on_holiday", Boolean, nullable=False),  # holiday mode: wardrobe hidden, nothing can be bought
    Column("carriers", JSON, nullable=False),  # carriers the member ships with, e.g. ["Evri", "InPost"]
    Column("bundle_discount", JSON, nullable=True),  # {"2": 5, "3": 10, "5": 15} percent off by bundle size
    Column("created_at", String, nullable=False),
)

brands = Table(
    "brands",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("title", String, nullable=False),
)

items = Table(
    "items",
    metadata,
    Column("id", Integer, primary_key=True),  # Vinted item id, e.g. 4839204711
    Column("user_id", Integer, ForeignKey("members.id"), nullable=False),
    Column("title", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("catalog", String, nullable=False),  # e.g. "Women > Coats & jackets"
    Column("brand_id", Integer, ForeignKey("brands.id"), nullable=True),
    Column("size", String, nullable=True),  # e.g. "UK 10 / M", "UK 7"
    Column("condition", String, nullable=False),  # new_with_tags | new_without_tags | very_good | good | satisfactory
    Column("color", String, nullable=False),
    Column("price", Integer, nullable=False),  # pence
    Column("package_size", String, nullable=False),  # small | medium | large
    Column("status", String, nullable=False),  # active | reserved | hidden | sold
    Column("reserved_for", Integer, ForeignKey("members.id"), nullable=True),
    Column("favourite_count", Integer, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_items_user", "user_id"),
)

favourites = Table(
    "favourites",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("members.id"), nullable=False),
    Column("item_id", Integer, ForeignKey("items.id"), nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_favourites_user", "user_id"),
)

conversations = Table(
    "conversations",
    metadata,
    Column("id", Integer, primary_key=True),  # e.g. 11230045871
    Column("item_id", Integer, ForeignKey("items.id"), nullable=False),  # the item the thread is about
    Column("buyer_id", Integer, ForeignKey("members.id"), nullable=False),
    Column("seller_id", Integer, ForeignKey("members.id"), nullable=False),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
    Index("ix_conversations_buyer", "buyer_id"),
    Index("ix_conversations_seller", "seller_id"),
)

messages = Table(
    "messages",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("conversation_id", Integer, ForeignKey("conversations.id"), nullable=False),
    Column("sender_id", Integer, ForeignKey("members.id"), nullable=False),
    Column("body", Text, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_messages_conversation", "conversation_id"),
)

offers = Table(
    "offers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("conversation_id", Integer, ForeignKey("conversations.id"), nullable=False),
    Column("item_ids", JSON, nullable=False),  # one item, or a bundle from one seller
    Column("buyer_id", Integer, ForeignKey("members.id"), nullable=False),
    Column("seller_id", Integer, ForeignKey("members.id"), nullable=False),
    Column("offered_by", Integer, ForeignKey("members.id"), nullable=False),
    Column("price", Integer, nullable=False),  # pence, for all the items together
    Column("original_price", Integer, nullable=False),  # asking price of the items (bundle discount applied)
    Column("status", String, nullable=False),  # pending | accepted | declined | countered | used | cancelled
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_offers_conversation", "conversation_id"),
)

orders = Table(
    "orders",
    metadata,
    Column("id", Integer, primary_key=True),  # Vinted transaction id, e.g. 9012457713
    Column("buyer_id", Integer, ForeignKey("members.id"), nullable=False),
    Column("seller_id", Integer, ForeignKey("members.id"), nullable=False),
    Column("item_ids", JSON, nullable=False),
    Column("offer_id", Integer, ForeignKey("offers.id"), nullable=True),
    Column("items_price", Integer, nullable=False),  # asking prices before any discount
    Column("discount", Integer, nullable=False),  # bundle discount or offer reduction
    Column("buyer_protection_fee", Integer, nullable=False),
    Column("shipping_fee", Integer, nullable=False),
    Column("total", Integer, nullable=False),  # what the buyer paid
    Column("carrier", String, nullable=False),
    Column("delivery_type", String, nullable=False),  # home | pickup_point
    Column("status", String, nullable=False),
    # paid | label_created | shipped | delivered | completed | issue_reported | cancelled
    Column("tracking_number", String, nullable=True),
    Column("paid_at", String, nullable=False, info={"volatile": True}),
    Column("ship_by", String, nullable=False, info={"volatile": True}),  # 5 working days after payment
    Column("shipped_at", String, nullable=True),
    Column("delivered_at", String, nullable=True),
    Column("completed_at", String, nullable=True, info={"volatile": True}),
    Column("cancel_reason", String, nullable=True),
    Index("ix_orders_buyer", "buyer_id"),
    Index("ix_orders_seller", "seller_id"),
)

tracking_events = Table(
    "tracking_events",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("order_id", Integer, ForeignKey("orders.id"), nullable=False),
    Column("status", String, nullable=False),  # label_created | dropped_off | in_transit | out_for_delivery | delivered
    Column("location", String, nullable=False),
    Column("at", String, nullable=False, info={"volatile": True}),
    Index("ix_tracking_order", "order_id"),
)

issues = Table(
    "issues",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("order_id", Integer, ForeignKey("orders.id"), nullable=False),
    Column("reason", String, nullable=False),  # not_as_described | damaged | missing_items | counterfeit
    Column("description", Text, nullable=False),
    Column("status", String, nullable=False),  # open | resolved
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

feedback = Table(
    "feedback",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("order_id", Integer, ForeignKey("orders.id"), nullable=False),
    Column("from_user_id", Integer, ForeignKey("members.id"), nullable=False),
    Column("to_user_id", Integer, ForeignKey("members.id"), nullable=False),
    Column("rating", Integer, nullable=False),  # 1-5
    Column("comment", Text, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_feedback_to", "to_user_id"),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the signed-in member
    Column("user_id", Integer, ForeignKey("members.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)
