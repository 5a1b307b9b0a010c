"""S3 and IAM as tables. Buckets are keyed by their globally unique name, object versions by bucket, key and
version id (`null` in a bucket that never had versioning), lifecycle rules by bucket and rule id, so the state does
not depend on the order of independent writes. IAM users and policies are keyed by name
and ARN. Times are ISO 8601 UTC strings."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

iam_users = Table(
    "iam_users",
    metadata,
    Column("user_name", String, primary_key=True),
    Column("user_id", String, nullable=False, unique=True),  # AIDA... 21 characters
    Column("path", String, nullable=False),
    Column("console_access", Boolean, nullable=False),  # has a console password (people) or not (service users)
    Column("created", String, nullable=False),
    Column("password_last_used", String),
)

iam_policies = Table(
    "iam_policies",
    metadata,
    Column("arn", String, primary_key=True),
    Column("policy_name", String, nullable=False),
    Column("scope", String, nullable=False),  # AWS | Local (customer managed)
    Column("description", Text, nullable=False, default=""),
    Column("document", JSON, nullable=False),  # {"Version": "2012-10-17", "Statement": [...]}
    Column("default_version_id", String, nullable=False),
    Column("created", String, nullable=False),
)

user_policy_attachments = Table(
    "user_policy_attachments",
    metadata,
    Column("id", String, primary_key=True),  # "<user_name>|<policy arn>"
    Column("user_name", String, ForeignKey("iam_users.user_name"), nullable=False),
    Column("policy_arn", String, ForeignKey("iam_policies.arn"), nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # "current": the IAM user the assistant acts as
    Column("user_name", String, ForeignKey("iam_users.user_name"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

buckets = Table(
    "buckets",
    metadata,
    Column("name", String, primary_key=True),
    Column("region", String, nullable=False),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("versioning", String, nullable=False),  # Unversioned | Enabled | Suspended
    Column("block_public_acls", Boolean, nullable=False),
    Column("ignore_public_acls", Boolean, nullable=False),
    Column("block_public_policy", Boolean, nullable=False),
    Column("restrict_public_buckets", Boolean, nullable=False),
    Column("policy", JSON),  # the bucket policy document, null when none
)

foreign_buckets = Table(
    "foreign_buckets",
    metadata,
    Column("name", String, primary_key=True),  # names other AWS accounts hold (the namespace is global)
    Column("owner_account", String, nullable=False),
)

objects = Table(
    "objects",
    metadata,
    Column("id", String, primary_key=True),  # "<bucket>/<key>?versionId=<version id>"
    Column("bucket", String, ForeignKey("buckets.name"), nullable=False),
    Column("key", String, nullable=False),
    Column("version_id", String, nullable=False),  # "null" for objects stored while versioning was off or suspended
    Column("seq", Integer, nullable=False),  # write order within the key: the highest is its latest version
    Column("is_latest", Boolean, nullable=False),
    Column("is_delete_marker", Boolean, nullable=False),
    Column("size", Integer, nullable=False),
    Column("etag", String, nullable=False),
    Column("content_type", String, nullable=False),
    Column("storage_class", String, nullable=False),  # STANDARD | STANDARD_IA | GLACIER | DEEP_ARCHIVE | ...
    Column("acl", String, nullable=False),  # private | public-read | bucket-owner-full-control
    Column("metadata", JSON, nullable=False),  # x-amz-meta-* user metadata
    Column("last_modified", String, nullable=False, info={"volatile": True}),
    Column("owner", String, nullable=False),  # the IAM user who wrote it
)

lifecycle_rules = Table(
    "lifecycle_rules",
    metadata,
    Column("id", String, primary_key=True),  # "<bucket>|<rule id>"
    Column("bucket", String, ForeignKey("buckets.name"), nullable=False),
    Column("rule_id", String, nullable=False),
    Column("prefix", String, nullable=False),
    Column("status", String, nullable=False),  # Enabled | Disabled
    Column("expiration_days", Integer),
    Column("transition_days", Integer),
    Column("transition_storage_class", String),
    Column("noncurrent_expiration_days", Integer),
    Column("abort_incomplete_multipart_days", Integer),
)

presigned_urls = Table(
    "presigned_urls",
    metadata,
    Column("id", String, primary_key=True),
    Column("bucket", String, ForeignKey("buckets.name"), nullable=False),
    Column("key", String, nullable=False),
    Column("version_id", String),
    Column("method", String, nullable=False),  # GET | PUT
    Column("expires_in", Integer, nullable=False),
    Column("expires_at", String, nullable=False, info={"volatile": True}),
    Column("signed_by", String, ForeignKey("iam_users.user_name"), nullable=False),
    Column("url", Text, nullable=False, info={"volatile": True}),
)
