"""The player: a device that is open and controllable, what a context plays, the player row and the queue, and the
playback and queue objects the player tools return."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .objects import Catalog, PlaybackState, QueueObject, context_of
from .rules import items, start_index, track_ids, visible
from .schema import albums, artists, devices, playback, queue_items, tracks
from .uris import Kind, split, uri

ARTIST_CONTEXT_SIZE = 10  # an artist context plays the artist's top tracks
QUEUE_PREVIEW = 20  # upcoming tracks the queue shows


def state(db: Database) -> dict[str, Any]:
    """The player row."""
    return db.get(playback, "player", "Player")


def target(db: Database, device_id: str | None) -> dict[str, Any]:
    """The device a command goes to: `device_id` if given, else the active one; it must accept commands."""
    if device_id is not None:
        device = db.get(devices, device_id, "Device")
        if not device["online"]:
            raise NotFound(f"Device not found: {device['name']} is not available (the Spotify app isn't open on it)")
    else:
        active = db.find(devices, is_active=True, online=True)
        if not active:
            raise NotFound("Player command failed: No active device found")
        device = active[0]
    if device["is_restricted"]:
        raise PermissionDenied(
            f"Player command failed: Restriction violated ({device['name']} can't be controlled from the Web API)"
        )
    return device


def playing_on(db: Database, device_id: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(player, device) for a command on the current playback (pause, next): it must be loaded on that device."""
    device = target(db, device_id)
    player = state(db)
    if player["track_id"] is None or player["device_id"] != device["id"]:
        raise Conflict(f"Player command failed: nothing is loaded on {device['name']}")
    return player, device


def activate(db: Database, device_id: str) -> None:
    """Make `device_id` the active device (playback moves there)."""
    for device in db.find(devices, is_active=True):
        if device["id"] != device_id:
            db.update(devices, device["id"], is_active=False)
    db.update(devices, device_id, is_active=True)


def context_tracks(db: Database, kind: Kind, item_id: str) -> list[str]:
    """The track ids a context plays, in order."""
    if kind == "album":
        db.get(albums, item_id, "Album")
        rows = db.find(tracks, album_id=item_id, order_by=[tracks.c.disc_number, tracks.c.track_number])
        return [t["id"] for t in rows]
    if kind == "playlist":
        return [i["track_id"] for i in items(db, visible(db, item_id)["id"])]
    db.get(artists, item_id, "Artist")
    own = db.select(
        tracks, "json_extract(artist_ids, '$[0]') = ?", [item_id], order_by="popularity DESC", limit=ARTIST_CONTEXT_SIZE
    )
    return [t["id"] for t in own]


def update(db: Database, **values: Any) -> dict[str, Any]:
    """Change the player row, stamping when it changed."""
    return db.update(playback, "player", timestamp=db.now_iso(), **values)


def load(db: Database, context_uri: str | None, uris: list[str] | None, offset: int | str | None) -> dict[str, Any]:
    """The player changes that load a context or a list of tracks at `offset` (none when neither is given)."""
    if context_uri is not None and uris is not None:
        raise InvalidRequest("Give either context_uri or uris, not both.")
    if context_uri is None and uris is None:
        if offset is not None:
            raise InvalidRequest("offset needs a context_uri or uris.")
        return {}
    if context_uri is not None:
        kind, item_id = split(context_uri)
        changes: dict[str, Any] = {"context_uri": uri(kind, item_id), "track_ids": context_tracks(db, kind, item_id)}
    else:
        changes = {"context_uri": None, "track_ids": track_ids(db, uris or [])}
    if not changes["track_ids"]:
        raise InvalidRequest("Nothing to play: the context is empty.")
    index = start_index(changes["track_ids"], offset)
    return {**changes, "current_index": index, "track_id": changes["track_ids"][index], "progress_ms": 0}


def check_resume(player: dict[str, Any], device: dict[str, Any]) -> None:
    """Resuming needs something loaded, and not already playing on that device."""
    if player["track_id"] is None:
        raise Conflict("Player command failed: nothing to resume; give a context_uri or uris.")
    if player["is_playing"] and player["device_id"] == device["id"]:
        raise Conflict(f"Player command failed: Restriction violated (already playing on {device['name']})")


def seek(db: Database, track_id: str, position_ms: int) -> int:
    """A start position within the track's length."""
    duration = db.get(tracks, track_id, "Track")["duration_ms"]
    if position_ms >= duration:
        raise InvalidRequest(f"position_ms must be between 0 and {duration - 1} for this track.")
    return position_ms


def next_track(db: Database, player: dict[str, Any]) -> dict[str, Any]:
    """The player changes of a skip: the first queued track (leaving the queue), else the context's next one (with
    repeat context on, the end wraps to the start)."""
    waiting = queued(db)
    if waiting:
        db.delete(queue_items, waiting[0]["id"])
        return {"track_id": waiting[0]["track_id"]}
    index = player["current_index"] + 1
    if index >= len(player["track_ids"]):
        if player["repeat_state"] != "context":
            raise Conflict("Player command failed: no next track (end of the context and repeat is off)")
        index = 0
    return {"current_index": index, "track_id": player["track_ids"][index]}


def enqueue(db: Database, track_id: str) -> None:
    """Put a track at the end of the user's queue."""
    waiting = queued(db)
    db.insert(
        queue_items,
        id=db.new_id(queue_items, "q_"),
        position=waiting[-1]["position"] + 1 if waiting else 1,
        track_id=track_id,
    )


def queued(db: Database) -> list[dict[str, Any]]:
    """The user's queue in order."""
    return db.find(queue_items, order_by=[queue_items.c.position])


def playback_state(db: Database, row: dict[str, Any] | None = None) -> PlaybackState:
    """The player as the API shows it (from `row`, the player row just written, when given)."""
    catalog = Catalog(db)
    row = row or state(db)
    active = db.find(devices, is_active=True, online=True)
    return PlaybackState(
        device=catalog.device(active[0]) if active else None,
        context=context_of(row["context_uri"]),
        item=catalog.track_by_id(row["track_id"]) if row["track_id"] else None,
        currently_playing_type="track",
        progress_ms=row["progress_ms"],
        is_playing=row["is_playing"],
        shuffle_state=row["shuffle_state"],
        repeat_state=row["repeat_state"],
        timestamp=row["timestamp"],
    )


def queue(db: Database) -> QueueObject:
    """The current track, then what plays next: the user's queue, then the rest of the context."""
    player = state(db)
    catalog = Catalog(db)
    upcoming = [q["track_id"] for q in queued(db)]
    if player["current_index"] is not None:
        upcoming += player["track_ids"][player["current_index"] + 1 :]
    return QueueObject(
        currently_playing=catalog.track_by_id(player["track_id"]) if player["track_id"] else None,
        queue=[catalog.track_by_id(t) for t in upcoming[:QUEUE_PREVIEW]],
    )
