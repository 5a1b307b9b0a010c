"""PubMed tools: the E-utilities (ESearch, ESummary, EFetch, ELink) over PubMed and the signed-in user's My NCBI
(collections, saved searches with e-mail alerts, My Bibliography, filters)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, InvalidRequest, Unordered, tool
from envfactory_gym.fields import ErrorText, bounded

from .access import me, own_collection, viewable_collection
from .objects import (
    Bibliography,
    Collection,
    CollectionItems,
    Filter,
    Link,
    LinkSet,
    Record,
    Removed,
    SavedSearch,
    SearchResult,
    Summaries,
    bibliography_object,
    collection_object,
    docsums,
    filter_object,
    records,
    saved_search,
)
from .query import compile_term
from .rules import (
    MAX_NAME,
    add_items,
    article,
    bibliography_pmids,
    check_active_cap,
    check_not_favorites,
    check_window,
    fetch_all,
    items_of,
    new_bibliography_rows,
    own_filter,
    own_search,
    remove_items,
    schedule,
    search,
    unique_collection_name,
    unique_filter_name,
    unique_search_name,
)
from .schema import (
    accounts,
    bibliography,
    citations,
    collection_items,
    collections,
    filters,
    saved_searches,
    similar_articles,
)

Pmid = Annotated[
    str, Field(pattern=r"^[1-9][0-9]{0,8}$"), ErrorText("Invalid uid: a PMID is a number such as 36512044")
]
PmidList = Annotated[list[Pmid], Field(min_length=1, max_length=200), Unordered]
Term = Annotated[
    str, Field(min_length=1, max_length=4000, pattern=r"\S"), ErrorText("Empty term and query_key - nothing todo")
]
Name = Annotated[str, Field(max_length=MAX_NAME, pattern=r"\S"), ErrorText(f"A name has 1 to {MAX_NAME} characters.")]
Frequency = Literal["none", "daily", "weekly", "monthly"]
Weekday = Literal["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
SendDay = Weekday | bounded(1, 28) | None
ReportFormat = Literal["Summary", "Abstract", "PubMed", "PMID"]
MaxItems = Literal[5, 10, 20, 50, 100, 200]
Sort = Literal["most_recent", "pub_date", "Author", "JournalName", "title"]
LinkName = Literal["pubmed_pubmed", "pubmed_pubmed_citedin", "pubmed_pubmed_refs"]


# ---------------------------------------------------------------- E-utilities


@tool(read_only=True)
def esearch(
    db: Database,
    term: Term,
    retstart: bounded(0) = 0,
    retmax: bounded(0, 10000) = 20,
    sort: Sort = "most_recent",
) -> SearchResult:
    """ESearch PubMed (esearch.fcgi?db=pubmed): the PMIDs matching a search term. The term takes words and
    "quoted phrases", field tags ([au] author as "Raman P", [1au] first author, [ti], [tiab], [mh] MeSH term,
    [majr] MeSH major topic, [pt] publication type, [ta] journal, [la] language, [dp] publication date as 2021,
    2019:2021 or 2020/03/01:2020/06/30) and AND, OR, NOT applied left to right, with parentheses. Only the first
    9,999 records of a search can be paged through.

    Args:
        term: The PubMed search term, e.g. klebsiella[ti] AND 2020:2023[dp] NOT review[pt].
        retstart: Index of the first PMID to return (0-based).
        retmax: How many PMIDs to return, 0 to 10000 (default 20; 0 gives only the count).
        sort: most_recent (Entrez date, default), pub_date (newest first), Author (first author), JournalName or
            title.
    """
    check_window(retstart)
    pmids, translation = search(db, term, sort)
    return SearchResult(
        count=len(pmids),
        retmax=retmax,
        retstart=retstart,
        idlist=pmids[retstart : retstart + retmax],
        querytranslation=translation,
    )


@tool(read_only=True)
def esummary(db: Database, ids: PmidList) -> Summaries:
    """ESummary (esummary.fcgi?db=pubmed): document summaries of records by PMID: title, authors, journal, date,
    volume/issue/pages, publication types, DOI and PMC ids, and linked retractions, errata and comments.

    Args:
        ids: PMIDs to summarise (1 to 200). A PMID PubMed does not have is an error.
    """
    rows = fetch_all(db, ids)
    return Summaries(uids=[r["pmid"] for r in rows], result=docsums(db, rows))


@tool(read_only=True)
def efetch(db: Database, ids: Annotated[list[Pmid], Field(min_length=1, max_length=20)]) -> list[Record]:
    """EFetch (efetch.fcgi?db=pubmed&retmode=xml): full PubMed records: abstract, authors with affiliations, MeSH
    headings (major topics flagged), publication types, keywords, DOI, PMC id, and comments and corrections
    (RetractionIn/Of, ErratumIn/For, CommentIn/On).

    Args:
        ids: PMIDs to fetch (1 to 20). A PMID PubMed does not have is an error.
    """
    return records(db, fetch_all(db, ids))


@tool(read_only=True)
def elink(db: Database, id: Pmid, linkname: LinkName = "pubmed_pubmed") -> LinkSet:
    """ELink within PubMed (elink.fcgi?dbfrom=pubmed&db=pubmed): for one PMID, its similar articles
    (pubmed_pubmed, best score first), the records that cite it (pubmed_pubmed_citedin, newest first) or the
    records it cites (pubmed_pubmed_refs).

    Args:
        id: The PMID to link from.
        linkname: pubmed_pubmed (similar articles, default), pubmed_pubmed_citedin or pubmed_pubmed_refs.
    """
    article(db, id)
    if linkname == "pubmed_pubmed":
        rows = db.select(similar_articles, "pmid = ?", (id,), order_by="score DESC")
        links = [Link(id=r["other_pmid"], score=r["score"]) for r in rows]
    elif linkname == "pubmed_pubmed_citedin":
        rows = db.select(citations, "cited_pmid = ?", (id,), order_by="citing_pmid DESC")
        links = [Link(id=r["citing_pmid"]) for r in rows]
    else:
        rows = db.select(citations, "citing_pmid = ?", (id,), order_by="cited_pmid")
        links = [Link(id=r["cited_pmid"]) for r in rows]
    return LinkSet(dbfrom="pubmed", idlist=[id], linkname=linkname, links=links)


# ---------------------------------------------------------------- My NCBI collections


@tool(read_only=True)
def list_collections(db: Database) -> list[Collection]:
    """The signed-in user's My NCBI collections (Favorites first), with visibility and item counts."""
    owned = db.select(collections, "owner_id = ?", (me(db)["user_id"],), order_by="is_favorites DESC, name")
    return [collection_object(db, row) for row in owned]


