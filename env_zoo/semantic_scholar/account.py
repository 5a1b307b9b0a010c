"""The signed-in account and its author-page claims."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, NotFound, PermissionDenied

from .schema import account, author_claims, authors


def me(db: Database) -> dict[str, Any]:
    """The signed-in user's account."""
    return db.find(account)[0]


def pending_claim(db: Database) -> dict[str, Any] | None:
    """The account's claim waiting for email verification, if any."""
    found = db.find(author_claims, user_id=me(db)["user_id"], status="pending_verification")
    return found[0] if found else None


def check_claimable(db: Database, author: dict[str, Any]) -> None:
    """An author page can be claimed once per account, and only if no other user has claimed it."""
    user = me(db)
    if user["claimed_author_id"]:
        linked = db.get(authors, user["claimed_author_id"], "Author")
        raise Conflict(
            f"Your account is already linked to the author page of {linked['name']} "
            f"({linked['author_id']}); an account can claim only one author page."
        )
    for claim in db.find(author_claims, author_id=author["author_id"], status="approved"):
        if claim["user_id"] != user["user_id"]:
            raise Conflict(
                f"The author page of {author['name']} ({author['author_id']}) has already been claimed by "
                "another Semantic Scholar user."
            )


def own_author(db: Database) -> dict[str, Any]:
    """The author page the account has claimed and verified; PermissionDenied otherwise."""
    user = me(db)
    if not user["claimed_author_id"]:
        if pending_claim(db):
            raise PermissionDenied(
                "Your author page claim is waiting for email verification; open the link we "
                "emailed you before editing the page."
            )
        raise PermissionDenied("Only the owner of a claimed author page can edit it. Claim your author page first.")
    return db.get(authors, user["claimed_author_id"], "Author")


def require_pending(db: Database) -> dict[str, Any]:
    """The pending claim the emailed link confirms; NotFound when there is none."""
    claim = pending_claim(db)
    if claim is None:
        raise NotFound("No author page claim is waiting for email verification")
    return claim
