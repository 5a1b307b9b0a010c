"""Lightspeed Retail's error shape: the HTTP code and message (httpCode, httpMessage) followed by the API's
message, e.g. `404 Not Found: Item 9999 not found.`"""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def not_found(entity: str, object_id: object) -> ToolError:
    """404: the id names nothing in this account."""
    return NotFound(f"404 Not Found: {entity} {object_id} not found.")


def bad_request(message: str) -> ToolError:
    """400: a value, or a combination of values, the API refuses."""
    return InvalidRequest(f"400 Bad Request: {message}")


def conflict(message: str) -> ToolError:
    """409: the request clashes with the record's current state."""
    return Conflict(f"409 Conflict: {message}")


def unauthorized(message: str) -> ToolError:
    """401: no employee is signed in, or the employee number and PIN do not match."""
    return PermissionDenied(f"401 Unauthorized: {message}")


def forbidden(message: str) -> ToolError:
    """403: the signed-in employee's role does not allow this."""
    return PermissionDenied(f"403 Forbidden: {message}")
