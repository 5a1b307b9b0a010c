"""The Zoom environment's tools on the real seed: sign-in, who may act for whom (Members only for themselves, the
Owner and Admins for everyone, only the Owner for the Owner), licence and webinar add-on seats, a Basic host's
limits, the passcode policy, join before host against the waiting room, alternative hosts, meetings that have ended,
recurring occurrences moved or deleted by occurrence_id, registration and the registrant status machine, the
recording trash with its 30-day recovery window and permanent deletes, and webinars with their panelists. Every
error path is checked to leave the state unchanged, with Zoom's error code in the message."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("zoom")
CLOCK = datetime(2026, 3, 9, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
DOMAIN = "@haldenpryce.co.uk"

session = session_fixture(SPEC, CLOCK)


def email(name: str) -> str:
    return name.lower().replace(" ", ".") + DOMAIN


def meeting(topic: str, host: str | None = None) -> int:
    host_id = next(u["id"] for u in SEED["users"] if u["email"] == email(host)) if host else None
    found = [m["id"] for m in SEED["meetings"] if m["topic"] == topic and (host_id is None or m["host_id"] == host_id)]
    assert len(found) == 1
    return found[0]


def recording(meeting_id: int, day: str = "") -> str:
    found = [r["uuid"] for r in SEED["recordings"] if r["meeting_id"] == meeting_id and r["start_time"].startswith(day)]
    assert len(found) == 1
    return found[0]


def file_id(uuid: str, file_type: str) -> str:
    return next(f["id"] for f in SEED["recording_files"] if f["recording_uuid"] == uuid and f["file_type"] == file_type)


def occurrence(meeting_id: int, start: str) -> str:
    return next(
        o["occurrence_id"] for o in SEED["occurrences"] if o["meeting_id"] == meeting_id and o["start_time"] == start
    )


def registrant(meeting_id: int, address: str) -> str:
    return next(r["id"] for r in SEED["registrants"] if r["meeting_id"] == meeting_id and r["email"] == address)


def webinar(topic: str) -> int:
    return next(w["id"] for w in SEED["webinars"] if w["topic"] == topic)


def sign_in(session: ToolSession, name: str) -> dict:
    return ok(session, "sign_in", {"email": email(name)}, caller="user")


def new_meeting(session: ToolSession, **args) -> dict:
    return ok(session, "create_meeting", {"topic": "Test", "type": 2, "start_time": "2026-03-12T10:00:00Z", **args})


# ---------------------------------------------------------------- sign-in and access


def test_every_tool_needs_a_signed_in_user(session):
    fails(session, "list_meetings", {}, "PermissionDenied", "124")


def test_only_active_users_sign_in(session):
    fails(session, "sign_in", {"email": email("Gareth Lloyd")}, "PermissionDenied", "not active", caller="user")
    fails(session, "sign_in", {"email": "nobody@haldenpryce.co.uk"}, "NotFound", "1001", caller="user")
    assert sign_in(session, "Priya Raman")["user"]["role_name"] == "Member"


def test_members_act_only_for_themselves(session):
    sign_in(session, "Priya Raman")
    fails(session, "list_meetings", {"user_id": email("Oliver Grant")}, "PermissionDenied", "200")
    fails(session, "get_meeting", {"meeting_id": meeting("Riverside Library - design team")}, "PermissionDenied", "200")
    fails(session, "update_user", {"user_id": email("Jamie Carter"), "type": 2}, "PermissionDenied", "owner and admins")
    assert ok(session, "list_meetings", {"user_id": "me"})["total_records"] > 0


def test_admins_act_for_everyone_but_only_the_owner_changes_the_owner(session):
    sign_in(session, "Nadia Okafor")
    assert ok(session, "get_meeting", {"meeting_id": meeting("Riverside Library - design team")})["topic"]
    fails(session, "update_user", {"user_id": email("Eleanor Halden"), "dept": "Board"}, "PermissionDenied", "owner")


# ---------------------------------------------------------------- licences and seats


def test_no_licence_is_free_until_one_is_given_back(session):
    sign_in(session, "Tom Whitcombe")
    fails(session, "update_user", {"user_id": email("Jamie Carter"), "type": 2}, "Conflict", "2034")
    assert ok(session, "update_user", {"user_id": email("Henry Ashworth"), "type": 1})["type_name"] == "Basic"
    assert ok(session, "update_user", {"user_id": email("Jamie Carter"), "type": 2})["type_name"] == "Licensed"


def test_webinar_add_on_needs_a_licence_and_a_seat(session):
    sign_in(session, "Tom Whitcombe")
    fails(session, "update_user", {"user_id": email("Jamie Carter"), "webinar": True}, "InvalidRequest", "Licensed")
    assert ok(session, "update_user", {"user_id": email("Lucy Fairbairn"), "webinar": True})["webinar"] is True
    fails(session, "update_user", {"user_id": email("Sam Okoro"), "webinar": True}, "Conflict", "webinar add-on seats")


def test_a_webinar_host_keeps_the_add_on_while_webinars_are_ahead(session):
    sign_in(session, "Eleanor Halden")
    fails(session, "update_user", {"user_id": email("Rupert Pryce"), "webinar": False}, "Conflict", "upcoming webinars")


def test_deactivated_users_can_not_be_updated(session):
    sign_in(session, "Tom Whitcombe")
    fails(session, "update_user", {"user_id": email("Gareth Lloyd"), "type": 1}, "Conflict", "1120")


# ---------------------------------------------------------------- creating meetings


def test_basic_hosts_schedule_at_most_40_minutes_without_cloud_or_registration(session):
    sign_in(session, "Jamie Carter")
    fails(
        session,
        "create_meeting",
        {"topic": "Long", "start_time": "2026-03-12T10:00:00Z", "duration": 45},
        "InvalidRequest",
        "40 minutes",
    )
    fails(
        session,
        "create_meeting",
        {"topic": "Rec", "start_time": "2026-03-12T10:00:00Z", "duration": 30, "auto_recording": "cloud"},
        "InvalidRequest",
        "Cloud recording",
    )
    fails(
        session,
        "create_meeting",
        {"topic": "Reg", "start_time": "2026-03-12T10:00:00Z", "duration": 30, "approval_type": 0},
        "InvalidRequest",
        "Registration",
    )
    created = new_meeting(session, duration=40, auto_recording="local")
    assert (created["duration"], created["settings"]["auto_recording"]) == (40, "local")


def test_passcodes_follow_the_account_policy(session):
    sign_in(session, "Priya Raman")
    fails(
        session,
        "create_meeting",
        {"topic": "T", "start_time": "2026-03-12T10:00:00Z", "password": "drawing"},
        "InvalidRequest",
        "letters and numbers",
    )
    fails(
        session,
        "create_meeting",
        {"topic": "T", "start_time": "2026-03-12T10:00:00Z", "password": "ab1"},
        "InvalidRequest",
        "at least 6",
    )
    outcome = session.call(
        "create_meeting", {"topic": "T", "start_time": "2026-03-12T10:00:00Z", "password": "much-too-long-1"}
    )
    assert not outcome.ok and "password" in (outcome.error or "")
    assert new_meeting(session, password="Brook2026")["password"] == "Brook2026"
    generated = new_meeting(session)["password"]
    assert len(generated) >= 6 and any(ch.isdigit() for ch in generated) and any(ch.isalpha() for ch in generated)


def test_join_before_host_needs_the_waiting_room_off(session):
    sign_in(session, "Priya Raman")
    fails(
        session,
        "create_meeting",
        {"topic": "T", "start_time": "2026-03-12T10:00:00Z", "join_before_host": True},
        "InvalidRequest",
        "waiting room",
    )
    created = new_meeting(session, join_before_host=True, waiting_room=False, jbh_time=5)
    assert created["settings"]["jbh_time"] == 5
    turned_on = ok(session, "update_meeting", {"meeting_id": created["id"], "waiting_room": True})
    assert turned_on["settings"]["join_before_host"] is False


def test_alternative_hosts_are_active_licensed_users(session):
    sign_in(session, "Priya Raman")
    fails(
        session,
        "create_meeting",
        {"topic": "T", "start_time": "2026-03-12T10:00:00Z", "alternative_hosts": [email("Jamie Carter")]},
        "InvalidRequest",
        "Licensed",
    )
    fails(
        session,
        "create_meeting",
        {"topic": "T", "start_time": "2026-03-12T10:00:00Z", "alternative_hosts": [email("Gareth Lloyd")]},
        "InvalidRequest",
        "Licensed",
    )
    fails(
        session,
        "create_meeting",
        {"topic": "T", "start_time": "2026-03-12T10:00:00Z", "alternative_hosts": [email("Priya Raman")]},
        "InvalidRequest",
        "own alternative host",
    )
    created = new_meeting(session, alternative_hosts=[email("Oliver Grant"), email("Chloe Bennett")])
    assert created["settings"]["alternative_hosts"] == f"{email('Chloe Bennett')};{email('Oliver Grant')}"


def test_scheduled_meetings_start_in_the_future(session):
    sign_in(session, "Priya Raman")
    fails(session, "create_meeting", {"topic": "T", "start_time": "2026-03-09T08:00:00Z"}, "InvalidRequest", "future")
    fails(session, "create_meeting", {"topic": "T", "type": 2}, "InvalidRequest", "start_time is required")


def test_a_weekly_meeting_lays_out_its_occurrences(session):
    sign_in(session, "Priya Raman")
    created = new_meeting(
        session, type=8, start_time="2026-03-17T10:00:00Z", recurrence_type=2, weekly_days="3,5", end_times=4
    )
    starts = [o["start_time"] for o in created["occurrences"]]
    assert starts == ["2026-03-17T10:00:00Z", "2026-03-19T10:00:00Z", "2026-03-24T10:00:00Z", "2026-03-26T10:00:00Z"]
    assert created["occurrences"][0]["occurrence_id"] == "1773741600000"
    fails(
        session,
        "create_meeting",
        {"topic": "T", "type": 8, "start_time": "2026-03-17T10:00:00Z", "recurrence_type": 2},
        "InvalidRequest",
        "weekly_days",
    )


def test_a_monthly_meeting_skips_months_without_its_day(session):
    sign_in(session, "Priya Raman")
    created = new_meeting(
        session, type=8, start_time="2026-03-31T10:00:00Z", recurrence_type=3, monthly_day=31, end_times=3
    )
    assert [o["start_time"][:10] for o in created["occurrences"]] == ["2026-03-31", "2026-05-31", "2026-07-31"]


# ---------------------------------------------------------------- updating and deleting meetings


def test_meetings_that_have_ended_can_not_be_updated(session):
    sign_in(session, "Grace Liu")
    fails(
        session, "update_meeting", {"meeting_id": meeting("CPD: Biodiverse roofs"), "topic": "New"}, "Conflict", "3000"
    )


def test_an_occurrence_moves_alone_by_its_id(session):
    sign_in(session, "Priya Raman")
    clinic = meeting("Sustainability clinic")
    moved = ok(
        session,
        "update_meeting",
        {
            "meeting_id": clinic,
            "occurrence_id": occurrence(clinic, "2026-03-18T14:00:00Z"),
            "start_time": "2026-03-20T14:00:00Z",
        },
    )
    starts = [o["start_time"] for o in moved["occurrences"]]
    assert (
        "2026-03-20T14:00:00Z" in starts and "2026-03-18T14:00:00Z" not in starts and "2026-03-25T14:00:00Z" in starts
    )
    fails(
        session,
        "update_meeting",
        {"meeting_id": clinic, "occurrence_id": occurrence(clinic, "2026-03-25T14:00:00Z"), "topic": "X"},
        "InvalidRequest",
        "Only start_time and duration",
    )
    fails(
        session,
        "update_meeting",
        {"meeting_id": clinic, "occurrence_id": occurrence(clinic, "2026-03-04T14:00:00Z"), "duration": 30},
        "Conflict",
        "already started",
    )
    fails(
        session,
        "update_meeting",
        {"meeting_id": clinic, "occurrence_id": "1000000000000", "duration": 30},
        "InvalidRequest",
        "Invalid occurrence_id",
    )


def test_deleting_an_occurrence_keeps_the_series(session):
    sign_in(session, "Priya Raman")
    clinic = meeting("Sustainability clinic")
    april = occurrence(clinic, "2026-04-01T14:00:00Z")
    assert ok(session, "delete_meeting", {"meeting_id": clinic, "occurrence_id": april})["deleted"] is True
    left = ok(session, "get_meeting", {"meeting_id": clinic})["occurrences"]
    assert april not in {o["occurrence_id"] for o in left} and len(left) == 5
    fails(
        session,
        "delete_meeting",
        {"meeting_id": clinic, "occurrence_id": april},
        "InvalidRequest",
        "Invalid occurrence_id",
    )


def test_a_series_duration_change_reaches_its_upcoming_occurrences(session):
    sign_in(session, "Marcus Adeyemi")
    surgery = meeting("Planning surgery")
    changed = ok(session, "update_meeting", {"meeting_id": surgery, "duration": 45})
    assert {o["duration"] for o in changed["occurrences"]} == {45}


def test_deleting_a_meeting_removes_its_registrants_but_not_a_live_one(session):
    sign_in(session, "Nadia Okafor")
    fails(session, "delete_meeting", {"meeting_id": meeting("IT support bridge")}, "Conflict", "in progress")
    briefing = meeting("Client briefing: Harbourside Hotel")
    ok(session, "delete_meeting", {"meeting_id": briefing})
    assert not [r for r in session.dump()["registrants"].values() if r["meeting_id"] == briefing]
    fails(session, "get_meeting", {"meeting_id": briefing}, "NotFound", "3001")


def test_switching_registration_off_drops_the_registrants(session):
    sign_in(session, "Priya Raman")
    talk = meeting("CPD: Passivhaus detailing")
    ok(session, "update_meeting", {"meeting_id": talk, "approval_type": 2})
    assert not [r for r in session.dump()["registrants"].values() if r["meeting_id"] == talk]
    fails(session, "list_registrants", {"meeting_id": talk}, "InvalidRequest", "Registration has not been enabled")


def test_meeting_lists_split_upcoming_and_previous(session):
    sign_in(session, "Grace Liu")
    upcoming = {m["topic"] for m in ok(session, "list_meetings", {"type": "upcoming"})["meetings"]}
    previous = {
        m["topic"] for m in ok(session, "list_meetings", {"type": "previous_meetings", "page_size": 300})["meetings"]
    }
    assert "Landscape & public realm" in upcoming and "CPD: Biodiverse roofs" in previous
    assert not upcoming & previous


# ---------------------------------------------------------------- registrants


def test_registration_approves_automatically_or_waits_for_the_host(session):
    sign_in(session, "Nadia Okafor")
    automatic = ok(
        session,
        "add_registrant",
        {"meeting_id": meeting("CPD: Passivhaus detailing"), "email": "a.b@example.com", "first_name": "A"},
    )
    manual = ok(
        session,
        "add_registrant",
        {"meeting_id": meeting("Open studio evening"), "email": "a.b@example.com", "first_name": "A"},
    )
    assert (automatic["status"], manual["status"]) == ("approved", "pending")
    assert automatic["join_url"] and manual["join_url"] is None
    fails(
        session,
        "add_registrant",
        {"meeting_id": meeting("Open studio evening"), "email": "A.B@example.com", "first_name": "A"},
        "Conflict",
        "already registered",
    )
    fails(
        session,
        "add_registrant",
        {"meeting_id": meeting("Studio stand-up"), "email": "x@example.com", "first_name": "X"},
        "InvalidRequest",
        "Registration has not been enabled",
    )
    fails(
        session,
        "add_registrant",
        {"meeting_id": meeting("CPD: Biodiverse roofs"), "email": "x@example.com", "first_name": "X"},
        "Conflict",
        "3000",
    )


def test_registrant_status_changes_follow_the_state_machine(session):
    sign_in(session, "Nadia Okafor")
    studio = meeting("Open studio evening")
    pending, approved, denied = (
        registrant(studio, "maya.tate@kestrelhousing.org"),
        registrant(studio, "quentin.shaw@yahoo.co.uk"),
        registrant(studio, "will.fox@gmail.com"),
    )
    fails(
        session,
        "update_registrant_status",
        {"meeting_id": studio, "action": "cancel", "registrant_ids": [pending]},
        "Conflict",
        "status is pending",
    )
    fails(
        session,
        "update_registrant_status",
        {"meeting_id": studio, "action": "deny", "registrant_ids": [approved]},
        "Conflict",
        "status is approved",
    )
    fails(
        session,
        "update_registrant_status",
        {"meeting_id": studio, "action": "approve", "registrant_ids": [pending, approved]},
        "Conflict",
        "status is approved",
    )
    fails(
        session,
        "update_registrant_status",
        {"meeting_id": studio, "action": "approve", "registrant_ids": ["nope"]},
        "InvalidRequest",
        "Registrant does not exist",
    )
    result = ok(
        session,
        "update_registrant_status",
        {"meeting_id": studio, "action": "approve", "registrant_ids": [pending, denied]},
    )
    assert {r["status"] for r in result["registrants"]} == {"approved"}
    cancelled = ok(
        session,
        "update_registrant_status",
        {"meeting_id": studio, "action": "cancel", "registrant_ids": ["quentin.shaw@yahoo.co.uk"]},
    )
    assert cancelled["registrants"][0]["status"] == "denied" and cancelled["registrants"][0]["join_url"] is None


# ---------------------------------------------------------------- recordings


def test_trashed_files_leave_the_list_and_come_back(session):
    sign_in(session, "Oliver Grant")
    rec = recording(meeting("Riverside Library - design team"), "2026-03-03")
    video = file_id(rec, "MP4")
    after = ok(session, "delete_meeting_recordings", {"meeting_id": rec, "recording_id": video})
    assert {f["id"]: f["status"] for f in after["recording_files"]}[video] == "trashed"
    trash = ok(session, "list_recordings", {"trash": True})["meetings"]
    assert [f["id"] for m in trash for f in m["recording_files"]] == [video]
    fails(
        session,
        "delete_meeting_recordings",
        {"meeting_id": rec, "recording_id": video},
        "Conflict",
        "already in the trash",
    )
    restored = ok(session, "recover_meeting_recordings", {"meeting_id": rec})
    assert {f["status"] for f in restored["recording_files"]} == {"completed"}
    fails(session, "recover_meeting_recordings", {"meeting_id": rec}, "Conflict", "nothing in the trash")


def test_recovery_ends_30_days_after_deletion(session):
    sign_in(session, "Daniel Kowalski")
    old = recording(meeting("Planning prep - St Aldhelm's School", "Daniel Kowalski"))
    fails(session, "recover_meeting_recordings", {"meeting_id": old}, "Conflict", "within 30 days")


def test_permanent_deletion_removes_files_and_then_the_recording(session):
    sign_in(session, "Lucy Fairbairn")
    rec = recording(meeting("Cost plan review - Harbourside Hotel", "Lucy Fairbairn"))
    chat = file_id(rec, "CHAT")
    kept = ok(session, "delete_meeting_recordings", {"meeting_id": rec, "recording_id": chat, "action": "delete"})
    assert chat not in {f["id"] for f in kept["recording_files"]} and kept["recording_count"] == 3
    ok(session, "delete_meeting_recordings", {"meeting_id": rec, "action": "delete"})
    fails(session, "get_meeting_recordings", {"meeting_id": rec}, "NotFound", "3301")


def test_a_meeting_number_finds_its_latest_recorded_instance(session):
    sign_in(session, "Priya Raman")
    clinic = meeting("Sustainability clinic")
    assert ok(session, "get_meeting_recordings", {"meeting_id": str(clinic)})["uuid"] == recording(clinic, "2026-03-04")


def test_recording_lists_default_to_the_last_30_days(session):
    sign_in(session, "Chloe Bennett")
    assert ok(session, "list_recordings", {})["meetings"] == []
    january = ok(session, "list_recordings", {"from_date": "2026-01-01", "to_date": "2026-01-31"})["meetings"]
    assert [m["topic"] for m in january] == ["Stage 3 sign-off - St Aldhelm's School"]


def test_members_can_not_touch_others_recordings(session):
    sign_in(session, "Priya Raman")
    rec = recording(meeting("Client call - Marlowe Homes", "Oliver Grant"))
    fails(session, "delete_meeting_recordings", {"meeting_id": rec}, "PermissionDenied", "200")


# ---------------------------------------------------------------- webinars


def test_webinars_need_a_licensed_host_with_the_add_on(session):
    sign_in(session, "Priya Raman")
    fails(
        session,
        "create_webinar",
        {"topic": "W", "start_time": "2026-03-25T18:00:00Z"},
        "PermissionDenied",
        "Webinar plan is missing",
    )
    sign_in(session, "Eleanor Halden")
    fails(session, "create_webinar", {"topic": "W", "start_time": "2026-03-01T18:00:00Z"}, "InvalidRequest", "future")
    created = ok(session, "create_webinar", {"topic": "W", "start_time": "2026-03-25T18:00:00Z", "approval_type": 1})
    assert created["id"] in {w["id"] for w in ok(session, "list_webinars", {})["webinars"]}


def test_panelists_exclude_the_host_and_duplicates(session):
    sign_in(session, "Eleanor Halden")
    net_zero = webinar("Halden & Pryce: designing for net zero")
    fails(
        session,
        "add_panelists",
        {"webinar_id": net_zero, "panelists_to_add": [{"name": "Eleanor", "email": email("Eleanor Halden")}]},
        "InvalidRequest",
        "host",
    )
    fails(
        session,
        "add_panelists",
        {"webinar_id": net_zero, "panelists_to_add": [{"name": "Oliver", "email": email("Oliver Grant")}]},
        "Conflict",
        "already a panelist",
    )
    fails(
        session,
        "add_panelists",
        {
            "webinar_id": net_zero,
            "panelists_to_add": [{"name": "A", "email": "a@x.com"}, {"name": "A", "email": "A@x.com"}],
        },
        "Conflict",
        "already a panelist",
    )
    fails(
        session,
        "add_panelists",
        {
            "webinar_id": webinar("Autumn lecture: timber at scale"),
            "panelists_to_add": [{"name": "A", "email": "a@x.com"}],
        },
        "Conflict",
        "already started",
    )
    after = ok(session, "remove_panelist", {"webinar_id": net_zero, "panelist_id": email("Sam Okoro")})
    assert email("Sam Okoro") not in {p["email"] for p in after["panelists"]}
    fails(
        session,
        "remove_panelist",
        {"webinar_id": net_zero, "panelist_id": email("Sam Okoro")},
        "InvalidRequest",
        "Panelist does not exist",
    )


def test_a_webinar_holds_at_most_100_panelists(session):
    def crowd(tables):
        wid = webinar("Spring lecture: adaptive reuse")
        tables["panelists"] += [
            {"id": f"p{i:03d}", "webinar_id": wid, "name": f"P{i}", "email": f"p{i}@x.com"} for i in range(98)
        ]

    restore_seed_with(session, crowd, CLOCK)
    sign_in(session, "Eleanor Halden")
    fails(
        session,
        "add_panelists",
        {
            "webinar_id": webinar("Spring lecture: adaptive reuse"),
            "panelists_to_add": [{"name": "A", "email": "a@x.com"}],
        },
        "InvalidRequest",
        "at most 100",
    )
