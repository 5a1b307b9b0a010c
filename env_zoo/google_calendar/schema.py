"""Google Calendar's objects as tables: people and rooms of the Workspace domain, the app's OAuth grant,
calendars with their ACL rules and each person's calendar list, and events (recurring series, their single-instance
exceptions, attendees, reminders and Meet links). Timed events are stored in UTC with their IANA time zone."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

people = Table(
    "people",
    metadata,
    Column("email", String, primary_key=True),
    Column("display_name", String, nullable=False),
    Column("title", String, nullable=False, default=""),
    Column("department", String, nullable=False, default=""),
    Column("location", String, nullable=False, default=""),  # office
    Column("time_zone", String, nullable=False),
)

rooms = Table(
    "rooms",
    metadata,
    Column("email", String, primary_key=True),  # the room's resource calendar id
    Column("name", String, nullable=False),
    Column("building", String, nullable=False),
    Column("floor", String, nullable=False),
    Column("capacity", Integer, nullable=False),
    Column("features", JSON, nullable=False, default=list),
)

oauth_grants = Table(
    "oauth_grants",
    metadata,
    Column("id", String, primary_key=True),  # always "current" (db.start_session): whose account the app acts for
    Column("email", String, ForeignKey("people.email"), nullable=False),
    Column("scope", String, nullable=False),  # calendar | calendar.readonly
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

calendars = Table(
    "calendars",
    metadata,
    Column("id", String, primary_key=True),  # an email for primary and room calendars, c_...@group... otherwise
    Column("summary", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("location", String, nullable=False, default=""),
    Column("time_zone", String, nullable=False),
    Column("kind", String, nullable=False),  # primary | secondary | resource | holiday
)

acl_rules = Table(
    "acl_rules",
    metadata,
    Column("calendar_id", String, ForeignKey("calendars.id"), primary_key=True),
    Column("id", String, primary_key=True),  # "user:ana@...", "domain:kestrelrobotics.com", "default"
    Column("role", String, nullable=False),  # none | freeBusyReader | reader | writer | owner
    Column("scope_type", String, nullable=False),  # default | user | group | domain
    Column("scope_value", String, nullable=True),
)

calendar_list = Table(
    "calendar_list",
    metadata,
    Column("email", String, ForeignKey("people.email"), primary_key=True),
    Column("calendar_id", String, ForeignKey("calendars.id"), primary_key=True),
    Column("summary_override", String, nullable=True),
    Column("color_id", String, nullable=False, default="1"),
    Column("hidden", Boolean, nullable=False, default=False),
    Column("selected", Boolean, nullable=False, default=True),
)

events = Table(
    "events",
    metadata,
    Column("id", String, primary_key=True),  # base32hex; an exception's id is "<series id>_<original start>"
    Column("calendar_id", String, ForeignKey("calendars.id"), nullable=False),  # the organizer's calendar
    Column("i_cal_uid", String, nullable=False),
    Column("status", String, nullable=False),  # confirmed | tentative | cancelled
    Column("summary", String, nullable=False, default=""),
    Column("description", Text, nullable=False, default=""),
    Column("location", String, nullable=False, default=""),
    Column("color_id", String, nullable=True),
    Column("creator_email", String, nullable=False),
    Column("organizer_email", String, nullable=False),
    Column("start_date", String, nullable=True),  # all-day: YYYY-MM-DD
    Column("end_date", String, nullable=True),  # all-day: exclusive
    Column("start_date_time", String, nullable=True),  # timed: UTC, YYYY-MM-DDTHH:MM:SSZ
    Column("end_date_time", String, nullable=True),
    Column("time_zone", String, nullable=False),  # the event's IANA time zone
    Column("recurrence", JSON, nullable=False, default=list),  # ["RRULE:FREQ=WEEKLY;BYDAY=MO", "EXDATE;..."]
    Column("recurring_event_id", String, ForeignKey("events.id"), nullable=True),
    Column("original_start_time", String, nullable=True),  # an exception's original start (date or UTC)
    Column("transparency", String, nullable=False, default="opaque"),  # opaque (busy) | transparent (free)
    Column("visibility", String, nullable=False, default="default"),  # default | public | private | confidential
    # [{"email", "displayName", "optional", "resource", "organizer", "responseStatus", "comment"}]
    Column("attendees", JSON, nullable=False, default=list),
    Column("guests_can_modify", Boolean, nullable=False, default=False),
    Column("guests_can_invite_others", Boolean, nullable=False, default=True),
    Column("guests_can_see_other_guests", Boolean, nullable=False, default=True),
    Column("reminders", JSON, nullable=False),  # {"useDefault": bool, "overrides": [{"method", "minutes"}]}
    Column("conference_data", JSON, nullable=True),
    Column("event_type", String, nullable=False, default="default"),  # default | outOfOffice | focusTime
    Column("sequence", Integer, nullable=False, default=0),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("updated", String, nullable=False, info={"volatile": True}),
)
