"""Who is signed in: one Duolingo learner, whose courses, streak, gems, league and friends every tool acts on."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .schema import sessions, users

NOT_SIGNED_IN = "Unauthorized: sign in to your Duolingo account first."


def me(db: Database) -> dict[str, Any]:
    """The signed-in learner's row; PermissionDenied when no one has signed in."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return db.get(users, session["user_id"])
