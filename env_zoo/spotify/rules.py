"""Business rules the tools share: Spotify's limit/offset pages, what a library URI names, who may see and edit a
playlist, its ordered items, and the snapshot_id every edit changes."""

from __future__ import annotations

from typing import Any, Sequence, TypeVar

from sqlalchemy import Table

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate

from .access import my_id
from .schema import (
    albums,
    artists,
    followed_artists,
    followed_playlists,
    playlist_collaborators,
    playlist_items,
    playlists,
    saved_albums,
    saved_tracks,
    tracks,
)
from .uris import Kind, next_snapshot_id, split

T = TypeVar("T")
MAX_LIMIT = 50  # results per page
MAX_OFFSET = 1000  # the deepest offset a list reaches
MAX_ITEMS = 10_000  # a playlist holds at most this many items
# library kind -> (table, key column, catalog table, entity name)
LIBRARY: dict[str, tuple[Table, str, Table, str]] = {
    "track": (saved_tracks, "track_id", tracks, "Track"),
    "album": (saved_albums, "album_id", albums, "Album"),
    "artist": (followed_artists, "artist_id", artists, "Artist"),
    "playlist": (followed_playlists, "playlist_id", playlists, "Playlist"),
}


def page(items: Sequence[T], limit: int, offset: int) -> Page[T]:
    """Spotify's limit/offset paging on top of the runtime's pages (next_cursor is the next offset)."""
    return paginate(items, limit, str(min(offset, len(items))) if offset else None, max_page_size=MAX_LIMIT)


def library_items(values: list[str]) -> list[tuple[Kind, str]]:
    """(kind, id) of library URIs, duplicates dropped, in the order given."""
    return list(dict.fromkeys(split(v) for v in values))


def track_ids(db: Database, values: list[str]) -> list[str]:
    """Track ids of track URIs, each of which must exist."""
    ids = [split(v)[1] for v in values]
    for track_id in ids:
        db.get(tracks, track_id, "Track")
    return ids


def start_index(ids: list[str], offset: int | str | None) -> int:
    """The index playback starts at: a position, or the URI of a track of the list."""
    if offset is None:
        return 0
    if isinstance(offset, int):
        if offset >= len(ids):
            raise InvalidRequest(f"offset {offset} is out of range: the context has {len(ids)} tracks.")
        return offset
    wanted = split(offset)[1]
    if wanted not in ids:
        raise InvalidRequest(f"offset {offset} is not in the context.")
    return ids.index(wanted)


# ---------------------------------------------------------------- playlists


def is_collaborator(db: Database, playlist: dict[str, Any], user_id: str) -> bool:
    """Whether `user_id` collaborates on the (collaborative) playlist."""
    return playlist["collaborative"] and bool(
        db.find(playlist_collaborators, playlist_id=playlist["id"], user_id=user_id)
    )


def visible(db: Database, playlist_id: str) -> dict[str, Any]:
    """A playlist the user can see: public, their own, followed, or one they collaborate on."""
    playlist = db.get(playlists, playlist_id, "Playlist")
    user = my_id(db)
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
    user = my_id(db)
    if playlist["owner_id"] != user and not is_collaborator(db, playlist, user):
        raise PermissionDenied(f"You can't edit '{playlist['name']}': only its owner and collaborators can.")
    return playlist


def owned(db: Database, playlist_id: str) -> dict[str, Any]:
    """A playlist the user owns (only the owner changes a playlist's details)."""
    playlist = visible(db, playlist_id)
    if playlist["owner_id"] != my_id(db):
        raise PermissionDenied(f"You can't change the details of '{playlist['name']}': you don't own it.")
    return playlist


def check_public(collaborative: bool, public: bool) -> None:
    """A collaborative playlist is never public."""
    if collaborative and public:
        raise InvalidRequest("A collaborative playlist can't be public: make it private, or not collaborative.")


def check_snapshot(playlist: dict[str, Any], given: str | None) -> None:
    """A given snapshot_id must be the playlist's current one."""
    if given is not None and given != playlist["snapshot_id"]:
        raise Conflict(
            f"The playlist has changed since snapshot {given}; get it again and retry "
            f"(current snapshot_id {playlist['snapshot_id']})."
        )


