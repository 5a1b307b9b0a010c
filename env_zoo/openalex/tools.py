"""OpenAlex tools: the REST API's list and single-entity endpoints for works, authors, institutions, sources and
topics (filter syntax, search, sort, page and cursor paging) and the signed-in user's library: lists of works with
notes, and saved searches with alerts."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, InvalidRequest, Unordered, tool
from envfactory_gym.fields import ErrorText

from .access import me, own_list, viewable_list
from .objects import (
    Author,
    Institution,
    Listing,
    Meta,
    SavedSearch,
    Source,
    Topic,
    Work,
    WorkList,
    WorkListDetail,
    WorkSummary,
    author,
    institution,
    saved_search,
    source,
    summaries,
    topic,
    work,
    work_list,
    work_list_detail,
)
from .query import compile_filter, compile_search
from .rules import (
    check_alert,
    check_list_name,
    check_list_quota,
    check_search_name,
    entity,
    item_ids,
    match_count,
    own_search,
    query,
    works_in_list,
    works_to_add,
)
from .schema import list_items, lists, saved_searches

EntityId = Annotated[str, Field(min_length=1, max_length=200)]
WorkIds = Annotated[list[EntityId], Field(min_length=1, max_length=50), Unordered]
FilterText = Annotated[str, Field(max_length=2000)]
SearchText = Annotated[str, Field(max_length=500)]
SortText = Annotated[str, Field(max_length=200, pattern=r"^[a-z_.]+(:(asc|desc))?(,[a-z_.]+(:(asc|desc))?)*$")]
PerPage = Annotated[int, Field(ge=1, le=100), ErrorText("per_page must be between 1 and 100")]
PageNumber = Annotated[int, Field(ge=1), ErrorText("page must be 1 or more")]
Cursor = Annotated[str, Field(min_length=1, max_length=200)]
ListName = Annotated[str, Field(max_length=100, pattern=r"\S"), ErrorText("A list name has 1 to 100 characters.")]
Description = Annotated[str, Field(max_length=1000)]
Note = Annotated[str, Field(max_length=2000), ErrorText("A note has at most 2,000 characters.")]
Visibility = Literal["private", "public"]
Alert = Literal["none", "daily", "weekly"]
EntityKind = Literal["works", "authors", "institutions", "sources", "topics"]


def _meta(count: int, per_page: int, page: int | None, next_cursor: str | None) -> Meta:
    return Meta(count=count, page=page, per_page=per_page, next_cursor=next_cursor)


# ---------------------------------------------------------------- works


@tool(read_only=True)
def list_works(
    db: Database,
    filter: FilterText | None = None,
    search: SearchText | None = None,
    sort: SortText | None = None,
    per_page: PerPage = 25,
    page: PageNumber | None = None,
    cursor: Cursor | None = None,
) -> Listing[WorkSummary]:
    """GET /works: scholarly works matching a filter and/or search. Filter syntax: attribute:value pairs joined by
    commas (AND); value1|value2 for OR; ! before a value negates it; >N, <N and N-M on numbers; + for AND within
    one attribute. Attributes: publication_year, from_publication_date, to_publication_date, type, language,
    is_oa, oa_status, primary_location.license, cited_by_count, is_retracted, doi, authorships.author.id
    (author.id), authorships.institutions.id (institutions.id), institutions.country_code,
    primary_location.source.id, primary_topic.id, topics.id, cites (works citing W), cited_by (works W cites),
    title.search, abstract.search, title_and_abstract.search. Without a sort, searches come by relevance and
    other lists by cited_by_count descending.

    Args:
        filter: e.g. authorships.author.id:A5023888391,publication_year:>2020,type:article|review
        search: Words that must all appear in the title or abstract.
        sort: Comma-separated keys, each optionally :desc: publication_date, publication_year, cited_by_count,
            display_name, relevance_score (needs a search).
        per_page: Results per page, 1-100 (default 25).
        page: Basic paging, 1-based; page * per_page must stay within the first 10,000 results.
        cursor: Cursor paging instead of page: '*' for the first page, then meta.next_cursor.
    """
    count, rows, number, nxt = query(db, "works", filter, search, sort, per_page, page, cursor)
    return Listing[WorkSummary](meta=_meta(count, per_page, number, nxt), results=summaries(db, rows))


@tool(read_only=True)
def get_work(db: Database, id: EntityId) -> Work:
    """GET /works/{id}: one work in full: abstract, authorships (authors, their institutions, corresponding
    author), source, open access, primary topic and topics, referenced works. A merged id returns the work it was
    merged into (its id differs from the one asked for).

    Args:
        id: An OpenAlex work id (W2741809807, or its https://openalex.org/ URL) or a DOI (10.1038/..., doi:...,
            https://doi.org/...).
    """
    return work(db, entity(db, "works", id))


# ---------------------------------------------------------------- authors, institutions, sources, topics


@tool(read_only=True)
def list_authors(
    db: Database,
    filter: FilterText | None = None,
    search: SearchText | None = None,
    sort: SortText | None = None,
    per_page: PerPage = 25,
    page: PageNumber | None = None,
    cursor: Cursor | None = None,
) -> Listing[Author]:
    """GET /authors: author profiles matching a filter and/or a name search. Attributes: display_name.search,
    last_known_institutions.id, has_orcid, orcid, works_count, cited_by_count, summary_stats.h_index.

    Args:
        filter: e.g. last_known_institutions.id:I4210142711,works_count:>10
        search: Words that must all appear in the author's name.
        sort: display_name, cited_by_count, works_count (each optionally :desc), relevance_score with a search.
        per_page: Results per page, 1-100 (default 25).
        page: Basic paging, 1-based.
        cursor: '*' for the first page of cursor paging, then meta.next_cursor.
    """
    count, rows, number, nxt = query(db, "authors", filter, search, sort, per_page, page, cursor)
    return Listing[Author](meta=_meta(count, per_page, number, nxt), results=[author(db, r) for r in rows])


@tool(read_only=True)
def get_author(db: Database, id: EntityId) -> Author:
    """GET /authors/{id}: one author profile (ORCID, last known institution, counts, h-index, main topics). A
    merged id returns the profile it was merged into.

    Args:
        id: An OpenAlex author id such as A5023888391.
    """
    return author(db, entity(db, "authors", id))


@tool(read_only=True)
def list_institutions(
    db: Database,
    filter: FilterText | None = None,
    search: SearchText | None = None,
    sort: SortText | None = None,
    per_page: PerPage = 25,
    page: PageNumber | None = None,
) -> Listing[Institution]:
    """GET /institutions: institutions matching a filter and/or a name search. Attributes: display_name.search,
    country_code, type (education, healthcare, company, government, nonprofit, facility), ror, works_count,
    cited_by_count.

    Args:
        filter: e.g. country_code:no,type:education
        search: Words that must all appear in the institution's name.
        sort: display_name, cited_by_count, works_count (each optionally :desc).
        per_page: Results per page, 1-100 (default 25).
        page: 1-based page number.
    """
    count, rows, number, nxt = query(db, "institutions", filter, search, sort, per_page, page, None)
    return Listing[Institution](meta=_meta(count, per_page, number, nxt), results=[institution(r) for r in rows])


@tool(read_only=True)
def get_institution(db: Database, id: EntityId) -> Institution:
    """GET /institutions/{id}: one institution (ROR, country, type, city, counts).

    Args:
        id: An OpenAlex institution id such as I4210142711.
    """
    return institution(entity(db, "institutions", id))


@tool(read_only=True)
def list_sources(
    db: Database,
    filter: FilterText | None = None,
    search: SearchText | None = None,
    sort: SortText | None = None,
    per_page: PerPage = 25,
    page: PageNumber | None = None,
) -> Listing[Source]:
    """GET /sources: journals, repositories and conference series matching a filter and/or a name search.
    Attributes: display_name.search, type (journal, repository, conference, book series), is_oa, issn,
    country_code, works_count, cited_by_count.

    Args:
        filter: e.g. type:journal,is_oa:true
        search: Words that must all appear in the source's name.
        sort: display_name, cited_by_count, works_count (each optionally :desc).
        per_page: Results per page, 1-100 (default 25).
        page: 1-based page number.
    """
    count, rows, number, nxt = query(db, "sources", filter, search, sort, per_page, page, None)
    return Listing[Source](meta=_meta(count, per_page, number, nxt), results=[source(r) for r in rows])


@tool(read_only=True)
def get_source(db: Database, id: EntityId) -> Source:
    """GET /sources/{id}: one source (ISSN-L, type, host organization, open access, counts).

    Args:
        id: An OpenAlex source id such as S137773608.
    """
    return source(entity(db, "sources", id))


@tool(read_only=True)
def list_topics(
    db: Database,
    filter: FilterText | None = None,
    search: SearchText | None = None,
    sort: SortText | None = None,
    per_page: PerPage = 25,
    page: PageNumber | None = None,
) -> Listing[Topic]:
    """GET /topics: research topics (each in a subfield, field and domain) matching a filter and/or a search of
    names and keywords. Attributes: display_name.search, subfield.id, field.id, domain.id, works_count.

    Args:
        filter: e.g. field.id:23
        search: Words that must all appear in the topic's name or keywords.
        sort: display_name or works_count (optionally :desc).
        per_page: Results per page, 1-100 (default 25).
        page: 1-based page number.
    """
    count, rows, number, nxt = query(db, "topics", filter, search, sort, per_page, page, None)
    return Listing[Topic](meta=_meta(count, per_page, number, nxt), results=[topic(r) for r in rows])


@tool(read_only=True)
def get_topic(db: Database, id: EntityId) -> Topic:
    """GET /topics/{id}: one topic with its description, keywords, subfield, field and domain.

    Args:
        id: An OpenAlex topic id such as T10422.
    """
    return topic(entity(db, "topics", id))


# ---------------------------------------------------------------- library: lists


@tool(read_only=True)
def list_my_lists(db: Database) -> list[WorkList]:
    """The signed-in user's lists of saved works, by name, with item counts and visibility."""
    rows = db.select(lists, "owner_id = ?", (me(db)["user_id"],), order_by="lower(name)")
    return [work_list(db, r) for r in rows]


@tool(read_only=True)
def get_list(db: Database, list_id: str) -> WorkListDetail:
    """One list with its works (oldest addition first) and the note on each: one of yours, or another user's
    public list.

    Args:
        list_id: The list's id (L...), as list_my_lists shows it or a shared link gives it.
    """
    return work_list_detail(db, viewable_list(db, list_id))


@tool()
def create_list(
    db: Database, name: ListName, description: Description = "", visibility: Visibility = "private"
) -> WorkList:
    """Create an empty list of works. Names are unique among your lists (ignoring case); an account keeps at most
    50 lists.

    Args:
        name: The list's name.
        description: What the list is for.
        visibility: private (default) or public (anyone with the link can read it).
    """
    clean = check_list_name(db, name)
    check_list_quota(db)
    row = db.insert(
        lists,
        list_id=db.new_id(lists, "L", width=5),
        owner_id=me(db)["user_id"],
        name=clean,
        description=description,
        visibility=visibility,
        created_at=db.now_iso(),
        updated_at=db.now_iso(),
    )
    return work_list(db, row)


@tool()
def update_list(
    db: Database,
    list_id: str,
    name: ListName | None = None,
    description: Description | None = None,
    visibility: Visibility | None = None,
) -> WorkList:
    """Rename one of your lists, change its description, or make it public or private.

    Args:
        list_id: The list's id.
        name: A new name, unique among your lists.
        description: A new description.
        visibility: private or public.
    """
    row = own_list(db, list_id)
    changes: dict = {"updated_at": db.now_iso()}
    if name is not None:
        changes["name"] = check_list_name(db, name, keep=list_id)
    if description is not None:
        changes["description"] = description
    if visibility is not None:
        changes["visibility"] = visibility
    return work_list(db, db.update(lists, row["list_id"], **changes))


@tool()
def delete_list(db: Database, list_id: str) -> WorkList:
    """Delete one of your lists with its items and notes (the works stay in OpenAlex). This cannot be undone.

    Args:
        list_id: The list's id.
    """
    row = own_list(db, list_id)
    gone = work_list(db, row)
    for work_id in item_ids(db, list_id):
        db.delete(list_items, f"{list_id}/{work_id}")
    db.delete(lists, list_id)
    return gone


@tool()
def add_works_to_list(db: Database, list_id: str, work_ids: WorkIds, note: Note = "") -> WorkListDetail:
    """Add works to one of your lists, each with the same note (empty by default). Every work must exist (a merged
    id or a DOI is stored as the surviving work's id); a work already in the list is refused; a list holds at most
    200 works.

    Args:
        list_id: The list's id.
        work_ids: Work ids (W...) or DOIs to add.
        note: A note stored on each added work.
    """
    row = own_list(db, list_id)
    for work_id in works_to_add(db, row, work_ids):
        db.insert(
            list_items,
            item_key=f"{list_id}/{work_id}",
            list_id=list_id,
            work_id=work_id,
            note=note,
            added_at=db.now_iso(),
        )
    return work_list_detail(db, db.update(lists, list_id, updated_at=db.now_iso()))


@tool()
def remove_works_from_list(db: Database, list_id: str, work_ids: WorkIds) -> WorkListDetail:
    """Remove works (and their notes) from one of your lists; each must be in it.

    Args:
        list_id: The list's id.
        work_ids: Work ids (W...) or DOIs to remove.
    """
    row = own_list(db, list_id)
    for work_id in works_in_list(db, row, work_ids):
        db.delete(list_items, f"{list_id}/{work_id}")
    return work_list_detail(db, db.update(lists, list_id, updated_at=db.now_iso()))


@tool()
def set_item_note(db: Database, list_id: str, work_id: EntityId, note: Note) -> WorkListDetail:
    """Replace the note on a work in one of your lists (an empty note clears it).

    Args:
        list_id: The list's id.
        work_id: The work's id (W...) or DOI; it must be in the list.
        note: The new note, up to 2,000 characters.
    """
    row = own_list(db, list_id)
    (key,) = works_in_list(db, row, [work_id])
    db.update(list_items, f"{list_id}/{key}", note=note)
    return work_list_detail(db, db.update(lists, list_id, updated_at=db.now_iso()))


# ---------------------------------------------------------------- library: saved searches


@tool(read_only=True)
def list_saved_searches(db: Database) -> list[SavedSearch]:
    """Your saved searches with their alert settings and how many results each matches now."""
    rows = db.select(saved_searches, "owner_id = ?", (me(db)["user_id"],), order_by="lower(name)")
    return [saved_search(r, match_count(db, r)) for r in rows]


@tool()
def save_search(
    db: Database,
    name: ListName,
    entity: EntityKind = "works",
    filter: FilterText = "",
    search: SearchText = "",
    alert: Alert = "none",
) -> SavedSearch:
    """Save a search (an entity list with filter and/or search words), optionally with an e-mail alert of new
    works (daily or weekly; alerts exist for works searches only). Names are unique among your saved searches.

    Args:
        name: The saved search's name.
        entity: works (default), authors, institutions, sources or topics.
        filter: The filter string, checked like the list endpoint checks it.
        search: Search words.
        alert: none, daily or weekly.
    """
    _check_query(entity, filter, search)
    check_alert(entity, alert)
    row = db.insert(
        saved_searches,
        search_id=db.new_id(saved_searches, "Q", width=5),
        owner_id=me(db)["user_id"],
        name=check_search_name(db, name),
        entity=entity,
        filter=filter.strip(),
        search=" ".join(search.split()),
        alert=alert,
        created_at=db.now_iso(),
    )
    return saved_search(row, match_count(db, row))


@tool()
def update_saved_search(
    db: Database,
    search_id: str,
    name: ListName | None = None,
    filter: FilterText | None = None,
    search: SearchText | None = None,
    alert: Alert | None = None,
) -> SavedSearch:
    """Change a saved search's name, filter, search words or alert.

    Args:
        search_id: The saved search's id (Q...), as list_saved_searches shows it.
        name: A new name, unique among your saved searches.
        filter: A new filter string.
        search: New search words.
        alert: none, daily or weekly (works searches only).
    """
    row = own_search(db, search_id)
    changes: dict = {}
    if name is not None:
        changes["name"] = check_search_name(db, name, keep=search_id)
    if filter is not None:
        changes["filter"] = filter.strip()
    if search is not None:
        changes["search"] = " ".join(search.split())
    _check_query(row["entity"], changes.get("filter", row["filter"]), changes.get("search", row["search"]))
    if alert is not None:
        check_alert(row["entity"], alert)
        changes["alert"] = alert
    new = db.update(saved_searches, search_id, **changes) if changes else row
    return saved_search(new, match_count(db, new))


@tool()
def delete_saved_search(db: Database, search_id: str) -> SavedSearch:
    """Delete a saved search and stop its alert.

    Args:
        search_id: The saved search's id.
    """
    row = own_search(db, search_id)
    out = saved_search(row, match_count(db, row))
    db.delete(saved_searches, search_id)
    return out


def _check_query(kind: str, filter: str, search: str) -> None:
    if not filter.strip() and not search.strip():
        raise InvalidRequest("A saved search needs a filter, search words or both.")
    compile_filter(kind, filter)
    compile_search(kind, search)
