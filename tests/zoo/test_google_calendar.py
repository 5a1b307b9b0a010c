"""The Google Calendar environment's tools: results and state transitions for each calendar rule (access roles,
organizer-only changes, recurrence and exceptions, rooms, free/busy, sharing), every error path leaving the state
unchanged. Runs the real tools on the real seed through ToolSession."""

from __future__ import annotations

import json
from datetime import date, datetime, timezone
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from envfactory_gym import ToolSession, resolve
from envfactory_zoo.google_calendar import recurrence

from .toolkit import fails, ok, session_fixture

SPEC = resolve("google_calendar")
CLOCK = datetime(2025, 3, 3, 14, 0, tzinfo=timezone.utc)  # Monday 09:00 in Boston
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
BOS, MUC = "America/New_York", "Europe/Berlin"


# ---------------------------------------------------------------- seed lookups (by name, never by raw id)


def email(name: str) -> str:
    return next(p["email"] for p in SEED["people"] if p["display_name"] == name)


def room(prefix: str) -> str:
    return next(r["email"] for r in SEED["rooms"] if r["name"].startswith(prefix))


def calendar(summary: str) -> str:
    return next(c["id"] for c in SEED["calendars"] if c["summary"] == summary)


def event(summary: str, organizer: str | None = None) -> dict[str, Any]:
    return next(
        e
        for e in SEED["events"]
        if e["summary"] == summary
        and not e["recurring_event_id"]
        and (organizer is None or e["organizer_email"] == organizer)
    )


ANA, NOOR, JONAS, LEAH, DANIEL = (
    email(n) for n in ("Ana Ruiz", "Noor Haddad", "Jonas Becker", "Leah Goldberg", "Daniel Osei")
)
LAUNCHES, BOARD, PTO = calendar("Kestrel Launches"), calendar("Board & Investors"), calendar("Team PTO")
NOOR_11 = event("Ana / Noor 1:1")
CRIT = event("Design critique: onboarding flow")
DENTIST = event("Dentist", ANA)
PRODUCT_SYNC = event("Product sync")
STANDUP = event("Boston eng standup")


def at(local: str, tz: str = BOS) -> dict[str, str]:
    return {"dateTime": datetime.fromisoformat(local).replace(tzinfo=ZoneInfo(tz)).isoformat(), "timeZone": tz}


def instance_id(series: dict[str, Any], local: str, tz: str = BOS) -> str:
    moment = datetime.fromisoformat(local).replace(tzinfo=ZoneInfo(tz)).astimezone(timezone.utc)
    return f"{series['id']}_{moment.strftime('%Y%m%dT%H%M%SZ')}"


# ---------------------------------------------------------------- session helpers

session = session_fixture(SPEC, CLOCK)


def grant(session: ToolSession, who: str, scope: str = "calendar") -> None:
    ok(session, "grant_access", {"email": who, "scope": scope}, caller="user")


def stored(session: ToolSession, event_id: str) -> dict[str, Any]:
    return session.dump()["events"][event_id]


def guest(row: dict[str, Any], who: str) -> dict[str, Any]:
    return next(a for a in row["attendees"] if a["email"] == who)


def week(session: ToolSession, calendar_id: str = "primary", **extra: Any) -> list[dict[str, Any]]:
    args = {
        "calendarId": calendar_id,
        "timeMin": "2025-03-03T00:00:00-05:00",
        "timeMax": "2025-03-22T00:00:00-04:00",
        "singleEvents": True,
        "orderBy": "startTime",
        **extra,
    }
    return ok(session, "events_list", args)["results"]


# ---------------------------------------------------------------- access


def test_grant_access_is_user_only_and_required(session):
    fails(session, "grant_access", {"email": ANA}, "user_only", "only be performed by the user")
    fails(session, "grant_access", {"email": "ghost@kestrelrobotics.com"}, "NotFound", "Couldn't find", caller="user")
    fails(session, "events_list", {"calendarId": "primary"}, "PermissionDenied", "unauthorized")
    grant(session, ANA)
    assert session.dump()["oauth_grants"]["current"]["email"] == ANA


def test_read_only_grant_reads_but_cannot_write(session):
    grant(session, ANA, "calendar.readonly")
    assert week(session, q="dentist")[0]["id"] == DENTIST["id"]
    fails(
        session,
        "events_delete",
        {"calendarId": "primary", "eventId": DENTIST["id"]},
        "PermissionDenied",
        "insufficientPermissions",
    )
    grant(session, ANA)
    ok(session, "events_delete", {"calendarId": "primary", "eventId": DENTIST["id"]})


def test_calendar_list_roles_and_filters(session):
    grant(session, ANA)
    entries = ok(session, "calendarList_list")
    assert entries[0]["id"] == ANA and entries[0]["primary"] and entries[0]["accessRole"] == "owner"
    roles = {e["id"]: e["accessRole"] for e in entries}
    assert roles[LAUNCHES] == "writer" and roles[PTO] == "writer" and roles[NOOR] == "reader"
    assert room("BOS-3-Fenway") not in roles  # hidden
    assert room("BOS-3-Fenway") in {e["id"] for e in ok(session, "calendarList_list", {"showHidden": True})}
    writable = {e["id"] for e in ok(session, "calendarList_list", {"minAccessRole": "writer"})}
    assert writable == {ANA, LAUNCHES, PTO, calendar("Ana's running")}


