"""Opening hours as the Places API reports them: regular periods and weekday descriptions, the current week with
its special days, openNow and the next open/close time, all from the stored local hours and the simulated clock."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from envfactory_gym import Database
from envfactory_gym.values import parse_timestamp

Interval = tuple[datetime, datetime]
WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
ALL_DAY = ["00:00", "24:00"]


def local_now(db: Database, place: dict[str, Any]) -> datetime:
    """The place's local wall-clock time (naive)."""
    return (db.now() + timedelta(minutes=place["utc_offset_minutes"])).replace(tzinfo=None)


def local_date(moment: str, place: dict[str, Any]) -> date:
    """The local date, at a place, of a UTC timestamp such as 2025-06-12T18:30:00Z."""
    utc = parse_timestamp(moment, "time")
    return (utc + timedelta(minutes=place["utc_offset_minutes"])).date()


def google_day(day: date) -> int:
    """The Places API weekday number: 0 Sunday .. 6 Saturday."""
    return (day.weekday() + 1) % 7


def _clock(value: str) -> tuple[int, int]:
    hour, minute = value.split(":")
    return int(hour), int(minute)


def _hours_on(place: dict[str, Any], day: date) -> list[list[str]]:
    """The intervals that start on `day`: the special hours of that date if any, else the weekday's."""
    for special in place["special_days"]:
        if special["date"] == day.isoformat():
            return special["hours"]
    return (place["opening_hours"] or {}).get(str(google_day(day)), [])


def _span(day: date, interval: list[str]) -> Interval:
    start_hour, start_minute = _clock(interval[0])
    end_hour, end_minute = _clock(interval[1])
    base = datetime(day.year, day.month, day.day)
    start = base + timedelta(hours=start_hour, minutes=start_minute)
    end = base + timedelta(hours=end_hour, minutes=end_minute)
    return start, end if end > start else end + timedelta(days=1)


def intervals(place: dict[str, Any], first: date, days: int) -> list[Interval]:
    """Opening intervals starting on `days` consecutive dates from `first`, touching ones merged."""
    dates = [first + timedelta(days=n) for n in range(days)]
    spans = sorted(_span(day, iv) for day in dates for iv in _hours_on(place, day))
    merged: list[Interval] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def has_hours(place: dict[str, Any]) -> bool:
    """Whether the place publishes opening hours."""
    return place["opening_hours"] is not None


def is_open(place: dict[str, Any], moment: datetime) -> bool:
    """Whether an operational place is open at a local moment."""
    if place["business_status"] != "OPERATIONAL" or not has_hours(place):
        return False
    return any(start <= moment < end for start, end in intervals(place, moment.date() - timedelta(days=1), 2))


def open_now(db: Database, place: dict[str, Any]) -> bool | None:
    """openNow: null for a place without published hours, false unless operational."""
    if not has_hours(place) and place["business_status"] == "OPERATIONAL":
        return None
    return is_open(place, local_now(db, place))


def _always_open(place: dict[str, Any]) -> bool:
    hours = place["opening_hours"] or {}
    return all(hours.get(str(day)) == [ALL_DAY] for day in range(7))


def _ampm(hour: int, minute: int) -> str:
    suffix = "AM" if hour % 24 < 12 else "PM"
    return f"{(hour % 12) or 12}:{minute:02d} {suffix}"


def describe(day_hours: list[list[str]]) -> str:
    """One day's hours as Google Maps writes them: '9:00 AM – 5:00 PM', 'Closed', 'Open 24 hours'."""
    if not day_hours:
        return "Closed"
    if day_hours == [ALL_DAY]:
        return "Open 24 hours"
    return ", ".join(f"{_ampm(*_clock(a))} – {_ampm(*_clock(b))}" for a, b in day_hours)


def _point(day: int, value: str, when: date | None = None) -> dict[str, Any]:
    hour, minute = _clock(value)
    if hour == 24:
        day, hour = (day + 1) % 7, 0
        when = when + timedelta(days=1) if when else None
    point: dict[str, Any] = {"day": day, "hour": hour, "minute": minute}
    if when is not None:
        point["date"] = when.isoformat()
    return point


def _close_point(day: int, interval: list[str], when: date | None) -> dict[str, Any]:
    wraps = _clock(interval[1]) <= _clock(interval[0]) and interval[1] != "24:00"
    if wraps:
        return _point((day + 1) % 7, interval[1], when + timedelta(days=1) if when else None)
    return _point(day, interval[1], when)


def _periods(days: list[tuple[int, date | None, list[list[str]]]]) -> list[dict[str, Any]]:
    return [
        {"open": _point(day, iv[0], when), "close": _close_point(day, iv, when)}
        for day, when, hours in days
        for iv in hours
    ]


def regular_opening_hours(db: Database, place: dict[str, Any]) -> dict[str, Any] | None:
    """regularOpeningHours: periods (0 Sunday) and weekday descriptions from Monday."""
    if not has_hours(place):
        return None
    hours = place["opening_hours"]
    if _always_open(place):
        periods = [{"open": {"day": 0, "hour": 0, "minute": 0}, "close": None}]
    else:
        periods = _periods([(day, None, hours.get(str(day), [])) for day in range(7)])
    descriptions = [f"{WEEKDAYS[d]}: {describe(hours.get(str(d), []))}" for d in (1, 2, 3, 4, 5, 6, 0)]
    return {"open_now": open_now(db, place), "periods": periods, "weekday_descriptions": descriptions}


def current_opening_hours(db: Database, place: dict[str, Any]) -> dict[str, Any] | None:
    """currentOpeningHours: the next seven days from today with dated periods, special days applied."""
    if not has_hours(place):
        return None
    now = local_now(db, place)
    week = [now.date() + timedelta(days=n) for n in range(7)]
    special = {s["date"] for s in place["special_days"]}
    periods = _periods([(google_day(d), d, _hours_on(place, d)) for d in week])
    descriptions = [f"{WEEKDAYS[google_day(d)]}: {describe(_hours_on(place, d))}" for d in week]
    upcoming = [iv for iv in intervals(place, now.date() - timedelta(days=1), 9) if iv[1] > now]
    offset = timedelta(minutes=place["utc_offset_minutes"])
    operational = place["business_status"] == "OPERATIONAL"
    current = next((iv for iv in upcoming if iv[0] <= now), None) if operational else None
    later = [iv for iv in upcoming if iv[0] > now] if operational else []
    return {
        "open_now": is_open(place, now),
        "periods": periods,
        "weekday_descriptions": descriptions,
        "special_days": sorted(d.isoformat() for d in week if d.isoformat() in special),
        "next_open_time": _utc(later[0][0] - offset) if later and current is None else None,
        "next_close_time": _utc(current[1] - offset) if current and current[1] < now + timedelta(days=7) else None,
    }


def _utc(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
