"""Xero's accounting objects as tables: users and the organisations (tenants) they are connected to, the chart of
accounts, contacts and contact groups, tracking categories, invoices and credit notes with their line items,
payments, credit-note allocations, bank transactions and bank statement lines. Money is stored in integer cents;
ids are GUIDs as Xero gives them."""

from sqlalchemy import Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("password", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

organisations = Table(
    "organisations",
    metadata,
    Column("id", String, primary_key=True),  # the tenant id
    Column("name", String, nullable=False),
    Column("base_currency", String, nullable=False),
    Column("country", String, nullable=False),
    Column("period_lock_date", String),  # changes dated on or before it are refused
)

connections = Table(
    "connections",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("tenant_id", String, ForeignKey("organisations.id"), nullable=False),
)

accounts = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),
    Column("tenant_id", String, ForeignKey("organisations.id"), nullable=False),
    Column("code", String, nullable=False),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # BANK | REVENUE | SALES | EXPENSE | OVERHEADS | DIRECTCOSTS | CURRENT ...
    Column("tax_type", String, nullable=False),
    Column("status", String, nullable=False),  # ACTIVE | ARCHIVED
    Column("bank_account_number", String),
    Index("ix_accounts_tenant", "tenant_id", "code"),
)

contacts = Table(
    "contacts",
    metadata,
    Column("id", String, primary_key=True),
    Column("tenant_id", String, ForeignKey("organisations.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("email", String),
    Column("is_customer", Boolean, nullable=False),
    Column("is_supplier", Boolean, nullable=False),
    Column("status", String, nullable=False),  # ACTIVE | ARCHIVED
    Index("ix_contacts_tenant", "tenant_id"),
)

contact_groups = Table(
    "contact_groups",
    metadata,
    Column("id", String, primary_key=True),
    Column("tenant_id", String, ForeignKey("organisations.id"), nullable=False),
    Column("name", String, nullable=False),
)

contact_group_members = Table(
    "contact_group_members",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("group_id", String, ForeignKey("contact_groups.id"), nullable=False),
    Column("contact_id", String, ForeignKey("contacts.id"), nullable=False),
)

tracking_categories = Table(
    "tracking_categories",
    metadata,
    Column("id", String, primary_key=True),
    Column("tenant_id", String, ForeignKey("organisations.id"), nullable=False),
    Column("name", String, nullable=False),
)

tracking_options = Table(
    "tracking_options",
    metadata,
    Column("id", String, primary_key=True),
    Column("category_id", String, ForeignKey("tracking_categories.id"), nullable=False),
    Column("name", String, nullable=False),
)

# Invoices (ACCREC sales, ACCPAY bills) and credit notes (ACCRECCREDIT, ACCPAYCREDIT) share one table: Xero treats
# both as documents with line items, a contact, a status and totals.
documents = Table(
    "documents",
    metadata,
    Column("id", String, primary_key=True),
    Column("tenant_id", String, ForeignKey("organisations.id"), nullable=False),
    Column("type", String, nullable=False),  # ACCREC | ACCPAY | ACCRECCREDIT | ACCPAYCREDIT
    Column("number", String, nullable=False),  # INV-0042 or a supplier's bill number; CN-0007
    Column("contact_id", String, ForeignKey("contacts.id"), nullable=False),
    Column("date", String, nullable=False),
    Column("due_date", String),
    Column("reference", String),
    Column("status", String, nullable=False),  # DRAFT | SUBMITTED | AUTHORISED | PAID | VOIDED | DELETED
    Column("currency", String, nullable=False),
    Column("sub_total", Integer, nullable=False),
    Column("total_tax", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("amount_paid", Integer, nullable=False),
    Column("amount_credited", Integer, nullable=False),
    Column("updated", String, nullable=False, info={"volatile": True}),
    Index("ix_documents_tenant", "tenant_id", "type"),
)

line_items = Table(
    "line_items",
    metadata,
    Column("id", String, primary_key=True),
    Column("document_id", String, ForeignKey("documents.id"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("description", String, nullable=False),
    Column("quantity", Integer, nullable=False),
    Column("unit_amount", Integer, nullable=False),
    Column("account_code", String, nullable=False),
    Column("tax_type", String, nullable=False),
    Column("line_amount", Integer, nullable=False),
    Column("tax_amount", Integer, nullable=False),
    Column("tracking_option_id", String, ForeignKey("tracking_options.id")),
    Index("ix_lines_document", "document_id"),
)

payments = Table(
    "payments",
    metadata,
    Column("id", String, primary_key=True),
    Column("tenant_id", String, ForeignKey("organisations.id"), nullable=False),
    Column("document_id", String, ForeignKey("documents.id"), nullable=False),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),  # the bank account
    Column("date", String, nullable=False),
    Column("amount", Integer, nullable=False),
    Column("reference", String),
    Column("status", String, nullable=False),  # AUTHORISED | DELETED
    Column("is_reconciled", Boolean, nullable=False),
    Index("ix_payments_document", "document_id"),
)

allocations = Table(
    "allocations",
    metadata,
    Column("id", String, primary_key=True),
    Column("credit_note_id", String, ForeignKey("documents.id"), nullable=False),
    Column("invoice_id", String, ForeignKey("documents.id"), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("date", String, nullable=False),
)

bank_transactions = Table(
    "bank_transactions",
    metadata,
    Column("id", String, primary_key=True),
    Column("tenant_id", String, ForeignKey("organisations.id"), nullable=False),
    Column("type", String, nullable=False),  # RECEIVE | SPEND
    Column("contact_id", String, ForeignKey("contacts.id"), nullable=False),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),  # the bank account
    Column("date", String, nullable=False),
    Column("reference", String),
    Column("description", String, nullable=False),
    Column("account_code", String, nullable=False),
    Column("tax_type", String, nullable=False),
    Column("sub_total", Integer, nullable=False),
    Column("total_tax", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("status", String, nullable=False),  # AUTHORISED | DELETED
    Column("is_reconciled", Boolean, nullable=False),
    Index("ix_banktx_tenant", "tenant_id"),
)

statement_lines = Table(
    "statement_lines",
    metadata,
    Column("id", String, primary_key=True),
    Column("tenant_id", String, ForeignKey("organisations.id"), nullable=False),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("date", String, nullable=False),
    Column("amount", Integer, nullable=False),  # money in positive, money out negative
    Column("payee", String, nullable=False),
    Column("reference", String),
    Column("status", String, nullable=False),  # UNRECONCILED | RECONCILED
    Column("payment_id", String, ForeignKey("payments.id")),
    Column("bank_transaction_id", String, ForeignKey("bank_transactions.id")),
    Index("ix_lines_account", "account_id", "status"),
)
