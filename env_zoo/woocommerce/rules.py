"""WooCommerce's order rules shared by the tools: fresh ids, fetching by id, stock levels and stock status, what a
status change does (stock reduced when an order is paid or put on hold, restored when it is cancelled; coupon use
given back; a full refund when set to refunded) and what is left to refund."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table

from envfactory_gym import Database

from .errors import invalid_id
from .schema import coupons, line_items, order_notes, orders, products, refunds, variations

#: Seeded ids stay below these; new posts (products, orders, refunds, coupons), line items and notes count on.
POST_BASE, ITEM_BASE, NOTE_BASE = 9000, 30000, 60000
STATUS_NAMES = {
    "pending": "Pending payment",
    "processing": "Processing",
    "on-hold": "On hold",
    "completed": "Completed",
    "cancelled": "Cancelled",
    "refunded": "Refunded",
    "failed": "Failed",
}
HOLDS_STOCK = ("processing", "on-hold", "completed")
PAID = ("processing", "completed")
MANUAL_GATEWAYS = ("bacs", "cod")


def new_post_id(db: Database) -> int:
    """The next id of WooCommerce's shared post sequence."""
    return POST_BASE + db.next_number("wp_posts")


def new_item_id(db: Database) -> int:
    """The next order item id."""
    return ITEM_BASE + db.next_number("order_items")


def fetch(db: Database, table: Table, object_id: int, code: str) -> dict[str, Any]:
    """The row with this id, or WooCommerce's `<code>: Invalid ID.`."""
    found = db.find(table, id=object_id)
    if not found:
        raise invalid_id(code)
    return found[0]


def stock_status_for(item: dict[str, Any], quantity: int) -> str:
    """The stock status a managed item takes at this quantity."""
    if quantity > 0:
        return "instock"
    return "outofstock" if item["backorders"] == "no" else "onbackorder"


def add_note(db: Database, order_id: int, note: str, customer_note: bool = False, author: str = "system") -> int:
    """Add a note to an order; returns its id."""
    note_id = NOTE_BASE + db.next_number("order_notes")
    db.insert(
        order_notes,
        id=note_id,
        order_id=order_id,
        note=note,
        customer_note=customer_note,
        author=author,
        date_created=db.now_iso(),
    )
    return note_id


def stocked_item(db: Database, line: dict[str, Any]) -> tuple[Table, dict[str, Any]]:
    """The variation or product whose stock a line item moves."""
    if line["variation_id"] is not None:
        return variations, db.get(variations, line["variation_id"])
    return products, db.get(products, line["product_id"])


def move_stock(db: Database, order_id: int, line: dict[str, Any], change: int) -> None:
    """Change a managed item's stock by `change` units, noting it on the order as WooCommerce does."""
    table, item = stocked_item(db, line)
    if not item["manage_stock"]:
        return
    before = item["stock_quantity"] or 0
    after = before + change
    db.update(table, item["id"], stock_quantity=after, stock_status=stock_status_for(item, after))
    verb = "increased" if change > 0 else "reduced"
    add_note(db, order_id, f"Item #{item['id']} stock {verb} from {before} to {after}.")


def set_stock_reduced(db: Database, order: dict[str, Any], reduced: bool) -> None:
    """Reduce (or restore) the stock of every line of an order once."""
    if order["stock_reduced"] == reduced:
        return
    for line in db.find(line_items, order_id=order["id"]):
        move_stock(db, order["id"], line, -line["quantity"] if reduced else line["quantity"])
        product = db.get(products, line["product_id"])
        sold = product["total_sales"] + (line["quantity"] if reduced else -line["quantity"])
        db.update(products, product["id"], total_sales=max(sold, 0))
    db.update(orders, order["id"], stock_reduced=reduced)


def buyer_key(order: dict[str, Any]) -> str:
    """Who used a coupon: the customer id, or a guest's billing email."""
    return str(order["customer_id"]) if order["customer_id"] else order["billing"]["email"]


def release_coupons(db: Database, order: dict[str, Any]) -> None:
    """Give back the coupon uses of an order that is cancelled."""
    for line in order["coupon_lines"]:
        found = db.find(coupons, code=line["code"])
        if found:
            coupon = found[0]
            used_by = list(coupon["used_by"])
            if buyer_key(order) in used_by:
                used_by.remove(buyer_key(order))
            db.update(coupons, coupon["id"], usage_count=max(coupon["usage_count"] - 1, 0), used_by=used_by)


def refunded_total(db: Database, order_id: int) -> int:
    """What has been refunded on an order so far."""
    return sum(refund["amount"] for refund in db.find(refunds, order_id=order_id))


def change_status(db: Database, order: dict[str, Any], status: str) -> dict[str, Any]:
    """Move an order to `status` with WooCommerce's side effects, and note the change."""
    old = order["status"]
    if old == status:
        return order
    changes: dict[str, Any] = {"status": status}
    if status in PAID and order["date_paid"] is None:
        changes["date_paid"] = db.now_iso()
    if status == "completed":
        changes["date_completed"] = db.now_iso()
    db.update(orders, order["id"], **changes)
    if status in HOLDS_STOCK:
        set_stock_reduced(db, order, True)
    elif status in ("cancelled", "pending"):
        set_stock_reduced(db, db.get(orders, order["id"]), False)
    if status == "cancelled":
        release_coupons(db, order)
    if status == "refunded":
        left = order["total"] - refunded_total(db, order["id"])
        if left > 0:
            db.insert(
                refunds,
                id=new_post_id(db),
                order_id=order["id"],
                amount=left,
                reason="Order status set to refunded",
                refunded_payment=False,
                line_items=[],
                date_created=db.now_iso(),
            )
    add_note(db, order["id"], f"Order status changed from {STATUS_NAMES[old]} to {STATUS_NAMES[status]}.")
    return db.get(orders, order["id"])
