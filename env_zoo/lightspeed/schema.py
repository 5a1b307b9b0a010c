"""Lightspeed Retail (R-Series) account objects as tables: shops with their registers and register counts
(open/close history), employees and the signed-in one, item categories, items and their per-shop stock
(ItemShops), customers (with credit accounts), payment types, sales with sale lines and sale payments, inventory
counts with the items counted, and inventory transfers between shops. Money is an integer number of cents; the
API shows it as a decimal string."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table

metadata = MetaData()

shops = Table(
    "shops",
    metadata,
    Column("shop_id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("city", String, nullable=False),
    Column("tax_rate", Integer, nullable=False),  # thousandths of a percent: 8525 is 8.525%
    Column("archived", Boolean, nullable=False),
)

registers = Table(
    "registers",
    metadata,
    Column("register_id", Integer, primary_key=True),
    Column("shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("open_register_count_id", Integer),  # the RegisterCount of the open session; None: closed
)

employees = Table(
    "employees",
    metadata,
    Column("employee_id", Integer, primary_key=True),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("employee_number", String, nullable=False),
    Column("pin", String, nullable=False),
    Column("role", String, nullable=False),  # Manager | Sales | Inventory
    Column("shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("archived", Boolean, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("employee_id", Integer, nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

register_counts = Table(
    "register_counts",
    metadata,
    Column("register_count_id", Integer, primary_key=True),
    Column("register_id", Integer, ForeignKey("registers.register_id"), nullable=False),
    Column("open_time", String, nullable=False, info={"volatile": True}),
    Column("open_employee_id", Integer, nullable=False),
    Column("opening_float", Integer, nullable=False),
    Column("close_time", String, info={"volatile": True}),
    Column("close_employee_id", Integer),
    Column("expected_cash", Integer),
    Column("counted_cash", Integer),
    Column("notes", String, nullable=False, info={"volatile": True}),  # free text: not compared
)

categories = Table(
    "categories",
    metadata,
    Column("category_id", Integer, primary_key=True),
    Column("name", String, nullable=False),
)

items = Table(
    "items",
    metadata,
    Column("item_id", Integer, primary_key=True),
    Column("system_sku", String, nullable=False),
    Column("custom_sku", String, nullable=False),
    Column("manufacturer_sku", String, nullable=False),
    Column("description", String, nullable=False),
    Column("brand", String, nullable=False),
    Column("category_id", Integer, ForeignKey("categories.category_id"), nullable=False),
    Column("default_cost", Integer, nullable=False),
    Column("default_price", Integer, nullable=False),
    Column("msrp", Integer, nullable=False),
    Column("tax", Boolean, nullable=False),
    Column("archived", Boolean, nullable=False),
    Column("time_stamp", String, nullable=False, info={"volatile": True}),
)

item_shops = Table(
    "item_shops",
    metadata,
    Column("item_shop_id", Integer, primary_key=True),
    Column("item_id", Integer, ForeignKey("items.item_id"), nullable=False),
    Column("shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("qoh", Integer, nullable=False),
    Column("reorder_point", Integer, nullable=False),
    Column("reorder_level", Integer, nullable=False),
)

customer_types = Table(
    "customer_types",
    metadata,
    Column("customer_type_id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("discount_percent", Integer, nullable=False),
)

customers = Table(
    "customers",
    metadata,
    Column("customer_id", Integer, primary_key=True),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("company", String, nullable=False),
    Column("email", String, nullable=False),
    Column("phone", String, nullable=False),
    Column("customer_type_id", Integer, ForeignKey("customer_types.customer_type_id")),
    Column("credit_limit", Integer, nullable=False),  # 0: no credit account
    Column("credit_balance", Integer, nullable=False),  # what the customer owes on account
    Column("create_time", String, nullable=False, info={"volatile": True}),
    Column("archived", Boolean, nullable=False),
)

payment_types = Table(
    "payment_types",
    metadata,
    Column("payment_type_id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # cash | credit card | debit card | check | credit account
    Column("archived", Boolean, nullable=False),
)

sales = Table(
    "sales",
    metadata,
    Column("sale_id", Integer, primary_key=True),
    Column("ticket_number", String, nullable=False),
    Column("shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("register_id", Integer, ForeignKey("registers.register_id"), nullable=False),
    Column("employee_id", Integer, nullable=False),
    Column("customer_id", Integer),
    Column("completed", Boolean, nullable=False),
    Column("voided", Boolean, nullable=False),
    Column("return_of_sale_id", Integer),
    Column("create_time", String, nullable=False, info={"volatile": True}),
    Column("complete_time", String, info={"volatile": True}),
)

sale_lines = Table(
    "sale_lines",
    metadata,
    Column("sale_line_id", Integer, primary_key=True),
    Column("sale_id", Integer, ForeignKey("sales.sale_id"), nullable=False),
    Column("item_id", Integer, ForeignKey("items.item_id"), nullable=False),
    Column("unit_quantity", Integer, nullable=False),  # negative on a return
    Column("unit_price", Integer, nullable=False),
    Column("discount_percent", Integer, nullable=False),
    Column("tax", Boolean, nullable=False),
    Column("parent_sale_line_id", Integer),  # the line a return line gives back
)

sale_payments = Table(
    "sale_payments",
    metadata,
    Column("sale_payment_id", Integer, primary_key=True),
    Column("sale_id", Integer, ForeignKey("sales.sale_id"), nullable=False),
    Column("payment_type_id", Integer, ForeignKey("payment_types.payment_type_id"), nullable=False),
    Column("amount", Integer, nullable=False),  # negative on a refund
    Column("register_id", Integer, nullable=False),
    Column("register_count_id", Integer, nullable=False),  # the register session that took it
    Column("create_time", String, nullable=False, info={"volatile": True}),
)

inventory_counts = Table(
    "inventory_counts",
    metadata,
    Column("inventory_count_id", Integer, primary_key=True),
    Column("shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("status", String, nullable=False),  # open | reconciled
    Column("employee_id", Integer, nullable=False),
    Column("create_time", String, nullable=False, info={"volatile": True}),
    Column("reconcile_time", String, info={"volatile": True}),
    Column("adjustments", JSON),  # what reconciling changed: [{"itemID", "qoh_before", "counted"}]
)

inventory_count_items = Table(
    "inventory_count_items",
    metadata,
    Column("inventory_count_item_id", Integer, primary_key=True),
    Column("inventory_count_id", Integer, ForeignKey("inventory_counts.inventory_count_id"), nullable=False),
    Column("item_id", Integer, ForeignKey("items.item_id"), nullable=False),
    Column("qty", Integer, nullable=False),
    Column("employee_id", Integer, nullable=False),
)

transfers = Table(
    "transfers",
    metadata,
    Column("transfer_id", Integer, primary_key=True),
    Column("send_shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("receive_shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("status", String, nullable=False),  # draft | sent | received
    Column("note", String, nullable=False, info={"volatile": True}),  # free text: not compared
    Column("items", JSON, nullable=False),  # [{"itemID": 1, "toSend": 2, "received": 0}]
    Column("created_by", Integer, nullable=False),
    Column("create_time", String, nullable=False, info={"volatile": True}),
    Column("sent_time", String, info={"volatile": True}),
    Column("received_time", String, info={"volatile": True}),
)
