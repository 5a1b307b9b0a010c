"""The Schwab environment's tools: sign-in and hashValue access, valuation and buying power net of open orders,
order shapes per type/session/duration, price increments, stop sides, shares held by open sells, short-sale
eligibility, closing-only accounts, untradable instruments, fills versus WORKING/QUEUED by session, replace and
cancel transitions, history windows, and cash journals with the IRA rules; every error path leaves the state
unchanged. Runs the real tools on the real seed."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("schwab")
CLOCK = datetime(2026, 4, 14, 15, 30, tzinfo=timezone.utc)  # Tuesday 11:30 New York, regular session
PRE_MARKET = datetime(2026, 4, 15, 11, 45, tzinfo=timezone.utc)  # 07:45
AFTER_HOURS = datetime(2026, 4, 14, 21, 0, tzinfo=timezone.utc)  # 17:00
SATURDAY = datetime(2026, 4, 18, 16, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
HASH = {a["account_number"]: a["hash_value"] for a in SEED["accounts"]}
QUOTE = {q["symbol"]: q for q in SEED["quotes"]}
LAURA, ROTH, JOINT, ROLLOVER = "41327758", "41327922", "63018845", "72255103"
DAVE, DAVE_OLD = "52849136", "52850077"
PRIYA = "38806214"
LOGINS = {
    "laura": ("lmorales", "Sunflower!2026"),
    "david": ("dchen88", "Harbor#Light7"),
    "priya": ("priya.nair", "Mango-Tree-41"),
}

session = session_fixture(SPEC, CLOCK)


def sign_in(s: ToolSession, who: str = "laura") -> dict:
    login, password = LOGINS[who]
    return ok(s, "sign_in", {"login_id": login, "password": password}, caller="user")


def open_order(number: str, symbol: str) -> dict:
    return next(
        o
        for o in SEED["orders"]
        if o["account_number"] == number and o["symbol"] == symbol and o["status"] == "WORKING"
    )


def order(s: ToolSession, number: str, symbol: str, instruction: str, quantity: int, order_type: str, **extra) -> dict:
    args = {
        "account_hash": HASH[number],
        "symbol": symbol,
        "instruction": instruction,
        "quantity": quantity,
        "order_type": order_type,
    }
    return ok(s, "place_order", {**args, **extra})


def place_fails(s: ToolSession, number: str, kind: str, text: str, **args) -> None:
    fails(s, "place_order", {"account_hash": HASH[number], **args}, kind, text)


def account(s: ToolSession, number: str) -> dict:
    return ok(s, "get_account", {"account_hash": HASH[number], "include_positions": True})


def position(s: ToolSession, number: str, symbol: str) -> dict | None:
    return next((p for p in account(s, number)["positions"] if p["symbol"] == symbol), None)


# ---------------------------------------------------------------- interface and access


def test_tools_and_user_only_sign_in_and_journal(session):
    assert len(SPEC.tools) == 18
    assert sorted(t.name for t in SPEC.tools.values() if t.user_only) == ["journal_cash", "sign_in"]
    outcome = session.call("sign_in", {"login_id": "lmorales", "password": "Sunflower!2026"})
    assert not outcome.ok and outcome.error_kind == "user_only"


def test_every_account_call_needs_a_signed_in_client(session):
    fails(session, "get_account_numbers", {}, "PermissionDenied", "not signed in")
    fails(
        session,
        "sign_in",
        {"login_id": "lmorales", "password": "wrong"},
        "PermissionDenied",
        "incorrect",
        caller="user",
    )


def test_account_numbers_pair_plain_numbers_with_hash_values_of_the_login_only(session):
    sign_in(session)
    pairs = ok(session, "get_account_numbers")
    assert [p["account_number"] for p in pairs] == [LAURA, ROTH, JOINT, ROLLOVER]  # primary first
    assert all(p["hash_value"] == HASH[p["account_number"]] and len(p["hash_value"]) == 64 for p in pairs)


def test_plain_numbers_unknown_hashes_and_other_logins_accounts_are_refused(session):
    sign_in(session)
    fails(session, "get_account", {"account_hash": LAURA}, "InvalidRequest", "hashValue, not the plain number")
    fails(session, "get_account", {"account_hash": "ABC123"}, "NotFound", "Invalid account number")
    fails(session, "get_account", {"account_hash": HASH[DAVE]}, "PermissionDenied", "not linked")


# ---------------------------------------------------------------- valuation


def test_balances_value_positions_at_the_last_price_and_net_open_orders(session):
    sign_in(session)
    acct = account(session, LAURA)
    bal = acct["current_balances"]
    rows = [p for p in SEED["positions"] if p["account_number"] == LAURA]
    long_value = sum(p["long_quantity"] * QUOTE[p["symbol"]]["last_price"] for p in rows)
    short_value = sum(p["short_quantity"] * QUOTE[p["symbol"]]["last_price"] for p in rows)
    cash = next(a["cash_balance"] for a in SEED["accounts"] if a["account_number"] == LAURA)
    assert bal["long_market_value"] == pytest.approx(long_value, abs=0.01)
    assert bal["liquidation_value"] == pytest.approx(cash + long_value - short_value, abs=0.01)
    buys = [
        o
        for o in SEED["orders"]
        if o["account_number"] == LAURA and o["status"] == "WORKING" and o["instruction"] == "BUY"
    ]
    used = sum(o["quantity"] * o["price"] for o in buys)
    excess = cash + long_value - short_value - 0.5 * (long_value + short_value)
    assert bal["buying_power"] == pytest.approx(2 * excess - used, abs=0.02)
    assert bal["cash_available_for_trading"] == pytest.approx(cash - used, abs=0.01)


def test_cash_account_buying_power_is_its_cash_less_open_buys(session):
    sign_in(session, "priya")
    bal = account(session, PRIYA)["current_balances"]
    dis = open_order(PRIYA, "DIS")
    assert (
        bal["buying_power"]
        == bal["cash_available_for_trading"]
        == pytest.approx(3925.80 - dis["quantity"] * dis["price"])
    )


# ---------------------------------------------------------------- placing orders


def test_market_buy_fills_at_the_ask_and_moves_cash_position_and_history(session):
    sign_in(session)
    before = account(session, LAURA)
    placed = order(session, LAURA, "aapl", "BUY", 10, "MARKET")
    assert placed["order"]["status"] == "FILLED" and placed["order"]["filled_price"] == QUOTE["AAPL"]["ask_price"]
    assert placed["location"].endswith(f"/accounts/{HASH[LAURA]}/orders/{placed['order_id']}")
    after = account(session, LAURA)
    assert after["current_balances"]["cash_balance"] == pytest.approx(
        before["current_balances"]["cash_balance"] - 10 * QUOTE["AAPL"]["ask_price"]
    )
    assert position(session, LAURA, "AAPL")["long_quantity"] == 130
    trade = ok(session, "get_transactions", {"account_hash": HASH[LAURA], "types": ["TRADE"]})[0]
    assert trade["order_id"] == placed["order_id"] and trade["net_amount"] == pytest.approx(-2314.10)


def test_resting_limit_works_and_a_marketable_limit_fills(session):
    sign_in(session)
    resting = order(session, LAURA, "MSFT", "BUY", 2, "LIMIT", price=460.0)["order"]
    assert resting["status"] == "WORKING" and resting["cancelable"] and resting["remaining_quantity"] == 2
    filled = order(session, LAURA, "MSFT", "SELL", 2, "LIMIT", price=468.0)["order"]
    assert filled["status"] == "FILLED" and filled["filled_price"] == QUOTE["MSFT"]["bid_price"]


def test_order_shapes_refused_by_type_session_and_duration(session):
    sign_in(session)
    base = {"symbol": "AAPL", "instruction": "BUY", "quantity": 1}
    place_fails(session, LAURA, "InvalidRequest", "price is required", **base, order_type="LIMIT")
    place_fails(session, LAURA, "InvalidRequest", "price is not allowed", **base, order_type="MARKET", price=230.0)
    place_fails(session, LAURA, "InvalidRequest", "stopPrice is required", **base, order_type="STOP_LIMIT", price=240.0)
    place_fails(session, LAURA, "InvalidRequest", "must be LIMIT", **base, order_type="MARKET", session="AM")
    place_fails(
        session,
        LAURA,
        "InvalidRequest",
        "duration DAY",
        **base,
        order_type="LIMIT",
        price=230.0,
        session="PM",
        duration="GOOD_TILL_CANCEL",
    )
    place_fails(
        session,
        LAURA,
        "InvalidRequest",
        "MARKET orders must have duration DAY",
        **base,
        order_type="MARKET",
        duration="GOOD_TILL_CANCEL",
    )
    place_fails(session, LAURA, "InvalidRequest", "increments of $0.01", **base, order_type="LIMIT", price=230.005)
    place_fails(
        session,
        LAURA,
        "InvalidRequest",
        "FILL_OR_KILL is only available",
        **base,
        order_type="STOP",
        stop_price=240.0,
        duration="FILL_OR_KILL",
    )


def test_stop_prices_must_sit_on_the_right_side_of_the_market(session):
    sign_in(session)
    place_fails(
        session,
        LAURA,
        "InvalidRequest",
        "buy stop must be above",
        symbol="AAPL",
        instruction="BUY",
        quantity=1,
        order_type="STOP",
        stop_price=220.0,
    )
    place_fails(
        session,
        LAURA,
        "InvalidRequest",
        "sell stop must be below",
        symbol="AAPL",
        instruction="SELL",
        quantity=1,
        order_type="STOP",
        stop_price=240.0,
    )
    assert order(session, LAURA, "AAPL", "SELL", 1, "STOP", stop_price=220.0)["order"]["status"] == "WORKING"


def test_sells_cannot_use_shares_held_by_open_sells(session):
    sign_in(session)
    # 60 NVDA, 30 held by the working stop
    place_fails(
        session,
        LAURA,
        "InvalidRequest",
        "30 shares of NVDA available",
        symbol="NVDA",
        instruction="SELL",
        quantity=31,
        order_type="MARKET",
    )
    place_fails(
        session,
        LAURA,
        "InvalidRequest",
        "0 shares of TSLA",
        symbol="TSLA",
        instruction="SELL",
        quantity=1,
        order_type="MARKET",
    )
    assert order(session, LAURA, "NVDA", "SELL", 30, "MARKET")["order"]["status"] == "FILLED"


def test_short_sales_need_margin_a_shortable_symbol_and_no_long_position(session):
    sign_in(session)
    place_fails(
        session,
        ROTH,
        "InvalidRequest",
        "not allowed in a cash account",
        symbol="QQQ",
        instruction="SELL_SHORT",
        quantity=1,
        order_type="MARKET",
    )
    place_fails(
        session,
        LAURA,
        "InvalidRequest",
        "not available to borrow",
        symbol="GME",
        instruction="SELL_SHORT",
        quantity=1,
        order_type="MARKET",
    )
    place_fails(
        session,
        LAURA,
        "InvalidRequest",
        "holds a long position",
        symbol="AAPL",
        instruction="SELL_SHORT",
        quantity=1,
        order_type="MARKET",
    )
    filled = order(session, LAURA, "QQQ", "SELL_SHORT", 2, "MARKET")["order"]
    assert (
        filled["filled_price"] == QUOTE["QQQ"]["bid_price"] and position(session, LAURA, "QQQ")["short_quantity"] == 2
    )


def test_covering_is_limited_to_the_short_not_already_being_covered(session):
    sign_in(session)
    place_fails(
        session,
        LAURA,
        "InvalidRequest",
        "0 shares of RIVN short",
        symbol="RIVN",
        instruction="BUY_TO_COVER",
        quantity=1,
        order_type="MARKET",
    )


def test_buys_beyond_the_buying_power_left_are_refused(session):
    sign_in(session, "priya")
    place_fails(
        session,
        PRIYA,
        "InvalidRequest",
        "Insufficient cash available for trading",
        symbol="VOO",
        instruction="BUY",
        quantity=10,
        order_type="MARKET",
    )
    sign_in(session, "laura")
    place_fails(
        session,
        LAURA,
        "InvalidRequest",
        "Insufficient buying power",
        symbol="NFLX",
        instruction="BUY",
        quantity=200,
        order_type="MARKET",
    )


def test_closing_only_accounts_may_sell_but_not_open(session):
    sign_in(session, "david")
    place_fails(
        session,
        DAVE_OLD,
        "InvalidRequest",
        "closing transactions only",
        symbol="F",
        instruction="BUY",
        quantity=1,
        order_type="MARKET",
    )
    assert order(session, DAVE_OLD, "F", "SELL", 10, "MARKET")["order"]["status"] == "FILLED"


def test_mutual_funds_halted_and_unknown_symbols_cannot_be_traded(session):
    sign_in(session)
    place_fails(
        session,
        ROLLOVER,
        "InvalidRequest",
        "mutual fund",
        symbol="SWPPX",
        instruction="SELL",
        quantity=1,
        order_type="MARKET",
    )
    place_fails(
        session, LAURA, "InvalidRequest", "halted", symbol="CRSP", instruction="BUY", quantity=1, order_type="MARKET"
    )
    place_fails(
        session,
        LAURA,
        "NotFound",
        "Symbol not found",
        symbol="ZZZZ",
        instruction="BUY",
        quantity=1,
        order_type="MARKET",
    )


def test_preview_applies_the_rules_and_changes_nothing(session):
    sign_in(session)
    before = session.dump()
    preview = ok(
        session,
        "preview_order",
        {"account_hash": HASH[LAURA], "symbol": "MSFT", "instruction": "BUY", "quantity": 10, "order_type": "MARKET"},
    )
    assert preview["projected_status"] == "FILLED" and preview["order_value"] == pytest.approx(
        10 * QUOTE["MSFT"]["ask_price"]
    )
    assert preview["buying_power_after"] == pytest.approx(preview["buying_power_before"] - preview["order_value"])
    assert session.dump() == before
    fails(
        session,
        "preview_order",
        {
            "account_hash": HASH[LAURA],
            "symbol": "GME",
            "instruction": "SELL_SHORT",
            "quantity": 1,
            "order_type": "MARKET",
        },
        "InvalidRequest",
        "borrow",
    )


# ---------------------------------------------------------------- sessions


def test_pre_market_takes_am_limits_and_queues_normal_orders(session):
    session.reset("seed", PRE_MARKET)
    sign_in(session)
    assert order(session, LAURA, "NVDA", "BUY", 5, "LIMIT", price=143.0, session="AM")["order"]["status"] == "FILLED"
    assert order(session, LAURA, "AMZN", "BUY", 1, "MARKET")["order"]["status"] == "QUEUED"
    fails(
        session,
        "place_order",
        {
            "account_hash": HASH[LAURA],
            "symbol": "AMZN",
            "instruction": "BUY",
            "quantity": 1,
            "order_type": "LIMIT",
            "price": 215.0,
            "duration": "FILL_OR_KILL",
        },
        "InvalidRequest",
        "FILL_OR_KILL",
    )


def test_after_hours_pm_and_seamless_trade_but_normal_waits(session):
    session.reset("seed", AFTER_HOURS)
    sign_in(session, "david")
    assert order(session, DAVE, "PLTR", "SELL", 5, "LIMIT", price=94.3, session="PM")["order"]["status"] == "FILLED"
    assert (
        order(session, DAVE, "UBER", "BUY", 1, "LIMIT", price=79.35, session="SEAMLESS")["order"]["status"] == "FILLED"
    )
    assert order(session, DAVE, "UBER", "BUY", 1, "LIMIT", price=79.35)["order"]["status"] == "QUEUED"


def test_weekends_and_holidays_are_closed(session):
    session.reset("seed", SATURDAY)
    sign_in(session)
    assert ok(session, "get_market_hours")["is_open"] is False
    good_friday = ok(session, "get_market_hours", {"date": "2026-04-03"})
    assert good_friday["holiday"] == "Good Friday" and not good_friday["is_open"]
    assert ok(session, "get_market_hours", {"date": "2026-04-20"})["regular_market"] == {
        "start": "09:30",
        "end": "16:00",
    }
    assert (
        order(session, LAURA, "VTI", "BUY", 1, "LIMIT", price=295.0, duration="GOOD_TILL_CANCEL")["order"]["status"]
        == "QUEUED"
    )


# ---------------------------------------------------------------- replace and cancel


def test_replace_makes_a_new_order_and_marks_the_original_replaced(session):
    sign_in(session)
    old = open_order(LAURA, "AAPL")
    new = ok(
        session,
        "replace_order",
        {
            "account_hash": HASH[LAURA],
            "order_id": old["order_id"],
            "order_type": "LIMIT",
            "quantity": 40,
            "price": 240.0,
            "duration": "GOOD_TILL_CANCEL",
        },
    )
    assert new["order_id"] != old["order_id"] and new["order"]["replaces_order_id"] == old["order_id"]
    original = ok(session, "get_order", {"account_hash": HASH[LAURA], "order_id": old["order_id"]})
    assert (
        original["status"] == "REPLACED"
        and original["replaced_by_order_id"] == new["order_id"]
        and not original["editable"]
    )
    fails(
        session,
        "cancel_order",
        {"account_hash": HASH[LAURA], "order_id": old["order_id"]},
        "Conflict",
        "its status is REPLACED",
    )


def test_replacing_a_sell_may_reuse_its_own_shares_but_not_more(session):
    sign_in(session)
    stop = open_order(LAURA, "NVDA")  # 30 of 60 shares
    args = {
        "account_hash": HASH[LAURA],
        "order_id": stop["order_id"],
        "order_type": "STOP",
        "stop_price": 135.0,
        "duration": "GOOD_TILL_CANCEL",
    }
    fails(session, "replace_order", {**args, "quantity": 61}, "InvalidRequest", "60 shares of NVDA available")
    assert ok(session, "replace_order", {**args, "quantity": 60})["order"]["quantity"] == 60


def test_replace_counts_buying_power_without_the_original(session):
    sign_in(session, "david")
    roth = "52849318"
    schg = open_order(roth, "SCHG")
    args = {
        "account_hash": HASH[roth],
        "order_id": schg["order_id"],
        "order_type": "LIMIT",
        "price": 29.5,
        "duration": "GOOD_TILL_CANCEL",
    }
    fails(session, "replace_order", {**args, "quantity": 40}, "InvalidRequest", "cash available for trading")
    assert ok(session, "replace_order", {**args, "quantity": 30})["order"]["status"] == "FILLED"


def test_only_working_or_queued_orders_cancel(session):
    sign_in(session)
    cost = open_order(LAURA, "COST")
    canceled = ok(session, "cancel_order", {"account_hash": HASH[LAURA], "order_id": cost["order_id"]})
    assert canceled["status"] == "CANCELED" and not canceled["cancelable"]
    fails(session, "cancel_order", {"account_hash": HASH[LAURA], "order_id": cost["order_id"]}, "Conflict", "CANCELED")
    filled = next(o for o in SEED["orders"] if o["account_number"] == LAURA and o["status"] == "FILLED")
    fails(session, "cancel_order", {"account_hash": HASH[LAURA], "order_id": filled["order_id"]}, "Conflict", "FILLED")
    fails(
        session,
        "cancel_order",
        {"account_hash": HASH[LAURA], "order_id": open_order(ROTH, "VOO")["order_id"]},
        "NotFound",
        "Order not found",
    )


# ---------------------------------------------------------------- history


def test_order_and_transaction_windows(session):
    sign_in(session)
    fails(
        session,
        "get_all_orders",
        {"from_entered_time": "2026-01-01T00:00:00Z"},
        "InvalidRequest",
        "can not exceed 60 days",
    )
    year = ok(
        session, "get_orders_for_account", {"account_hash": HASH[LAURA], "from_entered_time": "2025-04-20T00:00:00Z"}
    )
    recent = ok(session, "get_orders_for_account", {"account_hash": HASH[LAURA]})
    assert len(year) > len(recent) > 0 and all(o["entered_time"] >= "2026-02-13" for o in recent)
    assert [o["entered_time"] for o in year] == sorted((o["entered_time"] for o in year), reverse=True)
    fails(
        session,
        "get_transactions",
        {"account_hash": HASH[LAURA], "start_date": "2025-01-01"},
        "InvalidRequest",
        "can not exceed 1 year",
    )
    divs = ok(
        session,
        "get_transactions",
        {"account_hash": HASH[LAURA], "start_date": "2026-01-01", "types": ["DIVIDEND_OR_INTEREST"]},
    )
    assert divs and {t["type"] for t in divs} == {"DIVIDEND_OR_INTEREST"}


# ---------------------------------------------------------------- journals


def test_journal_moves_cash_as_a_pair_of_journal_transactions(session):
    sign_in(session)
    rows = ok(
        session,
        "journal_cash",
        {"from_account_number": LAURA, "to_account_number": JOINT, "amount": 1000.0},
        caller="user",
    )
    assert [r["net_amount"] for r in rows] == [-1000.0, 1000.0] and {r["type"] for r in rows} == {"JOURNAL"}
    assert account(session, JOINT)["current_balances"]["cash_balance"] == pytest.approx(49210.0)


def test_journal_rules_ira_out_limit_and_cash_available(session):
    sign_in(session)
    journal = {"from_account_number": LAURA, "to_account_number": ROTH}
    fails(session, "journal_cash", {**journal, "amount": 2500.01}, "Conflict", "contribution limit", caller="user")
    fails(
        session,
        "journal_cash",
        {"from_account_number": ROTH, "to_account_number": LAURA, "amount": 10.0},
        "InvalidRequest",
        "out of an IRA",
        caller="user",
    )
    fails(
        session,
        "journal_cash",
        {"from_account_number": LAURA, "to_account_number": LAURA, "amount": 10.0},
        "InvalidRequest",
        "must be different",
        caller="user",
    )
    fails(
        session,
        "journal_cash",
        {"from_account_number": LAURA, "to_account_number": DAVE, "amount": 10.0},
        "InvalidRequest",
        "not linked",
        caller="user",
    )
    fails(
        session,
        "journal_cash",
        {"from_account_number": LAURA, "to_account_number": JOINT, "amount": 20000.0},
        "Conflict",
        "cash available for withdrawal",
        caller="user",
    )
    ok(session, "journal_cash", {**journal, "amount": 2500.0}, caller="user")
