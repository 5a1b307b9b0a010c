"""The Hub's API objects as output models (field names as huggingface_hub returns them), and how stored rows
become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .commits import PR_PREFIX, conflicts, find_ref, pr_changes, resolve, tree
from .schema import access_requests, accounts, collection_items, discussion_events, refs


class OrgMembership(BaseModel):
    """An organization the user belongs to, with their role there."""

    name: str
    fullname: str
    plan: str
    role: str


class WhoAmI(BaseModel):
    """The signed-in account."""

    name: str
    fullname: str
    email: str | None
    plan: str
    orgs: list[OrgMembership]


class RepoSummary(BaseModel):
    """A repository in a listing."""

    id: str
    repo_type: str
    author: str
    private: bool
    gated: str | bool
    likes: int
    downloads: int
    pipeline_tag: str | None
    sdk: str | None
    tags: list[str]
    last_modified: str


class RepoInfo(RepoSummary):
    """A repository with its head commit, settings, files on the default branch and your access."""

    sha: str
    library_name: str | None
    license: str | None
    discussions_disabled: bool
    created_at: str
    siblings: list[str]
    access_request_status: str | None  # gated repos: your own request's status (pending, accepted, rejected)


class GitRef(BaseModel):
    """A branch, tag or pull-request ref and the commit it points at."""

    name: str
    ref: str
    target_commit: str
    message: str | None = None


class GitRefs(BaseModel):
    """A repository's refs."""

    branches: list[GitRef]
    tags: list[GitRef]
    pull_requests: list[GitRef] | None


class GitCommitInfo(BaseModel):
    """One commit of a revision's history."""

    commit_id: str = Field(description="The commit id, usable as a revision.")
    title: str
    message: str
    authors: list[str]
    created_at: str


class RepoFile(BaseModel):
    """A file at a revision."""

    path: str
    size: int
    lfs: bool
    blob_id: str


class RepoTree(BaseModel):
    """The files of a revision."""

    revision: str
    commit_id: str
    files: list[RepoFile]


class CommitInfo(BaseModel):
    """What a commit made: its id and, when it opened or updated a pull request, the pull request."""

    commit_oid: str
    commit_message: str
    revision: str
    pr_num: int | None
    pr_revision: str | None


class Discussion(BaseModel):
    """A discussion or pull request in a listing."""

    num: int = Field(description="The discussion number (discussion_num) of this discussion or pull request.")
    title: str
    status: str
    author: str
    is_pull_request: bool
    repo_id: str
    repo_type: str
    created_at: str


class DiscussionEvent(BaseModel):
    """A comment, status change, title change or commit on a discussion."""

    id: int
    type: str
    author: str
    created_at: str
    content: str | None
    new_status: str | None
    commit_oid: str | None


class DiscussionWithDetails(Discussion):
    """A discussion with its events; a pull request also with its ref, target, changed files and conflicts."""

    events: list[DiscussionEvent]
    git_reference: str | None
    target_branch: str | None
    changed_files: list[str]
    conflicting_files: list[str]
    merge_commit_oid: str | None


class AccessRequest(BaseModel):
    """A user's request for access to a gated repository."""

    username: str = Field(description="The requesting user's username.")
    fullname: str
    email: str | None
    status: str
    fields: dict[str, str]
    rejection_reason: str | None
    timestamp: str


class CollectionItem(BaseModel):
    """An item of a collection."""

    item_object_id: str
    item_id: str
    item_type: str
    position: int
    note: str | None


class Collection(BaseModel):
    """A collection with its items."""

    slug: str = Field(description="The collection's slug (collection_slug).")
    title: str
    owner: str
    description: str
    private: bool
    theme: str
    upvotes: int
    last_updated: str
    items: list[CollectionItem]


class OrgMember(BaseModel):
    """A member of an organization."""

    name: str = Field(description="The member's username.")
    fullname: str
    role: str


class LikeResult(BaseModel):
    """A repository's like count after liking it."""

    repo_id: str
    repo_type: str
    likes: int
    liked: bool


def repo_summary(row: dict[str, Any]) -> RepoSummary:
    """A listing entry."""
    return RepoSummary(**_summary_fields(row))


def _summary_fields(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["repo_id"],
        "repo_type": row["repo_type"],
        "author": row["owner"],
        "private": row["private"],
        "gated": False if row["gated"] == "false" else row["gated"],
        "likes": row["likes"],
        "downloads": row["downloads"],
        "pipeline_tag": row["pipeline_tag"],
        "sdk": row["sdk"],
        "tags": row["tags"],
        "last_modified": row["last_modified"],
    }


