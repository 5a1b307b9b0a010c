"""Zotero Web API v3 tools: the API key, group libraries, items with child notes, collections, tags, saved searches,
the trash, permanent deletes and duplicate merging. Every tool acts on the personal library unless given a group."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import PageSize

from . import rules
from .access import api_key, can_edit, check_notes_access, created_by, library_for
from .objects import (
    CollectionDeletion,
    CollectionKeys,
    CollectionName,
    CollectionObject,
    Creator,
    DeleteResult,
    DuplicateKeys,
    GroupAccess,
    GroupObject,
    ItemKeys,
    ItemList,
    ItemObject,
    ItemTypeFilter,
    KeyInfo,
    LibraryAccess,
    NewItemType,
    NoteText,
    RegularItemType,
    SearchCondition,
    SearchName,
    SearchObject,
    SortField,
    TagNames,
    TagSummary,
    Title,
    Version,
    collection_object,
    collection_objects,
    creator_summary,
    group_object,
    item_object,
    item_objects,
    parsed_date,
    search_object,
)
from .schema import collections, group_invitations, group_members, groups, items, libraries, searches, users

SORT_KEYS = {
    "dateModified": lambda r: r["date_modified"],
    "dateAdded": lambda r: r["date_added"],
    "title": lambda r: r["title"].casefold(),
    "creator": lambda r: creator_summary(r["creators"]).casefold(),
    "date": lambda r: parsed_date(r["date"]),
    "itemType": lambda r: r["item_type"],
}


# ---------------------------------------------------------------- key and groups


@tool(read_only=True)
def get_key_info(db: Database) -> KeyInfo:
    """Show the API key in use (GET /keys/current): the user it belongs to, what it may read and write in the
    personal library and in group libraries, and the personal library's current version."""
    key = api_key(db)
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
    found = []
    for member in db.find(group_members, user_id=api_key(db)["user_id"]):
        group = db.get(groups, member["group_id"], "Group")
        found.append(group_object(db, group, member, can_edit(group, member)))
    return sorted(found, key=lambda g: g.name.casefold())


# ---------------------------------------------------------------- items


