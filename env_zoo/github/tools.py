"""GitHub REST API tools as a signed-in user sees them: repositories, branches and branch protection, collaborators,
labels and milestones, issues and comments, pull requests, reviews and merging, and GitHub Actions runs; plus the
user's own sign-in with a personal access token."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied, Unordered, tool
from envfactory_gym.database import given
from envfactory_gym.fields import NonEmptyText, PageSize, bounded, text
from envfactory_gym.values import parse_timestamp

from . import actions, protection, pulls, rules
from .access import (
    RANK,
    Viewer,
    account,
    explicit_role,
    free_private,
    permissions,
    repo_named,
    signed_in,
    writable,
)
from .objects import (
    AuthenticatedUser,
    Branch,
    BranchProtection,
    Collaborator,
    Issue,
    IssueComment,
    IssueSummary,
    Label,
    Listing,
    MergeResult,
    Milestone,
    PullRequest,
    PullRequestSummary,
    Render,
    Repository,
    RepositorySummary,
    Review,
    WorkflowRun,
    WorkflowRunSummary,
    listing,
    pull_rows,
)
from .schema import (
    accounts,
    branches,
    collaborators,
    issue_comments,
    issues,
    milestones,
    org_members,
    pull_requests,
    repositories,
    reviews,
    sessions,
    team_members,
    team_repos,
    tokens,
    workflow_runs,
)
from .schema import labels as repo_labels

RepoName = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")]
Number = Annotated[int, Field(ge=1)]
PageNumber = Annotated[int, Field(ge=1)]
Names = Annotated[list[str], Unordered]
Direction = Literal["asc", "desc"]
RunStatus = Literal[
    "queued",
    "in_progress",
    "completed",
    "success",
    "failure",
    "cancelled",
    "skipped",
    "timed_out",
    "action_required",
    "neutral",
    "startup_failure",
]
Permission = Literal["pull", "triage", "push", "maintain", "admin"]
ROLE_OF = {"pull": "read", "triage": "triage", "push": "write", "maintain": "maintain", "admin": "admin"}


# ---------------------------------------------------------------- helpers


def _newest(rows: list[dict[str, Any]], key: str, direction: str) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: (r[key] or "", r["id"]), reverse=direction == "desc")


def _branch(db: Database, repo: dict[str, Any], name: str) -> dict[str, Any] | None:
    found = db.find(branches, repo_id=repo["id"], name=name.strip())
    return found[0] if found else None


def _touch(db: Database, issue: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return db.update(issues, issue["id"], updated_at=db.now_iso(), **changes)


def _pull(
    db: Database, me: Viewer, repository: str, number: int
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    repo = repo_named(db, me, repository)
    issue, pr = pull_rows(db, repo, number)
    return repo, issue, pr


def _next_number(db: Database, repo: dict[str, Any]) -> int:
    number = repo["last_number"] + 1
    db.update(repositories, repo["id"], last_number=number)
    return number


# ---------------------------------------------------------------- the user


@tool(user_only=True)
def sign_in(db: Database, token: NonEmptyText) -> AuthenticatedUser:
    """(User only) The user gives the assistant a personal access token (classic) from Settings > Developer settings;
    the assistant then acts as that user, with the token's scopes.

    Args:
        token: The personal access token, ghp_ followed by 36 characters.
    """
    found = db.find(tokens, token=token.strip())
    if not found or (found[0]["expires_at"] and parse_timestamp(found[0]["expires_at"], "expires_at") <= db.now()):
        raise PermissionDenied("Bad credentials")
    db.start_session(sessions, user_id=found[0]["user_id"], token=found[0]["token"])
    return Render(db, signed_in(db)).me()


@tool(read_only=True)
def get_authenticated_user(db: Database) -> AuthenticatedUser:
    """Get the signed-in user's account, organizations and the token's scopes (GET /user)."""
    return Render(db, signed_in(db)).me()


# ---------------------------------------------------------------- repositories


@tool(read_only=True)
def list_repositories(
    db: Database,
    owner: str | None = None,
    query: str | None = None,
    visibility: Literal["all", "public", "private"] = "all",
    sort: Literal["full_name", "pushed", "created"] = "full_name",
    per_page: PageSize = 30,
    page: PageNumber = 1,
) -> Listing[RepositorySummary]:
    """List the repositories you have explicit access to: your own, your organizations', and those you collaborate
    on (GET /user/repos). Others' public repositories are reachable with get_repository but not listed here.

    Args:
        owner: Only repositories of this user or organization login.
        query: Text to find in the repository's name or description (case-insensitive).
        visibility: all, public or private.
        sort: full_name (A-Z), pushed or created (newest first).
        per_page: Results per page, 1 to 100.
        page: Page number, from 1.
    """
    me = signed_in(db)
    filters = given(
        owner_id=account(db, owner)["id"] if owner else None,
        private=None if visibility == "all" else visibility == "private",
    )
    rows = [r for r in db.find(repositories, **filters) if explicit_role(db, r, me.user_id) and me.sees(db, r)]
    if query:
        needle = query.strip().lower()
        rows = [r for r in rows if needle in r["full_name"].lower() or needle in r["description"].lower()]
    if sort == "full_name":
        rows.sort(key=lambda r: r["full_name"].lower())
    else:
        rows = _newest(rows, "pushed_at" if sort == "pushed" else "created_at", "desc")
    render = Render(db, me)
    return listing([render.repo_summary(r) for r in rows], per_page, page)


@tool(read_only=True)
def get_repository(db: Database, repository: RepoName) -> Repository:
    """Get a repository with its merge settings (which merge methods are allowed, whether head branches are deleted
    on merge), default branch, visibility and your permissions (GET /repos/{owner}/{repo}).

    Args:
        repository: The repository as owner/name, e.g. harborline/dispatch-api.
    """
    me = signed_in(db)
    return Render(db, me).repo(repo_named(db, me, repository))


@tool(read_only=True)
def list_branches(
    db: Database, repository: RepoName, protected: bool | None = None, per_page: PageSize = 30, page: PageNumber = 1
) -> Listing[Branch]:
    """List a repository's branches, A-Z, each with its protection rule (required reviews and status checks, who may
    push, enforcement for admins) when it is protected.

    Args:
        repository: The repository as owner/name.
        protected: true: only protected branches; false: only unprotected ones.
        per_page: Results per page, 1 to 100.
        page: Page number, from 1.
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    render = Render(db, me)
    found = [render.branch(repo, b) for b in db.find(branches, repo_id=repo["id"], order_by=[branches.c.name])]
    if protected is not None:
        found = [b for b in found if b.protected == protected]
    return listing(found, per_page, page)


