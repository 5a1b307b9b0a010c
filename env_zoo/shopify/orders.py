"""An order's life: checkout turns a cart into an order, then cancellation (before anything ships), refunds and
returns move its money and stock. Per line item it keeps count of shipped, delivered, refunded and returned units;
the order's financial and fulfillment statuses follow from them."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, func, select

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from . import carts, rules
from .rules import GATEWAY, cents, money
from .schema import discount_codes, fulfillments, line_items, orders, products, refunds, returns, transactions, variants

REFUNDABLE = ("paid", "partially_refunded")


# ---------------------------------------------------------------- counts per line item


def line_counts(db: Database, order_id: str, items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per line item: fulfilled, delivered (and the last delivery), refunded units by restock type, returned."""
    counts = {
        item["id"]: {
            "fulfilled": 0,
            "delivered": 0,
            "last_delivery": None,
            "cancel": 0,
            "no_restock": 0,
            "return": 0,
            "returned": 0,
        }
        for item in items
    }
    for shipment in db.find(fulfillments, order_id=order_id, status="success"):
        for entry in shipment["line_items"]:
            c = counts[entry["line_item_id"]]
            c["fulfilled"] += entry["quantity"]
            if shipment["shipment_status"] == "delivered":
                c["delivered"] += entry["quantity"]
                c["last_delivery"] = max(filter(None, [c["last_delivery"], shipment["delivered_at"]]))
    for refund in db.find(refunds, order_id=order_id):
        for entry in refund["refund_line_items"]:
            counts[entry["line_item_id"]][entry["restock_type"]] += entry["quantity"]
    for ret in db.find(returns, order_id=order_id):
        for entry in ret["return_line_items"]:
            counts[entry["line_item_id"]]["returned"] += entry["quantity"]
    return counts


def unshipped(item: dict[str, Any], c: dict[str, Any]) -> int:
    """Units neither shipped nor cancelled."""
    return item["quantity"] - c["fulfilled"] - c["cancel"]


def refunded_units(c: dict[str, Any]) -> int:
    """Units refunded, whatever happened to them."""
    return c["cancel"] + c["no_restock"] + c["return"]


def returnable(c: dict[str, Any]) -> int:
    """Delivered units not yet refunded or returned (the return window aside)."""
    return max(c["delivered"] - c["no_restock"] - c["returned"], 0)


def line_refund(item: dict[str, Any], quantity: int) -> int:
    """Cents for `quantity` units of a line item: their price less their share of the order discount."""
    return cents(item["price"]) * quantity - rules.share(cents(item["total_discount"]), quantity, item["quantity"])


def paid_and_refunded(txns: list[dict[str, Any]]) -> tuple[int, int]:
    """Cents captured and cents refunded by an order's successful transactions."""
    paid = refunded = 0
    for txn in txns:
        if txn["status"] == "success" and txn["kind"] == "sale":
            paid += cents(txn["amount"])
        elif txn["status"] == "success" and txn["kind"] == "refund":
            refunded += cents(txn["amount"])
    return paid, refunded


def order_balance(db: Database, order_id: str) -> tuple[int, int]:
    """Cents captured and cents refunded on an order."""
    return paid_and_refunded(db.find(transactions, order_id=order_id))


def fulfillment_status(items: list[dict[str, Any]], counts: dict[str, dict[str, Any]]) -> str | None:
    """None before anything ships, partial while units wait to ship, fulfilled when none do."""
    shipped = sum(counts[item["id"]]["fulfilled"] for item in items)
    pending = sum(unshipped(item, counts[item["id"]]) for item in items)
    if not shipped:
        return None
    return "partial" if pending else "fulfilled"


def checked_lines(items: list[dict[str, Any]], requested: list[Any]) -> dict[str, dict[str, Any]]:
    """The order's line items by id, each requested one part of the order and named once."""
    by_id = {item["id"]: item for item in items}
    seen: set[str] = set()
    for entry in requested:
        if entry.line_item_id not in by_id:
            raise NotFound(f"Line item '{entry.line_item_id}' is not part of this order.")
        if entry.line_item_id in seen:
            raise InvalidRequest(f"Line item '{entry.line_item_id}' is listed twice.")
        seen.add(entry.line_item_id)
    return by_id


