"""Kraken's spot rules: decimal amounts at each pair's precision, minimum order volume and cost, funds held by
open orders, immediate fills for market and marketable limit orders at the fee tier's taker rate, stop-loss
triggers on the right side of the market, and withdrawals to verified address keys within the method's minimum,
fee and rolling 24-hour limit. Error texts are Kraken's `E<Category>:<message>` strings."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied
from envfactory_gym.values import iso_timestamp, parse_timestamp

from .schema import accounts, asset_pairs, assets, balances, ledger, orders, sessions, withdraw_methods, withdrawals

UNIT = 10**8
NOT_SIGNED_IN = "EAPI:Invalid key"
HOLDING = ("open", "pending")


def me(db: Database) -> str:
    """The signed-in account's id."""
    return str(db.current_session(sessions, NOT_SIGNED_IN)["account_id"])


def account(db: Database) -> dict[str, Any]:
    return db.get(accounts, me(db), "Account")


def units(value: str, decimals: int, error: str) -> int:
    """A decimal string as integer 1e-8 units, refused with `error` when it has more than `decimals` places."""
    try:
        number = Decimal(value.strip())
    except InvalidOperation:
        raise InvalidRequest(error) from None
    if number <= 0 or number.as_tuple().exponent < -decimals:  # type: ignore[operator]
        raise InvalidRequest(error)
    return int(number * UNIT)


def fmt(amount: int, decimals: int = 8) -> str:
    """Integer 1e-8 units as a decimal string with `decimals` places."""
    quantum = Decimal(1).scaleb(-decimals)
    return format((Decimal(amount) / UNIT).quantize(quantum, rounding=ROUND_HALF_UP), "f")


def cost_of(volume: int, price: int) -> int:
    return volume * price // UNIT


def fee_of(cost: int, bps: int) -> int:
    return (cost * bps + 5000) // 10000


def asset(db: Database, name: str) -> dict[str, Any]:
    """An asset by its name or altname (XXBT or XBT, ZUSD or USD)."""
    key = name.strip().upper()
    found = db.select(assets, "asset = ? OR altname = ?", (key, key))
    if not found:
        raise InvalidRequest("EQuery:Unknown asset")
    return found[0]


def pair(db: Database, name: str) -> dict[str, Any]:
    """An asset pair by its name, altname or wsname (XXBTZUSD, XBTUSD or XBT/USD)."""
    key = name.strip().upper()
    found = db.select(asset_pairs, "pair = ? OR altname = ? OR wsname = ?", (key, key, key))
    if not found:
        raise InvalidRequest("EQuery:Unknown asset pair")
    return found[0]


def txid(db: Database, prefix: str, counter: str) -> str:
    """A deterministic Kraken-shaped id such as `OQCLML-BW3P3-BUCMWZ` from a counter kept in the state."""
    digest = hashlib.sha1(f"{counter}:{db.next_number(counter)}".encode()).hexdigest().upper()
    letters = "".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"[int(digest[i : i + 2], 16) % 32] for i in range(0, 34, 2))
    return f"{prefix}{letters[:5]}-{letters[5:10]}-{letters[10:16]}"


def balance(db: Database, account_id: str, asset_name: str) -> int:
    found = db.find(balances, account_id=account_id, asset=asset_name)
    return int(found[0]["amount"]) if found else 0


def held(db: Database, account_id: str, asset_name: str) -> int:
    """What the account's open orders keep back in `asset_name`: quote plus fee for buys, base for sells."""
    total = 0
    taker = int(db.get(accounts, account_id)["taker_bps"])
    for order in db.select(orders, "account_id = ? AND status IN ('open', 'pending')", (account_id,)):
        traded = db.get(asset_pairs, order["pair"])
        rest = order["volume"] - order["vol_exec"]
        if order["type"] == "sell" and traded["base"] == asset_name:
            total += rest
        elif order["type"] == "buy" and traded["quote"] == asset_name:
            price = order["price"] if order["ordertype"] == "limit" else max(order["price"], traded["last"])
            cost = cost_of(rest, price)
            total += cost + fee_of(cost, taker)
    return total


def available(db: Database, account_id: str, asset_name: str) -> int:
    return balance(db, account_id, asset_name) - held(db, account_id, asset_name)


def book(db: Database, account_id: str, refid: str, kind: str, asset_name: str, amount: int, fee: int) -> None:
    """Change a balance by `amount - fee` and write the ledger entry for it."""
    key = f"{account_id}:{asset_name}"
    new = balance(db, account_id, asset_name) + amount - fee
    if db.find(balances, id=key):
        db.update(balances, key, amount=new)
    else:
        db.insert(balances, id=key, account_id=account_id, asset=asset_name, amount=new)
    db.insert(
        ledger,
        id=txid(db, "L", "ledger"),
        account_id=account_id,
        refid=refid,
        time=db.now_iso(),
        type=kind,
        asset=asset_name,
        amount=amount,
        fee=fee,
        balance=new,
    )


