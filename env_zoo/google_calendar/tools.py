"""Google Calendar API v3 methods for the account that granted the app access: the calendar list, calendars,
events (with recurring series and single-instance exceptions), quick add, moves, free/busy, sharing (ACL),
colours, and the Workspace directory."""

from __future__ import annotations

import base64
import re
import uuid
from datetime import date, datetime, time, timedelta, timezone
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field
from sqlalchemy import String, cast

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate, tool

from . import recurrence as rrule
from .objects import (
    AclRule, AclScope, AttendeeInput, AttendeeObject, CalendarListEntry, CalendarObject, ColorDefinition, Colors,
    ConferenceData, DirectoryEntry, EventDateTime, EventObject, FreeBusyCalendar, FreeBusyError,
    FreeBusyResponse, PersonRef, Reminders, Role, TimePeriod,
)
from .schema import acl_rules, calendar_list, calendars, events, oauth_grants, people, rooms

ROLE_RANK = {"none": 0, "freeBusyReader": 1, "reader": 2, "writer": 3, "owner": 4}
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
MAX_REMINDERS = 5
MAX_REMINDER_MINUTES = 40320
MAX_FREEBUSY_DAYS = 62
MAX_FREEBUSY_ITEMS = 50
SERIES_HORIZON = timedelta(days=366)
UTC = timezone.utc
EVENT_COLORS = {
    "1": ("#a4bdfc", "Lavender"), "2": ("#7ae7bf", "Sage"), "3": ("#dbadff", "Grape"), "4": ("#ff887c", "Flamingo"),
    "5": ("#fbd75b", "Banana"), "6": ("#ffb878", "Tangerine"), "7": ("#46d6db", "Peacock"),
    "8": ("#e1e1e1", "Graphite"), "9": ("#5484ed", "Blueberry"), "10": ("#51b749", "Basil"),
    "11": ("#dc2127", "Tomato"),
}
CALENDAR_COLORS = {
    str(i): (bg, name) for i, (bg, name) in enumerate([
        ("#ac725e", "Cocoa"), ("#d06b64", "Flamingo"), ("#f83a22", "Tomato"), ("#fa573c", "Tangerine"),
        ("#ff7537", "Pumpkin"), ("#ffad46", "Mango"), ("#42d692", "Eucalyptus"), ("#16a765", "Basil"),
        ("#7bd148", "Pistachio"), ("#b3dc6c", "Avocado"), ("#fbe983", "Citron"), ("#fad165", "Banana"),
        ("#92e1c0", "Sage"), ("#9fe1e7", "Peacock"), ("#9fc6e7", "Cobalt"), ("#4986e7", "Blueberry"),
        ("#9a9cff", "Lavender"), ("#b99aff", "Wisteria"), ("#c2c2c2", "Graphite"), ("#cabdbf", "Birch"),
        ("#cca6ac", "Radicchio"), ("#f691b2", "Cherry Blossom"), ("#cd74e6", "Grape"), ("#a47ae2", "Amethyst"),
    ], start=1)
}
WEEKDAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
Timestamp = Annotated[str, Field(json_schema_extra={"format": "date-time"})]  # RFC3339 with a mandatory offset
MONTHS = {name: i for i, name in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1)}


# ---------------------------------------------------------------- account and access

def _me(db: Database) -> str:
    """The account that granted the app access."""
    grant = db.find(oauth_grants, id="current")
    if not grant:
        raise PermissionDenied("unauthorized: No Google account has granted this app access to Google Calendar. "
                               "Ask the user to grant access.")
    return grant[0]["email"]


def _writer(db: Database) -> str:
    """The account, when its grant includes write access."""
    me = _me(db)
    if db.find(oauth_grants, id="current")[0]["scope"] != "calendar":
        raise PermissionDenied("insufficientPermissions: Request had insufficient authentication scopes. The app "
                               "only has read-only access; ask the user to grant full Google Calendar access.")
    return me


def _role(db: Database, calendar_id: str, email: str) -> str:
    """The best role any ACL rule of the calendar gives to `email`."""
    domain = email.rpartition("@")[2]
    best = "none"
    for rule in db.find(acl_rules, calendar_id=calendar_id):
        applies = (rule["scope_type"] == "default" or (rule["scope_type"] in ("user", "group") and
                   rule["scope_value"] == email) or (rule["scope_type"] == "domain" and rule["scope_value"] == domain))
        if applies and ROLE_RANK[rule["role"]] > ROLE_RANK[best]:
            best = rule["role"]
    return best


def _calendar(db: Database, calendar_id: str, me: str, need: str = "freeBusyReader") -> dict[str, Any]:
    """A calendar `me` can reach with at least the `need` role ("primary" is me's own calendar)."""
    cid = me if calendar_id == "primary" else calendar_id
    found = db.find(calendars, id=cid)
    role = _role(db, cid, me) if found else "none"
    if role == "none":
        raise NotFound(f"notFound: Calendar not found: {calendar_id}")
    if ROLE_RANK[role] < ROLE_RANK[need]:
        raise PermissionDenied(f"requiredAccessLevel: You need to have {need} access to this calendar "
                               f"(you have {role}).")
    return {**found[0], "role": role}


# ---------------------------------------------------------------- time

def _zone(name: str, what: str = "time zone") -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidRequest(f"Invalid {what} definition: {name!r} is not an IANA time zone.") from None