@tool(read_only=True)
def list_collaborators(
    db: Database,
    repository: RepoName,
    permission: Permission | None = None,
    per_page: PageSize = 30,
    page: PageNumber = 1,
) -> Listing[Collaborator]:
    """List the people with access to a repository and their roles (GET /repos/{owner}/{repo}/collaborators):
    outside collaborators, organization members through teams or the base permission, and owners. These are the
    people who can be assigned issues and asked for reviews. Needs push access.

    Args:
        repository: The repository as owner/name.
        permission: Only people with at least this permission: pull, triage, push, maintain or admin.
        per_page: Results per page, 1 to 100.
        page: Page number, from 1.
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    me.require(db, repo, "write", "Must have push access to view repository collaborators.")
    candidates = {repo["owner_id"]} | {c["user_id"] for c in db.find(collaborators, repo_id=repo["id"])}
    candidates |= {m["user_id"] for m in db.find(org_members, org_id=repo["owner_id"])}
    for grant in db.find(team_repos, repo_id=repo["id"]):
        candidates |= {m["user_id"] for m in db.find(team_members, team_id=grant["team_id"])}
    people = []
    for person in sorted((db.get(accounts, i) for i in candidates), key=lambda a: a["login"]):
        held = explicit_role(db, repo, person["id"]) if person["type"] == "User" else None
        if held and (permission is None or RANK[held] >= RANK[ROLE_OF[permission]]):
            people.append(
                Collaborator(
                    login=person["login"],
                    id=person["id"],
                    name=person["name"],
                    role_name=held,
                    permissions=permissions(held),
                )
            )
    return listing(people, per_page, page)


@tool(read_only=True)
def list_labels(db: Database, repository: RepoName, per_page: PageSize = 30, page: PageNumber = 1) -> Listing[Label]:
    """List a repository's issue labels, A-Z.

    Args:
        repository: The repository as owner/name.
        per_page: Results per page, 1 to 100.
        page: Page number, from 1.
    """
    repo = repo_named(db, signed_in(db), repository)
    rows = sorted(db.find(repo_labels, repo_id=repo["id"]), key=lambda r: r["name"].lower())
    return listing(
        [
            Label(id=r["id"], name=r["name"], color=r["color"], description=r["description"], default=r["default"])
            for r in rows
        ],
        per_page,
        page,
    )


@tool(read_only=True)
def list_milestones(
    db: Database,
    repository: RepoName,
    state: Literal["open", "closed", "all"] = "open",
    per_page: PageSize = 30,
    page: PageNumber = 1,
) -> Listing[Milestone]:
    """List a repository's milestones by due date (those without one last), with their open and closed issue counts.

    Args:
        repository: The repository as owner/name.
        state: open, closed or all.
        per_page: Results per page, 1 to 100.
        page: Page number, from 1.
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    rows = db.find(milestones, repo_id=repo["id"], **({} if state == "all" else {"state": state}))
    rows.sort(key=lambda r: (r["due_on"] is None, r["due_on"] or "", r["number"]))
    render = Render(db, me)
    return listing([render.milestone(r) for r in rows], per_page, page)


# ---------------------------------------------------------------- issues


