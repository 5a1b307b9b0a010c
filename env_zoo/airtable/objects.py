"""What the Airtable tools return, in the Web API's shapes (camelCase as the API names them)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class User(BaseModel):
    id: str
    email: str
    name: str


class Signed(BaseModel):
    user: User


class Base(BaseModel):
    id: str
    name: str
    permissionLevel: str
    workspace: str


class BaseList(BaseModel):
    bases: list[Base]
    offset: str | None = None


class Field(BaseModel):
    id: str
    name: str
    type: str
    description: str | None = None
    options: dict[str, Any] | None = None


class View(BaseModel):
    id: str
    name: str
    type: str
    filter: str | None = None
    sort: str | None = None


class TableSchema(BaseModel):
    id: str
    name: str
    description: str | None = None
    primaryFieldId: str
    fields: list[Field]
    views: list[View]


class BaseSchema(BaseModel):
    tables: list[TableSchema]


class Record(BaseModel):
    id: str
    createdTime: str
    fields: dict[str, Any]
    commentCount: int | None = None


class RecordList(BaseModel):
    records: list[Record]
    offset: str | None = None


class Records(BaseModel):
    records: list[Record]


class Deleted(BaseModel):
    id: str
    deleted: bool


class DeletedList(BaseModel):
    records: list[Deleted]


class Comment(BaseModel):
    id: str
    author: User
    text: str
    createdTime: str


class CommentList(BaseModel):
    comments: list[Comment]
    offset: str | None = None


class DeletedComment(BaseModel):
    id: str
    deleted: bool


class Collaborator(BaseModel):
    userId: str
    email: str
    name: str
    permissionLevel: str


class BaseCollaborators(BaseModel):
    id: str
    name: str
    permissionLevel: str
    workspace: str
    collaborators: list[Collaborator]


class Upserted(BaseModel):
    records: list[Record]
    createdRecords: list[str]
    updatedRecords: list[str]
