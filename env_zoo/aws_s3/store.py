"""How versioning shapes writes: a bucket never versioned keeps one `null` version per key, an Enabled bucket adds
a version per write (a delete adds a delete marker), a Suspended bucket overwrites the key's `null` version."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import NO_SUCH_BUCKET, NO_SUCH_KEY, NO_SUCH_VERSION, no_such
from .rules import version_id
from .schema import buckets, objects

#: new writes number their versions per key from here, above every version the seed holds
FIRST_NEW_SEQ = 1_000_000


def object_id(bucket: str, key: str, version: str) -> str:
    """The row key of one version: the same version of the same key always has the same key."""
    return f"{bucket}/{key}?versionId={version}"


def bucket_row(db: Database, name: str) -> dict[str, Any]:
    """The bucket, or NoSuchBucket."""
    return db.find_one(buckets, name=name, not_found=NO_SUCH_BUCKET)


def versions_of(db: Database, bucket: str, key: str) -> list[dict[str, Any]]:
    """Every version and delete marker of a key, newest first."""
    return db.select(objects, "bucket = ? AND key = ?", [bucket, key], order_by="seq DESC")


def current(db: Database, bucket: str, key: str) -> dict[str, Any]:
    """The key's latest version; NoSuchKey when there is none or it is a delete marker."""
    found = db.select(objects, "bucket = ? AND key = ? AND is_latest = 1", [bucket, key])
    if not found or found[0]["is_delete_marker"]:
        raise no_such("NoSuchKey", NO_SUCH_KEY.split(": ", 1)[1])
    return found[0]


def version(db: Database, bucket: str, key: str, wanted: str) -> dict[str, Any]:
    """One version of a key by its id; NoSuchVersion otherwise."""
    found = db.select(objects, "bucket = ? AND key = ? AND version_id = ?", [bucket, key, wanted])
    if not found:
        raise no_such("NoSuchVersion", NO_SUCH_VERSION.split(": ", 1)[1])
    return found[0]


def write(db: Database, bucket: dict[str, Any], key: str, **fields: Any) -> dict[str, Any]:
    """Store a new latest version (or delete marker) of `key` as the bucket's versioning status dictates."""
    seq = FIRST_NEW_SEQ + db.next_number(f"s3:{bucket['name']}/{key}")
    for row in db.select(objects, "bucket = ? AND key = ? AND is_latest = 1", [bucket["name"], key]):
        db.update(objects, row["id"], is_latest=False)
    if bucket["versioning"] == "Enabled":
        vid = version_id(bucket["name"], key, seq)
    else:
        vid = "null"
        for row in db.select(objects, "bucket = ? AND key = ? AND version_id = 'null'", [bucket["name"], key]):
            db.delete(objects, row["id"])
    return db.insert(
        objects,
        id=object_id(bucket["name"], key, vid),
        bucket=bucket["name"],
        key=key,
        version_id=vid,
        seq=seq,
        is_latest=True,
        last_modified=db.now_iso(),
        **fields,
    )


def remove(db: Database, row: dict[str, Any]) -> None:
    """Permanently delete one version; when it was the latest, the next newest becomes latest."""
    db.delete(objects, row["id"])
    if row["is_latest"]:
        rest = versions_of(db, row["bucket"], row["key"])
        if rest:
            db.update(objects, rest[0]["id"], is_latest=True)
