"""Sales at the register: creating a sale on an open register (the customer's type discount on each line, line
discounts over 20% only for managers), completing it with payments that cover the total (only cash may exceed it:
the rest is change; a credit account within its limit), voiding an unfinished sale, returns of completed sales
(never more units than are left to return, refunded to a payment type of the sale or cash), and opening and
closing registers (no open sales left; a note when the count is off by more than $5.00)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import bad_request, conflict, forbidden
from .rules import (
    add_stock,
    expected_cash,
    fetch,
    money,
    next_key,
    open_register,
    require,
    sale_totals,
    sellable_item,
)
from .schema import (
    customer_types,
    customers,
    payment_types,
    register_counts,
    registers,
    sale_lines,
    sale_payments,
    sales,
)

MAX_DISCOUNT_WITHOUT_MANAGER = 20
VARIANCE_NEEDING_NOTE = 500  # cents


def open_sale(db: Database, sale_id: int) -> dict[str, Any]:
    """A sale still being rung up (not completed, not voided)."""
    sale = fetch(db, sales, sale_id, "Sale")
    if sale["voided"]:
        raise conflict(f"Sale {sale_id} is voided.")
    if sale["completed"]:
        raise conflict(f"Sale {sale_id} is completed and cannot be changed.")
    return sale


def _line_discount(db: Database, employee: dict[str, Any], sale: dict[str, Any], given: int | None) -> int:
    if given is None:
        if sale["customer_id"] is None:
            return 0
        customer = db.get(customers, sale["customer_id"])
        if customer["customer_type_id"] is None:
            return 0
        return int(db.get(customer_types, customer["customer_type_id"])["discount_percent"])
    if given > MAX_DISCOUNT_WITHOUT_MANAGER and employee["role"] != "Manager":
        raise forbidden(f"Discounts over {MAX_DISCOUNT_WITHOUT_MANAGER}% need a manager.")
    return given


def add_line(
    db: Database, employee: dict[str, Any], sale: dict[str, Any], item_id: int, quantity: int, discount: int | None
) -> dict[str, Any]:
    """Put units of an item on a sale at its default price."""
    item = sellable_item(db, item_id)
    return db.insert(
        sale_lines,
        sale_line_id=next_key(db, sale_lines),
        sale_id=sale["sale_id"],
        item_id=item_id,
        unit_quantity=quantity,
        unit_price=item["default_price"],
        discount_percent=_line_discount(db, employee, sale, discount),
        tax=item["tax"],
        parent_sale_line_id=None,
    )


def create(db: Database, register_id: int, customer_id: int | None, lines: list[dict[str, Any]]) -> dict[str, Any]:
    """A new sale on an open register, with its lines."""
    employee = require(db, "sell")
    register, _ = open_register(db, register_id)
    if customer_id is not None:
        customer = fetch(db, customers, customer_id, "Customer")
        if customer["archived"]:
            raise bad_request(f"Customer {customer_id} is archived.")
    sale_id = next_key(db, sales)
    sale = db.insert(
        sales,
        sale_id=sale_id,
        ticket_number=f"2200{sale_id:08d}",
        shop_id=register["shop_id"],
        register_id=register_id,
        employee_id=employee["employee_id"],
        customer_id=customer_id,
        completed=False,
        voided=False,
        return_of_sale_id=None,
        create_time=db.now_iso(),
        complete_time=None,
    )
    for line in lines:
        add_line(db, employee, sale, line["item_id"], line["quantity"], line.get("discount_percent"))
    return sale


def complete(db: Database, sale_id: int, payments: list[dict[str, Any]]) -> tuple[dict[str, Any], int]:
    """Pay and complete a sale: stock leaves the shop, a credit account is charged, change is worked out."""
    require(db, "sell")
    sale = open_sale(db, sale_id)
    _, count = open_register(db, sale["register_id"])
    if not db.find(sale_lines, sale_id=sale_id):
        raise bad_request(f"Sale {sale_id} has no lines.")
    total = sale_totals(db, sale)["total"]
    tendered = sum(p["amount"] for p in payments)
    if tendered < total:
        raise bad_request(f"Payments of {money(tendered)} do not cover the sale total of {money(total)}.")
    kinds = [fetch(db, payment_types, p["payment_type_id"], "PaymentType") for p in payments]
    change = due = tendered - total
    cash = sum(p["amount"] for p, kind in zip(payments, kinds) if kind["type"] == "cash")
    if change > cash:
        raise bad_request("Only cash payments can exceed the sale total.")
    for payment, kind in zip(payments, kinds):
        if kind["archived"]:
            raise bad_request(f"Payment type {kind['name']} is archived.")
        if kind["type"] == "credit account":
            _charge_account(db, sale, payment["amount"])
    for payment, kind in zip(payments, kinds):
        amount = payment["amount"]
        if kind["type"] == "cash" and change:
            taken = min(change, amount)
            amount, change = amount - taken, change - taken
        if amount:
            _record_payment(db, sale, kind["payment_type_id"], amount, count)
    for line in db.find(sale_lines, sale_id=sale_id):
        add_stock(db, line["item_id"], sale["shop_id"], -line["unit_quantity"])
    return db.update(sales, sale_id, completed=True, complete_time=db.now_iso()), due


def _charge_account(db: Database, sale: dict[str, Any], amount: int) -> None:
    if sale["customer_id"] is None:
        raise bad_request("A credit account payment needs a customer on the sale.")
    customer = db.get(customers, sale["customer_id"])
    if customer["credit_limit"] == 0:
        raise bad_request(f"Customer {customer['customer_id']} has no credit account.")
    available = customer["credit_limit"] - customer["credit_balance"]
    if amount > available:
        raise bad_request(f"Credit account limit exceeded: {money(available)} available.")
    db.update(customers, customer["customer_id"], credit_balance=customer["credit_balance"] + amount)


def _record_payment(db: Database, sale: dict[str, Any], type_id: int, amount: int, count: dict[str, Any]) -> None:
    db.insert(
        sale_payments,
        sale_payment_id=next_key(db, sale_payments),
        sale_id=sale["sale_id"],
        payment_type_id=type_id,
        amount=amount,
        register_id=count["register_id"],
        register_count_id=count["register_count_id"],
        create_time=db.now_iso(),
    )


def void(db: Database, sale_id: int) -> dict[str, Any]:
    """Void a sale that was never completed."""
    require(db, "sell")
    open_sale(db, sale_id)
    return db.update(sales, sale_id, voided=True)


def returned_units(db: Database, sale_line_id: int) -> int:
    """Units of a sale line already given back by returns."""
    return -sum(line["unit_quantity"] for line in db.find(sale_lines, parent_sale_line_id=sale_line_id))


def create_return(
    db: Database, sale_id: int, register_id: int, lines: list[dict[str, Any]], payment_type_id: int
) -> dict[str, Any]:
    """Return units of a completed sale at an open register: a completed return sale, stock back at the
    register's shop, the refund paid out (a credit account is credited)."""
    employee = require(db, "sell")
    original = fetch(db, sales, sale_id, "Sale")
    if not original["completed"] or original["voided"] or original["return_of_sale_id"] is not None:
        raise bad_request(f"Sale {sale_id} is not a completed sale that can be returned.")
    register, count = open_register(db, register_id)
    kind = fetch(db, payment_types, payment_type_id, "PaymentType")
    used = {p["payment_type_id"] for p in db.find(sale_payments, sale_id=sale_id)}
    if kind["type"] != "cash" and payment_type_id not in used:
        raise bad_request("Refunds go back to a payment type used on the sale, or cash.")
    return_id = next_key(db, sales)
    refund = db.insert(
        sales,
        sale_id=return_id,
        ticket_number=f"2200{return_id:08d}",
        shop_id=register["shop_id"],
        register_id=register_id,
        employee_id=employee["employee_id"],
        customer_id=original["customer_id"],
        completed=True,
        voided=False,
        return_of_sale_id=sale_id,
        create_time=db.now_iso(),
        complete_time=db.now_iso(),
    )
    for wanted in lines:
        line = fetch(db, sale_lines, wanted["sale_line_id"], "SaleLine")
        if line["sale_id"] != sale_id:
            raise bad_request(f"SaleLine {line['sale_line_id']} is not on sale {sale_id}.")
        left = line["unit_quantity"] - returned_units(db, line["sale_line_id"])
        if wanted["quantity"] > left:
            raise bad_request(f"Only {left} unit(s) of SaleLine {line['sale_line_id']} are left to return.")
        db.insert(
            sale_lines,
            sale_line_id=next_key(db, sale_lines),
            sale_id=return_id,
            item_id=line["item_id"],
            unit_quantity=-wanted["quantity"],
            unit_price=line["unit_price"],
            discount_percent=line["discount_percent"],
            tax=line["tax"],
            parent_sale_line_id=line["sale_line_id"],
        )
        add_stock(db, line["item_id"], register["shop_id"], wanted["quantity"])
    amount = sale_totals(db, refund)["total"]
    if kind["type"] == "credit account":
        customer = db.get(customers, original["customer_id"])
        db.update(customers, customer["customer_id"], credit_balance=customer["credit_balance"] + amount)
    _record_payment(db, refund, payment_type_id, amount, count)
    return refund


