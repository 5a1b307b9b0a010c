"""Who is signed in to the Uber Eats app (the runtime's session) and what is theirs: saved places, the cart and
orders; another eater's place or order does not exist for them."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .schema import eaters, orders, places, sessions

NOT_SIGNED_IN = "Sign in to Uber Eats first."


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """The eater signs in with their account's email (any case)."""
    wanted = email.strip()
    found = db.select(eaters, "lower(email) = lower(?)", (wanted,), limit=1)
    if not found:
        raise NotFound(f"No Uber account uses {wanted}.")
    db.start_session(sessions, eater_id=found[0]["id"])
    return found[0]


def me(db: Database) -> dict[str, Any]:
    """The signed-in eater."""
    return db.get(eaters, db.current_session(sessions, NOT_SIGNED_IN)["eater_id"], "Eater")


def own_place(db: Database, eater: dict[str, Any], place_id: str) -> dict[str, Any]:
    """One of the eater's saved places."""
    return db.find_one(places, id=place_id, eater_id=eater["id"], not_found=f"Place {place_id} not found.")


def own_order(db: Database, eater: dict[str, Any], order_id: str) -> dict[str, Any]:
    """One of the eater's orders."""
    return db.find_one(orders, id=order_id.strip(), eater_id=eater["id"], not_found=f"Order {order_id} not found.")
