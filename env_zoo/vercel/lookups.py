"""Finding a team's projects, deployments, domains and variables by what people call them, and pointing the
hostnames that follow production at a deployment."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .access import require, team_of
from .errors import bad_request, missing, not_found
from .objects import Deployment
from .rules import opaque
from .schema import aliases, deployments, domains, env_vars, project_domains, projects, teams
from .views import deployment_view


def project_of(db: Database, team: dict[str, Any], ref: str) -> dict[str, Any]:
    """A project of the team by id or name (404 otherwise)."""
    ref = ref.strip()
    rows = db.select(projects, "team_id = ? AND (id = ? OR name = ?)", [team["id"], ref, ref.lower()])
    if not rows:
        raise not_found("Project", ref)
    return rows[0]


def production_hosts(db: Database, project: dict[str, Any]) -> list[str]:
    """The hostnames that follow a project's production deployment."""
    team = db.get(teams, project["team_id"])
    own = [f"{project['name']}-{team['slug']}.vercel.app"]
    rows = db.select(project_domains, "project_id = ? AND verified = 1", [project["id"]], order_by="name")
    return own + [r["name"] for r in rows if r["redirect"] is None and r["git_branch"] is None]


def point_alias(db: Database, project: dict[str, Any], host: str, deployment_id: str) -> None:
    """Point `host` at a deployment, creating the alias if needed."""
    found = db.find(aliases, alias=host)
    if found:
        db.update(aliases, host, deployment_id=deployment_id, project_id=project["id"], created_at=db.now_iso())
    else:
        uid = opaque(f"alias:{host}:{deployment_id}", 24)
        db.insert(
            aliases, alias=host, uid=uid, deployment_id=deployment_id, project_id=project["id"], created_at=db.now_iso()
        )


def deployment_of(db: Database, ref: str, team: str | None) -> tuple[dict[str, Any], dict[str, Any], str]:
    """(deployment, project, role) for a deployment of the team, by id or url."""
    _, found_team, role = team_of(db, team)
    ref = ref.strip().removeprefix("https://").rstrip("/")
    rows = db.select(deployments, "id = ? OR url = ?", [ref, ref])
    if not rows:
        raise not_found("Deployment", ref)
    project = db.get(projects, rows[0]["project_id"])
    if project["team_id"] != found_team["id"]:
        raise not_found("Deployment", ref)
    return rows[0], project, role


def team_domain(db: Database, found: dict[str, Any], domain: str) -> dict[str, Any]:
    """An apex domain the team owns (404 for one it does not)."""
    row = db.find_one(domains, name=domain.strip().lower(), not_found=missing("Domain", domain.strip()))
    if row["team_id"] != found["id"]:
        raise not_found("Domain", domain.strip())
    return row


def env_of(db: Database, prj: dict[str, Any], env_id: str) -> dict[str, Any]:
    """A variable of the project by id (404 otherwise)."""
    rows = db.select(env_vars, "id = ? AND project_id = ?", [env_id.strip(), prj["id"]])
    if not rows:
        raise not_found("Environment variable", env_id.strip())
    return rows[0]


def production_candidate(
    db: Database, deployment: str, project: str, team: str | None, action: str
) -> tuple[dict, dict, str]:
    """(deployment, project, plan) once the caller may change production and the deployment is a READY
    production build of the project that is not serving already."""
    _, found, role = team_of(db, team)
    require(role, "MEMBER", action)
    prj = project_of(db, found, project)
    row, _, _ = deployment_of(db, deployment, team)
    if row["project_id"] != prj["id"]:
        raise not_found("Deployment", deployment.strip())
    if row["ready_state"] != "READY":
        raise bad_request("deployment_not_ready", f"Deployment {row['id']} is {row['ready_state']}, not READY.")
    if row["target"] != "production":
        raise bad_request(
            "not_production_deployment",
            f"Deployment {row['id']} is a preview deployment; create a production deployment of its branch instead.",
        )
    if prj["production_deployment_id"] == row["id"]:
        raise bad_request("deployment_already_current", f"Deployment {row['id']} is already serving production.")
    return row, prj, found["plan"]


def switch_production(db: Database, prj: dict[str, Any], dpl: dict[str, Any], rolled_back: bool) -> Deployment:
    """Point every production hostname at `dpl` and record it as the project's production deployment."""
    for host in production_hosts(db, prj):
        point_alias(db, prj, host, dpl["id"])
    prj = db.update(projects, prj["id"], production_deployment_id=dpl["id"], rolled_back=rolled_back)
    return deployment_view(db, dpl, prj)
