"""Who is signed in to OpenTable (the runtime's session, started by the diner's own sign-in) and what is theirs:
a diner sees and changes only their own reservations, slot locks and waitlist entries."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .schema import diner_sessions, diners, reservations, slot_locks, waitlist_entries

NOT_SIGNED_IN = "No diner is signed in. The diner must sign in to OpenTable first."


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """Start the diner's session by their account email (any case); the password stays with the diner."""
    found = db.find(diners, email=email.strip().lower())
    if not found:
        raise NotFound("We couldn't find an OpenTable account with that email and password.")
    db.start_session(diner_sessions, diner_id=found[0]["id"])
    return found[0]


def signed_in(db: Database) -> dict[str, Any]:
    """The diner signed in to OpenTable."""
    return db.get(diners, db.current_session(diner_sessions, NOT_SIGNED_IN)["diner_id"], "Diner")


def signed_in_id(db: Database) -> str | None:
    """The signed-in diner's id, or None: directory reads work signed out too."""
    found = db.find(diner_sessions)
    return found[0]["diner_id"] if found else None


def _own(db: Database, table: Any, key: str, diner: dict[str, Any], missing: str) -> dict[str, Any]:
    found = db.find(table, id=str(key))
    if not found or found[0]["diner_id"] != diner["id"]:
        raise NotFound(missing)
    return found[0]


def own_reservation(db: Database, diner: dict[str, Any], confirmation_number: str) -> dict[str, Any]:
    """One of the diner's reservations."""
    missing = f"No reservation with confirmation number {confirmation_number} on your account."
    return _own(db, reservations, confirmation_number, diner, missing)


def own_slot_lock(db: Database, diner: dict[str, Any], slot_lock_id: str) -> dict[str, Any]:
    """One of the diner's slot locks."""
    return _own(db, slot_locks, slot_lock_id, diner, f"Slot lock {slot_lock_id} not found.")


def own_waitlist_entry(db: Database, diner: dict[str, Any], waitlist_id: str) -> dict[str, Any]:
    """One of the diner's waitlist entries."""
    return _own(db, waitlist_entries, waitlist_id, diner, f"Waitlist entry {waitlist_id} not found.")
