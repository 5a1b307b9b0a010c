"""The Stripe environment's tools: PaymentIntent, refund, subscription and invoice rules, state transitions, and
every error path leaving the state unchanged. Runs the real tools on the real seed through ToolSession."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("stripe")
CLOCK = datetime(2025, 3, 14, 10, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]


# ---------------------------------------------------------------- seed lookups (by name, never by raw id)


def cus(name: str) -> str:
    (row,) = [c for c in SEED["customers"] if c["name"] == name]
    return row["id"]


def card(name: str, last4: str) -> str:
    return next(p["id"] for p in SEED["payment_methods"] if p["customer"] == cus(name) and p["last4"] == last4)


def price(product: str, currency: str, interval: str | None = None, active: bool = True) -> str:
    pid = next(p["id"] for p in SEED["products"] if p["name"] == product)
    return next(
        p["id"]
        for p in SEED["prices"]
        if p["product"] == pid
        and p["currency"] == currency
        and p["recurring_interval"] == interval
        and p["active"] == active
    )


def seed_pi(name: str, **equals: Any) -> str:
    rows = [
        p for p in SEED["payment_intents"] if p["customer"] == cus(name) and all(p[k] == v for k, v in equals.items())
    ]
    return sorted(rows, key=lambda p: p["created"])[-1]["id"]


def seed_invoice(name: str, status: str) -> dict[str, Any]:
    return next(i for i in SEED["invoices"] if i["customer"] == cus(name) and i["status"] == status)


def seed_sub(name: str) -> str:
    return next(s["id"] for s in SEED["subscriptions"] if s["customer"] == cus(name))


# ---------------------------------------------------------------- session helpers

session = session_fixture(SPEC, CLOCK)


def row(session: ToolSession, table: str, key: str) -> dict[str, Any]:
    return session.dump()[table][key]


def charge_pi(session: ToolSession, name: str, last4: str, amount: int, currency: str = "usd", **extra: Any) -> dict:
    return ok(
        session,
        "create_payment_intent",
        {
            "amount": amount,
            "currency": currency,
            "customer": cus(name),
            "payment_method": card(name, last4),
            "confirm": True,
            **extra,
        },
    )


# ---------------------------------------------------------------- interface


def test_twenty_tools_with_one_user_only_3ds_tool():
    assert len(SPEC.tools) == 20
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["authenticate_3ds"]
    assert {"create_refund", "pay_invoice", "list_prices"} <= set(SPEC.tools)


def test_agent_cannot_complete_3ds_itself(session):
    charge_pi(session, "Elena Rossi", "3184", 42000, "eur")
    outcome = session.call("authenticate_3ds", {"card_last4": "3184", "amount": 42000})
    assert not outcome.ok and outcome.error_kind == "user_only"


# ---------------------------------------------------------------- payment intents


def test_payment_intent_status_depends_on_payment_method(session):
    bare = ok(session, "create_payment_intent", {"amount": 4900, "currency": "USD", "customer": cus("Priya Raman")})
    assert (bare["status"], bare["currency"]) == ("requires_payment_method", "usd")
    ready = ok(
        session,
        "create_payment_intent",
        {
            "amount": 4900,
            "currency": "usd",
            "customer": cus("Priya Raman"),
            "payment_method": card("Priya Raman", "4242"),
        },
    )
    assert ready["status"] == "requires_confirmation" and ready["latest_charge"] is None
    done = ok(session, "confirm_payment_intent", {"payment_intent": ready["id"]})
    assert done["status"] == "succeeded" and done["amount_received"] == 4900
    charge = done["latest_charge"]
    assert (charge["captured"], charge["amount_captured"], charge["paid"]) == (True, 4900, True)


def test_minimum_amounts_and_currencies(session):
    base = {"customer": cus("Isla Fraser")}
    fails(
        session, "create_payment_intent", {**base, "amount": 29, "currency": "gbp"}, "InvalidRequest", "at least £0.30"
    )
    fails(
        session, "create_payment_intent", {**base, "amount": 49, "currency": "usd"}, "InvalidRequest", "at least $0.50"
    )
    fails(
        session,
        "create_payment_intent",
        {**base, "amount": 500, "currency": "xyz"},
        "invalid_arguments",
        "currency: Invalid currency",
    )
    fails(
        session,
        "create_payment_intent",
        {**base, "amount": 100_000_000, "currency": "usd"},
        "invalid_arguments",
        "no more than 99999999",
    )
    fails(
        session,
        "create_payment_intent",
        {**base, "amount": 0, "currency": "usd"},
        "invalid_arguments",
        "amount: Amount must be a positive integer",
    )
    assert ok(session, "create_payment_intent", {**base, "amount": 30, "currency": "gbp"})["amount"] == 30


def test_card_must_belong_to_the_customer(session):
    fails(
        session,
        "create_payment_intent",
        {
            "amount": 1000,
            "currency": "usd",
            "customer": cus("Tom Becker"),
            "payment_method": card("Priya Raman", "4242"),
        },
        "InvalidRequest",
        "belongs to a different customer",
    )
    fails(
        session,
        "create_payment_intent",
        {
            "amount": 1000,
            "currency": "usd",
            "payment_method": card("Priya Raman", "4242"),
        },
        "InvalidRequest",
        "attached to a customer",
    )
    fails(
        session,
        "create_payment_intent",
        {"amount": 1000, "currency": "usd", "confirm": True},
        "InvalidRequest",
        "missing a payment method",
    )


def test_decline_records_a_failed_charge_and_retry_with_another_card(session):
    failed = seed_pi("Ben Okafor", status="requires_payment_method")
    fresh = charge_pi(session, "Ben Okafor", "9995", 2000)
    assert fresh["status"] == "requires_payment_method"
    assert fresh["last_payment_error"]["decline_code"] == "insufficient_funds"
    assert fresh["latest_charge"]["status"] == "failed" and fresh["latest_charge"]["failure_code"] == "card_declined"
    other = card("Ben Okafor", "4444")
    retried = ok(session, "confirm_payment_intent", {"payment_intent": failed, "payment_method": other})
    assert retried["status"] == "succeeded" and retried["last_payment_error"] is None
    fails(session, "confirm_payment_intent", {"payment_intent": failed}, "Conflict", "status of succeeded")


def test_expired_card_is_declined(session):
    pi = charge_pi(session, "Hannah Schmidt", "6011", 2700, "eur")
    assert pi["last_payment_error"]["code"] == "expired_card"


def test_3ds_requires_the_cardholder_then_succeeds(session):
    pi = charge_pi(session, "Elena Rossi", "3184", 42000, "eur")
    assert (pi["status"], pi["next_action"], pi["latest_charge"]) == ("requires_action", "use_stripe_sdk", None)
    fails(session, "confirm_payment_intent", {"payment_intent": pi["id"]}, "Conflict", "3D Secure")
    done = ok(session, "authenticate_3ds", {"card_last4": "3184", "amount": 42000}, caller="user")
    assert done["id"] == pi["id"] and done["status"] == "succeeded" and done["amount_received"] == 42000


def test_refused_3ds_sends_the_payment_back(session):
    pi = charge_pi(session, "Elena Rossi", "3184", 42000, "eur")
    refused = ok(session, "authenticate_3ds", {"card_last4": "3184", "amount": 42000, "approve": False}, caller="user")
    assert refused["status"] == "requires_payment_method"
    assert refused["last_payment_error"]["code"] == "payment_intent_authentication_failure"
    assert row(session, "payment_intents", pi["id"])["status"] == "requires_payment_method"


def test_partial_capture_releases_the_rest_and_caps_refunds(session):
    hold = seed_pi("Tom Becker", status="requires_capture")
    fails(
        session,
        "capture_payment_intent",
        {"payment_intent": hold, "amount_to_capture": 45001},
        "InvalidRequest",
        "greater than the amount capturable",
    )
    pi = ok(session, "capture_payment_intent", {"payment_intent": hold, "amount_to_capture": 30000})
    assert (pi["status"], pi["amount_received"], pi["amount_capturable"]) == ("succeeded", 30000, 0)
    assert (pi["latest_charge"]["amount_captured"], pi["latest_charge"]["amount_refunded"]) == (30000, 15000)
    fails(session, "capture_payment_intent", {"payment_intent": hold}, "Conflict", "status of succeeded")
    fails(
        session,
        "create_refund",
        {"payment_intent": hold, "amount": 30001},
        "InvalidRequest",
        "greater than unrefunded amount on charge ($300.00)",
    )
    assert ok(session, "create_refund", {"payment_intent": hold})["amount"] == 30000


def test_cancel_rules(session):
    hold = seed_pi("Samuel Ortiz", status="requires_capture")
    pi = ok(session, "cancel_payment_intent", {"payment_intent": hold, "cancellation_reason": "requested_by_customer"})
    assert (pi["status"], pi["cancellation_reason"]) == ("canceled", "requested_by_customer")
    assert pi["latest_charge"]["refunded"] is True and pi["latest_charge"]["amount_refunded"] == 150000
    fails(session, "cancel_payment_intent", {"payment_intent": hold}, "Conflict", "status of canceled")
    paid = seed_pi("Priya Raman", status="succeeded")
    fails(session, "cancel_payment_intent", {"payment_intent": paid}, "Conflict", "status of succeeded")
    invoice_pi = seed_invoice("Hannah Schmidt", "open")["payment_intent"]
    fails(session, "cancel_payment_intent", {"payment_intent": invoice_pi}, "Conflict", "Void the invoice")


# ---------------------------------------------------------------- refunds


def test_partial_then_remaining_refund(session):
    pi = seed_pi("Priya Raman", description="Print Credits (100)")
    first = ok(session, "create_refund", {"payment_intent": pi, "amount": 1000, "reason": "requested_by_customer"})
    assert (first["amount"], first["status"], first["reason"]) == (1000, "succeeded", "requested_by_customer")
    charge = row(session, "charges", first["charge"])
    assert (charge["amount_refunded"], charge["refunded"]) == (1000, False)
    fails(session, "create_refund", {"payment_intent": pi, "amount": 1001}, "InvalidRequest", "unrefunded amount")
    rest = ok(session, "create_refund", {"payment_intent": pi})
    assert rest["amount"] == 1000 and row(session, "charges", first["charge"])["refunded"] is True
    fails(session, "create_refund", {"payment_intent": pi, "amount": 1}, "Conflict", "already been refunded")


def test_refunds_only_on_succeeded_undisputed_payments(session):
    fails(
        session,
        "create_refund",
        {"payment_intent": seed_pi("Tom Becker", status="requires_capture")},
        "Conflict",
        "not been captured",
    )
    fails(
        session,
        "create_refund",
        {"payment_intent": seed_pi("Ben Okafor", status="requires_payment_method")},
        "Conflict",
        "does not have a successful charge",
    )
    fails(
        session,
        "create_refund",
        {"payment_intent": seed_pi("Maya Goldberg", description="Design Audit")},
        "Conflict",
        "disputed",
    )
    fails(session, "create_refund", {"payment_intent": "pi_missing"}, "NotFound", "pi_missing")


# ---------------------------------------------------------------- subscriptions


def test_subscription_charges_the_first_invoice(session):
    team = price("Lumen Team", "gbp", "month")
    sub = ok(session, "create_subscription", {"customer": cus("Isla Fraser"), "price": team, "quantity": 3})
    assert sub["status"] == "active" and sub["currency"] == "gbp"
    invoice = row(session, "invoices", sub["latest_invoice"])
    assert (invoice["status"], invoice["total"], invoice["amount_paid"]) == ("paid", 4800, 4800)
    assert row(session, "customers", cus("Isla Fraser"))["currency"] == "gbp"
    fails(
        session,
        "create_subscription",
        {"customer": cus("Isla Fraser"), "price": price("Lumen Pro", "usd", "month")},
        "InvalidRequest",
        "combine currencies",
    )


def test_trial_charges_nothing(session):
    before = len(session.dump()["invoices"])
    sub = ok(
        session,
        "create_subscription",
        {"customer": cus("Isla Fraser"), "price": price("Lumen Starter", "gbp", "month"), "trial_period_days": 14},
    )
    assert sub["status"] == "trialing" and sub["trial_end"] == sub["current_period_end"]
    assert sub["trial_end"].startswith("2025-03-28") and sub["latest_invoice"] is None
    assert len(session.dump()["invoices"]) == before


def test_subscription_with_3ds_card_is_incomplete_until_authenticated(session):
    yearly = price("Lumen Pro", "eur", "year")
    sub = ok(session, "create_subscription", {"customer": cus("Lucas Moreau"), "price": yearly})
    assert sub["status"] == "incomplete"
    assert row(session, "invoices", sub["latest_invoice"])["status"] == "open"
    ok(session, "authenticate_3ds", {"card_last4": "3220", "amount": 27000}, caller="user")
    assert row(session, "subscriptions", sub["id"])["status"] == "active"
    assert row(session, "invoices", sub["latest_invoice"])["status"] == "paid"


def test_subscription_with_declining_card_is_incomplete_and_customer_delinquent(session):
    monthly = price("Lumen Pro", "usd", "month")
    sub = ok(session, "create_subscription", {"customer": cus("Ben Okafor"), "price": monthly})
    invoice = row(session, "invoices", sub["latest_invoice"])
    assert (sub["status"], invoice["status"], invoice["attempt_count"]) == ("incomplete", "open", 1)
    assert row(session, "customers", cus("Ben Okafor"))["delinquent"] is True


def test_subscription_price_rules(session):
    customer = cus("Priya Raman")
    fails(
        session,
        "create_subscription",
        {"customer": customer, "price": price("Brand Kit Export", "usd")},
        "InvalidRequest",
        "type=recurring",
    )
    fails(
        session,
        "create_subscription",
        {"customer": customer, "price": price("Lumen Pro", "usd", "month", False)},
        "InvalidRequest",
        "inactive",
    )
    fails(
        session,
        "create_subscription",
        {"customer": customer, "price": price("Lumen Pro", "usd", "month"), "collection_method": "send_invoice"},
        "InvalidRequest",
        "days_until_due",
    )
    fails(
        session,
        "create_subscription",
        {
            "customer": cus("Felix Wagner"),
            "price": price("Lumen Pro", "usd", "month"),
            "default_payment_method": card("Priya Raman", "4242"),
        },
        "InvalidRequest",
        "does not belong",
    )


def test_send_invoice_subscription_is_active_with_a_due_invoice(session):
    sub = ok(
        session,
        "create_subscription",
        {
            "customer": cus("Tom Becker"),
            "price": price("Lumen Team", "usd", "year"),
            "quantity": 4,
            "collection_method": "send_invoice",
            "days_until_due": 15,
        },
    )
    invoice = row(session, "invoices", sub["latest_invoice"])
    assert sub["status"] == "active"
    assert (invoice["status"], invoice["amount_due"], invoice["due_date"]) == ("open", 76000, "2025-03-29")


def test_update_and_cancel_subscription(session):
    sub = seed_sub("Acme Robotics")
    assert ok(session, "update_subscription", {"subscription": sub, "quantity": 8})["quantity"] == 8
    fails(
        session,
        "update_subscription",
        {"subscription": sub, "price": price("Lumen Team", "eur", "month")},
        "InvalidRequest",
        "cannot change currency",
    )
    fails(session, "update_subscription", {"subscription": sub}, "InvalidRequest", "Nothing to update")
    scheduled = ok(session, "update_subscription", {"subscription": sub, "cancel_at_period_end": True})
    assert scheduled["cancel_at_period_end"] is True
    canceled = ok(
        session, "cancel_subscription", {"subscription": sub, "feedback": "switched_service", "comment": "Moved"}
    )
    assert canceled["status"] == "canceled"
    assert canceled["cancellation_details"] == {"feedback": "switched_service", "comment": "Moved"}
    fails(session, "cancel_subscription", {"subscription": sub}, "Conflict", "already canceled")
    fails(session, "update_subscription", {"subscription": sub, "quantity": 2}, "Conflict", "can't be updated")
    listed = ok(session, "list_subscriptions", {"customer": cus("Acme Robotics")})["results"]
    everything = ok(session, "list_subscriptions", {"customer": cus("Acme Robotics"), "status": "all"})["results"]
    assert listed == [] and [s["id"] for s in everything] == [sub]


# ---------------------------------------------------------------- invoices


def test_invoice_lifecycle_with_credit_applied(session):
    customer = cus("Grace Liu")
    draft = ok(
        session,
        "create_invoice",
        {
            "customer": customer,
            "lines": [
                {"price": price("Brand Kit Export", "usd")},
                {"amount": 1500, "description": "Rush fee", "quantity": 2},
            ],
        },
    )
    assert (draft["status"], draft["number"], draft["total"]) == ("draft", None, 7900)
    fails(session, "pay_invoice", {"invoice": draft["id"]}, "Conflict", "Finalize the draft")
    fails(session, "void_invoice", {"invoice": draft["id"]}, "Conflict", "draft")
    opened = ok(session, "finalize_invoice", {"invoice": draft["id"]})
    assert opened["status"] == "open" and opened["number"].endswith("-0004")
    assert (opened["starting_balance"], opened["amount_due"]) == (-2000, 5900)
    assert row(session, "customers", customer)["balance"] == 0
    fails(session, "finalize_invoice", {"invoice": draft["id"]}, "Conflict", "already finalized")
    paid = ok(session, "pay_invoice", {"invoice": draft["id"]})
    assert (paid["status"], paid["amount_paid"], paid["amount_remaining"]) == ("paid", 5900, 0)
    assert row(session, "payment_intents", paid["payment_intent"])["amount"] == 5900
    fails(session, "void_invoice", {"invoice": draft["id"]}, "Conflict", "status paid")
    fails(session, "pay_invoice", {"invoice": draft["id"]}, "Conflict", "already paid")


def test_invoice_fully_covered_by_credit_is_paid_on_finalization(session):
    customer = cus("Grace Liu")
    draft = ok(session, "create_invoice", {"customer": customer, "lines": [{"amount": 1200, "description": "Fonts"}]})
    done = ok(session, "finalize_invoice", {"invoice": draft["id"]})
    assert (done["status"], done["amount_due"], done["payment_intent"]) == ("paid", 0, None)
    assert row(session, "customers", customer)["balance"] == -800


def test_invoice_line_rules(session):
    customer = cus("Chloe Dubois")
    fails(
        session,
        "create_invoice",
        {"customer": customer, "lines": [{"price": price("Lumen Pro", "usd", "month")}]},
        "InvalidRequest",
        "recurring price",
    )
    fails(
        session,
        "create_invoice",
        {"customer": customer, "lines": [{"amount": 500}]},
        "InvalidRequest",
        "needs a description",
    )
    fails(session, "create_invoice", {"customer": customer, "lines": []}, "invalid_arguments", "at least one line")
    fails(
        session,
        "create_invoice",
        {"customer": customer, "lines": [{"amount": 500, "description": "x", "quantity": 0}]},
        "invalid_arguments",
        "quantity",
    )
    fails(
        session,
        "create_invoice",
        {
            "customer": customer,
            "lines": [{"amount": 500, "description": "x"}],
            "collection_method": "send_invoice",
            "days_until_due": 366,
        },
        "invalid_arguments",
        "days_until_due must be between 0 and 365",
    )
    fails(
        session,
        "create_invoice",
        {"customer": customer, "lines": [{"price": price("Brand Kit Export", "eur")}]},
        "InvalidRequest",
        "combine currencies",
    )
    fails(
        session,
        "create_invoice",
        {"customer": customer, "lines": [{"amount": 500, "description": "x"}], "collection_method": "send_invoice"},
        "InvalidRequest",
        "days_until_due",
    )


def test_overdue_invoice_paid_with_new_card_reactivates_subscription(session):
    invoice = seed_invoice("Hannah Schmidt", "open")
    declined = ok(session, "pay_invoice", {"invoice": invoice["id"]})
    assert declined["status"] == "open" and declined["attempt_count"] == invoice["attempt_count"] + 1
    assert declined["last_payment_error"]["code"] == "expired_card"
    paid = ok(session, "pay_invoice", {"invoice": invoice["id"], "payment_method": card("Hannah Schmidt", "2231")})
    assert paid["status"] == "paid" and paid["last_payment_error"] is None
    assert row(session, "subscriptions", seed_sub("Hannah Schmidt"))["status"] == "active"
    assert row(session, "customers", cus("Hannah Schmidt"))["delinquent"] is False


def test_uncollectible_void_and_out_of_band(session):
    invoice = seed_invoice("Marcus Bell", "open")["id"]
    written_off = ok(session, "mark_invoice_uncollectible", {"invoice": invoice})
    assert written_off["status"] == "uncollectible"
    assert row(session, "customers", cus("Marcus Bell"))["delinquent"] is False
    fails(session, "mark_invoice_uncollectible", {"invoice": invoice}, "Conflict", "Only open invoices")
    voided = ok(session, "void_invoice", {"invoice": invoice})
    assert (voided["status"], voided["amount_remaining"]) == ("void", 0)
    assert row(session, "payment_intents", voided["payment_intent"])["status"] == "canceled"
    fails(session, "pay_invoice", {"invoice": invoice, "paid_out_of_band": True}, "Conflict", "void")
    check = seed_invoice("William Turner", "uncollectible")["id"]
    paid = ok(session, "pay_invoice", {"invoice": check, "paid_out_of_band": True})
    assert (paid["status"], paid["paid_out_of_band"], paid["amount_paid"]) == ("paid", True, 150000)


# ---------------------------------------------------------------- reads


def test_reads_filter_and_paginate(session):
    found = ok(session, "search_customers", {"query": "NORTHWIND"})["results"]
    assert [c["name"] for c in found] == ["Northwind Traders"]
    for wildcard in ("%", "_", "\\"):  # matched as text, never as a LIKE pattern
        assert ok(session, "search_customers", {"query": wildcard})["results"] == []
    assert [c["name"] for c in ok(session, "search_customers", {"query": "hLo"})["results"]] == ["Chloe Dubois"]
    page = ok(session, "list_prices", {"limit": 5})
    assert len(page["results"]) == 5 and page["has_more"]
    archived = ok(session, "list_prices", {"active": False, "limit": 100})["results"]
    assert archived and all(not p["active"] for p in archived)
    cards = ok(session, "list_payment_methods", {"customer": cus("Hannah Schmidt")})
    assert [c["card"]["last4"] for c in cards] == ["2231", "6011"]
    assert "three_d_secure" not in cards[0] and "decline_code" not in cards[0]
    past_due = ok(session, "list_subscriptions", {"status": "past_due", "limit": 100})["results"]
    assert past_due and {s["status"] for s in past_due} == {"past_due"}
    fails(session, "list_payment_methods", {"customer": "cus_nobody"}, "NotFound", "cus_nobody")


# ---------------------------------------------------------------- argument types


def _schema(tool: str, argument: str) -> dict:
    """An argument's JSON schema, the optional ones' non-null branch."""
    found = SPEC.tools[tool].input_schema["properties"][argument]
    return next((b for b in found.get("anyOf", []) if b.get("type") != "null"), found)


def test_every_bound_a_tool_enforces_is_in_its_schema():
    currencies = ["usd", "eur", "gbp", "cad", "aud", "chf", "jpy"]
    assert _schema("create_payment_intent", "currency")["enum"] == currencies
    assert _schema("list_prices", "currency")["enum"] == currencies
    assert (
        _schema("create_payment_intent", "amount")["minimum"],
        _schema("create_payment_intent", "amount")["maximum"],
    ) == (1, 99_999_999)
    for tool in ("search_customers", "list_payment_intents", "list_prices", "list_subscriptions", "list_invoices"):
        assert (_schema(tool, "limit")["minimum"], _schema(tool, "limit")["maximum"]) == (1, 100), tool
    assert _schema("capture_payment_intent", "amount_to_capture")["minimum"] == 1
    assert _schema("create_refund", "amount")["minimum"] == 1
    assert _schema("create_subscription", "quantity")["minimum"] == 1
    assert _schema("update_subscription", "quantity")["minimum"] == 1
    assert (
        _schema("create_subscription", "trial_period_days")["minimum"],
        _schema("create_subscription", "trial_period_days")["maximum"],
    ) == (1, 730)
    assert _schema("create_subscription", "days_until_due")["maximum"] == 365
    assert _schema("create_invoice", "lines")["minItems"] == 1
    assert _schema("authenticate_3ds", "card_last4")["pattern"] == r"^\d{4}$"


def test_values_a_type_refuses_fail_with_stripes_text_and_change_nothing(session):
    fails(session, "list_prices", {"limit": 101}, "invalid_arguments", "limit: Limit can range between 1 and 100")
    fails(session, "search_customers", {"limit": 0}, "invalid_arguments", "Limit can range between 1 and 100")
    sub = seed_sub("Hannah Schmidt")
    fails(
        session,
        "update_subscription",
        {"subscription": sub, "quantity": 0},
        "invalid_arguments",
        "Invalid positive integer",
    )
    fails(
        session,
        "create_subscription",
        {"customer": cus("Chloe Dubois"), "price": price("Lumen Pro", "usd", "month"), "trial_period_days": 731},
        "invalid_arguments",
        "trial_period_days must be between 1 and 730",
    )
    pi = seed_pi("Hannah Schmidt", status="succeeded")
    fails(
        session,
        "create_refund",
        {"payment_intent": pi, "amount": 0},
        "invalid_arguments",
        "Refund amount must be a positive integer.",
    )
    fails(
        session,
        "capture_payment_intent",
        {"payment_intent": pi, "amount_to_capture": 0},
        "invalid_arguments",
        "amount_to_capture must be a positive integer",
    )
    fails(
        session,
        "authenticate_3ds",
        {"card_last4": "42x2", "amount": 500},
        "invalid_arguments",
        "card_last4 must be the card's last 4 digits",
        caller="user",
    )
