"""DocuSign eSignature REST API v2.1 tools as a signed-in account user sees them: account users, templates,
envelopes with their documents, recipients (routing order), tabs and audit events; creating, sending, correcting,
resending and voiding envelopes, reminder and expiration settings; plus the person's own sign-in and signing."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Database, tool
from envfactory_gym.fields import IsoDate, page_size, text

from . import envelopes as machinery
from .access import is_admin, managed_envelope, me, sender, usable_template, visible_envelope
from .errors import (
    NO_ENVELOPE,
    bad_parameter,
    cannot_void,
    invalid_status,
    not_found,
    out_of_sequence,
    required_tab_incomplete,
    tab_not_correctable,
)
from .inputs import (
    Days,
    DocumentInput,
    Email,
    EnvelopeId,
    PersonName,
    RecipientId,
    RecipientInput,
    RoutingOrder,
    TabInput,
    TemplateId,
    TemplateRoleInput,
    TextValue,
    VoidedReason,
)
from .objects import (
    AuditEventList,
    Document,
    DocumentList,
    Envelope,
    EnvelopeList,
    EnvelopeUpdate,
    Recipients,
    RecipientsUpdate,
    SignedIn,
    TabList,
    Template,
    TemplateList,
    UserList,
    account_user,
    audit_object,
    envelope_summary,
    notification,
    recipient_object,
    tab_object,
    template_object,
    template_summary,
)
from .rules import ACTIVE, EDITABLE, FINISHED, IN_PROCESS, current_routing_order
from .schema import accounts, audit_events, documents, envelopes, recipients, sessions, tabs, templates, users

EnvelopeStatus = Literal["created", "sent", "delivered", "completed", "declined", "voided"]


def _user_name(db: Database, user_id: str) -> str:
    return db.get(users, user_id)["user_name"]


def _recipients_update(db: Database, envelope_id: str) -> RecipientsUpdate:
    return RecipientsUpdate(
        envelopeId=envelope_id,
        envelopeStatus=db.get(envelopes, envelope_id)["status"],
        recipients=[recipient_object(r) for r in machinery.recipients_of(db, envelope_id)],
    )


# ---------------------------------------------------------------- account


@tool(user_only=True)
def sign_in(db: Database, email: Email) -> SignedIn:
    """Sign in to DocuSign as an account user (the person does this themselves).

    Args:
        email: The user's sign-in email.
    """
    user = db.find_one(
        users, email=email.strip().lower(), user_status="active", not_found="USER_NOT_FOUND: Unknown user."
    )
    db.start_session(sessions, user_id=user["id"])
    account = db.get(accounts, user["account_id"])
    return SignedIn(user=account_user(user), accountId=account["id"], accountName=account["account_name"])


@tool(read_only=True)
def list_users(db: Database, search_text: text(100) | None = None) -> UserList:  # type: ignore[valid-type]
    """List the users of the signed-in user's account, optionally those whose name or email contains some text.

    Args:
        search_text: Part of a name or email address.
    """
    user = me(db)
    rows = db.find(users, account_id=user["account_id"], order_by=[users.c.user_name])
    if search_text:
        wanted = search_text.strip().lower()
        rows = [r for r in rows if wanted in r["user_name"].lower() or wanted in r["email"]]
    return UserList(users=[account_user(r) for r in rows])


# ---------------------------------------------------------------- templates


@tool(read_only=True)
def list_templates(db: Database, search_text: text(100) | None = None) -> TemplateList:  # type: ignore[valid-type]
    """List the templates the signed-in user may use (shared ones and their own), optionally by name.

    Args:
        search_text: Part of the template's name or description.
    """
    user = me(db)
    rows = db.find(templates, account_id=user["account_id"], order_by=[templates.c.name])
    rows = [r for r in rows if r["shared"] or r["owner_id"] == user["id"] or is_admin(user)]
    if search_text:
        wanted = search_text.strip().lower()
        rows = [r for r in rows if wanted in r["name"].lower() or wanted in r["description"].lower()]
    found = [template_summary(r, _user_name(db, r["owner_id"])) for r in rows]
    return TemplateList(envelopeTemplates=found, resultSetSize=len(found))


@tool(read_only=True)
def get_template(db: Database, template_id: TemplateId) -> Template:
    """Get a template with its documents, its recipient roles (type and routing order) and the tabs of each role.

    Args:
        template_id: The template's templateId (GUID).
    """
    row = usable_template(db, template_id)
    return template_object(row, _user_name(db, row["owner_id"]))


# ---------------------------------------------------------------- envelopes: reads


@tool(read_only=True)
def list_envelopes(
    db: Database,
    status: EnvelopeStatus | None = None,
    search_text: text(100) | None = None,  # type: ignore[valid-type]
    from_date: IsoDate | None = None,
    count: page_size(100) = 25,  # type: ignore[valid-type]
    start_position: Annotated[int, Field(ge=0)] = 0,
) -> EnvelopeList:
    """List envelopes, newest change first: an administrator sees the whole account's, anyone else the envelopes
    they sent. Filter by status, by text in the subject or a recipient's name or email, and by last change date.

    Args:
        status: Only envelopes with this status.
        search_text: Text in the email subject or in a recipient's name or email.
        from_date: Only envelopes whose status changed on or after this date (YYYY-MM-DD).
        count: How many to return (at most 100).
        start_position: Where to start, as given by the previous page's nextUri.
    """
    user = me(db)
    where, params = ["account_id = ?"], [user["account_id"]]
    if not is_admin(user):
        where.append("sender_id = ?")
        params.append(user["id"])
    if status:
        where.append("status = ?")
        params.append(status)
    if from_date:
        where.append("status_changed >= ?")
        params.append(from_date)
    if search_text:
        like = f"%{search_text.strip().lower()}%"
        where.append(
            "(lower(email_subject) LIKE ? OR id IN (SELECT envelope_id FROM recipients WHERE lower(name) LIKE ? "
            "OR lower(email) LIKE ?))"
        )
        params += [like, like, like]
    rows = db.select(envelopes, " AND ".join(where), params, order_by="status_changed DESC, id")
    page = rows[start_position : start_position + count]
    end = start_position + len(page)
    return EnvelopeList(
        envelopes=[envelope_summary(r, _user_name(db, r["sender_id"])) for r in page],
        resultSetSize=len(page),
        totalSetSize=len(rows),
        nextUri=str(end) if end < len(rows) else None,
    )


@tool(read_only=True)
def get_envelope(db: Database, envelope_id: EnvelopeId) -> Envelope:
    """Get an envelope: status, subject and message, sender, template, void reason, reminder and expiration settings
    (with when it expires) and the routing order being worked on.

    Args:
        envelope_id: The envelope's envelopeId (GUID).
    """
    return _envelope(db, visible_envelope(db, envelope_id))


def _envelope(db: Database, row: dict[str, Any]) -> Envelope:
    people = machinery.recipients_of(db, row["id"])
    return Envelope(
        **envelope_summary(row, _user_name(db, row["sender_id"])).model_dump(),
        emailBlurb=row["email_blurb"],
        templateId=row["template_id"],
        voidedReason=row["voided_reason"],
        currentRoutingOrder=current_routing_order(people) if row["status"] in IN_PROCESS else None,
        documentCount=len(db.find(documents, envelope_id=row["id"])),
        recipientCount=len(people),
        notification=notification(row),
    )


@tool(read_only=True)
def list_recipients(db: Database, envelope_id: EnvelopeId) -> Recipients:
    """List an envelope's recipients by type (signers, carbon copies, certified deliveries) with their routing order
    and status. Recipients with the same routing order receive it in parallel; the next order starts when all of the
    previous have finished.

    Args:
        envelope_id: The envelope's envelopeId (GUID).
    """
    row = visible_envelope(db, envelope_id)
    people = machinery.recipients_of(db, row["id"])
    by_type = {
        kind: [recipient_object(r) for r in people if r["recipient_type"] == kind]
        for kind in ("signer", "carbonCopy", "certifiedDelivery")
    }
    return Recipients(
        signers=by_type["signer"],
        carbonCopies=by_type["carbonCopy"],
        certifiedDeliveries=by_type["certifiedDelivery"],
        currentRoutingOrder=current_routing_order(people) if row["status"] in IN_PROCESS else None,
        recipientCount=len(people),
    )


@tool(read_only=True)
def list_documents(db: Database, envelope_id: EnvelopeId) -> DocumentList:
    """List an envelope's documents with their documentId and page count.

    Args:
        envelope_id: The envelope's envelopeId (GUID).
    """
    row = visible_envelope(db, envelope_id)
    docs = sorted(db.find(documents, envelope_id=row["id"]), key=lambda d: int(d["document_id"]))
    return DocumentList(
        envelopeId=row["id"],
        envelopeDocuments=[Document(documentId=d["document_id"], name=d["name"], pages=d["pages"]) for d in docs],
    )


@tool(read_only=True)
def list_tabs(db: Database, envelope_id: EnvelopeId, recipient_id: RecipientId) -> TabList:
    """List the tabs (signature, date and text fields) placed for one recipient, with any values filled in.

    Args:
        envelope_id: The envelope's envelopeId (GUID).
        recipient_id: The recipient's recipientId within the envelope.
    """
    row = visible_envelope(db, envelope_id)
    person = machinery.recipient(db, row["id"], recipient_id)
    found = db.find(tabs, recipient_guid=person["id"], order_by=[tabs.c.document_id, tabs.c.page_number])
    return TabList(recipientId=person["recipient_id"], tabs=[tab_object(t) for t in found])


@tool(read_only=True)
def list_audit_events(db: Database, envelope_id: EnvelopeId) -> AuditEventList:
    """List an envelope's audit history (registered, sent, viewed, signed, corrected, resent, voided, ...), oldest
    first.

    Args:
        envelope_id: The envelope's envelopeId (GUID).
    """
    row = visible_envelope(db, envelope_id)
    events = db.find(audit_events, envelope_id=row["id"], order_by=[audit_events.c.logged, audit_events.c.id])
    return AuditEventList(auditEvents=[audit_object(e) for e in events])


# ---------------------------------------------------------------- envelopes: writes


@tool()
def create_envelope(
    db: Database,
    email_subject: text(100),  # type: ignore[valid-type]
    template_id: TemplateId | None = None,
    template_roles: list[TemplateRoleInput] | None = None,
    documents_to_add: list[DocumentInput] | None = None,
    email_blurb: text(2000) | None = None,  # type: ignore[valid-type]
    status: Literal["created", "sent"] = "created",
) -> EnvelopeUpdate:
    """Create an envelope, either from a template (its documents, roles and tabs; fill roles with people through
    template_roles, roles left unfilled are dropped) or from documents (then add recipients and tabs
    before sending). status "created" keeps it as a draft; "sent" sends it at once.

    Args:
        email_subject: The subject of the signing email.
        template_id: The templateId to build the envelope from.
        template_roles: Who fills which role of the template.
        documents_to_add: Documents for an envelope without a template.
        email_blurb: The message of the signing email.
        status: created (draft) or sent.
    """
    user = sender(db)
    if (template_id is None) == (documents_to_add is None):
        raise bad_parameter("Give either a template_id or documents_to_add.")
    if template_roles and template_id is None:
        raise bad_parameter("template_roles need a template_id.")
    account = db.get(accounts, user["account_id"])
    now = db.now_iso()
    row = db.insert(
        envelopes,
        id=db.new_uuid(envelopes),
        account_id=user["account_id"],
        sender_id=user["id"],
        template_id=None,
        email_subject=email_subject,
        email_blurb=email_blurb or "",
        status="created",
        voided_reason=None,
        created=now,
        sent=None,
        completed=None,
        status_changed=now,
        reminder_enabled=False,
        reminder_delay=account["default_reminder_delay"],
        reminder_frequency=account["default_reminder_delay"],
        expire_enabled=True,
        expire_after=account["default_expire_after"],
        expire_warn=0,
    )
    if template_id is not None:
        machinery.apply_template(db, row, usable_template(db, template_id), template_roles or [])
    else:
        for number, doc in enumerate(documents_to_add or [], start=1):
            machinery.add_document(db, row, number, doc.name, doc.pages)
    machinery.log(db, row, user["user_name"], "Registered", "The envelope was created.")
    if status == "sent":
        row = machinery.send(db, db.get(envelopes, row["id"]), user["user_name"])
    return EnvelopeUpdate(envelopeId=row["id"], status=row["status"], statusChangedDateTime=row["status_changed"])


@tool()
def add_recipients(db: Database, envelope_id: EnvelopeId, recipients_to_add: list[RecipientInput]) -> RecipientsUpdate:
    """Add recipients to a draft or in-process envelope. In an in-process envelope a recipient whose routing order
    is the one being worked on is notified at once; a later one waits for their turn.

    Args:
        envelope_id: The envelope's envelopeId (GUID).
        recipients_to_add: The recipients, each with type, name, email and routing order.
    """
    row = managed_envelope(db, envelope_id)
    if row["status"] not in EDITABLE:
        raise invalid_status(f"Recipients can't be added to a {row['status']} envelope.")
    if not recipients_to_add:
        raise bad_parameter("Name at least one recipient.")
    user = me(db)
    for person in recipients_to_add:
        machinery.add_recipient(db, row, person.recipientType, person.name, person.email, person.routingOrder, None)
        machinery.log(db, row, user["user_name"], "Corrected", f"Recipient {person.name} <{person.email}> added.")
    if row["status"] in IN_PROCESS:
        machinery.advance(db, row, user["user_name"])
    return _recipients_update(db, row["id"])


@tool()
def update_recipient(
    db: Database,
    envelope_id: EnvelopeId,
    recipient_id: RecipientId,
    name: PersonName | None = None,
    email: Email | None = None,
    routing_order: RoutingOrder | None = None,  # type: ignore[valid-type]
    resend_envelope: bool = False,
) -> RecipientsUpdate:
    """Correct a recipient who has not finished: their name, email or routing order. In an in-process envelope a
    recipient whose email changes while they hold the envelope is sent it again at the new address;
    resend_envelope=True re-notifies them even when only the name changed.

    Args:
        envelope_id: The envelope's envelopeId (GUID).
        recipient_id: The recipient's recipientId within the envelope.
        name: The corrected name.
        email: The corrected email address.
        routing_order: The new routing order.
        resend_envelope: Re-send the envelope to this recipient after the correction.
    """
    row = managed_envelope(db, envelope_id)
    if row["status"] not in EDITABLE:
        raise invalid_status(f"Recipients of a {row['status']} envelope can't be corrected.")
    if name is None and email is None and routing_order is None:
        raise bad_parameter("Give a name, email or routing_order to change.")
    person = machinery.changeable_recipient(db, row["id"], recipient_id)
    user = me(db)
    changes = {k: v for k, v in {"name": name, "email": email, "routing_order": routing_order}.items() if v is not None}
    if "email" in changes:
        changes["email"] = changes["email"].strip().lower()
    if (
        "routing_order" in changes
        and person["status"] in ACTIVE
        and changes["routing_order"] != person["routing_order"]
    ):
        changes["status"] = "created"
        changes["sent"] = changes["delivered"] = None
    updated = db.update(recipients, person["id"], **changes)
    machinery.log(
        db, row, user["user_name"], "Corrected", f"Recipient {updated['name']} <{updated['email']}> corrected."
    )
    if row["status"] in IN_PROCESS:
        moved_address = "email" in changes and changes["email"] != person["email"]
        if updated["status"] in ACTIVE and (moved_address or resend_envelope):
            machinery.resend_to(db, row, updated, user["user_name"])
        machinery.advance(db, row, user["user_name"])
    return _recipients_update(db, row["id"])


@tool()
def delete_recipient(db: Database, envelope_id: EnvelopeId, recipient_id: RecipientId) -> RecipientsUpdate:
    """Remove a recipient who has not finished from a draft or in-process envelope, with their tabs. If they were the
    last one the current routing order waited for, the envelope moves on (or completes).

    Args:
        envelope_id: The envelope's envelopeId (GUID).
        recipient_id: The recipient's recipientId within the envelope.
    """
    row = managed_envelope(db, envelope_id)
    if row["status"] not in EDITABLE:
        raise invalid_status(f"Recipients can't be removed from a {row['status']} envelope.")
    person = machinery.changeable_recipient(db, row["id"], recipient_id)
    user = me(db)
    machinery.remove_recipient(db, row, person)
    machinery.log(db, row, user["user_name"], "Corrected", f"Recipient {person['name']} <{person['email']}> removed.")
    if row["status"] in IN_PROCESS:
        machinery.advance(db, row, user["user_name"])
    return _recipients_update(db, row["id"])


@tool()
def add_tabs(db: Database, envelope_id: EnvelopeId, recipient_id: RecipientId, tabs_to_add: list[TabInput]) -> TabList:
    """Place tabs for a recipient who has not finished: signHere, dateSigned, or text fields (required or optional;
    a locked text field carries a value the signer can't change). Carbon copies carry no tabs; certified deliveries
    only text.

    Args:
        envelope_id: The envelope's envelopeId (GUID).
        recipient_id: The recipient's recipientId within the envelope.
        tabs_to_add: The tabs, each on a document page at x/y.
    """
    row = managed_envelope(db, envelope_id)
    if row["status"] not in EDITABLE:
        raise invalid_status(f"Tabs can't be added to a {row['status']} envelope.")
    if not tabs_to_add:
        raise bad_parameter("Name at least one tab.")
    person = machinery.recipient(db, row["id"], recipient_id)
    if person["status"] in FINISHED:
        raise tab_not_correctable(person["name"])
    for tab in tabs_to_add:
        machinery.place_tab(db, person, tab.model_dump())
    found = db.find(tabs, recipient_guid=person["id"], order_by=[tabs.c.document_id, tabs.c.page_number])
    return TabList(recipientId=person["recipient_id"], tabs=[tab_object(t) for t in found])


@tool()
def send_envelope(db: Database, envelope_id: EnvelopeId) -> EnvelopeUpdate:
    """Send a draft envelope: it needs a document and a signer or certified delivery recipient, and every signer
    needs a signHere tab.
    The recipients of the first routing order are notified.

    Args:
        envelope_id: The envelope's envelopeId (GUID).
    """
    row = managed_envelope(db, envelope_id)
    if row["status"] != "created":
        raise invalid_status(f"Only a draft (created) envelope can be sent; this one is {row['status']}.")
    row = machinery.send(db, row, me(db)["user_name"])
    return EnvelopeUpdate(envelopeId=row["id"], status=row["status"], statusChangedDateTime=row["status_changed"])


@tool()
def resend_envelope(db: Database, envelope_id: EnvelopeId) -> EnvelopeUpdate:
    """Resend an in-process envelope's notification to the recipients who currently hold it and haven't finished.

    Args:
        envelope_id: The envelope's envelopeId (GUID).
    """
    row = managed_envelope(db, envelope_id)
    if row["status"] not in IN_PROCESS:
        raise invalid_status(f"Only a sent or delivered envelope can be resent; this one is {row['status']}.")
    user = me(db)
    holders = [r for r in machinery.recipients_of(db, row["id"]) if r["status"] in ACTIVE]
    for person in holders:
        machinery.resend_to(db, row, person, user["user_name"])
    return EnvelopeUpdate(
        envelopeId=row["id"],
        status=row["status"],
        statusChangedDateTime=row["status_changed"],
        notified=[f"{p['name']} <{p['email']}>" for p in holders],
    )


@tool()
def void_envelope(db: Database, envelope_id: EnvelopeId, voided_reason: VoidedReason) -> EnvelopeUpdate:
    """Void an in-process (sent or delivered) envelope so no one can act on it any more; recipients are told the
    reason. Drafts, completed, declined and voided envelopes can't be voided.

    Args:
        envelope_id: The envelope's envelopeId (GUID).
        voided_reason: Why it is voided (shown to the recipients).
    """
    row = managed_envelope(db, envelope_id)
    if row["status"] not in IN_PROCESS:
        raise cannot_void(row["status"])
    now = db.now_iso()
    row = db.update(envelopes, row["id"], status="voided", voided_reason=voided_reason.strip(), status_changed=now)
    machinery.log(db, row, me(db)["user_name"], "Voided", f"The envelope was voided: {voided_reason.strip()}")
    return EnvelopeUpdate(envelopeId=row["id"], status=row["status"], statusChangedDateTime=row["status_changed"])


@tool()
def update_notification(
    db: Database,
    envelope_id: EnvelopeId,
    reminder_enabled: bool | None = None,
    reminder_delay: Days | None = None,  # type: ignore[valid-type]
    reminder_frequency: Days | None = None,  # type: ignore[valid-type]
    expire_enabled: bool | None = None,
    expire_after: Annotated[int, Field(ge=1, le=999)] | None = None,
    expire_warn: Days | None = None,  # type: ignore[valid-type]
) -> Envelope:
    """Change a draft or in-process envelope's reminders (first after reminder_delay days, then every
    reminder_frequency days) and expiration (expire_after days after sending, warning expire_warn days before; the
    warning must come before the expiry).

    Args:
        envelope_id: The envelope's envelopeId (GUID).
        reminder_enabled: Turn reminders on or off.
        reminder_delay: Days after sending before the first reminder.
        reminder_frequency: Days between reminders.
        expire_enabled: Turn expiration on or off.
        expire_after: Days after sending the envelope expires.
        expire_warn: Days before expiry recipients are warned.
    """
    row = managed_envelope(db, envelope_id)
    if row["status"] not in EDITABLE:
        raise invalid_status(f"Notification settings of a {row['status']} envelope can't change.")
    changes = {
        k: v
        for k, v in {
            "reminder_enabled": reminder_enabled,
            "reminder_delay": reminder_delay,
            "reminder_frequency": reminder_frequency,
            "expire_enabled": expire_enabled,
            "expire_after": expire_after,
            "expire_warn": expire_warn,
        }.items()
        if v is not None
    }
    if not changes:
        raise bad_parameter("Give at least one setting to change.")
    merged = {**row, **changes}
    if merged["expire_enabled"] and merged["expire_warn"] >= merged["expire_after"]:
        raise bad_parameter("expireWarn must be less than expireAfter.")
    db.update(envelopes, row["id"], **changes)
    machinery.log(db, row, me(db)["user_name"], "Notification Changed", "Reminder and expiration settings changed.")
    return _envelope(db, db.get(envelopes, row["id"]))


@tool(user_only=True)
def sign_envelope(db: Database, envelope_id: EnvelopeId, text_values: list[TextValue] | None = None) -> EnvelopeUpdate:
    """Sign (or, as a certified delivery, acknowledge) an envelope the signed-in person is a recipient of, filling
    their text fields; only when the routing order has reached them (the person does this themselves).

    Args:
        envelope_id: The envelope's envelopeId (GUID).
        text_values: Values for the person's text fields, by label.
    """
    user = me(db)
    row = db.find_one(envelopes, id=envelope_id.strip().lower(), not_found=NO_ENVELOPE)
    mine = [
        r
        for r in machinery.recipients_of(db, row["id"])
        if r["email"] == user["email"]
        and r["recipient_type"] != "carbonCopy"
        and r["status"] not in ("completed", "declined")
    ]
    if not mine:
        raise not_found(NO_ENVELOPE)
    if row["status"] not in IN_PROCESS:
        raise invalid_status(f"A {row['status']} envelope can't be signed.")
    person = mine[0]
    if person["status"] not in ACTIVE:
        raise out_of_sequence()
    values = {v.tabLabel: v.value for v in text_values or []}
    missing = machinery.fill_tabs(db, person, values)
    if missing:
        raise required_tab_incomplete(missing)
    db.update(recipients, person["id"], status="completed", signed=db.now_iso())
    machinery.log(db, row, user["user_name"], "Signed", f"{person['name']} signed the envelope.")
    row = machinery.advance(db, row, user["user_name"])
    return EnvelopeUpdate(envelopeId=row["id"], status=row["status"], statusChangedDateTime=row["status_changed"])
