"""Alpaca's rules that the account, activity, watchlist and calendar tools share: configuration changes, ACH
deposits and their daily limit, date and timestamp filters, activity ordering, and watchlist names and members."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import format_money, iso_timestamp, minor_units, parse_date, parse_timestamp

from .access import account
from .market import asset_by_symbol, ny_date, today
from .portfolio import OPEN_STATUSES, money
from .schema import account_activities, account_configurations, accounts, orders, positions, watchlists

DAILY_DEPOSIT_LIMIT = 50_000.0
DATE_EXAMPLE = "2025-06-01 (YYYY-MM-DD)"


# ---------------------------------------------------------------- dates and times


def day(value: str, name: str) -> str:
    """A YYYY-MM-DD argument, validated."""
    return parse_date(value, name, DATE_EXAMPLE).isoformat()


def moment(value: str, name: str, end_of_day: bool = False) -> str:
    """A date (its first or, with `end_of_day`, last second) or a timestamp, as a comparable UTC timestamp."""
    if "T" not in value.upper():
        return f"{day(value, name)}T{'23:59:59' if end_of_day else '00:00:00'}Z"
    return iso_timestamp(parse_timestamp(value, name, "2025-06-01T13:30:00Z"))


def activity_day(row: dict[str, Any]) -> str:
    """The New York date an activity belongs to."""
    return row["date"] or ny_date(row["transaction_time"])


def activity_time(row: dict[str, Any]) -> str:
    """When an activity happened (cash movements: the start of their date)."""
    return row["transaction_time"] or f"{row['date']}T00:00:00Z"


def activities(
    db: Database, types: list[str] | None, on: str | None, after: str | None, until: str | None, newest_first: bool
) -> list[dict[str, Any]]:
    """Activities of some types, filtered by New York date and ordered by time (then id)."""
    kinds = sorted(set(types or []))
    where = f"activity_type IN ({', '.join('?' * len(kinds))})" if kinds else ""
    rows = db.select(account_activities, where, kinds)
    dated = sorted(((activity_day(r), activity_time(r), r["id"], r) for r in rows), reverse=newest_first)
    return [
        r
        for d, _, _, r in dated
        if (on is None or d == on) and (after is None or d > after) and (until is None or d <= until)
    ]


def find_orders(
    db: Database,
    status: str,
    since: str | None,
    upto: str | None,
    symbols: list[str],
    side: str | None,
    newest_first: bool,
    limit: int,
) -> list[dict[str, Any]]:
    """Orders by submission time: open, closed or all, submitted after `since` and until `upto`, of some symbols
    or one side, at most `limit` of them."""
    where: list[str] = []
    params: list[Any] = []
    if status != "all":
        where.append(f"status {'' if status == 'open' else 'NOT '}IN ({', '.join('?' * len(OPEN_STATUSES))})")
        params += OPEN_STATUSES
    for value, sql in ((since, "submitted_at > ?"), (upto, "submitted_at <= ?"), (side, "side = ?")):
        if value is not None:
            where.append(sql)
            params.append(value)
    if symbols:
        where.append(f"symbol IN ({', '.join('?' * len(symbols))})")
        params += symbols
    order = f"submitted_at {'DESC' if newest_first else 'ASC'}"
    return db.select(orders, " AND ".join(where), params, order_by=order, limit=limit)


# ---------------------------------------------------------------- account


def configure(db: Database, changes: dict[str, Any]) -> dict[str, Any]:
    """Apply configuration changes; a long-only account can't hold short positions."""
    if not changes:
        raise InvalidRequest("no configuration to update")
    if changes.get("no_shorting") and db.select(positions, "qty < 0", limit=1):
        raise Conflict("cannot enable no_shorting while holding short positions")
    return db.update(account_configurations, account(db)["id"], **changes)


def deposit(db: Database, amount: float, activity_id: str) -> dict[str, Any]:
    """Credit an ACH deposit in whole cents, within the daily limit, as a CSD activity."""
    minor_units(amount, "USD", "amount")
    deposited = sum(a["net_amount"] for a in db.find(account_activities, activity_type="CSD", date=today(db)))
    if deposited + amount > DAILY_DEPOSIT_LIMIT:
        limit = format_money(minor_units(DAILY_DEPOSIT_LIMIT, "USD"), "USD", {"USD": "$"}).removesuffix(".00")
        raise InvalidRequest(f"ACH deposits are limited to {limit} a day")
    holder = account(db)
    db.update(accounts, holder["id"], cash=money(holder["cash"] + amount))
    return db.insert(
        account_activities,
        id=activity_id,
        activity_type="CSD",
        date=today(db),
        net_amount=amount,
        description="ACH deposit from linked bank account",
        status="executed",
    )


# ---------------------------------------------------------------- watchlists


def watchlist(db: Database, watchlist_id: str) -> dict[str, Any]:
    """A watchlist by id."""
    return db.find_one(watchlists, id=watchlist_id, not_found="watchlist not found")


def new_watchlist_name(db: Database, name: str) -> str:
    """A watchlist name, trimmed, unique in the account (case-insensitive)."""
    clean = name.strip()
    if any(w["name"].casefold() == clean.casefold() for w in db.find(watchlists)):
        raise Conflict(f"a watchlist named {clean} already exists")
    return clean


def watchable(db: Database, symbol: str) -> str:
    """The symbol of an active asset."""
    asset = asset_by_symbol(db, symbol)
    if asset["status"] != "active":
        raise InvalidRequest(f"asset {asset['symbol']} is not active")
    return asset["symbol"]


def watch_list_symbols(db: Database, symbols: list[str]) -> list[str]:
    """Symbols to start a watchlist with: active assets, each once."""
    listed: list[str] = []
    for symbol in symbols:
        found = watchable(db, symbol)
        if found in listed:
            raise InvalidRequest(f"duplicate symbol {found} in the request")
        listed.append(found)
    return listed
