"""The Hertz environment's tools: sign-in, opening hours and after-hours returns, one-way routes, age and license
rules, availability, pricing, Pay Now / points cancellation and change rules, extras, additional drivers, points
transfers and counter pickup, with every error path leaving the state unchanged. Runs the real tools on the seed."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("hertz")
CLOCK = datetime(2025, 6, 10, 16, 0, tzinfo=timezone.utc)  # 09:00 in Los Angeles, 12:00 in New York
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, CLOCK)


def member(first: str, last: str) -> dict[str, Any]:
    return next(m for m in SEED["members"] if (m["first_name"], m["last_name"]) == (first, last))


def booking(first: str, last: str) -> str:
    number = member(first, last)["member_number"]
    return next(
        r["confirmation_number"]
        for r in SEED["reservations"]
        if r["member_number"] == number and r["status"] == "confirmed"
    )


def sign_in(session: ToolSession, first: str, last: str) -> None:
    ok(session, "sign_in", {"login": member(first, last)["email"]}, caller="user")


def trip(location: str, pickup: str, ret: str, **extra: Any) -> dict[str, Any]:
    return {"pickup_location_id": location, "pickup_datetime": pickup, "return_datetime": ret, **extra}


def offers(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {v["sipp_code"]: v for v in result["vehicles"]}


def reservation(session: ToolSession, number: str) -> dict[str, Any]:
    return session.dump()["reservations"][number]


def points(session: ToolSession, first: str, last: str) -> int:
    return session.dump()["members"][member(first, last)["member_number"]]["points_balance"]


# ---------------------------------------------------------------- signing in, user-only tools


def test_member_tools_need_a_signed_in_member(session):
    fails(session, "get_member_profile", {}, "PermissionDenied", "Sign in")
    fails(
        session,
        "check_availability",
        trip("LAXT15", "2025-07-01T10:00", "2025-07-03T10:00"),
        "PermissionDenied",
        "Sign in",
    )
    found = ok(session, "search_locations", {"query": "LAX"})["results"]  # the directory is public
    assert {loc["location_id"] for loc in found} == {"LAXT15", "LAXC61"}  # Santa Monica files under LAX


def test_sign_in_by_email_or_member_number_is_user_only(session):
    marcus = member("Marcus", "Bell")
    fails(session, "sign_in", {"login": marcus["email"]}, "user_only", "only be performed by the user")
    fails(session, "sign_in", {"login": "nobody@example.com"}, "NotFound", "Gold Plus Rewards", caller="user")
    assert ok(session, "sign_in", {"login": marcus["member_number"]}, caller="user")["first_name"] == "Marcus"
    profile = ok(session, "get_member_profile")
    assert (profile["partner_name"], profile["tier"]) == ("Alicia Bell", "Five Star")
    ok(session, "sign_in", {"login": member("Priya", "Raman")["email"].upper()}, caller="user")
    assert ok(session, "get_member_profile")["age"] == 23


def test_counter_pickup_is_user_only(session):
    sign_in(session, "Hannah", "Novak")
    args = {
        "confirmation_number": booking("Hannah", "Novak"),
        "license_number": member("Hannah", "Novak")["license_number"],
    }
    fails(session, "present_license_at_counter", args, "user_only", "only be performed by the user")


# ---------------------------------------------------------------- directory


def test_search_locations_matches_every_word_and_paginates(session):
    assert [
        loc["location_id"] for loc in ok(session, "search_locations", {"query": "chicago downtown"})["results"]
    ] == ["CHIC50"]
    first = ok(session, "search_locations", {"query": "airport", "page_size": 5})
    assert len(first["results"]) == 5 and first["has_more"]
    rest = ok(session, "search_locations", {"query": "airport", "page_size": 25, "cursor": first["next_cursor"]})
    airports = [loc["location_id"] for loc in first["results"] + rest["results"]]
    assert len(airports) == len(set(airports)) == sum(loc["location_type"] == "airport" for loc in SEED["locations"])
    fails(session, "search_locations", {"page_size": 26}, "invalid_arguments", "page_size")
    fails(session, "search_locations", {"page_size": 0}, "invalid_arguments", "page_size")


def test_vehicle_classes_and_extras_catalogs(session):
    suvs = ok(session, "list_vehicle_classes", {"category": "suv"})
    assert {v["sipp_code"] for v in suvs} == {"IFAR", "SFAR", "FFAR", "PFAR"}
    assert {v["sipp_code"]: v["min_age"] for v in suvs}["PFAR"] == 25
    assert "SKR" in {e["code"] for e in ok(session, "list_extras", {"location_id": "DENT15"})}
    assert "SKR" not in {e["code"] for e in ok(session, "list_extras", {"location_id": "LAXT15"})}
    fails(session, "list_extras", {"location_id": "XXXT15"}, "NotFound", "Location")


# ---------------------------------------------------------------- availability and prices


def test_availability_flags_sold_out_classes_and_age_limits(session):
    sign_in(session, "Jasmine", "Ortiz")  # 22
    lax = offers(ok(session, "check_availability", trip("LAXT15", "2025-06-21T10:00", "2025-06-22T10:00")))
    assert lax["PFAR"]["available"] is False and lax["PFAR"]["note"].startswith("Prestige Collection")
    assert (lax["LCAR"]["eligible"], lax["PCAR"]["eligible"]) == (False, True)
    sign_in(session, "Tom", "Becker")
    mia = offers(ok(session, "check_availability", trip("MIAT15", "2025-07-03T10:00", "2025-07-07T10:00")))
    assert (mia["STAR"]["available"], mia["STAR"]["note"]) == (False, "Sold out for these dates")
    later = offers(ok(session, "check_availability", trip("MIAT15", "2025-07-08T10:00", "2025-07-10T10:00")))
    assert later["STAR"]["available"] is True


def test_quote_breaks_down_taxes_and_fees(session):
    sign_in(session, "Ahmed", "Hassan")
    quote = ok(session, "get_quote", trip("ORDT15", "2025-07-01T07:00", "2025-07-03T21:00", sipp_code="FCAR"))
    assert (quote["rental_days"], quote["rate_per_day"], quote["base_charge"]) == (3, 6499, 19497)
    fees = {f["code"]: f["amount"] for f in quote["fees"]}
    assert fees == {"CFR": 2166, "CFC": 2400, "VLF": 525, "TAX": 2520}  # 11.11%, $8/day, $1.75/day, 10.25% tax
    assert quote["estimated_total"] == 19497 + sum(fees.values())
    prepaid = ok(
        session,
        "get_quote",
        trip("ORDT15", "2025-07-01T07:00", "2025-07-03T21:00", sipp_code="FCAR", payment_type="pay_now"),
    )
    assert prepaid["rate_per_day"] == 6499 - 975  # 15% off


def test_rental_days_use_a_29_minute_grace(session):
    sign_in(session, "Ahmed", "Hassan")
    base = trip("ORDT15", "2025-07-01T10:00", "2025-07-03T10:29", sipp_code="ECAR")
    assert ok(session, "get_quote", base)["rental_days"] == 2
    assert ok(session, "get_quote", {**base, "return_datetime": "2025-07-03T10:30"})["rental_days"] == 3
    fails(session, "get_quote", {**base, "return_datetime": "2025-07-30T10:00"}, "InvalidRequest", "28 days")
    fails(session, "get_quote", {**base, "return_datetime": "2025-07-01T09:00"}, "InvalidRequest", "after pickup")
    fails(session, "get_quote", {**base, "pickup_datetime": "2025-06-01T10:00"}, "InvalidRequest", "past")


def test_young_renter_fee_and_extras_in_a_quote(session):
    sign_in(session, "Priya", "Raman")
    quote = ok(
        session,
        "get_quote",
        trip("SFOT15", "2025-06-20T17:00", "2025-06-27T17:00", sipp_code="ECAR", extras_codes=["NAV", "LDW"]),
    )
    assert quote["young_renter_charge"] == 7 * 2500
    lines = {line["code"]: line["amount"] for line in quote["extras"]}
    assert lines == {"NAV": 8999, "LDW": 7 * 3299}  # the GPS is capped per rental
    fails(
        session,
        "get_quote",
        trip("SFOT15", "2025-06-20T17:00", "2025-06-22T17:00", sipp_code="ECAR", extras_codes=["SKR"]),
        "InvalidRequest",
        "not offered at SFOT15",
    )
    fails(
        session,
        "get_quote",
        trip("SFOT15", "2025-06-20T17:00", "2025-06-22T17:00", sipp_code="STAR"),
        "PermissionDenied",
        "25 or older",
    )


def test_opening_hours_and_after_hours_returns(session):
    sign_in(session, "Olivia", "Grant")
    fails(
        session,
        "check_availability",
        trip("NYCC71", "2025-06-15T10:00", "2025-06-17T18:00"),
        "InvalidRequest",
        "closed on Sundays",
    )
    fails(
        session,
        "check_availability",
        trip("NYCC71", "2025-06-16T06:30", "2025-06-17T18:00"),
        "InvalidRequest",
        "open 07:00-19:00",
    )
    fails(
        session,
        "check_availability",
        trip("NYCC71", "2025-06-16T09:00", "2025-06-17T20:00"),
        "InvalidRequest",
        "no after-hours return",
    )
    sign_in(session, "Ellen", "Kowalski")  # State Street takes returns by key drop
    assert ok(session, "check_availability", trip("CHIC50", "2025-06-18T08:00", "2025-06-22T18:00"))["rental_days"] == 5


def test_one_way_routes_and_drop_fees(session):
    sign_in(session, "Sam", "Whitaker")
    quote = ok(
        session,
        "get_quote",
        trip("LAXT15", "2025-07-09T08:00", "2025-07-11T18:00", sipp_code="FCAR", return_location_id="SFOT15"),
    )
    assert quote["drop_fee"] == 17500
    same_city = ok(
        session,
        "check_availability",
        trip("LAXT15", "2025-07-09T08:00", "2025-07-11T12:00", return_location_id="LAXC61"),
    )
    assert same_city["drop_fee"] == 0
    fails(
        session,
        "check_availability",
        trip("DENT15", "2025-07-09T08:00", "2025-07-11T18:00", return_location_id="ORDT15"),
        "InvalidRequest",
        "not offered",
    )


# ---------------------------------------------------------------- booking rules


def test_create_reservation_books_the_car_and_uses_up_the_fleet(session):
    def one_minivan(tables):
        next(f for f in tables["fleet"] if f["fleet_id"] == "SFOC10-MVAR")["units"] = 1

    restore_seed_with(session, one_minivan, CLOCK)
    sign_in(session, "Priya", "Raman")
    args = trip("SFOC10", "2025-06-24T09:00", "2025-06-26T09:00")
    booked = ok(session, "create_reservation", {**args, "sipp_code": "mvar"})
    assert (booked["status"], booked["sipp_code"], booked["driver_age"]) == ("confirmed", "MVAR", 23)
    assert booked["young_renter_charge"] == 2 * 2500 and booked["prepaid_amount"] == 0
    assert (
        reservation(session, booked["confirmation_number"])["member_number"]
        == member("Priya", "Raman")["member_number"]
    )
    sign_in(session, "Marcus", "Bell")
    assert offers(ok(session, "check_availability", args))["MVAR"]["available"] is False
    fails(session, "create_reservation", {**args, "sipp_code": "MVAR"}, "Conflict", "sold out")


def test_renter_age_minimums(session):
    sign_in(session, "Olivia", "Grant")  # 19: New York rents from 18, California from 20
    booked = ok(
        session,
        "create_reservation",
        trip("JFKT15", "2025-06-15T10:00", "2025-06-17T18:00", sipp_code="CCAR", return_location_id="NYCC71"),
    )
    assert booked["young_renter_charge"] == 3 * 4200
    fails(
        session,
        "create_reservation",
        trip("LAXT15", "2025-07-15T10:00", "2025-07-17T10:00", sipp_code="CCAR"),
        "PermissionDenied",
        "at least 20 at LAXT15",
    )
    sign_in(session, "Jasmine", "Ortiz")
    fails(
        session,
        "create_reservation",
        trip("LAXT15", "2025-06-27T15:00", "2025-06-29T15:00", sipp_code="LCAR"),
        "PermissionDenied",
        "Luxury vehicles require renters 25",
    )


def test_license_on_file_must_cover_the_return_date(session):
    sign_in(session, "Robert", "Chen")
    args = trip("SEAT15", "2025-07-07T09:00", "2025-07-10T09:00", sipp_code="SFAR")
    fails(session, "create_reservation", args, "InvalidRequest", "expires 2025-06-30")
    ok(session, "update_member_profile", {"license_number": "wdl4rc9x2b7n", "license_expiration": "2033-10-05"})
    assert ok(session, "create_reservation", args)["rental_days"] == 3
    profile = session.dump()["members"][member("Robert", "Chen")["member_number"]]
    assert (profile["license_number"], profile["license_expiration"]) == ("WDL4RC9X2B7N", "2033-10-05")


def test_members_cannot_hold_overlapping_reservations(session):
    sign_in(session, "Rachel", "Kim")
    args = trip("DENT15", "2025-06-20T10:00", "2025-06-22T10:00", sipp_code="IFAR")
    fails(session, "create_reservation", args, "Conflict", booking("Rachel", "Kim"))
    ok(session, "cancel_reservation", {"confirmation_number": booking("Rachel", "Kim")})
    assert ok(session, "create_reservation", args)["status"] == "confirmed"


def test_points_redemption_rules(session):
    sign_in(session, "Grace", "Liu")
    args = trip("LAST15", "2025-07-10T12:00", "2025-07-15T12:00", sipp_code="STAR", payment_type="points")
    fails(session, "create_reservation", args, "Conflict", "needs 7,000 and you have 6,350")
    fails(
        session,
        "create_reservation",
        {**args, "pickup_datetime": "2025-06-11T08:00", "return_datetime": "2025-06-12T08:00"},
        "InvalidRequest",
        "24 hours",
    )
    booked = ok(session, "create_reservation", {**args, "return_datetime": "2025-07-14T12:00"})
    assert (booked["points_redeemed"], booked["base_charge"], booked["rate_per_day"]) == (5600, 0, 0)
    assert booked["estimated_total"] == booked["taxes_and_fees"]  # only taxes and fees are left to pay
    assert points(session, "Grace", "Liu") == 6350 - 5600
    posting = ok(session, "list_points_activity", {"page_size": 1})["results"][0]
    assert (posting["activity_type"], posting["points"], posting["confirmation_number"]) == (
        "redemption",
        -5600,
        booked["confirmation_number"],
    )


# ---------------------------------------------------------------- cancelling


def test_cancel_pay_later_is_free_and_only_once(session):
    sign_in(session, "Marcus", "Bell")
    number = booking("Marcus", "Bell")
    result = ok(session, "cancel_reservation", {"confirmation_number": number})
    assert (result["cancellation_fee"], result["refund_amount"]) == (0, 0)
    assert reservation(session, number)["status"] == "cancelled"
    fails(session, "cancel_reservation", {"confirmation_number": number}, "Conflict", "cancelled")
    fails(
        session,
        "cancel_reservation",
        {"confirmation_number": booking("Ellen", "Kowalski")},
        "PermissionDenied",
        "another member",
    )
    fails(session, "cancel_reservation", {"confirmation_number": "K0000000000"}, "NotFound", "Reservation")


def test_cancel_pay_now_fee_depends_on_notice(session):
    sign_in(session, "Ellen", "Kowalski")  # O'Hare in 8 days
    early = ok(session, "cancel_reservation", {"confirmation_number": booking("Ellen", "Kowalski")})
    prepaid = reservation(session, booking("Ellen", "Kowalski"))["prepaid_amount"]
    assert (early["cancellation_fee"], early["refund_amount"]) == (5000, prepaid - 5000)
    sign_in(session, "Luis", "Romero")  # JFK tomorrow morning, 22 hours away
    late = ok(session, "cancel_reservation", {"confirmation_number": booking("Luis", "Romero")})
    assert late["cancellation_fee"] == 10000


def test_cancelled_rewards_refund_points_only_24_hours_ahead(session):
    sign_in(session, "Isabel", "Moreno")  # LAX on the 14th: 9,100 points
    result = ok(session, "cancel_reservation", {"confirmation_number": booking("Isabel", "Moreno")})
    assert (result["points_refunded"], result["points_forfeited"]) == (9100, 0)
    assert points(session, "Isabel", "Moreno") == 4600 + 9100
    sign_in(session, "Brian", "Foster")  # Las Vegas tomorrow at 08:00, 23 hours away
    result = ok(session, "cancel_reservation", {"confirmation_number": booking("Brian", "Foster")})
    assert (result["points_refunded"], result["points_forfeited"]) == (0, 2550)
    assert points(session, "Brian", "Foster") == 2100


# ---------------------------------------------------------------- changing a reservation


def test_modify_reprices_the_trip(session):
    sign_in(session, "Marcus", "Bell")
    number = booking("Marcus", "Bell")
    before = reservation(session, number)
    after = ok(session, "modify_reservation", {"confirmation_number": number, "return_datetime": "2025-07-02T10:00"})
    assert (after["rental_days"], after["base_charge"]) == (5, 5 * before["rate_per_day"])
    assert after["estimated_total"] > before["estimated_total"]
    fails(session, "modify_reservation", {"confirmation_number": number}, "InvalidRequest", "Nothing to change")
    fails(
        session,
        "modify_reservation",
        {"confirmation_number": number, "flight_number": "AMERICAN"},
        "invalid_arguments",
        "flight_number must be an airline code and number",
    )


def test_prepaid_trips_cannot_move_within_24_hours_but_flights_can(session):
    sign_in(session, "Luis", "Romero")
    number = booking("Luis", "Romero")
    fails(
        session,
        "modify_reservation",
        {"confirmation_number": number, "pickup_datetime": "2025-06-11T14:00"},
        "PermissionDenied",
        "within 24 hours",
    )
    assert (
        ok(session, "modify_reservation", {"confirmation_number": number, "flight_number": "b6 1124"})["flight_number"]
        == "B61124"
    )


def test_round_trip_return_follows_a_new_pickup_location(session):
    sign_in(session, "Laura", "Bennett")
    number = booking("Laura", "Bennett")
    before = reservation(session, number)
    moved = ok(session, "modify_reservation", {"confirmation_number": number, "pickup_location_id": "DENT15"})
    assert (moved["pickup_location_id"], moved["return_location_id"], moved["drop_fee"]) == ("DENT15", "DENT15", 0)
    assert moved["rate_per_day"] > before["rate_per_day"]  # the airport's rate
    assert moved["taxes_and_fees"] > before["taxes_and_fees"]  # and its concession and facility charges
    assert moved["extras"] == [{"code": "SKR", "quantity": 1}]  # the ski rack is offered there too


def test_changing_a_reward_rental_adjusts_points(session):
    sign_in(session, "Isabel", "Moreno")
    number = booking("Isabel", "Moreno")
    changed = ok(session, "modify_reservation", {"confirmation_number": number, "return_datetime": "2025-06-18T12:00"})
    assert changed["points_redeemed"] == 4 * 1300
    assert points(session, "Isabel", "Moreno") == 4600 + 3 * 1300
    fails(
        session,
        "modify_reservation",
        {"confirmation_number": number, "return_datetime": "2025-06-28T12:00"},
        "Conflict",
        "Not enough Gold Plus Rewards points",
    )


def test_a_class_change_is_checked_like_a_new_booking(session):
    sign_in(session, "Jasmine", "Ortiz")
    booked = ok(session, "create_reservation", trip("LAXT15", "2025-06-27T15:00", "2025-06-29T15:00", sipp_code="PCAR"))
    fails(
        session,
        "modify_reservation",
        {"confirmation_number": booked["confirmation_number"], "sipp_code": "STAR"},
        "PermissionDenied",
        "25 or older",
    )
    fails(
        session,
        "modify_reservation",
        {"confirmation_number": booked["confirmation_number"], "return_location_id": "DENT15"},
        "InvalidRequest",
        "not offered",
    )


# ---------------------------------------------------------------- extras and drivers


def test_extras_limits(session):
    sign_in(session, "Sofia", "Russo")
    number = booking("Sofia", "Russo")
    seats = ok(session, "add_extra", {"confirmation_number": number, "code": "cst", "quantity": 2})
    assert seats["extras"] == [{"code": "CST", "quantity": 2}] and seats["extras_charge"] == 2 * 7 * 1399
    fails(
        session,
        "add_extra",
        {"confirmation_number": number, "code": "BST", "quantity": 2},
        "InvalidRequest",
        "3 child seats",
    )
    fails(session, "add_extra", {"confirmation_number": number, "code": "CST"}, "InvalidRequest", "At most 2")
    fails(
        session,
        "add_extra",
        {"confirmation_number": number, "code": "NAV", "quantity": 0},
        "invalid_arguments",
        "at least 1",
    )
    ok(session, "add_extra", {"confirmation_number": number, "code": "LDW"})
    fails(session, "add_extra", {"confirmation_number": number, "code": "LDW"}, "Conflict", "already")
    fails(session, "add_extra", {"confirmation_number": number, "code": "SKR"}, "InvalidRequest", "not offered")
    fails(session, "add_extra", {"confirmation_number": number, "code": "WIFI"}, "NotFound", "Extra")


def test_remove_extra_reprices(session):
    sign_in(session, "Peter", "Lindqvist")
    number = booking("Peter", "Lindqvist")
    before = reservation(session, number)
    after = ok(session, "remove_extra", {"confirmation_number": number, "code": "NAV"})
    assert {e["code"] for e in after["extras"]} == {"LDW", "PERS"}
    assert after["extras_charge"] == before["extras_charge"] - 8999
    fails(session, "remove_extra", {"confirmation_number": number, "code": "NAV"}, "NotFound", "not on reservation")


def test_additional_driver_fees_and_age(session):
    sign_in(session, "Nina", "Alvarez")
    number = booking("Nina", "Alvarez")  # 7 days
    spouse = ok(
        session,
        "add_additional_driver",
        {
            "confirmation_number": number,
            "first_name": "Diego",
            "last_name": "Alvarez",
            "date_of_birth": "1982-06-03",
            "relationship": "spouse",
        },
    )
    assert spouse["additional_driver_charge"] == 0 and spouse["additional_drivers"][0]["fee_waived"] is True
    friend = ok(
        session,
        "add_additional_driver",
        {
            "confirmation_number": number,
            "first_name": "Carmen",
            "last_name": "Vega",
            "date_of_birth": "2002-08-30",
            "relationship": "friend",
        },
    )
    assert friend["additional_driver_charge"] == 7 * 1350
    assert friend["young_renter_charge"] == 7 * 2500  # Carmen is 22
    fails(
        session,
        "add_additional_driver",
        {
            "confirmation_number": number,
            "first_name": "carmen",
            "last_name": "VEGA",
            "date_of_birth": "2002-08-30",
            "relationship": "friend",
        },
        "Conflict",
        "already",
    )
    fails(
        session,
        "add_additional_driver",
        {
            "confirmation_number": number,
            "first_name": "Leo",
            "last_name": "Alvarez",
            "date_of_birth": "2010-01-01",
            "relationship": "child",
        },
        "PermissionDenied",
        "at least 20",
    )
    fails(
        session,
        "add_additional_driver",
        {
            "confirmation_number": number,
            "first_name": "Leo",
            "last_name": "Alvarez",
            "date_of_birth": "1990-02-30",
            "relationship": "sibling",
        },
        "InvalidRequest",
        "not a valid date",
    )
    blank = {
        "confirmation_number": number,
        "first_name": "   ",
        "last_name": "Alvarez",
        "date_of_birth": "1990-02-03",
        "relationship": "sibling",
    }
    fails(session, "add_additional_driver", blank, "invalid_arguments", "first_name and last_name are required")
    fails(
        session,
        "add_additional_driver",
        {**blank, "first_name": "Leo", "date_of_birth": "03/02/1990"},
        "invalid_arguments",
        "date_of_birth",
    )


def test_bounds_are_in_the_argument_schemas():
    tools = resolve("hertz").tools
    add_extra, transfer = tools["add_extra"].input_schema, tools["transfer_points"].input_schema
    assert add_extra["properties"]["quantity"]["minimum"] == 1
    assert (transfer["properties"]["points"]["minimum"], transfer["properties"]["points"]["multipleOf"]) == (100, 100)
    for name, most in (("search_locations", 25), ("list_reservations", 25), ("list_points_activity", 50)):
        assert tools[name].input_schema["properties"]["page_size"]["maximum"] == most
    profile = tools["update_member_profile"].input_schema["properties"]
    assert all("pattern" in str(profile[name]) for name in ("email", "phone", "license_number", "license_state"))


# ---------------------------------------------------------------- Gold Plus Rewards


def test_points_transfer_only_to_the_partner(session):
    sign_in(session, "Aisha", "Mohammed")
    omar = member("Omar", "Mohammed")["member_number"]
    result = ok(session, "transfer_points", {"recipient_member_number": omar, "points": 1500})
    assert (result["points_balance"], result["recipient_name"]) == (7850 - 1500, "Omar Mohammed")
    assert points(session, "Omar", "Mohammed") == 950 + 1500
    fails(
        session,
        "transfer_points",
        {"recipient_member_number": member("Anjali", "Patel")["member_number"], "points": 100},
        "PermissionDenied",
        "spouse or domestic partner",
    )
    fails(
        session,
        "transfer_points",
        {"recipient_member_number": omar, "points": 150},
        "invalid_arguments",
        "multiples of 100",
    )
    fails(session, "transfer_points", {"recipient_member_number": omar, "points": 99900}, "Conflict", "Not enough")


def test_points_activity_is_newest_first_and_paginated(session):
    sign_in(session, "Brian", "Foster")
    first = ok(session, "list_points_activity", {"page_size": 4})
    second = ok(session, "list_points_activity", {"page_size": 4, "cursor": first["next_cursor"]})
    posted = [p["posted_at"] for p in first["results"] + second["results"]]
    assert posted == sorted(posted, reverse=True) and first["has_more"]
    mine = [a for a in SEED["points_activity"] if a["member_number"] == member("Brian", "Foster")["member_number"]]
    assert sum(a["points"] for a in mine) == ok(session, "get_member_profile")["points_balance"]


def test_profile_updates_are_validated(session):
    sign_in(session, "Kevin", "O'Brien")
    profile = ok(
        session,
        "update_member_profile",
        {"email": "Kevin.OBrien@fastmail.com", "phone": "+1 (617) 555-0377", "preferred_sipp_code": "sfar"},
    )
    assert (profile["email"], profile["phone"], profile["preferred_sipp_code"]) == (
        "kevin.obrien@fastmail.com",
        "617-555-0377",
        "SFAR",
    )
    fails(session, "update_member_profile", {"email": member("Dev", "Patel")["email"]}, "Conflict", "already used")
    fails(session, "update_member_profile", {"phone": "555-0377"}, "invalid_arguments", "phone must be a 10-digit")
    fails(session, "update_member_profile", {"license_expiration": "2025-06-01"}, "InvalidRequest", "future")
    fails(
        session, "update_member_profile", {"license_expiration": "June 2030"}, "invalid_arguments", "license_expiration"
    )
    fails(session, "update_member_profile", {"email": "kevin"}, "invalid_arguments", "email is not a valid email")
    fails(session, "update_member_profile", {"license_number": "AB1"}, "invalid_arguments", "5 to 20 letters")
    fails(session, "update_member_profile", {"license_state": "Mass"}, "invalid_arguments", "two-letter state code")
    fixed = ok(session, "update_member_profile", {"license_number": "s12 345 678", "license_state": " ma "})
    assert (fixed["license_number"], fixed["license_state"]) == ("S12345678", "MA")
    fails(session, "update_member_profile", {}, "InvalidRequest", "Nothing to update")


# ---------------------------------------------------------------- reservations list and counter pickup


def test_list_reservations_paginates_and_filters(session):
    sign_in(session, "Owen", "Young")
    mine = [r for r in SEED["reservations"] if r["member_number"] == member("Owen", "Young")["member_number"]]
    first = ok(session, "list_reservations", {"page_size": 5})
    rest = ok(session, "list_reservations", {"page_size": 5, "cursor": first["next_cursor"]})
    listed = [r["pickup_datetime"] for r in first["results"] + rest["results"]]
    assert len(listed) == len(mine) and listed == sorted(listed, reverse=True)
    confirmed = ok(session, "list_reservations", {"status": "confirmed"})["results"]
    assert {r["confirmation_number"] for r in confirmed} == {
        r["confirmation_number"] for r in mine if r["status"] == "confirmed"
    }


def test_get_reservation_needs_the_matching_last_name(session):
    number = booking("George", "Papadopoulos")
    assert (
        ok(session, "get_reservation", {"confirmation_number": number.lower(), "last_name": "papadopoulos"})[
            "sipp_code"
        ]
        == "LCAR"
    )
    fails(session, "get_reservation", {"confirmation_number": number, "last_name": "Smith"}, "NotFound", "last name")


def test_counter_pickup_checks_time_and_license(session):
    number, license_number = booking("Hannah", "Novak"), member("Hannah", "Novak")["license_number"]
    session.reset("seed", datetime(2025, 6, 10, 14, 0, tzinfo=timezone.utc))  # 08:00 in Denver
    sign_in(session, "Hannah", "Novak")
    args = {"confirmation_number": number, "license_number": license_number}
    fails(session, "present_license_at_counter", args, "Conflict", "Too early", caller="user")
    session.reset("seed", CLOCK)  # 10:00 in Denver, pickup at 10:30
    sign_in(session, "Hannah", "Novak")
    fails(
        session,
        "present_license_at_counter",
        {**args, "license_number": "000000000"},
        "PermissionDenied",
        "doesn't match",
        caller="user",
    )
    agreement = ok(session, "present_license_at_counter", args, caller="user")
    assert (agreement["status"], agreement["vehicle"]) == ("open", "Toyota RAV4")
    assert session.dump()["rental_agreements"][agreement["agreement_number"]]["confirmation_number"] == number
    assert reservation(session, number)["status"] == "on_rent"
    fails(session, "add_extra", {"confirmation_number": number, "code": "PERS"}, "Conflict", "on_rent")


def test_an_expired_license_is_refused_at_the_counter(session):
    def expired(tables):
        next(m for m in tables["members"] if m["first_name"] == "Hannah")["license_expiration"] = "2025-06-01"

    restore_seed_with(session, expired, CLOCK)
    sign_in(session, "Hannah", "Novak")
    fails(
        session,
        "present_license_at_counter",
        {
            "confirmation_number": booking("Hannah", "Novak"),
            "license_number": member("Hannah", "Novak")["license_number"],
        },
        "PermissionDenied",
        "expired",
        caller="user",
    )
