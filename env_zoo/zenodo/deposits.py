"""The deposit workflow behind the tools: creating and changing drafts, publishing (validation, DOIs), the frozen
files of published records, new versions, community inclusion, and which requests a user sees."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, text

from envfactory_gym import Database
from envfactory_gym.database import given

from .access import CURATORS
from .errors import bad_request, conflict, not_found, validation
from .objects import request
from .rules import check_coherent, check_publishable, doi, metadata_of, new_recid
from .schema import communities, community_members, depositions, files, licenses, requests
from .search import where_clause


def published_record(db: Database, record_id: int) -> dict[str, Any]:
    """A published record by id (anyone's); drafts do not exist as records."""
    found = db.find(depositions, id=record_id)
    if not found or not found[0]["submitted"]:
        raise not_found()
    return found[0]


def latest_id(db: Database, conceptrecid: int) -> int:
    """The newest published version of a work."""
    rows = db.select(depositions, "conceptrecid = ? AND submitted = 1", [conceptrecid], order_by="id DESC", limit=1)
    return rows[0]["id"]


def own_matching(db: Database, user_id: int, q: str, status: str | None, sort: str) -> list[dict[str, Any]]:
    """The user's depositions matching a query and status, in the order asked for."""
    clauses, params, words = where_clause(q)
    if status is not None:
        clauses.append("submitted = ?")
        params.append(status == "published")
    order = "modified ASC" if sort == "-mostrecent" else "modified DESC"
    rows = db.select(depositions, " AND ".join(["owner_id = ?", *clauses]), [user_id, *params], order_by=order)
    if sort == "bestmatch" and words:
        rows.sort(key=lambda r: -sum(w in r["title"].lower() for w in words))
    return rows


def _check(db: Database, row: dict[str, Any]) -> None:
    known = not row["license"] or bool(db.find(licenses, id=row["license"]))
    problems = check_coherent(row, db.now().date().isoformat(), known)
    if problems:
        raise validation(problems)


def create(db: Database, user: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """A new draft owned by the user, with its own concept."""
    recid = new_recid(db)
    row = {
        "id": recid,
        "conceptrecid": new_recid(db),
        "owner_id": user["id"],
        "state": "unsubmitted",
        "submitted": False,
        "doi": None,
        "conceptdoi": None,
        "created": db.now_iso(),
        "modified": db.now_iso(),
        "published": None,
        "communities": [],
        "published_metadata": None,
        **values,
    }
    _check(db, row)
    return db.insert(depositions, **row)


def update(db: Database, row: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """A draft's or reopened record's metadata, changed."""
    if row["state"] == "done":
        raise bad_request("The deposition is published; reopen it for editing first.")
    _check(db, {**row, **changes})
    return db.update(depositions, row["id"], modified=db.now_iso(), **changes)


def files_editable(row: dict[str, Any]) -> None:
    """A published record's files are frozen, even while its metadata is reopened for editing."""
    if row["submitted"]:
        raise bad_request("Files of a published record cannot be changed; create a new version to change them.")


def publish(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """Validate and publish a draft (minting DOIs) or save a reopened record's changes."""
    if row["state"] == "done":
        raise conflict("The deposition is already published.")
    count = len(db.find(files, deposition_id=row["id"]))
    problems = check_publishable(row, count, db.now().date().isoformat())
    if problems:
        raise validation(problems)
    now = db.now_iso()
    changes: dict[str, Any] = {"state": "done", "modified": now, "published_metadata": metadata_of(row)}
    if not row["submitted"]:
        first = not db.select(depositions, "conceptrecid = ? AND submitted = 1", [row["conceptrecid"]], limit=1)
        changes.update(submitted=True, doi=doi(row["id"]), published=now)
        if first:
            changes["conceptdoi"] = doi(row["conceptrecid"])
    return db.update(depositions, row["id"], **changes)


def new_version(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """A new-version draft copying the latest version's metadata and files."""
    if not row["submitted"]:
        raise bad_request("Only a published deposition can get a new version.")
    latest = latest_id(db, row["conceptrecid"])
    if latest != row["id"]:
        raise bad_request(f"A new version can only be created from the latest version (record {latest}).")
    if row["state"] == "inprogress":
        raise conflict("The record is open for editing; publish or discard the edit first.")
    pending = db.find(depositions, conceptrecid=row["conceptrecid"], submitted=False)
    if pending:
        raise conflict(f"A new version draft already exists (deposition {pending[0]['id']}); publish or delete it.")
    now = db.now_iso()
    copy = {
        **metadata_of(row),
        "publication_date": db.now().date().isoformat(),
        "id": new_recid(db),
        "conceptrecid": row["conceptrecid"],
        "owner_id": row["owner_id"],
        "state": "unsubmitted",
        "submitted": False,
        "doi": None,
        "conceptdoi": row["conceptdoi"],
        "created": now,
        "modified": now,
        "published": None,
        "communities": list(row["communities"]),
        "published_metadata": None,
    }
    draft = db.insert(depositions, **copy)
    for stored in db.find(files, deposition_id=row["id"]):
        db.insert(
            files,
            id=db.new_uuid(files),
            deposition_id=draft["id"],
            filename=stored["filename"],
            filesize=stored["filesize"],
            checksum=stored["checksum"],
            created=now,
        )
    return draft


def include(db: Database, record_id: int, slug: str) -> None:
    """Add a community to a record's communities."""
    row = db.get(depositions, record_id)
    if slug not in row["communities"]:
        db.update(depositions, record_id, communities=[*row["communities"], slug])


def community_counts(db: Database) -> dict[str, int]:
    """How many records each community includes, by slug."""
    counts: dict[str, int] = {}
    for (slugs,) in db.conn.execute(select(depositions.c.communities).where(text("communities != '[]'"))):
        for slug in slugs:
            counts[slug] = counts.get(slug, 0) + 1
    return counts


def _curated(db: Database, user_id: int) -> set[str]:
    return {m["community_id"] for m in db.find(community_members, user_id=user_id) if m["role"] in CURATORS}


def visible_request(db: Database, user: dict[str, Any], request_id: str) -> dict[str, Any]:
    """A request the user submitted or decides on."""
    found = db.find(requests, id=request_id.strip())
    if not found or (found[0]["created_by"] != user["id"] and found[0]["community_id"] not in _curated(db, user["id"])):
        raise not_found("Request does not exist.")
    return found[0]


def visible_requests(db: Database, user: dict[str, Any], community: str | None, status: str | None) -> dict[str, Any]:
    """The requests a user sees, filtered, newest first."""
    curated = _curated(db, user["id"])
    wanted = None
    if community is not None:
        found = db.find(communities, slug=community.strip().lower())
        wanted = found[0]["id"] if found else ""
    rows = [
        r
        for r in db.find(requests, order_by=[requests.c.created.desc()], **given(status=status, community_id=wanted))
        if r["created_by"] == user["id"] or r["community_id"] in curated
    ]
    hits = [request(db, r, db.get(depositions, r["record_id"])["title"]) for r in rows]
    return {"total": len(hits), "hits": hits}
