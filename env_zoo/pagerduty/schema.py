"""PagerDuty's objects as tables: users and teams, priorities, escalation policies and their rules, schedules with
layers and overrides, services with integrations, maintenance windows, incidents with alerts, notes and log entries.
Times are ISO 8601 UTC strings; lists of ids are JSON."""

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),  # PXXXXXX
    Column("name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    # owner | admin | user (Manager) | limited_user (Responder) | restricted_access | observer | read_only_user
    Column("role", String, nullable=False),
    Column("job_title", String),
    Column("time_zone", String, nullable=False),
)

teams = Table(
    "teams",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    Column("description", String),
)

team_members = Table(
    "team_members",
    metadata,
    Column("team_id", String, ForeignKey("teams.id"), primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), primary_key=True),
    Column("role", String, nullable=False),  # manager | responder | observer
)

priorities = Table(
    "priorities",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),  # P1 ... P5
    Column("description", String, nullable=False),
    Column("order", Integer, nullable=False),  # higher is more severe
)

escalation_policies = Table(
    "escalation_policies",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    Column("description", String),
    Column("num_loops", Integer, nullable=False, default=0),
    Column("on_call_handoff_notifications", String, nullable=False),  # if_has_services | always
    Column("teams", JSON, nullable=False),  # [team id]
)

escalation_rules = Table(
    "escalation_rules",
    metadata,
    Column("id", String, primary_key=True),
    Column("escalation_policy_id", String, ForeignKey("escalation_policies.id"), nullable=False),
    Column("position", Integer, nullable=False),  # level 1, 2, ...
    Column("escalation_delay_in_minutes", Integer, nullable=False),
    Column("targets", JSON, nullable=False),  # [{"id", "type": user_reference | schedule_reference}]
)

schedules = Table(
    "schedules",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    Column("description", String),
    Column("time_zone", String, nullable=False),
    Column("teams", JSON, nullable=False),
)

schedule_layers = Table(
    "schedule_layers",
    metadata,
    Column("id", String, primary_key=True),
    Column("schedule_id", String, ForeignKey("schedules.id"), nullable=False),
    Column("position", Integer, nullable=False),  # a higher layer wins where it has someone on call
    Column("name", String, nullable=False),
    Column("start", String, nullable=False),
    Column("end", String),
    Column("rotation_virtual_start", String, nullable=False),
    Column("rotation_turn_length_seconds", Integer, nullable=False),
    Column("users", JSON, nullable=False),  # [user id] in rotation order
    # [{"type": daily_restriction | weekly_restriction, "start_time_of_day", "duration_seconds", "start_day_of_week"}]
    Column("restrictions", JSON, nullable=False),
)

schedule_overrides = Table(
    "schedule_overrides",
    metadata,
    Column("id", String, primary_key=True),
    Column("schedule_id", String, ForeignKey("schedules.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("start", String, nullable=False),
    Column("end", String, nullable=False),
    Column("ended_early", Boolean, nullable=False, default=False),  # removed while it was running
    Column("ended_at", String, info={"volatile": True}),
)

services = Table(
    "services",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    Column("description", String),
    Column("status", String, nullable=False),  # active | disabled (warning, critical, maintenance are derived)
    Column("escalation_policy_id", String, ForeignKey("escalation_policies.id"), nullable=False),
    Column("acknowledgement_timeout", Integer),  # seconds
    Column("auto_resolve_timeout", Integer),  # seconds
    # {"type": constant, "urgency"} | {"type": use_support_hours, "during_support_hours", "outside_support_hours"}
    # | {"type": severity_based}
    Column("incident_urgency_rule", JSON, nullable=False),
    Column("support_hours", JSON),  # {"type", "time_zone", "days_of_week", "start_time", "end_time"}
    Column("teams", JSON, nullable=False),
    Column("created_at", String, nullable=False),
)

integrations = Table(
    "integrations",
    metadata,
    Column("id", String, primary_key=True),
    Column("service_id", String, ForeignKey("services.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # events_api_v2_inbound_integration | generic_email_inbound_integration
    Column("integration_key", String, nullable=False, unique=True),
)

maintenance_windows = Table(
    "maintenance_windows",
    metadata,
    Column("id", String, primary_key=True),
    Column("sequence_number", Integer, nullable=False),
    Column("description", String),
    Column("start_time", String, nullable=False),
    Column("end_time", String, nullable=False),
    Column("ended_early", Boolean, nullable=False, default=False),  # deleted while it was running
    Column("ended_at", String, info={"volatile": True}),
    Column("service_ids", JSON, nullable=False),
    Column("created_by_user_id", String, ForeignKey("users.id"), nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

incidents = Table(
    "incidents",
    metadata,
    Column("id", String, primary_key=True),
    Column("incident_number", Integer, nullable=False, unique=True),
    Column("title", String, nullable=False),
    Column("status", String, nullable=False),  # triggered | acknowledged | resolved
    Column("urgency", String, nullable=False),  # high | low
    Column("priority_id", String, ForeignKey("priorities.id")),
    Column("service_id", String, ForeignKey("services.id"), nullable=False),
    Column("escalation_policy_id", String, ForeignKey("escalation_policies.id"), nullable=False),
    Column("escalation_level", Integer, nullable=False),
    Column("assignments", JSON, nullable=False),  # [user id], sorted
    Column("acknowledgements", JSON, nullable=False),  # [{"id", "type": user_reference | service_reference}]
    Column("incident_key", String),
    Column("body", Text),
    Column("resolve_reason", JSON),  # {"type": merge_resolve_reason, "incident_id"}
    Column("last_status_change_by", JSON),  # {"id", "type"}
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("last_status_change_at", String, nullable=False, info={"volatile": True}),
)

alerts = Table(
    "alerts",
    metadata,
    Column("id", String, primary_key=True),
    Column("incident_id", String, ForeignKey("incidents.id"), nullable=False),
    Column("service_id", String, ForeignKey("services.id"), nullable=False),
    Column("integration_id", String, ForeignKey("integrations.id")),
    Column("status", String, nullable=False),  # triggered | resolved
    Column("severity", String, nullable=False),  # critical | error | warning | info
    Column("summary", String, nullable=False),
    Column("source", String, nullable=False),
    Column("alert_key", String, nullable=False),  # the Events API dedup_key
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

incident_notes = Table(
    "incident_notes",
    metadata,
    Column("id", String, primary_key=True),
    Column("incident_id", String, ForeignKey("incidents.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("content", Text, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

log_entries = Table(
    "log_entries",
    metadata,
    Column("id", String, primary_key=True),  # R...
    Column("incident_id", String, ForeignKey("incidents.id"), nullable=False),
    # trigger | acknowledge | resolve | assign | escalate | annotate | urgency_change | priority_change (+ _log_entry)
    Column("type", String, nullable=False),
    Column("summary", String, nullable=False),
    Column("agent", JSON),  # {"id", "type": user_reference | service_reference}
    # {"type": web_ui | api | mobile | events_api | auto | email, "summary": a note's text on annotate entries}
    Column("channel", JSON, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
