"""ORCID's error body (`response-code`, `developer-message`, `error-code`, `more-info`) carried in the runtime's
error kinds, with the registry's own numbered codes (9010 not the source, 9021 duplicate external identifier...)."""

from __future__ import annotations

import json

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError

MORE_INFO = "https://info.orcid.org/documentation/api-tutorials/troubleshooting-orcid-api-error-codes/"


def _body(status: int, code: int, message: str) -> str:
    return json.dumps(
        {"response-code": status, "developer-message": message, "error-code": code, "more-info": MORE_INFO}
    )


def bad_request(code: int, message: str) -> ToolError:
    """400 with ORCID's numbered message."""
    return InvalidRequest(_body(400, code, f"400 Bad Request: {message}"))


def unauthorized(message: str) -> ToolError:
    """401 9017: the researcher has not authorized the portal on this record."""
    return PermissionDenied(_body(401, 9017, f"401 Unauthorized: {message}"))


def forbidden(code: int, message: str) -> ToolError:
    """403: the portal may not do this (wrong scope 9004, not the source 9010, visibility 9035)."""
    return PermissionDenied(_body(403, code, f"403 Forbidden: {message}"))


def not_found(message: str = "The resource was not found.", code: int = 9016) -> ToolError:
    """404: no such record or item."""
    return NotFound(_body(404, code, f"404 Not Found: {message}"))


def conflict(code: int, message: str) -> ToolError:
    """409: a duplicate (9021) or a record that cannot be edited (9018 locked, 9044 deactivated)."""
    return Conflict(_body(409, code, f"409 Conflict: {message}"))


def moved(primary: str, deprecated: str) -> ToolError:
    """301 9007: a deprecated iD, merged into its primary record."""
    return NotFound(
        _body(
            301,
            9007,
            f"301 Moved Permanently: This account is deprecated. Please refer to account: {primary}. "
            f"ORCID {deprecated}",
        )
    )