def test_roles_decide_what_can_be_read_and_written(session):
    grant(session, ANA)
    fails(session, "events_list", {"calendarId": DANIEL}, "PermissionDenied", "requiredAccessLevel")  # free/busy only
    fails(session, "events_list", {"calendarId": BOARD}, "NotFound", "notFound")  # not shared with her at all
    fails(
        session,
        "events_insert",
        {"calendarId": NOOR, "start": at("2025-03-04T09:00:00"), "end": at("2025-03-04T10:00:00")},
        "PermissionDenied",
        "writer",
    )
    grant(session, LEAH)  # writer on Daniel's calendar: books for him, as him
    out = ok(
        session,
        "events_insert",
        {"calendarId": DANIEL, "summary": "Call", "start": at("2025-03-04T09:00:00"), "end": at("2025-03-04T09:30:00")},
    )
    assert out["organizer"]["email"] == DANIEL and out["creator"]["email"] == LEAH


def test_private_events_show_as_busy_below_writer_access(session):
    grant(session, JONAS)  # Ana shares details (reader) with the company
    dentist = next(e for e in week(session, ANA) if e["id"] == DENTIST["id"])
    assert dentist["summary"] == "busy" and dentist["location"] == ""
    grant(session, NOOR)  # writer on Ana's calendar
    assert next(e for e in week(session, ANA) if e["id"] == DENTIST["id"])["summary"] == "Dentist"


# ---------------------------------------------------------------- listing, series and exceptions


def test_single_events_expand_series_across_daylight_saving(session):
    grant(session, ANA)
    one_on_ones = [e for e in week(session) if e["summary"] == "Ana / Noor 1:1"]
    assert [e["id"] for e in one_on_ones] == [
        instance_id(NOOR_11, "2025-03-05T14:00:00"),
        instance_id(NOOR_11, "2025-03-19T14:00:00"),
    ]
    assert [e["start"]["dateTime"] for e in one_on_ones] == ["2025-03-05T14:00:00-05:00", "2025-03-19T14:00:00-04:00"]
    assert all(e["recurringEventId"] == NOOR_11["id"] for e in one_on_ones)
    series = ok(session, "events_list", {"calendarId": "primary", "q": "Noor 1:1"})["results"]
    assert [e["id"] for e in series] == [NOOR_11["id"]] and series[0]["recurrence"]


def test_exceptions_replace_their_instances(session):
    grant(session, ANA)
    syncs = {e["originalStartTime"]["dateTime"]: e for e in week(session) if e["summary"].startswith("Product sync")}
    moved = syncs["2025-03-11T11:00:00-04:00"]
    assert moved["summary"] == "Product sync (moved)" and moved["start"]["dateTime"] == "2025-03-11T14:00:00-04:00"
    grant(session, email("Elena Petrova"))
    standups = [e for e in week(session) if e["summary"] == "Boston eng standup"]
    assert "2025-03-17" not in {e["start"]["dateTime"][:10] for e in standups}
    with_cancelled = [e for e in week(session, showDeleted=True) if e["summary"] == "Boston eng standup"]
    assert len(with_cancelled) == len(standups) + 1


def test_list_arguments_are_checked(session):
    grant(session, ANA)
    fails(session, "events_list", {"calendarId": "primary", "orderBy": "startTime"}, "InvalidRequest", "singleEvents")
    fails(
        session,
        "events_list",
        {"calendarId": "primary", "timeMin": "2025-03-03T00:00:00"},
        "invalid_arguments",
        "timeMin",
    )  # RFC3339 needs its offset
    fails(
        session,
        "events_list",
        {"calendarId": "primary", "timeMin": "2025-03-05T00:00:00-05:00", "timeMax": "2025-03-04T00:00:00-05:00"},
        "InvalidRequest",
        "timeRangeEmpty",
    )
    for size in (0, 2501):
        fails(session, "events_list", {"calendarId": "primary", "maxResults": size}, "invalid_arguments", "maxResults")
    page = ok(session, "events_list", {"calendarId": "primary", "maxResults": 3})
    assert len(page["results"]) == 3 and page["has_more"]


def test_instances_and_get(session):
    grant(session, ANA)
    first = ok(session, "events_instances", {"calendarId": "primary", "eventId": NOOR_11["id"], "maxResults": 2})
    assert first["results"][0]["start"]["dateTime"] == "2025-01-08T14:00:00-05:00"
    got = ok(session, "events_get", {"calendarId": "primary", "eventId": instance_id(NOOR_11, "2025-03-05T14:00:00")})
    assert got["recurringEventId"] == NOOR_11["id"]
    fails(
        session,
        "events_get",
        {"calendarId": "primary", "eventId": instance_id(NOOR_11, "2025-03-06T14:00:00")},
        "NotFound",
        "notFound",
    )  # not a day of the series
    fails(
        session,
        "events_instances",
        {"calendarId": "primary", "eventId": DENTIST["id"]},
        "InvalidRequest",
        "not a recurring event",
    )


