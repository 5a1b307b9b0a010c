"""Amazon S3 (buckets, objects and their versions, bucket policies, lifecycle, presigned URLs) and the IAM calls
that decide access (users, managed policies, the policy simulator), as one signed-in IAM user of the account."""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Database, paginate, tool
from envfactory_gym.fields import ErrorText, NonBlankText, text
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .access import ACCOUNT_ALIAS, ACCOUNT_ID, authorize, decide, signed_in, user_arn
from .errors import conflict, denied, invalid, no_such
from .objects import (
    AttachedPolicy,
    Bucket,
    BucketList,
    BucketPolicy,
    BucketSettings,
    DeleteResult,
    EvaluationResult,
    Expiration,
    Lifecycle,
    LifecycleRule,
    ManagedPolicy,
    ObjectHead,
    ObjectListing,
    ObjectSummary,
    PolicyStatement,
    PresignedUrl,
    PublicAccessBlock,
    PutResult,
    SignedIn,
    StorageClass,
    UserList,
    VersionListing,
    iam_user,
    rule_out,
    version_out,
)
from .policy import is_public
from .rules import ARCHIVED, check_bucket_name, check_lifecycle, etag, expiry, presigned_url
from .schema import (
    buckets,
    foreign_buckets,
    iam_policies,
    iam_users,
    lifecycle_rules,
    objects,
    presigned_urls,
    sessions,
    user_policy_attachments,
)
from .store import bucket_row, current, remove, version, versions_of, write

