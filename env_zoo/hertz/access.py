"""Who is signed in on hertz.com: the Gold Plus Rewards member, found by member number or email, the reservations
that are theirs, and the reservations anyone may look up by confirmation number and last name."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import members, reservations, sessions


def member_by_login(db: Database, login: str) -> dict[str, Any]:
    """The member whose number or account email is `login` (any case)."""
    value = login.strip().lower()
    found = db.find(members, member_number=value) or db.find(members, email=value)
    if not found:
        raise NotFound("We couldn't find a Gold Plus Rewards account with that member number or email.")
    return found[0]


def signed_in_member(db: Database) -> dict[str, Any]:
    """The Gold Plus Rewards member signed in on hertz.com."""
    session = db.current_session(sessions, "Sign in to your Gold Plus Rewards account first.")
    return db.get(members, session["member_number"], "Member")


def reservation_by_name(db: Database, confirmation_number: str, last_name: str) -> dict[str, Any]:
    """A reservation anyone may look up with its confirmation number and the renter's last name (any case)."""
    found = db.find(reservations, confirmation_number=confirmation_number.strip().upper())
    if not found or found[0]["last_name"].lower() != last_name.strip().lower():
        raise NotFound("No reservation matches that confirmation number and last name.")
    return found[0]


def own_reservation(db: Database, member: dict[str, Any], confirmation_number: str) -> dict[str, Any]:
    """One of the signed-in member's reservations."""
    row = db.find_one(
        reservations,
        confirmation_number=confirmation_number.strip().upper(),
        not_found=f"Reservation '{confirmation_number}' not found",
    )
    if row["member_number"] != member["member_number"]:
        raise PermissionDenied(f"Reservation {row['confirmation_number']} belongs to another member.")
    return row
