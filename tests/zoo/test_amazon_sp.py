"""The Amazon Selling Partner environment's tools on the real seed: signing in and marketplace participation,
listing status from issues, price and stock, submissions that are ACCEPTED or INVALID (and then change nothing),
restrictions, allowed price ranges, FBA quantity and deletion rules, shipment confirmation package by package,
cancellation, inbound shipment status moves and their inventory, the 30-day return window and refunds. Every error
path is checked to leave the state unchanged and to read like SP-API's."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("amazon_sp")
CLOCK = datetime(2025, 3, 14, 16, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
US, CA, MX = "ATVPDKIKX0DER", "A2EUQ1WTGCTBG2", "A1AM78C64UM0Y8"
SELLERS = {s["name"].split()[0]: s for s in SEED["sellers"]}

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, who: str = "Dana") -> Any:
    seller = SELLERS[who]
    return ok(session, "sign_in", {"email": seller["email"], "password": seller["password"]}, caller="user")


def order_of(buyer: str) -> dict[str, Any]:
    """The buyer's latest order (history has look-alike names)."""
    return max((o for o in SEED["orders"] if o["buyer_name"] == buyer), key=lambda o: o["purchase_date"])


def items_of(order_id: str) -> list[dict[str, Any]]:
    return [i for i in SEED["order_items"] if i["order_id"] == order_id]


def package(
    ref: str, items: list[tuple[str, int]], date: str = "2025-03-14T15:00:00Z", tracking: str = "1Z999AA10123456784"
) -> dict:
    return {
        "packageReferenceId": ref,
        "carrierCode": "UPS",
        "trackingNumber": tracking,
        "shipDate": date,
        "orderItems": [{"orderItemId": i, "quantity": q} for i, q in items],
    }


def listing(session: ToolSession, sku: str, mp: str = US) -> Any:
    return ok(session, "get_listings_item", {"sku": sku, "marketplaceIds": mp})


def unchanged_invalid(session: ToolSession, name: str, args: dict[str, Any], code: str) -> dict[str, Any]:
    """A submission that must come back INVALID with an issue of `code` and change nothing."""
    before = session.dump()
    out = ok(session, name, args)
    assert out["status"] == "INVALID", out
    assert code in [i["code"] for i in out["issues"]], out
    assert session.dump() == before
    return out


def fba(session: ToolSession, sku: str, mp: str = US) -> dict[str, Any]:
    out = ok(session, "get_inventory_summaries", {"marketplaceIds": mp, "sellerSkus": [sku], "details": True})
    return out["inventorySummaries"][0]["inventoryDetails"]


# ---------------------------------------------------------------- sign-in and marketplaces


def test_every_seller_call_needs_a_sign_in(session: ToolSession) -> None:
    fails(session, "get_orders", {"MarketplaceIds": US}, "PermissionDenied", "403 Unauthorized")
    fails(
        session,
        "sign_in",
        {"email": SELLERS["Dana"]["email"], "password": "nope"},
        "PermissionDenied",
        "incorrect",
        caller="user",
    )
    out = sign_in(session)
    assert {p["marketplace"]["id"] for p in out["payload"]} == {US, CA}


def test_sign_in_is_user_only(session: ToolSession) -> None:
    seller = SELLERS["Dana"]
    outcome = session.call("sign_in", {"email": seller["email"], "password": seller["password"]}, caller="agent")
    assert not outcome.ok


def test_a_marketplace_the_seller_does_not_sell_in_is_refused(session: ToolSession) -> None:
    sign_in(session, "Marco")
    fails(session, "search_listings_items", {"marketplaceIds": CA}, "PermissionDenied", "does not participate")


def test_another_sellers_order_is_not_found(session: ToolSession) -> None:
    sign_in(session, "Marco")
    fails(session, "get_order", {"orderId": order_of("Karen Holt")["id"]}, "NotFound", "404 NotFound")


# ---------------------------------------------------------------- listings


def test_status_needs_no_error_issue_a_price_and_stock(session: ToolSession) -> None:
    sign_in(session)
    assert listing(session, "JL-NAP4-SAGE")["summaries"][0]["status"] == ["BUYABLE", "DISCOVERABLE"]
    assert listing(session, "JL-NAP4-CHAR")["summaries"][0]["status"] == ["DISCOVERABLE"]  # no stock
    assert listing(session, "JL-CANDLE14-FIG")["summaries"][0]["status"] == []  # an ERROR issue
    assert listing(session, "JL-THROW-OAT-FBA")["summaries"][0]["status"] == ["DISCOVERABLE"]  # 0 fulfillable


