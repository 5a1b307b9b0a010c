"""Marriott Bonvoy's programme rules: the award chart (categories 1-8 at off-peak, standard and peak prices),
Stay for 5, Pay for 4 on points stays, Free Night Certificates with a top-up of up to 15,000 points, Points
Advance, cancellation deadlines by property, Suite Night Awards (one per night, requested by 2 p.m. the day
before arrival), elite tiers by nights with their points bonus, base earning by brand, and point transfers between
members. Property-local times are compared with the clock as they are."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.values import parse_date

from .schema import postings, properties, rates, reservations, room_types, sold_out, suite_night_awards

DATE_EXAMPLE = "2026-07-14"
AWARD_CHART: dict[int, tuple[int, int, int]] = {  # category: (off-peak, standard, peak) points a night
    1: (5000, 7500, 10000),
    2: (10000, 12500, 15000),
    3: (15000, 17500, 20000),
    4: (20000, 25000, 30000),
    5: (30000, 35000, 40000),
    6: (40000, 50000, 60000),
    7: (50000, 60000, 70000),
    8: (70000, 85000, 100000),
}
TIERS = (("AMBASSADOR", 100), ("TITANIUM", 75), ("PLATINUM", 50), ("GOLD", 25), ("SILVER", 10), ("MEMBER", 0))
TIER_RANK = {name: rank for rank, (name, _) in enumerate(reversed(TIERS))}
ELITE_BONUS = {"MEMBER": 0, "SILVER": 10, "GOLD": 25, "PLATINUM": 50, "TITANIUM": 75, "AMBASSADOR": 75}
MAX_NIGHTS = 30
TOP_UP_LIMIT = 15000
POINTS_ADVANCE_LIMIT = 3
POINTS_ADVANCE_LEAD_DAYS = 30
POINTS_ADVANCE_DUE_DAYS = 14
POINTS_ADVANCE_WINDOW_DAYS = 60
TRANSFER_OUT_LIMIT = 100000
TRANSFER_IN_LIMIT = 500000
REWARD = "REWARD"


def today(db: Database) -> date:
    """The clock's date."""
    return db.now().date()


def day(value: str, name: str) -> date:
    """A date argument, refused with the field's name when malformed."""
    return parse_date(value, name, example=DATE_EXAMPLE)


def stay_nights(db: Database, arrival: str, departure: str) -> list[date]:
    """The nights of a new stay: arrival today or later, departure after arrival, at most 30 nights."""
    first, last = day(arrival, "arrival"), day(departure, "departure")
    if first < today(db):
        raise InvalidRequest("The arrival date can't be in the past.")
    if last <= first:
        raise InvalidRequest("The departure date must be after the arrival date.")
    count = (last - first).days
    if count > MAX_NIGHTS:
        raise InvalidRequest(f"A reservation can be at most {MAX_NIGHTS} nights.")
    return [first + timedelta(days=n) for n in range(count)]


def open_property(db: Database, code: str) -> dict[str, Any]:
    """A property that takes reservations."""
    row = db.find_one(properties, not_found=f"Hotel {code} not found.", code=code.strip().upper())
    if row["status"] != "OPEN":
        raise Conflict(f"{row['name']} is temporarily closed and not taking reservations.")
    return row


def room(db: Database, prop: dict[str, Any], room_code: str) -> dict[str, Any]:
    """A room type of a property by its room code."""
    return db.find_one(
        room_types,
        not_found=f"Room type {room_code} not found at {prop['name']}.",
        property_code=prop["code"],
        room_code=room_code.strip().upper(),
    )


def check_guests(room_row: dict[str, Any], guests: int) -> None:
    """Refuse more guests than the room sleeps."""
    if guests > room_row["max_occupancy"]:
        raise InvalidRequest(f"The {room_row['name']} sleeps at most {room_row['max_occupancy']} guests.")


def sold_out_nights(db: Database, room_type_id: str, nights: list[date]) -> list[str]:
    """The nights of a stay on which the room type is sold out."""
    found = db.select(
        sold_out,
        "room_type_id = ? AND night >= ? AND night <= ?",
        (room_type_id, nights[0].isoformat(), nights[-1].isoformat()),
    )
    return sorted(row["night"] for row in found)


