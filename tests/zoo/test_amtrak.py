"""The Amtrak environment's tools on the real seed: fares and passenger discounts, seat inventory per leg, the refund
and change rules of each fare (24-hour rule, Saver, Value within 14 days, Flex, no-shows, trains Amtrak cancels),
eVouchers, Guest Rewards points, travellers, contacts and the on-board eTicket scan; every error path leaves the
state unchanged."""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("amtrak")
CLOCK = datetime(2025, 6, 10, 14, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
SEED_DEPARTURES = {d["departure_id"]: d for d in SEED["departures"]}
MAYA, HAROLD, AISHA, SAMUEL = "7012458831", "7018830216", "7014417763", "7011932658"

session = session_fixture(SPEC, CLOCK)


def member_no(email: str) -> str:
    return next(m["member_number"] for m in SEED["members"] if m["email"] == email)


def fare_plan(route: str, code: str) -> dict:
    return next(p for p in SEED["fare_plans"] if p["route_id"] == route and p["fare_code"] == code)


def miles(train: str, origin: str, destination: str) -> float:
    stops = {s["station_code"]: s["miles"] for s in SEED["train_stops"] if s["train_number"] == train}
    return stops[destination] - stops[origin]


def expected_fare(route: str, code: str, train: str, origin: str, destination: str, demand: int = 100) -> int:
    plan = fare_plan(route, code)
    dollars = (plan["base_cents"] + plan["per_mile_cents"] * miles(train, origin, destination)) * demand / 10000
    return math.floor(dollars + 0.5) * 100


def ride(train: str, day: str, origin: str, destination: str, fare: str) -> dict:
    return {"train_number": train, "travel_date": day, "origin": origin, "destination": destination, "fare_code": fare}


def adult(first: str = "Maya", last: str = "Okafor", kind: str = "adult") -> dict:
    return {"first_name": first, "last_name": last, "passenger_type": kind}


def book(
    session: ToolSession, segments: list[dict], passengers: list[dict] | None = None, member: str = MAYA, **extra
) -> dict:
    return ok(
        session,
        "create_reservation",
        {"member_number": member, "segments": segments, "passengers": passengers or [adult()], **extra},
    )


def departure(session: ToolSession, departure_id: str) -> dict:
    return session.dump()["departures"][departure_id]


def row(session: ToolSession, table: str, key: str) -> dict:
    return session.dump()[table][key]


def new_rows(session: ToolSession, table: str) -> list[dict]:
    seeded = {next(iter(r.values())) for r in SEED[table]}
    return [r for key, r in session.dump()[table].items() if key not in seeded]


# ---------------------------------------------------------------- interface and timetable


def test_tools_and_the_eticket_scan_is_user_only(session):
    assert len(SPEC.tools) == 18
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["scan_eticket"]
    assert SPEC.tools["list_fare_rules"].input_schema["properties"] == {}
    assert SPEC.tools["cancel_reservation"].unordered_inputs == {"segment_ids"}
    outcome = session.call("scan_eticket", {"eticket_number": "2873400000012", "train_number": "641"})
    assert not outcome.ok and outcome.error_kind == "user_only"


def test_list_stations_searches_and_paginates(session):
    found = ok(session, "list_stations", {"query": "philadelphia"})["results"]
    assert [s["code"] for s in found] == ["PHL"]
    vermont = ok(session, "list_stations", {"state": "vt"})["results"]
    assert {s["code"] for s in vermont} == {s["code"] for s in SEED["stations"] if s["state"] == "VT"}
    first = ok(session, "list_stations", {"page_size": 20})
    second = ok(session, "list_stations", {"page_size": 20, "cursor": first["next_cursor"]})
    assert first["has_more"] and len(first["results"]) == 20
    assert not {s["code"] for s in first["results"]} & {s["code"] for s in second["results"]}
    fails(session, "list_stations", {"page_size": 0}, "invalid_arguments", "page_size")


def test_train_schedule_runs_overnight(session):
    train = ok(session, "get_train_schedule", {"train_number": "49"})
    assert (train["stops"][0]["station_code"], train["stops"][-1]["station_code"]) == ("NYP", "CHI")
    assert train["stops"][-1]["day_offset"] == 1 and train["route_type"] == "long_distance"
    assert set(train["classes_of_service"]) == {"coach", "roomette", "bedroom"}
    fails(session, "get_train_schedule", {"train_number": "9999"}, "NotFound", "Train")


def test_search_prices_fares_and_orders_by_departure(session):
    options = ok(session, "search_trains", {"origin": "nyp", "destination": "WAS", "travel_date": "2025-06-19"})
    times = [o["departs_at"] for o in options]
    assert times == sorted(times) and options[0]["train_number"] == "95"
    fares = {f["fare_code"]: f for f in options[0]["fares"]}
    assert fares["VALUE"]["price_cents"] == expected_fare("NER", "VALUE", "95", "NYP", "WAS")
    assert fares["SAVER"]["price_cents"] < fares["VALUE"]["price_cents"] < fares["FLEX"]["price_cents"]
    dep = departure(session, "95-2025-06-19")
    assert fares["SAVER"]["seats_left"] == min(dep["saver_seats"], min(dep["seats_available"]["coach"][0:10]))
    acela = next(o for o in options if o["train_number"] == "2163")
    assert {f["fare_code"] for f in acela["fares"]} == {"SAVER", "VALUE", "FLEX", "FIRST"}
    fails(
        session,
        "search_trains",
        {"origin": "NYP", "destination": "WAS", "travel_date": "19/06/2025"},
        "invalid_arguments",
        "travel_date",
    )


def test_search_hides_departed_trains_and_flags_cancelled_and_sold_out(session):
    today = ok(session, "search_trains", {"origin": "NYP", "destination": "PHL", "travel_date": "2025-06-10"})
    assert "95" not in {o["train_number"] for o in today} and "2163" in {o["train_number"] for o in today}
    saturday = {
        o["train_number"]: o
        for o in ok(session, "search_trains", {"origin": "WAS", "destination": "NYP", "travel_date": "2025-06-14"})
    }
    assert saturday["176"]["status"] == "CANCELLED" and not any(f["available"] for f in saturday["176"]["fares"])
    friday = next(
        o
        for o in ok(session, "search_trains", {"origin": "NYP", "destination": "PHL", "travel_date": "2025-06-27"})
        if o["train_number"] == "2163"
    )
    saver = next(f for f in friday["fares"] if f["fare_code"] == "SAVER")
    assert (saver["seats_left"], saver["available"]) == (0, False)
    sleepers = next(
        o
        for o in ok(
            session,
            "search_trains",
            {"origin": "NYP", "destination": "CHI", "travel_date": "2025-07-03", "passengers": 2},
        )
    )
    roomette = next(f for f in sleepers["fares"] if f["fare_code"] == "ROOMETTE")
    assert roomette["available"] is False and roomette["price_cents"] > roomette["room_charge_cents"]


def test_train_status_applies_the_delay_and_tracks_progress(session):
    late = ok(session, "get_train_status", {"train_number": "94"})
    assert (late["status"], late["delay_minutes"]) == ("EN ROUTE", 50) and "signal" in late["service_alert"]
    richmond = next(s for s in late["stops"] if s["station_code"] == "RVR")
    assert richmond["scheduled"].startswith("2025-06-10T08:15") and richmond["estimated"].startswith("2025-06-10T09:05")
    session.reset("seed", datetime(2025, 6, 10, 16, 0, tzinfo=timezone.utc))
    keystone = ok(session, "get_train_status", {"train_number": "641", "service_date": "2025-06-10"})
    states = {s["station_code"]: s["state"] for s in keystone["stops"]}
    assert keystone["status"] == "EN ROUTE" and states["NYP"] == "Departed" and states["HAR"] == "Expected"
    assert (
        ok(session, "get_train_status", {"train_number": "176", "service_date": "2025-06-14"})["status"] == "CANCELLED"
    )
    fails(session, "get_train_status", {"train_number": "2150", "service_date": "2025-06-14"}, "NotFound", "2150")


def test_fare_rules_and_member_lookup(session):
    rules = {r["fare_code"]: r for r in ok(session, "list_fare_rules")}
    assert list(rules) == ["SAVER", "VALUE", "FLEX", "BUSINESS", "FIRST", "ROOMETTE", "BEDROOM"]
    assert rules["SAVER"]["passenger_discounts"] is False and rules["FIRST"]["classes_of_service"] == ["first"]
    by_email = ok(session, "find_member", {"email": " Maya.Okafor@gmail.com "})
    assert by_email == ok(session, "find_member", {"member_number": MAYA})
    assert by_email["card_on_file"]["last4"] == "4417"
    assert ok(session, "find_member", {"member_number": SAMUEL})["card_on_file"] is None
    fails(session, "find_member", {"email": "nobody@example.com"}, "NotFound", "nobody@example.com")
    fails(session, "find_member", {}, "InvalidRequest", "email or a member_number")


def test_update_member_profile_rules(session):
    updated = ok(
        session, "update_member_profile", {"member_number": MAYA, "phone": "(215) 555-0100", "home_station": "phl"}
    )
    assert (updated["phone"], updated["home_station"]) == ("215-555-0100", "PHL")
    fails(
        session,
        "update_member_profile",
        {"member_number": MAYA, "email": "priya.n@outlook.com"},
        "Conflict",
        "another Guest Rewards account",
    )
    fails(
        session, "update_member_profile", {"member_number": MAYA, "phone": "555-0100"}, "invalid_arguments", "10-digit"
    )
    fails(session, "update_member_profile", {"member_number": MAYA, "home_station": "XYZ"}, "NotFound", "Station")
    fails(session, "update_member_profile", {"member_number": MAYA}, "InvalidRequest", "Nothing to update")


def test_list_reservations_filters_and_pages(session):
    mine = [r for r in SEED["reservations"] if r["member_number"] == MAYA]
    page = ok(session, "list_reservations", {"member_number": MAYA, "page_size": 2})
    assert len(page["results"]) == 2 and page["has_more"]
    rest = ok(session, "list_reservations", {"member_number": MAYA, "page_size": 50, "cursor": page["next_cursor"]})
    assert len(page["results"]) + len(rest["results"]) == len(mine)
    upcoming = ok(session, "list_reservations", {"member_number": MAYA, "status": "CONFIRMED"})["results"]
    assert [r["reservation_number"] for r in upcoming] == [
        r["reservation_number"] for r in mine if r["status"] == "CONFIRMED"
    ]
    assert upcoming[0]["itinerary"] == ["2025-07-07 train 233 NYP-HUD CONFIRMED"]


# ---------------------------------------------------------------- booking


def test_booking_prices_discounts_and_holds_seats_on_the_ridden_legs(session):
    before = departure(session, "171-2025-07-10")
    party = [
        adult("Ann", "Lee"),
        adult("Bo", "Lee", "child"),
        adult("Cy", "Lee", "senior"),
        adult("Di", "Lee", "infant"),
    ]
    trip = book(session, [ride("171", "2025-07-10", "PVD", "NYP", "VALUE")], party)
    full = expected_fare("NER", "VALUE", "171", "PVD", "NYP")
    fares = sorted(trip["segments"][0]["passenger_fares"].values())
    assert fares == sorted([full, full // 2, full * 90 // 100, 0])
    assert trip["total_cents"] == trip["paid_card_cents"] == sum(fares) and trip["trip_type"] == "one_way"
    after = departure(session, "171-2025-07-10")
    # stops 3 (PVD) to 8 (NYP): legs 3..8 lose three seats (the infant rides on a lap), the others none
    assert [b - a for b, a in zip(before["seats_available"]["coach"], after["seats_available"]["coach"])] == [
        0,
        0,
        0,
        3,
        3,
        3,
        3,
        3,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
    ]
    ticket = row(session, "etickets", trip["eticket_number"])
    assert (ticket["status"], ticket["reservation_number"]) == ("ISSUED", trip["reservation_number"])
    charge = [p for p in new_rows(session, "payments") if p["reservation_number"] == trip["reservation_number"]]
    assert [(p["kind"], p["method"], p["amount_cents"]) for p in charge] == [("charge", "card", sum(fares))]


def test_saver_fares_take_saver_inventory_and_ignore_discounts(session):
    before = departure(session, "95-2025-06-19")["saver_seats"]
    trip = book(
        session,
        [ride("95", "2025-06-19", "NYP", "WAS", "SAVER"), ride("2172", "2025-06-19", "WAS", "NYP", "SAVER")],
        [adult(), adult("Kid", "Okafor", "child")],
    )
    assert trip["trip_type"] == "round_trip"
    out = trip["segments"][0]["passenger_fares"]
    assert len(set(out.values())) == 1  # the child pays the full Saver fare
    assert departure(session, "95-2025-06-19")["saver_seats"] == before - 2


def test_sleepers_charge_a_room_per_two_travellers(session):
    party = [adult("Al", "Ng"), adult("Bea", "Ng"), adult("Cal", "Ng", "child")]
    trip = book(session, [ride("29", "2025-06-20", "WAS", "CHI", "ROOMETTE")], party)
    segment = trip["segments"][0]
    demand = SEED_DEPARTURES["29-2025-06-20"]["demand_pct"]
    room = expected_fare("CL", "ROOMETTE", "29", "WAS", "CHI", demand)
    rail = expected_fare("CL", "VALUE", "29", "WAS", "CHI", demand)
    assert (segment["rooms"], segment["accommodation_cents"]) == (2, 2 * room)
    assert sorted(segment["passenger_fares"].values()) == [rail // 2, rail, rail]
    before = SEED_DEPARTURES["29-2025-06-20"]["seats_available"]["roomette"]
    assert departure(session, "29-2025-06-20")["seats_available"]["roomette"] == [n - 2 for n in before]


def test_party_rules(session):
    base = {"member_number": MAYA, "segments": [ride("95", "2025-06-19", "NYP", "WAS", "VALUE")]}
    fails(
        session,
        "create_reservation",
        {**base, "passengers": [adult("Kid", "A", "child")]},
        "InvalidRequest",
        "must travel with an adult",
    )
    fails(
        session,
        "create_reservation",
        {**base, "passengers": [adult(), adult("B", "A", "infant"), adult("C", "A", "infant")]},
        "InvalidRequest",
        "one infant per adult",
    )
    fails(
        session,
        "create_reservation",
        {**base, "passengers": [adult(str(i), "A") for i in range(9)]},
        "invalid_arguments",
        "1 to 8 passengers",
    )
    fails(session, "create_reservation", {**base, "passengers": [adult(" ", "A")]}, "invalid_arguments", "last name")


def test_schedule_and_route_rules(session):
    def booking(*segments):
        return {"member_number": MAYA, "segments": list(segments), "passengers": [adult()]}

    fails(
        session,
        "create_reservation",
        booking(ride("2150", "2025-06-14", "WAS", "NYP", "VALUE")),
        "NotFound",
        "does not run on Sat",
    )
    fails(
        session,
        "create_reservation",
        booking(ride("95", "2025-06-19", "WAS", "NYP", "VALUE")),
        "InvalidRequest",
        "does not run from WAS to NYP",
    )
    fails(
        session,
        "create_reservation",
        booking(ride("176", "2025-06-14", "WAS", "NYP", "VALUE")),
        "Conflict",
        "cancelled",
    )
    fails(
        session,
        "create_reservation",
        booking(ride("95", "2025-06-10", "NYP", "WAS", "VALUE")),
        "Conflict",
        "already left NYP",
    )
    fails(
        session,
        "create_reservation",
        booking(ride("95", "2025-06-19", "NYP", "WAS", "FIRST")),
        "InvalidRequest",
        "FIRST is not sold on Northeast Regional",
    )
    fails(
        session,
        "create_reservation",
        booking(ride("2172", "2025-06-19", "WAS", "NYP", "VALUE"), ride("95", "2025-06-19", "NYP", "WAS", "VALUE")),
        "InvalidRequest",
        "travel order",
    )


def test_sold_out_inventory(session):
    fails(
        session,
        "create_reservation",
        {
            "member_number": MAYA,
            "passengers": [adult()],
            "segments": [ride("2163", "2025-06-27", "NYP", "PHL", "SAVER")],
        },
        "Conflict",
        "Saver fares are sold out",
    )
    fails(
        session,
        "create_reservation",
        {
            "member_number": MAYA,
            "passengers": [adult()],
            "segments": [ride("49", "2025-07-03", "NYP", "CHI", "ROOMETTE")],
        },
        "Conflict",
        "0 roomette rooms left",
    )
    fails(
        session,
        "create_reservation",
        {
            "member_number": MAYA,
            "passengers": [adult()],
            "segments": [ride("171", "2025-06-13", "BOS", "PHL", "VALUE")],
        },
        "Conflict",
        "0 coach seats left",
    )
    book(session, [ride("171", "2025-06-13", "BOS", "NHV", "VALUE")])  # the sold-out legs are further south


def test_points_redemption(session):
    start = ok(session, "find_member", {"member_number": HAROLD})["points_balance"]
    trip = book(
        session,
        [ride("650", "2025-07-03", "HAR", "NYP", "VALUE")],
        [adult("Harold", "Jenkins", "senior")],
        member=HAROLD,
        payment_method="points",
    )
    needed = math.ceil(trip["total_cents"] * 10 / 29)
    assert (trip["award"], trip["paid_points"], trip["paid_card_cents"]) == (True, needed, 0)
    assert ok(session, "find_member", {"member_number": HAROLD})["points_balance"] == start - needed
    assert ok(session, "get_rewards_activity", {"member_number": HAROLD})["results"][0]["points"] == -needed
    fails(
        session,
        "create_reservation",
        {
            "member_number": member_no("hannah.schmidt@gmail.com"),
            "segments": [ride("95", "2025-06-19", "NYP", "WAS", "FLEX")],
            "passengers": [adult()],
            "payment_method": "points",
        },
        "Conflict",
        "Not enough points",
    )
    fails(
        session,
        "create_reservation",
        {
            "member_number": AISHA,
            "passengers": [adult()],
            "segments": [ride("95", "2025-06-19", "NYP", "WAS", "VALUE")],
            "payment_method": "points",
            "evoucher_number": "EV00000005",
        },
        "InvalidRequest",
        "can't be combined",
    )


def test_evoucher_payment(session):
    trip = book(
        session,
        [ride("233", "2025-06-27", "NYP", "RHI", "VALUE")],
        [adult("Aisha", "Rahman")],
        member=AISHA,
        evoucher_number="ev00000005",
    )
    voucher = next(v for v in ok(session, "list_evouchers", {"member_number": AISHA}))
    assert (trip["paid_evoucher_cents"], trip["paid_card_cents"]) == (trip["total_cents"], 0)
    assert voucher["balance_cents"] == 12900 - trip["total_cents"]
    fails(
        session,
        "create_reservation",
        {
            "member_number": AISHA,
            "passengers": [adult()],
            "segments": [ride("233", "2025-06-27", "NYP", "RHI", "VALUE")],
            "evoucher_number": "EV00000002",
        },
        "Conflict",
        "expired",
    )
    fails(
        session,
        "create_reservation",
        {
            "member_number": MAYA,
            "passengers": [adult()],
            "segments": [ride("233", "2025-06-27", "NYP", "RHI", "VALUE")],
            "evoucher_number": "EV00000005",
        },
        "InvalidRequest",
        "another Guest Rewards",
    )
    fails(
        session,
        "create_reservation",
        {
            "member_number": SAMUEL,
            "passengers": [adult()],
            "segments": [ride("95", "2025-06-19", "NYP", "WAS", "FLEX")],
            "evoucher_number": "EV00000001",
        },
        "Conflict",
        "No payment card on file",
    )
    assert [
        v["evoucher_number"] for v in ok(session, "list_evouchers", {"member_number": AISHA, "include_used": True})
    ] == ["EV00000002", "EV00000005"]


# ---------------------------------------------------------------- cancellations


def test_value_fare_within_14_days_refunds_only_to_an_evoucher_less_25_percent(session):
    args = {"reservation_number": "f8ee79", "segment_ids": ["SEG00004", "SEG00005"]}
    quote = ok(session, "quote_cancellation", args)
    total = sum(
        s["passenger_fares"][p]
        for s in SEED["segments"]
        if s["reservation_number"] == "F8EE79"
        for p in s["passenger_fares"]
    )
    assert quote["fee_cents"] == sum(line["amount_cents"] * 25 // 100 for line in quote["lines"])
    assert quote["refundable_cents"] == total - quote["fee_cents"]
    assert all(line["refund_methods"] == ["evoucher"] for line in quote["lines"])
    fails(
        session,
        "cancel_reservation",
        {**args, "refund_method": "original_payment"},
        "InvalidRequest",
        "can't be refunded to original_payment",
    )
    before = departure(session, "176-2025-06-17")["seats_available"]["coach"]
    result = ok(session, "cancel_reservation", {**args, "refund_method": "evoucher"})
    assert (result["reservation_status"], result["eticket_number"]) == ("CANCELLED", None)
    assert result["evoucher"]["balance_cents"] == quote["refundable_cents"] and result["refunded_to_card_cents"] == 0
    assert row(session, "etickets", "2873400000003")["void_reason"] == "cancelled"
    after = departure(session, "176-2025-06-17")["seats_available"]["coach"]
    assert sum(after) - sum(before) == 2 * 8  # two seats back on the eight legs NYP-BOS
    fails(session, "cancel_reservation", {**args, "refund_method": "evoucher"}, "Conflict", "is cancelled")


def test_value_fare_15_days_out_refunds_to_the_card(session):
    result = ok(
        session,
        "cancel_reservation",
        {"reservation_number": "15E5B0", "segment_ids": ["SEG00045"], "refund_method": "original_payment"},
    )
    assert (result["refunded_to_card_cents"], result["fee_cents"], result["evoucher"]) == (20200, 0, None)
    assert row(session, "reservations", "15E5B0")["paid_card_cents"] == 0


def test_saver_after_24_hours_is_forfeited_but_within_24_hours_refunded(session):
    saver = ok(
        session,
        "cancel_reservation",
        {"reservation_number": "A47CEF", "segment_ids": ["SEG00010"], "refund_method": "evoucher"},
    )
    assert (saver["forfeited_cents"], saver["refunded_to_card_cents"], saver["evoucher"]) == (9400, 0, None)
    assert departure(session, "2163-2025-06-20")["saver_seats"] == SEED_DEPARTURES["2163-2025-06-20"]["saver_seats"] + 1
    fresh = {"reservation_number": "7469B8", "segment_ids": ["SEG00031"], "refund_method": "original_payment"}
    assert ok(session, "cancel_reservation", fresh)["refunded_to_card_cents"] == 3600
    session.reset("seed", datetime(2025, 6, 10, 23, 30, tzinfo=timezone.utc))  # 24 hours after booking
    assert (
        ok(session, "quote_cancellation", {"reservation_number": "7469B8", "segment_ids": ["SEG00031"]})[
            "forfeited_cents"
        ]
        == 3600
    )


def test_no_shows_and_departed_trains_cannot_be_cancelled(session):
    fails(
        session,
        "cancel_reservation",
        {"reservation_number": "BF1483", "segment_ids": ["SEG00039"], "refund_method": "original_payment"},
        "Conflict",
        "is completed",
    )
    session.reset("seed", datetime(2025, 6, 10, 16, 0, tzinfo=timezone.utc))  # train 641 has left New York
    fails(
        session,
        "cancel_reservation",
        {"reservation_number": "B718AF", "segment_ids": ["SEG00019"], "refund_method": "evoucher"},
        "Conflict",
        "no-show",
    )
    fails(
        session,
        "cancel_reservation",
        {"reservation_number": "B718AF", "segment_ids": ["SEG00040"], "refund_method": "evoucher"},
        "NotFound",
        "not on reservation",
    )
    fails(
        session,
        "cancel_reservation",
        {"reservation_number": "B718AF", "segment_ids": [], "refund_method": "evoucher"},
        "invalid_arguments",
        "segment_ids",
    )


def test_award_cancellation_gives_the_points_back(session):
    start = ok(session, "find_member", {"member_number": "7012845519"})["points_balance"]
    result = ok(
        session,
        "cancel_reservation",
        {"reservation_number": "0723E3", "segment_ids": ["SEG00036"], "refund_method": "original_payment"},
    )
    assert result["points_returned"] == 28759 and result["evoucher"] is None
    assert ok(session, "find_member", {"member_number": "7012845519"})["points_balance"] == start + 28759
    fails(
        session,
        "cancel_reservation",
        {"reservation_number": "2326FD", "segment_ids": ["SEG00061"], "refund_method": "bank"},
        "invalid_arguments",
        "refund_method",
    )


# ---------------------------------------------------------------- changes


def test_saver_cannot_change_unless_amtrak_cancelled_the_train(session):
    fails(
        session,
        "change_segment",
        {
            "reservation_number": "A47CEF",
            "segment_id": "SEG00010",
            "new_train_number": "2163",
            "new_travel_date": "2025-06-21",
            "new_fare_code": "SAVER",
        },
        "PermissionDenied",
        "Saver fares can't be changed",
    )
    saver_left = departure(session, "94-2025-06-14")["saver_seats"]
    result = ok(
        session,
        "change_segment",
        {
            "reservation_number": "BCDD9C",
            "segment_id": "SEG00012",
            "new_train_number": "94",
            "new_travel_date": "2025-06-14",
            "new_fare_code": "SAVER",
        },
    )
    assert (result["change_fee_cents"], result["collected_cents"], result["new_fare_cents"]) == (0, 0, 5100)
    assert departure(session, "94-2025-06-14")["saver_seats"] == saver_left - 1
    assert row(session, "etickets", "2873400000008")["void_reason"] == "exchanged"
    assert result["reservation"]["eticket_number"] not in {t["eticket_number"] for t in SEED["etickets"]}


def test_value_change_fee_within_14_days_and_the_select_executive_waiver(session):
    grace = ok(
        session,
        "change_segment",
        {
            "reservation_number": "B718AF",
            "segment_id": "SEG00020",
            "new_train_number": "650",
            "new_travel_date": "2025-06-13",
            "new_fare_code": "VALUE",
        },
    )
    assert grace["change_fee_cents"] == 6300 * 15 // 100
    assert grace["collected_cents"] == grace["new_fare_cents"] - grace["old_fare_cents"] + grace["change_fee_cents"]
    moore = ok(
        session,
        "change_segment",
        {
            "reservation_number": "86A11A",
            "segment_id": "SEG00029",
            "new_train_number": "2163",
            "new_travel_date": "2025-06-19",
            "new_fare_code": "VALUE",
        },
    )
    assert (moore["change_fee_cents"], moore["collected_cents"]) == (0, 0)


def test_residual_value_goes_to_an_evoucher_or_back_to_the_card_for_flex(session):
    downgrade = ok(
        session,
        "change_segment",
        {
            "reservation_number": "F65998",
            "segment_id": "SEG00035",
            "new_train_number": "2153",
            "new_travel_date": "2025-06-30",
            "new_fare_code": "SAVER",
        },
    )
    residual = downgrade["old_fare_cents"] - downgrade["new_fare_cents"]
    assert downgrade["evoucher"]["balance_cents"] == residual and downgrade["refunded_to_card_cents"] == 0
    flex = ok(
        session,
        "change_segment",
        {
            "reservation_number": "BB025A",
            "segment_id": "SEG00033",
            "new_train_number": "176",
            "new_travel_date": "2025-06-24",
            "new_fare_code": "FLEX",
        },
    )
    assert flex["refunded_to_card_cents"] == flex["old_fare_cents"] - flex["new_fare_cents"] > 0
    assert flex["evoucher"] is None


def test_change_checks(session):
    base = {"reservation_number": "BB025A", "segment_id": "SEG00033"}
    fails(
        session,
        "change_segment",
        {**base, "new_train_number": "2150", "new_travel_date": "2025-06-24", "new_fare_code": "FLEX"},
        "InvalidRequest",
        "Nothing to change",
    )
    fails(
        session,
        "change_segment",
        {**base, "new_train_number": "2150", "new_travel_date": "2025-06-27", "new_fare_code": "FLEX"},
        "InvalidRequest",
        "travel order",
    )
    fails(
        session,
        "change_segment",
        {**base, "new_train_number": "95", "new_travel_date": "2025-06-24", "new_fare_code": "FLEX"},
        "InvalidRequest",
        "does not run from NYP to BOS",
    )
    fails(
        session,
        "change_segment",
        {
            "reservation_number": "8E50EA",
            "segment_id": "SEG00044",
            "new_train_number": "55",
            "new_travel_date": "2025-06-25",
            "new_fare_code": "BUSINESS",
        },
        "Conflict",
        "No payment card on file",
    )


def test_within_24_hours_a_new_saver_can_still_be_upgraded_free(session):
    trip = book(session, [ride("95", "2025-06-19", "NYP", "WAS", "SAVER")])
    result = ok(
        session,
        "change_segment",
        {
            "reservation_number": trip["reservation_number"],
            "segment_id": trip["segments"][0]["segment_id"],
            "new_train_number": "95",
            "new_travel_date": "2025-06-19",
            "new_fare_code": "VALUE",
        },
    )
    assert result["change_fee_cents"] == 0
    assert result["collected_cents"] == result["new_fare_cents"] - result["old_fare_cents"]


# ---------------------------------------------------------------- travellers and contacts


def test_remove_passenger_refunds_their_fare_and_frees_their_seat(session):
    before = departure(session, "56-2025-07-02")["seats_available"]["coach"]
    result = ok(
        session,
        "remove_passenger",
        {"reservation_number": "261BB0", "passenger_id": "PAX00017", "refund_method": "original_payment"},
    )
    assert (result["refunded_to_card_cents"], result["reservation_status"]) == (9100, "CONFIRMED")
    assert row(session, "passengers", "PAX00017")["status"] == "REMOVED"
    assert "PAX00017" not in row(session, "segments", "SEG00018")["passenger_fares"]
    assert row(session, "reservations", "261BB0")["total_cents"] == 22750 - 9100
    after = departure(session, "56-2025-07-02")["seats_available"]["coach"]
    assert [a - b for a, b in zip(after, before)] == [0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0]
    assert result["eticket_number"] != "2873400000011"


def test_remove_passenger_rules(session):
    fails(
        session,
        "remove_passenger",
        {"reservation_number": "F65998", "passenger_id": "PAX00034", "refund_method": "evoucher"},
        "Conflict",
        "only traveller",
    )
    ok(
        session,
        "remove_passenger",
        {"reservation_number": "261BB0", "passenger_id": "PAX00017", "refund_method": "evoucher"},
    )
    fails(
        session,
        "remove_passenger",
        {"reservation_number": "261BB0", "passenger_id": "PAX00016", "refund_method": "evoucher"},
        "InvalidRequest",
        "must travel with an adult",
    )
    fails(
        session,
        "remove_passenger",
        {"reservation_number": "261BB0", "passenger_id": "PAX00017", "refund_method": "evoucher"},
        "NotFound",
        "not travelling",
    )


def test_update_reservation_contact(session):
    result = ok(
        session,
        "update_reservation_contact",
        {"reservation_number": "c02670", "contact_email": "Jordan.Lee@gmail.com", "contact_phone": "+1 804 555 0177"},
    )
    assert (result["contact_email"], result["contact_phone"]) == ("jordan.lee@gmail.com", "804-555-0177")
    fails(
        session,
        "update_reservation_contact",
        {"reservation_number": "C02670", "contact_email": "jordan@"},
        "invalid_arguments",
        "valid email address",
    )
    fails(
        session,
        "update_reservation_contact",
        {"reservation_number": "DBB90E", "contact_phone": "6465550181"},
        "Conflict",
        "cancelled",
    )
    fails(
        session,
        "update_reservation_contact",
        {"reservation_number": "ZZZZZZ", "contact_phone": "6465550181"},
        "NotFound",
        "Reservation",
    )


# ---------------------------------------------------------------- on board


def test_scanning_the_eticket_uses_the_ride_and_credits_points(session):
    args = {"eticket_number": "2873400000012", "train_number": "641"}
    fails(session, "scan_eticket", args, "Conflict", "only on board", caller="user")  # 10:00, boarding from 10:22
    session.reset("seed", datetime(2025, 6, 10, 14, 45, tzinfo=timezone.utc))
    start = ok(session, "find_member", {"member_number": "7012276690"})["points_balance"]
    scan = ok(session, "scan_eticket", args, caller="user")
    assert (scan["status"], scan["segment_id"], scan["points_credited"]) == ("USED", "SEG00019", 63 * 2)
    assert ok(session, "find_member", {"member_number": "7012276690"})["points_balance"] == start + 126
    fails(session, "scan_eticket", args, "Conflict", "no confirmed ride on train 641", caller="user")


def test_tier_bonus_and_completed_trips(session):
    def edit(tables):
        reservation = next(r for r in tables["reservations"] if r["reservation_number"] == "B718AF")
        reservation["member_number"] = "7019368804"  # a Select Executive earns double
        next(s for s in tables["segments"] if s["segment_id"] == "SEG00020")["status"] = "CANCELLED"

    restore_seed_with(session, edit, datetime(2025, 6, 10, 15, 0, tzinfo=timezone.utc))
    scan = ok(session, "scan_eticket", {"eticket_number": "2873400000012", "train_number": "641"}, caller="user")
    assert scan["points_credited"] == 63 * 2 * 2
    assert row(session, "reservations", "B718AF")["status"] == "COMPLETED"


def test_a_void_eticket_cannot_be_scanned(session):
    ok(
        session,
        "change_segment",
        {
            "reservation_number": "B718AF",
            "segment_id": "SEG00020",
            "new_train_number": "650",
            "new_travel_date": "2025-06-13",
            "new_fare_code": "VALUE",
        },
    )
    session.clock.reset(datetime(2025, 6, 10, 14, 45, tzinfo=timezone.utc))
    fails(
        session,
        "scan_eticket",
        {"eticket_number": "2873400000012", "train_number": "641"},
        "Conflict",
        "void (exchanged)",
        caller="user",
    )


TRIP = {"member_number": MAYA, "passengers": [adult()]}


@pytest.mark.parametrize(
    ("name", "args", "text"),
    [
        (
            "search_trains",
            {"origin": "NYP", "destination": "WAS", "travel_date": "2025-06-19", "passengers": 0},
            "1 and 8",
        ),
        (
            "search_trains",
            {"origin": "NYP", "destination": "WAS", "travel_date": "2025-06-19", "passengers": 9},
            "1 and 8",
        ),
        ("get_train_status", {"train_number": "95", "service_date": "June 19"}, "date like 2025-06-20"),
        ("list_stations", {"state": "New York"}, "two-letter state code"),
        ("get_rewards_activity", {"member_number": MAYA, "page_size": 101}, "page_size"),
        ("list_reservations", {"member_number": MAYA, "page_size": 51}, "page_size"),
        ("create_reservation", {**TRIP, "segments": []}, "1 to 4 segments"),
        ("create_reservation", {**TRIP, "segments": [ride("95", "2025-06-19", "NYP", "WAS", "VALUE")] * 5}, "1 to 4"),
        ("create_reservation", {**TRIP, "segments": [ride("95", "19/06/2025", "NYP", "WAS", "VALUE")]}, "YYYY-MM-DD"),
        ("create_reservation", {**TRIP, "segments": [ride("95", "2025-06-19", "NYP", "WAS", "COACH")]}, "SAVER, VALUE"),
        (
            "create_reservation",
            {**TRIP, "segments": [ride("95", "2025-06-19", "NYP", "WAS", "VALUE")], "passengers": []},
            "1 to 8 passengers",
        ),
        (
            "create_reservation",
            {**TRIP, "segments": [ride("95", "2025-06-19", "NYP", "WAS", "VALUE")], "passengers": [adult("Maya", "")]},
            "a first and a last name",
        ),
        (
            "change_segment",
            {
                "reservation_number": "E4C8F4",
                "segment_id": "SEG00003",
                "new_train_number": "233",
                "new_travel_date": "7/8/2025",
                "new_fare_code": "VALUE",
            },
            "date like 2025-06-20",
        ),
        ("update_member_profile", {"member_number": MAYA, "email": "maya at gmail"}, "valid email address"),
        ("update_member_profile", {"member_number": MAYA, "phone": "212-555-01423"}, "10-digit US phone number"),
        (
            "quote_cancellation",
            {"reservation_number": "E4C8F4", "segment_ids": []},
            "give the segment_ids to cancel",
        ),
    ],
)
def test_typed_bounds_fail_validation_and_change_nothing(session, name, args, text):
    fails(session, name, args, "invalid_arguments", text)


def test_the_schema_shows_the_bounds():
    props = {name: SPEC.tools[name].input_schema["properties"] for name in SPEC.tools}
    assert (props["search_trains"]["passengers"]["minimum"], props["search_trains"]["passengers"]["maximum"]) == (1, 8)
    assert props["search_trains"]["travel_date"]["format"] == "date"
    assert props["list_reservations"]["page_size"]["maximum"] == 50
    assert props["list_stations"]["page_size"]["maximum"] == 100
    assert (
        props["create_reservation"]["segments"]["minItems"],
        props["create_reservation"]["segments"]["maxItems"],
    ) == (
        1,
        4,
    )
    assert props["create_reservation"]["passengers"]["maxItems"] == 8
    assert props["cancel_reservation"]["segment_ids"]["minItems"] == 1
    assert "pattern" in props["update_member_profile"]["phone"]["anyOf"][0]
    assert "pattern" in props["update_reservation_contact"]["contact_email"]["anyOf"][0]


def test_a_well_shaped_date_that_is_not_on_the_calendar_is_refused(session):
    fails(
        session,
        "search_trains",
        {"origin": "NYP", "destination": "WAS", "travel_date": "2025-06-31"},
        "InvalidRequest",
        "not a valid date",
    )
    fails(
        session,
        "create_reservation",
        {**TRIP, "segments": [ride("95", "2025-02-30", "NYP", "WAS", "VALUE")]},
        "InvalidRequest",
        "not a valid date",
    )


def test_phones_in_any_common_shape_are_stored_one_way(session):
    for given_as in ("+1 (646) 555-0199", "6465550199", "1-646-555-0199"):
        member = ok(session, "update_member_profile", {"member_number": MAYA, "phone": given_as})
        assert member["phone"] == "646-555-0199"
    member = ok(session, "update_member_profile", {"member_number": MAYA, "email": "  Maya.Okafor@Example.COM "})
    assert member["email"] == "maya.okafor@example.com"


def test_evoucher_list_hides_used_ones_unless_asked(session):
    owner = next(v["member_number"] for v in SEED["evouchers"] if v["status"] != "ACTIVE")
    active = ok(session, "list_evouchers", {"member_number": owner})
    every = ok(session, "list_evouchers", {"member_number": owner, "include_used": True})
    assert {v["status"] for v in active} <= {"ACTIVE"}
    assert len(every) == sum(1 for v in SEED["evouchers"] if v["member_number"] == owner) > len(active)
