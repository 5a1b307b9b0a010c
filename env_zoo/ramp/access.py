"""Who is signed in to Ramp and what their role lets them see and do: owners and admins manage everything, bookkeepers
read everything and work on bills, managers see and review their direct reports' spend, and employees see their own."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .schema import sessions, users

NOT_SIGNED_IN = "Unauthorized: sign in to Ramp first."
ADMIN_ROLES = ("BUSINESS_OWNER", "BUSINESS_ADMIN")
READ_ALL_ROLES = ("BUSINESS_OWNER", "BUSINESS_ADMIN", "BUSINESS_BOOKKEEPER")


def me(db: Database) -> dict[str, Any]:
    """The signed-in user's row; refused when nobody is signed in."""
    return db.get(users, db.current_session(sessions, NOT_SIGNED_IN)["user_id"], "User")


def is_admin(user: dict[str, Any]) -> bool:
    return user["role"] in ADMIN_ROLES


def require_admin(db: Database, action: str) -> dict[str, Any]:
    """The signed-in user, who must be a business owner or admin to do `action`."""
    user = me(db)
    if not is_admin(user):
        raise PermissionDenied(f"Forbidden: only business owners and admins can {action}.")
    return user


def require_bookkeeping(db: Database, action: str) -> dict[str, Any]:
    """The signed-in user, who must be an owner, admin or bookkeeper to do `action` (bill pay)."""
    user = me(db)
    if user["role"] not in READ_ALL_ROLES:
        raise PermissionDenied(f"Forbidden: only owners, admins and bookkeepers can {action}.")
    return user


def visible_user_ids(db: Database, user: dict[str, Any]) -> list[str] | None:
    """Whose spend `user` may see: None for everyone (owners, admins, bookkeepers), else themselves and their direct
    reports."""
    if user["role"] in READ_ALL_ROLES:
        return None
    return [user["id"], *(u["id"] for u in db.find(users, manager_id=user["id"]))]


def check_visible(db: Database, user: dict[str, Any], owner_id: str, what: str) -> None:
    """Refuse to show or touch another person's `what` unless `user` may see their spend."""
    allowed = visible_user_ids(db, user)
    if allowed is not None and owner_id not in allowed:
        raise PermissionDenied(f"Forbidden: you can only access your own {what} and your direct reports'.")


def check_reviewer(db: Database, reviewer: dict[str, Any], submitter_id: str, what: str) -> None:
    """An approver is an owner or admin, or the submitter's manager, and never the submitter."""
    if submitter_id == reviewer["id"]:
        raise PermissionDenied(f"Forbidden: you cannot review your own {what}.")
    submitter = db.get(users, submitter_id, "User")
    if not is_admin(reviewer) and submitter["manager_id"] != reviewer["id"]:
        raise PermissionDenied(f"Forbidden: only an admin or the submitter's manager can review this {what}.")
