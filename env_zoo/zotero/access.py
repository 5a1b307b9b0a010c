"""Who is calling and what the API key lets them do: the key's own rights in the personal library and in group
libraries, and each group's membership, roles and library-editing setting."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, PermissionDenied

from .schema import api_keys, group_members, groups, libraries


def api_key(db: Database) -> dict[str, Any]:
    """The API key in use (the account has exactly one)."""
    return db.find(api_keys)[0]


def membership(db: Database, group_id: int, user_id: int) -> dict[str, Any] | None:
    rows = db.find(group_members, group_id=group_id, user_id=user_id)
    return rows[0] if rows else None


def can_edit(group: dict[str, Any], member: dict[str, Any] | None) -> bool:
    """Whether a member's role may write to the group's library under its library-editing setting."""
    return member is not None and (group["library_editing"] == "members" or member["role"] in ("owner", "admin"))


def library_for(db: Database, group_id: int | None, write: bool = False) -> dict[str, Any]:
    """The library a call acts on, after the key's and the group's permission checks."""
    key = api_key(db)
    if group_id is None:
        if not key["library_access"]:
            raise PermissionDenied("Forbidden: this API key has no access to your personal library")
        if write and not key["write_access"]:
            raise PermissionDenied("Write access denied: this API key is read-only for your personal library")
        return db.get(libraries, f"users/{key['user_id']}", "Library")
    group = db.find_one(groups, id=group_id, not_found=f"Group {group_id} not found")
    if key["groups_access"] == "none":
        raise PermissionDenied("Forbidden: this API key has no access to group libraries")
    member = membership(db, group_id, key["user_id"])
    if member is None and (group["type"] == "Private" or group["library_reading"] == "members"):
        raise PermissionDenied(f"Forbidden: you are not a member of the group '{group['name']}'")
    if write:
        if key["groups_access"] != "write":
            raise PermissionDenied("Write access denied: this API key can only read group libraries")
        if member is None:
            raise PermissionDenied(f"Write access denied: you are not a member of the group '{group['name']}'")
        if not can_edit(group, member):
            raise PermissionDenied(
                f"Write access denied: in '{group['name']}' only group admins can edit the library "
                f"(your role is {member['role']})"
            )
    return db.get(libraries, f"groups/{group_id}", "Library")


def check_notes_access(db: Database) -> None:
    if not api_key(db)["notes_access"]:
        raise PermissionDenied("Forbidden: this API key has no notes access")


def created_by(db: Database, group_id: int | None) -> int | None:
    """Group libraries record who added an item (createdByUser); the personal library does not."""
    return api_key(db)["user_id"] if group_id is not None else None
