"""GitHub's REST objects as output models (field names as in the API's JSON), and how stored rows become them."""

from __future__ import annotations

import base64
from collections import Counter
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, Field

from envfactory_gym import Database, KeptGeneric, NotFound, paginate

from .access import Viewer, permissions
from .pulls import check_state, checks, mergeable_state, protection, review_decision
from .rules import closing_numbers, login_of
from .schema import (
    accounts,
    issue_comments,
    issues,
    jobs,
    labels,
    milestones,
    org_members,
    pull_requests,
    repositories,
    reviews,
    teams,
    workflows,
)

T = TypeVar("T")


class Listing(KeptGeneric, Generic[T]):
    """One page of a list (GitHub pages with `per_page` and `page`; `next_page` is the Link header's rel=next)."""

    total_count: int
    page: int
    per_page: int
    next_page: int | None
    items: list[T]


def listing(items: list[T], per_page: int, page: int) -> Listing[T]:
    """Page `page` (from 1) of `items`; a page past the end is empty, as on GitHub."""
    start = (page - 1) * per_page
    if start >= len(items):
        return Listing[Any](total_count=len(items), page=page, per_page=per_page, next_page=None, items=[])
    sliced = paginate(items, per_page, str(start))
    return Listing[Any](
        total_count=len(items),
        page=page,
        per_page=per_page,
        next_page=page + 1 if sliced.has_more else None,
        items=sliced.results,
    )


def node_id(prefix: str, number: int) -> str:
    """A global node id such as R_kgDOH3xbcQ (the type's prefix and the encoded database id)."""
    return prefix + base64.b64encode(number.to_bytes(6, "big")).decode().rstrip("=")


class AuthenticatedUser(BaseModel):
    """The signed-in account (GET /user), with the scopes of the token the assistant holds."""

    login: str
    id: int
    node_id: str
    type: str
    name: str | None
    email: str | None
    company: str | None
    plan: str = Field(description="free, pro, team or enterprise")
    organizations: list[str] = Field(description="logins of the organizations the user belongs to")
    token_scopes: list[str] = Field(description="the X-OAuth-Scopes of the token: repo, public_repo, workflow, ...")


class RepositorySummary(BaseModel):
    """A repository as lists show it."""

    id: int
    full_name: str = Field(description="owner/name")
    owner: str
    private: bool
    visibility: str = Field(description="public or private")
    description: str
    fork: bool
    parent: str | None = Field(description="full name of the repository this one was forked from")
    archived: bool
    default_branch: str
    language: str | None
    stargazers_count: int
    open_issues_count: int = Field(description="open issues and pull requests")
    pushed_at: str
    role_name: str = Field(description="your role: read, triage, write, maintain or admin")


class Repository(RepositorySummary):
    """A repository with its settings (GET /repos/{owner}/{repo})."""

    node_id: str
    owner_type: str = Field(description="User or Organization")
    owner_plan: str = Field(description="the owner's GitHub plan: free, pro, team or enterprise")
    topics: list[str]
    has_issues: bool
    allow_merge_commit: bool
    allow_squash_merge: bool
    allow_rebase_merge: bool
    delete_branch_on_merge: bool
    created_at: str
    permissions: dict[str, bool] = Field(description="admin, maintain, push, triage, pull")


class StatusChecks(BaseModel):
    """Required status checks: every context must pass on the head commit; strict: the branch must be up to date."""

    strict: bool
    contexts: list[str]


class RequiredReviews(BaseModel):
    """Required pull request reviews."""

    required_approving_review_count: int
    dismiss_stale_reviews: bool


class Restrictions(BaseModel):
    """Who may push (and merge) to the branch: these users and teams only."""

    users: list[str]
    teams: list[str]


class BranchProtection(BaseModel):
    """A protected branch's rule (GET /repos/{owner}/{repo}/branches/{branch}/protection)."""

    required_status_checks: StatusChecks | None
    required_pull_request_reviews: RequiredReviews | None
    enforce_admins: bool = Field(description="the rules bind administrators too")
    restrictions: Restrictions | None
    required_linear_history: bool
    allow_force_pushes: bool
    allow_deletions: bool


class Branch(BaseModel):
    """A branch and its protection."""

    name: str
    commit_sha: str
    protected: bool
    protection: BranchProtection | None


