"""Kaggle's objects as tables. Datasets and kernels are named by their ref `owner/slug`, competitions by their slug,
teams and submissions by Kaggle's integer ids. Times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("username", String, primary_key=True),
    Column("display_name", String, nullable=False),
    Column("tier", String, nullable=False),  # novice | contributor | expert | master | grandmaster
    Column("country", String),
    Column("joined", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the Kaggler whose API token the assistant uses
    Column("username", String, ForeignKey("users.username"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

datasets = Table(
    "datasets",
    metadata,
    Column("ref", String, primary_key=True),  # owner/slug
    Column("owner", String, ForeignKey("users.username"), nullable=False),
    Column("slug", String, nullable=False),
    Column("title", String, nullable=False),
    Column("subtitle", String, nullable=False, default=""),
    Column("description", Text, nullable=False, default=""),
    Column("license_name", String, nullable=False),
    Column("is_private", Boolean, nullable=False),
    Column("keywords", JSON, nullable=False),
    Column("current_version", Integer, nullable=False),
    Column("download_count", Integer, nullable=False),
    Column("vote_count", Integer, nullable=False),
    Column("last_updated", String, nullable=False, info={"volatile": True}),
)

dataset_versions = Table(
    "dataset_versions",
    metadata,
    Column("id", String, primary_key=True),  # <ref>@<number>
    Column("dataset_ref", String, ForeignKey("datasets.ref"), nullable=False),
    Column("version_number", Integer, nullable=False),
    Column("version_notes", String, nullable=False),
    Column("created_by", String, ForeignKey("users.username"), nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
)

dataset_files = Table(
    "dataset_files",
    metadata,
    Column("id", String, primary_key=True),  # <ref>@<number>/<name>
    Column("dataset_ref", String, ForeignKey("datasets.ref"), nullable=False),
    Column("version_number", Integer, nullable=False),
    Column("name", String, nullable=False),
    Column("total_bytes", Integer, nullable=False),
)

dataset_collaborators = Table(
    "dataset_collaborators",
    metadata,
    Column("id", String, primary_key=True),  # <ref>:<username>
    Column("dataset_ref", String, ForeignKey("datasets.ref"), nullable=False),
    Column("username", String, ForeignKey("users.username"), nullable=False),
    Column("role", String, nullable=False),  # reader | writer
)

competitions = Table(
    "competitions",
    metadata,
    Column("slug", String, primary_key=True),
    Column("title", String, nullable=False),
    Column("category", String, nullable=False),  # featured | research | playground | gettingStarted | community
    Column("reward", String, nullable=False),
    Column("enabled_date", String, nullable=False),
    Column("team_merger_deadline", String, nullable=False),
    Column("deadline", String, nullable=False),
    Column("max_team_size", Integer, nullable=False),
    Column("max_daily_submissions", Integer, nullable=False),
    Column("num_scored_submissions", Integer, nullable=False),  # final submissions a team may select
    Column("evaluation_metric", String, nullable=False),
    Column("higher_is_better", Boolean, nullable=False),
)

competition_files = Table(
    "competition_files",
    metadata,
    Column("id", String, primary_key=True),  # <slug>/<name>
    Column("competition", String, ForeignKey("competitions.slug"), nullable=False),
    Column("name", String, nullable=False),
    Column("total_bytes", Integer, nullable=False),
)

rules_acceptances = Table(
    "rules_acceptances",
    metadata,
    Column("id", String, primary_key=True),  # <slug>:<username>
    Column("competition", String, ForeignKey("competitions.slug"), nullable=False),
    Column("username", String, ForeignKey("users.username"), nullable=False),
    Column("accepted", String, nullable=False, info={"volatile": True}),
)

teams = Table(
    "teams",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("competition", String, ForeignKey("competitions.slug"), nullable=False),
    Column("name", String, nullable=False),
    Column("leader", String, ForeignKey("users.username"), nullable=False),
    Column("merged_into", Integer),  # set once the team merged into another (it no longer competes)
)

team_members = Table(
    "team_members",
    metadata,
    Column("id", String, primary_key=True),  # <team id>:<username>
    Column("team_id", Integer, ForeignKey("teams.id"), nullable=False),
    Column("username", String, ForeignKey("users.username"), nullable=False),
)

merge_requests = Table(
    "merge_requests",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("competition", String, ForeignKey("competitions.slug"), nullable=False),
    Column("from_team", Integer, ForeignKey("teams.id"), nullable=False),
    Column("to_team", Integer, ForeignKey("teams.id"), nullable=False),
    Column("status", String, nullable=False),  # pending | accepted | declined | withdrawn
    Column("created", String, nullable=False, info={"volatile": True}),
)

kernels = Table(
    "kernels",
    metadata,
    Column("ref", String, primary_key=True),  # owner/slug
    Column("owner", String, ForeignKey("users.username"), nullable=False),
    Column("slug", String, nullable=False),
    Column("title", String, nullable=False),
    Column("language", String, nullable=False),  # python | r
    Column("kernel_type", String, nullable=False),  # notebook | script
    Column("is_private", Boolean, nullable=False),
    Column("enable_gpu", Boolean, nullable=False),
    Column("enable_internet", Boolean, nullable=False),
    Column("dataset_sources", JSON, nullable=False),
    Column("competition_sources", JSON, nullable=False),
    Column("current_version", Integer, nullable=False),
    Column("total_votes", Integer, nullable=False),
    Column("last_run", String, nullable=False, info={"volatile": True}),
)

kernel_versions = Table(
    "kernel_versions",
    metadata,
    Column("id", String, primary_key=True),  # <ref>@<number>
    Column("kernel_ref", String, ForeignKey("kernels.ref"), nullable=False),
    Column("version_number", Integer, nullable=False),
    Column("status", String, nullable=False),  # queued | running | complete | error
    Column("version_notes", String, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
)

kernel_outputs = Table(
    "kernel_outputs",
    metadata,
    Column("id", String, primary_key=True),  # <ref>@<number>/<name>
    Column("kernel_ref", String, ForeignKey("kernels.ref"), nullable=False),
    Column("version_number", Integer, nullable=False),
    Column("name", String, nullable=False),
    Column("total_bytes", Integer, nullable=False),
    Column("competition", String, ForeignKey("competitions.slug")),  # a submission file for this competition
    Column("public_score", Float),  # what the competition's scorer gives the file (revealed on submission)
)

submissions = Table(
    "submissions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("competition", String, ForeignKey("competitions.slug"), nullable=False),
    Column("team_id", Integer, ForeignKey("teams.id"), nullable=False),
    Column("submitted_by", String, ForeignKey("users.username"), nullable=False),
    Column("file_name", String, nullable=False),
    Column("kernel_ref", String),
    Column("kernel_version", Integer),
    Column("description", String, nullable=False),
    Column("date", String, nullable=False, info={"volatile": True}),
    Column("status", String, nullable=False),  # complete | error
    Column("public_score", Float),
    Column("selected", Boolean, nullable=False),
)
