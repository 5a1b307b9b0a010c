"""The Amadeus environment's tools: offers, pricing, orders, fare rules, seats, holds, loyalty and profiles, with
state transitions and every error path leaving the state unchanged. Runs the real tools on the real seed."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest

from envfactory_gym import ToolSession, resolve

from . import toolkit
from .toolkit import session_fixture

SPEC = resolve("amadeus")
CLOCK = datetime(2025, 5, 7, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]


# ---------------------------------------------------------------- seed lookups (by name and route, not raw ids)


def profile(first: str, last: str) -> str:
    return next(t["id"] for t in SEED["travelers"] if (t["first_name"], t["last_name"]) == (first, last))


def party(*names: tuple[str, str]) -> list[dict[str, str]]:
    return [{"traveler_profile_id": profile(first, last)} for first, last in names]


def order_of(last: str, first: str | None = None, status: str | None = None) -> dict[str, Any]:
    return next(
        o
        for o in SEED["flight_orders"]
        if any(t["lastName"] == last and first in (None, t["firstName"]) for t in o["travelers"])
        and status in (None, o["status"])
    )


def flight(flight_id: str) -> dict[str, Any]:
    return next(f for f in SEED["flights"] if f["id"] == flight_id)


def fare(carrier: str, brand: str) -> dict[str, Any]:
    return next(f for f in SEED["fare_families"] if f["id"] == f"{carrier}-{brand}")


# ---------------------------------------------------------------- session helpers

session = session_fixture(SPEC, CLOCK)


def ok(session: ToolSession, name: str, /, caller: str = "agent", **args: Any) -> Any:
    return toolkit.ok(session, name, args, caller)


def fails(session: ToolSession, name: str, kind: str, fragment: str, /, caller: str = "agent", **args: Any) -> str:
    """The call fails with `kind`, mentions `fragment`, and changes nothing."""
    return toolkit.fails(session, name, args, kind, fragment, caller).error or ""


def search(session: ToolSession, origin: str, destination: str, day: str, **args: Any) -> list[dict[str, Any]]:
    args.setdefault("max_results", 250)
    return ok(
        session,
        "search_flight_offers",
        origin_location_code=origin,
        destination_location_code=destination,
        departure_date=day,
        **args,
    )["data"]


def offer_on(session: ToolSession, origin: str, destination: str, day: str, brand: str, **args: Any) -> dict[str, Any]:
    return next(o for o in search(session, origin, destination, day, **args) if o["fare"]["brandedFare"] == brand)


def seats_left(session: ToolSession, flight_id: str, cabin: str) -> int:
    return session.dump()["flights"][flight_id]["seats_left"][cabin]


def segment_flights(offer_id: str) -> list[str]:
    return [f for part in offer_id.split("/")[0].split("~") for f in part.split("+")]


def book(session: ToolSession, offer_id: str, *profiles: str, **args: Any) -> dict[str, Any]:
    return ok(
        session,
        "create_flight_order",
        flight_offer_id=offer_id,
        travelers=[{"traveler_profile_id": p} for p in profiles],
        **args,
    )


def payments_of(session: ToolSession, order_id: str) -> list[tuple[str, int]]:
    return sorted(
        (p["type"], p["amount"]) for p in session.dump()["payments"].values() if p["flight_order_id"] == order_id
    )


def free_seats(session: ToolSession, order_id: str, segment: str = "1") -> list[dict[str, Any]]:
    return ok(session, "get_seatmap", flight_order_id=order_id, segment_id=segment)[0]["decks"][0]["seats"]


# ---------------------------------------------------------------- locations and offers


def test_airport_search_finds_cities_and_their_airports(session):
    found = ok(session, "search_airports", keyword="london")
    codes = [(loc["subType"], loc["iataCode"]) for loc in found]
    assert codes[0] == ("CITY", "LON") and {("AIRPORT", "LHR"), ("AIRPORT", "LGW"), ("AIRPORT", "LCY")} <= set(codes)
    exact = ok(session, "search_airports", keyword="lin", sub_type="AIRPORT")
    assert exact[0]["iataCode"] == "LIN" and exact[0]["address"]["cityCode"] == "MIL"


def test_search_sorts_by_price_and_city_code_covers_all_airports(session):
    offers = search(session, "LON", "AMS", "2025-05-16")
    totals = [float(o["price"]["grandTotal"]) for o in offers]
    assert offers and totals == sorted(totals)
    assert {o["itineraries"][0]["segments"][0]["departure"]["iataCode"] for o in offers} <= {"LHR", "LGW", "LCY"}
    assert all(o["validatingAirlineCodes"] == [o["itineraries"][0]["segments"][0]["carrierCode"]] for o in offers)


def test_search_round_trip_keeps_one_airline_and_brand(session):
    offers = search(session, "FRA", "LIS", "2025-05-15", return_date="2025-05-18")
    assert offers and all(not o["oneWay"] and len(o["itineraries"]) == 2 for o in offers)
    for o in offers:
        carriers = {s["carrierCode"] for i in o["itineraries"] for s in i["segments"]}
        assert carriers == set(o["validatingAirlineCodes"])


def test_search_leaves_out_flights_without_enough_seats(session):
    full = "LH170-20250516"
    assert flight(full)["seats_left"]["ECONOMY"] == 1
    one = {o["id"] for o in search(session, "FRA", "BER", "2025-05-16", travel_class="ECONOMY", non_stop=True)}
    two = {
        o["id"] for o in search(session, "FRA", "BER", "2025-05-16", travel_class="ECONOMY", non_stop=True, adults=2)
    }
    assert any(full in i for i in one) and not any(full in i for i in two)
    assert all(o["numberOfBookableSeats"] <= 9 for o in search(session, "FRA", "BER", "2025-05-16"))


def test_search_filters_cabin_and_airline(session):
    offers = search(session, "LHR", "JFK", "2025-05-20", travel_class="FIRST", included_airline_codes=["BA"])
    assert offers and {o["fare"]["cabin"] for o in offers} == {"FIRST"}
    assert {o["validatingAirlineCodes"][0] for o in offers} == {"BA"}


@pytest.mark.parametrize(
    ("args", "kind", "fragment"),
    [
        ({"departure_date": "2025-05-01"}, "InvalidRequest", "in the past"),
        ({"departure_date": "2025-13-01"}, "InvalidRequest", "departure_date '2025-13-01' is not a valid date"),
        ({"departure_date": "2025-05-15", "infants": 2}, "InvalidRequest", "infants cannot exceed adults"),
        ({"departure_date": "2025-05-15", "return_date": "2025-05-14"}, "InvalidRequest", "return_date must not be"),
        ({"departure_date": "2025-05-15", "adults": 5, "children": 5}, "InvalidRequest", "must not exceed 9"),
        ({"departure_date": "2025-05-15", "destination_location_code": "XXX"}, "NotFound", "XXX"),
    ],
)
def test_search_rejects_bad_requests(session, args, kind, fragment):
    request = {"origin_location_code": "FRA", "destination_location_code": "LIS", **args}
    fails(session, "search_flight_offers", kind, fragment, **request)


def test_price_gives_traveler_types_and_fare_rules(session):
    basic = offer_on(session, "FRA", "LIS", "2025-05-15", "ECOLIGHT", non_stop=True)
    priced = ok(session, "price_flight_offer", flight_offer_id=basic["id"], adults=2, children=1, infants=1)
    offer = priced["flightOffers"][0]
    pricings = {p["travelerType"]: float(p["price"]["base"]) for p in offer["travelerPricings"]}
    assert [p["travelerType"] for p in offer["travelerPricings"]] == ["ADULT", "ADULT", "CHILD", "HELD_INFANT"]
    assert pricings["CHILD"] == pytest.approx(pricings["ADULT"] * 0.75, abs=0.01)
    assert pricings["HELD_INFANT"] == pytest.approx(pricings["ADULT"] * 0.1, abs=0.01)
    totals = [float(p["price"]["total"]) for p in offer["travelerPricings"]]
    assert float(offer["price"]["grandTotal"]) == pytest.approx(sum(totals))
    rules = {r["category"]: r for r in offer["fareRules"]}
    assert rules["REFUNDS"]["notApplicable"] and rules["EXCHANGE"]["notApplicable"]
    infant = offer["travelerPricings"][3]["fareDetailsBySegment"][0]
    assert infant["includedCheckedBags"]["quantity"] == 0 and infant["cabin"] == "ECONOMY"


def test_price_unknown_offer_is_not_found(session):
    fails(
        session, "price_flight_offer", "NotFound", "search flight offers again", flight_offer_id="LH1-20250515/ECOFLEX"
    )
    fails(session, "price_flight_offer", "NotFound", "not found", flight_offer_id="garbage")


# ---------------------------------------------------------------- booking


def test_confirmed_order_takes_seats_charges_and_credits_partner_miles(session):
    offer = offer_on(session, "FRA", "LIS", "2025-05-15", "ECOCLASSIC", non_stop=True)
    (flight_id,) = segment_flights(offer["id"])
    before = seats_left(session, flight_id, "ECONOMY")
    order = ok(
        session,
        "create_flight_order",
        flight_offer_id=offer["id"],
        travelers=[
            {"traveler_profile_id": profile("ANNA", "WEBER"), "loyalty_program_owner": "LH"},
            {"traveler_profile_id": profile("ELLA", "WEBER")},
            {"traveler_profile_id": profile("TIM", "WEBER")},
        ],
    )
    assert order["status"] == "TICKETED" and len(order["associatedRecords"][0]["reference"]) == 6
    types = [(t["id"], t["name"]["firstName"], t["travelerType"], t["associatedAdultId"]) for t in order["travelers"]]
    assert types == [("1", "ANNA", "ADULT", None), ("2", "TIM", "ADULT", None), ("3", "ELLA", "HELD_INFANT", "1")]
    assert order["travelers"][0]["loyaltyPrograms"] == [{"programOwner": "LH", "id": "992003318754021"}]
    assert seats_left(session, flight_id, "ECONOMY") == before - 2  # the infant has no seat
    total = round(float(order["flightOffers"][0]["price"]["grandTotal"]) * 100)
    assert payments_of(session, order["id"]) == [("CHARGE", total)]
    assert ok(session, "get_flight_order", flight_order_id=order["id"])["id"] == order["id"]


def test_star_alliance_program_is_credited_on_a_partner(session):
    offer = offer_on(session, "SFO", "FRA", "2025-05-20", "PREMECO", included_airline_codes=["LH"])
    order = ok(
        session,
        "create_flight_order",
        flight_offer_id=offer["id"],
        travelers=[{"traveler_profile_id": profile("YUKI", "TANAKA"), "loyalty_program_owner": "UA"}],
    )
    assert order["travelers"][0]["loyaltyPrograms"][0]["programOwner"] == "UA"


def test_loyalty_of_another_alliance_is_refused(session):
    offer = offer_on(session, "FRA", "LIS", "2025-05-15", "ECOCLASSIC", non_stop=True)
    fails(
        session,
        "create_flight_order",
        "InvalidRequest",
        "cannot be credited",
        flight_offer_id=offer["id"],
        travelers=[{"traveler_profile_id": profile("JONAS", "BECKER"), "loyalty_program_owner": "AF"}],
    )
    fails(
        session,
        "create_flight_order",
        "InvalidRequest",
        "no saved BA",
        flight_offer_id=offer["id"],
        travelers=[{"traveler_profile_id": profile("JONAS", "BECKER"), "loyalty_program_owner": "BA"}],
    )


def test_booking_needs_birth_date_and_adult_contact(session):
    offer = offer_on(session, "FRA", "LIS", "2025-05-15", "ECOCLASSIC", non_stop=True)
    fails(
        session,
        "create_flight_order",
        "InvalidRequest",
        "dateOfBirth is required",
        flight_offer_id=offer["id"],
        travelers=party(("MARCO", "ROSSI"), ("MILA", "ROSSI")),
    )
    fails(
        session,
        "create_flight_order",
        "InvalidRequest",
        "contact",
        flight_offer_id=offer["id"],
        travelers=[{"traveler_profile_id": profile("HANNAH", "SCHULZ")}],
    )
    ok(session, "update_traveler_profile", traveler_profile_id=profile("HANNAH", "SCHULZ"), email="Hannah@Larkspur.io")
    assert book(session, offer["id"], profile("HANNAH", "SCHULZ"))["status"] == "TICKETED"


def test_minors_cannot_fly_alone_and_infants_need_their_own_adult(session):
    offer = offer_on(session, "FRA", "LIS", "2025-05-15", "ECOCLASSIC", non_stop=True)
    fails(
        session,
        "create_flight_order",
        "InvalidRequest",
        "At least one adult",
        flight_offer_id=offer["id"],
        travelers=[{"traveler_profile_id": profile("LUCA", "ROSSI")}],
    )
    fails(
        session,
        "create_flight_order",
        "InvalidRequest",
        "different travelers",
        flight_offer_id=offer["id"],
        travelers=party(("ANNA", "WEBER"), ("ANNA", "WEBER")),
    )


def test_sold_out_segment_fails_the_whole_order(session):
    offer_id = next(
        o["id"]
        for o in search(session, "FRA", "BER", "2025-05-16", non_stop=True)
        if "LH170-20250516" in o["id"] and o["fare"]["brandedFare"] == "ECOLIGHT"
    )
    fails(
        session,
        "create_flight_order",
        "Conflict",
        "SEGMENT SELL FAILURE",
        flight_offer_id=offer_id,
        travelers=party(("FELIX", "BRAUN"), ("ANNA", "WEBER")),
    )
    book(session, offer_id, profile("FELIX", "BRAUN"))
    assert seats_left(session, "LH170-20250516", "ECONOMY") == 0
    fails(
        session,
        "create_flight_order",
        "Conflict",
        "0 seat(s) left",
        flight_offer_id=offer_id,
        travelers=[{"traveler_profile_id": profile("ANNA", "WEBER")}],
    )


def test_departed_flights_cannot_be_booked(session):
    session.reset("seed", datetime(2025, 5, 15, 12, 0, tzinfo=timezone.utc))
    offer_id = order_of("BRAUN")["flight_offer_id"].split("~")[0] + "/ECOCLASSIC"
    fails(
        session,
        "create_flight_order",
        "Conflict",
        "already departed",
        flight_offer_id=offer_id,
        travelers=[{"traveler_profile_id": profile("ANNA", "WEBER")}],
    )


def test_hold_reserves_seats_without_payment_until_the_traveler_approves(session):
    offer = offer_on(session, "LON", "AMS", "2025-05-16", "ECOLIGHT", adults=2)
    (flight_id,) = segment_flights(offer["id"])
    before = seats_left(session, flight_id, "ECONOMY")
    order = book(
        session,
        offer["id"],
        profile("PRIYA", "RAMAN"),
        profile("SARA", "LINDQVIST"),
        ticketing_option="DELAY_TO_CANCEL",
    )
    assert order["status"] == "HELD" and order["ticketingAgreement"]["dateTime"] == "2025-05-10T23:59:00"
    assert payments_of(session, order["id"]) == [] and seats_left(session, flight_id, "ECONOMY") == before - 2
    pnr = order["associatedRecords"][0]["reference"]
    fails(session, "approve_payment", "user_only", "only be performed by the user", record_locator=pnr)
    paid = ok(session, "approve_payment", caller="user", record_locator=pnr.lower())
    assert paid["status"] == "TICKETED" and payments_of(session, order["id"])[0][0] == "CHARGE"
    fails(session, "approve_payment", "Conflict", "not on hold", caller="user", record_locator=pnr)


def test_lapsed_hold_cannot_be_paid_and_late_holds_are_refused(session):
    lapsed = order_of("WEBER", "TIM", "HELD")
    fails(session, "approve_payment", "Conflict", "lapsed", caller="user", record_locator=lapsed["record_locator"])
    session.reset("seed", datetime(2025, 5, 15, 8, 0, tzinfo=timezone.utc))
    offer = offer_on(session, "FRA", "BER", "2025-05-15", "ECOCLASSIC", non_stop=True)
    fails(
        session,
        "create_flight_order",
        "InvalidRequest",
        "cannot be held",
        flight_offer_id=offer["id"],
        travelers=[{"traveler_profile_id": profile("ANNA", "WEBER")}],
        ticketing_option="DELAY_TO_CANCEL",
    )


def test_cancel_all_held_orders_releases_every_hold_and_nothing_else(session):
    held = [o for o in SEED["flight_orders"] if o["status"] == "HELD"]
    ticketed = {o["id"] for o in SEED["flight_orders"] if o["status"] == "TICKETED"}
    sara = order_of("LINDQVIST", status="HELD")
    (flight_id,) = segment_flights(sara["flight_offer_id"])
    before = seats_left(session, flight_id, "ECONOMY")
    released = ok(session, "cancel_all_held_orders")
    assert {r["flightOrderId"] for r in released} == {o["id"] for o in held}
    state = session.dump()["flight_orders"]
    assert all(state[o["id"]]["status"] == "CANCELLED" for o in held)
    assert all(state[i]["status"] == "TICKETED" for i in ticketed)
    assert seats_left(session, flight_id, "ECONOMY") == before + 1
    fails(session, "cancel_all_held_orders", "Conflict", "No flight orders are on hold")


# ---------------------------------------------------------------- cancelling and changing


def test_basic_fare_cancels_without_refund(session):
    marco = order_of("ROSSI", "MARCO")
    result = ok(session, "cancel_flight_order", flight_order_id=marco["id"])
    assert (result["refundAmount"], result["status"]) == ("0.00", "CANCELLED")
    assert payments_of(session, marco["id"]) == [("CHARGE", marco["grand_total"])]
    fails(session, "cancel_flight_order", "Conflict", "already cancelled", flight_order_id=marco["id"])


def test_standard_fare_refunds_minus_fee_per_seated_traveler_and_gives_seats_back(session):
    carters = order_of("CARTER", "MAYA")
    seated = len(carters["travelers"])
    fee = fare("DL", "ECOCLASSIC")["cancellation_fee"] * 100 * seated
    flight_id = segment_flights(carters["flight_offer_id"])[0]
    before = seats_left(session, flight_id, "ECONOMY")
    result = ok(session, "cancel_flight_order", flight_order_id=carters["id"])
    assert round(float(result["refundAmount"]) * 100) == carters["grand_total"] - fee
    assert ("REFUND", carters["grand_total"] - fee) in payments_of(session, carters["id"])
    assert seats_left(session, flight_id, "ECONOMY") == before + seated


def test_flexible_fare_refunds_in_full_and_held_orders_cancel_free(session):
    lucas = order_of("MOREAU")
    refund = ok(session, "cancel_flight_order", flight_order_id=lucas["id"])["refundAmount"]
    assert refund == f"{lucas['grand_total'] / 100:.2f}"
    emma = order_of("NOVAK", status="HELD")
    assert ok(session, "cancel_flight_order", flight_order_id=emma["id"])["refundAmount"] == "0.00"
    assert payments_of(session, emma["id"]) == []


def test_flown_orders_cannot_be_cancelled(session):
    session.reset("seed", datetime(2025, 5, 13, 1, 0, tzinfo=timezone.utc))
    ben = order_of("CARTER", status="TICKETED")
    assert ben["travelers"][0]["firstName"] == "BEN" and len(ben["travelers"]) == 1
    fails(session, "cancel_flight_order", "Conflict", "already departed", flight_order_id=ben["id"])


def test_basic_fare_cannot_change(session):
    marco = order_of("ROSSI", "MARCO")
    new = offer_on(session, "MUC", "LIN", "2025-05-17", "ECOLIGHT", return_date="2025-05-18")
    fails(
        session,
        "change_flight_order",
        "Conflict",
        "non-changeable",
        flight_order_id=marco["id"],
        new_flight_offer_id=new["id"],
    )


def test_standard_fare_change_charges_fee_and_difference_and_keeps_unchanged_seats(session):
    felix = order_of("BRAUN")
    outbound, inbound = segment_flights(felix["flight_offer_id"])
    new = next(
        o
        for o in search(session, "FRA", "LIS", "2025-05-15", return_date="2025-05-19", non_stop=True)
        if o["fare"]["brandedFare"] == "ECOCLASSIC" and segment_flights(o["id"])[0] == outbound
    )
    new_return = segment_flights(new["id"])[1]
    before_old, before_new = seats_left(session, inbound, "ECONOMY"), seats_left(session, new_return, "ECONOMY")
    kept_before = seats_left(session, outbound, "ECONOMY")
    result = ok(session, "change_flight_order", flight_order_id=felix["id"], new_flight_offer_id=new["id"])
    fee = fare("LH", "ECOCLASSIC")["change_fee"] * 100
    difference = max(0, round(float(new["price"]["grandTotal"]) * 100) - felix["grand_total"])
    assert round(float(result["changeFee"]) * 100) == fee
    assert round(float(result["fareDifference"]) * 100) == difference
    assert ("CHANGE_FEE", fee) in payments_of(session, felix["id"])
    order = result["flightOrder"]
    assert order["associatedRecords"][0]["flightOfferId"] == new["id"]
    assert [s["segmentId"] for s in order["seatAssignments"]] == ["1"]  # outbound seat kept, old return seat gone
    assert seats_left(session, inbound, "ECONOMY") == before_old + 1
    assert seats_left(session, new_return, "ECONOMY") == before_new - 1
    assert seats_left(session, outbound, "ECONOMY") == kept_before  # the kept flight neither gains nor loses a seat


def test_flexible_fare_changes_free(session):
    lucas = order_of("MOREAU")
    new = offer_on(session, "CDG", "FCO", "2025-05-16", "ECOFLEX")
    result = ok(session, "change_flight_order", flight_order_id=lucas["id"], new_flight_offer_id=new["id"])
    assert result["changeFee"] == "0.00"
    assert all(kind != "CHANGE_FEE" for kind, _ in payments_of(session, lucas["id"]))


def test_change_keeps_fare_route_and_needs_a_ticket(session):
    felix = order_of("BRAUN")
    flex = offer_on(session, "FRA", "LIS", "2025-05-15", "ECOFLEX", return_date="2025-05-19", non_stop=True)
    fails(
        session,
        "change_flight_order",
        "InvalidRequest",
        "keeps the booked fare",
        flight_order_id=felix["id"],
        new_flight_offer_id=flex["id"],
    )
    other_route = offer_on(session, "FRA", "MAD", "2025-05-15", "ECOCLASSIC", return_date="2025-05-19")
    fails(
        session,
        "change_flight_order",
        "InvalidRequest",
        "same origin and destination",
        flight_order_id=felix["id"],
        new_flight_offer_id=other_route["id"],
    )
    fails(
        session,
        "change_flight_order",
        "InvalidRequest",
        "same flights",
        flight_order_id=felix["id"],
        new_flight_offer_id=felix["flight_offer_id"],
    )
    emma = order_of("NOVAK", status="HELD")
    fails(
        session,
        "change_flight_order",
        "Conflict",
        "only ticketed orders",
        flight_order_id=emma["id"],
        new_flight_offer_id=emma["flight_offer_id"],
    )


# ---------------------------------------------------------------- seats


def test_seat_assignment_moves_and_shows_as_occupied(session):
    jonas = order_of("BECKER")
    seat = next(s["number"] for s in free_seats(session, jonas["id"]) if "E" not in s["characteristicsCodes"])
    order = ok(
        session, "assign_seat", flight_order_id=jonas["id"], segment_id="1", traveler_id="1", seat_number=seat.lower()
    )
    assert {"segmentId": "1", "travelerId": "1", "number": seat} in order["seatAssignments"]
    assert len([s for s in order["seatAssignments"] if s["segmentId"] == "1"]) == 1  # the previous seat is released
    assert seat not in {s["number"] for s in free_seats(session, jonas["id"])}
    fails(
        session,
        "assign_seat",
        "Conflict",
        "already assigned",
        flight_order_id=jonas["id"],
        segment_id="1",
        traveler_id="1",
        seat_number=seat,
    )


def test_seat_must_exist_be_free_and_in_the_booked_cabin(session):
    jonas = order_of("BECKER")
    seat_map = ok(session, "get_seatmap", flight_order_id=jonas["id"], segment_id="1", only_available=False)[0]
    taken = next(s["number"] for s in seat_map["decks"][0]["seats"] if s["seatAvailabilityStatus"] == "OCCUPIED")
    fails(
        session,
        "assign_seat",
        "Conflict",
        "occupied",
        flight_order_id=jonas["id"],
        segment_id="1",
        traveler_id="1",
        seat_number=taken,
    )
    fails(
        session,
        "assign_seat",
        "InvalidRequest",
        "is in BUSINESS",
        flight_order_id=jonas["id"],
        segment_id="1",
        traveler_id="1",
        seat_number="1A",
    )
    fails(
        session,
        "assign_seat",
        "NotFound",
        "does not exist",
        flight_order_id=jonas["id"],
        segment_id="1",
        traveler_id="1",
        seat_number="99Z",
    )
    fails(
        session,
        "assign_seat",
        "NotFound",
        "Segment '7'",
        flight_order_id=jonas["id"],
        segment_id="7",
        traveler_id="1",
        seat_number="20A",
    )
    fails(
        session,
        "assign_seat",
        "NotFound",
        "Traveler '5'",
        flight_order_id=jonas["id"],
        segment_id="1",
        traveler_id="5",
        seat_number="20A",
    )


def test_exit_rows_are_not_for_minors(session):
    carters = order_of("CARTER", "MAYA")
    ids = {t["firstName"]: t["id"] for t in carters["travelers"]}
    exit_seat = next(s["number"] for s in free_seats(session, carters["id"]) if "E" in s["characteristicsCodes"])
    for minor in ("NOAH", "MAYA"):
        fails(
            session,
            "assign_seat",
            "InvalidRequest",
            "under 18",
            flight_order_id=carters["id"],
            segment_id="1",
            traveler_id=ids[minor],
            seat_number=exit_seat,
        )
    ok(
        session,
        "assign_seat",
        flight_order_id=carters["id"],
        segment_id="1",
        traveler_id=ids["BEN"],
        seat_number=exit_seat,
    )


def test_infants_get_no_seat_and_their_adult_no_exit_row(session):
    offer = offer_on(session, "FRA", "LIS", "2025-05-15", "ECOCLASSIC", non_stop=True)
    order = book(session, offer["id"], profile("ANNA", "WEBER"), profile("TIM", "WEBER"), profile("ELLA", "WEBER"))
    seat_map = free_seats(session, order["id"])
    exit_seat = next(s["number"] for s in seat_map if "E" in s["characteristicsCodes"])
    plain = next(s["number"] for s in seat_map if "E" not in s["characteristicsCodes"])
    fails(
        session,
        "assign_seat",
        "InvalidRequest",
        "no seat",
        flight_order_id=order["id"],
        segment_id="1",
        traveler_id="3",
        seat_number=plain,
    )
    fails(
        session,
        "assign_seat",
        "InvalidRequest",
        "holding an infant",
        flight_order_id=order["id"],
        segment_id="1",
        traveler_id="1",
        seat_number=exit_seat,
    )
    ok(session, "assign_seat", flight_order_id=order["id"], segment_id="1", traveler_id="2", seat_number=exit_seat)


def test_seatmap_shows_only_the_booked_cabin_with_characteristics(session):
    anna = order_of("WEBER", "ANNA", "TICKETED")
    maps = ok(session, "get_seatmap", flight_order_id=anna["id"], only_available=False)
    assert [m["segmentId"] for m in maps] == ["1", "2"] and {m["cabin"] for m in maps} == {"BUSINESS"}
    seats = maps[0]["decks"][0]["seats"]
    assert {s["seatAvailabilityStatus"] for s in seats} == {"AVAILABLE", "OCCUPIED"}
    assert all(s["characteristicsCodes"] for s in seats)
    assert {"W", "A"} <= {c for s in seats for c in s["characteristicsCodes"]}
    fails(
        session,
        "get_seatmap",
        "InvalidRequest",
        "exactly one",
        flight_order_id=anna["id"],
        flight_offer_id=anna["flight_offer_id"],
    )
    by_offer = ok(session, "get_seatmap", flight_offer_id=anna["flight_offer_id"], segment_id="2")
    assert [m["segmentId"] for m in by_offer] == ["2"]


# ---------------------------------------------------------------- profiles and listings


def test_create_profile_normalizes_and_refuses_duplicates(session):
    created = ok(
        session,
        "create_traveler_profile",
        first_name="Tomás",
        last_name=" ribeiro ",
        date_of_birth="1994-03-02",
        email="Tomas.Ribeiro@Larkspur.io",
        phone="+351 913 555 210",
    )
    assert created["name"] == {"firstName": "TOMÁS", "lastName": "RIBEIRO"}
    assert created["contact"]["emailAddress"] == "tomas.ribeiro@larkspur.io"
    phone = created["contact"]["phones"][0]
    assert phone == {"deviceType": "MOBILE", "countryCallingCode": "351", "number": "913555210"}
    assert created["id"] in session.dump()["travelers"]
    fails(session, "create_traveler_profile", "Conflict", "already exists", first_name="tomás", last_name="RIBEIRO")
    fails(
        session,
        "create_traveler_profile",
        "InvalidRequest",
        "future",
        first_name="Baby",
        last_name="Nobody",
        date_of_birth="2026-01-01",
    )
    fails(
        session,
        "create_traveler_profile",
        "invalid_arguments",
        "phone: must be an international number",
        first_name="Baby",
        last_name="Nobody",
        phone="0151 234",
    )
    fails(
        session,
        "create_traveler_profile",
        "invalid_arguments",
        "email",
        first_name="Baby",
        last_name="Nobody",
        email="baby@nowhere",
    )
    fails(session, "create_traveler_profile", "invalid_arguments", "first_name", first_name="   ", last_name="Nobody")
    fails(
        session,
        "create_traveler_profile",
        "InvalidRequest",
        "date_of_birth '1990-02-30' is not a valid date",
        first_name="Baby",
        last_name="Nobody",
        date_of_birth="1990-02-30",
    )
    dialled = ok(session, "create_traveler_profile", first_name="Ines", last_name="Costa", phone="00 351 (913) 555-210")
    assert dialled["contact"]["phones"] == [
        {"deviceType": "MOBILE", "countryCallingCode": "351", "number": "913555210"}
    ]


def test_update_profile_loyalty_replaces_the_same_program(session):
    marco = profile("MARCO", "ROSSI")
    updated = ok(
        session,
        "update_traveler_profile",
        traveler_profile_id=marco,
        loyalty_program={"program_owner": "lh", "id": "992 000 111 222 333"},
    )
    assert updated["loyaltyPrograms"] == [
        {"programOwner": "AF", "id": "1182776530"},
        {"programOwner": "LH", "id": "992000111222333"},
    ]
    fails(
        session,
        "update_traveler_profile",
        "InvalidRequest",
        "does not run",
        traveler_profile_id=marco,
        loyalty_program={"program_owner": "LX", "id": "12345678"},
    )
    fails(
        session,
        "update_traveler_profile",
        "invalid_arguments",
        "loyalty_program.id",
        traveler_profile_id=marco,
        loyalty_program={"program_owner": "LH", "id": "12 34"},
    )
    fails(session, "update_traveler_profile", "InvalidRequest", "Nothing to update", traveler_profile_id=marco)
    fails(
        session, "update_traveler_profile", "NotFound", "Traveler profile", traveler_profile_id="TRV9999", gender="MALE"
    )


def test_list_orders_filters_by_pnr_name_and_status(session):
    daniel = order_of("KIM", status="TICKETED")
    by_pnr = ok(session, "list_flight_orders", record_locator=daniel["record_locator"].lower())
    assert [o["id"] for o in by_pnr] == [daniel["id"]]
    held = ok(session, "list_flight_orders", status="HELD")
    assert {o["id"] for o in held} == {o["id"] for o in SEED["flight_orders"] if o["status"] == "HELD"}
    carters = ok(session, "list_flight_orders", traveler_name="carter")
    assert len(carters) == 2 and all(any("CARTER" in n for n in o["travelers"]) for o in carters)
    starts = [o["itineraries"][0]["departureAt"] for o in ok(session, "list_flight_orders")]
    assert starts == sorted(starts)
    assert [t["name"]["lastName"] for t in ok(session, "list_traveler_profiles", name="rossi")] == ["ROSSI"] * 4


# ---------------------------------------------------------------- the schema shows every limit the tools enforce


def _property(tool: str, argument: str) -> dict[str, Any]:
    prop = SPEC.tools[tool].input_schema["properties"][argument]
    return next((o for o in prop.get("anyOf", ()) if o.get("type") != "null"), prop)


@pytest.mark.parametrize(
    ("tool", "argument", "limits"),
    [
        ("search_flight_offers", "adults", {"minimum": 1, "maximum": 9}),
        ("search_flight_offers", "children", {"minimum": 0, "maximum": 8}),
        ("search_flight_offers", "infants", {"minimum": 0, "maximum": 9}),
        ("search_flight_offers", "max_results", {"minimum": 1, "maximum": 250}),
        ("search_flight_offers", "max_price", {"minimum": 1}),
        ("search_flight_offers", "departure_date", {"pattern": r"^\d{4}-\d{2}-\d{2}$"}),
        ("search_flight_offers", "included_airline_codes", {"uniqueItems": True}),
        ("price_flight_offer", "adults", {"minimum": 1, "maximum": 9}),
        ("create_flight_order", "travelers", {"minItems": 1, "maxItems": 9, "uniqueItems": True}),
        ("create_traveler_profile", "date_of_birth", {"pattern": r"^\d{4}-\d{2}-\d{2}$"}),
        ("list_flight_orders", "record_locator", {"pattern": r"^\s*[A-Za-z0-9]{6}\s*$"}),
    ],
)
def test_argument_limits_are_in_the_schema(tool, argument, limits):
    prop = _property(tool, argument)
    assert {key: prop.get(key) for key in limits} == limits


@pytest.mark.parametrize(
    ("tool", "args", "argument"),
    [
        ("search_flight_offers", {"adults": 0}, "adults"),
        ("search_flight_offers", {"adults": 10}, "adults"),
        ("search_flight_offers", {"children": -1}, "children"),
        ("search_flight_offers", {"max_results": 251}, "max_results"),
        ("search_flight_offers", {"departure_date": "15.05.2025"}, "departure_date"),
        ("search_flight_offers", {"origin_location_code": "FRANKFURT"}, "origin_location_code"),
        ("search_flight_offers", {"included_airline_codes": ["LUFTHANSA"]}, "included_airline_codes.0"),
        ("price_flight_offer", {"infants": 10}, "infants"),
        ("create_flight_order", {"travelers": []}, "travelers"),
        ("assign_seat", {"seat_number": "window"}, "seat_number"),
        ("assign_seat", {"segment_id": "first"}, "segment_id"),
        ("approve_payment", {"record_locator": "ABC"}, "record_locator"),
    ],
)
def test_out_of_bounds_arguments_are_refused_by_name(session, tool, args, argument):
    base = {
        "search_flight_offers": {
            "origin_location_code": "FRA",
            "destination_location_code": "LIS",
            "departure_date": "2025-05-15",
        },
        "price_flight_offer": {"flight_offer_id": "LH1166-20250515/ECOLIGHT"},
        "create_flight_order": {"flight_offer_id": "LH1166-20250515/ECOLIGHT"},
        "assign_seat": {
            "flight_order_id": order_of("BECKER")["id"],
            "segment_id": "1",
            "traveler_id": "1",
            "seat_number": "20A",
        },
        "approve_payment": {},
    }[tool]
    caller = "user" if tool == "approve_payment" else "agent"
    error = fails(session, tool, "invalid_arguments", f"{argument}:", caller=caller, **{**base, **args})
    assert error.startswith(f"invalid arguments for '{tool}'")
    if "pattern" in str(_property(tool, argument.split(".")[0])):  # a shape, not a bound: the product's own words
        assert "INVALID FORMAT" in error and "should match pattern" not in error


# ---------------------------------------------------------------- ranking


def _brute_force(
    session: ToolSession,
    origin: str,
    destination: str,
    out_day: str,
    back_day: str | None,
    types: list[str],
    max_price: int | None,
) -> tuple[int, list[str]]:
    """Every offer priced one by one from the schedule, as the ranking must order them."""
    from envfactory_zoo.amadeus import offers, rules

    db = session.database
    (origins,), (destinations,) = offers.airports_for(db, origin), offers.airports_for(db, destination)
    outbound = offers.itineraries(db, origins, destinations, out_day, set(), False)
    combos = [[o] for o in outbound]
    if back_day:
        inbound = offers.itineraries(db, destinations, origins, back_day, set(), False)
        combos = [[o, i] for o in outbound for i in inbound if o[0]["carrier_code"] == i[0]["carrier_code"]]
    seated = rules.seated(types)
    found = []
    for combo in combos:
        if offers.departed(db, combo[0][0]):
            continue
        for fare in SEED["fare_families"]:
            legs = [leg for itinerary in combo for leg in itinerary]
            if fare["carrier_code"] != legs[0]["carrier_code"] or any(
                fare["cabin"] not in leg["base_fares"] or leg["seats_left"][fare["cabin"]] < seated for leg in legs
            ):
                continue
            total = sum(rules.traveler_price(combo, fare, t)[1] for t in types)
            if max_price is None or total <= max_price * 100 * len(types):
                offer_id = "~".join(offers.itinerary_key(i) for i in combo) + "/" + fare["branded_fare"]
                found.append((total, legs[0]["departure_at"], offer_id))
    found.sort()
    return len(found), [offer_id for _, _, offer_id in found]


@pytest.mark.parametrize(
    ("route", "party", "max_price"),
    [
        (("LON", "NYC", "2025-05-15", "2025-05-18"), {}, None),
        (("LON", "NYC", "2025-05-15", "2025-05-18"), {"adults": 2, "children": 1, "infants": 1}, 900),
        (("FRA", "LIS", "2025-05-15", "2025-05-18"), {}, 700),
        (("BER", "LIS", "2025-05-15", None), {"adults": 3}, None),
        (("PAR", "NYC", "2025-05-12", "2025-05-19"), {}, 2000),
    ],
)
def test_round_trip_ranking_matches_pricing_every_pair(session, route, party, max_price):
    origin, destination, out_day, back_day = route
    types = (
        ["ADULT"] * party.get("adults", 1)
        + ["CHILD"] * party.get("children", 0)
        + ["HELD_INFANT"] * party.get("infants", 0)
    )
    count, expected = _brute_force(session, origin, destination, out_day, back_day, types, max_price)
    assert count > 0
    args = {
        **party,
        **({"return_date": back_day} if back_day else {}),
        **({"max_price": max_price} if max_price else {}),
    }
    for limit in (1, 10, 250):
        found = ok(
            session,
            "search_flight_offers",
            origin_location_code=origin,
            destination_location_code=destination,
            departure_date=out_day,
            max_results=limit,
            **args,
        )
        assert found["meta"]["count"] == count
        assert [o["id"] for o in found["data"]] == expected[:limit]
