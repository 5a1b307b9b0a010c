"""Spotify Web API tools: search and catalog, the user's library, playlists, listening history and top items, and
Spotify Connect playback."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Sequence, TypeVar

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, Unordered, paginate, tool

from . import player, playlists as rules
from .objects import (
    AlbumObject,
    ArtistObject,
    Catalog,
    CurrentUserProfile,
    DeviceObject,
    LibraryItem,
    PlaybackState,
    PlayHistory,
    PlaylistDetail,
    PlaylistObject,
    QueueObject,
    RecentlyPlayed,
    RemoveResult,
    SaveResult,
    SearchResults,
    SnapshotResult,
    TopItem,
    context_of,
)
from .schema import (
    albums,
    artists,
    devices,
    followed_artists,
    followed_playlists,
    playlist_items,
    playlists,
    queue_items,
    recently_played,
    saved_albums,
    saved_tracks,
    top_items,
    tracks,
    users,
)
from .search import Matcher, parse as parse_query
from .uris import Kind, base62_id, parse as parse_uri, snapshot_id as snapshot_at, uri

T = TypeVar("T")
SearchType = Literal["album", "artist", "playlist", "track"]
LibraryType = Literal["tracks", "albums", "artists", "playlists"]
MAX_LIMIT = 50
MAX_OFFSET = 1000
MAX_LIBRARY_URIS = 40
QUEUE_PREVIEW = 20
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
# library kind -> (table, key column, catalog table, entity name)
LIBRARY = {
    "track": (saved_tracks, "track_id", tracks, "Track"),
    "album": (saved_albums, "album_id", albums, "Album"),
    "artist": (followed_artists, "artist_id", artists, "Artist"),
    "playlist": (followed_playlists, "playlist_id", playlists, "Playlist"),
}


# ---------------------------------------------------------------- helpers


def _page(items: Sequence[T], limit: int, offset: int) -> Page[T]:
    """Spotify's limit/offset paging on top of the runtime's pages (next_cursor is the next offset)."""
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidRequest(f"limit must be between 1 and {MAX_LIMIT}.")
    if not 0 <= offset <= MAX_OFFSET:
        raise InvalidRequest(f"offset must be between 0 and {MAX_OFFSET}.")
    return paginate(items, limit, str(min(offset, len(items))) if offset else None, max_page_size=MAX_LIMIT)


def _library_uris(values: list[str]) -> list[tuple[Kind, str]]:
    """Parsed, de-duplicated library URIs (1 to 40 of them)."""
    if not 1 <= len(values) <= MAX_LIBRARY_URIS:
        raise InvalidRequest(f"Give 1 to {MAX_LIBRARY_URIS} URIs per request.")
    parsed = [parse_uri(v, ("track", "album", "artist", "playlist")) for v in values]
    return list(dict.fromkeys(parsed))


def _track_ids(db: Database, values: list[str]) -> list[str]:
    """Track ids of track URIs, each of which must exist."""
    ids = [parse_uri(v, ("track",))[1] for v in values]
    for track_id in ids:
        db.get(tracks, track_id, "Track")
    return ids


def _playback(db: Database, row: dict[str, Any] | None = None) -> PlaybackState:
    catalog = Catalog(db)
    row = row or player.state(db)
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


def _start_index(track_ids: list[str], offset: int | str | None) -> int:
    """The index playback starts at: a position, or the URI of a track of the list."""
    if offset is None:
        return 0
    if isinstance(offset, int):
        if not 0 <= offset < len(track_ids):
            raise InvalidRequest(f"offset {offset} is out of range: the context has {len(track_ids)} tracks.")
        return offset
    wanted = parse_uri(offset, ("track",))[1]
    if wanted not in track_ids:
        raise InvalidRequest(f"offset {offset} is not in the context.")
    return track_ids.index(wanted)


def _name(name: str) -> str:
    """A valid playlist name, trimmed."""
    clean = name.strip()
    if not 1 <= len(clean) <= 100:
        raise InvalidRequest("A playlist name must be 1 to 100 characters.")
    return clean


def _description(description: str) -> None:
    """Playlist descriptions are at most 300 characters."""
    if len(description) > 300:
        raise InvalidRequest("A playlist description can be at most 300 characters.")


def _queued(db: Database) -> list[dict[str, Any]]:
    """The user's queue in order."""
    return db.find(queue_items, order_by=[queue_items.c.position])


