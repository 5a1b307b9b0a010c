"""Who is signed in to Trainline: the traveller whose account the assistant acts for; their own bookings,
Railcards and saved passengers only."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .schema import bookings, railcards, sessions

NOT_SIGNED_IN = "You need to sign in to your Trainline account first."


def me(db: Database) -> str:
    """The signed-in traveller's user id."""
    return str(db.current_session(sessions, NOT_SIGNED_IN)["user_id"])


def my_booking(db: Database, booking_ref: str) -> dict[str, Any]:
    """One of the traveller's bookings; another account's booking reads as not found."""
    ref = booking_ref.strip().upper()
    return db.find_one(bookings, not_found=f"Booking {ref} not found in your account.", booking_ref=ref, user_id=me(db))


def my_railcard(db: Database, railcard_id: str) -> dict[str, Any]:
    return db.find_one(
        railcards,
        not_found=f"Railcard {railcard_id} not found in your account.",
        id=railcard_id,
        user_id=me(db),
        status="ACTIVE",
    )
