"""protocols.io's error shape: a JSON body with a status_code and an error_message (the API answers HTTP 200 or
4xx with these two fields), carried in the runtime's error kinds."""

from __future__ import annotations

import json

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def _body(code: int, message: str) -> str:
    return json.dumps({"status_code": code, "error_message": message})


def bad_request(message: str) -> ToolError:
    """400: the request cannot be done as asked."""
    return InvalidRequest(_body(400, message))


def forbidden(message: str) -> ToolError:
    """403: the signed-in researcher may not do this."""
    return PermissionDenied(_body(403, message))


def not_found(message: str = "Protocol not found.") -> ToolError:
    """404: missing, or not visible to the researcher."""
    return NotFound(_body(404, message))


def conflict(message: str) -> ToolError:
    """409: the protocol is not in a state that allows the action."""
    return Conflict(_body(409, message))
