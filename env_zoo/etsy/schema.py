"""Etsy Open API v3 objects as tables. Ids are integers as Etsy gives them (listing_id 1601234567, receipt_id
3012345678); money is kept in minor units (cents) with the shop's currency; times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("user_id", Integer, primary_key=True),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("primary_email", String, nullable=False),
)

tokens = Table(
    "tokens",
    metadata,
    Column("access_token", String, primary_key=True),  # "<user_id>.<43 url-safe characters>", as Etsy's OAuth issues
    Column("user_id", Integer, ForeignKey("users.user_id"), nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # always "current"
    Column("user_id", Integer, ForeignKey("users.user_id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

shops = Table(
    "shops",
    metadata,
    Column("shop_id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.user_id"), nullable=False),  # the owner
    Column("shop_name", String, nullable=False, unique=True),
    Column("title", String, nullable=False),
    Column("currency_code", String, nullable=False),
    Column("is_vacation", Boolean, nullable=False),
    Column("created_timestamp", String, nullable=False),
)

shop_sections = Table(
    "shop_sections",
    metadata,
    Column("shop_section_id", Integer, primary_key=True),
    Column("shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("title", String, nullable=False),
    Column("rank", Integer, nullable=False),
)

shipping_profiles = Table(
    "shipping_profiles",
    metadata,
    Column("shipping_profile_id", Integer, primary_key=True),
    Column("shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("title", String, nullable=False),
    Column("origin_country_iso", String, nullable=False),
    Column("origin_postal_code", String, nullable=False),
    Column("min_processing_days", Integer, nullable=False),
    Column("max_processing_days", Integer, nullable=False),
)

shipping_destinations = Table(
    "shipping_destinations",
    metadata,
    Column("shipping_profile_destination_id", Integer, primary_key=True),
    Column("shipping_profile_id", Integer, ForeignKey("shipping_profiles.shipping_profile_id"), nullable=False),
    Column("destination_country_iso", String),  # NULL when the destination is a region
    Column("destination_region", String, nullable=False),  # eu, non_eu or none (a single country)
    Column("primary_cost", Integer, nullable=False),  # cents, the first item
    Column("secondary_cost", Integer, nullable=False),  # cents, each further item
    Column("mail_class", String),
    Column("min_delivery_days", Integer),
    Column("max_delivery_days", Integer),
)

shipping_upgrades = Table(
    "shipping_upgrades",
    metadata,
    Column("upgrade_id", Integer, primary_key=True),
    Column("shipping_profile_id", Integer, ForeignKey("shipping_profiles.shipping_profile_id"), nullable=False),
    Column("upgrade_name", String, nullable=False),
    Column("type", Integer, nullable=False),  # 0 domestic, 1 international
    Column("price", Integer, nullable=False),
    Column("secondary_price", Integer, nullable=False),
)

listings = Table(
    "listings",
    metadata,
    Column("listing_id", Integer, primary_key=True),
    Column("shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("title", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("state", String, nullable=False),  # draft, active, inactive, sold_out, expired
    Column("quantity", Integer, nullable=False),  # sum of the enabled offerings
    Column("price", Integer, nullable=False),  # cents, lowest enabled offering
    Column("who_made", String, nullable=False),
    Column("when_made", String, nullable=False),
    Column("taxonomy_id", Integer, nullable=False),
    Column("is_supply", Boolean, nullable=False),
    Column("tags", JSON, nullable=False),
    Column("materials", JSON, nullable=False),
    Column("shipping_profile_id", Integer, ForeignKey("shipping_profiles.shipping_profile_id")),
    Column("shop_section_id", Integer, ForeignKey("shop_sections.shop_section_id")),
    Column("should_auto_renew", Boolean, nullable=False),
    Column("num_favorers", Integer, nullable=False),
    Column("views", Integer, nullable=False),
    Column("price_on_property", JSON, nullable=False),  # property names the price varies by
    Column("quantity_on_property", JSON, nullable=False),
    Column("created_timestamp", String, nullable=False, info={"volatile": True}),
    # when an active listing expires (four months after listing or renewal)
    Column("ending_timestamp", String, info={"volatile": True}),
    Column("state_timestamp", String, nullable=False, info={"volatile": True}),
)

listing_images = Table(
    "listing_images",
    metadata,
    Column("listing_image_id", Integer, primary_key=True),
    Column("listing_id", Integer, ForeignKey("listings.listing_id"), nullable=False),
    Column("rank", Integer, nullable=False),
    Column("file_name", String, nullable=False),
    Column("alt_text", String, nullable=False),
)

listing_products = Table(
    "listing_products",
    metadata,
    Column("product_id", Integer, primary_key=True),
    Column("listing_id", Integer, ForeignKey("listings.listing_id"), nullable=False),
    Column("sku", String, nullable=False),
    Column("property_values", JSON, nullable=False),  # [{"property_name": "Color", "value": "Sage"}]
    Column("offering_id", Integer, nullable=False, unique=True),
    Column("price", Integer, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("is_enabled", Boolean, nullable=False),
)

receipts = Table(
    "receipts",
    metadata,
    Column("receipt_id", Integer, primary_key=True),
    Column("shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("buyer_user_id", Integer, ForeignKey("users.user_id"), nullable=False),
    Column("name", String, nullable=False),  # the ship-to name
    Column("buyer_email", String, nullable=False),
    Column("first_line", String, nullable=False),
    Column("city", String, nullable=False),
    Column("state", String, nullable=False),
    Column("zip", String, nullable=False),
    Column("country_iso", String, nullable=False),
    Column("status", String, nullable=False),  # Paid, Completed, Canceled, Fully Refunded, Partially Refunded
    Column("is_paid", Boolean, nullable=False),
    Column("is_shipped", Boolean, nullable=False),
    Column("message_from_buyer", Text, nullable=False),
    Column("shipping_upgrade", String),
    Column("subtotal", Integer, nullable=False),
    Column("total_shipping_cost", Integer, nullable=False),
    Column("total_tax_cost", Integer, nullable=False),
    Column("grandtotal", Integer, nullable=False),
    Column("refunded", Integer, nullable=False),
    Column("create_timestamp", String, nullable=False),
    Column("expected_ship_date", String, nullable=False),
)

transactions = Table(
    "transactions",
    metadata,
    Column("transaction_id", Integer, primary_key=True),
    Column("receipt_id", Integer, ForeignKey("receipts.receipt_id"), nullable=False),
    Column("listing_id", Integer, ForeignKey("listings.listing_id"), nullable=False),
    Column("product_id", Integer),
    Column("title", String, nullable=False),
    Column("sku", String, nullable=False),
    Column("variations", JSON, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("price", Integer, nullable=False),
    Column("shipping_cost", Integer, nullable=False),
)

receipt_shipments = Table(
    "receipt_shipments",
    metadata,
    Column("receipt_shipping_id", Integer, primary_key=True),
    Column("receipt_id", Integer, ForeignKey("receipts.receipt_id"), nullable=False),
    Column("carrier_name", String, nullable=False),
    Column("tracking_code", String, nullable=False),
    Column("note_to_buyer", Text, nullable=False),
    Column("shipment_notification_timestamp", String, nullable=False, info={"volatile": True}),
)

refunds = Table(
    "refunds",
    metadata,
    Column("refund_id", Integer, primary_key=True),
    Column("receipt_id", Integer, ForeignKey("receipts.receipt_id"), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("reason", String, nullable=False),
    Column("note_from_seller", Text, nullable=False),
    Column("created_timestamp", String, nullable=False, info={"volatile": True}),
)

reviews = Table(
    "reviews",
    metadata,
    Column("transaction_id", Integer, ForeignKey("transactions.transaction_id"), primary_key=True),
    Column("shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("listing_id", Integer, ForeignKey("listings.listing_id"), nullable=False),
    Column("buyer_user_id", Integer, ForeignKey("users.user_id"), nullable=False),
    Column("rating", Integer, nullable=False),
    Column("review", Text, nullable=False),
    Column("create_timestamp", String, nullable=False),
)

ledger_entries = Table(
    "ledger_entries",
    metadata,
    Column("entry_id", Integer, primary_key=True),
    Column("shop_id", Integer, ForeignKey("shops.shop_id"), nullable=False),
    Column("description", String, nullable=False),  # listing, renew_expired, renew_sold, sale, refund, shipping_label
    Column("reference_id", Integer, nullable=False),  # the listing or receipt the entry is for
    Column("amount", Integer, nullable=False),  # cents, negative for a fee or a refund
    Column("create_date", String, nullable=False, info={"volatile": True}),
)
