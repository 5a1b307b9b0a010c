"""Home Assistant's error wording: the REST API's `Entity not found.`, ServiceValidationError texts for values a
service refuses, and `Unauthorized` for what only administrators may do."""

from __future__ import annotations

from envfactory_gym import Conflict, InvalidRequest, PermissionDenied
from envfactory_gym.errors import ToolError

NOT_SIGNED_IN = "401: Unauthorized. Ask the person to sign in to Home Assistant first."


def entity_missing(entity_id: str) -> str:
    """The REST API's 404 text for an unknown entity."""
    return f"Entity not found: {entity_id}"


def registry_missing(kind: str, key: str) -> str:
    """The text for an unknown area, floor or device id."""
    return f"{kind} not found: {key}"


def unauthorized(why: str) -> ToolError:
    """A non-administrator asked for something only administrators may do."""
    return PermissionDenied(f"Unauthorized: {why}")


def invalid(message: str) -> ToolError:
    """A ServiceValidationError: the service refuses the values it was given."""
    return InvalidRequest(message)


def unavailable(entity_id: str) -> ToolError:
    """An entity whose integration lost the device refuses service calls."""
    return Conflict(f"Entity {entity_id} is unavailable")


def wrong_domain(entity_id: str, service: str) -> ToolError:
    """A service called on an entity of another domain."""
    return InvalidRequest(f"Entity {entity_id} does not support action {service}")
