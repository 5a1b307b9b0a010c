"""Rules every Duffel tool shares: id shapes, money as decimal strings, the error codes and texts, the simulated
clock's timestamps, passenger types by age and cursor pagination (limit 1-200, after/before)."""

from __future__ import annotations

import base64
import hashlib
from datetime import date, datetime, timedelta, timezone
from typing import Annotated, Any, Sequence, TypeVar

from pydantic import Field
from sqlalchemy import Table

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.fields import ErrorText
from envfactory_gym.values import iso_timestamp, minor_units, parse_timestamp

T = TypeVar("T")
CURRENCY = "GBP"  # Kestrel Travel's Duffel billing currency: every offer, order and balance movement uses it
B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
REFERENCE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
OFFER_LIFETIME = timedelta(minutes=30)
CHANGE_OFFER_LIFETIME = timedelta(minutes=30)
CANCELLATION_LIFETIME = timedelta(minutes=60)
INFANT_MAX_AGE, CHILD_MAX_AGE = 1, 11

#: A decimal amount as Duffel writes it, e.g. "436.20".
Amount = Annotated[
    str, Field(pattern=r"^\d{1,7}\.\d{2}$"), ErrorText('must be a decimal string with two decimals, e.g. "436.20"')
]
#: A page size for Duffel's lists.
Limit = Annotated[int, Field(ge=1, le=200), ErrorText("limit must be between 1 and 200")]


# ---------------------------------------------------------------- ids


def content_id(prefix: str, *parts: Any) -> str:
    """A Duffel-shaped id (`off_0000` + 18 base-62 characters) derived from `parts`: the same parts give the same id."""
    digest = hashlib.sha256("|".join(map(str, parts)).encode()).digest()
    return f"{prefix}_0000{''.join(B62[b % 62] for b in digest[:18])}"


def new_id(db: Database, table: Table, prefix: str) -> str:
    """A fresh Duffel-shaped id for a new row of `table`, drawn from a counter kept in the state."""
    while True:
        candidate = content_id(prefix, table.name, db.next_number(f"duffel:{table.name}", table))
        if not db.find(table, id=candidate):
            return candidate


def booking_reference(order_id: str) -> str:
    """The airline's six-character record locator of an order."""
    number = int.from_bytes(hashlib.sha256(f"pnr|{order_id}".encode()).digest()[:8], "big")
    chars = []
    for _ in range(6):
        number, rest = divmod(number, len(REFERENCE_CHARS))
        chars.append(REFERENCE_CHARS[rest])
    return "".join(chars)


def ticket_number(prefix: str, *parts: Any) -> str:
    """A 13-digit e-ticket number: the airline's 3-digit code and ten digits."""
    digits = int.from_bytes(hashlib.sha256("|".join(map(str, parts)).encode()).digest()[:8], "big") % 10**10
    return f"{prefix}{digits:010d}"


def fraction(*parts: Any) -> float:
    """A deterministic number in [0, 1) for `parts` (seat occupancy, fare variation)."""
    return int.from_bytes(hashlib.sha256("|".join(map(str, parts)).encode()).digest()[:6], "big") / 2**48


# ---------------------------------------------------------------- money


def money(minor: int) -> str:
    """Minor units as Duffel's decimal string: 43620 -> "436.20"."""
    sign = "-" if minor < 0 else ""
    return f"{sign}{abs(minor) // 100}.{abs(minor) % 100:02d}"


def minor(amount: str, name: str) -> int:
    """A decimal amount string in minor units."""
    return minor_units(amount, CURRENCY, name)


def check_payment(amount: str, currency: str, due: int, what: str) -> None:
    """A payment must be in the billing currency and for exactly the amount due."""
    if currency.upper() != CURRENCY:
        raise validation("currency", f"The payment currency must be {CURRENCY}, the currency of the {what}.")
    if minor(amount, "amount") != due:
        raise validation("amount", f"The payment amount must be equal to the {what} total, {money(due)} {CURRENCY}.")


# ---------------------------------------------------------------- errors


def validation(field: str, message: str) -> InvalidRequest:
    """Duffel's 422 validation_error, naming the field."""
    return InvalidRequest(f"validation_error: {field}: {message}")


def not_found(entity: str, key: str) -> NotFound:
    """Duffel's 404."""
    return NotFound(f"not_found: {entity} '{key}' was not found.")


def invalid_state(code: str, message: str) -> Conflict:
    """Duffel's invalid_state_error with its specific code."""
    return Conflict(f"{code}: {message}")


def get(db: Database, table: Table, key: str, entity: str) -> dict[str, Any]:
    """A row by id, or Duffel's not_found."""
    rows = db.find(table, id=key) if "id" in table.c else []
    if not rows:
        raise not_found(entity, key)
    return rows[0]


# ---------------------------------------------------------------- time


def iso(moment: datetime) -> str:
    """A UTC timestamp as Duffel prints it."""
    return iso_timestamp(moment)


def moment(value: str) -> datetime:
    """A stored UTC timestamp as an aware datetime."""
    return parse_timestamp(value, "timestamp")


def local_to_utc(local: str, offset_minutes: int) -> datetime:
    """A local airport time (`2025-06-20T08:20:00`) as UTC."""
    return datetime.fromisoformat(local).replace(tzinfo=timezone.utc) - timedelta(minutes=offset_minutes)


def expired(db: Database, expires_at: str | None) -> bool:
    """Whether a deadline has passed on the simulated clock."""
    return expires_at is not None and moment(expires_at) <= db.now()


def duration(minutes: int) -> str:
    """Minutes as an ISO 8601 duration: 485 -> PT8H05M."""
    hours, rest = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    return f"P{days}DT{hours}H{rest:02d}M" if days else f"PT{hours}H{rest:02d}M"


# ---------------------------------------------------------------- passengers


def age_on(born_on: date, day: date) -> int:
    """Completed years of age on `day`."""
    return day.year - born_on.year - ((day.month, day.day) < (born_on.month, born_on.day))


def type_for_age(age: int) -> str:
    """How airlines type a passenger of this age: infant_without_seat under 2, child 2-11, adult from 12."""
    if age <= INFANT_MAX_AGE:
        return "infant_without_seat"
    return "child" if age <= CHILD_MAX_AGE else "adult"


# ---------------------------------------------------------------- pagination


def cursor(key: str) -> str:
    """An opaque cursor pointing at one item of a list."""
    return base64.urlsafe_b64encode(f"g3:{key}".encode()).decode().rstrip("=")


def _position(keys: list[str], token: str, name: str) -> int:
    try:
        key = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        key = ""
    if not key.startswith("g3:") or key[3:] not in keys:
        raise validation(name, "The cursor is not valid for this list.")
    return keys.index(key[3:])


def page(
    items: Sequence[T], keys: list[str], limit: int, after: str | None, before: str | None
) -> tuple[list[T], dict[str, Any]]:
    """Duffel's cursor pagination: `limit` items after the `after` cursor (or just before `before`), and the meta
    holding the cursors of the next (`after`) and previous (`before`) pages."""
    if after is not None and before is not None:
        raise validation("after", "You can't use both the before and after cursors.")
    start = 0
    if after is not None:
        start = _position(keys, after, "after") + 1
    elif before is not None:
        start = max(0, _position(keys, before, "before") - limit)
    end = min(len(items), start + limit) if before is None else _position(keys, before, "before")
    chosen = list(items[start:end])
    meta = {
        "limit": limit,
        "after": cursor(keys[end - 1]) if end < len(items) and chosen else None,
        "before": cursor(keys[start]) if start > 0 and chosen else None,
    }
    return chosen, meta
