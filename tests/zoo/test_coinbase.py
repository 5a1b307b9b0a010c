"""The Coinbase environment's tools: simple-trade pricing, fees and payment-method limits, conversions and their
expiry, Advanced Trade orders (holds, fills, product modes, cancellation), sends (allowlisting, network fees,
minimums, approval in the app), receive addresses and the address book. Every error path leaves the state unchanged.
Runs the real tools on the real seed."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone
from decimal import ROUND_DOWN, Decimal

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("coinbase")
CLOCK = datetime(2025, 6, 12, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ACC = {a["currency"]: a["uuid"] for a in SEED["accounts"]}
PRODUCTS = {p["product_id"]: p for p in SEED["products"]}
BOOK = {(b["label"], b["currency"]): b["address"] for b in SEED["address_book"]}


def method(prefix: str) -> str:
    return next(p["id"] for p in SEED["payment_methods"] if p["name"].startswith(prefix))


CHASE, CARD, WALLET, PAYPAL, NEW_CARD = (
    method(p) for p in ("CHASE", "Visa Debit", "USD Wallet", "PayPal", "Visa ******0093")
)


def open_order(product: str) -> dict:
    return next(o for o in SEED["orders"] if o["status"] == "OPEN" and o["product_id"] == product)


session = session_fixture(SPEC, CLOCK)


def wallet(session: ToolSession, code: str) -> tuple[Decimal, Decimal]:
    """(available, hold) of a wallet, read through list_accounts."""
    account = next(a for a in ok(session, "list_accounts", {})["results"] if a["currency"] == code)
    return Decimal(account["available_balance"]["value"]), Decimal(account["hold"]["value"])


def limits(session: ToolSession, method_id: str) -> dict[int, Decimal]:
    found = next(p for p in ok(session, "list_payment_methods") if p["id"] == method_id)
    return {limit["period_in_days"]: Decimal(limit["remaining"]["amount"]) for limit in found["buy_limits"]}


def buy(session: ToolSession, code: str, usd: float, method_id: str = CHASE, tool: str = "place_buy") -> dict:
    return ok(
        session, tool, {"account_id": ACC[code], "amount": usd, "currency": "USD", "payment_method_id": method_id}
    )


def new_rows(session: ToolSession, table: str) -> list[dict]:
    """Rows of `table` that the seed does not have."""
    key = SPEC.schema.tables[table].primary_key.columns.values()[0].name
    seeded = {r[key] for r in SEED[table]}
    return [r for k, r in session.dump()[table].items() if k not in seeded]


# ---------------------------------------------------------------- interface, user, wallets


def test_tools_and_the_in_app_approval_is_user_only(session):
    assert len(SPEC.tools) == 20
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["approve_send_in_app"]
    assert SPEC.tools["get_current_user"].input_schema["properties"] == {}
    outcome = session.call("approve_send_in_app", {"amount": 0.02, "currency": "BTC"})
    assert not outcome.ok and outcome.error_kind == "user_only"


def test_fee_tier_follows_30_day_volume(session):
    since = "2025-05-13T15:00:00Z"
    usd = {
        "USD": Decimal(1),
        "BTC": Decimal(PRODUCTS["BTC-USD"]["price"]),
        "ETH": Decimal(PRODUCTS["ETH-USD"]["price"]),
    }
    volume = sum(
        Decimal(f["price"]) * Decimal(f["size"]) * usd[PRODUCTS[f["product_id"]]["quote_currency_id"]]
        for f in SEED["fills"]
        if f["trade_time"] > since
    )
    user = ok(session, "get_current_user")
    assert Decimal(user["advanced_trade_volume_30d"]) == volume.quantize(Decimal("0.01"))
    assert 10_000 <= volume < 50_000
    assert (user["fee_tier"]["pricing_tier"], user["fee_tier"]["taker_fee_rate"]) == ("Advanced 1", "0.0040")
    assert user["address_allowlisting"] is True and user["send_2fa_threshold"]["amount"] == "1000.00"
    session.reset("seed", CLOCK + timedelta(days=31))  # the month's fills age out
    later = ok(session, "get_current_user")
    assert (later["fee_tier"]["pricing_tier"], later["fee_tier"]["taker_fee_rate"]) == ("Intro 1", "0.0120")


def test_wallet_holds_match_open_orders(session):
    usd_held = sum(
        Decimal(o["outstanding_hold_amount"])
        for o in SEED["orders"]
        if o["status"] == "OPEN" and o["side"] == "BUY" and o["product_id"].endswith("-USD")
    )
    assert wallet(session, "USD")[1] == usd_held > 0
    assert wallet(session, "DOGE")[1] == Decimal(open_order("DOGE-USD")["outstanding_hold_amount"]) == 3200
    assert wallet(session, "BTC")[1] == 0


def test_list_accounts_paginates(session):
    first = ok(session, "list_accounts", {"limit": 5})
    assert len(first["results"]) == 5 and first["has_more"]
    rest = ok(session, "list_accounts", {"limit": 50, "cursor": first["next_cursor"]})
    names = [a["name"] for a in first["results"] + rest["results"]]
    assert names == sorted(names) and len(names) == len(SEED["accounts"]) and not rest["has_more"]
    btc = next(a for a in rest["results"] + first["results"] if a["currency"] == "BTC")
    assert [(n["name"], n["network_fee"], n["min_send"]) for n in btc["networks"]] == [
        ("bitcoin", "0.00002000", "0.00010000")
    ]
    fails(session, "list_accounts", {"limit": 0}, "invalid_arguments", "limit")
    fails(session, "list_accounts", {"limit": 251}, "invalid_arguments", "limit")
    assert len(ok(session, "list_accounts", {"limit": 250})["results"]) == len(SEED["accounts"])


# ---------------------------------------------------------------- simple buys and sells


def test_quote_prices_the_spread_and_the_larger_fee(session):
    quote = ok(
        session,
        "get_quote",
        {"side": "buy", "account_id": ACC["BTC"], "amount": 250, "currency": "USD", "payment_method_id": CHASE},
    )
    unit = Decimal(PRODUCTS["BTC-USD"]["price"]) * Decimal("1.005")
    assert Decimal(quote["unit_price"]["amount"]) == unit
    assert quote["amount"]["amount"] == str((Decimal(250) / unit).quantize(Decimal("1e-8"), ROUND_DOWN))
    assert (quote["fee"]["amount"], quote["total"]["amount"]) == ("3.73", "253.73")  # 1.49% beats the $2.99 flat fee
    assert (quote["id"], quote["committed"]) == (None, False)
    small = ok(
        session,
        "get_quote",
        {"side": "buy", "account_id": ACC["BTC"], "amount": 20, "currency": "USD", "payment_method_id": CHASE},
    )
    assert small["fee"]["amount"] == "1.49"  # flat fee for $10-$25
    card = ok(
        session,
        "get_quote",
        {"side": "buy", "account_id": ACC["BTC"], "amount": 100, "currency": "USD", "payment_method_id": PAYPAL},
    )
    assert card["fee"]["amount"] == "3.99"  # 3.99% beats the $2.99 flat fee
    fails(
        session,
        "get_quote",
        {"side": "buy", "account_id": ACC["BTC"], "amount": 1.5, "currency": "USD", "payment_method_id": CHASE},
        "InvalidRequest",
        "minimum buy is $2.00",
    )


def test_card_weekly_limit(session):
    assert limits(session, CARD) == {1: Decimal("1000.00"), 7: Decimal("347.41")}
    fails(
        session,
        "place_buy",
        {"account_id": ACC["SOL"], "amount": 400, "currency": "USD", "payment_method_id": CARD},
        "Conflict",
        "weekly buy limit for Visa Debit",
    )
    bought = buy(session, "SOL", 300, CARD)
    assert bought["total"]["amount"] == "311.97"  # 3.99% card fee
    assert limits(session, CARD) == {
        1: Decimal("1000.00") - Decimal("311.97"),
        7: Decimal("347.41") - Decimal("311.97"),
    }


def test_bank_daily_limit_counts_todays_buys(session):
    assert limits(session, CHASE)[1] == Decimal("7462.75")
    fails(
        session,
        "place_buy",
        {"account_id": ACC["BTC"], "amount": 7400, "currency": "USD", "payment_method_id": CHASE},
        "Conflict",
        "daily buy limit",
    )
    buy(session, "BTC", 7300)
    assert limits(session, CHASE)[1] == Decimal("7462.75") - Decimal("7408.77")
    session.reset("seed", CLOCK + timedelta(hours=23))  # this morning's buy leaves the rolling day
    assert limits(session, CHASE)[1] == Decimal("10000.00")


def test_payment_method_rules(session):
    fails(
        session,
        "place_buy",
        {"account_id": ACC["ADA"], "amount": 150, "currency": "USD", "payment_method_id": NEW_CARD},
        "PermissionDenied",
        "isn't verified",
    )
    fails(
        session,
        "place_sell",
        {"account_id": ACC["ADA"], "amount": 100, "currency": "USD", "payment_method_id": CARD},
        "InvalidRequest",
        "Sales can't be paid out",
    )
    fails(
        session,
        "place_buy",
        {"account_id": ACC["USD"], "amount": 10, "currency": "USD", "payment_method_id": CHASE},
        "InvalidRequest",
        "crypto wallet",
    )
    fails(
        session,
        "place_buy",
        {"account_id": ACC["BTC"], "amount": 1, "currency": "ETH", "payment_method_id": CHASE},
        "InvalidRequest",
        "USD or BTC",
    )
    fails(
        session,
        "place_buy",
        {"account_id": ACC["BTC"], "amount": 20000, "currency": "USD", "payment_method_id": WALLET},
        "Conflict",
        "on hold",
    )


def test_usd_wallet_buy_moves_both_wallets_and_books_history(session):
    usd_before, btc_before = wallet(session, "USD")[0], wallet(session, "BTC")[0]
    trade = buy(session, "BTC", 500, WALLET)
    assert wallet(session, "USD")[0] == usd_before - Decimal(trade["total"]["amount"])
    assert wallet(session, "BTC")[0] == btc_before + Decimal(trade["amount"]["amount"])
    booked = {t["account_id"]: t for t in new_rows(session, "transactions")}
    assert booked[ACC["USD"]]["amount"] == f"-{trade['total']['amount']}"
    assert booked[ACC["BTC"]]["resource_id"] == trade["id"] == booked[ACC["USD"]]["resource_id"]
    assert booked[ACC["BTC"]]["id"] == trade["transaction_id"]


def test_sell_proceeds_depend_on_the_destination(session):
    usd_before = wallet(session, "USD")[0]
    to_bank = ok(
        session, "place_sell", {"account_id": ACC["ETH"], "amount": 1500, "currency": "USD", "payment_method_id": CHASE}
    )
    assert to_bank["payout_at"] > to_bank["created_at"] and wallet(session, "USD")[0] == usd_before
    assert Decimal(to_bank["total"]["amount"]) == Decimal("1500.00") - Decimal(to_bank["fee"]["amount"])
    to_wallet = ok(
        session, "place_sell", {"account_id": ACC["UNI"], "amount": 30, "currency": "UNI", "payment_method_id": WALLET}
    )
    assert wallet(session, "USD")[0] == usd_before + Decimal(to_wallet["total"]["amount"])
    assert wallet(session, "UNI")[0] == 0
    fails(
        session,
        "place_sell",
        {"account_id": ACC["UNI"], "amount": 1, "currency": "UNI", "payment_method_id": WALLET},
        "Conflict",
        "Insufficient funds",
    )


def test_restricted_products_have_no_simple_trades(session):
    fails(
        session,
        "place_buy",
        {"account_id": ACC["RNDR"], "amount": 50, "currency": "USD", "payment_method_id": CHASE},
        "Conflict",
        "cancel-only",
    )
    fails(
        session,
        "place_buy",
        {"account_id": ACC["PENGU"], "amount": 50, "currency": "USD", "payment_method_id": CHASE},
        "Conflict",
        "limit orders only",
    )
    fails(
        session,
        "create_convert_quote",
        {"from_account": ACC["RNDR"], "to_account": ACC["USDC"], "amount": 10},
        "Conflict",
        "cancel-only",
    )


# ---------------------------------------------------------------- conversions


def test_convert_quote_then_commit(session):
    usdc, eth = wallet(session, "USDC")[0], wallet(session, "ETH")[0]
    quote = ok(session, "create_convert_quote", {"from_account": ACC["USDC"], "to_account": ACC["ETH"], "amount": 1000})
    assert (quote["status"], quote["fee"]["value"]) == ("TRADE_STATUS_CREATED", "5.000000")
    assert wallet(session, "USDC")[0] == usdc  # a quote moves nothing
    args = {"trade_id": quote["trade_id"], "from_account": ACC["USDC"], "to_account": ACC["ETH"]}
    assert ok(session, "commit_convert_trade", args)["status"] == "TRADE_STATUS_COMPLETED"
    assert wallet(session, "USDC")[0] == usdc - 1000
    assert wallet(session, "ETH")[0] == eth + Decimal(quote["target_amount"]["value"])
    fails(session, "commit_convert_trade", args, "Conflict", "already been committed")


def test_expired_quote_cannot_be_committed(session):
    stale = next(c for c in SEED["conversions"] if c["status"] == "TRADE_STATUS_CREATED")
    fails(
        session,
        "commit_convert_trade",
        {"trade_id": stale["id"], "from_account": stale["source_account_id"], "to_account": stale["target_account_id"]},
        "Conflict",
        "expired",
    )
    fresh = ok(session, "create_convert_quote", {"from_account": ACC["ETH"], "to_account": ACC["SOL"], "amount": 1})
    fails(
        session,
        "commit_convert_trade",
        {"trade_id": fresh["trade_id"], "from_account": ACC["SOL"], "to_account": ACC["ETH"]},
        "InvalidRequest",
        "source and target",
    )


def test_convert_rules_and_stablecoins(session):
    fails(
        session,
        "create_convert_quote",
        {"from_account": ACC["USD"], "to_account": ACC["ETH"], "amount": 100},
        "InvalidRequest",
        "USD converts only to and from USDC",
    )
    fails(
        session,
        "create_convert_quote",
        {"from_account": ACC["ETH"], "to_account": ACC["ETH"], "amount": 1},
        "InvalidRequest",
        "two different",
    )
    fails(
        session,
        "create_convert_quote",
        {"from_account": ACC["DOGE"], "to_account": ACC["XRP"], "amount": 2},
        "InvalidRequest",
        "minimum conversion",
    )
    fails(
        session,
        "create_convert_quote",
        {"from_account": ACC["UNI"], "to_account": ACC["ETH"], "amount": 31},
        "Conflict",
        "Insufficient funds",
    )
    stable = ok(
        session, "create_convert_quote", {"from_account": ACC["USD"], "to_account": ACC["USDC"], "amount": 2000}
    )
    assert (stable["exchange_rate"]["value"], stable["target_amount"]["value"], stable["fee"]["value"]) == (
        "1",
        "2000.000000",
        "0.00",
    )


# ---------------------------------------------------------------- Advanced Trade


def test_market_buy_spends_at_most_quote_size(session):
    usd = wallet(session, "USD")[0]
    order = ok(
        session, "create_order", {"product_id": "BTC-USD", "side": "BUY", "order_type": "MARKET", "quote_size": 500}
    )
    spent = Decimal(order["filled_value"]) + Decimal(order["total_fees"])
    assert order["status"] == "FILLED" and order["average_filled_price"] == PRODUCTS["BTC-USD"]["best_ask"]
    assert Decimal("499") < spent <= 500 and wallet(session, "USD")[0] == usd - spent
    assert Decimal(order["total_fees"]) == (Decimal(order["filled_value"]) * Decimal("0.004")).quantize(Decimal("0.01"))
    fill = ok(session, "list_fills", {"order_id": order["order_id"]})["results"]
    assert [(f["liquidity_indicator"], f["size"]) for f in fill] == [("TAKER", order["filled_size"])]


def test_resting_limit_order_holds_and_cancel_releases(session):
    usd, held = wallet(session, "USD")
    order = ok(
        session,
        "create_order",
        {"product_id": "SOL-USD", "side": "BUY", "order_type": "LIMIT", "base_size": 2, "limit_price": 150},
    )
    assert (order["status"], order["outstanding_hold_amount"]) == ("OPEN", "301.20")  # 300 + 0.4% fee reserve
    assert wallet(session, "USD") == (usd - Decimal("301.20"), held + Decimal("301.20"))
    result = ok(session, "cancel_orders", {"order_ids": [order["order_id"], order["order_id"], "no-such-order"]})
    assert [(r["success"], r["failure_reason"]) for r in result] == [
        (True, None),
        (False, "DUPLICATE_CANCEL_REQUEST"),
        (False, "UNKNOWN_CANCEL_ORDER"),
    ]
    assert wallet(session, "USD") == (usd, held)
    again = ok(session, "cancel_orders", {"order_ids": [order["order_id"]]})
    assert again[0]["failure_reason"] == "INVALID_CANCEL_REQUEST"
    filled = next(o for o in SEED["orders"] if o["status"] == "FILLED")
    assert (
        ok(session, "cancel_orders", {"order_ids": [filled["order_id"]]})[0]["failure_reason"]
        == "ORDER_IS_FULLY_FILLED"
    )
    fails(session, "cancel_orders", {"order_ids": []}, "invalid_arguments", "order_ids must hold 1 to 100 order ids")
    fails(session, "cancel_orders", {"order_ids": ["x"] * 101}, "invalid_arguments", "1 to 100")


def test_partially_filled_order_releases_only_what_it_still_holds(session):
    doge = open_order("DOGE-USD")
    available, held = wallet(session, "DOGE")
    assert doge["filled_size"] == "1800.00000000"
    ok(session, "cancel_orders", {"order_ids": [doge["order_id"]]})
    assert wallet(session, "DOGE") == (available + 3200, held - 3200)
    assert session.dump()["orders"][doge["order_id"]]["status"] == "CANCELLED"


def test_marketable_limit_fills_at_the_best_price_and_post_only_is_rejected(session):
    order = ok(
        session,
        "create_order",
        {"product_id": "ETH-USD", "side": "SELL", "order_type": "LIMIT", "base_size": 0.5, "limit_price": 2700},
    )
    assert (order["status"], order["average_filled_price"]) == ("FILLED", PRODUCTS["ETH-USD"]["best_bid"])
    fails(
        session,
        "create_order",
        {
            "product_id": "ETH-USD",
            "side": "SELL",
            "order_type": "LIMIT",
            "base_size": 0.5,
            "limit_price": 2740,
            "post_only": True,
        },
        "InvalidRequest",
        "Post-only order would cross",
    )
    rest = ok(
        session,
        "create_order",
        {
            "product_id": "ETH-USD",
            "side": "SELL",
            "order_type": "LIMIT",
            "base_size": 0.5,
            "limit_price": 2800,
            "post_only": True,
        },
    )
    assert (rest["status"], rest["outstanding_hold_amount"]) == ("OPEN", "0.50000000")


def test_product_modes(session):
    fails(
        session,
        "create_order",
        {"product_id": "RNDR-USD", "side": "SELL", "order_type": "LIMIT", "base_size": 10, "limit_price": 3.5},
        "Conflict",
        "cancel-only",
    )
    assert ok(session, "cancel_orders", {"order_ids": [open_order("RNDR-USD")["order_id"]]})[0]["success"]
    fails(
        session,
        "create_order",
        {"product_id": "PENGU-USD", "side": "BUY", "order_type": "MARKET", "quote_size": 10},
        "InvalidRequest",
        "limit-only",
    )
    limit = ok(
        session,
        "create_order",
        {"product_id": "PENGU-USD", "side": "BUY", "order_type": "LIMIT", "base_size": 50000, "limit_price": 0.0106},
    )
    assert (limit["status"], limit["average_filled_price"]) == ("FILLED", PRODUCTS["PENGU-USD"]["best_ask"])


def test_order_validation(session):
    base = {"product_id": "DOGE-USD", "side": "SELL", "order_type": "MARKET"}
    fails(session, "create_order", {**base, "base_size": 10.05}, "InvalidRequest", "multiple of 0.1")
    fails(session, "create_order", {**base, "quote_size": 10}, "InvalidRequest", "market sell takes base_size")
    fails(session, "create_order", {**base, "base_size": 3}, "InvalidRequest", "too small")
    fails(session, "create_order", {**base, "base_size": 14000}, "Conflict", "3200.00000000 DOGE is on hold")
    fails(
        session,
        "create_order",
        {"product_id": "SOL-USD", "side": "BUY", "order_type": "LIMIT", "base_size": 1, "limit_price": 150.005},
        "InvalidRequest",
        "limit_price must be a multiple",
    )
    fails(
        session,
        "create_order",
        {"product_id": "SOL-USD", "side": "BUY", "order_type": "LIMIT", "quote_size": 100, "limit_price": 150},
        "InvalidRequest",
        "base_size and limit",
    )
    fails(
        session,
        "create_order",
        {"product_id": "DOT-USD", "side": "BUY", "order_type": "MARKET", "quote_size": 10},
        "NotFound",
        "Product",
    )


def test_client_order_id_is_idempotent(session):
    args = {
        "product_id": "AVAX-USD",
        "side": "BUY",
        "order_type": "MARKET",
        "base_size": 10,
        "client_order_id": "avax-dip-1",
    }
    first = ok(session, "create_order", args)
    avax = wallet(session, "AVAX")[0]
    assert ok(session, "create_order", args)["order_id"] == first["order_id"]
    assert wallet(session, "AVAX")[0] == avax and len(new_rows(session, "orders")) == 1


def test_order_and_fill_listings(session):
    open_orders = ok(session, "list_orders", {"order_status": "OPEN"})["results"]
    assert {o["product_id"] for o in open_orders} == {o["product_id"] for o in SEED["orders"] if o["status"] == "OPEN"}
    created = [o["created_time"] for o in open_orders]
    assert created == sorted(created, reverse=True)
    page = ok(session, "list_orders", {"limit": 10})
    assert len(page["results"]) == 10 and page["has_more"]
    may = ok(session, "list_orders", {"start_date": "2025-05-01", "end_date": "2025-06-01", "product_id": "eth-usd"})
    assert may["results"] and all(
        o["created_time"].startswith("2025-05") and o["product_id"] == "ETH-USD" for o in may["results"]
    )
    link = ok(session, "list_fills", {"product_id": "LINK-USD"})["results"]
    assert [f["side"] for f in link] == ["SELL", "BUY"]  # newest first
    fails(session, "list_fills", {"start_sequence_timestamp": "May 1"}, "invalid_arguments", "start_sequence_timestamp")
    fails(session, "list_fills", {"start_sequence_timestamp": "1 May 2025"}, "InvalidRequest", "RFC 3339")
    zoned = ok(
        session, "list_fills", {"start_sequence_timestamp": "2025-05-01T02:00:00+02:00", "product_id": "LINK-USD"}
    )
    dated = ok(session, "list_fills", {"start_sequence_timestamp": "2025-05-01", "product_id": "LINK-USD"})
    assert zoned["results"] == dated["results"]  # an offset converts to UTC instead of being refused


# ---------------------------------------------------------------- sends


def send(session: ToolSession, code: str, to: str, amount: float, **extra) -> dict:
    return ok(session, "send_money", {"account_id": ACC[code], "to": to, "amount": amount, **extra})


def test_allowlisting_and_the_48_hour_wait(session):
    stranger = "bc1q9d4ywgfnd8h43da5tpcxcn6ajv590cg6d3tg6axemvljvt2k76zs50tv4q"
    fails(
        session,
        "send_money",
        {"account_id": ACC["BTC"], "to": stranger, "amount": 0.001},
        "PermissionDenied",
        "add this address to your address book",
    )
    fails(
        session,
        "send_money",
        {"account_id": ACC["BTC"], "to": BOOK[("Trezor Safe 5", "BTC")], "amount": 0.001},
        "PermissionDenied",
        "it can receive from 2025-06-13T18:20:14Z",
    )
    trezor = next(e for e in ok(session, "list_address_book", {"currency": "btc"}) if e["label"] == "Trezor Safe 5")
    assert trezor["allowlist_status"] == "pending"
    session.reset("seed", datetime(2025, 6, 13, 18, 21, tzinfo=timezone.utc))
    assert send(session, "BTC", BOOK[("Trezor Safe 5", "BTC")], 0.001)["status"] == "completed"


def test_network_fee_minimum_and_address_checks(session):
    ledger = BOOK[("Ledger Nano X", "USDC")]
    before = wallet(session, "USDC")[0]
    sent = send(session, "USDC", ledger, 250, network="ethereum")
    assert (sent["amount"]["amount"], sent["network"]["transaction_fee"]["amount"]) == ("-252.850000", "2.850000")
    assert wallet(session, "USDC")[0] == before - Decimal("252.85")
    fails(
        session,
        "send_money",
        {"account_id": ACC["USDC"], "to": ledger, "amount": 4, "network": "ethereum"},
        "InvalidRequest",
        "minimum send of USDC on Ethereum is 5.000000",
    )
    fails(
        session,
        "send_money",
        {"account_id": ACC["BTC"], "to": BOOK[("Ledger Nano X", "BTC")], "amount": 0.01, "network": "base"},
        "InvalidRequest",
        "Supported networks: bitcoin",
    )
    fails(
        session,
        "send_money",
        {"account_id": ACC["ETH"], "to": "0x1234", "amount": 0.1},
        "InvalidRequest",
        "not a valid Ethereum address",
    )
    fails(
        session,
        "send_money",
        {"account_id": ACC["USD"], "to": ledger, "amount": 10},
        "InvalidRequest",
        "choose a crypto wallet",
    )
    ltc = wallet(session, "LTC")[0]
    fails(
        session,
        "send_money",
        {"account_id": ACC["LTC"], "to": BOOK[("Kraken", "LTC")], "amount": float(ltc)},
        "Conflict",
        "Insufficient funds",
    )
    assert send(session, "LTC", BOOK[("Kraken", "LTC")], float(ltc - Decimal("0.0001")))["status"] == "completed"
    assert wallet(session, "LTC")[0] == 0


def test_large_sends_wait_for_approval_in_the_app(session):
    available, held = wallet(session, "ETH")
    pending = send(session, "ETH", BOOK[("Maya Okafor", "ETH")], 1.5, network="ethereum")
    assert (pending["status"], pending["awaiting_2fa"], pending["network"]["hash"]) == ("pending", True, None)
    assert wallet(session, "ETH") == (available - Decimal("1.50042"), held + Decimal("1.50042"))
    small = send(session, "ETH", BOOK[("Maya Okafor", "ETH")], 0.15, network="ethereum")
    assert (small["status"], small["awaiting_2fa"]) == ("completed", False)  # $412 is under the $1,000 threshold
    fails(
        session,
        "approve_send_in_app",
        {"amount": 1.4, "currency": "ETH"},
        "NotFound",
        "waiting for your approval",
        caller="user",
    )
    denied = ok(session, "approve_send_in_app", {"amount": 1.5, "currency": "eth", "approve": False}, caller="user")
    assert denied["status"] == "canceled"
    assert wallet(session, "ETH") == (available - Decimal("0.15042"), held)
    approved_send = send(session, "BTC", BOOK[("Ledger Nano X", "BTC")], 0.02)
    assert approved_send["awaiting_2fa"]
    approved = ok(session, "approve_send_in_app", {"amount": 0.02, "currency": "BTC"}, caller="user")
    assert approved["status"] == "completed" and approved["network"]["hash"]
    assert wallet(session, "BTC")[1] == 0


def test_idem_repeats_return_the_first_send(session):
    args = {"account_id": ACC["SOL"], "to": BOOK[("Phantom", "SOL")], "amount": 1, "idem": "phantom-topup-7"}
    first = ok(session, "send_money", args)
    sol = wallet(session, "SOL")[0]
    assert ok(session, "send_money", args)["id"] == first["id"] and wallet(session, "SOL")[0] == sol


# ---------------------------------------------------------------- addresses, address book, history


def test_receive_addresses_are_valid_for_their_network(session):
    networks = {c["code"]: c["networks"] for c in SEED["currencies"]}
    for code in ("BTC", "ETH", "SOL", "DOGE", "ADA", "XRP", "LTC", "AVAX"):
        for net in networks[code]:
            made = ok(session, "create_address", {"account_id": ACC[code], "network": net["name"]})
            assert re.fullmatch(net["address_regex"], made["address"]), (code, net["name"], made["address"])
    named = ok(session, "create_address", {"account_id": ACC["USDC"], "name": "Invoice 1063", "network": "solana"})
    assert ok(session, "list_addresses", {"account_id": ACC["USDC"]})[0]["id"] == named["id"]
    fails(session, "create_address", {"account_id": ACC["USD"]}, "InvalidRequest", "choose a crypto wallet")
    fails(
        session,
        "create_address",
        {"account_id": ACC["SOL"], "network": "ethereum"},
        "InvalidRequest",
        "Supported networks: solana",
    )


def test_address_book_rules(session):
    entry = ok(
        session,
        "add_address_book_entry",
        {"currency": "ETH", "label": "Tomás - MetaMask", "address": "0x8B3f21aC6d04E97b5a1F0c2D8e4B6a9C7d3E1f05"},
    )
    assert (entry["network"], entry["allowlist_status"]) == ("ethereum", "pending")
    assert entry["usable_from"] == "2025-06-14T15:00:00Z"
    fails(
        session,
        "add_address_book_entry",
        {"currency": "ETH", "label": "Again", "address": BOOK[("Maya Okafor", "ETH")]},
        "Conflict",
        "Maya Okafor",
    )
    fails(
        session,
        "add_address_book_entry",
        {"currency": "SOL", "label": "Bad", "address": "0x8B3f21aC6d04E97b5a1F0c2D8e4B6a9C7d3E1f05"},
        "InvalidRequest",
        "not a valid Solana address",
    )
    fails(
        session,
        "add_address_book_entry",
        {"currency": "BTC", "label": " ", "address": "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"},
        "invalid_arguments",
        "label must be 1 to 50 characters",
    )
    fails(
        session,
        "add_address_book_entry",
        {"currency": "BTC", "label": "L" * 51, "address": "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"},
        "invalid_arguments",
        "label must be 1 to 50 characters",
    )
    fails(
        session,
        "add_address_book_entry",
        {"currency": "USD", "label": "Bank", "address": "x"},
        "InvalidRequest",
        "fiat",
    )


def test_transaction_history_is_newest_first_and_paginates(session):
    seeded = [t for t in SEED["transactions"] if t["account_id"] == ACC["ETH"]]
    first = ok(session, "list_transactions", {"account_id": ACC["ETH"], "limit": 25})
    rest = ok(session, "list_transactions", {"account_id": ACC["ETH"], "limit": 100, "cursor": first["next_cursor"]})
    listed = first["results"] + rest["results"]
    assert len(listed) == len(seeded) and first["has_more"] and not rest["has_more"]
    assert [t["created_at"] for t in listed] == sorted((t["created_at"] for t in seeded), reverse=True)
    held = Decimal(sum(Decimal(t["amount"]) for t in seeded if t["status"] == "completed"))
    assert held == sum(wallet(session, "ETH"))  # balances are the sum of the completed history
    rewards = ok(session, "list_transactions", {"account_id": ACC["ETH"], "type": "staking_reward", "limit": 100})
    assert rewards["results"] and {t["type"] for t in rewards["results"]} == {"staking_reward"}
    canceled = [t for t in listed if t["status"] == "canceled"]
    assert [t["network"]["status"] for t in canceled] == ["canceled"]
    fails(session, "list_transactions", {"account_id": "nope"}, "NotFound", "Account")
    middle = ok(session, "list_transactions", {"account_id": ACC["ETH"], "limit": 7, "cursor": "14"})
    assert [t["id"] for t in middle["results"]] == [t["id"] for t in listed[14:21]] and middle["next_cursor"] == "21"
    last = ok(session, "list_transactions", {"account_id": ACC["ETH"], "limit": 5, "cursor": str(len(listed) - 5)})
    assert [t["id"] for t in last["results"]] == [t["id"] for t in listed[-5:]] and not last["has_more"]
    fails(
        session,
        "list_transactions",
        {"account_id": ACC["ETH"], "cursor": str(len(listed) + 1)},
        "InvalidRequest",
        "cursor",
    )


def test_order_and_fill_pages_join_up_to_the_whole_history(session):
    """Listings read only up to the page they return; walking the pages gives the full, newest-first history."""
    for name, key, stamp, table in (
        ("list_orders", "order_id", "created_time", "orders"),
        ("list_fills", "entry_id", "trade_time", "fills"),
    ):
        walked, cursor = [], None
        while True:
            page = ok(session, name, {"limit": 4, **({"cursor": cursor} if cursor else {})})
            walked += page["results"]
            cursor = page["next_cursor"]
            if not page["has_more"]:
                break
        expected = sorted(SEED[table], key=lambda r: r[key])
        expected = sorted(expected, key=lambda r: r[stamp], reverse=True)
        assert [r[key] for r in walked] == [r[key] for r in expected], name


def test_amounts_sizes_and_names_are_bounded_in_their_types(session):
    """Positive amounts, order sizes and prices, and address names are constraints of the argument types: the
    schema shows them, validation refuses a bad value with Coinbase's wording, and nothing changes."""
    tools = SPEC.tools
    assert tools["send_money"].input_schema["properties"]["amount"]["exclusiveMinimum"] == 0
    assert tools["list_accounts"].input_schema["properties"]["limit"]["maximum"] == 250
    assert tools["cancel_orders"].input_schema["properties"]["order_ids"]["maxItems"] == 100
    for name, args in (
        ("place_buy", {"account_id": ACC["BTC"], "amount": 0, "currency": "USD", "payment_method_id": CHASE}),
        (
            "get_quote",
            {"side": "sell", "account_id": ACC["BTC"], "amount": -5, "currency": "USD", "payment_method_id": CHASE},
        ),
        ("create_convert_quote", {"from_account": ACC["ETH"], "to_account": ACC["BTC"], "amount": 0}),
        ("send_money", {"account_id": ACC["ETH"], "to": BOOK[("Maya Okafor", "ETH")], "amount": -0.1}),
    ):
        fails(session, name, args, "invalid_arguments", "amount must be greater than 0")
    fails(
        session,
        "create_order",
        {"product_id": "BTC-USD", "side": "BUY", "order_type": "LIMIT", "base_size": 0.001, "limit_price": 0},
        "invalid_arguments",
        "limit_price must be greater than 0",
    )
    fails(
        session,
        "create_order",
        {"product_id": "BTC-USD", "side": "SELL", "order_type": "MARKET", "base_size": 0},
        "invalid_arguments",
        "base_size must be greater than 0",
    )
    for name in ("", "   ", "n" * 101):
        fails(
            session,
            "create_address",
            {"account_id": ACC["BTC"], "name": name},
            "invalid_arguments",
            "name must be 1 to 100 characters",
        )
    made = ok(session, "create_address", {"account_id": ACC["BTC"], "name": "  Cold storage  "})
    assert made["name"] == "Cold storage"
