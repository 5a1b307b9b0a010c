"""Orders after checkout: status changes (cancelling restocks), shipments of what is left to ship, and refunds
that need a quote's exact amount and never exceed what is left."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import unprocessable
from .rules import (
    STATUSES,
    UNPAID,
    cents,
    check_status_change,
    fetch,
    move_stock,
    refund_total,
    refunded,
    shipped_quantities,
)
from .schema import orders, refunds, shipments


def refund_items(order_id: int, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Refund items as stored (shipping amounts in cents), checked for the fields their type needs."""
    out: list[dict[str, Any]] = []
    for item in items:
        if item["item_type"] == "PRODUCT":
            if item["item_id"] is None or item["quantity"] is None:
                raise unprocessable("PRODUCT items need item_id and quantity.", "items")
            out.append({"item_type": "PRODUCT", "item_id": item["item_id"], "quantity": item["quantity"]})
        else:
            if item["amount"] is None:
                raise unprocessable("SHIPPING items need an amount.", "items")
            out.append({"item_type": "SHIPPING", "item_id": order_id, "amount": cents(item["amount"])})
    if not out:
        raise unprocessable("A refund needs at least one item.", "items")
    return out


def change_status(db: Database, order_id: int, status_id: int) -> dict[str, Any]:
    order = fetch(db, orders, order_id, "order")
    check_status_change(db, order, status_id)
    if status_id == 5:
        move_stock(db, order["products"], +1)
    return db.update(orders, order_id, status_id=status_id)


def ship(
    db: Database, order_id: int, items: list[dict[str, int]], tracking_number: str, provider: str
) -> dict[str, Any]:
    order = fetch(db, orders, order_id, "order")
    if order["status_id"] in UNPAID or order["status_id"] in (4, 5):
        raise unprocessable(f"Order {order_id} is {STATUSES[order['status_id']]} and cannot be shipped.", "order_id")
    shipped = shipped_quantities(db, order_id)
    lines = {p["id"]: p for p in order["products"]}
    asked: dict[int, int] = {}
    for item in items:
        if item["order_product_id"] not in lines:
            raise unprocessable(
                f"Order {order_id} has no product {item['order_product_id']}.", "items.order_product_id"
            )
        asked[item["order_product_id"]] = asked.get(item["order_product_id"], 0) + item["quantity"]
    for product_id, quantity in asked.items():
        left = lines[product_id]["quantity"] - shipped.get(product_id, 0)
        if quantity > left:
            raise unprocessable(
                f"Quantity to ship exceeds the {left} remaining for order product {product_id}.", "items.quantity"
            )
    shipment = db.insert(
        shipments,
        id=db.next_number("shipment", shipments),
        order_id=order_id,
        tracking_number=tracking_number,
        shipping_provider=provider,
        items=[{"order_product_id": k, "quantity": v} for k, v in asked.items()],
        date_created=db.now_iso(),
    )
    for product_id, quantity in asked.items():
        shipped[product_id] = shipped.get(product_id, 0) + quantity
    complete = all(shipped.get(p["id"], 0) >= p["quantity"] for p in order["products"])
    db.update(orders, order_id, status_id=2 if complete else 3)
    return shipment


def quote(db: Database, order_id: int, items: list[dict[str, Any]]) -> dict[str, Any]:
    order = fetch(db, orders, order_id, "order")
    amount = refund_total(db, order, items)
    return {
        "order_id": order_id,
        "total_refund_amount": round(amount / 100, 2),
        "total_refund_tax_amount": 0.0,
        "rounding": 0.0,
        "adjustment": 0.0,
        "tax_inclusive": True,
        "refund_methods": [
            [{"provider_id": "storecredit", "provider_description": "Store Credit", "amount": round(amount / 100, 2)}],
            [{"provider_id": "braintree", "provider_description": "Original card", "amount": round(amount / 100, 2)}],
        ],
    }


def refund(
    db: Database, order_id: int, items: list[dict[str, Any]], provider_id: str, amount: int, reason: str
) -> dict[str, Any]:
    order = fetch(db, orders, order_id, "order")
    total = refund_total(db, order, items)
    if amount != total:
        raise unprocessable(
            f"Payment amount ${amount / 100:.2f} does not match the refund total ${total / 100:.2f}; "
            "get a refund quote.",
            "payments.amount",
        )
    row = db.insert(
        refunds,
        id=db.next_number("refund", refunds),
        order_id=order_id,
        items=items,
        total_amount=total,
        reason=reason,
        created=db.now_iso(),
    )
    done_total = refunded(db, order_id)[0]
    db.update(orders, order_id, status_id=4 if done_total >= order["total"] else 14)
    return {
        **row,
        "payments": [
            {"provider_id": provider_id, "amount": round(total / 100, 2), "offline": provider_id == "storecredit"}
        ],
    }
