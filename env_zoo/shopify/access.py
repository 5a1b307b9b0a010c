"""Who is signed in on the storefront: the assistant acts only for that shopper, and sees only their orders."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import customers, orders, storefront_sessions

NOT_SIGNED_IN = "No shopper is signed in. Ask the shopper to log in to the store first."


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """Open a storefront session for the enabled account with this email (any case); return the customer."""
    found = db.find(customers, email=email.lower())
    if not found:
        raise NotFound("Unidentified customer: no account with that email and password.")
    customer = found[0]
    if customer["state"] == "disabled":
        raise PermissionDenied("This customer account has been disabled by the store.")
    if customer["state"] != "enabled":
        raise PermissionDenied("This account is not activated yet; accept the invitation email first.")
    db.start_session(storefront_sessions, customer_id=customer["id"])
    return customer


def shopper(db: Database) -> dict[str, Any]:
    """The signed-in shopper's customer row."""
    session = db.current_session(storefront_sessions, NOT_SIGNED_IN)
    return db.get(customers, session["customer_id"], "Customer")


def own_order(db: Database, customer: dict[str, Any], order_id: str) -> dict[str, Any]:
    """One of the shopper's orders by id; another customer's order does not exist for them."""
    return db.find_one(
        orders, id=order_id, customer_id=customer["id"], not_found=f"Order '{order_id}' not found for this customer"
    )


def own_order_named(db: Database, customer: dict[str, Any], name: str) -> dict[str, Any]:
    """One of the shopper's orders by the number shown to them, e.g. "#1187"."""
    return db.find_one(
        orders, name=name, customer_id=customer["id"], not_found=f"Order {name} not found for this customer"
    )
