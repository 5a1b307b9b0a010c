"""What the arXiv tools return: API feed entries (an article at one version), the feed with its OpenSearch counts,
version histories, category listings, and the reader's folders, saved articles, follows and alerts."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from .schema import authors, categories, folders, paper_authors, papers, saved_papers


class Author(BaseModel):
    name: str
    author_id: str  # arXiv author identifier, e.g. herrera_l_1
    affiliation: str


class Entry(BaseModel):
    """One article as the API's Atom entry gives it, at the version asked for (the latest by default)."""

    id: str  # versioned id, e.g. 2309.01363v3
    title: str
    summary: str
    authors: list[Author]
    published: str  # v1 submission time
    updated: str  # this version's submission time
    version: int
    latest_version: int
    status: str  # active | withdrawn
    comment: str
    journal_ref: str
    doi: str
    report_no: str
    primary_category: str
    categories: list[str]
    license: str
    abs_url: str
    pdf_url: str


class Feed(BaseModel):
    """A search's results with the OpenSearch counts."""

    total_results: int
    start_index: int
    items_per_page: int
    entries: list[Entry]


class Version(BaseModel):
    version: str  # v1, v2, ...
    submitted: str
    announced: str  # the mailing date that announced it
    size_kb: int
    comments: str
    withdrawn: bool


class VersionHistory(BaseModel):
    id: str
    title: str
    status: str
    latest_version: int
    versions: list[Version]


class ListingItem(BaseModel):
    id: str  # versioned id
    title: str
    authors: list[str]
    primary_category: str
    categories: list[str]
    comment: str


class DailyListing(BaseModel):
    """One category's announcement for one mailing day: new submissions, cross-lists and replacements."""

    category: str
    date: str
    new: list[ListingItem]
    cross_lists: list[ListingItem]
    replacements: list[ListingItem]


class MonthListing(BaseModel):
    category: str
    month: str
    total: int
    skip: int
    show: int
    entries: list[ListingItem]


class Category(BaseModel):
    id: str
    name: str
    archive: str
    group: str


class Folder(BaseModel):
    folder_id: str
    name: str
    description: str
    article_count: int
    created_at: str


class SavedArticle(BaseModel):
    folder_id: str
    folder_name: str
    arxiv_id: str
    title: str
    pinned_version: int | None  # None follows the latest version
    latest_version: int
    status: str
    tags: list[str]
    note: str
    saved_at: str


class FolderDetail(Folder):
    articles: list[SavedArticle]


class Follow(BaseModel):
    kind: str  # author | category
    target: str  # author identifier or category id
    name: str
    followed_at: str


class Alert(BaseModel):
    alert_id: str
    category: str
    frequency: str
    include_cross_lists: bool
    search_query: str
    status: str
    created_at: str


def split_bars(text: str) -> list[str]:
    return [part for part in text.split("|") if part]


def byline(db: Database, paper_id: str) -> list[dict[str, Any]]:
    rows = db.select(paper_authors, "paper_id = ?", (paper_id,), order_by="position")
    found = {
        a["id"]: a
        for a in db.select(authors, f"id IN ({', '.join('?' for _ in rows)})", [r["author_id"] for r in rows])
    }
    return [found[r["author_id"]] for r in rows]


def entry(db: Database, paper: dict[str, Any], version: dict[str, Any]) -> Entry:
    vid = f"{paper['id']}v{version['version']}"
    return Entry(
        id=vid,
        title=paper["title"],
        summary=paper["abstract"],
        authors=[
            Author(name=a["name"], author_id=a["id"], affiliation=a["affiliation"]) for a in byline(db, paper["id"])
        ],
        published=paper["published"],
        updated=version["submitted"],
        version=version["version"],
        latest_version=paper["latest_version"],
        status=paper["status"],
        comment=version["comments"],
        journal_ref=paper["journal_ref"],
        doi=paper["doi"],
        report_no=paper["report_no"],
        primary_category=paper["primary_category"],
        categories=split_bars(paper["categories"]),
        license=paper["license"],
        abs_url=f"https://arxiv.org/abs/{vid}",
        pdf_url=f"https://arxiv.org/pdf/{vid}",
    )


def version_out(row: dict[str, Any]) -> Version:
    return Version(
        version=f"v{row['version']}",
        submitted=row["submitted"],
        announced=row["announced"],
        size_kb=row["size_kb"],
        comments=row["comments"],
        withdrawn=bool(row["withdrawn"]),
    )


def listing_item(db: Database, paper: dict[str, Any], version: int, comment: str) -> ListingItem:
    return ListingItem(
        id=f"{paper['id']}v{version}",
        title=paper["title"],
        authors=[a["name"] for a in byline(db, paper["id"])],
        primary_category=paper["primary_category"],
        categories=split_bars(paper["categories"]),
        comment=comment,
    )


def category_out(row: dict[str, Any]) -> Category:
    return Category(id=row["id"], name=row["name"], archive=row["archive"], group=row["group_name"])


def folder_out(db: Database, row: dict[str, Any]) -> Folder:
    count = len(db.select(saved_papers, "folder_id = ?", (row["folder_id"],)))
    return Folder(
        folder_id=row["folder_id"],
        name=row["name"],
        description=row["description"],
        article_count=count,
        created_at=row["created_at"],
    )


def saved_out(db: Database, row: dict[str, Any]) -> SavedArticle:
    paper = db.get(papers, row["paper_id"], "Article")
    folder = db.get(folders, row["folder_id"], "Folder")
    return SavedArticle(
        folder_id=row["folder_id"],
        folder_name=folder["name"],
        arxiv_id=row["paper_id"],
        title=paper["title"],
        pinned_version=row["version"],
        latest_version=paper["latest_version"],
        status=paper["status"],
        tags=split_bars(row["tags"]),
        note=row["note"],
        saved_at=row["saved_at"],
    )


def folder_detail(db: Database, row: dict[str, Any]) -> FolderDetail:
    items = db.select(saved_papers, "folder_id = ?", (row["folder_id"],), order_by="saved_at, paper_id")
    return FolderDetail(**folder_out(db, row).model_dump(), articles=[saved_out(db, r) for r in items])


def follow_out(db: Database, row: dict[str, Any]) -> Follow:
    if row["kind"] == "author":
        name = db.get(authors, row["target"], "Author")["name"]
    else:
        name = db.get(categories, row["target"], "Category")["name"]
    return Follow(kind=row["kind"], target=row["target"], name=name, followed_at=row["followed_at"])


def alert_out(row: dict[str, Any]) -> Alert:
    return Alert(
        alert_id=row["alert_id"],
        category=row["category"],
        frequency=row["frequency"],
        include_cross_lists=bool(row["include_cross_lists"]),
        search_query=row["search_query"],
        status=row["status"],
        created_at=row["created_at"],
    )
