"""Who is signed in (the user whose access token the assistant holds) and what the Hub lets them see and do: a
private repository exists only for its owner and, for an organization's, its members; a user's repositories take
writes from that user only; in an organization `write` and `admin` members write to every repository,
`contributor` members only to those they created, and `read` members to none."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import accounts, org_members, repos, sessions

NOT_SIGNED_IN = (
    "401 Unauthorized: Invalid credentials in Authorization header. Ask the user to log in with an access token."
)
ROLES = ("read", "contributor", "write", "admin")
RANK = {name: rank for rank, name in enumerate(ROLES, start=1)}


def me(db: Database) -> str:
    """The signed-in username."""
    return str(db.current_session(sessions, NOT_SIGNED_IN)["user"])


def account(db: Database, name: str) -> dict[str, Any]:
    """A user or organization by name."""
    return db.find_one(accounts, name=name.strip(), not_found=f"404 Not Found: no user or organization named '{name}'.")


def org_role(db: Database, org: str, user: str) -> str | None:
    """A user's role in an organization, or None for a non-member."""
    found = db.find(org_members, org=org, user=user)
    return found[0]["role"] if found else None


def sees(db: Database, repo: dict[str, Any], user: str) -> bool:
    """Public repositories are seen by all; private ones by their owner or the owning organization's members."""
    return not repo["private"] or repo["owner"] == user or org_role(db, repo["owner"], user) is not None


def can_write(db: Database, repo: dict[str, Any], user: str) -> bool:
    """Whether a user may commit to, configure and moderate a repository."""
    if repo["owner"] == user:
        return True
    role = org_role(db, repo["owner"], user)
    return role in ("write", "admin") or (role == "contributor" and repo["created_by"] == user)


def not_found(repo_type: str, repo_id: str) -> NotFound:
    """The Hub's 404 for a repository that does not exist or that the user may not see."""
    return NotFound(
        f"404 Repository Not Found for {repo_type} '{repo_id}'. Check the repo_id and repo_type; "
        "a private repo is visible only to its owner and its organization's members."
    )


def repo_named(db: Database, repo_type: str, repo_id: str, user: str) -> dict[str, Any]:
    """A repository the user can see, by kind and `owner/name`."""
    found = db.find(repos, repo_type=repo_type, repo_id=repo_id.strip())
    if not found or not sees(db, found[0], user):
        raise not_found(repo_type, repo_id)
    return found[0]


def writable(db: Database, repo: dict[str, Any], user: str) -> None:
    """PermissionDenied unless the user may write to the repository."""
    if not can_write(db, repo, user):
        raise PermissionDenied(
            f"403 Forbidden: you don't have write access to {repo['repo_type']} '{repo['repo_id']}'"
            + (". Open a pull request instead." if not repo["private"] or sees(db, repo, user) else ".")
        )


def creatable_in(db: Database, namespace: str, user: str, repo_type: str) -> None:
    """Users create repositories in their own namespace and in organizations where they are at least contributor."""
    if namespace == user:
        return
    if RANK.get(org_role(db, namespace, user) or "", 0) < RANK["contributor"]:
        raise PermissionDenied(
            f'403 Forbidden: you don\'t have the rights to create a {repo_type} under the namespace "{namespace}".'
        )
