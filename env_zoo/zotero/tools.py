"""Zotero Web API v3 tools: the API key, group libraries, items with child notes, collections, tags, saved searches,
the trash, permanent deletes and duplicate merging. Every tool acts on the personal library unless given a group."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied, Unordered, paginate, tool

from .access import (
    CHILD_TYPES,
    MAX_KEYS_PER_WRITE,
    TYPE_FIELDS,
    _api_key,
    _bump,
    _check_collections,
    _check_fields,
    _check_type,
    _check_version,
    _clean_creators,
    _clean_tags,
    _collection,
    _collection_object,
    _collection_objects,
    _creator_summary,
    _descendants,
    _group_object,
    _haystack,
    _in_trash,
    _item,
    _item_object,
    _library,
    _new_key,
    _note_title,
    _parsed_date,
    _refile,
    _sorted_tags,
)
from .objects import (
    CollectionDeletion,
    CollectionObject,
    Creator,
    DeleteResult,
    GroupAccess,
    GroupObject,
    ItemList,
    ItemObject,
    KeyInfo,
    LibraryAccess,
    SearchCondition,
    SearchObject,
    TagSummary,
)
from .schema import collections, group_invitations, group_members, groups, items, libraries, searches, users

SEARCH_OPERATORS: dict[str, frozenset[str]] = {
    "title": frozenset({"is", "isNot", "contains", "doesNotContain"}),
    "creator": frozenset({"is", "isNot", "contains", "doesNotContain"}),
    "tag": frozenset({"is", "isNot", "contains", "doesNotContain"}),
    "publicationTitle": frozenset({"is", "isNot", "contains", "doesNotContain"}),
    "DOI": frozenset({"is", "isNot", "contains", "doesNotContain"}),
    "note": frozenset({"contains", "doesNotContain"}),
    "itemType": frozenset({"is", "isNot"}),
    "collection": frozenset({"is", "isNot"}),
    "date": frozenset({"is", "isNot", "isBefore", "isAfter", "isInTheLast"}),
    "dateAdded": frozenset({"is", "isNot", "isBefore", "isAfter", "isInTheLast"}),
    "noChildren": frozenset({"true", "false"}),
    "unfiled": frozenset({"true", "false"}),
    "joinMode": frozenset({"any", "all"}),
}
_IN_THE_LAST = re.compile(r"^\d+ (days|weeks|months|years)$")
SortField = Literal["dateModified", "dateAdded", "title", "creator", "date", "itemType"]


# ---------------------------------------------------------------- helpers: access and versions


# ---------------------------------------------------------------- helpers: items


# ---------------------------------------------------------------- tools: key and groups


@tool(read_only=True)
def get_key_info(db: Database) -> KeyInfo:
    """Show the API key in use (GET /keys/current): the user it belongs to, what it may read and write in the
    personal library and in group libraries, and the personal library's current version."""
    key = _api_key(db)
    user = db.get(users, key["user_id"], "User")
    library = db.get(libraries, f"users/{user['id']}", "Library")
    return KeyInfo(
        key=key["key"][:4] + "*" * (len(key["key"]) - 4),
        name=key["name"],
        userID=user["id"],
        username=user["username"],
        displayName=user["display_name"],
        user_access=LibraryAccess(library=key["library_access"], notes=key["notes_access"], write=key["write_access"]),
        groups_access=GroupAccess(library=key["groups_access"] != "none", write=key["groups_access"] == "write"),
        library_version=library["version"],
    )


@tool(read_only=True)
def list_groups(db: Database) -> list[GroupObject]:
    """List the groups you are a member of (GET /users/<userID>/groups), with each group's id (needed as
    group_id by the other tools), your role, the library-editing setting and whether you can edit its library."""
    me = _api_key(db)["user_id"]
    found = []
    for member in db.find(group_members, user_id=me):
        found.append(_group_object(db, db.get(groups, member["group_id"], "Group"), member))
    return sorted(found, key=lambda g: g.name.casefold())


