"""The Plaid environment's tools on the real seed: the team's API keys and other teams' tokens, Items in
ITEM_LOGIN_REQUIRED refusing data reads until Link's update mode (one-use, four-hour Link tokens), institutions that
are DOWN refusing real-time balances, Auth only for checking and savings and only with the product, transactions/sync
cursors (full history, paging, saved cursors, modified and removed, another Item's cursor), Transfer authorization
decisions (approved, NSF, RISK, TRANSFER_LIMIT_REACHED, user_action_required) and their shape rules, transfers that
need an approved, unused authorization of the same account and amount, credits limited by the ledger, cancelling only
pending transfers, the Sandbox state machine with its ledger effects, and removing Items. Every failure is checked to
leave the state unchanged, and Plaid's error codes are checked."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("plaid")
CLOCK = datetime(2025, 6, 10, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
KEYS = {"client_id": "5f3a9c1e7b2d4a6f8e0c1b3d", "secret": "7c4e1a9b3d5f2e8a6c0b4d7e9f1a3c"}
OTHER_KEYS = {"client_id": "9b8e7d6c5a4f3e2d1c0b9a88", "secret": "1e2d3c4b5a69788796a5b4c3d2e1f0"}

session = session_fixture(SPEC, CLOCK)


def item(user: str, institution: str) -> dict[str, Any]:
    return next(i for i in SEED["items"] if i["client_user_id"] == user and i["institution_id"] == institution)


def account(item_row: dict[str, Any], subtype: str) -> dict[str, Any]:
    return next(a for a in SEED["accounts"] if a["item_id"] == item_row["item_id"] and a["subtype"] == subtype)


def transfer(user: str, status: str) -> dict[str, Any]:
    items = {i["item_id"] for i in SEED["items"] if i["client_user_id"] == user}
    return next(t for t in SEED["transfers"] if t["item_id"] in items and t["status"] == status)


MARIA = item("usr_1040", "ins_56")  # ITEM_LOGIN_REQUIRED
MARIAH = item("usr_1047", "ins_56")
PRIYA = item("usr_1068", "ins_15")  # Navy Federal is DOWN
AISHA = item("usr_1082", "ins_127989")  # high-risk checking
LUIS = item("usr_1089", "ins_33")  # a card-only Discover Item
MARCUS = item("usr_1117", "ins_5")  # no transfer product
EMILY_LOW = [i for i in SEED["items"] if i["client_user_id"] == "usr_1124"][1]
LEDGERLY = next(i for i in SEED["items"] if i["client_id"] == OTHER_KEYS["client_id"])


def sign_in(session: ToolSession, keys: dict[str, str] = KEYS) -> dict[str, Any]:
    return ok(session, "sign_in", keys, caller="user")


def code(outcome: Any) -> str:
    """The error_code of a failed call's Plaid error body."""
    text = outcome.error
    return json.loads(text[text.index("{") :])["error_code"]


def authorize(session: ToolSession, item_row: dict[str, Any], amount: str, kind: str = "debit", **extra: Any) -> dict:
    checking = account(item_row, "checking")
    args = {"access_token": item_row["access_token"], "account_id": checking["account_id"], "type": kind,
            "network": "ach", "amount": amount, "legal_name": "Test Person", "ach_class": "ppd", **extra}  # fmt: skip
    return ok(session, "transfer_authorization_create", args)


def create(session: ToolSession, item_row: dict[str, Any], auth: dict[str, Any], **over: Any) -> dict[str, Any]:
    proposed = auth["proposed_transfer"]
    args = {"access_token": item_row["access_token"], "account_id": proposed["account_id"],
            "authorization_id": auth["id"], "amount": proposed["amount"], "description": "Bill pay"}  # fmt: skip
    return ok(session, "transfer_create", {**args, **over})


def ledger(session: ToolSession) -> tuple[str, str]:
    out = ok(session, "transfer_ledger_get")
    return out["available"], out["pending"]


# ---------------------------------------------------------------- keys and tokens


def test_calls_need_the_teams_keys(session):
    out = fails(session, "search_end_users", {"query": "Lopez"}, "PermissionDenied", "INVALID_API_KEYS")
    assert code(out) == "INVALID_API_KEYS"
    bad = {**KEYS, "secret": "0" * 30}
    assert (
        code(fails(session, "sign_in", bad, "InvalidRequest", "invalid client_id", caller="user")) == "INVALID_API_KEYS"
    )
    assert sign_in(session)["company_name"] == "Pennyworth"


