"""Player rules: Premium only, a device that is open and controllable, what a context plays, and the player row."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, NotFound, PermissionDenied

from .playlists import items, me, visible
from .schema import albums, artists, devices, playback, tracks
from .uris import Kind

ARTIST_CONTEXT_SIZE = 10  # an artist context plays the artist's top tracks


def premium(db: Database) -> None:
    """Player commands are for Premium accounts only."""
    if me(db)["product"] != "premium":
        raise PermissionDenied("Player command failed: Premium required")


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
    own = [t for t in db.find(tracks) if t["artist_ids"][0] == item_id]
    return [t["id"] for t in sorted(own, key=lambda t: -t["popularity"])[:ARTIST_CONTEXT_SIZE]]


def update(db: Database, **values: Any) -> dict[str, Any]:
    """Change the player row, stamping when it changed."""
    return db.update(playback, "player", timestamp=db.now_iso(), **values)
