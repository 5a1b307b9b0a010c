"""Eventbrite's business rules, each with a test that can fail: sign-in and who may see or change what, event
status from the clock, publishing and cancelling, refund-policy and price locks, ticket sales windows, per-order
limits and capacity (the event's shared cap included), hidden tickets and access codes, discount codes (scope,
dates, uses), Eventbrite's fee, refund requests under the organizer's policy, organizer refunds, and failures that
change nothing."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("eventbrite")
NOON = datetime(2026, 6, 1, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
PASSWORDS = {row["email"]: row["password"] for row in SEED["users"]}

ROOFTOP1, ROOFTOP2, BRASS, BRUNCH, SUNSET, BLUES, VOL3 = (f"8712000000{n:02d}" for n in (1, 2, 3, 4, 8, 9, 10))
JUNE_MEETUP, AI_WORKSHOP, BREAKFAST, SUMMIT, PITCH, BOOTCAMP = (f"8712000000{n:02d}" for n in (11, 13, 14, 15, 18, 19))
SOURDOUGH_14, SOURDOUGH_28, FARM, OYSTER, TOMATO = (f"8712000000{n:02d}" for n in (20, 21, 22, 24, 27))
DANA, PRIYA, ELENA = "dana@harborlightsproductions.com", "priya@techmornings.org", "elena@greentablesupper.com"

session = session_fixture(SPEC, NOON)


def sign_in(session: ToolSession, email: str) -> dict[str, Any]:
    return ok(session, "sign_in", {"email": email, "password": PASSWORDS[email]}, caller="user")


def classes(session: ToolSession, event_id: str, **extra: Any) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in ok(session, "list_ticket_classes", {"event_id": event_id, **extra})}


def buy(session: ToolSession, event_id: str, ticket_class_id: str, quantity: int, **extra: Any) -> dict[str, Any]:
    lines = [{"ticket_class_id": ticket_class_id, "quantity": quantity}]
    return ok(session, "place_order", {"event_id": event_id, "tickets": lines, **extra})


def order_args(event_id: str, ticket_class_id: str, quantity: int, **extra: Any) -> dict[str, Any]:
    return {"event_id": event_id, "tickets": [{"ticket_class_id": ticket_class_id, "quantity": quantity}], **extra}


# ---------------------------------------------------------------- sign-in and access


def test_sign_in_needs_the_right_password_and_only_the_person_may_sign_in(session):
    fails(session, "get_me", {}, "PermissionDenied", "NO_AUTH")
    fails(session, "sign_in", {"email": DANA, "password": "guess"}, "PermissionDenied", "INVALID_AUTH", caller="user")
    assert not session.call("sign_in", {"email": DANA, "password": PASSWORDS[DANA]}, caller="agent").ok
    me = sign_in(session, DANA)
    assert me["role"] == "organizer" and me["organization"]["name"] == "Harbor Lights Productions"
    assert sign_in(session, "jordan.lee88@yahoo.com")["role"] == "attendee"


def test_buyers_cannot_use_organizer_tools_and_organizers_only_touch_their_own_events(session):
    sign_in(session, "jordan.lee@gmail.com")
    fails(session, "list_organization_events", {}, "PermissionDenied", "NOT_AUTHORIZED")
    fails(session, "refund_order", {"order_id": "8100000001"}, "PermissionDenied", "NOT_AUTHORIZED")
    fails(session, "get_event", {"event_id": VOL3}, "NotFound", "NOT_FOUND")  # a draft of someone else's
    fails(session, "get_order", {"order_id": "8100000003"}, "NotFound", "NOT_FOUND")  # Sam's order
    sign_in(session, PRIYA)
    fails(session, "update_event", {"event_id": ROOFTOP1, "capacity": 300}, "PermissionDenied", "NOT_AUTHORIZED")
    fails(session, "list_attendees", {"event_id": FARM}, "PermissionDenied", "NOT_AUTHORIZED")
    assert ok(session, "get_event", {"event_id": BOOTCAMP})["status"] == "draft"


def test_buyers_see_only_their_orders_and_organizers_their_organizations(session):
    sign_in(session, "jordan.lee@gmail.com")
    mine = ok(session, "list_orders", {"page_size": 50})["results"]
    assert {o["email"] for o in mine} == {"jordan.lee@gmail.com"}
    sign_in(session, ELENA)
    theirs = ok(session, "list_orders", {"page_size": 50})["results"]
    events = {row["id"]: row["organization_id"] for row in SEED["events"]}
    assert {events[o["event_id"]] for o in theirs} == {"421907335340"}


# ---------------------------------------------------------------- events


def test_status_follows_the_clock_and_search_shows_only_published_events_not_yet_ended(session):
    sign_in(session, "jordan.lee@gmail.com")
    assert ok(session, "get_event", {"event_id": PITCH})["status"] == "started"
    found = {e["id"] for e in ok(session, "search_events", {"page_size": 50})["results"]}
    assert PITCH in found and ROOFTOP1 in found
    assert not found & {VOL3, BLUES, "871200000005"}  # draft, canceled, completed
    session.clock.reset(datetime(2026, 6, 14, 5, 0, tzinfo=timezone.utc))
    assert ok(session, "get_event", {"event_id": ROOFTOP1})["status"] == "ended"
    chicago = ok(session, "search_events", {"city": "chicago", "start_date_to": "2026-06-30"})["results"]
    assert [e["name"] for e in chicago] == ["Lakeside Jazz Brunch", "Sunset Acoustic Series"]


def test_event_times_are_local_to_the_event_and_a_venue_excludes_online(session):
    sign_in(session, PRIYA)
    args = {
        "name": "Test Night",
        "start_local": "2026-07-01T18:00:00",
        "end_local": "2026-07-01T20:00:00",
        "timezone": "America/Denver",
        "capacity": 50,
        "category": "Business",
    }
    fails(
        session, "create_event", {**args, "venue_id": "93000005", "online_event": True}, "InvalidRequest", "VENUE_AND"
    )
    fails(session, "create_event", {**args, "end_local": "2026-07-01T17:00:00"}, "InvalidRequest", "end after")
    fails(session, "create_event", {**args, "venue_id": "93000001"}, "PermissionDenied", "NOT_AUTHORIZED")
    made = ok(session, "create_event", {**args, "venue_id": "93000005"})
    assert made["status"] == "draft" and made["start"]["utc"] == "2026-07-02T00:00:00Z"


def test_publishing_needs_a_ticket_class_and_a_place(session):
    sign_in(session, PRIYA)
    fails(session, "publish_event", {"event_id": BOOTCAMP}, "Conflict", "no ticket classes")
    args = {"name": "Online Test", "start_local": "2026-07-01T18:00:00", "end_local": "2026-07-01T19:00:00"}
    made = ok(session, "create_event", {**args, "timezone": "America/Denver", "capacity": 5, "category": "Business"})
    ok(session, "create_ticket_class", {"event_id": made["id"], "name": "Free", "free": True, "capacity": 5})
    fails(session, "publish_event", {"event_id": made["id"]}, "Conflict", "needs a venue")
    ok(session, "create_ticket_class", {"event_id": BOOTCAMP, "name": "Seat", "cost": "99", "capacity": 35})
    assert ok(session, "publish_event", {"event_id": BOOTCAMP})["status"] == "live"
    fails(session, "publish_event", {"event_id": BOOTCAMP}, "Conflict", "ALREADY_PUBLISHED")


def test_cancelling_needs_every_ticket_refunded_first(session):
    sign_in(session, ELENA)
    fails(session, "cancel_event", {"event_id": SOURDOUGH_28}, "Conflict", "CANNOT_CANCEL")
    for row in ok(session, "list_orders", {"event_id": SOURDOUGH_28, "status": "placed", "page_size": 50})["results"]:
        ok(session, "refund_order", {"order_id": row["id"]})
    assert ok(session, "cancel_event", {"event_id": SOURDOUGH_28})["status"] == "canceled"
    fails(session, "cancel_event", {"event_id": SOURDOUGH_28}, "Conflict", "ALREADY_CANCELED")
    fails(session, "cancel_event", {"event_id": "871200000023"}, "Conflict", "completed")


def test_refund_policy_may_only_loosen_after_publishing_and_capacity_stays_above_sales(session):
    sign_in(session, DANA)
    fails(session, "update_event", {"event_id": ROOFTOP2, "refund_policy": "no_refunds"}, "Conflict", "LOCKED")
    fails(session, "update_event", {"event_id": ROOFTOP2, "refund_policy": "30_days"}, "Conflict", "LOCKED")
    assert ok(session, "update_event", {"event_id": ROOFTOP2, "refund_policy": "1_day"})["refund_policy"] == "1_day"
    assert ok(session, "update_event", {"event_id": VOL3, "refund_policy": "no_refunds"})["status"] == "draft"
    fails(session, "update_event", {"event_id": SUNSET, "capacity": 90}, "Conflict", "98 tickets")


# ---------------------------------------------------------------- ticket classes


def test_a_sold_class_keeps_its_price_and_capacity_stays_above_sales(session):
    sign_in(session, DANA)
    vip = classes(session, ROOFTOP1)["VIP Terrace"]
    fails(session, "update_ticket_class", {"ticket_class_id": vip["id"], "cost": "85.00"}, "Conflict", "COST_LOCKED")
    fails(session, "update_ticket_class", {"ticket_class_id": vip["id"], "capacity": 10}, "Conflict", "18 tickets")
    draft_vip = classes(session, VOL3)["VIP Terrace"]
    assert ok(session, "update_ticket_class", {"ticket_class_id": draft_vip["id"], "cost": "80"})["cost"] == "80.00"


def test_ticket_class_arguments_are_checked(session):
    sign_in(session, DANA)
    base = {"event_id": VOL3, "name": "Balcony", "capacity": 10}
    fails(session, "create_ticket_class", base, "InvalidRequest", "needs a cost")
    fails(session, "create_ticket_class", {**base, "free": True, "cost": "5"}, "InvalidRequest", "no cost")
    low_high = {**base, "cost": "20", "minimum_quantity": 5, "maximum_quantity": 2}
    fails(session, "create_ticket_class", low_high, "InvalidRequest", "minimum_quantity")
    late = {**base, "cost": "20", "sales_end": "2026-08-10T00:00:00Z"}
    fails(session, "create_ticket_class", late, "InvalidRequest", "after the event ends")
    fails(session, "create_ticket_class", {**base, "event_id": BLUES, "cost": "20"}, "Conflict", "canceled")
    made = ok(session, "create_ticket_class", {**base, "cost": "20"})
    assert made["sales_start"] == "2026-06-01T00:00:00Z" and made["on_sale_status"] == "NOT_YET_ON_SALE"


# ---------------------------------------------------------------- ordering


def test_an_order_pays_price_plus_fee_and_moves_the_counts(session):
    sign_in(session, "jordan.lee@gmail.com")
    ga = classes(session, ROOFTOP2)["General Admission"]
    order = buy(session, ROOFTOP2, ga["id"], 2)
    assert order["costs"] == {
        "currency": "USD",
        "base_price": "70.00",
        "discount": "0.00",
        "fee": "6.18",  # 3.7% of 35.00 (1.30) + 1.79, per ticket
        "gross": "76.18",
        "refunded": "0.00",
    }
    assert [a["name"] for a in order["attendees"]] == ["Jordan Lee", "Jordan Lee"]
    assert classes(session, ROOFTOP2)["General Admission"]["quantity_sold"] == ga["quantity_sold"] + 2
    assert order["id"] == "8100000480"


def test_sales_windows_are_enforced(session):
    sign_in(session, "jordan.lee@gmail.com")
    early = classes(session, ROOFTOP1)["Early Bird"]
    assert early["on_sale_status"] == "SALES_ENDED"
    fails(session, "place_order", order_args(ROOFTOP1, early["id"], 1), "Conflict", "TICKETS_NOT_ON_SALE")
    supper = classes(session, TOMATO)["Supper Seat"]
    fails(session, "place_order", order_args(TOMATO, supper["id"], 1), "Conflict", "NOT_YET_ON_SALE")
    audience = classes(session, PITCH)["Audience"]
    fails(session, "place_order", order_args(PITCH, audience["id"], 1), "Conflict", "EVENT_NOT_ON_SALE")
    session.clock.reset(datetime(2026, 6, 15, 17, 0, tzinfo=timezone.utc))
    assert buy(session, TOMATO, supper["id"], 2)["status"] == "placed"


def test_per_order_limits_and_capacity(session):
    sign_in(session, "maya.brooks@proton.me")
    team = classes(session, AI_WORKSHOP)["Team Pass (3-5 people)"]
    fails(session, "place_order", order_args(AI_WORKSHOP, team["id"], 2), "InvalidRequest", "3 to 5 per order")
    fails(session, "place_order", order_args(AI_WORKSHOP, team["id"], 6), "InvalidRequest", "3 to 5 per order")
    sign_in(session, "bcarter@fastmail.com")
    ga = classes(session, SUNSET)["General Admission"]
    fails(session, "place_order", order_args(SUNSET, ga["id"], 3), "Conflict", "only 2")
    assert buy(session, SUNSET, ga["id"], 2)["status"] == "placed"
    assert classes(session, SUNSET)["General Admission"]["on_sale_status"] == "SOLD_OUT"


def test_the_event_capacity_caps_all_classes_together(session):
    sign_in(session, ELENA)
    seat = classes(session, SOURDOUGH_28)["Supper & Class Seat"]
    ok(session, "update_ticket_class", {"ticket_class_id": seat["id"], "capacity": 30})
    sign_in(session, "kwame.asante@outlook.com")
    fails(session, "place_order", order_args(SOURDOUGH_28, seat["id"], 3), "Conflict", "for this event")
    assert buy(session, SOURDOUGH_28, seat["id"], 2)["status"] == "placed"


def test_hidden_tickets_need_an_access_code(session):
    sign_in(session, "hannah.kim@icloud.com")
    assert "Student" not in classes(session, AI_WORKSHOP)
    student = classes(session, AI_WORKSHOP, access_code="STUDENT26")["Student"]
    fails(session, "place_order", order_args(AI_WORKSHOP, student["id"], 1), "NotFound", "does not exist")
    wrong = order_args(AI_WORKSHOP, student["id"], 1, discount_code="PRODUCTPARTNER")
    fails(session, "place_order", wrong, "NotFound", "does not exist")
    fails(
        session,
        "list_ticket_classes",
        {"event_id": AI_WORKSHOP, "access_code": "PRODUCTPARTNER"},
        "InvalidRequest",
        "not an access code",
    )
    order = buy(session, AI_WORKSHOP, student["id"], 1, discount_code="STUDENT26")
    assert order["costs"]["base_price"] == "79.00" and order["costs"]["discount"] == "0.00"


def test_discount_codes_cover_their_classes_while_valid_and_while_uses_last(session):
    sign_in(session, "jordan.lee@gmail.com")
    tickets = classes(session, ROOFTOP1)
    lines = [{"ticket_class_id": tickets["General Admission"]["id"], "quantity": 1}]
    lines.append({"ticket_class_id": tickets["VIP Terrace"]["id"], "quantity": 1})
    order = ok(session, "place_order", {"event_id": ROOFTOP1, "tickets": lines, "discount_code": "rooftop10"})
    assert order["costs"]["discount"] == "3.50"  # 10% of general admission only
    vip_only = order_args(ROOFTOP1, tickets["VIP Terrace"]["id"], 1, discount_code="ROOFTOP10")
    fails(session, "place_order", vip_only, "InvalidRequest", "DISCOUNT_NOT_APPLICABLE")
    ga = classes(session, SUMMIT)["General Admission"]
    fails(session, "place_order", order_args(SUMMIT, ga["id"], 1, discount_code="SUMMIT50"), "Conflict", "EXPIRED")
    other_org = order_args(SUMMIT, ga["id"], 1, discount_code="HLFRIENDS")
    fails(session, "place_order", other_org, "NotFound", "DISCOUNT_NOT_FOUND")


def test_a_used_up_discount_is_refused(session):
    def nearly_used(tables: dict[str, list[dict[str, Any]]]) -> None:
        next(d for d in tables["discounts"] if d["code"] == "SUPPERCLUB15")["quantity_sold"] = 39

    restore_seed_with(session, nearly_used, NOON)
    sign_in(session, "kwame.asante@outlook.com")
    seat = classes(session, FARM)["Dinner"]
    fails(session, "place_order", order_args(FARM, seat["id"], 2, discount_code="SUPPERCLUB15"), "Conflict", "1 more")
    assert buy(session, FARM, seat["id"], 1, discount_code="SUPPERCLUB15")["costs"]["discount"] == "21.00"


def test_public_discounts_show_on_the_event_until_they_end(session):
    sign_in(session, "chloe.dubois@yahoo.com")
    assert [d["code"] for d in ok(session, "get_event", {"event_id": OYSTER})["public_discounts"]] == ["OYSTERSHUCK"]
    session.clock.reset(datetime(2026, 6, 16, 12, 0, tzinfo=timezone.utc))
    assert ok(session, "get_event", {"event_id": OYSTER})["public_discounts"] == []


def test_discount_creation_rules(session):
    sign_in(session, DANA)
    fails(session, "create_discount", {"code": "HLFRIENDS", "percent_off": 5}, "Conflict", "DUPLICATE_CODE")
    both = {"code": "BOTH", "percent_off": 5, "amount_off": "5"}
    fails(session, "create_discount", both, "InvalidRequest", "not both")
    fails(session, "create_discount", {"code": "NOTHING"}, "InvalidRequest", "needs percent_off")
    fails(
        session, "create_discount", {"code": "PUB", "type": "public", "percent_off": 5}, "InvalidRequest", "one event"
    )
    stray = {"code": "STRAY", "percent_off": 5, "event_id": ROOFTOP1, "ticket_class_ids": ["1905700004"]}
    fails(session, "create_discount", stray, "InvalidRequest", "not a ticket class of this event")
    fails(session, "create_discount", {"code": "TWO WORDS", "percent_off": 5}, "invalid_arguments", "no spaces")
    made = ok(session, "create_discount", {"code": "NEWCODE", "amount_off": "7.5", "event_id": ROOFTOP2})
    assert made["amount_off"] == "7.50" and made["quantity_available"] == 0


# ---------------------------------------------------------------- refunds


def test_refund_requests_follow_the_refund_policy(session):
    sign_in(session, "hkowalski@gmail.com")
    args = {"order_id": "8100000004", "reason": "cannot_attend", "message": "Can't come."}
    fails(session, "request_refund", args, "Conflict", "does not offer refunds")
    sign_in(session, "ethan.walsh@gmail.com")
    fails(session, "request_refund", {**args, "order_id": "8100000013"}, "Conflict", "closed at 2026-06-01T13:30:00Z")
    sign_in(session, "grace.mensah@outlook.com")
    fails(session, "request_refund", {**args, "order_id": "8100000008"}, "Conflict", "closed at")
    sign_in(session, "maya.brooks@proton.me")
    request = ok(session, "request_refund", {**args, "order_id": "8100000006"})
    assert request["status"] == "pending" and request["amount"] == "117.67"
    fails(session, "request_refund", {**args, "order_id": "8100000006"}, "Conflict", "REFUND_REQUEST_EXISTS")
    fails(session, "request_refund", {**args, "order_id": "8100000003"}, "NotFound", "NOT_FOUND")


def test_a_canceled_event_may_be_refunded_whatever_the_policy(session):
    def canceled_brunch(tables: dict[str, list[dict[str, Any]]]) -> None:
        next(e for e in tables["events"] if e["id"] == BRUNCH)["status"] = "canceled"

    restore_seed_with(session, canceled_brunch, NOON)
    sign_in(session, "hkowalski@gmail.com")
    args = {"order_id": "8100000004", "reason": "event_canceled", "message": "It was canceled."}
    assert ok(session, "request_refund", args)["status"] == "pending"


def test_approving_refunds_the_tickets_and_declining_needs_a_message(session):
    sign_in(session, DANA)
    fails(
        session,
        "respond_refund_request",
        {"refund_request_id": "5200000002", "action": "decline"},
        "InvalidRequest",
        "needs a message",
    )
    before = classes(session, ROOFTOP1)["VIP Terrace"]["quantity_sold"]
    approved = ok(session, "respond_refund_request", {"refund_request_id": "5200000001", "action": "approve"})
    assert approved["status"] == "approved"
    order = ok(session, "get_order", {"order_id": "8100000014"})
    assert order["status"] == "partially_refunded" and order["costs"]["refunded"] == approved["amount"] == "159.14"
    assert [a["refunded"] for a in order["attendees"]] == [False, False, True, True]
    assert classes(session, ROOFTOP1)["VIP Terrace"]["quantity_sold"] == before - 2
    again = {"refund_request_id": "5200000001", "action": "approve"}
    fails(session, "respond_refund_request", again, "Conflict", "already approved")


def test_organizer_refunds_outside_the_policy_and_close_matching_requests(session):
    sign_in(session, ELENA)
    refunded = ok(session, "refund_order", {"order_id": "8100000010"})
    assert refunded["status"] == "refunded" and refunded["costs"]["refunded"] == refunded["costs"]["gross"]
    pending = ok(session, "list_refund_requests", {"event_id": SOURDOUGH_28})
    assert pending[0]["status"] == "approved"
    fails(session, "refund_order", {"order_id": "8100000010"}, "Conflict", "ALREADY_REFUNDED")
    stray = {"order_id": "8100000005", "attendee_ids": ["12100000001"]}
    fails(session, "refund_order", stray, "InvalidRequest", "not an unrefunded ticket")
    sign_in(session, DANA)
    assert ok(session, "refund_order", {"order_id": "8100000004"})["status"] == "refunded"  # no-refunds event