# ---------------------------------------------------------------- creating events


def test_insert_invites_guests_and_rooms_answer_by_availability(session):
    grant(session, ANA)
    out = ok(
        session,
        "events_insert",
        {
            "calendarId": "primary",
            "summary": "Review",
            "start": at("2025-03-06T14:00:00"),
            "end": at("2025-03-06T14:30:00"),
            "attendees": [
                {"email": NOOR},
                {"email": room("BOS-3-Beacon")},
                {"email": "Guest@Example.com", "optional": True},
            ],
            "addGoogleMeet": True,
        },
    )
    answers = {a["email"]: (a["responseStatus"], a["organizer"], a["resource"]) for a in out["attendees"]}
    assert answers[ANA] == ("accepted", True, False) and answers[NOOR] == ("needsAction", False, False)
    assert answers[room("BOS-3-Beacon")] == ("declined", False, True)  # the ops review holds it
    assert answers["guest@example.com"][0] == "needsAction"
    assert out["hangoutLink"].startswith("https://meet.google.com/")
    free = ok(
        session,
        "events_insert",
        {
            "calendarId": "primary",
            "start": at("2025-03-06T14:00:00"),
            "end": at("2025-03-06T14:30:00"),
            "attendees": [{"email": room("BOS-3-Harbor")}],
        },
    )
    assert free["attendees"][-1]["responseStatus"] == "accepted"
    assert stored(session, out["id"])["calendar_id"] == ANA


@pytest.mark.parametrize(
    "args,text",
    [
        ({"start": at("2025-03-04T10:00:00"), "end": at("2025-03-04T09:00:00")}, "timeRangeEmpty"),
        ({"start": {"date": "2025-03-04"}, "end": at("2025-03-04T09:00:00")}, "both be dates"),
        (
            {"start": {"dateTime": "2025-03-04T10:00:00"}, "end": {"dateTime": "2025-03-04T11:00:00"}},
            "Missing time zone",
        ),
        (
            {"start": {"date": "2025-03-04", "dateTime": "2025-03-04T10:00:00Z"}, "end": {"date": "2025-03-05"}},
            "either date",
        ),
        (
            {
                "start": {"dateTime": "2025-03-04T10:00:00-05:00"},
                "end": {"dateTime": "2025-03-04T11:00:00-05:00"},
                "recurrence": ["RRULE:FREQ=DAILY"],
            },
            "recurring events need start.timeZone",
        ),
        (
            {"start": at("2025-03-04T10:00:00"), "end": at("2025-03-04T11:00:00"), "recurrence": ["RRULE:FREQ=HOURLY"]},
            "FREQ must be",
        ),
        (
            {
                "start": at("2025-03-04T10:00:00"),
                "end": at("2025-03-04T11:00:00"),
                "reminders": {"useDefault": True, "overrides": [{"method": "popup", "minutes": 5}]},
            },
            "both default",
        ),
        (
            {
                "start": at("2025-03-04T10:00:00"),
                "end": at("2025-03-04T11:00:00"),
                "eventType": "outOfOffice",
                "attendees": [{"email": NOOR}],
            },
            "eventTypeRestriction",
        ),
    ],
)
def test_insert_rejects_invalid_events(session, args, text):
    grant(session, ANA)
    fails(session, "events_insert", {"calendarId": "primary", **args}, "InvalidRequest", text)


HOUR = {"start": at("2025-03-04T10:00:00"), "end": at("2025-03-04T11:00:00")}


@pytest.mark.parametrize(
    "tool,args,argument",
    [
        ("events_insert", {**HOUR, "colorId": "12"}, "colorId"),
        (
            "events_insert",
            {
                **HOUR,
                "reminders": {"useDefault": False, "overrides": [{"method": "popup", "minutes": m} for m in range(6)]},
            },
            "reminders.overrides",
        ),
        (
            "events_insert",
            {**HOUR, "reminders": {"useDefault": False, "overrides": [{"method": "email", "minutes": 50000}]}},
            "reminders.overrides.0.minutes",
        ),
        (
            "events_insert",
            {**HOUR, "reminders": {"useDefault": False, "overrides": [{"method": "email", "minutes": -1}]}},
            "reminders.overrides.0.minutes",
        ),
        ("events_insert", {**HOUR, "attendees": [{"email": "noor"}]}, "attendees.0.email"),
        ("events_insert", {"start": {"date": "4 March"}, "end": {"date": "2025-03-05"}}, "start.date"),
        ("events_insert", {"start": {"dateTime": "March 4, 10am"}, "end": HOUR["end"]}, "start.dateTime"),
        ("events_patch", {"eventId": "x", "colorId": "0"}, "colorId"),
        ("calendarList_patch", {"colorId": "25"}, "colorId"),
        ("events_instances", {"eventId": "x", "maxResults": 2501}, "maxResults"),
        ("events_quickAdd", {"text": ""}, "text"),
    ],
)
def test_argument_types_reject_what_the_schema_forbids(session, tool, args, argument):
    grant(session, ANA)
    outcome = fails(session, tool, {"calendarId": "primary", **args}, "invalid_arguments", argument)
    assert outcome.error.startswith(f"invalid arguments for '{tool}'")


