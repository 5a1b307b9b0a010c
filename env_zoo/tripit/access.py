"""Who is signed in to TripIt and what they may do with a trip: its owner does everything; an invitee who accepted
sees it, and edits its plans unless invited read-only; someone with a pending invitation may look at the trip before
answering but changes nothing. A trip the traveler has no part in does not exist for them (404)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import invitees, profiles, sessions, trips

NOT_SIGNED_IN = "401 Unauthorized: no TripIt account is signed in. Ask the traveler to sign in."


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """Start the traveler's session; an unknown email is refused the way TripIt's sign-in page does."""
    profile = db.find_one(
        profiles, not_found="We don't recognize that email address or password.", email=email.strip().lower()
    )
    db.start_session(sessions, profile_ref=profile["ref"])
    return profile


def me(db: Database) -> dict[str, Any]:
    """The signed-in traveler's profile."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return db.get(profiles, session["profile_ref"], "Profile")


def role(db: Database, profile_ref: str, trip: dict[str, Any]) -> str | None:
    """owner, editor, viewer or invited (a pending invitation) on a trip; None without an invitation."""
    if trip["owner_ref"] == profile_ref:
        return "owner"
    found = db.find(invitees, trip_id=trip["id"], profile_ref=profile_ref)
    if not found:
        return None
    if found[0]["status"] == "pending":
        return "invited"
    return "viewer" if found[0]["is_read_only"] else "editor"


def visible_trip(db: Database, profile: dict[str, Any], trip_id: str) -> tuple[dict[str, Any], str]:
    """A trip the traveler owns or has joined, with their role on it."""
    not_found = f"404 Not Found: Trip {trip_id} not found."
    found = db.find(trips, id=trip_id.strip())
    if not found:
        raise NotFound(not_found)
    trip_role = role(db, profile["ref"], found[0])
    if trip_role is None:
        raise NotFound(not_found)
    return found[0], trip_role


def editable_trip(db: Database, profile: dict[str, Any], trip_id: str) -> dict[str, Any]:
    """A trip whose plans the traveler may change (owner, or invitee without read-only access)."""
    trip, trip_role = visible_trip(db, profile, trip_id)
    if trip_role == "invited":
        raise PermissionDenied(f"403 Forbidden: accept your invitation to trip {trip['id']} before changing it.")
    if trip_role == "viewer":
        raise PermissionDenied(
            f"403 Forbidden: you have view-only access to trip {trip['id']} ({trip['display_name']})."
        )
    return trip


def owned_trip(db: Database, profile: dict[str, Any], trip_id: str, action: str) -> dict[str, Any]:
    """A trip the traveler owns; others are refused `action`."""
    trip, trip_role = visible_trip(db, profile, trip_id)
    if trip_role != "owner":
        raise PermissionDenied(f"403 Forbidden: only the trip's owner can {action}.")
    return trip