@tool(read_only=True)
def get_collection(db: Database, collection_id: str) -> CollectionItems:
    """One collection's PMIDs with their summaries: one of yours, or another user's public collection.

    Args:
        collection_id: The collection's number, as list_collections shows it or a shared link gives it.
    """
    row = viewable_collection(db, collection_id)
    rows = fetch_all(db, items_of(db, collection_id))
    return CollectionItems(
        collection=collection_object(db, row), pmids=[r["pmid"] for r in rows], summaries=docsums(db, rows)
    )


@tool()
def create_collection(db: Database, name: Name, public: bool = False) -> Collection:
    """Create a new, empty collection (private unless made public). Collection names are unique per user.

    Args:
        name: The collection's name.
        public: true to let anyone with the link see it.
    """
    clean = unique_collection_name(db, name)
    row = db.insert(
        collections,
        collection_id=db.new_id(collections, "6210", width=4),
        owner_id=me(db)["user_id"],
        name=clean,
        public=public,
        is_favorites=False,
        created_at=db.now_iso(),
        modified_at=db.now_iso(),
    )
    return collection_object(db, row)


@tool()
def update_collection(
    db: Database, collection_id: str, name: Name | None = None, public: bool | None = None
) -> Collection:
    """Rename one of your collections or make it public or private. Favorites cannot be renamed.

    Args:
        collection_id: The collection's number.
        name: A new name, unique among your collections.
        public: true for public (anyone with the link), false for private.
    """
    row = own_collection(db, collection_id)
    changes: dict = {"modified_at": db.now_iso()}
    if name is not None:
        check_not_favorites(row, "renamed")
        changes["name"] = unique_collection_name(db, name, keep=collection_id)
    if public is not None:
        changes["public"] = public
    return collection_object(db, db.update(collections, collection_id, **changes))


