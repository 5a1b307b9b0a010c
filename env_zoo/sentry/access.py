"""Who is signed in to Sentry and what their organization role lets them do. Members read everything in their
organizations and triage issues; the billing role only reads; alert rules are written by owners, managers and admins,
and by members only where the organization lets members create and edit alerts."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import forbidden, not_found
from .schema import members, organizations, projects, sessions, team_members, users

NOT_SIGNED_IN = '401 Unauthorized: {"detail": "Authentication credentials were not provided."} Ask the user to sign in.'
ALERT_ADMINS = ("owner", "manager", "admin")


def signed_in(db: Database) -> dict[str, Any]:
    """The user the assistant acts for."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return db.get(users, session["user_id"])


def membership(db: Database, organization_slug: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """(organization, member row, user) for the signed-in user in the organization with this slug: 404 for an unknown
    slug, 403 for an organization they do not belong to."""
    user = signed_in(db)
    org = db.find_one(organizations, slug=organization_slug.strip(), not_found=not_found().args[0])
    found = db.find(members, organization_id=org["id"], user_id=user["id"])
    if not found:
        raise forbidden(f"not a member of {org['slug']}")
    return org, found[0], user


def issue_writer(db: Database, organization_slug: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """As `membership`, for changing issues and releases: the billing role gets 403."""
    org, member, user = membership(db, organization_slug)
    if member["role"] == "billing":
        raise forbidden("the billing role cannot change issues or releases")
    return org, member, user


def alert_writer(db: Database, organization_slug: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """As `membership`, for creating and editing alert rules."""
    org, member, user = membership(db, organization_slug)
    if member["role"] in ALERT_ADMINS:
        return org, member, user
    if member["role"] == "member" and org["alerts_member_write"]:
        return org, member, user
    raise forbidden(f"members of {org['slug']} may not create or edit alerts")


def project_by_slug(db: Database, org: dict[str, Any], project_slug: str) -> dict[str, Any]:
    """One of the organization's projects (404 otherwise)."""
    return db.find_one(
        projects,
        organization_id=org["id"],
        slug=project_slug.strip(),
        not_found=not_found(f"project {project_slug}").args[0],
    )


def team_ids_of(db: Database, user_id: str) -> set[str]:
    """The ids of the teams the user belongs to."""
    return {row["team_id"] for row in db.find(team_members, user_id=user_id)}
