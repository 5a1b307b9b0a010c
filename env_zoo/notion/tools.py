"""Notion API tools: search, pages, blocks, database queries, comments, users and the trash."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, NonEmptyText, page_size

from . import rules
from .objects import (
    MAX_CHILDREN,
    MAX_TEXT,
    BlockInput,
    BlockObject,
    CommentObject,
    PageObject,
    PropertyFilter,
    SearchResult,
    Sort,
    TrashReport,
    UserObject,
    database_result,
    page_object,
    page_result,
)
from .schema import blocks, comments, databases, pages, users

#: page_size in a request body (search, database queries) and in a query string (block children).
BodyPageSize = Annotated[
    page_size(100), ErrorText("body failed validation: body.page_size should be ≥ `1` and ≤ `100`.")
]
QueryPageSize = Annotated[
    page_size(100), ErrorText("query failed validation: query.page_size should be ≥ `1` and ≤ `100`.")
]
Title = Annotated[
    str,
    Field(min_length=1, max_length=MAX_TEXT, pattern=r"\S"),
    ErrorText(f"body failed validation: body.title should be a non-empty text of at most {MAX_TEXT} characters."),
]
CommentText = Annotated[
    str,
    Field(min_length=1, max_length=MAX_TEXT, pattern=r"\S"),
    ErrorText(
        f"body failed validation: body.rich_text[0].text.content should be a non-empty text of at most {MAX_TEXT} "
        "characters."
    ),
]
BlockText = Annotated[
    str,
    Field(max_length=MAX_TEXT),
    ErrorText(f"body failed validation: body.rich_text[0].text.content should be at most {MAX_TEXT} characters."),
]
Children = Annotated[list[BlockInput], Field(max_length=MAX_CHILDREN)]
NewChildren = Annotated[list[BlockInput], Field(min_length=1, max_length=MAX_CHILDREN)]


@tool(read_only=True)
def search_pages(
    db: Database,
    query: str = "",
    object_type: Literal["page", "database"] | None = None,
    include_trashed: bool = False,
    page_size: BodyPageSize = 10,
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
        rows = db.find(pages, shared_with_integration=True, **given(in_trash=None if include_trashed else False))
        found += [(r["last_edited_time"], page_result(r)) for r in rows if needle in r["title"].casefold()]
    if object_type in (None, "database"):
        rows = db.find(databases, shared_with_integration=True, in_trash=False)
        found += [("", database_result(r)) for r in rows if needle in r["title"].casefold()]
    found.sort(key=lambda item: (item[0], item[1].id), reverse=True)
    return paginate([r for _, r in found], page_size, start_cursor)


@tool(read_only=True)
def retrieve_page(db: Database, page_id: str) -> PageObject:
    """Retrieve a page's title, parent, icon, properties and status (trashed pages included).

    Args:
        page_id: The page's ID.
    """
    return page_object(rules.visible_page(db, page_id))


@tool()
def create_page(
    db: Database,
    title: Title,
    parent_page_id: str | None = None,
    database_id: str | None = None,
    properties: dict[str, Any] | None = None,
    children: Children | None = None,
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
    values = properties or {}
    if database_id is not None:
        values = rules.validate_properties(db, rules.visible_database(db, database_id)["properties"], values)
        parent_type, parent_id = "database_id", database_id
    else:
        if values:
            raise InvalidRequest("properties other than title can only be set on pages in a database")
        rules.editable_page(db, parent_page_id)  # type: ignore[arg-type]
        parent_type, parent_id = "page_id", parent_page_id
    now = db.now_iso()
    row = db.insert(
        pages,
        id=db.new_uuid(pages),
        title=title.strip(),
        parent_type=parent_type,
        parent_id=parent_id,
        icon=icon,
        properties=values,
        created_by=rules.integration_id(db),
        created_time=now,
        last_edited_time=now,
        shared_with_integration=True,
        locked=False,
        in_trash=False,
    )
    if children:
        rules.insert_blocks(db, row["id"], children)
    return page_object(row)


@tool()
def update_page(
    db: Database,
    page_id: str,
    title: Title | None = None,
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
    row = rules.editable_page(db, page_id)
    changes: dict[str, Any] = given(title=title.strip() if title is not None else None, icon=icon)
    if properties:
        if row["parent_type"] != "database_id":
            raise InvalidRequest("properties other than title can only be set on pages in a database")
        schema = rules.visible_database(db, row["parent_id"])["properties"]
        changes["properties"] = {**row["properties"], **rules.validate_properties(db, schema, properties)}
    if not changes:
        raise InvalidRequest("Nothing to update: give a title, icon or properties")
    return page_object(db.update(pages, page_id, **changes, last_edited_time=db.now_iso()))


@tool()
def move_page_to_trash(db: Database, page_id: str) -> PageObject:
    """Move a page (and everything in it: sub-pages, child databases and their rows) to the trash. It can be
    restored, with its contents, until the trash is emptied.

    Args:
        page_id: The page to trash.
    """
    return page_object(rules.trash(db, rules.visible_page(db, page_id)))


@tool()
def restore_page(db: Database, page_id: str) -> PageObject:
    """Restore a page from the trash, with what went to the trash inside it.

    Args:
        page_id: The trashed page.
    """
    return page_object(rules.restore(db, rules.visible_page(db, page_id)))


@tool(read_only=True)
def retrieve_block_children(
    db: Database, page_id: str, page_size: QueryPageSize = 50, start_cursor: str | None = None
) -> Page[BlockObject]:
    """List the blocks (content) of a page in order.

    Args:
        page_id: The page whose content to read.
        page_size: Blocks per page of results, 1 to 100.
        start_cursor: The next_cursor of the previous page of results.
    """
    rules.visible_page(db, page_id)
    rows = db.find(blocks, page_id=page_id, order_by=[blocks.c.position])
    return paginate([BlockObject(**r) for r in rows], page_size, start_cursor)


@tool()
def append_block_children(db: Database, page_id: str, children: NewChildren) -> list[BlockObject]:
    """Append blocks at the end of a page (at most 100 per request).

    Args:
        page_id: The page to add content to.
        children: The blocks to append, in order.
    """
    rules.editable_page(db, page_id)
    created = rules.insert_blocks(db, page_id, children)
    rules.touch(db, page_id)
    return created


@tool()
def update_block(
    db: Database,
    block_id: str,
    text: BlockText | None = None,
    checked: bool | None = None,
) -> BlockObject:
    """Change a block's text, or tick/untick a to_do block.

    Args:
        block_id: The block to change.
        text: New text of the block.
        checked: New checkbox state (to_do blocks only).
    """
    block = db.get(blocks, block_id, "Block")
    rules.editable_page(db, block["page_id"])
    if text is not None and block["type"] == "divider":
        raise InvalidRequest("a divider block has no text")
    if checked is not None and block["type"] != "to_do":
        raise InvalidRequest(f"checked is only valid for to_do blocks; this block is a {block['type']}")
    changes = given(text=text, checked=checked)
    if not changes:
        raise InvalidRequest("Nothing to update: give text or checked")
    row = db.update(blocks, block_id, **changes)
    rules.touch(db, block["page_id"])
    return BlockObject(**row)


@tool()
def delete_block(db: Database, block_id: str) -> BlockObject:
    """Delete a block from its page.

    Args:
        block_id: The block to delete.
    """
    block = db.get(blocks, block_id, "Block")
    rules.editable_page(db, block["page_id"])
    db.delete(blocks, block_id)
    rules.touch(db, block["page_id"])
    return BlockObject(**block)


@tool(read_only=True)
def query_database(
    db: Database,
    database_id: str,
    filter: list[PropertyFilter] | None = None,
    sorts: list[Sort] | None = None,
    page_size: BodyPageSize = 50,
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
    schema = rules.visible_database(db, database_id)["properties"]
    rows = db.find(pages, parent_type="database_id", parent_id=database_id, in_trash=False, order_by=[pages.c.title])
    rows = rules.filtered(rows, schema, filter or [])
    for sort in reversed(sorts or []):
        rules.check_property(schema, sort.property, "sort property")
        rows.sort(key=lambda r: rules.sort_key(r, sort.property), reverse=sort.direction == "descending")
    return paginate([page_object(r) for r in rows], page_size, start_cursor)


@tool()
def create_comment(db: Database, page_id: str, text: CommentText) -> CommentObject:
    """Add a comment to a page, as the integration.

    Args:
        page_id: The page to comment on.
        text: The comment.
    """
    if rules.visible_page(db, page_id)["in_trash"]:
        raise Conflict("Can't comment on a page in the trash")
    row = db.insert(
        comments,
        id=db.new_uuid(comments),
        page_id=page_id,
        author_id=rules.integration_id(db),
        text=text.strip(),
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
    deleted_pages, deleted_blocks, deleted_comments = rules.empty_trash(db)
    return TrashReport(deleted_pages=deleted_pages, deleted_blocks=deleted_blocks, deleted_comments=deleted_comments)


@tool(user_only=True)
def add_connection(db: Database, page_title: NonEmptyText) -> list[str]:
    """(User only, in the Notion app) Share a page, with its sub-pages and databases, with the integration.

    Args:
        page_title: Title of the page to share, as the user sees it.
    """
    return rules.share(db, page_title)
