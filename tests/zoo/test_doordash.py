"""The DoorDash environment's tools: sign-in, store search inside delivery radii, hours (split, overnight, 24h),
menus with required and capped extras, the one-store cart, promo conditions, DashPass, small-order and service
fees, credits, scheduling, subtotal minimums, alcohol, cancellation fees, tip changes and post-delivery support,
with every error path leaving the state unchanged. Runs the real tools on the real seed through ToolSession."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("doordash")
CLOCK = datetime(2025, 6, 14, 1, 30, tzinfo=timezone.utc)  # Friday 13 June, 18:30 in San Francisco
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]


# ---------------------------------------------------------------- seed lookups (by name, never by raw id)


def person(first: str) -> dict[str, Any]:
    return next(c for c in SEED["consumers"] if c["first_name"] == first)


def address(first: str, label: str) -> str:
    return next(a["id"] for a in SEED["addresses"] if a["consumer_id"] == person(first)["id"] and a["label"] == label)


def store(name: str) -> str:
    found = [s["id"] for s in SEED["stores"] if s["name"].startswith(name)]
    assert len(found) == 1, found
    return found[0]


def item(store_name: str, name: str) -> str:
    return next(i["id"] for i in SEED["items"] if i["store_id"] == store(store_name) and i["name"] == name)


def options(item_id: str, *names: str) -> list[str]:
    extras = {e["id"] for e in SEED["extras"] if e["item_id"] == item_id}
    by_name = {o["name"]: o["id"] for o in SEED["extra_options"] if o["extra_id"] in extras}
    return [by_name[n] for n in names]


def order(first: str, store_name: str, status: str | None = None) -> dict[str, Any]:
    found = sorted(
        (
            o
            for o in SEED["orders"]
            if o["consumer_id"] == person(first)["id"]
            and o["store_id"] == store(store_name)
            and status in (None, o["status"])
        ),
        key=lambda o: o["created_at"],
    )
    return found[-1]


def line(order_row: dict[str, Any], name: str) -> dict[str, Any]:
    return next(i for i in SEED["order_items"] if i["order_id"] == order_row["id"] and i["name"] == name)


# ---------------------------------------------------------------- session helpers

session = session_fixture(SPEC, CLOCK)


def log_in(session: ToolSession, first: str) -> None:
    ok(session, "log_in", {"email": person(first)["email"]}, caller="user")


def at(session: ToolSession, iso_utc: str) -> None:
    """Move the simulated clock (the state is kept)."""
    session.clock.reset(datetime.fromisoformat(iso_utc.replace("Z", "+00:00")))


def add(session: ToolSession, store_name: str, name: str, *chosen: str, **extra: Any) -> dict[str, Any]:
    item_id = item(store_name, name)
    return ok(session, "add_to_cart", {"item_id": item_id, "option_ids": options(item_id, *chosen), **extra})


def quote(session: ToolSession, **args: Any) -> dict[str, Any]:
    return ok(session, "get_cart", args)["quote"]


def credits(session: ToolSession) -> int:
    return ok(session, "get_consumer")["credits_balance"]


# ---------------------------------------------------------------- interface and sign-in


def test_interface_and_user_only_tools(session):
    assert len(SPEC.tools) == 20
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["log_in", "show_id_to_dasher"]
    assert SPEC.tools["get_consumer"].input_schema["properties"] == {}
    assert SPEC.tools["add_to_cart"].unordered_inputs == {"option_ids"}
    for name, args in (("log_in", {"email": person("Grace")["email"]}), ("show_id_to_dasher", {})):
        outcome = session.call(name, args)
        assert not outcome.ok and outcome.error_kind == "user_only"


def test_every_tool_needs_a_signed_in_consumer(session):
    fails(session, "get_consumer", {}, "PermissionDenied", "Sign in to DoorDash first")
    fails(session, "get_cart", {}, "PermissionDenied", "Sign in")
    fails(session, "log_in", {"email": "nobody@example.com"}, "NotFound", "No DoorDash account", caller="user")
    ok(session, "log_in", {"email": "GRACE.LIU@gmail.com "}, caller="user")
    me = ok(session, "get_consumer")
    assert (me["first_name"], me["credits_balance"], me["dashpass"]["status"]) == ("Grace", 1500, "active")
    log_in(session, "Marcus")
    assert ok(session, "get_consumer")["first_name"] == "Marcus"


def test_consumer_counts_only_orders_that_were_not_cancelled(session):
    log_in(session, "Priya")
    me = ok(session, "get_consumer")
    mine = [o for o in SEED["orders"] if o["consumer_id"] == person("Priya")["id"]]
    assert me["orders_placed"] == sum(o["status"] != "cancelled" for o in mine) < len(mine)
    assert [a["label"] for a in me["addresses"]] == ["Home", "Work"] and me["addresses"][0]["is_default"]


# ---------------------------------------------------------------- stores, hours and menus


def test_search_only_returns_stores_whose_radius_covers_the_address(session):
    log_in(session, "Kevin")
    found = ok(session, "search_stores", {"query": "burrito"})["results"]
    assert [s["name"] for s in found] == ["Gordo Taqueria (Inner Sunset)"]
    delivery = ok(session, "search_stores", {"query": "La Taqueria"})["results"]
    pickup = ok(session, "search_stores", {"query": "La Taqueria", "fulfillment_type": "pickup"})["results"]
    assert [s["name"] for s in pickup] == [s["name"] for s in delivery] + ["La Taqueria"]
    assert pickup[-1]["distance_miles"] > 3.0
    details = ok(session, "get_store", {"store_id": store("La Taqueria")})
    assert details["delivers_to_address"] is False and details["delivery_radius_miles"] == 3.0


def test_search_pages_nearest_first_and_filters(session):
    log_in(session, "Priya")
    everything, cursor = [], None
    while True:
        page = ok(session, "search_stores", {"page_size": 7, "cursor": cursor})
        everything += page["results"]
        if not page["has_more"]:
            assert page["next_cursor"] is None
            break
        cursor = page["next_cursor"]
    assert len(everything) == len({s["id"] for s in everything}) == 25
    distances = [s["distance_miles"] for s in everything]
    assert distances == sorted(distances)
    open_now = ok(session, "search_stores", {"open_now": True, "page_size": 50})["results"]
    assert "Tartine Bakery" not in {s["name"] for s in open_now} and all(s["is_open"] for s in open_now)
    dashpass = ok(session, "search_stores", {"dashpass_only": True, "page_size": 50})["results"]
    assert dashpass and all(s["dashpass_eligible"] for s in dashpass)
    fails(session, "search_stores", {"page_size": 51}, "invalid_arguments", "page_size")


def test_hours_split_overnight_and_round_the_clock(session):
    log_in(session, "Grace")

    def is_open(name: str) -> bool:
        return ok(session, "get_store", {"store_id": store(name)})["is_open"]

    at(session, "2025-06-13T23:30:00Z")  # Friday 16:30: Burma Superstar between lunch and dinner
    assert not is_open("Burma Superstar")
    at(session, "2025-06-14T00:30:00Z")  # Friday 17:30: dinner service
    assert is_open("Burma Superstar")
    at(session, "2025-06-14T09:00:00Z")  # Saturday 02:00: Friday's hours run past midnight
    assert is_open("Golden Boy Pizza") and is_open("Bob's Donuts")
    at(session, "2025-06-16T08:00:00Z")  # Monday 01:00: Sunday closed at 23:30
    assert not is_open("Golden Boy Pizza") and is_open("Bob's Donuts")
    sentinel = ok(session, "get_store", {"store_id": store("The Sentinel")})
    assert {h["day_index"] for h in sentinel["open_hours"]} == {"MON", "TUE", "WED", "THU", "FRI"}


def test_menu_marks_sold_out_items_and_required_choices(session):
    log_in(session, "Priya")
    menu = {i["name"]: i for i in ok(session, "get_menu", {"store_id": store("La Taqueria")})["items"]}
    assert menu["Jarritos"]["is_active"] is False
    assert menu["Super Burrito"]["required_choices"] == ["Choose Your Meat"]
    assert menu["Chips & Guacamole"]["required_choices"] == []
    burrito = ok(session, "get_item", {"item_id": item("La Taqueria", "Super Burrito")})
    assert [(e["name"], e["min_num_options"], e["max_num_options"]) for e in burrito["extras"]] == [
        ("Choose Your Meat", 1, 1),
        ("Style", 0, 1),
        ("Extras", 0, 3),
    ]
    fails(session, "get_item", {"item_id": "000"}, "NotFound", "Item")


# ---------------------------------------------------------------- the cart


def test_extras_rules_when_adding_to_the_cart(session):
    log_in(session, "Priya")
    burrito = item("La Taqueria", "Super Burrito")
    fails(session, "add_to_cart", {"item_id": burrito}, "InvalidRequest", "Choose at least 1 for 'Choose Your Meat'")
    fails(
        session,
        "add_to_cart",
        {"item_id": burrito, "option_ids": options(burrito, "Carnitas", "Lengua")},
        "InvalidRequest",
        "Choose at most 1",
    )
    four = options(burrito, "Carnitas", "Extra Meat", "Avocado", "Cheese", "Sour Cream")
    fails(session, "add_to_cart", {"item_id": burrito, "option_ids": four}, "InvalidRequest", "at most 3 for 'Extras'")
    taco_option = options(item("La Taqueria", "Carnitas Taco"), "Cheese")
    fails(
        session,
        "add_to_cart",
        {"item_id": burrito, "option_ids": options(burrito, "Carnitas") + taco_option},
        "InvalidRequest",
        "isn't an option of Super Burrito",
    )
    fails(
        session,
        "add_to_cart",
        {"item_id": burrito, "option_ids": options(burrito, "Carnitas") * 2},
        "InvalidRequest",
        "only once",
    )
    agua = item("La Taqueria", "Agua Fresca")
    fails(
        session, "add_to_cart", {"item_id": agua, "option_ids": options(agua, "Tamarindo")}, "Conflict", "unavailable"
    )
    fails(session, "add_to_cart", {"item_id": item("La Taqueria", "Jarritos")}, "Conflict", "sold out")
    fails(
        session,
        "add_to_cart",
        {"item_id": agua, "option_ids": options(agua, "Jamaica"), "quantity": 21},
        "invalid_arguments",
        "quantity: must be between 1 and 20",
    )


def test_same_line_adds_up_and_options_price_the_line(session):
    log_in(session, "Priya")
    add(session, "La Taqueria", "Super Burrito", "Vegetarian (no meat)", "Avocado")
    cart = add(session, "La Taqueria", "Super Burrito", "Avocado", "Vegetarian (no meat)", quantity=2)
    assert len(cart["items"]) == 1
    assert (cart["items"][0]["quantity"], cart["items"][0]["unit_price"]) == (3, 1375 - 200 + 200)
    cart = add(
        session, "La Taqueria", "Super Burrito", "Vegetarian (no meat)", "Avocado", special_instructions="No onions"
    )
    assert len(cart["items"]) == 2 and cart["subtotal"] == 4 * 1375
    fails(
        session,
        "add_to_cart",
        {"item_id": item("La Taqueria", "Chips & Guacamole"), "quantity": 20, "special_instructions": "x" * 201},
        "invalid_arguments",
        "special_instructions: can be at most 200 characters",
    )
    ok(session, "add_to_cart", {"item_id": item("La Taqueria", "Chips & Guacamole"), "quantity": 15})
    fails(
        session,
        "add_to_cart",
        {"item_id": item("La Taqueria", "Chips & Guacamole"), "quantity": 6},
        "InvalidRequest",
        "at most 20 of an item (this would make 21)",
    )


def test_the_cart_holds_one_store_at_a_time(session):
    log_in(session, "Marcus")
    before = ok(session, "get_cart")
    assert before["store_name"] == "Golden Boy Pizza" and len(before["items"]) == 3
    chips = item("La Taqueria", "Chips & Salsa")
    fails(session, "add_to_cart", {"item_id": chips}, "Conflict", "Your cart has items from Golden Boy Pizza")
    ok(session, "apply_promo_code", {"code": "PIZZAFRIDAY"})
    cart = ok(session, "add_to_cart", {"item_id": chips, "replace_cart": True})
    assert (cart["store_name"], cart["promo_code"], [i["name"] for i in cart["items"]]) == (
        "La Taqueria",
        None,
        ["Chips & Salsa"],
    )
    state = session.dump()
    assert before["id"] not in state["carts"]
    assert not [ci for ci in state["cart_items"].values() if ci["cart_id"] == before["id"]]


def test_update_cart_item_and_an_emptied_cart_goes_away(session):
    log_in(session, "Alex")
    cart = ok(session, "get_cart")
    ids = {i["name"]: i["id"] for i in cart["items"]}
    assert (
        ok(session, "update_cart_item", {"cart_item_id": ids["Ube Flan"], "quantity": 3})["subtotal"]
        == cart["subtotal"] + 2 * 600
    )
    fails(
        session,
        "update_cart_item",
        {"cart_item_id": ids["Ube Flan"], "quantity": 21},
        "invalid_arguments",
        "quantity: must be between 0 and 20",
    )
    for line_id in ids.values():
        last = ok(session, "update_cart_item", {"cart_item_id": line_id, "quantity": 0})
    assert last == ok(session, "get_cart") and last["id"] is None and last["items"] == []
    assert cart["id"] not in session.dump()["carts"]
    log_in(session, "Marcus")
    fails(session, "update_cart_item", {"cart_item_id": ids["Ube Flan"], "quantity": 1}, "NotFound", "Cart item")


# ---------------------------------------------------------------- promo codes


def test_promo_conditions(session):
    log_in(session, "Marcus")  # Golden Boy cart, $21.75, no DashPass, many orders
    fails(session, "apply_promo_code", {"code": "NOPE"}, "NotFound", "isn't valid")
    fails(session, "apply_promo_code", {"code": "SPRING20"}, "InvalidRequest", "expired on 2025-05-31")
    fails(session, "apply_promo_code", {"code": "JULY4"}, "InvalidRequest", "isn't active yet")
    fails(session, "apply_promo_code", {"code": "TACO4"}, "InvalidRequest", "isn't valid at Golden Boy Pizza")
    fails(session, "apply_promo_code", {"code": "WELCOME50"}, "PermissionDenied", "first DoorDash order")
    fails(session, "apply_promo_code", {"code": "DASHPASS5"}, "PermissionDenied", "DashPass members")
    assert ok(session, "apply_promo_code", {"code": " pizzafriday "})["promo_code"] == "PIZZAFRIDAY"
    log_in(session, "Olivia")  # Safeway cart of $13.47
    fails(session, "apply_promo_code", {"code": "GROCERY10"}, "InvalidRequest", "Add $36.53 more")
    log_in(session, "Ethan")
    fails(session, "apply_promo_code", {"code": "SAVE5NOW"}, "Conflict", "Only one promo per order")
    ok(session, "remove_promo_code")
    fails(session, "remove_promo_code", {}, "Conflict", "No promo code")
    fails(session, "apply_promo_code", {"code": "SAVE5NOW"}, "Conflict", "already used promo SAVE5NOW")


def test_a_new_customer_gets_the_first_order_discount_once(session):
    log_in(session, "Jordan")
    fails(session, "apply_promo_code", {"code": "WELCOME50"}, "InvalidRequest", "Add items to your cart")
    ok(session, "add_address", {"street": "1420 Irving St", "zip_code": "94122"})
    add(session, "Ebisu Sushi", "Rainbow Roll", quantity=2)
    ok(session, "apply_promo_code", {"code": "WELCOME50"})
    placed = ok(session, "place_order", {"tip": 300})
    assert placed["discount"] == 1500 and placed["promo_code"] == "WELCOME50"  # 50% of $34, capped at $15
    add(session, "Ebisu Sushi", "Rainbow Roll")
    fails(session, "apply_promo_code", {"code": "WELCOME50"}, "PermissionDenied", "first DoorDash order")


def test_promo_is_checked_again_at_checkout(session):
    log_in(session, "Marcus")
    ok(session, "apply_promo_code", {"code": "PIZZAFRIDAY"})
    cart = ok(session, "get_cart")
    clam = next(i for i in cart["items"] if i["name"] == "Clam & Garlic Square")
    ok(session, "update_cart_item", {"cart_item_id": clam["id"], "quantity": 1})
    blocked = quote(session)
    assert not blocked["can_place_order"] and "Add $4.75 more to use PIZZAFRIDAY" in blocked["blocked_reason"]
    fails(session, "place_order", {}, "InvalidRequest", "Add $4.75 more")


# ---------------------------------------------------------------- pricing


def test_dashpass_waives_delivery_and_cuts_the_service_fee(session):
    log_in(session, "Elena")
    member = quote(session, tip=400)
    subtotal = 2 * 895 + 1075 + 200 + 575 + 200
    tax = (subtotal * 8625 + 50_000) // 100_000
    assert (member["subtotal"], member["delivery_fee"], member["service_fee"], member["tax"]) == (
        subtotal,
        0,
        (subtotal * 5 + 50) // 100,
        tax,
    )
    assert member["dashpass_applied"] and member["total"] == subtotal + member["service_fee"] + tax + 400

    def lapse(tables):
        next(c for c in tables["consumers"] if c["first_name"] == "Elena")["dashpass_status"] = "cancelled"

    restore_seed_with(session, lapse, CLOCK)
    log_in(session, "Elena")
    other = quote(session, tip=400)
    assert (other["delivery_fee"], other["service_fee"], other["dashpass_applied"]) == (
        149,
        (subtotal * 15 + 50) // 100,
        False,
    )


def test_small_order_fee_and_minimum_service_fee(session):
    log_in(session, "Fatima")  # DashPass, but a $2.75 order is under the $12 DashPass minimum
    line_id = add(session, "Bob's Donuts", "Maple Bar")["items"][0]["id"]
    small = quote(session)
    assert (small["small_order_fee"], small["delivery_fee"], small["service_fee"], small["dashpass_applied"]) == (
        300,
        199,
        200,
        False,
    )
    ok(session, "update_cart_item", {"cart_item_id": line_id, "quantity": 4})
    assert (quote(session)["small_order_fee"], quote(session)["service_fee"]) == (0, 200)
    ok(session, "update_cart_item", {"cart_item_id": line_id, "quantity": 5})
    assert (quote(session)["delivery_fee"], quote(session)["dashpass_applied"]) == (0, True)


def test_pickup_has_no_fees_and_no_tip(session):
    log_in(session, "Ben")
    pickup = quote(session, fulfillment_type="pickup")
    assert (pickup["delivery_fee"], pickup["service_fee"], pickup["small_order_fee"], pickup["address_id"]) == (
        0,
        0,
        0,
        None,
    )
    fails(session, "place_order", {"fulfillment_type": "pickup", "tip": 200}, "InvalidRequest", "pickup orders can't")
    fails(
        session,
        "place_order",
        {"fulfillment_type": "pickup", "dropoff_instructions": "Lobby"},
        "InvalidRequest",
        "no drop-off",
    )
    placed = ok(session, "place_order", {"fulfillment_type": "pickup"})
    assert placed["delivery"] is None and placed["total"] == placed["subtotal"] + placed["tax"]


def test_credits_pay_everything_but_the_tip(session):
    log_in(session, "Grace")
    add(session, "Roam Artisan Burgers (Marina)", "Fries")  # $5.50 plus fees and tax: the $15 of credits cover it
    placed = ok(session, "place_order", {"tip": 300})
    assert placed["credits_applied"] == placed["total"] - 300 < 1500 and placed["amount_charged"] == 300
    assert credits(session) == 1500 - placed["credits_applied"]
    add(session, "Roam Artisan Burgers (Marina)", "Classic Burger", "Classic (brioche bun)", "Bison", quantity=3)
    second = ok(session, "place_order", {"tip": 500})
    assert second["credits_applied"] == 1500 - placed["credits_applied"]
    assert second["amount_charged"] == second["total"] - second["credits_applied"] and credits(session) == 0


# ---------------------------------------------------------------- checkout rules


def test_delivery_radius_blocks_checkout_but_pickup_works(session):
    log_in(session, "Kevin")
    add(session, "La Taqueria", "Chips & Guacamole", quantity=2)
    blocked = quote(session)
    assert not blocked["can_place_order"] and "doesn't deliver to this address" in blocked["blocked_reason"]
    fails(session, "place_order", {"tip": 300}, "InvalidRequest", "it delivers within 3 mi")
    assert ok(session, "place_order", {"fulfillment_type": "pickup"})["status"] == "submitted"


def test_closed_store_takes_scheduled_orders_inside_its_hours(session):
    log_in(session, "Elena")
    add(session, "Tartine Bakery", "Croissant", replace_cart=True)
    add(session, "Tartine Bakery", "Country Loaf")
    fails(session, "place_order", {}, "Conflict", "Tartine Bakery is closed right now. It opens Sat at 8:00 AM")
    fails(session, "place_order", {"scheduled_time": "2025-06-14T07:30:00"}, "InvalidRequest", "closed at Sat 7:30 AM")
    fails(session, "place_order", {"scheduled_time": "2025-06-21T10:00:00"}, "InvalidRequest", "at most 7 days")
    fails(
        session,
        "place_order",
        {"scheduled_time": "tomorrow"},
        "invalid_arguments",
        "scheduled_time: must be an ISO 8601 time",
    )
    placed = ok(session, "place_order", {"scheduled_time": "2025-06-14T09:30:00"})
    assert placed["scheduled_time"] == "2025-06-14T16:30:00Z" == placed["delivery"]["dropoff_time_estimated"]
    log_in(session, "Priya")
    add(session, "La Taqueria", "Chips & Salsa", quantity=3)
    fails(session, "place_order", {"scheduled_time": "2025-06-14T02:00:00Z"}, "InvalidRequest", "at least 1 hour")


def test_subtotal_minimum_and_paused_stores(session):
    pack = item("Tacolicious Party Packs", "Taco Party Pack (serves 6)")
    log_in(session, "Rachel")
    ok(session, "add_to_cart", {"item_id": pack, "option_ids": options(pack, "Carnitas", "Chicken Tinga")})
    fails(session, "place_order", {}, "InvalidRequest", "$60.00 subtotal minimum; add $5.00 more")
    log_in(session, "Luis")
    ok(session, "add_to_cart", {"item_id": pack, "option_ids": options(pack, "Carnitas", "Shrimp")})  # $55 + $5
    assert (quote(session)["subtotal"], quote(session)["can_place_order"]) == (6000, True)
    log_in(session, "Omar")
    fails(session, "add_to_cart", {"item_id": item("Mensho Tokyo SF", "Gyoza")}, "Conflict", "isn't accepting orders")

    def pause(tables):
        next(s for s in tables["stores"] if s["name"] == "Golden Boy Pizza")["accepting_orders"] = False

    restore_seed_with(session, pause, CLOCK)
    log_in(session, "Marcus")
    fails(session, "place_order", {}, "Conflict", "Golden Boy Pizza isn't accepting orders")


def test_place_order_turns_the_cart_into_a_submitted_order(session):
    log_in(session, "Ben")
    cart = ok(session, "get_cart", {"tip": 600})
    placed = ok(session, "place_order", {"tip": 600})
    for key in ("subtotal", "delivery_fee", "service_fee", "tax", "total", "amount_charged"):
        assert placed[key] == cart["quote"][key]
    assert placed["status"] == "submitted" and placed["fulfillment_type"] == "delivery"
    assert sorted((i["name"], i["quantity"]) for i in placed["items"]) == sorted(
        (i["name"], i["quantity"]) for i in cart["items"]
    )
    assert placed["delivery"]["dropoff_address"] == "1000 3rd St Apt 1408, San Francisco, CA 94158"
    assert placed["delivery"]["contactless_dropoff"] is True
    assert ok(session, "get_cart")["items"] == []
    assert ok(session, "list_orders", {"page_size": 1})["results"][0]["id"] == placed["id"]
    fails(session, "place_order", {}, "InvalidRequest", "Your cart is empty")


def test_alcohol_needs_21_and_is_handed_over(session):
    log_in(session, "Sam")
    fails(
        session,
        "add_to_cart",
        {"item_id": item("Rosamunde Sausage Grill", "Pliny the Elder")},
        "PermissionDenied",
        "21 or older",
    )
    log_in(session, "Zoe")  # leave_at_door at home
    add(session, "Rosamunde Sausage Grill", "Bratwurst", "Sesame Roll")
    add(session, "Rosamunde Sausage Grill", "Anchor Steam", quantity=2)
    placed = ok(session, "place_order", {"tip": 300})
    delivery = placed["delivery"]
    assert delivery["order_contains"] == {"alcohol": True} and delivery["dropoff_requires_id"]
    assert (delivery["dropoff_option"], delivery["contactless_dropoff"], delivery["id_verified"]) == (
        "hand_to_me",
        False,
        False,
    )


def test_showing_id_completes_the_alcohol_delivery(session):
    log_in(session, "Aisha")
    birite = order("Aisha", "Bi-Rite Market")
    assert ok(session, "get_order", {"order_id": birite["id"]})["status"] == "picked_up"
    done = ok(session, "show_id_to_dasher", {}, caller="user")
    assert (done["id"], done["status"], done["delivery"]["id_verified"]) == (birite["id"], "delivered", True)
    assert done["delivered_at"] == "2025-06-14T01:31:00Z"  # now: two calls (30 s each) after 18:30
    fails(session, "show_id_to_dasher", {}, "NotFound", "No Dasher is waiting", caller="user")


# ---------------------------------------------------------------- cancellation and changes


def test_cancel_is_free_before_the_store_confirms(session):
    log_in(session, "Daniel")
    curry = order("Daniel", "Curry Up Now (Valencia)", "submitted")
    cancelled = ok(session, "cancel_order", {"order_id": curry["id"]})
    assert (cancelled["status"], cancelled["cancellation_fee"], cancelled["refunded_amount"]) == (
        "cancelled",
        0,
        curry["amount_charged"],
    )
    fails(session, "cancel_order", {"order_id": curry["id"]}, "Conflict", "already cancelled")
    fails(session, "update_order", {"order_id": curry["id"], "tip": 500}, "Conflict", "was cancelled")


def test_a_confirmed_order_costs_the_food_to_cancel(session):
    log_in(session, "Tom")
    burma = order("Tom", "Burma Superstar", "confirmed")
    fails(session, "cancel_order", {"order_id": burma["id"]}, "Conflict", "cancelling now costs $56.50")
    cancelled = ok(session, "cancel_order", {"order_id": burma["id"], "accept_cancellation_fee": True})
    assert (cancelled["cancellation_fee"], cancelled["refunded_amount"]) == (5650, burma["amount_charged"] - 5650)


def test_picked_up_and_delivered_orders_cannot_be_cancelled(session):
    log_in(session, "Zoe")
    fails(
        session,
        "cancel_order",
        {"order_id": order("Zoe", "Super Duper", "picked_up")["id"]},
        "Conflict",
        "Your Dasher has already picked up",
    )
    log_in(session, "Grace")
    fails(session, "cancel_order", {"order_id": order("Grace", "Roam")["id"]}, "Conflict", "report a problem")
    fails(session, "get_order", {"order_id": order("Zoe", "Super Duper", "picked_up")["id"]}, "NotFound", "Order")


def test_cancelling_gives_the_credits_back(session):
    log_in(session, "Grace")
    add(session, "Roam Artisan Burgers (Marina)", "Sweet Potato Fries", quantity=3)
    placed = ok(session, "place_order", {"tip": 200})
    assert placed["credits_applied"] == 1500 and credits(session) == 0
    cancelled = ok(session, "cancel_order", {"order_id": placed["id"]})
    assert (cancelled["refunded_credits"], cancelled["refunded_amount"]) == (1500, placed["amount_charged"])
    assert credits(session) == 1500


def test_tips_go_down_only_before_pickup_and_up_until_a_day_after_delivery(session):
    log_in(session, "Marcus")
    rosamunde = order("Marcus", "Rosamunde", "confirmed")
    lowered = ok(session, "update_order", {"order_id": rosamunde["id"], "tip": 200})
    assert (lowered["tip"], lowered["total"], lowered["amount_charged"]) == (
        200,
        rosamunde["total"] - 200,
        rosamunde["amount_charged"] - 200,
    )
    log_in(session, "Zoe")
    zoe = order("Zoe", "Super Duper", "picked_up")
    fails(session, "update_order", {"order_id": zoe["id"], "tip": 500}, "Conflict", "can't be lowered")
    assert ok(session, "update_order", {"order_id": zoe["id"], "tip": 1200})["total"] == zoe["total"] + 200
    log_in(session, "Hannah")
    souvla, marufuku = order("Hannah", "Souvla"), order("Hannah", "Marufuku")
    assert ok(session, "update_order", {"order_id": souvla["id"], "tip": 800})["tip"] == 800
    fails(session, "update_order", {"order_id": marufuku["id"], "tip": 900}, "Conflict", "24 hours after delivery")
    fails(
        session,
        "update_order",
        {"order_id": souvla["id"], "dropoff_instructions": "Side door"},
        "Conflict",
        "already delivered",
    )
    fails(session, "update_order", {"order_id": souvla["id"]}, "InvalidRequest", "Nothing to update")


def test_drop_off_instructions_until_delivery_but_never_on_pickup(session):
    log_in(session, "Zoe")
    zoe = order("Zoe", "Super Duper", "picked_up")
    updated = ok(session, "update_order", {"order_id": zoe["id"], "dropoff_instructions": "Back cottage"})
    assert updated["delivery"]["dropoff_instructions"] == "Back cottage"
    fails(
        session,
        "update_order",
        {"order_id": zoe["id"], "dropoff_instructions": "x" * 501},
        "invalid_arguments",
        "dropoff_instructions: can be at most 500 characters",
    )
    log_in(session, "Mei")
    pickup = next(
        o
        for o in SEED["orders"]
        if o["consumer_id"] == person("Mei")["id"] and o["fulfillment_type"] == "pickup" and o["status"] == "picked_up"
    )
    fails(session, "update_order", {"order_id": pickup["id"], "tip": 100}, "InvalidRequest", "Pickup orders")


# ---------------------------------------------------------------- support


def test_missing_item_credits_and_refunds(session):
    log_in(session, "Grace")
    roam = order("Grace", "Roam")
    fries = line(roam, "Sweet Potato Fries")
    issue = ok(
        session,
        "report_order_issue",
        {"order_id": roam["id"], "order_item_id": fries["id"], "issue_type": "missing_item"},
    )
    assert (issue["amount"], issue["resolution"], issue["item_name"]) == (650, "credits", "Sweet Potato Fries")
    assert credits(session) == 1500 + 650
    fails(
        session,
        "report_order_issue",
        {"order_id": roam["id"], "order_item_id": fries["id"], "issue_type": "missing_item"},
        "Conflict",
        "1 ordered and 1 already reported",
    )
    shake = line(roam, "Organic Shake")
    refund = ok(
        session,
        "report_order_issue",
        {"order_id": roam["id"], "order_item_id": shake["id"], "issue_type": "incorrect_item", "resolution": "refund"},
    )
    got = ok(session, "get_order", {"order_id": roam["id"]})
    assert (got["refunded_amount"], got["refunded_credits"]) == (refund["amount"], 650)
    assert {i["item_name"] for i in got["issues"]} == {"Sweet Potato Fries", "Organic Shake"}
    assert credits(session) == 2150


def test_support_rules(session):
    log_in(session, "Hannah")
    old = order("Hannah", "Marufuku")
    fails(
        session,
        "report_order_issue",
        {"order_id": old["id"], "order_item_id": line(old, "Karaage")["id"], "issue_type": "missing_item"},
        "Conflict",
        "within 7 days",
    )
    souvla = order("Hannah", "Souvla")
    fails(
        session,
        "report_order_issue",
        {"order_id": souvla["id"], "order_item_id": line(old, "Karaage")["id"], "issue_type": "missing_item"},
        "NotFound",
        "not found in this order",
    )
    fails(
        session,
        "report_order_issue",
        {
            "order_id": souvla["id"],
            "order_item_id": line(souvla, "Greek Fries")["id"],
            "issue_type": "missing_item",
            "quantity": 2,
        },
        "Conflict",
        "1 ordered",
    )
    log_in(session, "Daniel")
    curry = order("Daniel", "Curry Up Now (Valencia)", "submitted")
    fails(
        session,
        "report_order_issue",
        {"order_id": curry["id"], "order_item_id": line(curry, "Samosas (2)")["id"], "issue_type": "missing_item"},
        "Conflict",
        "once the order has been delivered",
    )


def test_a_refund_never_exceeds_what_the_card_paid(session):
    souvla = order("Hannah", "Souvla")

    def paid_with_credits(tables):
        paid = next(o for o in tables["orders"] if o["id"] == souvla["id"])
        paid["credits_applied"], paid["amount_charged"] = paid["total"] - paid["tip"], paid["tip"]

    restore_seed_with(session, paid_with_credits, CLOCK)
    log_in(session, "Hannah")
    fries = line(souvla, "Greek Fries")
    args = {
        "order_id": souvla["id"],
        "order_item_id": fries["id"],
        "issue_type": "missing_item",
        "resolution": "refund",
    }
    fails(session, "report_order_issue", args, "InvalidRequest", f"Only ${souvla['tip'] / 100:.2f} of this order")
    assert ok(session, "report_order_issue", {**args, "resolution": "credits"})["amount"] == 750


# ---------------------------------------------------------------- addresses and orders


def test_saved_addresses(session):
    log_in(session, "Jordan")
    assert ok(session, "get_consumer")["addresses"] == []
    fails(session, "search_stores", {}, "InvalidRequest", "Add a delivery address first")
    fails(
        session,
        "add_address",
        {"street": "2200 Shattuck Ave", "zip_code": "94704"},
        "InvalidRequest",
        "doesn't deliver to 94704",
    )
    first = ok(session, "add_address", {"street": "1420 Irving St", "zip_code": "94122", "subpremise": "Apt 3"})
    assert first["is_default"] and (first["city"], first["state"]) == ("San Francisco", "CA")
    fails(
        session,
        "add_address",
        {"street": "1420 irving st", "zip_code": "94122", "subpremise": "apt 3"},
        "Conflict",
        "already saved",
    )
    work = ok(
        session,
        "add_address",
        {"street": "500 Parnassus Ave", "zip_code": "94122", "label": "Work", "make_default": True},
    )
    saved = {a["id"]: a["is_default"] for a in ok(session, "get_consumer")["addresses"]}
    assert saved == {work["id"]: True, first["id"]: False}
    updated = ok(
        session,
        "update_address",
        {
            "address_id": first["id"],
            "dropoff_option": "hand_to_me",
            "dropoff_instructions": "Buzz #3",
            "make_default": True,
        },
    )
    assert (updated["dropoff_option"], updated["dropoff_instructions"], updated["is_default"]) == (
        "hand_to_me",
        "Buzz #3",
        True,
    )
    fails(session, "update_address", {"address_id": first["id"]}, "InvalidRequest", "Nothing to update")
    fails(session, "update_address", {"address_id": address("Grace", "Home"), "label": "Mine"}, "NotFound", "Address")


def test_order_history_pages_newest_first_and_filters_by_status(session):
    log_in(session, "Priya")
    mine = [o for o in SEED["orders"] if o["consumer_id"] == person("Priya")["id"]]
    seen, cursor = [], None
    while True:
        page = ok(session, "list_orders", {"page_size": 7, "cursor": cursor})
        seen += page["results"]
        if not page["has_more"]:
            break
        cursor = page["next_cursor"]
    assert [o["id"] for o in seen] == [o["id"] for o in sorted(mine, key=lambda o: o["created_at"], reverse=True)]
    cancelled = ok(session, "list_orders", {"status": "cancelled", "page_size": 50})["results"]
    assert {o["id"] for o in cancelled} == {o["id"] for o in mine if o["status"] == "cancelled"} != set()
    fails(session, "list_orders", {"cursor": "abc"}, "InvalidRequest", "invalid cursor")


# ---------------------------------------------------------------- bounds in the argument types (v2)


def test_bounds_are_in_the_schema_with_doordash_wording(session):
    tools = SPEC.tools
    add_props = tools["add_to_cart"].input_schema["properties"]
    assert (add_props["quantity"]["minimum"], add_props["quantity"]["maximum"]) == (1, 20)
    assert tools["update_cart_item"].input_schema["properties"]["quantity"]["minimum"] == 0
    assert tools["report_order_issue"].input_schema["properties"]["quantity"]["minimum"] == 1
    assert tools["place_order"].input_schema["properties"]["tip"]["minimum"] == 0
    assert tools["list_orders"].input_schema["properties"]["page_size"]["maximum"] == 50
    address_props = tools["add_address"].input_schema["properties"]
    assert address_props["dropoff_instructions"]["maxLength"] == 500 and address_props["street"]["maxLength"] == 100
    assert address_props["zip_code"]["pattern"]
    log_in(session, "Priya")
    add(session, "La Taqueria", "Chips & Guacamole")
    fails(session, "get_cart", {"tip": -100}, "invalid_arguments", "tip: can't be negative")
    fails(session, "place_order", {"tip": -1}, "invalid_arguments", "tip: can't be negative")
    fails(session, "list_orders", {"page_size": 0}, "invalid_arguments", "page_size")
    fails(session, "add_address", {"street": "   ", "zip_code": "94110"}, "invalid_arguments", "street: required")
    fails(session, "add_address", {"street": "1 Main St", "zip_code": "9411"}, "invalid_arguments", "five-digit ZIP")
    fails(
        session,
        "add_address",
        {"street": "1 Main St", "zip_code": "94110", "label": "x" * 41},
        "invalid_arguments",
        "label: can be at most 40 characters",
    )
    fails(session, "add_address", {"street": "1 Main St", "zip_code": "10001"}, "InvalidRequest", "doesn't deliver")
    grace = order("Grace", "Roam Artisan Burgers")
    log_in(session, "Grace")
    args = {
        "order_id": grace["id"],
        "order_item_id": line(grace, "Sweet Potato Fries")["id"],
        "issue_type": "missing_item",
    }
    fails(session, "report_order_issue", {**args, "quantity": 0}, "invalid_arguments", "quantity: must be at least 1")


def test_trimmed_text_and_blank_optional_text_is_none(session):
    log_in(session, "Jordan")
    saved = ok(
        session,
        "add_address",
        {
            "street": "  77 Dow Pl ",
            "zip_code": " 94107 ",
            "subpremise": "  ",
            "label": " Home ",
            "dropoff_instructions": " Ring. ",
        },
    )
    assert (saved["street"], saved["zip_code"], saved["subpremise"], saved["label"]) == (
        "77 Dow Pl",
        "94107",
        None,
        "Home",
    )
    assert saved["dropoff_instructions"] == "Ring." and saved["is_default"]
    fails(session, "add_address", {"street": "77 dow pl", "zip_code": "94107"}, "Conflict", "already saved as Home")


def test_scheduled_times_without_an_offset_are_the_stores_local_time(session):
    log_in(session, "Priya")
    add(session, "La Taqueria", "Chips & Guacamole")
    local = quote(session, scheduled_time="2025-06-14T12:30:00")
    zoned = quote(session, scheduled_time="2025-06-14T12:30:00-07:00")
    utc = quote(session, scheduled_time="2025-06-14T19:30:00Z")
    assert local["scheduled_time"] == zoned["scheduled_time"] == utc["scheduled_time"] == "2025-06-14T19:30:00Z"
    fails(
        session,
        "get_cart",
        {"scheduled_time": "2025-06-14"},
        "invalid_arguments",
        "scheduled_time: must be an ISO 8601",
    )
    fails(session, "get_cart", {"scheduled_time": "2025-06-14T25:00:00"}, "InvalidRequest", "scheduled_time")


def test_search_matches_every_word_in_store_text_or_dishes(session):
    log_in(session, "Omar")
    fritter = ok(session, "search_stores", {"query": "FRITTER", "page_size": 50})["results"]
    assert [s["name"] for s in fritter] == ["Bob's Donuts"]  # a dish only, in any case
    both = ok(session, "search_stores", {"query": "donuts maple", "page_size": 50})["results"]
    assert [s["name"] for s in both] == ["Bob's Donuts"]  # one word from the store, one from a dish
    assert ok(session, "search_stores", {"query": "donuts sushi", "page_size": 50})["results"] == []
