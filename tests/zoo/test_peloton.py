"""The Peloton environment's tools on the real seed: sign-in, library search and the schedule, live reservations
(once, before air, never a cancelled class), Sessions (cycling or running over 20 minutes, five-minute marks, up to
two weeks ahead, invites only to followed members), bookmarks, the single stack (10 classes, no repeats, positions
close up), personal records that fall back when a workout is deleted, challenge joining and progress, and follows
with pending requests for private profiles. Every refused call is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("peloton")
CLOCK = datetime(2026, 5, 14, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
EMAIL = {"kate": "kate.sullivan@gmail.com", "marcus": "marcus.brooks@outlook.com", "priya": "priya.iyer@fastmail.com"}

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, who: str) -> dict:
    return ok(session, "sign_in", {"email": EMAIL[who]}, caller="user")


def on_demand(discipline: str, minutes: int) -> dict:
    return next(
        c
        for c in SEED["classes"]
        if c["status"] == "ON_DEMAND" and c["fitness_discipline"] == discipline and c["duration"] == minutes * 60
    )


def scheduled(title: str, start: str) -> dict:
    return next(c for c in SEED["classes"] if c["title"] == title and c["scheduled_start"] == start)


def test_tools_need_a_signed_in_member(session: ToolSession) -> None:
    fails(session, "get_stack", {}, "PermissionDenied", "sign in")
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "Login failed", caller="user")
    me = sign_in(session, "kate")
    assert me["username"] == "PowerZoneKate" and me["total_workouts"] > 0


def test_search_filters_and_sorts(session: ToolSession) -> None:
    sign_in(session, "kate")
    page = ok(session, "search_classes", {"fitness_discipline": "cycling", "duration_minutes": 30, "text": "climb"})
    assert page["results"] and all(c["duration_minutes"] == 30 and "Climb" in c["title"] for c in page["results"])
    airs = [c["original_air_time"] for c in page["results"]]
    assert airs == sorted(airs, reverse=True)
    hard = ok(session, "search_classes", {"fitness_discipline": "yoga", "sort_by": "difficulty"})["results"]
    assert [c["difficulty_rating"] for c in hard] == sorted((c["difficulty_rating"] for c in hard), reverse=True)
    fails(session, "get_class", {"class_id": "abc"}, "invalid_arguments", "32 lowercase hex")


def test_schedule_hides_aired_classes_and_shows_cancelled(session: ToolSession) -> None:
    sign_in(session, "kate")
    sched = ok(session, "list_schedule", {})
    assert all(c["scheduled_start"] > "2026-05-14T15:00:00Z" for c in sched)
    assert any(c["status"] == "CANCELLED" for c in sched)


def test_reserve_rules(session: ToolSession) -> None:
    sign_in(session, "kate")
    row = scheduled("30 min Power Zone Ride", "2026-05-18T22:00:00Z")
    res = ok(session, "reserve_class", {"class_id": row["id"]})
    assert res["status"] == "RESERVED" and res["kind"] == "LIVE"
    fails(session, "reserve_class", {"class_id": row["id"]}, "Conflict", "already reserved")
    cancelled = next(c for c in SEED["classes"] if c["status"] == "CANCELLED")
    fails(session, "reserve_class", {"class_id": cancelled["id"]}, "Conflict", "cancelled")
    aired = scheduled("20 min Power Zone Ride", "2026-05-14T11:00:00Z")
    fails(session, "reserve_class", {"class_id": aired["id"]}, "Conflict", "already started")
    fails(session, "reserve_class", {"class_id": on_demand("cycling", 30)["id"]}, "InvalidRequest", "on demand")
    done = ok(session, "cancel_reservation", {"reservation_id": res["reservation_id"]})
    assert done["status"] == "CANCELLED"
    fails(session, "cancel_reservation", {"reservation_id": res["reservation_id"]}, "Conflict", "CANCELLED")


def test_session_rules(session: ToolSession) -> None:
    sign_in(session, "kate")
    ride = on_demand("cycling", 45)
    short = on_demand("cycling", 20)
    yoga = on_demand("yoga", 30)
    fails(
        session,
        "schedule_session",
        {"class_id": short["id"], "start_time": "2026-05-16T13:00:00Z"},
        "InvalidRequest",
        "over 20 minutes",
    )
    fails(
        session,
        "schedule_session",
        {"class_id": yoga["id"], "start_time": "2026-05-16T13:00:00Z"},
        "InvalidRequest",
        "Running and Cycling",
    )
    fails(
        session,
        "schedule_session",
        {"class_id": ride["id"], "start_time": "2026-05-16T13:02:00Z"},
        "InvalidRequest",
        "5 minutes",
    )
    fails(
        session,
        "schedule_session",
        {"class_id": ride["id"], "start_time": "2026-05-30T13:00:00Z"},
        "InvalidRequest",
        "two weeks",
    )
    fails(
        session,
        "schedule_session",
        {"class_id": ride["id"], "start_time": "2026-05-14T10:00:00Z"},
        "InvalidRequest",
        "future",
    )
    fails(
        session,
        "schedule_session",
        {"class_id": ride["id"], "start_time": "2026-05-16T13:00:00Z", "invite_usernames": ["MBrooksRuns"]},
        "PermissionDenied",
        "only invite members you follow",
    )
    made = ok(
        session,
        "schedule_session",
        {"class_id": ride["id"], "start_time": "2026-05-16T13:05:00Z", "invite_usernames": ["ZoePar31"]},
    )
    assert made["kind"] == "SESSION" and made["invited"] == ["ZoePar31"]


def test_bookmarks_once_each(session: ToolSession) -> None:
    sign_in(session, "kate")
    klass = on_demand("running", 20)
    ok(session, "add_bookmark", {"class_id": klass["id"]})
    fails(session, "add_bookmark", {"class_id": klass["id"]}, "Conflict", "already bookmarked")
    ok(session, "remove_bookmark", {"class_id": klass["id"]})
    fails(session, "remove_bookmark", {"class_id": klass["id"]}, "NotFound", "not bookmarked")


def test_stack_holds_ten_distinct_classes(session: ToolSession) -> None:
    sign_in(session, "marcus")
    stack = ok(session, "get_stack")
    assert len(stack["classes"]) == 9 and stack["slots_left"] == 1
    first = stack["classes"][0]["peloton_class"]["class_id"]
    fails(session, "add_to_stack", {"class_id": first}, "Conflict", "already in your stack")
    extra = [c for c in SEED["classes"] if c["status"] == "ON_DEMAND" and c["fitness_discipline"] == "yoga"][:2]
    assert ok(session, "add_to_stack", {"class_id": extra[0]["id"]})["slots_left"] == 0
    fails(session, "add_to_stack", {"class_id": extra[1]["id"]}, "Conflict", "up to 10 classes")
    after = ok(session, "remove_from_stack", {"class_id": first})
    assert [e["position"] for e in after["classes"]] == list(range(1, 10))
    fails(session, "remove_from_stack", {}, "InvalidRequest", "either class_id or clear_all")
    assert ok(session, "remove_from_stack", {"clear_all": True})["classes"] == []


def test_deleting_a_pr_hands_it_to_the_next_best(session: ToolSession) -> None:
    sign_in(session, "kate")
    records = ok(session, "get_personal_records", {"fitness_discipline": "cycling"})["records"]
    r30 = next(r for r in records if r["duration_minutes"] == 30)
    assert r30["total_output_kj"] == 512
    assert ok(session, "get_workout", {"workout_id": r30["workout_id"]})["is_personal_record"]
    ok(session, "delete_workout", {"workout_id": r30["workout_id"]})
    again = ok(session, "get_personal_records", {"fitness_discipline": "cycling"})["records"]
    assert next(r for r in again if r["duration_minutes"] == 30)["total_output_kj"] == 488
    fails(session, "get_workout", {"workout_id": r30["workout_id"]}, "NotFound", "not found")


def test_other_members_workouts_are_out_of_reach(session: ToolSession) -> None:
    sign_in(session, "kate")
    marcus = next(m for m in SEED["members"] if m["username"] == "MBrooksRuns")
    theirs = next(w for w in SEED["workouts"] if w["member_id"] == marcus["id"])
    fails(session, "delete_workout", {"workout_id": theirs["id"]}, "NotFound", "not found")


def test_challenges_join_rules_and_progress(session: ToolSession) -> None:
    sign_in(session, "kate")
    by_title = {c["title"]: c for c in ok(session, "list_challenges", {})}
    ended = by_title["April Annual Challenge Sprint"]
    assert ended["state"] == "ended"
    fails(session, "join_challenge", {"challenge_id": ended["challenge_id"]}, "Conflict", "has ended")
    joined = by_title["Strength Streak Spring"]
    fails(session, "join_challenge", {"challenge_id": joined["challenge_id"]}, "Conflict", "already joined")
    may = ok(session, "join_challenge", {"challenge_id": by_title["May Minutes Challenge"]["challenge_id"]})
    assert may["joined"] and may["progress"] > 0
    upcoming = ok(session, "join_challenge", {"challenge_id": by_title["Pride Ride 2026"]["challenge_id"]})
    assert upcoming["state"] == "upcoming" and upcoming["progress"] == 0


def test_follow_private_is_pending_and_unfollow(session: ToolSession) -> None:
    sign_in(session, "priya")
    assert ok(session, "follow_member", {"username": "UmaRee49"})["status"] == "pending"
    assert ok(session, "follow_member", {"username": "ChloePar88"})["status"] == "following"
    fails(session, "follow_member", {"username": "ChloePar88"}, "Conflict", "already follow")
    fails(session, "follow_member", {"username": "PriyaFlows"}, "InvalidRequest", "yourself")
    fails(session, "unfollow_member", {"username": "RaviKoc13"}, "NotFound", "do not follow")
    ok(session, "unfollow_member", {"username": "PaulaDub91"})
    listed = ok(session, "search_members", {"following_only": True})
    assert "PaulaDub91" not in {m["username"] for m in listed}
    fails(session, "search_members", {}, "InvalidRequest", "following_only")