@tool(read_only=True)
def list_issues(
    db: Database,
    repository: RepoName,
    state: Literal["open", "closed", "all"] = "open",
    labels: Names | None = None,
    assignee: str | None = None,
    creator: str | None = None,
    milestone: str | None = None,
    query: str | None = None,
    sort: Literal["created", "updated", "comments"] = "created",
    direction: Direction = "desc",
    per_page: PageSize = 30,
    page: PageNumber = 1,
) -> Listing[IssueSummary]:
    """List a repository's issues (GET /repos/{owner}/{repo}/issues). As on GitHub, pull requests are issues too and
    appear here with pull_request=true.

    Args:
        repository: The repository as owner/name.
        state: open, closed or all.
        labels: Only issues carrying every one of these label names.
        assignee: A login, "none" for unassigned issues, or "*" for assigned ones.
        creator: Only issues opened by this login.
        milestone: A milestone number, "none" for issues without one, or "*" for issues with one.
        query: Words that must all appear in the title or body (case-insensitive).
        sort: created, updated or comments.
        direction: asc or desc.
        per_page: Results per page, 1 to 100.
        page: Page number, from 1.
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    filters = {
        "repo_id": repo["id"],
        **given(state=None if state == "all" else state, user_id=account(db, creator)["id"] if creator else None),
    }
    if milestone == "none":
        filters["milestone_id"] = None
    elif milestone and milestone != "*":
        found = db.find(milestones, repo_id=repo["id"], number=int(milestone)) if milestone.isdigit() else []
        filters["milestone_id"] = found[0]["id"] if found else -1
    rows = db.find(issues, **filters)
    if milestone == "*":
        rows = [r for r in rows if r["milestone_id"] is not None]
    if labels:
        wanted = [rules.label_id(db, repo, name) for name in labels]
        rows = [r for r in rows if all(w in r["label_ids"] for w in wanted)]
    if assignee == "none":
        rows = [r for r in rows if not r["assignee_ids"]]
    elif assignee == "*":
        rows = [r for r in rows if r["assignee_ids"]]
    elif assignee:
        person = account(db, assignee)["id"]
        rows = [r for r in rows if person in r["assignee_ids"]]
    if query:
        words = query.lower().split()
        rows = [r for r in rows if all(w in f"{r['title']} {r['body']}".lower() for w in words)]
    render = Render(db, me)
    if sort == "comments":
        counted = [(render.comment_count(r), r["id"], r) for r in rows]
        rows = [r for _, _, r in sorted(counted, key=lambda t: t[:2], reverse=direction == "desc")]
    else:
        rows = _newest(rows, "created_at" if sort == "created" else "updated_at", direction)
    return listing([render.issue_summary(r) for r in rows], per_page, page)


@tool(read_only=True)
def get_issue(db: Database, repository: RepoName, issue_number: Number) -> Issue:
    """Get an issue (or the issue side of a pull request) with its body, labels, assignees, milestone, lock and its
    comments, oldest first.

    Args:
        repository: The repository as owner/name.
        issue_number: The issue's number (#123 is 123).
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    return Render(db, me).issue(rules.issue(db, repo, issue_number))


