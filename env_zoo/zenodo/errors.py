"""Zenodo's error shapes: a JSON body with the HTTP status, a message and, for validation errors, the fields at
fault (`{"status": 400, "message": "Validation error.", "errors": [{"field": ..., "messages": [...]}]}`), carried in
the runtime's error kinds."""

from __future__ import annotations

import json

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def _body(status: int, message: str, errors: list[dict[str, object]] | None = None) -> str:
    body: dict[str, object] = {"status": status, "message": message}
    if errors:
        body["errors"] = errors
    return json.dumps(body)


def validation(problems: dict[str, list[str]]) -> ToolError:
    """400: the fields at fault, each with its messages."""
    errors = [{"field": field, "messages": messages} for field, messages in problems.items()]
    return InvalidRequest(_body(400, "Validation error.", errors))  # type: ignore[arg-type]


def bad_request(message: str) -> ToolError:
    """400 with Zenodo's message."""
    return InvalidRequest(_body(400, message))


def forbidden(message: str) -> ToolError:
    """403: the signed-in user may not do this."""
    return PermissionDenied(_body(403, message))


def not_found(message: str = "PID does not exist.") -> ToolError:
    """404: missing, or not visible to the user."""
    return NotFound(_body(404, message))


def conflict(message: str) -> ToolError:
    """409: the object is not in a state that allows the action."""
    return Conflict(_body(409, message))