def test_constraints_are_in_the_schema():
    def prop(tool: str, name: str) -> dict[str, Any]:
        """An argument's schema, `T | None` unwrapped."""
        node = SPEC.tools[tool].input_schema["properties"][name]
        return next(o for o in node.get("anyOf", [node]) if o.get("type") != "null")

    assert (prop("events_list", "maxResults")["minimum"], prop("events_list", "maxResults")["maximum"]) == (1, 2500)
    assert prop("directory_search", "maxResults")["maximum"] == 100
    assert prop("events_insert", "colorId")["enum"] == [str(i) for i in range(1, 12)]
    assert prop("calendarList_patch", "colorId")["enum"] == [str(i) for i in range(1, 25)]
    assert "pattern" in prop("events_list", "timeMin") and "pattern" in prop("freebusy_query", "timeMax")
    items = prop("freebusy_query", "items")
    assert (items["minItems"], items["maxItems"], items["uniqueItems"]) == (1, 50, True)
    reminders = SPEC.tools["events_insert"].input_schema["$defs"]
    assert reminders["Reminders"]["properties"]["overrides"]["maxItems"] == 5
    minutes = reminders["ReminderOverride"]["properties"]["minutes"]
    assert (minutes["minimum"], minutes["maximum"]) == (0, 40320)
    assert "pattern" in reminders["AttendeeInput"]["properties"]["email"]
    assert set(SPEC.tools["acl_insert"].input_schema["properties"]["scope"]["discriminator"]["mapping"]) == {
        "user",
        "group",
        "domain",
        "default",
    }
    assert "pattern" in prop("acl_delete", "ruleId") and prop("calendars_insert", "summary")["minLength"] == 1


def test_recurring_insert_stores_a_canonical_rule_and_expands(session):
    grant(session, ANA)
    out = ok(
        session,
        "events_insert",
        {
            "calendarId": "primary",
            "summary": "Launch standup",
            "start": at("2025-03-10T09:30:00"),
            "end": at("2025-03-10T09:45:00"),
            "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=TH,MO"],
        },
    )
    assert stored(session, out["id"])["recurrence"] == ["RRULE:FREQ=WEEKLY;BYDAY=MO,TH;COUNT=6"]
    runs = ok(session, "events_instances", {"calendarId": "primary", "eventId": out["id"]})["results"]
    assert [r["start"]["dateTime"][:10] for r in runs] == [
        "2025-03-10",
        "2025-03-13",
        "2025-03-17",
        "2025-03-20",
        "2025-03-24",
        "2025-03-27",
    ]


def test_a_weekly_rule_without_days_is_stored_with_the_start_weekday(session):
    grant(session, ANA)
    out = ok(
        session,
        "events_insert",
        {
            "calendarId": "primary",
            "summary": "Tempo run",
            "start": at("2025-03-06T06:30:00"),
            "end": at("2025-03-06T07:15:00"),
            "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=3"],
        },
    )
    assert stored(session, out["id"])["recurrence"] == ["RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=3"]  # as if BYDAY=TH
    ok(
        session,
        "events_patch",
        {
            "calendarId": "primary",
            "eventId": out["id"],
            "start": at("2025-03-07T06:30:00"),
            "end": at("2025-03-07T07:15:00"),
            "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=2"],
        },
    )
    assert stored(session, out["id"])["recurrence"] == ["RRULE:FREQ=WEEKLY;BYDAY=FR;COUNT=2"]  # the new first day
    runs = ok(session, "events_instances", {"calendarId": "primary", "eventId": out["id"]})["results"]
    assert [r["start"]["dateTime"][:10] for r in runs] == ["2025-03-07", "2025-03-14"]


def test_all_day_and_quick_add(session):
    grant(session, ANA)
    out = ok(session, "events_quickAdd", {"calendarId": "primary", "text": "Dentist Friday 3:30pm at Back Bay Dental"})
    assert (out["summary"], out["location"]) == ("Dentist", "Back Bay Dental")
    assert (out["start"]["dateTime"], out["end"]["dateTime"]) == (
        "2025-03-07T15:30:00-05:00",
        "2025-03-07T16:30:00-05:00",
    )
    out = ok(session, "events_quickAdd", {"calendarId": "primary", "text": "Team dinner Mar 14 7-9pm"})
    assert (out["start"]["dateTime"], out["end"]["dateTime"]) == (
        "2025-03-14T19:00:00-04:00",
        "2025-03-14T21:00:00-04:00",
    )
    out = ok(session, "events_quickAdd", {"calendarId": "primary", "text": "Ski weekend 15 March"})
    assert (out["start"]["date"], out["end"]["date"]) == ("2025-03-15", "2025-03-16")
    fails(session, "events_quickAdd", {"calendarId": "primary", "text": "tomorrow 3pm"}, "InvalidRequest", "title")
    fails(
        session,
        "events_quickAdd",
        {"calendarId": "primary", "text": "Call 5pm-4pm"},
        "InvalidRequest",
        "timeRangeEmpty",
    )


# ---------------------------------------------------------------- changing events


