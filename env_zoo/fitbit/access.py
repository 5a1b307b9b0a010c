"""Who authorized the assistant (one Fitbit user, "-" in the Web API's paths) and which OAuth scopes they granted;
every tool names the scope it needs and whether it reads or writes."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .errors import insufficient_scope, not_authorized
from .schema import sessions, users

SCOPES = ("activity", "heartrate", "nutrition", "profile", "settings", "sleep", "social", "weight")


def me(db: Database, scope: str, access: str = "read") -> dict[str, Any]:
    """The authorizing user's row; 401 without authorization, 403 insufficient_scope without `scope`."""
    try:
        session = db.current_session(sessions, "not authorized")
    except PermissionDenied:
        raise not_authorized() from None
    if scope not in session["scopes"]:
        raise insufficient_scope(scope, access)
    return db.get(users, session["user_id"])
