"""PayPal's API objects as output models (field names as in the APIs' JSON), and how stored rows become them."""

from __future__ import annotations

import math
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from envfactory_gym import Database, KeptGeneric

from .errors import invalid
from .rules import dollars
from .schema import authorizations, captures, orders, payers, payout_items, refunds

T = TypeVar("T")


class Money(BaseModel):
    """An amount as PayPal writes it: {"currency_code": "USD", "value": "12.50"}."""

    currency_code: str
    value: str


def money(amount: int, currency: str = "USD") -> Money:
    return Money(currency_code=currency, value=dollars(amount))


class Page(KeptGeneric, Generic[T]):
    """One page of results (page numbers start at 1), with how many there are in all."""

    items: list[T]
    page: int
    total_items: int
    total_pages: int


def page_of(rows: list[Any], page: int, page_size: int, convert: Any) -> Page[Any]:
    """Page `page` of `rows`, `page_size` a page, converted with `convert`."""
    return counted_page(len(rows), rows[(page - 1) * page_size : page * page_size], page, page_size, convert)


def counted_page(total: int, chunk: list[Any], page: int, page_size: int, convert: Any) -> Page[Any]:
    """Page `page` holding `chunk` (already cut) of `total` results; a page past the last one is refused."""
    pages = max(1, math.ceil(total / page_size))
    if page > pages:
        raise invalid("INVALID_PARAMETER_VALUE", f"page must be between 1 and {pages}.", "page")
    return Page[Any](items=[convert(r) for r in chunk], page=page, total_items=total, total_pages=pages)


# ---------------------------------------------------------------- payments


class RefundObject(BaseModel):
    """A refund of a capture (COMPLETED)."""

    id: str
    status: str
    amount: Money
    capture_id: str
    note_to_payer: str | None
    dispute_id: str | None
    create_time: str


def refund_object(row: dict[str, Any]) -> RefundObject:
    return RefundObject(
        **{k: row[k] for k in ("id", "status", "capture_id", "note_to_payer", "dispute_id", "create_time")},
        amount=money(row["amount"]),
    )


class ReceivableBreakdown(BaseModel):
    gross_amount: Money
    paypal_fee: Money
    net_amount: Money


class CaptureObject(BaseModel):
    """Money captured from the payer: COMPLETED, PARTIALLY_REFUNDED or REFUNDED; refundable_amount is what is left
    to refund."""

    id: str
    status: str
    amount: Money
    final_capture: bool
    seller_receivable_breakdown: ReceivableBreakdown
    refunded_amount: Money
    refundable_amount: Money
    order_id: str
    authorization_id: str | None
    invoice_id: str | None
    payer_email: str | None
    create_time: str


def capture_object(db: Database, row: dict[str, Any], order: dict[str, Any] | None = None) -> CaptureObject:
    refunded = sum(r["amount"] for r in db.find(refunds, capture_id=row["id"]))
    order = order or db.get(orders, row["order_id"])
    payer = db.find(payers, payer_id=order["payer_id"]) if order["payer_id"] else []
    return CaptureObject(
        **{k: row[k] for k in ("id", "status", "final_capture", "order_id", "authorization_id", "invoice_id")},
        create_time=row["create_time"],
        amount=money(row["amount"]),
        seller_receivable_breakdown=ReceivableBreakdown(
            gross_amount=money(row["amount"]),
            paypal_fee=money(row["fee"]),
            net_amount=money(row["amount"] - row["fee"]),
        ),
        refunded_amount=money(refunded),
        refundable_amount=money(row["amount"] - refunded),
        payer_email=payer[0]["email_address"] if payer else None,
    )


class TransactionObject(BaseModel):
    """A payment received (transaction_type CAPTURE) or held (AUTHORIZATION), as transaction search lists it."""

    transaction_id: str
    transaction_type: str
    transaction_status: str
    amount: Money
    fee_amount: Money | None
    order_id: str
    invoice_id: str | None
    payer_email: str
    payer_name: str
    transaction_time: str