def test_another_teams_tokens_and_users_are_invisible(session):
    sign_in(session)
    out = fails(session, "item_get", {"access_token": LEDGERLY["access_token"]}, "InvalidRequest", "access token")
    assert code(out) == "INVALID_ACCESS_TOKEN"
    other_user = next(u for u in SEED["end_users"] if u["client_id"] == OTHER_KEYS["client_id"])
    assert ok(session, "search_end_users", {"query": other_user["email"]}) == []
    missing = "00000000-0000-4000-8000-000000000000"
    assert (
        code(fails(session, "transfer_get", {"transfer_id": missing}, "NotFound", "not found")) == "TRANSFER_NOT_FOUND"
    )


def test_search_finds_near_namesakes_with_their_items(session):
    sign_in(session)
    found = ok(session, "search_end_users", {"query": "Lopez"})
    assert [u["legal_name"] for u in found] == ["Maria Lopez", "Mariah Lopez"]
    statuses = {i["institution_name"]: i["status"] for i in found[0]["items"]}
    assert statuses == {"Chase": "ITEM_LOGIN_REQUIRED", "Discover": "good"}


# ---------------------------------------------------------------- Item errors and Link update mode


def test_an_item_needing_login_refuses_reads_until_update_mode(session):
    sign_in(session)
    token = MARIA["access_token"]
    assert ok(session, "item_get", {"access_token": token})["error"]["error_code"] == "ITEM_LOGIN_REQUIRED"
    for name, args in [("accounts_get", {}), ("accounts_balance_get", {}), ("auth_get", {}), ("transactions_sync", {})]:
        assert (
            code(fails(session, name, {"access_token": token, **args}, "Conflict", "update mode"))
            == "ITEM_LOGIN_REQUIRED"
        )
    wrong = {"client_user_id": "usr_1047", "access_token": token}
    assert code(fails(session, "link_token_create", wrong, "InvalidRequest", "client_user_id")) == "INVALID_FIELD"
    link = ok(session, "link_token_create", {"client_user_id": "usr_1040", "access_token": token})
    assert link["expiration"] > "2025-06-10T18:59:00Z"
    assert ok(session, "open_link", {"link_token": link["link_token"]}, caller="user")["status"] == "good"
    assert ok(session, "item_get", {"access_token": token})["error"] is None
    assert len(ok(session, "accounts_get", {"access_token": token})["accounts"]) == 3
    again = fails(
        session, "open_link", {"link_token": link["link_token"]}, "InvalidRequest", "expired or invalid", caller="user"
    )
    assert code(again) == "INVALID_LINK_TOKEN"


def test_an_expired_link_token_is_refused(session):
    def add_old_token(tables: dict[str, list[dict[str, Any]]]) -> None:
        tables["link_tokens"].append({"link_token": "link-sandbox-11111111-2222-4333-8444-555555555555",
            "client_id": KEYS["client_id"], "client_user_id": "usr_1040", "item_id": MARIA["item_id"],
            "expiration": "2025-06-10T14:00:00Z", "used": False})  # fmt: skip

    restore_seed_with(session, add_old_token, CLOCK)
    sign_in(session)
    args = {"link_token": "link-sandbox-11111111-2222-4333-8444-555555555555"}
    fails(session, "open_link", args, "InvalidRequest", "INVALID_LINK_TOKEN", caller="user")


def test_sandbox_reset_login_breaks_a_healthy_item(session):
    sign_in(session)
    out = ok(session, "sandbox_item_reset_login", {"access_token": MARIAH["access_token"]})
    assert out["error"]["error_code"] == "ITEM_LOGIN_REQUIRED"
    fails(session, "accounts_get", {"access_token": MARIAH["access_token"]}, "Conflict", "ITEM_LOGIN_REQUIRED")


def test_a_down_institution_refuses_real_time_balances_but_not_cached_ones(session):
    sign_in(session)
    token = PRIYA["access_token"]
    out = fails(session, "accounts_balance_get", {"access_token": token}, "Conflict", "not currently responding")
    assert code(out) == "INSTITUTION_DOWN"
    cached = ok(session, "accounts_get", {"access_token": token})
    checking = account(PRIYA, "checking")
    assert [a["balances"]["available"] for a in cached["accounts"] if a["subtype"] == "checking"] == [
        checking["available"] / 100
    ]