# ---------------------------------------------------------------- tools: items


@tool(read_only=True)
def search_items(
    db: Database,
    group_id: int | None = None,
    q: str = "",
    qmode: Literal["titleCreatorYear", "everything"] = "titleCreatorYear",
    item_type: str | None = None,
    tag: str | None = None,
    collection_key: str | None = None,
    top: bool = True,
    trash: bool = False,
    sort: SortField = "dateModified",
    direction: Literal["asc", "desc"] | None = None,
    limit: int = 25,
    start: int = 0,
) -> ItemList:
    """Search a library's items (GET /items, /items/top, /items/trash, /collections/<key>/items).

    Items in the trash are left out unless `trash` is set, which lists only the trash. Every word of `q` must
    match; titleCreatorYear looks at titles, creator names and years, everything also at all fields, tags and
    note text.

    Args:
        group_id: A group library's id (from list_groups); omit for your personal library.
        q: Quick-search words.
        qmode: titleCreatorYear (default) or everything.
        item_type: Only this item type (e.g. journalArticle, note); prefix with '-' to exclude a type.
        tag: Only items carrying this tag (case-insensitive).
        collection_key: Only items directly in this collection.
        top: Only top-level items (no child notes or attachments); set false to include children.
        trash: List the items in the trash instead.
        sort: dateModified, dateAdded, title, creator, date or itemType.
        direction: asc or desc; default desc for dateModified/dateAdded/date, asc otherwise.
        limit: Results per page, 1 to 100.
        start: Offset of the first result (the next_start of the previous page).
    """
    library = _library(db, group_id)
    rows = db.find(items, library_id=library["id"])
    by_key = {r["key"]: r for r in rows}
    if item_type is not None and item_type.lstrip("-") not in set(TYPE_FIELDS) | set(CHILD_TYPES):
        raise InvalidRequest(f"'{item_type.lstrip('-')}' is not a valid itemType")
    if collection_key is not None:
        _collection(db, library, collection_key)
    children: dict[str, int] = {}
    for row in rows:
        if row["parent_item"] and not row["deleted"]:
            children[row["parent_item"]] = children.get(row["parent_item"], 0) + 1
    words = q.casefold().split()
    kept = []
    for row in rows:
        if (row["deleted"] if trash else _in_trash(row, by_key)) != trash:
            continue
        if top and row["parent_item"] is not None:
            continue
        if item_type is not None:
            if item_type.startswith("-") == (row["item_type"] == item_type.lstrip("-")):
                continue
        if tag is not None and tag.casefold() not in (t["tag"].casefold() for t in row["tags"]):
            continue
        if collection_key is not None and collection_key not in row["collections"]:
            continue
        if words:
            haystack = _haystack(row, qmode == "everything")
            if not all(w in haystack for w in words):
                continue
        kept.append(row)
    descending = direction == "desc" if direction else sort in ("dateModified", "dateAdded", "date")
    keys = {
        "dateModified": lambda r: r["date_modified"],
        "dateAdded": lambda r: r["date_added"],
        "title": lambda r: r["title"].casefold(),
        "creator": lambda r: _creator_summary(r["creators"]).casefold(),
        "date": lambda r: _parsed_date(r["date"]),
        "itemType": lambda r: r["item_type"],
    }
    kept.sort(key=lambda r: r["key"])
    kept.sort(key=keys[sort], reverse=descending)
    page = paginate(kept, limit, str(start))
    return ItemList(
        items=[_item_object(db, r, children.get(r["key"], 0)) for r in page.results],
        total_results=len(kept),
        library_version=library["version"],
        next_start=int(page.next_cursor) if page.next_cursor else None,
    )


@tool(read_only=True)
def get_item(db: Database, item_key: str, group_id: int | None = None) -> ItemObject:
    """Retrieve one item (GET /items/<itemKey>) with all its fields, tags, collections, version and child count.

    Args:
        item_key: The item's 8-character key.
        group_id: The group library holding it; omit for your personal library.
    """
    library = _library(db, group_id)
    return _item_object(db, _item(db, library, item_key))


