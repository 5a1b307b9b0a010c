"""Who is signed in and what their user rights in a project let them do: a user sees only projects they are a
user of (and not after their access expires), a user assigned to a data access group sees and changes only that
group's records, and each action needs its right (design, user rights, data access groups, logging, create,
rename and delete records, lock/unlock with or without e-signature, and per-instrument rights)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import forbidden, not_found
from .schema import project_users, projects, sessions, users

NOT_SIGNED_IN = '{"error": "You do not have permissions to use the API. Ask the user to sign in."}'
RIGHT_NAMES = {
    "design": "Project Design and Setup",
    "user_rights": "User Rights",
    "data_access_groups": "Data Access Groups",
    "logging": "Logging",
    "record_create": "Create Records",
    "record_rename": "Rename Records",
    "record_delete": "Delete Records",
    "lock_records": "Record Locking",
}


def me(db: Database) -> dict[str, Any]:
    """The signed-in REDCap user."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return db.get(users, session["username"])


def membership(db: Database, project_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The project and the signed-in user's rights in it; a project they are not a user of does not exist for them,
    and expired access is refused."""
    user = me(db)
    found = db.find(project_users, project_id=project_id, username=user["username"])
    if not found:
        raise not_found(f"Project {project_id} was not found or you are not a user of it.")
    rights = found[0]
    if rights["expiration"] and rights["expiration"] < db.now().date().isoformat():
        raise forbidden(f"Your access to project {project_id} expired on {rights['expiration']}.")
    return db.get(projects, project_id), rights


def require(rights: dict[str, Any], right: str, minimum: int = 1) -> None:
    """Refuse unless the user holds `right` at `minimum` or above."""
    if rights[right] < minimum:
        raise forbidden(f"You do not have {RIGHT_NAMES[right]} privileges in this project.")


def form_right(rights: dict[str, Any], form: str) -> int:
    """0 no access, 1 view & edit, 2 read only."""
    return int(rights["forms"].get(form, 0))
