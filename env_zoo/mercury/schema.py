"""Mercury's banking objects as tables: the company's approval policy, its team members (admin, custom, bookkeeper,
employee) and who is signed in, its accounts (checking, savings, treasury), their transactions, saved payment
recipients with routing info for ACH, domestic wire and check, send money requests waiting for admin approval, and
monthly statements. Money is stored in integer cents (USD); ids are UUIDs as Mercury gives them."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

organization = Table(
    "organization",
    metadata,
    Column("id", String, primary_key=True),
    Column("legal_business_name", String, nullable=False),
    Column("daily_payment_limit", Integer, nullable=False),  # cents a team member may send a UTC day unapproved
)

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("password", String, nullable=False),
    Column("role", String, nullable=False),  # admin | custom | bookkeeper | employee
    Column("can_move_money", Boolean, nullable=False),
    Column("status", String, nullable=False),  # active | disabled
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

accounts = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("nickname", String),
    Column("kind", String, nullable=False),  # checking | savings | treasury
    Column("status", String, nullable=False),  # active | archived
    Column("account_number", String, nullable=False),
    Column("routing_number", String, nullable=False),
    Column("current_balance", Integer, nullable=False),  # cents, posted
    Column("available_balance", Integer, nullable=False),  # cents, less pending outgoing
    Column("created_at", String, nullable=False),
)

recipients = Table(
    "recipients",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("nickname", String),
    Column("emails", JSON, nullable=False),
    Column("status", String, nullable=False),  # active | deleted
    Column("is_business", Boolean, nullable=False),
    Column("default_payment_method", String, nullable=False),  # ach | domesticWire | check
    Column("ach_account_number", String),
    Column("ach_routing_number", String),
    Column("electronic_account_type", String),  # businessChecking | businessSavings | personalChecking | ...
    Column("bank_name", String),
    Column("wire_account_number", String),
    Column("wire_routing_number", String),
    Column("address1", String),
    Column("city", String),
    Column("region", String),
    Column("postal_code", String),
    Column("date_last_paid", String, info={"volatile": True}),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_recipients_name", "name"),
)

transactions = Table(
    "transactions",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("amount", Integer, nullable=False),  # signed cents: negative leaves the account
    Column("kind", String, nullable=False),
    Column("status", String, nullable=False),  # pending | sent | cancelled | failed
    Column("payment_method", String),  # ach | domesticWire | check for payments to recipients
    Column("counterparty_id", String),
    Column("counterparty_name", String, nullable=False),
    Column("bank_description", String),
    Column("note", String),
    Column("external_memo", String),
    Column("category", String),
    Column("created_by", String, ForeignKey("users.id")),
    Column("request_id", String),
    Column("idempotency_key", String, info={"volatile": True}),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("posted_at", String, info={"volatile": True}),
    Column("estimated_delivery_date", String),
    Column("reason_for_failure", String),
    Index("ix_transactions_account", "account_id", "created_at"),
    Index("ix_transactions_counterparty", "counterparty_id"),
)

send_money_requests = Table(
    "send_money_requests",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("recipient_id", String, ForeignKey("recipients.id"), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("payment_method", String, nullable=False),
    Column("note", String),
    Column("external_memo", String),
    Column("status", String, nullable=False),  # pendingApproval | approved | rejected | cancelled
    Column("requested_by", String, ForeignKey("users.id"), nullable=False),
    Column("approvals_required", Integer, nullable=False),
    Column("approved_by", JSON, nullable=False),  # admins who approved so far
    Column("reviewer_id", String, ForeignKey("users.id")),  # who rejected
    Column("rejection_reason", String),
    Column("transaction_id", String),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_requests_status", "status"),
)

statements = Table(
    "statements",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("start_date", String, nullable=False),
    Column("end_date", String, nullable=False),
    Column("starting_balance", Integer, nullable=False),
    Column("ending_balance", Integer, nullable=False),
    Column("money_in", Integer, nullable=False),
    Column("money_out", Integer, nullable=False),
    Index("ix_statements_account", "account_id", "start_date"),
)
