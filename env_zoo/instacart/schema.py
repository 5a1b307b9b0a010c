"""Instacart's objects as tables: customers with their signed-in session, Instacart+ memberships, saved addresses
and credits; retailers, their stores and each store's catalog; carts (one per store), delivery and pickup windows
(service options), orders with their items, replacements and issue reports. Money is integer cents (USD); window
times carry the stores' local offset (Pacific)."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),  # numeric string, e.g. "40218577"
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("phone", String, nullable=False),  # E.164
    Column("credit_balance_cents", Integer, nullable=False, default=0),  # Instacart credits
    Column("created_at", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current"
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

memberships = Table(
    "memberships",
    metadata,
    Column("id", String, primary_key=True),  # mbr_...
    Column("user_id", String, ForeignKey("users.id"), nullable=False, unique=True),
    Column("plan", String),  # monthly | annual; null before the first paid period
    Column("status", String, nullable=False),  # trialing | active | canceled (benefits until period end) | expired
    Column("auto_renew", Boolean, nullable=False),
    Column("current_period_end", String),  # YYYY-MM-DD, the last day of benefits
    Column("trial_used", Boolean, nullable=False),
    Column("fee_paid_cents", Integer, nullable=False, default=0),  # fee of the current period
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

addresses = Table(
    "addresses",
    metadata,
    Column("id", String, primary_key=True),  # addr_...
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("label", String),  # Home | Work | Mom's | ...
    Column("street", String, nullable=False),
    Column("apartment", String),
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),
    Column("postal_code", String, nullable=False),
    Column("delivery_instructions", Text),
    Column("is_default", Boolean, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

credit_transactions = Table(
    "credit_transactions",
    metadata,
    Column("id", String, primary_key=True),  # crd_...
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("amount_cents", Integer, nullable=False),  # positive: credits granted; negative: applied to an order
    Column("reason", String, nullable=False),  # issue_credit | applied_to_order | returned_from_order | promotion
    Column("order_id", String, ForeignKey("orders.id")),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

retailers = Table(
    "retailers",
    metadata,
    Column("retailer_key", String, primary_key=True),  # e.g. "safeway"
    Column("name", String, nullable=False),
    Column("retailer_logo_url", String, nullable=False),
    Column("order_minimum_cents", Integer, nullable=False),
)

stores = Table(
    "stores",
    metadata,
    Column("location_code", String, primary_key=True),  # the retailer's store number, e.g. "1490"
    Column("retailer_key", String, ForeignKey("retailers.retailer_key"), nullable=False),
    Column("name", String, nullable=False),
    Column("street", String, nullable=False),
    Column("city", String, nullable=False),
    Column("postal_code", String, nullable=False),
    Column("delivery_postal_codes", JSON, nullable=False),  # ZIP codes the store delivers to
    Column("delivery_available", Boolean, nullable=False),
    Column("pickup_available", Boolean, nullable=False),
    Column("hours", String, nullable=False),
)

store_items = Table(
    "store_items",
    metadata,
    Column("item_id", String, primary_key=True),  # items_<location_code>-<product_id>
    Column("location_code", String, ForeignKey("stores.location_code"), nullable=False),
    Column("product_id", String, nullable=False),
    Column("name", String, nullable=False),
    Column("brand", String),
    Column("size", String, nullable=False),  # "1 gal", "16 oz", "12 ct"
    Column("category", String, nullable=False),  # the aisle, e.g. "Dairy & Eggs"
    Column("price_cents", Integer, nullable=False),
    Column("stock_level", String, nullable=False),  # in_stock | low_stock | out_of_stock
    Column("purchase_limit", Integer),  # most units one order may hold; null: no limit
)

carts = Table(
    "carts",
    metadata,
    Column("id", String, primary_key=True),  # cart_...
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("location_code", String, ForeignKey("stores.location_code"), nullable=False),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

cart_items = Table(
    "cart_items",
    metadata,
    Column("id", String, primary_key=True),  # cli_...
    Column("cart_id", String, ForeignKey("carts.id"), nullable=False),
    Column("item_id", String, ForeignKey("store_items.item_id"), nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("replacement_policy", String, nullable=False),  # shoppers_choice | users_choice | no_replacements
    Column("replacement_item_id", String, ForeignKey("store_items.item_id")),  # with users_choice
    Column("special_instructions", Text),
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

service_options = Table(
    "service_options",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("location_code", String, ForeignKey("stores.location_code"), nullable=False),
    Column("fulfillment_type", String, nullable=False),  # delivery | pickup
    Column("window_type", String, nullable=False),  # standard (2-hour window) | express (within the hour)
    Column("start_at", String, nullable=False),  # 2025-06-13T10:00:00-07:00
    Column("end_at", String, nullable=False),
    Column("fee_cents", Integer, nullable=False),  # delivery or pickup fee; Instacart+ waives it from $35
    Column("express_fee_cents", Integer, nullable=False),  # priority surcharge, never waived
    Column("capacity", Integer, nullable=False),
    Column("booked", Integer, nullable=False),
)

orders = Table(
    "orders",
    metadata,
    Column("id", String, primary_key=True),  # numeric order number, e.g. "5831204417"
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("location_code", String, ForeignKey("stores.location_code"), nullable=False),
    Column("fulfillment_type", String, nullable=False),  # delivery | pickup
    # placed -> shopping -> delivering -> delivered (pickup: ... -> ready_for_pickup -> picked_up) | canceled
    Column("status", String, nullable=False),
    Column("service_option_id", Integer),  # the booked window (past windows are purged)
    Column("window_start_at", String, nullable=False),
    Column("window_end_at", String, nullable=False),
    Column("address_id", String),  # the saved address used; the order keeps its own copy
    Column("address", JSON),  # the delivery address as placed: street, apartment, city, state, postal_code
    Column("delivery_instructions", Text),
    Column("shopper_name", String),
    Column("subtotal_cents", Integer, nullable=False),
    Column("delivery_fee_cents", Integer, nullable=False),
    Column("express_fee_cents", Integer, nullable=False),
    Column("service_fee_cents", Integer, nullable=False),
    Column("tip_cents", Integer, nullable=False),
    Column("credits_applied_cents", Integer, nullable=False),
    Column("total_cents", Integer, nullable=False),
    Column("refunded_cents", Integer, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("completed_at", String),  # delivered or picked up (UTC)
    Column("canceled_at", String, info={"volatile": True}),
)

order_items = Table(
    "order_items",
    metadata,
    Column("id", String, primary_key=True),  # oi_...
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("line_num", Integer, nullable=False),
    Column("item_id", String, ForeignKey("store_items.item_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("size", String, nullable=False),
    Column("unit_price_cents", Integer, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("replacement_policy", String, nullable=False),
    Column("replacement_item_id", String, ForeignKey("store_items.item_id")),
    Column("special_instructions", Text),
    Column("status", String, nullable=False),  # pending | found | replaced | refunded (not found)
    Column("replacement", JSON),  # what the shopper picked instead: item_id, name, size, unit_price_cents
    Column("replacement_status", String),  # pending_approval | approved | rejected
)

order_issues = Table(
    "order_issues",
    metadata,
    Column("id", String, primary_key=True),  # iss_...
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("order_item_id", String, ForeignKey("order_items.id"), nullable=False),
    Column("issue_type", String, nullable=False),  # missing | damaged | wrong_item | poor_replacement | quality
    Column("quantity", Integer, nullable=False),
    Column("resolution", String, nullable=False),  # refund (to the card) | credit (Instacart credits)
    Column("amount_cents", Integer, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
