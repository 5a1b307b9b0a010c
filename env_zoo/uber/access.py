"""Who is signed in to the Uber app (the runtime's session) and what belongs to them: their rides, payment
methods, payment profiles and saved places; another rider's are not found for them."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .schema import payment_methods, places, profiles, requests, riders, sessions

NOT_SIGNED_IN = "No authentication provided. Sign in to Uber first."


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """The rider signs in with their account's email (any case); the assistant then acts on that account."""
    wanted = email.strip()
    found = db.select(riders, "lower(email) = lower(?)", (wanted,), limit=1)
    if not found:
        raise NotFound(f"No Uber account uses {wanted}.")
    db.start_session(sessions, rider_id=found[0]["rider_id"])
    return found[0]


def me(db: Database) -> dict[str, Any]:
    """The signed-in rider."""
    return db.get(riders, db.current_session(sessions, NOT_SIGNED_IN)["rider_id"], "Rider")


def own_request(db: Database, rider: dict[str, Any], request_id: str) -> dict[str, Any]:
    """One of the rider's ride requests."""
    return db.find_one(
        requests, request_id=request_id, rider_id=rider["rider_id"], not_found=f"Request {request_id} not found."
    )


def own_payment_method(db: Database, rider: dict[str, Any], payment_method_id: str) -> dict[str, Any]:
    """One of the rider's payment methods."""
    return db.find_one(
        payment_methods,
        payment_method_id=payment_method_id,
        rider_id=rider["rider_id"],
        not_found=f"Payment method {payment_method_id} not found.",
    )


def own_profile(db: Database, rider: dict[str, Any], profile_id: str | None) -> dict[str, Any]:
    """One of the rider's payment profiles; their Personal profile when `profile_id` is None."""
    if profile_id is None:
        return db.find_one(profiles, rider_id=rider["rider_id"], type="personal", not_found="No personal profile.")
    return db.find_one(
        profiles, profile_id=profile_id, rider_id=rider["rider_id"], not_found=f"Profile {profile_id} not found."
    )


def own_place(db: Database, rider: dict[str, Any], place_id: str) -> dict[str, Any]:
    """One of the rider's saved places."""
    return db.find_one(places, rider_id=rider["rider_id"], place_id=place_id, not_found=f"Place {place_id} not found.")
