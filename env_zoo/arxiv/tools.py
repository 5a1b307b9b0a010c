"""arXiv tools: the API's query endpoint (search_query with field prefixes and boolean operators, id_list), version
histories, category listings by mailing day and by month, the taxonomy, withdrawal of one's own article, and the
signed-in reader's library: folders of saved articles with tags and notes, followed authors and categories, and
e-mail alerts."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, NotFound, Unordered, tool
from envfactory_gym.fields import ErrorText, IsoDate

from .access import check_is_author, me, own_alert, own_folder
from .ids import parse_id
from .objects import (
    Alert,
    Category,
    DailyListing,
    Entry,
    Feed,
    Folder,
    FolderDetail,
    Follow,
    MonthListing,
    SavedArticle,
    VersionHistory,
    alert_out,
    category_out,
    entry,
    folder_detail,
    folder_out,
    follow_out,
    listing_item,
    saved_out,
    version_out,
)
from .query import compile_query, normalized
from .rules import (
    announcement_for,
    category,
    check_alert_free,
    check_folder_name,
    check_folder_quota,
    check_not_saved,
    is_mailing_day,
    last_mailing,
    paper,
    pinned_version,
    saved_in,
    search,
    tag_text,
)
from .schema import alerts, authors, categories, folders, follows, papers, saved_papers, versions

ArxivId = Annotated[str, Field(min_length=1, max_length=120)]
IdList = Annotated[list[ArxivId], Field(min_length=1, max_length=50), Unordered]
SearchQuery = Annotated[str, Field(min_length=1, max_length=1000, pattern=r"\S")]
Start = Annotated[int, Field(ge=0), ErrorText("start must be >= 0")]
MaxResults = Annotated[int, Field(ge=1, le=2000), ErrorText("max_results must be between 1 and 2000")]
SortBy = Literal["relevance", "lastUpdatedDate", "submittedDate"]
SortOrder = Literal["ascending", "descending"]
CategoryId = Annotated[str, Field(min_length=2, max_length=40, pattern=r"^[a-zA-Z-]+(\.[a-zA-Z-]+)?$")]
Month = Annotated[str, Field(pattern=r"^\d{4}-(0[1-9]|1[0-2])$"), ErrorText("month must look like 2025-03")]
Show = Literal[25, 50, 100, 250, 500, 1000, 2000]
FolderName = Annotated[str, Field(max_length=80, pattern=r"\S"), ErrorText("A folder name has 1 to 80 characters.")]
Description = Annotated[str, Field(max_length=500)]
Tag = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,29}$")]
Tags = Annotated[
    list[Tag],
    Field(max_length=10),
    Unordered,
    ErrorText("Tags are lower-case words or hyphenated words (up to 30 characters), at most 10 an article."),
]
Note = Annotated[str, Field(max_length=2000), ErrorText("A note has at most 2,000 characters.")]
FollowKind = Literal["author", "category"]
Frequency = Literal["daily", "weekly"]
AlertStatus = Literal["active", "paused"]
Reason = Annotated[
    str,
    Field(min_length=20, max_length=400, pattern=r"\S"),
    ErrorText("A withdrawal needs a reason of 20 to 400 characters; it is shown in the article's comments."),
]


# ---------------------------------------------------------------- the API


@tool(read_only=True)
def search_papers(
    db: Database,
    search_query: SearchQuery,
    start: Start = 0,
    max_results: MaxResults = 10,
    sort_by: SortBy = "relevance",
    sort_order: SortOrder = "descending",
) -> Feed:
    """GET /api/query?search_query=...: articles matching a query, each at its latest version. Syntax: prefix:term
    with prefixes ti (title), au (author), abs (abstract), co (comments), jr (journal reference), cat (category,
    cat:cs.LG; cat:q-bio.* for an archive), rn (report number), id, all (title, abstract, authors, comments); a
    bare word means all:. Quote phrases (ti:"label transfer"); a trailing * matches word beginnings. Combine with
    AND, OR, ANDNOT (upper case) and parentheses; AND and ANDNOT bind tighter than OR; adjacent terms are ANDed.
    Date ranges: submittedDate:[202503010000 TO 202503142359] (v1 submission) or lastUpdatedDate:[... TO ...].
    Withdrawn articles are still found (status withdrawn).

    Args:
        search_query: e.g. au:herrera AND cat:q-bio.GN ANDNOT ti:benchmark
        start: 0-based index of the first result.
        max_results: Results in this slice, 1-2000 (default 10); start + max_results stays within 30,000.
        sort_by: relevance (default), lastUpdatedDate or submittedDate.
        sort_order: descending (default) or ascending.
    """
    total, rows = search(db, search_query, start, max_results, sort_by, sort_order)
    latest = {r["paper_id"]: r for r in _latest_versions(db, [p["id"] for p in rows])}
    return Feed(
        total_results=total,
        start_index=start,
        items_per_page=max_results,
        entries=[entry(db, p, latest[p["id"]]) for p in rows],
    )


@tool(read_only=True)
def get_papers(db: Database, id_list: IdList) -> list[Entry]:
    """GET /api/query?id_list=...: articles by arXiv id, in the order given. A versioned id (2309.01363v2)
    returns that version (its date and comments); a bare id the latest. Ids may carry 'arXiv:' or be
    arxiv.org/abs links. Old-style ids (hep-th/9901001) are accepted.

    Args:
        id_list: arXiv ids such as 2503.01234 or 2309.01363v2.
    """
    return [entry(db, *paper(db, raw)) for raw in id_list]


@tool(read_only=True)
def get_version_history(db: Database, arxiv_id: ArxivId) -> VersionHistory:
    """An article's submission history (as its abstract page lists it): every version with its submission time,
    the mailing that announced it, its size and comments; a withdrawal shows as the last version.

    Args:
        arxiv_id: The article's id (any version suffix is ignored).
    """
    row, _ = paper(db, arxiv_id)
    rows = db.select(versions, "paper_id = ?", (row["id"],), order_by="version")
    return VersionHistory(
        id=row["id"],
        title=row["title"],
        status=row["status"],
        latest_version=row["latest_version"],
        versions=[version_out(v) for v in rows],
    )


@tool(read_only=True)
def list_new(db: Database, category_id: CategoryId, date: IsoDate | None = None) -> DailyListing:
    """A category's announcement for one mailing day (/list/<category>/new): new submissions whose primary
    category it is, cross-lists from other categories, and replacements (new versions, withdrawals included).
    Mailings go out Monday to Friday.

    Args:
        category_id: e.g. q-bio.GN or cs.LG.
        date: The mailing day (YYYY-MM-DD); default the latest one up to today.
    """
    cat = category(db, category_id)["id"]
    day = date or last_mailing(db.now()).isoformat()
    if day > db.now().date().isoformat():
        raise NotFound(f"No mailing for {day} yet: the latest is {last_mailing(db.now()).isoformat()}")
    if not is_mailing_day(datetime.fromisoformat(day).date()):
        raise NotFound(f"No mailing on {day}: arXiv announces Monday to Friday only")
    announced = db.select(versions, "announced = ?", (day,), order_by="paper_id")
    found = {p["id"]: p for p in _papers(db, [v["paper_id"] for v in announced])}
    listing = DailyListing(category=cat, date=day, new=[], cross_lists=[], replacements=[])
    for v in announced:
        p = found[v["paper_id"]]
        if f"|{cat}|" not in p["categories"]:
            continue
        item = listing_item(db, p, v["version"], v["comments"])
        if v["version"] > 1:
            listing.replacements.append(item)
        elif p["primary_category"] == cat:
            listing.new.append(item)
        else:
            listing.cross_lists.append(item)
    return listing


@tool(read_only=True)
def list_month(db: Database, category_id: CategoryId, month: Month, skip: Start = 0, show: Show = 25) -> MonthListing:
    """A category's articles first submitted in one month (/list/<category>/<YYYY-MM>), cross-lists included, in
    id order.

    Args:
        category_id: e.g. stat.ML.
        month: YYYY-MM.
        skip: How many to skip (0-based paging).
        show: Page size: 25, 50, 100, 250, 500, 1000 or 2000.
    """
    cat = category(db, category_id)["id"]
    rows = db.select(papers, "published LIKE ? AND categories LIKE ?", (f"{month}-%", f"%|{cat}|%"), order_by="id")
    window = rows[skip : skip + show]
    return MonthListing(
        category=cat,
        month=month,
        total=len(rows),
        skip=skip,
        show=show,
        entries=[listing_item(db, p, p["latest_version"], p["comments"]) for p in window],
    )


@tool(read_only=True)
def list_categories(db: Database, archive: CategoryId | None = None) -> list[Category]:
    """arXiv's subject classification: category ids (cs.LG), names, archives and groups.

    Args:
        archive: Only this archive's categories, e.g. cs, stat, q-bio.
    """
    where, params = ("archive = ?", (archive,)) if archive else ("", ())
    return [category_out(r) for r in db.select(categories, where, params, order_by="id")]


@tool()
def withdraw_paper(db: Database, arxiv_id: ArxivId, reason: Reason) -> VersionHistory:
    """Withdraw one of your own articles. arXiv never deletes an announced article: a withdrawal adds a new
    version (a notice, no full text) whose comment gives the reason, announced on the next mailing; earlier
    versions stay readable. Only an author can withdraw, and an article is withdrawn once. Cannot be undone.

    Args:
        arxiv_id: The article's id.
        reason: Why, in a sentence (shown as "This paper has been withdrawn by the author(s): <reason>").
    """
    row, _ = paper(db, arxiv_id)
    check_is_author(db, row)
    if row["status"] == "withdrawn":
        raise Conflict(f"Article {row['id']} was already withdrawn in v{row['latest_version']}.")
    number = row["latest_version"] + 1
    comment = f"This paper has been withdrawn by the author(s): {' '.join(reason.split())}"
    db.insert(
        versions,
        key=f"{row['id']}v{number}",
        paper_id=row["id"],
        version=number,
        submitted=db.now_iso(),
        announced=announcement_for(db.now()),
        size_kb=2,
        comments=comment,
        withdrawn=1,
    )
    db.update(
        papers,
        row["id"],
        latest_version=number,
        updated=db.now_iso(),
        status="withdrawn",
        comments=comment,
        search_co=normalized(comment),
    )
    return get_version_history(db, row["id"])


# ---------------------------------------------------------------- library: folders and saved articles


@tool(read_only=True)
def list_folders(db: Database) -> list[Folder]:
    """Your library's folders, by name, with how many articles each holds."""
    rows = db.select(folders, "owner_id = ?", (me(db)["user_id"],), order_by="lower(name)")
    return [folder_out(db, r) for r in rows]