@tool()
def delete_collection(db: Database, collection_id: str) -> Collection:
    """Delete one of your collections and its list of items (the PubMed records stay). Favorites cannot be deleted.

    Args:
        collection_id: The collection's number.
    """
    row = own_collection(db, collection_id)
    check_not_favorites(row, "deleted")
    gone = collection_object(db, row)
    for pmid in items_of(db, collection_id):
        db.delete(collection_items, f"{collection_id}/{pmid}")
    db.delete(collections, collection_id)
    return gone


@tool()
def add_to_collection(db: Database, collection_id: str, pmids: PmidList) -> Collection:
    """Add records to one of your collections. Every PMID must exist; ones already in it are skipped; a collection
    holds at most 5,000 items.

    Args:
        collection_id: The collection's number.
        pmids: PMIDs to add.
    """
    row = own_collection(db, collection_id)
    add_items(db, row, pmids)
    return collection_object(db, db.get(collections, collection_id, "Collection"))


@tool()
def remove_from_collection(db: Database, collection_id: str, pmids: PmidList) -> Removed:
    """Remove records from one of your collections; each PMID must be in it.

    Args:
        collection_id: The collection's number.
        pmids: PMIDs to remove.
    """
    row = own_collection(db, collection_id)
    remove_items(db, row, pmids)
    return Removed(removed=sorted(set(pmids)), remaining=len(items_of(db, collection_id)))


# ---------------------------------------------------------------- saved searches


@tool(read_only=True)
def list_saved_searches(db: Database) -> list[SavedSearch]:
    """Your saved PubMed searches with their e-mail alert settings and when each was last run."""
    return [saved_search(r) for r in db.select(saved_searches, "owner_id = ?", (me(db)["user_id"],), order_by="name")]


@tool()
def save_search(
    db: Database,
    name: Name,
    term: Term,
    frequency: Frequency = "none",
    send_day: SendDay = None,
    report_format: ReportFormat = "Summary",
    max_items: MaxItems = 5,
    send_if_empty: bool = False,
) -> SavedSearch:
    """Save a PubMed search in My NCBI, optionally with an e-mail alert of new results. Names are unique per user.

    Args:
        name: The saved search's name.
        term: The PubMed search term (checked like ESearch).
        frequency: E-mail alerts: none, daily, weekly or monthly.
        send_day: Weekly: the weekday (Monday..Sunday); monthly: the day of the month (1-28); otherwise leave out.
        report_format: Summary, Abstract, PubMed or PMID.
        max_items: Most records per e-mail: 5, 10, 20, 50, 100 or 200.
        send_if_empty: true to send the e-mail even when there are no new results.
    """
    compile_term(term)
    row = db.insert(
        saved_searches,
        search_id=db.new_id(saved_searches, "44", width=5),
        owner_id=me(db)["user_id"],
        name=unique_search_name(db, name),
        term=" ".join(term.split()),
        frequency=frequency,
        send_day=schedule(frequency, send_day),
        report_format=report_format,
        max_items=max_items,
        send_if_empty=send_if_empty,
        last_run=db.now().date().isoformat(),
        created_at=db.now_iso(),
    )
    return saved_search(row)


@tool()
def update_saved_search(
    db: Database,
    search_id: str,
    name: Name | None = None,
    term: Term | None = None,
    frequency: Frequency | None = None,
    send_day: SendDay = None,
    report_format: ReportFormat | None = None,
    max_items: MaxItems | None = None,
    send_if_empty: bool | None = None,
) -> SavedSearch:
    """Change a saved search: its name, term or e-mail settings. Giving frequency resets the schedule: weekly
    needs a weekday and monthly a day of the month in send_day.

    Args:
        search_id: The saved search's number, as list_saved_searches shows it.
        name: A new name, unique among your saved searches.
        term: A new search term.
        frequency: none, daily, weekly or monthly.
        send_day: With weekly: the weekday; with monthly: the day of the month (1-28).
        report_format: Summary, Abstract, PubMed or PMID.
        max_items: 5, 10, 20, 50, 100 or 200.
        send_if_empty: Whether to send when there are no new results.
    """
    row = own_search(db, search_id)
    changes: dict = {}
    if name is not None:
        changes["name"] = unique_search_name(db, name, keep=search_id)
    if term is not None:
        compile_term(term)
        changes["term"] = " ".join(term.split())
    if frequency is not None:
        changes["frequency"] = frequency
        changes["send_day"] = schedule(frequency, send_day)
    elif send_day is not None:
        changes["send_day"] = schedule(row["frequency"], send_day)
    for key, value in (("report_format", report_format), ("max_items", max_items), ("send_if_empty", send_if_empty)):
        if value is not None:
            changes[key] = value
    return saved_search(db.update(saved_searches, search_id, **changes) if changes else row)


