"""Semantic Scholar's API objects as output models (field names as in the Graph API's JSON), and how stored rows
become them."""

from __future__ import annotations

import re
from typing import Any

from envfactory_gym import Database
from pydantic import BaseModel, Field
from sqlalchemy import select

from .schema import authors, folder_papers, paper_authors, papers, venues

S2_URL = "https://www.semanticscholar.org"
TLDR_MODEL = "tldr@v2.0.0"
BIBTEX_STOPWORDS = {"a", "an", "the", "on", "of", "for", "in", "to", "and", "with", "is", "are", "via"}


# ---------------------------------------------------------------- the Academic Graph


class AuthorRef(BaseModel):
    """An author as listed on a paper."""

    authorId: str
    name: str


class PublicationVenue(BaseModel):
    """The normalized venue a paper was published in."""

    id: str
    name: str
    type: str = Field(description="journal or conference")
    alternate_names: list[str]
    url: str | None
    issn: str | None = None


class Journal(BaseModel):
    """Journal name, volume and pages as printed."""

    name: str | None
    volume: str | None = None
    pages: str | None = None


class OpenAccessPdf(BaseModel):
    """Where the free full text is."""

    url: str
    status: str = Field(description="GREEN, GOLD, HYBRID or BRONZE")
    license: str | None


class S2FieldOfStudy(BaseModel):
    """A field of study and where it comes from (external metadata or Semantic Scholar's classifier)."""

    category: str
    source: str


class Tldr(BaseModel):
    """Semantic Scholar's one-sentence AI summary."""

    model: str
    text: str


class CitationStyles(BaseModel):
    """Ready-made citations."""

    bibtex: str


class PaperSummary(BaseModel):
    """A paper as it appears in result lists."""

    paperId: str
    externalIds: dict[str, Any] = Field(description="DOI, ArXiv, ACL, PubMed, PubMedCentral, DBLP, MAG, CorpusId")
    title: str
    venue: str
    year: int | None
    publicationDate: str | None
    authors: list[AuthorRef]
    citationCount: int
    isOpenAccess: bool
    fieldsOfStudy: list[str]
    publicationTypes: list[str]


class Paper(PaperSummary):
    """A paper with all its details."""

    corpusId: int
    url: str
    abstract: str | None = Field(description="null where the publisher does not allow it to be shown")
    publicationVenue: PublicationVenue | None
    journal: Journal | None
    referenceCount: int
    influentialCitationCount: int
    openAccessPdf: OpenAccessPdf | None
    s2FieldsOfStudy: list[S2FieldOfStudy]
    tldr: Tldr | None
    citationStyles: CitationStyles


class Author(BaseModel):
    """An author page."""

    authorId: str
    externalIds: dict[str, Any]
    url: str
    name: str
    aliases: list[str]
    affiliations: list[str]
    homepage: str | None
    paperCount: int
    citationCount: int
    hIndex: int


class PaperSearchResult(BaseModel):
    """One page of relevance-ranked search results."""

    total: int = Field(description="how many papers match in all")
    offset: int
    next: int | None = Field(description="offset of the next page; absent on the last page")
    data: list[PaperSummary]


class AuthorSearchResult(BaseModel):
    """One page of author search results."""

    total: int
    offset: int
    next: int | None
    data: list[Author]


class Citation(BaseModel):
    """A paper citing the queried paper, with how it cites it."""

    contexts: list[str] = Field(description="sentences of the citing paper around the citation")
    intents: list[str] = Field(description="background, methodology and/or result")
    isInfluential: bool
    citingPaper: PaperSummary


class Reference(BaseModel):
    """A paper the queried paper cites, with how it cites it."""

    contexts: list[str]
    intents: list[str]
    isInfluential: bool
    citedPaper: PaperSummary


class CitationBatch(BaseModel):
    """One page of citations, newest citing papers first."""

    offset: int
    next: int | None
    data: list[Citation]


class ReferenceBatch(BaseModel):
    """One page of references, in the order of the paper's bibliography."""

    offset: int
    next: int | None
    data: list[Reference]


class AuthorPaperBatch(BaseModel):
    """One page of an author's papers, newest first."""

    offset: int
    next: int | None
    data: list[PaperSummary]


class Recommendations(BaseModel):
    """Papers recommended from positive and negative examples, best first."""

    recommendedPapers: list[PaperSummary]


# ---------------------------------------------------------------- the signed-in user's library


class LibraryFolder(BaseModel):
    """A folder of the user's library; its Research Feed recommends papers like the ones saved in it."""

    folderId: str
    name: str
    description: str
    privacySetting: str = Field(description="private or public (anyone with the link can see it)")
    recommendationStatus: str = Field(description="Enabled when the folder powers a Research Feed, else Disabled")
    paperCount: int
    createdAt: str
    modifiedAt: str


class LibraryEntry(BaseModel):
    """A paper saved in the user's library."""

    paperId: str
    title: str
    year: int | None
    venue: str
    authors: list[AuthorRef]
    folderIds: list[str] = Field(description="the folders it is in; empty when it is only in All Papers (unsorted)")
    source: str = Field(description="Library (saved by the user) or Feed (rated relevant in a Research Feed)")
    note: str | None
    addedAt: str


