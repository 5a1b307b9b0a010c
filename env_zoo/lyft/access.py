"""Who is logged in to the Lyft app (the runtime's session) and what belongs to them: their rides, payment
methods, saved places and lost-item reports; another rider's are not found for them."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .schema import lost_items, payment_methods, riders, rides, saved_places, sessions

NOT_LOGGED_IN = "unauthorized: no rider is logged in; log in to Lyft with your phone number first."


def e164(phone_number: str) -> str:
    """A US phone number as +1 and ten digits."""
    digits = "".join(ch for ch in phone_number if ch.isdigit())
    return "+" + digits if len(digits) == 11 else "+1" + digits


def log_in(db: Database, phone_number: str) -> dict[str, Any]:
    """The rider logs in with the phone number on their account; the assistant then acts for them."""
    found = db.select(riders, "phone_number = ?", (e164(phone_number),), limit=1)
    if not found:
        raise NotFound(f"not_found: no Lyft account uses the phone number {phone_number.strip()}.")
    db.start_session(sessions, user_id=found[0]["user_id"])
    return found[0]


def me(db: Database) -> dict[str, Any]:
    """The logged-in rider."""
    return db.get(riders, db.current_session(sessions, NOT_LOGGED_IN)["user_id"], "Rider")


def own_ride(db: Database, rider: dict[str, Any], ride_id: str) -> dict[str, Any]:
    """One of the rider's rides."""
    return db.find_one(
        rides, ride_id=ride_id, user_id=rider["user_id"], not_found=f"not_found: ride {ride_id} not found."
    )


def own_payment_method(db: Database, rider: dict[str, Any], payment_method_id: str) -> dict[str, Any]:
    """One of the rider's payment methods."""
    return db.find_one(
        payment_methods,
        payment_method_id=payment_method_id,
        user_id=rider["user_id"],
        not_found=f"not_found: payment method {payment_method_id} not found.",
    )


def default_payment_method(db: Database, rider: dict[str, Any]) -> dict[str, Any]:
    """The rider's default payment method."""
    return db.find_one(
        payment_methods, user_id=rider["user_id"], is_default=True, not_found="no_payment_method: add a payment method."
    )


def own_saved_place(db: Database, rider: dict[str, Any], place_id: str) -> dict[str, Any]:
    """One of the rider's saved places."""
    return db.find_one(
        saved_places,
        place_id=place_id,
        user_id=rider["user_id"],
        not_found=f"not_found: saved place {place_id} not found.",
    )


def own_lost_item(db: Database, rider: dict[str, Any], report_id: str) -> dict[str, Any]:
    """One of the rider's lost-item reports."""
    return db.find_one(
        lost_items,
        report_id=report_id,
        user_id=rider["user_id"],
        not_found=f"not_found: lost item report {report_id} not found.",
    )
