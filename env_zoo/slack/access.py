"""Who the assistant acts as: the person whose user token it holds after they sign in (or accept an invitation),
their role in the workspace (member, admin, owner, guest) and how other people are looked up."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .schema import auth_sessions, users

NOT_AUTHED = "not_authed: No one is signed in to Slack. Ask the user to sign in first."


def sign_in(db: Database, user: dict[str, Any]) -> None:
    """Hold `user`'s token from now on (replacing whoever was signed in)."""
    db.start_session(auth_sessions, user_id=user["id"])


def me(db: Database) -> dict[str, Any]:
    """The user whose token the assistant holds; not_authed when nobody has signed in."""
    return db.get(users, db.current_session(auth_sessions, NOT_AUTHED)["user_id"], "User")


def is_admin(user: dict[str, Any]) -> bool:
    """Workspace Admins and Owners."""
    return bool(user["is_admin"] or user["is_owner"])


def is_guest(user: dict[str, Any]) -> bool:
    """Multi- and single-channel guests (restricted accounts)."""
    return bool(user["is_restricted"])


def refuse_guests(user: dict[str, Any], error: str) -> None:
    """PermissionDenied(`error`) when `user` is a guest."""
    if is_guest(user):
        raise PermissionDenied(error)


def person(db: Database, user_id: str) -> dict[str, Any]:
    """Anyone in the workspace by user ID (deactivated and invited accounts included)."""
    return db.find_one(users, id=user_id, not_found=f"user_not_found: Value passed for user was invalid: {user_id}")


def by_email(db: Database, email: str) -> dict[str, Any] | None:
    """The account with this email (any case, surrounding spaces ignored), or None."""
    found = db.find(users, email=email.strip().lower())
    return found[0] if found else None
