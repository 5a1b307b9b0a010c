"""Duffel Payments: a payment intent collects money from the customer's card (the customer pays in Duffel's card
form, then you confirm it and the net amount reaches the balance), and refunds send some or all of it back."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .rules import CURRENCY, get, invalid_state, iso, minor, money, new_id, validation
from .schema import payment_intents, refunds

FEE_PER_MILLE = 29  # Duffel Payments' card fee: 2.9%
DECLINED_CARDS = {
    "4000000000000002": "Your card was declined.",
    "4000000000009995": "Your card has insufficient funds.",
}


def create_intent(db: Database, amount: str, currency: str) -> dict[str, Any]:
    """A payment intent waiting for the customer's card."""
    if currency.upper() != CURRENCY:
        raise validation("currency", f"Payment intents are collected in {CURRENCY}, the currency of your balance.")
    value = minor(amount, "amount")
    if value < 100:
        raise validation("amount", "The amount must be at least 1.00.")
    return db.insert(
        payment_intents,
        id=new_id(db, payment_intents, "pit"),
        amount=value,
        currency=CURRENCY,
        status="requires_payment_method",
        card_network=None,
        card_last_four_digits=None,
        card_country_code=None,
        fees_amount=None,
        net_amount=None,
        net_currency=None,
        last_payment_error=None,
        confirmed_at=None,
        created_at=db.now_iso(),
    )


def _network(number: str) -> str:
    if number.startswith("4"):
        return "visa"
    if number[:2] in ("34", "37"):
        return "american_express"
    return "mastercard"


def pay_by_card(
    db: Database, amount: str, currency: str, card_number: str, expiry_month: int, expiry_year: int
) -> dict[str, Any]:
    """The customer pays the newest payment intent of this amount that is waiting for a card."""
    value = minor(amount, "amount")
    waiting = db.find(payment_intents, status="requires_payment_method", amount=value, currency=currency.upper())
    if not waiting:
        raise NotFound(f"There is no payment of {money(value)} {currency.upper()} waiting for a card.")
    intent = max(waiting, key=lambda r: (r["created_at"], r["id"]))
    now = db.now()
    if (expiry_year, expiry_month) < (now.year, now.month):
        raise invalid_state("card_declined", "Your card has expired.")
    if card_number in DECLINED_CARDS:
        raise invalid_state("card_declined", DECLINED_CARDS[card_number])
    return db.update(
        payment_intents,
        intent["id"],
        status="requires_confirmation",
        card_network=_network(card_number),
        card_last_four_digits=card_number[-4:],
        card_country_code="GB",
        last_payment_error=None,
    )


def confirm_intent(db: Database, intent_id: str) -> dict[str, Any]:
    """Confirm a payment intent the customer has paid: the net amount, after Duffel's fee, reaches the balance."""
    intent = get(db, payment_intents, intent_id, "Payment intent")
    if intent["status"] == "succeeded":
        raise invalid_state("already_confirmed", "This payment intent has already been confirmed.")
    if intent["status"] != "requires_confirmation":
        raise invalid_state(
            "invalid_state_error",
            "The customer hasn't paid this payment intent yet (status "
            f"{intent['status']}); it can be confirmed once they have.",
        )
    fees = (intent["amount"] * FEE_PER_MILLE + 500) // 1000
    return db.update(
        payment_intents,
        intent_id,
        status="succeeded",
        fees_amount=fees,
        net_amount=intent["amount"] - fees,
        net_currency=CURRENCY,
        confirmed_at=db.now_iso(),
    )


def refund(db: Database, intent_id: str, amount: str, currency: str) -> dict[str, Any]:
    """Refund part or all of a succeeded payment intent to the customer's card; refunds never exceed what was paid."""
    intent = get(db, payment_intents, intent_id, "Payment intent")
    if intent["status"] != "succeeded":
        raise invalid_state("invalid_state_error", "Only a succeeded payment intent can be refunded.")
    if currency.upper() != intent["currency"]:
        raise validation("currency", f"The refund currency must be {intent['currency']}, the payment intent's.")
    value = minor(amount, "amount")
    left = intent["amount"] - sum(r["amount"] for r in refunded(db, intent_id))
    if value <= 0:
        raise validation("amount", "The refund amount must be greater than 0.00.")
    if value > left:
        raise validation(
            "amount", f"The refund amount can't be more than what is left to refund, {money(left)} {CURRENCY}."
        )
    return db.insert(
        refunds,
        id=new_id(db, refunds, "ref"),
        payment_intent_id=intent_id,
        amount=value,
        currency=CURRENCY,
        net_amount=value,
        net_currency=CURRENCY,
        status="succeeded",
        destination="original_form_of_payment",
        created_at=iso(db.now()),
    )


def refunded(db: Database, intent_id: str) -> list[dict[str, Any]]:
    """A payment intent's refunds, oldest first."""
    return sorted(db.find(refunds, payment_intent_id=intent_id), key=lambda r: (r["created_at"], r["id"]))
