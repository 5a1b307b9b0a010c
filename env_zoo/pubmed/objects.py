"""PubMed's E-utilities results (ESearch, ESummary DocSums, EFetch records, ELink link sets) and My NCBI's
objects as output models, and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from .schema import (
    accounts,
    article_authors,
    articles,
    bibliography,
    collection_items,
    comments_corrections,
    journals,
    mesh_headings,
)


class SearchResult(BaseModel):
    """An ESearch result: how many records match, the requested window of PMIDs and the query translation."""

    count: int
    retmax: int
    retstart: int
    idlist: list[str]
    querytranslation: str


class ArticleId(BaseModel):
    idtype: str  # pubmed | doi | pmc
    value: str


class Reference(BaseModel):
    """A comment or correction linked to a record (a retraction, an erratum, a comment)."""

    reftype: str
    pmid: str
    refsource: str


class DocSum(BaseModel):
    """An ESummary document summary of one PubMed record."""

    uid: str
    pubdate: str
    source: str
    authors: list[str]
    lastauthor: str
    title: str
    volume: str
    issue: str
    pages: str
    fulljournalname: str
    issn: str
    lang: str
    pubtype: list[str]
    articleids: list[ArticleId]
    references: list[Reference]


class Summaries(BaseModel):
    uids: list[str]
    result: list[DocSum]


class Author(BaseModel):
    last_name: str
    fore_name: str
    initials: str
    affiliation: str


class MeshHeading(BaseModel):
    descriptor: str
    major_topic: bool


class Journal(BaseModel):
    nlm_id: str
    title: str
    iso_abbreviation: str
    issn: str
    volume: str
    issue: str
    pub_date: str


class Record(BaseModel):
    """An EFetch PubMed record: the full citation with abstract, authors and affiliations, MeSH headings,
    publication types, keywords, identifiers and linked comments and corrections."""

    pmid: str
    title: str
    abstract: str
    journal: Journal
    pages: str
    authors: list[Author]
    language: str
    publication_types: list[str]
    mesh_headings: list[MeshHeading]
    keywords: list[str]
    doi: str | None
    pmc_id: str | None
    comments_corrections: list[Reference]


class Link(BaseModel):
    id: str
    score: int | None = None


class LinkSet(BaseModel):
    """An ELink result for one PMID and one link name."""

    dbfrom: str
    idlist: list[str]
    linkname: str
    links: list[Link]


class Collection(BaseModel):
    collection_id: str
    name: str
    owner: str
    public: bool
    is_favorites: bool
    item_count: int


class CollectionItems(BaseModel):
    collection: Collection
    pmids: list[str]
    summaries: list[DocSum]


class SavedSearch(BaseModel):
    search_id: str
    name: str
    term: str
    frequency: str
    send_day: str | None
    report_format: str
    max_items: int
    send_if_empty: bool
    last_run: str


class Bibliography(BaseModel):
    """My Bibliography: the citations kept for the account holder's author name."""

    author_name: str
    public: bool
    pmids: list[str]
    summaries: list[DocSum]


class Filter(BaseModel):
    filter_id: str
    name: str
    term: str
    custom: bool
    active: bool


class Removed(BaseModel):
    removed: list[str]
    remaining: int


def _in(column: str, values: list[str]) -> str:
    return f"{column} IN ({', '.join('?' for _ in values)})"


def _grouped(db: Database, table: Any, pmids: list[str], order_by: str) -> dict[str, list[dict[str, Any]]]:
    """Rows of a per-article table for several PMIDs at once, grouped by PMID."""
    grouped: dict[str, list[dict[str, Any]]] = {pmid: [] for pmid in pmids}
    if pmids:
        for row in db.select(table, _in("pmid", pmids), pmids, order_by=order_by):
            grouped[row["pmid"]].append(row)
    return grouped


def _references(db: Database, pmids: list[str]) -> dict[str, list[Reference]]:
    """The comments and corrections linked to each PMID, with a citation of the linked record."""
    links = _grouped(db, comments_corrections, pmids, "ref_type")
    targets = sorted({link["ref_pmid"] for found in links.values() for link in found})
    others = {row["pmid"]: row for row in db.select(articles, _in("pmid", targets), targets)} if targets else {}
    names = _journals(db, [row["nlm_id"] for row in others.values()])
    result: dict[str, list[Reference]] = {}
    for pmid, found in links.items():
        result[pmid] = []
        for link in found:
            other = others[link["ref_pmid"]]
            abbreviation = names[other["nlm_id"]]["iso_abbreviation"]
            source = f"{abbreviation}. {other['pub_date'][:4]};{other['volume']}:{other['pages']}"
            result[pmid].append(Reference(reftype=link["ref_type"], pmid=other["pmid"], refsource=source))
    return result


