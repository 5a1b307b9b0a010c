"""The Shopify environment's tools: results and state transitions for each store rule, and every error path
leaving the state unchanged. Runs the real tools on the real seed through ToolSession."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Any

import pytest

from envfactory_gym import ToolSession, resolve
from envfactory_zoo.shopify import rules

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("shopify")
CLOCK = datetime(2025, 6, 12, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]


# ---------------------------------------------------------------- seed lookups (by name, never by raw id)


def customer(first: str, last: str) -> dict[str, Any]:
    return next(c for c in SEED["customers"] if (c["first_name"], c["last_name"]) == (first, last))


def variant_id(title: str, vtitle: str = "Default Title") -> str:
    pid = next(p["id"] for p in SEED["products"] if p["title"] == title and p["status"] == "active")
    return next(v["id"] for v in SEED["variants"] if v["product_id"] == pid and v["title"] == vtitle)


def order_line(first: str, last: str, title: str) -> tuple[str, str]:
    """(order id, line item id) of the customer's seed order holding `title`."""
    ids = {o["id"] for o in SEED["orders"] if o["customer_id"] == customer(first, last)["id"]}
    found = [li for li in SEED["line_items"] if li["order_id"] in ids and li["title"] == title]
    assert len(found) == 1
    return found[0]["order_id"], found[0]["id"]


def cart_line(first: str, last: str, vid: str) -> str:
    cart = next(c for c in SEED["carts"] if c["customer_id"] == customer(first, last)["id"])
    return next(
        line["id"] for line in SEED["cart_lines"] if line["cart_id"] == cart["id"] and line["variant_id"] == vid
    )


# ---------------------------------------------------------------- session helpers

session = session_fixture(SPEC, CLOCK)


def login(session: ToolSession, first: str, last: str) -> None:
    ok(session, "log_in", {"email": customer(first, last)["email"]}, caller="user")


def stock(session: ToolSession, vid: str) -> int:
    return session.dump()["variants"][vid]["inventory_quantity"]


def row(session: ToolSession, table: str, key: str) -> dict[str, Any]:
    return session.dump()[table][key]


# ---------------------------------------------------------------- constraints the model sees


def _resolved(schema: dict[str, Any], prop: dict[str, Any]) -> dict[str, Any]:
    """A property schema with `$ref`s into `$defs` followed and a nullable `anyOf` unwrapped."""
    if "anyOf" in prop:
        prop = next(option for option in prop["anyOf"] if option.get("type") != "null")
    if "$ref" in prop:
        prop = schema["$defs"][prop["$ref"].rsplit("/", 1)[-1]]
    return prop


@pytest.mark.parametrize(
    "tool,path,bound",
    [
        ("cart_lines_add", ("lines",), {"minItems": 1, "maxItems": 250}),
        ("cart_lines_add", ("lines", "items", "quantity"), {"minimum": 1}),
        ("cart_lines_update", ("lines",), {"minItems": 1}),
        ("cart_lines_update", ("lines", "items", "quantity"), {"minimum": 0}),
        ("cart_discount_codes_update", ("discount_codes",), {"maxItems": 1}),
        ("search_products", ("page_size",), {"minimum": 1, "maximum": 50}),
        ("list_orders", ("page_size",), {"minimum": 1, "maximum": 50}),
        ("list_orders", ("status",), {"enum": ["open", "cancelled", "any"]}),
        ("cancel_order", ("reason",), {"enum": ["customer", "inventory", "fraud", "declined", "other"]}),
        ("create_refund", ("refund_line_items",), {"minItems": 1}),
        ("create_refund", ("refund_line_items", "items", "quantity"), {"minimum": 1}),
        ("create_return", ("return_line_items",), {"minItems": 1}),
        ("create_return", ("return_line_items", "items", "quantity"), {"minimum": 1}),
        ("checkout_cart", ("shipping_address", "country_code"), {"pattern": "^[A-Za-z]{2}$"}),
        ("checkout_cart", ("shipping_method",), {"enum": ["standard", "express"]}),
        ("confirm_payment_3ds", ("order_name",), {"pattern": "^#\\d+$"}),
    ],
)
def test_every_bound_a_tool_enforces_is_in_its_schema(tool, path, bound):
    schema = SPEC.tools[tool].input_schema
    prop = _resolved(schema, schema["properties"][path[0]])
    for step in path[1:]:
        prop = _resolved(schema, prop[step] if step == "items" else prop["properties"][step])
    assert bound.items() <= prop.items(), prop


