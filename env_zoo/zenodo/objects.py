"""Zenodo's API objects as output models (deposition, record, file, license, community, request), and how stored
rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .rules import files_open
from .schema import communities, files, users


class Creator(BaseModel):
    """A creator of the work: "Family, Given", with an affiliation and an ORCID where known."""

    name: str
    affiliation: str | None = None
    orcid: str | None = None


class RelatedIdentifier(BaseModel):
    """A persistent identifier of a related work and how this one relates to it."""

    identifier: str
    relation: str
    resource_type: str | None = None


class Metadata(BaseModel):
    """A deposition's or record's descriptive metadata."""

    title: str
    upload_type: str | None
    publication_type: str | None
    image_type: str | None
    publication_date: str | None
    description: str | None
    access_right: str
    license: str | None
    embargo_date: str | None
    access_conditions: str | None
    creators: list[Creator]
    keywords: list[str]
    related_identifiers: list[RelatedIdentifier]
    version: str | None
    notes: str | None
    communities: list[str] = Field(description="slugs of the communities that include the record")


class FileObject(BaseModel):
    """A file in a deposition's bucket."""

    id: str
    filename: str
    filesize: int = Field(description="bytes")
    checksum: str = Field(description="md5:<hex>")


class DepositionObject(BaseModel):
    """One of the user's depositions: a draft (unsubmitted), a published record reopened for editing
    (inprogress) or a published record (done)."""

    id: int
    conceptrecid: int
    state: str
    submitted: bool = Field(description="published at least once")
    doi: str | None
    conceptdoi: str | None
    created: str
    modified: str
    metadata: Metadata
    files: list[FileObject]


class DepositionSummary(BaseModel):
    """A deposition in a listing."""

    id: int
    conceptrecid: int
    title: str
    state: str
    submitted: bool
    doi: str | None
    upload_type: str | None
    access_right: str
    version: str | None
    modified: str


class DepositionList(BaseModel):
    """One page of the user's depositions."""

    total: int
    page: int
    size: int
    hits: list[DepositionSummary]


class RecordObject(BaseModel):
    """A published record as anyone sees it (files only where access allows)."""

    id: int
    conceptrecid: int
    doi: str
    conceptdoi: str | None
    owner: str = Field(description="the username of the record's owner")
    published: str | None
    is_latest: bool = Field(description="whether this is the newest published version of the work")
    metadata: Metadata
    files: list[FileObject] | None = Field(description="null when access is embargoed, restricted or closed")


class RecordSummary(BaseModel):
    """A record in search results."""

    id: int
    conceptrecid: int
    doi: str
    title: str
    creators: list[str]
    upload_type: str | None
    publication_date: str | None
    access_right: str
    version: str | None
    keywords: list[str]
    communities: list[str]


class RecordHits(BaseModel):
    """One page of search results."""

    total: int
    page: int
    size: int
    hits: list[RecordSummary]


class VersionList(BaseModel):
    """Every published version of one work, newest first."""

    conceptrecid: int
    conceptdoi: str | None
    total: int
    hits: list[RecordSummary]
    draft_id: int | None = Field(description="the owner's unpublished new-version draft, if any (owner only)")


class LicenseObject(BaseModel):
    """A license from Zenodo's vocabulary."""

    id: str
    title: str
    kind: str
    url: str


class LicenseList(BaseModel):
    """Licenses matching a search."""

    total: int
    hits: list[LicenseObject]


class CommunityObject(BaseModel):
    """A community, with the user's role in it."""

    id: str
    slug: str
    title: str
    description: str
    type: str
    record_policy: str = Field(description="open: anyone may submit records; closed: members only")
    my_role: str | None
    records: int = Field(description="how many records it includes")


class CommunityList(BaseModel):
    """Communities matching a search."""

    total: int
    hits: list[CommunityObject]


class RequestObject(BaseModel):
    """A request to include a record in a community."""

    id: str
    type: str
    status: str
    community: str = Field(description="the community's slug")
    record_id: int
    record_title: str
    created_by: str = Field(description="the submitter's username")
    comment: str | None
    decision_comment: str | None
    created: str