@tool(read_only=True)
def get_folder(db: Database, folder_id: str, tag: Tag | None = None) -> FolderDetail:
    """One of your folders with its saved articles (oldest first): pinned version, the article's latest version
    and status (withdrawn articles show here), tags and note.

    Args:
        folder_id: The folder's id (F...), as list_folders shows it.
        tag: Only articles carrying this tag.
    """
    detail = folder_detail(db, own_folder(db, folder_id))
    if tag:
        detail.articles = [a for a in detail.articles if tag in a.tags]
    return detail


@tool(read_only=True)
def find_saved(db: Database, arxiv_id: ArxivId | None = None, tag: Tag | None = None) -> list[SavedArticle]:
    """Where articles sit in your library: every folder holding an article, or every saved article with a tag.

    Args:
        arxiv_id: An article's id.
        tag: A tag.
    """
    mine = [f["folder_id"] for f in db.select(folders, "owner_id = ?", (me(db)["user_id"],))]
    where = [f"folder_id IN ({', '.join('?' for _ in mine)})"]
    params: list = list(mine)
    if arxiv_id:
        where.append("paper_id = ?")
        params.append(paper(db, arxiv_id)[0]["id"])
    if tag:
        where.append("tags LIKE ?")
        params.append(f"%|{tag}|%")
    rows = db.select(saved_papers, " AND ".join(where), params, order_by="folder_id")
    return [saved_out(db, r) for r in rows]


