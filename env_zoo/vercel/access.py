"""Who is signed in, which team a call acts on (the `team` slug, else the member's default team) and what their
role there allows: VIEWER and BILLING only read; DEVELOPER deploys previews and manages preview and development
variables; MEMBER also ships to production, manages domains and DNS; OWNER also manages the team's members."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import forbidden, missing, not_found
from .schema import sessions, team_members, teams, users

NOT_SIGNED_IN = (
    '403 Forbidden: {"error": {"code": "forbidden", "message": "Not authorized. Ask the user to sign in to Vercel."}}'
)
RANK = {"VIEWER": 0, "BILLING": 0, "DEVELOPER": 1, "MEMBER": 2, "OWNER": 3}


def me(db: Database) -> dict[str, Any]:
    """The member the assistant acts for."""
    return db.get(users, db.current_session(sessions, NOT_SIGNED_IN)["user_id"])


def team_of(db: Database, slug: str | None) -> tuple[dict[str, Any], dict[str, Any], str]:
    """(user, team, role) for the team named by `slug`, or the user's default team; 404 if they are not in it."""
    user = me(db)
    if slug is None:
        team = db.get(teams, user["default_team_id"])
    else:
        team = db.find_one(teams, slug=slug.strip().lower(), not_found=missing("Team", slug.strip()))
    found = db.find(team_members, team_id=team["id"], user_id=user["id"])
    if not found:
        raise not_found("Team", team["slug"])
    return user, team, found[0]["role"]


def require(role: str, needed: str, action: str) -> None:
    """403 unless `role` is at least `needed`."""
    if RANK[role] < RANK[needed]:
        raise forbidden(f"You don't have permission to {action}: your role on this team is {role}.")


def env_writer(role: str, targets: list[str]) -> None:
    """403 unless the role may change variables with these targets (production needs MEMBER)."""
    if "production" in targets:
        require(role, "MEMBER", "change Production environment variables")
    else:
        require(role, "DEVELOPER", "change environment variables")
