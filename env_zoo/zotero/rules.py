"""Zotero's library rules that the tools share: object versions and keys, which fields and creator types each item
type takes, tags, collections and their trees, the trash, quick search, saved-search conditions, merges and
permanent deletes."""

from __future__ import annotations

import re
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .objects import Creator, SearchCondition, parsed_date
from .schema import collections, items, libraries

KEY_ALPHABET = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"
CHILD_TYPES = ("note", "attachment")
COMMON_FIELDS = frozenset(
    {
        "abstractNote",
        "url",
        "accessDate",
        "language",
        "shortTitle",
        "rights",
        "extra",
        "archive",
        "archiveLocation",
        "libraryCatalog",
        "callNumber",
    }
)
# Fields besides title and date that each item type accepts (a subset of Zotero's schema).
TYPE_FIELDS: dict[str, frozenset[str]] = {
    "journalArticle": frozenset(
        {"publicationTitle", "volume", "issue", "pages", "series", "seriesTitle", "journalAbbreviation", "DOI", "ISSN"}
    ),
    "magazineArticle": frozenset({"publicationTitle", "volume", "issue", "pages", "ISSN"}),
    "book": frozenset(
        {
            "series",
            "seriesNumber",
            "volume",
            "numberOfVolumes",
            "edition",
            "place",
            "publisher",
            "numPages",
            "ISBN",
            "DOI",
        }
    ),
    "bookSection": frozenset(
        {"bookTitle", "series", "seriesNumber", "volume", "edition", "place", "publisher", "pages", "ISBN", "DOI"}
    ),
    "conferencePaper": frozenset(
        {"proceedingsTitle", "conferenceName", "place", "publisher", "volume", "pages", "series", "DOI", "ISBN"}
    ),
    "preprint": frozenset({"genre", "repository", "archiveID", "place", "series", "seriesNumber", "DOI"}),
    "thesis": frozenset({"thesisType", "university", "place", "numPages", "DOI"}),
    "report": frozenset({"reportNumber", "reportType", "seriesTitle", "place", "institution", "pages", "DOI"}),
    "dataset": frozenset({"identifier", "type", "versionNumber", "repository", "repositoryLocation", "format", "DOI"}),
    "webpage": frozenset({"websiteTitle", "websiteType"}),
}
CREATOR_TYPES: dict[str, frozenset[str]] = {
    "journalArticle": frozenset({"author", "contributor", "editor", "translator", "reviewedAuthor"}),
    "magazineArticle": frozenset({"author", "contributor", "translator", "reviewedAuthor"}),
    "book": frozenset({"author", "contributor", "editor", "seriesEditor", "translator"}),
    "bookSection": frozenset({"author", "bookAuthor", "contributor", "editor", "seriesEditor", "translator"}),
    "conferencePaper": frozenset({"author", "contributor", "editor", "seriesEditor", "translator"}),
    "preprint": frozenset({"author", "contributor", "editor", "reviewedAuthor", "translator"}),
    "thesis": frozenset({"author", "contributor"}),
    "report": frozenset({"author", "contributor", "seriesEditor", "translator"}),
    "dataset": frozenset({"author", "contributor"}),
    "webpage": frozenset({"author", "contributor", "translator"}),
}
OWN_ARGUMENTS = ("title", "date", "creators", "tags", "collections", "itemType", "note", "parentItem", "deleted")
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
IN_THE_LAST = re.compile(r"^\d+ (days|weeks|months|years)$")


# ---------------------------------------------------------------- versions and keys


def next_version(db: Database, library: dict[str, Any]) -> int:
    """Start a write: the library moves to its next version, which every object written now takes."""
    version = library["version"] + 1
    db.update(libraries, library["id"], version=version)
    return version


def check_version(kind: str, row: dict[str, Any], version: int) -> None:
    """If-Unmodified-Since-Version: the caller must quote the object's current version."""
    if row["version"] != version:
        raise Conflict(
            f"412 Precondition Failed: {kind} {row['key']} has been modified since version {version} "
            f"(current version {row['version']}); retrieve it again before editing"
        )


def check_library_version(library: dict[str, Any], version: int) -> None:
    """Permanent deletes quote the library's version."""
    if version != library["version"]:
        raise Conflict(
            f"412 Precondition Failed: library has been modified since version {version} "
            f"(current version {library['version']})"
        )


def new_key(db: Database, table: Any) -> str:
    """A fresh 8-character object key in Zotero's alphabet, derived from a counter kept in the state."""
    base = len(KEY_ALPHABET)
    while True:
        number = (db.next_number(f"key:{table.name}") * 2654435761 + 97531) % base**8
        key = ""
        for _ in range(8):
            number, digit = divmod(number, base)
            key += KEY_ALPHABET[digit]
        if not db.find(table, key=key):
            return key


