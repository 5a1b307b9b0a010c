"""The API's resources as the tools take and return them (field names as in the Calendar API v3), the argument types
whose patterns and bounds the schema shows, the colour palettes, and how a stored event row becomes an event."""

from __future__ import annotations

import base64
from datetime import datetime
from typing import Annotated, Any, Literal, Union
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field

from envfactory_gym import Database
from envfactory_gym.fields import IsoDate, bounded

from .schema import calendars, people, rooms

Role = Literal["freeBusyReader", "reader", "writer", "owner"]
ResponseStatus = Literal["needsAction", "declined", "tentative", "accepted"]
#: An email address: a person, a group, or a room's resource calendar.
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")]
#: A Workspace domain, e.g. kestrelrobotics.com.
DomainName = Annotated[str, Field(pattern=r"^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")]
#: An RFC3339 timestamp with its offset, as timeMin/timeMax take it: 2025-03-04T09:00:00-05:00.
Rfc3339 = Annotated[
    str,
    Field(
        pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$",
        json_schema_extra={"format": "date-time"},
    ),
]
#: An event's start or end: RFC3339, the offset optional when timeZone is given.
LocalOrRfc3339 = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$")]
#: Text with at least one visible character (a title).
Title = Annotated[str, Field(min_length=1, pattern=r"\S")]
#: An event colour of colors_get's event palette.
EventColorId = Literal["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"]
#: A calendar colour of colors_get's calendar palette.
CalendarColorId = Literal[
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "11",
    "12",
    "13",
    "14",
    "15",
    "16",
    "17",
    "18",
    "19",
    "20",
    "21",
    "22",
    "23",
    "24",
]
MAX_REMINDERS = 5
MAX_REMINDER_MINUTES = 40320  # 4 weeks
ReminderMinutes = bounded(0, MAX_REMINDER_MINUTES)

EVENT_COLORS = {
    "1": ("#a4bdfc", "Lavender"),
    "2": ("#7ae7bf", "Sage"),
    "3": ("#dbadff", "Grape"),
    "4": ("#ff887c", "Flamingo"),
    "5": ("#fbd75b", "Banana"),
    "6": ("#ffb878", "Tangerine"),
    "7": ("#46d6db", "Peacock"),
    "8": ("#e1e1e1", "Graphite"),
    "9": ("#5484ed", "Blueberry"),
    "10": ("#51b749", "Basil"),
    "11": ("#dc2127", "Tomato"),
}
CALENDAR_COLORS = {
    str(i): (bg, name)
    for i, (bg, name) in enumerate(
        [
            ("#ac725e", "Cocoa"),
            ("#d06b64", "Flamingo"),
            ("#f83a22", "Tomato"),
            ("#fa573c", "Tangerine"),
            ("#ff7537", "Pumpkin"),
            ("#ffad46", "Mango"),
            ("#42d692", "Eucalyptus"),
            ("#16a765", "Basil"),
            ("#7bd148", "Pistachio"),
            ("#b3dc6c", "Avocado"),
            ("#fbe983", "Citron"),
            ("#fad165", "Banana"),
            ("#92e1c0", "Sage"),
            ("#9fe1e7", "Peacock"),
            ("#9fc6e7", "Cobalt"),
            ("#4986e7", "Blueberry"),
            ("#9a9cff", "Lavender"),
            ("#b99aff", "Wisteria"),
            ("#c2c2c2", "Graphite"),
            ("#cabdbf", "Birch"),
            ("#cca6ac", "Radicchio"),
            ("#f691b2", "Cherry Blossom"),
            ("#cd74e6", "Grape"),
            ("#a47ae2", "Amethyst"),
        ],
        start=1,
    )
}


class EventDateTime(BaseModel):
    """When an event starts or ends: `date` for all-day events, otherwise `dateTime`."""

    date: IsoDate | None = Field(None, description="all-day events: YYYY-MM-DD (the end date is exclusive)")
    dateTime: LocalOrRfc3339 | None = Field(
        None, description="RFC3339, e.g. 2025-03-04T10:00:00-05:00; without an offset, timeZone is required"
    )
    timeZone: str | None = Field(None, description="IANA time zone, e.g. America/New_York")


class AttendeeInput(BaseModel):
    """A guest to invite (a person's email or a room's resource email), or a guest's own RSVP."""

    email: Email
    optional: bool = False
    responseStatus: ResponseStatus | None = Field(None, description="a guest's own answer; ignored for others")
    comment: str | None = None


class ReminderOverride(BaseModel):
    """A reminder: how and how many minutes before the start."""

    method: Literal["email", "popup"]
    minutes: ReminderMinutes = Field(description="0 to 40320 (4 weeks)")


class Reminders(BaseModel):
    """The calendar's default reminders, or up to 5 custom ones."""

    useDefault: bool = True
    overrides: list[ReminderOverride] = Field(default_factory=list, max_length=MAX_REMINDERS)


class PersonRef(BaseModel):
    """The creator or organizer of an event."""

    email: str
    displayName: str | None = None
    self: bool = False


