"""Flight orders in the state: who may be booked and how, the seat inventory orders take and give back, the
payments on the company card, the seats they hold on a flight, and the order as the API returns it."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from sqlalchemy import bindparam, select

from envfactory_gym import Conflict, Database, InvalidRequest

from .objects import FlightOrder, OrderTravelerInput, order_object
from .offers import Offer, parse_offer
from .rules import CURRENCY, TYPE_RANK, TravelerType, credits_on, last_ticketing_date, traveler_price, traveler_type
from .schema import airlines, flight_orders, flights, payments, travelers

_SET_SEATS_LEFT = (
    flights.update()
    .where(flights.c.id == bindparam("flight_id"))
    .values(seats_left=bindparam("seats_left", type_=flights.c.seats_left.type))
)
_OCCUPIED = select(flights.c.id, flights.c.occupied_seats).where(flights.c.id.in_(bindparam("ids", expanding=True)))
_ASSIGNED = (
    select(flight_orders.c.id, flight_orders.c.seats)
    .where(flight_orders.c.status != "CANCELLED")
    .order_by(flight_orders.c.id)
)


def get_order(db: Database, flight_order_id: str) -> dict[str, Any]:
    """A flight_orders row; NotFound otherwise."""
    return db.get(flight_orders, flight_order_id, "Flight order")


def booked_travelers(db: Database, offer: Offer, requested: Sequence[OrderTravelerInput]) -> list[dict[str, Any]]:
    """The travelers of a new order, from their saved profiles: each with a date of birth, each adult with a contact,
    each loyalty program their own and creditable on the offer's airline; typed by age on the day of departure,
    numbered adults first, at least one adult and each infant on the lap of a different adult."""
    ids = [t.traveler_profile_id for t in requested]
    if len(set(ids)) != len(ids):
        raise InvalidRequest("Give 1 to 9 different travelers")
    carrier = db.get(airlines, offer.fare["carrier_code"], "Airline")
    booked = []
    for item in requested:
        profile = db.get(travelers, item.traveler_profile_id, "Traveler profile")
        who = f"{profile['first_name']} {profile['last_name']}"
        if not profile["date_of_birth"]:
            raise InvalidRequest(f"Traveler {who}: dateOfBirth is required; add it to the profile first")
        kind = traveler_type(profile["date_of_birth"], offer.departure_date)
        if kind == "ADULT" and not (profile["email"] or profile["phone"]):
            raise InvalidRequest(f"Traveler {who}: an adult traveler needs a contact e-mail or phone")
        loyalty = None
        if item.loyalty_program_owner:
            owner_code = item.loyalty_program_owner.strip().upper()
            loyalty = next((p for p in profile["loyalty_programs"] if p["programOwner"] == owner_code), None)
            if loyalty is None:
                raise InvalidRequest(f"Traveler {who} has no saved {owner_code} loyalty program")
            owner = db.get(airlines, owner_code, "Airline")
            if not credits_on(carrier, owner):
                raise InvalidRequest(
                    f"{owner['loyalty_program']} ({owner_code}, {owner['alliance'] or 'no alliance'}) cannot be "
                    f"credited on {carrier['business_name']} flights ({carrier['alliance'] or 'no alliance'})"
                )
        booked.append((TYPE_RANK[kind], profile["id"], kind, profile, loyalty))
    booked.sort(key=lambda b: (b[0], b[1]))
    types = [b[2] for b in booked]
    if "ADULT" not in types:
        raise InvalidRequest("At least one adult (12+) must travel: minors cannot be booked alone")
    adults = [str(n) for n, t in enumerate(types, start=1) if t == "ADULT"]
    if types.count("HELD_INFANT") > len(adults):
        raise InvalidRequest("Each infant must travel on the lap of a different adult")
    order_travelers, infants_seen = [], 0
    for n, (_, _, kind, profile, loyalty) in enumerate(booked, start=1):
        adult = None
        if kind == "HELD_INFANT":
            adult, infants_seen = adults[infants_seen], infants_seen + 1
        order_travelers.append(
            {
                "id": str(n),
                "profileId": profile["id"],
                "travelerType": kind,
                "associatedAdultId": adult,
                "firstName": profile["first_name"],
                "lastName": profile["last_name"],
                "dateOfBirth": profile["date_of_birth"],
                "loyaltyProgram": loyalty,
            }
        )
    return order_travelers


def require_same_trip(old: Offer, new: Offer) -> None:
    """A change keeps a changeable fare, the route of every itinerary, and moves to other flights."""
    if not old.fare["changeable"]:
        raise Conflict(f"Fare {old.fare['branded_fare_label']} is non-changeable: it can only be cancelled")
    if new.fare["id"] != old.fare["id"]:
        raise InvalidRequest(
            f"A change keeps the booked fare ({old.fare['branded_fare_label']}); search offers with that fare"
        )
    if [(i[0]["departure_iata"], i[-1]["arrival_iata"]) for i in old.itineraries] != [
        (i[0]["departure_iata"], i[-1]["arrival_iata"]) for i in new.itineraries
    ]:
        raise InvalidRequest("A change must keep the same origin and destination airports for every itinerary")
    if new.id == old.id:
        raise InvalidRequest("The new offer has the same flights as the order")


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
    return order_object(
        order,
        offer,
        prices(offer, traveler_types(order)),
        last_ticketing,
        db.find(payments, flight_order_id=order["id"]),
    )


def take_seats(db: Database, offer: Offer, count: int) -> None:
    """Sell `count` seats of the booked cabin on every flight of the offer; SEGMENT SELL FAILURE when one is full.
    Counts come from the offer's legs, read in this call, and the legs follow the new counts."""
    for leg in offer.segments:
        left = leg["seats_left"]
        if left[offer.cabin] < count:
            raise Conflict(
                f"SEGMENT SELL FAILURE: {left[offer.cabin]} seat(s) left in {offer.cabin} on "
                f"{leg['carrier_code']}{leg['number']} of {leg['departure_at'][:10]}, {count} needed"
            )
        _set_seats_left(db, leg, {**left, offer.cabin: left[offer.cabin] - count})


def release_seats(db: Database, offer: Offer, count: int) -> None:
    """Give `count` seats of the booked cabin back on every flight of the offer."""
    for leg in offer.segments:
        _set_seats_left(db, leg, {**leg["seats_left"], offer.cabin: leg["seats_left"][offer.cabin] + count})


def move_seats(db: Database, old: Offer, new: Offer, count: int) -> None:
    """Give the old offer's seats back and sell the new offer's; a flight on both keeps its count."""
    release_seats(db, old, count)
    released = {leg["id"]: leg["seats_left"] for leg in old.segments}
    for leg in new.segments:
        leg["seats_left"] = released.get(leg["id"], leg["seats_left"])
    take_seats(db, new, count)


def _set_seats_left(db: Database, leg: dict[str, Any], seats_left: dict[str, int]) -> None:
    leg["seats_left"] = seats_left
    db.conn.execute(_SET_SEATS_LEFT, {"flight_id": leg["id"], "seats_left": seats_left})


def pay(db: Database, order_id: str, kind: str, cents: int) -> None:
    """Record a payment (CHARGE, CHANGE_FEE, FARE_DIFFERENCE or REFUND) when there is money to move."""
    if cents > 0:
        db.insert(
            payments,
            id=db.new_id(payments, "PAY", 5),
            flight_order_id=order_id,
            type=kind,
            amount=cents,
            currency=CURRENCY,
            created_at=db.now_iso(),
        )


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
