"""Amazon Selling Partner API objects as tables: sellers and their sign-in session, marketplaces and the seller's
participations, catalog items (ASINs) and listing restrictions, the seller's listings (one per SKU and
marketplace) with their issues, orders and order items, FBA inventory per SKU, FBA inbound shipments and their
items, return requests and refunds. Money is an integer number of cents; the API shows it as a Money object."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table

metadata = MetaData()

sellers = Table(
    "sellers",
    metadata,
    Column("id", String, primary_key=True),  # a merchant token such as A2Q3Y263D00KWC
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("password", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("seller_id", String, ForeignKey("sellers.id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

marketplaces = Table(
    "marketplaces",
    metadata,
    Column("id", String, primary_key=True),  # ATVPDKIKX0DER (US), A2EUQ1WTGCTBG2 (CA), A1AM78C64UM0Y8 (MX)
    Column("name", String, nullable=False),
    Column("country_code", String, nullable=False),
    Column("currency", String, nullable=False),
)

participations = Table(
    "participations",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("seller_id", String, ForeignKey("sellers.id"), nullable=False),
    Column("marketplace_id", String, ForeignKey("marketplaces.id"), nullable=False),
    Column("store_name", String, nullable=False),
    Column("has_suspended_listings", Boolean, nullable=False),
)

catalog_items = Table(
    "catalog_items",
    metadata,
    Column("asin", String, primary_key=True),
    Column("title", String, nullable=False),
    Column("brand", String, nullable=False),
    Column("product_type", String, nullable=False),
    Column("upc", String, nullable=False),
    Column("color", String, nullable=False),
    Column("size", String, nullable=False),
)

restrictions = Table(
    "restrictions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("asin", String, ForeignKey("catalog_items.asin"), nullable=False),
    Column("marketplace_id", String, nullable=False),
    Column("condition_type", String, nullable=False),
    Column("reason_code", String, nullable=False),  # APPROVAL_REQUIRED | ASIN_NOT_FOUND | NOT_ELIGIBLE
    Column("message", String, nullable=False),
)

listings = Table(
    "listings",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("seller_id", String, ForeignKey("sellers.id"), nullable=False),
    Column("marketplace_id", String, ForeignKey("marketplaces.id"), nullable=False),
    Column("sku", String, nullable=False),
    Column("asin", String, nullable=False),
    Column("product_type", String, nullable=False),
    Column("item_name", String),  # None: the attribute is missing
    Column("brand", String),
    Column("bullet_points", JSON, nullable=False),
    Column("condition_type", String, nullable=False),  # new_new | used_like_new | used_very_good | used_good
    Column("fulfillment_channel", String, nullable=False),  # DEFAULT (seller, MFN) | AMAZON_NA (FBA)
    Column("price", Integer),  # our price in cents; None: no offer
    Column("min_price", Integer),  # minimum_seller_allowed_price
    Column("max_price", Integer),  # maximum_seller_allowed_price
    Column("quantity", Integer, nullable=False),  # MFN quantity; FBA quantity comes from inventory
    Column("created_date", String, nullable=False, info={"volatile": True}),
    Column("last_updated_date", String, nullable=False, info={"volatile": True}),
)

listing_issues = Table(
    "listing_issues",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("listing_id", Integer, ForeignKey("listings.id"), nullable=False),
    Column("code", String, nullable=False),
    Column("message", String, nullable=False),
    Column("severity", String, nullable=False),  # ERROR | WARNING | INFO
    Column("attribute_name", String, nullable=False),
    Column("category", String, nullable=False),  # MISSING_ATTRIBUTE | INVALID_PRICE | INVALID_IMAGE ...
)

orders = Table(
    "orders",
    metadata,
    Column("id", String, primary_key=True),  # AmazonOrderId, 3-7-7 digits
    Column("seller_id", String, ForeignKey("sellers.id"), nullable=False),
    Column("marketplace_id", String, nullable=False),
    Column("status", String, nullable=False),  # Pending | Unshipped | PartiallyShipped | Shipped | Canceled
    Column("fulfillment_channel", String, nullable=False),  # MFN | AFN
    Column("ship_service_level", String, nullable=False),  # Std | Exp | NextDay
    Column("purchase_date", String, nullable=False),
    Column("latest_ship_date", String, nullable=False),
    Column("last_update_date", String, nullable=False, info={"volatile": True}),
    Column("buyer_name", String, nullable=False),
    Column("ship_city", String, nullable=False),
    Column("ship_state", String, nullable=False),
    Column("is_prime", Boolean, nullable=False),
    Column("is_buyer_requested_cancel", Boolean, nullable=False),
    Column("cancel_reason", String),
)

order_items = Table(
    "order_items",
    metadata,
    Column("id", String, primary_key=True),  # OrderItemId, 14 digits
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("sku", String, nullable=False),
    Column("asin", String, nullable=False),
    Column("title", String, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("quantity_shipped", Integer, nullable=False),
    Column("item_price", Integer, nullable=False),  # cents for the whole line
    Column("shipping_price", Integer, nullable=False),
)

package_confirmations = Table(
    "package_confirmations",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("package_reference_id", String, nullable=False),
    Column("carrier_code", String, nullable=False),
    Column("tracking_number", String, nullable=False),
    Column("ship_date", String, nullable=False),
    Column("items", JSON, nullable=False),  # [{"orderItemId": ..., "quantity": n}]
)

inventory = Table(
    "inventory",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("seller_id", String, ForeignKey("sellers.id"), nullable=False),
    Column("marketplace_id", String, nullable=False),
    Column("sku", String, nullable=False),
    Column("fnsku", String, nullable=False),
    Column("asin", String, nullable=False),
    Column("fulfillable", Integer, nullable=False),
    Column("inbound_working", Integer, nullable=False),
    Column("inbound_shipped", Integer, nullable=False),
    Column("inbound_receiving", Integer, nullable=False),
    Column("reserved", Integer, nullable=False),
    Column("unfulfillable", Integer, nullable=False),
    Column("last_updated_time", String, nullable=False, info={"volatile": True}),
)

inbound_shipments = Table(
    "inbound_shipments",
    metadata,
    Column("id", String, primary_key=True),  # ShipmentId such as FBA15K2M8Q1X
    Column("seller_id", String, ForeignKey("sellers.id"), nullable=False),
    Column("marketplace_id", String, nullable=False),
    Column("name", String, nullable=False),
    Column("destination", String, nullable=False),  # fulfillment center id, e.g. PHX7
    Column("status", String, nullable=False),  # WORKING | SHIPPED | RECEIVING | CLOSED | CANCELLED
    Column("label_prep_type", String, nullable=False),
    Column("created_date", String, nullable=False, info={"volatile": True}),
)

inbound_items = Table(
    "inbound_items",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("shipment_id", String, ForeignKey("inbound_shipments.id"), nullable=False),
    Column("sku", String, nullable=False),
    Column("fnsku", String, nullable=False),
    Column("quantity_shipped", Integer, nullable=False),
    Column("quantity_received", Integer, nullable=False),
)

returns = Table(
    "returns",
    metadata,
    Column("id", String, primary_key=True),  # return request id, e.g. D7mPqR2sT
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("order_item_id", String, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("reason", String, nullable=False),  # DEFECTIVE | NO_LONGER_NEEDED | ORDERED_WRONG_ITEM ...
    Column("buyer_comment", String, nullable=False),
    Column("status", String, nullable=False),  # PENDING_AUTHORIZATION | AUTHORIZED | DECLINED | RECEIVED | CLOSED
    Column("request_date", String, nullable=False),
    Column("decline_reason", String),
    Column("rma_id", String),
)

refunds = Table(
    "refunds",
    metadata,
    Column("id", String, primary_key=True),
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("order_item_id", String, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("amount", Integer, nullable=False),
    Column("reason", String, nullable=False),
    Column("return_id", String),
    Column("posted_date", String, nullable=False, info={"volatile": True}),
)
