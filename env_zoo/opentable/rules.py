"""OpenTable's booking rules shared by the tools: local time, seatings and turn times, which tables are free,
card guarantees and fees, bonus points, and how stored rows become API objects."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Database, InvalidRequest, NotFound

from .objects import CancellationPolicy, Ratings, ReservationObject, RestaurantRef
from .schema import (
    dining_tables,
    diner_sessions,
    diners,
    experiences,
    reservations,
    restaurants,
    reviews,
    seatings,
    slot_locks,
)

UTC_OFFSET = timedelta(hours=-5)  # Chicago in daylight saving time: every restaurant of this directory
ACTIVE = ("pending", "booked", "seated")
MIN_NOTICE = timedelta(minutes=15)
DAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
_DATE_TIME = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(:\d{2})?$")


# ---------------------------------------------------------------- time


def local_now(db: Database) -> datetime:
    """The restaurants' local wall-clock time (naive)."""
    return (db.now() + UTC_OFFSET).replace(tzinfo=None)


def parse_date_time(value: str) -> datetime:
    """A local 'YYYY-MM-DDTHH:MM' (seconds allowed) as a naive datetime."""
    match = _DATE_TIME.match(value.strip())
    if match is None:
        raise InvalidRequest("date_time must be a local time like 2025-05-09T19:30")
    try:
        return datetime.fromisoformat(f"{match.group(1)}T{match.group(2)}:{match.group(3)}")
    except ValueError:
        raise InvalidRequest(f"{value!r} is not a valid date and time") from None


def fmt(moment: datetime) -> str:
    """A naive local datetime as OpenTable writes it: 'YYYY-MM-DDTHH:MM'."""
    return moment.strftime("%Y-%m-%dT%H:%M")


def turn_minutes(party_size: int) -> int:
    """How long a party holds its table."""
    if party_size <= 2:
        return 90
    if party_size <= 4:
        return 105
    return 120 if party_size <= 6 else 150


# ---------------------------------------------------------------- lookups


def signed_in(db: Database) -> dict[str, Any]:
    """The diner signed in to OpenTable."""
    session = db.current_session(diner_sessions, "No diner is signed in. The diner must sign in to OpenTable first.")
    return db.get(diners, session["diner_id"], "Diner")


def restaurant(db: Database, rid: str) -> dict[str, Any]:
    """A restaurant of the directory."""
    found = db.find(restaurants, rid=str(rid))
    if not found:
        raise NotFound(f"Restaurant {rid} not found.")
    return found[0]


def own_reservation(db: Database, diner: dict[str, Any], confirmation_number: str) -> dict[str, Any]:
    """One of the diner's reservations."""
    found = db.find(reservations, id=str(confirmation_number))
    if not found or found[0]["diner_id"] != diner["id"]:
        raise NotFound(f"No reservation with confirmation number {confirmation_number} on your account.")
    return found[0]


def experience_of(db: Database, rest: dict[str, Any], experience_id: str | None) -> dict[str, Any] | None:
    """The restaurant's experience, if one is named."""
    if experience_id is None:
        return None
    found = db.find(experiences, id=experience_id)
    if not found or found[0]["rid"] != rest["rid"]:
        raise NotFound(f"Experience {experience_id} not found at {rest['name']}.")
    return found[0]


# ---------------------------------------------------------------- policies


def check_party_and_date(db: Database, rest: dict[str, Any], moment: datetime, party_size: int) -> None:
    """Party size within online limits and a date inside the booking window."""
    if party_size < 1:
        raise InvalidRequest("party_size must be at least 1.")
    if party_size > rest["max_party_size"]:
        raise InvalidRequest(
            f"Online booking at {rest['name']} is for up to {rest['max_party_size']} guests; for "
            f"larger parties please call the restaurant at {rest['phone']}."
        )
    today = local_now(db).date()
    if moment.date() < today:
        raise InvalidRequest("That date has already passed.")
    if moment.date() > today + timedelta(days=rest["booking_window_days"]):
        raise InvalidRequest(f"{rest['name']} takes reservations up to {rest['booking_window_days']} days ahead.")


def card_required(rest: dict[str, Any], party_size: int, experience: dict[str, Any] | None) -> bool:
    """Large parties and special events need a credit card guarantee."""
    return experience is not None or party_size >= rest["cc_party_threshold"]


def policy(
    rest: dict[str, Any], experience: dict[str, Any] | None, moment: datetime, party_size: int
) -> CancellationPolicy:
    """The late-cancellation and no-show terms of a guaranteed booking."""
    source = experience or rest
    fee = source["no_show_fee_per_person"]
    return CancellationPolicy(
        free_cancellation_until=fmt(moment - timedelta(hours=source["cancellation_window_hours"])),
        fee_per_person=fee,
        fee_total=fee * party_size,
    )


def points_for(rest: dict[str, Any], moment: datetime) -> int:
    """1,000 points on the restaurant's bonus-point tables, 100 otherwise."""
    clock = moment.strftime("%H:%M")
    for window in rest["bonus_points"]:
        if moment.weekday() in window["days"] and window["from"] <= clock <= window["to"]:
            return 1000
    return 100


