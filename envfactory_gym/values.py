"""Values that tools read and print: dates, timestamps and money, one helper each for every environment.

Parsers raise `InvalidRequest` naming the argument and showing an example; the product's own wording goes in
through the parameters (`example=`, a symbol table), never through a copy of the helper.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Mapping

from .errors import InvalidRequest

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
#: ISO 4217 currencies without minor units (amounts are whole units).
ZERO_DECIMAL = frozenset(
    {"BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF"}
)


def parse_date(value: str, name: str, example: str = "2025-06-18") -> date:
    """A `YYYY-MM-DD` date argument; `InvalidRequest("<name> must be a date like <example>")` otherwise."""
    text = value.strip()
    if not _DATE.match(text):
        raise InvalidRequest(f"{name} must be a date like {example}")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidRequest(f"{name} {value!r} is not a valid date") from None


def parse_timestamp(
    value: str, name: str, example: str = "2025-06-18T14:00:00Z", *, dates: bool = False, naive_as_utc: bool = False
) -> datetime:
    """An ISO 8601 timestamp argument as an aware UTC datetime. A zone is required unless `naive_as_utc`; with
    `dates`, a bare date means its midnight UTC."""
    text = value.strip()
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise InvalidRequest(f"{name} must be an ISO 8601 timestamp such as {example}") from None
    if "T" not in text.upper() and not dates:
        raise InvalidRequest(f"{name} must be an ISO 8601 timestamp such as {example}")
    if moment.tzinfo is None:
        if "T" in text.upper() and not naive_as_utc:
            raise InvalidRequest(f"{name} needs a time zone offset, such as {example}")
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def iso_timestamp(moment: datetime, *, milliseconds: bool = False) -> str:
    """A datetime as UTC ISO 8601 with a `Z` (naive datetimes are taken as UTC): `2025-06-18T14:00:00Z`."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    if milliseconds:
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def minor_units(amount: Decimal | float | int | str, currency: str, name: str = "amount") -> int:
    """An amount in major units (12.5 USD) as an integer of minor units (1250); whole units for zero-decimal
    currencies. More decimals than the currency has, or a non-number, is an `InvalidRequest`."""
    try:
        value = Decimal(str(amount))
    except InvalidOperation:
        raise InvalidRequest(f"{name} must be a number, got {amount!r}") from None
    if not value.is_finite():
        raise InvalidRequest(f"{name} must be a finite number")
    places = 0 if currency.upper() in ZERO_DECIMAL else 2
    scaled = value.scaleb(places)
    if scaled != scaled.to_integral_value():
        raise InvalidRequest(f"{name} has more than {places} decimal places for {currency.upper()}")
    return int(scaled)


def format_money(minor: int, currency: str, symbols: Mapping[str, str] | None = None) -> str:
    """Minor units as people read them: `format_money(1250, "usd", {"USD": "$"})` -> `$12.50`; without a symbol,
    the code: `EUR 12.50`. Zero-decimal currencies print whole units (`JPY 1,250`)."""
    code = currency.upper()
    prefix = (symbols or {}).get(code, f"{code} ")
    if code in ZERO_DECIMAL:
        return f"{prefix}{minor:,}"
    major = (Decimal(minor) / 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return f"{'-' if major < 0 else ''}{prefix}{abs(major):,.2f}"


def format_amount(minor: int, currency: str) -> str:
    """Minor units as a plain decimal string, as most APIs print amounts: `format_amount(551900, "EUR")` ->
    `5519.00` (`1250` for zero-decimal currencies)."""
    if currency.upper() in ZERO_DECIMAL:
        return str(minor)
    return str((Decimal(minor) / 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def iso_duration(span: timedelta) -> str:
    """A non-negative span as an ISO 8601 duration: `PT2H30M`, `P1DT4H`, `PT0S`."""
    seconds = int(span.total_seconds())
    if seconds < 0:
        raise ValueError("durations are not negative")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    clock = "".join(f"{n}{unit}" for n, unit in ((hours, "H"), (minutes, "M"), (secs, "S")) if n)
    return f"P{f'{days}D' if days else ''}{'T' + clock if clock else ('' if days else 'T0S')}"