@tool(read_only=True)
def list_item_children(db: Database, item_key: str, group_id: int | None = None) -> list[ItemObject]:
    """List an item's child notes and attachments (GET /items/<itemKey>/children), oldest first.

    Args:
        item_key: The parent item's key.
        group_id: The group library holding it; omit for your personal library.
    """
    library = _library(db, group_id)
    _item(db, library, item_key)
    rows = db.find(items, parent_item=item_key, order_by=[items.c.date_added])
    return [_item_object(db, r, 0) for r in rows]


@tool()
def create_item(
    db: Database,
    item_type: str,
    title: str,
    creators: list[Creator] | None = None,
    date: str = "",
    fields: dict[str, str] | None = None,
    tags: Annotated[list[str], Unordered] | None = None,
    collections: Annotated[list[str], Unordered] | None = None,
    group_id: int | None = None,
) -> ItemObject:
    """Create a regular item (POST /items): a journalArticle, book, bookSection, conferencePaper, preprint,
    thesis, report, dataset, magazineArticle or webpage. Every field must be valid for the item type.

    Args:
        item_type: The Zotero item type, e.g. journalArticle.
        title: The item's title.
        creators: Authors, editors, ... in order.
        date: The date as written (e.g. 2023, 2023-05-17, May 2023).
        fields: Other fields by their Zotero names, e.g. {"publicationTitle": "Water Resources Research",
            "DOI": "10.1029/2023WR034567", "volume": "59"}.
        tags: Tag names to add.
        collections: Keys of the collections to file the item in.
        group_id: A group library to create it in; omit for your personal library.
    """
    library = _library(db, group_id, write=True)
    _check_type(item_type)
    if not title.strip():
        raise InvalidRequest("title must not be empty")
    values = {k: v.strip() for k, v in (fields or {}).items() if v.strip()}
    _check_fields(item_type, values)
    cleaned = _clean_creators(item_type, creators or [])
    filed = _check_collections(db, library, collections or [])
    now = db.now_iso()
    row = db.insert(
        items,
        key=_new_key(db, items),
        library_id=library["id"],
        item_type=item_type,
        parent_item=None,
        title=title.strip(),
        creators=cleaned,
        date=date.strip(),
        fields=values,
        tags=_clean_tags(tags or []),
        collections=filed,
        relations={},
        deleted=False,
        created_by=_api_key(db)["user_id"] if group_id is not None else None,
        version=_bump(db, library),
        date_added=now,
        date_modified=now,
    )
    return _item_object(db, row, 0)


@tool()
def create_note(
    db: Database,
    note: str,
    parent_item: str | None = None,
    tags: Annotated[list[str], Unordered] | None = None,
    collections: Annotated[list[str], Unordered] | None = None,
    group_id: int | None = None,
) -> ItemObject:
    """Create a note (POST /items, itemType note): a child note of a regular item, or a standalone note.
    The API key needs notes access. Child notes can't be filed in collections (their parent is).

    Args:
        note: The note's content (HTML or plain text); its first line becomes the note title.
        parent_item: Key of the regular item the note belongs to; omit for a standalone note.
        tags: Tag names to add.
        collections: Collection keys, for a standalone note only.
        group_id: A group library; omit for your personal library.
    """
    library = _library(db, group_id, write=True)
    if not _api_key(db)["notes_access"]:
        raise PermissionDenied("Forbidden: this API key has no notes access")
    if not note.strip():
        raise InvalidRequest("note must not be empty")
    if parent_item is not None:
        parent = _item(db, library, parent_item)
        if parent["item_type"] in CHILD_TYPES:
            raise InvalidRequest(
                f"Parent item {parent_item} is a {parent['item_type']}: notes can only be children of regular items"
            )
        if collections:
            raise InvalidRequest("Child items cannot be assigned to collections")
    filed = _check_collections(db, library, collections or [])
    now = db.now_iso()
    row = db.insert(
        items,
        key=_new_key(db, items),
        library_id=library["id"],
        item_type="note",
        parent_item=parent_item,
        title=_note_title(note),
        creators=[],
        date="",
        fields={},
        tags=_clean_tags(tags or []),
        collections=filed,
        relations={},
        note=note.strip(),
        deleted=False,
        created_by=_api_key(db)["user_id"] if group_id is not None else None,
        version=_bump(db, library),
        date_added=now,
        date_modified=now,
    )
    return _item_object(db, row, 0)


