"""Flight orders in the state: the seat inventory they take and give back, the payments on the company card, the
seats they hold on a flight, and the order as the API returns it."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from sqlalchemy import bindparam, select

from envfactory_gym import Conflict, Database

from .objects import FlightOrder, order_object
from .offers import Offer, parse_offer
from .rules import CURRENCY, TravelerType, last_ticketing_date, traveler_price
from .schema import flight_orders, flights, payments


_SEATS_LEFT = select(flights.c.seats_left).where(flights.c.id == bindparam("flight_id"))
_SET_SEATS_LEFT = flights.update().where(flights.c.id == bindparam("flight_id")).values(
    seats_left=bindparam("seats_left", type_=flights.c.seats_left.type))
_OCCUPIED = select(flights.c.id, flights.c.occupied_seats).where(flights.c.id.in_(bindparam("ids", expanding=True)))
_ASSIGNED = select(flight_orders.c.id, flight_orders.c.seats).where(flight_orders.c.status != "CANCELLED") \
    .order_by(flight_orders.c.id)


def get_order(db: Database, flight_order_id: str) -> dict[str, Any]:
    """A flight_orders row; NotFound otherwise."""
    return db.get(flight_orders, flight_order_id, "Flight order")


def traveler_types(order: Mapping[str, Any]) -> list[TravelerType]:
    """The order's traveler types, in traveler order."""
    return [t["travelerType"] for t in order["travelers"]]


def prices(offer: Offer, types: Sequence[TravelerType]) -> list[tuple[int, int]]:
    """(base, total) in cents of each traveler."""
    by_type = {kind: traveler_price(offer.itineraries, offer.fare, kind) for kind in set(types)}
    return [by_type[kind] for kind in types]


def order_response(db: Database, order: Mapping[str, Any], offer: Offer | None = None) -> FlightOrder:
    """The order with its offer (resolved again unless given), travelers, seats, ticketing and payments."""
    offer = offer or parse_offer(db, order["flight_offer_id"])
    last_ticketing = last_ticketing_date(db.now().date(), offer.departure_date)
    return order_object(order, offer, prices(offer, traveler_types(order)), last_ticketing,
                        db.find(payments, flight_order_id=order["id"]))


def take_seats(db: Database, offer: Offer, count: int) -> None:
    """Sell `count` seats of the booked cabin on every flight of the offer; SEGMENT SELL FAILURE when one is full.
    The offer's legs follow the new counts."""
    for leg in offer.segments:
        left = _seats_left(db, leg["id"])
        if left[offer.cabin] < count:
            raise Conflict(
                f"SEGMENT SELL FAILURE: {left[offer.cabin]} seat(s) left in {offer.cabin} on "
                f"{leg['carrier_code']}{leg['number']} of {leg['departure_at'][:10]}, {count} needed"
            )
        leg["seats_left"] = {**left, offer.cabin: left[offer.cabin] - count}
        _set_seats_left(db, leg["id"], leg["seats_left"])


def release_seats(db: Database, offer: Offer, count: int) -> None:
    """Give `count` seats of the booked cabin back on every flight of the offer."""
    for leg in offer.segments:
        left = _seats_left(db, leg["id"])
        leg["seats_left"] = {**left, offer.cabin: left[offer.cabin] + count}
        _set_seats_left(db, leg["id"], leg["seats_left"])


def _seats_left(db: Database, flight_id: str) -> dict[str, int]:
    return db.conn.execute(_SEATS_LEFT, {"flight_id": flight_id}).scalar_one()


def _set_seats_left(db: Database, flight_id: str, seats_left: dict[str, int]) -> None:
    db.conn.execute(_SET_SEATS_LEFT, {"flight_id": flight_id, "seats_left": seats_left})


def pay(db: Database, order_id: str, kind: str, cents: int) -> None:
    """Record a payment (CHARGE, CHANGE_FEE, FARE_DIFFERENCE or REFUND) when there is money to move."""
    if cents > 0:
        db.insert(payments, id=db.new_id(payments, "PAY", 5), flight_order_id=order_id, type=kind, amount=cents,
                  currency=CURRENCY, created_at=db.now_iso())


def taken_seats(db: Database, legs: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, tuple[str, str] | None]]:
    """Per flight: occupied seat -> (order id, traveler id) for this account's assignments, None for other
    passengers."""
    taken: dict[str, dict[str, tuple[str, str] | None]] = {
        flight_id: dict.fromkeys(seats)
        for flight_id, seats in db.conn.execute(_OCCUPIED, {"ids": sorted({leg["id"] for leg in legs})})
    }
    for order_id, seats in db.conn.execute(_ASSIGNED):
        for seat in seats:
            if seat["flightId"] in taken:
                taken[seat["flightId"]][seat["number"]] = (order_id, seat["travelerId"])
    return taken