class Collaborator(BaseModel):
    """Someone with access to a repository, and their role."""

    login: str
    id: int
    name: str | None
    role_name: str
    permissions: dict[str, bool]


class Label(BaseModel):
    """An issue label of a repository."""

    id: int
    name: str
    color: str
    description: str
    default: bool


class MilestoneRef(BaseModel):
    """A milestone as issues show it."""

    number: int
    title: str


class Milestone(MilestoneRef):
    """A milestone and its progress."""

    id: int
    description: str
    state: str
    open_issues: int
    closed_issues: int
    due_on: str | None
    created_at: str


class IssueSummary(BaseModel):
    """An issue (or pull request: every pull request is an issue) as lists show it."""

    id: int
    number: int
    title: str
    state: str
    state_reason: str | None = Field(description="completed, not_planned, duplicate or reopened")
    user: str
    labels: list[str]
    assignees: list[str]
    milestone: MilestoneRef | None
    comments: int
    pull_request: bool = Field(description="true when this issue is a pull request")
    locked: bool
    created_at: str
    updated_at: str
    closed_at: str | None


class IssueComment(BaseModel):
    """A comment in an issue's or pull request's conversation."""

    id: int
    user: str
    body: str
    created_at: str


class Issue(IssueSummary):
    """An issue with its body and conversation (GET /repos/{owner}/{repo}/issues/{number} and its comments)."""

    node_id: str
    body: str
    active_lock_reason: str | None
    closed_by: str | None
    thread: list[IssueComment]


class Review(BaseModel):
    """A pull request review."""

    id: int
    user: str
    state: str = Field(description="APPROVED, CHANGES_REQUESTED, COMMENTED or DISMISSED")
    body: str
    commit_id: str
    submitted_at: str


class Check(BaseModel):
    """A check run on the head commit (a job of a workflow run)."""

    name: str
    status: str = Field(description="queued, in_progress, completed, or expected (required but never reported)")
    conclusion: str | None
    required: bool
    workflow_run_id: int | None


class PullRequestSummary(BaseModel):
    """A pull request as lists show it."""

    id: int
    number: int
    title: str
    user: str
    state: str
    draft: bool
    merged: bool
    head: str = Field(description="the head branch")
    head_label: str = Field(description="owner:branch of the head (the owner of a fork for pull requests from forks)")
    base: str = Field(description="the base branch")
    labels: list[str]
    requested_reviewers: list[str]
    created_at: str
    updated_at: str


class PullRequest(PullRequestSummary):
    """A pull request with its merge box: mergeability, reviews, checks (GET /repos/{owner}/{repo}/pulls/{number})."""

    node_id: str
    body: str
    head_sha: str
    mergeable: bool | None = Field(description="false with merge conflicts; null once closed")
    mergeable_state: str = Field(description="clean, unstable, behind, blocked, draft, dirty or unknown")
    conflicting_files: list[str]
    behind_by: int = Field(description="base-branch commits the head branch lacks")
    commits: int
    additions: int
    deletions: int
    changed_files: int
    merged_at: str | None
    merged_by: str | None
    merge_commit_sha: str | None
    assignees: list[str]
    milestone: MilestoneRef | None
    requested_teams: list[str]
    review_decision: str | None = Field(
        description="APPROVED, CHANGES_REQUESTED or REVIEW_REQUIRED when the base branch requires reviews"
    )
    reviews: list[Review]
    status_checks: list[Check]
    closing_issues: list[int] = Field(
        description="issues this pull request closes when merged into the default branch (closing keywords in its body)"
    )
    comments: int
    closed_at: str | None


class MergeResult(BaseModel):
    """The answer to a merge."""

    sha: str
    merged: bool
    message: str


class Job(BaseModel):
    """A job of a workflow run (its name is the check name branch protection requires)."""

    id: int
    name: str
    status: str
    conclusion: str | None
    run_attempt: int
    failed_step: str | None
    started_at: str | None
    completed_at: str | None


class WorkflowRunSummary(BaseModel):
    """A workflow run as lists show it."""

    id: int
    name: str = Field(description="the workflow's name")
    path: str
    display_title: str
    run_number: int
    run_attempt: int
    event: str
    status: str = Field(description="queued, in_progress or completed")
    conclusion: str | None = Field(description="success, failure, cancelled, skipped, timed_out, ... once completed")
    head_branch: str
    head_sha: str
    actor: str
    triggering_actor: str
    pull_requests: list[int]
    created_at: str
    updated_at: str


