"""Playlist rules: who may see and edit a playlist, its ordered items, and the snapshot_id every edit changes."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .schema import account, followed_playlists, playlist_collaborators, playlist_items, playlists
from .uris import next_snapshot_id

MAX_ITEMS = 10_000  # a playlist holds at most this many items
MAX_PER_REQUEST = 100  # items added or removed in one request


def me(db: Database) -> dict[str, Any]:
    """The signed-in account (user_id, email, country, product)."""
    return db.find(account)[0]


def is_collaborator(db: Database, playlist: dict[str, Any], user_id: str) -> bool:
    """Whether `user_id` collaborates on the (collaborative) playlist."""
    return playlist["collaborative"] and bool(
        db.find(playlist_collaborators, playlist_id=playlist["id"], user_id=user_id)
    )


def visible(db: Database, playlist_id: str) -> dict[str, Any]:
    """A playlist the user can see: public, their own, followed, or one they collaborate on."""
    playlist = db.get(playlists, playlist_id, "Playlist")
    user = me(db)["user_id"]
    if (
        playlist["public"]
        or playlist["owner_id"] == user
        or is_collaborator(db, playlist, user)
        or db.find(followed_playlists, playlist_id=playlist_id)
    ):
        return playlist
    raise NotFound(f"Playlist '{playlist_id}' not found")


def editable(db: Database, playlist_id: str) -> dict[str, Any]:
    """A playlist whose items the user may change: the owner's, or a collaborative one they collaborate on."""
    playlist = visible(db, playlist_id)
    user = me(db)["user_id"]
    if playlist["owner_id"] != user and not is_collaborator(db, playlist, user):
        raise PermissionDenied(f"You can't edit '{playlist['name']}': only its owner and collaborators can.")
    return playlist


def owned(db: Database, playlist_id: str) -> dict[str, Any]:
    """A playlist the user owns (only the owner changes a playlist's details)."""
    playlist = visible(db, playlist_id)
    if playlist["owner_id"] != me(db)["user_id"]:
        raise PermissionDenied(f"You can't change the details of '{playlist['name']}': you don't own it.")
    return playlist


def check_snapshot(playlist: dict[str, Any], given: str | None) -> None:
    """A given snapshot_id must be the playlist's current one."""
    if given is not None and given != playlist["snapshot_id"]:
        raise Conflict(
            f"The playlist has changed since snapshot {given}; get it again and retry "
            f"(current snapshot_id {playlist['snapshot_id']})."
        )


def check_batch(uris: list[str]) -> None:
    """1 to 100 items per request."""
    if not 1 <= len(uris) <= MAX_PER_REQUEST:
        raise InvalidRequest(f"Give 1 to {MAX_PER_REQUEST} URIs per request.")


def items(db: Database, playlist_id: str) -> list[dict[str, Any]]:
    """The playlist's items in order."""
    return db.find(playlist_items, playlist_id=playlist_id, order_by=[playlist_items.c.position])


def renumber(db: Database, ordered: list[dict[str, Any]]) -> None:
    """Store `ordered` as the playlist's order (positions 0..n-1)."""
    for position, row in enumerate(ordered):
        if row["position"] != position:
            db.update(playlist_items, row["id"], position=position)


def insert_items(db: Database, playlist: dict[str, Any], track_ids: list[str], position: int | None) -> None:
    """Insert tracks at `position` (None appends), shifting the items after it."""
    current = items(db, playlist["id"])
    at = len(current) if position is None else position
    if not 0 <= at <= len(current):
        raise InvalidRequest(f"Index out of bounds: position must be between 0 and {len(current)}.")
    if len(current) + len(track_ids) > MAX_ITEMS:
        raise Conflict(
            f"Playlist size limit reached: '{playlist['name']}' has {len(current)} items and a playlist "
            f"holds at most {MAX_ITEMS:,}."
        )
    for row in reversed(current[at:]):
        db.update(playlist_items, row["id"], position=row["position"] + len(track_ids))
    user, now = me(db)["user_id"], db.now_iso()
    for offset, track_id in enumerate(track_ids):
        db.insert(
            playlist_items,
            id=db.new_id(playlist_items, "pli_"),
            playlist_id=playlist["id"],
            position=at + offset,
            track_id=track_id,
            added_by=user,
            added_at=now,
        )


def bump(db: Database, playlist_id: str) -> str:
    """Record an edit: the playlist's next snapshot_id."""
    new = next_snapshot_id(playlist_id, db.get(playlists, playlist_id, "Playlist")["snapshot_id"])
    db.update(playlists, playlist_id, snapshot_id=new)
    return new
