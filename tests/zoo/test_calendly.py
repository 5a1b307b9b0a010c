"""Calendly's business rules, each with a test that can fail: sign-in, the open times of an event type (weekly
hours in the schedule's zone, date overrides, minimum notice, buffers on both meetings, the daily limit, group
seats), bookings only at open times, who may cancel, reschedule and edit, cancellation and reschedule links,
no-shows only after the start, event type creation rules, routing form submissions, and failures that change
nothing."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("calendly")
MONDAY_9AM_NY = datetime(2026, 6, 8, 13, 0, tzinfo=timezone.utc)
MAYA = "cal_pat_maya_7Q2XK9"
PRIYA = "cal_pat_priya_M4TR8B"

session = session_fixture(SPEC, MONDAY_9AM_NY)


def sign_in(session: ToolSession, token: str = MAYA) -> None:
    ok(session, "sign_in", {"token": token}, caller="user")


def starts(session: ToolSession, event_type: str, day: str, days: int = 1) -> list[str]:
    found = ok(session, "list_event_type_available_times", {"event_type": event_type, "start_date": day, "days": days})
    return [slot["start_time"] for slot in found]


def book(session: ToolSession, event_type: str, start: str, email: str = "new.client@example.com") -> dict:
    args = {"event_type": event_type, "start_time": start, "name": "New Client", "email": email}
    return ok(session, "create_event_invitee", args)


def test_tools_need_a_signed_in_user_and_a_valid_token(session: ToolSession) -> None:
    fails(session, "get_current_user", {}, "PermissionDenied", "sign in first")
    fails(session, "sign_in", {"token": "cal_pat_nobody"}, "PermissionDenied", "invalid", caller="user")
    sign_in(session)
    me = ok(session, "get_current_user")
    assert me["name"] == "Maya Lindqvist" and me["role"] == "user"


def test_open_times_follow_the_weekly_hours_in_the_schedule_zone(session: ToolSession) -> None:
    sign_in(session)
    times = starts(session, "ET0002", "2026-06-09")  # 30-minute intro, New York hours 09:00-17:00 (UTC-4)
    assert times[0] == "2026-06-09T13:00:00Z"
    assert times[-1] == "2026-06-09T20:30:00Z"
    assert starts(session, "ET0002", "2026-06-13") == []  # Saturday


def test_a_date_override_closes_the_day(session: ToolSession) -> None:
    sign_in(session)
    assert starts(session, "ET0002", "2026-06-19") == []  # blocked by an override
    assert starts(session, "ET0002", "2026-06-18") != []
    afternoon = starts(session, "ET0002", "2026-06-26")  # override: 12:00-17:00 only
    assert afternoon[0] == "2026-06-26T16:00:00Z"


def test_minimum_notice_hides_and_refuses_early_starts(session: ToolSession) -> None:
    sign_in(session)
    assert starts(session, "ET0003", "2026-06-08") == []  # 24 hours' notice
    fails(
        session,
        "create_event_invitee",
        {"event_type": "ET0003", "start_time": "2026-06-08T18:00:00Z", "name": "A B", "email": "a@b.com"},
        "InvalidRequest",
        "minimum scheduling notice",
    )


def test_buffers_keep_time_clear_around_other_meetings(session: ToolSession) -> None:
    sign_in(session)
    # Thursday: portfolio review 11:00-11:45 New York with 15 minutes after; discovery wants 15 minutes before
    times = starts(session, "ET0003", "2026-06-11")
    assert "2026-06-11T16:00:00Z" not in times  # 12:00 would start inside the review's buffer
    assert "2026-06-11T16:30:00Z" in times
    fails(
        session,
        "create_event_invitee",
        {"event_type": "ET0003", "start_time": "2026-06-11T16:00:00Z", "name": "A B", "email": "a@b.com"},
        "Conflict",
        "no longer available",
    )


def test_the_daily_limit_closes_a_full_day(session: ToolSession) -> None:
    sign_in(session)
    assert starts(session, "ET0003", "2026-06-10") == []  # two discovery sessions already
    fails(
        session,
        "create_event_invitee",
        {"event_type": "ET0003", "start_time": "2026-06-10T20:00:00Z", "name": "A B", "email": "a@b.com"},
        "Conflict",
        "daily limit of 2",
    )
    ok(session, "update_event_type", {"uuid": "ET0003", "max_events_per_day": 3})
    assert "2026-06-10T20:00:00Z" in starts(session, "ET0003", "2026-06-10")


def test_group_events_fill_seats_on_one_meeting(session: ToolSession) -> None:
    sign_in(session)
    found = ok(
        session, "list_event_type_available_times", {"event_type": "ET0005", "start_date": "2026-06-12", "days": 1}
    )
    seats = {slot["start_time"]: slot["invitees_remaining"] for slot in found}
    assert seats["2026-06-12T19:00:00Z"] == 3  # six seats, three taken
    invitee = book(session, "ET0005", "2026-06-12T19:00:00Z")
    assert invitee["event"] == "SE0006"
    event = ok(session, "get_scheduled_event", {"uuid": "SE0006"})
    assert event["invitees_active"] == 4


def test_inactive_event_types_offer_nothing_and_refuse_bookings(session: ToolSession) -> None:
    sign_in(session)
    assert starts(session, "ET0006", "2026-06-15") == []
    fails(
        session,
        "create_event_invitee",
        {"event_type": "ET0006", "start_time": "2026-06-15T14:00:00Z", "name": "A B", "email": "a@b.com"},
        "Conflict",
        "inactive",
    )


def test_cancel_cancels_every_invitee_and_only_once(session: ToolSession) -> None:
    sign_in(session)
    event = ok(session, "cancel_scheduled_event", {"uuid": "SE0006", "reason": "Snowed in"})
    assert event["status"] == "canceled" and event["cancellation"]["canceler_type"] == "host"
    invitees = ok(session, "list_event_invitees", {"event": "SE0006"})
    assert {i["status"] for i in invitees} == {"canceled"}
    fails(session, "cancel_scheduled_event", {"uuid": "SE0006"}, "Conflict", "already canceled")


def test_past_events_cannot_be_canceled(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "cancel_scheduled_event", {"uuid": "SE0010"}, "Conflict", "in the past")


def test_plain_users_touch_only_their_own_but_admins_any(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "cancel_scheduled_event", {"uuid": "SE0065"}, "PermissionDenied", "do not have permission")
    fails(
        session, "update_event_type", {"uuid": "ET0011", "duration": 45}, "PermissionDenied", "do not have permission"
    )
    sign_in(session, PRIYA)
    assert ok(session, "cancel_scheduled_event", {"uuid": "SE0065"})["cancellation"]["canceled_by"] == "Priya Raman"


def test_reschedule_links_old_and_new_invitees(session: ToolSession) -> None:
    sign_in(session)
    new = ok(session, "reschedule_invitee", {"invitee": "INV0001", "start_time": "2026-06-11T13:00:00Z"})
    assert new["old_invitee"] == "INV0001" and new["event"] != "SE0001"
    old = ok(session, "list_event_invitees", {"event": "SE0001"})[0]
    assert old["status"] == "canceled" and old["rescheduled"] and old["new_invitee"] == new["uuid"]
    assert ok(session, "get_scheduled_event", {"uuid": "SE0001"})["status"] == "canceled"
    fails(
        session,
        "reschedule_invitee",
        {"invitee": "INV0001", "start_time": "2026-06-12T13:00:00Z"},
        "Conflict",
        "canceled",
    )


def test_a_same_day_move_does_not_count_against_the_daily_limit(session: ToolSession) -> None:
    sign_in(session)
    new = ok(session, "reschedule_invitee", {"invitee": "INV0002", "start_time": "2026-06-10T20:00:00Z"})
    assert new["event"] != "SE0002"


def test_no_shows_only_after_the_start_and_once(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "create_invitee_no_show", {"invitee": "INV0001"}, "Conflict", "hasn't started")
    mark = ok(session, "create_invitee_no_show", {"invitee": "INV0012"})
    fails(session, "create_invitee_no_show", {"invitee": "INV0012"}, "Conflict", "already marked")
    assert ok(session, "list_event_invitees", {"event": "SE0010"})[0]["no_show"]["uuid"] == mark["uuid"]
    undone = ok(session, "delete_invitee_no_show", {"uuid": mark["uuid"]})
    assert undone["no_show"] is None


def test_create_event_type_rules(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "create_event_type", {"name": "Intro Call", "duration": 15}, "Conflict", "URL slug intro-call")
    fails(
        session,
        "create_event_type",
        {"name": "Site Visit", "duration": 60, "location_kind": "physical"},
        "InvalidRequest",
        "location is required",
    )
    fails(
        session,
        "create_event_type",
        {"name": "X", "duration": 30, "schedule": "SCH0004"},
        "InvalidRequest",
        "not one of yours",
    )
    made = ok(session, "create_event_type", {"name": "Client Check-in", "duration": 20})
    assert made["schedule"] == "SCH0001" and made["active"] and made["max_events_per_day"] is None


def test_update_event_type_needs_a_change_and_one_daily_limit_instruction(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "update_event_type", {"uuid": "ET0003"}, "InvalidRequest", "Nothing to update")
    fails(
        session,
        "update_event_type",
        {"uuid": "ET0003", "max_events_per_day": 3, "clear_daily_limit": True},
        "InvalidRequest",
        "not both",
    )
    assert ok(session, "update_event_type", {"uuid": "ET0003", "clear_daily_limit": True})["max_events_per_day"] is None


def test_bounds_are_in_the_schema(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "update_event_type", {"uuid": "ET0003", "duration": 2}, "invalid_arguments", "between 5 and 720")
    fails(
        session,
        "list_event_type_available_times",
        {"event_type": "ET0003", "start_date": "2026-06-09", "days": 8},
        "invalid_arguments",
        "at most 7 days",
    )


def test_routing_form_submissions_show_the_booked_meeting(session: ToolSession) -> None:
    sign_in(session)
    page = ok(
        session,
        "list_routing_form_submissions",
        {"routing_form": "RF0001", "email": "ruth.alvarez@harborlinefoods.com"},
    )
    submission = page["results"][0]
    assert submission["routed_event_type"] == "ET0003" and submission["booked_event"] is None
    args = {
        "event_type": "ET0003",
        "start_time": "2026-06-09T15:30:00Z",
        "name": "Ruth Alvarez",
        "email": "ruth.alvarez@harborlinefoods.com",
        "routing_form_submission": submission["uuid"],
    }
    invitee = ok(session, "create_event_invitee", args)
    page = ok(
        session,
        "list_routing_form_submissions",
        {"routing_form": "RF0001", "email": "ruth.alvarez@harborlinefoods.com"},
    )
    assert page["results"][0]["booked_event"] == invitee["event"]


def test_scheduled_events_filter_by_invitee_email_and_page(session: ToolSession) -> None:
    sign_in(session)
    found = ok(session, "list_scheduled_events", {"invitee_email": "daniel.okafor@kestrelcap.com"})
    assert {e["uuid"] for e in found["results"]} == {"SE0001", "SE0014"}
    first = ok(session, "list_scheduled_events", {"count": 5})
    assert first["has_more"] and len(first["results"]) == 5
    second = ok(session, "list_scheduled_events", {"count": 5, "page_token": first["next_cursor"]})
    assert second["results"][0]["start_time"] >= first["results"][-1]["start_time"]
