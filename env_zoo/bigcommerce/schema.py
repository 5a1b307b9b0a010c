"""BigCommerce's store objects as tables: the catalog (categories, products, variants, modifiers), price lists and
their records, customers and customer groups, coupons, carts (whose id is also the checkout's), orders (v2) with
their shipments and refunds. Money is an integer number of cents; the API shows it as a decimal."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table

metadata = MetaData()

categories = Table(
    "categories",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
)

products = Table(
    "products",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("sku", String, nullable=False),
    Column("price", Integer, nullable=False),
    Column("categories", JSON, nullable=False),
    Column("brand", String, nullable=False),
    Column("inventory_tracking", String, nullable=False),  # none | product | variant
    Column("inventory_level", Integer, nullable=False),
    Column("is_visible", Boolean, nullable=False),
    Column("date_modified", String, nullable=False, info={"volatile": True}),
)

variants = Table(
    "variants",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("product_id", Integer, ForeignKey("products.id"), nullable=False),
    Column("sku", String, nullable=False),
    Column("price", Integer),  # None: the product's price
    Column("inventory_level", Integer, nullable=False),
    Column("purchasing_disabled", Boolean, nullable=False),
    Column("option_values", JSON, nullable=False),  # [{"option_display_name": "Size", "label": "M"}]
)

modifiers = Table(
    "modifiers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("product_id", Integer, ForeignKey("products.id"), nullable=False),
    Column("display_name", String, nullable=False),
    Column("required", Boolean, nullable=False),
    Column("option_values", JSON, nullable=False),  # [{"id": 1, "label": "Yes", "price_adjuster": 500}]
)

price_lists = Table(
    "price_lists",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("active", Boolean, nullable=False),
)

price_records = Table(
    "price_records",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("price_list_id", Integer, ForeignKey("price_lists.id"), nullable=False),
    Column("variant_id", Integer, ForeignKey("variants.id"), nullable=False),
    Column("price", Integer, nullable=False),
)

customer_groups = Table(
    "customer_groups",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("discount_percent", Integer, nullable=False),  # store-wide group discount
    Column("price_list_id", Integer, ForeignKey("price_lists.id")),
)

customers = Table(
    "customers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("company", String, nullable=False),
    Column("phone", String, nullable=False),
    Column("customer_group_id", Integer, ForeignKey("customer_groups.id")),
    Column("date_created", String, nullable=False),
)

coupons = Table(
    "coupons",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("code", String, nullable=False),
    Column("type", String, nullable=False),  # percentage_discount | per_total_discount
    Column("amount", Integer, nullable=False),  # percent, or cents off the total
    Column("min_purchase", Integer, nullable=False),
    Column("enabled", Boolean, nullable=False),
    Column("expires", String),
    Column("max_uses", Integer, nullable=False),  # 0: unlimited
    Column("num_uses", Integer, nullable=False),
)

carts = Table(
    "carts",
    metadata,
    Column("id", String, primary_key=True),  # a UUID; the checkout has the same id
    Column("customer_id", Integer, nullable=False),  # 0: a guest
    Column("line_items", JSON, nullable=False),
    Column("coupon_code", String),
    Column("billing_address", JSON),
    Column("consignment", JSON),
    Column("order_id", Integer),
    Column("created_time", String, nullable=False, info={"volatile": True}),
)

orders = Table(
    "orders",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("customer_id", Integer, nullable=False),
    Column("status_id", Integer, nullable=False),
    Column("products", JSON, nullable=False),
    Column("subtotal", Integer, nullable=False),
    Column("discount_amount", Integer, nullable=False),
    Column("coupon_code", String),
    Column("shipping_cost", Integer, nullable=False),
    Column("shipping_method", String, nullable=False),
    Column("total", Integer, nullable=False),
    Column("billing_address", JSON, nullable=False),
    Column("shipping_address", JSON, nullable=False),
    Column("date_created", String, nullable=False, info={"volatile": True}),
)

shipments = Table(
    "shipments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("order_id", Integer, ForeignKey("orders.id"), nullable=False),
    Column("tracking_number", String, nullable=False),
    Column("shipping_provider", String, nullable=False),
    Column("items", JSON, nullable=False),  # [{"order_product_id": 1, "quantity": 1}]
    Column("date_created", String, nullable=False, info={"volatile": True}),
)

refunds = Table(
    "refunds",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("order_id", Integer, ForeignKey("orders.id"), nullable=False),
    Column("items", JSON, nullable=False),
    Column("total_amount", Integer, nullable=False),
    Column("reason", String, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
)
