"""Who is signed in and what protocols.io lets them see and edit: published protocols are public; a draft is seen
by its creator, researchers it is shared with, and members of its workspace; it is edited by its creator, by
collaborators with edit access and by workspace owners, admins and members (not viewers)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import forbidden, not_found
from .schema import protocols, sessions, shares, users, workspace_members, workspaces

NOT_SIGNED_IN = '{"status_code": 1219, "error_message": "Token is expired or invalid. Ask the user to sign in."}'
EDITORS = ("owner", "admin", "member")


def me(db: Database) -> dict[str, Any]:
    """The signed-in researcher."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return db.get(users, session["user_id"])


def workspace_role(db: Database, user_id: int, workspace_id: int | None) -> str | None:
    """The researcher's role in a workspace, or None."""
    if workspace_id is None:
        return None
    found = db.find(workspace_members, workspace_id=workspace_id, user_id=user_id)
    return found[0]["role"] if found else None


def share_access(db: Database, user_id: int, protocol_id: int) -> str | None:
    """view or edit when the protocol is shared with the researcher."""
    found = db.find(shares, protocol_id=protocol_id, user_id=user_id)
    return found[0]["access"] if found else None


def visible_protocol(db: Database, user: dict[str, Any], protocol_id: int) -> dict[str, Any]:
    """A protocol the researcher may see; other people's unshared drafts do not exist for them."""
    row = db.find_one(
        protocols, id=protocol_id, not_found='{"status_code": 404, "error_message": "Protocol not found."}'
    )
    if row["state"] == "published" or row["creator_id"] == user["id"]:
        return row
    if share_access(db, user["id"], row["id"]) or workspace_role(db, user["id"], row["workspace_id"]):
        return row
    raise not_found()


def may_edit(db: Database, user: dict[str, Any], row: dict[str, Any]) -> bool:
    """Whether the researcher may edit the protocol's content (once it is a draft)."""
    return (
        row["creator_id"] == user["id"]
        or share_access(db, user["id"], row["id"]) == "edit"
        or workspace_role(db, user["id"], row["workspace_id"]) in EDITORS
    )


def editable_protocol(db: Database, user: dict[str, Any], protocol_id: int) -> dict[str, Any]:
    """A draft the researcher may edit."""
    row = visible_protocol(db, user, protocol_id)
    if not may_edit(db, user, row):
        raise forbidden("You do not have permission to edit this protocol.")
    if row["state"] == "published":
        raise forbidden("Published protocols cannot be edited. Create a new version to make changes.")
    return row


def owned_protocol(db: Database, user: dict[str, Any], protocol_id: int) -> dict[str, Any]:
    """A protocol the researcher created (publishing, sharing, versioning and deleting are the creator's)."""
    row = visible_protocol(db, user, protocol_id)
    if row["creator_id"] != user["id"]:
        raise forbidden("Only the protocol's author can do this.")
    return row


def workspace_by_uri(db: Database, uri: str) -> dict[str, Any]:
    """A workspace by its URL name."""
    found = db.find(workspaces, uri=uri.strip().lower())
    if not found:
        raise not_found(f"Workspace '{uri}' not found.")
    return found[0]
