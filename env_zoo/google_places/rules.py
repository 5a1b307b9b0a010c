"""Google Maps account rules shared by the tools: who is signed in, what each person may do with a saved list
(owner, editor through a collaborative link, viewer), default lists, share links, and how a review moves its
place's rating."""

from __future__ import annotations

import uuid
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .objects import SavedListObject
from .schema import list_followers, places, reviews, saved_lists, saved_places, sessions, users, visits

DEFAULT_LISTS = {
    "FAVORITES": "Favorites",
    "WANT_TO_GO": "Want to go",
    "TRAVEL_PLANS": "Travel plans",
    "STARRED": "Starred places",
}
SHARE_PREFIX = "https://maps.app.goo.gl/"
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
REVIEW_PREFIX = "ChdDSUhNMG9nS0VJQ0FnSU"  # review IDs: this prefix and five digits
ADDRESS_TYPES = {"premise", "street_address", "subpremise"}
MAX_LIST_NAME, MAX_DESCRIPTION, MAX_NOTE, MAX_LABEL, MAX_REVIEW = 40, 500, 4000, 40, 4096


def me(db: Database) -> dict[str, Any]:
    """The signed-in Google account."""
    session = db.current_session(sessions, "Sign in to Google Maps to use your saved places, labels and reviews.")
    return db.get(users, session["user_id"], "User")


def place(db: Database, place_id: str) -> dict[str, Any]:
    """A place by its place ID (an optional 'places/' prefix is accepted)."""
    return db.get(places, place_id.removeprefix("places/"), "Place")


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


def list_object(db: Database, row: dict[str, Any], user: dict[str, Any]) -> SavedListObject:
    """A list with its counts, seen by `user`."""
    return SavedListObject(
        **{
            k: row[k]
            for k in ("id", "name", "kind", "emoji", "description", "visibility", "collaborative", "share_url")
        },
        owner_display_name=db.get(users, row["owner_id"], "User")["display_name"],
        role=role(db, row, user["id"]) or "VIEWER",
        place_count=len(db.find(saved_places, list_id=row["id"])),
        follower_count=len(db.find(list_followers, list_id=row["id"])),
    )


def check_text(value: str, field: str, limit: int, required: bool = False) -> str:
    """Trimmed text within its length limit."""
    clean = value.strip()
    if required and not clean:
        raise InvalidRequest(f"{field} can't be empty.")
    if len(clean) > limit:
        raise InvalidRequest(f"{field} can be at most {limit} characters.")
    return clean


def check_list_name(db: Database, user: dict[str, Any], name: str, keep: str | None = None) -> str:
    """A free list name: 1-40 characters, not a default list's, not already one of the user's lists."""
    clean = check_text(name, "List name", MAX_LIST_NAME, required=True)
    if clean.casefold() in {n.casefold() for n in DEFAULT_LISTS.values()}:
        raise Conflict(f"'{clean}' is the name of a default list.")
    for other in db.find(saved_lists, owner_id=user["id"]):
        if other["id"] != keep and other["name"].casefold() == clean.casefold():
            raise Conflict(f"You already have a list called '{other['name']}'.")
    return clean


def share_url(db: Database) -> str:
    """A fresh maps.app.goo.gl link (17 characters, derived from the state's counter)."""
    number = uuid.UUID(db.new_uuid(saved_lists)).int
    token = ""
    while len(token) < 17:
        number, digit = divmod(number, 62)
        token += BASE62[digit]
    return SHARE_PREFIX + token


def check_reviewable(db: Database, target: dict[str, Any], user: dict[str, Any]) -> None:
    """Google Maps takes reviews of businesses and landmarks the user has been to, not of closed ones."""
    if target["primary_type"] in ADDRESS_TYPES:
        raise InvalidRequest("Addresses can't be reviewed.")
    if target["business_status"] == "CLOSED_PERMANENTLY":
        raise Conflict(f"{target['display_name']} is permanently closed and no longer takes reviews.")
    if not db.find(visits, user_id=user["id"], place_id=target["id"]):
        raise PermissionDenied(
            f"You haven't visited {target['display_name']}. Google Maps only takes reviews of places you've "
            "been to: check in there or confirm the visit in Timeline."
        )


def own_review(db: Database, review_id: str, user: dict[str, Any]) -> dict[str, Any]:
    """One of the user's reviews (a review id or its places/.../reviews/... name)."""
    row = db.get(reviews, review_id.rsplit("/", 1)[-1], "Review")
    if row["author_id"] != user["id"]:
        raise PermissionDenied("You can only edit or delete your own reviews.")
    return row


def move_rating(db: Database, place_id: str, stars: int, count: int) -> None:
    """Add (or with negative values, take away) ratings from a place's aggregate."""
    target = db.get(places, place_id, "Place")
    db.update(
        places,
        place_id,
        rating_total=target["rating_total"] + stars,
        user_rating_count=target["user_rating_count"] + count,
    )
