"""Who is signed in to Rover, and what belongs to them: their pets, cards, meet & greets and bookings."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .schema import bookings, meet_greets, owner_sessions, owners, payment_methods, pets


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """Start the owner's session; an unknown email is refused as the log-in page does."""
    owner = db.find_one(owners, not_found="We don't recognize that email address.", email=email.strip().lower())
    db.start_session(owner_sessions, owner_id=owner["id"])
    return owner


def signed_in(db: Database) -> dict[str, Any]:
    """The signed-in owner."""
    session = db.current_session(owner_sessions, "Please sign in to continue.")
    return db.get(owners, session["owner_id"], "Owner")


def own_pet(db: Database, owner: dict[str, Any], pet_id: str) -> dict[str, Any]:
    """One of the owner's pet profiles."""
    return db.find_one(pets, not_found=f"Pet {pet_id} isn't on your account.", id=pet_id.strip(), owner_id=owner["id"])


def own_pets(db: Database, owner: dict[str, Any], pet_ids: list[str]) -> list[dict[str, Any]]:
    """The owner's active pets named by id, refusing repeats and memorialized profiles."""
    if len(set(pet_ids)) != len(pet_ids):
        raise InvalidRequest("Each pet can only be added once.")
    found = [own_pet(db, owner, pet_id) for pet_id in pet_ids]
    for pet in found:
        if pet["status"] != "active":
            raise Conflict(f"{pet['name']}'s profile is memorialized and can't be booked.")
    return found


def own_booking(db: Database, owner: dict[str, Any], booking_id: str) -> dict[str, Any]:
    """One of the owner's bookings or requests."""
    return db.find_one(
        bookings, not_found=f"Booking {booking_id} not found.", id=booking_id.strip(), owner_id=owner["id"]
    )


def own_meet_greet(db: Database, owner: dict[str, Any], meet_greet_id: str) -> dict[str, Any]:
    """One of the owner's meet & greets."""
    return db.find_one(
        meet_greets,
        not_found=f"Meet & Greet {meet_greet_id} not found.",
        id=meet_greet_id.strip(),
        owner_id=owner["id"],
    )


def card(db: Database, owner: dict[str, Any], method_id: str | None) -> dict[str, Any]:
    """The named card of the owner, or their default card; an expired card is refused."""
    if method_id is None:
        found = db.find(payment_methods, owner_id=owner["id"], is_default=True)
        if not found:
            raise InvalidRequest("Add a payment method to book.")
        row = found[0]
    else:
        row = db.find_one(
            payment_methods,
            not_found=f"Payment method {method_id} isn't on your account.",
            id=method_id.strip(),
            owner_id=owner["id"],
        )
    now = db.now()
    if (row["exp_year"], row["exp_month"]) < (now.year, now.month):
        raise InvalidRequest(f"Your card ending in {row['last4']} has expired. Choose another payment method.")
    return row
