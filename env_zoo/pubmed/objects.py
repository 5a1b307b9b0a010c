"""PubMed's E-utilities results (ESearch, ESummary DocSums, EFetch records, ELink link sets) and My NCBI's
objects as output models, and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from .schema import article_authors, articles, bibliography, comments_corrections, journals, mesh_headings


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


def _reference(db: Database, link: dict[str, Any]) -> Reference:
    other = db.get(articles, link["ref_pmid"], "PMID")
    journal = db.get(journals, other["nlm_id"], "Journal")
    source = f"{journal['iso_abbreviation']}. {other['pub_date'][:4]};{other['volume']}:{other['pages']}"
    return Reference(reftype=link["ref_type"], pmid=other["pmid"], refsource=source)


def references(db: Database, pmid: str) -> list[Reference]:
    return [
        _reference(db, link)
        for link in db.find(comments_corrections, pmid=pmid, order_by=[comments_corrections.c.ref_type])
    ]


def _authors(db: Database, pmid: str) -> list[dict[str, Any]]:
    return db.find(article_authors, pmid=pmid, order_by=[article_authors.c.position])


def docsum(db: Database, row: dict[str, Any]) -> DocSum:
    journal = db.get(journals, row["nlm_id"], "Journal")
    names = [f"{a['last_name']} {a['initials']}" for a in _authors(db, row["pmid"])]
    ids = [ArticleId(idtype="pubmed", value=row["pmid"])]
    ids += [
        ArticleId(idtype=kind, value=row[column]) for kind, column in (("doi", "doi"), ("pmc", "pmc_id")) if row[column]
    ]
    return DocSum(
        uid=row["pmid"],
        pubdate=row["pub_date"],
        source=journal["iso_abbreviation"],
        authors=names,
        lastauthor=names[-1] if names else "",
        title=row["title"],
        volume=row["volume"],
        issue=row["issue"],
        pages=row["pages"],
        fulljournalname=journal["title"],
        issn=journal["issn"],
        lang=row["language"],
        pubtype=row["publication_types"],
        articleids=ids,
        references=references(db, row["pmid"]),
    )


def record(db: Database, row: dict[str, Any]) -> Record:
    journal = db.get(journals, row["nlm_id"], "Journal")
    return Record(
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
        authors=[Author(**{k: a[k] for k in Author.model_fields}) for a in _authors(db, row["pmid"])],
        language=row["language"],
        publication_types=row["publication_types"],
        mesh_headings=[
            MeshHeading(descriptor=m["descriptor"], major_topic=m["major_topic"])
            for m in db.find(mesh_headings, pmid=row["pmid"], order_by=[mesh_headings.c.descriptor])
        ],
        keywords=row["keywords"],
        doi=row["doi"],
        pmc_id=row["pmc_id"],
        comments_corrections=references(db, row["pmid"]),
    )


def saved_search(row: dict[str, Any]) -> SavedSearch:
    return SavedSearch(**{k: row[k] for k in SavedSearch.model_fields})


def filter_object(row: dict[str, Any]) -> Filter:
    return Filter(**{k: row[k] for k in Filter.model_fields})


def bibliography_object(db: Database, account: dict[str, Any]) -> Bibliography:
    """My Bibliography of an account, newest publication first."""
    pmids = [row["pmid"] for row in db.find(bibliography, owner_id=account["user_id"])]
    rows = sorted((db.get(articles, p, "PMID") for p in pmids), key=lambda r: (r["pub_date"], r["pmid"]), reverse=True)
    return Bibliography(
        author_name=account["bibliography_author"],
        public=account["bibliography_public"],
        pmids=[r["pmid"] for r in rows],
        summaries=[docsum(db, r) for r in rows],
    )