def property_rates(db: Database, code: str) -> dict[str, list[dict[str, Any]]]:
    """A property's rates by room type id, in one query (room type ids are the property code, "-" and the room code)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for rate in db.select(rates, "room_type_id > ? AND room_type_id < ?", (f"{code}-", f"{code}.")):
        found.setdefault(rate["room_type_id"], []).append(rate)
    return found


def property_sold_out(db: Database, code: str, nights: list[date]) -> dict[str, list[str]]:
    """The sold-out nights of a stay at a property, by room type id, in one query."""
    found: dict[str, list[str]] = {}
    rows = db.select(
        sold_out,
        "room_type_id > ? AND room_type_id < ? AND night >= ? AND night <= ?",
        (f"{code}-", f"{code}.", nights[0].isoformat(), nights[-1].isoformat()),
        order_by="night",
    )
    for row in rows:
        found.setdefault(row["room_type_id"], []).append(row["night"])
    return found


def check_open(db: Database, room_row: dict[str, Any], nights: list[date]) -> None:
    """Refuse a stay with a sold-out night."""
    closed = sold_out_nights(db, room_row["id"], nights)
    if closed:
        raise Conflict(f"The {room_row['name']} is not available on {closed[0]}.")


def season(prop: dict[str, Any], night: date) -> str:
    """PEAK, OFF_PEAK or STANDARD for a night at a property."""
    if night.month in prop["peak_months"]:
        return "PEAK"
    if night.month in prop["off_peak_months"]:
        return "OFF_PEAK"
    return "STANDARD"


def award_nightly(prop: dict[str, Any], nights: list[date]) -> list[int]:
    """Points a night under the award chart, night by night."""
    column = {"OFF_PEAK": 0, "STANDARD": 1, "PEAK": 2}
    return [AWARD_CHART[prop["category"]][column[season(prop, night)]] for night in nights]


def free_nights(nightly: list[int]) -> int:
    """Stay for 5, Pay for 4: the lowest-priced night of every five consecutive nights is free (points stays)."""
    return sum(min(nightly[start : start + 5]) for start in range(0, len(nightly) - 4, 5))


def deadline(prop: dict[str, Any], arrival: str) -> datetime:
    """When free cancellation ends: 23:59 local time `cancel_days` days before arrival."""
    first = day(arrival, "arrival") - timedelta(days=prop["cancel_days"])
    return datetime(first.year, first.month, first.day, 23, 59, tzinfo=timezone.utc)


def within_deadline(db: Database, prop: dict[str, Any], reservation: dict[str, Any]) -> bool:
    """Whether the reservation can still be cancelled or changed without penalty."""
    return db.now() <= deadline(prop, reservation["arrival"])


def upgrade_cutoff(arrival: str) -> datetime:
    """Suite Night Award requests close at 2 p.m. local time the day before arrival."""
    before = day(arrival, "arrival") - timedelta(days=1)
    return datetime(before.year, before.month, before.day, 14, 0, tzinfo=timezone.utc)


def points_due_by(db: Database, arrival: str) -> str:
    """Points Advance: the points are due 60 days after booking or 14 days before arrival, whichever is first."""
    due = min(
        today(db) + timedelta(days=POINTS_ADVANCE_WINDOW_DAYS),
        day(arrival, "arrival") - timedelta(days=POINTS_ADVANCE_DUE_DAYS),
    )
    return due.isoformat()


def live_status(db: Database, reservation: dict[str, Any]) -> str:
    """A reservation's status, with an unpaid Points Advance past its due date read as CANCELLED."""
    if (
        reservation["status"] == "CONFIRMED"
        and reservation["points_advance"]
        and not reservation["points_paid"]
        and (reservation["points_due_by"] or "") < today(db).isoformat()
    ):
        return "CANCELLED"
    return str(reservation["status"])


def open_points_advances(db: Database, member_number: str) -> int:
    """How many unpaid Points Advance reservations the member holds."""
    found = db.find(reservations, member_number=member_number, status="CONFIRMED", points_advance=True)
    return sum(1 for row in found if not row["points_paid"] and live_status(db, row) == "CONFIRMED")


def tier_for(current: str, nights: int) -> str:
    """The tier a member holds after `nights` this year: earned by nights (Ambassador also needs qualifying
    spend, so nights alone stop at Titanium); never lower than the tier held."""
    earned = next(name for name, floor in TIERS if nights >= floor and name != "AMBASSADOR")
    return earned if TIER_RANK[earned] > TIER_RANK[current] else current


def next_tier(tier: str, nights: int) -> tuple[str | None, int]:
    """The next tier earned by nights and how many more nights it takes."""
    for name, floor in reversed(TIERS):
        if name != "AMBASSADOR" and TIER_RANK[name] > TIER_RANK[tier]:
            return name, max(floor - nights, 0)
    return None, 0


def stay_points(prop: dict[str, Any], tier: str, cash_total: int) -> tuple[int, int]:
    """Base points (10 a US dollar, 5 at extended-stay brands) and the elite bonus on them, for a paid stay."""
    base = cash_total // 100 * prop["base_points_per_usd"]
    return base, base * ELITE_BONUS[tier] // 100


def year_transfers(db: Database, member_number: str, kind: str) -> int:
    """Points the member transferred out (or received) this calendar year."""
    year = str(today(db).year)
    found = db.select(
        postings, "member_number = ? AND type = ? AND posted_on >= ?", (member_number, kind, f"{year}-01-01")
    )
    return sum(abs(row["points"]) for row in found)


def usable_suite_nights(db: Database, member_number: str, arrival: str) -> list[dict[str, Any]]:
    """The member's unused Suite Night Awards still valid on the arrival date, soonest to expire first."""
    return db.select(
        suite_night_awards,
        "member_number = ? AND status = 'AVAILABLE' AND expires_on >= ? AND expires_on >= ?",
        (member_number, arrival, today(db).isoformat()),
        order_by="expires_on",
    )


def post(db: Database, member_number: str, kind: str, points: int, description: str, **extra: Any) -> None:
    """Add a posting to the member's activity."""
    number = db.next_number("postings", postings)
    db.insert(
        postings,
        id=f"PST{700000 + number}",
        member_number=member_number,
        posted_on=today(db).isoformat(),
        type=kind,
        points=points,
        nights=extra.pop("nights", 0),
        description=description,
        **{"confirmation_number": None, "counterparty": None, **extra},
    )


def new_confirmation(db: Database) -> str:
    """The next confirmation number; new ones follow the account's existing 8-digit numbers."""
    return str(84210000 + db.next_number("confirmations"))


def room_by_id(db: Database, room_type_id: str) -> dict[str, Any]:
    """A room type by its id."""
    found = db.find(room_types, id=room_type_id)
    if not found:
        raise NotFound(f"Room type {room_type_id} not found.")
    return found[0]
