"""Timestamps as the API takes and returns them: ISO 8601 in, UTC `...Z` strings out."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from envfactory_gym import InvalidRequest


def parse_time(value: str, name: str) -> datetime:
    """An ISO 8601 timestamp with a zone (`2025-06-18T14:00:00Z`, `2025-06-18T10:00:00-04:00`) or a date, as UTC."""
    text = value.strip()
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise InvalidRequest(f"{name} must be an ISO 8601 timestamp such as 2025-06-18T14:00:00Z") from None
    if moment.tzinfo is None:
        if "T" in text:
            raise InvalidRequest(f"{name} needs a time zone offset, such as 2025-06-18T14:00:00Z")
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def iso(moment: datetime) -> str:
    """A UTC datetime as the API prints it."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def stored(value: str) -> datetime:
    """A stored UTC timestamp as a datetime."""
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def effective_end(row: dict[str, Any]) -> datetime:
    """When an override or a maintenance window really ends: as planned, or when it was ended early."""
    return stored(row["ended_at"] if row["ended_early"] else row["end" if "end" in row else "end_time"])
