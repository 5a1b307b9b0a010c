"""The Zotero API's objects as Pydantic models: what the tools take (creators, search conditions) and return, the
argument types whose values Zotero restricts, and how stored rows become objects (with Zotero's meta:
creatorSummary, parsedDate, numChildren)."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import text

from envfactory_gym import Database, Unordered
from envfactory_gym.fields import ErrorText

from .schema import collections, group_members, items, libraries, users

RegularItemType = Literal[
    "book",
    "bookSection",
    "conferencePaper",
    "dataset",
    "journalArticle",
    "magazineArticle",
    "preprint",
    "report",
    "thesis",
    "webpage",
]
#: The type of an item create_item makes.
NewItemType = Annotated[
    RegularItemType,
    ErrorText(
        "not a valid itemType for create_item (notes are created with create_note, attachments from a Zotero client)"
    ),
]
#: An item type to search for; a leading '-' excludes that type instead.
ItemTypeFilter = Literal[
    "attachment",
    "book",
    "bookSection",
    "conferencePaper",
    "dataset",
    "journalArticle",
    "magazineArticle",
    "note",
    "preprint",
    "report",
    "thesis",
    "webpage",
    "-attachment",
    "-book",
    "-bookSection",
    "-conferencePaper",
    "-dataset",
    "-journalArticle",
    "-magazineArticle",
    "-note",
    "-preprint",
    "-report",
    "-thesis",
    "-webpage",
]
CreatorType = Literal["author", "bookAuthor", "contributor", "editor", "reviewedAuthor", "seriesEditor", "translator"]
SortField = Literal["dateModified", "dateAdded", "title", "creator", "date", "itemType"]
ConditionName = Literal[
    "title",
    "creator",
    "tag",
    "publicationTitle",
    "DOI",
    "note",
    "itemType",
    "collection",
    "date",
    "dateAdded",
    "noChildren",
    "unfiled",
    "joinMode",
]
Operator = Literal[
    "is", "isNot", "contains", "doesNotContain", "isBefore", "isAfter", "isInTheLast", "true", "false", "any", "all"
]
#: An object's or a library's version as last retrieved (If-Unmodified-Since-Version).
Version = Annotated[int, Field(ge=0)]
#: The title of a regular item.
Title = Annotated[str, Field(min_length=1, pattern=r"\S"), ErrorText("title must not be empty")]
#: A note's HTML or plain-text content.
NoteText = Annotated[str, Field(min_length=1, pattern=r"\S"), ErrorText("note must not be empty")]
#: A collection's name (Zotero allows up to 255 characters).
CollectionName = Annotated[
    str,
    Field(min_length=1, max_length=255, pattern=r"\S"),
    ErrorText("Collection name must be 1 to 255 characters and not blank"),
]
#: A saved search's name.
SearchName = Annotated[
    str, Field(min_length=1, max_length=255, pattern=r"\S"), ErrorText("Saved search name must not be empty")
]
#: Tag names of an item, each 1 to 255 characters and not blank.
TagNames = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=255, pattern=r"\S")]],
    Unordered,
    ErrorText("Tag names must be 1 to 255 characters and not blank"),
]
#: Keys of the items one write acts on: 1 to 50 (Zotero's limit per request).
ItemKeys = Annotated[
    list[str],
    Unordered,
    Field(min_length=1, max_length=50),
    ErrorText("Give 1 to 50 item keys per request"),
]
#: Keys of the duplicates merged into a master item.
DuplicateKeys = Annotated[
    list[str], Unordered, Field(min_length=1), ErrorText("other_keys must name at least one duplicate")
]
CollectionKeys = Annotated[list[str], Unordered]
#: How many top-level items outside the trash a library holds.
_TOP_ITEMS = text("SELECT COUNT(*) FROM items WHERE library_id = :library AND NOT deleted AND parent_item IS NULL")
_MONTHS = {
    m: i
    for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1)
}


class Creator(BaseModel):
    """A creator: two-field (firstName, lastName) for a person, or single-field (name) for an institution."""

    creatorType: CreatorType = Field("author", description="valid creator types depend on the item type")
    firstName: str | None = None
    lastName: str | None = None
    name: str | None = Field(None, description="single-field name, e.g. 'Intergovernmental Panel on Climate Change'")


class Tag(BaseModel):
    """A tag on an item: type 0 is a manual tag, type 1 an automatic one (imported with the item)."""

    tag: str
    type: int = 0


class ItemObject(BaseModel):
    """An item as the API returns it: its editable data plus meta (creatorSummary, parsedDate, numChildren)."""

    key: str
    version: int
    library: str
    itemType: str
    parentItem: str | None
    title: str
    creators: list[Creator]
    date: str
    fields: dict[str, str] = Field(description="every other field of the item (DOI, publicationTitle, url, ...)")
    tags: list[Tag]
    collections: list[str]
    relations: dict[str, list[str]]
    note: str | None = Field(None, description="HTML content, for notes")
    linkMode: str | None = Field(None, description="for attachments: imported_file, imported_url or linked_url")
    contentType: str | None = None
    filename: str | None = None
    deleted: bool = Field(description="whether the item is in the trash")
    dateAdded: str
    dateModified: str
    numChildren: int
    creatorSummary: str
    parsedDate: str
    createdByUser: str | None = Field(None, description="in group libraries, who added the item")


class ItemList(BaseModel):
    """A page of items with the Total-Results and Last-Modified-Version headers."""

    items: list[ItemObject]
    total_results: int
    library_version: int = Field(description="current version of the library (for permanent deletes)")
    next_start: int | None = Field(None, description="the `start` of the next page, if there is one")


class CollectionObject(BaseModel):
    """A collection, with meta counts of the items and subcollections directly in it."""

    key: str
    version: int
    library: str
    name: str
    parentCollection: str | None
    numItems: int
    numCollections: int


class CollectionDeletion(BaseModel):
    """What deleting a collection removed."""

    deleted_collections: list[str]
    items_updated: int
    library_version: int


class SearchCondition(BaseModel):
    """One condition of a saved search."""

    condition: ConditionName = Field(description="what the condition looks at; joinMode says how they combine")
    operator: Operator = Field(
        description="is, isNot, contains, doesNotContain, isBefore, isAfter, isInTheLast; "
        "true/false for noChildren and unfiled; any/all for joinMode"
    )
    value: str = ""


class SearchObject(BaseModel):
    """A saved search (its results are only computed by Zotero clients)."""

    key: str
    version: int
    library: str
    name: str
    conditions: list[SearchCondition]


class TagSummary(BaseModel):
    """A tag of a library with the number of items carrying it."""

    tag: str
    type: int
    numItems: int


class DeleteResult(BaseModel):
    """Items permanently deleted (children included) and the library's new version."""

    deleted: list[str]
    library_version: int


