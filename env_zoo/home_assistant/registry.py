"""Registry look-ups the tools share: an entity's effective area (its own, else its device's) and the state objects
of entities, filtered by domain, area and state in SQL."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import registry_missing
from .objects import State, state_object
from .schema import areas, devices, entities


def device_areas(db: Database, device_ids: set[str]) -> dict[str, str | None]:
    """device id -> area id, for these devices only."""
    if not device_ids:
        return {}
    rows = db.select(devices, f"id IN ({', '.join('?' * len(device_ids))})", sorted(device_ids))
    return {d["id"]: d["area_id"] for d in rows}


def area_of(db: Database, row: dict[str, Any]) -> str | None:
    """An entity's area: its own override, else its device's."""
    if row["area_id"] is not None or row["device_id"] is None:
        return row["area_id"]
    return db.get(devices, row["device_id"], "Device")["area_id"]


def states(db: Database, rows: list[dict[str, Any]]) -> list[State]:
    """Entity rows as state objects."""
    by_device = device_areas(db, {r["device_id"] for r in rows if r["area_id"] is None and r["device_id"]})
    return [state_object(r, r["area_id"] or by_device.get(r["device_id"])) for r in rows]


def check_area(db: Database, area_id: str) -> dict[str, Any]:
    """An area by id."""
    return db.find_one(areas, area_id=area_id, not_found=registry_missing("Area", area_id))


def in_area(db: Database, area_id: str) -> list[dict[str, Any]]:
    """The entities in an area, directly or through their device."""
    check_area(db, area_id)
    device_ids = [d["id"] for d in db.find(devices, area_id=area_id)]
    marks = ", ".join("?" * len(device_ids))
    where = "area_id = ?" + (f" OR (area_id IS NULL AND device_id IN ({marks}))" if device_ids else "")
    return db.select(entities, where, [area_id, *device_ids])


def names_of(db: Database, entity_ids: set[str]) -> dict[str, str]:
    """entity_id -> friendly name, in one query."""
    if not entity_ids:
        return {}
    rows = db.select(entities, f"entity_id IN ({', '.join('?' * len(entity_ids))})", sorted(entity_ids))
    return {r["entity_id"]: r["name"] for r in rows}


def entities_by_device(db: Database, device_ids: list[str]) -> dict[str, list[str]]:
    """device id -> the entity_ids it provides, in one query."""
    found: dict[str, list[str]] = {d: [] for d in device_ids}
    if device_ids:
        marks = ", ".join("?" * len(device_ids))
        for row in db.select(entities, f"device_id IN ({marks})", device_ids):
            found[row["device_id"]].append(row["entity_id"])
    return found
