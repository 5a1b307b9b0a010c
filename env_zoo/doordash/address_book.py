"""The consumer's saved addresses: new ones inside DoorDash's delivery area (geocoded to their ZIP code), no
duplicates of the same street and unit, one default (the first address saved, or the one chosen)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest

from .schema import addresses, zip_codes


def set_default(db: Database, consumer: dict[str, Any], address_id: str) -> None:
    """Make one address the consumer's default (and no other)."""
    for other in db.find(addresses, consumer_id=consumer["id"], is_default=True):
        db.update(addresses, other["id"], is_default=False)
    db.update(addresses, address_id, is_default=True)


def save(db: Database, consumer: dict[str, Any], zip_code: str, fields: dict[str, Any], make_default: bool) -> str:
    """Save a new address (street, subpremise, label, drop-off preferences in `fields`); its ID."""
    area = db.find(zip_codes, zip_code=zip_code)
    if not area:
        raise InvalidRequest(f"DoorDash doesn't deliver to {zip_code} yet.")
    saved = db.find(addresses, consumer_id=consumer["id"])
    for other in saved:
        same_unit = (other["subpremise"] or "").casefold() == (fields["subpremise"] or "").casefold()
        if other["street"].casefold() == fields["street"].casefold() and same_unit:
            raise Conflict(f"This address is already saved{' as ' + other['label'] if other['label'] else ''}.")
    zone = area[0]
    row = db.insert(
        addresses,
        id=db.new_uuid(addresses),
        consumer_id=consumer["id"],
        **fields,
        **{k: zone[k] for k in ("city", "state", "zip_code", "lat", "lng")},
        is_default=False,
        created_at=db.now_iso(),
    )
    if make_default or not saved:
        set_default(db, consumer, row["id"])
    return row["id"]
