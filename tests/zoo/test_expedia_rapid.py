"""The Expedia Rapid environment's tools on the real seed: regions and content filters, calendar availability,
shopping (occupancies that fit, refundable_only, sold-out rooms left out, stay-date rules), price checks
(available, price_changed, sold_out), booking (tokens used once, one guest per room, unique agency references,
holdable rates, allotments taken, sold_out and price.mismatch), holds (resume within the window, link.expired,
release), retrieval by email, room cancellation under each kind of penalty window, and room changes. Every error
path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("expedia_rapid")
CLOCK = datetime(2025, 10, 6, 14, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ITINERARIES = {r["affiliate_reference_id"]: r for r in SEED["itineraries"] if r["affiliate_reference_id"]}
PARK = ITINERARIES["WT-PARK-1017"]["itinerary_id"]
LIU = ITINERARIES["WT-LIU-LIS"]["itinerary_id"]
COLE = ITINERARIES["WT-COLE-APT"]["itinerary_id"]
REID = ITINERARIES["WT-REID-NYC"]["itinerary_id"]
TRAN = ITINERARIES["WT-TRAN-NYC"]["itinerary_id"]
OKORO = ITINERARIES["WT-OKORO-BCN"]["itinerary_id"]
NAIR = ITINERARIES["WT-NAIR-OCT"]["itinerary_id"]
BERG = ITINERARIES["WT-BERG-HOLD"]["itinerary_id"]

session = session_fixture(SPEC, CLOCK)


def allotment(session: ToolSession, room_id: str, night: str) -> int:
    return session.dump()["allotments"][f"{room_id}:{night}"]["available"]


def shop(
    session: ToolSession, pid: str, occupancy: list[str], ci: str = "2025-10-20", co: str = "2025-10-22", **kw: Any
):
    return ok(
        session,
        "get_availability",
        {"property_ids": [pid], "checkin": ci, "checkout": co, "occupancy": occupancy, **kw},
    )


def checked(session: ToolSession, rate_id: str, occupancy: list[str], ci: str = "2025-10-20", co: str = "2025-10-22"):
    rate = next(r for r in SEED["rates"] if r["rate_id"] == rate_id)
    args = {
        "property_id": rate["property_id"],
        "room_id": rate["room_id"],
        "rate_id": rate_id,
        "checkin": ci,
        "checkout": co,
    }
    return ok(session, "price_check", {**args, "occupancy": occupancy})


def book(session: ToolSession, token: str, guests: int = 1, **kw: Any) -> str:
    rooms = [{"given_name": "Ada", "family_name": f"Guest{chr(65 + n)}"} for n in range(guests)]
    args = {"token": token, "email": "ada@example.com", "phone": "+14155550100", "rooms": rooms, **kw}
    return ok(session, "create_itinerary", args)["itinerary_id"]


# ---------------------------------------------------------------- content


def test_regions_and_properties_filter(session):
    found = ok(session, "search_regions", {"name": "baixa"})
    assert [r["property_ids"] for r in found] == [["20316", "20317"]]
    city = ok(session, "get_region", {"region_id": "178276"})
    assert city["type"] == "city" and city["property_ids"] == []
    in_lisbon = ok(session, "search_properties", {"region_id": "178276"})["results"]
    assert {p["property_id"] for p in in_lisbon} == {"20314", "20315", "20316", "20317", "20318", "20319"}
    pets = ok(session, "search_properties", {"region_id": "178276", "pets_allowed": True})["results"]
    assert {p["property_id"] for p in pets} == {"20316", "20317", "20319"}
    pool = ok(session, "search_properties", {"amenity": "indoor POOL", "star_rating_min": 4.5})["results"]
    assert {p["property_id"] for p in pool} == {"20318", "40523"}
    fails(session, "get_region", {"region_id": "999"}, "NotFound", "Region '999' not found")
    fails(session, "search_properties", {"star_rating_min": 6}, "invalid_arguments", "star_rating_min")


def test_content_reviews_and_payment_options(session):
    [hotel] = ok(session, "get_property_content", {"property_ids": ["20318"]})
    assert hotel["resort_fee_per_night"] == "25.00" and hotel["checkin"]["min_age"] == 18
    assert [r["id"] for r in hotel["rooms"]] == ["2031811", "2031821", "2031831"]
    reviews = ok(session, "get_guest_reviews", {"property_id": "20318"})
    assert len(reviews) == 8 and reviews == sorted(reviews, key=lambda r: r["date_submitted"], reverse=True)
    assert ok(session, "get_payment_options", {"property_id": "20316"})["property_collect_card_types"] == [
        "VI",
        "MC",
        "AX",
        "DS",
        "JC",
    ]
    fails(
        session, "get_property_content", {"property_ids": ["20316", "12345"]}, "NotFound", "Property '12345' not found"
    )
    fails(
        session, "get_guest_reviews", {"property_id": "lisbon"}, "invalid_arguments", "property_id is a numeric string"
    )


def test_calendar_counts_rooms_left_per_night(session):
    [calendar] = ok(
        session,
        "get_calendar_availability",
        {"property_ids": ["20316"], "start_date": "2025-10-17", "end_date": "2025-10-19"},
    )
    expected = sum(allotment(session, r["room_id"], "2025-10-17") for r in SEED["rooms"] if r["property_id"] == "20316")
    assert calendar["days"][0] == {"date": "2025-10-17", "available": expected > 0, "rooms_available": expected}
    assert len(calendar["days"]) == 2


# ---------------------------------------------------------------- shopping


def test_availability_fits_occupancy_and_prices_nights(session):
    [prop] = shop(session, "20316", ["2-9,4"])
    assert [r["id"] for r in prop["rooms"]] == ["2031621"]  # only the 4-person room sleeps two adults and two children
    rate = prop["rooms"][0]["rates"][0]
    seeded = next(r for r in SEED["rates"] if r["rate_id"] == rate["id"])
    night = rate["occupancy_pricing"][0]["nightly"][0]
    assert night["base_rate"] == f"{seeded['nightly_base'] / 100:.2f}"  # Monday: no weekend uplift
    assert rate["cancel_penalties"] == [
        {
            "currency": "USD",
            "start": "2025-10-18T15:00:00Z",
            "end": "2025-10-22T11:00:00Z",
            "amount": None,
            "nights": "1",
            "percent": None,
        }
    ]
    [weekend] = shop(session, "20316", ["2"], ci="2025-10-24", co="2025-10-25")
    base = next(r for r in SEED["rates"] if r["rate_id"] == weekend["rooms"][0]["rates"][0]["id"])["nightly_base"]
    assert weekend["rooms"][0]["rates"][0]["occupancy_pricing"][0]["exclusive"] == f"{base * 120 // 100 / 100:.2f}"
    refundable = shop(session, "20316", ["2"], refundable_only=True)[0]
    assert all(rate["refundable"] for room in refundable["rooms"] for rate in room["rates"])
    assert shop(session, "20316", ["8"]) == []


def test_availability_leaves_out_sold_out_rooms(session):
    def sell_out(tables):
        for row in tables["allotments"]:
            if row["room_id"] == "2031611" and row["date"] == "2025-10-21":
                row["available"] = 0

    restore_seed_with(session, sell_out, CLOCK)
    [prop] = shop(session, "20316", ["2"])
    assert "2031611" not in [r["id"] for r in prop["rooms"]]
    assert [r["id"] for r in shop(session, "20316", ["2"], ci="2025-10-22", co="2025-10-23")[0]["rooms"]][
        0
    ] == "2031611"
    sold = checked(session, "220316110", ["2"])
    assert sold["status"] == "sold_out" and sold["token"] is None
    assert len(session.dump()["price_checks"]) == len(SEED["price_checks"])  # a sold-out check issues no token


def test_stay_dates_and_occupancy_are_checked(session):
    base = {"property_ids": ["20316"], "occupancy": ["2"]}
    fails(
        session,
        "get_availability",
        {**base, "checkin": "2025-10-05", "checkout": "2025-10-07"},
        "InvalidRequest",
        "checkin must not be in the past",
    )
    fails(
        session,
        "get_availability",
        {**base, "checkin": "2025-10-09", "checkout": "2025-10-09"},
        "InvalidRequest",
        "checkout must be after checkin",
    )
    fails(
        session,
        "get_availability",
        {**base, "checkin": "2025-10-09", "checkout": "2025-11-07"},
        "InvalidRequest",
        "at most 28 nights",
    )
    bad = {"property_ids": ["20316"], "checkin": "2025-10-09", "checkout": "2025-10-10", "occupancy": ["2-18"]}
    fails(session, "get_availability", bad, "invalid_arguments", "occupancy.0")


def test_price_check_reports_live_price_changes(session):
    drifted = next(r for r in SEED["rates"] if r["live_change_percent"] > 0 and r["property_id"] == "20316")
    shopped = shop(session, "20316", ["2"])[0]
    cached = next(rt for rm in shopped["rooms"] for rt in rm["rates"] if rt["id"] == drifted["rate_id"])
    live = checked(session, drifted["rate_id"], ["2"])
    assert live["status"] == "price_changed" and live["token"]
    assert float(live["total_inclusive"]) > float(cached["total_inclusive"])
    steady = next(r for r in SEED["rates"] if r["live_change_percent"] == 0 and r["room_id"] == "2031611")
    assert checked(session, steady["rate_id"], ["2"])["status"] == "available"
    args = {
        "property_id": "20314",
        "room_id": "2031611",
        "rate_id": steady["rate_id"],
        "checkin": "2025-10-20",
        "checkout": "2025-10-22",
        "occupancy": ["2"],
    }
    fails(
        session,
        "price_check",
        args,
        "InvalidRequest",
        "resource.not_found: room 2031611 is not a room of property 20314",
    )
    fails(
        session,
        "price_check",
        {**args, "property_id": "20316", "occupancy": ["3"]},
        "InvalidRequest",
        "does not fit room 2031611",
    )


# ---------------------------------------------------------------- booking


def test_booking_takes_rooms_and_is_retrievable_by_email_only(session):
    before = allotment(session, "2031611", "2025-10-20")
    token = checked(session, "220316110", ["2", "1"])["token"]
    itinerary_id = book(session, token, guests=2, affiliate_reference_id="WT-TEST-1")
    assert allotment(session, "2031611", "2025-10-20") == before - 2
    itinerary = ok(session, "retrieve_itinerary", {"itinerary_id": itinerary_id, "email": "ADA@example.com"})
    assert [r["status"] for r in itinerary["rooms"]] == ["booked", "booked"]
    assert [r["number_of_adults"] for r in itinerary["rooms"]] == [2, 1]
    assert itinerary["rooms"][0]["cancel_refund_now"] == itinerary["rooms"][0]["total_inclusive"]
    fails(
        session,
        "retrieve_itinerary",
        {"itinerary_id": itinerary_id, "email": "eve@example.com"},
        "NotFound",
        "resource.not_found",
    )
    assert [
        i["itinerary_id"]
        for i in ok(session, "search_itineraries", {"email": "ada@example.com", "affiliate_reference_id": "WT-TEST-1"})
    ] == [itinerary_id]


def test_booking_rules(session):
    token = checked(session, "220316110", ["2"])["token"]
    rooms = [{"given_name": "Ada", "family_name": "Lovelace"}]
    args = {"token": token, "email": "ada@example.com", "phone": "+14155550100", "rooms": rooms}
    fails(
        session,
        "create_itinerary",
        {**args, "rooms": rooms * 2},
        "InvalidRequest",
        "one guest per room priced (1), got 2",
    )
    fails(
        session,
        "create_itinerary",
        {**args, "affiliate_reference_id": "WT-PARK-1017"},
        "Conflict",
        "duplicate_itinerary",
    )
    fails(session, "create_itinerary", {**args, "token": "tok_999999"}, "NotFound", "link.expired")
    fails(session, "create_itinerary", {**args, "phone": "4155550100"}, "invalid_arguments", "phone must be E.164")
    nonref = checked(session, "220316111", ["2"])["token"]
    fails(session, "create_itinerary", {**args, "token": nonref, "hold": True}, "InvalidRequest", "cannot be held")
    book(session, token)
    fails(session, "create_itinerary", args, "Conflict", "duplicate_itinerary: token")


def test_sold_out_between_price_check_and_booking(session):
    def two_left(tables):
        for row in tables["allotments"]:
            if row["room_id"] == "2031611" and row["date"] in ("2025-10-20", "2025-10-21"):
                row["available"] = 1

    restore_seed_with(session, two_left, CLOCK)
    first = checked(session, "220316110", ["2"])["token"]
    second = checked(session, "220316110", ["2"])["token"]
    book(session, first)
    args = {
        "token": second,
        "email": "bo@example.com",
        "phone": "+14155550101",
        "rooms": [{"given_name": "Bo", "family_name": "Li"}],
    }
    fails(session, "create_itinerary", args, "Conflict", "sold_out")


def test_stale_price_check_is_a_price_mismatch(session):
    token = checked(session, "220316110", ["2"])["token"]
    fresh = list(session.dump()["price_checks"].values())

    def stale(tables):
        row = next(r for r in fresh if r["token"] == token)
        tables["price_checks"].append({**row, "total": row["total"] - 1000})

    restore_seed_with(session, stale, CLOCK)
    args = {
        "token": token,
        "email": "ada@example.com",
        "phone": "+14155550100",
        "rooms": [{"given_name": "Ada", "family_name": "Lovelace"}],
    }
    fails(session, "create_itinerary", args, "Conflict", "price.mismatch")


# ---------------------------------------------------------------- holds


def test_hold_resume_and_release(session):
    before = allotment(session, "2031611", "2025-10-20")
    token = checked(session, "220316110", ["2"])["token"]
    held = ok(
        session,
        "create_itinerary",
        {
            "token": token,
            "email": "ada@example.com",
            "phone": "+14155550100",
            "rooms": [{"given_name": "Ada", "family_name": "Lovelace"}],
            "hold": True,
        },
    )
    assert held["links"]["resume"]
    itinerary = ok(session, "retrieve_itinerary", {"itinerary_id": held["itinerary_id"], "email": "ada@example.com"})
    assert itinerary["hold_status"] == "held" and itinerary["rooms"][0]["status"] == "pending"
    fails(
        session,
        "cancel_room",
        {"itinerary_id": held["itinerary_id"], "room_id": held["itinerary_id"] + "-1"},
        "Conflict",
        "cancel.not_allowed",
    )
    released = ok(session, "cancel_held_itinerary", {"itinerary_id": held["itinerary_id"]})
    assert released["room_statuses"] == ["canceled"] and allotment(session, "2031611", "2025-10-20") == before
    fails(session, "resume_held_itinerary", {"itinerary_id": held["itinerary_id"]}, "Conflict", "is not on hold")


def test_resume_within_window_and_expired_hold(session):
    assert ok(session, "resume_held_itinerary", {"itinerary_id": NAIR})["room_statuses"] == ["booked"]
    fails(session, "resume_held_itinerary", {"itinerary_id": NAIR}, "Conflict", "is not on hold")
    fails(session, "resume_held_itinerary", {"itinerary_id": BERG}, "Conflict", "link.expired")
    assert ok(session, "cancel_held_itinerary", {"itinerary_id": BERG})["hold_status"] == "released"


# ---------------------------------------------------------------- cancel and change


def test_cancel_free_window_refunds_everything_and_frees_the_room(session):
    before = allotment(session, "2031621", "2025-10-17")
    done = ok(session, "cancel_room", {"itinerary_id": PARK, "room_id": PARK + "-2"})
    assert done["penalty_charged"] == "0.00" and float(done["refund"]) > 0
    assert allotment(session, "2031621", "2025-10-17") == before + 1
    fails(
        session, "cancel_room", {"itinerary_id": PARK, "room_id": PARK + "-2"}, "Conflict", "cancel.not_allowed: room"
    )


def test_cancel_charges_the_open_windows_penalty(session):
    liu = next(r for r in SEED["itinerary_rooms"] if r["itinerary_id"] == LIU)
    first_night = sum(liu["nightly"][0])
    done = ok(session, "cancel_room", {"itinerary_id": LIU, "room_id": LIU + "-1"})
    assert done["penalty_charged"] == f"{first_night / 100:.2f}"
    cole = next(r for r in SEED["itinerary_rooms"] if r["itinerary_id"] == COLE)
    total = sum(b + t for b, t in cole["nightly"])
    assert (
        ok(session, "cancel_room", {"itinerary_id": COLE, "room_id": COLE + "-1"})["refund"]
        == f"{(total - total // 2) / 100:.2f}"
    )
    assert ok(session, "cancel_room", {"itinerary_id": REID, "room_id": REID + "-1"})["refund"] == "0.00"


def test_cancel_and_change_are_refused_once_the_stay_started(session):
    fails(
        session,
        "cancel_room",
        {"itinerary_id": TRAN, "room_id": TRAN + "-1"},
        "Conflict",
        "cancel.not_allowed: the stay",
    )
    fails(
        session,
        "change_room",
        {"itinerary_id": TRAN, "room_id": TRAN + "-1", "given_name": "Tomas"},
        "Conflict",
        "change.not_allowed",
    )
    fails(
        session,
        "change_room",
        {"itinerary_id": OKORO, "room_id": OKORO + "-2", "smoking": True},
        "Conflict",
        "already canceled",
    )
    fails(session, "cancel_room", {"itinerary_id": OKORO, "room_id": PARK + "-1"}, "NotFound", "has no room")


def test_change_room_updates_only_what_is_given(session):
    changed = ok(
        session,
        "change_room",
        {"itinerary_id": PARK, "room_id": PARK + "-1", "family_name": "Park-Lee", "special_request": "Crib please"},
    )
    assert (changed["given_name"], changed["family_name"], changed["special_request"]) == (
        "Helen",
        "Park-Lee",
        "Crib please",
    )
    fails(session, "change_room", {"itinerary_id": PARK, "room_id": PARK + "-1"}, "InvalidRequest", "give at least one")
    fails(
        session,
        "change_room",
        {"itinerary_id": PARK, "room_id": PARK + "-1", "given_name": "H3len"},
        "invalid_arguments",
        "names are 1-60 letters",
    )
