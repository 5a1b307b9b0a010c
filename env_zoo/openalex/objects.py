"""OpenAlex's entity objects (Work, Author, Institution, Source, Topic, their dehydrated forms and list
responses with meta) and the library's lists, items and saved searches, and how stored rows become them."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from envfactory_gym import Database, KeptGeneric

from .schema import authors, authorships, institutions, list_items, referenced_works, sources, topics, works

T = TypeVar("T")


class Meta(BaseModel):
    count: int
    page: int | None
    per_page: int
    next_cursor: str | None


class Listing(KeptGeneric, Generic[T]):
    """A list response: meta (count, page or next_cursor) and one page of results."""

    meta: Meta
    results: list[T]


class DehydratedInstitution(BaseModel):
    id: str
    display_name: str
    country_code: str
    type: str


class Institution(DehydratedInstitution):
    ror: str
    city: str
    works_count: int
    cited_by_count: int


class Source(BaseModel):
    id: str
    display_name: str
    issn_l: str | None
    type: str
    host_organization_name: str
    is_oa: bool
    country_code: str
    works_count: int
    cited_by_count: int


class Level(BaseModel):
    id: int
    display_name: str


class DehydratedTopic(BaseModel):
    id: str
    display_name: str
    subfield: Level
    field: Level
    domain: Level


class Topic(DehydratedTopic):
    description: str
    keywords: list[str]
    works_count: int


class DehydratedAuthor(BaseModel):
    id: str
    display_name: str
    orcid: str | None


class Author(DehydratedAuthor):
    last_known_institutions: list[DehydratedInstitution]
    works_count: int
    cited_by_count: int
    h_index: int
    topics: list[str]  # the author's most frequent primary topics in OpenAlex, most frequent first


class Authorship(BaseModel):
    author_position: str  # first | middle | last
    author: DehydratedAuthor
    institutions: list[DehydratedInstitution]
    is_corresponding: bool
    raw_author_name: str


class PrimaryLocation(BaseModel):
    source_id: str | None
    source_display_name: str | None
    source_type: str | None
    license: str | None


class OpenAccess(BaseModel):
    is_oa: bool
    oa_status: str


class WorkSummary(BaseModel):
    """A work as list responses give it."""

    id: str
    doi: str | None
    title: str
    publication_year: int
    publication_date: str
    type: str
    source: str | None
    open_access: OpenAccess
    cited_by_count: int
    is_retracted: bool
    authors: list[str]  # display names in byline order
    primary_topic: str | None


class Work(BaseModel):
    """A single work as /works/{id} gives it."""

    id: str
    doi: str | None
    title: str
    abstract: str
    publication_year: int
    publication_date: str
    type: str
    language: str
    primary_location: PrimaryLocation
    open_access: OpenAccess
    authorships: list[Authorship]
    cited_by_count: int
    is_retracted: bool
    primary_topic: DehydratedTopic | None
    topics: list[str]
    referenced_works: list[str]
    referenced_works_count: int


class ListItem(BaseModel):
    work: WorkSummary
    note: str
    added_at: str


class WorkList(BaseModel):
    """A library list of works (the items are left out of list_my_lists)."""

    list_id: str
    owner: str
    name: str
    description: str
    visibility: str
    item_count: int
    created_at: str
    updated_at: str


class WorkListDetail(WorkList):
    items: list[ListItem]


class SavedSearch(BaseModel):
    search_id: str
    name: str
    entity: str
    filter: str
    search: str
    alert: str
    match_count: int
    created_at: str


def institution(row: dict[str, Any]) -> Institution:
    return Institution(**{k: row[k] for k in Institution.model_fields})


def dehydrated_institution(row: dict[str, Any]) -> DehydratedInstitution:
    return DehydratedInstitution(**{k: row[k] for k in DehydratedInstitution.model_fields})


def source(row: dict[str, Any]) -> Source:
    return Source(**{k: row[k] for k in Source.model_fields})


def dehydrated_topic(row: dict[str, Any]) -> DehydratedTopic:
    return DehydratedTopic(
        id=row["id"],
        display_name=row["display_name"],
        subfield=Level(id=row["subfield_id"], display_name=row["subfield"]),
        field=Level(id=row["field_id"], display_name=row["field"]),
        domain=Level(id=row["domain_id"], display_name=row["domain"]),
    )


def topic(row: dict[str, Any]) -> Topic:
    return Topic(
        **dehydrated_topic(row).model_dump(),
        description=row["description"],
        keywords=[k for k in row["keywords"].split("; ") if k],
        works_count=row["works_count"],
    )


def author(db: Database, row: dict[str, Any]) -> Author:
    last = row["last_known_institution_id"]
    mine = [a["work_id"] for a in db.select(authorships, "author_id = ?", (row["id"],))]
    rows = db.select(works, f"id IN ({', '.join('?' for _ in mine)})", mine) if mine else []
    tally: dict[str, int] = {}
    for w in rows:
        if w["primary_topic_id"]:
            tally[w["primary_topic_id"]] = tally.get(w["primary_topic_id"], 0) + 1
    names = _names(db, topics, set(tally))
    ranked = sorted(tally, key=lambda t: (-tally[t], names[t]))[:3]
    return Author(
        id=row["id"],
        display_name=row["display_name"],
        orcid=row["orcid"],
        last_known_institutions=[dehydrated_institution(db.get(institutions, last))] if last else [],
        works_count=row["works_count"],
        cited_by_count=row["cited_by_count"],
        h_index=row["h_index"],
        topics=[names[t] for t in ranked],
    )


def summaries(db: Database, rows: list[dict[str, Any]]) -> list[WorkSummary]:
    """List-response forms of work rows, with byline names, source and topic names looked up in three queries."""
    if not rows:
        return []
    ids = [r["id"] for r in rows]
    marks = ", ".join("?" for _ in ids)
    bylines: dict[str, list[str]] = {}
    for a in db.select(authorships, f"work_id IN ({marks})", ids, order_by="work_id, position"):
        bylines.setdefault(a["work_id"], []).append(a["raw_author_name"])
    source_names = _names(db, sources, {r["source_id"] for r in rows if r["source_id"]})
    topic_names = _names(db, topics, {r["primary_topic_id"] for r in rows if r["primary_topic_id"]})
    return [
        WorkSummary(
            id=r["id"],
            doi=r["doi"],
            title=r["title"],
            publication_year=r["publication_year"],
            publication_date=r["publication_date"],
            type=r["type"],
            source=source_names.get(r["source_id"]),
            open_access=OpenAccess(is_oa=r["is_oa"], oa_status=r["oa_status"]),
            cited_by_count=r["cited_by_count"],
            is_retracted=r["is_retracted"],
            authors=bylines.get(r["id"], []),
            primary_topic=topic_names.get(r["primary_topic_id"]),
        )
        for r in rows
    ]


def _names(db: Database, table: Any, keys: set[str]) -> dict[str, str]:
    if not keys:
        return {}
    wanted = sorted(keys)
    rows = db.select(table, f"id IN ({', '.join('?' for _ in wanted)})", wanted)
    return {r["id"]: r["display_name"] for r in rows}


def work(db: Database, row: dict[str, Any]) -> Work:
    byline = db.select(authorships, "work_id = ?", (row["id"],), order_by="position")
    people = (
        {
            a["id"]: a
            for a in db.select(authors, f"id IN ({', '.join('?' for _ in byline)})", [b["author_id"] for b in byline])
        }
        if byline
        else {}
    )
    places = {b["institution_id"] for b in byline if b["institution_id"]}
    insts = (
        {i["id"]: i for i in db.select(institutions, f"id IN ({', '.join('?' for _ in places)})", sorted(places))}
        if places
        else {}
    )
    last = len(byline)
    ships = [
        Authorship(
            author_position="first" if b["position"] == 1 else "last" if b["position"] == last else "middle",
            author=DehydratedAuthor(
                id=b["author_id"],
                display_name=people[b["author_id"]]["display_name"],
                orcid=people[b["author_id"]]["orcid"],
            ),
            institutions=[dehydrated_institution(insts[b["institution_id"]])] if b["institution_id"] else [],
            is_corresponding=b["is_corresponding"],
            raw_author_name=b["raw_author_name"],
        )
        for b in byline
    ]
    src = db.get(sources, row["source_id"]) if row["source_id"] else None
    topic_ids = [t for t in row["topic_ids"].split("|") if t]
    topic_names = _names(db, topics, set(topic_ids))
    refs = [r["cited_id"] for r in db.select(referenced_works, "citing_id = ?", (row["id"],), order_by="cited_id")]
    return Work(
        id=row["id"],
        doi=row["doi"],
        title=row["title"],
        abstract=row["abstract"],
        publication_year=row["publication_year"],
        publication_date=row["publication_date"],
        type=row["type"],
        language=row["language"],
        primary_location=PrimaryLocation(
            source_id=src["id"] if src else None,
            source_display_name=src["display_name"] if src else None,
            source_type=src["type"] if src else None,
            license=row["license"],
        ),
        open_access=OpenAccess(is_oa=row["is_oa"], oa_status=row["oa_status"]),
        authorships=ships,
        cited_by_count=row["cited_by_count"],
        is_retracted=row["is_retracted"],
        primary_topic=dehydrated_topic(db.get(topics, row["primary_topic_id"])) if row["primary_topic_id"] else None,
        topics=[topic_names[t] for t in topic_ids if t in topic_names],
        referenced_works=refs,
        referenced_works_count=len(refs),
    )


def work_list(db: Database, row: dict[str, Any]) -> WorkList:
    count = len(db.select(list_items, "list_id = ?", (row["list_id"],)))
    return WorkList(
        list_id=row["list_id"],
        owner=row["owner_id"],
        name=row["name"],
        description=row["description"],
        visibility=row["visibility"],
        item_count=count,
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def work_list_detail(db: Database, row: dict[str, Any]) -> WorkListDetail:
    items = db.select(list_items, "list_id = ?", (row["list_id"],), order_by="added_at, work_id")
    ids = [i["work_id"] for i in items]
    rows = {r["id"]: r for r in db.select(works, f"id IN ({', '.join('?' for _ in ids)})", ids)} if ids else {}
    forms = {s.id: s for s in summaries(db, [rows[i] for i in ids])}
    return WorkListDetail(
        **work_list(db, row).model_dump(),
        items=[ListItem(work=forms[i["work_id"]], note=i["note"], added_at=i["added_at"]) for i in items],
    )


def saved_search(row: dict[str, Any], count: int) -> SavedSearch:
    return SavedSearch(**{k: row[k] for k in SavedSearch.model_fields if k != "match_count"}, match_count=count)
