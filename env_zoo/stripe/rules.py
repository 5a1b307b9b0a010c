"""Stripe's business rules that the tools check before they move money: which card may pay for whom, minimum
charge amounts, which prices a subscription or an invoice line accepts, and how amounts read in error texts."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, InvalidRequest, values

from .schema import payment_methods, prices, products

MINIMUM_CHARGE = {"usd": 50, "eur": 50, "gbp": 30, "cad": 50, "aud": 50, "chf": 50, "jpy": 50}
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "CAD": "CA$", "AUD": "A$", "CHF": "CHF ", "JPY": "¥"}
CANCELABLE = ("requires_payment_method", "requires_capture", "requires_confirmation", "requires_action")
CONFIRMABLE = ("requires_payment_method", "requires_confirmation")


def money(amount: int, currency: str) -> str:
    """An amount in minor units as people read it, e.g. 1250 usd -> "$12.50"."""
    return values.format_money(amount, currency, SYMBOLS)


def check_minimum(amount: int, currency: str) -> None:
    """Stripe's minimum charge amount of a currency."""
    if amount < MINIMUM_CHARGE[currency]:
        raise InvalidRequest(f"Amount must be at least {money(MINIMUM_CHARGE[currency], currency)} {currency}")


def usable_card(db: Database, payment_method_id: str, customer_id: str | None) -> dict[str, Any]:
    """A card that may pay for this customer: attached to them (or, without a customer, to nobody)."""
    pm = db.get(payment_methods, payment_method_id, "PaymentMethod")
    if customer_id is None and pm["customer"] is not None:
        raise InvalidRequest(
            "The provided PaymentMethod is attached to a customer, so you must also pass that customer's ID."
        )
    if customer_id is not None and pm["customer"] != customer_id:
        raise InvalidRequest(f"The provided PaymentMethod {payment_method_id} belongs to a different customer.")
    return pm


def owned_payment_method(db: Database, payment_method_id: str, customer_id: str) -> dict[str, Any]:
    """A payment method that must be attached to the given customer."""
    pm = db.get(payment_methods, payment_method_id, "PaymentMethod")
    if pm["customer"] != customer_id:
        raise InvalidRequest(f"The payment method {payment_method_id} does not belong to the customer {customer_id}.")
    return pm


def subscribable_price(db: Database, price_id: str) -> dict[str, Any]:
    """An active recurring price, the only kind a subscription accepts."""
    price = db.get(prices, price_id, "Price")
    if not price["active"]:
        raise InvalidRequest(f"The price specified ({price_id}) is inactive. This field only accepts active prices.")
    if price["type"] != "recurring":
        raise InvalidRequest(
            f"The price specified ({price_id}) is set to `type=one_time` but this field only accepts prices with "
            "`type=recurring`."
        )
    return price


def check_due_days(collection_method: str, days_until_due: int | None) -> None:
    """send_invoice needs the days the customer has to pay; charge_automatically takes none."""
    if (collection_method == "send_invoice") != (days_until_due is not None):
        raise InvalidRequest("days_until_due is required with collection_method=send_invoice, and only there")


def check_currency_of(customer: dict[str, Any], currency: str) -> None:
    """A customer is billed in one currency, fixed by their first invoice or subscription."""
    if customer["currency"] is not None and customer["currency"] != currency:
        raise InvalidRequest(
            f"You cannot combine currencies on a single customer. This customer has already been billed in "
            f"{customer['currency']}."
        )


def invoice_lines(db: Database, lines: list[Any]) -> tuple[list[dict[str, Any]], set[str]]:
    """Invoice lines as stored (description, price, quantity, unit amount) and the currencies their prices use.
    A line bills a one-time active price or a custom amount with a description, never both."""
    resolved, currencies = [], set()
    for line in lines:
        if (line.price is None) == (line.amount is None):
            raise InvalidRequest("Each line needs exactly one of price or amount")
        if line.price is not None:
            price = db.get(prices, line.price, "Price")
            if not price["active"]:
                raise InvalidRequest(f"The price {line.price} is archived; only active prices can be billed.")
            if price["type"] != "one_time":
                raise InvalidRequest(
                    f"The price {line.price} is a recurring price; invoice items only accept one-time prices."
                )
            currencies.add(price["currency"])
            name = line.description or db.get(products, price["product"], "Product")["name"]
            resolved.append(
                {
                    "description": name,
                    "price": price["id"],
                    "quantity": line.quantity,
                    "unit_amount": price["unit_amount"],
                }
            )
        else:
            if not line.description:
                raise InvalidRequest("A custom-amount line needs a description")
            resolved.append({"description": line.description, "quantity": line.quantity, "unit_amount": line.amount})
    return resolved, currencies
