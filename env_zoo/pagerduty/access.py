"""Who acts: the user the "From" header names, the base roles that may act on incidents or go on call, Restricted
Access users limited to their teams' services, and who may schedule maintenance."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, InvalidRequest, PermissionDenied

from .objects import user_teams
from .schema import services, team_members, users

ROLE_LABELS = {
    "owner": "Account Owner",
    "admin": "Admin",
    "user": "Manager",
    "limited_user": "Responder",
    "restricted_access": "Restricted Access",
    "observer": "Observer",
    "read_only_user": "Stakeholder",
}
RESPONDER_ROLES = {"owner", "admin", "user", "limited_user", "restricted_access"}
MANAGER_ROLES = {"owner", "admin", "user"}


def requester(db: Database, from_email: str) -> dict[str, Any]:
    """The user named by the "From" header."""
    found = db.find(users, email=from_email.strip().lower())
    if not found:
        raise InvalidRequest(
            f'The "From" header must be the email address of a user on this account; no user has the email {from_email}'
        )
    return found[0]


def check_responder(db: Database, user: dict[str, Any], service: dict[str, Any]) -> None:
    """Observers and Stakeholders can't act on incidents; Restricted Access users only on their teams' services."""
    if user["role"] not in RESPONDER_ROLES:
        raise PermissionDenied(
            f"Access Denied: {user['name']} has the {ROLE_LABELS[user['role']]} role and can't take action on incidents"
        )
    if user["role"] == "restricted_access" and not set(service["teams"]) & set(user_teams(db, user["id"])):
        raise PermissionDenied(
            f"Access Denied: {user['name']} has restricted access and is not on a team of the service {service['name']}"
        )


def acting_responder(db: Database, from_email: str, incident: dict[str, Any]) -> dict[str, Any]:
    """The "From" user, allowed to act on the incident's service."""
    user = requester(db, from_email)
    check_responder(db, user, db.get(services, incident["service_id"], "Service"))
    return user


def responders(db: Database, user_ids: list[str]) -> list[str]:
    """Users who may be assigned incidents or put on call (not Observers or Stakeholders), sorted and unique."""
    for user_id in user_ids:
        user = db.get(users, user_id, "User")
        if user["role"] not in RESPONDER_ROLES:
            raise InvalidRequest(
                f"{user['name']} is a read-only {ROLE_LABELS[user['role']]} and can't be assigned "
                "incidents or go on call"
            )
    return sorted(set(user_ids))


def check_maintainer(db: Database, user: dict[str, Any], covered: list[dict[str, Any]]) -> None:
    """Managers, Admins, the Account Owner and managers of every affected service's team schedule maintenance."""
    if user["role"] in MANAGER_ROLES:
        return
    team_ids = {t for s in covered for t in s["teams"]}
    managed = {m["team_id"] for m in db.find(team_members, user_id=user["id"], role="manager")}
    if not team_ids or not team_ids <= managed:
        raise PermissionDenied(
            f"Access Denied: {user['name']} can't create maintenance windows on these services "
            "(Managers, Admins and the services' team managers can)"
        )


def as_agent(row: dict[str, Any], kind: str = "user_reference") -> dict[str, str]:
    """A log-entry agent: the user (or the service) that did something."""
    return {"id": row["id"], "type": kind}
