"""DoorDash's objects as tables: the service area, consumers and their saved addresses, stores with hours and
delivery radius, menus (items, extras and their options, as in the Marketplace menu format), carts, promotions,
orders with their Drive-style delivery fields, order items and support adjustments. Money is integer cents."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

zip_codes = Table(
    "zip_codes",
    metadata,
    Column("zip_code", String, primary_key=True),  # the ZIP codes DoorDash serves, with the geocoded centre
    Column("neighborhood", String, nullable=False),
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),
    Column("lat", Float, nullable=False),
    Column("lng", Float, nullable=False),
)

consumers = Table(
    "consumers",
    metadata,
    Column("id", String, primary_key=True),  # numeric consumer id
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("phone_number", String, nullable=False),  # E.164
    Column("date_of_birth", String, nullable=False),  # YYYY-MM-DD, checked for alcohol
    Column("dashpass_status", String, nullable=False),  # active | cancelled | none
    Column("dashpass_renews_on", String),  # YYYY-MM-DD while active
    Column("credits_balance", Integer, nullable=False, default=0),  # DoorDash credits, cents
    Column("payment_method", JSON, nullable=False),  # {"brand", "last4"}
    Column("created_at", String, nullable=False),
)

addresses = Table(
    "addresses",
    metadata,
    Column("id", String, primary_key=True),  # uuid
    Column("consumer_id", String, ForeignKey("consumers.id"), nullable=False),
    Column("label", String),  # Home | Work | a custom name
    Column("street", String, nullable=False),
    Column("subpremise", String),  # apartment, suite, floor
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),
    Column("zip_code", String, ForeignKey("zip_codes.zip_code"), nullable=False),
    Column("lat", Float, nullable=False),
    Column("lng", Float, nullable=False),
    Column("dropoff_instructions", Text, nullable=False, default=""),
    Column("dropoff_option", String, nullable=False),  # leave_at_door | hand_to_me
    Column("is_default", Boolean, nullable=False, default=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the consumer signed in to the app
    Column("consumer_id", String, ForeignKey("consumers.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

stores = Table(
    "stores",
    metadata,
    Column("id", String, primary_key=True),  # numeric store id
    Column("name", String, nullable=False),
    Column("business_name", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("cuisines", JSON, nullable=False),  # ["mexican", "tacos"]
    Column("price_range", String, nullable=False),  # $ .. $$$$
    Column("street", String, nullable=False),
    Column("city", String, nullable=False),
    Column("zip_code", String, nullable=False),
    Column("lat", Float, nullable=False),
    Column("lng", Float, nullable=False),
    Column("phone_number", String, nullable=False),
    Column("timezone", String, nullable=False),
    Column("open_hours", JSON, nullable=False),  # [{"day_index": "MON", "start_time": "11:00", "end_time": "21:30"}]
    Column("delivery_radius_miles", Float, nullable=False),
    Column("prep_time_minutes", Integer, nullable=False),
    Column("delivery_fee", Integer, nullable=False),  # cents, before DashPass
    Column("small_order_fee", Integer, nullable=False),  # cents, on delivery subtotals under $10
    Column("minimum_subtotal", Integer, nullable=False, default=0),  # cents; 0: none
    Column("dashpass_eligible", Boolean, nullable=False),
    Column("offers_delivery", Boolean, nullable=False),
    Column("offers_pickup", Boolean, nullable=False),
    Column("sells_alcohol", Boolean, nullable=False),
    Column("accepting_orders", Boolean, nullable=False),  # false: paused by the store
    Column("rating", Float, nullable=False),
    Column("rating_count", Integer, nullable=False),
)

items = Table(
    "items",
    metadata,
    Column("id", String, primary_key=True),  # numeric item id
    Column("store_id", String, ForeignKey("stores.id"), nullable=False),
    Column("category", String, nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("price", Integer, nullable=False),  # cents
    Column("is_active", Boolean, nullable=False),  # false: sold out
    Column("contains_alcohol", Boolean, nullable=False, default=False),
    Column("sort_index", Integer, nullable=False),
)

extras = Table(
    "extras",
    metadata,
    Column("id", String, primary_key=True),  # an item's option group ("extra" in the Marketplace menu format)
    Column("item_id", String, ForeignKey("items.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("min_num_options", Integer, nullable=False),  # >= 1: a required choice
    Column("max_num_options", Integer, nullable=False),
    Column("sort_index", Integer, nullable=False),
)

extra_options = Table(
    "extra_options",
    metadata,
    Column("id", String, primary_key=True),
    Column("extra_id", String, ForeignKey("extras.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("price", Integer, nullable=False),  # cents added to the item
    Column("is_active", Boolean, nullable=False),
    Column("sort_index", Integer, nullable=False),
)

promotions = Table(
    "promotions",
    metadata,
    Column("code", String, primary_key=True),
    Column("title", String, nullable=False),
    Column("discount_type", String, nullable=False),  # percent | amount | free_delivery
    Column("discount_value", Integer, nullable=False),  # percent, or cents off
    Column("max_discount", Integer),  # cents cap of a percent discount
    Column("min_subtotal", Integer, nullable=False, default=0),
    Column("first_order_only", Boolean, nullable=False, default=False),
    Column("dashpass_only", Boolean, nullable=False, default=False),
    Column("store_id", String, ForeignKey("stores.id")),  # only at this store
    Column("delivery_only", Boolean, nullable=False, default=False),
    Column("uses_per_consumer", Integer, nullable=False, default=1),
    Column("starts_at", String, nullable=False),
    Column("expires_at", String, nullable=False),
)

carts = Table(
    "carts",
    metadata,
    Column("id", String, primary_key=True),  # uuid
    Column("consumer_id", String, ForeignKey("consumers.id"), nullable=False, unique=True),  # one open cart
    Column("store_id", String, ForeignKey("stores.id"), nullable=False),
    Column("promo_code", String, ForeignKey("promotions.code")),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

cart_items = Table(
    "cart_items",
    metadata,
    Column("id", String, primary_key=True),  # uuid
    Column("cart_id", String, ForeignKey("carts.id"), nullable=False),
    Column("item_id", String, ForeignKey("items.id"), nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("option_ids", JSON, nullable=False),  # chosen extra_options ids, sorted
    Column("special_instructions", Text),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

orders = Table(
    "orders",
    metadata,
    Column("id", String, primary_key=True),  # order uuid
    Column("consumer_id", String, ForeignKey("consumers.id"), nullable=False),
    Column("store_id", String, ForeignKey("stores.id"), nullable=False),
    Column("status", String, nullable=False),  # submitted | confirmed | picked_up | delivered | cancelled
    Column("fulfillment_type", String, nullable=False),  # delivery | pickup
    Column("address_id", String, ForeignKey("addresses.id")),
    Column("dropoff_address", String),  # the address as delivered to
    Column("dropoff_instructions", Text),
    Column("dropoff_option", String),  # leave_at_door | hand_to_me
    Column("contains_alcohol", Boolean, nullable=False, default=False),
    Column("id_verified", Boolean),  # alcohol orders: whether the Dasher has checked the consumer's ID
    Column("scheduled_time", String),  # UTC; null: as soon as possible
    Column("subtotal", Integer, nullable=False),
    Column("delivery_fee", Integer, nullable=False),
    Column("service_fee", Integer, nullable=False),
    Column("small_order_fee", Integer, nullable=False),
    Column("tax", Integer, nullable=False),
    Column("discount", Integer, nullable=False),
    Column("promo_code", String, ForeignKey("promotions.code")),
    Column("tip", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("credits_applied", Integer, nullable=False),
    Column("amount_charged", Integer, nullable=False),  # to the card: total - credits_applied
    Column("cancellation_fee", Integer),
    Column("refunded_amount", Integer, nullable=False, default=0),  # back to the card
    Column("refunded_credits", Integer, nullable=False, default=0),  # back to the credits balance
    Column("dasher_name", String),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("confirmed_at", String, info={"volatile": True}),
    Column("picked_up_at", String, info={"volatile": True}),
    Column("delivered_at", String, info={"volatile": True}),
    Column("cancelled_at", String, info={"volatile": True}),
    Column("estimated_delivery_time", String, info={"volatile": True}),
)

order_items = Table(
    "order_items",
    metadata,
    Column("id", String, primary_key=True),  # uuid
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("item_id", String, ForeignKey("items.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("options", JSON, nullable=False),  # [{"id", "name", "price"}]
    Column("unit_price", Integer, nullable=False),  # item price plus options, cents
    Column("special_instructions", Text),
)

order_issues = Table(
    "order_issues",
    metadata,
    Column("id", String, primary_key=True),  # uuid
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("order_item_id", String, ForeignKey("order_items.id"), nullable=False),
    Column("issue_type", String, nullable=False),  # missing_item | incorrect_item
    Column("quantity", Integer, nullable=False),
    Column("resolution", String, nullable=False),  # credits | refund
    Column("amount", Integer, nullable=False),  # cents
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
