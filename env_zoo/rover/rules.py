"""Rover's booking rules: which pets a sitter takes (species, dog size, puppies, pets a day), when a sitter is free,
how a booking is priced (nights, days or visits at the sitter's rate, holiday rate for a booking touching a
holiday, puppy rate, additional-pet rate, the owner's 11% service fee capped at $50), request states (an
accepted request must be booked within 72 hours), and refunds under the sitter's cancellation policy, read from the
simulated clock. Dates and times are the sitter's local time, compared with the clock as they are."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.values import iso_timestamp, parse_date, parse_timestamp

from .schema import bookings, holidays, services, sitters, unavailable_dates

SERVICE_UNITS = {
    "boarding": "night",
    "house_sitting": "night",
    "drop_in": "visit",
    "dog_walking": "walk",
    "doggy_day_care": "day",
}
DOG_ONLY = ("dog_walking", "doggy_day_care")
ALWAYS_FLEXIBLE = ("dog_walking", "doggy_day_care")
SIZES = (("small", 0, 15), ("medium", 16, 40), ("large", 41, 100), ("giant", 101, 10_000))
FEE_PERCENT = 11
FEE_CAP = 5000
ACCEPT_WINDOW = timedelta(hours=72)
REVIEW_DAYS = 21
PENALTY_DAYS = 7
POLICY_TEXT = {
    "flexible": "Full refund if canceled before the booking begins; after that, 50% back for the first seven "
    "canceled days and 100% for any additional days. Walks, day care and drop-ins: full refund for any day "
    "not yet delivered.",
    "moderate": "Full refund if canceled by 12:00pm the day before the booking begins; after that, 50% back for the "
    "first seven canceled days and 100% for any additional days.",
    "strict": "Full refund if canceled by 12:00pm one week before the booking begins; after that, 50% back for the "
    "first seven canceled days and 100% for any additional days.",
}
OPEN_REQUESTS = ("pending", "accepted")


def size_of(weight_lbs: int) -> str:
    """Rover's dog size for a weight: small 0-15 lbs, medium 16-40, large 41-100, giant 101+."""
    return next(name for name, low, high in SIZES if low <= weight_lbs <= high)


def is_puppy(pet: dict[str, Any], on: date) -> bool:
    """A dog under one year old on a date."""
    born = parse_date(pet["birth_date"], "birth_date")
    return pet["species"] == "dog" and on < born.replace(year=born.year + 1)


def day(value: str, name: str) -> date:
    """An ISO date argument."""
    return parse_date(value, name, example="2026-05-22")


def service_days(service_type: str, start: date, end: date) -> list[date]:
    """The dates a booking occupies: each night for stays, each day (inclusive) for the others."""
    count = (end - start).days + (0 if SERVICE_UNITS[service_type] == "night" else 1)
    return [start + timedelta(days=n) for n in range(count)]


def check_dates(db: Database, service_type: str, start_date: str, end_date: str) -> tuple[date, date]:
    """Refuse dates in the past, reversed, or a stay of no nights."""
    start, end = day(start_date, "start_date"), day(end_date, "end_date")
    if start <= db.now().date():
        raise InvalidRequest("Start date must be in the future.")
    if end < start or (SERVICE_UNITS[service_type] == "night" and end == start):
        raise InvalidRequest("End date must be after the start date." if end <= start else "Invalid dates.")
    if (end - start).days > 60:
        raise InvalidRequest("Bookings can't be longer than 60 days.")
    return start, end


def units(service_type: str, start: date, end: date, visits_per_day: int) -> int:
    """Nights for stays, days for day care, visits or walks (days x per day) for the others."""
    days = len(service_days(service_type, start, end))
    return days * visits_per_day if service_type in ("drop_in", "dog_walking") else days


def sitter(db: Database, sitter_id: str) -> dict[str, Any]:
    """A sitter by profile id."""
    return db.find_one(sitters, not_found=f"Sitter {sitter_id} not found.", id=sitter_id.strip())


