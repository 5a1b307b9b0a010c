"""Vercel's error shape: an HTTP status and a body `{"error": {"code": ..., "message": ...}}`."""

from __future__ import annotations

import json

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def body(status: str, code: str, message: str) -> str:
    """The text of one error response."""
    return f"{status}: " + json.dumps({"error": {"code": code, "message": message}})


def bad_request(code: str, message: str) -> ToolError:
    """400 Bad Request."""
    return InvalidRequest(body("400 Bad Request", code, message))


def forbidden(message: str) -> ToolError:
    """403 Forbidden: the member's role does not allow the action."""
    return PermissionDenied(body("403 Forbidden", "forbidden", message))


def missing(entity: str, key: object) -> str:
    """404's text for an entity that does not exist or is not visible to the team."""
    return body("404 Not Found", "not_found", f"{entity} {key} not found")


def not_found(entity: str, key: object) -> ToolError:
    """404 Not Found as an error."""
    return NotFound(missing(entity, key))


def conflict(code: str, message: str) -> ToolError:
    """409 Conflict: something already uses the name."""
    return Conflict(body("409 Conflict", code, message))
