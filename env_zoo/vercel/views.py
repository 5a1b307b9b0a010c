"""How stored Vercel rows become the API's output objects (projects with their domains, deployments with their
aliases, project domains with their verification challenge, DNS records, a user's team memberships)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .objects import Deployment, DnsRecord, Membership, Project, ProjectDomain, Verification
from .schema import aliases, project_domains, projects, team_members, teams, users


def memberships(db: Database, user: dict[str, Any]) -> list[Membership]:
    """The user's teams with their role on each."""
    out = []
    for m in db.select(team_members, "user_id = ?", [user["id"]], order_by="team_id"):
        team = db.get(teams, m["team_id"])
        out.append(
            Membership(
                id=team["id"],
                slug=team["slug"],
                name=team["name"],
                plan=team["plan"],
                role=m["role"],
                default=team["id"] == user["default_team_id"],
            )
        )
    return out


def project_view(db: Database, row: dict[str, Any]) -> Project:
    """A project as the API shows it."""
    team = db.get(teams, row["team_id"])
    names = [d["name"] for d in db.select(project_domains, "project_id = ?", [row["id"]], order_by="name")]
    return Project(
        id=row["id"],
        name=row["name"],
        team=team["slug"],
        framework=row["framework"],
        production_branch=row["production_branch"],
        production_deployment=row["production_deployment_id"],
        rolled_back=row["rolled_back"],
        domains=names,
        created_at=row["created_at"],
    )


def deployment_view(db: Database, row: dict[str, Any], project: dict[str, Any] | None = None) -> Deployment:
    """A deployment with its aliases."""
    return deployment_views(db, [row], project or db.get(projects, row["project_id"]))[0]


def deployment_views(db: Database, rows: list[dict[str, Any]], project: dict[str, Any]) -> list[Deployment]:
    """Deployments of one project with their aliases, looked up in one query per table."""
    if not rows:
        return []
    marks = ", ".join("?" * len(rows))
    hosts: dict[str, list[str]] = {}
    for a in db.select(aliases, f"deployment_id IN ({marks})", [r["id"] for r in rows], order_by="alias"):
        hosts.setdefault(a["deployment_id"], []).append(a["alias"])
    creators = sorted({r["creator_id"] for r in rows})
    names = {u["id"]: u["username"] for u in db.select(users, f"id IN ({', '.join('?' * len(creators))})", creators)}
    return [
        Deployment(
            id=row["id"],
            url=row["url"],
            project=project["name"],
            target=row["target"],
            ready_state=row["ready_state"],
            git_branch=row["git_branch"],
            commit_sha=row["commit_sha"],
            commit_message=row["commit_message"],
            creator=names[row["creator_id"]],
            error_message=row["error_message"],
            is_current_production=project["production_deployment_id"] == row["id"],
            aliases=hosts.get(row["id"], []),
            created_at=row["created_at"],
        )
        for row in rows
    ]


def domain_view(row: dict[str, Any]) -> ProjectDomain:
    """A project domain with its pending TXT challenge."""
    challenge = []
    if not row["verified"]:
        challenge = [
            Verification(
                type="TXT",
                domain=f"_vercel.{row['apex_name']}",
                value=row["verification_value"],
                reason="pending_domain_verification",
            )
        ]
    return ProjectDomain(
        name=row["name"],
        apex_name=row["apex_name"],
        project_id=row["project_id"],
        redirect=row["redirect"],
        git_branch=row["git_branch"],
        verified=row["verified"],
        verification=challenge,
    )


def record_view(db: Database, row: dict[str, Any]) -> DnsRecord:
    """A DNS record as the API shows it."""
    return DnsRecord(
        id=row["id"],
        domain=row["domain"],
        name=row["name"],
        type=row["type"],
        value=row["value"],
        mx_priority=row["mx_priority"],
        ttl=row["ttl"],
        creator=db.get(users, row["creator_id"])["username"],
        created_at=row["created_at"],
    )