def open_session(db: Database, register_id: int, opening_float: int) -> dict[str, Any]:
    """Open a closed register with a counted float."""
    employee = require(db, "register")
    register = fetch(db, registers, register_id, "Register")
    if register["open_register_count_id"] is not None:
        raise conflict(f"Register {register['name']} is already open.")
    count_id = next_key(db, register_counts)
    db.insert(
        register_counts,
        register_count_id=count_id,
        register_id=register_id,
        open_time=db.now_iso(),
        open_employee_id=employee["employee_id"],
        opening_float=opening_float,
        close_time=None,
        close_employee_id=None,
        expected_cash=None,
        counted_cash=None,
        notes="",
    )
    return db.update(registers, register_id, open_register_count_id=count_id)


def close_session(db: Database, register_id: int, counted_cash: int, notes: str) -> dict[str, Any]:
    """Close an open register: no unfinished sales on it, the cash counted against what it should hold."""
    employee = require(db, "register")
    register, count = open_register(db, register_id)
    pending = db.find(sales, register_id=register_id, completed=False, voided=False)
    if pending:
        tickets = ", ".join(str(s["sale_id"]) for s in pending)
        raise conflict(f"Register {register['name']} has open sales ({tickets}); complete or void them first.")
    expected = expected_cash(db, count)
    if abs(counted_cash - expected) > VARIANCE_NEEDING_NOTE and not notes.strip():
        raise bad_request("A note is required when the counted cash is off by more than 5.00.")
    closed = db.update(
        register_counts,
        count["register_count_id"],
        close_time=db.now_iso(),
        close_employee_id=employee["employee_id"],
        expected_cash=expected,
        counted_cash=counted_cash,
        notes=notes,
    )
    db.update(registers, register_id, open_register_count_id=None)
    return closed
