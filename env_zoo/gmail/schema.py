"""Gmail's objects as tables, for the mailboxes of one Google Workspace domain: the app's OAuth grant, contacts,
user labels, messages (with their label ids, headers and threading), drafts, filters, send-as aliases, forwarding
addresses, vacation settings and blocked senders. System labels (INBOX, SENT, ...) are constants, not rows."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, MetaData, String, Table, Text, UniqueConstraint

metadata = MetaData()

mailboxes = Table(
    "mailboxes",
    metadata,
    Column("email", String, primary_key=True),
    Column("display_name", String, nullable=False),
    Column("title", String, nullable=False, default=""),
)

oauth_grants = Table(
    "oauth_grants",
    metadata,
    Column("id", String, primary_key=True),  # always "current": whose mailbox the app acts for
    Column("email", String, ForeignKey("mailboxes.email"), nullable=False),
    Column("scope", String, nullable=False),  # gmail.readonly | gmail.modify | mail.google.com
    Column("granted_at", String, nullable=False, info={"volatile": True}),
)

contacts = Table(
    "contacts",
    metadata,
    Column("id", String, primary_key=True),  # c...
    Column("owner", String, ForeignKey("mailboxes.email"), nullable=False),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    UniqueConstraint("owner", "email"),
)

labels = Table(
    "labels",
    metadata,
    Column("id", String, primary_key=True),  # Label_<n>
    Column("owner", String, ForeignKey("mailboxes.email"), nullable=False),
    Column("name", String, nullable=False),  # nested labels are named "Parent/Child"
    Column("message_list_visibility", String, nullable=False, default="show"),  # show | hide
    # labelShow | labelShowIfUnread | labelHide
    Column("label_list_visibility", String, nullable=False, default="labelShow"),
    Column("color", JSON),  # {"textColor", "backgroundColor"} from Gmail's palette
)

messages = Table(
    "messages",
    metadata,
    Column("id", String, primary_key=True),  # 16 hex digits
    Column("owner", String, ForeignKey("mailboxes.email"), nullable=False),
    Column("thread_id", String, nullable=False),  # the id of the thread's first message in this mailbox
    Column("label_ids", JSON, nullable=False),
    Column("sender", JSON, nullable=False),  # {"name", "email"}
    Column("to", JSON, nullable=False),  # [{"name", "email"}]
    Column("cc", JSON, nullable=False),
    Column("bcc", JSON, nullable=False),  # kept on the sender's copy only
    Column("subject", String, nullable=False),
    Column("body", Text, nullable=False),
    Column("attachments", JSON, nullable=False),  # [{"filename", "mimeType", "size"}]
    Column("rfc822_message_id", String, nullable=False),  # the Message-ID header
    Column("in_reply_to", String),  # In-Reply-To header
    Column("references", JSON, nullable=False),  # References header, oldest first
    Column("auto_submitted", Boolean, nullable=False, default=False),  # Auto-Submitted: auto-replied
    Column("internal_date", String, nullable=False, info={"volatile": True}),
)

drafts = Table(
    "drafts",
    metadata,
    Column("id", String, primary_key=True),  # r-<digits>
    Column("owner", String, ForeignKey("mailboxes.email"), nullable=False),
    Column("message_id", String, ForeignKey("messages.id"), nullable=False, unique=True),
)

filters = Table(
    "filters",
    metadata,
    Column("id", String, primary_key=True),  # ANe1Bm...
    Column("owner", String, ForeignKey("mailboxes.email"), nullable=False),
    Column("criteria", JSON, nullable=False),  # {"from", "to", "subject", "query", "negatedQuery", "hasAttachment"}
    Column("action", JSON, nullable=False),  # {"addLabelIds", "removeLabelIds", "forward"}
)

send_as = Table(
    "send_as",
    metadata,
    Column("id", String, primary_key=True),  # sa_...
    Column("owner", String, ForeignKey("mailboxes.email"), nullable=False),
    Column("send_as_email", String, nullable=False),
    Column("display_name", String, nullable=False),
    Column("reply_to_address", String, nullable=False, default=""),
    Column("is_primary", Boolean, nullable=False, default=False),
    Column("is_default", Boolean, nullable=False, default=False),
    Column("treat_as_alias", Boolean, nullable=False, default=True),
    Column("verification_status", String, nullable=False),  # accepted | pending
    UniqueConstraint("owner", "send_as_email"),
)

forwarding_addresses = Table(
    "forwarding_addresses",
    metadata,
    Column("id", String, primary_key=True),  # fwd_...
    Column("owner", String, ForeignKey("mailboxes.email"), nullable=False),
    Column("forwarding_email", String, nullable=False),
    Column("verification_status", String, nullable=False),  # accepted | pending
    UniqueConstraint("owner", "forwarding_email"),
)

vacation_settings = Table(
    "vacation_settings",
    metadata,
    Column("owner", String, ForeignKey("mailboxes.email"), primary_key=True),
    Column("enable_auto_reply", Boolean, nullable=False, default=False),
    Column("response_subject", String, nullable=False, default=""),
    Column("response_body_plain_text", Text, nullable=False, default=""),
    Column("restrict_to_contacts", Boolean, nullable=False, default=False),
    Column("restrict_to_domain", Boolean, nullable=False, default=False),
    Column("start_time", String),  # RFC 3339, UTC
    Column("end_time", String),  # RFC 3339, UTC; auto-replies stop at this moment
)

blocked_senders = Table(
    "blocked_senders",
    metadata,
    Column("id", String, primary_key=True),  # blk_...
    Column("owner", String, ForeignKey("mailboxes.email"), nullable=False),
    Column("email", String, nullable=False),
    Column("blocked_at", String, nullable=False, info={"volatile": True}),
    UniqueConstraint("owner", "email"),
)
