"""Coinbase's objects as tables: the user, currencies and networks, wallets, products, payment methods, simple
buys and sells, conversions, Advanced Trade orders and fills, transactions, receive addresses and the address book.
Amounts are decimal strings in their currency ("0.01500000" BTC, "25.00" USD), as the APIs return them."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("native_currency", String, nullable=False),
    Column("country", String, nullable=False),
    Column("time_zone", String, nullable=False),
    Column("two_factor_method", String, nullable=False),  # coinbase_app | authenticator | sms | security_key
    Column("address_allowlisting", Boolean, nullable=False),
    Column("send_2fa_threshold", String, nullable=False),  # native value from which a send needs approval
    Column("created_at", String, nullable=False),
)

currencies = Table(
    "currencies",
    metadata,
    Column("code", String, primary_key=True),  # BTC, ETH, USD ...
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # crypto | fiat
    Column("exponent", Integer, nullable=False),  # decimal places amounts are kept to
    Column("color", String, nullable=False),
    Column("sort_index", Integer, nullable=False),
    # [{"name", "display_name", "address_regex", "network_fee", "min_send"}]; the first is the default network
    Column("networks", JSON, nullable=False),
)

accounts = Table(
    "accounts",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("name", String, nullable=False),  # "BTC Wallet"
    Column("currency", String, ForeignKey("currencies.code"), nullable=False, unique=True),
    Column("available_balance", String, nullable=False),
    Column("hold", String, nullable=False),  # reserved by open orders and sends awaiting approval
    Column("type", String, nullable=False),  # ACCOUNT_TYPE_CRYPTO | ACCOUNT_TYPE_FIAT
    Column("default", Boolean, nullable=False),
    Column("active", Boolean, nullable=False),
    Column("ready", Boolean, nullable=False),
    Column("created_at", String, nullable=False),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

products = Table(
    "products",
    metadata,
    Column("product_id", String, primary_key=True),  # BTC-USD
    Column("base_currency_id", String, ForeignKey("currencies.code"), nullable=False),
    Column("quote_currency_id", String, ForeignKey("currencies.code"), nullable=False),
    Column("price", String, nullable=False),  # last trade, the mid of the book
    Column("best_bid", String, nullable=False),
    Column("best_ask", String, nullable=False),
    Column("price_percentage_change_24h", String, nullable=False),
    Column("volume_24h", String, nullable=False),
    Column("base_increment", String, nullable=False),
    Column("quote_increment", String, nullable=False),
    Column("price_increment", String, nullable=False),
    Column("base_min_size", String, nullable=False),
    Column("base_max_size", String, nullable=False),
    Column("quote_min_size", String, nullable=False),
    Column("quote_max_size", String, nullable=False),
    Column("status", String, nullable=False),  # online | offline | delisted
    Column("trading_disabled", Boolean, nullable=False),
    Column("cancel_only", Boolean, nullable=False),
    Column("limit_only", Boolean, nullable=False),
    Column("post_only", Boolean, nullable=False),
    Column("product_type", String, nullable=False),  # SPOT
)

payment_methods = Table(
    "payment_methods",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("type", String, nullable=False),  # ach_bank_account | worldpay_card | paypal_account | fiat_account
    Column("name", String, nullable=False),
    Column("currency", String, nullable=False),
    Column("primary_buy", Boolean, nullable=False),
    Column("primary_sell", Boolean, nullable=False),
    Column("allow_buy", Boolean, nullable=False),
    Column("allow_sell", Boolean, nullable=False),
    Column("instant_buy", Boolean, nullable=False),
    Column("instant_sell", Boolean, nullable=False),
    Column("verified", Boolean, nullable=False),
    Column("fiat_account_id", String, ForeignKey("accounts.uuid")),  # the USD wallet, for fiat_account
    Column("buy_limit_daily", String),  # USD per rolling 24 hours; null: no limit
    Column("buy_limit_weekly", String),  # USD per rolling 7 days
    Column("created_at", String, nullable=False),
)

transactions = Table(
    "transactions",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("account_id", String, ForeignKey("accounts.uuid"), nullable=False),
    # send | receive | buy | sell | trade | advanced_trade_fill | fiat_deposit | fiat_withdrawal | staking_reward
    # | interest
    Column("type", String, nullable=False),
    Column("status", String, nullable=False),  # pending | completed | canceled | failed
    Column("amount", String, nullable=False),  # signed, wallet currency; for sends it includes the network fee
    Column("currency", String, nullable=False),
    Column("native_amount", String, nullable=False),  # signed USD value at the time
    Column("description", String),
    Column("awaiting_2fa", Boolean, nullable=False, default=False),
    # sends and receives: {"name", "status", "hash", "transaction_fee", "transaction_amount"}
    Column("network", JSON),
    Column("to_address", String),
    Column("from_address", String),
    Column("idem", String),
    Column("resource_id", String),  # the buy, sell, conversion or order it belongs to
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

trades = Table(
    "trades",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("resource", String, nullable=False),  # buy | sell
    Column("status", String, nullable=False),  # completed | canceled
    Column("account_id", String, ForeignKey("accounts.uuid"), nullable=False),
    Column("payment_method_id", String, ForeignKey("payment_methods.id"), nullable=False),
    Column("amount", String, nullable=False),  # crypto bought or sold
    Column("currency", String, nullable=False),
    Column("unit_price", String, nullable=False),  # USD per unit, spread included
    Column("subtotal", String, nullable=False),  # USD before the fee
    Column("fee", String, nullable=False),
    Column("total", String, nullable=False),  # buys: paid (subtotal + fee); sells: received (subtotal - fee)
    Column("transaction_id", String, ForeignKey("transactions.id")),
    Column("payout_at", String, info={"volatile": True}),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

conversions = Table(
    "conversions",
    metadata,
    Column("id", String, primary_key=True),  # trade_id, UUID
    Column("status", String, nullable=False),  # TRADE_STATUS_CREATED | TRADE_STATUS_COMPLETED
    Column("source_account_id", String, ForeignKey("accounts.uuid"), nullable=False),
    Column("target_account_id", String, ForeignKey("accounts.uuid"), nullable=False),
    Column("source_currency", String, nullable=False),
    Column("target_currency", String, nullable=False),
    Column("user_entered_amount", String, nullable=False),  # source currency, debited in full
    Column("fee", String, nullable=False),  # source currency
    Column("subtotal", String, nullable=False),  # source currency converted after the fee
    Column("exchange_rate", String, nullable=False),  # target units per source unit
    Column("target_amount", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("expires_at", String, nullable=False, info={"volatile": True}),
)

orders = Table(
    "orders",
    metadata,
    Column("order_id", String, primary_key=True),  # UUID
    Column("client_order_id", String, nullable=False),
    Column("product_id", String, ForeignKey("products.product_id"), nullable=False),
    Column("side", String, nullable=False),  # BUY | SELL
    Column("order_type", String, nullable=False),  # MARKET | LIMIT
    # IMMEDIATE_OR_CANCEL | GOOD_UNTIL_CANCELLED | GOOD_UNTIL_DATE_TIME
    Column("time_in_force", String, nullable=False),
    Column("base_size", String),
    Column("quote_size", String),
    Column("limit_price", String),
    Column("post_only", Boolean, nullable=False),
    Column("end_time", String),  # GTD orders expire then
    Column("status", String, nullable=False),  # OPEN | FILLED | CANCELLED | EXPIRED | FAILED
    Column("filled_size", String, nullable=False),
    Column("filled_value", String, nullable=False),
    Column("average_filled_price", String, nullable=False),
    Column("total_fees", String, nullable=False),
    Column("number_of_fills", Integer, nullable=False),
    Column("outstanding_hold_amount", String, nullable=False),  # still reserved, in the hold currency
    Column("created_time", String, nullable=False, info={"volatile": True}),
    Column("last_fill_time", String, info={"volatile": True}),
)

fills = Table(
    "fills",
    metadata,
    Column("entry_id", String, primary_key=True),
    Column("trade_id", String, nullable=False),
    Column("order_id", String, ForeignKey("orders.order_id"), nullable=False),
    Column("product_id", String, ForeignKey("products.product_id"), nullable=False),
    Column("side", String, nullable=False),
    Column("price", String, nullable=False),
    Column("size", String, nullable=False),  # base currency
    Column("commission", String, nullable=False),  # quote currency
    Column("liquidity_indicator", String, nullable=False),  # MAKER | TAKER
    Column("trade_time", String, nullable=False, info={"volatile": True}),
)

addresses = Table(
    "addresses",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("account_id", String, ForeignKey("accounts.uuid"), nullable=False),
    Column("address", String, nullable=False),
    Column("name", String),
    Column("network", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

address_book = Table(
    "address_book",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("currency", String, ForeignKey("currencies.code"), nullable=False),
    Column("network", String, nullable=False),
    Column("address", String, nullable=False),
    Column("label", String, nullable=False),
    Column("added_at", String, nullable=False, info={"volatile": True}),
)
