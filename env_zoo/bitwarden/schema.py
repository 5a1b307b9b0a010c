"""Bitwarden's objects as tables: the account, its folders and vault items (ciphers), organizations with their
collections, members and policies, Sends, and the master-password re-prompts the user has passed. IDs are GUIDs;
enumerations keep the API's integers (item type 1 login, 2 secure note, 3 card, 4 identity; member type 0 owner,
1 admin, 2 user, 3 manager; member status -1 revoked, 0 invited, 1 accepted, 2 confirmed)."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

profile = Table(
    "profile",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("email", String, nullable=False),
    Column("email_verified", Boolean, nullable=False),
    Column("premium", Boolean, nullable=False),
    Column("master_password_hash", String, nullable=False),  # sha256 hex of the master password
    Column("master_password_hint", String),
    Column("kdf_iterations", Integer, nullable=False),
    Column("two_factor_enabled", Boolean, nullable=False),
)

organizations = Table(
    "organizations",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("plan", String, nullable=False),  # Families | Teams Starter | Teams | Enterprise
    Column("seats", Integer, nullable=False),  # members that are not revoked count against it
    Column("enabled", Boolean, nullable=False),
    Column("billing_email", String, nullable=False),
)

collections = Table(
    "collections",
    metadata,
    Column("id", String, primary_key=True),
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=False),
    Column("name", String, nullable=False),  # "Parent/Child" nests
    Column("external_id", String),
)

members = Table(
    "members",
    metadata,
    Column("id", String, primary_key=True),  # the organization-user id
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=False),
    Column("user_id", String),  # null until the invitation is accepted
    Column("name", String),
    Column("email", String, nullable=False),
    Column("type", Integer, nullable=False),  # 0 owner | 1 admin | 2 user | 3 manager
    Column("status", Integer, nullable=False),  # -1 revoked | 0 invited | 1 accepted | 2 confirmed
    Column("two_factor_enabled", Boolean, nullable=False),
    Column("collections", JSON, nullable=False),  # [{"id", "readOnly", "hidePasswords", "manage"}]
    Column("external_id", String),
    Column("creation_date", String, nullable=False, info={"volatile": True}),
)

policies = Table(
    "policies",
    metadata,
    Column("id", String, primary_key=True),
    Column("organization_id", String, ForeignKey("organizations.id"), nullable=False),
    Column("type", Integer, nullable=False),  # 0 two-step login | 2 password generator | 7 Send options | ...
    Column("enabled", Boolean, nullable=False),
    Column("data", JSON),
)

folders = Table(
    "folders",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),  # "Parent/Child" nests
    Column("revision_date", String, nullable=False, info={"volatile": True}),
)

items = Table(
    "items",
    metadata,
    Column("id", String, primary_key=True),
    Column("organization_id", String, ForeignKey("organizations.id")),
    Column("collection_ids", JSON, nullable=False),
    Column("folder_id", String, ForeignKey("folders.id")),  # the user's own folder, also for shared items
    Column("type", Integer, nullable=False),  # 1 login | 2 secure note | 3 card | 4 identity
    Column("name", String, nullable=False),
    Column("notes", Text),
    Column("favorite", Boolean, nullable=False),
    Column("reprompt", Integer, nullable=False),  # 0 none | 1 master password re-prompt
    Column("login_username", String),
    Column("login_password", String),
    Column("login_uris", JSON),  # [{"uri", "match"}]
    Column("login_totp", String),
    Column("card", JSON),  # {"cardholderName", "brand", "number", "expMonth", "expYear", "code"}
    Column("identity", JSON),
    Column("fields", JSON, nullable=False),  # [{"name", "value", "type"}] custom fields
    Column("deleted", Boolean, nullable=False),  # in the trash
    Column("password_history", JSON, nullable=False, info={"volatile": True}),  # [{"password", "lastUsedDate"}]
    Column("password_revision_date", String, info={"volatile": True}),
    Column("creation_date", String, nullable=False, info={"volatile": True}),
    Column("revision_date", String, nullable=False, info={"volatile": True}),
    Column("deleted_date", String, info={"volatile": True}),
)

sends = Table(
    "sends",
    metadata,
    Column("id", String, primary_key=True),
    Column("access_id", String, nullable=False, unique=True),
    Column("key", String, nullable=False),
    Column("type", Integer, nullable=False),  # 0 text
    Column("name", String, nullable=False),
    Column("notes", Text),
    Column("text", Text, nullable=False),
    Column("hidden", Boolean, nullable=False),
    Column("password_hash", String),
    Column("max_access_count", Integer),
    Column("access_count", Integer, nullable=False),
    Column("disabled", Boolean, nullable=False),
    Column("hide_email", Boolean, nullable=False),
    Column("deletion_date", String, nullable=False),  # on the hour
    Column("expiration_date", String),  # on the hour
    Column("revision_date", String, nullable=False, info={"volatile": True}),
)

reprompts = Table(
    "reprompts",
    metadata,
    Column("id", String, primary_key=True),
    Column("item_id", String, ForeignKey("items.id"), nullable=False),
    Column("verified_at", String, nullable=False, info={"volatile": True}),
)
