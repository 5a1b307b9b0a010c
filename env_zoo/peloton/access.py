"""Who is signed in: one Peloton member, whose library, history and social graph every tool acts on."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .schema import members, sessions

NOT_SIGNED_IN = "Unauthorized: sign in to your Peloton account first."


def me(db: Database) -> dict[str, Any]:
    """The signed-in member's row; PermissionDenied when no one has signed in."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return db.get(members, session["member_id"])
