"""How stored rows become Sentry's output models: organizations, issues with their assignee and activity, events,
releases with their deploys, and alert rules."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .objects import (
    Activity,
    Actor,
    AlertAction,
    AlertRule,
    Deploy,
    Event,
    IssueDetail,
    Organization,
    ReleaseDetail,
    StatusDetails,
)
from .rules import ignore_until
from .schema import activities, deploys, issues, members, organizations, projects, teams, users


def org_out(db: Database, org: dict[str, Any], role: str) -> Organization:
    return Organization(
        id=org["id"], slug=org["slug"], name=org["name"], role=role, members_can_write_alerts=org["alerts_member_write"]
    )


def project_slugs(db: Database, org_id: str) -> dict[str, str]:
    return {p["id"]: p["slug"] for p in db.find(projects, organization_id=org_id)}


def actor(db: Database, ref: str | None) -> Actor | None:
    if not ref:
        return None
    kind, key = ref.split(":", 1)
    if kind == "team":
        team = db.get(teams, key)
        return Actor(type="team", id=team["id"], name=team["name"], slug=team["slug"])
    user = db.get(users, key)
    return Actor(type="user", id=user["id"], name=user["name"], email=user["email"])


def issue_fields(db: Database, org: dict[str, Any], row: dict[str, Any], slug: str) -> dict[str, Any]:
    return dict(
        id=row["id"],
        short_id=row["short_id"],
        title=row["title"],
        culprit=row["culprit"],
        level=row["level"],
        status=row["status"],
        substatus=row["substatus"],
        status_details=StatusDetails(**row["status_details"], ignore_until=ignore_until(row)),
        priority=row["priority"],
        assigned_to=actor(db, row["assigned_to"]),
        project=slug,
        first_seen=row["first_seen"],
        last_seen=row["last_seen"],
        count=row["count"],
        user_count=row["user_count"],
        first_release=row["first_release"],
        last_release=row["last_release"],
        permalink=f"https://{org['slug']}.sentry.io/issues/{row['id']}/",
    )


def issue_detail(db: Database, org: dict[str, Any], row: dict[str, Any]) -> IssueDetail:
    slug = db.get(projects, row["project_id"])["slug"]
    feed = db.select(activities, "issue_id = ?", [row["id"]], order_by="date_created DESC, rowid DESC")
    ids = sorted({a["user_id"] for a in feed if a["user_id"]})
    people = db.select(users, f"id IN ({', '.join('?' * len(ids))})", ids) if ids else []
    emails = {u["id"]: u["email"] for u in people}
    return IssueDetail(
        **issue_fields(db, org, row, slug),
        environments=row["environments"],
        activity=[
            Activity(
                id=a["id"],
                type=a["type"],
                user=emails.get(a["user_id"]) if a["user_id"] else None,
                data=a["data"],
                date_created=a["date_created"],
            )
            for a in feed
        ],
    )


def my_orgs(db: Database, user_id: str) -> list[Organization]:
    out = [(db.get(organizations, m["organization_id"]), m["role"]) for m in db.find(members, user_id=user_id)]
    return [org_out(db, org, role) for org, role in sorted(out, key=lambda p: p[0]["slug"])]


def event_out(row: dict[str, Any], issue: dict[str, Any], slug: str) -> Event:
    return Event(
        event_id=row["id"],
        issue_id=issue["id"],
        issue_short_id=issue["short_id"],
        project=slug,
        date_created=row["date_created"],
        environment=row["environment"],
        release=row["release"],
        message=row["message"],
        user_email=row["user_email"],
        tags=row["tags"],
    )


def deploy_out(row: dict[str, Any]) -> Deploy:
    return Deploy(
        id=row["id"],
        environment=row["environment"],
        name=row["name"],
        url=row["url"],
        date_started=row["date_started"],
        date_finished=row["date_finished"],
    )


def release_fields(db: Database, row: dict[str, Any], slugs: dict[str, str]) -> dict[str, Any]:
    done = db.select(deploys, "release_id = ?", [row["id"]], order_by="date_finished DESC")
    new_groups = len(db.select(issues, "first_release = ?", [row["version"]]))
    return dict(
        version=row["version"],
        ref=row["ref"],
        projects=sorted(slugs[p] for p in row["projects"]),
        date_created=row["date_created"],
        date_released=row["date_released"],
        new_groups=new_groups,
        last_deploy=deploy_out(done[0]) if done else None,
    )


def release_detail(db: Database, org: dict[str, Any], row: dict[str, Any], created: bool) -> ReleaseDetail:
    done = db.select(deploys, "release_id = ?", [row["id"]], order_by="date_finished DESC")
    return ReleaseDetail(
        **release_fields(db, row, project_slugs(db, org["id"])),
        deploys=[deploy_out(d) for d in done],
        created=created,
    )


def rule_out(db: Database, row: dict[str, Any], slug: str) -> AlertRule:
    owner = db.get(teams, row["owner"].split(":", 1)[1])["slug"] if row["owner"] else None
    creator = db.get(users, row["created_by"])["email"] if row["created_by"] else None
    return AlertRule(
        id=row["id"],
        project=slug,
        name=row["name"],
        conditions=row["conditions"],
        action_match=row["action_match"],
        filter_match=row["filter_match"],
        min_level=row["filters"][0]["level"] if row["filters"] else None,
        actions=[AlertAction(**a) for a in row["actions"]],
        frequency=row["frequency"],
        environment=row["environment"],
        owner=owner,
        status=row["status"],
        created_by=creator,
        date_created=row["date_created"],
    )
