"""Event times: all-day dates and zoned date-times as the API takes them, as the table stores them (UTC), and the
instants an event spans."""

from __future__ import annotations

from datetime import date, datetime, time, timezone
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from envfactory_gym import InvalidRequest
from envfactory_gym.values import iso_timestamp, parse_date

if TYPE_CHECKING:
    from .objects import EventDateTime

UTC = timezone.utc
#: ("date", date, zone name) for an all-day time, ("dateTime", aware datetime, zone name) for a timed one.
When = tuple[str, Any, str]


def zone(name: str, what: str = "time zone") -> ZoneInfo:
    """An IANA time zone; InvalidRequest naming `what` otherwise."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidRequest(f"Invalid {what} definition: {name!r} is not an IANA time zone.") from None


def utc(text: str) -> datetime:
    """A stored UTC timestamp (2025-03-04T15:00:00Z) as an aware datetime."""
    return datetime.fromisoformat(text)


def stored(moment: datetime) -> str:
    """An instant as the table stores it: UTC with a Z."""
    return iso_timestamp(moment)


def when(value: EventDateTime, zone_name: str, which: str) -> When:
    """An event's start or end as given: a date, or a date-time read in its offset or else in its time zone."""
    if (value.date is None) == (value.dateTime is None):
        raise InvalidRequest(f"Invalid {which} time: give either date (all-day) or dateTime.")
    zone_name = value.timeZone or zone_name
    local = zone(zone_name, f"time zone for {which} time")
    if value.date is not None:
        return "date", parse_date(value.date, f"{which}.date", example="2025-03-04"), zone_name
    try:
        moment = datetime.fromisoformat(value.dateTime)  # type: ignore[arg-type]
    except ValueError:
        raise InvalidRequest(f"Invalid {which} dateTime {value.dateTime!r}: use RFC3339.") from None
    if moment.tzinfo is None:
        if value.timeZone is None:
            raise InvalidRequest(f"Missing time zone definition for {which} time.")
        moment = moment.replace(tzinfo=local)
    return "dateTime", moment, zone_name


def time_columns(start: When, end: When) -> dict[str, Any]:
    """The stored time columns of an event; the end must be of the same kind and after the start."""
    if start[0] != end[0]:
        raise InvalidRequest("Invalid end time: start and end must both be dates or both be dateTimes.")
    if not end[1] > start[1]:
        raise InvalidRequest("timeRangeEmpty: The specified time range is empty (the end must be after the start).")
    if start[0] == "date":
        return {
            "start_date": start[1].isoformat(),
            "end_date": end[1].isoformat(),
            "start_date_time": None,
            "end_date_time": None,
            "time_zone": start[2],
        }
    return {
        "start_date": None,
        "end_date": None,
        "start_date_time": stored(start[1]),
        "end_date_time": stored(end[1]),
        "time_zone": start[2],
    }


def span(row: dict[str, Any]) -> tuple[datetime, datetime]:
    """An event's start and end as UTC instants (all-day events span local midnights of their time zone)."""
    if row["start_date"]:
        local = ZoneInfo(row["time_zone"])
        begins = datetime.combine(date.fromisoformat(row["start_date"]), time(), local)
        ends = datetime.combine(date.fromisoformat(row["end_date"]), time(), local)
        return begins.astimezone(UTC), ends.astimezone(UTC)
    return utc(row["start_date_time"]), utc(row["end_date_time"])


def overlaps(period: tuple[datetime, datetime], lo: datetime, hi: datetime) -> bool:
    """Whether a period overlaps [lo, hi)."""
    return period[1] > lo and period[0] < hi


def first_day(row: dict[str, Any]) -> date:
    """The local day an event (or a series' first instance) starts on."""
    if row["start_date"]:
        return date.fromisoformat(row["start_date"])
    return utc(row["start_date_time"]).astimezone(ZoneInfo(row["time_zone"])).date()
