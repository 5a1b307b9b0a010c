"""Kraken's spot rules, each with a test that can fail: pair minimums and precision, market status, funds held by
open orders, immediate fills at the taker fee with ledger entries, validate-only orders, userref cancels, amends,
stop-loss sides, post-only, and withdrawals to verified keys within minimum, fee, 24-hour limit and balance."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("kraken")
MORNING = datetime(2026, 6, 15, 10, 0, tzinfo=timezone.utc)
XBT_DIP, ETH_SELL, ADA_BUY = "OZFVCN-FCFO5-ITC7UM", "O6SVLX-23FY3-7JNHSP", "OQ4OJT-OSV3R-3KD7HK"
ETH_WD, USD_WD = "A5XRWWZ-MBU53N-264B2", "A25NY7E-4R5OQ4-ZC5DY"

session = session_fixture(SPEC, MORNING)


def balance(session: ToolSession, asset: str) -> dict[str, Decimal]:
    row = next(b for b in ok(session, "get_balance") if b["asset"] == asset)
    return {k: Decimal(row[k]) for k in ("balance", "hold_trade", "available")}


def order(session: ToolSession, **args: Any) -> str:
    return ok(session, "add_order", args)["txid"][0]


def test_minimum_volume_cost_and_precision_are_refused(session):
    base = {"pair": "XBTUSD", "type": "buy", "ordertype": "limit"}
    fails(
        session,
        "add_order",
        {**base, "volume": "0.00005", "price": "60000"},
        "InvalidRequest",
        "EOrder:Order minimum not met",
    )
    fails(session, "add_order", {**base, "volume": "0.01", "price": "60000.55"}, "InvalidRequest", "up to 1 decimals")
    fails(
        session,
        "add_order",
        {**base, "volume": "0.000000001", "price": "60000"},
        "InvalidRequest",
        "Invalid arguments:volume",
    )
    fails(
        session,
        "add_order",
        {**base, "volume": "0.0001", "price": "10"},
        "InvalidRequest",
        "EOrder:Cost minimum not met",
    )
    fails(session, "add_order", {**base, "volume": "0.01"}, "InvalidRequest", "Invalid arguments:price")
    fails(
        session,
        "add_order",
        {**base, "pair": "DOGEUSD", "volume": "1", "price": "1"},
        "InvalidRequest",
        "EQuery:Unknown asset pair",
    )


def test_market_status_cancel_only_and_limit_only(session):
    market = {"type": "buy", "ordertype": "market"}
    fails(session, "add_order", {**market, "pair": "ADAEUR", "volume": "100"}, "Conflict", "cancel_only")
    fails(session, "add_order", {**market, "pair": "XRPUSD", "volume": "100"}, "Conflict", "limit_only")
    assert order(session, pair="XRPUSD", type="buy", ordertype="limit", volume="100", price="0.5")
    ok(session, "cancel_order", {"txid": "O5VGAU-4JAT6-JL4EXR"})  # cancel still works on a cancel_only market


def test_open_orders_hold_funds_and_insufficient_funds_is_refused(session):
    usd = balance(session, "ZUSD")
    assert usd["hold_trade"] > 0 and usd["available"] == usd["balance"] - usd["hold_trade"]
    eth = balance(session, "XETH")
    assert eth["hold_trade"] == Decimal("1.5")
    fails(
        session,
        "add_order",
        {"pair": "ETHUSD", "type": "sell", "ordertype": "market", "volume": "0.5"},
        "Conflict",
        "EOrder:Insufficient funds",
    )
    ok(session, "cancel_order", {"txid": ETH_SELL})
    assert balance(session, "XETH")["hold_trade"] == 0
    assert order(session, pair="ETHUSD", type="sell", ordertype="market", volume="0.5")


def test_market_order_fills_at_last_with_taker_fee_and_ledger(session):
    before = balance(session, "ZUSD")["balance"]
    txid = order(session, pair="SOLUSD", type="buy", ordertype="market", volume="10")
    filled = ok(session, "query_orders", {"txid": [txid]})[0]
    assert filled["status"] == "closed" and filled["avg_price"] == "142.37"
    assert Decimal(filled["cost"]) == Decimal("1423.70") and Decimal(filled["fee"]) == Decimal("5.69")  # 0.40 %
    assert balance(session, "ZUSD")["balance"] == before - Decimal("1429.39")
    entries = ok(session, "get_ledgers", {"type": "trade", "start": "2026-06-15T09:00:00Z"})["ledger"]
    assert {e["asset"] for e in entries} == {"SOL", "ZUSD"}


def test_validate_places_nothing(session):
    before = session.dump()
    out = ok(
        session,
        "add_order",
        {"pair": "XBTUSD", "type": "buy", "ordertype": "market", "volume": "0.01", "validate": True},
    )
    assert out["txid"] == [] and out["validated"] and out["descr"]["order"] == "buy 0.01000000 XBTUSD @ market"
    assert session.dump() == before


def test_resting_limit_then_amend_and_cancel_by_userref(session):
    txid = order(session, pair="XBTUSD", type="buy", ordertype="limit", volume="0.02", price="58000", userref=99)
    assert ok(session, "query_orders", {"txid": [txid]})[0]["status"] == "open"
    amended = ok(session, "amend_order", {"txid": txid, "volume": "0.03"})
    assert amended["volume"] == "0.03000000" and amended["userref"] == 99
    assert ok(session, "cancel_order", {"userref": 99})["count"] == 1
    fails(session, "cancel_order", {"txid": txid}, "Conflict", "EOrder:Unknown order")
    fails(session, "amend_order", {"txid": txid, "price": "59000"}, "Conflict", "EOrder:Unknown order")


def test_amend_through_the_market_fills(session):
    ok(session, "amend_order", {"txid": XBT_DIP, "price": "65000"})
    assert ok(session, "query_orders", {"txid": [XBT_DIP]})[0]["status"] == "closed"


def test_stop_loss_must_sit_on_the_right_side_and_post_only_never_takes(session):
    args = {"pair": "ETHUSD", "type": "sell", "ordertype": "stop-loss", "volume": "0.1"}
    fails(session, "add_order", {**args, "price": "3200"}, "InvalidRequest", "Invalid arguments:price")
    assert order(session, **args, price="3000")
    taker = order(session, pair="SOLUSD", type="buy", ordertype="limit", volume="1", price="150", post_only=True)
    row = ok(session, "query_orders", {"txid": [taker]})[0]
    assert row["status"] == "canceled" and row["reason"] == "Post only order"


def test_withdrawal_needs_a_verified_known_key(session):
    fails(
        session,
        "withdraw_funds",
        {"asset": "SOL", "key": "phantom-new", "amount": "5"},
        "PermissionDenied",
        "Unverified",
    )
    fails(
        session,
        "withdraw_funds",
        {"asset": "SOL", "key": "nope", "amount": "5"},
        "NotFound",
        "EFunding:Unknown withdraw key",
    )
    fails(
        session,
        "withdraw_funds",
        {"asset": "XBT", "key": "phantom", "amount": "5"},
        "NotFound",
        "Unknown withdraw key",
    )


def test_withdrawal_fee_minimum_limit_and_balance(session):
    info = ok(session, "get_withdrawal_info", {"asset": "ETH", "key": "metamask-main", "amount": "0.5"})
    assert info == {"method": "Ether", "limit": "49.20000", "amount": "0.49750", "fee": "0.00250"}
    fails(
        session,
        "withdraw_funds",
        {"asset": "ETH", "key": "metamask-main", "amount": "0.001"},
        "InvalidRequest",
        "EFunding:Invalid amount",
    )
    fails(
        session,
        "withdraw_funds",
        {"asset": "USD", "key": "chase-checking", "amount": "9000"},
        "Conflict",
        "EFunding:Limit exceeded",
    )
    fails(
        session,
        "withdraw_funds",
        {"asset": "ETH", "key": "metamask-main", "amount": "1"},
        "Conflict",
        "EFunding:Insufficient funds",
    )
    before = balance(session, "ZUSD")["balance"]
    sent = ok(session, "withdraw_funds", {"asset": "USD", "key": "chase-checking", "amount": "6000"})
    assert sent["status"] == "Initial" and sent["amount"] == "5996.00" and sent["fee"] == "4.00"
    assert balance(session, "ZUSD")["balance"] == before - 6000


def test_only_initial_withdrawals_can_be_canceled_and_refund(session):
    before = balance(session, "XETH")["balance"]
    out = ok(session, "cancel_withdrawal", {"asset": "ETH", "refid": ETH_WD})
    assert out["status_prop"] == "canceled"
    assert balance(session, "XETH")["balance"] == before + Decimal("0.8")
    fails(session, "cancel_withdrawal", {"asset": "ETH", "refid": ETH_WD}, "Conflict", "can no longer be canceled")
    fails(session, "cancel_withdrawal", {"asset": "USD", "refid": USD_WD}, "Conflict", "can no longer be canceled")
    fails(
        session,
        "cancel_withdrawal",
        {"asset": "USD", "refid": "AXXXXXX-XXXXXX-XXXXX"},
        "NotFound",
        "Unknown reference id",
    )


def test_accounts_are_isolated_and_sign_in_switches(session):
    fails(session, "query_orders", {"txid": ["O7SX6E-QUXYO-E2SFPC"]}, "NotFound", "EOrder:Unknown order")
    fails(session, "sign_in", {"api_key": "wrong"}, "PermissionDenied", "EAPI:Invalid key", caller="user")
    me = ok(session, "sign_in", {"api_key": "kQ7v+DEV-77b2e0"}, caller="user")
    assert me["name"] == "Dev Raman"
    assert [o["txid"] for o in ok(session, "get_open_orders")] == ["O7SX6E-QUXYO-E2SFPC"]
    assert session.call("sign_in", {"api_key": "kQ7v+DEV-77b2e0"}, caller="agent").error_kind == "user_only"


def test_new_deposit_address_only_where_the_method_gives_one(session):
    before = len(ok(session, "get_deposit_addresses", {"asset": "XBT", "method": "Bitcoin"}))
    fresh = ok(session, "get_deposit_addresses", {"asset": "XBT", "method": "Bitcoin", "new": True})
    assert len(fresh) == before + 1 and fresh[0]["new"]
    fails(
        session,
        "get_deposit_addresses",
        {"asset": "USD", "method": "Bank Wire (Fedwire)", "new": True},
        "InvalidRequest",
        "EFunding:Invalid method",
    )
