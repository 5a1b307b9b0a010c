"""eBay's buyer-side objects as tables: members (buyers and sellers), listings with shipping options, bids, Best
Offers, the watchlist, checkout sessions, purchase orders and their line items, returns and feedback.
Amounts are integers in US cents; the API shows them as {"value": "24.99", "currency": "USD"}."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("username", String, primary_key=True),
    Column("user_id", String, nullable=False),  # eBay's immutable user id
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("phone", String),
    Column("registration_date", String, nullable=False),
    Column("feedback_score", Integer, nullable=False, default=0),  # as a buyer
    # {fullName, addressLine1, addressLine2, city, stateOrProvince, postalCode, country}
    Column("shipping_address", JSON, nullable=False),
    Column("payment_method", String, nullable=False),  # e.g. "Visa ending 4417", "PayPal"
    Column("status", String, nullable=False),  # CONFIRMED | SUSPENDED
)

sellers = Table(
    "sellers",
    metadata,
    Column("username", String, primary_key=True),
    Column("store_name", String),
    Column("feedback_score", Integer, nullable=False),  # lifetime positives minus negatives
    Column("positive_count", Integer, nullable=False),  # last 12 months
    Column("neutral_count", Integer, nullable=False),
    Column("negative_count", Integer, nullable=False),
    Column("top_rated", Boolean, nullable=False, default=False),
    Column("location", JSON, nullable=False),  # {city, stateOrProvince, country}
    Column("auto_accept_returns", Boolean, nullable=False, default=False),  # automated return rules
)

items = Table(
    "items",
    metadata,
    Column("item_id", String, primary_key=True),  # v1|<legacy id>|0
    Column("legacy_item_id", String, nullable=False),
    Column("seller", String, ForeignKey("sellers.username"), nullable=False),
    Column("title", String, nullable=False),
    Column("subtitle", String),
    Column("category_id", String, nullable=False),
    Column("category_path", String, nullable=False),
    Column("condition", String, nullable=False),
    Column("condition_id", String, nullable=False),
    Column("condition_description", Text),
    Column("brand", String),
    Column("aspects", JSON, nullable=False),  # {"Model": "...", "Color": "..."}
    Column("description", Text, nullable=False),
    Column("buying_options", JSON, nullable=False),  # FIXED_PRICE | AUCTION | BEST_OFFER
    Column("price", Integer),  # Buy It Now price (fixed price, or an auction's BIN)
    Column("start_price", Integer),  # auctions: the opening bid
    Column("current_price", Integer),  # auctions: the current high bid
    Column("high_bidder", String),  # auctions: who is winning (hidden from other buyers)
    Column("bid_count", Integer, nullable=False, default=0),
    Column("reserve_price", Integer),  # hidden; None without a reserve
    Column("auto_accept_price", Integer),  # Best Offer: accepted at or above (hidden)
    Column("auto_decline_price", Integer),  # Best Offer: declined below (hidden)
    Column("quantity", Integer, nullable=False),  # still available
    Column("quantity_sold", Integer, nullable=False, default=0),
    Column("quantity_limit_per_buyer", Integer),
    Column("listing_status", String, nullable=False),  # ACTIVE | ENDED (sold out or ended by the seller)
    Column("item_creation_date", String, nullable=False),
    Column("item_end_date", String),  # auctions and timed listings; None for Good 'Til Cancelled
    Column("item_location", JSON, nullable=False),  # {city, stateOrProvince, postalCode, country}
    Column("ship_to_locations", JSON, nullable=False),  # {"regionIncluded": ["US"], "regionExcluded": ["AK", "HI"]}
    Column("handling_time_days", Integer, nullable=False),
    Column("returns_accepted", Boolean, nullable=False),
    Column("return_period_days", Integer),  # 30 or 60 when returns are accepted
    Column("return_shipping_cost_payer", String),  # BUYER | SELLER
    Column("watch_count", Integer, nullable=False, default=0),
)

shipping_options = Table(
    "shipping_options",
    metadata,
    Column("id", String, primary_key=True),  # <legacy item id>-<service code>
    Column("item_id", String, ForeignKey("items.item_id"), nullable=False),
    Column("shipping_service_code", String, nullable=False),  # USPSGroundAdvantage, UPSGround, ...
    Column("carrier", String, nullable=False),
    Column("type", String, nullable=False),  # Economy | Standard | Expedited | One-day
    Column("cost", Integer, nullable=False),  # cents, first unit
    Column("additional_unit_cost", Integer, nullable=False, default=0),
    Column("min_transit_days", Integer, nullable=False),
    Column("max_transit_days", Integer, nullable=False),
    Column("sort_order", Integer, nullable=False),
)

bids = Table(
    "bids",
    metadata,
    Column("proxy_bid_id", String, primary_key=True),
    Column("item_id", String, ForeignKey("items.item_id"), nullable=False),
    Column("bidder", String, nullable=False),  # a buyer's username, or another member's
    Column("max_amount", Integer, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
)

best_offers = Table(
    "best_offers",
    metadata,
    Column("best_offer_id", String, primary_key=True),
    Column("item_id", String, ForeignKey("items.item_id"), nullable=False),
    Column("buyer", String, ForeignKey("users.username"), nullable=False),
    Column("price", Integer, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("message", Text),
    Column("status", String, nullable=False),  # PENDING | ACCEPTED | DECLINED | COUNTERED | EXPIRED | RETRACTED
    Column("counter_price", Integer),
    Column("counter_message", Text),
    Column("purchase_order_id", String),  # the order an accepted offer became
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("expiration", String, nullable=False, info={"volatile": True}),  # 48 hours after the last move
)

watchlist = Table(
    "watchlist",
    metadata,
    Column("id", String, primary_key=True),
    Column("username", String, ForeignKey("users.username"), nullable=False),
    Column("item_id", String, ForeignKey("items.item_id"), nullable=False),
    Column("added", String, nullable=False, info={"volatile": True}),
)

checkout_sessions = Table(
    "checkout_sessions",
    metadata,
    Column("checkout_session_id", String, primary_key=True),
    Column("username", String, ForeignKey("users.username"), nullable=False),
    Column("line_items", JSON, nullable=False),  # [{lineItemId, itemId, quantity, shippingOptionId}]
    Column("shipping_address", JSON, nullable=False),
    Column("status", String, nullable=False),  # ACTIVE | ORDER_PLACED
    Column("purchase_order_id", String),
    Column("created", String, nullable=False, info={"volatile": True}),
)

purchase_orders = Table(
    "purchase_orders",
    metadata,
    Column("purchase_order_id", String, primary_key=True),  # 25-13284-00042
    Column("buyer", String, ForeignKey("users.username"), nullable=False),
    # PENDING | FULFILLMENT_IN_PROGRESS | DELIVERED | CANCELLED
    Column("purchase_order_status", String, nullable=False),
    Column("payment_status", String, nullable=False),  # PENDING | PAID | FAILED
    Column("payment_method", String, nullable=False),
    Column("shipping_address", JSON, nullable=False),
    Column("price_subtotal", Integer, nullable=False),
    Column("delivery_cost", Integer, nullable=False),
    Column("tax", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("refunded_amount", Integer, nullable=False, default=0),
    Column("creation_date", String, nullable=False, info={"volatile": True}),
    Column("paid_date", String, info={"volatile": True}),
)

line_items = Table(
    "line_items",
    metadata,
    Column("line_item_id", String, primary_key=True),  # the legacy transaction id
    Column("purchase_order_id", String, ForeignKey("purchase_orders.purchase_order_id"), nullable=False),
    Column("item_id", String, ForeignKey("items.item_id"), nullable=False),
    Column("seller", String, ForeignKey("sellers.username"), nullable=False),
    Column("title", String, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("unit_price", Integer, nullable=False),
    Column("purchase_type", String, nullable=False),  # FIXED_PRICE | BEST_OFFER | AUCTION
    Column("shipping_service_code", String, nullable=False),
    Column("shipping_cost", Integer, nullable=False),
    Column("fulfillment_status", String, nullable=False),  # NOT_STARTED | IN_TRANSIT | DELIVERED
    Column("shipping_carrier", String),
    Column("tracking_number", String),
    Column("shipped_date", String),
    Column("delivered_date", String),
    Column("min_estimated_delivery_date", String, info={"volatile": True}),
    Column("max_estimated_delivery_date", String, info={"volatile": True}),
)

returns = Table(
    "returns",
    metadata,
    Column("return_id", String, primary_key=True),
    Column("line_item_id", String, ForeignKey("line_items.line_item_id"), nullable=False),
    Column("buyer", String, ForeignKey("users.username"), nullable=False),
    Column("seller", String, ForeignKey("sellers.username"), nullable=False),
    Column("reason", String, nullable=False),
    Column("reason_type", String, nullable=False),  # REMORSE | SNAD
    Column("quantity", Integer, nullable=False),
    Column("comments", Text),
    Column("status", String, nullable=False),  # RETURN_REQUESTED | READY_FOR_SHIPPING | ITEM_SHIPPED | ... | CLOSED
    Column("return_shipping_cost_payer", String, nullable=False),  # BUYER | SELLER
    Column("estimated_refund", Integer, nullable=False),
    Column("creation_date", String, nullable=False, info={"volatile": True}),
)

feedback = Table(
    "feedback",
    metadata,
    Column("feedback_id", String, primary_key=True),
    Column("line_item_id", String, ForeignKey("line_items.line_item_id"), nullable=False),
    Column("item_id", String, ForeignKey("items.item_id"), nullable=False),
    Column("commenting_user", String, ForeignKey("users.username"), nullable=False),
    Column("seller", String, ForeignKey("sellers.username"), nullable=False),
    Column("comment_type", String, nullable=False),  # POSITIVE | NEUTRAL | NEGATIVE
    Column("comment_text", String, nullable=False),
    Column("creation_date", String, nullable=False, info={"volatile": True}),
)

auth_sessions = Table(
    "auth_sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the member who granted access
    Column("username", String, ForeignKey("users.username"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)