@tool()
def create_folder(db: Database, name: FolderName, description: Description = "") -> Folder:
    """Create an empty folder in your library. Names are unique among your folders (ignoring case); a library
    holds at most 20 folders.

    Args:
        name: The folder's name.
        description: What it is for.
    """
    clean = check_folder_name(db, name)
    check_folder_quota(db)
    row = db.insert(
        folders,
        folder_id=db.new_id(folders, "F"),
        owner_id=me(db)["user_id"],
        name=clean,
        description=description,
        created_at=db.now_iso(),
    )
    return folder_out(db, row)


@tool()
def update_folder(
    db: Database, folder_id: str, name: FolderName | None = None, description: Description | None = None
) -> Folder:
    """Rename a folder or change its description.

    Args:
        folder_id: The folder's id.
        name: A new name, unique among your folders.
        description: A new description.
    """
    row = own_folder(db, folder_id)
    changes: dict = {}
    if name is not None:
        changes["name"] = check_folder_name(db, name, keep=folder_id)
    if description is not None:
        changes["description"] = description
    return folder_out(db, db.update(folders, folder_id, **changes) if changes else row)


@tool()
def delete_folder(db: Database, folder_id: str, move_to: str | None = None) -> Folder:
    """Delete a folder. A folder that still holds articles is refused unless move_to names another of your
    folders to receive them (with their tags and notes); an article already in that folder is refused too.

    Args:
        folder_id: The folder to delete.
        move_to: The folder that receives its articles.
    """
    row = own_folder(db, folder_id)
    items = db.select(saved_papers, "folder_id = ?", (folder_id,))
    gone = folder_out(db, row)
    if items and move_to is None:
        raise Conflict(
            f"Folder '{row['name']}' still holds {len(items)} articles; move or remove them first, or pass move_to."
        )
    if items:
        target = own_folder(db, move_to or "")
        if target["folder_id"] == folder_id:
            raise Conflict("move_to must be another folder.")
        for item in items:
            check_not_saved(db, target, item["paper_id"])
        for item in items:
            db.delete(saved_papers, item["key"])
            db.insert(
                saved_papers,
                **{**item, "key": f"{target['folder_id']}/{item['paper_id']}", "folder_id": target["folder_id"]},
            )
    db.delete(folders, folder_id)
    return gone


