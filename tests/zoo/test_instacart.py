"""The Instacart environment's tools: sign-in, stores and catalogs, carts with stock and purchase limits,
replacement preferences, windows, checkout with minimums, fees, Instacart+ waivers and credits, editing, moving and
canceling orders before shopping starts, tips, the customer's replacement answers, issue reports, Instacart+ and
saved addresses, with every error path leaving the state unchanged. Runs the real tools on the real seed."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("instacart")
CLOCK = datetime(2025, 6, 12, 17, 0, tzinfo=timezone.utc)  # Thursday 10:00 in San Francisco
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
USERS = {u["first_name"].lower(): u for u in SEED["users"]}

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, who: str) -> None:
    ok(session, "sign_in", {"email": USERS[who]["email"]}, caller="user")


def item(loc: str, name: str, brand: str | None = None) -> dict:
    return next(
        i
        for i in SEED["store_items"]
        if i["location_code"] == loc and i["name"] == name and (brand is None or i["brand"] == brand)
    )


def window(loc: str, start: str, ftype: str = "delivery", wtype: str = "standard") -> dict:
    return next(
        w
        for w in SEED["service_options"]
        if w["location_code"] == loc
        and w["fulfillment_type"] == ftype
        and w["window_type"] == wtype
        and w["start_at"].startswith(start)
    )


def order(who: str, loc: str, status: str) -> dict:
    return next(
        o
        for o in SEED["orders"]
        if o["user_id"] == USERS[who]["id"]
        and o["location_code"] == loc
        and o["status"] == status
        and o["created_at"] >= "2025-06-04"
    )


def address(who: str, index: int = 0) -> str:
    return [a["id"] for a in SEED["addresses"] if a["user_id"] == USERS[who]["id"]][index]


def booked(session: ToolSession, window_id: int) -> int:
    return session.dump()["service_options"][str(window_id)]["booked"]


def credits(session: ToolSession) -> int:
    return ok(session, "get_account")["credit_balance_cents"]


def cart(session: ToolSession, loc: str) -> dict | None:
    return next((c for c in ok(session, "list_carts") if c["location_code"] == loc), None)


# ---------------------------------------------------------------- interface and sign-in


def test_tools_and_what_only_the_customer_does(session):
    assert len(SPEC.tools) == 20
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["sign_in", "review_replacement"]
    assert {n for n, t in SPEC.tools.items() if not t.input_schema["properties"]} == {
        "get_account",
        "list_addresses",
        "list_carts",
    }
    sign_in(session, "jamal")
    refused = session.call("review_replacement", {"item_name": "Organic Whole Milk"})
    assert not refused.ok and refused.error_kind == "user_only"


def test_everything_needs_a_signed_in_customer(session):
    fails(session, "get_account", {}, "PermissionDenied", "Sign in")
    fails(session, "list_retailers", {"postal_code": "94110"}, "PermissionDenied", "Sign in")
    fails(session, "sign_in", {"email": "nobody@example.com"}, "NotFound", "couldn't find", caller="user")
    ok(session, "sign_in", {"email": "  Maya.Chen@Gmail.com "}, caller="user")
    assert ok(session, "get_account")["first_name"] == "Maya"


def test_account_shows_credits_and_instacart_plus_benefits(session):
    sign_in(session, "olivia")
    account = ok(session, "get_account")
    assert (account["credit_balance_cents"], account["instacart_plus"]) == (250, None)
    assert account["default_address"]["street"] == "1160 Mission St"
    sign_in(session, "maya")
    assert ok(session, "get_account")["instacart_plus"]["benefits_active"] is True
    sign_in(session, "sofia")
    plus = ok(session, "get_account")["instacart_plus"]
    assert (plus["status"], plus["benefits_active"], plus["trial_used"]) == ("expired", False, True)


# ---------------------------------------------------------------- stores and catalogs


def test_retailers_serving_a_zip_code(session):
    sign_in(session, "carlos")
    near_mom = {s["location_code"] for s in ok(session, "list_retailers", {"postal_code": "94112"})}
    assert near_mom == {"0144", "0297", "9731"}  # no Safeway delivers to the Excelsior
    pickup = ok(session, "list_retailers", {"postal_code": "94110", "fulfillment_type": "pickup"})
    assert {s["retailer_key"] for s in pickup} == {"safeway", "grocery-outlet", "mollie-stones", "petco"}
    costco = next(s for s in ok(session, "list_retailers", {"postal_code": "94110"}) if s["retailer_key"] == "costco")
    assert (costco["order_minimum_cents"], costco["pickup_available"]) == (3500, False)
    fails(session, "list_retailers", {"postal_code": "9411"}, "invalid_arguments", "postal_code: must be a 5-digit")


def test_search_matches_every_word_ignores_accents_and_paginates(session):
    sign_in(session, "emily")
    found = ok(session, "search_items", {"location_code": "1490", "query": "oatly oat milk"})["results"]
    assert {(i["size"], i["stock_level"]) for i in found} == {("64 fl oz", "low_stock"), ("32 fl oz", "out_of_stock")}
    stocked = ok(session, "search_items", {"location_code": "1490", "query": "oatly", "in_stock_only": True})
    assert [i["size"] for i in stocked["results"]] == ["64 fl oz"]
    vanilla = ok(session, "search_items", {"location_code": "0571", "query": "haagen-dazs vanilla"})["results"]
    assert [i["brand"] for i in vanilla] == ["Häagen-Dazs"]
    frozen = [i for i in SEED["store_items"] if i["location_code"] == "1490" and i["category"] == "Frozen"]
    first = ok(session, "search_items", {"location_code": "1490", "query": "", "category": "frozen", "page_size": 5})
    assert len(first["results"]) == 5 and first["has_more"] is True
    rest = ok(
        session,
        "search_items",
        {"location_code": "1490", "query": "", "category": "Frozen", "page_size": 5, "cursor": first["next_cursor"]},
    )
    assert len(first["results"]) + len(rest["results"]) == len(frozen) and rest["has_more"] is False
    fails(
        session,
        "search_items",
        {"location_code": "1490", "query": "x", "page_size": 0},
        "invalid_arguments",
        "page_size",
    )
    fails(session, "search_items", {"location_code": "0000", "query": "milk"}, "NotFound", "Store")


# ---------------------------------------------------------------- carts


def test_update_cart_sets_quantities_and_removes_lines(session):
    sign_in(session, "sam")
    pizza = item("0297", "Cheese Pizza", "Amy's")
    assert cart(session, "0297") is None
    first = ok(session, "update_cart", {"item_id": pizza["item_id"], "quantity": 1, "special_instructions": "Frozen"})
    assert (first["item_count"], first["subtotal_cents"]) == (1, pizza["price_cents"])
    again = ok(session, "update_cart", {"item_id": pizza["item_id"], "quantity": 2})
    assert again["items"][0]["quantity"] == 2 and again["items"][0]["special_instructions"] == "Frozen"
    assert again["items"][0]["replacement_policy"] == "shoppers_choice"
    assert ok(session, "update_cart", {"item_id": pizza["item_id"], "quantity": 0})["items"] == []
    assert cart(session, "0297") is None and not session.dump()["carts"].keys() - {c["id"] for c in SEED["carts"]}
    fails(session, "update_cart", {"item_id": pizza["item_id"], "quantity": 0}, "NotFound", "not in your cart")
    fails(
        session,
        "update_cart",
        {"item_id": pizza["item_id"], "quantity": -1},
        "invalid_arguments",
        "quantity: can't be negative",
    )


def test_cart_refuses_out_of_stock_items_and_purchase_limits(session):
    sign_in(session, "maya")
    barista = item("1490", "Oat Milk, Barista Edition")
    fails(session, "update_cart", {"item_id": barista["item_id"], "quantity": 1}, "Conflict", "out of stock")
    fails(
        session,
        "update_cart",
        {"item_id": item("0297", "Cheese Pizza")["item_id"], "quantity": 3},
        "InvalidRequest",
        "limited to 2 per order",
    )
    fails(session, "update_cart", {"item_id": "items_1490-0", "quantity": 1}, "NotFound", "Item")


def test_replacement_preferences_in_the_cart(session):
    sign_in(session, "lauren")
    clover = item("1490", "Organic Whole Milk", "Clover Sonoma")["item_id"]
    lucerne = item("1490", "Whole Milk", "Lucerne")["item_id"]
    base = {"item_id": clover, "replacement_policy": "users_choice"}
    fails(session, "set_replacement_preference", base, "InvalidRequest", "replacement_item_id is required")
    fails(session, "set_replacement_preference", {**base, "replacement_item_id": clover}, "InvalidRequest", "itself")
    fails(
        session,
        "set_replacement_preference",
        {**base, "replacement_item_id": item("2606", "Whole Milk")["item_id"]},
        "InvalidRequest",
        "same store",
    )
    fails(
        session,
        "set_replacement_preference",
        {**base, "replacement_item_id": item("1490", "Oat Milk, Barista Edition")["item_id"]},
        "Conflict",
        "out of stock",
    )
    fails(
        session,
        "set_replacement_preference",
        {"item_id": clover, "replacement_policy": "no_replacements", "replacement_item_id": lucerne},
        "InvalidRequest",
        "only used",
    )
    pizza = item("1490", "Cheese Pizza")["item_id"]
    fails(
        session,
        "set_replacement_preference",
        {"item_id": pizza, "replacement_policy": "no_replacements"},
        "NotFound",
        "not in your cart",
    )
    result = ok(session, "set_replacement_preference", {**base, "replacement_item_id": lucerne})
    assert result["replacement_item"]["name"] == "Whole Milk" and result["order_id"] is None
    line = next(i for i in cart(session, "1490")["items"] if i["item_id"] == clover)
    assert (line["replacement_policy"], line["replacement_item"]["item_id"]) == ("users_choice", lucerne)


# ---------------------------------------------------------------- windows


def test_windows_show_availability(session):
    sign_in(session, "maya")
    saturday = ok(session, "list_service_options", {"location_code": "1490", "date": "2025-06-14"})
    by_hour = {w["start_at"][11:13]: w for w in saturday}
    assert by_hour["10"]["availability"] == {"available": False, "reasons": ["window_full"]}
    assert by_hour["10"]["fee_cents"] == 599 and by_hour["08"]["fee_cents"] == 399  # busy-hour pricing
    today = ok(session, "list_service_options", {"location_code": "1490", "date": "2025-06-12"})
    assert "2025-06-12T08:00:00-07:00" not in {w["start_at"] for w in today}  # ended windows are gone
    started = next(w for w in today if w["start_at"] == "2025-06-12T10:00:00-07:00")
    assert started["availability"]["reasons"] == ["window_started"]
    express = [w for w in today if w["window_type"] == "express"]
    assert express and all(w["express_fee_cents"] == 299 for w in express)
    fails(
        session,
        "list_service_options",
        {"location_code": "0144", "fulfillment_type": "pickup"},
        "Conflict",
        "doesn't offer pickup",
    )
    fails(
        session,
        "list_service_options",
        {"location_code": "1490", "date": "14/06/2025"},
        "invalid_arguments",
        "date: must look like 2025-06-13",
    )


# ---------------------------------------------------------------- checkout


def test_checkout_books_the_window_empties_the_cart_and_waives_delivery_for_members(session):
    sign_in(session, "maya")
    lines = cart(session, "1490")
    slot = window("1490", "2025-06-14T12")
    placed = ok(
        session,
        "place_order",
        {"location_code": "1490", "service_option_id": slot["id"], "address_id": address("maya"), "tip_cents": 1000},
    )
    subtotal = lines["subtotal_cents"]
    assert placed["status"] == "placed" and placed["subtotal_cents"] == subtotal >= 3500
    assert (placed["delivery_fee_cents"], placed["service_fee_cents"]) == (0, round(subtotal * 0.05))
    assert placed["total_cents"] == subtotal + placed["service_fee_cents"] + 1000
    assert placed["delivery_instructions"] == "Buzz #4, leave at the top of the stairs"
    assert [i["quantity"] for i in placed["items"]] == [i["quantity"] for i in lines["items"]]
    assert booked(session, slot["id"]) == slot["booked"] + 1 and cart(session, "1490") is None
    assert ok(session, "list_orders")["results"][0]["id"] == placed["id"]


def test_non_members_pay_the_window_fee_and_express_fee(session):
    sign_in(session, "tom")
    ok(session, "update_cart", {"item_id": item("9731", "Ibuprofen Tablets, 200 mg")["item_id"], "quantity": 1})
    ok(session, "update_cart", {"item_id": item("9731", "Electrolyte Solution, Lemon-Lime")["item_id"], "quantity": 2})
    fails(
        session,
        "place_order",
        {
            "location_code": "9731",
            "address_id": address("tom"),
            "service_option_id": window("9731", "2025-06-12T11", wtype="express")["id"],
        },
        "Conflict",
        "full",
    )
    fast = window("9731", "2025-06-12T12", wtype="express")
    placed = ok(
        session,
        "place_order",
        {"location_code": "9731", "service_option_id": fast["id"], "address_id": address("tom"), "tip_cents": 500},
    )
    assert (placed["subtotal_cents"], placed["delivery_fee_cents"], placed["express_fee_cents"]) == (2497, 399, 299)
    assert placed["total_cents"] == 2497 + 399 + 299 + 125 + 500


def test_checkout_needs_the_order_minimum(session):
    sign_in(session, "daniel")
    args = {
        "location_code": "0479",
        "service_option_id": window("0479", "2025-06-13T18")["id"],
        "address_id": address("daniel"),
        "tip_cents": 600,
    }
    assert cart(session, "0479")["minimum_remaining_cents"] == 902
    fails(session, "place_order", args, "Conflict", "Add $9.02 more to reach the $35.00 order minimum at Costco")
    ok(session, "update_cart", {"item_id": item("0479", "Create-A-Size Paper Towels")["item_id"], "quantity": 1})
    assert ok(session, "place_order", args)["subtotal_cents"] == 2598 + 2499


def test_checkout_refuses_out_of_stock_items(session):
    sign_in(session, "priya")
    args = {"location_code": "0022", "service_option_id": window("0022", "2025-06-12T15", "pickup")["id"]}
    fails(session, "place_order", args, "Conflict", "Out of stock: Organic Plain Whole Milk Yogurt (32 oz)")
    ok(session, "update_cart", {"item_id": item("0022", "Organic Plain Whole Milk Yogurt")["item_id"], "quantity": 0})
    placed = ok(session, "place_order", args)
    assert (placed["fulfillment_type"], placed["address"], placed["delivery_fee_cents"]) == ("pickup", None, 199)


def test_checkout_window_and_address_rules(session):
    sign_in(session, "lauren")
    base = {"location_code": "1490", "address_id": address("lauren")}
    fails(
        session,
        "place_order",
        {**base, "service_option_id": window("1490", "2025-06-14T10")["id"]},
        "Conflict",
        "window is full",
    )
    fails(
        session,
        "place_order",
        {**base, "service_option_id": window("1490", "2025-06-12T10")["id"]},
        "Conflict",
        "already started",
    )
    fails(
        session,
        "place_order",
        {**base, "service_option_id": window("2606", "2025-06-13T12")["id"]},
        "InvalidRequest",
        "another store",
    )
    later = window("1490", "2025-06-13T12")["id"]
    fails(
        session,
        "place_order",
        {"location_code": "1490", "service_option_id": later},
        "InvalidRequest",
        "address_id is required",
    )
    pickup = window("1490", "2025-06-13T11", "pickup")["id"]
    fails(session, "place_order", {**base, "service_option_id": pickup}, "InvalidRequest", "no delivery address")
    fails(
        session,
        "place_order",
        {"location_code": "1490", "service_option_id": pickup, "tip_cents": 300},
        "InvalidRequest",
        "only for delivery",
    )
    far = ok(
        session,
        "save_address",
        {"street": "95 Ocean Ave", "city": "San Francisco", "state": "ca", "postal_code": "94112"},
    )
    fails(
        session,
        "place_order",
        {**base, "address_id": far["id"], "service_option_id": later},
        "Conflict",
        "doesn't deliver to 94112",
    )
    fails(session, "place_order", {"location_code": "0022", "service_option_id": later}, "Conflict", "cart is empty")


def test_credits_apply_at_checkout_but_not_to_the_tip(session):
    sign_in(session, "olivia")
    eggs = item("1490", "Pasture-Raised Large Eggs")
    ok(session, "update_cart", {"item_id": eggs["item_id"], "quantity": 2})
    placed = ok(
        session,
        "place_order",
        {
            "location_code": "1490",
            "address_id": address("olivia"),
            "tip_cents": 400,
            "service_option_id": window("1490", "2025-06-13T12")["id"],
        },
    )
    before_tip = placed["subtotal_cents"] + placed["delivery_fee_cents"] + placed["service_fee_cents"]
    assert placed["credits_applied_cents"] == 250 and placed["total_cents"] == before_tip + 400 - 250
    assert credits(session) == 0
    ok(session, "cancel_order", {"order_id": placed["id"]})
    assert credits(session) == 250


# ---------------------------------------------------------------- orders before shopping starts


def test_edits_keep_the_order_minimum(session):
    sign_in(session, "nina")
    costco = order("nina", "0144", "placed")["id"]
    salmon = item("0144", "Atlantic Salmon Fillets")["item_id"]
    nuts = item("0144", "Mixed Nuts")["item_id"]
    fails(
        session,
        "edit_order_item",
        {"order_id": costco, "item_id": salmon, "quantity": 0},
        "Conflict",
        "below the $35.00 minimum at Costco",
    )
    ok(session, "edit_order_item", {"order_id": costco, "item_id": nuts, "quantity": 1})
    edited = ok(session, "edit_order_item", {"order_id": costco, "item_id": salmon, "quantity": 0})
    assert [i["name"] for i in edited["items"]] == ["Colombian Supremo Whole Bean Coffee", "Bananas", "Mixed Nuts"]
    assert [i["line_num"] for i in edited["items"]] == [2, 3, 4]
    assert (edited["subtotal_cents"], edited["service_fee_cents"]) == (3747, 187)
    assert edited["total_cents"] == 3747 + 599 + 187 + 600
    fails(
        session,
        "edit_order_item",
        {"order_id": costco, "item_id": item("1490", "Bananas")["item_id"], "quantity": 1},
        "InvalidRequest",
        "another store",
    )
    fails(
        session,
        "edit_order_item",
        {"order_id": costco, "item_id": item("0144", "Trail Mix")["item_id"], "quantity": 0},
        "NotFound",
        "not in order",
    )


def test_removing_the_last_item_means_canceling(session):
    sign_in(session, "sam")
    pizza = item("0297", "Cheese Pizza")["item_id"]
    ok(session, "update_cart", {"item_id": pizza, "quantity": 2})
    single = ok(
        session,
        "place_order",
        {"location_code": "0297", "service_option_id": window("0297", "2025-06-13T11", "pickup")["id"]},
    )
    fails(
        session,
        "edit_order_item",
        {"order_id": single["id"], "item_id": pizza, "quantity": 0},
        "Conflict",
        "cancel the order instead",
    )
    fails(
        session,
        "edit_order_item",
        {"order_id": single["id"], "item_id": pizza, "quantity": 3},
        "InvalidRequest",
        "limited to 2",
    )
    fails(
        session,
        "edit_order_item",
        {"order_id": order("nina", "0144", "placed")["id"], "item_id": pizza, "quantity": 1},
        "NotFound",
        "Order",
    )


def test_members_lose_the_waiver_when_an_edit_drops_below_35(session):
    sign_in(session, "marcus")
    safeway = order("marcus", "2606", "placed")
    assert safeway["delivery_fee_cents"] == 0 and safeway["subtotal_cents"] >= 3500
    lines = [i for i in SEED["order_items"] if i["order_id"] == safeway["id"]]
    beef = next(i for i in lines if i["name"] == "Ground Beef 85% Lean")
    edited = ok(session, "edit_order_item", {"order_id": safeway["id"], "item_id": beef["item_id"], "quantity": 0})
    assert edited["subtotal_cents"] == safeway["subtotal_cents"] - beef["unit_price_cents"] * 2 < 3500
    assert edited["delivery_fee_cents"] == window("2606", "2025-06-13T12")["fee_cents"] == 399


def test_moving_an_order_to_another_window(session):
    sign_in(session, "marcus")
    safeway = order("marcus", "2606", "placed")["id"]
    old, full, late = (window("2606", t) for t in ("2025-06-13T12", "2025-06-13T18", "2025-06-13T20"))
    fails(session, "update_order", {"order_id": safeway, "service_option_id": full["id"]}, "Conflict", "full")
    fails(
        session,
        "update_order",
        {"order_id": safeway, "service_option_id": old["id"]},
        "InvalidRequest",
        "already booked",
    )
    fails(
        session,
        "update_order",
        {"order_id": safeway, "service_option_id": window("2606", "2025-06-13T13", "pickup")["id"]},
        "InvalidRequest",
        "pick a delivery window",
    )
    fails(session, "update_order", {"order_id": safeway}, "InvalidRequest", "Nothing to update")
    moved = ok(session, "update_order", {"order_id": safeway, "service_option_id": late["id"]})
    assert (moved["service_option_id"], moved["window_start_at"]) == (late["id"], "2025-06-13T20:00:00-07:00")
    assert booked(session, old["id"]) == old["booked"] - 1 and booked(session, late["id"]) == late["booked"] + 1


def test_readdressing_an_order_brings_the_address_instructions(session):
    sign_in(session, "zoe")
    safeway = order("zoe", "1490", "placed")["id"]
    moved = ok(session, "update_order", {"order_id": safeway, "address_id": address("zoe", 1)})
    assert (moved["address"]["street"], moved["delivery_instructions"]) == ("945 Market St", "Reception on 5")
    sign_in(session, "carlos")
    fails(
        session,
        "update_order",
        {"order_id": order("carlos", "1490", "placed")["id"], "address_id": address("carlos", 1)},
        "Conflict",
        "doesn't deliver to 94112",
    )
    fails(session, "update_order", {"order_id": safeway, "tip_cents": 100}, "NotFound", "Order")


def test_canceling_is_free_only_before_shopping_starts(session):
    sign_in(session, "hannah")
    costco = order("hannah", "0144", "placed")
    slot = costco["service_option_id"]
    before = next(w for w in SEED["service_options"] if w["id"] == slot)["booked"]
    canceled = ok(session, "cancel_order", {"order_id": costco["id"]})
    assert (canceled["status"], canceled["credits_applied_cents"]) == ("canceled", 0)
    assert credits(session) == 1500 and booked(session, slot) == before - 1
    fails(session, "cancel_order", {"order_id": costco["id"]}, "Conflict", "was canceled")
    shopping = order("hannah", "1490", "shopping")["id"]
    fails(session, "cancel_order", {"order_id": shopping}, "Conflict", "already started")
    fails(
        session,
        "edit_order_item",
        {"order_id": shopping, "item_id": item("1490", "Bananas")["item_id"], "quantity": 2},
        "Conflict",
        "no longer edit its items",
    )
    fails(
        session,
        "update_order",
        {"order_id": shopping, "delivery_instructions": "Side door"},
        "Conflict",
        "already started",
    )
    fails(
        session,
        "set_replacement_preference",
        {"order_id": shopping, "item_id": item("1490", "Bananas")["item_id"], "replacement_policy": "no_replacements"},
        "Conflict",
        "already started",
    )


# ---------------------------------------------------------------- tips


def test_tips_change_until_24_hours_after_delivery(session):
    sign_in(session, "hannah")
    shopping = order("hannah", "1490", "shopping")
    lowered = ok(session, "update_order", {"order_id": shopping["id"], "tip_cents": 300})
    assert lowered["total_cents"] == shopping["total_cents"] - 500
    fails(
        session,
        "update_order",
        {"order_id": shopping["id"], "tip_cents": -1},
        "invalid_arguments",
        "tip_cents: can't be negative",
    )
    sign_in(session, "kevin")
    last_night = order("kevin", "0022", "delivered")
    assert ok(session, "update_order", {"order_id": last_night["id"], "tip_cents": 1500})["tip_cents"] == 1500
    old = next(
        o
        for o in SEED["orders"]
        if o["user_id"] == USERS["kevin"]["id"] and o["status"] == "delivered" and o["id"] != last_night["id"]
    )
    fails(session, "update_order", {"order_id": old["id"], "tip_cents": 900}, "Conflict", "24 hours")
    sign_in(session, "fatima")
    fails(
        session,
        "update_order",
        {"order_id": order("fatima", "0571", "picked_up")["id"], "tip_cents": 300},
        "InvalidRequest",
        "only for delivery",
    )


# ---------------------------------------------------------------- the customer's replacement answers


def test_approving_and_rejecting_replacements_reprices_the_order(session):
    sign_in(session, "jamal")
    shopping = order("jamal", "0911", "shopping")
    lines = {i["name"]: i for i in SEED["order_items"] if i["order_id"] == shopping["id"]}
    apples = lines["Honeycrisp Apple"]
    approved = ok(session, "review_replacement", {"item_name": "organic whole milk"}, caller="user")
    assert (approved["status"], approved["replacement_status"]) == ("replaced", "approved")
    rejected = ok(session, "review_replacement", {"item_name": "Honeycrisp Apple", "approve": False}, caller="user")
    assert (rejected["status"], rejected["replacement_status"]) == ("refunded", "rejected")
    after = ok(session, "get_order", {"order_id": shopping["id"]})
    assert after["subtotal_cents"] == shopping["subtotal_cents"] - apples["replacement"]["unit_price_cents"] * 4
    assert after["service_fee_cents"] == round(after["subtotal_cents"] * 0.05)
    fails(
        session,
        "review_replacement",
        {"item_name": "Honeycrisp Apple"},
        "NotFound",
        "waiting for your approval",
        caller="user",
    )


# ---------------------------------------------------------------- issue reports


def test_reporting_issues_for_credit_or_refund(session):
    sign_in(session, "olivia")
    delivered = order("olivia", "1490", "delivered")["id"]
    eggs = item("1490", "Pasture-Raised Large Eggs")
    issue = ok(
        session, "report_order_issue", {"order_id": delivered, "item_id": eggs["item_id"], "issue_type": "damaged"}
    )
    assert (issue["resolution"], issue["amount_cents"], issue["quantity"]) == ("credit", eggs["price_cents"], 1)
    assert credits(session) == 250 + eggs["price_cents"]
    bread = item("1490", "Sourdough Round")
    ok(
        session,
        "report_order_issue",
        {"order_id": delivered, "item_id": bread["item_id"], "issue_type": "missing", "resolution": "refund"},
    )
    assert ok(session, "get_order", {"order_id": delivered})["refunded_cents"] == bread["price_cents"]
    fails(
        session,
        "report_order_issue",
        {"order_id": delivered, "item_id": eggs["item_id"], "issue_type": "missing"},
        "Conflict",
        "already reported",
    )
    salmon = item("1490", "Atlantic Salmon Fillet")["item_id"]
    fails(
        session,
        "report_order_issue",
        {"order_id": delivered, "item_id": salmon, "issue_type": "poor_replacement"},
        "InvalidRequest",
        "wasn't replaced",
    )
    fails(
        session,
        "report_order_issue",
        {
            "order_id": delivered,
            "item_id": item("1490", "Strawberries")["item_id"],
            "issue_type": "damaged",
            "quantity": 2,
        },
        "InvalidRequest",
        "between 1 and 1",
    )


def test_issue_reports_close_after_4_days_and_need_a_delivered_order(session):
    sign_in(session, "ethan")
    sprouts = order("ethan", "0571", "delivered")["id"]
    berries = item("0571", "Strawberries")["item_id"]
    fails(
        session,
        "report_order_issue",
        {"order_id": sprouts, "item_id": berries, "issue_type": "damaged"},
        "PermissionDenied",
        "more than 4 days",
    )
    session.reset("seed", datetime(2025, 6, 9, 17, 0, tzinfo=timezone.utc))
    sign_in(session, "ethan")
    assert (
        ok(
            session,
            "report_order_issue",
            {"order_id": sprouts, "item_id": berries, "issue_type": "damaged", "quantity": 1},
        )["amount_cents"]
        == item("0571", "Strawberries")["price_cents"]
    )
    sign_in(session, "zoe")
    fails(
        session,
        "report_order_issue",
        {
            "order_id": order("zoe", "1490", "placed")["id"],
            "issue_type": "missing",
            "item_id": item("1490", "Strawberries")["item_id"],
        },
        "Conflict",
        "once it's delivered",
    )


def test_refunded_items_and_poor_replacements(session):
    sign_in(session, "fatima")
    pickup = order("fatima", "0571", "picked_up")
    fage = next(i for i in SEED["order_items"] if i["order_id"] == pickup["id"] and i["status"] == "replaced")
    issue = ok(
        session,
        "report_order_issue",
        {
            "order_id": pickup["id"],
            "item_id": fage["item_id"],
            "issue_type": "poor_replacement",
            "resolution": "refund",
        },
    )
    assert issue["amount_cents"] == fage["replacement"]["unit_price_cents"]  # what was paid: the replacement
    line = next(
        i
        for i in SEED["order_items"]
        if i["status"] == "refunded"
        and next(o for o in SEED["orders"] if o["id"] == i["order_id"])["status"] == "delivered"
    )
    owner = next(o for o in SEED["orders"] if o["id"] == line["order_id"])
    when = datetime.fromisoformat(owner["completed_at"].replace("Z", "+00:00")) + timedelta(hours=2)
    session.reset("seed", when)
    ok(
        session,
        "sign_in",
        {"email": next(u["email"] for u in SEED["users"] if u["id"] == owner["user_id"])},
        caller="user",
    )
    fails(
        session,
        "report_order_issue",
        {"order_id": owner["id"], "item_id": line["item_id"], "issue_type": "missing"},
        "Conflict",
        "already refunded",
    )


# ---------------------------------------------------------------- Instacart+


def test_rejoining_instacart_plus_pays_at_once_and_waives_delivery(session):
    sign_in(session, "sofia")
    plus = ok(session, "update_instacart_plus", {"action": "join", "plan": "monthly"})
    assert (plus["status"], plus["current_period_end"], plus["benefits_active"]) == ("active", "2025-07-12", True)
    assert (
        next(iter(m for m in session.dump()["memberships"].values() if m["user_id"] == USERS["sofia"]["id"]))[
            "fee_paid_cents"
        ]
        == 999
    )
    fails(session, "update_instacart_plus", {"action": "join", "plan": "annual"}, "Conflict", "already")
    placed = ok(
        session,
        "place_order",
        {
            "location_code": "0144",
            "address_id": address("sofia"),
            "service_option_id": window("0144", "2025-06-13T16")["id"],
        },
    )
    assert placed["delivery_fee_cents"] == 0


def test_first_timers_get_a_free_trial(session):
    sign_in(session, "emily")
    fails(session, "update_instacart_plus", {"action": "join"}, "InvalidRequest", "Choose a plan")
    fails(session, "update_instacart_plus", {"action": "cancel"}, "Conflict", "don't have")
    trial = ok(session, "update_instacart_plus", {"action": "join", "plan": "annual"})
    assert (trial["status"], trial["plan"], trial["current_period_end"]) == ("trialing", "annual", "2025-06-26")


def test_canceling_keeps_benefits_until_the_period_ends(session):
    sign_in(session, "ryan")
    canceled = ok(session, "update_instacart_plus", {"action": "cancel"})
    assert (canceled["status"], canceled["auto_renew"], canceled["benefits_active"]) == ("canceled", False, True)
    fails(session, "update_instacart_plus", {"action": "cancel"}, "Conflict", "renews")
    fails(session, "update_instacart_plus", {"action": "join", "plan": "annual"}, "InvalidRequest", "resumes")
    resumed = ok(session, "update_instacart_plus", {"action": "join"})
    assert (resumed["status"], resumed["auto_renew"]) == ("active", True)
    saturday = order("ryan", "1490", "placed")["id"]
    assert ok(session, "update_order", {"order_id": saturday, "tip_cents": 400})["delivery_fee_cents"] == 0


def test_benefits_end_with_the_period(session):
    session.reset("seed", datetime(2025, 7, 3, 17, 0, tzinfo=timezone.utc))  # Marcus's period ended on July 2
    sign_in(session, "marcus")
    assert ok(session, "get_account")["instacart_plus"]["benefits_active"] is False
    fails(session, "update_instacart_plus", {"action": "cancel"}, "Conflict", "renews")


# ---------------------------------------------------------------- saved addresses


def test_saving_addresses(session):
    sign_in(session, "aisha")
    fails(
        session,
        "save_address",
        {"street": "535 Mission St", "city": "San Francisco", "state": "California", "postal_code": "94105"},
        "invalid_arguments",
        "state: must be a two-letter code",
    )
    fails(
        session,
        "save_address",
        {"street": "535 Mission St", "city": "San Francisco", "state": "CA", "postal_code": "941"},
        "invalid_arguments",
        "postal_code: must be a 5-digit",
    )
    fails(
        session,
        "save_address",
        {"street": "55 bocana st", "city": "San Francisco", "state": "CA", "postal_code": "94110"},
        "Conflict",
        "already saved as 'Home'",
    )
    work = ok(
        session,
        "save_address",
        {
            "street": "535 Mission St",
            "apartment": "14th Floor",
            "city": "San Francisco",
            "state": "CA",
            "postal_code": "94105",
            "label": "Work",
        },
    )
    assert work["is_default"] is False
    new_default = ok(
        session,
        "save_address",
        {
            "street": "10 Lombard St",
            "city": "San Francisco",
            "state": "CA",
            "postal_code": "94111",
            "make_default": True,
        },
    )
    listed = ok(session, "list_addresses")
    assert [a["id"] for a in listed if a["is_default"]] == [new_default["id"]] and len(listed) == 3


def test_deleting_addresses(session):
    sign_in(session, "ben")
    old, work = address("ben", 0), address("ben", 1)
    fails(session, "delete_address", {"address_id": old}, "Conflict", "default address")
    assert ok(session, "delete_address", {"address_id": work})["label"] == "Work"
    home = ok(
        session,
        "save_address",
        {
            "street": "1450 Page St",
            "apartment": "Apt 3",
            "city": "San Francisco",
            "state": "CA",
            "postal_code": "94117",
            "make_default": True,
        },
    )
    saturday = order("ben", "1490", "placed")["id"]
    fails(session, "delete_address", {"address_id": old}, "Conflict", f"Order {saturday}")
    ok(session, "update_order", {"order_id": saturday, "address_id": home["id"]})
    ok(session, "delete_address", {"address_id": old})
    assert [a["id"] for a in ok(session, "list_addresses")] == [home["id"]]
    fails(session, "delete_address", {"address_id": address("maya")}, "NotFound", "Address")


# ---------------------------------------------------------------- order history


def test_order_history_is_newest_first_and_paginated(session):
    sign_in(session, "hannah")
    mine = sorted(
        (o for o in SEED["orders"] if o["user_id"] == USERS["hannah"]["id"]),
        key=lambda o: o["created_at"],
        reverse=True,
    )
    first = ok(session, "list_orders", {"page_size": 2})
    assert [o["id"] for o in first["results"]] == [o["id"] for o in mine[:2]] and first["has_more"]
    rest = ok(session, "list_orders", {"page_size": 50, "cursor": first["next_cursor"]})
    assert len(rest["results"]) == len(mine) - 2 and not rest["has_more"]
    placed = ok(session, "list_orders", {"status": "placed"})["results"]
    assert [o["store_name"] for o in placed] == ["Costco - San Francisco"]
    assert placed[0]["item_count"] == 4
    fails(session, "list_orders", {"page_size": 51}, "invalid_arguments", "page_size")
    fails(session, "get_order", {"order_id": order("zoe", "0022", "placed")["id"]}, "NotFound", "Order")


# ---------------------------------------------------------------- bounds in the argument types (v2)


def test_bounds_are_in_the_schema_with_instacart_wording(session):
    tools = SPEC.tools
    address_props = tools["save_address"].input_schema["properties"]
    assert address_props["postal_code"]["pattern"] and address_props["state"]["pattern"]
    assert address_props["street"]["minLength"] == 1
    assert tools["update_cart"].input_schema["properties"]["quantity"]["minimum"] == 0
    assert tools["place_order"].input_schema["properties"]["tip_cents"]["minimum"] == 0
    assert tools["search_items"].input_schema["properties"]["page_size"]["maximum"] == 100
    assert tools["list_orders"].input_schema["properties"]["page_size"]["maximum"] == 50
    sign_in(session, "aisha")
    base = {"city": "San Francisco", "state": "CA", "postal_code": "94110"}
    fails(session, "save_address", {**base, "street": "   "}, "invalid_arguments", "street: is required")
    fails(
        session, "save_address", {**base, "street": "1 Main St", "city": ""}, "invalid_arguments", "city: is required"
    )
    fails(
        session,
        "save_address",
        {**base, "street": "1 Main St", "delivery_instructions": "x" * 251},
        "invalid_arguments",
        "delivery_instructions: can be at most 250 characters",
    )
    saved = ok(session, "save_address", {**base, "street": " 1 Main St ", "state": " ca ", "postal_code": " 94110 "})
    assert (saved["street"], saved["state"], saved["postal_code"]) == ("1 Main St", "CA", "94110")
    turkey = item("2606", "Oven Roasted Turkey Breast")["item_id"]
    fails(
        session,
        "update_cart",
        {"item_id": turkey, "quantity": 1, "special_instructions": "x" * 251},
        "invalid_arguments",
        "special_instructions: can be at most 250 characters",
    )
    safeway = order("olivia", "1490", "delivered")
    args = {"order_id": safeway["id"], "item_id": item("1490", "Sourdough Round")["item_id"], "issue_type": "damaged"}
    fails(session, "report_order_issue", args, "NotFound", "not found")  # another customer's order
    sign_in(session, "olivia")
    fails(session, "report_order_issue", {**args, "quantity": 0}, "invalid_arguments", "quantity: must be at least 1")
    fails(session, "report_order_issue", {**args, "quantity": 2}, "InvalidRequest", "between 1 and 1")


def test_order_history_summaries_count_items_per_page(session):
    sign_in(session, "olivia")
    first = ok(session, "list_orders", {"page_size": 2})
    rest = ok(session, "list_orders", {"page_size": 50, "cursor": first["next_cursor"]})
    everything = first["results"] + rest["results"]
    mine = [o for o in SEED["orders"] if o["user_id"] == USERS["olivia"]["id"]]
    assert len(everything) == len(mine) and first["has_more"] and not rest["has_more"]
    for summary in everything:
        lines = [i for i in SEED["order_items"] if i["order_id"] == summary["id"]]
        assert summary["item_count"] == sum(i["quantity"] for i in lines)
        assert summary["store_name"].startswith(("Safeway", "Costco"))
