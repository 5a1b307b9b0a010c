"""Notion API objects as output models (and the block, filter and sort inputs), and how stored rows become them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym.fields import IsoDate

BlockType = Literal[
    "paragraph",
    "heading_1",
    "heading_2",
    "heading_3",
    "to_do",
    "bulleted_list_item",
    "numbered_list_item",
    "quote",
    "callout",
    "code",
    "divider",
]
#: Notion's limit on the text of one rich-text object (a block's text, a comment, a title).
MAX_TEXT = 2000
#: Notion's limit on the blocks of one request (`children`).
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
    text: str = Field("", max_length=MAX_TEXT)
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
    before: IsoDate | None = Field(None, description="date YYYY-MM-DD (exclusive)")
    after: IsoDate | None = Field(None, description="date YYYY-MM-DD (exclusive)")
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


def page_object(row: dict[str, Any]) -> PageObject:
    """A pages row with its notion.so URL."""
    return PageObject(
        **{k: row[k] for k in PageObject.model_fields if k in row},
        url=f"https://www.notion.so/{row['id'].replace('-', '')}",
    )


def page_result(row: dict[str, Any]) -> SearchResult:
    """A pages row as a search result."""
    return SearchResult(
        object="page",
        id=row["id"],
        title=row["title"],
        parent_id=row["parent_id"],
        in_trash=row["in_trash"],
        properties=row["properties"],
    )


def database_result(row: dict[str, Any]) -> SearchResult:
    """A databases row as a search result (its properties are the schema)."""
    return SearchResult(
        object="database",
        id=row["id"],
        title=row["title"],
        parent_id=row["parent_page_id"],
        in_trash=False,
        properties=row["properties"],
    )