def test_only_the_organizer_changes_an_event_guests_can_answer(session):
    grant(session, ANA)
    fails(
        session,
        "events_patch",
        {
            "calendarId": "primary",
            "eventId": CRIT["id"],
            "start": at("2025-03-06T14:00:00"),
            "end": at("2025-03-06T15:00:00"),
        },
        "PermissionDenied",
        "forbiddenForNonOrganizer",
    )
    fails(
        session,
        "events_patch",
        {
            "calendarId": "primary",
            "eventId": CRIT["id"],
            "attendees": [{"email": ANA, "responseStatus": "accepted"}, {"email": JONAS}],
        },
        "PermissionDenied",
        "forbiddenForNonOrganizer",
    )
    fails(
        session,
        "events_patch",
        {"calendarId": "primary", "eventId": CRIT["id"], "attendees": [{"email": ANA}]},
        "InvalidRequest",
        "responseStatus",
    )
    ok(
        session,
        "events_patch",
        {
            "calendarId": "primary",
            "eventId": CRIT["id"],
            "attendees": [{"email": ANA, "responseStatus": "declined", "comment": "Conflict"}],
        },
    )
    row = stored(session, CRIT["id"])
    assert guest(row, ANA)["responseStatus"] == "declined" and guest(row, ANA)["comment"] == "Conflict"
    assert guest(row, NOOR)["responseStatus"] == "accepted" and row["start_date_time"] == CRIT["start_date_time"]


def test_patching_one_instance_creates_an_exception(session):
    grant(session, ANA)
    series_before = stored(session, NOOR_11["id"])
    wednesday = instance_id(NOOR_11, "2025-03-05T14:00:00")
    out = ok(
        session,
        "events_patch",
        {
            "calendarId": "primary",
            "eventId": wednesday,
            "start": at("2025-03-06T14:00:00"),
            "end": at("2025-03-06T14:30:00"),
        },
    )
    assert out["id"] == wednesday and out["start"]["dateTime"] == "2025-03-06T14:00:00-05:00"
    row = stored(session, wednesday)
    assert row["recurring_event_id"] == NOOR_11["id"] and row["original_start_time"] == "2025-03-05T19:00:00Z"
    assert row["sequence"] == NOOR_11["sequence"] + 1
    assert stored(session, NOOR_11["id"]) == series_before  # the series itself is untouched
    listed = [e for e in week(session) if e["summary"] == "Ana / Noor 1:1"]
    assert [e["start"]["dateTime"][:10] for e in listed] == ["2025-03-06", "2025-03-19"]
    fails(
        session,
        "events_patch",
        {"calendarId": "primary", "eventId": wednesday, "recurrence": ["RRULE:FREQ=DAILY"]},
        "InvalidRequest",
        "single instance",
    )


def test_patch_guest_list_keeps_answers_and_rooms_recheck(session):
    grant(session, ANA)
    sync = PRODUCT_SYNC["id"]
    keep = [{"email": email("Noor Haddad")}, {"email": email("Sam Okoro")}, {"email": email("Hana Sato")}]
    ok(session, "events_patch", {"calendarId": "primary", "eventId": sync, "attendees": keep})
    row = stored(session, sync)
    assert [a["email"] for a in row["attendees"]] == [ANA] + sorted(k["email"] for k in keep)  # organizer first
    ok(session, "events_patch", {"calendarId": "primary", "eventId": sync, "attendees": keep[::-1]})
    assert stored(session, sync)["attendees"] == row["attendees"]  # the order guests are given in does not matter
    assert SPEC.tools["events_patch"].unordered_inputs >= {"attendees"}
    assert guest(row, email("Sam Okoro"))["responseStatus"] == "tentative"
    assert guest(row, email("Hana Sato"))["responseStatus"] == "needsAction"
    fails(session, "events_patch", {"calendarId": "primary", "eventId": sync}, "InvalidRequest", "Nothing to change")


def test_delete_cancels_for_the_organizer_and_declines_for_a_guest(session):
    grant(session, ANA)
    friday = instance_id(NOOR_11, "2025-03-19T14:00:00")
    ok(session, "events_delete", {"calendarId": "primary", "eventId": friday})
    assert stored(session, friday)["status"] == "cancelled"
    assert stored(session, NOOR_11["id"])["status"] == "confirmed"
    fails(session, "events_delete", {"calendarId": "primary", "eventId": friday}, "Conflict", "deleted")
    ok(session, "events_delete", {"calendarId": "primary", "eventId": NOOR_11["id"]})
    assert stored(session, NOOR_11["id"])["status"] == "cancelled"
    ok(session, "events_delete", {"calendarId": "primary", "eventId": CRIT["id"]})  # Noor's meeting
    row = stored(session, CRIT["id"])
    assert row["status"] == "confirmed" and guest(row, ANA)["responseStatus"] == "declined"