class AttendeeObject(BaseModel):
    """A guest of an event and their answer."""

    email: str
    displayName: str | None = None
    organizer: bool = False
    self: bool = False
    resource: bool = False
    optional: bool = False
    responseStatus: str
    comment: str | None = None


class EntryPoint(BaseModel):
    """How to join the conference."""

    entryPointType: str
    uri: str
    label: str | None = None


class ConferenceData(BaseModel):
    """A Google Meet conference attached to the event."""

    conferenceId: str
    conferenceSolution: dict[str, str]
    entryPoints: list[EntryPoint]


class EventObject(BaseModel):
    """An event (calendar#event) as seen on one calendar."""

    kind: Literal["calendar#event"] = "calendar#event"
    id: str
    status: str
    htmlLink: str
    created: str
    updated: str
    summary: str
    description: str
    location: str
    colorId: str | None
    creator: PersonRef
    organizer: PersonRef
    start: EventDateTime
    end: EventDateTime
    recurrence: list[str] = Field(default_factory=list)
    recurringEventId: str | None = None
    originalStartTime: EventDateTime | None = None
    transparency: str
    visibility: str
    iCalUID: str
    sequence: int
    attendees: list[AttendeeObject] = Field(default_factory=list)
    guestsCanModify: bool
    guestsCanInviteOthers: bool
    guestsCanSeeOtherGuests: bool
    reminders: Reminders
    conferenceData: ConferenceData | None = None
    hangoutLink: str | None = None
    eventType: str


class CalendarObject(BaseModel):
    """A calendar's own metadata (calendar#calendar)."""

    id: str
    summary: str
    description: str
    location: str
    timeZone: str


class CalendarListEntry(BaseModel):
    """A calendar on the user's calendar list, with the user's access role on it."""

    id: str
    summary: str
    summaryOverride: str | None
    description: str
    timeZone: str
    accessRole: str = Field(description="freeBusyReader | reader | writer | owner")
    primary: bool
    colorId: str
    hidden: bool
    selected: bool


class AclScope(BaseModel):
    """Who a sharing rule applies to."""

    type: Literal["default", "user", "group", "domain"] = Field(description="default = the public")
    value: str | None = Field(None, description="an email for user/group, a domain name for domain, none for default")


class PersonScope(BaseModel):
    """Share with one person or a Google group, by email."""

    type: Literal["user", "group"]
    value: Email


class DomainScope(BaseModel):
    """Share with everyone in a Workspace domain."""

    type: Literal["domain"]
    value: DomainName


class PublicScope(BaseModel):
    """Share with the public (the "default" rule); it takes no value."""

    type: Literal["default"]
    value: None = None


#: Who a new sharing rule is for: a person or group by email, a domain, or the public.
ScopeInput = Annotated[Union[PersonScope, DomainScope, PublicScope], Field(discriminator="type")]


class AclRule(BaseModel):
    """A sharing rule of a calendar."""

    id: str
    role: str
    scope: AclScope


class TimePeriod(BaseModel):
    """A busy interval."""

    start: str
    end: str


class FreeBusyError(BaseModel):
    """Why a calendar's free/busy could not be read."""

    domain: str = "global"
    reason: str


class FreeBusyCalendar(BaseModel):
    """The busy intervals of one calendar."""

    busy: list[TimePeriod] = Field(default_factory=list)
    errors: list[FreeBusyError] = Field(default_factory=list)


class FreeBusyResponse(BaseModel):
    """Busy intervals of each requested calendar."""

    timeMin: str
    timeMax: str
    calendars: dict[str, FreeBusyCalendar]


class ColorDefinition(BaseModel):
    """One colour of the palette."""

    background: str
    foreground: str
    name: str = Field(description="the name the Calendar app shows")


class Colors(BaseModel):
    """The colour palettes: event colorId 1-11 and calendar colorId 1-24."""

    event: dict[str, ColorDefinition]
    calendar: dict[str, ColorDefinition]


class DirectoryEntry(BaseModel):
    """A person or a bookable room of the Workspace directory."""

    type: Literal["person", "room"]
    email: str
    displayName: str
    title: str = ""
    department: str = ""
    location: str = Field("", description="office of a person; building and floor of a room")
    timeZone: str | None = None
    capacity: int | None = None
    features: list[str] = Field(default_factory=list)


# ---------------------------------------------------------------- stored rows as API objects


def display_names(db: Database, emails: set[str]) -> dict[str, str]:
    """The names the app shows for people, rooms and (for the rest) calendars, by email or calendar ID."""
    names = {p["email"]: p["display_name"] for p in db.find(people) if p["email"] in emails} if emails else {}
    if emails - names.keys():
        names.update({r["email"]: r["name"] for r in db.find(rooms) if r["email"] in emails})
    if emails - names.keys():
        names.update({c["id"]: c["summary"] for c in db.find(calendars) if c["id"] in emails - names.keys()})
    return names


