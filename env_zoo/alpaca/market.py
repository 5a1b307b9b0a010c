"""The market clock and the price table: New York time, trading sessions from the calendar, quotes for fills."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from functools import lru_cache
from typing import Any, Literal
from zoneinfo import ZoneInfo

from envfactory_gym import Database, NotFound
from envfactory_gym.values import parse_timestamp

from .schema import assets, calendar, prices

NEW_YORK = ZoneInfo("America/New_York")
Session = Literal["pre", "open", "post", "closed"]


def ny_now(db: Database) -> datetime:
    """The simulated time in New York."""
    return db.now().astimezone(NEW_YORK)


def today(db: Database) -> str:
    """Today's date in New York, YYYY-MM-DD."""
    return ny_now(db).date().isoformat()


@lru_cache(maxsize=4096)
def ny_date(utc_stamp: str) -> str:
    """The New York date of a UTC timestamp such as 2025-06-18T13:41:07Z."""
    return parse_timestamp(utc_stamp, "timestamp").astimezone(NEW_YORK).date().isoformat()


def add_days(day: str, days: int) -> str:
    """A YYYY-MM-DD date `days` later."""
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def at(day: str, hhmm: str) -> datetime:
    """A New York moment of a calendar day ("09:30" or "0930")."""
    clean = hhmm.replace(":", "")
    return datetime.combine(date.fromisoformat(day), time(int(clean[:2]), int(clean[2:])), NEW_YORK)


def stamp(moment: datetime) -> str:
    """RFC 3339 with the New York offset, as the clock endpoint returns it."""
    return moment.isoformat(timespec="seconds")


def session(db: Database) -> Session:
    """Which trading session is running now: pre-market, regular hours, after-hours, or none."""
    now = ny_now(db)
    day = db.find(calendar, date=now.date().isoformat())
    if not day:
        return "closed"
    row = day[0]
    if now < at(row["date"], row["session_open"]) or now >= at(row["date"], row["session_close"]):
        return "closed"
    if now < at(row["date"], row["open"]):
        return "pre"
    return "open" if now < at(row["date"], row["close"]) else "post"


def trading_days(db: Database, after: str | None = None, until: str | None = None) -> list[dict[str, Any]]:
    """Calendar rows between two dates (inclusive), in date order."""
    bounds = [(after, '"date" >= ?'), (until, '"date" <= ?')]
    where = " AND ".join(sql for value, sql in bounds if value is not None)
    return db.select(calendar, where, [value for value, _ in bounds if value is not None], order_by='"date"')


def recent_trading_days(db: Database, count: int) -> list[str]:
    """The last `count` trading dates up to and including today."""
    rows = db.select(calendar, '"date" <= ?', (today(db),), order_by='"date" DESC', limit=count)
    return [r["date"] for r in rows]


def asset_by_symbol(db: Database, symbol_or_asset_id: str) -> dict[str, Any]:
    """An asset by symbol (any case) or asset id."""
    key = symbol_or_asset_id.strip()
    found = db.find(assets, symbol=key.upper()) or db.find(assets, id=key)
    if not found:
        raise NotFound(f"asset not found for {key}")
    return found[0]


def price(db: Database, symbol: str) -> dict[str, Any]:
    """The price-table row of a symbol."""
    return db.find_one(prices, symbol=symbol, not_found=f"no market data for {symbol}")
