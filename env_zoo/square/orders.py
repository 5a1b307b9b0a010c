"""The Orders API's machinery: creating, searching, updating and paying orders."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from . import loyalty
from .catalog import priced_line
from .errors import bad_request
from .rules import (
    MIXED,
    active_location,
    check_version,
    fetch,
    fulfillments_done,
    is_paid,
    new_uid,
    next_fulfillment_state,
    open_order,
    order_total,
    square_id,
)
from .schema import customers, orders, payments


def create_order(
    db: Database,
    location_id: str,
    requested: list[Any],
    customer_id: str | None,
    pickup: Any,
    reference_id: str | None,
) -> dict[str, Any]:
    """A new OPEN order with priced lines and, for a pickup, a PROPOSED fulfillment."""
    active_location(db, location_id)
    buyer = fetch(db, customers, customer_id, "customer") if customer_id is not None else None
    lines = [priced_line(db, line, new_uid(db), location_id) for line in requested]
    fulfillments = []
    if pickup is not None:
        fulfillments.append(
            {
                "uid": new_uid(db),
                "type": "PICKUP",
                "state": "PROPOSED",
                "recipient": pickup.recipient_display_name or display_name(buyer),
                "pickup_at": pickup.pickup_at,
                "note": pickup.note,
            }
        )
    now = db.now_iso()
    return db.insert(
        orders,
        id=square_id(db, orders, 27, MIXED),
        location_id=location_id,
        customer_id=customer_id,
        reference_id=reference_id,
        source_name="Ember & Oak Assistant",
        state="OPEN",
        version=1,
        line_items=lines,
        discounts=[],
        fulfillments=fulfillments,
        tender_payment_ids=[],
        currency="USD",
        created_at=now,
        updated_at=now,
        closed_at=None,
    )


def display_name(customer: dict[str, Any] | None) -> str:
    """What a pickup shelf label shows for a customer: their name, else their company."""
    if customer is None:
        raise bad_request(
            "MISSING_REQUIRED_PARAMETER", "A pickup without a customer needs a recipient_display_name.", "pickup"
        )
    name = " ".join(filter(None, [customer["given_name"], customer["family_name"]]))
    return name or customer["company_name"] or customer["email_address"] or customer["phone_number"]


def find_orders(
    db: Database,
    location_ids: list[str],
    customer_ids: list[str] | None,
    states: list[str] | None,
    start: str | None,
    end: str | None,
) -> list[dict[str, Any]]:
    """Orders matching the filters, newest first."""
    where = [f"location_id IN ({', '.join('?' for _ in location_ids)})"]
    params: list[Any] = list(location_ids)
    if customer_ids:
        where.append(f"customer_id IN ({', '.join('?' for _ in customer_ids)})")
        params.extend(customer_ids)
    if states:
        where.append(f"state IN ({', '.join('?' for _ in states)})")
        params.extend(states)
    if start is not None:
        where.append("created_at >= ?")
        params.append(start)
    if end is not None:
        where.append("created_at < ?")
        params.append(end)
    return db.select(orders, " AND ".join(where), params, order_by="created_at DESC")


def _move_fulfillment(order: dict[str, Any], uid: str | None, state: str | None) -> list[dict[str, Any]]:
    if (uid is None) != (state is None):
        raise bad_request(
            "MISSING_REQUIRED_PARAMETER", "fulfillment_uid and fulfillment_state go together.", "fulfillment_state"
        )
    fulfillments = [dict(f) for f in order["fulfillments"]]
    if uid is None:
        return fulfillments
    target = next((f for f in fulfillments if f["uid"] == uid), None)
    if target is None:
        raise bad_request("NOT_FOUND", f"Order `{order['id']}` has no fulfillment `{uid}`.", "fulfillment_uid")
    target["state"] = next_fulfillment_state(target["state"], state or "", uid)
    return fulfillments


def update_order(
    db: Database,
    order_id: str,
    version: int,
    to_add: list[Any],
    to_remove: list[str],
    fulfillment_uid: str | None,
    fulfillment_state: str | None,
    state: str | None,
) -> dict[str, Any]:
    """The order after a sparse update at its current version."""
    order = fetch(db, orders, order_id, "order")
    open_order(order)
    check_version(order, version)
    if not (to_add or to_remove or fulfillment_uid or fulfillment_state or state):
        raise bad_request("BAD_REQUEST", "The update changes nothing.")
    lines = list(order["line_items"])
    if to_add or to_remove:
        if is_paid(order):
            raise bad_request("BAD_REQUEST", "Line items cannot change once payments are applied to the order.")
        known = {line["uid"] for line in lines}
        if missing := [uid for uid in to_remove if uid not in known]:
            raise bad_request("NOT_FOUND", f"Order `{order_id}` has no line item `{missing[0]}`.", "line_items")
        lines = [line for line in lines if line["uid"] not in to_remove]
        lines += [priced_line(db, line, new_uid(db), order["location_id"]) for line in to_add]
        if not lines:
            raise bad_request("BAD_REQUEST", "An order needs at least one line item.", "line_items")
    fulfillments = _move_fulfillment(order, fulfillment_uid, fulfillment_state)
    changes: dict[str, Any] = {"line_items": lines, "fulfillments": fulfillments}
    if state == "CANCELED":
        _check_cancelable(db, order)
        for fulfillment in fulfillments:
            if fulfillment["state"] not in ("COMPLETED", "CANCELED", "FAILED"):
                fulfillment["state"] = "CANCELED"
        loyalty.release_rewards(db, order_id)
        changes.update(state="CANCELED", discounts=[], closed_at=db.now_iso())
    elif is_paid(order) and fulfillments_done({"fulfillments": fulfillments}):
        changes.update(state="COMPLETED", closed_at=db.now_iso())
    return db.update(orders, order_id, **changes, version=order["version"] + 1, updated_at=db.now_iso())


def _check_cancelable(db: Database, order: dict[str, Any]) -> None:
    if is_paid(order):
        raise bad_request("BAD_REQUEST", "A paid order cannot be canceled: refund its payments instead.", "state")
    if db.find(payments, order_id=order["id"], status="APPROVED"):
        raise bad_request(
            "BAD_REQUEST", "The order has APPROVED payments: cancel them before canceling the order.", "state"
        )


def settle(db: Database, order: dict[str, Any], payment_ids: list[str]) -> dict[str, Any]:
    """Apply payments to an unpaid OPEN order: they must be its own, APPROVED or COMPLETED, and add up to its total."""
    open_order(order)
    if is_paid(order):
        raise bad_request("BAD_REQUEST", f"Order `{order['id']}` is already paid.", "order_id")
    paid = 0
    for payment_id in payment_ids:
        payment = fetch(db, payments, payment_id, "payment")
        if payment["order_id"] != order["id"]:
            raise bad_request(
                "INVALID_VALUE", f"Payment `{payment_id}` is not for order `{order['id']}`.", "payment_ids"
            )
        if payment["status"] not in ("APPROVED", "COMPLETED"):
            raise bad_request("INVALID_VALUE", f"Payment `{payment_id}` is {payment['status']}.", "payment_ids")
        paid += payment["amount"]
    total = order_total(order)
    if paid != total:
        raise bad_request(
            "INVALID_VALUE",
            f"The payments total {paid} but the order's total_money is {total}: they must be equal.",
            "payment_ids",
        )
    now = db.now_iso()
    for payment_id in payment_ids:
        if db.get(payments, payment_id)["status"] == "APPROVED":
            db.update(payments, payment_id, status="COMPLETED", delay_action=None, delayed_until=None, updated_at=now)
    loyalty.redeem_rewards(db, order["id"])
    done = fulfillments_done(order)
    return db.update(
        orders,
        order["id"],
        tender_payment_ids=sorted(payment_ids),  # a set: the order they are named in does not matter
        state="COMPLETED" if done else "OPEN",
        closed_at=now if done else None,
        version=order["version"] + 1,
        updated_at=now,
    )


def pay_order(db: Database, order_id: str, payment_ids: list[str], order_version: int | None) -> dict[str, Any]:
    """The order paid with `payment_ids`."""
    order = fetch(db, orders, order_id, "order")
    if order_version is not None:
        check_version(order, order_version)
    return settle(db, order, payment_ids)
