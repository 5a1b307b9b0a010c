"""Pull request rules: the checks on the head commit, which reviews count, what branch protection demands,
`mergeable_state`, and merging itself (allowed methods, conflicts, protection, admins' bypass, closing keywords,
deleting the head branch, and the other pull requests that fall behind their base)."""

from __future__ import annotations

import hashlib
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .access import RANK, Viewer, account, explicit_role
from .rules import closing_numbers
from .schema import (
    branch_protections,
    branches,
    issues,
    jobs,
    pull_requests,
    repositories,
    reviews,
    team_members,
    team_repos,
    teams,
    workflow_runs,
)

PASSING = {"success", "skipped", "neutral"}
METHOD_SETTING = {"merge": "allow_merge_commit", "squash": "allow_squash_merge", "rebase": "allow_rebase_merge"}
METHOD_REFUSED = {
    "merge": "Merge commits are not allowed on this repository.",
    "squash": "Squash merges are not allowed on this repository.",
    "rebase": "Rebase merges are not allowed on this repository.",
}
NOT_MERGEABLE = "Pull Request is not mergeable"
NOT_AUTHORIZED = (
    "You're not authorized to push to this branch. Visit https://docs.github.com/repositories/"
    "configuring-branches-and-merges-in-your-repository/managing-protected-branches/"
    "about-protected-branches for more information."
)


def sha(*parts: Any) -> str:
    """A deterministic 40-hex commit sha."""
    return hashlib.sha1(":".join(str(p) for p in parts).encode()).hexdigest()


def open_pulls(db: Database, repo: dict[str, Any]) -> list[dict[str, Any]]:
    """The repository's open pull requests (their pull request rows)."""
    return [
        db.find(pull_requests, issue_id=row["id"])[0]
        for row in db.find(issues, repo_id=repo["id"], is_pull_request=True, state="open")
    ]


def not_collaborator(repo: dict[str, Any]) -> InvalidRequest:
    """GitHub's 422 for a review request to someone (or a team) without access."""
    return InvalidRequest(
        "Reviews may only be requested from collaborators. One or more of the users or teams you "
        f"specified is not a collaborator of the {repo['full_name']} repository."
    )


def reviewer_ids(db: Database, repo: dict[str, Any], issue: dict[str, Any], logins: list[str]) -> list[int]:
    """People who may be asked to review: collaborators of the repository other than the author."""
    found: list[int] = []
    for login in logins:
        try:
            person = account(db, login)
        except NotFound:
            raise not_collaborator(repo) from None
        if person["id"] == issue["user_id"]:
            raise InvalidRequest("Review cannot be requested from pull request author.")
        if explicit_role(db, repo, person["id"]) is None:
            raise not_collaborator(repo)
        found.append(person["id"])
    return found


def team_ids(db: Database, repo: dict[str, Any], slugs: list[str]) -> list[int]:
    """Teams that may be asked to review: teams of the repository's organization with access to it."""
    found: list[int] = []
    for slug in slugs:
        team = db.find(teams, org_id=repo["owner_id"], slug=slug.strip().lower())
        if not team or not db.find(team_repos, team_id=team[0]["id"], repo_id=repo["id"]):
            raise not_collaborator(repo)
        found.append(team[0]["id"])
    return found


def protection(db: Database, repo: dict[str, Any], branch: str) -> dict[str, Any] | None:
    """The branch's protection rule, if it is protected."""
    found = db.find(branch_protections, repo_id=repo["id"], branch=branch)
    return found[0] if found else None


def checks(db: Database, repo: dict[str, Any], head_sha: str) -> dict[str, dict[str, Any]]:
    """The latest job of each name that ran on a commit (a check run per job), by name."""
    latest: dict[str, dict[str, Any]] = {}
    for run in db.find(workflow_runs, repo_id=repo["id"], head_sha=head_sha):
        for job in db.find(jobs, run_id=run["id"]):
            latest[job["name"]] = job
    return latest