def test_refund_amounts_are_positive_decimal_strings_in_the_schema():
    schema = SPEC.tools["create_refund"].input_schema
    pattern = _resolved(schema, schema["properties"]["amount"])["pattern"]
    good, bad = ["12.50", "0.01", "0.5", "90", "100.00"], ["0", "0.00", "-5", "1.234", "ten", "1,000.00", ""]
    assert all(re.fullmatch(pattern, text) for text in good)
    assert not any(re.fullmatch(pattern, text) for text in bad)


# ---------------------------------------------------------------- sign-in and permissions


def test_log_in_is_user_only_and_checks_the_account(session):
    fails(
        session, "log_in", {"email": customer("Maya", "Brooks")["email"]}, "user_only", "only be performed by the user"
    )
    fails(session, "log_in", {"email": "nobody@example.com"}, "NotFound", "Unidentified customer", caller="user")
    fails(
        session,
        "log_in",
        {"email": customer("Rosa", "Delgado")["email"]},
        "PermissionDenied",
        "disabled",
        caller="user",
    )
    fails(
        session,
        "log_in",
        {"email": customer("Tom", "Fletcher")["email"]},
        "PermissionDenied",
        "not activated",
        caller="user",
    )
    out = ok(session, "log_in", {"email": customer("Maya", "Brooks")["email"].upper()}, caller="user")
    assert out["first_name"] == "Maya"
    assert session.dump()["storefront_sessions"]["current"]["customer_id"] == customer("Maya", "Brooks")["id"]


@pytest.mark.parametrize(
    "name,args",
    [
        ("get_customer", {}),
        ("get_cart", {}),
        ("clear_cart", {}),
        ("checkout_cart", {}),
        ("list_orders", {}),
        ("cart_lines_add", {"lines": [{"merchandise_id": "var_0001", "quantity": 1}]}),
    ],
)
def test_shopper_tools_need_a_signed_in_shopper(session, name, args):
    fails(session, name, args, "PermissionDenied", "No shopper is signed in")


def test_orders_of_other_customers_are_not_found(session):
    login(session, "Maya", "Brooks")
    other, _ = order_line("Marcus", "Hill", "Timberline Hiking Boot")
    fails(session, "get_order", {"order_id": other}, "NotFound", "not found for this customer")
    fails(session, "cancel_order", {"order_id": other}, "NotFound", "not found for this customer")
    fails(session, "create_refund", {"order_id": other, "amount": "1.00"}, "NotFound", "not found for this customer")
    _, boot = order_line("Marcus", "Hill", "Timberline Hiking Boot")
    fails(
        session,
        "create_return",
        {"order_id": other, "return_line_items": [{"line_item_id": boot, "quantity": 1, "return_reason": "unwanted"}]},
        "NotFound",
        "not found for this customer",
    )


def test_get_customer_and_list_orders(session):
    login(session, "Hannah", "Lee")
    me = ok(session, "get_customer")
    assert me["orders_count"] == 2 and me["cart_id"] is None and "three_d_secure" not in me["payment_method"]
    listed = ok(session, "list_orders")["results"]
    assert [o["created_at"] for o in listed] == sorted((o["created_at"] for o in listed), reverse=True)
    assert "1 x Daybreak 22L Daypack - Black" in listed[0]["items"]
    assert ok(session, "list_orders", {"status": "cancelled"})["results"] == []
    assert len(ok(session, "list_orders", {"status": "open"})["results"]) == 2


def test_get_customer_counts_spend_net_of_refunds(session):
    login(session, "Zoe", "Wright")
    before = ok(session, "get_customer")
    order_id, _ = order_line("Zoe", "Wright", "Merino 150 Crew Tee")
    ok(session, "create_refund", {"order_id": order_id, "amount": "10.00"})
    after = ok(session, "get_customer")
    assert rules.cents(before["total_spent"]) - rules.cents(after["total_spent"]) == 1000
    assert after["orders_count"] == before["orders_count"]


# ---------------------------------------------------------------- catalog


def test_search_hides_draft_and_archived_products_and_paginates(session):
    titles = [p["title"] for p in ok(session, "search_products", {"query": "rain jacket", "page_size": 50})["results"]]
    assert "Ridgeline Rain Jacket" in titles and "Puddle Kids Rain Jacket" in titles
    assert "Ridgeline Rain Jacket (2024)" not in titles
    assert not ok(session, "search_products", {"query": "glacier"})["results"]
    first = ok(session, "search_products", {"page_size": 5})
    assert first["has_more"] and len(first["results"]) == 5
    second = ok(session, "search_products", {"page_size": 5, "cursor": first["next_cursor"]})
    assert {p["id"] for p in first["results"]}.isdisjoint(p["id"] for p in second["results"])
    kitchen = ok(session, "search_products", {"product_type": "camp kitchen", "page_size": 50})["results"]
    assert kitchen and all(p["product_type"] == "Camp Kitchen" for p in kitchen)


