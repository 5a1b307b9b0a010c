"""Valuing the account: positions at the latest trade price, margin, buying power net of open orders, what open
orders hold, and the pattern-day-trader count (day trades over the last 5 trading days)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envfactory_gym import Database

from .access import account, configurations
from .market import ny_date, price, recent_trading_days, today
from .objects import AccountObject, PositionObject, dec
from .schema import account_activities, assets, orders, positions

OPEN_STATUSES = ("accepted", "new", "partially_filled")
PDT_MIN_EQUITY = 25_000.0  # below this, a 4th day trade in 5 trading days is refused
MARGIN_MIN_EQUITY = 2_000.0  # below this the account trades on cash only
DAY_TRADE_LIMIT = 3


def money(value: float) -> float:
    """Rounded to the cent (and never -0.0)."""
    return round(value, 2) + 0.0


def shares(value: float) -> float:
    """Rounded to the 9 decimals fractional shares have."""
    return round(value, 9) + 0.0


def open_orders(db: Database, **equals: Any) -> list[dict[str, Any]]:
    """Orders still working (queued, new or partially filled), optionally of one symbol or side."""
    where = " AND ".join([f"status IN ({', '.join('?' * len(OPEN_STATUSES))})", *(f'"{k}" = ?' for k in equals)])
    return db.select(orders, where, [*OPEN_STATUSES, *equals.values()])


def unfilled(db: Database, order: dict[str, Any]) -> float:
    """Shares an open order still has to fill (notional orders: estimated at the current quote)."""
    if order["qty"] is not None:
        return shares(order["qty"] - order["filled_qty"])
    quote = price(db, order["symbol"])
    return shares(order["notional"] / (quote["ask_price"] if order["side"] == "buy" else quote["bid_price"]))


def order_value(db: Database, order: dict[str, Any]) -> float:
    """What an order commits: its notional, or its unfilled shares at the limit, stop or current quote."""
    if order["notional"] is not None:
        return order["notional"]
    quote = price(db, order["symbol"])
    touch = quote["ask_price"] if order["side"] == "buy" else quote["bid_price"]
    return money(unfilled(db, order) * (order["limit_price"] or order["stop_price"] or touch))


def held_qty(db: Database, symbol: str, side: str) -> float:
    """Shares of `symbol` that open orders on `side` already hold."""
    return shares(sum(unfilled(db, o) for o in open_orders(db, symbol=symbol, side=side)))


def reserved(db: Database) -> float:
    """Buying power committed to open orders that open or add to positions."""
    return money(sum(order_value(db, o) for o in open_orders(db) if o["position_intent"].endswith("_to_open")))


@dataclass(frozen=True)
class Valuation:
    """The account's balances at the latest prices."""

    cash: float
    long_market_value: float
    short_market_value: float
    initial_margin: float
    maintenance_margin: float
    multiplier: int
    reserved: float

    @property
    def equity(self) -> float:
        return money(self.cash + self.long_market_value + self.short_market_value)

    @property
    def regt_buying_power(self) -> float:
        return money(max(0.0, 2 * (self.equity - self.initial_margin)))

    @property
    def non_marginable_buying_power(self) -> float:
        return money(max(0.0, self.cash + self.short_market_value - self.reserved))

    @property
    def buying_power(self) -> float:
        if self.multiplier == 1:
            return self.non_marginable_buying_power
        return money(max(0.0, self.regt_buying_power - self.reserved))


def valuation(db: Database) -> Valuation:
    """Value every position at its latest trade price and work out margin and buying power."""
    long_value = short_value = initial = maintenance = 0.0
    for position in db.find(positions):
        asset = db.get(assets, position["asset_id"], "Asset")
        value = position["qty"] * price(db, position["symbol"])["last_price"]
        if value >= 0:
            long_value += value
        else:
            short_value += value
        initial += abs(value) * (0.5 if asset["marginable"] else 1.0)
        maintenance += abs(value) * asset["maintenance_margin_requirement"] / 100
    cash = account(db)["cash"]
    equity = cash + long_value + short_value
    allowed = int(configurations(db)["max_margin_multiplier"])
    return Valuation(
        cash=money(cash),
        long_market_value=money(long_value),
        short_market_value=money(short_value),
        initial_margin=money(initial),
        maintenance_margin=money(maintenance),
        multiplier=min(allowed, 2 if equity >= MARGIN_MIN_EQUITY else 1),
        reserved=reserved(db),
    )


def shorting_enabled(db: Database, value: Valuation) -> bool:
    """Short sales need margin (multiplier 2) and no long-only setting."""
    return value.multiplier > 1 and not configurations(db)["no_shorting"]


# ---------------------------------------------------------------- pattern day trading