def test_search_filters_by_issue_severity_and_status(session: ToolSession) -> None:
    sign_in(session)
    errors = ok(session, "search_listings_items", {"marketplaceIds": US, "withIssueSeverity": "ERROR"})
    assert {i["sku"] for i in errors["items"]} == {"JL-RUNNER90-IND", "JL-CANDLE14-FIG"}
    page = ok(session, "search_listings_items", {"marketplaceIds": US, "pageSize": 5})
    assert len(page["items"]) == 5 and page["pagination"]["nextToken"]
    rest = ok(
        session,
        "search_listings_items",
        {"marketplaceIds": US, "pageSize": 5, "pageToken": page["pagination"]["nextToken"]},
    )
    assert not {i["sku"] for i in rest["items"]} & {i["sku"] for i in page["items"]}


def test_fixing_an_attribute_clears_its_issue(session: ToolSession) -> None:
    sign_in(session)
    patch = [{"op": "replace", "path": "/attributes/brand", "value": [{"value": "Juniper Lane"}]}]
    out = ok(session, "patch_listings_item", {"sku": "JL-RUNNER90-IND", "marketplaceIds": US, "patches": patch})
    assert out["status"] == "ACCEPTED"
    after = listing(session, "JL-RUNNER90-IND")
    assert after["issues"] == [] and "BUYABLE" in after["summaries"][0]["status"]


def test_a_price_outside_the_allowed_range_is_invalid(session: ToolSession) -> None:
    sign_in(session)
    patch = [{"op": "replace", "path": "/attributes/purchasable_offer", "value": [{"our_price": 99.0}]}]
    unchanged_invalid(
        session, "patch_listings_item", {"sku": "JL-NAP4-SAGE", "marketplaceIds": US, "patches": patch}, "90244"
    )
    low = [{"op": "replace", "path": "/attributes/purchasable_offer", "value": [{"our_price": 5.0}]}]
    unchanged_invalid(
        session, "patch_listings_item", {"sku": "JL-NAP4-SAGE", "marketplaceIds": US, "patches": low}, "90244"
    )


def test_validation_preview_applies_nothing(session: ToolSession) -> None:
    sign_in(session)
    before = session.dump()
    patch = [{"op": "replace", "path": "/attributes/purchasable_offer", "value": [{"our_price": 34.0}]}]
    out = ok(
        session,
        "patch_listings_item",
        {"sku": "JL-CANDLE14-FIG", "marketplaceIds": US, "patches": patch, "mode": "VALIDATION_PREVIEW"},
    )
    assert out["status"] == "ACCEPTED" and session.dump() == before


def test_an_fba_sku_quantity_cannot_be_set(session: ToolSession) -> None:
    sign_in(session)
    patch = [{"op": "replace", "path": "/attributes/fulfillment_availability", "value": [{"quantity": 9}]}]
    unchanged_invalid(
        session, "patch_listings_item", {"sku": "JL-NAP4-SAGE-FBA", "marketplaceIds": US, "patches": patch}, "4000002"
    )


def test_removing_a_title_is_refused(session: ToolSession) -> None:
    sign_in(session)
    patch = [{"op": "delete", "path": "/attributes/item_name"}]
    unchanged_invalid(
        session, "patch_listings_item", {"sku": "JL-NAP4-SAGE", "marketplaceIds": US, "patches": patch}, "90220"
    )


def test_restricted_asins_cannot_be_listed(session: ToolSession) -> None:
    sign_in(session, "Marco")
    hydro = next(c["asin"] for c in SEED["catalog_items"] if c["title"].startswith("Hydro Flask 24"))
    reasons = ok(session, "get_listings_restrictions", {"asin": hydro, "marketplaceIds": US})["restrictions"]
    assert reasons[0]["reasons"][0]["reasonCode"] == "APPROVAL_REQUIRED"
    attributes = {"merchant_suggested_asin": hydro, "our_price": 39.0, "quantity": 3}
    unchanged_invalid(
        session,
        "put_listings_item",
        {
            "sku": "TH-HF24",
            "marketplaceIds": US,
            "productType": "SPORTING_GOODS",
            "requirements": "LISTING_OFFER_ONLY",
            "attributes": attributes,
        },
        "5665",
    )


def test_a_new_product_needs_a_title_and_brand(session: ToolSession) -> None:
    sign_in(session)
    args = {
        "sku": "JL-NEW",
        "marketplaceIds": US,
        "productType": "HOME",
        "attributes": {"item_name": "Tea towels", "our_price": 19.0},
    }
    unchanged_invalid(session, "put_listings_item", args, "90220")
    args["attributes"]["brand"] = "Juniper Lane"
    assert ok(session, "put_listings_item", args)["status"] == "ACCEPTED"
    assert listing(session, "JL-NEW")["summaries"][0]["asin"].startswith("B0")


