"""Yelp's community features: writing, updating and removing reviews, collections and bookmarks, check-ins."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database

from .rules import local_now, refresh_rating, refuse_links, refuse_review, refuse_unless_open_now
from .schema import checkins, collection_items, collections, reviews


def stamp(db: Database) -> str:
    """Yelp's review time: local 'YYYY-MM-DD HH:MM:SS'."""
    return local_now(db).strftime("%Y-%m-%d %H:%M:%S")


def write(db: Database, user: dict[str, Any], row: dict[str, Any], rating: int, text: str) -> dict[str, Any]:
    """Post the person's review of a business and refresh its rating."""
    refuse_review(db, user, row)
    posted = db.insert(
        reviews,
        id=db.new_id(reviews, "rv_", 5),
        business_id=row["id"],
        user_id=user["id"],
        rating=rating,
        text=refuse_links(text),
        time_created=stamp(db),
        time_updated=None,
    )
    refresh_rating(db, row["id"])
    return posted


def update(db: Database, mine: dict[str, Any], rating: int | None, text: str | None) -> dict[str, Any]:
    """Update the person's review (stars, text or both) and refresh the business's rating."""
    changes: dict[str, Any] = {"time_updated": stamp(db)}
    if rating is not None:
        changes["rating"] = rating
    if text is not None:
        changes["text"] = refuse_links(text)
    if len(changes) == 1:
        raise Conflict("Nothing to update: give new stars or new text.")
    updated = db.update(reviews, mine["id"], **changes)
    refresh_rating(db, mine["business_id"])
    return updated


def remove(db: Database, mine: dict[str, Any]) -> None:
    """Remove the person's review and refresh the business's rating."""
    db.delete(reviews, mine["id"])
    refresh_rating(db, mine["business_id"])


def new_collection(db: Database, user: dict[str, Any], name: str, description: str, visibility: str) -> dict[str, Any]:
    """A new collection; names are unique per person (any case)."""
    for existing in db.find(collections, user_id=user["id"]):
        if existing["name"].casefold() == name.strip().casefold():
            raise Conflict(f'You already have a collection named "{existing["name"]}" ({existing["id"]}).')
    return db.insert(
        collections,
        id=db.new_id(collections, "col_", 4),
        user_id=user["id"],
        name=name.strip(),
        description=description.strip(),
        visibility=visibility,
        is_default=False,
    )


def save(db: Database, coll: dict[str, Any], row: dict[str, Any], note: str) -> None:
    """Save a business to a collection (once)."""
    key = f"{coll['id']}-{row['id']}"
    if db.find(collection_items, id=key):
        raise Conflict(f'{row["name"]} is already in "{coll["name"]}".')
    db.insert(
        collection_items,
        id=key,
        collection_id=coll["id"],
        business_id=row["id"],
        note=note.strip(),
        added_on=local_now(db).date().isoformat(),
    )


def unsave(db: Database, coll: dict[str, Any], row: dict[str, Any]) -> None:
    """Take a business out of a collection."""
    key = f"{coll['id']}-{row['id']}"
    if not db.find(collection_items, id=key):
        raise Conflict(f'{row["name"]} isn\'t in "{coll["name"]}".')
    db.delete(collection_items, key)


def check_in(db: Database, user: dict[str, Any], row: dict[str, Any], comment: str) -> dict[str, Any]:
    """Check the person in at an open business, once a day per business."""
    refuse_unless_open_now(db, row, "check in")
    now = local_now(db)
    if db.find(checkins, user_id=user["id"], business_id=row["id"], date=now.date().isoformat()):
        raise Conflict(f"You've already checked in at {row['name']} today.")
    return db.insert(
        checkins,
        id=db.new_id(checkins, "ci_", 5),
        user_id=user["id"],
        business_id=row["id"],
        date=now.date().isoformat(),
        time=now.strftime("%H:%M"),
        comment=comment.strip(),
    )
