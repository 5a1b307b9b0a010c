"""The worker's side of the pipe to the parent: progress marks and violations are sent the moment they happen, so
neither the worker being killed nor generated code swallowing an error can hide them (the parent keeps the log)."""

from __future__ import annotations

from typing import Any

from .protocol import write_frame

_state: dict[str, Any] = {"fd": None, "call": 0, "mark": ""}


def connect(fd: int) -> None:
    """Send to this descriptor from now on (called by the worker at start)."""
    _state["fd"] = fd


def begin(call_id: int) -> None:
    """A new call starts: marks and violations belong to it."""
    _state["call"], _state["mark"] = call_id, ""


def current() -> str:
    """The last progress mark of the current call."""
    return _state["mark"]


def mark(label: str) -> None:
    """Note what the worker is doing now (the parent names it when the call is stopped). Outside a sandboxed worker
    this only remembers the label."""
    _state["mark"] = label[:500]
    if _state["fd"] is not None:
        write_frame(_state["fd"], {"type": "mark", "id": _state["call"], "label": _state["mark"]})


def violation(record: dict[str, Any]) -> None:
    """Report a refused operation, with the progress mark it happened under."""
    if _state["fd"] is not None:
        body = {k: str(v)[: 400 if k != "message" else 1900] for k, v in record.items()}
        write_frame(
            _state["fd"], {"type": "violation", "id": _state["call"], "violation": {**body, "during": _state["mark"]}}
        )