def transaction_object(db: Database, row: dict[str, Any]) -> TransactionObject:
    order = db.get(orders, row["order_id"])
    payer = db.get(payers, order["payer_id"])
    return TransactionObject(
        transaction_id=row["id"],
        transaction_type=row["transaction_type"],
        transaction_status=row["status"],
        amount=money(row["amount"]),
        fee_amount=money(row["fee"]) if "fee" in row else None,
        order_id=row["order_id"],
        invoice_id=order["invoice_id"],
        payer_email=payer["email_address"],
        payer_name=f"{payer['given_name']} {payer['surname']}",
        transaction_time=row["create_time"],
    )


class AuthorizationObject(BaseModel):
    """Funds held on the payer's account: CREATED, PARTIALLY_CAPTURED, CAPTURED, VOIDED or EXPIRED. Capture within
    the honor period to be sure of the funds; reauthorize after it, before expiration_time."""

    id: str
    status: str
    amount: Money
    captured_amount: Money
    order_id: str
    reauthorized_from: str | None
    honor_period_expires: str
    expiration_time: str
    create_time: str


def authorization_object(db: Database, row: dict[str, Any]) -> AuthorizationObject:
    captured = sum(c["amount"] for c in db.find(captures, authorization_id=row["id"]))
    return AuthorizationObject(
        **{k: row[k] for k in ("id", "status", "order_id", "reauthorized_from", "expiration_time", "create_time")},
        amount=money(row["amount"]),
        captured_amount=money(captured),
        honor_period_expires=row["honor_until"],
    )


# ---------------------------------------------------------------- orders


class Payer(BaseModel):
    payer_id: str
    email_address: str
    name: str


class Item(BaseModel):
    name: str
    quantity: str
    unit_amount: Money
    sku: str | None = None


class Breakdown(BaseModel):
    item_total: Money
    shipping: Money
    tax_total: Money
    discount: Money


class Amount(BaseModel):
    currency_code: str
    value: str
    breakdown: Breakdown


class Payments(BaseModel):
    authorizations: list[AuthorizationObject]
    captures: list[CaptureObject]
    refunds: list[RefundObject]


class PurchaseUnit(BaseModel):
    reference_id: str
    description: str | None
    invoice_id: str | None
    amount: Amount
    items: list[Item]
    payments: Payments


class OrderObject(BaseModel):
    """A checkout order: CREATED, APPROVED by the payer, COMPLETED once captured or authorized, or VOIDED."""

    id: str
    intent: str
    status: str
    payer: Payer | None
    purchase_units: list[PurchaseUnit]
    create_time: str
    update_time: str


def order_object(db: Database, row: dict[str, Any]) -> OrderObject:
    payer = None
    if row["payer_id"]:
        p = db.get(payers, row["payer_id"])
        payer = Payer(
            payer_id=p["payer_id"], email_address=p["email_address"], name=f"{p['given_name']} {p['surname']}"
        )
    caps = db.find(captures, order_id=row["id"], order_by=[captures.c.create_time])
    refund_rows = [r for c in caps for r in db.find(refunds, capture_id=c["id"])]
    auths = db.find(authorizations, order_id=row["id"], order_by=[authorizations.c.create_time])
    unit = PurchaseUnit(
        reference_id=row["reference_id"],
        description=row["description"],
        invoice_id=row["invoice_id"],
        amount=Amount(
            currency_code=row["currency"],
            value=dollars(row["amount"]),
            breakdown=Breakdown(
                item_total=money(row["item_total"]),
                shipping=money(row["shipping"]),
                tax_total=money(row["tax_total"]),
                discount=money(row["discount"]),
            ),
        ),
        items=[
            Item(name=i["name"], quantity=i["quantity"], unit_amount=money(i["unit_amount"]), sku=i.get("sku"))
            for i in row["items"]
        ],
        payments=Payments(
            authorizations=[authorization_object(db, a) for a in auths],
            captures=[capture_object(db, c, row) for c in caps],
            refunds=[refund_object(r) for r in refund_rows],
        ),
    )
    return OrderObject(
        **{k: row[k] for k in ("id", "intent", "status", "create_time", "update_time")},
        payer=payer,
        purchase_units=[unit],
    )


# ---------------------------------------------------------------- disputes


class DisputeSummary(BaseModel):
    """A dispute as listed."""

    dispute_id: str
    reason: str
    status: str
    dispute_life_cycle_stage: str
    dispute_amount: Money
    seller_transaction_id: str
    create_time: str


