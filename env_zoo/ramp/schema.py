"""Ramp's spend-management objects as tables: the business's departments and users (role, manager, status), spend
programs, cards with their spending restrictions, card transactions with memos and receipts, out-of-pocket
reimbursements, employees' spend requests against a program, and accounts-payable vendors and bills. Money is stored
in integer cents (USD); ids are UUIDs as Ramp gives them."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

departments = Table(
    "departments",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
)

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("password", String, nullable=False),
    Column("role", String, nullable=False),  # BUSINESS_OWNER | BUSINESS_ADMIN | BUSINESS_BOOKKEEPER | BUSINESS_USER
    Column("department_id", String, ForeignKey("departments.id")),
    Column("manager_id", String, ForeignKey("users.id")),
    Column("is_manager", Boolean, nullable=False),
    Column("status", String, nullable=False),  # USER_ACTIVE | USER_SUSPENDED | USER_INACTIVE
    Index("ix_users_department", "department_id"),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

spend_programs = Table(
    "spend_programs",
    metadata,
    Column("id", String, primary_key=True),
    Column("display_name", String, nullable=False),
    Column("description", String, nullable=False),
    Column("amount", Integer, nullable=False),  # cents per interval
    Column("interval", String, nullable=False),  # DAILY | WEEKLY | MONTHLY | QUARTERLY | YEARLY | TOTAL
    Column("transaction_amount_limit", Integer),
    Column("allowed_categories", JSON, nullable=False),  # category names; empty: any
    Column("is_physical", Boolean, nullable=False),
    Column("requires_approval", Boolean, nullable=False),  # employees' requests wait for an admin
)

cards = Table(
    "cards",
    metadata,
    Column("id", String, primary_key=True),
    Column("cardholder_id", String, ForeignKey("users.id"), nullable=False),
    Column("display_name", String, nullable=False),
    Column("last_four", String, nullable=False),
    Column("is_physical", Boolean, nullable=False),
    Column("state", String, nullable=False),  # ACTIVE | SUSPENDED | TERMINATED | UNACTIVATED
    Column("amount", Integer, nullable=False),  # spend limit in cents per interval
    Column("interval", String, nullable=False),
    Column("transaction_amount_limit", Integer),
    Column("allowed_categories", JSON, nullable=False),
    Column("blocked_categories", JSON, nullable=False),
    Column("spend_program_id", String, ForeignKey("spend_programs.id")),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_cards_holder", "cardholder_id"),
)

transactions = Table(
    "transactions",
    metadata,
    Column("id", String, primary_key=True),
    Column("card_id", String, ForeignKey("cards.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("merchant_name", String, nullable=False),
    Column("sk_category_name", String, nullable=False),
    Column("amount", Integer, nullable=False),
    Column("currency_code", String, nullable=False),
    Column("user_transaction_time", String, nullable=False),
    Column("state", String, nullable=False),  # CLEARED | PENDING | DECLINED
    Column("memo", String),
    Index("ix_transactions_card", "card_id"),
    Index("ix_transactions_user", "user_id", "user_transaction_time"),
)

receipts = Table(
    "receipts",
    metadata,
    Column("id", String, primary_key=True),
    Column("transaction_id", String, ForeignKey("transactions.id")),
    Column("reimbursement_id", String, ForeignKey("reimbursements.id")),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("filename", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_receipts_transaction", "transaction_id"),
)

reimbursements = Table(
    "reimbursements",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("merchant", String, nullable=False),
    Column("sk_category_name", String, nullable=False),
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("transaction_date", String, nullable=False),
    Column("memo", String),
    Column("state", String, nullable=False),  # PENDING | APPROVED | REJECTED | REIMBURSED
    Column("reviewer_id", String, ForeignKey("users.id")),
    Column("rejection_reason", String),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_reimbursements_user", "user_id"),
)

spend_requests = Table(
    "spend_requests",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("spend_program_id", String, ForeignKey("spend_programs.id"), nullable=False),
    Column("display_name", String, nullable=False),  # the name the card gets once approved
    Column("amount", Integer, nullable=False),
    Column("reason", String, nullable=False),
    Column("status", String, nullable=False),  # PENDING | APPROVED | REJECTED
    Column("reviewer_id", String, ForeignKey("users.id")),
    Column("card_id", String, ForeignKey("cards.id")),  # the card an approval issued
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

vendors = Table(
    "vendors",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("is_active", Boolean, nullable=False),
)

bills = Table(
    "bills",
    metadata,
    Column("id", String, primary_key=True),
    Column("vendor_id", String, ForeignKey("vendors.id"), nullable=False),
    Column("invoice_number", String, nullable=False),
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("issued_at", String, nullable=False),
    Column("due_at", String, nullable=False),
    Column("memo", String),
    Column("approval_status", String, nullable=False),  # PENDING | APPROVED | REJECTED
    Column("status", String, nullable=False),  # OPEN | PAID
    Column("payment_method", String),  # ACH | CHECK | CARD | WIRE, once paid
    Column("paid_at", String),
    Column("owner_id", String, ForeignKey("users.id"), nullable=False),
    Index("ix_bills_vendor", "vendor_id", "invoice_number"),
)
