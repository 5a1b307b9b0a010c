"""files.list: which items each corpus holds for the signed-in user, what a query can ask about them (owners,
writers, readers, stars, sharing, visibility), and Drive's orderBy keys."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from envfactory_gym import Database

from .access import RANK, Access, Viewer, active
from .errors import bad_request
from .query import Compiled
from .rules import FOLDER
from .schema import files, permissions, stars

#: The columns a listing needs (a narrow read: every row of the table is looked at).
LIST_COLUMNS = (
    "id",
    "name",
    "mime_type",
    "description",
    "parent_id",
    "drive_id",
    "owner_email",
    "is_root",
    "trashed",
    "created_time",
    "modified_time",
    "size",
    "text",
)
GRANT_COLUMNS = ("file_id", "type", "role", "email_address", "domain", "allow_file_discovery", "expiration_time")
ORDER_KEYS = ("createdTime", "folder", "modifiedTime", "name", "name_natural", "quotaBytesUsed", "recency", "starred")


class FileFacts:
    """What the query language asks about items, from one user's point of view (all permissions loaded once)."""

    def __init__(self, db: Database, access: Access, grant_rows: list[dict[str, Any]] | None) -> None:
        self.db = db
        self.access = access
        self.starred_ids = {s["file_id"] for s in db.find(stars, email=access.me.email)}
        self._complete = grant_rows is not None
        self._by_file: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for grant in grant_rows or []:
            if active(db, grant):
                self._by_file[grant["file_id"]].append(grant)

    def grants(self, file_id: str) -> list[dict[str, Any]]:
        """The item's own unexpired permissions."""
        if not self._complete and file_id not in self._by_file:
            self._by_file[file_id] = [g for g in self.db.find(permissions, file_id=file_id) if active(self.db, g)]
        return self._by_file.get(file_id, [])

    def text(self, row: dict[str, Any]) -> str:
        return f"{row['name']}\n{row['description']}\n{row['text']}"

    def listed(self, field: str, row: dict[str, Any]) -> set[str]:
        if field == "parents":
            return {row["parent_id"]} if row["parent_id"] else set()
        if field == "owners":
            return {row["owner_email"]} if row["owner_email"] else set()
        minimum = RANK["writer"] if field == "writers" else RANK["reader"]
        return {g["email_address"] for g in self.grants(row["id"]) if g["email_address"] and RANK[g["role"]] >= minimum}

    def flag(self, field: str, row: dict[str, Any]) -> bool:
        if field == "starred":
            return row["id"] in self.starred_ids
        if field == "sharedWithMe":  # shared with the user directly, not through ownership or drive membership
            if row["drive_id"] and self.access.member_role(row["drive_id"]) is not None:
                return False
            return row["owner_email"] != self.access.me.email and self.access.direct_role(row["id"]) is not None
        return False

    def visibility(self, row: dict[str, Any]) -> str:
        kinds = {(g["type"], bool(g["allow_file_discovery"])) for g in self.grants(row["id"])}
        for level, kind in (
            ("anyoneCanFind", ("anyone", True)),
            ("anyoneWithLink", ("anyone", False)),
            ("domainCanFind", ("domain", True)),
            ("domainWithLink", ("domain", False)),
        ):
            if kind in kinds:
                return level
        return "limited"

    def shared(self, row: dict[str, Any]) -> bool:
        return not row["drive_id"] and any(g["role"] != "owner" for g in self.grants(row["id"]))


def in_corpus(
    access: Access, facts: FileFacts, row: dict[str, Any], corpora: str, drive_id: str | None, all_drives: bool
) -> bool:
    """Whether a visible item belongs to the corpus searched."""
    if row["is_root"]:
        return False
    if corpora == "drive":
        return row["drive_id"] == drive_id
    if row["drive_id"]:  # its members, and people it (or a folder above it) is shared with
        return all_drives and (access.member_role(row["drive_id"]) is not None or access.reached(row))
    if access.reached(row):
        return True
    if corpora == "domain":
        return facts.visibility(row) in ("domainCanFind", "anyoneCanFind")
    return False


