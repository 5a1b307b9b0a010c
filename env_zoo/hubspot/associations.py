"""Associations between HubSpot records (v4): every pair of associated records carries the unlabeled default type and
any labels on top of it ("Primary" company, "Decision maker", "Billing contact"). Pairs are stored in one direction;
a label may cap how many records one record carries it to, and a new Primary replaces the old one."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_

from envfactory_gym import Database, NotFound

from .errors import SINGULAR, missing, validation
from .schema import association_labels, associations, companies, contacts, deals, notes, tasks

TABLES = {"contacts": contacts, "companies": companies, "deals": deals, "tasks": tasks, "notes": notes}
STORED_DIRECTION = {
    ("contacts", "companies"),
    ("deals", "contacts"),
    ("deals", "companies"),
    ("tasks", "contacts"),
    ("tasks", "companies"),
    ("tasks", "deals"),
    ("notes", "contacts"),
    ("notes", "companies"),
    ("notes", "deals"),
}


def live_record(db: Database, object_type: str, object_id: str) -> dict[str, Any]:
    """A record that exists and is not archived (404 otherwise)."""
    rows = db.select(TABLES[object_type], "id = ? AND archived = 0", [object_id])
    if not rows:
        raise NotFound(missing(object_type, object_id))
    return rows[0]


def orient(a_type: str, a_id: str, b_type: str, b_id: str) -> tuple[str, str, str, str]:
    """The pair in its stored direction (400 for object pairs HubSpot cannot associate here)."""
    if (a_type, b_type) in STORED_DIRECTION:
        return a_type, a_id, b_type, b_id
    if (b_type, a_type) in STORED_DIRECTION:
        return b_type, b_id, a_type, a_id
    raise validation(f"Associations from {a_type} to {b_type} are not supported")


def types_for(db: Database, from_type: str, to_type: str) -> list[dict[str, Any]]:
    """The association types (unlabeled first, then labels) defined for a stored direction."""
    rows = db.select(association_labels, "from_type = ? AND to_type = ?", [from_type, to_type], order_by='"typeId"')
    return sorted(rows, key=lambda r: r["label"] is not None)


def label_type(db: Database, from_type: str, to_type: str, label: str) -> dict[str, Any]:
    """The association type with this label (case-insensitive) between the two object types."""
    rows = types_for(db, from_type, to_type)
    for row in rows:
        if row["label"] and row["label"].lower() == label.strip().lower():
            return row
    known = ", ".join(r["label"] for r in rows if r["label"])
    raise validation(f"No association label '{label.strip()}' between {from_type} and {to_type}. Labels: {known}")


def pair_rows(db: Database, f_type: str, f_id: str, t_type: str, t_id: str) -> list[dict[str, Any]]:
    """The stored association rows (one per type) of a pair."""
    return db.select(
        associations, "from_type = ? AND from_id = ? AND to_type = ? AND to_id = ?", [f_type, f_id, t_type, t_id]
    )


def remove_type(db: Database, f_type: str, f_id: str, t_type: str, t_id: str, type_id: int | None) -> None:
    """Delete one type of a pair's association, or all of them (type_id None)."""
    c = associations.c
    where = and_(c.from_type == f_type, c.from_id == f_id, c.to_type == t_type, c.to_id == t_id)
    if type_id is not None:
        where = and_(where, c.typeId == type_id)
    db.conn.execute(associations.delete().where(where))


def link(db: Database, f_type: str, f_id: str, t_type: str, t_id: str, type_id: int) -> None:
    """Store one association type of a pair."""
    key = f"{f_type}:{f_id}-{t_type}:{t_id}-{type_id}"
    db.insert(associations, id=key, from_type=f_type, from_id=f_id, to_type=t_type, to_id=t_id, typeId=type_id)


def associate(db: Database, f_type: str, f_id: str, t_type: str, t_id: str, label: str | None) -> list[str]:
    """Associate a stored-direction pair (idempotent), with a label if given; returns what changed besides."""
    unlabeled = types_for(db, f_type, t_type)[0]
    have = {r["typeId"] for r in pair_rows(db, f_type, f_id, t_type, t_id)}
    if unlabeled["typeId"] not in have:
        link(db, f_type, f_id, t_type, t_id, unlabeled["typeId"])
    if label is None:
        return []
    kind = label_type(db, f_type, t_type, label)
    if kind["typeId"] in have:
        return []
    notes_out: list[str] = []
    limit = kind["max_per_record"]
    if limit is not None:
        holders = db.select(
            associations,
            'from_type = ? AND from_id = ? AND to_type = ? AND "typeId" = ?',
            [f_type, f_id, t_type, kind["typeId"]],
        )
        if len(holders) >= limit and kind["label"].startswith("Primary"):
            for old in holders:
                remove_type(db, f_type, f_id, t_type, old["to_id"], kind["typeId"])
                notes_out.append(f"{SINGULAR[t_type]} {old['to_id']} is no longer {kind['label']}")
        elif len(holders) >= limit:
            raise validation(
                f"Association limit exceeded: {SINGULAR[f_type]} {f_id} already has {len(holders)} '{kind['label']}' "
                f"association(s) to {t_type} (limit {limit})"
            )
    link(db, f_type, f_id, t_type, t_id, kind["typeId"])
    return notes_out


def associated(db: Database, object_type: str, object_id: str, to_type: str) -> dict[str, list[int]]:
    """The live records of `to_type` associated with a record: their id -> association type ids."""
    f_type, f_id, t_type, _ = orient(object_type, object_id, to_type, "")
    if f_type == object_type:
        rows = db.select(associations, "from_type = ? AND from_id = ? AND to_type = ?", [f_type, f_id, t_type])
        pairs = [(r["to_id"], r["typeId"]) for r in rows]
    else:
        rows = db.select(associations, "from_type = ? AND to_type = ? AND to_id = ?", [f_type, t_type, object_id])
        pairs = [(r["from_id"], r["typeId"]) for r in rows]
    out: dict[str, list[int]] = {}
    for other, type_id in pairs:
        out.setdefault(other, []).append(type_id)
    if not out:
        return {}
    ids = sorted(out, key=int)
    live = db.select(TABLES[to_type], f"archived = 0 AND id IN ({', '.join('?' * len(ids))})", ids)
    keep = {r["id"] for r in live}
    return {i: sorted(out[i]) for i in ids if i in keep}
