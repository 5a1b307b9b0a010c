"""Who is signed in (the Salesforce user whose session the assistant uses) and what they may delete."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .rules import sf_error
from .schema import sessions, users

NOT_SIGNED_IN = "INVALID_SESSION_ID: Session expired or invalid. Ask the user to log in to Salesforce first."


def me(db: Database) -> dict[str, Any]:
    """The signed-in user; refused when nobody has signed in."""
    return db.get(users, db.current_session(sessions, NOT_SIGNED_IN)["user_id"])


def check_can_delete(db: Database, record: dict[str, Any]) -> None:
    """Only the record's owner, the owner's manager or a System Administrator may delete it."""
    user = me(db)
    if user["Profile"] == "System Administrator" or record["OwnerId"] == user["Id"]:
        return
    if db.get(users, record["OwnerId"])["ManagerId"] == user["Id"]:
        return
    raise sf_error("INSUFFICIENT_ACCESS_OR_READONLY", "insufficient access rights on object id", kind=PermissionDenied)
