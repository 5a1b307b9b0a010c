"""Who is signed in to arXiv, and what belongs to them: their folders, saved articles, follows and alerts, and the
articles they may withdraw (those they are an author of)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .schema import accounts, alerts, folders, sessions


def me(db: Database) -> dict[str, Any]:
    """The signed-in reader's account."""
    session = db.current_session(sessions, "Log in to arXiv first: the library, follows and alerts need an account.")
    return db.get(accounts, session["user_id"], "Account")


def own_folder(db: Database, folder_id: str) -> dict[str, Any]:
    """One of the reader's folders; another reader's folder is as good as missing."""
    return db.find_one(
        folders, folder_id=folder_id, owner_id=me(db)["user_id"], not_found=f"Folder {folder_id} not found"
    )


def own_alert(db: Database, alert_id: str) -> dict[str, Any]:
    """One of the reader's e-mail alerts."""
    return db.find_one(alerts, alert_id=alert_id, owner_id=me(db)["user_id"], not_found=f"Alert {alert_id} not found")


def check_is_author(db: Database, paper: dict[str, Any]) -> None:
    """Only an author of an article (by the author identifier the reader claimed) may withdraw it."""
    author_id = me(db)["author_id"]
    if not author_id or f"|{author_id}|" not in paper["author_ids"]:
        raise PermissionDenied(
            f"You are not an author of {paper['id']}: only its authors can withdraw or replace an article."
        )
