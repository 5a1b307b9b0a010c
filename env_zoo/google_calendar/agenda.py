"""Which events a calendar shows: the events it organizes and the invitations it received, recurring series expanded
into their instances with single-instance exceptions in their place, and one event found by its ID."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from envfactory_gym import Database, InvalidRequest, NotFound
from envfactory_gym.fastpath import reader

from . import recurrence as rrule
from .schema import events
from .times import UTC, overlaps, span, stored, utc

Row = dict[str, Any]


def guest_entry(row: Row, email: str) -> dict[str, Any] | None:
    """`email`'s attendee entry on an event, if invited."""
    return next((a for a in row["attendees"] if a["email"] == email), None)


def organizes(cal: Row, row: Row) -> bool:
    """Whether this calendar holds the organizer's copy of the event."""
    return row["calendar_id"] == cal["id"]


def shows(cal: Row, row: Row) -> bool:
    """Whether an event appears on a calendar: it organizes it, or (a person's or a room's calendar) it is invited;
    a room shows only the invitations it accepted."""
    if organizes(cal, row):
        return True
    if cal["kind"] not in ("primary", "resource"):
        return False
    guest = guest_entry(row, cal["id"])
    return guest is not None and (cal["kind"] == "primary" or guest["responseStatus"] == "accepted")


def select_events(db: Database, where: str, params: tuple[Any, ...]) -> list[Row]:
    """Events matching an SQL condition, in ID order, decoded as `db.find` decodes them: one plain statement, for
    the conditions `db.find`'s equalities can't say (a time window, a guest named in the attendees)."""
    rows = reader(events)
    sql = f"{rows.select} WHERE {where} ORDER BY id"  # type: ignore[union-attr]
    cursor = db.conn.connection.driver_connection.execute(sql, params)  # type: ignore[union-attr]
    return [rows.decode(values) for values in cursor.fetchall()]  # type: ignore[union-attr]


def _window(lo: datetime, hi: datetime) -> tuple[str, tuple[Any, ...]]:
    """Stored events that may overlap [lo, hi): every series, timed events by their UTC times, all-day events by
    their dates give or take a day (their zone decides; `span` settles it)."""
    day = timedelta(days=1)
    return (
        "(json_array_length(recurrence) > 0 OR (start_date_time < ? AND end_date_time > ?)"
        " OR (start_date <= ? AND end_date >= ?))",
        (stored(hi), stored(lo), (hi + day).date().isoformat(), (lo - day).date().isoformat()),
    )


def rows_on(db: Database, cal: Row, lo: datetime | None = None, hi: datetime | None = None) -> list[Row]:
    """The stored events (series as one row, exceptions included) a calendar shows; with a window, only those
    that may overlap it."""
    window, params = _window(lo, hi) if lo is not None and hi is not None else ("1", ())
    rows = select_events(db, f"calendar_id = ? AND {window}", (cal["id"], *params))
    if cal["kind"] in ("primary", "resource"):
        invited = select_events(
            db, f"calendar_id != ? AND attendees LIKE ? AND {window}", (cal["id"], f'%"{cal["id"]}"%', *params)
        )
        rows += [r for r in invited if shows(cal, r)]
    return rows


def exceptions_of(db: Database, series: list[Row]) -> dict[str, dict[str, Row]]:
    """The stored single-instance exceptions of some series, by series ID and instance ID."""
    found: dict[str, dict[str, Row]] = {s["id"]: {} for s in series}
    if series:
        marks = ", ".join("?" * len(found))
        for row in select_events(db, f"recurring_event_id IN ({marks})", tuple(found)):
            found[row["recurring_event_id"]][row["id"]] = row
    return found


def _stamp(moment: datetime | date) -> str:
    """An instance's ID suffix: its original start, 20250310T150000Z (UTC) or 20250310 (all-day)."""
    if isinstance(moment, datetime):
        return moment.strftime("%Y%m%dT%H%M%SZ")
    return moment.strftime("%Y%m%d")