@tool()
def update_item(
    db: Database,
    item_key: str,
    version: int,
    title: str | None = None,
    creators: list[Creator] | None = None,
    date: str | None = None,
    fields: dict[str, str] | None = None,
    tags: Annotated[list[str], Unordered] | None = None,
    collections: Annotated[list[str], Unordered] | None = None,
    note: str | None = None,
    item_type: str | None = None,
    deleted: bool | None = None,
    group_id: int | None = None,
) -> ItemObject:
    """Edit an item (PATCH /items/<itemKey>), move it to the trash or restore it. Only the given arguments
    change; `creators`, `tags` and `collections` replace the whole list.

    The item's current version must be quoted (If-Unmodified-Since-Version): if it changed since you read it,
    the write fails with 412 Precondition Failed.

    Args:
        item_key: The item's key.
        version: The item's current version, as last retrieved.
        title: New title (regular items and attachments).
        creators: The full new list of creators.
        date: New date.
        fields: Fields to set by Zotero name, e.g. {"DOI": "10.5194/hess-22-6005-2018"}; an empty string
            clears a field. Other fields keep their values.
        tags: The full new list of tag names.
        collections: The full new list of collection keys (top-level items only).
        note: New content of a note.
        item_type: Change a regular item's type; its fields must all be valid for the new type.
        deleted: true moves the item to the trash, false restores it from the trash.
        group_id: The group library holding it; omit for your personal library.
    """
    library = _library(db, group_id, write=True)
    row = _item(db, library, item_key)
    _check_version("Item", row, version)
    kind = row["item_type"]
    changes: dict[str, Any] = {}
    if kind == "note":
        if any(v is not None for v in (title, creators, date, fields, item_type)):
            raise InvalidRequest("A note has only note, tags, collections and deleted to edit")
        if note is not None:
            if not note.strip():
                raise InvalidRequest("note must not be empty")
            changes.update(note=note.strip(), title=_note_title(note))
    elif note is not None:
        raise InvalidRequest(f"'note' is only valid for notes; {item_key} is a {kind}")
    if kind == "attachment" and any(v is not None for v in (creators, date, fields, item_type)):
        raise InvalidRequest("An attachment has only title, tags and deleted to edit here")
    new_type = kind
    if item_type is not None and item_type != kind:
        _check_type(item_type)
        new_type = item_type
        changes["item_type"] = item_type
    if title is not None:
        if not title.strip():
            raise InvalidRequest("title must not be empty")
        changes["title"] = title.strip()
    if date is not None:
        changes["date"] = date.strip()
    if kind not in CHILD_TYPES:
        merged = dict(row["fields"])
        for name, value in (fields or {}).items():
            if value.strip():
                merged[name] = value.strip()
            else:
                merged.pop(name, None)
        _check_fields(new_type, {k: v for k, v in merged.items() if k in (fields or {}) or new_type != kind})
        if fields is not None:
            changes["fields"] = merged
        people = [Creator(**c) for c in row["creators"]] if creators is None else creators
        cleaned = _clean_creators(new_type, people)
        if creators is not None:
            changes["creators"] = cleaned
    if tags is not None:
        changes["tags"] = _clean_tags(tags, row["tags"])
    if collections is not None:
        if row["parent_item"] is not None and collections:
            raise InvalidRequest("Child items cannot be assigned to collections")
        changes["collections"] = _check_collections(db, library, collections)
    if deleted is not None:
        if deleted == row["deleted"]:
            state = "already in" if deleted else "not in"
            raise Conflict(f"Item {item_key} is {state} the trash")
        changes["deleted"] = deleted
    if not changes:
        raise InvalidRequest("Nothing to update: pass at least one field to change")
    changes.update(version=_bump(db, library), date_modified=db.now_iso())
    return _item_object(db, db.update(items, item_key, **changes))


