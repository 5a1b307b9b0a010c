"""Twilio's error shape: a numeric code and its message, as the REST API answers (`21610: Attempt to send to
unsubscribed recipient`); the code's page is https://www.twilio.com/docs/errors/<code>."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def twilio_error(kind: type[ToolError], code: int, message: str) -> ToolError:
    """An error of the runtime's `kind` worded as Twilio's: code, then message."""
    return kind(f"{code}: {message}")


def missing_text(resource: str, sid: str) -> str:
    """20404's text: the resource is not on this account."""
    return f"20404: The requested resource {resource} {sid} was not found"


def not_found(resource: str, sid: str) -> ToolError:
    """20404 as an error."""
    return NotFound(missing_text(resource, sid))


def invalid(code: int, message: str) -> ToolError:
    """A 400 with Twilio's code: the request breaks a rule of the endpoint."""
    return twilio_error(InvalidRequest, code, message)


def conflict(code: int, message: str) -> ToolError:
    """A request that the resource's current state refuses."""
    return twilio_error(Conflict, code, message)


def inactive_account(sid: str, status: str) -> ToolError:
    """10001: suspended and closed accounts can't send or buy."""
    return twilio_error(PermissionDenied, 10001, f"Account is not active: {sid} is {status}")


def refused(message: str) -> ToolError:
    """A change the resource's current state does not allow (no code of its own in Twilio's list)."""
    return Conflict(message)
