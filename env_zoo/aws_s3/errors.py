"""S3's and IAM's error shape: the error code, then its message (`NoSuchKey: The specified key does not exist.`)."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.errors import ToolError

NO_SUCH_BUCKET = "NoSuchBucket: The specified bucket does not exist"
NO_SUCH_KEY = "NoSuchKey: The specified key does not exist."
NO_SUCH_VERSION = "NoSuchVersion: The specified version does not exist."


def no_such(code: str, message: str) -> ToolError:
    """404: a bucket, key, version, policy or configuration that does not exist."""
    return NotFound(f"{code}: {message}")


def invalid(code: str, message: str) -> ToolError:
    """400: a request S3 or IAM refuses as malformed."""
    return InvalidRequest(f"{code}: {message}")


def conflict(code: str, message: str) -> ToolError:
    """409: the resource's state does not allow the request."""
    return Conflict(f"{code}: {message}")


def denied(message: str) -> ToolError:
    """403 AccessDenied with S3's explanation of which policy decided."""
    return PermissionDenied(f"AccessDenied: {message}")
