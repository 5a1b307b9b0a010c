"""Dropbox's objects as tables: accounts and the signed-in session, the entries of each account's Dropbox (files
and folders by path, live or deleted), file revisions, shared folders and their members, shared links and file
requests. Paths are stored as Dropbox shows them (`path_display`) and lower-cased (`path_lower`) for lookups."""

from sqlalchemy import Boolean, Column, ForeignKey, Index, Integer, MetaData, String, Table

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("account_id", String, primary_key=True),  # dbid:AA...
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("password", String, nullable=False),
    Column("account_type", String, nullable=False),  # basic | pro | business
    Column("team_name", String),  # business accounts only
    Column("team_domain", String),  # email domain of the team (business accounts only)
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, ForeignKey("users.account_id"), nullable=False),
    Column("signed_in_at", String, info={"volatile": True}),
)

entries = Table(
    "entries",
    metadata,
    Column("id", String, primary_key=True),  # id:...
    Column("account_id", String, ForeignKey("users.account_id"), nullable=False),  # whose Dropbox holds it
    Column("tag", String, nullable=False),  # file | folder
    Column("name", String, nullable=False),
    Column("path_display", String, nullable=False),
    Column("path_lower", String, nullable=False),
    Column("parent_lower", String, nullable=False),  # "" for the root
    Column("is_deleted", Boolean, nullable=False),
    Column("rev", String),  # files: the current revision
    Column("size", Integer),
    Column("content_hash", String),
    Column("client_modified", String, info={"volatile": True}),
    Column("server_modified", String, info={"volatile": True}),
    Column("shared_folder_id", String),  # set on the root folder of a shared folder
    Index("ix_entries_path", "account_id", "path_lower"),
    Index("ix_entries_parent", "account_id", "parent_lower"),
)

revisions = Table(
    "revisions",
    metadata,
    Column("rev", String, primary_key=True),
    Column("entry_id", String, ForeignKey("entries.id"), nullable=False),
    Column("path_display", String, nullable=False),
    Column("size", Integer, nullable=False),
    Column("content_hash", String, nullable=False),
    Column("content", String),  # text files only; binary contents are not kept
    Column("client_modified", String, nullable=False, info={"volatile": True}),
    Column("server_modified", String, nullable=False, info={"volatile": True}),
    Index("ix_revisions_entry", "entry_id"),
)

shared_folders = Table(
    "shared_folders",
    metadata,
    Column("shared_folder_id", String, primary_key=True),  # digits
    Column("entry_id", String, ForeignKey("entries.id"), nullable=False),  # the folder as mounted for the account
    Column("name", String, nullable=False),
    Column("owner_email", String, nullable=False),
    Column("acl_update_policy", String, nullable=False),  # owner | editors
    Column("member_policy", String, nullable=False),  # team | anyone
    Column("shared_link_policy", String, nullable=False),  # anyone | members
    Column("time_invited", String, info={"volatile": True}),
)

folder_members = Table(
    "folder_members",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("shared_folder_id", String, ForeignKey("shared_folders.shared_folder_id"), nullable=False),
    Column("email", String, nullable=False),
    Column("display_name", String),
    Column("account_id", String),  # None for an invitee without a Dropbox account
    Column("access_level", String, nullable=False),  # owner | editor | viewer | viewer_no_comment
    Column("status", String, nullable=False),  # active | invited
    Index("ix_folder_members_folder", "shared_folder_id"),
)

shared_links = Table(
    "shared_links",
    metadata,
    Column("url", String, primary_key=True),
    Column("entry_id", String, ForeignKey("entries.id"), nullable=False),
    Column("account_id", String, ForeignKey("users.account_id"), nullable=False),
    Column("requested_visibility", String, nullable=False),  # public | team_only | password
    Column("link_password", String),
    Column("expires", String),
    Column("allow_download", Boolean, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
    Index("ix_shared_links_entry", "entry_id"),
)

file_requests = Table(
    "file_requests",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, ForeignKey("users.account_id"), nullable=False),
    Column("title", String, nullable=False),
    Column("destination_id", String, ForeignKey("entries.id")),  # the folder uploads go to
    Column("description", String),
    Column("deadline", String),
    Column("allow_late_uploads", String),  # one_day | two_days | seven_days | thirty_days | always
    Column("is_open", Boolean, nullable=False),
    Column("file_count", Integer, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
)
