"""The Etsy environment's tools on the real seed: sign-in and shop ownership, listing search, the listing state
machine (what activation needs, the $0.20 listing and renewal fees, free reactivation within the term,
deactivation), the vintage rule, inventory replacement (properties, price_on_property, sold out at zero), images
(the 10-image limit, an active listing keeps one, ranks), sections, shipping profiles, destinations and upgrades,
shipments (paid and open orders only, no duplicate tracking) and refunds (what is left, the 180-day window, notes).
Every error path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("etsy")
CLOCK = datetime(2026, 3, 16, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
TOKEN = {t["user_id"]: t["access_token"] for t in SEED["tokens"]}
MARISOL, OWEN = 71523908, 80331117
J, B, S = 38112745, 40229381, 29874410
LISTING = {row["title"]: row["listing_id"] for row in SEED["listings"]}
PROFILE = {row["title"]: row["shipping_profile_id"] for row in SEED["shipping_profiles"]}

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, user: int = MARISOL) -> dict[str, Any]:
    return ok(session, "sign_in", {"access_token": TOKEN[user]}, caller="user")


def receipt_of(name: str, shop: int, **equals: Any) -> dict[str, Any]:
    (found,) = [
        r
        for r in SEED["receipts"]
        if r["name"] == name and r["shop_id"] == shop and all(r[k] == v for k, v in equals.items())
    ]
    return found


def fees(session: ToolSession, shop: int = J) -> list[dict[str, Any]]:
    """The shop's ledger, newest first (one page: enough to see what a test just added)."""
    return ok(session, "get_ledger_entries", {"shop_id": shop, "limit": 10})["results"]


def fee_count(session: ToolSession, shop: int = J) -> int:
    return int(ok(session, "get_ledger_entries", {"shop_id": shop, "limit": 1})["count"])


def draft(session: ToolSession, **extra: Any) -> dict[str, Any]:
    args = {
        "shop_id": J,
        "title": "Test Tumbler",
        "description": "A tumbler.",
        "price": 30,
        "quantity": 2,
        "who_made": "i_did",
        "when_made": "made_to_order",
        "taxonomy_id": 1069,
        **extra,
    }
    return ok(session, "create_draft_listing", args)


# ---------------------------------------------------------------- signing in and ownership


def test_sign_in_is_the_users_and_only_owners_act_on_a_shop(session):
    fails(session, "get_me", {}, "PermissionDenied", "invalid_token")
    outcome = session.call("sign_in", {"access_token": TOKEN[MARISOL]})
    assert not outcome.ok and outcome.error_kind == "user_only"
    fails(session, "sign_in", {"access_token": "71523908.nope"}, "PermissionDenied", "not valid", caller="user")
    me = sign_in(session)
    assert [s["shop_name"] for s in me["shops"]] == ["JuniperClayStudio"]
    fails(session, "find_shop_listings", {"shop_id": B}, "PermissionDenied", "does not own shop 40229381")
    fails(session, "get_shop_receipts", {"shop_id": S}, "PermissionDenied", "does not own")
    fails(session, "get_shop_sections", {"shop_id": 1}, "NotFound", "Could not find a shop")
    owens = LISTING["Merino Baby Blanket"]
    fails(
        session,
        "update_listing",
        {"shop_id": J, "listing_id": owens, "title": "Mine"},
        "PermissionDenied",
        "does not belong",
    )


def test_other_shops_listings_are_visible_only_while_active(session):
    sign_in(session)
    assert ok(session, "get_listing", {"listing_id": LISTING["Handwoven Merino Scarf - Moss"]})["state"] == "active"
    fails(session, "get_listing", {"listing_id": LISTING["Merino Baby Blanket"]}, "NotFound", "not found")
    assert ok(session, "get_listing", {"listing_id": LISTING["Lidded Sugar Jar - Sage"]})["state"] == "draft"


# ---------------------------------------------------------------- reading listings, receipts, reviews