def items(db: Database, playlist_id: str) -> list[dict[str, Any]]:
    """The playlist's items in order."""
    return db.find(playlist_items, playlist_id=playlist_id, order_by=[playlist_items.c.position])


def renumber(db: Database, ordered: list[dict[str, Any]]) -> None:
    """Store `ordered` as the playlist's order (positions 0..n-1)."""
    for position, row in enumerate(ordered):
        if row["position"] != position:
            db.update(playlist_items, row["id"], position=position)


def insert_items(db: Database, playlist: dict[str, Any], ids: list[str], position: int | None) -> None:
    """Insert tracks at `position` (None appends), shifting the items after it."""
    current = items(db, playlist["id"])
    at = len(current) if position is None else position
    if at > len(current):
        raise InvalidRequest(f"Index out of bounds: position must be between 0 and {len(current)}.")
    if len(current) + len(ids) > MAX_ITEMS:
        raise Conflict(
            f"Playlist size limit reached: '{playlist['name']}' has {len(current)} items and a playlist "
            f"holds at most {MAX_ITEMS:,}."
        )
    for row in reversed(current[at:]):
        db.update(playlist_items, row["id"], position=row["position"] + len(ids))
    user, now = my_id(db), db.now_iso()
    for offset, track_id in enumerate(ids):
        db.insert(
            playlist_items,
            id=db.new_id(playlist_items, "pli_"),
            playlist_id=playlist["id"],
            position=at + offset,
            track_id=track_id,
            added_by=user,
            added_at=now,
        )


def remove_tracks(db: Database, playlist: dict[str, Any], gone: set[str]) -> None:
    """Remove every occurrence of the given tracks, each of which must be in the playlist."""
    current = items(db, playlist["id"])
    missing = gone - {i["track_id"] for i in current}
    if missing:
        raise InvalidRequest(
            f"Could not remove tracks: {', '.join(sorted(f'spotify:track:{m}' for m in missing))} "
            f"not in '{playlist['name']}'."
        )
    for row in current:
        if row["track_id"] in gone:
            db.delete(playlist_items, row["id"])
    renumber(db, [i for i in current if i["track_id"] not in gone])


def move_range(db: Database, playlist: dict[str, Any], start: int, length: int, before: int) -> bool:
    """Move `length` items from `start` in front of the item now at `before`; False when already in place."""
    current = items(db, playlist["id"])
    end = start + length
    if start >= len(current) or end > len(current) or before > len(current):
        raise InvalidRequest(f"Index out of bounds: '{playlist['name']}' has {len(current)} items.")
    if start <= before <= end:
        return False
    moved, rest = current[start:end], current[:start] + current[end:]
    at = before if before < start else before - length
    renumber(db, rest[:at] + moved + rest[at:])
    return True


def bump(db: Database, playlist_id: str) -> str:
    """Record an edit: the playlist's next snapshot_id."""
    new = next_snapshot_id(playlist_id, db.get(playlists, playlist_id, "Playlist")["snapshot_id"])
    db.update(playlists, playlist_id, snapshot_id=new)
    return new


# ---------------------------------------------------------------- Your Library


def save(db: Database, kind: Kind, item_id: str) -> bool:
    """Put an item in Your Library (a playlist must be one the user can see); False when it already was."""
    table, key, catalog_table, entity = LIBRARY[kind]
    if kind == "playlist":
        visible(db, item_id)
    else:
        db.get(catalog_table, item_id, entity)
    if db.find(table, **{key: item_id}):
        return False
    db.insert(table, **{key: item_id, "added_at": db.now_iso()})
    return True


def unsave(db: Database, kind: Kind, item_id: str) -> bool:
    """Take an item out of Your Library; False when it wasn't there."""
    table, key, _, _ = LIBRARY[kind]
    if not db.find(table, **{key: item_id}):
        return False
    db.delete(table, item_id)
    return True
