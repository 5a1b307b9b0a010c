"""Orders: what an order must carry for its type and session, price increments, stop sides, shares available to
sell or cover, short-sale eligibility, buying power, how an order fills or rests, and the cancel and replace
transitions (a replacement is a new order; the original becomes REPLACED)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .market import instrument, quote, session_is_trading, today, tradable
from .objects import OPEN_STATUSES, OrderPlaced, order_object
from .portfolio import buying_power, committed_shares, holding, money
from .schema import accounts, orders, positions, transactions

BUYS = ("BUY", "BUY_TO_COVER")
OPENING = ("BUY", "SELL_SHORT")
# Schwab's own order-verification text for a sell or cover beyond the shares available
OVERSOLD = (
    "This order may result in an oversold/overbought position in your account. "
    "Please check your position quantity and/or open orders."
)


@dataclass(frozen=True)
class Ticket:
    """An order as the client asks for it."""

    symbol: str
    instruction: str
    quantity: int
    order_type: str
    price: float | None
    stop_price: float | None
    session: str
    duration: str

    @classmethod
    def of(cls, **fields: Any) -> Ticket:
        """A ticket from tool arguments (the symbol upper-cased)."""
        return cls(**{**fields, "symbol": str(fields["symbol"]).strip().upper()})


def check_shape(ticket: Ticket) -> None:
    """Prices the order type needs or forbids, and the sessions and durations each type may use."""
    kind = ticket.order_type
    if kind in ("LIMIT", "STOP_LIMIT") and ticket.price is None:
        raise InvalidRequest(f"price is required for a {kind} order")
    if kind in ("MARKET", "STOP") and ticket.price is not None:
        raise InvalidRequest(f"price is not allowed for a {kind} order")
    if kind in ("STOP", "STOP_LIMIT") and ticket.stop_price is None:
        raise InvalidRequest(f"stopPrice is required for a {kind} order")
    if kind in ("MARKET", "LIMIT") and ticket.stop_price is not None:
        raise InvalidRequest(f"stopPrice is not allowed for a {kind} order")
    if ticket.session != "NORMAL" and kind != "LIMIT":
        raise InvalidRequest("Extended hours orders (session AM, PM or SEAMLESS) must be LIMIT orders")
    if ticket.session in ("AM", "PM") and ticket.duration != "DAY":
        raise InvalidRequest(f"{ticket.session} session orders must have duration DAY")
    if kind == "MARKET" and ticket.duration != "DAY":
        raise InvalidRequest("MARKET orders must have duration DAY")
    if ticket.duration == "FILL_OR_KILL" and kind != "LIMIT":
        raise InvalidRequest("FILL_OR_KILL is only available for LIMIT orders")
    for name, value in (("price", ticket.price), ("stopPrice", ticket.stop_price)):
        if value is not None and value >= 1 and round(value, 2) != value:
            raise InvalidRequest(f"{name} must be in increments of $0.01 for securities priced at $1.00 or more")


def check_stop_side(db: Database, ticket: Ticket) -> None:
    """A buy stop triggers above the market, a sell stop below it."""
    if ticket.stop_price is None:
        return
    last = quote(db, ticket.symbol)["last_price"]
    if ticket.instruction in BUYS and ticket.stop_price <= last:
        raise InvalidRequest(f"stopPrice of a buy stop must be above the last price ({last:.2f})")
    if ticket.instruction not in BUYS and ticket.stop_price >= last:
        raise InvalidRequest(f"stopPrice of a sell stop must be below the last price ({last:.2f})")


def check_shares(db: Database, account: dict[str, Any], ticket: Ticket, exclude: int | None) -> None:
    """Sells need shares not held by other open sells; covers need a short position; short sales need a margin
    account, a shortable symbol and no long position in it."""
    number = account["account_number"]
    held = holding(db, number, ticket.symbol)
    if ticket.instruction == "SELL":
        free = (held["long_quantity"] if held else 0) - committed_shares(db, number, ticket.symbol, "SELL", exclude)
        if ticket.quantity > free:
            raise InvalidRequest(f"{OVERSOLD} ({free:g} shares of {ticket.symbol} available to sell)")
    elif ticket.instruction == "BUY_TO_COVER":
        free = (held["short_quantity"] if held else 0) - committed_shares(
            db, number, ticket.symbol, "BUY_TO_COVER", exclude
        )
        if ticket.quantity > free:
            raise InvalidRequest(f"{OVERSOLD} ({free:g} shares of {ticket.symbol} short not already being covered)")
    elif ticket.instruction == "SELL_SHORT":
        if account["type"] != "MARGIN":
            raise InvalidRequest("Short selling is not allowed in a cash account")
        if not tradable(db, ticket.symbol)["shortable"]:
            raise InvalidRequest(f"{ticket.symbol} is not available to borrow for short selling")
        if held and held["long_quantity"] > 0:
            raise InvalidRequest(
                f"Sell short is not allowed while the account holds a long position in {ticket.symbol}"
            )


def fill_price(db: Database, ticket: Ticket) -> float | None:
    """The price the order fills at now, or None if it rests (not marketable, a stop, or outside its session)."""
    if not session_is_trading(db, ticket.session) or ticket.order_type in ("STOP", "STOP_LIMIT"):
        return None
    touch = quote(db, ticket.symbol)
    market = touch["ask_price"] if ticket.instruction in BUYS else touch["bid_price"]
    if ticket.order_type == "MARKET":
        return market
    assert ticket.price is not None
    marketable = ticket.price >= market if ticket.instruction in BUYS else ticket.price <= market
    return market if marketable else None


def order_cost(db: Database, ticket: Ticket) -> float:
    """What a buy or short sale commits: shares times its limit or stop price, or the current quote."""
    touch = quote(db, ticket.symbol)
    reference = ticket.price or ticket.stop_price
    if reference is None:
        reference = touch["ask_price"] if ticket.instruction in BUYS else touch["bid_price"]
    return money(ticket.quantity * reference)


def check_buying_power(db: Database, account: dict[str, Any], ticket: Ticket, exclude: int | None) -> float:
    """Opening orders must fit the buying power left; returns it (before this order)."""
    power = buying_power(db, account, exclude)
    if ticket.instruction in OPENING:
        cost = order_cost(db, ticket)
        if cost > power:
            label = "buying power" if account["type"] == "MARGIN" else "cash available for trading"
            raise InvalidRequest(f"Insufficient {label}: this order needs ${cost:,.2f} and ${power:,.2f} is available")
    return power


def validate(db: Database, account: dict[str, Any], ticket: Ticket, exclude: int | None = None) -> float:
    """Every check an order passes before it is accepted; returns the buying power before it."""
    tradable(db, ticket.symbol)
    check_shape(ticket)
    if account["restricted"] and ticket.instruction in OPENING:
        raise InvalidRequest("This account is restricted to closing transactions only")
    check_stop_side(db, ticket)
    check_shares(db, account, ticket, exclude)
    return check_buying_power(db, account, ticket, exclude)


def projected_status(db: Database, ticket: Ticket) -> tuple[str, float | None]:
    """FILLED with its price, WORKING or QUEUED; FILL_OR_KILL orders that cannot fill are refused."""
    price = fill_price(db, ticket)
    if price is not None:
        return "FILLED", price
    if ticket.duration == "FILL_OR_KILL":
        raise InvalidRequest("FILL_OR_KILL order cannot be filled in full now and was not accepted")
    return ("WORKING" if session_is_trading(db, ticket.session) else "QUEUED"), None


def next_key(db: Database, table: Any, column: str) -> int:
    """The next integer id of a table (ids grow like the API's int64 ids)."""
    rows = db.select(table, "", [], order_by=f"{column} DESC", limit=1)
    return int(rows[0][column]) + 1


def place(db: Database, account: dict[str, Any], ticket: Ticket, replaces: int | None = None) -> dict[str, Any]:
    """Validate, store and (when marketable in its session) fill an order."""
    validate(db, account, ticket, replaces)
    status, price = projected_status(db, ticket)
    row = db.insert(
        orders,
        order_id=next_key(db, orders, "order_id"),
        account_number=account["account_number"],
        symbol=ticket.symbol,
        instruction=ticket.instruction,
        quantity=float(ticket.quantity),
        filled_quantity=0.0,
        order_type=ticket.order_type,
        price=ticket.price,
        stop_price=ticket.stop_price,
        session=ticket.session,
        duration=ticket.duration,
        status=status if status != "FILLED" else "WORKING",
        status_description=None,
        filled_price=None,
        entered_time=db.now_iso(),
        close_time=None,
        replaces_order_id=replaces,
        replaced_by_order_id=None,
    )
    if price is not None:
        row = execute(db, account, row, price)
    return row


def execute(db: Database, account: dict[str, Any], row: dict[str, Any], price: float) -> dict[str, Any]:
    """Fill an order in full: move the position and cash, and record a TRADE transaction."""
    qty, symbol, instruction = row["quantity"], row["symbol"], row["instruction"]
    number = account["account_number"]
    amount = money(qty * price)
    held = holding(db, number, symbol)
    if held is None:
        held = db.insert(
            positions,
            id=f"{number}:{symbol}",
            account_number=number,
            symbol=symbol,
            long_quantity=0.0,
            short_quantity=0.0,
            average_price=0.0,
        )
    long_qty, short_qty, avg = held["long_quantity"], held["short_quantity"], held["average_price"]
    if instruction == "BUY":
        avg = round((long_qty * avg + amount) / (long_qty + qty), 4)
        long_qty += qty
    elif instruction == "SELL_SHORT":
        avg = round((short_qty * avg + amount) / (short_qty + qty), 4)
        short_qty += qty
    elif instruction == "SELL":
        long_qty -= qty
    else:
        short_qty -= qty
    if long_qty == 0 and short_qty == 0:
        db.delete(positions, held["id"])
    else:
        db.update(positions, held["id"], long_quantity=long_qty, short_quantity=short_qty, average_price=avg)
    net = -amount if instruction in BUYS else amount
    fresh = db.get(accounts, number, "Account")
    db.update(accounts, number, cash_balance=money(fresh["cash_balance"] + net))
    verb = {"BUY": "Bought", "SELL": "Sold", "SELL_SHORT": "Sold short", "BUY_TO_COVER": "Bought to cover"}[instruction]
    db.insert(
        transactions,
        activity_id=next_key(db, transactions, "activity_id"),
        account_number=number,
        type="TRADE",
        trade_date=today(db),
        time=db.now_iso(),
        description=f"{verb} {qty:g} {symbol} @ {price:.2f}",
        net_amount=net,
        symbol=symbol,
        quantity=qty if instruction in BUYS else -qty,
        price=price,
        order_id=row["order_id"],
        status="VALID",
    )
    return db.update(
        orders, row["order_id"], status="FILLED", filled_quantity=qty, filled_price=price, close_time=db.now_iso()
    )


def account_order(db: Database, account: dict[str, Any], order_id: int) -> dict[str, Any]:
    """An order of this account."""
    found = db.find(orders, order_id=order_id, account_number=account["account_number"])
    if not found:
        raise NotFound(f"Order not found: {order_id}")
    return found[0]


def working(db: Database, account: dict[str, Any], order_id: int, verb: str) -> dict[str, Any]:
    """An order that can still be canceled or replaced."""
    row = account_order(db, account, order_id)
    if row["status"] not in OPEN_STATUSES:
        raise Conflict(f"Order {order_id} cannot be {verb}: its status is {row['status']}")
    return row


def cancel(db: Database, account: dict[str, Any], order_id: int) -> dict[str, Any]:
    """Cancel a working or queued order."""
    working(db, account, order_id, "canceled")
    return db.update(orders, order_id, status="CANCELED", close_time=db.now_iso())


def replace(db: Database, account: dict[str, Any], order_id: int, changes: dict[str, Any]) -> dict[str, Any]:
    """Replace a working order with a new one of the same symbol and instruction; the original becomes REPLACED."""
    old = working(db, account, order_id, "replaced")
    ticket = Ticket(
        symbol=old["symbol"],
        instruction=old["instruction"],
        quantity=changes["quantity"],
        order_type=changes["order_type"],
        price=changes["price"],
        stop_price=changes["stop_price"],
        session=changes["session"],
        duration=changes["duration"],
    )
    db.update(orders, order_id, status="REPLACED", close_time=db.now_iso())
    new = place(db, account, ticket, replaces=order_id)
    db.update(orders, order_id, replaced_by_order_id=new["order_id"])
    return new


def placed(db: Database, account: dict[str, Any], row: dict[str, Any]) -> OrderPlaced:
    """What placing or replacing returns: the new order's Location header and the order."""
    location = f"/trader/v1/accounts/{account['hash_value']}/orders/{row['order_id']}"
    asset_type = instrument(db, row["symbol"])["asset_type"]
    return OrderPlaced(order_id=row["order_id"], location=location, order=order_object(row, asset_type))
