"""Slack Web API methods acting with the signed-in user's token: conversations, messages and threads,
reactions, pins, users, user groups, scheduled messages, bookmarks and the user's status."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import (
    Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, Unordered, paginate, tool,
)

from .schema import (
    auth_sessions, bookmarks, conversations, custom_emoji, members, messages, scheduled_messages, team, usergroups,
    users,
)

MAX_TEXT = 40_000
MAX_STATUS_TEXT = 100
MAX_CHANNEL_NAME = 80
MAX_DISTINCT_REACTIONS = 23
MAX_SCHEDULE_AHEAD = 120 * 24 * 3600
CHANNEL_NAME = re.compile(r"^[a-z0-9_-]+$")
CHANNEL_TYPES = {"public_channel", "private_channel", "mpim", "im"}
EMOJI_ALIASES = {"thumbsup": "+1", "thumbsdown": "-1", "simple_smile": "slightly_smiling_face", "party_popper": "tada"}
STANDARD_EMOJI = frozenset("""
+1 -1 100 airplane alarm_clock arrow_down arrow_up art baby ballot_box_with_check beers bell bike birthday books
boom bug bulb bus cake calendar car cat champagne chart_with_upwards_trend clap cloud coffee computer construction
dog dollar exclamation eyes face_with_thermometer fire gear gift hammer_and_wrench handshake headphones heart
heavy_check_mark heavy_multiplication_x heavy_plus_sign herb hourglass hourglass_flowing_sand house
house_with_garden joy key large_blue_circle large_green_circle large_yellow_circle laughing link lock mag mag_right
medal mega memo microscope moneybag muscle no_entry no_entry_sign ok_hand package paintbrush palm_tree pencil
pencil2 pill pizza point_right point_up pray pushpin question raised_hands red_circle rocket rotating_light
round_pushpin runner running seedling sleeping slightly_smiling_face smile snowflake sob sparkles speech_balloon
spiral_calendar_pad star stethoscope sunny sweat_smile tada test_tube thermometer thinking_face thought_balloon
train trophy umbrella warning wave white_check_mark white_circle wrench writing_hand x zap zzz
""".split())


# ---------------------------------------------------------------- objects

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
    subtype: str | None = Field(None, description="tombstone: a deleted thread parent; thread_broadcast: a reply "
                                                  "also sent to the channel; bot_message")
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


# ---------------------------------------------------------------- helpers

def _epoch(db: Database) -> int:
    return int(db.now().timestamp())


def _new_ts(db: Database) -> str:
    """A message ts from the simulated clock: the session's start time advanced one second per message, with the
    workspace's message sequence as the fraction. It depends on how many messages were created, never on how
    many reads came first, so a conversation can refer to a message it just posted."""
    sequence = db.next_number("slack:ts")
    return f"{int(db.clock.start.timestamp()) + sequence}.{sequence:06d}"


def _ts_key(ts: str) -> tuple[int, int]:
    seconds, _, fraction = ts.partition(".")
    return int(seconds), int(fraction or 0)


def _me(db: Database) -> dict[str, Any]:
    """The user whose token the assistant holds."""
    session = db.current_session(
        auth_sessions, "not_authed: No one is signed in to Slack. Ask the user to sign in first."
    )
    return db.get(users, session["user_id"], "User")


def _is_admin(user: dict[str, Any]) -> bool:
    return bool(user["is_admin"] or user["is_owner"])


def _is_member(db: Database, channel_id: str, user_id: str) -> bool:
    return bool(db.find(members, channel_id=channel_id, user_id=user_id))


def _label(conv: dict[str, Any]) -> str:
    return f"#{conv['name']}" if conv["name"] and not conv["is_mpim"] else "this conversation"


def _user(db: Database, user_id: str) -> dict[str, Any]:
    found = db.find(users, id=user_id)
    if not found:
        raise NotFound(f"user_not_found: Value passed for user was invalid: {user_id}")
    return found[0]


def _visible(db: Database, me: dict[str, Any], channel: str) -> dict[str, Any]:
    """A conversation the user can see: any public channel (guests: only their own), else only as a member."""
    found = db.find(conversations, id=channel)
    conv = found[0] if found else None
    if conv is not None:
        public = conv["is_channel"] and not me["is_restricted"]
        if public or _is_member(db, conv["id"], me["id"]):
            return conv
    raise NotFound(f"channel_not_found: Value passed for channel was invalid or not visible to you: {channel}")


def _open_dm(db: Database, me: dict[str, Any], user_id: str) -> dict[str, Any]:
    """The DM between the signed-in user and `user_id`, opened if it does not exist yet."""
    other = _user(db, user_id)
    if other["deleted"]:
        raise Conflict(f"user_disabled: {other['real_name']}'s account is deactivated.")
    if other["is_invited_user"]:
        raise Conflict(f"cannot_dm_user: {other['real_name']} has not accepted the workspace invitation yet.")
    mine = {m["channel_id"] for m in db.find(members, user_id=me["id"])}
    for conv in db.find(conversations, is_im=True):
        people = {m["user_id"] for m in db.find(members, channel_id=conv["id"])}
        if conv["id"] in mine and people == {me["id"], other["id"]}:
            return conv
    conv = db.insert(
        conversations, id=db.new_id(conversations, "D1", width=8), name=None, is_channel=False, is_group=False,
        is_im=True, is_mpim=False, is_private=True, is_archived=False, is_general=False, is_read_only=False,
        creator=me["id"], created=_epoch(db), topic="", purpose="",
    )
    for person in {me["id"], other["id"]}:
        db.insert(members, channel_id=conv["id"], user_id=person)
    return conv


def _target(db: Database, me: dict[str, Any], channel: str) -> dict[str, Any]:
    """Where to post: a conversation ID, or a user ID for the DM with that person."""
    if channel.startswith("U") and not db.find(conversations, id=channel):
        return _open_dm(db, me, channel)
    return _visible(db, me, channel)


def _writable(db: Database, me: dict[str, Any], conv: dict[str, Any]) -> None:
    if conv["is_archived"]:
        raise Conflict(f"is_archived: {_label(conv)} has been archived.")
    if not _is_member(db, conv["id"], me["id"]):
        raise PermissionDenied(f"not_in_channel: You are not a member of {_label(conv)}. Join it first.")


def _check_text(text: str) -> str:
    if not text.strip():
        raise InvalidRequest("no_text: A message needs text.")
    if len(text) > MAX_TEXT:
        raise InvalidRequest(f"msg_too_long: Messages are limited to {MAX_TEXT} characters.")
    return text


def _message(db: Database, conv: dict[str, Any], ts: str) -> dict[str, Any]:
    found = db.find(messages, channel_id=conv["id"], ts=ts)
    if not found:
        raise NotFound(f"message_not_found: No message with ts {ts} in {_label(conv)}.")
    return found[0]


def _live_message(db: Database, conv: dict[str, Any], ts: str) -> dict[str, Any]:
    row = _message(db, conv, ts)
    if row["subtype"] == "tombstone":
        raise NotFound(f"message_not_found: The message {ts} was deleted.")
    return row


def _thread_root(db: Database, conv: dict[str, Any], thread_ts: str) -> dict[str, Any]:
    found = db.find(messages, channel_id=conv["id"], ts=thread_ts)
    if not found:
        raise NotFound(f"thread_not_found: No message with ts {thread_ts} in {_label(conv)}.")
    if found[0]["parent_msg_id"] is not None:
        raise InvalidRequest("invalid_thread_ts: thread_ts must be the ts of the thread's parent message, not a reply.")
    return found[0]


def _emoji(db: Database, name: str) -> str:
    """A known emoji name without colons (standard, custom or alias), or invalid_name."""
    clean = name.strip().strip(":")
    clean = EMOJI_ALIASES.get(clean, clean)
    if clean in STANDARD_EMOJI or db.find(custom_emoji, name=clean):
        return clean
    raise InvalidRequest(f"invalid_name: :{clean}: is not an emoji in this workspace.")


def _user_object(row: dict[str, Any]) -> UserObject:
    return UserObject(**{k: row[k] for k in UserObject.model_fields})


def _conversation_object(db: Database, conv: dict[str, Any], me: dict[str, Any]) -> ConversationObject:
    people = [m["user_id"] for m in db.find(members, channel_id=conv["id"])]
    other = next((p for p in people if p != me["id"]), me["id"]) if conv["is_im"] else None
    return ConversationObject(
        **{k: conv[k] for k in ConversationObject.model_fields if k in conv},
        is_member=me["id"] in people, num_members=len(people), user=other,
    )


def _message_objects(db: Database, rows: list[dict[str, Any]], channel_id: str) -> list[MessageObject]:
    """Messages with their thread summary, reactions, pins and author profile."""
    replies: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for reply in db.find(messages, messages.c.parent_msg_id.is_not(None), channel_id=channel_id):
        replies[reply["parent_msg_id"]].append(reply)
    authors: dict[str, dict[str, Any]] = {}
    out = []
    for row in rows:
        author = authors.get(row["user_id"]) or authors.setdefault(row["user_id"], db.get(users, row["user_id"]))
        thread = sorted(replies.get(row["client_msg_id"], []), key=lambda r: _ts_key(r["ts"]))
        subtype = row["subtype"] or ("thread_broadcast" if row["reply_broadcast"] else None)
        out.append(MessageObject(
            ts=row["ts"], user=row["user_id"], text=row["text"], subtype=subtype, client_msg_id=row["client_msg_id"],
            user_profile=UserProfileSummary(**{k: author[k] for k in UserProfileSummary.model_fields}),
            thread_ts=row["thread_ts"] or (row["ts"] if thread else None),
            reply_count=len(thread),
            reply_users=list(dict.fromkeys(r["user_id"] for r in thread)),
            latest_reply=thread[-1]["ts"] if thread else None,
            reactions=[Reaction(name=r["name"], users=r["users"], count=len(r["users"])) for r in row["reactions"]],
            pinned_to=[channel_id] if row["pinned_by"] else [],
            edited=EditedObject(user=row["edited_by"], ts=row["edited_ts"]) if row["edited_by"] else None,
        ))
    return out


def _one_message(db: Database, conv: dict[str, Any], ts: str) -> MessageObject:
    return _message_objects(db, [_message(db, conv, ts)], conv["id"])[0]


def _usergroup_object(row: dict[str, Any]) -> UsergroupObject:
    return UsergroupObject(
        id=row["id"], handle=row["handle"], name=row["name"], description=row["description"], users=row["users"],
        user_count=len(row["users"]), prefs_channels=row["channels"], date_delete=row["date_delete"],
    )


def _auth_object(db: Database, user: dict[str, Any]) -> AuthTestObject:
    workspace = db.find(team)[0]
    return AuthTestObject(
        url=f"https://{workspace['domain']}.slack.com/", team=workspace["name"], user=user["name"],
        team_id=workspace["id"], user_id=user["id"],
    )


def _sign_in(db: Database, user: dict[str, Any]) -> None:
    db.conn.execute(auth_sessions.delete())
    db.insert(auth_sessions, id="current", user_id=user["id"], signed_in_at=_epoch(db))


# ---------------------------------------------------------------- user-only: signing in

@tool(user_only=True)
def sign_in(db: Database, email: str) -> AuthTestObject:
    """(User only, in the Slack app) The user signs in with their email and password and approves the two-factor
    prompt on their phone; the assistant then acts with their user token.

    Args:
        email: The user's work email.
    """
    found = db.find(users, email=email.strip().lower())
    if not found:
        raise NotFound("users_not_found: No account in this workspace uses that email.")
    user = found[0]
    if user["deleted"]:
        raise PermissionDenied("account_inactive: This account has been deactivated by a Workspace Admin.")
    if user["is_invited_user"]:
        raise PermissionDenied("invite_pending: Accept the invitation email before signing in.")
    _sign_in(db, user)
    return _auth_object(db, user)


@tool(user_only=True)
def accept_invite(db: Database, email: str, display_name: str = "") -> AuthTestObject:
    """(User only, from the invitation email) An invited person joins the workspace: they choose a password (and a
    display name), land in the workspace's default channels and are signed in.

    Args:
        email: The email the invitation was sent to.
        display_name: The display name they pick; empty keeps none.
    """
    found = db.find(users, email=email.strip().lower())
    if not found:
        raise NotFound("invite_not_found: There is no invitation for that email.")
    user = found[0]
    if not user["is_invited_user"]:
        raise Conflict("already_accepted: This invitation has already been accepted. Sign in instead.")
    user = db.update(users, user["id"], is_invited_user=False, display_name=display_name.strip(),
                     updated=_epoch(db))
    workspace = db.find(team)[0]
    for channel_id in workspace["default_channels"]:
        conv = db.get(conversations, channel_id, "Channel")
        if not conv["is_archived"] and not _is_member(db, channel_id, user["id"]):
            db.insert(members, channel_id=channel_id, user_id=user["id"])
    _sign_in(db, user)
    return _auth_object(db, user)


# ---------------------------------------------------------------- reads

@tool(read_only=True)
def auth_test(db: Database) -> AuthTestObject:
    """Check the token: which workspace and which user the assistant is acting as."""
    return _auth_object(db, _me(db))


@tool(read_only=True)
def conversations_list(
    db: Database,
    types: str = "public_channel",
    exclude_archived: bool = False,
    limit: int = 100,
    cursor: str | None = None,
) -> Page[ConversationObject]:
    """List conversations the user can see, sorted by name (DMs last): public channels, and private channels,
    group DMs and DMs the user is a member of.

    Args:
        types: Comma-separated mix of public_channel, private_channel, mpim, im.
        exclude_archived: Leave archived channels out.
        limit: Results per page, 1 to 1000.
        cursor: The next_cursor of the previous page.
    """
    me = _me(db)
    wanted = {t.strip() for t in types.split(",") if t.strip()}
    if not wanted or wanted - CHANNEL_TYPES:
        raise InvalidRequest(f"invalid_types: types must be a mix of {', '.join(sorted(CHANNEL_TYPES))}")
    mine = {m["channel_id"] for m in db.find(members, user_id=me["id"])}
    found = []
    for conv in db.find(conversations, order_by=[conversations.c.name]):
        kind = ("im" if conv["is_im"] else "mpim" if conv["is_mpim"]
                else "private_channel" if conv["is_private"] else "public_channel")
        visible = conv["id"] in mine or (kind == "public_channel" and not me["is_restricted"])
        if kind in wanted and visible and not (exclude_archived and conv["is_archived"]):
            found.append(conv)
    found.sort(key=lambda c: (c["is_im"], c["name"] or "", c["id"]))
    return paginate([_conversation_object(db, c, me) for c in found], limit, cursor, max_page_size=1000)


@tool(read_only=True)
def conversations_history(
    db: Database,
    channel: str,
    oldest: str | None = None,
    latest: str | None = None,
    limit: int = 100,
    cursor: str | None = None,
) -> Page[MessageObject]:
    """Fetch a conversation's messages, newest first: top-level messages and replies also sent to the channel.
    Thread replies are read with conversations_replies.

    Args:
        channel: The conversation ID.
        oldest: Only messages after this ts (Unix time, e.g. "1736900000").
        latest: Only messages before this ts.
        limit: Results per page, 1 to 999.
        cursor: The next_cursor of the previous page.
    """
    conv = _visible(db, _me(db), channel)
    rows = [r for r in db.find(messages, channel_id=conv["id"]) if r["parent_msg_id"] is None or r["reply_broadcast"]]
    if oldest is not None:
        rows = [r for r in rows if _ts_key(r["ts"]) > _ts_key(oldest)]
    if latest is not None:
        rows = [r for r in rows if _ts_key(r["ts"]) < _ts_key(latest)]
    rows.sort(key=lambda r: _ts_key(r["ts"]), reverse=True)
    page = paginate(rows, limit, cursor, max_page_size=999)
    return Page[MessageObject](results=_message_objects(db, page.results, conv["id"]), next_cursor=page.next_cursor,
                               has_more=page.has_more)


@tool(read_only=True)
def conversations_replies(
    db: Database, channel: str, ts: str, limit: int = 100, cursor: str | None = None
) -> Page[MessageObject]:
    """Fetch a thread: its parent message first, then the replies oldest first.

    Args:
        channel: The conversation ID.
        ts: The ts of the thread's parent message (or of any reply in it).
        limit: Results per page, 1 to 1000.
        cursor: The next_cursor of the previous page.
    """
    conv = _visible(db, _me(db), channel)
    row = _message(db, conv, ts)
    root = db.get(messages, row["parent_msg_id"]) if row["parent_msg_id"] else row
    thread = sorted(db.find(messages, parent_msg_id=root["client_msg_id"]), key=lambda r: _ts_key(r["ts"]))
    page = paginate([root, *thread], limit, cursor, max_page_size=1000)
    return Page[MessageObject](results=_message_objects(db, page.results, conv["id"]), next_cursor=page.next_cursor,
                               has_more=page.has_more)


@tool(read_only=True)
def users_list(db: Database, limit: int = 200, cursor: str | None = None) -> Page[UserObject]:
    """List everyone in the workspace, sorted by handle: members, guests, bots, deactivated accounts and
    pending invitees.

    Args:
        limit: Results per page, 1 to 1000.
        cursor: The next_cursor of the previous page.
    """
    _me(db)
    rows = db.find(users, order_by=[users.c.name])
    return paginate([_user_object(r) for r in rows], limit, cursor, max_page_size=1000)


@tool(read_only=True)
def users_info(db: Database, user: str) -> UserObject:
    """Get one person's profile: names, title, time zone, role and status.

    Args:
        user: The user ID, e.g. from a message's user field.
    """
    _me(db)
    return _user_object(_user(db, user))


@tool(read_only=True)
def users_lookupByEmail(db: Database, email: str) -> UserObject:
    """Find a person by their email address.

    Args:
        email: The email address.
    """
    _me(db)
    found = db.find(users, email=email.strip().lower())
    if not found:
        raise NotFound(f"users_not_found: No user with the email {email}.")
    return _user_object(found[0])


@tool(read_only=True)
def usergroups_list(db: Database, include_disabled: bool = False) -> list[UsergroupObject]:
    """List the workspace's user groups (@handles) with their members and default channels.

    Args:
        include_disabled: Also list disabled groups.
    """
    _me(db)
    rows = db.find(usergroups, order_by=[usergroups.c.handle])
    return [_usergroup_object(r) for r in rows if include_disabled or r["date_delete"] == 0]


# ---------------------------------------------------------------- channels and membership

@tool()
def conversations_create(db: Database, name: str, is_private: bool = False) -> ConversationObject:
    """Create a channel; the user becomes its creator and first member.

    Args:
        name: Channel name: lowercase letters, numbers, hyphens and underscores, at most 80 characters.
        is_private: Create a private channel instead of a public one.
    """
    me = _me(db)
    if me["is_restricted"]:
        raise PermissionDenied("restricted_action: Guests can't create channels.")
    if not name:
        raise InvalidRequest("invalid_name_required: A channel name is required.")
    if len(name) > MAX_CHANNEL_NAME:
        raise InvalidRequest(f"invalid_name_maxlength: Channel names can be at most {MAX_CHANNEL_NAME} characters.")
    if not CHANNEL_NAME.match(name):
        raise InvalidRequest("invalid_name_specials: Channel names can only contain lowercase letters, numbers, "
                             "hyphens and underscores.")
    if db.find(conversations, name=name):
        raise Conflict(f"name_taken: A channel named #{name} already exists (it may be archived).")
    conv = db.insert(
        conversations, id=db.new_id(conversations, "C1", width=8), name=name, is_channel=not is_private,
        is_group=is_private, is_im=False, is_mpim=False, is_private=is_private, is_archived=False, is_general=False,
        is_read_only=False, creator=me["id"], created=_epoch(db), topic="", purpose="",
    )
    db.insert(members, channel_id=conv["id"], user_id=me["id"])
    return _conversation_object(db, conv, me)


@tool()
def conversations_join(db: Database, channel: str) -> ConversationObject:
    """Join a public channel (joining one you are already in changes nothing).

    Args:
        channel: The public channel's ID.
    """
    me = _me(db)
    conv = _visible(db, me, channel)
    if not conv["is_channel"]:
        raise InvalidRequest("method_not_supported_for_channel_type: Only public channels can be joined; "
                             "private channels need an invitation.")
    if conv["is_archived"]:
        raise Conflict(f"is_archived: {_label(conv)} has been archived.")
    if not _is_member(db, conv["id"], me["id"]):
        db.insert(members, channel_id=conv["id"], user_id=me["id"])
    return _conversation_object(db, conv, me)


@tool()
def conversations_invite(db: Database, channel: str, users: Annotated[list[str], Unordered]) -> ConversationObject:
    """Invite people to a channel the user is in (all or none are added).

    Args:
        channel: The channel's ID.
        users: User IDs to add, at most 1000.
    """
    me = _me(db)
    conv = _visible(db, me, channel)
    if conv["is_im"] or conv["is_mpim"]:
        raise InvalidRequest("method_not_supported_for_channel_type: People can't be added to a DM.")
    _writable(db, me, conv)
    if me["is_restricted"]:
        raise PermissionDenied("user_is_restricted: Guests can't invite people to channels.")
    if not users or len(users) > 1000:
        raise InvalidRequest("no_user: Give between 1 and 1000 user IDs.")
    for user_id in dict.fromkeys(users):
        person = _user(db, user_id)
        if person["id"] == me["id"]:
            raise InvalidRequest("cant_invite_self: You are already in this channel.")
        if person["deleted"]:
            raise Conflict(f"cant_invite: {person['real_name']}'s account is deactivated.")
        if person["is_invited_user"]:
            raise Conflict(f"cant_invite: {person['real_name']} has not accepted the workspace invitation yet.")
        if _is_member(db, conv["id"], person["id"]):
            raise Conflict(f"already_in_channel: {person['real_name']} is already in {_label(conv)}.")
        if person["is_ultra_restricted"] and db.find(members, user_id=person["id"]):
            raise Conflict(f"ura_max_channels: {person['real_name']} is a single-channel guest and already in a "
                           "channel.")
        db.insert(members, channel_id=conv["id"], user_id=person["id"])
    return _conversation_object(db, conv, me)


@tool()
def conversations_kick(db: Database, channel: str, user: str) -> ConversationObject:
    """Remove someone from a channel. In public channels only Workspace Admins, Owners and the channel's creator
    may remove people; in private channels any full member may. Nobody can be removed from #general.

    Args:
        channel: The channel's ID.
        user: The user ID to remove.
    """
    me = _me(db)
    conv = _visible(db, me, channel)
    if conv["is_im"] or conv["is_mpim"]:
        raise InvalidRequest("method_not_supported_for_channel_type: People can't be removed from a DM.")
    if conv["is_general"]:
        raise PermissionDenied("cant_kick_from_general: Nobody can be removed from #general.")
    if user == me["id"]:
        raise InvalidRequest("cant_kick_self: Leave the channel instead of removing yourself.")
    _writable(db, me, conv)
    if me["is_restricted"] or (conv["is_channel"] and not _is_admin(me) and conv["creator"] != me["id"]):
        raise PermissionDenied(f"restricted_action: Only Workspace Admins, Owners and the channel's creator can "
                               f"remove people from {_label(conv)}.")
    person = _user(db, user)
    if not _is_member(db, conv["id"], person["id"]):
        raise Conflict(f"not_in_channel: {person['real_name']} is not a member of {_label(conv)}.")
    db.conn.execute(members.delete().where(members.c.channel_id == conv["id"], members.c.user_id == person["id"]))
    return _conversation_object(db, conv, me)


@tool()
def conversations_archive(db: Database, channel: str) -> ConversationObject:
    """Archive a channel the user is in: it becomes read-only and is hidden from the channel list. Only
    Workspace Admins and Owners may archive #general.

    Args:
        channel: The channel's ID.
    """
    me = _me(db)
    conv = _visible(db, me, channel)
    if conv["is_im"] or conv["is_mpim"]:
        raise InvalidRequest("method_not_supported_for_channel_type: DMs can't be archived.")
    if conv["is_archived"]:
        raise Conflict(f"already_archived: {_label(conv)} is already archived.")
    if me["is_restricted"]:
        raise PermissionDenied("restricted_action: Guests can't archive channels.")
    if conv["is_general"] and not _is_admin(me):
        raise PermissionDenied("cant_archive_general: Only Workspace Admins and Owners can archive #general.")
    _writable(db, me, conv)
    return _conversation_object(db, db.update(conversations, conv["id"], is_archived=True), me)


# ---------------------------------------------------------------- messages

@tool()
def chat_postMessage(
    db: Database, channel: str, text: str, thread_ts: str | None = None, reply_broadcast: bool = False
) -> PostMessageResult:
    """Post a message to a conversation the user is in, or reply in a thread. Read-only channels accept
    top-level posts from Workspace Admins and Owners only, but anyone in them may reply in threads.

    Args:
        channel: The conversation ID; for a direct message, the person's user ID (the DM is opened if needed).
        text: The message text (Slack mrkdwn; mention people as <@USERID>), at most 40,000 characters.
        thread_ts: Reply in the thread of this parent message.
        reply_broadcast: With thread_ts, also send the reply to the channel.
    """
    me = _me(db)
    conv = _target(db, me, channel)
    _writable(db, me, conv)
    _check_text(text)
    if reply_broadcast and thread_ts is None:
        raise InvalidRequest("invalid_arguments: reply_broadcast needs a thread_ts.")
    root = _thread_root(db, conv, thread_ts) if thread_ts is not None else None
    if conv["is_read_only"] and root is None and not _is_admin(me):
        raise PermissionDenied(f"restricted_action_read_only_channel: Only Workspace Admins and Owners can post "
                               f"in {_label(conv)}; reply in a thread instead.")
    ts = _new_ts(db)
    db.insert(
        messages, client_msg_id=db.new_uuid(messages), channel_id=conv["id"], ts=ts, user_id=me["id"], text=text,
        subtype=None, parent_msg_id=root["client_msg_id"] if root else None, thread_ts=root["ts"] if root else None,
        reply_broadcast=reply_broadcast, reactions=[], pinned_by=None, edited_by=None, edited_ts=None,
    )
    return PostMessageResult(channel=conv["id"], ts=ts, message=_one_message(db, conv, ts))


@tool()
def chat_update(db: Database, channel: str, ts: str, text: str) -> PostMessageResult:
    """Edit the text of one of the user's own messages (nobody, admins included, can edit someone else's).

    Args:
        channel: The conversation ID.
        ts: The message's ts.
        text: The new text.
    """
    me = _me(db)
    conv = _visible(db, me, channel)
    row = _live_message(db, conv, ts)
    if row["user_id"] != me["id"]:
        raise PermissionDenied("cant_update_message: Only the author of a message can edit it.")
    if conv["is_archived"]:
        raise Conflict(f"is_archived: {_label(conv)} has been archived.")
    _check_text(text)
    db.update(messages, row["client_msg_id"], text=text, edited_by=me["id"], edited_ts=_new_ts(db))
    return PostMessageResult(channel=conv["id"], ts=ts, message=_one_message(db, conv, ts))


@tool()
def chat_delete(db: Database, channel: str, ts: str) -> DeleteResult:
    """Delete a message: the user's own, or anyone's for Workspace Admins and Owners. A thread parent with
    replies leaves a "This message was deleted." placeholder so the thread stays readable.

    Args:
        channel: The conversation ID.
        ts: The message's ts.
    """
    me = _me(db)
    conv = _visible(db, me, channel)
    row = _live_message(db, conv, ts)
    if row["user_id"] != me["id"] and not _is_admin(me):
        raise PermissionDenied("cant_delete_message: You can only delete your own messages.")
    if conv["is_archived"]:
        raise Conflict(f"is_archived: {_label(conv)} has been archived.")
    if db.find(messages, parent_msg_id=row["client_msg_id"]):
        db.update(messages, row["client_msg_id"], subtype="tombstone", text="This message was deleted.",
                  reactions=[], pinned_by=None)
    else:
        db.delete(messages, row["client_msg_id"])
    return DeleteResult(channel=conv["id"], ts=ts)


@tool()
def chat_scheduleMessage(
    db: Database, channel: str, text: str, post_at: int, thread_ts: str | None = None
) -> ScheduledMessageObject:
    """Schedule a message to be posted later, at most 120 days ahead.

    Args:
        channel: The conversation ID; for a direct message, the person's user ID.
        text: The message text.
        post_at: When to post it, as Unix time in seconds (must be in the future).
        thread_ts: Post it as a reply in the thread of this parent message.
    """
    me = _me(db)
    conv = _target(db, me, channel)
    _writable(db, me, conv)
    _check_text(text)
    now = _epoch(db)
    if post_at <= now:
        raise InvalidRequest("time_in_past: post_at must be in the future.")
    if post_at > now + MAX_SCHEDULE_AHEAD:
        raise InvalidRequest("time_too_far: Messages can be scheduled at most 120 days ahead.")
    if thread_ts is not None:
        _thread_root(db, conv, thread_ts)
    elif conv["is_read_only"] and not _is_admin(me):
        raise PermissionDenied(f"restricted_action_read_only_channel: Only Workspace Admins and Owners can post "
                               f"in {_label(conv)}.")
    row = db.insert(
        scheduled_messages, id=db.new_id(scheduled_messages, "Q1", width=8), channel_id=conv["id"],
        user_id=me["id"], text=text, post_at=post_at, thread_ts=thread_ts, date_created=now,
    )
    return ScheduledMessageObject(scheduled_message_id=row["id"], channel=conv["id"], post_at=post_at, text=text,
                                  thread_ts=thread_ts)


# ---------------------------------------------------------------- reactions and pins

@tool()
def reactions_add(db: Database, channel: str, timestamp: str, name: str) -> MessageObject:
    """Add an emoji reaction to a message (once per person and emoji; at most 23 different emoji a message).

    Args:
        channel: The conversation ID.
        timestamp: The message's ts.
        name: The emoji name without colons, e.g. "eyes" or "white_check_mark".
    """
    me = _me(db)
    conv = _visible(db, me, channel)
    _writable(db, me, conv)
    row = _live_message(db, conv, timestamp)
    emoji = _emoji(db, name)
    reactions = [dict(r) for r in row["reactions"]]
    entry = next((r for r in reactions if r["name"] == emoji), None)
    if entry is None:
        if len(reactions) >= MAX_DISTINCT_REACTIONS:
            raise Conflict(f"too_many_emoji: A message can have at most {MAX_DISTINCT_REACTIONS} different emoji.")
        reactions.append({"name": emoji, "users": [me["id"]]})
    elif me["id"] in entry["users"]:
        raise Conflict(f"already_reacted: You already reacted with :{emoji}: to this message.")
    else:
        entry["users"] = [*entry["users"], me["id"]]
    db.update(messages, row["client_msg_id"], reactions=reactions)
    return _one_message(db, conv, timestamp)


@tool()
def reactions_remove(db: Database, channel: str, timestamp: str, name: str) -> MessageObject:
    """Remove the user's own emoji reaction from a message.

    Args:
        channel: The conversation ID.
        timestamp: The message's ts.
        name: The emoji name without colons.
    """
    me = _me(db)
    conv = _visible(db, me, channel)
    if conv["is_archived"]:
        raise Conflict(f"is_archived: {_label(conv)} has been archived.")
    row = _live_message(db, conv, timestamp)
    emoji = _emoji(db, name)
    reactions = [dict(r) for r in row["reactions"]]
    entry = next((r for r in reactions if r["name"] == emoji), None)
    if entry is None or me["id"] not in entry["users"]:
        raise Conflict(f"no_reaction: You haven't reacted with :{emoji}: to this message.")
    entry["users"] = [u for u in entry["users"] if u != me["id"]]
    db.update(messages, row["client_msg_id"], reactions=[r for r in reactions if r["users"]])
    return _one_message(db, conv, timestamp)


@tool()
def pins_add(db: Database, channel: str, timestamp: str) -> MessageObject:
    """Pin a message to its channel so everyone finds it in the channel's pinned items.

    Args:
        channel: The conversation ID.
        timestamp: The message's ts.
    """
    me = _me(db)
    conv = _visible(db, me, channel)
    _writable(db, me, conv)
    row = _message(db, conv, timestamp)
    if row["subtype"] == "tombstone":
        raise InvalidRequest("not_pinnable: A deleted message can't be pinned.")
    if row["pinned_by"]:
        raise Conflict("already_pinned: This message is already pinned.")
    db.update(messages, row["client_msg_id"], pinned_by=me["id"])
    return _one_message(db, conv, timestamp)


# ---------------------------------------------------------------- user groups, bookmarks, status

@tool()
def usergroups_users_update(db: Database, usergroup: str, users: Annotated[list[str], Unordered]) -> UsergroupObject:
    """Replace the whole member list of a user group (pass everyone who should be in it).

    Args:
        usergroup: The user group's ID.
        users: User IDs of all the group's members after the update (at least one).
    """
    me = _me(db)
    if me["is_restricted"]:
        raise PermissionDenied("permission_denied: Guests can't change user groups.")
    found = db.find(usergroups, id=usergroup)
    if not found:
        raise NotFound(f"no_such_subteam: No user group with ID {usergroup}.")
    group = found[0]
    if group["date_delete"]:
        raise Conflict(f"usergroup_disabled: @{group['handle']} is disabled; enable it before changing members.")
    wanted = list(dict.fromkeys(users))
    if not wanted:
        raise InvalidRequest("invalid_users: A user group needs at least one member; disable it instead.")
    for user_id in wanted:
        person = _user(db, user_id)
        if person["deleted"] or person["is_bot"] or person["is_invited_user"]:
            raise InvalidRequest(f"invalid_users: {person['real_name']} can't be in a user group "
                                 "(deactivated, bot or pending invite).")
    row = db.update(usergroups, group["id"], users=sorted(wanted), updated_by=me["id"], date_update=_epoch(db))
    return _usergroup_object(row)


@tool()
def bookmarks_add(
    db: Database, channel_id: str, title: str, link: str, type: Literal["link"] = "link", emoji: str | None = None
) -> BookmarkObject:
    """Bookmark a link in a channel's header.

    Args:
        channel_id: The conversation ID.
        title: The bookmark's title.
        link: The URL (http or https).
        type: The bookmark type; only "link" is supported.
        emoji: An emoji name shown next to the title, e.g. "memo".
    """
    me = _me(db)
    conv = _visible(db, me, channel_id)
    _writable(db, me, conv)
    if not title.strip():
        raise InvalidRequest("invalid_title: A bookmark needs a title.")
    if not re.match(r"^https?://\S+\.\S+", link):
        raise InvalidRequest("invalid_link: The link must be a full http(s) URL.")
    row = db.insert(
        bookmarks, id=db.new_id(bookmarks, "Bk1", width=8), channel_id=conv["id"], title=title.strip(), type=type,
        link=link, emoji=f":{_emoji(db, emoji)}:" if emoji else None, created_by=me["id"], date_created=_epoch(db),
    )
    return BookmarkObject(**{k: row[k] for k in BookmarkObject.model_fields})


@tool()
def users_profile_set(
    db: Database,
    status_text: str | None = None,
    status_emoji: str | None = None,
    status_expiration: int | None = None,
) -> UserObject:
    """Set or clear the user's own status. A status with text but no emoji gets :speech_balloon:; empty text and
    emoji clear it.

    Args:
        status_text: Up to 100 characters; "" clears it.
        status_emoji: An emoji such as ":palm_tree:"; "" clears it.
        status_expiration: Unix time when the status clears itself; 0 for never.
    """
    me = _me(db)
    if status_text is None and status_emoji is None and status_expiration is None:
        raise InvalidRequest("invalid_profile: Give a status_text, status_emoji or status_expiration.")
    text = me["status_text"] if status_text is None else status_text.strip()
    if len(text) > MAX_STATUS_TEXT:
        raise InvalidRequest(f"too_long: status_text can be at most {MAX_STATUS_TEXT} characters.")
    emoji = me["status_emoji"] if status_emoji is None else status_emoji.strip()
    if emoji:
        emoji = f":{_emoji(db, emoji)}:"
    elif text and status_emoji is None:
        emoji = ":speech_balloon:"
    expiration = me["status_expiration"] if status_expiration is None else status_expiration
    if expiration and expiration <= _epoch(db):
        raise InvalidRequest("invalid_expiration: status_expiration must be in the future, or 0 for never.")
    if not text and not emoji:
        expiration = 0
    row = db.update(users, me["id"], status_text=text, status_emoji=emoji, status_expiration=expiration,
                    updated=_epoch(db))
    return _user_object(row)
