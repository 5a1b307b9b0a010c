"""Who is signed in to Mercury and what their role lets them do: admins do everything (payments subject to the
approval policy, approving others' requests, recipients), custom users with the Move Money permission send money and
manage recipients, bookkeepers and custom users without it view accounts and annotate transactions, and employees
only see their cards (no bank accounts)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .schema import sessions, users

NOT_SIGNED_IN = "Unauthorized: sign in to Mercury first."


def me(db: Database) -> dict[str, Any]:
    """The signed-in team member's row; refused when nobody is signed in."""
    return db.get(users, db.current_session(sessions, NOT_SIGNED_IN)["user_id"], "User")


def banking_user(db: Database) -> dict[str, Any]:
    """The signed-in team member, who must be allowed to see bank accounts (every role but employee)."""
    user = me(db)
    if user["role"] == "employee":
        raise PermissionDenied("Forbidden: employees can only view their own cards, not bank accounts.")
    return user


def money_mover(db: Database) -> dict[str, Any]:
    """The signed-in team member, who must hold the Move Money permission (admins always do)."""
    user = banking_user(db)
    if user["role"] != "admin" and not (user["role"] == "custom" and user["can_move_money"]):
        raise PermissionDenied("Forbidden: you don't have permission to move money or manage recipients.")
    return user


def admin(db: Database, action: str) -> dict[str, Any]:
    """The signed-in team member, who must be an admin to do `action`."""
    user = banking_user(db)
    if user["role"] != "admin":
        raise PermissionDenied(f"Forbidden: only admins can {action}.")
    return user