@tool()
def create_issue(
    db: Database,
    repository: RepoName,
    title: text(256),
    body: text(65536, min_length=0) = "",
    labels: Names | None = None,
    assignees: Names | None = None,
    milestone: Number | None = None,
) -> Issue:
    """Open an issue (POST /repos/{owner}/{repo}/issues). Labels are given by name; a label that does not exist yet
    is created (grey, no description). Labels, assignees and a milestone are only set by people with triage access:
    for anyone else they are silently dropped. Assignees (at most 10) must have access to the repository.

    Args:
        repository: The repository as owner/name.
        title: The issue's title.
        body: The issue's description (Markdown).
        labels: Label names to apply.
        assignees: Logins to assign, at most 10.
        milestone: The number of the milestone to put it in.
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    writable(repo)
    if not repo["has_issues"]:
        raise Conflict("Issues are disabled for this repo")
    triage = me.at_least(db, repo, "triage")
    label_ids = rules.label_ids(db, repo, labels or [], create=True) if triage and labels else []
    assignee_ids = rules.capped(rules.assignee_ids(db, repo, assignees or [])) if triage and assignees else []
    milestone_id = rules.milestone_id(db, repo, milestone) if triage and milestone is not None else None
    now = db.now_iso()
    row = db.insert(
        issues,
        id=int(db.new_id(issues, "29", width=8)),
        repo_id=repo["id"],
        number=_next_number(db, repo),
        is_pull_request=False,
        title=title.strip(),
        body=body,
        user_id=me.user_id,
        state="open",
        state_reason=None,
        label_ids=sorted(set(label_ids)),
        assignee_ids=assignee_ids,
        milestone_id=milestone_id,
        locked=False,
        active_lock_reason=None,
        closed_by_id=None,
        created_at=now,
        updated_at=now,
        closed_at=None,
    )
    return Render(db, me).issue(row)


@tool()
def update_issue(
    db: Database,
    repository: RepoName,
    issue_number: Number,
    title: text(256) | None = None,
    body: text(65536, min_length=0) | None = None,
    state: Literal["open", "closed"] | None = None,
    state_reason: Literal["completed", "not_planned", "duplicate", "reopened"] | None = None,
    add_labels: Names | None = None,
    remove_labels: Names | None = None,
    add_assignees: Names | None = None,
    remove_assignees: Names | None = None,
    milestone: Number | Literal["none"] | None = None,
) -> Issue:
    """Change an issue, or the issue side of a pull request (labels, assignees, milestone, title, closing):
    PATCH /repos/{owner}/{repo}/issues/{number} with the label and assignee endpoints. Closing takes a state_reason
    (completed, the default; not_planned; duplicate) and reopening records "reopened". Authors may edit and close
    their own issues; editing others' needs write access, closing them triage access; labels, assignees and
    milestones need triage access. Labels that do not exist yet are created.

    Args:
        repository: The repository as owner/name.
        issue_number: The issue's number.
        title: New title.
        body: New description (replaces the old one).
        state: open or closed.
        state_reason: Why it was closed (completed, not_planned, duplicate); may also change a closed issue's reason.
        add_labels: Label names to add.
        remove_labels: Label names to remove (each must be on the issue).
        add_assignees: Logins to assign (the issue keeps at most 10).
        remove_assignees: Logins to unassign.
        milestone: A milestone number, or "none" to take the issue out of its milestone.
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    writable(repo)
    row = rules.issue(db, repo, issue_number)
    changes: dict[str, Any] = {}
    if title is not None or body is not None:
        rules.require_editor(db, me, repo, row)
        changes.update({k: v for k, v in (("title", title and title.strip()), ("body", body)) if v is not None})
    if state is not None or state_reason is not None:
        rules.require_closer(db, me, repo, row)
        changes.update(rules.state_change(db, me, row, state, state_reason))
    if any(v is not None for v in (add_labels, remove_labels, add_assignees, remove_assignees, milestone)):
        rules.require_triage(db, me, repo)
        changes.update(
            rules.triage_change(db, repo, row, add_labels, remove_labels, add_assignees, remove_assignees, milestone)
        )
    if not changes:
        raise InvalidRequest("Nothing to update: give at least one field to change.")
    return Render(db, me).issue(_touch(db, row, **changes))


@tool()
def create_issue_comment(db: Database, repository: RepoName, issue_number: Number, body: text(65536)) -> IssueComment:
    """Comment on an issue or a pull request's conversation (POST /repos/{owner}/{repo}/issues/{number}/comments).
    A locked conversation only takes comments from people with write access.

    Args:
        repository: The repository as owner/name.
        issue_number: The issue's or pull request's number.
        body: The comment (Markdown).
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    writable(repo)
    row = rules.issue(db, repo, issue_number)
    rules.require_commenter(db, me, repo, row)
    comment = db.insert(
        issue_comments,
        id=int(db.new_id(issue_comments, "31", width=8)),
        issue_id=row["id"],
        user_id=me.user_id,
        body=body,
        created_at=db.now_iso(),
    )
    _touch(db, row)
    return Render(db, me).comment(comment)


# ---------------------------------------------------------------- pull requests


@tool(read_only=True)
def list_pull_requests(
    db: Database,
    repository: RepoName,
    state: Literal["open", "closed", "all"] = "open",
    head: str | None = None,
    base: str | None = None,
    sort: Literal["created", "updated"] = "created",
    direction: Direction = "desc",
    per_page: PageSize = 30,
    page: PageNumber = 1,
) -> Listing[PullRequestSummary]:
    """List a repository's pull requests (GET /repos/{owner}/{repo}/pulls).

    Args:
        repository: The repository as owner/name.
        state: open, closed (merged ones included) or all.
        head: Only pull requests from this branch: branch or owner:branch (for forks).
        base: Only pull requests into this branch.
        sort: created or updated.
        direction: asc or desc.
        per_page: Results per page, 1 to 100.
        page: Page number, from 1.
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    filters = {"repo_id": repo["id"], "is_pull_request": True, **given(state=None if state == "all" else state)}
    rows = {r["id"]: r for r in db.find(issues, **filters)}
    prs = [db.find(pull_requests, issue_id=issue_id)[0] for issue_id in rows]
    if base:
        prs = [p for p in prs if p["base_ref"] == base.strip()]
    if head:
        owner, _, ref = head.strip().rpartition(":")
        owner_repos = {r["id"] for r in db.find(repositories, owner_id=account(db, owner)["id"])} if owner else None
        prs = [p for p in prs if p["head_ref"] == ref and (owner_repos is None or p["head_repo_id"] in owner_repos)]
    key = "created_at" if sort == "created" else "updated_at"
    prs.sort(key=lambda p: (rows[p["issue_id"]][key], p["id"]), reverse=direction == "desc")
    render = Render(db, me)
    return listing([render.pull_summary(rows[p["issue_id"]], p) for p in prs], per_page, page)