class RequestList(BaseModel):
    """Requests the user submitted or decides on."""

    total: int
    hits: list[RequestObject]


def metadata(row: dict[str, Any]) -> Metadata:
    """The metadata of a deposition row."""
    return Metadata(
        **{name: row[name] for name in Metadata.model_fields if name != "communities"},
        communities=row["communities"],
    )


def file_objects(db: Database, deposition_id: int) -> list[FileObject]:
    """The files in a deposition's bucket, by name."""
    rows = db.find(files, deposition_id=deposition_id, order_by=[files.c.filename])
    return [
        FileObject(id=r["id"], filename=r["filename"], filesize=r["filesize"], checksum=r["checksum"]) for r in rows
    ]


def deposition(db: Database, row: dict[str, Any]) -> DepositionObject:
    """A deposition as its owner sees it."""
    return DepositionObject(
        id=row["id"],
        conceptrecid=row["conceptrecid"],
        state=row["state"],
        submitted=row["submitted"],
        doi=row["doi"],
        conceptdoi=row["conceptdoi"],
        created=row["created"],
        modified=row["modified"],
        metadata=metadata(row),
        files=file_objects(db, row["id"]),
    )


def deposition_summary(row: dict[str, Any]) -> DepositionSummary:
    """A deposition in a listing."""
    return DepositionSummary(
        id=row["id"],
        conceptrecid=row["conceptrecid"],
        title=row["title"],
        state=row["state"],
        submitted=row["submitted"],
        doi=row["doi"],
        upload_type=row["upload_type"],
        access_right=row["access_right"],
        version=row["version"],
        modified=row["modified"],
    )


def published_view(row: dict[str, Any]) -> dict[str, Any]:
    """A record's public face: a record reopened for editing shows its last published metadata."""
    if row["state"] == "inprogress" and row["published_metadata"]:
        return {**row, **row["published_metadata"]}
    return row


def record_summary(row: dict[str, Any]) -> RecordSummary:
    """A record in search results."""
    row = published_view(row)
    return RecordSummary(
        id=row["id"],
        conceptrecid=row["conceptrecid"],
        doi=row["doi"],
        title=row["title"],
        creators=[c["name"] for c in row["creators"]],
        upload_type=row["upload_type"],
        publication_date=row["publication_date"],
        access_right=row["access_right"],
        version=row["version"],
        keywords=row["keywords"],
        communities=row["communities"],
    )


def record(db: Database, row: dict[str, Any], latest: bool) -> RecordObject:
    """A published record as anyone sees it."""
    shown = published_view(row)
    owner = db.get(users, row["owner_id"])
    return RecordObject(
        id=row["id"],
        conceptrecid=row["conceptrecid"],
        doi=row["doi"],
        conceptdoi=row["conceptdoi"],
        owner=owner["username"],
        published=row["published"],
        is_latest=latest,
        metadata=metadata(shown),
        files=file_objects(db, row["id"]) if files_open(shown, db.now().date().isoformat()) else None,
    )


def community(db: Database, row: dict[str, Any], my_role: str | None, count: int) -> CommunityObject:
    """A community with the user's role and its record count."""
    return CommunityObject(
        id=row["id"],
        slug=row["slug"],
        title=row["title"],
        description=row["description"],
        type=row["type"],
        record_policy=row["record_policy"],
        my_role=my_role,
        records=count,
    )


def request(db: Database, row: dict[str, Any], record_title: str) -> RequestObject:
    """An inclusion request."""
    return RequestObject(
        id=row["id"],
        type=row["type"],
        status=row["status"],
        community=db.get(communities, row["community_id"])["slug"],
        record_id=row["record_id"],
        record_title=record_title,
        created_by=db.get(users, row["created_by"])["username"],
        comment=row["comment"],
        decision_comment=row["decision_comment"],
        created=row["created"],
    )
