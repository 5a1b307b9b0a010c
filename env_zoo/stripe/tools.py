"""Stripe API tools: customers, cards, payment intents, refunds, prices, subscriptions, invoices and 3-D Secure."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText
from envfactory_gym.values import iso_timestamp

from . import engine
from .objects import (
    CustomerObject,
    InvoiceLineInput,
    InvoiceObject,
    PaymentIntentObject,
    PaymentMethodObject,
    PriceObject,
    RefundObject,
    SubscriptionObject,
    invoice_object,
    page_of,
    payment_intent_object,
    payment_method_object,
    price_object,
    subscription_object,
)
from .rules import (
    CANCELABLE,
    CONFIRMABLE,
    check_currency_of,
    check_due_days,
    check_minimum,
    invoice_lines,
    money,
    owned_payment_method,
    subscribable_price,
    usable_card,
)
from .schema import (
    charges,
    customers,
    invoices,
    payment_intents,
    payment_methods,
    prices,
    refunds,
    subscriptions,
)

Currency = Annotated[
    Literal["usd", "eur", "gbp", "cad", "aud", "chf", "jpy"],
    BeforeValidator(lambda code: code.strip().lower() if isinstance(code, str) else code),
    ErrorText("Invalid currency. This account can charge in: usd, eur, gbp, cad, aud, chf, jpy"),
]
Limit = Annotated[int, Field(ge=1, le=100), ErrorText("Limit can range between 1 and 100.")]
Amount = Annotated[
    int,
    Field(ge=1, le=99_999_999),
    ErrorText("Amount must be a positive integer in the currency's smallest unit, no more than 99999999"),
]
Quantity = Annotated[int, Field(ge=1), ErrorText("Invalid positive integer: quantity must be at least 1")]
TrialDays = Annotated[int, Field(ge=1, le=730), ErrorText("trial_period_days must be between 1 and 730")]
DueDays = Annotated[int, Field(ge=0, le=365), ErrorText("days_until_due must be between 0 and 365")]
InvoiceLines = Annotated[list[InvoiceLineInput], Field(min_length=1), ErrorText("An invoice needs at least one line")]
CardLast4 = Annotated[str, Field(pattern=r"^\d{4}$"), ErrorText("card_last4 must be the card's last 4 digits")]
SEARCHED = ("name", "email", "phone", "description")
CollectionMethod = Literal["charge_automatically", "send_invoice"]
CancellationReason = Literal["duplicate", "fraudulent", "requested_by_customer", "abandoned"]
RefundReason = Literal["duplicate", "fraudulent", "requested_by_customer"]
CancellationFeedback = Literal[
    "customer_service",
    "low_quality",
    "missing_features",
    "other",
    "switched_service",
    "too_complex",
    "too_expensive",
    "unused",
]


# ---------------------------------------------------------------- customers and cards


@tool(read_only=True)
def search_customers(
    db: Database, query: str = "", limit: Limit = 10, starting_after: str | None = None
) -> Page[CustomerObject]:
    """Search customers by name, email, phone or description (case-insensitive substring), newest first.

    Args:
        query: Text to look for; empty lists every customer.
        limit: Customers per page, 1 to 100.
        starting_after: The next_cursor of the previous page.
    """
    needle = query.strip().casefold()
    where, params = "", []
    if needle.isascii():  # SQLite's LIKE folds ASCII case only; the exact test below decides
        escaped = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        where = " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for column in SEARCHED)
        params = [escaped] * len(SEARCHED)
    rows = db.select(customers, where, params, order_by="created DESC")
    found = [r for r in rows if any(needle in (r[k] or "").casefold() for k in SEARCHED)]
    return page_of(found, limit, starting_after, lambda r: CustomerObject(**r))


@tool(read_only=True)
def list_payment_methods(db: Database, customer: str) -> list[PaymentMethodObject]:
    """List the cards saved for a customer (brand, last 4 digits, expiry), newest first.

    Args:
        customer: The customer's ID (cus_...).
    """
    db.get(customers, customer, "Customer")
    rows = db.find(payment_methods, customer=customer, order_by=[payment_methods.c.created.desc()])
    return [payment_method_object(r) for r in rows]


# ---------------------------------------------------------------- payment intents


@tool(read_only=True)
def list_payment_intents(
    db: Database,
    customer: str | None = None,
    status: Literal[
        "requires_payment_method",
        "requires_confirmation",
        "requires_action",
        "processing",
        "requires_capture",
        "canceled",
        "succeeded",
    ]
    | None = None,
    limit: Limit = 10,
    starting_after: str | None = None,
) -> Page[PaymentIntentObject]:
    """List PaymentIntents, newest first, with their latest charge (refunded amounts included).

    Args:
        customer: Only this customer's payments.
        status: Only payments in this status.
        limit: Results per page, 1 to 100.
        starting_after: The next_cursor of the previous page.
    """
    if customer is not None:
        db.get(customers, customer, "Customer")
    rows = db.find(
        payment_intents, order_by=[payment_intents.c.created.desc()], **given(customer=customer, status=status)
    )
    return page_of(rows, limit, starting_after, lambda r: payment_intent_object(db, r))


@tool()
def create_payment_intent(
    db: Database,
    amount: Amount,
    currency: Currency,
    customer: str | None = None,
    payment_method: str | None = None,
    description: str | None = None,
    capture_method: Literal["automatic", "manual"] = "automatic",
    confirm: bool = False,
    receipt_email: str | None = None,
) -> PaymentIntentObject:
    """Create a PaymentIntent to collect a one-off payment, optionally confirming it at once.

    Without a payment method it waits in requires_payment_method; with one, in requires_confirmation (or, with
    confirm=true, it is charged straight away). capture_method=manual only authorizes the card (capture later).

    Args:
        amount: Amount in the currency's smallest unit (cents; yen for jpy), e.g. 2500 for $25.00.
        currency: Three-letter ISO code (any case).
        customer: The customer paying (required to use a card saved for that customer).
        payment_method: The card to charge (pm_...).
        description: What the payment is for; shown in the Dashboard.
        capture_method: automatic charges at confirmation; manual places a hold to capture later.
        confirm: Confirm (charge) immediately; requires a payment_method.
        receipt_email: Where to email the receipt.
    """
    check_minimum(amount, currency)
    if customer is not None:
        db.get(customers, customer, "Customer")
    if payment_method is not None:
        usable_card(db, payment_method, customer)
    if confirm and payment_method is None:
        raise InvalidRequest("You cannot confirm this PaymentIntent because it's missing a payment method.")
    row = db.insert(
        payment_intents,
        id=db.new_id(payment_intents, "pi_"),
        amount=amount,
        amount_capturable=0,
        amount_received=0,
        currency=currency,
        customer=customer,
        payment_method=payment_method,
        status="requires_confirmation" if payment_method else "requires_payment_method",
        capture_method=capture_method,
        description=description,
        receipt_email=receipt_email,
        invoice=None,
        latest_charge=None,
        last_payment_error=None,
        cancellation_reason=None,
        canceled_at=None,
        created=db.now_iso(),
    )
    if confirm:
        row = engine.attempt_payment(db, row)
    return payment_intent_object(db, row)


@tool()
def confirm_payment_intent(db: Database, payment_intent: str, payment_method: str | None = None) -> PaymentIntentObject:
    """Confirm a PaymentIntent: charge its card (or a new one, e.g. after a decline).

    The result is succeeded (or requires_capture for manual capture), requires_action when the customer must
    complete 3-D Secure, or requires_payment_method with last_payment_error when the card is declined.

    Args:
        payment_intent: The PaymentIntent's ID (pi_...).
        payment_method: A card to use instead of the one already set.
    """
    pi = db.get(payment_intents, payment_intent, "PaymentIntent")
    if pi["status"] == "requires_action":
        raise Conflict(
            "This PaymentIntent is waiting for the customer to complete 3D Secure authentication; they must finish "
            "it (or you can cancel the PaymentIntent)."
        )
    if pi["status"] not in CONFIRMABLE:
        raise Conflict(
            f"You cannot confirm this PaymentIntent because it has a status of {pi['status']}. Only a PaymentIntent "
            f"with one of the following statuses may be confirmed: {', '.join(CONFIRMABLE)}."
        )
    if payment_method is not None:
        usable_card(db, payment_method, pi["customer"])
        pi = db.update(payment_intents, payment_intent, payment_method=payment_method)
    if pi["payment_method"] is None:
        raise InvalidRequest("You cannot confirm this PaymentIntent because it's missing a payment method.")
    return payment_intent_object(db, engine.attempt_payment(db, pi))


@tool()
def capture_payment_intent(
    db: Database,
    payment_intent: str,
    amount_to_capture: Annotated[int, Field(ge=1), ErrorText("amount_to_capture must be a positive integer")]
    | None = None,
) -> PaymentIntentObject:
    """Capture the funds of an authorized (requires_capture) PaymentIntent, in full or in part.

    An uncaptured remainder is released back to the cardholder and cannot be captured later.

    Args:
        payment_intent: The PaymentIntent's ID (pi_...).
        amount_to_capture: Minor units to capture; defaults to the whole authorized amount.
    """
    pi = db.get(payment_intents, payment_intent, "PaymentIntent")
    if pi["status"] != "requires_capture":
        raise Conflict(
            f"This PaymentIntent could not be captured because it has a status of {pi['status']}. Only a "
            "PaymentIntent with one of the following statuses may be captured: requires_capture."
        )
    amount = pi["amount_capturable"] if amount_to_capture is None else amount_to_capture
    if amount > pi["amount_capturable"]:
        raise InvalidRequest(
            f"The amount to capture ({money(amount, pi['currency'])}) is greater than the amount capturable "
            f"({money(pi['amount_capturable'], pi['currency'])})."
        )
    charge = db.get(charges, pi["latest_charge"], "Charge")
    db.update(
        charges,
        charge["id"],
        captured=True,
        amount_captured=amount,
        amount_refunded=charge["amount"] - amount,
    )
    row = db.update(payment_intents, payment_intent, status="succeeded", amount_received=amount, amount_capturable=0)
    return payment_intent_object(db, row)


@tool()
def cancel_payment_intent(
    db: Database, payment_intent: str, cancellation_reason: CancellationReason | None = None
) -> PaymentIntentObject:
    """Cancel a PaymentIntent that has not succeeded; an authorization hold is released.

    Args:
        payment_intent: The PaymentIntent's ID (pi_...).
        cancellation_reason: duplicate, fraudulent, requested_by_customer or abandoned.
    """
    pi = db.get(payment_intents, payment_intent, "PaymentIntent")
    if pi["status"] not in CANCELABLE:
        raise Conflict(
            f"You cannot cancel this PaymentIntent because it has a status of {pi['status']}. Only a PaymentIntent "
            f"with one of the following statuses may be canceled: {', '.join(CANCELABLE)}."
        )
    if pi["invoice"] is not None:
        raise Conflict(
            "You cannot cancel this PaymentIntent because it was created by an invoice. Void the invoice instead."
        )
    if pi["status"] == "requires_capture":
        charge = db.get(charges, pi["latest_charge"], "Charge")
        db.update(charges, charge["id"], amount_refunded=charge["amount"], refunded=True)
    row = db.update(
        payment_intents,
        payment_intent,
        status="canceled",
        amount_capturable=0,
        cancellation_reason=cancellation_reason,
        canceled_at=db.now_iso(),
    )
    return payment_intent_object(db, row)


@tool()
def create_refund(
    db: Database,
    payment_intent: str,
    amount: Annotated[int, Field(ge=1), ErrorText("Refund amount must be a positive integer.")] | None = None,
    reason: RefundReason | None = None,
) -> RefundObject:
    """Refund a succeeded payment, fully or partly; refunds together never exceed the captured amount.

    Args:
        payment_intent: The PaymentIntent to refund (pi_...).
        amount: Minor units to refund; defaults to everything not yet refunded.
        reason: duplicate, fraudulent or requested_by_customer.
    """
    pi = db.get(payment_intents, payment_intent, "PaymentIntent")
    if pi["status"] == "requires_capture":
        raise Conflict(
            "This PaymentIntent has not been captured. Cancel it to release the authorization instead of refunding."
        )
    if pi["status"] != "succeeded":
        raise Conflict(f"This PaymentIntent does not have a successful charge to refund (status: {pi['status']}).")
    charge = db.get(charges, pi["latest_charge"], "Charge")
    if charge["disputed"]:
        raise Conflict(f"Charge {charge['id']} has been charged back; you cannot refund a disputed charge.")
    remaining = charge["amount"] - charge["amount_refunded"]
    if remaining <= 0:
        raise Conflict(f"Charge {charge['id']} has already been refunded.")
    refund_amount = remaining if amount is None else amount
    if refund_amount > remaining:
        raise InvalidRequest(
            f"Refund amount ({money(refund_amount, charge['currency'])}) is greater than unrefunded amount on "
            f"charge ({money(remaining, charge['currency'])})"
        )
    refunded = charge["amount_refunded"] + refund_amount
    db.update(charges, charge["id"], amount_refunded=refunded, refunded=refunded >= charge["amount"])
    row = db.insert(
        refunds,
        id=db.new_id(refunds, "re_"),
        charge=charge["id"],
        payment_intent=payment_intent,
        amount=refund_amount,
        currency=charge["currency"],
        reason=reason,
        status="succeeded",
        created=db.now_iso(),
    )
    return RefundObject(**row)


# ---------------------------------------------------------------- prices


@tool(read_only=True)
def list_prices(
    db: Database,
    active: bool | None = None,
    type: Literal["one_time", "recurring"] | None = None,
    currency: Currency | None = None,
    limit: Limit = 10,
    starting_after: str | None = None,
) -> Page[PriceObject]:
    """List the account's prices with their product names, sorted by product then amount.

    Args:
        active: Only active (true) or only archived (false) prices.
        type: Only one_time or only recurring prices.
        currency: Only prices in this currency.
        limit: Results per page, 1 to 100.
        starting_after: The next_cursor of the previous page.
    """
    rows = db.find(
        prices, order_by=[prices.c.product, prices.c.unit_amount], **given(active=active, type=type, currency=currency)
    )
    return page_of(rows, limit, starting_after, lambda r: price_object(db, r))


# ---------------------------------------------------------------- subscriptions


@tool(read_only=True)
def list_subscriptions(
    db: Database,
    customer: str | None = None,
    status: Literal["incomplete", "incomplete_expired", "trialing", "active", "past_due", "unpaid", "canceled", "all"]
    | None = None,
    price: str | None = None,
    limit: Limit = 10,
    starting_after: str | None = None,
) -> Page[SubscriptionObject]:
    """List subscriptions, newest first. Canceled ones are left out unless status is canceled or all.

    Args:
        customer: Only this customer's subscriptions.
        status: Only this status; all includes canceled subscriptions.
        price: Only subscriptions to this price.
        limit: Results per page, 1 to 100.
        starting_after: The next_cursor of the previous page.
    """
    conditions = []
    if customer is not None:
        db.get(customers, customer, "Customer")
        conditions.append(subscriptions.c.customer == customer)
    if price is not None:
        conditions.append(subscriptions.c.price == price)
    if status is None:
        conditions.append(subscriptions.c.status != "canceled")
    elif status != "all":
        conditions.append(subscriptions.c.status == status)
    rows = db.find(subscriptions, *conditions, order_by=[subscriptions.c.created.desc()])
    return page_of(rows, limit, starting_after, lambda r: subscription_object(db, r))


@tool()
def create_subscription(
    db: Database,
    customer: str,
    price: str,
    quantity: Quantity = 1,
    trial_period_days: TrialDays | None = None,
    default_payment_method: str | None = None,
    collection_method: CollectionMethod = "charge_automatically",
    days_until_due: DueDays | None = None,
) -> SubscriptionObject:
    """Subscribe a customer to a recurring price.

    With a trial the subscription starts trialing and nothing is charged. Otherwise the first invoice is
    finalized at once and, for charge_automatically, paid with the default payment method: the subscription is
    active if that succeeds and incomplete if the card is declined or needs 3-D Secure.

    Args:
        customer: The customer's ID (cus_...).
        price: A recurring, active price (price_...).
        quantity: Number of units (seats), at least 1.
        trial_period_days: Days of free trial before the first charge (1 to 730).
        default_payment_method: Card to charge for this subscription; defaults to the customer's default.
        collection_method: charge_automatically, or send_invoice to email invoices the customer pays.
        days_until_due: Days the customer has to pay each invoice (send_invoice only, required there).
    """
    cust = db.get(customers, customer, "Customer")
    price_row = subscribable_price(db, price)
    check_due_days(collection_method, days_until_due)
    if default_payment_method is not None:
        owned_payment_method(db, default_payment_method, customer)
    card = default_payment_method or cust["default_payment_method"]
    if collection_method == "charge_automatically" and trial_period_days is None and card is None:
        raise InvalidRequest(
            "This customer has no attached payment source or default payment method. Please consider adding a "
            "default payment method."
        )
    check_currency_of(cust, price_row["currency"])
    if cust["currency"] is None:
        cust = db.update(customers, customer, currency=price_row["currency"])
    now = db.now()
    interval, count = price_row["recurring_interval"], price_row["recurring_interval_count"]
    trial_end = engine.add_interval(now, "day", trial_period_days) if trial_period_days else None
    period_end = trial_end or engine.add_interval(now, interval, count)
    sub = db.insert(
        subscriptions,
        id=db.new_id(subscriptions, "sub_"),
        customer=customer,
        status="trialing" if trial_end else "incomplete",
        price=price,
        quantity=quantity,
        currency=price_row["currency"],
        collection_method=collection_method,
        days_until_due=days_until_due,
        default_payment_method=default_payment_method,
        cancel_at_period_end=False,
        current_period_start=iso_timestamp(now),
        current_period_end=iso_timestamp(period_end),
        trial_end=iso_timestamp(trial_end) if trial_end else None,
        canceled_at=None,
        cancellation_feedback=None,
        cancellation_comment=None,
        latest_invoice=None,
        created=iso_timestamp(now),
    )
    if trial_end is None:
        engine.bill_first_period(db, cust, sub, price_row, card)
    return subscription_object(db, db.get(subscriptions, sub["id"], "Subscription"))


@tool()
def update_subscription(
    db: Database,
    subscription: str,
    price: str | None = None,
    quantity: Quantity | None = None,
    cancel_at_period_end: bool | None = None,
    default_payment_method: str | None = None,
) -> SubscriptionObject:
    """Change a subscription's price or quantity (from the next period, no proration), schedule or undo its
    cancellation at the end of the current period, or change the card it is charged to.

    Args:
        subscription: The subscription's ID (sub_...).
        price: A new recurring, active price in the same currency.
        quantity: New number of units (seats), at least 1.
        cancel_at_period_end: true to cancel when the current period ends; false to keep it going.
        default_payment_method: A card of the customer to charge from now on.
    """
    sub = db.get(subscriptions, subscription, "Subscription")
    if sub["status"] in ("canceled", "incomplete_expired"):
        raise Conflict(f"A {sub['status']} subscription can't be updated. Create a new subscription instead.")
    changes: dict[str, Any] = {}
    if price is not None:
        new = db.get(prices, price, "Price")
        if not new["active"] or new["type"] != "recurring":
            raise InvalidRequest(f"The price {price} must be an active recurring price.")
        if new["currency"] != sub["currency"]:
            raise InvalidRequest(
                f"The price {price} is in {new['currency']} but the subscription is billed in {sub['currency']}; "
                "a subscription cannot change currency."
            )
        changes["price"] = price
    if quantity is not None:
        changes["quantity"] = quantity
    if cancel_at_period_end is not None:
        changes["cancel_at_period_end"] = cancel_at_period_end
    if default_payment_method is not None:
        owned_payment_method(db, default_payment_method, sub["customer"])
        changes["default_payment_method"] = default_payment_method
    if not changes:
        raise InvalidRequest(
            "Nothing to update: give a price, quantity, cancel_at_period_end or default_payment_method"
        )
    return subscription_object(db, db.update(subscriptions, subscription, **changes))


@tool()
def cancel_subscription(
    db: Database,
    subscription: str,
    feedback: CancellationFeedback | None = None,
    comment: str | None = None,
) -> SubscriptionObject:
    """Cancel a subscription immediately (no refund of the current period). To stop at the end of the period
    instead, use update_subscription with cancel_at_period_end.

    Args:
        subscription: The subscription's ID (sub_...).
        feedback: The customer's reason, one of Stripe's cancellation feedback values.
        comment: A free-text note on why the customer canceled.
    """
    sub = db.get(subscriptions, subscription, "Subscription")
    if sub["status"] == "canceled":
        raise Conflict(f"Subscription {subscription} is already canceled.")
    row = db.update(
        subscriptions,
        subscription,
        status="canceled",
        canceled_at=db.now_iso(),
        cancellation_feedback=feedback,
        cancellation_comment=comment,
    )
    return subscription_object(db, row)


# ---------------------------------------------------------------- invoices


@tool(read_only=True)
def list_invoices(
    db: Database,
    customer: str | None = None,
    status: Literal["draft", "open", "paid", "void", "uncollectible"] | None = None,
    subscription: str | None = None,
    limit: Limit = 10,
    starting_after: str | None = None,
) -> Page[InvoiceObject]:
    """List invoices with their lines, newest first.

    Args:
        customer: Only this customer's invoices.
        status: Only invoices in this status.
        subscription: Only invoices of this subscription.
        limit: Results per page, 1 to 100.
        starting_after: The next_cursor of the previous page.
    """
    if customer is not None:
        db.get(customers, customer, "Customer")
    rows = db.find(
        invoices,
        order_by=[invoices.c.created.desc()],
        **given(customer=customer, status=status, subscription=subscription),
    )
    return page_of(rows, limit, starting_after, lambda r: invoice_object(db, r))


@tool()
def create_invoice(
    db: Database,
    customer: str,
    lines: InvoiceLines,
    currency: Currency | None = None,
    collection_method: CollectionMethod = "charge_automatically",
    days_until_due: DueDays | None = None,
    description: str | None = None,
) -> InvoiceObject:
    """Create a draft invoice for one-off items. Finalize it to send or charge it.

    Args:
        customer: The customer's ID (cus_...).
        lines: What to bill: one-time prices and/or custom amounts with a description.
        currency: Currency for custom-amount lines; defaults to the prices' or the customer's currency.
        collection_method: charge_automatically (charge the default card) or send_invoice (customer pays).
        days_until_due: Days the customer has to pay (send_invoice only, required there).
        description: A memo shown on the invoice.
    """
    cust = db.get(customers, customer, "Customer")
    check_due_days(collection_method, days_until_due)
    resolved, currencies = invoice_lines(db, lines)
    if currency is not None:
        currencies.add(currency)
    elif not currencies and cust["currency"] is not None:
        currencies.add(cust["currency"])
    if len(currencies) != 1:
        raise InvalidRequest(
            "All lines of an invoice must share one currency" if currencies else "currency is required"
        )
    code = currencies.pop()
    due = None
    if days_until_due is not None:
        due = engine.add_interval(db.now(), "day", days_until_due).strftime("%Y-%m-%d")
    row = engine.create_draft(
        db,
        cust,
        code,
        resolved,
        subscription=None,
        collection_method=collection_method,
        due_date=due,
        description=description,
    )
    return invoice_object(db, row)


@tool()
def finalize_invoice(db: Database, invoice: str) -> InvoiceObject:
    """Finalize a draft invoice: it gets its number and becomes open (payable, no longer editable).

    The customer's balance is applied: a credit lowers the amount due, and an invoice fully covered by credit is
    paid at once.

    Args:
        invoice: The invoice's ID (in_...).
    """
    row = db.get(invoices, invoice, "Invoice")
    if row["status"] != "draft":
        raise Conflict(f"This invoice is already finalized (status: {row['status']}); only drafts can be finalized.")
    return invoice_object(db, engine.finalize(db, row))


@tool()
def pay_invoice(
    db: Database, invoice: str, payment_method: str | None = None, paid_out_of_band: bool = False
) -> InvoiceObject:
    """Collect an open (or uncollectible) invoice now: charge a card, or record a payment made outside Stripe.

    Charging uses the given card, else the subscription's card, else the customer's default. A decline leaves
    the invoice open with attempt_count raised and last_payment_error set.

    Args:
        invoice: The invoice's ID (in_...).
        payment_method: A card of the customer to charge.
        paid_out_of_band: Mark it paid without charging (e.g. paid by bank transfer or check).
    """
    row = db.get(invoices, invoice, "Invoice")
    if row["status"] == "draft":
        raise Conflict("You can only pay an invoice that has been finalized. Finalize the draft first.")
    if row["status"] == "paid":
        raise Conflict(f"Invoice {row['number']} is already paid.")
    if row["status"] == "void":
        raise Conflict(f"Invoice {row['number']} is void and cannot be paid.")
    if paid_out_of_band:
        if payment_method is not None:
            raise InvalidRequest("Give either payment_method or paid_out_of_band, not both")
        return invoice_object(db, engine.mark_invoice_paid(db, row, row["amount_remaining"], out_of_band=True))
    card = payment_method
    if card is None and row["subscription"] is not None:
        card = db.get(subscriptions, row["subscription"], "Subscription")["default_payment_method"]
    if card is None:
        card = db.get(customers, row["customer"], "Customer")["default_payment_method"]
    if card is None:
        raise InvalidRequest(
            "This customer has no default payment method; pass a payment_method or mark the invoice paid out of band."
        )
    owned_payment_method(db, card, row["customer"])
    return invoice_object(db, engine.collect_invoice(db, row, card))


@tool()
def void_invoice(db: Database, invoice: str) -> InvoiceObject:
    """Void a finalized invoice that should never have been issued (open or uncollectible only).

    Args:
        invoice: The invoice's ID (in_...).
    """
    row = db.get(invoices, invoice, "Invoice")
    if row["status"] == "draft":
        raise Conflict("You can only void an invoice that has been finalized; a draft can simply be deleted.")
    if row["status"] not in ("open", "uncollectible"):
        raise Conflict(f"You cannot void an invoice with status {row['status']}.")
    if row["payment_intent"]:
        pi = db.get(payment_intents, row["payment_intent"], "PaymentIntent")
        if pi["status"] in CANCELABLE:
            db.update(payment_intents, pi["id"], status="canceled", canceled_at=db.now_iso())
    updated = db.update(invoices, invoice, status="void", amount_remaining=0, status_transitioned_at=db.now_iso())
    engine.refresh_delinquency(db, row["customer"])
    return invoice_object(db, updated)


@tool()
def mark_invoice_uncollectible(db: Database, invoice: str) -> InvoiceObject:
    """Write off an open invoice as bad debt (status uncollectible); it can still be paid or voided later.

    Args:
        invoice: The invoice's ID (in_...).
    """
    row = db.get(invoices, invoice, "Invoice")
    if row["status"] != "open":
        raise Conflict(f"Only open invoices can be marked uncollectible; this one is {row['status']}.")
    updated = db.update(invoices, invoice, status="uncollectible", status_transitioned_at=db.now_iso())
    engine.refresh_delinquency(db, row["customer"])
    return invoice_object(db, updated)


# ---------------------------------------------------------------- the cardholder


@tool(user_only=True)
def authenticate_3ds(db: Database, card_last4: CardLast4, amount: Amount, approve: bool = True) -> PaymentIntentObject:
    """(Cardholder only, in their banking app) Complete or refuse the 3-D Secure challenge of a pending payment.

    Args:
        card_last4: Last four digits of the card the bank asks about.
        amount: The amount shown in the challenge, in minor units.
        approve: true to approve the payment, false to refuse it.
    """
    waiting = [
        pi
        for pi in db.find(payment_intents, status="requires_action", amount=amount)
        if db.get(payment_methods, pi["payment_method"], "PaymentMethod")["last4"] == card_last4
    ]
    if not waiting:
        raise NotFound(f"No payment of {amount} waiting for authentication on the card ending {card_last4}")
    pi = waiting[-1]
    row = engine.attempt_payment(db, pi, authenticated=True) if approve else engine.fail_authentication(db, pi)
    return payment_intent_object(db, row)
