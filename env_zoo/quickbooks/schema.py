"""QuickBooks Online's accounting objects as tables: users and the companies (realms) they may open, the chart of
accounts, customers, vendors, items, invoices and credit memos with their item lines, payments and the invoices or
credit memos each applies to, bills with their expense lines, and bill payments. Money is stored in integer cents;
ids are QuickBooks' numeric strings, SyncTokens integers bumped on every write."""

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

companies = Table(
    "companies",
    metadata,
    Column("realm_id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("country", String, nullable=False),
    Column("currency", String, nullable=False),
    Column("book_close_date", String),  # transactions dated on or before it are refused
)

company_users = Table(
    "company_users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("realm_id", String, ForeignKey("companies.realm_id"), nullable=False),
)

accounts = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),
    Column("realm_id", String, ForeignKey("companies.realm_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("account_type", String, nullable=False),  # Bank | Credit Card | Income | Expense | Cost of Goods Sold ...
    Column("acct_num", String),
    Column("active", Boolean, nullable=False),
    Index("ix_accounts_realm", "realm_id", "account_type"),
)

customers = Table(
    "customers",
    metadata,
    Column("id", String, primary_key=True),
    Column("realm_id", String, ForeignKey("companies.realm_id"), nullable=False),
    Column("display_name", String, nullable=False),
    Column("company_name", String),
    Column("email", String),
    Column("phone", String),
    Column("active", Boolean, nullable=False),
    Column("sync_token", Integer, nullable=False),
    Index("ix_customers_realm", "realm_id"),
)

vendors = Table(
    "vendors",
    metadata,
    Column("id", String, primary_key=True),
    Column("realm_id", String, ForeignKey("companies.realm_id"), nullable=False),
    Column("display_name", String, nullable=False),
    Column("email", String),
    Column("term_days", Integer, nullable=False),  # the vendor's payment terms (Net 15, Net 30)
    Column("active", Boolean, nullable=False),
    Column("sync_token", Integer, nullable=False),
    Index("ix_vendors_realm", "realm_id"),
)

items = Table(
    "items",
    metadata,
    Column("id", String, primary_key=True),
    Column("realm_id", String, ForeignKey("companies.realm_id"), nullable=False),
    Column("name", String, nullable=False),
    Column("sku", String),
    Column("type", String, nullable=False),  # Service | NonInventory | Inventory
    Column("unit_price", Integer, nullable=False),
    Column("income_account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("active", Boolean, nullable=False),
    Index("ix_items_realm", "realm_id"),
)

# Invoices and credit memos share one table: both are sales forms with item lines, a customer and a balance (an
# invoice's open balance, a credit memo's remaining credit).
sales_forms = Table(
    "sales_forms",
    metadata,
    Column("id", String, primary_key=True),
    Column("realm_id", String, ForeignKey("companies.realm_id"), nullable=False),
    Column("kind", String, nullable=False),  # Invoice | CreditMemo
    Column("doc_number", String, nullable=False),
    Column("customer_id", String, ForeignKey("customers.id"), nullable=False),
    Column("txn_date", String, nullable=False),
    Column("due_date", String),
    Column("total", Integer, nullable=False),
    Column("balance", Integer, nullable=False),
    Column("bill_email", String),
    Column("email_status", String, nullable=False),  # NotSet | NeedToSend | EmailSent
    Column("customer_memo", String),
    Column("private_note", String),
    Column("voided", Boolean, nullable=False),
    Column("sync_token", Integer, nullable=False),
    Column("updated", String, nullable=False, info={"volatile": True}),
    Index("ix_forms_realm", "realm_id", "kind", "customer_id"),
)

sales_lines = Table(
    "sales_lines",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("form_id", String, ForeignKey("sales_forms.id"), nullable=False),
    Column("line_num", Integer, nullable=False),
    Column("item_id", String, ForeignKey("items.id"), nullable=False),
    Column("description", String),
    Column("qty", Integer, nullable=False),
    Column("unit_price", Integer, nullable=False),
    Column("amount", Integer, nullable=False),
    Index("ix_sales_lines_form", "form_id"),
)

payments = Table(
    "payments",
    metadata,
    Column("id", String, primary_key=True),
    Column("realm_id", String, ForeignKey("companies.realm_id"), nullable=False),
    Column("customer_id", String, ForeignKey("customers.id"), nullable=False),
    Column("txn_date", String, nullable=False),
    Column("total", Integer, nullable=False),
    Column("unapplied", Integer, nullable=False),
    Column("ref_num", String),
    Column("deposit_account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("sync_token", Integer, nullable=False),
    Index("ix_payments_realm", "realm_id", "customer_id"),
)

payment_lines = Table(
    "payment_lines",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("payment_id", String, ForeignKey("payments.id"), nullable=False),
    Column("form_id", String, ForeignKey("sales_forms.id"), nullable=False),  # the invoice or credit memo linked
    Column("amount", Integer, nullable=False),
    Index("ix_payment_lines_payment", "payment_id"),
    Index("ix_payment_lines_form", "form_id"),
)

bills = Table(
    "bills",
    metadata,
    Column("id", String, primary_key=True),
    Column("realm_id", String, ForeignKey("companies.realm_id"), nullable=False),
    Column("doc_number", String),  # the vendor's own bill number
    Column("vendor_id", String, ForeignKey("vendors.id"), nullable=False),
    Column("txn_date", String, nullable=False),
    Column("due_date", String, nullable=False),
    Column("total", Integer, nullable=False),
    Column("balance", Integer, nullable=False),
    Column("memo", String),
    Column("sync_token", Integer, nullable=False),
    Index("ix_bills_realm", "realm_id", "vendor_id"),
)

bill_lines = Table(
    "bill_lines",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("bill_id", String, ForeignKey("bills.id"), nullable=False),
    Column("line_num", Integer, nullable=False),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("description", String),
    Column("amount", Integer, nullable=False),
    Index("ix_bill_lines_bill", "bill_id"),
)

bill_payments = Table(
    "bill_payments",
    metadata,
    Column("id", String, primary_key=True),
    Column("realm_id", String, ForeignKey("companies.realm_id"), nullable=False),
    Column("vendor_id", String, ForeignKey("vendors.id"), nullable=False),
    Column("pay_type", String, nullable=False),  # Check | CreditCard
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("txn_date", String, nullable=False),
    Column("total", Integer, nullable=False),
    Column("doc_number", String),  # the check number
    Column("sync_token", Integer, nullable=False),
    Index("ix_bill_payments_realm", "realm_id", "vendor_id"),
)

bill_payment_lines = Table(
    "bill_payment_lines",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("bill_payment_id", String, ForeignKey("bill_payments.id"), nullable=False),
    Column("bill_id", String, ForeignKey("bills.id"), nullable=False),
    Column("amount", Integer, nullable=False),
    Index("ix_bill_payment_lines_bill", "bill_id"),
)
