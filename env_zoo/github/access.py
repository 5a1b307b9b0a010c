"""Who is signed in (the personal access token the user gave the assistant) and what GitHub lets them see and do in
a repository: the highest role among owning it, owning its organization, the organization's base permission,
direct collaboration and team access. A repository they cannot see does not exist for them ("Not Found")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import accounts, collaborators, org_members, repositories, sessions, team_members, team_repos, tokens

ROLES = ("read", "triage", "write", "maintain", "admin")
RANK = {name: rank for rank, name in enumerate(ROLES, start=1)}
NOT_SIGNED_IN = "Requires authentication. Ask the user to sign in with a personal access token."
NOT_FOUND = "Not Found"
ARCHIVED = "Repository was archived so is read-only."


@dataclass
class Viewer:
    """The signed-in user for one tool call, with the scopes of their token; remembers the roles it looked up."""

    user_id: int
    scopes: tuple[str, ...]
    roles: dict[int, str | None] = field(default_factory=dict)

    def role(self, db: Database, repo: dict[str, Any]) -> str | None:
        """Their role on a repository (everyone reads a public one)."""
        if repo["id"] not in self.roles:
            self.roles[repo["id"]] = role(db, repo, self.user_id)
        return self.roles[repo["id"]]

    def sees(self, db: Database, repo: dict[str, Any]) -> bool:
        """Whether they can see a repository with this token (private ones need the `repo` scope)."""
        if repo["private"] and "repo" not in self.scopes:
            return False
        return self.role(db, repo) is not None

    def at_least(self, db: Database, repo: dict[str, Any], minimum: str) -> bool:
        """Whether their role on a repository is `minimum` or higher."""
        return RANK.get(self.role(db, repo) or "", 0) >= RANK[minimum]

    def require(self, db: Database, repo: dict[str, Any], minimum: str, message: str) -> None:
        """PermissionDenied(message) unless their role is `minimum` or higher."""
        if not self.at_least(db, repo, minimum):
            raise PermissionDenied(message)


def signed_in(db: Database) -> Viewer:
    """The user whose token the assistant holds; refused when nobody has signed in."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return Viewer(session["user_id"], tuple(db.get(tokens, session["token"])["scopes"]))


def account(db: Database, login: str) -> dict[str, Any]:
    """A user or organization by login (GitHub logins are case-insensitive)."""
    wanted = login.strip().lstrip("@")
    found = db.find(accounts, login=wanted) or [a for a in db.find(accounts) if a["login"].lower() == wanted.lower()]
    if not found:
        raise NotFound(NOT_FOUND)
    return found[0]


def explicit_role(db: Database, repo: dict[str, Any], user_id: int) -> str | None:
    """The role a user holds on a repository through ownership, the organization or a grant (public access aside)."""
    if repo["owner_id"] == user_id:
        return "admin"
    owner = db.get(accounts, repo["owner_id"])
    best = 0
    member = db.find(org_members, org_id=owner["id"], user_id=user_id) if owner["type"] == "Organization" else []
    if member and member[0]["role"] == "admin":
        return "admin"
    if member:
        best = RANK.get(owner["default_repository_permission"] or "none", 0)
    for grant in db.find(collaborators, repo_id=repo["id"], user_id=user_id):
        best = max(best, RANK[grant["role"]])
    mine = {m["team_id"] for m in db.find(team_members, user_id=user_id)}
    for grant in db.find(team_repos, repo_id=repo["id"]):
        if grant["team_id"] in mine:
            best = max(best, RANK[grant["role"]])
    return ROLES[best - 1] if best else None


def role(db: Database, repo: dict[str, Any], user_id: int) -> str | None:
    """A user's role on a repository: everyone reads a public one."""
    return explicit_role(db, repo, user_id) or ("read" if not repo["private"] else None)


def repo_named(db: Database, viewer: Viewer, full_name: str) -> dict[str, Any]:
    """A repository the signed-in user can see, by `owner/name` (any case)."""
    wanted = full_name.strip().strip("/")
    found = db.find(repositories, full_name=wanted) or [
        r for r in db.find(repositories) if r["full_name"].lower() == wanted.lower()
    ]
    if not found or not viewer.sees(db, found[0]):
        raise NotFound(NOT_FOUND)
    return found[0]


def free_private(db: Database, repo: dict[str, Any]) -> bool:
    """Private repositories of accounts on GitHub Free have no protected branches and no draft pull requests."""
    return repo["private"] and db.get(accounts, repo["owner_id"])["plan"] == "free"


def writable(repo: dict[str, Any]) -> None:
    """Archived repositories are read-only for everyone."""
    if repo["archived"]:
        raise PermissionDenied(ARCHIVED)


def permissions(role_name: str | None) -> dict[str, bool]:
    """GitHub's `permissions` object for a role."""
    rank = RANK.get(role_name or "", 0)
    return {"admin": rank >= 5, "maintain": rank >= 4, "push": rank >= 3, "triage": rank >= 2, "pull": rank >= 1}