# ---------------------------------------------------------------- money movements


def _transaction(db: Database, order_id: str, kind: str, status: str, amount: int, details: Any) -> None:
    db.insert(
        transactions,
        id=db.new_id(transactions, "txn_"),
        order_id=order_id,
        kind=kind,
        status=status,
        amount=money(amount),
        gateway=GATEWAY,
        payment_details=details,
        processed_at=db.now_iso(),
    )


def record_refund(
    db: Database,
    order: dict[str, Any],
    amount: int,
    entries: list[dict[str, Any]],
    note: str,
    return_id: str | None = None,
) -> dict[str, Any]:
    """A refund and, for a non-zero amount, its refund transaction and the order's new financial status."""
    refund = db.insert(
        refunds,
        id=db.new_id(refunds, "ref_"),
        order_id=order["id"],
        return_id=return_id,
        note=note,
        amount=money(amount),
        refund_line_items=entries,
        created_at=db.now_iso(),
    )
    if amount > 0:
        txns = db.find(transactions, order_id=order["id"])
        sales = [t for t in txns if t["kind"] == "sale"]
        _transaction(db, order["id"], "refund", "success", amount, sales[0]["payment_details"] if sales else None)
        paid, refunded = paid_and_refunded(txns)
        status = "refunded" if refunded + amount >= paid else "partially_refunded"
        db.update(orders, order["id"], financial_status=status)
    return refund


# ---------------------------------------------------------------- checkout


def place_order(
    db: Database, customer: dict[str, Any], cart: dict[str, Any], given_address: dict[str, Any] | None, method: str
) -> tuple[dict[str, Any], bool]:
    """Turn the cart into an order paid with the saved card, shipped to `given_address` or the default one: take
    the stock, use up the discount code, delete the cart. Returns the order and whether its payment waits for 3-D
    Secure approval."""
    priced = carts.priced_lines(db, cart["id"])
    if not priced:
        raise Conflict("The cart is empty.")
    address = rules.shipping_address(customer, given_address)
    card = customer["payment_method"]
    if card is None:
        raise InvalidRequest("The shopper has no saved card to pay with.")
    for line, variant, product, _ in priced:
        if product["status"] != "active":
            raise Conflict(f"'{product['title']}' is no longer sold; remove it from the cart.")
        rules.check_stock(product, variant, line["quantity"])
    items_total = sum(p[3] for p in priced)
    code = rules.code_row(db, cart["discount_codes"][0]) if cart["discount_codes"] else None
    discount = 0
    if code is not None:
        problem = rules.code_problem(db, code, customer["id"], items_total)
        if problem is not None:
            raise Conflict(f"{problem} Remove the code or change the cart before checking out.")
        discount = rules.items_discount(code, items_total)
    subtotal = items_total - discount
    rate = rules.shipping_rate(method, subtotal)
    free_shipping = code is not None and code["value_type"] == "free_shipping"
    shipping = 0 if free_shipping else rate
    codes = []
    if code is not None:
        kind = "shipping" if free_shipping else code["value_type"]
        codes = [{"code": code["code"], "amount": money(rate if free_shipping else discount), "type": kind}]
        db.update(discount_codes, code["id"], usage_count=code["usage_count"] + 1)
    number = (db.conn.execute(select(func.max(orders.c.order_number))).scalar() or 1000) + 1
    pending = bool(card["three_d_secure"])
    total = subtotal + shipping
    order = db.insert(
        orders,
        id=db.new_id(orders, "ord_"),
        order_number=number,
        name=f"#{number}",
        customer_id=customer["id"],
        email=customer["email"],
        created_at=db.now_iso(),
        financial_status="pending" if pending else "paid",
        fulfillment_status=None,
        cancel_reason=None,
        cancelled_at=None,
        total_line_items_price=money(items_total),
        total_discounts=money(discount),
        subtotal_price=money(subtotal),
        total_shipping_price=money(shipping),
        total_price=money(total),
        discount_codes=codes,
        shipping_line=method.capitalize(),
        shipping_address=address,
    )
    items, stock, allocated = [], [], 0
    for index, (line, variant, product, line_total) in enumerate(priced):
        portion = discount - allocated if index == len(priced) - 1 else rules.share(discount, line_total, items_total)
        allocated += portion
        items.append(
            {
                "id": db.new_id(line_items, "li_", width=5),
                "order_id": order["id"],
                "variant_id": variant["id"],
                "product_id": product["id"],
                "title": product["title"],
                "variant_title": variant["title"],
                "sku": variant["sku"],
                "quantity": line["quantity"],
                "price": variant["price"],
                "total_discount": money(portion),
            }
        )
        stock.append({"variant": variant["id"], "left": variant["inventory_quantity"] - line["quantity"]})
    db.conn.execute(line_items.insert(), items)  # one statement for every line, however long the cart
    db.conn.execute(
        variants.update().where(variants.c.id == bindparam("variant")).values(inventory_quantity=bindparam("left")),
        stock,
    )
    details = {"credit_card_company": card["brand"], "credit_card_number": f"•••• {card['last_digits']}"}
    _transaction(db, order["id"], "sale", "pending" if pending else "success", total, details)
    carts.discard(db, cart)
    return order, pending


