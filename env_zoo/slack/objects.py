"""Slack's API objects as the Web API returns them (auth.test, users, conversations, messages with their thread
summary, user groups, bookmarks, scheduled messages), and how stored rows become them, a page at a time."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import func, select

from envfactory_gym import Database

from .schema import conversations, members, messages, team, users


class AuthTestObject(BaseModel):
    """Whom the token belongs to (auth.test)."""

    url: str
    team: str
    user: str = Field(description="the signed-in user's handle")
    team_id: str
    user_id: str


class UserObject(BaseModel):
    """A workspace member, guest, bot or pending invitee (users.info)."""

    id: str
    name: str
    real_name: str
    display_name: str
    email: str | None
    title: str
    tz: str
    is_admin: bool
    is_owner: bool
    is_restricted: bool = Field(description="a guest account")
    is_ultra_restricted: bool = Field(description="a single-channel guest")
    is_bot: bool
    deleted: bool = Field(description="the account is deactivated")
    is_invited_user: bool = Field(description="invited but has not accepted yet")
    status_text: str
    status_emoji: str
    status_expiration: int = Field(description="Unix time the status clears; 0 = never")


class ConversationObject(BaseModel):
    """A channel, private channel, DM or group DM."""

    id: str
    name: str | None
    is_channel: bool
    is_group: bool
    is_im: bool
    is_mpim: bool
    is_private: bool
    is_archived: bool
    is_general: bool
    is_read_only: bool = Field(description="only Workspace Admins and Owners may post (members may reply in threads)")
    is_member: bool
    created: int
    creator: str
    topic: str
    purpose: str
    num_members: int
    user: str | None = Field(None, description="for a DM, the other person's user ID")


class Reaction(BaseModel):
    """One emoji reaction on a message."""

    name: str
    users: list[str]
    count: int


class UserProfileSummary(BaseModel):
    """Who wrote a message."""

    name: str
    real_name: str
    display_name: str


class EditedObject(BaseModel):
    """Who last edited a message, and when."""

    user: str
    ts: str


class MessageObject(BaseModel):
    """A message as conversations.history returns it."""

    type: Literal["message"] = "message"
    ts: str
    user: str
    user_profile: UserProfileSummary
    text: str
    subtype: str | None = Field(
        None,
        description="tombstone: a deleted thread parent; thread_broadcast: a reply "
        "also sent to the channel; bot_message",
    )
    client_msg_id: str
    thread_ts: str | None = Field(None, description="set on thread replies and on thread parents")
    reply_count: int = 0
    reply_users: list[str] = Field(default_factory=list)
    latest_reply: str | None = None
    reactions: list[Reaction] = Field(default_factory=list)
    pinned_to: list[str] = Field(default_factory=list)
    edited: EditedObject | None = None


class PostMessageResult(BaseModel):
    """The posted (or edited) message and where it is."""

    channel: str
    ts: str
    message: MessageObject


class DeleteResult(BaseModel):
    """The deleted message."""

    channel: str
    ts: str


class ScheduledMessageObject(BaseModel):
    """A message waiting to be posted at post_at."""

    scheduled_message_id: str
    channel: str
    post_at: int
    text: str
    thread_ts: str | None


class UsergroupObject(BaseModel):
    """A user group, mentioned in messages as @handle."""

    id: str
    handle: str
    name: str
    description: str
    users: list[str]
    user_count: int
    prefs_channels: list[str] = Field(description="the group's default channels")
    date_delete: int = Field(description="0 while enabled; when it was disabled otherwise")


class BookmarkObject(BaseModel):
    """A link bookmarked in a channel's header."""

    id: str
    channel_id: str
    title: str
    type: str
    link: str
    emoji: str | None
    created_by: str


# ---------------------------------------------------------------- rows -> objects


def auth_object(db: Database, user: dict[str, Any]) -> AuthTestObject:
    """auth.test's answer for `user` in the workspace."""
    workspace = db.find(team)[0]
    return AuthTestObject(
        url=f"https://{workspace['domain']}.slack.com/",
        team=workspace["name"],
        user=user["name"],
        team_id=workspace["id"],
        user_id=user["id"],
    )


def user_object(row: dict[str, Any]) -> UserObject:
    """A users row as users.info shows it."""
    return UserObject(**{k: row[k] for k in UserObject.model_fields})


_CONVERSATION_FIELDS = [k for k in ConversationObject.model_fields if k in conversations.c]


def _conversation(row: dict[str, Any], count: int, is_member: bool, other: str | None) -> ConversationObject:
    return ConversationObject(
        **{k: row[k] for k in _CONVERSATION_FIELDS},
        is_member=is_member,
        num_members=count,
        user=other if row["is_im"] else None,
    )


