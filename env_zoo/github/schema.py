"""GitHub's objects as tables. Ids are GitHub's integers (users, repositories, issues, pull requests, reviews,
comments, workflow runs and jobs); issues and pull requests of a repository share one number sequence, and every
pull request is also an issue (its title, state, labels, assignees, milestone and comments live on the issue row).
Repositories are named `owner/name`. Times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text, UniqueConstraint

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("login", String, nullable=False, unique=True),
    Column("type", String, nullable=False),  # User | Organization | Bot
    Column("name", String),
    Column("email", String),
    Column("company", String),
    Column("plan", String, nullable=False),  # free | pro | team | enterprise
    # organizations: the base role every member has on the organization's repositories (none | read | write)
    Column("default_repository_permission", String),
    Column("created_at", String, nullable=False),
)

org_members = Table(
    "org_members",
    metadata,
    Column("org_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("user_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("role", String, nullable=False),  # admin (an owner: admin on every repository) | member
)

teams = Table(
    "teams",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("org_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("slug", String, nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    UniqueConstraint("org_id", "slug"),
)

team_members = Table(
    "team_members",
    metadata,
    Column("team_id", Integer, ForeignKey("teams.id"), primary_key=True),
    Column("user_id", Integer, ForeignKey("accounts.id"), primary_key=True),
)

tokens = Table(
    "tokens",
    metadata,
    Column("token", String, primary_key=True),  # ghp_ + 36 characters: a personal access token (classic)
    Column("user_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("note", String, nullable=False),
    Column("scopes", JSON, nullable=False),  # repo | public_repo | workflow | read:org
    Column("expires_at", String),  # NULL: never expires
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": whose token the assistant holds
    Column("user_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("token", String, ForeignKey("tokens.token"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

repositories = Table(
    "repositories",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("owner_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("full_name", String, nullable=False, unique=True),
    Column("private", Boolean, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("language", String),
    Column("topics", JSON, nullable=False),
    Column("default_branch", String, nullable=False),
    Column("archived", Boolean, nullable=False, default=False),
    Column("fork_of", Integer, ForeignKey("repositories.id")),  # the parent of a fork
    Column("has_issues", Boolean, nullable=False, default=True),
    Column("allow_merge_commit", Boolean, nullable=False, default=True),
    Column("allow_squash_merge", Boolean, nullable=False, default=True),
    Column("allow_rebase_merge", Boolean, nullable=False, default=True),
    Column("delete_branch_on_merge", Boolean, nullable=False, default=False),
    Column("stargazers_count", Integer, nullable=False, default=0),
    Column("last_number", Integer, nullable=False),  # the last issue or pull request number handed out
    Column("created_at", String, nullable=False),
    Column("pushed_at", String, nullable=False, info={"volatile": True}),
)

collaborators = Table(
    "collaborators",
    metadata,
    Column("repo_id", Integer, ForeignKey("repositories.id"), primary_key=True),
    Column("user_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("role", String, nullable=False),  # read | triage | write | maintain | admin
)

team_repos = Table(
    "team_repos",
    metadata,
    Column("team_id", Integer, ForeignKey("teams.id"), primary_key=True),
    Column("repo_id", Integer, ForeignKey("repositories.id"), primary_key=True),
    Column("role", String, nullable=False),  # read | triage | write | maintain | admin
)

branches = Table(
    "branches",
    metadata,
    Column("repo_id", Integer, ForeignKey("repositories.id"), primary_key=True),
    Column("name", String, primary_key=True),
    Column("commit_sha", String, nullable=False),
    Column("ahead_by", Integer, nullable=False, default=0),  # commits not on the default branch
    Column("behind_by", Integer, nullable=False, default=0),  # default-branch commits it lacks
    Column("conflicting_files", JSON, nullable=False),  # files that conflict with the default branch
    Column("additions", Integer, nullable=False, default=0),  # the diff against the default branch
    Column("deletions", Integer, nullable=False, default=0),
    Column("changed_files", Integer, nullable=False, default=0),
)

branch_protections = Table(
    "branch_protections",
    metadata,
    Column("repo_id", Integer, ForeignKey("repositories.id"), primary_key=True),
    Column("branch", String, primary_key=True),
    Column("status_checks", Boolean, nullable=False),  # required_status_checks is set
    Column("strict", Boolean, nullable=False),  # the branch must be up to date before merging
    Column("contexts", JSON, nullable=False),  # the required check names
    Column("pull_request_reviews", Boolean, nullable=False),  # required_pull_request_reviews is set
    Column("required_approving_review_count", Integer, nullable=False),  # 0-6
    Column("dismiss_stale_reviews", Boolean, nullable=False),
    Column("enforce_admins", Boolean, nullable=False),
    Column("restrict_pushes", Boolean, nullable=False),  # restrictions is set: only these may push
    Column("push_user_ids", JSON, nullable=False),
    Column("push_team_ids", JSON, nullable=False),
    Column("required_linear_history", Boolean, nullable=False),
    Column("allow_force_pushes", Boolean, nullable=False),
    Column("allow_deletions", Boolean, nullable=False),
)

labels = Table(
    "labels",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("repo_id", Integer, ForeignKey("repositories.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("color", String, nullable=False),  # six hex digits, no #
    Column("description", String, nullable=False, default=""),
    Column("default", Boolean, nullable=False, default=False),
    UniqueConstraint("repo_id", "name"),
)

milestones = Table(
    "milestones",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("repo_id", Integer, ForeignKey("repositories.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("title", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("state", String, nullable=False),  # open | closed
    Column("due_on", String),
    Column("created_at", String, nullable=False),
    UniqueConstraint("repo_id", "number"),
)

issues = Table(
    "issues",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("repo_id", Integer, ForeignKey("repositories.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("is_pull_request", Boolean, nullable=False),
    Column("title", String, nullable=False),
    Column("body", Text, nullable=False, default=""),
    Column("user_id", Integer, ForeignKey("accounts.id"), nullable=False),  # the author
    Column("state", String, nullable=False),  # open | closed
    Column("state_reason", String),  # completed | not_planned | duplicate | reopened
    Column("label_ids", JSON, nullable=False),  # sorted
    Column("assignee_ids", JSON, nullable=False),  # sorted, at most 10
    Column("milestone_id", Integer, ForeignKey("milestones.id")),
    Column("locked", Boolean, nullable=False, default=False),
    Column("active_lock_reason", String),  # off-topic | too heated | resolved | spam
    Column("closed_by_id", Integer, ForeignKey("accounts.id")),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
    Column("closed_at", String, info={"volatile": True}),
    UniqueConstraint("repo_id", "number"),
)

pull_requests = Table(
    "pull_requests",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("issue_id", Integer, ForeignKey("issues.id"), nullable=False, unique=True),
    Column("head_repo_id", Integer, ForeignKey("repositories.id"), nullable=False),  # a fork, or the base repository
    Column("head_ref", String, nullable=False),
    Column("head_sha", String, nullable=False),
    Column("base_ref", String, nullable=False),
    Column("draft", Boolean, nullable=False),
    Column("merged", Boolean, nullable=False, default=False),
    Column("merged_by_id", Integer, ForeignKey("accounts.id")),
    Column("merged_at", String, info={"volatile": True}),
    Column("merge_method", String),  # merge | squash | rebase, once merged
    Column("merge_commit_sha", String),
    Column("commits", Integer, nullable=False),
    Column("additions", Integer, nullable=False),
    Column("deletions", Integer, nullable=False),
    Column("changed_files", Integer, nullable=False),
    Column("behind_by", Integer, nullable=False),  # base-branch commits the head lacks
    Column("conflicting_files", JSON, nullable=False),  # merge conflicts with the base branch
    Column("requested_reviewer_ids", JSON, nullable=False),
    Column("requested_team_ids", JSON, nullable=False),
)

issue_comments = Table(
    "issue_comments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("issue_id", Integer, ForeignKey("issues.id"), nullable=False),
    Column("user_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("body", Text, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

reviews = Table(
    "reviews",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("pull_request_id", Integer, ForeignKey("pull_requests.id"), nullable=False),
    Column("user_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("state", String, nullable=False),  # APPROVED | CHANGES_REQUESTED | COMMENTED | DISMISSED
    Column("body", Text, nullable=False, default=""),
    Column("commit_id", String, nullable=False),  # the head commit the review was made on
    Column("dismissal_message", Text),
    Column("submitted_at", String, nullable=False, info={"volatile": True}),
)

workflows = Table(
    "workflows",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("repo_id", Integer, ForeignKey("repositories.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("path", String, nullable=False),  # .github/workflows/ci.yml
    Column("state", String, nullable=False),  # active | disabled_manually
    Column("events", JSON, nullable=False),  # what triggers it: push | pull_request | schedule | workflow_dispatch
    Column("jobs", JSON, nullable=False),  # the job names of one run, in order
)

workflow_runs = Table(
    "workflow_runs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("repo_id", Integer, ForeignKey("repositories.id"), nullable=False),
    Column("workflow_id", Integer, ForeignKey("workflows.id"), nullable=False),
    Column("run_number", Integer, nullable=False),
    Column("run_attempt", Integer, nullable=False),
    Column("display_title", String, nullable=False),
    Column("event", String, nullable=False),
    Column("status", String, nullable=False),  # queued | in_progress | completed
    # success | failure | cancelled | skipped | timed_out | action_required | neutral | startup_failure
    Column("conclusion", String),
    Column("head_branch", String, nullable=False),
    Column("head_sha", String, nullable=False),
    Column("actor_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("triggering_actor_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("pull_request_numbers", JSON, nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)

jobs = Table(
    "jobs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("run_id", Integer, ForeignKey("workflow_runs.id"), nullable=False),
    Column("name", String, nullable=False),  # also the check name branch protection requires
    Column("run_attempt", Integer, nullable=False),
    Column("status", String, nullable=False),  # queued | in_progress | completed
    Column("conclusion", String),
    Column("failed_step", String),  # the step that failed, for a failed job
    Column("started_at", String, info={"volatile": True}),
    Column("completed_at", String, info={"volatile": True}),
)
