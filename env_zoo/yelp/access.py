"""Who is signed in to Yelp (the runtime's session, started by the person's own sign-in) and what is theirs: a
person sees and changes only their own reviews, holds, reservations, waitlist visits and collections."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .schema import collections, holds, reservations, reviews, user_sessions, users, waitlist_visits

NOT_SIGNED_IN = "You're not signed in. The person must sign in to Yelp first."


def sign_in(db: Database, email: str) -> dict[str, Any]:
    """Start the person's session by their account email (any case); the password stays with them."""
    user = db.find_one(users, email=email.strip().lower(), not_found="The email or password you entered is incorrect.")
    db.start_session(user_sessions, user_id=user["id"])
    return user


def signed_in(db: Database) -> dict[str, Any]:
    """The person signed in to Yelp."""
    return db.get(users, db.current_session(user_sessions, NOT_SIGNED_IN)["user_id"], "User")


def own(db: Database, table: Any, key: str, user: dict[str, Any], what: str) -> dict[str, Any]:
    """One of the person's own rows of `table`."""
    return db.find_one(table, id=str(key), user_id=user["id"], not_found=f"{what} {key} not found on your account.")


def own_review(db: Database, user: dict[str, Any], review_id: str) -> dict[str, Any]:
    """One of the person's reviews."""
    return own(db, reviews, review_id, user, "Review")


def own_hold(db: Database, user: dict[str, Any], hold_id: str) -> dict[str, Any]:
    """One of the person's reservation holds."""
    return own(db, holds, hold_id, user, "Hold")


def own_reservation(db: Database, user: dict[str, Any], reservation_id: str) -> dict[str, Any]:
    """One of the person's reservations."""
    return own(db, reservations, reservation_id, user, "Reservation")


def own_visit(db: Database, user: dict[str, Any], visit_id: str) -> dict[str, Any]:
    """One of the person's waitlist visits."""
    return own(db, waitlist_visits, visit_id, user, "Waitlist visit")


def own_collection(db: Database, user: dict[str, Any], collection_id: str | None) -> dict[str, Any]:
    """One of the person's collections; none named means My Bookmarks, the default one."""
    if collection_id is None:
        return db.find_one(
            collections, user_id=user["id"], is_default=True, not_found="You have no My Bookmarks collection."
        )
    return own(db, collections, collection_id, user, "Collection")
