"""Slack's message and channel rules shared by the tools: which conversations a user sees and may write in
(membership, archived and read-only channels, guests), message ts and lookups, who may edit or delete a message,
threads and broadcasts, reactions, DMs, channel membership changes, scheduling windows, user group members and
statuses."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .access import is_admin, is_guest, person
from .schema import conversations, members, messages

MAX_TEXT = 40_000
MAX_STATUS_TEXT = 100
MAX_CHANNEL_NAME = 80
MAX_INVITES = 1000
MAX_DISTINCT_REACTIONS = 23
MAX_SCHEDULE_DAYS = 120
CHANNEL_TYPES = ("public_channel", "private_channel", "mpim", "im")
DELETED_TEXT = "This message was deleted."


# ---------------------------------------------------------------- time and ts


def epoch(db: Database) -> int:
    """The simulated clock as Unix seconds."""
    return int(db.now().timestamp())


def new_ts(db: Database) -> str:
    """A message ts from the simulated clock: the session's start time advanced one second per message, with the
    workspace's message sequence as the fraction. It depends on how many messages were created, never on how
    many reads came first, so a conversation can refer to a message it just posted."""
    sequence = db.next_number("slack:ts")
    return f"{int(db.clock.start.timestamp()) + sequence}.{sequence:06d}"


def ts_key(ts: str) -> tuple[int, int]:
    """A ts (or a bare Unix time) as a sortable (seconds, fraction) pair."""
    seconds, _, fraction = ts.partition(".")
    return int(seconds), int(fraction.ljust(6, "0") or 0)


# ---------------------------------------------------------------- conversations


def label(conv: dict[str, Any]) -> str:
    """How errors name a conversation: #name, or "this conversation" for DMs and group DMs."""
    return f"#{conv['name']}" if conv["name"] and not conv["is_mpim"] else "this conversation"


def kind(conv: dict[str, Any]) -> str:
    """The conversations.list type of a conversation: public_channel, private_channel, mpim or im."""
    return (
        "im"
        if conv["is_im"]
        else "mpim"
        if conv["is_mpim"]
        else "private_channel"
        if conv["is_private"]
        else "public_channel"
    )


def is_member(db: Database, channel_id: str, user_id: str) -> bool:
    """Whether `user_id` is in the conversation."""
    return bool(db.find(members, channel_id=channel_id, user_id=user_id))


def sees(me: dict[str, Any], conv: dict[str, Any], mine: set[str]) -> bool:
    """Public channels are visible to every full member; everything else (and everything, for guests) only to
    members. `mine` holds the IDs of the conversations `me` is in."""
    return conv["id"] in mine or (conv["is_channel"] and not is_guest(me))


def visible(db: Database, me: dict[str, Any], channel: str) -> dict[str, Any]:
    """A conversation the user can see; channel_not_found for one that does not exist or is hidden."""
    found = db.find(conversations, id=channel)
    if found:
        conv = found[0]
        mine = {conv["id"]} if is_member(db, conv["id"], me["id"]) else set()
        if sees(me, conv, mine):
            return conv
    raise NotFound(f"channel_not_found: Value passed for channel was invalid or not visible to you: {channel}")


def open_dm(db: Database, me: dict[str, Any], user_id: str) -> dict[str, Any]:
    """The DM between the signed-in user and `user_id`, opened if it does not exist yet."""
    other = person(db, user_id)
    if other["deleted"]:
        raise Conflict(f"user_disabled: {other['real_name']}'s account is deactivated.")
    if other["is_invited_user"]:
        raise Conflict(f"cannot_dm_user: {other['real_name']} has not accepted the workspace invitation yet.")
    people = sorted({me["id"], other["id"]})
    shared = {c["id"] for c in db.find(conversations, is_im=True)}
    for person_id in people:
        shared &= {m["channel_id"] for m in db.find(members, user_id=person_id)}
    for channel_id in sorted(shared):  # a DM holds exactly its people (a DM with yourself: only you)
        if len(db.find(members, channel_id=channel_id)) == len(people):
            return db.get(conversations, channel_id, "Conversation")
    conv = db.insert(
        conversations,
        id=db.new_id(conversations, "D1", width=8),
        name=None,
        is_channel=False,
        is_group=False,
        is_im=True,
        is_mpim=False,
        is_private=True,
        is_archived=False,
        is_general=False,
        is_read_only=False,
        creator=me["id"],
        created=epoch(db),
        topic="",
        purpose="",
    )
    for user in people:
        db.insert(members, channel_id=conv["id"], user_id=user)
    return conv