def test_removing_an_item_ends_its_token(session):
    sign_in(session)
    assert ok(session, "item_remove", {"access_token": LUIS["access_token"]})["removed"] is True
    out = fails(session, "accounts_get", {"access_token": LUIS["access_token"]}, "NotFound", "cannot be found")
    assert code(out) == "ITEM_NOT_FOUND"
    luis = ok(session, "search_end_users", {"query": "Luis Rivera"})[0]
    assert [i["status"] for i in luis["items"]] == ["removed"]


# ---------------------------------------------------------------- Auth and accounts


def test_auth_gives_numbers_for_checking_and_savings_only(session):
    sign_in(session)
    out = ok(session, "auth_get", {"access_token": MARIAH["access_token"]})
    assert {a["subtype"] for a in out["accounts"]} == {"checking", "savings"}
    checking = account(MARIAH, "checking")
    numbers = {n["account_id"]: n for n in out["numbers"]["ach"]}
    assert numbers[checking["account_id"]]["routing"] == checking["routing_number"] == "021000021"
    out = fails(session, "auth_get", {"access_token": LUIS["access_token"]}, "InvalidRequest", "auth product")
    assert code(out) == "PRODUCT_NOT_ENABLED"
    bad = {"access_token": MARIAH["access_token"], "account_ids": ["nope"]}
    assert code(fails(session, "accounts_get", bad, "InvalidRequest", "not on this item")) == "INVALID_ACCOUNT_ID"


def test_institution_search_filters_by_products(session):
    sign_in(session)
    assert [i["name"] for i in ok(session, "institutions_search", {"query": "Discover"})] == ["Discover"]
    assert ok(session, "institutions_search", {"query": "Discover", "products": ["auth"]}) == []
    fails(session, "institutions_get_by_id", {"institution_id": "ins_1"}, "NotFound", "INVALID_INSTITUTION")


# ---------------------------------------------------------------- transactions/sync


def seed_transactions(item_row: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for t in SEED["transactions"] if t["item_id"] == item_row["item_id"]]


def test_a_full_sync_returns_every_live_transaction_and_then_nothing(session):
    sign_in(session)
    token = MARIAH["access_token"]
    out = ok(session, "transactions_sync", {"access_token": token, "cursor": ""})
    live = {t["transaction_id"] for t in seed_transactions(MARIAH) if t["removed_seq"] is None}
    assert {t["transaction_id"] for t in out["added"]} == live
    assert out["modified"] == out["removed"] == [] and out["has_more"] is False
    again = ok(session, "transactions_sync", {"access_token": token, "cursor": out["next_cursor"]})
    assert again["added"] == again["modified"] == again["removed"] == []


def test_paging_with_count_gives_the_same_transactions(session):
    sign_in(session)
    token, cursor, seen, pages = MARIAH["access_token"], "", [], 0
    while True:
        out = ok(session, "transactions_sync", {"access_token": token, "cursor": cursor, "count": 4})
        assert len(out["added"]) + len(out["modified"]) + len(out["removed"]) <= 4
        seen = [t for t in seen if t not in {r["transaction_id"] for r in out["removed"]}]
        seen += [t["transaction_id"] for t in out["added"] if t["transaction_id"] not in seen]
        cursor, pages = out["next_cursor"], pages + 1
        if not out["has_more"]:
            break
    full = ok(session, "transactions_sync", {"access_token": token, "cursor": ""})
    assert sorted(seen) == sorted(t["transaction_id"] for t in full["added"]) and pages > 2


def test_the_saved_cursor_brings_only_later_changes_with_modified_and_removed(session):
    sign_in(session)
    out = ok(session, "transactions_sync", {"access_token": MARIAH["access_token"], "cursor": MARIAH["saved_cursor"]})
    after = int(__import__("base64").urlsafe_b64decode(MARIAH["saved_cursor"] + "==").decode().rsplit(":", 1)[1])
    rows = seed_transactions(MARIAH)
    assert {t["transaction_id"] for t in out["added"]} == {
        t["transaction_id"] for t in rows if t["added_seq"] > after and t["removed_seq"] is None
    }
    assert {t["transaction_id"] for t in out["removed"]} == {
        t["transaction_id"] for t in rows if (t["removed_seq"] or 0) > after and t["added_seq"] <= after
    }
    assert out["removed"] or out["modified"], "the seed's saved cursor should precede a removal or modification"
    posted = [t for t in out["added"] if t["pending_transaction_id"]]
    assert all(p["pending_transaction_id"] in {r["transaction_id"] for r in out["removed"]} for p in posted)


