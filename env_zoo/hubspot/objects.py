"""HubSpot CRM objects as output models (records with their properties, owners, pipelines and stages,
associations) and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Owner(BaseModel):
    """A HubSpot user records can be assigned to (hubspot_owner_id)."""

    id: str
    email: str
    firstName: str
    lastName: str
    userId: int
    teams: list[str]
    archived: bool = Field(description="true for deactivated users, who can no longer own records")


class Record(BaseModel):
    """A CRM record: its id, property values (internal names), and whether it is archived."""

    id: str
    properties: dict[str, Any]
    createdAt: str
    updatedAt: str
    archived: bool


class SearchPage(BaseModel):
    """One page of search results; pass paging_after back as `after` for the next."""

    total: int
    results: list[Record]
    paging_after: str | None


class Stage(BaseModel):
    """A deal stage; its id is the deal's dealstage value."""

    id: str
    label: str
    displayOrder: int
    probability: float = Field(description="win probability, 0.0 to 1.0")
    isClosed: bool
    requiredProperties: list[str] = Field(description="deal properties that must be set to enter this stage")


class Pipeline(BaseModel):
    """A deal pipeline with its stages in order."""

    id: str
    label: str
    displayOrder: int
    restrictSkippingStages: bool = Field(description="open deals move forward one stage at a time")
    stages: list[Stage]


class AssociationType(BaseModel):
    """One association type (label) between two object types."""

    typeId: int
    category: str = Field(description="HUBSPOT_DEFINED or USER_DEFINED")
    label: str | None = Field(description="null for the unlabeled default association")
    limit: int | None = Field(description="how many records one record may carry this label to, if capped")


class AssociatedRecord(BaseModel):
    """A record associated with the one asked about, with the association types between them."""

    toObjectId: str
    associationTypes: list[AssociationType]


class AssociationResult(BaseModel):
    """The association types now between two records, and side effects (a replaced Primary)."""

    fromObjectId: str
    toObjectId: str
    associationTypes: list[AssociationType]
    changed: list[str]


class MergeResult(BaseModel):
    """The contact kept by a merge, and what moved onto it."""

    contact: Record
    mergedContactId: str
    movedAssociations: int


def owner_object(row: dict[str, Any]) -> Owner:
    return Owner(
        id=row["id"],
        email=row["email"],
        firstName=row["firstName"],
        lastName=row["lastName"],
        userId=row["userId"],
        teams=[row["team"]] if row["team"] else [],
        archived=bool(row["archived"]),
    )


CREATED = {"tasks": "hs_createdate", "notes": "hs_createdate"}
MODIFIED = {"contacts": "lastmodifieddate", "tasks": "hs_createdate", "notes": "hs_createdate"}
HIDDEN = {"id", "archived", "merged_into"}


def record_object(object_type: str, row: dict[str, Any], stage: dict[str, Any] | None = None) -> Record:
    """A stored row as HubSpot returns it; deals also get hs_is_closed and hs_deal_stage_probability."""
    props: dict[str, Any] = {k: v for k, v in row.items() if k not in HIDDEN}
    props["hs_object_id"] = row["id"]
    if stage is not None:
        props["hs_is_closed"] = bool(stage["isClosed"])
        props["hs_deal_stage_probability"] = stage["probability"]
    created = row[CREATED.get(object_type, "createdate")]
    updated = row[MODIFIED.get(object_type, "hs_lastmodifieddate")]
    return Record(id=row["id"], properties=props, createdAt=created, updatedAt=updated, archived=bool(row["archived"]))


def type_object(row: dict[str, Any]) -> AssociationType:
    return AssociationType(
        typeId=row["typeId"], category=row["category"], label=row["label"], limit=row["max_per_record"]
    )


def stage_object(row: dict[str, Any]) -> Stage:
    return Stage(
        id=row["id"],
        label=row["label"],
        displayOrder=row["displayOrder"],
        probability=row["probability"],
        isClosed=bool(row["isClosed"]),
        requiredProperties=list(row["required_properties"]),
    )
