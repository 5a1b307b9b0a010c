"""Slack Web API methods acting with the signed-in user's token: conversations, messages and threads,
reactions, pins, users, user groups, scheduled messages, bookmarks and the user's status."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    Page,
    PermissionDenied,
    Unordered,
    paginate,
    tool,
)
from envfactory_gym.database import given
from envfactory_gym.fields import bounded, page_size, text

from . import rules
from .access import by_email, me, person, refuse_guests, sign_in as start_session
from .emoji import emoji_name
from .objects import (
    AuthTestObject,
    BookmarkObject,
    ConversationObject,
    DeleteResult,
    MessageObject,
    PostMessageResult,
    ScheduledMessageObject,
    UsergroupObject,
    UserObject,
    auth_object,
    bookmark_object,
    conversation_object,
    conversation_objects,
    message_object,
    message_objects,
    scheduled_message_object,
    user_object,
    usergroup_object,
)
from .schema import bookmarks, conversations, members, messages, scheduled_messages, team, usergroups, users

_TYPE = f"({'|'.join(rules.CHANNEL_TYPES)})"
ConversationTypes = Annotated[str, Field(pattern=rf"^\s*{_TYPE}\s*(,\s*{_TYPE}\s*)*$")]
ChannelId = Annotated[str, Field(pattern=r"^[CDG][A-Z0-9]{2,}$")]
#: A conversation, or a person's user ID for the DM with them.
Destination = Annotated[str, Field(pattern=r"^[CDGUW][A-Z0-9]{2,}$")]
UserId = Annotated[str, Field(pattern=r"^[UW][A-Z0-9]{2,}$")]
UsergroupId = Annotated[str, Field(pattern=r"^S[A-Z0-9]{2,}$")]
Ts = Annotated[str, Field(pattern=r"^\d{1,10}(\.\d{1,6})?$")]
MessageText = Annotated[str, Field(min_length=1, max_length=rules.MAX_TEXT, pattern=r"\S")]
ChannelName = Annotated[str, Field(min_length=1, max_length=rules.MAX_CHANNEL_NAME, pattern=r"^[a-z0-9_-]+$")]
EmojiName = Annotated[str, Field(pattern=r"^:?[a-z0-9_+-]+:?$")]
StatusEmoji = Annotated[str, Field(pattern=r"^(:?[a-z0-9_+-]+:?)?$")]
StatusText = text(rules.MAX_STATUS_TEXT, min_length=0)
DisplayName = text(80, min_length=0)
Email = Annotated[str, Field(pattern=r"^\s*[^@\s]+@[^@\s]+\.[^@\s]+\s*$")]
Link = Annotated[str, Field(pattern=r"^https?://\S+\.\S+$")]
Title = Annotated[str, Field(min_length=1, pattern=r"\S")]
Invitees = Annotated[list[UserId], Unordered, Field(min_length=1, max_length=rules.MAX_INVITES)]
GroupMembers = Annotated[list[UserId], Unordered, Field(min_length=1)]


# ---------------------------------------------------------------- user-only: signing in


@tool(user_only=True)
def sign_in(db: Database, email: Email) -> AuthTestObject:
    """(User only, in the Slack app) The user signs in with their email and password and approves the two-factor
    prompt on their phone; the assistant then acts with their user token.

    Args:
        email: The user's work email.
    """
    user = by_email(db, email)
    if user is None:
        raise NotFound("users_not_found: No account in this workspace uses that email.")
    if user["deleted"]:
        raise PermissionDenied("account_inactive: This account has been deactivated by a Workspace Admin.")
    if user["is_invited_user"]:
        raise PermissionDenied("invite_pending: Accept the invitation email before signing in.")
    start_session(db, user)
    return auth_object(db, user)


@tool(user_only=True)
def accept_invite(db: Database, email: Email, display_name: DisplayName = "") -> AuthTestObject:
    """(User only, from the invitation email) An invited person joins the workspace: they choose a password (and a
    display name), land in the workspace's default channels and are signed in.

    Args:
        email: The email the invitation was sent to.
        display_name: The display name they pick; empty keeps none.
    """
    user = by_email(db, email)
    if user is None:
        raise NotFound("invite_not_found: There is no invitation for that email.")
    if not user["is_invited_user"]:
        raise Conflict("already_accepted: This invitation has already been accepted. Sign in instead.")
    user = db.update(
        users, user["id"], is_invited_user=False, display_name=display_name.strip(), updated=rules.epoch(db)
    )
    for channel_id in db.find(team)[0]["default_channels"]:
        conv = db.get(conversations, channel_id, "Channel")
        if not conv["is_archived"] and not rules.is_member(db, channel_id, user["id"]):
            db.insert(members, channel_id=channel_id, user_id=user["id"])
    start_session(db, user)
    return auth_object(db, user)


# ---------------------------------------------------------------- reads


@tool(read_only=True)
def auth_test(db: Database) -> AuthTestObject:
    """Check the token: which workspace and which user the assistant is acting as."""
    return auth_object(db, me(db))


@tool(read_only=True)
def conversations_list(
    db: Database,
    types: ConversationTypes = "public_channel",
    exclude_archived: bool = False,
    limit: page_size(1000) = 100,
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
    user = me(db)
    wanted = {t.strip() for t in types.split(",")}
    mine = {m["channel_id"] for m in db.find(members, user_id=user["id"])}
    found = [
        conv
        for conv in db.find(conversations, **given(is_archived=False if exclude_archived else None))
        if rules.kind(conv) in wanted and rules.sees(user, conv, mine)
    ]
    found.sort(key=lambda c: (c["is_im"], c["name"] or "", c["id"]))
    page = paginate(found, limit, cursor, max_page_size=1000)
    return Page[ConversationObject](
        results=conversation_objects(db, page.results, user), next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def conversations_history(
    db: Database,
    channel: ChannelId,
    oldest: Ts | None = None,
    latest: Ts | None = None,
    limit: page_size(999) = 100,
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
    conv = rules.visible(db, me(db), channel)
    low = rules.ts_key(oldest) if oldest is not None else None
    high = rules.ts_key(latest) if latest is not None else None
    rows = [
        r
        for r in reversed(db.find(messages, channel_id=conv["id"], order_by=[messages.c.ts]))
        if (r["parent_msg_id"] is None or r["reply_broadcast"])
        and (low is None or rules.ts_key(r["ts"]) > low)
        and (high is None or rules.ts_key(r["ts"]) < high)
    ]
    page = paginate(rows, limit, cursor, max_page_size=999)
    return Page[MessageObject](
        results=message_objects(db, page.results, conv["id"]), next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def conversations_replies(
    db: Database, channel: ChannelId, ts: Ts, limit: page_size(1000) = 100, cursor: str | None = None
) -> Page[MessageObject]:
    """Fetch a thread: its parent message first, then the replies oldest first.

    Args:
        channel: The conversation ID.
        ts: The ts of the thread's parent message (or of any reply in it).
        limit: Results per page, 1 to 1000.
        cursor: The next_cursor of the previous page.
    """
    conv = rules.visible(db, me(db), channel)
    row = rules.message(db, conv, ts)
    root = db.get(messages, row["parent_msg_id"]) if row["parent_msg_id"] else row
    thread = db.find(messages, parent_msg_id=root["client_msg_id"], order_by=[messages.c.ts])
    page = paginate([root, *thread], limit, cursor, max_page_size=1000)
    return Page[MessageObject](
        results=message_objects(db, page.results, conv["id"]), next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def users_list(db: Database, limit: page_size(1000) = 200, cursor: str | None = None) -> Page[UserObject]:
    """List everyone in the workspace, sorted by handle: members, guests, bots, deactivated accounts and
    pending invitees.

    Args:
        limit: Results per page, 1 to 1000.
        cursor: The next_cursor of the previous page.
    """
    me(db)
    page = paginate(db.find(users, order_by=[users.c.name]), limit, cursor, max_page_size=1000)
    return Page[UserObject](
        results=[user_object(r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def users_info(db: Database, user: UserId) -> UserObject:
    """Get one person's profile: names, title, time zone, role and status.

    Args:
        user: The user ID, e.g. from a message's user field.
    """
    me(db)
    return user_object(person(db, user))


@tool(read_only=True)
def users_lookupByEmail(db: Database, email: Email) -> UserObject:
    """Find a person by their email address.

    Args:
        email: The email address.
    """
    me(db)
    found = by_email(db, email)
    if found is None:
        raise NotFound(f"users_not_found: No user with the email {email.strip()}.")
    return user_object(found)


@tool(read_only=True)
def usergroups_list(db: Database, include_disabled: bool = False) -> list[UsergroupObject]:
    """List the workspace's user groups (@handles) with their members and default channels.

    Args:
        include_disabled: Also list disabled groups.
    """
    me(db)
    rows = db.find(usergroups, order_by=[usergroups.c.handle], **given(date_delete=None if include_disabled else 0))
    return [usergroup_object(r) for r in rows]


# ---------------------------------------------------------------- channels and membership


@tool()
def conversations_create(db: Database, name: ChannelName, is_private: bool = False) -> ConversationObject:
    """Create a channel; the user becomes its creator and first member. Names are unique across the workspace,
    archived channels included.

    Args:
        name: Channel name: lowercase letters, numbers, hyphens and underscores, at most 80 characters.
        is_private: Create a private channel instead of a public one.
    """
    user = me(db)
    refuse_guests(user, "restricted_action: Guests can't create channels.")
    if db.find(conversations, name=name):
        raise Conflict(f"name_taken: A channel named #{name} already exists (it may be archived).")
    conv = db.insert(
        conversations,
        id=db.new_id(conversations, "C1", width=8),
        name=name,
        is_channel=not is_private,
        is_group=is_private,
        is_im=False,
        is_mpim=False,
        is_private=is_private,
        is_archived=False,
        is_general=False,
        is_read_only=False,
        creator=user["id"],
        created=rules.epoch(db),
        topic="",
        purpose="",
    )
    db.insert(members, channel_id=conv["id"], user_id=user["id"])
    return conversation_object(db, conv, user)


@tool()
def conversations_join(db: Database, channel: ChannelId) -> ConversationObject:
    """Join a public channel (joining one you are already in changes nothing).

    Args:
        channel: The public channel's ID.
    """
    user = me(db)
    conv = rules.visible(db, user, channel)
    if not conv["is_channel"]:
        raise InvalidRequest(
            "method_not_supported_for_channel_type: Only public channels can be joined; "
            "private channels need an invitation."
        )
    rules.not_archived(conv)
    if not rules.is_member(db, conv["id"], user["id"]):
        db.insert(members, channel_id=conv["id"], user_id=user["id"])
    return conversation_object(db, conv, user)


@tool()
def conversations_invite(db: Database, channel: ChannelId, users: Invitees) -> ConversationObject:
    """Invite people to a channel the user is in (all or none are added). Guests can't invite anyone, and a
    single-channel guest can only ever be in one channel.

    Args:
        channel: The channel's ID.
        users: User IDs to add, 1 to 1000.
    """
    user = me(db)
    conv = rules.visible(db, user, channel)
    rules.channel_only(conv, "People can't be added to a DM.")
    rules.writable(db, user, conv)
    refuse_guests(user, "user_is_restricted: Guests can't invite people to channels.")
    for user_id in dict.fromkeys(users):
        invitee = rules.invitable(db, user, conv, user_id)
        db.insert(members, channel_id=conv["id"], user_id=invitee["id"])
    return conversation_object(db, conv, user)


@tool()
def conversations_kick(db: Database, channel: ChannelId, user: UserId) -> ConversationObject:
    """Remove someone from a channel. In public channels only Workspace Admins, Owners and the channel's creator
    may remove people; in private channels any full member may. Nobody can be removed from #general.

    Args:
        channel: The channel's ID.
        user: The user ID to remove.
    """
    signed_in = me(db)
    conv = rules.visible(db, signed_in, channel)
    rules.channel_only(conv, "People can't be removed from a DM.")
    rules.writable(db, signed_in, conv)
    rules.may_kick(signed_in, conv, user)
    removed = person(db, user)
    if not rules.is_member(db, conv["id"], removed["id"]):
        raise Conflict(f"not_in_channel: {removed['real_name']} is not a member of {rules.label(conv)}.")
    db.conn.execute(members.delete().where(members.c.channel_id == conv["id"], members.c.user_id == removed["id"]))
    return conversation_object(db, conv, signed_in)


@tool()
def conversations_archive(db: Database, channel: ChannelId) -> ConversationObject:
    """Archive a channel the user is in: it becomes read-only and is hidden from the channel list. Only
    Workspace Admins and Owners may archive #general.

    Args:
        channel: The channel's ID.
    """
    user = me(db)
    conv = rules.visible(db, user, channel)
    rules.channel_only(conv, "DMs can't be archived.")
    rules.may_archive(user, conv)
    rules.writable(db, user, conv)
    return conversation_object(db, db.update(conversations, conv["id"], is_archived=True), user)


# ---------------------------------------------------------------- messages


@tool()
def chat_postMessage(
    db: Database, channel: Destination, text: MessageText, thread_ts: Ts | None = None, reply_broadcast: bool = False
) -> PostMessageResult:
    """Post a message to a conversation the user is in, or reply in a thread. Read-only channels accept
    top-level posts from Workspace Admins and Owners only, but anyone in them may reply in threads.

    Args:
        channel: The conversation ID; for a direct message, the person's user ID (the DM is opened if needed).
        text: The message text (Slack mrkdwn; mention people as <@USERID>), at most 40,000 characters.
        thread_ts: Reply in the thread of this parent message.
        reply_broadcast: With thread_ts, also send the reply to the channel.
    """
    user = me(db)
    conv = rules.target(db, user, channel)
    rules.writable(db, user, conv)
    if reply_broadcast and thread_ts is None:
        raise InvalidRequest("invalid_arguments: reply_broadcast needs a thread_ts.")
    root = rules.thread_root(db, conv, thread_ts) if thread_ts is not None else None
    if root is None:
        rules.may_post_top_level(user, conv)
    row = db.insert(
        messages,
        client_msg_id=db.new_uuid(messages),
        channel_id=conv["id"],
        ts=rules.new_ts(db),
        user_id=user["id"],
        text=text,
        subtype=None,
        parent_msg_id=root["client_msg_id"] if root else None,
        thread_ts=root["ts"] if root else None,
        reply_broadcast=reply_broadcast,
        reactions=[],
        pinned_by=None,
        edited_by=None,
        edited_ts=None,
    )
    return PostMessageResult(channel=conv["id"], ts=row["ts"], message=message_object(db, conv["id"], row))


@tool()
def chat_update(db: Database, channel: ChannelId, ts: Ts, text: MessageText) -> PostMessageResult:
    """Edit the text of one of the user's own messages (nobody, admins included, can edit someone else's).

    Args:
        channel: The conversation ID.
        ts: The message's ts.
        text: The new text, at most 40,000 characters.
    """
    user = me(db)
    conv = rules.visible(db, user, channel)
    row = rules.live_message(db, conv, ts)
    rules.may_edit(user, row)
    rules.not_archived(conv)
    row = db.update(messages, row["client_msg_id"], text=text, edited_by=user["id"], edited_ts=rules.new_ts(db))
    return PostMessageResult(channel=conv["id"], ts=ts, message=message_object(db, conv["id"], row))


@tool()
def chat_delete(db: Database, channel: ChannelId, ts: Ts) -> DeleteResult:
    """Delete a message: the user's own, or anyone's for Workspace Admins and Owners. A thread parent with
    replies leaves a "This message was deleted." placeholder so the thread stays readable.

    Args:
        channel: The conversation ID.
        ts: The message's ts.
    """
    user = me(db)
    conv = rules.visible(db, user, channel)
    row = rules.live_message(db, conv, ts)
    rules.may_delete(user, row)
    rules.not_archived(conv)
    rules.remove(db, row)
    return DeleteResult(channel=conv["id"], ts=ts)


@tool()
def chat_scheduleMessage(
    db: Database, channel: Destination, text: MessageText, post_at: int, thread_ts: Ts | None = None
) -> ScheduledMessageObject:
    """Schedule a message to be posted later, at most 120 days ahead.

    Args:
        channel: The conversation ID; for a direct message, the person's user ID.
        text: The message text, at most 40,000 characters.
        post_at: When to post it, as Unix time in seconds (must be in the future).
        thread_ts: Post it as a reply in the thread of this parent message.
    """
    user = me(db)
    conv = rules.target(db, user, channel)
    rules.writable(db, user, conv)
    rules.schedulable(db, post_at)
    if thread_ts is not None:
        rules.thread_root(db, conv, thread_ts)
    else:
        rules.may_post_top_level(user, conv)
    row = db.insert(
        scheduled_messages,
        id=db.new_id(scheduled_messages, "Q1", width=8),
        channel_id=conv["id"],
        user_id=user["id"],
        text=text,
        post_at=post_at,
        thread_ts=thread_ts,
        date_created=rules.epoch(db),
    )
    return scheduled_message_object(row)


# ---------------------------------------------------------------- reactions and pins


@tool()
def reactions_add(db: Database, channel: ChannelId, timestamp: Ts, name: EmojiName) -> MessageObject:
    """Add an emoji reaction to a message (once per person and emoji; at most 23 different emoji a message).

    Args:
        channel: The conversation ID.
        timestamp: The message's ts.
        name: The emoji name without colons, e.g. "eyes" or "white_check_mark".
    """
    user = me(db)
    conv = rules.visible(db, user, channel)
    rules.writable(db, user, conv)
    row = rules.live_message(db, conv, timestamp)
    reactions = rules.with_reaction(row, emoji_name(db, name), user["id"])
    return message_object(db, conv["id"], db.update(messages, row["client_msg_id"], reactions=reactions))


@tool()
def reactions_remove(db: Database, channel: ChannelId, timestamp: Ts, name: EmojiName) -> MessageObject:
    """Remove the user's own emoji reaction from a message.

    Args:
        channel: The conversation ID.
        timestamp: The message's ts.
        name: The emoji name without colons.
    """
    user = me(db)
    conv = rules.visible(db, user, channel)
    rules.not_archived(conv)
    row = rules.live_message(db, conv, timestamp)
    reactions = rules.without_reaction(row, emoji_name(db, name), user["id"])
    return message_object(db, conv["id"], db.update(messages, row["client_msg_id"], reactions=reactions))


@tool()
def pins_add(db: Database, channel: ChannelId, timestamp: Ts) -> MessageObject:
    """Pin a message to its channel so everyone finds it in the channel's pinned items.

    Args:
        channel: The conversation ID.
        timestamp: The message's ts.
    """
    user = me(db)
    conv = rules.visible(db, user, channel)
    rules.writable(db, user, conv)
    row = rules.message(db, conv, timestamp)
    if row["subtype"] == "tombstone":
        raise InvalidRequest("not_pinnable: A deleted message can't be pinned.")
    if row["pinned_by"]:
        raise Conflict("already_pinned: This message is already pinned.")
    return message_object(db, conv["id"], db.update(messages, row["client_msg_id"], pinned_by=user["id"]))


# ---------------------------------------------------------------- user groups, bookmarks, status


@tool()
def usergroups_users_update(db: Database, usergroup: UsergroupId, users: GroupMembers) -> UsergroupObject:
    """Replace the whole member list of a user group (pass everyone who should be in it). Members are active
    people: no bots, deactivated accounts or pending invitees.

    Args:
        usergroup: The user group's ID.
        users: User IDs of all the group's members after the update (at least one; disable a group to empty it).
    """
    user = me(db)
    refuse_guests(user, "permission_denied: Guests can't change user groups.")
    found = db.find(usergroups, id=usergroup)
    if not found:
        raise NotFound(f"no_such_subteam: No user group with ID {usergroup}.")
    group = found[0]
    if group["date_delete"]:
        raise Conflict(f"usergroup_disabled: @{group['handle']} is disabled; enable it before changing members.")
    row = db.update(
        usergroups,
        group["id"],
        users=rules.group_members(db, users),
        updated_by=user["id"],
        date_update=rules.epoch(db),
    )
    return usergroup_object(row)


@tool()
def bookmarks_add(
    db: Database,
    channel_id: ChannelId,
    title: Title,
    link: Link,
    type: Literal["link"] = "link",
    emoji: EmojiName | None = None,
) -> BookmarkObject:
    """Bookmark a link in a channel's header.

    Args:
        channel_id: The conversation ID.
        title: The bookmark's title.
        link: The full URL (http or https).
        type: The bookmark type; only "link" is supported.
        emoji: An emoji name shown next to the title, e.g. "memo".
    """
    user = me(db)
    conv = rules.visible(db, user, channel_id)
    rules.writable(db, user, conv)
    row = db.insert(
        bookmarks,
        id=db.new_id(bookmarks, "Bk1", width=8),
        channel_id=conv["id"],
        title=title.strip(),
        type=type,
        link=link,
        emoji=f":{emoji_name(db, emoji)}:" if emoji else None,
        created_by=user["id"],
        date_created=rules.epoch(db),
    )
    return bookmark_object(row)


@tool()
def users_profile_set(
    db: Database,
    status_text: StatusText | None = None,
    status_emoji: StatusEmoji | None = None,
    status_expiration: bounded(0) | None = None,
) -> UserObject:
    """Set or clear the user's own status. A status with text but no emoji gets :speech_balloon:; empty text and
    emoji clear it.

    Args:
        status_text: Up to 100 characters; "" clears it.
        status_emoji: An emoji such as ":palm_tree:"; "" clears it.
        status_expiration: Unix time when the status clears itself; 0 for never.
    """
    user = me(db)
    if status_text is None and status_emoji is None and status_expiration is None:
        raise InvalidRequest("invalid_profile: Give a status_text, status_emoji or status_expiration.")
    words = user["status_text"] if status_text is None else status_text.strip()
    emoji = user["status_emoji"] if status_emoji is None else status_emoji
    if emoji:
        emoji = f":{emoji_name(db, emoji)}:"
    elif words and status_emoji is None:
        emoji = ":speech_balloon:"
    expiration = rules.status_expiration(
        db, user["status_expiration"] if status_expiration is None else status_expiration
    )
    row = db.update(
        users,
        user["id"],
        status_text=words,
        status_emoji=emoji,
        status_expiration=expiration if words or emoji else 0,
        updated=rules.epoch(db),
    )
    return user_object(row)
