"""Letterboxd's rules, read from the simulated clock: ratings in half stars, no watched date in the future and no
rating or diary entry for an unreleased film, a rewatch flag only on a diary entry (set by itself when the member
has seen the film before), spoiler warnings only on review text, logging a film marks it watched and takes it off
the watchlist, a film with diary entries stays watched; lists hold a film once, only ranked lists take ranks (an
entry added at a rank pushes the ones at or after it down); follows, blocks, comment policies and four favourites."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.values import iso_timestamp

from . import access
from .schema import blocks, comments, film_relationships, follows, list_entries, lists, log_entries, members

FAVORITES = 4


def today(db: Database) -> str:
    """The simulated date."""
    return db.now().date().isoformat()


def half_stars(rating: float | None) -> int | None:
    """A star rating (0.5-5.0) as stored half stars."""
    return None if rating is None else round(rating * 2)


def check_released(db: Database, film: dict[str, Any], what: str) -> None:
    """Refuse a rating or diary entry for a film not yet released."""
    if film["release_date"] > today(db):
        raise Conflict(f"{film['name']} hasn't been released yet, so it can't be {what}.")


def relationship(db: Database, member_id: str, film_id: str) -> dict[str, Any]:
    """The member's relationship with a film, created empty when missing."""
    key = f"{member_id}:{film_id}"
    found = db.find(film_relationships, id=key)
    if found:
        return found[0]
    return db.insert(
        film_relationships,
        id=key,
        member_id=member_id,
        film_id=film_id,
        watched=False,
        liked=False,
        rating=None,
        in_watchlist=False,
        watchlisted_at=None,
    )


def check_entry(db: Database, film: dict[str, Any], values: dict[str, Any]) -> None:
    """The rules a log entry's final values meet."""
    if values["diary_date"] is None and not values["review"]:
        raise InvalidRequest("A log entry needs a watched date (a diary entry) or review text.")
    if values["diary_date"] is not None:
        check_released(db, film, "logged")
        if values["diary_date"] > today(db):
            raise InvalidRequest("The watched date can't be in the future.")
    if values["rating"] is not None:
        check_released(db, film, "rated")
    if values["rewatch"] and values["diary_date"] is None:
        raise InvalidRequest("Only a diary entry (with a watched date) can be marked as a rewatch.")
    if values["contains_spoilers"] and not values["review"]:
        raise InvalidRequest("Only review text can be marked as containing spoilers.")


def apply_to_relationship(db: Database, member_id: str, film_id: str, values: dict[str, Any]) -> None:
    """A logged film is watched and leaves the watchlist; the entry's rating and like carry over."""
    rel = relationship(db, member_id, film_id)
    changes: dict[str, Any] = {"watched": True, "in_watchlist": False, "watchlisted_at": None}
    if values["rating"] is not None:
        changes["rating"] = values["rating"]
    if values["like"]:
        changes["liked"] = True
    db.update(film_relationships, rel["id"], **changes)


