"""Alpaca's objects as tables: the account and its configurations, assets and their latest prices, orders,
positions, account activities, watchlists and the market calendar. Money and quantities are stored as floats
(dollars, shares) and returned as decimal strings, as the Trading API does."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("account_number", String, nullable=False),
    Column("status", String, nullable=False),  # ACTIVE | ACCOUNT_UPDATED | ...
    Column("crypto_status", String, nullable=False),
    Column("currency", String, nullable=False),
    Column("cash", Float, nullable=False),
    Column("last_equity", Float, nullable=False),  # equity at the previous close
    Column("pattern_day_trader", Boolean, nullable=False, default=False),
    Column("trading_blocked", Boolean, nullable=False, default=False),
    Column("transfers_blocked", Boolean, nullable=False, default=False),
    Column("account_blocked", Boolean, nullable=False, default=False),
    Column("created_at", String, nullable=False),
)

account_configurations = Table(
    "account_configurations",
    metadata,
    Column("account_id", String, ForeignKey("accounts.id"), primary_key=True),
    Column("trade_confirm_email", String, nullable=False),  # all | none
    Column("suspend_trade", Boolean, nullable=False),
    Column("no_shorting", Boolean, nullable=False),
    Column("fractional_trading", Boolean, nullable=False),
    Column("max_margin_multiplier", String, nullable=False),  # "1" | "2"
)

assets = Table(
    "assets",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("symbol", String, nullable=False, unique=True),
    Column("name", String, nullable=False),
    Column("asset_class", String, nullable=False),  # us_equity
    Column("exchange", String, nullable=False),  # NASDAQ | NYSE | ARCA | AMEX | BATS | OTC
    Column("status", String, nullable=False),  # active | inactive
    Column("tradable", Boolean, nullable=False),
    Column("marginable", Boolean, nullable=False),
    Column("maintenance_margin_requirement", Integer, nullable=False),  # percent
    Column("shortable", Boolean, nullable=False),
    Column("easy_to_borrow", Boolean, nullable=False),
    Column("fractionable", Boolean, nullable=False),
    Column("attributes", JSON, nullable=False),  # ["fractional_eh_enabled", "has_options", ...]
)

# The deterministic price table behind quotes, snapshots, position values and fills.
prices = Table(
    "prices",
    metadata,
    Column("symbol", String, ForeignKey("assets.symbol"), primary_key=True),
    Column("last_price", Float, nullable=False),
    Column("last_size", Integer, nullable=False),
    Column("bid_price", Float, nullable=False),
    Column("bid_size", Integer, nullable=False),
    Column("ask_price", Float, nullable=False),
    Column("ask_size", Integer, nullable=False),
    Column("bid_exchange", String, nullable=False),
    Column("ask_exchange", String, nullable=False),
    Column("open", Float, nullable=False),
    Column("high", Float, nullable=False),
    Column("low", Float, nullable=False),
    Column("volume", Integer, nullable=False),
    Column("prev_open", Float, nullable=False),
    Column("prev_high", Float, nullable=False),
    Column("prev_low", Float, nullable=False),
    Column("prev_close", Float, nullable=False),
    Column("prev_volume", Integer, nullable=False),
)

orders = Table(
    "orders",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("client_order_id", String, nullable=False, unique=True),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
    Column("submitted_at", String, nullable=False, info={"volatile": True}),
    Column("filled_at", String, info={"volatile": True}),
    Column("expired_at", String, info={"volatile": True}),
    Column("canceled_at", String, info={"volatile": True}),
    Column("failed_at", String, info={"volatile": True}),
    Column("replaced_at", String, info={"volatile": True}),
    Column("replaced_by", String),
    Column("replaces", String),
    Column("asset_id", String, ForeignKey("assets.id"), nullable=False),
    Column("symbol", String, nullable=False),
    Column("asset_class", String, nullable=False),
    Column("notional", Float),
    Column("qty", Float),
    Column("filled_qty", Float, nullable=False, default=0),
    Column("filled_avg_price", Float),
    Column("order_class", String, nullable=False),  # simple
    Column("type", String, nullable=False),  # market | limit | stop | stop_limit
    Column("side", String, nullable=False),  # buy | sell
    Column("position_intent", String, nullable=False),  # buy_to_open | buy_to_close | sell_to_open | sell_to_close
    Column("time_in_force", String, nullable=False),  # day | gtc | ioc | fok
    Column("limit_price", Float),
    Column("stop_price", Float),
    # accepted | new | partially_filled | filled | canceled | expired | replaced | rejected
    Column("status", String, nullable=False),
    Column("extended_hours", Boolean, nullable=False, default=False),
)

positions = Table(
    "positions",
    metadata,
    Column("symbol", String, ForeignKey("assets.symbol"), primary_key=True),
    Column("asset_id", String, ForeignKey("assets.id"), nullable=False),
    Column("qty", Float, nullable=False),  # negative for a short position
    Column("avg_entry_price", Float, nullable=False),
)

account_activities = Table(
    "account_activities",
    metadata,
    Column("id", String, primary_key=True),  # YYYYMMDDHHMMSSmmm::UUID
    Column("activity_type", String, nullable=False),  # FILL | DIV | CSD | CSW | INT
    # trade activities (FILL)
    Column("transaction_time", String, info={"volatile": True}),
    Column("type", String),  # fill | partial_fill
    Column("price", Float),
    Column("qty", Float),
    Column("side", String),
    Column("symbol", String),
    Column("leaves_qty", Float),
    Column("cum_qty", Float),
    Column("order_id", String, ForeignKey("orders.id")),
    Column("order_status", String),
    # non-trade activities
    Column("date", String),  # YYYY-MM-DD
    Column("net_amount", Float),
    Column("per_share_amount", Float),
    Column("description", String),
    Column("status", String),  # executed | correct | canceled
)

watchlists = Table(
    "watchlists",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("symbols", JSON, nullable=False),  # in the order they were added
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

calendar = Table(
    "calendar",
    metadata,
    Column("date", String, primary_key=True),  # trading days only, YYYY-MM-DD
    Column("open", String, nullable=False),  # HH:MM, New York time
    Column("close", String, nullable=False),
    Column("session_open", String, nullable=False),  # HHMM, extended hours
    Column("session_close", String, nullable=False),
    Column("settlement_date", String, nullable=False),
)