def test_find_shop_listings_filters_by_state_keywords_and_section_and_pages(session):
    sign_in(session)
    drafts = ok(session, "find_shop_listings", {"shop_id": J, "state": "draft"})
    assert drafts["count"] == 4 and {r["state"] for r in drafts["results"]} == {"draft"}
    mugs = ok(
        session,
        "find_shop_listings",
        {"shop_id": J, "keywords": "12 oz glaze", "sort_on": "title", "sort_order": "asc"},
    )
    titles = [r["title"] for r in mugs["results"]]
    assert titles == sorted(titles) and len(titles) == 6
    vases = [s for s in SEED["shop_sections"] if s["shop_id"] == J and s["title"] == "Vases"][0]["shop_section_id"]
    in_vases = ok(session, "find_shop_listings", {"shop_id": J, "shop_section_id": vases})["results"]
    assert {r["title"] for r in in_vases} == {"Bud Vase Trio", "Moon Jar Vase - White Crackle"}
    first = ok(session, "find_shop_listings", {"shop_id": J, "limit": 2})
    second = ok(session, "find_shop_listings", {"shop_id": J, "limit": 2, "offset": 2})
    assert first["count"] == second["count"] > 4
    assert not {r["listing_id"] for r in first["results"]} & {r["listing_id"] for r in second["results"]}
    fails(session, "find_shop_listings", {"shop_id": J, "limit": 101}, "invalid_arguments", "limit")


def test_receipts_filter_by_shipping_and_show_items_shipments_and_refunds(session):
    sign_in(session)
    open_orders = ok(session, "get_shop_receipts", {"shop_id": J, "was_paid": True, "was_shipped": False, "limit": 100})
    assert open_orders["count"] == 10 and all(not r["is_shipped"] for r in open_orders["results"])
    stamps = [r["create_timestamp"] for r in open_orders["results"]]
    assert stamps == sorted(stamps, reverse=True)
    canceled = ok(session, "get_shop_receipts", {"shop_id": J, "was_canceled": True})
    assert [r["status"] for r in canceled["results"]] == ["Canceled"]
    (refunded,) = [r for r in SEED["receipts"] if r["shop_id"] == J and r["status"] == "Partially Refunded"]
    full = ok(session, "get_shop_receipt", {"shop_id": J, "receipt_id": refunded["receipt_id"]})
    assert full["refunded_amount"]["amount"] == 1500 and full["refunds"][0]["reason"] == "item_damaged"
    assert full["shipments"] and full["transactions"][0]["title"] == "Nesting Prep Bowls Set of 3"
    other = receipt_of("Chloe Kim", B, is_shipped=False)
    fails(
        session, "get_shop_receipt", {"shop_id": J, "receipt_id": other["receipt_id"]}, "NotFound", "not found in shop"
    )


def test_reviews_filter_by_listing_and_rating(session):
    sign_in(session)
    low = ok(session, "get_reviews_by_shop", {"shop_id": J, "max_rating": 2, "limit": 100})["results"]
    assert low and all(r["rating"] <= 2 for r in low)
    mug = LISTING["Stoneware Mug 16 oz - Choose Your Glaze"]
    assert all(
        r["listing_id"] == mug for r in ok(session, "get_reviews_by_shop", {"shop_id": J, "listing_id": mug})["results"]
    )


# ---------------------------------------------------------------- drafts, activation, fees


def test_a_draft_needs_a_shipping_profile_an_image_and_stock_to_go_active(session):
    sign_in(session)
    listing = draft(session)
    key = listing["listing_id"]
    assert listing["state"] == "draft" and listing["ending_timestamp"] is None
    activate = {"shop_id": J, "listing_id": key, "state": "active"}
    fails(session, "update_listing", activate, "Conflict", "needs a shipping_profile_id")
    ok(session, "update_listing", {"shop_id": J, "listing_id": key, "shipping_profile_id": PROFILE["Small ceramics"]})
    fails(session, "update_listing", activate, "Conflict", "at least one image")
    ok(session, "upload_listing_image", {"shop_id": J, "listing_id": key, "file_name": "tumbler.jpg"})
    before = fee_count(session)
    live = ok(session, "update_listing", activate)
    assert live["state"] == "active" and live["ending_timestamp"].startswith("2026-07-16")
    ledger = fees(session)
    assert (
        fee_count(session) == before + 1
        and ledger[0]["description"] == "listing"
        and ledger[0]["amount"]["amount"] == -20
    )
    fails(session, "update_listing", activate, "Conflict", "already active")


