"""Walmart Marketplace seller-side objects as tables: sellers (partners) and the signed-in session, ship nodes
(fulfillment centers), items with their price, promotional prices, inventory per ship node, purchase orders and
their lines, refunds, and return orders with their lines. Money is integer cents (USD); times are ISO UTC."""

from sqlalchemy import Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

sellers = Table(
    "sellers",
    metadata,
    Column("partner_id", String, primary_key=True),  # 11 digits, e.g. "10001482266"
    Column("name", String, nullable=False),
    Column("client_id", String, nullable=False),
    Column("client_secret", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("partner_id", String, ForeignKey("sellers.partner_id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

ship_nodes = Table(
    "ship_nodes",
    metadata,
    Column("ship_node", String, primary_key=True),  # 6 digits, e.g. "721407"
    Column("partner_id", String, ForeignKey("sellers.partner_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),
    Column("status", String, nullable=False),  # ACTIVE | INACTIVE
)

items = Table(
    "items",
    metadata,
    Column("sku", String, primary_key=True),
    Column("partner_id", String, ForeignKey("sellers.partner_id"), nullable=False),
    Column("item_id", String, nullable=False),  # Walmart item id, 9 digits
    Column("gtin", String, nullable=False),  # 14 digits
    Column("product_name", String, nullable=False),
    Column("brand", String, nullable=False),
    Column("category", String, nullable=False),
    Column("lifecycle_status", String, nullable=False),  # ACTIVE | RETIRED | ARCHIVED
    Column("published_status", String, nullable=False),  # PUBLISHED | UNPUBLISHED | IN_PROGRESS | SYSTEM_PROBLEM
    Column("unpublished_reason", String, nullable=True),
    Column("price", Integer, nullable=False),  # cents
    Column("price_updated_at", String, nullable=True, info={"volatile": True}),
    Index("ix_items_partner", "partner_id"),
)

inventory = Table(
    "inventory",
    metadata,
    Column("id", String, primary_key=True),  # sku + "@" + ship_node
    Column("sku", String, ForeignKey("items.sku"), nullable=False),
    Column("ship_node", String, ForeignKey("ship_nodes.ship_node"), nullable=False),
    Column("input_qty", Integer, nullable=False),  # on hand, including sold but not yet shipped
    Column("reserved_qty", Integer, nullable=False),  # sold, not yet shipped
    Index("ix_inventory_sku", "sku"),
)

promotions = Table(
    "promotions",
    metadata,
    Column("promo_id", String, primary_key=True),  # "PROMO-" + 6 digits
    Column("sku", String, ForeignKey("items.sku"), nullable=False),
    Column("price_type", String, nullable=False),  # REDUCED | CLEARANCE
    Column("current_price", Integer, nullable=False),  # cents, the sale price
    Column("comparison_price", Integer, nullable=False),  # cents, the struck-through price
    Column("start_at", String, nullable=False),
    Column("end_at", String, nullable=False),
    Index("ix_promotions_sku", "sku"),
)

orders = Table(
    "orders",
    metadata,
    Column("purchase_order_id", String, primary_key=True),  # 13 digits
    Column("partner_id", String, ForeignKey("sellers.partner_id"), nullable=False),
    Column("customer_order_id", String, nullable=False),  # 13 digits, what the customer sees
    Column("customer_name", String, nullable=False),
    Column("customer_email", String, nullable=False),  # relay address
    Column("order_date", String, nullable=False),
    Column("method_code", String, nullable=False),  # Value | Standard | Express | OneDay
    Column("estimated_ship_date", String, nullable=False),
    Column("estimated_delivery_date", String, nullable=False),
    Column("address", String, nullable=False),
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),
    Column("postal_code", String, nullable=False),
    Index("ix_orders_partner_date", "partner_id", "order_date"),
)

order_lines = Table(
    "order_lines",
    metadata,
    Column("id", String, primary_key=True),  # purchase_order_id + "-" + line number
    Column("purchase_order_id", String, ForeignKey("orders.purchase_order_id"), nullable=False),
    Column("line_number", Integer, nullable=False),
    Column("sku", String, ForeignKey("items.sku"), nullable=False),
    Column("product_name", String, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("unit_price", Integer, nullable=False),  # cents, PRODUCT charge per unit
    Column("shipping", Integer, nullable=False),  # cents, SHIPPING charge for the line
    Column("tax", Integer, nullable=False),  # cents
    Column("status", String, nullable=False),  # Created | Acknowledged | Shipped | Delivered | Cancelled
    Column("ship_node", String, ForeignKey("ship_nodes.ship_node"), nullable=False),
    Column("carrier", String, nullable=True),
    Column("method_code", String, nullable=True),
    Column("tracking_number", String, nullable=True),
    Column("shipped_at", String, nullable=True, info={"volatile": True}),
    Column("cancellation_reason", String, nullable=True),
    Column("refunded", Integer, nullable=False),  # cents refunded so far
    Column("updated_at", String, nullable=True, info={"volatile": True}),
    Index("ix_lines_order", "purchase_order_id"),
    Index("ix_lines_sku", "sku"),
)

refunds = Table(
    "refunds",
    metadata,
    Column("refund_id", String, primary_key=True),  # "RF-" + digits
    Column("purchase_order_id", String, ForeignKey("orders.purchase_order_id"), nullable=False),
    Column("line_number", Integer, nullable=False),
    Column("amount", Integer, nullable=False),  # cents, positive here; shown negative as Walmart does
    Column("reason", String, nullable=False),
    Column("return_order_id", String, nullable=True),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_refunds_order", "purchase_order_id"),
)

returns = Table(
    "returns",
    metadata,
    Column("return_order_id", String, primary_key=True),  # 15 digits
    Column("partner_id", String, ForeignKey("sellers.partner_id"), nullable=False),
    Column("purchase_order_id", String, ForeignKey("orders.purchase_order_id"), nullable=False),
    Column("customer_order_id", String, nullable=False),
    Column("customer_name", String, nullable=False),
    Column("status", String, nullable=False),  # INITIATED | DELIVERED | COMPLETED | CANCELLED
    Column("return_reason", String, nullable=False),
    Column("created_at", String, nullable=False),
    Column("refunded_at", String, nullable=True, info={"volatile": True}),
    Index("ix_returns_partner", "partner_id"),
)

return_lines = Table(
    "return_lines",
    metadata,
    Column("id", String, primary_key=True),  # return_order_id + "-" + return line number
    Column("return_order_id", String, ForeignKey("returns.return_order_id"), nullable=False),
    Column("return_line_number", Integer, nullable=False),
    Column("order_line_number", Integer, nullable=False),
    Column("sku", String, ForeignKey("items.sku"), nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("refund_amount", Integer, nullable=False),  # cents due for the returned units
    Column("refunded", Integer, nullable=False),  # cents refunded
    Index("ix_return_lines_return", "return_order_id"),
)
