"""Branch protection changes: a rule starts with nothing enabled, each given setting changes one part of it, and the
parts that name people or teams are checked against the repository (push restrictions: organization repositories
only, for people and teams with write access)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, InvalidRequest

from .access import RANK, account, explicit_role
from .rules import validation_failed
from .schema import accounts, branch_protections, team_repos, teams

EMPTY = dict(
    status_checks=False,
    strict=False,
    contexts=[],
    pull_request_reviews=False,
    required_approving_review_count=1,
    dismiss_stale_reviews=False,
    enforce_admins=False,
    restrict_pushes=False,
    push_user_ids=[],
    push_team_ids=[],
    required_linear_history=False,
    allow_force_pushes=False,
    allow_deletions=False,
)
FLAGS = (
    "dismiss_stale_reviews",
    "strict",
    "enforce_admins",
    "required_linear_history",
    "allow_force_pushes",
    "allow_deletions",
)


def rule_of(db: Database, repo: dict[str, Any], branch: str) -> dict[str, Any] | None:
    """The stored rule of a branch, if any."""
    found = db.find(branch_protections, repo_id=repo["id"], branch=branch)
    return found[0] if found else None


def apply(db: Database, repo: dict[str, Any], branch: str, given: dict[str, Any]) -> dict[str, Any]:
    """Change (or create) a branch's protection with the settings that were given; returns the stored rule."""
    old = rule_of(db, repo, branch)
    rule = {**EMPTY, **({k: v for k, v in old.items() if k not in ("repo_id", "branch")} if old else {})}
    _reviews(rule, given)
    _checks(rule, given)
    _restrictions(db, repo, rule, given)
    for flag in FLAGS:
        if given[flag] is not None:
            rule[flag] = given[flag]
    if old:
        db.conn.execute(
            branch_protections.update()
            .where(branch_protections.c.repo_id == repo["id"], branch_protections.c.branch == branch)
            .values(**rule)
        )
    else:
        db.conn.execute(branch_protections.insert().values(repo_id=repo["id"], branch=branch, **rule))
    return rule_of(db, repo, branch) or {}


def _reviews(rule: dict[str, Any], given: dict[str, Any]) -> None:
    count, wanted = given["required_approving_review_count"], given["require_pull_request_reviews"]
    if wanted is False and count is not None:
        raise InvalidRequest(
            "Validation Failed: required_approving_review_count needs required pull request "
            "reviews; don't turn them off in the same change."
        )
    if wanted is not None:
        rule["pull_request_reviews"] = wanted
    if count is not None:
        rule["pull_request_reviews"] = True
        rule["required_approving_review_count"] = count


def _checks(rule: dict[str, Any], given: dict[str, Any]) -> None:
    if given["require_status_checks"] is not None:
        rule["status_checks"] = given["require_status_checks"]
    contexts = list(rule["contexts"])
    for name in given["remove_status_checks"] or []:
        if name.strip() not in contexts:
            raise validation_failed("StatusCheck", "contexts", "invalid", name)
        contexts.remove(name.strip())
    for name in given["add_status_checks"] or []:
        if name.strip() and name.strip() not in contexts:
            contexts.append(name.strip())
    if given["add_status_checks"]:
        rule["status_checks"] = True
    rule["contexts"] = contexts


def _restrictions(db: Database, repo: dict[str, Any], rule: dict[str, Any], given: dict[str, Any]) -> None:
    names = ("restrict_pushes", "add_push_users", "remove_push_users", "add_push_teams", "remove_push_teams")
    if all(given[n] is None for n in names):
        return
    if db.get(accounts, repo["owner_id"])["type"] != "Organization" and given["restrict_pushes"] is not False:
        raise InvalidRequest("Validation Failed: Only organization repositories can have users and team restrictions")
    users, squads = list(rule["push_user_ids"]), list(rule["push_team_ids"])
    for login in given["remove_push_users"] or []:
        person = account(db, login)["id"]
        if person not in users:
            raise validation_failed("Restrictions", "users", "invalid", login)
        users.remove(person)
    for login in given["add_push_users"] or []:
        person = account(db, login)
        if RANK.get(explicit_role(db, repo, person["id"]) or "", 0) < RANK["write"]:
            raise validation_failed("Restrictions", "users", "invalid", login)
        users.append(person["id"])
    for slug in given["remove_push_teams"] or []:
        team = _team(db, repo, slug)
        if team["id"] not in squads:
            raise validation_failed("Restrictions", "teams", "invalid", slug)
        squads.remove(team["id"])
    for slug in given["add_push_teams"] or []:
        team = _team(db, repo, slug)
        grant = db.find(team_repos, team_id=team["id"], repo_id=repo["id"])
        if not grant or RANK[grant[0]["role"]] < RANK["write"]:
            raise validation_failed("Restrictions", "teams", "invalid", slug)
        squads.append(team["id"])
    if given["restrict_pushes"] is not None:
        rule["restrict_pushes"] = given["restrict_pushes"]
    if given["add_push_users"] or given["add_push_teams"]:
        rule["restrict_pushes"] = True
    rule["push_user_ids"], rule["push_team_ids"] = sorted(set(users)), sorted(set(squads))


def _team(db: Database, repo: dict[str, Any], slug: str) -> dict[str, Any]:
    return db.find_one(
        teams,
        org_id=repo["owner_id"],
        slug=slug.strip().lower(),
        not_found=f"Team '{slug}' not found in this organization",
    )
