"""Simple buys and sells through a payment method, and conversions between wallets: pricing checks, the money
movements and the history entries they book."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied
from envfactory_gym.values import iso_timestamp

from .rules import (
    QUOTE_TTL,
    RetailPrice,
    adjust,
    check_available,
    check_buy_limits,
    check_simple_trading,
    convert_price,
    dec,
    expired,
    fmt,
    parse_amount,
    places,
    price_text,
    record,
    retail_price,
)
from .schema import accounts, conversions, payment_methods, trades


def crypto_account(db: Database, account_id: str) -> dict[str, Any]:
    """A crypto wallet by uuid; a fiat wallet is refused."""
    account = db.get(accounts, account_id, "Account")
    if account["type"] != "ACCOUNT_TYPE_CRYPTO":
        raise InvalidRequest(f"The {account['name']} holds fiat; choose a crypto wallet")
    return account


def _usable_method(db: Database, side: str, payment_method_id: str) -> dict[str, Any]:
    method = db.get(payment_methods, payment_method_id, "Payment method")
    if side == "buy" and not method["allow_buy"]:
        raise InvalidRequest(f"{method['name']} can't be used to buy crypto")
    if side == "sell" and not method["allow_sell"]:
        raise InvalidRequest(f"Sales can't be paid out to {method['name']}")
    if not method["verified"]:
        raise PermissionDenied(f"{method['name']} isn't verified yet; verify it in Settings before using it")
    return method


def price_trade(
    db: Database, side: str, account_id: str, amount: float, amount_currency: str, payment_method_id: str
) -> tuple[dict[str, Any], dict[str, Any], RetailPrice]:
    """Check and price a simple buy or sell: the wallet, the payment method, limits and funds."""
    account = crypto_account(db, account_id)
    code = account["currency"]
    check_simple_trading(db, code)
    method = _usable_method(db, side, payment_method_id)
    unit = amount_currency.strip().upper()
    if unit not in ("USD", code):
        raise InvalidRequest(f"currency must be USD or {code}")
    price = retail_price(db, side, code, parse_amount(amount, places(db, unit)), unit == "USD", method["type"])
    if side == "buy":
        check_buy_limits(db, method, price.total)
        if method["type"] == "fiat_account":
            check_available(db, db.get(accounts, method["fiat_account_id"]), price.total, "this buy")
    else:
        check_available(db, account, price.amount, "this sell")
    return account, method, price


def trade_row(
    db: Database, side: str, account: dict[str, Any], method: dict[str, Any], price: RetailPrice, **values: Any
) -> dict[str, Any]:
    """A buy or sell as stored (or, without `values`, an unsaved quote shaped like one)."""
    return {
        "resource": side,
        "account_id": account["uuid"],
        "payment_method_id": method["id"],
        "amount": fmt(price.amount, places(db, account["currency"])),
        "currency": account["currency"],
        "unit_price": price_text(price.unit_price),
        "subtotal": fmt(price.subtotal, 2),
        "fee": fmt(price.fee, 2),
        "total": fmt(price.total, 2),
        "id": None,
        "status": "quote",
        "transaction_id": None,
        "payout_at": None,
        "created_at": None,
    } | values


def execute_trade(
    db: Database, side: str, account: dict[str, Any], method: dict[str, Any], price: RetailPrice
) -> dict[str, Any]:
    """Commit a priced simple trade: move the crypto, settle the USD side and book both."""
    code, exp = account["currency"], places(db, account["currency"])
    buying = side == "buy"
    crypto = price.amount if buying else -price.amount
    verb = "Bought" if buying else "Sold"
    trade_id = db.new_uuid(trades)
    adjust(db, account, available=crypto)
    tx = record(
        db,
        account,
        side,
        crypto,
        description=f"{verb} {fmt(price.amount, exp)} {code} {'with' if buying else 'to'} {method['name']}",
        resource_id=trade_id,
    )
    if method["type"] == "fiat_account":
        usd = db.get(accounts, method["fiat_account_id"])
        cash = -price.total if buying else price.total
        adjust(db, usd, available=cash)
        record(db, usd, side, cash, description=f"{verb} {fmt(price.amount, exp)} {code}", resource_id=trade_id)
    payout = None
    if not buying:
        payout = iso_timestamp(db.now() if method["instant_sell"] else db.now() + timedelta(days=3))
    row = trade_row(
        db,
        side,
        account,
        method,
        price,
        id=trade_id,
        status="completed",
        transaction_id=tx["id"],
        payout_at=payout,
        created_at=db.now_iso(),
    )
    return db.insert(trades, **row)


def quote_conversion(db: Database, from_account: str, to_account: str, amount: float) -> dict[str, Any]:
    """Price a conversion and save it as a quote that holds its rate for 10 minutes."""
    source, target = db.get(accounts, from_account, "Account"), db.get(accounts, to_account, "Account")
    src, tgt = source["currency"], target["currency"]
    src_exp, tgt_exp = places(db, src), places(db, tgt)
    value = parse_amount(amount, src_exp)
    price = convert_price(db, src, tgt, value)
    check_available(db, source, value, "this conversion")
    return db.insert(
        conversions,
        id=db.new_uuid(conversions),
        status="TRADE_STATUS_CREATED",
        source_account_id=from_account,
        target_account_id=to_account,
        source_currency=src,
        target_currency=tgt,
        user_entered_amount=fmt(value, src_exp),
        fee=fmt(price.fee, src_exp),
        subtotal=fmt(price.subtotal, src_exp),
        exchange_rate=f"{price.rate.normalize():f}",
        target_amount=fmt(price.target_amount, tgt_exp),
        created_at=db.now_iso(),
        expires_at=iso_timestamp(db.now() + QUOTE_TTL),
    )


def commit_conversion(db: Database, trade_id: str, from_account: str, to_account: str) -> dict[str, Any]:
    """Commit a live quote: the source amount leaves one wallet and the quoted amount arrives in the other."""
    trade = db.get(conversions, trade_id, "Trade")
    if (trade["source_account_id"], trade["target_account_id"]) != (from_account, to_account):
        raise InvalidRequest("from_account and to_account must be the quote's source and target wallets")
    if trade["status"] != "TRADE_STATUS_CREATED":
        raise Conflict("This trade has already been committed")
    if expired(trade, db.now()):
        raise Conflict(f"This quote expired at {trade['expires_at']}; request a new quote")
    source, target = db.get(accounts, from_account), db.get(accounts, to_account)
    spent, received = dec(trade["user_entered_amount"]), dec(trade["target_amount"])
    check_available(db, source, spent, "this conversion")
    label = f"Converted {trade['user_entered_amount']} {trade['source_currency']} to {trade['target_currency']}"
    for account, delta in ((source, -spent), (target, received)):
        adjust(db, account, available=delta)
        record(db, account, "trade", delta, description=label, resource_id=trade_id)
    return db.update(conversions, trade_id, status="TRADE_STATUS_COMPLETED")
