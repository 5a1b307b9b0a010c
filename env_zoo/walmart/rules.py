"""Walmart Marketplace business rules: the order line state machine (Created -> Acknowledged -> Shipped ->
Delivered, or Cancelled before shipping), inventory per ship node (available = input - reserved), tracking
numbers that match their carrier and may be corrected only within four hours of shipping, refunds only of shipped
lines and never more than was charged, promotional price windows (start more than four hours ahead, end after the
start and within 180 days, no overlap, at most ten per item, sale price under the comparison price, no cancelling
within four hours of the start), and retired items that take no new prices or promotions."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import parse_timestamp

from .schema import inventory, order_lines, promotions

PROMO_LEAD = timedelta(hours=4)
PROMO_MAX_SPAN = timedelta(days=180)
PROMO_MAX_PER_ITEM = 10
TRACKING_FIX_WINDOW = timedelta(hours=4)
TRACKING_PATTERNS = {
    "UPS": r"^1Z[0-9A-Z]{16}$",
    "USPS": r"^\d{20,22}$",
    "FedEx": r"^(\d{12}|\d{15})$",
    "OnTrac": r"^[CD]\d{14}$",
    "DHL": r"^\d{10}$",
    "LSO": r"^[A-Z0-9]{8,12}$",
}
OPEN_LINE = ("Created", "Acknowledged")


def moment(value: str) -> datetime:
    """A stored ISO UTC timestamp as a datetime."""
    return parse_timestamp(value, "timestamp")


def lines(db: Database, purchase_order_id: str) -> list[dict[str, Any]]:
    """The lines of a purchase order, by line number."""
    return db.find(order_lines, purchase_order_id=purchase_order_id, order_by=[order_lines.c.line_number])


def picked_lines(db: Database, purchase_order_id: str, numbers: list[int]) -> list[dict[str, Any]]:
    """The named lines of an order; an unknown line number is refused."""
    by_number = {line["line_number"]: line for line in lines(db, purchase_order_id)}
    missing = [n for n in numbers if n not in by_number]
    if missing:
        raise InvalidRequest(
            f"INVALID_REQUEST_CONTENT: lineNumber {missing[0]} does not exist on purchase order {purchase_order_id}."
        )
    if len(set(numbers)) != len(numbers):
        raise InvalidRequest("INVALID_REQUEST_CONTENT: a lineNumber is listed twice.")
    return [by_number[n] for n in numbers]


def line_total(line: dict[str, Any]) -> int:
    """What the customer was charged for a line (product and shipping, before tax), in cents."""
    return int(line["unit_price"] * line["quantity"] + line["shipping"])


def check_tracking(carrier: str, tracking_number: str) -> None:
    """A tracking number must have its carrier's shape."""
    if not re.match(TRACKING_PATTERNS[carrier], tracking_number):
        raise InvalidRequest(
            f"INVALID_REQUEST_CONTENT: trackingNumber '{tracking_number}' is not a valid {carrier} tracking number."
        )


def stock(db: Database, sku: str, node: str) -> dict[str, Any] | None:
    """The inventory row of a SKU at a ship node, if it is stocked there."""
    found = db.find(inventory, sku=sku, ship_node=node)
    return found[0] if found else None


def release(db: Database, line: dict[str, Any], shipped: bool) -> None:
    """Give back a line's reservation: shipped units leave the node; cancelled units become sellable again."""
    row = stock(db, line["sku"], line["ship_node"])
    if row is None:
        return
    reserved = max(0, row["reserved_qty"] - line["quantity"])
    on_hand = max(reserved, row["input_qty"] - line["quantity"]) if shipped else row["input_qty"]
    db.update(inventory, row["id"], reserved_qty=reserved, input_qty=on_hand)


def mark_out_of_stock(db: Database, line: dict[str, Any]) -> None:
    """SELLER_CANCEL_OUT_OF_STOCK: Walmart marks the SKU out of stock at that ship node (nothing left to sell)."""
    row = stock(db, line["sku"], line["ship_node"])
    if row is not None:
        db.update(inventory, row["id"], input_qty=row["reserved_qty"])


def check_refund(line: dict[str, Any], cents: int) -> None:
    """Only shipped (or delivered) lines are refunded, and never beyond what was charged."""
    if line["status"] not in ("Shipped", "Delivered"):
        raise Conflict(
            f"INVALID_REQUEST_CONTENT: line {line['line_number']} is {line['status']}; "
            "only Shipped lines can be refunded."
        )
    left = line_total(line) - line["refunded"]
    if cents > left:
        raise InvalidRequest(
            f"INVALID_REQUEST_CONTENT: refund amount exceeds the amount left on line {line['line_number']} "
            f"({left / 100:.2f} of {line_total(line) / 100:.2f} charged)."
        )


def promo_status(row: dict[str, Any], now: datetime) -> str:
    """SCHEDULED before its start, ACTIVE within its window, EXPIRED after it."""
    if now < moment(row["start_at"]):
        return "SCHEDULED"
    return "ACTIVE" if now < moment(row["end_at"]) else "EXPIRED"


def check_promotion(db: Database, sku: str, start: datetime, end: datetime, sale: int, comparison: int) -> None:
    """The promotional price rules Walmart publishes."""
    if start <= db.now() + PROMO_LEAD:
        raise InvalidRequest("INVALID_REQUEST_CONTENT: the promotion must start more than four hours from now.")
    if end <= start:
        raise InvalidRequest("INVALID_REQUEST_CONTENT: the promotion end date must be after its start date.")
    if end - start > PROMO_MAX_SPAN:
        raise InvalidRequest("INVALID_REQUEST_CONTENT: the promotion must end within 180 days of its start.")
    if sale >= comparison:
        raise InvalidRequest("INVALID_REQUEST_CONTENT: the promotional price must be lower than the comparison price.")
    existing = db.find(promotions, sku=sku)
    if len(existing) >= PROMO_MAX_PER_ITEM:
        raise Conflict("INVALID_REQUEST_CONTENT: an item can have at most 10 promotions.")
    for row in existing:
        if start < moment(row["end_at"]) and moment(row["start_at"]) < end:
            raise Conflict(
                f"INVALID_REQUEST_CONTENT: the promotion overlaps promotion {row['promo_id']} "
                f"({row['start_at']} to {row['end_at']}) on this SKU."
            )


def check_promo_cancel(db: Database, row: dict[str, Any]) -> None:
    """A promotion cannot be cancelled within four hours before its start."""
    start = moment(row["start_at"])
    if db.now() < start <= db.now() + PROMO_LEAD:
        raise Conflict(
            "INVALID_REQUEST_CONTENT: a promotion cannot be cancelled within four hours of its start; "
            "let it begin, then delete it."
        )


def check_active(item: dict[str, Any]) -> None:
    """Retired or archived items take no new prices or promotions."""
    if item["lifecycle_status"] != "ACTIVE":
        raise Conflict(
            f"INVALID_REQUEST_CONTENT: item {item['sku']} is {item['lifecycle_status']}; it cannot be repriced."
        )
