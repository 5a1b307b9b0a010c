"""Benchling's API objects as output models (snake_case, as the Benchling Python SDK names them), and how stored rows
become them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from envfactory_gym import Database

from .access import role
from .rules import entity, grid
from .schema import collaborations, containers, folders, schemas, users

FieldValue = str | int | float | bool


class WithSchema(BaseModel):
    """An object with a `schema` member (kept as `schema_` in Python, where BaseModel owns the name)."""

    model_config = ConfigDict(serialize_by_alias=True, populate_by_name=True)


class UserSummary(BaseModel):
    """A Benchling user (ent_...)."""

    id: str
    handle: str
    name: str


class SessionObject(BaseModel):
    """Who the assistant is acting as."""

    user: UserSummary
    email: str
    title: str
    tenant: str


class SchemaSummary(BaseModel):
    """The schema an item follows."""

    id: str
    name: str


class FieldDefinition(BaseModel):
    """One field of a schema."""

    name: str
    type: str = Field(description="text, integer, float, boolean, date, dropdown or entity_link")
    is_required: bool
    options: list[str] | None = None


class SchemaObject(BaseModel):
    """An entity schema of a registry, with its naming prefix."""

    id: str
    name: str
    type: str
    prefix: str | None = Field(description="registry IDs of this schema are the prefix and a number, e.g. PL0142")
    fields: list[FieldDefinition]


class RegistryObject(BaseModel):
    """A registry and the entity schemas registered in it."""

    id: str
    name: str
    entity_schemas: list[SchemaObject]


class Collaborator(BaseModel):
    """A project collaborator and their role."""

    user: UserSummary
    role: str = Field(description="READ, WRITE or ADMIN")


class ProjectObject(BaseModel):
    """A project the signed-in user collaborates on."""

    id: str
    name: str
    description: str
    owner: UserSummary
    your_role: str
    collaborators: list[Collaborator]
    archive_reason: str | None


class FolderObject(BaseModel):
    """A folder of a project."""

    id: str
    name: str
    project_id: str
    parent_folder_id: str | None
    archive_reason: str | None


class ReviewRecord(BaseModel):
    """Where an entry stands in review."""

    status: str = Field(description="IN_PROGRESS, NEEDS_REVIEW, ACCEPTED, REJECTED or RETRACTED")
    comment: str | None
    signed_by: UserSummary | None


class EntryDay(BaseModel):
    """One day of notes in an entry."""

    date: str
    notes: list[str]


class EntryObject(WithSchema):
    """A notebook entry."""

    id: str
    display_id: str
    name: str
    folder_id: str
    project_id: str
    schema_: SchemaSummary | None = Field(alias="schema")
    fields: dict[str, FieldValue]
    creator: UserSummary
    authors: list[UserSummary]
    assigned_reviewers: list[UserSummary]
    review_record: ReviewRecord
    days: list[EntryDay]
    archive_reason: str | None
    created_at: str
    modified_at: str


class Annotation(BaseModel):
    """A feature annotated on a DNA sequence (0-based start, exclusive end)."""

    name: str
    type: str = Field(description="feature type, e.g. CDS, promoter, primer_bind")
    start: int = Field(ge=0)
    end: int = Field(ge=1)
    strand: int = Field(1, ge=-1, le=1, description="1 forward, -1 reverse, 0 none")
    color: str | None = None


class DnaSequenceSummary(WithSchema):
    """A DNA sequence as listed (get_dna_sequence returns the bases and annotations)."""

    id: str
    name: str
    length: int
    is_circular: bool
    folder_id: str
    schema_: SchemaSummary | None = Field(alias="schema")
    fields: dict[str, FieldValue]
    aliases: list[str]
    entity_registry_id: str | None
    registry_id: str | None
    creator: UserSummary
    archive_reason: str | None


class DnaSequenceObject(DnaSequenceSummary):
    """A DNA sequence with its bases and annotations."""

    bases: str
    annotations: list[Annotation]


class CustomEntityObject(WithSchema):
    """A custom entity (cell line, strain, antibody, protein ...)."""

    id: str
    name: str
    schema_: SchemaSummary = Field(alias="schema")
    folder_id: str
    fields: dict[str, FieldValue]
    aliases: list[str]
    entity_registry_id: str | None
    registry_id: str | None
    creator: UserSummary
    archive_reason: str | None


class RegisteredEntity(BaseModel):
    """An entity after registration."""

    id: str
    name: str
    entity_registry_id: str
    registry_id: str


class StorageObject(WithSchema):
    """A location, box or plate."""

    id: str
    name: str
    barcode: str
    type: str = Field(description="location, box or plate")
    schema_: SchemaSummary = Field(alias="schema")
    parent_storage_id: str | None
    project_id: str | None
    rows: int | None
    columns: int | None
    filled_positions: int | None
    empty_positions: list[str] | None = Field(description="free positions of a box or plate, row by row")
    archive_reason: str | None


class Quantity(BaseModel):
    """An amount with units: L, mL, uL, nL (volume) or g, mg, ug, ng (mass)."""

    value: float
    units: str


class TransferQuantity(Quantity):
    """How much to transfer."""

    value: float = Field(gt=0)
    units: Literal["L", "mL", "uL", "nL", "g", "mg", "ug", "ng"]


class Concentration(BaseModel):
    """A concentration, e.g. 250 ng/uL."""

    value: float
    units: str


class EntitySummary(BaseModel):
    """The entity a container holds."""

    id: str
    name: str
    entity_registry_id: str | None


class ContainerContent(BaseModel):
    """One entity in a container and its concentration."""

    entity: EntitySummary
    concentration: Concentration | None


class CheckoutRecord(BaseModel):
    """Who holds a container."""

    status: str = Field(description="AVAILABLE, RESERVED or CHECKED_OUT")
    assignee: UserSummary | None
    comment: str


class ContainerObject(WithSchema):
    """A tube, vial or plate well with its contents and quantity."""

    id: str
    name: str
    barcode: str | None
    schema_: SchemaSummary = Field(alias="schema")
    parent_storage_id: str | None
    position: str | None
    contents: list[ContainerContent]
    quantity: Quantity | None
    project_id: str | None
    checkout_record: CheckoutRecord
    archive_reason: str | None
    created_at: str
    modified_at: str


class TransferResult(BaseModel):
    """Both containers after a transfer."""

    source: ContainerObject
    destination: ContainerObject


class ArchivalChange(BaseModel):
    """What an archive call changed."""

    container_ids: list[str]
    reason: str


class RequestObject(WithSchema):
    """A request to a team (sequencing, maxiprep, purification, cell banking)."""

    id: str
    display_id: str
    schema_: SchemaSummary = Field(alias="schema")
    project_id: str
    requestor: UserSummary
    assignees: list[UserSummary]
    request_status: str = Field(description="REQUESTED, SCHEDULED, IN_PROGRESS, COMPLETED or CANCELLED")
    scheduled_on: str | None
    fields: dict[str, FieldValue]
    created_at: str


class AuditEventObject(BaseModel):
    """One event of an object's audit log."""

    id: str
    object_id: str
    action: str
    user: UserSummary
    changes: dict[str, Any]
    timestamp: str