def sort_rows(rows: list[dict[str, Any]], order_by: str | None, facts: FileFacts) -> list[dict[str, Any]]:
    """Rows in orderBy order (default: folders first, then by name)."""
    keys = [part.strip() for part in (order_by or "folder,name").split(",") if part.strip()]
    ordered = sorted(rows, key=lambda r: r["id"])
    for part in reversed(keys):
        words = part.split()
        key, descending = words[0], len(words) > 1 and words[1].lower() == "desc"
        if key not in ORDER_KEYS or len(words) > 2 or (len(words) == 2 and words[1].lower() not in ("asc", "desc")):
            raise bad_request(
                f"Invalid orderBy {part!r}: use {', '.join(ORDER_KEYS)}, each optionally followed by desc."
            )
        ordered.sort(key=_key(key, facts), reverse=descending)
    return ordered


def _key(key: str, facts: FileFacts):
    if key == "folder":
        return lambda r: r["mime_type"] != FOLDER
    if key in ("name", "name_natural"):
        return lambda r: r["name"].lower()
    if key == "createdTime":
        return lambda r: r["created_time"]
    if key in ("modifiedTime", "recency"):
        return lambda r: r["modified_time"]
    if key == "quotaBytesUsed":
        return lambda r: r["size"] or 0
    return lambda r: r["id"] not in facts.starred_ids


def _narrow(db: Database, table_name: str, columns: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every row of a table, only `columns`, read straight from SQLite (a listing looks at every row; SQLAlchemy's
    row objects would cost more than the search itself). Booleans stay 0/1."""
    sql = f'SELECT {", ".join(f"{chr(34)}{c}{chr(34)}" for c in columns)} FROM "{table_name}"'
    return [dict(zip(columns, values)) for values in db.state.raw.execute(sql)]


def listing_rows(db: Database, hints: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    """The items that can match (those meeting the query's SQL hints; every item without hints), with the columns
    a listing looks at. Read straight from SQLite: a listing may look at every row, and SQLAlchemy's row objects
    would cost more than the search itself. Booleans stay 0/1."""
    sql = f'SELECT {", ".join(chr(34) + c + chr(34) for c in LIST_COLUMNS)} FROM "{files.name}"'
    if hints:
        sql += " WHERE " + " AND ".join(condition for condition, _ in hints)
    return [dict(zip(LIST_COLUMNS, values)) for values in db.state.raw.execute(sql, [v for _, v in hints])]


def grant_rows(db: Database) -> list[dict[str, Any]]:
    """Every permission, with the columns a listing looks at."""
    sql = f'SELECT {", ".join(chr(34) + c + chr(34) for c in GRANT_COLUMNS)} FROM "{permissions.name}"'
    return [dict(zip(GRANT_COLUMNS, values)) for values in db.state.raw.execute(sql)]


def search(
    db: Database,
    me: Viewer,
    query: Compiled,
    corpora: str,
    drive_id: str | None,
    all_drives: bool,
    order_by: str | None,
) -> tuple[list[dict[str, Any]], FileFacts, Access]:
    """The visible items of the corpus that match, sorted. A query with SQL hints reads only the items that can
    match (and their folders, as needed); one without reads everything at once."""
    rows = listing_rows(db, query.hints)
    grants = None if query.hints else grant_rows(db)
    access = Access(db, me, rows=rows, grant_rows=grants, complete=not query.hints)
    facts = FileFacts(db, access, grants)
    found = []
    for row in rows:
        if row["is_root"] or not query.predicate(row, facts):
            continue
        if access.role(row) is not None and in_corpus(access, facts, row, corpora, drive_id, all_drives):
            found.append(row)
    return sort_rows(found, order_by, facts), facts, access
