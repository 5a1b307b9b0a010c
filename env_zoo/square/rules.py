"""Square's business rules shared by the tools: ids, order arithmetic, which payments settle an order, how much of
a payment is left to refund, fulfillment transitions and how loyalty points accrue."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from sqlalchemy import Table

from envfactory_gym import Database
from envfactory_gym.values import iso_timestamp

from .errors import bad_request, conflict, not_found
from .schema import locations, loyalty_events, payments, refunds

UPPER = "ABCDEFGHJKMNPQRSTVWXYZ0123456789"
MIXED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#: How long a payment created with autocomplete=false stays APPROVED before its delay_action runs (card not present).
DEFAULT_DELAY = timedelta(days=7)
#: Fulfillment states in their order; CANCELED and FAILED end a fulfillment from any earlier state.
FULFILLMENT_FLOW = ("PROPOSED", "RESERVED", "PREPARED", "COMPLETED")
REFUND_HOLDING = ("PENDING", "COMPLETED")  # refunds that count against what is left to refund


def square_id(db: Database, table: Table, length: int, alphabet: str = UPPER, prefix: str = "") -> str:
    """A fresh, deterministic opaque id in Square's style, derived from a counter kept in the state."""
    pk = list(table.primary_key.columns)[0]
    while True:
        number = db.next_number(f"sqid:{table.name}")
        digest = int.from_bytes(hashlib.sha256(f"{table.name}:{number}".encode()).digest(), "big")
        chars = []
        for _ in range(length):
            digest, index = divmod(digest, len(alphabet))
            chars.append(alphabet[index])
        candidate = prefix + "".join(chars)
        if not db.find(table, **{pk.name: candidate}):
            return candidate


def fetch(db: Database, table: Table, object_id: str, entity: str) -> dict[str, Any]:
    """The row with this id, or Square's NOT_FOUND naming the entity."""
    found = db.find(table, id=object_id)
    if not found:
        raise not_found(entity, object_id)
    return found[0]


def active_location(db: Database, location_id: str) -> dict[str, Any]:
    """The location, which must exist and be ACTIVE to take orders, payments or loyalty activity."""
    location = fetch(db, locations, location_id, "location")
    if location["status"] != "ACTIVE":
        raise bad_request("INVALID_VALUE", f"Location `{location_id}` is not active.", "location_id")
    return location


def line_gross(line: dict[str, Any]) -> int:
    """A line item's gross sales: (base price + modifiers) x quantity."""
    unit = line["base_price_amount"] + sum(m["base_price_amount"] for m in line.get("modifiers", []))
    return unit * int(line["quantity"])


def order_gross(order: dict[str, Any]) -> int:
    """The order's gross sales before discounts."""
    return sum(line_gross(line) for line in order["line_items"])


def order_discount(order: dict[str, Any]) -> int:
    """The discounts applied, never more than the gross sales."""
    return min(order_gross(order), sum(d["amount"] for d in order["discounts"]))


def order_total(order: dict[str, Any]) -> int:
    """What the order costs: gross sales less discounts (this seller's items are tax-inclusive)."""
    return order_gross(order) - order_discount(order)


def is_paid(order: dict[str, Any]) -> bool:
    """Whether payments have been applied to the order (it then takes no further line-item changes)."""
    return bool(order["tender_payment_ids"])


def open_order(order: dict[str, Any]) -> None:
    """Only OPEN orders change."""
    if order["state"] != "OPEN":
        raise bad_request(
            "BAD_REQUEST", f"Order `{order['id']}` is {order['state']} and cannot be updated.", "order_id"
        )


def check_version(order: dict[str, Any], version: int) -> None:
    """Optimistic concurrency: the caller's version must be the order's latest."""
    if version != order["version"]:
        raise conflict(
            "VERSION_MISMATCH",
            f"The order version {version} does not match the server version {order['version']}.",
            "order.version",
        )


def committed_to_order(db: Database, order_id: str) -> int:
    """The amount of the order's APPROVED or COMPLETED payments (tips excluded)."""
    rows = db.select(payments, "order_id = ? AND status IN ('APPROVED', 'COMPLETED')", [order_id])
    return sum(row["amount"] for row in rows)


def fulfillments_done(order: dict[str, Any]) -> bool:
    """Every fulfillment finished (COMPLETED, CANCELED or FAILED)."""
    return all(f["state"] in ("COMPLETED", "CANCELED", "FAILED") for f in order["fulfillments"])


def next_fulfillment_state(current: str, wanted: str, uid: str) -> str:
    """A fulfillment moves forward along PROPOSED -> RESERVED -> PREPARED -> COMPLETED, or ends CANCELED/FAILED."""
    if current in ("COMPLETED", "CANCELED", "FAILED"):
        raise bad_request("INVALID_VALUE", f"Fulfillment `{uid}` is {current} and cannot change.", "state")
    if wanted in ("CANCELED", "FAILED"):
        return wanted
    if FULFILLMENT_FLOW.index(wanted) <= FULFILLMENT_FLOW.index(current):
        raise bad_request("INVALID_VALUE", f"Fulfillment `{uid}` cannot move from {current} to {wanted}.", "state")
    return wanted


def refunded_amount(db: Database, payment_id: str) -> int:
    """What PENDING and COMPLETED refunds already take from the payment."""
    rows = db.select(refunds, "payment_id = ? AND status IN ('PENDING', 'COMPLETED')", [payment_id])
    return sum(row["amount"] for row in rows)


def refundable(db: Database, payment: dict[str, Any]) -> int:
    """What is left to refund on a payment: its total (tip included) less refunds already made."""
    return payment["amount"] + payment["tip_amount"] - refunded_amount(db, payment["id"])


def delayed_until(db: Database) -> str:
    """When an APPROVED payment's delay_action runs."""
    return iso_timestamp(db.now() + DEFAULT_DELAY)


def points_for(amount: int, spend_amount: int) -> int:
    """Points earned by spending `amount` cents: one per full `spend_amount`."""
    return amount // spend_amount


def record_event(
    db: Database,
    account_id: str,
    kind: str,
    points: int,
    *,
    order_id: str | None = None,
    reward_id: str | None = None,
    location_id: str | None = None,
) -> None:
    """Append one loyalty event to the account's history."""
    db.insert(
        loyalty_events,
        id=db.new_uuid(loyalty_events),
        loyalty_account_id=account_id,
        type=kind,
        points=points,
        order_id=order_id,
        reward_id=reward_id,
        location_id=location_id,
        created_at=db.now_iso(),
    )


def new_uid(db: Database) -> str:
    """A fresh uid for a line item, discount or fulfillment inside an order (22 characters, as Square's)."""
    digest = int.from_bytes(hashlib.sha256(f"uid:{db.next_number('sqid:uid')}".encode()).digest(), "big")
    chars = []
    for _ in range(22):
        digest, index = divmod(digest, len(MIXED))
        chars.append(MIXED[index])
    return "".join(chars)
