"""Fitbit's error shape: every error is the JSON body the Web API answers with,
{"errors": [{"errorType": "validation", "fieldName": "date", "message": "..."}], "success": false}."""

from __future__ import annotations

import json

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def fitbit_error(kind: type[ToolError], error_type: str, message: str, field: str | None = None) -> ToolError:
    """An error of the runtime's `kind` whose text is Fitbit's error body."""
    entry: dict[str, str] = {"errorType": error_type}
    if field is not None:
        entry["fieldName"] = field
    entry["message"] = message
    return kind(json.dumps({"errors": [entry], "success": False}))


def validation(field: str, message: str) -> ToolError:
    """400 validation: a parameter breaks one of the endpoint's rules."""
    return fitbit_error(InvalidRequest, "validation", message, field)


def not_found(field: str, message: str) -> ToolError:
    """404 not_found: the log, device or alarm does not exist for this user."""
    return fitbit_error(NotFound, "not_found", message, field)


def conflict(field: str, message: str) -> ToolError:
    """409-style validation: the request clashes with what is already logged."""
    return fitbit_error(Conflict, "validation", message, field)


def insufficient_scope(scope: str, access: str) -> ToolError:
    """403 insufficient_scope: the user did not grant the scope the endpoint needs."""
    return fitbit_error(
        PermissionDenied,
        "insufficient_scope",
        f"This application does not have permission to {access} {scope} data. Ask the user to authorize the "
        f"{scope} scope.",
    )


def not_authorized() -> ToolError:
    """401 invalid_token: no user has authorized the assistant yet."""
    return fitbit_error(
        PermissionDenied, "invalid_token", "Access token invalid or missing. Ask the user to authorize the app first."
    )