class WorkflowRun(WorkflowRunSummary):
    """A workflow run with its jobs (GET /repos/{owner}/{repo}/actions/runs/{id} and its jobs)."""

    jobs: list[Job]


# ---------------------------------------------------------------- rendering


class Render:
    """Turns rows into API objects as the signed-in user sees them, remembering the logins it has looked up."""

    def __init__(self, db: Database, viewer: Viewer) -> None:
        self.db = db
        self.viewer = viewer
        self._logins: dict[int, str] = {}
        self._labels: dict[int, str] = {}
        self._milestones: dict[int, MilestoneRef] = {}
        self._comments: dict[int, int] | None = None

    def login(self, user_id: int | None) -> str | None:
        if user_id is None:
            return None
        if user_id not in self._logins:
            self._logins[user_id] = login_of(self.db, user_id) or ""
        return self._logins[user_id]

    def logins(self, ids: list[int]) -> list[str]:
        return sorted(self.login(i) or "" for i in ids)

    def me(self) -> AuthenticatedUser:
        person = self.db.get(accounts, self.viewer.user_id)
        orgs = [self.login(m["org_id"]) or "" for m in self.db.find(org_members, user_id=person["id"])]
        return AuthenticatedUser(
            login=person["login"],
            id=person["id"],
            node_id=node_id("U_kgDO", person["id"]),
            type=person["type"],
            name=person["name"],
            email=person["email"],
            company=person["company"],
            plan=person["plan"],
            organizations=sorted(orgs),
            token_scopes=list(self.viewer.scopes),
        )

    def open_count(self, repo: dict[str, Any]) -> int:
        return len(self.db.find(issues, repo_id=repo["id"], state="open"))

    def repo_fields(self, repo: dict[str, Any]) -> dict[str, Any]:
        parent = self.db.get(repositories, repo["fork_of"])["full_name"] if repo["fork_of"] is not None else None
        return dict(
            id=repo["id"],
            full_name=repo["full_name"],
            owner=self.login(repo["owner_id"]),
            private=repo["private"],
            visibility="private" if repo["private"] else "public",
            description=repo["description"],
            fork=repo["fork_of"] is not None,
            parent=parent,
            archived=repo["archived"],
            default_branch=repo["default_branch"],
            language=repo["language"],
            stargazers_count=repo["stargazers_count"],
            open_issues_count=self.open_count(repo),
            pushed_at=repo["pushed_at"],
            role_name=self.viewer.role(self.db, repo) or "read",
        )

    def repo_summary(self, repo: dict[str, Any]) -> RepositorySummary:
        return RepositorySummary(**self.repo_fields(repo))

    def repo(self, repo: dict[str, Any]) -> Repository:
        fields = self.repo_fields(repo)
        owner = self.db.get(accounts, repo["owner_id"])
        return Repository(
            **fields,
            node_id=node_id("R_kgDO", repo["id"]),
            owner_type=owner["type"],
            owner_plan=owner["plan"],
            topics=repo["topics"],
            has_issues=repo["has_issues"],
            allow_merge_commit=repo["allow_merge_commit"],
            allow_squash_merge=repo["allow_squash_merge"],
            allow_rebase_merge=repo["allow_rebase_merge"],
            delete_branch_on_merge=repo["delete_branch_on_merge"],
            created_at=repo["created_at"],
            permissions=permissions(fields["role_name"]),
        )

    def protection(self, rule: dict[str, Any]) -> BranchProtection:
        team_slugs = sorted(self.db.get(teams, t)["slug"] for t in rule["push_team_ids"])
        return BranchProtection(
            required_status_checks=StatusChecks(strict=rule["strict"], contexts=rule["contexts"])
            if rule["status_checks"]
            else None,
            required_pull_request_reviews=RequiredReviews(
                required_approving_review_count=rule["required_approving_review_count"],
                dismiss_stale_reviews=rule["dismiss_stale_reviews"],
            )
            if rule["pull_request_reviews"]
            else None,
            enforce_admins=rule["enforce_admins"],
            restrictions=Restrictions(users=self.logins(rule["push_user_ids"]), teams=team_slugs)
            if rule["restrict_pushes"]
            else None,
            required_linear_history=rule["required_linear_history"],
            allow_force_pushes=rule["allow_force_pushes"],
            allow_deletions=rule["allow_deletions"],
        )

    def branch(self, repo: dict[str, Any], row: dict[str, Any]) -> Branch:
        rule = protection(self.db, repo, row["name"])
        return Branch(
            name=row["name"],
            commit_sha=row["commit_sha"],
            protected=rule is not None,
            protection=self.protection(rule) if rule else None,
        )

    def label_names(self, ids: list[int]) -> list[str]:
        for label_id in ids:
            if label_id not in self._labels:
                self._labels[label_id] = self.db.get(labels, label_id)["name"]
        return sorted(self._labels[i] for i in ids)

    def milestone_ref(self, milestone_id: int | None) -> MilestoneRef | None:
        if milestone_id is None:
            return None
        if milestone_id not in self._milestones:
            row = self.db.get(milestones, milestone_id)
            self._milestones[milestone_id] = MilestoneRef(number=row["number"], title=row["title"])
        return self._milestones[milestone_id]

    def milestone(self, row: dict[str, Any]) -> Milestone:
        states = [i["state"] for i in self.db.find(issues, milestone_id=row["id"])]
        return Milestone(
            id=row["id"],
            number=row["number"],
            title=row["title"],
            description=row["description"],
            state=row["state"],
            open_issues=states.count("open"),
            closed_issues=states.count("closed"),
            due_on=row["due_on"],
            created_at=row["created_at"],
        )

    def comment_count(self, issue: dict[str, Any]) -> int:
        if self._comments is None:
            self._comments = Counter(c["issue_id"] for c in self.db.find(issue_comments))
        return self._comments[issue["id"]]

    def issue_fields(self, row: dict[str, Any]) -> dict[str, Any]:
        return dict(
            id=row["id"],
            number=row["number"],
            title=row["title"],
            state=row["state"],
            state_reason=row["state_reason"],
            user=self.login(row["user_id"]),
            labels=self.label_names(row["label_ids"]),
            assignees=self.logins(row["assignee_ids"]),
            milestone=self.milestone_ref(row["milestone_id"]),
            comments=self.comment_count(row),
            pull_request=row["is_pull_request"],
            locked=row["locked"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            closed_at=row["closed_at"],
        )

    def issue_summary(self, row: dict[str, Any]) -> IssueSummary:
        return IssueSummary(**self.issue_fields(row))

    def comment(self, row: dict[str, Any]) -> IssueComment:
        return IssueComment(
            id=row["id"], user=self.login(row["user_id"]) or "", body=row["body"], created_at=row["created_at"]
        )

    def issue(self, row: dict[str, Any]) -> Issue:
        thread = self.db.find(issue_comments, issue_id=row["id"], order_by=[issue_comments.c.created_at])
        return Issue(
            **self.issue_fields(row),
            node_id=node_id("I_kwDO", row["id"]),
            body=row["body"],
            active_lock_reason=row["active_lock_reason"],
            closed_by=self.login(row["closed_by_id"]),
            thread=[self.comment(c) for c in thread],
        )

    def review(self, row: dict[str, Any]) -> Review:
        return Review(
            id=row["id"],
            user=self.login(row["user_id"]) or "",
            state=row["state"],
            body=row["body"],
            commit_id=row["commit_id"],
            submitted_at=row["submitted_at"],
        )

    def pull_fields(self, issue: dict[str, Any], pr: dict[str, Any]) -> dict[str, Any]:
        reviewers = self.logins(pr["requested_reviewer_ids"])
        head_owner = self.login(self.db.get(repositories, pr["head_repo_id"])["owner_id"])
        return dict(
            id=pr["id"],
            number=issue["number"],
            title=issue["title"],
            user=self.login(issue["user_id"]),
            state=issue["state"],
            draft=pr["draft"],
            merged=pr["merged"],
            head=pr["head_ref"],
            head_label=f"{head_owner}:{pr['head_ref']}",
            base=pr["base_ref"],
            labels=self.label_names(issue["label_ids"]),
            requested_reviewers=reviewers,
            created_at=issue["created_at"],
            updated_at=issue["updated_at"],
        )

    def pull_summary(self, issue: dict[str, Any], pr: dict[str, Any]) -> PullRequestSummary:
        return PullRequestSummary(**self.pull_fields(issue, pr))

    def status_checks(self, repo: dict[str, Any], pr: dict[str, Any]) -> list[Check]:
        rule = protection(self.db, repo, pr["base_ref"])
        required = list(rule["contexts"]) if rule and rule["status_checks"] else []
        ran = checks(self.db, repo, pr["head_sha"])
        found = [
            Check(
                name=name,
                status=job["status"],
                conclusion=job["conclusion"],
                required=name in required,
                workflow_run_id=job["run_id"],
            )
            for name, job in sorted(ran.items())
        ]
        found += [
            Check(name=name, status="expected", conclusion=None, required=True, workflow_run_id=None)
            for name in required
            if check_state(ran.get(name)) == "expected"
        ]
        return found

    def pull(self, repo: dict[str, Any], issue: dict[str, Any], pr: dict[str, Any]) -> PullRequest:
        state = mergeable_state(self.db, self.viewer, repo, issue, pr)
        history = self.db.find(reviews, pull_request_id=pr["id"], order_by=[reviews.c.submitted_at])
        team_slugs = sorted(self.db.get(teams, t)["slug"] for t in pr["requested_team_ids"])
        return PullRequest(
            **self.pull_fields(issue, pr),
            node_id=node_id("PR_kwDO", pr["id"]),
            body=issue["body"],
            head_sha=pr["head_sha"],
            mergeable=None if issue["state"] != "open" else not pr["conflicting_files"],
            mergeable_state=state,
            conflicting_files=pr["conflicting_files"],
            behind_by=pr["behind_by"],
            commits=pr["commits"],
            additions=pr["additions"],
            deletions=pr["deletions"],
            changed_files=pr["changed_files"],
            merged_at=pr["merged_at"],
            merged_by=self.login(pr["merged_by_id"]),
            merge_commit_sha=pr["merge_commit_sha"],
            assignees=self.logins(issue["assignee_ids"]),
            milestone=self.milestone_ref(issue["milestone_id"]),
            requested_teams=team_slugs,
            review_decision=review_decision(self.db, repo, pr),
            reviews=[self.review(r) for r in history],
            status_checks=self.status_checks(repo, pr),
            closing_issues=closing_numbers(repo, issue["body"]),
            comments=self.comment_count(issue),
            closed_at=issue["closed_at"],
        )

    def run_fields(self, row: dict[str, Any]) -> dict[str, Any]:
        flow = self.db.get(workflows, row["workflow_id"])
        return dict(
            id=row["id"],
            name=flow["name"],
            path=flow["path"],
            display_title=row["display_title"],
            run_number=row["run_number"],
            run_attempt=row["run_attempt"],
            event=row["event"],
            status=row["status"],
            conclusion=row["conclusion"],
            head_branch=row["head_branch"],
            head_sha=row["head_sha"],
            actor=self.login(row["actor_id"]),
            triggering_actor=self.login(row["triggering_actor_id"]),
            pull_requests=row["pull_request_numbers"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
        )

    def run_summary(self, row: dict[str, Any]) -> WorkflowRunSummary:
        return WorkflowRunSummary(**self.run_fields(row))

    def run(self, row: dict[str, Any]) -> WorkflowRun:
        steps = self.db.find(jobs, run_id=row["id"], order_by=[jobs.c.id])
        return WorkflowRun(
            **self.run_fields(row),
            jobs=[
                Job(
                    id=j["id"],
                    name=j["name"],
                    status=j["status"],
                    conclusion=j["conclusion"],
                    run_attempt=j["run_attempt"],
                    failed_step=j["failed_step"],
                    started_at=j["started_at"],
                    completed_at=j["completed_at"],
                )
                for j in steps
            ],
        )


def pull_rows(db: Database, repo: dict[str, Any], number: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The issue row and pull request row of a repository's pull request number."""
    found = db.find(issues, repo_id=repo["id"], number=number, is_pull_request=True)
    if not found:
        raise NotFound("Not Found")
    return found[0], db.find(pull_requests, issue_id=found[0]["id"])[0]
