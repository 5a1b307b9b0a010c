"""protocols.io's objects as tables: researchers, the signed-in session, workspaces and their members, protocols
(drafts and published versions; versions of one protocol share a family id; forks point at their source), their
steps and materials, collaborator shares, comments and bookmarks. Times are ISO 8601 UTC strings."""

from sqlalchemy import Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("username", String, nullable=False, unique=True),  # e.g. "ana-lopez-k2"
    Column("name", String, nullable=False),
    Column("email", String, nullable=False, unique=True),
    Column("affiliation", String),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

workspaces = Table(
    "workspaces",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("uri", String, nullable=False, unique=True),  # URL name, e.g. "lopez-lab"
    Column("title", String, nullable=False),
    Column("visibility", String, nullable=False),  # public | private
)

workspace_members = Table(
    "workspace_members",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("workspace_id", Integer, ForeignKey("workspaces.id"), nullable=False, index=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("role", String, nullable=False),  # owner | admin | member | viewer
)

protocols = Table(
    "protocols",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("uri", String, nullable=False, unique=True),  # title slug plus a short code
    Column("family_id", Integer, nullable=False, index=True),  # the first version's id, shared by every version
    Column("version_number", Integer, nullable=False),  # 1 for the first version
    Column("title", String, nullable=False),
    Column("description", Text),
    Column("guidelines", Text),
    Column("creator_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("workspace_id", Integer, ForeignKey("workspaces.id")),
    Column("state", String, nullable=False),  # draft | published
    Column("doi", String),  # dx.doi.org/10.17504/protocols.io.<code>, minted on publishing
    Column("forked_from", Integer),  # the protocol id this one was forked from
    Column("version_notes", Text),
    Column("created_on", String, nullable=False, info={"volatile": True}),
    Column("changed_on", String, nullable=False, info={"volatile": True}),
    Column("published_on", String, info={"volatile": True}),
)

steps = Table(
    "steps",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("protocol_id", Integer, ForeignKey("protocols.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),  # 1-based position
    Column("section", String),
    Column("text", Text, nullable=False),
    Column("duration", Integer),  # seconds
)

materials = Table(
    "materials",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("protocol_id", Integer, ForeignKey("protocols.id"), nullable=False, index=True),
    Column("name", String, nullable=False),
    Column("vendor", String),
    Column("catalog_number", String),
)

shares = Table(
    "shares",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("protocol_id", Integer, ForeignKey("protocols.id"), nullable=False, index=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("access", String, nullable=False),  # view | edit
)

comments = Table(
    "comments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("protocol_id", Integer, ForeignKey("protocols.id"), nullable=False, index=True),
    Column("step_id", Integer, ForeignKey("steps.id")),
    Column("parent_id", Integer),
    Column("author_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("body", Text, nullable=False),
    Column("created_on", String, nullable=False, info={"volatile": True}),
)

bookmarks = Table(
    "bookmarks",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("protocol_id", Integer, ForeignKey("protocols.id"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("created_on", String, nullable=False, info={"volatile": True}),
)