def target(db: Database, me: dict[str, Any], channel: str) -> dict[str, Any]:
    """Where to post: a conversation ID, or a user ID for the DM with that person."""
    if channel.startswith(("U", "W")) and not db.find(conversations, id=channel):
        return open_dm(db, me, channel)
    return visible(db, me, channel)


def not_archived(conv: dict[str, Any]) -> None:
    """Archived conversations are read-only."""
    if conv["is_archived"]:
        raise Conflict(f"is_archived: {label(conv)} has been archived.")


def writable(db: Database, me: dict[str, Any], conv: dict[str, Any]) -> None:
    """Writing in a conversation needs it open and the user in it."""
    not_archived(conv)
    if not is_member(db, conv["id"], me["id"]):
        raise PermissionDenied(f"not_in_channel: You are not a member of {label(conv)}. Join it first.")


def channel_only(conv: dict[str, Any], action: str) -> None:
    """Membership changes and archiving apply to channels, never to DMs or group DMs."""
    if conv["is_im"] or conv["is_mpim"]:
        raise InvalidRequest(f"method_not_supported_for_channel_type: {action}")


def may_post_top_level(me: dict[str, Any], conv: dict[str, Any]) -> None:
    """Read-only channels take top-level posts from Workspace Admins and Owners only (anyone may reply)."""
    if conv["is_read_only"] and not is_admin(me):
        raise PermissionDenied(
            f"restricted_action_read_only_channel: Only Workspace Admins and Owners can post "
            f"in {label(conv)}; reply in a thread instead."
        )


# ---------------------------------------------------------------- messages


def message(db: Database, conv: dict[str, Any], ts: str) -> dict[str, Any]:
    """The message with this ts in the conversation (a deleted thread parent's placeholder included)."""
    return db.find_one(
        messages,
        channel_id=conv["id"],
        ts=ts,
        not_found=f"message_not_found: No message with ts {ts} in {label(conv)}.",
    )


def live_message(db: Database, conv: dict[str, Any], ts: str) -> dict[str, Any]:
    """A message that has not been deleted."""
    row = message(db, conv, ts)
    if row["subtype"] == "tombstone":
        raise NotFound(f"message_not_found: The message {ts} was deleted.")
    return row


def thread_root(db: Database, conv: dict[str, Any], thread_ts: str) -> dict[str, Any]:
    """The parent message a reply goes under: a top-level message, never a reply."""
    found = db.find(messages, channel_id=conv["id"], ts=thread_ts)
    if not found:
        raise NotFound(f"thread_not_found: No message with ts {thread_ts} in {label(conv)}.")
    if found[0]["parent_msg_id"] is not None:
        raise InvalidRequest("invalid_thread_ts: thread_ts must be the ts of the thread's parent message, not a reply.")
    return found[0]


def may_edit(me: dict[str, Any], row: dict[str, Any]) -> None:
    """Only a message's author can edit it; admins included, nobody else can."""
    if row["user_id"] != me["id"]:
        raise PermissionDenied("cant_update_message: Only the author of a message can edit it.")


def may_delete(me: dict[str, Any], row: dict[str, Any]) -> None:
    """Authors delete their own messages; Workspace Admins and Owners anyone's."""
    if row["user_id"] != me["id"] and not is_admin(me):
        raise PermissionDenied("cant_delete_message: You can only delete your own messages.")


def remove(db: Database, row: dict[str, Any]) -> None:
    """Delete a message; a thread parent with replies leaves a placeholder so the thread stays readable."""
    if db.find(messages, parent_msg_id=row["client_msg_id"]):
        db.update(messages, row["client_msg_id"], subtype="tombstone", text=DELETED_TEXT, reactions=[], pinned_by=None)
    else:
        db.delete(messages, row["client_msg_id"])


def with_reaction(row: dict[str, Any], emoji: str, user_id: str) -> list[dict[str, Any]]:
    """The message's reactions after `user_id` adds `emoji`: once per person and emoji, at most 23 emoji."""
    reactions = [dict(r) for r in row["reactions"]]
    entry = next((r for r in reactions if r["name"] == emoji), None)
    if entry is None:
        if len(reactions) >= MAX_DISTINCT_REACTIONS:
            raise Conflict(f"too_many_emoji: A message can have at most {MAX_DISTINCT_REACTIONS} different emoji.")
        return [*reactions, {"name": emoji, "users": [user_id]}]
    if user_id in entry["users"]:
        raise Conflict(f"already_reacted: You already reacted with :{emoji}: to this message.")
    entry["users"] = [*entry["users"], user_id]
    return reactions