class LibraryPage(BaseModel):
    """One page of library entries, most recently added first."""

    total: int
    offset: int
    next: int | None
    data: list[LibraryEntry]


class LibraryRemoval(BaseModel):
    """What removing a paper took away."""

    paperId: str
    title: str
    removedFromFolderIds: list[str]
    stillInLibrary: bool = Field(description="false when the paper (and its note) left the library altogether")


class ResearchFeed(BaseModel):
    """A folder's Research Feed: recently published papers like the ones in the folder, best first."""

    folderId: str
    folderName: str
    recommendations: list[PaperSummary]


class FeedRating(BaseModel):
    """A rating given to a Research Feed recommendation."""

    folderId: str
    paperId: str
    rating: str = Field(description="relevant (the paper was saved into the folder) or not_relevant")
    savedToFolder: bool


class Alert(BaseModel):
    """An email alert."""

    alertId: str
    alertType: str = Field(
        description="PaperCitation (new citations of a paper), AuthorPaper (new papers by an "
        "author) or AuthorCitation (new citations of an author's papers)"
    )
    paperId: str | None
    paperTitle: str | None
    authorId: str | None
    authorName: str | None
    createdAt: str


class AuthorClaim(BaseModel):
    """A request to claim an author page."""

    claimId: str
    authorId: str
    authorName: str
    status: str = Field(description="pending_verification (waiting for the emailed link), approved or withdrawn")
    email: str = Field(description="where the verification link was sent")
    createdAt: str


# ---------------------------------------------------------------- row -> object


def _marks(values: list[Any]) -> str:
    return ", ".join("?" * len(values))


def bylines(db: Database, paper_ids: list[str]) -> dict[str, list[AuthorRef]]:
    """The authors of some papers in byline order, in one query."""
    ids = list(dict.fromkeys(paper_ids))
    out: dict[str, list[AuthorRef]] = {pid: [] for pid in ids}
    if not ids:
        return out
    stmt = (
        select(paper_authors.c.paper_id, authors.c.author_id, authors.c.name)
        .join(authors, paper_authors.c.author_id == authors.c.author_id)
        .where(paper_authors.c.paper_id.in_(ids))
        .order_by(paper_authors.c.paper_id, paper_authors.c.position)
    )
    for paper_id, author_id, name in db.conn.execute(stmt):
        out[paper_id].append(AuthorRef(authorId=author_id, name=name))
    return out


def _summary_fields(row: dict[str, Any], byline: list[AuthorRef]) -> dict[str, Any]:
    return {
        "paperId": row["paper_id"],
        "externalIds": row["external_ids"],
        "title": row["title"],
        "venue": row["venue"],
        "year": row["year"],
        "publicationDate": row["publication_date"],
        "authors": byline,
        "citationCount": row["citation_count"],
        "isOpenAccess": row["open_access_pdf"] is not None,
        "fieldsOfStudy": row["fields_of_study"],
        "publicationTypes": row["publication_types"],
    }


def paper_summaries(db: Database, rows: list[dict[str, Any]]) -> list[PaperSummary]:
    """Paper rows as they appear in lists."""
    names = bylines(db, [r["paper_id"] for r in rows])
    return [PaperSummary(**_summary_fields(r, names[r["paper_id"]])) for r in rows]


def citation_batch(
    db: Database, pairs: list[tuple[dict[str, Any], dict[str, Any]]], offset: int, following: int | None
) -> CitationBatch:
    """A page of (citation edge, citing paper) pairs."""
    return CitationBatch(
        offset=offset,
        next=following,
        data=[
            Citation(
                contexts=e["contexts"],
                intents=e["intents"],
                isInfluential=e["is_influential"],
                citingPaper=summary,
            )
            for (e, _), summary in zip(pairs, paper_summaries(db, [p for _, p in pairs]))
        ],
    )


def reference_batch(
    db: Database, pairs: list[tuple[dict[str, Any], dict[str, Any]]], offset: int, following: int | None
) -> ReferenceBatch:
    """A page of (citation edge, cited paper) pairs."""
    return ReferenceBatch(
        offset=offset,
        next=following,
        data=[
            Reference(
                contexts=e["contexts"],
                intents=e["intents"],
                isInfluential=e["is_influential"],
                citedPaper=summary,
            )
            for (e, _), summary in zip(pairs, paper_summaries(db, [p for _, p in pairs]))
        ],
    )


