"""OpenAlex's rules: ids resolve (merged ids follow to the surviving entity, DOIs find their work), list queries
page within the first 10,000 results or by cursor, and the library's rules for lists (unique names, a size cap,
no duplicate works, notes) and saved searches (unique names, alerts only on works searches)."""

from __future__ import annotations

import re
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .access import me
from .ids import KINDS, normalize_id
from .query import (
    MAX_BASIC_RESULTS,
    compile_filter,
    compile_search,
    cursor_for,
    offset_of,
    order_by,
    query_key,
    relevance,
)
from .schema import authors, institutions, list_items, lists, merged_ids, saved_searches, sources, topics, works

TABLES = {"works": works, "authors": authors, "institutions": institutions, "sources": sources, "topics": topics}
PREFIX = {"works": "W", "authors": "A", "institutions": "I", "sources": "S", "topics": "T"}
MAX_LIST_ITEMS = 200
MAX_LISTS = 50


def entity(db: Database, kind: str, raw: str) -> dict[str, Any]:
    """The entity with this id; a merged id resolves to the entity it was merged into; a work may be given by DOI."""
    if kind == "works" and re.match(r"^(doi:|https?://(dx\.)?doi\.org/|10\.)", raw.strip(), flags=re.I):
        doi = "https://doi.org/" + re.sub(r"^(doi:|https?://(dx\.)?doi\.org/)", "", raw.strip(), flags=re.I)
        found = db.select(works, "lower(doi) = ?", (doi.lower(),))
        if not found:
            raise NotFound(f"Work {raw} not found: no work in OpenAlex has this DOI")
        return found[0]
    key = normalize_id(raw, PREFIX[kind])
    merged = db.select(merged_ids, "old_id = ?", (key,))
    if merged:
        key = merged[0]["merged_into"]
    found = db.select(TABLES[kind], "id = ?", (key,))
    if not found:
        raise NotFound(f"{KINDS[PREFIX[kind]]} {key} not found")
    return found[0]


def query(
    db: Database,
    kind: str,
    filter: str | None,
    search: str | None,
    sort: str | None,
    per_page: int,
    page: int | None,
    cursor: str | None,
) -> tuple[int, list[dict[str, Any]], int | None, str | None]:
    """Count, one page of rows, the page number (basic paging) and next_cursor (cursor paging) of a list query."""
    if page is not None and cursor is not None:
        raise InvalidRequest("Use either page or cursor, not both: cursor paging replaces page numbers")
    if cursor is None and (page or 1) * per_page > MAX_BASIC_RESULTS:
        raise InvalidRequest(
            f"Maximum results size of {MAX_BASIC_RESULTS:,} records is exceeded: page * per_page must not pass "
            f"{MAX_BASIC_RESULTS:,}. Use cursor paging (cursor=*) to read further."
        )
    searching = bool(search and search.strip())
    order, by_relevance = order_by(kind, sort, searching)
    parts = [compile_filter(kind, filter or "")]
    if searching:
        parts.append(compile_search(kind, search or ""))
    where = " AND ".join(f"({p.sql})" for p in parts if p.sql)
    params = [v for p in parts for v in p.params]
    rows = db.select(TABLES[kind], where, params, order_by=order)
    if by_relevance:
        score = relevance(kind, search or "")
        rows = sorted(rows, key=lambda r: -score(r))  # stable: ties keep the secondary sort keys' order
    if cursor is None:
        start = ((page or 1) - 1) * per_page
        return len(rows), rows[start : start + per_page], page or 1, None
    key = query_key(kind, filter or "", search or "", sort or "", str(per_page))
    start = offset_of(cursor, key)
    window = rows[start : start + per_page]
    more = start + per_page < len(rows)
    return len(rows), window, None, cursor_for(key, start + per_page) if window and more else None


# ---------------------------------------------------------------- lists


def check_list_name(db: Database, name: str, keep: str | None = None) -> str:
    clean = " ".join(name.split())
    for other in db.select(lists, "owner_id = ? AND lower(name) = ?", (me(db)["user_id"], clean.lower())):
        if other["list_id"] != keep:
            raise Conflict(
                f"You already have a list named '{other['name']}' ({other['list_id']}). List names are unique."
            )
    return clean


def check_list_quota(db: Database) -> None:
    if len(db.select(lists, "owner_id = ?", (me(db)["user_id"],))) >= MAX_LISTS:
        raise Conflict(f"You have {MAX_LISTS} lists, the most an account may keep; delete one first.")


def item_ids(db: Database, list_id: str) -> list[str]:
    return [r["work_id"] for r in db.select(list_items, "list_id = ?", (list_id,))]


def works_to_add(db: Database, row: dict[str, Any], raw_ids: list[str]) -> list[str]:
    """Canonical ids of the works to add: each must exist (merged ids follow), none may be in the list already,
    and the list must stay within its size cap."""
    present = set(item_ids(db, row["list_id"]))
    wanted: list[str] = []
    for raw in raw_ids:
        found = entity(db, "works", raw)["id"]
        if found in present or found in wanted:
            raise Conflict(f"Work {found} is already in list '{row['name']}'.")
        wanted.append(found)
    if len(present) + len(wanted) > MAX_LIST_ITEMS:
        raise Conflict(
            f"List '{row['name']}' would hold {len(present) + len(wanted)} works; a list holds at most "
            f"{MAX_LIST_ITEMS}."
        )
    return wanted


def works_in_list(db: Database, row: dict[str, Any], raw_ids: list[str]) -> list[str]:
    """Canonical ids of works that must already be in the list."""
    present = set(item_ids(db, row["list_id"]))
    found: list[str] = []
    for raw in raw_ids:
        key = entity(db, "works", raw)["id"]
        if key not in present:
            raise InvalidRequest(f"Work {key} is not in list '{row['name']}'.")
        if key not in found:
            found.append(key)
    return found


# ---------------------------------------------------------------- saved searches


def own_search(db: Database, search_id: str) -> dict[str, Any]:
    return db.find_one(
        saved_searches, search_id=search_id, owner_id=me(db)["user_id"], not_found=f"Saved search {search_id} not found"
    )


def check_search_name(db: Database, name: str, keep: str | None = None) -> str:
    clean = " ".join(name.split())
    for other in db.select(saved_searches, "owner_id = ? AND lower(name) = ?", (me(db)["user_id"], clean.lower())):
        if other["search_id"] != keep:
            raise Conflict(f"A saved search named '{other['name']}' already exists. Saved search names are unique.")
    return clean


def check_alert(entity_kind: str, alert: str) -> None:
    if alert != "none" and entity_kind != "works":
        raise InvalidRequest(f"Alerts are sent for new works only; a saved {entity_kind} search takes alert 'none'.")


def match_count(db: Database, row: dict[str, Any]) -> int:
    count, _, _, _ = query(db, row["entity"], row["filter"], row["search"], None, 1, 1, None)
    return count
