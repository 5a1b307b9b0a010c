"""Envelope machinery the tools share: routing (who holds the envelope and when it completes), the audit log,
recipient and document lookups, and placing tabs."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import (
    NO_RECIPIENT,
    bad_parameter,
    incomplete,
    recipient_locked,
    tab_missing_document,
    tab_page_missing,
)
from .rules import ACTING_TYPES, FINISHED, activation_status, current_routing_order
from .schema import audit_events, documents, envelopes, recipients, tabs


def recipients_of(db: Database, envelope_id: str) -> list[dict[str, Any]]:
    """An envelope's recipients in routing order, then recipientId."""
    rows = db.find(recipients, envelope_id=envelope_id)
    return sorted(rows, key=lambda r: (r["routing_order"], int(r["recipient_id"])))


def recipient(db: Database, envelope_id: str, recipient_id: str) -> dict[str, Any]:
    """One recipient by its envelope-local recipientId."""
    return db.find_one(recipients, envelope_id=envelope_id, recipient_id=recipient_id.strip(), not_found=NO_RECIPIENT)


def changeable_recipient(db: Database, envelope_id: str, recipient_id: str) -> dict[str, Any]:
    """A recipient who has not finished (RECIPIENT_CANNOT_BE_CHANGED otherwise)."""
    row = recipient(db, envelope_id, recipient_id)
    if row["status"] in FINISHED:
        raise recipient_locked(row["name"], row["status"])
    return row


def next_recipient_id(db: Database, envelope_id: str) -> int:
    """The next free recipientId of an envelope."""
    return max((int(r["recipient_id"]) for r in db.find(recipients, envelope_id=envelope_id)), default=0) + 1


def log(db: Database, envelope: dict[str, Any], user_name: str, action: str, message: str) -> None:
    """Append an audit event, recording the envelope's status at that moment."""
    status = db.get(envelopes, envelope["id"])["status"]
    db.insert(
        audit_events,
        id=db.new_id(audit_events, "evt_", 6),
        envelope_id=envelope["id"],
        logged=db.now_iso(),
        user_name=user_name,
        action=action,
        message=message,
        envelope_status=status,
    )


