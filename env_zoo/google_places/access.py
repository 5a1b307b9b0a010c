"""Who is signed in to Google Maps (the runtime's session, started by the user's own sign-in) and what each person
may do with a saved list: its owner edits, shares and deletes it; a follower of a shared list views it, and adds
places only where the owner lets others edit; a review is edited only by its author."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import list_followers, reviews, saved_lists, sessions, users

NOT_SIGNED_IN = "Sign in to Google Maps to use your saved places, labels and reviews."


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """Start the user's session by their Google account email (any case)."""
    found = db.find(users, email=email.strip().lower())
    if not found:
        raise NotFound("Couldn't find your Google Account.")
    db.start_session(sessions, user_id=found[0]["id"])
    return found[0]


def me(db: Database) -> dict[str, Any]:
    """The signed-in Google account."""
    return db.get(users, db.current_session(sessions, NOT_SIGNED_IN)["user_id"], "User")


def role(db: Database, row: dict[str, Any], user_id: str) -> str | None:
    """OWNER, EDITOR or VIEWER of a list for a user; None when they can't see it."""
    if row["owner_id"] == user_id:
        return "OWNER"
    if row["visibility"] != "PRIVATE" and db.find(list_followers, list_id=row["id"], user_id=user_id):
        return "EDITOR" if row["collaborative"] else "VIEWER"
    return None


def visible_list(db: Database, list_id: str, user: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A list the user owns or follows, and their role in it."""
    row = db.find(saved_lists, id=list_id)
    found = role(db, row[0], user["id"]) if row else None
    if found is None:
        raise NotFound(f"List '{list_id}' not found")
    return row[0], found


def editable_list(db: Database, list_id: str, user: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A list the user may add places to: their own, or a followed list that lets others edit."""
    row, found = visible_list(db, list_id, user)
    if found == "VIEWER":
        owner = db.get(users, row["owner_id"], "User")["display_name"]
        raise PermissionDenied(f"You can view '{row['name']}' but not edit it. Ask {owner} to let others edit.")
    return row, found


def owned_list(db: Database, list_id: str, user: dict[str, Any], action: str) -> dict[str, Any]:
    """A list the user owns (only the owner renames, shares or deletes a list)."""
    row, found = visible_list(db, list_id, user)
    if found != "OWNER":
        raise PermissionDenied(f"Only the owner of '{row['name']}' can {action} it.")
    return row


def own_review(db: Database, review_id: str, user: dict[str, Any]) -> dict[str, Any]:
    """One of the user's reviews (a review id or its places/.../reviews/... name)."""
    row = db.get(reviews, review_id.rsplit("/", 1)[-1], "Review")
    if row["author_id"] != user["id"]:
        raise PermissionDenied("You can only edit or delete your own reviews.")
    return row
