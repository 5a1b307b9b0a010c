"""Who the account holder is (the API key's account: there is no sign-in step) and what the account may do with
author pages: claim one, confirm the claim from the emailed link, edit the claimed page."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

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


def start_claim(db: Database, author: dict[str, Any]) -> dict[str, Any]:
    """A new claim of an author page waiting for email verification; a pending claim of another page is
    withdrawn, one of the same page is a conflict."""
    check_claimable(db, author)
    waiting = pending_claim(db)
    if waiting is not None:
        if waiting["author_id"] == author["author_id"]:
            raise Conflict(
                f"Your claim of {author['name']} is already waiting for you to open the verification "
                "link we emailed you."
            )
        db.update(author_claims, waiting["claim_id"], status="withdrawn")
    user = me(db)
    return db.insert(
        author_claims,
        claim_id=db.new_id(author_claims, "32", width=3),
        author_id=author["author_id"],
        user_id=user["user_id"],
        email=user["email"],
        status="pending_verification",
        created_at=db.now_iso(),
        verified_at=None,
    )


def confirm_claim(db: Database) -> dict[str, Any]:
    """Approve the pending claim and link its author page to the account."""
    claim = require_pending(db)
    db.update(account, me(db)["user_id"], claimed_author_id=claim["author_id"])
    return db.update(author_claims, claim["claim_id"], status="approved", verified_at=db.now_iso())


def page_changes(
    author: dict[str, Any], name: str | None, affiliations: list[str] | None, homepage: str | None
) -> dict[str, Any]:
    """The column changes an edit of the own author page asks for: a new name keeps the old one as an alias,
    affiliations are trimmed and deduplicated, "" removes the homepage. Nothing to change is an error."""
    changes: dict[str, Any] = {}
    if name is not None and " ".join(name.split()) != author["name"]:
        changes["name"] = " ".join(name.split())
        changes["aliases"] = list(dict.fromkeys([*author["aliases"], author["name"]]))
    if affiliations is not None:
        changes["affiliations"] = list(dict.fromkeys(a.strip() for a in affiliations if a.strip()))
    if homepage is not None:
        changes["homepage"] = homepage.strip() or None
    if not changes:
        raise InvalidRequest("Nothing to update: give a new name, affiliations or homepage.")
    return changes
