"""Alpaca's order rules and the fill engine: validation (asset, quantity or notional, prices, fractional and
extended-hours limits), position intent, available quantity, short-sale eligibility, pattern-day-trader
protection and buying power; then queueing outside market hours or filling against the price table."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .access import account, check_may_trade, configurations
from .market import asset_by_symbol, price, session, today
from .objects import dec
from .portfolio import (
    DAY_TRADE_LIMIT,
    OPEN_STATUSES,
    PDT_MIN_EQUITY,
    closes_same_day_position,
    daytrade_count,
    held_qty,
    money,
    order_value,
    shares,
    shorting_enabled,
    unfilled,
    valuation,
)
from .schema import account_activities, accounts, orders, positions

PRICED = {"limit": ("limit_price",), "stop": ("stop_price",), "stop_limit": ("limit_price", "stop_price")}


def tradable_asset(db: Database, symbol_or_asset_id: str) -> dict[str, Any]:
    """An asset that can be traded now."""
    asset = asset_by_symbol(db, symbol_or_asset_id)
    if asset["status"] != "active" or not asset["tradable"]:
        raise InvalidRequest(f"asset {asset['symbol']} is not tradable")
    return asset


def working_order(db: Database, order_id: str) -> dict[str, Any]:
    """An order that can still be canceled or replaced."""
    found = db.find(orders, id=order_id)
    if not found:
        raise NotFound("order not found")
    if found[0]["status"] not in OPEN_STATUSES:
        raise Conflict(f'order is already in "{found[0]["status"]}" state')
    return found[0]


def _check_prices(order_type: str, limit_price: float | None, stop_price: float | None) -> None:
    """The prices an order type needs, and no others, in whole cents (or 1/100 cent below $1); their types keep
    them positive."""
    given = {"limit_price": limit_price, "stop_price": stop_price}
    needed = PRICED.get(order_type, ())
    for name, value in given.items():
        if name in needed and value is None:
            raise InvalidRequest(f"{name} is required for {order_type} orders")
        if name not in needed and value is not None:
            raise InvalidRequest(f"{name} is not allowed for {order_type} orders")
        if value is not None and round(value, 2 if value >= 1 else 4) != value:
            raise InvalidRequest("sub-penny increment does not fulfill minimum pricing criteria")


def _check_order_shape(db: Database, asset: dict[str, Any], order: dict[str, Any]) -> bool:
    """qty or notional (positive by their types); fractional orders only as market day orders on fractionable
    assets; extended hours only for day limit orders. Returns whether the order is fractional."""
    qty, notional = order["qty"], order["notional"]
    if qty is None and notional is None:
        raise InvalidRequest("qty or notional is required")
    if qty is not None and notional is not None:
        raise InvalidRequest("only one of qty or notional can be specified")
    if notional is not None and money(notional) != notional:
        raise InvalidRequest("notional must be in whole cents")
    fractional = notional is not None or qty != int(qty)
    if fractional:
        if not configurations(db)["fractional_trading"]:
            raise PermissionDenied("fractional trading is not enabled for this account")
        if not asset["fractionable"]:
            raise InvalidRequest(f"asset {asset['symbol']} is not fractionable")
        if order["type"] != "market" or order["time_in_force"] != "day":
            raise InvalidRequest("fractional orders must be market orders with time_in_force day")
    if order["extended_hours"] and (order["type"] != "limit" or order["time_in_force"] != "day"):
        raise InvalidRequest("extended hours orders must be DAY limit orders")
    return fractional


def _position_qty(db: Database, symbol: str) -> float:
    found = db.find(positions, symbol=symbol)
    return found[0]["qty"] if found else 0.0


def _intent(db: Database, asset: dict[str, Any], order: dict[str, Any], fractional: bool) -> str:
    """buy/sell to open or to close, refusing more than the position has free and ineligible short sales."""
    held = _position_qty(db, asset["symbol"])
    closing = (order["side"] == "sell" and held > 0) or (order["side"] == "buy" and held < 0)
    if closing:
        available = shares(abs(held) - held_qty(db, asset["symbol"], order["side"]))
        requested = unfilled(db, order)
        if requested > available:
            raise PermissionDenied(
                f"insufficient qty available for order (requested: {dec(requested)}, available: {dec(available)})"
            )
        return f"{order['side']}_to_close"
    if order["side"] == "sell":
        if fractional:
            raise InvalidRequest("fractional orders cannot be sold short")
        if not shorting_enabled(db, valuation(db)):
            raise PermissionDenied("account is not allowed to short")
        if not asset["shortable"]:
            raise InvalidRequest(f"asset {asset['symbol']} cannot be sold short")
        if not asset["easy_to_borrow"]:
            raise InvalidRequest(f"asset {asset['symbol']} is not easy to borrow")
    return f"{order['side']}_to_open"


def _check_pattern_day_trading(db: Database, symbol: str) -> None:
    """Below $25,000 of equity, a 4th day trade within 5 trading days is refused at entry."""
    if (
        closes_same_day_position(db, symbol)
        and daytrade_count(db) >= DAY_TRADE_LIMIT
        and valuation(db).equity < PDT_MIN_EQUITY
    ):
        raise PermissionDenied("trade denied due to pattern day trading protection")


def _check_buying_power(db: Database, asset: dict[str, Any], order: dict[str, Any]) -> None:
    value = valuation(db)
    available = value.buying_power if asset["marginable"] else value.non_marginable_buying_power
    if order_value(db, order) > available:
        raise PermissionDenied("insufficient buying power")


def place_order(db: Database, asset: dict[str, Any], client_order_id: str | None, **request: Any) -> dict[str, Any]:
    """Validate a new order (side, type, time_in_force, qty, notional, limit_price, stop_price, extended_hours),
    store it and route it: queued outside its session, filled when marketable, resting otherwise."""
    check_may_trade(db)
    _check_prices(request["type"], request["limit_price"], request["stop_price"])
    order = {**request, "symbol": asset["symbol"], "filled_qty": 0.0}
    fractional = _check_order_shape(db, asset, order)
    if client_order_id is not None and db.find(orders, client_order_id=client_order_id):
        raise Conflict("client_order_id must be unique")
    intent = _intent(db, asset, order, fractional)
    if intent.endswith("_to_close"):
        _check_pattern_day_trading(db, asset["symbol"])
    else:
        _check_buying_power(db, asset, order)
    now = db.now_iso()
    row = db.insert(
        orders,
        **order,
        id=db.new_uuid(orders),
        client_order_id=client_order_id or db.new_uuid(orders),
        created_at=now,
        updated_at=now,
        submitted_at=now,
        filled_at=None,
        expired_at=None,
        canceled_at=None,
        failed_at=None,
        replaced_at=None,
        replaced_by=None,
        replaces=None,
        asset_id=asset["id"],
        asset_class=asset["asset_class"],
        filled_avg_price=None,
        order_class="simple",
        position_intent=intent,
        status="pending_new",
    )
    return route(db, row)


def fill_price(db: Database, order: dict[str, Any]) -> float | None:
    """Where the order executes against the quote now: buys at the ask, sells at the bid; None if not
    marketable (stop not triggered by the last trade, limit not reached)."""
    quote = price(db, order["symbol"])
    buy = order["side"] == "buy"
    touch = quote["ask_price"] if buy else quote["bid_price"]
    if order["stop_price"] is not None:
        triggered = quote["last_price"] >= order["stop_price"] if buy else quote["last_price"] <= order["stop_price"]
        if not triggered:
            return None
    if order["limit_price"] is not None:
        reached = order["limit_price"] >= touch if buy else order["limit_price"] <= touch
        return touch if reached else None
    return touch


def route(db: Database, order: dict[str, Any]) -> dict[str, Any]:
    """Queue the order outside its session (accepted), fill it if marketable, else leave it working (new), or
    cancel an unfilled ioc/fok order."""
    now = db.now_iso()
    running = session(db)
    if not (running == "open" or (order["extended_hours"] and running in ("pre", "post"))):
        return db.update(orders, order["id"], status="accepted", updated_at=now)
    at = fill_price(db, order)
    if at is not None:
        return fill(db, order, at)
    if order["time_in_force"] in ("ioc", "fok"):
        return db.update(orders, order["id"], status="canceled", canceled_at=now, updated_at=now)
    return db.update(orders, order["id"], status="new", updated_at=now)


def _move_position(db: Database, order: dict[str, Any], qty: float, at: float) -> None:
    signed = qty if order["side"] == "buy" else -qty
    found = db.find(positions, symbol=order["symbol"])
    if not found:
        db.insert(positions, symbol=order["symbol"], asset_id=order["asset_id"], qty=shares(signed), avg_entry_price=at)
        return
    held = found[0]
    total = shares(held["qty"] + signed)
    if total == 0:
        db.delete(positions, order["symbol"])
    elif held["qty"] * signed > 0:
        entry = round((held["qty"] * held["avg_entry_price"] + signed * at) / total, 6)
        db.update(positions, order["symbol"], qty=total, avg_entry_price=entry)
    else:
        db.update(positions, order["symbol"], qty=total)


def activity_id(db: Database) -> str:
    """An activity id in Alpaca's `YYYYMMDDHHMMSSmmm::uuid` form, dated today."""
    return f"{today(db).replace('-', '')}000000000::{db.new_uuid(account_activities)}"


