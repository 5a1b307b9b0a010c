"""The BigCommerce environment's tools on the real seed: inventory tracking modes (stock set only where the mode
allows), prices per customer (price list records win over group discounts, an inactive list falls back to the
discount, modifier adjusters), carts (variants and required modifiers, stock over the whole cart, purchasing
disabled), coupons (invalid, disabled, expired, used up, minimum purchase, one per checkout), consignments and
shipping options (free from $150 after the coupon, international, cleared by changes), orders from checkouts
(what they need, stock taken, coupon counted, no second conversion), status changes (cancel restocks, refused
once shipped, final statuses), shipments (paid orders only, never above what is left) and refunds (quote first,
exact amount, units, shipping and the order's remaining amount). Every error path leaves the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("bigcommerce")
CLOCK = datetime(2026, 3, 12, 16, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, CLOCK)

ADDRESS = {
    "first_name": "Marco",
    "last_name": "Reyes",
    "address1": "2240 Walnut St",
    "city": "Boulder",
    "state_or_province": "CO",
    "postal_code": "80302",
    "country_code": "US",
}


def product(name: str) -> dict[str, Any]:
    (row,) = [p for p in SEED["products"] if p["name"] == name]
    return row


def variant(sku: str) -> dict[str, Any]:
    (row,) = [v for v in SEED["variants"] if v["sku"] == sku]
    return row


def customer(email: str) -> int:
    (row,) = [c for c in SEED["customers"] if c["email"] == email]
    return int(row["id"])


def orders_of(email: str) -> list[dict[str, Any]]:
    return [o for o in SEED["orders"] if o["customer_id"] == customer(email)]


MARCO = "marco.reyes@outlook.com"  # Summit Club: 10% off
TESS = "tess@flatironsguiding.com"  # Wholesale: price list 1
PRIYA = "priya.raman@yahoo.com"  # Pro Deal: 15% off, price list 2 inactive
BOOT = "Trailblazer Hiking Boot"  # tracks inventory by variant


def line(name: str, quantity: int = 1, sku: str | None = None, **extra: Any) -> dict[str, Any]:
    item = {"product_id": product(name)["id"], "quantity": quantity, **extra}
    if sku:
        item["variant_id"] = variant(sku)["id"]
    return item


def cart_for(s: ToolSession, email: str | None, *items: dict[str, Any]) -> dict[str, Any]:
    return ok(s, "create_cart", {"customer_id": customer(email) if email else 0, "line_items": list(items)})["data"]


def ready_checkout(s: ToolSession, cart_id: str, option: str = "flat-rate") -> dict[str, Any]:
    ok(s, "set_checkout_billing_address", {"checkout_id": cart_id, "address": ADDRESS})
    checkout = ok(s, "add_checkout_consignment", {"checkout_id": cart_id, "address": ADDRESS})["data"]
    consignment = checkout["consignments"][0]["id"]
    args = {"checkout_id": cart_id, "consignment_id": consignment, "shipping_option_id": option}
    return ok(s, "update_checkout_consignment", args)["data"]


# ---------------------------------------------------------------- catalog and inventory


def test_stock_is_set_where_the_tracking_mode_allows(session: ToolSession) -> None:
    boot = product(BOOT)
    fails(session, "update_product", {"product_id": boot["id"], "inventory_level": 5}, "InvalidRequest", "'variant'")
    tent = product("Summit 2 Backpacking Tent")
    v = [x for x in SEED["variants"] if x["product_id"] == tent["id"]][0]
    args = {"product_id": tent["id"], "variant_id": v["id"], "inventory_level": 3}
    fails(session, "update_variant", args, "InvalidRequest", "inventory_tracking is 'variant'")
    assert (
        ok(session, "update_product", {"product_id": tent["id"], "inventory_level": 3})["data"]["inventory_level"] == 3
    )
    tarp = product("Ultralight Tarp")
    fails(
        session,
        "update_product",
        {"product_id": tarp["id"], "inventory_tracking": "variant"},
        "InvalidRequest",
        "options",
    )
    out = ok(
        session, "update_product", {"product_id": tarp["id"], "inventory_tracking": "product", "inventory_level": 7}
    )
    assert out["data"]["inventory_tracking"] == "product" and out["data"]["inventory_level"] == 7


def test_variant_of_another_product_and_unknown_ids_are_refused(session: ToolSession) -> None:
    args = {"product_id": product(BOOT)["id"], "variant_id": variant("RO-JKT-AD-SLATE-M")["id"], "price": 1.0}
    fails(session, "update_variant", args, "InvalidRequest", "does not belong")
    fails(session, "get_product", {"product_id": 99999}, "NotFound", "404")
    fails(session, "get_order", {"order_id": 1}, "NotFound", "order")


def test_list_products_matches_words_and_variant_skus(session: ToolSession) -> None:
    names = [p["name"] for p in ok(session, "list_products", {"keyword": "merino base"})["data"]]
    assert names == ["Merino Base Layer Bottoms", "Merino Base Layer Crew", "Merino Base Layer Hoodie"]
    assert [p["name"] for p in ok(session, "list_products", {"sku": "RO-BOOT-TB-10"})["data"]] == [BOOT]


# ---------------------------------------------------------------- prices per customer


def test_group_discount_price_list_and_inactive_list(session: ToolSession) -> None:
    boot9 = variant("RO-BOOT-TB-9")
    assert cart_for(session, MARCO, line(BOOT, 1, "RO-BOOT-TB-9"))["base_amount"] == 161.10  # 179 less 10%
    record = [r for r in SEED["price_records"] if r["price_list_id"] == 1 and r["variant_id"] == boot9["id"]]
    expected = record[0]["price"] / 100 if record else 179.0
    assert cart_for(session, TESS, line(BOOT, 1, "RO-BOOT-TB-9"))["base_amount"] == expected
    ok(session, "upsert_price_list_record", {"price_list_id": 1, "variant_id": boot9["id"], "price": 99.5})
    assert cart_for(session, TESS, line(BOOT, 1, "RO-BOOT-TB-9"))["base_amount"] == 99.5
    ok(session, "upsert_price_list_record", {"price_list_id": 2, "variant_id": boot9["id"], "price": 50.0})
    assert cart_for(session, PRIYA, line(BOOT, 1, "RO-BOOT-TB-9"))["base_amount"] == 152.15  # list inactive: 15% off


def test_moving_a_customer_changes_new_carts_prices(session: ToolSession) -> None:
    ben = customer("ben.harlow@gmail.com")
    fails(session, "update_customer_group", {"customer_id": ben, "customer_group_id": 99}, "NotFound", "group")
    ok(session, "update_customer_group", {"customer_id": ben, "customer_group_id": 2})
    cart = ok(session, "create_cart", {"customer_id": ben, "line_items": [line("Headlamp 400")]})["data"]
    assert cart["base_amount"] == 44.10


# ---------------------------------------------------------------- carts


def test_cart_needs_variant_and_required_modifier_and_stock(session: ToolSession) -> None:
    base = {"customer_id": customer(MARCO)}
    fails(session, "create_cart", {**base, "line_items": [line(BOOT)]}, "InvalidRequest", "variant_id is required")
    fails(session, "create_cart", {**base, "line_items": [line(BOOT, 1, "RO-BOOT-TB-11")]}, "InvalidRequest", "stock")
    disabled = [line(BOOT, 1, "RO-BOOT-TB-12")]
    fails(session, "create_cart", {**base, "line_items": disabled}, "InvalidRequest", "not available")
    stove = [line("Firefly Camp Stove")]
    fails(session, "create_cart", {**base, "line_items": stove}, "InvalidRequest", "'Fuel canister' option is required")
    hidden = [line("Daybreak 18L Daypack")]
    fails(session, "create_cart", {**base, "line_items": hidden}, "InvalidRequest", "not available")
    assert not session.dump()["carts"]


def test_modifier_adjusters_and_stock_counted_over_the_whole_cart(session: ToolSession) -> None:
    (engraving,) = [m for m in SEED["modifiers"] if m["display_name"] == "Engraving"]
    choice = [{"option_id": engraving["id"], "option_value": engraving["option_values"][0]["id"]}]
    cart = cart_for(session, None, line("Insulated Bottle 32 oz", 1, option_selections=choice))
    assert cart["base_amount"] == 44.0
    boot = line(BOOT, 1, "RO-BOOT-TB-10")  # one in stock
    cart = cart_for(session, None, boot)
    fails(session, "add_cart_line_items", {"cart_id": cart["id"], "line_items": [boot]}, "InvalidRequest", "stock")
    only = cart["line_items"]["physical_items"][0]["id"]
    args = {"cart_id": cart["id"], "item_id": only}
    fails(session, "delete_cart_line_item", args, "InvalidRequest", "at least one line item")


# ---------------------------------------------------------------- coupons and shipping


def test_coupon_rules(session: ToolSession) -> None:
    cart = cart_for(session, None, line("Headlamp 250"))
    for code, text in [
        ("NOPE", "not valid"),
        ("HIKE5", "not valid"),
        ("TRAIL20", "expired"),
        ("GEAR25", "maximum number of uses"),
        ("SPRING15", "at least $50.00"),
    ]:
        fails(session, "add_checkout_coupon", {"checkout_id": cart["id"], "coupon_code": code}, "InvalidRequest", text)
    ok(session, "add_checkout_coupon", {"checkout_id": cart["id"], "coupon_code": "summit10"})
    args = {"checkout_id": cart["id"], "coupon_code": "WELCOME10"}
    fails(session, "add_checkout_coupon", args, "Conflict", "already applied")
    checkout = ok(session, "get_checkout", {"checkout_id": cart["id"]})["data"]
    assert checkout["coupons"] == [{"code": "SUMMIT10", "discounted_amount": 3.5}] and checkout["grand_total"] == 31.5
    ok(session, "delete_checkout_coupon", {"checkout_id": cart["id"], "coupon_code": "SUMMIT10"})
    assert ok(session, "get_checkout", {"checkout_id": cart["id"]})["data"]["grand_total"] == 35.0


def test_shipping_options_follow_goods_after_coupon_and_changes_clear_them(session: ToolSession) -> None:
    cart = cart_for(session, None, line("Switchback 45L Pack", 1, "RO-PK-45-S/M"))  # $229
    checkout = ready_checkout(session, cart["id"], "free-shipping")
    assert checkout["consignments"][0]["selected_shipping_option"]["id"] == "free-shipping"
    ok(session, "add_checkout_coupon", {"checkout_id": cart["id"], "coupon_code": "SPRING15"})
    checkout = ok(session, "get_checkout", {"checkout_id": cart["id"]})["data"]
    assert checkout["consignments"][0]["selected_shipping_option"] is None
    cart2 = cart_for(session, None, line("Headlamp 250"))
    checkout = ready_checkout(session, cart2["id"])
    consignment = checkout["consignments"][0]["id"]
    assert [o["id"] for o in checkout["consignments"][0]["available_shipping_options"]] == ["flat-rate", "expedited"]
    args = {"checkout_id": cart2["id"], "consignment_id": consignment, "shipping_option_id": "free-shipping"}
    fails(session, "update_checkout_consignment", args, "InvalidRequest", "not available")
    abroad = {**ADDRESS, "country_code": "CA"}
    out = ok(session, "add_checkout_consignment", {"checkout_id": cart2["id"], "address": abroad})["data"]
    assert [o["id"] for o in out["consignments"][0]["available_shipping_options"]] == ["international"]


# ---------------------------------------------------------------- orders from checkouts


def test_order_needs_a_complete_checkout_takes_stock_and_counts_the_coupon(session: ToolSession) -> None:
    cart = cart_for(session, MARCO, line(BOOT, 1, "RO-BOOT-TB-9"))
    fails(session, "create_order_from_checkout", {"checkout_id": cart["id"]}, "InvalidRequest", "billing address")
    ok(session, "set_checkout_billing_address", {"checkout_id": cart["id"], "address": ADDRESS})
    fails(session, "create_order_from_checkout", {"checkout_id": cart["id"]}, "InvalidRequest", "consignment")
    ok(session, "add_checkout_consignment", {"checkout_id": cart["id"], "address": ADDRESS})
    fails(session, "create_order_from_checkout", {"checkout_id": cart["id"]}, "InvalidRequest", "shipping option")
    ok(session, "add_checkout_coupon", {"checkout_id": cart["id"], "coupon_code": "SPRING15"})
    ready_checkout(session, cart["id"])  # 136.94 after the coupon: no free shipping
    order_id = ok(session, "create_order_from_checkout", {"checkout_id": cart["id"]})["data"]["id"]
    assert order_id == max(o["id"] for o in SEED["orders"]) + 1
    order = ok(session, "get_order", {"order_id": order_id})
    assert (
        order["status"] == "Awaiting Fulfillment" and order["total_inc_tax"] == "145.9300"
    )  # 161.10 less 15%, flat rate
    state = session.dump()
    assert [v for v in state["variants"].values() if v["sku"] == "RO-BOOT-TB-9"][0]["inventory_level"] == 5
    assert [c for c in state["coupons"].values() if c["code"] == "SPRING15"][0]["num_uses"] == 213
    fails(session, "create_order_from_checkout", {"checkout_id": cart["id"]}, "Conflict", "already been converted")
    mug = {"cart_id": cart["id"], "line_items": [line("Camp Mug")]}
    fails(session, "add_cart_line_items", mug, "Conflict", "already been converted")


# ---------------------------------------------------------------- statuses, shipments, refunds


def test_cancel_restocks_and_final_statuses_do_not_change(session: ToolSession) -> None:
    (order,) = [o for o in orders_of("ben.harlow@gmail.com") if o["status_id"] == 11]
    before = product("Summit 3 Backpacking Tent")["inventory_level"]
    fails(session, "update_order_status", {"order_id": order["id"], "status_id": 2}, "invalid_arguments", "status_id")
    ok(session, "update_order_status", {"order_id": order["id"], "status_id": 5})
    tent = [p for p in session.dump()["products"].values() if p["name"] == "Summit 3 Backpacking Tent"][0]
    assert tent["inventory_level"] == before + 1
    fails(session, "update_order_status", {"order_id": order["id"], "status_id": 11}, "Conflict", "Cancelled")


def test_cancel_refused_once_shipped_and_shipments_never_exceed_what_is_left(session: ToolSession) -> None:
    (order,) = orders_of("sam.okafor@gmail.com")
    fails(session, "update_order_status", {"order_id": order["id"], "status_id": 5}, "Conflict", "has shipments")
    shipped, stove, pot = order["products"]
    base = {"order_id": order["id"], "tracking_number": "1ZTEST", "shipping_provider": "ups"}
    again = {**base, "items": [{"order_product_id": shipped["id"], "quantity": 1}]}
    fails(session, "create_shipment", again, "InvalidRequest", "exceeds the 0 remaining")
    ok(session, "create_shipment", {**base, "items": [{"order_product_id": stove["id"], "quantity": 1}]})
    assert ok(session, "get_order", {"order_id": order["id"]})["status"] == "Partially Shipped"
    ok(session, "create_shipment", {**base, "items": [{"order_product_id": pot["id"], "quantity": 1}]})
    assert ok(session, "get_order", {"order_id": order["id"]})["status"] == "Shipped"


def test_unpaid_orders_neither_ship_nor_refund(session: ToolSession) -> None:
    (order,) = [o for o in orders_of(TESS) if o["status_id"] == 7]
    item = order["products"][0]
    args = {
        "order_id": order["id"],
        "items": [{"order_product_id": item["id"], "quantity": 1}],
        "tracking_number": "1Z1",
        "shipping_provider": "ups",
    }
    fails(session, "create_shipment", args, "InvalidRequest", "Awaiting Payment")
    quote = {"order_id": order["id"], "items": [{"item_type": "PRODUCT", "item_id": item["id"], "quantity": 1}]}
    fails(session, "create_refund_quote", quote, "InvalidRequest", "no captured payment")


def test_refunds_need_the_quote_and_stay_within_what_is_left(session: ToolSession) -> None:
    (order,) = orders_of("elena.brooks@fastmail.com")[-1:]  # SPRING15, free shipping: total 404.60
    tent, bottles, lamp = order["products"]
    everything = [
        {"item_type": "PRODUCT", "item_id": tent["id"], "quantity": 1},
        {"item_type": "PRODUCT", "item_id": bottles["id"], "quantity": 2},
    ]
    fails(
        session,
        "create_refund_quote",
        {"order_id": order["id"], "items": everything},
        "InvalidRequest",
        "greater than remaining amount ($404.60)",
    )
    too_many = [{"item_type": "PRODUCT", "item_id": bottles["id"], "quantity": 3}]
    fails(session, "create_refund_quote", {"order_id": order["id"], "items": too_many}, "InvalidRequest", "the 2")
    shipping = [{"item_type": "SHIPPING", "amount": 1.0}]
    fails(session, "create_refund_quote", {"order_id": order["id"], "items": shipping}, "InvalidRequest", "$0.00")
    one = [{"item_type": "PRODUCT", "item_id": lamp["id"], "quantity": 1}]
    quote = ok(session, "create_refund_quote", {"order_id": order["id"], "items": one})["data"]
    assert quote["total_refund_amount"] == 49.0
    wrong = {"order_id": order["id"], "items": one, "provider_id": "braintree", "amount": 48.0}
    fails(session, "create_refund", wrong, "InvalidRequest", "does not match the refund total $49.00")
    ok(session, "create_refund", {**wrong, "amount": 49.0})
    after = ok(session, "get_order", {"order_id": order["id"]})
    assert after["status"] == "Partially Refunded" and after["refundable_amount"] == "355.6000"
    fails(session, "create_refund_quote", {"order_id": order["id"], "items": one}, "InvalidRequest", "the 0")
