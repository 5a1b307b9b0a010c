"""Who is signed in (the traveller's session) and what is theirs: orders and wish lists. Another traveller's
records don't exist for the signed-in traveller."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import bookers, orders, sessions, wish_lists

NOT_SIGNED_IN = "Sign in to your Booking.com account first."


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """Start the traveller's session on the account with this email address (any case)."""
    found = db.select(bookers, "lower(email) = ?", [email.strip().lower()])
    if not found:
        raise NotFound("No Booking.com account uses that email address.")
    db.start_session(sessions, booker_id=found[0]["id"])
    return found[0]


def signed_in(db: Database) -> dict[str, Any]:
    """The traveller signed in to Booking.com."""
    return db.get(bookers, db.current_session(sessions, NOT_SIGNED_IN)["booker_id"], "Booker")


def current_level(db: Database) -> int:
    """The signed-in traveller's Genius level; 0 when nobody is signed in (no Genius prices)."""
    try:
        return signed_in(db)["genius_level"]
    except PermissionDenied:
        return 0


def own_order(db: Database, booker: dict[str, Any], order_id: str) -> dict[str, Any]:
    """One of the traveller's orders (a confirmation number may be written with dots: 4902.1234)."""
    return db.find_one(
        orders,
        id=str(order_id).replace(".", "").strip(),
        booker_id=booker["id"],
        not_found=f"No booking with confirmation number {order_id} on your account.",
    )


def own_wish_list(db: Database, booker: dict[str, Any], wish_list_id: str) -> dict[str, Any]:
    """One of the traveller's wish lists."""
    return db.find_one(
        wish_lists, id=wish_list_id, booker_id=booker["id"], not_found=f"Wish list {wish_list_id} not found."
    )
