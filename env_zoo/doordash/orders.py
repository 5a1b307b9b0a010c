"""What happens to a placed order: cancellation with its fee and refunds, Drive-style delivery updates (tip and
drop-off instructions, the card charged or refunded the difference), missing or incorrect items made good in credits
or a card refund, and the Dasher's ID check for alcohol."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .rules import (
    alcohol_problem,
    cancel_problem,
    cancellation,
    delivery_update_problem,
    dollars,
    support_problem,
)
from .schema import consumers, order_issues, order_items, orders, stores


def cancel(db: Database, consumer: dict[str, Any], order: dict[str, Any], accept_fee: bool) -> dict[str, Any]:
    """Cancel an order: free until the store confirms it, then only with the consumer's consent to the fee."""
    problem = cancel_problem(order)
    if problem:
        raise problem
    fee, card, credits = cancellation(order)
    if fee and not accept_fee:
        raise Conflict(
            f"{db.get(stores, order['store_id'])['name']} has already confirmed this order; cancelling "
            f"now costs {dollars(fee)}. Cancel with accept_cancellation_fee if the consumer agrees."
        )
    db.update(consumers, consumer["id"], credits_balance=consumer["credits_balance"] + credits)
    return db.update(
        orders,
        order["id"],
        status="cancelled",
        cancellation_fee=fee,
        refunded_amount=card,
        refunded_credits=credits,
        cancelled_at=db.now_iso(),
    )


def update_delivery(db: Database, order: dict[str, Any], tip: int | None, instructions: str | None) -> dict[str, Any]:
    """Change a delivery's tip (the card pays or gets back the difference) or drop-off instructions."""
    problem = delivery_update_problem(order, tip, instructions, db.now())
    if problem:
        raise problem
    changes: dict[str, Any] = {}
    if instructions is not None:
        changes["dropoff_instructions"] = instructions.strip()
    if tip is not None:
        delta = tip - order["tip"]
        changes.update(tip=tip, total=order["total"] + delta, amount_charged=order["amount_charged"] + delta)
    return db.update(orders, order["id"], **changes)


def report_issue(
    db: Database,
    consumer: dict[str, Any],
    order: dict[str, Any],
    order_item_id: str,
    issue_type: str,
    quantity: int,
    resolution: str,
) -> dict[str, Any]:
    """Make good `quantity` of an order item that was missing or wrong: its price in credits at once, or back to
    the card (at most what the card paid and has not had back)."""
    problem = support_problem(order, db.now())
    if problem:
        raise problem
    line = db.find(order_items, id=order_item_id, order_id=order["id"])
    if not line:
        raise NotFound(f"Order item '{order_item_id}' not found in this order")
    item = line[0]
    reported = sum(i["quantity"] for i in db.find(order_issues, order_item_id=order_item_id))
    if reported + quantity > item["quantity"]:
        raise Conflict(f"{item['name']}: {item['quantity']} ordered and {reported} already reported.")
    amount = item["unit_price"] * quantity
    if resolution == "refund":
        left = order["amount_charged"] - order["refunded_amount"]
        if amount > left:
            raise InvalidRequest(f"Only {dollars(left)} of this order can go back to your card; choose credits.")
        db.update(orders, order["id"], refunded_amount=order["refunded_amount"] + amount)
    else:
        db.update(orders, order["id"], refunded_credits=order["refunded_credits"] + amount)
        db.update(consumers, consumer["id"], credits_balance=consumer["credits_balance"] + amount)
    return db.insert(
        order_issues,
        id=db.new_uuid(order_issues),
        order_id=order["id"],
        order_item_id=order_item_id,
        issue_type=issue_type,
        quantity=quantity,
        resolution=resolution,
        amount=amount,
        created_at=db.now_iso(),
    )


def hand_over_with_id(db: Database, consumer: dict[str, Any]) -> dict[str, Any]:
    """The Dasher waiting at the door checks the consumer's ID (21+) and completes the alcohol delivery."""
    waiting = db.find(orders, consumer_id=consumer["id"], status="picked_up", contains_alcohol=True, id_verified=False)
    if not waiting:
        raise NotFound("No Dasher is waiting to check your ID.")
    problem = alcohol_problem(consumer, db.now())
    if problem:
        raise problem
    return db.update(orders, waiting[0]["id"], status="delivered", id_verified=True, delivered_at=db.now_iso())
