"""Who is signed in (a household member's Home Assistant user) and what they may do: everyone controls devices and
reads everything; only administrators change the registries or turn automations on and off."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import NOT_SIGNED_IN, unauthorized
from .schema import sessions, users


def current_user(db: Database) -> dict[str, Any]:
    """The signed-in user the assistant acts for."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return db.get(users, session["user_id"], "User")


def require_admin(db: Database, action: str) -> dict[str, Any]:
    """The signed-in user, who must be an administrator to `action`."""
    user = current_user(db)
    if not user["is_admin"]:
        raise unauthorized(f"{user['name']} is not an administrator; only administrators can {action}.")
    return user
