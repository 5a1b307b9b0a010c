"""Plaid's objects as tables: the developer's API clients (with their Transfer ledger), institutions, the app's own
end-user records, Items with their access tokens and error state, accounts with balances and Auth numbers,
transactions with their sync sequence, Link tokens, transfer authorizations, transfers and their events. Money is
stored in cents (integers); Plaid's JSON shows it as decimal numbers or strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

# A Plaid team's API keys; the Transfer ledger belongs to the client.
clients = Table(
    "clients",
    metadata,
    Column("client_id", String, primary_key=True),  # 24 hex characters
    Column("secret", String, nullable=False),
    Column("company_name", String, nullable=False),
    Column("ledger_available", Integer, nullable=False),  # cents
    Column("ledger_pending", Integer, nullable=False),  # cents
    Column("debit_limit", Integer, nullable=False),  # per-transfer limit, cents
    Column("credit_limit", Integer, nullable=False),  # per-transfer limit, cents
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("client_id", String, ForeignKey("clients.client_id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

institutions = Table(
    "institutions",
    metadata,
    Column("institution_id", String, primary_key=True),  # ins_109508
    Column("name", String, nullable=False),
    Column("products", JSON, nullable=False),
    Column("country_codes", JSON, nullable=False),
    Column("routing_numbers", JSON, nullable=False),
    Column("oauth", Boolean, nullable=False),
    Column("status", String, nullable=False),  # HEALTHY | DEGRADED | DOWN
)

# The app's own records of its users (what the developer's backend stores beside Plaid's access tokens).
end_users = Table(
    "end_users",
    metadata,
    Column("client_user_id", String, primary_key=True),  # the app's user id, e.g. usr_1042
    Column("client_id", String, ForeignKey("clients.client_id"), nullable=False),
    Column("legal_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("signed_up", String, nullable=False),
)

items = Table(
    "items",
    metadata,
    Column("item_id", String, primary_key=True),
    Column("client_id", String, ForeignKey("clients.client_id"), nullable=False),
    Column("client_user_id", String, ForeignKey("end_users.client_user_id"), nullable=False),
    Column("access_token", String, nullable=False, unique=True),
    Column("institution_id", String, ForeignKey("institutions.institution_id"), nullable=False),
    Column("products", JSON, nullable=False),  # billed products: auth, transactions, transfer, ...
    Column("error_code", String),  # ITEM_LOGIN_REQUIRED | PENDING_EXPIRATION | ... ; null when healthy
    Column("removed", Boolean, nullable=False, default=False),
    Column("saved_cursor", String),  # the transactions/sync cursor the app's backend stored last
    Column("update_seq", Integer, nullable=False),  # latest transactions change number
    Column("created", String, nullable=False),
    Column("consent_expiration_time", String),
    Index("ix_items_user", "client_user_id"),
)

accounts = Table(
    "accounts",
    metadata,
    Column("account_id", String, primary_key=True),
    Column("item_id", String, ForeignKey("items.item_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("official_name", String),
    Column("mask", String, nullable=False),
    Column("type", String, nullable=False),  # depository | credit | loan | investment
    Column("subtype", String, nullable=False),  # checking | savings | credit card | student | 401k | ...
    Column("current", Integer, nullable=False),  # cents
    Column("available", Integer),  # cents
    Column("credit_limit", Integer),  # cents
    Column("iso_currency_code", String, nullable=False),
    Column("account_number", String),  # Auth: depository accounts only
    Column("routing_number", String),
    Column("wire_routing", String),
    Column("risk", String, nullable=False),  # low | high (what Transfer's risk check sees)
    Index("ix_accounts_item", "item_id"),
)

transactions = Table(
    "transactions",
    metadata,
    Column("transaction_id", String, primary_key=True),
    Column("item_id", String, ForeignKey("items.item_id"), nullable=False),
    Column("account_id", String, ForeignKey("accounts.account_id"), nullable=False),
    Column("amount", Integer, nullable=False),  # cents; positive is money out of the account
    Column("iso_currency_code", String, nullable=False),
    Column("date", String, nullable=False),
    Column("authorized_date", String),
    Column("name", String, nullable=False),
    Column("merchant_name", String),
    Column("payment_channel", String, nullable=False),  # online | in store | other
    Column("pending", Boolean, nullable=False),
    Column("pending_transaction_id", String),
    Column("pfc_primary", String, nullable=False),
    Column("pfc_detailed", String, nullable=False),
    Column("added_seq", Integer, nullable=False),
    Column("modified_seq", Integer),
    Column("removed_seq", Integer),
    Index("ix_transactions_item", "item_id"),
)

link_tokens = Table(
    "link_tokens",
    metadata,
    Column("link_token", String, primary_key=True),
    Column("client_id", String, ForeignKey("clients.client_id"), nullable=False),
    Column("client_user_id", String, ForeignKey("end_users.client_user_id"), nullable=False),
    Column("item_id", String, ForeignKey("items.item_id"), nullable=False),  # update mode
    Column("expiration", String, nullable=False, info={"volatile": True}),
    Column("used", Boolean, nullable=False, default=False),
)

transfer_authorizations = Table(
    "transfer_authorizations",
    metadata,
    Column("id", String, primary_key=True),  # a UUID
    Column("client_id", String, ForeignKey("clients.client_id"), nullable=False),
    Column("item_id", String, ForeignKey("items.item_id"), nullable=False),
    Column("account_id", String, ForeignKey("accounts.account_id"), nullable=False),
    Column("type", String, nullable=False),  # debit | credit
    Column("network", String, nullable=False),  # ach | same-day-ach | rtp
    Column("ach_class", String),
    Column("amount", Integer, nullable=False),  # cents
    Column("legal_name", String, nullable=False),
    Column("decision", String, nullable=False),  # approved | declined | user_action_required
    Column("rationale_code", String),
    Column("rationale_description", String),
    Column("transfer_id", String),  # the transfer that used it
    Column("created", String, nullable=False, info={"volatile": True}),
)

transfers = Table(
    "transfers",
    metadata,
    Column("id", String, primary_key=True),  # a UUID
    Column("client_id", String, ForeignKey("clients.client_id"), nullable=False),
    Column("authorization_id", String, ForeignKey("transfer_authorizations.id"), nullable=False),
    Column("item_id", String, ForeignKey("items.item_id"), nullable=False),
    Column("account_id", String, ForeignKey("accounts.account_id"), nullable=False),
    Column("type", String, nullable=False),
    Column("network", String, nullable=False),
    Column("ach_class", String),
    Column("amount", Integer, nullable=False),  # cents
    Column("description", String, nullable=False),
    Column("legal_name", String, nullable=False),
    Column("status", String, nullable=False),  # pending | posted | settled | cancelled | failed | returned
    Column("failure_reason", String),  # an ACH return code with its description
    Column("created", String, nullable=False, info={"volatile": True}),
    Index("ix_transfers_client", "client_id"),
)

transfer_events = Table(
    "transfer_events",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("transfer_id", String, ForeignKey("transfers.id"), nullable=False),
    Column("account_id", String, ForeignKey("accounts.account_id"), nullable=False),
    Column("transfer_type", String, nullable=False),
    Column("transfer_amount", Integer, nullable=False),  # cents
    Column("event_type", String, nullable=False),
    Column("failure_reason", String),
    Column("timestamp", String, nullable=False, info={"volatile": True}),
    Index("ix_events_transfer", "transfer_id"),
    Index("ix_events_account", "account_id"),
)
