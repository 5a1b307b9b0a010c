"""Looking up a company's own records (with QuickBooks' not-found and inactive faults), numbering documents,
writing item lines, and applying payments to invoices and credit memos or taking them back."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .rules import business_error, cents, inactive, not_found
from .schema import accounts, customers, items, payment_lines, sales_forms, sales_lines, vendors


def own(db: Database, table: Any, realm_id: str, key: str, entity: str) -> dict[str, Any]:
    """A row of this company; error 610 when the company has none with this Id."""
    found = db.find(table, id=key, realm_id=realm_id)
    if not found:
        raise not_found(entity, key)
    return found[0]


def active(db: Database, table: Any, realm_id: str, key: str, element: str) -> dict[str, Any]:
    """A referenced customer, vendor, item or account: it must exist and be active (error 610 otherwise)."""
    found = db.find(table, id=key, realm_id=realm_id)
    if not found or not found[0]["active"]:
        raise inactive(element)
    return found[0]


def customer(db: Database, realm_id: str, key: str) -> dict[str, Any]:
    return active(db, customers, realm_id, key, "CustomerRef")


def vendor(db: Database, realm_id: str, key: str) -> dict[str, Any]:
    return active(db, vendors, realm_id, key, "VendorRef")


def account(db: Database, realm_id: str, key: str, types: tuple[str, ...], element: str) -> dict[str, Any]:
    """An active account of one of `types` (a Bank account to deposit to, an expense account for a bill line)."""
    row = active(db, accounts, realm_id, key, element)
    if row["account_type"] not in types:
        raise business_error(
            f"{element} {key} ({row['name']}) is a {row['account_type']} account; use one of type {', '.join(types)}."
        )
    return row


def form(db: Database, realm_id: str, key: str, kind: str) -> dict[str, Any]:
    """An invoice or credit memo of this company."""
    row = own(db, sales_forms, realm_id, key, kind)
    if row["kind"] != kind:
        raise not_found(kind, key)
    return row


def next_doc_number(db: Database, realm_id: str, kind: str) -> str:
    """The company's next number for this kind of form: one more than the highest numeric one used."""
    rows = db.select(sales_forms, "realm_id = ? AND kind = ?", (realm_id, kind))
    numbers = [int(r["doc_number"]) for r in rows if r["doc_number"].isdigit()]
    return str(max(numbers, default=1000) + 1)


def write_sales_lines(db: Database, realm_id: str, form_id: str, lines: list[Any]) -> int:
    """Store a form's item lines (items must be active; the unit price defaults to the item's); returns the total."""
    total = 0
    for number, line in enumerate(lines, start=1):
        item = active(db, items, realm_id, line.ItemRef, "ItemRef")
        unit = cents(line.UnitPrice) if line.UnitPrice is not None else item["unit_price"]
        amount = unit * line.Qty
        db.insert(
            sales_lines, form_id=form_id, line_num=number, item_id=item["id"],
            description=line.Description if line.Description is not None else item["name"], qty=line.Qty,
            unit_price=unit, amount=amount,
        )  # fmt: skip
        total += amount
    return total


def clear_sales_lines(db: Database, form_id: str) -> None:
    for line in db.find(sales_lines, form_id=form_id):
        db.delete(sales_lines, line["id"])


def touch(db: Database, table: Any, row: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """Write changes to an object and bump its SyncToken, as every QuickBooks update does."""
    if table is sales_forms:
        changes["updated"] = db.now_iso()
    return db.update(table, row["id"], sync_token=row["sync_token"] + 1, **changes)


def apply(db: Database, payment_id: str, linked: dict[str, Any], amount: int) -> None:
    """Apply part of a payment to an invoice or use part of a credit memo: both lower the form's balance."""
    db.insert(payment_lines, payment_id=payment_id, form_id=linked["id"], amount=amount)
    touch(
        db,
        sales_forms,
        db.get(sales_forms, linked["id"]),
        balance=db.get(sales_forms, linked["id"])["balance"] - amount,
    )


def unapply_all(db: Database, payment_id: str) -> None:
    """Take a payment's applications back: each invoice or credit memo gets its balance back."""
    for line in db.find(payment_lines, payment_id=payment_id):
        row = db.get(sales_forms, line["form_id"])
        touch(db, sales_forms, row, balance=row["balance"] + line["amount"])
        db.delete(payment_lines, line["id"])
