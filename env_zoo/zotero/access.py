"""Zotero's API keys, library access and the item and collection rules that the tools share."""

from __future__ import annotations

import re
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .objects import (
    CollectionObject,
    Creator,
    GroupObject,
    ItemObject,
    Tag,
)
from .schema import api_keys, collections, group_members, groups, items, libraries, users

KEY_ALPHABET = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"
MAX_KEYS_PER_WRITE = 50
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
_MONTHS = {
    m: i
    for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1)
}


def _api_key(db: Database) -> dict[str, Any]:
    return db.find(api_keys)[0]


def _membership(db: Database, group_id: int, user_id: int) -> dict[str, Any] | None:
    rows = db.find(group_members, group_id=group_id, user_id=user_id)
    return rows[0] if rows else None


def _can_edit(group: dict[str, Any], member: dict[str, Any] | None) -> bool:
    return member is not None and (group["library_editing"] == "members" or member["role"] in ("owner", "admin"))


def _library(db: Database, group_id: int | None, write: bool = False) -> dict[str, Any]:
    """The library a call acts on, after the key's and the group's permission checks."""
    key = _api_key(db)
    if group_id is None:
        if not key["library_access"]:
            raise PermissionDenied("Forbidden: this API key has no access to your personal library")
        if write and not key["write_access"]:
            raise PermissionDenied("Write access denied: this API key is read-only for your personal library")
        return db.get(libraries, f"users/{key['user_id']}", "Library")
    found = db.find(groups, id=group_id)
    if not found:
        raise NotFound(f"Group {group_id} not found")
    group = found[0]
    if key["groups_access"] == "none":
        raise PermissionDenied("Forbidden: this API key has no access to group libraries")
    member = _membership(db, group_id, key["user_id"])
    if member is None and (group["type"] == "Private" or group["library_reading"] == "members"):
        raise PermissionDenied(f"Forbidden: you are not a member of the group '{group['name']}'")
    if write:
        if key["groups_access"] != "write":
            raise PermissionDenied("Write access denied: this API key can only read group libraries")
        if member is None:
            raise PermissionDenied(f"Write access denied: you are not a member of the group '{group['name']}'")
        if not _can_edit(group, member):
            raise PermissionDenied(
                f"Write access denied: in '{group['name']}' only group admins can edit the library "
                f"(your role is {member['role']})"
            )
    return db.get(libraries, f"groups/{group_id}", "Library")


def _bump(db: Database, library: dict[str, Any]) -> int:
    """Start a write: the library moves to its next version, which every object written now takes."""
    version = library["version"] + 1
    db.update(libraries, library["id"], version=version)
    return version


def _check_version(kind: str, row: dict[str, Any], version: int) -> None:
    """If-Unmodified-Since-Version: the caller must quote the object's current version."""
    if row["version"] != version:
        raise Conflict(
            f"412 Precondition Failed: {kind} {row['key']} has been modified since version {version} "
            f"(current version {row['version']}); retrieve it again before editing"
        )


def _new_key(db: Database, table: Any) -> str:
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


def _item(db: Database, library: dict[str, Any], key: str) -> dict[str, Any]:
    return db.find_one(
        items, key=key, library_id=library["id"], not_found=f"Item {key} not found in library {library['name']}"
    )


def _collection(db: Database, library: dict[str, Any], key: str) -> dict[str, Any]:
    return db.find_one(
        collections,
        key=key,
        library_id=library["id"],
        not_found=f"Collection {key} not found in library {library['name']}",
    )


def _parsed_date(text: str) -> str:
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


def _creator_summary(creators: list[dict[str, Any]]) -> str:
    people = [c for c in creators if c["creatorType"] == "author"] or creators
    names = [c.get("lastName") or c.get("name") or "" for c in people]
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return f"{names[0]} et al."


def _item_object(db: Database, row: dict[str, Any], num_children: int | None = None) -> ItemObject:
    if num_children is None:
        num_children = sum(1 for c in db.find(items, parent_item=row["key"]) if not c["deleted"])
    creator = None
    if row["created_by"] is not None:
        creator = db.get(users, row["created_by"], "User")["username"]
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
        creatorSummary=_creator_summary(row["creators"]),
        parsedDate=_parsed_date(row["date"]),
        createdByUser=creator,
    )


def _check_type(item_type: str) -> None:
    if item_type in CHILD_TYPES:
        raise InvalidRequest(
            f"'{item_type}' items can't be created or converted here: use create_note for notes; "
            "attachments are added from a Zotero client"
        )
    if item_type not in TYPE_FIELDS:
        raise InvalidRequest(f"'{item_type}' is not a valid itemType. Valid types: {', '.join(sorted(TYPE_FIELDS))}")