def _queue(db: Database) -> QueueObject:
    """The current track, then what plays next: the user's queue, then the rest of the context."""
    state = player.state(db)
    catalog = Catalog(db)
    upcoming = [q["track_id"] for q in _queued(db)]
    if state["current_index"] is not None:
        upcoming += state["track_ids"][state["current_index"] + 1 :]
    return QueueObject(
        currently_playing=catalog.track_by_id(state["track_id"]) if state["track_id"] else None,
        queue=[catalog.track_by_id(t) for t in upcoming[:QUEUE_PREVIEW]],
    )


# ---------------------------------------------------------------- profile, search and catalog


@tool(read_only=True)
def get_current_user_profile(db: Database) -> CurrentUserProfile:
    """Get the signed-in user's profile: Spotify user id, display name, email, country and subscription
    (premium or free)."""
    mine = rules.me(db)
    user = db.get(users, mine["user_id"], "User")
    return CurrentUserProfile(
        id=user["id"],
        display_name=user["display_name"],
        uri=uri("user", user["id"]),
        email=mine["email"],
        country=mine["country"],
        product=mine["product"],
        followers=user["followers_total"],
    )


@tool(read_only=True)
def search(db: Database, q: str, type: list[SearchType], limit: int = 20, offset: int = 0) -> SearchResults:
    """Search the catalog for tracks, albums, artists and public playlists. Every word of `q` must match (names,
    artists, album titles; accents and case are ignored); field filters narrow it: artist:"Fleetwood Mac",
    album:Rumours, track:Dreams, year:1977 or year:1980-1989, genre:jazz. Best matches first
    (exact name, then popularity).

    Args:
        q: The search query, e.g. `dreams artist:"fleetwood mac"`.
        type: Which item types to search: any of album, artist, playlist, track.
        limit: Results per type, 1 to 50.
        offset: Index of the first result (at most 1000); next_cursor of a page is the next offset.
    """
    if not type:
        raise InvalidRequest("type must name at least one of album, artist, playlist, track.")
    catalog = Catalog(db)
    matcher = Matcher(parse_query(q), catalog)
    results: dict[str, Page[Any]] = {}
    if "track" in type:
        found = matcher.rank([t for t in db.find(tracks) if matcher.track(t)], "popularity")
        results["tracks"] = _page([catalog.track(t) for t in found], limit, offset)
    if "album" in type:
        found = matcher.rank([a for a in catalog.albums.values() if matcher.album(a)], "popularity")
        results["albums"] = _page([catalog.album_ref(a) for a in found], limit, offset)
    if "artist" in type:
        found = matcher.rank([a for a in catalog.artists.values() if matcher.artist(a)], "popularity")
        results["artists"] = _page([catalog.artist(a) for a in found], limit, offset)
    if "playlist" in type:
        found = matcher.rank([p for p in db.find(playlists) if matcher.playlist(p)], "followers_total")
        results["playlists"] = _page([catalog.playlist(p) for p in found], limit, offset)
    return SearchResults(**results)


@tool(read_only=True)
def get_album(db: Database, album_id: str) -> AlbumObject:
    """Get an album with its label, release date and full track list.

    Args:
        album_id: The album's Spotify ID (the last part of spotify:album:<id>).
    """
    return Catalog(db).album(db.get(albums, album_id, "Album"))


@tool(read_only=True)
def get_artist(db: Database, artist_id: str) -> ArtistObject:
    """Get an artist: genres, popularity and follower count.

    Args:
        artist_id: The artist's Spotify ID (the last part of spotify:artist:<id>).
    """
    return Catalog(db).artist(db.get(artists, artist_id, "Artist"))


# ---------------------------------------------------------------- library


@tool(read_only=True)
def get_library(db: Database, type: LibraryType, limit: int = 20, offset: int = 0) -> Page[LibraryItem]:
    """List what the user has in Your Library, most recently added first: liked songs (tracks), saved albums,
    followed artists, or playlists (their own and the ones they follow).

    Args:
        type: tracks, albums, artists or playlists.
        limit: Items per page, 1 to 50.
        offset: Index of the first item; next_cursor of a page is the next offset.
    """
    kind = type[:-1]
    table, key, catalog_table, entity = LIBRARY[kind]
    catalog = Catalog(db)
    rows = sorted(db.find(table), key=lambda r: r["added_at"], reverse=True)
    page = _page(rows, limit, offset)
    entries = [
        LibraryItem(added_at=r["added_at"], **{kind: catalog.item(kind, db.get(catalog_table, r[key], entity))})
        for r in page.results
    ]
    return Page[LibraryItem](results=entries, next_cursor=page.next_cursor, has_more=page.has_more)


