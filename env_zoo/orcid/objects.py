"""ORCID's v3.0 objects as output models (person, work summaries grouped by identifier, works, affiliations,
fundings, peer reviews, organizations, the portal's permissions, search hits), and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .rules import ORCID_BASE
from .schema import clients, organizations, records


class Source(BaseModel):
    """Who added an item: a member client (its client id) or the researcher themself (their iD)."""

    source_id: str = Field(description="APP-... client id, or the researcher's ORCID iD for self-asserted items")
    source_name: str


class ExternalId(BaseModel):
    """A persistent identifier of an item: type (doi, pmid, isbn, arxiv, grant_number...), value, relationship."""

    type: str
    value: str
    relationship: str = "self"


class Organization(BaseModel):
    """A disambiguated organization (ROR) or funder (Crossref Funder Registry)."""

    id: str = Field(description="disambiguated organization identifier (a ROR URL or a FUNDREF DOI)")
    source: str
    name: str
    city: str
    region: str | None
    country: str


class PersonItem(BaseModel):
    """An other name, keyword, researcher URL or external identifier on the person section."""

    put_code: int
    content: str = Field(description="the name, keyword, URL name or identifier value")
    id_type: str | None = Field(None, description="external identifiers: the identifier's type")
    url: str | None = None
    visibility: str
    source: Source
    display_index: int


class Email(BaseModel):
    """An email address on the record (read-only through the API)."""

    email: str
    primary: bool
    verified: bool
    visibility: str


class PersonObject(BaseModel):
    """The person section as the portal sees it: only items it may read are listed."""

    orcid: str
    orcid_uri: str
    given_names: str
    family_name: str | None
    credit_name: str | None
    biography: str | None
    emails: list[Email]
    other_names: list[PersonItem]
    keywords: list[PersonItem]
    researcher_urls: list[PersonItem]
    external_identifiers: list[PersonItem]


class WorkSummary(BaseModel):
    """One version of a work, from one source."""

    put_code: int
    path: str
    title: str
    type: str
    publication_date: str | None
    journal_title: str | None
    external_ids: list[ExternalId]
    visibility: str
    source: Source
    display_index: int


class WorkGroup(BaseModel):
    """Versions of one work from different sources, grouped by their shared self identifiers."""

    external_ids: list[ExternalId]
    preferred_put_code: int = Field(description="the version shown on the public record (highest display index)")
    work_summaries: list[WorkSummary]


class WorksObject(BaseModel):
    """A record's works, grouped."""

    orcid: str
    last_modified: str | None
    groups: list[WorkGroup]


class WorkObject(WorkSummary):
    """A full work."""

    subtitle: str | None
    url: str | None
    contributors: list[str]
    created: str
    last_modified: str


class AffiliationObject(BaseModel):
    """An employment, education, qualification, invited position, distinction, membership or service."""

    put_code: int
    path: str
    section: str
    organization: Organization
    department: str | None
    role_title: str | None
    start_date: str | None
    end_date: str | None
    visibility: str
    source: Source


class AffiliationList(BaseModel):
    """A record's affiliations, newest first."""

    orcid: str
    affiliations: list[AffiliationObject]


class FundingObject(BaseModel):
    """A grant, contract, award or salary award."""

    put_code: int
    path: str
    type: str
    title: str
    organization: Organization
    external_ids: list[ExternalId]
    amount: str | None
    currency: str | None
    start_date: str | None
    end_date: str | None
    visibility: str
    source: Source


class FundingList(BaseModel):
    """A record's fundings, newest first."""

    orcid: str
    fundings: list[FundingObject]


class PeerReview(BaseModel):
    """One review activity."""

    put_code: int
    role: str
    review_type: str
    completion_date: str
    convening_organization: str
    visibility: str
    source: Source


class PeerReviewGroup(BaseModel):
    """Reviews for one journal or publisher (group-id such as issn:0028-0836)."""

    group_id: str
    name: str
    peer_reviews: list[PeerReview]


class PeerReviewList(BaseModel):
    """A record's peer reviews, grouped by venue."""

    orcid: str
    groups: list[PeerReviewGroup]


class SearchHit(BaseModel):
    """A record found by the expanded search."""

    orcid_id: str
    given_names: str
    family_names: str | None
    credit_name: str | None
    other_names: list[str]
    institution_name: list[str]


class SearchResult(BaseModel):
    """Expanded search results."""

    num_found: int
    expanded_result: list[SearchHit]


class OrganizationList(BaseModel):
    """Organizations matching a search."""

    organizations: list[Organization]