def check_state(job: dict[str, Any] | None) -> str:
    """success, failure, pending (queued or running) or expected (never reported) for a check."""
    if job is None:
        return "expected"
    if job["status"] != "completed":
        return "pending"
    return "success" if job["conclusion"] in PASSING else "failure"


def latest_reviews(db: Database, pr: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Each reviewer's standing review: their latest approval, change request or dismissal (comments don't count)."""
    standing: dict[int, dict[str, Any]] = {}
    for review in db.find(reviews, pull_request_id=pr["id"], order_by=[reviews.c.submitted_at]):
        if review["state"] != "COMMENTED":
            standing[review["user_id"]] = review
    return standing


def counted(db: Database, repo: dict[str, Any], pr: dict[str, Any], state: str) -> list[int]:
    """Reviewers with write access whose standing review is in `state`."""
    return [
        user
        for user, review in latest_reviews(db, pr).items()
        if review["state"] == state and RANK.get(explicit_role(db, repo, user) or "", 0) >= RANK["write"]
    ]


def review_decision(db: Database, repo: dict[str, Any], pr: dict[str, Any]) -> str | None:
    """GraphQL's reviewDecision: null unless the base branch requires reviews."""
    rule = protection(db, repo, pr["base_ref"])
    if not rule or not rule["pull_request_reviews"]:
        return None
    if counted(db, repo, pr, "CHANGES_REQUESTED"):
        return "CHANGES_REQUESTED"
    if len(counted(db, repo, pr, "APPROVED")) >= rule["required_approving_review_count"]:
        return "APPROVED"
    return "REVIEW_REQUIRED"


def protection_blockers(
    db: Database, viewer: Viewer, repo: dict[str, Any], pr: dict[str, Any], method: str | None = None
) -> list[tuple[str, str]]:
    """What the base branch's protection refuses, in GitHub's order, as (kind, message) pairs."""
    rule = protection(db, repo, pr["base_ref"])
    if rule is None:
        return []
    found: list[tuple[str, str]] = []
    if rule["restrict_pushes"] and not _may_push(db, rule, viewer.user_id):
        found.append(("restricted", NOT_AUTHORIZED))
    if method == "merge" and rule["required_linear_history"]:
        found.append(("linear", "This branch must not contain merge commits."))
    if rule["pull_request_reviews"]:
        if counted(db, repo, pr, "CHANGES_REQUESTED"):
            found.append(("reviews", "Changes requested by a reviewer with write access."))
        needed = rule["required_approving_review_count"]
        if len(counted(db, repo, pr, "APPROVED")) < needed:
            plural = "review is" if needed == 1 else "reviews are"
            found.append(("reviews", f"At least {needed} approving {plural} required by reviewers with write access."))
    if rule["status_checks"]:
        ran = checks(db, repo, pr["head_sha"])
        for context in rule["contexts"]:
            state = check_state(ran.get(context))
            if state in ("expected", "pending"):
                found.append(("checks", f'Required status check "{context}" is expected.'))
            elif state == "failure":
                found.append(("checks", f'Required status check "{context}" is failing.'))
        if rule["strict"] and pr["behind_by"] > 0:
            found.append(
                ("behind", "Head branch is out of date with the base branch. Update the branch and try again.")
            )
    return found


def _may_push(db: Database, rule: dict[str, Any], user_id: int) -> bool:
    if user_id in rule["push_user_ids"]:
        return True
    mine = {m["team_id"] for m in db.find(team_members, user_id=user_id)}
    return bool(mine & set(rule["push_team_ids"]))


def bypasses(db: Database, viewer: Viewer, repo: dict[str, Any], pr: dict[str, Any]) -> bool:
    """Admins merge past branch protection unless it is enforced for administrators."""
    rule = protection(db, repo, pr["base_ref"])
    return viewer.role(db, repo) == "admin" and not (rule and rule["enforce_admins"])


