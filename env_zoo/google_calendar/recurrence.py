"""RFC 5545 recurrence as Google Calendar keeps it (RRULE and EXDATE strings): parsing, and expanding a series
into the local start times of its instances."""

from __future__ import annotations

import calendar as monthcal
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

WEEKDAYS = {"MO": 0, "TU": 1, "WE": 2, "TH": 3, "FR": 4, "SA": 5, "SU": 6}
FREQUENCIES = {"DAILY", "WEEKLY", "MONTHLY", "YEARLY"}
MAX_INSTANCES = 1000


@dataclass
class Rule:
    """A parsed RRULE plus the EXDATEs of the series (local wall times, or dates for all-day series)."""

    freq: str
    interval: int = 1
    count: int | None = None
    until: datetime | date | None = None
    byday: list[tuple[int, int]] = field(default_factory=list)  # (ordinal or 0, weekday)
    bymonthday: list[int] = field(default_factory=list)
    exdates: set[datetime | date] = field(default_factory=set)


def _parse_stamp(value: str, tz: ZoneInfo) -> datetime | date:
    """20250310, 20250310T100000 (local) or 20250310T140000Z (UTC) as a local wall time or a date."""
    if "T" not in value:
        return datetime.strptime(value, "%Y%m%d").date()
    if value.endswith("Z"):
        moment = datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)
        return moment.astimezone(tz).replace(tzinfo=None)
    return datetime.strptime(value, "%Y%m%dT%H%M%S")


def parse(lines: list[str], tz: ZoneInfo) -> Rule:
    """Parse the recurrence lines of an event; raises ValueError with a Google-like message."""
    rules = [line for line in lines if line.upper().startswith("RRULE:")]
    if len(rules) != 1:
        raise ValueError("Invalid recurrence rule: give exactly one RRULE line.")
    parts: dict[str, str] = {}
    for item in rules[0][6:].split(";"):
        key, _, value = item.partition("=")
        if not value:
            raise ValueError(f"Invalid recurrence rule: {rules[0]}")
        parts[key.upper()] = value.upper()
    freq = parts.pop("FREQ", "")
    if freq not in FREQUENCIES:
        raise ValueError(f"Invalid recurrence rule: FREQ must be one of {', '.join(sorted(FREQUENCIES))}.")
    try:
        rule = Rule(freq=freq, interval=int(parts.pop("INTERVAL", "1")))
        if "COUNT" in parts:
            rule.count = int(parts.pop("COUNT"))
        if "UNTIL" in parts:
            rule.until = _parse_stamp(parts.pop("UNTIL"), tz)
        for day in filter(None, parts.pop("BYDAY", "").split(",")):
            rule.byday.append((int(day[:-2] or 0), WEEKDAYS[day[-2:]]))
        rule.bymonthday = [int(d) for d in filter(None, parts.pop("BYMONTHDAY", "").split(","))]
    except (KeyError, ValueError):
        raise ValueError(f"Invalid recurrence rule: {rules[0]}") from None
    parts.pop("WKST", None)
    if parts:
        raise ValueError(f"Unsupported recurrence rule part(s): {', '.join(sorted(parts))}.")
    if rule.interval < 1 or (rule.count is not None and rule.count < 1):
        raise ValueError("Invalid recurrence rule: INTERVAL and COUNT must be positive.")
    if rule.count is not None and rule.until is not None:
        raise ValueError("Invalid recurrence rule: COUNT and UNTIL can't both be set.")
    for line in lines:
        head, _, values = line.partition(":")
        if head.upper().startswith("EXDATE"):
            rule.exdates |= {_parse_stamp(v.strip(), tz) for v in values.split(",") if v.strip()}
        elif not head.upper().startswith("RRULE"):
            raise ValueError(f"Unsupported recurrence line: {line}")
    return rule


