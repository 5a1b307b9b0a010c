"""HubSpot's error shape: an HTTP status and a body {"status": "error", "message", "category"}; property validation
failures list each refused property as {"isValid": false, "message", "error", "name"} inside the message."""

from __future__ import annotations

import json

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError

SINGULAR = {"contacts": "contact", "companies": "company", "deals": "deal", "tasks": "task", "notes": "note"}


def body(status: int, category: str, message: str) -> str:
    """The text of an error response: `<status> <category>: {json body}`."""
    return f"{status} {category}: " + json.dumps({"status": "error", "message": message, "category": category})


def property_text(name: str, error: str, message: str) -> str:
    """The message of a 400 for one invalid property value."""
    detail = [{"isValid": False, "message": message, "error": error, "name": name}]
    return "Property values were not valid: " + json.dumps(detail, separators=(",", ":"))


def invalid_property(name: str, error: str, message: str) -> ToolError:
    """400 VALIDATION_ERROR naming the property and HubSpot's error code (INVALID_OPTION, INVALID_EMAIL, ...)."""
    return InvalidRequest(body(400, "VALIDATION_ERROR", property_text(name, error, message)))


def option_text(name: str, options: list[str]) -> str:
    """The product's text for an enumeration value outside its options (used in argument types too)."""
    return body(
        400,
        "VALIDATION_ERROR",
        property_text(name, "INVALID_OPTION", f"{name} was not one of the allowed options: {', '.join(options)}"),
    )


def validation(message: str) -> ToolError:
    """400 VALIDATION_ERROR with a plain message."""
    return InvalidRequest(body(400, "VALIDATION_ERROR", message))


def not_found(message: str = "resource not found") -> ToolError:
    """404 OBJECT_NOT_FOUND."""
    return NotFound(body(404, "OBJECT_NOT_FOUND", message))


def missing(object_type: str, object_id: str) -> str:
    """The 404 text for a record that does not exist (or is archived)."""
    return body(
        404, "OBJECT_NOT_FOUND", f"{SINGULAR[object_type].capitalize()} {object_id} not found: resource not found"
    )


def conflict(message: str) -> ToolError:
    """409 CONFLICT."""
    return Conflict(body(409, "CONFLICT", message))


def unauthenticated() -> str:
    """401's text when no one has signed in."""
    return body(401, "INVALID_AUTHENTICATION", "Authentication credentials not found. Ask the user to sign in first.")


def forbidden(message: str) -> ToolError:
    """403 (a deactivated user)."""
    return PermissionDenied(body(403, "MISSING_SCOPES", message))
