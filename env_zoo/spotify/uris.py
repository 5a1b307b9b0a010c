"""Spotify URIs and ids: their argument types (`spotify:<type>:<id>` with a 22-character base62 id), splitting a URI,
new base62 ids and playlist snapshot ids."""

from __future__ import annotations

import base64
import hashlib
import uuid
from typing import Annotated, Literal, cast

from pydantic import Field

from envfactory_gym.fields import ErrorText

Kind = Literal["track", "album", "artist", "playlist"]
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_ID = "[0-9A-Za-z]{22}"


#: A catalog item's or playlist's Spotify ID (the last part of its URI).
SpotifyId = Annotated[str, Field(pattern=rf"^{_ID}$"), ErrorText("Invalid base62 id: expected 22 characters 0-9A-Za-z")]
#: A track's URI.
TrackUri = Annotated[
    str,
    Field(pattern=rf"^spotify:track:{_ID}$"),
    ErrorText("Invalid URI: expected a track URI, spotify:track:<22-character base62 id>"),
]
#: What a player plays: an album, an artist (their top tracks) or a playlist.
ContextUri = Annotated[
    str,
    Field(pattern=rf"^spotify:(album|artist|playlist):{_ID}$"),
    ErrorText("Invalid URI: expected spotify:album:<id>, spotify:artist:<id> or spotify:playlist:<id>"),
]
#: Something Your Library holds.
LibraryUri = Annotated[
    str,
    Field(pattern=rf"^spotify:(track|album|artist|playlist):{_ID}$"),
    ErrorText(
        "Invalid URI: expected spotify:track:<id>, spotify:album:<id>, spotify:artist:<id> or spotify:playlist:<id>"
    ),
]


def uri(kind: str, item_id: str) -> str:
    """The URI of a catalog item or playlist, e.g. spotify:track:4uLU6hMCjMI75M1A2tKUQC."""
    return f"spotify:{kind}:{item_id}"


def split(value: str) -> tuple[Kind, str]:
    """(type, id) of a URI its argument type has already checked."""
    _, kind, item_id = value.split(":")
    return cast(Kind, kind), item_id


def base62_id(value: str) -> str:
    """A 22-character base62 id from a UUID string (what db.new_uuid gives)."""
    number = uuid.UUID(value).int
    digits = []
    for _ in range(22):
        number, rest = divmod(number, 62)
        digits.append(BASE62[rest])
    return "".join(reversed(digits))


def snapshot_id(playlist_id: str, version: int) -> str:
    """The playlist's snapshot id at `version`: the version number and a digest, base64 (as Spotify's look)."""
    digest = hashlib.sha1(f"{playlist_id}:{version}".encode()).digest()
    return base64.b64encode(version.to_bytes(4, "big") + digest).decode()


def next_snapshot_id(playlist_id: str, current: str) -> str:
    """The snapshot id of the version after `current`."""
    return snapshot_id(playlist_id, int.from_bytes(base64.b64decode(current)[:4], "big") + 1)
