"""Benchling's mechanics shared by the tools: schema fields, registry naming, box and plate grids, quantities and
what a transfer does to the contents, and the audit log."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied
from envfactory_gym.values import parse_date

from .schema import audit_events, boxes, containers, custom_entities, dna_sequences, entries, locations, plates, schemas

if TYPE_CHECKING:
    from .objects import Annotation, TransferQuantity

VOLUME_UL = {"L": 1e6, "mL": 1e3, "uL": 1.0, "nL": 1e-3}
MASS_UG = {"g": 1e6, "mg": 1e3, "ug": 1.0, "ng": 1e-3}
STORAGE_TABLES = {"loc_": locations, "box_": boxes, "plt_": plates}
STORAGE_KINDS = {"loc_": "location", "box_": "box", "plt_": "plate"}
TENANT = "corvidbio.benchling.com"
ArchiveReason = Literal[
    "Made in error",
    "Retired",
    "Expended",
    "Shipped",
    "Contaminated",
    "Expired",
    "Missing",
    "Other",
]
NamingStrategy = Literal["NEW_IDS", "IDS_FROM_NAMES", "DELETE_NAMES", "KEEP_NAMES"]
ReviewStatus = Literal["IN_PROGRESS", "NEEDS_REVIEW", "ACCEPTED", "REJECTED", "RETRACTED"]
REVIEWABLE = ("IN_PROGRESS", "REJECTED", "RETRACTED")
RequestStatus = Literal["REQUESTED", "SCHEDULED", "IN_PROGRESS", "COMPLETED", "CANCELLED"]
NEXT_STATUSES = {
    "REQUESTED": {"SCHEDULED", "IN_PROGRESS", "CANCELLED"},
    "SCHEDULED": {"IN_PROGRESS", "CANCELLED"},
    "IN_PROGRESS": {"COMPLETED", "CANCELLED"},
    "COMPLETED": set(),
    "CANCELLED": set(),
}
CHECKOUT_STATUS = {"check_out": "CHECKED_OUT", "reserve": "RESERVED", "check_in": "AVAILABLE"}


def contains(text: str, part: str | None) -> bool:
    """Whether `text` holds `part` in any case (always, when no part is given)."""
    return part is None or part.strip().casefold() in text.casefold()


def changed(before: dict[str, Any], changes: dict[str, Any]) -> dict[str, list[Any]]:
    """The audit record of an update: {field: [old, new]} for the fields that really change."""
    return {k: [before[k], v] for k, v in changes.items() if before[k] != v}


# ---------------------------------------------------------------- schema fields


def schema_of(db: Database, schema_id: str, kind: str) -> dict[str, Any]:
    """A schema of the given type (entry, dna_sequence, custom_entity, ...)."""
    schema = db.get(schemas, schema_id, "Schema")
    if schema["type"] != kind:
        raise InvalidRequest(f"Schema '{schema['name']}' is a {schema['type']} schema, not a {kind} schema.")
    return schema


def _is_date(value: str) -> bool:
    try:
        parse_date(value, "date")
    except InvalidRequest:
        return False
    return True


def _check_value(db: Database, schema: dict[str, Any], spec: dict[str, Any], value: Any) -> None:
    name, kind = spec["name"], spec["type"]
    valid = {
        "text": isinstance(value, str),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, (int, float)) and not isinstance(value, bool),
        "boolean": isinstance(value, bool),
        "date": isinstance(value, str) and _is_date(value),
        "dropdown": value in (spec.get("options") or []),
        "entity_link": isinstance(value, str),
    }[kind]
    if not valid:
        options = f" (one of: {', '.join(spec['options'])})" if kind == "dropdown" else ""
        raise InvalidRequest(f"Field '{name}' of schema '{schema['name']}' takes a {kind} value{options}.")
    if kind == "entity_link":
        entity(db, value)


def merge_fields(
    db: Database, schema: dict[str, Any] | None, current: dict[str, Any], changes: dict[str, Any]
) -> dict[str, Any]:
    """`current` with `changes` applied, each checked against the schema (None clears a field)."""
    if changes and schema is None:
        raise InvalidRequest("This item has no schema, so it has no fields to set.")
    merged = dict(current)
    specs = {f["name"]: f for f in schema["fields"]} if schema else {}
    for name, value in changes.items():
        if name not in specs:
            raise InvalidRequest(f"Unknown field '{name}' for schema '{schema['name']}'.")  # type: ignore[index]
        if value is None:
            merged.pop(name, None)
        else:
            _check_value(db, schema, specs[name], value)  # type: ignore[arg-type]
            merged[name] = value
    return merged


def missing_required(schema: dict[str, Any] | None, fields: dict[str, Any]) -> list[str]:
    """Required fields of the schema that hold no value."""
    if schema is None:
        return []
    return [f["name"] for f in schema["fields"] if f["is_required"] and fields.get(f["name"]) in (None, "")]


# ---------------------------------------------------------------- registry entities


def entity(db: Database, entity_id: str) -> tuple[Any, dict[str, Any]]:
    """A DNA sequence or custom entity by id, with its table."""
    table = dna_sequences if entity_id.startswith("seq_") else custom_entities
    found = db.find(table, id=entity_id)
    if not found:
        raise NotFound(f"Entity '{entity_id}' not found")
    return table, found[0]


def next_registry_id(db: Database, prefix: str) -> str:
    """The next registry ID of a naming prefix: PL0142 after PL0141."""
    pattern = re.compile(rf"^{re.escape(prefix)}(\d+)$")
    taken = [
        int(m.group(1))
        for table in (dna_sequences, custom_entities)
        for row in db.find(table, table.c.entity_registry_id.like(f"{prefix}%"))
        if (m := pattern.match(row["entity_registry_id"]))
    ]
    return f"{prefix}{max(taken, default=0) + 1:04d}"


def next_display_id(db: Database) -> str:
    """The next entry display ID of this year: EXP25000124 after EXP25000123."""
    year = db.now().strftime("%y")
    numbers = [int(e["display_id"][5:]) for e in db.find(entries) if e["display_id"].startswith(f"EXP{year}")]
    return f"EXP{year}{max(numbers, default=0) + 1:06d}"


def clean_bases(bases: str) -> str:
    """Bases as stored: without whitespace, upper case (their type admits IUPAC nucleotide letters only)."""
    return "".join(bases.split()).upper()


def placed_annotations(annotations: list[Annotation], length: int, is_circular: bool) -> list[dict[str, Any]]:
    """Annotations that lie within a sequence of `length` bases (only circular ones may wrap past the end)."""
    features = []
    for feature in annotations:
        wraps = feature.end < feature.start
        if not (0 <= feature.start < length and 0 < feature.end <= length) or (wraps and not is_circular):
            raise InvalidRequest(
                f"Annotation '{feature.name}' ({feature.start}-{feature.end}) lies outside the {length} bp sequence."
            )
        features.append(feature.model_dump())
    return features


def registration(
    db: Database, registry: dict[str, Any], table: Any, row: dict[str, Any], naming_strategy: str
) -> dict[str, Any]:
    """The changes registering an entity makes: its registry ID (and, with DELETE_NAMES, its new name), after the
    registry's checks: not archived or registered, a schema of this registry with its required fields filled, a
    name not registered for the schema, a free registry ID."""
    if row["archive_reason"]:
        raise Conflict(f"'{row['name']}' is archived and can't be registered.")
    if row["entity_registry_id"]:
        raise Conflict(f"'{row['name']}' is already registered as {row['entity_registry_id']}.")
    schema = db.get(schemas, row["schema_id"]) if row["schema_id"] else None
    if schema is None or schema["registry_id"] != registry["id"]:
        raise InvalidRequest(f"'{row['name']}' needs a schema of the {registry['name']} before registering.")
    missing = missing_required(schema, row["fields"])
    if missing:
        raise InvalidRequest(f"'{row['name']}' is missing required field(s): {', '.join(missing)}.")
    twins = [r for r in db.find(table, schema_id=schema["id"], name=row["name"]) if r["entity_registry_id"]]
    if twins:
        raise Conflict(
            f"A {schema['name']} named '{row['name']}' is already registered as {twins[0]['entity_registry_id']}."
        )
    if naming_strategy in ("IDS_FROM_NAMES", "KEEP_NAMES"):
        number = row["name"]
        if db.find(dna_sequences, entity_registry_id=number) or db.find(custom_entities, entity_registry_id=number):
            raise Conflict(f"Registry ID {number} is already taken.")
    else:
        number = next_registry_id(db, schema["prefix"])
    changes = {"entity_registry_id": number, "registry_id": registry["id"]}
    if naming_strategy == "DELETE_NAMES":
        changes |= {"name": number, "aliases": [*row["aliases"], row["name"]]}
    return changes


# ---------------------------------------------------------------- storage grids


def grid(rows: int, columns: int) -> list[str]:
    """Positions of a box or plate in row-major order: A1, A2, ... B1, ..."""
    return [f"{chr(ord('A') + r)}{c + 1}" for r in range(rows) for c in range(columns)]


def storage(db: Database, storage_id: str) -> tuple[Any, dict[str, Any]]:
    """A location, box or plate by id, with its table."""
    table = STORAGE_TABLES.get(storage_id[:4])
    found = db.find(table, id=storage_id) if table is not None else []
    if not found:
        raise NotFound(f"Storage '{storage_id}' not found")
    return table, found[0]


def occupant(db: Database, storage_id: str, position: str) -> dict[str, Any] | None:
    """The container at a position of a box or plate."""
    found = db.find(containers, parent_storage_id=storage_id, position=position, archive_reason=None)
    return found[0] if found else None


def destination(db: Database, parent: str) -> tuple[str, str | None]:
    """Where a container goes: `loc_...`, or a box with a coordinate (`box_...:B4`), checked for room."""
    storage_id, _, position = parent.partition(":")
    table, place = storage(db, storage_id)
    if place["archive_reason"]:
        raise Conflict(f"'{place['name']}' is archived.")
    if table is plates:
        raise InvalidRequest("Tubes can't be moved into a plate; transfer into its wells instead.")
    if table is locations:
        if position:
            raise InvalidRequest("Locations have no grid positions; give the location id alone.")
        return storage_id, None
    schema = db.get(schemas, place["schema_id"], "Schema")
    position = position.upper()
    if not position:
        raise InvalidRequest(f"Give a position in '{place['name']}', e.g. {storage_id}:A1.")
    if position not in grid(schema["num_rows"], schema["num_columns"]):
        raise InvalidRequest(
            f"{position} is not a position of '{place['name']}' ({schema['num_rows']} x {schema['num_columns']})."
        )
    taken = occupant(db, storage_id, position)
    if taken:
        raise Conflict(f"Position {position} of '{place['name']}' is already occupied by '{taken['name']}'.")
    return storage_id, position


def position_key(row: dict[str, Any]) -> tuple[str, int, int, str]:
    """How containers sort: by storage, then row letter and column number (A2 before A10), then name."""
    position = row["position"] or ""
    row_index = ord(position[0]) if position else 0
    column = int(position[1:]) if position[1:].isdigit() else 0
    return row["parent_storage_id"] or "", row_index, column, row["name"]


# ---------------------------------------------------------------- quantities and contents


def dimension(units: str) -> str:
    """What a unit measures: volume or mass."""
    if units in VOLUME_UL:
        return "volume"
    if units in MASS_UG:
        return "mass"
    raise InvalidRequest(f"Unsupported units '{units}'.")


def convert(value: float, units: str, to: str) -> float:
    """A quantity in other units of the same dimension."""
    scale = VOLUME_UL if dimension(units) == "volume" else MASS_UG
    return value * scale[units] / scale[to]


def mixed(source: dict[str, Any], dest: dict[str, Any], moved: float, dest_amount: float) -> list[dict[str, Any]]:
    """Destination contents after `moved` (in destination units) arrives from `source`: liquid transfers dilute
    concentrations by volume; mass transfers only add the entities."""
    total = dest_amount + moved
    by_volume = dimension(dest["quantity_units"]) == "volume" and total > 0
    result: dict[str, dict[str, Any]] = {}
    for part, share in ((dest["contents"], dest_amount), (source["contents"], moved)):
        for content in part:
            entry = result.setdefault(content["entity_id"], {"entity_id": content["entity_id"], "concentration": None})
            conc = content["concentration"]
            if not by_volume or conc is None:
                continue
            prior = entry["concentration"] or {"value": 0.0, "units": conc["units"]}
            if prior["units"] != conc["units"]:
                raise Conflict(f"Can't mix {conc['units']} and {prior['units']} concentrations of the same entity.")
            prior["value"] = prior["value"] + conc["value"] * share / total
            entry["concentration"] = prior
    for entry in result.values():
        if entry["concentration"]:
            entry["concentration"]["value"] = round(entry["concentration"]["value"], 4)
    return list(result.values())


def request_changes(
    db: Database, user: dict[str, Any], request: dict[str, Any], changes: dict[str, Any], status: str | None
) -> dict[str, Any]:
    """`changes` plus a move to `status`, if the request's state machine allows it and the user may make it: only
    assignees schedule, start and complete; the requestor or an assignee cancels; scheduling needs a date."""
    if status is None or status == request["request_status"]:
        return changes
    current = request["request_status"]
    if status not in NEXT_STATUSES[current]:
        raise Conflict(f"Request {request['display_id']} can't go from {current} to {status}.")
    workers = changes.get("assignee_ids", request["assignee_ids"])
    allowed = [*workers, request["requestor_id"]] if status == "CANCELLED" else workers
    if user["id"] not in allowed:
        raise PermissionDenied(f"Only the assignees of {request['display_id']} can move it to {status}.")
    if status == "SCHEDULED" and not changes.get("scheduled_on", request["scheduled_on"]):
        raise InvalidRequest("Give scheduled_on to schedule a request.")
    return changes | {"request_status": status}


def schedule_date(db: Database, scheduled_on: str) -> str:
    """A request's scheduled date: a real calendar date, today or later."""
    day = parse_date(scheduled_on, "scheduled_on", example="2025-06-12")
    if day < db.now().date():
        raise InvalidRequest("scheduled_on can't be in the past.")
    return day.isoformat()


