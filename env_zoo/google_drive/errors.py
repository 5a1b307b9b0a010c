"""Drive's own error texts: each error carries its HTTP status, its `reason` and the API's message, the way the Drive
API reports them (`403 insufficientFilePermissions: The user does not have sufficient permissions for this file.`)."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError

INSUFFICIENT_FILE = "The user does not have sufficient permissions for this file."


def drive_error(kind: type[ToolError], status: int, reason: str, message: str) -> ToolError:
    """An error of the runtime's `kind` worded as Drive's JSON error: status, reason, message."""
    return kind(f"{status} {reason}: {message}")


def file_not_found(file_id: str) -> ToolError:
    """A file that does not exist or that the user cannot see."""
    return drive_error(NotFound, 404, "notFound", f"File not found: {file_id}.")


def not_found(message: str) -> ToolError:
    """A 404 with Drive's message."""
    return drive_error(NotFound, 404, "notFound", message)


def drive_not_found(drive_id: str) -> ToolError:
    """A shared drive that does not exist or that the user is not a member of."""
    return drive_error(NotFound, 404, "notFound", f"Shared drive not found: {drive_id}")


def insufficient(message: str = INSUFFICIENT_FILE) -> ToolError:
    """The user's role on the item does not allow the change."""
    return drive_error(PermissionDenied, 403, "insufficientFilePermissions", message)


def forbidden(reason: str, message: str) -> ToolError:
    """Any other 403."""
    return drive_error(PermissionDenied, 403, reason, message)


def bad_request(message: str, reason: str = "badRequest") -> ToolError:
    """A 400: a value or a combination of values the API refuses."""
    return drive_error(InvalidRequest, 400, reason, message)


def invalid_sharing(user_message: str) -> ToolError:
    """A sharing change Drive refuses, with the message it shows to people."""
    return drive_error(InvalidRequest, 400, "invalidSharingRequest", f'Bad Request. User message: "{user_message}"')


def conflict(reason: str, message: str) -> ToolError:
    """A request that clashes with the item's current state."""
    return drive_error(Conflict, 409, reason, message)
