"""Who is signed in to the Datadog organization and what their role lets them do: read-only users read, standard
and admin users also create and change monitors, downtimes, incidents and SLOs."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .errors import forbidden, missing
from .schema import sessions, users

NOT_SIGNED_IN = '401 Unauthorized: {"errors": ["Unauthorized. Ask the user to sign in to Datadog first."]}'
READ_ONLY = "Datadog Read Only Role"


def signed_in(db: Database) -> dict[str, Any]:
    """The user the assistant acts for."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return db.get(users, session["user_id"])


def writer(db: Database) -> dict[str, Any]:
    """The signed-in user, if their role may change things (403 for the read-only role)."""
    user = signed_in(db)
    if user["role"] == READ_ONLY:
        raise forbidden("Forbidden: the Datadog Read Only Role cannot modify resources")
    return user


def user_by_handle(db: Database, handle: str) -> dict[str, Any]:
    """A user by their handle (email), case-insensitively."""
    rows = db.select(users, "lower(handle) = ?", [handle.strip().lower()])
    if not rows:
        raise NotFound(missing("User", handle.strip()))
    return rows[0]