def _parse_stamp(stamp: str) -> datetime | None:
    for fmt in ("%Y%m%dT%H%M%SZ", "%Y%m%d"):
        try:
            return datetime.strptime(stamp, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    return None


def rule_of(row: Row) -> rrule.Rule:
    """A series' parsed recurrence; InvalidRequest when it does not parse."""
    try:
        return rrule.parse(row["recurrence"], ZoneInfo(row["time_zone"]))
    except ValueError as exc:
        raise InvalidRequest(str(exc)) from None


def expand(parent: Row, lo: datetime, hi: datetime, exceptions: dict[str, Row]) -> list[Row]:
    """Instances of a series overlapping [lo, hi); its exceptions replace the instances they modify, and one
    moved into the window from outside it shows there."""
    zone = ZoneInfo(parent["time_zone"])
    all_day = bool(parent["start_date"])
    if all_day:
        first: datetime | date = date.fromisoformat(parent["start_date"])
        length = date.fromisoformat(parent["end_date"]) - first  # type: ignore[operator]
        until: datetime | date = hi.astimezone(zone).date() + timedelta(days=1)
    else:
        begins = utc(parent["start_date_time"])
        length = utc(parent["end_date_time"]) - begins
        first = begins.astimezone(zone).replace(tzinfo=None)
        until = hi.astimezone(zone).replace(tzinfo=None)
    skip_before = (lo.astimezone(zone) - length).date() - timedelta(days=1)  # earlier instances end before lo
    left = dict(exceptions)
    found = []
    for local in rrule.expand(rule_of(parent), first, until, skip_before):
        if all_day:
            start_utc = datetime.combine(local, datetime.min.time(), zone).astimezone(UTC)  # type: ignore[arg-type]
            instance_id = f"{parent['id']}_{_stamp(local)}"
        else:
            start_utc = local.replace(tzinfo=zone).astimezone(UTC)  # type: ignore[union-attr]
            instance_id = f"{parent['id']}_{_stamp(start_utc)}"
        exception = left.pop(instance_id, None)
        if exception is not None:
            if overlaps(span(exception), lo, hi):
                found.append(exception)
        elif overlaps((start_utc, start_utc + _as_delta(length, zone, local)), lo, hi):
            found.append(_instance(parent, instance_id, local, start_utc, length))
    found += [e for e in left.values() if overlaps(span(e), lo, hi)]
    return found


def _as_delta(length: timedelta, zone: ZoneInfo, local: datetime | date) -> timedelta:
    """How long an instance lasts in real time (an all-day one spans local midnights, 23 or 25 hours at a clock
    change)."""
    if isinstance(local, datetime):
        return length
    begins = datetime.combine(local, datetime.min.time(), zone)
    return datetime.combine(local + length, datetime.min.time(), zone).astimezone(UTC) - begins.astimezone(UTC)


def _instance(parent: Row, instance_id: str, local: datetime | date, start_utc: datetime, length: timedelta) -> Row:
    """A virtual instance of a series (its own ID, the series' details)."""
    row = {**parent, "id": instance_id, "recurrence": [], "recurring_event_id": parent["id"]}
    if isinstance(local, datetime):
        row.update(
            start_date_time=stored(start_utc),
            end_date_time=stored(start_utc + length),
            original_start_time=stored(start_utc),
        )
    else:
        row.update(
            start_date=local.isoformat(), end_date=(local + length).isoformat(), original_start_time=local.isoformat()
        )
    return row


def single_events(db: Database, rows: list[Row], lo: datetime, hi: datetime) -> list[Row]:
    """The events of `rows` overlapping [lo, hi), every series expanded into its instances."""
    series = [r for r in rows if r["recurrence"] and not r["recurring_event_id"]]
    exceptions = exceptions_of(db, series)
    out = []
    for row in rows:
        if row["recurring_event_id"]:
            continue  # exceptions come with their series
        if row["recurrence"]:
            out += expand(row, lo, hi, exceptions[row["id"]])
        elif overlaps(span(row), lo, hi):
            out.append(row)
    return out


def listing(db: Database, cal: Row, lo: datetime, hi: datetime, single: bool, bounded: bool) -> list[Row]:
    """What events.list shows for [lo, hi): with `single`, every event and instance; otherwise events and
    exceptions by their own times, and a series whole when (if the range was `bounded`) an instance falls in it."""
    rows = rows_on(db, cal, lo, hi)
    if single:
        return single_events(db, rows, lo, hi)
    found = [r for r in rows if not r["recurrence"] and overlaps(span(r), lo, hi)]
    series = [r for r in rows if r["recurrence"]]
    if bounded:
        exceptions = exceptions_of(db, series)
        series = [r for r in series if expand(r, lo, hi, exceptions[r["id"]])]
    return found + series


def matching(rows: list[Row], q: str, names: dict[str, str]) -> list[Row]:
    """Events whose title, description, location, organizer or guests (emails or names) contain `q`."""
    needle = q.casefold()
    return [
        r
        for r in rows
        if needle
        in " ".join(
            [r["summary"], r["description"], r["location"], r["organizer_email"]]
            + [a["email"] for a in r["attendees"]]
            + [names.get(a["email"], "") for a in r["attendees"]]
        ).casefold()
    ]


def find_event(db: Database, cal: Row, event_id: str) -> Row:
    """An event, series or instance (stored or virtual) as it appears on a calendar."""
    found = db.find(events, id=event_id)
    if found and shows(cal, found[0]):
        return found[0]
    base, _, stamp = event_id.partition("_")
    parent = db.find(events, id=base) if stamp else []
    around = _parse_stamp(stamp) if stamp else None
    if parent and parent[0]["recurrence"] and shows(cal, parent[0]) and around is not None:
        exceptions = exceptions_of(db, parent)[base]
        for instance in expand(parent[0], around - timedelta(days=2), around + timedelta(days=2), exceptions):
            if instance["id"] == event_id:
                return instance
    raise NotFound(f"notFound: Event {event_id} not found on calendar {cal['id']}.")


def materialize(db: Database, row: Row) -> Row:
    """A stored row for an event; a virtual instance becomes an exception of its series."""
    if db.find(events, id=row["id"]):
        return row
    return db.insert(events, **{**row, "created": db.now_iso(), "updated": db.now_iso()})
