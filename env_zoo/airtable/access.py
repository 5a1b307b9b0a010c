"""Who is signed in and what their permission on a base lets them do: read and comment users read (comment users
also comment), edit users change records, create and owner users also change tables and fields."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import body, forbidden, not_found
from .schema import bases, collaborators, sessions, users

NOT_SIGNED_IN = body("401 Unauthorized", "AUTHENTICATION_REQUIRED", "Authentication required. Ask the user to sign in.")
LEVELS = {"read": 0, "comment": 1, "edit": 2, "create": 3, "owner": 4}


def signed_in(db: Database) -> dict[str, Any]:
    """The user the assistant acts for."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return db.get(users, session["user_id"])


def base_access(db: Database, base_id: str, needs: str = "read") -> tuple[dict[str, Any], dict[str, Any], str]:
    """(user, base, permission) when the user is a collaborator of the base with at least `needs` permission;
    404 for a base they can't see, 403 when their permission is too low."""
    user = signed_in(db)
    found = db.find(bases, id=base_id)
    grant = db.find(collaborators, base_id=base_id, user_id=user["id"])
    if not found or not grant:
        raise not_found()
    permission = grant[0]["permission"]
    if LEVELS[permission] < LEVELS[needs]:
        raise forbidden()
    return user, found[0], permission
