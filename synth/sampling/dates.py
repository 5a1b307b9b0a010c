"""Dates and times a user would give: the format the state already uses, near the simulated clock.

Whether an input is a date comes from its schema (`format`, a date `pattern`), its name (`pickup_datetime`,
`check_in`, `post_at`, `since`) or the values the state holds under that name. The value keeps the layout of
those values (`2025-06-20`, `2025-06-20T14:00`, `2025-06-20T14:00:00Z`, Unix seconds) and their time of day,
and lands near the clock: what starts a span (pickup, check-in, departure) a few days ahead, what ends it
(return, check-out, expiry) a few days later still, range filters (`since`, `until`) a month either side,
birthdays in the past as the state has them, anything else up to two weeks either side; unless an error said the
date must lie in the past or in the future (`side`).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any, Sequence

import numpy as np

DATE_NAME = re.compile(
    r"(^|_)(date|datetime|day|at|time|deadline|due|start|end|until|since|birthday|check_?in|check_?out|"
    r"expiration|expires|departure|arrival|pickup|dropoff|post)(_|$)"
)
_ISO = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(:\d{2}(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$")
_LATER = re.compile(r"(^|_)(end|to|return|check_?out|expires|expiration|due|deadline|arrival|dropoff)(_|$)")
_EARLIER = re.compile(r"(^|_)(start|from|pickup|check_?in|departure|begin)(_|$)")
_PAST = re.compile(r"(^|_)(birth|birthday|born|dob)(_|$)")
UNIX_FLOOR = 1_000_000_000


def is_date_name(name: str) -> bool:
    """Whether a parameter name says it is a date or time (`pickup_datetime`, `check_in`, `post_at`)."""
    return bool(DATE_NAME.search(name.lower()))


def _offset_days(name: str, rng: np.random.Generator, side: int = 0) -> int:
    """Days from the clock for a date input; `side` -1 or 1 forces the past or the future (an error said so)."""
    if side:
        return side * int(rng.integers(1, 15))
    lowered = name.lower()
    if lowered in ("since", "from_date", "start_date") or lowered.endswith("since"):
        return -30
    if lowered in ("until", "to_date") or lowered.endswith("until"):
        return 30
    if _LATER.search(lowered):
        return int(rng.integers(5, 10))
    if _EARLIER.search(lowered):
        return int(rng.integers(1, 5))
    days = int(rng.integers(1, 15))
    return days if rng.random() < 0.5 else -days


def date_string(
    name: str,
    schema: dict[str, Any],
    existing: Sequence[str],
    clock: datetime,
    rng: np.random.Generator,
    side: int = 0,
) -> str | None:
    """A date-like string for an input, or None when neither its schema, its name nor the state's values under
    that name say it is a date; `side` -1 or 1 puts it before or after the clock."""
    fmt = schema.get("format", "")
    pattern = schema.get("pattern", "")
    iso = [v for v in existing if isinstance(v, str) and _ISO.match(v)]
    dated = fmt in ("date", "date-time") or r"\d{4}-\d{2}" in pattern or (existing and len(iso) >= 0.8 * len(existing))
    if not dated and not (is_date_name(name) and not existing):
        return None
    if _PAST.search(name.lower()) and iso:
        return iso[int(rng.integers(len(iso)))]
    moment = clock + timedelta(days=_offset_days(name, rng, side))
    template = iso[0] if iso else None
    if template is None:
        if fmt == "date-time":
            template = "2000-01-01T10:00:00Z"
        elif "T" in pattern and r"\d{2}:\d{2}" in pattern:
            template = "2000-01-01T10:00" + (":00" if r":\d{2}:\d{2}" in pattern else "")
        else:
            template = "2000-01-01"
    _, hour, minute, seconds, zone = _ISO.match(template).groups()
    text = moment.strftime("%Y-%m-%d")
    if hour is not None:
        text += f"T{hour}:{minute}{seconds or ''}" + (zone or "")
    return _fitting(text, pattern)


def _fitting(text: str, pattern: str) -> str:
    """The date in the layout the input's `pattern` accepts when the state's layout is not one (a time without
    its zone where the pattern wants `Z`: add it; a time where only a day is allowed: the day)."""
    if not pattern or re.search(pattern, text):
        return text
    day, _, time = text.partition("T")
    time = time.rstrip("Z")
    for variant in (f"{text}Z", f"{day}T{time}Z", f"{day}T{time[:5]}", f"{day}T{time[:5]}Z", day):
        if re.search(pattern, variant):
            return variant
    return text


def unix_time(
    name: str, existing: Sequence[Any], clock: datetime, rng: np.random.Generator, side: int = 0
) -> int | None:
    """Unix seconds near the clock for an integer date input (`post_at`) whose state values are Unix times;
    `side` as for `date_string`."""
    if not is_date_name(name) or not existing:
        return None
    if not all(isinstance(v, (int, float)) and v >= UNIX_FLOOR for v in existing):
        return None
    moment = clock + timedelta(days=_offset_days(name, rng, side), hours=int(rng.integers(1, 9)))
    return int(moment.timestamp())