# ---------------------------------------------------------------- rows -> objects


def user_summary(db: Database, user_id: str) -> UserSummary:
    """A user as other objects show them."""
    user = db.get(users, user_id, "User")
    return UserSummary(id=user["id"], handle=user["handle"], name=user["name"])


def schema_summary(db: Database, schema_id: str | None) -> SchemaSummary | None:
    """A schema as other objects show it."""
    if schema_id is None:
        return None
    schema = db.get(schemas, schema_id, "Schema")
    return SchemaSummary(id=schema["id"], name=schema["name"])


def schema_object(row: dict[str, Any]) -> SchemaObject:
    """An entity schema with its fields."""
    return SchemaObject(
        id=row["id"],
        name=row["name"],
        type=row["type"],
        prefix=row["prefix"],
        fields=[FieldDefinition(**f) for f in row["fields"]],
    )


def project_object(db: Database, row: dict[str, Any], viewer_id: str) -> ProjectObject:
    """A project with its collaborators, as the viewer sees it."""
    members = db.find(collaborations, project_id=row["id"], order_by=[collaborations.c.role, collaborations.c.user_id])
    return ProjectObject(
        id=row["id"],
        name=row["name"],
        description=row["description"],
        owner=user_summary(db, row["owner_id"]),
        your_role=role(db, viewer_id, row["id"]) or "NONE",
        collaborators=[Collaborator(user=user_summary(db, m["user_id"]), role=m["role"]) for m in members],
        archive_reason=row["archive_reason"],
    )


def entry_object(db: Database, row: dict[str, Any]) -> EntryObject:
    """A notebook entry with its people expanded."""
    folder = db.get(folders, row["folder_id"], "Folder")
    return EntryObject(
        id=row["id"],
        display_id=row["display_id"],
        name=row["name"],
        folder_id=row["folder_id"],
        project_id=folder["project_id"],
        schema=schema_summary(db, row["schema_id"]),
        fields=row["fields"],
        creator=user_summary(db, row["creator_id"]),
        authors=[user_summary(db, u) for u in row["author_ids"]],
        assigned_reviewers=[user_summary(db, u) for u in row["assigned_reviewer_ids"]],
        review_record=ReviewRecord(
            status=row["review_status"],
            comment=row["review_comment"],
            signed_by=user_summary(db, row["signed_by_id"]) if row["signed_by_id"] else None,
        ),
        days=[EntryDay(**d) for d in row["days"]],
        archive_reason=row["archive_reason"],
        created_at=row["created_at"],
        modified_at=row["modified_at"],
    )