def test_renewing_costs_the_fee_and_reactivating_within_the_term_is_free(session):
    sign_in(session)
    seafoam, cereal = LISTING["Bottle Vase - Seafoam"], LISTING["Cereal Bowl - Honey"]
    before = fee_count(session)
    ok(session, "update_listing", {"shop_id": J, "listing_id": cereal, "state": "active"})
    assert fee_count(session) == before
    renewed = ok(session, "update_listing", {"shop_id": J, "listing_id": seafoam, "state": "active"})
    assert renewed["ending_timestamp"] > "2026-07-01" and fees(session)[0]["description"] == "renew_expired"
    empty = LISTING["Bottle Vase - Rust"]
    fails(
        session,
        "update_listing",
        {"shop_id": J, "listing_id": empty, "state": "active"},
        "Conflict",
        "quantity of at least 1",
    )


def test_only_active_listings_deactivate_and_sold_out_needs_stock_to_renew(session):
    sign_in(session)
    jar = LISTING["Lidded Sugar Jar - Sage"]
    fails(
        session,
        "update_listing",
        {"shop_id": J, "listing_id": jar, "state": "inactive"},
        "Conflict",
        "Only an active listing",
    )
    fails(session, "update_listing", {"shop_id": J, "listing_id": jar, "state": "draft"}, "invalid_arguments", "state")
    sold = LISTING["Soap Dish with Drain - Celadon"]
    fails(session, "update_listing", {"shop_id": J, "listing_id": sold, "state": "active"}, "Conflict", "quantity")
    ok(
        session,
        "update_listing_inventory",
        {"shop_id": J, "listing_id": sold, "products": [{"price": 26, "quantity": 2}]},
    )
    assert ok(session, "get_listing", {"listing_id": sold})["state"] == "sold_out"
    ok(session, "update_listing", {"shop_id": J, "listing_id": sold, "state": "active"})
    assert fees(session)[0]["description"] == "renew_sold"
    fails(session, "update_listing", {"shop_id": J, "listing_id": sold}, "InvalidRequest", "Nothing to update")


def test_items_made_by_someone_else_must_be_vintage_or_supplies(session):
    sign_in(session)
    recent = {"who_made": "someone_else", "when_made": "2020_2026"}
    fails(session, "create_draft_listing", {**_draft_args(), **recent}, "InvalidRequest", "must be vintage")
    assert draft(session, who_made="someone_else", when_made="1970s")["who_made"] == "someone_else"
    assert draft(session, is_supply=True, **recent)["is_supply"] is True
    pitcher = LISTING["Vintage Studio Pottery Pitcher"]
    fails(
        session,
        "update_listing",
        {"shop_id": J, "listing_id": pitcher, "when_made": "2010_2019"},
        "InvalidRequest",
        "vintage",
    )


def _draft_args() -> dict[str, Any]:
    return {"shop_id": J, "title": "T", "description": "D", "price": 30, "quantity": 2, "taxonomy_id": 1069}


def test_listing_values_are_bounded_in_their_types(session):
    sign_in(session)
    base = {**_draft_args(), "who_made": "i_did", "when_made": "made_to_order"}
    fails(session, "create_draft_listing", {**base, "price": 0.1}, "invalid_arguments", "0.20 and 50000.00")
    fails(session, "create_draft_listing", {**base, "quantity": 1000}, "invalid_arguments", "between 1 and 999")
    fails(session, "create_draft_listing", {**base, "title": "x" * 141}, "invalid_arguments", "1 to 140")
    fails(
        session,
        "create_draft_listing",
        {**base, "tags": [f"tag{i}" for i in range(14)]},
        "invalid_arguments",
        "13 tags",
    )
    fails(session, "create_draft_listing", {**base, "tags": ["way too long a tag for etsy"]}, "invalid_arguments", "20")
    fails(
        session,
        "create_draft_listing",
        {**base, "shipping_profile_id": PROFILE["Flat textiles"]},
        "NotFound",
        "Shipping profile",
    )


