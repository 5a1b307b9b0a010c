"""Who is signed in to Airbnb, and what belongs to them: their reservations, payment methods and wishlists."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .schema import guest_sessions, guests, listings, payment_methods, reservations, wishlists


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """Start the guest's session; an unknown email is refused the way the sign-in page does."""
    guest = db.find_one(guests, not_found="We couldn't find an account with that email.", email=email.strip().lower())
    db.start_session(guest_sessions, guest_id=guest["id"])
    return guest


def signed_in(db: Database) -> dict[str, Any]:
    """The signed-in guest."""
    session = db.current_session(guest_sessions, "Log in or sign up to continue.")
    return db.get(guests, session["guest_id"], "Guest")


def signed_in_id(db: Database) -> str | None:
    """The signed-in guest's id, or None when nobody is signed in (for reads that work either way)."""
    sessions = db.find(guest_sessions)
    return sessions[0]["guest_id"] if sessions else None


def listing(db: Database, listing_id: str) -> dict[str, Any]:
    """A listing by its id."""
    return db.find_one(listings, not_found=f"Listing {listing_id} isn't available.", id=listing_id)


def own_reservation(db: Database, guest: dict[str, Any], code: str) -> dict[str, Any]:
    """One of the guest's reservations by confirmation code."""
    return db.find_one(
        reservations,
        not_found=f"We couldn't find a reservation with confirmation code {code} on your account.",
        code=code.strip().upper(),
        guest_id=guest["id"],
    )


def own_wishlist(db: Database, guest: dict[str, Any], wishlist_id: str) -> dict[str, Any]:
    """One of the guest's wishlists."""
    return db.find_one(
        wishlists, not_found=f"Wishlist {wishlist_id} wasn't found.", id=wishlist_id, guest_id=guest["id"]
    )


def payment_method(db: Database, guest: dict[str, Any], method_id: str | None) -> dict[str, Any]:
    """The named payment method of the guest, or their default one."""
    if method_id is None:
        found = db.find(payment_methods, guest_id=guest["id"], is_default=True)
        if not found:
            raise NotFound("Add a payment method to book this place.")
        return found[0]
    return db.find_one(
        payment_methods,
        not_found=f"Payment method {method_id} isn't on your account.",
        id=method_id,
        guest_id=guest["id"],
    )
