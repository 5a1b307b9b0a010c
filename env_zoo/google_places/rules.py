"""Google Maps rules shared by the tools: default lists and list names, share links, labels (Home and Work are
one place each), what can be reviewed and checked in to, and how a review moves its place's rating."""

from __future__ import annotations

import uuid
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied

from .schema import places, saved_lists, visits

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


def place(db: Database, place_id: str) -> dict[str, Any]:
    """A place by its place ID (an optional 'places/' prefix is accepted)."""
    return db.get(places, place_id.removeprefix("places/"), "Place")


def check_list_name(db: Database, user: dict[str, Any], name: str, keep: str | None = None) -> str:
    """A free list name: 1-40 characters, not a default list's, not already one of the user's lists."""
    clean = name.strip()
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


def move_rating(db: Database, place_id: str, stars: int, count: int) -> None:
    """Add (or with negative values, take away) ratings from a place's aggregate."""
    target = db.get(places, place_id, "Place")
    db.update(
        places,
        place_id,
        rating_total=target["rating_total"] + stars,
        user_rating_count=target["user_rating_count"] + count,
    )