def test_search_reports_stock_and_pre_orders(session):
    chair = ok(session, "search_products", {"query": "camp chair", "available_only": True})["results"][0]
    assert chair["variants"][0]["quantity_available"] == 0
    assert chair["variants"][0]["available_for_sale"] and chair["variants"][0]["inventory_policy"] == "continue"
    jacket = ok(session, "search_products", {"query": "ridgeline"})["results"][0]
    by_title = {v["title"]: v for v in jacket["variants"]}
    assert not by_title["L / Forest"]["available_for_sale"] and by_title["L / Slate"]["quantity_available"] == 2


def test_available_only_leaves_out_products_nothing_can_be_bought_of(session):
    def sell_out(tables):
        pid = next(p["id"] for p in tables["products"] if p["title"] == "Lumen 400 Headlamp")
        for v in tables["variants"]:
            if v["product_id"] == pid:
                v["inventory_quantity"] = 0

    restore_seed_with(session, sell_out, CLOCK)
    assert ok(session, "search_products", {"query": "headlamp"})["results"]
    assert ok(session, "search_products", {"query": "headlamp", "available_only": True})["results"] == []


# ---------------------------------------------------------------- cart


def test_cart_lines_add_creates_the_cart_and_merges_lines(session):
    login(session, "Maya", "Brooks")
    socks = variant_id("Merino Hiking Socks", "M")
    cart = ok(session, "cart_lines_add", {"lines": [{"merchandise_id": socks, "quantity": 2}]})
    cart = ok(session, "cart_lines_add", {"lines": [{"merchandise_id": socks, "quantity": 1}]})
    assert len(cart["lines"]) == 1 and cart["lines"][0]["quantity"] == 3
    assert cart["subtotal_amount"] == "66.00" and cart["total_amount"] == "66.00"
    assert ok(session, "get_customer")["cart_id"] == cart["id"]
    assert stock(session, socks) == 18  # a cart reserves nothing


def test_cart_cannot_hold_more_than_stock_unless_pre_order(session):
    login(session, "Lucas", "Martin")
    headlamp = variant_id("Lumen 400 Headlamp")
    fails(
        session,
        "cart_lines_add",
        {"lines": [{"merchandise_id": headlamp, "quantity": 3}]},
        "Conflict",
        "Only 2 of 'Lumen 400 Headlamp' in stock",
    )
    ok(session, "cart_lines_add", {"lines": [{"merchandise_id": headlamp, "quantity": 2}]})
    fails(
        session, "cart_lines_add", {"lines": [{"merchandise_id": headlamp, "quantity": 1}]}, "Conflict", "would hold 3"
    )
    chair = variant_id("Packable Camp Chair")
    cart = ok(session, "cart_lines_add", {"lines": [{"merchandise_id": chair, "quantity": 3}]})
    assert any(line["merchandise_id"] == chair and line["quantity"] == 3 for line in cart["lines"])


def test_cart_lines_add_rejects_bad_lines(session):
    login(session, "Maya", "Brooks")
    archived = next(
        v["id"]
        for v in SEED["variants"]
        if v["product_id"] in {p["id"] for p in SEED["products"] if p["status"] == "archived"}
    )
    fails(session, "cart_lines_add", {"lines": [{"merchandise_id": archived}]}, "NotFound", "does not exist")
    fails(session, "cart_lines_add", {"lines": [{"merchandise_id": "var_9999"}]}, "NotFound", "does not exist")
    fails(
        session,
        "cart_lines_add",
        {"lines": [{"merchandise_id": variant_id("Titanium Spork"), "quantity": 0}]},
        "invalid_arguments",
        "lines.0.quantity: Input should be greater than or equal to 1",
    )
    fails(session, "cart_lines_add", {"lines": []}, "invalid_arguments", "lines: List should have at least 1 item")
    assert session.dump()["carts"] == {c["id"]: session.dump()["carts"][c["id"]] for c in SEED["carts"]}


