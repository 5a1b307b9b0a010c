"""Coinbase's rules that several tools share: decimal money, wallets and their ledger, prices, networks and
addresses, simple-trade pricing and fees, payment-method limits, Advanced Trade fee tiers and conversions."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, Page, paginate
from envfactory_gym.values import format_money, iso_timestamp, minor_units, parse_timestamp

from .schema import accounts, currencies, fills, products, trades, transactions

ZERO = Decimal(0)
CENT = Decimal("0.01")
RETAIL_SPREAD = Decimal("0.005")  # simple buys and sells are priced 0.5% off the mid price
MIN_RETAIL = Decimal("2.00")  # USD
FLAT_FEES = (
    (Decimal(10), Decimal("0.99")),
    (Decimal(25), Decimal("1.49")),
    (Decimal(50), Decimal("1.99")),
    (Decimal(200), Decimal("2.99")),
)
FEE_RATES = {
    "ach_bank_account": Decimal("0.0149"),
    "fiat_account": Decimal("0.0149"),
    "worldpay_card": Decimal("0.0399"),
    "paypal_account": Decimal("0.0399"),
}
# Advanced Trade pricing: (tier, 30-day USD volume from, to, taker rate, maker rate)
FEE_TIERS = (
    ("Intro 1", 0, 1_000, "0.0120", "0.0060"),
    ("Intro 2", 1_000, 10_000, "0.0075", "0.0035"),
    ("Advanced 1", 10_000, 50_000, "0.0040", "0.0025"),
    ("Advanced 2", 50_000, 100_000, "0.0025", "0.0015"),
    ("Advanced 3", 100_000, 1_000_000, "0.0020", "0.0010"),
    ("VIP 1", 1_000_000, 15_000_000, "0.0018", "0.0008"),
)
STABLE = {"USD", "USDC"}  # converted one for one, without a fee
CONVERT_SPREAD = Decimal("0.005")
CONVERT_FEE = Decimal("0.005")
MIN_CONVERT = Decimal("1.00")  # USD
QUOTE_TTL = timedelta(minutes=10)
BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
ADDRESS_STYLES = {  # network -> (prefix, alphabet, length after the prefix); others are EVM (0x + 40 hex)
    "bitcoin": ("bc1q", BECH32, 38),
    "litecoin": ("ltc1q", BECH32, 38),
    "cardano": ("addr1q", BECH32, 98),
    "solana": ("", BASE58, 44),
    "ripple": ("r", BASE58, 33),
    "dogecoin": ("DH", BASE58, 32),
}


# ---------------------------------------------------------------- decimal money


def dec(text: str | None) -> Decimal:
    """A stored decimal string as a Decimal (None as zero)."""
    return Decimal(text) if text else ZERO


def fmt(value: Decimal, places: int) -> str:
    """A decimal as Coinbase writes amounts: fixed `places` decimals."""
    return f"{value.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP):f}"


def down(value: Decimal, step: Decimal) -> Decimal:
    """`value` rounded down to a multiple of `step`."""
    return (value / step).to_integral_value(ROUND_DOWN) * step


def price_text(value: Decimal) -> str:
    """A price: at least two decimals, at most eight, no trailing zeros beyond that."""
    text = fmt(value, 8).rstrip("0")
    whole, _, part = text.partition(".")
    return f"{whole}.{part.ljust(2, '0')}"


def parse_amount(value: float, places: int, label: str = "amount") -> Decimal:
    """An amount given by the caller (positive by its type), with no more decimals than the currency has."""
    amount = Decimal(str(value))
    if amount != amount.quantize(Decimal(1).scaleb(-places), ROUND_DOWN):
        raise InvalidRequest(f"{label} can have at most {places} decimal places")
    return amount


def moment(value: str, label: str) -> str:
    """An RFC 3339 timestamp or a date (midnight UTC), as stored (UTC, seconds)."""
    return iso_timestamp(parse_timestamp(value, label, "2025-06-01T00:00:00Z (RFC 3339) or 2025-06-01", dates=True))


def usd(amount: Decimal) -> str:
    """A USD amount as Coinbase words it in messages: $1,234.50."""
    return format_money(minor_units(amount, "USD"), "USD", {"USD": "$"})


def on_step(value: Decimal, step: str, label: str) -> None:
    """Reject a size or price that is not a multiple of its increment."""
    if value % Decimal(step) != 0:
        raise InvalidRequest(f"{label} must be a multiple of {step}")


def newest_first(
    db: Database,
    table: Any,
    time_column: str,
    limit: int,
    cursor: str | None,
    since: str | None = None,
    before: str | None = None,
    **equals: Any,
) -> Page[dict[str, Any]]:
    """One page of a history listing, newest first: only the rows up to the page's end are read."""
    where = [f'"{name}" = ?' for name in equals]
    params = list(equals.values())
    for bound, op in ((since, ">="), (before, "<")):
        if bound is not None:
            where.append(f'"{time_column}" {op} ?')
            params.append(bound)
    offset = int(cursor) if cursor and cursor.isdigit() else 0
    rows = db.select(table, " AND ".join(where), params, order_by=f'"{time_column}" DESC', limit=offset + limit + 1)
    return paginate(rows, limit, cursor)