# ---------------------------------------------------------------- lookups


def find_item(db: Database, library: dict[str, Any], key: str) -> dict[str, Any]:
    return db.find_one(
        items, key=key, library_id=library["id"], not_found=f"Item {key} not found in library {library['name']}"
    )


def find_collection(db: Database, library: dict[str, Any], key: str) -> dict[str, Any]:
    return db.find_one(
        collections,
        key=key,
        library_id=library["id"],
        not_found=f"Collection {key} not found in library {library['name']}",
    )


def descendants(db: Database, library_id: str, key: str) -> list[str]:
    """Keys of a collection and all its subcollections."""
    rows = db.find(collections, library_id=library_id)
    found, frontier = [key], [key]
    while frontier:
        parent = frontier.pop()
        children = [r["key"] for r in rows if r["parent_collection"] == parent]
        found += children
        frontier += children
    return found


# ---------------------------------------------------------------- item fields, creators, tags, collections


def check_fields(item_type: str, values: dict[str, str]) -> None:
    allowed = COMMON_FIELDS | TYPE_FIELDS[item_type]
    for name in values:
        if name in OWN_ARGUMENTS:
            raise InvalidRequest(f"'{name}' has its own argument; don't pass it in fields")
        if name not in allowed:
            raise InvalidRequest(f"'{name}' is not a valid field for type '{item_type}'")


def clean_fields(fields: dict[str, str] | None) -> dict[str, str]:
    """Field values trimmed; empty ones dropped."""
    return {k: v.strip() for k, v in (fields or {}).items() if v.strip()}


def clean_creators(item_type: str, creators: list[Creator]) -> list[dict[str, Any]]:
    cleaned = []
    for creator in creators:
        if creator.creatorType not in CREATOR_TYPES[item_type]:
            raise InvalidRequest(f"'{creator.creatorType}' is not a valid creator type for item type '{item_type}'")
        name, last, first = (v.strip() if v else "" for v in (creator.name, creator.lastName, creator.firstName))
        if bool(name) == bool(last or first):
            raise InvalidRequest("Each creator needs either a name (single field) or a firstName/lastName, not both")
        if name:
            cleaned.append({"creatorType": creator.creatorType, "name": name})
        else:
            cleaned.append({"creatorType": creator.creatorType, "firstName": first, "lastName": last})
    return cleaned