def transfer(
    source: dict[str, Any], dest: dict[str, Any], quantity: TransferQuantity
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The source's and destination's new quantity columns (and the destination's contents) after moving
    `quantity`: the source must hold enough and both must measure the same kind of quantity."""
    kind = dimension(quantity.units)
    if source["quantity_units"] is None or source["quantity_value"] <= 0:
        raise Conflict(f"Container '{source['name']}' is empty.")
    if dimension(source["quantity_units"]) != kind:
        raise InvalidRequest(
            f"'{source['name']}' is measured in {source['quantity_units']}; transfer a {kind} of the same kind."
        )
    taken = convert(quantity.value, quantity.units, source["quantity_units"])
    if taken > source["quantity_value"] + 1e-9:
        raise Conflict(
            f"Container '{source['name']}' only holds {source['quantity_value']:g} {source['quantity_units']}."
        )
    units = dest["quantity_units"] or source["quantity_units"]
    if dimension(units) != kind:
        raise InvalidRequest(f"'{dest['name']}' is measured in {units}; it can't receive a {kind}.")
    held = dest["quantity_value"] or 0.0
    moved = convert(quantity.value, quantity.units, units)
    contents = mixed(source, dest | {"quantity_units": units}, moved, held)
    return (
        {"quantity_value": round(source["quantity_value"] - taken, 6)},
        {"quantity_value": round(held + moved, 6), "quantity_units": units, "contents": contents},
    )


# ---------------------------------------------------------------- audit log


def audit(db: Database, user: dict[str, Any], object_id: str, action: str, changes: dict[str, Any]) -> None:
    """Record an event in the object's audit log."""
    db.insert(
        audit_events,
        id=db.new_id(audit_events, "aud_", width=8),
        object_id=object_id,
        action=action,
        user_id=user["id"],
        changes=changes,
        timestamp=db.now_iso(),
    )
