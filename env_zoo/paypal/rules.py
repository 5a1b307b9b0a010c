"""PayPal's business rules shared by the tools: ids, money, the honor and validity periods of authorizations,
the refund window, fees and the merchant's balance."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from sqlalchemy import Table

from envfactory_gym import Database
from envfactory_gym.values import format_amount, iso_timestamp, minor_units, parse_timestamp

from .errors import invalid, not_found
from .schema import balances

DIGITS_UPPER = "0123456789ABCDEFGHJKLMNPRSTUVWXY"
#: A captured authorization's funds are guaranteed for 3 days; it stays capturable for 29.
HONOR_PERIOD = timedelta(days=3)
VALIDITY = timedelta(days=29)
#: A capture can be refunded up to 180 days after it was made.
REFUND_WINDOW = timedelta(days=180)
#: PayPal's standard fee on a capture: 3.49% + $0.49.
FEE_PERCENT_BP = 349
FEE_FIXED = 49
CURRENCY = "USD"


def paypal_id(db: Database, table: Table, length: int, prefix: str = "", groups: int = 0) -> str:
    """A fresh, deterministic opaque id in PayPal's style, derived from a counter kept in the state."""
    pk = list(table.primary_key.columns)[0]
    while True:
        number = db.next_number(f"ppid:{table.name}")
        digest = int.from_bytes(hashlib.sha256(f"{table.name}:{number}".encode()).digest(), "big")
        chars = []
        for _ in range(length):
            digest, index = divmod(digest, len(DIGITS_UPPER))
            chars.append(DIGITS_UPPER[index])
        body = "".join(chars)
        if groups:
            body = "-".join(body[i : i + groups] for i in range(0, length, groups))
        candidate = prefix + body
        if not db.find(table, **{pk.name: candidate}):
            return candidate


def fetch(db: Database, table: Table, object_id: str, entity: str, field: str) -> dict[str, Any]:
    """The row with this id, or PayPal's RESOURCE_NOT_FOUND / INVALID_RESOURCE_ID naming the entity."""
    pk = list(table.primary_key.columns)[0]
    found = db.find(table, **{pk.name: object_id})
    if not found:
        raise not_found(entity, object_id, field)
    return found[0]


def cents(value: str, field: str) -> int:
    """A PayPal amount string ("12.50") in cents."""
    amount = minor_units(value, CURRENCY, field)
    if amount <= 0:
        raise invalid("CANNOT_BE_ZERO_OR_NEGATIVE", "Must be greater than zero.", field)
    return amount


def dollars(amount: int) -> str:
    """Cents as PayPal prints an amount's value: 1250 -> "12.50"."""
    return format_amount(amount, CURRENCY)


def fee_for(amount: int) -> int:
    """PayPal's fee on a capture of `amount` cents, rounded half up to the cent."""
    return (amount * FEE_PERCENT_BP + 5_000) // 10_000 + FEE_FIXED


def moment(value: str) -> Any:
    """A stored timestamp as a datetime."""
    return parse_timestamp(value, "timestamp")


def adjust_balance(db: Database, change: int) -> int:
    """Add `change` cents (negative to spend) to the merchant's USD balance and return the new balance."""
    row = db.get(balances, CURRENCY)
    return db.update(balances, CURRENCY, available=row["available"] + change)["available"]


def available_balance(db: Database) -> int:
    """The merchant's available USD balance in cents."""
    return db.get(balances, CURRENCY)["available"]


def normalized(value: str | None, field: str) -> str | None:
    """An RFC 3339 filter value as the stored UTC form, so it compares with stored timestamps."""
    return iso_timestamp(parse_timestamp(value, field)) if value is not None else None
