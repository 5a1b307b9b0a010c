"""Booking.com's rules shared by the tools: the signed-in traveller, the property's local time, stay dates and
party sizes, the availability calendar, rate-plan prices with Genius discounts, and cancellation policies."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .schema import accommodations, availability, bookers, cities, orders, reviews, sessions

MAX_NIGHTS = 30
MAX_ROOMS = 8
GENIUS_WINDOW = timedelta(days=730)  # completed stays count towards Genius levels for two years
GENIUS_THRESHOLDS = {2: 5, 3: 15}  # level: completed stays within the window
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


# ---------------------------------------------------------------- the traveller


def signed_in(db: Database) -> dict[str, Any]:
    """The traveller signed in to Booking.com."""
    session = db.current_session(sessions, "Sign in to your Booking.com account first.")
    return db.get(bookers, session["booker_id"], "Booker")


def current_level(db: Database) -> int:
    """The signed-in traveller's Genius level; 0 when nobody is signed in (no Genius prices)."""
    found = db.find(sessions, id="current")
    return db.get(bookers, found[0]["booker_id"], "Booker")["genius_level"] if found else 0


def own_order(db: Database, booker: dict[str, Any], order_id: str) -> dict[str, Any]:
    """One of the traveller's orders."""
    found = db.find(orders, id=str(order_id).replace(".", "").strip())
    if not found or found[0]["booker_id"] != booker["id"]:
        raise NotFound(f"No booking with confirmation number {order_id} on your account.")
    return found[0]


def completed_stays(db: Database, booker: dict[str, Any]) -> int:
    """Stays completed in the last two years (they count towards Genius levels)."""
    since = (db.now() - GENIUS_WINDOW).date().isoformat()
    return sum(1 for o in db.find(orders, booker_id=booker["id"], status="stayed") if o["checkout"] >= since)


# ---------------------------------------------------------------- time and dates


def accommodation(db: Database, accommodation_id: int) -> dict[str, Any]:
    """An accommodation of the catalogue."""
    found = db.find(accommodations, id=accommodation_id)
    if not found:
        raise NotFound(f"Accommodation {accommodation_id} not found.")
    return found[0]


def zone(db: Database, acc: dict[str, Any]) -> timezone:
    """The property's local time zone (its city's offset)."""
    offset = db.get(cities, acc["city_id"], "City")["utc_offset"]
    sign = -1 if offset.startswith("-") else 1
    hours, minutes = offset.lstrip("+-").split(":")
    return timezone(sign * timedelta(hours=int(hours), minutes=int(minutes)))


def local_now(db: Database, acc: dict[str, Any]) -> datetime:
    """The current time at the property (aware)."""
    return db.now().astimezone(zone(db, acc))


def parse_date(value: str, name: str) -> date:
    """A YYYY-MM-DD date argument."""
    if not _DATE.match(value.strip()):
        raise InvalidRequest(f"{name} must be a date like 2025-07-14.")
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise InvalidRequest(f"{name} {value!r} is not a valid date.") from None


def stay_nights(db: Database, acc: dict[str, Any], checkin: str, checkout: str) -> list[str]:
    """The nights (dates) of a stay, checked: check-out after check-in, at most 30 nights, not in the past."""
    start, end = parse_date(checkin, "checkin"), parse_date(checkout, "checkout")
    if end <= start:
        raise InvalidRequest("checkout must be after checkin.")
    if (end - start).days > MAX_NIGHTS:
        raise InvalidRequest(f"A reservation can be at most {MAX_NIGHTS} nights.")
    if start < local_now(db, acc).date():
        raise InvalidRequest(f"checkin {checkin} is in the past.")
    return [(start + timedelta(days=n)).isoformat() for n in range((end - start).days)]


def parse_time(value: str, name: str) -> str:
    """An HH:MM local time argument."""
    if not _TIME.match(value.strip()):
        raise InvalidRequest(f"{name} must be a local time like 21:30.")
    return value.strip()


def within_checkin_hours(acc: dict[str, Any], arrival: str) -> bool:
    """Whether an arrival time falls inside the property's check-in hours ("00:00" closes at midnight)."""
    start, end = acc["checkin_from"], acc["checkin_until"]
    if end == "00:00":
        return arrival >= start
    if end < start:  # reception open past midnight
        return arrival >= start or arrival <= end
    return start <= arrival <= end


# ---------------------------------------------------------------- the party


def check_party(number_of_adults: int, number_of_rooms: int, children_ages: list[int]) -> None:
    """Guests and rooms as Booking.com accepts them."""
    if not 1 <= number_of_rooms <= MAX_ROOMS:
        raise InvalidRequest(f"number_of_rooms must be between 1 and {MAX_ROOMS}.")
    if number_of_adults < number_of_rooms:
        raise InvalidRequest("Each room needs at least one adult: number_of_adults must be at least number_of_rooms.")
    if number_of_adults > 30:
        raise InvalidRequest("number_of_adults can be at most 30.")
    if any(not 0 <= age <= 17 for age in children_ages):
        raise InvalidRequest("children_ages must be ages from 0 to 17.")