def normalize(lines: list[str], weekday: int | None = None) -> list[str]:
    """The recurrence with its RRULE written in one canonical order (FREQ, INTERVAL, BYDAY, BYMONTHDAY, COUNT,
    UNTIL), so equivalent spellings of a rule are stored alike; other lines are kept as given. A weekly rule
    without BYDAY repeats on the series' first weekday (`weekday`, Monday = 0), which is then written out."""
    out = []
    for line in lines:
        if not line.upper().startswith("RRULE:"):
            out.append(line.strip())
            continue
        parts = dict(item.partition("=")[::2] for item in line[6:].upper().split(";") if item)
        days = [d for d in parts.get("BYDAY", "").split(",") if d]
        if not days and parts.get("FREQ") == "WEEKLY" and weekday is not None:
            days = [next(code for code, number in WEEKDAYS.items() if number == weekday)]
        days.sort(key=lambda d: (WEEKDAYS.get(d[-2:], 7), d))
        ordered = [
            ("FREQ", parts.get("FREQ")),
            ("INTERVAL", parts.get("INTERVAL") if parts.get("INTERVAL") != "1" else None),
            ("BYDAY", ",".join(days) or None),
            ("BYMONTHDAY", parts.get("BYMONTHDAY")),
            ("COUNT", parts.get("COUNT")),
            ("UNTIL", parts.get("UNTIL")),
        ]
        known = {"FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "COUNT", "UNTIL", "WKST"}
        ordered += sorted((k, v) for k, v in parts.items() if k not in known)
        out.append("RRULE:" + ";".join(f"{k}={v}" for k, v in ordered if v))
    return out


def _nth_weekday(year: int, month: int, ordinal: int, weekday: int) -> date | None:
    days = [d for d in range(1, monthcal.monthrange(year, month)[1] + 1) if date(year, month, d).weekday() == weekday]
    index = ordinal - 1 if ordinal > 0 else ordinal
    return date(year, month, days[index]) if -len(days) <= index < len(days) else None


def _period_dates(rule: Rule, first: date, k: int) -> list[date]:
    """The candidate dates of the k-th period of the rule (period length = interval units)."""
    if rule.freq == "DAILY":
        return [first + timedelta(days=k * rule.interval)]
    if rule.freq == "WEEKLY":
        monday = first - timedelta(days=first.weekday()) + timedelta(weeks=k * rule.interval)
        weekdays = sorted({wd for _, wd in rule.byday}) or [first.weekday()]
        return [monday + timedelta(days=wd) for wd in weekdays]
    if rule.freq == "MONTHLY":
        month_index = first.month - 1 + k * rule.interval
        year, month = first.year + month_index // 12, month_index % 12 + 1
        last = monthcal.monthrange(year, month)[1]
        if rule.byday:
            found = [_nth_weekday(year, month, n or 1, wd) for n, wd in rule.byday]
            return sorted(d for d in found if d is not None)
        days = rule.bymonthday or [first.day]
        return sorted(date(year, month, d if d > 0 else last + d + 1) for d in days if abs(d) <= last)
    year = first.year + k * rule.interval
    return [date(year, first.month, first.day)] if first.month != 2 or first.day != 29 or monthcal.isleap(year) else []


def _first_period(rule: Rule, first: date, skip_before: date | None) -> int:
    """The index of a period that starts no later than `skip_before`, so that every earlier period can be skipped
    (only without COUNT, which counts instances from the series' start)."""
    if skip_before is None or rule.count is not None or skip_before <= first:
        return 0
    if rule.freq == "DAILY":
        passed = (skip_before - first).days
    elif rule.freq == "WEEKLY":
        passed = (skip_before - (first - timedelta(days=first.weekday()))).days // 7
    elif rule.freq == "MONTHLY":
        passed = (skip_before.year - first.year) * 12 + skip_before.month - first.month
    else:
        passed = skip_before.year - first.year
    return max(0, passed // rule.interval - 1)


def expand(
    rule: Rule, start: datetime | date, until: datetime | date, skip_before: date | None = None
) -> list[datetime | date]:
    """Local starts (wall times, or dates) of the series from `start` up to `until` (exclusive), EXDATEs removed.
    With `skip_before`, instances starting before that day may be left out (a caller that only wants a window)."""
    first = start.date() if isinstance(start, datetime) else start
    clock = start.time() if isinstance(start, datetime) else None
    found: list[datetime | date] = []
    generated = 0
    begin = _first_period(rule, first, skip_before)
    for k in range(begin, begin + MAX_INSTANCES * 4):
        for day in _period_dates(rule, first, k):
            moment: datetime | date = datetime.combine(day, clock) if clock is not None else day
            if moment < start:
                continue
            if rule.until is not None and _after(moment, rule.until):
                return found
            if rule.count is not None and generated >= rule.count:
                return found
            if _after(moment, until) or moment == until or len(found) >= MAX_INSTANCES:
                return found
            generated += 1
            if moment not in rule.exdates:
                found.append(moment)
    return found


def _after(moment: datetime | date, bound: datetime | date) -> bool:
    """Whether `moment` is later than `bound`, comparing a date bound with a wall time by its whole day."""
    if isinstance(moment, datetime) and not isinstance(bound, datetime):
        return moment.date() > bound
    if isinstance(bound, datetime) and not isinstance(moment, datetime):
        return datetime.combine(moment, time()) > bound
    return moment > bound