@tool(read_only=True)
def get_pull_request(db: Database, repository: RepoName, pull_number: Number) -> PullRequest:
    """Get a pull request with its merge box: mergeable and mergeable_state (clean, unstable, behind, blocked, draft,
    dirty), conflicting files, commits behind its base, every review, the review decision, the checks on its head
    commit (required ones marked) and the issues it closes when merged.

    Args:
        repository: The repository as owner/name.
        pull_number: The pull request's number.
    """
    me = signed_in(db)
    repo, issue, pr = _pull(db, me, repository, pull_number)
    return Render(db, me).pull(repo, issue, pr)


@tool()
def create_pull_request(
    db: Database,
    repository: RepoName,
    title: text(256),
    head: NonEmptyText,
    base: str | None = None,
    body: text(65536, min_length=0) = "",
    draft: bool = False,
) -> PullRequest:
    """Open a pull request (POST /repos/{owner}/{repo}/pulls) from a branch of this repository, or of your fork
    (head as owner:branch), into base (the default branch if omitted). Workflows that run on pull_request are queued
    for its head commit. "Fixes #12" in the body links issue #12: merging into the default branch closes it. Draft
    pull requests aren't available in private repositories on GitHub Free.

    Args:
        repository: The repository the pull request goes into, as owner/name.
        title: The title.
        head: The branch with the changes: branch, or owner:branch for a fork's branch.
        base: The branch to merge into; the repository's default branch if omitted.
        body: The description (Markdown).
        draft: Open it as a draft.
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    writable(repo)
    owner_login, _, ref = head.strip().rpartition(":")
    source = repo
    if owner_login and owner_login.lower() != (Render(db, me).login(repo["owner_id"]) or "").lower():
        forks = db.find(repositories, owner_id=account(db, owner_login)["id"], fork_of=repo["id"])
        if not forks:
            raise rules.validation_failed("PullRequest", "head", "invalid")
        source = forks[0]
    target = (base or repo["default_branch"]).strip()
    branch = _branch(db, source, ref)
    if branch is None:
        raise rules.validation_failed("PullRequest", "head", "invalid")
    if _branch(db, repo, target) is None:
        raise rules.validation_failed("PullRequest", "base", "invalid")
    label = f"{Render(db, me).login(source['owner_id'])}:{ref}"
    if any(
        p["head_repo_id"] == source["id"] and p["head_ref"] == ref and p["base_ref"] == target
        for p in pulls.open_pulls(db, repo)
    ):
        raise InvalidRequest(f"Validation Failed: A pull request already exists for {label}.")
    if (source["id"] == repo["id"] and ref == target) or branch["ahead_by"] == 0:
        raise InvalidRequest(f"Validation Failed: No commits between {target} and {ref}")
    if draft and free_private(db, repo):
        raise InvalidRequest("Draft pull requests are not supported in this repository.")
    now, number = db.now_iso(), _next_number(db, repo)
    issue = db.insert(
        issues,
        id=int(db.new_id(issues, "29", width=8)),
        repo_id=repo["id"],
        number=number,
        is_pull_request=True,
        title=title.strip(),
        body=body,
        user_id=me.user_id,
        state="open",
        state_reason=None,
        label_ids=[],
        assignee_ids=[],
        milestone_id=None,
        locked=False,
        active_lock_reason=None,
        closed_by_id=None,
        created_at=now,
        updated_at=now,
        closed_at=None,
    )
    pr = db.insert(
        pull_requests,
        id=int(db.new_id(pull_requests, "19", width=8)),
        issue_id=issue["id"],
        head_repo_id=source["id"],
        head_ref=ref,
        head_sha=branch["commit_sha"],
        base_ref=target,
        draft=draft,
        merged=False,
        merged_by_id=None,
        merged_at=None,
        merge_method=None,
        merge_commit_sha=None,
        commits=branch["ahead_by"],
        additions=branch["additions"],
        deletions=branch["deletions"],
        changed_files=branch["changed_files"],
        behind_by=branch["behind_by"],
        conflicting_files=branch["conflicting_files"],
        requested_reviewer_ids=[],
        requested_team_ids=[],
    )
    actions.trigger_pull_request(db, me, repo, number, title.strip(), ref, branch["commit_sha"])
    return Render(db, me).pull(repo, issue, pr)


@tool()
def update_pull_request(
    db: Database,
    repository: RepoName,
    pull_number: Number,
    title: text(256) | None = None,
    body: text(65536, min_length=0) | None = None,
    state: Literal["open", "closed"] | None = None,
    base: str | None = None,
    draft: bool | None = None,
) -> PullRequest:
    """Edit a pull request (PATCH /repos/{owner}/{repo}/pulls/{number}): title, body, base branch, close or reopen
    it, or mark a draft ready for review (draft=false) / convert it back to a draft (draft=true). Authors and people
    with write access may edit; closing needs triage access. A merged pull request can't be reopened, nor one whose
    head branch is gone.

    Args:
        repository: The repository as owner/name.
        pull_number: The pull request's number.
        title: New title.
        body: New description (replaces the old one; closing keywords in it count).
        state: open or closed.
        base: A new base branch of the same repository.
        draft: false marks it ready for review; true converts it to a draft.
    """
    me = signed_in(db)
    repo, issue, pr = _pull(db, me, repository, pull_number)
    writable(repo)
    issue_changes: dict[str, Any] = {}
    pr_changes: dict[str, Any] = {}
    if any(v is not None for v in (title, body, base, draft)):
        rules.require_editor(db, me, repo, issue)
    if title is not None:
        issue_changes["title"] = title.strip()
    if body is not None:
        issue_changes["body"] = body
    if base is not None:
        if _branch(db, repo, base) is None:
            raise rules.validation_failed(
                "PullRequest", "base", "invalid", f"Proposed base branch '{base}' was not found"
            )
        if base.strip() == pr["base_ref"] or (pr["head_repo_id"] == repo["id"] and base.strip() == pr["head_ref"]):
            raise rules.validation_failed("PullRequest", "base", "invalid", base)
        pr_changes["base_ref"] = base.strip()
    if draft is not None:
        if issue["state"] != "open":
            raise InvalidRequest("Pull request is closed; only open pull requests can change draft state.")
        if draft and free_private(db, repo):
            raise InvalidRequest("Draft pull requests are not supported in this repository.")
        pr_changes["draft"] = draft
    if state is not None:
        rules.require_closer(db, me, repo, issue)
        if (
            state == "open"
            and issue["state"] == "closed"
            and not pr["merged"]
            and _branch(db, db.get(repositories, pr["head_repo_id"]), pr["head_ref"]) is None
        ):
            raise rules.validation_failed(
                "PullRequest",
                "state",
                "custom",
                f"state cannot be changed. The {pr['head_ref']} branch has been deleted.",
            )
        issue_changes.update(rules.state_change(db, me, issue, state, None))
    if not issue_changes and not pr_changes:
        raise InvalidRequest("Nothing to update: give at least one field to change.")
    issue = _touch(db, issue, **issue_changes)
    if pr_changes:
        pr = db.update(pull_requests, pr["id"], **pr_changes)
    return Render(db, me).pull(repo, issue, pr)


@tool()
def request_reviewers(
    db: Database,
    repository: RepoName,
    pull_number: Number,
    reviewers: Names | None = None,
    team_reviewers: Names | None = None,
) -> PullRequest:
    """Ask people or teams to review a pull request (POST /repos/{owner}/{repo}/pulls/{number}/requested_reviewers).
    Reviewers must be collaborators of the repository (teams: teams of its organization with access to it); the
    author can't be asked. Asking someone who already reviewed asks them again.

    Args:
        repository: The repository as owner/name.
        pull_number: The pull request's number.
        reviewers: Logins of people to ask.
        team_reviewers: Slugs of teams to ask (organization repositories only).
    """
    me = signed_in(db)
    repo, issue, pr = _pull(db, me, repository, pull_number)
    writable(repo)
    if not reviewers and not team_reviewers:
        raise rules.validation_failed("PullRequest", "reviewers", "missing_field")
    if not rules.is_author(me, issue) and not me.at_least(db, repo, "triage"):
        raise PermissionDenied("Must have admin rights to Repository.")
    if issue["state"] != "open":
        raise InvalidRequest("Validation Failed: could not request reviews on a closed pull request.")
    people = pr["requested_reviewer_ids"] + pulls.reviewer_ids(db, repo, issue, reviewers or [])
    squads = pr["requested_team_ids"] + pulls.team_ids(db, repo, team_reviewers or [])
    pr = db.update(
        pull_requests, pr["id"], requested_reviewer_ids=sorted(set(people)), requested_team_ids=sorted(set(squads))
    )
    return Render(db, me).pull(repo, _touch(db, issue), pr)


@tool()
def create_review(
    db: Database,
    repository: RepoName,
    pull_number: Number,
    event: Literal["APPROVE", "REQUEST_CHANGES", "COMMENT"],
    body: text(65536, min_length=0) = "",
) -> Review:
    """Submit a review of a pull request's head commit (POST /repos/{owner}/{repo}/pulls/{number}/reviews): APPROVE,
    REQUEST_CHANGES or COMMENT (the last two need a body). You can't approve or request changes on your own pull
    request. Only approvals from people with write access count towards required reviews.

    Args:
        repository: The repository as owner/name.
        pull_number: The pull request's number.
        event: APPROVE, REQUEST_CHANGES or COMMENT.
        body: The review's text.
    """
    me = signed_in(db)
    repo, issue, pr = _pull(db, me, repository, pull_number)
    writable(repo)
    if issue["state"] != "open":
        raise InvalidRequest("Validation Failed: Can not review a closed pull request.")
    if rules.is_author(me, issue) and event != "COMMENT":
        verb = "approve" if event == "APPROVE" else "request changes on"
        raise InvalidRequest(f"Validation Failed: Can not {verb} your own pull request")
    if event != "APPROVE" and not body.strip():
        raise rules.validation_failed("PullRequestReview", "body", "missing_field")
    state = {"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED"}[event]
    review = db.insert(
        reviews,
        id=int(db.new_id(reviews, "24", width=8)),
        pull_request_id=pr["id"],
        user_id=me.user_id,
        state=state,
        body=body,
        commit_id=pr["head_sha"],
        dismissal_message=None,
        submitted_at=db.now_iso(),
    )
    db.update(
        pull_requests, pr["id"], requested_reviewer_ids=[r for r in pr["requested_reviewer_ids"] if r != me.user_id]
    )
    _touch(db, issue)
    return Render(db, me).review(review)


@tool()
def dismiss_review(
    db: Database, repository: RepoName, pull_number: Number, review_id: Number, message: NonEmptyText
) -> Review:
    """Dismiss an approval or a change request so it no longer counts
    (PUT /repos/{owner}/{repo}/pulls/{number}/reviews/{id}/dismissals). Needs write access; comments can't be
    dismissed.

    Args:
        repository: The repository as owner/name.
        pull_number: The pull request's number.
        review_id: The review's id (from get_pull_request).
        message: Why it is dismissed; shown on the pull request.
    """
    me = signed_in(db)
    repo, issue, pr = _pull(db, me, repository, pull_number)
    writable(repo)
    found = db.find(reviews, id=review_id, pull_request_id=pr["id"])
    if not found:
        raise NotFound("Not Found")
    me.require(db, repo, "write", "Must have write access to dismiss pull request reviews.")
    review = found[0]
    if review["state"] == "COMMENTED":
        raise InvalidRequest("Validation Failed: Can not dismiss a commented pull request review")
    if review["state"] == "DISMISSED":
        raise InvalidRequest("Validation Failed: Can not dismiss a dismissed pull request review")
    row = db.update(reviews, review_id, state="DISMISSED", dismissal_message=message.strip())
    _touch(db, issue)
    return Render(db, me).review(row)


@tool()
def merge_pull_request(
    db: Database,
    repository: RepoName,
    pull_number: Number,
    merge_method: Literal["merge", "squash", "rebase"] = "merge",
    sha: Annotated[str, Field(pattern=r"^[0-9a-f]{40}$")] | None = None,
) -> MergeResult:
    """Merge a pull request (PUT /repos/{owner}/{repo}/pulls/{number}/merge) with a method the repository allows.
    Refused (405) for drafts, merge conflicts and what the base branch's protection demands (approvals, no change
    requests, passing required checks, an up-to-date branch, linear history, who may push); administrators pass
    protection that is not enforced for admins. Merging into the default branch closes the issues its body names
    with closing keywords; the head branch is deleted when the repository says so; other open pull requests on the
    same base fall behind.

    Args:
        repository: The repository as owner/name.
        pull_number: The pull request's number.
        merge_method: merge, squash or rebase.
        sha: The head commit the merge must match (refused if the branch has moved).
    """
    me = signed_in(db)
    repo, issue, pr = _pull(db, me, repository, pull_number)
    writable(repo)
    commit = pulls.merge(db, me, repo, issue, pr, merge_method, sha)
    return MergeResult(sha=commit, merged=True, message="Pull Request successfully merged")


# ---------------------------------------------------------------- branch protection


@tool()
def update_branch_protection(
    db: Database,
    repository: RepoName,
    branch: NonEmptyText,
    require_pull_request_reviews: bool | None = None,
    required_approving_review_count: bounded(0, 6) | None = None,
    dismiss_stale_reviews: bool | None = None,
    require_status_checks: bool | None = None,
    add_status_checks: Names | None = None,
    remove_status_checks: Names | None = None,
    strict: bool | None = None,
    enforce_admins: bool | None = None,
    restrict_pushes: bool | None = None,
    add_push_users: Names | None = None,
    remove_push_users: Names | None = None,
    add_push_teams: Names | None = None,
    remove_push_teams: Names | None = None,
    required_linear_history: bool | None = None,
    allow_force_pushes: bool | None = None,
    allow_deletions: bool | None = None,
) -> BranchProtection:
    """Protect a branch or change its protection (the branch protection endpoints under
    /repos/{owner}/{repo}/branches/{branch}/protection); only the settings given change, and an unprotected branch
    starts with none enabled. Needs admin access; private repositories on GitHub Free can't protect branches.
    Push restrictions (who may push and merge) exist only in organization repositories, for people and teams with
    write access.

    Args:
        repository: The repository as owner/name.
        branch: The branch name.
        require_pull_request_reviews: true requires approving reviews before merging; false removes the requirement.
        required_approving_review_count: How many approvals are required, 0 to 6 (turns required reviews on).
        dismiss_stale_reviews: Dismiss approvals when new commits are pushed.
        require_status_checks: true requires status checks to pass; false removes the requirement.
        add_status_checks: Check names to require (turns required checks on).
        remove_status_checks: Check names to stop requiring.
        strict: Require the branch to be up to date with the base before merging.
        enforce_admins: Apply the rules to administrators too.
        restrict_pushes: true limits pushes to the allowed people and teams; false lets anyone with write access push.
        add_push_users: Logins allowed to push (turns restrictions on).
        remove_push_users: Logins no longer allowed to push.
        add_push_teams: Team slugs allowed to push (turns restrictions on).
        remove_push_teams: Team slugs no longer allowed to push.
        required_linear_history: Refuse merge commits.
        allow_force_pushes: Allow force pushes.
        allow_deletions: Allow deleting the branch.
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    writable(repo)
    if me.role(db, repo) != "admin":
        raise PermissionDenied("Must have admin rights to Repository.")
    if free_private(db, repo):
        raise PermissionDenied("Upgrade to GitHub Pro or make this repository public to use this feature.")
    if _branch(db, repo, branch) is None:
        raise NotFound("Branch not found")
    settings = dict(
        require_pull_request_reviews=require_pull_request_reviews,
        required_approving_review_count=required_approving_review_count,
        dismiss_stale_reviews=dismiss_stale_reviews,
        require_status_checks=require_status_checks,
        add_status_checks=add_status_checks,
        remove_status_checks=remove_status_checks,
        strict=strict,
        enforce_admins=enforce_admins,
        restrict_pushes=restrict_pushes,
        add_push_users=add_push_users,
        remove_push_users=remove_push_users,
        add_push_teams=add_push_teams,
        remove_push_teams=remove_push_teams,
        required_linear_history=required_linear_history,
        allow_force_pushes=allow_force_pushes,
        allow_deletions=allow_deletions,
    )
    if all(v is None for v in settings.values()):
        raise InvalidRequest("Nothing to update: give at least one protection setting.")
    rule = protection.apply(db, repo, branch.strip(), settings)
    return Render(db, me).protection(rule)


