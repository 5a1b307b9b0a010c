"""S3 and IAM responses as output models (ListBuckets, ListObjectsV2, ListObjectVersions, HeadObject, bucket
policy and lifecycle configurations, IAM users, policies and simulation results) and the input shapes of policy
statements and lifecycle rules."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Unordered

StorageClass = Literal[
    "STANDARD", "STANDARD_IA", "ONEZONE_IA", "INTELLIGENT_TIERING", "GLACIER_IR", "GLACIER", "DEEP_ARCHIVE"
]
TransitionClass = Literal["STANDARD_IA", "ONEZONE_IA", "INTELLIGENT_TIERING", "GLACIER_IR", "GLACIER", "DEEP_ARCHIVE"]
Days = Annotated[int, Field(ge=1, le=36500)]


class PolicyStatement(BaseModel):
    """One statement of a bucket policy."""

    sid: Annotated[str, Field(pattern=r"^[A-Za-z0-9]{1,100}$")] | None = Field(None, description="statement id")
    effect: Literal["Allow", "Deny"]
    principals: Annotated[list[str], Unordered, Field(min_length=1)] = Field(
        description='"*" for everyone, or IAM ARNs such as arn:aws:iam::210987654321:user/jonah.reyes'
    )
    actions: Annotated[list[str], Unordered, Field(min_length=1)] = Field(description="e.g. s3:GetObject, s3:*")
    resources: Annotated[list[str], Unordered, Field(min_length=1)] = Field(
        description="the bucket's ARN (arn:aws:s3:::name) or object ARNs (arn:aws:s3:::name/prefix/*)"
    )


class LifecycleRule(BaseModel):
    """One lifecycle rule: objects under a prefix transition and/or expire some days after creation."""

    id: Annotated[str, Field(min_length=1, max_length=255)]
    prefix: Annotated[str, Field(max_length=1024)] = Field(
        "", description="key prefix the rule applies to; empty for all"
    )
    status: Literal["Enabled", "Disabled"] = "Enabled"
    expiration_days: Days | None = Field(None, description="delete current versions this many days after creation")
    transition_days: Days | None = Field(None, description="move objects to transition_storage_class after these days")
    transition_storage_class: TransitionClass | None = None
    noncurrent_version_expiration_days: Days | None = Field(
        None, description="permanently delete noncurrent versions this many days after they became noncurrent"
    )
    abort_incomplete_multipart_upload_days: Days | None = None


class Bucket(BaseModel):
    """A bucket as ListBuckets shows it."""

    name: str
    region: str
    creation_date: str


class BucketList(BaseModel):
    """The account's buckets, by name."""

    buckets: list[Bucket]
    owner: str = Field(description="the account id")
    continuation_token: str | None = Field(description="pass to get the next page; null on the last")


class PublicAccessBlock(BaseModel):
    """The bucket's Block Public Access settings."""

    block_public_acls: bool
    ignore_public_acls: bool
    block_public_policy: bool
    restrict_public_buckets: bool


class BucketSettings(BaseModel):
    """A bucket's location, versioning status, Block Public Access settings and what else it has configured."""

    name: str
    region: str
    creation_date: str
    versioning: str = Field(description="Unversioned (never enabled), Enabled or Suspended")
    public_access_block: PublicAccessBlock
    has_policy: bool
    lifecycle_rule_count: int


class ObjectSummary(BaseModel):
    """An object (its current version) in a listing."""

    key: str
    size: int
    etag: str
    last_modified: str
    storage_class: str


class ObjectListing(BaseModel):
    """ListObjectsV2: keys in UTF-8 order; with a delimiter, keys sharing a prefix up to it roll up."""

    name: str
    prefix: str
    contents: list[ObjectSummary]
    common_prefixes: list[str]
    key_count: int
    is_truncated: bool
    next_continuation_token: str | None


class ObjectVersion(BaseModel):
    """A version or delete marker of a key."""

    key: str
    version_id: str
    is_latest: bool
    is_delete_marker: bool
    size: int | None
    etag: str | None
    last_modified: str
    storage_class: str | None