# ---------------------------------------------------------------- user, currencies, wallets


def currency(db: Database, code: str) -> dict[str, Any]:
    """A currency by code (case-insensitive)."""
    return db.get(currencies, code.strip().upper(), "Currency")


def wallet(db: Database, code: str) -> dict[str, Any]:
    """The user's wallet of a currency."""
    return db.find_one(accounts, currency=code.strip().upper(), not_found=f"You don't have a {code.upper()} wallet")


def places(db: Database, code: str) -> int:
    """Decimal places of a currency's amounts."""
    return currency(db, code)["exponent"]


def usd_price(db: Database, code: str) -> Decimal:
    """The mid price of one unit in USD (stablecoins at par)."""
    if code in STABLE:
        return Decimal(1)
    return dec(db.get(products, f"{code}-USD", "Product")["price"])


def native(db: Database, code: str, amount: Decimal) -> Decimal:
    """An amount's value in USD, to the cent."""
    return (amount * usd_price(db, code)).quantize(CENT, ROUND_HALF_UP)


def adjust(db: Database, account: dict[str, Any], available: Decimal = ZERO, hold: Decimal = ZERO) -> dict[str, Any]:
    """Move a wallet's available and held balances by the given amounts."""
    exp = places(db, account["currency"])
    return db.update(
        accounts,
        account["uuid"],
        available_balance=fmt(dec(account["available_balance"]) + available, exp),
        hold=fmt(dec(account["hold"]) + hold, exp),
        updated_at=db.now_iso(),
    )


def check_available(db: Database, account: dict[str, Any], needed: Decimal, what: str) -> None:
    """Raise when a wallet's available balance can't cover `needed`."""
    have = dec(account["available_balance"])
    if needed > have:
        exp = places(db, account["currency"])
        code = account["currency"]
        held = f" ({fmt(dec(account['hold']), exp)} {code} is on hold)" if dec(account["hold"]) else ""
        raise Conflict(
            f"Insufficient funds: {what} needs {fmt(needed, exp)} {code} but your {code} Wallet has "
            f"{fmt(have, exp)} {code} available{held}."
        )


def record(db: Database, account: dict[str, Any], kind: str, amount: Decimal, **values: Any) -> dict[str, Any]:
    """Book a transaction of `amount` (signed) on a wallet's history; balances are moved separately."""
    code = account["currency"]
    row = {
        "status": "completed",
        "description": None,
        "awaiting_2fa": False,
        "network": None,
        "to_address": None,
        "from_address": None,
        "idem": None,
        "resource_id": None,
    } | values
    return db.insert(
        transactions,
        id=db.new_uuid(transactions),
        account_id=account["uuid"],
        type=kind,
        amount=fmt(amount, places(db, code)),
        currency=code,
        native_amount=fmt(native(db, code, amount), 2),
        created_at=db.now_iso(),
        **row,
    )


# ---------------------------------------------------------------- networks and addresses


