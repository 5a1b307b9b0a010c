"""Zotero's objects as tables: users, the API key, libraries, groups with members and invitations, items (notes and
attachments are child items), collections and saved searches. Object and library versions are kept but left out of
the state comparison: only their consistency matters, which the tools enforce."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),  # the Zotero userID
    Column("username", String, nullable=False),
    Column("display_name", String, nullable=False),
)

api_keys = Table(
    "api_keys",
    metadata,
    Column("key", String, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("library_access", Boolean, nullable=False),  # read the personal library
    Column("notes_access", Boolean, nullable=False),  # read and write notes
    Column("write_access", Boolean, nullable=False),  # write the personal library
    Column("groups_access", String, nullable=False),  # none | read | write (all groups)
)

libraries = Table(
    "libraries",
    metadata,
    Column("id", String, primary_key=True),  # users/<userID> | groups/<groupID>
    Column("type", String, nullable=False),  # user | group
    Column("name", String, nullable=False),
    Column("version", Integer, nullable=False, info={"volatile": True}),  # Last-Modified-Version
)

groups = Table(
    "groups",
    metadata,
    Column("id", Integer, primary_key=True),  # the groupID
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # Private | PublicClosed | PublicOpen
    Column("owner", Integer, ForeignKey("users.id"), nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("url", String, nullable=False, default=""),
    Column("library_editing", String, nullable=False),  # members | admins
    Column("library_reading", String, nullable=False),  # all | members
    Column("file_editing", String, nullable=False),  # none | members | admins
)

group_members = Table(
    "group_members",
    metadata,
    Column("id", String, primary_key=True),  # <groupID>:<userID>
    Column("group_id", Integer, ForeignKey("groups.id"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("role", String, nullable=False),  # owner | admin | member
)

group_invitations = Table(
    "group_invitations",
    metadata,
    Column("id", String, primary_key=True),
    Column("group_id", Integer, ForeignKey("groups.id"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),  # the invitee
    Column("invited_by", Integer, ForeignKey("users.id"), nullable=False),
    Column("role", String, nullable=False),  # member | admin
    Column("status", String, nullable=False),  # pending | accepted
    Column("created", String, nullable=False),
)

collections = Table(
    "collections",
    metadata,
    Column("key", String, primary_key=True),
    Column("library_id", String, ForeignKey("libraries.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("parent_collection", String, ForeignKey("collections.key"), nullable=True),
    Column("version", Integer, nullable=False, info={"volatile": True}),
)

items = Table(
    "items",
    metadata,
    Column("key", String, primary_key=True),
    Column("library_id", String, ForeignKey("libraries.id"), nullable=False),
    Column("item_type", String, nullable=False),  # journalArticle | book | ... | note | attachment
    Column("parent_item", String, ForeignKey("items.key"), nullable=True),  # notes and attachments only
    Column("title", String, nullable=False, default=""),
    Column(
        "creators", JSON, nullable=False, default=list
    ),  # [{creatorType, firstName, lastName} | {creatorType, name}]
    Column("date", String, nullable=False, default=""),  # free-form, as typed
    Column("fields", JSON, nullable=False, default=dict),  # every other field valid for the type (DOI, url, ...)
    Column("tags", JSON, nullable=False, default=list),  # [{tag, type}] type 0 manual, 1 automatic
    Column("collections", JSON, nullable=False, default=list),  # collection keys (top-level items only)
    Column("relations", JSON, nullable=False, default=dict),  # e.g. {"dc:replaces": [item URIs]}
    Column("note", Text, nullable=True),  # HTML, notes only
    Column("link_mode", String, nullable=True),  # attachments: imported_file | imported_url | linked_url
    Column("content_type", String, nullable=True),
    Column("filename", String, nullable=True),
    Column("deleted", Boolean, nullable=False, default=False),  # in the trash
    Column("created_by", Integer, ForeignKey("users.id"), nullable=True),  # group libraries: createdByUser
    Column("version", Integer, nullable=False, info={"volatile": True}),
    Column("date_added", String, nullable=False, info={"volatile": True}),
    Column("date_modified", String, nullable=False, info={"volatile": True}),
)

searches = Table(
    "searches",
    metadata,
    Column("key", String, primary_key=True),
    Column("library_id", String, ForeignKey("libraries.id"), nullable=False),
    Column("name", String, nullable=False),
    Column("conditions", JSON, nullable=False),  # [{condition, operator, value}]
    Column("version", Integer, nullable=False, info={"volatile": True}),
)
