"""The OpenTable environment's tools: availability from tables and seatings, slot locks, reservations with card
guarantees and late-cancellation fees, the waitlist, check-in points, rewards, reviews and saved restaurants, with
every error path leaving the state unchanged. Runs the real tools on the real seed through ToolSession."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("opentable")
MORNING = datetime(2025, 5, 7, 16, 0, tzinfo=timezone.utc)  # Wednesday 11:00 in Chicago
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]


# ---------------------------------------------------------------- seed lookups (by name, never by raw id)


def diner(first: str, last: str) -> dict[str, Any]:
    return next(d for d in SEED["diners"] if (d["first_name"], d["last_name"]) == (first, last))


def rid(name: str) -> str:
    return next(r["rid"] for r in SEED["restaurants"] if r["name"] == name)


def booking(first: str, last: str, restaurant: str) -> dict[str, Any]:
    did = diner(first, last)["id"]
    found = [r for r in SEED["reservations"] if r["diner_id"] == did and r["rid"] == rid(restaurant)]
    assert len(found) == 1
    return found[0]


def experience(name: str) -> dict[str, Any]:
    return next(e for e in SEED["experiences"] if e["name"] == name)


# ---------------------------------------------------------------- session helpers

session = session_fixture(SPEC, MORNING)


def at(session: ToolSession, iso_utc: str) -> None:
    """Move the simulated clock (the state is kept)."""
    session.clock.reset(datetime.fromisoformat(iso_utc.replace("Z", "+00:00")))


def sign_in(session: ToolSession, first: str, last: str) -> None:
    ok(session, "sign_in", {"email": diner(first, last)["email"]}, caller="user")


def book(session: ToolSession, restaurant: str, when: str, party: int, **details: Any) -> dict[str, Any]:
    extra = {k: details.pop(k) for k in ("seating_option", "experience_id") if k in details}
    lock = ok(session, "lock_slot", {"rid": rid(restaurant), "date_time": when, "party_size": party, **extra})
    return ok(session, "create_reservation", {"slot_lock_id": lock["slot_lock_id"], **details})


def row(session: ToolSession, table: str, key: str) -> dict[str, Any]:
    return session.dump()[table][key]


# ---------------------------------------------------------------- sign-in


def test_sign_in_is_user_only_and_tools_need_it(session):
    email = diner("Maya", "Okonkwo")["email"]
    fails(session, "sign_in", {"email": email}, "user_only", "only be performed by the user")
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "couldn't find", caller="user")
    fails(session, "get_diner_profile", {}, "PermissionDenied", "No diner is signed in")
    fails(session, "list_reservations", {}, "PermissionDenied", "No diner is signed in")
    assert ok(session, "sign_in", {"email": email.upper()}, caller="user")["first_name"] == "Maya"
    assert row(session, "diner_sessions", "current")["diner_id"] == diner("Maya", "Okonkwo")["id"]


# ---------------------------------------------------------------- directory


def test_search_filters_and_sorts_by_rating(session):
    found = ok(session, "search_restaurants", {"cuisine": "italian", "page_size": 50})["results"]
    assert found and all(
        "Italian" in next(r["cuisines"] for r in SEED["restaurants"] if r["rid"] == f["rid"]) for f in found
    )
    ratings = [f["rating"] for f in found]
    assert ratings == sorted(ratings, reverse=True)
    west_loop = ok(session, "search_restaurants", {"neighborhood": "west loop", "price_band": "$$$$"})["results"]
    assert [r["name"] for r in west_loop] == ["Verdant"]
    assert ok(session, "search_restaurants", {"query": "omakase"})["results"][0]["name"] == "Kasa Omakase"


def test_restaurant_ratings_are_derived_from_reviews(session):
    vela = rid("Trattoria Vela")
    reviews = [r for r in SEED["reviews"] if r["rid"] == vela]
    profile = ok(session, "get_restaurant", {"rid": vela})
    assert profile["ratings"]["review_count"] == len(reviews)
    assert profile["ratings"]["overall"] == round(sum(r["overall"] for r in reviews) / len(reviews), 1)
    newest = sorted(reviews, key=lambda r: (r["dined_on"], r["id"]), reverse=True)[:5]
    assert [r["dined_on"] for r in profile["recent_reviews"]] == [r["dined_on"] for r in newest]
    kasa = ok(session, "get_restaurant", {"rid": rid("Kasa Omakase")})
    assert {e["name"] for e in kasa["experiences"]} == {"Chef's Omakase Counter", "Chef's Omakase Counter - Spring Uni"}
    fails(session, "get_restaurant", {"rid": "1"}, "NotFound", "Restaurant 1 not found")


# ---------------------------------------------------------------- availability


def test_availability_skips_taken_tables_and_reports_policies(session):
    vela = ok(
        session, "find_availability", {"rid": rid("Trattoria Vela"), "date_time": "2025-05-09T19:00", "party_size": 2}
    )
    times = [s["date_time"] for s in vela["slots"]]
    assert "2025-05-09T19:00" not in times and times == sorted(times)
    assert all("2025-05-09T18:30" <= t <= "2025-05-09T20:30" for t in times)
    big = ok(
        session, "find_availability", {"rid": rid("Trattoria Vela"), "date_time": "2025-05-20T19:00", "party_size": 6}
    )["slots"]
    assert big and all(s["credit_card_required"] for s in big)
    bonus = ok(
        session,
        "find_availability",
        {
            "rid": rid("Lakeview Oyster Co."),
            "date_time": "2025-05-20T17:30",
            "party_size": 2,
            "backward_minutes": 0,
            "forward_minutes": 30,
        },
    )
    assert {s["date_time"]: s["points"] for s in bonus["slots"]} == {
        "2025-05-20T17:30": 1000,
        "2025-05-20T17:45": 1000,
        "2025-05-20T18:00": 100,
    }


def test_availability_rules(session):
    vela = rid("Trattoria Vela")
    fails(
        session,
        "find_availability",
        {"rid": vela, "date_time": "2025-05-09T19:00", "party_size": 11},
        "InvalidRequest",
        "please call the restaurant",
    )
    fails(
        session,
        "find_availability",
        {"rid": vela, "date_time": "2025-05-01T19:00", "party_size": 2},
        "InvalidRequest",
        "already passed",
    )
    fails(
        session,
        "find_availability",
        {"rid": vela, "date_time": "2025-07-01T19:00", "party_size": 2},
        "InvalidRequest",
        "30 days ahead",
    )
    fails(
        session,
        "find_availability",
        {"rid": vela, "date_time": "tonight", "party_size": 2},
        "invalid_arguments",
        "date_time: must be a local time like 2025-05-09T19:30",
    )
    fails(
        session,
        "find_availability",
        {"rid": vela, "date_time": "2025-05-09T19:00", "party_size": 2, "forward_minutes": 500},
        "invalid_arguments",
        "forward_minutes: must be between 0 and 150",
    )


def test_experience_availability_uses_its_own_times(session):
    uni = experience("Chef's Omakase Counter - Spring Uni")
    slots = ok(
        session,
        "find_availability",
        {
            "rid": rid("Kasa Omakase"),
            "date_time": "2025-05-17T18:30",
            "party_size": 2,
            "backward_minutes": 150,
            "forward_minutes": 150,
            "experience_id": uni["id"],
        },
    )["slots"]
    assert {s["date_time"][11:] for s in slots} <= set(uni["times"]) and slots
    assert all(s["credit_card_required"] and s["seating_options"] == ["counter"] for s in slots)


# ---------------------------------------------------------------- slot locks and booking


def test_booking_without_guarantee_is_booked(session):
    sign_in(session, "Ben", "Alvarez")
    made = book(session, "Casa Andina", "2025-05-09T19:30", 2, special_request="  Quiet corner  ")
    assert made["status"] == "booked" and not made["credit_card_required"] and made["card_hold_status"] is None
    assert made["special_request"] == "Quiet corner" and made["points"] == 100
    assert row(session, "slot_locks", "lock_0001")["used"] is True
    fails(session, "create_reservation", {"slot_lock_id": "lock_0001"}, "Conflict", "already used")


def test_guaranteed_booking_waits_for_the_card_hold(session):
    sign_in(session, "Maya", "Okonkwo")
    made = book(session, "Trattoria Vela", "2025-05-20T19:00", 6)
    assert made["status"] == "pending" and made["card_hold_status"] == "awaiting_confirmation"
    assert made["cancellation_policy"] == {
        "free_cancellation_until": "2025-05-19T19:00",
        "fee_per_person": 2500,
        "fee_total": 15000,
    }
    fails(session, "confirm_card_hold", {"confirmation_number": made["confirmation_number"]}, "user_only", "user")
    confirmed = ok(session, "confirm_card_hold", {"confirmation_number": made["confirmation_number"]}, caller="user")
    assert confirmed["status"] == "booked" and confirmed["card_hold_status"] == "confirmed"
    fails(
        session,
        "confirm_card_hold",
        {"confirmation_number": made["confirmation_number"]},
        "Conflict",
        "no card hold waiting",
        caller="user",
    )


def test_guarantee_needs_a_saved_card(session):
    sign_in(session, "Sofia", "Hernández")
    lock = ok(session, "lock_slot", {"rid": rid("Pizzeria Forno"), "date_time": "2025-05-21T19:00", "party_size": 6})
    assert lock["credit_card_required"]
    fails(session, "create_reservation", {"slot_lock_id": lock["slot_lock_id"]}, "InvalidRequest", "add a card")


def test_lock_rules(session):
    vela = rid("Trattoria Vela")
    sign_in(session, "Ben", "Alvarez")
    fails(
        session,
        "lock_slot",
        {"rid": vela, "date_time": "2025-05-20T19:07", "party_size": 2},
        "InvalidRequest",
        "not a bookable time",
    )
    fails(
        session,
        "lock_slot",
        {"rid": vela, "date_time": "2025-05-09T19:00", "party_size": 2},
        "Conflict",
        "No standard table for 2",
    )
    sign_in(session, "Maya", "Okonkwo")
    fails(
        session,
        "lock_slot",
        {"rid": rid("Bar Sardina"), "date_time": "2025-05-09T20:00", "party_size": 2},
        "Conflict",
        "overlapping reservations",
    )
    lock = ok(session, "lock_slot", {"rid": vela, "date_time": "2025-05-20T19:00", "party_size": 2})
    sign_in(session, "Ben", "Alvarez")
    fails(session, "create_reservation", {"slot_lock_id": lock["slot_lock_id"]}, "NotFound", "Slot lock")


def test_a_lock_holds_the_table_until_it_expires(session):
    hog = experience("Whole Hog Night")
    taken = {r["date_time"][11:] for r in SEED["reservations"] if r["experience_id"] == hog["id"]}
    free_time = next(t for t in hog["times"] if t not in taken)
    args = {
        "rid": rid("Kinfolk BBQ"),
        "date_time": f"{hog['date']}T{free_time}",
        "party_size": 8,
        "experience_id": hog["id"],
    }
    sign_in(session, "Hannah", "Kowalski")
    lock = ok(session, "lock_slot", args)
    sign_in(session, "Daniel", "Fischer")
    fails(session, "lock_slot", args, "Conflict", "any more")
    at(session, "2025-05-07T16:30:00Z")
    ok(session, "lock_slot", args)
    sign_in(session, "Hannah", "Kowalski")
    fails(session, "create_reservation", {"slot_lock_id": lock["slot_lock_id"]}, "Conflict", "expired")


def test_special_requests_are_limited(session):
    sign_in(session, "Ben", "Alvarez")
    lock = ok(session, "lock_slot", {"rid": rid("Casa Andina"), "date_time": "2025-05-09T19:30", "party_size": 2})
    fails(
        session,
        "create_reservation",
        {"slot_lock_id": lock["slot_lock_id"], "special_request": "x" * 251},
        "invalid_arguments",
        "special_request: must be at most 250 characters",
    )


# ---------------------------------------------------------------- modify and cancel


def test_growing_to_the_threshold_needs_a_new_hold_and_shrinking_releases_it(session):
    sign_in(session, "Daniel", "Fischer")
    chop = booking("Daniel", "Fischer", "Chophouse 1899")["id"]
    grown = ok(session, "modify_reservation", {"confirmation_number": chop, "party_size": 6})
    assert grown["status"] == "pending" and grown["credit_card_required"] and grown["party_size"] == 6
    shrunk = ok(session, "modify_reservation", {"confirmation_number": chop, "party_size": 4})
    assert shrunk["status"] == "booked" and shrunk["card_hold_status"] == "released"


def test_modify_moves_to_a_free_time_and_recomputes_points(session):
    sign_in(session, "Ethan", "Brooks")
    oyster = booking("Ethan", "Brooks", "Lakeview Oyster Co.")["id"]
    moved = ok(session, "modify_reservation", {"confirmation_number": oyster, "date_time": "2025-05-20T17:30"})
    assert moved["date_time"] == "2025-05-20T17:30" and moved["points"] == 1000
    stored = row(session, "reservations", oyster)
    assert stored["date_time"] == "2025-05-20T17:30" and stored["table_id"]


def test_modify_rules(session):
    sign_in(session, "Maya", "Okonkwo")
    vela = booking("Maya", "Okonkwo", "Trattoria Vela")["id"]
    fails(session, "modify_reservation", {"confirmation_number": vela}, "InvalidRequest", "Nothing to change")
    fails(
        session,
        "modify_reservation",
        {"confirmation_number": vela, "date_time": "2025-05-09T19:10"},
        "InvalidRequest",
        "not a bookable time",
    )
    fails(
        session, "modify_reservation", {"confirmation_number": vela, "party_size": 12}, "InvalidRequest", "please call"
    )
    done = booking("Maya", "Okonkwo", "Bistro Marguerite")["id"]
    fails(session, "modify_reservation", {"confirmation_number": done, "occasion": "birthday"}, "Conflict", "is done")
    other = booking("Hannah", "Kowalski", "Amalfi Coast")["id"]
    fails(
        session,
        "modify_reservation",
        {"confirmation_number": other, "occasion": "birthday"},
        "NotFound",
        "on your account",
    )
    sign_in(session, "Hannah", "Kowalski")
    steak = booking("Hannah", "Kowalski", "Smoke & Ember Steakhouse")["id"]
    fails(
        session,
        "modify_reservation",
        {"confirmation_number": steak, "party_size": 5},
        "Conflict",
        "cancellation window",
    )
    note = ok(session, "modify_reservation", {"confirmation_number": steak, "special_request": "Corner table"})
    assert note["special_request"] == "Corner table"


def test_late_cancellation_of_a_guarantee_is_charged(session):
    sign_in(session, "Hannah", "Kowalski")
    steak = booking("Hannah", "Kowalski", "Smoke & Ember Steakhouse")
    fee = next(r for r in SEED["restaurants"] if r["rid"] == steak["rid"])["no_show_fee_per_person"]
    result = ok(session, "cancel_reservation", {"confirmation_number": steak["id"]})
    assert result == {
        "confirmation_number": steak["id"],
        "status": "cancelled",
        "fee_charged": fee * 6,
        "card_hold_status": "charged",
    }
    charge = [c for c in session.dump()["charges"].values() if c["reservation_id"] == steak["id"]]
    assert len(charge) == 1 and charge[0]["amount"] == fee * 6 and charge[0]["kind"] == "late_cancellation"
    fails(session, "cancel_reservation", {"confirmation_number": steak["id"]}, "Conflict", "already cancelled")


def test_early_cancellation_releases_the_hold_for_free(session):
    sign_in(session, "Maya", "Okonkwo")
    made = book(session, "Trattoria Vela", "2025-05-20T19:00", 6)
    ok(session, "confirm_card_hold", {"confirmation_number": made["confirmation_number"]}, caller="user")
    result = ok(session, "cancel_reservation", {"confirmation_number": made["confirmation_number"]})
    assert result["fee_charged"] == 0 and result["card_hold_status"] == "released"
    assert not session.dump()["charges"].keys() - {c["id"] for c in SEED["charges"]}


def test_past_reservations_cannot_be_cancelled(session):
    sign_in(session, "Olivia", "Chen")
    lunch = booking("Olivia", "Chen", "Olive & Oak")["id"]
    at(session, "2025-05-07T17:40:00Z")
    fails(session, "cancel_reservation", {"confirmation_number": lunch}, "Conflict", "has passed")


# ---------------------------------------------------------------- waitlist


def test_waitlist_rules(session):
    at(session, "2025-05-07T23:30:00Z")
    sign_in(session, "Marcus", "Lee")
    fails(session, "join_waitlist", {"rid": rid("Trattoria Vela"), "party_size": 2}, "Conflict", "doesn't take")
    fails(session, "join_waitlist", {"rid": rid("Pizzeria Forno"), "party_size": 2}, "Conflict", "book it instead")
    entry = ok(session, "join_waitlist", {"rid": rid("Ramen Hikari"), "party_size": 2})
    assert entry["status"] == "waiting" and entry["quoted_wait_minutes"] == 20 and entry["date"] == "2025-05-07"
    fails(session, "join_waitlist", {"rid": rid("Ramen Hikari"), "party_size": 2}, "Conflict", "already on")
    assert [w["id"] for w in ok(session, "get_diner_profile")["waitlist"]] == [entry["id"]]
    sign_in(session, "Maya", "Okonkwo")
    assert ok(session, "join_waitlist", {"rid": rid("Ramen Hikari"), "party_size": 2})["quoted_wait_minutes"] == 40
    fails(session, "leave_waitlist", {"waitlist_id": entry["id"]}, "NotFound", "not found")
    sign_in(session, "Marcus", "Lee")
    assert ok(session, "leave_waitlist", {"waitlist_id": entry["id"]})["status"] == "cancelled"
    fails(session, "leave_waitlist", {"waitlist_id": entry["id"]}, "Conflict", "already cancelled")


# ---------------------------------------------------------------- check-in, points, rewards


def test_check_in_window_seats_and_credits_points(session):
    sign_in(session, "Olivia", "Chen")
    lunch = booking("Olivia", "Chen", "Olive & Oak")["id"]
    balance = diner("Olivia", "Chen")["points_balance"]
    fails(session, "check_in", {"confirmation_number": lunch}, "Conflict", "Too early", caller="user")
    at(session, "2025-05-07T17:20:00Z")
    fails(session, "check_in", {"confirmation_number": lunch}, "user_only", "user")
    seated = ok(session, "check_in", {"confirmation_number": lunch}, caller="user")
    assert seated["status"] == "seated"
    assert row(session, "diners", diner("Olivia", "Chen")["id"])["points_balance"] == balance + 100
    ledger = [p for p in session.dump()["points_activity"].values() if p["reservation_id"] == lunch]
    assert [p["points"] for p in ledger] == [100]
    fails(session, "check_in", {"confirmation_number": lunch}, "Conflict", "is seated", caller="user")


def test_late_check_in_is_refused(session):
    sign_in(session, "Olivia", "Chen")
    at(session, "2025-05-07T17:50:00Z")
    fails(
        session,
        "check_in",
        {"confirmation_number": booking("Olivia", "Chen", "Olive & Oak")["id"]},
        "Conflict",
        "15 minutes late",
        caller="user",
    )


def test_redeem_points(session):
    sign_in(session, "Maya", "Okonkwo")
    balance = diner("Maya", "Okonkwo")["points_balance"]
    fails(session, "redeem_points", {"points": 5000}, "Conflict", "5,000 are needed")
    result = ok(session, "redeem_points", {"points": 2000})
    assert result["points_balance"] == balance - 2000 and result["reward"]["amount"] == 2000
    assert row(session, "diners", diner("Maya", "Okonkwo")["id"])["points_balance"] == balance - 2000
    assert ok(session, "get_diner_profile")["rewards"][0]["id"] == result["reward"]["id"]
    fails(session, "redeem_points", {"points": 1000}, "invalid_arguments", "points")


# ---------------------------------------------------------------- reviews


def test_reviews_only_after_being_seated(session):
    sign_in(session, "Priya", "Raman")
    args = {"overall": 5, "food": 5, "service": 4, "ambience": 4, "value": 5, "text": "Lovely evening, great food!"}
    no_show = booking("Priya", "Raman", "Saffron Table")["id"]
    fails(session, "submit_review", {"confirmation_number": no_show, **args}, "Conflict", "no-show")
    upcoming = booking("Priya", "Raman", "Olive & Oak")["id"]
    fails(session, "submit_review", {"confirmation_number": upcoming, **args}, "Conflict", "booked")
    done = booking("Priya", "Raman", "The Greenhouse Kitchen")
    fails(
        session,
        "submit_review",
        {"confirmation_number": done["id"], **args, "food": 6},
        "invalid_arguments",
        "food: must be between 1 and 5 stars",
    )
    fails(
        session,
        "submit_review",
        {"confirmation_number": done["id"], **args, "text": "Great"},
        "invalid_arguments",
        "text: must be 20 to 2000 characters",
    )
    before = [r for r in SEED["reviews"] if r["rid"] == done["rid"]]
    review = ok(session, "submit_review", {"confirmation_number": done["id"], **args})
    assert review["restaurant_ratings"]["review_count"] == len(before) + 1
    total = sum(r["overall"] for r in before) + 5
    assert review["restaurant_ratings"]["overall"] == round(total / (len(before) + 1), 1)
    assert ok(session, "get_reservation", {"confirmation_number": done["id"]})["reviewed"]
    fails(session, "submit_review", {"confirmation_number": done["id"], **args}, "Conflict", "already reviewed")


def test_reviews_close_after_thirty_days(session):
    reviewed = {r["reservation_id"] for r in SEED["reviews"]}
    old = next(
        r
        for r in SEED["reservations"]
        if r["status"] == "done" and r["id"] not in reviewed and r["date_time"] < "2025-04-01"
    )
    owner = next(d for d in SEED["diners"] if d["id"] == old["diner_id"])
    sign_in(session, owner["first_name"], owner["last_name"])
    fails(
        session,
        "submit_review",
        {
            "confirmation_number": old["id"],
            "overall": 4,
            "food": 4,
            "service": 4,
            "ambience": 4,
            "value": 4,
            "text": "Good meal, a little slow though.",
        },
        "Conflict",
        "30 days",
    )


# ---------------------------------------------------------------- profile, lists, saved restaurants


def test_list_reservations_scopes(session):
    sign_in(session, "Jamal", "Carter")
    upcoming = ok(session, "list_reservations")["results"]
    dates = [r["date_time"] for r in upcoming]
    assert dates == sorted(dates) and {r["status"] for r in upcoming} == {"booked"} and len(upcoming) == 3
    assert [r["restaurant"]["name"] for r in ok(session, "list_reservations", {"scope": "past"})["results"]] == [
        "Queen of Sheba Café"
    ]
    assert ok(session, "get_diner_profile")["upcoming_reservations"] == 3


def test_save_restaurant_is_idempotent(session):
    sign_in(session, "Ben", "Alvarez")
    casa = rid("Casa Andina")
    key = f"{diner('Ben', 'Alvarez')['id']}-{casa}"
    assert ok(session, "save_restaurant", {"rid": casa})["saved"]
    assert ok(session, "save_restaurant", {"rid": casa})["saved"]
    assert [r["name"] for r in ok(session, "get_diner_profile")["saved_restaurants"]] == ["Casa Andina"]
    assert ok(session, "get_restaurant", {"rid": casa})["saved"]
    assert not ok(session, "save_restaurant", {"rid": casa, "saved": False})["saved"]
    assert key not in session.dump()["favorites"]


# ---------------------------------------------------------------- bounds in the argument types (v2)


def _schema(tool: str, argument: str) -> dict:
    """An argument's JSON schema, the optional ones' non-null branch."""
    found = SPEC.tools[tool].input_schema["properties"][argument]
    return next((s for s in found.get("anyOf", []) if s.get("type") != "null"), found)


def test_every_bound_a_tool_enforces_is_in_its_schema():
    for tool in ("find_availability", "lock_slot", "join_waitlist", "modify_reservation"):
        party = _schema(tool, "party_size")
        assert (party["minimum"], party["maximum"]) == (1, 20)
    for tool in ("find_availability", "lock_slot", "modify_reservation"):
        assert _schema(tool, "date_time")["pattern"].startswith("^\\d{4}-\\d{2}-\\d{2}")
    for side in ("backward_minutes", "forward_minutes"):
        assert (_schema("find_availability", side)["minimum"], _schema("find_availability", side)["maximum"]) == (
            0,
            150,
        )
    for tool in ("search_restaurants", "list_reservations"):
        assert _schema(tool, "page_size")["maximum"] == 50
    assert _schema("create_reservation", "special_request")["maxLength"] == 250
    assert _schema("modify_reservation", "special_request")["maxLength"] == 250
    for stars in ("overall", "food", "service", "ambience", "value"):
        assert (_schema("submit_review", stars)["minimum"], _schema("submit_review", stars)["maximum"]) == (1, 5)
    assert (_schema("submit_review", "text")["minLength"], _schema("submit_review", "text")["maxLength"]) == (20, 2000)


def test_out_of_bounds_arguments_fail_validation_and_change_nothing(session):
    sign_in(session, "Ben", "Alvarez")
    vela = rid("Trattoria Vela")
    fails(
        session,
        "find_availability",
        {"rid": vela, "date_time": "2025-05-09T19:00", "party_size": 0},
        "invalid_arguments",
        "party_size: must be 1 to 20 guests",
    )
    fails(
        session,
        "lock_slot",
        {"rid": vela, "date_time": "2025-05-09 19:00 CDT", "party_size": 2},
        "invalid_arguments",
        "date_time: must be a local time",
    )
    fails(
        session,
        "lock_slot",
        {"rid": vela, "date_time": "2025-02-30T19:00", "party_size": 2},
        "InvalidRequest",
        "date_time",
    )
    fails(session, "list_reservations", {"page_size": 51}, "invalid_arguments", "page_size")
    sign_in(session, "Priya", "Raman")
    upcoming = booking("Priya", "Raman", "Olive & Oak")["id"]
    fails(
        session,
        "modify_reservation",
        {"confirmation_number": upcoming, "special_request": "y" * 251},
        "invalid_arguments",
        "special_request: must be at most 250 characters",
    )


def test_search_ratings_and_saved_flags_match_the_profiles(session):
    found = ok(session, "search_restaurants", {"page_size": 50})["results"]
    assert not any(r["saved"] for r in found)
    for summary in found[:8]:
        profile = ok(session, "get_restaurant", {"rid": summary["rid"]})
        assert (summary["rating"], summary["review_count"]) == (
            profile["ratings"]["overall"],
            profile["ratings"]["review_count"],
        )
    sign_in(session, "Maya", "Okonkwo")
    saved = {f["rid"] for f in SEED["favorites"] if f["diner_id"] == diner("Maya", "Okonkwo")["id"]}
    found = ok(session, "search_restaurants", {"page_size": 50})["results"]
    assert saved and {r["rid"] for r in found if r["saved"]} == saved


def test_redeemed_points_are_recorded_in_the_activity(session):
    sign_in(session, "Maya", "Okonkwo")
    ok(session, "redeem_points", {"points": 2000})
    activity = [a for a in session.dump()["points_activity"].values() if a["points"] == -2000]
    assert [a["description"] for a in activity] == ["Redeemed for a $20 dining reward"]
