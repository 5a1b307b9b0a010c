"""The Monzo environment's tools: pots, overdraft, daily transfer limit, strong customer authentication, cards and
annotations, with every error path leaving the state unchanged. Runs the real tools on the real seed."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("monzo")
CLOCK = datetime(2025, 5, 16, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
PERSONAL = next(a["id"] for a in SEED["accounts"] if a["type"] == "uk_retail")
JOINT = next(a["id"] for a in SEED["accounts"] if a["type"] == "uk_retail_joint")
PREPAID = next(a["id"] for a in SEED["accounts"] if a["type"] == "uk_prepaid")


def pot(name: str) -> str:
    return next(p["id"] for p in SEED["pots"] if p["name"] == name)


def card(last: str) -> str:
    return next(c["id"] for c in SEED["cards"] if c["last_digits"] == last)


def payee(name: str) -> str:
    return next(p["id"] for p in SEED["payees"] if p["name"] == name)


session = session_fixture(SPEC, CLOCK)


def balance(session: ToolSession, account: str = PERSONAL) -> int:
    return ok(session, "get_balance", {"account_id": account})["balance"]


def pay(
    session: ToolSession, who: str, amount: int, account: str = PERSONAL, dedupe: str = "d1", reference: str = "TEST"
) -> dict:
    return ok(
        session,
        "make_faster_payment",
        {"account_id": account, "payee_id": payee(who), "amount": amount, "reference": reference, "dedupe_id": dedupe},
    )


# ---------------------------------------------------------------- interface, accounts, balance


def test_tools_and_the_in_app_approval_is_user_only(session):
    assert len(SPEC.tools) == 19
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["approve_in_app"]
    assert SPEC.tools["list_accounts"].input_schema["properties"] == {}
    outcome = session.call("approve_in_app", {"payee_name": "Leeds Climbing Club", "amount": 32000})
    assert not outcome.ok and outcome.error_kind == "user_only"


def test_accounts_and_balance(session):
    accounts = ok(session, "list_accounts", {})
    assert [(a["type"], a["closed"]) for a in accounts] == [
        ("uk_prepaid", True),
        ("uk_retail", False),
        ("uk_retail_joint", False),
    ]
    assert [o["preferred_name"] for o in accounts[2]["owners"]] == ["Alex Morgan", "Sam Patel"]
    result = ok(session, "get_balance", {"account_id": PERSONAL})
    in_pots = sum(p["balance"] for p in SEED["pots"] if p["current_account_id"] == PERSONAL and not p["deleted"])
    assert result["total_balance"] == result["balance"] + in_pots
    assert result["spend_today"] == -(435 + 280)
    assert ok(session, "get_balance", {"account_id": JOINT})["spend_today"] == -200000


# ---------------------------------------------------------------- pots


def test_deposit_moves_money_once_per_dedupe_id(session):
    start = balance(session)
    args = {"pot_id": pot("Lisbon Trip"), "source_account_id": PERSONAL, "amount": 15000, "dedupe_id": "x"}
    assert ok(session, "deposit_into_pot", args)["balance"] == 20000 + 15000
    assert ok(session, "deposit_into_pot", args)["balance"] == 35000
    assert balance(session) == start - 15000
    seeded = {t["id"] for t in SEED["transactions"]}
    moves = [t for key, t in session.dump()["transactions"].items() if key not in seeded]
    assert len(moves) == 1 and (moves[0]["amount"], moves[0]["pot_id"]) == (-15000, pot("Lisbon Trip"))
    assert moves[0]["scheme"] == "uk_retail_pot" and moves[0]["include_in_spending"] is False
    assert ok(session, "get_balance", {"account_id": PERSONAL})["spend_today"] == -(435 + 280)


def test_overdraft_money_cannot_go_into_a_pot(session):
    fails(
        session,
        "deposit_into_pot",
        {"pot_id": pot("Rainy Day"), "source_account_id": PERSONAL, "amount": 84238, "dedupe_id": "y"},
        "Conflict",
        "overdraft can't be moved",
    )
    fails(
        session,
        "deposit_into_pot",
        {"pot_id": pot("Rainy Day"), "source_account_id": JOINT, "amount": 100, "dedupe_id": "y"},
        "InvalidRequest",
        "current account",
    )
    fails(
        session,
        "deposit_into_pot",
        {"pot_id": pot("Christmas 2024"), "source_account_id": PERSONAL, "amount": 100, "dedupe_id": "y"},
        "NotFound",
        "Pot",
    )


def test_locked_pot_opens_only_after_its_date(session):
    args = {"pot_id": pot("House Deposit"), "destination_account_id": PERSONAL, "amount": 100, "dedupe_id": "z"}
    fails(session, "withdraw_from_pot", args, "PermissionDenied", "locked until 2026-01-01")
    deposit = {"pot_id": pot("House Deposit"), "source_account_id": PERSONAL, "amount": 100, "dedupe_id": "in"}
    assert ok(session, "deposit_into_pot", deposit)["balance"] == 850100  # deposits into a locked pot are fine
    session.reset("seed", datetime(2026, 1, 2, 9, 0, tzinfo=timezone.utc))
    assert ok(session, "withdraw_from_pot", args)["balance"] == 850000 - 100


def test_withdraw_limits_and_delete_rules(session):
    fails(
        session,
        "withdraw_from_pot",
        {"pot_id": pot("Bills"), "destination_account_id": PERSONAL, "amount": 15001, "dedupe_id": "w"},
        "Conflict",
        "only holds £150.00",
    )
    fails(session, "delete_pot", {"pot_id": pot("Bills")}, "Conflict", "Move the £150.00")
    fails(session, "delete_pot", {"pot_id": pot("House Deposit")}, "PermissionDenied", "locked")
    ok(
        session,
        "withdraw_from_pot",
        {"pot_id": pot("Bills"), "destination_account_id": PERSONAL, "amount": 15000, "dedupe_id": "w"},
    )
    assert ok(session, "delete_pot", {"pot_id": pot("Bills")})["deleted"] is True
    fails(session, "update_pot", {"pot_id": pot("Bills"), "name": "Again"}, "NotFound", "Pot")


def test_round_ups_go_to_one_pot(session):
    new = ok(session, "create_pot", {"current_account_id": PERSONAL, "name": "Japan 2026", "goal_amount": 350000})
    assert (new["balance"], new["round_up"], new["type"]) == (0, False, "flexible_savings")
    ok(session, "update_pot", {"pot_id": new["id"], "round_up": True})
    pots = {p["name"]: p for p in ok(session, "list_pots", {"current_account_id": PERSONAL})}
    assert pots["Japan 2026"]["round_up"] is True and pots["Rainy Day"]["round_up"] is False
    joint = {p["name"]: p for p in ok(session, "list_pots", {"current_account_id": JOINT})}
    assert joint["Wedding Fund"]["round_up"] is True
    fails(session, "update_pot", {"pot_id": new["id"]}, "InvalidRequest", "Nothing to update")


def test_pot_creation_rules(session):
    fails(session, "create_pot", {"current_account_id": PERSONAL, "name": "x" * 41}, "invalid_arguments", "1 to 40")
    fails(session, "create_pot", {"current_account_id": PREPAID, "name": "Old"}, "Conflict", "closed")
    fails(
        session,
        "create_pot",
        {"current_account_id": PERSONAL, "name": "Goal", "goal_amount": 0},
        "invalid_arguments",
        "goal_amount",
    )


# ---------------------------------------------------------------- transactions, feed, cards


def test_list_transactions_filters_in_ascending_order(session):
    page = ok(session, "list_transactions", {"account_id": PERSONAL, "since": "2025-05-15", "before": "2025-05-16"})
    created = [t["created"] for t in page["results"]]
    assert created == sorted(created) and all(c.startswith("2025-05-15") for c in created)
    declined = [t for t in page["results"] if t["decline_reason"]]
    assert [(t["merchant"]["name"], t["decline_reason"]) for t in declined] == [("Tesco", "CARD_INACTIVE")]
    first = ok(session, "list_transactions", {"account_id": PERSONAL, "limit": 10})
    assert len(first["results"]) == 10 and first["has_more"]
    fails(
        session, "list_transactions", {"account_id": PERSONAL, "since": "15/05/2025"}, "invalid_arguments", "RFC 3339"
    )


def test_annotate_transaction(session):
    tx = next(
        t
        for t in SEED["transactions"]
        if t["account_id"] == PERSONAL and t["scheme"] == "mastercard" and t["decline_reason"] is None
    )
    result = ok(
        session, "annotate_transaction", {"transaction_id": tx["id"], "notes": "Team lunch", "category": "expenses"}
    )
    assert (result["notes"], result["category"]) == ("Team lunch", "expenses")
    assert session.dump()["transactions"][tx["id"]]["category"] == "expenses"
    pot_move = next(t for t in SEED["transactions"] if t["scheme"] == "uk_retail_pot")
    fails(
        session,
        "annotate_transaction",
        {"transaction_id": pot_move["id"], "category": "bills"},
        "InvalidRequest",
        "Pot transfers",
    )
    fails(session, "annotate_transaction", {"transaction_id": tx["id"]}, "InvalidRequest", "Nothing to update")
    assert not session.call("annotate_transaction", {"transaction_id": tx["id"], "category": "pets"}).ok


def test_feed_items(session):
    item = ok(session, "create_feed_item", {"account_id": PERSONAL, "title": "Claim tickets", "body": "£123.10"})
    assert (item["type"], item["image_url"].startswith("https://")) == ("basic", True)
    fails(
        session,
        "create_feed_item",
        {"account_id": PERSONAL, "title": "x", "background_color": "red"},
        "invalid_arguments",
        "hex colour",
    )
    fails(session, "create_feed_item", {"account_id": PREPAID, "title": "x"}, "Conflict", "closed")
    fails(session, "create_feed_item", {"account_id": PERSONAL, "title": " "}, "invalid_arguments", "title")


def test_freeze_and_unfreeze_cards(session):
    assert ok(session, "freeze_card", {"card_id": card("4821"), "frozen": True})["status"] == "INACTIVE"
    fails(session, "freeze_card", {"card_id": card("4821"), "frozen": True}, "Conflict", "already frozen")
    assert ok(session, "freeze_card", {"card_id": card("7310"), "frozen": False})["status"] == "ACTIVE"
    fails(session, "freeze_card", {"card_id": card("1150"), "frozen": False}, "Conflict", "cancelled")


# ---------------------------------------------------------------- payees and payments


def test_payee_rules(session):
    new = ok(
        session,
        "create_payee",
        {"account_id": PERSONAL, "name": "Jo Walsh", "sort_code": "20-45-77", "account_number": "53184427"},
    )
    assert new["sort_code"] == "204577"
    fails(
        session,
        "create_payee",
        {"account_id": PERSONAL, "name": "Jo", "sort_code": "204577", "account_number": "53184427"},
        "Conflict",
        "Jo Walsh",
    )
    fails(
        session,
        "create_payee",
        {"account_id": PERSONAL, "name": "A", "sort_code": "2045", "account_number": "53184427"},
        "invalid_arguments",
        "sort_code",
    )
    fails(
        session,
        "create_payee",
        {"account_id": PERSONAL, "name": "A", "sort_code": "204578", "account_number": "5318442"},
        "invalid_arguments",
        "8 digits",
    )
    fails(session, "delete_payee", {"payee_id": payee("Leeds Climbing Club")}, "Conflict", "waiting for approval")
    ok(session, "delete_payee", {"payee_id": payee("Reilly Property Mgmt")})
    assert payee("Reilly Property Mgmt") not in session.dump()["payees"]


def test_payment_to_a_known_payee_completes_at_once(session):
    start = balance(session)
    payment = pay(session, "Jamie Clarke", 2450, reference="GIG TICKETS")
    assert payment["status"] == "completed"
    tx = session.dump()["transactions"][payment["transaction_id"]]
    assert (tx["amount"], tx["description"], tx["scheme"]) == (-2450, "GIG TICKETS", "payport_faster_payments")
    assert tx["counterparty"]["name"] == "Jamie Clarke"
    assert balance(session) == start - 2450
    assert pay(session, "Jamie Clarke", 2450, reference="GIG TICKETS")["id"] == payment["id"]  # same dedupe_id
    assert balance(session) == start - 2450


def test_first_payment_and_large_payments_need_approval_in_app(session):
    start = balance(session)
    first = pay(session, "Ellie Morgan", 3000, dedupe="e")
    large = pay(session, "Jamie Clarke", 25000, dedupe="j")
    assert (first["status"], large["status"]) == ("pending_approval", "pending_approval")
    assert balance(session) == start
    approved = ok(session, "approve_in_app", {"payee_name": "ellie morgan", "amount": 3000}, caller="user")
    assert approved["status"] == "completed" and balance(session) == start - 3000
    declined = ok(
        session, "approve_in_app", {"payee_name": "Jamie Clarke", "amount": 25000, "approve": False}, caller="user"
    )
    assert declined["status"] == "declined" and declined["transaction_id"] is None
    assert balance(session) == start - 3000
    assert not session.call("approve_in_app", {"payee_name": "Jamie Clarke", "amount": 25000}, caller="user").ok


def test_overdraft_is_usable_but_never_exceeded(session):
    fails(
        session,
        "make_faster_payment",
        {
            "account_id": PERSONAL,
            "payee_id": payee("Jamie Clarke"),
            "amount": 84237 + 50001,
            "reference": "X",
            "dedupe_id": "o",
        },
        "Conflict",
        "Insufficient funds: £1,342.37 available including your £500.00 overdraft",
    )
    pay(session, "Greenway Lettings", 115000, reference="RENT")
    ok(session, "approve_in_app", {"payee_name": "Greenway Lettings", "amount": 115000}, caller="user")
    assert balance(session) == 84237 - 115000


def test_daily_transfer_limit(session):
    fails(
        session,
        "make_faster_payment",
        {
            "account_id": JOINT,
            "payee_id": payee("Crystal Clear Windows"),
            "amount": 50001,
            "reference": "X",
            "dedupe_id": "l",
        },
        "Conflict",
        "daily transfer limit of £2,500.00 (£500.00 left today)",
    )
    pay(session, "Hackney Plumbing Co", 45000, account=JOINT, dedupe="p")  # pending payments count too
    fails(
        session,
        "make_faster_payment",
        {
            "account_id": JOINT,
            "payee_id": payee("Crystal Clear Windows"),
            "amount": 5001,
            "reference": "X",
            "dedupe_id": "l",
        },
        "Conflict",
        "£50.00 left today",
    )
    session.reset("seed", datetime(2025, 5, 17, 9, 0, tzinfo=timezone.utc))
    assert pay(session, "Crystal Clear Windows", 50001, account=JOINT)["status"] == "pending_approval"


def test_payment_argument_rules(session):
    base = {"account_id": PERSONAL, "payee_id": payee("Jamie Clarke"), "amount": 100, "dedupe_id": "r"}
    fails(session, "make_faster_payment", {**base, "reference": "A REFERENCE TOO LONG"}, "invalid_arguments", "18")
    fails(
        session,
        "make_faster_payment",
        {**base, "reference": "OK", "payee_id": payee("Oakwood Builders")},
        "InvalidRequest",
        "another account",
    )
    fails(session, "make_faster_payment", {**base, "reference": "OK", "amount": 0}, "invalid_arguments", "positive")
    fails(session, "make_faster_payment", {**base, "reference": "OK", "account_id": PREPAID}, "Conflict", "closed")


# ---------------------------------------------------------------- bounds in the argument types (version 2)


def test_bounds_are_in_the_schema_the_model_sees():
    tools = SPEC.tools
    assert tools["deposit_into_pot"].input_schema["properties"]["amount"]["minimum"] == 1
    assert tools["create_pot"].input_schema["properties"]["name"]["maxLength"] == 40
    assert tools["list_transactions"].input_schema["properties"]["limit"]["maximum"] == 100
    reference = tools["make_faster_payment"].input_schema["properties"]["reference"]
    assert "18" in reference["pattern"]
    assert tools["create_payee"].input_schema["properties"]["account_number"]["pattern"] == r"^\d{8}$"


def test_values_the_types_refuse_keep_monzos_wording_and_change_nothing(session):
    tx = next(t for t in SEED["transactions"] if t["account_id"] == PERSONAL and t["scheme"] == "mastercard")
    fails(session, "annotate_transaction", {"transaction_id": tx["id"], "notes": "x" * 501}, "invalid_arguments", "500")
    assert ok(session, "annotate_transaction", {"transaction_id": tx["id"], "notes": ""})["notes"] == ""
    for tool, args in (
        ("deposit_into_pot", {"pot_id": pot("Bills"), "source_account_id": PERSONAL, "dedupe_id": "a"}),
        ("withdraw_from_pot", {"pot_id": pot("Bills"), "destination_account_id": PERSONAL, "dedupe_id": "a"}),
        ("approve_in_app", {"payee_name": "Leeds Climbing Club"}),
    ):
        caller = "user" if tool == "approve_in_app" else "agent"
        fails(session, tool, {**args, "amount": 0}, "invalid_arguments", "positive", caller=caller)
    fails(session, "update_pot", {"pot_id": pot("Bills"), "name": "   "}, "invalid_arguments", "1 to 40")
    fails(session, "update_pot", {"pot_id": pot("Bills"), "goal_amount": -5}, "invalid_arguments", "positive")
    fails(
        session,
        "create_feed_item",
        {"account_id": PERSONAL, "title": "x", "image_url": "http://example.com/a.png"},
        "invalid_arguments",
        "https",
    )
    payee_args = {"account_id": PERSONAL, "name": "Jo", "sort_code": "20 45 77", "account_number": "53184427"}
    fails(session, "create_payee", {**payee_args, "name": " "}, "invalid_arguments", "1 to 40")
    fails(session, "create_payee", {**payee_args, "default_reference": "RENT £"}, "invalid_arguments", "reference")
    assert ok(session, "create_payee", payee_args)["sort_code"] == "204577"
    fails(session, "list_transactions", {"account_id": PERSONAL, "limit": 101}, "invalid_arguments", "limit")
    fails(session, "list_transactions", {"account_id": PERSONAL, "since": "2025-02-30"}, "InvalidRequest", "since")


def test_since_and_before_take_timestamps_as_well_as_dates(session):
    page = ok(
        session,
        "list_transactions",
        {"account_id": PERSONAL, "since": "2025-05-15T12:00:00Z", "before": "2025-05-16"},
    )
    created = [t["created"] for t in page["results"]]
    expected = sorted(
        t["created"]
        for t in SEED["transactions"]
        if t["account_id"] == PERSONAL and "2025-05-15T12:00:00Z" <= t["created"] < "2025-05-16T00:00:00Z"
    )
    assert created == expected and created
    second = ok(session, "list_transactions", {"account_id": PERSONAL, "limit": 10, "cursor": "10"})
    everything = ok(session, "list_transactions", {"account_id": PERSONAL, "limit": 20})
    assert [t["id"] for t in second["results"]] == [t["id"] for t in everything["results"][10:]]
    assert all(t["merchant"] is None or t["merchant"]["id"].startswith("merch_") for t in everything["results"])


def test_round_ups_move_to_one_pot_per_account(session):
    ok(session, "update_pot", {"pot_id": pot("Bills"), "round_up": True})
    mine = {p["name"]: p["round_up"] for p in ok(session, "list_pots", {"current_account_id": PERSONAL})}
    assert [name for name, on in mine.items() if on] == ["Bills"]
    ok(session, "update_pot", {"pot_id": pot("Bills"), "round_up": True})  # again: still the one pot
    mine = {p["name"]: p["round_up"] for p in ok(session, "list_pots", {"current_account_id": PERSONAL})}
    assert [name for name, on in mine.items() if on] == ["Bills"]