def approve_payment(db: Database, order: dict[str, Any]) -> dict[str, Any]:
    """The shopper passed 3-D Secure: the pending sale succeeds and the order is paid."""
    pending = db.find(transactions, order_id=order["id"], kind="sale", status="pending")
    if not pending or order["financial_status"] != "pending":
        raise Conflict(f"Order {order['name']} has no card payment waiting for approval.")
    db.update(transactions, pending[0]["id"], status="success", processed_at=db.now_iso())
    return db.update(orders, order["id"], financial_status="paid")


# ---------------------------------------------------------------- cancellation, refunds, returns


def cancel(db: Database, order: dict[str, Any], reason: str) -> dict[str, Any]:
    """Cancel an order before anything ships: restock every unit, refund what was paid, void a pending payment."""
    if order["cancel_reason"] is not None:
        raise Conflict(f"Order {order['name']} is already cancelled.")
    if db.find(fulfillments, order_id=order["id"], status="success"):
        raise Conflict(
            f"Order {order['name']} has already shipped ({order['fulfillment_status']}) and can't be cancelled; "
            "delivered items can be returned instead."
        )
    items = db.find(line_items, order_id=order["id"])
    counts = line_counts(db, order["id"], items)
    entries = []
    for item in items:
        units = unshipped(item, counts[item["id"]])
        rules.restock(db, item["variant_id"], units)
        if units:
            entries.append(
                {
                    "line_item_id": item["id"],
                    "quantity": units,
                    "restock_type": "cancel",
                    "subtotal": money(line_refund(item, units)),
                }
            )
    txns = db.find(transactions, order_id=order["id"])
    paid, refunded = paid_and_refunded(txns)
    if entries or paid > refunded:
        record_refund(db, order, paid - refunded, entries, "Order cancelled")
    pending = [t for t in txns if t["kind"] == "sale" and t["status"] == "pending"]
    if pending:
        _transaction(db, order["id"], "void", "success", cents(pending[0]["amount"]), pending[0]["payment_details"])
        db.update(orders, order["id"], financial_status="voided")
    return db.update(orders, order["id"], cancel_reason=reason, cancelled_at=db.now_iso())


