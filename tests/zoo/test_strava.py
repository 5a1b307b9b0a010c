"""The Strava environment's tools: results and state transitions for each product rule (scopes, privacy, gear
totals, derived PRs and crowns, kudos, clubs), and every error path leaving the state unchanged. Runs the real
tools on the real seed through ToolSession."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("strava")
CLOCK = datetime(2025, 6, 14, 16, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ALL = ["read", "read_all", "profile:read_all", "profile:write", "activity:read_all", "activity:write"]


# ---------------------------------------------------------------- seed lookups (by name, never by raw id)


def athlete(first: str, last: str) -> dict[str, Any]:
    return next(a for a in SEED["athletes"] if (a["firstname"], a["lastname"]) == (first, last))


def activity(first: str, last: str, name: str) -> dict[str, Any]:
    aid = athlete(first, last)["id"]
    return max(
        (a for a in SEED["activities"] if a["athlete_id"] == aid and a["name"] == name), key=lambda a: a["start_date"]
    )


def gear(first: str, last: str, name: str) -> dict[str, Any]:
    aid = athlete(first, last)["id"]
    return next(g for g in SEED["gear"] if g["athlete_id"] == aid and g["name"] == name)


def segment(name: str) -> dict[str, Any]:
    return next(s for s in SEED["segments"] if s["name"] == name)


def club(vanity: str) -> dict[str, Any]:
    return next(c for c in SEED["clubs"] if c["vanity"] == vanity)


def device_file(first: str, last: str) -> str:
    aid = athlete(first, last)["id"]
    return next(f["id"] for f in SEED["device_files"] if f["athlete_id"] == aid and f["id"].startswith("2025-06-14"))


# ---------------------------------------------------------------- session helpers

session = session_fixture(SPEC, CLOCK)


def auth(session: ToolSession, first: str, last: str, scope: list[str] | None = None) -> None:
    ok(session, "authorize_app", {"email": athlete(first, last)["email"], "scope": scope or ALL}, caller="user")


def row(session: ToolSession, table: str, key: str) -> dict[str, Any]:
    return session.dump()[table][key]


# ---------------------------------------------------------------- OAuth


def test_authorize_is_user_only_and_checks_the_login(session):
    email = athlete("Jordan", "Reyes")["email"]
    fails(session, "authorize_app", {"email": email}, "user_only", "only be performed by the user")
    fails(session, "authorize_app", {"email": "nobody@example.com"}, "NotFound", "did not match", caller="user")
    token = ok(session, "authorize_app", {"email": email.upper(), "scope": ["activity:write"]}, caller="user")
    assert token["athlete"]["firstname"] == "Jordan" and token["scope"] == ["activity:write", "read"]
    auth(session, "Priya", "Natarajan", ["profile:read_all"])
    assert row(session, "oauth_tokens", "current")["athlete_id"] == athlete("Priya", "Natarajan")["id"]
    assert len(session.dump()["oauth_tokens"]) == 1


def test_tools_need_a_token_and_the_right_scope(session):
    fails(session, "get_logged_in_athlete", {}, "PermissionDenied", "no access token")
    auth(session, "Jordan", "Reyes", ["activity:read"])
    args = {"name": "Run", "sport_type": "Run", "start_date_local": "2025-06-14T06:00:00", "elapsed_time": 600}
    fails(session, "create_activity", args, "PermissionDenied", "activity:write")
    fails(session, "get_logged_in_athlete_zones", {}, "PermissionDenied", "profile:read_all")
    fails(session, "update_logged_in_athlete", {"weight": 70}, "PermissionDenied", "profile:write")
    fails(session, "star_segment", {"segment_id": segment("Super Flag")["id"]}, "PermissionDenied", "profile:write")
    assert ok(session, "get_logged_in_athlete")["firstname"] == "Jordan"


def test_only_me_activities_need_activity_read_all(session):
    hidden = activity("Jordan", "Reyes", "Royal Arch scramble")
    assert hidden["visibility"] == "only_me"
    auth(session, "Jordan", "Reyes", ["activity:read"])
    listed = {a["id"] for a in ok(session, "list_athlete_activities", {"page_size": 200})["results"]}
    assert hidden["id"] not in listed
    fails(session, "get_activity", {"activity_id": hidden["id"]}, "NotFound", "Record Not Found")
    auth(session, "Jordan", "Reyes", ["activity:read_all"])
    listed = {a["id"] for a in ok(session, "list_athlete_activities", {"page_size": 200})["results"]}
    assert hidden["id"] in listed
    assert ok(session, "get_activity", {"activity_id": hidden["id"]})["private"] is True


# ---------------------------------------------------------------- athlete, zones


def test_profile_lists_clubs_and_gear(session):
    auth(session, "Jordan", "Reyes")
    me = ok(session, "get_logged_in_athlete")
    clubs = {c["name"]: c for c in me["clubs"]}
    assert clubs["Boulder Trail Runners"]["owner"] and clubs["Boulder Trail Runners"]["private"]
    shoes = {s["name"]: s for s in me["shoes"]}
    assert shoes["Daily Pegs"]["primary"] and shoes["Old Cascadias"]["retired"]
    assert [b["name"] for b in me["bikes"]] == ["Commuter"]
    expected = sum(1 for f in SEED["follows"] if f["athlete_id"] == me["id"])
    assert me["follower_count"] == expected


def test_zones_derive_from_max_heart_rate_and_ftp(session):
    auth(session, "Marcus", "Webb")
    zones = ok(session, "get_logged_in_athlete_zones")
    max_hr = athlete("Marcus", "Webb")["max_heartrate"]
    hr = zones["heart_rate"]
    assert not hr["custom_zones"] and hr["zones"][0] == {"min": 0, "max": round(max_hr * 0.65)}
    assert hr["zones"][-1]["max"] == -1 and len(hr["zones"]) == 5
    assert len(zones["power"]["zones"]) == 7 and zones["power"]["zones"][3]["max"] == round(295 * 1.05)
    ok(session, "update_logged_in_athlete", {"ftp": 305, "weight": 78.4})
    assert ok(session, "get_logged_in_athlete_zones")["power"]["zones"][3] == {
        "min": round(305 * 0.9) + 1,
        "max": round(305 * 1.05),
    }
    stored = row(session, "athletes", athlete("Marcus", "Webb")["id"])
    assert (stored["ftp"], stored["weight"]) == (305, 78.4)


def test_custom_heart_rate_zones_and_no_power_without_ftp(session):
    auth(session, "Aiko", "Tanaka")
    zones = ok(session, "get_logged_in_athlete_zones")
    assert zones["heart_rate"]["custom_zones"] and zones["heart_rate"]["zones"][1] == {"min": 131, "max": 155}
    assert zones["power"] is None


def test_update_athlete_validates(session):
    auth(session, "Marcus", "Webb")
    fails(session, "update_logged_in_athlete", {}, "InvalidRequest", "Give a weight")
    fails(session, "update_logged_in_athlete", {"weight": 500}, "invalid_arguments", "between 20 and 300")
    fails(session, "update_logged_in_athlete", {"ftp": 5}, "invalid_arguments", "between 50 and 600")


# ---------------------------------------------------------------- manual activities and gear totals


def test_create_activity_uses_default_gear_privacy_and_local_time(session):
    auth(session, "Aiko", "Tanaka")
    shoes = gear("Aiko", "Tanaka", "Cloudmonsters")
    created = ok(
        session,
        "create_activity",
        {
            "name": "Treadmill 10k",
            "sport_type": "Run",
            "start_date_local": "2025-06-14T05:45",
            "elapsed_time": 2550,
            "distance": 10000,
            "trainer": True,
        },
    )
    assert created["manual"] and created["trainer"] and created["visibility"] == "followers_only"
    assert created["start_date_local"] == "2025-06-14T05:45:00Z" and created["start_date"] == "2025-06-14T11:45:00Z"
    assert created["gear_id"] == shoes["id"] and created["average_speed"] == round(10000 / 2550, 3)
    assert row(session, "gear", shoes["id"])["distance"] == shoes["distance"] + 10000
    yoga = ok(
        session,
        "create_activity",
        {"name": "Yoga", "sport_type": "Yoga", "start_date_local": "2025-06-13T18:30:00", "elapsed_time": 3600},
    )
    assert yoga["gear_id"] is None and yoga["distance"] == 0.0


def test_create_activity_rules(session):
    auth(session, "Aiko", "Tanaka")
    base = {"name": "Run", "sport_type": "Run", "start_date_local": "2025-06-14T05:45:00", "elapsed_time": 600}
    fails(session, "create_activity", {**base, "elapsed_time": 0}, "invalid_arguments", "greater than 0")
    fails(session, "create_activity", {**base, "name": "  "}, "invalid_arguments", "blank")
    fails(session, "create_activity", {**base, "distance": -5}, "invalid_arguments", "negative")
    fails(session, "create_activity", {**base, "start_date_local": "yesterday"}, "invalid_arguments", "ISO 8601")
    fails(session, "create_activity", {**base, "start_date_local": "2025-06-14T11:00:00"}, "InvalidRequest", "future")
    fails(session, "create_activity", {**base, "sport_type": "Parkour"}, "invalid_arguments", "sport_type")


def test_changing_gear_moves_the_distance_between_totals(session):
    auth(session, "Marcus", "Webb")
    ride = activity("Marcus", "Webb", "Rez loops")
    road, crux = gear("Marcus", "Webb", "Road bike"), gear("Marcus", "Webb", "Crux")
    assert ride["gear_id"] == road["id"]
    ok(session, "update_activity", {"activity_id": ride["id"], "gear_id": crux["id"]})
    assert row(session, "gear", road["id"])["distance"] == round(road["distance"] - ride["distance"], 1)
    assert row(session, "gear", crux["id"])["distance"] == round(crux["distance"] + ride["distance"], 1)
    ok(session, "update_activity", {"activity_id": ride["id"], "gear_id": "none"})
    assert row(session, "gear", crux["id"])["distance"] == crux["distance"]
    assert row(session, "activities", ride["id"])["gear_id"] is None


def test_gear_must_be_active_own_and_fit_the_sport(session):
    auth(session, "Jordan", "Reyes")
    run = activity("Jordan", "Reyes", "Sanitas + Green double")
    old = gear("Jordan", "Reyes", "Old Cascadias")["id"]
    fails(session, "update_activity", {"activity_id": run["id"], "gear_id": old}, "InvalidRequest", "retired")
    fails(
        session,
        "update_activity",
        {"activity_id": run["id"], "gear_id": gear("Jordan", "Reyes", "Commuter")["id"]},
        "InvalidRequest",
        "takes shoes",
    )
    fails(
        session,
        "update_activity",
        {"activity_id": run["id"], "gear_id": gear("Priya", "Natarajan", "Ghosts")["id"]},
        "NotFound",
        "gear",
    )
    fails(session, "update_activity", {"activity_id": run["id"]}, "InvalidRequest", "Nothing to update")


def test_changing_the_sport_switches_to_the_default_gear_of_the_new_sport(session):
    auth(session, "Jordan", "Reyes")
    run = activity("Jordan", "Reyes", "Sanitas + Green double")
    shoes, bike = gear("Jordan", "Reyes", "Speedgoats"), gear("Jordan", "Reyes", "Commuter")
    updated = ok(session, "update_activity", {"activity_id": run["id"], "sport_type": "Ride"})
    assert updated["gear_id"] == bike["id"] and updated["sport_type"] == "Ride"
    assert row(session, "gear", shoes["id"])["distance"] == round(shoes["distance"] - run["distance"], 1)
    assert row(session, "gear", bike["id"])["distance"] == round(bike["distance"] + run["distance"], 1)


def test_only_your_own_activities_can_be_edited(session):
    auth(session, "Priya", "Natarajan")
    double = activity("Jordan", "Reyes", "Sanitas + Green double")
    assert ok(session, "get_activity", {"activity_id": double["id"]})["athlete"]["firstname"] == "Jordan"
    fails(
        session,
        "update_activity",
        {"activity_id": double["id"], "name": "Mine"},
        "PermissionDenied",
        "your own activities",
    )


# ---------------------------------------------------------------- privacy


def test_followers_only_and_only_me_activities_are_hidden_from_others(session):
    tempo = activity("Aiko", "Tanaka", "Creek path tempo")
    assert tempo["visibility"] == "followers_only"
    assert f"{athlete('Priya', 'Natarajan')['id']}-{athlete('Aiko', 'Tanaka')['id']}" not in {
        f["id"] for f in SEED["follows"]
    }
    auth(session, "Priya", "Natarajan")
    fails(session, "get_activity", {"activity_id": tempo["id"]}, "NotFound", "Record Not Found")
    fails(session, "give_kudos", {"activity_id": tempo["id"]}, "NotFound", "Record Not Found")
    auth(session, "Jordan", "Reyes")
    assert ok(session, "get_activity", {"activity_id": tempo["id"]})["visibility"] == "followers_only"
    secret = activity("Kelsey", "Moore", "Secret test run")
    fails(session, "get_activity", {"activity_id": secret["id"]}, "NotFound", "Record Not Found")
    feed = ok(session, "list_club_activities", {"club_id": "boulder-trail-runners", "page_size": 200})["results"]
    assert secret["id"] not in {a["id"] for a in feed} and tempo["id"] in {a["id"] for a in feed}


def test_only_me_activities_leave_the_leaderboard(session):
    seg = segment("Super Flag")
    auth(session, "Priya", "Natarajan")
    qom = ok(session, "get_segment", {"segment_id": seg["id"]})["xoms"]["qom"]
    female = {a["id"] for a in SEED["athletes"] if a["sex"] == "F"}
    best = min(
        (
            e
            for e in SEED["segment_efforts"]
            if e["segment_id"] == seg["id"]
            and e["athlete_id"] in female
            and next(a for a in SEED["activities"] if a["id"] == e["activity_id"])["visibility"] != "only_me"
        ),
        key=lambda e: (e["elapsed_time"], e["start_date"]),
    )
    minutes, seconds = divmod(best["elapsed_time"], 60)
    assert qom == f"{minutes}:{seconds:02d}"
    holder = next(a for a in SEED["athletes"] if a["id"] == best["athlete_id"])
    auth(session, holder["firstname"], holder["lastname"])
    ok(session, "update_activity", {"activity_id": best["activity_id"], "visibility": "only_me"})
    assert ok(session, "get_segment", {"segment_id": seg["id"]})["xoms"]["qom"] != qom
    stats = ok(session, "get_segment", {"segment_id": seg["id"]})["athlete_segment_stats"]
    assert stats["pr_elapsed_time"] <= best["elapsed_time"]  # a private effort still counts as the athlete's PR


# ---------------------------------------------------------------- uploads, derived PRs and crowns


def test_upload_creates_the_activity_with_laps_efforts_and_ranks(session):
    auth(session, "Chloe", "Dubois")
    fails(session, "upload_activity_file", {"file_name": device_file("Chloe", "Dubois")}, "user_only", "user")
    shoes = gear("Chloe", "Dubois", "Invincibles")
    upload = ok(session, "upload_activity_file", {"file_name": device_file("Chloe", "Dubois")}, caller="user")
    assert upload["status"] == "Your activity is ready." and upload["error"] is None
    run = ok(session, "get_activity", {"activity_id": upload["activity_id"]})
    assert run["name"] == "Morning Run" and not run["manual"] and run["gear_id"] == shoes["id"]
    assert run["laps"] and sum(lap["distance"] for lap in run["laps"]) == pytest.approx(run["distance"])
    effort = run["segment_efforts"][0]
    assert effort["name"] == "Parliament Hill Climb" and effort["pr_rank"] == 1 and effort["kom_rank"] == 1
    assert run["achievement_count"] == 1
    seg = ok(session, "get_segment", {"segment_id": segment("Parliament Hill Climb")["id"]})
    minutes, seconds = divmod(effort["elapsed_time"], 60)
    assert seg["xoms"]["qom"] == f"{minutes}:{seconds:02d}"
    assert seg["athlete_segment_stats"]["pr_activity_id"] == run["id"]
    assert row(session, "gear", shoes["id"])["distance"] == round(shoes["distance"] + run["distance"], 1)


def test_upload_rejects_duplicates_unknown_files_and_formats(session):
    duplicate = next(f for f in SEED["device_files"] if not f["id"].startswith("2025-06-14"))
    existing = next(a for a in SEED["activities"] if a["external_id"] == duplicate["id"])
    fails(
        session,
        "upload_activity_file",
        {"file_name": duplicate["id"]},
        "Conflict",
        f"duplicate of activity {existing['id']}",
        caller="user",
    )
    fails(
        session, "upload_activity_file", {"file_name": "2025-01-01-00-00-00.fit"}, "NotFound", "No file", caller="user"
    )
    fails(session, "upload_activity_file", {"file_name": "run.zip"}, "InvalidRequest", "fit, tcx or gpx", caller="user")


def test_pr_rank_counts_only_earlier_efforts(session):
    auth(session, "Jordan", "Reyes")
    upload = ok(session, "upload_activity_file", {"file_name": device_file("Jordan", "Reyes")}, caller="user")
    efforts = ok(session, "get_activity", {"activity_id": upload["activity_id"]})["segment_efforts"]
    for effort in efforts:
        earlier = [
            e["elapsed_time"]
            for e in SEED["segment_efforts"]
            if e["segment_id"] == effort["segment"]["id"] and e["athlete_id"] == athlete("Jordan", "Reyes")["id"]
        ]
        faster = sum(1 for t in earlier if t < effort["elapsed_time"])
        assert effort["pr_rank"] == (faster + 1 if faster < 3 else None)


# ---------------------------------------------------------------- kudos and comments


def test_kudos_rules(session):
    auth(session, "Priya", "Natarajan")
    own = activity("Priya", "Natarajan", "Flagstaff + Super Flag")
    fails(session, "give_kudos", {"activity_id": own["id"]}, "InvalidRequest", "your own activity")
    double = activity("Jordan", "Reyes", "Sanitas + Green double")
    before = sum(1 for k in SEED["kudos"] if k["activity_id"] == double["id"])
    result = ok(session, "give_kudos", {"activity_id": double["id"]})
    assert result == {"activity_id": double["id"], "kudos_count": before + 1, "has_kudoed": True}
    assert ok(session, "get_activity", {"activity_id": double["id"]})["has_kudoed"]
    fails(session, "give_kudos", {"activity_id": double["id"]}, "Conflict", "already gave kudos")


def test_comments(session):
    auth(session, "Jordan", "Reyes")
    double = activity("Jordan", "Reyes", "Sanitas + Green double")
    fails(
        session, "create_activity_comment", {"activity_id": double["id"], "text": "   "}, "invalid_arguments", "blank"
    )
    fails(
        session,
        "create_activity_comment",
        {"activity_id": double["id"], "text": "x" * 1001},
        "invalid_arguments",
        "1000",
    )
    comment = ok(session, "create_activity_comment", {"activity_id": double["id"], "text": " Thanks all! "})
    assert comment["text"] == "Thanks all!" and comment["athlete"]["firstname"] == "Jordan"
    assert row(session, "comments", comment["id"])["activity_id"] == double["id"]
    assert ok(session, "get_activity", {"activity_id": double["id"]})["comment_count"] == 1 + sum(
        1 for c in SEED["comments"] if c["activity_id"] == double["id"]
    )


# ---------------------------------------------------------------- segments


def test_star_segment_is_idempotent_and_unstars(session):
    auth(session, "Freya", "Lindqvist")
    box = segment("Box Hill ZigZag")["id"]
    key = f"{athlete('Freya', 'Lindqvist')['id']}-{box}"
    stars = sum(1 for s in SEED["segment_stars"] if s["segment_id"] == box)
    first = ok(session, "star_segment", {"segment_id": box})
    assert first["starred"] and first["star_count"] == stars + 1
    assert ok(session, "star_segment", {"segment_id": box})["star_count"] == stars + 1
    assert key in session.dump()["segment_stars"]
    assert not ok(session, "star_segment", {"segment_id": box, "starred": False})["starred"]
    assert key not in session.dump()["segment_stars"]


def test_private_segments_are_seen_only_by_their_creator_with_read_all(session):
    private = next(s for s in SEED["segments"] if s["private"])
    auth(session, "Jordan", "Reyes", ["read"])
    fails(session, "get_segment", {"segment_id": private["id"]}, "NotFound", "Record Not Found")
    auth(session, "Jordan", "Reyes", ["read_all"])
    assert ok(session, "get_segment", {"segment_id": private["id"]})["private"]
    auth(session, "Aiko", "Tanaka")
    fails(session, "get_segment", {"segment_id": private["id"]}, "NotFound", "Record Not Found")


# ---------------------------------------------------------------- gear


def test_update_gear_primary_and_retirement(session):
    auth(session, "Diego", "Alvarez")
    p5, training = gear("Diego", "Alvarez", "P5"), gear("Diego", "Alvarez", "Training bike")
    assert ok(session, "update_gear", {"gear_id": training["id"], "primary": True})["primary"]
    assert not row(session, "gear", p5["id"])["primary"]
    retired = ok(session, "update_gear", {"gear_id": training["id"], "retired": True})
    assert retired["retired"] and not retired["primary"]
    fails(session, "update_gear", {"gear_id": training["id"], "primary": True}, "InvalidRequest", "retired")
    fails(
        session, "update_gear", {"gear_id": p5["id"], "notification_distance": 500000}, "InvalidRequest", "Only shoes"
    )
    fails(session, "update_gear", {"gear_id": p5["id"]}, "InvalidRequest", "Nothing to update")
    fails(session, "update_gear", {"gear_id": gear("Sam", "Okafor", "Bostons")["id"], "name": "x"}, "NotFound", "gear")
    shoes = ok(
        session, "update_gear", {"gear_id": gear("Diego", "Alvarez", "Kinvaras")["id"], "notification_distance": 650000}
    )
    assert shoes["notification_distance"] == 650000.0


def test_new_activities_skip_retired_default_gear(session):
    auth(session, "Jordan", "Reyes")
    pegs = gear("Jordan", "Reyes", "Daily Pegs")
    ok(session, "update_gear", {"gear_id": pegs["id"], "retired": True})
    run = ok(
        session,
        "create_activity",
        {
            "name": "Shakeout",
            "sport_type": "Run",
            "start_date_local": "2025-06-14T07:00:00",
            "elapsed_time": 1500,
            "distance": 4000,
        },
    )
    assert run["gear_id"] is None and row(session, "gear", pegs["id"])["distance"] == pegs["distance"]


# ---------------------------------------------------------------- clubs


def test_get_club_by_vanity_shows_members_to_members_and_requests_to_admins(session):
    auth(session, "Priya", "Natarajan")
    outsider = ok(session, "get_club", {"club_id": "boulder-trail-runners"})
    assert outsider["membership"] is None and outsider["members"] == [] and outsider["join_requests"] == []
    auth(session, "Diego", "Alvarez")
    member = ok(session, "get_club", {"club_id": "boulder-trail-runners"})
    assert member["members"] and member["join_requests"] == [] and not member["admin"]
    auth(session, "Jordan", "Reyes")
    owner = ok(session, "get_club", {"club_id": club("boulder-trail-runners")["id"]})
    assert owner["owner"] and {r["athlete"]["firstname"] for r in owner["join_requests"]} == {"Hannah", "Tom", "Grace"}
    assert owner["member_count"] == len(owner["members"])
    fails(session, "get_club", {"club_id": "no-such-club"}, "NotFound", "club")


def test_join_public_and_private_clubs_and_leave(session):
    auth(session, "Priya", "Natarajan")
    gravel = club("front-range-gravel")["id"]
    assert ok(session, "join_club", {"club_id": gravel}) == {"success": True, "active": True, "membership": "member"}
    fails(session, "join_club", {"club_id": gravel}, "Conflict", "already a member")
    trail = club("boulder-trail-runners")["id"]
    assert ok(session, "join_club", {"club_id": trail})["membership"] == "pending"
    fails(session, "join_club", {"club_id": trail}, "Conflict", "already asked")
    fails(session, "list_club_activities", {"club_id": trail}, "PermissionDenied", "Only members")
    assert ok(session, "leave_club", {"club_id": trail}) == {"success": True, "active": False, "membership": None}
    assert f"{trail}-{athlete('Priya', 'Natarajan')['id']}" not in session.dump()["club_memberships"]
    fails(session, "leave_club", {"club_id": trail}, "Conflict", "not a member")


def test_the_owner_cannot_leave(session):
    auth(session, "Luca", "Moretti")
    fails(session, "leave_club", {"club_id": "regents-park-rouleurs"}, "Conflict", "You own")


def test_manage_club_member_rules(session):
    trail = club("boulder-trail-runners")["id"]
    ids = {
        n: athlete(*n.split())["id"]
        for n in ("Hannah Berg", "Tom Hale", "Kelsey Moore", "Aiko Tanaka", "Jordan Reyes", "Caleb Wright")
    }
    auth(session, "Diego", "Alvarez")
    fails(
        session,
        "manage_club_member",
        {"club_id": trail, "athlete_id": ids["Hannah Berg"], "action": "approve"},
        "PermissionDenied",
        "Only admins",
    )
    auth(session, "Aiko", "Tanaka")  # an admin, not the owner
    fails(
        session,
        "manage_club_member",
        {"club_id": trail, "athlete_id": ids["Jordan Reyes"], "action": "remove"},
        "PermissionDenied",
        "owns",
    )
    fails(
        session,
        "manage_club_member",
        {"club_id": trail, "athlete_id": ids["Aiko Tanaka"], "action": "demote"},
        "InvalidRequest",
        "your own membership",
    )
    fails(
        session,
        "manage_club_member",
        {"club_id": trail, "athlete_id": ids["Kelsey Moore"], "action": "approve"},
        "Conflict",
        "already a member",
    )
    fails(
        session,
        "manage_club_member",
        {"club_id": trail, "athlete_id": ids["Tom Hale"], "action": "remove"},
        "Conflict",
        "only asked to join",
    )
    fails(
        session,
        "manage_club_member",
        {"club_id": trail, "athlete_id": athlete("Luca", "Moretti")["id"], "action": "remove"},
        "NotFound",
        "not a member",
    )
    approved = ok(
        session, "manage_club_member", {"club_id": trail, "athlete_id": ids["Hannah Berg"], "action": "approve"}
    )
    assert (
        approved["membership"] == "member"
        and approved["member_count"] == ok(session, "get_club", {"club_id": trail})["member_count"]
    )
    ok(session, "manage_club_member", {"club_id": trail, "athlete_id": ids["Kelsey Moore"], "action": "promote"})
    fails(
        session,
        "manage_club_member",
        {"club_id": trail, "athlete_id": ids["Kelsey Moore"], "action": "remove"},
        "PermissionDenied",
        "Only the owner",
    )
    removed = ok(
        session, "manage_club_member", {"club_id": trail, "athlete_id": ids["Caleb Wright"], "action": "remove"}
    )
    assert removed["membership"] is None
    assert f"{trail}-{ids['Caleb Wright']}" not in session.dump()["club_memberships"]
    auth(session, "Jordan", "Reyes")
    demoted = ok(
        session, "manage_club_member", {"club_id": trail, "athlete_id": ids["Kelsey Moore"], "action": "demote"}
    )
    assert demoted["role"] == "member"
    ok(session, "manage_club_member", {"club_id": trail, "athlete_id": ids["Tom Hale"], "action": "decline"})
    assert f"{trail}-{ids['Tom Hale']}" not in session.dump()["club_memberships"]


def test_club_feed_is_newest_first_and_paginates(session):
    auth(session, "Jordan", "Reyes")
    first = ok(session, "list_club_activities", {"club_id": "boulder-trail-runners", "page_size": 5})
    assert first["has_more"] and len(first["results"]) == 5
    dates = [a["start_date"] for a in first["results"]]
    assert dates == sorted(dates, reverse=True)
    second = ok(
        session,
        "list_club_activities",
        {"club_id": "boulder-trail-runners", "page_size": 5, "cursor": first["next_cursor"]},
    )
    assert second["results"][0]["start_date"] <= dates[-1]
    fails(
        session,
        "list_club_activities",
        {"club_id": "boulder-trail-runners", "page_size": 500},
        "invalid_arguments",
        "page_size",
    )


# ---------------------------------------------------------------- routes


def test_private_routes_need_read_all(session):
    auth(session, "Jordan", "Reyes", ["read"])
    names = {r["name"] for r in ok(session, "list_athlete_routes")["results"]}
    assert "Secret Linden Hill Repeats" not in names and "Bear Peak Loop" in names
    auth(session, "Jordan", "Reyes", ["read_all"])
    routes = {r["name"]: r for r in ok(session, "list_athlete_routes")["results"]}
    assert routes["Secret Linden Hill Repeats"]["private"]
    assert [s["name"] for s in routes["Sanitas-Green Double"]["segments"]] == [
        "Mount Sanitas Climb",
        "Green Mountain via Amphitheater",
    ]


def test_bounds_live_in_the_argument_types_with_stravas_wording(session):
    auth(session, "Diego", "Alvarez")
    kinvaras = gear("Diego", "Alvarez", "Kinvaras")["id"]
    fails(
        session, "update_gear", {"gear_id": kinvaras, "notification_distance": 0}, "invalid_arguments", "greater than 0"
    )
    fails(session, "update_gear", {"gear_id": kinvaras, "name": "  "}, "invalid_arguments", "name can't be blank")
    fails(session, "list_athlete_activities", {"page_size": 0}, "invalid_arguments", "page_size")
    props = SPEC.tools["create_activity"].input_schema["properties"]
    assert props["elapsed_time"]["exclusiveMinimum"] == 0 and props["distance"]["minimum"] == 0
    assert "pattern" in props["start_date_local"] and "pattern" in props["name"]
    assert SPEC.tools["list_athlete_routes"].input_schema["properties"]["page_size"]["maximum"] == 200


def test_signing_in_again_replaces_the_session_and_its_scopes(session):
    auth(session, "Diego", "Alvarez")
    ok(
        session,
        "authorize_app",
        {"email": athlete("Marcus", "Webb")["email"], "scope": ["activity:read_all"]},
        caller="user",
    )
    token = row(session, "oauth_tokens", "current")
    assert token["athlete_id"] == athlete("Marcus", "Webb")["id"] and token["scope"] == ["activity:read_all", "read"]
    assert len(session.dump()["oauth_tokens"]) == 1
    fails(session, "update_logged_in_athlete", {"ftp": 250}, "PermissionDenied", "profile:write")


def test_time_windows_are_epoch_seconds_within_range(session):
    auth(session, "Priya", "Natarajan")
    fails(session, "list_athlete_activities", {"before": -1}, "invalid_arguments", "before")
    fails(session, "list_athlete_activities", {"after": 10**12}, "invalid_arguments", "after")
    week = ok(session, "list_athlete_activities", {"after": 1749448800, "before": 1749859200, "page_size": 200})
    dates = [a["start_date"] for a in week["results"]]
    assert dates and dates == sorted(dates, reverse=True)
    assert all("2025-06-09T06:00:00Z" < d < "2025-06-14T00:00:00Z" for d in dates)
