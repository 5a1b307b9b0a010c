"""Who is signed in to the OpenAlex library, and which lists they may see or change: their own, and other users'
public lists read-only."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .schema import accounts, lists, sessions


def me(db: Database) -> dict[str, Any]:
    """The signed-in account."""
    session = db.current_session(sessions, "Sign in to OpenAlex first: lists and saved searches need an account.")
    return db.get(accounts, session["user_id"], "Account")


def viewable_list(db: Database, list_id: str) -> dict[str, Any]:
    """A list the account may read: its own, or another user's public one."""
    found = db.find_one(lists, list_id=list_id, not_found=f"List {list_id} not found")
    if found["owner_id"] != me(db)["user_id"] and found["visibility"] != "public":
        raise PermissionDenied(f"List {list_id} is private to its owner.")
    return found


def own_list(db: Database, list_id: str) -> dict[str, Any]:
    """A list the account may change: only its own."""
    found = viewable_list(db, list_id)
    if found["owner_id"] != me(db)["user_id"]:
        raise PermissionDenied(f"List {list_id} belongs to another OpenAlex user; you can only view it.")
    return found
