"""Quick add: the Calendar app's one-line event sentences ("Dentist Friday 3:30pm at Back Bay Dental") read into a
title, a day, an optional time range and a place."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, time, timedelta
from typing import Any, Callable

from envfactory_gym import InvalidRequest

WEEKDAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = {
    name: i
    for i, name in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1
    )
}
_TIME = r"(noon|midnight|\d{1,2}(?::\d{2})?\s*(?:am|pm)?)"


@dataclass(frozen=True)
class QuickEvent:
    """What a quick-add sentence says: no `starts` means an all-day event, no `ends` an hour-long one."""

    summary: str
    day: date
    starts: time | None
    ends: time | None
    place: str


def parse(text: str, today: date) -> QuickEvent:
    """Read a quick-add sentence; the day defaults to `today`. InvalidRequest when it has no title, an unreadable
    time or date, or an end before its start."""
    rest = " " + text.strip() + " "
    place = ""
    located = re.search(r"\s+at\s+([A-Za-z][^,]*?)\s*$", rest)
    if located and not re.fullmatch(_TIME, located.group(1).strip(), re.I):
        place, rest = located.group(1).strip(), rest[: located.start()] + " "
    starts = ends = None
    timed = next(
        (
            m
            for m in re.finditer(rf"\s(?:at\s+|from\s+)?{_TIME}(?:\s*(?:-|to|until)\s*{_TIME})?(?=\s)", rest, re.I)
            if _is_clock(m.group(1)) or _is_clock(m.group(2) or "")
        ),
        None,
    )
    if timed:
        start_text, end_text = timed.group(1), timed.group(2)
        if end_text and not re.search(r"am|pm", start_text, re.I) and re.search(r"am|pm", end_text, re.I):
            start_text += end_text.strip()[-2:]
        starts, ends = _clock(start_text), _clock(end_text) if end_text else None
        rest = rest[: timed.start()] + " " + rest[timed.end() :]
    day, rest = _day(rest, today)
    summary = re.sub(r"\s+", " ", re.sub(r"\s(on|at|from)\s*$", " ", rest)).strip(" ,-")
    if not summary:
        raise InvalidRequest("Quick add needs a title, e.g. 'Lunch with Ana tomorrow at noon'.")
    if starts is not None and ends is not None and ends <= starts:
        raise InvalidRequest("timeRangeEmpty: The specified time range is empty.")
    return QuickEvent(summary, day, starts, ends, place)


def _is_clock(text: str) -> bool:
    """Whether a matched number is a time of day (has minutes, am/pm, or is noon/midnight), not a day of month."""
    return bool(re.search(r":|am|pm|noon|midnight", text, re.I))


def _clock(text: str) -> time:
    value = text.strip().lower().replace(" ", "")
    if value in ("noon", "midnight"):
        return time(12) if value == "noon" else time(0)
    match = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?(am|pm)?", value)
    if not match:
        raise InvalidRequest(f"Quick add could not read the time {text!r}.")
    hour, minute, half = int(match.group(1)), int(match.group(2) or 0), match.group(3)
    if half:
        if not 1 <= hour <= 12:
            raise InvalidRequest(f"Quick add could not read the time {text!r}.")
        hour = hour % 12 + (12 if half == "pm" else 0)
    if hour > 23 or minute > 59:
        raise InvalidRequest(f"Quick add could not read the time {text!r}.")
    return time(hour, minute)


def _day(rest: str, today: date) -> tuple[date, str]:
    """The day named in a quick-add sentence (default today) and the sentence without it."""
    patterns: list[tuple[str, Callable[[Any], date]]] = [
        (r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: date(int(m[1]), int(m[2]), int(m[3]))),
        (r"\btoday\b", lambda m: today),
        (r"\btomorrow\b", lambda m: today + timedelta(days=1)),
        (
            r"\b(?:on\s+)?(?:next\s+)?(" + "|".join(WEEKDAY_NAMES) + r")\b",
            lambda m: today + timedelta(days=(WEEKDAY_NAMES.index(m[1].lower()) - today.weekday() - 1) % 7 + 1),
        ),
        (
            r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b",
            lambda m: _next_date(today, MONTHS[m[1].lower()], int(m[2])),
        ),
        (
            r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
            lambda m: _next_date(today, MONTHS[m[2].lower()], int(m[1])),
        ),
    ]
    for pattern, make in patterns:
        match = re.search(pattern, rest, re.I)
        if match:
            try:
                day = make(match)
            except ValueError:
                raise InvalidRequest(f"Quick add could not read the date in {match.group(0)!r}.") from None
            return day, rest[: match.start()] + " " + rest[match.end() :]
    return today, rest


def _next_date(today: date, month: int, day: int) -> date:
    candidate = date(today.year, month, day)
    return candidate if candidate >= today else date(today.year + 1, month, day)
