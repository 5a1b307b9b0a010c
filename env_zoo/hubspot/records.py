"""Reading and writing CRM records: live records by id, property writes that go through HubSpot's validation
(owners, unique emails, forward-only lifecycle stages, deal stage rules), archiving, and merging contacts."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .associations import TABLES, associate, live_record, orient, pair_rows, remove_type
from .errors import missing, validation
from .objects import Record, record_object
from .rules import check_lifecycle, check_owner, check_stage_move, check_unique_email, next_id, stage_of
from .schema import association_labels, associations, contacts, stages

FIRST_ID = {"contacts": 30101, "companies": 18201, "deals": 92101, "tasks": 61001, "notes": 74001}
MODIFIED = {"contacts": "lastmodifieddate", "companies": "hs_lastmodifieddate", "deals": "hs_lastmodifieddate"}


def out(db: Database, object_type: str, row: dict[str, Any]) -> Record:
    """A row as the API returns it (deals with their stage's probability and closed flag)."""
    stage = db.get(stages, row["dealstage"]) if object_type == "deals" else None
    return record_object(object_type, row, stage)


def fetch(db: Database, object_type: str, record_id: str, id_property: str = "hs_object_id") -> dict[str, Any]:
    """A live record by id, or a contact by email (id_property="email")."""
    if id_property == "email":
        rows = db.select(contacts, "lower(email) = ? AND archived = 0", [record_id.strip().lower()])
        if not rows:
            raise NotFound(missing(object_type, record_id))
        return rows[0]
    return live_record(db, object_type, record_id)


def timestamp(value: str, name: str) -> str:
    """An ISO timestamp argument (a bare date means midnight UTC), normalised."""
    return iso_timestamp(parse_timestamp(value, name, dates=True))


def day(value: str) -> str:
    """A date as HubSpot stores date-time properties: midnight UTC."""
    return f"{value}T00:00:00Z"


def clean(values: dict[str, Any]) -> dict[str, Any]:
    """The properties given (None means "not given"; "" clears a value)."""
    return {k: (None if v == "" else v) for k, v in values.items() if v is not None}


def create(db: Database, object_type: str, values: dict[str, Any]) -> dict[str, Any]:
    """Validate and insert a new record."""
    props = clean(values)
    check_owner(db, props.get("hubspot_owner_id"))
    now = db.now_iso()
    row: dict[str, Any] = {"id": next_id(db, TABLES[object_type], FIRST_ID[object_type]), "archived": False, **props}
    if object_type == "contacts":
        check_unique_email(db, props.get("email"))
        row.update(createdate=now, lastmodifieddate=now)
    elif object_type in ("companies", "deals"):
        row.update(createdate=now, hs_lastmodifieddate=now)
    else:
        row["hs_createdate"] = now
    if object_type == "deals":
        stage = stage_of(db, row["pipeline"], row["dealstage"])
        check_stage_move(db, row, None)
        if stage["isClosed"] and not row.get("closedate"):
            row["closedate"] = day(now[:10])
    return db.insert(TABLES[object_type], **row)


def update(db: Database, object_type: str, record_id: str, values: dict[str, Any]) -> dict[str, Any]:
    """Validate and apply a property update (PATCH) to a live record."""
    current = live_record(db, object_type, record_id)
    changes = clean(values)
    changes.update({k: None for k, v in values.items() if v == ""})
    check_owner(db, changes.get("hubspot_owner_id"))
    if object_type == "contacts":
        check_unique_email(db, changes.get("email"), record_id)
    if "lifecyclestage" in changes:
        check_lifecycle(current["lifecyclestage"], changes["lifecyclestage"])
    if object_type == "deals":
        merged = {**current, **changes}
        if "pipeline" in changes and "dealstage" not in changes:
            raise validation("Changing a deal's pipeline needs a dealstage of the new pipeline")
        old = db.get(stages, current["dealstage"])
        check_stage_move(db, merged, old)
        entering = db.get(stages, merged["dealstage"])
        if entering["isClosed"] and not old["isClosed"] and "closedate" not in changes:
            changes["closedate"] = day(db.now_iso()[:10])
    if object_type in MODIFIED:
        changes[MODIFIED[object_type]] = db.now_iso()
    return db.update(TABLES[object_type], record_id, **changes)


def archive(db: Database, object_type: str, record_id: str) -> dict[str, Any]:
    """Archive (soft-delete) a live record."""
    live_record(db, object_type, record_id)
    return db.update(TABLES[object_type], record_id, archived=True)


def merge(db: Database, primary_id: str, other_id: str) -> tuple[dict[str, Any], int]:
    """Merge contact `other_id` into `primary_id`: the primary keeps its values and takes the other's where it has
    none, every association moves over (Primary labels the primary already has stay its own), and the merged
    contact is archived. Returns the primary and how many associations moved."""
    if primary_id == other_id:
        raise validation("A contact cannot be merged with itself")
    primary, other = live_record(db, "contacts", primary_id), live_record(db, "contacts", other_id)
    fill = {k: v for k, v in other.items() if k in ("firstname", "lastname", "phone", "jobtitle", "hs_lead_status")}
    fill = {k: v for k, v in fill.items() if v and not primary.get(k)}
    moved = 0
    for row in db.select(
        associations,
        "(from_type = 'contacts' AND from_id = ?) OR (to_type = 'contacts' AND to_id = ?)",
        [other_id, other_id],
    ):
        mine = row["from_id"] == other_id and row["from_type"] == "contacts"
        other_type, other_rec = (row["to_type"], row["to_id"]) if mine else (row["from_type"], row["from_id"])
        f_type, f_id, t_type, t_id = orient("contacts", primary_id, other_type, other_rec)
        label = next(r["label"] for r in db.select(association_labels, '"typeId" = ?', [row["typeId"]]))
        remove_type(db, row["from_type"], row["from_id"], row["to_type"], row["to_id"], row["typeId"])
        if label and label.startswith("Primary") and f_type == "contacts":
            if db.select(
                associations,
                'from_type = ? AND from_id = ? AND to_type = ? AND "typeId" = ?',
                [f_type, f_id, t_type, row["typeId"]],
            ):
                label = None
        if not pair_rows(db, f_type, f_id, t_type, t_id) or label:
            moved += 1
        associate(db, f_type, f_id, t_type, t_id, label)
    if other["email"] and not primary["email"]:
        fill["email"] = other["email"]
    db.update(contacts, other_id, archived=True, merged_into=primary_id)
    kept = db.update(contacts, primary_id, lastmodifieddate=db.now_iso(), **fill)
    return kept, moved
