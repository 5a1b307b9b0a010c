"""Looking up an organisation's own records (accounts by code, contacts, documents) and writing documents with their
line items and totals."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .rules import line_amounts, validation_error
from .schema import accounts, contacts, documents, line_items, tracking_categories, tracking_options


def account_by_code(db: Database, tenant_id: str, code: str, *, bank: bool) -> dict[str, Any]:
    """An active account of the organisation with this code; `bank` says whether it must be a BANK account (for
    payments) or must not be one (for line items)."""
    found = db.find(accounts, tenant_id=tenant_id, code=code, status="ACTIVE")
    if not found or (found[0]["type"] == "BANK") != bank:
        what = "bank account" if bank else "account code"
        raise validation_error(f"Account code '{code}' is not a valid {what} for this document.")
    return found[0]


def bank_codes(db: Database, tenant_id: str) -> dict[str, str]:
    """Bank account id -> code for an organisation."""
    return {a["id"]: a["code"] for a in db.find(accounts, tenant_id=tenant_id, type="BANK")}


def contact(db: Database, tenant_id: str, contact_id: str) -> dict[str, Any]:
    return db.find_one(contacts, id=contact_id, tenant_id=tenant_id, not_found=f"Contact '{contact_id}' not found")


def document(db: Database, tenant_id: str, document_id: str, what: str = "Invoice") -> dict[str, Any]:
    return db.find_one(documents, id=document_id, tenant_id=tenant_id, not_found=f"{what} '{document_id}' not found")


def next_number(db: Database, tenant_id: str, prefix: str, types: tuple[str, ...]) -> str:
    """The organisation's next document number with this prefix (INV-0043 after INV-0042)."""
    marks = ", ".join("?" for _ in types)
    rows = db.select(
        documents, f"tenant_id = ? AND type IN ({marks}) AND number LIKE ?", (tenant_id, *types, prefix + "%")
    )
    taken = [int(r["number"][len(prefix) :]) for r in rows if r["number"][len(prefix) :].isdigit()]
    return f"{prefix}{max(taken, default=0) + 1:04d}"


def tracking_option(db: Database, tenant_id: str, option_id: str) -> dict[str, Any]:
    """A tracking option of one of the organisation's tracking categories."""
    found = db.find(tracking_options, id=option_id)
    if not found or db.get(tracking_categories, found[0]["category_id"])["tenant_id"] != tenant_id:
        raise validation_error(f"Tracking option '{option_id}' does not exist.")
    return found[0]


def write_lines(db: Database, tenant_id: str, document_id: str, lines: list[Any]) -> tuple[int, int]:
    """Store a document's lines (checking account codes and tracking options); returns (sub total, tax) in cents."""
    sub_total = total_tax = 0
    for position, line in enumerate(lines, start=1):
        account_by_code(db, tenant_id, line.AccountCode, bank=False)
        if line.TrackingOptionID is not None:
            tracking_option(db, tenant_id, line.TrackingOptionID)
        unit = int(line.UnitAmount * 100)
        amount, tax = line_amounts(line.Quantity, unit, line.TaxType)
        db.insert(
            line_items,
            id=db.new_uuid(line_items),
            document_id=document_id,
            position=position,
            description=line.Description,
            quantity=line.Quantity,
            unit_amount=unit,
            account_code=line.AccountCode,
            tax_type=line.TaxType,
            line_amount=amount,
            tax_amount=tax,
            tracking_option_id=line.TrackingOptionID,
        )
        sub_total, total_tax = sub_total + amount, total_tax + tax
    return sub_total, total_tax