def _journals(db: Database, nlm_ids: list[str]) -> dict[str, dict[str, Any]]:
    wanted = sorted(set(nlm_ids))
    return {row["nlm_id"]: row for row in db.select(journals, _in("nlm_id", wanted), wanted)} if wanted else {}


def docsums(db: Database, rows: list[dict[str, Any]]) -> list[DocSum]:
    """ESummary document summaries of these records, in their order (authors, journals and links read in bulk)."""
    pmids = [row["pmid"] for row in rows]
    authors = _grouped(db, article_authors, pmids, "position")
    refs = _references(db, pmids)
    names = _journals(db, [row["nlm_id"] for row in rows])
    result = []
    for row in rows:
        journal = names[row["nlm_id"]]
        listed = [f"{a['last_name']} {a['initials']}" for a in authors[row["pmid"]]]
        ids = [ArticleId(idtype="pubmed", value=row["pmid"])]
        ids += [ArticleId(idtype=kind, value=row[col]) for kind, col in (("doi", "doi"), ("pmc", "pmc_id")) if row[col]]
        result.append(
            DocSum(
                uid=row["pmid"],
                pubdate=row["pub_date"],
                source=journal["iso_abbreviation"],
                authors=listed,
                lastauthor=listed[-1] if listed else "",
                title=row["title"],
                volume=row["volume"],
                issue=row["issue"],
                pages=row["pages"],
                fulljournalname=journal["title"],
                issn=journal["issn"],
                lang=row["language"],
                pubtype=row["publication_types"],
                articleids=ids,
                references=refs[row["pmid"]],
            )
        )
    return result


def records(db: Database, rows: list[dict[str, Any]]) -> list[Record]:
    """EFetch records of these rows, in their order."""
    pmids = [row["pmid"] for row in rows]
    authors = _grouped(db, article_authors, pmids, "position")
    headings = _grouped(db, mesh_headings, pmids, "descriptor")
    refs = _references(db, pmids)
    names = _journals(db, [row["nlm_id"] for row in rows])
    result = []
    for row in rows:
        journal = names[row["nlm_id"]]
        result.append(
            Record(
                pmid=row["pmid"],
                title=row["title"],
                abstract=row["abstract"],
                journal=Journal(
                    nlm_id=journal["nlm_id"],
                    title=journal["title"],
                    iso_abbreviation=journal["iso_abbreviation"],
                    issn=journal["issn"],
                    volume=row["volume"],
                    issue=row["issue"],
                    pub_date=row["pub_date"],
                ),
                pages=row["pages"],
                authors=[Author(**{k: a[k] for k in Author.model_fields}) for a in authors[row["pmid"]]],
                language=row["language"],
                publication_types=row["publication_types"],
                mesh_headings=[
                    MeshHeading(descriptor=m["descriptor"], major_topic=m["major_topic"]) for m in headings[row["pmid"]]
                ],
                keywords=row["keywords"],
                doi=row["doi"],
                pmc_id=row["pmc_id"],
                comments_corrections=refs[row["pmid"]],
            )
        )
    return result


def saved_search(row: dict[str, Any]) -> SavedSearch:
    return SavedSearch(**{k: row[k] for k in SavedSearch.model_fields})


def filter_object(row: dict[str, Any]) -> Filter:
    return Filter(**{k: row[k] for k in Filter.model_fields})


def bibliography_object(db: Database, account: dict[str, Any]) -> Bibliography:
    """My Bibliography of an account, newest publication first."""
    pmids = [row["pmid"] for row in db.select(bibliography, "owner_id = ?", (account["user_id"],))]
    rows = db.select(articles, _in("pmid", pmids), pmids, order_by="pub_date DESC, pmid DESC") if pmids else []
    return Bibliography(
        author_name=account["bibliography_author"],
        public=account["bibliography_public"],
        pmids=[r["pmid"] for r in rows],
        summaries=docsums(db, rows),
    )


def collection_object(db: Database, row: dict[str, Any]) -> Collection:
    """A collection with its owner's name and how many items it holds."""
    owner = db.get(accounts, row["owner_id"], "Account")
    count = len(db.select(collection_items, "collection_id = ?", (row["collection_id"],)))
    return Collection(
        collection_id=row["collection_id"],
        name=row["name"],
        owner=owner["full_name"],
        public=row["public"],
        is_favorites=row["is_favorites"],
        item_count=count,
    )
