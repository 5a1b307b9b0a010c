"""OpenTable's booking rules shared by the tools: local time, seatings and turn times, which tables are free,
party limits and the booking window, card guarantees, cancellation windows and fees, bonus points."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.database import given
from envfactory_gym.values import parse_timestamp

from .schema import dining_tables, experiences, reservations, restaurants, seatings, slot_locks

UTC_OFFSET = timedelta(hours=-5)  # Chicago in daylight saving time: every restaurant of this directory
MIN_NOTICE = timedelta(minutes=15)
DAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
LOCAL_TIME_EXAMPLE = "2025-05-09T19:30"
SECTIONS = ["standard", "bar", "outdoor", "counter", "private_room"]


# ---------------------------------------------------------------- time


def local_now(db: Database) -> datetime:
    """The restaurants' local wall-clock time (naive)."""
    return (db.now() + UTC_OFFSET).replace(tzinfo=None)


def parse_date_time(value: str) -> datetime:
    """A local 'YYYY-MM-DDTHH:MM' (the argument type admits only that shape, seconds allowed) as a naive wall-clock
    datetime to the minute: parsed as a zoneless timestamp, then kept zoneless."""
    moment = parse_timestamp(value, "date_time", LOCAL_TIME_EXAMPLE, naive_as_utc=True)
    return moment.replace(tzinfo=None, second=0)


def starts_at(row: dict[str, Any]) -> datetime:
    """When a stored reservation or slot lock begins (its local 'YYYY-MM-DDTHH:MM')."""
    return datetime.fromisoformat(row["date_time"])


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


def restaurant(db: Database, rid: str) -> dict[str, Any]:
    """A restaurant of the directory."""
    found = db.find(restaurants, rid=str(rid))
    if not found:
        raise NotFound(f"Restaurant {rid} not found.")
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


def policy_terms(rest: dict[str, Any], experience: dict[str, Any] | None, moment: datetime) -> tuple[datetime, int]:
    """A guaranteed booking's terms: free cancellation until (local), and the fee per guest (cents) after that or
    for a no-show; an experience's own terms win over the restaurant's."""
    source = experience or rest
    return moment - timedelta(hours=source["cancellation_window_hours"]), source["no_show_fee_per_person"]


def inside_window(db: Database, row: dict[str, Any], rest: dict[str, Any], experience: dict[str, Any] | None) -> bool:
    """Whether a reservation's cancellation window has begun."""
    until, _ = policy_terms(rest, experience, starts_at(row))
    return local_now(db) > until


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
    on_day = "rid = ? AND date_time >= ? AND date_time < ?"
    span = (rid, day, f"{day}T99")
    booked = db.select(reservations, f"{on_day} AND status IN ('pending', 'booked', 'seated')", span)
    locks = db.select(slot_locks, f"{on_day} AND used = 0 AND expires_at > ?", (*span, db.now_iso()))
    for row in [r for r in booked if r["id"] != exclude] + locks:
        start = starts_at(row)
        held.append((row["table_id"], start, start + timedelta(minutes=turn_minutes(row["party_size"]))))
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


def refuse_overlap(db: Database, diner_id: str, moment: datetime, exclude: str | None = None) -> None:
    """OpenTable allows no two active bookings of a diner within two hours of each other."""
    for row in db.select(reservations, "diner_id = ? AND status IN ('pending', 'booked')", (diner_id,)):
        if row["id"] != exclude and abs(starts_at(row) - moment) < timedelta(hours=2):
            raise Conflict(
                f"You already have a reservation at {row['date_time']} (confirmation {row['id']}); "
                "OpenTable doesn't allow overlapping reservations."
            )


def refuse_unbookable(db: Database, rest: dict[str, Any], moment: datetime, experience: dict[str, Any] | None) -> None:
    """A time must be one of the restaurant's (or the experience's) bookable times."""
    if moment not in bookable_times(db, rest, moment, experience):
        raise InvalidRequest(f"{fmt(moment)} is not a bookable time at {rest['name']}; use find_availability.")


def refuse_without_card(diner: dict[str, Any], rest: dict[str, Any], needs_card: bool) -> None:
    """A guarantee needs a card saved on the account."""
    if needs_card and diner["card"] is None:
        raise InvalidRequest(
            f"{rest['name']} needs a credit card guarantee for this booking; add a card to your "
            "OpenTable account first."
        )


# ---------------------------------------------------------------- directory


def directory(
    db: Database, query: str, neighborhood: str | None, cuisine: str | None, price_band: str | None
) -> list[dict[str, Any]]:
    """Restaurants whose name, neighborhood, description or cuisines hold every word of `query`, in the
    neighborhood and serving the cuisine given (any case), at the price band given."""
    words = query.casefold().split()
    found = []
    for rest in db.find(restaurants, **given(price_band=price_band)):
        text = " ".join([rest["name"], rest["neighborhood"], rest["description"], *rest["cuisines"]]).casefold()
        if not all(w in text for w in words):
            continue
        if neighborhood and rest["neighborhood"].casefold() != neighborhood.casefold():
            continue
        if cuisine and cuisine.casefold() not in (c.casefold() for c in rest["cuisines"]):
            continue
        found.append(rest)
    return found


def open_slots(
    db: Database,
    rest: dict[str, Any],
    moment: datetime,
    party_size: int,
    span: tuple[int, int],
    experience: dict[str, Any] | None,
) -> list[tuple[datetime, list[str]]]:
    """Bookable times from `span[0]` minutes before to `span[1]` after `moment`, each with the seating sections
    that have a free table for the party then."""
    tables = tables_of(db, rest, experience)
    held = busy_tables(db, rest["rid"], moment.date().isoformat())
    low, high = moment - timedelta(minutes=span[0]), moment + timedelta(minutes=span[1])
    slots = []
    for when in bookable_times(db, rest, moment, experience):
        if low <= when <= high:
            options = sorted(
                {t["section"] for t in tables if free_table([t], held, when, party_size, None)}, key=SECTIONS.index
            )
            if options:
                slots.append((when, options))
    return slots
