"""Xero's business rules: its ValidationException error shape, tax rates and line totals, the period lock date,
which invoice statuses may change to which, and how payments and credit allocations settle an invoice."""

from __future__ import annotations

import json
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.errors import ToolError

from .schema import documents, organisations

#: Tax types of a UK organisation and their rate in percent.
TAX_RATES: dict[str, int] = {
    "OUTPUT2": 20,  # 20% (VAT on income)
    "INPUT2": 20,  # 20% (VAT on expenses)
    "RROUTPUT": 5,  # reduced rate on income
    "ZERORATEDOUTPUT": 0,
    "ZERORATEDINPUT": 0,
    "EXEMPTOUTPUT": 0,
    "EXEMPTEXPENSES": 0,
    "NONE": 0,
}
#: Status changes Xero allows on an invoice or credit note through an update.
TRANSITIONS: dict[str, tuple[str, ...]] = {
    "DRAFT": ("SUBMITTED", "AUTHORISED", "DELETED"),
    "SUBMITTED": ("DRAFT", "AUTHORISED", "DELETED"),
    "AUTHORISED": ("VOIDED",),
}
CREDIT_TYPES = {"ACCREC": "ACCRECCREDIT", "ACCPAY": "ACCPAYCREDIT"}


def validation_error(message: str, kind: type[ToolError] = InvalidRequest) -> ToolError:
    """An error in Xero's shape: a ValidationException whose element lists the validation errors."""
    body: dict[str, Any] = {
        "ErrorNumber": 10,
        "Type": "ValidationException",
        "Message": "A validation exception occurred",
        "Elements": [{"ValidationErrors": [{"Message": message}]}],
    }
    return kind(json.dumps(body))


def line_amounts(quantity: int, unit_amount: int, tax_type: str) -> tuple[int, int]:
    """(line amount, tax amount) in cents for a tax-exclusive line; tax rounds half up to the cent."""
    amount = quantity * unit_amount
    return amount, (amount * TAX_RATES[tax_type] + 50) // 100


def check_lock_date(db: Database, tenant_id: str, date: str) -> None:
    """Refuse a change dated on or before the organisation's period lock date."""
    lock = db.get(organisations, tenant_id)["period_lock_date"]
    if lock is not None and date <= lock:
        raise validation_error(f"The document date cannot be on or before the period lock date ({lock}).", Conflict)


def check_transition(document: dict[str, Any], status: str) -> None:
    """Refuse a status change Xero does not allow (a paid or voided document is final; only DRAFT and SUBMITTED
    documents can be deleted; only AUTHORISED ones without payments or allocations can be voided)."""
    current = document["status"]
    if status == current:
        return
    if status == "DELETED" and current not in ("DRAFT", "SUBMITTED"):
        raise validation_error(f"A {current} document cannot be deleted; only DRAFT or SUBMITTED ones can.", Conflict)
    if status == "VOIDED" and (current != "AUTHORISED" or document["amount_paid"] or document["amount_credited"]):
        raise validation_error(
            "Only AUTHORISED documents without payments or allocations can be voided; remove those first.", Conflict
        )
    if status not in TRANSITIONS.get(current, ()):
        raise validation_error(f"This document cannot be changed from {current} to {status}.", Conflict)


def amount_due(document: dict[str, Any]) -> int:
    """What is still owed on an invoice (or left on a credit note), in cents."""
    return int(document["total"] - document["amount_paid"] - document["amount_credited"])


def settle(db: Database, document: dict[str, Any], paid: int = 0, credited: int = 0) -> dict[str, Any]:
    """Add a payment or allocation to a document (negative to take one back); it becomes PAID when nothing is due
    and AUTHORISED again when something is."""
    new_paid, new_credited = document["amount_paid"] + paid, document["amount_credited"] + credited
    due = document["total"] - new_paid - new_credited
    status = "PAID" if due == 0 else "AUTHORISED"
    return db.update(
        documents, document["id"], amount_paid=new_paid, amount_credited=new_credited, status=status,
        updated=db.now_iso(),
    )  # fmt: skip