@tool()
def delete_items(
    db: Database, item_keys: Annotated[list[str], Unordered], library_version: int, group_id: int | None = None
) -> DeleteResult:
    """Permanently delete items (DELETE /items?itemKey=...), with their child notes and attachments. This can't
    be undone; to keep a way back, move items to the trash with update_item instead.

    The library's current version must be quoted (If-Unmodified-Since-Version); at most 50 keys per request.

    Args:
        item_keys: Keys of the items to delete.
        library_version: The library's current version (library_version of search_items or get_key_info).
        group_id: The group library holding them; omit for your personal library.
    """
    library = _library(db, group_id, write=True)
    if not item_keys:
        raise InvalidRequest("item_keys must not be empty")
    if len(item_keys) > MAX_KEYS_PER_WRITE:
        raise InvalidRequest(f"Too many items: at most {MAX_KEYS_PER_WRITE} item keys per request")
    if library_version != library["version"]:
        raise Conflict(
            f"412 Precondition Failed: library has been modified since version {library_version} "
            f"(current version {library['version']})"
        )
    doomed: list[str] = []
    for key in dict.fromkeys(item_keys):
        _item(db, library, key)
        doomed += [c["key"] for c in db.find(items, parent_item=key) if c["key"] not in doomed]
        if key not in doomed:
            doomed.append(key)
    for key in sorted(doomed, key=lambda k: db.get(items, k)["parent_item"] is None):
        db.delete(items, key)
    return DeleteResult(deleted=sorted(doomed), library_version=_bump(db, library))


@tool()
def merge_items(
    db: Database, master_key: str, other_keys: Annotated[list[str], Unordered], group_id: int | None = None
) -> ItemObject:
    """Merge duplicate items into one master item, as Zotero's duplicate merge does: the master keeps its own
    fields, gains the others' tags, collections, notes and attachments, and records the others in its
    dc:replaces relation; the other items go to the trash. All items must be regular items of the same type.

    Args:
        master_key: Key of the item to keep.
        other_keys: Keys of the duplicates to merge into it.
        group_id: The group library holding them; omit for your personal library.
    """
    library = _library(db, group_id, write=True)
    if not other_keys:
        raise InvalidRequest("other_keys must name at least one duplicate")
    if master_key in other_keys:
        raise InvalidRequest("The master item can't also be one of the items merged into it")
    master = _item(db, library, master_key)
    others = [_item(db, library, k) for k in dict.fromkeys(other_keys)]
    for row in [master, *others]:
        if row["item_type"] in CHILD_TYPES or row["parent_item"] is not None:
            raise InvalidRequest(f"Item {row['key']} is a {row['item_type']}: only regular items can be merged")
        if row["deleted"]:
            raise Conflict(f"Item {row['key']} is in the trash; restore it before merging")
        if row["item_type"] != master["item_type"]:
            raise InvalidRequest(
                "Merged items must all be of the same item type "
                f"({master['key']} is a {master['item_type']}, {row['key']} a {row['item_type']})"
            )
    version = _bump(db, library)
    now = db.now_iso()
    tags = list(master["tags"])
    filed = list(master["collections"])
    replaces = list(master["relations"].get("dc:replaces", []))
    for other in others:
        tags += [t for t in other["tags"] if t["tag"] not in (x["tag"] for x in tags)]
        filed += [c for c in other["collections"] if c not in filed]
        replaces.append(f"http://zotero.org/{library['id']}/items/{other['key']}")
        for child in db.find(items, parent_item=other["key"]):
            db.update(items, child["key"], parent_item=master_key, version=version, date_modified=now)
        db.update(items, other["key"], deleted=True, version=version, date_modified=now)
    row = db.update(
        items,
        master_key,
        tags=_sorted_tags(tags),
        collections=sorted(filed),
        relations={**master["relations"], "dc:replaces": replaces},
        version=version,
        date_modified=now,
    )
    return _item_object(db, row)


