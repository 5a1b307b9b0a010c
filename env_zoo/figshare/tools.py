"""Figshare tools (API v2): the signed-in account's articles (create, edit, files, embargo, reserve a DOI, publish
as versions), public article search, the category and licence vocabularies, collections of public items and
projects with collaborators."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied, Unordered, tool
from envfactory_gym.fields import bounded, page_size

from .access import me, member_project, own_article, own_collection, owned_project, readable_article
from .inputs import AuthorList, CategoryIds, Email, EmbargoDate, ItemType, Md5, Page, References, SearchFor, Tags, Title
from .objects import (
    Article,
    ArticleDetails,
    ArticleVersion,
    Category,
    Collection,
    DoiReserved,
    File,
    License,
    Project,
    ProjectDetails,
    article_details,
    article_object,
    category_object,
    collection_object,
    file_object,
    license_object,
    project_details,
    project_object,
    version_objects,
)
from .rules import (
    DOI_PREFIX,
    add_to_collection,
    article_files,
    author_ids,
    check_categories,
    check_embargo,
    check_license,
    check_quota,
    collection_article_ids,
    mark_changed,
    missing_for_publication,
    page_of,
    release,
    resolve_authors,
    set_authors,
    text_match,
    touch_collection,
)
from .schema import (
    accounts,
    article_authors,
    articles,
    categories,
    collection_articles,
    collections,
    files,
    licenses,
    project_members,
    projects,
)

# ---------------------------------------------------------------- own articles


@tool(read_only=True)
def search_my_articles(
    db: Database,
    search_for: SearchFor | None = None,
    status: Literal["draft", "public", "embargoed"] | None = None,
    item_type: ItemType | None = None,
    page: Page = 1,
    page_size: page_size(100) = 10,
) -> list[Article]:
    """List or search your own articles (GET/POST /account/articles), newest created first: drafts, public items
    and items waiting for an embargo to lift.

    Args:
        search_for: Text to find in titles, descriptions or keywords (at least 4 characters).
        status: draft (never published), public, or embargoed (published, waiting for a whole-item embargo).
        item_type: Only this item type (dataset, figure, software, ...).
        page: Page number, from 1.
        page_size: Results per page, 1-100 (default 10).
    """
    where, params = ["owner_id = ?"], [me(db)["account_id"]]
    if search_for:
        clause, values = text_match(search_for)
        where.append(clause)
        params += values
    for column, value in (("status", status), ("defined_type", item_type)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    rows = db.select(articles, " AND ".join(where), params, order_by="created_date DESC")
    return [article_object(r) for r in page_of(rows, page, page_size)]


@tool(read_only=True)
def get_my_article(db: Database, article_id: int) -> ArticleDetails:
    """One of your articles (or one in a project you belong to) in full: metadata, authors, categories, licence,
    files, embargo, DOI, version and whether it has unpublished changes.

    Args:
        article_id: The article's id, as search_my_articles or a project shows it.
    """
    return article_details(db, readable_article(db, article_id))


@tool()
def create_article(
    db: Database,
    title: Title,
    defined_type: ItemType,
    description: Annotated[str, Field(max_length=10000)] = "",
    tags: Tags | None = None,
    categories: CategoryIds | None = None,
    license: int | None = None,
    authors: AuthorList | None = None,
    funding: Annotated[str, Field(max_length=2000)] = "",
    references: References | None = None,
    project_id: int | None = None,
) -> ArticleDetails:
    """Create a new private draft article (POST /account/articles, or in a project: POST
    /account/projects/{id}/articles). You are its only author unless authors are given.

    Args:
        title: The article's title (3-1000 characters).
        defined_type: The item type: dataset, figure, software, poster, preprint, ...
        description: The description (required before publishing).
        tags: Keywords (at least one is required before publishing).
        categories: Category ids from list_categories.
        license: Licence value from list_licenses.
        authors: Up to 10 authors, each {"id": author id} or {"name": "Full Name"}, in order.
        funding: Grant number or funding body.
        references: Links to related resources (http or https).
        project_id: Create it inside this project (owners and collaborators only, not viewers).
    """
    account = me(db)
    if project_id is not None:
        _, role = member_project(db, project_id)
        if role["role"] == "viewer":
            raise PermissionDenied("Viewers cannot add items to a project.")
    article_id = 24900000 + db.next_number("id:articles", articles)
    row = db.insert(
        articles,
        article_id=article_id,
        owner_id=account["account_id"],
        project_id=project_id,
        title=" ".join(title.split()),
        description=description,
        defined_type=defined_type,
        tags=sorted(set(tags or [])),
        categories=check_categories(db, list(categories or [])),
        license=check_license(db, license) if license is not None else None,
        funding=funding,
        references=list(references or []),
        status="draft",
        version=0,
        doi="",
        has_changes=False,
        versioned_changes=False,
        is_embargoed=False,
        embargo_type="",
        embargo_date="",
        embargo_title="",
        embargo_reason="",
        views=0,
        downloads=0,
        created_date=db.now_iso(),
        published_date="",
        modified_date=db.now_iso(),
    )
    given = [a.model_dump() for a in authors] if authors else [{"id": account["author_id"]}]
    set_authors(db, article_id, resolve_authors(db, given))
    return article_details(db, row)


@tool()
def update_article(
    db: Database,
    article_id: int,
    title: Title | None = None,
    description: Annotated[str, Field(max_length=10000)] | None = None,
    defined_type: ItemType | None = None,
    tags: Tags | None = None,
    categories: CategoryIds | None = None,
    license: int | None = None,
    authors: AuthorList | None = None,
    funding: Annotated[str, Field(max_length=2000)] | None = None,
    references: References | None = None,
) -> ArticleDetails:
    """Edit one of your articles (PUT /account/articles/{id}); lists given replace the old ones. On a published
    article the edit stays private until you publish again; a new title, licence or author list makes that
    publish a new version.

    Args:
        article_id: The article's id.
        title: New title.
        description: New description.
        defined_type: New item type.
        tags: Keywords replacing the old ones.
        categories: Category ids replacing the old ones.
        license: New licence value from list_licenses.
        authors: Authors replacing the old list, each {"id": ...} or {"name": ...}.
        funding: New funding text.
        references: Links replacing the old ones.
    """
    row = own_article(db, article_id)
    changes: dict[str, Any] = {}
    versioned = False
    if title is not None and " ".join(title.split()) != row["title"]:
        changes["title"] = " ".join(title.split())
        versioned = True
    if license is not None and license != row["license"]:
        changes["license"] = check_license(db, license)
        versioned = True
    if categories is not None:
        changes["categories"] = check_categories(db, list(categories))
    for name, value in (("description", description), ("defined_type", defined_type), ("funding", funding)):
        if value is not None:
            changes[name] = value
    if tags is not None:
        changes["tags"] = sorted(set(tags))
    if references is not None:
        changes["references"] = list(references)
    if authors is not None:
        new = resolve_authors(db, [a.model_dump() for a in authors])
        if new != author_ids(db, article_id):
            set_authors(db, article_id, new)
            versioned = True
    if changes:
        row = db.update(articles, article_id, **changes)
    return article_details(db, mark_changed(db, row, versioned))


@tool()
def delete_article(db: Database, article_id: int) -> Article:
    """Delete one of your private articles with its files (DELETE /account/articles/{id}). An article that has
    ever been published cannot be deleted.

    Args:
        article_id: The article's id.
    """
    row = own_article(db, article_id)
    if row["version"] > 0 or row["status"] != "draft":
        raise Conflict("Only private articles can be deleted; a published article stays public with its DOI.")
    gone = article_object(row)
    for f in article_files(db, article_id):
        db.delete(files, f["file_id"])
    for link in db.select(article_authors, "article_id = ?", (article_id,)):
        db.delete(article_authors, link["link_key"])
    db.delete(articles, article_id)
    return gone


@tool()
def reserve_doi(db: Database, article_id: int) -> DoiReserved:
    """Reserve the DOI of a draft article (POST /account/articles/{id}/reserve_doi) to cite it before
    publishing; the DOI becomes active when the article is published.

    Args:
        article_id: The draft article's id.
    """
    row = own_article(db, article_id)
    if row["doi"]:
        raise Conflict(f"Article {article_id} already has a DOI: {row['doi']}")
    doi = f"{DOI_PREFIX}{article_id}"
    db.update(articles, article_id, doi=doi, modified_date=db.now_iso())
    return DoiReserved(doi=doi)


@tool()
def publish_article(db: Database, article_id: int) -> ArticleDetails:
    """Publish one of your articles (POST /account/articles/{id}/publish): it needs authors, a description,
    categories, keywords, a licence and at least one file. The first publish makes version 1 and activates the
    DOI; publishing again makes a new version when the title, licence, authors or files changed. Under a
    whole-article embargo the item waits (status embargoed) until the embargo is lifted.

    Args:
        article_id: The article's id.
    """
    row = own_article(db, article_id)
    missing = missing_for_publication(db, row)
    if missing:
        raise InvalidRequest(f"Missing mandatory field for publication - {missing}")
    if row["status"] == "public" and not row["has_changes"]:
        raise Conflict(
            f"Article {article_id} has no unpublished changes; it is already public as version {row['version']}."
        )
    if row["is_embargoed"] and row["embargo_type"] == "article" and row["version"] == 0:
        row = db.update(articles, article_id, status="embargoed", modified_date=db.now_iso())
        return article_details(db, row)
    return article_details(db, release(db, row))


@tool()
def update_embargo(
    db: Database,
    article_id: int,
    embargo_type: Literal["article", "file"],
    embargo_date: EmbargoDate,
    embargo_reason: Annotated[str, Field(max_length=1000)] = "",
    embargo_title: Annotated[str, Field(min_length=1, max_length=300)] = "File(s) under embargo",
) -> ArticleDetails:
    """Put one of your articles under embargo (PUT /account/articles/{id}/embargo): the whole article or only its
    files, until a future date (it lifts at 00:10 UTC that day); "0" embargoes files permanently.

    Args:
        article_id: The article's id.
        embargo_type: article (files and metadata hidden) or file (metadata public, files hidden).
        embargo_date: YYYY-MM-DD after today, or "0" for a permanent file embargo.
        embargo_reason: Why the item is embargoed (shown on the public record).
        embargo_title: Title shown for the embargo (default "File(s) under embargo").
    """
    row = own_article(db, article_id)
    check_embargo(db, embargo_type, embargo_date)
    row = db.update(
        articles,
        article_id,
        is_embargoed=True,
        embargo_type=embargo_type,
        embargo_date=embargo_date,
        embargo_reason=embargo_reason,
        embargo_title=embargo_title,
    )
    return article_details(db, mark_changed(db, row, versioned=False))


@tool()
def delete_embargo(db: Database, article_id: int) -> ArticleDetails:
    """Lift the embargo of one of your articles (DELETE /account/articles/{id}/embargo). An article waiting for a
    whole-article embargo is published at once.

    Args:
        article_id: The article's id.
    """
    row = own_article(db, article_id)
    if not row["is_embargoed"]:
        raise InvalidRequest(f"Article {article_id} is not under embargo.")
    permanent = row["embargo_date"] == "0"
    row = db.update(
        articles, article_id, is_embargoed=False, embargo_type="", embargo_date="", embargo_reason="", embargo_title=""
    )
    if row["status"] == "embargoed":
        return article_details(db, release(db, row))
    return article_details(db, mark_changed(db, row, versioned=permanent))


# ---------------------------------------------------------------- files and versions


@tool()
def upload_file(
    db: Database,
    article_id: int,
    name: Annotated[str, Field(min_length=1, max_length=255, pattern=r"\S")],
    size: bounded(1, 20 * 1024**3),
    md5: Md5,
) -> File:
    """Upload a file to one of your articles (initiate, send the parts, complete). It counts against your private
    storage quota; on a published article the new file goes public with the next version.

    Args:
        article_id: The article's id.
        name: The file name with its extension.
        size: Size in bytes (at most 20 GB).
        md5: The MD5 checksum computed on your side.
    """
    row = own_article(db, article_id)
    check_quota(db, size)
    file_id = 43500000 + db.next_number("id:files", files)
    created = db.insert(
        files,
        file_id=file_id,
        article_id=article_id,
        name=name.strip(),
        size=size,
        computed_md5=md5,
        is_link_only=False,
        download_url=f"https://ndownloader.figshare.com/files/{file_id}",
        status="available",
        uploaded_date=db.now_iso(),
    )
    mark_changed(db, row, versioned=True)
    return file_object(created)


@tool()
def delete_file(db: Database, article_id: int, file_id: int) -> File:
    """Remove a file from one of your articles (DELETE /account/articles/{id}/files/{file_id}); on a published
    article the removal goes public with the next version.

    Args:
        article_id: The article's id.
        file_id: The file's id, as get_my_article lists it.
    """
    row = own_article(db, article_id)
    found = db.select(files, "file_id = ? AND article_id = ?", (file_id, article_id))
    if not found:
        raise NotFound("File not found")
    db.delete(files, file_id)
    mark_changed(db, row, versioned=True)
    return file_object(found[0])


@tool(read_only=True)
def list_article_versions(db: Database, article_id: int) -> list[ArticleVersion]:
    """The published versions of an article (GET /articles/{id}/versions): each version's DOI, title, licence,
    authors and files.

    Args:
        article_id: The article's id (yours or any public article).
    """
    found = db.select(articles, "article_id = ?", (article_id,))
    if not found or (found[0]["version"] == 0 and found[0]["owner_id"] != me(db)["account_id"]):
        raise NotFound("Article with specified ID does not exist")
    return version_objects(db, article_id)


# ---------------------------------------------------------------- public search and vocabularies


@tool(read_only=True)
def search_public_articles(
    db: Database,
    search_for: SearchFor,
    item_type: ItemType | None = None,
    page: Page = 1,
    page_size: page_size(100) = 10,
) -> list[Article]:
    """Search every public article on Figshare (POST /articles/search), newest published first.

    Args:
        search_for: Text to find in titles, descriptions or keywords (at least 4 characters).
        item_type: Only this item type.
        page: Page number, from 1.
        page_size: Results per page, 1-100 (default 10).
    """
    clause, params = text_match(search_for)
    where = f"status = 'public' AND {clause}"
    if item_type is not None:
        where += " AND defined_type = ?"
        params.append(item_type)
    rows = db.select(articles, where, params, order_by="published_date DESC")
    return [article_object(r) for r in page_of(rows, page, page_size)]


@tool(read_only=True)
def list_categories(db: Database, search_for: Annotated[str, Field(min_length=2)] | None = None) -> list[Category]:
    """Figshare's categories (fields of research), each with its id and path; optionally only those whose title
    or path contains some text.

    Args:
        search_for: Text to look for in the category title or path, e.g. "ecology".
    """
    if search_for:
        rows = db.select(categories, "lower(path) LIKE ?", (f"%{search_for.lower()}%",), order_by="path")
    else:
        rows = db.select(categories, order_by="path")
    return [category_object(r) for r in rows]


@tool(read_only=True)
def list_licenses(db: Database) -> list[License]:
    """The licences an article can carry (GET /account/licenses), each with the value to pass as license."""
    return [license_object(r) for r in db.select(licenses, order_by="value")]


# ---------------------------------------------------------------- collections


@tool(read_only=True)
def list_my_collections(db: Database) -> list[Collection]:
    """Your collections (GET /account/collections), newest first, with their articles, DOI and version."""
    rows = db.select(collections, "owner_id = ?", (me(db)["account_id"],), order_by="created_date DESC")
    return [collection_object(db, r) for r in rows]


@tool()
def create_collection(
    db: Database,
    title: Title,
    description: Annotated[str, Field(max_length=10000)] = "",
    articles: Annotated[list[int], Field(max_length=10), Unordered] | None = None,
    categories: CategoryIds | None = None,
    tags: Tags | None = None,
) -> Collection:
    """Create a private collection (POST /account/collections) grouping public items, anyone's, under one
    citation; at most 10 article ids per request.

    Args:
        title: The collection's title.
        description: Its description (required before publishing).
        articles: Ids of public articles to put in it.
        categories: Category ids (at least one before publishing).
        tags: Keywords.
    """
    collection_id = 6940000 + db.next_number("id:collections", collections)
    row = db.insert(
        collections,
        collection_id=collection_id,
        owner_id=me(db)["account_id"],
        title=" ".join(title.split()),
        description=description,
        categories=check_categories(db, list(categories or [])),
        tags=sorted(set(tags or [])),
        status="draft",
        version=0,
        doi="",
        has_changes=False,
        versioned_changes=False,
        created_date=db.now_iso(),
        published_date="",
        modified_date=db.now_iso(),
    )
    add_to_collection(db, row, list(articles or []))
    return collection_object(db, db.get(collections, collection_id, "Collection"))


@tool()
def update_collection(
    db: Database,
    collection_id: int,
    title: Title | None = None,
    description: Annotated[str, Field(max_length=10000)] | None = None,
    categories: CategoryIds | None = None,
    tags: Tags | None = None,
) -> Collection:
    """Edit one of your collections (PUT /account/collections/{id}); lists given replace the old ones. On a
    published collection a new title makes a new version at the next publish.

    Args:
        collection_id: The collection's id, as list_my_collections shows it.
        title: New title.
        description: New description.
        categories: Category ids replacing the old ones.
        tags: Keywords replacing the old ones.
    """
    row = own_collection(db, collection_id)
    changes: dict[str, Any] = {}
    if title is not None and " ".join(title.split()) != row["title"]:
        changes["title"] = " ".join(title.split())
    if description is not None:
        changes["description"] = description
    if categories is not None:
        changes["categories"] = check_categories(db, list(categories))
    if tags is not None:
        changes["tags"] = sorted(set(tags))
    if changes:
        row = db.update(collections, collection_id, **changes)
        touch_collection(db, row, versioned="title" in changes)
    return collection_object(db, db.get(collections, collection_id, "Collection"))


@tool()
def add_collection_articles(
    db: Database, collection_id: int, articles: Annotated[list[int], Field(min_length=1, max_length=10), Unordered]
) -> Collection:
    """Add public articles to one of your collections (POST /account/collections/{id}/articles); ones already in
    it are skipped. On a published collection this makes a new version at the next publish.

    Args:
        collection_id: The collection's id, as list_my_collections shows it.
        articles: Ids of public articles (at most 10 per request).
    """
    row = own_collection(db, collection_id)
    add_to_collection(db, row, list(articles))
    return collection_object(db, db.get(collections, collection_id, "Collection"))


@tool()
def remove_collection_article(db: Database, collection_id: int, article_id: int) -> Collection:
    """Take an article out of one of your collections (DELETE /account/collections/{id}/articles/{article_id}).

    Args:
        collection_id: The collection's id.
        article_id: The article to take out.
    """
    row = own_collection(db, collection_id)
    if article_id not in collection_article_ids(db, collection_id):
        raise NotFound("Article not found in collection")
    db.delete(collection_articles, f"{collection_id}/{article_id}")
    touch_collection(db, row)
    return collection_object(db, db.get(collections, collection_id, "Collection"))


@tool()
def publish_collection(db: Database, collection_id: int) -> Collection:
    """Publish one of your collections (POST /account/collections/{id}/publish): it needs a description, a
    category and at least one article. The first publish makes version 1 with DOI 10.6084/m9.figshare.c.<id>;
    publishing after adding or removing articles makes a new version.

    Args:
        collection_id: The collection's id.
    """
    row = own_collection(db, collection_id)
    for field, ok in (
        ("description", row["description"].strip()),
        ("categories", row["categories"]),
        ("articles", collection_article_ids(db, collection_id)),
    ):
        if not ok:
            raise InvalidRequest(f"Missing mandatory field for publication - {field}")
    if row["status"] == "public" and not row["has_changes"]:
        raise Conflict(f"Collection {collection_id} has no unpublished changes.")
    version = row["version"] + (1 if row["version"] == 0 or row["versioned_changes"] else 0)
    row = db.update(
        collections,
        collection_id,
        status="public",
        version=version,
        has_changes=False,
        versioned_changes=False,
        doi=row["doi"] or f"{DOI_PREFIX}c.{collection_id}",
        published_date=row["published_date"] or db.now_iso(),
        modified_date=db.now_iso(),
    )
    return collection_object(db, row)


# ---------------------------------------------------------------- projects


@tool(read_only=True)
def list_my_projects(db: Database, role: Literal["owner", "collaborator", "viewer"] | None = None) -> list[Project]:
    """The projects you own or were added to (GET /account/projects), with your role in each.

    Args:
        role: Only projects where you have this role.
    """
    result = []
    for m in db.find(project_members, account_id=me(db)["account_id"], status="active"):
        if role is None or m["role"] == role:
            result.append(project_object(db.get(projects, m["project_id"], "Project"), m["role"]))
    return sorted(result, key=lambda p: p.created_date, reverse=True)


@tool(read_only=True)
def get_project(db: Database, project_id: int) -> ProjectDetails:
    """One of your projects with its collaborators (and pending invitations) and its articles.

    Args:
        project_id: The project's id, as list_my_projects shows it.
    """
    row, role = member_project(db, project_id)
    return project_details(db, row, role["role"])


@tool()
def invite_collaborator(
    db: Database,
    project_id: int,
    role_name: Literal["viewer", "collaborator"],
    user_id: int | None = None,
    email: Email | None = None,
    comment: Annotated[str, Field(max_length=2000)] = "",
) -> ProjectDetails:
    """Invite someone to a project you own (POST /account/projects/{id}/collaborators), by Figshare user id or by
    e-mail; they join once they accept. Collaborators can add items, viewers only look.

    Args:
        project_id: The project's id.
        role_name: viewer or collaborator.
        user_id: The person's Figshare account id (give this or email).
        email: The person's e-mail address (give this or user_id).
        comment: A message sent with the invitation.
    """
    project = owned_project(db, project_id)
    if (user_id is None) == (email is None):
        raise InvalidRequest("Send either user_id or email.")
    if user_id is not None:
        account = db.get(accounts, user_id, "User")
    else:
        found = db.select(accounts, "lower(email) = ?", ((email or "").lower(),))
        account = found[0] if found else None
    address = account["email"] if account else (email or "").lower()
    key = f"{project_id}/{account['account_id'] if account else address}"
    if db.select(project_members, "member_key = ?", (key,)):
        raise Conflict(f"{address} is already a member of this project or has a pending invitation.")
    db.insert(
        project_members,
        member_key=key,
        project_id=project_id,
        account_id=account["account_id"] if account else None,
        email=address,
        role=role_name,
        status="invited",
        comment=comment,
    )
    return project_details(db, project, "owner")


@tool()
def remove_collaborator(
    db: Database, project_id: int, user_id: int | None = None, email: Email | None = None
) -> ProjectDetails:
    """Remove a collaborator or viewer from a project you own, or withdraw a pending invitation
    (DELETE /account/projects/{id}/collaborators/{user_id}). The owner cannot be removed.

    Args:
        project_id: The project's id.
        user_id: The member's account id (give this or email).
        email: The e-mail a pending invitation was sent to.
    """
    project = owned_project(db, project_id)
    if (user_id is None) == (email is None):
        raise InvalidRequest("Send either user_id or email.")
    where, value = ("account_id = ?", user_id) if user_id is not None else ("lower(email) = ?", (email or "").lower())
    found = db.select(project_members, f"project_id = ? AND {where}", (project_id, value))
    if not found:
        raise NotFound("Collaborator not found in project")
    if found[0]["role"] == "owner":
        raise InvalidRequest("The project owner cannot be removed from the project.")
    db.delete(project_members, found[0]["member_key"])
    return project_details(db, project, "owner")
