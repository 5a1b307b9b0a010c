"""Notion API tools: search, pages, blocks, database queries, comments, users and the trash."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import func, select

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate, tool

from .schema import blocks, comments, databases, pages, users

BlockType = Literal[
    "paragraph", "heading_1", "heading_2", "heading_3", "to_do", "bulleted_list_item", "numbered_list_item",
    "quote", "callout", "code", "divider",
]
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MAX_CHILDREN = 100


class PageObject(BaseModel):
    """A page as the API returns it."""

    id: str
    title: str
    parent_type: str
    parent_id: str | None
    icon: str | None
    properties: dict[str, Any]
    created_by: str
    created_time: str
    last_edited_time: str
    locked: bool
    in_trash: bool
    url: str


class SearchResult(BaseModel):
    """A page or database found by search."""

    object: Literal["page", "database"]
    id: str
    title: str
    parent_id: str | None
    in_trash: bool
    properties: dict[str, Any] = Field(description="for a database, its property schema; for a page, its values")


class BlockInput(BaseModel):
    """A block to append."""

    type: BlockType = "paragraph"
    text: str = ""
    checked: bool | None = Field(None, description="only for to_do blocks")


class BlockObject(BaseModel):
    """A block of a page."""

    id: str
    page_id: str
    position: int
    type: str
    text: str
    checked: bool | None


class PropertyFilter(BaseModel):
    """A database filter on one property; give exactly one condition."""

    property: str
    equals: str | float | bool | None = None
    contains: str | None = None
    before: str | None = Field(None, description="date YYYY-MM-DD (exclusive)")
    after: str | None = Field(None, description="date YYYY-MM-DD (exclusive)")
    is_empty: bool | None = None


class Sort(BaseModel):
    """Sort database rows by a property."""

    property: str
    direction: Literal["ascending", "descending"] = "ascending"


class CommentObject(BaseModel):
    """A comment on a page."""

    id: str
    page_id: str
    author_id: str
    text: str
    created_time: str


class UserObject(BaseModel):
    """A workspace member, guest or bot."""

    id: str
    name: str
    email: str | None
    type: str
    role: str


class TrashReport(BaseModel):
    """What emptying the trash deleted."""

    deleted_pages: int
    deleted_blocks: int
    deleted_comments: int


# ---------------------------------------------------------------- helpers

def _integration_id(db: Database) -> str:
    return db.find(users, role="integration")[0]["id"]


def _page_object(row: dict[str, Any]) -> PageObject:
    return PageObject(
        **{k: row[k] for k in PageObject.model_fields if k in row},
        url=f"https://www.notion.so/{row['id'].replace('-', '')}",
    )


def _visible_page(db: Database, page_id: str) -> dict[str, Any]:
    """A page the integration can see (shared with it); otherwise Notion answers not found."""
    rows = db.find(pages, id=page_id)
    if not rows or not rows[0]["shared_with_integration"]:
        raise NotFound(
            f"Could not find page with ID: {page_id}. Make sure the relevant pages and databases are shared "
            "with your integration."
        )
    return rows[0]


def _editable_page(db: Database, page_id: str) -> dict[str, Any]:
    row = _visible_page(db, page_id)
    if row["in_trash"]:
        raise Conflict(f"Can't edit page {page_id}: it is in the trash. Restore it first.")
    if row["locked"]:
        raise PermissionDenied(f"Page '{row['title']}' is locked; a workspace member must unlock it in Notion.")
    return row


def _visible_database(db: Database, database_id: str) -> dict[str, Any]:
    rows = db.find(databases, id=database_id)
    row = rows[0] if rows else None
    if row is None or not row["shared_with_integration"] or row["in_trash"]:
        raise NotFound(
            f"Could not find database with ID: {database_id}. Make sure the relevant pages and databases are "
            "shared with your integration."
        )
    return row


def _validate_properties(db: Database, schema: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """Check property values against a database's property schema, as the API does."""
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
        if kind == "date" and not (isinstance(value, str) and _DATE.match(value)):
            raise InvalidRequest(f"{name} must be a date as YYYY-MM-DD")
        if kind == "number" and not isinstance(value, (int, float)):
            raise InvalidRequest(f"{name} must be a number")
        if kind == "checkbox" and not isinstance(value, bool):
            raise InvalidRequest(f"{name} must be true or false")
    return values


def _insert_blocks(db: Database, page_id: str, children: list[BlockInput]) -> list[BlockObject]:
    if len(children) > MAX_CHILDREN:
        raise InvalidRequest(f"body.children.length should be <= {MAX_CHILDREN}, instead was {len(children)}")
    last = db.conn.execute(select(func.max(blocks.c.position)).where(blocks.c.page_id == page_id)).scalar()
    position = -1 if last is None else last
    created = []
    for child in children:
        if child.checked is not None and child.type != "to_do":
            raise InvalidRequest("checked is only valid for to_do blocks")
        position += 1
        row = db.insert(
            blocks, id=db.new_uuid(blocks), page_id=page_id, position=position, type=child.type, text=child.text,
            checked=(bool(child.checked) if child.type == "to_do" else None),
        )
        created.append(BlockObject(**row))
    return created


