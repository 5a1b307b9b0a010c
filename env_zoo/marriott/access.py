"""Who is signed in to Marriott Bonvoy and what is theirs: a member sees only their own reservations, points,
certificates and Suite Night Awards; another member's reservation doesn't exist for them."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .schema import members, reservations, sessions

NOT_SIGNED_IN = "Please sign in to your Marriott Bonvoy account."


def sign_in(db: Database, login: str) -> dict[str, Any]:
    """Start the member's session by member number or email address (any case)."""
    login = login.strip().lower()
    found = db.select(members, "member_number = ? OR lower(email) = ?", (login, login))
    if not found:
        raise NotFound("We couldn't find a Marriott Bonvoy account with that member number or email.")
    db.start_session(sessions, member_number=found[0]["member_number"])
    return found[0]


def me(db: Database) -> dict[str, Any]:
    """The signed-in member."""
    return db.get(members, db.current_session(sessions, NOT_SIGNED_IN)["member_number"], "Member")


def own_reservation(db: Database, member: dict[str, Any], confirmation_number: str) -> dict[str, Any]:
    """One of the member's reservations."""
    return db.find_one(
        reservations,
        not_found=f"We couldn't find reservation {confirmation_number} on your account.",
        confirmation_number=confirmation_number.strip(),
        member_number=member["member_number"],
    )
