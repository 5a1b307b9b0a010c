"""REDCap's error shape: the API answers HTTP 400 (bad request), 403 (no permission) or 404 with a JSON body
{"error": "<message>"}, carried here in the runtime's error kinds."""

from __future__ import annotations

import json

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def _body(message: str) -> str:
    return json.dumps({"error": message})


def bad_request(message: str) -> ToolError:
    """400: the request's parameters or data are not valid for the project."""
    return InvalidRequest(_body(message))


def forbidden(message: str) -> ToolError:
    """403: the signed-in user lacks the user right the call needs."""
    return PermissionDenied(_body(message))


def not_found(message: str) -> ToolError:
    """404: no such project, record or object for this user."""
    return NotFound(_body(message))


def conflict(message: str) -> ToolError:
    """400 answered because of the object's state (a locked form, a project in production)."""
    return Conflict(_body(message))