def _touch(db: Database, page_id: str) -> None:
    db.update(pages, page_id, last_edited_time=db.now_iso())


# ---------------------------------------------------------------- tools

@tool(read_only=True)
def search_pages(
    db: Database,
    query: str = "",
    object_type: Literal["page", "database"] | None = None,
    include_trashed: bool = False,
    page_size: int = 10,
    start_cursor: str | None = None,
) -> Page[SearchResult]:
    """Search the pages and databases shared with the integration whose title contains the query.

    Results are sorted by last edit, most recent first; pages in the trash are left out unless asked for.

    Args:
        query: Text to look for in titles (case-insensitive). Empty returns everything shared.
        object_type: Only return pages or only databases.
        include_trashed: Also return pages that are in the trash.
        page_size: Results per page, 1 to 100.
        start_cursor: The next_cursor of the previous page of results.
    """
    needle = query.casefold().strip()
    found: list[tuple[str, SearchResult]] = []
    if object_type in (None, "page"):
        for row in db.find(pages, shared_with_integration=True):
            if needle in row["title"].casefold() and (include_trashed or not row["in_trash"]):
                found.append((row["last_edited_time"], SearchResult(
                    object="page", id=row["id"], title=row["title"], parent_id=row["parent_id"],
                    in_trash=row["in_trash"], properties=row["properties"],
                )))
    if object_type in (None, "database"):
        for row in db.find(databases, shared_with_integration=True, in_trash=False):
            if needle in row["title"].casefold():
                found.append(("", SearchResult(
                    object="database", id=row["id"], title=row["title"], parent_id=row["parent_page_id"],
                    in_trash=False, properties=row["properties"],
                )))
    found.sort(key=lambda item: (item[0], item[1].id), reverse=True)
    return paginate([r for _, r in found], page_size, start_cursor)


@tool(read_only=True)
def retrieve_page(db: Database, page_id: str) -> PageObject:
    """Retrieve a page's title, parent, icon, properties and status (trashed pages included).

    Args:
        page_id: The page's ID.
    """
    return _page_object(_visible_page(db, page_id))


@tool()
def create_page(
    db: Database,
    title: str,
    parent_page_id: str | None = None,
    database_id: str | None = None,
    properties: dict[str, Any] | None = None,
    children: list[BlockInput] | None = None,
    icon: str | None = None,
) -> PageObject:
    """Create a page under a parent page, or a new row in a database. Integrations cannot create top-level
    workspace pages: give exactly one of parent_page_id or database_id.

    Args:
        title: The page title (for a database row, its Name).
        parent_page_id: The page to create the new page in.
        database_id: The database to add the new row to.
        properties: Property values by name (database rows only), e.g. {"Status": "In progress"}.
        children: Blocks to fill the page with.
        icon: An emoji.
    """
    if (parent_page_id is None) == (database_id is None):
        raise InvalidRequest("Provide exactly one parent: parent_page_id or database_id")
    if not title.strip():
        raise InvalidRequest("title must not be empty")
    values = properties or {}
    if database_id is not None:
        parent = _visible_database(db, database_id)
        _validate_properties(db, parent["properties"], values)
        parent_type, parent_id = "database_id", database_id
    else:
        if values:
            raise InvalidRequest("properties other than title can only be set on pages in a database")
        _editable_page(db, parent_page_id)  # type: ignore[arg-type]
        parent_type, parent_id = "page_id", parent_page_id
    now = db.now_iso()
    row = db.insert(
        pages, id=db.new_uuid(pages), title=title.strip(), parent_type=parent_type, parent_id=parent_id, icon=icon,
        properties=values, created_by=_integration_id(db), created_time=now, last_edited_time=now,
        shared_with_integration=True, locked=False, in_trash=False,
    )
    if children:
        _insert_blocks(db, row["id"], children)
    return _page_object(row)


