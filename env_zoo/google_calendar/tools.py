"""Google Calendar API v3 methods for the account that granted the app access: the calendar list, calendars,
events (with recurring series and single-instance exceptions), quick add, moves, free/busy, sharing (ACL),
colours, and the Workspace directory."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import Field

from envfactory_gym import Database, InvalidRequest, NotFound, Page, PermissionDenied, Unordered, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import IsoDate, NonEmptyText, PageSize, page_size
from envfactory_gym.values import parse_date, parse_timestamp

from . import quickadd, rules
from .access import at_least, calendar, me, roles, sees_details, writer
from .agenda import find_event, listing, matching, organizes, single_events
from .objects import (
    AclRule,
    AttendeeInput,
    CalendarColorId,
    CalendarListEntry,
    CalendarObject,
    Colors,
    DirectoryEntry,
    Email,
    EventColorId,
    EventDateTime,
    EventObject,
    FreeBusyCalendar,
    FreeBusyError,
    FreeBusyResponse,
    Reminders,
    Rfc3339,
    Role,
    ScopeInput,
    TimePeriod,
    Title,
    acl_rule,
    calendar_object,
    display_names,
    emails_of,
    event_object,
    event_time,
    list_entry,
    palettes,
)
from .recurrence import normalize as normalize_recurrence
from .schema import acl_rules, calendar_list, calendars, oauth_grants, people, rooms
from .times import UTC, first_day, span, time_columns, when, zone

MAX_FREEBUSY_ITEMS = 50
CalendarIds = Annotated[list[str], Field(min_length=1, max_length=MAX_FREEBUSY_ITEMS), Unordered]
Guests = Annotated[list[AttendeeInput], Unordered]
EventsPageSize = page_size(2500)
RuleId = Annotated[str, Field(pattern=r"^(default|(user|group|domain):\S+)$")]
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
RFC3339_EXAMPLE = "2025-03-04T09:00:00-05:00"
EventPage = Page[EventObject]


def _events_page(
    db: Database, rows: list[dict[str, Any]], cal: dict[str, Any], max_results: int, page_token: str | None
) -> EventPage:
    page = paginate(rows, max_results, page_token, max_page_size=2500)
    names = display_names(db, emails_of(page.results))
    return EventPage(
        results=[event_object(r, cal, names, not sees_details(cal, r)) for r in page.results],
        next_cursor=page.next_cursor,
        has_more=page.has_more,
    )


def _event(db: Database, row: dict[str, Any], cal: dict[str, Any]) -> EventObject:
    return event_object(row, cal, display_names(db, emails_of([row])), not sees_details(cal, row))


def _range(time_min: str | None, time_max: str | None, lo: datetime, hi: datetime) -> tuple[datetime, datetime]:
    """[timeMin, timeMax) as instants, each defaulting to the given bound; the range must not be empty."""
    if time_min is not None:
        lo = parse_timestamp(time_min, "timeMin", RFC3339_EXAMPLE)
    if time_max is not None:
        hi = parse_timestamp(time_max, "timeMax", RFC3339_EXAMPLE)
    if hi <= lo:
        raise InvalidRequest("timeRangeEmpty: The specified time range is empty.")
    return lo, hi


# ---------------------------------------------------------------- user-only


@tool(user_only=True)
def grant_access(db: Database, email: Email, scope: Literal["calendar", "calendar.readonly"] = "calendar") -> str:
    """(User only, on Google's consent screen) The user signs in with their Google account and lets the app see,
    or see and edit, their calendars.

    Args:
        email: The user's Google Workspace email.
        scope: "calendar" (see and edit) or "calendar.readonly" (see only).
    """
    found = db.find(people, email=email.strip().lower())
    if not found:
        raise NotFound("Couldn't find your Google Account.")
    db.start_session(oauth_grants, email=found[0]["email"], scope=scope)
    return f"{found[0]['email']} granted https://www.googleapis.com/auth/{scope}"


@tool(user_only=True)
def respond_on_phone(
    db: Database, summary: NonEmptyText, date: IsoDate, response: Literal["accepted", "declined", "tentative"]
) -> str:
    """(User only, in the Calendar app on their phone) The user answers Yes, No or Maybe to an invitation on their
    primary calendar; for a recurring invitation the answer applies to the whole series.

    Args:
        summary: The invitation's title as the user sees it.
        date: The day it takes place (YYYY-MM-DD, the user's time zone).
        response: accepted, declined or tentative.
    """
    account = me(db)
    cal = calendar(db, "primary", account)
    day = datetime.combine(parse_date(date, "date"), time(), ZoneInfo(cal["time_zone"]))
    return rules.answer_on_phone(db, cal, summary, day, response)


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
    account = me(db)
    entries = {
        e["calendar_id"]: e
        for e in db.find(calendar_list, email=account, **given(hidden=None if showHidden else False))
    }
    access = roles(db, list(entries), account)
    out = []
    for cal in (db.get(calendars, cid, "Calendar") for cid in entries):
        have = access[cal["id"]]
        if have == "none" or (minAccessRole and not at_least(have, minAccessRole)):
            continue
        out.append(list_entry(cal, entries[cal["id"]], have, cal["id"] == account))
    out.sort(key=lambda e: (not e.primary, e.summaryOverride or e.summary))
    return out


@tool(read_only=True)
def events_list(
    db: Database,
    calendarId: str,
    timeMin: Rfc3339 | None = None,
    timeMax: Rfc3339 | None = None,
    q: str | None = None,
    singleEvents: bool = False,
    orderBy: Literal["startTime", "updated"] | None = None,
    showDeleted: bool = False,
    maxResults: EventsPageSize = 250,
    pageToken: str | None = None,
) -> EventPage:
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
    cal = calendar(db, calendarId, me(db), need="reader")
    if orderBy == "startTime" and not singleEvents:
        raise InvalidRequest(
            "The requested ordering is not available for the particular query: orderBy=startTime "
            "needs singleEvents=true."
        )
    lo, hi = _range(timeMin, timeMax, EPOCH, db.now() + rules.SERIES_HORIZON)
    found = listing(db, cal, lo, hi, single=singleEvents, bounded=timeMin is not None or timeMax is not None)
    if not showDeleted:
        found = [r for r in found if r["status"] != "cancelled"]
    if q:
        found = matching(found, q, display_names(db, {a["email"] for r in found for a in r["attendees"]}))
    found.sort(key=(lambda r: (r["updated"], r["id"])) if orderBy == "updated" else (lambda r: (span(r)[0], r["id"])))
    return _events_page(db, found, cal, maxResults, pageToken)


@tool(read_only=True)
def events_get(db: Database, calendarId: str, eventId: str) -> EventObject:
    """Get one event, series or instance of a series (instance IDs look like "<seriesId>_20250310T150000Z").

    Args:
        calendarId: The calendar the event is on, or "primary".
        eventId: The event's ID.
    """
    cal = calendar(db, calendarId, me(db), need="reader")
    return _event(db, find_event(db, cal, eventId), cal)


@tool(read_only=True)
def events_instances(
    db: Database,
    calendarId: str,
    eventId: str,
    timeMin: Rfc3339 | None = None,
    timeMax: Rfc3339 | None = None,
    showDeleted: bool = False,
    maxResults: EventsPageSize = 250,
    pageToken: str | None = None,
) -> EventPage:
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
    cal = calendar(db, calendarId, me(db), need="reader")
    series = find_event(db, cal, eventId)
    if not series["recurrence"]:
        raise InvalidRequest(f"Event {eventId} is not a recurring event.")
    first = span(series)[0]
    lo, hi = _range(timeMin, timeMax, first, first + rules.SERIES_HORIZON)
    found = [r for r in single_events(db, [series], lo, hi) if showDeleted or r["status"] != "cancelled"]
    found.sort(key=lambda r: span(r)[0])
    return _events_page(db, found, cal, maxResults, pageToken)


@tool(read_only=True)
def freebusy_query(
    db: Database, timeMin: Rfc3339, timeMax: Rfc3339, items: CalendarIds, timeZone: str = "UTC"
) -> FreeBusyResponse:
    """Busy intervals of calendars (people's primary calendars are their email, rooms their resource email),
    merged, between timeMin and timeMax. Calendars shared only as free/busy can be queried too.

    Args:
        timeMin: Start of the range, RFC3339 with offset.
        timeMax: End of the range, RFC3339 with offset (at most 62 days after timeMin).
        items: Calendar IDs or emails to check, at most 50 ("primary" is the user's own).
        timeZone: Time zone of the returned intervals.
    """
    account = me(db)
    lo, hi = parse_timestamp(timeMin, "timeMin", RFC3339_EXAMPLE), parse_timestamp(timeMax, "timeMax", RFC3339_EXAMPLE)
    shown = zone(timeZone)
    rules.check_free_busy_range(lo, hi)
    result: dict[str, FreeBusyCalendar] = {}
    for item in items:
        try:
            cal = calendar(db, item, account)
        except NotFound:
            result[item] = FreeBusyCalendar(errors=[FreeBusyError(reason="notFound")])
            continue
        result[item] = FreeBusyCalendar(
            busy=[
                TimePeriod(start=s.astimezone(shown).isoformat(), end=e.astimezone(shown).isoformat())
                for s, e in rules.busy_periods(db, cal, lo, hi)
            ]
        )
    return FreeBusyResponse(
        timeMin=lo.astimezone(shown).isoformat(), timeMax=hi.astimezone(shown).isoformat(), calendars=result
    )


@tool(read_only=True)
def acl_list(db: Database, calendarId: str) -> list[AclRule]:
    """List who a calendar is shared with and how (owners only).

    Args:
        calendarId: The calendar, or "primary".
    """
    cal = calendar(db, calendarId, me(db), need="owner")
    return [acl_rule(r) for r in db.find(acl_rules, calendar_id=cal["id"])]


@tool(read_only=True)
def colors_get(db: Database) -> Colors:
    """The colour palettes: which colorId is which colour for events (1-11) and calendars (1-24)."""
    me(db)
    return palettes()


@tool(read_only=True)
def directory_search(db: Database, query: str, maxResults: PageSize = 25) -> list[DirectoryEntry]:
    """Search the Workspace directory for people (name, email, title, team) and bookable rooms (name, building),
    to find the emails to invite or check free/busy for.

    Args:
        query: Text to look for, e.g. "Noor" or "Harbor" or "design".
        maxResults: At most this many entries, 1 to 100.
    """
    me(db)
    needle = query.casefold().strip()
    found = [
        DirectoryEntry(
            type="person",
            email=p["email"],
            displayName=p["display_name"],
            title=p["title"],
            department=p["department"],
            location=p["location"],
            timeZone=p["time_zone"],
        )
        for p in db.find(people, order_by=[people.c.display_name])
        if needle in " ".join([p["display_name"], p["email"], p["title"], p["department"]]).casefold()
    ]
    found += [
        DirectoryEntry(
            type="room",
            email=r["email"],
            displayName=r["name"],
            location=f"{r['building']}, floor {r['floor']}",
            capacity=r["capacity"],
            features=r["features"],
        )
        for r in db.find(rooms, order_by=[rooms.c.name])
        if needle in " ".join([r["name"], r["building"], *r["features"]]).casefold()
    ]
    return found[:maxResults]


# ---------------------------------------------------------------- calendars and sharing


@tool()
def calendars_insert(
    db: Database, summary: Title, description: str = "", timeZone: str | None = None
) -> CalendarObject:
    """Create a secondary calendar owned by the user; it is added to their calendar list.

    Args:
        summary: The calendar's title.
        description: What the calendar is for.
        timeZone: IANA time zone; defaults to the user's.
    """
    account = writer(db)
    zone_name = timeZone or db.get(people, account, "Person")["time_zone"]
    zone(zone_name)
    row = rules.create_calendar(db, account, summary.strip(), description, zone_name)
    return calendar_object(row)


@tool()
def calendarList_patch(
    db: Database,
    calendarId: str,
    summaryOverride: str | None = None,
    colorId: CalendarColorId | None = None,
    hidden: bool | None = None,
    selected: bool | None = None,
) -> CalendarListEntry:
    """Change how a calendar shows on the user's own calendar list (only for them): the name they see, its
    colour, whether it is hidden from the list, and whether its events are shown.

    Args:
        calendarId: A calendar on the user's list, or "primary".
        summaryOverride: The name the user sees instead of the calendar's title ("" to go back to the title).
        colorId: Calendar colour "1" to "24" (see colors_get).
        hidden: Hide the calendar from the list (or show it again).
        selected: Show the calendar's events in the user's calendar view.
    """
    account = writer(db)
    cal = calendar(db, calendarId, account)
    changes = given(summary_override=summaryOverride, color_id=colorId, hidden=hidden, selected=selected)
    if not changes:
        raise InvalidRequest("Nothing to change: give at least one field.")
    entry = rules.change_list_entry(db, account, cal, changes)
    return list_entry(cal, entry, cal["role"], cal["id"] == account)


@tool()
def acl_insert(db: Database, calendarId: str, role: Role, scope: ScopeInput) -> AclRule:
    """Share a calendar (owners only), or change how it is shared with someone: a person or group by email, the
    whole domain, or the public ("default"). A person gets the calendar on their calendar list.

    Args:
        calendarId: The calendar, or "primary".
        role: freeBusyReader (see only free/busy), reader (see event details), writer (make changes) or owner
            (also manage sharing).
        scope: Who the rule is for, e.g. {"type": "user", "value": "noor.haddad@kestrelrobotics.com"}.
    """
    account = writer(db)
    cal = calendar(db, calendarId, account, need="owner")
    rule_id, value = rules.share(db, cal, account, role, scope)
    return acl_rule({"id": rule_id, "role": role, "scope_type": scope.type, "scope_value": value})


@tool()
def acl_delete(db: Database, calendarId: str, ruleId: RuleId) -> AclRule:
    """Stop sharing a calendar with someone (owners only); a person loses it from their calendar list.

    Args:
        calendarId: The calendar, or "primary".
        ruleId: The rule's ID from acl_list, e.g. "user:noor.haddad@kestrelrobotics.com".
    """
    account = writer(db)
    cal = calendar(db, calendarId, account, need="owner")
    return acl_rule(rules.unshare(db, cal, account, ruleId))


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
    attendees: Guests | None = None,
    recurrence: list[str] | None = None,
    reminders: Reminders | None = None,
    colorId: EventColorId | None = None,
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
    account = writer(db)
    cal = calendar(db, calendarId, account, need="writer")
    values = time_columns(when(start, cal["time_zone"], "start"), when(end, cal["time_zone"], "end"))
    if recurrence and values["start_date_time"] and not start.timeZone:
        raise InvalidRequest("Missing time zone definition for start time: recurring events need start.timeZone.")
    rules.check_event_type(eventType, cal, bool(attendees))
    row = {
        **values,
        "summary": summary,
        "description": description,
        "location": location,
        "recurrence": normalize_recurrence(recurrence or [], first_day(values).weekday()),
        "reminders": rules.reminders(reminders),
        "color_id": colorId,
        "transparency": transparency,
        "visibility": visibility,
        "guests_can_modify": guestsCanModify,
        "event_type": eventType,
        "status": status,
        "conference_data": rules.meet_link(db) if addGoogleMeet else None,
    }
    draft = {"attendees": [], "organizer_email": cal["id"]}
    row["attendees"] = rules.guest_list(db, draft, attendees or [], organizer_copy=True)
    return _event(db, rules.new_event(db, cal, account, row), cal)


@tool()
def events_quickAdd(db: Database, calendarId: str, text: NonEmptyText) -> EventObject:
    """Create an event from a short sentence, like the Calendar app's quick add. Understood: a day ("today",
    "tomorrow", a weekday, "Mar 14", "14 March", "2025-03-14"), a time or range ("3pm", "3:30pm-5pm", "15:00",
    "noon"), and "at <place>" after the time. Without a time it is an all-day event; without an end it lasts an
    hour. Times are in the calendar's time zone.

    Args:
        calendarId: The calendar, or "primary".
        text: E.g. "Dentist Friday 3:30pm at Back Bay Dental".
    """
    account = writer(db)
    cal = calendar(db, calendarId, account, need="writer")
    local = ZoneInfo(cal["time_zone"])
    said = quickadd.parse(text, db.now().astimezone(local).date())
    tz = cal["time_zone"]
    if said.starts is None:
        values = time_columns(("date", said.day, tz), ("date", said.day + timedelta(days=1), tz))
    else:
        begins = datetime.combine(said.day, said.starts, local)
        ends = datetime.combine(said.day, said.ends, local) if said.ends else begins + timedelta(hours=1)
        values = time_columns(("dateTime", begins, tz), ("dateTime", ends, tz))
    row = rules.new_event(db, cal, account, {**values, "summary": said.summary, "location": said.place})
    return _event(db, row, cal)


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
    attendees: Guests | None = None,
    recurrence: list[str] | None = None,
    reminders: Reminders | None = None,
    colorId: EventColorId | None = None,
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
    account = writer(db)
    cal = calendar(db, calendarId, account, need="writer")
    row = find_event(db, cal, eventId)
    rules.check_not_cancelled(row, "This event has been cancelled.")
    details = (
        summary,
        description,
        location,
        start,
        end,
        recurrence,
        reminders,
        colorId,
        transparency,
        visibility,
        guestsCanModify,
        status,
    )
    detailed = any(value is not None for value in details)
    if not organizes(cal, row) and not row["guests_can_modify"]:
        if detailed or addGoogleMeet or attendees is None:
            raise PermissionDenied(rules.FORBIDDEN_FOR_GUEST)
        return _event(db, rules.rsvp(db, cal, row, attendees), cal)
    if recurrence is not None and row["recurring_event_id"]:
        raise InvalidRequest("A single instance can't have its own recurrence; patch the series instead.")
    if not detailed and attendees is None and not addGoogleMeet:
        raise InvalidRequest("Nothing to change: give at least one field.")
    changes: dict[str, Any] = given(
        summary=summary,
        description=description,
        location=location,
        transparency=transparency,
        visibility=visibility,
        guests_can_modify=guestsCanModify,
        status=status,
        color_id=colorId,
    )
    if reminders is not None:
        changes["reminders"] = rules.reminders(reminders)
    retimed = start is not None or end is not None
    if retimed:
        changes.update(
            time_columns(
                when(start or event_time(row, "start"), row["time_zone"], "start"),
                when(end or event_time(row, "end"), row["time_zone"], "end"),
            )
        )
    if recurrence is not None:
        changes["recurrence"] = normalize_recurrence(recurrence, first_day({**row, **changes}).weekday())
    if attendees is not None:
        changes["attendees"] = rules.guest_list(db, row, attendees, organizer_copy=organizes(cal, row))
    if addGoogleMeet and not row["conference_data"]:
        changes["conference_data"] = rules.meet_link(db)
    bump = retimed or attendees is not None or recurrence is not None
    return _event(db, rules.apply_changes(db, row, changes, bump), cal)


@tool()
def events_delete(db: Database, calendarId: str, eventId: str) -> EventObject:
    """Delete an event. On the organizer's calendar it is cancelled for everyone (a series ID cancels the whole
    series, an instance ID only that occurrence); on a guest's calendar it declines the invitation.

    Args:
        calendarId: The calendar the event is on, or "primary".
        eventId: The event, series or instance ID.
    """
    account = writer(db)
    cal = calendar(db, calendarId, account, need="writer")
    row = find_event(db, cal, eventId)
    rules.check_not_cancelled(row, "Resource has been deleted.")
    if not organizes(cal, row):
        answer = [AttendeeInput(email=cal["id"], responseStatus="declined")]
        return _event(db, rules.rsvp(db, cal, row, answer), cal)
    return _event(db, rules.cancel(db, row), cal)


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
    account = writer(db)
    cal = calendar(db, calendarId, account, need="writer")
    target = calendar(db, destination, account, need="writer")
    row = find_event(db, cal, eventId)
    return _event(db, rules.move(db, cal, target, row), target)
