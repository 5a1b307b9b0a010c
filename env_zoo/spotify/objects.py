"""Spotify's API objects as output models, and how stored rows become them."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database, Page

from .rules import LIBRARY
from .schema import albums, artists, playlist_items, tracks, users
from .uris import uri


class ArtistRef(BaseModel):
    """A simplified artist, as embedded in tracks and albums."""

    id: str
    name: str


class ArtistObject(ArtistRef):
    """A full artist."""

    uri: str
    genres: list[str]
    popularity: int = Field(description="0-100, from how much the artist's tracks are played lately")
    followers: int


class AlbumBrief(BaseModel):
    """The album a track is on."""

    id: str
    name: str
    release_date: str


class AlbumRef(BaseModel):
    """A simplified album."""

    id: str
    name: str
    uri: str
    album_type: str = Field(description="album, single or compilation")
    release_date: str
    total_tracks: int
    artists: list[ArtistRef]


class AlbumTrack(BaseModel):
    """A track as listed on its album."""

    id: str
    name: str
    uri: str
    track_number: int
    duration_ms: int
    explicit: bool
    artists: list[ArtistRef]


class AlbumObject(AlbumRef):
    """A full album with its tracks."""

    release_date_precision: str = Field(description="year, month or day")
    label: str
    popularity: int
    tracks: list[AlbumTrack]


class TrackObject(BaseModel):
    """A track with its artists and album."""

    id: str
    name: str
    uri: str
    artists: list[ArtistRef]
    album: AlbumBrief
    duration_ms: int
    explicit: bool
    popularity: int


class UserRef(BaseModel):
    """A user's public profile."""

    id: str
    display_name: str
    uri: str


class CurrentUserProfile(UserRef):
    """The signed-in user's profile, with the private fields only they can see."""

    email: str
    country: str
    product: str = Field(description="premium or free; the player can only be controlled with premium")
    followers: int


class PlaylistObject(BaseModel):
    """A playlist without its items."""

    id: str
    name: str
    description: str
    uri: str
    owner: UserRef
    public: bool
    collaborative: bool = Field(description="collaborators may add, remove and reorder items")
    snapshot_id: str = Field(description="the playlist's version; changes with every edit")
    followers: int
    tracks_total: int


class PlaylistItem(BaseModel):
    """An entry of a playlist."""

    position: int = Field(description="0-based index in the playlist")
    added_at: str
    added_by: str = Field(description="the Spotify user id of who added it")
    track: TrackObject


class PlaylistDetail(PlaylistObject):
    """A playlist with one page of its items."""

    items: Page[PlaylistItem]


class SnapshotResult(BaseModel):
    """The playlist's new version after an edit."""

    snapshot_id: str


class LibraryItem(BaseModel):
    """Something in the user's library: exactly one of track, album, artist or playlist is set."""

    added_at: str
    track: TrackObject | None = None
    album: AlbumRef | None = None
    artist: ArtistObject | None = None
    playlist: PlaylistObject | None = None


class SaveResult(BaseModel):
    """What saving to the library did."""

    saved: list[str] = Field(description="URIs newly added to the library")
    already_in_library: list[str]


class RemoveResult(BaseModel):
    """What removing from the library did."""

    removed: list[str]
    not_in_library: list[str]


class DeviceObject(BaseModel):
    """A Spotify Connect device where the app is open."""

    id: str
    name: str
    type: str
    is_active: bool
    is_private_session: bool
    is_restricted: bool = Field(description="true when the device accepts no Web API commands")
    supports_volume: bool
    volume_percent: int | None


class Context(BaseModel):
    """What a track is being played from."""

    type: str = Field(description="album, artist or playlist")
    uri: str


class PlaybackState(BaseModel):
    """The player: device, what is playing and from which context."""

    device: DeviceObject | None = Field(description="the active device; null when none is active")
    context: Context | None
    item: TrackObject | None
    currently_playing_type: str
    progress_ms: int
    is_playing: bool
    shuffle_state: bool
    repeat_state: str = Field(description="off, context or track")
    timestamp: str | None


class QueueObject(BaseModel):
    """The current track and what plays next: the user's queue first, then the rest of the context."""

    currently_playing: TrackObject | None
    queue: list[TrackObject]


class PlayHistory(BaseModel):
    """A play of a track."""

    track: TrackObject
    played_at: str
    context: Context | None


class RecentlyPlayed(BaseModel):
    """Recently played tracks, newest first."""

    items: list[PlayHistory]
    before: str | None = Field(description="pass as `before` to get older plays; null at the end")
    has_more: bool


class TopItem(BaseModel):
    """One of the user's top artists or tracks: exactly one of artist and track is set."""

    rank: int
    artist: ArtistObject | None = None
    track: TrackObject | None = None


class SearchResults(BaseModel):
    """One page of results per requested type."""

    tracks: Page[TrackObject] | None = None
    albums: Page[AlbumRef] | None = None
    artists: Page[ArtistObject] | None = None
    playlists: Page[PlaylistObject] | None = None


def context_of(context_uri: str | None) -> Context | None:
    """The context object of a context URI."""
    return Context(type=context_uri.split(":")[1], uri=context_uri) if context_uri else None