def test_move_changes_the_organizer(session):
    grant(session, ANA)
    review = event("Q2 launch review")
    fails(
        session,
        "events_move",
        {"calendarId": "primary", "eventId": CRIT["id"], "destination": LAUNCHES},
        "PermissionDenied",
        "forbiddenForNonOrganizer",
    )
    fails(
        session,
        "events_move",
        {"calendarId": "primary", "eventId": instance_id(NOOR_11, "2025-03-05T14:00:00"), "destination": LAUNCHES},
        "InvalidRequest",
        "cannotChangeOrganizerOfInstance",
    )
    focus = event("Focus: roadmap writing")
    fails(
        session,
        "events_move",
        {"calendarId": "primary", "eventId": focus["id"], "destination": LAUNCHES},
        "InvalidRequest",
        "eventTypeRestriction",
    )
    fails(
        session,
        "events_move",
        {"calendarId": "primary", "eventId": review["id"], "destination": BOARD},
        "NotFound",
        "notFound",
    )
    out = ok(session, "events_move", {"calendarId": "primary", "eventId": review["id"], "destination": LAUNCHES})
    assert out["organizer"]["email"] == LAUNCHES
    row = stored(session, review["id"])
    assert row["calendar_id"] == LAUNCHES and ANA not in {a["email"] for a in row["attendees"]}
    assert review["id"] not in {e["id"] for e in week(session)}


# ---------------------------------------------------------------- free/busy


def test_freebusy_merges_busy_time_and_reports_errors(session):
    grant(session, ANA)
    out = ok(
        session,
        "freebusy_query",
        {
            "timeMin": "2025-03-06T09:00:00-05:00",
            "timeMax": "2025-03-06T18:00:00-05:00",
            "items": ["primary", room("BOS-3-Beacon"), "nobody@kestrelrobotics.com"],
            "timeZone": BOS,
        },
    )
    mine = [(b["start"][11:16], b["end"][11:16]) for b in out["calendars"]["primary"]["busy"]]
    assert mine == [("11:00", "13:00"), ("15:00", "15:30")]  # an unanswered invitation counts as busy
    assert ("14:00", "15:00") in [
        (b["start"][11:16], b["end"][11:16]) for b in out["calendars"][room("BOS-3-Beacon")]["busy"]
    ]
    assert out["calendars"]["nobody@kestrelrobotics.com"]["errors"][0]["reason"] == "notFound"
    ok(
        session,
        "events_patch",
        {
            "calendarId": "primary",
            "eventId": event("All hands")["id"],
            "attendees": [{"email": ANA, "responseStatus": "declined"}],
        },
    )
    again = ok(
        session,
        "freebusy_query",
        {
            "timeMin": "2025-03-06T09:00:00-05:00",
            "timeMax": "2025-03-06T18:00:00-05:00",
            "items": ["primary"],
            "timeZone": BOS,
        },
    )
    busy = [(b["start"][11:16], b["end"][11:16]) for b in again["calendars"]["primary"]["busy"]]
    assert busy == [("11:00", "12:00"), ("15:00", "15:30")]  # a declined invitation no longer counts
    fails(
        session,
        "freebusy_query",
        {"timeMin": "2025-03-01T00:00:00Z", "timeMax": "2025-06-01T00:00:00Z", "items": ["primary"]},
        "InvalidRequest",
        "timeRangeTooLong",
    )


# ---------------------------------------------------------------- sharing and calendars


def test_acl_is_for_owners_and_updates_calendar_lists(session):
    grant(session, ANA)
    fails(session, "acl_list", {"calendarId": LAUNCHES}, "PermissionDenied", "owner")
    assert {r["id"] for r in ok(session, "acl_list", {"calendarId": "primary"})} == {
        f"user:{ANA}",
        "domain:kestrelrobotics.com",
        f"user:{NOOR}",
    }
    fails(
        session,
        "acl_insert",
        {"calendarId": "primary", "role": "reader", "scope": {"type": "user", "value": ANA}},
        "PermissionDenied",
        "cannotChangeOwnAcl",
    )
    fails(
        session,
        "acl_insert",
        {"calendarId": "primary", "role": "writer", "scope": {"type": "default"}},
        "InvalidRequest",
        "public",
    )
    fails(
        session,
        "acl_insert",
        {"calendarId": "primary", "role": "reader", "scope": {"type": "user", "value": "x"}},
        "invalid_arguments",
        "scope.user.value",
    )
    fails(
        session,
        "acl_insert",
        {"calendarId": "primary", "role": "reader", "scope": {"type": "domain", "value": "not a domain"}},
        "invalid_arguments",
        "scope",
    )
    fails(
        session,
        "acl_insert",
        {"calendarId": "primary", "role": "reader", "scope": {"type": "default", "value": "everyone"}},
        "invalid_arguments",
        "scope",
    )
    fails(session, "acl_delete", {"calendarId": "primary", "ruleId": "noor"}, "invalid_arguments", "ruleId")
    liam = email("Liam O'Connor")
    ok(session, "acl_insert", {"calendarId": "primary", "role": "reader", "scope": {"type": "user", "value": liam}})
    assert json.dumps([liam, ANA]) in session.dump()["calendar_list"]
    ok(session, "acl_insert", {"calendarId": "primary", "role": "writer", "scope": {"type": "user", "value": liam}})
    assert session.dump()["acl_rules"][json.dumps([ANA, f"user:{liam}"])]["role"] == "writer"
    ok(session, "acl_delete", {"calendarId": "primary", "ruleId": f"user:{liam}"})
    assert json.dumps([ANA, f"user:{liam}"]) not in session.dump()["acl_rules"]
    assert json.dumps([liam, ANA]) in session.dump()["calendar_list"]  # the domain still lets Liam read it
    fails(session, "acl_delete", {"calendarId": "primary", "ruleId": f"user:{liam}"}, "NotFound", "No sharing rule")
    fails(
        session,
        "acl_delete",
        {"calendarId": "primary", "ruleId": f"user:{ANA}"},
        "PermissionDenied",
        "cannotChangeOwnAcl",
    )


