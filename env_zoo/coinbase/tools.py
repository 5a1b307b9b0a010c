"""Coinbase App (v2) and Advanced Trade (v3) API tools: the user, wallets, products, payment methods, simple buys
and sells, conversions, orders and fills, wallet history, sends, receive addresses and the address book."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Annotated, Any, Literal

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    Page,
    PermissionDenied,
    Unordered,
    paginate,
    tool,
)

from . import orders as trading
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
from .rules import (
    QUOTE_TTL,
    RetailPrice,
    adjust,
    check_address,
    check_allowlisted,
    check_available,
    check_buy_limits,
    check_simple_trading,
    convert_price,
    dec,
    expired,
    fmt,
    generated_address,
    me,
    moment,
    native,
    parse_amount,
    places,
    price_text,
    record,
    retail_price,
    tx_hash,
)
from .rules import network as find_network
from .schema import (
    accounts,
    address_book,
    addresses,
    conversions,
    fills,
    orders,
    payment_methods,
    products,
    trades,
    transactions,
)

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
ISO = "%Y-%m-%dT%H:%M:%SZ"


# ---------------------------------------------------------------- helpers


def _crypto_account(db: Database, account_id: str) -> dict[str, Any]:
    account = db.get(accounts, account_id, "Account")
    if account["type"] != "ACCOUNT_TYPE_CRYPTO":
        raise InvalidRequest(f"The {account['name']} holds fiat; choose a crypto wallet")
    return account


def _price_trade(
    db: Database, side: str, account_id: str, amount: float, amount_currency: str, payment_method_id: str
) -> tuple[dict[str, Any], dict[str, Any], RetailPrice]:
    """Check and price a simple buy or sell: the wallet, the payment method, limits and funds."""
    account = _crypto_account(db, account_id)
    code = account["currency"]
    check_simple_trading(db, code)
    method = db.get(payment_methods, payment_method_id, "Payment method")
    if side == "buy" and not method["allow_buy"]:
        raise InvalidRequest(f"{method['name']} can't be used to buy crypto")
    if side == "sell" and not method["allow_sell"]:
        raise InvalidRequest(f"Sales can't be paid out to {method['name']}")
    if not method["verified"]:
        raise PermissionDenied(f"{method['name']} isn't verified yet; verify it in Settings before using it")
    unit = amount_currency.strip().upper()
    if unit not in ("USD", code):
        raise InvalidRequest(f"currency must be USD or {code}")
    price = retail_price(db, side, code, parse_amount(amount, places(db, unit)), unit == "USD", method["type"])
    if side == "buy":
        check_buy_limits(db, method, price.total)
        if method["type"] == "fiat_account":
            check_available(db, db.get(accounts, method["fiat_account_id"]), price.total, "this buy")
    else:
        check_available(db, account, price.amount, "this sell")
    return account, method, price


def _trade_row(
    side: str, account: dict[str, Any], method: dict[str, Any], price: RetailPrice, exp: int, **values: Any
) -> dict[str, Any]:
    return {
        "resource": side,
        "account_id": account["uuid"],
        "payment_method_id": method["id"],
        "amount": fmt(price.amount, exp),
        "currency": account["currency"],
        "unit_price": price_text(price.unit_price),
        "subtotal": fmt(price.subtotal, 2),
        "fee": fmt(price.fee, 2),
        "total": fmt(price.total, 2),
    } | values


def _execute_trade(
    db: Database, side: str, account: dict[str, Any], method: dict[str, Any], price: RetailPrice
) -> TradeObject:
    """Commit a priced simple trade: move the crypto, settle the USD side and book both."""
    code, exp = account["currency"], places(db, account["currency"])
    buying = side == "buy"
    crypto = price.amount if buying else -price.amount
    verb = "Bought" if buying else "Sold"
    trade_id = db.new_uuid(trades)
    adjust(db, account, available=crypto)
    tx = record(
        db,
        account,
        side,
        crypto,
        description=f"{verb} {fmt(price.amount, exp)} {code} {'with' if buying else 'to'} {method['name']}",
        resource_id=trade_id,
    )
    if method["type"] == "fiat_account":
        usd = db.get(accounts, method["fiat_account_id"])
        cash = -price.total if buying else price.total
        adjust(db, usd, available=cash)
        record(db, usd, side, cash, description=f"{verb} {fmt(price.amount, exp)} {code}", resource_id=trade_id)
    payout = None
    if not buying:
        payout = db.now() if method["instant_sell"] else db.now() + timedelta(days=3)
    row = db.insert(
        trades,
        **_trade_row(
            side,
            account,
            method,
            price,
            exp,
            id=trade_id,
            status="completed",
            transaction_id=tx["id"],
            payout_at=payout.strftime(ISO) if payout else None,
            created_at=db.now_iso(),
        ),
    )
    return trade_object(row)


# ---------------------------------------------------------------- user, wallets, products, payment methods


@tool(read_only=True)
def get_current_user(db: Database) -> UserObject:
    """Show the signed-in user: native currency, 2-step verification and address allowlisting settings, the send
    amount from which approval in the app is needed, and the Advanced Trade fee tier of the last 30 days."""
    return user_object(db, me(db))


@tool(read_only=True)
def list_accounts(db: Database, limit: int = 49, cursor: str | None = None) -> Page[AccountObject]:
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
    rows = db.find(products)
    if product_ids is not None:
        wanted = {p.strip().upper() for p in product_ids}
        rows = [r for r in rows if r["product_id"] in wanted]
    if quote_currency is not None:
        rows = [r for r in rows if r["quote_currency_id"] == quote_currency.strip().upper()]
    return [product_object(db, r) for r in rows]


@tool(read_only=True)
def list_payment_methods(db: Database) -> list[PaymentMethodObject]:
    """List linked payment methods (bank accounts, cards, PayPal and the USD wallet): what each can be used for,
    whether it is verified, and its daily and weekly buy limits with what remains of them."""
    return [payment_method_object(db, r) for r in db.find(payment_methods, order_by=[payment_methods.c.created_at])]


# ---------------------------------------------------------------- simple buys and sells


@tool(read_only=True)
def get_quote(
    db: Database, side: Side, account_id: str, amount: float, currency: str, payment_method_id: str
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
    account, method, price = _price_trade(db, side, account_id, amount, currency, payment_method_id)
    row = _trade_row(
        side,
        account,
        method,
        price,
        places(db, account["currency"]),
        id=None,
        status="quote",
        transaction_id=None,
        payout_at=None,
        created_at=None,
    )
    return trade_object(row, committed=False)


@tool()
def place_buy(db: Database, account_id: str, amount: float, currency: str, payment_method_id: str) -> TradeObject:
    """Buy crypto with a payment method, at once. The fee is added on top of `amount`; the total counts towards the
    payment method's daily and weekly buy limits, and a USD wallet purchase needs the USD available.

    Args:
        account_id: The crypto wallet to buy into (its uuid).
        amount: How much to buy, before fees: in USD (250 for $250 worth) or in the wallet's crypto (0.01).
        currency: USD, or the wallet's currency code, saying what `amount` is in.
        payment_method_id: The payment method to pay with.
    """
    account, method, price = _price_trade(db, "buy", account_id, amount, currency, payment_method_id)
    return _execute_trade(db, "buy", account, method, price)


@tool()
def place_sell(db: Database, account_id: str, amount: float, currency: str, payment_method_id: str) -> TradeObject:
    """Sell crypto for USD, at once; the fee is taken from the proceeds. Proceeds go to the USD wallet at once, to
    PayPal instantly, or to a bank account in about three days.

    Args:
        account_id: The crypto wallet to sell from (its uuid).
        amount: How much to sell: in USD (500 for $500 worth) or in the wallet's crypto (0.25).
        currency: USD, or the wallet's currency code, saying what `amount` is in.
        payment_method_id: Where the money goes: the USD wallet, a bank account or PayPal.
    """
    account, method, price = _price_trade(db, "sell", account_id, amount, currency, payment_method_id)
    return _execute_trade(db, "sell", account, method, price)


# ---------------------------------------------------------------- conversions


@tool()
def create_convert_quote(db: Database, from_account: str, to_account: str, amount: float) -> ConvertTradeObject:
    """Quote converting one crypto (or USDC/USD) into another. The quote holds its rate for 10 minutes; nothing
    moves until it is committed. USD and USDC convert one for one without a fee; other pairs pay a 0.5% fee and
    a spread.

    Args:
        from_account: The source wallet's uuid.
        to_account: The target wallet's uuid.
        amount: How much of the source currency to convert.
    """
    source, target = db.get(accounts, from_account, "Account"), db.get(accounts, to_account, "Account")
    src, tgt = source["currency"], target["currency"]
    value = parse_amount(amount, places(db, src))
    price = convert_price(db, src, tgt, value)
    check_available(db, source, value, "this conversion")
    src_exp, tgt_exp = places(db, src), places(db, tgt)
    row = db.insert(
        conversions,
        id=db.new_uuid(conversions),
        status="TRADE_STATUS_CREATED",
        source_account_id=from_account,
        target_account_id=to_account,
        source_currency=src,
        target_currency=tgt,
        user_entered_amount=fmt(value, src_exp),
        fee=fmt(price.fee, src_exp),
        subtotal=fmt(price.subtotal, src_exp),
        exchange_rate=f"{price.rate.normalize():f}",
        target_amount=fmt(price.target_amount, tgt_exp),
        created_at=db.now_iso(),
        expires_at=(db.now() + QUOTE_TTL).strftime(ISO),
    )
    return convert_object(row, expired=False)


@tool()
def commit_convert_trade(db: Database, trade_id: str, from_account: str, to_account: str) -> ConvertTradeObject:
    """Commit a conversion quote before it expires: the source amount leaves one wallet and the quoted amount
    arrives in the other.

    Args:
        trade_id: The quote's trade_id, from create_convert_quote.
        from_account: The quote's source wallet uuid.
        to_account: The quote's target wallet uuid.
    """
    trade = db.get(conversions, trade_id, "Trade")
    if (trade["source_account_id"], trade["target_account_id"]) != (from_account, to_account):
        raise InvalidRequest("from_account and to_account must be the quote's source and target wallets")
    if trade["status"] != "TRADE_STATUS_CREATED":
        raise Conflict("This trade has already been committed")
    if expired(trade, db.now()):
        raise Conflict(f"This quote expired at {trade['expires_at']}; request a new quote")
    source, target = db.get(accounts, from_account), db.get(accounts, to_account)
    spent, received = dec(trade["user_entered_amount"]), dec(trade["target_amount"])
    check_available(db, source, spent, "this conversion")
    label = f"Converted {trade['user_entered_amount']} {trade['source_currency']} to {trade['target_currency']}"
    for account, delta in ((source, -spent), (target, received)):
        adjust(db, account, available=delta)
        record(db, account, "trade", delta, description=label, resource_id=trade_id)
    return convert_object(db.update(conversions, trade_id, status="TRADE_STATUS_COMPLETED"), expired=False)


# ---------------------------------------------------------------- Advanced Trade


@tool()
def create_order(
    db: Database,
    product_id: str,
    side: Literal["BUY", "SELL"],
    order_type: Literal["MARKET", "LIMIT"],
    base_size: float | None = None,
    quote_size: float | None = None,
    limit_price: float | None = None,
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
    if client_order_id is not None:
        repeated = db.find(orders, client_order_id=client_order_id)
        if repeated:
            return order_object(repeated[0])
    order = trading.place(
        db, product_id, side, order_type, base_size, quote_size, limit_price, post_only, client_order_id
    )
    return order_object(order)


@tool()
def cancel_orders(db: Database, order_ids: Annotated[list[str], Unordered]) -> list[CancelResult]:
    """Cancel open orders; each result says whether it worked. Only OPEN orders can be cancelled (also on
    cancel-only products); what a cancelled order still held returns to the available balance.

    Args:
        order_ids: The order_ids to cancel (1 to 100).
    """
    if not 1 <= len(order_ids) <= 100:
        raise InvalidRequest("order_ids must hold 1 to 100 order ids")
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
    start_date: str | None = None,
    end_date: str | None = None,
    limit: int = 100,
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
    conditions = []
    if start_date is not None:
        conditions.append(orders.c.created_time >= moment(start_date, "start_date"))
    if end_date is not None:
        conditions.append(orders.c.created_time < moment(end_date, "end_date"))
    equals = {
        k: v
        for k, v in (
            ("product_id", product_id.strip().upper() if product_id else None),
            ("status", order_status),
            ("side", order_side),
        )
        if v is not None
    }
    rows = db.find(orders, *conditions, order_by=[orders.c.created_time.desc()], **equals)
    return paginate([order_object(r) for r in rows], limit, cursor)


@tool(read_only=True)
def list_fills(
    db: Database,
    order_id: str | None = None,
    product_id: str | None = None,
    start_sequence_timestamp: str | None = None,
    end_sequence_timestamp: str | None = None,
    limit: int = 100,
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
    conditions = []
    if start_sequence_timestamp is not None:
        conditions.append(fills.c.trade_time >= moment(start_sequence_timestamp, "start_sequence_timestamp"))
    if end_sequence_timestamp is not None:
        conditions.append(fills.c.trade_time < moment(end_sequence_timestamp, "end_sequence_timestamp"))
    equals = {
        k: v
        for k, v in (("order_id", order_id), ("product_id", product_id.strip().upper() if product_id else None))
        if v is not None
    }
    rows = db.find(fills, *conditions, order_by=[fills.c.trade_time.desc()], **equals)
    return paginate([FillObject(**r) for r in rows], limit, cursor)


# ---------------------------------------------------------------- wallet history


@tool(read_only=True)
def list_transactions(
    db: Database, account_id: str, type: TransactionType | None = None, limit: int = 25, cursor: str | None = None
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
    equals = {"type": type} if type is not None else {}
    rows = db.find(transactions, account_id=account_id, order_by=[transactions.c.created_at.desc()], **equals)
    return paginate([transaction_object(r) for r in rows], limit, cursor)


# ---------------------------------------------------------------- sends


@tool()
def send_money(
    db: Database,
    account_id: str,
    to: str,
    amount: float,
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
    account = _crypto_account(db, account_id)
    code = account["currency"]
    net = find_network(db, code, network)
    address = check_address(net, to)
    if idem is not None:
        repeated = db.find(transactions, account_id=account_id, idem=idem)
        if repeated:
            return transaction_object(repeated[0])
    exp = places(db, code)
    quantity = parse_amount(amount, exp)
    if quantity < dec(net["min_send"]):
        raise InvalidRequest(f"The minimum send of {code} on {net['display_name']} is {net['min_send']} {code}")
    check_allowlisted(db, code, net["name"], address)
    fee = dec(net["network_fee"])
    total = quantity + fee
    check_available(db, account, total, "this send")
    needs_approval = native(db, code, quantity) >= dec(me(db)["send_2fa_threshold"])
    network_info = {
        "name": net["name"],
        "status": "pending" if needs_approval else "confirmed",
        "hash": None,
        "transaction_fee": fmt(fee, exp),
        "transaction_amount": fmt(quantity, exp),
    }
    adjust(db, account, available=-total, hold=total if needs_approval else Decimal(0))
    row = record(
        db,
        account,
        "send",
        -total,
        status="pending" if needs_approval else "completed",
        description=description,
        awaiting_2fa=needs_approval,
        network=network_info,
        to_address=address,
        idem=idem,
    )
    if not needs_approval:
        row = db.update(transactions, row["id"], network=network_info | {"hash": tx_hash(net["name"], row["id"])})
    return transaction_object(row)


# ---------------------------------------------------------------- receive addresses


@tool(read_only=True)
def list_addresses(db: Database, account_id: str) -> list[AddressObject]:
    """List a crypto wallet's receive addresses, newest first.

    Args:
        account_id: The wallet's uuid.
    """
    _crypto_account(db, account_id)
    rows = db.find(addresses, account_id=account_id, order_by=[addresses.c.created_at.desc()])
    return [AddressObject(**r) for r in rows]


@tool()
def create_address(db: Database, account_id: str, name: str | None = None, network: str | None = None) -> AddressObject:
    """Create a new receive address for a crypto wallet.

    Args:
        account_id: The wallet's uuid.
        name: A label for the address (at most 100 characters).
        network: The network to receive on; defaults to the currency's main network.
    """
    account = _crypto_account(db, account_id)
    net = find_network(db, account["currency"], network)
    if name is not None and not 1 <= len(name.strip()) <= 100:
        raise InvalidRequest("name must be 1 to 100 characters")
    address_id = db.new_uuid(addresses)
    row = db.insert(
        addresses,
        id=address_id,
        account_id=account_id,
        address=generated_address(net["name"], address_id),
        name=name.strip() if name else None,
        network=net["name"],
        created_at=db.now_iso(),
    )
    return AddressObject(**row)


# ---------------------------------------------------------------- address book


@tool(read_only=True)
def list_address_book(db: Database, currency: str | None = None) -> list[AddressBookEntryObject]:
    """List the address book: saved external addresses, each with its allowlist status (active, or pending during
    the 48 hours after it was added) and when it can first receive.

    Args:
        currency: Only entries of this currency, e.g. BTC.
    """
    equals = {"currency": currency.strip().upper()} if currency is not None else {}
    rows = db.find(address_book, order_by=[address_book.c.label], **equals)
    return [address_book_object(db, r) for r in rows]


@tool()
def add_address_book_entry(
    db: Database, currency: str, address: str, label: str, network: str | None = None
) -> AddressBookEntryObject:
    """Save an external address to the address book. With allowlisting on, it can receive sends 48 hours after it
    is added.

    Args:
        currency: The currency the address receives, e.g. ETH.
        address: The address.
        label: A name for it (1 to 50 characters), e.g. "Ledger Nano X".
        network: Its network; defaults to the currency's main network.
    """
    code = currency.strip().upper()
    net = find_network(db, code, network)
    clean = check_address(net, address)
    if not 1 <= len(label.strip()) <= 50:
        raise InvalidRequest("label must be 1 to 50 characters")
    existing = db.find(address_book, currency=code, network=net["name"], address=clean)
    if existing:
        raise Conflict(f"This address is already in your address book as '{existing[0]['label']}'")
    row = db.insert(
        address_book,
        id=db.new_uuid(address_book),
        currency=code,
        network=net["name"],
        address=clean,
        label=label.strip(),
        added_at=db.now_iso(),
    )
    return address_book_object(db, row)


# ---------------------------------------------------------------- the account holder


@tool(user_only=True)
def approve_send_in_app(db: Database, amount: float, currency: str, approve: bool = True) -> TransactionObject:
    """(Account holder only, on their phone) Approve or deny a send waiting for 2-step verification in the
    Coinbase app.

    Args:
        amount: The amount the prompt shows.
        currency: The currency the prompt shows, e.g. ETH.
        approve: true to approve (the crypto leaves), false to deny (the held funds return).
    """
    code = currency.strip().upper()
    wanted = Decimal(str(amount))
    waiting = [
        t
        for t in db.find(
            transactions, type="send", awaiting_2fa=True, currency=code, order_by=[transactions.c.created_at]
        )
        if dec(t["network"]["transaction_amount"]) == wanted
    ]
    if not waiting:
        raise NotFound(f"No send of {amount} {code} is waiting for your approval")
    tx = waiting[-1]
    total = -dec(tx["amount"])
    account = db.get(accounts, tx["account_id"])
    if approve:
        adjust(db, account, hold=-total)
        info = tx["network"] | {"status": "confirmed", "hash": tx_hash(tx["network"]["name"], tx["id"])}
        row = db.update(transactions, tx["id"], status="completed", awaiting_2fa=False, network=info)
    else:
        adjust(db, account, available=total, hold=-total)
        row = db.update(
            transactions,
            tx["id"],
            status="canceled",
            awaiting_2fa=False,
            network=tx["network"] | {"status": "canceled"},
        )
    return transaction_object(row)
