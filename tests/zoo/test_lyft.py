"""Lyft's ride rules, each with a test that can fail: logging in by phone, service zones, ETAs and drivers nearby,
Prime Time confirmation, one on-demand ride at a time, seats per ride type, expired cards, scheduling windows,
cancellation fees and their tokens (free before a match, within 2 minutes of it, for a late driver, over an hour
before a scheduled pickup), destination changes, ratings and tips, receipts, lost items and returns, saved places
and default payment methods, and failures that change nothing."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("lyft")
CLOCK = datetime(2026, 7, 17, 17, 30, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
PHONES = {row["first_name"]: row["phone_number"] for row in SEED["riders"]}
USERS = {row["first_name"]: row["user_id"] for row in SEED["riders"]}

session = session_fixture(SPEC, CLOCK)


def log_in(session: ToolSession, first_name: str) -> None:
    ok(session, "log_in", {"phone_number": PHONES[first_name]}, caller="user")


def ride(first_name: str, status: str, destination: str = "", requested_after: str = "") -> dict[str, Any]:
    """The one seed ride of a rider in a status whose destination starts with `destination`."""
    found = [
        row
        for row in SEED["rides"]
        if row["user_id"] == USERS[first_name]
        and row["status"] == status
        and row["destination"]["address"].startswith(destination)
        and row["requested_at"] >= requested_after
    ]
    assert len(found) == 1, [row["ride_id"] for row in found]
    return found[0]


def place(name: str) -> dict[str, Any]:
    return next(row for row in SEED["places"] if row["name"] == name)


def saved(first_name: str, name: str) -> dict[str, Any]:
    return next(r for r in SEED["saved_places"] if r["user_id"] == USERS[first_name] and r["name"] == name)


def method(first_name: str, label: str) -> str:
    rows = SEED["payment_methods"]
    return next(r["payment_method_id"] for r in rows if r["user_id"] == USERS[first_name] and r["label"] == label)


def request(a: dict[str, Any], b: dict[str, Any], kind: str = "lyft", **extra: Any) -> dict[str, Any]:
    return {
        "ride_type": kind,
        "origin_lat": a["lat"],
        "origin_lng": a["lng"],
        "destination_lat": b["lat"],
        "destination_lng": b["lng"],
        **extra,
    }


# ---------------------------------------------------------------- account


def test_logging_in_takes_any_phone_format_and_scopes_rides_to_the_rider(session):
    fails(session, "list_saved_places", {}, "PermissionDenied", "log in to Lyft")
    fails(session, "log_in", {"phone_number": "206 555 0000"}, "NotFound", "no Lyft account", caller="user")
    ok(session, "log_in", {"phone_number": "(206) 555-0143"}, caller="user")
    assert ok(session, "get_profile")["first_name"] == "Dana"
    marcus_ride = ride("Marcus", "arrived")["ride_id"]
    fails(session, "get_ride", {"ride_id": marcus_ride}, "NotFound", "not found")
    outcome = session.call("log_in", {"phone_number": "+12065550143"}, caller="agent")
    assert not outcome.ok and outcome.error_kind == "user_only"


# ---------------------------------------------------------------- estimates


def test_points_outside_every_region_are_not_served(session):
    fails(session, "get_etas", {"lat": 40.7128, "lng": -74.006}, "InvalidRequest", "no_service_in_area")


def test_etas_are_null_where_no_driver_of_a_type_is_near_and_such_a_ride_cannot_be_requested(session):
    log_in(session, "Marcus")
    lumen = place("Lumen Field")
    etas = {row["ride_type"]: row for row in ok(session, "get_etas", {"lat": lumen["lat"], "lng": lumen["lng"]})}
    assert etas["lyft"]["eta_seconds"] == 420 and etas["lyft_lux"]["eta_seconds"] is None
    assert etas["lyft_lux"]["is_valid_estimate"] is False
    log_in(session, "Owen")
    fails(
        session, "request_ride", request(lumen, saved("Owen", "Home"), "lyft_lux"), "Conflict", "no_drivers_available"
    )


def test_ride_types_differ_by_region_and_shared_seats_two(session):
    seattle = {row["ride_type"] for row in ok(session, "get_ride_types", {"lat": 47.6062, "lng": -122.3321})}
    boston = {row["ride_type"]: row for row in ok(session, "get_ride_types", {"lat": 42.3503, "lng": -71.081})}
    assert "lyft_line" not in seattle and "lyft_luxsuv" in seattle
    assert boston["lyft_line"]["seats"] == 2 and boston["lyft_line"]["schedulable"] is False


def test_cost_estimates_add_prime_time_and_carry_its_token(session):
    downtown, airport = saved("Ravi", "Home"), place("Seattle-Tacoma International Airport - Departures")
    args = {
        "start_lat": downtown["lat"],
        "start_lng": downtown["lng"],
        "end_lat": airport["lat"],
        "end_lng": airport["lng"],
    }
    estimate = ok(session, "get_cost_estimates", {**args, "ride_type": "lyft"})[0]
    assert estimate["primetime_percentage"] == "25%" and estimate["primetime_confirmation_token"]
    assert estimate["estimated_cost_cents_min"] < estimate["estimated_cost_cents_max"]
    quiet = saved("Dana", "Home")
    calm = ok(session, "get_cost_estimates", {**args, "start_lat": quiet["lat"], "start_lng": quiet["lng"]})[0]
    assert calm["primetime_percentage"] == "0%" and calm["primetime_confirmation_token"] is None


# ---------------------------------------------------------------- requesting


def test_prime_time_must_be_accepted_with_the_estimate_token(session):
    log_in(session, "Owen")
    office, airport = saved("Owen", "Office"), place("Seattle-Tacoma International Airport - Departures")
    fails(session, "request_ride", request(office, airport), "InvalidRequest", "primetime_confirmation_required")
    fails(
        session,
        "request_ride",
        request(office, airport, primetime_confirmation_token="0000000000"),
        "InvalidRequest",
        "primetime_confirmation_required",
    )
    args = {
        "start_lat": office["lat"],
        "start_lng": office["lng"],
        "end_lat": airport["lat"],
        "end_lng": airport["lng"],
    }
    token = ok(session, "get_cost_estimates", {**args, "ride_type": "lyft"})[0]["primetime_confirmation_token"]
    booked = ok(session, "request_ride", request(office, airport, primetime_confirmation_token=token))
    assert booked["status"] == "pending" and booked["primetime_percentage"] == "25%"
    fare, primetime, fee = (line["amount"] for line in booked["line_items"])
    assert primetime == fare * 25 // 100 and booked["price"]["amount"] == fare + primetime + fee
    assert booked["destination"]["address"] == airport["address"]


def test_one_on_demand_ride_at_a_time_but_scheduling_is_allowed(session):
    log_in(session, "Dana")
    home, gym = saved("Dana", "Home"), saved("Dana", "Climbing gym")
    fails(session, "request_ride", request(home, gym), "Conflict", "ride_already_active")
    later = ok(session, "request_ride", request(home, gym, scheduled_pickup_at="2026-07-17T20:00:00Z"))
    assert later["status"] == "scheduled" and later["scheduled_pickup_at"] == "2026-07-17T20:00:00Z"


def test_party_size_is_capped_by_the_ride_type(session):
    log_in(session, "Sofia")
    studio, station = saved("Sofia", "Studio"), place("South Station")
    fails(session, "request_ride", request(studio, station, "lyft_line", party_size=3), "InvalidRequest", "at most 2")
    fails(session, "request_ride", request(studio, station, "lyft", party_size=5), "InvalidRequest", "at most 4")
    assert ok(session, "request_ride", request(studio, station, "lyft_plus", party_size=5))["party_size"] == 5


def test_expired_cards_are_refused_for_rides_and_as_default(session):
    log_in(session, "Theo")
    work, station = saved("Theo", "Work"), place("South Station")
    old = method("Theo", "Old Visa")
    fails(session, "request_ride", request(work, station, payment_method_id=old), "InvalidRequest", "has expired")
    fails(session, "set_default_payment_method", {"payment_method_id": old}, "InvalidRequest", "has expired")
    ok(session, "set_default_payment_method", {"payment_method_id": method("Theo", "Company Amex")})
    defaults = [row["label"] for row in ok(session, "list_payment_methods") if row["is_default"]]
    assert defaults == ["Company Amex"]
    assert ok(session, "request_ride", request(work, station))["payment_method"] == "Company Amex (3007)"


def test_a_card_expiring_this_month_still_works(session):
    log_in(session, "Carlos")
    assert ok(session, "set_default_payment_method", {"payment_method_id": method("Carlos", "Visa (new)")})[
        "is_default"
    ]


def test_scheduled_pickups_are_1_hour_to_7_days_ahead_without_prime_time_and_not_shared(session):
    log_in(session, "Ravi")
    home, airport = saved("Ravi", "Home"), place("Seattle-Tacoma International Airport - Departures")
    for when in ("2026-07-17T18:00:00Z", "2026-07-24T18:00:00Z"):
        fails(
            session,
            "request_ride",
            request(home, airport, scheduled_pickup_at=when),
            "InvalidRequest",
            "1 hour to 7 days",
        )
    booked = ok(session, "request_ride", request(home, airport, scheduled_pickup_at="2026-07-20T06:00:00Z"))
    assert booked["primetime_percentage"] == "0%" and len(booked["line_items"]) == 2
    log_in(session, "Sofia")
    home, studio = saved("Sofia", "Home"), saved("Sofia", "Studio")
    shared = request(home, studio, "lyft_line", scheduled_pickup_at="2026-07-18T09:00:00Z")
    fails(session, "request_ride", shared, "InvalidRequest", "can't be scheduled")


# ---------------------------------------------------------------- cancelling


def test_cancelling_an_unmatched_ride_is_free(session):
    log_in(session, "Aisha")
    pending = ride("Aisha", "pending")["ride_id"]
    assert ok(session, "get_cancellation_cost", {"ride_id": pending})["amount"] == 0
    done = ok(session, "cancel_ride", {"ride_id": pending})
    assert (done["status"], done["canceled_by"], done["cancellation_fee"]) == ("canceled", "passenger", 0)
    fails(session, "get_ride_receipt", {"ride_id": pending}, "Conflict", "receipt_not_available")


def test_a_matched_ride_past_two_minutes_needs_its_fee_accepted_with_the_token(session):
    log_in(session, "Dana")
    active = ride("Dana", "accepted")["ride_id"]
    cost = ok(session, "get_cancellation_cost", {"ride_id": active})
    assert (cost["cancellable"], cost["amount"], cost["token_duration"]) == (True, 500, 60)
    fails(session, "cancel_ride", {"ride_id": active}, "InvalidRequest", f"cancel_confirmation_token {cost['token']}")
    wrong = {"ride_id": active, "cancel_confirmation_token": "ffffffffff"}
    fails(session, "cancel_ride", wrong, "InvalidRequest", "invalid_cancel_confirmation")
    done = ok(session, "cancel_ride", {"ride_id": active, "cancel_confirmation_token": cost["token"]})
    assert done["cancellation_fee"] == 500
    receipt = ok(session, "get_ride_receipt", {"ride_id": active})
    assert receipt["line_items"] == [{"type": "Cancel penalty", "amount": 500, "currency": "USD"}]
    fails(session, "cancel_ride", {"ride_id": active}, "Conflict", "already canceled")


def test_cancelling_is_free_within_two_minutes_of_the_match(session):
    accepted = ride("Dana", "accepted")

    def just_matched(tables: dict[str, list[dict[str, Any]]]) -> None:
        row = next(r for r in tables["rides"] if r["ride_id"] == accepted["ride_id"])
        row["accepted_at"] = "2026-07-17T17:29:30Z"

    restore_seed_with(session, just_matched, CLOCK)
    log_in(session, "Dana")
    assert ok(session, "get_cancellation_cost", {"ride_id": accepted["ride_id"]})["amount"] == 0


def test_a_driver_running_five_minutes_late_makes_cancelling_free(session):
    log_in(session, "Ravi")
    late = ride("Ravi", "accepted")["ride_id"]
    assert ok(session, "get_cancellation_cost", {"ride_id": late})["amount"] == 0
    assert ok(session, "cancel_ride", {"ride_id": late})["cancellation_fee"] == 0


def test_an_arrived_driver_always_costs_the_fee_and_a_ride_in_progress_cannot_be_cancelled(session):
    log_in(session, "Marcus")
    waiting = ride("Marcus", "arrived")["ride_id"]
    assert ok(session, "get_cancellation_cost", {"ride_id": waiting})["amount"] == 700  # Lyft XL penalty
    log_in(session, "Kenji")
    moving = ride("Kenji", "pickedUp")["ride_id"]
    cost = ok(session, "get_cancellation_cost", {"ride_id": moving})
    assert cost["cancellable"] is False and "ride_in_progress" in cost["reason"]
    fails(session, "cancel_ride", {"ride_id": moving}, "Conflict", "ride_in_progress")


def test_scheduled_rides_are_free_to_cancel_early_or_unmatched_but_not_within_the_hour_once_matched(session):
    log_in(session, "Theo")
    tomorrow = ride("Theo", "scheduled", "Terminal B")["ride_id"]
    soon = ride("Theo", "scheduled", "27 Elm")["ride_id"]
    assert ok(session, "get_cancellation_cost", {"ride_id": tomorrow})["amount"] == 0
    assert ok(session, "get_cancellation_cost", {"ride_id": soon})["amount"] == 700
    fails(session, "cancel_ride", {"ride_id": soon}, "InvalidRequest", "cancel_confirmation_required")


# ---------------------------------------------------------------- destination


def test_destination_changes_reprice_but_not_on_shared_or_finished_rides(session):
    log_in(session, "Kenji")
    moving = ride("Kenji", "pickedUp")
    sister = saved("Kenji", "Sister's")
    changed = ok(
        session, "update_ride_destination", {"ride_id": moving["ride_id"], "lat": sister["lat"], "lng": sister["lng"]}
    )
    assert changed["destination"]["address"] == sister["address"] and changed["price"]["amount"] != moving["price"]
    boston = place("South Station")
    args = {"ride_id": moving["ride_id"], "lat": boston["lat"], "lng": boston["lng"]}
    fails(session, "update_ride_destination", args, "InvalidRequest", "outside this ride's region")
    log_in(session, "Sofia")
    shared = ride("Sofia", "droppedOff", "120 Jersey", "2026-07-17")["ride_id"]
    fails(
        session,
        "update_ride_destination",
        {"ride_id": shared, "lat": 42.35, "lng": -71.07},
        "Conflict",
        "already droppedOff",
    )
    home, studio = saved("Sofia", "Home"), saved("Sofia", "Studio")
    est = {"start_lat": home["lat"], "start_lng": home["lng"], "end_lat": studio["lat"], "end_lng": studio["lng"]}
    token = ok(session, "get_cost_estimates", {**est, "ride_type": "lyft_line"})[0]["primetime_confirmation_token"]
    new = ok(session, "request_ride", request(home, studio, "lyft_line", primetime_confirmation_token=token))
    back_bay = place("Back Bay Station")
    args = {"ride_id": new["ride_id"], "lat": back_bay["lat"], "lng": back_bay["lng"]}
    fails(session, "update_ride_destination", args, "Conflict", "Shared rides can't change")


# ---------------------------------------------------------------- ratings, tips, receipts


def test_rating_is_once_on_completed_rides_and_tips_show_on_the_receipt(session):
    log_in(session, "Grace")
    lux = ride("Grace", "droppedOff", "12 Linnaean", "2026-07-16")
    rated = ok(session, "rate_ride", {"ride_id": lux["ride_id"], "rating": 5, "tip_amount": 800, "feedback": "Great"})
    assert (rated["rating"], rated["tip"]) == (5, 800)
    receipt = ok(session, "get_ride_receipt", {"ride_id": lux["ride_id"]})
    assert receipt["line_items"][-1] == {"type": "Tip", "amount": 800, "currency": "USD"}
    assert receipt["total"] == lux["price"] + 800
    fails(session, "rate_ride", {"ride_id": lux["ride_id"], "rating": 4}, "Conflict", "rating_already_submitted")
    fails(session, "add_tip", {"ride_id": lux["ride_id"], "amount": 100}, "Conflict", "tip_already_added")
    fails(session, "rate_ride", {"ride_id": lux["ride_id"], "rating": 6}, "invalid_arguments", "1 to 5")


def test_tips_close_after_72_hours_and_are_capped_at_twice_the_fare(session):
    log_in(session, "Grace")
    old = ride("Grace", "droppedOff", "138 Tremont", "2026-07-14")["ride_id"]
    fails(session, "add_tip", {"ride_id": old, "amount": 400}, "Conflict", "tip_window_expired")
    log_in(session, "Sofia")
    shared = ride("Sofia", "droppedOff", "120 Jersey", "2026-07-17")
    fails(
        session,
        "add_tip",
        {"ride_id": shared["ride_id"], "amount": shared["price"] * 2 + 1},
        "InvalidRequest",
        "tip_too_large",
    )
    assert (
        ok(session, "add_tip", {"ride_id": shared["ride_id"], "amount": shared["price"] * 2})["tip"]
        == shared["price"] * 2
    )


def test_unfinished_rides_cannot_be_rated_or_tipped(session):
    log_in(session, "Kenji")
    moving = ride("Kenji", "pickedUp")["ride_id"]
    fails(session, "rate_ride", {"ride_id": moving, "rating": 5}, "Conflict", "ride_not_complete")
    fails(session, "add_tip", {"ride_id": moving, "amount": 300}, "Conflict", "tip_not_allowed")


# ---------------------------------------------------------------- lost and found


def test_a_return_needs_the_driver_to_have_the_item_and_charges_the_fee(session):
    log_in(session, "Elena")
    reports = {row["status"]: row for row in ok(session, "list_lost_items")}
    kindle = reports["driver_has_item"]
    arranged = ok(session, "arrange_item_return", {"report_id": kindle["report_id"], "return_address": "1 Broadway"})
    assert (arranged["status"], arranged["return_fee"]) == ("return_arranged", 2000)
    lines = ok(session, "get_ride_receipt", {"ride_id": kindle["ride_id"]})["line_items"]
    assert lines[-1] == {"type": "Lost item return fee", "amount": 2000, "currency": "USD"}
    again = {"report_id": kindle["report_id"], "return_address": "1 Broadway"}
    fails(session, "arrange_item_return", again, "Conflict", "already arranged")
    log_in(session, "Carlos")
    states = {row["status"]: row["report_id"] for row in ok(session, "list_lost_items")}
    fails(
        session,
        "arrange_item_return",
        {"report_id": states["reported"], "return_address": "x"},
        "Conflict",
        "hasn't confirmed",
    )
    fails(
        session,
        "arrange_item_return",
        {"report_id": states["driver_no_item"], "return_address": "x"},
        "Conflict",
        "didn't find",
    )


def test_lost_items_are_reported_once_per_ride_within_30_days_of_a_completed_ride(session):
    log_in(session, "Elena")
    recent = ride("Elena", "droppedOff", "78 Marlborough", "2026-07-16")["ride_id"]
    report = ok(
        session, "report_lost_item", {"ride_id": recent, "description": "Umbrella", "contact_phone": "617.555.0100"}
    )
    assert (report["status"], report["contact_phone"]) == ("reported", "+16175550100")
    fails(session, "report_lost_item", {"ride_id": recent, "description": "Scarf"}, "Conflict", "report_already_open")
    old = next(
        r for r in SEED["rides"] if r["user_id"] == USERS["Elena"] and r["requested_at"].startswith("2026-06-06")
    )
    assert old["status"] == "droppedOff"
    fails(
        session,
        "report_lost_item",
        {"ride_id": old["ride_id"], "description": "Hat"},
        "Conflict",
        "report_window_expired",
    )
    log_in(session, "Aisha")
    pending = ride("Aisha", "pending")["ride_id"]
    fails(
        session, "report_lost_item", {"ride_id": pending, "description": "Hat"}, "Conflict", "only for completed rides"
    )


# ---------------------------------------------------------------- saved places and history


def test_home_is_moved_not_duplicated_and_favourites_need_a_unique_name(session):
    log_in(session, "Dana")
    before = ok(session, "list_saved_places")
    westin = place("The Westin Seattle")
    spot = {"lat": westin["lat"], "lng": westin["lng"], "address": westin["address"]}
    moved = ok(session, "save_place", {"label": "home", **spot})
    assert moved["place_id"] == saved("Dana", "Home")["place_id"] and moved["name"] == "Home"
    assert len(ok(session, "list_saved_places")) == len(before)
    fails(session, "save_place", {"label": "other", **spot}, "InvalidRequest", "needs a name")
    fails(session, "save_place", {"label": "other", "name": "mom's", **spot}, "Conflict", "place_name_taken")
    removed = ok(session, "delete_saved_place", {"place_id": saved("Dana", "Mom's")["place_id"]})
    assert removed["name"] == "Mom's"
    assert ok(session, "save_place", {"label": "other", "name": "Mom's", **spot})["place_id"].startswith("sp_")


def test_ride_history_is_newest_first_within_the_time_range(session):
    log_in(session, "Grace")
    rides = ok(session, "list_rides", {"start_time": "2026-07-13T00:00:00Z", "end_time": "2026-07-17T00:00:00Z"})
    times = [row["requested_at"] for row in rides]
    assert times == sorted(times, reverse=True) and all("2026-07-13" <= t < "2026-07-17" for t in times)
    assert len(ok(session, "list_rides", {"start_time": "2026-05-01T00:00:00Z", "limit": 3})) == 3
    fails(
        session,
        "list_rides",
        {"start_time": "2026-05-01T00:00:00Z", "limit": 51},
        "invalid_arguments",
        "less than or equal to 50",
    )


def test_search_matches_every_word_and_keeps_near_duplicates_apart(session):
    both = {row["name"] for row in ok(session, "search_places", {"query": "westin"})}
    assert both == {"The Westin Seattle", "The Westin Bellevue"}
    one = ok(session, "search_places", {"query": "Westin Bellevue"})
    assert [row["name"] for row in one] == ["The Westin Bellevue"]
    assert all(row["region"] == "BOS" for row in ok(session, "search_places", {"query": "terminal", "region": "BOS"}))
