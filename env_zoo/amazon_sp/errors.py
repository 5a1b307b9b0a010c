"""SP-API's error shape, an HTTP status with an `errors` entry's code and message (InvalidInput, NotFound,
Unauthorized), as one line the agent reads."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def invalid(message: str) -> ToolError:
    """400 InvalidInput: a value or a state the operation refuses."""
    return InvalidRequest(f"400 InvalidInput: {message}")


def not_found(message: str) -> ToolError:
    """404 NotFound: nothing of the signed-in seller has this id or SKU."""
    return NotFound(f"404 NotFound: {message}")


def conflict(message: str) -> ToolError:
    """409 Conflict: the object's state forbids the change."""
    return Conflict(f"409 Conflict: {message}")


def unauthorized(message: str) -> ToolError:
    """403 Unauthorized: the seller cannot act on this marketplace."""
    return PermissionDenied(f"403 Unauthorized: {message}")