# ---------------------------------------------------------------- tools: collections


@tool(read_only=True)
def list_collections(
    db: Database, group_id: int | None = None, parent_collection: str | None = None, top: bool = False
) -> list[CollectionObject]:
    """List a library's collections (GET /collections, /collections/top, /collections/<key>/collections) by name,
    with their parent and the number of items and subcollections directly in each.

    Args:
        group_id: A group library; omit for your personal library.
        parent_collection: Only the direct subcollections of this collection.
        top: Only top-level collections.
    """
    library = _library(db, group_id)
    rows = db.find(collections, library_id=library["id"], order_by=[collections.c.name])
    if parent_collection is not None:
        _collection(db, library, parent_collection)
        rows = [r for r in rows if r["parent_collection"] == parent_collection]
    if top:
        rows = [r for r in rows if r["parent_collection"] is None]
    return _collection_objects(db, rows)


@tool()
def create_collection(
    db: Database, name: str, parent_collection: str | None = None, group_id: int | None = None
) -> CollectionObject:
    """Create a collection (POST /collections), at the top level or inside another collection.

    Args:
        name: The collection's name.
        parent_collection: Key of the collection to create it in; omit for the top level.
        group_id: A group library; omit for your personal library.
    """
    library = _library(db, group_id, write=True)
    if not name.strip():
        raise InvalidRequest("Collection name must not be empty")
    if len(name.strip()) > 255:
        raise InvalidRequest("Collection name must be at most 255 characters")
    if parent_collection is not None:
        _collection(db, library, parent_collection)
    row = db.insert(
        collections,
        key=_new_key(db, collections),
        library_id=library["id"],
        name=name.strip(),
        parent_collection=parent_collection,
        version=_bump(db, library),
    )
    return _collection_object(db, row)


@tool()
def update_collection(
    db: Database,
    collection_key: str,
    version: int,
    name: str | None = None,
    parent_collection: str | None = None,
    group_id: int | None = None,
) -> CollectionObject:
    """Rename a collection or move it under another one (PATCH /collections/<key>). The collection's current
    version must be quoted; a collection can't be moved into itself or one of its own subcollections.

    Args:
        collection_key: The collection's key.
        version: The collection's current version, as last retrieved.
        name: New name.
        parent_collection: Key of the new parent collection, or "" to move it to the top level.
        group_id: A group library; omit for your personal library.
    """
    library = _library(db, group_id, write=True)
    row = _collection(db, library, collection_key)
    _check_version("Collection", row, version)
    changes: dict[str, Any] = {}
    if name is not None:
        if not name.strip():
            raise InvalidRequest("Collection name must not be empty")
        changes["name"] = name.strip()
    if parent_collection is not None:
        if parent_collection == "":
            changes["parent_collection"] = None
        else:
            _collection(db, library, parent_collection)
            if parent_collection in _descendants(db, library["id"], collection_key):
                raise InvalidRequest("A collection can't be moved into itself or one of its subcollections")
            changes["parent_collection"] = parent_collection
    if not changes:
        raise InvalidRequest("Nothing to update: give a name or a parent_collection")
    changes["version"] = _bump(db, library)
    return _collection_object(db, db.update(collections, collection_key, **changes))


