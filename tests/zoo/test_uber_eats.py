"""Uber Eats's business rules, each with a test that can fail: sign-in, store status (paused, closed, holiday
hours, invisible), delivery areas, sold-out items, modifier group minimums and maximums, the one-store cart,
fees (small order, service, Uber One), promotions and their conditions, scheduling windows, pick-up without a tip,
alcohol age, cancellation before and after the store accepts, issue reports and their window, ratings, reorder,
and failures that change nothing."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("uber_eats")
FRIDAY = datetime(2026, 6, 12, 18, 30, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, FRIDAY)


def sign_in(session: ToolSession, email: str) -> dict[str, Any]:
    return ok(session, "sign_in", {"email": email}, caller="user")


def store_id(name: str) -> str:
    return next(row["id"] for row in SEED["stores"] if row["name"] == name)


def item_id(store: str, title: str) -> str:
    sid = store_id(store)
    return next(row["id"] for row in SEED["menu_items"] if row["store_id"] == sid and row["title"] == title)


def options(session: ToolSession, item: str) -> dict[str, str]:
    found = ok(session, "get_item", {"item_id": item})["modifier_groups"]
    return {option["title"]: option["option_id"] for group in found for option in group["options"]}


def order_of(eater_email: str, state: str) -> dict[str, Any]:
    eater = next(row["id"] for row in SEED["eaters"] if row["email"] == eater_email)
    found = [row for row in SEED["orders"] if row["eater_id"] == eater and row["current_state"] == state]
    assert len(found) == 1, found
    return found[0]


def pad_thai(session: ToolSession, quantity: int = 1) -> dict[str, Any]:
    item = item_id("Thai Basil Kitchen", "Pad Thai")
    chosen = options(session, item)
    return ok(
        session,
        "add_to_cart",
        {"item_id": item, "quantity": quantity, "option_ids": [chosen["Chicken"], chosen["Medium"]]},
    )


# ---------------------------------------------------------------- sign-in and ownership


def test_everything_needs_a_signed_in_eater_and_sign_in_is_the_users(session):
    fails(session, "get_eater", {}, "PermissionDenied", "Sign in to Uber Eats first")
    fails(session, "get_cart", {}, "PermissionDenied", "Sign in")
    outcome = session.call("sign_in", {"email": "priya.raman@gmail.com"}, caller="agent")
    assert not outcome.ok and outcome.error_kind == "user_only"
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "No Uber account", caller="user")
    me = sign_in(session, "PRIYA.RAMAN@gmail.com")
    assert me["uber_one"] and me["uber_cash"] == 1250 and [p["label"] for p in me["places"]] == ["Home", "Work"]


def test_another_eaters_order_and_place_do_not_exist(session):
    sign_in(session, "priya.raman@gmail.com")
    marcus_order = order_of("marcus.bell@outlook.com", "ACCEPTED")["id"]
    fails(session, "get_order", {"order_id": marcus_order}, "NotFound", "not found")
    fails(session, "cancel_order", {"order_id": marcus_order, "reason": "OTHER"}, "NotFound", "not found")
    fails(session, "get_store", {"store_id": store_id("Seoul Bowl"), "place_id": "pl_003"}, "NotFound", "Place")


# ---------------------------------------------------------------- stores


def test_store_status_paused_closed_and_invisible(session):
    sign_in(session, "hannah.okafor@gmail.com")
    smash = ok(session, "get_store", {"store_id": store_id("Smash Shack")})
    assert smash["status"] == "PAUSED" and smash["offline_reason"] == "PAUSED_BY_RESTAURANT"
    coffee = ok(session, "get_store", {"store_id": store_id("Bean There Coffee")})
    assert coffee["status"] == "OFFLINE" and coffee["offline_reason"] == "OUT_OF_MENU_HOURS"
    fails(session, "get_store", {"store_id": store_id("Lucky Noodle (closed)")}, "NotFound", "not found")
    names = {s["name"] for s in ok(session, "search_stores", {"page_size": 50})["results"]}
    assert "Lucky Noodle (closed)" not in names and "Smash Shack" in names
    open_now = {s["name"] for s in ok(session, "search_stores", {"open_now": True, "page_size": 50})["results"]}
    assert "Smash Shack" not in open_now and "Bean There Coffee" not in open_now and "Thai Basil Kitchen" in open_now


def test_search_by_dish_and_delivery_area(session):
    sign_in(session, "hannah.okafor@gmail.com")
    found = ok(session, "search_stores", {"query": "pad thai", "place_id": "pl_004"})["results"]
    assert [s["name"] for s in found] == ["Thai Basil Kitchen"]  # Express doesn't deliver to Lakeview
    express = ok(session, "get_store", {"store_id": store_id("Thai Basil Express"), "place_id": "pl_004"})
    assert express["delivers_to_place"] is False


def test_holiday_hours_replace_the_weekly_hours(session):
    sign_in(session, "leo.novak@proton.me")
    pad = ok(session, "get_store", {"store_id": store_id("Stockyard Burger Co.")})
    assert {"date": "2026-06-19", "open_time_periods": []} in pad["holiday_hours"]
    burger = item_id("Stockyard Burger Co.", "Fries")
    ok(session, "add_to_cart", {"item_id": burger, "quantity": 3})
    args = {"fulfillment_type": "DELIVERY_BY_UBER", "place_id": "pl_014", "scheduled_for": "2026-06-19T12:00:00Z"}
    fails(session, "place_order", args, "Conflict", "isn't open at 2026-06-19 12:00")
    args["scheduled_for"] = "2026-06-18T12:00:00Z"
    assert ok(session, "place_order", args)["current_state"] == "SCHEDULED"


def test_paused_store_takes_orders_scheduled_after_the_pause(session):
    sign_in(session, "hannah.okafor@gmail.com")
    ok(session, "add_to_cart", {"item_id": item_id("Smash Shack", "Fries"), "quantity": 3})
    now = {"fulfillment_type": "DELIVERY_BY_UBER", "place_id": "pl_004"}
    fails(session, "place_order", now, "Conflict", "currently unavailable")
    fails(session, "place_order", {**now, "scheduled_for": "2026-06-12T19:45:00Z"}, "Conflict", "isn't open")
    assert ok(session, "place_order", {**now, "scheduled_for": "2026-06-12T20:30:00Z"})["scheduled_for"] == (
        "2026-06-12T20:30:00Z"
    )


def test_schedule_window_is_one_hour_to_seven_days(session):
    sign_in(session, "priya.raman@gmail.com")
    pad_thai(session)
    args = {"fulfillment_type": "DELIVERY_BY_UBER", "place_id": "pl_001"}
    fails(session, "place_order", {**args, "scheduled_for": "2026-06-12T19:00:00Z"}, "InvalidRequest", "1 hour")
    fails(session, "place_order", {**args, "scheduled_for": "2026-06-20T12:00:00Z"}, "InvalidRequest", "7 days")


# ---------------------------------------------------------------- menu and cart


def test_sold_out_items_cannot_be_added(session):
    sign_in(session, "grace.liu@gmail.com")
    rangoon = item_id("Thai Basil Kitchen", "Crab Rangoon")
    assert ok(session, "get_item", {"item_id": rangoon})["sold_out"] is True
    fails(session, "add_to_cart", {"item_id": rangoon}, "Conflict", "sold out")


def test_modifier_group_minimums_maximums_and_foreign_options(session):
    sign_in(session, "aisha.karim@gmail.com")
    plate = item_id("Smoke Pit BBQ", "Pulled Pork Plate")
    chosen = options(session, plate)
    fails(
        session,
        "add_to_cart",
        {"item_id": plate, "option_ids": [chosen["Coleslaw"]]},
        "InvalidRequest",
        'choose at least 2 for "Choose two sides"',
    )
    three = [chosen["Coleslaw"], chosen["Cornbread"], chosen["Mac and cheese"]]
    fails(session, "add_to_cart", {"item_id": plate, "option_ids": three}, "InvalidRequest", "choose at most 2")
    pad_options = options(session, item_id("Thai Basil Kitchen", "Pad Thai"))
    fails(
        session,
        "add_to_cart",
        {"item_id": plate, "option_ids": [pad_options["Chicken"]]},
        "InvalidRequest",
        "is not a customization",
    )
    cart = ok(session, "add_to_cart", {"item_id": plate, "option_ids": three[:2]})
    assert cart["items"][0]["unit_price"] == 1895


def test_cart_holds_one_store_unless_replaced(session):
    sign_in(session, "marcus.bell@outlook.com")
    assert ok(session, "get_cart")["store_name"] == "Kaiju Sushi"
    fries = item_id("Seoul Bowl", "Kimchi Fries")
    fails(session, "add_to_cart", {"item_id": fries}, "Conflict", "already has items from Kaiju Sushi")
    cart = ok(session, "add_to_cart", {"item_id": fries, "replace_cart": True})
    assert cart["store_name"] == "Seoul Bowl" and [i["title"] for i in cart["items"]] == ["Kimchi Fries"]


def test_update_and_remove_cart_lines(session):
    sign_in(session, "marcus.bell@outlook.com")
    cart = ok(session, "update_cart_item", {"cart_item_id": "ci_0001", "quantity": 3})
    assert cart["items"][0]["quantity"] == 3 and cart["items"][0]["total"] == 3 * 895
    ok(session, "update_cart_item", {"cart_item_id": "ci_0001", "quantity": 0})
    cart = ok(session, "update_cart_item", {"cart_item_id": "ci_0002", "quantity": 0})
    assert cart["store_id"] is None and cart["items"] == []
    fails(session, "update_cart_item", {"cart_item_id": "ci_0001", "quantity": 1}, "NotFound", "Cart item")


def test_alcohol_needs_an_eater_of_21(session):
    wine = item_id("Cork & Crate Wine Shop", "Local IPA 6-pack")
    sign_in(session, "diego.alvarez@gmail.com")  # born 2005
    fails(session, "add_to_cart", {"item_id": wine}, "Conflict", "21 or older")
    sign_in(session, "marcus.bell@outlook.com")
    assert (
        ok(session, "add_to_cart", {"item_id": wine, "replace_cart": True})["items"][0]["title"] == "Local IPA 6-pack"
    )


# ---------------------------------------------------------------- prices


def test_small_order_service_and_uber_one_fees(session):
    sign_in(session, "priya.raman@gmail.com")  # Uber One
    coffee = item_id("Ground Control Cafe", "Drip Coffee")
    price = ok(session, "add_to_cart", {"item_id": coffee, "option_ids": [options(session, coffee)["Small"]]})["price"]
    assert price == {
        "subtotal": 325,
        "delivery_fee": 199,
        "small_order_fee": 200,
        "service_fee": 200,
        "discount": 0,
        "tip": 0,
        "total": 924,
    }
    ok(session, "clear_cart")
    price = pad_thai(session, quantity=2)["price"]  # $29.90 at an Uber One store: no delivery fee
    assert price["delivery_fee"] == 0 and price["service_fee"] == 448 and price["small_order_fee"] == 0
    pickup = ok(session, "get_cart", {"fulfillment_type": "PICK_UP"})["price"]
    assert pickup["service_fee"] == 0 and pickup["total"] == 2990


def test_non_members_pay_the_delivery_fee(session):
    sign_in(session, "tom.brennan@gmail.com")
    price = ok(session, "add_to_cart", {"item_id": item_id("Green Leaf Vegan", "Buddha Bowl"), "quantity": 2})["price"]
    assert price["delivery_fee"] == 249


def test_store_minimum_blocks_checkout(session):
    sign_in(session, "tom.brennan@gmail.com")
    ok(session, "add_to_cart", {"item_id": item_id("Tandoor House", "Samosas")})
    assert "Tandoor House has a $15.00 minimum order." in ok(session, "get_cart")["warnings"]
    args = {"fulfillment_type": "DELIVERY_BY_UBER", "place_id": "pl_011"}
    fails(session, "place_order", args, "Conflict", "$15.00 minimum")


# ---------------------------------------------------------------- promotions


def test_promotion_conditions(session):
    sign_in(session, "tom.brennan@gmail.com")
    fails(session, "apply_promo_code", {"code": "SAVE5"}, "InvalidRequest", "Add items")
    ok(session, "add_to_cart", {"item_id": item_id("Green Leaf Vegan", "Vegan Brownie")})
    fails(session, "apply_promo_code", {"code": "NOPE123"}, "NotFound", "isn't valid")
    fails(session, "apply_promo_code", {"code": "SUMMER25"}, "Conflict", "expired")
    fails(session, "apply_promo_code", {"code": "JUNE19"}, "Conflict", "expired")  # not started yet
    fails(session, "apply_promo_code", {"code": "THAI3"}, "Conflict", "can't be used at this store")
    fails(session, "apply_promo_code", {"code": "ONE10"}, "Conflict", "Uber One members only")
    fails(session, "apply_promo_code", {"code": "WELCOME20"}, "Conflict", "Add $10.05 more")
    codes = {p["code"] for p in ok(session, "list_promotions")}
    assert "WELCOME20" in codes and "ONE10" not in codes and "SUMMER25" not in codes


def test_first_order_and_use_limits(session):
    sign_in(session, "priya.raman@gmail.com")
    pad_thai(session, quantity=2)
    fails(session, "apply_promo_code", {"code": "WELCOME20"}, "Conflict", "first order only")
    assert ok(session, "apply_promo_code", {"code": "thai3"})["price"]["discount"] == 300
    percent = ok(session, "apply_promo_code", {"code": "ONE10"})
    assert percent["promo_code"] == "ONE10" and percent["price"]["discount"] == 299
    ok(session, "place_order", {"fulfillment_type": "DELIVERY_BY_UBER", "place_id": "pl_001"})
    pad_thai(session, quantity=2)
    ok(session, "apply_promo_code", {"code": "ONE10"})
    ok(session, "place_order", {"fulfillment_type": "DELIVERY_BY_UBER", "place_id": "pl_001"})
    pad_thai(session, quantity=2)
    fails(session, "apply_promo_code", {"code": "ONE10"}, "Conflict", "already used")


def test_promotion_that_no_longer_fits_blocks_checkout(session):
    sign_in(session, "diego.alvarez@gmail.com")
    chips = item_id("Taqueria El Milagro", "Chips and Guacamole")
    cart = ok(session, "add_to_cart", {"item_id": chips, "quantity": 3})
    ok(session, "apply_promo_code", {"code": "SAVE5"})
    cart = ok(session, "update_cart_item", {"cart_item_id": cart["items"][0]["cart_item_id"], "quantity": 1})
    assert cart["price"]["discount"] == 0 and any("more to your cart" in w for w in cart["warnings"])
    fails(session, "place_order", {"fulfillment_type": "PICK_UP"}, "Conflict", "more to your cart to use SAVE5")
    assert ok(session, "remove_promo_code")["promo_code"] is None


def test_free_delivery_promo_takes_off_the_delivery_fee(session):
    sign_in(session, "hannah.okafor@gmail.com")
    burger = item_id("Smash Shack", "Classic Cheeseburger")
    chosen = options(session, burger)
    ok(session, "add_to_cart", {"item_id": burger, "quantity": 2, "option_ids": [chosen["Medium"], chosen["Fries"]]})
    price = ok(session, "apply_promo_code", {"code": "FREEDEL"})["price"]
    assert price["delivery_fee"] == 249 and price["discount"] == 249  # not Uber One eligible


# ---------------------------------------------------------------- checkout


def test_delivery_area_pickup_and_tips(session):
    sign_in(session, "hannah.okafor@gmail.com")
    ok(session, "add_to_cart", {"item_id": item_id("Thai Basil Express", "Thai Iced Tea"), "quantity": 3})
    fails(
        session,
        "place_order",
        {"fulfillment_type": "DELIVERY_BY_UBER", "place_id": "pl_004"},
        "Conflict",
        "doesn't deliver to 3422 N Southport Ave",
    )
    fails(session, "place_order", {"fulfillment_type": "PICK_UP"}, "Conflict", "doesn't offer pick-up")
    ok(
        session,
        "add_to_cart",
        {"item_id": item_id("Thai Basil Kitchen", "Thai Iced Tea"), "quantity": 3, "replace_cart": True},
    )
    fails(session, "place_order", {"fulfillment_type": "PICK_UP", "tip": 200}, "InvalidRequest", "can't include a tip")
    fails(session, "place_order", {"fulfillment_type": "DELIVERY_BY_UBER"}, "InvalidRequest", "delivery address")
    order = ok(session, "place_order", {"fulfillment_type": "PICK_UP"})
    assert order["current_state"] == "CREATED" and order["price"]["total"] == 1485
    assert ok(session, "get_cart")["items"] == []
    fails(session, "place_order", {"fulfillment_type": "PICK_UP"}, "InvalidRequest", "cart is empty")


def test_uber_cash_pays_first(session):
    sign_in(session, "julia.chen@gmail.com")  # $20.00 of Uber Cash
    ok(session, "add_to_cart", {"item_id": item_id("Leafy Greens Co.", "Green Juice"), "quantity": 4})
    order = ok(
        session,
        "place_order",
        {"fulfillment_type": "DELIVERY_BY_UBER", "place_id": "pl_010", "tip": 300, "use_uber_cash": True},
    )
    assert order["uber_cash_used"] == 2000 and order["charged_to_card"] == order["price"]["total"] - 2000
    assert ok(session, "get_eater")["uber_cash"] == 0


# ---------------------------------------------------------------- cancellation


def test_cancel_is_free_before_the_store_accepts(session):
    sign_in(session, "julia.chen@gmail.com")
    order = order_of("julia.chen@gmail.com", "CREATED")
    done = ok(session, "cancel_order", {"order_id": order["id"], "reason": "CHANGED_MIND"})
    assert done["current_state"] == "CANCELED" and done["refund"] == order["total"]
    fails(session, "cancel_order", {"order_id": order["id"], "reason": "OTHER"}, "Conflict", "CANCELED")


def test_cancel_after_accept_charges_the_food(session):
    sign_in(session, "marcus.bell@outlook.com")
    order = order_of("marcus.bell@outlook.com", "ACCEPTED")
    args = {"order_id": order["id"], "reason": "TAKING_TOO_LONG"}
    fails(session, "cancel_order", args, "Conflict", f"charges ${order['subtotal'] / 100:.2f} for the food")
    done = ok(session, "cancel_order", {**args, "accept_charge": True})
    assert done["refund"] == order["total"] - order["subtotal"]


def test_handed_off_orders_cannot_be_cancelled_and_cash_returns_on_cancel(session):
    sign_in(session, "hannah.okafor@gmail.com")
    moving = order_of("hannah.okafor@gmail.com", "HANDED_OFF")
    fails(
        session,
        "cancel_order",
        {"order_id": moving["id"], "reason": "OTHER", "accept_charge": True},
        "Conflict",
        "on its way",
    )
    ok(session, "add_to_cart", {"item_id": item_id("Thai Basil Kitchen", "Thai Iced Tea"), "quantity": 4})
    order = ok(session, "place_order", {"fulfillment_type": "PICK_UP", "use_uber_cash": True})
    assert ok(session, "get_eater")["uber_cash"] == 500 - order["uber_cash_used"]
    ok(session, "cancel_order", {"order_id": order["order_id"], "reason": "ORDERED_BY_MISTAKE"})
    assert ok(session, "get_eater")["uber_cash"] == 500


# ---------------------------------------------------------------- after delivery


def test_issue_reports_refund_within_three_days(session):
    sign_in(session, "priya.raman@gmail.com")
    eater = next(row["id"] for row in SEED["eaters"] if row["email"] == "priya.raman@gmail.com")
    finished = sorted(
        (row for row in SEED["orders"] if row["eater_id"] == eater and row["current_state"] == "FINISHED"),
        key=lambda row: row["placed_at"],
    )
    recent, old = finished[-1], finished[-2]
    rolls = next(line for line in recent["items"] if line["title"] == "Fresh Spring Rolls")
    args = {
        "order_id": recent["id"],
        "line_id": rolls["line_id"],
        "issue_type": "MISSING_ITEM",
        "refund_to": "UBER_CASH",
    }
    fails(session, "report_order_issue", {**args, "quantity": 2}, "Conflict", "Only 1 of Fresh Spring Rolls")
    fails(session, "report_order_issue", {**args, "line_id": "x-9"}, "InvalidRequest", "not part of this order")
    done = ok(session, "report_order_issue", args)
    assert done["refund"] == 795 and done["issues"][0]["refund_to"] == "UBER_CASH"
    assert ok(session, "get_eater")["uber_cash"] == 1250 + 795
    fails(session, "report_order_issue", args, "Conflict", "Only 0")
    old_args = {**args, "order_id": old["id"], "line_id": old["items"][0]["line_id"]}
    fails(session, "report_order_issue", old_args, "Conflict", "too old")


def test_only_delivered_orders_get_issues_or_ratings_and_only_once(session):
    sign_in(session, "julia.chen@gmail.com")
    live = order_of("julia.chen@gmail.com", "CREATED")
    line = live["items"][0]["line_id"]
    fails(
        session,
        "report_order_issue",
        {"order_id": live["id"], "line_id": line, "issue_type": "QUALITY"},
        "Conflict",
        "once the order has been delivered",
    )
    fails(session, "rate_order", {"order_id": live["id"], "stars": 5}, "Conflict", "Only delivered")
    done = next(
        row
        for row in SEED["orders"]
        if row["eater_id"] == live["eater_id"] and row["rating"] is None and row["current_state"] == "FINISHED"
    )
    assert ok(session, "rate_order", {"order_id": done["id"], "stars": 4})["rating"] == 4
    fails(session, "rate_order", {"order_id": done["id"], "stars": 5}, "Conflict", "already rated")
    outcome = session.call("rate_order", {"order_id": done["id"], "stars": 6})
    assert not outcome.ok and outcome.error_kind == "invalid_arguments"


def test_reorder_skips_sold_out_items(session):
    sign_in(session, "grace.liu@gmail.com")
    grace = next(row["id"] for row in SEED["eaters"] if row["email"] == "grace.liu@gmail.com")
    sakura = next(
        row
        for row in SEED["orders"]
        if row["eater_id"] == grace and any(line["title"] == "Crab Rangoon" for line in row["items"])
    )
    cart = ok(session, "reorder", {"order_id": sakura["id"]})
    assert [i["title"] for i in cart["items"]] == ["Fresh Spring Rolls"]
    assert "Crab Rangoon is unavailable and wasn't added." in cart["warnings"]


def test_reorder_keeps_options_and_add_place(session):
    sign_in(session, "priya.raman@gmail.com")
    thai = max(
        (
            row
            for row in SEED["orders"]
            if row["store_id"] == store_id("Thai Basil Kitchen")
            and row["eater_id"] == sign_in(session, "priya.raman@gmail.com")["eater_id"]
        ),
        key=lambda row: row["placed_at"],
    )
    cart = ok(session, "reorder", {"order_id": thai["id"]})
    assert cart["items"][0]["options"] == ["Shrimp", "Medium", "Fried egg"] and cart["items"][0]["total"] == 1995
    place = ok(session, "add_place", {"label": "Gym", "address": "1 N Halsted St", "neighborhood": "West Loop"})
    assert place["place_id"] == "pl_016"
    outcome = session.call("add_place", {"label": "X", "address": "1 Main St", "neighborhood": "Evanston"})
    assert not outcome.ok and outcome.error_kind == "invalid_arguments"


def test_options_are_kept_in_menu_order_whatever_order_they_come_in(session):
    sign_in(session, "priya.raman@gmail.com")
    item = item_id("Thai Basil Kitchen", "Pad Thai")
    chosen = options(session, item)
    picked = [chosen["Fried egg"], chosen["Thai hot"], chosen["Tofu"]]
    cart = ok(session, "add_to_cart", {"item_id": item, "option_ids": picked})
    assert cart["items"][0]["options"] == ["Tofu", "Thai hot", "Fried egg"]
    line = cart["items"][0]["cart_item_id"]
    cart = ok(session, "update_cart_item", {"cart_item_id": line, "option_ids": [chosen["Mild"], chosen["Beef"]]})
    assert cart["items"][0]["options"] == ["Beef", "Mild"] and cart["items"][0]["unit_price"] == 1695
