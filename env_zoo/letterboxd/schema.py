"""Letterboxd's member-side objects as tables: films; members, who follows or blocks whom, and the signed-in
member's session; log entries (a diary entry has a watched date, a review has text; both may carry a rating in half
stars, a like and a rewatch flag), comments on them; each member's relationship with a film (watched, liked, rated,
in the watchlist); lists and their entries. Ratings are stored as half stars (1-10 = 0.5-5.0 stars); dates are
ISO `YYYY-MM-DD`, timestamps ISO UTC."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

films = Table(
    "films",
    metadata,
    Column("id", String, primary_key=True),  # film LID, e.g. "2b4s"
    Column("name", String, nullable=False),
    Column("release_year", Integer, nullable=False),
    Column("release_date", String, nullable=False),  # first release; a film is unreleased before it
    Column("runtime", Integer, nullable=True),  # minutes
    Column("directors", JSON, nullable=False),
    Column("genres", JSON, nullable=False),
    Column("countries", JSON, nullable=False),
    Column("tagline", String, nullable=True),
    Column("average_rating", Integer, nullable=True),  # hundredths of a star (e.g. 412 = 4.12)
    Index("ix_films_name", "name"),
)

members = Table(
    "members",
    metadata,
    Column("id", String, primary_key=True),  # member LID
    Column("username", String, nullable=False, unique=True),
    Column("display_name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("location", String, nullable=True),
    Column("bio", Text, nullable=True),
    Column("member_status", String, nullable=False),  # Member | Pro | Patron
    Column("favorite_films", JSON, nullable=False),  # up to four film ids, in order
    Column("comments_policy", String, nullable=False),  # Anyone | Friends | You (who may comment on their entries)
    Column("joined", String, nullable=False),
)

member_sessions = Table(
    "member_sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("member_id", String, ForeignKey("members.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

follows = Table(
    "follows",
    metadata,
    Column("id", String, primary_key=True),  # follower id + ":" + followed id
    Column("follower_id", String, ForeignKey("members.id"), nullable=False),
    Column("followed_id", String, ForeignKey("members.id"), nullable=False),
    Column("since", String, nullable=False, info={"volatile": True}),
    Index("ix_follows_follower", "follower_id"),
    Index("ix_follows_followed", "followed_id"),
)

blocks = Table(
    "blocks",
    metadata,
    Column("id", String, primary_key=True),  # blocker id + ":" + blocked id
    Column("blocker_id", String, ForeignKey("members.id"), nullable=False),
    Column("blocked_id", String, ForeignKey("members.id"), nullable=False),
)

film_relationships = Table(
    "film_relationships",
    metadata,
    Column("id", String, primary_key=True),  # member id + ":" + film id
    Column("member_id", String, ForeignKey("members.id"), nullable=False),
    Column("film_id", String, ForeignKey("films.id"), nullable=False),
    Column("watched", Boolean, nullable=False),
    Column("liked", Boolean, nullable=False),
    Column("rating", Integer, nullable=True),  # half stars 1-10
    Column("in_watchlist", Boolean, nullable=False),
    Column("watchlisted_at", String, nullable=True, info={"volatile": True}),
    Index("ix_relationships_member", "member_id"),
    Index("ix_relationships_film", "film_id"),
)

log_entries = Table(
    "log_entries",
    metadata,
    Column("id", String, primary_key=True),  # log entry LID, e.g. "e00042"
    Column("member_id", String, ForeignKey("members.id"), nullable=False),
    Column("film_id", String, ForeignKey("films.id"), nullable=False),
    Column("diary_date", String, nullable=True),  # watched date; None for a review outside the diary
    Column("rewatch", Boolean, nullable=False),
    Column("rating", Integer, nullable=True),  # half stars 1-10
    Column("like", Boolean, nullable=False),
    Column("review", Text, nullable=True),
    Column("contains_spoilers", Boolean, nullable=False),
    Column("tags", JSON, nullable=False),
    Column("when_created", String, nullable=False, info={"volatile": True}),
    Column("when_updated", String, nullable=False, info={"volatile": True}),
    Index("ix_entries_member", "member_id"),
    Index("ix_entries_film", "film_id"),
)

comments = Table(
    "comments",
    metadata,
    Column("id", String, primary_key=True),
    Column("entry_id", String, ForeignKey("log_entries.id"), nullable=False),
    Column("member_id", String, ForeignKey("members.id"), nullable=False),
    Column("text", Text, nullable=False),
    Column("when_created", String, nullable=False, info={"volatile": True}),
    Index("ix_comments_entry", "entry_id"),
)

lists = Table(
    "lists",
    metadata,
    Column("id", String, primary_key=True),  # list LID, e.g. "l0042"
    Column("owner_id", String, ForeignKey("members.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=True),
    Column("ranked", Boolean, nullable=False),
    Column("published", Boolean, nullable=False),
    Column("tags", JSON, nullable=False),
    Column("when_created", String, nullable=False, info={"volatile": True}),
    Column("when_published", String, nullable=True, info={"volatile": True}),
    Index("ix_lists_owner", "owner_id"),
)

list_entries = Table(
    "list_entries",
    metadata,
    Column("id", String, primary_key=True),  # list id + ":" + film id
    Column("list_id", String, ForeignKey("lists.id"), nullable=False),
    Column("film_id", String, ForeignKey("films.id"), nullable=False),
    Column("position", Integer, nullable=False),  # 1-based order (the rank when the list is ranked)
    Column("notes", Text, nullable=True),
    Column("contains_spoilers", Boolean, nullable=False),
    Index("ix_list_entries_list", "list_id"),
)