@tool()
def save_to_library(db: Database, uris: Annotated[list[str], Unordered]) -> SaveResult:
    """Add items to Your Library: like tracks, save albums, follow artists or follow playlists. Items already
    there are left as they are.

    Args:
        uris: 1 to 40 Spotify URIs of tracks, albums, artists or playlists (spotify:track:<id>, ...).
    """
    saved, already = [], []
    for kind, item_id in _library_uris(uris):
        table, key, catalog_table, entity = LIBRARY[kind]
        if kind == "playlist":
            rules.visible(db, item_id)
        else:
            db.get(catalog_table, item_id, entity)
        if db.find(table, **{key: item_id}):
            already.append(uri(kind, item_id))
            continue
        db.insert(table, **{key: item_id, "added_at": db.now_iso()})
        saved.append(uri(kind, item_id))
    return SaveResult(saved=saved, already_in_library=already)


@tool()
def remove_from_library(db: Database, uris: Annotated[list[str], Unordered]) -> RemoveResult:
    """Remove items from Your Library: unlike tracks, remove saved albums, unfollow artists or playlists.
    Removing a playlist you own deletes it from your library (Spotify has no other way to delete one).

    Args:
        uris: 1 to 40 Spotify URIs of tracks, albums, artists or playlists.
    """
    removed, missing = [], []
    for kind, item_id in _library_uris(uris):
        table, key, _, _ = LIBRARY[kind]
        if not db.find(table, **{key: item_id}):
            missing.append(uri(kind, item_id))
            continue
        db.delete(table, item_id)
        removed.append(uri(kind, item_id))
    return RemoveResult(removed=removed, not_in_library=missing)


# ---------------------------------------------------------------- playlists


@tool(read_only=True)
def get_playlist(db: Database, playlist_id: str, limit: int = 20, offset: int = 0) -> PlaylistDetail:
    """Get a playlist with its owner, snapshot_id and one page of its items in order (with their 0-based
    positions). Private playlists are only visible to their owner, collaborators and followers.

    Args:
        playlist_id: The playlist's Spotify ID (the last part of spotify:playlist:<id>).
        limit: Items per page, 1 to 50.
        offset: Position of the first item; next_cursor of a page is the next offset.
    """
    playlist = rules.visible(db, playlist_id)
    catalog = Catalog(db)
    page = _page(rules.items(db, playlist_id), limit, offset)
    return PlaylistDetail(
        **catalog.playlist(playlist).model_dump(),
        items=Page(
            results=[catalog.playlist_item(i) for i in page.results],
            next_cursor=page.next_cursor,
            has_more=page.has_more,
        ),
    )


@tool()
def create_playlist(
    db: Database, name: str, description: str = "", public: bool = True, collaborative: bool = False
) -> PlaylistObject:
    """Create an empty playlist owned by the user (it is added to their library). A collaborative playlist must
    be private.

    Args:
        name: The playlist's name (1 to 100 characters; names need not be unique).
        description: Text shown under the name (at most 300 characters).
        public: Whether it shows on the user's profile and in search.
        collaborative: Whether collaborators can edit it (requires public false).
    """
    clean = _name(name)
    _description(description)
    if collaborative and public:
        raise InvalidRequest("A collaborative playlist can't be public: set public to false.")
    owner = rules.me(db)["user_id"]
    playlist_id = base62_id(db.new_uuid(playlists))
    row = db.insert(
        playlists,
        id=playlist_id,
        name=clean,
        description=description,
        owner_id=owner,
        public=public,
        collaborative=collaborative,
        snapshot_id=snapshot_at(playlist_id, 1),
        followers_total=0,
    )
    db.insert(followed_playlists, playlist_id=playlist_id, added_at=db.now_iso())
    return Catalog(db).playlist(row)


