"""The folder tree and what changes it: moving (one parent per item; the rules for moving into, within and out of
shared drives), trashing and restoring (folders take their contents along), deleting for good, and copying."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .access import Access, at_least, person_drive_role
from .errors import bad_request, file_not_found, forbidden, insufficient
from .rules import DOCS_EDITORS, FOLDER, new_binary_revision_id, new_file_id
from .schema import access_proposals, comments, files, permissions, replies, revisions, stars, users

FOLDER_MOVE_IN = "Moving folders into shared drives is not supported."
PARENT_LIMIT = "A shared drive item must have exactly one parent."


def children(db: Database, parent_id: str) -> list[dict[str, Any]]:
    """The items directly inside a folder or at a shared drive's top level."""
    return db.find(files, parent_id=parent_id)


def descendants(db: Database, row: dict[str, Any]) -> list[dict[str, Any]]:
    """Everything below a folder, parents before their contents."""
    found, pending = [], [row["id"]] if row["mime_type"] == FOLDER else []
    while pending:
        for child in children(db, pending.pop(0)):
            found.append(child)
            if child["mime_type"] == FOLDER:
                pending.append(child["id"])
    return found


def owner_permission(db: Database, file_id: str, email: str) -> None:
    """Record `email` as the owner of a My Drive item."""
    person = db.get(users, email)
    key = f"{file_id}|{person['permission_id']}"
    if db.find(permissions, key=key):
        db.update(permissions, key, role="owner", expiration_time=None, pending_owner=False)
    else:
        db.insert(
            permissions,
            key=key,
            file_id=file_id,
            permission_id=person["permission_id"],
            type="user",
            role="owner",
            email_address=email,
            domain=None,
            allow_file_discovery=None,
            expiration_time=None,
            pending_owner=False,
        )


def drop_owner_permission(db: Database, row: dict[str, Any]) -> None:
    """An item entering a shared drive stops having an owner."""
    for grant in db.find(permissions, file_id=row["id"], role="owner"):
        db.delete(permissions, grant["key"])


# ---------------------------------------------------------------- destinations


def destination(access: Access, parent: str) -> tuple[str, str | None, str | None]:
    """Where an item may go: (parent id, shared drive id, the user's role there). `parent` is a folder's id, a
    shared drive's id (its top level) or `root`."""
    wanted = access.resolve_id(parent)
    drive = access.drive(wanted)
    if drive is not None:
        role = access.drive_role(drive)
        if role is None:
            raise file_not_found(parent)
        return wanted, wanted, role
    folder, role = access.file(wanted)
    if folder["mime_type"] != FOLDER:
        raise bad_request(f"The parent {parent} is not a folder.")
    if folder["trashed"]:
        raise bad_request(f"The folder {parent} is in the trash.")
    return folder["id"], folder["drive_id"], role


def writable_parent(access: Access, parent_id: str | None) -> tuple[str, str | None] | None:
    """(parent id, shared drive id) when the user may add items there, else None."""
    if parent_id is None:
        return None
    drive = access.drive(parent_id)
    if drive is not None:
        return (parent_id, parent_id) if at_least(access.drive_role(drive), "writer") else None
    folder = access.row(parent_id)
    if folder is None or folder["trashed"] or not at_least(access.role(folder), "writer"):
        return None
    return parent_id, folder["drive_id"]


def chain_ids(access: Access, parent_id: str) -> list[str]:
    """A folder's id and the ids of every folder above it."""
    found, current = [], access.row(parent_id)
    while current is not None:
        found.append(current["id"])
        current = access.row(current["parent_id"]) if current["parent_id"] else None
    return found


# ---------------------------------------------------------------- moving