def test_a_cursor_of_another_item_is_refused(session):
    sign_in(session)
    args = {"access_token": MARIAH["access_token"], "cursor": LUIS["saved_cursor"]}
    assert code(fails(session, "transactions_sync", args, "InvalidRequest", "not a valid cursor")) == "INVALID_FIELD"
    fails(
        session,
        "transactions_sync",
        {"access_token": MARIAH["access_token"], "count": 501},
        "invalid_arguments",
        "count",
    )


# ---------------------------------------------------------------- authorizations


def test_authorization_decisions(session):
    sign_in(session)
    assert authorize(session, MARIAH, "100.00")["decision"] == "approved"
    assert authorize(session, MARIAH, "100.00")["decision_rationale"] is None
    over = authorize(session, MARIAH, "2500.01")
    assert (over["decision"], over["decision_rationale"]["code"]) == ("declined", "TRANSFER_LIMIT_REACHED")
    risky = authorize(session, AISHA, "10.00")
    assert (risky["decision"], risky["decision_rationale"]["code"]) == ("declined", "RISK")
    nsf = authorize(session, EMILY_LOW, "1200.00")
    assert (nsf["decision"], nsf["decision_rationale"]["code"]) == ("declined", "NSF")
    assert authorize(session, EMILY_LOW, "800.00")["decision"] == "approved"
    login = authorize(session, MARIA, "10.00")
    assert (login["decision"], login["decision_rationale"]["code"]) == ("user_action_required", "ITEM_LOGIN_REQUIRED")
    credit = authorize(session, MARIAH, "5000.01", kind="credit")
    assert credit["decision_rationale"]["code"] == "TRANSFER_LIMIT_REACHED"


def test_authorization_shape_rules(session):
    sign_in(session)
    checking = account(MARIAH, "checking")["account_id"]
    card = account(item("usr_1040", "ins_56"), "credit card")["account_id"]
    base = {"access_token": MARIAH["access_token"], "account_id": checking, "type": "debit", "network": "ach",
            "amount": "10.00", "legal_name": "Mariah Lopez"}  # fmt: skip
    assert (
        code(fails(session, "transfer_authorization_create", base, "InvalidRequest", "ach_class")) == "MISSING_FIELDS"
    )
    rtp = {**base, "network": "rtp"}
    assert (
        code(fails(session, "transfer_authorization_create", rtp, "InvalidRequest", "credits only")) == "INVALID_FIELD"
    )
    fails(
        session,
        "transfer_authorization_create",
        {**base, "amount": "0.00", "ach_class": "ppd"},
        "invalid_arguments",
        "amount",
    )
    fails(
        session,
        "transfer_authorization_create",
        {**base, "amount": "10.5", "ach_class": "ppd"},
        "invalid_arguments",
        "amount",
    )
    unfixed = {**base, "access_token": MARIA["access_token"], "account_id": card, "ach_class": "ppd"}
    out = fails(session, "transfer_authorization_create", unfixed, "InvalidRequest", "checking and savings")
    assert code(out) == "TRANSFER_UNSUPPORTED_ACCOUNT_TYPE"
    marcus = {**base, "access_token": MARCUS["access_token"], "account_id": account(MARCUS, "checking")["account_id"]}
    fails(
        session,
        "transfer_authorization_create",
        {**marcus, "ach_class": "ppd"},
        "InvalidRequest",
        "PRODUCT_NOT_ENABLED",
    )


# ---------------------------------------------------------------- transfers


def test_a_transfer_needs_its_approved_authorization_once(session):
    sign_in(session)
    auth = authorize(session, MARIAH, "100.00")
    base = {"access_token": MARIAH["access_token"], "account_id": auth["proposed_transfer"]["account_id"],
            "authorization_id": auth["id"], "amount": "100.00", "description": "Bill pay"}  # fmt: skip
    assert (
        code(fails(session, "transfer_create", {**base, "amount": "99.99"}, "InvalidRequest", "amount"))
        == "INVALID_FIELD"
    )
    savings = account(MARIAH, "savings")["account_id"]
    fails(session, "transfer_create", {**base, "account_id": savings}, "InvalidRequest", "account_id does not match")
    fails(
        session, "transfer_create", {**base, "description": "Pennyworth bill pay"}, "invalid_arguments", "description"
    )
    before = ledger(session)
    made = create(session, MARIAH, auth)
    assert (made["status"], made["cancellable"], made["amount"]) == ("pending", True, "100.00")
    assert ledger(session) == (before[0], f"{float(before[1]) + 100:.2f}")
    assert code(fails(session, "transfer_create", base, "Conflict", "already used")) == "TRANSFER_AUTHORIZATION_USED"
    declined = authorize(session, MARIAH, "3000.00")
    out = fails(
        session,
        "transfer_create",
        {**base, "authorization_id": declined["id"], "amount": "3000.00"},
        "InvalidRequest",
        "declined",
    )
    assert code(out) == "TRANSFER_AUTHORIZATION_NOT_APPROVED"