class Catalog:
    """Turns rows into objects within one tool call, loading artists, albums and users once."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @cached_property
    def artists(self) -> dict[str, dict[str, Any]]:
        return {a["id"]: a for a in self.db.find(artists)}

    @cached_property
    def albums(self) -> dict[str, dict[str, Any]]:
        return {a["id"]: a for a in self.db.find(albums)}

    @cached_property
    def album_sizes(self) -> dict[str, int]:
        sizes: dict[str, int] = {}
        for t in self.db.find(tracks):
            sizes[t["album_id"]] = sizes.get(t["album_id"], 0) + 1
        return sizes

    @cached_property
    def users(self) -> dict[str, dict[str, Any]]:
        return {u["id"]: u for u in self.db.find(users)}

    def artist_refs(self, ids: list[str]) -> list[ArtistRef]:
        return [ArtistRef(id=i, name=self.artists[i]["name"]) for i in ids]

    def artist(self, row: dict[str, Any]) -> ArtistObject:
        return ArtistObject(
            id=row["id"],
            name=row["name"],
            uri=uri("artist", row["id"]),
            genres=row["genres"],
            popularity=row["popularity"],
            followers=row["followers_total"],
        )

    def album_ref(self, row: dict[str, Any]) -> AlbumRef:
        return AlbumRef(
            id=row["id"],
            name=row["name"],
            uri=uri("album", row["id"]),
            album_type=row["album_type"],
            release_date=row["release_date"],
            total_tracks=self.album_sizes.get(row["id"], 0),
            artists=self.artist_refs(row["artist_ids"]),
        )

    def album(self, row: dict[str, Any]) -> AlbumObject:
        listing = self.db.find(tracks, album_id=row["id"], order_by=[tracks.c.disc_number, tracks.c.track_number])
        return AlbumObject(
            **self.album_ref(row).model_dump(),
            release_date_precision=row["release_date_precision"],
            label=row["label"],
            popularity=row["popularity"],
            tracks=[
                AlbumTrack(
                    id=t["id"],
                    name=t["name"],
                    uri=uri("track", t["id"]),
                    track_number=t["track_number"],
                    duration_ms=t["duration_ms"],
                    explicit=t["explicit"],
                    artists=self.artist_refs(t["artist_ids"]),
                )
                for t in listing
            ],
        )

    def track(self, row: dict[str, Any]) -> TrackObject:
        album = self.albums[row["album_id"]]
        return TrackObject(
            id=row["id"],
            name=row["name"],
            uri=uri("track", row["id"]),
            artists=self.artist_refs(row["artist_ids"]),
            album=AlbumBrief(id=album["id"], name=album["name"], release_date=album["release_date"]),
            duration_ms=row["duration_ms"],
            explicit=row["explicit"],
            popularity=row["popularity"],
        )

    def track_by_id(self, track_id: str) -> TrackObject:
        return self.track(self.db.get(tracks, track_id, "Track"))

    def user_ref(self, user_id: str) -> UserRef:
        return UserRef(id=user_id, display_name=self.users[user_id]["display_name"], uri=uri("user", user_id))

    def playlist(self, row: dict[str, Any]) -> PlaylistObject:
        return PlaylistObject(
            id=row["id"],
            name=row["name"],
            description=row["description"],
            uri=uri("playlist", row["id"]),
            owner=self.user_ref(row["owner_id"]),
            public=row["public"],
            collaborative=row["collaborative"],
            snapshot_id=row["snapshot_id"],
            followers=row["followers_total"],
            tracks_total=len(self.db.find(playlist_items, playlist_id=row["id"])),
        )

    def playlist_item(self, row: dict[str, Any]) -> PlaylistItem:
        return PlaylistItem(
            position=row["position"],
            added_at=row["added_at"],
            added_by=row["added_by"],
            track=self.track_by_id(row["track_id"]),
        )

    def item(self, kind: str, row: dict[str, Any]) -> TrackObject | AlbumRef | ArtistObject | PlaylistObject:
        """A library item's object: a track, an album, an artist or a playlist."""
        convert = {"track": self.track, "album": self.album_ref, "artist": self.artist, "playlist": self.playlist}
        return convert[kind](row)

    def device(self, row: dict[str, Any]) -> DeviceObject:
        return DeviceObject(**{k: v for k, v in row.items() if k in DeviceObject.model_fields})

    def profile(self, account: dict[str, Any]) -> CurrentUserProfile:
        """The signed-in user's profile from their account row."""
        user = self.users[account["user_id"]]
        return CurrentUserProfile(
            id=user["id"],
            display_name=user["display_name"],
            uri=uri("user", user["id"]),
            email=account["email"],
            country=account["country"],
            product=account["product"],
            followers=user["followers_total"],
        )

    def library_item(self, kind: str, row: dict[str, Any]) -> LibraryItem:
        """An entry of Your Library (a saved_* or followed_* row) with its item."""
        _, key, catalog_table, entity = LIBRARY[kind]
        return LibraryItem(
            added_at=row["added_at"], **{kind: self.item(kind, self.db.get(catalog_table, row[key], entity))}
        )

    def playlist_detail(self, row: dict[str, Any], items: Page[dict[str, Any]]) -> PlaylistDetail:
        """A playlist with one page of its item rows."""
        return PlaylistDetail(
            **self.playlist(row).model_dump(),
            items=Page(
                results=[self.playlist_item(i) for i in items.results],
                next_cursor=items.next_cursor,
                has_more=items.has_more,
            ),
        )

    def recently_played(self, rows: list[dict[str, Any]], has_more: bool) -> RecentlyPlayed:
        """A page of plays, newest first; `before` is the oldest shown when there are older ones."""
        return RecentlyPlayed(
            items=[
                PlayHistory(
                    track=self.track_by_id(r["track_id"]),
                    played_at=r["played_at"],
                    context=context_of(r["context_uri"]),
                )
                for r in rows
            ],
            before=rows[-1]["played_at"] if has_more else None,
            has_more=has_more,
        )

    def top_item(self, kind: str, row: dict[str, Any]) -> TopItem:
        """A top artist or track with its rank."""
        if kind == "artists":
            return TopItem(rank=row["rank"], artist=self.artist(self.artists[row["item_id"]]))
        return TopItem(rank=row["rank"], track=self.track_by_id(row["item_id"]))