def dispute_summary(row: dict[str, Any]) -> DisputeSummary:
    return DisputeSummary(
        dispute_id=row["dispute_id"],
        reason=row["reason"],
        status=row["status"],
        dispute_life_cycle_stage=row["stage"],
        dispute_amount=money(row["amount"]),
        seller_transaction_id=row["capture_id"],
        create_time=row["create_time"],
    )


class DisputeObject(DisputeSummary):
    """A dispute with the buyer's message, the evidence given, when the seller must answer and the outcome."""

    buyer_email: str | None
    buyer_message: str
    seller_response_due_date: str | None
    dispute_outcome: str | None
    evidences: list[dict[str, Any]]


def dispute_object(db: Database, row: dict[str, Any]) -> DisputeObject:
    capture = capture_object(db, db.get(captures, row["capture_id"]))
    return DisputeObject(
        **dispute_summary(row).model_dump(),
        buyer_email=capture.payer_email,
        buyer_message=row["buyer_message"],
        seller_response_due_date=row["seller_response_due_date"],
        dispute_outcome=row["outcome"],
        evidences=row["evidences"],
    )


# ---------------------------------------------------------------- payouts


class PayoutItemObject(BaseModel):
    """One payment of a batch: SUCCESS, UNCLAIMED (no PayPal account yet), RETURNED (cancelled or never claimed)."""

    payout_item_id: str
    transaction_status: str
    receiver: str
    amount: Money
    sender_item_id: str | None
    note: str | None


class PayoutBatchObject(BaseModel):
    """A payout batch with its total and every item's status."""

    payout_batch_id: str
    batch_status: str
    sender_batch_id: str
    email_subject: str | None
    total_amount: Money
    time_created: str
    items: list[PayoutItemObject]


def payout_item_object(row: dict[str, Any]) -> PayoutItemObject:
    return PayoutItemObject(
        **{k: row[k] for k in ("payout_item_id", "transaction_status", "receiver", "sender_item_id", "note")},
        amount=money(row["amount"]),
    )


def payout_batch_object(db: Database, row: dict[str, Any]) -> PayoutBatchObject:
    rows = db.find(payout_items, payout_batch_id=row["payout_batch_id"], order_by=[payout_items.c.payout_item_id])
    return PayoutBatchObject(
        **{k: row[k] for k in ("payout_batch_id", "batch_status", "sender_batch_id", "email_subject", "time_created")},
        total_amount=money(sum(r["amount"] for r in rows)),
        items=[payout_item_object(r) for r in rows],
    )


# ---------------------------------------------------------------- invoices


class InvoiceItem(BaseModel):
    name: str
    quantity: str
    unit_amount: Money


class InvoicePayment(BaseModel):
    payment_id: str
    method: str
    amount: Money
    payment_date: str
    note: str | None


class InvoiceObject(BaseModel):
    """An invoice: DRAFT, SENT, PARTIALLY_PAID, PAID (through PayPal), MARKED_AS_PAID (recorded) or CANCELLED."""

    id: str
    invoice_number: str
    status: str
    recipient_email: str
    recipient_name: str
    invoice_date: str
    due_date: str
    items: list[InvoiceItem]
    amount: Money
    paid_amount: Money
    due_amount: Money
    payments: list[InvoicePayment]
    note: str | None
    reminders_sent: int
    last_reminded: str | None


def invoice_object(row: dict[str, Any]) -> InvoiceObject:
    keys = ("id", "invoice_number", "status", "recipient_email", "recipient_name", "invoice_date", "due_date", "note")
    return InvoiceObject(
        **{k: row[k] for k in keys},
        items=[
            InvoiceItem(name=i["name"], quantity=i["quantity"], unit_amount=money(i["unit_amount"]))
            for i in row["items"]
        ],
        amount=money(row["amount"]),
        paid_amount=money(row["paid"]),
        due_amount=money(row["amount"] - row["paid"]),
        payments=[InvoicePayment(**{**p, "amount": money(p["amount"])}) for p in row["payments"]],
        reminders_sent=row["reminders_sent"],
        last_reminded=row["last_reminded"],
    )
