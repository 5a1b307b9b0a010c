"""Daily activity totals: what the tracker counted for a day plus what the user logged by hand (manual logs add
their steps, distance, calories and active minutes to the day), over one day or a date range."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from envfactory_gym import Database

from .schema import activity_logs, activity_types, daily_activity

FIELDS = (
    "steps",
    "floors",
    "distance_km",
    "calories_out",
    "very_active_minutes",
    "fairly_active_minutes",
    "lightly_active_minutes",
    "sedentary_minutes",
)


def intensity(mets: float) -> str:
    """The active-minutes bucket a logged activity's minutes count in."""
    return "very_active_minutes" if mets >= 6 else "fairly_active_minutes" if mets >= 3 else "lightly_active_minutes"


def totals(db: Database, user_id: str, first: date, last: date) -> dict[str, dict[str, float]]:
    """Per date (yyyy-MM-dd) from `first` to `last`: the day's totals, zero where nothing was recorded."""
    days = {(first + timedelta(n)).isoformat(): dict.fromkeys(FIELDS, 0.0) for n in range((last - first).days + 1)}
    params = [user_id, first.isoformat(), last.isoformat()]
    for row in db.select(daily_activity, "user_id = ? AND date BETWEEN ? AND ?", params):
        days[row["date"]] = {name: float(row[name]) for name in FIELDS}
    manual = db.select(activity_logs, "user_id = ? AND date BETWEEN ? AND ? AND log_type = 'manual'", params)
    kinds = sorted({log["activity_id"] for log in manual if log["activity_id"] is not None})
    found = db.select(activity_types, f"id IN ({', '.join('?' * len(kinds))})", kinds) if kinds else []
    mets = {t["id"]: t["mets"] for t in found}
    for log in manual:
        day = days[log["date"]]
        minutes = log["duration_ms"] // 60000
        day["steps"] += log["steps"]
        day["distance_km"] += log["distance_km"] or 0.0
        day["calories_out"] += log["calories"]
        day[intensity(mets.get(log["activity_id"], 4.0))] += minutes
        day["sedentary_minutes"] = max(0.0, day["sedentary_minutes"] - minutes)
    return days


def step_totals(db: Database, user_ids: list[str], first: date, last: date) -> dict[str, int]:
    """Steps per user from `first` to `last`: tracker counts plus manual logs, in two queries for everyone."""
    marks = ", ".join("?" * len(user_ids))
    params = [*user_ids, first.isoformat(), last.isoformat()]
    steps = dict.fromkeys(user_ids, 0)
    for row in db.select(daily_activity, f"user_id IN ({marks}) AND date BETWEEN ? AND ?", params):
        steps[row["user_id"]] += row["steps"]
    manual = f"user_id IN ({marks}) AND date BETWEEN ? AND ? AND log_type = 'manual'"
    for log in db.select(activity_logs, manual, params):
        steps[log["user_id"]] += log["steps"]
    return steps


def day_totals(db: Database, user_id: str, day: date) -> dict[str, float]:
    """One day's totals."""
    return totals(db, user_id, day, day)[day.isoformat()]


def latest_weight_kg(db: Database, user_id: str, on: str, body_logs: Any, default: float) -> float:
    """The last weight the user logged on or before `on`, else `default`."""
    found = db.select(
        body_logs,
        "user_id = ? AND kind = 'weight' AND date <= ?",
        [user_id, on],
        order_by="date DESC, time DESC",
        limit=1,
    )
    return found[0]["value"] if found else default