@tool()
def change_playlist_details(
    db: Database,
    playlist_id: str,
    name: str | None = None,
    description: str | None = None,
    public: bool | None = None,
    collaborative: bool | None = None,
) -> PlaylistObject:
    """Rename a playlist, change its description, or make it public, private or collaborative. Only the owner
    can; a collaborative playlist can't be public.

    Args:
        playlist_id: The playlist's Spotify ID.
        name: The new name (1 to 100 characters).
        description: The new description (at most 300 characters; empty clears it).
        public: true to show it on the profile and in search, false to make it private.
        collaborative: true to let collaborators edit it, false to stop them.
    """
    playlist = rules.owned(db, playlist_id)
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = _name(name)
    if description is not None:
        _description(description)
        changes["description"] = description
    if public is not None:
        changes["public"] = public
    if collaborative is not None:
        changes["collaborative"] = collaborative
    if not changes:
        raise InvalidRequest("Nothing to change: give a name, description, public or collaborative.")
    if changes.get("collaborative", playlist["collaborative"]) and changes.get("public", playlist["public"]):
        raise InvalidRequest("A collaborative playlist can't be public: make it private, or not collaborative.")
    db.update(playlists, playlist_id, **changes)
    rules.bump(db, playlist_id)
    return Catalog(db).playlist(db.get(playlists, playlist_id))


@tool()
def add_items_to_playlist(
    db: Database, playlist_id: str, uris: list[str], position: int | None = None
) -> SnapshotResult:
    """Add tracks to a playlist, at the end or at a position. The owner can, and collaborators of a
    collaborative playlist; the same track may appear more than once. A playlist holds at most 10,000 items.

    Args:
        playlist_id: The playlist's Spotify ID.
        uris: 1 to 100 track URIs (spotify:track:<id>), added in this order.
        position: 0-based index to insert at (0 puts them first); omit to append.
    """
    playlist = rules.editable(db, playlist_id)
    rules.check_batch(uris)
    rules.insert_items(db, playlist, _track_ids(db, uris), position)
    return SnapshotResult(snapshot_id=rules.bump(db, playlist_id))


@tool()
def remove_playlist_items(
    db: Database, playlist_id: str, uris: Annotated[list[str], Unordered], snapshot_id: str | None = None
) -> SnapshotResult:
    """Remove tracks from a playlist: every occurrence of each given track goes. The owner can, and
    collaborators of a collaborative playlist.

    Args:
        playlist_id: The playlist's Spotify ID.
        uris: 1 to 100 track URIs (spotify:track:<id>) that are in the playlist.
        snapshot_id: The version you looked at; the removal is refused if the playlist changed since.
    """
    playlist = rules.editable(db, playlist_id)
    rules.check_batch(uris)
    rules.check_snapshot(playlist, snapshot_id)
    gone = set(_track_ids(db, uris))
    current = rules.items(db, playlist_id)
    missing = gone - {i["track_id"] for i in current}
    if missing:
        raise InvalidRequest(
            f"Could not remove tracks: {', '.join(sorted(uri('track', m) for m in missing))} "
            f"not in '{playlist['name']}'."
        )
    for row in current:
        if row["track_id"] in gone:
            db.delete(playlist_items, row["id"])
    rules.renumber(db, [i for i in current if i["track_id"] not in gone])
    return SnapshotResult(snapshot_id=rules.bump(db, playlist_id))


@tool()
def reorder_playlist_items(
    db: Database,
    playlist_id: str,
    range_start: int,
    insert_before: int,
    range_length: int = 1,
    snapshot_id: str | None = None,
) -> SnapshotResult:
    """Move a run of items within a playlist: the `range_length` items starting at `range_start` go before the
    item now at `insert_before` (positions are 0-based; insert_before equal to the item count moves them to
    the end). The owner can, and collaborators of a collaborative playlist.

    Args:
        playlist_id: The playlist's Spotify ID.
        range_start: Position of the first item to move.
        insert_before: Position (in the current order) the items are moved in front of.
        range_length: How many consecutive items to move.
        snapshot_id: The version you looked at; the move is refused if the playlist changed since.
    """
    playlist = rules.editable(db, playlist_id)
    rules.check_snapshot(playlist, snapshot_id)
    current = rules.items(db, playlist_id)
    end = range_start + range_length
    if (
        range_length < 1
        or not 0 <= range_start < len(current)
        or end > len(current)
        or not 0 <= insert_before <= len(current)
    ):
        raise InvalidRequest(f"Index out of bounds: '{playlist['name']}' has {len(current)} items.")
    if range_start <= insert_before <= end:
        return SnapshotResult(snapshot_id=playlist["snapshot_id"])  # already in place
    moved, rest = current[range_start:end], current[:range_start] + current[end:]
    at = insert_before if insert_before < range_start else insert_before - range_length
    rules.renumber(db, rest[:at] + moved + rest[at:])
    return SnapshotResult(snapshot_id=rules.bump(db, playlist_id))


