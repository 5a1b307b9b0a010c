"""protocols.io's API objects as output models (protocol, step, material, comment, workspace, bookmark), and how
stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .access import may_edit
from .rules import protocol_steps
from .schema import materials, users, workspaces


class Author(BaseModel):
    """A researcher as protocols.io shows them."""

    username: str
    name: str
    affiliation: str | None


class StepObject(BaseModel):
    """One step of a protocol."""

    id: int
    number: int
    section: str | None
    text: str
    duration: int | None = Field(description="seconds")


class MaterialObject(BaseModel):
    """A reagent, kit or piece of equipment the protocol needs."""

    id: int
    name: str
    vendor: str | None
    catalog_number: str | None


class ProtocolSummary(BaseModel):
    """A protocol in a list."""

    id: int
    uri: str
    title: str
    creator: Author
    state: str = Field(description="draft | published")
    version_number: int
    doi: str | None
    workspace: str | None = Field(description="the workspace's uri")
    published_on: str | None


class ProtocolObject(ProtocolSummary):
    """A protocol with its content."""

    description: str | None
    guidelines: str | None
    family_id: int = Field(description="the first version's id; every version shares it")
    forked_from: int | None
    version_notes: str | None
    created_on: str
    changed_on: str
    steps: list[StepObject]
    materials: list[MaterialObject]
    can_edit: bool = Field(description="whether the signed-in researcher may edit it (drafts only)")


class ProtocolList(BaseModel):
    """A page of protocols."""

    items: list[ProtocolSummary]
    total: int
    page_id: int
    total_pages: int


class CommentObject(BaseModel):
    """A comment on a protocol or one of its steps."""

    id: int
    protocol_id: int
    step_id: int | None
    parent_id: int | None
    author: Author
    body: str
    created_on: str


class CommentList(BaseModel):
    """A protocol's comments, oldest first."""

    items: list[CommentObject]


class WorkspaceObject(BaseModel):
    """A workspace the researcher belongs to."""

    uri: str
    title: str
    visibility: str
    role: str = Field(description="the researcher's role: owner | admin | member | viewer")
    members: list[Author]


class WorkspaceList(BaseModel):
    """The researcher's workspaces."""

    items: list[WorkspaceObject]


def author(db: Database, user_id: int) -> Author:
    """A researcher's public profile."""
    row = db.get(users, user_id)
    return Author(username=row["username"], name=row["name"], affiliation=row["affiliation"])


def _workspace_uri(db: Database, workspace_id: int | None) -> str | None:
    return db.get(workspaces, workspace_id)["uri"] if workspace_id is not None else None


def protocol_summary(db: Database, row: dict[str, Any]) -> ProtocolSummary:
    """A protocol row as a list item."""
    return ProtocolSummary(
        id=row["id"],
        uri=row["uri"],
        title=row["title"],
        creator=author(db, row["creator_id"]),
        state=row["state"],
        version_number=row["version_number"],
        doi=row["doi"],
        workspace=_workspace_uri(db, row["workspace_id"]),
        published_on=row["published_on"],
    )


def protocol(db: Database, row: dict[str, Any], user: dict[str, Any]) -> ProtocolObject:
    """A protocol row with its steps and materials, as the signed-in researcher sees it."""
    return ProtocolObject(
        can_edit=row["state"] == "draft" and may_edit(db, user, row),
        **protocol_summary(db, row).model_dump(),
        description=row["description"],
        guidelines=row["guidelines"],
        family_id=row["family_id"],
        forked_from=row["forked_from"],
        version_notes=row["version_notes"],
        created_on=row["created_on"],
        changed_on=row["changed_on"],
        steps=[
            StepObject(id=s["id"], number=s["number"], section=s["section"], text=s["text"], duration=s["duration"])
            for s in protocol_steps(db, row["id"])
        ],
        materials=[
            MaterialObject(id=m["id"], name=m["name"], vendor=m["vendor"], catalog_number=m["catalog_number"])
            for m in db.find(materials, protocol_id=row["id"])
        ],
    )


def comment(db: Database, row: dict[str, Any]) -> CommentObject:
    """A comment row."""
    return CommentObject(
        id=row["id"],
        protocol_id=row["protocol_id"],
        step_id=row["step_id"],
        parent_id=row["parent_id"],
        author=author(db, row["author_id"]),
        body=row["body"],
        created_on=row["created_on"],
    )
