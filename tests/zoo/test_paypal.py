"""The PayPal environment's tools on the real seed: checkout orders (breakdown arithmetic, the payer's approval as a
user-only step, intent and status checks), authorizations (partial and final captures, the 3-day honor period and
the one reauthorization up to 115%, voids, expiry), captures and refunds (never above what is left, 180 days, not
while disputed, fees into the balance), disputes (evidence, accepted claims that refund the buyer, escalation of
inquiries, state checks), payouts (unique sender_batch_id, the balance, UNCLAIMED items cancelled back), invoices
(unique numbers, due dates, send, recorded payments never above what is due, reminders, cancellation) and paging.
Every error path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("paypal")
CLOCK = datetime(2026, 3, 16, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
UNPROCESSABLE = "Conflict"

session = session_fixture(SPEC, CLOCK)


def usd(value: str) -> dict[str, str]:
    return {"currency_code": "USD", "value": value}


def unit(
    amount: str,
    items: list[tuple[str, str, str]],
    shipping: str | None = None,
    tax: str | None = None,
    item_total: str | None = None,
) -> dict[str, Any]:
    breakdown: dict[str, Any] = {}
    if items:
        breakdown["item_total"] = usd(item_total or f"{sum(float(p) * int(q) for _, q, p in items):.2f}")
    if shipping:
        breakdown["shipping"] = usd(shipping)
    if tax:
        breakdown["tax_total"] = usd(tax)
    return {
        "amount": {"currency_code": "USD", "value": amount, "breakdown": breakdown},
        "items": [{"name": n, "quantity": q, "unit_amount": usd(p)} for n, q, p in items],
    }


MUGS = unit("85.99", [("Tidepool Blue Mug", "2", "36.00")], shipping="8.95", tax="5.04")  # 72.00 + 8.95 + 5.04


def balance(s: ToolSession) -> int:
    return s.dump()["balances"]["USD"]["available"]


def approved_order(s: ToolSession, intent: str = "CAPTURE", email: str = "marcus.bell@outlook.com") -> str:
    order = ok(s, "create_order", {"intent": intent, "purchase_unit": MUGS})
    ok(s, "approve_order", {"order_id": order["id"], "payer_email": email}, caller="user")
    return order["id"]


def seed_auth(status: str, honor_over: bool) -> dict[str, Any]:
    for row in sorted(SEED["authorizations"], key=lambda a: a["id"]):
        over = row["honor_until"] <= "2026-03-16T15:00:00Z"
        if row["status"] == status and over == honor_over:
            return row
    raise LookupError(status)


def capture_with(**where: Any) -> dict[str, Any]:
    disputed = {d["capture_id"] for d in SEED["disputes"]}
    for row in sorted(SEED["captures"], key=lambda c: c["create_time"], reverse=True):
        if all(row[k] == v for k, v in where.items()) and row["id"] not in disputed:
            return row
    raise LookupError(where)


# ---------------------------------------------------------------- orders


def test_an_order_needs_the_payers_approval_before_it_is_captured(session):
    order = ok(session, "create_order", {"intent": "CAPTURE", "purchase_unit": MUGS})
    assert order["status"] == "CREATED" and order["payer"] is None
    fails(session, "capture_order", {"order_id": order["id"]}, UNPROCESSABLE, "ORDER_NOT_APPROVED")
    fails(
        session,
        "approve_order",
        {"order_id": order["id"], "payer_email": "marcus.bell@outlook.com"},
        "user_only",
        "only be performed by the user",
    )
    fails(
        session,
        "approve_order",
        {"order_id": order["id"], "payer_email": "nobody@example.com"},
        UNPROCESSABLE,
        "PAYER_ACCOUNT_NOT_FOUND",
        caller="user",
    )
    ok(session, "approve_order", {"order_id": order["id"], "payer_email": "marcus.bell@outlook.com"}, caller="user")
    before = balance(session)
    done = ok(session, "capture_order", {"order_id": order["id"]})
    assert done["status"] == "COMPLETED" and done["payer"]["email_address"] == "marcus.bell@outlook.com"
    (capture,) = done["purchase_units"][0]["payments"]["captures"]
    assert capture["seller_receivable_breakdown"]["paypal_fee"]["value"] == "3.49"  # 3.49% of 85.99 + 0.49
    assert balance(session) == before + 8599 - 349
    fails(session, "capture_order", {"order_id": order["id"]}, UNPROCESSABLE, "ORDER_ALREADY_CAPTURED")


def test_the_amount_must_equal_its_breakdown(session):
    wrong_items = unit("85.99", [("Tidepool Blue Mug", "2", "36.00")], "8.95", "5.04", item_total="70.00")
    fails(
        session,
        "create_order",
        {"intent": "CAPTURE", "purchase_unit": wrong_items},
        UNPROCESSABLE,
        "ITEM_TOTAL_MISMATCH",
    )
    wrong_total = unit("80.00", [("Tidepool Blue Mug", "2", "36.00")], "8.95", "5.04")
    fails(
        session, "create_order", {"intent": "CAPTURE", "purchase_unit": wrong_total}, UNPROCESSABLE, "AMOUNT_MISMATCH"
    )
    fails(
        session,
        "create_order",
        {"intent": "CAPTURE", "purchase_unit": unit("12.345", [])},
        "invalid_arguments",
        "purchase_unit.amount.value",
    )


def test_the_intent_decides_between_capture_and_authorize(session):
    order_id = approved_order(session, "CAPTURE")
    fails(session, "authorize_order", {"order_id": order_id}, UNPROCESSABLE, "ACTION_DOES_NOT_MATCH_INTENT")
    held = approved_order(session, "AUTHORIZE")
    fails(session, "capture_order", {"order_id": held}, UNPROCESSABLE, "ACTION_DOES_NOT_MATCH_INTENT")
    before = balance(session)
    done = ok(session, "authorize_order", {"order_id": held})
    (auth,) = done["purchase_units"][0]["payments"]["authorizations"]
    assert done["status"] == "COMPLETED" and auth["status"] == "CREATED" and balance(session) == before
    created = datetime.fromisoformat(auth["create_time"].replace("Z", "+00:00"))
    assert auth["honor_period_expires"] == (created + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert auth["expiration_time"] == (created + timedelta(days=29)).strftime("%Y-%m-%dT%H:%M:%SZ")
    fails(session, "authorize_order", {"order_id": held}, UNPROCESSABLE, "ORDER_ALREADY_AUTHORIZED")


# ---------------------------------------------------------------- authorizations


def test_partial_then_final_captures_never_exceed_the_authorization(session):
    held = approved_order(session, "AUTHORIZE")
    auth = ok(session, "authorize_order", {"order_id": held})["purchase_units"][0]["payments"]["authorizations"][0]
    first = ok(session, "capture_authorization", {"authorization_id": auth["id"], "amount": usd("40.00")})
    assert first["final_capture"] is False
    fails(
        session,
        "capture_authorization",
        {"authorization_id": auth["id"], "amount": usd("50.00")},
        UNPROCESSABLE,
        "MAX_CAPTURE_AMOUNT_EXCEEDED",
    )
    rest = ok(session, "capture_authorization", {"authorization_id": auth["id"]})
    assert rest["amount"]["value"] == "45.99" and rest["final_capture"] is True
    order = ok(session, "show_order_details", {"order_id": held})
    assert order["purchase_units"][0]["payments"]["authorizations"][0]["status"] == "CAPTURED"
    fails(
        session,
        "capture_authorization",
        {"authorization_id": auth["id"]},
        UNPROCESSABLE,
        "AUTHORIZATION_ALREADY_CAPTURED",
    )


def test_a_final_partial_capture_releases_the_rest(session):
    auth = seed_auth("CREATED", honor_over=False)
    ok(
        session,
        "capture_authorization",
        {"authorization_id": auth["id"], "amount": usd("10.00"), "final_capture": True},
    )
    fails(
        session,
        "capture_authorization",
        {"authorization_id": auth["id"], "amount": usd("1.00")},
        UNPROCESSABLE,
        "AUTHORIZATION_ALREADY_CAPTURED",
    )


def test_reauthorization_waits_for_the_honor_period_and_happens_once(session):
    fresh = seed_auth("CREATED", honor_over=False)
    fails(
        session,
        "reauthorize_authorization",
        {"authorization_id": fresh["id"]},
        UNPROCESSABLE,
        "REAUTHORIZE_BEFORE_HONOR_PERIOD_EXPIRY",
    )
    stale = seed_auth("CREATED", honor_over=True)
    too_much = f"{stale['amount'] * 1.2 / 100:.2f}"
    fails(
        session,
        "reauthorize_authorization",
        {"authorization_id": stale["id"], "amount": usd(too_much)},
        UNPROCESSABLE,
        "MAX_REAUTHORIZATION_AMOUNT_EXCEEDED",
    )
    new = ok(session, "reauthorize_authorization", {"authorization_id": stale["id"]})
    assert new["status"] == "CREATED" and new["reauthorized_from"] == stale["id"] and new["id"] != stale["id"]
    assert new["expiration_time"] == stale["expiration_time"]
    old = session.dump()["authorizations"][stale["id"]]
    assert old["status"] == "VOIDED"
    fails(
        session,
        "reauthorize_authorization",
        {"authorization_id": new["id"]},
        UNPROCESSABLE,
        "MAX_NUMBER_OF_REAUTHORIZATIONS_EXCEEDED",
    )
    fails(session, "capture_authorization", {"authorization_id": stale["id"]}, UNPROCESSABLE, "PREVIOUSLY_VOIDED")


def test_voided_and_expired_authorizations_cannot_be_captured(session):
    fresh = seed_auth("CREATED", honor_over=False)
    assert ok(session, "void_authorization", {"authorization_id": fresh["id"]})["status"] == "VOIDED"
    fails(session, "capture_authorization", {"authorization_id": fresh["id"]}, UNPROCESSABLE, "PREVIOUSLY_VOIDED")
    expired = seed_auth("EXPIRED", honor_over=True)
    fails(session, "capture_authorization", {"authorization_id": expired["id"]}, UNPROCESSABLE, "AUTHORIZATION_EXPIRED")
    fails(session, "void_authorization", {"authorization_id": "0000000000000000X"}, "NotFound", "INVALID_RESOURCE_ID")


# ---------------------------------------------------------------- refunds


def test_refunds_never_exceed_what_is_left_of_the_capture(session):
    capture = capture_with(status="COMPLETED", authorization_id=None)
    left = capture["amount"]
    before = balance(session)
    ok(session, "refund_capture", {"capture_id": capture["id"], "amount": usd("10.00")})
    fails(
        session,
        "refund_capture",
        {"capture_id": capture["id"], "amount": usd(f"{left / 100:.2f}")},
        UNPROCESSABLE,
        "REFUND_AMOUNT_EXCEEDED",
    )
    rest = ok(session, "refund_capture", {"capture_id": capture["id"]})
    assert rest["amount"]["value"] == f"{(left - 1000) / 100:.2f}"
    assert balance(session) == before - left
    fails(session, "refund_capture", {"capture_id": capture["id"]}, UNPROCESSABLE, "CAPTURE_FULLY_REFUNDED")


def test_old_and_disputed_captures_are_not_refunded(session):
    old = min(SEED["captures"], key=lambda c: c["create_time"])
    assert old["create_time"] < "2025-09-17"
    fails(session, "refund_capture", {"capture_id": old["id"]}, UNPROCESSABLE, "REFUND_TIME_LIMIT_EXCEEDED")
    open_dispute = next(d for d in SEED["disputes"] if d["status"] == "WAITING_FOR_SELLER_RESPONSE")
    fails(
        session,
        "refund_capture",
        {"capture_id": open_dispute["capture_id"], "amount": usd("1.00")},
        UNPROCESSABLE,
        "REFUND_NOT_ALLOWED",
    )


def test_transaction_search_finds_near_duplicate_payers_and_pages(session):
    found = ok(session, "list_transactions", {"payer_name": "hannah reyes", "page_size": 100})
    assert {t["payer_email"] for t in found["items"]} == {"hannah.reyes@fastmail.com", "h.reyes.design@gmail.com"}
    first = ok(session, "list_transactions", {"page_size": 5})
    second = ok(session, "list_transactions", {"page_size": 5, "page": 2})
    assert first["total_items"] == second["total_items"] == len(SEED["captures"]) + len(SEED["authorizations"])
    assert {t["transaction_id"] for t in first["items"]}.isdisjoint(t["transaction_id"] for t in second["items"])
    times = [t["transaction_time"] for t in first["items"] + second["items"]]
    assert times == sorted(times, reverse=True)
    fails(session, "list_transactions", {"page": 999}, "InvalidRequest", "INVALID_PARAMETER_VALUE")
    fails(
        session,
        "list_transactions",
        {"start_date": "2026-03-10T00:00:00Z", "end_date": "2026-03-01T00:00:00Z"},
        "InvalidRequest",
        "INVALID_DATE_RANGE",
    )
    fails(session, "list_transactions", {"page_size": 500}, "invalid_arguments", "page_size must be 1 to 100")


# ---------------------------------------------------------------- disputes


def waiting(reason: str | None = None, stage: str | None = None) -> dict[str, Any]:
    return next(
        d
        for d in SEED["disputes"]
        if d["status"] == "WAITING_FOR_SELLER_RESPONSE"
        and reason in (None, d["reason"])
        and stage in (None, d["stage"])
    )


def test_evidence_moves_a_dispute_under_review_once(session):
    dispute = waiting()
    fails(
        session,
        "provide_dispute_evidence",
        {"dispute_id": dispute["dispute_id"], "evidence": {"evidence_type": "PROOF_OF_FULFILLMENT"}},
        UNPROCESSABLE,
        "MISSING_TRACKING_INFO",
    )
    foreign = SEED["refunds"][0]
    assert foreign["capture_id"] != dispute["capture_id"]
    fails(
        session,
        "provide_dispute_evidence",
        {
            "dispute_id": dispute["dispute_id"],
            "evidence": {"evidence_type": "PROOF_OF_REFUND", "refund_id": foreign["id"]},
        },
        UNPROCESSABLE,
        "INVALID_REFUND_ID",
    )
    evidence = {
        "evidence_type": "PROOF_OF_FULFILLMENT",
        "tracking_info": {"carrier_name": "USPS", "tracking_number": "9400111899223344556677"},
    }
    shown = ok(session, "provide_dispute_evidence", {"dispute_id": dispute["dispute_id"], "evidence": evidence})
    assert shown["status"] == "UNDER_REVIEW" and shown["evidences"][-1]["tracking_info"]["carrier_name"] == "USPS"
    fails(
        session,
        "provide_dispute_evidence",
        {"dispute_id": dispute["dispute_id"], "evidence": evidence},
        UNPROCESSABLE,
        "CANNOT_PROVIDE_EVIDENCE",
    )


def test_accepting_a_claim_refunds_the_buyer(session):
    dispute = waiting()
    before = balance(session)
    shown = ok(session, "accept_dispute_claim", {"dispute_id": dispute["dispute_id"]})
    assert shown["status"] == "RESOLVED" and shown["dispute_outcome"] == "RESOLVED_BUYER_FAVOUR"
    refunds = [r for r in session.dump()["refunds"].values() if r["dispute_id"] == dispute["dispute_id"]]
    assert [r["amount"] for r in refunds] == [dispute["amount"]] and balance(session) == before - dispute["amount"]
    fails(
        session, "accept_dispute_claim", {"dispute_id": dispute["dispute_id"]}, UNPROCESSABLE, "CANNOT_ACCEPT_THE_CLAIM"
    )


def test_only_inquiries_are_escalated(session):
    inquiry = next(d for d in SEED["disputes"] if d["stage"] == "INQUIRY" and d["status"] == "OPEN")
    shown = ok(session, "escalate_dispute_to_claim", {"dispute_id": inquiry["dispute_id"]})
    assert shown["dispute_life_cycle_stage"] == "CHARGEBACK" and shown["status"] == "UNDER_REVIEW"
    claim = next(
        d for d in SEED["disputes"] if d["stage"] == "CHARGEBACK" and d["status"] == "WAITING_FOR_SELLER_RESPONSE"
    )
    fails(
        session,
        "escalate_dispute_to_claim",
        {"dispute_id": claim["dispute_id"]},
        UNPROCESSABLE,
        "DISPUTE_ALREADY_ESCALATED",
    )
    listed = ok(session, "list_disputes", {"dispute_state": "WAITING_FOR_SELLER_RESPONSE", "page_size": 100})
    expected = sum(d["status"] == "WAITING_FOR_SELLER_RESPONSE" for d in SEED["disputes"])
    assert listed["total_items"] == expected and all(
        d["status"] == "WAITING_FOR_SELLER_RESPONSE" for d in listed["items"]
    )


# ---------------------------------------------------------------- payouts


def test_payouts_spend_the_balance_and_unclaimed_items_come_back(session):
    before = balance(session)
    items = [
        {"receiver": "juniper.hale@gmail.com", "amount": usd("120.00")},
        {"receiver": "new.maker@example.com", "amount": usd("30.50")},
    ]
    batch = ok(session, "create_batch_payout", {"sender_batch_id": "test-1", "items": items})
    status = {i["receiver"]: i["transaction_status"] for i in batch["items"]}
    assert status == {"juniper.hale@gmail.com": "SUCCESS", "new.maker@example.com": "UNCLAIMED"}
    assert batch["total_amount"]["value"] == "150.50" and balance(session) == before - 15050
    fails(
        session,
        "create_batch_payout",
        {"sender_batch_id": "test-1", "items": items},
        UNPROCESSABLE,
        "DUPLICATE_REQUEST_ID",
    )
    unclaimed = next(i for i in batch["items"] if i["transaction_status"] == "UNCLAIMED")
    paid = next(i for i in batch["items"] if i["transaction_status"] == "SUCCESS")
    fails(
        session,
        "cancel_unclaimed_payout_item",
        {"payout_item_id": paid["payout_item_id"]},
        UNPROCESSABLE,
        "ITEM_CANCELLATION_NOT_ALLOWED",
    )
    assert (
        ok(session, "cancel_unclaimed_payout_item", {"payout_item_id": unclaimed["payout_item_id"]})[
            "transaction_status"
        ]
        == "RETURNED"
    )
    assert balance(session) == before - 12000


def test_a_payout_larger_than_the_balance_is_refused(session):
    huge = [{"receiver": "juniper.hale@gmail.com", "amount": usd("9999999.00")}]
    fails(
        session,
        "create_batch_payout",
        {"sender_batch_id": "too-much", "items": huge},
        UNPROCESSABLE,
        "INSUFFICIENT_FUNDS",
    )


# ---------------------------------------------------------------- invoices


def draft(session: ToolSession, **extra: Any) -> dict[str, Any]:
    args = {
        "recipient_email": "orders@brambleandbean.com",
        "recipient_name": "Bramble & Bean Café",
        "items": [{"name": "Ramen Bowl", "quantity": "10", "unit_amount": usd("23.00")}],
        "due_date": "2026-04-15",
    }
    return ok(session, "create_draft_invoice", args | extra)


def test_invoice_numbers_are_unique_and_due_dates_not_past(session):
    taken = SEED["invoices"][0]["invoice_number"]
    args = {
        "recipient_email": "orders@brambleandbean.com",
        "recipient_name": "Bramble & Bean Café",
        "items": [{"name": "Ramen Bowl", "quantity": "10", "unit_amount": usd("23.00")}],
    }
    fails(
        session,
        "create_draft_invoice",
        args | {"due_date": "2026-04-15", "invoice_number": taken},
        UNPROCESSABLE,
        "DUPLICATE_INVOICE_NUMBER",
    )
    fails(session, "create_draft_invoice", args | {"due_date": "2026-03-01"}, UNPROCESSABLE, "INVALID_DUE_DATE")
    made = draft(session)
    highest = max(int(i["invoice_number"]) for i in SEED["invoices"])
    assert (
        made["status"] == "DRAFT"
        and made["invoice_number"] == f"{highest + 1:04d}"
        and made["amount"]["value"] == "230.00"
    )


def test_an_invoice_is_sent_paid_in_parts_and_never_overpaid(session):
    made = draft(session)
    fails(
        session,
        "record_invoice_payment",
        {"invoice_id": made["id"], "method": "CHECK", "payment_date": "2026-03-16"},
        UNPROCESSABLE,
        "INVALID_INVOICE_STATUS",
    )
    fails(session, "cancel_invoice", {"invoice_id": made["id"]}, UNPROCESSABLE, "CANT_CANCEL_INVOICE")
    assert ok(session, "send_invoice", {"invoice_id": made["id"]})["status"] == "SENT"
    fails(session, "send_invoice", {"invoice_id": made["id"]}, UNPROCESSABLE, "CANT_SEND_INVOICE")
    part = ok(
        session,
        "record_invoice_payment",
        {"invoice_id": made["id"], "method": "CHECK", "payment_date": "2026-03-16", "amount": usd("100.00")},
    )
    assert part["status"] == "PARTIALLY_PAID" and part["due_amount"]["value"] == "130.00"
    fails(
        session,
        "record_invoice_payment",
        {"invoice_id": made["id"], "method": "CASH", "payment_date": "2026-03-16", "amount": usd("130.01")},
        UNPROCESSABLE,
        "PAYMENT_AMOUNT_EXCEEDS_DUE",
    )
    fails(session, "cancel_invoice", {"invoice_id": made["id"]}, UNPROCESSABLE, "CANT_CANCEL_INVOICE")
    assert ok(session, "send_invoice_reminder", {"invoice_id": made["id"]})["reminders_sent"] == 1
    paid = ok(
        session,
        "record_invoice_payment",
        {"invoice_id": made["id"], "method": "BANK_TRANSFER", "payment_date": "2026-03-16"},
    )
    assert paid["status"] == "MARKED_AS_PAID" and paid["due_amount"]["value"] == "0.00" and len(paid["payments"]) == 2
    fails(session, "send_invoice_reminder", {"invoice_id": made["id"]}, UNPROCESSABLE, "INVALID_INVOICE_STATUS")


def test_a_sent_unpaid_invoice_is_cancelled(session):
    sent = next(i for i in SEED["invoices"] if i["status"] == "SENT")
    assert ok(session, "cancel_invoice", {"invoice_id": sent["id"]})["status"] == "CANCELLED"
    fails(session, "send_invoice_reminder", {"invoice_id": sent["id"]}, UNPROCESSABLE, "INVALID_INVOICE_STATUS")


def test_invoice_search_tells_near_duplicate_clients_apart(session):
    both = ok(session, "search_invoices", {"recipient_name": "Blue Ridge", "page_size": 100})
    assert {i["recipient_name"] for i in both["items"]} == {"Blue Ridge Mercantile", "Blue Ridge Market"}
    one = ok(
        session, "search_invoices", {"recipient_name": "blue ridge mercantile", "status": ["SENT", "PARTIALLY_PAID"]}
    )
    assert one["items"] and all(
        i["recipient_name"] == "Blue Ridge Mercantile" and i["status"] in ("SENT", "PARTIALLY_PAID")
        for i in one["items"]
    )