def without_reaction(row: dict[str, Any], emoji: str, user_id: str) -> list[dict[str, Any]]:
    """The message's reactions after `user_id` takes back their `emoji` (an emoji nobody uses any more goes)."""
    reactions = [dict(r) for r in row["reactions"]]
    entry = next((r for r in reactions if r["name"] == emoji), None)
    if entry is None or user_id not in entry["users"]:
        raise Conflict(f"no_reaction: You haven't reacted with :{emoji}: to this message.")
    entry["users"] = [u for u in entry["users"] if u != user_id]
    return [r for r in reactions if r["users"]]


def schedulable(db: Database, post_at: int) -> None:
    """A scheduled message goes out in the future, at most 120 days ahead."""
    now = epoch(db)
    if post_at <= now:
        raise InvalidRequest("time_in_past: post_at must be in the future.")
    if post_at > now + MAX_SCHEDULE_DAYS * 86_400:
        raise InvalidRequest(f"time_too_far: Messages can be scheduled at most {MAX_SCHEDULE_DAYS} days ahead.")


# ---------------------------------------------------------------- channel membership


def invitable(db: Database, me: dict[str, Any], conv: dict[str, Any], user_id: str) -> dict[str, Any]:
    """Someone who can be added to the channel: an active account not in it yet, and a single-channel guest only
    while they are in no channel."""
    invitee = person(db, user_id)
    if invitee["id"] == me["id"]:
        raise InvalidRequest("cant_invite_self: You are already in this channel.")
    if invitee["deleted"]:
        raise Conflict(f"cant_invite: {invitee['real_name']}'s account is deactivated.")
    if invitee["is_invited_user"]:
        raise Conflict(f"cant_invite: {invitee['real_name']} has not accepted the workspace invitation yet.")
    if is_member(db, conv["id"], invitee["id"]):
        raise Conflict(f"already_in_channel: {invitee['real_name']} is already in {label(conv)}.")
    if invitee["is_ultra_restricted"] and db.find(members, user_id=invitee["id"]):
        raise Conflict(f"ura_max_channels: {invitee['real_name']} is a single-channel guest and already in a channel.")
    return invitee


def may_kick(me: dict[str, Any], conv: dict[str, Any], user_id: str) -> None:
    """Nobody leaves #general; in public channels only Workspace Admins, Owners and the channel's creator remove
    people, in private channels any full member; guests never do, and nobody removes themselves."""
    if conv["is_general"]:
        raise PermissionDenied("cant_kick_from_general: Nobody can be removed from #general.")
    if user_id == me["id"]:
        raise InvalidRequest("cant_kick_self: Leave the channel instead of removing yourself.")
    if is_guest(me) or (conv["is_channel"] and not is_admin(me) and conv["creator"] != me["id"]):
        raise PermissionDenied(
            f"restricted_action: Only Workspace Admins, Owners and the channel's creator can "
            f"remove people from {label(conv)}."
        )


def may_archive(me: dict[str, Any], conv: dict[str, Any]) -> None:
    """Guests never archive; #general only Workspace Admins and Owners; nothing is archived twice."""
    if conv["is_archived"]:
        raise Conflict(f"already_archived: {label(conv)} is already archived.")
    if is_guest(me):
        raise PermissionDenied("restricted_action: Guests can't archive channels.")
    if conv["is_general"] and not is_admin(me):
        raise PermissionDenied("cant_archive_general: Only Workspace Admins and Owners can archive #general.")


# ---------------------------------------------------------------- user groups and statuses


def group_members(db: Database, user_ids: list[str]) -> list[str]:
    """A user group's new member list, sorted: active, human accounts that accepted their invitation."""
    wanted = sorted(set(user_ids))
    for user_id in wanted:
        user = person(db, user_id)
        if user["deleted"] or user["is_bot"] or user["is_invited_user"]:
            raise InvalidRequest(
                f"invalid_users: {user['real_name']} can't be in a user group (deactivated, bot or pending invite)."
            )
    return wanted


def status_expiration(db: Database, expiration: int) -> int:
    """When a status clears: 0 for never, else a moment in the future."""
    if expiration and expiration <= epoch(db):
        raise InvalidRequest("invalid_expiration: status_expiration must be in the future, or 0 for never.")
    return expiration
