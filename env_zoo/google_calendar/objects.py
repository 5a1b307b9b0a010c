"""The API's resources as the tools take and return them (field names as in the Calendar API v3)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Role = Literal["freeBusyReader", "reader", "writer", "owner"]
ResponseStatus = Literal["needsAction", "declined", "tentative", "accepted"]


class EventDateTime(BaseModel):
    """When an event starts or ends: `date` for all-day events, otherwise `dateTime`."""

    date: str | None = Field(None, description="all-day events: YYYY-MM-DD (the end date is exclusive)")
    dateTime: str | None = Field(None, description="RFC3339, e.g. 2025-03-04T10:00:00-05:00; without an offset, "
                                                   "timeZone is required")
    timeZone: str | None = Field(None, description="IANA time zone, e.g. America/New_York")


class AttendeeInput(BaseModel):
    """A guest to invite (a person's email or a room's resource email), or a guest's own RSVP."""

    email: str
    optional: bool = False
    responseStatus: ResponseStatus | None = Field(None, description="a guest's own answer; ignored for others")
    comment: str | None = None


class ReminderOverride(BaseModel):
    """A reminder: how and how many minutes before the start."""

    method: Literal["email", "popup"]
    minutes: int = Field(description="0 to 40320 (4 weeks)")


class Reminders(BaseModel):
    """The calendar's default reminders, or up to 5 custom ones."""

    useDefault: bool = True
    overrides: list[ReminderOverride] = Field(default_factory=list)


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
