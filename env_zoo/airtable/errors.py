"""Airtable's error shape: an HTTP status and a body `{"error": {"type": ..., "message": ...}}`."""

from __future__ import annotations

import json

from envfactory_gym import InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def body(status: str, kind: str, message: str) -> str:
    """The text of an Airtable error."""
    return f"{status}: " + json.dumps({"error": {"type": kind, "message": message}})


def unprocessable(kind: str, message: str) -> ToolError:
    """422 with the given error type (INVALID_VALUE_FOR_COLUMN, UNKNOWN_FIELD_NAME, ...)."""
    return InvalidRequest(body("422 Unprocessable Entity", kind, message))


def not_found(kind: str = "NOT_FOUND", message: str = "Could not find what you are looking for") -> ToolError:
    """404 Not Found."""
    return NotFound(body("404 Not Found", kind, message))


NO_PERMISSION = body(
    "403 Forbidden",
    "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND",
    "Invalid permissions, or the requested model was not found. Check that both your user and your token have "
    "the required permissions, and that the model names and/or ids are correct.",
)


def forbidden() -> ToolError:
    """403: the signed-in user's permission on the base does not allow the action."""
    return PermissionDenied(NO_PERMISSION)
