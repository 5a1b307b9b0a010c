"""What the Airtable tools share: the id and name types, the input models of record batches and new fields, looking
tables and records up inside a base, turning given values into cells, adding fields (with inverse links), and the
output shapes of records, fields, tables and comments."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .access import base_access
from .errors import not_found, unprocessable
from .objects import Comment, Record, TableSchema, User, View
from .objects import Field as FieldOut
from .rules import by_name, coerce, table_fields
from .schema import comments, tables, users, views
from .schema import fields as field_rows
from .schema import records as record_rows

BaseId = Annotated[str, Field(pattern=r"^app[A-Za-z0-9]{14}$", description="the base's id, e.g. appXXXXXXXXXXXXXX")]


RecordId = Annotated[str, Field(pattern=r"^rec[A-Za-z0-9]{14}$", description="a record id, e.g. recXXXXXXXXXXXXXX")]


CommentId = Annotated[str, Field(pattern=r"^com[A-Za-z0-9]{14}$")]


TableRef = Annotated[str, Field(min_length=1, max_length=255, description="the table's id (tbl...) or its name")]


FieldRef = Annotated[str, Field(min_length=1, max_length=255, description="the field's id (fld...) or its name")]


Name = Annotated[str, Field(min_length=1, max_length=255, pattern=r"\S")]


FieldType = Literal[
    "singleLineText", "multilineText", "email", "number", "checkbox", "date", "singleSelect", "multipleRecordLinks"
]


PRIMARY_TYPES = ("singleLineText", "multilineText", "email", "number", "date")


class NewRecord(BaseModel):
    """A record to create: cell values by field name or id."""

    fields: dict[str, Any]


class RecordUpdate(BaseModel):
    """A record to update: its id and the cells to change, by field name or id (null clears a cell)."""

    id: RecordId
    fields: dict[str, Any]


class FieldSpec(BaseModel):
    """A field for a new table: name, type, and options (choices for a select, the linked table for links)."""

    name: Name
    type: FieldType
    choices: list[Name] | None = None
    linked_table: TableRef | None = None
    precision: Annotated[int, Field(ge=0, le=8)] | None = None


def _table(db: Database, base_id: str, ref: str) -> dict[str, Any]:
    for row in db.find(tables, base_id=base_id, order_by=[tables.c.position]):
        if row["id"] == ref or row["name"] == ref.strip():
            return row
    raise not_found("TABLE_NOT_FOUND", f"Could not find table {ref} in application {base_id}")


def _record_row(db: Database, table: dict[str, Any], record_id: str) -> dict[str, Any]:
    found = db.find(record_rows, id=record_id, table_id=table["id"])
    if not found:
        raise not_found("NOT_FOUND", f"Could not find record {record_id} in table {table['name']}")
    return found[0]


def _out(row: dict[str, Any], tfields: list[dict[str, Any]], only: set[str] | None = None) -> Record:
    cells = {}
    for f in tfields:
        value = row["cells"].get(f["id"])
        if value is not None and (only is None or f["name"] in only):
            cells[f["name"]] = value
    return Record(id=row["id"], createdTime=row["created_time"], fields=cells)


def _field_out(row: dict[str, Any]) -> FieldOut:
    return FieldOut(
        id=row["id"], name=row["name"], type=row["type"], description=row["description"], options=row["options"] or None
    )


def _cells(
    db: Database, tfields: list[dict[str, Any]], given: dict[str, Any], typecast: bool, start: dict[str, Any]
) -> tuple[dict[str, Any], list[tuple[dict[str, Any], list[str], list[str]]]]:
    """New cells from `start` with `given` applied, and the link changes to mirror."""
    cells = dict(start)
    links = []
    for name, value in given.items():
        field = by_name(tfields, name)
        stored, options = coerce(db, field, value, typecast)
        if options is not None:
            db.update(field_rows, field["id"], options=options)
            field["options"] = options
        if field["type"] == "multipleRecordLinks":
            links.append((field, list(start.get(field["id"], [])), list(stored or [])))
        if stored is None:
            cells.pop(field["id"], None)
        else:
            cells[field["id"]] = stored
    return cells, links


def _new_id(db: Database, table: Any, prefix: str) -> str:
    return db.new_id(table, prefix, 14)


def _add_field(
    db: Database, base_id: str, table_id: str, spec: FieldSpec, position: int, description: str | None
) -> dict[str, Any]:
    existing = table_fields(db, table_id)
    if any(f["name"].lower() == spec.name.strip().lower() for f in existing):
        raise unprocessable("DUPLICATE_OR_EMPTY_FIELD_NAME", f'Field name "{spec.name}" is already used in this table')
    options: dict[str, Any] = {}
    fid = _new_id(db, field_rows, "fld")
    if spec.type == "singleSelect":
        if not spec.choices:
            raise unprocessable("INVALID_FIELD_TYPE_OPTIONS_FOR_CREATE", "A singleSelect field needs choices")
        options = {
            "choices": [
                {"id": f"sel{fid[3:10]}{i:07d}", "name": c, "color": "blueLight2"}
                for i, c in enumerate(dict.fromkeys(spec.choices))
            ]
        }
    elif spec.type == "multipleRecordLinks":
        if not spec.linked_table:
            raise unprocessable(
                "INVALID_FIELD_TYPE_OPTIONS_FOR_CREATE", "A multipleRecordLinks field needs linked_table"
            )
        linked = _table(db, base_id, spec.linked_table)
        options = {"linkedTableId": linked["id"]}
        if linked["id"] != table_id:
            source = db.get(tables, table_id)
            inverse_name = source["name"]
            taken = {f["name"].lower() for f in table_fields(db, linked["id"])}
            n = 2
            while inverse_name.lower() in taken:
                inverse_name, n = f"{source['name']} {n}", n + 1
            inv = _new_id(db, field_rows, "fld")
            db.insert(
                field_rows,
                id=inv,
                table_id=linked["id"],
                name=inverse_name,
                type="multipleRecordLinks",
                description=None,
                options={"linkedTableId": table_id, "inverseLinkFieldId": fid},
                position=len(table_fields(db, linked["id"])),
            )
            options["inverseLinkFieldId"] = inv
    elif spec.type == "number":
        options = {"precision": spec.precision or 0}
    return db.insert(
        field_rows,
        id=fid,
        table_id=table_id,
        name=spec.name.strip(),
        type=spec.type,
        description=description,
        options=options,
        position=position,
    )


def _schema_of(db: Database, table_id: str) -> TableSchema:
    t = db.get(tables, table_id)
    return TableSchema(
        id=t["id"],
        name=t["name"],
        description=t["description"],
        primaryFieldId=t["primary_field_id"],
        fields=[_field_out(f) for f in table_fields(db, table_id)],
        views=[
            View(id=v["id"], name=v["name"], type=v["type"], filter=v["formula"])
            for v in db.find(views, table_id=table_id, order_by=[views.c.id])
        ],
    )


def _comment_out(db: Database, row: dict[str, Any]) -> Comment:
    return Comment(
        id=row["id"], author=User(**db.get(users, row["author_id"])), text=row["text"], createdTime=row["created_time"]
    )


def _own_comment(db: Database, base_id: str, table: str, record_id: str, comment_id: str) -> dict[str, Any]:
    user, _, _ = base_access(db, base_id, "comment")
    _record_row(db, _table(db, base_id, table), record_id)
    found = db.find(comments, id=comment_id, record_id=record_id)
    if not found:
        raise not_found("NOT_FOUND", f"Could not find comment {comment_id}")
    if found[0]["author_id"] != user["id"]:
        raise unprocessable("INVALID_PERMISSIONS", "Only the author of a comment can change or delete it")
    return found[0]
