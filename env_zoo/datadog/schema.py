"""Datadog's objects as tables. Monitor ids are integers, downtime and SLO ids are Datadog's hex or UUID strings,
incidents carry a UUID and a public number, dashboards an id such as `abc-def-ghi`. Times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("handle", String, nullable=False, unique=True),  # the sign-in email
    Column("name", String, nullable=False),
    Column("role", String, nullable=False),  # Datadog Admin Role | Datadog Standard Role | Datadog Read Only Role
    Column("status", String, nullable=False),  # Active | Pending | Disabled
)

teams = Table(
    "teams",
    metadata,
    Column("id", String, primary_key=True),
    Column("handle", String, nullable=False, unique=True),
    Column("name", String, nullable=False),
)

team_members = Table(
    "team_members",
    metadata,
    Column("team_id", String, ForeignKey("teams.id"), primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), primary_key=True),
    Column("role", String, nullable=False),  # admin | member
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the user the assistant acts for
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

monitors = Table(
    "monitors",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # metric alert | service check | log alert
    Column("query", Text, nullable=False),
    Column("message", Text, nullable=False, default=""),
    Column("tags", JSON, nullable=False),
    Column("priority", Integer),  # 1 (highest) .. 5
    Column("critical", Float),
    Column("warning", Float),
    Column("overall_state", String, nullable=False),  # OK | Alert | Warn | No Data
    Column("silenced", JSON, nullable=False),  # scope -> end (ISO) or null: mutes
    Column("creator_id", String, ForeignKey("users.id"), nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("modified", String, nullable=False, info={"volatile": True}),
)

downtimes = Table(
    "downtimes",
    metadata,
    Column("id", String, primary_key=True),
    Column("scope", String, nullable=False),
    Column("monitor_id", Integer, ForeignKey("monitors.id")),
    Column("monitor_tags", JSON, nullable=False),  # used when monitor_id is null; ["*"] for every monitor
    Column("message", Text, nullable=False, default=""),
    Column("start", String, nullable=False),
    Column("end", String),
    Column("rrule", String),  # recurrence, e.g. FREQ=WEEKLY;BYDAY=SA
    Column("duration", String),  # each recurrence's length, e.g. 2h
    Column("canceled", Boolean, nullable=False),
    Column("canceled_at", String, info={"volatile": True}),
    Column("creator_id", String, ForeignKey("users.id"), nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
)

incidents = Table(
    "incidents",
    metadata,
    Column("id", String, primary_key=True),
    Column("public_id", Integer, nullable=False, unique=True),
    Column("title", String, nullable=False),
    Column("severity", String, nullable=False),  # SEV-1 .. SEV-5 | UNKNOWN
    Column("state", String, nullable=False),  # active | stable | resolved
    Column("commander_id", String, ForeignKey("users.id")),
    Column("customer_impacted", Boolean, nullable=False),
    Column("customer_impact_scope", Text),
    Column("customer_impact_start", String, info={"volatile": True}),
    Column("customer_impact_end", String, info={"volatile": True}),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("resolved", String, info={"volatile": True}),
    Column("modified", String, nullable=False, info={"volatile": True}),
)

incident_notes = Table(
    "incident_notes",
    metadata,
    Column("id", String, primary_key=True),
    Column("incident_id", String, ForeignKey("incidents.id"), nullable=False),
    Column("author_id", String, ForeignKey("users.id"), nullable=False),
    Column("kind", String, nullable=False),  # note | state_change | severity_change | commander_change
    Column("content", Text, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
)

slos = Table(
    "slos",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # metric | monitor
    Column("description", Text, nullable=False, default=""),
    Column("numerator", Text),
    Column("denominator", Text),
    Column("monitor_ids", JSON, nullable=False),
    Column("tags", JSON, nullable=False),
    Column("timeframe", String, nullable=False),  # 7d | 30d | 90d
    Column("target", Float, nullable=False),
    Column("warning", Float),
    Column("sli_value", Float),  # the measured SLI over the timeframe (percent), null when no data yet
    Column("creator_id", String, ForeignKey("users.id"), nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("modified", String, nullable=False, info={"volatile": True}),
)

dashboards = Table(
    "dashboards",
    metadata,
    Column("id", String, primary_key=True),
    Column("title", String, nullable=False),
    Column("layout_type", String, nullable=False),  # ordered | free
    Column("url", String, nullable=False),
    Column("author_id", String, ForeignKey("users.id"), nullable=False),
    Column("team_id", String, ForeignKey("teams.id")),
    Column("created", String, nullable=False),
    Column("modified", String, nullable=False),
)
