"""Asana's objects as tables. Every object has a gid, a string of digits ("1206000000000012"); people are users of
one or more workspaces (an organization has teams; a personal workspace has none). A task lives in a workspace,
in zero or more projects (one section in each) and may have a parent task (a subtask). Dates are ISO 8601 dates
(`due_on`), times ISO 8601 UTC strings (`due_at`, `created_at`)."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, MetaData, String, Table, Text

metadata = MetaData()

workspaces = Table(
    "workspaces",
    metadata,
    Column("gid", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("is_organization", Boolean, nullable=False),
    Column("email_domains", JSON, nullable=False),  # ["fernway.com"]; [] for a personal workspace
)

users = Table(
    "users",
    metadata,
    Column("gid", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
)

workspace_memberships = Table(
    "workspace_memberships",
    metadata,
    Column("gid", String, primary_key=True),
    Column("workspace", String, ForeignKey("workspaces.gid"), nullable=False),
    Column("user", String, ForeignKey("users.gid"), nullable=False),
    Column("is_admin", Boolean, nullable=False),
    Column("is_guest", Boolean, nullable=False),  # a guest sees only the projects and tasks shared with them
    Column("is_active", Boolean, nullable=False),  # false: removed (deprovisioned) from the workspace
)

tokens = Table(
    "tokens",
    metadata,
    Column("token", String, primary_key=True),  # a personal access token: 2/<user gid>/<app gid>:<32 hex>
    Column("user", String, ForeignKey("users.gid"), nullable=False),
    Column("name", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # always "current": the token the assistant acts with
    Column("user", String, ForeignKey("users.gid"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

teams = Table(
    "teams",
    metadata,
    Column("gid", String, primary_key=True),
    Column("workspace", String, ForeignKey("workspaces.gid"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False),
)

team_memberships = Table(
    "team_memberships",
    metadata,
    Column("team", String, ForeignKey("teams.gid"), primary_key=True),
    Column("user", String, ForeignKey("users.gid"), primary_key=True),
)

projects = Table(
    "projects",
    metadata,
    Column("gid", String, primary_key=True),
    Column("workspace", String, ForeignKey("workspaces.gid"), nullable=False),
    Column("team", String, ForeignKey("teams.gid")),  # NULL in a personal workspace
    Column("name", String, nullable=False),
    Column("notes", Text, nullable=False),
    Column("owner", String, ForeignKey("users.gid")),
    Column("color", String),
    Column("archived", Boolean, nullable=False),
    # public_to_workspace (everyone in the workspace) | private_to_team (the team's members) | private (members)
    Column("privacy_setting", String, nullable=False),
    Column("default_access_level", String, nullable=False),  # editor | commenter: what non-member viewers get
    Column("start_on", String),
    Column("due_on", String),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

project_memberships = Table(
    "project_memberships",
    metadata,
    Column("project", String, ForeignKey("projects.gid"), primary_key=True),
    Column("user", String, ForeignKey("users.gid"), primary_key=True),
    Column("access_level", String, nullable=False),  # admin | editor | commenter | viewer
)

sections = Table(
    "sections",
    metadata,
    Column("gid", String, primary_key=True),
    Column("project", String, ForeignKey("projects.gid"), nullable=False),
    Column("name", String, nullable=False),
    Column("position", Float, nullable=False),  # order of the sections in the project
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

tasks = Table(
    "tasks",
    metadata,
    Column("gid", String, primary_key=True),
    Column("workspace", String, ForeignKey("workspaces.gid"), nullable=False),
    Column("name", String, nullable=False),
    Column("notes", Text, nullable=False),
    Column("resource_subtype", String, nullable=False),  # default_task | milestone
    Column("assignee", String, ForeignKey("users.gid"), index=True),
    Column("start_on", String),
    Column("due_on", String),
    Column("due_at", String),  # set together with due_on (its date); NULL when only a date is due
    Column("completed", Boolean, nullable=False),
    Column("completed_at", String, info={"volatile": True}),
    Column("completed_by", String, ForeignKey("users.gid")),
    Column("parent", String, ForeignKey("tasks.gid"), index=True),
    Column("created_by", String, ForeignKey("users.gid"), nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("modified_at", String, nullable=False, info={"volatile": True}),
)

task_memberships = Table(
    "task_memberships",
    metadata,
    Column("task", String, ForeignKey("tasks.gid"), primary_key=True),
    Column("project", String, ForeignKey("projects.gid"), primary_key=True, index=True),
    Column("section", String, ForeignKey("sections.gid"), nullable=False, index=True),
    Column("position", Float, nullable=False),  # order within the project (smaller first)
)

task_followers = Table(
    "task_followers",
    metadata,
    Column("task", String, ForeignKey("tasks.gid"), primary_key=True),
    Column("user", String, ForeignKey("users.gid"), primary_key=True, index=True),
)

tags = Table(
    "tags",
    metadata,
    Column("gid", String, primary_key=True),
    Column("workspace", String, ForeignKey("workspaces.gid"), nullable=False),
    Column("name", String, nullable=False),
    Column("color", String),
)

task_tags = Table(
    "task_tags",
    metadata,
    Column("task", String, ForeignKey("tasks.gid"), primary_key=True),
    Column("tag", String, ForeignKey("tags.gid"), primary_key=True),
)

task_dependencies = Table(
    "task_dependencies",
    metadata,
    Column("task", String, ForeignKey("tasks.gid"), primary_key=True),  # the dependent (blocked) task
    Column("dependency", String, ForeignKey("tasks.gid"), primary_key=True),  # the task it waits on
)

stories = Table(
    "stories",
    metadata,
    Column("gid", String, primary_key=True),
    Column("task", String, ForeignKey("tasks.gid"), nullable=False),
    Column("type", String, nullable=False),  # comment | system
    Column("resource_subtype", String, nullable=False),  # comment_added | assigned | marked_complete | ...
    Column("text", Text, nullable=False),
    Column("created_by", String, ForeignKey("users.gid")),
    Column("is_pinned", Boolean, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)
