"""Lookups and checks the tools share: an issue by short id inside an organization, members by email, releases and
alert rules, the activity log, alert targets and Sentry's refusal of duplicate alert rules."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, InvalidRequest

from .errors import field_error, not_found
from .rules import same_rule
from .schema import activities, alert_rules, issues, members, projects, releases, teams, users


class AlertTarget(BaseModel):
    """Who an alert notifies: the issue's owners, a team (slug), a member (email) or a Slack channel (#name)."""

    target_type: Literal["IssueOwners", "Team", "Member", "Slack"]
    target: str | None = Field(default=None, max_length=100, description="team slug, member email or #channel")


def find_issue(db: Database, org: dict[str, Any], ref: str) -> dict[str, Any]:
    found = db.find(issues, short_id=ref)
    if not found or db.get(projects, found[0]["project_id"])["organization_id"] != org["id"]:
        raise not_found(f"issue {ref}")
    return found[0]


def log_activity(db: Database, issue_id: str, user_id: str | None, kind: str, data: dict[str, Any]) -> None:
    db.insert(
        activities,
        id=str(db.next_number("activity", None) + 7_000_000),
        issue_id=issue_id,
        type=kind,
        user_id=user_id,
        data=data,
        date_created=db.now_iso(),
    )


def assigned_clause(db: Database, org: dict[str, Any], me: dict[str, Any], who: str, params: list[Any]) -> list[str]:
    if who == "none":
        return ["assigned_to IS NULL"]
    if who == "me":
        params.append(f"user:{me['id']}")
        return ["assigned_to = ?"]
    if who.startswith("#"):
        team = db.find(teams, organization_id=org["id"], slug=who[1:])
        if not team:
            raise field_error("assigned", f"Unknown team {who}")
        params.append(f"team:{team[0]['id']}")
        return ["assigned_to = ?"]
    person = member_by_email(db, org, who, "assigned")
    params.append(f"user:{person['id']}")
    return ["assigned_to = ?"]


def member_by_email(db: Database, org: dict[str, Any], email: str, field: str) -> dict[str, Any]:
    found = db.select(users, "lower(email) = ?", [email.strip().lower()])
    if not found or not db.find(members, organization_id=org["id"], user_id=found[0]["id"]):
        raise field_error(field, f"{email.strip()} is not a member of {org['slug']}")
    return found[0]


def find_release(db: Database, org: dict[str, Any], version: str) -> dict[str, Any]:
    return db.find_one(
        releases, organization_id=org["id"], version=version, not_found=not_found(f"release {version}").args[0]
    )


def find_rule(db: Database, project: dict[str, Any], rule_id: int) -> dict[str, Any]:
    return db.find_one(
        alert_rules, id=rule_id, project_id=project["id"], not_found=not_found(f"alert rule {rule_id}").args[0]
    )


def check_actions(db: Database, org: dict[str, Any], targets: list[AlertTarget]) -> list[dict[str, Any]]:
    if not targets:
        raise field_error("actions", "You must add an action for this alert to fire.")
    out = []
    for a in targets:
        target = a.target.strip() if a.target else None
        if a.target_type == "IssueOwners":
            if target:
                raise field_error("actions", "IssueOwners takes no target")
        elif target is None:
            raise field_error("actions", f"{a.target_type} needs a target")
        elif a.target_type == "Team":
            if not db.find(teams, organization_id=org["id"], slug=target.lstrip("#")):
                raise field_error("actions", f"Unknown team: {target}")
            target = target.lstrip("#")
        elif a.target_type == "Member":
            target = member_by_email(db, org, target, "actions")["email"]
        elif not target.startswith("#"):
            target = "#" + target
        entry = {"target_type": a.target_type, "target": target}
        if entry not in out:
            out.append(entry)
    return sorted(out, key=lambda a: (a["target_type"], a["target"] or ""))


def owner_ref(db: Database, org: dict[str, Any], slug: str) -> str:
    team = db.find(teams, organization_id=org["id"], slug=slug)
    if not team:
        raise InvalidRequest(f'400 Bad Request: "Could not resolve owner" (no team {slug})')
    return f"team:{team[0]['id']}"


def refuse_duplicate(db: Database, candidate: dict[str, Any]) -> None:
    """400 naming the project's rule that `candidate` would exactly repeat, if any."""
    for other in db.find(alert_rules, project_id=candidate["project_id"]):
        if other["id"] != candidate.get("id") and same_rule(other, candidate):
            message = f"This rule is an exact duplicate of '{other['name']}' in this project and may not be created."
            raise InvalidRequest("400 Bad Request: " + json.dumps({"name": [message], "ruleId": [other["id"]]}))
