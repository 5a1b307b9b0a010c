"""Calendly's scheduling rules: who is signed in and what their role lets them touch, and the open times of an
event type: its availability schedule in the schedule's time zone with date overrides, start times every 30
minutes, the minimum scheduling notice, buffers before and after kept free of the host's other meetings (and
theirs), a daily limit, and seats left on group events."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .schema import availability_schedules, event_types, invitees, scheduled_events, sessions, users

INCREMENT_MINUTES = 30
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
NO_PERMISSION = "You do not have permission to access this resource."


def me(db: Database) -> dict[str, Any]:
    """The signed-in user."""
    session = db.current_session(sessions, "Unauthenticated: the access token is missing; sign in first.")
    return db.get(users, session["user"], "User")


def can_manage(db: Database, owner: str) -> dict[str, Any]:
    """The signed-in user, when they own the thing or are an admin or owner of its organization."""
    user = me(db)
    if user["uuid"] != owner and user["role"] not in ("owner", "admin"):
        raise PermissionDenied(NO_PERMISSION)
    return user


def event_type(db: Database, uuid: str) -> dict[str, Any]:
    """An event type of the signed-in user's organization."""
    row = db.find_one(event_types, not_found=f"Event type {uuid} not found.", uuid=uuid.strip())
    owner = db.get(users, row["owner"], "User")
    if owner["organization"] != me(db)["organization"]:
        raise PermissionDenied(NO_PERMISSION)
    return row


def scheduled_event(db: Database, uuid: str) -> dict[str, Any]:
    """A scheduled event of the signed-in user's organization."""
    row = db.find_one(scheduled_events, not_found=f"Scheduled event {uuid} not found.", uuid=uuid.strip())
    host = db.get(users, row["host"], "User")
    if host["organization"] != me(db)["organization"]:
        raise PermissionDenied(NO_PERMISSION)
    return row


def invitee(db: Database, uuid: str) -> dict[str, Any]:
    """An invitee of one of the organization's events."""
    row = db.find_one(invitees, not_found=f"Invitee {uuid} not found.", uuid=uuid.strip())
    scheduled_event(db, row["event"])
    return row


def _intervals(schedule: dict[str, Any], day: date) -> list[tuple[str, str]]:
    """The open wall-clock intervals of `day`: a date override wins over the weekday rule."""
    for rule in schedule["rules"]:
        if rule["type"] == "date" and rule["date"] == day.isoformat():
            return [(i["from"], i["to"]) for i in rule["intervals"]]
    for rule in schedule["rules"]:
        if rule["type"] == "wday" and rule["wday"] == WEEKDAYS[day.weekday()]:
            return [(i["from"], i["to"]) for i in rule["intervals"]]
    return []


def _busy(
    db: Database, host: str, first: datetime, last: datetime, skip: str | None
) -> list[tuple[datetime, datetime]]:
    """The host's active meetings near [first, last] (except event `skip`), each widened by its own event type's
    buffers."""
    rows = db.select(
        scheduled_events,
        "host = ? AND status = 'active' AND start_time < ? AND end_time > ?",
        (host, iso_timestamp(last), iso_timestamp(first)),
    )
    spans = []
    for row in rows:
        if row["uuid"] == skip:
            continue
        etype = db.get(event_types, row["event_type"], "Event type")
        spans.append(
            (
                parse_timestamp(row["start_time"], "start_time") - timedelta(minutes=etype["buffer_before"]),
                parse_timestamp(row["end_time"], "end_time") + timedelta(minutes=etype["buffer_after"]),
            )
        )
    return spans


def _seats_taken(db: Database, etype: dict[str, Any], start: str) -> tuple[str | None, int]:
    """For a group event type, the active event already at `start` and its active invitees."""
    found = db.select(
        scheduled_events, "event_type = ? AND status = 'active' AND start_time = ?", (etype["uuid"], start)
    )
    if not found:
        return None, 0
    taken = db.select(invitees, "event = ? AND status = 'active'", (found[0]["uuid"],))
    return found[0]["uuid"], len(taken)