def activate(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """The envelope reaches a recipient: signers and certified deliveries are notified, carbon copies complete."""
    status = activation_status(row)
    now = db.now_iso()
    return db.update(
        recipients, row["id"], status=status, sent=now, signed=now if status == "completed" else row["signed"]
    )


def advance(db: Database, envelope: dict[str, Any], user_name: str) -> dict[str, Any]:
    """Move an in-process envelope along its routing order: everyone at the current order is notified (they act in
    parallel); once all have finished the next order starts; when no one is left the envelope completes."""
    while True:
        rows = recipients_of(db, envelope["id"])
        order = current_routing_order(rows)
        if order is None:
            now = db.now_iso()
            envelope = db.update(envelopes, envelope["id"], status="completed", completed=now, status_changed=now)
            log(db, envelope, user_name, "Completed", "The envelope was completed by all recipients.")
            return envelope
        waiting = [r for r in rows if r["routing_order"] == order and r["status"] == "created"]
        if not waiting:
            return db.get(envelopes, envelope["id"])
        for row in waiting:
            activate(db, row)
            log(db, envelope, user_name, "Sent", f"Envelope routed to {row['name']} <{row['email']}>.")


def document(db: Database, envelope_id: str, document_id: str) -> dict[str, Any]:
    """One document of an envelope (TAB_REFERS_TO_MISSING_DOCUMENT otherwise)."""
    rows = db.find(documents, envelope_id=envelope_id, document_id=document_id.strip())
    if not rows:
        raise tab_missing_document(document_id)
    return rows[0]


def place_tab(db: Database, row: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    """Place one tab for a recipient, checking its document, page and value."""
    kind, label = spec["tabType"], spec["tabLabel"]
    if row["recipient_type"] not in ACTING_TYPES or (row["recipient_type"] == "certifiedDelivery" and kind != "text"):
        raise bad_parameter(f"A {row['recipient_type']} recipient can't carry a {kind} tab.")
    doc = document(db, row["envelope_id"], spec["documentId"])
    if spec["pageNumber"] > doc["pages"]:
        raise tab_page_missing(spec["pageNumber"], doc["document_id"])
    if kind != "text" and (spec.get("value") or spec.get("locked")):
        raise bad_parameter(f"Only text tabs take a value or can be locked ({label}).")
    if spec.get("locked") and not spec.get("value"):
        raise bad_parameter(f"A locked text tab needs a value ({label}).")
    return db.insert(
        tabs,
        id=db.new_uuid(tabs),
        envelope_id=row["envelope_id"],
        recipient_guid=row["id"],
        tab_type=kind,
        tab_label=label,
        document_id=doc["document_id"],
        page_number=spec["pageNumber"],
        x_position=spec["xPosition"],
        y_position=spec["yPosition"],
        required=spec.get("required", True),
        locked=spec.get("locked", False),
        value=spec.get("value"),
    )


def add_document(db: Database, envelope: dict[str, Any], number: int, name: str, pages: int) -> None:
    """Attach a document to an envelope as documentId `number`."""
    db.insert(
        documents,
        id=f"{envelope['id']}/{number}",
        envelope_id=envelope["id"],
        document_id=str(number),
        name=name,
        pages=pages,
    )


def add_recipient(
    db: Database, envelope: dict[str, Any], kind: str, name: str, email: str, order: int, role: str | None
) -> dict[str, Any]:
    """Add a recipient who has not been reached yet (`advance` notifies them when their turn comes)."""
    return db.insert(
        recipients,
        id=db.new_uuid(recipients),
        envelope_id=envelope["id"],
        recipient_id=str(next_recipient_id(db, envelope["id"])),
        recipient_type=kind,
        name=name.strip(),
        email=email.strip().lower(),
        role_name=role,
        routing_order=order,
        status="created",
        declined_reason=None,
        sent=None,
        delivered=None,
        signed=None,
    )


def remove_recipient(db: Database, envelope: dict[str, Any], row: dict[str, Any]) -> None:
    """Delete a recipient and their tabs."""
    for tab in db.find(tabs, recipient_guid=row["id"]):
        db.delete(tabs, tab["id"])
    db.delete(recipients, row["id"])


def apply_template(db: Database, envelope: dict[str, Any], template: dict[str, Any], roles: list[Any]) -> None:
    """Copy a template's documents into an envelope and turn its filled roles into recipients with the role's tabs;
    roles left unfilled are dropped, as DocuSign does, and unknown roles are refused."""
    known = {r["roleName"]: r for r in template["roles"]}
    filled = {r.roleName: r for r in roles}
    unknown = sorted(set(filled) - set(known))
    if unknown:
        raise bad_parameter(f"The template has no role named {', '.join(unknown)}.")
    db.update(envelopes, envelope["id"], template_id=template["id"])
    for doc in template["documents"]:
        add_document(db, envelope, int(doc["documentId"]), doc["name"], doc["pages"])
    for name, role in known.items():
        if name not in filled:
            continue
        person = add_recipient(
            db, envelope, role["recipientType"], filled[name].name, filled[name].email, role["routingOrder"], name
        )
        for spec in template["tabs"]:
            if spec["roleName"] == name:
                place_tab(db, person, spec)


def send(db: Database, envelope: dict[str, Any], user_name: str) -> dict[str, Any]:
    """Send a draft: it needs a document, a recipient who acts (a signer or a certified delivery) and a signHere tab
    for every signer (ENVELOPE_IS_INCOMPLETE)."""
    if not db.find(documents, envelope_id=envelope["id"]):
        raise incomplete("Add a document.")
    people = recipients_of(db, envelope["id"])
    if not any(r["recipient_type"] in ACTING_TYPES for r in people):
        raise incomplete("Add at least one signer or certified delivery recipient.")
    signers = [r for r in people if r["recipient_type"] == "signer"]
    unsigned = [r["name"] for r in signers if not db.find(tabs, recipient_guid=r["id"], tab_type="signHere")]
    if unsigned:
        raise incomplete(f"Signer(s) without a signHere tab: {', '.join(unsigned)}.")
    now = db.now_iso()
    envelope = db.update(envelopes, envelope["id"], status="sent", sent=now, status_changed=now)
    return advance(db, envelope, user_name)


def resend_to(db: Database, envelope: dict[str, Any], row: dict[str, Any], user_name: str) -> None:
    """Send the envelope's notification to a recipient again."""
    db.update(recipients, row["id"], status="sent", sent=db.now_iso(), delivered=None)
    log(db, envelope, user_name, "Resent", f"Envelope resent to {row['name']} <{row['email']}>.")


def fill_tabs(db: Database, row: dict[str, Any], values: dict[str, str]) -> list[str]:
    """Write a signer's tabs as they sign: signatures and the date, and their text values (locked fields keep
    theirs). Returns the labels of required text fields left empty (nothing is written then)."""
    own = db.find(tabs, recipient_guid=row["id"])
    labels = {t["tab_label"] for t in own if t["tab_type"] == "text" and not t["locked"]}
    unknown = sorted(set(values) - labels)
    if unknown:
        raise bad_parameter(f"No editable text field labelled {', '.join(unknown)}.")
    missing = [
        t["tab_label"]
        for t in own
        if t["tab_type"] == "text"
        and t["required"]
        and not t["locked"]
        and not (values.get(t["tab_label"]) or t["value"])
    ]
    if missing:
        return missing
    today = db.now_iso()[:10]
    for tab in own:
        if tab["tab_type"] == "signHere":
            db.update(tabs, tab["id"], value="signed")
        elif tab["tab_type"] == "dateSigned":
            db.update(tabs, tab["id"], value=today)
        elif tab["tab_label"] in values:
            db.update(tabs, tab["id"], value=values[tab["tab_label"]])
    return []
