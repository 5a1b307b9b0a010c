"""Who is signed in to the HubSpot account: the assistant acts as one HubSpot user (an owner)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .errors import body, unauthenticated
from .schema import owners, sessions


def signed_in(db: Database) -> dict[str, Any]:
    """The owner the assistant acts for (401 before sign-in)."""
    session = db.current_session(sessions, unauthenticated())
    return db.get(owners, session["user_id"])


def owner_by_email(db: Database, email: str) -> dict[str, Any]:
    """An owner by their email, case-insensitively (404 if none)."""
    rows = db.select(owners, "lower(email) = ?", [email.strip().lower()])
    if not rows:
        raise NotFound(body(404, "OBJECT_NOT_FOUND", f"No HubSpot user with email {email.strip()}"))
    return rows[0]
