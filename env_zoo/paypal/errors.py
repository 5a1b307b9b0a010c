"""PayPal's error shape: a `name`, a `message` and `details` of {issue, description, field}, as the REST APIs send
them (`UNPROCESSABLE_ENTITY ... [ORDER_NOT_APPROVED] Payer has not yet approved the Order for payment.`)."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, NotFound
from envfactory_gym.errors import ToolError

MESSAGES = {
    "RESOURCE_NOT_FOUND": "The specified resource does not exist.",
    "UNPROCESSABLE_ENTITY": "The requested action could not be performed, semantically incorrect, or failed "
    "business validation.",
    "INVALID_REQUEST": "Request is not well-formed, syntactically incorrect, or violates schema.",
}


def paypal_error(kind: type[ToolError], name: str, issue: str, description: str, field: str | None) -> ToolError:
    """An error of the runtime's `kind` worded as PayPal's JSON error: name, message and one detail."""
    where = f" (field: {field})" if field else ""
    return kind(f"{name}: {MESSAGES[name]} details: [{issue}] {description}{where}")


def not_found(entity: str, object_id: str, field: str) -> ToolError:
    """An id that names nothing on this account."""
    return paypal_error(
        NotFound,
        "RESOURCE_NOT_FOUND",
        "INVALID_RESOURCE_ID",
        f"Specified resource ID does not exist: no {entity} `{object_id}`.",
        field,
    )


def unprocessable(issue: str, description: str, field: str | None = None) -> ToolError:
    """A well-formed request the object's current state or PayPal's business rules refuse."""
    return paypal_error(Conflict, "UNPROCESSABLE_ENTITY", issue, description, field)


def invalid(issue: str, description: str, field: str | None = None) -> ToolError:
    """A value, or a combination of values, that is not acceptable."""
    return paypal_error(InvalidRequest, "INVALID_REQUEST", issue, description, field)