def _entity_fields(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    keys = ("id", "name", "folder_id", "fields", "aliases", "entity_registry_id", "registry_id", "archive_reason")
    return {k: row[k] for k in keys} | {
        "schema": schema_summary(db, row["schema_id"]),
        "creator": user_summary(db, row["creator_id"]),
    }


def sequence_summary(db: Database, row: dict[str, Any]) -> DnaSequenceSummary:
    """A DNA sequence without its bases."""
    return DnaSequenceSummary(**_entity_fields(db, row), length=len(row["bases"]), is_circular=row["is_circular"])


def sequence_object(db: Database, row: dict[str, Any]) -> DnaSequenceObject:
    """A DNA sequence with bases and annotations."""
    return DnaSequenceObject(
        **_entity_fields(db, row),
        length=len(row["bases"]),
        is_circular=row["is_circular"],
        bases=row["bases"],
        annotations=[Annotation(**a) for a in row["annotations"]],
    )


def custom_entity_object(db: Database, row: dict[str, Any]) -> CustomEntityObject:
    """A custom entity."""
    return CustomEntityObject(**_entity_fields(db, row))


def storage_object(db: Database, row: dict[str, Any], kind: str) -> StorageObject:
    """A location, box or plate; boxes and plates with their free positions."""
    schema = db.get(schemas, row["schema_id"], "Schema")
    rows, columns, filled, empty = None, None, None, None
    if kind != "location":
        rows, columns = schema["num_rows"], schema["num_columns"]
        held = db.find(containers, parent_storage_id=row["id"], archive_reason=None)
        # a box position is taken by any tube; a plate's wells always exist and count once they hold something
        taken = {c["position"] for c in held if kind == "box" or c["contents"] or c["quantity_value"]}
        filled = len(taken)
        empty = [p for p in grid(rows, columns) if p not in taken]
    return StorageObject(
        id=row["id"],
        name=row["name"],
        barcode=row["barcode"],
        type=kind,
        schema=SchemaSummary(id=schema["id"], name=schema["name"]),
        parent_storage_id=row["parent_storage_id"],
        project_id=row.get("project_id"),
        rows=rows,
        columns=columns,
        filled_positions=filled,
        empty_positions=empty,
        archive_reason=row["archive_reason"],
    )


def container_object(db: Database, row: dict[str, Any]) -> ContainerObject:
    """A container with its contents' entities expanded."""
    contents = []
    for content in row["contents"]:
        _, held = entity(db, content["entity_id"])
        contents.append(
            ContainerContent(
                entity=EntitySummary(id=held["id"], name=held["name"], entity_registry_id=held["entity_registry_id"]),
                concentration=Concentration(**content["concentration"]) if content["concentration"] else None,
            )
        )
    quantity = None
    if row["quantity_units"] is not None:
        quantity = Quantity(value=row["quantity_value"], units=row["quantity_units"])
    assignee = row["checkout_assignee_id"]
    return ContainerObject(
        id=row["id"],
        name=row["name"],
        barcode=row["barcode"],
        schema=schema_summary(db, row["schema_id"]),
        parent_storage_id=row["parent_storage_id"],
        position=row["position"],
        contents=contents,
        quantity=quantity,
        project_id=row["project_id"],
        checkout_record=CheckoutRecord(
            status=row["checkout_status"],
            assignee=user_summary(db, assignee) if assignee else None,
            comment=row["checkout_comment"],
        ),
        archive_reason=row["archive_reason"],
        created_at=row["created_at"],
        modified_at=row["modified_at"],
    )


def request_object(db: Database, row: dict[str, Any]) -> RequestObject:
    """A request with its people expanded."""
    return RequestObject(
        id=row["id"],
        display_id=row["display_id"],
        schema=schema_summary(db, row["schema_id"]),
        project_id=row["project_id"],
        requestor=user_summary(db, row["requestor_id"]),
        assignees=[user_summary(db, u) for u in row["assignee_ids"]],
        request_status=row["request_status"],
        scheduled_on=row["scheduled_on"],
        fields=row["fields"],
        created_at=row["created_at"],
    )


def audit_object(db: Database, row: dict[str, Any]) -> AuditEventObject:
    """An audit log event."""
    return AuditEventObject(
        id=row["id"],
        object_id=row["object_id"],
        action=row["action"],
        user=user_summary(db, row["user_id"]),
        changes=row["changes"],
        timestamp=row["timestamp"],
    )