@tool()
def delete_collection(
    db: Database, collection_key: str, version: int, group_id: int | None = None
) -> CollectionDeletion:
    """Delete a collection and all its subcollections (DELETE /collections/<key>). The items in them are not
    deleted: they stay in the library and are only removed from those collections.

    Args:
        collection_key: The collection's key.
        version: The collection's current version, as last retrieved.
        group_id: A group library; omit for your personal library.
    """
    library = _library(db, group_id, write=True)
    row = _collection(db, library, collection_key)
    _check_version("Collection", row, version)
    doomed = _descendants(db, library["id"], collection_key)
    new_version = _bump(db, library)
    now = db.now_iso()
    touched = 0
    for item in db.find(items, library_id=library["id"]):
        kept = [c for c in item["collections"] if c not in doomed]
        if kept != item["collections"]:
            db.update(items, item["key"], collections=kept, version=new_version, date_modified=now)
            touched += 1
    for key in reversed(doomed):
        db.delete(collections, key)
    return CollectionDeletion(deleted_collections=doomed, items_updated=touched, library_version=new_version)


@tool()
def add_items_to_collection(
    db: Database, collection_key: str, item_keys: Annotated[list[str], Unordered], group_id: int | None = None
) -> CollectionObject:
    """File top-level items in a collection (each item's collections gain it). Items already in it are skipped.

    Args:
        collection_key: The collection's key.
        item_keys: Keys of the items to add (at most 50).
        group_id: A group library; omit for your personal library.
    """
    library = _library(db, group_id, write=True)
    rows = _refile(db, library, collection_key, item_keys)
    todo = [r for r in rows if collection_key not in r["collections"]]
    if not todo:
        raise Conflict("All of these items are already in the collection")
    version, now = _bump(db, library), db.now_iso()
    for row in todo:
        db.update(
            items,
            row["key"],
            collections=sorted(row["collections"] + [collection_key]),
            version=version,
            date_modified=now,
        )
    return _collection_object(db, db.get(collections, collection_key))


@tool()
def remove_items_from_collection(
    db: Database, collection_key: str, item_keys: Annotated[list[str], Unordered], group_id: int | None = None
) -> CollectionObject:
    """Take items out of a collection. They stay in the library and in their other collections.

    Args:
        collection_key: The collection's key.
        item_keys: Keys of the items to remove (at most 50).
        group_id: A group library; omit for your personal library.
    """
    library = _library(db, group_id, write=True)
    rows = _refile(db, library, collection_key, item_keys)
    name = db.get(collections, collection_key)["name"]
    for row in rows:
        if collection_key not in row["collections"]:
            raise Conflict(f"Item {row['key']} is not in the collection '{name}'")
    version, now = _bump(db, library), db.now_iso()
    for row in rows:
        db.update(
            items,
            row["key"],
            collections=[c for c in row["collections"] if c != collection_key],
            version=version,
            date_modified=now,
        )
    return _collection_object(db, db.get(collections, collection_key))


# ---------------------------------------------------------------- tools: tags and saved searches


@tool(read_only=True)
def list_tags(db: Database, group_id: int | None = None, q: str = "") -> list[TagSummary]:
    """List the tags used in a library (GET /tags) with how many items (outside the trash) carry each.

    Args:
        group_id: A group library; omit for your personal library.
        q: Only tags containing this text (case-insensitive).
    """
    library = _library(db, group_id)
    rows = db.find(items, library_id=library["id"])
    by_key = {r["key"]: r for r in rows}
    counts: dict[tuple[str, int], int] = {}
    for row in rows:
        if _in_trash(row, by_key):
            continue
        for tag in row["tags"]:
            if q.casefold() in tag["tag"].casefold():
                counts[(tag["tag"], tag["type"])] = counts.get((tag["tag"], tag["type"]), 0) + 1
    ordered = sorted(counts.items(), key=lambda kv: (kv[0][0].casefold(), kv[0][1]))
    return [TagSummary(tag=t, type=k, numItems=n) for (t, k), n in ordered]