def test_calendars_insert_makes_the_user_owner(session):
    grant(session, ANA)
    fails(session, "calendars_insert", {"summary": " "}, "invalid_arguments", "summary")
    fails(session, "calendars_insert", {"summary": "Launch", "timeZone": "Mars/Olympus"}, "InvalidRequest", "IANA")
    out = ok(session, "calendars_insert", {"summary": "Atlas v2 milestones"})
    assert out["id"].endswith("@group.calendar.google.com") and out["timeZone"] == BOS
    entry = next(e for e in ok(session, "calendarList_list") if e["id"] == out["id"])
    assert entry["accessRole"] == "owner"
    ok(
        session,
        "events_insert",
        {
            "calendarId": out["id"],
            "summary": "Embargo",
            "start": at("2025-03-25T09:00:00"),
            "end": at("2025-03-25T09:30:00"),
        },
    )


def test_respond_on_phone_and_directory(session):
    grant(session, ANA)
    offsite = event("Kestrel offsite 2025")
    fails(
        session,
        "respond_on_phone",
        {"summary": "Kestrel offsite 2025", "date": "2025-04-23", "response": "accepted"},
        "NotFound",
        "No invitation",
        caller="user",
    )
    ok(
        session,
        "respond_on_phone",
        {"summary": "kestrel offsite 2025", "date": "2025-04-22", "response": "accepted"},
        caller="user",
    )
    assert guest(stored(session, offsite["id"]), ANA)["responseStatus"] == "accepted"
    found = ok(session, "directory_search", {"query": "harbor"})
    assert [(f["type"], f["capacity"]) for f in found] == [("room", 8)]
    assert {f["email"] for f in ok(session, "directory_search", {"query": "product"})} >= {ANA, NOOR}
    colors = ok(session, "colors_get")
    assert colors["event"]["11"]["name"] == "Tomato" and len(colors["event"]) == 11


# ---------------------------------------------------------------- the recurrence module


def test_recurrence_rules():
    zone = ZoneInfo(BOS)
    monthly = recurrence.parse(["RRULE:FREQ=MONTHLY;BYDAY=1TH"], zone)
    starts = recurrence.expand(monthly, datetime(2025, 1, 2, 12), datetime(2025, 5, 1))
    assert [s.day for s in starts] == [2, 6, 6, 3]
    capped = recurrence.parse(
        ["RRULE:FREQ=DAILY;INTERVAL=2;COUNT=3", "EXDATE;TZID=America/New_York:20250305T090000"], zone
    )
    assert recurrence.expand(capped, datetime(2025, 3, 3, 9), datetime(2025, 4, 1)) == [
        datetime(2025, 3, 3, 9),
        datetime(2025, 3, 7, 9),
    ]
    until = recurrence.parse(["RRULE:FREQ=WEEKLY;BYDAY=SA;UNTIL=20250315T235959Z"], zone)
    assert len(recurrence.expand(until, date(2025, 3, 1), date(2025, 12, 31))) == 3
    for bad in (["RRULE:FREQ=WEEKLY;COUNT=2;UNTIL=20250301"], ["RRULE:FREQ=WEEKLY;BYSETPOS=1"], ["RDATE:20250301"], []):
        with pytest.raises(ValueError):
            recurrence.parse(bad, zone)


def test_tentative_events_can_be_confirmed_later(session):
    grant(session, ANA)
    out = ok(
        session,
        "events_insert",
        {
            "calendarId": "primary",
            "summary": "Maybe offsite dinner",
            "status": "tentative",
            "start": at("2025-04-22T19:00:00"),
            "end": at("2025-04-22T21:00:00"),
        },
    )
    assert stored(session, out["id"])["status"] == "tentative"
    ok(session, "events_patch", {"calendarId": "primary", "eventId": out["id"], "status": "confirmed"})
    assert stored(session, out["id"])["status"] == "confirmed"


# ---------------------------------------------------------------- upgrade (v1): sign-in, list entries, windows


def test_grant_access_starts_one_session_that_a_new_grant_replaces(session):
    grant(session, ANA, "calendar.readonly")
    grant(session, NOOR)
    grants = session.dump()["oauth_grants"]
    assert list(grants) == ["current"] and grants["current"]["email"] == NOOR
    assert grants["current"]["scope"] == "calendar"
    assert ok(session, "calendarList_list")[0]["id"] == NOOR