class GroupObject(BaseModel):
    """A group the user belongs to, with its settings and the user's role in it."""

    id: int
    name: str
    type: str = Field(description="Private, PublicClosed or PublicOpen")
    owner: str
    description: str
    url: str
    libraryEditing: str = Field(description="who may edit the library: members or admins")
    libraryReading: str
    fileEditing: str
    role: str = Field(description="your role: owner, admin or member")
    canEdit: bool = Field(description="whether you may write to the group's library")
    numMembers: int
    numItems: int
    library_version: int


class LibraryAccess(BaseModel):
    """What the key may do in the personal library."""

    library: bool
    notes: bool
    write: bool


class GroupAccess(BaseModel):
    """What the key may do in the user's group libraries."""

    library: bool
    write: bool


class KeyInfo(BaseModel):
    """The API key in use: whose it is and what it may access."""

    key: str
    name: str
    userID: int
    username: str
    displayName: str
    user_access: LibraryAccess
    groups_access: GroupAccess
    library_version: int = Field(description="current version of the personal library")


# ---------------------------------------------------------------- stored rows -> objects


def parsed_date(text: str) -> str:
    """Zotero's parsedDate: YYYY-MM-DD, YYYY-MM or YYYY from a free-form date, '' if none."""
    text = text.strip()
    iso = re.match(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?\b", text)
    if iso:
        return "-".join([iso.group(1)] + [f"{int(g):02d}" for g in iso.groups()[1:] if g])
    us = re.match(r"^(\d{1,2})/(\d{1,2})/(\d{4})$", text)
    if us:
        return f"{us.group(3)}-{int(us.group(1)):02d}-{int(us.group(2)):02d}"
    month_day = r"([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})"
    day_month = r"(\d{1,2})\s+([A-Za-z]+)\.?\s+(\d{4})"
    for pattern, order in ((month_day, "mdy"), (day_month, "dmy")):
        match = re.search(pattern, text)
        if match:
            parts = dict(zip(order, match.groups()))
            month = _MONTHS.get(parts["m"][:3].casefold())
            if month:
                return f"{parts['y']}-{month:02d}-{int(parts['d']):02d}"
    month_year = re.search(r"([A-Za-z]+)\.?\s+(\d{4})", text)
    if month_year and _MONTHS.get(month_year.group(1)[:3].casefold()):
        return f"{month_year.group(2)}-{_MONTHS[month_year.group(1)[:3].casefold()]:02d}"
    year = re.search(r"\b(\d{4})\b", text)
    return year.group(1) if year else ""


def creator_summary(creators: list[dict[str, Any]]) -> str:
    people = [c for c in creators if c["creatorType"] == "author"] or creators
    names = [c.get("lastName") or c.get("name") or "" for c in people]
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return f"{names[0]} et al."


def item_objects(db: Database, rows: list[dict[str, Any]]) -> list[ItemObject]:
    """Items with their meta; child counts (outside the trash) and group creators read once for all of them."""
    if not rows:
        return []
    marks = ", ".join("?" * len(rows))
    counts: dict[str, int] = {}
    for child in db.select(items, f"parent_item IN ({marks}) AND NOT deleted", [r["key"] for r in rows]):
        counts[child["parent_item"]] = counts.get(child["parent_item"], 0) + 1
    creators = {r["created_by"] for r in rows if r["created_by"] is not None}
    names = {u["id"]: u["username"] for u in db.select(users)} if creators else {}
    return [_item_object(row, counts.get(row["key"], 0), names.get(row["created_by"])) for row in rows]


def item_object(db: Database, row: dict[str, Any]) -> ItemObject:
    return item_objects(db, [row])[0]


def _item_object(row: dict[str, Any], num_children: int, created_by: str | None) -> ItemObject:
    return ItemObject(
        key=row["key"],
        version=row["version"],
        library=row["library_id"],
        itemType=row["item_type"],
        parentItem=row["parent_item"],
        title=row["title"],
        creators=[Creator(**c) for c in row["creators"]],
        date=row["date"],
        fields=row["fields"],
        tags=[Tag(**t) for t in row["tags"]],
        collections=row["collections"],
        relations=row["relations"],
        note=row["note"],
        linkMode=row["link_mode"],
        contentType=row["content_type"],
        filename=row["filename"],
        deleted=row["deleted"],
        dateAdded=row["date_added"],
        dateModified=row["date_modified"],
        numChildren=num_children,
        creatorSummary=creator_summary(row["creators"]),
        parsedDate=parsed_date(row["date"]),
        createdByUser=created_by,
    )


def collection_objects(db: Database, rows: list[dict[str, Any]]) -> list[CollectionObject]:
    """Collections with the items and subcollections directly in each, counted in one pass over the filed items."""
    items_in: dict[str, int] = {}
    subcollections: dict[str, int] = {}
    for library_id in {r["library_id"] for r in rows}:
        for item in db.select(items, "library_id = ? AND NOT deleted AND collections != '[]'", [library_id]):
            for key in set(item["collections"]):
                items_in[key] = items_in.get(key, 0) + 1
    for sub in db.select(collections, "parent_collection IS NOT NULL"):
        subcollections[sub["parent_collection"]] = subcollections.get(sub["parent_collection"], 0) + 1
    return [
        CollectionObject(
            key=row["key"],
            version=row["version"],
            library=row["library_id"],
            name=row["name"],
            parentCollection=row["parent_collection"],
            numItems=items_in.get(row["key"], 0),
            numCollections=subcollections.get(row["key"], 0),
        )
        for row in rows
    ]


def collection_object(db: Database, row: dict[str, Any]) -> CollectionObject:
    return collection_objects(db, [row])[0]


def group_object(db: Database, group: dict[str, Any], member: dict[str, Any], can_edit: bool) -> GroupObject:
    library = db.get(libraries, f"groups/{group['id']}", "Library")
    return GroupObject(
        id=group["id"],
        name=group["name"],
        type=group["type"],
        owner=db.get(users, group["owner"], "User")["username"],
        description=group["description"],
        url=group["url"],
        libraryEditing=group["library_editing"],
        libraryReading=group["library_reading"],
        fileEditing=group["file_editing"],
        role=member["role"],
        canEdit=can_edit,
        numMembers=len(db.find(group_members, group_id=group["id"])),
        numItems=db.conn.execute(_TOP_ITEMS, {"library": library["id"]}).scalar_one(),
        library_version=library["version"],
    )


def search_object(row: dict[str, Any]) -> SearchObject:
    return SearchObject(
        key=row["key"],
        version=row["version"],
        library=row["library_id"],
        name=row["name"],
        conditions=[SearchCondition(**c) for c in row["conditions"]],
    )
