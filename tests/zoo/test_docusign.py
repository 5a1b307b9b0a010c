"""The DocuSign environment's tools on the real seed: sign-in and permission profiles (administrators see the whole
account, senders their own envelopes and usable templates, viewers send nothing), the envelope state machine (send
only drafts that are complete, void only sent or delivered envelopes), routing order (parallel recipients, the next
order once the previous finished, carbon copies completing on receipt, signing out of sequence refused), required
and locked tabs, correcting, adding and removing recipients, resending, reminders and expiration, and the audit
trail. Every error path is checked to leave the state unchanged, with DocuSign's error code in the message."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("docusign")
CLOCK = datetime(2026, 5, 12, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
TEMPLATES = {t["name"]: t["id"] for t in SEED["templates"]}

session = session_fixture(SPEC, CLOCK)


def envelope(subject: str, status: str | None = None) -> str:
    found = [e["id"] for e in SEED["envelopes"] if e["email_subject"] == subject and status in (None, e["status"])]
    assert len(found) == 1, found
    return found[0]


HARBOR = envelope("Lease - 418 Harbor St Unit 3B")  # Marco's; tenant sent, co-tenant completed (order 1)
HARBOR_C = envelope("Lease - 418 Harbor St Unit 3C")  # Aisha's
BRIGHTCLEAN = envelope("Vendor Services Agreement - BrightClean Janitorial 2026")  # completed
BELMONT = envelope("Lease - 88 Belmont Ave Unit 5B")  # Aisha's draft
LAKEVIEW = envelope("Lease - 25 Lakeview Dr Unit 7A")  # declined
WABASH = envelope("Lease Renewal - 300 Wabash Ave Unit 15C")  # Dana is the landlord at order 2, now current
ORCHARD = envelope("Move-Out Inspection - 9 Orchard Ln Unit 2")  # tenant done, Tom the only one left


def sign_in(session: ToolSession, name: str) -> dict:
    return ok(session, "sign_in", {"email": f"{name}@lakeshorepg.com"}, caller="user")


def people(session: ToolSession, envelope_id: str) -> dict[str, dict]:
    found = ok(session, "list_recipients", {"envelope_id": envelope_id})
    every = found["signers"] + found["carbonCopies"] + found["certifiedDeliveries"]
    return {r["recipientId"]: r for r in every}


def statuses(session: ToolSession, envelope_id: str) -> dict[str, str]:
    return {rid: r["status"] for rid, r in people(session, envelope_id).items()}


def actions(session: ToolSession, envelope_id: str) -> list[str]:
    return [e["action"] for e in ok(session, "list_audit_events", {"envelope_id": envelope_id})["auditEvents"]]


def from_template(session: ToolSession, template: str, roles: dict[str, str], status: str = "sent") -> str:
    """An envelope from a template with each role filled by an account user (by email local part)."""
    filled = [
        {"roleName": role, "name": who.replace(".", " ").title(), "email": f"{who}@lakeshorepg.com"}
        for role, who in roles.items()
    ]
    args = {"email_subject": "Test", "template_id": TEMPLATES[template], "template_roles": filled, "status": status}
    return ok(session, "create_envelope", args)["envelopeId"]


# ---------------------------------------------------------------- sign-in and permissions


def test_tools_need_a_signed_in_active_user(session):
    fails(session, "list_envelopes", {}, "PermissionDenied", "AUTHORIZATION_INVALID_TOKEN")
    fails(session, "sign_in", {"email": "beth.carver@lakeshorepg.com"}, "NotFound", "USER_NOT_FOUND", caller="user")
    assert sign_in(session, "dana.whitfield")["accountName"] == "Lakeshore Property Group"


def test_senders_see_only_their_own_envelopes_and_administrators_the_whole_account(session):
    sign_in(session, "marco.ruiz")
    mine = ok(session, "list_envelopes", {"count": 100})["envelopes"]
    assert mine and {e["senderName"] for e in mine} == {"Marco Ruiz"}
    fails(session, "get_envelope", {"envelope_id": HARBOR_C}, "NotFound", "ENVELOPE_DOES_NOT_EXIST")
    sign_in(session, "dana.whitfield")
    listed = ok(session, "list_envelopes", {"count": 100})
    senders = {e["senderName"] for e in listed["envelopes"]}
    assert {"Marco Ruiz", "Aisha Khan", "Lena Hoffmann"} <= senders
    assert "Olivier Tremblay" not in senders  # another account's envelopes stay invisible
    assert listed["totalSetSize"] == sum(1 for e in SEED["envelopes"] if e["account_id"].startswith("7f3c"))
    assert ok(session, "get_envelope", {"envelope_id": HARBOR_C})["senderName"] == "Aisha Khan"


def test_viewers_cannot_send_and_private_templates_stay_private(session):
    sign_in(session, "greg.lindqvist")
    args = {"email_subject": "Hi", "documents_to_add": [{"name": "a.pdf", "pages": 1}]}
    fails(session, "create_envelope", args, "PermissionDenied", "USER_LACKS_PERMISSIONS")
    sign_in(session, "marco.ruiz")
    names = {t["name"] for t in ok(session, "list_templates", {})["envelopeTemplates"]}
    assert "Offer Letter" not in names and "Pet Addendum" in names
    fails(session, "get_template", {"template_id": TEMPLATES["Offer Letter"]}, "NotFound", "TEMPLATE_ID_INVALID")
    sign_in(session, "priya.nair")
    assert (
        ok(session, "get_template", {"template_id": TEMPLATES["Offer Letter"]})["roles"][0]["roleName"] == "Candidate"
    )


def test_list_envelopes_filters_by_recipient_text_and_status_and_pages(session):
    sign_in(session, "dana.whitfield")
    found = ok(session, "list_envelopes", {"search_text": "jordan.lee@gmial"})["envelopes"]
    assert [e["envelopeId"] for e in found] == [HARBOR]
    drafts = ok(session, "list_envelopes", {"status": "created", "count": 100})["envelopes"]
    assert BELMONT in {e["envelopeId"] for e in drafts} and {e["status"] for e in drafts} == {"created"}
    first = ok(session, "list_envelopes", {"count": 5})
    second = ok(session, "list_envelopes", {"count": 5, "start_position": int(first["nextUri"])})
    assert len(first["envelopes"]) == 5 and not {e["envelopeId"] for e in first["envelopes"]} & {
        e["envelopeId"] for e in second["envelopes"]
    }


# ---------------------------------------------------------------- voiding


@pytest.mark.parametrize(
    ("subject", "status"),
    [
        ("Vendor Services Agreement - BrightClean Janitorial 2026", "completed"),
        ("Lease - 88 Belmont Ave Unit 5B", "created"),
        ("Lease - 25 Lakeview Dr Unit 7A", "declined"),
    ],
)
def test_only_sent_or_delivered_envelopes_can_be_voided(session, subject, status):
    sign_in(session, "dana.whitfield")
    args = {"envelope_id": envelope(subject), "voided_reason": "No longer needed"}
    fails(session, "void_envelope", args, "Conflict", "ENVELOPE_CANNOT_VOID_INVALID_STATE")


def test_voiding_records_the_reason_and_ends_all_changes(session):
    sign_in(session, "marco.ruiz")
    fails(
        session, "void_envelope", {"envelope_id": HARBOR, "voided_reason": "   "}, "invalid_arguments", "voided_reason"
    )
    ok(session, "void_envelope", {"envelope_id": HARBOR, "voided_reason": "Sent to wrong tenant"})
    got = ok(session, "get_envelope", {"envelope_id": HARBOR})
    assert (got["status"], got["voidedReason"]) == ("voided", "Sent to wrong tenant")
    assert actions(session, HARBOR)[-1] == "Voided"
    fails(session, "void_envelope", {"envelope_id": HARBOR, "voided_reason": "Again"}, "Conflict", "INVALID_STATE")
    fails(session, "resend_envelope", {"envelope_id": HARBOR}, "Conflict", "ENVELOPE_INVALID_STATUS")
    fails(session, "update_recipient", {"envelope_id": HARBOR, "recipient_id": "1", "name": "X"}, "Conflict", "STATUS")


# ---------------------------------------------------------------- sending and routing order


def test_a_draft_is_sent_only_when_complete(session):
    sign_in(session, "lena.hoffmann")
    args = {"email_subject": "Parking", "documents_to_add": [{"name": "Parking.pdf", "pages": 2}]}
    draft = ok(session, "create_envelope", args)["envelopeId"]
    fails(session, "send_envelope", {"envelope_id": draft}, "InvalidRequest", "ENVELOPE_IS_INCOMPLETE")
    signer = {"recipientType": "signer", "name": "Al Price", "email": "al@keystonesec.com", "routingOrder": 1}
    ok(session, "add_recipients", {"envelope_id": draft, "recipients_to_add": [signer]})
    fails(session, "send_envelope", {"envelope_id": draft}, "InvalidRequest", "without a signHere tab: Al Price")
    tab = {"tabType": "signHere", "tabLabel": "Sig", "documentId": "1", "pageNumber": 2}
    ok(session, "add_tabs", {"envelope_id": draft, "recipient_id": "1", "tabs_to_add": [tab]})
    assert ok(session, "send_envelope", {"envelope_id": draft})["status"] == "sent"
    assert statuses(session, draft) == {"1": "sent"}
    fails(session, "send_envelope", {"envelope_id": draft}, "Conflict", "ENVELOPE_INVALID_STATUS")


def test_routing_order_runs_in_sequence_and_carbon_copies_complete_on_receipt(session):
    sign_in(session, "dana.whitfield")
    roles = {"Tenant": "dana.whitfield", "Landlord": "marco.ruiz", "Leasing Office": "priya.nair"}
    sent = from_template(session, "Residential Lease Agreement", roles)
    assert statuses(session, sent) == {"1": "sent", "2": "created", "3": "created"}
    sign_in(session, "marco.ruiz")
    fails(session, "sign_envelope", {"envelope_id": sent}, "Conflict", "RECIPIENT_NOT_IN_SEQUENCE", caller="user")
    sign_in(session, "dana.whitfield")
    fails(session, "sign_envelope", {"envelope_id": sent}, "InvalidRequest", "REQUIRED_TAB_INCOMPLETE", caller="user")
    phone = [{"tabLabel": "Emergency contact phone", "value": "+1 312 555 0101"}]
    ok(session, "sign_envelope", {"envelope_id": sent, "text_values": phone}, caller="user")
    assert statuses(session, sent) == {"1": "completed", "2": "sent", "3": "created"}
    filled = {
        t["tabLabel"]: t["value"] for t in ok(session, "list_tabs", {"envelope_id": sent, "recipient_id": "1"})["tabs"]
    }
    assert filled["Emergency contact phone"] == "+1 312 555 0101" and filled["Tenant signature"] == "signed"
    sign_in(session, "marco.ruiz")  # a recipient, not the sender: he signs but can't read the envelope
    assert ok(session, "sign_envelope", {"envelope_id": sent}, caller="user")["status"] == "completed"
    fails(session, "get_envelope", {"envelope_id": sent}, "NotFound", "ENVELOPE_DOES_NOT_EXIST")
    sign_in(session, "dana.whitfield")
    assert statuses(session, sent) == {"1": "completed", "2": "completed", "3": "completed"}
    assert actions(session, sent)[-1] == "Completed"


def test_signing_is_for_the_person_and_locked_fields_keep_their_value(session):
    sign_in(session, "dana.whitfield")
    fails(session, "sign_envelope", {"envelope_id": WABASH}, "user_only", "only be performed by the user")
    pet = from_template(session, "Pet Addendum", {"Tenant": "dana.whitfield", "Landlord": "tom.becker"})
    locked = [{"tabLabel": "Pet deposit", "value": "$0"}, {"tabLabel": "Pet name and breed", "value": "Rex"}]
    fails(
        session, "sign_envelope", {"envelope_id": pet, "text_values": locked}, "InvalidRequest", "Pet deposit", "user"
    )
    ok(session, "sign_envelope", {"envelope_id": pet, "text_values": locked[1:]}, caller="user")
    tabs = ok(session, "list_tabs", {"envelope_id": pet, "recipient_id": "1"})["tabs"]
    assert {t["tabLabel"]: t["value"] for t in tabs}["Pet deposit"] == "$300 refundable"
    assert ok(session, "sign_envelope", {"envelope_id": WABASH}, caller="user")["status"] == "completed"


def test_parallel_recipients_all_finish_before_the_next_order(session):
    sign_in(session, "marco.ruiz")
    assert statuses(session, HARBOR) == {"1": "sent", "2": "completed", "3": "created", "4": "created"}
    fails(session, "delete_recipient", {"envelope_id": HARBOR, "recipient_id": "2"}, "Conflict", "RECIPIENT_CANNOT_BE")
    ok(session, "delete_recipient", {"envelope_id": HARBOR, "recipient_id": "1"})
    assert statuses(session, HARBOR) == {"2": "completed", "3": "sent", "4": "created"}
    assert ok(session, "list_tabs", {"envelope_id": HARBOR, "recipient_id": "3"})["tabs"]


def test_removing_the_last_pending_recipient_completes_the_envelope(session):
    sign_in(session, "tom.becker")
    ok(session, "delete_recipient", {"envelope_id": ORCHARD, "recipient_id": "2"})
    assert ok(session, "get_envelope", {"envelope_id": ORCHARD})["status"] == "completed"
    assert actions(session, ORCHARD)[-2:] == ["Corrected", "Completed"]
    fails(session, "list_recipients", {"envelope_id": "nope"}, "invalid_arguments", "GUID")


# ---------------------------------------------------------------- correcting recipients


def test_correcting_the_email_of_the_current_recipient_resends_it(session):
    sign_in(session, "marco.ruiz")
    ok(session, "update_recipient", {"envelope_id": HARBOR, "recipient_id": "1", "email": "Jordan.Lee@gmail.com"})
    assert people(session, HARBOR)["1"]["email"] == "jordan.lee@gmail.com"
    assert actions(session, HARBOR)[-2:] == ["Corrected", "Resent"]
    bad = {"envelope_id": HARBOR, "recipient_id": "1", "email": "jordan@"}
    fails(session, "update_recipient", bad, "invalid_arguments", "INVALID_EMAIL_ADDRESS_FOR_RECIPIENT")
    fails(
        session, "update_recipient", {"envelope_id": HARBOR, "recipient_id": "1"}, "InvalidRequest", "INVALID_REQUEST"
    )
    fails(
        session,
        "update_recipient",
        {"envelope_id": HARBOR, "recipient_id": "9", "name": "X"},
        "NotFound",
        "INVALID_RECIPIENT_ID",
    )


def test_recipients_who_finished_or_of_finished_envelopes_cannot_be_changed(session):
    sign_in(session, "dana.whitfield")
    args = {"envelope_id": HARBOR, "recipient_id": "2", "name": "Casey Lee-Smith"}
    fails(session, "update_recipient", args, "Conflict", "RECIPIENT_CANNOT_BE_CHANGED")
    args = {"envelope_id": BRIGHTCLEAN, "recipient_id": "1", "name": "Rosa D."}
    fails(session, "update_recipient", args, "Conflict", "ENVELOPE_INVALID_STATUS")
    cc = {"recipientType": "carbonCopy", "name": "A", "email": "a@b.com", "routingOrder": 3}
    fails(session, "add_recipients", {"envelope_id": LAKEVIEW, "recipients_to_add": [cc]}, "Conflict", "STATUS")


def test_added_recipients_start_when_their_order_is_reached(session):
    sign_in(session, "marco.ruiz")
    now = {"recipientType": "signer", "name": "Ruth Lee", "email": "ruth.lee@outlook.com", "routingOrder": 1}
    later = {
        "recipientType": "certifiedDelivery",
        "name": "Mark Ellis",
        "email": "mark@ellislaw.com",
        "routingOrder": 5,
    }
    ok(session, "add_recipients", {"envelope_id": HARBOR, "recipients_to_add": [now, later]})
    assert statuses(session, HARBOR) == {
        "1": "sent",
        "2": "completed",
        "3": "created",
        "4": "created",
        "5": "sent",
        "6": "created",
    }


def test_moving_the_current_recipient_later_waits_for_the_new_order(session):
    sign_in(session, "marco.ruiz")
    ok(session, "update_recipient", {"envelope_id": HARBOR, "recipient_id": "1", "routing_order": 3})
    # order 1 is finished now (Casey signed), so order 2 (Tom) starts; Jordan waits for order 3
    assert statuses(session, HARBOR) == {"1": "created", "2": "completed", "3": "sent", "4": "created"}


# ---------------------------------------------------------------- tabs


@pytest.mark.parametrize(
    ("recipient", "tab", "code"),
    [
        ("1", {"tabType": "signHere", "documentId": "7", "pageNumber": 1}, "TAB_REFERS_TO_MISSING_DOCUMENT"),
        ("1", {"tabType": "signHere", "documentId": "2", "pageNumber": 3}, "TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT"),
        ("4", {"tabType": "signHere", "documentId": "1", "pageNumber": 1}, "carbonCopy recipient can't carry"),
        ("1", {"tabType": "text", "documentId": "1", "pageNumber": 1, "locked": True}, "locked text tab needs a value"),
        ("1", {"tabType": "signHere", "documentId": "1", "pageNumber": 1, "value": "x"}, "Only text tabs"),
    ],
)
def test_tabs_must_fit_their_document_and_recipient(session, recipient, tab, code):
    sign_in(session, "marco.ruiz")
    args = {"envelope_id": HARBOR, "recipient_id": recipient, "tabs_to_add": [{"tabLabel": "Field", **tab}]}
    fails(session, "add_tabs", args, "InvalidRequest", code)


def test_tabs_go_only_to_recipients_who_have_not_finished(session):
    sign_in(session, "marco.ruiz")
    tab = {"tabType": "signHere", "tabLabel": "Again", "documentId": "1", "pageNumber": 9}
    fails(
        session,
        "add_tabs",
        {"envelope_id": HARBOR, "recipient_id": "2", "tabs_to_add": [tab]},
        "Conflict",
        "INVALID_TAB_OPERATION",
    )
    added = ok(session, "add_tabs", {"envelope_id": HARBOR, "recipient_id": "1", "tabs_to_add": [tab]})["tabs"]
    assert "Again" in {t["tabLabel"] for t in added}


# ---------------------------------------------------------------- resending, reminders and expiration


def test_resend_notifies_only_who_holds_the_envelope(session):
    sign_in(session, "marco.ruiz")
    out = ok(session, "resend_envelope", {"envelope_id": HARBOR})
    assert out["notified"] == ["Jordan Lee <jordan.lee@gmial.com>"]
    sign_in(session, "aisha.khan")
    fails(session, "resend_envelope", {"envelope_id": BELMONT}, "Conflict", "ENVELOPE_INVALID_STATUS")


def test_notification_settings_check_the_warning_and_show_the_expiry(session):
    sign_in(session, "marco.ruiz")
    fails(session, "update_notification", {"envelope_id": HARBOR, "expire_warn": 120}, "InvalidRequest", "expireWarn")
    fails(session, "update_notification", {"envelope_id": HARBOR}, "InvalidRequest", "at least one setting")
    fails(
        session, "update_notification", {"envelope_id": HARBOR, "expire_after": 0}, "invalid_arguments", "expire_after"
    )
    got = ok(session, "update_notification", {"envelope_id": HARBOR, "expire_after": 30, "expire_warn": 3})
    sent = next(e["sent"] for e in SEED["envelopes"] if e["id"] == HARBOR)
    assert got["notification"]["expireDateTime"] == "2026-06-07" + sent[10:]
    sign_in(session, "lena.hoffmann")
    fails(session, "update_notification", {"envelope_id": BRIGHTCLEAN, "reminder_enabled": True}, "Conflict", "STATUS")


# ---------------------------------------------------------------- creating from templates


def test_templates_fill_roles_and_refuse_unknown_ones(session):
    sign_in(session, "lena.hoffmann")
    vendor = TEMPLATES["Vendor Services Agreement"]
    bad = {"roleName": "Buyer", "name": "X", "email": "x@y.com"}
    args = {"email_subject": "V", "template_id": vendor, "template_roles": [bad]}
    fails(session, "create_envelope", args, "InvalidRequest", "no role named Buyer")
    both = {"email_subject": "V", "template_id": vendor, "documents_to_add": [{"name": "a.pdf", "pages": 1}]}
    fails(session, "create_envelope", both, "InvalidRequest", "either a template_id or documents_to_add")
    draft = from_template(session, "Vendor Services Agreement", {"Vendor": "sam.ortiz"}, status="created")
    assert statuses(session, draft) == {"1": "created"}  # unfilled roles are dropped
    docs = ok(session, "list_documents", {"envelope_id": draft})["envelopeDocuments"]
    assert [d["name"] for d in docs] == ["Vendor Services Agreement.pdf", "W-9.pdf"]
    assert {t["tabLabel"] for t in ok(session, "list_tabs", {"envelope_id": draft, "recipient_id": "1"})["tabs"]} == {
        "Vendor signature",
        "Vendor date",
        "Vendor tax ID",
    }
