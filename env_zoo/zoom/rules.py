"""The account's rules the tools share: what a Basic user may schedule, the passcode policy, settings that exclude
each other, how a recurring meeting's occurrences are laid out, when a meeting has ended, and licence seats."""

from __future__ import annotations

import base64
import hashlib
from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Database
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .errors import conflict, invalid
from .schema import accounts, users

BASIC, LICENSED = 1, 2
INSTANT, SCHEDULED, RECURRING_NO_FIXED_TIME, RECURRING = 1, 2, 3, 8
BASIC_MAX_MINUTES = 40
NO_REGISTRATION = 2
TRASH_DAYS = 30
ACCOUNT_ID = "hp_account"

DEFAULT_SETTINGS: dict[str, Any] = {
    "host_video": True,
    "participant_video": False,
    "join_before_host": False,
    "jbh_time": 0,
    "mute_upon_entry": True,
    "waiting_room": True,
    "approval_type": NO_REGISTRATION,
    "auto_recording": "none",
    "alternative_hosts": "",
}


def moment(value: str, name: str) -> datetime:
    """A start time argument as an aware UTC datetime (Zoom's yyyy-MM-ddTHH:mm:ssZ)."""
    return parse_timestamp(value, name, "2026-03-12T15:00:00Z")


def check_host_limits(host: dict[str, Any], meeting_type: int, duration: int, settings: dict[str, Any]) -> None:
    """A Basic host's meetings: at most 40 minutes, no cloud recording, no registration."""
    if host["type"] != BASIC:
        return
    if meeting_type in (SCHEDULED, RECURRING) and duration > BASIC_MAX_MINUTES:
        raise invalid(f"Basic users can schedule meetings of at most {BASIC_MAX_MINUTES} minutes.")
    if settings["auto_recording"] == "cloud":
        raise invalid("Cloud recording is only available to Licensed users.")
    if settings["approval_type"] != NO_REGISTRATION:
        raise invalid("Registration is only available to Licensed users.")


def check_settings(settings: dict[str, Any]) -> None:
    """Join before host can't be on while the waiting room is."""
    if settings["waiting_room"] and settings["join_before_host"]:
        raise invalid("Join before host can't be enabled while the waiting room is enabled.")


def check_passcode(password: str) -> None:
    """The account's passcode policy: at least 6 characters with both letters and numbers."""
    if len(password) < 6 or not any(c.isdigit() for c in password) or not any(c.isalpha() for c in password):
        raise invalid("Passcode must be at least 6 characters and contain both letters and numbers.")


def generated_passcode(seed: str) -> str:
    """The passcode Zoom generates when none is given (deterministic per meeting)."""
    digest = hashlib.sha256(seed.encode()).hexdigest()
    return "Zm" + str(int(digest[:8], 16))[:6]


def meeting_end(meeting: dict[str, Any]) -> datetime | None:
    """When a scheduled meeting ends (None: no fixed time)."""
    if meeting["start_time"] is None:
        return None
    return moment(meeting["start_time"], "start_time") + timedelta(minutes=meeting["duration"])


def check_updatable(db: Database, meeting: dict[str, Any], upcoming: list[dict[str, Any]]) -> None:
    """A meeting that has ended (a scheduled one in the past, or a recurring one with no occurrence left) can't be
    changed."""
    if meeting["status"] == "finished":
        raise conflict(3000, "Cannot update a meeting that has already ended.")
    end = meeting_end(meeting)
    if meeting["type"] == SCHEDULED and end is not None and end <= db.now():
        raise conflict(3000, "Cannot update a meeting that has already ended.")
    if meeting["type"] == RECURRING and not upcoming:
        raise conflict(3000, "Cannot update a meeting that has already ended.")


def check_future(db: Database, start: datetime) -> None:
    """A meeting is scheduled to start in the future."""
    if start <= db.now():
        raise invalid("start_time must be in the future.")


def occurrence_starts(start: datetime, recurrence: dict[str, Any]) -> list[datetime]:
    """The starts of a recurring meeting's occurrences: daily every n days, weekly on the given weekdays every n
    weeks (1 = Sunday), monthly on a day every n months; end_times occurrences in all."""
    count, every = recurrence["end_times"], recurrence["repeat_interval"]
    starts: list[datetime] = []
    if recurrence["type"] == 1:
        return [start + timedelta(days=every * i) for i in range(count)]
    if recurrence["type"] == 2:
        days = {int(d) for d in recurrence["weekly_days"].split(",")}
        week_start = start - timedelta(days=(start.isoweekday() % 7))
        week = 0
        while len(starts) < count:
            for offset in range(7):
                day = week_start + timedelta(days=7 * week * every + offset)
                if offset + 1 in days and day >= start and len(starts) < count:
                    starts.append(day)
            week += 1
        return starts
    month, year = start.month, start.year
    while len(starts) < count:
        try:
            day = start.replace(year=year, month=month, day=recurrence["monthly_day"])
        except ValueError:
            day = None
        if day is not None and day >= start:
            starts.append(day)
        month += every
        year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return starts


def occurrence_id(start: datetime) -> str:
    """Zoom's occurrence id: the start in epoch milliseconds."""
    return str(int(start.timestamp()) * 1000)


def instance_uuid(seed: str) -> str:
    """A meeting instance's base64 UUID (deterministic)."""
    return base64.b64encode(hashlib.sha256(seed.encode()).digest()[:16]).decode()


def free_seats(db: Database, kind: str) -> int:
    """Licences (kind "type") or webinar add-ons (kind "webinar") still unassigned on the account."""
    account = db.get(accounts, ACCOUNT_ID, "Account")
    if kind == "type":
        used = len(db.find(users, type=LICENSED, status="active"))
        return account["licensed_seats"] - used
    return account["webinar_seats"] - len(db.find(users, webinar=True))


def iso(moment_: datetime) -> str:
    """A datetime as Zoom writes it."""
    return iso_timestamp(moment_)