def test_delete_listing_refuses_one_with_sales(session):
    sign_in(session)
    sold = LISTING["Bud Vase Trio"]
    fails(session, "delete_listing", {"shop_id": J, "listing_id": sold}, "Conflict", "has sales")
    juicer = LISTING["Citrus Juicer - Honey"]
    ok(session, "delete_listing", {"shop_id": J, "listing_id": juicer})
    fails(session, "get_listing", {"listing_id": juicer}, "NotFound", "not found")
    with_images = ok(session, "find_shop_listings", {"shop_id": J, "state": "draft"})["results"]
    assert juicer not in [r["listing_id"] for r in with_images]


# ---------------------------------------------------------------- inventory


def test_inventory_is_replaced_whole_and_prices_vary_only_by_named_properties(session):
    sign_in(session)
    mug = LISTING["Stoneware Mug 16 oz - Choose Your Glaze"]
    glazes = [("Sage", 44, 4), ("Rust", 48, 2)]
    products = [
        {"property_values": [{"property_name": "Glaze", "value": g}], "price": p, "quantity": q} for g, p, q in glazes
    ]
    args = {"shop_id": J, "listing_id": mug, "products": products, "quantity_on_property": ["Glaze"]}
    fails(session, "update_listing_inventory", args, "InvalidRequest", "price_on_property must name")
    fails(
        session, "update_listing_inventory", {**args, "price_on_property": ["Size"]}, "InvalidRequest", "not a property"
    )
    sage = [
        p for p in SEED["listing_products"] if p["listing_id"] == mug and p["property_values"][0]["value"] == "Sage"
    ][0]
    inventory = ok(session, "update_listing_inventory", {**args, "price_on_property": ["Glaze"]})
    assert [p["property_values"][0]["value"] for p in inventory["products"]] == ["Sage", "Rust"]
    assert inventory["products"][0]["product_id"] == sage["product_id"]
    listing = ok(session, "get_listing", {"listing_id": mug})
    assert listing["quantity"] == 6 and listing["price"]["amount"] == 4400


def test_inventory_rejects_mixed_properties_duplicates_and_nothing_enabled(session):
    sign_in(session)
    key = LISTING["Spoon Rest - Charcoal"]

    def product(value: str | None, **extra: Any) -> dict[str, Any]:
        values = [{"property_name": "Color", "value": value}] if value else []
        return {"property_values": values, "price": 24, "quantity": 1, **extra}

    cases = [
        ([product("Red"), product(None)], "same properties"),
        ([product("Red"), product("red")], "same property values"),
        ([product(None, is_enabled=False)], "at least one offering"),
    ]
    for products, text in cases:
        fails(
            session,
            "update_listing_inventory",
            {"shop_id": J, "listing_id": key, "products": products},
            "InvalidRequest",
            text,
        )
    fails(
        session,
        "update_listing_inventory",
        {"shop_id": J, "listing_id": key, "products": []},
        "invalid_arguments",
        "products",
    )


def test_an_active_listing_with_no_stock_left_is_sold_out(session):
    sign_in(session)
    key = LISTING["Oil Cruet - Midnight Blue"]
    ok(
        session,
        "update_listing_inventory",
        {"shop_id": J, "listing_id": key, "products": [{"price": 42, "quantity": 0}]},
    )
    assert ok(session, "get_listing", {"listing_id": key})["state"] == "sold_out"


# ---------------------------------------------------------------- images


