"""Walmart Marketplace's business rules, each with a test that can fail: sign-in by client credentials and a seller
who sees only their own items and orders; items by SKU, GTIN or item id; prices refused on retired items;
promotional price windows (four hours' lead, end after start, 180 days, no overlap, ten per item, sale under
comparison, no deleting within four hours of the start); inventory per ship node (never below reserved, no inactive
node); the order line state machine (acknowledge before shipping, carrier-shaped tracking, four-hour tracking fixes,
no cancelling shipped lines, out-of-stock cancellations zeroing the node); refunds (negative, shipped lines only,
never above the charge); return refunds by line; and failures that change nothing."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("walmart")
NOW = datetime(2026, 3, 10, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
CEDAR = {"client_id": "cedarpine-7f3a91c2", "client_secret": "Cp!wm-Sec-2026"}

session = session_fixture(SPEC, NOW)


def signed_in(session: ToolSession) -> ToolSession:
    ok(session, "sign_in", CEDAR, caller="user")
    return session


def node_qty(session: ToolSession, sku: str, node: str) -> dict[str, Any]:
    nodes = ok(session, "get_inventory", {"sku": sku})["nodes"]
    return next(n for n in nodes if n["ship_node"] == node)


def line(order: dict[str, Any], number: int) -> dict[str, Any]:
    return next(item for item in order["lines"] if item["line_number"] == number)


def ship(session: ToolSession, po: str, lines: list[int], carrier: str, number: str) -> dict[str, Any]:
    args = {"purchase_order_id": po, "line_numbers": lines, "carrier": carrier, "tracking_number": number}
    return ok(session, "ship_order_lines", args)


# ---------------------------------------------------------------- sign-in and scope


def test_every_call_needs_a_signed_in_seller_and_sign_in_is_user_only(session):
    fails(session, "list_items", {}, "PermissionDenied", "UNAUTHORIZED")
    fails(session, "sign_in", CEDAR, "user_only", "ask the user")
    fails(session, "sign_in", {**CEDAR, "client_secret": "nope"}, "PermissionDenied", "invalid client", caller="user")
    nodes = ok(session, "sign_in", CEDAR, caller="user")
    assert {n["ship_node"] for n in nodes} == {"721403", "721407", "721408", "721409"}


def test_another_sellers_items_orders_and_ship_nodes_are_out_of_reach(session):
    signed_in(session)
    other_order = next(o for o in SEED["orders"] if o["partner_id"] != "10001482266")
    fails(session, "get_item", {"id": "NF-TNT-2P-2P"}, "NotFound", "CONTENT_NOT_FOUND: Item not found")
    fails(session, "get_order", {"purchase_order_id": other_order["purchase_order_id"]}, "NotFound", "No order found")
    update = {"sku": "CP-TWL-WFL-SG2", "nodes": [{"ship_node": "730115", "amount": 5}]}
    fails(session, "update_inventory", update, "NotFound", "not one of your fulfillment centers")
    assert not any(i["sku"].startswith("NF-") for i in ok(session, "list_items", {"page_size": 50})["results"])


# ---------------------------------------------------------------- items and prices


def test_items_are_found_by_sku_gtin_or_item_id_and_filtered_by_status(session):
    signed_in(session)
    seed = next(i for i in SEED["items"] if i["sku"] == "CP-CUT-BRD-L")
    assert ok(session, "get_item", {"id": seed["gtin"], "product_id_type": "GTIN"})["sku"] == "CP-CUT-BRD-L"
    assert ok(session, "get_item", {"id": seed["item_id"], "product_id_type": "ITEM_ID"})["sku"] == "CP-CUT-BRD-L"
    unpublished = ok(session, "list_items", {"published_status": "UNPUBLISHED", "page_size": 50})["results"]
    assert {"CP-TWL-WFL-CH2", "CP-CDL-SOY-LAV", "CP-DUV-LIN-Q-RST"} <= {i["sku"] for i in unpublished}
    retired = ok(session, "list_items", {"lifecycle_status": "RETIRED"})["results"]
    assert {i["sku"] for i in retired} == {"CP-SHT-LIN-F-OAT", "CP-DUV-LIN-Q-RST", "CP-MUG-STN-4-BLU"}
    towels = ok(session, "list_items", {"query": "waffle sage"})["results"]
    assert [i["sku"] for i in towels] == ["CP-TWL-WFL-SG2", "CP-TWL-WFL-SG4"]


def test_prices_change_on_active_items_only_and_in_walmarts_format(session):
    signed_in(session)
    assert ok(session, "update_price", {"sku": "CP-TWL-WFL-CH2", "price": "17.99"})["price"] == "17.99"
    fails(session, "update_price", {"sku": "CP-DUV-LIN-Q-RST", "price": "99.00"}, "Conflict", "RETIRED")
    fails(session, "update_price", {"sku": "CP-TWL-WFL-CH2", "price": "-3"}, "invalid_arguments", "e.g. 24.99")
    fails(session, "update_price", {"sku": "CP-TWL-WFL-CH2", "price": "0.00"}, "InvalidRequest", "more than 0.00")


def test_retiring_unpublishes_once_and_keeps_the_item(session):
    signed_in(session)
    retired = ok(session, "retire_item", {"sku": "CP-RUG-JUT-2X3"})
    assert (retired["lifecycle_status"], retired["published_status"]) == ("RETIRED", "UNPUBLISHED")
    fails(session, "retire_item", {"sku": "CP-RUG-JUT-2X3"}, "Conflict", "already RETIRED")
    assert ok(session, "get_item", {"id": "CP-RUG-JUT-2X3"})["unpublished_reason"] == "Retired by seller"


# ---------------------------------------------------------------- promotions


def promo(sku: str, start: str, end: str, sale: str = "19.99", comparison: str = "29.99") -> dict[str, Any]:
    return {
        "sku": sku,
        "price_type": "REDUCED",
        "current_price": sale,
        "comparison_price": comparison,
        "start_at": start,
        "end_at": end,
    }


def test_promotion_windows_follow_walmarts_rules(session):
    signed_in(session)
    sku = "CP-CKW-CI-12"
    soon = (NOW + timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
    fails(session, "create_promotion", promo(sku, soon, "2026-03-20T00:00:00Z"), "InvalidRequest", "four hours")
    start = "2026-03-20T05:00:00Z"
    fails(session, "create_promotion", promo(sku, start, start), "InvalidRequest", "after its start")
    fails(session, "create_promotion", promo(sku, start, "2026-09-20T05:00:00Z"), "InvalidRequest", "180 days")
    over = promo(sku, start, "2026-03-27T05:00:00Z", sale="39.99", comparison="39.99")
    fails(session, "create_promotion", over, "InvalidRequest", "lower than the comparison")
    fails(session, "create_promotion", promo("CP-MUG-STN-4-BLU", start, "2026-03-27T05:00:00Z"), "Conflict", "RETIRED")
    made = ok(session, "create_promotion", promo(sku, start, "2026-03-27T05:00:00Z"))
    assert (made["status"], made["current_price"]) == ("SCHEDULED", "19.99")


def test_promotions_on_a_sku_never_overlap_and_stop_at_ten(session):
    signed_in(session)
    sku = "CP-CKW-CI-10"  # scheduled 03-20..03-27 and 04-10..04-24
    fails(
        session, "create_promotion", promo(sku, "2026-03-25T05:00:00Z", "2026-04-01T05:00:00Z"), "Conflict", "overlaps"
    )
    ok(session, "create_promotion", promo(sku, "2026-03-27T05:00:00Z", "2026-04-10T05:00:00Z"))  # touching is fine
    for week in range(7):
        start = datetime(2026, 5, 1, 5, tzinfo=timezone.utc) + timedelta(days=7 * week)
        window = [(start + timedelta(days=d)).strftime("%Y-%m-%dT%H:%M:%SZ") for d in (0, 7)]
        ok(session, "create_promotion", promo(sku, *window))
    assert len(ok(session, "list_promotions", {"sku": sku})) == 10
    later = promo(sku, "2026-07-01T05:00:00Z", "2026-07-08T05:00:00Z")
    fails(session, "create_promotion", later, "Conflict", "at most 10")


def test_a_promotion_cannot_be_deleted_in_the_four_hours_before_it_starts(session):
    signed_in(session)
    grey = ok(session, "list_promotions", {"sku": "CP-THR-KNT-GRY"})[0]  # starts 17:00 today
    assert grey["status"] == "SCHEDULED"
    fails(
        session, "delete_promotion", {"sku": "CP-THR-KNT-GRY", "promo_id": grey["promo_id"]}, "Conflict", "four hours"
    )
    later = ok(session, "list_promotions", {"sku": "CP-CDL-SOY-CDR"})[0]
    assert ok(session, "delete_promotion", {"sku": "CP-CDL-SOY-CDR", "promo_id": later["promo_id"]}) == []
    missing = {"sku": "CP-CDL-SOY-PIN", "promo_id": grey["promo_id"]}
    fails(session, "delete_promotion", missing, "NotFound", "not found on SKU")


# ---------------------------------------------------------------- inventory


def test_inventory_is_set_per_node_never_below_reserved_and_never_at_an_inactive_node(session):
    signed_in(session)
    assert node_qty(session, "CP-CUT-BRD-L", "721408") == {
        "ship_node": "721408",
        "input_qty": 64,
        "reserved_qty": 9,
        "avail_to_sell_qty": 55,
    }
    low = {"sku": "CP-CUT-BRD-L", "nodes": [{"ship_node": "721408", "amount": 8}]}
    fails(session, "update_inventory", low, "Conflict", "below the 9 units reserved")
    closed = {"sku": "CP-CUT-BRD-L", "nodes": [{"ship_node": "721403", "amount": 8}]}
    fails(session, "update_inventory", closed, "Conflict", "inactive")
    both = [{"ship_node": "721408", "amount": 9}, {"ship_node": "721407", "amount": 12}]
    result = ok(session, "update_inventory", {"sku": "CP-CUT-BRD-L", "nodes": both})
    assert result["total_avail_to_sell"] == 0 + 12 + node_qty(session, "CP-CUT-BRD-L", "721409")["avail_to_sell_qty"]


# ---------------------------------------------------------------- orders


def test_orders_are_acknowledged_once_then_shipped_with_carrier_shaped_tracking(session):
    signed_in(session)
    po = "8107645435145"  # Created, two blue ovens from Dallas
    fails(
        session,
        "ship_order_lines",
        {"purchase_order_id": po, "line_numbers": [1], "carrier": "UPS", "tracking_number": "1Z12345678901234AB"},
        "Conflict",
        "must be acknowledged",
    )
    assert ok(session, "acknowledge_order", {"purchase_order_id": po})["line_statuses"] == ["Acknowledged"]
    fails(session, "acknowledge_order", {"purchase_order_id": po}, "Conflict", "no lines in Created")
    wrong = {"purchase_order_id": po, "line_numbers": [1], "carrier": "UPS", "tracking_number": "612345678901"}
    fails(session, "ship_order_lines", wrong, "InvalidRequest", "not a valid UPS tracking number")
    future = {**wrong, "carrier": "FedEx", "ship_date_time": "2026-03-11T09:00:00Z"}
    fails(session, "ship_order_lines", future, "InvalidRequest", "cannot be in the future")
    before = node_qty(session, "CP-CKW-DO-55-BLU", "721409")
    shipped = ship(session, po, [1], "FedEx", "612345678901")
    assert line(shipped, 1)["status"] == "Shipped" and line(shipped, 1)["method_code"] == "Standard"
    after = node_qty(session, "CP-CKW-DO-55-BLU", "721409")
    assert (after["input_qty"], after["reserved_qty"]) == (before["input_qty"] - 2, before["reserved_qty"] - 2)
    fails(session, "ship_order_lines", {**wrong, "carrier": "FedEx"}, "Conflict", "is Shipped")
    unknown = {**wrong, "line_numbers": [4]}
    fails(session, "ship_order_lines", unknown, "InvalidRequest", "lineNumber 4 does not exist")


def test_tracking_can_be_corrected_only_within_four_hours_of_shipping(session):
    signed_in(session)
    fix = {
        "purchase_order_id": "7057013227943",
        "line_number": 1,
        "carrier": "FedEx",
        "tracking_number": "771245001234",
    }
    assert line(ok(session, "update_tracking", fix), 1)["tracking_number"] == "771245001234"  # shipped 13:45
    late = {
        "purchase_order_id": "3523599459691",
        "line_number": 1,
        "carrier": "FedEx",
        "tracking_number": "771245009999",
    }
    fails(session, "update_tracking", late, "Conflict", "within four hours")
    open_line = {**fix, "purchase_order_id": "8107645435145"}
    fails(session, "update_tracking", open_line, "Conflict", "only Shipped lines")


def test_cancelling_releases_stock_and_out_of_stock_zeroes_the_node(session):
    signed_in(session)
    before = node_qty(session, "CP-THR-KNT-GRY", "721408")
    cancel = {"purchase_order_id": "7077445206041", "line_numbers": [2]}
    done = ok(session, "cancel_order_lines", {**cancel, "cancellation_reason": "CUSTOMER_REQUESTED_SELLER_TO_CANCEL"})
    assert line(done, 2)["status"] == "Cancelled" and line(done, 1)["status"] == "Created"
    after = node_qty(session, "CP-THR-KNT-GRY", "721408")
    assert (after["reserved_qty"], after["input_qty"]) == (before["reserved_qty"] - 3, before["input_qty"])
    again = {**cancel, "cancellation_reason": "SELLER_CANCEL_OUT_OF_STOCK"}
    fails(session, "cancel_order_lines", again, "Conflict", "is Cancelled")
    ok(
        session,
        "cancel_order_lines",
        {
            "purchase_order_id": "5930297251157",
            "line_numbers": [1],
            "cancellation_reason": "SELLER_CANCEL_OUT_OF_STOCK",
        },
    )
    dallas = node_qty(session, "CP-PLT-POT-10", "721409")
    assert dallas["avail_to_sell_qty"] == 0 and dallas["input_qty"] == dallas["reserved_qty"] == 3
    shipped = {
        "purchase_order_id": "7057013227943",
        "line_numbers": [1],
        "cancellation_reason": "SELLER_CANCEL_PRICING_ERROR",
    }
    fails(session, "cancel_order_lines", shipped, "Conflict", "is Shipped and cannot be cancelled")


def test_refunds_are_negative_on_shipped_lines_and_never_above_the_charge(session):
    signed_in(session)
    po = "8962898251586"  # one table runner, 22.99, no shipping charge
    positive = {"purchase_order_id": po, "line_number": 1, "amount": "5.00", "reason": "Goodwill"}
    fails(session, "refund_order_line", positive, "invalid_arguments", "must be negative")
    fails(session, "refund_order_line", {**positive, "amount": "-30.00"}, "InvalidRequest", "22.99 of 22.99")
    done = ok(session, "refund_order_line", {**positive, "amount": "-20.00"})
    assert line(done, 1)["refunded"] == "20.00" and done["refunds"][-1]["amount"] == "-20.00"
    fails(session, "refund_order_line", {**positive, "amount": "-3.00"}, "InvalidRequest", "2.99 of 22.99")
    created = {**positive, "purchase_order_id": "8107645435145", "amount": "-1.00"}
    fails(session, "refund_order_line", created, "Conflict", "only Shipped lines can be refunded")


# ---------------------------------------------------------------- returns


def test_return_refunds_go_by_line_and_complete_the_return(session):
    signed_in(session)
    ro = "124563031953947"  # INITIATED: napkins 24.99, two sheet sets 258.00
    partial = ok(
        session,
        "issue_return_refund",
        {"return_order_id": ro, "reason": "ItemNotAsAdvertised", "return_line_numbers": [2]},
    )
    assert partial["status"] == "INITIATED" and [x["refunded"] for x in partial["lines"]] == ["0.00", "258.00"]
    again = {"return_order_id": ro, "reason": "ItemNotAsAdvertised", "return_line_numbers": [2]}
    fails(session, "issue_return_refund", again, "Conflict", "already refunded")
    rest = ok(session, "issue_return_refund", {"return_order_id": ro, "reason": "ItemNotAsAdvertised"})
    assert rest["status"] == "COMPLETED" and rest["refunded_at"] is not None
    order = ok(session, "get_order", {"purchase_order_id": "5308479602437"})
    assert [r["return_order_id"] for r in order["refunds"]] == [ro, ro]
    fails(session, "issue_return_refund", {"return_order_id": ro, "reason": "DefectiveItem"}, "Conflict", "COMPLETED")


def test_cancelled_returns_take_no_refund_and_lists_filter_by_status(session):
    signed_in(session)
    cancelled = ok(session, "list_returns", {"status": "CANCELLED"})["results"]
    assert {r["return_order_id"] for r in cancelled} >= {"325987102979695", "617131944586507"}
    refund = {"return_order_id": "325987102979695", "reason": "CustomerReceivedItemLate"}
    fails(session, "issue_return_refund", refund, "Conflict", "is CANCELLED")
    fails(session, "get_return", {"return_order_id": "12345"}, "invalid_arguments", "15 digits")


def test_order_lists_filter_by_line_status_sku_and_dates_newest_first(session):
    signed_in(session)
    created = ok(session, "list_orders", {"status": "Created", "page_size": 50})["results"]
    assert len(created) == 21 and created[0]["purchase_order_id"] == "5079600210209"
    dates = [o["order_date"] for o in created]
    assert dates == sorted(dates, reverse=True)
    page = ok(session, "list_orders", {"status": "Created", "page_size": 20})
    assert (
        page["has_more"]
        and len(ok(session, "list_orders", {"status": "Created", "cursor": page["next_cursor"]})["results"]) == 1
    )
    boards = ok(session, "list_orders", {"sku": "CP-CUT-BRD-L", "created_start_date": "2026-03-10"})["results"]
    assert {o["purchase_order_id"] for o in boards} == {"8384199870253", "5243503483589"}
