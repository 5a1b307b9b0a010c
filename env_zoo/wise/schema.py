"""Wise's objects as tables: users and their API tokens, profiles (personal and business) with the team members who
may act for them, exchange rates, multi-currency balances and jars, quotes, recipient accounts, transfers, balance
movements (conversions and jar moves) and the activity feed. Amounts are integers in the currency's minor unit."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
)

tokens = Table(
    "tokens",
    metadata,
    Column("token", String, primary_key=True),  # a personal API token (a UUID)
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("revoked", Boolean, nullable=False, default=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

profiles = Table(
    "profiles",
    metadata,
    Column("id", Integer, primary_key=True),  # 8 digits, e.g. 16745200
    Column("type", String, nullable=False),  # PERSONAL | BUSINESS
    Column("full_name", String, nullable=False),  # the person's name or the business's registered name
    Column("business_category", String),
    Column("country", String, nullable=False),
    Column("city", String, nullable=False),
    Column("created", String, nullable=False),
)

# Who may act for a profile: the owner of a personal profile, and a business's team with its role.
profile_members = Table(
    "profile_members",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("profile_id", Integer, ForeignKey("profiles.id"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("role", String, nullable=False),  # OWNER | ADMIN | PAYER | PREPARER | VIEWER
    Index("ix_members_user", "user_id"),
)

# Mid-market rates the quotes use, one row per ordered currency pair ("GBP-EUR").
rates = Table(
    "rates",
    metadata,
    Column("pair", String, primary_key=True),
    Column("source", String, nullable=False),
    Column("target", String, nullable=False),
    Column("rate", Float, nullable=False),
    Column("fee_percent", Float, nullable=False),  # Wise's variable fee on the route, percent of the amount
    Column("fixed_fee", Integer, nullable=False),  # fixed fee in the source currency's minor unit
    Column("time", String, nullable=False),
)

balances = Table(
    "balances",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("profile_id", Integer, ForeignKey("profiles.id"), nullable=False),
    Column("currency", String, nullable=False),
    Column("type", String, nullable=False),  # STANDARD (one per currency) | SAVINGS (a jar)
    Column("name", String),  # jars only
    Column("amount", Integer, nullable=False),
    Column("reserved", Integer, nullable=False, default=0),
    Column("visible", Boolean, nullable=False, default=True),
    Column("closed", Boolean, nullable=False, default=False),
    Column("creation_time", String, nullable=False, info={"volatile": True}),
    Column("modification_time", String, nullable=False, info={"volatile": True}),
    Index("ix_balances_profile", "profile_id"),
)

recipients = Table(
    "recipients",
    metadata,
    Column("id", Integer, primary_key=True),  # 9 digits
    Column("profile_id", Integer, ForeignKey("profiles.id"), nullable=False),
    Column("account_holder_name", String, nullable=False),
    Column("currency", String, nullable=False),
    Column("country", String, nullable=False),
    Column("type", String, nullable=False),  # sort_code | iban | aba | australian
    Column("legal_type", String, nullable=False),  # PRIVATE | BUSINESS
    Column("details", JSON, nullable=False),  # the type's own fields, as Wise names them (sortCode, IBAN, ...)
    Column("email", String),
    Column("active", Boolean, nullable=False, default=True),
    Column("created", String, nullable=False, info={"volatile": True}),
    Index("ix_recipients_profile", "profile_id"),
)

quotes = Table(
    "quotes",
    metadata,
    Column("id", String, primary_key=True),  # a UUID
    Column("profile_id", Integer, ForeignKey("profiles.id"), nullable=False),
    Column("source_currency", String, nullable=False),
    Column("target_currency", String, nullable=False),
    Column("source_amount", Integer, nullable=False),
    Column("target_amount", Integer, nullable=False),
    Column("rate", Float, nullable=False),
    Column("fee", Integer, nullable=False),  # in the source currency, included in source_amount
    Column("rate_type", String, nullable=False),  # FIXED
    Column("provided_amount_type", String, nullable=False),  # SOURCE | TARGET
    Column("target_account", Integer, ForeignKey("recipients.id")),
    Column("status", String, nullable=False),  # PENDING | ACCEPTED | FUNDED (EXPIRED is read from the clock)
    Column("created_time", String, nullable=False, info={"volatile": True}),
    Column("expiration_time", String, nullable=False, info={"volatile": True}),
    Index("ix_quotes_profile", "profile_id"),
)

transfers = Table(
    "transfers",
    metadata,
    Column("id", Integer, primary_key=True),  # 8 digits
    Column("profile_id", Integer, ForeignKey("profiles.id"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),  # who created it
    Column("target_account", Integer, ForeignKey("recipients.id"), nullable=False),
    Column("quote_uuid", String, ForeignKey("quotes.id"), nullable=False),
    Column("status", String, nullable=False),
    Column("reference", String, nullable=False),
    Column("rate", Float, nullable=False),
    Column("source_currency", String, nullable=False),
    Column("source_value", Integer, nullable=False),
    Column("target_currency", String, nullable=False),
    Column("target_value", Integer, nullable=False),
    Column("fee", Integer, nullable=False),
    Column("customer_transaction_id", String, nullable=False, info={"volatile": True}),
    Column("funded_from", Integer, ForeignKey("balances.id")),  # the balance that paid it
    Column("created", String, nullable=False, info={"volatile": True}),
    Index("ix_transfers_profile", "profile_id"),
)

# Money moved between a profile's own balances: a conversion (with a quote) or a move to or from a jar.
balance_movements = Table(
    "balance_movements",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("profile_id", Integer, ForeignKey("profiles.id"), nullable=False),
    Column("type", String, nullable=False),  # CONVERSION | DEPOSIT (into a jar) | WITHDRAWAL (out of a jar)
    Column("source_balance_id", Integer, ForeignKey("balances.id"), nullable=False),
    Column("target_balance_id", Integer, ForeignKey("balances.id"), nullable=False),
    Column("source_amount", Integer, nullable=False),
    Column("source_currency", String, nullable=False),
    Column("target_amount", Integer, nullable=False),
    Column("target_currency", String, nullable=False),
    Column("fee", Integer, nullable=False),
    Column("rate", Float, nullable=False),
    Column("quote_id", String, ForeignKey("quotes.id")),
    Column("created", String, nullable=False, info={"volatile": True}),
)

activities = Table(
    "activities",
    metadata,
    Column("id", String, primary_key=True),  # an opaque string id
    Column("profile_id", Integer, ForeignKey("profiles.id"), nullable=False),
    Column("type", String, nullable=False),  # TRANSFER | CARD_PAYMENT | CONVERSION | BALANCE_DEPOSIT | ...
    Column("resource_type", String, nullable=False),
    Column("resource_id", String, nullable=False),
    Column("title", String, nullable=False),
    Column("description", String, nullable=False),
    Column("primary_amount", Integer, nullable=False),  # signed: negative is money out
    Column("primary_currency", String, nullable=False),
    Column("secondary_amount", Integer),
    Column("secondary_currency", String),
    Column("status", String, nullable=False),  # COMPLETED | PENDING | CANCELLED | REFUNDED
    Column("created_on", String, nullable=False, info={"volatile": True}),
    Index("ix_activities_profile", "profile_id", "created_on"),
)
