"""Linear's workspace as tables: users and the signed-in session, teams (key, estimate scale, members), each team's
workflow states, issue labels (workspace or team, grouped), cycles, projects with their teams and milestones, issues
(identifier TEAM-n, priority 0-4, estimate, labels, parent, cycle, project), issue relations and comments. Ids are
UUIDs as Linear gives them; times are ISO 8601 in UTC."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("display_name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("admin", Boolean, nullable=False),
    Column("active", Boolean, nullable=False),  # deactivated users keep their history but cannot be assigned
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

teams = Table(
    "teams",
    metadata,
    Column("id", String, primary_key=True),
    Column("key", String, nullable=False, unique=True),  # the identifier prefix: ENG in ENG-123
    Column("name", String, nullable=False),
    Column("private", Boolean, nullable=False),  # only members see a private team and its issues
    Column("estimation_type", String, nullable=False),  # notUsed, exponential, fibonacci, linear
    Column("cycles_enabled", Boolean, nullable=False),
    Column("issue_count", Integer, nullable=False),  # the last issue number handed out
)

team_members = Table(
    "team_members",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("team_id", String, ForeignKey("teams.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Index("ix_team_members_team", "team_id"),
)

workflow_states = Table(
    "workflow_states",
    metadata,
    Column("id", String, primary_key=True),
    Column("team_id", String, ForeignKey("teams.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # triage, backlog, unstarted, started, completed, canceled
    Column("position", Integer, nullable=False),
    Column("is_default", Boolean, nullable=False),  # the state new issues get
)

labels = Table(
    "labels",
    metadata,
    Column("id", String, primary_key=True),
    Column("team_id", String, ForeignKey("teams.id")),  # null: a workspace label every team can use
    Column("name", String, nullable=False),
    Column("color", String, nullable=False),
    Column("parent_id", String, ForeignKey("labels.id")),  # the group it belongs to
    Column("is_group", Boolean, nullable=False),  # a group is not applied itself; one child per group per issue
)

cycles = Table(
    "cycles",
    metadata,
    Column("id", String, primary_key=True),
    Column("team_id", String, ForeignKey("teams.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("name", String),
    Column("starts_at", String, nullable=False),
    Column("ends_at", String, nullable=False),
    Column("completed_at", String),
)

projects = Table(
    "projects",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("description", String, nullable=False),
    Column("state", String, nullable=False),  # backlog, planned, started, paused, completed, canceled
    Column("lead_id", String, ForeignKey("users.id")),
    Column("start_date", String),
    Column("target_date", String),
    Column("completed_at", String, info={"volatile": True}),
    Column("canceled_at", String, info={"volatile": True}),
)

project_teams = Table(
    "project_teams",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("team_id", String, ForeignKey("teams.id"), nullable=False),
)

milestones = Table(
    "milestones",
    metadata,
    Column("id", String, primary_key=True),
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", String),
    Column("target_date", String),
    Column("sort_order", Integer, nullable=False),
)

issues = Table(
    "issues",
    metadata,
    Column("id", String, primary_key=True),
    Column("identifier", String, nullable=False, unique=True),
    Column("team_id", String, ForeignKey("teams.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("title", String, nullable=False),
    Column("description", String),
    Column("state_id", String, ForeignKey("workflow_states.id"), nullable=False),
    Column("priority", Integer, nullable=False),  # 0 none, 1 urgent, 2 high, 3 medium, 4 low
    Column("estimate", Integer),
    Column("assignee_id", String, ForeignKey("users.id")),
    Column("creator_id", String, ForeignKey("users.id"), nullable=False),
    Column("parent_id", String, ForeignKey("issues.id")),
    Column("cycle_id", String, ForeignKey("cycles.id")),
    Column("project_id", String, ForeignKey("projects.id")),
    Column("milestone_id", String, ForeignKey("milestones.id")),
    Column("label_ids", JSON, nullable=False),
    Column("due_date", String),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
    Column("started_at", String, info={"volatile": True}),
    Column("completed_at", String, info={"volatile": True}),
    Column("canceled_at", String, info={"volatile": True}),
    Column("archived_at", String, info={"volatile": True}),
    Column("archived", Boolean, nullable=False),
    Index("ix_issues_team", "team_id"),
    Index("ix_issues_parent", "parent_id"),
)

issue_relations = Table(
    "issue_relations",
    metadata,
    Column("id", String, primary_key=True),
    Column("issue_id", String, ForeignKey("issues.id"), nullable=False),
    Column("related_issue_id", String, ForeignKey("issues.id"), nullable=False),
    Column("type", String, nullable=False),  # blocks, duplicate, related
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

comments = Table(
    "comments",
    metadata,
    Column("id", String, primary_key=True),
    Column("issue_id", String, ForeignKey("issues.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("parent_id", String, ForeignKey("comments.id")),  # a reply in a thread
    Column("body", String, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("edited_at", String, info={"volatile": True}),
    Index("ix_comments_issue", "issue_id"),
)
