"""Orders: the product a booking takes, the checks before rooms change hands (occupancy, sold-out nights, double
bookings, check-in hours), the order's price columns, and booking, moving and cancelling stays in the calendar."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database
from envfactory_gym.values import format_money, minor_units

from .rules import (
    checkout_day,
    consume,
    fits,
    free_cancellation_until,
    payment_timing,
    quote,
    unavailable_reason,
    within_checkin_hours,
)
from .schema import orders, products, rooms


def offered_product(db: Database, acc: dict[str, Any], product_id: str) -> dict[str, Any]:
    """A product of this accommodation."""
    return db.find_one(
        products,
        id=product_id,
        accommodation_id=acc["id"],
        not_found=f"Product {product_id} is not offered by {acc['name']}.",
    )


def product_room(db: Database, product: dict[str, Any]) -> dict[str, Any]:
    """The room type a product sells."""
    return db.get(rooms, product["room_id"], "Room")


def check_fits(room: dict[str, Any], number_of_adults: int, number_of_rooms: int, children: int) -> None:
    """Refuse a party that the rooms can't sleep."""
    if not fits(room, number_of_adults, number_of_rooms, children):
        raise Conflict(
            f"The {room['name']} sleeps {room['max_adults']} adults and {room['max_persons']} guests in "
            f"total; book more rooms for {number_of_adults + children} guests."
        )


def check_sellable(
    db: Database, acc: dict[str, Any], product: dict[str, Any], nights: list[str], number_of_rooms: int
) -> None:
    """Refuse a product whose room can't be sold for these nights."""
    reason = unavailable_reason(db, product_room(db, product), nights, number_of_rooms)
    if reason is not None:
        raise Conflict(f"Not available at {acc['name']}: {reason}.")


def check_no_overlap(db: Database, booker: dict[str, Any], acc: dict[str, Any], nights: list[str]) -> None:
    """The same property can't be booked twice for overlapping dates."""
    for other in db.find(orders, booker_id=booker["id"], accommodation_id=acc["id"], status="booked"):
        if other["checkin"] < checkout_day(nights) and nights[0] < other["checkout"]:
            raise Conflict(
                f"You already have a booking at {acc['name']} for overlapping dates (confirmation "
                f"{other['id']}); change that booking instead of booking twice."
            )


def check_adults(room: dict[str, Any], number_of_adults: int, order: dict[str, Any]) -> None:
    """Refuse more adults than the booked rooms sleep."""
    if not fits(room, number_of_adults, order["number_of_rooms"], len(order["children_ages"])):
        raise Conflict(
            f"The {room['name']} sleeps {room['max_adults']} adults per room; "
            f"{order['number_of_rooms']} room(s) can't take {number_of_adults}."
        )


def guest_name(value: str) -> str:
    """The main guest's name with its spacing tidied."""
    return " ".join(value.split())


def arrival(acc: dict[str, Any], value: str) -> str:
    """An estimated arrival time inside the property's check-in hours."""
    if not within_checkin_hours(acc, value):
        raise Conflict(
            f"{acc['name']} checks guests in from {acc['checkin_from']} to {acc['checkin_until']}; "
            "ask the property about a later arrival in special_requests."
        )
    return value


def pin_code(order_id: str) -> str:
    """The booking's four-digit PIN, derived from its confirmation number."""
    return f"{(int(order_id) * 7919 + 4021) % 10000:04d}"


def priced_columns(
    db: Database, acc: dict[str, Any], product: dict[str, Any], nights: list[str], number_of_rooms: int, level: int
) -> dict[str, Any]:
    """The order columns that follow from the product, the nights and the Genius level."""
    priced = quote(db, acc, product, nights, number_of_rooms, level)
    return {
        "checkin": nights[0],
        "checkout": checkout_day(nights),
        "meal_plan": priced.meal_plan,
        "nightly_prices": priced.nightly,
        "price_base": priced.base,
        "genius_discount": priced.discount,
        "price_total": priced.total,
        "genius_benefits": priced.benefits,
        "free_cancellation_until": free_cancellation_until(db, acc, product, nights[0]),
    }


def book(
    db: Database,
    booker: dict[str, Any],
    acc: dict[str, Any],
    product: dict[str, Any],
    nights: list[str],
    party: dict[str, Any],
    details: dict[str, Any],
) -> dict[str, Any]:
    """Take the rooms out of the calendar and store the order (party: number_of_rooms, number_of_adults,
    children_ages; details: guest_name, special_requests, estimated_arrival_time)."""
    consume(db, product["room_id"], nights, party["number_of_rooms"])
    order_id = db.new_id(orders, "49", 8)
    return db.insert(
        orders,
        id=order_id,
        pin_code=pin_code(order_id),
        booker_id=booker["id"],
        accommodation_id=acc["id"],
        product_id=product["id"],
        **party,
        **details,
        status="booked",
        payment_timing=payment_timing(product),
        currency=acc["currency"],
        cancellation_fee=None,
        cancellation_reason=None,
        created=db.now_iso(),
        modified=None,
        cancelled_at=None,
        **priced_columns(db, acc, product, nights, party["number_of_rooms"], booker["genius_level"]),
    )


def move(
    db: Database,
    booker: dict[str, Any],
    order: dict[str, Any],
    acc: dict[str, Any],
    product: dict[str, Any],
    nights: list[str],
) -> dict[str, Any]:
    """Give the order's nights back to the calendar, take the new ones and reprice the order."""
    consume(db, product["room_id"], [n["date"] for n in order["nightly_prices"]], -order["number_of_rooms"])
    check_sellable(db, acc, product, nights, order["number_of_rooms"])
    consume(db, product["room_id"], nights, order["number_of_rooms"])
    changes = priced_columns(db, acc, product, nights, order["number_of_rooms"], booker["genius_level"])
    return db.update(orders, order["id"], modified=db.now_iso(), **changes)


def fee_text(order: dict[str, Any], fee: float) -> str:
    """A cancellation fee as the traveller reads it: EUR 1,240.00."""
    return format_money(minor_units(fee, order["currency"], "fee"), order["currency"])


def cancel(
    db: Database, order: dict[str, Any], product: dict[str, Any], fee: float, reason: str | None
) -> dict[str, Any]:
    """Give the order's rooms back to the calendar and mark it cancelled by the guest with its fee."""
    consume(db, product["room_id"], [n["date"] for n in order["nightly_prices"]], -order["number_of_rooms"])
    return db.update(
        orders,
        order["id"],
        status="cancelled_by_guest",
        cancellation_fee=fee,
        cancellation_reason=reason.strip() if reason else None,
        cancelled_at=db.now_iso(),
    )
