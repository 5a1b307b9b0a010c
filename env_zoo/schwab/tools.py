"""Charles Schwab Trader API tools: sign-in, linked accounts and their hashValues, balances and positions, quotes,
instrument search and market hours, orders (preview, place, replace, cancel, history) and transactions, and the
client's own cash journals between accounts."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, InvalidRequest, NotFound, tool
from envfactory_gym.fields import ErrorText, IsoDate, IsoTimestamp, NonBlankText

from .access import account_by_hash, linked_accounts, signed_in
from .access import sign_in as start_session
from .market import find_instruments, hours, instrument, quote, today
from .objects import (
    AccountNumberHash,
    Instrument,
    MarketHours,
    Order,
    OrderPlaced,
    OrderPreview,
    PreferenceAccount,
    Quote,
    SecuritiesAccount,
    SessionHours,
    Transaction,
    UserPreference,
    order_object,
    transaction_object,
)
from .portfolio import account_object, money
from .rules import day_window, find_orders, find_transactions, journal, window
from .schema import transactions
from .trading import Ticket, account_order, cancel, order_cost, place, placed, projected_status, replace, validate

AccountHash = Annotated[
    str, Field(min_length=1, description="The account's encrypted hashValue from get_account_numbers")
]
Instruction = Literal["BUY", "SELL", "SELL_SHORT", "BUY_TO_COVER"]
OrderType = Literal["MARKET", "LIMIT", "STOP", "STOP_LIMIT"]
Session = Literal["NORMAL", "AM", "PM", "SEAMLESS"]
Duration = Literal["DAY", "GOOD_TILL_CANCEL", "FILL_OR_KILL"]
Status = Literal["QUEUED", "WORKING", "PENDING_ACTIVATION", "FILLED", "CANCELED", "REPLACED", "EXPIRED", "REJECTED"]
TransactionType = Literal[
    "TRADE", "DIVIDEND_OR_INTEREST", "ACH_RECEIPT", "ACH_DISBURSEMENT", "JOURNAL", "WIRE_IN", "RECEIVE_AND_DELIVER"
]
Quantity = Annotated[int, Field(ge=1, le=1_000_000), ErrorText("quantity must be a whole number of shares >= 1")]
Price = Annotated[float, Field(gt=0, le=100_000), ErrorText("price must be greater than 0")]
StopPrice = Annotated[float, Field(gt=0, le=100_000), ErrorText("stopPrice must be greater than 0")]
MaxResults = Annotated[int, Field(ge=1, le=3000), ErrorText("maxResults must be between 1 and 3000")]
Symbols = Annotated[list[str], Field(min_length=1, max_length=50), ErrorText("symbols: 1 to 50 symbols")]
JournalAmount = Annotated[float, Field(gt=0, le=1_000_000), ErrorText("amount must be greater than 0")]
AccountNumber = Annotated[str, Field(pattern=r"^\d{8}$"), ErrorText("account number must be 8 digits")]


# ---------------------------------------------------------------- sign-in and accounts


@tool(user_only=True)
def sign_in(db: Database, login_id: NonBlankText, password: NonBlankText) -> UserPreference:
    """(Client only, on schwab.com) Log in and authorize this app to reach the login's linked accounts.

    Args:
        login_id: The schwab.com login ID.
        password: The login's password.
    """
    start_session(db, login_id, password)
    return get_user_preference(db)


@tool(read_only=True)
def get_user_preference(db: Database) -> UserPreference:
    """The signed-in client's name, email and linked accounts with their nicknames, registrations (Individual,
    Joint, Roth IRA...) and types; the primary account comes first."""
    me = signed_in(db)
    rows = linked_accounts(db)
    return UserPreference(
        name=me["name"],
        email=me["email"],
        accounts=[PreferenceAccount(**{k: r[k] for k in PreferenceAccount.model_fields}) for r in rows],
    )


@tool(read_only=True)
def get_account_numbers(db: Database) -> list[AccountNumberHash]:
    """The plain account numbers of the client's linked accounts with their encrypted hashValues; every other
    account call takes the hashValue, never the plain number."""
    return [
        AccountNumberHash(account_number=r["account_number"], hash_value=r["hash_value"]) for r in linked_accounts(db)
    ]


@tool(read_only=True)
def get_accounts(db: Database, include_positions: bool = False) -> list[SecuritiesAccount]:
    """Every linked account with its current balances (cash, market values, liquidation value, buying power and
    cash available for trading, net of open orders) and, if asked for, its positions.

    Args:
        include_positions: true to list each account's positions too (fields=positions).
    """
    return [account_object(db, r, include_positions) for r in linked_accounts(db)]


@tool(read_only=True)
def get_account(db: Database, account_hash: AccountHash, include_positions: bool = False) -> SecuritiesAccount:
    """One account's balances and, if asked for, its positions valued at the last price.

    Args:
        account_hash: The account's hashValue (get_account_numbers).
        include_positions: true to list the positions too (fields=positions).
    """
    return account_object(db, account_by_hash(db, account_hash), include_positions)


# ---------------------------------------------------------------- market data


@tool(read_only=True)
def get_quotes(db: Database, symbols: Symbols) -> list[Quote]:
    """Quotes for up to 50 symbols: bid, ask, last, the day's range and volume, the previous close and change,
    52-week range, P/E and dividend yield. Market orders buy at the ask and sell at the bid.

    Args:
        symbols: Ticker symbols such as ["AAPL", "VTI"].
    """
    out = []
    for symbol in symbols:
        info = instrument(db, symbol)
        row = quote(db, info["symbol"])
        change = money(row["last_price"] - row["close_price"])
        out.append(
            Quote(
                **{k: row[k] for k in row if k in Quote.model_fields},
                description=info["description"],
                asset_type=info["asset_type"],
                exchange=info["exchange"],
                net_change=change,
                net_percent_change=round(100 * change / row["close_price"], 2),
                shortable=info["shortable"],
                halted=info["halted"],
            )
        )
    return out


@tool(read_only=True)
def search_instruments(
    db: Database, query: NonBlankText, projection: Literal["symbol-search", "desc-search"] = "desc-search"
) -> list[Instrument]:
    """Find instruments by symbol prefix or by words of their description (company or fund name).

    Args:
        query: A symbol prefix (symbol-search) or a word or phrase of the name (desc-search), e.g. "vanguard".
        projection: symbol-search or desc-search.
    """
    rows = find_instruments(db, query, projection == "symbol-search")
    return [Instrument(**{k: r[k] for k in Instrument.model_fields}) for r in rows]


@tool(read_only=True)
def get_market_hours(db: Database, date: IsoDate | None = None) -> MarketHours:
    """The equity market's hours on a day (New York time): pre-market, regular and after-hours sessions, or that
    the market is closed (weekend or holiday).

    Args:
        date: YYYY-MM-DD; today when left out.
    """
    row = hours(db, date or today(db))
    if not row["is_open"]:
        return MarketHours(date=row["date"], is_open=False, holiday=row["holiday"])
    return MarketHours(
        date=row["date"],
        is_open=True,
        pre_market=SessionHours(start=row["pre_market_start"], end=row["regular_start"]),
        regular_market=SessionHours(start=row["regular_start"], end=row["regular_end"]),
        post_market=SessionHours(start=row["regular_end"], end=row["post_market_end"]),
    )


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def get_orders_for_account(
    db: Database,
    account_hash: AccountHash,
    from_entered_time: IsoTimestamp | None = None,
    to_entered_time: IsoTimestamp | None = None,
    status: Status | None = None,
    max_results: MaxResults = 3000,
) -> list[Order]:
    """One account's orders entered in a time window (at most a year; the last 60 days when left out), newest
    first, optionally of one status.

    Args:
        account_hash: The account's hashValue.
        from_entered_time: Start of the window, e.g. 2026-03-01T00:00:00Z.
        to_entered_time: End of the window; now when left out.
        status: Only orders of this status, e.g. WORKING.
        max_results: At most this many orders.
    """
    account = account_by_hash(db, account_hash)
    start, end = window(db, from_entered_time, to_entered_time, 365, "fromEnteredTime/toEnteredTime")
    rows = find_orders(db, [account["account_number"]], start, end, status, max_results)
    return [order_object(r, instrument(db, r["symbol"])["asset_type"]) for r in rows]


@tool(read_only=True)
def get_all_orders(
    db: Database,
    from_entered_time: IsoTimestamp | None = None,
    to_entered_time: IsoTimestamp | None = None,
    status: Status | None = None,
    max_results: MaxResults = 3000,
) -> list[Order]:
    """Orders of every linked account entered in a time window (at most 60 days; the last 60 days when left
    out), newest first, optionally of one status.

    Args:
        from_entered_time: Start of the window, e.g. 2026-03-01T00:00:00Z.
        to_entered_time: End of the window; now when left out.
        status: Only orders of this status, e.g. QUEUED.
        max_results: At most this many orders.
    """
    numbers = [r["account_number"] for r in linked_accounts(db)]
    start, end = window(db, from_entered_time, to_entered_time, 60, "fromEnteredTime/toEnteredTime")
    rows = find_orders(db, numbers, start, end, status, max_results)
    return [order_object(r, instrument(db, r["symbol"])["asset_type"]) for r in rows]


@tool(read_only=True)
def get_order(db: Database, account_hash: AccountHash, order_id: int) -> Order:
    """One order of an account by its id.

    Args:
        account_hash: The account's hashValue.
        order_id: The order's id.
    """
    row = account_order(db, account_by_hash(db, account_hash), order_id)
    return order_object(row, instrument(db, row["symbol"])["asset_type"])


@tool(read_only=True)
def preview_order(
    db: Database,
    account_hash: AccountHash,
    symbol: NonBlankText,
    instruction: Instruction,
    quantity: Quantity,
    order_type: OrderType,
    price: Price | None = None,
    stop_price: StopPrice | None = None,
    session: Session = "NORMAL",
    duration: Duration = "DAY",
) -> OrderPreview:
    """Check an order without placing it: every rule place_order applies, what it would do now (fill, work or
    queue), its estimated price and value, commission ($0 online equity trades) and the buying power it leaves.

    Args:
        account_hash: The account's hashValue.
        symbol: The ticker symbol.
        instruction: BUY, SELL, SELL_SHORT (margin accounts) or BUY_TO_COVER.
        quantity: Whole shares.
        order_type: MARKET, LIMIT (needs price), STOP (needs stop_price) or STOP_LIMIT (needs both).
        price: The limit price.
        stop_price: The stop (trigger) price.
        session: NORMAL (9:30-16:00 New York), AM (pre-market), PM (after-hours) or SEAMLESS (all three); extended
            sessions take LIMIT orders only.
        duration: DAY, GOOD_TILL_CANCEL or FILL_OR_KILL (LIMIT only).
    """
    account = account_by_hash(db, account_hash)
    order = Ticket.of(
        symbol=symbol,
        instruction=instruction,
        quantity=quantity,
        order_type=order_type,
        price=price,
        stop_price=stop_price,
        session=session,
        duration=duration,
    )
    before = validate(db, account, order)
    status, fill = projected_status(db, order)
    estimate = fill or price or stop_price or 0.0
    value = money(quantity * fill) if fill else order_cost(db, order)
    opening = instruction in ("BUY", "SELL_SHORT")
    return OrderPreview(
        symbol=order.symbol,
        instruction=instruction,
        quantity=quantity,
        order_type=order_type,
        session=session,
        duration=duration,
        projected_status=status,
        estimated_price=estimate,
        order_value=value,
        projected_commission=0.0,
        buying_power_before=before,
        buying_power_after=money(before - value) if opening else before,
    )


@tool()
def place_order(
    db: Database,
    account_hash: AccountHash,
    symbol: NonBlankText,
    instruction: Instruction,
    quantity: Quantity,
    order_type: OrderType,
    price: Price | None = None,
    stop_price: StopPrice | None = None,
    session: Session = "NORMAL",
    duration: Duration = "DAY",
) -> OrderPlaced:
    """Place a single equity order. During its session a market order fills at once (buys at the ask, sells at
    the bid) and so does a marketable limit order; other orders rest as WORKING, or QUEUED until their session
    opens. Refused: a sell beyond the shares not already held by open sells, a short sale in a cash account or of
    a hard-to-borrow symbol, buys beyond the buying power left, prices finer than a cent at $1 and above, a buy
    stop at or below (sell stop at or above) the last price, opening trades in a closing-only account.

    Args:
        account_hash: The account's hashValue.
        symbol: The ticker symbol.
        instruction: BUY, SELL, SELL_SHORT (margin accounts) or BUY_TO_COVER.
        quantity: Whole shares.
        order_type: MARKET, LIMIT (needs price), STOP (needs stop_price) or STOP_LIMIT (needs both).
        price: The limit price.
        stop_price: The stop (trigger) price.
        session: NORMAL (9:30-16:00 New York), AM (pre-market), PM (after-hours) or SEAMLESS (all three); extended
            sessions take LIMIT orders only.
        duration: DAY, GOOD_TILL_CANCEL or FILL_OR_KILL (LIMIT only; refused unless it fills in full at once).
    """
    account = account_by_hash(db, account_hash)
    order = Ticket.of(
        symbol=symbol,
        instruction=instruction,
        quantity=quantity,
        order_type=order_type,
        price=price,
        stop_price=stop_price,
        session=session,
        duration=duration,
    )
    row = place(db, account, order)
    return placed(db, account, row)


@tool()
def replace_order(
    db: Database,
    account_hash: AccountHash,
    order_id: int,
    order_type: OrderType,
    quantity: Quantity,
    price: Price | None = None,
    stop_price: StopPrice | None = None,
    session: Session = "NORMAL",
    duration: Duration = "DAY",
) -> OrderPlaced:
    """Replace a WORKING or QUEUED order: the original becomes REPLACED and a new order (new id, same symbol and
    instruction) is placed under every rule of place_order; the replacement is a whole order, so give every
    field it should have.

    Args:
        account_hash: The account's hashValue.
        order_id: The order to replace.
        order_type: The new order's type.
        quantity: Whole shares of the new order.
        price: The new limit price.
        stop_price: The new stop price.
        session: The new order's session.
        duration: The new order's duration.
    """
    account = account_by_hash(db, account_hash)
    changes = {
        "order_type": order_type,
        "quantity": quantity,
        "price": price,
        "stop_price": stop_price,
        "session": session,
        "duration": duration,
    }
    return placed(db, account, replace(db, account, order_id, changes))


@tool()
def cancel_order(db: Database, account_hash: AccountHash, order_id: int) -> Order:
    """Cancel a WORKING or QUEUED order; filled, canceled, replaced or expired orders cannot be canceled.

    Args:
        account_hash: The account's hashValue.
        order_id: The order to cancel.
    """
    row = cancel(db, account_by_hash(db, account_hash), order_id)
    return order_object(row, instrument(db, row["symbol"])["asset_type"])


# ---------------------------------------------------------------- transactions and journals


@tool(read_only=True)
def get_transactions(
    db: Database,
    account_hash: AccountHash,
    start_date: IsoDate | None = None,
    end_date: IsoDate | None = None,
    types: list[TransactionType] | None = None,
    symbol: str | None = None,
) -> list[Transaction]:
    """An account's transactions (trades, dividends and interest, deposits, withdrawals, journals) between two
    dates (at most a year apart; the last 60 days when left out), newest first.

    Args:
        account_hash: The account's hashValue.
        start_date: YYYY-MM-DD, inclusive.
        end_date: YYYY-MM-DD, inclusive; today when left out.
        types: Only these types, e.g. ["DIVIDEND_OR_INTEREST"].
        symbol: Only transactions in this symbol.
    """
    account = account_by_hash(db, account_hash)
    first, last = day_window(db, start_date, end_date)
    rows = find_transactions(db, account["account_number"], first, last, sorted(set(types or [])), symbol)
    return [transaction_object(r) for r in rows]


@tool(read_only=True)
def get_transaction(db: Database, account_hash: AccountHash, transaction_id: int) -> Transaction:
    """One transaction of an account by its activity id.

    Args:
        account_hash: The account's hashValue.
        transaction_id: The transaction's activity id.
    """
    account = account_by_hash(db, account_hash)
    found = db.find(transactions, activity_id=transaction_id, account_number=account["account_number"])
    if not found:
        raise NotFound(f"Transaction not found: {transaction_id}")
    return transaction_object(found[0])


@tool(user_only=True)
def journal_cash(
    db: Database, from_account_number: AccountNumber, to_account_number: AccountNumber, amount: JournalAmount
) -> list[Transaction]:
    """(Client only, in Move Money on schwab.com) Journal cash between two of the client's own accounts at once:
    never out of an IRA, at most the cash available for withdrawal, and into an IRA only within the year's
    contribution limit ($7,500).

    Args:
        from_account_number: The plain 8-digit number of the account the cash leaves.
        to_account_number: The plain 8-digit number of the account it goes to.
        amount: US dollars, e.g. 1500.
    """
    mine = {r["account_number"]: r for r in linked_accounts(db)}
    for number in (from_account_number, to_account_number):
        if number not in mine:
            raise InvalidRequest(f"Account {number} is not linked to this login")
    if round(amount, 2) != amount:
        raise InvalidRequest("amount must be in whole cents")
    rows = journal(db, mine[from_account_number], mine[to_account_number], amount)
    return [transaction_object(r) for r in rows]
