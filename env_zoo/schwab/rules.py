"""Schwab's rules that the order-history, transaction and money-movement tools share: date windows (orders within
a year, or 60 days across all accounts; transactions within a year), and journals of cash between a client's own
accounts (never out of an IRA, within the cash available, and within the year's IRA contribution limit)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import iso_timestamp, parse_date, parse_timestamp

from .market import today
from .portfolio import balances, money
from .schema import accounts, orders, transactions
from .trading import next_key

DEFAULT_WINDOW_DAYS = 60
IRA_CONTRIBUTION_LIMIT = 7_500.0  # 2026, under age 50
IRA = ("Roth IRA", "Traditional IRA")
DEPOSITS = ("ACH_RECEIPT", "JOURNAL", "WIRE_IN")


def window(db: Database, start: str | None, end: str | None, max_days: int, what: str) -> tuple[str, str]:
    """A [start, end] timestamp window, defaulting to the last 60 days, at most `max_days` long."""
    upper = parse_timestamp(end, "toEnteredTime") if end else db.now()
    lower = parse_timestamp(start, "fromEnteredTime") if start else upper - timedelta(days=DEFAULT_WINDOW_DAYS)
    if lower > upper:
        raise InvalidRequest(f"{what}: the start of the range must be before its end")
    if (upper - lower).days > max_days:
        raise InvalidRequest(f"{what}: the date range can not exceed {max_days} days")
    return iso_timestamp(lower), iso_timestamp(upper)


def find_orders(
    db: Database, numbers: list[str], start: str, end: str, status: str | None, limit: int
) -> list[dict[str, Any]]:
    """Orders of some accounts entered in a window, newest first."""
    where = [f"account_number IN ({', '.join('?' * len(numbers))})", "entered_time >= ?", "entered_time <= ?"]
    params: list[Any] = [*numbers, start, end]
    if status is not None:
        where.append("status = ?")
        params.append(status)
    return db.select(orders, " AND ".join(where), params, order_by="entered_time DESC, order_id DESC", limit=limit)


def day_window(db: Database, start: str | None, end: str | None) -> tuple[str, str]:
    """A [start, end] YYYY-MM-DD window for transactions, at most a year, defaulting to the last 60 days."""
    last = parse_date(end, "endDate", "2026-04-14").isoformat() if end else today(db)
    first = (
        parse_date(start, "startDate", "2026-03-01").isoformat()
        if start
        else (date.fromisoformat(last) - timedelta(days=DEFAULT_WINDOW_DAYS)).isoformat()
    )
    if first > last:
        raise InvalidRequest("startDate must be on or before endDate")
    if (date.fromisoformat(last) - date.fromisoformat(first)).days > 365:
        raise InvalidRequest("The date range can not exceed 1 year")
    return first, last


def find_transactions(
    db: Database, number: str, first: str, last: str, types: list[str], symbol: str | None
) -> list[dict[str, Any]]:
    """An account's transactions in a date window, of some types or one symbol, newest first."""
    where = ["account_number = ?", "trade_date >= ?", "trade_date <= ?"]
    params: list[Any] = [number, first, last]
    if types:
        where.append(f"type IN ({', '.join('?' * len(types))})")
        params += types
    if symbol is not None:
        where.append("symbol = ?")
        params.append(symbol.strip().upper())
    return db.select(transactions, " AND ".join(where), params, order_by="trade_date DESC, activity_id DESC")


def contributions(db: Database, number: str) -> float:
    """Money put into an IRA this calendar year."""
    year = today(db)[:4]
    rows = db.select(
        transactions,
        f"account_number = ? AND trade_date >= ? AND net_amount > 0 AND type IN ({', '.join('?' * len(DEPOSITS))})",
        [number, f"{year}-01-01", *DEPOSITS],
    )
    return money(sum(r["net_amount"] for r in rows))


def journal(db: Database, source: dict[str, Any], target: dict[str, Any], amount: float) -> list[dict[str, Any]]:
    """Move cash between two of the client's accounts as a pair of JOURNAL transactions."""
    if source["account_number"] == target["account_number"]:
        raise InvalidRequest("The from and to accounts must be different")
    if source["registration"] in IRA:
        raise InvalidRequest("Money can't be journaled out of an IRA: a withdrawal from an IRA is a distribution")
    available = balances(db, source).cash_available_for_withdrawal
    if amount > available:
        raise Conflict(f"Amount exceeds the cash available for withdrawal (${available:,.2f})")
    if target["registration"] in IRA:
        room = money(IRA_CONTRIBUTION_LIMIT - contributions(db, target["account_number"]))
        if amount > room:
            raise Conflict(f"This contribution would exceed the IRA contribution limit: ${room:,.2f} left this year")
    rows = []
    for account, net, other in ((source, -amount, target), (target, amount, source)):
        fresh = db.get(accounts, account["account_number"], "Account")
        db.update(accounts, account["account_number"], cash_balance=money(fresh["cash_balance"] + net))
        verb = "to" if net < 0 else "from"
        rows.append(
            db.insert(
                transactions,
                activity_id=next_key(db, transactions, "activity_id"),
                account_number=account["account_number"],
                type="JOURNAL",
                trade_date=today(db),
                time=db.now_iso(),
                description=f"Journal {verb} account ...{other['account_number'][-3:]}",
                net_amount=money(net),
                symbol=None,
                quantity=None,
                price=None,
                order_id=None,
                status="VALID",
            )
        )
    return rows
