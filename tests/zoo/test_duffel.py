"""The Duffel environment's tools on the real seed: offer requests (slices, passengers by type or age, cabins,
connections, sold-out flights, renewal of the same search), offers (expiry, pagination, loyalty accounts), seat maps
and bags, orders (instant and hold, passengers' details, infants, identity documents, exact payments, used-up offer
requests), paying holds (repricing, deadlines), bags after booking, order changes (fare rules, penalties, payments),
cancellations (refunds by fare, the latest quote only, expiry), Duffel Payments (the customer's card, confirmation,
fees, refunds) and list filters. Every error path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("duffel")
CLOCK = datetime(2025, 6, 10, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
PASSENGERS = SEED["order_passengers"]

session = session_fixture(SPEC, CLOCK)

AMARA = {
    "title": "ms",
    "gender": "f",
    "given_name": "Amara",
    "family_name": "Okafor",
    "born_on": "1988-03-14",
    "email": "amara.okafor@haldeneng.co.uk",
    "phone_number": "+447700900123",
}
PASSPORT = {
    "type": "passport",
    "unique_identifier": "533912847",
    "issuing_country_code": "GB",
    "expires_on": "2031-08-19",
}
EMMA = {
    "title": "mrs",
    "gender": "f",
    "given_name": "Emma",
    "family_name": "Carter",
    "born_on": "1987-05-19",
    "email": "emma.carter@outlook.com",
    "phone_number": "+447700900612",
}
BEN = dict(EMMA, title="mr", gender="m", given_name="Ben", born_on="1985-07-07")
NOAH = dict(EMMA, title="mr", gender="m", given_name="Noah", born_on="2016-09-03")
LILY = dict(EMMA, title="miss", given_name="Lily", born_on="2024-11-20")


# ---------------------------------------------------------------- seed lookups (by what people know)


def order_of(given: str, family: str, route: str, flown: bool = False) -> dict[str, Any]:
    """The seed order of a passenger whose first slice is `route` ("LHR-FCO"), still ahead (or already flown)."""
    origin, destination = route.split("-")
    ids = {p["order_id"] for p in PASSENGERS if (p["given_name"], p["family_name"]) == (given, family)}
    (row,) = [
        o
        for o in SEED["orders"]
        if o["id"] in ids
        and o["slices"][0]["origin"] == origin
        and o["slices"][0]["destination"] == destination
        and (o["slices"][0]["departure_date"] < "2025-06-10") == flown
    ]
    return row


def search(
    session: ToolSession, slices: list[tuple[str, str, str]], passengers: list[dict] | None = None, **extra: Any
) -> dict[str, Any]:
    return ok(
        session,
        "create_offer_request",
        {
            "slices": [{"origin": o, "destination": d, "departure_date": day} for o, d, day in slices],
            "passengers": passengers or [{"type": "adult"}],
            **extra,
        },
    )


def offers(session: ToolSession, request_id: str, **extra: Any) -> list[dict[str, Any]]:
    return ok(session, "list_offers", {"offer_request_id": request_id, "limit": 200, **extra})["data"]


def flights(offer: dict[str, Any]) -> list[list[str]]:
    return [
        [seg["marketing_carrier"] + seg["marketing_carrier_flight_number"] for seg in s["segments"]]
        for s in offer["slices"]
    ]


def find(found: list[dict[str, Any]], owner: str, brand: str, numbers: list[list[str]]) -> dict[str, Any]:
    return next(
        o
        for o in found
        if o["owner"]["iata_code"] == owner and o["slices"][0]["fare_brand_name"] == brand and flights(o) == numbers
    )


def pay(amount: str, currency: str = "GBP") -> dict[str, str]:
    return {"type": "balance", "amount": amount, "currency": currency}


def book(
    session: ToolSession, offer: dict[str, Any], request: dict[str, Any], details: list[dict], **extra: Any
) -> dict[str, Any]:
    passengers = [dict(d, id=p["id"]) for d, p in zip(details, request["passengers"])]
    args = {"selected_offers": [offer["id"]], "passengers": passengers, **extra}
    if extra.get("type", "instant") == "instant" and "payments" not in extra:
        args["payments"] = [pay(offer["total_amount"])]
    return ok(session, "create_order", args)


def amara_to_lisbon(session: ToolSession) -> tuple[dict, dict]:
    request = search(session, [("LHR", "LIS", "2025-06-27")])
    return request, find(offers(session, request["id"]), "TP", "Classic", [["TP1363"]])


def advance(session: ToolSession, minutes: int) -> None:
    session.clock.reset(session.clock.now() + timedelta(minutes=minutes))


# ---------------------------------------------------------------- places and searching


def test_place_suggestions_group_a_city_and_its_airports(session):
    found = ok(session, "get_place_suggestions", {"query": "london"})
    city = found[0]
    assert city["type"] == "city" and city["iata_code"] == "LON"
    assert {a["iata_code"] for a in city["airports"]} == {"LHR", "LGW", "LCY", "STN"}
    assert [p["iata_code"] for p in ok(session, "get_place_suggestions", {"query": "FCO"})] == ["ROM", "FCO"]


def test_a_city_search_covers_its_airports_and_offers_carry_brands_conditions_and_holds(session):
    request = search(session, [("LON", "LIS", "2025-06-27")])
    found = offers(session, request["id"])
    assert {o["owner"]["iata_code"] for o in found} == {"BA", "TP", "U2"}
    assert [float(o["total_amount"]) for o in found] == sorted(float(o["total_amount"]) for o in found)
    basic = find(found, "BA", "Basic", [["BA500"]])
    flex = find(found, "BA", "Flex", [["BA500"]])
    assert basic["conditions"]["refund_before_departure"]["allowed"] is False
    assert flex["conditions"]["refund_before_departure"] == {
        "allowed": True,
        "penalty_amount": "0.00",
        "penalty_currency": "GBP",
    }
    assert float(flex["total_amount"]) > float(basic["total_amount"])
    easyjet = next(o for o in found if o["owner"]["iata_code"] == "U2")
    assert easyjet["payment_requirements"]["requires_instant_payment"] is True
    assert basic["payment_requirements"] == {
        "requires_instant_payment": False,
        "payment_required_by": "2025-06-13T17:00:00Z",
        "price_guarantee_expires_at": "2025-06-11T17:00:00Z",
    }
    assert basic["expires_at"] == "2025-06-10T09:30:00Z"


def test_the_same_search_on_the_same_day_renews_the_same_offers(session):
    first = search(session, [("LHR", "MAD", "2025-06-25")])
    ids = [o["id"] for o in offers(session, first["id"])]
    advance(session, 40)
    again = search(session, [("LHR", "MAD", "2025-06-25")])
    renewed = offers(session, again["id"])
    assert again["id"] == first["id"] and [o["id"] for o in renewed] == ids
    assert all(o["expires_at"] > "2025-06-10T09:40:00Z" for o in renewed)
    other = search(session, [("LHR", "MAD", "2025-06-25")], cabin_class="business")
    assert other["id"] != first["id"]


def test_passengers_are_typed_by_age_and_checked(session):
    request = search(session, [("LGW", "LIS", "2025-07-19")], [{"age": 1}, {"type": "adult"}, {"age": 15}, {"age": 8}])
    assert [p["type"] for p in request["passengers"]] == ["adult", "adult", "child", "infant_without_seat"]
    slices = [{"origin": "LHR", "destination": "LIS", "departure_date": "2025-06-27"}]
    fails(
        session,
        "create_offer_request",
        {"slices": slices, "passengers": [{"type": "adult", "age": 30}]},
        "InvalidRequest",
        "either a type or an age",
    )
    fails(
        session,
        "create_offer_request",
        {"slices": slices, "passengers": [{"age": 9}]},
        "InvalidRequest",
        "At least one adult",
    )
    fails(
        session,
        "create_offer_request",
        {"slices": slices, "passengers": [{"type": "adult"}, {"age": 0}, {"age": 1}]},
        "InvalidRequest",
        "more infants than adults",
    )
    fails(
        session,
        "create_offer_request",
        {
            "slices": slices,
            "passengers": [
                {"type": "adult", "loyalty_programme_accounts": [{"airline_iata_code": "TP", "account_number": "1"}]}
            ],
        },
        "InvalidRequest",
        "given_name and family_name are required",
    )


def test_slices_must_be_real_places_in_the_future_and_in_order(session):
    adult = [{"type": "adult"}]
    fails(
        session,
        "create_offer_request",
        {"slices": [{"origin": "LHR", "destination": "XXX", "departure_date": "2025-06-27"}], "passengers": adult},
        "InvalidRequest",
        "XXX is not a valid IATA",
    )
    fails(
        session,
        "create_offer_request",
        {"slices": [{"origin": "LON", "destination": "LHR", "departure_date": "2025-06-27"}], "passengers": adult},
        "InvalidRequest",
        "must be different",
    )
    fails(
        session,
        "create_offer_request",
        {"slices": [{"origin": "LHR", "destination": "LIS", "departure_date": "2025-06-01"}], "passengers": adult},
        "InvalidRequest",
        "must not be in the past",
    )
    fails(
        session,
        "create_offer_request",
        {
            "slices": [
                {"origin": "LHR", "destination": "LIS", "departure_date": "2025-06-27"},
                {"origin": "LIS", "destination": "LHR", "departure_date": "2025-06-20"},
            ],
            "passengers": adult,
        },
        "InvalidRequest",
        "chronological order",
    )
    fails(
        session,
        "create_offer_request",
        {"slices": [{"origin": "LONDON", "destination": "LIS", "departure_date": "2025-06-27"}], "passengers": adult},
        "invalid_arguments",
        "slices.0.origin",
    )


def test_connections_follow_max_connections_and_sold_out_flights_are_not_offered(session):
    direct = offers(session, search(session, [("LHR", "SIN", "2025-07-03")], max_connections=0)["id"])
    assert {o["owner"]["iata_code"] for o in direct} == {"SQ", "BA"}
    connecting = offers(session, search(session, [("LHR", "SIN", "2025-07-03")])["id"])
    via_doha = [o for o in connecting if o["owner"]["iata_code"] == "QR"]
    assert via_doha and flights(via_doha[0]) == [["QR16", "QR946"]]
    direct_only = offers(session, search(session, [("LHR", "SIN", "2025-07-03")])["id"], max_connections=0)
    assert [o["id"] for o in direct_only] == [
        o["id"] for o in connecting if all(len(s["segments"]) == 1 for s in o["slices"])
    ]
    assert ["EK2", "EK404"] in [f[0] for f in map(flights, connecting)]
    lisbon = offers(session, search(session, [("LHR", "LIS", "2025-06-20")])["id"])
    assert ["TP1363"] not in [f[0] for f in map(flights, lisbon)]  # economy sold out that day
    assert ["TP1351"] in [f[0] for f in map(flights, lisbon)]


def test_offers_page_with_after_and_before_cursors(session):
    request = search(session, [("LON", "NYC", "2025-07-02"), ("NYC", "LON", "2025-07-09")])
    everything = offers(session, request["id"])
    first = ok(session, "list_offers", {"offer_request_id": request["id"], "limit": 5})
    assert [o["id"] for o in first["data"]] == [o["id"] for o in everything[:5]] and first["meta"]["before"] is None
    second = ok(
        session, "list_offers", {"offer_request_id": request["id"], "limit": 5, "after": first["meta"]["after"]}
    )
    assert [o["id"] for o in second["data"]] == [o["id"] for o in everything[5:10]]
    back = ok(
        session, "list_offers", {"offer_request_id": request["id"], "limit": 5, "before": second["meta"]["before"]}
    )
    assert back["data"] == first["data"]
    fails(
        session,
        "list_offers",
        {"offer_request_id": request["id"], "after": first["meta"]["after"], "before": second["meta"]["before"]},
        "InvalidRequest",
        "both",
    )
    fails(
        session,
        "list_offers",
        {"offer_request_id": request["id"], "after": "bm90LWEtY3Vyc29y"},
        "InvalidRequest",
        "cursor is not valid",
    )
    fails(session, "list_offers", {"offer_request_id": request["id"], "limit": 201}, "invalid_arguments", "limit")
    by_duration = ok(
        session, "list_offers", {"offer_request_id": request["id"], "sort": "total_duration", "limit": 200}
    )["data"]
    durations = [
        sum(int(s["duration"][2:].split("H")[0]) * 60 + int(s["duration"].split("H")[1][:-1]) for s in o["slices"])
        for o in by_duration
    ]
    assert durations == sorted(durations)


# ---------------------------------------------------------------- offers


def test_get_offer_shows_baggage_and_bookable_bags(session):
    request, offer = amara_to_lisbon(session)
    full = ok(session, "get_offer", {"offer_id": offer["id"], "return_available_services": True})
    segment_pax = full["slices"][0]["segments"][0]["passengers"][0]
    assert segment_pax["cabin_class_marketing_name"] == "Economy"
    assert {b["type"]: b["quantity"] for b in segment_pax["baggages"]} == {"checked": 1, "carry_on": 1}
    (bag,) = full["available_services"]
    assert (bag["maximum_quantity"], bag["total_amount"], bag["passenger_ids"]) == (
        2,
        "35.00",
        [request["passengers"][0]["id"]],
    )
    assert full["passenger_identity_documents_required"] is False
    assert "TP" in full["supported_loyalty_programmes"]


def test_offers_expire_after_thirty_minutes(session):
    request, offer = amara_to_lisbon(session)
    advance(session, 31)
    fails(
        session,
        "create_order",
        {
            "selected_offers": [offer["id"]],
            "passengers": [dict(AMARA, id=request["passengers"][0]["id"])],
            "payments": [pay(offer["total_amount"])],
        },
        "Conflict",
        "offer_expired",
    )
    fails(
        session,
        "update_offer_passenger",
        {
            "offer_id": offer["id"],
            "passenger_id": request["passengers"][0]["id"],
            "given_name": "Amara",
            "family_name": "Okafor",
        },
        "Conflict",
        "offer_expired",
    )


def test_loyalty_accounts_only_for_supported_programmes_and_under_the_same_name(session):
    request, offer = amara_to_lisbon(session)
    pas = request["passengers"][0]["id"]
    fails(
        session,
        "update_offer_passenger",
        {
            "offer_id": offer["id"],
            "passenger_id": pas,
            "given_name": "Amara",
            "family_name": "Okafor",
            "loyalty_programme_accounts": [{"airline_iata_code": "BA", "account_number": "41886259"}],
        },
        "InvalidRequest",
        "BA is not a loyalty programme supported by this offer",
    )
    updated = ok(
        session,
        "update_offer_passenger",
        {
            "offer_id": offer["id"],
            "passenger_id": pas,
            "given_name": "Amara",
            "family_name": "Okafor",
            "loyalty_programme_accounts": [{"airline_iata_code": "tp", "account_number": "77120045"}],
        },
    )
    assert updated["loyalty_programme_accounts"] == [{"airline_iata_code": "TP", "account_number": "77120045"}]
    fails(
        session,
        "create_order",
        {
            "selected_offers": [offer["id"]],
            "passengers": [dict(AMARA, id=pas, given_name="Ama")],
            "payments": [pay(offer["total_amount"])],
        },
        "InvalidRequest",
        "must match",
    )
    order = book(session, offer, request, [AMARA])
    assert order["passengers"][0]["loyalty_programme_accounts"] == updated["loyalty_programme_accounts"]


def test_seat_maps_list_free_seats_with_exit_rows_for_adults_only(session):
    request = search(session, [("LGW", "LIS", "2025-07-19")], [{"type": "adult"}, {"age": 8}])
    offer = find(offers(session, request["id"]), "U2", "Standard", [["U28705"]])
    (seat_map,) = ok(session, "get_seat_maps", {"offer_id": offer["id"]})
    adult, child = (p["id"] for p in request["passengers"])
    seats = seat_map["cabins"][0]["seats"]
    exits = [s for s in seats if s["disclosures"]]
    assert exits and all({v["passenger_id"] for v in s["available_services"]} == {adult} for s in exits)
    plain = [s for s in seats if not s["disclosures"]]
    assert all({v["passenger_id"] for v in s["available_services"]} == {adult, child} for s in plain)
    booked = sum(s["designator"] in {"1A", "1C"} for s in seats)
    assert len(seats) < 150 and booked <= 2


# ---------------------------------------------------------------- orders


def test_an_instant_order_pays_offer_and_services_exactly(session):
    request = search(session, [("LGW", "LIS", "2025-07-19")], [{"type": "adult"}, {"age": 8}])
    offer = find(offers(session, request["id"]), "U2", "Standard", [["U28705"]])
    full = ok(session, "get_offer", {"offer_id": offer["id"], "return_available_services": True})
    adult, child = (p["id"] for p in request["passengers"])
    bag = next(s for s in full["available_services"] if s["passenger_ids"] == [adult])
    (seat_map,) = ok(session, "get_seat_maps", {"offer_id": offer["id"]})
    seat = next(s for s in seat_map["cabins"][0]["seats"] if not s["disclosures"])
    seat_service = next(v for v in seat["available_services"] if v["passenger_id"] == child)
    total = float(offer["total_amount"]) + 2 * float(bag["total_amount"]) + float(seat_service["total_amount"])
    passengers = [dict(EMMA, id=adult), dict(NOAH, id=child)]
    services = [{"id": bag["id"], "quantity": 2}, {"id": seat_service["id"]}]
    base = {"selected_offers": [offer["id"]], "passengers": passengers, "services": services}
    fails(
        session,
        "create_order",
        dict(base, payments=[pay(offer["total_amount"])]),
        "InvalidRequest",
        f"must be equal to the offer and selected services total, {total:.2f}",
    )
    fails(
        session,
        "create_order",
        dict(base, payments=[pay(f"{total:.2f}", "EUR")]),
        "InvalidRequest",
        "currency must be GBP",
    )
    fails(
        session,
        "create_order",
        dict(base, payments=[dict(pay(f"{total:.2f}"), type="arc_bsp_cash")]),
        "InvalidRequest",
        "IATA-accredited",
    )
    fails(
        session,
        "create_order",
        dict(base, services=[{"id": bag["id"], "quantity": 3}], payments=[pay(f"{total:.2f}")]),
        "InvalidRequest",
        "at most 2",
    )
    fails(session, "create_order", dict(base, payments=[]), "InvalidRequest", "exactly one payment")
    order = ok(session, "create_order", dict(base, payments=[pay(f"{total:.2f}")]))
    assert order["total_amount"] == f"{total:.2f}" and order["payment_status"]["awaiting_payment"] is False
    assert len(order["documents"]) == 2 and len(order["booking_reference"]) == 6
    seg = order["slices"][0]["segments"][0]
    assert seg["id"] != offer["slices"][0]["segments"][0]["id"]
    assert next(p for p in seg["passengers"] if p["passenger_id"] == child)["seat"]["designator"] == seat["designator"]
    fails(session, "create_order", dict(base, payments=[pay(f"{total:.2f}")]), "Conflict", "offer_no_longer_available")
    other = find(offers(session, request["id"]), "U2", "FLEXI", [["U28705"]])
    fails(
        session,
        "create_order",
        {"selected_offers": [other["id"]], "passengers": passengers, "payments": [pay(other["total_amount"])]},
        "Conflict",
        "offer_request_already_booked",
    )
    again = search(session, [("LGW", "LIS", "2025-07-19")], [{"type": "adult"}, {"age": 8}])
    assert again["id"] != request["id"]  # a used-up request is not renewed: the same search is a new one


def _family_order(reverse: bool) -> dict[str, Any]:
    """The Carters to Lisbon with a bag each and a later bag, passengers and services listed in either order; the
    rows this stores."""
    session = ToolSession(SPEC)
    session.reset("seed", CLOCK)
    try:
        request = search(session, [("LGW", "LIS", "2025-07-19")], [{"type": "adult"}, {"age": 8}])
        offer = find(offers(session, request["id"]), "U2", "Standard", [["U28705"]])
        full = ok(session, "get_offer", {"offer_id": offer["id"], "return_available_services": True})
        adult, child = (p["id"] for p in request["passengers"])
        bags = [next(s for s in full["available_services"] if s["passenger_ids"] == [who]) for who in (adult, child)]
        passengers = [dict(EMMA, id=adult), dict(NOAH, id=child)]
        services = [{"id": b["id"], "quantity": 1} for b in bags]
        total = float(offer["total_amount"]) + sum(float(b["total_amount"]) for b in bags)
        order = ok(
            session,
            "create_order",
            {
                "selected_offers": [offer["id"]],
                "passengers": passengers[::-1] if reverse else passengers,
                "services": services[::-1] if reverse else services,
                "payments": [pay(f"{total:.2f}")],
            },
        )
        more = ok(session, "list_available_services", {"order_id": order["id"]})
        extra = [{"id": b["id"], "quantity": 1} for b in more]
        ok(
            session,
            "add_order_services",
            {
                "order_id": order["id"],
                "add_services": extra[::-1] if reverse else extra,
                "payment": pay(f"{sum(float(b['total_amount']) for b in more):.2f}"),
            },
        )
        state = session.dump()
        return {t: state[t] for t in ("orders", "order_passengers", "order_services", "payments")}
    finally:
        session.close()


def test_the_order_of_passengers_and_services_does_not_change_what_is_booked():
    assert _family_order(reverse=False) == _family_order(reverse=True)


def test_passengers_must_match_the_offer_their_ages_and_infants(session):
    request = search(
        session, [("LGW", "LIS", "2025-07-19")], [{"type": "adult"}, {"type": "adult"}, {"age": 8}, {"age": 0}]
    )
    offer = find(offers(session, request["id"]), "U2", "Standard", [["U28705"]])
    ids = [p["id"] for p in request["passengers"]]
    good = [
        dict(EMMA, id=ids[0], infant_passenger_id=ids[3]),
        dict(BEN, id=ids[1]),
        dict(NOAH, id=ids[2]),
        dict(LILY, id=ids[3]),
    ]
    args = {"selected_offers": [offer["id"]], "payments": [pay(offer["total_amount"])]}
    fails(session, "create_order", dict(args, passengers=good[:3]), "InvalidRequest", "exactly once")
    fails(
        session,
        "create_order",
        dict(args, passengers=[good[0], good[1], dict(NOAH, id=ids[2], born_on="2012-01-01"), good[3]]),
        "InvalidRequest",
        "searched for as aged 8",
    )
    fails(
        session,
        "create_order",
        dict(args, passengers=[dict(EMMA, id=ids[0]), good[1], good[2], good[3]]),
        "InvalidRequest",
        "assigned to exactly one adult",
    )
    fails(
        session,
        "create_order",
        dict(args, passengers=[good[0], good[1], dict(NOAH, id=ids[2], infant_passenger_id=ids[3]), good[3]]),
        "InvalidRequest",
        "Only an adult can travel with an infant",
    )
    fails(
        session,
        "create_order",
        dict(args, passengers=[dict(good[0], phone_number="07700900612"), *good[1:]]),
        "invalid_arguments",
        "passengers.0.phone_number",
    )
    order = ok(session, "create_order", dict(args, passengers=good))
    types = {p["given_name"]: p["type"] for p in order["passengers"]}
    assert types == {"Emma": "adult", "Ben": "adult", "Noah": "child", "Lily": "infant_without_seat"}


def test_an_adult_with_an_infant_cannot_take_an_exit_row_seat(session):
    request = search(session, [("LGW", "LIS", "2025-07-19")], [{"type": "adult"}, {"age": 0}])
    offer = find(offers(session, request["id"]), "U2", "Standard", [["U28705"]])
    adult, infant = (p["id"] for p in request["passengers"])
    (seat_map,) = ok(session, "get_seat_maps", {"offer_id": offer["id"]})
    exit_seat = next(s for s in seat_map["cabins"][0]["seats"] if s["disclosures"])
    service = exit_seat["available_services"][0]
    total = float(offer["total_amount"]) + float(service["total_amount"])
    fails(
        session,
        "create_order",
        {
            "selected_offers": [offer["id"]],
            "passengers": [dict(EMMA, id=adult, infant_passenger_id=infant), dict(LILY, id=infant)],
            "services": [{"id": service["id"]}],
            "payments": [pay(f"{total:.2f}")],
        },
        "InvalidRequest",
        "exit row",
    )


def test_identity_documents_as_the_offer_requires(session):
    request = search(session, [("LHR", "JFK", "2025-07-02")])
    offer = find(offers(session, request["id"]), "BA", "Standard", [["BA175"]])
    pas = request["passengers"][0]["id"]
    args = {"selected_offers": [offer["id"]], "payments": [pay(offer["total_amount"])]}
    assert offer["passenger_identity_documents_required"] is True
    fails(
        session,
        "create_order",
        dict(args, passengers=[dict(AMARA, id=pas)]),
        "InvalidRequest",
        "requires an identity document",
    )
    fails(
        session,
        "create_order",
        dict(args, passengers=[dict(AMARA, id=pas, identity_documents=[dict(PASSPORT, expires_on="2025-06-30")])]),
        "InvalidRequest",
        "expires on 2025-06-30",
    )
    fails(
        session,
        "create_order",
        dict(
            args, passengers=[dict(AMARA, id=pas, identity_documents=[PASSPORT, dict(PASSPORT, unique_identifier="1")])]
        ),
        "InvalidRequest",
        "only provide one",
    )
    ok(session, "create_order", dict(args, passengers=[dict(AMARA, id=pas, identity_documents=[PASSPORT])]))
    domestic = search(session, [("LHR", "EDI", "2025-06-20")])
    offer = find(offers(session, domestic["id"]), "BA", "Basic", [["BA1432"]])
    fails(
        session,
        "create_order",
        {
            "selected_offers": [offer["id"]],
            "payments": [pay(offer["total_amount"])],
            "passengers": [dict(AMARA, id=domestic["passengers"][0]["id"], identity_documents=[PASSPORT])],
        },
        "InvalidRequest",
        "doesn't accept identity documents",
    )


def test_the_last_seat_goes_to_the_first_booking(session):
    one = search(session, [("LHR", "JFK", "2025-07-22")])
    two = search(session, [("LHR", "JFK", "2025-07-22")], max_connections=0)
    first = find(offers(session, one["id"]), "VS", "Economy Classic", [["VS3"]])
    second = find(offers(session, two["id"]), "VS", "Economy Classic", [["VS3"]])
    book(session, first, one, [dict(AMARA, identity_documents=[PASSPORT])])
    fails(
        session,
        "create_order",
        {
            "selected_offers": [second["id"]],
            "payments": [pay(second["total_amount"])],
            "passengers": [dict(AMARA, id=two["passengers"][0]["id"], identity_documents=[PASSPORT])],
        },
        "Conflict",
        "offer_no_longer_available",
    )
    assert not [
        o
        for o in offers(
            session, search(session, [("LHR", "JFK", "2025-07-22")], cabin_class="economy", max_connections=2)["id"]
        )
        if flights(o) == [["VS3"]]
    ]


def test_hold_orders_reserve_without_payment_or_services(session):
    request, offer = amara_to_lisbon(session)
    pas = request["passengers"][0]["id"]
    full = ok(session, "get_offer", {"offer_id": offer["id"], "return_available_services": True})
    base = {"selected_offers": [offer["id"]], "passengers": [dict(AMARA, id=pas)], "type": "hold"}
    fails(
        session, "create_order", dict(base, payments=[pay(offer["total_amount"])]), "InvalidRequest", "without payments"
    )
    fails(
        session,
        "create_order",
        dict(base, services=[{"id": full["available_services"][0]["id"]}]),
        "InvalidRequest",
        "can't be booked with a hold order",
    )
    order = ok(session, "create_order", base)
    assert order["payment_status"]["awaiting_payment"] is True and order["documents"] == []
    assert order["payment_status"]["payment_required_by"] == "2025-06-13T17:00:00Z"
    assert "change" not in order["available_actions"]
    fails(
        session,
        "create_payment",
        {"order_id": order["id"], "payment": pay("1.00")},
        "InvalidRequest",
        f"order total, {offer['total_amount']}",
    )
    ok(session, "create_payment", {"order_id": order["id"], "payment": pay(offer["total_amount"])})
    paid = ok(session, "get_order", {"order_id": order["id"]})
    assert paid["payment_status"]["awaiting_payment"] is False and len(paid["documents"]) == 1
    fails(
        session,
        "create_payment",
        {"order_id": order["id"], "payment": pay(offer["total_amount"])},
        "Conflict",
        "already_paid",
    )
    easyjet = search(session, [("LGW", "LIS", "2025-06-27")])
    lcc = find(offers(session, easyjet["id"]), "U2", "Standard", [["U28705"]])
    fails(
        session,
        "create_order",
        {
            "selected_offers": [lcc["id"]],
            "type": "hold",
            "passengers": [dict(AMARA, id=easyjet["passengers"][0]["id"])],
        },
        "InvalidRequest",
        "requires instant payment",
    )


def test_a_repriced_hold_is_paid_at_its_current_total_and_a_lapsed_one_is_gone(session):
    ethan = order_of("Ethan", "Clarke", "LHR-ATH")
    shown = ok(session, "get_order", {"order_id": ethan["id"]})
    assert shown["total_amount"] == "353.60"  # 329.00 when held; the airline repriced after the guarantee lapsed
    fails(session, "create_payment", {"order_id": ethan["id"], "payment": pay("329.00")}, "InvalidRequest", "353.60")
    ok(session, "create_payment", {"order_id": ethan["id"], "payment": pay("353.60")})
    isabella = order_of("Isabella", "Rossi", "LHR-FCO")
    fails(
        session,
        "create_payment",
        {"order_id": isabella["id"], "payment": pay("170.50")},
        "Conflict",
        "already_cancelled",
    )


def test_bags_can_be_added_to_paid_orders_only_and_are_paid_exactly(session):
    hannah = order_of("Hannah", "Schofield", "LHR-HEL")
    assert ok(session, "list_available_services", {"order_id": hannah["id"]}) == []
    aiko = order_of("Aiko", "Tanaka", "LHR-SIN")
    (bag,) = ok(session, "list_available_services", {"order_id": aiko["id"]})
    assert bag["maximum_quantity"] == 1  # one of two already booked
    fails(
        session,
        "add_order_services",
        {"order_id": aiko["id"], "add_services": [{"id": bag["id"], "quantity": 2}], "payment": pay("140.00")},
        "InvalidRequest",
        "at most 1",
    )
    fails(
        session,
        "add_order_services",
        {"order_id": aiko["id"], "add_services": [{"id": bag["id"]}], "payment": pay("1.00")},
        "InvalidRequest",
        bag["total_amount"],
    )
    order = ok(
        session,
        "add_order_services",
        {"order_id": aiko["id"], "add_services": [{"id": bag["id"]}], "payment": pay(bag["total_amount"])},
    )
    assert float(order["total_amount"]) == pytest.approx(aiko["total_amount"] / 100 + float(bag["total_amount"]))
    assert ok(session, "list_available_services", {"order_id": aiko["id"]}) == []
    fails(
        session,
        "add_order_services",
        {"order_id": aiko["id"], "add_services": [{"id": bag["id"]}], "payment": pay(bag["total_amount"])},
        "InvalidRequest",
        "not available",
    )
    palmer = order_of("George", "Palmer", "LHR-DUB")
    fails(
        session,
        "add_order_services",
        {"order_id": palmer["id"], "add_services": [{"id": bag["id"]}], "payment": pay(bag["total_amount"])},
        "Conflict",
        "has been paid",
    )


# ---------------------------------------------------------------- changes


def change_request(
    session: ToolSession,
    order: dict[str, Any],
    index: int,
    day: str,
    origin: str | None = None,
    destination: str | None = None,
) -> dict[str, Any]:
    stored = order["slices"][index]
    return ok(
        session,
        "create_order_change_request",
        {
            "order_id": order["id"],
            "slices": {
                "remove": [{"slice_id": stored["id"]}],
                "add": [
                    {
                        "origin": origin or stored["origin"],
                        "destination": destination or stored["destination"],
                        "departure_date": day,
                        "cabin_class": order["cabin_class"],
                    }
                ],
            },
        },
    )


def test_changes_need_a_paid_order_whose_fare_allows_them(session):
    tomasz = order_of("Tomasz", "Nowak", "LHR-MUC")  # Economy Light
    args = {
        "order_id": tomasz["id"],
        "slices": {
            "remove": [{"slice_id": tomasz["slices"][0]["id"]}],
            "add": [{"origin": "LHR", "destination": "MUC", "departure_date": "2025-06-21", "cabin_class": "economy"}],
        },
    }
    fails(session, "create_order_change_request", args, "Conflict", "doesn't allow changes")
    hold = order_of("Sofia", "Marquez", "LHR-JFK")
    fails(session, "create_order_change_request", dict(args, order_id=hold["id"]), "Conflict", "Only paid orders")
    amara = order_of("Amara", "Okafor", "LHR-JFK")
    fails(
        session,
        "create_order_change_request",
        {"order_id": amara["id"], "slices": {"remove": [{"slice_id": amara["slices"][0]["id"]}], "add": []}},
        "InvalidRequest",
        "one new slice for each",
    )
    fails(
        session,
        "create_order_change_request",
        {
            "order_id": amara["id"],
            "slices": {"remove": [{"slice_id": "sli_00000000000000000000ab"}], "add": args["slices"]["add"]},
        },
        "InvalidRequest",
        "is not a slice of order",
    )


def test_a_change_costs_the_penalty_plus_any_fare_difference_and_is_confirmed_with_that_payment(session):
    amara = order_of("Amara", "Okafor", "LHR-JFK")  # BA Standard: changes for a £150 penalty
    request = change_request(session, amara, 0, "2025-06-25")
    assert request["order_change_offers"]
    offer = request["order_change_offers"][0]
    assert offer["penalty_amount"] == "150.00"
    assert float(offer["change_total_amount"]) >= 150.0
    listed = ok(session, "list_order_change_offers", {"order_change_request_id": request["id"]})["data"]
    assert [o["id"] for o in listed] == [o["id"] for o in request["order_change_offers"]]
    change = ok(session, "create_order_change", {"selected_order_change_offer": offer["id"]})
    assert change["confirmed_at"] is None
    fails(
        session,
        "confirm_order_change",
        {"order_change_id": change["id"]},
        "InvalidRequest",
        f"A payment of {offer['change_total_amount']}",
    )
    fails(
        session,
        "confirm_order_change",
        {"order_change_id": change["id"], "payment": pay("150.00")},
        "InvalidRequest",
        offer["change_total_amount"],
    )
    done = ok(
        session, "confirm_order_change", {"order_change_id": change["id"], "payment": pay(offer["change_total_amount"])}
    )
    assert done["confirmed_at"] is not None
    order = ok(session, "get_order", {"order_id": amara["id"]})
    assert order["slices"][0]["segments"][0]["departing_at"].startswith("2025-06-25")
    assert order["total_amount"] == offer["new_total_amount"]
    assert not [
        s for s in order["services"] if s["segment_ids"][0] in {seg["id"] for seg in amara["slices"][0]["segments"]}
    ]  # the seat on the old flight is gone
    assert len([s for s in order["services"] if s["type"] == "seat"]) == 1
    fails(
        session,
        "confirm_order_change",
        {"order_change_id": change["id"], "payment": pay(offer["change_total_amount"])},
        "Conflict",
        "already_confirmed",
    )
    fails(
        session,
        "create_order_change",
        {"selected_order_change_offer": request["order_change_offers"][-1]["id"]},
        "Conflict",
        "offer_no_longer_available",
    )


def test_a_cheaper_change_on_a_flexible_fare_is_refunded_and_needs_no_payment(session):
    whitaker = order_of("James", "Whitaker", "LHR-FCO")  # BA Flex: free changes, refundable
    request = change_request(session, whitaker, 1, "2025-06-24")
    offer = min(request["order_change_offers"], key=lambda o: float(o["change_total_amount"]))
    assert offer["penalty_amount"] == "0.00"
    change = ok(session, "create_order_change", {"selected_order_change_offer": offer["id"]})
    if float(offer["change_total_amount"]) <= 0:
        fails(
            session,
            "confirm_order_change",
            {"order_change_id": change["id"], "payment": pay("1.00")},
            "InvalidRequest",
            "No payment is needed",
        )
        done = ok(session, "confirm_order_change", {"order_change_id": change["id"]})
        assert done["refund_to"] == ("balance" if float(offer["change_total_amount"]) < 0 else None)
    else:
        ok(
            session,
            "confirm_order_change",
            {"order_change_id": change["id"], "payment": pay(offer["change_total_amount"])},
        )
    assert ok(session, "get_order", {"order_id": whitaker["id"]})["slices"][1]["segments"][0][
        "departing_at"
    ].startswith("2025-06-24")


def test_change_offers_expire(session):
    amara = order_of("Amara", "Okafor", "LHR-JFK")
    request = change_request(session, amara, 1, "2025-06-29")
    offer = request["order_change_offers"][0]
    change = ok(session, "create_order_change", {"selected_order_change_offer": offer["id"]})
    advance(session, 31)
    fails(
        session,
        "confirm_order_change",
        {"order_change_id": change["id"], "payment": pay(offer["change_total_amount"])},
        "Conflict",
        "offer_expired",
    )


# ---------------------------------------------------------------- cancellations


def test_refunds_follow_the_fare_and_holds_refund_nothing(session):
    whitaker = order_of("James", "Whitaker", "LHR-FCO")  # Flex, refundable without penalty
    quote = ok(session, "create_order_cancellation", {"order_id": whitaker["id"]})
    assert (quote["refund_amount"], quote["refund_to"]) == (f"{whitaker['total_amount'] / 100:.2f}", "balance")
    jr = order_of("James", "Whitaker", "LHR-EDI")  # Basic: non-refundable
    assert ok(session, "create_order_cancellation", {"order_id": jr["id"]})["refund_amount"] == "0.00"
    palmer = order_of("George", "Palmer", "LHR-DUB")
    held = ok(session, "create_order_cancellation", {"order_id": palmer["id"]})
    assert (held["refund_amount"], held["refund_to"]) == ("0.00", "awaiting_payment")
    flown = order_of("Priya", "Shah", "LHR-DUB", flown=True)
    fails(session, "create_order_cancellation", {"order_id": flown["id"]}, "Conflict", "order_not_cancellable")


def test_only_the_latest_unexpired_quote_can_be_confirmed(session):
    chloe = order_of("Chloe", "Dubois", "LHR-CDG")
    (stale,) = [q for q in SEED["order_cancellations"] if q["order_id"] == chloe["id"]]
    fails(
        session,
        "confirm_order_cancellation",
        {"order_cancellation_id": stale["id"]},
        "Conflict",
        "order_cancellation_expired",
    )
    first = ok(session, "create_order_cancellation", {"order_id": chloe["id"]})
    second = ok(session, "create_order_cancellation", {"order_id": chloe["id"]})
    fails(
        session,
        "confirm_order_cancellation",
        {"order_cancellation_id": first["id"]},
        "Conflict",
        "most recent order cancellation",
    )
    done = ok(session, "confirm_order_cancellation", {"order_cancellation_id": second["id"]})
    assert done["confirmed_at"] is not None
    order = ok(session, "get_order", {"order_id": chloe["id"]})
    assert order["cancelled_at"] is not None and order["available_actions"] == []
    fails(session, "create_order_cancellation", {"order_id": chloe["id"]}, "Conflict", "already_cancelled")
    fails(session, "update_order", {"order_id": chloe["id"], "metadata": {"a": "b"}}, "Conflict", "already_cancelled")


def test_a_cancelled_booking_gives_its_seats_back(session):
    chloe = order_of("Chloe", "Dubois", "LHR-CDG")
    before = offers(
        session,
        search(session, [("LHR", "CDG", "2025-06-12")], [{"type": "adult"}, {"type": "adult"}], max_connections=0)[
            "id"
        ],
    )
    assert ["AF1381"] not in [f[0] for f in map(flights, before)]  # one seat left, two travellers
    quote = ok(session, "create_order_cancellation", {"order_id": chloe["id"]})
    ok(session, "confirm_order_cancellation", {"order_cancellation_id": quote["id"]})
    after = offers(
        session, search(session, [("LHR", "CDG", "2025-06-12")], [{"type": "adult"}, {"type": "adult"}])["id"]
    )
    assert ["AF1381"] in [f[0] for f in map(flights, after)]


def test_cancellation_quotes_expire_after_an_hour(session):
    jr = order_of("James", "Whitaker", "LHR-EDI")
    quote = ok(session, "create_order_cancellation", {"order_id": jr["id"]})
    advance(session, 61)
    fails(
        session,
        "confirm_order_cancellation",
        {"order_cancellation_id": quote["id"]},
        "Conflict",
        "order_cancellation_expired",
    )


# ---------------------------------------------------------------- Duffel Payments


def test_a_payment_intent_is_paid_by_the_customer_then_confirmed_and_refunded_up_to_what_was_paid(session):
    intent = ok(session, "create_payment_intent", {"amount": "536.00", "currency": "GBP"})
    assert intent["status"] == "requires_payment_method"
    fails(session, "confirm_payment_intent", {"payment_intent_id": intent["id"]}, "Conflict", "hasn't paid")
    fails(
        session,
        "pay_with_card",
        {
            "amount": "536.00",
            "currency": "GBP",
            "card_number": "4242424242424242",
            "expiry_month": 9,
            "expiry_year": 2028,
        },
        "user_only",
        "only be performed by the user",
    )
    card = {"amount": "536.00", "currency": "GBP", "expiry_month": 9, "expiry_year": 2028}
    fails(session, "pay_with_card", dict(card, card_number="4000000000000002"), "Conflict", "declined", caller="user")
    fails(
        session,
        "pay_with_card",
        dict(card, card_number="4242424242424242", expiry_year=2024),
        "Conflict",
        "expired",
        caller="user",
    )
    fails(
        session,
        "pay_with_card",
        dict(card, card_number="4242424242424242", amount="99.00"),
        "NotFound",
        "no payment of 99.00",
        caller="user",
    )
    paid = ok(session, "pay_with_card", dict(card, card_number="4242424242424242"), caller="user")
    assert paid["id"] == intent["id"] and paid["status"] == "requires_confirmation"
    done = ok(session, "confirm_payment_intent", {"payment_intent_id": intent["id"]})
    assert (done["status"], done["fees_amount"], done["net_amount"]) == ("succeeded", "15.54", "520.46")
    fails(session, "confirm_payment_intent", {"payment_intent_id": intent["id"]}, "Conflict", "already_confirmed")
    fails(
        session,
        "create_refund",
        {"payment_intent_id": intent["id"], "amount": "600.00", "currency": "GBP"},
        "InvalidRequest",
        "536.00",
    )
    fails(
        session,
        "create_refund",
        {"payment_intent_id": intent["id"], "amount": "10.00", "currency": "EUR"},
        "InvalidRequest",
        "must be GBP",
    )
    ok(session, "create_refund", {"payment_intent_id": intent["id"], "amount": "500.00", "currency": "GBP"})
    fails(
        session,
        "create_refund",
        {"payment_intent_id": intent["id"], "amount": "36.01", "currency": "GBP"},
        "InvalidRequest",
        "36.00",
    )
    shown = ok(session, "get_payment_intent", {"payment_intent_id": intent["id"]})
    assert [r["amount"] for r in shown["refunds"]] == ["500.00"]


def test_refunds_need_a_succeeded_payment_intent(session):
    pending = next(p for p in SEED["payment_intents"] if p["status"] == "requires_payment_method")
    fails(
        session,
        "create_refund",
        {"payment_intent_id": pending["id"], "amount": "1.00", "currency": "GBP"},
        "Conflict",
        "Only a succeeded",
    )


# ---------------------------------------------------------------- listing orders


def test_orders_are_found_by_passenger_reference_and_payment_status(session):
    brooks = ok(session, "list_orders", {"passenger_name": ["daniel brooks"]})["data"]
    assert len(brooks) == 3 and len({p["id"] for o in brooks for p in o["passengers"]}) == 3
    assert [o["created_at"] for o in brooks] == sorted((o["created_at"] for o in brooks), reverse=True)
    amara = order_of("Amara", "Okafor", "LHR-JFK")
    (found,) = ok(session, "list_orders", {"booking_reference": amara["booking_reference"].lower()})["data"]
    assert found["id"] == amara["id"]
    holds = ok(session, "list_orders", {"awaiting_payment": True, "sort": "payment_required_by"})["data"]
    deadlines = [o["payment_status"]["payment_required_by"] for o in holds]
    assert deadlines == sorted(deadlines) and len(holds) == 5


def test_metadata_is_replaced_and_bounded(session):
    amara = order_of("Amara", "Okafor", "LHR-JFK")
    order = ok(session, "update_order", {"order_id": amara["id"], "metadata": {"cost_centre": "HAL-ENG-301"}})
    assert order["metadata"] == {"cost_centre": "HAL-ENG-301"}
    fails(
        session, "update_order", {"order_id": amara["id"], "metadata": {"k" * 41: "v"}}, "invalid_arguments", "metadata"
    )