def mergeable_state(
    db: Database, viewer: Viewer, repo: dict[str, Any], issue: dict[str, Any], pr: dict[str, Any]
) -> str:
    """clean, unstable (a check that is not required failed), behind, blocked, draft, dirty (conflicts), or
    unknown for closed pull requests."""
    if issue["state"] != "open":
        return "unknown"
    if pr["conflicting_files"]:
        return "dirty"
    if pr["draft"]:
        return "draft"
    blockers = {kind for kind, _ in protection_blockers(db, viewer, repo, pr)}
    if blockers & {"reviews", "checks"}:
        return "blocked"
    if "behind" in blockers:
        return "behind"
    if any(check_state(job) == "failure" for job in checks(db, repo, pr["head_sha"]).values()):
        return "unstable"
    return "clean"


def merge(
    db: Database,
    viewer: Viewer,
    repo: dict[str, Any],
    issue: dict[str, Any],
    pr: dict[str, Any],
    method: str,
    expected_sha: str | None,
) -> str:
    """Merge a pull request after every check GitHub makes; returns the new commit's sha."""
    viewer.require(db, repo, "write", f"Must have write access to {repo['full_name']} to merge pull requests.")
    if pr["merged"]:
        raise Conflict("Pull Request is already merged")
    if issue["state"] != "open":
        raise Conflict(NOT_MERGEABLE)
    if pr["draft"]:
        raise Conflict("Pull Request is still a draft")
    if not repo[METHOD_SETTING[method]]:
        raise InvalidRequest(METHOD_REFUSED[method])
    if expected_sha is not None and expected_sha != pr["head_sha"]:
        raise Conflict("Head branch was modified. Review and try the merge again.")
    if pr["conflicting_files"]:
        raise Conflict(NOT_MERGEABLE)
    if not bypasses(db, viewer, repo, pr):
        blockers = protection_blockers(db, viewer, repo, pr, method)
        if blockers:
            kind, message = blockers[0]
            raise (PermissionDenied if kind == "restricted" else Conflict)(message)
    return _land(db, viewer, repo, issue, pr, method)


def _land(
    db: Database, viewer: Viewer, repo: dict[str, Any], issue: dict[str, Any], pr: dict[str, Any], method: str
) -> str:
    now, me = db.now_iso(), viewer.user_id
    commit = sha(repo["full_name"], issue["number"], method, pr["head_sha"])
    db.update(issues, issue["id"], state="closed", closed_at=now, closed_by_id=me, updated_at=now)
    db.update(
        pull_requests,
        pr["id"],
        merged=True,
        merged_at=now,
        merged_by_id=me,
        merge_method=method,
        merge_commit_sha=commit,
    )
    in_repo = branches.c.repo_id == repo["id"]
    db.conn.execute(branches.update().where(in_repo, branches.c.name == pr["base_ref"]).values(commit_sha=commit))
    landed = pr["commits"] if method == "rebase" else 1
    for other in open_pulls(db, repo):
        if other["base_ref"] == pr["base_ref"]:
            db.update(pull_requests, other["id"], behind_by=other["behind_by"] + landed)
    if pr["base_ref"] == repo["default_branch"]:
        db.conn.execute(
            branches.update()
            .where(in_repo, branches.c.name != pr["base_ref"])
            .values(behind_by=branches.c.behind_by + landed)
        )
        for number in closing_numbers(repo, issue["body"]):
            for row in db.find(issues, repo_id=repo["id"], number=number, is_pull_request=False, state="open"):
                db.update(
                    issues,
                    row["id"],
                    state="closed",
                    state_reason="completed",
                    closed_at=now,
                    closed_by_id=me,
                    updated_at=now,
                )
    if repo["delete_branch_on_merge"] and pr["head_repo_id"] == repo["id"] and _deletable(db, repo, pr):
        db.conn.execute(branches.delete().where(in_repo, branches.c.name == pr["head_ref"]))
    db.update(repositories, repo["id"], pushed_at=now)
    return commit


def _deletable(db: Database, repo: dict[str, Any], pr: dict[str, Any]) -> bool:
    """GitHub keeps a merged head branch that is protected, the default branch, or another open pull request's base."""
    if pr["head_ref"] == repo["default_branch"] or protection(db, repo, pr["head_ref"]):
        return False
    return not any(other["base_ref"] == pr["head_ref"] for other in open_pulls(db, repo))