def bibtex(row: dict[str, Any], names: list[str], venue: dict[str, Any] | None) -> str:
    """A BibTeX entry in Semantic Scholar's style (key: surname, year, title initials)."""
    words = [w for w in re.findall(r"[A-Za-z0-9]+", row["title"]) if w.lower() not in BIBTEX_STOPWORDS]
    surname = re.sub(r"[^A-Za-z]", "", names[0].split()[-1]) if names else "Anonymous"
    initials = "".join(w[0].upper() for w in words[1:3])
    key = f"{surname}{row['year'] or ''}{words[0].capitalize() if words else ''}{initials}"
    journal_like = venue is not None and venue["type"] == "journal"
    kind, container = ("article", "journal") if journal_like or not venue else ("inproceedings", "booktitle")
    lines = [f"@{kind}{{{key},", f" author = {{{' and '.join(names)}}},"]
    if venue:
        lines.append(f" {container} = {{{venue['name']}}},")
    journal = row["journal"] or {}
    lines.append(f" title = {{{row['title']}}},")
    if journal.get("volume"):
        lines.append(f" volume = {{{journal['volume']}}},")
    if journal.get("pages"):
        lines.append(f" pages = {{{journal['pages']}}},")
    lines.append(f" year = {{{row['year']}}}")
    return "\n".join(lines) + "\n}"


def paper_object(db: Database, row: dict[str, Any]) -> Paper:
    """A paper row with every detail."""
    fields = _summary_fields(row, bylines(db, [row["paper_id"]])[row["paper_id"]])
    venue = db.get(venues, row["publication_venue_id"], "Venue") if row["publication_venue_id"] else None
    return Paper(
        **fields,
        corpusId=row["corpus_id"],
        url=f"{S2_URL}/paper/{row['paper_id']}",
        abstract=row["abstract"],
        publicationVenue=PublicationVenue(**venue) if venue else None,
        journal=Journal(**row["journal"]) if row["journal"] else None,
        referenceCount=row["reference_count"],
        influentialCitationCount=row["influential_citation_count"],
        openAccessPdf=OpenAccessPdf(**row["open_access_pdf"]) if row["open_access_pdf"] else None,
        s2FieldsOfStudy=[S2FieldOfStudy(**f) for f in row["s2_fields_of_study"]],
        tldr=Tldr(model=TLDR_MODEL, text=row["tldr"]) if row["tldr"] else None,
        citationStyles=CitationStyles(bibtex=bibtex(row, [a.name for a in fields["authors"]], venue)),
    )


def author_object(row: dict[str, Any]) -> Author:
    """An author row as an author page."""
    return Author(
        authorId=row["author_id"],
        externalIds=row["external_ids"],
        url=f"{S2_URL}/author/{row['author_id']}",
        name=row["name"],
        aliases=row["aliases"],
        affiliations=row["affiliations"],
        homepage=row["homepage"],
        paperCount=row["paper_count"],
        citationCount=row["citation_count"],
        hIndex=row["h_index"],
    )


def folder_object(db: Database, row: dict[str, Any]) -> LibraryFolder:
    """A folder row with its paper count."""
    return LibraryFolder(
        folderId=row["folder_id"],
        name=row["name"],
        description=row["description"],
        privacySetting=row["privacy_setting"],
        recommendationStatus=row["recommendation_status"],
        paperCount=len(db.find(folder_papers, folder_id=row["folder_id"])),
        createdAt=row["created_at"],
        modifiedAt=row["modified_at"],
    )


def entry_objects(db: Database, rows: list[dict[str, Any]]) -> list[LibraryEntry]:
    """Library entries with their papers' headlines and their folders."""
    ids = [r["paper_id"] for r in rows]
    if not ids:
        return []
    headlines = {p["paper_id"]: p for p in db.select(papers, f"paper_id IN ({_marks(ids)})", ids)}
    names = bylines(db, ids)
    filed: dict[str, list[str]] = {pid: [] for pid in ids}
    for link in db.select(folder_papers, f"paper_id IN ({_marks(ids)})", ids, order_by="folder_id"):
        filed[link["paper_id"]].append(link["folder_id"])
    return [
        LibraryEntry(
            paperId=row["paper_id"],
            title=headlines[row["paper_id"]]["title"],
            year=headlines[row["paper_id"]]["year"],
            venue=headlines[row["paper_id"]]["venue"],
            authors=names[row["paper_id"]],
            folderIds=sorted(filed[row["paper_id"]]),
            source=row["source"],
            note=row["note"],
            addedAt=row["added_at"],
        )
        for row in rows
    ]


def alert_object(db: Database, row: dict[str, Any]) -> Alert:
    """An alert with the name of what it watches."""
    paper = db.get(papers, row["paper_id"], "Paper") if row["paper_id"] else None
    author = db.get(authors, row["author_id"], "Author") if row["author_id"] else None
    return Alert(
        alertId=row["alert_id"],
        alertType=row["alert_type"],
        paperId=row["paper_id"],
        paperTitle=paper["title"] if paper else None,
        authorId=row["author_id"],
        authorName=author["name"] if author else None,
        createdAt=row["created_at"],
    )


def claim_object(db: Database, row: dict[str, Any]) -> AuthorClaim:
    """A claim with the claimed page's name."""
    return AuthorClaim(
        claimId=row["claim_id"],
        authorId=row["author_id"],
        authorName=db.get(authors, row["author_id"], "Author")["name"],
        status=row["status"],
        email=row["email"],
        createdAt=row["created_at"],
    )
