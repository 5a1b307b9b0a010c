"""Delta's customer rules, each with a test that can fail: sign-in and account scope, Basic Economy (no changes, no
same-day changes, no advance seats, no value after 24 hours, seat given at check-in), the 24-hour risk-free refund,
eCredits for non-refundable value and their use at booking, award miles and redeposits, seats by fare cabin and
Preferred fees by Medallion, fare-difference changes, check-in window, same-day confirmed fees and standby, and
failures that change nothing."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("delta")
CLOCK = datetime(2026, 7, 1, 13, 0, tzinfo=timezone.utc)
MAYA = ("9012345600", "maya-sky00")  # no status; Basic GY6R3X, Main VWPCF2, eCredits (one used, one expired)
DANIEL = ("9012345637", "daniel-sky01")  # no status; Main KRNC3X today DL1204
MARCUS = ("9012345711", "marcus-sky03")  # Silver; Basic 5TP9RZ bought five hours ago
NADIA = ("9012345970", "nadia-sky10")  # Silver; Main 7FZ4KA today DL2107
GRACE = ("9012345822", "grace-sky06")  # Diamond; Main JS7CGE tomorrow DL1401, three passengers
JORDAN = ("9012345785", "jordan-sky05")  # Platinum; Basic D8EFYK today DL404
PRIYA = ("9012345674", "priya-sky02")  # award R3VQRS
HANNAH = ("9012346044", "hannah-sky12")  # Platinum, 9,250 miles; Comfort+ award 8XDMDK
OLIVIA = ("9012345896", "olivia-sky08")  # refundable Main 2XB5N9

session = session_fixture(SPEC, CLOCK)


def sign_in(session, who: tuple[str, str]) -> dict:
    return ok(session, "sign_in", {"skymiles_number": who[0], "password": who[1]}, caller="user")


def test_sign_in_needs_the_right_password_and_tools_need_a_member(session):
    fails(session, "list_trips", {}, "PermissionDenied", "Please log in")
    fails(session, "sign_in", {"skymiles_number": MAYA[0], "password": "nope"}, "PermissionDenied", "incorrect", "user")
    assert sign_in(session, MAYA)["name"] == "Maya Patel"


def test_another_members_trip_is_not_found(session):
    sign_in(session, MAYA)
    fails(session, "get_trip", {"confirmation": "KRNC3X"}, "NotFound", "KRNC3X")
    fails(session, "cancel_trip", {"confirmation": "KRNC3X"}, "NotFound", "KRNC3X")


def test_basic_economy_cannot_change_pick_seats_or_go_same_day(session):
    sign_in(session, MAYA)
    args = {"confirmation": "GY6R3X", "flight_id": "DL1201-2026-07-08", "new_flight_id": "DL1204-2026-07-08"}
    fails(session, "quote_change", args, "Conflict", "Basic Economy")
    fails(session, "change_flight", args, "Conflict", "Basic Economy")
    seat = {"confirmation": "GY6R3X", "flight_id": "DL1201-2026-07-08", "passenger_id": "GY6R3X-P1", "seat": "25C"}
    fails(session, "select_seat", seat, "Conflict", "assigned after check-in")
    session.call("sign_in", {"skymiles_number": JORDAN[0], "password": JORDAN[1]}, caller="user")
    today = {"confirmation": "D8EFYK", "flight_id": "DL404-2026-07-01", "new_flight_id": "DL410-2026-07-01"}
    fails(session, "same_day_standby", today, "Conflict", "Basic Economy")
    fails(session, "same_day_confirm", today, "Conflict", "Basic Economy")


def test_basic_economy_after_24_hours_cancels_for_nothing_but_within_24_hours_refunds(session):
    sign_in(session, MAYA)
    assert ok(session, "quote_cancel", {"confirmation": "GY6R3X"})["outcome"] == "NO_VALUE"
    done = ok(session, "cancel_trip", {"confirmation": "GY6R3X"})
    assert done["credit_number"] is None and done["trip"]["status"] == "CANCELED"
    sign_in(session, MARCUS)
    quote = ok(session, "quote_cancel", {"confirmation": "5TP9RZ"})
    assert quote["outcome"] == "REFUND" and quote["amount"] != "0.00"


def test_main_cabin_cancels_to_an_ecredit_valid_one_year_and_gives_seats_back(session):
    sign_in(session, MAYA)
    before = ok(session, "get_flight_status", {"flight_number": "DL401", "date": "2026-07-06"})["seats_left"]["MAIN"]
    done = ok(session, "cancel_trip", {"confirmation": "VWPCF2"})
    assert done["outcome"] == "ECREDIT"
    credit = next(c for c in ok(session, "list_ecredits") if c["credit_number"] == done["credit_number"])
    assert credit["expires_on"] == "2027-07-01" and credit["remaining"] == done["amount"]
    after = ok(session, "get_flight_status", {"flight_number": "DL401", "date": "2026-07-06"})["seats_left"]["MAIN"]
    assert after == before + 2
    fails(session, "cancel_trip", {"confirmation": "VWPCF2"}, "Conflict", "canceled")


def test_refundable_fare_refunds(session):
    sign_in(session, OLIVIA)
    assert ok(session, "quote_cancel", {"confirmation": "2XB5N9"})["outcome"] == "REFUND"


def test_award_cancel_redeposits_miles(session):
    sign_in(session, PRIYA)
    before = ok(session, "get_profile")["miles_balance"]
    trip = ok(session, "get_trip", {"confirmation": "R3VQRS"})
    done = ok(session, "cancel_trip", {"confirmation": "R3VQRS"})
    assert done["outcome"] == "MILES_REDEPOSIT"
    assert ok(session, "get_profile")["miles_balance"] == before + trip["miles_paid"]


def test_change_collects_a_higher_fare_and_credits_a_lower_one(session):
    sign_in(session, MAYA)
    lower = {"confirmation": "VWPCF2", "flight_id": "DL501-2026-07-09", "new_flight_id": "DL507-2026-07-10"}
    quote = ok(session, "quote_change", lower)
    assert quote["fare_difference"].startswith("-") and quote["change_fee"] == "0.00"
    credits = len(ok(session, "list_ecredits"))
    ok(session, "change_flight", lower)
    assert len(ok(session, "list_ecredits")) == credits + 1
    other_route = {"confirmation": "VWPCF2", "flight_id": "DL401-2026-07-06", "new_flight_id": "DL1201-2026-07-08"}
    fails(session, "change_flight", other_route, "InvalidRequest", "same origin and destination")


def test_change_refuses_a_full_cabin(session):
    sign_in(session, MAYA)
    full = {"confirmation": "VWPCF2", "flight_id": "DL501-2026-07-09", "new_flight_id": "DL501-2026-07-10"}
    fails(session, "change_flight", full, "Conflict", "no MAIN_CLASSIC seats")


def test_award_change_needs_enough_miles(session):
    sign_in(session, HANNAH)
    args = {"confirmation": "8XDMDK", "flight_id": "DL1207-2026-07-10", "new_flight_id": "DL1204-2026-07-10"}
    quote = ok(session, "quote_change", args)
    assert quote["miles_difference"] == 6000 and quote["fare_difference"] == "0.00"
    ok(session, "change_flight", args)
    assert ok(session, "get_profile")["miles_balance"] == 3250


def test_seats_by_cabin_with_preferred_fee_by_medallion(session):
    sign_in(session, MAYA)
    base = {"confirmation": "VWPCF2", "flight_id": "DL401-2026-07-06", "passenger_id": "VWPCF2-P1"}
    fails(session, "select_seat", {**base, "seat": "11A"}, "InvalidRequest", "not in the MAIN cabin")
    fails(session, "select_seat", {**base, "seat": "20A"}, "Conflict", "not available")
    seat_map = ok(session, "get_seat_map", {"confirmation": "VWPCF2", "flight_id": "DL401-2026-07-06"})
    fees = {s["seat"]: s["fee"] for s in seat_map["seats"]}
    assert fees["22A"] == "30.00" and fees["30A"] == "0.00"
    sign_in(session, GRACE)
    diamond = ok(session, "get_seat_map", {"confirmation": "JS7CGE", "flight_id": "DL1401-2026-07-02"})
    assert {s["fee"] for s in diamond["seats"]} == {"0.00"}


def test_check_in_window_and_basic_seat_assignment(session):
    sign_in(session, GRACE)
    trip = ok(session, "check_in", {"confirmation": "JS7CGE", "flight_id": "DL1401-2026-07-02"})
    assert all(p["seats"].get("DL1401-2026-07-02") for p in trip["passengers"])
    fails(
        session,
        "check_in",
        {"confirmation": "JS7CGE", "flight_id": "DL1401-2026-07-02"},
        "Conflict",
        "already checked in",
    )
    sign_in(session, MAYA)
    fails(
        session, "check_in", {"confirmation": "VWPCF2", "flight_id": "DL401-2026-07-06"}, "Conflict", "opens 24 hours"
    )
    sign_in(session, JORDAN)
    basic = ok(session, "check_in", {"confirmation": "D8EFYK", "flight_id": "DL404-2026-07-01"})
    assert basic["passengers"][0]["seats"]["DL404-2026-07-01"].startswith("35")


def test_same_day_confirm_fee_and_standby(session):
    sign_in(session, DANIEL)
    options = ok(session, "list_same_day_options", {"confirmation": "KRNC3X", "flight_id": "DL1204-2026-07-01"})
    assert {o["flight_id"] for o in options} == {"DL1207-2026-07-01", "DL1210-2026-07-01"}
    assert {o["confirmed_fee"] for o in options} == {"75.00"}
    full = {"confirmation": "KRNC3X", "flight_id": "DL1204-2026-07-01", "new_flight_id": "DL1210-2026-07-01"}
    fails(session, "same_day_confirm", full, "Conflict", "no MAIN_CLASSIC seats")
    ok(session, "same_day_standby", full)
    fails(session, "same_day_standby", full, "Conflict", "already on the standby list")
    paid = ok(session, "get_trip", {"confirmation": "KRNC3X"})["fare_paid"]
    trip = ok(session, "same_day_confirm", {**full, "new_flight_id": "DL1207-2026-07-01"})
    assert float(trip["fare_paid"]) == float(paid) + 75
    assert [s["flight_id"] for s in trip["segments"] if s["status"] == "CONFIRMED"] == ["DL1207-2026-07-01"]


def test_same_day_needs_the_day_of_travel(session):
    sign_in(session, MAYA)
    args = {"confirmation": "VWPCF2", "flight_id": "DL401-2026-07-06", "new_flight_id": "DL404-2026-07-06"}
    fails(session, "same_day_confirm", args, "Conflict", "day of travel")


def test_booking_with_miles_and_with_an_ecredit(session):
    sign_in(session, HANNAH)
    args = {
        "flight_ids": ["DL1201-2026-07-08"],
        "fare_brand": "FIRST",
        "travelers": [{"first_name": "Hannah", "last_name": "Keller"}],
        "payment": "MILES",
    }
    fails(session, "book_trip", args, "Conflict", "You need")
    sign_in(session, MAYA)
    expired = {**args, "fare_brand": "MAIN_CLASSIC", "payment": "ECREDIT", "credit_number": "0062399001954"}
    fails(session, "book_trip", expired, "Conflict", "expired")
    trip = ok(session, "book_trip", {**expired, "credit_number": "0062399000000"})
    assert trip["payment"] == "ECREDIT" and trip["status"] == "TICKETED"
    credit = next(c for c in ok(session, "list_ecredits") if c["credit_number"] == "0062399000000")
    assert credit["remaining"] == "0.00"
    assert ok(session, "quote_cancel", {"confirmation": trip["confirmation"]})["outcome"] == "REFUND"


def test_known_traveler_and_skymiles_number_rules(session):
    sign_in(session, MAYA)
    base = {"confirmation": "VWPCF2", "passenger_id": "VWPCF2-P2"}
    fails(session, "update_traveler_info", base, "InvalidRequest", "known_traveler_number")
    fails(session, "update_traveler_info", {**base, "skymiles_number": "9012345637"}, "InvalidRequest", "doesn't match")
    trip = ok(session, "update_traveler_info", {**base, "known_traveler_number": "TT4829105"})
    assert trip["passengers"][1]["known_traveler_number"] == "TT4829105"
