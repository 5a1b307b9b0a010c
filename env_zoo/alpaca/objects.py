"""Alpaca's API objects as output models, and how stored rows become them. The Trading API returns money and
quantities as decimal strings; the Market Data API returns numbers."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .schema import assets


def dec(value: float | None) -> str | None:
    """A stored number as the API's decimal string: 25.0 -> "25", 0.123456789 -> "0.123456789"."""
    if value is None:
        return None
    text = f"{value:.9f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class AccountObject(BaseModel):
    """The trading account with its balances, buying power and day-trading status."""

    id: str
    account_number: str
    status: str
    crypto_status: str
    currency: str
    cash: str
    portfolio_value: str
    equity: str = Field(description="cash + long_market_value + short_market_value")
    last_equity: str = Field(description="equity at the previous trading day's close")
    long_market_value: str
    short_market_value: str = Field(description="negative: the value of short positions")
    initial_margin: str
    maintenance_margin: str
    buying_power: str = Field(description="what new orders can use now, net of open orders")
    regt_buying_power: str
    daytrading_buying_power: str
    non_marginable_buying_power: str = Field(description="cash available for non-marginable securities")
    multiplier: str = Field(description="1 (no margin) or 2 (Reg T margin)")
    daytrade_count: int = Field(description="day trades in the last 5 trading days, today included")
    pattern_day_trader: bool
    trading_blocked: bool
    transfers_blocked: bool
    account_blocked: bool
    trade_suspended_by_user: bool
    shorting_enabled: bool
    created_at: str


class AccountConfigurationsObject(BaseModel):
    """Settings of the account that the account holder can change."""

    trade_confirm_email: str = Field(description="all or none")
    suspend_trade: bool = Field(description="true: new orders are blocked")
    no_shorting: bool = Field(description="true: long-only, short sales are rejected")
    fractional_trading: bool
    max_margin_multiplier: str = Field(description="1 disables margin, 2 allows Reg T margin")


class AssetObject(BaseModel):
    """A tradable (or formerly tradable) US equity."""

    id: str
    asset_class: str = Field(description="the API's `class`")
    exchange: str
    symbol: str
    name: str
    status: str = Field(description="active or inactive")
    tradable: bool
    marginable: bool
    maintenance_margin_requirement: int = Field(description="percent")
    shortable: bool
    easy_to_borrow: bool
    fractionable: bool
    attributes: list[str]


class Trade(BaseModel):
    """The latest trade."""

    price: float
    size: int
    timestamp: str


class Quote(BaseModel):
    """The latest National Best Bid and Offer."""

    bid_price: float
    bid_size: int
    bid_exchange: str
    ask_price: float
    ask_size: int
    ask_exchange: str
    timestamp: str


class Bar(BaseModel):
    """A daily OHLCV bar."""

    open: float
    high: float
    low: float
    close: float
    volume: int


class SnapshotObject(BaseModel):
    """A stock's snapshot from the Market Data API: latest trade and quote, today's and the previous daily bar."""

    symbol: str
    latest_trade: Trade
    latest_quote: Quote
    daily_bar: Bar
    previous_daily_bar: Bar


class OrderObject(BaseModel):
    """An order and its fill status."""

    id: str
    client_order_id: str
    created_at: str
    updated_at: str
    submitted_at: str
    filled_at: str | None
    expired_at: str | None
    canceled_at: str | None
    failed_at: str | None
    replaced_at: str | None
    replaced_by: str | None = Field(description="the order that replaced this one")
    replaces: str | None = Field(description="the order this one replaced")
    asset_id: str
    symbol: str
    asset_class: str
    notional: str | None
    qty: str | None
    filled_qty: str
    filled_avg_price: str | None
    order_class: str
    order_type: str
    type: str
    side: str
    position_intent: str
    time_in_force: str
    limit_price: str | None
    stop_price: str | None
    status: str = Field(
        description="accepted (queued until the market opens), new, partially_filled, filled, "
        "canceled, expired, replaced or rejected"
    )
    extended_hours: bool


class PositionObject(BaseModel):
    """An open position valued at the latest trade price."""

    asset_id: str
    symbol: str
    exchange: str
    asset_class: str
    asset_marginable: bool
    qty: str = Field(description="negative for a short position")
    qty_available: str = Field(description="qty not held by open orders")
    avg_entry_price: str
    side: Literal["long", "short"]
    market_value: str
    cost_basis: str
    unrealized_pl: str
    unrealized_plpc: str
    unrealized_intraday_pl: str
    unrealized_intraday_plpc: str
    current_price: str
    lastday_price: str
    change_today: str


class ClockObject(BaseModel):
    """The market clock, in New York time."""

    timestamp: str
    is_open: bool
    next_open: str
    next_close: str


class CalendarDay(BaseModel):
    """One trading day: regular hours and the extended session, New York time."""

    date: str
    open: str
    close: str
    session_open: str
    session_close: str
    settlement_date: str


class TradeActivity(BaseModel):
    """A fill of an order."""

    id: str
    activity_type: Literal["FILL"]
    transaction_time: str
    type: str = Field(description="fill or partial_fill")
    price: str
    qty: str
    side: str
    symbol: str
    leaves_qty: str
    cum_qty: str
    order_id: str
    order_status: str


class NonTradeActivity(BaseModel):
    """A cash movement: dividend (DIV), deposit (CSD), withdrawal (CSW) or interest (INT)."""

    id: str
    activity_type: str
    date: str
    net_amount: str
    symbol: str | None
    qty: str | None
    per_share_amount: str | None
    description: str
    status: str


class WatchlistObject(BaseModel):
    """A named list of assets."""

    id: str
    account_id: str
    name: str
    created_at: str
    updated_at: str
    assets: list[AssetObject]


def asset_object(row: dict[str, Any]) -> AssetObject:
    """An asset row as the API object."""
    return AssetObject(**row)


def order_object(row: dict[str, Any]) -> OrderObject:
    """An order row as the API object (decimals as strings)."""
    numbers = ("notional", "qty", "filled_qty", "filled_avg_price", "limit_price", "stop_price")
    values = {k: dec(row[k]) if k in numbers else row[k] for k in OrderObject.model_fields if k in row}
    return OrderObject(**values, order_type=row["type"])


def non_trade_activity(row: dict[str, Any]) -> NonTradeActivity:
    """A cash-movement activity row as the API object."""
    numbers = ("net_amount", "qty", "per_share_amount")
    return NonTradeActivity(**{k: dec(row[k]) if k in numbers else row[k] for k in NonTradeActivity.model_fields})


def activity_object(row: dict[str, Any]) -> TradeActivity | NonTradeActivity:
    """An activity row as a trade or a non-trade activity."""
    if row["activity_type"] != "FILL":
        return non_trade_activity(row)
    numbers = ("price", "qty", "leaves_qty", "cum_qty")
    return TradeActivity(**{k: dec(row[k]) if k in numbers else row[k] for k in TradeActivity.model_fields})


def watchlist_object(db: Database, row: dict[str, Any]) -> WatchlistObject:
    """A watchlist with its assets expanded, in the order they were added."""
    listed = [asset_object(db.find(assets, symbol=s)[0]) for s in row["symbols"]]
    return WatchlistObject(**{k: row[k] for k in WatchlistObject.model_fields if k != "assets"}, assets=listed)
