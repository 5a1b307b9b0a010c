"""Zenodo's objects as tables: accounts (researchers with their ORCID and affiliation), the signed-in session, the
license vocabulary, communities and their members, depositions (a deposition and its record share one integer id;
drafts, published records and records reopened for editing; versions of one work share a concept record id),
the files in each deposition's bucket, and community inclusion requests. Times are ISO 8601 UTC strings, dates
ISO dates."""

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Integer, MetaData, String, Table, Text

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("username", String, nullable=False, unique=True),
    Column("full_name", String, nullable=False),  # "Family, Given", as Zenodo writes creators
    Column("email", String, nullable=False, unique=True),
    Column("orcid", String),
    Column("affiliation", String),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String, primary_key=True),  # always "current": whose personal access token the app uses
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("signed_in_at", String, nullable=False, info={"volatile": True}),
)

licenses = Table(
    "licenses",
    metadata,
    Column("id", String, primary_key=True),  # the SPDX-style id Zenodo uses: cc-by-4.0, mit, cc0-1.0
    Column("title", String, nullable=False),
    Column("kind", String, nullable=False),  # content | software | data
    Column("url", String, nullable=False),
)

communities = Table(
    "communities",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("slug", String, nullable=False, unique=True),
    Column("title", String, nullable=False),
    Column("description", Text, nullable=False),
    Column("type", String, nullable=False),  # organization | event | topic | project
    Column("record_policy", String, nullable=False),  # open: anyone submits | closed: members only
    Column("created", String, nullable=False),
)

community_members = Table(
    "community_members",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("community_id", String, ForeignKey("communities.id"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("role", String, nullable=False),  # owner | manager | curator | reader
)

depositions = Table(
    "depositions",
    metadata,
    Column("id", Integer, primary_key=True),  # the record id once published
    Column("conceptrecid", Integer, nullable=False, index=True),  # shared by every version of one work
    Column("owner_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("state", String, nullable=False),  # unsubmitted (draft) | inprogress (published, being edited) | done
    Column("submitted", Boolean, nullable=False),  # published at least once
    Column("doi", String),  # 10.5281/zenodo.<id>, minted on publishing
    Column("conceptdoi", String),  # 10.5281/zenodo.<conceptrecid>, minted with the first version
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("modified", String, nullable=False, info={"volatile": True}),
    Column("published", String, info={"volatile": True}),  # when this version was first published
    Column("title", String, nullable=False),
    Column("upload_type", String),
    Column("publication_type", String),
    Column("image_type", String),
    Column("publication_date", String),
    Column("description", Text),
    Column("access_right", String, nullable=False),  # open | embargoed | restricted | closed
    Column("license", String, ForeignKey("licenses.id")),
    Column("embargo_date", String),
    Column("access_conditions", Text),
    Column("creators", JSON, nullable=False),  # [{name, affiliation, orcid}]
    Column("keywords", JSON, nullable=False),
    Column("related_identifiers", JSON, nullable=False),  # [{identifier, relation, resource_type}]
    Column("version", String),
    Column("notes", Text),
    Column("communities", JSON, nullable=False),  # slugs of the communities that include the record
    Column("published_metadata", JSON),  # the metadata as last published (restored by discarding an edit)
)

files = Table(
    "files",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("deposition_id", Integer, ForeignKey("depositions.id"), nullable=False, index=True),
    Column("filename", String, nullable=False),
    Column("filesize", Integer, nullable=False),  # bytes
    Column("checksum", String, nullable=False),  # md5:<hex>
    Column("created", String, nullable=False, info={"volatile": True}),
)

requests = Table(
    "requests",
    metadata,
    Column("id", String, primary_key=True),  # UUID
    Column("type", String, nullable=False),  # community-inclusion
    Column("community_id", String, ForeignKey("communities.id"), nullable=False),
    Column("record_id", Integer, ForeignKey("depositions.id"), nullable=False),
    Column("created_by", Integer, ForeignKey("users.id"), nullable=False),
    Column("status", String, nullable=False),  # submitted | accepted | declined | cancelled
    Column("comment", Text),  # the submitter's note to the curators
    Column("decision_comment", Text),
    Column("decided_by", Integer, ForeignKey("users.id")),
    Column("created", String, nullable=False, info={"volatile": True}),
    Column("updated", String, nullable=False, info={"volatile": True}),
)
