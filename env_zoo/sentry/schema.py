"""Sentry's objects as tables. Organizations, projects, teams and users carry numeric string ids and slugs; issues a
numeric id and a short id such as `CHECKOUT-API-3F`; events a 32-character hex id; releases a version such as
`checkout-api@2.14.0`; alert rules an integer id. Times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("email", String, nullable=False, unique=True),  # the sign-in email, also the username
    Column("name", String, nullable=False),
)

organizations = Table(
    "organizations",
    metadata,
    Column("id", String, primary_key=True),
    Column("slug", String, nullable=False, unique=True),
    Column("name", String, nullable=False),
    Column("alerts_member_write", Boolean, nullable=False),  # "Let Members Create and Edit Alerts"
)

members = Table(
    "members",
    metadata,
    Column("id", String, primary_key=True),
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("role", String, nullable=False),  # owner | manager | admin | member | billing
)

teams = Table(
    "teams",
    metadata,
    Column("id", String, primary_key=True),
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=False),
    Column("slug", String, nullable=False),
    Column("name", String, nullable=False),
)

team_members = Table(
    "team_members",
    metadata,
    Column("id", String, primary_key=True),
    Column("team_id", String, ForeignKey("teams.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the member the assistant acts for
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

projects = Table(
    "projects",
    metadata,
    Column("id", String, primary_key=True),
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=False),
    Column("slug", String, nullable=False),
    Column("name", String, nullable=False),
    Column("platform", String, nullable=False),
    Column("team_id", String, ForeignKey("teams.id"), nullable=False),
    Column("short_prefix", String, nullable=False),  # upper-case prefix of its issues' short ids
    Column("issue_counter", Integer, nullable=False),  # the last short-id number handed out
)

releases = Table(
    "releases",
    metadata,
    Column("id", String, primary_key=True),
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=False),
    Column("version", String, nullable=False),
    Column("ref", String),
    Column("projects", JSON, nullable=False),  # project ids
    Column("date_created", String, nullable=False, info={"volatile": True}),
    Column("date_released", String, info={"volatile": True}),  # a first deploy stamps it
)

deploys = Table(
    "deploys",
    metadata,
    Column("id", String, primary_key=True),
    Column("release_id", String, ForeignKey("releases.id"), nullable=False),
    Column("environment", String, nullable=False),
    Column("name", String),
    Column("url", String),
    Column("date_started", String),
    Column("date_finished", String, nullable=False, info={"volatile": True}),  # default: when it was recorded
)

issues = Table(
    "issues",
    metadata,
    Column("id", String, primary_key=True),
    Column("short_id", String, nullable=False, unique=True),
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("title", String, nullable=False),
    Column("culprit", String, nullable=False),
    Column("level", String, nullable=False),  # fatal | error | warning | info
    Column("status", String, nullable=False),  # unresolved | resolved | ignored
    Column("substatus", String),  # new | ongoing | regressed | escalating | archived_* ; null when resolved
    Column("status_details", JSON, nullable=False),  # in_release / in_next_release / ignore_duration / ignore_count ...
    Column("priority", String, nullable=False),  # high | medium | low
    Column("assigned_to", String),  # "user:<id>" | "team:<id>" | null
    Column("first_seen", String, nullable=False),
    Column("last_seen", String, nullable=False),
    Column("count", Integer, nullable=False),
    Column("user_count", Integer, nullable=False),
    Column("first_release", String),
    Column("last_release", String),
    Column("environments", JSON, nullable=False),
    Column("resolved_at", String, info={"volatile": True}),
    Column(
        "archived_at", String, info={"volatile": True}
    ),  # when it was last archived (ignore_duration counts from it)
)

events = Table(
    "events",
    metadata,
    Column("id", String, primary_key=True),
    Column("issue_id", String, ForeignKey("issues.id"), nullable=False),
    Column("date_created", String, nullable=False),
    Column("environment", String, nullable=False),
    Column("release", String),
    Column("message", Text, nullable=False),
    Column("user_email", String),
    Column("tags", JSON, nullable=False),  # key -> value: browser, os, url, server_name, transaction ...
)

activities = Table(
    "activities",
    metadata,
    Column("id", String, primary_key=True),
    Column("issue_id", String, ForeignKey("issues.id"), nullable=False),
    Column("type", String, nullable=False),  # note | set_resolved | set_resolved_in_release | assigned | ...
    Column("user_id", String, ForeignKey("users.id")),
    Column("data", JSON, nullable=False),
    Column("date_created", String, nullable=False, info={"volatile": True}),
)

alert_rules = Table(
    "alert_rules",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("conditions", JSON, nullable=False),  # trigger ids
    Column("filters", JSON, nullable=False),  # filter objects (level, age)
    Column("action_match", String, nullable=False),  # all | any
    Column("filter_match", String, nullable=False),  # all | any | none
    Column("actions", JSON, nullable=False),  # notification targets
    Column("frequency", Integer, nullable=False),  # minutes between notifications for one issue
    Column("environment", String),
    Column("owner", String),  # "team:<id>" | "user:<id>" | null
    Column("status", String, nullable=False),  # active | disabled
    Column("created_by", String, ForeignKey("users.id")),
    Column("date_created", String, nullable=False, info={"volatile": True}),
)
