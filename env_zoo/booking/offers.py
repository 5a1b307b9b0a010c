"""What a property offers a party for a stay: every bookable product priced (Genius included), and why the
other rooms are not bookable."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .objects import ProductOffer, offer_object
from .rules import calendar, fits, free_cancellation_until, quote, unavailable_reason
from .schema import products, rooms


def offers(
    db: Database,
    acc: dict[str, Any],
    nights: list[str],
    number_of_adults: int,
    number_of_rooms: int,
    children: list[int],
    level: int,
) -> tuple[list[ProductOffer], list[str]]:
    """The products of an accommodation bookable for the whole stay by the party, cheapest first, and why the
    other rooms are not."""
    if children and not acc["children_allowed"]:
        return [], [f"{acc['name']} is adults only."]
    found, unavailable = [], []
    for room in db.find(rooms, accommodation_id=acc["id"]):
        if not fits(room, number_of_adults, number_of_rooms, len(children)):
            unavailable.append(
                f"{room['name']}: sleeps {room['max_adults']} adults, {room['max_persons']} guests in total per room"
            )
            continue
        reason = unavailable_reason(db, room, nights, number_of_rooms)
        if reason is not None:
            unavailable.append(reason)
            continue
        left = min(r["units_available"] for r in calendar(db, room["id"], nights).values())
        for product in db.find(products, room_id=room["id"]):
            priced = quote(db, acc, product, nights, number_of_rooms, level)
            deadline = free_cancellation_until(db, acc, product, nights[0])
            found.append(offer_object(acc, room, product, priced, deadline, left))
    found.sort(key=lambda o: (o.price.total, o.product_id))
    return found, unavailable