class PermissionsObject(BaseModel):
    """What the researcher granted the portal on their record."""

    orcid: str
    name: str
    client_id: str
    scopes: list[str] = Field(description="/read-limited, /activities/update, /person/update; empty: public data only")
    default_visibility: str = Field(description="the researcher's default for new items; the portal cannot go above it")
    record_state: str


class ConnectedRecord(BaseModel):
    """A researcher who connected their record to the portal."""

    orcid: str
    name: str
    scopes: list[str]


class ConnectedRecords(BaseModel):
    """The records the portal holds permissions for."""

    records: list[ConnectedRecord]


class Created(BaseModel):
    """An item the portal added."""

    put_code: int
    path: str
    visibility: str


class Deleted(BaseModel):
    """An item the portal removed."""

    put_code: int
    path: str
    deleted: bool = True


def source(db: Database, source_id: str) -> Source:
    """Name an item's source: a client's name, or the researcher's own name for self-asserted items."""
    client = db.find(clients, client_id=source_id)
    if client:
        return Source(source_id=source_id, source_name=client[0]["name"])
    owner = db.get(records, source_id, "Record")
    name = owner["credit_name"] or " ".join(filter(None, [owner["given_names"], owner["family_name"]]))
    return Source(source_id=source_id, source_name=name)


def sources(db: Database, orcid: str) -> dict[str, Source]:
    """Every source an item of the record can have (the clients and the researcher), named once for a listing."""
    named = {row["client_id"]: Source(source_id=row["client_id"], source_name=row["name"]) for row in db.find(clients)}
    named[orcid] = source(db, orcid)
    return named


def organization(db: Database, org_id: str) -> Organization:
    """An organization row as output."""
    return Organization(**db.get(organizations, org_id, "Organization"))


def path(orcid: str, section: str, put_code: int) -> str:
    """The item's API path: /<orcid>/<section>/<put-code>."""
    return f"/{orcid}/{section}/{put_code}"


def person_item(db: Database, row: dict[str, Any]) -> PersonItem:
    """A person item row as output."""
    return PersonItem(
        put_code=row["put_code"],
        content=row["content"],
        id_type=row["id_type"],
        url=row["url"],
        visibility=row["visibility"],
        source=source(db, row["source"]),
        display_index=row["display_index"],
    )


def work_summary(db: Database, row: dict[str, Any], named: dict[str, Source] | None = None) -> WorkSummary:
    """A work row as a summary (`named`: the record's sources, when listing many)."""
    return WorkSummary(
        put_code=row["put_code"],
        path=path(row["orcid"], "work", row["put_code"]),
        title=row["title"],
        type=row["type"],
        publication_date=row["publication_date"],
        journal_title=row["journal_title"],
        external_ids=[ExternalId(**item) for item in row["external_ids"]],
        visibility=row["visibility"],
        source=named[row["source"]] if named else source(db, row["source"]),
        display_index=row["display_index"],
    )


def work(db: Database, row: dict[str, Any]) -> WorkObject:
    """A work row in full."""
    return WorkObject(
        **work_summary(db, row).model_dump(),
        subtitle=row["subtitle"],
        url=row["url"],
        contributors=row["contributors"],
        created=row["created"],
        last_modified=row["last_modified"],
    )


def affiliation(db: Database, row: dict[str, Any]) -> AffiliationObject:
    """An affiliation row as output."""
    return AffiliationObject(
        put_code=row["put_code"],
        path=path(row["orcid"], row["section"], row["put_code"]),
        section=row["section"],
        organization=organization(db, row["organization_id"]),
        department=row["department"],
        role_title=row["role_title"],
        start_date=row["start_date"],
        end_date=row["end_date"],
        visibility=row["visibility"],
        source=source(db, row["source"]),
    )


def funding(db: Database, row: dict[str, Any]) -> FundingObject:
    """A funding row as output."""
    ids = [ExternalId(type="grant_number", value=row["grant_number"])] if row["grant_number"] else []
    return FundingObject(
        put_code=row["put_code"],
        path=path(row["orcid"], "funding", row["put_code"]),
        type=row["type"],
        title=row["title"],
        organization=organization(db, row["organization_id"]),
        external_ids=ids,
        amount=row["amount"],
        currency=row["currency"],
        start_date=row["start_date"],
        end_date=row["end_date"],
        visibility=row["visibility"],
        source=source(db, row["source"]),
    )


def uri(orcid: str) -> str:
    """The iD as a URI."""
    return ORCID_BASE + orcid
