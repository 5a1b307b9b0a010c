"""PubMed's and My NCBI's rules: PMIDs must exist, ESearch windows, collection size and name rules, saved-search
names unique per user with a consistent e-mail schedule, My Bibliography holds one's own citations, active filters
are capped."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .access import me
from .query import compile_term
from .schema import articles, bibliography, collection_items, collections, filters, saved_searches

MAX_RETRIEVABLE = 9999  # ESearch can only page through the first 9,999 PubMed records of a search
MAX_COLLECTION_ITEMS = 5000
MAX_ACTIVE_FILTERS = 15
MAX_NAME = 100
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def article(db: Database, pmid: str) -> dict[str, Any]:
    """The record with this PMID; NotFound as ESummary words it for a PMID PubMed does not have."""
    found = db.select(articles, "pmid = ?", (pmid,))
    if not found:
        raise NotFound(f"UID={pmid}: cannot get document summary (no PubMed record has this PMID)")
    return found[0]


def fetch_all(db: Database, pmids: list[str]) -> list[dict[str, Any]]:
    """The records for these PMIDs in the order given (duplicates once); the first unknown PMID is an error."""
    wanted = list(dict.fromkeys(pmids))
    if not wanted:
        return []
    found = {row["pmid"]: row for row in db.select(articles, f"pmid IN ({', '.join('?' for _ in wanted)})", wanted)}
    for pmid in wanted:
        if pmid not in found:
            article(db, pmid)
    return [found[pmid] for pmid in wanted]


def search(db: Database, term: str, sort: str) -> tuple[list[str], str]:
    """Every PMID matching an ESearch term in the sort order asked for, and the query translation."""
    compiled = compile_term(term)
    order = {
        "most_recent": "entrez_date DESC, pmid DESC",
        "pub_date": "pub_date DESC, pmid DESC",
        "Author": "author_index ASC",
        "JournalName": "(SELECT title FROM journals j WHERE j.nlm_id = articles.nlm_id) ASC, pub_date DESC",
        "title": "lower(title) ASC",
    }[sort]
    rows = db.select(articles, compiled.sql, compiled.params, order_by=order)
    return [row["pmid"] for row in rows], compiled.translation


def check_window(retstart: int) -> None:
    if retstart >= MAX_RETRIEVABLE:
        raise InvalidRequest(
            f"Search Backend failed: 'retstart' cannot be larger than {MAX_RETRIEVABLE - 1}. For PubMed, ESearch "
            f"can only retrieve the first {MAX_RETRIEVABLE} records matching the query."
        )


# ---------------------------------------------------------------- collections


def items_of(db: Database, collection_id: str) -> list[str]:
    return [row["pmid"] for row in db.select(collection_items, "collection_id = ?", (collection_id,))]


def unique_collection_name(db: Database, name: str, keep: str | None = None) -> str:
    clean = " ".join(name.split())
    for other in db.find(collections, owner_id=me(db)["user_id"]):
        if other["name"].lower() == clean.lower() and other["collection_id"] != keep:
            raise Conflict(f"You already have a collection named '{other['name']}'. Choose another name.")
    return clean


def add_items(db: Database, collection: dict[str, Any], pmids: list[str]) -> list[str]:
    """Add the PMIDs not yet in the collection (each must exist) within the size limit; returns those added."""
    present = set(items_of(db, collection["collection_id"]))
    new = [row["pmid"] for row in fetch_all(db, pmids) if row["pmid"] not in present]
    if len(present) + len(new) > MAX_COLLECTION_ITEMS:
        raise Conflict(
            f"Collection '{collection['name']}' is full: a collection holds at most {MAX_COLLECTION_ITEMS} items "
            f"(it has {len(present)}, {len(new)} more were asked for)."
        )
    for pmid in new:
        db.insert(
            collection_items,
            item_key=f"{collection['collection_id']}/{pmid}",
            collection_id=collection["collection_id"],
            pmid=pmid,
            added_at=db.now_iso(),
        )
    if new:
        db.update(collections, collection["collection_id"], modified_at=db.now_iso())
    return new


def remove_items(db: Database, collection: dict[str, Any], pmids: list[str]) -> None:
    present = set(items_of(db, collection["collection_id"]))
    for pmid in pmids:
        if pmid not in present:
            raise InvalidRequest(f"PMID {pmid} is not in collection '{collection['name']}'.")
    for pmid in pmids:
        db.delete(collection_items, f"{collection['collection_id']}/{pmid}")
    db.update(collections, collection["collection_id"], modified_at=db.now_iso())


def check_not_favorites(collection: dict[str, Any], action: str) -> None:
    if collection["is_favorites"]:
        raise InvalidRequest(f"Favorites is your default collection and cannot be {action}.")


# ---------------------------------------------------------------- saved searches


def own_search(db: Database, search_id: str) -> dict[str, Any]:
    return db.find_one(
        saved_searches,
        search_id=search_id,
        owner_id=me(db)["user_id"],
        not_found=f"Saved search '{search_id}' not found",
    )


def unique_search_name(db: Database, name: str, keep: str | None = None) -> str:
    clean = " ".join(name.split())
    for other in db.find(saved_searches, owner_id=me(db)["user_id"]):
        if other["name"].lower() == clean.lower() and other["search_id"] != keep:
            raise Conflict(f"A saved search named '{other['name']}' already exists. Saved search names must be unique.")
    return clean


def schedule(frequency: str, send_day: str | int | None) -> str | None:
    """The stored send day for an e-mail frequency: a weekday for weekly, a day of the month for monthly, none
    otherwise."""
    if frequency == "weekly":
        if send_day not in WEEKDAYS:
            raise InvalidRequest("A weekly e-mail needs send_day: the weekday to send it (Monday to Sunday).")
        return str(send_day)
    if frequency == "monthly":
        if not isinstance(send_day, int):
            raise InvalidRequest("A monthly e-mail needs send_day: the day of the month to send it (1 to 28).")
        return str(send_day)
    if send_day is not None:
        raise InvalidRequest(f"send_day applies only to weekly or monthly e-mails, not '{frequency}'.")
    return None


# ---------------------------------------------------------------- My Bibliography and filters


def check_own_citation(account: dict[str, Any], row: dict[str, Any]) -> None:
    """My Bibliography holds the account holder's own works: the record must list their author name."""
    name = account["bibliography_author"].lower()
    if f"|{name}|" not in row["author_index"]:
        raise InvalidRequest(
            f"PMID {row['pmid']} does not list {account['bibliography_author']} as an author; My Bibliography holds "
            "only your own publications."
        )


