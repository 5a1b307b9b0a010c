"""Linear's GraphQL error shape: a message plus `extensions` with the error type and the text Linear shows people
(`userPresentableMessage`)."""

from __future__ import annotations

import json

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def _body(message: str, kind: str, shown: str) -> str:
    return json.dumps({"message": message, "extensions": {"type": kind, "userPresentableMessage": shown}})


def missing(entity: str) -> str:
    """The text for a referenced entity that does not exist or that the viewer cannot see."""
    return _body(f"Entity not found: {entity}", "invalid input", f"Could not find referenced {entity}.")


def not_found(entity: str) -> ToolError:
    return NotFound(missing(entity))


def invalid(shown: str) -> ToolError:
    """An argument the rules refuse (type `invalid input`)."""
    return InvalidRequest(_body("Argument Validation Error", "invalid input", shown))


def conflict(shown: str) -> ToolError:
    """The entity's current state does not allow the change."""
    return Conflict(_body("Invalid state", "invalid input", shown))


def forbidden(shown: str) -> ToolError:
    return PermissionDenied(_body("Forbidden", "forbidden", shown))