def info_of(db: Database, row: dict[str, Any], user: str) -> RepoInfo:
    """The full repository as the user sees it."""
    head = resolve(db, row, "main")
    mine = db.find(access_requests, id=f"{row['id']}:{user}")
    return RepoInfo(
        **_summary_fields(row),
        sha=head,
        library_name=row["library_name"],
        license=row["license"],
        discussions_disabled=row["discussions_disabled"],
        created_at=row["created_at"],
        siblings=sorted(tree(db, head)),
        access_request_status=mine[0]["status"] if mine and row["gated"] != "false" else None,
    )


def git_ref(row: dict[str, Any]) -> GitRef:
    """A ref as the API lists it."""
    folder = {"branch": "refs/heads/", "tag": "refs/tags/", "pr": PR_PREFIX}[row["kind"]]
    return GitRef(name=row["name"], ref=folder + row["name"], target_commit=row["target"], message=row["message"])


def git_refs(db: Database, repo: dict[str, Any], include_pull_requests: bool) -> GitRefs:
    """Branches and tags (A-Z), and pull-request refs when asked."""
    rows = db.find(refs, repo=repo["id"], order_by=[refs.c.name])
    pulls = sorted((r for r in rows if r["kind"] == "pr"), key=lambda r: int(r["name"]))
    return GitRefs(
        branches=[git_ref(r) for r in rows if r["kind"] == "branch"],
        tags=[git_ref(r) for r in rows if r["kind"] == "tag"],
        pull_requests=[git_ref(r) for r in pulls] if include_pull_requests else None,
    )


def discussion(row: dict[str, Any], repo: dict[str, Any]) -> Discussion:
    """A listing entry."""
    return Discussion(**_discussion_fields(row, repo))


def _discussion_fields(row: dict[str, Any], repo: dict[str, Any]) -> dict[str, Any]:
    return {
        "num": row["num"],
        "title": row["title"],
        "status": row["status"],
        "author": row["author"],
        "is_pull_request": row["is_pull_request"],
        "repo_id": repo["repo_id"],
        "repo_type": repo["repo_type"],
        "created_at": row["created_at"],
    }


def discussion_details(db: Database, row: dict[str, Any], repo: dict[str, Any]) -> DiscussionWithDetails:
    """A discussion with its events; for an open pull request, what it changes and where it conflicts."""
    events = [
        DiscussionEvent(
            id=e["id"],
            type=e["type"],
            author=e["author"],
            created_at=e["created_at"],
            content=e["content"],
            new_status=e["new_status"],
            commit_oid=e["commit"],
        )
        for e in db.find(discussion_events, discussion=row["id"])
    ]
    changed: list[str] = []
    clashing: list[str] = []
    ref = find_ref(db, repo, "pr", str(row["num"])) if row["is_pull_request"] else None
    if ref is not None and row["status"] in ("open", "draft"):
        changed = sorted(pr_changes(db, row["base_commit"], ref["target"]))
        target = find_ref(db, repo, "branch", row["target_branch"])
        if target is not None:
            clashing = conflicts(db, row["base_commit"], ref["target"], target["target"])
    return DiscussionWithDetails(
        **_discussion_fields(row, repo),
        events=events,
        git_reference=f"{PR_PREFIX}{row['num']}" if row["is_pull_request"] else None,
        target_branch=row["target_branch"],
        changed_files=changed,
        conflicting_files=clashing,
        merge_commit_oid=row["merge_commit"],
    )


def access_request(db: Database, row: dict[str, Any]) -> AccessRequest:
    """A request with the requester's name and email (gated repos share them with the authors)."""
    user = db.get(accounts, row["user"])
    return AccessRequest(
        username=row["user"],
        fullname=user["fullname"],
        email=user["email"],
        status=row["status"],
        fields=row["fields"],
        rejection_reason=row["rejection_reason"],
        timestamp=row["timestamp"],
    )


def collection(db: Database, row: dict[str, Any]) -> Collection:
    """A collection with its items in order."""
    items = db.find(collection_items, collection=row["slug"], order_by=[collection_items.c.position])
    return Collection(
        slug=row["slug"],
        title=row["title"],
        owner=row["owner"],
        description=row["description"],
        private=row["private"],
        theme=row["theme"],
        upvotes=row["upvotes"],
        last_updated=row["last_updated"],
        items=[
            CollectionItem(
                item_object_id=i["id"],
                item_id=i["item_id"],
                item_type=i["item_type"],
                position=i["position"],
                note=i["note"],
            )
            for i in items
        ],
    )


def like_result(row: dict[str, Any], liked: bool) -> LikeResult:
    """The like count after a like."""
    return LikeResult(repo_id=row["repo_id"], repo_type=row["repo_type"], likes=row["likes"], liked=liked)
