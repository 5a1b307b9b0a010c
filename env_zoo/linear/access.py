"""Who is signed in to the Linear workspace (the viewer) and which teams they may see: every public team, and the
private teams they are a member of. A private team's issues are invisible (not found) to everyone else."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import not_found
from .schema import sessions, team_members, teams, users

NOT_SIGNED_IN = (
    '{"message": "Authentication required, not authenticated", "extensions": {"type": "authentication_error", '
    '"userPresentableMessage": "You need to sign in to Linear first."}}'
)


def viewer(db: Database) -> dict[str, Any]:
    """The signed-in user."""
    return db.get(users, db.current_session(sessions, NOT_SIGNED_IN)["user_id"])


def member_team_ids(db: Database, user_id: str) -> set[str]:
    return {m["team_id"] for m in db.find(team_members, user_id=user_id)}


def visible_team_ids(db: Database) -> set[str]:
    """Teams the viewer sees: public ones and private ones they belong to."""
    mine = member_team_ids(db, viewer(db)["id"])
    return {t["id"] for t in db.find(teams) if not t["private"] or t["id"] in mine}


def team(db: Database, team_id: str) -> dict[str, Any]:
    """A team the viewer can see (a private team they are not in is not found)."""
    found = db.find(teams, id=team_id)
    if not found or found[0]["id"] not in visible_team_ids(db):
        raise not_found("Team")
    return found[0]