@tool()
def update_page(
    db: Database,
    page_id: str,
    title: str | None = None,
    icon: str | None = None,
    properties: dict[str, Any] | None = None,
) -> PageObject:
    """Change a page's title, icon or (for database rows) property values. Unset arguments stay as they are.

    Args:
        page_id: The page to update.
        title: New title.
        icon: New emoji icon.
        properties: Property values to change by name; other properties keep their values.
    """
    row = _editable_page(db, page_id)
    changes: dict[str, Any] = {}
    if title is not None:
        if not title.strip():
            raise InvalidRequest("title must not be empty")
        changes["title"] = title.strip()
    if icon is not None:
        changes["icon"] = icon
    if properties:
        if row["parent_type"] != "database_id":
            raise InvalidRequest("properties other than title can only be set on pages in a database")
        schema = _visible_database(db, row["parent_id"])["properties"]
        changes["properties"] = {**row["properties"], **_validate_properties(db, schema, properties)}
    if not changes:
        raise InvalidRequest("Nothing to update: give a title, icon or properties")
    changes["last_edited_time"] = db.now_iso()
    return _page_object(db.update(pages, page_id, **changes))


def _contents(db: Database, page_id: str) -> tuple[list[str], list[str]]:
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


@tool()
def move_page_to_trash(db: Database, page_id: str) -> PageObject:
    """Move a page (and everything in it: sub-pages, child databases and their rows) to the trash. It can be
    restored, with its contents, until the trash is emptied.

    Args:
        page_id: The page to trash.
    """
    row = _visible_page(db, page_id)
    if row["in_trash"]:
        raise Conflict(f"Page '{row['title']}' is already in the trash")
    if row["locked"]:
        raise PermissionDenied(f"Page '{row['title']}' is locked; a workspace member must unlock it in Notion.")
    inner_pages, inner_databases = _contents(db, page_id)
    for table, ids in ((pages, inner_pages), (databases, inner_databases)):
        for inner in ids:
            if not db.get(table, inner, "Object")["in_trash"]:
                db.update(table, inner, in_trash=True, trashed_with=page_id)
    return _page_object(db.update(pages, page_id, in_trash=True, last_edited_time=db.now_iso()))


@tool()
def restore_page(db: Database, page_id: str) -> PageObject:
    """Restore a page from the trash, with what went to the trash inside it.

    Args:
        page_id: The trashed page.
    """
    row = _visible_page(db, page_id)
    if not row["in_trash"]:
        raise Conflict(f"Page '{row['title']}' is not in the trash")
    if row["trashed_with"] is not None:
        outer = db.get(pages, row["trashed_with"], "Page")
        raise Conflict(f"Page '{row['title']}' went to the trash with '{outer['title']}'; restore that page to "
                       "bring it back")
    for table in (pages, databases):
        for inner in db.find(table, trashed_with=page_id):
            db.update(table, inner["id"], in_trash=False, trashed_with=None)
    return _page_object(db.update(pages, page_id, in_trash=False, last_edited_time=db.now_iso()))


@tool(read_only=True)
def retrieve_block_children(
    db: Database, page_id: str, page_size: int = 50, start_cursor: str | None = None
) -> Page[BlockObject]:
    """List the blocks (content) of a page in order.

    Args:
        page_id: The page whose content to read.
        page_size: Blocks per page of results, 1 to 100.
        start_cursor: The next_cursor of the previous page of results.
    """
    _visible_page(db, page_id)
    rows = db.find(blocks, page_id=page_id, order_by=[blocks.c.position])
    return paginate([BlockObject(**r) for r in rows], page_size, start_cursor)


@tool()
def append_block_children(db: Database, page_id: str, children: list[BlockInput]) -> list[BlockObject]:
    """Append blocks at the end of a page (at most 100 per request).

    Args:
        page_id: The page to add content to.
        children: The blocks to append, in order.
    """
    _editable_page(db, page_id)
    if not children:
        raise InvalidRequest("children must not be empty")
    created = _insert_blocks(db, page_id, children)
    _touch(db, page_id)
    return created


@tool()
def update_block(db: Database, block_id: str, text: str | None = None, checked: bool | None = None) -> BlockObject:
    """Change a block's text, or tick/untick a to_do block.

    Args:
        block_id: The block to change.
        text: New text of the block.
        checked: New checkbox state (to_do blocks only).
    """
    block = db.get(blocks, block_id, "Block")
    _editable_page(db, block["page_id"])
    changes: dict[str, Any] = {}
    if text is not None:
        if block["type"] == "divider":
            raise InvalidRequest("a divider block has no text")
        changes["text"] = text
    if checked is not None:
        if block["type"] != "to_do":
            raise InvalidRequest(f"checked is only valid for to_do blocks; this block is a {block['type']}")
        changes["checked"] = checked
    if not changes:
        raise InvalidRequest("Nothing to update: give text or checked")
    row = db.update(blocks, block_id, **changes)
    _touch(db, block["page_id"])
    return BlockObject(**row)


@tool()
def delete_block(db: Database, block_id: str) -> BlockObject:
    """Delete a block from its page.

    Args:
        block_id: The block to delete.
    """
    block = db.get(blocks, block_id, "Block")
    _editable_page(db, block["page_id"])
    db.delete(blocks, block_id)
    _touch(db, block["page_id"])
    return BlockObject(**block)