@tool()
def save_paper(
    db: Database, folder_id: str, arxiv_id: ArxivId, tags: Tags | None = None, note: Note = ""
) -> SavedArticle:
    """Save an article to one of your folders with tags and a note. A bare id follows the latest version; a
    versioned id (2309.01363v2) pins that version. A withdrawn article can only be saved at an earlier version.
    An article is saved once per folder.

    Args:
        folder_id: The folder's id.
        arxiv_id: The article's id, optionally with a version.
        tags: Lower-case tags, e.g. ["to-read", "methods"].
        note: A note.
    """
    folder = own_folder(db, folder_id)
    row, version = paper(db, arxiv_id)
    pin = pinned_version(row, version, explicit=parse_id(arxiv_id)[1] is not None)
    check_not_saved(db, folder, row["id"])
    saved = db.insert(
        saved_papers,
        key=f"{folder_id}/{row['id']}",
        folder_id=folder_id,
        paper_id=row["id"],
        version=pin,
        tags=tag_text(tags or []),
        note=note,
        saved_at=db.now_iso(),
    )
    return saved_out(db, saved)


@tool()
def update_saved_paper(
    db: Database,
    folder_id: str,
    arxiv_id: ArxivId,
    tags: Tags | None = None,
    note: Note | None = None,
    pin_version: Annotated[int, Field(ge=0)] | None = None,
    move_to: str | None = None,
) -> SavedArticle:
    """Change a saved article: replace its tags or note, pin a version (0 unpins, following the latest), or move
    it to another of your folders.

    Args:
        folder_id: The folder it is saved in.
        arxiv_id: The article's id.
        tags: The new full set of tags.
        note: The new note (empty clears it).
        pin_version: A version number to keep, or 0 to follow the latest.
        move_to: Another folder's id.
    """
    folder = own_folder(db, folder_id)
    row, _ = paper(db, arxiv_id)
    item = saved_in(db, folder, row["id"])
    changes: dict = {}
    if tags is not None:
        changes["tags"] = tag_text(tags)
    if note is not None:
        changes["note"] = note
    if pin_version is not None:
        if pin_version == 0:
            pinned_version(row, paper(db, row["id"])[1], explicit=False)
            changes["version"] = None
        else:
            changes["version"] = pinned_version(row, paper(db, f"{row['id']}v{pin_version}")[1], explicit=True)
    item = db.update(saved_papers, item["key"], **changes) if changes else item
    if move_to is not None:
        target = own_folder(db, move_to)
        check_not_saved(db, target, row["id"])
        db.delete(saved_papers, item["key"])
        item = db.insert(saved_papers, **{**item, "key": f"{move_to}/{row['id']}", "folder_id": move_to})
    return saved_out(db, item)


@tool()
def remove_saved_paper(db: Database, folder_id: str, arxiv_id: ArxivId) -> SavedArticle:
    """Remove an article (with its tags and note) from one of your folders.

    Args:
        folder_id: The folder's id.
        arxiv_id: The article's id.
    """
    folder = own_folder(db, folder_id)
    row, _ = paper(db, arxiv_id)
    item = saved_in(db, folder, row["id"])
    out = saved_out(db, item)
    db.delete(saved_papers, item["key"])
    return out


# ---------------------------------------------------------------- follows and alerts


@tool(read_only=True)
def list_follows(db: Database) -> list[Follow]:
    """The authors (by arXiv author identifier) and categories you follow."""
    rows = db.select(follows, "owner_id = ?", (me(db)["user_id"],), order_by="kind, target")
    return [follow_out(db, r) for r in rows]


