"""S3's rules for bucket names, version ids, ETags, lifecycle configurations and presigned URLs."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta
from typing import Any

from .errors import invalid

BUCKET_NAME = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
IP_ADDRESS = re.compile(r"^\d+\.\d+\.\d+\.\d+$")
ARCHIVED = ("GLACIER", "DEEP_ARCHIVE")
#: the fewest days an object must be in S3 before a transition to each class (S3's minimums)
MIN_TRANSITION_DAYS = {"STANDARD_IA": 30, "ONEZONE_IA": 30}


def check_bucket_name(name: str) -> None:
    """InvalidBucketName unless the name is 3-63 lowercase letters, digits, dots and hyphens, starting and ending
    with a letter or digit, with no adjacent dots, not shaped like an IP address and not using reserved affixes."""
    bad = (
        not BUCKET_NAME.match(name)
        or ".." in name
        or IP_ADDRESS.match(name)
        or name.startswith(("xn--", "sthree-"))
        or name.endswith(("-s3alias", "--ol-s3"))
    )
    if bad:
        raise invalid("InvalidBucketName", "The specified bucket is not valid.")


def version_id(bucket: str, key: str, number: int) -> str:
    """A 32-character S3-style version id, derived from the state's counter (deterministic)."""
    digest = hashlib.sha256(f"{bucket}/{key}#{number}".encode()).digest()
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._"
    return "".join(alphabet[b % len(alphabet)] for b in digest[:32])


def etag(body: str) -> str:
    """The ETag of a single-part upload: the MD5 of its bytes, in quotes."""
    return '"' + hashlib.md5(body.encode()).hexdigest() + '"'


def check_lifecycle(rules: list[Any]) -> None:
    """400 unless rule ids are unique, every rule has an action, transitions respect S3's minimum days, and an
    expiration comes after the transition."""
    seen: set[str] = set()
    for rule in rules:
        if rule.id in seen:
            raise invalid("InvalidArgument", "RuleId must be unique. Found same ID for more than one rule")
        seen.add(rule.id)
        actions = (
            rule.expiration_days,
            rule.transition_days,
            rule.noncurrent_version_expiration_days,
            rule.abort_incomplete_multipart_upload_days,
        )
        if all(a is None for a in actions):
            raise invalid("InvalidRequest", "At least one action needs to be specified in a rule")
        if (rule.transition_days is None) != (rule.transition_storage_class is None):
            raise invalid("MalformedXML", "A Transition needs both Days and StorageClass")
        floor = MIN_TRANSITION_DAYS.get(rule.transition_storage_class or "", 0)
        if rule.transition_days is not None and rule.transition_days < floor:
            raise invalid(
                "InvalidArgument",
                f"'Days' in Transition action must be greater than or equal to {floor} for storageClass "
                f"'{rule.transition_storage_class}'",
            )
        if rule.expiration_days is not None and rule.transition_days is not None:
            if rule.expiration_days <= rule.transition_days:
                raise invalid(
                    "InvalidArgument",
                    f"'Days' in the Expiration action for filter '{rule.prefix}' must be greater than 'Days' in "
                    "the Transition action",
                )


def expiry(last_modified: datetime, days: int) -> datetime:
    """When an expiration rule removes an object: its days after creation, rounded up to the next midnight UTC."""
    moment = last_modified + timedelta(days=days)
    midnight = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    return midnight if midnight == moment else midnight + timedelta(days=1)


def presigned_url(region: str, bucket: str, key: str, access_key: str, now: datetime, expires: int, seed: str) -> str:
    """A SigV4 query-string URL (the signature is a digest of the request: deterministic here)."""
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    signature = hashlib.sha256(f"{seed}|{bucket}|{key}|{stamp}|{expires}".encode()).hexdigest()
    return (
        f"https://{bucket}.s3.{region}.amazonaws.com/{key}?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={access_key}%2F{stamp[:8]}%2F{region}%2Fs3%2Faws4_request&X-Amz-Date={stamp}"
        f"&X-Amz-Expires={expires}&X-Amz-SignedHeaders=host&X-Amz-Signature={signature}"
    )
