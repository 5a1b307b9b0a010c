"""Lightspeed Retail's rules shared by the tools: who is signed in and what their role allows, money rounding,
what a sale costs (line discounts, the shop's tax on taxable lines), stock per shop (ItemShops), and the cash a
register should hold (its opening float plus the cash taken and less the cash refunded since it opened)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table

from envfactory_gym import Database

from .errors import bad_request, forbidden, not_found, unauthorized
from .schema import (
    employees,
    item_shops,
    items,
    payment_types,
    register_counts,
    registers,
    sale_lines,
    sale_payments,
    sales,
    sessions,
    shops,
)

#: What each role may do beyond looking things up (Manager may do everything).
ROLE_RIGHTS = {
    "Manager": {"sell", "register", "count", "reconcile", "transfer", "catalog"},
    "Sales": {"sell", "register"},
    "Inventory": {"count", "transfer"},
}
RIGHT_NAMES = {
    "sell": "ring up sales and returns",
    "register": "open or close registers",
    "count": "take inventory counts",
    "reconcile": "reconcile inventory counts",
    "transfer": "create, send or receive transfers",
    "catalog": "edit items",
}


def fetch(db: Database, table: Table, key: Any, entity: str) -> dict[str, Any]:
    """The row with this id, or Lightspeed's 404 naming the entity."""
    pk = list(table.primary_key.columns)[0].name
    found = db.find(table, **{pk: key})
    if not found:
        raise not_found(entity, key)
    return found[0]


def me(db: Database) -> dict[str, Any]:
    """The signed-in employee."""
    session = db.current_session(sessions, "401 Unauthorized: No employee is signed in.")
    return db.get(employees, session["employee_id"])


def require(db: Database, right: str) -> dict[str, Any]:
    """The signed-in employee, if their role allows `right`; else 403 naming the role."""
    employee = me(db)
    if right not in ROLE_RIGHTS[employee["role"]]:
        raise forbidden(f"Employee role {employee['role']} cannot {RIGHT_NAMES[right]}.")
    return employee


def authenticate(db: Database, employee_number: str, pin: str) -> dict[str, Any]:
    """Start a session for the employee with this number and PIN."""
    found = db.find(employees, employee_number=employee_number.strip(), archived=False)
    if not found or found[0]["pin"] != pin:
        raise unauthorized("Invalid employee number or PIN.")
    db.start_session(sessions, employee_id=found[0]["employee_id"])
    return found[0]


def scaled(amount: int, numerator: int, denominator: int) -> int:
    """amount * numerator / denominator rounded half away from zero (cents)."""
    value = abs(amount) * numerator
    result = (value + denominator // 2) // denominator
    return result if amount >= 0 else -result


def money(cents: int) -> str:
    """Cents as the API's decimal string, e.g. '12.50'."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def line_amounts(line: dict[str, Any]) -> tuple[int, int]:
    """A sale line's subtotal before discount and its discount (both signed like its quantity)."""
    gross = line["unit_price"] * line["unit_quantity"]
    return gross, scaled(gross, line["discount_percent"], 100)


def sale_totals(db: Database, sale: dict[str, Any]) -> dict[str, int]:
    """subtotal, discount, tax and total of a sale, and what its payments cover (balance: what is still owed). A
    return is taxed at the rate of the shop that made the original sale, wherever it is taken back."""
    taxed_at = sale["shop_id"]
    if sale["return_of_sale_id"] is not None:
        taxed_at = db.get(sales, sale["return_of_sale_id"])["shop_id"]
    shop = db.get(shops, taxed_at)
    subtotal = discount = taxable = 0
    for line in db.find(sale_lines, sale_id=sale["sale_id"]):
        gross, off = line_amounts(line)
        subtotal += gross
        discount += off
        if line["tax"]:
            taxable += gross - off
    tax = scaled(taxable, shop["tax_rate"], 100_000)
    total = subtotal - discount + tax
    paid = sum(p["amount"] for p in db.find(sale_payments, sale_id=sale["sale_id"]))
    return {"subtotal": subtotal, "discount": discount, "tax": tax, "total": total, "paid": paid}


def stock(db: Database, item_id: int, shop_id: int) -> dict[str, Any]:
    """The item's ItemShop record at a shop."""
    found = db.find(item_shops, item_id=item_id, shop_id=shop_id)
    if not found:
        raise not_found("ItemShop for item", f"{item_id} at shop {shop_id}")
    return found[0]


def add_stock(db: Database, item_id: int, shop_id: int, change: int) -> None:
    """Change the item's quantity on hand at a shop by `change` (may go below zero, as the POS allows)."""
    record = stock(db, item_id, shop_id)
    db.update(item_shops, record["item_shop_id"], qoh=record["qoh"] + change)


def sellable_item(db: Database, item_id: int) -> dict[str, Any]:
    """An item that can go on a sale, a count or a transfer (it exists and is not archived)."""
    item = fetch(db, items, item_id, "Item")
    if item["archived"]:
        raise bad_request(f"Item {item_id} ({item['description']}) is archived.")
    return item


def open_register(db: Database, register_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The register and its open RegisterCount; 400 when the register is closed."""
    register = fetch(db, registers, register_id, "Register")
    if register["open_register_count_id"] is None:
        raise bad_request(f"Register {register['name']} is closed. Open the register first.")
    return register, db.get(register_counts, register["open_register_count_id"])


def expected_cash(db: Database, count: dict[str, Any]) -> int:
    """The cash a register session should hold: the opening float plus its cash payments (refunds negative)."""
    cash_types = {p["payment_type_id"] for p in db.find(payment_types, type="cash")}
    taken = sum(
        p["amount"]
        for p in db.find(sale_payments, register_count_id=count["register_count_id"])
        if p["payment_type_id"] in cash_types
    )
    return count["opening_float"] + taken


#: Seeded ids of each table run contiguously from its base + 1; new records continue the run.
ID_BASES = {
    "sales": 40000,
    "sale_lines": 80000,
    "sale_payments": 60000,
    "register_counts": 300,
    "inventory_counts": 50,
    "inventory_count_items": 700,
    "transfers": 20,
    "customers": 100,
}


def next_key(db: Database, table: Table) -> int:
    """The next id of a table whose seeded ids run from its base (ID_BASES) + 1."""
    return ID_BASES[table.name] + db.next_number(f"key:{table.name}", table)