# ---------------------------------------------------------------- listening history


@tool(read_only=True)
def get_recently_played(db: Database, limit: int = 20, before: str | None = None) -> RecentlyPlayed:
    """List the tracks the user played most recently (newest first; the last 50 plays are kept).

    Args:
        limit: Plays to return, 1 to 50.
        before: Only plays before this moment (an RFC 3339 UTC timestamp such as 2025-09-12T08:00:00Z); pass the
            `before` of a page to get the next one.
    """
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidRequest(f"limit must be between 1 and {MAX_LIMIT}.")
    if before is not None and not TIMESTAMP.match(before):
        raise InvalidRequest("before must be a UTC timestamp like 2025-09-12T08:00:00Z.")
    rows = db.find(recently_played, order_by=[recently_played.c.played_at.desc()])
    rows = [r for r in rows if before is None or r["played_at"] < before]
    catalog = Catalog(db)
    shown = rows[:limit]
    return RecentlyPlayed(
        items=[
            PlayHistory(
                track=catalog.track_by_id(r["track_id"]), played_at=r["played_at"], context=context_of(r["context_uri"])
            )
            for r in shown
        ],
        before=shown[-1]["played_at"] if len(rows) > limit else None,
        has_more=len(rows) > limit,
    )


@tool(read_only=True)
def get_top_items(
    db: Database,
    type: Literal["artists", "tracks"],
    time_range: Literal["short_term", "medium_term", "long_term"] = "medium_term",
    limit: int = 20,
    offset: int = 0,
) -> Page[TopItem]:
    """Get the user's top artists or tracks by listening affinity, rank 1 first.

    Args:
        type: artists or tracks.
        time_range: short_term (about the last 4 weeks), medium_term (about 6 months) or long_term (about a year).
        limit: Items per page, 1 to 50.
        offset: Index of the first item; next_cursor of a page is the next offset.
    """
    rows = db.find(top_items, type=type, time_range=time_range, order_by=[top_items.c.rank])
    page = _page(rows, limit, offset)
    catalog = Catalog(db)
    results = [
        TopItem(rank=r["rank"], artist=catalog.artist(catalog.artists[r["item_id"]]))
        if type == "artists"
        else TopItem(rank=r["rank"], track=catalog.track_by_id(r["item_id"]))
        for r in page.results
    ]
    return Page[TopItem](results=results, next_cursor=page.next_cursor, has_more=page.has_more)


# ---------------------------------------------------------------- player


@tool(read_only=True)
def get_available_devices(db: Database) -> list[DeviceObject]:
    """List the user's Spotify Connect devices where the Spotify app is open now, with which one is active."""
    catalog = Catalog(db)
    return [catalog.device(d) for d in db.find(devices, online=True, order_by=[devices.c.name])]


@tool(read_only=True)
def get_playback_state(db: Database) -> PlaybackState:
    """Get the player: the active device, the current track and its progress, whether it is playing, the context
    (album, artist or playlist) and the shuffle and repeat modes."""
    return _playback(db)


@tool(read_only=True)
def get_queue(db: Database) -> QueueObject:
    """Get the current track and what plays next: tracks the user queued, then the rest of the context."""
    return _queue(db)