def test_calendar_list_patch_changes_only_the_users_own_entry(session):
    grant(session, ANA)
    fails(session, "calendarList_patch", {"calendarId": LAUNCHES}, "InvalidRequest", "Nothing to change")
    fails(
        session,
        "calendarList_patch",
        {"calendarId": email("Hana Sato"), "hidden": True},
        "NotFound",
        "not on your calendar list",
    )  # readable through the domain, but never added to her list
    fails(session, "calendarList_patch", {"calendarId": BOARD, "hidden": True}, "NotFound", "notFound")
    out = ok(session, "calendarList_patch", {"calendarId": NOOR, "summaryOverride": "Noor (design)", "colorId": "7"})
    assert (out["summaryOverride"], out["colorId"], out["accessRole"]) == ("Noor (design)", "7", "reader")
    ok(session, "calendarList_patch", {"calendarId": LAUNCHES, "hidden": True})
    assert LAUNCHES not in {e["id"] for e in ok(session, "calendarList_list")}
    hidden = next(e for e in ok(session, "calendarList_list", {"showHidden": True}) if e["id"] == LAUNCHES)
    assert hidden["hidden"] and hidden["summary"] == "Kestrel Launches"
    ok(session, "calendarList_patch", {"calendarId": NOOR, "summaryOverride": " "})
    assert json.loads(json.dumps(session.dump()["calendar_list"]))[json.dumps([ANA, NOOR])]["summary_override"] is None
    assert session.dump()["calendar_list"][json.dumps([NOOR, NOOR])]["color_id"] != "7"  # Noor's own list unchanged
    grant(session, ANA, "calendar.readonly")
    fails(
        session,
        "calendarList_patch",
        {"calendarId": NOOR, "selected": False},
        "PermissionDenied",
        "insufficientPermissions",
    )


def test_bounded_listing_shows_a_series_only_when_an_instance_falls_in_the_range(session):
    grant(session, ANA)

    def titles(day_from: str, day_to: str) -> set[str]:
        args = {"calendarId": "primary", "timeMin": f"{day_from}T00:00:00-05:00", "timeMax": f"{day_to}T00:00:00-05:00"}
        return {e["summary"] for e in ok(session, "events_list", args)["results"]}

    assert "Ana / Noor 1:1" in titles("2025-03-05", "2025-03-06")  # its fortnightly Wednesday
    assert "Ana / Noor 1:1" not in titles("2025-03-06", "2025-03-07")
    assert {"Product sync", "Product sync (moved)"} <= titles("2025-03-11", "2025-03-12")  # the exception too


def test_all_day_events_span_their_own_time_zones_midnights(session):
    grant(session, JONAS)
    holidays = calendar("Holidays in Germany")

    def listed(lo: str, hi: str) -> list[str]:
        args = {"calendarId": holidays, "timeMin": lo, "timeMax": hi, "singleEvents": True}
        return [e["summary"] for e in ok(session, "events_list", args)["results"]]

    assert listed("2025-04-17T21:30:00Z", "2025-04-17T22:30:00Z") == ["Karfreitag"]  # Berlin midnight is 22:00Z
    assert listed("2025-04-17T20:00:00Z", "2025-04-17T22:00:00Z") == []
    assert listed("2025-04-18T21:00:00-07:00", "2025-04-18T23:00:00-07:00") == []  # 04:00-06:00Z on the 19th


def test_a_room_declines_a_series_when_any_instance_clashes(session):
    grant(session, ANA)
    beacon = room("BOS-3-Beacon")

    def booked(count: int) -> str:
        out = ok(
            session,
            "events_insert",
            {
                "calendarId": "primary",
                "summary": "Thursday review",
                "start": at("2025-03-13T14:00:00"),
                "end": at("2025-03-13T14:30:00"),
                "recurrence": [f"RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT={count}"],
                "attendees": [{"email": beacon}],
            },
        )
        return guest(stored(session, out["id"]), beacon)["responseStatus"]

    assert booked(1) == "accepted"
    assert booked(3) == "declined"  # the ops review holds Beacon on March 20 (and the first series the 13th)


def test_expansion_from_a_later_day_matches_the_full_expansion():
    zone = ZoneInfo(BOS)
    lines = [
        ["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,SU"],
        ["RRULE:FREQ=MONTHLY;BYDAY=-1FR"],
        ["RRULE:FREQ=DAILY;INTERVAL=3", "EXDATE;TZID=America/New_York:20250304T090000"],
        ["RRULE:FREQ=YEARLY;INTERVAL=2"],
        ["RRULE:FREQ=MONTHLY;BYMONTHDAY=31,-1"],
    ]
    for line in lines:
        rule = recurrence.parse(line, zone)
        for skip in (date(2024, 12, 30), date(2025, 3, 3), date(2025, 7, 31), date(2027, 2, 1)):
            start, until = datetime(2024, 1, 31, 9), datetime(2030, 1, 1)
            full = [m for m in recurrence.expand(rule, start, until) if m.date() >= skip]
            part = [m for m in recurrence.expand(rule, start, until, skip) if m.date() >= skip]
            assert full == part and full, (line, skip)
    counted = recurrence.parse(["RRULE:FREQ=DAILY;COUNT=5"], zone)  # COUNT counts from the start: nothing skipped
    assert recurrence.expand(counted, date(2025, 3, 1), date(2026, 1, 1), date(2025, 3, 4)) == [
        date(2025, 3, d) for d in range(1, 6)
    ]
