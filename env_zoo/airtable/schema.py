"""Airtable's objects as tables. Ids follow Airtable's shapes: `app`, `tbl`, `fld`, `viw`, `rec`, `com`, `usr` and
14 more characters. A record's cells are a JSON object keyed by field id, so renaming a field keeps its values."""

from sqlalchemy import JSON, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("email", String, nullable=False, unique=True),
    Column("name", String, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the user the assistant acts for
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

bases = Table(
    "bases",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("workspace", String, nullable=False),
)

collaborators = Table(
    "collaborators",
    metadata,
    Column("base_id", String, ForeignKey("bases.id"), primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), primary_key=True),
    Column("permission", String, nullable=False),  # owner | create | edit | comment | read
)

tables = Table(
    "tables",
    metadata,
    Column("id", String, primary_key=True),
    Column("base_id", String, ForeignKey("bases.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("description", Text),
    Column("primary_field_id", String, nullable=False),
    Column("position", Integer, nullable=False),
)

fields = Table(
    "fields",
    metadata,
    Column("id", String, primary_key=True),
    Column("table_id", String, ForeignKey("tables.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),
    Column("description", Text),
    Column("options", JSON, nullable=False),  # choices, linkedTableId / inverseLinkFieldId, precision
    Column("position", Integer, nullable=False),
)

views = Table(
    "views",
    metadata,
    Column("id", String, primary_key=True),
    Column("table_id", String, ForeignKey("tables.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # grid | kanban | calendar | gallery
    Column("formula", Text),  # the view's filter, in formula syntax
    Column("sort_field_id", String),
    Column("sort_direction", String),  # asc | desc
)

records = Table(
    "records",
    metadata,
    Column("id", String, primary_key=True),
    Column("table_id", String, ForeignKey("tables.id"), nullable=False, index=True),
    Column("cells", JSON, nullable=False),
    Column("created_time", String, nullable=False, info={"volatile": True}),
)

comments = Table(
    "comments",
    metadata,
    Column("id", String, primary_key=True),
    Column("record_id", String, ForeignKey("records.id"), nullable=False, index=True),
    Column("author_id", String, ForeignKey("users.id"), nullable=False),
    Column("text", Text, nullable=False),
    Column("created_time", String, nullable=False, info={"volatile": True}),
)
