"""Rules the Rapid tools share: occupancy strings, stay dates, nightly prices (weekend uplift, taxes, the live price
a price check sees), cancel-penalty windows and what a cancellation costs, hold windows, and money as strings."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Annotated, Any

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.fields import ErrorText
from envfactory_gym.values import format_amount, iso_timestamp, parse_date

from .schema import allotments, rooms

CURRENCY = "USD"
MAX_NIGHTS = 28
HOLD_WINDOW = timedelta(hours=24)
CHECKIN_HOUR = 15  # penalty windows count back from 15:00 UTC on the check-in day

#: One room's occupancy: adults, then optional child ages ("2", "2-9,4").
Occupancy = Annotated[
    str,
    Field(pattern=r"^[1-8](-(1[0-7]|[0-9])(,(1[0-7]|[0-9]))*)?$"),
    ErrorText('invalid_input: occupancy must be adults then child ages 0-17, e.g. "2" or "2-9,4"'),
]


def money(cents: int) -> str:
    """Cents as Rapid's decimal string: 18950 -> "189.50"."""
    return format_amount(cents, CURRENCY)


def split_occupancy(occupancy: str) -> tuple[int, list[int]]:
    """("2-9,4") -> (2, [9, 4])."""
    adults, _, ages = occupancy.partition("-")
    return int(adults), [int(a) for a in ages.split(",")] if ages else []


def stay_dates(db: Database, checkin: str, checkout: str) -> list[str]:
    """The nights of a stay, checked like Rapid: check-in not in the past, checkout after it, at most 28 nights."""
    start = parse_date(checkin, "checkin")
    end = parse_date(checkout, "checkout")
    if start < db.now().date():
        raise InvalidRequest("invalid_input: checkin must not be in the past")
    if end <= start:
        raise InvalidRequest("invalid_input: checkout must be after checkin")
    if (end - start).days > MAX_NIGHTS:
        raise InvalidRequest(f"invalid_input: a stay is at most {MAX_NIGHTS} nights")
    return [(start + timedelta(days=n)).isoformat() for n in range((end - start).days)]


def fits(room: dict[str, Any], occupancy: str) -> bool:
    """Whether one room of this type sleeps the occupancy."""
    adults, ages = split_occupancy(occupancy)
    return adults <= room["max_adults"] and adults + len(ages) <= room["max_occupancy"]


def rooms_left(db: Database, room_id: str, nights: list[str]) -> int:
    """How many rooms of a type are free on every night of the stay (0 when a night has no allotment)."""
    rows = db.select(
        allotments,
        f"room_id = ? AND date IN ({', '.join('?' for _ in nights)})",
        (room_id, *nights),
    )
    return min((r["available"] for r in rows), default=0) if len(rows) == len(nights) else 0


def take_rooms(db: Database, room_id: str, nights: list[str], count: int) -> None:
    """Take (count > 0) or give back (count < 0) rooms of a type on every night of a stay."""
    for night in nights:
        key = f"{room_id}:{night}"
        row = db.get(allotments, key, "Allotment")
        db.update(allotments, key, available=row["available"] - count)


def nightly_prices(rate: dict[str, Any], nights: list[str], live: bool = False) -> list[list[int]]:
    """[[base, tax], ...] cents per night for one room: +20% on Friday and Saturday nights; `live` applies the
    rate's move since the availability cache was filled."""
    prices = []
    for night in nights:
        base = rate["nightly_base"] * (120 if date.fromisoformat(night).weekday() in (4, 5) else 100) // 100
        if live:
            base = base * (100 + rate["live_change_percent"]) // 100
        prices.append([base, base * rate["tax_percent"] // 100])
    return prices


def stay_total(nightly: list[list[int]]) -> int:
    """Inclusive total of one room (base plus taxes)."""
    return sum(base + tax for base, tax in nightly)


def checkin_moment(checkin: str) -> datetime:
    return datetime.fromisoformat(checkin).replace(hour=CHECKIN_HOUR, tzinfo=timezone.utc)


def cancel_penalties(db: Database, rate: dict[str, Any], checkin: str, checkout: str) -> list[dict[str, Any]]:
    """The rate's penalty windows as Rapid lists them: non-refundable rates carry 100% from now; refundable ones
    are free until `free_cancel_hours` before check-in, then cost the rate's nights, percent or amount."""
    end = iso_timestamp(datetime.fromisoformat(checkout).replace(hour=11, tzinfo=timezone.utc))
    if not rate["refundable"]:
        booked_day = datetime.combine(db.now().date(), datetime.min.time(), tzinfo=timezone.utc)
        return [{"start": iso_timestamp(booked_day), "end": end, "percent": "100%"}]
    start = checkin_moment(checkin) - timedelta(hours=rate["free_cancel_hours"])
    window: dict[str, Any] = {"start": iso_timestamp(start), "end": end}
    if rate["penalty_type"] == "nights":
        window["nights"] = str(rate["penalty_value"])
    elif rate["penalty_type"] == "percent":
        window["percent"] = f"{rate['penalty_value']}%"
    else:
        window["amount"] = money(rate["penalty_value"])
    return [window]


def penalty_now(db: Database, booked: dict[str, Any]) -> int:
    """What cancelling a booked room costs now, in cents: the window the clock is in, else nothing."""
    total = stay_total(booked["nightly"])
    now = db.now()
    for window in booked["cancel_penalties"]:
        start = datetime.fromisoformat(window["start"].replace("Z", "+00:00"))
        finish = datetime.fromisoformat(window["end"].replace("Z", "+00:00"))
        if start <= now < finish:
            if "nights" in window:
                return stay_total(booked["nightly"][: int(window["nights"])])
            if "percent" in window:
                return total * int(window["percent"].rstrip("%")) // 100
            return min(total, int(round(float(window["amount"]) * 100)))
    return 0


def require_not_started(db: Database, booked: dict[str, Any], action: str) -> None:
    """Rooms can be cancelled or changed only while active and before check-in day."""
    if booked["status"] == "canceled":
        raise Conflict(f"{action}.not_allowed: room {booked['id']} is already canceled")
    if date.fromisoformat(booked["checkin"]) <= db.now().date():
        raise Conflict(f"{action}.not_allowed: the stay of room {booked['id']} has started")


def room_type(db: Database, property_id: str, room_id: str) -> dict[str, Any]:
    found = db.find(rooms, room_id=room_id, property_id=property_id)
    if not found:
        raise InvalidRequest(f"resource.not_found: room {room_id} is not a room of property {property_id}")
    return found[0]
