"""Peloton's published rules: one stack of at most 10 classes without repeats; Sessions only for cycling and running
classes over 20 minutes, scheduled up to two weeks ahead on five-minute marks; live countdowns only before a class
airs; personal records are the best total output per class length; challenge progress counts completed workouts in
the challenge's dates and disciplines."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Database, InvalidRequest
from envfactory_gym.values import parse_date

from .schema import workouts

STACK_MAX = 10
SESSION_DISCIPLINES = ("cycling", "running")
SESSION_MIN_SECONDS = 1200  # "over twenty minutes"
SESSION_MAX_AHEAD = timedelta(days=14)
OUTPUT_DISCIPLINES = ("cycling", "rowing")


def parse_time(value: str) -> datetime:
    """An ISO timestamp (`2026-05-16T13:05:00Z`) as an aware datetime; InvalidRequest if malformed."""
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise InvalidRequest(f"start_time {value!r} is not an ISO 8601 timestamp like 2026-05-16T13:05:00Z.") from None
    if moment.tzinfo is None:
        raise InvalidRequest(f"start_time {value!r} needs a time zone, e.g. a trailing Z for UTC.")
    return moment


def iso(moment: datetime) -> str:
    """A UTC timestamp with a Z suffix."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def check_session_time(db: Database, start: datetime) -> None:
    """Sessions start every five minutes, in the future, at most two weeks ahead."""
    now = db.now()
    if start.minute % 5 or start.second:
        raise InvalidRequest("Sessions start every 5 minutes: pick a start time on a 5-minute mark (e.g. 18:05).")
    if start <= now:
        raise InvalidRequest("A Session must be scheduled for a time in the future.")
    if start - now > SESSION_MAX_AHEAD:
        raise InvalidRequest("Sessions can be scheduled up to two weeks in advance.")


def best_outputs(db: Database, member_id: str, discipline: str) -> list[dict[str, Any]]:
    """Per class length, the completed class workout with the highest total output (earliest wins ties)."""
    rows = db.select(
        workouts,
        "member_id = ? AND fitness_discipline = ? AND status = 'COMPLETE' AND class_id IS NOT NULL "
        "AND total_output_kj IS NOT NULL",
        (member_id, discipline),
        order_by="start_time",
    )
    best: dict[int, dict[str, Any]] = {}
    for row in rows:
        minutes = row["duration"] // 60
        if minutes not in best or row["total_output_kj"] > best[minutes]["total_output_kj"]:
            best[minutes] = row
    return [best[m] for m in sorted(best)]


def challenge_state(db: Database, challenge: dict[str, Any]) -> str:
    """upcoming, active or ended, by the challenge's dates and today's date."""
    today = db.now().date()
    if today < parse_date(challenge["start_date"], "start_date"):
        return "upcoming"
    if today > parse_date(challenge["end_date"], "end_date"):
        return "ended"
    return "active"


def challenge_progress(db: Database, member_id: str, challenge: dict[str, Any]) -> float:
    """Minutes, workouts or miles the member's completed workouts add to the challenge."""
    end = iso(datetime.combine(parse_date(challenge["end_date"], "end_date"), datetime.min.time()) + timedelta(days=1))
    rows = db.select(
        workouts,
        "member_id = ? AND status = 'COMPLETE' AND start_time >= ? AND start_time < ?",
        (member_id, challenge["start_date"], end),
    )
    counted = [r for r in rows if not challenge["disciplines"] or r["fitness_discipline"] in challenge["disciplines"]]
    if challenge["kind"] == "WORKOUTS":
        return float(len(counted))
    if challenge["kind"] == "MINUTES":
        return float(sum(r["duration"] for r in counted) // 60)
    return round(sum(r["distance_mi"] or 0 for r in counted) / 100, 2)
