"""Calendly API tools for a signed-in member of an organization: who they are and who is in the organization,
event types and their open times, availability schedules, scheduled events and invitees, booking on someone's
behalf, cancelling, rescheduling, no-shows, creating and editing event types, and routing forms."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, PermissionDenied, paginate, tool
from envfactory_gym.fields import ErrorText, IsoDate, IsoTimestamp, NonBlankText, bounded, page_size, text
from envfactory_gym.values import iso_timestamp, parse_date, parse_timestamp

from . import rules
from .objects import (
    AvailableTime,
    EventObject,
    EventTypeObject,
    InviteeObject,
    MembershipObject,
    NoShowObject,
    RoutingFormObject,
    ScheduleObject,
    SubmissionObject,
    UserObject,
    event_object,
    event_type_object,
    invitee_object,
    user_object,
)
from .schema import (
    access_tokens,
    availability_schedules,
    event_types,
    invitee_no_shows,
    invitees,
    routing_form_submissions,
    routing_forms,
    scheduled_events,
    sessions,
    users,
)

Uuid = Annotated[str, Field(min_length=4, max_length=40, pattern=r"^[A-Z]{2,4}\d{4,}$"), ErrorText("Invalid uuid.")]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$"), ErrorText("Invalid email address.")]
Minutes = bounded(0, 720)
Duration = Annotated[int, Field(ge=5, le=720), ErrorText("duration must be between 5 and 720 minutes.")]
Notice = Annotated[int, Field(ge=0, le=43200), ErrorText("min_booking_notice must be 0 to 43200 minutes.")]
DailyLimit = bounded(1, 50)
Reason = Annotated[str, Field(max_length=10000)]
LocationKind = Literal["zoom_conference", "google_conference", "physical", "outbound_call"]
PageSize = page_size(100)


# ---------------------------------------------------------------- the user


@tool(user_only=True)
def sign_in(db: Database, token: NonBlankText) -> UserObject:
    """(User only) The user gives the assistant a personal access token; the assistant then acts as that user.

    Args:
        token: The personal access token.
    """
    found = db.find(access_tokens, token=token.strip())
    if not found:
        raise PermissionDenied("Unauthenticated: the access token is invalid.")
    db.start_session(sessions, user=found[0]["user"])
    return user_object(db, db.get(users, found[0]["user"], "User"))


@tool(read_only=True)
def get_current_user(db: Database) -> UserObject:
    """The signed-in user, with their organization and role (GET /users/me)."""
    return user_object(db, rules.me(db))


@tool(read_only=True)
def list_organization_memberships(
    db: Database, email: Email | None = None, name: text(100) | None = None
) -> list[MembershipObject]:
    """The members of the signed-in user's organization with their roles, optionally one email or a name part.

    Args:
        email: Only the member with this email.
        name: Part of the member's name.
    """
    org = rules.me(db)["organization"]
    rows = db.find(users, organization=org)
    if email is not None:
        rows = [r for r in rows if r["email"] == email.lower()]
    if name is not None:
        rows = [r for r in rows if name.strip().lower() in r["name"].lower()]
    return [MembershipObject(user=r["uuid"], name=r["name"], email=r["email"], role=r["role"]) for r in rows]


# ---------------------------------------------------------------- event types and availability


@tool(read_only=True)
def list_event_types(
    db: Database, user: Uuid | None = None, active: bool | None = None, name: text(100) | None = None
) -> list[EventTypeObject]:
    """A user's event types (the signed-in user's when no user is given), sorted by name.

    Args:
        user: The owner's uuid, from list_organization_memberships.
        active: Only active (true) or inactive (false) event types.
        name: Part of the event type's name.
    """
    owner = user or rules.me(db)["uuid"]
    if user is not None:
        rules.me(db)
    rows = db.find(event_types, owner=owner)
    if active is not None:
        rows = [r for r in rows if r["active"] == active]
    if name is not None:
        rows = [r for r in rows if name.strip().lower() in r["name"].lower()]
    return [event_type_object(db, r) for r in sorted(rows, key=lambda r: (r["name"], r["uuid"]))]


@tool(read_only=True)
def get_event_type(db: Database, uuid: Uuid) -> EventTypeObject:
    """One event type: duration, buffers, minimum notice, daily limit, seats, schedule and location.

    Args:
        uuid: The event type's uuid.
    """
    return event_type_object(db, rules.event_type(db, uuid))


@tool(read_only=True)
def list_event_type_available_times(
    db: Database,
    event_type: Uuid,
    start_date: IsoDate,
    days: Annotated[int, Field(ge=1, le=7), ErrorText("The date range can be at most 7 days.")] = 7,
) -> list[AvailableTime]:
    """The open start times of an event type over up to 7 days (dates in its schedule's time zone), after the
    schedule, date overrides, minimum notice, buffers around the host's other meetings, the daily limit and seats.

    Args:
        event_type: The event type's uuid.
        start_date: First date, YYYY-MM-DD.
        days: How many days from start_date (1-7).
    """
    etype = rules.event_type(db, event_type)
    if not etype["active"]:
        return []
    first = parse_date(start_date, "start_date", example="2026-06-10")
    owner = db.get(users, etype["owner"], "User")
    url = f"https://calendly.com/{owner['slug']}/{etype['slug']}"
    return [
        AvailableTime(status="available", start_time=iso_timestamp(start), invitees_remaining=seats, scheduling_url=url)
        for start, seats in rules.open_times(db, etype, first, days)
    ]


@tool(read_only=True)
def list_user_availability_schedules(db: Database, user: Uuid | None = None) -> list[ScheduleObject]:
    """A user's availability schedules (the signed-in user's when no user is given): weekly hours and date
    overrides in the schedule's time zone.

    Args:
        user: The user's uuid.
    """
    owner = user or rules.me(db)["uuid"]
    if user is not None:
        rules.me(db)
    return [ScheduleObject(**r) for r in db.find(availability_schedules, user=owner)]


@tool()
def create_event_type(
    db: Database,
    name: text(55),
    duration: Duration,
    location_kind: LocationKind = "zoom_conference",
    location: text(200) | None = None,
    description: text(1000, 0) = "",
    schedule: Uuid | None = None,
) -> EventTypeObject:
    """Create a one-on-one event type for the signed-in user, active, on their default schedule unless another
    of their schedules is given; no buffers, no minimum notice and no daily limit until set.

    Args:
        name: Its name, e.g. "Project kickoff".
        duration: Length in minutes.
        location_kind: zoom_conference, google_conference, physical or outbound_call.
        location: The address for a physical meeting.
        description: What invitees see.
        schedule: One of the user's availability schedules.
    """
    user = rules.me(db)
    if location_kind == "physical" and not location:
        raise InvalidRequest("location is required for a physical location.")
    schedules = db.find(availability_schedules, user=user["uuid"])
    chosen = [s for s in schedules if (s["uuid"] == schedule if schedule else s["default"])]
    if not chosen:
        raise InvalidRequest(f"Availability schedule {schedule} is not one of yours.")
    slug = "-".join(name.lower().split())
    if db.find(event_types, owner=user["uuid"], slug=slug):
        raise Conflict(f"You already have an event type with the URL slug {slug}.")
    now = db.now_iso()
    row = db.insert(
        event_types,
        uuid=db.new_id(event_types, "ET", 4),
        owner=user["uuid"],
        name=name.strip(),
        slug=slug,
        kind="solo",
        duration=duration,
        active=True,
        buffer_before=0,
        buffer_after=0,
        min_booking_notice=0,
        max_events_per_day=None,
        max_invitees=1,
        schedule=chosen[0]["uuid"],
        location_kind=location_kind,
        location=location,
        description=description,
        created_at=now,
        updated_at=now,
    )
    return event_type_object(db, row)


@tool()
def update_event_type(
    db: Database,
    uuid: Uuid,
    name: text(55) | None = None,
    duration: Duration | None = None,
    active: bool | None = None,
    buffer_before: Minutes | None = None,
    buffer_after: Minutes | None = None,
    min_booking_notice: Notice | None = None,
    max_events_per_day: DailyLimit | None = None,
    clear_daily_limit: bool = False,
    schedule: Uuid | None = None,
) -> EventTypeObject:
    """Change an event type the signed-in user owns (admins and owners: any in the organization). Meetings
    already booked keep their times.

    Args:
        uuid: The event type's uuid.
        name: A new name.
        duration: Length in minutes.
        active: false turns the booking page off, true back on.
        buffer_before: Minutes kept free before each meeting.
        buffer_after: Minutes kept free after each meeting.
        min_booking_notice: Minutes ahead of the start a booking must be made.
        max_events_per_day: Most meetings of this type a day.
        clear_daily_limit: true removes the daily limit.
        schedule: Another availability schedule of the owner.
    """
    row = rules.event_type(db, uuid)
    rules.can_manage(db, row["owner"])
    changes = {
        k: v
        for k, v in {
            "name": name,
            "duration": duration,
            "active": active,
            "buffer_before": buffer_before,
            "buffer_after": buffer_after,
            "min_booking_notice": min_booking_notice,
            "max_events_per_day": max_events_per_day,
        }.items()
        if v is not None
    }
    if clear_daily_limit:
        if max_events_per_day is not None:
            raise InvalidRequest("Give max_events_per_day or clear_daily_limit, not both.")
        changes["max_events_per_day"] = None
    if schedule is not None:
        db.find_one(
            availability_schedules,
            not_found=f"Availability schedule {schedule} not found for the event type's owner.",
            uuid=schedule,
            user=row["owner"],
        )
        changes["schedule"] = schedule
    if not changes:
        raise InvalidRequest("Nothing to update: give at least one field.")
    return event_type_object(db, db.update(event_types, row["uuid"], **changes, updated_at=db.now_iso()))


# ---------------------------------------------------------------- scheduled events and invitees


@tool(read_only=True)
def list_scheduled_events(
    db: Database,
    user: Uuid | None = None,
    status: Literal["active", "canceled"] | None = None,
    min_start_time: IsoTimestamp | None = None,
    max_start_time: IsoTimestamp | None = None,
    invitee_email: Email | None = None,
    sort: Literal["start_time:asc", "start_time:desc"] = "start_time:asc",
    count: PageSize = 20,
    page_token: str | None = None,
) -> Page[EventObject]:
    """A user's scheduled events (the signed-in user's when no user is given), filtered by status, a start-time
    range and an invitee's email.

    Args:
        user: The host's uuid.
        status: active or canceled.
        min_start_time: Earliest start (inclusive), ISO timestamp.
        max_start_time: Latest start (exclusive), ISO timestamp.
        invitee_email: Only events with an invitee of this email.
        sort: start_time:asc or start_time:desc.
        count: Results per page.
        page_token: next_cursor of the previous page.
    """
    signed_in = rules.me(db)
    where, params = ["host = ?"], [user or signed_in["uuid"]]
    if status is not None:
        where.append("status = ?")
        params.append(status)
    if min_start_time is not None:
        where.append("start_time >= ?")
        params.append(iso_timestamp(parse_timestamp(min_start_time, "min_start_time")))
    if max_start_time is not None:
        where.append("start_time < ?")
        params.append(iso_timestamp(parse_timestamp(max_start_time, "max_start_time")))
    if invitee_email is not None:
        where.append("uuid IN (SELECT event FROM invitees WHERE email = ?)")
        params.append(invitee_email.lower())
    order = "start_time DESC" if sort.endswith("desc") else "start_time ASC"
    rows = db.select(scheduled_events, " AND ".join(where), params, order_by=order)
    return paginate([event_object(db, r) for r in rows], count, page_token)


@tool(read_only=True)
def get_scheduled_event(db: Database, uuid: Uuid) -> EventObject:
    """One scheduled event, with its cancellation when canceled.

    Args:
        uuid: The scheduled event's uuid.
    """
    return event_object(db, rules.scheduled_event(db, uuid))


@tool(read_only=True)
def list_event_invitees(
    db: Database, event: Uuid, status: Literal["active", "canceled"] | None = None, email: Email | None = None
) -> list[InviteeObject]:
    """The invitees of a scheduled event, with their answers, no-show marks and reschedule links.

    Args:
        event: The scheduled event's uuid.
        status: active or canceled.
        email: Only the invitee with this email.
    """
    row = rules.scheduled_event(db, event)
    found = db.find(invitees, event=row["uuid"])
    return [
        invitee_object(db, r)
        for r in found
        if (status is None or r["status"] == status) and (email is None or r["email"] == email.lower())
    ]


@tool()
def create_event_invitee(
    db: Database,
    event_type: Uuid,
    start_time: IsoTimestamp,
    name: text(100),
    email: Email,
    timezone: text(60) = "UTC",
    questions_and_answers: Annotated[list[dict[str, str]], Field(max_length=10)] | None = None,
    routing_form_submission: Uuid | None = None,
) -> InviteeObject:
    """Book a meeting on an event type for an invitee (the Scheduling API), at one of its open times; a group
    event already at that time gains a seat taken.

    Args:
        event_type: The event type's uuid.
        start_time: One of list_event_type_available_times' start times.
        name: The invitee's full name.
        email: The invitee's email.
        timezone: The invitee's IANA time zone.
        questions_and_answers: [{"question": ..., "answer": ...}] for the event type's questions.
        routing_form_submission: The routing form submission this booking comes from.
    """
    etype = rules.event_type(db, event_type)
    start = parse_timestamp(start_time, "start_time")
    rules.check_bookable(db, etype, start)
    answers = questions_and_answers or []
    if routing_form_submission is not None:
        db.find_one(
            routing_form_submissions,
            not_found=f"Routing form submission {routing_form_submission} not found.",
            uuid=routing_form_submission,
        )
    return _book(db, etype, start, name.strip(), email.lower(), timezone, answers, routing_form_submission)


def _book(
    db: Database,
    etype: dict,
    start: datetime,
    name: str,
    email: str,
    zone: str,
    answers: list[dict[str, str]],
    submission: str | None,
    old_invitee: str | None = None,
) -> InviteeObject:
    """Write the meeting (or a seat on the group event at that time) and its invitee."""
    start_text = iso_timestamp(start)
    now = db.now_iso()
    existing = db.select(
        scheduled_events, "event_type = ? AND status = 'active' AND start_time = ?", (etype["uuid"], start_text)
    )
    if etype["kind"] == "group" and existing:
        event = existing[0]
    else:
        event = db.insert(
            scheduled_events,
            uuid=db.new_id(scheduled_events, "SE", 4),
            event_type=etype["uuid"],
            host=etype["owner"],
            name=etype["name"],
            status="active",
            start_time=start_text,
            end_time=rules.end_of(etype, start),
            location_kind=etype["location_kind"],
            location=etype["location"],
            canceled_by=None,
            canceler_type=None,
            cancel_reason=None,
            created_at=now,
        )
    row = db.insert(
        invitees,
        uuid=db.new_id(invitees, "INV", 4),
        event=event["uuid"],
        name=name,
        email=email,
        timezone=zone,
        status="active",
        questions_and_answers=answers,
        rescheduled=False,
        old_invitee=old_invitee,
        new_invitee=None,
        canceled_by=None,
        cancel_reason=None,
        routing_form_submission=submission,
        created_at=now,
    )
    return invitee_object(db, row)


@tool()
def cancel_scheduled_event(db: Database, uuid: Uuid, reason: Reason | None = None) -> EventObject:
    """Cancel a scheduled event as its host (admins and owners: any in the organization); every invitee is
    canceled and notified. Past or canceled events can't be canceled.

    Args:
        uuid: The scheduled event's uuid.
        reason: The reason the invitees see.
    """
    event = rules.scheduled_event(db, uuid)
    user = rules.can_manage(db, event["host"])
    if event["status"] == "canceled":
        raise Conflict("Event is already canceled.")
    if event["start_time"] <= db.now_iso():
        raise Conflict("Event is in the past and can't be canceled.")
    for row in db.find(invitees, event=event["uuid"], status="active"):
        db.update(invitees, row["uuid"], status="canceled", canceled_by=user["name"], cancel_reason=reason)
    row = db.update(
        scheduled_events,
        event["uuid"],
        status="canceled",
        canceled_by=user["name"],
        canceler_type="host",
        cancel_reason=reason,
    )
    return event_object(db, row)


@tool()
def reschedule_invitee(
    db: Database, invitee: Uuid, start_time: IsoTimestamp, reason: Reason | None = None
) -> InviteeObject:
    """Move an invitee to another open time of the same event type: the old invitee is canceled as rescheduled
    (and their meeting, if no one else is on it), a new invitee is booked and the two are linked.

    Args:
        invitee: The invitee's uuid.
        start_time: The new start, one of the event type's open times.
        reason: The reason the invitee sees.
    """
    old = rules.invitee(db, invitee)
    event = db.get(scheduled_events, old["event"], "Scheduled event")
    user = rules.can_manage(db, event["host"])
    if old["status"] == "canceled":
        raise Conflict(f"Invitee {old['uuid']} is canceled and can't be rescheduled.")
    if event["start_time"] <= db.now_iso():
        raise Conflict("Event is in the past and can't be rescheduled.")
    etype = db.get(event_types, event["event_type"], "Event type")
    others = [r for r in db.find(invitees, event=event["uuid"], status="active") if r["uuid"] != old["uuid"]]
    start = parse_timestamp(start_time, "start_time")
    if start == parse_timestamp(event["start_time"], "start_time"):
        raise InvalidRequest("The new start time is the meeting's current start time.")
    rules.check_bookable(db, etype, start, skip=None if others else event["uuid"])
    new = _book(
        db,
        etype,
        start,
        old["name"],
        old["email"],
        old["timezone"],
        old["questions_and_answers"],
        old["routing_form_submission"],
        old_invitee=old["uuid"],
    )
    db.update(
        invitees,
        old["uuid"],
        status="canceled",
        rescheduled=True,
        new_invitee=new.uuid,
        canceled_by=user["name"],
        cancel_reason=reason,
    )
    if not others:
        db.update(
            scheduled_events,
            event["uuid"],
            status="canceled",
            canceled_by=user["name"],
            canceler_type="host",
            cancel_reason=reason,
        )
    return invitee_object(db, db.get(invitees, new.uuid, "Invitee"))


@tool()
def create_invitee_no_show(db: Database, invitee: Uuid) -> NoShowObject:
    """Mark an invitee as a no-show, once their meeting has started.

    Args:
        invitee: The invitee's uuid.
    """
    row = rules.invitee(db, invitee)
    event = db.get(scheduled_events, row["event"], "Scheduled event")
    rules.can_manage(db, event["host"])
    if row["status"] != "active":
        raise Conflict("A canceled invitee can't be marked as a no-show.")
    if event["start_time"] > db.now_iso():
        raise Conflict("The event hasn't started yet; an invitee can be marked as a no-show only after the start.")
    if db.find(invitee_no_shows, invitee=row["uuid"]):
        raise Conflict(f"Invitee {row['uuid']} is already marked as a no-show.")
    mark = db.insert(
        invitee_no_shows, uuid=db.new_id(invitee_no_shows, "NS", 4), invitee=row["uuid"], created_at=db.now_iso()
    )
    return NoShowObject(uuid=mark["uuid"], invitee=mark["invitee"], created_at=mark["created_at"])


@tool()
def delete_invitee_no_show(db: Database, uuid: Uuid) -> InviteeObject:
    """Undo a no-show mark.

    Args:
        uuid: The no-show's uuid (the invitee's no_show.uuid).
    """
    mark = db.find_one(invitee_no_shows, not_found=f"Invitee no show {uuid} not found.", uuid=uuid)
    row = rules.invitee(db, mark["invitee"])
    rules.can_manage(db, db.get(scheduled_events, row["event"], "Scheduled event")["host"])
    db.delete(invitee_no_shows, mark["uuid"])
    return invitee_object(db, row)


# ---------------------------------------------------------------- routing forms


@tool(read_only=True)
def list_routing_forms(db: Database) -> list[RoutingFormObject]:
    """The organization's routing forms with their questions and routes to event types."""
    org = rules.me(db)["organization"]
    return [
        RoutingFormObject(**{k: r[k] for k in RoutingFormObject.model_fields})
        for r in db.find(routing_forms, organization=org)
    ]


@tool(read_only=True)
def list_routing_form_submissions(
    db: Database, routing_form: Uuid, email: Email | None = None, count: PageSize = 20, page_token: str | None = None
) -> Page[SubmissionObject]:
    """A routing form's submissions, newest first: the answers, the event type they routed to and the meeting
    booked from them, if any.

    Args:
        routing_form: The routing form's uuid.
        email: Only submissions from this email.
        count: Results per page.
        page_token: next_cursor of the previous page.
    """
    form = db.find_one(routing_forms, not_found=f"Routing form {routing_form} not found.", uuid=routing_form)
    if form["organization"] != rules.me(db)["organization"]:
        raise PermissionDenied(rules.NO_PERMISSION)
    rows = db.select(routing_form_submissions, "routing_form = ?", (form["uuid"],), order_by="created_at DESC, uuid")
    if email is not None:
        rows = [r for r in rows if r["submitter_email"] == email.lower()]
    out = []
    for r in rows:
        booked = db.select(invitees, "routing_form_submission = ? AND status = 'active'", (r["uuid"],))
        fields = {k: r[k] for k in SubmissionObject.model_fields if k in r}
        out.append(SubmissionObject(**fields, booked_event=booked[0]["event"] if booked else None))
    return paginate(out, count, page_token)