def service(db: Database, sitter_row: dict[str, Any], service_type: str) -> dict[str, Any]:
    """One of a sitter's services."""
    found = db.find(services, sitter_id=sitter_row["id"], service_type=service_type)
    if not found:
        raise NotFound(f"{sitter_row['name']} doesn't offer {service_type.replace('_', ' ')}.")
    return found[0]


def check_pets_fit(sitter_row: dict[str, Any], service_type: str, pets: list[dict[str, Any]], start: date) -> None:
    """Refuse pets the sitter's preferences or the service don't take."""
    if len(pets) > sitter_row["max_pets"]:
        raise InvalidRequest(f"{sitter_row['name']} can care for at most {sitter_row['max_pets']} pets at a time.")
    for pet in pets:
        if pet["species"] == "cat":
            if service_type in DOG_ONLY:
                raise InvalidRequest(f"{service_type.replace('_', ' ').capitalize()} is for dogs only.")
            if not sitter_row["accepts_cats"]:
                raise InvalidRequest(f"{sitter_row['name']} doesn't offer cat care.")
            continue
        size = size_of(pet["weight_lbs"])
        if size not in sitter_row["dog_sizes"]:
            raise InvalidRequest(f"{sitter_row['name']} doesn't accept {size} dogs ({pet['name']}).")
        if is_puppy(pet, start) and not sitter_row["accepts_puppies"]:
            raise InvalidRequest(f"{sitter_row['name']} doesn't accept puppies under one year ({pet['name']}).")


def pets_booked(db: Database, sitter_id: str, on: str, skip: str | None = None) -> int:
    """Pets in the sitter's booked bookings on a date."""
    found = db.select(
        bookings,
        "sitter_id = ? AND status = 'booked' AND start_date <= ? AND end_date >= ?",
        (sitter_id, on, on),
    )
    total = 0
    for row in found:
        if row["id"] == skip:
            continue
        if on in {
            d.isoformat()
            for d in service_days(row["service_type"], day(row["start_date"], "s"), day(row["end_date"], "e"))
        }:
            total += len(row["pet_ids"])
    return total


def blocked(db: Database, sitter_id: str, first: str, last: str) -> set[str]:
    """Dates the sitter marked unavailable in a range."""
    rows = db.select(unavailable_dates, "sitter_id = ? AND date BETWEEN ? AND ?", (sitter_id, first, last))
    return {row["date"] for row in rows}


def unavailable_on(
    db: Database, sitter_row: dict[str, Any], dates: list[date], pet_count: int, skip: str | None = None
) -> str | None:
    """The first date the sitter can't take `pet_count` more pets (blocked, or full), or None."""
    if not dates:
        return None
    closed = blocked(db, sitter_row["id"], dates[0].isoformat(), dates[-1].isoformat())
    for when in dates:
        text = when.isoformat()
        if text in closed or pets_booked(db, sitter_row["id"], text, skip) + pet_count > sitter_row["max_pets"]:
            return text
    return None


def check_available(
    db: Database,
    sitter_row: dict[str, Any],
    service_type: str,
    start: date,
    end: date,
    pet_count: int,
    skip: str | None = None,
) -> None:
    """Refuse a sitter who is away or not free on every date."""
    if sitter_row["status"] != "active":
        raise Conflict(f"{sitter_row['name']} is away and isn't accepting requests right now.")
    taken = unavailable_on(db, sitter_row, service_days(service_type, start, end), pet_count, skip)
    if taken is not None:
        raise Conflict(f"{sitter_row['name']} is unavailable on {taken}.")


def touches_holiday(db: Database, start: date, end: date) -> bool:
    """Whether any date of the booking falls in a holiday period (the holiday rate then applies to all of it)."""
    found = db.select(holidays, "start_date <= ? AND end_date >= ?", (end.isoformat(), start.isoformat()))
    return bool(found)


