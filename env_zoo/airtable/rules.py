"""Airtable's cell rules: what each field type accepts, select options (new ones only with typecast), linked
records that must exist in the linked table and are mirrored in its inverse field, and how cells read."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from envfactory_gym import Database

from .errors import unprocessable
from .schema import fields, records

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
MERGE_TYPES = ("singleLineText", "multilineText", "email", "number", "singleSelect", "date")
COLORS = ("blueLight2", "cyanLight2", "tealLight2", "greenLight2", "yellowLight2", "orangeLight2", "redLight2")


def cannot_accept(field: dict[str, Any], value: Any) -> Exception:
    return unprocessable(
        "INVALID_VALUE_FOR_COLUMN", f'Field "{field["name"]}" cannot accept the provided value: {value!r}'
    )


def table_fields(db: Database, table_id: str) -> list[dict[str, Any]]:
    """The table's fields in their column order."""
    return db.find(fields, table_id=table_id, order_by=[fields.c.position])


def by_name(table_fields: list[dict[str, Any]], name: str) -> dict[str, Any]:
    """A field by its name or id; 422 UNKNOWN_FIELD_NAME otherwise."""
    for f in table_fields:
        if f["name"] == name or f["id"] == name:
            return f
    raise unprocessable("UNKNOWN_FIELD_NAME", f'Unknown field name: "{name}"')


def coerce(db: Database, field: dict[str, Any], value: Any, typecast: bool) -> tuple[Any, dict[str, Any] | None]:
    """The stored cell for `value` (None clears it) and, for a select with typecast, the field's new options."""
    kind = field["type"]
    if value is None or value == "" or value == []:
        return None, None
    if kind in ("singleLineText", "multilineText", "email"):
        if typecast and isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or (kind == "singleLineText" and "\n" in value):
            raise cannot_accept(field, value)
        if kind == "email" and not EMAIL.match(value.strip()):
            raise cannot_accept(field, value)
        return value, None
    if kind == "number":
        if typecast and isinstance(value, str):
            try:
                value = float(value.replace(",", ""))
            except ValueError:
                raise cannot_accept(field, value) from None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise cannot_accept(field, value)
        precision = field["options"].get("precision", 0)
        return (int(round(value)) if precision == 0 else round(float(value), precision)), None
    if kind == "checkbox":
        if not isinstance(value, bool):
            raise cannot_accept(field, value)
        return (True if value else None), None
    if kind == "date":
        try:
            return date.fromisoformat(str(value)[:10]).isoformat(), None
        except ValueError:
            raise cannot_accept(field, value) from None
    if kind == "singleSelect":
        if not isinstance(value, str):
            raise cannot_accept(field, value)
        names = [c["name"] for c in field["options"]["choices"]]
        if value in names:
            return value, None
        if not typecast:
            raise unprocessable(
                "INVALID_MULTIPLE_CHOICE_OPTIONS", f'Insufficient permissions to create new select option ""{value}""'
            )
        choices = field["options"]["choices"]
        new = {"id": f"sel{field['id'][3:10]}{len(choices):07d}", "name": value, "color": COLORS[len(choices) % 7]}
        return value, {**field["options"], "choices": [*choices, new]}
    if kind == "multipleRecordLinks":
        if isinstance(value, str) and typecast:
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise unprocessable("INVALID_VALUE_FOR_COLUMN", "Value is not an array of record IDs.")
        linked = field["options"]["linkedTableId"]
        for rec in value:
            if not db.find(records, id=rec, table_id=linked):
                raise unprocessable("ROW_DOES_NOT_EXIST", f"Record ID {rec} does not exist in this table")
        return list(dict.fromkeys(value)), None
    raise cannot_accept(field, value)  # pragma: no cover - every seeded type is handled above


def mirror_links(db: Database, field: dict[str, Any], record_id: str, before: list[str], after: list[str]) -> None:
    """Keep the inverse link field of the linked table in step: add `record_id` to newly linked records and drop it
    from unlinked ones."""
    inverse = field["options"].get("inverseLinkFieldId")
    if not inverse:
        return
    for rec in sorted(set(before) ^ set(after)):
        row = db.get(records, rec)
        cells = dict(row["cells"])
        links = [r for r in cells.get(inverse, []) if r != record_id]
        if rec in after:
            links.append(record_id)
        if links:
            cells[inverse] = links
        else:
            cells.pop(inverse, None)
        db.update(records, rec, cells=cells)


def link_names(db: Database, table_fields: list[dict[str, Any]]) -> dict[str, str]:
    """Record id -> primary value for every table the fields link to (one query per linked table)."""
    names: dict[str, str] = {}
    for f in table_fields:
        if f["type"] != "multipleRecordLinks":
            continue
        linked = f["options"]["linkedTableId"]
        primary = db.find(fields, table_id=linked, position=0)[0]["id"]
        for row in db.find(records, table_id=linked):
            names[row["id"]] = str(row["cells"].get(primary, ""))
    return names


def formula_values(table_fields: list[dict[str, Any]], cells: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """A record's cells by field name, as formulas see them (links as their primary names joined by ', ')."""
    out: dict[str, Any] = {}
    for f in table_fields:
        value = cells.get(f["id"])
        if f["type"] == "multipleRecordLinks" and value:
            value = ", ".join(names.get(r, "") for r in value)
        elif f["type"] == "checkbox":
            value = bool(value)
        out[f["name"]] = value
    return out
