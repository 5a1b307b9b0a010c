"""The Square environment's tools on the real seed: the catalog (search, related objects, versioned variation
upserts, prices kept on placed orders), the Customer Directory (fuzzy and exact search, the one-field minimum,
versions, email and phone types), orders (catalog and ad hoc lines, modifiers and their lists, locations, pickups,
versions, fulfillment transitions, cancellation), payments (cards on file and their owners, expiry and declines,
delayed capture, partial and full payments of orders, pay_order's exact total), refunds (only completed payments,
never above what is left, PENDING for cards) and loyalty (accrual once per completed order for its own customer,
excluded categories, rewards that need the points, discount open orders, are redeemed on payment and give points
back when deleted). Every error path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("square")
CLOCK = datetime(2025, 10, 16, 17, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, CLOCK)


# ---------------------------------------------------------------- seed lookups (by what people know)


def one(table: str, **equals: Any) -> dict[str, Any]:
    (row,) = [r for r in SEED[table] if all(r.get(k) == v for k, v in equals.items())]
    return row


def location(fragment: str) -> str:
    (row,) = [r for r in SEED["locations"] if fragment in r["name"]]
    return row["id"]


def customer(email: str) -> dict[str, Any]:
    return one("customers", email_address=email)


def variation(item: str, name: str) -> dict[str, Any]:
    return one("variations", item_id=one("items", name=item)["id"], name=name)


def card(customer_id: str, last_4: str) -> str:
    return one("cards", customer_id=customer_id, last_4=last_4)["id"]


def account(customer_id: str) -> dict[str, Any]:
    return one("loyalty_accounts", customer_id=customer_id)


def tier(prefix: str) -> str:
    (row,) = [r for r in SEED["reward_tiers"] if r["name"].startswith(prefix)]
    return row["id"]


def seed_order(customer_id: str, item: str) -> dict[str, Any]:
    (row,) = [
        o
        for o in SEED["orders"]
        if o["customer_id"] == customer_id and any(line["name"] == item for line in o["line_items"])
    ]
    return row


def usd(amount: int) -> dict[str, Any]:
    return {"amount": amount, "currency": "USD"}


def line(item: str, name: str, quantity: str = "1", modifiers: tuple[str, ...] = ()) -> dict[str, Any]:
    entry: dict[str, Any] = {"quantity": quantity, "catalog_object_id": variation(item, name)["id"]}
    if modifiers:
        entry["modifier_ids"] = [one("modifiers", name=m)["id"] for m in modifiers]
    return entry


PEARL, HAWTHORNE, ALBERTA, ROASTERY = (location(n) for n in ("Pearl", "Hawthorne", "Alberta", "Roastery"))
MAYA = customer("maya.chen@gmail.com")
DANIEL = customer("dokafor@outlook.com")
GRETA = customer("greta.lindqvist@gmail.com")
HUGO = customer("hugo.moreau@yahoo.com")
OMAR = customer("omar.haddad@gmail.com")


def latte_order(session: ToolSession, **extra: Any) -> dict[str, Any]:
    """Two 12 oz oat lattes for Maya at Pearl: (4.75 + 0.75) x 2 = 11.00."""
    args = {"location_id": PEARL, "customer_id": MAYA["id"], "line_items": [line("Latte", "12 oz", "2", ("Oat milk",))]}
    return ok(session, "create_order", args | extra)


def pay_in_full(session: ToolSession, order: dict[str, Any], source: str = "CASH") -> dict[str, Any]:
    due = ok(session, "retrieve_order", {"order_id": order["id"]})["net_amount_due_money"]["amount"]
    return ok(
        session,
        "create_payment",
        {"source_id": source, "amount_money": usd(due), "location_id": order["location_id"], "order_id": order["id"]},
    )


# ---------------------------------------------------------------- catalog


def test_catalog_search_matches_every_word_and_hides_archived_items(session):
    found = ok(session, "search_catalog_items", {"text_filter": "ethiopia bag"})["results"]
    assert [i["name"] for i in found] == ["Ethiopia Guji Natural", "Ethiopia Yirgacheffe"]
    assert {v["name"] for v in found[0]["variations"]} == {"12 oz bag", "2 lb bag"}
    assert ok(session, "search_catalog_items", {"text_filter": "holiday"})["results"] == []
    archived = ok(session, "search_catalog_items", {"text_filter": "holiday", "archived_state": "ARCHIVED_STATE_ALL"})
    assert [i["name"] for i in archived["results"]] == ["Holiday Blend 2024"]


def test_catalog_pages_with_a_cursor_and_refuses_a_bad_one(session):
    first = ok(session, "search_catalog_items", {"limit": 20})
    second = ok(session, "search_catalog_items", {"limit": 20, "cursor": first["cursor"]})
    assert len(first["results"]) == 20 and first["cursor"]
    assert not {i["id"] for i in first["results"]} & {i["id"] for i in second["results"]}
    fails(session, "search_catalog_items", {"cursor": "abc"}, "InvalidRequest", "INVALID_CURSOR")
    fails(session, "search_catalog_items", {"limit": 500}, "invalid_arguments", "VALUE_TOO_HIGH")


def test_retrieving_a_variation_brings_its_item_and_modifier_lists(session):
    v = variation("Latte", "12 oz")
    got = ok(session, "retrieve_catalog_object", {"object_id": v["id"], "include_related_objects": True})
    assert got["object_type"] == "ITEM_VARIATION" and got["item_variation"]["price_money"] == usd(475)
    assert {o["type"] for o in got["related_objects"]} == {"ITEM", "CATEGORY", "MODIFIER_LIST"}
    fails(session, "retrieve_catalog_object", {"object_id": "NOPE"}, "NotFound", "NOT_FOUND")


def test_variation_updates_need_the_current_version_and_leave_placed_orders_alone(session):
    v = variation("Latte", "12 oz")
    item_id = v["item_id"]
    placed = latte_order(session)
    stale = {"item_id": item_id, "variation_id": v["id"], "name": "12 oz", "price_money": usd(495)}
    fails(session, "upsert_item_variation", stale | {"version": v["version"] + 1}, "Conflict", "VERSION_MISMATCH")
    fails(session, "upsert_item_variation", stale, "InvalidRequest", "MISSING_REQUIRED_PARAMETER")
    updated = ok(session, "upsert_item_variation", stale | {"version": v["version"]})
    assert updated["price_money"] == usd(495) and updated["version"] == v["version"] + 1
    assert ok(session, "retrieve_order", {"order_id": placed["id"]})["total_money"] == usd(1100)
    assert latte_order(session)["total_money"] == usd(1140)


def test_new_variations_need_a_unique_name_and_a_live_item(session):
    latte = one("items", name="Latte")["id"]
    fails(
        session,
        "upsert_item_variation",
        {"item_id": latte, "name": "12 OZ", "price_money": usd(500)},
        "InvalidRequest",
        "already has a variation",
    )
    holiday = one("items", name="Holiday Blend 2024")["id"]
    fails(
        session,
        "upsert_item_variation",
        {"item_id": holiday, "name": "2 lb bag", "price_money": usd(4500)},
        "InvalidRequest",
        "archived",
    )
    created = ok(session, "upsert_item_variation", {"item_id": latte, "name": "20 oz", "price_money": usd(575)})
    assert created["version"] == 1 and created["ordinal"] == 3


# ---------------------------------------------------------------- customers


def test_customer_search_tells_the_two_maya_chens_apart(session):
    both = ok(session, "search_customers", {"text": "maya chen"})["results"]
    assert len(both) == 2
    by_phone = ok(session, "search_customers", {"phone_number": "(503) 555-2231"})["results"]
    assert [c["id"] for c in by_phone] == [MAYA["id"]]
    by_email = ok(session, "search_customers", {"email_address": "MAYA.CHEN@gmail.com"})["results"]
    assert [c["id"] for c in by_email] == [MAYA["id"]]


def test_a_customer_needs_one_identifying_field_and_valid_contact_details(session):
    fails(session, "create_customer", {"note": "walk-in"}, "InvalidRequest", "At least one of the following fields")
    fails(session, "create_customer", {"email_address": "not-an-email"}, "invalid_arguments", "INVALID_EMAIL_ADDRESS")
    fails(session, "create_customer", {"phone_number": "call me"}, "invalid_arguments", "INVALID_PHONE_NUMBER")
    made = ok(session, "create_customer", {"given_name": "Lucia", "phone_number": "971-555-2040"})
    assert len(made["id"]) == 26 and made["version"] == 1 and made["creation_source"] == "THIRD_PARTY"


def test_customer_updates_check_the_version_when_given(session):
    fails(
        session,
        "update_customer",
        {"customer_id": MAYA["id"], "note": "x", "version": MAYA["version"] + 5},
        "Conflict",
        "VERSION_MISMATCH",
    )
    fails(session, "update_customer", {"customer_id": MAYA["id"]}, "InvalidRequest", "changes no field")
    updated = ok(session, "update_customer", {"customer_id": MAYA["id"], "note": "Oat, extra hot"})
    assert updated["note"] == "Oat, extra hot" and updated["version"] == MAYA["version"] + 1


def test_cards_list_hides_disabled_ones_unless_asked(session):
    rose = customer("orders@rosecitybagels.com")
    assert [c["last_4"] for c in ok(session, "list_cards", {"customer_id": rose["id"]})] == ["3005"]
    every = ok(session, "list_cards", {"customer_id": rose["id"], "include_disabled": True})
    assert sorted(c["last_4"] for c in every) == ["3005", "8812"]


# ---------------------------------------------------------------- orders


def test_an_order_prices_lines_from_the_catalog_with_modifiers(session):
    order = ok(
        session,
        "create_order",
        {
            "location_id": PEARL,
            "line_items": [
                line("Latte", "16 oz", "1", ("Oat milk", "Extra shot", "Vanilla syrup")),
                {"quantity": "2", "name": "Day-old scone", "base_price_money": usd(150)},
            ],
        },
    )
    assert order["state"] == "OPEN" and order["version"] == 1 and len(order["id"]) == 27
    assert order["line_items"][0]["gross_sales_money"] == usd(525 + 75 + 100 + 60)
    assert order["total_money"] == usd(760 + 300) == order["net_amount_due_money"]


def test_modifiers_must_be_enabled_on_the_item_and_single_lists_take_one(session):
    not_enabled = {"location_id": PEARL, "line_items": [line("Drip Coffee", "12 oz", "1", ("Vanilla syrup",))]}
    fails(session, "create_order", not_enabled, "InvalidRequest", "not enabled")
    two_milks = {"location_id": PEARL, "line_items": [line("Latte", "12 oz", "1", ("Oat milk", "Almond milk"))]}
    fails(session, "create_order", two_milks, "InvalidRequest", "allows only one selection")


def test_prices_locations_and_quantities_are_checked(session):
    gift = {"quantity": "1", "catalog_object_id": variation("Gift Card", "Custom amount")["id"]}
    fails(session, "create_order", {"location_id": PEARL, "line_items": [gift]}, "InvalidRequest", "variably priced")
    fixed = line("Latte", "12 oz") | {"base_price_money": usd(100)}
    fails(session, "create_order", {"location_id": PEARL, "line_items": [fixed]}, "InvalidRequest", "fixed-price")
    roastery_only = {"location_id": PEARL, "line_items": [line("Oak Barrel-Aged Brazil", "8 oz tin")]}
    fails(session, "create_order", roastery_only, "InvalidRequest", "not sold at location")
    closed = {"location_id": ALBERTA, "line_items": [line("Latte", "12 oz")]}
    fails(session, "create_order", closed, "InvalidRequest", "not active")
    zero = {"location_id": PEARL, "line_items": [line("Latte", "12 oz", "0")]}
    fails(session, "create_order", zero, "invalid_arguments", "quantity")


def test_order_updates_need_the_version_and_stop_once_paid(session):
    order = latte_order(session)
    add = {"line_items_to_add": [line("Blueberry Scone", "Regular")]}
    fails(session, "update_order", {"order_id": order["id"], "version": 9} | add, "Conflict", "VERSION_MISMATCH")
    grown = ok(session, "update_order", {"order_id": order["id"], "version": 1} | add)
    assert grown["version"] == 2 and grown["total_money"] == usd(1100 + 375)
    pay_in_full(session, grown)
    paid = ok(session, "retrieve_order", {"order_id": order["id"]})
    assert paid["state"] == "COMPLETED" and paid["net_amount_due_money"] == usd(0)
    fails(
        session,
        "update_order",
        {"order_id": order["id"], "version": paid["version"]} | add,
        "InvalidRequest",
        "is COMPLETED",
    )


def test_fulfillments_only_move_forward_and_complete_a_paid_order(session):
    order = latte_order(session, pickup={"pickup_at": "2025-10-16T18:00:00Z"})
    uid = order["fulfillments"][0]["uid"]
    assert order["fulfillments"][0]["recipient_display_name"] == "Maya Chen"
    prepared = ok(
        session,
        "update_order",
        {"order_id": order["id"], "version": 1, "fulfillment_uid": uid, "fulfillment_state": "PREPARED"},
    )
    back = {"order_id": order["id"], "version": 2, "fulfillment_uid": uid, "fulfillment_state": "RESERVED"}
    fails(session, "update_order", back, "InvalidRequest", "cannot move from PREPARED to RESERVED")
    pay_in_full(session, prepared)
    still_open = ok(session, "retrieve_order", {"order_id": order["id"]})
    assert still_open["state"] == "OPEN" and still_open["tenders"]
    done = ok(
        session,
        "update_order",
        {
            "order_id": order["id"],
            "version": still_open["version"],
            "fulfillment_uid": uid,
            "fulfillment_state": "COMPLETED",
        },
    )
    assert done["state"] == "COMPLETED"


def test_a_pickup_without_a_customer_needs_a_recipient(session):
    args = {"location_id": PEARL, "line_items": [line("Latte", "12 oz")], "pickup": {"note": "side door"}}
    fails(session, "create_order", args, "InvalidRequest", "recipient_display_name")


def test_an_order_with_an_authorization_or_a_payment_cannot_be_canceled(session):
    theo = customer("theo.brennan@icloud.com")
    booking = seed_order(theo["id"], "Home Espresso Class")
    cancel = {"order_id": booking["id"], "version": booking["version"], "state": "CANCELED"}
    fails(session, "update_order", cancel, "InvalidRequest", "cancel them before")
    (hold,) = [p for p in SEED["payments"] if p["order_id"] == booking["id"]]
    ok(session, "cancel_payment", {"payment_id": hold["id"]})
    assert ok(session, "update_order", cancel)["state"] == "CANCELED"
    paid = seed_order(HUGO["id"], "Baratza Encore Grinder")
    fails(
        session,
        "update_order",
        {"order_id": paid["id"], "version": paid["version"], "state": "CANCELED"},
        "InvalidRequest",
        "is COMPLETED",
    )


def test_order_search_filters_by_location_customer_state_and_time(session):
    found = ok(session, "search_orders", {"location_ids": [HAWTHORNE], "states": ["OPEN"]})["results"]
    assert [o["customer_id"] for o in found] == [GRETA["id"]]
    recent = ok(
        session,
        "search_orders",
        {"location_ids": [PEARL, HAWTHORNE, ROASTERY], "created_at_start": "2025-10-15T00:00:00Z"},
    )["results"]
    assert recent and all(o["created_at"] >= "2025-10-15T00:00:00Z" for o in recent)
    assert [o["created_at"] for o in recent] == sorted((o["created_at"] for o in recent), reverse=True)


# ---------------------------------------------------------------- payments


def test_a_card_on_file_is_charged_only_with_its_own_customer(session):
    visa = card(MAYA["id"], "4242")
    base = {"source_id": visa, "amount_money": usd(500), "location_id": PEARL}
    fails(session, "create_payment", base, "InvalidRequest", "customer_id is required")
    fails(session, "create_payment", base | {"customer_id": GRETA["id"]}, "InvalidRequest", "does not belong")
    paid = ok(session, "create_payment", base | {"customer_id": MAYA["id"]})
    assert paid["status"] == "COMPLETED" and paid["card_details"]["last_4"] == "4242" and len(paid["id"]) == 29


@pytest.mark.parametrize(
    ("who", "last_4", "code"),
    [
        ("maya.chen@gmail.com", "5100", "CARD_EXPIRED"),
        ("dokafor@outlook.com", "7731", "INSUFFICIENT_FUNDS"),
        ("hugo.moreau@yahoo.com", "4002", "GENERIC_DECLINE"),
        ("orders@rosecitybagels.com", "8812", "INVALID_CARD"),
    ],
)
def test_expired_declined_and_disabled_cards_fail(session, who, last_4, code):
    owner = customer(who)
    args = {
        "source_id": card(owner["id"], last_4),
        "amount_money": usd(500),
        "location_id": PEARL,
        "customer_id": owner["id"],
    }
    fails(session, "create_payment", args, "InvalidRequest", code)


def test_delayed_capture_is_approved_until_completed_or_canceled(session):
    args = {"source_id": "EXTERNAL", "amount_money": usd(2500), "location_id": ROASTERY, "autocomplete": False}
    held = ok(session, "create_payment", args)
    assert held["status"] == "APPROVED" and held["delay_action"] == "CANCEL" and held["delayed_until"]
    fails(
        session,
        "refund_payment",
        {"payment_id": held["id"], "amount_money": usd(100)},
        "InvalidRequest",
        "cancel it instead",
    )
    done = ok(session, "complete_payment", {"payment_id": held["id"]})
    assert done["status"] == "COMPLETED" and done["delayed_until"] is None
    fails(session, "cancel_payment", {"payment_id": held["id"]}, "InvalidRequest", "only APPROVED")


def test_payments_for_part_of_an_order_wait_for_pay_order(session):
    order = latte_order(session)
    part = {"source_id": "CASH", "amount_money": usd(600), "location_id": PEARL, "order_id": order["id"]}
    fails(session, "create_payment", part, "InvalidRequest", "autocomplete to false")
    fails(session, "create_payment", part | {"amount_money": usd(1200)}, "InvalidRequest", "VALUE_TOO_HIGH")
    fails(session, "create_payment", part | {"location_id": HAWTHORNE}, "InvalidRequest", "order's location")
    cash = ok(session, "create_payment", part | {"autocomplete": False})
    fails(session, "complete_payment", {"payment_id": cash["id"]}, "InvalidRequest", "pay the order")
    fails(
        session, "pay_order", {"order_id": order["id"], "payment_ids": [cash["id"]]}, "InvalidRequest", "must be equal"
    )
    rest = ok(
        session,
        "create_payment",
        {
            "source_id": card(MAYA["id"], "4242"),
            "amount_money": usd(500),
            "location_id": PEARL,
            "order_id": order["id"],
            "autocomplete": False,
        },
    )
    assert rest["customer_id"] == MAYA["id"]
    fails(
        session,
        "pay_order",
        {"order_id": order["id"], "payment_ids": [cash["id"], rest["id"]], "order_version": 7},
        "Conflict",
        "VERSION_MISMATCH",
    )
    paid = ok(session, "pay_order", {"order_id": order["id"], "payment_ids": [cash["id"], rest["id"]]})
    assert paid["state"] == "COMPLETED" and {t["payment_id"] for t in paid["tenders"]} == {cash["id"], rest["id"]}
    assert ok(session, "get_payment", {"payment_id": rest["id"]})["status"] == "COMPLETED"


def test_pay_order_refuses_other_orders_payments_and_canceled_ones(session):
    mine, other = latte_order(session), latte_order(session)
    theirs = ok(
        session,
        "create_payment",
        {
            "source_id": "CASH",
            "amount_money": usd(1100),
            "location_id": PEARL,
            "order_id": other["id"],
            "autocomplete": False,
        },
    )
    fails(
        session,
        "pay_order",
        {"order_id": mine["id"], "payment_ids": [theirs["id"]]},
        "InvalidRequest",
        "is not for order",
    )
    ok(session, "cancel_payment", {"payment_id": theirs["id"]})
    fails(
        session, "pay_order", {"order_id": other["id"], "payment_ids": [theirs["id"]]}, "InvalidRequest", "is CANCELED"
    )


def test_list_payments_filters_by_card_and_time(session):
    found = ok(session, "list_payments", {"last_4": "6011"})["results"]
    assert found and all(p["card_details"]["last_4"] == "6011" for p in found)
    window = ok(session, "list_payments", {"begin_time": "2025-10-10T00:00:00Z", "sort_order": "ASC"})["results"]
    assert [p["created_at"] for p in window] == sorted(p["created_at"] for p in window)
    assert all(p["created_at"] >= "2025-10-10T00:00:00Z" for p in window)


# ---------------------------------------------------------------- refunds


def test_refunds_never_exceed_what_is_left_and_card_refunds_start_pending(session):
    kettle = seed_order(DANIEL["id"], "Fellow Stagg EKG Kettle")
    payment_id = kettle["tender_payment_ids"][0]
    before = ok(session, "get_payment", {"payment_id": payment_id})
    assert before["refunded_money"] == usd(1700) and before["refundable_money"] == usd(16500)
    over = {"payment_id": payment_id, "amount_money": usd(16501)}
    fails(session, "refund_payment", over, "InvalidRequest", "REFUND_AMOUNT_INVALID")
    refund = ok(session, "refund_payment", {"payment_id": payment_id, "amount_money": usd(16500), "reason": "Faulty"})
    assert refund["status"] == "PENDING" and refund["id"].startswith(payment_id + "_")
    fails(session, "refund_payment", {"payment_id": payment_id, "amount_money": usd(1)}, "InvalidRequest", "(0)")
    order = ok(session, "retrieve_order", {"order_id": kettle["id"]})
    assert order["refunded_money"] == usd(18200) and len(order["refunds"]) == 2


def test_cash_refunds_complete_at_once_and_failed_payments_are_not_refundable(session):
    cash = pay_in_full(session, latte_order(session))
    refund = ok(session, "refund_payment", {"payment_id": cash["id"], "amount_money": usd(550)})
    assert refund["status"] == "COMPLETED"
    (failed,) = [p for p in SEED["payments"] if p["status"] == "FAILED"]
    fails(
        session,
        "refund_payment",
        {"payment_id": failed["id"], "amount_money": usd(100)},
        "InvalidRequest",
        "PAYMENT_NOT_REFUNDABLE",
    )


# ---------------------------------------------------------------- loyalty


def test_points_accrue_once_per_completed_order_of_the_accounts_own_customer(session):
    keiko = customer("keiko.t@gmail.com")
    acc = account(keiko["id"])
    yesterday = seed_order(keiko["id"], "Matcha Latte")
    args = {"account_id": acc["id"], "order_id": yesterday["id"], "location_id": HAWTHORNE}
    fails(session, "accumulate_loyalty_points", args | {"location_id": PEARL}, "InvalidRequest", "was not placed at")
    other = account(GRETA["id"])
    fails(
        session, "accumulate_loyalty_points", args | {"account_id": other["id"]}, "InvalidRequest", "another customer"
    )
    earned = ok(session, "accumulate_loyalty_points", args)
    assert earned["balance"] == acc["balance"] + 11 and earned["lifetime_points"] == acc["lifetime_points"] + 11
    fails(session, "accumulate_loyalty_points", args, "Conflict", "already been accumulated")
    open_order = latte_order(session)
    maya = account(MAYA["id"])
    fails(
        session,
        "accumulate_loyalty_points",
        {"account_id": maya["id"], "order_id": open_order["id"], "location_id": PEARL},
        "InvalidRequest",
        "only COMPLETED orders",
    )


def test_gift_cards_earn_no_points(session):
    sunday = seed_order(OMAR["id"], "Gift Card")
    acc = account(OMAR["id"])
    earned = ok(
        session, "accumulate_loyalty_points", {"account_id": acc["id"], "order_id": sunday["id"], "location_id": PEARL}
    )
    assert earned["balance"] == acc["balance"] + 3  # the $3.25 drip coffee only


def test_a_reward_needs_the_points_and_discounts_an_open_order_once(session):
    acc = account(MAYA["id"])  # 86 Beans
    order = latte_order(session)
    too_big = {"loyalty_account_id": acc["id"], "reward_tier_id": tier("$8"), "order_id": order["id"]}
    fails(session, "create_loyalty_reward", too_big, "InvalidRequest", "needs 100")
    small = too_big | {"reward_tier_id": tier("$3")}
    reward = ok(session, "create_loyalty_reward", small)
    assert reward["status"] == "ISSUED" and reward["points"] == 40
    fails(session, "create_loyalty_reward", small, "InvalidRequest", "only once")
    discounted = ok(session, "retrieve_order", {"order_id": order["id"]})
    assert discounted["total_money"] == usd(800) and discounted["reward_ids"] == [reward["id"]]
    assert ok(session, "search_loyalty_accounts", {"customer_id": MAYA["id"]})["results"][0]["balance"] == 46


def test_percentage_rewards_are_capped(session):
    acc = account(customer("ines.alvarez@gmail.com")["id"])
    order = ok(
        session,
        "create_order",
        {"location_id": PEARL, "line_items": [line("Fellow Stagg EKG Kettle", "Polished Steel")]},
    )
    ok(
        session,
        "create_loyalty_reward",
        {"loyalty_account_id": acc["id"], "reward_tier_id": tier("20%"), "order_id": order["id"]},
    )
    assert ok(session, "retrieve_order", {"order_id": order["id"]})["total_discount_money"] == usd(2500)


def test_paying_redeems_the_reward_and_a_redeemed_reward_cannot_be_deleted(session):
    acc = account(MAYA["id"])
    order = latte_order(session)
    reward = ok(
        session,
        "create_loyalty_reward",
        {"loyalty_account_id": acc["id"], "reward_tier_id": tier("$3"), "order_id": order["id"]},
    )
    pay_in_full(session, order)
    fails(session, "delete_loyalty_reward", {"reward_id": reward["id"]}, "InvalidRequest", "REDEEMED")
    earned = ok(
        session, "accumulate_loyalty_points", {"account_id": acc["id"], "order_id": order["id"], "location_id": PEARL}
    )
    assert earned["balance"] == 86 - 40 + 8


def test_deleting_a_reward_returns_its_points_and_removes_its_discount(session):
    acc = account(MAYA["id"])
    order = latte_order(session)
    reward = ok(
        session,
        "create_loyalty_reward",
        {"loyalty_account_id": acc["id"], "reward_tier_id": tier("$3"), "order_id": order["id"]},
    )
    back = ok(session, "delete_loyalty_reward", {"reward_id": reward["id"]})
    assert back["balance"] == 86 and back["issued_rewards"] == []
    restored = ok(session, "retrieve_order", {"order_id": order["id"]})
    assert restored["total_money"] == usd(1100) and restored["discounts"] == [] and restored["version"] == 3


def test_canceling_an_order_gives_its_reward_points_back(session):
    acc = account(MAYA["id"])
    order = latte_order(session)
    ok(
        session,
        "create_loyalty_reward",
        {"loyalty_account_id": acc["id"], "reward_tier_id": tier("$3"), "order_id": order["id"]},
    )
    ok(session, "update_order", {"order_id": order["id"], "version": 2, "state": "CANCELED"})
    assert ok(session, "search_loyalty_accounts", {"customer_id": MAYA["id"]})["results"][0]["balance"] == 86


def test_loyalty_accounts_are_found_by_phone_however_it_is_written(session):
    (found,) = ok(session, "search_loyalty_accounts", {"phone_number": "5035552231"})["results"]
    assert found["customer_id"] == MAYA["id"]
    program = ok(session, "retrieve_loyalty_program", {})
    assert [t["points"] for t in program["reward_tiers"]] == [40, 100, 200]
    assert ALBERTA not in program["location_ids"]


def test_loyalty_activity_is_refused_at_a_location_outside_the_program(session):
    def close_pearl(tables: dict[str, list[dict[str, Any]]]) -> None:
        tables["loyalty_programs"][0]["location_ids"] = [HAWTHORNE, ROASTERY]

    restore_seed_with(session, close_pearl, CLOCK)
    order = seed_order(OMAR["id"], "Gift Card")
    args = {"account_id": account(OMAR["id"])["id"], "order_id": order["id"], "location_id": PEARL}
    fails(session, "accumulate_loyalty_points", args, "InvalidRequest", "does not take part")


def test_ad_hoc_lines_need_a_name_and_price_and_take_no_modifiers(session):
    bare = {"quantity": "1", "name": "Day-old scone"}
    fails(session, "create_order", {"location_id": PEARL, "line_items": [bare]}, "InvalidRequest", "needs a name")
    with_mod = bare | {"base_price_money": usd(150), "modifier_ids": [one("modifiers", name="Warmed")["id"]]}
    fails(session, "create_order", {"location_id": PEARL, "line_items": [with_mod]}, "InvalidRequest", "no modifiers")


def test_order_updates_refuse_unknown_lines_empty_orders_and_half_fulfillment_changes(session):
    order = latte_order(session, pickup={"recipient_display_name": "Maya"})
    base = {"order_id": order["id"], "version": 1}
    fails(session, "update_order", base | {"line_item_uids_to_remove": ["nope"]}, "InvalidRequest", "no line item")
    only = order["line_items"][0]["uid"]
    fails(session, "update_order", base | {"line_item_uids_to_remove": [only]}, "InvalidRequest", "at least one")
    fails(session, "update_order", base | {"fulfillment_state": "PREPARED"}, "InvalidRequest", "go together")
    fails(session, "update_order", base, "InvalidRequest", "changes nothing")


def test_payments_need_a_known_source_and_an_active_location(session):
    args = {"source_id": "BITCOIN", "amount_money": usd(500), "location_id": PEARL}
    fails(session, "create_payment", args, "InvalidRequest", "Invalid source_id")
    fails(
        session, "create_payment", args | {"source_id": "CASH", "location_id": ALBERTA}, "InvalidRequest", "not active"
    )
    fails(session, "create_payment", args | {"source_id": "CASH", "location_id": "LNOPE"}, "NotFound", "NOT_FOUND")


def test_a_new_variation_takes_no_version(session):
    latte = one("items", name="Latte")["id"]
    args = {"item_id": latte, "name": "20 oz", "price_money": usd(575), "version": 1}
    fails(session, "upsert_item_variation", args, "InvalidRequest", "takes no version")