class VersionListing(BaseModel):
    """ListObjectVersions: by key, newest version first within a key."""

    name: str
    prefix: str
    versions: list[ObjectVersion]
    is_truncated: bool
    next_key_marker: str | None
    next_version_id_marker: str | None


class Expiration(BaseModel):
    """When a lifecycle rule will expire the object."""

    expiry_date: str
    rule_id: str


class ObjectHead(BaseModel):
    """HeadObject: an object version's metadata."""

    bucket: str
    key: str
    version_id: str
    size: int
    etag: str
    content_type: str
    last_modified: str
    storage_class: str
    acl: str
    metadata: dict[str, str]
    expiration: Expiration | None


class PutResult(BaseModel):
    """PutObject / CopyObject: the new version."""

    bucket: str
    key: str
    etag: str
    version_id: str = Field(description='"null" in a bucket without versioning (or suspended)')


class DeleteResult(BaseModel):
    """DeleteObject: what was deleted or which delete marker was written."""

    bucket: str
    key: str
    delete_marker: bool = Field(description="true when a delete marker was written or removed")
    version_id: str | None = Field(description="the version removed, or the new delete marker's version id")


class BucketPolicy(BaseModel):
    """A bucket policy document."""

    bucket: str
    policy: dict[str, Any]


class Lifecycle(BaseModel):
    """A bucket's lifecycle configuration (every rule)."""

    bucket: str
    rules: list[LifecycleRule]


class PresignedUrl(BaseModel):
    """A URL anyone holding it can use until it expires, with the signer's permissions."""

    url: str
    method: str
    expires_in: int
    expires_at: str


class IamUser(BaseModel):
    """An IAM user of the account."""

    user_name: str
    user_id: str
    arn: str
    path: str
    create_date: str
    password_last_used: str | None
    console_access: bool


class SignedIn(BaseModel):
    """The signed-in IAM user."""

    account: str
    user: IamUser


class UserList(BaseModel):
    """IAM users, by name."""

    users: list[IamUser]
    is_truncated: bool
    marker: str | None


class AttachedPolicy(BaseModel):
    """A managed policy attached to a user."""

    policy_name: str
    policy_arn: str


class ManagedPolicy(BaseModel):
    """A managed policy with its default version's document."""

    arn: str
    policy_name: str
    scope: str = Field(description="AWS (AWS managed) or Local (customer managed)")
    description: str
    default_version_id: str
    attachment_count: int
    document: dict[str, Any]


class EvaluationResult(BaseModel):
    """SimulatePrincipalPolicy: one action on one resource."""

    eval_action_name: str
    eval_resource_name: str
    eval_decision: str = Field(description="allowed, explicitDeny or implicitDeny")
    decided_by: str | None = Field(description="identity (the user's policies) or resource (the bucket policy)")


def iam_user(row: dict[str, Any], arn: str) -> IamUser:
    """An IAM user row as the API shows it."""
    return IamUser(
        user_name=row["user_name"],
        user_id=row["user_id"],
        arn=arn,
        path=row["path"],
        create_date=row["created"],
        password_last_used=row["password_last_used"],
        console_access=row["console_access"],
    )


def version_out(row: dict[str, Any]) -> ObjectVersion:
    """An object version or delete marker row in a version listing."""
    marker = row["is_delete_marker"]
    return ObjectVersion(
        key=row["key"],
        version_id=row["version_id"],
        is_latest=row["is_latest"],
        is_delete_marker=marker,
        size=None if marker else row["size"],
        etag=None if marker else row["etag"],
        last_modified=row["last_modified"],
        storage_class=None if marker else row["storage_class"],
    )


def rule_out(row: dict[str, Any]) -> LifecycleRule:
    """A stored lifecycle rule as the configuration shows it."""
    return LifecycleRule(
        id=row["rule_id"],
        prefix=row["prefix"],
        status=row["status"],
        expiration_days=row["expiration_days"],
        transition_days=row["transition_days"],
        transition_storage_class=row["transition_storage_class"],
        noncurrent_version_expiration_days=row["noncurrent_expiration_days"],
        abort_incomplete_multipart_upload_days=row["abort_incomplete_multipart_days"],
    )