def _utc_text(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_utc(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def _rfc3339(value: str, name: str) -> datetime:
    """A timestamp with a mandatory offset, as timeMin/timeMax require."""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise InvalidRequest(f"Bad Request: {name} is not an RFC3339 timestamp: {value!r}.") from None
    if moment.tzinfo is None:
        raise InvalidRequest(f"Bad Request: {name} needs a time zone offset, e.g. 2025-03-04T09:00:00-05:00.")
    return moment


def _when(value: EventDateTime, zone_name: str, which: str) -> tuple[str, Any, str]:
    """("date", date, tz) or ("dateTime", aware datetime, tz) from an EventDateTime."""
    if (value.date is None) == (value.dateTime is None):
        raise InvalidRequest(f"Invalid {which} time: give either date (all-day) or dateTime.")
    zone_name = value.timeZone or zone_name
    zone = _zone(zone_name, f"time zone for {which} time")
    if value.date is not None:
        try:
            return "date", date.fromisoformat(value.date), zone_name
        except ValueError:
            raise InvalidRequest(f"Invalid {which} date {value.date!r}: use YYYY-MM-DD.") from None
    try:
        moment = datetime.fromisoformat(value.dateTime)  # type: ignore[arg-type]
    except ValueError:
        raise InvalidRequest(f"Invalid {which} dateTime {value.dateTime!r}: use RFC3339.") from None
    if moment.tzinfo is None:
        if value.timeZone is None:
            raise InvalidRequest(f"Missing time zone definition for {which} time.")
        moment = moment.replace(tzinfo=zone)
    return "dateTime", moment, zone_name


def _span(row: dict[str, Any]) -> tuple[datetime, datetime]:
    """An event's start and end as UTC instants (all-day events span local midnights of their time zone)."""
    if row["start_date"]:
        zone = ZoneInfo(row["time_zone"])
        start = datetime.combine(date.fromisoformat(row["start_date"]), time(), zone)
        end = datetime.combine(date.fromisoformat(row["end_date"]), time(), zone)
        return start.astimezone(UTC), end.astimezone(UTC)
    return _parse_utc(row["start_date_time"]), _parse_utc(row["end_date_time"])


def _time_columns(start: tuple[str, Any, str], end: tuple[str, Any, str]) -> dict[str, Any]:
    if start[0] != end[0]:
        raise InvalidRequest("Invalid end time: start and end must both be dates or both be dateTimes.")
    if not end[1] > start[1]:
        raise InvalidRequest("timeRangeEmpty: The specified time range is empty (the end must be after the start).")
    if start[0] == "date":
        return {"start_date": start[1].isoformat(), "end_date": end[1].isoformat(), "start_date_time": None,
                "end_date_time": None, "time_zone": start[2]}
    return {"start_date": None, "end_date": None, "start_date_time": _utc_text(start[1]),
            "end_date_time": _utc_text(end[1]), "time_zone": start[2]}


# ---------------------------------------------------------------- series and instances

def _rule(row: dict[str, Any]) -> rrule.Rule:
    return rrule.parse(row["recurrence"], ZoneInfo(row["time_zone"]))


def _stamp(row: dict[str, Any]) -> str:
    return row["start_date"].replace("-", "") if row["start_date"] else \
        row["start_date_time"].replace("-", "").replace(":", "")


def _instance(parent: dict[str, Any], local_start: datetime | date) -> dict[str, Any]:
    """A virtual instance of a series starting at `local_start` (wall time in the series' time zone)."""
    zone = ZoneInfo(parent["time_zone"])
    row = {**parent, "recurrence": [], "recurring_event_id": parent["id"]}
    if isinstance(local_start, datetime):
        length = _parse_utc(parent["end_date_time"]) - _parse_utc(parent["start_date_time"])
        start = local_start.replace(tzinfo=zone)
        row.update(start_date_time=_utc_text(start), end_date_time=_utc_text(start + length),
                   original_start_time=_utc_text(start))
    else:
        days = date.fromisoformat(parent["end_date"]) - date.fromisoformat(parent["start_date"])
        row.update(start_date=local_start.isoformat(), end_date=(local_start + days).isoformat(),
                   original_start_time=local_start.isoformat())
    row["id"] = f"{parent['id']}_{_stamp(row)}"
    return row


def _expand(db: Database, parent: dict[str, Any], lo: datetime, hi: datetime) -> list[dict[str, Any]]:
    """Instances of a series overlapping [lo, hi); exceptions replace the instances they modify."""
    zone = ZoneInfo(parent["time_zone"])
    start = date.fromisoformat(parent["start_date"]) if parent["start_date"] else \
        _parse_utc(parent["start_date_time"]).astimezone(zone).replace(tzinfo=None)
    until: datetime | date = hi.astimezone(zone).replace(tzinfo=None)
    if parent["start_date"]:
        until = until.date() + timedelta(days=1)  # type: ignore[union-attr]
    exceptions = {r["id"]: r for r in db.find(events, recurring_event_id=parent["id"])}
    found = []
    for local in rrule.expand(_rule(parent), start, until):
        instance = _instance(parent, local)
        instance = exceptions.pop(instance["id"], instance)
        begins, ends = _span(instance)
        if ends > lo and begins < hi:
            found.append(instance)
    for exception in exceptions.values():  # moved into the window from outside it
        begins, ends = _span(exception)
        if ends > lo and begins < hi:
            found.append(exception)
    return found


def _series_rows(db: Database, rows: list[dict[str, Any]], lo: datetime, hi: datetime) -> list[dict[str, Any]]:
    """Single events of `rows`, with every series expanded into its instances within [lo, hi)."""
    out = []
    for row in rows:
        if row["recurring_event_id"]:
            continue  # exceptions come with their series
        if row["recurrence"]:
            out += _expand(db, row, lo, hi)
        else:
            begins, ends = _span(row)
            if ends > lo and begins < hi:
                out.append(row)
    return out


# ---------------------------------------------------------------- events on a calendar

def _rows_on(db: Database, cal: dict[str, Any]) -> list[dict[str, Any]]:
    """Events that appear on a calendar: those it organizes, plus invitations of its owner (or its room)."""
    rows = db.find(events, calendar_id=cal["id"])
    if cal["kind"] in ("primary", "resource"):
        mentioned = cast(events.c.attendees, String).like(f'%"{cal["id"]}"%')
        for row in db.find(events, events.c.calendar_id != cal["id"], mentioned):
            guest = next((a for a in row["attendees"] if a["email"] == cal["id"]), None)
            if guest and (cal["kind"] == "primary" or guest["responseStatus"] == "accepted"):
                rows.append(row)
    return rows


def _find_event(db: Database, cal: dict[str, Any], event_id: str) -> dict[str, Any]:
    """An event (or an instance of a series, real or virtual) as it appears on the calendar."""
    rows = {r["id"]: r for r in _rows_on(db, cal)}
    if event_id in rows:
        return rows[event_id]
    base, _, stamp = event_id.partition("_")
    parent = rows.get(base)
    if parent and parent["recurrence"] and stamp:
        around = _parse_stamp(stamp)
        if around is not None:
            for instance in _expand(db, parent, around - timedelta(days=2), around + timedelta(days=2)):
                if instance["id"] == event_id:
                    return instance
    raise NotFound(f"notFound: Event {event_id} not found on calendar {cal['id']}.")


def _parse_stamp(stamp: str) -> datetime | None:
    for fmt in ("%Y%m%dT%H%M%SZ", "%Y%m%d"):
        try:
            return datetime.strptime(stamp, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    return None


def _organizes(cal: dict[str, Any], row: dict[str, Any]) -> bool:
    """Whether this calendar holds the organizer's copy of the event."""
    return row["calendar_id"] == cal["id"]


def _names(db: Database) -> dict[str, str]:
    names = {c["id"]: c["summary"] for c in db.find(calendars)}
    names.update({r["email"]: r["name"] for r in db.find(rooms)})
    names.update({p["email"]: p["display_name"] for p in db.find(people)})
    return names


def _html_link(row: dict[str, Any]) -> str:
    eid = base64.urlsafe_b64encode(f"{row['id']} {row['calendar_id']}".encode()).decode().rstrip("=")
    return f"https://www.google.com/calendar/event?eid={eid}"


def _event_time(row: dict[str, Any], which: str) -> EventDateTime:
    if row[f"{which}_date"]:
        return EventDateTime(date=row[f"{which}_date"])
    moment = _parse_utc(row[f"{which}_date_time"]).astimezone(ZoneInfo(row["time_zone"]))
    return EventDateTime(dateTime=moment.isoformat(), timeZone=row["time_zone"])


def _event_object(db: Database, row: dict[str, Any], cal: dict[str, Any], names: dict[str, str] | None = None
                  ) -> EventObject:
    """The event as `cal` sees it; private events are reduced to busy time below writer access."""
    names = names if names is not None else _names(db)
    private = row["visibility"] in ("private", "confidential") and ROLE_RANK[cal["role"]] < ROLE_RANK["writer"] \
        and not any(a["email"] == cal["id"] for a in row["attendees"])
    original = None
    if row["original_start_time"]:
        original = EventDateTime(date=row["original_start_time"]) if row["start_date"] else EventDateTime(
            dateTime=_parse_utc(row["original_start_time"]).astimezone(ZoneInfo(row["time_zone"])).isoformat(),
            timeZone=row["time_zone"])
    conference = ConferenceData(**row["conference_data"]) if row["conference_data"] else None
    return EventObject(
        id=row["id"], status=row["status"], htmlLink=_html_link(row), created=row["created"], updated=row["updated"],
        summary="busy" if private else row["summary"], description="" if private else row["description"],
        location="" if private else row["location"], colorId=row["color_id"],
        creator=PersonRef(email=row["creator_email"], displayName=names.get(row["creator_email"]),
                          self=row["creator_email"] == cal["id"]),
        organizer=PersonRef(email=row["organizer_email"], displayName=names.get(row["organizer_email"]),
                            self=row["organizer_email"] == cal["id"]),
        start=_event_time(row, "start"), end=_event_time(row, "end"), recurrence=row["recurrence"],
        recurringEventId=row["recurring_event_id"], originalStartTime=original, transparency=row["transparency"],
        visibility=row["visibility"], iCalUID=row["i_cal_uid"], sequence=row["sequence"],
        attendees=[] if private else [AttendeeObject(
            email=a["email"], displayName=names.get(a["email"]), organizer=a.get("organizer", False),
            self=a["email"] == cal["id"], resource=a.get("resource", False), optional=a.get("optional", False),
            responseStatus=a["responseStatus"], comment=a.get("comment")) for a in row["attendees"]],
        guestsCanModify=row["guests_can_modify"], guestsCanInviteOthers=row["guests_can_invite_others"],
        guestsCanSeeOtherGuests=row["guests_can_see_other_guests"], reminders=Reminders(**row["reminders"]),
        conferenceData=conference, hangoutLink=conference.entryPoints[0].uri if conference else None,
        eventType=row["event_type"],
    )


# ---------------------------------------------------------------- validation and writes

def _reminders(value: Reminders | None) -> dict[str, Any]:
    value = value or Reminders()
    if value.useDefault and value.overrides:
        raise InvalidRequest("Cannot specify both default reminders and overrides at the same time.")
    if len(value.overrides) > MAX_REMINDERS:
        raise InvalidRequest(f"cannotHaveMoreThan{MAX_REMINDERS}Reminders: An event can have at most "
                             f"{MAX_REMINDERS} reminders.")
    for override in value.overrides:
        if not 0 <= override.minutes <= MAX_REMINDER_MINUTES:
            raise InvalidRequest(f"Invalid reminder: minutes must be between 0 and {MAX_REMINDER_MINUTES}.")
    return value.model_dump()


def _color(color_id: str | None) -> str | None:
    if color_id is not None and color_id not in EVENT_COLORS:
        raise InvalidRequest(f"Invalid colorId {color_id!r}: event colours are 1 to 11 (see colors_get).")
    return color_id


def _busy_rows(db: Database, cal: dict[str, Any], lo: datetime, hi: datetime, skip: str = "") -> list[dict[str, Any]]:
    """Events that make the calendar busy within [lo, hi) (skipping the series `skip`)."""
    found = []
    for row in _series_rows(db, _rows_on(db, cal), lo, hi):
        same_series = row["id"].partition("_")[0] == skip.partition("_")[0]
        if same_series or row["status"] == "cancelled" or row["transparency"] == "transparent":
            continue
        guest = next((a for a in row["attendees"] if a["email"] == cal["id"]), None)
        if guest is not None and not _organizes(cal, row) and guest["responseStatus"] == "declined":
            continue
        found.append(row)
    return found


def _room_answer(db: Database, room_email: str, row: dict[str, Any]) -> str:
    """A room accepts an invitation when it is free for every instance (within a year), else declines."""
    room = {**db.get(calendars, room_email, "Calendar"), "role": "reader"}
    begins, ends = _span(row)
    windows = [(begins, ends)]
    if row["recurrence"]:
        windows = [_span(i) for i in _expand(db, row, begins, begins + SERIES_HORIZON)]
    for lo, hi in windows:
        if any(_overlaps(_span(other), lo, hi) for other in _busy_rows(db, room, lo, hi, skip=row["id"])):
            return "declined"
    return "accepted"


def _overlaps(span: tuple[datetime, datetime], lo: datetime, hi: datetime) -> bool:
    return span[1] > lo and span[0] < hi


def _attendees(db: Database, row: dict[str, Any], wanted: list[AttendeeInput], organizer_copy: bool) -> list[dict]:
    """The new guest list: answers of kept guests stay, new guests need to answer, rooms answer themselves."""
    current = {a["email"]: a for a in row["attendees"]}
    room_emails = {r["email"] for r in db.find(rooms)}
    out: list[dict[str, Any]] = []
    organizer = row["organizer_email"]
    if organizer in current or (organizer_copy and wanted and db.find(people, email=organizer)):
        out.append({**current.get(organizer, {}), "email": organizer, "organizer": True, "responseStatus":
                    current.get(organizer, {}).get("responseStatus", "accepted")})
    for guest in wanted:
        email = guest.email.strip().lower()
        if not EMAIL.match(email):
            raise InvalidRequest(f"Invalid attendee email: {guest.email!r}.")
        if email == organizer or email in {a["email"] for a in out}:
            continue
        entry = {**current.get(email, {"responseStatus": "needsAction"}), "email": email, "optional": guest.optional}
        if email in room_emails:
            entry["resource"] = True
        out.append(entry)
    return out


def _answer_rooms(db: Database, row: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**a, "responseStatus": _room_answer(db, a["email"], row)} if a.get("resource") else a
            for a in row["attendees"]]


def _meet(db: Database) -> dict[str, Any]:
    letters = "".join(chr(ord("a") + int(c, 16) % 26) for c in
                      uuid.uuid5(uuid.NAMESPACE_URL, f"meet:{db.next_number('gcal:meet')}").hex[:10])
    code = f"{letters[:3]}-{letters[3:7]}-{letters[7:]}"
    return {"conferenceId": code, "conferenceSolution": {"name": "Google Meet", "type": "hangoutsMeet"},
            "entryPoints": [{"entryPointType": "video", "uri": f"https://meet.google.com/{code}", "label": code}]}


def _check_series(row: dict[str, Any]) -> None:
    if not row["recurrence"]:
        return
    try:
        _rule(row)
    except ValueError as exc:
        raise InvalidRequest(str(exc)) from None


def _new_event(db: Database, cal: dict[str, Any], me: str, values: dict[str, Any]) -> dict[str, Any]:
    event_id = db.new_uuid(events).replace("-", "")
    now = db.now_iso()
    row = {
        "id": event_id, "calendar_id": cal["id"], "i_cal_uid": f"{event_id}@google.com", "status": "confirmed",
        "summary": "", "description": "", "location": "", "color_id": None, "creator_email": me,
        "organizer_email": cal["id"], "recurrence": [], "recurring_event_id": None, "original_start_time": None,
        "transparency": "opaque", "visibility": "default", "attendees": [], "guests_can_modify": False,
        "guests_can_invite_others": True, "guests_can_see_other_guests": True,
        "reminders": {"useDefault": True, "overrides": []}, "conference_data": None, "event_type": "default",
        "sequence": 0, "created": now, "updated": now, **values,
    }
    _check_series(row)
    row["attendees"] = _answer_rooms(db, row)
    return db.insert(events, **row)


def _materialize(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """A stored row for an event; a virtual instance becomes an exception of its series."""
    if db.find(events, id=row["id"]):
        return row
    return db.insert(events, **{**row, "created": db.now_iso(), "updated": db.now_iso()})


# ---------------------------------------------------------------- user-only

@tool(user_only=True)
def grant_access(db: Database, email: str, scope: Literal["calendar", "calendar.readonly"] = "calendar") -> str:
    """(User only, on Google's consent screen) The user signs in with their Google account and lets the app see,
    or see and edit, their calendars.

    Args:
        email: The user's Google Workspace email.
        scope: "calendar" (see and edit) or "calendar.readonly" (see only).
    """
    found = db.find(people, email=email.strip().lower())
    if not found:
        raise NotFound("Couldn't find your Google Account.")
    db.conn.execute(oauth_grants.delete())
    db.insert(oauth_grants, id="current", email=found[0]["email"], scope=scope, granted_at=db.now_iso())
    return f"{found[0]['email']} granted https://www.googleapis.com/auth/{scope}"


@tool(user_only=True)
def respond_on_phone(db: Database, summary: str, date: str, response: Literal["accepted", "declined", "tentative"]
                     ) -> str:
    """(User only, in the Calendar app on their phone) The user answers Yes, No or Maybe to an invitation on their
    primary calendar; for a recurring invitation the answer applies to the whole series.

    Args:
        summary: The invitation's title as the user sees it.
        date: The day it takes place (YYYY-MM-DD, the user's time zone).
        response: accepted, declined or tentative.
    """
    me = _me(db)
    cal = _calendar(db, "primary", me)
    zone = ZoneInfo(cal["time_zone"])
    day = datetime.combine(_day(date), time(), zone)
    for row in _series_rows(db, _rows_on(db, cal), day, day + timedelta(days=1)):
        if row["summary"].casefold() == summary.strip().casefold() and not _organizes(cal, row):
            stored = db.get(events, row["recurring_event_id"] or row["id"], "Event") \
                if not db.find(events, id=row["id"]) else row
            guests = [{**a, "responseStatus": response} if a["email"] == me else a for a in stored["attendees"]]
            db.update(events, stored["id"], attendees=guests, updated=db.now_iso())
            return f"{response}: {row['summary']}"
    raise NotFound(f"No invitation called {summary!r} on {date}.")


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidRequest(f"Invalid date {text!r}: use YYYY-MM-DD.") from None


# ---------------------------------------------------------------- reads

@tool(read_only=True)
def calendarList_list(
    db: Database, minAccessRole: Role | None = None, showHidden: bool = False
) -> list[CalendarListEntry]:
    """List the calendars on the user's calendar list (their own, shared with them, rooms and holidays they
    subscribed to) with the user's access role on each.

    Args:
        minAccessRole: Only calendars where the user has at least this role.
        showHidden: Include calendars hidden from the list.
    """
    me = _me(db)
    out = []
    for entry in db.find(calendar_list, email=me):
        cal = db.get(calendars, entry["calendar_id"], "Calendar")
        role = _role(db, cal["id"], me)
        if role == "none" or (entry["hidden"] and not showHidden):
            continue
        if minAccessRole and ROLE_RANK[role] < ROLE_RANK[minAccessRole]:
            continue
        out.append(CalendarListEntry(
            id=cal["id"], summary=cal["summary"], summaryOverride=entry["summary_override"],
            description=cal["description"], timeZone=cal["time_zone"], accessRole=role, primary=cal["id"] == me,
            colorId=entry["color_id"], hidden=entry["hidden"], selected=entry["selected"]))
    out.sort(key=lambda e: (not e.primary, e.summaryOverride or e.summary))
    return out


@tool(read_only=True)
def events_list(
    db: Database,
    calendarId: str,
    timeMin: Timestamp | None = None,
    timeMax: Timestamp | None = None,
    q: str | None = None,
    singleEvents: bool = False,
    orderBy: Literal["startTime", "updated"] | None = None,
    showDeleted: bool = False,
    maxResults: int = 250,
    pageToken: str | None = None,
) -> Page[EventObject]:
    """List the events on a calendar: events it organizes and invitations it received. Recurring events come as
    one series unless singleEvents expands them into instances.

    Args:
        calendarId: A calendar ID from calendarList_list, or "primary".
        timeMin: Only events ending after this RFC3339 time (with offset), e.g. 2025-03-03T00:00:00-05:00.
        timeMax: Only events starting before this RFC3339 time (with offset).
        q: Free text matched against title, description, location and guests.
        singleEvents: Expand recurring series into their instances.
        orderBy: "startTime" (needs singleEvents) or "updated"; by default events come by start time.
        showDeleted: Include cancelled events.
        maxResults: Events per page, 1 to 2500.
        pageToken: The next_cursor of the previous page.
    """
    me = _me(db)
    cal = _calendar(db, calendarId, me, need="reader")
    if orderBy == "startTime" and not singleEvents:
        raise InvalidRequest("The requested ordering is not available for the particular query: orderBy=startTime "
                             "needs singleEvents=true.")
    lo = _rfc3339(timeMin, "timeMin") if timeMin else datetime(1970, 1, 1, tzinfo=UTC)
    hi = _rfc3339(timeMax, "timeMax") if timeMax else db.now() + SERIES_HORIZON
    if hi <= lo:
        raise InvalidRequest("timeRangeEmpty: The specified time range is empty.")
    rows = _rows_on(db, cal)
    if singleEvents:
        found = _series_rows(db, rows, lo, hi)
    else:
        found = []
        for row in rows:
            if row["recurrence"]:
                if not (timeMin or timeMax) or _expand(db, row, lo, hi):
                    found.append(row)
            elif _overlaps(_span(row), lo, hi):
                found.append(row)
    if not showDeleted:
        found = [r for r in found if r["status"] != "cancelled"]
    names = _names(db)
    if q:
        needle = q.casefold()
        found = [r for r in found if needle in " ".join(
            [r["summary"], r["description"], r["location"], r["organizer_email"]] +
            [a["email"] for a in r["attendees"]] + [names.get(a["email"], "") for a in r["attendees"]]).casefold()]
    if orderBy == "updated":
        found.sort(key=lambda r: (r["updated"], r["id"]))
    else:
        found.sort(key=lambda r: (_span(r)[0], r["id"]))
    page = paginate(found, maxResults, pageToken, max_page_size=2500)
    return Page[EventObject](results=[_event_object(db, r, cal, names) for r in page.results],
                             next_cursor=page.next_cursor, has_more=page.has_more)


@tool(read_only=True)
def events_get(db: Database, calendarId: str, eventId: str) -> EventObject:
    """Get one event, series or instance of a series (instance IDs look like "<seriesId>_20250310T150000Z").

    Args:
        calendarId: The calendar the event is on, or "primary".
        eventId: The event's ID.
    """
    me = _me(db)
    cal = _calendar(db, calendarId, me, need="reader")
    return _event_object(db, _find_event(db, cal, eventId), cal)


@tool(read_only=True)
def events_instances(
    db: Database,
    calendarId: str,
    eventId: str,
    timeMin: Timestamp | None = None,
    timeMax: Timestamp | None = None,
    showDeleted: bool = False,
    maxResults: int = 250,
    pageToken: str | None = None,
) -> Page[EventObject]:
    """List the instances of a recurring event, in order, with their own IDs (for changing one instance).

    Args:
        calendarId: The calendar the series is on, or "primary".
        eventId: The recurring event's (series) ID.
        timeMin: Only instances ending after this RFC3339 time (with offset).
        timeMax: Only instances starting before this RFC3339 time (with offset).
        showDeleted: Include cancelled instances.
        maxResults: Instances per page, 1 to 2500.
        pageToken: The next_cursor of the previous page.
    """
    me = _me(db)
    cal = _calendar(db, calendarId, me, need="reader")
    series = _find_event(db, cal, eventId)
    if not series["recurrence"]:
        raise InvalidRequest(f"Event {eventId} is not a recurring event.")
    lo = _rfc3339(timeMin, "timeMin") if timeMin else _span(series)[0]
    hi = _rfc3339(timeMax, "timeMax") if timeMax else _span(series)[0] + SERIES_HORIZON
    found = [r for r in _expand(db, series, lo, hi) if showDeleted or r["status"] != "cancelled"]
    found.sort(key=lambda r: _span(r)[0])
    page = paginate(found, maxResults, pageToken, max_page_size=2500)
    names = _names(db)
    return Page[EventObject](results=[_event_object(db, r, cal, names) for r in page.results],
                             next_cursor=page.next_cursor, has_more=page.has_more)


@tool(read_only=True)
def freebusy_query(
    db: Database, timeMin: Timestamp, timeMax: Timestamp, items: list[str], timeZone: str = "UTC"
) -> FreeBusyResponse:
    """Busy intervals of calendars (people's primary calendars are their email, rooms their resource email),
    merged, between timeMin and timeMax. Calendars shared only as free/busy can be queried too.

    Args:
        timeMin: Start of the range, RFC3339 with offset.
        timeMax: End of the range, RFC3339 with offset (at most 62 days after timeMin).
        items: Calendar IDs or emails to check, at most 50 ("primary" is the user's own).
        timeZone: Time zone of the returned intervals.
    """
    me = _me(db)
    lo, hi = _rfc3339(timeMin, "timeMin"), _rfc3339(timeMax, "timeMax")
    zone = _zone(timeZone)
    if hi <= lo:
        raise InvalidRequest("timeRangeEmpty: The specified time range is empty.")
    if hi - lo > timedelta(days=MAX_FREEBUSY_DAYS):
        raise InvalidRequest(f"timeRangeTooLong: The requested time range is longer than {MAX_FREEBUSY_DAYS} days.")
    if not items or len(items) > MAX_FREEBUSY_ITEMS:
        raise InvalidRequest(f"tooManyCalendarsRequested: Give 1 to {MAX_FREEBUSY_ITEMS} calendars.")
    result: dict[str, FreeBusyCalendar] = {}
    for item in items:
        try:
            cal = _calendar(db, item, me)
        except NotFound:
            result[item] = FreeBusyCalendar(errors=[FreeBusyError(reason="notFound")])
            continue
        spans = sorted((max(s, lo), min(e, hi)) for s, e in (_span(r) for r in _busy_rows(db, cal, lo, hi)))
        merged: list[list[datetime]] = []
        for start, end in spans:
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        result[item] = FreeBusyCalendar(busy=[TimePeriod(start=s.astimezone(zone).isoformat(),
                                                         end=e.astimezone(zone).isoformat()) for s, e in merged])
    return FreeBusyResponse(timeMin=lo.astimezone(zone).isoformat(), timeMax=hi.astimezone(zone).isoformat(),
                            calendars=result)


@tool(read_only=True)
def acl_list(db: Database, calendarId: str) -> list[AclRule]:
    """List who a calendar is shared with and how (owners only).

    Args:
        calendarId: The calendar, or "primary".
    """
    cal = _calendar(db, calendarId, _me(db), need="owner")
    return [AclRule(id=r["id"], role=r["role"], scope=AclScope(type=r["scope_type"], value=r["scope_value"]))
            for r in db.find(acl_rules, calendar_id=cal["id"])]


@tool(read_only=True)
def colors_get(db: Database) -> Colors:
    """The colour palettes: which colorId is which colour for events (1-11) and calendars (1-24)."""
    _me(db)
    return Colors(
        event={k: ColorDefinition(background=bg, foreground="#1d1d1d", name=n) for k, (bg, n) in EVENT_COLORS.items()},
        calendar={k: ColorDefinition(background=bg, foreground="#1d1d1d", name=n)
                  for k, (bg, n) in CALENDAR_COLORS.items()},
    )


@tool(read_only=True)
def directory_search(db: Database, query: str, maxResults: int = 25) -> list[DirectoryEntry]:
    """Search the Workspace directory for people (name, email, title, team) and bookable rooms (name, building),
    to find the emails to invite or check free/busy for.

    Args:
        query: Text to look for, e.g. "Noor" or "Harbor" or "design".
        maxResults: At most this many entries, 1 to 100.
    """
    _me(db)
    if not 1 <= maxResults <= 100:
        raise InvalidRequest("maxResults must be between 1 and 100.")
    needle = query.casefold().strip()
    found = [DirectoryEntry(type="person", email=p["email"], displayName=p["display_name"], title=p["title"],
                            department=p["department"], location=p["location"], timeZone=p["time_zone"])
             for p in db.find(people, order_by=[people.c.display_name])
             if needle in " ".join([p["display_name"], p["email"], p["title"], p["department"]]).casefold()]
    found += [DirectoryEntry(type="room", email=r["email"], displayName=r["name"],
                             location=f"{r['building']}, floor {r['floor']}", capacity=r["capacity"],
                             features=r["features"])
              for r in db.find(rooms, order_by=[rooms.c.name])
              if needle in " ".join([r["name"], r["building"], *r["features"]]).casefold()]
    return found[:maxResults]


# ---------------------------------------------------------------- calendars and sharing

@tool()
def calendars_insert(db: Database, summary: str, description: str = "", timeZone: str | None = None
                     ) -> CalendarObject:
    """Create a secondary calendar owned by the user; it is added to their calendar list.

    Args:
        summary: The calendar's title.
        description: What the calendar is for.
        timeZone: IANA time zone; defaults to the user's.
    """
    me = _writer(db)
    if not summary.strip():
        raise InvalidRequest("Missing title: a calendar needs a summary.")
    zone = timeZone or db.get(people, me, "Person")["time_zone"]
    _zone(zone)
    cid = f"c_{db.new_uuid(calendars).replace('-', '')[:26]}@group.calendar.google.com"
    row = db.insert(calendars, id=cid, summary=summary.strip(), description=description, location="",
                    time_zone=zone, kind="secondary")
    db.insert(acl_rules, calendar_id=cid, id=f"user:{me}", role="owner", scope_type="user", scope_value=me)
    db.insert(calendar_list, email=me, calendar_id=cid, summary_override=None, color_id="14", hidden=False,
              selected=True)
    return CalendarObject(id=row["id"], summary=row["summary"], description=row["description"],
                          location=row["location"], timeZone=row["time_zone"])


@tool()
def acl_insert(db: Database, calendarId: str, role: Role, scope: AclScope) -> AclRule:
    """Share a calendar (owners only), or change how it is shared with someone: a person or group by email, the
    whole domain, or the public ("default"). A person gets the calendar on their calendar list.

    Args:
        calendarId: The calendar, or "primary".
        role: freeBusyReader (see only free/busy), reader (see event details), writer (make changes) or owner
            (also manage sharing).
        scope: Who the rule is for, e.g. {"type": "user", "value": "noor.haddad@kestrelrobotics.com"}.
    """
    me = _writer(db)
    cal = _calendar(db, calendarId, me, need="owner")
    if scope.type == "default":
        if scope.value:
            raise InvalidRequest("A default (public) scope takes no value.")
        rule_id, value = "default", None
    else:
        value = (scope.value or "").strip().lower()
        valid = EMAIL.match(value) if scope.type in ("user", "group") else re.match(r"^[a-z0-9.-]+\.[a-z]+$", value)
        if not valid:
            raise InvalidRequest(f"Invalid scope value {scope.value!r} for a {scope.type} rule.")
        rule_id = f"{scope.type}:{value}"
    if scope.type == "user" and value == me:
        raise PermissionDenied("cannotChangeOwnAcl: You cannot change your own access level.")
    if scope.type == "default" and role in ("writer", "owner"):
        raise InvalidRequest("The public can only get free/busy or reader access.")
    existing = db.find(acl_rules, calendar_id=cal["id"], id=rule_id)
    if existing:
        db.conn.execute(acl_rules.update().where(acl_rules.c.calendar_id == cal["id"], acl_rules.c.id == rule_id)
                        .values(role=role))
    else:
        db.insert(acl_rules, calendar_id=cal["id"], id=rule_id, role=role, scope_type=scope.type, scope_value=value)
    if scope.type == "user" and db.find(people, email=value) and not db.find(calendar_list, email=value,
                                                                             calendar_id=cal["id"]):
        db.insert(calendar_list, email=value, calendar_id=cal["id"], summary_override=None, color_id="1",
                  hidden=False, selected=True)
    return AclRule(id=rule_id, role=role, scope=AclScope(type=scope.type, value=value))


@tool()
def acl_delete(db: Database, calendarId: str, ruleId: str) -> AclRule:
    """Stop sharing a calendar with someone (owners only); a person loses it from their calendar list.

    Args:
        calendarId: The calendar, or "primary".
        ruleId: The rule's ID from acl_list, e.g. "user:noor.haddad@kestrelrobotics.com".
    """
    me = _writer(db)
    cal = _calendar(db, calendarId, me, need="owner")
    found = db.find(acl_rules, calendar_id=cal["id"], id=ruleId)
    if not found:
        raise NotFound(f"notFound: No sharing rule {ruleId} on this calendar.")
    rule = found[0]
    if rule["scope_type"] == "user" and rule["scope_value"] == me:
        raise PermissionDenied("cannotChangeOwnAcl: You cannot remove your own access.")
    db.conn.execute(acl_rules.delete().where(acl_rules.c.calendar_id == cal["id"], acl_rules.c.id == ruleId))
    if rule["scope_type"] == "user" and _role(db, cal["id"], rule["scope_value"]) == "none":
        db.conn.execute(calendar_list.delete().where(calendar_list.c.email == rule["scope_value"],
                                                     calendar_list.c.calendar_id == cal["id"]))
    return AclRule(id=rule["id"], role=rule["role"], scope=AclScope(type=rule["scope_type"], value=rule["scope_value"]))


# ---------------------------------------------------------------- events

@tool()
def events_insert(
    db: Database,
    calendarId: str,
    start: EventDateTime,
    end: EventDateTime,
    summary: str = "",
    description: str = "",
    location: str = "",
    attendees: list[AttendeeInput] | None = None,
    recurrence: list[str] | None = None,
    reminders: Reminders | None = None,
    colorId: str | None = None,
    transparency: Literal["opaque", "transparent"] = "opaque",
    visibility: Literal["default", "public", "private", "confidential"] = "default",
    guestsCanModify: bool = False,
    eventType: Literal["default", "outOfOffice", "focusTime"] = "default",
    status: Literal["confirmed", "tentative"] = "confirmed",
    addGoogleMeet: bool = False,
) -> EventObject:
    """Create an event on a calendar the user can write to; the calendar becomes its organizer. Guests are
    invited (rooms accept if they are free, else decline). Double-booking is allowed: check freebusy_query first.

    Args:
        calendarId: The calendar, or "primary".
        start: Start time (dateTime, or date for an all-day event).
        end: End time, after the start (for all-day events the day after the last day).
        summary: Title.
        description: Notes.
        location: Where it happens.
        attendees: Guests (people or rooms) by email.
        recurrence: RRULE/EXDATE lines, e.g. ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6"]; needs start.timeZone.
        reminders: Reminders; by default the calendar's.
        colorId: Event colour "1" to "11" (see colors_get).
        transparency: "opaque" shows the time as busy, "transparent" as free.
        visibility: Who sees the details: default, public, private or confidential.
        guestsCanModify: Let guests change the event.
        eventType: default, outOfOffice or focusTime (the last two only on a primary calendar, without guests).
        status: "confirmed", or "tentative" while it is not certain yet (cancel with events_delete).
        addGoogleMeet: Attach a new Google Meet link (the API's conferenceData.createRequest).
    """
    me = _writer(db)
    cal = _calendar(db, calendarId, me, need="writer")
    values = _time_columns(_when(start, cal["time_zone"], "start"), _when(end, cal["time_zone"], "end"))
    if recurrence and values["start_date_time"] and not start.timeZone:
        raise InvalidRequest("Missing time zone definition for start time: recurring events need start.timeZone.")
    if eventType != "default" and (cal["kind"] != "primary" or attendees):
        raise InvalidRequest(f"eventTypeRestriction: {eventType} events can only be created on a primary calendar "
                             "and can't have guests.")
    row = {**values, "summary": summary, "description": description, "location": location,
           "recurrence": rrule.normalize(recurrence or []), "reminders": _reminders(reminders),
           "color_id": _color(colorId),
           "transparency": transparency, "visibility": visibility, "guests_can_modify": guestsCanModify,
           "event_type": eventType, "status": status, "conference_data": _meet(db) if addGoogleMeet else None}
    draft = {"attendees": [], "organizer_email": cal["id"]}
    row["attendees"] = _attendees(db, draft, attendees or [], organizer_copy=True)
    return _event_object(db, _new_event(db, cal, me, row), cal)


@tool()
def events_quickAdd(db: Database, calendarId: str, text: str) -> EventObject:
    """Create an event from a short sentence, like the Calendar app's quick add. Understood: a day ("today",
    "tomorrow", a weekday, "Mar 14", "14 March", "2025-03-14"), a time or range ("3pm", "3:30pm-5pm", "15:00",
    "noon"), and "at <place>" after the time. Without a time it is an all-day event; without an end it lasts an
    hour. Times are in the calendar's time zone.

    Args:
        calendarId: The calendar, or "primary".
        text: E.g. "Dentist Friday 3:30pm at Back Bay Dental".
    """
    me = _writer(db)
    cal = _calendar(db, calendarId, me, need="writer")
    zone = ZoneInfo(cal["time_zone"])
    summary, day, span, place = _parse_quick(text, db.now().astimezone(zone).date())
    if span is None:
        values = _time_columns(("date", day, cal["time_zone"]), ("date", day + timedelta(days=1), cal["time_zone"]))
    else:
        begins = datetime.combine(day, span[0], zone)
        ends = datetime.combine(day, span[1], zone) if span[1] else begins + timedelta(hours=1)
        values = _time_columns(("dateTime", begins, cal["time_zone"]), ("dateTime", ends, cal["time_zone"]))
    row = _new_event(db, cal, me, {**values, "summary": summary, "location": place})
    return _event_object(db, row, cal)


_TIME = r"(noon|midnight|\d{1,2}(?::\d{2})?\s*(?:am|pm)?)"


def _parse_quick(text: str, today: date) -> tuple[str, date, tuple[time, time | None] | None, str]:
    """(summary, day, (start, end) or None, location) of a quick-add sentence."""
    rest = " " + text.strip() + " "
    place = ""
    located = re.search(r"\s+at\s+([A-Za-z][^,]*?)\s*$", rest)
    if located and not re.fullmatch(_TIME, located.group(1).strip(), re.I):
        place, rest = located.group(1).strip(), rest[:located.start()] + " "
    span = None
    timed = next((m for m in re.finditer(rf"\s(?:at\s+|from\s+)?{_TIME}(?:\s*(?:-|to|until)\s*{_TIME})?(?=\s)",
                                         rest, re.I) if _is_clock(m.group(1)) or _is_clock(m.group(2) or "")), None)
    if timed:
        end_text = timed.group(2)
        start_text = timed.group(1)
        if end_text and not re.search(r"am|pm", start_text, re.I) and re.search(r"am|pm", end_text, re.I):
            start_text += end_text.strip()[-2:]
        span = (_clock(start_text), _clock(end_text) if end_text else None)
        rest = rest[:timed.start()] + " " + rest[timed.end():]
    day, rest = _quick_day(rest, today)
    summary = re.sub(r"\s+", " ", re.sub(r"\s(on|at|from)\s*$", " ", rest)).strip(" ,-")
    if not summary:
        raise InvalidRequest("Quick add needs a title, e.g. 'Lunch with Ana tomorrow at noon'.")
    if span and span[1] is not None and span[1] <= span[0]:
        raise InvalidRequest("timeRangeEmpty: The specified time range is empty.")
    return summary, day, span, place


def _is_clock(text: str) -> bool:
    """Whether a matched number is a time of day (has minutes, am/pm, or is noon/midnight), not a day of month."""
    return bool(re.search(r":|am|pm|noon|midnight", text, re.I))


def _clock(text: str) -> time:
    value = text.strip().lower().replace(" ", "")
    if value in ("noon", "midnight"):
        return time(12) if value == "noon" else time(0)
    match = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?(am|pm)?", value)
    if not match:
        raise InvalidRequest(f"Quick add could not read the time {text!r}.")
    hour, minute, half = int(match.group(1)), int(match.group(2) or 0), match.group(3)
    if half:
        if not 1 <= hour <= 12:
            raise InvalidRequest(f"Quick add could not read the time {text!r}.")
        hour = hour % 12 + (12 if half == "pm" else 0)
    if hour > 23 or minute > 59:
        raise InvalidRequest(f"Quick add could not read the time {text!r}.")
    return time(hour, minute)


def _quick_day(rest: str, today: date) -> tuple[date, str]:
    """The day named in a quick-add sentence (default today) and the sentence without it."""
    patterns: list[tuple[str, Any]] = [
        (r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: date(int(m[1]), int(m[2]), int(m[3]))),
        (r"\btoday\b", lambda m: today),
        (r"\btomorrow\b", lambda m: today + timedelta(days=1)),
        (r"\b(?:on\s+)?(?:next\s+)?(" + "|".join(WEEKDAY_NAMES) + r")\b",
         lambda m: today + timedelta(days=(WEEKDAY_NAMES.index(m[1].lower()) - today.weekday() - 1) % 7 + 1)),
        (r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b",
         lambda m: _next_date(today, MONTHS[m[1].lower()], int(m[2]))),
        (r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
         lambda m: _next_date(today, MONTHS[m[2].lower()], int(m[1]))),
    ]
    for pattern, make in patterns:
        match = re.search(pattern, rest, re.I)
        if match:
            try:
                day = make(match)
            except ValueError:
                raise InvalidRequest(f"Quick add could not read the date in {match.group(0)!r}.") from None
            return day, rest[:match.start()] + " " + rest[match.end():]
    return today, rest


def _next_date(today: date, month: int, day: int) -> date:
    candidate = date(today.year, month, day)
    return candidate if candidate >= today else date(today.year + 1, month, day)


@tool()
def events_patch(
    db: Database,
    calendarId: str,
    eventId: str,
    summary: str | None = None,
    description: str | None = None,
    location: str | None = None,
    start: EventDateTime | None = None,
    end: EventDateTime | None = None,
    attendees: list[AttendeeInput] | None = None,
    recurrence: list[str] | None = None,
    reminders: Reminders | None = None,
    colorId: str | None = None,
    transparency: Literal["opaque", "transparent"] | None = None,
    visibility: Literal["default", "public", "private", "confidential"] | None = None,
    guestsCanModify: bool | None = None,
    status: Literal["confirmed", "tentative"] | None = None,
    addGoogleMeet: bool = False,
) -> EventObject:
    """Change an event; fields left out stay as they are. Pass an instance ID (from events_instances or
    singleEvents listing) to change only that occurrence of a series, the series ID to change them all. Only
    the organizer's calendar may change the time, guests or details (unless guestsCanModify); on a guest's
    calendar, send just that guest's own attendee entry with a responseStatus to answer the invitation.

    Args:
        calendarId: The calendar the event is on, or "primary".
        eventId: The event, series or instance ID.
        summary: New title.
        description: New notes.
        location: New location.
        start: New start time.
        end: New end time.
        attendees: The full new guest list (organizer's copy), or the guest's own entry with a responseStatus.
        recurrence: New RRULE/EXDATE lines of a series (e.g. add UNTIL to end it).
        reminders: New reminders.
        colorId: New colour "1" to "11".
        transparency: "opaque" (busy) or "transparent" (free).
        visibility: default, public, private or confidential.
        guestsCanModify: Let guests change the event.
        status: "confirmed" or "tentative" (cancel with events_delete).
        addGoogleMeet: Attach a Google Meet link if the event has none.
    """
    me = _writer(db)
    cal = _calendar(db, calendarId, me, need="writer")
    row = _find_event(db, cal, eventId)
    if row["status"] == "cancelled":
        raise Conflict("deleted: This event has been cancelled.")
    details = [summary, description, location, start, end, recurrence, reminders, colorId, transparency, visibility,
               guestsCanModify, status]
    if not _organizes(cal, row) and not row["guests_can_modify"]:
        if any(v is not None for v in details) or addGoogleMeet or attendees is None:
            raise PermissionDenied("forbiddenForNonOrganizer: Only the organizer can change this event; as a guest "
                                   "you can only answer the invitation.")
        return _event_object(db, _rsvp(db, cal, row, attendees), cal)
    if recurrence is not None and row["recurring_event_id"]:
        raise InvalidRequest("A single instance can't have its own recurrence; patch the series instead.")
    if not any(v is not None for v in details) and attendees is None and not addGoogleMeet:
        raise InvalidRequest("Nothing to change: give at least one field.")
    changes: dict[str, Any] = {}
    for column, value in (("summary", summary), ("description", description), ("location", location),
                          ("transparency", transparency), ("visibility", visibility),
                          ("guests_can_modify", guestsCanModify), ("status", status)):
        if value is not None:
            changes[column] = value
    if colorId is not None:
        changes["color_id"] = _color(colorId)
    if reminders is not None:
        changes["reminders"] = _reminders(reminders)
    if recurrence is not None:
        changes["recurrence"] = rrule.normalize(recurrence)
    retimed = start is not None or end is not None
    if retimed:
        old_start, old_end = _event_time(row, "start"), _event_time(row, "end")
        changes.update(_time_columns(_when(start or old_start, row["time_zone"], "start"),
                                     _when(end or old_end, row["time_zone"], "end")))
    if attendees is not None:
        changes["attendees"] = _attendees(db, row, attendees, organizer_copy=_organizes(cal, row))
    if addGoogleMeet and not row["conference_data"]:
        changes["conference_data"] = _meet(db)
    bump = retimed or attendees is not None or recurrence is not None
    stored = _materialize(db, row)
    updated = {**stored, **changes}
    _check_series(updated)
    if bump:
        changes["attendees"] = _answer_rooms(db, updated)
    row = db.update(events, stored["id"], **changes, sequence=stored["sequence"] + (1 if bump else 0),
                    updated=db.now_iso())
    return _event_object(db, row, cal)


def _rsvp(db: Database, cal: dict[str, Any], row: dict[str, Any], attendees: list[AttendeeInput]) -> dict[str, Any]:
    """A guest's answer to an invitation, given as their own attendee entry."""
    others = [a for a in attendees if a.email.strip().lower() != cal["id"]]
    current = {a["email"]: a for a in row["attendees"]}
    if cal["id"] not in current:
        raise NotFound(f"notFound: {cal['id']} is not a guest of this event.")
    for guest in others:
        known = current.get(guest.email.strip().lower())
        if known is None or guest.optional != known.get("optional", False):
            raise PermissionDenied("forbiddenForNonOrganizer: The attendees of a meeting can only be modified by "
                                   "the organizer.")
    mine = next((a for a in attendees if a.email.strip().lower() == cal["id"]), None)
    if mine is None or mine.responseStatus is None:
        raise InvalidRequest("To answer, send your own attendee entry with a responseStatus.")
    stored = _materialize(db, row)
    guests = [{**a, "responseStatus": mine.responseStatus, **({"comment": mine.comment} if mine.comment else {})}
              if a["email"] == cal["id"] else a for a in stored["attendees"]]
    return db.update(events, stored["id"], attendees=guests, updated=db.now_iso())


@tool()
def events_delete(db: Database, calendarId: str, eventId: str) -> EventObject:
    """Delete an event. On the organizer's calendar it is cancelled for everyone (a series ID cancels the whole
    series, an instance ID only that occurrence); on a guest's calendar it declines the invitation.

    Args:
        calendarId: The calendar the event is on, or "primary".
        eventId: The event, series or instance ID.
    """
    me = _writer(db)
    cal = _calendar(db, calendarId, me, need="writer")
    row = _find_event(db, cal, eventId)
    if row["status"] == "cancelled":
        raise Conflict("deleted: Resource has been deleted.")
    if not _organizes(cal, row):
        answer = [AttendeeInput(email=cal["id"], responseStatus="declined")]
        return _event_object(db, _rsvp(db, cal, row, answer), cal)
    stored = _materialize(db, row)
    for exception in db.find(events, recurring_event_id=stored["id"]):
        db.update(events, exception["id"], status="cancelled", updated=db.now_iso())
    row = db.update(events, stored["id"], status="cancelled", sequence=stored["sequence"] + 1, updated=db.now_iso())
    return _event_object(db, row, cal)


@tool()
def events_move(db: Database, calendarId: str, eventId: str, destination: str) -> EventObject:
    """Move an event to another calendar, which becomes its organizer. Only the organizer's copy of a whole
    event can move (not a single instance, and not out-of-office or focus-time events); the user needs write
    access to both calendars.

    Args:
        calendarId: The calendar the event is on now, or "primary".
        eventId: The event's ID.
        destination: The calendar to move it to, or "primary".
    """
    me = _writer(db)
    cal = _calendar(db, calendarId, me, need="writer")
    target = _calendar(db, destination, me, need="writer")
    row = _find_event(db, cal, eventId)
    if not _organizes(cal, row):
        raise PermissionDenied("forbiddenForNonOrganizer: Only the organizer's copy of an event can be moved.")
    if row["recurring_event_id"]:
        raise InvalidRequest("cannotChangeOrganizerOfInstance: A single instance of a recurring event can't be "
                             "moved; move the series.")
    if row["event_type"] != "default":
        raise InvalidRequest(f"eventTypeRestriction: {row['event_type']} events can't be moved.")
    if target["id"] == cal["id"]:
        raise InvalidRequest("The event is already on that calendar.")
    for item in [row, *db.find(events, recurring_event_id=row["id"])]:
        guests = [a for a in item["attendees"] if not a.get("organizer")]
        if guests and target["kind"] == "primary":
            guests.insert(0, {"email": target["id"], "organizer": True, "responseStatus": "accepted"})
        db.update(events, item["id"], calendar_id=target["id"], organizer_email=target["id"], attendees=guests,
                  sequence=item["sequence"] + 1, updated=db.now_iso())
    return _event_object(db, db.get(events, row["id"], "Event"), target)