def clean_tags(tags: list[str], existing: list[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """Tags trimmed and sorted by name (as Zotero lists them), duplicates dropped; a tag kept from before keeps its
    type. Their lengths are checked by the argument type."""
    kinds = {t["tag"]: t["type"] for t in existing}
    cleaned: list[dict[str, Any]] = []
    for raw in tags:
        text = raw.strip()
        if text not in (t["tag"] for t in cleaned):
            cleaned.append({"tag": text, "type": kinds.get(text, 0)})
    return sorted_tags(cleaned)


def sorted_tags(tags: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(tags, key=lambda t: (t["tag"].casefold(), t["tag"]))


def check_collections(db: Database, library: dict[str, Any], keys: list[str]) -> list[str]:
    for key in keys:
        find_collection(db, library, key)
    return sorted(set(keys))


def note_title(html: str) -> str:
    text = re.sub(r"<[^>]+>", "\n", html)
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first[:120]


def item_changes(db: Database, library: dict[str, Any], row: dict[str, Any], edit: dict[str, Any]) -> dict[str, Any]:
    """The columns an item edit changes, after the rules of its kind (note, attachment, regular item); `edit`
    holds the arguments that were given (not None)."""
    kind, key = row["item_type"], row["key"]
    changes: dict[str, Any] = {}
    if kind == "note":
        if edit.keys() & {"title", "creators", "date", "fields", "item_type"}:
            raise InvalidRequest("A note has only note, tags, collections and deleted to edit")
        if "note" in edit:
            changes.update(note=edit["note"].strip(), title=note_title(edit["note"]))
    elif "note" in edit:
        raise InvalidRequest(f"'note' is only valid for notes; {key} is a {kind}")
    if kind == "attachment" and edit.keys() & {"creators", "date", "fields", "item_type"}:
        raise InvalidRequest("An attachment has only title, tags and deleted to edit here")
    new_type = edit.get("item_type", kind)
    if new_type != kind:
        changes["item_type"] = new_type
    if "title" in edit:
        changes["title"] = edit["title"].strip()
    if "date" in edit:
        changes["date"] = edit["date"].strip()
    if kind not in CHILD_TYPES:
        given = edit.get("fields") or {}
        merged = dict(row["fields"])
        for name, value in given.items():
            if value.strip():
                merged[name] = value.strip()
            else:
                merged.pop(name, None)
        check_fields(new_type, {k: v for k, v in merged.items() if k in given or new_type != kind})
        if "fields" in edit:
            changes["fields"] = merged
        people = edit.get("creators", [Creator(**c) for c in row["creators"]])
        cleaned = clean_creators(new_type, people)
        if "creators" in edit:
            changes["creators"] = cleaned
    if "tags" in edit:
        changes["tags"] = clean_tags(edit["tags"], row["tags"])
    if "collections" in edit:
        if row["parent_item"] is not None and edit["collections"]:
            raise InvalidRequest("Child items cannot be assigned to collections")
        changes["collections"] = check_collections(db, library, edit["collections"])
    if "deleted" in edit:
        if edit["deleted"] == row["deleted"]:
            state = "already in" if edit["deleted"] else "not in"
            raise Conflict(f"Item {key} is {state} the trash")
        changes["deleted"] = edit["deleted"]
    if not changes:
        raise InvalidRequest("Nothing to update: pass at least one field to change")
    return changes


def collection_changes(
    db: Database, library: dict[str, Any], key: str, name: str | None, parent_collection: str | None
) -> dict[str, Any]:
    """A collection's new name and parent; "" as parent moves it to the top level, never into its own subtree."""
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = name.strip()
    if parent_collection == "":
        changes["parent_collection"] = None
    elif parent_collection is not None:
        find_collection(db, library, parent_collection)
        if parent_collection in descendants(db, library["id"], key):
            raise InvalidRequest("A collection can't be moved into itself or one of its subcollections")
        changes["parent_collection"] = parent_collection
    if not changes:
        raise InvalidRequest("Nothing to update: give a name or a parent_collection")
    return changes


def refile_rows(
    db: Database, library: dict[str, Any], collection_key: str, item_keys: list[str]
) -> list[dict[str, Any]]:
    """The top-level items about to join or leave a collection (the collection must exist)."""
    find_collection(db, library, collection_key)
    rows = [find_item(db, library, k) for k in dict.fromkeys(item_keys)]
    for row in rows:
        if row["parent_item"] is not None:
            raise InvalidRequest(
                f"Child items cannot be assigned to collections ({row['key']} is a child {row['item_type']})"
            )
    return rows


# ---------------------------------------------------------------- the trash and quick search


def in_trash(row: dict[str, Any], by_key: dict[str, dict[str, Any]]) -> bool:
    parent = by_key.get(row["parent_item"]) if row["parent_item"] else None
    return bool(row["deleted"] or (parent is not None and parent["deleted"]))


def haystack(row: dict[str, Any], everything: bool) -> str:
    parts = [row["title"], parsed_date(row["date"])[:4]]
    parts += [" ".join(filter(None, (c.get("firstName"), c.get("lastName"), c.get("name")))) for c in row["creators"]]
    if everything:
        parts += list(row["fields"].values()) + [re.sub(r"<[^>]+>", " ", row["note"] or "")]
        parts += [t["tag"] for t in row["tags"]]
    return " ".join(parts).casefold()


def library_items(
    db: Database,
    library: dict[str, Any],
    top: bool,
    item_type: str | None = None,
    trash: bool = False,
    filed: bool = False,
    tagged: bool = False,
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """A library's items narrowed in SQL (level, type, the item's own trash flag, only filed or tagged items if
    asked), with the parents in the trash by key: a child of a trashed parent counts as trashed too (`in_trash`)."""
    where, params = ["library_id = ?", "deleted = ?"], [library["id"], trash]
    if top:
        where.append("parent_item IS NULL")
    if item_type is not None:
        where.append("item_type != ?" if item_type.startswith("-") else "item_type = ?")
        params.append(item_type.lstrip("-"))
    if filed:
        where.append("collections != '[]'")
    if tagged:
        where.append("tags != '[]'")
    rows = db.select(items, " AND ".join(where), params)
    if top:
        return rows, {}
    parents = db.select(items, "library_id = ? AND parent_item IS NULL AND deleted", [library["id"]])
    return rows, {r["key"]: r for r in parents}


def matches(
    row: dict[str, Any], words: list[str], everything: bool, tag: str | None, collection_key: str | None
) -> bool:
    """Whether an item passes search_items' tag, collection and quick-search filters."""
    if tag is not None and tag.casefold() not in (t["tag"].casefold() for t in row["tags"]):
        return False
    if collection_key is not None and collection_key not in row["collections"]:
        return False
    if words:
        text = haystack(row, everything)
        return all(w in text for w in words)
    return True


# ---------------------------------------------------------------- saved searches


def check_conditions(db: Database, library: dict[str, Any], conditions: list[SearchCondition]) -> None:
    """Each condition's operator and value must suit it; joinMode at most once, and one real condition."""
    if not [c for c in conditions if c.condition != "joinMode"]:
        raise InvalidRequest("A saved search needs at least one condition besides joinMode")
    if sum(c.condition == "joinMode" for c in conditions) > 1:
        raise InvalidRequest("joinMode can be given only once")
    for c in conditions:
        if c.operator not in SEARCH_OPERATORS[c.condition]:
            valid = ", ".join(sorted(SEARCH_OPERATORS[c.condition]))
            raise InvalidRequest(f"Invalid operator '{c.operator}' for condition '{c.condition}' (valid: {valid})")
        if c.condition == "collection":
            find_collection(db, library, c.value)
        if c.condition == "itemType" and c.value not in set(TYPE_FIELDS) | set(CHILD_TYPES):
            raise InvalidRequest(f"'{c.value}' is not a valid itemType")
        if c.operator == "isInTheLast" and not IN_THE_LAST.match(c.value):
            raise InvalidRequest("isInTheLast needs a value such as '30 days' or '6 months'")
        if c.operator in ("isBefore", "isAfter") and not parsed_date(c.value):
            raise InvalidRequest(f"'{c.value}' is not a date")
        if c.condition not in ("noChildren", "unfiled", "joinMode") and not c.value.strip():
            raise InvalidRequest(f"Condition '{c.condition}' needs a value")


# ---------------------------------------------------------------- merges and permanent deletes


def mergeable(db: Database, library: dict[str, Any], master_key: str, other_keys: list[str]) -> list[dict[str, Any]]:
    """The master and the duplicates, after the merge rules: regular items of one type, none in the trash."""
    if master_key in other_keys:
        raise InvalidRequest("The master item can't also be one of the items merged into it")
    master = find_item(db, library, master_key)
    rows = [master] + [find_item(db, library, k) for k in dict.fromkeys(other_keys)]
    for row in rows:
        if row["item_type"] in CHILD_TYPES or row["parent_item"] is not None:
            raise InvalidRequest(f"Item {row['key']} is a {row['item_type']}: only regular items can be merged")
        if row["deleted"]:
            raise Conflict(f"Item {row['key']} is in the trash; restore it before merging")
        if row["item_type"] != master["item_type"]:
            raise InvalidRequest(
                "Merged items must all be of the same item type "
                f"({master['key']} is a {master['item_type']}, {row['key']} a {row['item_type']})"
            )
    return rows


def merge(
    db: Database, library: dict[str, Any], master: dict[str, Any], others: list[dict[str, Any]]
) -> dict[str, Any]:
    """Move the duplicates' tags, collections and children to the master, record them in its dc:replaces relation
    and put them in the trash."""
    version, now = next_version(db, library), db.now_iso()
    tags = list(master["tags"])
    filed = list(master["collections"])
    replaces = list(master["relations"].get("dc:replaces", []))
    for other in others:
        tags += [t for t in other["tags"] if t["tag"] not in (x["tag"] for x in tags)]
        filed += [c for c in other["collections"] if c not in filed]
        replaces.append(f"http://zotero.org/{library['id']}/items/{other['key']}")
        for child in db.find(items, parent_item=other["key"]):
            db.update(items, child["key"], parent_item=master["key"], version=version, date_modified=now)
        db.update(items, other["key"], deleted=True, version=version, date_modified=now)
    return db.update(
        items,
        master["key"],
        tags=sorted_tags(tags),
        collections=sorted(filed),
        relations={**master["relations"], "dc:replaces": replaces},
        version=version,
        date_modified=now,
    )


def delete_for_good(db: Database, library: dict[str, Any], item_keys: list[str]) -> list[str]:
    """Delete items and their children permanently (children first); returns every key deleted, sorted."""
    doomed: list[str] = []
    for key in dict.fromkeys(item_keys):
        find_item(db, library, key)
        doomed += [c["key"] for c in db.find(items, parent_item=key) if c["key"] not in doomed]
        if key not in doomed:
            doomed.append(key)
    for key in sorted(doomed, key=lambda k: db.get(items, k)["parent_item"] is None):
        db.delete(items, key)
    return sorted(doomed)


def unfile_collections(db: Database, library: dict[str, Any], doomed: list[str], version: int) -> int:
    """Take every item of the library out of the doomed collections; returns how many items changed."""
    now, touched = db.now_iso(), 0
    for item in db.select(items, "library_id = ? AND collections != '[]'", [library["id"]]):
        kept = [c for c in item["collections"] if c not in doomed]
        if kept != item["collections"]:
            db.update(items, item["key"], collections=kept, version=version, date_modified=now)
            touched += 1
    return touched
