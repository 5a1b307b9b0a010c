"""Kraken's spot account objects as tables. Amounts and prices are integers in units of 1e-8 of their asset (an
asset pair's prices are in its quote asset); times are ISO timestamps in UTC."""

from sqlalchemy import Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),  # Kraken client id, e.g. "AA41 N84G 7XQ2 LZKM"
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("api_key", String, nullable=False),
    Column("maker_bps", Integer, nullable=False),  # fee tier, hundredths of a percent
    Column("taker_bps", Integer, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

assets = Table(
    "assets",
    metadata,
    Column("asset", String, primary_key=True),  # e.g. "XXBT", "ZUSD", "SOL"
    Column("altname", String, nullable=False),  # e.g. "XBT", "USD"
    Column("aclass", String, nullable=False),  # currency
    Column("display_decimals", Integer, nullable=False),
    Column("status", String, nullable=False),  # enabled | deposit_only | withdrawal_only | funding_temporarily_disabled
)

asset_pairs = Table(
    "asset_pairs",
    metadata,
    Column("pair", String, primary_key=True),  # e.g. "XXBTZUSD"
    Column("altname", String, nullable=False),  # e.g. "XBTUSD"
    Column("wsname", String, nullable=False),  # e.g. "XBT/USD"
    Column("base", String, ForeignKey("assets.asset"), nullable=False),
    Column("quote", String, ForeignKey("assets.asset"), nullable=False),
    Column("pair_decimals", Integer, nullable=False),  # price precision
    Column("lot_decimals", Integer, nullable=False),  # volume precision
    Column("ordermin", Integer, nullable=False),  # minimum volume, base units * 1e8
    Column("costmin", Integer, nullable=False),  # minimum cost, quote units * 1e8
    Column("last", Integer, nullable=False),  # last trade price, quote units * 1e8
    Column("status", String, nullable=False),  # online | cancel_only | post_only | limit_only | reduce_only
)

balances = Table(
    "balances",
    metadata,
    Column("id", String, primary_key=True),  # account_id + ":" + asset
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("asset", String, ForeignKey("assets.asset"), nullable=False),
    Column("amount", Integer, nullable=False),
    Index("ix_balances_account", "account_id"),
)

orders = Table(
    "orders",
    metadata,
    Column("txid", String, primary_key=True),  # e.g. "OQCLML-BW3P3-BUCMWZ"
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("pair", String, ForeignKey("asset_pairs.pair"), nullable=False),
    Column("type", String, nullable=False),  # buy | sell
    Column("ordertype", String, nullable=False),  # market | limit | stop-loss
    Column("price", Integer, nullable=True),  # limit price or stop trigger
    Column("volume", Integer, nullable=False),
    Column("vol_exec", Integer, nullable=False),
    Column("cost", Integer, nullable=False),  # quote spent or received
    Column("fee", Integer, nullable=False),  # in quote
    Column("avg_price", Integer, nullable=True),
    Column("status", String, nullable=False),  # pending | open | closed | canceled | expired
    Column("userref", Integer, nullable=True),
    Column("opentm", String, nullable=False, info={"volatile": True}),
    Column("closetm", String, nullable=True, info={"volatile": True}),
    Column("reason", String, nullable=True),
    Index("ix_orders_account_status", "account_id", "status"),
)

ledger = Table(
    "ledger",
    metadata,
    Column("id", String, primary_key=True),  # e.g. "L4UESK-KG3EQ-UFO4T5"
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("refid", String, nullable=False),  # the trade, deposit or withdrawal it books
    Column("time", String, nullable=False, info={"volatile": True}),
    Column("type", String, nullable=False),  # trade | deposit | withdrawal | staking | adjustment
    Column("asset", String, ForeignKey("assets.asset"), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("fee", Integer, nullable=False),
    Column("balance", Integer, nullable=False),
    Index("ix_ledger_account_time", "account_id", "time"),
)

deposit_methods = Table(
    "deposit_methods",
    metadata,
    Column("id", String, primary_key=True),  # asset + ":" + method
    Column("asset", String, ForeignKey("assets.asset"), nullable=False),
    Column("method", String, nullable=False),  # e.g. "Bitcoin", "Bank Frick (SWIFT)"
    Column("minimum", Integer, nullable=False),
    Column("fee", Integer, nullable=False),
    Column("gen_address", Boolean, nullable=False),
)

deposit_addresses = Table(
    "deposit_addresses",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("asset", String, ForeignKey("assets.asset"), nullable=False),
    Column("method", String, nullable=False),
    Column("address", String, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
    Index("ix_deposit_addresses_account", "account_id", "asset"),
)

deposits = Table(
    "deposits",
    metadata,
    Column("refid", String, primary_key=True),  # e.g. "FTQcuak-V6Za8q-wnhzTx"
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("asset", String, ForeignKey("assets.asset"), nullable=False),
    Column("method", String, nullable=False),
    Column("txid", String, nullable=False),  # on-chain hash or bank reference
    Column("amount", Integer, nullable=False),
    Column("fee", Integer, nullable=False),
    Column("time", String, nullable=False, info={"volatile": True}),
    Column("status", String, nullable=False),  # Initial | Pending | Settled | Success | Failure
    Index("ix_deposits_account", "account_id", "asset"),
)

withdraw_methods = Table(
    "withdraw_methods",
    metadata,
    Column("id", String, primary_key=True),  # asset + ":" + method
    Column("asset", String, ForeignKey("assets.asset"), nullable=False),
    Column("method", String, nullable=False),
    Column("network", String, nullable=False),
    Column("minimum", Integer, nullable=False),
    Column("fee", Integer, nullable=False),
    Column("daily_limit", Integer, nullable=False),  # per rolling 24 hours
)

withdraw_addresses = Table(
    "withdraw_addresses",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("key", String, nullable=False),  # the address book name, e.g. "ledger-cold"
    Column("asset", String, ForeignKey("assets.asset"), nullable=False),
    Column("method", String, nullable=False),
    Column("address", String, nullable=False),
    Column("verified", Boolean, nullable=False),  # confirmed from the e-mail link
    Index("ix_withdraw_addresses_account", "account_id", "asset"),
)

withdrawals = Table(
    "withdrawals",
    metadata,
    Column("refid", String, primary_key=True),  # e.g. "AGBSO6T-UFMTTQ-I7KGS6"
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("asset", String, ForeignKey("assets.asset"), nullable=False),
    Column("key", String, nullable=False),
    Column("method", String, nullable=False),
    Column("address", String, nullable=False),
    Column("amount", Integer, nullable=False),  # sent, after the fee
    Column("fee", Integer, nullable=False),
    Column("time", String, nullable=False, info={"volatile": True}),
    Column("status", String, nullable=False),  # Initial | Pending | Settled | Success | Failure
    Column("status_prop", String, nullable=True),  # cancel-pending | canceled | onhold
    Index("ix_withdrawals_account", "account_id", "asset"),
)
