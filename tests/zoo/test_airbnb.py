"""The Airbnb environment's tools as a guest uses them: search with dates, guests and filters, price quotes
(extra guests, weekly/monthly discounts, service fee, tax), Instant Book vs requests the host's rules answer,
payment confirmation, alterations settled by policy, cancellation refunds per policy from the simulated clock,
host messages, wishlists and reviews, with every error path leaving the state unchanged. Runs the real tools on
the real seed through ToolSession."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("airbnb")
MORNING = datetime(2026, 3, 10, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, MORNING)


# ---------------------------------------------------------------- seed lookups (by name, never by raw id)


def guest(first: str, last: str) -> dict[str, Any]:
    return next(g for g in SEED["guests"] if (g["first_name"], g["last_name"]) == (first, last))


def listing(title: str) -> str:
    return next(row["id"] for row in SEED["listings"] if row["title"] == title)


def trip(first: str, last: str, title: str) -> str:
    gid, lid = guest(first, last)["id"], listing(title)
    found = [r["code"] for r in SEED["reservations"] if r["guest_id"] == gid and r["listing_id"] == lid]
    assert len(found) == 1
    return found[0]


def sign_in(session: ToolSession, first: str, last: str) -> None:
    ok(session, "sign_in", {"email": guest(first, last)["email"]}, caller="user")


def at(session: ToolSession, iso_utc: str) -> None:
    session.clock.reset(datetime.fromisoformat(iso_utc.replace("Z", "+00:00")))


def row(session: ToolSession, table: str, key: str) -> dict[str, Any]:
    return session.dump()[table][key]


LOFT = "Sunny Alfama loft with river view"
FLAT = "Sunny Alfama flat near the castle"
GARDEN = "Príncipe Real garden house"
GRACA = "Private room in Graça with terrace"


# ---------------------------------------------------------------- sign-in


def test_sign_in_is_user_only_and_account_tools_need_it(session):
    email = guest("Maya", "Ferreira")["email"]
    fails(session, "sign_in", {"email": email}, "user_only", "user")
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "couldn't find an account", caller="user")
    fails(session, "list_reservations", {}, "PermissionDenied", "Log in")
    fails(
        session,
        "book_listing",
        {"listing_id": listing(LOFT), "check_in": "2026-05-01", "check_out": "2026-05-04"},
        "PermissionDenied",
        "Log in",
    )
    assert ok(session, "sign_in", {"email": email.upper()}, caller="user")["first_name"] == "Maya"
    assert ok(session, "get_listing", {"listing_id": listing(LOFT)})["host"]["first_name"] == "Inês"


# ---------------------------------------------------------------- search and listings


def test_search_with_dates_drops_booked_places_and_respects_filters(session):
    dates = {"city": "Lisbon", "check_in": "2026-04-11", "check_out": "2026-04-14", "adults": 2, "page_size": 50}
    ids = [r["id"] for r in ok(session, "search_listings", dates)["results"]]
    assert listing(GARDEN) in ids
    assert listing(LOFT) not in ids  # Maya holds April 10-15
    two_nights = ok(session, "search_listings", {**dates, "check_out": "2026-04-13"})["results"]
    assert listing(GARDEN) not in [r["id"] for r in two_nights]  # a 3-night minimum
    with_pets = ok(session, "search_listings", {"city": "Lisbon", "pets": 1, "page_size": 50})["results"]
    assert with_pets and all(
        ok(session, "get_listing", {"listing_id": r["id"]})["house_rules"]["pets_allowed"] for r in with_pets
    )
    pools = ok(session, "search_listings", {"city": "Austin", "amenities": ["pool"], "page_size": 50})["results"]
    assert listing("Zilker pool house") in [r["id"] for r in pools]
    cheap = ok(session, "search_listings", {"city": "Mexico City", "price_max": 50, "page_size": 50})["results"]
    assert cheap and all(float(r["nightly_price"]) <= 50 for r in cheap)
    ratings = [r["rating"] for r in ok(session, "search_listings", {"city": "Kyoto", "page_size": 50})["results"]]
    assert ratings == sorted(ratings, reverse=True)
    fails(
        session,
        "search_listings",
        {"city": "Lisbon", "check_in": "2026-04-11"},
        "InvalidRequest",
        "both check-in and check-out",
    )
    fails(session, "search_listings", {"city": "Porto"}, "invalid_arguments", "city")


def test_calendar_lists_open_nights_only(session):
    nights = ok(session, "get_calendar", {"listing_id": listing(LOFT), "start_date": "2026-04-08", "days": 9})[
        "available_nights"
    ]
    assert nights == ["2026-04-08", "2026-04-09", "2026-04-15", "2026-04-16"]
    fails(
        session,
        "get_calendar",
        {"listing_id": listing(LOFT), "start_date": "2026-04-08", "days": 91},
        "invalid_arguments",
        "days",
    )
    fails(session, "get_listing", {"listing_id": "999"}, "NotFound", "isn't available")


# ---------------------------------------------------------------- price quotes


def test_quote_adds_extra_guests_takes_the_weekly_discount_then_fees_and_tax(session):
    q = ok(
        session,
        "get_price_quote",
        {"listing_id": listing(LOFT), "check_in": "2026-05-01", "check_out": "2026-05-08", "adults": 3},
    )
    # 7 x 145 + 7 x 20 for the third guest, less 10% weekly; + 45 cleaning; 14% service and 5% Lisbon tax on 1084.50
    assert (q["nights_subtotal"], q["extra_guest_fees"], q["discount"], q["discount_kind"]) == (
        "1015.00",
        "140.00",
        "115.50",
        "weekly",
    )
    assert (q["cleaning_fee"], q["service_fee"], q["taxes"], q["total"]) == ("45.00", "151.83", "54.23", "1290.56")
    month = ok(
        session,
        "get_price_quote",
        {"listing_id": listing(LOFT), "check_in": "2026-05-01", "check_out": "2026-05-29", "adults": 2},
    )
    assert (month["discount"], month["discount_kind"], month["total"]) == ("1015.00", "monthly", "3677.10")
    short = ok(
        session, "get_price_quote", {"listing_id": listing(LOFT), "check_in": "2026-05-01", "check_out": "2026-05-03"}
    )
    assert (short["discount"], short["discount_kind"]) == ("0.00", None)
    fails(
        session,
        "get_price_quote",
        {"listing_id": listing(LOFT), "check_in": "2026-05-03", "check_out": "2026-05-01"},
        "InvalidRequest",
        "Check-out must be after check-in",
    )


def test_quote_counts_the_signed_in_guests_own_nights_as_open(session):
    args = {"listing_id": listing(LOFT), "check_in": "2026-04-10", "check_out": "2026-04-13", "adults": 2}
    assert ok(session, "get_price_quote", args)["available"] is False
    sign_in(session, "Maya", "Ferreira")
    assert ok(session, "get_price_quote", args)["available"] is True


# ---------------------------------------------------------------- booking


def test_instant_book_is_accepted_then_confirmed_by_the_guests_payment(session):
    sign_in(session, "Maya", "Ferreira")
    made = ok(
        session, "book_listing", {"listing_id": listing(GRACA), "check_in": "2026-04-08", "check_out": "2026-04-10"}
    )
    assert (made["status"], made["paid"], made["total"]) == ("accepted", "0.00", "155.89")
    fails(session, "confirm_payment", {"code": made["code"]}, "user_only", "user")
    done = ok(session, "confirm_payment", {"code": made["code"]}, caller="user")
    assert (done["status"], done["paid"]) == ("confirmed", "155.89")
    charges = [p for p in session.dump()["payments"].values() if p["reservation_code"] == made["code"]]
    assert [(p["kind"], p["amount"], p["reason"]) for p in charges] == [("charge", 15589, "booking")]
    fails(session, "confirm_payment", {"code": made["code"]}, "Conflict", "isn't waiting for payment", caller="user")
    # the nights are now taken
    fails(
        session,
        "book_listing",
        {"listing_id": listing(GRACA), "check_in": "2026-04-09", "check_out": "2026-04-11"},
        "Conflict",
        "not available",
    )


def test_requests_follow_the_hosts_rules(session):
    sign_in(session, "Daniel", "Okafor")  # not identity-verified
    hello = {"message_to_host": "Hi! Two brothers visiting Lisbon."}
    declined = ok(
        session,
        "book_listing",
        {"listing_id": listing(FLAT), "check_in": "2026-05-12", "check_out": "2026-05-16", "adults": 2, **hello},
    )
    assert declined["status"] == "declined"
    assert ok(session, "get_listing", {"listing_id": listing(FLAT)})["host"]["requires_verified_id"] is True
    # a declined request holds no nights; a host who answers within a day leaves the request pending
    sign_in(session, "Maya", "Ferreira")
    accepted = ok(
        session,
        "book_listing",
        {"listing_id": listing(FLAT), "check_in": "2026-05-12", "check_out": "2026-05-16", "adults": 2, **hello},
    )
    assert accepted["status"] == "accepted"
    pending = ok(
        session,
        "book_listing",
        {
            "listing_id": listing("Belém family apartment with crib"),
            "check_in": "2026-05-20",
            "check_out": "2026-05-23",
            **hello,
        },
    )
    assert pending["status"] == "pending"
    fails(session, "confirm_payment", {"code": pending["code"]}, "Conflict", "it is pending", caller="user")
    fails(
        session,
        "book_listing",
        {"listing_id": listing(FLAT), "check_in": "2026-06-12", "check_out": "2026-06-16"},
        "InvalidRequest",
        "Send the host a message",
    )


def test_booking_refuses_what_the_listing_or_the_card_does_not_allow(session):
    sign_in(session, "Maya", "Ferreira")
    base = {"listing_id": listing(GRACA), "check_in": "2026-05-01", "check_out": "2026-05-03"}
    fails(session, "book_listing", {**base, "adults": 2, "children": 1}, "InvalidRequest", "maximum of 2 guests")
    assert ok(session, "book_listing", {**base, "adults": 2, "infants": 1})["infants"] == 1  # infants don't count
    garden = {"listing_id": listing(GARDEN), "check_in": "2026-06-01", "check_out": "2026-06-03"}
    fails(session, "book_listing", garden, "InvalidRequest", "3-night minimum")
    fails(session, "book_listing", {**garden, "check_out": "2026-07-02"}, "InvalidRequest", "30-night maximum")
    fails(
        session,
        "book_listing",
        {"listing_id": listing(LOFT), "check_in": "2026-06-01", "check_out": "2026-06-03", "pets": 1},
        "InvalidRequest",
        "doesn't allow pets",
    )
    fails(
        session,
        "book_listing",
        {"listing_id": listing(LOFT), "check_in": "2026-03-05", "check_out": "2026-03-12"},
        "InvalidRequest",
        "in the past",
    )
    fails(
        session,
        "book_listing",
        {"listing_id": listing(LOFT), "check_in": "2026-04-12", "check_out": "2026-04-14"},
        "Conflict",
        "not available",
    )
    fails(
        session,
        "book_listing",
        {**garden, "check_out": "2026-06-05", "payment_method_id": "pm_0002"},
        "InvalidRequest",
        "has expired",
    )
    fails(
        session,
        "book_listing",
        {**garden, "check_out": "2026-06-05", "payment_method_id": "pm_0003"},
        "NotFound",
        "isn't on your account",
    )
    fails(session, "book_listing", {**garden, "adults": 17}, "invalid_arguments", "adults")


# ---------------------------------------------------------------- alterations


def test_a_longer_stay_is_charged_and_a_cheaper_one_refunded_by_policy(session):
    sign_in(session, "Maya", "Ferreira")
    code = trip("Maya", "Ferreira", LOFT)
    longer = ok(session, "change_reservation", {"code": code, "check_out": "2026-04-17"})
    assert (longer["price_difference"], longer["charged_now"]) == (longer["charged_now"], longer["charged_now"])
    assert longer["reservation"]["paid"] == longer["reservation"]["total"]  # moderate, 31 days out: fully settled
    fails(
        session, "change_reservation", {"code": code, "check_out": "2026-04-17"}, "InvalidRequest", "Nothing to change"
    )
    fails(session, "change_reservation", {"code": code, "adults": 5}, "InvalidRequest", "maximum of 4 guests")
    # Priya's strict Kyoto stay is 10 days out: half of a saving comes back
    sign_in(session, "Priya", "Raman")
    kyoto = trip("Priya", "Raman", "Machiya townhouse in Gion")
    shorter = ok(session, "change_reservation", {"code": kyoto, "check_out": "2026-03-23"})
    assert (shorter["price_difference"], shorter["refunded_now"]) == ("-634.40", "317.20")
    assert (shorter["reservation"]["total"], shorter["reservation"]["paid"]) == ("1024.80", "1342.00")


def test_alterations_need_open_nights_and_an_upcoming_trip(session):
    sign_in(session, "Aiko", "Tanaka")
    fails(
        session,
        "change_reservation",
        {"code": trip("Aiko", "Tanaka", "Arashiyama riverside room"), "adults": 1, "children": 1},
        "Conflict",
        "completed",
    )
    sign_in(session, "Tom", "Becker")
    code = trip("Tom", "Becker", "South Congress bungalow with hot tub")
    at(session, "2026-03-12T16:00:00Z")
    fails(session, "change_reservation", {"code": code, "check_out": "2026-03-15"}, "Conflict", "already started")
    sign_in(session, "Maya", "Ferreira")
    fails(session, "change_reservation", {"code": code, "adults": 2}, "NotFound", "confirmation code")


# ---------------------------------------------------------------- cancellation policies


def cancel(session: ToolSession, first: str, last: str, title: str) -> dict[str, Any]:
    sign_in(session, first, last)
    code = trip(first, last, title)
    shown = ok(session, "get_reservation", {"code": code})["refund_if_cancelled_now"]
    done = ok(session, "cancel_reservation", {"code": code})
    assert done["refund"] == shown and done["status"] == "cancelled"
    return done


def test_flexible_refunds_everything_until_24_hours_before_then_all_but_a_night(session):
    assert cancel(session, "Tom", "Becker", "South Congress bungalow with hot tub")["refund"] == "818.75"
    session.reset("seed", MORNING)
    at(session, "2026-03-12T08:00:00Z")
    late = cancel(session, "Tom", "Becker", "South Congress bungalow with hot tub")
    assert late["refund"] == "360.00"  # 530 of nights less one night (265), + 95 cleaning, no service fee


def test_moderate_and_firm_refund_half_the_nights_inside_their_windows(session):
    assert cancel(session, "Carlos", "Mendes", "Condesa penthouse with terrace")["refund"] == "470.00"  # 4 days out
    assert cancel(session, "Lena", "Hoffmann", "Camps Bay villa with pool")["refund"] == "3811.95"  # 41 days out
    assert cancel(session, "Jamal", "Carter", "Roma Norte art deco apartment")["refund"] == "1036.00"  # 26 days
    code = trip("Felix", "Garcia", "Camps Bay villa with pool")
    felix = {r["code"]: r for r in SEED["reservations"]}[code]
    assert felix["check_in"] == "2026-03-13"
    sign_in(session, "Felix", "Garcia")
    assert ok(session, "cancel_reservation", {"code": code})["refund"] == "0.00"  # firm, 3 days out


def test_strict_has_a_48_hour_grace_period_then_half_then_nothing(session):
    assert cancel(session, "Nora", "Lindqvist", "Belém family apartment with crib")["refund"] == "487.90"
    assert cancel(session, "Priya", "Raman", "Machiya townhouse in Gion")["refund"] == "710.00"
    session.reset("seed", MORNING)
    at(session, "2026-03-19T12:00:00Z")
    assert cancel(session, "Priya", "Raman", "Machiya townhouse in Gion")["refund"] == "0.00"


def test_a_pending_request_is_withdrawn_for_free_and_a_cancelled_trip_stays_cancelled(session):
    done = cancel(session, "Priya", "Raman", "Sea Point seafront apartment")
    assert done["refund"] == "0.00"
    code = trip("Priya", "Raman", "Sea Point seafront apartment")
    fails(session, "cancel_reservation", {"code": code}, "Conflict", "is cancelled")
    assert row(session, "reservations", code)["status"] == "cancelled"


def test_a_started_trip_cannot_be_cancelled_here(session):
    sign_in(session, "Tom", "Becker")
    at(session, "2026-03-12T15:30:00Z")
    fails(
        session,
        "cancel_reservation",
        {"code": trip("Tom", "Becker", "South Congress bungalow with hot tub")},
        "Conflict",
        "Contact Airbnb Support",
    )


# ---------------------------------------------------------------- reviews


def test_reviews_only_after_a_completed_stay_once_and_within_14_days(session):
    sign_in(session, "Maya", "Ferreira")
    loft = listing("East Austin modern loft")
    before = row(session, "listings", loft)
    review = ok(
        session,
        "write_review",
        {
            "code": trip("Maya", "Ferreira", "East Austin modern loft"),
            "rating": 5,
            "text": "Bright, spotless loft with a great desk.",
        },
    )
    assert (review["author"], review["rating"]) == ("Maya", 5)
    after = row(session, "listings", loft)
    assert after["review_count"] == before["review_count"] + 1 and after["rating"] >= before["rating"]
    fails(
        session,
        "write_review",
        {
            "code": trip("Maya", "Ferreira", "East Austin modern loft"),
            "rating": 4,
            "text": "Second thoughts on this stay.",
        },
        "Conflict",
        "already written",
    )
    fails(
        session,
        "write_review",
        {
            "code": trip("Maya", "Ferreira", "Nakagyo studio near Nishiki Market"),
            "rating": 4,
            "text": "Lovely studio near the market.",
        },
        "Conflict",
        "14-day window",
    )
    fails(
        session,
        "write_review",
        {"code": trip("Maya", "Ferreira", LOFT), "rating": 4, "text": "Looking forward to this stay."},
        "Conflict",
        "after your stay is completed",
    )
    fails(
        session,
        "write_review",
        {"code": trip("Maya", "Ferreira", "East Austin modern loft"), "rating": 6, "text": "Far too good to be true."},
        "invalid_arguments",
        "rating",
    )
    fails(
        session,
        "write_review",
        {"code": trip("Maya", "Ferreira", "East Austin modern loft"), "rating": 5, "text": "Great!"},
        "invalid_arguments",
        "text",
    )


# ---------------------------------------------------------------- wishlists and messages


def test_wishlists_belong_to_their_guest_and_hold_a_listing_once(session):
    sign_in(session, "Maya", "Ferreira")
    kyoto = next(w for w in ok(session, "list_wishlists") if w["name"] == "Kyoto 2026")
    gion = listing("Machiya townhouse in Gion")
    fails(session, "save_to_wishlist", {"wishlist_id": kyoto["id"], "listing_id": gion}, "Conflict", "already saved")
    fails(
        session,
        "remove_from_wishlist",
        {"wishlist_id": kyoto["id"], "listing_id": listing(LOFT)},
        "NotFound",
        "isn't saved",
    )
    fails(session, "create_wishlist", {"name": "Kyoto 2026"}, "Conflict", "already have a wishlist")
    fails(session, "create_wishlist", {"name": "x" * 51}, "invalid_arguments", "name")
    sams = next(w["id"] for w in SEED["wishlists"] if w["guest_id"] == guest("Sam", "Whitfield")["id"])
    fails(session, "save_to_wishlist", {"wishlist_id": sams, "listing_id": gion}, "NotFound", "wasn't found")
    made = ok(session, "create_wishlist", {"name": "Lisbon spring"})
    assert ok(session, "save_to_wishlist", {"wishlist_id": made["id"], "listing_id": listing(LOFT)})["listings"][0][
        "id"
    ] == listing(LOFT)
    assert (
        ok(session, "remove_from_wishlist", {"wishlist_id": made["id"], "listing_id": listing(LOFT)})["listings"] == []
    )


def test_messages_are_one_thread_per_guest_and_listing(session):
    sign_in(session, "Maya", "Ferreira")
    thread = ok(session, "message_host", {"listing_id": listing(LOFT), "text": "Can we check in at 13:00?"})
    assert [m["sender"] for m in thread["messages"]] == ["guest", "host", "guest", "host", "guest"]
    assert thread["messages"][-1]["text"] == "Can we check in at 13:00?"
    sign_in(session, "Tom", "Becker")
    assert ok(session, "get_messages", {"listing_id": listing(LOFT)})["messages"] == []
    fails(session, "message_host", {"listing_id": listing(LOFT), "text": "   "}, "invalid_arguments", "text")