def test_put_on_another_asin_for_an_existing_sku_conflicts(session: ToolSession) -> None:
    sign_in(session)
    other = next(c["asin"] for c in SEED["catalog_items"] if c["title"].startswith("Juniper Lane Linen Apron, Natural"))
    args = {
        "sku": "JL-NAP4-SAGE",
        "marketplaceIds": US,
        "productType": "HOME",
        "requirements": "LISTING_OFFER_ONLY",
        "attributes": {"merchant_suggested_asin": other, "our_price": 30.0},
    }
    unchanged_invalid(session, "put_listings_item", args, "8541")


def test_a_new_fba_listing_gets_an_inventory_record(session: ToolSession) -> None:
    sign_in(session)
    asin = next(c["asin"] for c in SEED["catalog_items"] if c["title"].startswith("Juniper Lane Linen Apron, Natural"))
    args = {
        "sku": "JL-APRON-NAT-FBA",
        "marketplaceIds": US,
        "productType": "HOME",
        "requirements": "LISTING_OFFER_ONLY",
        "attributes": {"merchant_suggested_asin": asin, "our_price": 32.0, "fulfillment_channel_code": "AMAZON_NA"},
    }
    assert ok(session, "put_listings_item", args)["status"] == "ACCEPTED"
    assert fba(session, "JL-APRON-NAT-FBA")["fulfillableQuantity"] == 0


def test_a_listing_with_units_at_amazon_cannot_be_deleted(session: ToolSession) -> None:
    sign_in(session)
    unchanged_invalid(session, "delete_listings_item", {"sku": "JL-MUG4-WHITE-FBA", "marketplaceIds": US}, "4000004")
    out = ok(session, "delete_listings_item", {"sku": "JL-NAP4-CHAR", "marketplaceIds": US})
    assert out["status"] == "ACCEPTED"
    fails(session, "get_listings_item", {"sku": "JL-NAP4-CHAR", "marketplaceIds": US}, "NotFound", "404 NotFound")


# ---------------------------------------------------------------- orders


def test_confirming_a_package_ships_its_units(session: ToolSession) -> None:
    sign_in(session)
    order = order_of("Karen Holt")
    nap, runner = sorted(items_of(order["id"]), key=lambda i: i["sku"])
    args = {"orderId": order["id"], "marketplaceId": US, "packageDetail": package("1", [(nap["id"], 2)])}
    assert ok(session, "confirm_shipment", args)["OrderStatus"] == "PartiallyShipped"
    args2 = {"orderId": order["id"], "marketplaceId": US, "packageDetail": package("2", [(runner["id"], 1)])}
    assert ok(session, "confirm_shipment", args2)["OrderStatus"] == "Shipped"
    assert len(ok(session, "get_order", {"orderId": order["id"]})["payload"]["Packages"]) == 2


def test_more_units_than_are_left_to_ship_are_refused(session: ToolSession) -> None:
    sign_in(session)
    order = order_of("Ben Okafor")
    throw = next(i for i in items_of(order["id"]) if i["sku"] == "JL-THROW-OAT")
    args = {"orderId": order["id"], "marketplaceId": US, "packageDetail": package("2", [(throw["id"], 1)])}
    fails(session, "confirm_shipment", args, "InvalidRequest", "0 unit(s) left to ship")


def test_the_same_package_reference_edits_the_tracking(session: ToolSession) -> None:
    sign_in(session)
    order = order_of("Claire Tremblay")
    item = items_of(order["id"])[0]["id"]
    args = {"orderId": order["id"], "marketplaceId": CA, "packageDetail": package("1", [(item, 1)])}
    ok(session, "confirm_shipment", args)
    args["packageDetail"]["trackingNumber"] = "1Z999AA10123456799"
    assert ok(session, "confirm_shipment", args)["edited"] is True
    packages = ok(session, "get_order", {"orderId": order["id"]})["payload"]["Packages"]
    assert [p["trackingNumber"] for p in packages] == ["1Z999AA10123456799"]


def test_ship_dates_must_fall_between_purchase_and_now(session: ToolSession) -> None:
    sign_in(session)
    order = order_of("Claire Tremblay")
    item = items_of(order["id"])[0]["id"]
    future = {
        "orderId": order["id"],
        "marketplaceId": CA,
        "packageDetail": package("1", [(item, 1)], "2025-03-20T10:00:00Z"),
    }
    fails(session, "confirm_shipment", future, "InvalidRequest", "future")
    early = {
        "orderId": order["id"],
        "marketplaceId": CA,
        "packageDetail": package("1", [(item, 1)], "2025-03-01T10:00:00Z"),
    }
    fails(session, "confirm_shipment", early, "InvalidRequest", "before the order's PurchaseDate")


