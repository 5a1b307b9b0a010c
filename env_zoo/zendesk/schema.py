"""Zendesk Support's objects as tables. Ids are integers, as in the API; ticket ids are the account's sequential
ticket numbers. Times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

account = Table(
    "account",
    metadata,
    Column("subdomain", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("current_user_id", Integer, ForeignKey("users.id"), nullable=False),  # who the API token belongs to
    Column("time_zone", String, nullable=False),
)

organizations = Table(
    "organizations",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    Column("domain_names", JSON, nullable=False),  # users with these email domains join the organization
    Column("details", Text, nullable=False, default=""),
    Column("notes", Text, nullable=False, default=""),
    Column("group_id", Integer, ForeignKey("groups.id")),
    Column("shared_tickets", Boolean, nullable=False, default=False),
    Column("tags", JSON, nullable=False),  # added to every ticket its users request
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

groups = Table(
    "groups",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    Column("description", Text, nullable=False, default=""),
    Column("default", Boolean, nullable=False, default=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("role", String, nullable=False),  # end-user | agent | admin
    Column("organization_id", Integer, ForeignKey("organizations.id")),
    Column("default_group_id", Integer, ForeignKey("groups.id")),
    Column("phone", String),
    Column("time_zone", String, nullable=False),
    Column("tags", JSON, nullable=False),
    Column("notes", Text, nullable=False, default=""),
    Column("suspended", Boolean, nullable=False, default=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

group_memberships = Table(
    "group_memberships",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("group_id", Integer, ForeignKey("groups.id"), nullable=False),
    Column("default", Boolean, nullable=False, default=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

tickets = Table(
    "tickets",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("subject", String, nullable=False),
    Column("description", Text, nullable=False),  # the first comment's text
    Column("status", String, nullable=False),  # new | open | pending | hold | solved | closed
    Column("priority", String),  # low | normal | high | urgent
    Column("type", String),  # problem | incident | question | task
    Column("requester_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("submitter_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("assignee_id", Integer, ForeignKey("users.id")),
    Column("group_id", Integer, ForeignKey("groups.id")),
    Column("organization_id", Integer, ForeignKey("organizations.id")),
    Column("collaborator_ids", JSON, nullable=False),  # CCs
    Column("problem_id", Integer, ForeignKey("tickets.id")),  # the problem an incident belongs to
    Column("due_at", String),  # tasks only
    Column("tags", JSON, nullable=False),
    Column("via_channel", String, nullable=False),  # email | web | api | chat | phone
    Column("via_followup_source_id", Integer, ForeignKey("tickets.id")),  # follow-up of a closed ticket
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
    Column("solved_at", String, info={"volatile": True}),
)

ticket_comments = Table(
    "ticket_comments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("ticket_id", Integer, ForeignKey("tickets.id"), nullable=False),
    Column("author_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("body", Text, nullable=False),
    Column("public", Boolean, nullable=False),  # false: an internal note
    Column("via_channel", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

satisfaction_ratings = Table(
    "satisfaction_ratings",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("ticket_id", Integer, ForeignKey("tickets.id"), nullable=False, unique=True),
    Column("requester_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("assignee_id", Integer, ForeignKey("users.id")),
    Column("group_id", Integer, ForeignKey("groups.id")),
    Column("score", String, nullable=False),  # offered | good | bad
    Column("comment", Text, nullable=False, default=""),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

macros = Table(
    "macros",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("title", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("active", Boolean, nullable=False, default=True),
    Column("position", Integer, nullable=False),
    Column("actions", JSON, nullable=False),  # [{"field", "value"}]
    Column("restriction", JSON),  # {"type": "Group", "ids": [...]}: only agents of these groups may use it
)

views = Table(
    "views",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("title", String, nullable=False),
    Column("active", Boolean, nullable=False, default=True),
    Column("position", Integer, nullable=False),
    Column("conditions", JSON, nullable=False),  # {"all": [{"field", "operator", "value"}], "any": [...]}
    Column("execution", JSON, nullable=False),  # {"sort_by", "sort_order"}
)

sla_policies = Table(
    "sla_policies",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("title", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("position", Integer, nullable=False),  # the first policy whose filter matches applies
    Column("filter", JSON, nullable=False),  # {"all": [...], "any": [...]} conditions
    Column("policy_metrics", JSON, nullable=False),  # [{"priority", "metric", "target" (minutes), "business_hours"}]
)
