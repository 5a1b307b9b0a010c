"""The Duolingo environment's tools on the real seed: sign-in, courses (add makes current, switch, no removing the
current course), the course path, XP history bounds, the daily goal, streak freezes (two at most), heart refills (not
with Super), Double or Nothing (one at a time), streak repair (two days), gems, the league table and its zones,
turning leaderboards off and on, quests (claim once, only when complete, Friends Quests counting both partners), and
follows (not learners with limited social features). Every refused call is checked to leave the state unchanged."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("duolingo")
CLOCK = datetime(2026, 6, 11, 18, 0, tzinfo=timezone.utc)
EMAIL = {
    "maya": "maya.chen@gmail.com",
    "tom": "tom.okafor@outlook.com",
    "lucia": "lucia.fernandez@proton.me",
    "priya": "priya.raman@fastmail.com",
    "ben": "ben.walsh@icloud.com",
}

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, who: str) -> dict:
    return ok(session, "sign_in", {"email": EMAIL[who]}, caller="user")


def quest_id(session: ToolSession, title: str, **filters: str) -> str:
    return next(q["quest_id"] for q in ok(session, "list_quests", filters) if q["title"] == title)


def test_tools_need_a_signed_in_learner(session: ToolSession) -> None:
    fails(session, "get_me", {}, "PermissionDenied", "sign in")
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "Login failed", caller="user")
    me = sign_in(session, "maya")
    assert me["username"] == "maya_chen" and me["xp_today"] == 15 and not me["daily_goal_met"]


def test_sign_in_is_the_learners_own_act(session: ToolSession) -> None:
    outcome = session.call("sign_in", {"email": EMAIL["maya"]}, caller="agent")
    assert not outcome.ok


def test_add_course_makes_it_current_and_refuses_duplicates(session: ToolSession) -> None:
    sign_in(session, "maya")
    added = ok(session, "add_course", {"course_id": "DUOLINGO_IT_EN"})
    assert added["is_current"] and added["xp"] == 0 and added["lessons_completed"] == 0
    assert ok(session, "get_me")["current_course_id"] == "DUOLINGO_IT_EN"
    fails(session, "add_course", {"course_id": "DUOLINGO_ES_EN"}, "Conflict", "already learning Spanish")
    fails(session, "add_course", {"course_id": "DUOLINGO_XX_EN"}, "NotFound", "not found")
    fails(session, "add_course", {"course_id": "spanish"}, "invalid_arguments", "DUOLINGO_ES_EN")


def test_current_course_cannot_be_removed_until_switched(session: ToolSession) -> None:
    sign_in(session, "ben")
    fails(session, "remove_course", {"course_id": "DUOLINGO_FR_EN"}, "Conflict", "switch to another course")
    fails(session, "switch_course", {"course_id": "DUOLINGO_FR_EN"}, "Conflict", "already your current")
    fails(session, "switch_course", {"course_id": "DUOLINGO_DE_EN"}, "NotFound", "add the course first")
    ok(session, "switch_course", {"course_id": "DUOLINGO_MUSIC_EN"})
    left = ok(session, "remove_course", {"course_id": "DUOLINGO_FR_EN"})
    assert [c["course_id"] for c in left] == ["DUOLINGO_MUSIC_EN"]
    assert ok(session, "get_me")["total_xp"] == 2210  # earned XP stays
    fails(session, "remove_course", {"course_id": "DUOLINGO_FR_EN"}, "NotFound", "not learning")


def test_course_path_marks_complete_in_progress_and_locked_units(session: ToolSession) -> None:
    sign_in(session, "maya")
    path = ok(session, "get_course_progress", {"course_id": "DUOLINGO_FR_EN"})
    statuses = [u["status"] for u in path["units"]]
    assert statuses[:3] == ["complete"] * 3 and statuses[3] == "in_progress" and set(statuses[4:]) == {"locked"}
    assert path["units"][3]["lessons_completed"] == 2 and path["current_unit"] == path["units"][3]["title"]
    assert sum(u["lessons_completed"] for u in path["units"]) == path["lessons_completed"] == 17
    fails(session, "get_course_progress", {"course_id": "DUOLINGO_JA_EN"}, "NotFound", "not learning Japanese")


def test_catalogue_filters_by_language_taught_from(session: ToolSession) -> None:
    sign_in(session, "lucia")
    from_spanish = ok(session, "list_courses", {"from_language": "es"})
    assert {c["course_id"] for c in from_spanish} == {
        "DUOLINGO_EN_ES",
        "DUOLINGO_IT_ES",
        "DUOLINGO_FR_ES",
        "DUOLINGO_PT_ES",
    }
    learners = [c["num_learners"] for c in from_spanish]
    assert learners == sorted(learners, reverse=True)
    mine = ok(session, "list_courses", {"enrolled_only": True})
    assert {c["course_id"] for c in mine} == {"DUOLINGO_EN_ES", "DUOLINGO_IT_ES"} and all(c["enrolled"] for c in mine)


def test_daily_goal_options_and_no_op_change(session: ToolSession) -> None:
    sign_in(session, "maya")
    me = ok(session, "set_daily_goal", {"xp": 10})
    assert me["daily_goal_name"] == "Casual" and me["daily_goal_met"]  # 15 XP today
    fails(session, "set_daily_goal", {"xp": 10}, "Conflict", "already 10 XP")
    fails(session, "set_daily_goal", {"xp": 15}, "invalid_arguments", "")


def test_xp_history_fills_gaps_and_bounds_the_range(session: ToolSession) -> None:
    sign_in(session, "tom")
    week = ok(session, "get_xp_history", {"start_date": "2026-06-08", "end_date": "2026-06-11"})
    missed = next(d for d in week["days"] if d["date"] == "2026-06-09")
    assert missed["xp"] == 0 and not missed["goal_met"] and not missed["frozen"]
    assert week["total_xp"] == sum(d["xp"] for d in week["days"])
    fails(session, "get_xp_history", {"start_date": "2026-05-01", "end_date": "2026-06-11"}, "InvalidRequest", "31")
    fails(session, "get_xp_history", {"start_date": "2026-06-11", "end_date": "2026-06-01"}, "InvalidRequest", "before")


def test_streak_freezes_two_at_most_and_cost_gems(session: ToolSession) -> None:
    sign_in(session, "maya")
    fails(session, "buy_item", {"item_id": "streak_freeze", "quantity": 2}, "Conflict", "up to 2 streak freezes")
    bought = ok(session, "buy_item", {"item_id": "streak_freeze"})
    assert bought["streak_freezes"] == 2 and bought["gems_left"] == 1240 - 200
    fails(session, "buy_item", {"item_id": "streak_freeze"}, "Conflict", "up to 2 streak freezes")
    ledger = ok(session, "list_gem_history", {"page_size": 1})["results"]
    assert ledger[0]["amount"] == -200 and ledger[0]["reason"] == "Bought Streak Freeze"
    fails(session, "buy_item", {"item_id": "heart_refill", "quantity": 2}, "InvalidRequest", "Only streak freezes")


def test_not_enough_gems(session: ToolSession) -> None:
    sign_in(session, "lucia")
    fails(session, "buy_item", {"item_id": "streak_freeze"}, "Conflict", "Not enough gems: this costs 200")
    assert not next(i for i in ok(session, "list_shop_items") if i["item_id"] == "streak_freeze")["can_afford"]


def test_heart_refill_rules(session: ToolSession) -> None:
    sign_in(session, "tom")
    fails(session, "buy_item", {"item_id": "heart_refill"}, "InvalidRequest", "unlimited hearts")
    assert ok(session, "get_me")["hearts"] is None
    sign_in(session, "maya")
    assert ok(session, "buy_item", {"item_id": "heart_refill"})["hearts"] == 5
    fails(session, "buy_item", {"item_id": "heart_refill"}, "Conflict", "already full")


def test_double_or_nothing_one_at_a_time(session: ToolSession) -> None:
    sign_in(session, "lucia")
    wager = ok(session, "get_streak")["wager"]
    assert wager == {"started_on": "2026-06-07", "days_kept": 4, "days_needed": 7, "payout_gems": 100}
    fails(session, "buy_item", {"item_id": "streak_wager"}, "Conflict", "already have an active")
    sign_in(session, "maya")
    bought = ok(session, "buy_item", {"item_id": "streak_wager"})
    assert bought["wager"]["started_on"] == "2026-06-11" and bought["gems_spent"] == 50


def test_streak_repair_within_two_days_only(session: ToolSession) -> None:
    sign_in(session, "tom")
    streak = ok(session, "get_streak")
    assert streak["repairable_streak"] == 58 and streak["repair_until"] == "2026-06-12"
    repaired = ok(session, "buy_item", {"item_id": "streak_repair"})
    assert repaired["streak"] == 59
    after = ok(session, "get_streak")
    assert after["repairable_streak"] is None and after["longest_streak"] == 59
    fails(session, "buy_item", {"item_id": "streak_repair"}, "Conflict", "no lost streak")


def test_streak_repair_window_closes(session: ToolSession) -> None:
    def lost_long_ago(tables: dict) -> None:
        tom = next(u for u in tables["users"] if u["username"] == "TomOkafor")
        tom["streak_lost_on"] = "2026-06-08"

    restore_seed_with(session, lost_long_ago, CLOCK)
    sign_in(session, "tom")
    assert ok(session, "get_streak")["repairable_streak"] is None
    fails(session, "buy_item", {"item_id": "streak_repair"}, "Conflict", "within 2 days")


def test_leaderboard_ranks_and_zones(session: ToolSession) -> None:
    sign_in(session, "maya")
    board = ok(session, "get_leaderboard")
    assert board["tier"] == "RUBY" and len(board["entries"]) == 30 and board["week_start"] == "2026-06-08"
    xps = [e["xp"] for e in board["entries"]]
    assert xps == sorted(xps, reverse=True)
    assert board["my_rank"] == 8 and board["my_zone"] == "safe" and board["promotion_spots"] == 7
    zones = [e["zone"] for e in board["entries"]]
    assert zones[:7] == ["promotion"] * 7 and zones[-5:] == ["demotion"] * 5 and zones[7:25] == ["safe"] * 18


def test_bronze_has_no_demotion_and_top_twenty_promote(session: ToolSession) -> None:
    sign_in(session, "lucia")
    board = ok(session, "get_leaderboard")
    assert board["demotion_spots"] == 0 and "demotion" not in {e["zone"] for e in board["entries"]}
    assert [e["zone"] for e in board["entries"]].count("promotion") == 20 and board["my_rank"] == 22


def test_leaving_and_rejoining_leaderboards(session: ToolSession) -> None:
    sign_in(session, "priya")
    assert ok(session, "get_leaderboard")["my_zone"] == "demotion"
    ok(session, "set_leaderboard_participation", {"enabled": False})
    board = ok(session, "get_leaderboard")
    assert not board["enabled"] and board["entries"] == [] and "turned off" in board["note"]
    fails(session, "set_leaderboard_participation", {"enabled": False}, "Conflict", "already turned off")
    again = ok(session, "set_leaderboard_participation", {"enabled": True})
    assert "next week" in again["note"]
    board = ok(session, "get_leaderboard")
    assert board["enabled"] and board["my_rank"] is None  # no league until Monday
    sign_in(session, "maya")
    assert len(ok(session, "get_leaderboard")["entries"]) == 30  # other cohorts untouched


def test_quest_claims_once_and_only_when_complete(session: ToolSession) -> None:
    sign_in(session, "maya")
    done = quest_id(session, "Complete 1 lesson", kind="DAILY")
    claim = ok(session, "claim_quest_reward", {"quest_id": done})
    assert claim["gems_awarded"] == 10 and claim["gems"] == 1250
    fails(session, "claim_quest_reward", {"quest_id": done}, "Conflict", "already claimed")
    fails(session, "claim_quest_reward", {"quest_id": quest_id(session, "Earn 30 XP")}, "Conflict", "15/30")
    fails(session, "claim_quest_reward", {"quest_id": quest_id(session, "Earn 50 XP")}, "Conflict", "ended without")
    yesterday = quest_id(session, "Score 90% or higher in 2 lessons")
    assert ok(session, "claim_quest_reward", {"quest_id": yesterday})["gems_awarded"] == 15  # ended but complete
    fails(session, "claim_quest_reward", {"quest_id": "qst_0007"}, "NotFound", "not found")  # Tom's quest


def test_friends_quest_counts_both_partners(session: ToolSession) -> None:
    sign_in(session, "priya")
    quest = next(q for q in ok(session, "list_quests", {"kind": "FRIENDS"}) if q["partner"] == "carlos_m")
    assert quest["status"] == "complete" and quest["progress"] == 1000  # 610 + 430, capped at the target
    ok(session, "claim_quest_reward", {"quest_id": quest["quest_id"]})


def test_friends_quest_needs_mutual_follow_and_one_a_week(session: ToolSession) -> None:
    sign_in(session, "maya")
    fails(session, "start_friends_quest", {"username": "lena_duo"}, "PermissionDenied", "follows you back")
    fails(session, "start_friends_quest", {"username": "carlos_m"}, "Conflict", "carlos_m already has")
    fails(session, "start_friends_quest", {"username": "maya_chen"}, "InvalidRequest", "yourself")
    quest = ok(session, "start_friends_quest", {"username": "aiko_t"})
    assert quest["ends_on"] == "2026-06-14" and quest["target"] == 1000 and quest["status"] == "in_progress"
    fails(session, "start_friends_quest", {"username": "jenna.lee"}, "Conflict", "You already have")
    sign_in(session, "tom")
    assert ok(session, "list_friends", {"direction": "followers"})  # Tom's follows are separate
    sign_in(session, "maya")
    assert [q["partner"] for q in ok(session, "list_quests", {"kind": "FRIENDS", "status": "in_progress"})] == [
        "aiko_t"
    ]


def test_follow_rules(session: ToolSession) -> None:
    sign_in(session, "maya")
    fails(session, "follow_user", {"username": "leo_chen_2014"}, "PermissionDenied", "limited social features")
    fails(session, "follow_user", {"username": "carlos_m"}, "Conflict", "already follow")
    fails(session, "follow_user", {"username": "maya_chen"}, "InvalidRequest", "yourself")
    fails(session, "follow_user", {"username": "nobody_here"}, "NotFound", "not found")
    result = ok(session, "follow_user", {"username": "OLIVER_B"})
    assert result == {"username": "oliver_b", "following": True, "follows_you": True}
    ok(session, "unfollow_user", {"username": "mayachen22"})
    fails(session, "unfollow_user", {"username": "mayachen22"}, "NotFound", "don't follow")
    following = {f["username"] for f in ok(session, "list_friends", {"direction": "following"})}
    assert "oliver_b" in following and "mayachen22" not in following


def test_search_finds_near_duplicates_and_excludes_me(session: ToolSession) -> None:
    sign_in(session, "tom")
    kims = ok(session, "search_users", {"query": "daniel kim"})
    assert {k["username"] for k in kims} == {"daniel.kim", "dkim_learns"}
    assert [k["following"] for k in kims if k["username"] == "daniel.kim"] == [True]
    assert all(u["username"] != "TomOkafor" for u in ok(session, "search_users", {"query": "tom"}))
    profile = ok(session, "get_user_profile", {"username": "daniel.kim"})
    assert profile["follows_you"] and profile["courses"][0]["course_id"] == "DUOLINGO_JA_EN"
