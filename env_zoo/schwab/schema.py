"""Schwab's objects as tables: logins and their linked accounts (plain and hashed numbers), positions, instruments
with their quotes, market hours, orders and transactions. Money and quantities are floats (dollars, shares)."""

from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table

metadata = MetaData()

logins = Table(
    "logins",
    metadata,
    Column("login_id", String, primary_key=True),  # the schwab.com login name
    Column("password", String, nullable=False),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("login_id", String, ForeignKey("logins.login_id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

accounts = Table(
    "accounts",
    metadata,
    Column("account_number", String, primary_key=True),  # 8 digits, as printed on statements
    Column("hash_value", String, nullable=False, unique=True),  # the encrypted id every account call takes
    Column("login_id", String, ForeignKey("logins.login_id"), nullable=False),
    Column("type", String, nullable=False),  # MARGIN | CASH
    Column("nickname", String, nullable=False),
    Column("registration", String, nullable=False),  # Individual | Joint | Roth IRA | Traditional IRA
    Column("primary_account", Boolean, nullable=False),
    Column("cash_balance", Float, nullable=False),  # negative on margin: a margin loan
    Column("closing_equity", Float, nullable=False),  # equity at the previous close
    Column("restricted", Boolean, nullable=False),  # closing-transactions-only restriction
)

instruments = Table(
    "instruments",
    metadata,
    Column("symbol", String, primary_key=True),
    Column("cusip", String, nullable=False, unique=True),
    Column("description", String, nullable=False),
    Column("exchange", String, nullable=False),  # NYSE | NASDAQ | NYSE Arca | OTC
    Column("asset_type", String, nullable=False),  # EQUITY | ETF | MUTUAL_FUND
    Column("shortable", Boolean, nullable=False),
    Column("halted", Boolean, nullable=False),
)

quotes = Table(
    "quotes",
    metadata,
    Column("symbol", String, ForeignKey("instruments.symbol"), primary_key=True),
    Column("bid_price", Float, nullable=False),
    Column("bid_size", Integer, nullable=False),
    Column("ask_price", Float, nullable=False),
    Column("ask_size", Integer, nullable=False),
    Column("last_price", Float, nullable=False),
    Column("open_price", Float, nullable=False),
    Column("high_price", Float, nullable=False),
    Column("low_price", Float, nullable=False),
    Column("close_price", Float, nullable=False),  # the previous close
    Column("total_volume", Integer, nullable=False),
    Column("high_52_week", Float, nullable=False),
    Column("low_52_week", Float, nullable=False),
    Column("pe_ratio", Float),
    Column("div_yield", Float, nullable=False),
)

market_hours = Table(
    "market_hours",
    metadata,
    Column("date", String, primary_key=True),  # YYYY-MM-DD; every weekday, holidays with is_open false
    Column("is_open", Boolean, nullable=False),
    Column("holiday", String),
    Column("pre_market_start", String),  # HH:MM, New York time
    Column("regular_start", String),
    Column("regular_end", String),
    Column("post_market_end", String),
)

positions = Table(
    "positions",
    metadata,
    Column("id", String, primary_key=True),  # <account_number>:<symbol>
    Column("account_number", String, ForeignKey("accounts.account_number"), nullable=False),
    Column("symbol", String, ForeignKey("instruments.symbol"), nullable=False),
    Column("long_quantity", Float, nullable=False),
    Column("short_quantity", Float, nullable=False),
    Column("average_price", Float, nullable=False),
)

orders = Table(
    "orders",
    metadata,
    Column("order_id", Integer, primary_key=True),  # int64, as in the Location header
    Column("account_number", String, ForeignKey("accounts.account_number"), nullable=False),
    Column("symbol", String, ForeignKey("instruments.symbol"), nullable=False),
    Column("instruction", String, nullable=False),  # BUY | SELL | SELL_SHORT | BUY_TO_COVER
    Column("quantity", Float, nullable=False),
    Column("filled_quantity", Float, nullable=False),
    Column("order_type", String, nullable=False),  # MARKET | LIMIT | STOP | STOP_LIMIT
    Column("price", Float),
    Column("stop_price", Float),
    Column("session", String, nullable=False),  # NORMAL | AM | PM | SEAMLESS
    Column("duration", String, nullable=False),  # DAY | GOOD_TILL_CANCEL | FILL_OR_KILL
    # QUEUED | WORKING | PENDING_ACTIVATION | FILLED | CANCELED | REPLACED | EXPIRED | REJECTED
    Column("status", String, nullable=False),
    Column("status_description", String),
    Column("filled_price", Float),
    Column("entered_time", String, nullable=False, info={"volatile": True}),
    Column("close_time", String, info={"volatile": True}),
    Column("replaces_order_id", Integer),
    Column("replaced_by_order_id", Integer),
)

transactions = Table(
    "transactions",
    metadata,
    Column("activity_id", Integer, primary_key=True),
    Column("account_number", String, ForeignKey("accounts.account_number"), nullable=False),
    # TRADE | DIVIDEND_OR_INTEREST | ACH_RECEIPT | ACH_DISBURSEMENT | JOURNAL | WIRE_IN | RECEIVE_AND_DELIVER
    Column("type", String, nullable=False),
    Column("trade_date", String, nullable=False),  # YYYY-MM-DD
    Column("time", String, nullable=False, info={"volatile": True}),
    Column("description", String, nullable=False),
    Column("net_amount", Float, nullable=False),
    Column("symbol", String),
    Column("quantity", Float),
    Column("price", Float),
    Column("order_id", Integer, ForeignKey("orders.order_id")),
    Column("status", String, nullable=False),  # VALID | PENDING
)
