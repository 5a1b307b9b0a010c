"""Who is signed in (the account that linked the assistant) and what they may do inside shared folders."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .schema import folder_members, sessions, users

NOT_SIGNED_IN = "invalid_access_token/ ask the user to link their Dropbox account first."


def me(db: Database) -> dict[str, Any]:
    """The signed-in account; refused when nobody has linked one."""
    account_id = db.current_session(sessions, NOT_SIGNED_IN)["account_id"]
    return db.get(users, account_id, "Account")


def my_access(db: Database, shared_folder_id: str, account_id: str) -> str | None:
    """The signed-in account's access level on a shared folder, or None when it is not a member."""
    found = db.find(folder_members, shared_folder_id=shared_folder_id, account_id=account_id)
    return found[0]["access_level"] if found else None