def open_times(
    db: Database, etype: dict[str, Any], first_day: date, days: int, skip: str | None = None
) -> list[tuple[datetime, int]]:
    """Start times (UTC) bookable for `etype` from `first_day` for `days` days in the schedule's zone, with
    the seats left at each."""
    schedule = db.get(availability_schedules, etype["schedule"], "Availability schedule")
    zone = ZoneInfo(schedule["timezone"])
    now = db.now()
    earliest = now + timedelta(minutes=etype["min_booking_notice"])
    length = timedelta(minutes=etype["duration"])
    before, after = timedelta(minutes=etype["buffer_before"]), timedelta(minutes=etype["buffer_after"])
    window_start = datetime.combine(first_day, datetime.min.time(), zone) - timedelta(days=1)
    busy = _busy(db, etype["owner"], window_start, window_start + timedelta(days=days + 2), skip)
    found: list[tuple[datetime, int]] = []
    for offset in range(days):
        day = first_day + timedelta(days=offset)
        if not _under_daily_limit(db, etype, day, zone, skip):
            continue
        for start_text, end_text in _intervals(schedule, day):
            local = datetime.combine(day, datetime.strptime(start_text, "%H:%M").time(), zone)
            close = datetime.combine(day, datetime.strptime(end_text, "%H:%M").time(), zone)
            while local + length <= close:
                start = local.astimezone(timezone.utc)
                seats = _seats_at(db, etype, start, busy, before, after, length, skip)
                if start >= earliest and seats > 0:
                    found.append((start, seats))
                local += timedelta(minutes=INCREMENT_MINUTES)
    return found


def _seats_at(
    db: Database,
    etype: dict[str, Any],
    start: datetime,
    busy: list[tuple[datetime, datetime]],
    before: timedelta,
    after: timedelta,
    length: timedelta,
    skip: str | None,
) -> int:
    """Seats left at `start`: a group event already there keeps its remaining seats; otherwise the padded
    meeting must not touch another of the host's meetings (with that meeting's own buffers)."""
    if etype["kind"] == "group":
        existing, taken = _seats_taken(db, etype, iso_timestamp(start))
        if existing is not None:
            return etype["max_invitees"] - taken
    low, high = start - before, start + length + after
    if any(b_start < high and b_end > low for b_start, b_end in busy):
        return 0
    return etype["max_invitees"]


def _under_daily_limit(db: Database, etype: dict[str, Any], day: date, zone: ZoneInfo, skip: str | None) -> bool:
    """Whether the event type's daily limit leaves room on `day` (in the schedule's zone)."""
    if etype["max_events_per_day"] is None:
        return True
    low = datetime.combine(day, datetime.min.time(), zone).astimezone(timezone.utc)
    rows = db.select(
        scheduled_events,
        "event_type = ? AND status = 'active' AND start_time >= ? AND start_time < ?",
        (etype["uuid"], iso_timestamp(low), iso_timestamp(low + timedelta(days=1))),
    )
    return len([r for r in rows if r["uuid"] != skip]) < etype["max_events_per_day"]


def check_bookable(db: Database, etype: dict[str, Any], start: datetime, skip: str | None = None) -> None:
    """Refuse a start time the event type does not offer right now, saying why."""
    if not etype["active"]:
        raise Conflict(f"Event type {etype['uuid']} is inactive and can't be booked.")
    if start < db.now() + timedelta(minutes=etype["min_booking_notice"]):
        hours = etype["min_booking_notice"] / 60
        raise InvalidRequest(f"The start time is inside the minimum scheduling notice of {hours:g} hours.")
    schedule = db.get(availability_schedules, etype["schedule"], "Availability schedule")
    day = start.astimezone(ZoneInfo(schedule["timezone"])).date()
    if not _under_daily_limit(db, etype, day, ZoneInfo(schedule["timezone"]), skip):
        raise Conflict(f"The daily limit of {etype['max_events_per_day']} events for this event type is reached.")
    if all(slot != start for slot, _ in open_times(db, etype, day, 1, skip)):
        raise Conflict("The selected time is no longer available.")


def end_of(etype: dict[str, Any], start: datetime) -> str:
    """The end timestamp of a meeting of `etype` starting at `start`."""
    return iso_timestamp(start + timedelta(minutes=etype["duration"]))
