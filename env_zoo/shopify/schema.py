"""Shopify's objects as tables: catalog, customers and their storefront session, carts, discount codes, and orders
with their line items, transactions, fulfillments, refunds and returns. Money is a decimal string in USD."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

customers = Table(
    "customers",
    metadata,
    Column("id", String, primary_key=True),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("phone", String, nullable=True),
    Column("state", String, nullable=False),  # enabled | disabled | invited | declined
    Column("accepts_marketing", Boolean, nullable=False, default=False),
    Column("tags", JSON, nullable=False, default=list),
    # {"first_name", "last_name", "address1", "address2", "city", "province_code", "country_code", "zip"}
    Column("default_address", JSON, nullable=True),
    # saved card: {"brand", "last_digits", "three_d_secure": bool}
    Column("payment_method", JSON, nullable=True),
    Column("created_at", String, nullable=False),
)

storefront_sessions = Table(
    "storefront_sessions",
    metadata,
    Column("id", String, primary_key=True),  # always "current": who is signed in on the storefront
    Column("customer_id", String, ForeignKey("customers.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

products = Table(
    "products",
    metadata,
    Column("id", String, primary_key=True),
    Column("title", String, nullable=False),
    Column("handle", String, nullable=False, unique=True),
    Column("vendor", String, nullable=False),
    Column("product_type", String, nullable=False),
    Column("status", String, nullable=False),  # active | draft | archived
    Column("tags", JSON, nullable=False, default=list),
    Column("description", Text, nullable=False, default=""),
    Column("created_at", String, nullable=False),
)

variants = Table(
    "variants",
    metadata,
    Column("id", String, primary_key=True),
    Column("product_id", String, ForeignKey("products.id"), nullable=False),
    Column("title", String, nullable=False),  # "M / Forest", or "Default Title"
    Column("sku", String, nullable=False, unique=True),
    Column("position", Integer, nullable=False),
    Column("price", String, nullable=False),
    Column("compare_at_price", String, nullable=True),
    Column("inventory_quantity", Integer, nullable=False),
    Column("inventory_policy", String, nullable=False),  # deny | continue (pre-order: selling below zero allowed)
)

discount_codes = Table(
    "discount_codes",
    metadata,
    Column("id", String, primary_key=True),
    Column("code", String, nullable=False, unique=True),
    Column("title", String, nullable=False),
    Column("value_type", String, nullable=False),  # percentage | fixed_amount | free_shipping
    Column("value", String, nullable=False),  # "15.0" percent, or "10.00" dollars; "0.00" for free_shipping
    Column("minimum_subtotal", String, nullable=True),
    Column("starts_at", String, nullable=False),
    Column("ends_at", String, nullable=True),
    Column("usage_limit", Integer, nullable=True),
    Column("usage_count", Integer, nullable=False, default=0),
    Column("once_per_customer", Boolean, nullable=False, default=False),
)

carts = Table(
    "carts",
    metadata,
    Column("id", String, primary_key=True),
    Column("customer_id", String, ForeignKey("customers.id"), nullable=False, unique=True),
    Column("discount_codes", JSON, nullable=False, default=list),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

cart_lines = Table(
    "cart_lines",
    metadata,
    Column("id", String, primary_key=True),
    Column("cart_id", String, ForeignKey("carts.id"), nullable=False),
    Column("variant_id", String, ForeignKey("variants.id"), nullable=False),
    Column("quantity", Integer, nullable=False),
)

orders = Table(
    "orders",
    metadata,
    Column("id", String, primary_key=True),
    Column("order_number", Integer, nullable=False, unique=True),
    Column("name", String, nullable=False, unique=True),  # "#1042"
    Column("customer_id", String, ForeignKey("customers.id"), nullable=False),
    Column("email", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    # pending | paid | partially_refunded | refunded | voided
    Column("financial_status", String, nullable=False),
    Column("fulfillment_status", String, nullable=True),  # null (unfulfilled) | partial | fulfilled
    Column("cancel_reason", String, nullable=True),  # customer | inventory | fraud | declined | other
    Column("cancelled_at", String, nullable=True, info={"volatile": True}),
    Column("total_line_items_price", String, nullable=False),
    Column("total_discounts", String, nullable=False),
    Column("subtotal_price", String, nullable=False),  # line items less discounts
    Column("total_shipping_price", String, nullable=False),
    Column("total_price", String, nullable=False),
    Column("discount_codes", JSON, nullable=False, default=list),  # [{"code", "amount", "type"}]
    Column("shipping_line", String, nullable=False),  # Standard | Express
    Column("shipping_address", JSON, nullable=False),
)

line_items = Table(
    "line_items",
    metadata,
    Column("id", String, primary_key=True),
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("variant_id", String, ForeignKey("variants.id"), nullable=False),
    Column("product_id", String, ForeignKey("products.id"), nullable=False),
    Column("title", String, nullable=False),
    Column("variant_title", String, nullable=False),
    Column("sku", String, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("price", String, nullable=False),  # unit price
    Column("total_discount", String, nullable=False),  # order discount allocated to the whole line
)

transactions = Table(
    "transactions",
    metadata,
    Column("id", String, primary_key=True),
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("kind", String, nullable=False),  # sale | refund | void
    Column("status", String, nullable=False),  # pending | success | failure
    Column("amount", String, nullable=False),
    Column("gateway", String, nullable=False),
    Column("payment_details", JSON, nullable=True),  # {"credit_card_company", "credit_card_number"}
    Column("processed_at", String, nullable=False, info={"volatile": True}),
)

fulfillments = Table(
    "fulfillments",
    metadata,
    Column("id", String, primary_key=True),
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("status", String, nullable=False),  # success | cancelled
    # label_printed | in_transit | out_for_delivery | delivered | failure
    Column("shipment_status", String, nullable=False),
    Column("tracking_company", String, nullable=False),
    Column("tracking_number", String, nullable=False),
    Column("line_items", JSON, nullable=False),  # [{"line_item_id", "quantity"}]
    Column("created_at", String, nullable=False),
    Column("delivered_at", String, nullable=True),
)

returns = Table(
    "returns",
    metadata,
    Column("id", String, primary_key=True),
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("name", String, nullable=False),  # "#1042-R1"
    Column("status", String, nullable=False),  # open | closed
    Column("return_line_items", JSON, nullable=False),  # [{"line_item_id", "quantity", "return_reason"}]
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

refunds = Table(
    "refunds",
    metadata,
    Column("id", String, primary_key=True),
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("return_id", String, ForeignKey("returns.id"), nullable=True),
    Column("note", Text, nullable=False, default="", info={"volatile": True}),  # free text, not compared
    Column("amount", String, nullable=False),
    # [{"line_item_id", "quantity", "restock_type": no_restock | cancel | return, "subtotal"}]
    Column("refund_line_items", JSON, nullable=False, default=list),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