def refund(
    db: Database, order: dict[str, Any], requested: list[Any] | None, amount: int | None, note: str
) -> dict[str, Any]:
    """Refund units the shopper keeps or that haven't shipped (those are cancelled and restocked), or an amount."""
    if order["financial_status"] not in REFUNDABLE:
        raise Conflict(
            f"Order {order['name']} has no captured payment to refund (financial status: {order['financial_status']})."
        )
    if not requested and amount is None:
        raise InvalidRequest("Give refund_line_items, an amount, or both.")
    paid, refunded = order_balance(db, order["id"])
    available = paid - refunded
    entries, computed = [], 0
    items = db.find(line_items, order_id=order["id"])
    counts = line_counts(db, order["id"], items)
    if requested:
        by_id = checked_lines(items, requested)
        for entry in requested:
            item, c = by_id[entry.line_item_id], counts[entry.line_item_id]
            left = item["quantity"] - refunded_units(c)
            if entry.quantity > left:
                name = f"{item['title']} - {item['variant_title']}"
                raise InvalidRequest(f"Only {left} of '{name}' can still be refunded.")
            cancelled = min(entry.quantity, unshipped(item, c))
            for restock_type, units in (("cancel", cancelled), ("no_restock", entry.quantity - cancelled)):
                if units:
                    entries.append(
                        {
                            "line_item_id": item["id"],
                            "quantity": units,
                            "restock_type": restock_type,
                            "subtotal": money(line_refund(item, units)),
                        }
                    )
                    c[restock_type] += units
            rules.restock(db, item["variant_id"], cancelled)
            computed += line_refund(item, entry.quantity)
    value = amount if amount is not None else min(computed, available)
    if value > available:
        raise InvalidRequest(
            f"Refund amount {money(value)} exceeds the {money(available)} that can still be "
            f"refunded on order {order['name']}."
        )
    if value <= 0:
        raise Conflict(f"Nothing is left to refund on order {order['name']}.")
    row = record_refund(db, order, value, entries, note)
    db.update(orders, order["id"], fulfillment_status=fulfillment_status(items, counts))
    return row


def process_return(db: Database, order: dict[str, Any], requested: list[Any]) -> dict[str, Any]:
    """Take delivered units back within 30 days of delivery (never final-sale ones): restock and refund them."""
    if order["cancel_reason"] is not None:
        raise Conflict(f"Order {order['name']} was cancelled; there is nothing to return.")
    if order["financial_status"] not in (*REFUNDABLE, "refunded"):
        raise Conflict(f"Order {order['name']} is not paid (financial status: {order['financial_status']}).")
    items = db.find(line_items, order_id=order["id"])
    by_id = checked_lines(items, requested)
    counts = line_counts(db, order["id"], items)
    now = db.now()
    entries, refund_entries, computed = [], [], 0
    for entry in requested:
        item, c = by_id[entry.line_item_id], counts[entry.line_item_id]
        name = f"{item['title']} - {item['variant_title']}"
        if rules.FINAL_SALE_TAG in db.get(products, item["product_id"])["tags"]:
            raise InvalidRequest(f"'{name}' was a final-sale item and can't be returned.")
        if not c["delivered"]:
            state = "shipped but not delivered yet" if c["fulfilled"] else "not shipped yet"
            raise Conflict(f"'{name}' is {state}; only delivered items can be returned.")
        closes = rules.return_window_closes(c["last_delivery"])
        if now > closes:
            raise InvalidRequest(f"The 30-day return window for '{name}' closed on {closes.date().isoformat()}.")
        if entry.quantity > returnable(c):
            raise InvalidRequest(f"Only {returnable(c)} of '{name}' can be returned.")
        entries.append({"line_item_id": item["id"], "quantity": entry.quantity, "return_reason": entry.return_reason})
        refund_entries.append(
            {
                "line_item_id": item["id"],
                "quantity": entry.quantity,
                "restock_type": "return",
                "subtotal": money(line_refund(item, entry.quantity)),
            }
        )
        rules.restock(db, item["variant_id"], entry.quantity)
        computed += line_refund(item, entry.quantity)
    number = len(db.find(returns, order_id=order["id"])) + 1
    ret = db.insert(
        returns,
        id=db.new_id(returns, "ret_"),
        order_id=order["id"],
        name=f"{order['name']}-R{number}",
        status="closed",
        return_line_items=entries,
        created_at=db.now_iso(),
    )
    paid, refunded = order_balance(db, order["id"])
    record_refund(db, order, min(computed, paid - refunded), refund_entries, f"Return {ret['name']}", ret["id"])
    return ret