def move(db: Database, access: Access, row: dict[str, Any], role: str, add: str | None, remove: str | None) -> None:
    """Change an item's parent: addParents and removeParents together (an item has exactly one parent)."""
    if row["is_root"]:
        raise bad_request("My Drive itself can't be moved.")
    if add and not remove:
        if row["drive_id"]:
            raise forbidden("teamDrivesParentLimit", PARENT_LIMIT)
        raise forbidden("cannotAddParent", "Increasing the number of parents is not allowed.")
    if remove and not add:
        if row["drive_id"]:
            raise forbidden("teamDrivesParentLimit", PARENT_LIMIT)
        raise bad_request("An item must keep one parent: move it with addParents and removeParents together.")
    assert add is not None and remove is not None
    if access.resolve_id(remove) != row["parent_id"]:
        raise bad_request(f"{remove} is not a parent of {row['id']}; its parent is {row['parent_id']}.")
    parent_id, target_drive, target_role = destination(access, add)
    if parent_id == row["parent_id"]:
        return
    if not at_least(target_role, "writer"):
        raise insufficient(f"The user does not have sufficient permissions to add items to {add}.")
    if row["mime_type"] == FOLDER and row["id"] in chain_ids(access, parent_id):
        raise bad_request("The move would create a cycle: a folder can't go inside itself or its subfolders.")
    source_drive = row["drive_id"]
    moved = descendants(db, row)
    if source_drive is None and target_drive is None:
        access.require(role, "writer")
    elif source_drive is None:
        _move_into_shared_drive(db, access, row, role, target_drive)  # type: ignore[arg-type]
    elif source_drive == target_drive:
        access.require(role, "fileOrganizer")
    else:
        access.require(role, "organizer", "Only managers of a shared drive can move its items out of it.")
        if target_drive is not None and row["mime_type"] == FOLDER:
            raise forbidden("teamDrivesFolderMoveInNotSupported", FOLDER_MOVE_IN)
        for item in [row, *moved]:
            if target_drive is None:
                db.update(files, item["id"], drive_id=None, owner_email=access.me.email)
                owner_permission(db, item["id"], access.me.email)
            else:
                db.update(files, item["id"], drive_id=target_drive)
    db.update(files, row["id"], parent_id=parent_id)


def _move_into_shared_drive(db: Database, access: Access, row: dict[str, Any], role: str, drive_id: str) -> None:
    if row["mime_type"] == FOLDER:
        raise forbidden("teamDrivesFolderMoveInNotSupported", FOLDER_MOVE_IN)
    access.require(role, "writer")
    if role != "owner" and person_drive_role(db, row["owner_email"], drive_id) is None:
        raise forbidden(
            "fileOwnerNotMemberOfTeamDrive",
            "Cannot move a file into a shared drive as a writer when "
            "the owner of the file is not a member of that shared drive.",
        )
    drop_owner_permission(db, row)
    db.update(files, row["id"], drive_id=drive_id, owner_email=None, writers_can_share=True)


# ---------------------------------------------------------------- trash


def set_trashed(db: Database, access: Access, row: dict[str, Any], role: str, trashed: bool) -> None:
    """Move an item to the trash with everything inside it, or bring it back with what was trashed along."""
    if row["is_root"]:
        raise bad_request("My Drive itself can't be trashed.")
    if not access.can_trash(row, role):
        raise insufficient()
    if trashed == bool(row["trashed"]) and (not trashed or row["explicitly_trashed"]):
        return
    now, me = db.now_iso(), access.me.email
    if trashed:
        db.update(files, row["id"], trashed=True, explicitly_trashed=True, trashed_time=now, trashing_user=me)
        for item in descendants(db, row):
            if not item["trashed"]:
                db.update(files, item["id"], trashed=True, explicitly_trashed=False, trashed_time=now, trashing_user=me)
        return
    parent = access.row(row["parent_id"]) if row["parent_id"] else None
    changes: dict[str, Any] = {}
    if parent is not None and parent["trashed"]:  # its folder stays in the trash: it comes back at the top
        changes["parent_id"] = row["drive_id"] or db.get(users, row["owner_email"])["root_id"]
    db.update(
        files, row["id"], trashed=False, explicitly_trashed=False, trashed_time=None, trashing_user=None, **changes
    )
    pending = [row["id"]] if row["mime_type"] == FOLDER else []
    while pending:
        for child in children(db, pending.pop(0)):
            if child["trashed"] and not child["explicitly_trashed"]:
                db.update(files, child["id"], trashed=False, trashed_time=None, trashing_user=None)
                if child["mime_type"] == FOLDER:
                    pending.append(child["id"])


# ---------------------------------------------------------------- deleting for good