def test_cart_lines_update_changes_and_removes_lines(session):
    login(session, "Daniel", "Okoro")
    headlamp = cart_line("Daniel", "Okoro", variant_id("Lumen 400 Headlamp"))
    spork = cart_line("Daniel", "Okoro", variant_id("Titanium Spork"))
    fails(session, "cart_lines_update", {"lines": [{"id": headlamp, "quantity": 5}]}, "Conflict", "Only 2")
    fails(session, "cart_lines_update", {"lines": [{"id": "cl_9999", "quantity": 1}]}, "NotFound", "not in this cart")
    fails(
        session,
        "cart_lines_update",
        {"lines": [{"id": spork, "quantity": -1}]},
        "invalid_arguments",
        "lines.0.quantity: Input should be greater than or equal to 0",
    )
    cart = ok(session, "cart_lines_update", {"lines": [{"id": headlamp, "quantity": 2}, {"id": spork, "quantity": 0}]})
    assert {line["id"]: line["quantity"] for line in cart["lines"]}.get(headlamp) == 2
    assert spork not in session.dump()["cart_lines"]


def test_clear_cart_empties_lines_and_codes_then_conflicts(session):
    login(session, "Lucas", "Martin")
    before = ok(session, "get_cart")
    assert before["lines"] and before["discount_codes"][0]["code"] == "HIKEMORE"
    cart = ok(session, "clear_cart")
    assert cart["lines"] == [] and cart["discount_codes"] == [] and cart["total_amount"] == "0.00"
    assert not any(line["cart_id"] == cart["id"] for line in session.dump()["cart_lines"].values())
    fails(session, "clear_cart", {}, "Conflict", "already empty")


def test_cart_tools_without_a_cart(session):
    login(session, "Maya", "Brooks")
    fails(session, "get_cart", {}, "NotFound", "no cart yet")
    fails(session, "clear_cart", {}, "NotFound", "no cart yet")
    fails(session, "checkout_cart", {}, "NotFound", "no cart yet")


# ---------------------------------------------------------------- discount codes


@pytest.mark.parametrize(
    "first,last,code,kind,text",
    [
        ("Grace", "Kim", "NOPE", "NotFound", "is not valid"),
        ("Grace", "Kim", "SPRING25", "InvalidRequest", "expired on 2025-05-31"),
        ("Grace", "Kim", "SOLSTICE20", "InvalidRequest", "not active yet"),
        ("Grace", "Kim", "TRAIL20", "Conflict", "usage limit"),
        ("Grace", "Kim", "SUMMIT15", "InvalidRequest", "at least 100.00; the cart is at 98.00"),
        ("Jacob", "Nguyen", "WELCOME10", "Conflict", "once per customer"),
    ],
)
def test_discount_code_rules(session, first, last, code, kind, text):
    login(session, first, last)
    fails(session, "cart_discount_codes_update", {"discount_codes": [code]}, kind, text)


def test_one_code_per_cart_and_codes_are_case_insensitive(session):
    login(session, "Grace", "Kim")
    fails(
        session,
        "cart_discount_codes_update",
        {"discount_codes": ["FIELDTRIP5", "HIKEMORE"]},
        "invalid_arguments",
        "discount_codes: List should have at most 1 item",
    )
    cart = ok(session, "cart_discount_codes_update", {"discount_codes": ["hikemore"]})
    assert cart["discount_codes"] == [{"code": "HIKEMORE", "applicable": True, "message": None}]
    assert (cart["subtotal_amount"], cart["discount_amount"], cart["total_amount"]) == ("98.00", "14.70", "83.30")
    cart = ok(session, "cart_discount_codes_update", {"discount_codes": []})
    assert cart["discount_codes"] == [] and cart["discount_amount"] == "0.00"


def test_code_that_stops_applying_blocks_checkout(session):
    login(session, "Grace", "Kim")
    cart = ok(session, "cart_lines_add", {"lines": [{"merchandise_id": variant_id("Titanium Spork"), "quantity": 1}]})
    ok(session, "cart_discount_codes_update", {"discount_codes": ["SUMMIT15"]})
    spork = next(line["id"] for line in cart["lines"] if line["product_title"] == "Titanium Spork")
    cart = ok(session, "cart_lines_update", {"lines": [{"id": spork, "quantity": 0}]})
    assert cart["discount_codes"][0]["applicable"] is False and cart["discount_amount"] == "0.00"
    fails(session, "checkout_cart", {}, "Conflict", "needs a subtotal of at least 100.00")


def test_a_fixed_amount_code_never_takes_more_than_the_subtotal(session):
    def generous(tables):
        next(d for d in tables["discount_codes"] if d["code"] == "FIELDTRIP5")["value"] = "50.00"

    restore_seed_with(session, generous, CLOCK)
    login(session, "Maya", "Brooks")
    ok(session, "cart_lines_add", {"lines": [{"merchandise_id": variant_id("Titanium Spork"), "quantity": 1}]})
    cart = ok(session, "cart_discount_codes_update", {"discount_codes": ["FIELDTRIP5"]})
    assert (cart["subtotal_amount"], cart["discount_amount"], cart["total_amount"]) == ("12.00", "12.00", "0.00")