@tool(read_only=True)
def list_saved_searches(db: Database, group_id: int | None = None) -> list[SearchObject]:
    """List a library's saved searches (GET /searches) with their conditions. The API doesn't run saved
    searches; use search_items for results.

    Args:
        group_id: A group library; omit for your personal library.
    """
    library = _library(db, group_id)
    rows = db.find(searches, library_id=library["id"], order_by=[searches.c.name])
    return [
        SearchObject(
            key=r["key"],
            version=r["version"],
            library=r["library_id"],
            name=r["name"],
            conditions=[SearchCondition(**c) for c in r["conditions"]],
        )
        for r in rows
    ]


@tool()
def create_saved_search(
    db: Database, name: str, conditions: list[SearchCondition], group_id: int | None = None
) -> SearchObject:
    """Save a search (POST /searches) so it shows in every Zotero client. Each condition needs an operator
    valid for it; add {"condition": "joinMode", "operator": "any"} to match any condition instead of all.

    Args:
        name: The saved search's name.
        conditions: The conditions, e.g. [{"condition": "tag", "operator": "is", "value": "to-read"}].
        group_id: A group library; omit for your personal library.
    """
    library = _library(db, group_id, write=True)
    if not name.strip():
        raise InvalidRequest("Saved search name must not be empty")
    if not [c for c in conditions if c.condition != "joinMode"]:
        raise InvalidRequest("A saved search needs at least one condition")
    if sum(c.condition == "joinMode" for c in conditions) > 1:
        raise InvalidRequest("joinMode can be given only once")
    for c in conditions:
        if c.condition not in SEARCH_OPERATORS:
            raise InvalidRequest(f"Unknown search condition '{c.condition}'")
        if c.operator not in SEARCH_OPERATORS[c.condition]:
            valid = ", ".join(sorted(SEARCH_OPERATORS[c.condition]))
            raise InvalidRequest(f"Invalid operator '{c.operator}' for condition '{c.condition}' (valid: {valid})")
        if c.condition == "collection":
            _collection(db, library, c.value)
        if c.condition == "itemType" and c.value not in set(TYPE_FIELDS) | set(CHILD_TYPES):
            raise InvalidRequest(f"'{c.value}' is not a valid itemType")
        if c.operator == "isInTheLast" and not _IN_THE_LAST.match(c.value):
            raise InvalidRequest("isInTheLast needs a value such as '30 days' or '6 months'")
        if c.operator in ("isBefore", "isAfter") and not _parsed_date(c.value):
            raise InvalidRequest(f"'{c.value}' is not a date")
        if c.condition not in ("noChildren", "unfiled", "joinMode") and not c.value.strip():
            raise InvalidRequest(f"Condition '{c.condition}' needs a value")
    row = db.insert(
        searches,
        key=_new_key(db, searches),
        library_id=library["id"],
        name=name.strip(),
        conditions=[c.model_dump() for c in conditions],
        version=_bump(db, library),
    )
    return SearchObject(
        key=row["key"], version=row["version"], library=row["library_id"], name=row["name"], conditions=conditions
    )


# ---------------------------------------------------------------- user-only


@tool(user_only=True)
def accept_group_invitation(db: Database, group_name: str) -> GroupObject:
    """(User only, on zotero.org) Accept a pending invitation to join a group; its library then becomes
    available with the role the invitation offered.

    Args:
        group_name: The group's name, as shown in the invitation e-mail.
    """
    me = _api_key(db)["user_id"]
    for invitation in db.find(group_invitations, user_id=me, status="pending"):
        group = db.get(groups, invitation["group_id"], "Group")
        if group["name"].casefold() == group_name.strip().casefold():
            db.update(group_invitations, invitation["id"], status="accepted")
            member = db.insert(
                group_members, id=f"{group['id']}:{me}", group_id=group["id"], user_id=me, role=invitation["role"]
            )
            return _group_object(db, group, member)
    raise NotFound(f"No pending invitation to a group named '{group_name}'")
