"""Who is signed in (the personal access token the user gave the assistant) and what GitHub lets them see and do in
a repository: the highest role among owning it, owning its organization, the organization's base permission,
direct collaboration and team access. A repository they cannot see does not exist for them ("Not Found")."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import accounts, collaborators, org_members, repositories, sessions, team_members, team_repos, tokens

ROLES = ("read", "triage", "write", "maintain", "admin")
RANK = {name: rank for rank, name in enumerate(ROLES, start=1)}
NOT_SIGNED_IN = "Requires authentication. Ask the user to sign in with a personal access token."
NOT_FOUND = "Not Found"
ARCHIVED = "Repository was archived so is read-only."


def current(db: Database) -> dict[str, Any]:
    """The session the user's sign-in started."""
    return db.current_session(sessions, NOT_SIGNED_IN)


def viewer(db: Database) -> dict[str, Any]:
    """The signed-in account."""
    return db.get(accounts, current(db)["user_id"], "User")


def scopes(db: Database) -> list[str]:
    """The OAuth scopes of the token the assistant holds."""
    return db.get(tokens, current(db)["token"])["scopes"]


def account(db: Database, login: str) -> dict[str, Any]:
    """A user or organization by login (GitHub logins are case-insensitive)."""
    found = db.find(accounts, func.lower(accounts.c.login) == login.strip().lstrip("@").lower())
    if not found:
        raise NotFound(NOT_FOUND)
    return found[0]


def explicit_role(db: Database, repo: dict[str, Any], user_id: int) -> str | None:
    """The role a user holds on a repository through ownership, the organization or a grant (public access aside)."""
    if repo["owner_id"] == user_id:
        return "admin"
    owner = db.get(accounts, repo["owner_id"])
    best = 0
    if owner["type"] == "Organization":
        member = db.find(org_members, org_id=owner["id"], user_id=user_id)
        if member and member[0]["role"] == "admin":
            return "admin"
        if member:
            best = RANK.get(owner["default_repository_permission"] or "none", 0)
    for grant in db.find(collaborators, repo_id=repo["id"], user_id=user_id):
        best = max(best, RANK[grant["role"]])
    via_teams = select(team_repos.c.role).join(team_members, team_members.c.team_id == team_repos.c.team_id).where(
        team_repos.c.repo_id == repo["id"], team_members.c.user_id == user_id)
    for (team_role,) in db.conn.execute(via_teams):
        best = max(best, RANK[team_role])
    return ROLES[best - 1] if best else None


def role(db: Database, repo: dict[str, Any], user_id: int) -> str | None:
    """A user's role on a repository: everyone reads a public one."""
    found = explicit_role(db, repo, user_id)
    return found or ("read" if not repo["private"] else None)


def visible(db: Database, repo: dict[str, Any]) -> bool:
    """Whether the signed-in user can see a repository with the token they gave (private ones need `repo`)."""
    if repo["private"] and "repo" not in scopes(db):
        return False
    return role(db, repo, current(db)["user_id"]) is not None


def repo_named(db: Database, full_name: str) -> dict[str, Any]:
    """A repository the signed-in user can see, by `owner/name` (any case)."""
    wanted = full_name.strip().strip("/")
    found = db.find(repositories, func.lower(repositories.c.full_name) == wanted.lower())
    if not found or not visible(db, found[0]):
        raise NotFound(NOT_FOUND)
    return found[0]


def my_role(db: Database, repo: dict[str, Any]) -> str:
    """The signed-in user's role on a repository they can see."""
    return role(db, repo, current(db)["user_id"]) or "read"


def at_least(db: Database, repo: dict[str, Any], minimum: str) -> bool:
    """Whether the signed-in user's role on a repository is `minimum` or higher."""
    return RANK[my_role(db, repo)] >= RANK[minimum]


def require(db: Database, repo: dict[str, Any], minimum: str, message: str) -> None:
    """PermissionDenied(message) unless the signed-in user's role is `minimum` or higher."""
    if not at_least(db, repo, minimum):
        raise PermissionDenied(message)


def writable(repo: dict[str, Any]) -> None:
    """Archived repositories are read-only for everyone."""
    if repo["archived"]:
        raise PermissionDenied(ARCHIVED)


def permissions(role_name: str | None) -> dict[str, bool]:
    """GitHub's `permissions` object for a role."""
    rank = RANK.get(role_name or "", 0)
    return {"admin": rank >= 5, "maintain": rank >= 4, "push": rank >= 3, "triage": rank >= 2, "pull": rank >= 1}