# ---------------------------------------------------------------- checkout and payment


def test_checkout_creates_the_order_and_takes_stock(session):
    login(session, "Maya", "Brooks")
    socks, beanie = variant_id("Merino Hiking Socks", "M"), variant_id("Ridge Beanie", "Forest")
    ok(
        session,
        "cart_lines_add",
        {"lines": [{"merchandise_id": socks, "quantity": 2}, {"merchandise_id": beanie, "quantity": 1}]},
    )
    cart_id = ok(session, "cart_discount_codes_update", {"discount_codes": ["WELCOME10"]})["id"]
    uses = next(d for d in SEED["discount_codes"] if d["code"] == "WELCOME10")["usage_count"]
    result = ok(session, "checkout_cart")
    order = result["order"]
    assert result["next_action"] is None and order["financial_status"] == "paid"
    assert order["name"] == f"#{max(o['order_number'] for o in SEED['orders']) + 1}"
    assert (
        order["total_line_items_price"],
        order["total_discounts"],
        order["subtotal_price"],
        order["total_shipping_price"],
        order["total_price"],
    ) == ("76.00", "7.60", "68.40", "6.95", "75.35")
    assert [li["total_discount"] for li in order["line_items"]] == ["4.40", "3.20"]
    assert order["shipping_address"] == customer("Maya", "Brooks")["default_address"]
    assert order["transactions"][0]["kind"] == "sale" and order["transactions"][0]["amount"] == "75.35"
    assert stock(session, socks) == 16 and stock(session, beanie) == 5
    state = session.dump()
    assert next(d for d in state["discount_codes"].values() if d["code"] == "WELCOME10")["usage_count"] == uses + 1
    assert cart_id not in state["carts"]
    fails(session, "get_cart", {}, "NotFound", "no cart yet")
    assert ok(session, "list_orders")["results"][0]["id"] == order["id"]


def test_shipping_rates_free_shipping_threshold_and_express(session):
    login(session, "Grace", "Kim")  # cart: a 98.00 daypack
    assert ok(session, "checkout_cart")["order"]["total_shipping_price"] == "0.00"
    login(session, "Jacob", "Nguyen")  # cart: one 58.00 tee
    order = ok(session, "checkout_cart", {"shipping_method": "express"})["order"]
    assert (order["shipping_line"], order["total_shipping_price"], order["total_price"]) == (
        "Express",
        "14.95",
        "72.95",
    )


def test_free_shipping_code_waives_the_rate(session):
    login(session, "Noah", "Johnson")
    ok(session, "cart_lines_add", {"lines": [{"merchandise_id": variant_id("Packable Camp Chair"), "quantity": 1}]})
    ok(session, "cart_discount_codes_update", {"discount_codes": ["FREESHIP"]})
    order = ok(session, "checkout_cart")["order"]
    assert order["total_price"] == "69.00" and order["discount_codes"] == [
        {"code": "FREESHIP", "amount": "6.95", "type": "shipping"}
    ]
    assert stock(session, variant_id("Packable Camp Chair")) == -1  # pre-order sells below zero


def test_checkout_refusals_change_nothing(session):
    login(session, "Daniel", "Okoro")
    fails(session, "checkout_cart", {}, "Conflict", "Only 2 of 'Lumen 400 Headlamp' in stock")
    ok(
        session,
        "cart_lines_update",
        {"lines": [{"id": cart_line("Daniel", "Okoro", variant_id("Lumen 400 Headlamp")), "quantity": 2}]},
    )
    paris = {
        "first_name": "Daniel",
        "last_name": "Okoro",
        "address1": "5 Rue Oberkampf",
        "city": "Paris",
        "province_code": "IDF",
        "country_code": "FR",
        "zip": "75011",
    }
    fails(session, "checkout_cart", {"shipping_address": paris}, "InvalidRequest", "doesn't ship to FR")
    ok(session, "clear_cart")
    fails(session, "checkout_cart", {}, "Conflict", "The cart is empty")


