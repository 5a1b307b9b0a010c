"""Stored times: UTC `...Z` strings read through envfactory_gym.values, and when an override or a maintenance
window really ends."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from envfactory_gym.values import parse_timestamp


@lru_cache(maxsize=8192)
def stored(value: str) -> datetime:
    """A stored UTC timestamp as a datetime (stored values repeat: layers and windows are read on every call)."""
    return parse_timestamp(value, "timestamp")


def effective_end(row: dict[str, Any]) -> datetime:
    """When an override or a maintenance window really ends: as planned, or when it was ended early."""
    return stored(row["ended_at"] if row["ended_early"] else row["end" if "end" in row else "end_time"])