def fill(db: Database, order: dict[str, Any], at: float) -> dict[str, Any]:
    """Execute the rest of an order at `at`: move the position and the cash, record the FILL activity, and flag
    the account a pattern day trader once it makes a 4th day trade in 5 trading days."""
    qty = unfilled(db, order) if order["qty"] is not None else shares(order["notional"] / at)
    _move_position(db, order, qty, at)
    cash = account(db)["cash"]
    traded = money(qty * at)
    db.update(accounts, account(db)["id"], cash=money(cash - traded if order["side"] == "buy" else cash + traded))
    total = shares(order["filled_qty"] + qty)
    average = round(((order["filled_avg_price"] or 0.0) * order["filled_qty"] + qty * at) / total, 6)
    now = db.now_iso()
    row = db.update(
        orders, order["id"], status="filled", filled_qty=total, filled_avg_price=average, filled_at=now, updated_at=now
    )
    db.insert(
        account_activities,
        id=activity_id(db),
        activity_type="FILL",
        transaction_time=now,
        type="fill",
        price=at,
        qty=qty,
        side=order["side"],
        symbol=order["symbol"],
        leaves_qty=0.0,
        cum_qty=total,
        order_id=order["id"],
        order_status="filled",
        date=None,
        net_amount=None,
        per_share_amount=None,
        description=None,
        status=None,
    )
    if daytrade_count(db) > DAY_TRADE_LIMIT:
        db.update(accounts, account(db)["id"], pattern_day_trader=True)
    return row
