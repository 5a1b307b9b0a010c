"""The Slack environment's tools: results and state transitions for each workspace rule, and every error path
leaving the state unchanged. Runs the real tools on the real seed through ToolSession."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Any

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("slack")
CLOCK = datetime(2025, 1, 15, 16, 0, tzinfo=timezone.utc)
NOW = int(CLOCK.timestamp())
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]


# ---------------------------------------------------------------- seed lookups (by name, never by raw id)


def user(real_name: str) -> dict[str, Any]:
    return next(u for u in SEED["users"] if u["real_name"] == real_name)


def uid(real_name: str) -> str:
    return user(real_name)["id"]


def channel(name: str) -> str:
    return next(c["id"] for c in SEED["conversations"] if c["name"] == name)


def top_message(channel_name: str, text_start: str) -> dict[str, Any]:
    cid = channel(channel_name)
    return next(
        m
        for m in SEED["messages"]
        if m["channel_id"] == cid and m["parent_msg_id"] is None and m["text"].startswith(text_start)
    )


def members_of(channel_name: str) -> set[str]:
    cid = channel(channel_name)
    return {m["user_id"] for m in SEED["members"] if m["channel_id"] == cid}


def group(handle: str) -> dict[str, Any]:
    return next(g for g in SEED["usergroups"] if g["handle"] == handle)


ONBOARDING = top_message("design", "Onboarding flow v3")
KENJI_PR = top_message("eng-frontend", "PR ready for review")
LEAKED = top_message("engineering", "anyone know why this returns 401")
PG16 = top_message("eng-backend", "RFC: Postgres 16")


# ---------------------------------------------------------------- session helpers

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, real_name: str) -> None:
    ok(session, "sign_in", {"email": user(real_name)["email"]}, caller="user")


def message_row(session: ToolSession, client_msg_id: str) -> dict[str, Any]:
    return session.dump()["messages"][client_msg_id]


def in_channel(session: ToolSession, channel_name: str, real_name: str) -> bool:
    return json.dumps([channel(channel_name), uid(real_name)]) in session.dump()["members"]


# ---------------------------------------------------------------- signing in


def test_sign_in_is_user_only_and_checks_the_account(session):
    fails(session, "sign_in", {"email": user("Maya Chen")["email"]}, "user_only", "only be performed by the user")
    fails(session, "sign_in", {"email": "nobody@larkspur.io"}, "NotFound", "users_not_found", caller="user")
    fails(
        session,
        "sign_in",
        {"email": user("Chris Doyle")["email"]},
        "PermissionDenied",
        "account_inactive",
        caller="user",
    )
    fails(
        session,
        "sign_in",
        {"email": user("Zoe Lindqvist")["email"]},
        "PermissionDenied",
        "invite_pending",
        caller="user",
    )
    me = ok(session, "sign_in", {"email": "  MAYA.CHEN@larkspur.io "}, caller="user")
    assert me["user_id"] == uid("Maya Chen") and me["url"] == "https://larkspur-hq.slack.com/"
    assert ok(session, "auth_test")["user"] == "maya.chen"


@pytest.mark.parametrize(
    "name,args",
    [
        ("auth_test", {}),
        ("conversations_list", {}),
        ("users_list", {}),
        ("usergroups_list", {}),
        ("chat_postMessage", {"channel": "C000", "text": "hi"}),
        ("users_profile_set", {"status_text": "x"}),
    ],
)
def test_every_tool_needs_a_signed_in_user(session, name, args):
    fails(session, name, args, "PermissionDenied", "not_authed")


def test_accept_invite_activates_joins_default_channels_and_signs_in(session):
    zoe = uid("Zoe Lindqvist")
    me = ok(session, "accept_invite", {"email": user("Zoe Lindqvist")["email"], "display_name": "Zoe"}, caller="user")
    assert me["user_id"] == zoe
    row = session.dump()["users"][zoe]
    assert not row["is_invited_user"] and row["display_name"] == "Zoe"
    assert all(in_channel(session, name, "Zoe Lindqvist") for name in ("general", "random", "announcements"))
    assert not in_channel(session, "engineering", "Zoe Lindqvist")
    fails(
        session,
        "accept_invite",
        {"email": user("Zoe Lindqvist")["email"]},
        "Conflict",
        "already_accepted",
        caller="user",
    )
    fails(
        session, "accept_invite", {"email": user("Maya Chen")["email"]}, "Conflict", "already_accepted", caller="user"
    )


# ---------------------------------------------------------------- reading


def test_conversations_list_shows_private_conversations_to_members_only(session):
    sign_in(session, "Maya Chen")
    public = ok(session, "conversations_list", {"limit": 1000})["results"]
    assert all(c["is_channel"] for c in public)
    assert {"general", "engineering", "proj-nimbus"} <= {c["name"] for c in public}  # non-member and archived too
    current = ok(session, "conversations_list", {"exclude_archived": True, "limit": 1000})["results"]
    current = {c["name"] for c in current}
    assert "proj-nimbus" not in current and "engineering" in current
    private = {c["name"] for c in ok(session, "conversations_list", {"types": "private_channel"})["results"]}
    assert "offsite-2025" in private and "leadership" not in private
    ims = ok(session, "conversations_list", {"types": "im"})["results"]
    assert ims and all(c["is_im"] and c["user"] != uid("Maya Chen") for c in ims)
    fails(session, "conversations_list", {"types": "public_channel,dm"}, "invalid_arguments", "types")
    fails(session, "conversations_list", {"limit": 1001}, "invalid_arguments", "limit")
    page = ok(session, "conversations_list", {"limit": 5})
    assert page["has_more"] and len(page["results"]) == 5


def test_guests_only_see_their_own_channels(session):
    sign_in(session, "Alex Morgan")
    listed = ok(session, "conversations_list", {"types": "public_channel,private_channel"})["results"]
    names = {c["name"] for c in listed}
    assert names == {"design-agency", "proj-atlas"}
    fails(session, "conversations_history", {"channel": channel("general")}, "NotFound", "channel_not_found")


def test_history_is_newest_first_without_thread_replies(session):
    sign_in(session, "Maya Chen")
    history = ok(session, "conversations_history", {"channel": channel("design"), "limit": 999})["results"]
    stamps = [tuple(map(int, m["ts"].split("."))) for m in history]
    assert stamps == sorted(stamps, reverse=True)
    onboarding = next(m for m in history if m["client_msg_id"] == ONBOARDING["client_msg_id"])
    assert onboarding["reply_count"] == 3 and onboarding["thread_ts"] == ONBOARDING["ts"]
    assert onboarding["user_profile"]["real_name"] == "Priya Natarajan"
    assert {r["name"]: r["count"] for r in onboarding["reactions"]} == {"heart": 2, "eyes": 1}
    assert all(
        m["client_msg_id"] != r["client_msg_id"]
        for m in history
        for r in SEED["messages"]
        if r["parent_msg_id"] == ONBOARDING["client_msg_id"]
    )
    newer = ok(session, "conversations_history", {"channel": channel("design"), "oldest": ONBOARDING["ts"]})["results"]
    assert all(tuple(map(int, m["ts"].split("."))) > tuple(map(int, ONBOARDING["ts"].split("."))) for m in newer)


def test_private_channels_are_invisible_to_non_members(session):
    sign_in(session, "Maya Chen")
    fails(session, "conversations_history", {"channel": channel("leadership")}, "NotFound", "channel_not_found")
    fails(
        session, "chat_postMessage", {"channel": channel("leadership"), "text": "hi"}, "NotFound", "channel_not_found"
    )
    ok(session, "conversations_history", {"channel": channel("engineering")})  # public: readable without joining


def test_replies_return_the_root_then_replies_from_any_message_of_the_thread(session):
    sign_in(session, "Dev Patel")
    thread = ok(session, "conversations_replies", {"channel": channel("eng-backend"), "ts": PG16["ts"]})["results"]
    assert thread[0]["client_msg_id"] == PG16["client_msg_id"] and len(thread) == 4
    assert [m["user_profile"]["name"] for m in thread[1:]] == ["tomas.ribeiro", "sofia.almeida", "nadia.rahman"]
    again = ok(session, "conversations_replies", {"channel": channel("eng-backend"), "ts": thread[2]["ts"]})["results"]
    assert [m["ts"] for m in again] == [m["ts"] for m in thread]
    fails(
        session,
        "conversations_replies",
        {"channel": channel("eng-backend"), "ts": "1.000001"},
        "NotFound",
        "message_not_found",
    )


def test_users_lookups(session):
    sign_in(session, "Maya Chen")
    everyone = ok(session, "users_list", {"limit": 1000})["results"]
    assert len(everyone) == len(SEED["users"]) and [u["name"] for u in everyone] == sorted(u["name"] for u in everyone)
    assert ok(session, "users_lookupByEmail", {"email": "Tomas.Ribeiro@larkspur.io"})["tz"] == "Europe/Lisbon"
    fails(session, "users_lookupByEmail", {"email": "ghost@larkspur.io"}, "NotFound", "users_not_found")
    assert ok(session, "users_info", {"user": uid("Rita Gomez")})["is_ultra_restricted"]
    fails(session, "users_info", {"user": "U0NOPE"}, "NotFound", "user_not_found")
    enabled = {g["handle"] for g in ok(session, "usergroups_list")}
    assert "oncall-primary" in enabled and "hackathon-judges" not in enabled
    assert "hackathon-judges" in {g["handle"] for g in ok(session, "usergroups_list", {"include_disabled": True})}


# ---------------------------------------------------------------- posting


def test_post_creates_a_message_with_a_clock_derived_ts(session):
    sign_in(session, "Maya Chen")
    ok(session, "users_list")  # reads before a post do not change the ts it gets
    out = ok(session, "chat_postMessage", {"channel": channel("product"), "text": "Spec review at 3"})
    assert re.fullmatch(r"\d{10}\.\d{6}", out["ts"]) and out["ts"] == f"{NOW + 1}.000001"
    second = ok(session, "chat_postMessage", {"channel": channel("product"), "text": "Moved to 4"})
    assert second["ts"] == f"{NOW + 2}.000002"
    latest = ok(session, "conversations_history", {"channel": channel("product"), "limit": 2})["results"]
    assert [m["text"] for m in latest] == ["Moved to 4", "Spec review at 3"]
    assert message_row(session, out["message"]["client_msg_id"])["user_id"] == uid("Maya Chen")


def test_post_needs_membership_an_open_channel_and_text(session):
    sign_in(session, "Maya Chen")
    fails(
        session,
        "chat_postMessage",
        {"channel": channel("engineering"), "text": "hi"},
        "PermissionDenied",
        "not_in_channel",
    )
    fails(session, "chat_postMessage", {"channel": channel("proj-nimbus"), "text": "hi"}, "Conflict", "is_archived")
    fails(session, "chat_postMessage", {"channel": channel("product"), "text": "   "}, "invalid_arguments", "text")
    fails(
        session,
        "chat_postMessage",
        {"channel": channel("product"), "text": "x" * 40_001},
        "invalid_arguments",
        "at most 40000 characters",
    )
    fails(
        session,
        "chat_postMessage",
        {"channel": channel("product"), "text": "hi", "reply_broadcast": True},
        "InvalidRequest",
        "needs a thread_ts",
    )


def test_read_only_channel_takes_top_level_posts_from_admins_only(session):
    benefits = top_message("announcements", "Benefits open enrollment")
    sign_in(session, "Hannah Okafor")
    fails(
        session,
        "chat_postMessage",
        {"channel": channel("announcements"), "text": "Launch!"},
        "PermissionDenied",
        "restricted_action_read_only_channel",
    )
    ok(
        session,
        "chat_postMessage",
        {"channel": channel("announcements"), "text": "Thanks!", "thread_ts": benefits["ts"]},
    )
    sign_in(session, "Grace Kim")
    ok(session, "chat_postMessage", {"channel": channel("announcements"), "text": "1,000 customers!"})


def test_thread_replies_and_broadcasts(session):
    sign_in(session, "Dev Patel")
    reply = ok(
        session,
        "chat_postMessage",
        {
            "channel": channel("eng-backend"),
            "text": "Updated the doc",
            "thread_ts": PG16["ts"],
            "reply_broadcast": True,
        },
    )
    assert reply["message"]["thread_ts"] == PG16["ts"] and reply["message"]["subtype"] == "thread_broadcast"
    row = message_row(session, reply["message"]["client_msg_id"])
    assert row["parent_msg_id"] == PG16["client_msg_id"] and row["reply_broadcast"]
    history = ok(session, "conversations_history", {"channel": channel("eng-backend"), "limit": 3})["results"]
    assert history[0]["text"] == "Updated the doc"  # a broadcast reply also shows in the channel
    everything = ok(session, "conversations_history", {"channel": channel("eng-backend"), "limit": 999})["results"]
    root = next(m for m in everything if m["ts"] == PG16["ts"])
    assert root["reply_count"] == 4 and root["latest_reply"] == reply["ts"]
    fails(
        session,
        "chat_postMessage",
        {"channel": channel("eng-backend"), "text": "x", "thread_ts": reply["ts"]},
        "InvalidRequest",
        "not a reply",
    )
    fails(
        session,
        "chat_postMessage",
        {"channel": channel("eng-backend"), "text": "x", "thread_ts": "123.000001"},
        "NotFound",
        "thread_not_found",
    )


def test_dm_by_user_id_opens_the_dm_once(session):
    sign_in(session, "Maya Chen")
    before = len(session.dump()["conversations"])
    first = ok(session, "chat_postMessage", {"channel": uid("Pedro Santos"), "text": "Hi Pedro"})
    assert first["channel"].startswith("D") and len(session.dump()["conversations"]) == before + 1
    second = ok(session, "chat_postMessage", {"channel": uid("Pedro Santos"), "text": "Again"})
    assert second["channel"] == first["channel"] and len(session.dump()["conversations"]) == before + 1
    existing = ok(session, "chat_postMessage", {"channel": uid("Priya Natarajan"), "text": "Hi"})
    assert existing["channel"] in {c["id"] for c in SEED["conversations"] if c["is_im"]}
    fails(session, "chat_postMessage", {"channel": uid("Olivia Grant"), "text": "hi"}, "Conflict", "user_disabled")
    fails(session, "chat_postMessage", {"channel": uid("Marcus Bell"), "text": "hi"}, "Conflict", "cannot_dm_user")


def test_only_the_author_can_edit(session):
    roadmap = top_message("product", "Heads up: the Q1 roadmap review")
    sign_in(session, "Ethan Brooks")  # an admin, yet not the author
    fails(
        session,
        "chat_update",
        {"channel": channel("product"), "ts": roadmap["ts"], "text": "x"},
        "PermissionDenied",
        "cant_update_message",
    )
    sign_in(session, "Maya Chen")
    out = ok(session, "chat_update", {"channel": channel("product"), "ts": roadmap["ts"], "text": "Now on Friday"})
    assert out["message"]["text"] == "Now on Friday" and out["message"]["edited"]["user"] == uid("Maya Chen")
    assert message_row(session, roadmap["client_msg_id"])["edited_by"] == uid("Maya Chen")
    fails(
        session,
        "chat_update",
        {"channel": channel("product"), "ts": roadmap["ts"], "text": ""},
        "invalid_arguments",
        "text",
    )


def test_delete_own_or_as_admin(session):
    sign_in(session, "Diego Herrera")
    fails(
        session,
        "chat_delete",
        {"channel": channel("engineering"), "ts": LEAKED["ts"]},
        "PermissionDenied",
        "cant_delete_message",
    )
    sign_in(session, "Ethan Brooks")
    ok(session, "chat_delete", {"channel": channel("engineering"), "ts": LEAKED["ts"]})
    assert LEAKED["client_msg_id"] not in session.dump()["messages"]
    fails(
        session, "chat_delete", {"channel": channel("engineering"), "ts": LEAKED["ts"]}, "NotFound", "message_not_found"
    )


def test_deleting_a_thread_parent_leaves_a_tombstone(session):
    sign_in(session, "Dev Patel")
    ok(session, "chat_delete", {"channel": channel("eng-backend"), "ts": PG16["ts"]})
    row = message_row(session, PG16["client_msg_id"])
    assert row["subtype"] == "tombstone" and row["text"] == "This message was deleted." and row["reactions"] == []
    thread = ok(session, "conversations_replies", {"channel": channel("eng-backend"), "ts": PG16["ts"]})["results"]
    assert len(thread) == 4
    fails(
        session,
        "reactions_add",
        {"channel": channel("eng-backend"), "timestamp": PG16["ts"], "name": "eyes"},
        "NotFound",
        "was deleted",
    )
    fails(
        session,
        "pins_add",
        {"channel": channel("eng-backend"), "timestamp": PG16["ts"]},
        "InvalidRequest",
        "not_pinnable",
    )
    reply = thread[1]
    sign_in(session, "Tomás Ribeiro")
    ok(session, "chat_delete", {"channel": channel("eng-backend"), "ts": reply["ts"]})
    assert reply["client_msg_id"] not in session.dump()["messages"]


# ---------------------------------------------------------------- reactions and pins


def test_reactions_add_and_remove(session):
    sign_in(session, "Lena Fischer")
    where = {"channel": channel("eng-frontend"), "timestamp": KENJI_PR["ts"]}
    fails(session, "reactions_add", {**where, "name": "eyes"}, "Conflict", "already_reacted")
    fails(session, "reactions_add", {**where, "name": "not-an-emoji"}, "InvalidRequest", "invalid_name")
    ok(session, "reactions_remove", {**where, "name": "eyes"})
    out = ok(session, "reactions_add", {**where, "name": ":thumbsup:"})
    assert {r["name"]: r["users"] for r in out["reactions"]} == {
        "eyes": [uid("Emma Johansson")],
        "+1": [uid("Lena Fischer")],
    }
    ok(session, "reactions_add", {**where, "name": "shipit"})  # a custom emoji
    fails(session, "reactions_remove", {**where, "name": "tada"}, "Conflict", "no_reaction")
    sign_in(session, "Emma Johansson")
    out = ok(session, "reactions_remove", {**where, "name": "eyes"})
    assert "eyes" not in {r["name"] for r in out["reactions"]}  # the last user's removal drops the reaction


def test_reactions_need_membership_and_stop_at_23_emoji(session):
    sign_in(session, "Maya Chen")
    fails(
        session,
        "reactions_add",
        {"channel": channel("engineering"), "timestamp": LEAKED["ts"], "name": "eyes"},
        "PermissionDenied",
        "not_in_channel",
    )
    sign_in(session, "Lena Fischer")
    where = {"channel": channel("eng-frontend"), "timestamp": KENJI_PR["ts"]}
    names = [
        "tada",
        "heart",
        "fire",
        "rocket",
        "clap",
        "pray",
        "joy",
        "100",
        "sparkles",
        "star",
        "bulb",
        "memo",
        "coffee",
        "pizza",
        "bug",
        "zap",
        "boom",
        "trophy",
        "medal",
        "gift",
        "cake",
        "beers",
    ]
    for name in names:
        ok(session, "reactions_add", {**where, "name": name})
    thread = ok(session, "conversations_replies", {"channel": where["channel"], "ts": KENJI_PR["ts"]})["results"]
    assert len(thread[0]["reactions"]) == 23
    fails(session, "reactions_add", {**where, "name": "champagne"}, "Conflict", "too_many_emoji")


def test_pins_add(session):
    guideline = top_message("engineering", "Reminder on secrets handling")
    sign_in(session, "Ethan Brooks")
    out = ok(session, "pins_add", {"channel": channel("engineering"), "timestamp": guideline["ts"]})
    assert out["pinned_to"] == [channel("engineering")]
    assert message_row(session, guideline["client_msg_id"])["pinned_by"] == uid("Ethan Brooks")
    fails(
        session,
        "pins_add",
        {"channel": channel("engineering"), "timestamp": guideline["ts"]},
        "Conflict",
        "already_pinned",
    )


# ---------------------------------------------------------------- channels and membership


def test_create_channel_validates_the_name(session):
    sign_in(session, "Sofia Almeida")
    for name in ("", "Proj Orion", "proj.orion", "x" * 81):
        fails(session, "conversations_create", {"name": name}, "invalid_arguments", "name")
    fails(session, "conversations_create", {"name": "proj-nimbus"}, "Conflict", "name_taken")  # archived, still taken
    out = ok(session, "conversations_create", {"name": "proj-orion", "is_private": True})
    assert out["is_private"] and out["is_group"] and out["is_member"] and out["num_members"] == 1
    assert session.dump()["conversations"][out["id"]]["creator"] == uid("Sofia Almeida")
    sign_in(session, "Alex Morgan")
    fails(session, "conversations_create", {"name": "brightline"}, "PermissionDenied", "restricted_action")


def test_join_public_channels_only(session):
    sign_in(session, "Maya Chen")
    ok(session, "conversations_join", {"channel": channel("engineering")})
    assert in_channel(session, "engineering", "Maya Chen")
    before = session.dump()
    ok(session, "conversations_join", {"channel": channel("engineering")})  # already in: nothing changes
    assert session.dump() == before
    fails(session, "conversations_join", {"channel": channel("hackathon-2023")}, "Conflict", "is_archived")
    fails(session, "conversations_join", {"channel": channel("leadership")}, "NotFound", "channel_not_found")
    fails(
        session,
        "conversations_join",
        {"channel": channel("offsite-2025")},
        "InvalidRequest",
        "method_not_supported_for_channel_type",
    )


def test_invite_rules_and_atomicity(session):
    sign_in(session, "Omar Haddad")
    ext = channel("ext-cascade-heating")
    fails(
        session,
        "conversations_invite",
        {"channel": ext, "users": [uid("Dev Patel"), uid("Omar Haddad")]},
        "InvalidRequest",
        "cant_invite_self",
    )
    assert not in_channel(session, "ext-cascade-heating", "Dev Patel")  # all or nothing
    fails(
        session,
        "conversations_invite",
        {"channel": ext, "users": [uid("Tyler Brown")]},
        "Conflict",
        "already_in_channel",
    )
    fails(session, "conversations_invite", {"channel": ext, "users": [uid("Chris Doyle")]}, "Conflict", "deactivated")
    fails(session, "conversations_invite", {"channel": ext, "users": [uid("Marcus Bell")]}, "Conflict", "not accepted")
    fails(session, "conversations_invite", {"channel": ext, "users": []}, "invalid_arguments", "users")
    fails(session, "conversations_invite", {"channel": ext, "users": ["dev.patel"]}, "invalid_arguments", "users")
    fails(
        session,
        "conversations_invite",
        {"channel": channel("customer-success"), "users": [uid("Rita Gomez")]},
        "Conflict",
        "ura_max_channels",
    )
    fails(
        session,
        "conversations_invite",
        {"channel": channel("engineering"), "users": [uid("Dev Patel")]},
        "PermissionDenied",
        "not_in_channel",
    )
    out = ok(session, "conversations_invite", {"channel": ext, "users": [uid("Dev Patel"), uid("Julia Santos")]})
    assert out["num_members"] == len(members_of("ext-cascade-heating")) + 2
    sign_in(session, "Alex Morgan")
    fails(
        session,
        "conversations_invite",
        {"channel": channel("design-agency"), "users": [uid("Dev Patel")]},
        "PermissionDenied",
        "user_is_restricted",
    )


def test_kick_rules(session):
    sign_in(session, "Maya Chen")  # member of #design, but neither its creator nor an admin
    fails(
        session,
        "conversations_kick",
        {"channel": channel("design"), "user": uid("Noah Williams")},
        "PermissionDenied",
        "restricted_action",
    )
    fails(
        session,
        "conversations_kick",
        {"channel": channel("general"), "user": uid("Noah Williams")},
        "PermissionDenied",
        "cant_kick_from_general",
    )
    fails(
        session,
        "conversations_kick",
        {"channel": channel("product"), "user": uid("Maya Chen")},
        "InvalidRequest",
        "cant_kick_self",
    )
    ok(session, "conversations_kick", {"channel": channel("proj-atlas"), "user": uid("Sam Taylor")})  # her channel
    assert not in_channel(session, "proj-atlas", "Sam Taylor")
    ok(session, "conversations_kick", {"channel": channel("offsite-2025"), "user": uid("Ahmed Farouk")})  # private
    fails(
        session,
        "conversations_kick",
        {"channel": channel("offsite-2025"), "user": uid("Ahmed Farouk")},
        "Conflict",
        "not_in_channel",
    )
    sign_in(session, "Sofia Almeida")  # an admin
    ok(session, "conversations_kick", {"channel": channel("eng-mobile"), "user": uid("Sam Taylor")})


def test_archive_rules(session):
    sign_in(session, "Hannah Okafor")
    fails(session, "conversations_archive", {"channel": channel("general")}, "PermissionDenied", "cant_archive_general")
    fails(session, "conversations_archive", {"channel": channel("engineering")}, "PermissionDenied", "not_in_channel")
    fails(session, "conversations_archive", {"channel": channel("proj-nimbus")}, "Conflict", "already_archived")
    ok(session, "conversations_archive", {"channel": channel("marketing")})
    assert session.dump()["conversations"][channel("marketing")]["is_archived"]
    fails(session, "chat_postMessage", {"channel": channel("marketing"), "text": "hi"}, "Conflict", "is_archived")
    dm = ok(session, "conversations_list", {"types": "im"})["results"][0]["id"]
    fails(session, "conversations_archive", {"channel": dm}, "InvalidRequest", "method_not_supported_for_channel_type")
    sign_in(session, "Grace Kim")
    ok(session, "conversations_archive", {"channel": channel("general")})


# ---------------------------------------------------------------- scheduling, groups, bookmarks, status


def test_schedule_message_must_be_in_the_next_120_days(session):
    sign_in(session, "Maya Chen")
    args = {"channel": channel("product"), "text": "Review in 15"}
    fails(session, "chat_scheduleMessage", {**args, "post_at": NOW - 60}, "InvalidRequest", "time_in_past")
    fails(session, "chat_scheduleMessage", {**args, "post_at": NOW + 121 * 86400}, "InvalidRequest", "time_too_far")
    fails(
        session,
        "chat_scheduleMessage",
        {**args, "channel": channel("engineering"), "post_at": NOW + 3600},
        "PermissionDenied",
        "not_in_channel",
    )
    out = ok(session, "chat_scheduleMessage", {**args, "post_at": NOW + 3600})
    row = session.dump()["scheduled_messages"][out["scheduled_message_id"]]
    assert (row["post_at"], row["user_id"], row["channel_id"]) == (NOW + 3600, uid("Maya Chen"), channel("product"))
    assert len(session.dump()["messages"]) == len(SEED["messages"])  # nothing is posted until post_at


def test_usergroup_members_are_replaced_and_checked(session):
    oncall = group("oncall-primary")["id"]
    sign_in(session, "Nadia Rahman")
    fails(session, "usergroups_users_update", {"usergroup": oncall, "users": []}, "invalid_arguments", "users")
    fails(
        session,
        "usergroups_users_update",
        {"usergroup": oncall, "users": [uid("Chris Doyle")]},
        "InvalidRequest",
        "invalid_users",
    )
    fails(
        session,
        "usergroups_users_update",
        {"usergroup": oncall, "users": [uid("GitHub")]},
        "InvalidRequest",
        "invalid_users",
    )
    disabled = group("hackathon-judges")["id"]
    fails(
        session, "usergroups_users_update", {"usergroup": disabled, "users": [uid("Dev Patel")]}, "Conflict", "disabled"
    )
    fails(
        session,
        "usergroups_users_update",
        {"usergroup": "S0NOPE", "users": [uid("Dev Patel")]},
        "NotFound",
        "no_such_subteam",
    )
    out = ok(
        session,
        "usergroups_users_update",
        {"usergroup": oncall, "users": [uid("Tomás Ribeiro"), uid("Nadia Rahman"), uid("Nadia Rahman")]},
    )
    assert out["users"] == sorted([uid("Tomás Ribeiro"), uid("Nadia Rahman")]) and out["user_count"] == 2
    assert session.dump()["usergroups"][oncall]["updated_by"] == uid("Nadia Rahman")
    sign_in(session, "Alex Morgan")
    fails(
        session,
        "usergroups_users_update",
        {"usergroup": oncall, "users": [uid("Dev Patel")]},
        "PermissionDenied",
        "Guests",
    )


def test_bookmarks_add(session):
    sign_in(session, "Chloé Martin")
    args = {"channel_id": channel("eng-mobile"), "title": "TestFlight 4.12"}
    fails(session, "bookmarks_add", {**args, "link": "testflight"}, "invalid_arguments", "link")
    fails(
        session,
        "bookmarks_add",
        {**args, "title": " ", "link": "https://testflight.apple.com/x"},
        "invalid_arguments",
        "title",
    )
    fails(
        session,
        "bookmarks_add",
        {**args, "link": "https://testflight.apple.com/x", "emoji": "nope"},
        "InvalidRequest",
        "invalid_name",
    )
    out = ok(session, "bookmarks_add", {**args, "link": "https://testflight.apple.com/x", "emoji": "airplane"})
    assert out["emoji"] == ":airplane:" and session.dump()["bookmarks"][out["id"]]["created_by"] == uid("Chloé Martin")
    sign_in(session, "Maya Chen")
    fails(
        session,
        "bookmarks_add",
        {"channel_id": channel("proj-nimbus"), "title": "Old", "link": "https://a.io/x"},
        "Conflict",
        "is_archived",
    )


def test_status_rules(session):
    sign_in(session, "Dev Patel")
    fails(session, "users_profile_set", {}, "InvalidRequest", "invalid_profile")
    fails(session, "users_profile_set", {"status_text": "x" * 101}, "invalid_arguments", "status_text")
    fails(session, "users_profile_set", {"status_expiration": -5}, "invalid_arguments", "status_expiration")
    fails(
        session,
        "users_profile_set",
        {"status_text": "Out", "status_expiration": NOW - 1},
        "InvalidRequest",
        "invalid_expiration",
    )
    out = ok(session, "users_profile_set", {"status_text": "Heads down"})
    assert out["status_emoji"] == ":speech_balloon:"  # Slack's default emoji for a text-only status
    out = ok(
        session,
        "users_profile_set",
        {"status_text": "On vacation", "status_emoji": "palm_tree", "status_expiration": NOW + 86400},
    )
    assert (out["status_emoji"], out["status_expiration"]) == (":palm_tree:", NOW + 86400)
    out = ok(session, "users_profile_set", {"status_text": "", "status_emoji": ""})
    assert (out["status_text"], out["status_emoji"], out["status_expiration"]) == ("", "", 0)


# ---------------------------------------------------------------- constraints the model sees


def _constraint(tool: str, argument: str, key: str) -> Any:
    """A JSON-schema keyword of one argument (looking inside `anyOf` for optional ones)."""
    prop = SPEC.tools[tool].input_schema["properties"][argument]
    for option in [prop, *prop.get("anyOf", [])]:
        if key in option:
            return option[key]
    raise AssertionError(f"{tool}.{argument} shows no {key}: {prop}")


@pytest.mark.parametrize(
    "tool,argument,key,value",
    [
        ("conversations_list", "limit", "maximum", 1000),
        ("conversations_list", "limit", "minimum", 1),
        ("conversations_history", "limit", "maximum", 999),
        ("conversations_replies", "limit", "maximum", 1000),
        ("users_list", "limit", "maximum", 1000),
        ("chat_postMessage", "text", "maxLength", 40_000),
        ("chat_update", "text", "minLength", 1),
        ("chat_scheduleMessage", "text", "maxLength", 40_000),
        ("conversations_create", "name", "maxLength", 80),
        ("conversations_create", "name", "pattern", r"^[a-z0-9_-]+$"),
        ("conversations_invite", "users", "minItems", 1),
        ("conversations_invite", "users", "maxItems", 1000),
        ("conversations_invite", "users", "uniqueItems", True),
        ("usergroups_users_update", "users", "minItems", 1),
        ("users_profile_set", "status_text", "maxLength", 100),
        ("users_profile_set", "status_expiration", "minimum", 0),
        ("bookmarks_add", "type", "const", "link"),
    ],
)
def test_bounds_and_lengths_are_in_the_schema(tool, argument, key, value):
    assert _constraint(tool, argument, key) == value


@pytest.mark.parametrize(
    "tool,argument,good,bad",
    [
        ("conversations_list", "types", "public_channel, im", "public_channel,dm"),
        ("conversations_history", "oldest", "1736900000", "yesterday"),
        ("chat_postMessage", "channel", "U00652T7R5", "#general"),
        ("conversations_replies", "channel", "C03RQEE2LO", "U00652T7R5"),
        ("reactions_add", "name", ":white_check_mark:", "white check mark"),
        ("bookmarks_add", "link", "https://docs.larkspur.io/x", "docs.larkspur.io/x"),
        ("users_info", "user", "U00652T7R5", "lena.fischer"),
    ],
)
def test_patterns_are_in_the_schema(tool, argument, good, bad):
    pattern = re.compile(_constraint(tool, argument, "pattern"))
    assert pattern.search(good) and not pattern.search(bad)


# ---------------------------------------------------------------- more rules


def test_history_time_window_takes_bare_unix_times(session):
    sign_in(session, "Maya Chen")
    cid = channel("design")
    everything = ok(session, "conversations_history", {"channel": cid, "limit": 999})["results"]
    seconds = ONBOARDING["ts"].split(".")[0]
    before = ok(session, "conversations_history", {"channel": cid, "latest": seconds, "limit": 999})["results"]
    after = ok(session, "conversations_history", {"channel": cid, "oldest": seconds, "limit": 999})["results"]
    assert {m["ts"] for m in before} | {m["ts"] for m in after} == {m["ts"] for m in everything}
    assert ONBOARDING["ts"] in {m["ts"] for m in after} and not {m["ts"] for m in before} & {m["ts"] for m in after}


def test_custom_emoji_aliases_react_as_the_original(session):
    sign_in(session, "Lena Fischer")
    where = {"channel": channel("eng-frontend"), "timestamp": KENJI_PR["ts"]}
    out = ok(session, "reactions_add", {**where, "name": "ship-it"})
    assert uid("Lena Fischer") in {r["name"]: r["users"] for r in out["reactions"]}["shipit"]
    fails(session, "reactions_add", {**where, "name": "shipit"}, "Conflict", "already_reacted")


def test_group_dm_is_not_taken_for_a_dm(session):
    mpim = next(c for c in SEED["conversations"] if c["is_mpim"])
    people = sorted(m["user_id"] for m in SEED["members"] if m["channel_id"] == mpim["id"])
    me_row = next(u for u in SEED["users"] if u["id"] == people[0])
    ok(session, "sign_in", {"email": me_row["email"]}, caller="user")
    out = ok(session, "chat_postMessage", {"channel": people[1], "text": "Just us two"})
    state = session.dump()
    assert out["channel"] != mpim["id"] and state["conversations"][out["channel"]]["is_im"]
    assert {json.loads(key)[1] for key in state["members"] if json.loads(key)[0] == out["channel"]} == set(people[:2])


def test_signing_in_again_switches_the_principal(session):
    sign_in(session, "Maya Chen")
    sign_in(session, "Dev Patel")
    assert ok(session, "auth_test")["user_id"] == uid("Dev Patel")
    assert list(session.dump()["auth_sessions"]) == ["current"]