def emails_of(rows: list[dict[str, Any]]) -> set[str]:
    """Every creator, organizer and guest address of some events."""
    return {e for r in rows for e in (r["creator_email"], r["organizer_email"], *(a["email"] for a in r["attendees"]))}


def html_link(row: dict[str, Any]) -> str:
    """The event's link in the Calendar app."""
    eid = base64.urlsafe_b64encode(f"{row['id']} {row['calendar_id']}".encode()).decode().rstrip("=")
    return f"https://www.google.com/calendar/event?eid={eid}"


def _local(text: str, zone_name: str) -> str:
    return datetime.fromisoformat(text).astimezone(ZoneInfo(zone_name)).isoformat()


def _time(row: dict[str, Any], which: str) -> dict[str, Any]:
    if row[f"{which}_date"]:
        return {"date": row[f"{which}_date"]}
    return {"dateTime": _local(row[f"{which}_date_time"], row["time_zone"]), "timeZone": row["time_zone"]}


def event_time(row: dict[str, Any], which: str) -> EventDateTime:
    """An event's start or end: its date, or its date-time in the event's time zone."""
    return EventDateTime(**_time(row, which))


def event_object(row: dict[str, Any], cal: dict[str, Any], names: dict[str, str], private: bool) -> EventObject:
    """The event as `cal` sees it; a `private` one is reduced to busy time. Validated in one pass from plain data
    (a page of events is the largest thing a tool returns)."""
    original = None
    if row["original_start_time"]:
        original = (
            {"date": row["original_start_time"]}
            if row["start_date"]
            else {"dateTime": _local(row["original_start_time"], row["time_zone"]), "timeZone": row["time_zone"]}
        )
    conference = row["conference_data"]
    return EventObject.model_validate(
        {
            "id": row["id"],
            "status": row["status"],
            "htmlLink": html_link(row),
            "created": row["created"],
            "updated": row["updated"],
            "summary": "busy" if private else row["summary"],
            "description": "" if private else row["description"],
            "location": "" if private else row["location"],
            "colorId": row["color_id"],
            "creator": {
                "email": row["creator_email"],
                "displayName": names.get(row["creator_email"]),
                "self": row["creator_email"] == cal["id"],
            },
            "organizer": {
                "email": row["organizer_email"],
                "displayName": names.get(row["organizer_email"]),
                "self": row["organizer_email"] == cal["id"],
            },
            "start": _time(row, "start"),
            "end": _time(row, "end"),
            "recurrence": row["recurrence"],
            "recurringEventId": row["recurring_event_id"],
            "originalStartTime": original,
            "transparency": row["transparency"],
            "visibility": row["visibility"],
            "iCalUID": row["i_cal_uid"],
            "sequence": row["sequence"],
            "attendees": []
            if private
            else [
                {
                    "email": a["email"],
                    "displayName": names.get(a["email"]),
                    "organizer": a.get("organizer", False),
                    "self": a["email"] == cal["id"],
                    "resource": a.get("resource", False),
                    "optional": a.get("optional", False),
                    "responseStatus": a["responseStatus"],
                    "comment": a.get("comment"),
                }
                for a in row["attendees"]
            ],
            "guestsCanModify": row["guests_can_modify"],
            "guestsCanInviteOthers": row["guests_can_invite_others"],
            "guestsCanSeeOtherGuests": row["guests_can_see_other_guests"],
            "reminders": row["reminders"],
            "conferenceData": conference,
            "hangoutLink": conference["entryPoints"][0]["uri"] if conference else None,
            "eventType": row["event_type"],
        }
    )


def calendar_object(row: dict[str, Any]) -> CalendarObject:
    """A calendar's own metadata."""
    return CalendarObject(
        id=row["id"],
        summary=row["summary"],
        description=row["description"],
        location=row["location"],
        timeZone=row["time_zone"],
    )


def list_entry(cal: dict[str, Any], entry: dict[str, Any], role: str, primary: bool) -> CalendarListEntry:
    """A calendar as it sits on someone's calendar list."""
    return CalendarListEntry(
        id=cal["id"],
        summary=cal["summary"],
        summaryOverride=entry["summary_override"],
        description=cal["description"],
        timeZone=cal["time_zone"],
        accessRole=role,
        primary=primary,
        colorId=entry["color_id"],
        hidden=entry["hidden"],
        selected=entry["selected"],
    )


def acl_rule(row: dict[str, Any]) -> AclRule:
    """A stored sharing rule."""
    return AclRule(id=row["id"], role=row["role"], scope=AclScope(type=row["scope_type"], value=row["scope_value"]))


def palettes() -> Colors:
    """Both colour palettes."""

    def palette(colors: dict[str, tuple[str, str]]) -> dict[str, ColorDefinition]:
        return {k: ColorDefinition(background=bg, foreground="#1d1d1d", name=n) for k, (bg, n) in colors.items()}

    return Colors(event=palette(EVENT_COLORS), calendar=palette(CALENDAR_COLORS))