def price(
    db: Database, service_row: dict[str, Any], pets: list[dict[str, Any]], start: date, end: date, visits: int
) -> dict[str, Any]:
    """The price of a booking: units x (base, holiday or puppy rate + the additional-pet rate for each pet after
    the first), plus the owner's service fee (11%, at most $50)."""
    holiday = touches_holiday(db, start, end)
    puppy = any(is_puppy(pet, start) for pet in pets)
    if holiday:
        base = service_row["holiday_rate"]
    elif puppy and service_row["puppy_rate"] is not None:
        base = service_row["puppy_rate"]
    else:
        base = service_row["rate"]
    unit_price = base + (len(pets) - 1) * service_row["additional_pet_rate"]
    count = units(service_row["service_type"], start, end, visits)
    subtotal = count * unit_price
    fee = min(subtotal * FEE_PERCENT // 100, FEE_CAP)
    return {
        "units": count,
        "unit_price": unit_price,
        "subtotal": subtotal,
        "service_fee": fee,
        "total": subtotal + fee,
        "holiday_rate_applied": holiday,
    }


def live_status(db: Database, booking: dict[str, Any]) -> str:
    """A booking's status on the clock: an accepted request unpaid for 72 hours, or an open request whose start
    has come, has expired; a booked stay whose last day has passed is completed."""
    status = str(booking["status"])
    today = db.now().date().isoformat()
    if status in OPEN_REQUESTS and booking["start_date"] <= today:
        return "expired"
    if status == "accepted" and booking["accepted_at"]:
        if parse_timestamp(booking["accepted_at"], "accepted_at") + ACCEPT_WINDOW <= db.now():
            return "expired"
    if status == "booked" and booking["end_date"] < today:
        return "completed"
    return status


def noon(on: date) -> datetime:
    """12:00pm on a date."""
    return datetime(on.year, on.month, on.day, 12, 0, tzinfo=timezone.utc)


def policy_for(booking: dict[str, Any]) -> str:
    """The policy a booking cancels under: walks and day care are always flexible."""
    return "flexible" if booking["service_type"] in ALWAYS_FLEXIBLE else str(booking["cancellation_policy"])


def full_refund_until(booking: dict[str, Any]) -> datetime:
    """The last moment a booked service cancels for a full refund."""
    start = day(booking["start_date"], "start_date")
    policy = policy_for(booking)
    if policy == "flexible":
        return datetime(start.year, start.month, start.day, tzinfo=timezone.utc)
    return noon(start - timedelta(days=1 if policy == "moderate" else 7))


def refund(db: Database, booking: dict[str, Any]) -> dict[str, Any]:
    """What cancelling a booked service now gives back: in full before the policy's deadline; after it, days
    already past are not refunded, and of the rest the first seven are refunded at 50% and any more in full
    (walks, day care and drop-ins under a flexible policy: every day not yet delivered in full). The service fee
    comes back in the same share as the service."""
    now = db.now()
    start = day(booking["start_date"], "start_date")
    end = day(booking["end_date"], "end_date")
    dates = service_days(booking["service_type"], start, end)
    per_day = booking["visits_per_day"] if booking["service_type"] in ("drop_in", "dog_walking") else 1
    if now < full_refund_until(booking):
        back = booking["subtotal"]
        penalty = False
    else:
        left = [d for d in dates if d >= now.date()]
        visit_based = SERVICE_UNITS[booking["service_type"]] != "night"
        if policy_for(booking) == "flexible" and visit_based:
            back = len(left) * per_day * booking["unit_price"]
        else:
            half = min(len(left), PENALTY_DAYS)
            back = (half * per_day * booking["unit_price"]) // 2 + (len(left) - half) * per_day * booking["unit_price"]
        penalty = True
    fee_back = booking["service_fee"] * back // booking["subtotal"] if booking["subtotal"] else 0
    return {"service_refund": back, "fee_refund": fee_back, "total_refund": back + fee_back, "penalty": penalty}


def check_cancellable(db: Database, booking: dict[str, Any]) -> str:
    """The live status of a booking that can still be canceled."""
    status = live_status(db, booking)
    if status not in ("pending", "accepted", "booked"):
        raise Conflict(f"This booking is {status} and can't be canceled.")
    return status


def accepted_deadline(booking: dict[str, Any]) -> str | None:
    """When an accepted request expires unless booked."""
    if booking["status"] != "accepted" or not booking["accepted_at"]:
        return None
    return iso_timestamp(parse_timestamp(booking["accepted_at"], "accepted_at") + ACCEPT_WINDOW)
