"""Cloudflare's account, zone and DNS objects as tables, plus the registrar's view of each domain (what the
domain's owner controls outside Cloudflare). Ids are 32-character hex strings, as in the API."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String, primary_key=True),
    Column("email", String, nullable=False, unique=True),
    Column("first_name", String),
    Column("last_name", String),
    Column("two_factor_authentication_enabled", Boolean, nullable=False, default=False),
)

session = Table(
    "session",
    metadata,
    Column("key", String, primary_key=True),  # "current": the API token the agent uses
    Column("token_id", String, nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),  # whose API token it is
    Column("signed_in_at", String, info={"volatile": True}),
)

accounts = Table(
    "accounts",
    metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("type", String, nullable=False),  # standard | enterprise
    Column("created_on", String, nullable=False, info={"volatile": True}),
)

account_members = Table(
    "account_members",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("user_id", String, ForeignKey("users.id"), nullable=False),
    # Super Administrator - All Privileges | Administrator | DNS | Administrator Read Only
    Column("roles", JSON, nullable=False),
    Column("status", String, nullable=False),  # accepted | pending
    Column("invited_on", String, info={"volatile": True}),
)

zones = Table(
    "zones",
    metadata,
    Column("id", String, primary_key=True),
    Column("account_id", String, ForeignKey("accounts.id"), nullable=False),
    Column("name", String, nullable=False, unique=True),
    Column("status", String, nullable=False),  # active | pending
    Column("type", String, nullable=False),  # full | partial
    Column("plan", String, nullable=False),  # Free | Pro | Business | Enterprise
    Column("paused", Boolean, nullable=False, default=False),
    Column("name_servers", JSON, nullable=False),  # the Cloudflare nameservers assigned to the zone
    Column("original_name_servers", JSON, nullable=False),
    Column("original_registrar", String),
    Column("verification_key", String),  # partial (CNAME) setups prove ownership with this TXT value
    Column("created_on", String, nullable=False, info={"volatile": True}),
    Column("modified_on", String, nullable=False, info={"volatile": True}),
    Column("activated_on", String, info={"volatile": True}),
)

dns_records = Table(
    "dns_records",
    metadata,
    Column("id", String, primary_key=True),
    Column("zone_id", String, ForeignKey("zones.id"), nullable=False),
    Column("type", String, nullable=False),  # A | AAAA | CNAME | MX | TXT | SRV | CAA
    Column("name", String, nullable=False),  # fully qualified, lower case
    Column("content", Text, nullable=False),
    Column("ttl", Integer, nullable=False),  # 1 = automatic
    Column("proxied", Boolean, nullable=False, default=False),
    Column("priority", Integer),  # MX and SRV
    Column("comment", Text),
    Column("created_on", String, nullable=False, info={"volatile": True}),
    Column("modified_on", String, nullable=False, info={"volatile": True}),
)

zone_settings = Table(
    "zone_settings",
    metadata,
    Column("key", String, primary_key=True),  # <zone_id>/<setting id>
    Column("zone_id", String, ForeignKey("zones.id"), nullable=False),
    Column("setting", String, nullable=False),
    Column("value", String, nullable=False),  # as text; browser_cache_ttl holds seconds
    Column("modified_on", String, info={"volatile": True}),
)

page_rules = Table(
    "page_rules",
    metadata,
    Column("id", String, primary_key=True),
    Column("zone_id", String, ForeignKey("zones.id"), nullable=False),
    Column("targets", JSON, nullable=False),  # [{"target": "url", "constraint": {"operator": "matches", "value"}}]
    Column("actions", JSON, nullable=False),  # [{"id", "value"}]
    Column("priority", Integer, nullable=False),  # higher wins
    Column("status", String, nullable=False),  # active | disabled
    Column("created_on", String, nullable=False, info={"volatile": True}),
    Column("modified_on", String, nullable=False, info={"volatile": True}),
)

dnssec = Table(
    "dnssec",
    metadata,
    Column("zone_id", String, ForeignKey("zones.id"), primary_key=True),
    Column("status", String, nullable=False),  # disabled | pending | active | pending-disabled
    Column("key_tag", Integer),
    Column("digest", String),
    Column("public_key", Text),
    Column("modified_on", String, info={"volatile": True}),
)

cache_purges = Table(
    "cache_purges",
    metadata,
    Column("id", String, primary_key=True),
    Column("zone_id", String, ForeignKey("zones.id"), nullable=False),
    Column("purge_everything", Boolean, nullable=False),
    Column("files", JSON, nullable=False),
    Column("tags", JSON, nullable=False),
    Column("hosts", JSON, nullable=False),
    Column("created_on", String, nullable=False, info={"volatile": True}),
)

registrar_domains = Table(
    "registrar_domains",
    metadata,
    Column("domain", String, primary_key=True),
    Column("registrar", String, nullable=False),
    Column("name_servers", JSON, nullable=False),  # what the registry delegates the domain to
    Column("txt_records", JSON, nullable=False),  # [{"name", "content"}] at the registrar's own DNS
    Column("ds_records", JSON, nullable=False),  # DS records published in the parent zone
)