def check_order(
    db: Database, account_id: str, traded: dict[str, Any], side: str, ordertype: str, volume: int, price: int | None
) -> None:
    """Kraken's order checks, in its order: market status, price, minimums, funds."""
    if traded["status"] == "cancel_only":
        raise Conflict("EService:Market in cancel_only mode")
    if traded["status"] == "limit_only" and ordertype != "limit":
        raise Conflict("EService:Market in limit_only mode")
    if ordertype != "market" and price is None:
        raise InvalidRequest("EGeneral:Invalid arguments:price")
    if ordertype == "stop-loss" and price is not None:
        wrong_side = price >= traded["last"] if side == "sell" else price <= traded["last"]
        if wrong_side:
            raise InvalidRequest("EGeneral:Invalid arguments:price (stop-loss trigger is on the wrong side of last)")
    if volume < traded["ordermin"]:
        raise InvalidRequest("EOrder:Order minimum not met")
    fill_price = price if ordertype != "market" and price is not None else traded["last"]
    cost = cost_of(volume, max(fill_price, traded["last"]) if side == "buy" and ordertype == "market" else fill_price)
    if cost < traded["costmin"]:
        raise InvalidRequest("EOrder:Cost minimum not met")
    taker = int(db.get(accounts, account_id)["taker_bps"])
    if side == "buy":
        if cost + fee_of(cost, taker) > available(db, account_id, traded["quote"]):
            raise Conflict("EOrder:Insufficient funds")
    elif volume > available(db, account_id, traded["base"]):
        raise Conflict("EOrder:Insufficient funds")


def marketable(traded: dict[str, Any], side: str, ordertype: str, price: int | None) -> bool:
    """Whether an order fills on arrival: market orders, and limits at or through the last price."""
    if ordertype == "market":
        return True
    if ordertype == "limit" and price is not None:
        return price >= traded["last"] if side == "buy" else price <= traded["last"]
    return False


def fill(db: Database, order: dict[str, Any], traded: dict[str, Any], post_only: bool) -> dict[str, Any]:
    """Fill a new order in full at the last price (taker fee), or leave it open (a post-only order that would take
    is canceled instead)."""
    if not marketable(traded, order["type"], order["ordertype"], order["price"]):
        return db.update(orders, order["txid"], status="open")
    if post_only:
        return db.update(orders, order["txid"], status="canceled", closetm=db.now_iso(), reason="Post only order")
    acct = db.get(accounts, order["account_id"])
    price = traded["last"]
    cost = cost_of(order["volume"], price)
    fee = fee_of(cost, int(acct["taker_bps"]))
    trade = txid(db, "T", "trades")
    sign = 1 if order["type"] == "buy" else -1
    book(db, acct["id"], trade, "trade", traded["base"], sign * order["volume"], 0)
    book(db, acct["id"], trade, "trade", traded["quote"], -sign * cost, fee)
    return db.update(
        orders,
        order["txid"],
        status="closed",
        vol_exec=order["volume"],
        cost=cost,
        fee=fee,
        avg_price=price,
        closetm=db.now_iso(),
    )


def own_order(db: Database, order_id: str) -> dict[str, Any]:
    return db.find_one(orders, txid=order_id.strip().upper(), account_id=me(db), not_found="EOrder:Unknown order")


def withdraw_method(db: Database, asset_name: str, method: str) -> dict[str, Any]:
    return db.find_one(withdraw_methods, id=f"{asset_name}:{method}", not_found="EFunding:Unknown asset")


def limit_left(db: Database, account_id: str, method: dict[str, Any]) -> int:
    """The method's rolling 24-hour limit less what was withdrawn (fees included) in the last 24 hours."""
    since = iso_timestamp(parse_timestamp(db.now_iso(), "now") - timedelta(hours=24))
    used = sum(
        row["amount"] + row["fee"]
        for row in db.select(
            withdrawals,
            "account_id = ? AND asset = ? AND method = ? AND time > ? AND (status_prop IS NULL OR status_prop != ?)",
            (account_id, method["asset"], method["method"], since, "canceled"),
        )
    )
    return max(0, int(method["daily_limit"]) - used)


def check_withdrawal(
    db: Database, account_id: str, method: dict[str, Any], address: dict[str, Any], amount: int
) -> None:
    if not address["verified"]:
        raise PermissionDenied("EFunding:Unverified address (confirm it from the e-mail link first)")
    if amount <= method["fee"] or amount < method["minimum"]:
        raise InvalidRequest("EFunding:Invalid amount")
    if amount > limit_left(db, account_id, method):
        raise Conflict("EFunding:Limit exceeded")
    if amount > available(db, account_id, method["asset"]):
        raise Conflict("EFunding:Insufficient funds")
