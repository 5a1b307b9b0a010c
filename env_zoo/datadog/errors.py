"""Datadog's error shape: an HTTP status and a body `{"errors": ["..."]}` listing what was wrong."""

from __future__ import annotations

import json

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def _body(status: str, messages: tuple[str, ...]) -> str:
    return f"{status}: " + json.dumps({"errors": list(messages)})


def bad_request(*messages: str) -> ToolError:
    """400 Bad Request with Datadog's `errors` array."""
    return InvalidRequest(_body("400 Bad Request", messages))


def forbidden(*messages: str) -> ToolError:
    """403 Forbidden: the signed-in user's role does not allow the action."""
    return PermissionDenied(_body("403 Forbidden", messages or ("Forbidden",)))


def missing(entity: str, key: object) -> str:
    """404's text for an entity that does not exist."""
    return _body("404 Not Found", (f"{entity} {key} not found",))


def not_found(entity: str, key: object) -> ToolError:
    """404 Not Found as an error."""
    return NotFound(missing(entity, key))


def conflict(*messages: str) -> ToolError:
    """409 Conflict: the object's current state does not allow the change."""
    return Conflict(_body("409 Conflict", messages))
