"""Vercel's objects as tables. Ids follow Vercel's shapes: `team_...`, `prj_...`, `dpl_...`, `rec_...`; users,
aliases and environment variables carry Vercel's opaque alphanumeric ids. Times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("email", String, nullable=False, unique=True),
    Column("username", String, nullable=False, unique=True),
    Column("name", String, nullable=False),
    Column("default_team_id", String, nullable=False),
)

teams = Table(
    "teams",
    metadata,
    Column("id", String, primary_key=True),
    Column("slug", String, nullable=False, unique=True),
    Column("name", String, nullable=False),
    Column("plan", String, nullable=False),  # hobby | pro | enterprise
)

team_members = Table(
    "team_members",
    metadata,
    Column("id", String, primary_key=True),  # "<team id>:<user id>"
    Column("team_id", String, ForeignKey("teams.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("role", String, nullable=False),  # OWNER | MEMBER | DEVELOPER | BILLING | VIEWER
    Column("joined_at", String, nullable=False),
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
    Column("team_id", String, ForeignKey("teams.id"), nullable=False),
    Column("name", String, nullable=False),  # unique within its team
    Column("framework", String),  # nextjs | sveltekit | astro | remix | vite | null (other)
    Column("production_branch", String, nullable=False),
    Column("production_deployment_id", String),  # the deployment serving production now
    Column("rolled_back", Boolean, nullable=False),  # after an instant rollback: production domains stay put
    Column("created_at", String, nullable=False),
)

deployments = Table(
    "deployments",
    metadata,
    Column("id", String, primary_key=True),
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("url", String, nullable=False, unique=True),
    Column("target", String),  # production | null (preview)
    Column("ready_state", String, nullable=False),  # QUEUED | BUILDING | READY | ERROR | CANCELED
    Column("git_branch", String, nullable=False),
    Column("commit_sha", String, nullable=False),
    Column("commit_message", Text, nullable=False),
    Column("creator_id", String, ForeignKey("users.id"), nullable=False),
    Column("error_message", Text),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("canceled_at", String, info={"volatile": True}),
)

aliases = Table(
    "aliases",
    metadata,
    Column("alias", String, primary_key=True),  # the hostname
    Column("uid", String, nullable=False, unique=True),
    Column("deployment_id", String, ForeignKey("deployments.id"), nullable=False),
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

domains = Table(
    "domains",
    metadata,
    Column("name", String, primary_key=True),  # an apex domain a team owns on Vercel
    Column("team_id", String, ForeignKey("teams.id"), nullable=False),
    Column("service_type", String, nullable=False),  # zeit.world (Vercel DNS) | external
    Column("verified", Boolean, nullable=False),
    Column("created_at", String, nullable=False),
)

project_domains = Table(
    "project_domains",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("apex_name", String, nullable=False),
    Column("redirect", String),
    Column("git_branch", String),
    Column("verified", Boolean, nullable=False),
    Column("verification_value", String),  # the TXT value `_vercel.<apex>` must hold while unverified
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

dns_records = Table(
    "dns_records",
    metadata,
    Column("id", String, primary_key=True),
    Column("domain", String, ForeignKey("domains.name"), nullable=False),
    Column("name", String, nullable=False),  # subdomain, "" for the apex
    Column("type", String, nullable=False),  # A | AAAA | CNAME | TXT | MX | CAA
    Column("value", String, nullable=False),
    Column("mx_priority", Integer),
    Column("ttl", Integer, nullable=False),
    Column("creator_id", String, ForeignKey("users.id"), nullable=False),
    Column("created_at", String, nullable=False, info={"volatile": True}),
)

env_vars = Table(
    "env_vars",
    metadata,
    Column("id", String, primary_key=True),
    Column("project_id", String, ForeignKey("projects.id"), nullable=False),
    Column("key", String, nullable=False),
    Column("value", Text, nullable=False),
    Column("type", String, nullable=False),  # plain | encrypted | sensitive
    Column("target", JSON, nullable=False),  # subset of production, preview, development
    Column("git_branch", String),  # preview-only variables may be scoped to one branch
    Column("comment", String),
    Column("created_at", String, nullable=False, info={"volatile": True}),
    Column("updated_at", String, nullable=False, info={"volatile": True}),
)
