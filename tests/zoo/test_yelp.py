"""The Yelp environment's tools: business search (location, term, categories, price, open now, sorting, the
limit+offset cap), details with special hours, Yelp's review rules and half-star ratings, Yelp Reservations
(openings, holds, the two-hour rule, the change cut-off), Yelp Waitlist (one line at a time, position and quote),
collections and check-ins, with every error path leaving the state unchanged. Runs the real tools on the real
seed through ToolSession."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("yelp")
EVENING = datetime(2025, 5, 10, 1, 30, tzinfo=timezone.utc)  # Friday 18:30 in San Francisco
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
LONG = "A long enough review about the food, the service and the room, written from a real visit last week."

session = session_fixture(SPEC, EVENING)


# ---------------------------------------------------------------- seed lookups (by name, never by raw id)


def biz(name: str, neighborhood: str) -> str:
    return next(b["id"] for b in SEED["businesses"] if (b["name"], b["neighborhood"]) == (name, neighborhood))


def person(email: str) -> dict[str, Any]:
    return next(u for u in SEED["users"] if u["email"] == email)


def reservation_of(email: str, business: str) -> dict[str, Any]:
    uid = person(email)["id"]
    return next(r for r in SEED["reservations"] if r["user_id"] == uid and r["business_id"] == business)


def sign_in(session: ToolSession, email: str) -> None:
    ok(session, "sign_in", {"email": email}, caller="user")


NONNA = biz("Nonna Rosa Trattoria", "North Beach")
PETIT = biz("Petit Marché", "Hayes Valley")
SEOUL = biz("Seoul Kitchen SF", "Inner Richmond")
MENSHO = biz("Mensho Ramen Bar", "Japantown")
LUNA_OLD = biz("Luna Bakery", "Mission")
MAYA, LUIS, HANNAH, KENJI = (
    "maya.okafor@gmail.com",
    "luis.garcia.sf@gmail.com",
    "hannah.schultz@gmail.com",
    "kenji.tanaka@me.com",
)


# ---------------------------------------------------------------- sign-in


def test_sign_in_is_the_persons_and_everything_personal_needs_it(session: ToolSession) -> None:
    fails(session, "sign_in", {"email": MAYA}, "user_only", "only be performed by the user")
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "incorrect", caller="user")
    fails(session, "list_reservations", {}, "PermissionDenied", "sign in to Yelp")
    fails(session, "write_review", {"business_id": NONNA, "rating": 5, "text": LONG}, "PermissionDenied", "sign in")
    assert ok(session, "search_businesses", {"location": "North Beach"})["total"] > 0  # search works signed out


# ---------------------------------------------------------------- search and details


def test_search_keeps_to_the_neighborhood_and_hides_businesses_closed_for_good(session: ToolSession) -> None:
    found = ok(session, "search_businesses", {"location": "Mission", "limit": 50})
    assert found["total"] == len(found["businesses"]) > 0
    assert {b["neighborhood"] for b in found["businesses"]} == {"Mission"}
    assert LUNA_OLD not in {b["id"] for b in found["businesses"]}
    assert ok(session, "get_business", {"business_id": LUNA_OLD})["is_closed"] is True


def test_search_filters_by_parent_category_price_and_open_now(session: ToolSession) -> None:
    restaurants = ok(
        session, "search_businesses", {"location": "San Francisco", "categories": ["restaurants"], "limit": 50}
    )
    parents = {c["alias"]: c["parent"] for c in SEED["categories"]}
    assert all(any(parents[c["alias"]] == "restaurants" for c in b["categories"]) for b in restaurants["businesses"])
    cheap = ok(session, "search_businesses", {"location": "San Francisco", "price": [1], "limit": 50})
    assert {b["price"] for b in cheap["businesses"]} == {"$"}
    everything = ok(session, "search_businesses", {"location": "Hayes Valley", "limit": 50})
    open_now = ok(session, "search_businesses", {"location": "Hayes Valley", "open_now": True, "limit": 50})
    assert PETIT in {b["id"] for b in everything["businesses"]}
    assert PETIT not in {b["id"] for b in open_now["businesses"]}  # special hours close it tonight


def test_search_sorts_and_pages(session: ToolSession) -> None:
    args = {"location": "San Francisco", "sort_by": "distance", "limit": 50}
    nearest = [b["distance"] for b in ok(session, "search_businesses", args)["businesses"]]
    assert nearest == sorted(nearest)
    rated = [b["rating"] for b in ok(session, "search_businesses", {**args, "sort_by": "rating"})["businesses"]]
    assert rated == sorted(rated, reverse=True)
    first = ok(session, "search_businesses", {**args, "limit": 5})["businesses"]
    second = ok(session, "search_businesses", {**args, "limit": 5, "offset": 5})["businesses"]
    assert [b["id"] for b in first + second] == [
        b["id"] for b in ok(session, "search_businesses", {**args, "limit": 10})["businesses"]
    ]
    radius = ok(session, "search_businesses", {"location": "North Beach", "radius": 800, "limit": 50})
    assert all(b["distance"] <= 800 for b in radius["businesses"])


def test_search_refuses_bad_windows_locations_and_categories(session: ToolSession) -> None:
    fails(
        session,
        "search_businesses",
        {"location": "San Francisco", "limit": 50, "offset": 980},
        "InvalidRequest",
        "limit+offset must be <= 1000",
    )
    fails(session, "search_businesses", {"location": "San Francisco", "limit": 51}, "invalid_arguments", "limit")
    fails(session, "search_businesses", {"location": "Atlantis"}, "NotFound", "LOCATION_NOT_FOUND")
    fails(session, "search_businesses", {"location": "Mission", "categories": ["tapas"]}, "InvalidRequest", "'tapas'")


def test_details_show_hours_special_hours_and_settings(session: ToolSession) -> None:
    petit = ok(session, "get_business", {"business_id": "petit-marche-san-francisco"})  # aliases work too
    assert petit["id"] == PETIT
    assert petit["hours"][0]["is_open_now"] is False
    assert {"date": "2025-05-09", "is_closed": True, "start": None, "end": None, "is_overnight": False} in petit[
        "special_hours"
    ]
    assert petit["reservations"]["change_cutoff_minutes"] == 240 and petit["waitlist"] is None
    nonna = ok(session, "get_business", {"business_id": NONNA})
    assert nonna["hours"][0]["is_open_now"] is True and nonna["is_claimed"] is True
    assert nonna["waitlist"]["parties_waiting"] == 3
    fails(session, "get_business", {"business_id": "no-such-place"}, "NotFound", "BUSINESS_NOT_FOUND")


# ---------------------------------------------------------------- reviews


def test_a_review_updates_the_half_star_rating_and_is_one_per_business(session: ToolSession) -> None:
    sign_in(session, MAYA)
    before = ok(session, "get_business", {"business_id": NONNA})
    posted = ok(session, "write_review", {"business_id": NONNA, "rating": 1, "text": LONG})
    stars = [r["rating"] for r in SEED["reviews"] if r["business_id"] == NONNA] + [1]
    assert posted["business_review_count"] == before["review_count"] + 1
    assert posted["business_rating"] == round(sum(stars) / len(stars) * 2) / 2
    fails(
        session,
        "write_review",
        {"business_id": NONNA, "rating": 5, "text": LONG},
        "Conflict",
        "update that review instead",
    )
    updated = ok(session, "update_review", {"review_id": posted["id"], "rating": 5})
    assert updated["rating"] == 5 and updated["time_updated"] is not None and updated["text"] == LONG
    ok(session, "remove_review", {"review_id": posted["id"]})
    after = ok(session, "get_business", {"business_id": NONNA})
    assert (after["rating"], after["review_count"]) == (before["rating"], before["review_count"])
    fails(session, "remove_review", {"review_id": posted["id"]}, "NotFound", "not found on your account")


def test_review_content_rules(session: ToolSession) -> None:
    sign_in(session, "rosa@nonnarosasf.com")
    fails(
        session,
        "write_review",
        {"business_id": NONNA, "rating": 5, "text": LONG},
        "PermissionDenied",
        "conflict-of-interest",
    )
    fails(
        session,
        "write_review",
        {"business_id": LUNA_OLD, "rating": 4, "text": LONG},
        "Conflict",
        "no longer accepts new reviews",
    )
    fails(
        session,
        "write_review",
        {"business_id": PETIT, "rating": 4, "text": LONG + " www.example.com"},
        "InvalidRequest",
        "links",
    )
    fails(
        session,
        "write_review",
        {"business_id": PETIT, "rating": 4, "text": "Too short."},
        "invalid_arguments",
        "85 and 5,000",
    )
    fails(
        session, "write_review", {"business_id": PETIT, "rating": 6, "text": LONG}, "invalid_arguments", "1 to 5 stars"
    )


def test_only_your_own_reviews_can_be_changed(session: ToolSession) -> None:
    sign_in(session, MAYA)
    daniels = next(r for r in SEED["reviews"] if r["user_id"] == person("dchen.sf@gmail.com")["id"])
    fails(session, "update_review", {"review_id": daniels["id"], "rating": 5}, "NotFound", "not found on your account")
    mine = ok(session, "list_my_reviews", {})["results"][0]
    fails(session, "update_review", {"review_id": mine["id"]}, "Conflict", "Nothing to update")


# ---------------------------------------------------------------- Yelp Reservations


def test_openings_leave_out_full_seatings_and_respect_limits(session: ToolSession) -> None:
    args = {"business_id": NONNA, "date": "2025-05-10", "time": "19:00"}
    four = ok(session, "get_reservation_openings", {**args, "covers": 4})["availability"]
    two = ok(session, "get_reservation_openings", {**args, "covers": 2})["availability"]
    assert "19:00" not in four and "19:30" not in four and "19:00" in two
    fails(session, "get_reservation_openings", {**args, "covers": 9}, "InvalidRequest", "parties of up to 8")
    fails(
        session,
        "get_reservation_openings",
        {**args, "date": "2025-07-01", "covers": 2},
        "InvalidRequest",
        "30 days ahead",
    )
    fails(
        session,
        "get_reservation_openings",
        {**args, "date": "2025-05-08", "covers": 2},
        "InvalidRequest",
        "already passed",
    )
    no_bookings = biz("Bella Vista Pizzeria", "North Beach")
    fails(
        session,
        "get_reservation_openings",
        {**args, "business_id": no_bookings, "covers": 2},
        "Conflict",
        "doesn't take reservations",
    )
    today = ok(session, "get_reservation_openings", {**args, "date": "2025-05-09", "covers": 2})["availability"]
    assert today and min(today) >= "19:00"  # at least 30 minutes from now


def test_hold_then_book_and_the_hold_is_used_once(session: ToolSession) -> None:
    sign_in(session, MAYA)
    hold = ok(session, "create_hold", {"business_id": NONNA, "date": "2025-05-10", "time": "18:00", "covers": 4})
    booked = ok(session, "create_reservation", {"hold_id": hold["hold_id"], "notes": "Birthday"})
    assert (booked["status"], booked["covers"], booked["online_changes_until"]) == ("confirmed", 4, "2025-05-10T16:00")
    fails(session, "create_reservation", {"hold_id": hold["hold_id"]}, "Conflict", "already used")
    fails(
        session,
        "create_hold",
        {"business_id": NONNA, "date": "2025-05-10", "time": "19:00", "covers": 4},
        "Conflict",
        "no opening",
    )


def test_an_expired_hold_cannot_be_booked(session: ToolSession) -> None:
    sign_in(session, MAYA)
    hold = ok(session, "create_hold", {"business_id": NONNA, "date": "2025-05-10", "time": "18:00", "covers": 2})
    session.clock.reset(EVENING + timedelta(minutes=10))
    fails(session, "create_reservation", {"hold_id": hold["hold_id"]}, "Conflict", "expired")


def test_no_two_bookings_within_two_hours(session: ToolSession) -> None:
    sign_in(session, LUIS)  # Bangkok Garden on Tuesday at 19:00
    happy = biz("Happy Kitchen", "Japantown")
    hold = ok(session, "create_hold", {"business_id": happy, "date": "2025-05-13", "time": "20:00", "covers": 4})
    fails(session, "create_reservation", {"hold_id": hold["hold_id"]}, "Conflict", "within two hours")
    later = ok(session, "create_hold", {"business_id": happy, "date": "2025-05-13", "time": "17:00", "covers": 4})
    assert ok(session, "create_reservation", {"hold_id": later["hold_id"]})["time"] == "17:00"


def test_changes_and_cancellations_stop_at_the_restaurants_cutoff(session: ToolSession) -> None:
    sign_in(session, HANNAH)  # Seoul Kitchen tonight at 19:30, cut-off 60 minutes
    tonight = reservation_of(HANNAH, SEOUL)["id"]
    fails(session, "modify_reservation", {"reservation_id": tonight, "covers": 4}, "Conflict", "please call")
    fails(session, "cancel_reservation", {"reservation_id": tonight}, "Conflict", "please call")


def test_modify_needs_an_opening_and_cancel_frees_the_seats(session: ToolSession) -> None:
    sign_in(session, KENJI)  # Nonna Rosa tomorrow at 20:00 for 2
    mine = reservation_of(KENJI, NONNA)["id"]
    fails(
        session, "modify_reservation", {"reservation_id": mine, "time": "19:00", "covers": 4}, "Conflict", "no opening"
    )
    moved = ok(session, "modify_reservation", {"reservation_id": mine, "time": "18:30", "covers": 4})
    assert (moved["time"], moved["covers"]) == ("18:30", 4)
    cancelled = ok(session, "cancel_reservation", {"reservation_id": mine})
    assert cancelled["status"] == "cancelled"
    fails(session, "cancel_reservation", {"reservation_id": mine}, "Conflict", "only confirmed")
    fails(
        session,
        "modify_reservation",
        {"reservation_id": reservation_of(MAYA, biz("Bella Vista Trattoria", "Marina"))["id"], "notes": "x"},
        "NotFound",
        "not found on your account",
    )


# ---------------------------------------------------------------- Yelp Waitlist


def test_waitlist_position_quote_and_one_line_at_a_time(session: ToolSession) -> None:
    sign_in(session, MAYA)
    visit = ok(session, "join_waitlist", {"business_id": NONNA, "party_size": 2})
    assert (visit["position"], visit["quoted_wait_minutes"]) == (4, 60)
    fails(session, "join_waitlist", {"business_id": SEOUL, "party_size": 2}, "Conflict", "leave that line first")
    left = ok(session, "leave_waitlist", {"visit_id": visit["visit_id"]})
    assert (left["status"], left["position"]) == ("left", None)
    fails(session, "leave_waitlist", {"visit_id": visit["visit_id"]}, "Conflict", "already left")
    fails(session, "get_waitlist_visit", {}, "NotFound", "not on any waitlist")


def test_leaving_moves_the_parties_behind_up(session: ToolSession) -> None:
    sign_in(session, KENJI)  # last of six in the Mensho line
    assert ok(session, "get_waitlist_visit", {})["position"] == 6
    first = min(
        (v for v in SEED["waitlist_visits"] if v["business_id"] == MENSHO and v["status"] == "waiting"),
        key=lambda v: v["joined_at"],
    )
    session.call(
        "sign_in", {"email": next(u["email"] for u in SEED["users"] if u["id"] == first["user_id"])}, caller="user"
    )
    ok(session, "leave_waitlist", {"visit_id": first["id"]})
    sign_in(session, KENJI)
    assert ok(session, "get_waitlist_visit", {})["position"] == 5


def test_waitlist_only_while_open_taking_parties_and_offered(session: ToolSession) -> None:
    sign_in(session, MAYA)
    fails(
        session,
        "join_waitlist",
        {"business_id": biz("Golden Ramen", "Chinatown"), "party_size": 2},
        "Conflict",
        "isn't taking parties",
    )
    fails(
        session,
        "join_waitlist",
        {"business_id": biz("Luna Bakery", "Noe Valley"), "party_size": 2},
        "Conflict",
        "closed right now",
    )
    fails(session, "join_waitlist", {"business_id": PETIT, "party_size": 2}, "Conflict", "doesn't take Yelp Waitlist")
    fails(session, "join_waitlist", {"business_id": MENSHO, "party_size": 5}, "InvalidRequest", "parties of up to 4")
    fails(session, "join_waitlist", {"business_id": LUNA_OLD, "party_size": 2}, "Conflict", "closed permanently")


# ---------------------------------------------------------------- collections and check-ins


def test_collections_names_unique_and_items_once(session: ToolSession) -> None:
    sign_in(session, MAYA)
    fails(session, "create_collection", {"name": "date night"}, "Conflict", "already have a collection")
    made = ok(session, "create_collection", {"name": "Tacos", "visibility": "public"})
    ok(session, "add_to_collection", {"business_id": NONNA, "collection_id": made["id"], "note": "pizza too"})
    fails(session, "add_to_collection", {"business_id": NONNA, "collection_id": made["id"]}, "Conflict", "already in")
    bookmarks = ok(session, "add_to_collection", {"business_id": NONNA})
    assert bookmarks["is_default"] and NONNA in {i["business"]["id"] for i in bookmarks["items"]}
    fails(session, "remove_from_collection", {"business_id": PETIT}, "Conflict", "isn't in")
    others = next(c["id"] for c in SEED["collections"] if c["user_id"] == person(LUIS)["id"])
    fails(
        session,
        "add_to_collection",
        {"business_id": NONNA, "collection_id": others},
        "NotFound",
        "not found on your account",
    )
    assert [c["name"] for c in ok(session, "list_collections", {})][0] == "My Bookmarks"


def test_check_in_only_while_open_and_once_a_day(session: ToolSession) -> None:
    sign_in(session, LUIS)  # already checked in at Castro Burger today
    burger = biz("Castro Burger Co.", "Castro")
    fails(session, "check_in", {"business_id": burger}, "Conflict", "already checked in")
    fails(session, "check_in", {"business_id": PETIT}, "Conflict", "closed right now")
    done = ok(session, "check_in", {"business_id": NONNA, "comment": "Dinner!"})
    assert (done["date"], done["comment"]) == ("2025-05-09", "Dinner!")
    assert ok(session, "list_check_ins", {"business_id": NONNA})["results"][0]["id"] == done["id"]
