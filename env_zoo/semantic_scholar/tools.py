"""Semantic Scholar tools: the Academic Graph API (paper and author search, details, citations, references,
recommendations) and the signed-in user's library, Research Feeds, alerts and author page."""

from __future__ import annotations

from typing import Annotated, Literal

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Unordered, tool

from .account import check_claimable, me, own_author, pending_claim, require_pending
from .graph import (
    MAX_SEARCH_RESULTS,
    in_years,
    names_by_paper,
    relevance,
    resolve_paper,
    terms,
    window,
    year_bounds,
)
from .library import (
    entry,
    feed,
    folder,
    folder_name,
    members,
    require_feed,
    save,
    touch,
    unfile,
)
from .objects import (
    Alert,
    Author,
    AuthorClaim,
    AuthorPaperBatch,
    AuthorSearchResult,
    Citation,
    CitationBatch,
    FeedRating,
    LibraryEntry,
    LibraryFolder,
    LibraryPage,
    LibraryRemoval,
    Paper,
    PaperSearchResult,
    Recommendations,
    Reference,
    ReferenceBatch,
    ResearchFeed,
    alert_object,
    author_object,
    claim_object,
    entry_object,
    folder_object,
    paper_object,
    paper_summary,
)
from .recommend import recommend
from .schema import (
    account,
    alerts,
    author_claims,
    authors,
    citations,
    feed_ratings,
    folder_papers,
    library_entries,
    library_folders,
    paper_authors,
    papers,
    venues,
)

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
MAX_NOTE = 2000
MAX_AFFILIATIONS = 5
MAX_AUTHOR_NAME = 100


# ---------------------------------------------------------------- papers


