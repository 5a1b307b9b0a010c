"""Who is signed in (the researcher whose personal access token the app uses) and what Zenodo lets them do: their
own depositions (other people's drafts do not exist for them; other people's records are read-only), and the
communities where they are owner, manager or curator (who decide inclusion requests)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import forbidden, not_found
from .schema import communities, community_members, depositions, sessions, users

NOT_SIGNED_IN = (
    '{"status": 401, "message": "The server could not verify that you are authorized to access the URL requested. '
    'Ask the user to sign in."}'
)
CURATORS = ("owner", "manager", "curator")


def me(db: Database) -> dict[str, Any]:
    """The signed-in user's account row."""
    session = db.current_session(sessions, NOT_SIGNED_IN)
    return db.get(users, session["user_id"])


def own_deposition(db: Database, user: dict[str, Any], deposition_id: int) -> dict[str, Any]:
    """A deposition of the user's; other people's published records are read-only (403), their drafts unknown."""
    found = db.find(depositions, id=deposition_id)
    if not found or (found[0]["owner_id"] != user["id"] and not found[0]["submitted"]):
        raise not_found()
    if found[0]["owner_id"] != user["id"]:
        raise forbidden("You do not have permission to edit this deposition: you are not one of its owners.")
    return found[0]


def community_by_slug(db: Database, slug: str) -> dict[str, Any]:
    """A community by its URL name."""
    found = db.find(communities, slug=slug.strip().lower())
    if not found:
        raise not_found(f"Community '{slug}' does not exist.")
    return found[0]


def role_in(db: Database, user_id: int, community_id: str) -> str | None:
    """The user's role in a community, or None for a non-member."""
    found = db.find(community_members, community_id=community_id, user_id=user_id)
    return found[0]["role"] if found else None


def curates(db: Database, user_id: int, community_id: str) -> bool:
    """Whether the user decides inclusion requests for the community."""
    return role_in(db, user_id, community_id) in CURATORS
