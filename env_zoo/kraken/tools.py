"""Kraken Spot REST API tools for a signed-in account: balances with what open orders hold, assets and asset pairs
with their minimums and precision, ticker prices, orders (market, limit, stop-loss; validate-only, userref,
post-only), amending and canceling them, open and closed orders, the ledger, deposit methods, addresses and
status, and withdrawals to saved address keys with their fee, minimum and 24-hour limit."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest, PermissionDenied, tool
from envfactory_gym.fields import ErrorText, IsoTimestamp, NonBlankText, text
from envfactory_gym.values import parse_timestamp

from . import rules
from .objects import (
    AddOrderResult,
    AssetBalance,
    AssetInfo,
    CancelResult,
    DepositAddress,
    DepositMethod,
    DepositRecord,
    LedgerEntry,
    OrderInfo,
    PairInfo,
    Ticker,
    WithdrawAddress,
    WithdrawInfo,
    WithdrawMethod,
    WithdrawRecord,
    decimals,
    descr,
    ledger_entry,
    order_info,
    pair_info,
    withdraw_record,
)
from .schema import (
    accounts,
    asset_pairs,
    assets,
    balances,
    deposit_addresses,
    deposit_methods,
    deposits,
    ledger,
    orders,
    withdraw_addresses,
    withdraw_methods,
    withdrawals,
)

Decimal = Annotated[str, Field(pattern=r"^\d+(\.\d+)?$"), ErrorText("EGeneral:Invalid arguments")]
AssetName = Annotated[
    str, Field(min_length=2, max_length=10, pattern=r"^[A-Za-z0-9.]+$"), ErrorText("EQuery:Unknown asset")
]
PairName = Annotated[str, Field(min_length=5, max_length=16), ErrorText("EQuery:Unknown asset pair")]
OrderId = Annotated[str, Field(pattern=r"^O[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{6}$"), ErrorText("EOrder:Unknown order")]
UserRef = Annotated[int, Field(ge=-2147483648, le=2147483647), ErrorText("EGeneral:Invalid arguments:userref")]
Offset = Annotated[int, Field(ge=0, le=100000)]
PAGE = 50


class ClosedOrders(BaseModel):
    count: int
    closed: list[OrderInfo]


class Ledgers(BaseModel):
    count: int
    ledger: list[LedgerEntry]


class Me(BaseModel):
    account_id: str
    name: str
    email: str
    maker_fee_pct: str
    taker_fee_pct: str


def _pct(bps: int) -> str:
    return f"{bps / 100:.2f}"


# ---------------------------------------------------------------- the user


@tool(user_only=True)
def sign_in(db: Database, api_key: NonBlankText) -> Me:
    """(User only) The account holder connects a Kraken account by giving the assistant an API key (Settings > API);
    a later sign-in replaces the earlier one.

    Args:
        api_key: The API key.
    """
    found = db.find(accounts, api_key=api_key.strip())
    if not found:
        raise PermissionDenied("EAPI:Invalid key")
    db.start_session(rules.sessions, account_id=found[0]["id"])
    return get_account(db)


@tool(read_only=True)
def get_account(db: Database) -> Me:
    """The signed-in account: its client id, holder and fee tier (maker and taker fee in percent)."""
    acct = rules.account(db)
    return Me(
        account_id=acct["id"],
        name=acct["name"],
        email=acct["email"],
        maker_fee_pct=_pct(acct["maker_bps"]),
        taker_fee_pct=_pct(acct["taker_bps"]),
    )


# ---------------------------------------------------------------- market data


@tool(read_only=True)
def list_assets(db: Database, asset: AssetName | None = None) -> list[AssetInfo]:
    """Kraken's assets (XXBT, XETH, ZUSD, SOL...) with their altnames, display decimals and funding status.

    Args:
        asset: One asset by name or altname, e.g. "XBT".
    """
    rows = [rules.asset(db, asset)] if asset is not None else db.find(assets)
    return [AssetInfo(**row) for row in rows]


@tool(read_only=True)
def list_asset_pairs(db: Database, pair: PairName | None = None, base: AssetName | None = None) -> list[PairInfo]:
    """Tradable asset pairs with their price precision (pair_decimals), volume precision (lot_decimals), minimum
    order volume (ordermin, in the base asset), minimum cost (costmin, in the quote asset) and trading status.

    Args:
        pair: One pair by name, altname or wsname, e.g. "XBTUSD" or "XBT/USD".
        base: Only pairs whose base asset is this, e.g. "SOL".
    """
    if pair is not None:
        return [pair_info(db, rules.pair(db, pair))]
    if base is not None:
        return [pair_info(db, row) for row in db.find(asset_pairs, base=rules.asset(db, base)["asset"])]
    return [pair_info(db, row) for row in db.find(asset_pairs)]


@tool(read_only=True)
def get_ticker(db: Database, pair: PairName) -> Ticker:
    """The last trade price of an asset pair, in its quote asset.

    Args:
        pair: The pair, e.g. "ETHEUR".
    """
    row = rules.pair(db, pair)
    return Ticker(pair=row["altname"], last=rules.fmt(row["last"], row["pair_decimals"]))


# ---------------------------------------------------------------- balances and ledger


@tool(read_only=True)
def get_balance(db: Database) -> list[AssetBalance]:
    """The account's balance of every asset it holds, with what open orders hold (hold_trade) and what is
    available to trade or withdraw."""
    me = rules.me(db)
    out = []
    for row in db.find(balances, account_id=me):
        d = decimals(db, row["asset"])
        hold = rules.held(db, me, row["asset"])
        out.append(
            AssetBalance(
                asset=row["asset"],
                balance=rules.fmt(row["amount"], d),
                hold_trade=rules.fmt(hold, d),
                available=rules.fmt(row["amount"] - hold, d),
            )
        )
    return out


@tool(read_only=True)
def get_ledgers(
    db: Database,
    asset: AssetName | None = None,
    type: Literal["all", "trade", "deposit", "withdrawal", "staking", "adjustment"] = "all",
    start: IsoTimestamp | None = None,
    end: IsoTimestamp | None = None,
    ofs: Offset = 0,
) -> Ledgers:
    """Ledger entries, newest first, 50 at a time from offset `ofs`; `count` is how many match in all.

    Args:
        asset: Only this asset, e.g. "USD".
        type: Only this kind of entry.
        start: Entries after this time (ISO 8601).
        end: Entries up to this time (ISO 8601).
        ofs: How many matching entries to skip.
    """
    where, params = ["account_id = ?"], [rules.me(db)]
    if asset is not None:
        where.append("asset = ?")
        params.append(rules.asset(db, asset)["asset"])
    if type != "all":
        where.append("type = ?")
        params.append(type)
    if start is not None:
        where.append("time > ?")
        params.append(_stamp(start, "start"))
    if end is not None:
        where.append("time <= ?")
        params.append(_stamp(end, "end"))
    rows = db.select(ledger, " AND ".join(where), params, order_by="time DESC")
    return Ledgers(count=len(rows), ledger=[ledger_entry(db, row) for row in rows[ofs : ofs + PAGE]])


def _stamp(value: str, name: str) -> str:
    try:
        return parse_timestamp(value, name).strftime("%Y-%m-%dT%H:%M:%SZ")
    except InvalidRequest:
        raise InvalidRequest(f"EGeneral:Invalid arguments:{name}") from None


# ---------------------------------------------------------------- orders


@tool()
def add_order(
    db: Database,
    pair: PairName,
    type: Literal["buy", "sell"],
    ordertype: Literal["market", "limit", "stop-loss"],
    volume: Decimal,
    price: Decimal | None = None,
    userref: UserRef | None = None,
    post_only: bool = False,
    validate: bool = False,
) -> AddOrderResult:
    """Place a spot order. Market orders and limit orders at or through the last price fill at once at the last
    price with the taker fee; other limit orders and stop-loss orders stay open and hold funds (a buy holds its
    cost plus the taker fee in the quote asset, a sell its volume in the base asset). A stop-loss sell triggers
    below the last price, a stop-loss buy above it. Volume must meet the pair's ordermin and lot_decimals, price
    its pair_decimals, volume times price its costmin. `validate` checks everything and places nothing.

    Args:
        pair: The pair, e.g. "XBTUSD".
        type: buy or sell.
        ordertype: market, limit, or stop-loss.
        volume: Order volume in the base asset, e.g. "0.0125".
        price: The limit price, or the stop-loss trigger price, in the quote asset.
        userref: Your own number to tag the order (and find or cancel it later).
        post_only: Limit orders only: cancel rather than take liquidity.
        validate: Only check the order; place nothing.
    """
    traded = rules.pair(db, pair)
    me = rules.me(db)
    size = rules.units(volume, traded["lot_decimals"], "EGeneral:Invalid arguments:volume")
    limit = None
    if price is not None and ordertype != "market":
        limit = rules.units(
            price,
            traded["pair_decimals"],
            f"EOrder:Invalid price:{traded['pair']} price can only be specified up to "
            f"{traded['pair_decimals']} decimals.",
        )
    if post_only and ordertype != "limit":
        raise InvalidRequest("EGeneral:Invalid arguments:oflags (post only is for limit orders)")
    rules.check_order(db, me, traded, type, ordertype, size, limit)
    row = dict(
        account_id=me,
        pair=traded["pair"],
        type=type,
        ordertype=ordertype,
        price=limit,
        volume=size,
        vol_exec=0,
        cost=0,
        fee=0,
        avg_price=None,
        status="pending",
        userref=userref,
        opentm=db.now_iso(),
        closetm=None,
        reason=None,
    )
    if validate:
        return AddOrderResult(descr=descr(db, row), txid=[], validated=True)
    order = db.insert(orders, txid=rules.txid(db, "O", "orders"), **row)
    rules.fill(db, order, traded, post_only)
    return AddOrderResult(descr=descr(db, order), txid=[order["txid"]], validated=False)


@tool()
def amend_order(db: Database, txid: OrderId, volume: Decimal | None = None, price: Decimal | None = None) -> OrderInfo:
    """Change the volume or the limit / trigger price of an open limit or stop-loss order in place (it keeps its
    txid and userref); the new values meet the same precision, minimums and funds checks as a new order. A limit
    price moved through the last price fills the order.

    Args:
        txid: The open order's id.
        volume: The new total volume.
        price: The new limit or trigger price.
    """
    order = rules.own_order(db, txid)
    if order["status"] != "open":
        raise Conflict("EOrder:Unknown order (only open orders can be amended)")
    if volume is None and price is None:
        raise InvalidRequest("EGeneral:Invalid arguments (give a new volume or price)")
    traded = db.get(asset_pairs, order["pair"])
    size = rules.units(volume, traded["lot_decimals"], "EGeneral:Invalid arguments:volume") if volume else None
    limit = (
        rules.units(
            price,
            traded["pair_decimals"],
            f"EOrder:Invalid price:{traded['pair']} price can only be specified up to "
            f"{traded['pair_decimals']} decimals.",
        )
        if price
        else None
    )
    new_size = size if size is not None else order["volume"]
    new_price = limit if limit is not None else order["price"]
    db.update(orders, order["txid"], status="amending")  # release its own hold while checking
    try:
        rules.check_order(db, order["account_id"], traded, order["type"], order["ordertype"], new_size, new_price)
    finally:
        db.update(orders, order["txid"], status="open")
    amended = db.update(orders, order["txid"], volume=new_size, price=new_price)
    return order_info(db, rules.fill(db, amended, traded, False))


@tool()
def cancel_order(db: Database, txid: OrderId | None = None, userref: UserRef | None = None) -> CancelResult:
    """Cancel an open order by its txid, or every open order tagged with a userref.

    Args:
        txid: The order's id.
        userref: Cancel all open orders with this userref instead.
    """
    if (txid is None) == (userref is None):
        raise InvalidRequest("EGeneral:Invalid arguments (give txid or userref)")
    if txid is not None:
        order = rules.own_order(db, txid)
        if order["status"] not in rules.HOLDING:
            raise Conflict("EOrder:Unknown order")
        targets = [order]
    else:
        targets = db.find(orders, account_id=rules.me(db), userref=userref, status="open")
        if not targets:
            raise Conflict("EOrder:Unknown order")
    for order in targets:
        db.update(orders, order["txid"], status="canceled", closetm=db.now_iso(), reason="User requested")
    return CancelResult(count=len(targets), txid=[order["txid"] for order in targets])


@tool()
def cancel_all_orders(db: Database) -> CancelResult:
    """Cancel every open order of the account."""
    targets = db.find(orders, account_id=rules.me(db), status="open")
    for order in targets:
        db.update(orders, order["txid"], status="canceled", closetm=db.now_iso(), reason="User requested")
    return CancelResult(count=len(targets), txid=[order["txid"] for order in targets])


@tool(read_only=True)
def get_open_orders(db: Database, userref: UserRef | None = None) -> list[OrderInfo]:
    """The account's open orders, oldest first.

    Args:
        userref: Only orders with this userref.
    """
    found = db.find(orders, account_id=rules.me(db), status="open", order_by=[orders.c.opentm])
    return [order_info(db, row) for row in found if userref is None or row["userref"] == userref]


@tool(read_only=True)
def get_closed_orders(
    db: Database,
    userref: UserRef | None = None,
    start: IsoTimestamp | None = None,
    end: IsoTimestamp | None = None,
    ofs: Offset = 0,
) -> ClosedOrders:
    """The account's closed, canceled and expired orders, newest first, 50 at a time from offset `ofs`.

    Args:
        userref: Only orders with this userref.
        start: Orders closed after this time (ISO 8601).
        end: Orders closed up to this time (ISO 8601).
        ofs: How many matching orders to skip.
    """
    where, params = ["account_id = ? AND status IN ('closed', 'canceled', 'expired')"], [rules.me(db)]
    if userref is not None:
        where.append("userref = ?")
        params.append(userref)
    if start is not None:
        where.append("closetm > ?")
        params.append(_stamp(start, "start"))
    if end is not None:
        where.append("closetm <= ?")
        params.append(_stamp(end, "end"))
    rows = db.select(orders, " AND ".join(where), params, order_by="closetm DESC")
    return ClosedOrders(count=len(rows), closed=[order_info(db, row) for row in rows[ofs : ofs + PAGE]])


@tool(read_only=True)
def query_orders(db: Database, txid: Annotated[list[OrderId], Field(min_length=1, max_length=50)]) -> list[OrderInfo]:
    """Orders by txid (up to 50), whatever their status.

    Args:
        txid: The order ids.
    """
    return [order_info(db, rules.own_order(db, one)) for one in txid]


# ---------------------------------------------------------------- deposits


@tool(read_only=True)
def get_deposit_methods(db: Database, asset: AssetName) -> list[DepositMethod]:
    """How an asset can be deposited: each method's minimum, fee and whether it gives addresses.

    Args:
        asset: The asset, e.g. "XBT".
    """
    found = rules.asset(db, asset)
    d = found["display_decimals"]
    return [
        DepositMethod(
            asset=row["asset"],
            method=row["method"],
            minimum=rules.fmt(row["minimum"], d),
            fee=rules.fmt(row["fee"], d),
            gen_address=row["gen_address"],
        )
        for row in db.find(deposit_methods, asset=found["asset"])
    ]


@tool()
def get_deposit_addresses(db: Database, asset: AssetName, method: text(60), new: bool = False) -> list[DepositAddress]:
    """The account's deposit addresses for an asset and method, newest first; `new` generates a fresh one first.

    Args:
        asset: The asset, e.g. "ETH".
        method: The deposit method, as get_deposit_methods names it, e.g. "Ether".
        new: Generate a new address.
    """
    found = rules.asset(db, asset)
    chosen = db.find_one(
        deposit_methods, asset=found["asset"], method=method.strip(), not_found="EFunding:Invalid method"
    )
    me = rules.me(db)
    if new:
        if not chosen["gen_address"]:
            raise InvalidRequest("EFunding:Invalid method (this method gives no addresses)")
        number = db.next_number(f"address:{found['asset']}", deposit_addresses)
        db.insert(
            deposit_addresses,
            id=f"dep{number:05d}",
            account_id=me,
            asset=found["asset"],
            method=chosen["method"],
            address=rules.txid(db, "kr", f"addr:{found['asset']}").replace("-", "").lower(),
            created=db.now_iso(),
        )
    rows = db.select(
        deposit_addresses,
        "account_id = ? AND asset = ? AND method = ?",
        (me, found["asset"], chosen["method"]),
        order_by="created DESC",
    )
    now = db.now_iso()
    return [
        DepositAddress(
            asset=r["asset"],
            method=r["method"],
            address=r["address"],
            created=r["created"],
            new=new and r["created"] == now,
        )
        for r in rows
    ]


@tool(read_only=True)
def get_deposit_status(db: Database, asset: AssetName | None = None) -> list[DepositRecord]:
    """The account's deposits, newest first, with their status (Initial, Pending, Settled, Success, Failure).

    Args:
        asset: Only deposits of this asset.
    """
    me = rules.me(db)
    rows = (
        db.select(deposits, "account_id = ? AND asset = ?", (me, rules.asset(db, asset)["asset"]), order_by="time DESC")
        if asset is not None
        else db.select(deposits, "account_id = ?", (me,), order_by="time DESC")
    )
    return [
        DepositRecord(
            **{k: r[k] for k in ("refid", "asset", "method", "txid", "time", "status")},
            amount=rules.fmt(r["amount"], decimals(db, r["asset"])),
            fee=rules.fmt(r["fee"], decimals(db, r["asset"])),
        )
        for r in rows
    ]


# ---------------------------------------------------------------- withdrawals


@tool(read_only=True)
def get_withdrawal_methods(db: Database, asset: AssetName | None = None) -> list[WithdrawMethod]:
    """Withdrawal methods with their network, minimum, fee and what is left of the rolling 24-hour limit.

    Args:
        asset: Only this asset's methods.
    """
    rows = db.find(withdraw_methods, asset=rules.asset(db, asset)["asset"]) if asset else db.find(withdraw_methods)
    me = rules.me(db)
    return [
        WithdrawMethod(
            asset=r["asset"],
            method=r["method"],
            network=r["network"],
            minimum=rules.fmt(r["minimum"], decimals(db, r["asset"])),
            fee=rules.fmt(r["fee"], decimals(db, r["asset"])),
            limit_left=rules.fmt(rules.limit_left(db, me, r), decimals(db, r["asset"])),
        )
        for r in rows
    ]


@tool(read_only=True)
def get_withdrawal_addresses(
    db: Database, asset: AssetName | None = None, key: text(60) | None = None, verified: bool | None = None
) -> list[WithdrawAddress]:
    """The account's withdrawal address book: each saved key with its asset, method, address and whether it was
    verified from the e-mail link (only verified keys can be withdrawn to).

    Args:
        asset: Only this asset's addresses.
        key: Only the address saved under this key.
        verified: Only verified (true) or unverified (false) addresses.
    """
    rows = db.find(withdraw_addresses, account_id=rules.me(db))
    wanted = rules.asset(db, asset)["asset"] if asset else None
    return [
        WithdrawAddress(
            key=r["key"], asset=r["asset"], method=r["method"], address=r["address"], verified=r["verified"]
        )
        for r in rows
        if (wanted is None or r["asset"] == wanted)
        and (key is None or r["key"] == key.strip())
        and (verified is None or r["verified"] == verified)
    ]


def _key(db: Database, asset: str, key: str) -> tuple[dict, dict]:
    found = rules.asset(db, asset)
    address = db.find_one(
        withdraw_addresses,
        account_id=rules.me(db),
        asset=found["asset"],
        key=key.strip(),
        not_found="EFunding:Unknown withdraw key",
    )
    return address, rules.withdraw_method(db, found["asset"], address["method"])


@tool(read_only=True)
def get_withdrawal_info(db: Database, asset: AssetName, key: text(60), amount: Decimal) -> WithdrawInfo:
    """What a withdrawal to a saved key would cost: the method, the fee, the amount that arrives (amount less the
    fee) and the 24-hour limit left.

    Args:
        asset: The asset, e.g. "XBT".
        key: The withdrawal key (address book name).
        amount: The amount to withdraw, fee included.
    """
    address, method = _key(db, asset, key)
    d = decimals(db, method["asset"])
    size = rules.units(amount, d, "EFunding:Invalid amount")
    if size <= method["fee"]:
        raise InvalidRequest("EFunding:Invalid amount")
    return WithdrawInfo(
        method=method["method"],
        limit=rules.fmt(rules.limit_left(db, rules.me(db), method), d),
        amount=rules.fmt(size - method["fee"], d),
        fee=rules.fmt(method["fee"], d),
    )


@tool()
def withdraw_funds(db: Database, asset: AssetName, key: text(60), amount: Decimal) -> WithdrawRecord:
    """Withdraw to a verified saved key. `amount` includes the fee (what arrives is amount less fee); it must be at
    least the method's minimum, within the 24-hour limit left and the available balance. Starts as Initial.

    Args:
        asset: The asset, e.g. "ETH".
        key: The withdrawal key (address book name).
        amount: The amount to withdraw, fee included.
    """
    address, method = _key(db, asset, key)
    d = decimals(db, method["asset"])
    size = rules.units(amount, d, "EFunding:Invalid amount")
    me = rules.me(db)
    rules.check_withdrawal(db, me, method, address, size)
    refid = rules.txid(db, "A", "withdrawals")
    row = db.insert(
        withdrawals,
        refid=refid,
        account_id=me,
        asset=method["asset"],
        key=address["key"],
        method=method["method"],
        address=address["address"],
        amount=size - method["fee"],
        fee=method["fee"],
        time=db.now_iso(),
        status="Initial",
        status_prop=None,
    )
    rules.book(db, me, refid, "withdrawal", method["asset"], -(size - method["fee"]), method["fee"])
    return withdraw_record(db, row)


@tool(read_only=True)
def get_withdrawal_status(db: Database, asset: AssetName | None = None) -> list[WithdrawRecord]:
    """The account's withdrawals, newest first, with their status and status_prop (canceled, onhold...).

    Args:
        asset: Only withdrawals of this asset.
    """
    me = rules.me(db)
    rows = (
        db.select(
            withdrawals, "account_id = ? AND asset = ?", (me, rules.asset(db, asset)["asset"]), order_by="time DESC"
        )
        if asset is not None
        else db.select(withdrawals, "account_id = ?", (me,), order_by="time DESC")
    )
    return [withdraw_record(db, r) for r in rows]


@tool()
def cancel_withdrawal(db: Database, asset: AssetName, refid: text(40)) -> WithdrawRecord:
    """Cancel a withdrawal that is still Initial (not yet sent to the network); the amount and fee come back.

    Args:
        asset: The withdrawal's asset.
        refid: The withdrawal's reference id.
    """
    found = rules.asset(db, asset)
    row = db.find_one(
        withdrawals,
        refid=refid.strip(),
        account_id=rules.me(db),
        asset=found["asset"],
        not_found="EFunding:Unknown reference id",
    )
    if row["status"] != "Initial" or row["status_prop"] == "canceled":
        raise Conflict("EFunding:Withdrawal can no longer be canceled")
    rules.book(db, row["account_id"], row["refid"], "withdrawal", row["asset"], row["amount"] + row["fee"], 0)
    return withdraw_record(db, db.update(withdrawals, row["refid"], status="Failure", status_prop="canceled"))