@tool(read_only=True)
def search_papers(
    db: Database,
    query: str,
    year: str | None = None,
    fields_of_study: list[FieldOfStudy] | None = None,
    publication_types: list[PublicationType] | None = None,
    venue: list[str] | None = None,
    open_access_pdf: bool = False,
    min_citation_count: int | None = None,
    offset: int = 0,
    limit: int = 10,
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
    words = terms(query)
    if not words:
        raise InvalidRequest("query must contain at least one search word")
    bounds = year_bounds(year) if year is not None else None
    wanted_venues = {v.strip().casefold() for v in venue or []}
    venue_names = {
        v["id"]: {v["name"].casefold(), *(a.casefold() for a in v["alternate_names"])} for v in db.find(venues)
    }
    people = names_by_paper(db)
    scored = []
    for row in db.find(papers):
        if bounds and not in_years(row, bounds):
            continue
        if fields_of_study and not set(fields_of_study) & set(row["fields_of_study"]):
            continue
        if publication_types and not set(publication_types) & set(row["publication_types"]):
            continue
        names = {row["venue"].casefold()} | venue_names.get(row["publication_venue_id"], set())
        if wanted_venues and not wanted_venues & names:
            continue
        if open_access_pdf and row["open_access_pdf"] is None:
            continue
        if min_citation_count is not None and row["citation_count"] < min_citation_count:
            continue
        score = relevance(words, row, people.get(row["paper_id"], ""))
        if score > 0:
            scored.append((-score, -row["citation_count"], row["paper_id"], row))
    ranked = [item[3] for item in sorted(scored, key=lambda item: item[:3])]
    data, following = window(ranked, offset, limit, 100)
    return PaperSearchResult(
        total=len(ranked), offset=offset, next=following, data=[paper_summary(db, r) for r in data]
    )


@tool(read_only=True)
def get_paper(db: Database, paper_id: str) -> Paper:
    """Details of one paper (GET /graph/v1/paper/{paper_id}): abstract, TLDR, venue, externalIds (DOI, arXiv, ...),
    authors, citation counts, open-access PDF and a BibTeX citation.

    Args:
        paper_id: A paperId (40 hex characters) or a prefixed id: CorpusId:215416146, DOI:10.18653/v1/N19-1423,
            ARXIV:1706.03762, PMID:34265844, PMCID:PMC8371605, ACL:N18-3011, MAG:2963403868 or URL:<paper URL>.
    """
    return paper_object(db, resolve_paper(db, paper_id))


def _edges(db: Database, paper_id: str, column: str) -> list[dict]:
    """Citation rows of a paper: those where it is `column` (citing or cited)."""
    return db.find(citations, **{column: resolve_paper(db, paper_id)["paper_id"]})


@tool(read_only=True)
def get_paper_citations(db: Database, paper_id: str, offset: int = 0, limit: int = 100) -> CitationBatch:
    """Papers that cite this paper (GET /graph/v1/paper/{paper_id}/citations), newest first, each with the citation
    contexts, intents and whether the citation is influential.

    Args:
        paper_id: The cited paper, as a paperId or a prefixed id (DOI:, ARXIV:, CorpusId:, ...).
        offset: Index of the first citation to return.
        limit: Citations per page, 1 to 1000 (default 100).
    """
    rows = [(e, db.get(papers, e["citing_paper_id"], "Paper")) for e in _edges(db, paper_id, "cited_paper_id")]
    rows.sort(key=lambda pair: (pair[1]["publication_date"] or "", pair[1]["paper_id"]), reverse=True)
    data, following = window(rows, offset, limit, 1000)
    return CitationBatch(
        offset=offset,
        next=following,
        data=[
            Citation(
                contexts=e["contexts"],
                intents=e["intents"],
                isInfluential=e["is_influential"],
                citingPaper=paper_summary(db, p),
            )
            for e, p in data
        ],
    )


@tool(read_only=True)
def get_paper_references(db: Database, paper_id: str, offset: int = 0, limit: int = 100) -> ReferenceBatch:
    """Papers this paper cites (GET /graph/v1/paper/{paper_id}/references), oldest first, each with the citation
    contexts, intents and whether the citation is influential.

    Args:
        paper_id: The citing paper, as a paperId or a prefixed id (DOI:, ARXIV:, CorpusId:, ...).
        offset: Index of the first reference to return.
        limit: References per page, 1 to 1000 (default 100).
    """
    rows = [(e, db.get(papers, e["cited_paper_id"], "Paper")) for e in _edges(db, paper_id, "citing_paper_id")]
    rows.sort(key=lambda pair: (pair[1]["publication_date"] or "", pair[1]["paper_id"]))
    data, following = window(rows, offset, limit, 1000)
    return ReferenceBatch(
        offset=offset,
        next=following,
        data=[
            Reference(
                contexts=e["contexts"],
                intents=e["intents"],
                isInfluential=e["is_influential"],
                citedPaper=paper_summary(db, p),
            )
            for e, p in data
        ],
    )


@tool(read_only=True)
def get_recommendations(
    db: Database, positive_paper_ids: list[str], negative_paper_ids: list[str] | None = None, limit: int = 10
) -> Recommendations:
    """Papers like a list of example papers and unlike another (POST /recommendations/v1/papers), best first.

    Args:
        positive_paper_ids: Papers to find similar ones to (paperIds or prefixed ids), at least one.
        negative_paper_ids: Papers whose likes should be pushed down.
        limit: How many recommendations, 1 to 500 (default 10).
    """
    if not positive_paper_ids:
        raise InvalidRequest("positivePaperIds must contain at least one paper")
    if not 1 <= limit <= 500:
        raise InvalidRequest("limit must be between 1 and 500")
    positive = [resolve_paper(db, p)["paper_id"] for p in positive_paper_ids]
    negative = [resolve_paper(db, p)["paper_id"] for p in negative_paper_ids or []]
    both = set(positive) & set(negative)
    if both:
        raise InvalidRequest(f"Paper {min(both)} is both a positive and a negative example")
    return Recommendations(recommendedPapers=[paper_summary(db, r) for r in recommend(db, positive, negative)[:limit]])


# ---------------------------------------------------------------- authors


@tool(read_only=True)
def search_authors(db: Database, query: str, offset: int = 0, limit: int = 10) -> AuthorSearchResult:
    """Find authors by name (GET /graph/v1/author/search); every word must start a word of the name or an alias.
    Most cited first.

    Args:
        query: The author's name, e.g. "Iz Beltagy" or "Beltagy".
        offset: Index of the first author to return.
        limit: Authors per page, 1 to 1000 (default 10).
    """
    words = [w.strip(".").casefold() for w in query.split() if w.strip(".")]
    if not words:
        raise InvalidRequest("query must contain a name")

    def matches(row: dict) -> bool:
        return any(
            all(any(part.casefold().startswith(w) for part in name.replace(".", " ").split()) for w in words)
            for name in [row["name"], *row["aliases"]]
        )

    found = sorted((a for a in db.find(authors) if matches(a)), key=lambda a: (-a["citation_count"], a["author_id"]))
    data, following = window(found, offset, limit, 1000)
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
def get_author_papers(db: Database, author_id: str, offset: int = 0, limit: int = 100) -> AuthorPaperBatch:
    """An author's papers (GET /graph/v1/author/{author_id}/papers), newest first.

    Args:
        author_id: The author's Semantic Scholar id.
        offset: Index of the first paper to return.
        limit: Papers per page, 1 to 1000 (default 100).
    """
    db.get(authors, author_id.strip(), "Author")
    rows = [db.get(papers, a["paper_id"], "Paper") for a in db.find(paper_authors, author_id=author_id.strip())]
    rows.sort(key=lambda r: (r["publication_date"] or "", r["paper_id"]), reverse=True)
    data, following = window(rows, offset, limit, 1000)
    return AuthorPaperBatch(offset=offset, next=following, data=[paper_summary(db, r) for r in data])


# ---------------------------------------------------------------- library folders


@tool(read_only=True)
def list_library_folders(db: Database) -> list[LibraryFolder]:
    """List the folders of your library with their paper counts, privacy and whether each powers a Research Feed."""
    return [folder_object(db, r) for r in db.find(library_folders, order_by=[library_folders.c.name])]


@tool()
def create_library_folder(
    db: Database, name: str, description: str = "", privacy_setting: Literal["private", "public"] = "private"
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
    name: str | None = None,
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
    changes: dict[str, str] = {}
    if name is not None:
        changes["name"] = folder_name(db, name, renaming=folder_id)
    if description is not None:
        changes["description"] = description.strip()
    if privacy_setting is not None:
        changes["privacy_setting"] = privacy_setting
    if recommendation_status is not None:
        if recommendation_status == "Enabled" and not members(db, folder_id):
            raise Conflict(
                f"'{row['name']}' is empty: save at least one paper to it before turning on its Research Feed."
            )
        changes["recommendation_status"] = recommendation_status
    if not changes:
        raise InvalidRequest("Nothing to update: give a name, description, privacy_setting or recommendation_status.")
    db.update(library_folders, folder_id, **changes)
    return folder_object(db, touch(db, folder_id))


@tool()
def delete_library_folder(db: Database, folder_id: str) -> LibraryFolder:
    """Delete a folder and its Research Feed. Its papers stay in your library (under All Papers and any other
    folders they are in).

    Args:
        folder_id: The folder's id, from list_library_folders.
    """
    gone = folder_object(db, folder(db, folder_id))
    db.conn.execute(folder_papers.delete().where(folder_papers.c.folder_id == folder_id))
    db.conn.execute(feed_ratings.delete().where(feed_ratings.c.folder_id == folder_id))
    db.delete(library_folders, folder_id)
    return gone


# ---------------------------------------------------------------- library papers


@tool(read_only=True)
def list_library_papers(db: Database, folder_id: str | None = None, offset: int = 0, limit: int = 50) -> LibraryPage:
    """List the papers saved in your library, or in one folder, most recently added first, with their folders and
    notes.

    Args:
        folder_id: Only papers in this folder; all saved papers when omitted.
        offset: Index of the first paper to return.
        limit: Papers per page, 1 to 100 (default 50).
    """
    if folder_id is None:
        rows = db.find(library_entries)
        rows.sort(key=lambda r: (r["added_at"], r["paper_id"]), reverse=True)
    else:
        folder(db, folder_id)
        filed = sorted(
            db.find(folder_papers, folder_id=folder_id), key=lambda m: (m["added_at"], m["paper_id"]), reverse=True
        )
        rows = [db.get(library_entries, m["paper_id"], "Library entry") for m in filed]
    data, following = window(rows, offset, limit, 100)
    return LibraryPage(total=len(rows), offset=offset, next=following, data=[entry_object(db, r) for r in data])


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
    return entry_object(db, db.get(library_entries, row["paper_id"], "Library entry"))


@tool()
def remove_from_library(db: Database, paper_id: str, folder_id: str | None = None) -> LibraryRemoval:
    """Take a paper out of one folder (it stays in your library), or, without a folder, remove it from your library
    altogether: from every folder, together with its note.

    Args:
        paper_id: The paper, as a paperId or a prefixed id.
        folder_id: The folder to take it out of; omit to remove the paper from the library.
    """
    paper = resolve_paper(db, paper_id)
    entry(db, paper)
    if folder_id is not None:
        target = folder(db, folder_id)
        if not db.find(folder_papers, folder_id=folder_id, paper_id=paper["paper_id"]):
            raise Conflict(f"'{paper['title']}' is not in the folder '{target['name']}'.")
        unfile(db, folder_id, paper["paper_id"])
        return LibraryRemoval(
            paperId=paper["paper_id"], title=paper["title"], removedFromFolderIds=[folder_id], stillInLibrary=True
        )
    filed = sorted(m["folder_id"] for m in db.find(folder_papers, paper_id=paper["paper_id"]))
    for fid in filed:
        unfile(db, fid, paper["paper_id"])
    db.delete(library_entries, paper["paper_id"])
    return LibraryRemoval(
        paperId=paper["paper_id"], title=paper["title"], removedFromFolderIds=filed, stillInLibrary=False
    )


@tool()
def set_paper_note(db: Database, paper_id: str, text: str) -> LibraryEntry:
    """Write the note of a paper in your library (replacing any earlier note); an empty text deletes the note. Only
    saved papers can have notes.

    Args:
        paper_id: The paper, as a paperId or a prefixed id.
        text: The note, at most 2000 characters; "" deletes it.
    """
    paper = resolve_paper(db, paper_id)
    saved = entry(db, paper)
    if len(text) > MAX_NOTE:
        raise InvalidRequest(f"A note can have at most {MAX_NOTE} characters.")
    if not text.strip() and saved["note"] is None:
        raise Conflict(f"'{paper['title']}' has no note to delete.")
    note = text.strip() or None
    row = db.update(library_entries, paper["paper_id"], note=note, note_updated_at=db.now_iso() if note else None)
    return entry_object(db, row)


# ---------------------------------------------------------------- research feeds


@tool(read_only=True)
def get_research_feed(db: Database, folder_id: str, limit: int = 10) -> ResearchFeed:
    """A folder's Research Feed: papers published in the last two years that resemble the folder's papers (and not
    the ones rated not relevant), leaving out papers already in your library. The folder's feed must be enabled.

    Args:
        folder_id: The folder whose feed to read.
        limit: How many recommendations, 1 to 100 (default 10).
    """
    row = require_feed(db, folder_id)
    if not 1 <= limit <= 100:
        raise InvalidRequest("limit must be between 1 and 100")
    return ResearchFeed(
        folderId=folder_id,
        folderName=row["name"],
        recommendations=[paper_summary(db, r) for r in feed(db, row)[:limit]],
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
    row = require_feed(db, folder_id)
    paper = resolve_paper(db, paper_id)
    if paper["paper_id"] not in {r["paper_id"] for r in feed(db, row)}:
        raise NotFound(f"'{paper['title']}' is not in the Research Feed of '{row['name']}'")
    if rating == "relevant":
        save(db, paper, [folder_id], source="Feed")
    else:
        db.insert(feed_ratings, folder_id=folder_id, paper_id=paper["paper_id"], rating=rating, created_at=db.now_iso())
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
    if alert_type == "PaperCitation":
        if paper_id is None or author_id is not None:
            raise InvalidRequest("A PaperCitation alert takes a paper_id and no author_id.")
        target = {"paper_id": resolve_paper(db, paper_id)["paper_id"], "author_id": None}
    else:
        if author_id is None or paper_id is not None:
            raise InvalidRequest(f"An {alert_type} alert takes an author_id and no paper_id.")
        target = {"paper_id": None, "author_id": db.get(authors, author_id.strip(), "Author")["author_id"]}
    if db.find(alerts, alert_type=alert_type, **{k: v for k, v in target.items() if v is not None}):
        raise Conflict("You already have this alert.")
    row = db.insert(
        alerts, alert_id=db.new_id(alerts, "5602", width=3), alert_type=alert_type, created_at=db.now_iso(), **target
    )
    return alert_object(db, row)


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
    author = db.get(authors, author_id.strip(), "Author")
    check_claimable(db, author)
    waiting = pending_claim(db)
    if waiting is not None:
        if waiting["author_id"] == author["author_id"]:
            raise Conflict(
                f"Your claim of {author['name']} is already waiting for you to open the verification "
                "link we emailed you."
            )
        db.update(author_claims, waiting["claim_id"], status="withdrawn")
    user = me(db)
    row = db.insert(
        author_claims,
        claim_id=db.new_id(author_claims, "32", width=3),
        author_id=author["author_id"],
        user_id=user["user_id"],
        email=user["email"],
        status="pending_verification",
        created_at=db.now_iso(),
        verified_at=None,
    )
    return claim_object(db, row)


@tool(user_only=True)
def open_claim_verification_link(db: Database) -> AuthorClaim:
    """(Account holder only, in their email inbox) Open the verification link Semantic Scholar emailed for the
    pending author-page claim, which approves it and links the page to the account."""
    claim = require_pending(db)
    user = me(db)
    db.update(account, user["user_id"], claimed_author_id=claim["author_id"])
    return claim_object(db, db.update(author_claims, claim["claim_id"], status="approved", verified_at=db.now_iso()))


@tool()
def update_author_page(
    db: Database, name: str | None = None, affiliations: list[str] | None = None, homepage: str | None = None
) -> Author:
    """Edit your claimed and verified author page: display name (the old one is kept as an alias), affiliations
    and homepage.

    Args:
        name: The name to display, 1 to 100 characters.
        affiliations: The full list of affiliations to show (replaces the current list), at most 5.
        homepage: An http(s) URL, or "" to remove it.
    """
    author = own_author(db)
    changes: dict[str, object] = {}
    if name is not None:
        clean = " ".join(name.split())
        if not 1 <= len(clean) <= MAX_AUTHOR_NAME:
            raise InvalidRequest(f"A name has 1 to {MAX_AUTHOR_NAME} characters.")
        if clean != author["name"]:
            changes["name"] = clean
            changes["aliases"] = list(dict.fromkeys([*author["aliases"], author["name"]]))
    if affiliations is not None:
        cleaned = list(dict.fromkeys(a.strip() for a in affiliations if a.strip()))
        if len(cleaned) > MAX_AFFILIATIONS:
            raise InvalidRequest(f"An author page lists at most {MAX_AFFILIATIONS} affiliations.")
        changes["affiliations"] = cleaned
    if homepage is not None:
        if homepage and not homepage.startswith(("http://", "https://")):
            raise InvalidRequest("homepage must be an http:// or https:// URL.")
        changes["homepage"] = homepage or None
    if not changes:
        raise InvalidRequest("Nothing to update: give a new name, affiliations or homepage.")
    return author_object(db.update(authors, author["author_id"], **changes))