def conversation_object(db: Database, row: dict[str, Any], me: dict[str, Any]) -> ConversationObject:
    """One conversation as conversations.info shows it: its member count, whether `me` is in it and, for a DM,
    the other person."""
    people = [m["user_id"] for m in db.find(members, channel_id=row["id"])]
    other = next((p for p in people if p != me["id"]), me["id"])
    return _conversation(row, len(people), me["id"] in people, other)


def conversation_objects(db: Database, rows: list[dict[str, Any]], me: dict[str, Any]) -> list[ConversationObject]:
    """A page of conversations as conversations.list shows them: three queries for the whole page, however long."""
    ids = [row["id"] for row in rows]
    if not ids:
        return []
    counts = dict(
        db.conn.execute(
            select(members.c.channel_id, func.count())
            .where(members.c.channel_id.in_(ids))
            .group_by(members.c.channel_id)
        ).all()
    )
    mine = {m["channel_id"] for m in db.find(members, user_id=me["id"])}
    dms = [row["id"] for row in rows if row["is_im"]]
    others = (
        dict(
            db.conn.execute(
                select(members.c.channel_id, members.c.user_id).where(
                    members.c.channel_id.in_(dms), members.c.user_id != me["id"]
                )
            ).all()
        )
        if dms
        else {}
    )
    return [
        _conversation(row, counts.get(row["id"], 0), row["id"] in mine, others.get(row["id"], me["id"])) for row in rows
    ]


def message_objects(db: Database, rows: list[dict[str, Any]], channel_id: str) -> list[MessageObject]:
    """Messages of one channel with their thread summary, reactions, pins and author profile (one read of the
    channel's messages, whatever the page size, and one key lookup per author)."""
    roots = {row["client_msg_id"] for row in rows if row["parent_msg_id"] is None}
    replies: dict[str, list[dict[str, Any]]] = defaultdict(list)
    if roots:
        for reply in db.find(messages, channel_id=channel_id, order_by=[messages.c.ts]):
            if reply["parent_msg_id"] in roots:
                replies[reply["parent_msg_id"]].append(reply)  # stored ts sort as text in time order
    authors: dict[str, dict[str, Any]] = {}
    out = []
    for row in rows:
        author = authors.get(row["user_id"]) or authors.setdefault(row["user_id"], db.get(users, row["user_id"]))
        thread = replies.get(row["client_msg_id"], [])
        out.append(
            MessageObject(
                ts=row["ts"],
                user=row["user_id"],
                text=row["text"],
                client_msg_id=row["client_msg_id"],
                subtype=row["subtype"] or ("thread_broadcast" if row["reply_broadcast"] else None),
                user_profile=UserProfileSummary(
                    name=author["name"], real_name=author["real_name"], display_name=author["display_name"]
                ),
                thread_ts=row["thread_ts"] or (row["ts"] if thread else None),
                reply_count=len(thread),
                reply_users=list(dict.fromkeys(r["user_id"] for r in thread)),
                latest_reply=thread[-1]["ts"] if thread else None,
                reactions=[Reaction(name=r["name"], users=r["users"], count=len(r["users"])) for r in row["reactions"]],
                pinned_to=[channel_id] if row["pinned_by"] else [],
                edited=EditedObject(user=row["edited_by"], ts=row["edited_ts"]) if row["edited_by"] else None,
            )
        )
    return out


def message_object(db: Database, channel_id: str, row: dict[str, Any]) -> MessageObject:
    """One message, re-read so the answer shows what was stored."""
    return message_objects(db, [db.get(messages, row["client_msg_id"], "Message")], channel_id)[0]


def usergroup_object(row: dict[str, Any]) -> UsergroupObject:
    """A usergroups row as usergroups.list shows it."""
    return UsergroupObject(
        id=row["id"],
        handle=row["handle"],
        name=row["name"],
        description=row["description"],
        users=row["users"],
        user_count=len(row["users"]),
        prefs_channels=row["channels"],
        date_delete=row["date_delete"],
    )


def bookmark_object(row: dict[str, Any]) -> BookmarkObject:
    """A bookmarks row as bookmarks.add returns it."""
    return BookmarkObject(**{k: row[k] for k in BookmarkObject.model_fields})


def scheduled_message_object(row: dict[str, Any]) -> ScheduledMessageObject:
    """A scheduled_messages row as chat.scheduleMessage returns it."""
    return ScheduledMessageObject(
        scheduled_message_id=row["id"],
        channel=row["channel_id"],
        post_at=row["post_at"],
        text=row["text"],
        thread_ts=row["thread_ts"],
    )
