"""Kaggle's API errors: an HTTP status and reason followed by Kaggle's message (`403 - Forbidden: ...`)."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def not_found(what: str, ref: str) -> ToolError:
    """404: the resource does not exist or is private to someone else."""
    return NotFound(missing(what, ref))


def missing(what: str, ref: str) -> str:
    """404's text."""
    return f"404 - Not Found: {what} '{ref}' not found (or you don't have access to it)"


def forbidden(message: str) -> ToolError:
    """403: the signed-in Kaggler may not do this."""
    return PermissionDenied(f"403 - Forbidden: {message}")


def bad_request(message: str) -> ToolError:
    """400: the request breaks one of the endpoint's rules."""
    return InvalidRequest(f"400 - Bad Request: {message}")


def conflict(message: str) -> ToolError:
    """409: the request clashes with the resource's current state."""
    return Conflict(f"409 - Conflict: {message}")


def rules_not_accepted(title: str) -> ToolError:
    """403 for competition data or submissions before the rules were accepted."""
    return forbidden(
        f"You must accept the rules of '{title}' on its Rules page before you can download data or submit."
    )