@tool()
def start_resume_playback(
    db: Database,
    device_id: str | None = None,
    context_uri: str | None = None,
    uris: list[str] | None = None,
    offset: int | str | None = None,
    position_ms: int | None = None,
) -> PlaybackState:
    """Start playing an album, artist or playlist (context_uri) or a list of tracks (uris), or with neither
    resume what is loaded. Naming a device_id moves playback to that device. Premium only.

    Args:
        device_id: The device to play on (from get_available_devices); default the active device.
        context_uri: An album, artist or playlist URI to play, e.g. spotify:album:<id>.
        uris: Track URIs to play in order, instead of a context.
        offset: Where to start in the context or uris: a 0-based position, or the URI of one of its tracks.
        position_ms: Where to start in the first track, in milliseconds.
    """
    player.premium(db)
    device = player.target(db, device_id)
    state = player.state(db)
    if context_uri is not None and uris is not None:
        raise InvalidRequest("Give either context_uri or uris, not both.")
    changes: dict[str, Any] = {}
    if context_uri is not None:
        kind, item_id = parse_uri(context_uri, ("album", "artist", "playlist"))
        changes = {"context_uri": uri(kind, item_id), "track_ids": player.context_tracks(db, kind, item_id)}
    elif uris is not None:
        if not uris:
            raise InvalidRequest("uris must hold at least one track URI.")
        changes = {"context_uri": None, "track_ids": _track_ids(db, uris)}
    if changes:
        if not changes["track_ids"]:
            raise InvalidRequest("Nothing to play: the context is empty.")
        index = _start_index(changes["track_ids"], offset)
        changes.update(current_index=index, track_id=changes["track_ids"][index], progress_ms=0)
    else:
        if offset is not None:
            raise InvalidRequest("offset needs a context_uri or uris.")
        if state["track_id"] is None:
            raise Conflict("Player command failed: nothing to resume; give a context_uri or uris.")
        if state["is_playing"] and state["device_id"] == device["id"]:
            raise Conflict(f"Player command failed: Restriction violated (already playing on {device['name']})")
    track = db.get(tracks, changes.get("track_id", state["track_id"]), "Track")
    if position_ms is not None:
        if not 0 <= position_ms < track["duration_ms"]:
            raise InvalidRequest(f"position_ms must be between 0 and {track['duration_ms'] - 1} for this track.")
        changes["progress_ms"] = position_ms
    player.activate(db, device["id"])
    return _playback(db, player.update(db, device_id=device["id"], is_playing=True, **changes))


@tool()
def pause_playback(db: Database, device_id: str | None = None) -> PlaybackState:
    """Pause playback. Premium only.

    Args:
        device_id: The device to pause; default the active device.
    """
    player.premium(db)
    state, device = player.playing_on(db, device_id)
    if not state["is_playing"]:
        raise Conflict(f"Player command failed: Restriction violated (already paused on {device['name']})")
    return _playback(db, player.update(db, is_playing=False))


@tool()
def skip_to_next(db: Database, device_id: str | None = None) -> PlaybackState:
    """Skip to the next track: the first one the user queued, else the next one of the context (with repeat
    context on, the end of the context wraps to its start). Playback plays on. Premium only.

    Args:
        device_id: The device to skip on; default the active device.
    """
    player.premium(db)
    state, _ = player.playing_on(db, device_id)
    queued = _queued(db)
    if queued:
        db.delete(queue_items, queued[0]["id"])
        changes: dict[str, Any] = {"track_id": queued[0]["track_id"]}
    else:
        index = state["current_index"] + 1
        if index >= len(state["track_ids"]):
            if state["repeat_state"] != "context":
                raise Conflict("Player command failed: no next track (end of the context and repeat is off)")
            index = 0
        changes = {"current_index": index, "track_id": state["track_ids"][index]}
    return _playback(db, player.update(db, progress_ms=0, is_playing=True, **changes))


@tool()
def add_item_to_queue(db: Database, uri: str, device_id: str | None = None) -> QueueObject:
    """Add a track to the end of the user's queue (queued tracks play before the rest of the context).
    Premium only.

    Args:
        uri: The track's URI (spotify:track:<id>).
        device_id: The device whose queue to use; default the active device.
    """
    player.premium(db)
    player.target(db, device_id)
    track_id = _track_ids(db, [uri])[0]
    queued = _queued(db)
    db.insert(
        queue_items,
        id=db.new_id(queue_items, "q_"),
        position=queued[-1]["position"] + 1 if queued else 1,
        track_id=track_id,
    )
    return _queue(db)


# ---------------------------------------------------------------- the user, on their devices


@tool(user_only=True)
def open_spotify_on_device(db: Database, device_name: str) -> DeviceObject:
    """(User only, on the device itself) Open the Spotify app on one of your devices, or wake the speaker, so
    that it appears in the available devices and can be played on.

    Args:
        device_name: The device's name as the app shows it, e.g. "Office Echo Dot".
    """
    wanted = device_name.strip().casefold()
    found = [d for d in db.find(devices) if d["name"].casefold() == wanted]
    if not found:
        raise NotFound(f"No device called '{device_name}' is signed in to this Spotify account")
    return Catalog(db).device(db.update(devices, found[0]["id"], online=True))