def test_checkout_needs_a_card_an_address_and_products_still_sold(session):
    maya = customer("Maya", "Brooks")["id"]

    def no_card_no_address(tables):
        row = next(c for c in tables["customers"] if c["id"] == maya)
        row["payment_method"], row["default_address"] = None, None

    restore_seed_with(session, no_card_no_address, CLOCK)
    login(session, "Maya", "Brooks")
    ok(session, "cart_lines_add", {"lines": [{"merchandise_id": variant_id("Titanium Spork"), "quantity": 1}]})
    fails(session, "checkout_cart", {}, "InvalidRequest", "A shipping address is required")
    home = {
        "first_name": "Maya",
        "last_name": "Brooks",
        "address1": "2151 Alder St",
        "city": "Portland",
        "province_code": "OR",
        "country_code": "us",
        "zip": "97219",
    }
    fails(session, "checkout_cart", {"shipping_address": home}, "InvalidRequest", "no saved card")
    fails(
        session,
        "checkout_cart",
        {"shipping_address": {**home, "country_code": "USA"}},
        "invalid_arguments",
        "shipping_address.country_code",
    )

    def archived(tables):
        next(p for p in tables["products"] if p["title"] == "Ridge Beanie")["status"] = "archived"

    restore_seed_with(session, archived, CLOCK)
    login(session, "Chloé", "Tremblay")  # her cart holds a rust Ridge Beanie
    fails(session, "checkout_cart", {}, "Conflict", "'Ridge Beanie' is no longer sold")


def test_three_d_secure_payment_stays_pending_until_the_shopper_approves(session):
    login(session, "Chloé", "Tremblay")
    result = ok(session, "checkout_cart", {"shipping_method": "express"})
    order = result["order"]
    assert order["financial_status"] == "pending" and "3-D Secure" in result["next_action"]
    assert order["transactions"][0]["status"] == "pending"
    fails(session, "create_refund", {"order_id": order["id"], "amount": "1.00"}, "Conflict", "no captured payment")
    fails(session, "confirm_payment_3ds", {"order_name": order["name"]}, "user_only", "only be performed by the user")
    paid = ok(session, "confirm_payment_3ds", {"order_name": order["name"]}, caller="user")
    assert paid["financial_status"] == "paid" and paid["total_received"] == order["total_price"]
    fails(
        session,
        "confirm_payment_3ds",
        {"order_name": order["name"]},
        "Conflict",
        "no card payment waiting",
        caller="user",
    )
    fails(session, "confirm_payment_3ds", {"order_name": "#999"}, "NotFound", "not found", caller="user")


# ---------------------------------------------------------------- cancellation


def test_cancel_before_fulfillment_restocks_and_refunds_everything(session):
    login(session, "Priya", "Raman")
    order_id, _ = order_line("Priya", "Raman", "Switchback Softshell Jacket")
    softshell = variant_id("Switchback Softshell Jacket", "S")
    before = stock(session, softshell)
    order = ok(session, "cancel_order", {"order_id": order_id})
    assert order["cancel_reason"] == "customer" and order["cancelled_at"] == "2025-06-12T15:00:30Z"
    assert order["financial_status"] == "refunded" and order["total_refunded"] == order["total_price"]
    assert order["refunds"][0]["refund_line_items"][0]["restock_type"] == "cancel"
    assert stock(session, softshell) == before + 1
    fails(session, "cancel_order", {"order_id": order_id}, "Conflict", "already cancelled")
    fails(session, "create_refund", {"order_id": order_id, "amount": "1.00"}, "Conflict", "no captured payment")
    assert ok(session, "list_orders", {"status": "cancelled"})["results"][0]["id"] == order_id


def test_cancel_a_pending_payment_voids_it(session):
    login(session, "Amélie", "Gagnon")
    order_id, _ = order_line("Amélie", "Gagnon", "Self-Inflating Sleeping Pad")
    order = ok(session, "cancel_order", {"order_id": order_id, "reason": "declined"})
    assert order["financial_status"] == "voided" and order["cancel_reason"] == "declined"
    assert [t["kind"] for t in order["transactions"]] == ["sale", "void"] and order["total_refunded"] == "0.00"


@pytest.mark.parametrize(
    "first,last,title,text",
    [
        ("Marcus", "Hill", "Timberline Hiking Boot", "already shipped (fulfilled)"),
        ("Omar", "Haddad", "Pinecrest 2-Person Tent", "already shipped (partial)"),
    ],
)
def test_cannot_cancel_after_fulfillment(session, first, last, title, text):
    login(session, first, last)
    order_id, _ = order_line(first, last, title)
    fails(session, "cancel_order", {"order_id": order_id}, "Conflict", text)


# ---------------------------------------------------------------- refunds


