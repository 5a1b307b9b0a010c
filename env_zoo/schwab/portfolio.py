"""Valuing an account: positions at the last trade price, balances, what open orders commit, and the buying power
or cash available for trading that new orders and journals may use."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .market import quote
from .objects import OPEN_STATUSES, Balances, Position, SecuritiesAccount
from .schema import instruments, orders, positions

MARGIN_MULTIPLIER = 2.0  # Reg T: buying power is twice the excess equity
INITIAL_REQUIREMENT = 0.5


def money(value: float) -> float:
    """Rounded to the cent (and never -0.0)."""
    return round(value, 2) + 0.0


def holdings(db: Database, account_number: str) -> list[dict[str, Any]]:
    """An account's position rows, by symbol."""
    return db.find(positions, account_number=account_number, order_by=[positions.c.symbol])


def holding(db: Database, account_number: str, symbol: str) -> dict[str, Any] | None:
    """An account's position in one symbol, if any."""
    found = db.find(positions, id=f"{account_number}:{symbol}")
    return found[0] if found else None


def open_orders(db: Database, account_number: str, **equals: Any) -> list[dict[str, Any]]:
    """An account's orders still working or queued, optionally of one symbol or instruction."""
    where = " AND ".join(
        ["account_number = ?", f"status IN ({', '.join('?' * len(OPEN_STATUSES))})", *(f"{k} = ?" for k in equals)]
    )
    return db.select(orders, where, [account_number, *OPEN_STATUSES, *equals.values()])


def order_value(db: Database, row: dict[str, Any]) -> float:
    """What an open order commits: its remaining shares at its limit or stop price, or at the current quote."""
    touch = quote(db, row["symbol"])
    reference = row["price"] or row["stop_price"]
    if reference is None:
        reference = touch["ask_price"] if row["instruction"] in ("BUY", "BUY_TO_COVER") else touch["bid_price"]
    return money((row["quantity"] - row["filled_quantity"]) * reference)


def committed(db: Database, account_number: str, exclude: int | None = None) -> float:
    """Buying power used by open buy and short-sale orders (leaving out one order being replaced)."""
    return money(
        sum(
            order_value(db, o)
            for o in open_orders(db, account_number)
            if o["instruction"] in ("BUY", "SELL_SHORT") and o["order_id"] != exclude
        )
    )


def committed_shares(db: Database, account_number: str, symbol: str, instruction: str, exclude: int | None) -> float:
    """Shares of a symbol that open orders with this instruction already hold."""
    return sum(
        o["quantity"] - o["filled_quantity"]
        for o in open_orders(db, account_number, symbol=symbol, instruction=instruction)
        if o["order_id"] != exclude
    )


def market_values(db: Database, account_number: str) -> tuple[float, float]:
    """Long and short market value of an account's positions."""
    long_value = short_value = 0.0
    for row in holdings(db, account_number):
        last = quote(db, row["symbol"])["last_price"]
        long_value += row["long_quantity"] * last
        short_value += row["short_quantity"] * last
    return money(long_value), money(short_value)


def buying_power(db: Database, account: dict[str, Any], exclude: int | None = None) -> float:
    """What a new buy or short sale may use: margin accounts twice the excess equity, cash accounts their cash;
    both net of open orders."""
    return balances(db, account, exclude).buying_power


def balances(db: Database, account: dict[str, Any], exclude: int | None = None) -> Balances:
    """An account's current balances."""
    number = account["account_number"]
    cash = account["cash_balance"]
    long_value, short_value = market_values(db, number)
    equity = money(cash + long_value - short_value)
    used = committed(db, number, exclude)
    cash_free = money(max(0.0, cash - used))
    if account["type"] == "MARGIN":
        excess = equity - INITIAL_REQUIREMENT * (long_value + short_value)
        power = money(max(0.0, MARGIN_MULTIPLIER * excess - used))
        available = money(max(0.0, excess - used / MARGIN_MULTIPLIER))
    else:
        power = available = cash_free
    return Balances(
        cash_balance=money(cash),
        long_market_value=long_value,
        short_market_value=short_value,
        liquidation_value=equity,
        buying_power=power,
        available_funds=available,
        cash_available_for_trading=cash_free,
        cash_available_for_withdrawal=cash_free,
        closing_equity=account["closing_equity"],
    )


def position_object(db: Database, row: dict[str, Any]) -> Position:
    """A position row, valued at the last trade."""
    touch = quote(db, row["symbol"])
    info = db.get(instruments, row["symbol"], "Instrument")
    net = row["long_quantity"] - row["short_quantity"]
    return Position(
        symbol=row["symbol"],
        description=info["description"],
        asset_type=info["asset_type"],
        long_quantity=row["long_quantity"],
        short_quantity=row["short_quantity"],
        average_price=row["average_price"],
        market_value=money(net * touch["last_price"]),
        current_day_profit_loss=money(net * (touch["last_price"] - touch["close_price"])),
        long_open_profit_loss=money(row["long_quantity"] * (touch["last_price"] - row["average_price"])),
    )


def account_object(db: Database, account: dict[str, Any], with_positions: bool) -> SecuritiesAccount:
    """A securities account with its balances and, if asked for, positions."""
    return SecuritiesAccount(
        account_number=account["account_number"],
        type=account["type"],
        registration=account["registration"],
        nickname=account["nickname"],
        is_closing_only_restricted=account["restricted"],
        current_balances=balances(db, account),
        positions=[position_object(db, r) for r in holdings(db, account["account_number"])] if with_positions else None,
    )
