"""Stripe's API objects as output models, and how stored rows become them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, Field

from envfactory_gym import Database, Page, paginate

from .schema import charges, invoice_lines, payment_intents, prices, products


class CustomerObject(BaseModel):
    """A customer of the Stripe account."""

    id: str
    name: str
    email: str | None
    phone: str | None
    description: str | None
    currency: str | None = Field(description="the currency the customer is billed in, once fixed")
    balance: int = Field(description="minor units; negative is credit applied to the next invoice")
    delinquent: bool
    default_payment_method: str | None = Field(description="invoice_settings.default_payment_method")
    invoice_prefix: str
    created: str


class Card(BaseModel):
    """The card details of a payment method."""

    brand: str
    last4: str
    exp_month: int
    exp_year: int
    funding: str
    country: str


class PaymentMethodObject(BaseModel):
    """A card saved for a customer."""

    id: str
    type: str
    customer: str | None
    billing_name: str | None
    card: Card


class PaymentError(BaseModel):
    """Why the last payment attempt failed."""

    code: str
    decline_code: str | None
    message: str


class ChargeObject(BaseModel):
    """A charge attempt of a PaymentIntent."""

    id: str
    amount: int
    amount_captured: int
    amount_refunded: int = Field(description="refunds plus any uncaptured amount that was released")
    currency: str
    status: str
    paid: bool
    captured: bool
    refunded: bool = Field(description="true once the whole amount is refunded")
    disputed: bool
    failure_code: str | None
    failure_message: str | None
    payment_method: str
    created: str


class PaymentIntentObject(BaseModel):
    """A PaymentIntent with its latest charge expanded."""

    id: str
    amount: int
    amount_capturable: int
    amount_received: int
    currency: str
    customer: str | None
    payment_method: str | None
    status: str
    capture_method: str
    description: str | None
    receipt_email: str | None
    invoice: str | None
    next_action: str | None = Field(description="use_stripe_sdk while the customer must authenticate (3-D Secure)")
    last_payment_error: PaymentError | None
    cancellation_reason: str | None
    latest_charge: ChargeObject | None
    created: str


class RefundObject(BaseModel):
    """A refund of (part of) a charge."""

    id: str
    amount: int
    currency: str
    charge: str
    payment_intent: str
    reason: str | None
    status: str
    created: str


class Recurring(BaseModel):
    """The billing interval of a recurring price."""

    interval: str
    interval_count: int


class PriceObject(BaseModel):
    """A price of a product (its amount never changes: create a new price instead)."""

    id: str
    product: str
    product_name: str
    unit_amount: int
    currency: str
    type: str
    recurring: Recurring | None
    nickname: str | None
    lookup_key: str | None
    active: bool


class CancellationDetails(BaseModel):
    """Why a subscription was canceled."""

    feedback: str | None
    comment: str | None


class SubscriptionObject(BaseModel):
    """A subscription to one recurring price."""

    id: str
    customer: str
    status: str
    price: str
    product_name: str
    quantity: int
    currency: str
    collection_method: str
    days_until_due: int | None
    default_payment_method: str | None
    cancel_at_period_end: bool
    current_period_start: str
    current_period_end: str
    trial_end: str | None
    canceled_at: str | None
    cancellation_details: CancellationDetails
    latest_invoice: str | None
    created: str


class InvoiceLineObject(BaseModel):
    """One line of an invoice."""

    id: str
    description: str
    price: str | None
    quantity: int
    unit_amount: int
    amount: int


class InvoiceObject(BaseModel):
    """An invoice with its lines."""

    id: str
    number: str | None
    customer: str
    subscription: str | None
    status: str
    currency: str
    collection_method: str
    due_date: str | None
    description: str | None
    subtotal: int
    total: int
    starting_balance: int
    ending_balance: int | None
    amount_due: int
    amount_paid: int
    amount_remaining: int
    attempt_count: int
    paid_out_of_band: bool
    payment_intent: str | None
    last_payment_error: PaymentError | None = Field(description="from the invoice's PaymentIntent, if it failed")
    lines: list[InvoiceLineObject]
    created: str


class InvoiceLineInput(BaseModel):
    """A line to bill: a one-time price, or a custom amount with a description."""

    price: str | None = Field(None, description="a one-time price ID")
    amount: int | None = Field(
        None, ge=1, le=99_999_999, description="custom unit amount in minor units (when no price is given)"
    )
    description: str | None = Field(None, description="required for a custom amount; defaults to the product name")
    quantity: int = Field(1, ge=1)


T = TypeVar("T")


def page_of(
    rows: list[dict[str, Any]], limit: int, cursor: str | None, build: Callable[[dict[str, Any]], T]
) -> Page[T]:
    """One page of stored rows as API objects: only the rows on the page are built."""
    page = paginate(rows, limit, cursor)
    return Page[Any](results=[build(row) for row in page.results], next_cursor=page.next_cursor, has_more=page.has_more)


def payment_method_object(row: dict[str, Any]) -> PaymentMethodObject:
    """A stored card as the API shows it."""
    return PaymentMethodObject(
        id=row["id"],
        type=row["type"],
        customer=row["customer"],
        billing_name=row["billing_name"],
        card=Card(**{k: row[k] for k in Card.model_fields}),
    )


def payment_intent_object(db: Database, row: dict[str, Any]) -> PaymentIntentObject:
    """A PaymentIntent with its latest charge expanded and next_action derived from its status."""
    charge = db.find(charges, id=row["latest_charge"]) if row["latest_charge"] else []
    return PaymentIntentObject(
        **{k: row[k] for k in PaymentIntentObject.model_fields if k in row and k != "latest_charge"},
        next_action="use_stripe_sdk" if row["status"] == "requires_action" else None,
        latest_charge=ChargeObject(**charge[0]) if charge else None,
    )


def price_object(db: Database, row: dict[str, Any]) -> PriceObject:
    """A price with its product name and recurring interval."""
    recurring = None
    if row["type"] == "recurring":
        recurring = Recurring(interval=row["recurring_interval"], interval_count=row["recurring_interval_count"])
    return PriceObject(
        **{k: row[k] for k in PriceObject.model_fields if k in row and k != "recurring"},
        product_name=db.get(products, row["product"], "Product")["name"],
        recurring=recurring,
    )


def subscription_object(db: Database, row: dict[str, Any]) -> SubscriptionObject:
    """A subscription with its product name and cancellation details."""
    price = db.get(prices, row["price"], "Price")
    return SubscriptionObject(
        **{k: row[k] for k in SubscriptionObject.model_fields if k in row},
        product_name=db.get(products, price["product"], "Product")["name"],
        cancellation_details=CancellationDetails(
            feedback=row["cancellation_feedback"], comment=row["cancellation_comment"]
        ),
    )


def invoice_object(db: Database, row: dict[str, Any]) -> InvoiceObject:
    """An invoice with its lines and the last payment error of its PaymentIntent."""
    lines = db.find(invoice_lines, invoice=row["id"])
    error = None
    if row["payment_intent"] and row["status"] in ("open", "uncollectible"):
        error = db.get(payment_intents, row["payment_intent"], "PaymentIntent")["last_payment_error"]
    return InvoiceObject(
        **{k: row[k] for k in InvoiceObject.model_fields if k in row},
        last_payment_error=error,
        lines=[InvoiceLineObject(**line) for line in lines],
    )
