"""Vinted's business rules, each with a test that can fail: sign-in, the Buyer Protection fee (70p + 5%), bundle
discount tiers, offers and counter-offers (below the price, one pending per conversation, only the seller
counters, within the offer and the price), accepted offers at checkout, what can't be bought (own items, holiday
mode, reserved for someone else, two sellers, carriers the seller doesn't offer), shipping labels, who may cancel
and when, the 2-day issue window, confirming with a review, the wardrobe (edit, reserve, hide) and favourites; and
failures that change nothing."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("vinted")
CLOCK = datetime(2026, 3, 18, 10, 0, tzinfo=timezone.utc)
session = session_fixture(SPEC, CLOCK)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

LEAH_BARBOUR, LEAH_BOOTS, LEAH_DRESS = 4810051652, 4810116579, 4810141326
TOM_POLO, TOM_TEE, TOM_DICKIES, TOM_TNF = 4810293887, 4810380705, 4810426819, 4810485129
SO_COAT, SO_HOBBS, SO_BAG = 4810504827, 4810667176, 4810708340
DANNI_COAT, EKV_TRUCKER, EMMAK_501 = 4811496371, 4811333857, 4811158390
O_ZARA, O_NIKE, O_DOCS, O_BODEN, O_VANS = 9012007919, 9012015838, 9012023757, 9012031676, 9012039595
S_BLOUSE, S_MOM, T_AIRMAX = 9012055433, 9012063352, 9012079190
OF_LEAH_COUNTER, OF_OLI_SO, OF_MAR_LEAH = 5600038, 5600297, 5600223


def as_member(session: ToolSession, login: str) -> dict:
    return ok(session, "sign_in", {"login": login}, caller="user")


def at(session: ToolSession, iso_utc: str) -> None:
    session.clock.reset(datetime.fromisoformat(iso_utc.replace("Z", "+00:00")))


# ---------------------------------------------------------------- sign-in and catalogue


def test_every_tool_needs_a_signed_in_member(session):
    fails(session, "list_orders", {}, "PermissionDenied", "log in")
    fails(session, "sign_in", {"login": "nobody_here"}, "NotFound", "Incorrect username", caller="user")
    email = next(m["email"] for m in SEED["members"] if m["login"] == "sophie.mw")
    assert as_member(session, email.upper())["login"] == "sophie.mw"


def test_search_pages_through_a_wardrobe_without_gaps(session):
    as_member(session, "olivia.rose")
    first = ok(session, "search_items", {"user_login": "emma.kvintage", "order": "price_low_to_high", "page_size": 5})
    second = ok(
        session,
        "search_items",
        {"user_login": "emma.kvintage", "order": "price_low_to_high", "page_size": 5, "cursor": first["next_cursor"]},
    )
    whole = ok(session, "search_items", {"user_login": "emma.kvintage", "order": "price_low_to_high", "page_size": 50})
    assert first["has_more"] and [i["id"] for i in first["results"] + second["results"]] == [
        i["id"] for i in whole["results"][:10]
    ]
    assert not whole["has_more"] and whole["next_cursor"] is None
    fails(session, "search_items", {"cursor": "999"}, "InvalidRequest", "invalid cursor")


def test_search_hides_members_on_holiday_and_other_wardrobes_hidden_items(session):
    as_member(session, "olivia.rose")
    found = ok(session, "search_items", {"search_text": "Whistles trench", "page_size": 50})["results"]
    assert DANNI_COAT not in {item["id"] for item in found}
    sophie = ok(session, "search_items", {"user_login": "sophie.mw", "page_size": 50})["results"]
    assert SO_BAG not in {item["id"] for item in sophie}
    fails(session, "get_item", {"item_id": SO_BAG}, "NotFound", "not found")
    as_member(session, "sophie.mw")
    own = ok(session, "search_items", {"user_login": "sophie.mw", "item_state": "hidden"})["results"]
    assert [item["id"] for item in own] == [SO_BAG]


def test_search_filters_by_brand_size_and_price_and_sorts(session):
    as_member(session, "priya.k")
    found = ok(
        session, "search_items", {"brand": "levi's", "size": "W27", "order": "price_low_to_high", "page_size": 50}
    )["results"]
    prices = [float(item["price"]["amount"]) for item in found]
    assert prices == sorted(prices) and len(found) >= 3
    assert all(item["brand_title"] == "Levi's" and item["size_title"].startswith("W27") for item in found)
    cheap = ok(session, "search_items", {"price_to": "10", "page_size": 50})["results"]
    assert cheap and all(float(item["price"]["amount"]) <= 10 for item in cheap)


# ---------------------------------------------------------------- fees and bundles


def test_buyer_protection_is_70p_plus_5_percent_of_the_price(session):
    as_member(session, "sophie.mw")
    item = ok(session, "get_item", {"item_id": LEAH_BARBOUR})
    assert item["price"]["amount"] == "85.00" and item["total_item_price"]["amount"] == "89.95"  # 0.70 + 4.25


def test_bundle_discount_uses_the_highest_tier_the_bundle_reaches(session):
    as_member(session, "marcus.b")  # Tom: 10% for 2, 15% for 3
    three = [TOM_DICKIES, TOM_POLO, TOM_TEE]
    summary = ok(session, "get_checkout_summary", {"item_ids": three, "carrier": "InPost"})
    assert summary["items_price"]["amount"] == "46.00" and summary["bundle_discount_percent"] == 15
    assert summary["item_total"]["amount"] == "39.10"
    assert summary["buyer_protection_fee"]["amount"] == "2.66"  # 0.70 + 5% of 39.10 (1.955 rounds up)
    assert summary["shipping_fee"]["amount"] == "2.79" and summary["total"]["amount"] == "44.55"
    home = ok(session, "get_checkout_summary", {"item_ids": three, "carrier": "Evri", "delivery_type": "home"})
    assert home["shipping_fee"]["amount"] == "3.89"  # Evri small 2.89 + 1.00 to the door
    one = ok(session, "get_checkout_summary", {"item_ids": [TOM_POLO], "carrier": "InPost"})
    assert one["bundle_discount_percent"] == 0


def test_what_cannot_be_bought(session):
    as_member(session, "olivia.rose")
    fails(session, "buy_items", {"item_ids": [DANNI_COAT], "carrier": "Evri"}, "Conflict", "on holiday")
    fails(session, "buy_items", {"item_ids": [SO_HOBBS], "carrier": "InPost"}, "Conflict", "reserved for another")
    fails(session, "buy_items", {"item_ids": [TOM_POLO, SO_COAT], "carrier": "Evri"}, "InvalidRequest", "one member")
    fails(session, "buy_items", {"item_ids": [LEAH_BARBOUR], "carrier": "InPost"}, "InvalidRequest", "doesn't ship")
    fails(
        session,
        "buy_items",
        {"item_ids": [LEAH_BARBOUR], "carrier": "Royal Mail", "delivery_type": "pickup_point"},
        "InvalidRequest",
        "pickup point",
    )
    fails(session, "buy_items", {"item_ids": [4812114456], "carrier": "Evri"}, "Conflict", "already been sold")
    as_member(session, "sophie.mw")
    fails(session, "buy_items", {"item_ids": [SO_COAT], "carrier": "Evri"}, "Conflict", "your own item")


def test_buying_marks_items_sold_and_sets_a_ship_by_five_working_days_later(session):
    as_member(session, "priya.k")  # the boots are reserved for Priya
    order = ok(session, "buy_items", {"item_ids": [SO_HOBBS], "carrier": "InPost"})
    assert order["status"] == "paid" and order["total"]["amount"] == "40.94"  # 35 + 2.45 + 3.49 medium
    assert order["ship_by"].startswith("2026-03-25")  # Wednesday + 5 working days
    assert ok(session, "get_item", {"item_id": SO_HOBBS})["item_state"] == "sold"


# ---------------------------------------------------------------- offers


def test_an_offer_must_be_below_the_price_and_one_waits_at_a_time(session):
    as_member(session, "sophie.mw")
    fails(session, "make_offer", {"item_ids": [EMMAK_501], "price": "28"}, "InvalidRequest", "lower than the price")
    offer = ok(session, "make_offer", {"item_ids": [EMMAK_501], "price": "22"})
    assert offer["status"] == "pending" and offer["original_price"]["amount"] == "28.00"
    fails(session, "make_offer", {"item_ids": [EMMAK_501], "price": "20"}, "Conflict", "already an offer")
    fails(session, "respond_to_offer", {"offer_id": offer["id"], "action": "accept"}, "Conflict", "You made this")


def test_a_bundle_offer_is_compared_with_the_discounted_price(session):
    as_member(session, "marcus.b")
    fails(
        session, "make_offer", {"item_ids": [TOM_POLO, TOM_TEE], "price": "27"}, "InvalidRequest", "27.00"
    )  # 30 less 10%
    assert ok(session, "make_offer", {"item_ids": [TOM_POLO, TOM_TEE], "price": "25"})["original_price"]["amount"] == (
        "27.00"
    )


def test_only_the_seller_counters_and_within_offer_and_price(session):
    as_member(session, "leahmcd_")
    args = {"offer_id": OF_MAR_LEAH, "action": "counter"}
    fails(session, "respond_to_offer", {**args, "price": "30"}, "InvalidRequest", "between")
    fails(session, "respond_to_offer", {**args, "price": "45"}, "InvalidRequest", "between")
    fails(session, "respond_to_offer", args, "InvalidRequest", "needs a price")
    counter = ok(session, "respond_to_offer", {**args, "price": "40"})
    assert counter["offered_by_login"] == "leahmcd_" and counter["status"] == "pending"
    as_member(session, "marcus.b")
    fails(
        session,
        "respond_to_offer",
        {"offer_id": counter["id"], "action": "counter", "price": "38"},
        "PermissionDenied",
        "Only the seller",
    )
    fails(session, "respond_to_offer", {"offer_id": OF_MAR_LEAH, "action": "accept"}, "Conflict", "countered")


def test_an_accepted_offer_prices_exactly_its_items_at_checkout_and_is_used_once(session):
    as_member(session, "sophie.mw")
    ok(session, "respond_to_offer", {"offer_id": OF_LEAH_COUNTER, "action": "accept"})
    summary = ok(session, "get_checkout_summary", {"item_ids": [LEAH_BARBOUR], "carrier": "Evri"})
    assert summary["accepted_offer_id"] == OF_LEAH_COUNTER and summary["item_total"]["amount"] == "75.00"
    assert summary["discount"]["amount"] == "10.00" and summary["buyer_protection_fee"]["amount"] == "4.45"
    order = ok(session, "buy_items", {"item_ids": [LEAH_BARBOUR], "carrier": "Evri"})
    assert order["total"]["amount"] == "83.44"  # 75 + 4.45 + 3.99 medium
    conversation = ok(session, "get_conversation", {"conversation_id": 11230004417})
    assert [o["status"] for o in conversation["offers"]] == ["countered", "used"]


def test_buying_cancels_other_buyers_pending_offers_on_those_items(session):
    as_member(session, "marcus.b")
    ok(session, "buy_items", {"item_ids": [TOM_TEE], "carrier": "InPost"})
    as_member(session, "tomgrant")
    bundle = ok(session, "get_conversation", {"conversation_id": 11230022085})["offers"][0]
    assert bundle["item_ids"] == [TOM_POLO, TOM_TEE] and bundle["status"] == "cancelled"
    fails(session, "respond_to_offer", {"offer_id": bundle["id"], "action": "accept"}, "Conflict", "cancelled")


def test_others_cannot_see_or_answer_an_offer(session):
    as_member(session, "priya.k")
    fails(session, "respond_to_offer", {"offer_id": OF_OLI_SO, "action": "accept"}, "NotFound", "not found")
    fails(session, "get_conversation", {"conversation_id": 11230044170}, "NotFound", "not found")


# ---------------------------------------------------------------- orders


def test_only_the_seller_makes_a_label_and_only_for_a_paid_order(session):
    as_member(session, "priya.k")
    fails(session, "create_shipping_label", {"order_id": S_BLOUSE}, "PermissionDenied", "Only the seller")
    as_member(session, "sophie.mw")
    labelled = ok(session, "create_shipping_label", {"order_id": S_BLOUSE})
    assert labelled["status"] == "label_created" and labelled["tracking_number"].startswith("H01")
    assert labelled["tracking"][-1]["status"] == "label_created"
    fails(session, "create_shipping_label", {"order_id": S_BLOUSE}, "Conflict", "label_created")


def test_the_seller_cancels_before_sending_and_the_buyer_only_after_ship_by(session):
    as_member(session, "sophie.mw")
    fails(session, "cancel_order", {"order_id": O_BODEN, "reason": "other"}, "Conflict", "has until")
    fails(session, "cancel_order", {"order_id": O_VANS, "reason": "other"}, "Conflict", "no longer be cancelled")
    cancelled = ok(session, "cancel_order", {"order_id": O_DOCS, "reason": "not_sent_in_time"})
    assert cancelled["status"] == "cancelled"
    assert ok(session, "get_item", {"item_id": 4811753869})["item_state"] == "active"
    seller = ok(session, "cancel_order", {"order_id": S_MOM, "reason": "buyer_request"})  # label made, not sent
    assert seller["status"] == "cancelled"


def test_issues_only_within_two_days_of_delivery(session):
    as_member(session, "sophie.mw")
    fails(
        session, "report_issue", {"order_id": O_VANS, "reason": "damaged", "description": "x"}, "Conflict", "delivered"
    )
    fails(
        session,
        "report_issue",
        {"order_id": O_NIKE, "reason": "damaged", "description": "x"},
        "Conflict",
        "2-day window",
    )
    assert ok(session, "get_order", {"order_id": O_NIKE})["status"] == "completed"
    reported = ok(session, "report_issue", {"order_id": O_ZARA, "reason": "damaged", "description": "Torn lining."})
    assert reported["status"] == "issue_reported" and reported["issue"]["status"] == "open"
    assert reported["issue_deadline"] == "2026-03-19T14:00:00Z"


def test_the_window_closes_with_the_clock(session):
    as_member(session, "sophie.mw")
    at(session, "2026-03-19T14:00:00Z")
    fails(session, "report_issue", {"order_id": O_ZARA, "reason": "damaged", "description": "x"}, "Conflict", "closed")
    fails(session, "confirm_order", {"order_id": O_ZARA}, "Conflict", "completed")


def test_confirming_completes_and_leaves_a_review_for_the_seller(session):
    as_member(session, "olivia.rose")
    fails(session, "confirm_order", {"order_id": 9012071271, "comment": "Nice"}, "InvalidRequest", "needs a rating")
    done = ok(session, "confirm_order", {"order_id": 9012071271, "rating": 4, "comment": "Nice boots"})
    assert done["status"] == "completed"
    sophie = ok(session, "get_member", {"login": "sophie.mw"})
    assert sophie["recent_feedback"][0] == {"rating": 4, "comment": "Nice boots", "from_login": "olivia.rose"}
    as_member(session, "sophie.mw")
    fails(session, "confirm_order", {"order_id": 9012071271}, "PermissionDenied", "Only the buyer")


def test_orders_list_by_role_and_live_status(session):
    as_member(session, "sophie.mw")
    bought = ok(session, "list_orders", {"type": "purchased", "page_size": 50})["results"]
    assert all(o["buyer_login"] == "sophie.mw" for o in bought)
    completed = ok(session, "list_orders", {"status": "completed", "page_size": 50})["results"]
    assert O_NIKE in {o["id"] for o in completed}  # delivered three days ago, completed by itself
    sold = ok(session, "list_orders", {"type": "sold", "status": "paid"})["results"]
    assert [o["id"] for o in sold] == [S_BLOUSE]


# ---------------------------------------------------------------- wardrobe, favourites, messages


def test_editing_reserving_and_hiding_own_items(session):
    as_member(session, "sophie.mw")
    fails(session, "edit_item", {"item_id": LEAH_DRESS, "price": "10"}, "PermissionDenied", "own items")
    fails(session, "edit_item", {"item_id": 4810775284, "price": "10"}, "Conflict", "sold")
    fails(session, "edit_item", {"item_id": SO_COAT}, "InvalidRequest", "Nothing to change")
    fails(session, "edit_item", {"item_id": SO_COAT, "unreserve": True}, "Conflict", "isn't reserved")
    reserved = ok(session, "edit_item", {"item_id": SO_COAT, "reserved_for_login": "olivia.rose"})
    assert reserved["item_state"] == "reserved" and reserved["reserved_for_login"] == "olivia.rose"
    freed = ok(session, "edit_item", {"item_id": SO_HOBBS, "unreserve": True, "price": "30"})
    assert (
        freed["item_state"] == "active" and freed["reserved_for_login"] is None and freed["price"]["amount"] == "30.00"
    )
    fails(session, "edit_item", {"item_id": SO_COAT, "price": "0"}, "invalid_arguments", "in pounds")


def test_bundle_tiers_never_shrink_and_can_be_switched_off(session):
    as_member(session, "leahmcd_")
    args = {"enabled": True, "two_items": 15, "three_items": 10, "five_items": 20}
    fails(session, "set_bundle_discounts", args, "InvalidRequest", "must not get smaller")
    fails(session, "set_bundle_discounts", {**args, "three_items": 60}, "invalid_arguments", "0 to 50")
    on = ok(session, "set_bundle_discounts", {**args, "three_items": 15})["bundle_discount"]
    assert on == {"enabled": True, "two_items": 15, "three_items": 15, "five_items": 20}
    off = ok(session, "set_bundle_discounts", {"enabled": False})["bundle_discount"]
    assert off["enabled"] is False


def test_favourites_toggle_and_count(session):
    as_member(session, "priya.k")
    before = ok(session, "get_item", {"item_id": LEAH_BOOTS})["favourite_count"]
    added = ok(session, "toggle_favourite", {"item_id": LEAH_BOOTS})
    assert added == {"item_id": LEAH_BOOTS, "is_favourite": True, "favourite_count": before + 1}
    assert ok(session, "list_favourites", {})["results"][0]["id"] == LEAH_BOOTS
    assert ok(session, "toggle_favourite", {"item_id": LEAH_BOOTS})["is_favourite"] is False
    fails(session, "toggle_favourite", {"item_id": 4810955054}, "Conflict", "own item")


def test_messages_open_a_conversation_about_an_item(session):
    as_member(session, "priya.k")
    fails(session, "send_message", {"body": "hi"}, "InvalidRequest", "either")
    fails(session, "send_message", {"body": "   ", "item_id": LEAH_DRESS}, "invalid_arguments", "Write a message")
    ok(session, "send_message", {"body": "Is this still available?", "item_id": LEAH_DRESS})
    inbox = ok(session, "list_inbox", {})["results"]
    assert inbox[0]["item_id"] == LEAH_DRESS and inbox[0]["last_message"] == "Is this still available?"
    assert inbox[0]["opposite_user_login"] == "leahmcd_"


def test_uploading_an_item_puts_it_on_sale_with_a_new_brand_if_needed(session):
    as_member(session, "tomgrant")
    item = ok(
        session,
        "upload_item",
        {
            "title": "Salomon XT-6 trainers",
            "description": "Worn twice.",
            "catalog": "Men > Shoes",
            "condition": "very_good",
            "price": "80",
            "color": "Black",
            "package_size": "medium",
            "brand": "Salomon",
            "size": "UK 9",
        },
    )
    assert item["item_state"] == "active" and item["brand_title"] == "Salomon" and item["user_login"] == "tomgrant"
    as_member(session, "marcus.b")
    found = ok(session, "search_items", {"brand": "Salomon"})["results"]
    assert [i["id"] for i in found] == [item["id"]]
