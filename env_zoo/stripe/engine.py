"""Stripe's money movement: card outcomes, charges, invoice finalization and collection, billing periods."""

from __future__ import annotations

import calendar
from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database

from .rules import check_currency_of, money
from .schema import (
    charges,
    customers,
    invoice_lines,
    invoices,
    payment_intents,
    payment_methods,
    products,
    subscriptions,
)

DECLINE_MESSAGES = {
    "insufficient_funds": "Your card has insufficient funds.",
    "expired_card": "Your card has expired.",
    "lost_card": "Your card was declined.",
    "stolen_card": "Your card was declined.",
    "generic_decline": "Your card was declined.",
    "do_not_honor": "Your card was declined.",
    "card_velocity_exceeded": "Your card was declined for making repeated attempts too frequently or exceeding its "
    "amount limit.",
}
AUTHENTICATION_FAILED = (
    "The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new "
    "PaymentMethod to attempt to fulfill this PaymentIntent again."
)
UNPAID_SUBSCRIPTION_STATUSES = ("incomplete", "past_due", "unpaid")


def add_interval(start: datetime, interval: str, count: int) -> datetime:
    """`start` moved forward by `count` billing intervals (months keep their day, clamped to month end)."""
    if interval == "day":
        return start + timedelta(days=count)
    if interval == "week":
        return start + timedelta(weeks=count)
    months = count * (12 if interval == "year" else 1)
    month_index = start.month - 1 + months
    year, month = start.year + month_index // 12, month_index % 12 + 1
    return start.replace(year=year, month=month, day=min(start.day, calendar.monthrange(year, month)[1]))


# ---------------------------------------------------------------- card payments


def attempt_payment(db: Database, pi: dict[str, Any], authenticated: bool = False) -> dict[str, Any]:
    """Run a confirmed PaymentIntent against its card: decline, ask for 3-D Secure, or charge it."""
    pm = db.get(payment_methods, pi["payment_method"], "PaymentMethod")
    now = db.now()
    if (pm["exp_year"], pm["exp_month"]) < (now.year, now.month):
        return _decline(db, pi, pm, "expired_card", "expired_card")
    if pm["decline_code"]:
        return _decline(db, pi, pm, "card_declined", pm["decline_code"])
    if pm["three_d_secure"] == "required" and not authenticated:
        return db.update(payment_intents, pi["id"], status="requires_action", last_payment_error=None)
    return _succeed(db, pi, pm)


def fail_authentication(db: Database, pi: dict[str, Any]) -> dict[str, Any]:
    """The cardholder failed or abandoned the 3-D Secure challenge."""
    error = {"code": "payment_intent_authentication_failure", "decline_code": None, "message": AUTHENTICATION_FAILED}
    updated = db.update(payment_intents, pi["id"], status="requires_payment_method", last_payment_error=error)
    _record_invoice_attempt(db, updated, failed=True)
    return updated


def _new_charge(db: Database, pi: dict[str, Any], pm: dict[str, Any], **values: Any) -> dict[str, Any]:
    return db.insert(
        charges,
        id=db.new_id(charges, "ch_"),
        payment_intent=pi["id"],
        customer=pi["customer"],
        payment_method=pm["id"],
        amount=pi["amount"],
        currency=pi["currency"],
        created=db.now_iso(),
        **values,
    )


def _decline(db: Database, pi: dict[str, Any], pm: dict[str, Any], code: str, decline_code: str) -> dict[str, Any]:
    message = DECLINE_MESSAGES.get(decline_code, "Your card was declined.")
    charge = _new_charge(
        db,
        pi,
        pm,
        amount_captured=0,
        amount_refunded=0,
        status="failed",
        paid=False,
        captured=False,
        refunded=False,
        disputed=False,
        failure_code=code,
        failure_message=message,
    )
    error = {"code": code, "decline_code": decline_code, "message": message}
    updated = db.update(
        payment_intents,
        pi["id"],
        status="requires_payment_method",
        latest_charge=charge["id"],
        last_payment_error=error,
    )
    _record_invoice_attempt(db, updated, failed=True)
    return updated