def test_refund_of_a_shipped_unit_keeps_stock_and_marks_partial(session):
    login(session, "Ben", "Carter")
    order_id, mug = order_line("Ben", "Carter", "Enamel Camp Mug")
    cream = variant_id("Enamel Camp Mug", "Cream")
    before = stock(session, cream)
    fails(
        session,
        "create_refund",
        {"order_id": order_id, "refund_line_items": [{"line_item_id": mug, "quantity": 3}]},
        "InvalidRequest",
        "Only 2 of 'Enamel Camp Mug - Cream' can still be refunded",
    )
    refund = ok(
        session, "create_refund", {"order_id": order_id, "refund_line_items": [{"line_item_id": mug, "quantity": 1}]}
    )
    assert refund["amount"] == "16.00"
    assert refund["refund_line_items"] == [
        {"line_item_id": mug, "quantity": 1, "restock_type": "no_restock", "subtotal": "16.00"}
    ]
    assert stock(session, cream) == before
    order = row(session, "orders", order_id)
    assert order["financial_status"] == "partially_refunded" and order["fulfillment_status"] == "fulfilled"


def test_refund_of_an_unshipped_unit_cancels_and_restocks_it(session):
    login(session, "Omar", "Haddad")
    order_id, bag = order_line("Omar", "Haddad", "Nightfall 20°F Sleeping Bag")
    long_bag = variant_id("Nightfall 20°F Sleeping Bag", "Long")
    before = stock(session, long_bag)
    ok(session, "create_refund", {"order_id": order_id, "refund_line_items": [{"line_item_id": bag, "quantity": 1}]})
    assert stock(session, long_bag) == before + 1
    assert row(session, "orders", order_id)["fulfillment_status"] == "fulfilled"  # nothing left to ship


def test_refunds_never_exceed_what_was_paid(session):
    login(session, "Zoe", "Wright")
    order_id, _ = order_line("Zoe", "Wright", "Merino 150 Crew Tee")
    fails(session, "create_refund", {"order_id": order_id}, "InvalidRequest", "Give refund_line_items, an amount")
    fails(
        session,
        "create_refund",
        {"order_id": order_id, "amount": "98.61"},
        "InvalidRequest",
        "exceeds the 98.60 that can still be refunded",
    )
    for bad in ("ten", "-5", "0", "0.00", "1.234", "1,000.00"):
        fails(
            session,
            "create_refund",
            {"order_id": order_id, "amount": bad},
            "invalid_arguments",
            "amount: String should match pattern",
        )
    ok(session, "create_refund", {"order_id": order_id, "amount": "90.00", "note": "goodwill"})
    fails(session, "create_refund", {"order_id": order_id, "amount": "8.61"}, "InvalidRequest", "exceeds the 8.60")
    ok(session, "create_refund", {"order_id": order_id, "amount": "8.60"})
    assert row(session, "orders", order_id)["financial_status"] == "refunded"
    fails(session, "create_refund", {"order_id": order_id, "amount": "0.01"}, "Conflict", "no captured payment")


# ---------------------------------------------------------------- returns


def test_return_within_window_restocks_and_refunds_less_discount(session):
    login(session, "Zoe", "Wright")
    order_id, tee = order_line("Zoe", "Wright", "Merino 150 Crew Tee")
    tee_m = variant_id("Merino 150 Crew Tee", "M")
    before = stock(session, tee_m)
    ret = ok(
        session,
        "create_return",
        {
            "order_id": order_id,
            "return_line_items": [{"line_item_id": tee, "quantity": 1, "return_reason": "unwanted"}],
        },
    )
    name = next(o["name"] for o in SEED["orders"] if o["id"] == order_id)
    assert ret["name"] == f"{name}-R1" and ret["status"] == "closed"
    assert ret["refund"]["amount"] == "49.30"  # 58.00 less half of the 17.40 HIKEMORE discount
    assert ret["refund"]["refund_line_items"][0]["restock_type"] == "return"
    assert stock(session, tee_m) == before + 1
    order = ok(session, "get_order", {"order_id": order_id})
    line = order["line_items"][0]
    assert (line["returned_quantity"], line["refunded_quantity"], line["returnable_quantity"]) == (1, 1, 1)
    assert order["financial_status"] == "partially_refunded" and order["total_refunded"] == "49.30"
    second = ok(
        session,
        "create_return",
        {
            "order_id": order_id,
            "return_line_items": [{"line_item_id": tee, "quantity": 1, "return_reason": "unwanted"}],
        },
    )
    assert second["name"] == f"{name}-R2"
    fails(
        session,
        "create_return",
        {
            "order_id": order_id,
            "return_line_items": [{"line_item_id": tee, "quantity": 1, "return_reason": "unwanted"}],
        },
        "InvalidRequest",
        "Only 0 of",
    )


def test_return_refund_is_capped_at_what_remains(session):
    login(session, "Zoe", "Wright")
    order_id, tee = order_line("Zoe", "Wright", "Merino 150 Crew Tee")
    ok(session, "create_refund", {"order_id": order_id, "amount": "90.00"})
    ret = ok(
        session,
        "create_return",
        {
            "order_id": order_id,
            "return_line_items": [{"line_item_id": tee, "quantity": 2, "return_reason": "size_too_large"}],
        },
    )
    assert ret["refund"]["amount"] == "8.60"
    assert row(session, "orders", order_id)["financial_status"] == "refunded"


