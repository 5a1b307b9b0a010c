"""Coinbase App (v2) and Advanced Trade (v3) API tools: the user, wallets, products, payment methods, simple buys
and sells, conversions, orders and fills, wallet history, sends, receive addresses and the address book."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, Page, Unordered, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoTimestamp, PageSize, page_size

from . import orders as trading
from .access import me
from .objects import (
    AccountObject,
    AddressBookEntryObject,
    AddressObject,
    CancelResult,
    ConvertTradeObject,
    FillObject,
    OrderObject,
    PaymentMethodObject,
    ProductObject,
    TradeObject,
    TransactionObject,
    UserObject,
    account_object,
    address_book_object,
    convert_object,
    order_object,
    payment_method_object,
    product_object,
    trade_object,
    transaction_object,
    user_object,
)
from .rules import moment, newest_first
from .schema import accounts, address_book, addresses, fills, orders, payment_methods, products, transactions
from .sends import decide, new_receive_address, save_address, send
from .trades import commit_conversion, crypto_account, execute_trade, price_trade, quote_conversion, trade_row

Side = Literal["buy", "sell"]
TransactionType = Literal[
    "send",
    "receive",
    "buy",
    "sell",
    "trade",
    "advanced_trade_fill",
    "fiat_deposit",
    "fiat_withdrawal",
    "staking_reward",
    "interest",
]
OrderStatus = Literal["OPEN", "FILLED", "CANCELLED", "EXPIRED", "FAILED"]
Amount = Annotated[float, Field(gt=0), ErrorText("amount must be greater than 0")]
BaseSize = Annotated[float, Field(gt=0), ErrorText("base_size must be greater than 0")]
QuoteSize = Annotated[float, Field(gt=0), ErrorText("quote_size must be greater than 0")]
LimitPrice = Annotated[float, Field(gt=0), ErrorText("limit_price must be greater than 0")]
OrderIds = Annotated[
    list[str], Unordered, Field(min_length=1, max_length=100), ErrorText("order_ids must hold 1 to 100 order ids")
]
AddressName = Annotated[
    str, Field(min_length=1, max_length=100, pattern=r"\S"), ErrorText("name must be 1 to 100 characters")
]
Label = Annotated[str, Field(min_length=1, max_length=50, pattern=r"\S"), ErrorText("label must be 1 to 50 characters")]


# ---------------------------------------------------------------- user, wallets, products, payment methods


@tool(read_only=True)
def get_current_user(db: Database) -> UserObject:
    """Show the signed-in user: native currency, 2-step verification and address allowlisting settings, the send
    amount from which approval in the app is needed, and the Advanced Trade fee tier of the last 30 days."""
    return user_object(db, me(db))


@tool(read_only=True)
def list_accounts(db: Database, limit: page_size(250) = 49, cursor: str | None = None) -> Page[AccountObject]:
    """List the user's wallets (one per currency) with available and held balances and, for crypto, the networks
    it can be sent on with their fees and minimums.

    Args:
        limit: Wallets per page, 1 to 250.
        cursor: The next_cursor of the previous page.
    """
    rows = db.find(accounts, order_by=[accounts.c.name])
    page = paginate(rows, limit, cursor, max_page_size=250)
    return Page[AccountObject](
        results=[account_object(db, r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def list_products(
    db: Database, product_ids: list[str] | None = None, quote_currency: str | None = None
) -> list[ProductObject]:
    """List trading pairs with their current price, best bid and ask, size increments and minimums, and trading
    mode (cancel-only, limit-only, post-only).

    Args:
        product_ids: Only these products, e.g. ["BTC-USD", "ETH-BTC"].
        quote_currency: Only products quoted in this currency, e.g. USD.
    """
    quote = quote_currency.strip().upper() if quote_currency is not None else None
    rows = db.find(products, **given(quote_currency_id=quote))
    if product_ids is not None:
        wanted = {p.strip().upper() for p in product_ids}
        rows = [r for r in rows if r["product_id"] in wanted]
    return [product_object(db, r) for r in rows]


@tool(read_only=True)
def list_payment_methods(db: Database) -> list[PaymentMethodObject]:
    """List linked payment methods (bank accounts, cards, PayPal and the USD wallet): what each can be used for,
    whether it is verified, and its daily and weekly buy limits with what remains of them."""
    return [payment_method_object(db, r) for r in db.find(payment_methods, order_by=[payment_methods.c.created_at])]


# ---------------------------------------------------------------- simple buys and sells


@tool(read_only=True)
def get_quote(
    db: Database, side: Side, account_id: str, amount: Amount, currency: str, payment_method_id: str
) -> TradeObject:
    """Price a simple buy or sell without placing it: the unit price with Coinbase's spread, the Coinbase fee and
    the total, checked against the payment method's limits and your balances.

    Args:
        side: buy or sell.
        account_id: The crypto wallet to buy into or sell from (its uuid).
        amount: How much, before fees: in USD (e.g. 250 for $250 worth) or in the wallet's crypto (e.g. 0.01).
        currency: USD, or the wallet's currency code, saying what `amount` is in.
        payment_method_id: Buys: the payment method to pay with; sells: where the money goes.
    """
    account, method, price = price_trade(db, side, account_id, amount, currency, payment_method_id)
    return trade_object(trade_row(db, side, account, method, price), committed=False)


@tool()
def place_buy(db: Database, account_id: str, amount: Amount, currency: str, payment_method_id: str) -> TradeObject:
    """Buy crypto with a payment method, at once. The fee is added on top of `amount`; the total counts towards the
    payment method's daily and weekly buy limits, and a USD wallet purchase needs the USD available.

    Args:
        account_id: The crypto wallet to buy into (its uuid).
        amount: How much to buy, before fees: in USD (250 for $250 worth) or in the wallet's crypto (0.01).
        currency: USD, or the wallet's currency code, saying what `amount` is in.
        payment_method_id: The payment method to pay with.
    """
    account, method, price = price_trade(db, "buy", account_id, amount, currency, payment_method_id)
    return trade_object(execute_trade(db, "buy", account, method, price))


@tool()
def place_sell(db: Database, account_id: str, amount: Amount, currency: str, payment_method_id: str) -> TradeObject:
    """Sell crypto for USD, at once; the fee is taken from the proceeds. Proceeds go to the USD wallet at once, to
    PayPal instantly, or to a bank account in about three days.

    Args:
        account_id: The crypto wallet to sell from (its uuid).
        amount: How much to sell: in USD (500 for $500 worth) or in the wallet's crypto (0.25).
        currency: USD, or the wallet's currency code, saying what `amount` is in.
        payment_method_id: Where the money goes: the USD wallet, a bank account or PayPal.
    """
    account, method, price = price_trade(db, "sell", account_id, amount, currency, payment_method_id)
    return trade_object(execute_trade(db, "sell", account, method, price))


# ---------------------------------------------------------------- conversions


@tool()
def create_convert_quote(db: Database, from_account: str, to_account: str, amount: Amount) -> ConvertTradeObject:
    """Quote converting one crypto (or USDC/USD) into another. The quote holds its rate for 10 minutes; nothing
    moves until it is committed. USD and USDC convert one for one without a fee; other pairs pay a 0.5% fee and
    a spread.

    Args:
        from_account: The source wallet's uuid.
        to_account: The target wallet's uuid.
        amount: How much of the source currency to convert.
    """
    return convert_object(quote_conversion(db, from_account, to_account, amount), expired=False)


@tool()
def commit_convert_trade(db: Database, trade_id: str, from_account: str, to_account: str) -> ConvertTradeObject:
    """Commit a conversion quote before it expires: the source amount leaves one wallet and the quoted amount
    arrives in the other.

    Args:
        trade_id: The quote's trade_id, from create_convert_quote.
        from_account: The quote's source wallet uuid.
        to_account: The quote's target wallet uuid.
    """
    return convert_object(commit_conversion(db, trade_id, from_account, to_account), expired=False)


# ---------------------------------------------------------------- Advanced Trade


@tool()
def create_order(
    db: Database,
    product_id: str,
    side: Literal["BUY", "SELL"],
    order_type: Literal["MARKET", "LIMIT"],
    base_size: BaseSize | None = None,
    quote_size: QuoteSize | None = None,
    limit_price: LimitPrice | None = None,
    post_only: bool = False,
    client_order_id: str | None = None,
) -> OrderObject:
    """Place an Advanced Trade order. Market orders fill at once at the best ask (buys) or bid (sells) and pay the
    taker fee of your tier. Limit orders (good until cancelled) that reach the other side of the book fill at
    once; others rest OPEN and hold their funds (quote currency plus fee for buys, the base size for sells).
    Products in cancel-only mode take no orders; limit-only products take no market orders.

    Args:
        product_id: The trading pair, e.g. BTC-USD.
        side: BUY or SELL.
        order_type: MARKET or LIMIT.
        base_size: Amount of the base currency (limit orders, market sells, or market buys sized in base).
        quote_size: Market buys only: quote currency to spend, fees included.
        limit_price: Limit orders: the price in the quote currency.
        post_only: Limit orders: reject the order instead of filling it at once.
        client_order_id: Your own unique id; repeating one returns the first order instead of placing another.
    """
    order = trading.submit(
        db, product_id, side, order_type, base_size, quote_size, limit_price, post_only, client_order_id
    )
    return order_object(order)


@tool()
def cancel_orders(db: Database, order_ids: OrderIds) -> list[CancelResult]:
    """Cancel open orders; each result says whether it worked. Only OPEN orders can be cancelled (also on
    cancel-only products); what a cancelled order still held returns to the available balance.

    Args:
        order_ids: The order_ids to cancel (1 to 100).
    """
    results, seen = [], set()
    for order_id in order_ids:
        reason = "DUPLICATE_CANCEL_REQUEST" if order_id in seen else trading.cancel(db, order_id)
        seen.add(order_id)
        results.append(CancelResult(order_id=order_id, success=reason is None, failure_reason=reason))
    return results


@tool(read_only=True)
def list_orders(
    db: Database,
    product_id: str | None = None,
    order_status: OrderStatus | None = None,
    order_side: Literal["BUY", "SELL"] | None = None,
    start_date: IsoTimestamp | None = None,
    end_date: IsoTimestamp | None = None,
    limit: PageSize = 100,
    cursor: str | None = None,
) -> Page[OrderObject]:
    """List Advanced Trade orders, newest first.

    Args:
        product_id: Only orders of this product, e.g. SOL-USD.
        order_status: Only orders in this status.
        order_side: Only BUY or SELL orders.
        start_date: Only orders created at or after this timestamp or date (2025-06-01).
        end_date: Only orders created before this timestamp or date.
        limit: Orders per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    since = moment(start_date, "start_date") if start_date is not None else None
    before = moment(end_date, "end_date") if end_date is not None else None
    product = product_id.strip().upper() if product_id else None
    equals = given(product_id=product, status=order_status, side=order_side)
    page = newest_first(db, orders, "created_time", limit, cursor, since, before, **equals)
    return Page[OrderObject](
        results=[order_object(r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def list_fills(
    db: Database,
    order_id: str | None = None,
    product_id: str | None = None,
    start_sequence_timestamp: IsoTimestamp | None = None,
    end_sequence_timestamp: IsoTimestamp | None = None,
    limit: PageSize = 100,
    cursor: str | None = None,
) -> Page[FillObject]:
    """List the fills (executions) of your orders, newest first, with price, size and commission.

    Args:
        order_id: Only fills of this order.
        product_id: Only fills of this product, e.g. BTC-USD.
        start_sequence_timestamp: Only fills at or after this timestamp or date (2025-05-01).
        end_sequence_timestamp: Only fills before this timestamp or date.
        limit: Fills per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    start, end = start_sequence_timestamp, end_sequence_timestamp
    since = moment(start, "start_sequence_timestamp") if start is not None else None
    before = moment(end, "end_sequence_timestamp") if end is not None else None
    equals = given(order_id=order_id, product_id=product_id.strip().upper() if product_id else None)
    page = newest_first(db, fills, "trade_time", limit, cursor, since, before, **equals)
    return Page[FillObject](
        results=[FillObject(**r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


# ---------------------------------------------------------------- wallet history


@tool(read_only=True)
def list_transactions(
    db: Database, account_id: str, type: TransactionType | None = None, limit: PageSize = 25, cursor: str | None = None
) -> Page[TransactionObject]:
    """List a wallet's transactions, newest first: buys, sells, conversions, Advanced Trade fills, sends and
    receives with their network fees, deposits, withdrawals and rewards.

    Args:
        account_id: The wallet's uuid.
        type: Only transactions of this type.
        limit: Transactions per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    db.get(accounts, account_id, "Account")
    page = newest_first(db, transactions, "created_at", limit, cursor, account_id=account_id, **given(type=type))
    return Page[TransactionObject](
        results=[transaction_object(r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


# ---------------------------------------------------------------- sends


@tool()
def send_money(
    db: Database,
    account_id: str,
    to: str,
    amount: Amount,
    network: str | None = None,
    description: str | None = None,
    idem: str | None = None,
) -> TransactionObject:
    """Send crypto from a wallet to an external address. The network fee is charged on top of `amount` and the
    amount must meet the network's minimum. With address allowlisting on, only address-book entries at least 48
    hours old can receive. Sends worth at least the user's 2-step threshold stay pending (held) until the user
    approves them in the Coinbase app.

    Args:
        account_id: The wallet to send from (its uuid).
        to: The destination address.
        amount: How much crypto the recipient gets, e.g. 0.05.
        network: The network to send on (e.g. ethereum, base, solana); defaults to the currency's main network.
        description: A note saved with the transaction.
        idem: A unique token for this send; repeating it returns the first send instead of sending twice.
    """
    return transaction_object(send(db, account_id, to, amount, network, description, idem))


# ---------------------------------------------------------------- receive addresses


@tool(read_only=True)
def list_addresses(db: Database, account_id: str) -> list[AddressObject]:
    """List a crypto wallet's receive addresses, newest first.

    Args:
        account_id: The wallet's uuid.
    """
    crypto_account(db, account_id)
    rows = db.find(addresses, account_id=account_id, order_by=[addresses.c.created_at.desc()])
    return [AddressObject(**r) for r in rows]


@tool()
def create_address(
    db: Database, account_id: str, name: AddressName | None = None, network: str | None = None
) -> AddressObject:
    """Create a new receive address for a crypto wallet.

    Args:
        account_id: The wallet's uuid.
        name: A label for the address (at most 100 characters).
        network: The network to receive on; defaults to the currency's main network.
    """
    row = new_receive_address(db, crypto_account(db, account_id), name, network)
    return AddressObject(**row)


# ---------------------------------------------------------------- address book


@tool(read_only=True)
def list_address_book(db: Database, currency: str | None = None) -> list[AddressBookEntryObject]:
    """List the address book: saved external addresses, each with its allowlist status (active, or pending during
    the 48 hours after it was added) and when it can first receive.

    Args:
        currency: Only entries of this currency, e.g. BTC.
    """
    code = currency.strip().upper() if currency is not None else None
    rows = db.find(address_book, order_by=[address_book.c.label], **given(currency=code))
    return [address_book_object(db, r) for r in rows]


@tool()
def add_address_book_entry(
    db: Database, currency: str, address: str, label: Label, network: str | None = None
) -> AddressBookEntryObject:
    """Save an external address to the address book. With allowlisting on, it can receive sends 48 hours after it
    is added.

    Args:
        currency: The currency the address receives, e.g. ETH.
        address: The address.
        label: A name for it (1 to 50 characters), e.g. "Ledger Nano X".
        network: Its network; defaults to the currency's main network.
    """
    row = save_address(db, currency.strip().upper(), address, label, network)
    return address_book_object(db, row)


# ---------------------------------------------------------------- the account holder


@tool(user_only=True)
def approve_send_in_app(db: Database, amount: Amount, currency: str, approve: bool = True) -> TransactionObject:
    """(Account holder only, on their phone) Approve or deny a send waiting for 2-step verification in the
    Coinbase app.

    Args:
        amount: The amount the prompt shows.
        currency: The currency the prompt shows, e.g. ETH.
        approve: true to approve (the crypto leaves), false to deny (the held funds return).
    """
    return transaction_object(decide(db, amount, currency.strip().upper(), approve))
