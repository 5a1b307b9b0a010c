"""Zoom's error shape: a numeric `code` and a `message` (`3001: Meeting does not exist: 85012345678.`)."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError


def zoom_error(kind: type[ToolError], code: int, message: str) -> ToolError:
    """An error of the runtime's `kind` worded as Zoom's: code and message."""
    return kind(f"{code}: {message}")


def no_user(key: str) -> ToolError:
    """1001: the user is not on this account."""
    return zoom_error(NotFound, 1001, f"User does not exist: {key}.")


def no_meeting(meeting_id: int | str) -> ToolError:
    """3001: no such meeting (or it was deleted)."""
    return zoom_error(NotFound, 3001, f"Meeting does not exist: {meeting_id}.")


def no_webinar(webinar_id: int) -> ToolError:
    """3001 for webinars."""
    return zoom_error(NotFound, 3001, f"Webinar does not exist: {webinar_id}.")


def no_recording() -> ToolError:
    """3301: no cloud recording for that meeting (instance) or file."""
    return zoom_error(NotFound, 3301, "This recording does not exist.")


def invalid(message: str) -> ToolError:
    """300: the request breaks one of the endpoint's preconditions."""
    return zoom_error(InvalidRequest, 300, message)


def conflict(code: int, message: str) -> ToolError:
    """A request the resource's current state refuses."""
    return zoom_error(Conflict, code, message)


def forbidden(message: str = "You do not have the permission to perform this action.") -> ToolError:
    """200 (Zoom's 'no permission'): the signed-in user's role does not allow it."""
    return zoom_error(PermissionDenied, 200, message)
