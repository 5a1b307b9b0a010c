"""Schwab's API objects as output models (the Trader API's account, position, order and transaction shapes and
the Market Data API's quote), and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class AccountNumberHash(BaseModel):
    """A linked account's plain number and the encrypted hashValue that account calls take."""

    account_number: str
    hash_value: str


class PreferenceAccount(BaseModel):
    """An account as the client's preferences show it."""

    account_number: str
    nickname: str
    registration: str
    type: str
    primary_account: bool


class UserPreference(BaseModel):
    """The signed-in client's name and accounts, as on schwab.com."""

    name: str
    email: str
    accounts: list[PreferenceAccount]


class Position(BaseModel):
    """One holding of an account, valued at the last trade price."""

    symbol: str
    description: str
    asset_type: str
    long_quantity: float
    short_quantity: float
    average_price: float
    market_value: float = Field(description="negative for a short position")
    current_day_profit_loss: float = Field(description="change since the previous close times the quantity")
    long_open_profit_loss: float = Field(description="unrealized gain or loss of a long holding against its cost")


class Balances(BaseModel):
    """Current balances; buying power and cash available are net of what open orders already use."""

    cash_balance: float = Field(description="negative on a margin account that is borrowing")
    long_market_value: float
    short_market_value: float
    liquidation_value: float = Field(description="cash + long market value - short market value")
    buying_power: float = Field(
        description="margin: 2 x (equity - 50% of positions' value); cash accounts: cash; both net of open orders"
    )
    available_funds: float
    cash_available_for_trading: float = Field(description="settled cash not used by open buy orders")
    cash_available_for_withdrawal: float
    closing_equity: float = Field(description="liquidation value at the previous close")


class SecuritiesAccount(BaseModel):
    """A brokerage account with its balances and, when asked for, its positions."""

    account_number: str
    type: str = Field(description="MARGIN or CASH")
    registration: str
    nickname: str
    is_closing_only_restricted: bool
    current_balances: Balances
    positions: list[Position] | None = None


class Quote(BaseModel):
    """A symbol's quote from the Market Data API."""

    symbol: str
    description: str
    asset_type: str
    exchange: str
    bid_price: float
    bid_size: int
    ask_price: float
    ask_size: int
    last_price: float
    open_price: float
    high_price: float
    low_price: float
    close_price: float = Field(description="the previous trading day's close")
    net_change: float
    net_percent_change: float
    total_volume: int
    high_52_week: float
    low_52_week: float
    pe_ratio: float | None
    div_yield: float
    shortable: bool
    halted: bool


class Instrument(BaseModel):
    """An instrument found by symbol or description."""

    symbol: str
    cusip: str
    description: str
    exchange: str
    asset_type: str


class SessionHours(BaseModel):
    """One session of a trading day, New York time."""

    start: str
    end: str


class MarketHours(BaseModel):
    """The equity market's hours on one day."""

    date: str
    market_type: str = "EQUITY"
    is_open: bool
    holiday: str | None = None
    pre_market: SessionHours | None = None
    regular_market: SessionHours | None = None
    post_market: SessionHours | None = None


class OrderLeg(BaseModel):
    """The one leg of a single equity order."""

    instruction: str = Field(description="BUY, SELL, SELL_SHORT or BUY_TO_COVER")
    symbol: str
    asset_type: str
    quantity: float


class Order(BaseModel):
    """An order with its status, fills and the replace chain it belongs to."""

    order_id: int
    account_number: str
    order_type: str
    session: str
    duration: str
    price: float | None
    stop_price: float | None
    quantity: float
    filled_quantity: float
    remaining_quantity: float
    filled_price: float | None = Field(description="the average fill price, once filled")
    order_strategy_type: str = "SINGLE"
    order_leg_collection: list[OrderLeg]
    status: str
    status_description: str | None
    cancelable: bool
    editable: bool
    entered_time: str
    close_time: str | None
    replaces_order_id: int | None = Field(description="the order this one replaced")
    replaced_by_order_id: int | None = Field(description="the order that replaced this one")


class OrderPlaced(BaseModel):
    """What placing or replacing an order returns: the new order id (the Location header) and the order."""

    order_id: int
    location: str
    order: Order


class OrderPreview(BaseModel):
    """What an order would do, without placing it."""

    symbol: str
    instruction: str
    quantity: float
    order_type: str
    session: str
    duration: str
    projected_status: str = Field(description="FILLED, WORKING or QUEUED: what placing it now would give")
    estimated_price: float = Field(description="the fill price now, or the limit or stop price it would rest at")
    order_value: float
    projected_commission: float
    buying_power_before: float
    buying_power_after: float


class Transaction(BaseModel):
    """An account transaction: a trade, a dividend or interest, a deposit, a withdrawal or a journal."""

    activity_id: int
    account_number: str
    type: str
    trade_date: str
    time: str
    description: str
    net_amount: float
    symbol: str | None
    quantity: float | None
    price: float | None
    order_id: int | None
    status: str


OPEN_STATUSES = ("QUEUED", "WORKING", "PENDING_ACTIVATION")


def order_object(row: dict[str, Any], asset_type: str) -> Order:
    """An order row as the API's order."""
    working = row["status"] in OPEN_STATUSES
    return Order(
        order_id=row["order_id"],
        account_number=row["account_number"],
        order_type=row["order_type"],
        session=row["session"],
        duration=row["duration"],
        price=row["price"],
        stop_price=row["stop_price"],
        quantity=row["quantity"],
        filled_quantity=row["filled_quantity"],
        remaining_quantity=round(row["quantity"] - row["filled_quantity"], 4) if working else 0.0,
        filled_price=row["filled_price"],
        order_leg_collection=[
            OrderLeg(
                instruction=row["instruction"], symbol=row["symbol"], asset_type=asset_type, quantity=row["quantity"]
            )
        ],
        status=row["status"],
        status_description=row["status_description"],
        cancelable=working,
        editable=working,
        entered_time=row["entered_time"],
        close_time=row["close_time"],
        replaces_order_id=row["replaces_order_id"],
        replaced_by_order_id=row["replaced_by_order_id"],
    )


def transaction_object(row: dict[str, Any]) -> Transaction:
    """A transaction row as the API's transaction."""
    return Transaction(**{k: row[k] for k in Transaction.model_fields})