@tool()
def follow(db: Database, kind: FollowKind, target: Annotated[str, Field(min_length=2, max_length=60)]) -> Follow:
    """Follow an author (by their arXiv author identifier, e.g. okafor_c_1, shown on every entry's authors) or a
    category. Two people can share a name; the identifier tells them apart.

    Args:
        kind: author or category.
        target: The author identifier or category id.
    """
    if kind == "author":
        found = db.select(authors, "id = ?", (target.strip().lower(),))
        if not found:
            raise NotFound(f"No arXiv author with identifier '{target}'")
        key = found[0]["id"]
    else:
        key = category(db, target)["id"]
    owner = me(db)["user_id"]
    if db.select(follows, "key = ?", (f"{owner}/{kind}/{key}",)):
        raise Conflict(f"You already follow {kind} {key}.")
    row = db.insert(
        follows, key=f"{owner}/{kind}/{key}", owner_id=owner, kind=kind, target=key, followed_at=db.now_iso()
    )
    return follow_out(db, row)


@tool()
def unfollow(db: Database, kind: FollowKind, target: Annotated[str, Field(min_length=2, max_length=60)]) -> Follow:
    """Stop following an author or a category.

    Args:
        kind: author or category.
        target: The author identifier or category id you follow.
    """
    owner = me(db)["user_id"]
    found = db.select(follows, "owner_id = ? AND kind = ? AND lower(target) = ?", (owner, kind, target.strip().lower()))
    if not found:
        raise NotFound(f"You do not follow {kind} {target}.")
    out = follow_out(db, found[0])
    db.delete(follows, found[0]["key"])
    return out


@tool(read_only=True)
def list_alerts(db: Database) -> list[Alert]:
    """Your e-mail alerts: one per category, daily or weekly, with cross-lists or not, optionally narrowed by a
    search_query, active or paused."""
    rows = db.select(alerts, "owner_id = ?", (me(db)["user_id"],), order_by="category")
    return [alert_out(r) for r in rows]


@tool()
def create_alert(
    db: Database,
    category_id: CategoryId,
    frequency: Frequency = "daily",
    include_cross_lists: bool = True,
    search_query: Annotated[str, Field(max_length=1000)] = "",
) -> Alert:
    """E-mail me a category's new articles. One alert per category; a search_query (the API's syntax) narrows it
    to matching articles.

    Args:
        category_id: The category, e.g. q-bio.GN.
        frequency: daily (each mailing) or weekly (Fridays).
        include_cross_lists: Also send articles cross-listed to the category.
        search_query: Only articles matching this query; empty for all.
    """
    cat = category(db, category_id)["id"]
    check_alert_free(db, cat)
    if search_query.strip():
        compile_query(search_query)
    row = db.insert(
        alerts,
        alert_id=db.new_id(alerts, "AL", width=3),
        owner_id=me(db)["user_id"],
        category=cat,
        frequency=frequency,
        include_cross_lists=int(include_cross_lists),
        search_query=search_query.strip(),
        status="active",
        created_at=db.now_iso(),
    )
    return alert_out(row)


@tool()
def update_alert(
    db: Database,
    alert_id: str,
    frequency: Frequency | None = None,
    include_cross_lists: bool | None = None,
    search_query: Annotated[str, Field(max_length=1000)] | None = None,
    status: AlertStatus | None = None,
) -> Alert:
    """Change an alert: frequency, cross-lists, its search_query (empty for every article), or pause/resume it.

    Args:
        alert_id: The alert's id (AL...), as list_alerts shows it.
        frequency: daily or weekly.
        include_cross_lists: Whether cross-lists are sent.
        search_query: The new narrowing query.
        status: active or paused.
    """
    row = own_alert(db, alert_id)
    changes: dict = {}
    if frequency is not None:
        changes["frequency"] = frequency
    if include_cross_lists is not None:
        changes["include_cross_lists"] = int(include_cross_lists)
    if search_query is not None:
        if search_query.strip():
            compile_query(search_query)
        changes["search_query"] = search_query.strip()
    if status is not None:
        changes["status"] = status
    return alert_out(db.update(alerts, alert_id, **changes) if changes else row)


@tool()
def delete_alert(db: Database, alert_id: str) -> Alert:
    """Delete an e-mail alert.

    Args:
        alert_id: The alert's id.
    """
    out = alert_out(own_alert(db, alert_id))
    db.delete(alerts, alert_id)
    return out


# ---------------------------------------------------------------- helpers


def _papers(db: Database, ids: list[str]) -> list[dict]:
    unique = list(dict.fromkeys(ids))
    if not unique:
        return []
    return db.select(papers, f"id IN ({', '.join('?' for _ in unique)})", unique)


def _latest_versions(db: Database, ids: list[str]) -> list[dict]:
    rows = _papers(db, ids)
    if not rows:
        return []
    keys = [f"{p['id']}v{p['latest_version']}" for p in rows]
    return db.select(versions, f"key IN ({', '.join('?' for _ in keys)})", keys)
