"""Okta's objects as tables. Ids are Okta's 20-character ids with their kind's prefix (users 00u, groups 00g, apps 0oa,
group rules 0pr, role assignments ra1, factors by type: sms mbl, push opf, TOTP ost). Times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("login", String, nullable=False, unique=True),
    Column("email", String, nullable=False),
    Column("first_name", String, nullable=False),
    Column("last_name", String, nullable=False),
    Column("department", String),
    Column("title", String),
    Column("mobile_phone", String),
    # STAGED | PROVISIONED | ACTIVE | RECOVERY | PASSWORD_EXPIRED | LOCKED_OUT | SUSPENDED | DEPROVISIONED
    Column("status", String, nullable=False),
    Column("has_password", Boolean, nullable=False),  # a password credential is set (activation ends ACTIVE)
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("activated", String, info={"volatile": True}),
    Column("status_changed", String, info={"volatile": True}),
    Column("last_login", String),
    Column("last_updated", String, nullable=False, info={"volatile": True}),
    Column("password_changed", String),
)

groups = Table(
    "groups",
    metadata,
    Column("id", String, primary_key=True),
    Column("type", String, nullable=False),  # OKTA_GROUP | APP_GROUP (imported, read-only membership) | BUILT_IN
    Column("name", String, nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("source_app_id", String, ForeignKey("apps.id")),  # the app an APP_GROUP is imported from
    Column("created", String, nullable=False),
)

group_members = Table(
    "group_members",
    metadata,
    Column("group_id", String, ForeignKey("groups.id"), primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), primary_key=True),
    Column("rule_id", String, ForeignKey("group_rules.id")),  # set: the membership is managed by this group rule
)

group_rules = Table(
    "group_rules",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("status", String, nullable=False),  # ACTIVE | INACTIVE
    Column("expression", String, nullable=False),  # Okta expression language, e.g. user.department=="Sales"
    Column("group_ids", JSON, nullable=False),  # the OKTA_GROUPs matching users are assigned to
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("last_updated", String, nullable=False, info={"volatile": True}),
)

apps = Table(
    "apps",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),  # the app's integration key, e.g. slack
    Column("label", String, nullable=False),
    Column("status", String, nullable=False),  # ACTIVE | INACTIVE
    Column("sign_on_mode", String, nullable=False),  # SAML_2_0 | OPENID_CONNECT | BOOKMARK | AUTO_LOGIN
    Column("created", String, nullable=False),
)

app_users = Table(
    "app_users",
    metadata,
    Column("app_id", String, ForeignKey("apps.id"), primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), primary_key=True),
    Column("created", String, nullable=False, info={"volatile": True}),
)

app_groups = Table(
    "app_groups",
    metadata,
    Column("app_id", String, ForeignKey("apps.id"), primary_key=True),
    Column("group_id", String, ForeignKey("groups.id"), primary_key=True),
    Column("priority", Integer, nullable=False),
)

factors = Table(
    "factors",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("factor_type", String, nullable=False),  # sms | push | token:software:totp
    Column("provider", String, nullable=False),  # OKTA | GOOGLE
    Column("status", String, nullable=False),  # ACTIVE | PENDING_ACTIVATION
    Column("phone_number", String),  # sms
    Column("device_name", String),  # push
    Column("created", String, nullable=False, info={"volatile": True}),
)

admin_roles = Table(
    "admin_roles",
    metadata,
    Column("id", String, primary_key=True),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    # SUPER_ADMIN | ORG_ADMIN | USER_ADMIN | HELP_DESK_ADMIN | GROUP_MEMBERSHIP_ADMIN | APP_ADMIN | READ_ONLY_ADMIN
    Column("type", String, nullable=False),
    Column("targets", JSON, nullable=False),  # group ids a scoped role is limited to; empty: the whole org
    Column("created", String, nullable=False, info={"volatile": True}),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the administrator the assistant acts for
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)
