"""Invoicing v2: drafts, sending, recording payments made outside PayPal, reminders and cancellation."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import unprocessable
from .rules import CURRENCY, cents, dollars, fetch, paypal_id
from .schema import invoices

#: Statuses that still expect money from the recipient.
AWAITING_PAYMENT = ("SENT", "PARTIALLY_PAID")


def find_invoices(
    db: Database,
    recipient_email: str | None,
    recipient_name: str | None,
    status: list[str] | None,
    invoice_number: str | None,
) -> list[dict[str, Any]]:
    """Invoices matching the filters, newest invoice date first."""
    where, params = ["1 = 1"], []
    if recipient_email is not None:
        where.append("lower(recipient_email) = ?")
        params.append(recipient_email.lower())
    for word in (recipient_name or "").lower().split():
        where.append("lower(recipient_name) LIKE ?")
        params.append(f"%{word}%")
    if status:
        where.append(f"status IN ({', '.join('?' for _ in status)})")
        params.extend(status)
    if invoice_number is not None:
        where.append("invoice_number = ?")
        params.append(invoice_number)
    return db.select(invoices, " AND ".join(where), params, order_by="invoice_date DESC, invoice_number DESC")


def create_draft(
    db: Database,
    invoice_number: str | None,
    recipient_email: str,
    recipient_name: str,
    items: list[Any],
    due_date: str,
    note: str | None,
) -> dict[str, Any]:
    """A DRAFT invoice; its number is the next free one when none is given, and must be unique."""
    number = invoice_number or next_number(db)
    if db.find(invoices, invoice_number=number):
        raise unprocessable(
            "DUPLICATE_INVOICE_NUMBER", f"Invoice number `{number}` is already in use.", "detail.invoice_number"
        )
    today = db.now().date().isoformat()
    if due_date < today:
        raise unprocessable(
            "INVALID_DUE_DATE", "The due date cannot be earlier than the invoice date.", "detail.payment_term.due_date"
        )
    lines = [
        {"name": i.name, "quantity": i.quantity, "unit_amount": cents(i.unit_amount.value, "unit_amount")}
        for i in items
    ]
    return db.insert(
        invoices,
        id=paypal_id(db, invoices, 16, prefix="INV2-", groups=4),
        invoice_number=number,
        status="DRAFT",
        recipient_email=recipient_email.lower(),
        recipient_name=recipient_name,
        items=lines,
        amount=sum(line["unit_amount"] * int(line["quantity"]) for line in lines),
        paid=0,
        currency=CURRENCY,
        invoice_date=today,
        due_date=due_date,
        note=note,
        payments=[],
        reminders_sent=0,
        last_reminded=None,
        create_time=db.now_iso(),
    )


def next_number(db: Database) -> str:
    """The merchant's next invoice number: one above the highest numeric one."""
    numbers = [int(r["invoice_number"]) for r in db.find(invoices) if r["invoice_number"].isdigit()]
    return f"{max(numbers, default=0) + 1:04d}"


def send(db: Database, invoice_id: str) -> dict[str, Any]:
    """Send a DRAFT invoice to its recipient: SENT."""
    invoice = fetch(db, invoices, invoice_id, "invoice", "invoice_id")
    if invoice["status"] != "DRAFT":
        raise unprocessable(
            "CANT_SEND_INVOICE", f"Only DRAFT invoices can be sent; this one is {invoice['status']}.", "invoice_id"
        )
    return db.update(invoices, invoice_id, status="SENT")


def record_payment(
    db: Database, invoice_id: str, method: str, amount: str | None, payment_date: str, note: str | None
) -> dict[str, Any]:
    """Record money received outside PayPal on a SENT or PARTIALLY_PAID invoice, at most what is still due:
    PARTIALLY_PAID, or MARKED_AS_PAID once fully paid."""
    invoice = _awaiting(db, invoice_id, "record a payment on")
    due = invoice["amount"] - invoice["paid"]
    wanted = cents(amount, "amount.value") if amount is not None else due
    if wanted > due:
        raise unprocessable(
            "PAYMENT_AMOUNT_EXCEEDS_DUE", f"The payment exceeds the amount due ({dollars(due)}).", "amount.value"
        )
    entry = {
        "payment_id": f"EXTR-{db.next_number('ppid:invoice_payment'):08d}",
        "method": method,
        "amount": wanted,
        "payment_date": payment_date,
        "note": note,
    }
    paid = invoice["paid"] + wanted
    return db.update(
        invoices,
        invoice_id,
        paid=paid,
        payments=[*invoice["payments"], entry],
        status="MARKED_AS_PAID" if paid == invoice["amount"] else "PARTIALLY_PAID",
    )


def _awaiting(db: Database, invoice_id: str, action: str) -> dict[str, Any]:
    invoice = fetch(db, invoices, invoice_id, "invoice", "invoice_id")
    if invoice["status"] not in AWAITING_PAYMENT:
        raise unprocessable(
            "INVALID_INVOICE_STATUS", f"Cannot {action} an invoice that is {invoice['status']}.", "invoice_id"
        )
    return invoice


def remind(db: Database, invoice_id: str) -> dict[str, Any]:
    """Send a reminder for an invoice still awaiting payment."""
    invoice = _awaiting(db, invoice_id, "send a reminder for")
    return db.update(invoices, invoice_id, reminders_sent=invoice["reminders_sent"] + 1, last_reminded=db.now_iso())


def cancel(db: Database, invoice_id: str) -> dict[str, Any]:
    """Cancel a SENT invoice no one has paid anything on: CANCELLED (a draft is deleted, not cancelled)."""
    invoice = fetch(db, invoices, invoice_id, "invoice", "invoice_id")
    if invoice["status"] != "SENT":
        raise unprocessable(
            "CANT_CANCEL_INVOICE",
            f"Only SENT invoices with no payment can be cancelled; this one is {invoice['status']}.",
            "invoice_id",
        )
    return db.update(invoices, invoice_id, status="CANCELLED")
