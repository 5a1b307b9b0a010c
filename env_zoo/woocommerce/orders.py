"""Orders: building one from line items (stock checked, the active price charged), pricing its coupons, and
refunds that never exceed what is left on the order or on a line, restocking what comes back."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .catalog import today
from .errors import refused
from .objects import OrderObject, order_object
from .pricing import active_price, apply_coupon, check_coupon, money, on_sale
from .rules import (
    MANUAL_GATEWAYS,
    add_note,
    buyer_key,
    change_status,
    fetch,
    move_stock,
    new_item_id,
    new_post_id,
    refunded_total,
)
from .schema import coupons, line_items, orders, products, refunds, variations

INVALID_LINE = "woocommerce_rest_invalid_product_id"
CANNOT_REFUND = "woocommerce_rest_cannot_create_order_refund"
SHIPPING = {"flat_rate": 795, "free_shipping": 0, "local_pickup": 0}
FREE_SHIPPING_FROM = 7500
GATEWAYS = {
    "stripe": "Credit card (Stripe)",
    "paypal": "PayPal",
    "bacs": "Direct bank transfer",
    "cod": "Cash on delivery",
}


def priced_line(db: Database, product_id: int, variation_id: int | None, quantity: int) -> dict[str, Any]:
    """A new line item at today's price, refusing what cannot be sold."""
    product = fetch(db, products, product_id, "woocommerce_rest_product_invalid_id")
    if product["status"] != "publish":
        raise refused(INVALID_LINE, f'Sorry, "{product["name"]}" cannot be purchased.')
    item, name = product, product["name"]
    if product["type"] == "variable":
        if variation_id is None:
            raise refused(INVALID_LINE, f'"{product["name"]}" is a variable product: choose one of its variations.')
        found = db.find(variations, id=variation_id, product_id=product_id)
        if not found:
            raise refused("woocommerce_rest_invalid_variation_id", "Invalid variation ID.")
        item = found[0]
        name = f"{product['name']} - {', '.join(a['option'] for a in item['attributes'])}"
    elif variation_id is not None:
        raise refused("woocommerce_rest_invalid_variation_id", f'"{product["name"]}" has no variations.')
    if item["stock_status"] == "outofstock":
        raise refused(INVALID_LINE, f'Sorry, "{name}" is not in stock. Please edit your cart and try again.')
    if item["manage_stock"] and item["backorders"] == "no" and quantity > (item["stock_quantity"] or 0):
        raise refused(
            INVALID_LINE,
            f'You cannot add that amount of "{name}" to the cart because there is not enough stock '
            f"({item['stock_quantity']} remaining).",
        )
    price = active_price(item, today(db))
    return {
        "product_id": product_id,
        "variation_id": variation_id,
        "name": name,
        "sku": item["sku"],
        "quantity": quantity,
        "price": price,
        "subtotal": price * quantity,
        "total": price * quantity,
        "on_sale": on_sale(item, today(db)),
    }


def discounted(db: Database, lines: list[dict[str, Any]], codes: list[str], buyer: str) -> list[dict[str, Any]]:
    """Apply the coupons to the lines in order; returns the coupon lines with their discounts."""
    applied = []
    for code in codes:
        found = db.find(coupons, code=code.lower(), status="publish")
        if not found:
            raise refused("woocommerce_rest_invalid_coupon", f'Coupon "{code.lower()}" does not exist!')
        check_coupon(found[0], [c.lower() for c in codes], lines, buyer, today(db))
        applied.append({"code": found[0]["code"], "discount": apply_coupon(found[0], lines)})
    return applied


def use_coupons(db: Database, coupon_lines: list[dict[str, Any]], buyer: str) -> None:
    """Count each coupon's use by this buyer."""
    for line in coupon_lines:
        coupon = db.find(coupons, code=line["code"])[0]
        db.update(coupons, coupon["id"], usage_count=coupon["usage_count"] + 1, used_by=[*coupon["used_by"], buyer])


