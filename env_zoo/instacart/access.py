"""Who is signed in to Instacart (the runtime's session) and what belongs to them: saved addresses, orders and
their lines; another customer's address or order does not exist for them."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .schema import addresses, order_items, orders, sessions, users

NOT_SIGNED_IN = "Sign in to your Instacart account to continue."


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """The customer signs in with their account's email (any case)."""
    found = db.find(users, email=email.strip().lower())
    if not found:
        raise NotFound("We couldn't find an Instacart account with that email and password.")
    db.start_session(sessions, user_id=found[0]["id"])
    return found[0]


def signed_in(db: Database) -> dict[str, Any]:
    """The customer signed in to Instacart."""
    return db.get(users, db.current_session(sessions, NOT_SIGNED_IN)["user_id"], "User")


def own_address(db: Database, user: dict[str, Any], address_id: str) -> dict[str, Any]:
    """One of the customer's saved addresses."""
    return db.find_one(addresses, id=address_id, user_id=user["id"], not_found=f"Address '{address_id}' not found")


def own_order(db: Database, user: dict[str, Any], order_id: str) -> dict[str, Any]:
    """One of the customer's orders."""
    return db.find_one(orders, id=order_id, user_id=user["id"], not_found=f"Order '{order_id}' not found")


def order_line(db: Database, order_id: str, item_id: str) -> dict[str, Any]:
    """The line of an order holding an item."""
    return db.find_one(
        order_items, order_id=order_id, item_id=item_id, not_found=f"Item '{item_id}' is not in order {order_id}"
    )
