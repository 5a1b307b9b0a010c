"""Notion's rules: what the integration can see (connections), what it may edit (trash, locks), property values
against a database's schema, appending blocks, the trash with sub-pages and child databases, database filters and
sorts, and sharing a page with the integration."""

from __future__ import annotations

from typing import Any, Iterable

from sqlalchemy import func, select

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.values import parse_date

from .objects import BlockInput, BlockObject, PropertyFilter
from .schema import blocks, comments, databases, pages, users

NOT_SHARED = "Make sure the relevant pages and databases are shared with your integration."


# ---------------------------------------------------------------- who acts, what it sees and may change


def integration_id(db: Database) -> str:
    """The bot user the integration acts as (authors of its pages and comments)."""
    return db.find(users, role="integration")[0]["id"]


def visible_page(db: Database, page_id: str) -> dict[str, Any]:
    """A page the integration can see (shared with it); otherwise Notion answers not found."""
    rows = db.find(pages, id=page_id)
    if not rows or not rows[0]["shared_with_integration"]:
        raise NotFound(f"Could not find page with ID: {page_id}. {NOT_SHARED}")
    return rows[0]


def editable_page(db: Database, page_id: str) -> dict[str, Any]:
    """A visible page that is neither in the trash nor locked."""
    row = visible_page(db, page_id)
    if row["in_trash"]:
        raise Conflict(f"Can't edit page {page_id}: it is in the trash. Restore it first.")
    check_unlocked(row)
    return row


def check_unlocked(row: dict[str, Any]) -> None:
    """Locked pages can only be unlocked by a workspace member in the app."""
    if row["locked"]:
        raise PermissionDenied(f"Page '{row['title']}' is locked; a workspace member must unlock it in Notion.")


def visible_database(db: Database, database_id: str) -> dict[str, Any]:
    """A database shared with the integration and not in the trash."""
    rows = db.find(databases, id=database_id)
    row = rows[0] if rows else None
    if row is None or not row["shared_with_integration"] or row["in_trash"]:
        raise NotFound(f"Could not find database with ID: {database_id}. {NOT_SHARED}")
    return row


def touch(db: Database, page_id: str) -> None:
    """Record an edit of a page's content."""
    db.update(pages, page_id, last_edited_time=db.now_iso())


# ---------------------------------------------------------------- property values and blocks