def fits(room: dict[str, Any], number_of_adults: int, number_of_rooms: int, children: int) -> bool:
    """Whether the party, spread over the rooms, fits the room's maximum occupancy."""
    per_room_adults = -(-number_of_adults // number_of_rooms)
    per_room_persons = -(-(number_of_adults + children) // number_of_rooms)
    return per_room_adults <= room["max_adults"] and per_room_persons <= room["max_persons"]


# ---------------------------------------------------------------- the calendar


def calendar(db: Database, room_id: int, nights: list[str]) -> dict[str, dict[str, Any]]:
    """The room's calendar rows for the nights that have one."""
    rows = db.find(availability, availability.c.date.in_(nights), room_id=room_id)
    return {r["date"]: r for r in rows}


def unavailable_reason(db: Database, room: dict[str, Any], nights: list[str], number_of_rooms: int) -> str | None:
    """Why the room can't be sold for these nights (None when it can)."""
    rows = calendar(db, room["id"], nights)
    for night in nights:
        row = rows.get(night)
        if row is None or row["units_available"] < number_of_rooms:
            left = 0 if row is None else row["units_available"]
            return (
                f"{room['name']}: only {left} left on the night of {night}"
                if left
                else f"{room['name']}: sold out on the night of {night}"
            )
    min_stay = rows[nights[0]]["min_stay"]
    if len(nights) < min_stay:
        return f"{room['name']}: minimum stay of {min_stay} nights for arrival on {nights[0]}"
    return None


def consume(db: Database, room_id: int, nights: list[str], units: int) -> None:
    """Take `units` rooms out of the calendar for each night (negative `units` give them back)."""
    for row in calendar(db, room_id, nights).values():
        db.update(availability, row["id"], units_available=row["units_available"] - units)


# ---------------------------------------------------------------- prices, Genius and policies


@dataclass(frozen=True)
class Quote:
    """The price of a product for a stay and a party, with the Genius benefits that apply."""

    nightly: list[dict[str, Any]]
    base: float
    discount: float
    total: float
    meal_plan: str
    benefits: list[str]


def quote(
    db: Database, acc: dict[str, Any], product: dict[str, Any], nights: list[str], number_of_rooms: int, level: int
) -> Quote:
    """Price a product for the nights: calendar price x rate factor x rooms, less the Genius discount."""
    rows = calendar(db, product["room_id"], nights)
    genius = acc["genius_discounts"] if product["genius_eligible"] and level else None
    percent = genius[str(level)] if genius else 0
    nightly, base = [], 0.0
    for night in nights:
        price = round(round(rows[night]["price"] * product["price_factor"], 2) * number_of_rooms, 2)
        base += price
        nightly.append({"date": night, "price": round(price * (100 - percent) / 100, 2)})
    total = round(sum(n["price"] for n in nightly), 2)
    benefits = [f"{percent}% Genius discount"] if percent else []
    meal_plan = product["meal_plan"]
    if genius and level >= 2 and acc["genius_free_breakfast"] and meal_plan == "room_only":
        meal_plan = "breakfast_included"
        benefits.append("Free breakfast (Genius)")
    return Quote(nightly, round(base, 2), round(base - total, 2), total, meal_plan, benefits)


def payment_timing(product: dict[str, Any]) -> str:
    """Non-refundable rates are charged when booked; the others are paid at the property."""
    return "pay_online_now" if product["cancellation_type"] == "non_refundable" else "pay_at_the_property"


def free_cancellation_until(db: Database, acc: dict[str, Any], product: dict[str, Any], checkin: str) -> str | None:
    """The free-cancellation deadline: 23:59 property time, the rate's number of days before check-in."""
    if product["cancellation_type"] != "free_cancellation":
        return None
    day = date.fromisoformat(checkin) - timedelta(days=product["free_cancellation_days"])
    return datetime.combine(day, time(23, 59), zone(db, acc)).isoformat()


def cancellation_fee(db: Database, order: dict[str, Any], product: dict[str, Any]) -> float:
    """What cancelling the order now costs: nothing before the deadline, else the first night or the total."""
    deadline = order["free_cancellation_until"]
    if deadline is not None and db.now() <= datetime.fromisoformat(deadline):
        return 0.0
    if product["cancellation_type"] == "free_cancellation" and product["late_cancellation_fee"] == "first_night":
        return order["nightly_prices"][0]["price"]
    return order["price_total"]


def check_card(booker: dict[str, Any], today: date) -> None:
    """A prepaid (non-refundable) rate needs a valid card on the account."""
    card = booker["payment_card"]
    if card is None:
        raise Conflict("Non-refundable rates are charged when you book: add a payment card to your account first.")
    month, year = (int(part) for part in card["expiry"].split("/"))
    if (year, month) < (today.year, today.month):
        raise Conflict(
            f"Your {card['brand']} card ending {card['last4']} expired in {card['expiry']}; update it "
            "before booking a non-refundable rate."
        )


def bookable(db: Database, order: dict[str, Any], acc: dict[str, Any], action: str) -> None:
    """An order that can still be changed: booked, and its check-in date not passed."""
    if order["status"] != "booked":
        raise Conflict(f"Booking {order['id']} is {order['status'].replace('_', ' ')}; it can't be {action}.")
    if local_now(db, acc).date().isoformat() > order["checkin"]:
        raise Conflict(f"Your stay started on {order['checkin']}; contact {acc['name']} directly.")


# ---------------------------------------------------------------- reviews

REVIEW_WORDS = (
    (9.5, "Exceptional"),
    (9.0, "Wonderful"),
    (8.6, "Fabulous"),
    (8.0, "Very good"),
    (7.0, "Good"),
    (6.0, "Pleasant"),
    (0.0, "Review score"),
)


def review_score(db: Database, accommodation_id: int) -> tuple[float | None, int, str | None]:
    """The property's average guest score, its number of reviews and Booking.com's word for the score."""
    scores = [r["score"] for r in db.find(reviews, accommodation_id=accommodation_id)]
    if not scores:
        return None, 0, None
    average = round(sum(scores) / len(scores), 1)
    return average, len(scores), next(word for floor, word in REVIEW_WORDS if average >= floor)
