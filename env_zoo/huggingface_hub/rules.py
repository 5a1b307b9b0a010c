"""The Hub's rules for gated access, settings and organization roles: who may review access requests, which
transitions a request may take, which kinds can be gated, and how organization roles change."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied

from .access import org_role
from .schema import accounts, org_members

ROLE_PLANS = ("team", "enterprise")


def require_gated(repo: dict[str, Any]) -> None:
    """Access requests exist only on gated repositories."""
    if repo["gated"] == "false":
        raise InvalidRequest(f"400 Bad Request: {repo['repo_type']} '{repo['repo_id']}' is not gated.")


def require_gateable(repo: dict[str, Any]) -> None:
    """Only models and datasets can be gated."""
    if repo["repo_type"] == "space":
        raise InvalidRequest("400 Bad Request: access requests can be enabled on models and datasets only.")


def check_transition(request: dict[str, Any], status: str, rejection_reason: str | None) -> None:
    """A request moves between pending, accepted and rejected; a reason goes with a rejection only."""
    if rejection_reason is not None and status != "rejected":
        raise InvalidRequest("400 Bad Request: rejection_reason can only be given when rejecting a request.")
    if request["status"] == status:
        raise Conflict(f"409 Conflict: the access request of '{request['user']}' is already {status}.")


def change_role(db: Database, org: dict[str, Any], caller: str, member: dict[str, Any], role: str) -> dict[str, Any]:
    """Set a member's role: Team or Enterprise plans only, by write or admin members; only admins grant or take
    away admin, and the last admin keeps it."""
    if org["plan"] not in ROLE_PLANS:
        raise InvalidRequest(
            "402 Payment Required: changing member roles through the API needs a Team or Enterprise subscription."
        )
    mine = org_role(db, org["name"], caller)
    if mine not in ("write", "admin"):
        raise PermissionDenied(f"403 Forbidden: you need the write or admin role in {org['name']} to change roles.")
    if "admin" in (role, member["role"]) and mine != "admin":
        raise PermissionDenied("403 Forbidden: only admins can grant or remove the admin role.")
    admins = db.find(org_members, org=org["name"], role="admin")
    if member["role"] == "admin" and role != "admin" and len(admins) == 1:
        raise Conflict(f"409 Conflict: {org['name']} must keep at least one admin.")
    return db.update(org_members, member["id"], role=role)


def is_org(db: Database, name: str) -> bool:
    """Whether a namespace is an organization."""
    found = db.find(accounts, name=name)
    return bool(found) and found[0]["type"] == "org"
