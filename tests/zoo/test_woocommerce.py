"""The WooCommerce environment's tools on the real seed: sale prices and their date ranges, price and stock edits
(sale below regular, stock status following managed stock), orders (stock checks, the day's price, stock held by
processing and restored on cancel, free shipping's minimum), coupons (existence, expiry, usage limits overall and
per customer, minimum spend, individual use, product lists, sale-item exclusion, each discount type), refunds
(never above what is left on the order or a line, gateway refunds only for card and PayPal, restocking, the
refunded status) and notes, tags and customers. Every error path is checked to leave the state unchanged."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("woocommerce")
CLOCK = datetime(2025, 11, 28, 15, 0, tzinfo=timezone.utc)
session = session_fixture(SPEC, CLOCK)

GLASS_TEAPOT, KETTLE, INFUSER, TEA_TIN, SAMPLER, TRIO, ADVENT, CUP_SET = 191, 192, 200, 201, 205, 206, 207, 198
CULINARY_MATCHA, WINTER_SPICE, KYUSU, KYUSU_BLACK, GYOKURO, GYOKURO_100 = 204, 181, 185, 186, 137, 139
CHAI, CHAI_100, PEPPERMINT, PEPPERMINT_50 = 125, 127, 173, 174
HANNAH, CHRIS_MORGAN = 201, 205


def line(product_id: int, quantity: int = 1, variation_id: int | None = None) -> dict:
    return {"product_id": product_id, "variation_id": variation_id, "quantity": quantity}


def order(session, lines: list[dict], coupons: list[str] = (), **extra) -> dict:
    args = {"customer_id": HANNAH, "line_items": lines, "payment_method": "stripe", "status": "processing"}
    args |= {"coupon_lines": [{"code": c} for c in coupons]} | extra
    return ok(session, "create_order", args)


def stock(session, product_id: int, variation_id: int | None = None) -> int:
    if variation_id is None:
        return ok(session, "retrieve_product", {"product_id": product_id})["stock_quantity"]
    rows = ok(session, "list_product_variations", {"product_id": product_id, "per_page": 100})["items"]
    return next(v["stock_quantity"] for v in rows if v["id"] == variation_id)


# ---------------------------------------------------------------- catalog


def test_sale_prices_apply_only_between_their_dates(session):
    assert ok(session, "retrieve_product", {"product_id": GLASS_TEAPOT})["price"] == "34.00"  # starts Dec 5
    assert ok(session, "retrieve_product", {"product_id": INFUSER})["price"] == "12.00"  # ended Nov 20
    assert ok(session, "retrieve_product", {"product_id": TEA_TIN})["price"] == "7.00"  # no dates: always
    kyusu = ok(session, "list_product_variations", {"product_id": KYUSU})["items"][0]
    assert (kyusu["price"], kyusu["on_sale"]) == ("54.00", True)
    assert ok(session, "retrieve_product", {"product_id": KYUSU})["price"] == "54.00"  # its lowest variation
    on_sale = {p["id"] for p in ok(session, "list_products", {"on_sale": True, "per_page": 100})["items"]}
    assert {KYUSU, SAMPLER, TEA_TIN} <= on_sale and GLASS_TEAPOT not in on_sale and INFUSER not in on_sale


def test_sale_price_must_be_below_the_regular_price(session):
    fails(
        session,
        "update_product",
        {"product_id": GLASS_TEAPOT, "sale_price": "34.00"},
        "InvalidRequest",
        "less than the regular price",
    )
    fails(
        session,
        "update_product",
        {"product_id": GLASS_TEAPOT, "date_on_sale_from": "2025-12-20"},
        "InvalidRequest",
        "end date",
    )
    moved = ok(session, "update_product", {"product_id": GLASS_TEAPOT, "date_on_sale_from": "2025-11-28"})
    assert (moved["price"], moved["on_sale"]) == ("27.00", True)
    cleared = ok(session, "update_product", {"product_id": GLASS_TEAPOT, "sale_price": ""})
    assert (cleared["sale_price"], cleared["date_on_sale_from"], cleared["price"]) == ("", None, "34.00")


def test_variable_product_prices_live_on_variations(session):
    fails(session, "update_product", {"product_id": KYUSU, "regular_price": "70.00"}, "InvalidRequest", "variations")
    fails(
        session,
        "update_product_variation",
        {"product_id": GYOKURO, "variation_id": KYUSU_BLACK, "regular_price": "1.00"},
        "InvalidRequest",
        "woocommerce_rest_product_variation_invalid_id",
    )


def test_stock_status_follows_managed_stock(session):
    fails(session, "update_product", {"product_id": CUP_SET, "stock_quantity": 4}, "InvalidRequest", "manage_stock")
    fails(
        session,
        "update_product",
        {"product_id": KETTLE, "stock_status": "instock"},
        "InvalidRequest",
        "manage_stock is true",
    )
    assert ok(session, "update_product", {"product_id": KETTLE, "stock_quantity": 0})["stock_status"] == "outofstock"
    assert (
        ok(session, "update_product", {"product_id": CULINARY_MATCHA, "stock_quantity": 0})["stock_status"]
        == "onbackorder"
    )
    assert ok(session, "update_product", {"product_id": ADVENT, "stock_quantity": 5})["stock_status"] == "instock"
    tracked = ok(session, "update_product", {"product_id": CUP_SET, "manage_stock": True, "stock_quantity": 8})
    assert (tracked["manage_stock"], tracked["stock_quantity"]) == (True, 8)


def test_tags_are_unique_by_slug_and_replace_product_tags(session):
    tag = ok(session, "create_product_tag", {"name": "Black Friday"})
    fails(session, "create_product_tag", {"name": "black  friday"}, "Conflict", "term_exists")
    tagged = ok(session, "update_product", {"product_id": TEA_TIN, "tags": [tag["id"]]})
    assert [t["name"] for t in tagged["tags"]] == ["Black Friday"]
    fails(
        session, "update_product", {"product_id": TEA_TIN, "tags": [999]}, "NotFound", "woocommerce_rest_term_invalid"
    )


# ---------------------------------------------------------------- orders and stock


def test_orders_refuse_what_cannot_be_sold(session):
    fails(
        session,
        "create_order",
        {"line_items": [line(ADVENT)], "payment_method": "stripe", "customer_id": HANNAH},
        "InvalidRequest",
        "not in stock",
    )
    fails(
        session,
        "create_order",
        {"line_items": [line(KETTLE, 3)], "payment_method": "stripe", "customer_id": HANNAH},
        "InvalidRequest",
        "(2 remaining)",
    )
    fails(
        session,
        "create_order",
        {"line_items": [line(KYUSU)], "payment_method": "stripe", "customer_id": HANNAH},
        "InvalidRequest",
        "variable product",
    )
    fails(
        session,
        "create_order",
        {"line_items": [line(WINTER_SPICE, 1, 183)], "payment_method": "stripe", "customer_id": HANNAH},
        "InvalidRequest",
        "cannot be purchased",
    )
    fails(
        session,
        "create_order",
        {"line_items": [line(TEA_TIN)], "payment_method": "stripe"},
        "InvalidRequest",
        "billing",
    )
    fails(
        session,
        "create_order",
        {
            "line_items": [line(TEA_TIN)],
            "payment_method": "stripe",
            "shipping_method": "free_shipping",
            "customer_id": HANNAH,
        },
        "InvalidRequest",
        "$75.00",
    )
    fails(
        session,
        "create_order",
        {"line_items": [line(9999)], "payment_method": "stripe", "customer_id": HANNAH},
        "NotFound",
        "woocommerce_rest_product_invalid_id",
    )


def test_paid_orders_hold_stock_and_cancelling_restores_it(session):
    pending = order(session, [line(KETTLE, 2)], status="pending")
    assert (pending["total"], stock(session, KETTLE)) == ("165.95", 2)
    paid = ok(session, "update_order", {"order_id": pending["id"], "status": "processing"})
    assert paid["date_paid"] is not None and stock(session, KETTLE) == 0
    ok(session, "update_order", {"order_id": pending["id"], "status": "cancelled"})
    assert stock(session, KETTLE) == 2
    notes = [n["note"] for n in ok(session, "list_order_notes", {"order_id": pending["id"], "type": "internal"})]
    assert "Order status changed from Processing to Cancelled." in notes
    assert "Item #192 stock increased from 0 to 2." in notes


def test_orders_charge_the_days_price(session):
    placed = order(session, [line(KYUSU, 1, KYUSU_BLACK), line(INFUSER)])
    assert [li["price"] for li in placed["line_items"]] == ["54.00", "12.00"]
    assert placed["total"] == "73.95"


# ---------------------------------------------------------------- coupons


def test_coupon_validity_rules(session):
    tin = [line(TEA_TIN)]
    for code, text in [
        ("nope", 'Coupon "nope" does not exist!'),
        ("staff30", "does not exist"),  # a draft
        ("summer20", "has expired"),
        ("vip50", "usage limit has been reached"),
        ("teatime5", "minimum spend for this coupon is $30.00"),
        ("kettle15", "not applicable to selected products"),
    ]:
        args = {"customer_id": HANNAH, "line_items": tin, "payment_method": "stripe", "coupon_lines": [{"code": code}]}
        fails(session, "create_order", args, "InvalidRequest", text)
    once = {
        "customer_id": CHRIS_MORGAN,
        "line_items": tin,
        "payment_method": "stripe",
        "coupon_lines": [{"code": "welcome10"}],
    }
    fails(session, "create_order", once, "InvalidRequest", "for this customer")
    both = {
        "customer_id": HANNAH,
        "line_items": [line(KETTLE)],
        "payment_method": "stripe",
        "coupon_lines": [{"code": "bf25"}, {"code": "teatime5"}],
    }
    fails(session, "create_order", both, "InvalidRequest", "cannot be used in conjunction")
    sale_only = {
        "customer_id": HANNAH,
        "line_items": [line(SAMPLER)],
        "payment_method": "stripe",
        "coupon_lines": [{"code": "bf25"}],
    }
    fails(session, "create_order", sale_only, "InvalidRequest", "not valid for sale items")


def test_coupon_discounts_by_type(session):
    mixed = order(session, [line(SAMPLER), line(KETTLE)], ["bf25"])  # percent, the sale item left out
    assert (mixed["discount_total"], [li["total"] for li in mixed["line_items"]]) == ("19.75", ["29.00", "59.25"])
    per_unit = order(session, [line(CULINARY_MATCHA)], ["matcha5"])  # fixed_product
    assert per_unit["line_items"][0]["total"] == "14.00"
    spread = order(session, [line(TRIO), line(TEA_TIN)], ["teatime5"])  # fixed_cart over the lines
    assert spread["discount_total"] == "5.00" and spread["total"] == "54.95"


def test_coupon_use_is_counted_and_given_back_on_cancel(session):
    placed = order(session, [line(KETTLE)], ["kettle15"])
    coupon = ok(session, "list_coupons", {"code": "kettle15"})["items"][0]
    assert (coupon["usage_count"], coupon["used_by"]) == (1, [str(HANNAH)])
    ok(session, "update_order", {"order_id": placed["id"], "status": "cancelled"})
    assert ok(session, "list_coupons", {"code": "KETTLE15"})["items"][0]["usage_count"] == 0


def test_coupon_codes_are_unique_and_limits_not_below_use(session):
    made = ok(session, "create_coupon", {"code": "Gift5", "amount": "5.00"})
    assert made["code"] == "gift5"
    fails(
        session,
        "create_coupon",
        {"code": "GIFT5", "amount": "5.00"},
        "Conflict",
        "woocommerce_rest_coupon_code_already_exists",
    )
    fails(
        session, "update_coupon", {"coupon_id": 214, "usage_limit": 5}, "InvalidRequest", "cannot be below the 10 uses"
    )
    fails(session, "create_coupon", {"code": "bad code!", "amount": "5.00"}, "invalid_arguments", "code")


# ---------------------------------------------------------------- refunds


def test_refunds_never_exceed_what_is_left(session):
    fails(
        session, "create_order_refund", {"order_id": 415, "amount": "93.36"}, "InvalidRequest", "Invalid refund amount."
    )
    fails(session, "create_order_refund", {"order_id": 415, "amount": "0"}, "InvalidRequest", "greater than zero")
    two_left = {"order_id": 415, "line_items": [{"id": 1332, "quantity": 2, "refund_total": "23.45"}]}
    fails(session, "create_order_refund", two_left, "InvalidRequest", "1 left to refund")
    too_much = {"order_id": 415, "line_items": [{"id": 1332, "quantity": 1, "refund_total": "23.46"}]}
    fails(session, "create_order_refund", too_much, "InvalidRequest", "Invalid refund amount.")
    fails(
        session,
        "create_order_refund",
        {"order_id": 415, "line_items": [{"id": 1, "refund_total": "1.00"}]},
        "InvalidRequest",
        "not part of order",
    )
    fails(
        session,
        "create_order_refund",
        {"order_id": 1, "amount": "1.00"},
        "NotFound",
        "woocommerce_rest_shop_order_invalid_id",
    )


def test_manual_gateways_refund_by_hand_only(session):
    by_gateway = {"order_id": 418, "amount": "32.00"}
    fails(session, "create_order_refund", by_gateway, "InvalidRequest", "does not support automatic refunds")
    refund = ok(session, "create_order_refund", by_gateway | {"api_refund": False})
    assert refund["refunded_payment"] is False


def test_line_refunds_restock_and_a_full_refund_marks_the_order_refunded(session):
    before = stock(session, 141, 143)
    ok(
        session,
        "create_order_refund",
        {"order_id": 415, "line_items": [{"id": 1332, "quantity": 1, "refund_total": "23.45"}]},
    )
    assert stock(session, 141, 143) == before + 1
    left = ok(session, "retrieve_order", {"order_id": 415})["remaining_refund_amount"]
    ok(session, "create_order_refund", {"order_id": 415, "amount": left, "api_restock": False})
    done = ok(session, "retrieve_order", {"order_id": 415})
    assert (done["status"], done["remaining_refund_amount"]) == ("refunded", "0.00")


def test_setting_refunded_refunds_the_rest_without_restocking(session):
    before = stock(session, ADVENT)
    ok(session, "update_order", {"order_id": 405, "status": "refunded"})
    refunds = ok(session, "list_order_refunds", {"order_id": 405})
    assert [(r["amount"], r["reason"]) for r in refunds] == [("131.45", "Order status set to refunded")]
    assert stock(session, ADVENT) == before


# ---------------------------------------------------------------- notes and customers


def test_notes_are_private_unless_sent_to_the_customer(session):
    ok(session, "create_order_note", {"order_id": 426, "note": "Packed.", "customer_note": False})
    ok(session, "create_order_note", {"order_id": 426, "note": "Your order ships Monday.", "customer_note": True})
    customer = [n["note"] for n in ok(session, "list_order_notes", {"order_id": 426, "type": "customer"})]
    internal = [n["note"] for n in ok(session, "list_order_notes", {"order_id": 426, "type": "internal"})]
    assert "Your order ships Monday." in customer and "Packed." not in customer and "Packed." in internal
    fails(session, "create_order_note", {"order_id": 426, "note": "   "}, "invalid_arguments", "note")


def test_customer_spend_counts_paid_orders_less_refunds(session):
    hannahs = ok(session, "list_customers", {"search": "hannah lee"})["items"]
    assert [c["email"] for c in hannahs] == ["hannah.lee@fastmail.com", "hlee88@gmail.com"]
    before = ok(session, "retrieve_customer", {"customer_id": HANNAH})
    order(session, [line(TEA_TIN)])
    after = ok(session, "retrieve_customer", {"customer_id": HANNAH})
    assert after["orders_count"] == before["orders_count"] + 1
    assert float(after["total_spent"]) == float(before["total_spent"]) + 14.95
