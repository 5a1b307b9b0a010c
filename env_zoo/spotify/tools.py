"""Spotify Web API tools: search and catalog, the user's library, playlists, listening history and top items, and
Spotify Connect playback."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, Unordered, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoTimestamp, NonBlankText, bounded, page_size
from envfactory_gym.values import iso_timestamp, parse_timestamp

from . import player, rules
from .access import me, premium
from .objects import (
    AlbumObject,
    ArtistObject,
    Catalog,
    CurrentUserProfile,
    DeviceObject,
    LibraryItem,
    PlaybackState,
    PlaylistDetail,
    PlaylistObject,
    QueueObject,
    RecentlyPlayed,
    RemoveResult,
    SaveResult,
    SearchResults,
    SnapshotResult,
    TopItem,
)
from .schema import albums, artists, devices, playlists, recently_played, top_items, tracks
from .search import Matcher, parse as parse_query
from .uris import ContextUri, LibraryUri, SpotifyId, TrackUri, base62_id, snapshot_id as snapshot_at, uri

SearchType = Literal["album", "artist", "playlist", "track"]
LibraryType = Literal["tracks", "albums", "artists", "playlists"]
Limit = page_size(rules.MAX_LIMIT)
Offset = bounded(0, rules.MAX_OFFSET)
Position = bounded(0)
RangeLength = bounded(1)
SearchQuery = Annotated[str, Field(min_length=1, pattern=r"\S"), ErrorText("No search query: q is empty.")]
SearchTypes = Annotated[
    list[SearchType],
    Field(min_length=1),
    ErrorText("type must name at least one of album, artist, playlist, track."),
]
PlaylistName = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=100),
    ErrorText("A playlist name must be 1 to 100 characters."),
]
Description = Annotated[str, Field(max_length=300), ErrorText("A playlist description can be at most 300 characters.")]
LibraryUris = Annotated[
    list[LibraryUri],
    Field(min_length=1, max_length=40),
    ErrorText("Give 1 to 40 URIs per request, each spotify:<track|album|artist|playlist>:<22-character base62 id>."),
]
TrackUris = Annotated[
    list[TrackUri],
    Field(min_length=1, max_length=100),
    ErrorText("Give 1 to 100 track URIs per request, each spotify:track:<22-character base62 id>."),
]
Before = Annotated[IsoTimestamp, ErrorText("before must be a UTC timestamp like 2025-09-12T08:00:00Z.")]
DeviceId = Annotated[str, Field(pattern=r"^[0-9a-f]{40}$"), ErrorText("Device not found: a device id is 40 hex digits")]


# ---------------------------------------------------------------- profile, search and catalog


@tool(read_only=True)
def get_current_user_profile(db: Database) -> CurrentUserProfile:
    """Get the signed-in user's profile: Spotify user id, display name, email, country and subscription
    (premium or free)."""
    return Catalog(db).profile(me(db))


@tool(read_only=True)
def search(db: Database, q: SearchQuery, type: SearchTypes, limit: Limit = 20, offset: Offset = 0) -> SearchResults:
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
    catalog = Catalog(db)
    matcher = Matcher(parse_query(q), catalog)
    results: dict[str, Page[Any]] = {}
    if "track" in type:
        found = matcher.rank([t for t in db.find(tracks) if matcher.track(t)], "popularity")
        results["tracks"] = rules.page([catalog.track(t) for t in found], limit, offset)
    if "album" in type:
        found = matcher.rank([a for a in catalog.albums.values() if matcher.album(a)], "popularity")
        results["albums"] = rules.page([catalog.album_ref(a) for a in found], limit, offset)
    if "artist" in type:
        found = matcher.rank([a for a in catalog.artists.values() if matcher.artist(a)], "popularity")
        results["artists"] = rules.page([catalog.artist(a) for a in found], limit, offset)
    if "playlist" in type:
        found = matcher.rank([p for p in db.find(playlists, public=True) if matcher.playlist(p)], "followers_total")
        results["playlists"] = rules.page([catalog.playlist(p) for p in found], limit, offset)
    return SearchResults(**results)


@tool(read_only=True)
def get_album(db: Database, album_id: SpotifyId) -> AlbumObject:
    """Get an album with its label, release date and full track list.

    Args:
        album_id: The album's Spotify ID (the last part of spotify:album:<id>).
    """
    return Catalog(db).album(db.get(albums, album_id, "Album"))


@tool(read_only=True)
def get_artist(db: Database, artist_id: SpotifyId) -> ArtistObject:
    """Get an artist: genres, popularity and follower count.

    Args:
        artist_id: The artist's Spotify ID (the last part of spotify:artist:<id>).
    """
    return Catalog(db).artist(db.get(artists, artist_id, "Artist"))


# ---------------------------------------------------------------- library


@tool(read_only=True)
def get_library(db: Database, type: LibraryType, limit: Limit = 20, offset: Offset = 0) -> Page[LibraryItem]:
    """List what the user has in Your Library, most recently added first: liked songs (tracks), saved albums,
    followed artists, or playlists (their own and the ones they follow).

    Args:
        type: tracks, albums, artists or playlists.
        limit: Items per page, 1 to 50.
        offset: Index of the first item; next_cursor of a page is the next offset.
    """
    kind = type[:-1]
    table = rules.LIBRARY[kind][0]
    page = rules.page(db.select(table, order_by="added_at DESC"), limit, offset)
    catalog = Catalog(db)
    entries = [catalog.library_item(kind, row) for row in page.results]
    return Page[LibraryItem](results=entries, next_cursor=page.next_cursor, has_more=page.has_more)


@tool()
def save_to_library(db: Database, uris: Annotated[LibraryUris, Unordered]) -> SaveResult:
    """Add items to Your Library: like tracks, save albums, follow artists or follow playlists. Items already
    there are left as they are.

    Args:
        uris: 1 to 40 Spotify URIs of tracks, albums, artists or playlists (spotify:track:<id>, ...).
    """
    done = {(kind, item_id): rules.save(db, kind, item_id) for kind, item_id in rules.library_items(uris)}
    return SaveResult(
        saved=[uri(*item) for item, new in done.items() if new],
        already_in_library=[uri(*item) for item, new in done.items() if not new],
    )


@tool()
def remove_from_library(db: Database, uris: Annotated[LibraryUris, Unordered]) -> RemoveResult:
    """Remove items from Your Library: unlike tracks, remove saved albums, unfollow artists or playlists.
    Removing a playlist you own deletes it from your library (Spotify has no other way to delete one).

    Args:
        uris: 1 to 40 Spotify URIs of tracks, albums, artists or playlists.
    """
    done = {(kind, item_id): rules.unsave(db, kind, item_id) for kind, item_id in rules.library_items(uris)}
    return RemoveResult(
        removed=[uri(*item) for item, gone in done.items() if gone],
        not_in_library=[uri(*item) for item, gone in done.items() if not gone],
    )


# ---------------------------------------------------------------- playlists


@tool(read_only=True)
def get_playlist(db: Database, playlist_id: SpotifyId, limit: Limit = 20, offset: Offset = 0) -> PlaylistDetail:
    """Get a playlist with its owner, snapshot_id and one page of its items in order (with their 0-based
    positions). Private playlists are only visible to their owner, collaborators and followers.

    Args:
        playlist_id: The playlist's Spotify ID (the last part of spotify:playlist:<id>).
        limit: Items per page, 1 to 50.
        offset: Position of the first item; next_cursor of a page is the next offset.
    """
    playlist = rules.visible(db, playlist_id)
    return Catalog(db).playlist_detail(playlist, rules.page(rules.items(db, playlist_id), limit, offset))


@tool()
def create_playlist(
    db: Database, name: PlaylistName, description: Description = "", public: bool = True, collaborative: bool = False
) -> PlaylistObject:
    """Create an empty playlist owned by the user (it is added to their library). A collaborative playlist must
    be private.

    Args:
        name: The playlist's name (1 to 100 characters; names need not be unique).
        description: Text shown under the name (at most 300 characters).
        public: Whether it shows on the user's profile and in search.
        collaborative: Whether collaborators can edit it (requires public false).
    """
    rules.check_public(collaborative, public)
    owner = me(db)["user_id"]
    playlist_id = base62_id(db.new_uuid(playlists))
    row = db.insert(
        playlists,
        id=playlist_id,
        name=name,
        description=description,
        owner_id=owner,
        public=public,
        collaborative=collaborative,
        snapshot_id=snapshot_at(playlist_id, 1),
        followers_total=0,
    )
    rules.save(db, "playlist", playlist_id)
    return Catalog(db).playlist(row)


@tool()
def change_playlist_details(
    db: Database,
    playlist_id: SpotifyId,
    name: PlaylistName | None = None,
    description: Description | None = None,
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
    changes = given(name=name, description=description, public=public, collaborative=collaborative)
    if not changes:
        raise InvalidRequest("Nothing to change: give a name, description, public or collaborative.")
    rules.check_public(
        changes.get("collaborative", playlist["collaborative"]), changes.get("public", playlist["public"])
    )
    db.update(playlists, playlist_id, **changes)
    rules.bump(db, playlist_id)
    return Catalog(db).playlist(db.get(playlists, playlist_id))


@tool()
def add_items_to_playlist(
    db: Database, playlist_id: SpotifyId, uris: TrackUris, position: Position | None = None
) -> SnapshotResult:
    """Add tracks to a playlist, at the end or at a position. The owner can, and collaborators of a
    collaborative playlist; the same track may appear more than once. A playlist holds at most 10,000 items.

    Args:
        playlist_id: The playlist's Spotify ID.
        uris: 1 to 100 track URIs (spotify:track:<id>), added in this order.
        position: 0-based index to insert at (0 puts them first); omit to append.
    """
    playlist = rules.editable(db, playlist_id)
    rules.insert_items(db, playlist, rules.track_ids(db, uris), position)
    return SnapshotResult(snapshot_id=rules.bump(db, playlist_id))


@tool()
def remove_playlist_items(
    db: Database,
    playlist_id: SpotifyId,
    uris: Annotated[TrackUris, Unordered],
    snapshot_id: str | None = None,
) -> SnapshotResult:
    """Remove tracks from a playlist: every occurrence of each given track goes. The owner can, and
    collaborators of a collaborative playlist.

    Args:
        playlist_id: The playlist's Spotify ID.
        uris: 1 to 100 track URIs (spotify:track:<id>) that are in the playlist.
        snapshot_id: The version you looked at; the removal is refused if the playlist changed since.
    """
    playlist = rules.editable(db, playlist_id)
    rules.check_snapshot(playlist, snapshot_id)
    rules.remove_tracks(db, playlist, set(rules.track_ids(db, uris)))
    return SnapshotResult(snapshot_id=rules.bump(db, playlist_id))


@tool()
def reorder_playlist_items(
    db: Database,
    playlist_id: SpotifyId,
    range_start: Position,
    insert_before: Position,
    range_length: RangeLength = 1,
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
    if not rules.move_range(db, playlist, range_start, range_length, insert_before):
        return SnapshotResult(snapshot_id=playlist["snapshot_id"])  # already in place
    return SnapshotResult(snapshot_id=rules.bump(db, playlist_id))


# ---------------------------------------------------------------- listening history


@tool(read_only=True)
def get_recently_played(db: Database, limit: Limit = 20, before: Before | None = None) -> RecentlyPlayed:
    """List the tracks the user played most recently (newest first; the last 50 plays are kept).

    Args:
        limit: Plays to return, 1 to 50.
        before: Only plays before this moment (an RFC 3339 timestamp such as 2025-09-12T08:00:00Z); pass the
            `before` of a page to get the next one.
    """
    until = iso_timestamp(parse_timestamp(before, "before", "2025-09-12T08:00:00Z")) if before else None
    rows = db.select(
        recently_played, "played_at < ?" if until else "", [until] if until else [], "played_at DESC", limit + 1
    )
    return Catalog(db).recently_played(rows[:limit], has_more=len(rows) > limit)


@tool(read_only=True)
def get_top_items(
    db: Database,
    type: Literal["artists", "tracks"],
    time_range: Literal["short_term", "medium_term", "long_term"] = "medium_term",
    limit: Limit = 20,
    offset: Offset = 0,
) -> Page[TopItem]:
    """Get the user's top artists or tracks by listening affinity, rank 1 first.

    Args:
        type: artists or tracks.
        time_range: short_term (about the last 4 weeks), medium_term (about 6 months) or long_term (about a year).
        limit: Items per page, 1 to 50.
        offset: Index of the first item; next_cursor of a page is the next offset.
    """
    rows = db.find(top_items, type=type, time_range=time_range, order_by=[top_items.c.rank])
    page = rules.page(rows, limit, offset)
    catalog = Catalog(db)
    results = [catalog.top_item(type, r) for r in page.results]
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
    return player.playback_state(db)


@tool(read_only=True)
def get_queue(db: Database) -> QueueObject:
    """Get the current track and what plays next: tracks the user queued, then the rest of the context."""
    return player.queue(db)


@tool()
def start_resume_playback(
    db: Database,
    device_id: DeviceId | None = None,
    context_uri: ContextUri | None = None,
    uris: TrackUris | None = None,
    offset: Position | TrackUri | None = None,
    position_ms: Position | None = None,
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
    premium(db)
    device = player.target(db, device_id)
    changes = player.load(db, context_uri, uris, offset)
    if not changes:
        player.check_resume(player.state(db), device)
    if position_ms is not None:
        changes["progress_ms"] = player.seek(db, changes.get("track_id") or player.state(db)["track_id"], position_ms)
    player.activate(db, device["id"])
    return player.playback_state(db, player.update(db, device_id=device["id"], is_playing=True, **changes))


@tool()
def pause_playback(db: Database, device_id: DeviceId | None = None) -> PlaybackState:
    """Pause playback. Premium only.

    Args:
        device_id: The device to pause; default the active device.
    """
    premium(db)
    state, device = player.playing_on(db, device_id)
    if not state["is_playing"]:
        raise Conflict(f"Player command failed: Restriction violated (already paused on {device['name']})")
    return player.playback_state(db, player.update(db, is_playing=False))


@tool()
def skip_to_next(db: Database, device_id: DeviceId | None = None) -> PlaybackState:
    """Skip to the next track: the first one the user queued, else the next one of the context (with repeat
    context on, the end of the context wraps to its start). Playback plays on. Premium only.

    Args:
        device_id: The device to skip on; default the active device.
    """
    premium(db)
    state, _ = player.playing_on(db, device_id)
    changes = player.next_track(db, state)
    return player.playback_state(db, player.update(db, progress_ms=0, is_playing=True, **changes))


@tool()
def add_item_to_queue(db: Database, uri: TrackUri, device_id: DeviceId | None = None) -> QueueObject:
    """Add a track to the end of the user's queue (queued tracks play before the rest of the context).
    Premium only.

    Args:
        uri: The track's URI (spotify:track:<id>).
        device_id: The device whose queue to use; default the active device.
    """
    premium(db)
    player.target(db, device_id)
    player.enqueue(db, rules.track_ids(db, [uri])[0])
    return player.queue(db)


# ---------------------------------------------------------------- the user, on their devices


@tool(user_only=True)
def open_spotify_on_device(db: Database, device_name: NonBlankText) -> DeviceObject:
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
