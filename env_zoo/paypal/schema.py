"""PayPal's objects as tables: the merchant's balance, payers, checkout orders, authorizations, captures, refunds,
disputes, payout batches and their items, and invoices. Money is an integer in cents (USD); the API prints it as a
decimal string."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

balances = Table(
    "balances",
    metadata,
    Column("currency", String, primary_key=True),
    Column("available", Integer, nullable=False),  # what payouts may spend, in cents
)

payers = Table(
    "payers",
    metadata,
    Column("payer_id", String, primary_key=True),  # 13 characters, e.g. QYR5Z8XDVJNXQ
    Column("email_address", String, nullable=False),
    Column("given_name", String, nullable=False),
    Column("surname", String, nullable=False),
    Column("country_code", String, nullable=False),
)

orders = Table(
    "orders",
    metadata,
    Column("id", String, primary_key=True),  # 17 characters, e.g. 5O190127TN364715T
    Column("intent", String, nullable=False),  # CAPTURE | AUTHORIZE
    Column("status", String, nullable=False),  # CREATED | APPROVED | COMPLETED | VOIDED
    Column("payer_id", String, ForeignKey("payers.payer_id")),  # set when the payer approves
    Column("reference_id", String, nullable=False),
    Column("description", String, info={"volatile": True}),  # free text: its wording does not matter
    Column("invoice_id", String),  # the merchant's own invoice number for the purchase unit
    Column("items", JSON, nullable=False),  # [{name, quantity, unit_amount, sku}]
    Column("item_total", Integer, nullable=False),
    Column("shipping", Integer, nullable=False),
    Column("tax_total", Integer, nullable=False),
    Column("discount", Integer, nullable=False),
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("create_time", String, nullable=False, info={"volatile": True}),
    Column("update_time", String, nullable=False, info={"volatile": True}),
)

authorizations = Table(
    "authorizations",
    metadata,
    Column("id", String, primary_key=True),
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("status", String, nullable=False),  # CREATED | PARTIALLY_CAPTURED | CAPTURED | VOIDED | EXPIRED
    Column("reauthorized_from", String),  # the authorization this one replaced
    Column("honor_until", String, nullable=False, info={"volatile": True}),  # end of the 3-day honor period
    Column("expiration_time", String, nullable=False, info={"volatile": True}),  # 29 days after the first one
    Column("create_time", String, nullable=False, info={"volatile": True}),
    Column("update_time", String, nullable=False, info={"volatile": True}),
)

captures = Table(
    "captures",
    metadata,
    Column("id", String, primary_key=True),
    Column("order_id", String, ForeignKey("orders.id"), nullable=False),
    Column("authorization_id", String, ForeignKey("authorizations.id")),
    Column("amount", Integer, nullable=False),
    Column("fee", Integer, nullable=False),  # PayPal's fee, kept by PayPal
    Column("currency", String, nullable=False),
    Column("status", String, nullable=False),  # COMPLETED | PARTIALLY_REFUNDED | REFUNDED | PENDING
    Column("final_capture", Boolean, nullable=False),
    Column("invoice_id", String),
    Column("create_time", String, nullable=False, info={"volatile": True}),
    Column("update_time", String, nullable=False, info={"volatile": True}),
)

refunds = Table(
    "refunds",
    metadata,
    Column("id", String, primary_key=True),
    Column("capture_id", String, ForeignKey("captures.id"), nullable=False),
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("status", String, nullable=False),  # COMPLETED
    Column("note_to_payer", String, info={"volatile": True}),  # free text: its wording does not matter
    Column("dispute_id", String),  # set when a dispute's accepted claim paid it
    Column("create_time", String, nullable=False, info={"volatile": True}),
)

disputes = Table(
    "disputes",
    metadata,
    Column("dispute_id", String, primary_key=True),  # PP-D-12345
    Column("capture_id", String, ForeignKey("captures.id"), nullable=False),  # the disputed transaction
    Column("reason", String, nullable=False),  # MERCHANDISE_OR_SERVICE_NOT_RECEIVED | ...
    Column("status", String, nullable=False),  # OPEN | WAITING_FOR_SELLER_RESPONSE | UNDER_REVIEW | RESOLVED | ...
    Column("stage", String, nullable=False),  # INQUIRY | CHARGEBACK
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("buyer_message", Text, nullable=False),
    Column("seller_response_due_date", String),
    Column("outcome", String),  # RESOLVED_BUYER_FAVOUR | RESOLVED_SELLER_FAVOUR | ...
    Column("evidences", JSON, nullable=False),  # [{evidence_type, tracking_info, refund_id, notes}]
    Column("create_time", String, nullable=False),
    Column("update_time", String, nullable=False, info={"volatile": True}),
)

payout_batches = Table(
    "payout_batches",
    metadata,
    Column("payout_batch_id", String, primary_key=True),
    Column("sender_batch_id", String, nullable=False, info={"volatile": True}),  # the merchant's own id, unique
    Column("batch_status", String, nullable=False),  # SUCCESS | PROCESSING | CANCELED
    Column("email_subject", String, info={"volatile": True}),  # free text
    Column("currency", String, nullable=False),
    Column("time_created", String, nullable=False, info={"volatile": True}),
)

payout_items = Table(
    "payout_items",
    metadata,
    Column("payout_item_id", String, primary_key=True),
    Column("payout_batch_id", String, ForeignKey("payout_batches.payout_batch_id"), nullable=False),
    Column("receiver", String, nullable=False),  # an email address
    Column("amount", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("transaction_status", String, nullable=False),  # SUCCESS | UNCLAIMED | RETURNED | ...
    Column("sender_item_id", String, info={"volatile": True}),  # the sender's own label
    Column("note", String, info={"volatile": True}),  # free text: its wording does not matter
    Column("time_processed", String, info={"volatile": True}),
)

invoices = Table(
    "invoices",
    metadata,
    Column("id", String, primary_key=True),  # INV2-Z56S-5LLA-Q52L-CPZ5
    Column("invoice_number", String, nullable=False),  # unique
    Column("status", String, nullable=False),  # DRAFT | SENT | PARTIALLY_PAID | PAID | MARKED_AS_PAID | CANCELLED
    Column("recipient_email", String, nullable=False),
    Column("recipient_name", String, nullable=False),
    Column("items", JSON, nullable=False),  # [{name, quantity, unit_amount}]
    Column("amount", Integer, nullable=False),
    Column("paid", Integer, nullable=False),
    Column("currency", String, nullable=False),
    Column("invoice_date", String, nullable=False),
    Column("due_date", String, nullable=False),
    Column("note", String, info={"volatile": True}),  # free text: its wording does not matter
    Column("payments", JSON, nullable=False),  # [{payment_id, method, amount, payment_date}]
    Column("reminders_sent", Integer, nullable=False),
    Column("last_reminded", String, info={"volatile": True}),
    Column("create_time", String, nullable=False, info={"volatile": True}),
)