def test_images_are_ranked_limited_to_ten_and_an_active_listing_keeps_one(session):
    sign_in(session)
    full = LISTING["Ring Dish - Speckled Oat"]
    fails(
        session,
        "upload_listing_image",
        {"shop_id": J, "listing_id": full, "file_name": "x.jpg"},
        "Conflict",
        "10 images",
    )
    fails(
        session,
        "upload_listing_image",
        {"shop_id": J, "listing_id": full, "file_name": "x.bmp"},
        "invalid_arguments",
        "file_name",
    )
    mug = LISTING["Stoneware Mug 12 oz - Sage Glaze"]
    listing = ok(
        session, "upload_listing_image", {"shop_id": J, "listing_id": mug, "file_name": "front.jpg", "rank": 1}
    )
    assert listing["images"][0]["url_fullxfull"].endswith("front.jpg") and [i["rank"] for i in listing["images"]] == [
        1,
        2,
        3,
        4,
    ]
    ids = [i["listing_image_id"] for i in listing["images"]]
    after = ok(session, "delete_listing_image", {"shop_id": J, "listing_id": mug, "listing_image_id": ids[1]})
    assert [i["listing_image_id"] for i in after["images"]] == [ids[0], *ids[2:]] and after["images"][-1]["rank"] == 3
    fails(
        session,
        "delete_listing_image",
        {"shop_id": J, "listing_id": mug, "listing_image_id": ids[1]},
        "InvalidRequest",
        "not an image",
    )
    juicer = LISTING["Citrus Juicer - Honey"]
    only = ok(session, "get_listing", {"listing_id": juicer})["images"][0]["listing_image_id"]
    ok(session, "update_listing", {"shop_id": J, "listing_id": juicer, "state": "active"})
    fails(
        session,
        "delete_listing_image",
        {"shop_id": J, "listing_id": juicer, "listing_image_id": only},
        "Conflict",
        "at least one image",
    )


# ---------------------------------------------------------------- sections and shipping


def test_sections_are_unique_per_shop_and_short(session):
    sign_in(session)
    made = ok(session, "create_shop_section", {"shop_id": J, "title": "Gift Sets"})
    assert made["rank"] == 6 and made["active_listing_count"] == 0
    fails(session, "create_shop_section", {"shop_id": J, "title": "gift sets"}, "Conflict", "already exists")
    fails(session, "create_shop_section", {"shop_id": J, "title": "x" * 25}, "invalid_arguments", "1 to 24")
    fails(
        session,
        "update_listing",
        {"shop_id": J, "listing_id": LISTING["Bud Vase Trio"], "shop_section_id": 41200022 + 999},
        "NotFound",
        "Shop section",
    )


def test_shipping_profiles_destinations_and_upgrades_follow_etsys_rules(session):
    sign_in(session)
    base = {
        "shop_id": J,
        "title": "Tiles",
        "origin_country_iso": "US",
        "origin_postal_code": "97214",
        "min_processing_days": 5,
        "max_processing_days": 2,
        "primary_cost": 5,
        "secondary_cost": 1,
        "destination_country_iso": "US",
    }
    fails(session, "create_shipping_profile", base, "InvalidRequest", "min_processing_days")
    fails(
        session,
        "create_shipping_profile",
        {**base, "max_processing_days": 6, "destination_region": "eu"},
        "InvalidRequest",
        "either",
    )
    profile = ok(session, "create_shipping_profile", {**base, "max_processing_days": 6})
    key = profile["shipping_profile_id"]
    assert profile["shipping_profile_destinations"][0]["primary_cost"]["amount"] == 500
    dest = {"shop_id": J, "shipping_profile_id": key, "primary_cost": 9, "secondary_cost": 2}
    fails(
        session,
        "create_shipping_profile_destination",
        {**dest, "destination_country_iso": "US"},
        "Conflict",
        "already has a destination",
    )
    assert (
        ok(session, "create_shipping_profile_destination", {**dest, "destination_region": "eu"})["destination_region"]
        == "eu"
    )
    upgrade = {
        "shop_id": J,
        "shipping_profile_id": key,
        "type": "0",
        "upgrade_name": "Priority",
        "price": 8,
        "secondary_price": 2,
    }
    ok(session, "create_shipping_profile_upgrade", upgrade)
    fails(
        session,
        "create_shipping_profile_upgrade",
        {**upgrade, "upgrade_name": "priority"},
        "Conflict",
        "already has an upgrade",
    )
    assert ok(session, "create_shipping_profile_upgrade", {**upgrade, "type": "1"})["type"] == "1"
    owens = PROFILE["Flat textiles"]
    fails(
        session,
        "create_shipping_profile_destination",
        {**dest, "shipping_profile_id": owens, "destination_country_iso": "MX"},
        "NotFound",
        "not found in shop",
    )


