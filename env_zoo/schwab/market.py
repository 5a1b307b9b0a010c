"""The market clock and the quote table: New York time, the equity sessions of a day (pre-market, regular,
after-hours), and which order session can trade now."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any, Literal
from zoneinfo import ZoneInfo

from envfactory_gym import Database, InvalidRequest, NotFound

from .schema import instruments, market_hours, quotes

NEW_YORK = ZoneInfo("America/New_York")
Phase = Literal["pre", "regular", "post", "closed"]


def ny_now(db: Database) -> datetime:
    """The simulated time in New York."""
    return db.now().astimezone(NEW_YORK)


def today(db: Database) -> str:
    """Today's date in New York, YYYY-MM-DD."""
    return ny_now(db).date().isoformat()


def at(day: str, hhmm: str) -> datetime:
    """A New York moment of a day, from "09:30"."""
    return datetime.combine(date.fromisoformat(day), time.fromisoformat(hhmm), NEW_YORK)


def hours(db: Database, day: str) -> dict[str, Any]:
    """The market-hours row of a day (weekends have none: closed)."""
    found = db.find(market_hours, date=day)
    if not found:
        return {"date": day, "is_open": False, "holiday": None}
    return found[0]


def phase(db: Database) -> Phase:
    """Which equity session is running now."""
    now = ny_now(db)
    row = hours(db, now.date().isoformat())
    if not row["is_open"]:
        return "closed"
    day = row["date"]
    if now < at(day, row["pre_market_start"]) or now >= at(day, row["post_market_end"]):
        return "closed"
    if now < at(day, row["regular_start"]):
        return "pre"
    return "regular" if now < at(day, row["regular_end"]) else "post"


SESSION_PHASES = {"NORMAL": {"regular"}, "AM": {"pre"}, "PM": {"post"}, "SEAMLESS": {"pre", "regular", "post"}}


def session_is_trading(db: Database, session: str) -> bool:
    """Whether an order of this session can execute right now."""
    return phase(db) in SESSION_PHASES[session]


def instrument(db: Database, symbol: str) -> dict[str, Any]:
    """An instrument by symbol (any case)."""
    found = db.find(instruments, symbol=symbol.strip().upper())
    if not found:
        raise NotFound(f"Symbol not found: {symbol.strip().upper()}")
    return found[0]


def quote(db: Database, symbol: str) -> dict[str, Any]:
    """The quote row of a symbol."""
    return db.find_one(quotes, symbol=symbol, not_found=f"No quote for {symbol}")


def tradable(db: Database, symbol: str) -> dict[str, Any]:
    """An instrument that accepts orders through the API."""
    found = instrument(db, symbol)
    if found["asset_type"] == "MUTUAL_FUND":
        raise InvalidRequest(f"{found['symbol']} is a mutual fund: mutual fund orders are not supported by the API")
    if found["halted"]:
        raise InvalidRequest(f"{found['symbol']} is halted: orders are not accepted")
    return found


def find_instruments(db: Database, text: str, by_symbol: bool) -> list[dict[str, Any]]:
    """Instruments whose symbol starts with `text`, or whose description contains it, by symbol."""
    clean = text.strip()
    where, pattern = ("symbol LIKE ?", f"{clean.upper()}%") if by_symbol else ("description LIKE ?", f"%{clean}%")
    return db.select(instruments, where, [pattern], order_by="symbol", limit=25)