# ---------------------------------------------------------------- availability


def seating_times(db: Database, rid: str, day: datetime) -> list[datetime]:
    """Every bookable time of a day, from the restaurant's seatings."""
    times: set[datetime] = set()
    for seating in db.find(seatings, rid=rid):
        if day.weekday() not in seating["days"]:
            continue
        start = datetime.fromisoformat(f"{day.date().isoformat()}T{seating['first_seating']}")
        last = datetime.fromisoformat(f"{day.date().isoformat()}T{seating['last_seating']}")
        while start <= last:
            times.add(start)
            start += timedelta(minutes=seating["interval_minutes"])
    return sorted(times)


def busy_tables(db: Database, rid: str, day: str, exclude: str | None = None) -> list[tuple[str, datetime, datetime]]:
    """(table, from, to) held on a day by active reservations and by unexpired, unused slot locks."""
    held = []
    for row in db.find(reservations, rid=rid):
        if row["status"] in ACTIVE and row["date_time"].startswith(day) and row["id"] != exclude:
            start = datetime.fromisoformat(row["date_time"])
            held.append((row["table_id"], start, start + timedelta(minutes=turn_minutes(row["party_size"]))))
    now = db.now_iso()
    for lock in db.find(slot_locks, rid=rid, used=False):
        if lock["date_time"].startswith(day) and lock["expires_at"] > now:
            start = datetime.fromisoformat(lock["date_time"])
            held.append((lock["table_id"], start, start + timedelta(minutes=turn_minutes(lock["party_size"]))))
    return held


def free_table(
    tables: list[dict[str, Any]],
    held: list[tuple[str, datetime, datetime]],
    moment: datetime,
    party_size: int,
    section: str | None,
) -> dict[str, Any] | None:
    """The smallest table of a section that seats the party and is free for its whole turn."""
    end = moment + timedelta(minutes=turn_minutes(party_size))
    fitting = sorted(
        (
            t
            for t in tables
            if t["min_size"] <= party_size <= t["max_size"] and (section is None or t["section"] == section)
        ),
        key=lambda t: (t["max_size"], t["label"]),
    )
    for table in fitting:
        if not any(tid == table["id"] and start < end and moment < stop for tid, start, stop in held):
            return table
    return None


def bookable_times(
    db: Database, rest: dict[str, Any], day: datetime, experience: dict[str, Any] | None
) -> list[datetime]:
    """Times that can still be booked on a day: the seatings, or the experience's own times."""
    if experience is not None:
        if experience["date"] != day.date().isoformat():
            return []
        times = [datetime.fromisoformat(f"{experience['date']}T{t}") for t in experience["times"]]
    else:
        times = seating_times(db, rest["rid"], day)
    earliest = local_now(db) + MIN_NOTICE
    return [t for t in times if t >= earliest]


def tables_of(db: Database, rest: dict[str, Any], experience: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The tables that can be booked: every table, or the experience's section."""
    tables = db.find(dining_tables, rid=rest["rid"])
    if experience is not None:
        return [t for t in tables if t["section"] == experience["section"]]
    return tables


def overlapping_booking(db: Database, diner_id: str, moment: datetime, exclude: str | None = None) -> dict | None:
    """Another active booking of the diner within two hours of `moment`."""
    for row in db.find(reservations, diner_id=diner_id):
        if row["status"] in ("pending", "booked") and row["id"] != exclude:
            if abs(datetime.fromisoformat(row["date_time"]) - moment) < timedelta(hours=2):
                return row
    return None


# ---------------------------------------------------------------- objects


def ratings(db: Database, rid: str) -> Ratings:
    """Average ratings from the restaurant's reviews."""
    rows = db.find(reviews, rid=rid)
    if not rows:
        return Ratings(overall=None, food=None, service=None, ambience=None, value=None, review_count=0)
    keys = ("overall", "food", "service", "ambience", "value")
    avg = {k: round(sum(r[k] for r in rows) / len(rows), 1) for k in keys}
    return Ratings(**avg, review_count=len(rows))


def reservation_object(db: Database, row: dict[str, Any]) -> ReservationObject:
    """A reservation row as the API returns it."""
    rest = db.get(restaurants, row["rid"], "Restaurant")
    experience = db.get(experiences, row["experience_id"], "Experience") if row["experience_id"] else None
    table = db.get(dining_tables, row["table_id"], "Table")
    moment = datetime.fromisoformat(row["date_time"])
    return ReservationObject(
        confirmation_number=row["id"],
        restaurant=RestaurantRef(rid=rest["rid"], name=rest["name"], neighborhood=rest["neighborhood"]),
        **{
            k: row[k]
            for k in (
                "date_time",
                "party_size",
                "status",
                "credit_card_required",
                "card_hold_status",
                "special_request",
                "occasion",
                "points",
            )
        },
        seating_option=table["section"],
        experience=experience["name"] if experience else None,
        cancellation_policy=(
            policy(rest, experience, moment, row["party_size"]) if row["credit_card_required"] else None
        ),
        reviewed=bool(db.find(reviews, reservation_id=row["id"])),
    )
