"""Semantic Scholar tools: the Academic Graph API (paper and author search, details, citations, references,
recommendations) and the account holder's library, Research Feeds, alerts and author page."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, InvalidRequest, Unordered, tool
from envfactory_gym.fields import ErrorText, NonBlankText, bounded, page_size

from .access import confirm_claim, own_author, page_changes, start_claim
from .graph import MAX_SEARCH_RESULTS, YEAR_PATTERN, author_papers, find_authors, linked, resolve_paper, search, window
from .objects import (
    Alert,
    Author,
    AuthorClaim,
    AuthorPaperBatch,
    AuthorSearchResult,
    CitationBatch,
    FeedRating,
    LibraryEntry,
    LibraryFolder,
    LibraryPage,
    LibraryRemoval,
    Paper,
    PaperSearchResult,
    Recommendations,
    ReferenceBatch,
    ResearchFeed,
    alert_object,
    author_object,
    citation_batch,
    claim_object,
    entry_objects,
    folder_object,
    paper_object,
    paper_summaries,
    reference_batch,
)
from .recommend import recommend
from .rules import (
    MAX_FOLDER_NAME,
    MAX_NOTE,
    add_alert,
    alert_target,
    drop_folder,
    feed,
    folder,
    folder_changes,
    folder_name,
    library_papers,
    rate,
    require_feed,
    save,
    take_out,
    touch,
    write_note,
)
from .schema import alerts, authors, library_entries, library_folders

FieldOfStudy = Literal[
    "Computer Science",
    "Medicine",
    "Chemistry",
    "Biology",
    "Materials Science",
    "Physics",
    "Geology",
    "Psychology",
    "Art",
    "History",
    "Geography",
    "Sociology",
    "Business",
    "Political Science",
    "Economics",
    "Philosophy",
    "Mathematics",
    "Engineering",
    "Environmental Science",
    "Agricultural and Food Sciences",
    "Education",
    "Law",
    "Linguistics",
]
PublicationType = Literal[
    "Review",
    "JournalArticle",
    "CaseReport",
    "ClinicalTrial",
    "Conference",
    "Dataset",
    "Editorial",
    "LettersAndComments",
    "MetaAnalysis",
    "News",
    "Study",
    "Book",
    "BookSection",
]
AlertType = Literal["PaperCitation", "AuthorPaper", "AuthorCitation"]
YearRange = Annotated[str, Field(pattern=YEAR_PATTERN), ErrorText("Invalid year: use 2019, 2016-2020, 2010- or -2015")]
Offset = Annotated[bounded(0), ErrorText("offset must be >= 0")]
FolderName = Annotated[
    str,
    Field(max_length=MAX_FOLDER_NAME, pattern=r"\S"),
    ErrorText(f"A folder name has 1 to {MAX_FOLDER_NAME} characters."),
]
NoteText = Annotated[str, Field(max_length=MAX_NOTE), ErrorText(f"A note can have at most {MAX_NOTE} characters.")]


# ---------------------------------------------------------------- papers


@tool(read_only=True)
def search_papers(
    db: Database,
    query: NonBlankText,
    year: YearRange | None = None,
    fields_of_study: list[FieldOfStudy] | None = None,
    publication_types: list[PublicationType] | None = None,
    venue: list[str] | None = None,
    open_access_pdf: bool = False,
    min_citation_count: bounded(0) | None = None,
    offset: Offset = 0,
    limit: page_size(100) = 10,
) -> PaperSearchResult:
    """Relevance search over papers (GET /graph/v1/paper/search): words are matched against titles, authors,
    abstracts and venues. Only the first 1,000 relevance-ranked results can be retrieved (offset + limit <= 1000).

    Args:
        query: Plain-text search words, e.g. "dense passage retrieval".
        year: Publication year or range: 2019, 2016-2020, 2010- or -2015.
        fields_of_study: Keep papers in any of these fields of study.
        publication_types: Keep papers of any of these publication types.
        venue: Keep papers published in any of these venues (name or abbreviation, e.g. "ACL", "Nature").
        open_access_pdf: true to keep only papers with a free full-text PDF.
        min_citation_count: Keep papers cited at least this many times.
        offset: Index of the first result to return.
        limit: Results per page, 1 to 100 (default 10).
    """
    if offset + limit > MAX_SEARCH_RESULTS:
        raise InvalidRequest("Only the first 1000 relevance-ranked results can be retrieved (offset + limit <= 1000)")
    ranked = search(db, query, year, fields_of_study, publication_types, venue, open_access_pdf, min_citation_count)
    data, following = window(ranked, offset, limit)
    return PaperSearchResult(total=len(ranked), offset=offset, next=following, data=paper_summaries(db, data))


@tool(read_only=True)
def get_paper(db: Database, paper_id: str) -> Paper:
    """Details of one paper (GET /graph/v1/paper/{paper_id}): abstract, TLDR, venue, externalIds (DOI, arXiv, ...),
    authors, citation counts, open-access PDF and a BibTeX citation.

    Args:
        paper_id: A paperId (40 hex characters) or a prefixed id: CorpusId:215416146, DOI:10.18653/v1/N19-1423,
            ARXIV:1706.03762, PMID:34265844, PMCID:PMC8371605, ACL:N18-3011, MAG:2963403868 or URL:<paper URL>.
    """
    return paper_object(db, resolve_paper(db, paper_id))


@tool(read_only=True)
def get_paper_citations(db: Database, paper_id: str, offset: Offset = 0, limit: page_size(1000) = 100) -> CitationBatch:
    """Papers that cite this paper (GET /graph/v1/paper/{paper_id}/citations), newest first, each with the citation
    contexts, intents and whether the citation is influential.

    Args:
        paper_id: The cited paper, as a paperId or a prefixed id (DOI:, ARXIV:, CorpusId:, ...).
        offset: Index of the first citation to return.
        limit: Citations per page, 1 to 1000 (default 100).
    """
    data, following = window(linked(db, paper_id, "citations"), offset, limit)
    return citation_batch(db, data, offset, following)


@tool(read_only=True)
def get_paper_references(
    db: Database, paper_id: str, offset: Offset = 0, limit: page_size(1000) = 100
) -> ReferenceBatch:
    """Papers this paper cites (GET /graph/v1/paper/{paper_id}/references), oldest first, each with the citation
    contexts, intents and whether the citation is influential.

    Args:
        paper_id: The citing paper, as a paperId or a prefixed id (DOI:, ARXIV:, CorpusId:, ...).
        offset: Index of the first reference to return.
        limit: References per page, 1 to 1000 (default 100).
    """
    data, following = window(linked(db, paper_id, "references"), offset, limit)
    return reference_batch(db, data, offset, following)


@tool(read_only=True)
def get_recommendations(
    db: Database,
    positive_paper_ids: Annotated[
        list[str], Field(min_length=1), ErrorText("positivePaperIds must contain at least one paper")
    ],
    negative_paper_ids: list[str] | None = None,
    limit: page_size(500) = 10,
) -> Recommendations:
    """Papers like a list of example papers and unlike another (POST /recommendations/v1/papers), best first.

    Args:
        positive_paper_ids: Papers to find similar ones to (paperIds or prefixed ids), at least one.
        negative_paper_ids: Papers whose likes should be pushed down.
        limit: How many recommendations, 1 to 500 (default 10).
    """
    positive = [resolve_paper(db, p)["paper_id"] for p in positive_paper_ids]
    negative = [resolve_paper(db, p)["paper_id"] for p in negative_paper_ids or []]
    both = set(positive) & set(negative)
    if both:
        raise InvalidRequest(f"Paper {min(both)} is both a positive and a negative example")
    return Recommendations(recommendedPapers=paper_summaries(db, recommend(db, positive, negative)[:limit]))


# ---------------------------------------------------------------- authors


@tool(read_only=True)
def search_authors(
    db: Database, query: NonBlankText, offset: Offset = 0, limit: page_size(1000) = 10
) -> AuthorSearchResult:
    """Find authors by name (GET /graph/v1/author/search); every word must start a word of the name or an alias.
    Most cited first.

    Args:
        query: The author's name, e.g. "Iz Beltagy" or "Beltagy".
        offset: Index of the first author to return.
        limit: Authors per page, 1 to 1000 (default 10).
    """
    found = find_authors(db, query)
    data, following = window(found, offset, limit)
    return AuthorSearchResult(total=len(found), offset=offset, next=following, data=[author_object(a) for a in data])


@tool(read_only=True)
def get_author(db: Database, author_id: str) -> Author:
    """An author page (GET /graph/v1/author/{author_id}): name, aliases, affiliations, homepage, paper count,
    citation count and h-index.

    Args:
        author_id: The author's Semantic Scholar id, a number such as "1741101".
    """
    return author_object(db.get(authors, author_id.strip(), "Author"))


@tool(read_only=True)
def get_author_papers(
    db: Database, author_id: str, offset: Offset = 0, limit: page_size(1000) = 100
) -> AuthorPaperBatch:
    """An author's papers (GET /graph/v1/author/{author_id}/papers), newest first.

    Args:
        author_id: The author's Semantic Scholar id.
        offset: Index of the first paper to return.
        limit: Papers per page, 1 to 1000 (default 100).
    """
    data, following = window(author_papers(db, author_id), offset, limit)
    return AuthorPaperBatch(offset=offset, next=following, data=paper_summaries(db, data))


# ---------------------------------------------------------------- library folders


@tool(read_only=True)
def list_library_folders(db: Database) -> list[LibraryFolder]:
    """List the folders of your library with their paper counts, privacy and whether each powers a Research Feed."""
    return [folder_object(db, r) for r in db.find(library_folders, order_by=[library_folders.c.name])]


@tool()
def create_library_folder(
    db: Database, name: FolderName, description: str = "", privacy_setting: Literal["private", "public"] = "private"
) -> LibraryFolder:
    """Create a library folder. Its Research Feed starts off; turn it on once the folder holds papers.

    Args:
        name: Folder name, 1 to 100 characters, unique among your folders (case-insensitive).
        description: What the folder is for.
        privacy_setting: private (only you) or public (anyone with the link).
    """
    now = db.now_iso()
    row = db.insert(
        library_folders,
        folder_id=db.new_id(library_folders, "148", width=5),
        name=folder_name(db, name),
        description=description.strip(),
        privacy_setting=privacy_setting,
        recommendation_status="Disabled",
        created_at=now,
        modified_at=now,
    )
    return folder_object(db, row)


@tool()
def update_library_folder(
    db: Database,
    folder_id: str,
    name: FolderName | None = None,
    description: str | None = None,
    privacy_setting: Literal["private", "public"] | None = None,
    recommendation_status: Literal["Enabled", "Disabled"] | None = None,
) -> LibraryFolder:
    """Rename a folder, change its description or privacy, or turn its Research Feed on or off. A feed can only be
    turned on for a folder that holds at least one paper.

    Args:
        folder_id: The folder's id, from list_library_folders.
        name: New name, unique among your folders.
        description: New description.
        privacy_setting: private or public.
        recommendation_status: Enabled to power a Research Feed from this folder, Disabled to stop it.
    """
    row = folder(db, folder_id)
    db.update(
        library_folders,
        folder_id,
        **folder_changes(db, row, name, description, privacy_setting, recommendation_status),
    )
    return folder_object(db, touch(db, folder_id))


@tool()
def delete_library_folder(db: Database, folder_id: str) -> LibraryFolder:
    """Delete a folder and its Research Feed. Its papers stay in your library (under All Papers and any other
    folders they are in).

    Args:
        folder_id: The folder's id, from list_library_folders.
    """
    gone = folder_object(db, folder(db, folder_id))
    drop_folder(db, folder_id)
    return gone


# ---------------------------------------------------------------- library papers


@tool(read_only=True)
def list_library_papers(
    db: Database, folder_id: str | None = None, offset: Offset = 0, limit: page_size(100) = 50
) -> LibraryPage:
    """List the papers saved in your library, or in one folder, most recently added first, with their folders and
    notes.

    Args:
        folder_id: Only papers in this folder; all saved papers when omitted.
        offset: Index of the first paper to return.
        limit: Papers per page, 1 to 100 (default 50).
    """
    rows = library_papers(db, folder_id)
    data, following = window(rows, offset, limit)
    return LibraryPage(total=len(rows), offset=offset, next=following, data=entry_objects(db, data))


@tool()
def save_to_library(
    db: Database, paper_id: str, folder_ids: Annotated[list[str], Unordered] | None = None
) -> LibraryEntry:
    """Save a paper to your library and, optionally, into folders (a paper can be in several folders). Saving into
    a folder also trains that folder's Research Feed.

    Args:
        paper_id: The paper, as a paperId or a prefixed id (DOI:, ARXIV:, CorpusId:, ...).
        folder_ids: Folders to put it in; without any it goes to All Papers only.
    """
    row = save(db, resolve_paper(db, paper_id), folder_ids or [], source="Library")
    return entry_objects(db, [db.get(library_entries, row["paper_id"], "Library entry")])[0]


@tool()
def remove_from_library(db: Database, paper_id: str, folder_id: str | None = None) -> LibraryRemoval:
    """Take a paper out of one folder (it stays in your library), or, without a folder, remove it from your library
    altogether: from every folder, together with its note.

    Args:
        paper_id: The paper, as a paperId or a prefixed id.
        folder_id: The folder to take it out of; omit to remove the paper from the library.
    """
    paper = resolve_paper(db, paper_id)
    left = take_out(db, paper, folder_id)
    return LibraryRemoval(
        paperId=paper["paper_id"], title=paper["title"], removedFromFolderIds=left, stillInLibrary=folder_id is not None
    )


@tool()
def set_paper_note(db: Database, paper_id: str, text: NoteText) -> LibraryEntry:
    """Write the note of a paper in your library (replacing any earlier note); an empty text deletes the note. Only
    saved papers can have notes.

    Args:
        paper_id: The paper, as a paperId or a prefixed id.
        text: The note, at most 2000 characters; "" deletes it.
    """
    return entry_objects(db, [write_note(db, resolve_paper(db, paper_id), text)])[0]


# ---------------------------------------------------------------- research feeds


@tool(read_only=True)
def get_research_feed(db: Database, folder_id: str, limit: page_size(100) = 10) -> ResearchFeed:
    """A folder's Research Feed: papers published in the last two years that resemble the folder's papers (and not
    the ones rated not relevant), leaving out papers already in your library. The folder's feed must be enabled.

    Args:
        folder_id: The folder whose feed to read.
        limit: How many recommendations, 1 to 100 (default 10).
    """
    row = require_feed(db, folder_id)
    return ResearchFeed(
        folderId=folder_id,
        folderName=row["name"],
        recommendations=paper_summaries(db, feed(db, row)[:limit]),
    )


@tool()
def rate_feed_paper(
    db: Database, folder_id: str, paper_id: str, rating: Literal["relevant", "not_relevant"]
) -> FeedRating:
    """Rate a paper that a folder's Research Feed currently recommends: relevant saves it into the folder (and your
    library); not_relevant removes it from the feed and teaches the feed to show fewer papers like it.

    Args:
        folder_id: The folder whose feed recommended the paper.
        paper_id: The recommended paper, as a paperId or a prefixed id.
        rating: relevant or not_relevant.
    """
    paper = resolve_paper(db, paper_id)
    rate(db, require_feed(db, folder_id), paper, rating)
    return FeedRating(folderId=folder_id, paperId=paper["paper_id"], rating=rating, savedToFolder=rating == "relevant")


# ---------------------------------------------------------------- alerts


@tool(read_only=True)
def list_alerts(db: Database) -> list[Alert]:
    """List your email alerts: new citations of a paper, new papers by an author, new citations of an author."""
    return [alert_object(db, r) for r in db.find(alerts, order_by=[alerts.c.created_at])]


@tool()
def create_alert(
    db: Database, alert_type: AlertType, paper_id: str | None = None, author_id: str | None = None
) -> Alert:
    """Create an email alert: PaperCitation (someone cites a paper; give paper_id), AuthorPaper (an author publishes
    a paper) or AuthorCitation (someone cites an author's work); the author alerts take author_id.

    Args:
        alert_type: PaperCitation, AuthorPaper or AuthorCitation.
        paper_id: The paper to watch, for PaperCitation (paperId or prefixed id).
        author_id: The author to watch, for AuthorPaper and AuthorCitation.
    """
    alert_target(alert_type, paper_id, author_id)
    paper = resolve_paper(db, paper_id)["paper_id"] if paper_id is not None else None
    return alert_object(db, add_alert(db, alert_type, paper, author_id.strip() if author_id is not None else None))


@tool()
def delete_alert(db: Database, alert_id: str) -> Alert:
    """Delete an email alert.

    Args:
        alert_id: The alert's id, from list_alerts.
    """
    gone = alert_object(db, db.get(alerts, alert_id, "Alert"))
    db.delete(alerts, alert_id)
    return gone


# ---------------------------------------------------------------- your author page


@tool()
def claim_author_page(db: Database, author_id: str) -> AuthorClaim:
    """Claim an author page as your own. Semantic Scholar emails a verification link to your account address; the
    claim stays pending_verification until you open it. An account can claim one author page, and a page someone
    else has claimed cannot be claimed. Claiming another page withdraws a pending claim.

    Args:
        author_id: The Semantic Scholar id of your author page.
    """
    return claim_object(db, start_claim(db, db.get(authors, author_id.strip(), "Author")))


@tool(user_only=True)
def open_claim_verification_link(db: Database) -> AuthorClaim:
    """(Account holder only, in their email inbox) Open the verification link Semantic Scholar emailed for the
    pending author-page claim, which approves it and links the page to the account."""
    return claim_object(db, confirm_claim(db))


@tool()
def update_author_page(
    db: Database,
    name: Annotated[str, Field(max_length=100, pattern=r"\S"), ErrorText("A name has 1 to 100 characters.")]
    | None = None,
    affiliations: Annotated[list[str], Field(max_length=5), ErrorText("An author page lists at most 5 affiliations.")]
    | None = None,
    homepage: Annotated[
        str, Field(pattern=r"^(https?://\S*)?$"), ErrorText("homepage must be an http:// or https:// URL.")
    ]
    | None = None,
) -> Author:
    """Edit your claimed and verified author page: display name (the old one is kept as an alias), affiliations
    and homepage.

    Args:
        name: The name to display, 1 to 100 characters.
        affiliations: The full list of affiliations to show (replaces the current list), at most 5.
        homepage: An http(s) URL, or "" to remove it.
    """
    author = own_author(db)
    return author_object(db.update(authors, author["author_id"], **page_changes(author, name, affiliations, homepage)))
