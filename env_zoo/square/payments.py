"""The Payments and Refunds APIs' machinery: taking, completing and canceling payments, and refunding them."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import bad_request, declined
from .orders import settle
from .rules import (
    MIXED,
    active_location,
    committed_to_order,
    delayed_until,
    fetch,
    is_paid,
    open_order,
    order_total,
    refundable,
    square_id,
)
from .schema import cards, customers, orders, payments, refunds


def _card(db: Database, source_id: str, customer_id: str | None) -> dict[str, Any]:
    """The card on file to charge: the customer's, enabled, unexpired and accepted by its issuer."""
    card = fetch(db, cards, source_id, "card")
    if customer_id is None:
        raise bad_request(
            "MISSING_REQUIRED_PARAMETER", "customer_id is required to charge a card on file.", "customer_id"
        )
    if card["customer_id"] != customer_id:
        raise bad_request("INVALID_VALUE", "The card on file does not belong to the customer.", "source_id")
    if not card["enabled"]:
        raise bad_request("INVALID_CARD", "The card on file is disabled.", "source_id")
    now = db.now()
    if (card["exp_year"], card["exp_month"]) < (now.year, now.month):
        raise declined("CARD_EXPIRED", "Authorization error: 'CARD_EXPIRED'")
    if card["decline_code"]:
        raise declined(card["decline_code"], f"Authorization error: '{card['decline_code']}'")
    return card


def create_payment(
    db: Database,
    *,
    source_id: str,
    amount: int,
    location_id: str,
    order_id: str | None,
    customer_id: str | None,
    tip: int,
    autocomplete: bool,
    delay_action: str,
    note: str | None,
    reference_id: str | None,
) -> dict[str, Any]:
    """A new payment, COMPLETED or (autocomplete=false) APPROVED; one that covers the rest of its order pays it."""
    active_location(db, location_id)
    order = None
    if order_id is not None:
        order = fetch(db, orders, order_id, "order")
        if order["location_id"] != location_id:
            raise bad_request("INVALID_VALUE", "The payment's location must be the order's location.", "location_id")
        open_order(order)
        if is_paid(order):
            raise bad_request("BAD_REQUEST", f"Order `{order_id}` is already paid.", "order_id")
        customer_id = customer_id or order["customer_id"]
    if customer_id is not None:
        fetch(db, customers, customer_id, "customer")
    card = None
    if source_id.startswith("ccof:"):
        card = _card(db, source_id, customer_id)
        kind = "CARD"
    elif source_id in ("CASH", "EXTERNAL"):
        kind = source_id
    else:
        raise bad_request(
            "INVALID_VALUE", f"Invalid source_id `{source_id}`: use ccof:..., CASH or EXTERNAL.", "source_id"
        )
    covers_rest = False
    if order is not None:
        due = order_total(order) - committed_to_order(db, order["id"])
        if amount > due:
            raise bad_request(
                "VALUE_TOO_HIGH",
                f"amount_money ({amount}) is more than what is left to pay on the order ({due}).",
                "amount_money.amount",
            )
        covers_rest = amount == due
        if autocomplete and not covers_rest:
            raise bad_request(
                "BAD_REQUEST",
                "A payment for part of an order must set autocomplete to false and be applied with pay_order.",
                "autocomplete",
            )
    now = db.now_iso()
    row = db.insert(
        payments,
        id=square_id(db, payments, 29, MIXED),
        location_id=location_id,
        order_id=order_id,
        customer_id=customer_id,
        amount=amount,
        tip_amount=tip,
        currency="USD",
        status="COMPLETED" if autocomplete else "APPROVED",
        source_type=kind,
        card_id=card["id"] if card else None,
        card_brand=card["card_brand"] if card else None,
        last_4=card["last_4"] if card else None,
        delay_action=None if autocomplete else delay_action,
        delayed_until=None if autocomplete else delayed_until(db),
        note=note,
        reference_id=reference_id,
        created_at=now,
        updated_at=now,
    )
    if order is not None and autocomplete and covers_rest:
        others = db.select(payments, "order_id = ? AND status IN ('APPROVED', 'COMPLETED')", [order["id"]])
        settle(db, order, [p["id"] for p in others])
        row = db.get(payments, row["id"])
    return row


def _approved(db: Database, payment_id: str) -> dict[str, Any]:
    payment = fetch(db, payments, payment_id, "payment")
    if payment["status"] != "APPROVED":
        raise bad_request(
            "BAD_REQUEST", f"Payment `{payment_id}` is {payment['status']}; only APPROVED payments can change."
        )
    return payment


def complete_payment(db: Database, payment_id: str) -> dict[str, Any]:
    """An APPROVED payment, not tied to an order, completed."""
    payment = _approved(db, payment_id)
    if payment["order_id"]:
        raise bad_request(
            "BAD_REQUEST", f"Payment `{payment_id}` is for order `{payment['order_id']}`: pay the order to complete it."
        )
    return db.update(
        payments, payment_id, status="COMPLETED", delay_action=None, delayed_until=None, updated_at=db.now_iso()
    )


def cancel_payment(db: Database, payment_id: str) -> dict[str, Any]:
    """An APPROVED payment voided."""
    _approved(db, payment_id)
    return db.update(
        payments, payment_id, status="CANCELED", delay_action=None, delayed_until=None, updated_at=db.now_iso()
    )


def find_payments(
    db: Database,
    location_id: str | None,
    begin: str | None,
    end: str | None,
    last_4: str | None,
    card_brand: str | None,
    sort_order: str,
) -> list[dict[str, Any]]:
    """Payments matching the filters, by creation time."""
    where, params = [], []
    for clause, value in (
        ("location_id = ?", location_id),
        ("created_at >= ?", begin),
        ("created_at < ?", end),
        ("last_4 = ?", last_4),
        ("card_brand = ?", card_brand),
    ):
        if value is not None:
            where.append(clause)
            params.append(value)
    return db.select(payments, " AND ".join(where), params, order_by=f"created_at {sort_order}")


def refund_payment(db: Database, payment_id: str, amount: int, reason: str | None) -> dict[str, Any]:
    """A refund of a COMPLETED payment, within what is left to refund."""
    payment = fetch(db, payments, payment_id, "payment")
    if payment["status"] == "APPROVED":
        raise bad_request(
            "PAYMENT_NOT_REFUNDABLE", "The payment is APPROVED, not completed: cancel it instead.", "payment_id"
        )
    if payment["status"] != "COMPLETED":
        raise bad_request("PAYMENT_NOT_REFUNDABLE", f"The payment is {payment['status']}.", "payment_id")
    left = refundable(db, payment)
    if amount > left:
        raise bad_request(
            "REFUND_AMOUNT_INVALID",
            f"The requested refund amount exceeds the amount available to refund ({left}).",
            "amount_money.amount",
        )
    now = db.now_iso()
    return db.insert(
        refunds,
        id=square_id(db, refunds, 20, MIXED, prefix=f"{payment_id}_"),
        payment_id=payment_id,
        order_id=payment["order_id"],
        location_id=payment["location_id"],
        amount=amount,
        currency=payment["currency"],
        status="PENDING" if payment["source_type"] == "CARD" else "COMPLETED",
        reason=reason,
        created_at=now,
        updated_at=now,
    )
