"""BigCommerce's error shape: an HTTP status with its title and, for 422s, the field the message concerns."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound
from envfactory_gym.errors import ToolError


def not_found(entity: str, object_id: object) -> ToolError:
    """404: the id names nothing in this store."""
    return NotFound(f"404 Not Found: The requested {entity} ({object_id}) was not found.")


def unprocessable(message: str, field: str | None = None) -> ToolError:
    """422: a value, or a combination of values, the API refuses (with its field, as in `errors`)."""
    where = f" (errors.{field})" if field else ""
    return InvalidRequest(f"422 Unprocessable Entity{where}: {message}")


def conflict(message: str) -> ToolError:
    """409: the request clashes with the object's current state."""
    return Conflict(f"409 Conflict: {message}")
