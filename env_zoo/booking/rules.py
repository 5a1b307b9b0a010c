"""Booking.com's rules shared by the tools: the property's local time, stay dates and party sizes, the
availability calendar, what a property offers a party for a stay, rate-plan prices with Genius discounts,
cancellation policies and fees, and guest scores."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import parse_date, parse_timestamp

from .schema import accommodations, availability, cities, orders, reviews

MAX_NIGHTS = 30
MAX_ROOMS = 8
GENIUS_WINDOW = timedelta(days=730)  # completed stays count towards Genius levels for two years
GENIUS_THRESHOLDS = {2: 5, 3: 15}  # level: completed stays within the window
REVIEW_DAYS = 90  # reviews open for this many days after check-out
MAX_CALENDAR_DAYS = 31
DATE_EXAMPLE = "2025-07-14"
GENIUS_BENEFITS = {
    1: ["10% discounts on stays at Genius properties"],
    2: ["10-15% discounts on stays at Genius properties", "Free breakfasts at selected properties"],
    3: [
        "10-20% discounts on stays at Genius properties",
        "Free breakfasts at selected properties",
        "Priority support on all bookings",
    ],
}


# ---------------------------------------------------------------- the traveller's history


def completed_stays(db: Database, booker: dict[str, Any]) -> int:
    """Stays completed in the last two years (they count towards Genius levels)."""
    since = (db.now() - GENIUS_WINDOW).date().isoformat()
    return sum(1 for o in db.find(orders, booker_id=booker["id"], status="stayed") if o["checkout"] >= since)


# ---------------------------------------------------------------- time and dates


def accommodation(db: Database, accommodation_id: int) -> dict[str, Any]:
    """An accommodation of the catalogue."""
    return db.find_one(accommodations, id=accommodation_id, not_found=f"Accommodation {accommodation_id} not found.")


def zone(db: Database, acc: dict[str, Any]) -> timezone:
    """The property's local time zone (its city's offset)."""
    offset = db.get(cities, acc["city_id"], "City")["utc_offset"]
    sign = -1 if offset.startswith("-") else 1
    hours, minutes = offset.lstrip("+-").split(":")
    return timezone(sign * timedelta(hours=int(hours), minutes=int(minutes)))


def local_now(db: Database, acc: dict[str, Any]) -> datetime:
    """The current time at the property (aware)."""
    return db.now().astimezone(zone(db, acc))


def stay_nights(db: Database, acc: dict[str, Any], checkin: str, checkout: str) -> list[str]:
    """The nights (dates) of a stay, checked: check-out after check-in, at most 30 nights, not in the past."""
    start = parse_date(checkin, "checkin", DATE_EXAMPLE)
    end = parse_date(checkout, "checkout", DATE_EXAMPLE)
    if end <= start:
        raise InvalidRequest("checkout must be after checkin.")
    if (end - start).days > MAX_NIGHTS:
        raise InvalidRequest(f"A reservation can be at most {MAX_NIGHTS} nights.")
    if start < local_now(db, acc).date():
        raise InvalidRequest(f"checkin {checkin} is in the past.")
    return [(start + timedelta(days=n)).isoformat() for n in range((end - start).days)]


def within_checkin_hours(acc: dict[str, Any], arrival: str) -> bool:
    """Whether an arrival time falls inside the property's check-in hours ("00:00" closes at midnight)."""
    start, end = acc["checkin_from"], acc["checkin_until"]
    if end == "00:00":
        return arrival >= start
    if end < start:  # reception open past midnight
        return arrival >= start or arrival <= end
    return start <= arrival <= end


# ---------------------------------------------------------------- the party


def calendar_range(start_date: str, end_date: str | None) -> tuple[str, str]:
    """The first and last night a calendar request covers: at most 31 nights, 31 by default."""
    start = parse_date(start_date, "start_date", DATE_EXAMPLE)
    end = parse_date(end_date, "end_date", DATE_EXAMPLE) if end_date else start + timedelta(days=MAX_CALENDAR_DAYS - 1)
    if not 0 <= (end - start).days < MAX_CALENDAR_DAYS:
        raise InvalidRequest(
            f"end_date must be on or after start_date and at most {MAX_CALENDAR_DAYS - 1} nights after it."
        )
    return start.isoformat(), end.isoformat()


def check_party(number_of_adults: int, number_of_rooms: int) -> None:
    """Every room needs an adult (the sizes themselves are bounded by the tools' argument types)."""
    if number_of_adults < number_of_rooms:
        raise InvalidRequest("Each room needs at least one adult: number_of_adults must be at least number_of_rooms.")


def fits(room: dict[str, Any], number_of_adults: int, number_of_rooms: int, children: int) -> bool:
    """Whether the party, spread over the rooms, fits the room's maximum occupancy."""
    per_room_adults = -(-number_of_adults // number_of_rooms)
    per_room_persons = -(-(number_of_adults + children) // number_of_rooms)
    return per_room_adults <= room["max_adults"] and per_room_persons <= room["max_persons"]


# ---------------------------------------------------------------- the calendar


def calendar(db: Database, room_id: int, nights: list[str]) -> dict[str, dict[str, Any]]:
    """The room's calendar rows for the nights (consecutive dates) that have one."""
    rows = db.select(availability, "room_id = ? AND date >= ? AND date <= ?", [room_id, nights[0], nights[-1]])
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
    day = parse_date(checkin, "checkin") - timedelta(days=product["free_cancellation_days"])
    return datetime.combine(day, time(23, 59), zone(db, acc)).isoformat()


def cancellation_fee(db: Database, order: dict[str, Any], product: dict[str, Any]) -> float:
    """What cancelling the order now costs: nothing before the deadline, else the first night or the total."""
    deadline = order["free_cancellation_until"]
    if deadline is not None and db.now() <= parse_timestamp(deadline, "free_cancellation_until"):
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


def reviewable(db: Database, order: dict[str, Any], acc: dict[str, Any]) -> None:
    """A booking can be reviewed once, after a completed stay, within 90 days of check-out."""
    if order["status"] == "booked":
        raise Conflict(f"You can review {acc['name']} after your stay (check-out {order['checkout']}).")
    if order["status"] != "stayed":
        raise Conflict(
            f"Only completed stays can be reviewed; booking {order['id']} is {order['status'].replace('_', ' ')}."
        )
    if db.find(reviews, order_id=order["id"]):
        raise Conflict(f"You already reviewed your stay at {acc['name']} (booking {order['id']}).")
    closes = parse_date(order["checkout"], "checkout") + timedelta(days=REVIEW_DAYS)
    if local_now(db, acc).date() > closes:
        raise Conflict(
            f"Reviews can be written up to {REVIEW_DAYS} days after check-out; this one closed on {closes.isoformat()}."
        )


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


# ---------------------------------------------------------------- stays


def checkout_day(nights: list[str]) -> str:
    """The check-out date of a stay: the morning after its last night."""
    return (parse_date(nights[-1], "night") + timedelta(days=1)).isoformat()
