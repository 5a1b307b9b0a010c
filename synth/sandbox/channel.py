"""The child's way back to the parent: an events file (progress marks and violations, one JSON line each, flushed at
once so they survive a kill) and a result file, both opened before the guard is installed."""

from __future__ import annotations

import json
from typing import IO, Any

_events: IO[str] | None = None
_current = ""


def open_events(path: str) -> None:
    """Open the events file (called by the child before the guard exists)."""
    global _events
    _events = open(path, "a", encoding="utf-8")


def _write(record: dict[str, Any]) -> None:
    if _events is not None:
        _events.write(json.dumps(record, default=str) + "\n")
        _events.flush()


def mark(label: str) -> None:
    """Note what the child is doing now (the parent names it when the process is killed)."""
    global _current
    _current = label
    _write({"mark": label})


def current() -> str:
    """The last progress mark."""
    return _current


def violation(record: dict[str, Any]) -> None:
    """Record a blocked operation, with the progress mark it happened under."""
    _write({"violation": {**record, "during": _current}})
