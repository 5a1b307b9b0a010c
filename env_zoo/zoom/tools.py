"""Zoom REST API v2 tools as a signed-in user of the account sees them: users and licences, meetings (instant,
scheduled, recurring, with occurrences), registrants, cloud recordings and their trash, webinars and panelists;
plus the user's own sign-in."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, Unordered, paginate, tool
from envfactory_gym.fields import IsoDate, IsoTimestamp, NonBlankText, bounded, text

from . import rules, scheduling
from .access import acting_for, me, owned_meeting, owned_webinar, require_admin, user_by_key
from .errors import conflict, forbidden, invalid, no_recording
from .objects import (
    Deleted,
    Meeting,
    MeetingList,
    Panelist,
    PanelistList,
    Recording,
    RecordingList,
    Registrant,
    RegistrantList,
    RegistrantStatusResult,
    SignedIn,
    User,
    UserList,
    Webinar,
    WebinarList,
    meeting_summary,
    recording_object,
    registrant_object,
    user_object,
    webinar_object,
)
from .schema import (
    meetings,
    occurrences,
    panelists,
    recording_files,
    recordings,
    registrants,
    sessions,
    users,
    webinars,
)

UserKey = Annotated[str, Field(min_length=1, description="the user's id or email, or `me`")]
MeetingId = Annotated[int, Field(ge=10**10, lt=10**11, description="the 11-digit meeting number")]
WebinarId = Annotated[int, Field(ge=10**10, lt=10**11, description="the 11-digit webinar number")]
OccurrenceId = Annotated[str, Field(pattern=r"^\d{13}$", description="an occurrence id (epoch milliseconds)")]
PageSize = bounded(1, 300)
Topic = text(200)
Agenda = Annotated[str, Field(max_length=2000)]
Duration = bounded(1, 1440)
Passcode = Annotated[
    str, Field(pattern=r"^[A-Za-z0-9@_*-]{1,10}$", description="at most 10 of letters, digits, @ - _ *")
]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$", max_length=128)]
WeeklyDays = Annotated[str, Field(pattern=r"^[1-7](,[1-7]){0,6}$", description="1 = Sunday ... 7 = Saturday")]
ApprovalType = Literal[0, 1, 2]
AutoRecording = Literal["none", "local", "cloud"]
JbhTime = Literal[0, 5, 10, 15]


class NewPanelist(BaseModel):
    """A panelist to invite."""

    name: NonBlankText
    email: Email


def _next(token: str | None) -> str:
    return token or ""


# ---------------------------------------------------------------- sign-in and users


@tool(user_only=True)
def sign_in(db: Database, email: Email) -> SignedIn:
    """(User only) The user signs in with their Zoom account and authorises the assistant to act for them.

    Args:
        email: Their Zoom login email.
    """
    user = user_by_key(db, email)
    if user["status"] != "active":
        raise forbidden("User is not active and can't sign in.")
    db.start_session(sessions, user_id=user["id"])
    return SignedIn(user=user_object(user))


@tool(read_only=True)
def get_user(db: Database, user_id: UserKey = "me") -> User:
    """Get a user's profile, type (Basic or Licensed), role and status (GET /users/{userId}).

    Args:
        user_id: The user's id or email, or `me`.
    """
    me(db)
    return user_object(user_by_key(db, user_id))


@tool(read_only=True)
def list_users(
    db: Database,
    status: Literal["active", "inactive", "pending"] = "active",
    role: Literal["Owner", "Admin", "Member"] | None = None,
    page_size: PageSize = 30,
    next_page_token: str | None = None,
) -> UserList:
    """List the account's users with one status, by last name (GET /users).

    Args:
        status: active, inactive (deactivated) or pending (invited, not yet signed up).
        role: Only users with this role.
        page_size: Users per page, 1 to 300.
        next_page_token: The token from the previous page.
    """
    me(db)
    rows = db.select(
        users,
        "status = ?" + (" AND role_name = ?" if role else ""),
        [status, role] if role else [status],
        order_by="lower(last_name), lower(first_name)",
    )
    page = paginate(rows, page_size, next_page_token, max_page_size=300)
    return UserList(
        users=[user_object(r) for r in page.results], total_records=len(rows), next_page_token=_next(page.next_cursor)
    )


@tool()
def update_user(
    db: Database,
    user_id: UserKey,
    type: Literal[1, 2] | None = None,
    webinar: bool | None = None,
    dept: text(60) | None = None,
) -> User:
    """Change a user's licence type (1 Basic, 2 Licensed), webinar add-on or department (PATCH /users/{userId}).
    Licences and webinar add-ons come from the account's seats; only Licensed users can hold the webinar add-on, and
    a user who goes Basic loses it.

    Args:
        user_id: The user's id or email.
        type: 1 Basic or 2 Licensed.
        webinar: Give (true) or take away (false) the webinar add-on.
        dept: Their department.
    """
    user = user_by_key(db, user_id)
    require_admin(db, user)
    if user["status"] != "active":
        raise conflict(1120, "Only active users can be updated.")
    new_type = type if type is not None else user["type"]
    if new_type == rules.LICENSED and user["type"] != rules.LICENSED and rules.free_seats(db, "type") <= 0:
        raise conflict(2034, "No Licensed seats are available on this account. Free one or buy more licences.")
    new_webinar = (webinar if webinar is not None else user["webinar"]) and new_type == rules.LICENSED
    if webinar and new_type != rules.LICENSED:
        raise invalid("Only Licensed users can hold the webinar add-on.")
    if new_webinar and not user["webinar"] and rules.free_seats(db, "webinar") <= 0:
        raise conflict(2034, "No webinar add-on seats are available on this account.")
    if (
        not new_webinar
        and user["webinar"]
        and db.select(webinars, "host_id = ? AND start_time > ?", [user["id"], db.now_iso()])
    ):
        raise conflict(3000, "This user hosts upcoming webinars: reassign or delete them first.")
    return user_object(
        db.update(
            users, user["id"], type=new_type, webinar=new_webinar, dept=dept if dept is not None else user["dept"]
        )
    )


# ---------------------------------------------------------------- meetings


@tool(read_only=True)
def list_meetings(
    db: Database,
    user_id: UserKey = "me",
    type: Literal["scheduled", "upcoming", "previous_meetings"] = "scheduled",
    page_size: PageSize = 30,
    next_page_token: str | None = None,
) -> MeetingList:
    """List a user's meetings (GET /users/{userId}/meetings): `scheduled` all that have not ended (recurring ones
    included), `upcoming` those with a start still ahead, `previous_meetings` those that ended; by start time.

    Args:
        user_id: The host's id or email, or `me`.
        type: scheduled, upcoming or previous_meetings.
        page_size: Meetings per page, 1 to 300.
        next_page_token: The token from the previous page.
    """
    host = acting_for(db, user_id)
    now = db.now_iso()
    rows = []
    for row in db.find(meetings, host_id=host["id"], order_by=[meetings.c.start_time]):
        upcoming = scheduling.upcoming_occurrences(db, row["id"]) if row["type"] == rules.RECURRING else []
        end = rules.meeting_end(row)
        ended = row["status"] == "finished" or (
            (row["type"] == rules.RECURRING and not upcoming)
            or (row["type"] == rules.SCHEDULED and end is not None and rules.iso(end) <= now)
        )
        starts_ahead = bool(upcoming) or (row["start_time"] is not None and row["start_time"] > now)
        if {"scheduled": not ended, "upcoming": starts_ahead and not ended, "previous_meetings": ended}[type]:
            rows.append(row)
    page = paginate(rows, page_size, next_page_token, max_page_size=300)
    return MeetingList(
        meetings=[meeting_summary(r) for r in page.results],
        total_records=len(rows),
        next_page_token=_next(page.next_cursor),
    )


@tool(read_only=True)
def get_meeting(db: Database, meeting_id: MeetingId, show_previous_occurrences: bool = False) -> Meeting:
    """Get a meeting with its settings, passcode, join link and (for recurring meetings) its occurrences
    (GET /meetings/{meetingId}).

    Args:
        meeting_id: The meeting number.
        show_previous_occurrences: Also list occurrences that have already happened.
    """
    return scheduling.full_meeting(db, owned_meeting(db, meeting_id), show_previous_occurrences)


@tool()
def create_meeting(
    db: Database,
    topic: Topic,
    user_id: UserKey = "me",
    type: Literal[1, 2, 3, 8] = 2,
    start_time: IsoTimestamp | None = None,
    duration: Duration = 60,
    password: Passcode | None = None,
    agenda: Agenda = "",
    recurrence_type: Literal[1, 2, 3] | None = None,
    repeat_interval: bounded(1, 90) | None = None,
    weekly_days: WeeklyDays | None = None,
    monthly_day: bounded(1, 31) | None = None,
    end_times: bounded(1, 60) | None = None,
    waiting_room: bool | None = None,
    join_before_host: bool | None = None,
    jbh_time: JbhTime | None = None,
    mute_upon_entry: bool | None = None,
    approval_type: ApprovalType | None = None,
    auto_recording: AutoRecording | None = None,
    alternative_hosts: Annotated[list[Email], Unordered] | None = None,
) -> Meeting:
    """Schedule a meeting for a user (POST /users/{userId}/meetings). Types: 1 instant, 2 scheduled (needs a future
    start_time), 3 recurring with no fixed time, 8 recurring with fixed times (start_time plus recurrence: daily every
    n days, weekly on weekly_days, or monthly on monthly_day; end_times occurrences). Basic hosts: meetings of at most
    40 minutes, no cloud recording, no registration. Join before host needs the waiting room off; alternative hosts
    must be Licensed users of the account. Without a passcode one is generated.

    Args:
        topic: The meeting's topic.
        user_id: The host's id or email, or `me`.
        type: 1 instant, 2 scheduled, 3 recurring with no fixed time, 8 recurring with fixed times.
        start_time: The (first) start, e.g. 2026-03-12T15:00:00Z; for types 2 and 8.
        duration: Minutes.
        password: Passcode: at least 6 characters with letters and numbers (account policy).
        agenda: Description.
        recurrence_type: For type 8: 1 daily, 2 weekly, 3 monthly.
        repeat_interval: Every how many days, weeks or months (default 1).
        weekly_days: Weekly: the days, e.g. "2,4" for Monday and Wednesday (1 = Sunday).
        monthly_day: Monthly: the day of the month.
        end_times: How many occurrences (default 1).
        waiting_room: Hold participants in a waiting room (default on).
        join_before_host: Let participants join before the host (default off).
        jbh_time: With join before host: minutes before the start they may join (0 = any time).
        mute_upon_entry: Mute participants as they join (default on).
        approval_type: Registration: 0 automatically approve, 1 manually approve, 2 none (default).
        auto_recording: none (default), local or cloud.
        alternative_hosts: Emails of Licensed users who may start the meeting.
    """
    host = acting_for(db, user_id)
    if host["status"] != "active":
        raise conflict(1120, f"User {host['email']} is not active and can't host meetings.")
    settings = scheduling.merged_settings(
        rules.DEFAULT_SETTINGS,
        waiting_room=waiting_room,
        join_before_host=join_before_host,
        jbh_time=jbh_time,
        mute_upon_entry=mute_upon_entry,
        approval_type=approval_type,
        auto_recording=auto_recording,
        alternative_hosts=";".join(_alternative_hosts(db, alternative_hosts, host)) if alternative_hosts else None,
    )
    rules.check_settings(settings)
    rules.check_host_limits(host, type, duration, settings)
    fixed_time = type in (rules.SCHEDULED, rules.RECURRING)
    if fixed_time:
        if start_time is None:
            raise invalid("start_time is required for scheduled and recurring meetings.")
        rules.check_future(db, rules.moment(start_time, "start_time"))
    recurrence = (
        scheduling.recurrence_of(recurrence_type, repeat_interval, weekly_days, monthly_day, end_times)
        if type == rules.RECURRING
        else None
    )
    number = scheduling.new_number(db, "meetings")
    if password is not None:
        rules.check_passcode(password)
    row = db.insert(
        meetings,
        id=number,
        uuid=rules.instance_uuid(f"meeting:{number}"),
        host_id=host["id"],
        topic=topic,
        type=type,
        start_time=rules.iso(rules.moment(start_time, "start_time")) if fixed_time and start_time else None,
        duration=duration,
        timezone=host["timezone"],
        agenda=agenda,
        password=password or rules.generated_passcode(f"meeting:{number}"),
        status="started" if type == rules.INSTANT else "waiting",
        settings=settings,
        recurrence=recurrence,
        created_at=db.now_iso(),
    )
    if type == rules.RECURRING:
        scheduling.lay_out_occurrences(db, row)
    return scheduling.full_meeting(db, row)


def _alternative_hosts(db: Database, emails: list[str], host: dict) -> list[str]:
    chosen = []
    for email in emails:
        found = db.find(users, email=email.strip().lower())
        if not found or found[0]["type"] != rules.LICENSED or found[0]["status"] != "active":
            raise invalid(f"Alternative host {email} must be an active Licensed user on this account.")
        if found[0]["id"] == host["id"]:
            raise invalid("The host can't be their own alternative host.")
        chosen.append(found[0]["email"])
    return sorted(chosen)


@tool()
def update_meeting(
    db: Database,
    meeting_id: MeetingId,
    occurrence_id: OccurrenceId | None = None,
    topic: Topic | None = None,
    start_time: IsoTimestamp | None = None,
    duration: Duration | None = None,
    password: Passcode | None = None,
    agenda: Agenda | None = None,
    waiting_room: bool | None = None,
    join_before_host: bool | None = None,
    jbh_time: JbhTime | None = None,
    mute_upon_entry: bool | None = None,
    approval_type: ApprovalType | None = None,
    auto_recording: AutoRecording | None = None,
    alternative_hosts: Annotated[list[Email], Unordered] | None = None,
) -> Meeting:
    """Update a meeting (PATCH /meetings/{meetingId}); only the fields given change. With occurrence_id only that
    occurrence of a recurring meeting moves (start_time, duration); without it the whole series changes (a new
    start_time re-lays its occurrences). A meeting that has already ended can't be updated; the host's Basic limits
    and the settings rules of create_meeting apply.

    Args:
        meeting_id: The meeting number.
        occurrence_id: Change only this occurrence (start_time and duration only).
        topic: New topic.
        start_time: New start, e.g. 2026-03-12T15:00:00Z (must be in the future).
        duration: New length in minutes.
        password: New passcode (at least 6 characters, letters and numbers).
        agenda: New description.
        waiting_room: Waiting room on or off.
        join_before_host: Join before host on or off.
        jbh_time: Minutes before the start participants may join (0 = any time).
        mute_upon_entry: Mute on entry on or off.
        approval_type: Registration: 0 automatic, 1 manual approval, 2 none.
        auto_recording: none, local or cloud.
        alternative_hosts: The full new list of alternative hosts' emails (empty list: none).
    """
    meeting = owned_meeting(db, meeting_id)
    upcoming = scheduling.upcoming_occurrences(db, meeting_id)
    rules.check_updatable(db, meeting, upcoming)
    host = db.get(users, meeting["host_id"])
    start = rules.moment(start_time, "start_time") if start_time is not None else None
    if start is not None:
        rules.check_future(db, start)
    if occurrence_id is not None:
        if any(
            v is not None
            for v in (
                topic,
                password,
                agenda,
                waiting_room,
                join_before_host,
                jbh_time,
                mute_upon_entry,
                approval_type,
                auto_recording,
                alternative_hosts,
            )
        ):
            raise invalid("Only start_time and duration can be changed for a single occurrence.")
        occurrence = scheduling.occurrence_of(db, meeting_id, occurrence_id)
        if occurrence["start_time"] <= db.now_iso():
            raise conflict(3000, "Cannot update an occurrence that has already started.")
        rules.check_host_limits(host, meeting["type"], duration or occurrence["duration"], meeting["settings"])
        db.update(
            occurrences,
            occurrence["key"],
            start_time=rules.iso(start) if start else occurrence["start_time"],
            duration=duration or occurrence["duration"],
        )
        return scheduling.full_meeting(db, meeting)
    if start is not None and meeting["type"] in (rules.INSTANT, rules.RECURRING_NO_FIXED_TIME):
        raise invalid("start_time only applies to scheduled and recurring meetings with a fixed time.")
    settings = scheduling.merged_settings(
        meeting["settings"],
        waiting_room=waiting_room,
        join_before_host=join_before_host,
        jbh_time=jbh_time,
        mute_upon_entry=mute_upon_entry,
        approval_type=approval_type,
        auto_recording=auto_recording,
        alternative_hosts=";".join(_alternative_hosts(db, alternative_hosts, host))
        if alternative_hosts is not None
        else None,
    )
    if waiting_room and join_before_host is None:
        settings["join_before_host"] = False
    rules.check_settings(settings)
    new_duration = duration or meeting["duration"]
    rules.check_host_limits(host, meeting["type"], new_duration, settings)
    if password is not None:
        rules.check_passcode(password)
    row = db.update(
        meetings,
        meeting_id,
        topic=topic or meeting["topic"],
        start_time=rules.iso(start) if start else meeting["start_time"],
        duration=new_duration,
        password=password or meeting["password"],
        agenda=agenda if agenda is not None else meeting["agenda"],
        settings=settings,
    )
    if meeting["type"] == rules.RECURRING and (start is not None or duration is not None):
        if start is not None:
            scheduling.lay_out_occurrences(db, row)
        else:
            for occ in upcoming:
                db.update(occurrences, occ["key"], duration=new_duration)
    if approval_type == rules.NO_REGISTRATION:
        for registrant in db.find(registrants, meeting_id=meeting_id):
            db.delete(registrants, registrant["id"])
    return scheduling.full_meeting(db, row)


@tool()
def delete_meeting(
    db: Database,
    meeting_id: MeetingId,
    occurrence_id: OccurrenceId | None = None,
    cancel_meeting_reminder: bool = False,
) -> Deleted:
    """Delete a meeting, or with occurrence_id one occurrence of a recurring meeting (DELETE /meetings/{meetingId}).
    Deleting the meeting removes its registrants; its cloud recordings stay.

    Args:
        meeting_id: The meeting number.
        occurrence_id: Delete only this occurrence.
        cancel_meeting_reminder: Email the registrants and alternative hosts that it was cancelled.
    """
    meeting = owned_meeting(db, meeting_id)
    if occurrence_id is not None:
        occurrence = scheduling.occurrence_of(db, meeting_id, occurrence_id)
        db.update(occurrences, occurrence["key"], status="deleted")
        return Deleted(id=meeting_id, occurrence_id=occurrence["occurrence_id"], deleted=True)
    if meeting["status"] == "started":
        raise conflict(3000, "Cannot delete a meeting that is in progress. End it first.")
    for registrant in db.find(registrants, meeting_id=meeting_id):
        db.delete(registrants, registrant["id"])
    for occurrence in db.find(occurrences, meeting_id=meeting_id):
        db.delete(occurrences, occurrence["key"])
    db.delete(meetings, meeting_id)
    return Deleted(id=meeting_id, occurrence_id=None, deleted=True)


# ---------------------------------------------------------------- registrants


@tool(read_only=True)
def list_registrants(
    db: Database,
    meeting_id: MeetingId,
    status: Literal["pending", "approved", "denied"] = "approved",
    page_size: PageSize = 30,
    next_page_token: str | None = None,
) -> RegistrantList:
    """List a meeting's registrants with one status (GET /meetings/{meetingId}/registrants).

    Args:
        meeting_id: The meeting number.
        status: pending, approved (default) or denied.
        page_size: Registrants per page, 1 to 300.
        next_page_token: The token from the previous page.
    """
    _registration_meeting(db, meeting_id)
    rows = db.find(registrants, meeting_id=meeting_id, status=status, order_by=[registrants.c.last_name])
    page = paginate(rows, page_size, next_page_token, max_page_size=300)
    return RegistrantList(
        registrants=[registrant_object(r) for r in page.results],
        total_records=len(rows),
        next_page_token=_next(page.next_cursor),
    )


def _registration_meeting(db: Database, meeting_id: int) -> dict:
    meeting = owned_meeting(db, meeting_id)
    if meeting["settings"]["approval_type"] == rules.NO_REGISTRATION:
        raise invalid(f"Registration has not been enabled for this meeting: {meeting_id}.")
    return meeting


@tool()
def add_registrant(
    db: Database,
    meeting_id: MeetingId,
    email: Email,
    first_name: text(64),
    last_name: text(64) | None = None,
    org: text(100) | None = None,
) -> Registrant:
    """Register someone for a meeting (POST /meetings/{meetingId}/registrants): approved at once when the meeting
    approves automatically, pending when the host approves by hand. An email registers once per meeting.

    Args:
        meeting_id: The meeting number.
        email: Their email.
        first_name: First name.
        last_name: Last name.
        org: Their organisation.
    """
    meeting = _registration_meeting(db, meeting_id)
    rules.check_updatable(db, meeting, scheduling.upcoming_occurrences(db, meeting_id))
    wanted = email.strip().lower()
    if db.find(registrants, meeting_id=meeting_id, email=wanted):
        raise conflict(3027, f"{wanted} has already registered for this meeting.")
    status = "approved" if meeting["settings"]["approval_type"] == 0 else "pending"
    row = db.insert(
        registrants,
        id=rules.instance_uuid(f"registrant:{meeting_id}:{wanted}")[:22].replace("+", "x").replace("/", "y"),
        meeting_id=meeting_id,
        email=wanted,
        first_name=first_name,
        last_name=last_name or "",
        org=org,
        status=status,
        create_time=db.now_iso(),
    )
    return registrant_object(row)


@tool()
def update_registrant_status(
    db: Database,
    meeting_id: MeetingId,
    action: Literal["approve", "deny", "cancel"],
    registrant_ids: Annotated[list[NonBlankText], Unordered, Field(min_length=1, max_length=30)],
) -> RegistrantStatusResult:
    """Approve, deny or cancel registrations (PUT /meetings/{meetingId}/registrants/status): approve pending or
    denied registrants, deny pending ones, cancel approved ones (they end denied and lose their join link). All or
    nothing: one registrant in the wrong status fails the whole call.

    Args:
        meeting_id: The meeting number.
        action: approve, deny or cancel.
        registrant_ids: The registrants' ids (or emails).
    """
    _registration_meeting(db, meeting_id)
    allowed = {"approve": ("pending", "denied"), "deny": ("pending",), "cancel": ("approved",)}[action]
    changed = []
    for key in registrant_ids:
        found = db.find(registrants, meeting_id=meeting_id, id=key.strip()) or db.find(
            registrants, meeting_id=meeting_id, email=key.strip().lower()
        )
        if not found:
            raise invalid(f"Registrant does not exist: {key}.")
        if found[0]["status"] not in allowed:
            raise conflict(
                3000, f"Can't {action} registrant {found[0]['email']}: their status is {found[0]['status']}."
            )
        changed.append(db.update(registrants, found[0]["id"], status="approved" if action == "approve" else "denied"))
    return RegistrantStatusResult(action=action, registrants=[registrant_object(r) for r in changed])


# ---------------------------------------------------------------- cloud recordings


@tool(read_only=True)
def list_recordings(
    db: Database,
    user_id: UserKey = "me",
    from_date: IsoDate | None = None,
    to_date: IsoDate | None = None,
    trash: bool = False,
    page_size: PageSize = 30,
    next_page_token: str | None = None,
) -> RecordingList:
    """List a user's cloud recordings, newest first (GET /users/{userId}/recordings). By default the last 30 days and
    the files not in the trash; with trash=true, the files in the trash.

    Args:
        user_id: The host's id or email, or `me`.
        from_date: From this date (default: 30 days ago).
        to_date: Up to this date (default: today).
        trash: List what is in the trash instead.
        page_size: Recordings per page, 1 to 300.
        next_page_token: The token from the previous page.
    """
    host = acting_for(db, user_id)
    start = from_date or (db.now() - timedelta(days=30)).strftime("%Y-%m-%d")
    end = to_date or db.now().strftime("%Y-%m-%d")
    rows = db.select(
        recordings,
        "host_id = ? AND substr(start_time, 1, 10) BETWEEN ? AND ?",
        [host["id"], start, end],
        order_by="start_time DESC",
    )
    status = "trashed" if trash else "completed"
    shown = [v for v in (scheduling.recording_view(db, r, status) for r in rows) if v.recording_files]
    page = paginate(shown, page_size, next_page_token, max_page_size=300)
    return RecordingList(meetings=page.results, total_records=len(shown), next_page_token=_next(page.next_cursor))


@tool(read_only=True)
def get_meeting_recordings(db: Database, meeting_id: NonBlankText) -> Recording:
    """Get a meeting instance's cloud recording with all its files, trashed ones included
    (GET /meetings/{meetingId}/recordings).

    Args:
        meeting_id: The instance's UUID, or the meeting number for its latest recorded instance.
    """
    row = scheduling.recording_by_key(db, meeting_id)
    acting_for(db, row["host_id"])
    return scheduling.recording_view(db, row)


@tool()
def delete_meeting_recordings(
    db: Database,
    meeting_id: NonBlankText,
    recording_id: NonBlankText | None = None,
    action: Literal["trash", "delete"] = "trash",
) -> Recording:
    """Delete a meeting instance's cloud recording, or with recording_id one file of it
    (DELETE /meetings/{meetingId}/recordings[/{recordingId}]): `trash` moves it to the trash for 30 days, `delete`
    removes it for good (trashed files too).

    Args:
        meeting_id: The instance's UUID, or the meeting number for its latest recorded instance.
        recording_id: Only this file.
        action: trash (default) or delete for good.
    """
    row = scheduling.recording_by_key(db, meeting_id)
    acting_for(db, row["host_id"])
    files = scheduling.files_of(db, row["uuid"])
    if recording_id is not None:
        files = [f for f in files if f["id"] == recording_id.strip()]
        if not files:
            raise no_recording()
    if action == "trash":
        files = [f for f in files if f["status"] == "completed"]
        if not files:
            raise conflict(3303, "The recording is already in the trash.")
        for f in files:
            db.update(recording_files, f["id"], status="trashed", trashed_at=db.now_iso())
    else:
        for f in files:
            db.delete(recording_files, f["id"])
        if not scheduling.files_of(db, row["uuid"]):
            db.delete(recordings, row["uuid"])
            return recording_object(row, [])
    return scheduling.recording_view(db, row)


@tool()
def recover_meeting_recordings(
    db: Database, meeting_id: NonBlankText, recording_id: NonBlankText | None = None
) -> Recording:
    """Restore a meeting instance's trashed cloud recording files, or with recording_id one of them
    (PUT /meetings/{meetingId}/recordings/status, action recover). Files stay in the trash for 30 days; after that
    they can't be recovered.

    Args:
        meeting_id: The instance's UUID, or the meeting number for its latest recorded instance.
        recording_id: Only this file.
    """
    row = scheduling.recording_by_key(db, meeting_id)
    acting_for(db, row["host_id"])
    files = scheduling.files_of(db, row["uuid"], "trashed")
    if recording_id is not None:
        files = [f for f in files if f["id"] == recording_id.strip()]
    if not files:
        raise conflict(3303, "There is nothing in the trash to recover for this recording.")
    cutoff = rules.iso(db.now() - timedelta(days=rules.TRASH_DAYS))
    if any(f["trashed_at"] < cutoff for f in files):
        raise conflict(3303, f"Recordings can only be recovered within {rules.TRASH_DAYS} days of deletion.")
    for f in files:
        db.update(recording_files, f["id"], status="completed", trashed_at=None)
    return scheduling.recording_view(db, row)


# ---------------------------------------------------------------- webinars


@tool(read_only=True)
def list_webinars(
    db: Database, user_id: UserKey = "me", page_size: PageSize = 30, next_page_token: str | None = None
) -> WebinarList:
    """List a user's upcoming webinars by start time (GET /users/{userId}/webinars).

    Args:
        user_id: The host's id or email, or `me`.
        page_size: Webinars per page, 1 to 300.
        next_page_token: The token from the previous page.
    """
    host = acting_for(db, user_id)
    rows = db.select(webinars, "host_id = ? AND start_time > ?", [host["id"], db.now_iso()], order_by="start_time")
    page = paginate(rows, page_size, next_page_token, max_page_size=300)
    return WebinarList(
        webinars=[webinar_object(r) for r in page.results],
        total_records=len(rows),
        next_page_token=_next(page.next_cursor),
    )


@tool()
def create_webinar(
    db: Database,
    topic: Topic,
    start_time: IsoTimestamp,
    user_id: UserKey = "me",
    duration: Duration = 60,
    agenda: Agenda = "",
    approval_type: ApprovalType = 2,
) -> Webinar:
    """Schedule a webinar (POST /users/{userId}/webinars). The host must be a Licensed user holding the webinar
    add-on; the start must be in the future.

    Args:
        topic: The webinar's topic.
        start_time: Its start, e.g. 2026-03-20T14:00:00Z.
        user_id: The host's id or email, or `me`.
        duration: Minutes.
        agenda: Description.
        approval_type: Registration: 0 automatic, 1 manual approval, 2 none.
    """
    host = acting_for(db, user_id)
    if host["type"] != rules.LICENSED or not host["webinar"]:
        raise forbidden(f"Webinar plan is missing: {host['email']} needs a Licensed seat with the webinar add-on.")
    start = rules.moment(start_time, "start_time")
    rules.check_future(db, start)
    number = scheduling.new_number(db, "webinars")
    row = db.insert(
        webinars,
        id=number,
        uuid=rules.instance_uuid(f"webinar:{number}"),
        host_id=host["id"],
        topic=topic,
        start_time=rules.iso(start),
        duration=duration,
        agenda=agenda,
        approval_type=approval_type,
        created_at=db.now_iso(),
    )
    return webinar_object(row)


@tool(read_only=True)
def list_panelists(db: Database, webinar_id: WebinarId) -> PanelistList:
    """List a webinar's panelists (GET /webinars/{webinarId}/panelists).

    Args:
        webinar_id: The webinar number.
    """
    owned_webinar(db, webinar_id)
    return _panelists(db, webinar_id)


@tool()
def add_panelists(
    db: Database,
    webinar_id: WebinarId,
    panelists_to_add: Annotated[list[NewPanelist], Field(min_length=1, max_length=30)],
) -> PanelistList:
    """Invite panelists to a webinar (POST /webinars/{webinarId}/panelists); a webinar has at most 100. The host
    can't be a panelist, and an email is invited once.

    Args:
        webinar_id: The webinar number.
        panelists_to_add: Each panelist's name and email.
    """
    webinar = owned_webinar(db, webinar_id)
    if webinar["start_time"] <= db.now_iso():
        raise conflict(3000, "Cannot update a webinar that has already started.")
    host_email = db.get(users, webinar["host_id"])["email"]
    existing = {p["email"] for p in db.find(panelists, webinar_id=webinar_id)}
    if len(existing) + len(panelists_to_add) > 100:
        raise invalid("A webinar can have at most 100 panelists.")
    for person in panelists_to_add:
        email = person.email.strip().lower()
        if email == host_email:
            raise invalid("The webinar's host can't be added as a panelist.")
        if email in existing:
            raise conflict(3027, f"{email} is already a panelist of this webinar.")
        existing.add(email)
        db.insert(
            panelists,
            id=rules.instance_uuid(f"panelist:{webinar_id}:{email}")[:22].replace("+", "x").replace("/", "y"),
            webinar_id=webinar_id,
            name=person.name.strip(),
            email=email,
        )
    return _panelists(db, webinar_id)


def _panelists(db: Database, webinar_id: int) -> PanelistList:
    rows = db.find(panelists, webinar_id=webinar_id, order_by=[panelists.c.name])
    return PanelistList(
        panelists=[Panelist(**{k: r[k] for k in Panelist.model_fields}) for r in rows], total_records=len(rows)
    )


@tool()
def remove_panelist(db: Database, webinar_id: WebinarId, panelist_id: NonBlankText) -> PanelistList:
    """Remove one panelist from a webinar (DELETE /webinars/{webinarId}/panelists/{panelistId}).

    Args:
        webinar_id: The webinar number.
        panelist_id: The panelist's id (or email).
    """
    owned_webinar(db, webinar_id)
    found = db.find(panelists, webinar_id=webinar_id, id=panelist_id.strip()) or db.find(
        panelists, webinar_id=webinar_id, email=panelist_id.strip().lower()
    )
    if not found:
        raise invalid(f"Panelist does not exist: {panelist_id}.")
    db.delete(panelists, found[0]["id"])
    return _panelists(db, webinar_id)
