"""Who is signed in (a user of the account) and whose meetings, recordings and webinars they may manage: the Owner
and Admins everyone's, Members only their own; only the Owner and Admins change users, and only the Owner changes
the Owner."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import forbidden, no_meeting, no_user, no_webinar
from .schema import meetings, sessions, users, webinars

NOT_SIGNED_IN = "124: Invalid access token. Ask the user to sign in to Zoom first."
ADMIN_ROLES = frozenset({"Owner", "Admin"})


def me(db: Database) -> dict[str, Any]:
    """The signed-in user."""
    return db.get(users, db.current_session(sessions, NOT_SIGNED_IN)["user_id"], "User")


def user_by_key(db: Database, key: str) -> dict[str, Any]:
    """A user by `me`, id or email, as Zoom's userId path parameter takes it; 1001 otherwise."""
    wanted = key.strip()
    if wanted == "me":
        return me(db)
    found = db.find(users, id=wanted) or db.find(users, email=wanted.lower())
    if not found:
        raise no_user(wanted)
    return found[0]


def is_admin(user: dict[str, Any]) -> bool:
    """Owner or Admin."""
    return user["role_name"] in ADMIN_ROLES


def acting_for(db: Database, key: str) -> dict[str, Any]:
    """The user named by `key`, when the signed-in user may act for them (themselves, or anyone as an admin)."""
    principal = me(db)
    user = user_by_key(db, key)
    if user["id"] != principal["id"] and not is_admin(principal):
        raise forbidden("Members can only manage their own meetings, recordings and webinars.")
    return user


def require_admin(db: Database, target: dict[str, Any]) -> None:
    """Only the Owner and Admins change users; only the Owner changes the Owner."""
    principal = me(db)
    if not is_admin(principal):
        raise forbidden("Only the account owner and admins can change users.")
    if target["role_name"] == "Owner" and principal["role_name"] != "Owner":
        raise forbidden("Only the account owner can change the owner's account.")


def owned_meeting(db: Database, meeting_id: int) -> dict[str, Any]:
    """A meeting the signed-in user may manage; 3001 when it doesn't exist."""
    found = db.find(meetings, id=meeting_id)
    if not found:
        raise no_meeting(meeting_id)
    acting_for(db, found[0]["host_id"])
    return found[0]


def owned_webinar(db: Database, webinar_id: int) -> dict[str, Any]:
    """A webinar the signed-in user may manage; 3001 when it doesn't exist."""
    found = db.find(webinars, id=webinar_id)
    if not found:
        raise no_webinar(webinar_id)
    acting_for(db, found[0]["host_id"])
    return found[0]
