"""The customer's saved addresses: no duplicate street, apartment and ZIP; one default (the first address saved, or
the one chosen); the default and addresses an upcoming order delivers to stay."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database

from .access import own_address
from .rules import ACTIVE_STATUSES
from .schema import addresses, orders


def save(db: Database, user: dict[str, Any], fields: dict[str, Any], make_default: bool) -> dict[str, Any]:
    """Save an address (street, apartment, city, state, postal_code, label, delivery_instructions in `fields`)."""
    saved = db.find(addresses, user_id=user["id"])
    wanted = (fields["street"].casefold(), (fields["apartment"] or "").casefold(), fields["postal_code"])
    for row in saved:
        if (row["street"].casefold(), (row["apartment"] or "").casefold(), row["postal_code"]) == wanted:
            raise Conflict(f"This address is already saved as '{row['label'] or row['street']}'.")
    default = make_default or not saved
    if default:
        for row in saved:
            db.update(addresses, row["id"], is_default=False)
    return db.insert(
        addresses,
        id=db.new_id(addresses, "addr_"),
        user_id=user["id"],
        **fields,
        is_default=default,
        created_at=db.now_iso(),
    )


def delete(db: Database, user: dict[str, Any], address_id: str) -> dict[str, Any]:
    """Delete a saved address that is neither the default nor an upcoming order's destination."""
    address = own_address(db, user, address_id)
    if address["is_default"]:
        raise Conflict("This is your default address; make another address your default first.")
    upcoming = [o for o in db.find(orders, user_id=user["id"], address_id=address_id) if o["status"] in ACTIVE_STATUSES]
    if upcoming:
        raise Conflict(f"Order {upcoming[0]['id']} is being delivered to this address; it can't be deleted yet.")
    return db.delete(addresses, address_id)
