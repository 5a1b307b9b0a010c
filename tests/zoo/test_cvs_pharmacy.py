"""The CVS Pharmacy environment's tools: sign-in and caregiver access, refill status and the too-soon rule, renewals,
controlled-substance rules, transfers, orders and their cancellation, pickup and delivery terms, insurance copays,
ReadyFill, ExtraCare coupons and rewards at the counter, and vaccine eligibility, slots and appointments, with every
error path leaving the state unchanged. Runs the real tools on the real seed."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("cvs_pharmacy")
CLOCK = datetime(2025, 10, 14, 13, 30, tzinfo=timezone.utc)  # Tuesday 9:30 AM in Boston
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
DANA, TOM, SAM = "dana.whitfield@gmail.com", "tcastellano@comcast.net", "sam.okafor@icloud.com"

session = session_fixture(SPEC, CLOCK)


def pid(first: str, last: str) -> str:
    return next(p["patient_id"] for p in SEED["patients"] if (p["first_name"], p["last_name"]) == (first, last))


def rx(first: str, last: str, drug: str) -> str:
    ndcs = {d["ndc"] for d in SEED["drugs"] if d["name"].startswith(drug)}
    rows = [r for r in SEED["prescriptions"] if r["patient_id"] == pid(first, last) and r["ndc"] in ndcs]
    return max(rows, key=lambda r: r["written_date"])["rx_number"]


def slot(store: str, start: str) -> str:
    return next(s["slot_id"] for s in SEED["vaccine_slots"] if (s["store_id"], s["start"]) == (store, start))


def sign_in(session: ToolSession, email: str) -> None:
    ok(session, "sign_in", {"email": email}, caller="user")


def at(session: ToolSession, moment: datetime, email: str) -> None:
    """Restart the seed at another moment, signed in."""
    session.reset("seed", moment)
    sign_in(session, email)


def prescription(session: ToolSession, rx_number: str, patient_id: str | None = None) -> dict:
    found: list[dict] = []
    cursor = None
    while True:
        args = {
            "page_size": 15,
            **({"cursor": cursor} if cursor else {}),
            **({"patient_id": patient_id} if patient_id else {}),
        }
        page = ok(session, "list_prescriptions", args)
        found += page["results"]
        cursor = page["next_cursor"]
        if not page["has_more"]:
            return next(p for p in found if p["rx_number"] == rx_number)


# ---------------------------------------------------------------- interface, sign-in, profile and family access


def test_tools_user_only_actions_and_the_parameterless_profile(session):
    assert len(SPEC.tools) == 20
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["sign_in", "sign_pickup_log"]
    assert SPEC.tools["get_profile"].input_schema["properties"] == {}
    assert SPEC.tools["schedule_vaccine_appointment"].input_schema["properties"]["vaccines"]["uniqueItems"] is True
    refused = session.call("sign_in", {"email": DANA})
    assert not refused.ok and refused.error_kind == "user_only"
    assert session.dump()["sessions"] == {}


def test_account_tools_need_a_signed_in_user(session):
    fails(session, "get_profile", {}, "PermissionDenied", "Sign in")
    fails(session, "list_prescriptions", {}, "PermissionDenied", "Sign in")
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "couldn't find", caller="user")
    stores = ok(session, "find_stores", {"city": "Somerville"})  # the store locator is public
    assert [s["store_id"] for s in stores["results"]] == ["2047", "2052"]


def test_profile_shows_family_access_and_extracare(session):
    sign_in(session, DANA)
    profile = ok(session, "get_profile")
    family = {f["first_name"]: (f["relationship"], f["access"]) for f in profile["family_members"]}
    assert family == {
        "Owen": ("child", "active"),
        "Lily": ("child", "active"),
        "Margaret": ("parent", "active"),
        "Mark": ("spouse", "pending_authorization"),
    }
    assert (profile["extracare"]["pharmacy_credits"], profile["extracare"]["credits_to_next_reward"]) == (6, 4)
    assert profile["preferred_store"]["store_id"] == "2047"


def test_pending_and_foreign_patients_are_out_of_reach(session):
    sign_in(session, DANA)
    mark = pid("Mark", "Whitfield")
    fails(session, "list_prescriptions", {"patient_id": mark}, "PermissionDenied", "hasn't authorized")
    fails(
        session,
        "request_refill",
        {"rx_number": rx("Mark", "Whitfield", "Losartan")},
        "PermissionDenied",
        "access pending",
    )
    fails(session, "list_insurance_plans", {"patient_id": pid("Tom", "Castellano")}, "NotFound", "not on your")
    fails(session, "request_refill", {"rx_number": rx("Tom", "Castellano", "Tamsulosin")}, "NotFound", "not on your")
    listed = {p["patient_id"] for p in ok(session, "list_prescriptions", {"page_size": 15})["results"]}
    assert mark not in listed and pid("Dana", "Whitfield") in listed


def test_adding_family_members_minor_active_adult_pending(session):
    sign_in(session, "jasmine.ortiz@yahoo.com")
    base = {"first_name": "mateo", "last_name": "ORTIZ", "date_of_birth": "2021-05-02"}
    fails(session, "add_family_member", {**base, "relationship": "other"}, "InvalidRequest", "relationship 'child'")
    fails(
        session,
        "add_family_member",
        {**base, "date_of_birth": "2020-05-02", "relationship": "child"},
        "NotFound",
        "couldn't find",
    )
    fails(
        session,
        "add_family_member",
        {**base, "date_of_birth": "05/02/2021", "relationship": "child"},
        "invalid_arguments",
        "date_of_birth",
    )
    mateo = ok(session, "add_family_member", {**base, "relationship": "child"})
    assert (mateo["patient_id"], mateo["access"]) == (pid("Mateo", "Ortiz"), "active")
    assert (
        prescription(session, rx("Mateo", "Ortiz", "Montelukast"), mateo["patient_id"])["refill_status"] == "refillable"
    )
    fails(session, "add_family_member", {**base, "relationship": "child"}, "Conflict", "already on your account")
    luis = ok(
        session,
        "add_family_member",
        {"first_name": "Luis", "last_name": "Ortiz", "date_of_birth": "1989-11-30", "relationship": "spouse"},
    )
    assert luis["access"] == "pending_authorization"
    fails(session, "list_prescriptions", {"patient_id": luis["patient_id"]}, "PermissionDenied", "hasn't authorized")
    fails(
        session,
        "add_family_member",
        {"first_name": "Jasmine", "last_name": "Ortiz", "date_of_birth": "1991-08-14", "relationship": "other"},
        "InvalidRequest",
        "That's you",
    )


# ---------------------------------------------------------------- the Prescription Center


def test_refill_status_of_each_kind_of_prescription(session):
    sign_in(session, DANA)
    expected = {
        rx("Dana", "Whitfield", "Sertraline"): ("refillable", "2025-10-11"),
        rx("Dana", "Whitfield", "Levothyroxine"): ("too_soon", "2025-11-09"),
        rx("Owen", "Whitfield", "Methylphenidate"): ("new_prescription_required", "2025-10-13"),
        rx("Owen", "Whitfield", "Amoxicillin"): ("no_refills", "2025-03-11"),
        rx("Margaret", "Doyle", "Lisinopril"): ("no_refills", "2025-10-12"),
    }
    for number, (status, eligible) in expected.items():
        found = prescription(session, number)
        assert (found["refill_status"], found["refill_eligible_date"]) == (status, eligible), number
    too_soon = ok(session, "list_prescriptions", {"refill_status": "too_soon", "page_size": 15})["results"]
    assert {p["drug"].split()[0] for p in too_soon} == {"Levothyroxine", "Montelukast", "Metformin"}


def test_prescriptions_paginate(session):
    sign_in(session, DANA)
    first = ok(session, "list_prescriptions", {"page_size": 5})
    assert len(first["results"]) == 5 and first["has_more"] and first["next_cursor"] == "5"
    rest = ok(session, "list_prescriptions", {"page_size": 15, "cursor": first["next_cursor"]})
    numbers = [p["rx_number"] for p in first["results"] + rest["results"]]
    dana_family = {
        pid(*n) for n in (("Dana", "Whitfield"), ("Owen", "Whitfield"), ("Lily", "Whitfield"), ("Margaret", "Doyle"))
    }
    assert sorted(numbers) == sorted(r["rx_number"] for r in SEED["prescriptions"] if r["patient_id"] in dana_family)
    assert not rest["has_more"] and rest["next_cursor"] is None
    fails(session, "list_prescriptions", {"page_size": 16}, "invalid_arguments", "page_size")


def test_refill_for_pickup_uses_a_refill_and_bills_the_copay(session):
    sign_in(session, DANA)
    number = rx("Dana", "Whitfield", "Sertraline")
    order = ok(session, "request_refill", {"rx_number": number})
    assert (order["status"], order["fulfillment"], order["fill_date"], order["store_id"]) == (
        "received",
        "pickup",
        "2025-10-14",
        "2047",
    )
    assert (order["payment"], order["copay"], order["delivery_fee"]) == ("insurance", 1000, 0)  # BCBS tier 1
    assert order["ready_by"] == "2025-10-14T11:45"  # two hours out, on a quarter hour
    after = prescription(session, number)
    assert (after["refills_remaining"], after["refill_status"]) == (4, "in_progress")
    fails(session, "request_refill", {"rx_number": number}, "Conflict", order["order_id"])
    newest = ok(session, "list_orders", {"page_size": 1})["results"][0]
    assert newest["order_id"] == order["order_id"]


def test_pickup_after_closing_is_promised_for_the_next_opening(session):
    at(session, datetime(2025, 10, 14, 23, 30, tzinfo=timezone.utc), DANA)  # 7:30 PM, the counter closes at 9
    order = ok(session, "request_refill", {"rx_number": rx("Dana", "Whitfield", "Sertraline")})
    assert order["ready_by"] == "2025-10-15T08:00"


def test_too_soon_refill_is_refused_until_its_date(session):
    sign_in(session, DANA)
    fails(
        session,
        "request_refill",
        {"rx_number": rx("Dana", "Whitfield", "Levothyroxine")},
        "Conflict",
        "can be refilled from 2025-11-09",
    )
    carvedilol = rx("Tom", "Castellano", "Carvedilol")  # 30 days from 2025-09-22: 23 days must pass
    at(session, CLOCK, TOM)
    fails(session, "request_refill", {"rx_number": carvedilol}, "Conflict", "from 2025-10-15")
    at(session, datetime(2025, 10, 15, 13, 30, tzinfo=timezone.utc), TOM)
    assert ok(session, "request_refill", {"rx_number": carvedilol})["status"] == "received"


def test_controlled_substances_wait_for_90_percent_of_the_supply(session):
    sign_in(session, "priya.raman@gmail.com")
    zolpidem = prescription(session, rx("Priya", "Raman", "Zolpidem"))
    escitalopram = prescription(session, rx("Priya", "Raman", "Escitalopram"))
    assert (zolpidem["last_fill_date"], zolpidem["refill_eligible_date"]) == ("2025-09-10", "2025-10-07")  # 27 days
    assert (escitalopram["last_fill_date"], escitalopram["refill_eligible_date"]) == ("2025-09-25", "2025-10-18")


def test_no_refills_expired_and_schedule_ii_need_the_prescriber(session):
    sign_in(session, DANA)
    fails(
        session,
        "request_refill",
        {"rx_number": rx("Margaret", "Doyle", "Lisinopril")},
        "InvalidRequest",
        "no refills left; request a renewal",
    )
    fails(
        session,
        "request_refill",
        {"rx_number": rx("Owen", "Whitfield", "Methylphenidate")},
        "InvalidRequest",
        "schedule II",
    )
    at(session, CLOCK, "elena.petrova@gmail.com")
    estradiol = rx("Elena", "Petrova", "Estradiol")
    assert prescription(session, estradiol)["refills_remaining"] == 1
    fails(session, "request_refill", {"rx_number": estradiol}, "InvalidRequest", "expired on 2025-09-30")


def test_renewal_requests(session):
    sign_in(session, DANA)
    fails(
        session,
        "request_renewal",
        {"rx_number": rx("Dana", "Whitfield", "Sertraline")},
        "InvalidRequest",
        "still has 5 refill(s)",
    )
    lisinopril = rx("Margaret", "Doyle", "Lisinopril")
    sent = ok(session, "request_renewal", {"rx_number": lisinopril, "note": "Out in 10 days"})
    assert (sent["status"], sent["note"], sent["prescriber"]["name"]) == (
        "sent_to_prescriber",
        "Out in 10 days",
        "Elena Rossi, MD",
    )
    assert prescription(session, lisinopril)["renewal_pending"] is True
    fails(session, "request_renewal", {"rx_number": lisinopril}, "Conflict", "already waiting")
    assert ok(session, "request_renewal", {"rx_number": rx("Owen", "Whitfield", "Methylphenidate")})["note"] is None
    at(session, CLOCK, TOM)
    fails(
        session, "request_renewal", {"rx_number": rx("Tom", "Castellano", "Omeprazole")}, "Conflict", "already waiting"
    )
    at(session, CLOCK, SAM)
    fails(
        session,
        "request_renewal",
        {"rx_number": rx("Sam", "Okafor", "Hydrochlorothiazide")},
        "Conflict",
        "discontinued",
    )


# ---------------------------------------------------------------- transfers


def test_transfer_moves_the_prescription_with_its_refills(session):
    sign_in(session, "priya.raman@gmail.com")
    number = rx("Priya", "Raman", "Norgestimate")
    moved = ok(session, "transfer_prescription", {"rx_number": number, "store_id": "#1240"})
    assert (moved["store"]["store_id"], moved["refills_remaining"], moved["transfer_count"]) == ("1240", 2, 1)
    fails(
        session,
        "transfer_prescription",
        {"rx_number": number, "store_id": "1240"},
        "InvalidRequest",
        "already at store #1240",
    )
    fails(session, "transfer_prescription", {"rx_number": number, "store_id": "0233"}, "InvalidRequest", "no pharmacy")
    fails(session, "transfer_prescription", {"rx_number": number, "store_id": "9999"}, "NotFound", "Store #9999")
    order = ok(session, "request_refill", {"rx_number": number})
    assert order["store_id"] == "1240"


def test_controlled_transfer_limits(session):
    sign_in(session, "priya.raman@gmail.com")
    fails(
        session,
        "transfer_prescription",
        {"rx_number": rx("Priya", "Raman", "Zolpidem"), "store_id": "1240"},
        "Conflict",
        "already transferred once",
    )
    at(session, CLOCK, "bwalsh@gmail.com")
    tramadol = rx("Brian", "Walsh", "Tramadol")
    assert ok(session, "transfer_prescription", {"rx_number": tramadol, "store_id": "3312"})["transfer_count"] == 1
    fails(session, "transfer_prescription", {"rx_number": tramadol, "store_id": "0951"}, "Conflict", "once")
    at(session, CLOCK, DANA)
    fails(
        session,
        "transfer_prescription",
        {"rx_number": rx("Owen", "Whitfield", "Methylphenidate"), "store_id": "1129"},
        "InvalidRequest",
        "Schedule II",
    )
    fails(
        session,
        "transfer_prescription",
        {"rx_number": rx("Margaret", "Doyle", "Lisinopril"), "store_id": "1129"},
        "InvalidRequest",
        "no refills left",
    )


def test_transfer_waits_for_the_order_in_progress(session):
    sign_in(session, SAM)
    losartan = rx("Sam", "Okafor", "Losartan")
    fails(session, "transfer_prescription", {"rx_number": losartan, "store_id": "2460"}, "Conflict", "cancel it")
    ready = ok(session, "list_orders", {"rx_number": losartan, "status": "ready_for_pickup"})["results"]
    ok(session, "cancel_order", {"order_id": ready[0]["order_id"]})
    assert (
        ok(session, "transfer_prescription", {"rx_number": losartan, "store_id": "2460"})["store"]["store_id"] == "2460"
    )


# ---------------------------------------------------------------- orders


def test_cancelling_an_order_returns_its_refill(session):
    sign_in(session, SAM)
    losartan = rx("Sam", "Okafor", "Losartan")
    ready = ok(session, "list_orders", {"rx_number": losartan})["results"][0]
    assert ready["status"] == "ready_for_pickup"
    cancelled = ok(session, "cancel_order", {"order_id": ready["order_id"]})
    assert cancelled["status"] == "cancelled"
    after = prescription(session, losartan)
    assert (after["refills_remaining"], after["refill_status"], after["last_fill_date"]) == (
        6,
        "refillable",
        "2025-09-11",
    )
    fails(session, "cancel_order", {"order_id": ready["order_id"]}, "Conflict", "cancelled and can't be cancelled")
    picked = ok(session, "list_orders", {"rx_number": losartan, "status": "picked_up"})["results"][0]
    fails(session, "cancel_order", {"order_id": picked["order_id"]}, "Conflict", "picked up")
    others = next(o for o in SEED["orders"] if o["patient_id"] == pid("Tom", "Castellano"))
    fails(session, "cancel_order", {"order_id": others["order_id"]}, "NotFound", "not found")


def test_the_first_fill_of_a_new_prescription_is_not_a_refill(session):
    at(session, datetime(2025, 10, 14, 15, 10, tzinfo=timezone.utc), "alicia.brooks@gmail.com")
    azithromycin = rx("Alicia", "Brooks", "Azithromycin")
    assert prescription(session, azithromycin)["refill_status"] == "not_yet_filled"
    fails(session, "request_refill", {"rx_number": azithromycin}, "InvalidRequest", "No active insurance")
    order = ok(session, "request_refill", {"rx_number": azithromycin, "payment": "cash"})
    assert (order["copay"], session.dump()["orders"][order["order_id"]]["is_refill"]) == (1500, False)
    assert prescription(session, azithromycin)["refills_remaining"] == 0
    ok(session, "cancel_order", {"order_id": order["order_id"]})
    after = prescription(session, azithromycin)
    assert (after["refills_remaining"], after["refill_status"]) == (0, "not_yet_filled")


def test_list_orders_filters_newest_first(session):
    sign_in(session, TOM)
    first = ok(session, "list_orders", {"page_size": 10})
    rest = ok(session, "list_orders", {"page_size": 10, "cursor": first["next_cursor"]})
    dates = [o["fill_date"] for o in first["results"] + rest["results"]]
    assert dates == sorted(dates, reverse=True) and first["has_more"] and not rest["has_more"]
    assert len(dates) == sum(o["patient_id"] == pid("Tom", "Castellano") for o in SEED["orders"])
    ready = ok(session, "list_orders", {"status": "ready_for_pickup"})["results"]
    assert [(o["drug"], o["copay"]) for o in ready] == [("Apixaban 5 mg tablet", 800)]


# ---------------------------------------------------------------- delivery and payment


def test_controlled_substances_are_pickup_only(session):
    sign_in(session, "bwalsh@gmail.com")
    tramadol = rx("Brian", "Walsh", "Tramadol")
    fails(
        session,
        "request_refill",
        {"rx_number": tramadol, "fulfillment": "delivery"},
        "InvalidRequest",
        "can't be delivered",
    )
    assert ok(session, "request_refill", {"rx_number": tramadol})["fulfillment"] == "pickup"


def test_same_day_delivery_fee_cutoff_and_stores(session):
    sign_in(session, DANA)
    sertraline = rx("Dana", "Whitfield", "Sertraline")
    fails(
        session,
        "request_refill",
        {"rx_number": sertraline, "delivery_instructions": "Ring twice"},
        "InvalidRequest",
        "only apply to delivery",
    )
    order = ok(
        session,
        "request_refill",
        {
            "rx_number": sertraline,
            "fulfillment": "delivery",
            "delivery_speed": "same_day",
            "delivery_instructions": "Ring twice",
        },
    )
    assert (order["delivery_fee"], order["delivery_address"], order["delivery_instructions"], order["ready_by"]) == (
        899,
        "41 Highland Ave, Apt 2, Somerville, MA 02143",
        "Ring twice",
        "2025-10-14T20:00",
    )
    at(session, datetime(2025, 10, 14, 18, 5, tzinfo=timezone.utc), DANA)  # 2:05 PM
    fails(
        session,
        "request_refill",
        {"rx_number": sertraline, "fulfillment": "delivery", "delivery_speed": "same_day"},
        "InvalidRequest",
        "by 2:00 PM",
    )
    standard = ok(session, "request_refill", {"rx_number": sertraline, "fulfillment": "delivery"})
    assert (standard["delivery_speed"], standard["delivery_fee"]) == ("standard", 0)
    at(session, CLOCK, SAM)  # Fields Corner has no same-day delivery
    fails(
        session,
        "request_refill",
        {"rx_number": rx("Sam", "Okafor", "Montelukast"), "fulfillment": "delivery", "delivery_speed": "same_day"},
        "InvalidRequest",
        "doesn't offer same-day",
    )


def test_carepass_members_get_free_same_day_delivery(session):
    at(session, datetime(2025, 10, 14, 15, 10, tzinfo=timezone.utc), "alicia.brooks@gmail.com")
    order = ok(
        session,
        "request_refill",
        {
            "rx_number": rx("Alicia", "Brooks", "Bupropion"),
            "fulfillment": "delivery",
            "delivery_speed": "same_day",
            "payment": "cash",
        },
    )
    assert (order["delivery_fee"], order["copay"], order["insurance_plan_id"]) == (0, 4500, None)


def test_insurance_plan_choice_and_copays(session):
    sign_in(session, "marcus.bell@outlook.com")
    jardiance = rx("Marcus", "Bell", "Empagliflozin")
    plans = {p["status"]: p for p in ok(session, "list_insurance_plans", {"patient_id": pid("Marcus", "Bell")})}
    fails(
        session,
        "request_refill",
        {"rx_number": jardiance, "insurance_plan_id": plans["terminated"]["plan_id"]},
        "InvalidRequest",
        "coverage ended on 2025-09-30",
    )
    fails(
        session,
        "request_refill",
        {"rx_number": jardiance, "payment": "cash", "insurance_plan_id": plans["active"]["plan_id"]},
        "InvalidRequest",
        "only when",
    )
    foreign = next(p["plan_id"] for p in SEED["insurance_plans"] if p["patient_id"] == pid("Tom", "Castellano"))
    fails(
        session,
        "request_refill",
        {"rx_number": jardiance, "insurance_plan_id": foreign},
        "InvalidRequest",
        "another patient",
    )
    order = ok(session, "request_refill", {"rx_number": jardiance})
    assert (order["insurance_plan_id"], order["copay"]) == (plans["active"]["plan_id"], 4000)  # HPHC tier 2


def test_a_tier_the_plan_does_not_cover_must_be_paid_in_cash(session):
    def drop_tier_two(tables):
        plan = next(
            p for p in tables["insurance_plans"] if p["patient_id"] == pid("Marcus", "Bell") and p["status"] == "active"
        )
        del plan["copays"]["2"]

    restore_seed_with(session, drop_tier_two, CLOCK)
    sign_in(session, "marcus.bell@outlook.com")
    jardiance = rx("Marcus", "Bell", "Empagliflozin")
    fails(session, "request_refill", {"rx_number": jardiance}, "InvalidRequest", "doesn't cover Empagliflozin")
    assert ok(session, "request_refill", {"rx_number": jardiance, "payment": "cash"})["copay"] == 30 * 2150


# ---------------------------------------------------------------- ReadyFill


def test_readyfill_enrollment_rules(session):
    sign_in(session, DANA)
    sertraline = rx("Dana", "Whitfield", "Sertraline")
    assert ok(session, "set_readyfill", {"rx_number": sertraline, "enabled": True})["readyfill"] is True
    fails(session, "set_readyfill", {"rx_number": sertraline, "enabled": True}, "Conflict", "already enrolled")
    assert ok(session, "set_readyfill", {"rx_number": sertraline, "enabled": False})["readyfill"] is False
    fails(
        session,
        "set_readyfill",
        {"rx_number": rx("Owen", "Whitfield", "Methylphenidate"), "enabled": True},
        "InvalidRequest",
        "Controlled substances",
    )
    fails(
        session,
        "set_readyfill",
        {"rx_number": rx("Margaret", "Doyle", "Lisinopril"), "enabled": True},
        "InvalidRequest",
        "no refills",
    )
    fails(
        session,
        "set_readyfill",
        {"rx_number": rx("Owen", "Whitfield", "Montelukast"), "enabled": True},
        "Conflict",
        "already enrolled",
    )


# ---------------------------------------------------------------- at the counter and ExtraCare


def test_signing_the_pickup_log_earns_the_pharmacy_reward(session):
    sign_in(session, TOM)
    eliquis = rx("Tom", "Castellano", "Apixaban")
    refused = session.call("sign_pickup_log", {"rx_number": eliquis})
    assert not refused.ok and refused.error_kind == "user_only"
    receipt = ok(session, "sign_pickup_log", {"rx_number": eliquis}, caller="user")
    assert (receipt["order"]["status"], receipt["pharmacy_credits"]) == ("picked_up", 0)
    reward = receipt["reward"]
    assert (reward["amount_off"], reward["kind"], reward["status"], reward["expires"]) == (
        500,
        "extrabucks",
        "available",
        "2025-11-13",
    )
    assert ok(session, "get_profile")["extracare"]["credits_to_next_reward"] == 10
    assert ok(session, "send_coupon_to_card", {"coupon_id": reward["coupon_id"]})["status"] == "on_card"
    fails(session, "sign_pickup_log", {"rx_number": eliquis}, "Conflict", "Nothing is ready", caller="user")


def test_controlled_pickup_needs_photo_id(session):
    sign_in(session, "kevin.nguyen@gmail.com")
    adderall = rx("Kevin", "Nguyen", "Amphetamine")
    fails(session, "sign_pickup_log", {"rx_number": adderall}, "PermissionDenied", "Photo ID", caller="user")
    receipt = ok(session, "sign_pickup_log", {"rx_number": adderall, "photo_id_shown": True}, caller="user")
    assert (receipt["pharmacy_credits"], receipt["reward"]) == (6, None)
    assert prescription(session, adderall)["refill_status"] == "new_prescription_required"


def test_coupons_expire_and_go_to_the_card_once(session):
    sign_in(session, TOM)
    coupons = ok(session, "list_extracare_coupons", {"page_size": 25})["results"]
    by_text = {(c["description"], c["expires"]): c for c in coupons}
    expired = by_text[("40% off one CVS Health vitamin or supplement", "2025-10-12")]
    assert expired["status"] == "expired"
    fails(session, "send_coupon_to_card", {"coupon_id": expired["coupon_id"]}, "Conflict", "expired on 2025-10-12")
    on_card = next(c for c in coupons if c["status"] == "on_card")
    fails(session, "send_coupon_to_card", {"coupon_id": on_card["coupon_id"]}, "Conflict", "already on card")
    redeemed = next(c for c in coupons if c["status"] == "redeemed")
    fails(session, "send_coupon_to_card", {"coupon_id": redeemed["coupon_id"]}, "Conflict", "already redeemed")
    vitamins = by_text[("$3 off $10 CVS Health vitamins", "2025-10-26")]
    assert ok(session, "send_coupon_to_card", {"coupon_id": vitamins["coupon_id"]})["status"] == "on_card"
    foreign = next(c for c in SEED["coupons"] if c["coupon_id"] not in {x["coupon_id"] for x in coupons})
    fails(session, "send_coupon_to_card", {"coupon_id": foreign["coupon_id"]}, "NotFound", "not found")
    page = ok(session, "list_extracare_coupons", {"page_size": 5, "status": "available"})
    assert page["has_more"] and all(c["status"] == "available" for c in page["results"])
    expiries = [c["expires"] for c in page["results"]]
    assert expiries == sorted(expiries)


# ---------------------------------------------------------------- stores


def test_store_hours_lunch_breaks_and_filters(session):
    at(session, datetime(2025, 10, 14, 17, 40, tzinfo=timezone.utc), "priya.raman@gmail.com")  # 1:40 PM, lunch
    newton = {s["store_id"]: s for s in ok(session, "find_stores", {"city": "newton"})["results"]}
    assert set(newton) == {"0471", "0480", "0488"}
    assert newton["0471"]["pharmacy_hours"]["sun"] == "Closed"
    assert newton["0480"]["pharmacy_hours"]["sun"] == "10:00-13:30, 14:00-18:00"
    boston = {s["store_id"]: s for s in ok(session, "find_stores", {"city": "Boston", "page_size": 15})["results"]}
    assert boston["0914"]["pharmacy_open_now"] is False  # lunch break 1:30-2:00
    assert boston["0585"]["pharmacy_open_now"] is True and boston["0585"]["store_hours"]["mon"] == "Open 24 hours"
    assert boston["0233"]["has_pharmacy"] is False
    nightly = ok(session, "find_stores", {"service": "24_hour_pharmacy"})["results"]
    assert {s["store_id"] for s in nightly} == {"1186", "0585", "3310", "4102"}
    assert [s["store_id"] for s in ok(session, "find_stores", {"zip_code": "02906"})["results"]] == ["4101"]


# ---------------------------------------------------------------- vaccines


def test_vaccine_eligibility_rules(session):
    sign_in(session, DANA)
    margaret, owen, lily = pid("Margaret", "Doyle"), pid("Owen", "Whitfield"), pid("Lily", "Whitfield")
    shingrix = ok(session, "check_vaccine_eligibility", {"patient_id": margaret, "vaccine": "shingrix"})
    assert (shingrix["eligible"], shingrix["dose_number"], shingrix["next_eligible_date"]) == (False, 2, "2025-10-27")
    later = ok(
        session, "check_vaccine_eligibility", {"patient_id": margaret, "vaccine": "shingrix", "on_date": "2025-10-27"}
    )
    assert (later["eligible"], later["reason"]) == (True, "Eligible for dose 2 of 2.")
    assert (
        "50 and older"
        in ok(session, "check_vaccine_eligibility", {"patient_id": owen, "vaccine": "shingrix"})["reason"]
    )
    assert ok(session, "check_vaccine_eligibility", {"patient_id": lily, "vaccine": "hpv"})["eligible"] is True
    assert ok(session, "check_vaccine_eligibility", {"patient_id": owen, "vaccine": "flu"})["eligible"] is True
    fails(
        session,
        "check_vaccine_eligibility",
        {"patient_id": owen, "vaccine": "flu", "on_date": "next week"},
        "invalid_arguments",
        "on_date",
    )
    at(session, CLOCK, TOM)
    tom = pid("Tom", "Castellano")
    assert (
        "Already received this season's"
        in ok(session, "check_vaccine_eligibility", {"patient_id": tom, "vaccine": "flu"})["reason"]
    )
    assert (
        "already complete"
        in ok(session, "check_vaccine_eligibility", {"patient_id": tom, "vaccine": "pneumococcal"})["reason"]
    )
    tdap = ok(session, "check_vaccine_eligibility", {"patient_id": tom, "vaccine": "tdap"})
    assert (tdap["eligible"], tdap["next_eligible_date"]) == (False, "2029-06-01")
    at(session, CLOCK, SAM)
    booked = ok(session, "check_vaccine_eligibility", {"patient_id": pid("Sam", "Okafor"), "vaccine": "flu"})
    assert booked["eligible"] is False and booked["scheduled_appointment_id"] is not None


def test_slot_search_shows_only_open_future_times(session):
    sign_in(session, DANA)
    saturday = ok(session, "search_vaccine_slots", {"store_id": "2047", "date": "2025-10-18", "vaccine": "flu"})
    starts = {s["start"]: s["available"] for s in saturday}
    assert "2025-10-18T10:00" not in starts and starts["2025-10-18T10:30"] == 2
    fails(
        session,
        "search_vaccine_slots",
        {"store_id": "1186", "date": "2025-10-18", "vaccine": "hpv"},
        "InvalidRequest",
        "doesn't give hpv",
    )
    fails(
        session,
        "search_vaccine_slots",
        {"store_id": "2047", "date": "2025-10-13", "vaccine": "flu"},
        "InvalidRequest",
        "Choose a day",
    )
    at(session, datetime(2025, 10, 14, 19, 10, tzinfo=timezone.utc), DANA)  # 3:10 PM
    today = ok(session, "search_vaccine_slots", {"store_id": "2047", "date": "2025-10-14", "vaccine": "flu"})
    assert today and all(s["start"] > "2025-10-14T15:10" for s in today)


def test_booking_fills_slots_and_checks_each_vaccine(session):
    sign_in(session, DANA)
    owen, lily, margaret = pid("Owen", "Whitfield"), pid("Lily", "Whitfield"), pid("Margaret", "Doyle")
    ten_thirty = slot("2047", "2025-10-18T10:30")
    fails(
        session,
        "schedule_vaccine_appointment",
        {"patient_id": margaret, "slot_id": ten_thirty, "vaccines": ["flu", "shingrix"]},
        "InvalidRequest",
        "isn't eligible for shingrix",
    )
    fails(
        session,
        "schedule_vaccine_appointment",
        {"patient_id": owen, "slot_id": ten_thirty, "vaccines": []},
        "invalid_arguments",
        "one to three",
    )
    booked = ok(
        session, "schedule_vaccine_appointment", {"patient_id": owen, "slot_id": ten_thirty, "vaccines": ["flu"]}
    )
    assert (booked["status"], booked["start"], booked["store"]["store_id"]) == ("scheduled", "2025-10-18T10:30", "2047")
    fails(
        session,
        "schedule_vaccine_appointment",
        {"patient_id": owen, "slot_id": slot("2047", "2025-10-18T11:00"), "vaccines": ["flu"]},
        "Conflict",
        "already has flu booked",
    )
    ok(session, "schedule_vaccine_appointment", {"patient_id": lily, "slot_id": ten_thirty, "vaccines": ["hpv", "flu"]})
    assert session.dump()["vaccine_slots"][ten_thirty]["booked"] == 3
    fails(
        session,
        "schedule_vaccine_appointment",
        {"patient_id": margaret, "slot_id": ten_thirty, "vaccines": ["flu"]},
        "Conflict",
        "no longer available",
    )
    fails(
        session,
        "schedule_vaccine_appointment",
        {"patient_id": margaret, "slot_id": slot("2460", "2025-10-18T11:00"), "vaccines": ["hpv"]},
        "InvalidRequest",
        "doesn't give hpv",
    )
    mine = ok(session, "list_vaccine_appointments", {"status": "scheduled"})
    assert sorted(a["patient_id"] for a in mine) == sorted([owen, lily])


def test_cancelling_an_appointment_frees_its_place(session):
    sign_in(session, SAM)
    appointment = ok(session, "list_vaccine_appointments", {"status": "scheduled"})[0]
    before = session.dump()["vaccine_slots"][slot("2458", "2025-10-16T10:00")]["booked"]
    assert (
        ok(session, "cancel_vaccine_appointment", {"appointment_id": appointment["appointment_id"]})["status"]
        == "cancelled"
    )
    assert session.dump()["vaccine_slots"][slot("2458", "2025-10-16T10:00")]["booked"] == before - 1
    fails(
        session,
        "cancel_vaccine_appointment",
        {"appointment_id": appointment["appointment_id"]},
        "Conflict",
        "cancelled and can't be cancelled",
    )
    again = ok(
        session,
        "schedule_vaccine_appointment",
        {"patient_id": pid("Sam", "Okafor"), "slot_id": slot("2460", "2025-10-18T11:00"), "vaccines": ["flu"]},
    )
    assert again["store"]["store_id"] == "2460"
    foreign = next(a for a in SEED["vaccine_appointments"] if a["patient_id"] == pid("Hannah", "Lee"))
    fails(session, "cancel_vaccine_appointment", {"appointment_id": foreign["appointment_id"]}, "NotFound", "not found")


def test_started_appointments_cannot_be_cancelled_online(session):
    at(session, datetime(2025, 10, 16, 14, 5, tzinfo=timezone.utc), SAM)  # 10:05 AM on the day
    appointment = ok(session, "list_vaccine_appointments", {"status": "scheduled"})[0]
    fails(
        session,
        "cancel_vaccine_appointment",
        {"appointment_id": appointment["appointment_id"]},
        "Conflict",
        "already started",
    )
    fails(
        session,
        "schedule_vaccine_appointment",
        {"patient_id": pid("Sam", "Okafor"), "slot_id": slot("2458", "2025-10-16T10:00"), "vaccines": ["flu"]},
        "InvalidRequest",
        "already passed",
    )


def test_bounds_live_in_the_argument_types(session):
    schemas = {name: t.input_schema["properties"] for name, t in SPEC.tools.items()}
    assert schemas["list_prescriptions"]["page_size"]["maximum"] == 15
    assert schemas["list_orders"]["page_size"]["maximum"] == 25
    visit = schemas["schedule_vaccine_appointment"]["vaccines"]
    assert (visit["minItems"], visit["maxItems"], visit["uniqueItems"]) == (1, 3, True)
    assert "pattern" in schemas["search_vaccine_slots"]["date"]
    fails(session, "find_stores", {"zip_code": "0214"}, "invalid_arguments", "5-digit ZIP code")
    fails(session, "list_extracare_coupons", {"page_size": 26}, "invalid_arguments", "page_size")
    fails(
        session,
        "search_vaccine_slots",
        {"store_id": "2047", "date": "2025-02-30", "vaccine": "flu"},
        "InvalidRequest",
        "not a valid date",
    )