def test_amazon_fulfilled_orders_are_not_confirmed_or_canceled_by_the_seller(session: ToolSession) -> None:
    sign_in(session, "Marco")
    order = order_of("Paul Dietrich")
    item = items_of(order["id"])[0]["id"]
    args = {"orderId": order["id"], "marketplaceId": US, "packageDetail": package("1", [(item, 1)])}
    fails(session, "confirm_shipment", args, "InvalidRequest", "fulfilled by Amazon")
    fails(session, "cancel_order", {"orderId": order["id"], "CancelReason": "NoInventory"}, "InvalidRequest", "Amazon")


def test_cancelling_restocks_and_shipped_orders_cannot_be_canceled(session: ToolSession) -> None:
    sign_in(session)
    before = listing(session, "JL-APRON-RUST")["fulfillmentAvailability"][0]["quantity"]
    order = order_of("Grace Lindqvist")
    out = ok(session, "cancel_order", {"orderId": order["id"], "CancelReason": "BuyerCanceled"})
    assert out["payload"]["OrderStatus"] == "Canceled"
    assert listing(session, "JL-APRON-RUST")["fulfillmentAvailability"][0]["quantity"] == before + 1
    shipped = order_of("Monica Feld")
    fails(
        session,
        "cancel_order",
        {"orderId": shipped["id"], "CancelReason": "BuyerCanceled"},
        "InvalidRequest",
        "Shipped",
    )


# ---------------------------------------------------------------- FBA inbound


def test_inbound_shipment_moves_units_from_working_to_shipped(session: ToolSession) -> None:
    sign_in(session)
    created = ok(
        session,
        "create_inbound_shipment",
        {
            "MarketplaceId": US,
            "ShipmentName": "Test",
            "InboundShipmentItems": [{"SellerSKU": "JL-WRAPS3-FBA", "QuantityShipped": 30}],
        },
    )["payload"]
    assert created["ShipmentId"].startswith("FBA15") and len(created["ShipmentId"]) == 12
    assert fba(session, "JL-WRAPS3-FBA")["inboundWorkingQuantity"] == 30
    ok(session, "update_inbound_shipment", {"ShipmentId": created["ShipmentId"], "ShipmentStatus": "SHIPPED"})
    details = fba(session, "JL-WRAPS3-FBA")
    assert (details["inboundWorkingQuantity"], details["inboundShippedQuantity"]) == (0, 30)
    ok(session, "update_inbound_shipment", {"ShipmentId": created["ShipmentId"], "ShipmentStatus": "CANCELLED"})
    assert fba(session, "JL-WRAPS3-FBA")["inboundShippedQuantity"] == 0


def test_only_clean_fba_skus_go_inbound(session: ToolSession) -> None:
    sign_in(session)
    mfn = {
        "MarketplaceId": US,
        "ShipmentName": "x",
        "InboundShipmentItems": [{"SellerSKU": "JL-WRAPS3", "QuantityShipped": 5}],
    }
    fails(session, "create_inbound_shipment", mfn, "InvalidRequest", "merchant-fulfilled")
    twice = {
        "MarketplaceId": US,
        "ShipmentName": "x",
        "InboundShipmentItems": [
            {"SellerSKU": "JL-WRAPS3-FBA", "QuantityShipped": 5},
            {"SellerSKU": "JL-WRAPS3-FBA", "QuantityShipped": 5},
        ],
    }
    fails(session, "create_inbound_shipment", twice, "InvalidRequest", "only once")


def test_items_change_only_while_working_and_receiving_cannot_be_cancelled(session: ToolSession) -> None:
    sign_in(session)
    shipped = next(s["id"] for s in SEED["inbound_shipments"] if s["name"] == "Candles for spring")
    items = [{"SellerSKU": "JL-CANDLE8-FIG-FBA", "QuantityShipped": 10}]
    fails(
        session,
        "update_inbound_shipment",
        {"ShipmentId": shipped, "ShipmentStatus": "SHIPPED", "InboundShipmentItems": items},
        "Conflict",
        "only change while WORKING",
    )
    receiving = next(s["id"] for s in SEED["inbound_shipments"] if s["name"] == "Basket top-up")
    fails(
        session,
        "update_inbound_shipment",
        {"ShipmentId": receiving, "ShipmentStatus": "CANCELLED"},
        "Conflict",
        "RECEIVING",
    )


