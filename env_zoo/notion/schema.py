"""Notion's objects as tables: users, pages (database rows too), databases, blocks and comments."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("email", String),
    Column("type", String, nullable=False),  # person | bot
    Column("role", String, nullable=False),  # owner | member | guest | integration
)

databases = Table(
    "databases",
    metadata,
    Column("id", String, primary_key=True),
    Column("title", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("parent_page_id", String, ForeignKey("pages.id"), nullable=True),
    # property name -> {"type": select|status|people|date|number|rich_text|checkbox, "options": [...]}
    Column("properties", JSON, nullable=False),
    Column("shared_with_integration", Boolean, nullable=False, default=True),
    Column("in_trash", Boolean, nullable=False, default=False),
    Column("trashed_with", String, nullable=True),  # the page whose trashing took this database along
)

pages = Table(
    "pages",
    metadata,
    Column("id", String, primary_key=True),
    Column("title", String, nullable=False),
    Column("parent_type", String, nullable=False),  # workspace | page_id | database_id
    Column("parent_id", String, nullable=True),
    Column("icon", String, nullable=True),
    Column("properties", JSON, nullable=False, default=dict),  # database rows: property values by name
    Column("created_by", String, ForeignKey("users.id"), nullable=False),
    Column("created_time", String, nullable=False, info={"volatile": True}),
    Column("last_edited_time", String, nullable=False, info={"volatile": True}),
    Column("shared_with_integration", Boolean, nullable=False, default=True),
    Column("locked", Boolean, nullable=False, default=False),
    Column("in_trash", Boolean, nullable=False, default=False),
    Column("trashed_with", String, nullable=True),  # the page whose trashing took this one along
)

blocks = Table(
    "blocks",
    metadata,
    Column("id", String, primary_key=True),
    Column("page_id", String, ForeignKey("pages.id"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("type", String, nullable=False),
    Column("text", Text, nullable=False, default=""),
    Column("checked", Boolean, nullable=True),
)

comments = Table(
    "comments",
    metadata,
    Column("id", String, primary_key=True),
    Column("page_id", String, ForeignKey("pages.id"), nullable=False),
    Column("author_id", String, ForeignKey("users.id"), nullable=False),
    Column("text", Text, nullable=False),
    Column("created_time", String, nullable=False, info={"volatile": True}),
)
