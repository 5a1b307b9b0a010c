"""Square's error shape: every error carries a category, a code, the field it concerns (where one does) and a
detail, the way the API's `errors` array reports them (`INVALID_REQUEST_ERROR NOT_FOUND: Could not find ...`)."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound
from envfactory_gym.errors import ToolError

INVALID_REQUEST = "INVALID_REQUEST_ERROR"
PAYMENT_METHOD = "PAYMENT_METHOD_ERROR"


def square_error(kind: type[ToolError], category: str, code: str, detail: str, field: str | None = None) -> ToolError:
    """An error of the runtime's `kind` worded as one entry of Square's `errors` array."""
    where = f" (field: {field})" if field else ""
    return kind(f"{category} {code}{where}: {detail}")


def not_found(entity: str, object_id: str) -> ToolError:
    """An id that names nothing on this account."""
    return square_error(NotFound, INVALID_REQUEST, "NOT_FOUND", f"Could not find {entity} with id `{object_id}`.")


def bad_request(code: str, detail: str, field: str | None = None) -> ToolError:
    """A value, or a combination of values, the API refuses."""
    return square_error(InvalidRequest, INVALID_REQUEST, code, detail, field)


def conflict(code: str, detail: str, field: str | None = None) -> ToolError:
    """A request that clashes with the object's current state or version."""
    return square_error(Conflict, INVALID_REQUEST, code, detail, field)


def declined(code: str, detail: str) -> ToolError:
    """A card the issuer declined."""
    return square_error(InvalidRequest, PAYMENT_METHOD, code, detail)