def network(db: Database, code: str, name: str | None) -> dict[str, Any]:
    """A currency's network by name, or its default network."""
    cur = currency(db, code)
    if cur["type"] != "crypto":
        raise InvalidRequest(f"{cur['code']} is a fiat currency and has no crypto network")
    if name is None:
        return cur["networks"][0]
    for net in cur["networks"]:
        if net["name"] == name.strip().lower():
            return net
    supported = ", ".join(n["name"] for n in cur["networks"])
    raise InvalidRequest(f"{cur['code']} can't be sent or received on {name}. Supported networks: {supported}")


def check_address(net: dict[str, Any], address: str) -> str:
    """The address, stripped, if it is valid on the network."""
    clean = address.strip()
    if not re.fullmatch(net["address_regex"], clean):
        raise InvalidRequest(f"That is not a valid {net['display_name']} address")
    return clean


def generated_address(network_name: str, seed: str) -> str:
    """A fresh deposit address on a network, derived from `seed` (deterministic)."""
    digest = b"".join(hashlib.sha256(f"{seed}:{i}".encode()).digest() for i in range(4))
    if network_name not in ADDRESS_STYLES:
        return "0x" + digest.hex()[:40]
    prefix, alphabet, length = ADDRESS_STYLES[network_name]
    return prefix + "".join(alphabet[b % len(alphabet)] for b in digest[:length])


def tx_hash(network_name: str, seed: str) -> str:
    """The on-chain hash of a broadcast send, derived from `seed` (deterministic); 0x-prefixed on EVM networks."""
    digest = hashlib.sha256(seed.encode()).hexdigest()
    return digest if network_name in ADDRESS_STYLES else "0x" + digest


# ---------------------------------------------------------------- trading status


def check_trading(product: dict[str, Any]) -> None:
    """Raise when a product accepts no new orders (offline, disabled or cancel-only)."""
    name = product["product_id"]
    if product["cancel_only"]:
        raise Conflict(f"{name} is in cancel-only mode: open orders can be cancelled, new orders are not accepted")
    if product["status"] != "online" or product["trading_disabled"]:
        raise Conflict(f"Trading is disabled for {name}")


def check_simple_trading(db: Database, code: str) -> None:
    """Raise when a crypto can't be bought, sold or converted in the simple flows (limit-only listings trade
    on Advanced Trade only)."""
    if code in STABLE:
        return
    product = db.get(products, f"{code}-USD", "Product")
    check_trading(product)
    if product["limit_only"]:
        raise Conflict(f"{code} is new and trades on Advanced Trade with limit orders only for now")


# ---------------------------------------------------------------- simple buys and sells


@dataclass(frozen=True)
class RetailPrice:
    """A priced simple buy or sell: crypto amount, unit price with the spread, and the USD legs."""

    amount: Decimal
    unit_price: Decimal
    subtotal: Decimal
    fee: Decimal
    total: Decimal


def coinbase_fee(subtotal: Decimal, method_type: str) -> Decimal:
    """The larger of the flat fee for small trades and the payment method's percentage."""
    percent = (subtotal * FEE_RATES[method_type]).quantize(CENT, ROUND_HALF_UP)
    flat = next((fee for ceiling, fee in FLAT_FEES if subtotal <= ceiling), ZERO)
    return max(percent, flat)


def retail_price(db: Database, side: str, code: str, amount: Decimal, in_usd: bool, method_type: str) -> RetailPrice:
    """Price a simple buy or sell of `code`: `amount` is USD (before fees) when `in_usd`, else crypto."""
    exp = places(db, code)
    mid = usd_price(db, code)
    unit = (mid * (1 + RETAIL_SPREAD if side == "buy" else 1 - RETAIL_SPREAD)).quantize(Decimal("1e-8"))
    if in_usd:
        subtotal = amount.quantize(CENT, ROUND_HALF_UP)
        crypto = down(subtotal / unit, Decimal(1).scaleb(-exp))
    else:
        crypto = amount
        subtotal = (crypto * unit).quantize(CENT, ROUND_HALF_UP)
    if subtotal < MIN_RETAIL:
        raise InvalidRequest(f"The minimum {side} is {usd(MIN_RETAIL)}")
    fee = coinbase_fee(subtotal, method_type)
    total = subtotal + fee if side == "buy" else subtotal - fee
    return RetailPrice(crypto, unit, subtotal, fee, total)


