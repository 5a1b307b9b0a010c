"""Slack's objects as tables: the team, users and the signed-in session, conversations (channels, private
channels, DMs, group DMs) with their members, messages with threads/reactions/pins, user groups, scheduled
messages, bookmarks and custom emoji. Times are Unix epoch seconds; message ts are Slack-style strings, ten
digits of seconds, a dot and six digits ("1736932800.000100"), so they sort as text in time order."""

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

team = Table(
    "team",
    metadata,
    Column("id", String, primary_key=True),  # T...
    Column("name", String, nullable=False),
    Column("domain", String, nullable=False),  # <domain>.slack.com
    Column("default_channels", JSON, nullable=False, default=list),  # channel ids new members join
)

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),  # U...
    Column("name", String, nullable=False, unique=True),  # the handle, e.g. "maya.chen"
    Column("real_name", String, nullable=False),
    Column("display_name", String, nullable=False, default=""),
    Column("email", String, nullable=True, unique=True),  # null for bots
    Column("title", String, nullable=False, default=""),
    Column("tz", String, nullable=False),  # IANA zone, e.g. "America/New_York"
    Column("is_admin", Boolean, nullable=False, default=False),
    Column("is_owner", Boolean, nullable=False, default=False),
    Column("is_restricted", Boolean, nullable=False, default=False),  # guest (multi-channel or single-channel)
    Column("is_ultra_restricted", Boolean, nullable=False, default=False),  # single-channel guest
    Column("is_bot", Boolean, nullable=False, default=False),
    Column("deleted", Boolean, nullable=False, default=False),  # deactivated account
    Column("is_invited_user", Boolean, nullable=False, default=False),  # invitation not accepted yet
    Column("has_2fa", Boolean, nullable=False, default=False),
    Column("status_text", String, nullable=False, default=""),
    Column("status_emoji", String, nullable=False, default=""),
    Column("status_expiration", Integer, nullable=False, default=0),  # epoch seconds, 0 = never
    Column("updated", Integer, nullable=False, info={"volatile": True}),
)

auth_sessions = Table(
    "auth_sessions",
    metadata,
    Column("id", String, primary_key=True),  # always "current": whose user token the assistant holds
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),  # ISO 8601, from db.start_session
)

conversations = Table(
    "conversations",
    metadata,
    Column("id", String, primary_key=True),  # C... channels (public or private), D... DMs, G... group DMs
    Column("name", String, nullable=True, unique=True),  # null for DMs; "mpdm-a--b--c-1" for group DMs
    Column("is_channel", Boolean, nullable=False),  # public channel
    Column("is_group", Boolean, nullable=False),  # private channel
    Column("is_im", Boolean, nullable=False),
    Column("is_mpim", Boolean, nullable=False),
    Column("is_private", Boolean, nullable=False),
    Column("is_archived", Boolean, nullable=False, default=False),
    Column("is_general", Boolean, nullable=False, default=False),
    Column("is_read_only", Boolean, nullable=False, default=False),  # only admins and owners may post
    Column("creator", String, ForeignKey("users.id"), nullable=False),
    Column("created", Integer, nullable=False, info={"volatile": True}),
    Column("topic", String, nullable=False, default=""),
    Column("purpose", String, nullable=False, default=""),
)

members = Table(
    "members",
    metadata,
    Column("channel_id", String, ForeignKey("conversations.id"), primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), primary_key=True),
)

messages = Table(
    "messages",
    metadata,
    Column("client_msg_id", String, primary_key=True),
    Column("channel_id", String, ForeignKey("conversations.id"), nullable=False),
    # "1736932800.000100": derived from the clock, so left out of state comparison (the row key is stable)
    Column("ts", String, nullable=False, info={"volatile": True}),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("text", Text, nullable=False),
    Column("subtype", String, nullable=True),  # null | bot_message | tombstone (deleted thread parent)
    Column("parent_msg_id", String, ForeignKey("messages.client_msg_id"), nullable=True),  # thread root of a reply
    Column("thread_ts", String, nullable=True, info={"volatile": True}),  # the root's ts, for replies
    Column("reply_broadcast", Boolean, nullable=False, default=False),  # reply also sent to the channel
    Column("reactions", JSON, nullable=False, default=list),  # [{"name": "eyes", "users": ["U..."]}]
    Column("pinned_by", String, ForeignKey("users.id"), nullable=True),
    Column("edited_by", String, ForeignKey("users.id"), nullable=True),
    Column("edited_ts", String, nullable=True, info={"volatile": True}),
    UniqueConstraint("channel_id", "ts"),
)

usergroups = Table(
    "usergroups",
    metadata,
    Column("id", String, primary_key=True),  # S...
    Column("handle", String, nullable=False, unique=True),  # mentioned as @handle
    Column("name", String, nullable=False),
    Column("description", String, nullable=False, default=""),
    Column("users", JSON, nullable=False, default=list),  # member user ids
    Column("channels", JSON, nullable=False, default=list),  # default channels of the group
    Column("created_by", String, ForeignKey("users.id"), nullable=False),
    Column("updated_by", String, ForeignKey("users.id"), nullable=False),
    Column("date_create", Integer, nullable=False),
    Column("date_update", Integer, nullable=False, info={"volatile": True}),
    Column("date_delete", Integer, nullable=False, default=0),  # 0 = enabled, else when it was disabled
)

scheduled_messages = Table(
    "scheduled_messages",
    metadata,
    Column("id", String, primary_key=True),  # Q...
    Column("channel_id", String, ForeignKey("conversations.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("text", Text, nullable=False),
    Column("post_at", Integer, nullable=False),
    Column("thread_ts", String, nullable=True),  # a reply to a thread whose root already exists
    Column("date_created", Integer, nullable=False, info={"volatile": True}),
)

bookmarks = Table(
    "bookmarks",
    metadata,
    Column("id", String, primary_key=True),  # Bk...
    Column("channel_id", String, ForeignKey("conversations.id"), nullable=False),
    Column("title", String, nullable=False),
    Column("type", String, nullable=False, default="link"),
    Column("link", String, nullable=False),
    Column("emoji", String, nullable=True),
    Column("created_by", String, ForeignKey("users.id"), nullable=False),
    Column("date_created", Integer, nullable=False, info={"volatile": True}),
)

custom_emoji = Table(
    "custom_emoji",
    metadata,
    Column("name", String, primary_key=True),
    Column("url", String, nullable=True),
    Column("alias_for", String, nullable=True),  # an alias points at another emoji name
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
)
