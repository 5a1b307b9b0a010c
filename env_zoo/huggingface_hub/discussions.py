"""Discussions and pull requests: the repository's shared number sequence, events, who may change a status, and
opening a pull request (a `refs/pr/<num>` ref from the target branch's head, a draft until its first commit)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, NotFound, PermissionDenied

from .access import can_write
from .commits import find_ref, ref_key
from .schema import discussion_events, discussions, refs, repos

DISABLED = "403 Forbidden: Discussions are disabled for this repo."


def require_enabled(repo: dict[str, Any]) -> None:
    """Discussions and pull requests can be switched off per repository."""
    if repo["discussions_disabled"]:
        raise PermissionDenied(DISABLED)


def numbered(db: Database, repo: dict[str, Any], num: int) -> dict[str, Any]:
    """A discussion or pull request by its number."""
    return db.find_one(
        discussions, repo=repo["id"], num=num, not_found=f"404 Discussion #{num} not found in {repo['repo_id']}."
    )


def event(db: Database, row: dict[str, Any], kind: str, author: str, **values: Any) -> None:
    """Record a comment, status change, title change or commit on a discussion."""
    db.insert(
        discussion_events,
        id=db.next_number("discussion_events", discussion_events),
        discussion=row["id"],
        type=kind,
        author=author,
        created_at=db.now_iso(),
        **values,
    )


def open_discussion(
    db: Database, repo: dict[str, Any], user: str, title: str, description: str, pull_request: bool, target: str
) -> dict[str, Any]:
    """A new discussion (or draft pull request on `target`) with its opening comment."""
    num = repo["last_num"] + 1
    db.update(repos, repo["id"], last_num=num)
    base = find_ref(db, repo, "branch", target) if pull_request else None
    if pull_request and base is None:
        raise NotFound(f"404 Revision Not Found: branch '{target}' does not exist.")
    row = db.insert(
        discussions,
        id=db.next_number("discussions", discussions),
        repo=repo["id"],
        num=num,
        title=title,
        author=user,
        is_pull_request=pull_request,
        status="draft" if pull_request else "open",
        target_branch=target if pull_request else None,
        base_commit=base["target"] if base else None,
        merge_commit=None,
        created_at=db.now_iso(),
    )
    if base is not None:
        db.insert(
            refs, id=ref_key(repo, "pr", str(num)), repo=repo["id"], kind="pr", name=str(num), target=base["target"]
        )
    if description:
        event(db, row, "comment", user, content=description)
    return row


def require_moderator(db: Database, repo: dict[str, Any], row: dict[str, Any], user: str) -> None:
    """Only a discussion's author or the repository's writers may close or reopen it."""
    if row["author"] != user and not can_write(db, repo, user):
        raise PermissionDenied(
            f"403 Forbidden: only the author of #{row['num']} or members with write access can change its status."
        )


def set_status(db: Database, row: dict[str, Any], status: str, user: str) -> dict[str, Any]:
    """Close or reopen; a merged pull request stays merged."""
    if row["status"] == "merged":
        raise Conflict(f"409 Conflict: pull request #{row['num']} is merged; its status can no longer change.")
    current = "open" if row["status"] == "draft" else row["status"]
    if current == status:
        raise Conflict(f"409 Conflict: #{row['num']} is already {status}.")
    event(db, row, "status-change", user, new_status=status)
    return db.update(discussions, row["id"], status=status)
