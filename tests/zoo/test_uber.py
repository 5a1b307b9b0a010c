"""Uber's rider rules, each with a test that can fail: sign-in, service area and trip limits, upfront fares (used
once, expiring, surge accepted by the rider only), one on-demand ride at a time, payment checks (outstanding
balance, expired cards, cash, business accounts), a business profile's policy, scheduling windows, cancellation
fees, destination changes, tips and ratings, promotion codes, saved places and payment profiles, and failures that
change nothing."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("uber")
NOON = datetime(2026, 6, 12, 18, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
NS = uuid.UUID("6b1e3c2a-9f1d-4c55-8a77-0e2f5d9b1c44")
LOC = {row["name"]: row for row in SEED["locations"]}

session = session_fixture(SPEC, NOON)


def rider(email: str) -> dict[str, Any]:
    return next(row for row in SEED["riders"] if row["email"] == email)


def product(city: str, name: str) -> str:
    return next(p["product_id"] for p in SEED["products"] if p["city"] == city and p["display_name"] == name)


def special(email: str, key: str) -> str:
    return str(uuid.uuid5(NS, f"request:{email}:{key}"))


def method(email: str, **match: Any) -> str:
    owner = rider(email)["rider_id"]
    return next(
        m["payment_method_id"]
        for m in SEED["payment_methods"]
        if m["rider_id"] == owner and all(m[k] == v for k, v in match.items())
    )


def profile(email: str, kind: str) -> str:
    owner = rider(email)["rider_id"]
    return next(p["profile_id"] for p in SEED["profiles"] if p["rider_id"] == owner and p["type"] == kind)


def sign_in(session: ToolSession, email: str) -> None:
    ok(session, "sign_in", {"email": email}, caller="user")


def to(name: str, end: str = "end") -> dict[str, float]:
    return {f"{end}_latitude": LOC[name]["latitude"], f"{end}_longitude": LOC[name]["longitude"]}


def fare(session: ToolSession, city: str, name: str, start: str, end: str, **extra: Any) -> dict[str, Any]:
    return ok(
        session,
        "estimate_ride",
        {"product_id": product(city, name), **to(start, "start"), **to(end), **extra},
    )


MAYA = "maya.chen@northwindlabs.com"
HANNAH = "hannah.kim@gmail.com"
PRIYA = "priya.nair@outlook.com"
DAN = "dan.ortiz@gmail.com"


def test_every_account_tool_needs_a_signed_in_rider(session):
    fails(session, "get_me", {}, "PermissionDenied", "Sign in to Uber first")
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "No Uber account", caller="user")
    sign_in(session, "MChenoweth@gmail.com")
    assert ok(session, "get_me")["last_name"] == "Chenoweth"


def test_only_the_rider_signs_in_and_accepts_surge(session):
    outcome = session.call("sign_in", {"email": HANNAH}, caller="agent")
    assert not outcome.ok


def test_products_follow_the_city_and_none_outside_the_service_area(session):
    sf = ok(session, "list_products", {"latitude": 37.7955, "longitude": -122.3937})
    assert [p["display_name"] for p in sf][:3] == ["UberX", "UberX Share", "Comfort"]
    assert all(
        p["product_id"] in {x["product_id"] for x in SEED["products"] if x["city"] == "San Francisco"} for p in sf
    )
    assert ok(session, "list_products", {"latitude": 38.5766, "longitude": -121.4935}) == []


def test_trips_over_100_miles_or_going_nowhere_are_refused(session):
    sign_in(session, HANNAH)
    far = {"start_latitude": 37.7955, "start_longitude": -122.3937, "end_latitude": 36.1147, "end_longitude": -115.1728}
    fails(session, "get_price_estimates", far, "InvalidRequest", "exceeds 100 miles")
    same = {**to("Ferry Building", "start"), **to("Ferry Building")}
    fails(session, "estimate_ride", {"product_id": product("San Francisco", "UberX"), **same}, "InvalidRequest", "same")


def test_a_product_serves_only_its_city_and_seats_only_on_shared_rides(session):
    sign_in(session, HANNAH)
    args = {"product_id": product("Los Angeles", "UberX"), **to("Ferry Building", "start"), **to("Oracle Park")}
    fails(session, "estimate_ride", args, "InvalidRequest", "outside_service_area")
    args = {"product_id": product("San Francisco", "UberX"), **to("Ferry Building", "start"), **to("Oracle Park")}
    fails(session, "estimate_ride", {**args, "seat_count": 2}, "InvalidRequest", "invalid_seat_count")
    one = fare(session, "San Francisco", "UberX Share", "Ferry Building", "Oracle Park")
    two = fare(session, "San Francisco", "UberX Share", "Ferry Building", "Oracle Park", seat_count=2)
    assert float(two["value"]) > float(one["value"])


def test_a_fare_is_used_once_and_expires_after_five_minutes(session):
    sign_in(session, HANNAH)
    quote = fare(session, "San Francisco", "UberX", "Ferry Building", "Oracle Park")
    ride = ok(session, "request_ride", {"fare_id": quote["fare_id"]})
    assert ride["status"] == "processing" and ride["fare"] == quote["value"]
    ok(session, "cancel_ride", {"request_id": ride["request_id"]})
    fails(session, "request_ride", {"fare_id": quote["fare_id"]}, "Conflict", "invalid_fare_id")
    session.reset("seed", NOON)
    sign_in(session, HANNAH)
    quote = fare(session, "San Francisco", "UberX", "Ferry Building", "Oracle Park")
    for _ in range(10):
        ok(session, "get_me")
    fails(session, "request_ride", {"fare_id": quote["fare_id"]}, "Conflict", "fare_expired")


def test_surge_must_be_accepted_by_the_rider(session):
    sign_in(session, HANNAH)
    quote = fare(session, "San Francisco", "Black", "Ferry Building", "Oracle Park")
    assert quote["surge_multiplier"] == 1.6 and quote["surge_confirmation_id"]
    calm = fare(session, "San Francisco", "UberX", "Ferry Building", "Oracle Park")
    assert calm["surge_confirmation_id"] is None
    fails(session, "request_ride", {"fare_id": quote["fare_id"]}, "Conflict", "surge")
    assert not session.call("confirm_surge", {"surge_confirmation_id": quote["surge_confirmation_id"]}).ok
    ok(session, "confirm_surge", {"surge_confirmation_id": quote["surge_confirmation_id"]}, caller="user")
    assert ok(session, "request_ride", {"fare_id": quote["fare_id"]})["surge_multiplier"] == 1.6


def test_one_on_demand_ride_at_a_time_but_scheduled_rides_may_wait(session):
    sign_in(session, "sam.okafor@gmail.com")
    quote = fare(session, "San Francisco", "UberX", "Ferry Building", "Oracle Park")
    fails(session, "request_ride", {"fare_id": quote["fare_id"]}, "Conflict", "current_trip_exists")
    later = ok(session, "request_ride", {"fare_id": quote["fare_id"], "scheduled_pickup_time": "2026-06-13T16:00:00Z"})
    assert later["status"] == "scheduled"


def test_scheduled_pickups_are_15_minutes_to_30_days_ahead(session):
    sign_in(session, HANNAH)
    quote = fare(session, "San Francisco", "UberX", "Ferry Building", "Oracle Park")
    for when in ("2026-06-12T18:05:00Z", "2026-07-20T18:00:00Z"):
        fails(
            session,
            "request_ride",
            {"fare_id": quote["fare_id"], "scheduled_pickup_time": when},
            "InvalidRequest",
            "15 minutes to 30 days",
        )


def test_an_outstanding_balance_blocks_rides_until_paid(session):
    sign_in(session, PRIYA)
    quote = fare(session, "San Francisco", "UberX", "Ferry Building", "Oracle Park")
    new_visa = method(PRIYA, description="***8817")
    args = {"fare_id": quote["fare_id"], "payment_method_id": new_visa}
    fails(session, "request_ride", args, "Conflict", "pay_balance")
    expired = method(PRIYA, description="***4242")
    fails(session, "pay_outstanding_balance", {"payment_method_id": expired}, "InvalidRequest", "expired")
    assert ok(session, "pay_outstanding_balance", {"payment_method_id": new_visa})["outstanding_balance"] == "0.00"
    fails(session, "pay_outstanding_balance", {"payment_method_id": new_visa}, "Conflict", "no outstanding balance")
    assert ok(session, "request_ride", args)["payment_method_id"] == new_visa


def test_expired_cards_cash_and_business_accounts_are_refused_where_they_cannot_pay(session):
    restore_seed_with(session, lambda t: [r.update(outstanding_balance=0) for r in t["riders"]], NOON)
    sign_in(session, PRIYA)
    quote = fare(session, "San Francisco", "UberX", "Ferry Building", "Oracle Park")
    fails(session, "request_ride", {"fare_id": quote["fare_id"]}, "InvalidRequest", "has expired")
    session.reset("seed", NOON)
    sign_in(session, MAYA)
    quote = fare(session, "San Francisco", "UberX", "Ferry Building", "Oracle Park")
    business = method(MAYA, type="business_account")
    args = {"fare_id": quote["fare_id"], "payment_method_id": business}
    fails(session, "request_ride", args, "InvalidRequest", "payment_method_not_allowed")
    personal = profile(MAYA, "personal")
    args = {"profile_id": personal, "default_payment_method_id": business}
    fails(session, "update_profile", args, "InvalidRequest", "only on a business profile")


def test_cash_only_on_products_that_take_it(session):
    restore_seed_with(
        session,
        lambda t: t["payment_methods"].append(
            {
                "payment_method_id": "00000000-0000-4000-8000-000000000001",
                "rider_id": rider(DAN)["rider_id"],
                "type": "cash",
                "description": "Cash",
                "expiration": None,
                "last_used": False,
            }
        ),
        NOON,
    )
    sign_in(session, DAN)
    quote = fare(session, "Los Angeles", "UberXL", "Union Station", "The Grove")
    args = {"fare_id": quote["fare_id"], "payment_method_id": "00000000-0000-4000-8000-000000000001"}
    fails(session, "request_ride", args, "InvalidRequest", "payment_method_not_allowed: UberXL does not take cash")


def test_a_business_profile_enforces_its_policy(session):
    sign_in(session, MAYA)
    business = profile(MAYA, "business")
    black = fare(session, "San Francisco", "Black", "Ferry Building", "Oracle Park")
    ok(session, "confirm_surge", {"surge_confirmation_id": black["surge_confirmation_id"]}, caller="user")
    args = {"fare_id": black["fare_id"], "profile_id": business, "expense_memo": "Client"}
    fails(session, "request_ride", args, "InvalidRequest", "product_not_allowed")
    comfort = fare(session, "San Francisco", "Comfort", "Ferry Building", "Oracle Park")
    fails(session, "request_ride", {"fare_id": comfort["fare_id"], "profile_id": business}, "InvalidRequest", "memo")
    ride = ok(
        session, "request_ride", {"fare_id": comfort["fare_id"], "profile_id": business, "expense_memo": "Client"}
    )
    assert ride["payment_method_id"] == method(MAYA, type="business_account")


def test_cancelling_while_matching_or_within_two_minutes_of_acceptance_is_free(session):
    sign_in(session, "lena.fischer@hey.com")
    ride = ok(session, "cancel_ride", {"request_id": special("lena.fischer@hey.com", "current")})
    assert ride["status"] == "rider_canceled"
    fails(session, "get_receipt", {"request_id": ride["request_id"]}, "Conflict", "nothing was charged")
    session.reset("seed", NOON)
    sign_in(session, "theo.grant@icloud.com")
    theo = special("theo.grant@icloud.com", "current")
    assert ok(session, "cancel_ride", {"request_id": theo})["status"] == "rider_canceled"
    fails(session, "get_receipt", {"request_id": theo}, "Conflict", "nothing was charged")


def test_cancelling_later_charges_the_products_fee(session):
    sign_in(session, "sam.okafor@gmail.com")
    rid = special("sam.okafor@gmail.com", "current")
    ok(session, "cancel_ride", {"request_id": rid})
    receipt = ok(session, "get_receipt", {"request_id": rid})
    assert receipt["charges"] == [{"name": "Cancellation fee", "amount": "5.00"}]
    fails(session, "cancel_ride", {"request_id": rid}, "Conflict", "already rider_canceled")


def test_the_current_ride_is_the_one_under_way_or_none(session):
    sign_in(session, "sam.okafor@gmail.com")
    assert ok(session, "get_ride")["request_id"] == special("sam.okafor@gmail.com", "current")
    session.reset("seed", NOON)
    sign_in(session, HANNAH)
    fails(session, "get_ride", {}, "NotFound", "no_current_trip")


def test_a_trip_in_progress_cannot_be_canceled(session):
    sign_in(session, "jonah.weiss@proton.me")
    fails(
        session, "cancel_ride", {"request_id": special("jonah.weiss@proton.me", "current")}, "Conflict", "in progress"
    )


def test_scheduled_rides_cancel_free_only_an_hour_or_more_ahead(session):
    email = "ava.thompson@harborfinch.com"
    sign_in(session, email)
    soon = ok(session, "cancel_ride", {"request_id": special(email, "sched1")})
    sunday = ok(session, "cancel_ride", {"request_id": special(email, "sched2")})
    assert ok(session, "get_receipt", {"request_id": soon["request_id"]})["total_charged"] == "10.00"
    fails(session, "get_receipt", {"request_id": sunday["request_id"]}, "Conflict", "nothing was charged")


def test_destination_changes_reprice_and_shared_rides_cannot_change(session):
    sign_in(session, "sam.okafor@gmail.com")
    rid = special("sam.okafor@gmail.com", "current")
    before = ok(session, "get_ride", {"request_id": rid})
    after = ok(session, "update_ride_destination", {"request_id": rid, **to("SFO Terminal 2 Departures")})
    assert float(after["fare"]) > float(before["fare"]) and after["destination"]["address"].startswith("SFO Terminal 2")
    session.reset("seed", NOON)
    sign_in(session, HANNAH)
    shared = fare(session, "San Francisco", "UberX Share", "Ferry Building", "Oracle Park")
    ride = ok(session, "request_ride", {"fare_id": shared["fare_id"]})
    args = {"request_id": ride["request_id"], **to("Chase Center")}
    fails(session, "update_ride_destination", args, "Conflict", "can't be changed")


def _completed(email: str, **match: Any) -> dict[str, Any]:
    owner = rider(email)["rider_id"]
    rows = [
        r
        for r in SEED["requests"]
        if r["rider_id"] == owner and r["status"] == "completed" and all(r[k] == v for k, v in match.items())
    ]
    return max(rows, key=lambda r: r["requested_at"])


def test_tips_once_within_30_days_and_ratings_once(session):
    sign_in(session, HANNAH)
    trip = _completed(HANNAH, tip=0, rating_given=None)
    receipt = ok(session, "tip_driver", {"request_id": trip["request_id"], "amount": "4.50"})
    assert receipt["total_charged"] == f"{(trip['total_charged'] + 450) / 100:.2f}"
    fails(session, "tip_driver", {"request_id": trip["request_id"], "amount": "2"}, "Conflict", "already added")
    ok(session, "rate_trip", {"request_id": trip["request_id"], "rating": 5})
    fails(session, "rate_trip", {"request_id": trip["request_id"], "rating": 4}, "Conflict", "already rated")
    canceled = special("lena.fischer@hey.com", "current")
    fails(session, "tip_driver", {"request_id": canceled, "amount": "2"}, "NotFound", "not found")


def test_tips_after_30_days_are_refused(session):
    owner = rider(HANNAH)["rider_id"]
    old = min(
        (r for r in SEED["requests"] if r["rider_id"] == owner and r["status"] == "completed" and not r["tip"]),
        key=lambda r: r["dropoff_at"],
    )
    session.reset("seed", NOON + timedelta(days=60))
    sign_in(session, HANNAH)
    fails(session, "tip_driver", {"request_id": old["request_id"], "amount": "3"}, "Conflict", "within 30 days")


def test_promotion_codes_once_unexpired_in_their_city_and_first_ride_only(session):
    sign_in(session, HANNAH)
    result = ok(session, "apply_promo_code", {"code": "sfsummer10"})
    assert result["credit"] == "10.00"
    fails(session, "apply_promo_code", {"code": "SFSUMMER10"}, "Conflict", "already been applied")
    fails(session, "apply_promo_code", {"code": "SPRINGFLING"}, "Conflict", "expired")
    fails(session, "apply_promo_code", {"code": "FRIENDS25"}, "Conflict", "first trip")
    fails(session, "apply_promo_code", {"code": "LAWEEKEND15"}, "Conflict", "Los Angeles")
    fails(session, "apply_promo_code", {"code": "NOPE123"}, "NotFound", "not valid")
    session.reset("seed", NOON)
    sign_in(session, "zoe.martin@gmail.com")
    assert ok(session, "apply_promo_code", {"code": "WELCOME20"})["uber_cash"] == "20.00"


def test_location_search_needs_words_and_filters_by_city(session):
    found = ok(session, "search_locations", {"query": "union station"})
    assert {row["city"] for row in found} == {"Los Angeles"}
    assert ok(session, "search_locations", {"query": "union station", "city": "San Francisco"}) == []
    fails(session, "search_locations", {"query": "   "}, "invalid_arguments", "query")


def test_saved_places_need_an_address_search_finds(session):
    sign_in(session, HANNAH)
    fails(session, "save_place", {"place_id": "work", "address": "1 Nowhere Rd"}, "InvalidRequest", "Address not found")
    saved = ok(session, "save_place", {"place_id": "tartine", "address": LOC["Tartine Bakery"]["address"].upper()})
    assert saved["label"] == "Tartine" and saved["latitude"] == LOC["Tartine Bakery"]["latitude"]
    quote = ok(
        session,
        "estimate_ride",
        {"product_id": product("San Francisco", "UberX"), "start_place_id": "home", "end_place_id": "tartine"},
    )
    assert quote["end"]["address"] == LOC["Tartine Bakery"]["address"]
    ok(session, "delete_place", {"place_id": "tartine"})
    fails(session, "delete_place", {"place_id": "tartine"}, "NotFound", "not found")


def test_history_pages_by_offset_newest_first_and_only_the_riders_own(session):
    sign_in(session, MAYA)
    first = ok(session, "list_ride_history", {"limit": 5})
    second = ok(session, "list_ride_history", {"offset": 5, "limit": 5})
    times = [h["request_time"] for h in first["history"] + second["history"]]
    assert times == sorted(times, reverse=True) and first["count"] == second["count"] >= 10
    fails(session, "get_ride", {"request_id": special("sam.okafor@gmail.com", "current")}, "NotFound", "not found")
    fails(session, "list_ride_history", {"limit": 51}, "invalid_arguments", "limit must be 1 to 50")
