"""GitHub's rules for issues and the issue side of pull requests: labels are applied by name and created when they
do not exist yet, at most 10 assignees who must have access to the repository, milestones by number, state
reasons, locked conversations, and the closing keywords ("Fixes #12") that a merged pull request acts on."""

from __future__ import annotations

import json
import re
from typing import Any

from envfactory_gym import Database, InvalidRequest, NotFound, PermissionDenied

from .access import Viewer, account, explicit_role
from .schema import accounts, issues, labels, milestones, pull_requests

DEFAULT_LABEL_COLOR = "ededed"
MAX_ASSIGNEES = 10
CLOSING = re.compile(r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+([\w.-]+/[\w.-]+)?#(\d+)\b", re.IGNORECASE)
LOCKED = "Unable to create comment because issue is locked."
NO_ADMIN = "Must have admin rights to Repository."


def validation_failed(resource: str, field: str, code: str, value: Any = None) -> InvalidRequest:
    """GitHub's 422: `Validation Failed` and the offending field."""
    error: dict[str, Any] = {"resource": resource, "code": code, "field": field}
    if value is not None:
        error["value"] = value
    return InvalidRequest(f"Validation Failed: {json.dumps([error])}")


def issue(db: Database, repo: dict[str, Any], number: int) -> dict[str, Any]:
    """An issue or pull request of a repository by its number."""
    return db.find_one(issues, repo_id=repo["id"], number=number, not_found="Not Found")


def is_author(viewer: Viewer, row: dict[str, Any]) -> bool:
    """Whether the signed-in user opened the issue or pull request."""
    return row["user_id"] == viewer.user_id


def label_id(db: Database, repo: dict[str, Any], name: str) -> int | None:
    """The id of the repository's label with this name (any case), if there is one."""
    wanted = name.strip()
    rows = db.find(labels, repo_id=repo["id"], name=wanted) or [
        r for r in db.find(labels, repo_id=repo["id"]) if r["name"].lower() == wanted.lower()
    ]
    return rows[0]["id"] if rows else None


def label_ids(db: Database, repo: dict[str, Any], names: list[str], create: bool) -> list[int]:
    """Ids of the repository's labels by name (any case). Missing ones are created with GitHub's default grey when
    `create`, else are a 404 "Label does not exist"."""
    found: list[int] = []
    for name in names:
        clean = name.strip()
        if not clean:
            raise validation_failed("Label", "name", "missing_field")
        existing = label_id(db, repo, clean)
        if existing is not None:
            found.append(existing)
        elif create:
            row = db.insert(
                labels,
                id=int(db.new_id(labels, "61", width=8)),
                repo_id=repo["id"],
                name=clean,
                color=DEFAULT_LABEL_COLOR,
                description="",
                default=False,
            )
            found.append(row["id"])
        else:
            raise NotFound(f"Label does not exist: {clean}")
    return found


def assignee_ids(db: Database, repo: dict[str, Any], logins: list[str]) -> list[int]:
    """Ids of people who can be assigned in the repository: users with access to it (collaborators, members of its
    organization with a role on it); anyone else is a 422 naming the login."""
    found: list[int] = []
    for login in logins:
        try:
            person = account(db, login)
        except NotFound:
            raise validation_failed("Issue", "assignees", "invalid", login) from None
        if person["type"] == "Organization" or explicit_role(db, repo, person["id"]) is None:
            raise validation_failed("Issue", "assignees", "invalid", login)
        found.append(person["id"])
    return found


def capped(ids: list[int]) -> list[int]:
    """Assignees as stored (sorted, no repeats), at most 10."""
    result = sorted(set(ids))
    if len(result) > MAX_ASSIGNEES:
        raise validation_failed("Issue", "assignees", "too_many", len(result))
    return result


def milestone_id(db: Database, repo: dict[str, Any], number: int) -> int:
    """The id of the repository's milestone with this number; 422 when there is none."""
    found = db.find(milestones, repo_id=repo["id"], number=number)
    if not found:
        raise validation_failed("Issue", "milestone", "invalid", number)
    return found[0]["id"]


def require_triage(db: Database, viewer: Viewer, repo: dict[str, Any]) -> None:
    """Labels, assignees and milestones need triage access."""
    viewer.require(
        db,
        repo,
        "triage",
        f"You must have triage access to change labels, assignees or milestones in {repo['full_name']}.",
    )


def require_editor(db: Database, viewer: Viewer, repo: dict[str, Any], row: dict[str, Any]) -> None:
    """Titles and bodies are edited by their author or by people with write access."""
    if not is_author(viewer, row):
        viewer.require(db, repo, "write", NO_ADMIN)


def require_closer(db: Database, viewer: Viewer, repo: dict[str, Any], row: dict[str, Any]) -> None:
    """Issues are closed and reopened by their author or by people with triage access."""
    if not is_author(viewer, row):
        viewer.require(db, repo, "triage", NO_ADMIN)


def require_commenter(db: Database, viewer: Viewer, repo: dict[str, Any], row: dict[str, Any]) -> None:
    """A locked conversation takes comments only from people with write access."""
    if row["locked"] and not viewer.at_least(db, repo, "write"):
        raise PermissionDenied(LOCKED)


def closing_numbers(repo: dict[str, Any], body: str) -> list[int]:
    """Numbers of the repository's issues a pull request body closes ("Fixes #12", "resolves owner/repo#7")."""
    numbers: list[int] = []
    for other, number in CLOSING.findall(body or ""):
        if (not other or other.lower() == repo["full_name"].lower()) and int(number) not in numbers:
            numbers.append(int(number))
    return numbers


def login_of(db: Database, user_id: int | None) -> str | None:
    """An account's login."""
    return db.get(accounts, user_id)["login"] if user_id is not None else None


def state_change(
    db: Database, me: Viewer, row: dict[str, Any], state: str | None, reason: str | None
) -> dict[str, Any]:
    """The columns a close, reopen or new close reason changes: closing takes a reason (completed by default),
    reopening records "reopened"; pull requests carry no reason, and a merged one stays closed."""
    target = state or row["state"]
    if row["is_pull_request"]:
        if reason is not None:
            raise validation_failed("Issue", "state_reason", "invalid", reason)
        pr = db.find(pull_requests, issue_id=row["id"])[0]
        if pr["merged"] and target == "open":
            raise validation_failed(
                "PullRequest", "state", "custom", "state cannot be changed. The pull request has already been merged."
            )
    if target == "closed":
        if reason == "reopened":
            raise validation_failed("Issue", "state_reason", "invalid", reason)
        chosen = (
            None
            if row["is_pull_request"]
            else reason or (row["state_reason"] if row["state"] == "closed" else "completed")
        )
        if row["state"] == "closed":
            return {"state_reason": chosen}
        return {"state": "closed", "state_reason": chosen, "closed_at": db.now_iso(), "closed_by_id": me.user_id}
    if reason not in (None, "reopened"):
        raise validation_failed("Issue", "state_reason", "invalid", reason)
    if row["state"] == "open":
        return {}
    return {
        "state": "open",
        "state_reason": None if row["is_pull_request"] else "reopened",
        "closed_at": None,
        "closed_by_id": None,
    }


def triage_change(
    db: Database,
    repo: dict[str, Any],
    row: dict[str, Any],
    add_labels: list[str] | None,
    remove_labels: list[str] | None,
    add_assignees: list[str] | None,
    remove_assignees: list[str] | None,
    milestone: int | str | None,
) -> dict[str, Any]:
    """The columns a label, assignee or milestone change sets (labels to remove must be on the issue; unknown ones
    to add are created; assignees to remove who aren't assigned are ignored, as on GitHub)."""
    changes: dict[str, Any] = {}
    if add_labels or remove_labels:
        current_ids = list(row["label_ids"])
        for label_id, name in zip(label_ids(db, repo, remove_labels or [], create=False), remove_labels or []):
            if label_id not in current_ids:
                raise NotFound(f"Label does not exist: {name.strip()}")
            current_ids.remove(label_id)
        current_ids += label_ids(db, repo, add_labels or [], create=True)
        changes["label_ids"] = sorted(set(current_ids))
    if add_assignees or remove_assignees:
        dropped = {account(db, login)["id"] for login in remove_assignees or [] if _exists(db, login)}
        kept = [a for a in row["assignee_ids"] if a not in dropped]
        changes["assignee_ids"] = capped(kept + assignee_ids(db, repo, add_assignees or []))
    if milestone == "none":
        changes["milestone_id"] = None
    elif milestone is not None:
        changes["milestone_id"] = milestone_id(db, repo, int(milestone))
    return changes


def _exists(db: Database, login: str) -> bool:
    try:
        account(db, login)
    except NotFound:
        return False
    return True
