"""Who is signed in to My NCBI and which collections they may see or change: their own, and other users' public
ones read-only."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .schema import accounts, collections, sessions


def me(db: Database) -> dict[str, Any]:
    """The signed-in My NCBI account."""
    session = db.current_session(sessions, "Sign in to My NCBI first.")
    return db.get(accounts, session["user_id"], "Account")


def viewable_collection(db: Database, collection_id: str) -> dict[str, Any]:
    """A collection the account may read: its own, or another user's public one."""
    found = db.get(collections, collection_id, "Collection")
    if found["owner_id"] != me(db)["user_id"] and not found["public"]:
        raise PermissionDenied(f"Collection {collection_id} is private to its owner.")
    return found


def own_collection(db: Database, collection_id: str) -> dict[str, Any]:
    """A collection the account may change: only its own."""
    found = viewable_collection(db, collection_id)
    if found["owner_id"] != me(db)["user_id"]:
        raise PermissionDenied(f"Collection {collection_id} belongs to another My NCBI user; you can only view it.")
    return found