@tool(read_only=True)
def search_items(
    db: Database,
    group_id: int | None = None,
    q: str = "",
    qmode: Literal["titleCreatorYear", "everything"] = "titleCreatorYear",
    item_type: ItemTypeFilter | None = None,
    tag: str | None = None,
    collection_key: str | None = None,
    top: bool = True,
    trash: bool = False,
    sort: SortField = "dateModified",
    direction: Literal["asc", "desc"] | None = None,
    limit: PageSize = 25,
    start: Annotated[int, Field(ge=0)] = 0,
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
    library = library_for(db, group_id)
    if collection_key is not None:
        rules.find_collection(db, library, collection_key)
    rows, parents = rules.library_items(db, library, top, item_type, trash, filed=collection_key is not None)
    words = q.casefold().split()
    kept = [
        row
        for row in rows
        if (trash or not rules.in_trash(row, parents))
        and rules.matches(row, words, qmode == "everything", tag, collection_key)
    ]
    kept.sort(key=lambda r: r["key"])
    kept.sort(
        key=SORT_KEYS[sort], reverse=direction == "desc" if direction else sort in ("dateModified", "dateAdded", "date")
    )
    page = paginate(kept, limit, str(start))
    return ItemList(
        items=item_objects(db, page.results),
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
    return item_object(db, rules.find_item(db, library_for(db, group_id), item_key))


@tool(read_only=True)
def list_item_children(db: Database, item_key: str, group_id: int | None = None) -> list[ItemObject]:
    """List an item's child notes and attachments (GET /items/<itemKey>/children), oldest first.

    Args:
        item_key: The parent item's key.
        group_id: The group library holding it; omit for your personal library.
    """
    rules.find_item(db, library_for(db, group_id), item_key)
    return item_objects(db, db.find(items, parent_item=item_key, order_by=[items.c.date_added]))


@tool()
def create_item(
    db: Database,
    item_type: NewItemType,
    title: Title,
    creators: list[Creator] | None = None,
    date: str = "",
    fields: dict[str, str] | None = None,
    tags: TagNames | None = None,
    collections: CollectionKeys | None = None,
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
    library = library_for(db, group_id, write=True)
    values = rules.clean_fields(fields)
    rules.check_fields(item_type, values)
    cleaned = rules.clean_creators(item_type, creators or [])
    filed = rules.check_collections(db, library, collections or [])
    now = db.now_iso()
    row = db.insert(
        items,
        key=rules.new_key(db, items),
        library_id=library["id"],
        item_type=item_type,
        parent_item=None,
        title=title.strip(),
        creators=cleaned,
        date=date.strip(),
        fields=values,
        tags=rules.clean_tags(tags or []),
        collections=filed,
        relations={},
        deleted=False,
        created_by=created_by(db, group_id),
        version=rules.next_version(db, library),
        date_added=now,
        date_modified=now,
    )
    return item_object(db, row)


@tool()
def create_note(
    db: Database,
    note: NoteText,
    parent_item: str | None = None,
    tags: TagNames | None = None,
    collections: CollectionKeys | None = None,
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
    library = library_for(db, group_id, write=True)
    check_notes_access(db)
    if parent_item is not None:
        parent = rules.find_item(db, library, parent_item)
        if parent["item_type"] in rules.CHILD_TYPES:
            raise InvalidRequest(
                f"Parent item {parent_item} is a {parent['item_type']}: notes can only be children of regular items"
            )
        if collections:
            raise InvalidRequest("Child items cannot be assigned to collections")
    filed = rules.check_collections(db, library, collections or [])
    now = db.now_iso()
    row = db.insert(
        items,
        key=rules.new_key(db, items),
        library_id=library["id"],
        item_type="note",
        parent_item=parent_item,
        title=rules.note_title(note),
        creators=[],
        date="",
        fields={},
        tags=rules.clean_tags(tags or []),
        collections=filed,
        relations={},
        note=note.strip(),
        deleted=False,
        created_by=created_by(db, group_id),
        version=rules.next_version(db, library),
        date_added=now,
        date_modified=now,
    )
    return item_object(db, row)


@tool()
def update_item(
    db: Database,
    item_key: str,
    version: Version,
    title: Title | None = None,
    creators: list[Creator] | None = None,
    date: str | None = None,
    fields: dict[str, str] | None = None,
    tags: TagNames | None = None,
    collections: CollectionKeys | None = None,
    note: NoteText | None = None,
    item_type: RegularItemType | None = None,
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
    library = library_for(db, group_id, write=True)
    row = rules.find_item(db, library, item_key)
    rules.check_version("Item", row, version)
    edit = given(
        title=title,
        creators=creators,
        date=date,
        fields=fields,
        tags=tags,
        collections=collections,
        note=note,
        item_type=item_type,
        deleted=deleted,
    )
    changes = rules.item_changes(db, library, row, edit)
    changes.update(version=rules.next_version(db, library), date_modified=db.now_iso())
    return item_object(db, db.update(items, item_key, **changes))


@tool()
def delete_items(
    db: Database, item_keys: ItemKeys, library_version: Version, group_id: int | None = None
) -> DeleteResult:
    """Permanently delete items (DELETE /items?itemKey=...), with their child notes and attachments. This can't
    be undone; to keep a way back, move items to the trash with update_item instead.

    The library's current version must be quoted (If-Unmodified-Since-Version); at most 50 keys per request.

    Args:
        item_keys: Keys of the items to delete.
        library_version: The library's current version (library_version of search_items or get_key_info).
        group_id: The group library holding them; omit for your personal library.
    """
    library = library_for(db, group_id, write=True)
    rules.check_library_version(library, library_version)
    deleted = rules.delete_for_good(db, library, item_keys)
    return DeleteResult(deleted=deleted, library_version=rules.next_version(db, library))


@tool()
def merge_items(db: Database, master_key: str, other_keys: DuplicateKeys, group_id: int | None = None) -> ItemObject:
    """Merge duplicate items into one master item, as Zotero's duplicate merge does: the master keeps its own
    fields, gains the others' tags, collections, notes and attachments, and records the others in its
    dc:replaces relation; the other items go to the trash. All items must be regular items of the same type.

    Args:
        master_key: Key of the item to keep.
        other_keys: Keys of the duplicates to merge into it.
        group_id: The group library holding them; omit for your personal library.
    """
    library = library_for(db, group_id, write=True)
    master, *others = rules.mergeable(db, library, master_key, other_keys)
    return item_object(db, rules.merge(db, library, master, others))


# ---------------------------------------------------------------- collections


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
    library = library_for(db, group_id)
    if parent_collection is not None:
        rules.find_collection(db, library, parent_collection)
    rows = db.find(collections, library_id=library["id"], order_by=[collections.c.name])
    if parent_collection is not None:
        rows = [r for r in rows if r["parent_collection"] == parent_collection]
    if top:
        rows = [r for r in rows if r["parent_collection"] is None]
    return collection_objects(db, rows)


@tool()
def create_collection(
    db: Database, name: CollectionName, parent_collection: str | None = None, group_id: int | None = None
) -> CollectionObject:
    """Create a collection (POST /collections), at the top level or inside another collection.

    Args:
        name: The collection's name (at most 255 characters).
        parent_collection: Key of the collection to create it in; omit for the top level.
        group_id: A group library; omit for your personal library.
    """
    library = library_for(db, group_id, write=True)
    if parent_collection is not None:
        rules.find_collection(db, library, parent_collection)
    row = db.insert(
        collections,
        key=rules.new_key(db, collections),
        library_id=library["id"],
        name=name.strip(),
        parent_collection=parent_collection,
        version=rules.next_version(db, library),
    )
    return collection_object(db, row)


@tool()
def update_collection(
    db: Database,
    collection_key: str,
    version: Version,
    name: CollectionName | None = None,
    parent_collection: str | None = None,
    group_id: int | None = None,
) -> CollectionObject:
    """Rename a collection or move it under another one (PATCH /collections/<key>). The collection's current
    version must be quoted; a collection can't be moved into itself or one of its own subcollections.

    Args:
        collection_key: The collection's key.
        version: The collection's current version, as last retrieved.
        name: New name (at most 255 characters).
        parent_collection: Key of the new parent collection, or "" to move it to the top level.
        group_id: A group library; omit for your personal library.
    """
    library = library_for(db, group_id, write=True)
    row = rules.find_collection(db, library, collection_key)
    rules.check_version("Collection", row, version)
    changes = rules.collection_changes(db, library, collection_key, name, parent_collection)
    changes["version"] = rules.next_version(db, library)
    return collection_object(db, db.update(collections, collection_key, **changes))


@tool()
def delete_collection(
    db: Database, collection_key: str, version: Version, group_id: int | None = None
) -> CollectionDeletion:
    """Delete a collection and all its subcollections (DELETE /collections/<key>). The items in them are not
    deleted: they stay in the library and are only removed from those collections.

    Args:
        collection_key: The collection's key.
        version: The collection's current version, as last retrieved.
        group_id: A group library; omit for your personal library.
    """
    library = library_for(db, group_id, write=True)
    row = rules.find_collection(db, library, collection_key)
    rules.check_version("Collection", row, version)
    doomed = rules.descendants(db, library["id"], collection_key)
    new_version = rules.next_version(db, library)
    touched = rules.unfile_collections(db, library, doomed, new_version)
    for key in reversed(doomed):
        db.delete(collections, key)
    return CollectionDeletion(deleted_collections=doomed, items_updated=touched, library_version=new_version)


@tool()
def add_items_to_collection(
    db: Database, collection_key: str, item_keys: ItemKeys, group_id: int | None = None
) -> CollectionObject:
    """File top-level items in a collection (each item's collections gain it). Items already in it are skipped.

    Args:
        collection_key: The collection's key.
        item_keys: Keys of the items to add (at most 50).
        group_id: A group library; omit for your personal library.
    """
    library = library_for(db, group_id, write=True)
    rows = rules.refile_rows(db, library, collection_key, item_keys)
    todo = [r for r in rows if collection_key not in r["collections"]]
    if not todo:
        raise Conflict("All of these items are already in the collection")
    version, now = rules.next_version(db, library), db.now_iso()
    for row in todo:
        filed = sorted(row["collections"] + [collection_key])
        db.update(items, row["key"], collections=filed, version=version, date_modified=now)
    return collection_object(db, db.get(collections, collection_key))


@tool()
def remove_items_from_collection(
    db: Database, collection_key: str, item_keys: ItemKeys, group_id: int | None = None
) -> CollectionObject:
    """Take items out of a collection. They stay in the library and in their other collections.

    Args:
        collection_key: The collection's key.
        item_keys: Keys of the items to remove (at most 50).
        group_id: A group library; omit for your personal library.
    """
    library = library_for(db, group_id, write=True)
    rows = rules.refile_rows(db, library, collection_key, item_keys)
    name = db.get(collections, collection_key)["name"]
    for row in rows:
        if collection_key not in row["collections"]:
            raise Conflict(f"Item {row['key']} is not in the collection '{name}'")
    version, now = rules.next_version(db, library), db.now_iso()
    for row in rows:
        kept = [c for c in row["collections"] if c != collection_key]
        db.update(items, row["key"], collections=kept, version=version, date_modified=now)
    return collection_object(db, db.get(collections, collection_key))


# ---------------------------------------------------------------- tags and saved searches


@tool(read_only=True)
def list_tags(db: Database, group_id: int | None = None, q: str = "") -> list[TagSummary]:
    """List the tags used in a library (GET /tags) with how many items (outside the trash) carry each.

    Args:
        group_id: A group library; omit for your personal library.
        q: Only tags containing this text (case-insensitive).
    """
    library = library_for(db, group_id)
    rows, parents = rules.library_items(db, library, top=False, tagged=True)
    counts: dict[tuple[str, int], int] = {}
    for row in rows:
        if rules.in_trash(row, parents):
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
    library = library_for(db, group_id)
    return [search_object(r) for r in db.find(searches, library_id=library["id"], order_by=[searches.c.name])]


@tool()
def create_saved_search(
    db: Database,
    name: SearchName,
    conditions: Annotated[list[SearchCondition], Field(min_length=1)],
    group_id: int | None = None,
) -> SearchObject:
    """Save a search (POST /searches) so it shows in every Zotero client. Each condition needs an operator
    valid for it; add {"condition": "joinMode", "operator": "any"} to match any condition instead of all.

    Args:
        name: The saved search's name.
        conditions: The conditions, e.g. [{"condition": "tag", "operator": "is", "value": "to-read"}].
        group_id: A group library; omit for your personal library.
    """
    library = library_for(db, group_id, write=True)
    rules.check_conditions(db, library, conditions)
    row = db.insert(
        searches,
        key=rules.new_key(db, searches),
        library_id=library["id"],
        name=name.strip(),
        conditions=[c.model_dump() for c in conditions],
        version=rules.next_version(db, library),
    )
    return search_object(row)


# ---------------------------------------------------------------- user-only


@tool(user_only=True)
def accept_group_invitation(db: Database, group_name: str) -> GroupObject:
    """(User only, on zotero.org) Accept a pending invitation to join a group; its library then becomes
    available with the role the invitation offered.

    Args:
        group_name: The group's name, as shown in the invitation e-mail.
    """
    me = api_key(db)["user_id"]
    for invitation in db.find(group_invitations, user_id=me, status="pending"):
        group = db.get(groups, invitation["group_id"], "Group")
        if group["name"].casefold() == group_name.strip().casefold():
            db.update(group_invitations, invitation["id"], status="accepted")
            member = db.insert(
                group_members, id=f"{group['id']}:{me}", group_id=group["id"], user_id=me, role=invitation["role"]
            )
            return group_object(db, group, member, can_edit(group, member))
    raise NotFound(f"No pending invitation to a group named '{group_name}'")
