"""Expensify's objects as tables: accounts and the signed-in session, workspaces (policies) with their members,
categories and per diem rates, expenses (transactions) with receipts, expense reports and their history.
Amounts are integers in cents, as in the Integration Server API."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("email", String, primary_key=True),
    Column("account_id", Integer, nullable=False, unique=True),  # Expensify's numeric accountID
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("default_policy_id", String),  # the workspace new expenses go to (no FK: policies point back here)
)

session = Table(
    "session",
    metadata,
    Column("key", String, primary_key=True),  # "current": who signed in on the device the assistant works on
    Column("email", String, ForeignKey("accounts.email"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

policies = Table(
    "policies",
    metadata,
    Column("policy_id", String, primary_key=True),  # 16 hex characters, e.g. E40D9B8DF456E233
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # corporate (Control) | team (Collect)
    Column("owner_email", String, ForeignKey("accounts.email"), nullable=False),
    Column("output_currency", String, nullable=False),
    Column("approval_mode", String, nullable=False),  # OPTIONAL (submit & close) | BASIC | ADVANCED
    Column("max_expense_amount", Integer),  # cents in output currency; overLimit above it
    Column("max_expense_amount_no_receipt", Integer),  # receiptRequired above it
    Column("max_expense_age", Integer),  # days; maxAge beyond it
    Column("requires_category", Boolean, nullable=False),
    Column("default_billable", Boolean, nullable=False),
    Column("tag_list_name", String),  # e.g. "Project"
    Column("tags", JSON, nullable=False),  # [{"name", "enabled"}]
    Column("distance_rate", Integer),  # cents per unit; None: distance expenses off
    Column("distance_unit", String),  # mi | km
    Column("per_diem_enabled", Boolean, nullable=False),
)

policy_members = Table(
    "policy_members",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("policy_id", String, ForeignKey("policies.policy_id"), nullable=False),
    Column("email", String, ForeignKey("accounts.email"), nullable=False),
    Column("role", String, nullable=False),  # admin | auditor | user
    Column("employee_id", String),
    Column("submits_to", String, ForeignKey("accounts.email")),
    Column("approves_to", String, ForeignKey("accounts.email")),  # forwardsTo after this member approves
    Column("approval_limit", Integer),  # cents; above it reports go to over_limit_approver
    Column("over_limit_approver", String, ForeignKey("accounts.email")),
    Column("joined", String, info={"volatile": True}),
)

categories = Table(
    "categories",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("policy_id", String, ForeignKey("policies.policy_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("enabled", Boolean, nullable=False),
    Column("gl_code", String),
    Column("max_expense_amount", Integer),  # cents; overCategoryLimit above it
    Column("comment_required", Boolean, nullable=False),
)

per_diem_rates = Table(
    "per_diem_rates",
    metadata,
    Column("rate_id", String, primary_key=True),
    Column("policy_id", String, ForeignKey("policies.policy_id"), nullable=False),
    Column("destination", String, nullable=False),
    Column("subrate", String, nullable=False),  # Full day | Partial day
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
)

receipts = Table(
    "receipts",
    metadata,
    Column("receipt_id", String, primary_key=True),
    Column("filename", String, nullable=False),
    Column("url", String, nullable=False),
    Column("smartscan_merchant", String),
    Column("smartscan_amount", Integer),
    Column("smartscan_currency", String),
    Column("smartscan_created", String),
    Column("uploaded", String, info={"volatile": True}),
)

reports = Table(
    "reports",
    metadata,
    Column("report_id", String, primary_key=True),  # numeric string
    Column("policy_id", String, ForeignKey("policies.policy_id"), nullable=False),
    Column("owner_email", String, ForeignKey("accounts.email"), nullable=False),
    Column("manager_email", String, ForeignKey("accounts.email")),  # the approver it waits on
    Column("title", String, nullable=False),
    Column("status", String, nullable=False),  # OPEN | PROCESSING | APPROVED | REIMBURSED | CLOSED
    Column("currency", String, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("submitted", String, info={"volatile": True}),
    Column("approved", String, info={"volatile": True}),
    Column("reimbursed", String, info={"volatile": True}),
)

transactions = Table(
    "transactions",
    metadata,
    Column("transaction_id", String, primary_key=True),  # numeric string
    Column("account_email", String, ForeignKey("accounts.email"), nullable=False),
    Column("policy_id", String, ForeignKey("policies.policy_id"), nullable=False),
    Column("report_id", String, ForeignKey("reports.report_id")),  # None: unreported
    Column("type", String, nullable=False),  # cash | card | distance | per_diem
    Column("merchant", String, nullable=False),
    Column("amount", Integer, nullable=False),  # cents in `currency`
    Column("currency", String, nullable=False),
    Column("converted_amount", Integer, nullable=False),  # cents in the policy's output currency
    Column("created", String, nullable=False),  # the expense date, YYYY-MM-DD
    Column("category", String),
    Column("tag", String),
    Column("comment", Text, nullable=False, default=""),
    Column("billable", Boolean, nullable=False),
    Column("reimbursable", Boolean, nullable=False),
    Column("receipt_id", String, ForeignKey("receipts.receipt_id")),
    Column("card_last4", String),
    Column("distance", Float),
    Column("distance_unit", String),
    Column("distance_rate", Integer),
    # {"destination", "start_date", "end_date", "subrates": [{"subrate", "quantity", "rate"}]}
    Column("per_diem", JSON),
    Column("inserted", String, info={"volatile": True}),
)

report_actions = Table(
    "report_actions",
    metadata,
    Column("action_id", String, primary_key=True),
    Column("report_id", String, ForeignKey("reports.report_id"), nullable=False),
    Column("actor_email", String, ForeignKey("accounts.email"), nullable=False),
    # CREATED | SUBMITTED | FORWARDED | APPROVED | REJECTED | REIMBURSED | CLOSED
    Column("action", String, nullable=False),
    Column("message", Text, nullable=False, default=""),
    Column("created", String, nullable=False, info={"volatile": True}),
)
