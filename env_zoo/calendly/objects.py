"""Calendly's resources as output models (user, membership, event type, availability schedule, available time,
scheduled event with its cancellation, invitee, no-show, routing form and submission) and how rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from .schema import event_types, invitee_no_shows, invitees, organizations, scheduled_events, users


class UserObject(BaseModel):
    """A Calendly user."""

    uuid: str
    name: str
    email: str
    slug: str
    scheduling_url: str
    timezone: str
    current_organization: str
    organization_name: str
    role: str


class MembershipObject(BaseModel):
    """A user's membership of the organization."""

    user: str
    name: str
    email: str
    role: str


class ScheduleRule(BaseModel):
    """One availability rule: a weekday's hours or a date override (no intervals = unavailable)."""

    type: str
    wday: str | None = None
    date: str | None = None
    intervals: list[dict[str, str]]


class ScheduleObject(BaseModel):
    """A user availability schedule."""

    uuid: str
    name: str
    user: str
    default: bool
    timezone: str
    rules: list[ScheduleRule]


class EventTypeObject(BaseModel):
    """An event type: the kind of meeting invitees book."""

    uuid: str
    name: str
    slug: str
    scheduling_url: str
    owner: str
    owner_name: str
    kind: str
    duration: int
    active: bool
    buffer_before: int
    buffer_after: int
    min_booking_notice: int
    max_events_per_day: int | None
    max_invitees: int
    schedule: str
    location_kind: str
    location: str | None
    description: str


class AvailableTime(BaseModel):
    """An open start time of an event type."""

    status: str
    start_time: str
    invitees_remaining: int
    scheduling_url: str


class Cancellation(BaseModel):
    """Who canceled and why."""

    canceled_by: str
    reason: str | None
    canceler_type: str


class EventObject(BaseModel):
    """A scheduled event (a booked meeting)."""

    uuid: str
    name: str
    status: str
    start_time: str
    end_time: str
    event_type: str
    host: str
    host_name: str
    location_kind: str
    location: str | None
    invitees_active: int
    invitees_limit: int
    cancellation: Cancellation | None


class NoShowObject(BaseModel):
    """An invitee marked as a no-show."""

    uuid: str
    invitee: str
    created_at: str


class InviteeObject(BaseModel):
    """An invitee of a scheduled event."""

    uuid: str
    event: str
    name: str
    email: str
    timezone: str
    status: str
    questions_and_answers: list[dict[str, str]]
    rescheduled: bool
    old_invitee: str | None
    new_invitee: str | None
    cancellation: Cancellation | None
    no_show: NoShowObject | None
    routing_form_submission: str | None


class RoutingFormObject(BaseModel):
    """A routing form: questions, and routes from answers to event types."""

    uuid: str
    name: str
    status: str
    questions: list[dict[str, Any]]
    routes: list[dict[str, str]]
    fallback_event_type: str | None


class SubmissionObject(BaseModel):
    """A routing form submission."""

    uuid: str
    routing_form: str
    submitter_name: str
    submitter_email: str
    questions_and_answers: list[dict[str, str]]
    routed_event_type: str | None
    booked_event: str | None
    created_at: str


def user_object(db: Database, row: dict[str, Any]) -> UserObject:
    """A user row as the API shows it."""
    org = db.get(organizations, row["organization"], "Organization")
    return UserObject(
        uuid=row["uuid"],
        name=row["name"],
        email=row["email"],
        slug=row["slug"],
        scheduling_url=f"https://calendly.com/{row['slug']}",
        timezone=row["timezone"],
        current_organization=org["uuid"],
        organization_name=org["name"],
        role=row["role"],
    )


def event_type_object(db: Database, row: dict[str, Any]) -> EventTypeObject:
    """An event type row as the API shows it."""
    owner = db.get(users, row["owner"], "User")
    fields = {k: row[k] for k in EventTypeObject.model_fields if k in row}
    return EventTypeObject(
        **fields, owner_name=owner["name"], scheduling_url=f"https://calendly.com/{owner['slug']}/{row['slug']}"
    )


def _cancellation(row: dict[str, Any]) -> Cancellation | None:
    if row["status"] != "canceled":
        return None
    return Cancellation(
        canceled_by=row["canceled_by"] or "",
        reason=row["cancel_reason"],
        canceler_type=row.get("canceler_type") or "host",
    )


def event_object(db: Database, row: dict[str, Any]) -> EventObject:
    """A scheduled event row as the API shows it."""
    host = db.get(users, row["host"], "User")
    etype = db.get(event_types, row["event_type"], "Event type")
    active = len(db.select(invitees, "event = ? AND status = 'active'", (row["uuid"],)))
    return EventObject(
        uuid=row["uuid"],
        name=row["name"],
        status=row["status"],
        start_time=row["start_time"],
        end_time=row["end_time"],
        event_type=row["event_type"],
        host=row["host"],
        host_name=host["name"],
        location_kind=row["location_kind"],
        location=row["location"],
        invitees_active=active,
        invitees_limit=etype["max_invitees"],
        cancellation=_cancellation(row),
    )


def invitee_object(db: Database, row: dict[str, Any]) -> InviteeObject:
    """An invitee row as the API shows it, with its no-show mark if any."""
    marks = db.find(invitee_no_shows, invitee=row["uuid"])
    event = db.get(scheduled_events, row["event"], "Scheduled event")
    cancellation = None
    if row["status"] == "canceled":
        cancellation = Cancellation(
            canceled_by=row["canceled_by"] or "",
            reason=row["cancel_reason"],
            canceler_type=(event["canceler_type"] if event["status"] == "canceled" else None) or "invitee",
        )
    return InviteeObject(
        uuid=row["uuid"],
        event=row["event"],
        name=row["name"],
        email=row["email"],
        timezone=row["timezone"],
        status=row["status"],
        questions_and_answers=row["questions_and_answers"],
        rescheduled=row["rescheduled"],
        old_invitee=row["old_invitee"],
        new_invitee=row["new_invitee"],
        cancellation=cancellation,
        no_show=NoShowObject(**{k: marks[0][k] for k in ("uuid", "invitee", "created_at")}) if marks else None,
        routing_form_submission=row["routing_form_submission"],
    )
