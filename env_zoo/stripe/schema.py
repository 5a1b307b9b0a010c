"""Stripe's objects as tables: customers, payment methods, payment intents, charges, refunds, products, prices,
subscriptions, invoices and invoice lines. Amounts are integers in the currency's minor unit, as in the API."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

customers = Table(
    "customers",
    metadata,
    Column("id", String, primary_key=True),  # cus_...
    Column("name", String, nullable=False),
    Column("email", String),
    Column("phone", String),
    Column("description", Text),
    Column("currency", String),  # set by the first subscription or invoice; a customer bills in one currency
    Column("balance", Integer, nullable=False, default=0),  # negative: credit applied to the next invoice
    Column("delinquent", Boolean, nullable=False, default=False),
    Column("default_payment_method", String),  # invoice_settings.default_payment_method (pm_...)
    Column("invoice_prefix", String, nullable=False),
    Column("created", String, nullable=False),
)

payment_methods = Table(
    "payment_methods",
    metadata,
    Column("id", String, primary_key=True),  # pm_...
    Column("customer", String, ForeignKey("customers.id")),
    Column("type", String, nullable=False),  # card
    Column("brand", String, nullable=False),  # visa | mastercard | amex | discover | jcb
    Column("last4", String, nullable=False),
    Column("exp_month", Integer, nullable=False),
    Column("exp_year", Integer, nullable=False),
    Column("funding", String, nullable=False),  # credit | debit | prepaid
    Column("country", String, nullable=False),
    Column("billing_name", String),
    # How the issuer answers (hidden from the API): 3-D Secure required on every payment, or a decline code.
    Column("three_d_secure", String, nullable=False, default="optional"),  # optional | required
    Column("decline_code", String),
    Column("created", String, nullable=False),
)

products = Table(
    "products",
    metadata,
    Column("id", String, primary_key=True),  # prod_...
    Column("name", String, nullable=False),
    Column("description", Text),
    Column("active", Boolean, nullable=False, default=True),
)

prices = Table(
    "prices",
    metadata,
    Column("id", String, primary_key=True),  # price_...
    Column("product", String, ForeignKey("products.id"), nullable=False),
    Column("unit_amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("type", String, nullable=False),  # one_time | recurring
    Column("recurring_interval", String),  # day | week | month | year
    Column("recurring_interval_count", Integer),
    Column("nickname", String),
    Column("lookup_key", String),
    Column("active", Boolean, nullable=False, default=True),
)

subscriptions = Table(
    "subscriptions",
    metadata,
    Column("id", String, primary_key=True),  # sub_...
    Column("customer", String, ForeignKey("customers.id"), nullable=False),
    # incomplete | incomplete_expired | trialing | active | past_due | canceled | unpaid
    Column("status", String, nullable=False),
    Column("price", String, ForeignKey("prices.id"), nullable=False),
    Column("quantity", Integer, nullable=False, default=1),
    Column("currency", String, nullable=False),
    Column("collection_method", String, nullable=False),  # charge_automatically | send_invoice
    Column("days_until_due", Integer),
    Column("default_payment_method", String, ForeignKey("payment_methods.id")),
    Column("cancel_at_period_end", Boolean, nullable=False, default=False),
    Column("current_period_start", String, nullable=False, info={"volatile": True}),
    Column("current_period_end", String, nullable=False, info={"volatile": True}),
    Column("trial_end", String, info={"volatile": True}),
    Column("canceled_at", String, info={"volatile": True}),
    Column("cancellation_feedback", String),
    Column("cancellation_comment", Text),
    Column("latest_invoice", String),
    Column("created", String, nullable=False, info={"volatile": True}),
)

invoices = Table(
    "invoices",
    metadata,
    Column("id", String, primary_key=True),  # in_...
    Column("number", String),  # assigned at finalization: <invoice_prefix>-<sequence>
    Column("customer", String, ForeignKey("customers.id"), nullable=False),
    Column("subscription", String, ForeignKey("subscriptions.id")),
    Column("status", String, nullable=False),  # draft | open | paid | void | uncollectible
    Column("currency", String, nullable=False),
    Column("collection_method", String, nullable=False),
    Column("due_date", String),  # YYYY-MM-DD, send_invoice only
    Column("description", Text),
    Column("subtotal", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("starting_balance", Integer, nullable=False, default=0),
    Column("ending_balance", Integer),
    Column("amount_due", Integer, nullable=False),
    Column("amount_paid", Integer, nullable=False, default=0),
    Column("amount_remaining", Integer, nullable=False),
    Column("attempt_count", Integer, nullable=False, default=0),
    Column("paid_out_of_band", Boolean, nullable=False, default=False),
    Column("payment_intent", String),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("status_transitioned_at", String, info={"volatile": True}),
)

invoice_lines = Table(
    "invoice_lines",
    metadata,
    Column("id", String, primary_key=True),  # il_...
    Column("invoice", String, ForeignKey("invoices.id"), nullable=False),
    Column("description", String, nullable=False),
    Column("price", String, ForeignKey("prices.id")),
    Column("quantity", Integer, nullable=False),
    Column("unit_amount", Integer, nullable=False),
    Column("amount", Integer, nullable=False),
)

payment_intents = Table(
    "payment_intents",
    metadata,
    Column("id", String, primary_key=True),  # pi_...
    Column("amount", Integer, nullable=False),
    Column("amount_capturable", Integer, nullable=False, default=0),
    Column("amount_received", Integer, nullable=False, default=0),
    Column("currency", String, nullable=False),
    Column("customer", String, ForeignKey("customers.id")),
    Column("payment_method", String, ForeignKey("payment_methods.id")),
    # requires_payment_method | requires_confirmation | requires_action | processing | requires_capture
    # | canceled | succeeded
    Column("status", String, nullable=False),
    Column("capture_method", String, nullable=False),  # automatic | manual
    Column("description", String),
    Column("receipt_email", String),
    Column("invoice", String, ForeignKey("invoices.id")),
    Column("latest_charge", String),
    Column("last_payment_error", JSON),  # {"code", "decline_code", "message"}
    Column("cancellation_reason", String),
    Column("canceled_at", String, info={"volatile": True}),
    Column("created", String, nullable=False, info={"volatile": True}),
)

charges = Table(
    "charges",
    metadata,
    Column("id", String, primary_key=True),  # ch_...
    Column("payment_intent", String, ForeignKey("payment_intents.id"), nullable=False),
    Column("customer", String, ForeignKey("customers.id")),
    Column("payment_method", String, ForeignKey("payment_methods.id"), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("amount_captured", Integer, nullable=False, default=0),
    Column("amount_refunded", Integer, nullable=False, default=0),  # includes a released uncaptured remainder
    Column("currency", String, nullable=False),
    Column("status", String, nullable=False),  # succeeded | pending | failed
    Column("paid", Boolean, nullable=False),
    Column("captured", Boolean, nullable=False),
    Column("refunded", Boolean, nullable=False, default=False),
    Column("disputed", Boolean, nullable=False, default=False),
    Column("failure_code", String),
    Column("failure_message", String),
    Column("created", String, nullable=False, info={"volatile": True}),
)

refunds = Table(
    "refunds",
    metadata,
    Column("id", String, primary_key=True),  # re_...
    Column("charge", String, ForeignKey("charges.id"), nullable=False),
    Column("payment_intent", String, ForeignKey("payment_intents.id"), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("reason", String),  # duplicate | fraudulent | requested_by_customer
    Column("status", String, nullable=False),  # succeeded | pending | failed | canceled
    Column("created", String, nullable=False, info={"volatile": True}),
)
