"""Advanced Trade order rules: product modes, sizes and increments, funds and holds, immediate fills at the best
bid or ask for market and marketable limit orders, resting limit orders, and cancellation."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from envfactory_gym import Database, InvalidRequest

from .rules import (
    ZERO,
    adjust,
    check_available,
    check_trading,
    dec,
    down,
    fee_tier,
    fmt,
    on_step,
    parse_amount,
    places,
    price_text,
    record,
    volume_30d,
    wallet,
)
from .schema import fills, orders, products

CANCELLABLE = "OPEN"
FAILURE_REASONS = {"FILLED": "ORDER_IS_FULLY_FILLED"}  # other closed states: INVALID_CANCEL_REQUEST


def _size(value: float, label: str, step: str) -> Decimal:
    amount = parse_amount(value, 12, label)
    on_step(amount, step, label)
    return amount


def _check_base_size(product: dict[str, Any], size: Decimal) -> None:
    low, high = dec(product["base_min_size"]), dec(product["base_max_size"])
    if not low <= size <= high:
        raise InvalidRequest(
            f"base_size must be between {product['base_min_size']} and {product['base_max_size']} "
            f"{product['base_currency_id']}"
        )


def _check_notional(product: dict[str, Any], value: Decimal) -> None:
    if value < dec(product["quote_min_size"]):
        raise InvalidRequest(
            f"Order is too small: the minimum for {product['product_id']} is "
            f"{product['quote_min_size']} {product['quote_currency_id']}"
        )
    if value > dec(product["quote_max_size"]):
        raise InvalidRequest(
            f"Order is too large: the maximum for {product['product_id']} is "
            f"{product['quote_max_size']} {product['quote_currency_id']}"
        )


def _check_shape(
    product: dict[str, Any],
    side: str,
    order_type: str,
    base_size: float | None,
    quote_size: float | None,
    limit_price: float | None,
    post_only: bool,
) -> None:
    """Which sizes an order type takes, and the product's trading mode."""
    name = product["product_id"]
    check_trading(product)
    if order_type == "MARKET":
        if product["limit_only"]:
            raise InvalidRequest(f"{name} is in limit-only mode: only limit orders are accepted")
        if product["post_only"]:
            raise InvalidRequest(f"{name} is in post-only mode: only post-only limit orders are accepted")
        if limit_price is not None or post_only:
            raise InvalidRequest("limit_price and post_only apply to limit orders only")
        if side == "BUY" and (base_size is None) == (quote_size is None):
            raise InvalidRequest("A market buy takes either quote_size or base_size")
        if side == "SELL" and (base_size is None or quote_size is not None):
            raise InvalidRequest("A market sell takes base_size")
        return
    if base_size is None or limit_price is None or quote_size is not None:
        raise InvalidRequest("A limit order takes base_size and limit_price")
    if product["post_only"] and not post_only:
        raise InvalidRequest(f"{name} is in post-only mode: set post_only")


def submit(
    db: Database,
    product_id: str,
    side: str,
    order_type: str,
    base_size: float | None,
    quote_size: float | None,
    limit_price: float | None,
    post_only: bool,
    client_order_id: str | None,
) -> dict[str, Any]:
    """Place an order once per client_order_id: repeating one returns the first order instead of placing another."""
    if client_order_id is not None:
        repeated = db.find(orders, client_order_id=client_order_id)
        if repeated:
            return repeated[0]
    return place(db, product_id, side, order_type, base_size, quote_size, limit_price, post_only, client_order_id)


