"""WooCommerce's objects as tables: product categories and tags, products and their variations, customers, orders
with their line items, order notes and refunds, and coupons. Products, variations, orders, refunds and coupons share
one id sequence (they are all WordPress posts); money is an integer number of cents (USD), shown as "12.50"."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

categories = Table(
    "categories",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("slug", String, nullable=False, unique=True),
    Column("parent", Integer, nullable=False),  # 0: a top-level category
)

tags = Table(
    "tags",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("slug", String, nullable=False, unique=True),
)

products = Table(
    "products",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("slug", String, nullable=False),
    Column("type", String, nullable=False),  # simple | variable
    Column("status", String, nullable=False),  # publish | draft | private
    Column("sku", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("regular_price", Integer),  # cents; None on a variable product (its variations carry prices)
    Column("sale_price", Integer),
    Column("date_on_sale_from", String),  # YYYY-MM-DD, inclusive
    Column("date_on_sale_to", String),  # YYYY-MM-DD, inclusive
    Column("manage_stock", Boolean, nullable=False),
    Column("stock_quantity", Integer),
    Column("stock_status", String, nullable=False),  # instock | outofstock | onbackorder
    Column("backorders", String, nullable=False),  # no | notify | yes
    Column("category_ids", JSON, nullable=False),
    Column("tag_ids", JSON, nullable=False),
    Column("attributes", JSON, nullable=False),  # [{"name": "Size", "options": [...], "variation": true}]
    Column("total_sales", Integer, nullable=False),
    Column("date_created", String, nullable=False),
)

variations = Table(
    "variations",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("product_id", Integer, ForeignKey("products.id"), nullable=False),
    Column("sku", String, nullable=False),
    Column("attributes", JSON, nullable=False),  # [{"name": "Size", "option": "100 g"}]
    Column("regular_price", Integer, nullable=False),
    Column("sale_price", Integer),
    Column("date_on_sale_from", String),
    Column("date_on_sale_to", String),
    Column("manage_stock", Boolean, nullable=False),
    Column("stock_quantity", Integer),
    Column("stock_status", String, nullable=False),
    Column("backorders", String, nullable=False),
    Column("menu_order", Integer, nullable=False),
)

customers = Table(
    "customers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("email", String, nullable=False, unique=True),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("username", String, nullable=False),
    Column("billing", JSON, nullable=False),  # {address_1, city, state, postcode, country, phone}
    Column("date_created", String, nullable=False),
)

orders = Table(
    "orders",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "status", String, nullable=False
    ),  # pending | processing | on-hold | completed | cancelled | refunded | failed
    Column("customer_id", Integer, nullable=False),  # 0: a guest order
    Column("billing", JSON, nullable=False),  # {first_name, last_name, email, phone, city, state, postcode}
    Column("payment_method", String, nullable=False),  # stripe | paypal | bacs | cod
    Column("payment_method_title", String, nullable=False),
    Column("shipping_method", String, nullable=False),  # flat_rate | free_shipping | local_pickup
    Column("shipping_total", Integer, nullable=False),
    Column("discount_total", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("coupon_lines", JSON, nullable=False),  # [{"code": "...", "discount": cents}]
    Column("customer_note", Text, nullable=False),
    Column("stock_reduced", Boolean, nullable=False),
    Column("date_created", String, nullable=False, info={"volatile": True}),
    Column("date_paid", String, info={"volatile": True}),
    Column("date_completed", String, info={"volatile": True}),
)

line_items = Table(
    "line_items",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("order_id", Integer, ForeignKey("orders.id"), nullable=False),
    Column("product_id", Integer, ForeignKey("products.id"), nullable=False),
    Column("variation_id", Integer),  # None for a simple product
    Column("name", String, nullable=False),
    Column("sku", String, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("price", Integer, nullable=False),  # unit price charged, before coupons
    Column("subtotal", Integer, nullable=False),  # price x quantity
    Column("total", Integer, nullable=False),  # subtotal less coupon discounts
)

order_notes = Table(
    "order_notes",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("order_id", Integer, ForeignKey("orders.id"), nullable=False),
    Column("note", Text, nullable=False),
    Column("customer_note", Boolean, nullable=False),  # True: emailed to the customer
    Column("author", String, nullable=False),  # "system" or the shop manager's name
    Column("date_created", String, nullable=False, info={"volatile": True}),
)

refunds = Table(
    "refunds",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("order_id", Integer, ForeignKey("orders.id"), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("reason", Text, nullable=False),
    Column("refunded_payment", Boolean, nullable=False),  # True: sent back through the payment gateway
    Column("line_items", JSON, nullable=False),  # [{"id": line item id, "quantity": n, "refund_total": cents}]
    Column("date_created", String, nullable=False, info={"volatile": True}),
)

coupons = Table(
    "coupons",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("code", String, nullable=False, unique=True),  # always lower case, as WooCommerce stores it
    Column("status", String, nullable=False),  # publish | draft
    Column("discount_type", String, nullable=False),  # percent | fixed_cart | fixed_product
    Column("amount", Integer, nullable=False),  # hundredths: 1500 is 15% or $15.00
    Column("description", Text, nullable=False),
    Column("date_expires", String),  # YYYY-MM-DD: no longer valid from that day on
    Column("usage_count", Integer, nullable=False),
    Column("usage_limit", Integer),
    Column("usage_limit_per_user", Integer),
    Column("individual_use", Boolean, nullable=False),
    Column("exclude_sale_items", Boolean, nullable=False),
    Column("minimum_amount", Integer),
    Column("product_ids", JSON, nullable=False),  # empty: every product
    Column("used_by", JSON, nullable=False),  # customer ids (as text) or guest emails, once per use
)
