"""Shared folder rules: which folders can be shared, who may see and manage a shared folder's members, and
where file requests may send their uploads."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .access import my_access
from .rules import READ_ONLY_LEVELS, api_error
from .schema import entries, folder_members, shared_folders
from .tree import check_writable, ensure_parents, live_at, lookup, new_folder, shared_root


def contains_shared(db: Database, entry: dict[str, Any]) -> bool:
    """Whether a shared folder lies anywhere below a folder."""
    if entry["tag"] != "folder":
        return False
    prefix = entry["path_lower"] + "/"
    found = db.select(
        entries,
        "account_id = ? AND is_deleted = 0 AND shared_folder_id IS NOT NULL AND substr(path_lower, 1, ?) = ?",
        [entry["account_id"], len(prefix), prefix],
        limit=1,
    )
    return bool(found)


def check_shareable(db: Database, entry: dict[str, Any]) -> None:
    """Refuse sharing a file, an already shared folder, or a folder inside or around another shared folder."""
    if entry["tag"] != "folder":
        raise api_error("bad_path/is_file/", f"{entry['path_display']} is a file; only folders can be shared.")
    if entry["shared_folder_id"]:
        raise api_error("bad_path/already_shared/", f"{entry['path_display']} is already shared.")
    if shared_root(db, entry["account_id"], entry["path_lower"]) is not None:
        raise api_error("bad_path/inside_shared_folder/", "A folder inside a shared folder cannot be shared.")
    if contains_shared(db, entry):
        raise api_error("bad_path/contains_shared_folder/", "This folder contains a shared folder.")


def member_folder(db: Database, account_id: str, shared_folder_id: str) -> tuple[dict[str, Any], str]:
    """A shared folder the account belongs to, with its access level; others are invalid_id / not_a_member."""
    found = db.find(shared_folders, shared_folder_id=shared_folder_id)
    if not found:
        raise api_error("access_error/invalid_id/", f"No shared folder {shared_folder_id}.", NotFound)
    access = my_access(db, shared_folder_id, account_id)
    if access is None:
        raise api_error("access_error/not_a_member/", "You are not a member of this shared folder.", PermissionDenied)
    return found[0], access


def manageable_folder(db: Database, account_id: str, shared_folder_id: str) -> dict[str, Any]:
    """A shared folder whose members the account may change: the owner, or an editor under an 'editors' policy."""
    folder, access = member_folder(db, account_id, shared_folder_id)
    if access == "owner" or (access == "editor" and folder["acl_update_policy"] == "editors"):
        return folder
    raise api_error(
        "no_permission/",
        "Only the owner can change this folder's members." if access == "editor" else "Viewers cannot change members.",
        PermissionDenied,
    )


def folder_member(db: Database, shared_folder_id: str, email: str, owner_error: str) -> dict[str, Any]:
    """A non-owner member of the folder, by email; the owner is refused with the endpoint's `owner_error` tag."""
    found = db.find(folder_members, shared_folder_id=shared_folder_id, email=email.lower())
    if not found:
        raise api_error("member_error/not_a_member/", f"{email} is not a member of this folder.", NotFound)
    if found[0]["access_level"] == "owner":
        raise api_error(
            owner_error,
            "That is the folder's owner; ownership must move to another member first.",
            PermissionDenied,
        )
    return found[0]


def request_destination(db: Database, account_id: str, path: str) -> dict[str, Any]:
    """The folder a file request uploads into, created when missing; a file or a view-only folder is refused."""
    existing = live_at(db, account_id, path.lower()) if not path.startswith("id:") else lookup(db, account_id, path)
    if existing is not None and existing["tag"] != "folder":
        raise api_error("not_a_folder/", f"{existing['path_display']} is not a folder.")
    folder = shared_root(db, account_id, path.lower())
    if folder and my_access(db, folder["shared_folder_id"], account_id) in READ_ONLY_LEVELS:
        raise api_error("no_permission/", "You can only view that shared folder.", PermissionDenied)
    if existing is not None:
        return existing
    check_writable(db, account_id, path.lower())
    parent = ensure_parents(db, account_id, path, "path")
    return new_folder(db, account_id, f"{parent}/{path.rpartition('/')[2]}")
