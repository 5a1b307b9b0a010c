"""An account's Dropbox as a tree of paths: resolving a path or `id:` to an entry, the shared folder a path lies
in and whether the account may write there, creating missing parent folders, and moving, copying and deleting
whole subtrees."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .access import my_access
from .rules import READ_ONLY_LEVELS, api_error, new_entry_id, new_rev, renamed
from .schema import entries, revisions, shared_folders


def parent_of(path_lower: str) -> str:
    """'/a/b' for '/a/b/c.txt'; '' for a top-level entry."""
    return path_lower.rpartition("/")[0]


def ancestors(path_lower: str) -> list[str]:
    """Every folder path above `path_lower`, outermost first ('/a', '/a/b' for '/a/b/c')."""
    parts = path_lower.split("/")[1:-1]
    return ["/" + "/".join(parts[: i + 1]) for i in range(len(parts))]


def lookup(db: Database, account_id: str, path: str, prefix: str = "path", deleted: bool = False) -> dict[str, Any]:
    """The live entry at `path` (or `id:...`); with `deleted`, the latest deleted one when nothing lives there."""
    if path.startswith("id:"):
        found = db.find(entries, id=path, account_id=account_id)
    else:
        found = db.find(entries, account_id=account_id, path_lower=path.lower())
    live = [e for e in found if not e["is_deleted"]]
    if live:
        return live[0]
    if deleted and found:
        return max(found, key=lambda e: e["server_modified"] or "")
    raise api_error(f"{prefix}/not_found/", f"There is nothing at {path}.", NotFound)


def live_at(db: Database, account_id: str, path_lower: str) -> dict[str, Any] | None:
    """The live entry at a lower-cased path, if any."""
    found = db.find(entries, account_id=account_id, path_lower=path_lower, is_deleted=False)
    return found[0] if found else None


def children(db: Database, account_id: str, path_lower: str, recursive: bool, deleted: bool) -> list[dict[str, Any]]:
    """The entries under a folder (all descendants when recursive), by path."""
    where = "account_id = ? AND " + (
        "substr(path_lower, 1, ?) = ?" if recursive else "parent_lower = ?"
    )  # fmt: skip
    params: list[Any] = [account_id, len(path_lower) + 1, path_lower + "/"] if recursive else [account_id, path_lower]
    if not deleted:
        where += " AND is_deleted = 0"
    return db.select(entries, where, params, order_by="path_lower")


def shared_root(db: Database, account_id: str, path_lower: str) -> dict[str, Any] | None:
    """The shared folder `path_lower` lies in (or is), innermost first; None outside shared folders."""
    paths = [*ancestors(path_lower), path_lower]
    marks = ", ".join("?" * len(paths))
    found = db.select(
        entries,
        f"account_id = ? AND is_deleted = 0 AND shared_folder_id IS NOT NULL AND path_lower IN ({marks})",
        [account_id, *paths],
        order_by="length(path_lower) DESC",
    )
    return db.get(shared_folders, found[0]["shared_folder_id"]) if found else None


def check_writable(db: Database, account_id: str, path_lower: str, prefix: str = "path") -> None:
    """Refuse a write inside a shared folder where the account is only a viewer."""
    folder = shared_root(db, account_id, path_lower)
    if folder and my_access(db, folder["shared_folder_id"], account_id) in READ_ONLY_LEVELS:
        raise api_error(
            f"{prefix}/no_write_permission/",
            f"You can only view the shared folder '{folder['name']}'; ask its owner for edit access.",
            PermissionDenied,
        )


def free_path(db: Database, account_id: str, path_display: str, autorename: bool, prefix: str) -> str:
    """`path_display` if nothing lives there; else 'Name (1).ext' with autorename, or a conflict error."""
    taken = live_at(db, account_id, path_display.lower())
    if taken is None:
        return path_display
    if not autorename:
        raise api_error(
            f"{prefix}/conflict/{taken['tag']}/", f"There is already a {taken['tag']} at {taken['path_display']}."
        )
    folder, _, name = path_display.rpartition("/")
    n = 1
    while live_at(db, account_id, f"{folder}/{renamed(name, n)}".lower()):
        n += 1
    return f"{folder}/{renamed(name, n)}"


def new_folder(db: Database, account_id: str, path_display: str) -> dict[str, Any]:
    """Insert a live folder (its parents must exist)."""
    lower = path_display.lower()
    return db.insert(
        entries, id=new_entry_id(db), account_id=account_id, tag="folder", name=path_display.rpartition("/")[2],
        path_display=path_display, path_lower=lower, parent_lower=parent_of(lower), is_deleted=False,
    )  # fmt: skip


def ensure_parents(db: Database, account_id: str, path_display: str, prefix: str) -> str:
    """Create the missing folders above `path_display` (as Dropbox does) and return the parent's display path
    with the stored casing of folders that exist; a file in the way is a conflict."""
    shown = ""
    for part in path_display.split("/")[1:-1]:
        candidate = f"{shown}/{part}"
        existing = live_at(db, account_id, candidate.lower())
        if existing is None:
            new_folder(db, account_id, candidate)
        elif existing["tag"] == "file":
            raise api_error(f"{prefix}/conflict/file_ancestor/", f"{existing['path_display']} is a file.")
        else:
            candidate = existing["path_display"]
        shown = candidate
    return shown


def write_revision(db: Database, entry: dict[str, Any], size: int, digest: str, content: str | None) -> dict:
    """Record a new revision of a file entry and make it current."""
    rev, now = new_rev(db), db.now_iso()
    db.insert(
        revisions, rev=rev, entry_id=entry["id"], path_display=entry["path_display"], size=size, content_hash=digest,
        content=content, client_modified=now, server_modified=now,
    )  # fmt: skip
    return db.update(
        entries, entry["id"], rev=rev, size=size, content_hash=digest, client_modified=now, server_modified=now,
        is_deleted=False,
    )  # fmt: skip


def relocate(db: Database, entry: dict[str, Any], to_display: str) -> dict[str, Any]:
    """Move an entry and its live descendants to `to_display`."""
    old, new = entry["path_lower"], to_display.lower()
    if entry["tag"] == "folder":
        for child in children(db, entry["account_id"], old, recursive=True, deleted=False):
            tail = child["path_display"][len(old) :]
            moved = to_display + tail
            db.update(
                entries,
                child["id"],
                path_display=moved,
                path_lower=moved.lower(),
                parent_lower=parent_of(moved.lower()),
            )
    return db.update(
        entries, entry["id"], name=to_display.rpartition("/")[2], path_display=to_display, path_lower=new,
        parent_lower=parent_of(new), server_modified=db.now_iso() if entry["tag"] == "file" else None,
    )  # fmt: skip


def duplicate(db: Database, entry: dict[str, Any], to_display: str) -> dict[str, Any]:
    """Copy an entry (and a folder's live descendants) to `to_display`; copies get new ids and revisions."""
    copied = _copy_one(db, entry, to_display)
    if entry["tag"] == "folder":
        old = entry["path_lower"]
        for child in children(db, entry["account_id"], old, recursive=True, deleted=False):
            _copy_one(db, child, to_display + child["path_display"][len(old) :])
    return copied


def _copy_one(db: Database, entry: dict[str, Any], to_display: str) -> dict[str, Any]:
    if entry["tag"] == "folder":
        return new_folder(db, entry["account_id"], to_display)
    lower = to_display.lower()
    copy = db.insert(
        entries, id=new_entry_id(db), account_id=entry["account_id"], tag="file", name=to_display.rpartition("/")[2],
        path_display=to_display, path_lower=lower, parent_lower=parent_of(lower), is_deleted=False,
    )  # fmt: skip
    current = db.get(revisions, entry["rev"])
    return write_revision(db, copy, current["size"], current["content_hash"], current["content"])


def remove(db: Database, entry: dict[str, Any]) -> None:
    """Delete an entry and, for a folder, everything under it (deleted entries keep their revisions)."""
    now = db.now_iso()
    if entry["tag"] == "folder":
        for child in children(db, entry["account_id"], entry["path_lower"], recursive=True, deleted=False):
            db.update(entries, child["id"], is_deleted=True, server_modified=now if child["tag"] == "file" else None)
    db.update(entries, entry["id"], is_deleted=True, server_modified=now if entry["tag"] == "file" else None)
