"""Monzo's objects as tables: accounts, pots, merchants, transactions, cards, payees, payments and feed items.
Amounts are integers in pennies; debits are negative, as in the API."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),  # acc_...
    Column("description", String, nullable=False),
    Column("type", String, nullable=False),  # uk_retail | uk_retail_joint | uk_prepaid
    Column("owners", JSON, nullable=False),  # [{"user_id", "preferred_name"}]
    Column("currency", String, nullable=False),
    Column("sort_code", String),
    Column("account_number", String),
    Column("balance", Integer, nullable=False),
    Column("overdraft_limit", Integer, nullable=False, default=0),  # arranged overdraft, pennies
    Column("daily_transfer_limit", Integer, nullable=False),  # outgoing Faster Payments per calendar day
    Column("closed", Boolean, nullable=False, default=False),
    Column("created", String, nullable=False),
)

pots = Table(
    "pots",
    metadata,
    Column("id", String, primary_key=True),  # pot_...
    Column("current_account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("style", String, nullable=False),
    Column("type", String, nullable=False),  # default | flexible_savings
    Column("balance", Integer, nullable=False, default=0),
    Column("currency", String, nullable=False),
    Column("goal_amount", Integer),
    Column("round_up", Boolean, nullable=False, default=False),
    Column("locked", Boolean, nullable=False, default=False),
    Column("locked_until", String),  # YYYY-MM-DD
    Column("deleted", Boolean, nullable=False, default=False),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("updated", String, nullable=False, info={"volatile": True}),
)

merchants = Table(
    "merchants",
    metadata,
    Column("id", String, primary_key=True),  # merch_...
    Column("group_id", String, nullable=False),
    Column("name", String, nullable=False),
    Column("category", String, nullable=False),
    Column("logo", String),
    Column("online", Boolean, nullable=False, default=False),
    Column("address", JSON),  # {"address", "city", "postcode", "country"}
)

cards = Table(
    "cards",
    metadata,
    Column("id", String, primary_key=True),  # card_...
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("type", String, nullable=False),  # physical | virtual
    Column("name_on_card", String, nullable=False),
    Column("last_digits", String, nullable=False),
    Column("expires", String, nullable=False),  # MM/YYYY
    Column("status", String, nullable=False),  # ACTIVE | INACTIVE (frozen) | CANCELLED
    Column("created", String, nullable=False),
)

transactions = Table(
    "transactions",
    metadata,
    Column("id", String, primary_key=True),  # tx_...
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("amount", Integer, nullable=False),  # negative: money out
    Column("currency", String, nullable=False),
    Column("local_amount", Integer, nullable=False),
    Column("local_currency", String, nullable=False),
    Column("description", String, nullable=False),
    Column("merchant", String, ForeignKey("merchants.id")),
    Column("category", String, nullable=False),
    Column("notes", Text, nullable=False, default=""),
    Column("is_load", Boolean, nullable=False, default=False),
    # mastercard | payport_faster_payments | bacs | uk_retail_pot | p2p_payment
    Column("scheme", String, nullable=False),
    Column("decline_reason", String),  # INSUFFICIENT_FUNDS | CARD_INACTIVE | CARD_BLOCKED | INVALID_CVC | OTHER
    Column("counterparty", JSON),  # {"name", "sort_code", "account_number"} for transfers
    Column("card_id", String, ForeignKey("cards.id")),
    Column("pot_id", String, ForeignKey("pots.id")),
    Column("include_in_spending", Boolean, nullable=False, default=True),
    Column("dedupe_id", String, info={"volatile": True}),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("settled", String, info={"volatile": True}),
)

payees = Table(
    "payees",
    metadata,
    Column("id", String, primary_key=True),  # payee_...
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("sort_code", String, nullable=False),
    Column("account_number", String, nullable=False),
    Column("default_reference", String),
    Column("created", String, nullable=False, info={"volatile": True}),
)

payments = Table(
    "payments",
    metadata,
    Column("id", String, primary_key=True),  # payment_...
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("payee_id", String, nullable=False),  # kept after the payee is deleted
    Column("payee_name", String, nullable=False),
    Column("amount", Integer, nullable=False),  # positive: the amount sent
    Column("reference", String, nullable=False),
    Column("status", String, nullable=False),  # pending_approval | completed | declined
    Column("transaction_id", String, ForeignKey("transactions.id")),
    Column("dedupe_id", String, info={"volatile": True}),
    Column("created", String, nullable=False, info={"volatile": True}),
)

feed_items = Table(
    "feed_items",
    metadata,
    Column("id", String, primary_key=True),  # feed_...
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("type", String, nullable=False),  # basic
    Column("title", String, nullable=False),
    Column("body", Text),
    Column("image_url", String, nullable=False),
    Column("url", String),
    Column("background_color", String),
    Column("title_color", String),
    Column("body_color", String),
    Column("created", String, nullable=False, info={"volatile": True}),
)
