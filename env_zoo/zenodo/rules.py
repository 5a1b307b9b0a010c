"""Zenodo's deposit rules: the metadata a record needs before it can be published (and which fields depend on the
upload type and access right), DOIs, the bucket's limits, and how a new version starts from the last one."""

from __future__ import annotations

import hashlib
from typing import Any

from envfactory_gym import Database

DOI_PREFIX = "10.5281/zenodo."
MAX_FILES = 100
MAX_BUCKET_BYTES = 50_000_000_000  # 50 GB per record
FIRST_NEW_RECID = 15_100_001  # new depositions and concepts count up from here (the seed's ids are below it)

#: The metadata fields a deposition holds (and that a new version copies), in Zenodo's order.
METADATA_FIELDS = (
    "title",
    "upload_type",
    "publication_type",
    "image_type",
    "publication_date",
    "description",
    "access_right",
    "license",
    "embargo_date",
    "access_conditions",
    "creators",
    "keywords",
    "related_identifiers",
    "version",
    "notes",
)
REQUIRED = "Missing data for required field."


def doi(recid: int) -> str:
    """The DOI Zenodo mints for a record id."""
    return f"{DOI_PREFIX}{recid}"


def new_recid(db: Database) -> int:
    """A fresh record id (deterministic, above every seed id)."""
    return FIRST_NEW_RECID + db.next_number("zenodo:recid") - 1


def checksum(content: str) -> tuple[int, str]:
    """A file's size in bytes and its md5 checksum, as the bucket reports them."""
    data = content.encode("utf-8")
    return len(data), "md5:" + hashlib.md5(data).hexdigest()


def metadata_of(row: dict[str, Any]) -> dict[str, Any]:
    """The metadata part of a deposition row."""
    return {field: row[field] for field in METADATA_FIELDS}


def check_coherent(row: dict[str, Any], today: str, known_license: bool) -> dict[str, list[str]]:
    """What is wrong with values a deposition holds whatever its state: an unknown license, an embargo date that
    is not in the future."""
    problems: dict[str, list[str]] = {}
    if row["license"] and not known_license:
        problems["metadata.license"] = [f"Invalid license: {row['license']}."]
    if row["access_right"] == "embargoed" and row["embargo_date"] and row["embargo_date"] <= today:
        problems["metadata.embargo_date"] = ["Embargo date must be in the future."]
    return problems


def check_publishable(row: dict[str, Any], file_count: int, today: str) -> dict[str, list[str]]:
    """Every reason the deposition cannot be published yet, per field."""
    problems: dict[str, list[str]] = {}
    for field in ("title", "upload_type", "publication_date", "description"):
        if not row[field]:
            problems[f"metadata.{field}"] = [REQUIRED]
    if not row["creators"]:
        problems["metadata.creators"] = ["At least one creator is required."]
    if row["upload_type"] == "publication" and not row["publication_type"]:
        problems["metadata.publication_type"] = ["Required when upload type is publication."]
    if row["upload_type"] == "image" and not row["image_type"]:
        problems["metadata.image_type"] = ["Required when upload type is image."]
    access = row["access_right"]
    if access in ("open", "embargoed") and not row["license"]:
        problems["metadata.license"] = ["Required when access right is open or embargoed."]
    if access == "embargoed":
        if not row["embargo_date"]:
            problems["metadata.embargo_date"] = ["Required when access right is embargoed."]
        elif row["embargo_date"] <= today:
            problems["metadata.embargo_date"] = ["Embargo date must be in the future."]
    if access == "restricted" and not row["access_conditions"]:
        problems["metadata.access_conditions"] = ["Required when access right is restricted."]
    if file_count == 0:
        problems["files"] = ["Minimum one file must be provided."]
    return problems


def files_open(row: dict[str, Any], today: str) -> bool:
    """Whether anyone may see a record's files: open access, or an embargo that has ended."""
    embargo_over = row["access_right"] == "embargoed" and bool(row["embargo_date"]) and row["embargo_date"] <= today
    return row["access_right"] == "open" or embargo_over
