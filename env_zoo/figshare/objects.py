"""Figshare's API objects (ArticlePresenter and its L2 detail, files, versions, categories, licences,
collections, projects and collaborators) as output models, and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from .rules import ITEM_TYPES, article_files, author_ids, collection_article_ids
from .schema import accounts, article_versions, articles, authors, categories, licenses, project_members

URL = "https://figshare.com"


class Author(BaseModel):
    id: int
    full_name: str
    is_active: bool
    orcid_id: str


class Category(BaseModel):
    id: int
    parent_id: int
    title: str
    path: str


class License(BaseModel):
    value: int
    name: str
    url: str


class File(BaseModel):
    id: int
    name: str
    size: int
    computed_md5: str
    is_link_only: bool
    download_url: str
    status: str


class Embargo(BaseModel):
    is_embargoed: bool
    embargo_type: str
    embargo_date: str
    embargo_title: str
    embargo_reason: str


class Article(BaseModel):
    """ArticlePresenter: an article as listings and searches show it."""

    id: int
    title: str
    doi: str
    status: str
    version: int
    defined_type: int
    defined_type_name: str
    published_date: str
    created_date: str
    url: str


class ArticleDetails(Article):
    """ArticlePresenter.L2: an article with all its metadata, authors, files and embargo."""

    description: str
    tags: list[str]
    categories: list[Category]
    license: License | None
    funding: str
    references: list[str]
    authors: list[Author]
    files: list[File]
    embargo: Embargo
    project_id: int | None
    is_public: bool
    has_unpublished_changes: bool
    views: int
    downloads: int


class ArticleVersion(BaseModel):
    version: int
    title: str
    doi: str
    license: str
    authors: list[str]
    files: list[str]
    url: str


class Collection(BaseModel):
    id: int
    title: str
    description: str
    doi: str
    status: str
    version: int
    has_unpublished_changes: bool
    categories: list[Category]
    tags: list[str]
    articles: list[Article]


class Collaborator(BaseModel):
    user_id: int | None
    name: str
    email: str
    role_name: str
    status: str


class Project(BaseModel):
    id: int
    title: str
    description: str
    funding: str
    storage: str
    role: str
    created_date: str


class ProjectDetails(Project):
    collaborators: list[Collaborator]
    articles: list[Article]


class DoiReserved(BaseModel):
    doi: str


def category_objects(db: Database, ids: list[int]) -> list[Category]:
    if not ids:
        return []
    rows = {r["category_id"]: r for r in db.select(categories, f"category_id IN ({','.join('?' * len(ids))})", ids)}
    return [category_object(rows[i]) for i in ids if i in rows]


def category_object(row: dict[str, Any]) -> Category:
    return Category(id=row["category_id"], parent_id=row["parent_id"] or 0, title=row["title"], path=row["path"])


def license_object(row: dict[str, Any]) -> License:
    return License(value=row["value"], name=row["name"], url=row["url"])


def article_object(row: dict[str, Any]) -> Article:
    return Article(
        id=row["article_id"],
        title=row["title"],
        doi=row["doi"],
        status=row["status"],
        version=row["version"],
        defined_type=ITEM_TYPES[row["defined_type"]],
        defined_type_name=row["defined_type"],
        published_date=row["published_date"],
        created_date=row["created_date"],
        url=f"{URL}/articles/{row['article_id']}",
    )


def author_object(row: dict[str, Any]) -> Author:
    return Author(id=row["author_id"], full_name=row["full_name"], is_active=row["is_active"], orcid_id=row["orcid_id"])


def article_details(db: Database, row: dict[str, Any]) -> ArticleDetails:
    licence = db.select(licenses, "value = ?", (row["license"],)) if row["license"] is not None else []
    return ArticleDetails(
        **article_object(row).model_dump(),
        description=row["description"],
        tags=row["tags"],
        categories=category_objects(db, row["categories"]),
        license=license_object(licence[0]) if licence else None,
        funding=row["funding"],
        references=row["references"],
        authors=[author_object(db.get(authors, a, "Author")) for a in author_ids(db, row["article_id"])],
        files=[file_object(f) for f in article_files(db, row["article_id"])],
        embargo=Embargo(**{k: row[k] for k in Embargo.model_fields}),
        project_id=row["project_id"],
        is_public=row["status"] == "public",
        has_unpublished_changes=row["has_changes"],
        views=row["views"],
        downloads=row["downloads"],
    )


def file_object(row: dict[str, Any]) -> File:
    return File(
        id=row["file_id"],
        name=row["name"],
        size=row["size"],
        computed_md5=row["computed_md5"],
        is_link_only=row["is_link_only"],
        download_url=row["download_url"],
        status=row["status"],
    )


def version_objects(db: Database, article_id: int) -> list[ArticleVersion]:
    names = {r["value"]: r["name"] for r in db.select(licenses)}
    return [
        ArticleVersion(
            version=r["version"],
            title=r["title"],
            doi=r["doi"],
            license=names.get(r["license"], ""),
            authors=r["author_names"],
            files=r["file_names"],
            url=f"{URL}/articles/{article_id}/versions/{r['version']}",
        )
        for r in db.select(article_versions, "article_id = ?", (article_id,), order_by="version")
    ]


def collection_object(db: Database, row: dict[str, Any]) -> Collection:
    ids = collection_article_ids(db, row["collection_id"])
    rows = db.select(articles, f"article_id IN ({','.join('?' * len(ids))})", ids) if ids else []
    return Collection(
        id=row["collection_id"],
        title=row["title"],
        description=row["description"],
        doi=row["doi"],
        status=row["status"],
        version=row["version"],
        has_unpublished_changes=row["has_changes"],
        categories=category_objects(db, row["categories"]),
        tags=row["tags"],
        articles=[article_object(r) for r in rows],
    )


def project_object(row: dict[str, Any], role: str) -> Project:
    return Project(
        id=row["project_id"],
        title=row["title"],
        description=row["description"],
        funding=row["funding"],
        storage=row["storage"],
        role=role,
        created_date=row["created_date"],
    )


def project_details(db: Database, row: dict[str, Any], role: str) -> ProjectDetails:
    members = []
    for m in db.select(project_members, "project_id = ?", (row["project_id"],), order_by="role DESC, email"):
        account = db.get(accounts, m["account_id"], "Account") if m["account_id"] is not None else None
        name = f"{account['first_name']} {account['last_name']}" if account else ""
        members.append(Collaborator(user_id=m["account_id"], name=name, email=m["email"], role_name=m["role"],
                                    status=m["status"]))  # fmt: skip
    found = db.select(articles, "project_id = ?", (row["project_id"],), order_by="created_date DESC")
    return ProjectDetails(
        **project_object(row, role).model_dump(), collaborators=members, articles=[article_object(a) for a in found]
    )
