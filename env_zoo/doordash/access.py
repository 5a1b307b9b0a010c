"""Who is signed in to the DoorDash app (the runtime's session) and what belongs to them: their saved addresses
and their orders; another consumer's address or order does not exist for them."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, InvalidRequest, NotFound

from .schema import addresses, consumers, orders, sessions

NOT_SIGNED_IN = "Sign in to DoorDash first."


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """The consumer signs in with their account's email (any case); the assistant then acts on that account."""
    wanted = email.strip()
    found = db.select(consumers, "lower(email) = lower(?)", (wanted,), limit=1)
    if not found:
        raise NotFound(f"No DoorDash account uses {wanted}.")
    db.start_session(sessions, consumer_id=found[0]["id"])
    return found[0]


def me(db: Database) -> dict[str, Any]:
    """The signed-in consumer."""
    return db.get(consumers, db.current_session(sessions, NOT_SIGNED_IN)["consumer_id"], "Consumer")


def own_address(db: Database, consumer: dict[str, Any], address_id: str | None) -> dict[str, Any]:
    """One of the consumer's saved addresses; the default one when `address_id` is None."""
    if address_id is None:
        default = db.find(addresses, consumer_id=consumer["id"], is_default=True)
        if not default:
            raise InvalidRequest("Add a delivery address first.")
        return default[0]
    return db.find_one(
        addresses, id=address_id, consumer_id=consumer["id"], not_found=f"Address '{address_id}' not found"
    )


def dropoff_address(
    db: Database, consumer: dict[str, Any], fulfillment_type: str, address_id: str | None
) -> dict[str, Any] | None:
    """The delivery address of a delivery order (None for pickup)."""
    return own_address(db, consumer, address_id) if fulfillment_type == "delivery" else None


def own_order(db: Database, consumer: dict[str, Any], order_id: str) -> dict[str, Any]:
    """One of the consumer's orders."""
    return db.find_one(orders, id=order_id, consumer_id=consumer["id"], not_found=f"Order '{order_id}' not found")
