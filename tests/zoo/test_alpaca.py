"""The Alpaca environment's tools: fills against the price table, buying power, available quantity, short-sale
eligibility, fractional and extended-hours limits, pattern day trading protection, replace/cancel transitions,
market sessions from the calendar, activities, watchlists and configurations; every error path leaves the state
unchanged. Runs the real tools on the real seed."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("alpaca")
CLOCK = datetime(2025, 6, 18, 15, 0, tzinfo=timezone.utc)  # Wednesday 11:00 in New York, market open
AFTER_HOURS = datetime(2025, 6, 18, 21, 30, tzinfo=timezone.utc)  # 17:30, after-hours session
HOLIDAY = datetime(2025, 6, 19, 14, 0, tzinfo=timezone.utc)  # Juneteenth, market closed
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
OPEN = ("new", "accepted", "partially_filled")
PRICES = {p["symbol"]: p for p in SEED["prices"]}
CASH = SEED["accounts"][0]["cash"]

session = session_fixture(SPEC, CLOCK)


def open_order(symbol: str) -> dict:
    return next(o for o in SEED["orders"] if o["symbol"] == symbol and o["status"] in OPEN)


def watchlist(name: str) -> str:
    return next(w["id"] for w in SEED["watchlists"] if w["name"] == name)


def order(session: ToolSession, symbol: str, side: str, **extra) -> dict:
    return ok(session, "submit_order", {"symbol": symbol, "side": side, **extra})


def position(session: ToolSession, symbol: str) -> dict | None:
    return next((p for p in ok(session, "list_positions") if p["symbol"] == symbol), None)


def account(session: ToolSession) -> dict:
    return ok(session, "get_account")


def at(session: ToolSession, moment: datetime) -> None:
    session.reset("seed", moment)


# ---------------------------------------------------------------- interface


def test_tools_and_the_dashboard_deposit_is_user_only(session):
    assert len(SPEC.tools) == 21
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["deposit_funds"]
    assert {"get_account", "get_clock", "list_positions"} <= {t.name for t in SPEC.agent_tools if not t.required_inputs}
    outcome = session.call("deposit_funds", {"amount": 100})
    assert not outcome.ok and outcome.error_kind == "user_only"


# ---------------------------------------------------------------- account valuation


def test_account_values_positions_at_the_last_trade_and_nets_open_orders_from_buying_power(session):
    acct = account(session)
    long_value = sum(p["qty"] * PRICES[p["symbol"]]["last_price"] for p in SEED["positions"] if p["qty"] > 0)
    short_value = sum(p["qty"] * PRICES[p["symbol"]]["last_price"] for p in SEED["positions"] if p["qty"] < 0)
    assert float(acct["long_market_value"]) == pytest.approx(long_value, abs=0.01)
    assert float(acct["short_market_value"]) == pytest.approx(short_value, abs=0.01)
    assert float(acct["equity"]) == pytest.approx(CASH + long_value + short_value, abs=0.01)
    assert float(acct["equity"]) < 25_000 and acct["daytrade_count"] == 3 and acct["multiplier"] == "2"
    reserved = sum(
        (o["qty"] - o["filled_qty"]) * o["limit_price"]
        for o in SEED["orders"]
        if o["status"] in OPEN and o["side"] == "buy"
    )
    assert float(acct["buying_power"]) == pytest.approx(float(acct["regt_buying_power"]) - reserved, abs=0.01)
    ok(session, "cancel_order", {"order_id": open_order("AMD")["id"]})
    assert float(account(session)["buying_power"]) == pytest.approx(float(acct["buying_power"]) + 10 * 115, abs=0.01)


def test_day_trade_count_covers_the_last_five_trading_days_only(session):
    # June 5 (COIN) is outside the window; June 12, 16 and 17 are in it
    assert account(session)["daytrade_count"] == 3
    at(session, datetime(2025, 6, 20, 15, 0, tzinfo=timezone.utc))  # June 12 drops out (13, 16, 17, 18, 20)
    assert account(session)["daytrade_count"] == 2


# ---------------------------------------------------------------- fills


def test_market_buy_fills_at_the_ask_and_moves_cash_position_and_activities(session):
    before = position(session, "KO")
    result = order(session, "KO", "buy", qty=8)
    ask = PRICES["KO"]["ask_price"]
    assert (result["status"], result["filled_qty"], result["filled_avg_price"]) == ("filled", "8", str(ask))
    assert result["position_intent"] == "buy_to_open"
    after = position(session, "KO")
    assert float(after["qty"]) == float(before["qty"]) + 8
    expected_entry = (float(before["qty"]) * float(before["avg_entry_price"]) + 8 * ask) / float(after["qty"])
    assert float(after["avg_entry_price"]) == pytest.approx(expected_entry, abs=1e-6)
    assert float(account(session)["cash"]) == pytest.approx(CASH - 8 * ask, abs=0.01)
    fills = ok(session, "get_account_activities", {"activity_types": ["FILL"], "page_size": 1})["results"]
    assert (fills[0]["order_id"], fills[0]["qty"], fills[0]["side"]) == (result["id"], "8", "buy")


def test_selling_a_whole_position_fills_at_the_bid_and_removes_it(session):
    result = order(session, "RIVN", "sell", qty=40)
    bid = PRICES["RIVN"]["bid_price"]
    assert (result["filled_avg_price"], result["position_intent"]) == (str(bid), "sell_to_close")
    assert position(session, "RIVN") is None
    assert float(account(session)["cash"]) == pytest.approx(CASH + 40 * bid, abs=0.01)


def test_notional_order_buys_fractional_shares(session):
    result = order(session, "MSFT", "buy", notional=250)
    assert result["qty"] is None and result["notional"] == "250"
    assert float(result["filled_qty"]) == pytest.approx(250 / PRICES["MSFT"]["ask_price"], abs=1e-9)
    assert float(account(session)["cash"]) == pytest.approx(CASH - 250, abs=0.01)


def test_limit_stop_ioc_and_fok_routing(session):
    ask = PRICES["GOOGL"]["ask_price"]
    resting = order(session, "GOOGL", "buy", type="limit", qty=2, limit_price=round(ask - 1, 2), time_in_force="gtc")
    assert resting["status"] == "new" and resting["filled_qty"] == "0"
    assert (
        order(session, "GOOGL", "buy", type="limit", qty=2, limit_price=ask - 1, time_in_force="ioc")["status"]
        == "canceled"
    )
    assert (
        order(session, "GOOGL", "buy", type="limit", qty=2, limit_price=ask, time_in_force="fok")["status"] == "filled"
    )
    waiting = order(session, "NVDA", "sell", type="stop", qty=5, stop_price=130, time_in_force="gtc")
    assert waiting["status"] == "new"  # last trade above the stop
    triggered = order(session, "KO", "sell", type="stop", qty=2, stop_price=71)
    assert (triggered["status"], triggered["filled_avg_price"]) == ("filled", str(PRICES["KO"]["bid_price"]))
    not_reached = order(session, "KO", "sell", type="stop_limit", qty=2, stop_price=71, limit_price=75)
    assert not_reached["status"] == "new"


# ---------------------------------------------------------------- sessions and the clock


def test_orders_outside_market_hours_are_queued_unless_extended_hours_limit(session):
    at(session, AFTER_HOURS)
    queued = order(session, "KO", "buy", qty=3)
    assert queued["status"] == "accepted" and position(session, "KO")["qty"] == "12"
    extended = order(session, "KO", "buy", type="limit", qty=3, limit_price=70.5, extended_hours=True)
    assert extended["status"] == "filled" and position(session, "KO")["qty"] == "15"
    fails(
        session,
        "submit_order",
        {"symbol": "KO", "side": "buy", "qty": 1, "extended_hours": True},
        "InvalidRequest",
        "extended hours orders must be DAY limit orders",
    )
    fails(
        session,
        "submit_order",
        {
            "symbol": "KO",
            "side": "buy",
            "qty": 1,
            "type": "limit",
            "limit_price": 70.5,
            "time_in_force": "gtc",
            "extended_hours": True,
        },
        "InvalidRequest",
        "DAY limit",
    )


def test_clock_follows_the_calendar(session):
    assert ok(session, "get_clock") == {
        "timestamp": "2025-06-18T11:00:00-04:00",
        "is_open": True,
        "next_open": "2025-06-20T09:30:00-04:00",
        "next_close": "2025-06-18T16:00:00-04:00",
    }
    at(session, datetime(2025, 6, 18, 12, 0, tzinfo=timezone.utc))  # 08:00 pre-market
    clock = ok(session, "get_clock")
    assert (clock["is_open"], clock["next_open"]) == (False, "2025-06-18T09:30:00-04:00")
    at(session, HOLIDAY)
    clock = ok(session, "get_clock")
    assert (clock["is_open"], clock["next_open"], clock["next_close"]) == (
        False,
        "2025-06-20T09:30:00-04:00",
        "2025-06-20T16:00:00-04:00",
    )


def test_calendar_skips_holidays_and_shows_early_closes(session):
    days = ok(session, "get_calendar", {"start": "2025-06-30", "end": "2025-07-08"})
    assert [d["date"] for d in days] == [
        "2025-06-30",
        "2025-07-01",
        "2025-07-02",
        "2025-07-03",
        "2025-07-07",
        "2025-07-08",
    ]
    early = days[3]
    assert (early["close"], early["session_close"], early["settlement_date"]) == ("13:00", "1700", "2025-07-07")
    default = ok(session, "get_calendar")
    assert default[0]["date"] == "2025-06-18" and "2025-06-19" not in [d["date"] for d in default]
    fails(session, "get_calendar", {"start": "2025-07-08", "end": "2025-07-01"}, "InvalidRequest", "end")
    fails(session, "get_calendar", {"start": "07/01/2025"}, "InvalidRequest", "YYYY-MM-DD")


# ---------------------------------------------------------------- order validation


def test_fractional_and_notional_orders_are_market_day_orders_on_fractionable_assets(session):
    base = {"symbol": "AAPL", "side": "buy"}
    fails(
        session,
        "submit_order",
        {**base, "qty": 1.5, "type": "limit", "limit_price": 190},
        "InvalidRequest",
        "fractional orders must be market orders with time_in_force day",
    )
    fails(
        session,
        "submit_order",
        {**base, "notional": 100, "time_in_force": "gtc"},
        "InvalidRequest",
        "time_in_force day",
    )
    fails(
        session,
        "submit_order",
        {"symbol": "BYND", "side": "buy", "notional": 100},
        "InvalidRequest",
        "not fractionable",
    )
    fails(session, "submit_order", {**base, "notional": 0.5}, "invalid_arguments", "cost basis must be >= 1")
    fails(session, "submit_order", {**base, "qty": 1, "notional": 100}, "InvalidRequest", "only one of")
    fails(session, "submit_order", base, "InvalidRequest", "qty or notional is required")
    fails(session, "submit_order", {**base, "qty": 0}, "invalid_arguments", "qty must be > 0")
    ok(session, "update_account_configurations", {"fractional_trading": False})
    fails(session, "submit_order", {**base, "qty": 0.5}, "PermissionDenied", "fractional trading is not enabled")
    assert order(session, "AAPL", "buy", qty=1)["status"] == "filled"


def test_price_fields_follow_the_order_type_in_whole_cents(session):
    base = {"symbol": "AAPL", "side": "buy", "qty": 1}
    fails(session, "submit_order", {**base, "type": "limit"}, "InvalidRequest", "limit_price is required")
    fails(session, "submit_order", {**base, "limit_price": 190}, "InvalidRequest", "not allowed for market")
    fails(
        session,
        "submit_order",
        {**base, "type": "stop_limit", "stop_price": 200},
        "InvalidRequest",
        "limit_price is required",
    )
    fails(
        session,
        "submit_order",
        {**base, "type": "limit", "limit_price": 190.123},
        "InvalidRequest",
        "sub-penny increment",
    )
    fails(
        session,
        "submit_order",
        {**base, "type": "stop", "stop_price": -1},
        "invalid_arguments",
        "stop_price must be > 0",
    )


def test_untradable_and_unknown_assets(session):
    fails(session, "submit_order", {"symbol": "SIVB", "side": "buy", "qty": 1}, "InvalidRequest", "not tradable")
    fails(session, "submit_order", {"symbol": "TCEHY", "side": "buy", "qty": 1}, "InvalidRequest", "not tradable")
    fails(session, "submit_order", {"symbol": "ZZZZ", "side": "buy", "qty": 1}, "NotFound", "asset not found")


def test_client_order_ids_are_unique(session):
    placed = order(session, "KO", "buy", qty=1, client_order_id="ko-1")
    assert placed["client_order_id"] == "ko-1"
    fails(
        session,
        "submit_order",
        {"symbol": "KO", "side": "buy", "qty": 1, "client_order_id": "ko-1"},
        "Conflict",
        "client_order_id must be unique",
    )
    fails(
        session,
        "submit_order",
        {"symbol": "KO", "side": "buy", "qty": 1, "client_order_id": "x" * 129},
        "invalid_arguments",
        "128",
    )


def test_buying_power_limits_buys_and_cash_only_mode_shrinks_it(session):
    fails(
        session,
        "submit_order",
        {"symbol": "META", "side": "buy", "qty": 40},
        "PermissionDenied",
        "insufficient buying power",
    )
    assert order(session, "META", "buy", qty=10)["status"] == "filled"  # fine on Reg T margin
    ok(session, "update_account_configurations", {"max_margin_multiplier": "1"})
    assert account(session)["multiplier"] == "1"
    fails(
        session,
        "submit_order",
        {"symbol": "META", "side": "buy", "qty": 1},
        "PermissionDenied",
        "insufficient buying power",
    )


def test_non_marginable_stocks_need_cash_not_margin(session):
    # LCID trades under $2.50: it is paid from cash, which the open buy orders already use up
    assert account(session)["non_marginable_buying_power"] == "0"
    fails(
        session,
        "submit_order",
        {"symbol": "LCID", "side": "buy", "qty": 10},
        "PermissionDenied",
        "insufficient buying power",
    )
    for symbol in ("AMD", "SCHD", "IONQ"):
        ok(session, "cancel_order", {"order_id": open_order(symbol)["id"]})
    assert order(session, "LCID", "buy", qty=10)["status"] == "filled"


def test_sells_cannot_exceed_shares_not_held_by_open_orders(session):
    assert position(session, "NVDA")["qty_available"] == "15"  # 10 of 25 held by the $160 limit sell
    fails(
        session,
        "submit_order",
        {"symbol": "NVDA", "side": "sell", "qty": 16},
        "PermissionDenied",
        "insufficient qty available for order (requested: 16, available: 15)",
    )
    assert order(session, "NVDA", "sell", qty=15)["status"] == "filled"
    assert position(session, "NVDA")["qty"] == "10"


def test_short_sale_eligibility(session):
    fails(
        session, "submit_order", {"symbol": "AMC", "side": "sell", "qty": 10}, "InvalidRequest", "cannot be sold short"
    )
    fails(session, "submit_order", {"symbol": "GME", "side": "sell", "qty": 5}, "InvalidRequest", "not easy to borrow")
    fails(
        session,
        "submit_order",
        {"symbol": "SNOW", "side": "sell", "qty": 0.5},
        "InvalidRequest",
        "fractional orders cannot be sold short",
    )
    short = order(session, "SNOW", "sell", qty=5)
    assert (short["status"], short["position_intent"]) == ("filled", "sell_to_open")
    assert (position(session, "SNOW")["qty"], position(session, "SNOW")["side"]) == ("-5", "short")
    ok(session, "update_account_configurations", {"max_margin_multiplier": "1"})
    fails(
        session,
        "submit_order",
        {"symbol": "BA", "side": "sell", "qty": 1},
        "PermissionDenied",
        "account is not allowed to short",
    )


def test_covering_a_short_is_capped_at_its_size(session):
    fails(
        session,
        "submit_order",
        {"symbol": "GME", "side": "buy", "qty": 11},
        "PermissionDenied",
        "requested: 11, available: 10",
    )
    cover = order(session, "GME", "buy", qty=10)
    assert (cover["position_intent"], cover["filled_avg_price"]) == ("buy_to_close", str(PRICES["GME"]["ask_price"]))
    assert position(session, "GME") is None


# ---------------------------------------------------------------- pattern day trading


def test_pattern_day_trading_protection_and_the_flag_after_a_deposit(session):
    fails(
        session,
        "submit_order",
        {"symbol": "TSLA", "side": "sell", "qty": 5},
        "PermissionDenied",
        "pattern day trading protection",
    )
    fails(session, "close_position", {"symbol_or_asset_id": "TSLA"}, "PermissionDenied", "pattern day trading")
    assert order(session, "AAPL", "sell", qty=1)["status"] == "filled"  # not opened today: not a day trade
    deposit = ok(session, "deposit_funds", {"amount": 1500}, caller="user")
    assert (deposit["activity_type"], deposit["net_amount"]) == ("CSD", "1500")
    assert float(account(session)["equity"]) >= 25_000
    assert order(session, "TSLA", "sell", qty=5)["status"] == "filled"
    acct = account(session)
    assert (acct["daytrade_count"], acct["pattern_day_trader"]) == (4, True)


def test_a_position_bought_yesterday_is_no_day_trade(session):
    at(session, HOLIDAY)
    queued = order(session, "TSLA", "sell", qty=5)
    assert (queued["status"], queued["position_intent"]) == ("accepted", "sell_to_close")


# ---------------------------------------------------------------- replace and cancel


def test_replacing_a_partially_filled_order_creates_a_new_order_for_the_rest(session):
    old = open_order("IONQ")
    new = ok(session, "replace_order", {"order_id": old["id"], "limit_price": 40})
    assert (new["replaces"], new["qty"], new["status"]) == (old["id"], "30", "filled")
    replaced = next(
        o for o in ok(session, "list_orders", {"status": "closed", "symbols": "IONQ"}) if o["id"] == old["id"]
    )
    assert (replaced["status"], replaced["replaced_by"], replaced["filled_qty"]) == ("replaced", new["id"], "20")
    assert position(session, "IONQ")["qty"] == "50"
    fails(
        session,
        "replace_order",
        {"order_id": old["id"], "limit_price": 41},
        "Conflict",
        'order is already in "replaced" state',
    )


def test_replace_rules(session):
    nvda = open_order("NVDA")["id"]
    fails(session, "replace_order", {"order_id": nvda}, "InvalidRequest", "at least one")
    fails(
        session,
        "replace_order",
        {"order_id": nvda, "stop_price": 150},
        "InvalidRequest",
        "stop_price is not allowed for limit orders",
    )
    fails(session, "replace_order", {"order_id": nvda, "qty": 26}, "PermissionDenied", "insufficient qty available")
    fails(session, "replace_order", {"order_id": "nope"}, "NotFound", "order not found")
    new = ok(session, "replace_order", {"order_id": nvda, "qty": 8, "limit_price": 155})
    assert (new["qty"], new["limit_price"], new["time_in_force"], new["status"]) == ("8", "155", "gtc", "new")
    assert position(session, "NVDA")["qty_available"] == "17"
    at(session, AFTER_HOURS)
    queued = order(session, "KO", "buy", notional=100)
    fails(
        session,
        "replace_order",
        {"order_id": queued["id"], "time_in_force": "gtc"},
        "InvalidRequest",
        "notional orders cannot be replaced",
    )


def test_cancel_only_open_orders(session):
    amd = open_order("AMD")["id"]
    canceled = ok(session, "cancel_order", {"order_id": amd})
    assert canceled["status"] == "canceled" and canceled["canceled_at"] is not None
    fails(session, "cancel_order", {"order_id": amd}, "Conflict", 'order is already in "canceled" state')
    filled = next(o["id"] for o in SEED["orders"] if o["status"] == "filled")
    fails(session, "cancel_order", {"order_id": filled}, "Conflict", 'already in "filled" state')
    fails(session, "cancel_order", {"order_id": "missing"}, "NotFound", "order not found")
    assert amd not in {o["id"] for o in ok(session, "list_orders")}


# ---------------------------------------------------------------- positions


def test_close_position_needs_the_shares_free_of_open_orders(session):
    fails(
        session,
        "close_position",
        {"symbol_or_asset_id": "F"},
        "PermissionDenied",
        "insufficient qty available for order (requested: 100, available: 0)",
    )
    ok(session, "cancel_order", {"order_id": open_order("F")["id"]})
    closed = ok(session, "close_position", {"symbol_or_asset_id": "f"})
    assert (closed["side"], closed["type"], closed["qty"], closed["status"]) == ("sell", "market", "100", "filled")
    assert position(session, "F") is None
    fails(session, "close_position", {"symbol_or_asset_id": "F"}, "NotFound", "position does not exist")


def test_close_part_of_a_position(session):
    trimmed = ok(session, "close_position", {"symbol_or_asset_id": "AAPL", "percentage": 40})
    assert trimmed["qty"] == "10" and position(session, "AAPL")["qty"] == "15"
    half = ok(session, "close_position", {"symbol_or_asset_id": "MSFT", "percentage": 50})
    held = next(p["qty"] for p in SEED["positions"] if p["symbol"] == "MSFT")
    assert float(half["qty"]) == pytest.approx(held / 2, abs=1e-9)
    fails(
        session,
        "close_position",
        {"symbol_or_asset_id": "KO", "qty": 1, "percentage": 10},
        "InvalidRequest",
        "only one of",
    )
    fails(
        session,
        "close_position",
        {"symbol_or_asset_id": "KO", "percentage": 120},
        "invalid_arguments",
        "between 0 and 100",
    )


# ---------------------------------------------------------------- configurations and suspension


def test_suspended_trading_blocks_new_orders_but_not_cancels(session):
    config = ok(session, "update_account_configurations", {"suspend_trade": True, "trade_confirm_email": "none"})
    assert (config["suspend_trade"], config["trade_confirm_email"], config["max_margin_multiplier"]) == (
        True,
        "none",
        "2",
    )
    assert account(session)["trade_suspended_by_user"] is True
    fails(session, "submit_order", {"symbol": "KO", "side": "buy", "qty": 1}, "PermissionDenied", "suspended")
    fails(
        session,
        "replace_order",
        {"order_id": open_order("AMD")["id"], "limit_price": 116},
        "PermissionDenied",
        "suspended",
    )
    assert ok(session, "cancel_order", {"order_id": open_order("AMD")["id"]})["status"] == "canceled"


def test_long_only_needs_shorts_closed_first(session):
    fails(session, "update_account_configurations", {"no_shorting": True}, "Conflict", "short positions")
    fails(session, "update_account_configurations", {}, "InvalidRequest", "no configuration")
    ok(session, "close_position", {"symbol_or_asset_id": "GME"})
    assert ok(session, "update_account_configurations", {"no_shorting": True})["no_shorting"] is True
    assert account(session)["shorting_enabled"] is False
    fails(session, "submit_order", {"symbol": "SNOW", "side": "sell", "qty": 1}, "PermissionDenied", "not allowed")


def test_deposits_are_capped_per_day(session):
    ok(session, "deposit_funds", {"amount": 45_000}, caller="user")
    fails(session, "deposit_funds", {"amount": 5_000.01}, "InvalidRequest", "limited to $50,000 a day", caller="user")
    fails(session, "deposit_funds", {"amount": 0}, "invalid_arguments", "positive", caller="user")
    fails(session, "deposit_funds", {"amount": 10.005}, "InvalidRequest", "more than 2 decimal places", caller="user")
    assert float(account(session)["cash"]) == pytest.approx(CASH + 45_000, abs=0.01)


# ---------------------------------------------------------------- reads


def test_list_orders_filters_and_limits(session):
    open_ids = {o["id"] for o in ok(session, "list_orders")}
    assert open_ids == {o["id"] for o in SEED["orders"] if o["status"] in OPEN}
    closed = ok(session, "list_orders", {"status": "closed", "limit": 500})
    assert len(closed) == sum(o["status"] not in OPEN for o in SEED["orders"])
    times = [o["submitted_at"] for o in closed]
    assert times == sorted(times, reverse=True)
    assert len(ok(session, "list_orders", {"status": "all", "limit": 7})) == 7
    oldest = ok(session, "list_orders", {"status": "all", "limit": 500, "direction": "asc"})
    by_time = sorted(sorted(SEED["orders"], key=lambda o: o["id"]), key=lambda o: o["submitted_at"])
    assert [o["id"] for o in oldest] == [o["id"] for o in by_time]  # ties keep the key order
    newest = ok(session, "list_orders", {"status": "all", "limit": 3})
    assert [o["id"] for o in newest] == [
        o["id"] for o in sorted(by_time, key=lambda o: o["submitted_at"], reverse=True)[:3]
    ]
    june = ok(
        session,
        "list_orders",
        {
            "status": "all",
            "after": "2025-06-01",
            "until": "2025-06-17",
            "direction": "asc",
            "symbols": "nvda, amd",
            "side": "buy",
        },
    )
    assert june and all(o["symbol"] in ("NVDA", "AMD") and o["side"] == "buy" for o in june)
    assert all("2025-06-01" <= o["submitted_at"] < "2025-06-18" for o in june)
    fails(session, "list_orders", {"limit": 501}, "invalid_arguments", "limit must be between 1 and 500")
    fails(session, "list_orders", {"limit": 0}, "invalid_arguments", "limit must be between 1 and 500")
    fails(session, "list_orders", {"after": "June 1"}, "invalid_arguments", "after")
    fails(session, "list_orders", {"after": "June 1 2025"}, "InvalidRequest", "date like 2025-06-01")
    fails(session, "list_orders", {"after": "2025-06-01T13:30:00"}, "InvalidRequest", "time zone")
    zoned = ok(session, "list_orders", {"status": "all", "after": "2025-06-01T09:30:00-04:00"})
    utc = ok(session, "list_orders", {"status": "all", "after": "2025-06-01T13:30:00Z"})
    assert zoned == utc and zoned  # an offset converts to UTC instead of being refused


def test_account_activities_paginate_and_filter(session):
    total = len(SEED["account_activities"])
    first = ok(session, "get_account_activities", {"page_size": 50})
    assert len(first["results"]) == 50 and first["has_more"]
    rest = ok(session, "get_account_activities", {"page_size": 100, "page_token": first["next_cursor"]})
    ids = [a["id"] for a in first["results"] + rest["results"]]
    assert len(ids) == len(set(ids)) == total and not rest["has_more"]
    dividends = ok(session, "get_account_activities", {"activity_types": ["DIV"], "direction": "asc"})["results"]
    assert [d["date"] for d in dividends] == sorted(d["date"] for d in dividends)
    assert sum(float(d["net_amount"]) for d in dividends) == pytest.approx(
        sum(a["net_amount"] for a in SEED["account_activities"] if a["activity_type"] == "DIV")
    )
    today = ok(session, "get_account_activities", {"date": "2025-06-18"})["results"]
    assert [(a["symbol"], a["side"]) for a in today] == [("TSLA", "buy")]
    fails(session, "get_account_activities", {"page_size": 0}, "invalid_arguments", "page_size")
    fails(session, "get_account_activities", {"page_size": 101}, "invalid_arguments", "page_size")


def test_assets_and_snapshots(session):
    assert ok(session, "get_asset", {"symbol_or_asset_id": "aapl"})["symbol"] == "AAPL"
    gme = next(a for a in SEED["assets"] if a["symbol"] == "GME")
    assert ok(session, "get_asset", {"symbol_or_asset_id": gme["id"]})["easy_to_borrow"] is False
    inactive = ok(session, "list_assets", {"status": "inactive"})
    assert inactive and all(not a["tradable"] for a in inactive)
    arca = ok(session, "list_assets", {"exchange": "ARCA", "attributes": ["fractional_eh_enabled"]})
    assert [a["symbol"] for a in arca] == ["SPY", "VOO"]
    snap = ok(session, "get_stock_snapshot", {"symbol": "KO"})
    row = PRICES["KO"]
    assert (snap["latest_trade"]["price"], snap["latest_quote"]["ask_price"], snap["previous_daily_bar"]["close"]) == (
        row["last_price"],
        row["ask_price"],
        row["prev_close"],
    )
    fails(session, "get_stock_snapshot", {"symbol": "SIVB"}, "NotFound", "no market data")


# ---------------------------------------------------------------- watchlists


def test_watchlist_lifecycle_and_rules(session):
    created = ok(session, "create_watchlist", {"name": "Chips", "symbols": ["nvda", "AMD"]})
    assert [a["symbol"] for a in created["assets"]] == ["NVDA", "AMD"]
    grown = ok(session, "add_asset_to_watchlist", {"watchlist_id": created["id"], "symbol": "AVGO"})
    assert [a["symbol"] for a in grown["assets"]] == ["NVDA", "AMD", "AVGO"]
    fails(
        session,
        "add_asset_to_watchlist",
        {"watchlist_id": created["id"], "symbol": "AMD"},
        "Conflict",
        "already in watchlist Chips",
    )
    fails(session, "create_watchlist", {"name": "chips"}, "Conflict", "already exists")
    fails(session, "create_watchlist", {"name": "x" * 65}, "invalid_arguments", "1 to 64")
    fails(session, "create_watchlist", {"name": "   "}, "invalid_arguments", "1 to 64")
    fails(session, "create_watchlist", {"name": "Dupes", "symbols": ["AMD", "amd"]}, "InvalidRequest", "duplicate")
    fails(
        session,
        "add_asset_to_watchlist",
        {"watchlist_id": created["id"], "symbol": "TWTR"},
        "InvalidRequest",
        "not active",
    )
    dividend = watchlist("Dividend Income")
    trimmed = ok(session, "remove_asset_from_watchlist", {"watchlist_id": dividend, "symbol": "O"})
    assert "O" not in [a["symbol"] for a in trimmed["assets"]]
    fails(
        session,
        "remove_asset_from_watchlist",
        {"watchlist_id": dividend, "symbol": "O"},
        "NotFound",
        "not in watchlist",
    )
    ok(session, "delete_watchlist", {"watchlist_id": watchlist("Speculative")})
    names = [w["name"] for w in ok(session, "list_watchlists")]
    assert names == ["Tech Giants", "Dividend Income", "EV & Energy", "Chips"]
    fails(session, "delete_watchlist", {"watchlist_id": watchlist("Speculative")}, "NotFound", "watchlist not found")
