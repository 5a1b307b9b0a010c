"""Kaggle's rules the tools share: licenses, the daily submission allowance (reset at 00:00 UTC), final-submission
selection, and when teams may still merge."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from envfactory_gym import Database
from envfactory_gym.values import parse_timestamp

from .errors import bad_request, conflict
from .schema import submissions

#: the license names `kaggle datasets create` accepts in dataset-metadata.json
LICENSES = (
    "CC0-1.0",
    "CC-BY-4.0",
    "CC-BY-SA-4.0",
    "CC-BY-NC-SA-4.0",
    "ODbL-1.0",
    "DbCL-1.0",
    "GPL-2.0",
    "Apache-2.0",
    "MIT",
    "unknown",
)


def moment(value: str) -> datetime:
    """A stored ISO timestamp as a datetime."""
    return parse_timestamp(value, "timestamp")


def submissions_today(db: Database, team_id: int) -> int:
    """The team's submissions since 00:00 UTC today (errored ones count too)."""
    today = db.now().strftime("%Y-%m-%d")
    return len(db.select(submissions, "team_id = ? AND substr(date, 1, 10) = ?", [team_id, today]))


def require_open(db: Database, competition: dict[str, Any]) -> None:
    """409 once the competition's deadline has passed."""
    if db.now() >= moment(competition["deadline"]):
        raise conflict(f"'{competition['title']}' has ended; submissions are closed.")


def require_merge_window(db: Database, competition: dict[str, Any]) -> None:
    """409 once the team merger deadline has passed."""
    if db.now() >= moment(competition["team_merger_deadline"]):
        raise conflict(f"The team merger deadline of '{competition['title']}' has passed.")


def merge_submission_cap(db: Database, competition: dict[str, Any]) -> int:
    """The most submissions a merged team may hold: the daily allowance times the days the competition has run."""
    days = (db.now() - moment(competition["enabled_date"])).days + 1
    return competition["max_daily_submissions"] * max(days, 1)


def require_merge_fits(db: Database, competition: dict[str, Any], members: int, submitted: int) -> None:
    """400 when the merged team would be too large or hold more submissions than it could have made."""
    if members > competition["max_team_size"]:
        raise bad_request(
            f"The merged team would have {members} members; the maximum team size is {competition['max_team_size']}."
        )
    cap = merge_submission_cap(db, competition)
    if submitted > cap:
        raise bad_request(
            f"The merged team would have {submitted} submissions, more than the {cap} a team could have made so far."
        )
