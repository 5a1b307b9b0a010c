"""Calendly's objects as tables: the organization and its members, their availability schedules and event
types, scheduled events with their invitees and no-shows, routing forms and their submissions, and the access
tokens and session of the signed-in user. Times are UTC ISO timestamps; schedules keep wall-clock hours in their
own IANA time zone."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

organizations = Table(
    "organizations",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("plan", String, nullable=False),  # basic | standard | teams | enterprise
)

users = Table(
    "users",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("slug", String, nullable=False),
    Column("timezone", String, nullable=False),
    Column("organization", String, ForeignKey("organizations.uuid"), nullable=False),
    Column("role", String, nullable=False),  # owner | admin | user
    Column("created_at", String, nullable=False),
)

access_tokens = Table(
    "access_tokens",
    metadata,
    Column("token", String, primary_key=True),
    Column("user", String, ForeignKey("users.uuid"), nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user", String, ForeignKey("users.uuid"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

availability_schedules = Table(
    "availability_schedules",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("user", String, ForeignKey("users.uuid"), nullable=False),
    Column("name", String, nullable=False),
    Column("default", Boolean, nullable=False),
    Column("timezone", String, nullable=False),
    # [{"type": "wday", "wday": "monday", "intervals": [{"from": "09:00", "to": "17:00"}]},
    #  {"type": "date", "date": "2026-06-19", "intervals": []}]
    Column("rules", JSON, nullable=False),
    Index("ix_schedules_user", "user"),
)

event_types = Table(
    "event_types",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("owner", String, ForeignKey("users.uuid"), nullable=False),
    Column("name", String, nullable=False),
    Column("slug", String, nullable=False),
    Column("kind", String, nullable=False),  # solo | group
    Column("duration", Integer, nullable=False),  # minutes
    Column("active", Boolean, nullable=False),
    Column("buffer_before", Integer, nullable=False),  # minutes kept free before
    Column("buffer_after", Integer, nullable=False),
    Column("min_booking_notice", Integer, nullable=False),  # minutes ahead a booking must be made
    Column("max_events_per_day", Integer, nullable=True),  # daily limit, None = no limit
    Column("max_invitees", Integer, nullable=False),  # 1 for solo; seats for group events
    Column("schedule", String, ForeignKey("availability_schedules.uuid"), nullable=False),
    Column("location_kind", String, nullable=False),  # zoom_conference | google_conference | physical | outbound_call
    Column("location", String, nullable=True),
    Column("description", Text, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
    Index("ix_event_types_owner", "owner"),
)

scheduled_events = Table(
    "scheduled_events",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("event_type", String, ForeignKey("event_types.uuid"), nullable=False),
    Column("host", String, ForeignKey("users.uuid"), nullable=False),
    Column("name", String, nullable=False),
    Column("status", String, nullable=False),  # active | canceled
    Column("start_time", String, nullable=False),
    Column("end_time", String, nullable=False),
    Column("location_kind", String, nullable=False),
    Column("location", String, nullable=True),
    Column("canceled_by", String, nullable=True),
    Column("canceler_type", String, nullable=True),  # host | invitee
    Column("cancel_reason", String, nullable=True, info={"volatile": True}),  # free text
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_events_host_start", "host", "start_time"),
    Index("ix_events_type", "event_type"),
)

invitees = Table(
    "invitees",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("event", String, ForeignKey("scheduled_events.uuid"), nullable=False),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    # the invitee's display zone and typed answers are free-form; scoring leaves them out
    Column("timezone", String, nullable=False, info={"volatile": True}),
    Column("status", String, nullable=False),  # active | canceled
    Column("questions_and_answers", JSON, nullable=False, info={"volatile": True}),
    Column("rescheduled", Boolean, nullable=False),
    Column("old_invitee", String, nullable=True),
    Column("new_invitee", String, nullable=True),
    Column("canceled_by", String, nullable=True),
    Column("cancel_reason", String, nullable=True, info={"volatile": True}),  # free text
    Column("routing_form_submission", String, nullable=True),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_invitees_event", "event"),
    Index("ix_invitees_email", "email"),
)

invitee_no_shows = Table(
    "invitee_no_shows",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("invitee", String, ForeignKey("invitees.uuid"), nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Index("ix_no_shows_invitee", "invitee"),
)

routing_forms = Table(
    "routing_forms",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("organization", String, ForeignKey("organizations.uuid"), nullable=False),
    Column("name", String, nullable=False),
    Column("status", String, nullable=False),  # published | draft
    Column("questions", JSON, nullable=False),  # [{"uuid", "name", "type", "required", "answer_choices"}]
    # [{"question": uuid, "answer": "...", "event_type": uuid}] first match wins; then "fallback_event_type"
    Column("routes", JSON, nullable=False),
    Column("fallback_event_type", String, nullable=True),
    Column("created_at", String, nullable=False),
)

routing_form_submissions = Table(
    "routing_form_submissions",
    metadata,
    Column("uuid", String, primary_key=True),
    Column("routing_form", String, ForeignKey("routing_forms.uuid"), nullable=False),
    Column("submitter_name", String, nullable=False),
    Column("submitter_email", String, nullable=False),
    Column("questions_and_answers", JSON, nullable=False),  # [{"question_uuid", "question", "answer"}]
    Column("routed_event_type", String, nullable=True),
    Column("created_at", String, nullable=False),
    Index("ix_submissions_form", "routing_form"),
)
