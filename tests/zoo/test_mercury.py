"""The Mercury environment's tools on the real seed: sign-in and role permissions (admins, custom users with and
without Move Money, bookkeepers, employees, disabled users), payments only from active checking accounts with the
recipient's routing info for the method and enough available balance, the daily payment limit and send money requests
(one other admin for an admin's request, two for anyone else's, never the requester, never twice), cancelling pending
ACH and checks but not wires, idempotent retries, internal and Treasury transfers, ABA routing check digits and
duplicate recipients, deleting recipients with waiting requests, and statements. Every error path is checked to leave
the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from types import SimpleNamespace
from typing import Any

from envfactory_gym import ToolSession, resolve

from . import toolkit
from .toolkit import fails, session_fixture

SPEC = resolve("mercury")
CLOCK = datetime(2026, 3, 16, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, CLOCK)


def _attrs(value: Any) -> Any:
    """Tool outputs (dicts) with attribute access, for readable assertions."""
    if isinstance(value, dict):
        return SimpleNamespace(**{k: _attrs(v) for k, v in value.items()})
    if isinstance(value, list):
        return [_attrs(v) for v in value]
    return value


def ok(session: ToolSession, name: str, args: dict[str, Any] | None = None, caller: str = "agent") -> Any:
    return _attrs(toolkit.ok(session, name, args, caller))


def user(first: str) -> dict[str, Any]:
    return next(u for u in SEED["users"] if u["first_name"] == first)


def acc(name: str) -> str:
    return next(a["id"] for a in SEED["accounts"] if a["name"] == name)


def rec(name: str) -> str:
    return next(r["id"] for r in SEED["recipients"] if r["name"] == name)


def request(recipient: str, status: str = "pendingApproval") -> str:
    return next(
        r["id"] for r in SEED["send_money_requests"] if r["recipient_id"] == rec(recipient) and r["status"] == status
    )


def sign_in(session: ToolSession, first: str) -> None:
    u = user(first)
    ok(session, "sign_in", {"email": u["email"], "password": u["password"]}, caller="user")


def pay(account: str, recipient: str, amount: float, method: str = "ach", **extra: Any) -> dict[str, Any]:
    return {
        "account_id": acc(account),
        "recipient_id": rec(recipient),
        "amount": amount,
        "payment_method": method,
        **extra,
    }


def test_sign_in_required_and_refused_for_wrong_or_disabled_users(session: ToolSession) -> None:
    fails(session, "list_accounts", {}, "PermissionDenied", "sign in to Mercury first")
    dana = user("Dana")
    fails(session, "sign_in", {"email": dana["email"], "password": "nope"}, "PermissionDenied", "wrong email", "user")
    kevin = user("Kevin")
    login = {"email": kevin["email"], "password": kevin["password"]}
    fails(session, "sign_in", login, "PermissionDenied", "disabled", caller="user")


def test_sign_in_is_user_only(session: ToolSession) -> None:
    dana = user("Dana")
    outcome = session.call("sign_in", {"email": dana["email"], "password": dana["password"]})
    assert not outcome.ok


def test_employees_see_no_bank_accounts(session: ToolSession) -> None:
    sign_in(session, "Jamal")
    fails(session, "list_accounts", {}, "PermissionDenied", "employees")
    fails(session, "list_transactions", {}, "PermissionDenied", "employees")


def test_bookkeeper_reads_and_annotates_but_cannot_move_money(session: ToolSession) -> None:
    sign_in(session, "Sofia")
    assert len(ok(session, "list_accounts")) == 5
    assert len(ok(session, "list_accounts", {"include_archived": True})) == 6
    fails(session, "send_money", pay("Ops Checking", "Lumen Fiber", 899), "PermissionDenied", "permission to move")
    fails(
        session,
        "create_internal_transfer",
        {"source_account_id": acc("Ops Checking"), "destination_account_id": acc("Reserve Savings"), "amount": 10},
        "PermissionDenied",
        "move money",
    )
    fails(session, "delete_recipient", {"recipient_id": rec("Lumen Fiber")}, "PermissionDenied", "manage recipients")
    card = ok(session, "list_transactions", {"kind": "debitCardTransaction", "page_size": 1}).results[0]
    note = ok(session, "update_transaction", {"transaction_id": card.id, "note": "Reviewed", "category": "Travel"})
    assert (note.note, note.category) == ("Reviewed", "Travel")
    limits = ok(session, "get_payment_limits")
    assert limits.can_move_money is False


def test_custom_user_without_move_money_is_refused(session: ToolSession) -> None:
    sign_in(session, "Leo")
    fails(session, "request_send_money", pay("Ops Checking", "Lumen Fiber", 899), "PermissionDenied", "move money")


def test_payment_books_pending_and_holds_the_available_balance(session: ToolSession) -> None:
    sign_in(session, "Erin")
    before = ok(session, "get_account", {"account_id": acc("Ops Checking")})
    t = ok(session, "send_money", pay("Ops Checking", "Lumen Fiber", 899, external_memo="March"))
    assert (t.status, t.amount, t.kind, t.estimated_delivery_date) == (
        "pending",
        -899.0,
        "externalTransfer",
        "2026-03-17",
    )
    after = ok(session, "get_account", {"account_id": acc("Ops Checking")})
    assert after.available_balance == round(before.available_balance - 899, 2)
    assert after.current_balance == before.current_balance
    check = ok(session, "send_money", pay("Ops Checking", "Franchise Tax Board", 10, "check"))
    assert (check.kind, check.estimated_delivery_date) == ("outgoingPayment", "2026-03-23")


def test_payments_leave_only_from_active_checking(session: ToolSession) -> None:
    sign_in(session, "Erin")
    fails(session, "send_money", pay("Reserve Savings", "Lumen Fiber", 50), "InvalidRequest", "checking account")
    fails(session, "send_money", pay("Mercury Treasury", "Lumen Fiber", 50), "InvalidRequest", "checking account")
    fails(session, "send_money", pay("Old Operating", "Lumen Fiber", 50), "Conflict", "archived")


def test_recipient_needs_routing_info_for_the_method_and_must_be_active(session: ToolSession) -> None:
    sign_in(session, "Erin")
    fails(session, "send_money", pay("Ops Checking", "Lumen Fiber", 50, "domesticWire"), "InvalidRequest", "wire")
    fails(session, "send_money", pay("Ops Checking", "Lumen Fiber", 50, "check"), "InvalidRequest", "mailing address")
    fails(session, "send_money", pay("Ops Checking", "Franchise Tax Board", 50), "InvalidRequest", "ACH")
    fails(session, "send_money", pay("Ops Checking", "Stellar Freight", 50), "Conflict", "deleted")


def test_amount_must_be_positive_cents(session: ToolSession) -> None:
    sign_in(session, "Erin")
    for bad in (0, -5, 1.005):
        outcome = session.call("send_money", pay("Ops Checking", "Lumen Fiber", bad))
        assert not outcome.ok and "amount" in (outcome.error or "")


def test_insufficient_funds_refused(session: ToolSession) -> None:
    sign_in(session, "Erin")
    fails(
        session,
        "create_internal_transfer",
        {"source_account_id": acc("Tax Savings"), "destination_account_id": acc("Ops Checking"), "amount": 60000.01},
        "Conflict",
        "Insufficient funds",
    )


def test_daily_limit_counts_todays_payments_but_not_transfers(session: ToolSession) -> None:
    sign_in(session, "Priya")
    limits = ok(session, "get_payment_limits")
    assert (limits.sent_today, limits.remaining_today, limits.approvals_required_for_requests) == (18500.0, 6500.0, 2)
    fails(session, "send_money", pay("Ops Checking", "Westbrook Tooling", 6500.01), "Conflict", "daily payment limit")
    ok(
        session,
        "create_internal_transfer",
        {"source_account_id": acc("Reserve Savings"), "destination_account_id": acc("Ops Checking"), "amount": 5000},
    )
    ok(session, "send_money", pay("Ops Checking", "Westbrook Tooling", 6500))
    assert ok(session, "get_payment_limits").remaining_today == 0


def test_cancelled_payment_frees_the_limit_and_balance(session: ToolSession) -> None:
    sign_in(session, "Priya")
    ortiz = ok(session, "list_transactions", {"counterparty_id": rec("Ortiz Fabrication LLC"), "status": "pending"})
    before = ok(session, "get_account", {"account_id": acc("Ops Checking")}).available_balance
    ok(session, "cancel_transaction", {"transaction_id": ortiz.results[0].id})
    assert ok(session, "get_payment_limits").sent_today == 0
    after = ok(session, "get_account", {"account_id": acc("Ops Checking")}).available_balance
    assert after == round(before + 18500, 2)


def test_wires_and_settled_payments_cannot_be_cancelled(session: ToolSession) -> None:
    sign_in(session, "Dana")
    wire = ok(session, "list_transactions", {"counterparty_id": rec("Quantum Sensors Ltd"), "status": "pending"})
    fails(
        session, "cancel_transaction", {"transaction_id": wire.results[0].id}, "Conflict", "Wires cannot be cancelled"
    )
    sent = ok(session, "list_transactions", {"counterparty_id": rec("Harborview Properties"), "status": "sent"})
    fails(session, "cancel_transaction", {"transaction_id": sent.results[0].id}, "Conflict", "only pending")
    card = ok(session, "list_transactions", {"kind": "debitCardTransaction", "page_size": 1}).results[0]
    fails(session, "cancel_transaction", {"transaction_id": card.id}, "InvalidRequest", "Only payments")


def test_custom_user_cannot_cancel_someone_elses_payment(session: ToolSession) -> None:
    sign_in(session, "Priya")
    bl = ok(session, "list_transactions", {"counterparty_id": rec("Brightline Logistics Inc"), "status": "pending"})
    fails(session, "cancel_transaction", {"transaction_id": bl.results[0].id}, "PermissionDenied", "someone else")


def test_idempotency_key_returns_the_first_payment(session: ToolSession) -> None:
    sign_in(session, "Erin")
    first = ok(session, "send_money", pay("Ops Checking", "Lumen Fiber", 899, idempotency_key="lumen-march"))
    again = ok(session, "send_money", pay("Ops Checking", "Lumen Fiber", 899, idempotency_key="lumen-march"))
    assert first.id == again.id
    assert (
        len(ok(session, "list_transactions", {"counterparty_id": rec("Lumen Fiber"), "status": "pending"}).results) == 1
    )


def test_custom_users_request_needs_two_other_admins(session: ToolSession) -> None:
    sign_in(session, "Tom")
    r = ok(session, "request_send_money", pay("Ops Checking", "Maya Lindqvist", 30000))
    assert (r.status, r.approvals_required) == ("pendingApproval", 2)
    fails(session, "approve_send_money_request", {"request_id": r.id}, "PermissionDenied", "only admins")
    sign_in(session, "Dana")
    one = ok(session, "approve_send_money_request", {"request_id": r.id})
    assert (one.status, one.transaction_id) == ("pendingApproval", None)
    fails(session, "approve_send_money_request", {"request_id": r.id}, "Conflict", "already approved")
    sign_in(session, "Erin")
    two = ok(session, "approve_send_money_request", {"request_id": r.id})
    assert two.status == "approved" and two.transaction_id
    t = ok(session, "get_transaction", {"transaction_id": two.transaction_id})
    assert (t.status, t.amount, t.request_id, t.created_by) == ("pending", -30000.0, r.id, user("Tom")["id"])
    fails(session, "approve_send_money_request", {"request_id": r.id}, "Conflict", "only pending")


def test_admins_request_needs_one_other_admin_never_themselves(session: ToolSession) -> None:
    sign_in(session, "Marcus")
    keystone = request("Keystone Insurance Group")
    fails(session, "approve_send_money_request", {"request_id": keystone}, "PermissionDenied", "your own")
    fails(session, "reject_send_money_request", {"request_id": keystone}, "PermissionDenied", "your own")
    sign_in(session, "Dana")
    done = ok(session, "approve_send_money_request", {"request_id": keystone})
    assert done.status == "approved"


def test_reject_and_cancel_requests(session: ToolSession) -> None:
    sign_in(session, "Tom")
    fails(
        session,
        "cancel_send_money_request",
        {"request_id": request("Brightline Logistics LLC")},
        "PermissionDenied",
        "requester or an admin",
    )
    own = ok(session, "cancel_send_money_request", {"request_id": request("Linh Nguyen")})
    assert own.status == "cancelled"
    sign_in(session, "Dana")
    rejected = ok(
        session, "reject_send_money_request", {"request_id": request("Pinecrest Consulting"), "reason": "Later"}
    )
    assert (rejected.status, rejected.rejection_reason) == ("rejected", "Later")
    fails(session, "cancel_send_money_request", {"request_id": rejected.id}, "Conflict", "only pending")


def test_request_checks_funds_and_account(session: ToolSession) -> None:
    sign_in(session, "Erin")
    fails(session, "request_send_money", pay("Tax Savings", "Lumen Fiber", 10), "InvalidRequest", "checking account")
    fails(session, "request_send_money", pay("Payroll Checking", "Lumen Fiber", 10_000_000), "Conflict", "Insufficient")


def test_internal_transfer_moves_both_balances_and_treasury_only_with_checking(session: ToolSession) -> None:
    sign_in(session, "Marcus")
    ops = acc("Ops Checking")
    fails(
        session,
        "create_internal_transfer",
        {"source_account_id": acc("Mercury Treasury"), "destination_account_id": acc("Reserve Savings"), "amount": 100},
        "InvalidRequest",
        "Treasury",
    )
    fails(
        session,
        "create_internal_transfer",
        {"source_account_id": ops, "destination_account_id": ops, "amount": 100},
        "InvalidRequest",
        "different",
    )
    before = ok(session, "get_account", {"account_id": acc("Mercury Treasury")}).current_balance
    legs = ok(
        session,
        "create_internal_transfer",
        {"source_account_id": acc("Mercury Treasury"), "destination_account_id": ops, "amount": 1000, "note": "Sweep"},
    )
    assert (legs.debit_transaction.amount, legs.credit_transaction.amount) == (-1000.0, 1000.0)
    assert legs.debit_transaction.kind == "treasuryTransfer" and legs.debit_transaction.status == "sent"
    assert ok(session, "get_account", {"account_id": acc("Mercury Treasury")}).current_balance == round(
        before - 1000, 2
    )


def test_routing_numbers_are_checked_and_accounts_not_saved_twice(session: ToolSession) -> None:
    sign_in(session, "Tom")
    base = {
        "name": "Test Co",
        "emails": ["a@test.com"],
        "default_payment_method": "ach",
        "ach_account_number": "123456789",
        "ach_routing_number": "121000359",
    }
    fails(session, "create_recipient", base, "InvalidRequest", "not a valid ABA routing number")
    assert not session.call("create_recipient", {**base, "ach_routing_number": "12100035"}).ok
    fails(session, "create_recipient", {**base, "ach_routing_number": None}, "InvalidRequest", "both")
    fails(
        session,
        "create_recipient",
        {**base, "default_payment_method": "check", "ach_routing_number": "121000358"},
        "InvalidRequest",
        "check",
    )
    lumen = next(r for r in SEED["recipients"] if r["name"] == "Lumen Fiber")
    dupe = {
        **base,
        "ach_account_number": lumen["ach_account_number"],
        "ach_routing_number": lumen["ach_routing_number"],
    }
    fails(session, "create_recipient", dupe, "Conflict", "Lumen Fiber")
    made = ok(session, "create_recipient", {**base, "ach_routing_number": "121000358"})
    assert made.electronic_routing_info.routing_number == "121000358" and made.status == "active"


def test_update_recipient_keeps_default_method_payable(session: ToolSession) -> None:
    sign_in(session, "Tom")
    fails(
        session,
        "update_recipient",
        {"recipient_id": rec("Lumen Fiber"), "default_payment_method": "domesticWire"},
        "InvalidRequest",
        "routing info",
    )
    fails(
        session,
        "update_recipient",
        {"recipient_id": rec("Lumen Fiber"), "wire_account_number": "12345678"},
        "InvalidRequest",
        "both",
    )
    fails(session, "update_recipient", {"recipient_id": rec("Stellar Freight"), "nickname": "x"}, "Conflict", "deleted")
    updated = ok(
        session,
        "update_recipient",
        {
            "recipient_id": rec("Lumen Fiber"),
            "wire_account_number": "12345678",
            "wire_routing_number": "021000021",
            "default_payment_method": "domesticWire",
        },
    )
    assert updated.default_payment_method == "domesticWire"


def test_delete_recipient_refused_while_a_request_waits(session: ToolSession) -> None:
    sign_in(session, "Erin")
    fails(session, "delete_recipient", {"recipient_id": rec("Cooper & Lane LLP")}, "Conflict", "waiting for approval")
    gone = ok(session, "delete_recipient", {"recipient_id": rec("Hannah Coleman")})
    assert gone.status == "deleted"
    fails(session, "delete_recipient", {"recipient_id": rec("Hannah Coleman")}, "Conflict", "already been deleted")
    names = [r.name for r in ok(session, "list_recipients", {"status": "deleted"}).results]
    assert "Hannah Coleman" in names


def test_list_transactions_filters_and_pages(session: ToolSession) -> None:
    sign_in(session, "Sofia")
    page = ok(session, "list_transactions", {"account_id": acc("Payroll Checking"), "page_size": 5})
    assert len(page.results) == 5 and page.has_more
    dates = [t.created_at for t in page.results]
    assert dates == sorted(dates, reverse=True)
    nxt = ok(
        session,
        "list_transactions",
        {"account_id": acc("Payroll Checking"), "page_size": 5, "cursor": page.next_cursor},
    )
    assert {t.id for t in nxt.results}.isdisjoint(t.id for t in page.results)
    memo = ok(session, "list_transactions", {"search": "PO 1187"})
    assert [t.counterparty_name for t in memo.results] == ["Delta Precision Motors"]


def test_statements_balance_and_filter(session: ToolSession) -> None:
    sign_in(session, "Sofia")
    rows = ok(session, "list_statements", {"account_id": acc("Ops Checking")})
    assert len(rows) == 11
    for s in rows:
        assert round(s.starting_balance + s.money_in - s.money_out, 2) == s.ending_balance
        assert s.starting_balance >= 0 and s.ending_balance >= 0
    for a, b in zip(rows, rows[1:]):
        assert a.ending_balance == b.starting_balance
    feb = ok(
        session, "list_statements", {"account_id": acc("Ops Checking"), "start": "2026-02-01", "end": "2026-02-28"}
    )
    assert [s.start_date for s in feb] == ["2026-02-01"]
