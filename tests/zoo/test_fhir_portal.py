"""The FHIR portal's tools on the real seed: sign-in and proxy charts (a teenager's limited chart, revoked and
pending grants), booking (free future slots only, booked with the care team, proposed with a new practitioner,
refused with one not accepting new patients, no overlaps), the 24-hour online cancellation cut-off, refill rules
(controlled substances, no refills left, an ended validity period, a pending request, too soon) and renewals,
released results only, messages only to the care team and replies in a thread, allergies (duplicates, confirmed
entries locked) and contact updates. Every error path is checked to leave the state unchanged."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("fhir_portal")
CLOCK = datetime(2026, 3, 10, 15, 0, tzinfo=timezone.utc)

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, username: str = "dana.whitfield") -> dict:
    return ok(session, "sign_in", {"username": username}, caller="user")


def charts(session: ToolSession) -> dict[str, str]:
    return {p["id"]: p["accessScope"] for p in ok(session, "list_patients")["entry"]}


# ---------------------------------------------------------------- sign-in and proxy access


def test_tools_need_a_signed_in_account(session: ToolSession) -> None:
    fails(session, "list_patients", {}, "PermissionDenied", "not signed in")
    fails(session, "sign_in", {"username": "nobody"}, "NotFound", "incorrect", caller="user")


def test_sign_in_is_user_only(session: ToolSession) -> None:
    outcome = session.call("sign_in", {"username": "dana.whitfield"}, caller="agent")
    assert not outcome.ok


def test_proxy_charts_and_a_teenagers_limited_scope(session: ToolSession) -> None:
    sign_in(session, "Dana.Whitfield")
    assert charts(session) == {"pat-1001": "full", "pat-1002": "full", "pat-1003": "limited", "pat-1004": "full"}
    fails(session, "list_observations", {"patient_id": "pat-1003"}, "PermissionDenied", "limited for ages 12-17")
    fails(session, "list_messages", {"patient_id": "pat-1003"}, "PermissionDenied", "messaging")
    fails(
        session,
        "send_message",
        {
            "patient_id": "pat-1003",
            "practitioner_id": "prac-2002",
            "category": "medication",
            "subject": "Dose",
            "text": "Too strong?",
        },
        "PermissionDenied",
        "limited",
    )
    assert ok(session, "list_allergies", {"patient_id": "pat-1003"})["total"] == 1  # still readable


def test_revoked_and_pending_grants_open_nothing(session: ToolSession) -> None:
    sign_in(session, "tomas.alvarez")
    assert set(charts(session)) == {"pat-1030"}
    fails(session, "list_coverage", {"patient_id": "pat-1031"}, "NotFound", "Patient/pat-1031")
    fails(session, "get_medication_request", {"medication_request_id": "medrx-0001"}, "NotFound", "not known")


def test_expired_grant_is_hidden(session: ToolSession) -> None:
    restore_seed_with(
        session,
        lambda t: next(g for g in t["proxy_access"] if g["id"] == "prx-03").update(expires="2026-03-01"),
        CLOCK,
    )
    sign_in(session)
    assert "pat-1004" not in charts(session)


# ---------------------------------------------------------------- slots and appointments


def test_search_slots_lists_only_free_future_slots_in_order(session: ToolSession) -> None:
    sign_in(session)
    found = ok(session, "search_slots", {"practitioner_id": "prac-2004", "count": 50})["entry"]
    assert found and all(s["status"] == "free" and s["start"] > "2026-03-10T15:00:00Z" for s in found)
    assert [s["start"] for s in found] == sorted(s["start"] for s in found)
    fails(session, "search_slots", {"count": 51}, "invalid_arguments", "count")


def test_booking_with_the_care_team_is_booked_and_takes_the_slot(session: ToolSession) -> None:
    sign_in(session)
    appt = ok(session, "book_appointment", {"patient_id": "pat-1002", "slot_id": "slot-10039", "reason": "Ear pain"})
    assert (appt["status"], appt["practitioner"]["reference"], appt["slot"]["reference"]) == (
        "booked",
        "Practitioner/prac-2002",
        "Slot/slot-10039",
    )
    assert "slot-10039" not in {
        s["id"] for s in ok(session, "search_slots", {"practitioner_id": "prac-2002", "count": 50})["entry"]
    }
    fails(
        session,
        "book_appointment",
        {"patient_id": "pat-1001", "slot_id": "slot-10039", "reason": "x"},
        "Conflict",
        "no longer available",
    )


def test_booking_a_new_practitioner_is_a_proposed_request(session: ToolSession) -> None:
    sign_in(session)
    appt = ok(session, "book_appointment", {"patient_id": "pat-1002", "slot_id": "slot-10431", "reason": "Ear"})
    assert appt["status"] == "proposed"
    cancelled = ok(session, "cancel_appointment", {"appointment_id": appt["id"], "reason": "rescheduled"})
    assert cancelled["status"] == "cancelled"
    assert "slot-10431" in {
        s["id"] for s in ok(session, "search_slots", {"practitioner_id": "prac-2015", "count": 50})["entry"]
    }


def test_practitioner_not_accepting_new_patients_refuses(session: ToolSession) -> None:
    sign_in(session, "tomas.alvarez")
    fails(
        session,
        "book_appointment",
        {"patient_id": "pat-1030", "slot_id": "slot-10268", "reason": "A1c"},
        "Conflict",
        "isn't accepting new patients",
    )


def test_overlapping_booking_and_past_slots_are_refused(session: ToolSession) -> None:
    restore_seed_with(
        session,
        lambda t: t["slots"].append(
            dict(
                next(s for s in t["slots"] if s["id"] == "slot-10088"),
                id="slot-99999",
                start="2026-03-16T16:15:00Z",
                end="2026-03-16T16:45:00Z",
            )
        ),
        CLOCK,
    )
    sign_in(session)
    ok(session, "book_appointment", {"patient_id": "pat-1004", "slot_id": "slot-10088", "reason": "Heart"})
    fails(
        session,
        "book_appointment",
        {"patient_id": "pat-1004", "slot_id": "slot-99999", "reason": "Heart"},
        "Conflict",
        "already has an appointment",
    )
    fails(
        session,
        "book_appointment",
        {"patient_id": "pat-1001", "slot_id": "slot-10001", "reason": "x"},
        "Conflict",
        "no longer available",
    )  # 2026-03-09, in the past


def test_cancellation_closes_24_hours_before_the_start(session: ToolSession) -> None:
    sign_in(session)
    fails(
        session,
        "cancel_appointment",
        {"appointment_id": "appt-0005", "reason": "schedule-conflict"},
        "Conflict",
        "within 24 hours",
    )
    fails(session, "cancel_appointment", {"appointment_id": "appt-0001", "reason": "other"}, "Conflict", "fulfilled")
    fails(session, "cancel_appointment", {"appointment_id": "appt-0015", "reason": "other"}, "NotFound", "not known")
    assert ok(session, "cancel_appointment", {"appointment_id": "appt-0006", "reason": "other"})["status"] == (
        "cancelled"
    )


# ---------------------------------------------------------------- prescriptions


def test_refill_rules(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "request_refill", {"medication_request_id": "medrx-0003"}, "InvalidRequest", "controlled")
    fails(session, "request_refill", {"medication_request_id": "medrx-0002"}, "Conflict", "No refills remain")
    fails(session, "request_refill", {"medication_request_id": "medrx-0012"}, "Conflict", "expired on 2026-02-01")
    fails(session, "request_refill", {"medication_request_id": "medrx-0011"}, "Conflict", "Too soon")
    fails(session, "request_refill", {"medication_request_id": "medrx-0004"}, "Conflict", "completed")
    task = ok(session, "request_refill", {"medication_request_id": "medrx-0001"})
    assert (task["kind"], task["status"], task["pharmacy"]) == (
        "refill",
        "requested",
        "CVS Pharmacy - SE Hawthorne Blvd",
    )
    after = ok(session, "get_medication_request", {"medication_request_id": "medrx-0001"})
    assert after["dispenseRequest"]["refillsRemaining"] == 1 and after["pendingRequests"] == [task["id"]]
    fails(session, "request_refill", {"medication_request_id": "medrx-0001"}, "Conflict", "already requested")


def test_refill_goes_to_the_preferred_pharmacy(session: ToolSession) -> None:
    sign_in(session)
    ok(session, "update_patient_contact", {"patient_id": "pat-1004", "preferred_pharmacy": "Walgreens - Hawthorne"})
    assert ok(session, "request_refill", {"medication_request_id": "medrx-0014"})["pharmacy"] == "Walgreens - Hawthorne"


def test_renewal_rules(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "request_renewal", {"medication_request_id": "medrx-0001"}, "Conflict", "Request a refill instead")
    fails(session, "request_renewal", {"medication_request_id": "medrx-0013"}, "Conflict", "stopped")
    assert ok(session, "request_renewal", {"medication_request_id": "medrx-0008"})["kind"] == "renewal"  # schedule II
    assert ok(session, "request_renewal", {"medication_request_id": "medrx-0010"})["kind"] == "renewal"  # ends 3/25
    fails(session, "request_renewal", {"medication_request_id": "medrx-0008"}, "Conflict", "already requested")


def test_a_pending_seed_refill_blocks_another(session: ToolSession) -> None:
    sign_in(session, "priya.raman")
    fails(session, "request_refill", {"medication_request_id": "medrx-0020"}, "Conflict", "2026-03-08")


# ---------------------------------------------------------------- results


def test_only_released_results_are_visible(session: ToolSession) -> None:
    sign_in(session)
    seen = ok(session, "list_observations", {"patient_id": "pat-1001"})["entry"]
    assert seen and all(o["report"] != "CBC" for o in seen)  # the March CBC is not released yet
    assert [o["effectiveDateTime"] for o in seen] == sorted((o["effectiveDateTime"] for o in seen), reverse=True)
    fails(session, "get_observation", {"observation_id": "obs-00007"}, "NotFound", "not known")
    tsh = ok(session, "list_observations", {"patient_id": "pat-1001", "loinc": "3016-3"})["entry"][0]
    assert (tsh["valueQuantity"]["value"], tsh["interpretation"]["coding"][0]["code"]) == (5.8, "H")
    assert tsh["code"]["coding"][0]["system"] == "http://loinc.org"
    flagged = ok(session, "list_observations", {"patient_id": "pat-1004", "abnormal_only": True})["entry"]
    assert flagged and all(o["interpretation"]["coding"][0]["code"] != "N" for o in flagged)
    fails(session, "list_observations", {"patient_id": "pat-1001", "loinc": "TSH"}, "invalid_arguments", "LOINC")


# ---------------------------------------------------------------- messages


def test_messages_go_only_to_the_care_team(session: ToolSession) -> None:
    sign_in(session)
    team = {m["practitioner"]["id"] for m in ok(session, "list_care_team", {"patient_id": "pat-1001"})["entry"]}
    assert team == {"prac-2001", "prac-2005"}  # Dr. Petrov was last seen in 2022
    fails(
        session,
        "send_message",
        {
            "patient_id": "pat-1001",
            "practitioner_id": "prac-2013",
            "category": "appointment",
            "subject": "Exam",
            "text": "Hi",
        },
        "PermissionDenied",
        "care team",
    )


def test_reply_in_a_thread_marks_it_read(session: ToolSession) -> None:
    sign_in(session)
    assert ok(session, "list_messages", {"patient_id": "pat-1001", "unread_only": True})["total"] == 1
    sent = ok(
        session,
        "send_message",
        {
            "patient_id": "pat-1001",
            "practitioner_id": "prac-2001",
            "category": "medication",
            "subject": "TSH",
            "text": "Dose up?",
            "thread_id": "thread-0902",
        },
    )
    assert sent["thread"] == "thread-0902" and sent["recipient"]["reference"] == "Practitioner/prac-2001"
    assert ok(session, "list_messages", {"patient_id": "pat-1001", "unread_only": True})["total"] == 0
    fails(
        session,
        "send_message",
        {
            "patient_id": "pat-1001",
            "practitioner_id": "prac-2005",
            "category": "medication",
            "subject": "TSH",
            "text": "x",
            "thread_id": "thread-0902",
        },
        "InvalidRequest",
        "another practitioner",
    )
    fails(
        session,
        "send_message",
        {
            "patient_id": "pat-1001",
            "practitioner_id": "prac-2001",
            "category": "medication",
            "subject": "TSH",
            "text": "   ",
        },
        "invalid_arguments",
        "1-2000 characters",
    )


# ---------------------------------------------------------------- allergies, coverage, contact


def test_allergy_rules(session: ToolSession) -> None:
    sign_in(session)
    added = ok(
        session,
        "add_allergy",
        {"patient_id": "pat-1002", "substance": "Amoxicillin", "category": "medication", "criticality": "low"},
    )
    assert (added["verificationStatus"], added["code"]["coding"][0]["code"]) == ("unconfirmed", "308182")
    fails(
        session,
        "add_allergy",
        {"patient_id": "pat-1002", "substance": "peanut", "category": "food", "criticality": "high"},
        "Conflict",
        "already on the allergy list",
    )
    fails(
        session,
        "update_allergy_status",
        {"allergy_id": "alg-0003", "clinical_status": "resolved"},
        "PermissionDenied",
        "confirmed by the care team",
    )
    ok(session, "update_allergy_status", {"allergy_id": "alg-0004", "clinical_status": "resolved"})
    fails(
        session,
        "update_allergy_status",
        {"allergy_id": "alg-0004", "clinical_status": "resolved"},
        "Conflict",
        "already resolved",
    )
    active = {a["code"]["text"] for a in ok(session, "list_allergies", {"patient_id": "pat-1002"})["entry"]}
    assert "Cashew nut" not in active and "Amoxicillin" in active


def test_contact_update_validates_and_needs_a_field(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "update_patient_contact", {"patient_id": "pat-1001"}, "InvalidRequest", "at least one")
    fails(
        session,
        "update_patient_contact",
        {"patient_id": "pat-1001", "phone": "503-555-0100"},
        "invalid_arguments",
        "+15035550123",
    )
    assert ok(session, "update_patient_contact", {"patient_id": "pat-1001", "phone": "+15035550100"})["phone"] == (
        "+15035550100"
    )


def test_coverage_lists_active_and_ended_plans(session: ToolSession) -> None:
    sign_in(session)
    plans = {c["payor"]: c["status"] for c in ok(session, "list_coverage", {"patient_id": "pat-1001"})["entry"]}
    assert plans == {"Providence Health Plan": "active", "Moda Health": "cancelled"}