def place_order(db: Database, request: dict[str, Any]) -> dict[str, Any]:
    """Create an order from a checked request; returns the stored order row."""
    if len({c.lower() for c in request["coupon_codes"]}) != len(request["coupon_codes"]):
        raise refused("woocommerce_rest_invalid_coupon", "Each coupon can be applied only once.")
    lines = [priced_line(db, i["product_id"], i["variation_id"], i["quantity"]) for i in request["line_items"]]
    order_stub = {"customer_id": request["customer_id"], "billing": request["billing"]}
    coupon_lines = discounted(db, lines, request["coupon_codes"], buyer_key(order_stub))
    goods = sum(line["total"] for line in lines)
    method = request["shipping_method"]
    if method == "free_shipping" and goods < FREE_SHIPPING_FROM:
        raise refused("woocommerce_rest_invalid_shipping_method", "Free shipping needs an order of $75.00 or more.")
    order_id = new_post_id(db)
    db.insert(
        orders,
        id=order_id,
        status="pending",
        customer_id=request["customer_id"],
        billing=request["billing"],
        payment_method=request["payment_method"],
        payment_method_title=GATEWAYS[request["payment_method"]],
        shipping_method=method,
        shipping_total=SHIPPING[method],
        discount_total=sum(c["discount"] for c in coupon_lines),
        total=goods + SHIPPING[method],
        coupon_lines=coupon_lines,
        customer_note=request["customer_note"],
        stock_reduced=False,
        date_created=db.now_iso(),
        date_paid=None,
        date_completed=None,
    )
    for line in lines:
        line.pop("on_sale")
        db.insert(line_items, id=new_item_id(db), order_id=order_id, **line)
    use_coupons(db, coupon_lines, buyer_key(order_stub))
    order = db.get(orders, order_id)
    if request["status"] != "pending":
        order = change_status(db, order, request["status"])
    return order


def refund_lines(
    db: Database, order: dict[str, Any], asked: list[dict[str, Any]], earlier: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Check the line items a refund names against what each line has left; returns them in cents."""
    lines = {line["id"]: line for line in db.find(line_items, order_id=order["id"])}
    parts = []
    for part in asked:
        line = lines.get(part["id"])
        if line is None:
            raise refused(CANNOT_REFUND, f"Line item {part['id']} is not part of order {order['id']}.")
        qty_done = sum(p["quantity"] for r in earlier for p in r["line_items"] if p["id"] == line["id"])
        cents_done = sum(p["refund_total"] for r in earlier for p in r["line_items"] if p["id"] == line["id"])
        if part["quantity"] > line["quantity"] - qty_done:
            raise refused(
                CANNOT_REFUND,
                f"Invalid quantity for line item {line['id']}: {line['quantity'] - qty_done} left to refund.",
            )
        refund_total = part["refund_total"]
        if refund_total > line["total"] - cents_done:
            raise refused(CANNOT_REFUND, "Invalid refund amount.")
        parts.append({"id": line["id"], "quantity": part["quantity"], "refund_total": refund_total})
    return parts


def refund_order(db: Database, order: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    """Refund part or all of an order; returns the refund row."""
    earlier = db.find(refunds, order_id=order["id"])
    parts = refund_lines(db, order, request["line_items"], earlier)
    amount = request["amount"] if request["amount"] is not None else sum(p["refund_total"] for p in parts)
    if amount <= 0:
        raise refused("woocommerce_rest_invalid_order_refund", "Refund amount must be greater than zero.")
    left = order["total"] - refunded_total(db, order["id"])
    if amount > left:
        raise refused(CANNOT_REFUND, "Invalid refund amount.")
    if request["api_refund"] and order["payment_method"] in MANUAL_GATEWAYS:
        raise refused(CANNOT_REFUND, "The payment gateway for this order does not support automatic refunds.")
    refund_id = new_post_id(db)
    db.insert(
        refunds,
        id=refund_id,
        order_id=order["id"],
        amount=amount,
        reason=request["reason"],
        refunded_payment=request["api_refund"],
        line_items=parts,
        date_created=db.now_iso(),
    )
    if request["api_restock"] and order["stock_reduced"]:
        lines = {line["id"]: line for line in db.find(line_items, order_id=order["id"])}
        for part in parts:
            if part["quantity"]:
                move_stock(db, order["id"], lines[part["id"]], part["quantity"])
    add_note(db, order["id"], f"Refunded {money(amount)}" + (f": {request['reason']}" if request["reason"] else "."))
    if amount == left:
        change_status(db, db.get(orders, order["id"]), "refunded")
    return db.get(refunds, refund_id)


def show_order(db: Database, row: dict[str, Any]) -> OrderObject:
    """An order row with its lines and refunds, as the API returns it."""
    return order_object(row, db.find(line_items, order_id=row["id"]), db.find(refunds, order_id=row["id"]))


def order_filter(status: str, customer: int | None, after: str | None, before: str | None) -> tuple[str, list[Any]]:
    """The SQL filter of an order listing."""
    clauses, params = [], []
    for clause, value in (
        ("status = ?", None if status == "any" else status),
        ("customer_id = ?", customer),
        ("date_created >= ?", after),
        ("date_created < ?", before),
    ):
        if value is not None:
            clauses.append(clause)
            params.append(value)
    return " AND ".join(clauses), params


def matches(order: dict[str, Any], search: str) -> bool:
    """Whether every word of `search` is in the order's number, billing name or email."""
    billing = order["billing"]
    text = f"{order['id']} {billing.get('first_name', '')} {billing.get('last_name', '')} {billing.get('email', '')}"
    return all(word in text.lower() for word in search.lower().split())
