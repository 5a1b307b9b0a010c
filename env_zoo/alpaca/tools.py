"""Alpaca Trading API tools: account and configurations, assets, market data snapshots, orders, positions,
account activities, watchlists, the market clock and calendar, and the account holder's bank deposits."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoTimestamp, PageSize

from .access import account, configurations
from .market import add_days, asset_by_symbol, at, ny_now, price, session, stamp, today, trading_days
from .objects import (
    AccountConfigurationsObject,
    AccountObject,
    AssetObject,
    Bar,
    CalendarDay,
    ClockObject,
    NonTradeActivity,
    OrderObject,
    PositionObject,
    Quote,
    SnapshotObject,
    Trade,
    TradeActivity,
    WatchlistObject,
    activity_object,
    asset_object,
    non_trade_activity,
    order_object,
    watchlist_object,
)
from .portfolio import account_object, position_object, shares, unfilled
from .rules import (
    activities,
    configure,
    day,
    deposit,
    find_orders,
    moment,
    new_watchlist_name,
    watch_list_symbols,
    watchable,
    watchlist,
)
from .schema import assets, orders, positions, watchlists
from .trading import activity_id, place_order, tradable_asset, working_order

Side = Literal["buy", "sell"]
OrderType = Literal["market", "limit", "stop", "stop_limit"]
TimeInForce = Literal["day", "gtc", "ioc", "fok"]
ActivityType = Literal["FILL", "DIV", "CSD", "CSW", "INT"]
Exchange = Literal["NASDAQ", "NYSE", "ARCA", "AMEX", "BATS", "OTC"]
Quantity = Annotated[float, Field(gt=0), ErrorText("qty must be > 0")]
Notional = Annotated[float, Field(ge=1), ErrorText("cost basis must be >= 1")]
LimitPrice = Annotated[float, Field(gt=0), ErrorText("limit_price must be > 0")]
StopPrice = Annotated[float, Field(gt=0), ErrorText("stop_price must be > 0")]
ClientOrderId = Annotated[
    str, Field(min_length=1, max_length=128), ErrorText("client_order_id must be 1 to 128 characters")
]
OrderLimit = Annotated[int, Field(ge=1, le=500), ErrorText("limit must be between 1 and 500")]
Percentage = Annotated[float, Field(gt=0, le=100), ErrorText("percentage must be between 0 and 100")]
DepositAmount = Annotated[float, Field(gt=0), ErrorText("amount must be a positive amount in whole cents")]
WatchlistName = Annotated[
    str, Field(min_length=1, max_length=64, pattern=r"\S"), ErrorText("watchlist name must be 1 to 64 characters")
]


# ---------------------------------------------------------------- account


@tool(read_only=True)
def get_account(db: Database) -> AccountObject:
    """Get the trading account: cash, equity, buying power (net of open orders), margin multiplier, the pattern
    day trader flag and the number of day trades in the last 5 trading days."""
    return account_object(db)


@tool(read_only=True)
def get_account_configurations(db: Database) -> AccountConfigurationsObject:
    """Get the account's configurations: trade confirmation emails, trading suspension, long-only mode,
    fractional trading and the maximum margin multiplier."""
    return AccountConfigurationsObject(**configurations(db))


@tool()
def update_account_configurations(
    db: Database,
    trade_confirm_email: Literal["all", "none"] | None = None,
    suspend_trade: bool | None = None,
    no_shorting: bool | None = None,
    fractional_trading: bool | None = None,
    max_margin_multiplier: Literal["1", "2"] | None = None,
) -> AccountConfigurationsObject:
    """Change account configurations; settings left out keep their value. Turning on no_shorting while holding a
    short position is refused.

    Args:
        trade_confirm_email: "all" to get an email for every fill, "none" for no fill emails.
        suspend_trade: true blocks all new orders (open orders keep working); false allows trading again.
        no_shorting: true makes the account long-only (short sales are rejected).
        fractional_trading: false rejects fractional and notional orders.
        max_margin_multiplier: "1" trades on cash only (no margin, no short sales), "2" allows Reg T margin.
    """
    changes = given(
        trade_confirm_email=trade_confirm_email,
        suspend_trade=suspend_trade,
        no_shorting=no_shorting,
        fractional_trading=fractional_trading,
        max_margin_multiplier=max_margin_multiplier,
    )
    return AccountConfigurationsObject(**configure(db, changes))


@tool(user_only=True)
def deposit_funds(db: Database, amount: DepositAmount) -> NonTradeActivity:
    """(Account holder only, in the Alpaca dashboard) Deposit cash into the account by ACH from the linked bank
    account; it is credited at once as a CSD activity.

    Args:
        amount: US dollars to deposit, e.g. 2000.
    """
    return non_trade_activity(deposit(db, amount, activity_id(db)))


# ---------------------------------------------------------------- assets and market data


@tool(read_only=True)
def list_assets(
    db: Database,
    status: Literal["active", "inactive"] | None = None,
    exchange: Exchange | None = None,
    attributes: list[str] | None = None,
) -> list[AssetObject]:
    """List US equities, sorted by symbol, with whether each is tradable, marginable, shortable, easy to borrow
    and fractionable.

    Args:
        status: Only active or only inactive (delisted) assets.
        exchange: Only assets listed on this exchange.
        attributes: Only assets having all of these attributes, e.g. ["has_options"] or ["fractional_eh_enabled"].
    """
    rows = db.find(assets, order_by=[assets.c.symbol], **given(status=status, exchange=exchange))
    wanted = set(attributes or [])
    return [asset_object(r) for r in rows if wanted <= set(r["attributes"])]


@tool(read_only=True)
def get_asset(db: Database, symbol_or_asset_id: str) -> AssetObject:
    """Get one asset by its symbol or asset id.

    Args:
        symbol_or_asset_id: A ticker symbol such as AAPL, or the asset's UUID.
    """
    return asset_object(asset_by_symbol(db, symbol_or_asset_id))


@tool(read_only=True)
def get_stock_snapshot(db: Database, symbol: str) -> SnapshotObject:
    """Get a stock's market data snapshot: the latest trade, the latest bid/ask quote, today's daily bar and the
    previous day's bar. Market orders buy at the ask and sell at the bid.

    Args:
        symbol: The ticker symbol, e.g. AAPL.
    """
    row = price(db, asset_by_symbol(db, symbol)["symbol"])
    now = db.now_iso()
    return SnapshotObject(
        symbol=row["symbol"],
        latest_trade=Trade(price=row["last_price"], size=row["last_size"], timestamp=now),
        latest_quote=Quote(**{k: row[k] for k in Quote.model_fields if k != "timestamp"}, timestamp=now),
        daily_bar=Bar(
            open=row["open"], high=row["high"], low=row["low"], close=row["last_price"], volume=row["volume"]
        ),
        previous_daily_bar=Bar(
            open=row["prev_open"],
            high=row["prev_high"],
            low=row["prev_low"],
            close=row["prev_close"],
            volume=row["prev_volume"],
        ),
    )


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def list_orders(
    db: Database,
    status: Literal["open", "closed", "all"] = "open",
    limit: OrderLimit = 50,
    after: IsoTimestamp | None = None,
    until: IsoTimestamp | None = None,
    direction: Literal["asc", "desc"] = "desc",
    symbols: str | None = None,
    side: Side | None = None,
) -> list[OrderObject]:
    """List orders by submission time. Open orders are accepted (queued until the market opens), new or
    partially filled; closed ones are filled, canceled, expired, replaced or rejected.

    Args:
        status: open, closed or all.
        limit: Maximum number of orders, 1 to 500.
        after: Only orders submitted after this timestamp or date (2025-06-01).
        until: Only orders submitted until this timestamp or date.
        direction: desc (newest first) or asc.
        symbols: Comma-separated symbols, e.g. "AAPL,TSLA".
        side: Only buy or only sell orders.
    """
    since = moment(after, "after") if after is not None else None
    upto = moment(until, "until", end_of_day=True) if until is not None else None
    tickers = [s.strip().upper() for s in symbols.split(",")] if symbols else []
    rows = find_orders(db, status, since, upto, tickers, side, newest_first=direction == "desc", limit=limit)
    return [order_object(r) for r in rows]


@tool()
def submit_order(
    db: Database,
    symbol: str,
    side: Side,
    type: OrderType = "market",
    time_in_force: TimeInForce = "day",
    qty: Quantity | None = None,
    notional: Notional | None = None,
    limit_price: LimitPrice | None = None,
    stop_price: StopPrice | None = None,
    extended_hours: bool = False,
    client_order_id: ClientOrderId | None = None,
) -> OrderObject:
    """Place an order for a number of shares (qty) or a dollar amount (notional). Fractional and notional orders
    must be market day orders on a fractionable asset; extended_hours needs a day limit order. Buys and short
    sales need buying power; a sell can't exceed the shares not already held by open orders; short sales need an
    easy-to-borrow shortable asset and margin. Below $25,000 equity, an order closing a position opened today is
    refused once the account has 3 day trades in 5 trading days. Outside market hours the order is accepted and
    queued until the open; otherwise it fills at once when marketable (buys at the ask, sells at the bid) or
    rests as new (ioc and fok orders that can't fill are canceled).

    Args:
        symbol: The ticker symbol, e.g. AAPL.
        side: buy or sell.
        type: market, limit, stop or stop_limit.
        time_in_force: day, gtc (good till canceled), ioc (immediate or cancel) or fok (fill or kill).
        qty: Number of shares; may be fractional (up to 9 decimals) for market day orders.
        notional: Dollar amount to trade instead of qty (market day orders only), e.g. 500.
        limit_price: Limit price, required for limit and stop_limit orders.
        stop_price: Stop price, required for stop and stop_limit orders.
        extended_hours: true to let a day limit order trade in pre-market and after-hours sessions.
        client_order_id: Your own unique id for the order (at most 128 characters); generated when omitted.
    """
    return order_object(
        place_order(
            db,
            tradable_asset(db, symbol),
            client_order_id,
            side=side,
            type=type,
            time_in_force=time_in_force,
            qty=qty,
            notional=notional,
            limit_price=limit_price,
            stop_price=stop_price,
            extended_hours=extended_hours,
        )
    )


@tool()
def replace_order(
    db: Database,
    order_id: str,
    qty: Quantity | None = None,
    time_in_force: TimeInForce | None = None,
    limit_price: LimitPrice | None = None,
    stop_price: StopPrice | None = None,
    client_order_id: ClientOrderId | None = None,
) -> OrderObject:
    """Replace an open order with a new one carrying the changes: the old order becomes `replaced` and the new
    order (a new id, `replaces` pointing back) is checked and routed like a fresh order. Only open orders
    (accepted, new, partially filled) can be replaced; notional orders can't.

    Args:
        order_id: The order's id.
        qty: New number of shares; by default what the old order had left to fill.
        time_in_force: New time in force.
        limit_price: New limit price (limit and stop_limit orders).
        stop_price: New stop price (stop and stop_limit orders).
        client_order_id: A new unique client order id; generated when omitted.
    """
    old = working_order(db, order_id)
    if all(v is None for v in (qty, time_in_force, limit_price, stop_price, client_order_id)):
        raise InvalidRequest("give at least one of qty, time_in_force, limit_price, stop_price or client_order_id")
    if old["notional"] is not None:
        raise InvalidRequest("notional orders cannot be replaced")
    now = db.now_iso()
    db.update(orders, order_id, status="replaced", replaced_at=now, updated_at=now)
    new = place_order(
        db,
        tradable_asset(db, old["asset_id"]),
        client_order_id,
        side=old["side"],
        type=old["type"],
        time_in_force=time_in_force or old["time_in_force"],
        qty=qty if qty is not None else unfilled(db, old),
        notional=None,
        limit_price=limit_price if limit_price is not None else old["limit_price"],
        stop_price=stop_price if stop_price is not None else old["stop_price"],
        extended_hours=old["extended_hours"],
    )
    db.update(orders, order_id, replaced_by=new["id"])
    return order_object(db.update(orders, new["id"], replaces=order_id))


@tool()
def cancel_order(db: Database, order_id: str) -> OrderObject:
    """Cancel an open order (accepted, new or partially filled; shares already filled stay filled).

    Args:
        order_id: The order's id.
    """
    working_order(db, order_id)
    now = db.now_iso()
    return order_object(db.update(orders, order_id, status="canceled", canceled_at=now, updated_at=now))


# ---------------------------------------------------------------- positions


@tool(read_only=True)
def list_positions(db: Database) -> list[PositionObject]:
    """List the open positions, valued at the latest trade price, with unrealized profit and loss and the
    quantity not held by open orders (qty_available)."""
    return [position_object(db, r) for r in db.find(positions, order_by=[positions.c.symbol])]


@tool()
def close_position(
    db: Database, symbol_or_asset_id: str, qty: Quantity | None = None, percentage: Percentage | None = None
) -> OrderObject:
    """Close all or part of a position with a market day order on the opposite side (queued until the open
    outside market hours). Shares held by open orders can't be closed until those orders are canceled, and the
    pattern day trading protection applies as for any order.

    Args:
        symbol_or_asset_id: The position's symbol (e.g. AAPL) or asset id.
        qty: Shares to close; by default the whole position.
        percentage: Percent of the position to close (0 to 100) instead of qty.
    """
    asset = asset_by_symbol(db, symbol_or_asset_id)
    found = db.find(positions, symbol=asset["symbol"])
    if not found:
        raise NotFound("position does not exist")
    if qty is not None and percentage is not None:
        raise InvalidRequest("only one of qty or percentage can be specified")
    held = abs(found[0]["qty"])
    if percentage is not None:
        qty = shares(held * percentage / 100)
        if not asset["fractionable"]:
            qty = float(int(qty))
        if qty == 0:
            raise InvalidRequest("percentage of the position is less than one share")
    return order_object(
        place_order(
            db,
            tradable_asset(db, asset["symbol"]),
            None,
            side="sell" if found[0]["qty"] > 0 else "buy",
            type="market",
            time_in_force="day",
            qty=held if qty is None else qty,
            notional=None,
            limit_price=None,
            stop_price=None,
            extended_hours=False,
        )
    )


# ---------------------------------------------------------------- activities


@tool(read_only=True)
def get_account_activities(
    db: Database,
    activity_types: list[ActivityType] | None = None,
    date: str | None = None,
    after: str | None = None,
    until: str | None = None,
    direction: Literal["asc", "desc"] = "desc",
    page_size: PageSize = 100,
    page_token: str | None = None,
) -> Page[TradeActivity | NonTradeActivity]:
    """List account activities: order fills (FILL) and cash movements: dividends (DIV), deposits (CSD),
    withdrawals (CSW) and interest (INT).

    Args:
        activity_types: Only these activity types, e.g. ["FILL"] or ["DIV", "CSD"].
        date: Only activities on this date (YYYY-MM-DD, New York time).
        after: Only activities after this date (YYYY-MM-DD).
        until: Only activities until this date (YYYY-MM-DD), inclusive.
        direction: desc (newest first) or asc.
        page_size: Activities per page, 1 to 100.
        page_token: The next_cursor of the previous page.
    """
    on = day(date, "date") if date else None
    since = day(after, "after") if after else None
    upto = day(until, "until") if until else None
    kept = activities(db, activity_types, on, since, upto, newest_first=direction == "desc")
    page = paginate(kept, page_size, page_token)
    return Page[TradeActivity | NonTradeActivity](
        results=[activity_object(r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


# ---------------------------------------------------------------- watchlists


@tool(read_only=True)
def list_watchlists(db: Database) -> list[WatchlistObject]:
    """List the account's watchlists with their assets."""
    return [watchlist_object(db, r) for r in db.find(watchlists, order_by=[watchlists.c.created_at])]


@tool()
def create_watchlist(db: Database, name: WatchlistName, symbols: list[str] | None = None) -> WatchlistObject:
    """Create a watchlist, optionally with assets. Watchlist names are unique in the account.

    Args:
        name: The watchlist's name (1 to 64 characters).
        symbols: Ticker symbols to start with, e.g. ["AAPL", "MSFT"].
    """
    clean = new_watchlist_name(db, name)
    listed = watch_list_symbols(db, symbols or [])
    now = db.now_iso()
    row = db.insert(
        watchlists,
        id=db.new_uuid(watchlists),
        account_id=account(db)["id"],
        name=clean,
        symbols=listed,
        created_at=now,
        updated_at=now,
    )
    return watchlist_object(db, row)


@tool()
def add_asset_to_watchlist(db: Database, watchlist_id: str, symbol: str) -> WatchlistObject:
    """Append an asset to a watchlist.

    Args:
        watchlist_id: The watchlist's id.
        symbol: The ticker symbol to add.
    """
    row = watchlist(db, watchlist_id)
    found = watchable(db, symbol)
    if found in row["symbols"]:
        raise Conflict(f"{found} is already in watchlist {row['name']}")
    return watchlist_object(
        db, db.update(watchlists, watchlist_id, symbols=[*row["symbols"], found], updated_at=db.now_iso())
    )


@tool()
def remove_asset_from_watchlist(db: Database, watchlist_id: str, symbol: str) -> WatchlistObject:
    """Remove an asset from a watchlist.

    Args:
        watchlist_id: The watchlist's id.
        symbol: The ticker symbol to remove.
    """
    row = watchlist(db, watchlist_id)
    wanted = symbol.strip().upper()
    if wanted not in row["symbols"]:
        raise NotFound(f"{wanted} is not in watchlist {row['name']}")
    kept = [s for s in row["symbols"] if s != wanted]
    return watchlist_object(db, db.update(watchlists, watchlist_id, symbols=kept, updated_at=db.now_iso()))


@tool()
def delete_watchlist(db: Database, watchlist_id: str) -> WatchlistObject:
    """Delete a watchlist (the assets themselves are not affected).

    Args:
        watchlist_id: The watchlist's id.
    """
    row = watchlist(db, watchlist_id)
    shown = watchlist_object(db, row)
    db.delete(watchlists, watchlist_id)
    return shown


# ---------------------------------------------------------------- clock and calendar


@tool(read_only=True)
def get_clock(db: Database) -> ClockObject:
    """Get the market clock: the time in New York, whether the market is open for regular trading, and the next
    open and close."""
    now = ny_now(db)
    next_open = next_close = None
    for trading_day in trading_days(db, after=today(db)):
        opening, closing = at(trading_day["date"], trading_day["open"]), at(trading_day["date"], trading_day["close"])
        next_open = next_open or (opening if opening > now else None)
        next_close = next_close or (closing if closing > now else None)
        if next_open and next_close:
            break
    if next_open is None or next_close is None:
        raise NotFound("no trading days in the calendar after today")
    return ClockObject(
        timestamp=stamp(now), is_open=session(db) == "open", next_open=stamp(next_open), next_close=stamp(next_close)
    )


@tool(read_only=True)
def get_calendar(db: Database, start: str | None = None, end: str | None = None) -> list[CalendarDay]:
    """List trading days with their regular hours (early closes included) and extended session, New York time.
    Weekends and market holidays are absent.

    Args:
        start: First date (YYYY-MM-DD); default today.
        end: Last date (YYYY-MM-DD), inclusive; default 30 days after start.
    """
    first = day(start, "start") if start else today(db)
    last = day(end, "end") if end else add_days(first, 30)
    if last < first:
        raise InvalidRequest("end must not be before start")
    return [CalendarDay(**r) for r in trading_days(db, after=first, until=last)]
