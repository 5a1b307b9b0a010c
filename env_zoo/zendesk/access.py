"""Who the API token acts as, and what an agent may do: group membership, admin-only changes, restricted macros."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .schema import account, group_memberships, users


def me(db: Database) -> dict[str, Any]:
    """The agent the API token belongs to (users/me)."""
    return db.get(users, db.find(account)[0]["current_user_id"], "User")


def is_member(db: Database, user_id: int, group_id: int) -> bool:
    """Whether an agent belongs to a group."""
    return bool(db.find(group_memberships, user_id=user_id, group_id=group_id))


def require_admin(db: Database) -> dict[str, Any]:
    """The signed-in agent, when an admin; group memberships are an admin's to change."""
    agent = me(db)
    if agent["role"] != "admin":
        raise PermissionDenied("Only admins can change group memberships")
    return agent


def may_use_macro(db: Database, agent: dict[str, Any], macro: dict[str, Any]) -> None:
    """A macro restricted to groups is only for agents in one of them."""
    restriction = macro["restriction"]
    if restriction and not any(is_member(db, agent["id"], g) for g in restriction["ids"]):
        raise PermissionDenied(f"Macro '{macro['title']}' is only available to agents in its groups")
