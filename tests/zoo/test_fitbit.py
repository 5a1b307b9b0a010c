"""The Fitbit environment's tools on the real seed: OAuth authorization and scopes, "today" in the user's time zone,
activity logging (catalog activities with METs calories and stride steps, custom ones with manual calories) and how
manual logs add to the day, the activity log list's beforeDate/afterDate rules and paging, date-range limits, daily
and weekly goals, sleep overlaps and the main sleep, body logs in the user's units and the weight goal, food and water
logs, tracker alarms (at most 8, none on scales) and the friends leaderboard. Every error path is checked to leave the
state unchanged, with Fitbit's error body in the message."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("fitbit")
CLOCK = datetime(2026, 3, 12, 17, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
EMAIL = {"priya": "priya.raman@fastmail.com", "dan": "daniel.okafor@outlook.com", "maya": "maya.chen@gmail.com"}
TODAY, YESTERDAY = "2026-03-12", "2026-03-11"

session = session_fixture(SPEC, CLOCK)


def authorize(session: ToolSession, who: str, scopes: list[str] | None = None) -> dict:
    args: dict = {"email": EMAIL[who]}
    if scopes is not None:
        args["scopes"] = scopes
    return ok(session, "authorize_app", args, caller="user")


def day(session: ToolSession, date: str) -> dict:
    return ok(session, "get_daily_activity_summary", {"date": date})


def device(session: ToolSession, version: str) -> dict:
    return next(d for d in ok(session, "get_devices")["devices"] if d["deviceVersion"] == version)


# ---------------------------------------------------------------- authorization


def test_every_tool_needs_authorization_and_the_right_scope(session):
    fails(session, "get_profile", {}, "PermissionDenied", "invalid_token")
    fails(session, "authorize_app", {"email": "nobody@example.com"}, "NotFound", "not_found", caller="user")
    granted = authorize(session, "maya", ["activity", "sleep"])
    assert granted["scopes"] == ["activity", "sleep"]
    ok(session, "get_sleep_logs", {"start_date": TODAY})
    fails(session, "get_body_logs", {"start_date": TODAY}, "PermissionDenied", "insufficient_scope")
    fails(session, "log_water", {"date": TODAY, "amount": 250, "unit": "ml"}, "PermissionDenied", "write nutrition")


def test_authorize_app_is_the_users_own_act(session):
    outcome = session.call("authorize_app", {"email": EMAIL["priya"]}, caller="agent")
    assert not outcome.ok


def test_errors_come_in_fitbits_shape(session):
    authorize(session, "priya")
    outcome = session.call("list_activity_logs", {"before_date": TODAY, "after_date": TODAY})
    body = json.loads(outcome.error.split(": ", 1)[1])
    assert body["success"] is False
    assert body["errors"][0]["errorType"] == "validation"
    assert body["errors"][0]["fieldName"] == "beforeDate"


# ---------------------------------------------------------------- profile and the user's today


def test_profile_update_checks_the_time_zone_and_needs_a_change(session):
    authorize(session, "priya")
    fails(session, "update_profile", {"timezone": "Chicago"}, "InvalidRequest", "Invalid timezone")
    fails(session, "update_profile", {}, "InvalidRequest", "At least one field")
    fails(session, "update_profile", {"stride_length_walking": 10}, "invalid_arguments", "stride_length_walking")
    assert ok(session, "update_profile", {"timezone": "America/Denver"})["timezone"] == "America/Denver"


def test_today_is_the_simulated_clock_in_the_users_time_zone(session):
    authorize(session, "maya")  # Los Angeles: 10:00 on the 12th
    walk = {"date": "2026-03-13", "start_time": "08:00", "duration_millis": 1_800_000, "activity_id": 90013}
    fails(session, "log_activity", walk, "InvalidRequest", "cannot be in the future")
    fails(session, "log_activity", {**walk, "date": TODAY, "start_time": "11:00"}, "InvalidRequest", "startTime")
    ok(session, "update_profile", {"timezone": "Pacific/Auckland"})  # 06:00 on the 13th there
    assert ok(session, "log_activity", {**walk, "start_time": "05:00"})["startDate"] == "2026-03-13"


# ---------------------------------------------------------------- activity logs


def test_a_catalog_activity_gets_mets_calories_and_stride_steps_and_adds_to_the_day(session):
    authorize(session, "priya")  # latest weight before today 76.2 kg (the typo), walking stride 68.6 cm
    before = day(session, TODAY)["summary"]
    log = ok(
        session,
        "log_activity",
        {"date": TODAY, "start_time": "08:00", "duration_millis": 1_800_000, "activity_id": 90013, "distance": 1.5},
    )
    assert log["calories"] == round(3.5 * 76.2 * 0.5)
    assert log["steps"] == round(round(1.5 * 1.609344, 3) * 100_000 / 68.6)
    assert log["distance"] == 1.5 and log["distanceUnit"] == "en_US"
    after = day(session, TODAY)["summary"]
    assert after["steps"] == before["steps"] + log["steps"]
    assert after["caloriesOut"] == before["caloriesOut"] + log["calories"]
    assert after["fairlyActiveMinutes"] == before["fairlyActiveMinutes"] + 30
    ok(session, "delete_activity_log", {"log_id": log["logId"]})
    assert day(session, TODAY)["summary"] == before


def test_a_new_stride_changes_the_steps_of_later_logs(session):
    authorize(session, "priya")
    ok(session, "update_profile", {"stride_length_walking": 80})
    log = ok(
        session,
        "log_activity",
        {"date": TODAY, "start_time": "08:00", "duration_millis": 1_800_000, "activity_id": 90013, "distance": 1},
    )
    assert log["steps"] == round(round(1.609344, 3) * 100_000 / 80)  # km kept to the metre


def test_activity_logging_rules(session):
    authorize(session, "priya")
    base = {"date": YESTERDAY, "start_time": "08:00", "duration_millis": 1_800_000}
    fails(session, "log_activity", base, "InvalidRequest", "Either activityId or activityName")
    fails(
        session, "log_activity", {**base, "activity_id": 90013, "activity_name": "Walk"}, "InvalidRequest", "not both"
    )
    fails(session, "log_activity", {**base, "activity_name": "Paddleboard"}, "InvalidRequest", "manualCalories")
    fails(session, "log_activity", {**base, "activity_id": 52001, "distance": 2}, "InvalidRequest", "distance")
    fails(session, "log_activity", {**base, "activity_id": 123}, "NotFound", "Activity with id 123")
    fails(session, "log_activity", {**base, "activity_id": 90013, "duration_millis": 1000}, "invalid_arguments", "")
    custom = ok(session, "log_activity", {**base, "activity_name": "Paddleboard", "manual_calories": 210})
    assert (custom["activityId"], custom["activityName"], custom["calories"]) == (None, "Paddleboard", 210)


def test_only_the_users_own_logs_can_be_deleted(session):
    authorize(session, "dan")
    priyas = next(r for r in SEED["activity_logs"] if r["user_id"] == "7QX4TB")
    fails(session, "delete_activity_log", {"log_id": priyas["id"]}, "NotFound", "not_found")


def test_the_activity_log_list_pairs_dates_with_sort_and_pages_with_next(session):
    authorize(session, "priya")
    fails(session, "list_activity_logs", {}, "InvalidRequest", "beforeDate or afterDate")
    fails(session, "list_activity_logs", {"before_date": TODAY, "sort": "asc"}, "InvalidRequest", "desc")
    fails(session, "list_activity_logs", {"after_date": TODAY}, "InvalidRequest", "asc")
    fails(session, "list_activity_logs", {"before_date": TODAY, "limit": 101}, "invalid_arguments", "limit")
    fails(session, "list_activity_logs", {"before_date": TODAY, "offset": 5}, "invalid_arguments", "offset")
    first = ok(session, "list_activity_logs", {"before_date": "2026-03-12T23:59:59", "limit": 3})
    second = ok(session, "list_activity_logs", {"before_date": first["pagination"]["next"], "limit": 3})
    ids = [a["logId"] for a in first["activities"] + second["activities"]]
    assert len(set(ids)) == 6
    stamps = [f"{a['startDate']}T{a['startTime']}" for a in first["activities"] + second["activities"]]
    assert stamps == sorted(stamps, reverse=True)
    rising = ok(session, "list_activity_logs", {"after_date": "2026-03-01", "sort": "asc", "limit": 100})
    assert rising["pagination"]["next"] is None
    assert [a["startDate"] for a in rising["activities"]] == sorted(a["startDate"] for a in rising["activities"])


def test_time_series_span_at_most_1095_days(session):
    authorize(session, "priya")
    first_allowed = (date.fromisoformat(TODAY) - timedelta(days=1094)).isoformat()
    too_early = (date.fromisoformat(TODAY) - timedelta(days=1095)).isoformat()
    span = {"resource": "steps", "start_date": too_early, "end_date": TODAY}
    fails(session, "get_activity_time_series", span, "InvalidRequest", "1095 days")
    fails(session, "get_activity_time_series", {**span, "start_date": "2026-03-13"}, "InvalidRequest", "before start")
    series = ok(session, "get_activity_time_series", {**span, "start_date": first_allowed})
    assert len(series["values"]) == 1095
    miles = ok(
        session, "get_activity_time_series", {"resource": "distance", "start_date": YESTERDAY, "end_date": YESTERDAY}
    )
    assert miles["unit"] == "miles"


# ---------------------------------------------------------------- goals


def test_weekly_goals_have_no_active_minutes_or_calories(session):
    authorize(session, "dan")
    fails(session, "update_activity_goals", {"period": "weekly", "active_minutes": 150}, "InvalidRequest", "weekly")
    fails(session, "update_activity_goals", {"period": "daily"}, "InvalidRequest", "At least one")
    weekly = ok(session, "update_activity_goals", {"period": "weekly", "distance": 120, "floors": 70})
    assert (weekly["distance"], weekly["floors"], weekly["activeMinutes"]) == (120, 70, None)
    assert ok(session, "get_activity_goals", {"period": "weekly"}) == weekly
    assert ok(session, "get_activity_goals", {"period": "daily"})["floors"] == 8


def test_goal_distances_are_in_the_users_unit(session):
    authorize(session, "priya")
    ok(session, "update_activity_goals", {"period": "daily", "distance": 5})
    ok(session, "update_profile", {"distance_unit": "METRIC"})
    assert ok(session, "get_activity_goals", {"period": "daily"})["distance"] == pytest.approx(8.05, abs=0.01)


# ---------------------------------------------------------------- sleep


def test_manual_sleep_may_not_overlap_or_end_in_the_future(session):
    authorize(session, "dan")
    last_night = ok(session, "get_sleep_logs", {"start_date": TODAY})["sleep"][0]
    start = last_night["startTime"]
    fails(
        session,
        "log_sleep",
        {"date": start[:10], "start_time": start[11:16], "duration_millis": 3_600_000},
        "Conflict",
        "overlaps",
    )
    fails(
        session,
        "log_sleep",
        {"date": TODAY, "start_time": "16:30", "duration_millis": 3_600_000},
        "InvalidRequest",
        "future",
    )
    nap = ok(session, "log_sleep", {"date": "2026-03-08", "start_time": "15:00", "duration_millis": 4_200_000})
    assert (nap["type"], nap["levels"], nap["isMainSleep"]) == ("classic", None, False)
    sunday = ok(session, "get_sleep_logs", {"start_date": "2026-03-08"})
    assert [s["isMainSleep"] for s in sunday["sleep"]].count(True) == 1
    assert sunday["totalMinutesAsleep"] == sum(s["minutesAsleep"] for s in sunday["sleep"])


def test_sleep_ranges_and_goal(session):
    authorize(session, "maya")
    fails(session, "get_sleep_logs", {"start_date": "2025-12-01", "end_date": TODAY}, "InvalidRequest", "100 days")
    fails(session, "update_sleep_goal", {"min_duration": 30}, "invalid_arguments", "min_duration")
    assert ok(session, "update_sleep_goal", {"min_duration": 405}) == {"minDuration": 405}
    assert ok(session, "get_sleep_logs", {"start_date": TODAY})["goal"]["minDuration"] == 405


# ---------------------------------------------------------------- body


def test_weights_are_logged_and_shown_in_the_users_unit(session):
    authorize(session, "priya")
    log = ok(session, "log_body_measurement", {"date": TODAY, "weight": 148.6, "time": "06:50"})
    assert (log["weight"], log["time"], log["source"]) == (148.6, "06:50:00", "API")
    assert log["bmi"] == round(148.6 * 0.45359237 / 1.65**2, 2)
    ok(session, "update_profile", {"weight_unit": "METRIC"})
    shown = ok(session, "get_body_logs", {"start_date": TODAY})["weight"][0]["weight"]
    assert shown == pytest.approx(67.4, abs=0.1)


def test_body_log_rules(session):
    authorize(session, "priya")
    fails(session, "log_body_measurement", {"date": TODAY}, "InvalidRequest", "either a weight or a fat")
    fails(session, "log_body_measurement", {"date": TODAY, "weight": 150, "fat": 25}, "InvalidRequest", "one per log")
    fails(session, "log_body_measurement", {"date": TODAY, "fat": 90}, "invalid_arguments", "fat")
    fails(session, "get_body_logs", {"start_date": "2026-02-01", "end_date": TODAY}, "InvalidRequest", "31 days")
    fat = ok(session, "get_body_logs", {"start_date": "2026-03-10"})["fat"][0]
    assert ok(session, "delete_body_log", {"log_id": fat["logId"]})["deleted"] == "fat"
    assert ok(session, "get_body_logs", {"start_date": "2026-03-10"})["fat"] == []


def test_the_weight_goal_says_its_direction(session):
    authorize(session, "maya")
    assert ok(session, "get_body_logs", {"start_date": TODAY})["goal"] is None
    goal = ok(session, "set_weight_goal", {"start_date": TODAY, "start_weight": 125.4, "weight": 122})
    assert (goal["goalType"], goal["weight"]) == ("LOSE", 122)
    goal = ok(session, "set_weight_goal", {"start_date": TODAY, "start_weight": 125.4, "weight": 130})
    assert goal["goalType"] == "GAIN"
    fails(
        session,
        "set_weight_goal",
        {"start_date": "2026-03-20", "start_weight": 125, "weight": 120},
        "InvalidRequest",
        "future",
    )


# ---------------------------------------------------------------- food and water


def test_food_logs_sum_by_meal_and_take_fitbits_meal_types(session):
    authorize(session, "priya")
    base = {"date": TODAY, "food_name": "Banana", "calories": 105, "unit_id": 279, "amount": 1}
    fails(session, "log_food", {**base, "meal_type_id": 6}, "invalid_arguments", "meal_type_id")
    fails(session, "log_food", {**base, "meal_type_id": 1, "unit_id": 1}, "invalid_arguments", "unit_id")
    before = ok(session, "get_food_log", {"date": TODAY})
    banana = ok(session, "log_food", {**base, "meal_type_id": 2})
    assert (banana["mealType"], banana["unit"]) == ("Morning Snack", "piece")
    after = ok(session, "get_food_log", {"date": TODAY})
    assert after["calories"] == before["calories"] + 105
    assert after["caloriesByMeal"]["Morning Snack"] == before["caloriesByMeal"]["Morning Snack"] + 105


def test_water_is_converted_and_deleted_by_kind(session):
    authorize(session, "dan")  # metric: millilitres
    log = ok(session, "log_water", {"date": TODAY, "amount": 2, "unit": "cup"})
    assert log["amount"] == pytest.approx(473.2, abs=0.1) and log["unit"] == "ml"
    fails(session, "delete_food_log", {"log_id": log["logId"], "kind": "food"}, "NotFound", "Food log")
    ok(session, "delete_food_log", {"log_id": log["logId"], "kind": "water"})
    assert all(w["logId"] != log["logId"] for w in ok(session, "get_food_log", {"date": TODAY})["water"])


# ---------------------------------------------------------------- devices and alarms


def test_alarms_only_on_the_users_trackers_and_at_most_eight(session):
    authorize(session, "maya")
    versa = device(session, "Versa 4")
    assert len(versa["alarms"]) == 8
    fails(session, "set_alarm", {"tracker_id": versa["id"], "time": "04:45"}, "Conflict", "8 alarms")
    meds = next(a for a in versa["alarms"] if a["label"] == "Meds")
    changed = ok(
        session,
        "set_alarm",
        {"tracker_id": versa["id"], "alarm_id": meds["alarmId"], "time": "04:45", "week_days": ["FRIDAY", "MONDAY"]},
    )
    assert (changed["weekDays"], changed["recurring"], changed["enabled"]) == (["MONDAY", "FRIDAY"], True, True)
    charge = device(session, "Charge 5")
    assert charge["battery"] == "Empty"
    fails(
        session,
        "set_alarm",
        {"tracker_id": charge["id"], "alarm_id": meds["alarmId"], "time": "05:00"},
        "NotFound",
        "alarm",
    )
    fails(session, "set_alarm", {"tracker_id": "2849301567", "time": "05:00"}, "NotFound", "Tracker")
    fails(session, "set_alarm", {"tracker_id": versa["id"], "time": "5:00"}, "invalid_arguments", "time")


def test_scales_have_no_alarms(session):
    authorize(session, "priya")
    scale = device(session, "Aria Air")
    assert scale["type"] == "SCALE" and scale["alarms"] == []
    fails(session, "set_alarm", {"tracker_id": scale["id"], "time": "06:00"}, "InvalidRequest", "only trackers")
    new = ok(session, "set_alarm", {"tracker_id": device(session, "Charge 6")["id"], "time": "06:00"})
    assert (new["recurring"], new["weekDays"]) == (False, [])


# ---------------------------------------------------------------- social


def test_the_leaderboard_ranks_the_user_and_friends_by_seven_day_steps(session):
    authorize(session, "priya")
    board = ok(session, "get_friends_leaderboard")
    assert (board["startDate"], board["endDate"]) == ("2026-03-06", TODAY)
    names = [e["displayName"] for e in board["entries"]]
    assert {"Priya R.", "Priya S.", "Tom B.", "Ana S.", "Dan O."} == set(names)
    steps = [e["steps"] for e in board["entries"]]
    assert steps == sorted(steps, reverse=True)
    mine = next(e for e in board["entries"] if e["isMe"])
    series = ok(
        session, "get_activity_time_series", {"resource": "steps", "start_date": "2026-03-06", "end_date": TODAY}
    )
    assert mine["steps"] == sum(int(p["value"]) for p in series["values"])
