"""Figshare's rules: item types, mandatory metadata for publishing, DOIs (reserved on drafts, versioned on
publish), what makes a new version, embargoes (article or file level, permanent only for files), storage quota,
collections of public items only and project roles."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .access import me
from .schema import (
    article_authors,
    article_versions,
    articles,
    authors,
    categories,
    collection_articles,
    collections,
    files,
    licenses,
)

DOI_PREFIX = "10.6084/m9.figshare."
ITEM_TYPES = {
    "figure": 1,
    "media": 2,
    "dataset": 3,
    "poster": 5,
    "journal contribution": 6,
    "presentation": 7,
    "thesis": 8,
    "software": 9,
    "online resource": 11,
    "preprint": 12,
    "book": 13,
    "conference contribution": 14,
    "chapter": 15,
    "peer review": 16,
    "educational resource": 17,
    "report": 18,
    "standard": 19,
    "composition": 20,
    "funding": 21,
    "physical object": 22,
    "data management plan": 23,
    "workflow": 24,
    "monograph": 25,
    "performance": 26,
    "event": 27,
    "service": 28,
    "model": 29,
}
MAX_AUTHORS_PER_REQUEST = 10
MAX_COLLECTION_ARTICLES_PER_REQUEST = 10
VERSIONED_FIELDS = ("title", "license")  # with authors and files: what starts a new public version


def check_categories(db: Database, ids: list[int]) -> list[int]:
    wanted = sorted(set(ids))  # a set: stored in one canonical order
    if wanted:
        known = {
            r["category_id"] for r in db.select(categories, f"category_id IN ({','.join('?' * len(wanted))})", wanted)
        }
        for category_id in wanted:
            if category_id not in known:
                raise InvalidRequest(f"Category with ID {category_id} not found")
    return wanted


def check_license(db: Database, value: int) -> int:
    if not db.select(licenses, "value = ?", (value,)):
        raise InvalidRequest(f"License with ID {value} not found")
    return value


def resolve_authors(db: Database, given: list[dict[str, Any]]) -> list[int]:
    """Author ids for a list of {"id": ...} or {"name": ...}; a new name becomes a new author without an account."""
    result: list[int] = []
    for entry in given:
        if entry.get("id") is not None:
            if not db.select(authors, "author_id = ?", (entry["id"],)):
                raise InvalidRequest(f"Author with ID {entry['id']} not found")
            author_id = int(entry["id"])
        elif entry.get("name"):
            name = " ".join(str(entry["name"]).split())
            known = db.select(authors, "full_name = ? AND is_active = 0", (name,))
            author_id = known[0]["author_id"] if known else 17000000 + db.next_number("id:authors", authors)
            if not known:
                db.insert(authors, author_id=author_id, full_name=name, orcid_id="", is_active=False, institution="")
        else:
            raise InvalidRequest("Each author needs an id or a name")
        if author_id not in result:
            result.append(author_id)
    return result


def author_ids(db: Database, article_id: int) -> list[int]:
    return [r["author_id"] for r in db.select(article_authors, "article_id = ?", (article_id,), order_by="position")]


def set_authors(db: Database, article_id: int, ids: list[int]) -> None:
    for row in db.select(article_authors, "article_id = ?", (article_id,)):
        db.delete(article_authors, row["link_key"])
    for position, author_id in enumerate(ids, start=1):
        db.insert(
            article_authors,
            link_key=f"{article_id}/{position}",
            article_id=article_id,
            position=position,
            author_id=author_id,
        )


def article_files(db: Database, article_id: int) -> list[dict[str, Any]]:
    return db.select(files, "article_id = ?", (article_id,), order_by="name")


def mark_changed(db: Database, article: dict[str, Any], versioned: bool) -> dict[str, Any]:
    """Record a private edit; on a published article it waits for the next publish (a new version if versioned)."""
    changes: dict[str, Any] = {"modified_date": db.now_iso()}
    if article["version"] > 0:
        changes["has_changes"] = True
        if versioned:
            changes["versioned_changes"] = True
    return db.update(articles, article["article_id"], **changes)


def storage_used(db: Database, account_id: int) -> int:
    rows = db.conn.exec_driver_sql(
        "SELECT COALESCE(SUM(f.size), 0) FROM files f JOIN articles a ON a.article_id = f.article_id "
        "WHERE a.owner_id = ? AND f.is_link_only = 0",
        (account_id,),
    ).fetchone()
    return int(rows[0])


def check_quota(db: Database, size: int) -> None:
    account = me(db)
    used = storage_used(db, account["account_id"])
    if used + size > account["quota"]:
        raise Conflict(
            f"Not enough storage: this file needs {size} bytes but only {account['quota'] - used} of your "
            f"{account['quota']} bytes are free."
        )


def missing_for_publication(db: Database, article: dict[str, Any]) -> str | None:
    """The first mandatory field an article lacks for publication, or None."""
    checks = (
        ("authors", bool(author_ids(db, article["article_id"]))),
        ("description", bool(article["description"].strip())),
        ("categories", bool(article["categories"])),
        ("keywords", bool(article["tags"])),
        ("license", article["license"] is not None),
        ("files", bool(article_files(db, article["article_id"]))),
    )
    return next((name for name, ok in checks if not ok), None)


def check_embargo(db: Database, embargo_type: str, embargo_date: str) -> None:
    if embargo_date == "0":
        if embargo_type != "file":
            raise InvalidRequest("A permanent embargo is only available for files (embargo_type file).")
        return
    if embargo_date <= db.now().date().isoformat():
        raise InvalidRequest("Invalid expires date")


def record_version(db: Database, article: dict[str, Any], version: int) -> None:
    names = [db.get(authors, a, "Author")["full_name"] for a in author_ids(db, article["article_id"])]
    db.insert(
        article_versions,
        version_key=f"{article['article_id']}/v{version}",
        article_id=article["article_id"],
        version=version,
        title=article["title"],
        doi=f"{DOI_PREFIX}{article['article_id']}.v{version}",
        license=article["license"],
        file_names=[f["name"] for f in article_files(db, article["article_id"])],
        author_names=names,
        published_date=db.now_iso(),
    )


def release(db: Database, article: dict[str, Any]) -> dict[str, Any]:
    """Make the article public: version 1 on the first publish, a new version when versioned fields changed,
    else the current version refreshed."""
    first = article["version"] == 0
    version = 1 if first else article["version"] + (1 if article["versioned_changes"] else 0)
    if version != article["version"]:
        record_version(db, article, version)
    else:
        db.update(
            article_versions,
            f"{article['article_id']}/v{version}",
            title=article["title"],
            license=article["license"],
            published_date=db.now_iso(),
        )
    return db.update(
        articles,
        article["article_id"],
        status="public",
        version=version,
        doi=article["doi"] or f"{DOI_PREFIX}{article['article_id']}",
        has_changes=False,
        versioned_changes=False,
        published_date=db.now_iso() if first else article["published_date"],
        modified_date=db.now_iso(),
    )


def public_article(db: Database, article_id: int) -> dict[str, Any]:
    found = db.select(articles, "article_id = ? AND status = 'public'", (article_id,))
    if not found:
        raise NotFound("Article with specified ID does not exist")
    return found[0]


def collection_article_ids(db: Database, collection_id: int) -> list[int]:
    rows = db.select(collection_articles, "collection_id = ?", (collection_id,), order_by="article_id")
    return [r["article_id"] for r in rows]


def add_to_collection(db: Database, collection: dict[str, Any], ids: list[int]) -> list[int]:
    """Add public articles (anyone's) to a collection; ones already in it are skipped; returns those added."""
    present = set(collection_article_ids(db, collection["collection_id"]))
    added = []
    for article_id in dict.fromkeys(ids):
        found = db.select(articles, "article_id = ?", (article_id,))
        if not found:
            raise NotFound("Article not found")
        if found[0]["status"] != "public":
            raise InvalidRequest(f"Article {article_id} is not public: collections can only hold public items.")
        if article_id not in present:
            added.append(article_id)
    for article_id in added:
        db.insert(
            collection_articles,
            link_key=f"{collection['collection_id']}/{article_id}",
            collection_id=collection["collection_id"],
            article_id=article_id,
            added_date=db.now_iso(),
        )
    if added:
        touch_collection(db, collection)
    return added


def touch_collection(db: Database, collection: dict[str, Any], versioned: bool = True) -> None:
    changes: dict[str, Any] = {"modified_date": db.now_iso()}
    if collection["version"] > 0:
        changes["has_changes"] = True
        if versioned:
            changes["versioned_changes"] = True
    db.update(collections, collection["collection_id"], **changes)


def check_unique_title(existing: list[dict[str, Any]], title: str, what: str) -> str:
    clean = " ".join(title.split())
    for row in existing:
        if row["title"].lower() == clean.lower():
            raise Conflict(f"You already have a {what} titled '{row['title']}'.")
    return clean


def page_of(rows: list[dict[str, Any]], page: int, size: int) -> list[dict[str, Any]]:
    """One page of rows (Figshare's page / page_size paging)."""
    return rows[(page - 1) * size : page * size]


def text_match(search_for: str) -> tuple[str, list[Any]]:
    """An SQL filter for search_for in an article's title, description or keywords."""
    pattern = f"%{search_for.lower()}%"
    return "(lower(title) LIKE ? OR lower(description) LIKE ? OR lower(tags) LIKE ?)", [pattern] * 3
