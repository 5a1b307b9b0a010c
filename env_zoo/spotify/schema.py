"""Spotify's objects as tables: the catalog (artists, albums, tracks), users, their accounts and the access token
the app acts under, playlists and their items, the account's library, devices, the player with its queue, listening
history and top items.
Catalog and playlist ids are Spotify's 22-character base62 ids; times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),  # Spotify user id (a username or a 28-character id)
    Column("display_name", String, nullable=False),
    Column("followers_total", Integer, nullable=False, default=0),
)

accounts = Table(
    "accounts",
    metadata,
    Column("user_id", String, ForeignKey("users.id"), primary_key=True),  # an account's private details
    Column("email", String, nullable=False),
    Column("country", String, nullable=False),  # ISO 3166-1 alpha-2
    Column("product", String, nullable=False),  # premium | free
)

authorizations = Table(
    "authorizations",
    metadata,
    Column("id", String, primary_key=True),  # always "current": the access token the app acts under
    Column("user_id", String, ForeignKey("accounts.user_id"), nullable=False),  # who granted it
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),  # ISO 8601, from db.start_session
)

artists = Table(
    "artists",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("genres", JSON, nullable=False),
    Column("popularity", Integer, nullable=False),  # 0-100
    Column("followers_total", Integer, nullable=False),
)

albums = Table(
    "albums",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("album_type", String, nullable=False),  # album | single | compilation
    Column("artist_ids", JSON, nullable=False),  # ordered, main artist first
    Column("release_date", String, nullable=False),
    Column("release_date_precision", String, nullable=False),  # year | month | day
    Column("label", String, nullable=False),
    Column("popularity", Integer, nullable=False),
)

tracks = Table(
    "tracks",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("album_id", String, ForeignKey("albums.id"), nullable=False),
    Column("artist_ids", JSON, nullable=False),
    Column("disc_number", Integer, nullable=False, default=1),
    Column("track_number", Integer, nullable=False),
    Column("duration_ms", Integer, nullable=False),
    Column("explicit", Boolean, nullable=False, default=False),
    Column("popularity", Integer, nullable=False),
)

playlists = Table(
    "playlists",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("owner_id", String, ForeignKey("users.id"), nullable=False),
    Column("public", Boolean, nullable=False),
    Column("collaborative", Boolean, nullable=False, default=False),
    Column("snapshot_id", String, nullable=False),  # encodes the version number; every edit moves it on
    Column("followers_total", Integer, nullable=False, default=0),
)

playlist_collaborators = Table(
    "playlist_collaborators",
    metadata,
    Column("id", String, primary_key=True),  # <playlist_id>:<user_id>
    Column("playlist_id", String, ForeignKey("playlists.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
)

playlist_items = Table(
    "playlist_items",
    metadata,
    Column("id", String, primary_key=True),  # pli_...
    Column("playlist_id", String, ForeignKey("playlists.id"), nullable=False),
    Column("position", Integer, nullable=False),  # 0-based, contiguous within a playlist
    Column("track_id", String, ForeignKey("tracks.id"), nullable=False),
    Column("added_by", String, ForeignKey("users.id"), nullable=False),
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

saved_tracks = Table(
    "saved_tracks",
    metadata,
    Column("track_id", String, ForeignKey("tracks.id"), primary_key=True),  # Liked Songs
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

saved_albums = Table(
    "saved_albums",
    metadata,
    Column("album_id", String, ForeignKey("albums.id"), primary_key=True),
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

followed_artists = Table(
    "followed_artists",
    metadata,
    Column("artist_id", String, ForeignKey("artists.id"), primary_key=True),
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

followed_playlists = Table(
    "followed_playlists",
    metadata,
    Column("playlist_id", String, ForeignKey("playlists.id"), primary_key=True),  # own playlists included
    Column("added_at", String, nullable=False, info={"volatile": True}),
)

devices = Table(
    "devices",
    metadata,
    Column("id", String, primary_key=True),  # 40 hex characters
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # Computer | Smartphone | Speaker | TV | ...
    Column("online", Boolean, nullable=False),  # the Spotify app is open on it: listed by Get Available Devices
    Column("is_active", Boolean, nullable=False, default=False),
    Column("is_private_session", Boolean, nullable=False, default=False),
    Column("is_restricted", Boolean, nullable=False, default=False),  # accepts no Web API commands
    Column("supports_volume", Boolean, nullable=False, default=True),
    Column("volume_percent", Integer),
)

playback = Table(
    "playback",
    metadata,
    Column("id", String, primary_key=True),  # the single row "player"
    Column("device_id", String, ForeignKey("devices.id")),
    Column("context_uri", String),  # album, artist or playlist being played; None when playing a list of uris
    Column("track_ids", JSON, nullable=False),  # what is being played in order (the context's tracks or the uris)
    Column("current_index", Integer),  # position in track_ids of the last track played from them
    Column("track_id", String, ForeignKey("tracks.id")),  # the current item: track_ids[current_index] or a queued one
    Column("progress_ms", Integer, nullable=False, default=0),
    Column("is_playing", Boolean, nullable=False, default=False),
    Column("shuffle_state", Boolean, nullable=False, default=False),
    Column("repeat_state", String, nullable=False, default="off"),  # off | context | track
    Column("timestamp", String, info={"volatile": True}),
)

queue_items = Table(
    "queue_items",
    metadata,
    Column("id", String, primary_key=True),  # q_...
    Column("position", Integer, nullable=False),
    Column("track_id", String, ForeignKey("tracks.id"), nullable=False),
)

recently_played = Table(
    "recently_played",
    metadata,
    Column("id", String, primary_key=True),
    Column("track_id", String, ForeignKey("tracks.id"), nullable=False),
    Column("played_at", String, nullable=False),
    Column("context_uri", String),
)

top_items = Table(
    "top_items",
    metadata,
    Column("id", String, primary_key=True),  # <type>:<time_range>:<rank>
    Column("type", String, nullable=False),  # artists | tracks
    Column("time_range", String, nullable=False),  # short_term (4 weeks) | medium_term (6 months) | long_term (~1 year)
    Column("rank", Integer, nullable=False),
    Column("item_id", String, nullable=False),
)