def bibliography_pmids(db: Database, user_id: str) -> list[str]:
    return [row["pmid"] for row in db.find(bibliography, owner_id=user_id)]


def new_bibliography_rows(db: Database, account: dict[str, Any], pmids: list[str]) -> list[dict[str, Any]]:
    """The records to add to My Bibliography: each must exist, be the account holder's and not be there yet."""
    present = set(bibliography_pmids(db, account["user_id"]))
    rows = fetch_all(db, pmids)
    for row in rows:
        check_own_citation(account, row)
        if row["pmid"] in present:
            raise Conflict(f"PMID {row['pmid']} is already in My Bibliography.")
    return rows


def own_filter(db: Database, filter_id: str) -> dict[str, Any]:
    return db.find_one(
        filters, filter_id=filter_id, owner_id=me(db)["user_id"], not_found=f"Filter '{filter_id}' not found"
    )


def check_active_cap(db: Database) -> None:
    active = db.find(filters, owner_id=me(db)["user_id"], active=True)
    if len(active) >= MAX_ACTIVE_FILTERS:
        raise Conflict(f"At most {MAX_ACTIVE_FILTERS} filters can be active; turn one off first.")


def unique_filter_name(db: Database, name: str) -> str:
    clean = " ".join(name.split())
    if any(f["name"].lower() == clean.lower() for f in db.find(filters, owner_id=me(db)["user_id"])):
        raise Conflict(f"You already have a filter named '{clean}'.")
    return clean