Region = Literal["us-east-1", "us-east-2", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2"]
BucketName = Annotated[str, Field(min_length=3, max_length=63, description="the bucket's name")]
Key = Annotated[str, Field(min_length=1, max_length=1024), ErrorText("KeyTooLongError: Your key is too long")]
MaxKeys = Annotated[int, Field(ge=1, le=1000)]
Expires = Annotated[
    int,
    Field(ge=1, le=604800),
    ErrorText(
        "AuthorizationQueryParametersError: X-Amz-Expires must be less than a week (in seconds); that is, the "
        "given X-Amz-Expires must be less than 604800 seconds"
    ),
]
UserName = Annotated[str, Field(pattern=r"^[\w+=,.@-]{1,64}$")]
PolicyArn = Annotated[str, Field(pattern=r"^arn:aws:iam::(aws|\d{12}):policy/[\w+=,.@/-]+$")]
ARN_S3 = "arn:aws:s3:::"


def _bucket_arn(name: str) -> str:
    return f"{ARN_S3}{name}"


def _object_arn(name: str, key: str) -> str:
    return f"{ARN_S3}{name}/{key}"


def _settings(db: Database, row: dict[str, Any]) -> BucketSettings:
    return BucketSettings(
        name=row["name"],
        region=row["region"],
        creation_date=row["created"],
        versioning=row["versioning"],
        public_access_block=PublicAccessBlock(**{f: row[f] for f in PublicAccessBlock.model_fields}),
        has_policy=row["policy"] is not None,
        lifecycle_rule_count=len(db.find(lifecycle_rules, bucket=row["name"])),
    )


def _iam_user(db: Database, user_name: str) -> dict[str, Any]:
    return db.find_one(
        iam_users, user_name=user_name, not_found=f"NoSuchEntity: The user with name {user_name} cannot be found."
    )


def _token(key: str) -> str:
    return base64.urlsafe_b64encode(key.encode()).decode()


def _untoken(token: str) -> str:
    try:
        return base64.urlsafe_b64decode(token.encode()).decode()
    except ValueError:
        raise invalid("InvalidArgument", "The continuation token provided is incorrect") from None


# ---------------------------------------------------------------- sign-in


@tool(user_only=True)
def sign_in(db: Database, account: NonBlankText, user_name: UserName) -> SignedIn:
    """(User only) The person signs in to the AWS console as an IAM user; the assistant then acts with that user's
    permissions.

    Args:
        account: The account alias or 12-digit account id.
        user_name: Their IAM user name.
    """
    if account.strip() not in (ACCOUNT_ALIAS, ACCOUNT_ID):
        raise denied("Your authentication information is incorrect. Please try again.")
    user = _iam_user(db, user_name)
    if not user["console_access"]:
        raise denied(f"User {user_name} has no console password and cannot sign in to the console.")
    db.start_session(sessions, user_name=user_name)
    return SignedIn(account=ACCOUNT_ID, user=iam_user(user, user_arn(user)))


# ---------------------------------------------------------------- buckets


@tool(read_only=True)
def list_buckets(
    db: Database,
    prefix: str | None = None,
    bucket_region: Region | None = None,
    max_buckets: Annotated[int, Field(ge=1, le=1000)] = 1000,
    continuation_token: str | None = None,
) -> BucketList:
    """List the account's buckets by name (ListBuckets).

    Args:
        prefix: Only buckets whose name starts with this.
        bucket_region: Only buckets in this region.
        max_buckets: Buckets per page, 1 to 1000.
        continuation_token: The token from the previous page.
    """
    authorize(db, "s3:ListAllMyBuckets", f"{ARN_S3}*")
    where, params = ["name LIKE ? ESCAPE '\\'"], [(prefix or "").replace("_", "\\_").replace("%", "\\%") + "%"]
    if bucket_region is not None:
        where.append("region = ?")
        params.append(bucket_region)
    rows = db.select(buckets, " AND ".join(where), params, order_by="name")
    page = paginate(rows, max_buckets, continuation_token, max_page_size=1000)
    return BucketList(
        buckets=[Bucket(name=r["name"], region=r["region"], creation_date=r["created"]) for r in page.results],
        owner=ACCOUNT_ID,
        continuation_token=page.next_cursor,
    )


@tool(read_only=True)
def get_bucket_settings(db: Database, bucket: BucketName) -> BucketSettings:
    """A bucket's region, versioning status, Block Public Access settings and whether it has a policy and lifecycle
    rules (GetBucketLocation, GetBucketVersioning, GetPublicAccessBlock together).

    Args:
        bucket: The bucket's name.
    """
    row = bucket_row(db, bucket)
    authorize(db, "s3:GetBucketLocation", _bucket_arn(bucket), row)
    return _settings(db, row)


@tool()
def create_bucket(db: Database, bucket: BucketName, region: Region = "us-east-1") -> BucketSettings:
    """Create a bucket (CreateBucket). Names are global across all of AWS: 3-63 lowercase letters, digits, dots
    and hyphens. A new bucket starts unversioned, with every Block Public Access setting on and no policy.

    Args:
        bucket: The new bucket's name.
        region: The region to create it in.
    """
    authorize(db, "s3:CreateBucket", _bucket_arn(bucket))
    check_bucket_name(bucket)
    if db.find(buckets, name=bucket):
        raise conflict(
            "BucketAlreadyOwnedByYou",
            "Your previous request to create the named bucket succeeded and you already own it.",
        )
    if db.find(foreign_buckets, name=bucket):
        raise conflict(
            "BucketAlreadyExists",
            "The requested bucket name is not available. The bucket namespace is shared by all users of the system. "
            "Please select a different name and try again.",
        )
    row = db.insert(
        buckets,
        name=bucket,
        region=region,
        created=db.now_iso(),
        versioning="Unversioned",
        block_public_acls=True,
        ignore_public_acls=True,
        block_public_policy=True,
        restrict_public_buckets=True,
        policy=None,
    )
    return _settings(db, row)


@tool()
def delete_bucket(db: Database, bucket: BucketName) -> BucketList:
    """Delete an empty bucket (DeleteBucket); every object version and delete marker must be gone first. Returns
    the buckets left.

    Args:
        bucket: The bucket's name.
    """
    row = bucket_row(db, bucket)
    authorize(db, "s3:DeleteBucket", _bucket_arn(bucket), row)
    if db.select(objects, "bucket = ?", [bucket], limit=1):
        extra = " You must delete all versions in the bucket." if row["versioning"] != "Unversioned" else ""
        raise conflict("BucketNotEmpty", "The bucket you tried to delete is not empty." + extra)
    for table in (lifecycle_rules, presigned_urls):
        for item in db.find(table, bucket=bucket):
            db.delete(table, item["id"])
    db.delete(buckets, bucket)
    rows = db.select(buckets, "", [], order_by="name")
    return BucketList(
        buckets=[Bucket(name=r["name"], region=r["region"], creation_date=r["created"]) for r in rows],
        owner=ACCOUNT_ID,
        continuation_token=None,
    )


@tool()
def put_bucket_versioning(db: Database, bucket: BucketName, status: Literal["Enabled", "Suspended"]) -> BucketSettings:
    """Turn versioning on or suspend it (PutBucketVersioning). Once enabled, a bucket can never return to
    unversioned; suspending keeps existing versions and stores new writes as the `null` version.

    Args:
        bucket: The bucket's name.
        status: Enabled or Suspended.
    """
    row = bucket_row(db, bucket)
    authorize(db, "s3:PutBucketVersioning", _bucket_arn(bucket), row)
    return _settings(db, db.update(buckets, bucket, versioning=status))


@tool()
def put_public_access_block(
    db: Database,
    bucket: BucketName,
    block_public_acls: bool,
    ignore_public_acls: bool,
    block_public_policy: bool,
    restrict_public_buckets: bool,
) -> BucketSettings:
    """Set all four Block Public Access settings of a bucket (PutPublicAccessBlock); send every one.

    Args:
        bucket: The bucket's name.
        block_public_acls: Refuse requests that set public ACLs on the bucket or its objects.
        ignore_public_acls: Ignore public ACLs already set.
        block_public_policy: Refuse bucket policies that grant public access.
        restrict_public_buckets: Limit a bucket with a public policy to AWS principals and the owner.
    """
    row = bucket_row(db, bucket)
    authorize(db, "s3:PutBucketPublicAccessBlock", _bucket_arn(bucket), row)
    updated = db.update(
        buckets,
        bucket,
        block_public_acls=block_public_acls,
        ignore_public_acls=ignore_public_acls,
        block_public_policy=block_public_policy,
        restrict_public_buckets=restrict_public_buckets,
    )
    return _settings(db, updated)


# ---------------------------------------------------------------- objects


@tool(read_only=True)
def list_objects_v2(
    db: Database,
    bucket: BucketName,
    prefix: str = "",
    delimiter: Annotated[str, Field(min_length=1, max_length=1)] | None = None,
    max_keys: MaxKeys = 1000,
    continuation_token: str | None = None,
    start_after: str | None = None,
) -> ObjectListing:
    """List the current objects of a bucket (ListObjectsV2), in key order. With a delimiter such as "/", keys
    sharing the part of their name up to it come back once as a common prefix ("folders"); both count toward
    max_keys. Deleted keys (a delete marker on top) are left out.

    Args:
        bucket: The bucket's name.
        prefix: Only keys starting with this, e.g. "reports/2026/".
        delimiter: A character that groups keys, usually "/".
        max_keys: Entries per page, 1 to 1000.
        continuation_token: The next_continuation_token of the previous page.
        start_after: Only keys after this key.
    """
    row = bucket_row(db, bucket)
    authorize(db, "s3:ListBucket", _bucket_arn(bucket), row)
    after = _untoken(continuation_token) if continuation_token else (start_after or "")
    escaped = prefix.replace("\\", "\\\\").replace("_", "\\_").replace("%", "\\%")
    rows = db.select(
        objects,
        "bucket = ? AND is_latest = 1 AND is_delete_marker = 0 AND key LIKE ? ESCAPE '\\' AND key > ?",
        [bucket, escaped + "%", after],
        order_by="key",
    )
    entries: list[tuple[str, dict[str, Any] | None]] = []
    for item in rows:
        rest = item["key"][len(prefix) :]
        if delimiter and delimiter in rest:
            rolled = prefix + rest.split(delimiter, 1)[0] + delimiter
            if not entries or entries[-1][0] != rolled:
                if rolled > after:
                    entries.append((rolled, None))
            continue
        entries.append((item["key"], item))
    page, more = entries[:max_keys], len(entries) > max_keys
    return ObjectListing(
        name=bucket,
        prefix=prefix,
        contents=[
            ObjectSummary(
                key=i["key"],
                size=i["size"],
                etag=i["etag"],
                last_modified=i["last_modified"],
                storage_class=i["storage_class"],
            )
            for _, i in page
            if i is not None
        ],
        common_prefixes=[k for k, i in page if i is None],
        key_count=len(page),
        is_truncated=more,
        next_continuation_token=_token(page[-1][0]) if more else None,
    )


@tool(read_only=True)
def list_object_versions(
    db: Database,
    bucket: BucketName,
    prefix: str = "",
    max_keys: MaxKeys = 1000,
    key_marker: str | None = None,
    version_id_marker: str | None = None,
) -> VersionListing:
    """List every version and delete marker (ListObjectVersions), by key and newest first within a key.

    Args:
        bucket: The bucket's name.
        prefix: Only keys starting with this.
        max_keys: Versions per page, 1 to 1000.
        key_marker: Start after this key (with version_id_marker: after that version of it).
        version_id_marker: The next_version_id_marker of the previous page.
    """
    row = bucket_row(db, bucket)
    authorize(db, "s3:ListBucketVersions", _bucket_arn(bucket), row)
    escaped = prefix.replace("\\", "\\\\").replace("_", "\\_").replace("%", "\\%")
    rows = db.select(
        objects, "bucket = ? AND key LIKE ? ESCAPE '\\'", [bucket, escaped + "%"], order_by="key, seq DESC"
    )
    if key_marker is not None:
        at = [i for i, r in enumerate(rows) if r["key"] == key_marker and r["version_id"] == version_id_marker]
        if version_id_marker is not None and not at:
            raise invalid("InvalidArgument", "Invalid version id specified")
        rows = rows[at[0] + 1 :] if at else [r for r in rows if r["key"] > key_marker]
    page, more = rows[:max_keys], len(rows) > max_keys
    return VersionListing(
        name=bucket,
        prefix=prefix,
        versions=[version_out(r) for r in page],
        is_truncated=more,
        next_key_marker=page[-1]["key"] if more else None,
        next_version_id_marker=page[-1]["version_id"] if more else None,
    )


@tool(read_only=True)
def head_object(db: Database, bucket: BucketName, key: Key, version_id: str | None = None) -> ObjectHead:
    """An object's metadata (HeadObject): size, ETag, content type, storage class, ACL, user metadata and, when a
    lifecycle rule will expire it, when. A key whose latest version is a delete marker is NoSuchKey.

    Args:
        bucket: The bucket's name.
        key: The object's key.
        version_id: A specific version (default the latest).
    """
    row = bucket_row(db, bucket)
    action = "s3:GetObjectVersion" if version_id else "s3:GetObject"
    authorize(db, action, _object_arn(bucket, key), row)
    item = version(db, bucket, key, version_id) if version_id else current(db, bucket, key)
    if item["is_delete_marker"]:
        raise invalid("MethodNotAllowed", "The specified method is not allowed against this resource.")
    expiration = None
    if item["is_latest"]:
        rules = db.select(lifecycle_rules, "bucket = ? AND status = 'Enabled'", [bucket], order_by="rule_id")
        matching = [r for r in rules if r["expiration_days"] and key.startswith(r["prefix"])]
        if matching:
            rule = min(matching, key=lambda r: r["expiration_days"])
            when = expiry(parse_timestamp(item["last_modified"], "last_modified"), rule["expiration_days"])
            expiration = Expiration(expiry_date=iso_timestamp(when), rule_id=rule["rule_id"])
    return ObjectHead(
        bucket=bucket,
        key=key,
        version_id=item["version_id"],
        size=item["size"],
        etag=item["etag"],
        content_type=item["content_type"],
        last_modified=item["last_modified"],
        storage_class=item["storage_class"],
        acl=item["acl"],
        metadata=item["metadata"],
        expiration=expiration,
    )


@tool()
def put_object(
    db: Database,
    bucket: BucketName,
    key: Key,
    body: text(100000, 0),
    content_type: str = "binary/octet-stream",
    storage_class: StorageClass = "STANDARD",
    acl: Literal["private", "public-read", "bucket-owner-full-control"] = "private",
    metadata: dict[str, str] | None = None,
) -> PutResult:
    """Upload an object (PutObject). In a versioned bucket this adds a new version; otherwise it replaces the key.
    A public-read ACL is refused while the bucket blocks public ACLs.

    Args:
        bucket: The bucket's name.
        key: The object's key, e.g. "reports/2026/q1.csv".
        body: The object's content (text).
        content_type: Its MIME type, e.g. text/csv.
        storage_class: STANDARD unless the data is rarely read.
        acl: A canned ACL.
        metadata: User metadata (x-amz-meta-*), name -> value.
    """
    row = bucket_row(db, bucket)
    user = authorize(db, "s3:PutObject", _object_arn(bucket, key), row)
    if acl == "public-read" and row["block_public_acls"]:
        raise denied("Access Denied: the bucket's BlockPublicAcls setting refuses public ACLs")
    item = write(
        db,
        row,
        key,
        is_delete_marker=False,
        size=len(body.encode()),
        etag=etag(body),
        content_type=content_type,
        storage_class=storage_class,
        acl=acl,
        metadata=dict(sorted((metadata or {}).items())),
        owner=user["user_name"],
    )
    return PutResult(bucket=bucket, key=key, etag=item["etag"], version_id=item["version_id"])


@tool()
def copy_object(
    db: Database,
    source_bucket: BucketName,
    source_key: Key,
    bucket: BucketName,
    key: Key,
    source_version_id: str | None = None,
    storage_class: StorageClass | None = None,
) -> PutResult:
    """Copy an object version to a key (CopyObject): copying an older version onto its own key restores it as the
    latest. Archived (GLACIER, DEEP_ARCHIVE) sources cannot be copied until restored.

    Args:
        source_bucket: The source bucket.
        source_key: The source key.
        bucket: The destination bucket.
        key: The destination key.
        source_version_id: The source version (default its latest).
        storage_class: The copy's storage class (default the source's).
    """
    source_row = bucket_row(db, source_bucket)
    action = "s3:GetObjectVersion" if source_version_id else "s3:GetObject"
    authorize(db, action, _object_arn(source_bucket, source_key), source_row)
    source = (
        version(db, source_bucket, source_key, source_version_id)
        if source_version_id
        else current(db, source_bucket, source_key)
    )
    if source["is_delete_marker"]:
        raise invalid(
            "InvalidRequest",
            "The source of a copy request may not specifically refer to a delete marker by version id.",
        )
    if source["storage_class"] in ARCHIVED:
        raise invalid(
            "InvalidObjectState",
            f"Object is of storage class {source['storage_class']}. Unable to perform copy operations on "
            f"{source['storage_class']} objects. You must restore the object to be able to perform the operation.",
        )
    if (
        (source_bucket, source_key) == (bucket, key)
        and source["is_latest"]
        and storage_class in (None, source["storage_class"])
    ):
        raise invalid(
            "InvalidRequest",
            "This copy request is illegal because it is trying to copy an object to itself without changing the "
            "object's metadata, storage class, website redirect location or encryption attributes.",
        )
    target = bucket_row(db, bucket)
    user = authorize(db, "s3:PutObject", _object_arn(bucket, key), target)
    fields = {f: source[f] for f in ("size", "etag", "content_type", "acl", "metadata")}
    item = write(
        db,
        target,
        key,
        is_delete_marker=False,
        storage_class=storage_class or source["storage_class"],
        owner=user["user_name"],
        **fields,
    )
    return PutResult(bucket=bucket, key=key, etag=item["etag"], version_id=item["version_id"])


@tool()
def delete_object(db: Database, bucket: BucketName, key: Key, version_id: str | None = None) -> DeleteResult:
    """Delete an object (DeleteObject). Without a version id, a versioned bucket keeps every version and puts a
    delete marker on top (undo by deleting the marker's version); an unversioned bucket removes the object for
    good. With a version id, that version or delete marker is removed permanently.

    Args:
        bucket: The bucket's name.
        key: The object's key.
        version_id: A version or delete marker to remove permanently.
    """
    row = bucket_row(db, bucket)
    action = "s3:DeleteObjectVersion" if version_id else "s3:DeleteObject"
    user = authorize(db, action, _object_arn(bucket, key), row)
    if version_id:
        item = version(db, bucket, key, version_id)
        remove(db, item)
        return DeleteResult(bucket=bucket, key=key, delete_marker=item["is_delete_marker"], version_id=version_id)
    if row["versioning"] == "Unversioned":
        for item in versions_of(db, bucket, key):
            db.delete(objects, item["id"])
        return DeleteResult(bucket=bucket, key=key, delete_marker=False, version_id=None)
    marker = write(
        db,
        row,
        key,
        is_delete_marker=True,
        size=0,
        etag="",
        content_type="",
        storage_class="STANDARD",
        acl="private",
        metadata={},
        owner=user["user_name"],
    )
    return DeleteResult(bucket=bucket, key=key, delete_marker=True, version_id=marker["version_id"])


@tool()
def generate_presigned_url(
    db: Database,
    bucket: BucketName,
    key: Key,
    method: Literal["GET", "PUT"] = "GET",
    expires_in: Expires = 3600,
    version_id: str | None = None,
) -> PresignedUrl:
    """Presign a download (GET) or upload (PUT) URL for one key, valid for expires_in seconds (at most 7 days).
    It carries the signer's permissions, so it is refused when they could not make the request themselves; a
    download needs an existing, non-archived object.

    Args:
        bucket: The bucket's name.
        key: The object's key.
        method: GET to download, PUT to upload.
        expires_in: Seconds the URL stays valid, 1 to 604800.
        version_id: A specific version to download.
    """
    row = bucket_row(db, bucket)
    action = "s3:PutObject" if method == "PUT" else ("s3:GetObjectVersion" if version_id else "s3:GetObject")
    user = authorize(db, action, _object_arn(bucket, key), row)
    if method == "GET":
        item = version(db, bucket, key, version_id) if version_id else current(db, bucket, key)
        if item["is_delete_marker"]:
            raise invalid("MethodNotAllowed", "The specified method is not allowed against this resource.")
        if item["storage_class"] in ARCHIVED:
            raise invalid("InvalidObjectState", "The operation is not valid for the object's storage class")
    elif version_id is not None:
        raise invalid("InvalidArgument", "A version id cannot be given for an upload")
    now = db.now()
    access_key = "AKIA" + user["user_id"][4:20]
    url = presigned_url(row["region"], bucket, key, access_key, now, expires_in, user["user_id"])
    if version_id:
        url += f"&versionId={version_id}"
    expires_at = iso_timestamp(now + timedelta(seconds=expires_in))
    request = f"{bucket}/{key}|{version_id}|{method}|{expires_in}|{user['user_name']}"
    row_id = "psu_" + hashlib.sha256(request.encode()).hexdigest()[:16]
    for old in db.find(presigned_urls, id=row_id):
        db.delete(presigned_urls, old["id"])
    db.insert(
        presigned_urls,
        id=row_id,
        bucket=bucket,
        key=key,
        version_id=version_id,
        method=method,
        expires_in=expires_in,
        expires_at=expires_at,
        signed_by=user["user_name"],
        url=url,
    )
    return PresignedUrl(url=url, method=method, expires_in=expires_in, expires_at=expires_at)


# ---------------------------------------------------------------- bucket policy and lifecycle


@tool(read_only=True)
def get_bucket_policy(db: Database, bucket: BucketName) -> BucketPolicy:
    """A bucket's policy document (GetBucketPolicy).

    Args:
        bucket: The bucket's name.
    """
    row = bucket_row(db, bucket)
    authorize(db, "s3:GetBucketPolicy", _bucket_arn(bucket), row)
    if row["policy"] is None:
        raise no_such("NoSuchBucketPolicy", "The bucket policy does not exist")
    return BucketPolicy(bucket=bucket, policy=row["policy"])


@tool()
def put_bucket_policy(
    db: Database, bucket: BucketName, statements: Annotated[list[PolicyStatement], Field(min_length=1, max_length=50)]
) -> BucketPolicy:
    """Replace a bucket's policy (PutBucketPolicy); send every statement to keep. Resources must be this bucket's
    ARNs, actions s3 actions, principals "*" or IAM ARNs of this account. A policy granting "*" is refused while
    the bucket's BlockPublicPolicy setting is on. A Deny overrides any Allow.

    Args:
        bucket: The bucket's name.
        statements: The policy's statements.
    """
    row = bucket_row(db, bucket)
    authorize(db, "s3:PutBucketPolicy", _bucket_arn(bucket), row)
    known = {user_arn(u) for u in db.find(iam_users)} | {f"arn:aws:iam::{ACCOUNT_ID}:root"}
    document: dict[str, Any] = {"Version": "2012-10-17", "Statement": []}
    for s in statements:
        if any(r != _bucket_arn(bucket) and not r.startswith(_bucket_arn(bucket) + "/") for r in s.resources):
            raise invalid("MalformedPolicy", "Policy has invalid resource")
        if any(not a.lower().startswith("s3:") for a in s.actions):
            raise invalid("MalformedPolicy", "Policy has invalid action")
        if any(p != "*" and p not in known for p in s.principals):
            raise invalid("MalformedPolicy", "Invalid principal in policy")
        statement = {"Sid": s.sid} if s.sid else {}
        principal: Any = "*" if "*" in s.principals else {"AWS": sorted(set(s.principals))}
        statement |= {"Effect": s.effect, "Principal": principal}
        statement |= {"Action": sorted(set(s.actions)), "Resource": sorted(set(s.resources))}
        document["Statement"].append(statement)
    document["Statement"].sort(key=lambda s: json.dumps(s, sort_keys=True))
    if row["block_public_policy"] and is_public(document):
        raise denied(
            f"User: {user_arn(signed_in(db))} is not authorized to perform: s3:PutBucketPolicy on resource: "
            f'"{_bucket_arn(bucket)}" because public policies are blocked by the BlockPublicPolicy block public '
            "access setting."
        )
    db.update(buckets, bucket, policy=document)
    return BucketPolicy(bucket=bucket, policy=document)


@tool()
def delete_bucket_policy(db: Database, bucket: BucketName) -> BucketSettings:
    """Remove a bucket's policy (DeleteBucketPolicy); succeeds also when it has none.

    Args:
        bucket: The bucket's name.
    """
    row = bucket_row(db, bucket)
    authorize(db, "s3:DeleteBucketPolicy", _bucket_arn(bucket), row)
    return _settings(db, db.update(buckets, bucket, policy=None))


@tool(read_only=True)
def get_bucket_lifecycle_configuration(db: Database, bucket: BucketName) -> Lifecycle:
    """A bucket's lifecycle rules (GetBucketLifecycleConfiguration).

    Args:
        bucket: The bucket's name.
    """
    row = bucket_row(db, bucket)
    authorize(db, "s3:GetLifecycleConfiguration", _bucket_arn(bucket), row)
    rules = db.find(lifecycle_rules, bucket=bucket, order_by=[lifecycle_rules.c.rule_id])
    if not rules:
        raise no_such("NoSuchLifecycleConfiguration", "The lifecycle configuration does not exist")
    return Lifecycle(bucket=bucket, rules=[rule_out(r) for r in rules])


@tool()
def put_bucket_lifecycle_configuration(
    db: Database, bucket: BucketName, rules: Annotated[list[LifecycleRule], Field(min_length=1, max_length=1000)]
) -> Lifecycle:
    """Replace a bucket's whole lifecycle configuration (PutBucketLifecycleConfiguration): rules left out are
    deleted, so send the existing ones to keep them. Rule ids must be unique; a transition to STANDARD_IA or
    ONEZONE_IA needs at least 30 days, and an expiration must come after the transition.

    Args:
        bucket: The bucket's name.
        rules: Every rule of the new configuration.
    """
    row = bucket_row(db, bucket)
    authorize(db, "s3:PutLifecycleConfiguration", _bucket_arn(bucket), row)
    check_lifecycle(rules)
    for old in db.find(lifecycle_rules, bucket=bucket):
        db.delete(lifecycle_rules, old["id"])
    for rule in rules:
        db.insert(
            lifecycle_rules,
            id=f"{bucket}|{rule.id}",
            bucket=bucket,
            rule_id=rule.id,
            prefix=rule.prefix,
            status=rule.status,
            expiration_days=rule.expiration_days,
            transition_days=rule.transition_days,
            transition_storage_class=rule.transition_storage_class,
            noncurrent_expiration_days=rule.noncurrent_version_expiration_days,
            abort_incomplete_multipart_days=rule.abort_incomplete_multipart_upload_days,
        )
    return Lifecycle(bucket=bucket, rules=sorted(rules, key=lambda r: r.id))


# ---------------------------------------------------------------- IAM


@tool(read_only=True)
def list_users(
    db: Database,
    path_prefix: str = "/",
    max_items: Annotated[int, Field(ge=1, le=1000)] = 100,
    marker: str | None = None,
) -> UserList:
    """List the account's IAM users by name (iam ListUsers).

    Args:
        path_prefix: Only users whose path starts with this, e.g. /service/.
        max_items: Users per page, 1 to 1000.
        marker: The marker from the previous page.
    """
    authorize(db, "iam:ListUsers", f"arn:aws:iam::{ACCOUNT_ID}:user/*")
    rows = db.select(iam_users, "substr(path, 1, ?) = ?", [len(path_prefix), path_prefix], order_by="user_name")
    page = paginate(rows, max_items, marker, max_page_size=1000)
    return UserList(
        users=[iam_user(r, user_arn(r)) for r in page.results], is_truncated=page.has_more, marker=page.next_cursor
    )


@tool(read_only=True)
def list_attached_user_policies(db: Database, user_name: UserName) -> list[AttachedPolicy]:
    """The managed policies attached to a user (iam ListAttachedUserPolicies).

    Args:
        user_name: The IAM user's name.
    """
    user = _iam_user(db, user_name)
    authorize(db, "iam:ListAttachedUserPolicies", user_arn(user))
    rows = db.find(user_policy_attachments, user_name=user_name, order_by=[user_policy_attachments.c.policy_arn])
    return [
        AttachedPolicy(policy_name=db.get(iam_policies, r["policy_arn"])["policy_name"], policy_arn=r["policy_arn"])
        for r in rows
    ]


@tool(read_only=True)
def get_policy(db: Database, policy_arn: PolicyArn) -> ManagedPolicy:
    """A managed policy with its default version's document (iam GetPolicy and GetPolicyVersion).

    Args:
        policy_arn: The policy's ARN, e.g. arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess.
    """
    authorize(db, "iam:GetPolicy", policy_arn)
    row = db.find_one(
        iam_policies,
        arn=policy_arn,
        not_found=f"NoSuchEntity: Policy {policy_arn} does not exist or is not attachable.",
    )
    return ManagedPolicy(
        arn=row["arn"],
        policy_name=row["policy_name"],
        scope=row["scope"],
        description=row["description"],
        default_version_id=row["default_version_id"],
        attachment_count=len(db.find(user_policy_attachments, policy_arn=policy_arn)),
        document=row["document"],
    )


@tool()
def attach_user_policy(db: Database, user_name: UserName, policy_arn: PolicyArn) -> list[AttachedPolicy]:
    """Attach a managed policy to a user (iam AttachUserPolicy); at most 10 per user. Returns what is attached now.

    Args:
        user_name: The IAM user's name.
        policy_arn: The managed policy's ARN.
    """
    user = _iam_user(db, user_name)
    authorize(db, "iam:AttachUserPolicy", user_arn(user))
    db.find_one(
        iam_policies,
        arn=policy_arn,
        not_found=f"NoSuchEntity: Policy {policy_arn} does not exist or is not attachable.",
    )
    attached = db.find(user_policy_attachments, user_name=user_name)
    if all(a["policy_arn"] != policy_arn for a in attached):
        if len(attached) >= 10:
            raise conflict("LimitExceeded", "Cannot exceed quota for PoliciesPerUser: 10")
        db.insert(user_policy_attachments, id=f"{user_name}|{policy_arn}", user_name=user_name, policy_arn=policy_arn)
    return list_attached_user_policies(db, user_name)


@tool()
def detach_user_policy(db: Database, user_name: UserName, policy_arn: PolicyArn) -> list[AttachedPolicy]:
    """Detach a managed policy from a user (iam DetachUserPolicy). Returns what is still attached.

    Args:
        user_name: The IAM user's name.
        policy_arn: The managed policy's ARN.
    """
    user = _iam_user(db, user_name)
    authorize(db, "iam:DetachUserPolicy", user_arn(user))
    found = db.find_one(
        user_policy_attachments,
        user_name=user_name,
        policy_arn=policy_arn,
        not_found=f"NoSuchEntity: Policy {policy_arn} was not found.",
    )
    db.delete(user_policy_attachments, found["id"])
    return list_attached_user_policies(db, user_name)


@tool(read_only=True)
def simulate_principal_policy(
    db: Database,
    policy_source_arn: Annotated[str, Field(pattern=r"^arn:aws:iam::\d{12}:user/.+$")],
    action_names: Annotated[
        list[Annotated[str, Field(pattern=r"^[a-z0-9]+:[A-Za-z*?]+$")]], Field(min_length=1, max_length=20)
    ],
    resource_arns: Annotated[list[str], Field(min_length=1, max_length=20)] = ["*"],  # noqa: B006
) -> list[EvaluationResult]:
    """Would a user be allowed these actions on these resources? (iam SimulatePrincipalPolicy). For S3 resources
    the bucket's policy is evaluated too, as S3 would: an explicit deny anywhere wins, else any allow grants.

    Args:
        policy_source_arn: The IAM user's ARN.
        action_names: Actions such as s3:GetObject, s3:DeleteObject.
        resource_arns: Resources such as arn:aws:s3:::bucket/key (default "*").
    """
    authorize(db, "iam:SimulatePrincipalPolicy", policy_source_arn)
    name = policy_source_arn.rsplit("/", 1)[1]
    user = _iam_user(db, name)
    if user_arn(user) != policy_source_arn:
        raise invalid("InvalidInput", f"Invalid ARN: {policy_source_arn}")
    results = []
    for resource in resource_arns:
        bucket = None
        if resource.startswith(ARN_S3) and "*" not in resource.split("/", 1)[0]:
            found = db.find(buckets, name=resource[len(ARN_S3) :].split("/", 1)[0])
            bucket = found[0] if found else None
        for action in action_names:
            decision, kind = decide(db, user, action, resource, bucket)
            results.append(
                EvaluationResult(
                    eval_action_name=action, eval_resource_name=resource, eval_decision=decision, decided_by=kind
                )
            )
    return results
