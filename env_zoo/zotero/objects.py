"""The Zotero API's objects as Pydantic models: what the tools take (creators, search conditions) and return."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Creator(BaseModel):
    """A creator: two-field (firstName, lastName) for a person, or single-field (name) for an institution."""

    creatorType: str = Field("author", description="author, editor, contributor, ... (valid ones depend on the type)")
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

    condition: str = Field(
        description="title, creator, tag, publicationTitle, DOI, note, itemType, collection, "
        "date, dateAdded, noChildren, unfiled or joinMode"
    )
    operator: str = Field(
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