def _succeed(db: Database, pi: dict[str, Any], pm: dict[str, Any]) -> dict[str, Any]:
    automatic = pi["capture_method"] == "automatic"
    charge = _new_charge(
        db,
        pi,
        pm,
        amount_captured=pi["amount"] if automatic else 0,
        amount_refunded=0,
        status="succeeded",
        paid=True,
        captured=automatic,
        refunded=False,
        disputed=False,
        failure_code=None,
        failure_message=None,
    )
    if automatic:
        changes = {"status": "succeeded", "amount_received": pi["amount"], "amount_capturable": 0}
    else:
        changes = {"status": "requires_capture", "amount_capturable": pi["amount"]}
    updated = db.update(payment_intents, pi["id"], latest_charge=charge["id"], last_payment_error=None, **changes)
    if updated["invoice"] is not None and automatic:
        _record_invoice_attempt(db, updated, failed=False)
        mark_invoice_paid(db, db.get(invoices, updated["invoice"], "Invoice"), updated["amount"])
    return updated


def _record_invoice_attempt(db: Database, pi: dict[str, Any], failed: bool) -> None:
    """Book a collection attempt on the invoice a PaymentIntent pays; a failed one makes its subscription past due."""
    if pi["invoice"] is None:
        return
    invoice = db.get(invoices, pi["invoice"], "Invoice")
    db.update(invoices, invoice["id"], attempt_count=invoice["attempt_count"] + 1)
    if failed:
        if invoice["subscription"] is not None:
            sub = db.get(subscriptions, invoice["subscription"], "Subscription")
            if sub["status"] == "active":
                db.update(subscriptions, sub["id"], status="past_due")
        db.update(customers, invoice["customer"], delinquent=True)


# ---------------------------------------------------------------- invoices


def refresh_delinquency(db: Database, customer_id: str) -> None:
    """A customer is delinquent while one of their open invoices has a failed collection attempt."""
    failing = [i for i in db.find(invoices, customer=customer_id, status="open") if i["attempt_count"] > 0]
    db.update(customers, customer_id, delinquent=bool(failing))


def mark_invoice_paid(db: Database, invoice: dict[str, Any], amount: int, out_of_band: bool = False) -> dict[str, Any]:
    """Close an invoice as paid and bring its subscription back to active."""
    updated = db.update(
        invoices,
        invoice["id"],
        status="paid",
        amount_paid=invoice["amount_paid"] + amount,
        amount_remaining=0,
        paid_out_of_band=out_of_band,
        status_transitioned_at=db.now_iso(),
    )
    if invoice["subscription"] is not None:
        sub = db.get(subscriptions, invoice["subscription"], "Subscription")
        if sub["status"] in UNPAID_SUBSCRIPTION_STATUSES:
            db.update(subscriptions, sub["id"], status="active")
    refresh_delinquency(db, invoice["customer"])
    return updated


def create_draft(
    db: Database, customer: dict[str, Any], currency: str, lines: list[dict[str, Any]], **fields: Any
) -> dict[str, Any]:
    """A draft invoice with its lines; a customer bills in one currency, fixed by their first invoice."""
    check_currency_of(customer, currency)
    if customer["currency"] is None:
        db.update(customers, customer["id"], currency=currency)
    subtotal = sum(line["unit_amount"] * line["quantity"] for line in lines)
    invoice = db.insert(
        invoices,
        id=db.new_id(invoices, "in_"),
        number=None,
        customer=customer["id"],
        status="draft",
        currency=currency,
        subtotal=subtotal,
        total=subtotal,
        starting_balance=0,
        ending_balance=None,
        amount_due=subtotal,
        amount_paid=0,
        amount_remaining=subtotal,
        attempt_count=0,
        paid_out_of_band=False,
        payment_intent=None,
        created=db.now_iso(),
        status_transitioned_at=None,
        **fields,
    )
    for line in lines:
        db.insert(
            invoice_lines,
            id=db.new_id(invoice_lines, "il_"),
            invoice=invoice["id"],
            description=line["description"],
            price=line.get("price"),
            quantity=line["quantity"],
            unit_amount=line["unit_amount"],
            amount=line["unit_amount"] * line["quantity"],
        )
    return invoice