def log_film(db: Database, member: dict[str, Any], film: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """Create a log entry; `rewatch` None means: a rewatch when the member has watched the film before."""
    rel = relationship(db, member["id"], film["id"])
    if values["rewatch"] is None:
        values["rewatch"] = bool(values["diary_date"] is not None and rel["watched"])
    check_entry(db, film, values)
    now = iso_timestamp(db.now())
    row = db.insert(
        log_entries,
        id=db.new_id(log_entries, "e", 5),
        member_id=member["id"],
        film_id=film["id"],
        when_created=now,
        when_updated=now,
        **values,
    )
    apply_to_relationship(db, member["id"], film["id"], values)
    return row


def update_entry(db: Database, row: dict[str, Any], film: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """Change a log entry's fields; the result meets the same rules as a new entry."""
    values = {key: row[key] for key in ("diary_date", "rewatch", "rating", "like", "review", "contains_spoilers")}
    values.update(changes)
    if changes.get("review") == "":
        values["review"] = None
        values["contains_spoilers"] = False if "contains_spoilers" not in changes else values["contains_spoilers"]
    check_entry(db, film, values)
    updated = db.update(log_entries, row["id"], **values, when_updated=iso_timestamp(db.now()))
    apply_to_relationship(db, row["member_id"], film["id"], updated)
    return updated


def delete_entry(db: Database, row: dict[str, Any]) -> None:
    """Delete a log entry and its comments; the film stays watched."""
    for comment in db.find(comments, entry_id=row["id"]):
        db.delete(comments, comment["id"])
    db.delete(log_entries, row["id"])


def set_relationship(
    db: Database, member: dict[str, Any], film: dict[str, Any], changes: dict[str, Any]
) -> dict[str, Any]:
    """Mark a film watched or not, liked or not, rated or unrated, in the watchlist or not."""
    rel = relationship(db, member["id"], film["id"])
    if changes.get("rating") is not None:
        check_released(db, film, "rated")
    if changes.get("watched") or changes.get("liked"):
        check_released(db, film, "marked as watched" if changes.get("watched") else "liked")
    if changes.get("watched") is False and db.find(log_entries, member_id=member["id"], film_id=film["id"]):
        raise Conflict(f"{film['name']} has diary entries or reviews; delete them before removing it from your films.")
    if changes.get("in_watchlist") is True and not rel["in_watchlist"]:
        changes["watchlisted_at"] = iso_timestamp(db.now())
    if changes.get("in_watchlist") is False:
        changes["watchlisted_at"] = None
    if changes.get("rating") is not None or changes.get("liked"):
        changes.setdefault("watched", True)
    return db.update(film_relationships, rel["id"], **changes)


def set_favorites(db: Database, member: dict[str, Any], film_rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Replace the member's four favourite films (in order)."""
    ids = [row["id"] for row in film_rows]
    if len(set(ids)) != len(ids):
        raise InvalidRequest("A film can only be one of your favorites once.")
    for row in film_rows:
        check_released(db, row, "a favorite")
    return db.update(members, member["id"], favorite_films=ids)


# ---------------------------------------------------------------- lists


def entries_of(db: Database, list_id: str) -> list[dict[str, Any]]:
    """A list's entries in order."""
    return db.find(list_entries, order_by=[list_entries.c.position], list_id=list_id)


def renumber(db: Database, ordered: list[dict[str, Any]]) -> None:
    """Write positions 1..n in the given order."""
    for position, row in enumerate(ordered, start=1):
        if row["position"] != position:
            db.update(list_entries, row["id"], position=position)


def add_entries(db: Database, row: dict[str, Any], additions: list[dict[str, Any]]) -> None:
    """Add films to a list: appended, or at a rank (ranked lists only) pushing the entries at and after it down."""
    ranks = [item["rank"] for item in additions if item.get("rank") is not None]
    if ranks and not row["ranked"]:
        raise InvalidRequest("Only a ranked list takes ranks; make the list ranked first.")
    if len(set(ranks)) != len(ranks):
        raise InvalidRequest("Two entries can't be given the same rank in one request.")
    ordered = entries_of(db, row["id"])
    present = {entry["film_id"] for entry in ordered}
    for item in additions:
        film = access.film(db, item["film_id"])
        if film["id"] in present:
            raise Conflict(f"{film['name']} is already in this list.")
        present.add(film["id"])
        rank = item.get("rank")
        if rank is not None and rank > len(ordered) + 1:
            raise InvalidRequest(f"rank {rank} is past the end of the list ({len(ordered)} films).")
        new = db.insert(
            list_entries,
            id=f"{row['id']}:{film['id']}",
            list_id=row["id"],
            film_id=film["id"],
            position=len(ordered) + 1,
            notes=item.get("notes"),
            contains_spoilers=bool(item.get("contains_spoilers")),
        )
        ordered.insert(rank - 1 if rank is not None else len(ordered), new)
    renumber(db, ordered)


def remove_entries(db: Database, row: dict[str, Any], film_ids: list[str]) -> None:
    """Take films off a list and close the gaps."""
    by_film = {entry["film_id"]: entry for entry in entries_of(db, row["id"])}
    for film_id in film_ids:
        if film_id not in by_film:
            raise NotFound(f"Film {film_id} is not in this list.")
        db.delete(list_entries, by_film.pop(film_id)["id"])
    renumber(db, sorted(by_film.values(), key=lambda entry: entry["position"]))


def publish_changes(db: Database, row: dict[str, Any], published: bool | None) -> dict[str, Any]:
    """`when_published` is set the first time a list is published."""
    if published and not row["when_published"]:
        return {"when_published": iso_timestamp(db.now())}
    return {}


def delete_list(db: Database, row: dict[str, Any]) -> None:
    """Delete a list and its entries."""
    for entry in entries_of(db, row["id"]):
        db.delete(list_entries, entry["id"])
    db.delete(lists, row["id"])


# ---------------------------------------------------------------- people


def set_following(db: Database, viewer: dict[str, Any], other: dict[str, Any], following: bool) -> None:
    """Follow or unfollow a member (idempotent); no following oneself or across a block."""
    if other["id"] == viewer["id"]:
        raise InvalidRequest("You can't follow yourself.")
    key = f"{viewer['id']}:{other['id']}"
    present = bool(db.find(follows, id=key))
    if following and not present:
        if access.blocked_between(db, viewer["id"], other["id"]):
            raise PermissionDenied(f"You can't follow {other['username']} while one of you blocks the other.")
        db.insert(follows, id=key, follower_id=viewer["id"], followed_id=other["id"], since=iso_timestamp(db.now()))
    if not following and present:
        db.delete(follows, key)


def set_blocking(db: Database, viewer: dict[str, Any], other: dict[str, Any], blocking: bool) -> None:
    """Block (ending follows both ways) or unblock a member."""
    if other["id"] == viewer["id"]:
        raise InvalidRequest("You can't block yourself.")
    key = f"{viewer['id']}:{other['id']}"
    present = bool(db.find(blocks, id=key))
    if blocking and not present:
        db.insert(blocks, id=key, blocker_id=viewer["id"], blocked_id=other["id"])
        for pair in (key, f"{other['id']}:{viewer['id']}"):
            if db.find(follows, id=pair):
                db.delete(follows, pair)
    if not blocking and present:
        db.delete(blocks, key)


def follows_of(db: Database, follower_id: str, followed_id: str) -> bool:
    """Whether one member follows another."""
    return bool(db.find(follows, id=f"{follower_id}:{followed_id}"))


def add_comment(db: Database, viewer: dict[str, Any], row: dict[str, Any], owner: dict[str, Any], text: str) -> dict:
    """Comment on a review: the owner's comment policy (Anyone, Friends = members they follow, You) applies."""
    if not row["review"]:
        raise InvalidRequest("Only reviews take comments; this diary entry has no review text.")
    if owner["id"] != viewer["id"]:
        policy = owner["comments_policy"]
        if policy == "You" or (policy == "Friends" and not follows_of(db, owner["id"], viewer["id"])):
            raise PermissionDenied(f"{owner['username']} only allows comments from {policy_text(policy)}.")
    return db.insert(
        comments,
        id=db.new_id(comments, "c", 5),
        entry_id=row["id"],
        member_id=viewer["id"],
        text=text.strip(),
        when_created=iso_timestamp(db.now()),
    )


def policy_text(policy: str) -> str:
    """A comment policy in words."""
    return {"Friends": "members they follow", "You": "themselves"}.get(policy, "anyone")