def _fills_by_day(db: Database, days: list[str], symbol: str | None = None) -> dict[tuple[str, str], list[str]]:
    """Position intents of the fills on `days`, grouped by (New York date, symbol), in time order. Only fills from
    the UTC midnight before the first day on are read (a New York day starts 4 or 5 hours after it)."""
    if not days:
        return {}
    where, params = "activity_type = 'FILL' AND transaction_time >= ?", [f"{min(days)}T00:00:00Z"]
    if symbol is not None:
        where, params = f"{where} AND symbol = ?", [*params, symbol]
    rows = db.select(account_activities, where, params, order_by="transaction_time")
    ids = sorted({r["order_id"] for r in rows})
    placeholders = ", ".join("?" * len(ids))
    intents = {o["id"]: o["position_intent"] for o in db.select(orders, f"id IN ({placeholders})", ids)} if ids else {}
    grouped: dict[tuple[str, str], list[str]] = {}
    for fill in rows:
        day = ny_date(fill["transaction_time"])
        if day in days:
            grouped.setdefault((day, fill["symbol"]), []).append(intents[fill["order_id"]])
    return grouped


def _round_trips(intents: list[str]) -> int:
    """Day trades in one symbol's fills of one day: each switch from opening fills to a closing fill."""
    count, opened = 0, False
    for intent in intents:
        if intent.endswith("_to_open"):
            opened = True
        elif opened:
            count, opened = count + 1, False
    return count


def daytrade_count(db: Database) -> int:
    """Day trades in the last 5 trading days, today included."""
    return sum(_round_trips(i) for i in _fills_by_day(db, recent_trading_days(db, 5)).values())


def closes_same_day_position(db: Database, symbol: str) -> bool:
    """Whether a closing order in `symbol` now would complete a day trade (the last fill today opened)."""
    fills = _fills_by_day(db, [today(db)], symbol).get((today(db), symbol), [])
    return bool(fills) and fills[-1].endswith("_to_open")


# ---------------------------------------------------------------- API objects


def account_object(db: Database) -> AccountObject:
    """The account with balances valued now."""
    row, value = account(db), valuation(db)
    pdt = row["pattern_day_trader"]
    daytrading = 4 * (value.equity - value.maintenance_margin) if pdt and value.equity >= PDT_MIN_EQUITY else 0.0
    return AccountObject(
        id=row["id"],
        account_number=row["account_number"],
        status=row["status"],
        crypto_status=row["crypto_status"],
        currency=row["currency"],
        cash=dec(value.cash),
        portfolio_value=dec(value.equity),
        equity=dec(value.equity),
        last_equity=dec(row["last_equity"]),
        long_market_value=dec(value.long_market_value),
        short_market_value=dec(value.short_market_value),
        initial_margin=dec(value.initial_margin),
        maintenance_margin=dec(value.maintenance_margin),
        buying_power=dec(value.buying_power),
        regt_buying_power=dec(value.regt_buying_power),
        daytrading_buying_power=dec(money(max(0.0, daytrading))),
        non_marginable_buying_power=dec(value.non_marginable_buying_power),
        multiplier=str(value.multiplier),
        daytrade_count=daytrade_count(db),
        pattern_day_trader=pdt,
        trading_blocked=row["trading_blocked"],
        transfers_blocked=row["transfers_blocked"],
        account_blocked=row["account_blocked"],
        trade_suspended_by_user=configurations(db)["suspend_trade"],
        shorting_enabled=shorting_enabled(db, value),
        created_at=row["created_at"],
    )


def position_object(db: Database, row: dict[str, Any]) -> PositionObject:
    """A position valued at the latest trade, with what open closing orders hold taken off qty_available."""
    asset = db.get(assets, row["asset_id"], "Asset")
    quote = price(db, row["symbol"])
    qty, entry = row["qty"], row["avg_entry_price"]
    current, lastday = quote["last_price"], quote["prev_close"]
    closing_side = "sell" if qty > 0 else "buy"
    available = shares(abs(qty) - held_qty(db, row["symbol"], closing_side))
    cost = money(qty * entry)
    market_value = money(qty * current)
    intraday = money(qty * (current - lastday))
    return PositionObject(
        asset_id=row["asset_id"],
        symbol=row["symbol"],
        exchange=asset["exchange"],
        asset_class=asset["asset_class"],
        asset_marginable=asset["marginable"],
        qty=dec(qty),
        qty_available=dec(available if qty > 0 else -available),
        avg_entry_price=dec(entry),
        side="long" if qty > 0 else "short",
        market_value=dec(market_value),
        cost_basis=dec(cost),
        unrealized_pl=dec(money(market_value - cost)),
        unrealized_plpc=dec(round((market_value - cost) / abs(cost), 6) if cost else 0.0),
        unrealized_intraday_pl=dec(intraday),
        unrealized_intraday_plpc=dec(round(intraday / abs(qty * lastday), 6)),
        current_price=dec(current),
        lastday_price=dec(lastday),
        change_today=dec(round((current - lastday) / lastday, 6)),
    )
