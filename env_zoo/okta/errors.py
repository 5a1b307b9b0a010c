"""Okta's error shape: every error carries its `errorCode`, its `errorSummary` and, where the API gives them,
`errorCauses` (`E0000038: This operation is not allowed in the user's current status. Causes: ...`)."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError

NO_PERMISSION = "You do not have permission to perform the requested action"


def okta_error(kind: type[ToolError], code: str, summary: str, *causes: str) -> ToolError:
    """An error of the runtime's `kind` worded as Okta's: errorCode, errorSummary, errorCauses."""
    text = f"{code}: {summary}"
    if causes:
        text += " errorCauses: " + "; ".join(causes)
    return kind(text)


def missing(entity: str, key: str) -> str:
    """E0000007's text: the resource does not exist (or the admin cannot see it)."""
    return f"E0000007: Not found: Resource not found: {key} ({entity})"


def not_found(entity: str, key: str) -> ToolError:
    """E0000007 as an error."""
    return NotFound(missing(entity, key))


def validation(*causes: str) -> ToolError:
    """E0000001: the request breaks one of the endpoint's preconditions."""
    return okta_error(InvalidRequest, "E0000001", "Api validation failed", *causes)


def wrong_status(*causes: str) -> ToolError:
    """E0000038: the lifecycle operation is not allowed in the user's current status."""
    return okta_error(Conflict, "E0000038", "This operation is not allowed in the user's current status.", *causes)


def already_active() -> ToolError:
    """E0000016: activating a user who is already active."""
    return okta_error(Conflict, "E0000016", "Activation failed because the user is already active")


def forbidden(*causes: str) -> ToolError:
    """E0000006: the signed-in administrator's roles do not allow the action."""
    return okta_error(PermissionDenied, "E0000006", NO_PERMISSION, *causes)


def bad_search() -> ToolError:
    """E0000031: a search or filter expression Okta cannot parse."""
    return okta_error(InvalidRequest, "E0000031", "Invalid search criteria.")


def duplicate_role() -> ToolError:
    """E0000090: the user already holds this role."""
    return okta_error(Conflict, "E0000090", "Duplicate role assignment exception.")