def test_another_sellers_shipment_is_not_found(session: ToolSession) -> None:
    sign_in(session, "Priya")
    theirs = next(s["id"] for s in SEED["inbound_shipments"] if s["name"] == "Spring tents")
    fails(session, "get_shipment_items", {"ShipmentId": theirs}, "NotFound", "404 NotFound")


# ---------------------------------------------------------------- returns and refunds


def returns_of(buyer: str) -> dict[str, Any]:
    order = order_of(buyer)
    return next(r for r in SEED["returns"] if r["order_id"] == order["id"])


def test_returns_inside_the_window_cannot_be_declined(session: ToolSession) -> None:
    sign_in(session)
    inside = returns_of("Monica Feld")["id"]
    fails(
        session,
        "decide_return_request",
        {"returnRequestId": inside, "decision": "DECLINE", "declineReason": "OUTSIDE_RETURN_WINDOW"},
        "InvalidRequest",
        "30-day return window",
    )
    out = ok(session, "decide_return_request", {"returnRequestId": inside, "decision": "AUTHORIZE"})
    assert out["status"] == "AUTHORIZED" and out["rmaId"]
    fails(
        session, "decide_return_request", {"returnRequestId": inside, "decision": "AUTHORIZE"}, "Conflict", "AUTHORIZED"
    )


def test_late_returns_can_be_declined_with_a_reason(session: ToolSession) -> None:
    sign_in(session)
    late = returns_of("Owen Park")["id"]
    fails(
        session,
        "decide_return_request",
        {"returnRequestId": late, "decision": "DECLINE"},
        "InvalidRequest",
        "declineReason",
    )
    out = ok(
        session,
        "decide_return_request",
        {"returnRequestId": late, "decision": "DECLINE", "declineReason": "OUTSIDE_RETURN_WINDOW"},
    )
    assert out["status"] == "DECLINED"


def test_customer_return_refunds_need_the_return_received(session: ToolSession) -> None:
    sign_in(session, "Priya")
    yara = order_of("Yara Haddad")
    item = items_of(yara["id"])[0]["id"]
    authorized = returns_of("Yara Haddad")["id"]
    fails(
        session,
        "issue_refund",
        {
            "orderId": yara["id"],
            "orderItemId": item,
            "quantity": 1,
            "adjustmentReason": "CustomerReturn",
            "returnRequestId": authorized,
        },
        "InvalidRequest",
        "RECEIVED",
    )
    wendy = order_of("Wendy Cho")
    received = returns_of("Wendy Cho")["id"]
    out = ok(
        session,
        "issue_refund",
        {
            "orderId": wendy["id"],
            "orderItemId": items_of(wendy["id"])[0]["id"],
            "quantity": 1,
            "adjustmentReason": "CustomerReturn",
            "returnRequestId": received,
        },
    )
    assert out["amount"] == {"CurrencyCode": "USD", "Amount": "15.99"}
    statuses = ok(session, "list_return_requests", {"marketplaceId": US, "amazonOrderId": wendy["id"]})[
        "returnRequests"
    ]
    assert statuses[0]["status"] == "CLOSED"


def test_refunds_never_exceed_shipped_unrefunded_units(session: ToolSession) -> None:
    sign_in(session)
    olivia = next(o for o in SEED["orders"] if o["buyer_name"] == "Olivia Kim")
    candle = next(i for i in items_of(olivia["id"]) if i["sku"] == "JL-CANDLE8-FIG")
    args = {
        "orderId": olivia["id"],
        "orderItemId": candle["id"],
        "quantity": 3,
        "adjustmentReason": "GeneralAdjustment",
    }
    ok(session, "issue_refund", args)
    args["quantity"] = 1
    fails(session, "issue_refund", args, "InvalidRequest", "0 shipped unit(s) left to refund")
    karen = order_of("Karen Holt")
    unshipped = items_of(karen["id"])[0]["id"]
    fails(
        session,
        "issue_refund",
        {"orderId": karen["id"], "orderItemId": unshipped, "quantity": 1, "adjustmentReason": "GeneralAdjustment"},
        "InvalidRequest",
        "cancel the order instead",
    )


def test_patching_an_attribute_leaves_other_issues_alone(session: ToolSession) -> None:
    sign_in(session, "Priya")
    patch = [{"op": "replace", "path": "/attributes/brand", "value": [{"value": "Brightleaf"}]}]
    ok(session, "patch_listings_item", {"sku": "BL-KICKER", "marketplaceIds": MX, "patches": patch})
    after = listing(session, "BL-KICKER", MX)
    assert [i["code"] for i in after["issues"]] == ["5461"] and after["summaries"][0]["status"] == []
