"""Jira Cloud's objects as tables. Ids are strings of digits as in REST API v3 ("10042"); boards and sprints have
integer ids as in the Agile API; people are Atlassian account ids. Times are ISO 8601 UTC strings, durations
(estimates, time spent) are seconds."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("account_id", String, primary_key=True),
    Column("display_name", String, nullable=False),
    Column("email_address", String, nullable=False, unique=True),
    Column("account_type", String, nullable=False),  # atlassian | app
    Column("active", Boolean, nullable=False, default=True),  # false: deactivated in Atlassian Administration
    Column("jira_access", Boolean, nullable=False, default=True),  # has a Jira product licence on the site
    Column("time_zone", String, nullable=False),
)

site = Table(
    "site",
    metadata,
    Column("cloud_id", String, primary_key=True),
    Column("base_url", String, nullable=False),
    Column("hours_per_day", Integer, nullable=False),  # time tracking: 1d = 8h
    Column("days_per_week", Integer, nullable=False),  # 1w = 5d
)

authorizations = Table(
    "authorizations",
    metadata,
    Column("id", String, primary_key=True),  # always "current": the OAuth 2.0 (3LO) grant the app acts under
    Column("account_id", String, ForeignKey("users.account_id"), nullable=False),  # who authorized the app
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),  # ISO 8601, from db.start_session
)

project_roles = Table(
    "project_roles",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    Column("description", Text, nullable=False),
)

permission_schemes = Table(
    "permission_schemes",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("grants", JSON, nullable=False),  # {"EDIT_ISSUES": ["Administrators", "Developers"], ...}
)

issue_types = Table(
    "issue_types",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False, unique=True),  # Epic | Story | Task | Bug | Subtask
    Column("description", Text, nullable=False),
    Column("subtask", Boolean, nullable=False),
    Column("hierarchy_level", Integer, nullable=False),  # 1 epic, 0 standard, -1 subtask
)

statuses = Table(
    "statuses",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    Column("category", String, nullable=False),  # new (To Do) | indeterminate (In Progress) | done (Done)
    Column("editable", Boolean, nullable=False, default=True),  # jira.issue.editable workflow property
)

resolutions = Table(
    "resolutions",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    Column("description", Text, nullable=False),
)

priorities = Table(
    "priorities",
    metadata,
    Column("id", String, primary_key=True),  # 1 Highest ... 5 Lowest
    Column("name", String, nullable=False, unique=True),
)

workflows = Table(
    "workflows",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False, unique=True),
    Column("initial_status_id", String, ForeignKey("statuses.id"), nullable=False),
)

transitions = Table(
    "transitions",
    metadata,
    Column("workflow_id", String, ForeignKey("workflows.id"), primary_key=True),
    Column("id", String, primary_key=True),  # "11", "21", ... unique within a workflow
    Column("name", String, nullable=False),
    Column("from_status_ids", JSON, nullable=False),  # [] = global transition (from any status)
    Column("to_status_id", String, ForeignKey("statuses.id"), nullable=False),
    # conditions hide the transition: only_assignee | permission:<KEY>
    Column("conditions", JSON, nullable=False),
    # validators reject it: resolution_required | assignee_required | fix_version_required
    Column("validators", JSON, nullable=False),
    Column("has_screen", Boolean, nullable=False),  # a transition screen with resolution, comment, fix versions
    Column("default_resolution_id", String, ForeignKey("resolutions.id")),  # post function: set resolution
)

projects = Table(
    "projects",
    metadata,
    Column("id", String, primary_key=True),
    Column("key", String, nullable=False, unique=True),
    Column("name", String, nullable=False),
    Column("project_type_key", String, nullable=False),  # software | business
    Column("description", Text, nullable=False),
    Column("lead_account_id", String, ForeignKey("users.account_id"), nullable=False),
    Column("default_assignee", String, nullable=False),  # PROJECT_LEAD | UNASSIGNED
    Column("issue_type_ids", JSON, nullable=False),  # the issue type scheme
    Column("workflow_scheme", JSON, nullable=False),  # {"default": workflow id, "<issue type id>": workflow id}
    Column("permission_scheme_id", Integer, ForeignKey("permission_schemes.id"), nullable=False),
    Column("issue_counter", Integer, nullable=False),  # the number of the last issue key handed out
)

role_actors = Table(
    "role_actors",
    metadata,
    Column("project_id", String, ForeignKey("projects.id"), primary_key=True),
    Column("role_id", Integer, ForeignKey("project_roles.id"), primary_key=True),
    Column("account_id", String, ForeignKey("users.account_id"), primary_key=True),
)

components = Table(
    "components",
    metadata,
    Column("id", String, primary_key=True),
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("lead_account_id", String, ForeignKey("users.account_id")),
    Column("assignee_type", String, nullable=False),  # PROJECT_DEFAULT | COMPONENT_LEAD
)

versions = Table(
    "versions",
    metadata,
    Column("id", String, primary_key=True),
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("released", Boolean, nullable=False),
    Column("archived", Boolean, nullable=False),
    Column("start_date", String),
    Column("release_date", String),
)

boards = Table(
    "boards",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # scrum | kanban
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
)

sprints = Table(
    "sprints",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("board_id", Integer, ForeignKey("boards.id"), nullable=False),  # originBoardId
    Column("name", String, nullable=False),
    Column("state", String, nullable=False),  # future | active | closed
    Column("goal", Text, nullable=False, default=""),
    Column("start_date", String),
    Column("end_date", String),
    Column("complete_date", String, info={"volatile": True}),
)

issues = Table(
    "issues",
    metadata,
    Column("id", String, primary_key=True),
    Column("key", String, nullable=False, unique=True),  # MOB-123
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("issue_type_id", String, ForeignKey("issue_types.id"), nullable=False),
    Column("summary", String, nullable=False),
    Column("description", Text),
    Column("status_id", String, ForeignKey("statuses.id"), nullable=False),
    Column("resolution_id", String, ForeignKey("resolutions.id")),
    Column("priority_id", String, ForeignKey("priorities.id"), nullable=False),
    Column("assignee_account_id", String, ForeignKey("users.account_id")),
    Column("reporter_account_id", String, ForeignKey("users.account_id"), nullable=False),
    Column("labels", JSON, nullable=False),
    Column("component_ids", JSON, nullable=False),
    Column("fix_version_ids", JSON, nullable=False),
    Column("story_points", Float),  # customfield_10016, "Story point estimate"
    Column("parent_id", String, ForeignKey("issues.id")),  # the epic of a standard issue, the parent of a subtask
    Column("sprint_id", Integer, ForeignKey("sprints.id")),  # the open sprint it is in; NULL: backlog
    Column("closed_sprint_ids", JSON, nullable=False),  # sprints it was in when they closed
    Column("due_date", String),  # YYYY-MM-DD
    Column("original_estimate", Integer),  # seconds
    Column("remaining_estimate", Integer),  # seconds
    Column("time_spent", Integer, nullable=False, default=0),  # seconds
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("updated", String, nullable=False, info={"volatile": True}),
    Column("resolution_date", String, info={"volatile": True}),
)

watchers = Table(
    "watchers",
    metadata,
    Column("issue_id", String, ForeignKey("issues.id"), primary_key=True),
    Column("account_id", String, ForeignKey("users.account_id"), primary_key=True),
)

comments = Table(
    "comments",
    metadata,
    Column("id", String, primary_key=True),
    Column("issue_id", String, ForeignKey("issues.id"), nullable=False),
    Column("author_account_id", String, ForeignKey("users.account_id"), nullable=False),
    Column("body", Text, nullable=False),
    Column("visibility_role", String),  # restricted to members of this project role; NULL: everyone
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("updated", String, nullable=False, info={"volatile": True}),
)

worklogs = Table(
    "worklogs",
    metadata,
    Column("id", String, primary_key=True),
    Column("issue_id", String, ForeignKey("issues.id"), nullable=False),
    Column("author_account_id", String, ForeignKey("users.account_id"), nullable=False),
    Column("time_spent_seconds", Integer, nullable=False),
    Column("started_date", String, nullable=False),  # the day the work counts towards (YYYY-MM-DD)
    Column("started", String, nullable=False, info={"volatile": True}),
    Column("comment", Text, nullable=False, default=""),
    Column("created", String, nullable=False, info={"volatile": True}),
)

issue_link_types = Table(
    "issue_link_types",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False, unique=True),  # Blocks
    Column("outward", String, nullable=False),  # blocks
    Column("inward", String, nullable=False),  # is blocked by
)

issue_links = Table(
    "issue_links",
    metadata,
    Column("id", String, primary_key=True),
    Column("type_id", String, ForeignKey("issue_link_types.id"), nullable=False),
    Column("source_issue_id", String, ForeignKey("issues.id"), nullable=False),  # source <outward> destination
    Column("destination_issue_id", String, ForeignKey("issues.id"), nullable=False),  # destination <inward> source
)
