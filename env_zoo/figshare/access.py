"""Who is signed in to Figshare and which articles, collections and projects they may read or change: their own,
and the articles of projects they belong to (read-only unless they own them)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import accounts, articles, collections, project_members, projects, sessions


def me(db: Database) -> dict[str, Any]:
    """The signed-in Figshare account."""
    session = db.current_session(sessions, "Authorization required: sign in to Figshare first.")
    return db.get(accounts, session["account_id"], "Account")


def membership(db: Database, project_id: int) -> dict[str, Any] | None:
    """The signed-in account's active membership of a project, if any."""
    found = db.find(project_members, project_id=project_id, account_id=me(db)["account_id"], status="active")
    return found[0] if found else None


def readable_article(db: Database, article_id: int) -> dict[str, Any]:
    """One of the account's own articles, or an article of a project it belongs to."""
    found = db.select(articles, "article_id = ?", (article_id,))
    if not found:
        raise NotFound("Article not found")
    row = found[0]
    if row["owner_id"] != me(db)["account_id"] and not (row["project_id"] and membership(db, row["project_id"])):
        raise NotFound("Article not found")
    return row


def own_article(db: Database, article_id: int) -> dict[str, Any]:
    """An article the account owns (only the owner edits, publishes or deletes it)."""
    row = readable_article(db, article_id)
    if row["owner_id"] != me(db)["account_id"]:
        raise PermissionDenied(f"Article {article_id} belongs to another project member; only its owner can change it.")
    return row


def own_collection(db: Database, collection_id: int) -> dict[str, Any]:
    return db.find_one(
        collections, collection_id=collection_id, owner_id=me(db)["account_id"], not_found="Collection not found"
    )


def member_project(db: Database, project_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A project the account belongs to, with its membership."""
    found = db.select(projects, "project_id = ?", (project_id,))
    role = membership(db, project_id) if found else None
    if not found or role is None:
        raise NotFound("Project not found")
    return found[0], role


def owned_project(db: Database, project_id: int) -> dict[str, Any]:
    project, role = member_project(db, project_id)
    if role["role"] != "owner":
        raise PermissionDenied("Only the project owner can manage its collaborators.")
    return project