def _check_fields(item_type: str, values: dict[str, str]) -> None:
    allowed = COMMON_FIELDS | TYPE_FIELDS[item_type]
    for name in values:
        if name in OWN_ARGUMENTS:
            raise InvalidRequest(f"'{name}' has its own argument; don't pass it in fields")
        if name not in allowed:
            raise InvalidRequest(f"'{name}' is not a valid field for type '{item_type}'")


def _clean_creators(item_type: str, creators: list[Creator]) -> list[dict[str, Any]]:
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


def _clean_tags(tags: list[str], existing: list[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """Tags sorted by name (as Zotero lists them), duplicates dropped; a tag kept from before keeps its type."""
    kinds = {t["tag"]: t["type"] for t in existing}
    cleaned: list[dict[str, Any]] = []
    for raw in tags:
        text = raw.strip()
        if not text:
            raise InvalidRequest("Tag names must not be empty")
        if len(text) > 255:
            raise InvalidRequest(f"Tag '{text[:30]}...' is longer than 255 characters")
        if text not in (t["tag"] for t in cleaned):
            cleaned.append({"tag": text, "type": kinds.get(text, 0)})
    return _sorted_tags(cleaned)


def _sorted_tags(tags: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(tags, key=lambda t: (t["tag"].casefold(), t["tag"]))


def _check_collections(db: Database, library: dict[str, Any], keys: list[str]) -> list[str]:
    for key in keys:
        _collection(db, library, key)
    return sorted(set(keys))


def _note_title(html: str) -> str:
    text = re.sub(r"<[^>]+>", "\n", html)
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first[:120]


def _in_trash(row: dict[str, Any], by_key: dict[str, dict[str, Any]]) -> bool:
    parent = by_key.get(row["parent_item"]) if row["parent_item"] else None
    return bool(row["deleted"] or (parent is not None and parent["deleted"]))


def _haystack(row: dict[str, Any], everything: bool) -> str:
    parts = [row["title"], _parsed_date(row["date"])[:4]]
    parts += [" ".join(filter(None, (c.get("firstName"), c.get("lastName"), c.get("name")))) for c in row["creators"]]
    if everything:
        parts += list(row["fields"].values()) + [re.sub(r"<[^>]+>", " ", row["note"] or "")]
        parts += [t["tag"] for t in row["tags"]]
    return " ".join(parts).casefold()


def _descendants(db: Database, library_id: str, key: str) -> list[str]:
    """Keys of a collection and all its subcollections."""
    rows = db.find(collections, library_id=library_id)
    found, frontier = [key], [key]
    while frontier:
        parent = frontier.pop()
        children = [r["key"] for r in rows if r["parent_collection"] == parent]
        found += children
        frontier += children
    return found


def _collection_object(db: Database, row: dict[str, Any]) -> CollectionObject:
    return _collection_objects(db, [row])[0]


def _collection_objects(db: Database, rows: list[dict[str, Any]]) -> list[CollectionObject]:
    """Collections with the items and subcollections directly in each, counted in one pass over their libraries."""
    items_in: dict[str, int] = {}
    subcollections: dict[str, int] = {}
    for library_id in {r["library_id"] for r in rows}:
        for item in db.find(items, library_id=library_id, deleted=False):
            for key in set(item["collections"]):
                items_in[key] = items_in.get(key, 0) + 1
    for sub in db.find(collections):
        if sub["parent_collection"] is not None:
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


def _group_object(db: Database, group: dict[str, Any], member: dict[str, Any]) -> GroupObject:
    library = db.get(libraries, f"groups/{group['id']}", "Library")
    top = [r for r in db.find(items, library_id=library["id"], deleted=False) if r["parent_item"] is None]
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
        canEdit=_can_edit(group, member),
        numMembers=len(db.find(group_members, group_id=group["id"])),
        numItems=len(top),
        library_version=library["version"],
    )


def _refile(db: Database, library: dict[str, Any], collection_key: str, item_keys: list[str]) -> list[dict[str, Any]]:
    _collection(db, library, collection_key)
    if not item_keys:
        raise InvalidRequest("item_keys must not be empty")
    if len(item_keys) > MAX_KEYS_PER_WRITE:
        raise InvalidRequest(f"Too many items: at most {MAX_KEYS_PER_WRITE} item keys per request")
    rows = [_item(db, library, k) for k in dict.fromkeys(item_keys)]
    for row in rows:
        if row["parent_item"] is not None:
            raise InvalidRequest(
                f"Child items cannot be assigned to collections ({row['key']} is a child {row['item_type']})"
            )
    return rows