def place(
    db: Database,
    product_id: str,
    side: str,
    order_type: str,
    base_size: float | None,
    quote_size: float | None,
    limit_price: float | None,
    post_only: bool,
    client_order_id: str | None,
) -> dict[str, Any]:
    """Validate and place an order; market and marketable limit orders fill at once, others rest and hold funds."""
    product = db.get(products, product_id.strip().upper(), "Product")
    _check_shape(product, side, order_type, base_size, quote_size, limit_price, post_only)
    base, quote = wallet(db, product["base_currency_id"]), wallet(db, product["quote_currency_id"])
    quote_step = Decimal(1).scaleb(-places(db, quote["currency"]))  # amounts in the quote currency
    _, _, _, taker, _ = fee_tier(volume_30d(db))
    bid, ask = dec(product["best_bid"]), dec(product["best_ask"])
    size = _size(base_size, "base_size", product["base_increment"]) if base_size is not None else None
    funds = _size(quote_size, "quote_size", product["quote_increment"]) if quote_size is not None else None
    price = _size(limit_price, "limit_price", product["price_increment"]) if limit_price is not None else None
    if funds is not None:  # market buy spending `funds`, fees included
        _check_notional(product, funds)
        check_available(db, quote, funds, "this order")
        size = down(down(funds / (1 + taker), quote_step) / ask, Decimal(product["base_increment"]))
    assert size is not None
    _check_base_size(product, size)
    fill_price = ask if side == "BUY" else bid
    if price is not None:
        crosses = price >= ask if side == "BUY" else price <= bid
        if crosses and post_only:
            raise InvalidRequest(
                f"Post-only order would cross the book (best {'ask' if side == 'BUY' else 'bid'} "
                f"{price_text(fill_price)}): it was not placed"
            )
        _check_notional(product, size * price)
    else:
        crosses = True
        _check_notional(product, size * fill_price)
    reserve_price = price if price is not None else fill_price
    if side == "BUY":
        notional = (size * reserve_price).quantize(quote_step, ROUND_HALF_UP)
        needed = notional + (notional * taker).quantize(quote_step, ROUND_HALF_UP)
        if funds is None:
            check_available(db, quote, needed, "this order")
    else:
        needed = size
        check_available(db, base, size, "this order")
    base_exp, quote_exp = places(db, base["currency"]), places(db, quote["currency"])
    order_id = db.new_uuid(orders)
    order = db.insert(
        orders,
        order_id=order_id,
        client_order_id=client_order_id or order_id,
        product_id=product["product_id"],
        side=side,
        order_type=order_type,
        time_in_force="IMMEDIATE_OR_CANCEL" if order_type == "MARKET" else "GOOD_UNTIL_CANCELLED",
        base_size=None if funds is not None else fmt(size, base_exp),
        quote_size=fmt(funds, quote_exp) if funds is not None else None,
        limit_price=price_text(price) if price is not None else None,
        post_only=post_only,
        end_time=None,
        status="OPEN",
        filled_size=fmt(ZERO, base_exp),
        filled_value=fmt(ZERO, quote_exp),
        average_filled_price="0.00",
        total_fees=fmt(ZERO, quote_exp),
        number_of_fills=0,
        outstanding_hold_amount="0",
        created_time=db.now_iso(),
        last_fill_time=None,
    )
    if crosses:
        return fill(db, order, product, fill_price, size, taker, "TAKER")
    held = quote if side == "BUY" else base
    adjust(db, held, available=-needed, hold=needed)
    return db.update(orders, order_id, outstanding_hold_amount=fmt(needed, quote_exp if side == "BUY" else base_exp))


def fill(
    db: Database,
    order: dict[str, Any],
    product: dict[str, Any],
    price: Decimal,
    size: Decimal,
    rate: Decimal,
    liquidity: str,
) -> dict[str, Any]:
    """Execute an order in full at `price`: move the wallets, book the fill and both wallets' history."""
    base, quote = wallet(db, product["base_currency_id"]), wallet(db, product["quote_currency_id"])
    base_exp, quote_exp = places(db, base["currency"]), places(db, quote["currency"])
    step = Decimal(1).scaleb(-quote_exp)
    value = (size * price).quantize(step, ROUND_HALF_UP)
    fee = (value * rate).quantize(step, ROUND_HALF_UP)
    buying = order["side"] == "BUY"
    base_delta, quote_delta = (size, -(value + fee)) if buying else (-size, value - fee)
    adjust(db, base, available=base_delta)
    adjust(db, quote, available=quote_delta)
    label = f"{'Bought' if buying else 'Sold'} {fmt(size, base_exp)} {base['currency']} on Advanced Trade"
    for account, delta in ((base, base_delta), (quote, quote_delta)):
        record(db, account, "advanced_trade_fill", delta, description=label, resource_id=order["order_id"])
    db.insert(
        fills,
        entry_id=db.new_uuid(fills),
        trade_id=db.new_uuid(fills),
        order_id=order["order_id"],
        product_id=product["product_id"],
        side=order["side"],
        price=price_text(price),
        size=fmt(size, base_exp),
        commission=fmt(fee, quote_exp),
        liquidity_indicator=liquidity,
        trade_time=db.now_iso(),
    )
    return db.update(
        orders,
        order["order_id"],
        status="FILLED",
        filled_size=fmt(size, base_exp),
        filled_value=fmt(value, quote_exp),
        average_filled_price=price_text(price),
        total_fees=fmt(fee, quote_exp),
        number_of_fills=1,
        last_fill_time=db.now_iso(),
    )


def cancel(db: Database, order_id: str) -> str | None:
    """Cancel an open order and release what it still holds; returns the failure reason, or None on success."""
    found = db.find(orders, order_id=order_id)
    if not found:
        return "UNKNOWN_CANCEL_ORDER"
    order = found[0]
    if order["status"] != CANCELLABLE:
        return FAILURE_REASONS.get(order["status"], "INVALID_CANCEL_REQUEST")
    product = db.get(products, order["product_id"], "Product")
    held = wallet(db, product["quote_currency_id" if order["side"] == "BUY" else "base_currency_id"])
    amount = dec(order["outstanding_hold_amount"])
    adjust(db, held, available=amount, hold=-amount)
    db.update(orders, order_id, status="CANCELLED", outstanding_hold_amount=fmt(ZERO, places(db, held["currency"])))
    return None