def finalize(db: Database, invoice: dict[str, Any]) -> dict[str, Any]:
    """draft -> open: number the invoice and apply the customer's balance; nothing left to pay means paid."""
    customer = db.get(customers, invoice["customer"], "Customer")
    sequence = sum(1 for i in db.find(invoices, customer=customer["id"]) if i["number"] is not None) + 1
    balance = customer["balance"]
    applied = max(-invoice["total"], balance)  # a credit (negative) covers at most the total; a debit adds on
    amount_due = invoice["total"] + applied
    db.update(customers, customer["id"], balance=balance - applied)
    updated = db.update(
        invoices,
        invoice["id"],
        status="open",
        number=f"{customer['invoice_prefix']}-{sequence:04d}",
        starting_balance=balance,
        ending_balance=balance - applied,
        amount_due=amount_due,
        amount_remaining=amount_due,
        status_transitioned_at=db.now_iso(),
    )
    if amount_due == 0:
        updated = mark_invoice_paid(db, updated, 0)
    return updated


def collect_invoice(db: Database, invoice: dict[str, Any], payment_method_id: str) -> dict[str, Any]:
    """Charge an open invoice's remaining amount to a card through the invoice's PaymentIntent."""
    pi = db.find(payment_intents, id=invoice["payment_intent"]) if invoice["payment_intent"] else []
    if pi and pi[0]["status"] == "requires_action":
        raise Conflict(
            f"Invoice {invoice['number']} is waiting for the customer to complete 3D Secure authentication of its "
            "payment."
        )
    if pi and pi[0]["status"] in ("requires_payment_method", "requires_confirmation"):
        intent = db.update(payment_intents, pi[0]["id"], payment_method=payment_method_id)
    else:
        intent = db.insert(
            payment_intents,
            id=db.new_id(payment_intents, "pi_"),
            amount=invoice["amount_remaining"],
            amount_capturable=0,
            amount_received=0,
            currency=invoice["currency"],
            customer=invoice["customer"],
            payment_method=payment_method_id,
            status="requires_confirmation",
            capture_method="automatic",
            description=f"Invoice {invoice['number']}",
            receipt_email=None,
            invoice=invoice["id"],
            latest_charge=None,
            last_payment_error=None,
            cancellation_reason=None,
            canceled_at=None,
            created=db.now_iso(),
        )
        db.update(invoices, invoice["id"], payment_intent=intent["id"])
    attempt_payment(db, intent)
    return db.get(invoices, invoice["id"], "Invoice")


# ---------------------------------------------------------------- subscriptions


def bill_first_period(
    db: Database, customer: dict[str, Any], sub: dict[str, Any], price: dict[str, Any], card: str | None
) -> None:
    """Invoice a new subscription's first period at once; charge_automatically collects it from `card`."""
    product = db.get(products, price["product"], "Product")
    every = (
        price["recurring_interval"]
        if price["recurring_interval_count"] == 1
        else (f"every {price['recurring_interval_count']} {price['recurring_interval']}s")
    )
    line = {
        "description": f"{sub['quantity']} × {product['name']} (at {money(price['unit_amount'], price['currency'])} "
        f"/ {every})",
        "price": price["id"],
        "quantity": sub["quantity"],
        "unit_amount": price["unit_amount"],
    }
    due = None
    if sub["days_until_due"] is not None:
        due = add_interval(db.now(), "day", sub["days_until_due"]).strftime("%Y-%m-%d")
    invoice = create_draft(
        db,
        customer,
        price["currency"],
        [line],
        subscription=sub["id"],
        collection_method=sub["collection_method"],
        due_date=due,
        description=None,
    )
    db.update(subscriptions, sub["id"], latest_invoice=invoice["id"])
    invoice = finalize(db, invoice)
    if sub["collection_method"] == "send_invoice":
        db.update(subscriptions, sub["id"], status="active")
    elif invoice["status"] == "open" and card is not None:
        collect_invoice(db, invoice, card)
