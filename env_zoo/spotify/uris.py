"""Spotify URIs and ids: parsing `spotify:<type>:<id>`, new base62 ids and playlist snapshot ids."""

from __future__ import annotations

import base64
import hashlib
import re
import uuid
from typing import Literal

from envfactory_gym import InvalidRequest

Kind = Literal["track", "album", "artist", "playlist"]
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
URI = re.compile(r"^spotify:(track|album|artist|playlist|episode|show|user):([0-9A-Za-z._-]+)$")
ID = re.compile(r"^[0-9A-Za-z]{22}$")


def uri(kind: str, item_id: str) -> str:
    """The URI of a catalog item or playlist, e.g. spotify:track:4uLU6hMCjMI75M1A2tKUQC."""
    return f"spotify:{kind}:{item_id}"


def parse(value: str, allowed: tuple[Kind, ...]) -> tuple[Kind, str]:
    """(type, id) of a Spotify URI whose type is one of `allowed`; InvalidRequest otherwise."""
    match = URI.match(value.strip())
    if not match:
        raise InvalidRequest(f"Invalid URI: {value!r} (expected spotify:<type>:<id>)")
    kind, item_id = match.groups()
    if kind not in allowed:
        raise InvalidRequest(f"Unsupported URI type '{kind}' in {value}: expected {' or '.join(allowed)}")
    if not ID.match(item_id):
        raise InvalidRequest(f"Invalid base62 id in {value}")
    return kind, item_id  # type: ignore[return-value]


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