def test_return_rules(session):
    login(session, "Sofia", "Alvarez")
    fleece_order, fleece = order_line("Sofia", "Alvarez", "Basecamp Fleece Pullover")
    fails(
        session,
        "create_return",
        {
            "order_id": fleece_order,
            "return_line_items": [{"line_item_id": fleece, "quantity": 1, "return_reason": "size_too_large"}],
        },
        "InvalidRequest",
        "return window for 'Basecamp Fleece Pullover - L / Oat' closed on 2025-05-25",
    )
    flannel_order, flannel = order_line("Sofia", "Alvarez", "Trailhead Flannel Shirt")
    fails(
        session,
        "create_return",
        {
            "order_id": flannel_order,
            "return_line_items": [{"line_item_id": fleece, "quantity": 1, "return_reason": "other"}],
        },
        "NotFound",
        "not part of this order",
    )
    fails(
        session,
        "create_return",
        {
            "order_id": flannel_order,
            "return_line_items": [{"line_item_id": flannel, "quantity": 2, "return_reason": "other"}],
        },
        "InvalidRequest",
        "Only 1 of",
    )
    fails(
        session,
        "create_return",
        {
            "order_id": flannel_order,
            "return_line_items": [
                {"line_item_id": flannel, "quantity": 1, "return_reason": "other"},
                {"line_item_id": flannel, "quantity": 1, "return_reason": "other"},
            ],
        },
        "InvalidRequest",
        "listed twice",
    )
    fails(
        session,
        "create_return",
        {
            "order_id": flannel_order,
            "return_line_items": [{"line_item_id": flannel, "quantity": 1, "return_reason": "too_itchy"}],
        },
        "invalid_arguments",
        "return_reason",
    )


def test_final_sale_and_undelivered_items_cannot_be_returned(session):
    login(session, "Liam", "O'Brien")
    order_id, slides = order_line("Liam", "O'Brien", "Camp Slide Sandal")
    fails(
        session,
        "create_return",
        {
            "order_id": order_id,
            "return_line_items": [{"line_item_id": slides, "quantity": 1, "return_reason": "unwanted"}],
        },
        "InvalidRequest",
        "final-sale",
    )
    login(session, "Ava", "Thompson")
    order_id, jacket = order_line("Ava", "Thompson", "Ridgeline Rain Jacket")
    fails(
        session,
        "create_return",
        {
            "order_id": order_id,
            "return_line_items": [{"line_item_id": jacket, "quantity": 1, "return_reason": "unwanted"}],
        },
        "Conflict",
        "not delivered yet",
    )
    login(session, "Hannah", "Lee")
    order_id, pack = order_line("Hannah", "Lee", "Daybreak 22L Daypack")
    fails(
        session,
        "create_return",
        {
            "order_id": order_id,
            "return_line_items": [{"line_item_id": pack, "quantity": 1, "return_reason": "unwanted"}],
        },
        "Conflict",
        "not shipped yet",
    )
    ok(session, "cancel_order", {"order_id": order_id})
    fails(
        session,
        "create_return",
        {
            "order_id": order_id,
            "return_line_items": [{"line_item_id": pack, "quantity": 1, "return_reason": "unwanted"}],
        },
        "Conflict",
        "was cancelled",
    )


def test_unpaid_orders_cannot_be_returned(session):
    login(session, "Amélie", "Gagnon")
    order_id, pad = order_line("Amélie", "Gagnon", "Self-Inflating Sleeping Pad")
    fails(
        session,
        "create_return",
        {
            "order_id": order_id,
            "return_line_items": [{"line_item_id": pad, "quantity": 1, "return_reason": "unwanted"}],
        },
        "Conflict",
        "is not paid",
    )


# ---------------------------------------------------------------- money


def test_money_is_cents_inside_and_decimal_strings_outside():
    assert [rules.cents(v) for v in ("12.50", "0.01", "189", "7.5")] == [1250, 1, 18900, 750]
    assert [rules.money(c) for c in (1250, 1, 0, 123456, -695)] == ["12.50", "0.01", "0.00", "1234.56", "-6.95"]
    assert rules.percent_of(9800, "15.0") == 1470 and rules.percent_of(1, "50.0") == 1  # half a cent rounds up
    assert rules.share(500, 1, 2) == 250 and rules.share(571, 1, 2) == 286 and rules.share(1740, 5800, 11600) == 870
