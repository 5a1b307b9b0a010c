"""Google Drive's objects as tables, for two Google Workspace organizations and a few personal Google accounts: people,
groups and their members, each organization's sharing policy, shared drives and their restrictions, files and
folders (one parent each; a user's My Drive root is a folder row, a shared drive's top level is the drive's id),
permissions on files, folders and shared drives (a shared drive's members are the permissions on its id), revisions,
comments and replies, access requests, and stars (per person). Times are RFC 3339 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

domains = Table(
    "domains",
    metadata,
    Column("name", String, primary_key=True),  # cobaltridge.com
    Column("organization", String, nullable=False),
    Column("permission_id", String, nullable=False),  # the id a `domain` permission for it carries
    # About.domainSharingPolicy: allowed | allowedWithWarning | incomingOnly | disallowed
    Column("sharing_policy", String, nullable=False),
    Column("trusted_domains", JSON, nullable=False),  # shared with even when sharing out is off
    Column("allow_anyone_links", Boolean, nullable=False),  # whether items may be shared with 'anyone'
)

users = Table(
    "users",
    metadata,
    Column("email", String, primary_key=True),
    Column("display_name", String, nullable=False),
    Column("permission_id", String, nullable=False, unique=True),  # the user's Google account id
    Column("domain", String, ForeignKey("domains.name")),  # null for a personal (consumer) Google account
    Column("is_admin", Boolean, nullable=False, default=False),  # a Workspace administrator of their domain
    Column("storage_limit", Integer, nullable=False),  # bytes
    Column("root_id", String, nullable=False),  # their My Drive root folder
)

groups = Table(
    "groups",
    metadata,
    Column("email", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("permission_id", String, nullable=False, unique=True),
    Column("domain", String, ForeignKey("domains.name"), nullable=False),
)

group_members = Table(
    "group_members",
    metadata,
    Column("key", String, primary_key=True),  # <group>|<user>
    Column("group_email", String, ForeignKey("groups.email"), nullable=False),
    Column("user_email", String, ForeignKey("users.email"), nullable=False, index=True),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # always "current": whose Drive the app acts for
    Column("email", String, ForeignKey("users.email"), nullable=False),
    Column("scope", String, nullable=False),  # drive | drive.readonly
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

drives = Table(
    "drives",
    metadata,
    Column("id", String, primary_key=True),  # 0A...Uk9PVA
    Column("name", String, nullable=False),
    Column("domain", String, ForeignKey("domains.name"), nullable=False),  # the organization that owns it
    Column("created_time", String, nullable=False, info={"volatile": True}),
    Column("hidden", Boolean, nullable=False, default=False),
    Column("admin_managed_restrictions", Boolean, nullable=False, default=False),
    Column("copy_requires_writer_permission", Boolean, nullable=False, default=False),
    Column("domain_users_only", Boolean, nullable=False, default=False),
    Column("drive_members_only", Boolean, nullable=False, default=False),
    Column("sharing_folders_requires_organizer_permission", Boolean, nullable=False, default=False),
)

files = Table(
    "files",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("mime_type", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("parent_id", String, index=True),  # a folder's id or a shared drive's id; null only for My Drive roots
    Column("drive_id", String, ForeignKey("drives.id")),  # the shared drive holding it
    Column("owner_email", String, ForeignKey("users.email")),  # null in shared drives (the drive owns them)
    Column("is_root", Boolean, nullable=False, default=False),
    Column("trashed", Boolean, nullable=False, default=False),
    Column("explicitly_trashed", Boolean, nullable=False, default=False),
    Column("trashing_user", String),
    Column("trashed_time", String, info={"volatile": True}),
    Column("created_time", String, nullable=False, info={"volatile": True}),
    Column("modified_time", String, nullable=False, info={"volatile": True}),
    Column("last_modifying_user", String),
    Column("size", Integer),  # bytes; null for folders and Google Docs, Sheets and Slides
    Column("head_revision_id", String),
    Column("version", Integer, nullable=False, default=1),
    Column("copy_requires_writer_permission", Boolean, nullable=False, default=False),
    Column("writers_can_share", Boolean, nullable=False, default=True),
    Column("text", Text, nullable=False, default=""),  # words of the content, for fullText search
)

permissions = Table(
    "permissions",
    metadata,
    Column("key", String, primary_key=True),  # <file or drive id>|<permission id>
    Column("file_id", String, nullable=False, index=True),  # a file's, folder's or shared drive's id
    Column("permission_id", String, nullable=False),
    Column("type", String, nullable=False),  # user | group | domain | anyone
    Column("role", String, nullable=False),  # owner | organizer | fileOrganizer | writer | commenter | reader
    Column("email_address", String, index=True),  # users and groups
    Column("domain", String),  # domain permissions
    Column("allow_file_discovery", Boolean),  # domain and anyone permissions
    Column("expiration_time", String),
    Column("pending_owner", Boolean, nullable=False, default=False),
)

revisions = Table(
    "revisions",
    metadata,
    Column("key", String, primary_key=True),  # <file id>|<revision id>
    Column("file_id", String, ForeignKey("files.id"), nullable=False, index=True),
    Column("revision_id", String, nullable=False),
    Column("number", Integer, nullable=False),  # order within the file, oldest first
    Column("mime_type", String, nullable=False),
    Column("modified_time", String, nullable=False, info={"volatile": True}),
    Column("last_modifying_user", String, nullable=False),
    Column("keep_forever", Boolean, nullable=False, default=False),
    Column("original_filename", String),
    Column("md5_checksum", String),
    Column("size", Integer),
    Column("restored_from", String),  # the revision whose content this one brought back
)

comments = Table(
    "comments",
    metadata,
    Column("id", String, primary_key=True),  # AAAA...
    Column("file_id", String, ForeignKey("files.id"), nullable=False, index=True),
    Column("author_email", String, nullable=False),
    Column("content", Text, nullable=False),
    Column("quoted_text", Text),
    Column("resolved", Boolean, nullable=False, default=False),
    Column("deleted", Boolean, nullable=False, default=False),
    Column("created_time", String, nullable=False, info={"volatile": True}),
    Column("modified_time", String, nullable=False, info={"volatile": True}),
)

replies = Table(
    "replies",
    metadata,
    Column("id", String, primary_key=True),
    Column("comment_id", String, ForeignKey("comments.id"), nullable=False, index=True),
    Column("author_email", String, nullable=False),
    Column("content", Text, nullable=False),
    Column("action", String),  # resolve | reopen
    Column("created_time", String, nullable=False, info={"volatile": True}),
)

access_proposals = Table(
    "access_proposals",
    metadata,
    Column("id", String, primary_key=True),  # the proposalId
    Column("file_id", String, ForeignKey("files.id"), nullable=False),
    Column("requester_email", String, nullable=False),
    Column("recipient_email", String, nullable=False),
    Column("role", String, nullable=False),  # the role asked for: reader | commenter | writer
    Column("message", Text, nullable=False, default=""),
    Column("create_time", String, nullable=False, info={"volatile": True}),
    Column("status", String, nullable=False, default="pending"),  # pending | accepted | denied
)

stars = Table(
    "stars",
    metadata,
    Column("key", String, primary_key=True),  # <email>|<file id>
    Column("email", String, ForeignKey("users.email"), nullable=False, index=True),
    Column("file_id", String, ForeignKey("files.id"), nullable=False),
)