def test_a_credit_needs_the_ledgers_available_balance(session):
    def empty_ledger(tables: dict[str, list[dict[str, Any]]]) -> None:
        tables["clients"][0]["ledger_available"] = 5000

    restore_seed_with(session, empty_ledger, CLOCK)
    sign_in(session)
    auth = authorize(session, MARIAH, "60.00", kind="credit")
    assert auth["decision"] == "approved"
    base = {"access_token": MARIAH["access_token"], "account_id": auth["proposed_transfer"]["account_id"],
            "authorization_id": auth["id"], "amount": "60.00", "description": "Refund"}  # fmt: skip
    assert code(fails(session, "transfer_create", base, "Conflict", "Ledger")) == "INSUFFICIENT_FUNDS"
    small = authorize(session, MARIAH, "50.00", kind="credit")
    create(session, MARIAH, small, description="Refund")
    assert ledger(session)[0] == "0.00"


def test_only_pending_transfers_cancel_and_cancelling_restores_the_ledger(session):
    sign_in(session)
    settled = transfer("usr_1047", "settled")["id"]
    out = fails(session, "transfer_cancel", {"transfer_id": settled}, "Conflict", "cannot be cancelled")
    assert code(out) == "TRANSFER_NOT_CANCELLABLE"
    before = ledger(session)
    credit = create(session, MARIAH, authorize(session, MARIAH, "40.00", kind="credit"), description="Refund")
    assert ledger(session)[0] == f"{float(before[0]) - 40:.2f}"
    assert ok(session, "transfer_cancel", {"transfer_id": credit["id"]})["status"] == "cancelled"
    pending_debit = transfer("usr_1047", "pending")
    ok(session, "transfer_cancel", {"transfer_id": pending_debit["id"]})
    assert ledger(session) == (before[0], f"{float(before[1]) - pending_debit['amount'] / 100:.2f}")
    events = ok(session, "transfer_event_list", {"transfer_id": credit["id"]})["transfer_events"]
    assert [e["event_type"] for e in events] == ["pending", "cancelled"]


def test_the_sandbox_state_machine_and_its_ledger_effects(session):
    sign_in(session)
    before = ledger(session)
    debit = create(session, MARIAH, authorize(session, MARIAH, "200.00"))
    simulate = lambda event, **extra: ok(  # noqa: E731
        session, "sandbox_transfer_simulate", {"transfer_id": debit["id"], "event_type": event, **extra}
    )
    bad = {"transfer_id": debit["id"], "event_type": "settled"}
    fails(session, "sandbox_transfer_simulate", bad, "InvalidRequest", "cannot simulate settled")
    assert simulate("posted")["cancellable"] is False
    fails(session, "transfer_cancel", {"transfer_id": debit["id"]}, "Conflict", "TRANSFER_NOT_CANCELLABLE")
    simulate("settled")
    assert ledger(session) == (f"{float(before[0]) + 200:.2f}", before[1])
    returned = simulate("returned", failure_reason="R10")
    assert (returned["status"], returned["failure_reason"]) == ("returned", "R10: Customer advises not authorized")
    assert ledger(session) == before
    credit = create(session, MARIAH, authorize(session, MARIAH, "70.00", kind="credit"), description="Refund")
    failed = ok(session, "sandbox_transfer_simulate", {"transfer_id": credit["id"], "event_type": "failed"})
    assert failed["failure_reason"] == "R01: Insufficient funds" and ledger(session) == before
    kinds = ok(session, "transfer_event_list", {"account_id": debit["account_id"], "event_types": ["returned"]})
    assert [e["transfer_id"] for e in kinds["transfer_events"]] == [debit["id"]]


def test_transfer_list_is_newest_first_and_windowed(session):
    sign_in(session)
    all_ = ok(session, "transfer_list", {})["transfers"]
    assert [t["created"] for t in all_] == sorted((t["created"] for t in all_), reverse=True)
    recent = ok(session, "transfer_list", {"start_date": "2025-06-09T00:00:00Z"})["transfers"]
    assert {t["status"] for t in recent} == {"pending"}
    assert len(ok(session, "transfer_list", {"count": 2, "offset": 1})["transfers"]) == 2
