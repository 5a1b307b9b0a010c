"""The machinery behind meetings: new meeting numbers, settings merged from arguments, occurrences laid out and read
back, and recordings with their files."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import invalid, no_recording
from .objects import Meeting, Recording, meeting_object, recording_object
from .rules import iso, moment, occurrence_id, occurrence_starts
from .schema import occurrences, recording_files, recordings, users

FIRST_NUMBER = 81_234_500_000


def new_number(db: Database, counter: str) -> int:
    """A fresh 11-digit meeting or webinar number (deterministic)."""
    return FIRST_NUMBER + 7_919 * db.next_number(counter) + 100_000_000 * (counter == "webinars")


def merged_settings(current: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """The settings with the given (not None) changes applied."""
    return {**current, **{k: v for k, v in changes.items() if v is not None}}


def recurrence_of(
    recurrence_type: int | None,
    repeat_interval: int | None,
    weekly_days: str | None,
    monthly_day: int | None,
    end_times: int | None,
) -> dict[str, Any]:
    """A recurrence object from the create arguments; the day field its type needs must be given."""
    if recurrence_type is None:
        raise invalid("recurrence.type is required for a recurring meeting.")
    if recurrence_type == 2 and not weekly_days:
        raise invalid("recurrence.weekly_days is required for a weekly meeting.")
    if recurrence_type == 3 and monthly_day is None:
        raise invalid("recurrence.monthly_day is required for a monthly meeting.")
    return {
        "type": recurrence_type,
        "repeat_interval": repeat_interval or 1,
        "weekly_days": weekly_days if recurrence_type == 2 else None,
        "monthly_day": monthly_day if recurrence_type == 3 else None,
        "end_times": end_times or 1,
    }


def lay_out_occurrences(db: Database, meeting: dict[str, Any]) -> None:
    """Write a recurring meeting's occurrences (replacing any)."""
    for row in db.find(occurrences, meeting_id=meeting["id"]):
        db.delete(occurrences, row["key"])
    for start in occurrence_starts(moment(meeting["start_time"], "start_time"), meeting["recurrence"]):
        oid = occurrence_id(start)
        db.insert(
            occurrences,
            key=f"{meeting['id']}_{oid}",
            meeting_id=meeting["id"],
            occurrence_id=oid,
            start_time=iso(start),
            duration=meeting["duration"],
            status="available",
        )


def upcoming_occurrences(db: Database, meeting_id: int) -> list[dict[str, Any]]:
    """A meeting's available occurrences that have not started yet."""
    return db.select(
        occurrences,
        "meeting_id = ? AND status = 'available' AND start_time > ?",
        [meeting_id, db.now_iso()],
        order_by="start_time",
    )


def occurrence_of(db: Database, meeting_id: int, occurrence: str) -> dict[str, Any]:
    """One occurrence of a meeting; 3001-like error when the meeting has no such occurrence."""
    found = db.find(occurrences, key=f"{meeting_id}_{occurrence.strip()}")
    if not found or found[0]["status"] == "deleted":
        raise invalid(f"Invalid occurrence_id: {occurrence} for meeting {meeting_id}.")
    return found[0]


def full_meeting(db: Database, row: dict[str, Any], show_previous: bool = False) -> Meeting:
    """A meeting with its host's email and its (upcoming, or all) available occurrences."""
    shown = (
        db.find(occurrences, meeting_id=row["id"], status="available", order_by=[occurrences.c.start_time])
        if show_previous
        else upcoming_occurrences(db, row["id"])
    )
    return meeting_object(row, db.get(users, row["host_id"])["email"], shown)


def recording_by_key(db: Database, key: str) -> dict[str, Any]:
    """A recording by meeting instance UUID, or by meeting number (its latest instance); 3301 otherwise."""
    wanted = key.strip()
    found = db.find(recordings, uuid=wanted)
    if not found and wanted.isdigit():
        found = db.select(recordings, "meeting_id = ?", [int(wanted)], order_by="start_time DESC", limit=1)
    if not found:
        raise no_recording()
    return found[0]


def files_of(db: Database, uuid: str, status: str | None = None) -> list[dict[str, Any]]:
    """A recording's files (optionally only those with a status)."""
    rows = db.find(recording_files, recording_uuid=uuid, order_by=[recording_files.c.id])
    return [f for f in rows if status is None or f["status"] == status]


def recording_view(db: Database, row: dict[str, Any], status: str | None = None) -> Recording:
    """A recording with its files (optionally only those with a status)."""
    return recording_object(row, files_of(db, row["uuid"], status))
