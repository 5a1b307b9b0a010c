"""Sentry's error shape: an HTTP status and a JSON body, `{"detail": "..."}` for whole-request errors and
`{"<field>": ["..."]}` for a field that was refused."""

from __future__ import annotations

import json

from envfactory_gym import InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError

MISSING = '404 Not Found: {"detail": "The requested resource does not exist"}'
NO_PERMISSION = '403 Forbidden: {"detail": "You do not have permission to perform this action."}'


def not_found(what: str = "") -> ToolError:
    """404 with Sentry's generic body; `what` (e.g. "Issue CHECKOUT-API-9Z") is named after it for the reader."""
    return NotFound(MISSING + (f" ({what})" if what else ""))


def forbidden(why: str = "") -> ToolError:
    """403: the member's role or the organization's settings do not allow the action."""
    return PermissionDenied(NO_PERMISSION + (f" ({why})" if why else ""))


def field_error(field: str, message: str) -> ToolError:
    """400 naming the refused field, as Sentry's serializers answer."""
    return InvalidRequest("400 Bad Request: " + json.dumps({field: [message]}))


def nested_field_error(parent: str, field: str, message: str) -> ToolError:
    """400 for a field inside an object argument, e.g. `{"statusDetails": {"inRelease": ["..."]}}`."""
    return InvalidRequest("400 Bad Request: " + json.dumps({parent: {field: [message]}}))


def detail_error(message: str) -> ToolError:
    """400 with a `detail` body."""
    return InvalidRequest("400 Bad Request: " + json.dumps({"detail": message}))
