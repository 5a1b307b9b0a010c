"""DocuSign eSignature objects as tables. Account, user, template, envelope, recipient and tab ids are GUIDs;
recipients also carry the envelope-local recipientId ("1", "2", ...) and documents their documentId. Times are
ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),  # accountId (GUID)
    Column("account_name", String, nullable=False),
    Column("plan_name", String, nullable=False),
    Column("default_reminder_delay", Integer, nullable=False),  # days before the first reminder
    Column("default_expire_after", Integer, nullable=False),  # days an envelope stays open
)

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),  # userId (GUID)
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("user_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("job_title", String),
    Column("permission_profile", String, nullable=False),  # Account Administrator | DocuSign Sender | DocuSign Viewer
    Column("user_status", String, nullable=False),  # active | closed
)

templates = Table(
    "templates",
    metadata,
    Column("id", String, primary_key=True),  # templateId (GUID)
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("owner_id", String, ForeignKey("users.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("email_subject", String, nullable=False),
    Column("shared", Boolean, nullable=False),  # shared with the whole account
    Column("documents", JSON, nullable=False),  # [{"documentId": "1", "name": ..., "pages": n}]
    Column("roles", JSON, nullable=False),  # [{"roleName", "recipientType", "routingOrder"}]
    # [{"roleName", "tabType", "tabLabel", "documentId", "pageNumber", "xPosition", "yPosition", "required", "locked"}]
    Column("tabs", JSON, nullable=False),
    Column("created", String, nullable=False),
)

envelopes = Table(
    "envelopes",
    metadata,
    Column("id", String, primary_key=True),  # envelopeId (GUID)
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("sender_id", String, ForeignKey("users.id"), nullable=False),
    Column("template_id", String, ForeignKey("templates.id")),
    Column("email_subject", String, nullable=False),
    Column("email_blurb", Text, nullable=False, default=""),
    Column("status", String, nullable=False),  # created | sent | delivered | completed | declined | voided
    Column("voided_reason", String),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("sent", String, info={"volatile": True}),
    Column("completed", String, info={"volatile": True}),
    Column("status_changed", String, nullable=False, info={"volatile": True}),
    Column("reminder_enabled", Boolean, nullable=False),
    Column("reminder_delay", Integer, nullable=False),  # days after sending before the first reminder
    Column("reminder_frequency", Integer, nullable=False),  # days between reminders
    Column("expire_enabled", Boolean, nullable=False),
    Column("expire_after", Integer, nullable=False),  # days after sending the envelope expires
    Column("expire_warn", Integer, nullable=False),  # days before expiry recipients are warned
)

documents = Table(
    "documents",
    metadata,
    Column("id", String, primary_key=True),  # "<envelopeId>/<documentId>"
    Column("envelope_id", String, ForeignKey("envelopes.id"), nullable=False),
    Column("document_id", String, nullable=False),  # "1", "2", ...
    Column("name", String, nullable=False),
    Column("pages", Integer, nullable=False),
)

recipients = Table(
    "recipients",
    metadata,
    Column("id", String, primary_key=True),  # recipientIdGuid
    Column("envelope_id", String, ForeignKey("envelopes.id"), nullable=False),
    Column("recipient_id", String, nullable=False),  # "1", "2", ... within the envelope
    Column("recipient_type", String, nullable=False),  # signer | carbonCopy | certifiedDelivery
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("role_name", String),
    Column("routing_order", Integer, nullable=False),
    Column("status", String, nullable=False),  # created | sent | delivered | completed | declined
    Column("declined_reason", String),
    Column("sent", String, info={"volatile": True}),
    Column("delivered", String, info={"volatile": True}),
    Column("signed", String, info={"volatile": True}),
)

tabs = Table(
    "tabs",
    metadata,
    Column("id", String, primary_key=True),  # tabId (GUID)
    Column("envelope_id", String, ForeignKey("envelopes.id"), nullable=False),
    Column("recipient_guid", String, ForeignKey("recipients.id"), nullable=False),
    Column("tab_type", String, nullable=False),  # signHere | dateSigned | text
    Column("tab_label", String, nullable=False),
    Column("document_id", String, nullable=False),
    Column("page_number", Integer, nullable=False),
    # layout only: any spot on the page serves, so the state comparison leaves positions out
    Column("x_position", Integer, nullable=False, info={"volatile": True}),
    Column("y_position", Integer, nullable=False, info={"volatile": True}),
    Column("required", Boolean, nullable=False),
    Column("locked", Boolean, nullable=False),
    Column("value", String),
)

audit_events = Table(
    "audit_events",
    metadata,
    Column("id", String, primary_key=True),
    Column("envelope_id", String, ForeignKey("envelopes.id"), nullable=False),
    Column("logged", String, nullable=False, info={"volatile": True}),
    Column("user_name", String, nullable=False),
    Column("action", String, nullable=False),  # Registered | Sent | Delivered | Signed | Declined | Voided | ...
    Column("message", Text, nullable=False),
    Column("envelope_status", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the account user the assistant acts for
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)