# ---------------------------------------------------------------- GitHub Actions


@tool(read_only=True)
def list_workflow_runs(
    db: Database,
    repository: RepoName,
    branch: str | None = None,
    event: str | None = None,
    status: RunStatus | None = None,
    actor: str | None = None,
    head_sha: str | None = None,
    per_page: PageSize = 30,
    page: PageNumber = 1,
) -> Listing[WorkflowRunSummary]:
    """List a repository's GitHub Actions workflow runs, newest first (GET /repos/{owner}/{repo}/actions/runs).

    Args:
        repository: The repository as owner/name.
        branch: Only runs for this head branch.
        event: Only runs triggered by this event: push, pull_request, schedule, workflow_dispatch, ...
        status: A status (queued, in_progress, completed) or a conclusion (success, failure, cancelled, ...).
        actor: Only runs started by this login.
        head_sha: Only runs for this commit.
        per_page: Results per page, 1 to 100.
        page: Page number, from 1.
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    progress = status in ("queued", "in_progress", "completed")
    filters = given(
        head_branch=branch and branch.strip(),
        event=event and event.strip(),
        status=status if progress else None,
        conclusion=None if progress else status,
        actor_id=account(db, actor)["id"] if actor else None,
        head_sha=head_sha and head_sha.strip(),
    )
    rows = _newest(db.find(workflow_runs, repo_id=repo["id"], **filters), "created_at", "desc")
    render = Render(db, me)
    return listing([render.run_summary(r) for r in rows], per_page, page)


@tool(read_only=True)
def get_workflow_run(db: Database, repository: RepoName, run_id: int) -> WorkflowRun:
    """Get a workflow run with its jobs: each job's status, conclusion and the step that failed.

    Args:
        repository: The repository as owner/name.
        run_id: The run's id (from list_workflow_runs or a pull request's checks).
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    return Render(db, me).run(actions.run(db, repo, run_id))


@tool()
def rerun_workflow_run(db: Database, repository: RepoName, run_id: int, failed_jobs_only: bool = True) -> WorkflowRun:
    """Re-run a completed workflow run as a new attempt: only its failed jobs
    (POST /repos/{owner}/{repo}/actions/runs/{id}/rerun-failed-jobs) or all of them (.../rerun). The jobs are queued
    again; runs created more than a month ago can't be re-run, nor runs still in progress. Needs write access.

    Args:
        repository: The repository as owner/name.
        run_id: The run's id.
        failed_jobs_only: true re-runs only failed, cancelled or timed-out jobs; false re-runs every job.
    """
    me = signed_in(db)
    repo = repo_named(db, me, repository)
    writable(repo)
    row = actions.rerun(db, me, repo, actions.run(db, repo, run_id), failed_jobs_only)
    return Render(db, me).run(row)
