"""What Kraken's tools return: balances, assets and pairs, ticker prices, orders, ledger entries, deposit and
withdrawal methods, addresses and records. Amounts are decimal strings like Kraken's."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from .rules import fmt
from .schema import asset_pairs, assets


class AssetBalance(BaseModel):
    asset: str
    balance: str
    hold_trade: str
    available: str


class AssetInfo(BaseModel):
    asset: str
    altname: str
    aclass: str
    display_decimals: int
    status: str


class PairInfo(BaseModel):
    pair: str
    altname: str
    wsname: str
    base: str
    quote: str
    pair_decimals: int
    lot_decimals: int
    ordermin: str
    costmin: str
    status: str


class Ticker(BaseModel):
    pair: str
    last: str


class OrderDescr(BaseModel):
    order: str


class AddOrderResult(BaseModel):
    descr: OrderDescr
    txid: list[str]
    validated: bool


class OrderInfo(BaseModel):
    txid: str
    pair: str
    type: str
    ordertype: str
    price: str | None
    volume: str
    vol_exec: str
    cost: str
    fee: str
    avg_price: str | None
    status: str
    userref: int | None
    opentm: str
    closetm: str | None
    reason: str | None
    descr: OrderDescr


class CancelResult(BaseModel):
    count: int
    txid: list[str]


class LedgerEntry(BaseModel):
    id: str
    refid: str
    time: str
    type: str
    asset: str
    amount: str
    fee: str
    balance: str


class DepositMethod(BaseModel):
    asset: str
    method: str
    minimum: str
    fee: str
    gen_address: bool


class DepositAddress(BaseModel):
    asset: str
    method: str
    address: str
    created: str
    new: bool


class DepositRecord(BaseModel):
    refid: str
    asset: str
    method: str
    txid: str
    amount: str
    fee: str
    time: str
    status: str


class WithdrawMethod(BaseModel):
    asset: str
    method: str
    network: str
    minimum: str
    fee: str
    limit_left: str


class WithdrawAddress(BaseModel):
    key: str
    asset: str
    method: str
    address: str
    verified: bool


class WithdrawInfo(BaseModel):
    method: str
    limit: str
    amount: str
    fee: str


class WithdrawRecord(BaseModel):
    refid: str
    asset: str
    key: str
    method: str
    address: str
    amount: str
    fee: str
    time: str
    status: str
    status_prop: str | None


def decimals(db: Database, asset_name: str) -> int:
    return int(db.get(assets, asset_name, "Asset")["display_decimals"])


def descr(db: Database, row: dict[str, Any]) -> OrderDescr:
    """Kraken's one-line order description, e.g. "buy 0.05000000 XBTUSD @ limit 61000.0"."""
    traded = db.get(asset_pairs, row["pair"], "Pair")
    head = f"{row['type']} {fmt(row['volume'], traded['lot_decimals'])} {traded['altname']} @ "
    if row["ordertype"] == "market":
        return OrderDescr(order=head + "market")
    return OrderDescr(order=head + f"{row['ordertype']} {fmt(row['price'], traded['pair_decimals'])}")


def order_info(db: Database, row: dict[str, Any]) -> OrderInfo:
    traded = db.get(asset_pairs, row["pair"], "Pair")
    pd, ld, qd = traded["pair_decimals"], traded["lot_decimals"], decimals(db, traded["quote"])
    return OrderInfo(
        txid=row["txid"],
        pair=traded["altname"],
        type=row["type"],
        ordertype=row["ordertype"],
        price=fmt(row["price"], pd) if row["price"] is not None else None,
        volume=fmt(row["volume"], ld),
        vol_exec=fmt(row["vol_exec"], ld),
        cost=fmt(row["cost"], qd),
        fee=fmt(row["fee"], qd),
        avg_price=fmt(row["avg_price"], pd) if row["avg_price"] is not None else None,
        status=row["status"],
        userref=row["userref"],
        opentm=row["opentm"],
        closetm=row["closetm"],
        reason=row["reason"],
        descr=descr(db, row),
    )


def pair_info(db: Database, row: dict[str, Any]) -> PairInfo:
    return PairInfo(
        pair=row["pair"],
        altname=row["altname"],
        wsname=row["wsname"],
        base=row["base"],
        quote=row["quote"],
        pair_decimals=row["pair_decimals"],
        lot_decimals=row["lot_decimals"],
        ordermin=fmt(row["ordermin"], row["lot_decimals"]),
        costmin=fmt(row["costmin"], decimals(db, row["quote"])),
        status=row["status"],
    )


def ledger_entry(db: Database, row: dict[str, Any]) -> LedgerEntry:
    d = decimals(db, row["asset"])
    return LedgerEntry(
        id=row["id"],
        refid=row["refid"],
        time=row["time"],
        type=row["type"],
        asset=row["asset"],
        amount=fmt(row["amount"], d),
        fee=fmt(row["fee"], d),
        balance=fmt(row["balance"], d),
    )


def withdraw_record(db: Database, row: dict[str, Any]) -> WithdrawRecord:
    d = decimals(db, row["asset"])
    return WithdrawRecord(
        refid=row["refid"],
        asset=row["asset"],
        key=row["key"],
        method=row["method"],
        address=row["address"],
        amount=fmt(row["amount"], d),
        fee=fmt(row["fee"], d),
        time=row["time"],
        status=row["status"],
        status_prop=row["status_prop"],
    )