@tool(read_only=True)
def query_database(
    db: Database,
    database_id: str,
    filter: list[PropertyFilter] | None = None,
    sorts: list[Sort] | None = None,
    page_size: int = 50,
    start_cursor: str | None = None,
) -> Page[PageObject]:
    """List the rows (pages) of a database that match every filter, sorted as asked (default: title).

    Trashed rows are left out.

    Args:
        database_id: The database to query.
        filter: Conditions that must all hold, e.g. [{"property": "Status", "equals": "Done"}].
        sorts: Sort keys in priority order.
        page_size: Rows per page of results, 1 to 100.
        start_cursor: The next_cursor of the previous page of results.
    """
    schema = _visible_database(db, database_id)["properties"]
    rows = db.find(pages, parent_type="database_id", parent_id=database_id, in_trash=False, order_by=[pages.c.title])
    for condition in filter or []:
        if condition.property not in schema and condition.property != "title":
            raise InvalidRequest(f"Could not find property with name or id: {condition.property}")
        rows = [r for r in rows if _passes(r, condition)]
    for sort in reversed(sorts or []):
        if sort.property not in schema and sort.property != "title":
            raise InvalidRequest(f"Could not find sort property with name or id: {sort.property}")
        rows.sort(key=lambda r: _sort_key(r, sort.property), reverse=sort.direction == "descending")
    return paginate([_page_object(r) for r in rows], page_size, start_cursor)


def _value(row: dict[str, Any], prop: str) -> Any:
    return row["title"] if prop == "title" else row["properties"].get(prop)


def _passes(row: dict[str, Any], condition: PropertyFilter) -> bool:
    value = _value(row, condition.property)
    checks = []
    if condition.equals is not None:
        checks.append(value == condition.equals)
    if condition.contains is not None:
        checks.append(isinstance(value, str) and condition.contains.casefold() in value.casefold())
    if condition.before is not None:
        checks.append(isinstance(value, str) and value < condition.before)
    if condition.after is not None:
        checks.append(isinstance(value, str) and value > condition.after)
    if condition.is_empty is not None:
        checks.append((value in (None, "")) == condition.is_empty)
    if not checks:
        raise InvalidRequest(f"filter on {condition.property} has no condition")
    return all(checks)


def _sort_key(row: dict[str, Any], prop: str) -> tuple[int, Any]:
    value = _value(row, prop)
    return (value is None, str(value) if not isinstance(value, (int, float)) else f"{value:020.4f}")


@tool()
def create_comment(db: Database, page_id: str, text: str) -> CommentObject:
    """Add a comment to a page, as the integration.

    Args:
        page_id: The page to comment on.
        text: The comment.
    """
    page = _visible_page(db, page_id)
    if page["in_trash"]:
        raise Conflict("Can't comment on a page in the trash")
    if not text.strip():
        raise InvalidRequest("comment text must not be empty")
    row = db.insert(
        comments, id=db.new_uuid(comments), page_id=page_id, author_id=_integration_id(db), text=text.strip(),
        created_time=db.now_iso(),
    )
    return CommentObject(**row)


@tool(read_only=True)
def list_users(db: Database) -> list[UserObject]:
    """List the workspace's members, guests and bots (ids are needed for people properties)."""
    return [UserObject(**r) for r in db.find(users, order_by=[users.c.name])]


@tool()
def empty_trash(db: Database) -> TrashReport:
    """Permanently delete every trashed page the integration can see, with what went to the trash inside it
    (sub-pages, child databases and their rows) and their blocks and comments."""
    trashed = db.find(pages, shared_with_integration=True, in_trash=True, trashed_with=None)
    if not trashed:
        raise Conflict("The trash is already empty")
    doomed = [r["id"] for r in trashed]
    doomed += [r["id"] for page_id in list(doomed) for r in db.find(pages, trashed_with=page_id)]
    removed_blocks = removed_comments = 0
    for page_id in doomed:
        removed_blocks += db.conn.execute(blocks.delete().where(blocks.c.page_id == page_id)).rowcount
        removed_comments += db.conn.execute(comments.delete().where(comments.c.page_id == page_id)).rowcount
    for root in trashed:
        for database in db.find(databases, trashed_with=root["id"]):
            db.delete(databases, database["id"])
    for page_id in reversed(doomed):
        db.delete(pages, page_id)
    return TrashReport(deleted_pages=len(doomed), deleted_blocks=removed_blocks, deleted_comments=removed_comments)


@tool(user_only=True)
def add_connection(db: Database, page_title: str) -> list[str]:
    """(User only, in the Notion app) Share a page, with its sub-pages and databases, with the integration.

    Args:
        page_title: Title of the page to share, as the user sees it.
    """
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
