"""Amtrak's passenger, contact and reservation checks that the tools share, and the request models of booking."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest

from .booking import (
    require_confirmed,
    segment_of,
)
from .objects import (
    FareOption,
)
from .rules import (
    FARE_RULES,
    SLEEPERS,
    adult_fare,
    departure_on,
    leg_range,
    local_time,
    price_segment,
    rooms_for,
    seats_left,
    segment_times,
    station,
    take_seats,
)
from .schema import (
    fare_plans,
    reservations,
)

FareCode = Literal["SAVER", "VALUE", "FLEX", "BUSINESS", "FIRST", "ROOMETTE", "BEDROOM"]
PassengerType = Literal["adult", "senior", "child", "infant", "military"]
FARE_ORDER = list(FARE_RULES)
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", re.IGNORECASE)


class SegmentRequest(BaseModel):
    """One train ride to book."""

    train_number: str = Field(description="The train number, e.g. 171")
    travel_date: str = Field(description="The date the passenger boards at the origin, YYYY-MM-DD")
    origin: str = Field(description="Boarding station code, e.g. NYP")
    destination: str = Field(description="Leaving station code, e.g. WAS")
    fare_code: FareCode = Field(description="SAVER, VALUE, FLEX, BUSINESS, FIRST, ROOMETTE or BEDROOM")


class PassengerRequest(BaseModel):
    """One traveller to book."""

    first_name: str
    last_name: str
    passenger_type: PassengerType = Field(
        description="adult; senior (65+, 10% off); child (2-12, half price); infant (under 2, free on a lap); "
        "military (10% off). Discounts are not valid with Saver fares."
    )


def _phone(value: str) -> str:
    """A US phone number as 212-555-0142."""
    digits = re.sub(r"\D", "", value)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) != 10:
        raise InvalidRequest("phone must be a 10-digit US number, like 212-555-0142.")
    return f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"


def _email(value: str) -> str:
    if not EMAIL.match(value.strip()):
        raise InvalidRequest(f"'{value}' is not a valid email address.")
    return value.strip().lower()


def _code(db: Database, value: str) -> str:
    return station(db, value)["code"]


def _check_order(db: Database, earlier: dict[str, Any] | None, later: dict[str, Any] | None) -> None:
    """A segment must leave after the one before it arrives."""
    if earlier is None or later is None:
        return
    if segment_times(db, later)[0] <= segment_times(db, earlier)[1]:
        raise InvalidRequest(
            f"Segments must be in travel order: train {later['train_number']} leaves "
            f"{later['origin']} before train {earlier['train_number']} reaches "
            f"{earlier['destination']}."
        )


def _bookable(db: Database, departure: dict[str, Any], boarding: dict[str, Any]) -> None:
    """A departure is sold until it leaves the boarding station, unless Amtrak cancelled it."""
    if departure["status"] == "CANCELLED":
        raise Conflict(
            f"Train {departure['train_number']} on {departure['service_date']} is cancelled: "
            f"{departure['service_alert']}"
        )
    if db.now() >= local_time(db, boarding, departure["service_date"], "departure"):
        raise Conflict(f"Train {departure['train_number']} has already left {boarding['station_code']}.")


def _book_segment(
    db: Database,
    train_number: str,
    travel_date: str,
    origin: str,
    destination: str,
    fare_code: str,
    travellers: dict[str, str],
) -> dict[str, Any]:
    """Check, price and hold seats for one ride; returns the segment's values (without ids)."""
    origin, destination = _code(db, origin), _code(db, destination)
    departure, stops, train, _ = departure_on(db, train_number, travel_date, origin)
    i, j = leg_range(stops, train, origin, destination)
    _bookable(db, departure, stops[i])
    price = price_segment(db, departure, train, stops, i, j, fare_code, travellers)
    take_seats(
        db,
        departure,
        price.class_of_service,
        i,
        j,
        price.seats,
        fare_code == "SAVER",
        f"from {origin} to {destination}",
    )
    return {
        "departure_id": departure["departure_id"],
        "train_number": train["train_number"],
        "service_date": departure["service_date"],
        "origin": origin,
        "destination": destination,
        "fare_code": fare_code,
        "class_of_service": price.class_of_service,
        "rooms": price.rooms,
        "passenger_fares": price.passenger_fares,
        "accommodation_cents": price.accommodation_cents,
        "status": "CONFIRMED",
    }


def _trip_type(requests: list[SegmentRequest]) -> str:
    if len(requests) == 1:
        return "one_way"
    legs = [(r.origin.strip().upper(), r.destination.strip().upper()) for r in requests]
    if len(legs) == 2 and legs[0] == legs[1][::-1]:
        return "round_trip"
    return "multi_city"


def _new_reservation_number(db: Database) -> str:
    while True:
        number = db.new_uuid(reservations).replace("-", "")[:6].upper()
        if not db.find(reservations, reservation_number=number):
            return number


def _fares(
    db: Database,
    train: dict[str, Any],
    departure: dict[str, Any],
    stops: list[dict[str, Any]],
    i: int,
    j: int,
    travellers: int,
) -> list[FareOption]:
    """Every fare of a train between stops i and j, for a party of `travellers`."""
    miles = stops[j]["miles"] - stops[i]["miles"]
    plans = sorted(db.find(fare_plans, route_id=train["route_id"]), key=lambda p: FARE_ORDER.index(p["fare_code"]))
    value = next((p for p in plans if p["fare_code"] == "VALUE"), None)
    options = []
    for plan in plans:
        cls = plan["class_of_service"]
        if cls not in train["capacity"]:
            continue
        left = seats_left(departure, cls, i, j)
        if plan["fare_code"] == "SAVER":
            left = min(left, departure["saver_seats"])
        price, room, need = adult_fare(plan, miles, departure["demand_pct"]), None, travellers
        if cls in SLEEPERS and value is not None:
            room, need = price, rooms_for(travellers)
            price = room + adult_fare(value, miles, departure["demand_pct"])
        options.append(
            FareOption(
                fare_code=plan["fare_code"],
                class_of_service=cls,
                price_cents=price,
                room_charge_cents=room,
                seats_left=left,
                available=departure["status"] != "CANCELLED" and left >= need,
            )
        )
    return options


def _targets(db: Database, reservation: dict[str, Any], segment_ids: list[str]) -> list[dict[str, Any]]:
    """The segments to cancel, each on the reservation."""
    require_confirmed(reservation)
    if not segment_ids:
        raise InvalidRequest("Give the segment_ids to cancel (all of them to cancel the whole trip).")
    chosen = [segment_of(db, reservation, sid) for sid in set(segment_ids)]
    return sorted(chosen, key=lambda s: (s["sequence"], s["segment_id"]))  # trip order, whatever order was given