@tool()
def delete_saved_search(db: Database, search_id: str) -> SavedSearch:
    """Delete a saved search and stop its e-mail alerts.

    Args:
        search_id: The saved search's number.
    """
    row = own_search(db, search_id)
    db.delete(saved_searches, search_id)
    return saved_search(row)


# ---------------------------------------------------------------- My Bibliography


@tool(read_only=True)
def get_my_bibliography(db: Database) -> Bibliography:
    """Your My Bibliography: the citations kept as your own publications, newest first, and whether it is public."""
    return bibliography_object(db, me(db))


@tool()
def add_to_my_bibliography(db: Database, pmids: PmidList) -> Bibliography:
    """Add your own publications to My Bibliography: each PMID must exist, list your author name and not be there
    already.

    Args:
        pmids: PMIDs of your publications.
    """
    account = me(db)
    for row in new_bibliography_rows(db, account, pmids):
        db.insert(
            bibliography,
            entry_key=f"{account['user_id']}/{row['pmid']}",
            owner_id=account["user_id"],
            pmid=row["pmid"],
            added_at=db.now_iso(),
        )
    return bibliography_object(db, account)


@tool()
def remove_from_my_bibliography(db: Database, pmids: PmidList) -> Bibliography:
    """Remove citations from My Bibliography (the PubMed records stay); each PMID must be in it.

    Args:
        pmids: PMIDs to remove.
    """
    account = me(db)
    present = set(bibliography_pmids(db, account["user_id"]))
    for pmid in pmids:
        if pmid not in present:
            raise InvalidRequest(f"PMID {pmid} is not in My Bibliography.")
    for pmid in dict.fromkeys(pmids):
        db.delete(bibliography, f"{account['user_id']}/{pmid}")
    return bibliography_object(db, account)


@tool()
def set_bibliography_visibility(db: Database, public: bool) -> Bibliography:
    """Make My Bibliography public (shareable by its link) or private.

    Args:
        public: true for public, false for private.
    """
    account = db.update(accounts, me(db)["user_id"], bibliography_public=public)
    return bibliography_object(db, account)


# ---------------------------------------------------------------- filters


@tool(read_only=True)
def list_filters(db: Database) -> list[Filter]:
    """Your My NCBI filters for PubMed (standard and custom), and which are active on your searches."""
    return [filter_object(r) for r in db.select(filters, "owner_id = ?", (me(db)["user_id"],), order_by="custom, name")]


@tool()
def create_filter(db: Database, name: Name, term: Term) -> Filter:
    """Create a custom filter from a search term (checked like ESearch); it starts active. At most 15 filters can be
    active.

    Args:
        name: The filter's name, unique among your filters.
        term: The search term the filter applies, e.g. english[la] AND humans[mh].
    """
    compile_term(term)
    clean = unique_filter_name(db, name)
    check_active_cap(db)
    row = db.insert(
        filters,
        filter_id=db.new_id(filters, "9", width=4),
        owner_id=me(db)["user_id"],
        name=clean,
        term=" ".join(term.split()),
        custom=True,
        active=True,
    )
    return filter_object(row)


@tool()
def set_filter_active(db: Database, filter_id: str, active: bool) -> Filter:
    """Turn one of your filters on or off (at most 15 active).

    Args:
        filter_id: The filter's id, as list_filters shows it.
        active: true to turn it on, false to turn it off.
    """
    row = own_filter(db, filter_id)
    if active and not row["active"]:
        check_active_cap(db)
    return filter_object(db.update(filters, filter_id, active=active))