def test_updating_a_destination_changes_only_what_is_given(session):
    sign_in(session)
    small = PROFILE["Small ceramics"]
    us = [
        d
        for d in SEED["shipping_destinations"]
        if d["shipping_profile_id"] == small and d["destination_country_iso"] == "US"
    ][0]
    args = {
        "shop_id": J,
        "shipping_profile_id": small,
        "shipping_profile_destination_id": us["shipping_profile_destination_id"],
    }
    changed = ok(session, "update_shipping_profile_destination", {**args, "primary_cost": 7.45})
    assert changed["primary_cost"]["amount"] == 745 and changed["secondary_cost"]["amount"] == us["secondary_cost"]
    fails(session, "update_shipping_profile_destination", args, "InvalidRequest", "Nothing to update")
    wrong = {**args, "shipping_profile_id": PROFILE["Large & fragile"], "primary_cost": 1}
    fails(session, "update_shipping_profile_destination", wrong, "NotFound", "Destination")


# ---------------------------------------------------------------- shipments and refunds


def test_shipping_a_paid_order_completes_it_once_per_tracking_code(session):
    sign_in(session)
    order = receipt_of("Emma Clark", J, is_shipped=False)["receipt_id"]
    args = {"shop_id": J, "receipt_id": order, "tracking_code": "9400111206213859402715", "carrier_name": "usps"}
    shipped = ok(session, "create_receipt_shipment", args)
    assert shipped["is_shipped"] and shipped["status"] == "Completed" and len(shipped["shipments"]) == 1
    fails(session, "create_receipt_shipment", args, "Conflict", "already on receipt")
    canceled = receipt_of("Jack Brennan", J, status="Canceled")["receipt_id"]
    fails(session, "create_receipt_shipment", {**args, "receipt_id": canceled}, "Conflict", "not paid")
    fails(session, "create_receipt_shipment", {**args, "tracking_code": "12-34"}, "invalid_arguments", "8 to 40")
    fails(session, "create_receipt_shipment", {**args, "carrier_name": "pigeon"}, "invalid_arguments", "carrier_name")


def test_refunds_are_bounded_by_what_is_left_and_set_the_status(session):
    sign_in(session)
    order = receipt_of("Leah Nguyen", J, is_shipped=False)
    args = {"shop_id": J, "receipt_id": order["receipt_id"], "reason": "shipping_adjustment"}
    too_much = order["grandtotal"] / 100 + 0.01
    fails(session, "issue_refund", {**args, "amount": too_much}, "InvalidRequest", "is left to refund")
    fails(session, "issue_refund", {**args, "amount": 5, "reason": "other"}, "InvalidRequest", "needs a note")
    part = ok(session, "issue_refund", {**args, "amount": 5})
    assert part["status"] == "Partially Refunded" and part["refunded_amount"]["amount"] == 500
    assert fees(session)[0]["description"] == "refund" and fees(session)[0]["amount"]["amount"] == -500
    rest = ok(session, "issue_refund", {**args, "amount": (order["grandtotal"] - 500) / 100})
    assert rest["status"] == "Fully Refunded"
    fails(session, "issue_refund", {**args, "amount": 1}, "Conflict", "cannot be refunded")
    fails(
        session,
        "create_receipt_shipment",
        {
            "shop_id": J,
            "receipt_id": order["receipt_id"],
            "tracking_code": "94001112062138594027",
            "carrier_name": "usps",
        },
        "Conflict",
        "Fully Refunded",
    )


def test_refunds_close_180_days_after_the_sale(session):
    sign_in(session)
    old = min(
        (r for r in SEED["receipts"] if r["shop_id"] == J and r["status"] == "Completed"),
        key=lambda r: r["create_timestamp"],
    )
    assert old["create_timestamp"] < "2025-09-17"
    fails(
        session,
        "issue_refund",
        {"shop_id": J, "receipt_id": old["receipt_id"], "amount": 1, "reason": "item_damaged"},
        "Conflict",
        "180 days",
    )


def test_tags_replace_the_old_ones_without_repeats_in_alphabetical_order(session):
    sign_in(session)
    key = LISTING["Spoon Rest - Charcoal"]
    listing = ok(
        session, "update_listing", {"shop_id": J, "listing_id": key, "tags": ["spoon rest", "Kitchen", "kitchen "]}
    )
    assert listing["tags"] == ["kitchen", "spoon rest"]
    assert ok(session, "get_listing", {"listing_id": key})["materials"] == ["stoneware"]
