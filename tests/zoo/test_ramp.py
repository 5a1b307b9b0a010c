"""The Ramp environment's tools on the real seed: sign-in and role permissions (admins, bookkeepers, managers and
employees), card restrictions and lifecycle (suspend, unsuspend, terminate, program-governed limits, per-transaction
limit not above the amount, categories not both allowed and blocked), interval spend on a card, memos and receipts,
the reimbursement policy (90-day window, receipt from $75, no duplicates, review by an admin or the manager, never
the submitter, a reason to reject), spend requests (program amount, one pending per program, instant issue without
approval, approval issues the card), and bill pay (unique invoice per vendor, inactive vendors, approval before
payment, paid once). Every error path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("ramp")
CLOCK = datetime(2025, 9, 15, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, CLOCK)


def user(name: str) -> dict[str, Any]:
    first, last = name.split(" ", 1)
    return next(u for u in SEED["users"] if u["first_name"] == first and u["last_name"] == last)


def card(holder: str, display_name: str, state: str | None = None) -> str:
    return next(
        c["id"]
        for c in SEED["cards"]
        if c["cardholder_id"] == user(holder)["id"]
        and c["display_name"] == display_name
        and (state is None or c["state"] == state)
    )


def program(name: str) -> str:
    return next(p["id"] for p in SEED["spend_programs"] if p["display_name"] == name)


def vendor(name: str) -> str:
    return next(v["id"] for v in SEED["vendors"] if v["name"] == name)


def reimbursement(holder: str, merchant: str, state: str = "PENDING") -> dict[str, Any]:
    return next(
        r
        for r in SEED["reimbursements"]
        if r["user_id"] == user(holder)["id"] and r["merchant"] == merchant and r["state"] == state
    )


def request(display_name: str) -> str:
    return next(r["id"] for r in SEED["spend_requests"] if r["display_name"] == display_name)


def bill(vendor_name: str, issued_at: str) -> dict[str, Any]:
    return next(b for b in SEED["bills"] if b["vendor_id"] == vendor(vendor_name) and b["issued_at"] == issued_at)


def sign_in(session: ToolSession, name: str) -> Any:
    u = user(name)
    return ok(session, "sign_in", {"email": u["email"], "password": u["password"]}, caller="user")


# ---------------------------------------------------------------- sign-in and visibility


def test_sign_in_checks_password_and_status(session: ToolSession) -> None:
    fails(session, "list_cards", {}, "PermissionDenied", "sign in to Ramp first")
    fails(
        session,
        "sign_in",
        {"email": "maya.okafor@larkspur.io", "password": "nope"},
        "PermissionDenied",
        "wrong",
        caller="user",
    )
    ben = user("Ben Adler")
    ben_login = {"email": ben["email"], "password": ben["password"]}
    fails(session, "sign_in", ben_login, "PermissionDenied", "not active", caller="user")
    assert sign_in(session, "Maya Okafor")["role"] == "BUSINESS_ADMIN"


def test_employee_sees_only_own_cards_and_manager_sees_reports(session: ToolSession) -> None:
    sign_in(session, "Zoe Hart")
    mine = ok(session, "list_cards", {"page_size": 100})["results"]
    assert {c["cardholder_id"] for c in mine} == {user("Zoe Hart")["id"]}
    fails(session, "list_cards", {"user_id": user("Leo Fischer")["id"]}, "PermissionDenied", "your own cards")
    fails(session, "get_card", {"card_id": card("Leo Fischer", "Google Ads")}, "PermissionDenied", "your own")
    sign_in(session, "Nina Petrova")
    leo = ok(session, "list_transactions", {"user_id": user("Leo Fischer")["id"], "page_size": 100})
    assert leo["results"] and all(t["user_id"] == user("Leo Fischer")["id"] for t in leo["results"])


def test_transactions_filters_and_pagination(session: ToolSession) -> None:
    sign_in(session, "Maya Okafor")
    first = ok(session, "list_transactions", {"page_size": 5})
    assert len(first["results"]) == 5 and first["has_more"]
    second = ok(session, "list_transactions", {"page_size": 5, "start": first["next_cursor"]})
    assert {t["id"] for t in first["results"]}.isdisjoint(t["id"] for t in second["results"])
    times = [t["user_transaction_time"] for t in first["results"] + second["results"]]
    assert times == sorted(times, reverse=True)
    fails(session, "list_transactions", {"page_size": 1}, "invalid_arguments", "page_size")
    no_receipt = ok(session, "list_transactions", {"has_no_receipts": True, "page_size": 100})["results"]
    assert no_receipt and all(t["receipts"] == [] for t in no_receipt)
    big = ok(session, "list_transactions", {"min_amount": "1000.00", "from_date": "2025-08-01", "page_size": 100})
    assert all(t["amount"] >= 1000 and t["user_transaction_time"] >= "2025-08-01" for t in big["results"])


# ---------------------------------------------------------------- cards


def test_issue_card_from_program_takes_its_restrictions(session: ToolSession) -> None:
    sign_in(session, "Maya Okafor")
    colby = user("Hannah Colby")["id"]
    args = {"user_id": colby, "display_name": "Loom", "spend_program_id": program("SaaS Subscriptions")}
    fails(session, "issue_virtual_card", {**args, "amount": "50.00"}, "InvalidRequest", "program's restrictions")
    made = ok(session, "issue_virtual_card", args)
    assert made["spending_restrictions"]["amount"] == 500.0
    assert made["spending_restrictions"]["allowed_categories"] == ["Software"]
    assert made["state"] == "ACTIVE" and len(made["last_four"]) == 4
    physical = {**args, "spend_program_id": program("Employee Card")}
    fails(session, "issue_virtual_card", physical, "InvalidRequest", "physical cards")


def test_issue_card_needs_admin_active_user_and_sane_limits(session: ToolSession) -> None:
    sign_in(session, "Maya Okafor")
    base = {"user_id": user("Jake Turner")["id"], "display_name": "Rides", "amount": "250.00", "interval": "TOTAL"}
    fails(session, "issue_virtual_card", {**base, "transaction_amount_limit": "300.00"}, "InvalidRequest", "greater")
    both = {**base, "allowed_categories": ["Restaurants"], "blocked_categories": ["Restaurants"]}
    fails(session, "issue_virtual_card", both, "InvalidRequest", "both allowed and blocked")
    fails(session, "issue_virtual_card", {**base, "interval": None}, "InvalidRequest", "amount and interval")
    ben = {**base, "user_id": user("Ben Adler")["id"]}
    fails(session, "issue_virtual_card", ben, "Conflict", "USER_SUSPENDED")
    sign_in(session, "Daniel Kim")
    fails(session, "issue_virtual_card", base, "PermissionDenied", "owners and admins")


def test_card_lifecycle(session: ToolSession) -> None:
    sign_in(session, "Maya Okafor")
    figma = card("Zoe Hart", "Figma")
    assert ok(session, "suspend_card", {"card_id": figma})["state"] == "SUSPENDED"
    fails(session, "suspend_card", {"card_id": figma}, "Conflict", "SUSPENDED")
    assert ok(session, "unsuspend_card", {"card_id": figma})["state"] == "ACTIVE"
    fails(session, "unsuspend_card", {"card_id": figma}, "Conflict", "ACTIVE")
    assert ok(session, "terminate_card", {"card_id": figma})["state"] == "TERMINATED"
    for name in ("suspend_card", "unsuspend_card", "terminate_card"):
        fails(session, name, {"card_id": figma}, "Conflict", "terminated")
    fails(session, "update_card", {"card_id": figma, "display_name": "x"}, "Conflict", "terminated")
    unactivated = card("Isla Murray", "Isla's Ramp Card", "UNACTIVATED")
    fails(session, "suspend_card", {"card_id": unactivated}, "Conflict", "not been activated")
    ben = card("Ben Adler", "Ben's Ramp Card")
    fails(session, "unsuspend_card", {"card_id": ben}, "Conflict", "USER_SUSPENDED")


def test_cardholder_may_lock_own_card_but_not_others_or_terminate(session: ToolSession) -> None:
    sign_in(session, "Chloe Nguyen")
    meals = card("Chloe Nguyen", "Client Meals")
    assert ok(session, "unsuspend_card", {"card_id": meals})["state"] == "ACTIVE"
    fails(session, "suspend_card", {"card_id": card("Olivia Grant", "Client Meals")}, "PermissionDenied", "cardholder")
    fails(session, "terminate_card", {"card_id": meals}, "PermissionDenied", "owners and admins")


def test_update_card_limits_and_program_cards(session: ToolSession) -> None:
    sign_in(session, "Maya Okafor")
    linkedin = card("Leo Fischer", "LinkedIn Ads")
    fails(session, "update_card", {"card_id": linkedin, "amount": "400.00"}, "InvalidRequest", "greater")
    updated = ok(session, "update_card", {"card_id": linkedin, "amount": "8000.00", "transaction_amount_limit": "1000"})
    assert updated["spending_restrictions"]["amount"] == 8000.0
    assert updated["spending_restrictions"]["transaction_amount_limit"] == 1000.0
    travel = card("Sofia Marin", "Sales Team Travel")
    fails(session, "update_card", {"card_id": travel, "amount": "5000.00"}, "Conflict", "Team Travel")
    fails(session, "update_card", {"card_id": travel, "blocked_categories": ["Car Rental"]}, "InvalidRequest", "both")
    renamed = ok(session, "update_card", {"card_id": travel, "display_name": "Travel Q4", "blocked_categories": []})
    assert renamed["display_name"] == "Travel Q4"


def test_get_card_counts_this_interval(session: ToolSession) -> None:
    sign_in(session, "Maya Okafor")
    figma = card("Zoe Hart", "Figma")
    detail = ok(session, "get_card", {"card_id": figma})
    assert detail["interval_start"] == "2025-09-01"
    assert detail["spent_this_interval"] == 0.0 and detail["remaining_this_interval"] == 300.0
    saastr = ok(session, "get_card", {"card_id": card("Nina Petrova", "SaaStr Annual 2025")})
    total = sum(
        t["amount"]
        for t in SEED["transactions"]
        if t["card_id"] == card("Nina Petrova", "SaaStr Annual 2025") and t["state"] in ("CLEARED", "PENDING")
    )
    assert saastr["interval_start"] is None and saastr["spent_this_interval"] == total / 100


# ---------------------------------------------------------------- memos and receipts


def test_memo_and_receipt_rules(session: ToolSession) -> None:
    sign_in(session, "Olivia Grant")
    declined = next(
        t["id"] for t in SEED["transactions"] if t["user_id"] == user("Olivia Grant")["id"] and t["state"] == "DECLINED"
    )
    fails(session, "update_transaction_memo", {"transaction_id": declined, "memo": "x"}, "Conflict", "declined")
    fails(session, "upload_receipt", {"transaction_id": declined, "filename": "a.pdf"}, "Conflict", "declined")
    other = next(t["id"] for t in SEED["transactions"] if t["user_id"] == user("Leo Fischer")["id"])
    fails(session, "update_transaction_memo", {"transaction_id": other, "memo": "x"}, "PermissionDenied", "cardholder")
    fails(session, "upload_receipt", {"filename": "a.pdf"}, "InvalidRequest", "exactly one")
    fails(session, "upload_receipt", {"transaction_id": other, "filename": "a.exe"}, "invalid_arguments", "filename")
    mine = next(
        t["id"] for t in SEED["transactions"] if t["user_id"] == user("Olivia Grant")["id"] and t["state"] == "CLEARED"
    )
    assert (
        ok(session, "update_transaction_memo", {"transaction_id": mine, "memo": " Team lunch "})["memo"] == "Team lunch"
    )
    receipt = ok(session, "upload_receipt", {"transaction_id": mine, "filename": "lunch.jpg"})
    assert receipt["transaction_id"] == mine
    listed = ok(session, "list_transactions", {"user_id": user("Olivia Grant")["id"], "page_size": 100})["results"]
    assert receipt["id"] in next(t for t in listed if t["id"] == mine)["receipts"]


# ---------------------------------------------------------------- reimbursements


def test_submit_reimbursement_policy(session: ToolSession) -> None:
    sign_in(session, "Priya Sharma")
    base = {"merchant": "Nopa", "amount": "92.40", "transaction_date": "2025-09-12", "sk_category_name": "Restaurants"}
    base["memo"] = "Team dinner"
    fails(session, "submit_reimbursement", base, "InvalidRequest", "receipt is required")
    fails(session, "submit_reimbursement", {**base, "transaction_date": "2025-09-16"}, "InvalidRequest", "future")
    old = {**base, "transaction_date": "2025-06-10", "receipt_filename": "r.pdf"}
    fails(session, "submit_reimbursement", old, "InvalidRequest", "within 90 days")
    made = ok(session, "submit_reimbursement", {**base, "receipt_filename": "nopa.jpg"})
    assert made["state"] == "PENDING" and len(made["receipts"]) == 1 and made["amount"] == 92.4
    fails(session, "submit_reimbursement", {**base, "receipt_filename": "again.jpg"}, "Conflict", "Duplicate")
    small = ok(session, "submit_reimbursement", {**base, "merchant": "Caltrain", "amount": "18.50"})
    assert small["receipts"] == []


def test_review_reimbursement_rules(session: ToolSession) -> None:
    own = reimbursement("Maya Okafor", "O'Reilly Media")["id"]
    no_receipt = reimbursement("Chloe Nguyen", "O'Reilly Media")["id"]
    rosa = reimbursement("Rosa Delgado", "Shell")["id"]
    sign_in(session, "Maya Okafor")
    fails(session, "review_reimbursement", {"reimbursement_id": own, "decision": "APPROVE"}, "PermissionDenied", "own")
    args = {"reimbursement_id": no_receipt, "decision": "APPROVE"}
    fails(session, "review_reimbursement", args, "Conflict", "receipt is required")
    fails(session, "review_reimbursement", {"reimbursement_id": rosa, "decision": "REJECT"}, "InvalidRequest", "reason")
    done = ok(session, "review_reimbursement", {"reimbursement_id": rosa, "decision": "APPROVE"})
    assert done["state"] == "APPROVED" and done["reviewer_id"] == user("Maya Okafor")["id"]
    fails(session, "review_reimbursement", {"reimbursement_id": rosa, "decision": "APPROVE"}, "Conflict", "APPROVED")


def test_manager_reviews_reports_only(session: ToolSession) -> None:
    leo = reimbursement("Leo Fischer", "Uber")["id"]
    rosa = reimbursement("Rosa Delgado", "Caltrain")["id"]
    sign_in(session, "Nina Petrova")
    assert ok(session, "review_reimbursement", {"reimbursement_id": leo, "decision": "APPROVE"})["state"] == "APPROVED"
    fails(session, "review_reimbursement", {"reimbursement_id": rosa, "decision": "APPROVE"}, "PermissionDenied", "")
    sign_in(session, "Chloe Nguyen")
    args = {"reimbursement_id": reimbursement("Chloe Nguyen", "O'Reilly Media")["id"], "filename": "inv.pdf"}
    assert ok(session, "upload_receipt", args)["reimbursement_id"] == args["reimbursement_id"]
    fails(
        session,
        "upload_receipt",
        {**args, "filename": "x.pdf", "reimbursement_id": rosa},
        "PermissionDenied",
        "submitter",
    )


# ---------------------------------------------------------------- spend requests


def test_request_spend_rules(session: ToolSession) -> None:
    sign_in(session, "Marcus Bell")
    saas = {"spend_program_id": program("SaaS Subscriptions"), "display_name": "Postman", "reason": "API tests"}
    fails(session, "request_spend", {**saas, "amount": "120.00"}, "Conflict", "already have a pending request")
    sign_in(session, "Priya Sharma")
    fails(session, "request_spend", {**saas, "amount": "600.00"}, "InvalidRequest", "exceeds")
    physical = {**saas, "spend_program_id": program("Employee Card"), "amount": "10.00"}
    fails(session, "request_spend", physical, "InvalidRequest", "physical")
    pending = ok(session, "request_spend", {**saas, "display_name": "Miro", "amount": "40.00"})
    assert pending["status"] == "PENDING" and pending["card_id"] is None
    supplies = {"spend_program_id": program("Office Supplies"), "display_name": "Desk", "reason": "x", "amount": "50"}
    instant = ok(session, "request_spend", supplies)
    assert instant["status"] == "APPROVED" and instant["card_id"]
    issued = ok(session, "get_card", {"card_id": instant["card_id"]})
    assert issued["spending_restrictions"]["amount"] == 50.0 and issued["spend_program_id"] == program(
        "Office Supplies"
    )


def test_review_spend_request_issues_card(session: ToolSession) -> None:
    postman = request("Postman")
    sign_in(session, "Sofia Marin")
    fails(session, "review_spend_request", {"request_id": postman, "decision": "APPROVE"}, "PermissionDenied", "")
    sign_in(session, "Daniel Kim")
    too_much = {"request_id": postman, "decision": "APPROVE", "amount": "130.00"}
    fails(session, "review_spend_request", too_much, "InvalidRequest", "greater")
    done = ok(session, "review_spend_request", {"request_id": postman, "decision": "APPROVE", "amount": "100.00"})
    assert done["status"] == "APPROVED" and done["reviewer_id"] == user("Daniel Kim")["id"]
    new_card = ok(session, "get_card", {"card_id": done["card_id"]})
    assert new_card["display_name"] == "Postman" and new_card["spending_restrictions"]["amount"] == 100.0
    fails(session, "review_spend_request", {"request_id": postman, "decision": "REJECT"}, "Conflict", "APPROVED")


# ---------------------------------------------------------------- bill pay


def test_bills_need_bookkeeping_roles(session: ToolSession) -> None:
    sign_in(session, "Zoe Hart")
    fails(session, "list_bills", {}, "PermissionDenied", "bookkeepers")
    sign_in(session, "Grace Lindqvist")
    assert ok(session, "list_bills", {"page_size": 100})["results"]
    fails(
        session,
        "pay_bill",
        {"bill_id": bill("WeWork", "2025-09-02")["id"], "payment_method": "ACH"},
        "PermissionDenied",
        "",
    )
    fails(session, "approve_bill", {"bill_id": bill("Gusto", "2025-09-02")["id"]}, "PermissionDenied", "")


def test_create_bill_rules(session: ToolSession) -> None:
    sign_in(session, "Grace Lindqvist")
    args = {"vendor_id": vendor("AT&T Business"), "invoice_number": "ATT-1", "amount": "612.40"}
    args |= {"issued_at": "2025-09-10", "due_at": "2025-10-10"}
    fails(session, "create_bill", {**args, "due_at": "2025-09-01"}, "InvalidRequest", "before issued_at")
    fails(session, "create_bill", {**args, "vendor_id": vendor("Old Vendor Press")}, "Conflict", "inactive")
    made = ok(session, "create_bill", args)
    assert (made["approval_status"], made["status"], made["amount"]) == ("APPROVED", "OPEN", 612.4)
    fails(session, "create_bill", args, "Conflict", "already exists")


def test_pay_and_approve_bill_rules(session: ToolSession) -> None:
    sign_in(session, "Tom Reyes")
    gusto = bill("Gusto", "2025-09-02")["id"]
    fails(session, "pay_bill", {"bill_id": gusto, "payment_method": "ACH"}, "Conflict", "PENDING approval")
    assert ok(session, "approve_bill", {"bill_id": gusto})["approval_status"] == "APPROVED"
    fails(session, "approve_bill", {"bill_id": gusto}, "Conflict", "APPROVED")
    paid = ok(session, "pay_bill", {"bill_id": gusto, "payment_method": "ACH"})
    assert (paid["status"], paid["paid_at"], paid["payment_method"]) == ("PAID", "2025-09-15", "ACH")
    fails(session, "pay_bill", {"bill_id": gusto, "payment_method": "WIRE"}, "Conflict", "already paid")