def validate_properties(db: Database, schema: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """Property values checked against a database's property schema, as the API does (dates stored as
    YYYY-MM-DD)."""
    checked = dict(values)
    for name, value in values.items():
        if name not in schema:
            raise InvalidRequest(f"{name} is not a property that exists. Properties: {', '.join(sorted(schema))}")
        kind = schema[name]["type"]
        if value is None:
            continue
        if kind in {"select", "status"} and value not in schema[name]["options"]:
            options = ", ".join(schema[name]["options"])
            raise InvalidRequest(f"Invalid {kind} option {value!r} for {name}. Options: {options}")
        if kind == "people":
            person = next(iter(db.find(users, id=value)), None) if isinstance(value, str) else None
            if person is None or person["type"] != "person":
                raise InvalidRequest(f"{name} must be the id of a workspace person; {value!r} is not")
        if kind == "date":
            if not isinstance(value, str):
                raise InvalidRequest(f"{name} must be a date like 2025-02-03")
            checked[name] = parse_date(value, name, example="2025-02-03").isoformat()
        if kind == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise InvalidRequest(f"{name} must be a number")
        if kind == "checkbox" and not isinstance(value, bool):
            raise InvalidRequest(f"{name} must be true or false")
    return checked


def insert_blocks(db: Database, page_id: str, children: list[BlockInput]) -> list[BlockObject]:
    """Append blocks after a page's last block; `checked` belongs to to_do blocks only."""
    for child in children:
        if child.checked is not None and child.type != "to_do":
            raise InvalidRequest("checked is only valid for to_do blocks")
    last = db.conn.execute(select(func.max(blocks.c.position)).where(blocks.c.page_id == page_id)).scalar()
    position = -1 if last is None else last
    created = []
    for child in children:
        position += 1
        row = db.insert(
            blocks,
            id=db.new_uuid(blocks),
            page_id=page_id,
            position=position,
            type=child.type,
            text=child.text,
            checked=(bool(child.checked) if child.type == "to_do" else None),
        )
        created.append(BlockObject(**row))
    return created


# ---------------------------------------------------------------- the trash


def contents(db: Database, page_id: str) -> tuple[list[str], list[str]]:
    """Ids of the pages and databases inside a page at any depth: sub-pages, child databases and their rows."""
    inner_pages: list[str] = []
    inner_databases: list[str] = []
    pending = [page_id]
    while pending:
        parent = pending.pop()
        children = [r["id"] for r in db.find(pages, parent_type="page_id", parent_id=parent)]
        for database in db.find(databases, parent_page_id=parent):
            inner_databases.append(database["id"])
            children += [r["id"] for r in db.find(pages, parent_type="database_id", parent_id=database["id"])]
        inner_pages += children
        pending += children
    return inner_pages, inner_databases


def trash(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """Move a page to the trash with what is inside it (what was trashed before stays trashed on its own)."""
    if row["in_trash"]:
        raise Conflict(f"Page '{row['title']}' is already in the trash")
    check_unlocked(row)
    inner_pages, inner_databases = contents(db, row["id"])
    for table, ids in ((pages, inner_pages), (databases, inner_databases)):
        for inner in ids:
            if not db.get(table, inner, "Object")["in_trash"]:
                db.update(table, inner, in_trash=True, trashed_with=row["id"])
    return db.update(pages, row["id"], in_trash=True, last_edited_time=db.now_iso())


def restore(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """Bring a page back from the trash with what went there inside it; a page that went along with an outer page
    comes back only with that page."""
    if not row["in_trash"]:
        raise Conflict(f"Page '{row['title']}' is not in the trash")
    if row["trashed_with"] is not None:
        outer = db.get(pages, row["trashed_with"], "Page")
        raise Conflict(
            f"Page '{row['title']}' went to the trash with '{outer['title']}'; restore that page to bring it back"
        )
    for table in (pages, databases):
        for inner in db.find(table, trashed_with=row["id"]):
            db.update(table, inner["id"], in_trash=False, trashed_with=None)
    return db.update(pages, row["id"], in_trash=False, last_edited_time=db.now_iso())


def empty_trash(db: Database) -> tuple[int, int, int]:
    """Delete every trashed page the integration can see, with what went to the trash inside it, their blocks
    and comments: (pages, blocks, comments) deleted."""
    roots = [r["id"] for r in db.find(pages, shared_with_integration=True, in_trash=True, trashed_with=None)]
    if not roots:
        raise Conflict("The trash is already empty")
    doomed = roots + [r["id"] for r in db.find(pages, pages.c.trashed_with.in_(roots))]
    removed_blocks = db.conn.execute(blocks.delete().where(blocks.c.page_id.in_(doomed))).rowcount
    removed_comments = db.conn.execute(comments.delete().where(comments.c.page_id.in_(doomed))).rowcount
    db.conn.execute(databases.delete().where(databases.c.trashed_with.in_(roots)))
    db.conn.execute(pages.delete().where(pages.c.id.in_(doomed)))
    return len(doomed), removed_blocks, removed_comments


# ---------------------------------------------------------------- sharing (the user's connections)


def share(db: Database, page_title: str) -> list[str]:
    """Share the pages titled `page_title` with the integration, with their sub-pages, child databases and rows."""
    matches = db.find(pages, title=page_title, in_trash=False)
    if not matches:
        raise NotFound(f"No page titled '{page_title}'")
    shared: list[str] = []
    frontier = [m["id"] for m in matches]
    while frontier:
        page_id = frontier.pop()
        db.update(pages, page_id, shared_with_integration=True)
        shared.append(page_id)
        frontier += [p["id"] for p in db.find(pages, parent_type="page_id", parent_id=page_id)]
        for database in db.find(databases, parent_page_id=page_id):
            db.update(databases, database["id"], shared_with_integration=True)
            frontier += [p["id"] for p in db.find(pages, parent_type="database_id", parent_id=database["id"])]
    return sorted(shared)


# ---------------------------------------------------------------- database queries


def check_property(schema: dict[str, Any], prop: str, what: str = "property") -> None:
    """A filter or sort names a property of the database (or its title)."""
    if prop not in schema and prop != "title":
        raise InvalidRequest(f"Could not find {what} with name or id: {prop}")


def value(row: dict[str, Any], prop: str) -> Any:
    """A row's value of a property (or its title)."""
    return row["title"] if prop == "title" else row["properties"].get(prop)


def passes(row: dict[str, Any], condition: PropertyFilter) -> bool:
    """Whether a row meets every condition a filter gives."""
    found = value(row, condition.property)
    checks = []
    if condition.equals is not None:
        checks.append(found == condition.equals)
    if condition.contains is not None:
        checks.append(isinstance(found, str) and condition.contains.casefold() in found.casefold())
    if condition.before is not None:
        checks.append(isinstance(found, str) and found < condition.before)
    if condition.after is not None:
        checks.append(isinstance(found, str) and found > condition.after)
    if condition.is_empty is not None:
        checks.append((found in (None, "")) == condition.is_empty)
    if not checks:
        raise InvalidRequest(f"filter on {condition.property} has no condition")
    return all(checks)


def sort_key(row: dict[str, Any], prop: str) -> tuple[bool, Any]:
    """Sort order of a row by a property: empty values last, numbers by value, the rest as text."""
    found = value(row, prop)
    return (found is None, str(found) if not isinstance(found, (int, float)) else f"{found:020.4f}")


def filtered(
    rows: Iterable[dict[str, Any]], schema: dict[str, Any], conditions: list[PropertyFilter]
) -> list[dict[str, Any]]:
    """The rows meeting every filter."""
    kept = list(rows)
    for condition in conditions:
        check_property(schema, condition.property)
        kept = [r for r in kept if passes(r, condition)]
    return kept