def erase(db: Database, file_id: str) -> None:
    """Remove one item and everything attached to it."""
    for table, column in (
        (permissions, "file_id"),
        (revisions, "file_id"),
        (access_proposals, "file_id"),
        (stars, "file_id"),
    ):
        for found in db.find(table, **{column: file_id}):
            db.delete(table, found[list(table.primary_key.columns)[0].name])
    for comment in db.find(comments, file_id=file_id):
        for reply in db.find(replies, comment_id=comment["id"]):
            db.delete(replies, reply["id"])
        db.delete(comments, comment["id"])
    db.delete(files, file_id)


def delete_forever(db: Database, access: Access, row: dict[str, Any], role: str) -> list[dict[str, Any]]:
    """Delete an item for good with what it holds; in My Drive, other people's files inside go back to the top of
    their owners' My Drive. Returns the deleted rows."""
    if row["is_root"]:
        raise bad_request("My Drive itself can't be deleted.")
    if not access.can_delete(row, role):
        raise insufficient()
    deleted, gone = [row], {row["id"]}
    for item in descendants(db, row):
        if row["drive_id"] or item["owner_email"] == row["owner_email"]:
            deleted.append(item)
            gone.add(item["id"])
        elif item["parent_id"] in gone:
            db.update(
                files,
                item["id"],
                parent_id=db.get(users, item["owner_email"])["root_id"],
                trashed=False,
                explicitly_trashed=False,
                trashed_time=None,
                trashing_user=None,
            )
    for item in reversed(deleted):
        erase(db, item["id"])
    return deleted


# ---------------------------------------------------------------- copying


def copy_file(
    db: Database,
    access: Access,
    row: dict[str, Any],
    role: str,
    name: str | None,
    parent: str | None,
    description: str | None,
) -> dict[str, Any]:
    """A copy owned by the user (or by the shared drive it lands in), with the source's current content."""
    if row["mime_type"] == FOLDER:
        raise bad_request("Folders can't be copied; copy the files inside them.")
    if not access.can_copy(row, role):
        raise forbidden("cannotCopyFile", "This file cannot be copied by the authenticated user.")
    if parent is not None:
        parent_id, drive_id, target_role = destination(access, parent)
        if not at_least(target_role, "writer"):
            raise insufficient(f"The user does not have sufficient permissions to add items to {parent}.")
    else:
        parent_id, drive_id = writable_parent(access, row["parent_id"]) or (access.me.root_id, None)
    now, me = db.now_iso(), access.me.email
    new_id = new_file_id(db, row["mime_type"])
    head = _head_revision(db, row)
    revision_id = "1" if row["mime_type"] in DOCS_EDITORS else new_binary_revision_id(db)
    copied = db.insert(
        files,
        id=new_id,
        name=name if name is not None else f"Copy of {row['name']}",
        mime_type=row["mime_type"],
        description=description if description is not None else row["description"],
        parent_id=parent_id,
        drive_id=drive_id,
        owner_email=None if drive_id else me,
        is_root=False,
        trashed=False,
        explicitly_trashed=False,
        trashing_user=None,
        trashed_time=None,
        created_time=now,
        modified_time=now,
        last_modifying_user=me,
        size=row["size"],
        head_revision_id=revision_id,
        version=1,
        copy_requires_writer_permission=row["copy_requires_writer_permission"],
        writers_can_share=True,
        text=row["text"],
    )
    db.insert(
        revisions,
        key=f"{new_id}|{revision_id}",
        file_id=new_id,
        revision_id=revision_id,
        number=1,
        mime_type=row["mime_type"],
        modified_time=now,
        last_modifying_user=me,
        keep_forever=False,
        original_filename=copied["name"] if row["mime_type"] not in DOCS_EDITORS else None,
        md5_checksum=head["md5_checksum"] if head else None,
        size=row["size"],
        restored_from=None,
    )
    if not drive_id:
        owner_permission(db, new_id, me)
    return copied


def _head_revision(db: Database, row: dict[str, Any]) -> dict[str, Any] | None:
    found = db.find(revisions, file_id=row["id"], revision_id=row["head_revision_id"] or "")
    return found[0] if found else None