def buy_limits(db: Database, method: dict[str, Any]) -> list[tuple[int, Decimal, Decimal]]:
    """A payment method's buy limits as (period in days, limit, remaining), over rolling windows."""
    now = db.now()
    out = []
    for days, limit in ((1, method["buy_limit_daily"]), (7, method["buy_limit_weekly"])):
        if limit is None:
            continue
        recent = db.select(
            trades,
            "created_at > ? AND resource = 'buy' AND status = 'completed' AND payment_method_id = ?",
            (iso_timestamp(now - timedelta(days=days)), method["id"]),
        )
        used = sum((dec(t["total"]) for t in recent), ZERO)
        out.append((days, dec(limit), max(dec(limit) - used, ZERO)))
    return out


def check_buy_limits(db: Database, method: dict[str, Any], total: Decimal) -> None:
    """Raise when a buy's total goes over the payment method's daily or weekly limit."""
    for days, limit, remaining in buy_limits(db, method):
        if total > remaining:
            period = "daily" if days == 1 else "weekly"
            raise Conflict(
                f"This buy of {usd(total)} is over your {period} buy limit for {method['name']}: "
                f"{usd(remaining)} of {usd(limit)} left."
            )


# ---------------------------------------------------------------- Advanced Trade fee tier


def volume_30d(db: Database) -> Decimal:
    """Advanced Trade volume of the last 30 days, in USD."""
    recent = db.select(fills, "trade_time > ?", (iso_timestamp(db.now() - timedelta(days=30)),))
    quotes = {p["product_id"]: p["quote_currency_id"] for p in db.find(products)} if recent else {}
    total = ZERO
    for fill in recent:
        total += dec(fill["price"]) * dec(fill["size"]) * usd_price(db, quotes[fill["product_id"]])
    return total.quantize(CENT, ROUND_HALF_UP)


def fee_tier(volume: Decimal) -> tuple[str, int, int, Decimal, Decimal]:
    """The pricing tier of a 30-day volume: (name, from, to, taker rate, maker rate)."""
    name, low, high, taker, maker = next(t for t in reversed(FEE_TIERS) if volume >= t[1])
    return name, low, high, Decimal(taker), Decimal(maker)


# ---------------------------------------------------------------- conversions


@dataclass(frozen=True)
class ConvertPrice:
    """A priced conversion: the fee taken from the source, and the rate the rest converts at."""

    fee: Decimal
    subtotal: Decimal
    rate: Decimal
    target_amount: Decimal


def convert_price(db: Database, source: str, target: str, amount: Decimal) -> ConvertPrice:
    """Price converting `amount` of `source` into `target`."""
    if source == target:
        raise InvalidRequest("Choose two different currencies to convert between")
    if {source, target} & {"USD"} and {source, target} != STABLE:
        raise InvalidRequest("USD converts only to and from USDC; use a buy or sell for other crypto")
    for code in (source, target):
        check_simple_trading(db, code)
    if native(db, source, amount) < MIN_CONVERT:
        raise InvalidRequest(f"The minimum conversion is worth {usd(MIN_CONVERT)}")
    source_exp, target_exp = places(db, source), places(db, target)
    if {source, target} <= STABLE:
        return ConvertPrice(ZERO, amount, Decimal(1), down(amount, Decimal(1).scaleb(-target_exp)))
    fee = (amount * CONVERT_FEE).quantize(Decimal(1).scaleb(-source_exp), ROUND_HALF_UP)
    subtotal = amount - fee
    rate = (usd_price(db, source) / usd_price(db, target) * (1 - CONVERT_SPREAD)).quantize(Decimal("1e-10"))
    return ConvertPrice(fee, subtotal, rate, down(subtotal * rate, Decimal(1).scaleb(-target_exp)))


def expired(row: dict[str, Any], now: datetime) -> bool:
    """Whether a conversion quote is past its expiry."""
    return iso_timestamp(now) > row["expires_at"]
