"""TripIt's business rules, each with a test that can fail: sign-in, who sees and changes a trip (owner, editor,
read-only invitee, pending invitation), owner-only sharing, deletion and privacy, invitations answered or left,
trip dates that stretch to cover plans and refuse to shrink past them, plan and flight timing, duplicate
confirmation numbers, filing forwarded confirmations (chosen trip, overlapping trip, new trip; unreadable and
already-filed emails refused), Pro-only flight alerts, and failures that change nothing."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("tripit")
CLOCK = datetime(2026, 4, 14, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, CLOCK)

PRIYA, TOM, MARCUS, ELENA = (
    "priya.raman@gmail.com",
    "tom.whitaker@halvorsen.com",
    "marcus.bell@outlook.com",
    "elena.ruiz@fastmail.com",
)


def trip_id(name: str) -> str:
    found = [row["id"] for row in SEED["trips"] if row["display_name"] == name]
    assert len(found) == 1, found
    return found[0]


def object_id(trip: str, name: str) -> str:
    found = [row["id"] for row in SEED["objects"] if row["trip_id"] == trip and row["display_name"] == name]
    assert len(found) == 1, found
    return found[0]


def inbox_id(subject_start: str) -> str:
    found = [row["id"] for row in SEED["inbox"] if row["subject"].startswith(subject_start)]
    assert len(found) == 1, found
    return found[0]


def invitee_id(trip: str, email: str) -> str:
    found = [row["id"] for row in SEED["invitees"] if row["trip_id"] == trip and row["email"] == email]
    assert len(found) == 1, found
    return found[0]


def sign_in(session: ToolSession, email: str) -> None:
    ok(session, "sign_in", {"email": email}, caller="user")


CHI = trip_id("Chicago client visit")
LIS = trip_id("Lisbon family vacation")
BOSP = trip_id("Boston workshop")
BOST = trip_id("Boston - Halvorsen strategy days")
AUS = trip_id("Austin team offsite")
CHIS = trip_id("Chicago - Northwind renewal")
MEX = trip_id("Mexico City family trip")
CHI_AIR = object_id(CHI, "SFO to ORD")
MEMMO = object_id(LIS, "Memmo Alfama")
LANGHAM = object_id(BOSP, "The Langham, Boston")


def activity(trip: str, name: str = "Museum visit", day: str = "2026-04-21", **extra: Any) -> dict[str, Any]:
    return {"trip_id": trip, "display_name": name, "start_date": day, **extra}


# ---------------------------------------------------------------- signing in


def test_every_tool_needs_a_signed_in_traveler(session):
    fails(session, "list_trips", {}, "PermissionDenied", "no TripIt account is signed in")
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "don't recognize", caller="user")


def test_sign_in_is_the_travelers_own_act(session):
    outcome = session.call("sign_in", {"email": PRIYA}, caller="agent")
    assert not outcome.ok


# ---------------------------------------------------------------- who sees a trip


def test_a_trip_without_an_invitation_does_not_exist_for_the_traveler(session):
    sign_in(session, PRIYA)
    fails(session, "get_trip", {"trip_id": MEX}, "NotFound", f"Trip {MEX} not found")
    mexico_car = object_id(MEX, "Casa Polanco")
    fails(session, "get_object", {"object_id": mexico_car}, "NotFound", "not found")


def test_list_shows_owned_and_accepted_trips_not_pending_ones(session):
    sign_in(session, PRIYA)
    upcoming = ok(session, "list_trips", {"page_size": 50})["results"]
    ids = {trip["trip_id"] for trip in upcoming}
    assert {CHI, LIS, BOSP, BOST} <= ids
    assert AUS not in ids and CHIS not in ids  # invitations not answered yet
    roles = {trip["trip_id"]: trip["role"] for trip in upcoming}
    assert (roles[CHI], roles[BOST]) == ("owner", "viewer")
    starts = [trip["start_date"] for trip in upcoming]
    assert starts == sorted(starts)
    past = ok(session, "list_trips", {"past": True, "page_size": 50})["results"]
    assert [trip["start_date"] for trip in past] == sorted((trip["start_date"] for trip in past), reverse=True)
    assert all(trip["end_date"] < "2026-04-14" for trip in past)


def test_traveler_filter_separates_trips_the_traveler_only_follows(session):
    sign_in(session, PRIYA)
    following = ok(session, "list_trips", {"traveler": "false"})["results"]
    assert [trip["trip_id"] for trip in following] == [BOST]


def test_a_pending_invitation_lets_the_trip_be_seen_but_not_changed(session):
    sign_in(session, PRIYA)
    assert ok(session, "get_trip", {"trip_id": AUS})["role"] == "invited"
    fails(session, "add_activity", activity(AUS, day="2026-05-06"), "PermissionDenied", "accept your invitation")


def test_a_read_only_invitee_cannot_change_plans(session):
    sign_in(session, PRIYA)
    fails(session, "add_activity", activity(BOST, day="2026-04-29"), "PermissionDenied", "view-only access")
    day_one = object_id(BOST, "Strategy day 1")
    fails(session, "update_object", {"object_id": day_one, "notes": "x"}, "PermissionDenied", "view-only")
    fails(session, "delete_object", {"object_id": day_one}, "PermissionDenied", "view-only")


def test_moving_a_plan_into_a_read_only_trip_is_refused(session):
    sign_in(session, PRIYA)
    fails(session, "update_object", {"object_id": LANGHAM, "trip_id": BOST}, "PermissionDenied", "view-only")


# ---------------------------------------------------------------- owner-only acts


def test_an_editor_changes_plans_and_details_but_not_sharing_privacy_or_existence(session):
    sign_in(session, TOM)
    added = ok(session, "add_activity", activity(CHI, "Team lunch"))
    assert added["trip_id"] == CHI
    assert (
        ok(session, "update_trip", {"trip_id": CHI, "description": "Updated by Tom"})["description"] == "Updated by Tom"
    )
    fails(session, "update_trip", {"trip_id": CHI, "is_private": True}, "PermissionDenied", "only the trip's owner")
    fails(session, "invite_to_trip", {"trip_id": CHI, "email": "x@example.com"}, "PermissionDenied", "owner")
    dana = invitee_id(CHI, "dana.kim@halvorsen.com")
    fails(
        session,
        "update_invitee",
        {"trip_id": CHI, "invitee_id": dana, "is_read_only": False},
        "PermissionDenied",
        "owner",
    )
    fails(session, "remove_invitee", {"trip_id": CHI, "invitee_id": dana}, "PermissionDenied", "only the trip's owner")
    fails(session, "delete_trip", {"trip_id": CHI}, "PermissionDenied", "only the trip's owner can delete it")


def test_an_invitee_may_leave_a_trip(session):
    sign_in(session, TOM)
    mine = invitee_id(CHI, TOM)
    ok(session, "remove_invitee", {"trip_id": CHI, "invitee_id": mine})
    fails(session, "get_trip", {"trip_id": CHI}, "NotFound", "not found")


def test_owner_changes_access_and_the_change_takes_effect(session):
    sign_in(session, PRIYA)
    tom = invitee_id(CHI, TOM)
    changed = ok(session, "update_invitee", {"trip_id": CHI, "invitee_id": tom, "is_read_only": True})
    assert (changed["is_read_only"], changed["is_traveler"]) == (True, True)
    sign_in(session, TOM)
    fails(session, "add_activity", activity(CHI), "PermissionDenied", "view-only")


def test_invitations_refuse_yourself_and_duplicates_and_start_pending(session):
    sign_in(session, PRIYA)
    fails(session, "invite_to_trip", {"trip_id": LIS, "email": PRIYA}, "InvalidRequest", "invite yourself")
    fails(session, "invite_to_trip", {"trip_id": LIS, "email": "arjun.raman@gmail.com"}, "Conflict", "already invited")
    known = ok(session, "invite_to_trip", {"trip_id": LIS, "email": "Dkim.Travels@gmail.com", "is_read_only": True})
    assert (known["status"], known["name"], known["email"]) == ("pending", "David Kim", "dkim.travels@gmail.com")
    stranger = ok(session, "invite_to_trip", {"trip_id": LIS, "email": "new.person@example.org"})
    assert stranger["profile_ref"] is None and stranger["name"] is None
    fails(session, "invite_to_trip", {"trip_id": LIS, "email": "not-an-email"}, "invalid_arguments", "Invalid email")


def test_deleting_a_trip_takes_its_plans_and_people_and_unfiles_its_emails(session):
    sign_in(session, PRIYA)
    seattle = trip_id("Seattle team summit")
    thompson = inbox_id("Thompson Seattle")
    ok(session, "delete_trip", {"trip_id": seattle})
    fails(session, "get_trip", {"trip_id": seattle}, "NotFound", "not found")
    item = next(i for i in ok(session, "list_inbox", {"page_size": 50})["results"] if i["inbox_id"] == thompson)
    assert (item["status"], item["trip_id"], item["object_id"]) == ("unfiled", None, None)
    hotel = object_id(seattle, "Thompson Seattle")
    fails(session, "get_object", {"object_id": hotel}, "NotFound", "not found")


# ---------------------------------------------------------------- answering invitations


def test_accepting_an_invitation_joins_the_trip_with_its_access(session):
    sign_in(session, PRIYA)
    joined = ok(session, "respond_to_invitation", {"trip_id": AUS, "accept": True})
    assert joined["owner"] == "Marcus Bell"
    assert ok(session, "get_trip", {"trip_id": AUS})["role"] == "editor"
    assert AUS in {trip["trip_id"] for trip in ok(session, "list_trips", {"page_size": 50})["results"]}
    assert ok(session, "get_profile")["pending_invitations"][0]["trip_id"] == CHIS


def test_declining_removes_the_invitation_and_only_pending_ones_can_be_answered(session):
    sign_in(session, PRIYA)
    ok(session, "respond_to_invitation", {"trip_id": CHIS, "accept": False})
    fails(session, "get_trip", {"trip_id": CHIS}, "NotFound", "not found")
    fails(session, "respond_to_invitation", {"trip_id": CHIS, "accept": True}, "NotFound", "no pending invitation")
    fails(session, "respond_to_invitation", {"trip_id": BOST, "accept": True}, "NotFound", "no pending invitation")


# ---------------------------------------------------------------- dates


def test_a_plan_outside_the_trip_stretches_it(session):
    sign_in(session, PRIYA)
    ok(session, "add_activity", activity(CHI, day="2026-04-25"))
    assert ok(session, "get_trip", {"trip_id": CHI})["end_date"] == "2026-04-25"
    ok(
        session,
        "add_lodging",
        {"trip_id": CHI, "supplier_name": "Early hotel", "check_in_date": "2026-04-18", "check_out_date": "2026-04-20"},
    )
    assert ok(session, "get_trip", {"trip_id": CHI})["start_date"] == "2026-04-18"


def test_trip_dates_must_still_cover_every_plan(session):
    sign_in(session, PRIYA)
    fails(session, "update_trip", {"trip_id": LIS, "end_date": "2026-05-22"}, "Conflict", "must cover them")
    fails(
        session, "update_trip", {"trip_id": LIS, "start_date": "2026-05-30"}, "InvalidRequest", "on or after its start"
    )
    ok(session, "update_trip", {"trip_id": LIS, "start_date": "2026-05-14", "end_date": "2026-05-25"})


def test_plans_must_end_after_they_start(session):
    sign_in(session, PRIYA)
    hotel = {"trip_id": CHI, "supplier_name": "Bad", "check_in_date": "2026-04-21", "check_out_date": "2026-04-21"}
    fails(session, "add_lodging", hotel, "InvalidRequest", "Check-out must be at least one day after check-in")
    late = activity(CHI, start_time="18:00", end_time="09:00")
    fails(session, "add_activity", late, "InvalidRequest", "ends before it starts")
    fails(
        session,
        "update_object",
        {"object_id": MEMMO, "end_date": "2026-05-16"},
        "InvalidRequest",
        "ends before it starts",
    )
    fails(
        session,
        "create_trip",
        {"display_name": "X", "primary_location": "Oslo", "start_date": "2026-06-02", "end_date": "2026-06-01"},
        "InvalidRequest",
        "end date",
    )


def test_flight_segments_go_in_flying_order_and_may_land_at_an_earlier_clock_time(session):
    sign_in(session, PRIYA)
    leg = {
        "marketing_airline_code": "NH",
        "marketing_flight_number": "8",
        "start_airport_code": "NRT",
        "end_airport_code": "SFO",
        "start_date": "2026-05-16",
        "start_time": "17:00",
        "end_date": "2026-05-16",
        "end_time": "10:10",
    }
    added = ok(session, "add_flight", {"trip_id": LIS, "supplier_name": "ANA", "segments": [leg]})
    assert added["display_name"] == "NRT to SFO" and added["segments"][0]["flight_status"] == 300
    back = {
        **leg,
        "start_date": "2026-05-10",
        "end_date": "2026-05-10",
        "start_airport_code": "SFO",
        "end_airport_code": "NRT",
    }
    fails(
        session,
        "add_flight",
        {"trip_id": LIS, "supplier_name": "ANA", "segments": [leg, back]},
        "InvalidRequest",
        "flying order",
    )
    fails(
        session,
        "add_flight",
        {"trip_id": LIS, "supplier_name": "ANA", "segments": [{**leg, "start_airport_code": "nrt"}]},
        "invalid_arguments",
        "start_airport_code",
    )


def test_a_flights_times_change_through_its_segments(session):
    sign_in(session, PRIYA)
    fails(session, "update_object", {"object_id": CHI_AIR, "start_time": "08:00"}, "InvalidRequest", "update_segment")
    plan = ok(session, "get_object", {"object_id": CHI_AIR})
    assert plan["segments"][0]["flight_status_text"] == "Delayed"
    back = plan["segments"][1]["segment_id"]
    moved = ok(session, "update_segment", {"segment_id": back, "start_date": "2026-04-24", "end_date": "2026-04-24"})
    assert moved["end_date"] == "2026-04-24"
    assert ok(session, "get_trip", {"trip_id": CHI})["end_date"] == "2026-04-24"


# ---------------------------------------------------------------- confirmation numbers


def test_a_trip_refuses_a_second_plan_with_the_same_confirmation_number(session):
    sign_in(session, PRIYA)
    hotel = {
        "trip_id": LIS,
        "supplier_name": "Copy",
        "check_in_date": "2026-05-16",
        "check_out_date": "2026-05-17",
        "supplier_conf_num": "5521908",
    }
    fails(session, "add_lodging", hotel, "Conflict", "confirmation number 5521908")
    fails(
        session,
        "update_object",
        {"object_id": LANGHAM, "trip_id": LIS, "supplier_conf_num": "5521908"},
        "Conflict",
        "5521908",
    )
    fails(
        session, "add_lodging", {**hotel, "supplier_conf_num": "5521 908"}, "invalid_arguments", "Confirmation numbers"
    )


def test_a_plan_moves_between_the_travelers_trips(session):
    sign_in(session, PRIYA)
    moved = ok(session, "update_object", {"object_id": LANGHAM, "trip_id": CHI})
    assert moved["trip_id"] == CHI
    assert ok(session, "get_trip", {"trip_id": CHI})["end_date"] == "2026-04-30"


# ---------------------------------------------------------------- inbox


def test_filing_without_a_trip_uses_the_overlapping_trip(session):
    sign_in(session, PRIYA)
    kimpton = inbox_id("Your reservation at Kimpton")
    filed = ok(session, "file_inbox_item", {"inbox_id": kimpton})
    assert (filed["status"], filed["trip_id"]) == ("filed", CHI)
    plan = ok(session, "get_object", {"object_id": filed["object_id"]})
    assert (plan["type"], plan["supplier_conf_num"], plan["details"]["room_type"]) == (
        "lodging",
        "88314207",
        "King deluxe",
    )
    fails(session, "file_inbox_item", {"inbox_id": kimpton}, "Conflict", "already filed")


def test_filing_without_an_overlapping_trip_makes_one_named_after_place_and_month(session):
    sign_in(session, PRIYA)
    filed = ok(session, "file_inbox_item", {"inbox_id": inbox_id("eTicket Itinerary")})
    trip = ok(session, "get_trip", {"trip_id": filed["trip_id"]})
    assert (trip["display_name"], trip["start_date"], trip["end_date"]) == (
        "Denver, CO, June 2026",
        "2026-06-03",
        "2026-06-05",
    )
    flight = ok(session, "get_object", {"object_id": filed["object_id"]})
    assert [s["marketing_flight_number"] for s in flight["segments"]] == ["567", "1890"]


def test_the_overlap_ignores_trips_the_traveler_only_joined(session):
    sign_in(session, PRIYA)
    filed = ok(session, "file_inbox_item", {"inbox_id": inbox_id("Your Flight Receipt - GZ4K7L")})
    assert filed["trip_id"] == BOSP  # her own Boston trip, not Tom's shared one


def test_unreadable_emails_and_other_travelers_items_cannot_be_filed(session):
    sign_in(session, PRIYA)
    fails(
        session,
        "file_inbox_item",
        {"inbox_id": inbox_id("Fwd: Your receipt from Lisbon")},
        "Conflict",
        "add the plan by hand",
    )
    elenas = inbox_id("ANA e-ticket")
    fails(session, "file_inbox_item", {"inbox_id": elenas}, "NotFound", "not found")
    fails(
        session,
        "file_inbox_item",
        {"inbox_id": inbox_id("Your Hertz"), "trip_id": BOST},
        "PermissionDenied",
        "view-only",
    )


def test_inbox_lists_newest_first_and_filters_by_status(session):
    sign_in(session, PRIYA)
    items = ok(session, "list_inbox", {"page_size": 50})["results"]
    assert [i["received_at"] for i in items] == sorted((i["received_at"] for i in items), reverse=True)
    unread = ok(session, "list_inbox", {"status": "unrecognized"})["results"]
    assert [i["subject"] for i in unread] == ["Fwd: Your receipt from Lisbon Tuk Tuk Co."]


# ---------------------------------------------------------------- alerts and deletion


def test_flight_alerts_are_for_pro_accounts(session):
    sign_in(session, MARCUS)
    fails(session, "list_alerts", {}, "PermissionDenied", "TripIt Pro feature")
    sign_in(session, PRIYA)
    unread = ok(session, "list_alerts", {"unread_only": True})["results"]
    assert [a["alert_type"] for a in unread] == ["delay", "checkin"]
    assert unread[0]["trip_id"] == CHI and unread[0]["flight"] == "UA1123 2026-04-20"


def test_deleting_a_flight_takes_its_segments_and_keeps_its_alerts(session):
    sign_in(session, PRIYA)
    ok(session, "delete_object", {"object_id": CHI_AIR})
    segment = next(row["id"] for row in SEED["segments"] if row["object_id"] == CHI_AIR)
    fails(session, "update_segment", {"segment_id": segment, "seats": "1A"}, "NotFound", "not found")
    alerts = ok(session, "list_alerts", {"unread_only": True})["results"]
    assert [a["segment_id"] for a in alerts] == [None, None]
    assert ok(session, "get_trip", {"trip_id": CHI})["start_date"] == "2026-04-20"  # the trip keeps its dates


def test_bad_ids_and_costs_are_refused_by_their_types(session):
    sign_in(session, PRIYA)
    fails(session, "get_trip", {"trip_id": "chicago"}, "invalid_arguments", "trip id must be numeric")
    fails(session, "update_object", {"object_id": MEMMO, "total_cost": "12 euros"}, "invalid_arguments", "412.80 USD")
