"""The LightspeedRetail environment's tools on the real seed: sign-in by employee number and PIN and what each role
may do (Sales, Inventory, Manager; line discounts over 20% for managers only), sales on open registers only (the
customer type's discount, the shop's tax on taxable lines, apparel untaxed), completing sales (payments cover the
total, only cash gives change, credit accounts within their limit and only with a customer, stock leaves the
shop), voids of unfinished sales only, returns (never more than is left, refunds to a payment type of the sale or
cash, stock back at the returning shop, credit accounts credited), registers (no double open, no close with open
sales, a note when the count is off by more than 5.00, expected cash from float and cash payments), inventory
counts (scans add up, managers reconcile, qoh set to the count, nothing added afterwards) and transfers (distinct
shops, archived items refused, draft -> sent -> received, never more than on hand or sent). Every error path
leaves the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("lightspeed")
CLOCK = datetime(2026, 4, 18, 16, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, CLOCK)

DANA, MARCUS, PRIYA, TOM = ("1001", "4821"), ("1002", "7314"), ("1003", "2290"), ("1004", "5567")
FRONT_COUNTER, SERVICE_DESK, ST_PAUL_1 = 11, 12, 21
CASH, CARD, DEBIT, ACCOUNT = 1, 2, 3, 5


def item(description: str) -> int:
    (row,) = [i for i in SEED["items"] if i["description"] == description]
    return int(row["item_id"])


U_LOCK = item("Kryptonite Evolution U-Lock")
JERSEY_M = item("Northline Logo Jersey - Medium")
TUBE = item("Tube 700x23-28c Presta 48mm")
GIRO_M = item("Giro Syntax MIPS Helmet - Medium")
OLD_VERVE = item("Trek Verve 1 Hybrid - Medium (2023)")
HITCH_RACK = item("Thule EasyFold XT 2 Hitch Rack")


def sign_in(session: ToolSession, who: tuple[str, str]) -> None:
    ok(session, "sign_in", {"employee_number": who[0], "pin": who[1]}, caller="user")


def qoh(session: ToolSession, item_id: int, shop_id: int) -> int:
    shops = ok(session, "get_item", {"item_id": item_id})["Item"]["ItemShops"]
    return next(s["qoh"] for s in shops if s["shopID"] == shop_id)


def sale(session: ToolSession, lines: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    args = {"register_id": FRONT_COUNTER, "lines": lines, **extra}
    return ok(session, "create_sale", args)["Sale"]


def test_nothing_works_before_sign_in_and_a_wrong_pin_is_refused(session):
    fails(session, "list_shops", {}, "PermissionDenied", "No employee is signed in")
    fails(
        session,
        "sign_in",
        {"employee_number": "1001", "pin": "0000"},
        "PermissionDenied",
        "Invalid employee number",
        caller="user",
    )
    fails(session, "sign_in", {"employee_number": "1007", "pin": "3075"}, "PermissionDenied", "Invalid", caller="user")


def test_roles_limit_what_an_employee_may_do(session):
    sign_in(session, MARCUS)
    fails(
        session, "update_item", {"item_id": U_LOCK, "price": 70.0}, "PermissionDenied", "role Sales cannot edit items"
    )
    fails(session, "reconcile_inventory_count", {"inventory_count_id": 52}, "PermissionDenied", "reconcile")
    fails(session, "send_transfer", {"transfer_id": 26}, "PermissionDenied", "transfers")
    line = {"item_id": U_LOCK, "quantity": 1, "discount_percent": 25}
    fails(session, "create_sale", {"register_id": FRONT_COUNTER, "lines": [line]}, "PermissionDenied", "over 20%")
    sign_in(session, TOM)
    fails(
        session,
        "create_sale",
        {"register_id": FRONT_COUNTER, "lines": [{"item_id": TUBE, "quantity": 1}]},
        "PermissionDenied",
        "role Inventory cannot ring up",
    )
    sign_in(session, DANA)
    assert sale(session, [line])["SaleLines"][0]["discountPercent"] == 25


def test_a_sale_takes_the_customer_discount_and_the_shop_tax_on_taxable_lines_only(session):
    sign_in(session, MARCUS)
    shown = sale(session, [{"item_id": U_LOCK, "quantity": 1}, {"item_id": JERSEY_M, "quantity": 2}], customer_id=101)
    assert [line["discountPercent"] for line in shown["SaleLines"]] == [5, 5]  # Loyalty
    # 79.95 * 0.95 = 75.95 taxable at 8.525% -> 6.47; jerseys 123.50 untaxed
    assert (shown["calcSubtotal"], shown["calcDiscount"], shown["calcTax1"], shown["calcTotal"]) == (
        "209.95",
        "10.50",
        "6.47",
        "205.92",
    )


def test_sales_need_an_open_register_and_an_active_item(session):
    sign_in(session, MARCUS)
    fails(
        session,
        "create_sale",
        {"register_id": SERVICE_DESK, "lines": [{"item_id": TUBE, "quantity": 1}]},
        "InvalidRequest",
        "is closed",
    )
    fails(
        session,
        "create_sale",
        {"register_id": FRONT_COUNTER, "lines": [{"item_id": OLD_VERVE, "quantity": 1}]},
        "InvalidRequest",
        "is archived",
    )
    fails(
        session,
        "create_sale",
        {"register_id": FRONT_COUNTER, "lines": [{"item_id": TUBE, "quantity": 1}], "customer_id": 141},
        "InvalidRequest",
        "Customer 141 is archived",
    )


def test_completing_needs_payments_covering_the_total_and_only_cash_gives_change(session):
    sign_in(session, MARCUS)
    shown = sale(session, [{"item_id": TUBE, "quantity": 2}])  # 17.98 + 1.53 tax
    before = qoh(session, TUBE, 1)
    fails(
        session,
        "complete_sale",
        {"sale_id": shown["saleID"], "payments": [{"payment_type_id": CARD, "amount": 19.0}]},
        "InvalidRequest",
        "do not cover the sale total of 19.51",
    )
    fails(
        session,
        "complete_sale",
        {"sale_id": shown["saleID"], "payments": [{"payment_type_id": CARD, "amount": 25.0}]},
        "InvalidRequest",
        "Only cash payments can exceed",
    )
    done = ok(
        session, "complete_sale", {"sale_id": shown["saleID"], "payments": [{"payment_type_id": CASH, "amount": 20.0}]}
    )
    assert done["change"] == "0.49"
    assert [p["amount"] for p in done["Sale"]["SalePayments"]] == ["19.51"]
    assert qoh(session, TUBE, 1) == before - 2
    fails(
        session, "add_sale_line", {"sale_id": shown["saleID"], "item_id": TUBE, "quantity": 1}, "Conflict", "completed"
    )
    fails(session, "void_sale", {"sale_id": shown["saleID"]}, "Conflict", "completed")


def test_a_credit_account_pays_only_within_its_limit_and_needs_a_customer(session):
    sign_in(session, PRIYA)
    club = ok(
        session,
        "create_sale",
        {"register_id": ST_PAUL_1, "customer_id": 105, "lines": [{"item_id": HITCH_RACK, "quantity": 1}]},
    )["Sale"]
    fails(
        session,
        "complete_sale",
        {"sale_id": club["saleID"], "payments": [{"payment_type_id": ACCOUNT, "amount": float(club["calcTotal"])}]},
        "InvalidRequest",
        "Credit account limit exceeded: 360.00 available",
    )
    walk_in = ok(session, "create_sale", {"register_id": ST_PAUL_1, "lines": [{"item_id": TUBE, "quantity": 1}]})[
        "Sale"
    ]
    fails(
        session,
        "complete_sale",
        {"sale_id": walk_in["saleID"], "payments": [{"payment_type_id": ACCOUNT, "amount": 9.79}]},
        "InvalidRequest",
        "needs a customer",
    )
    total = float(club["calcTotal"])
    ok(
        session,
        "complete_sale",
        {
            "sale_id": club["saleID"],
            "payments": [
                {"payment_type_id": ACCOUNT, "amount": 360.0},
                {"payment_type_id": CARD, "amount": round(total - 360, 2)},
            ],
        },
    )
    greta = ok(session, "search_customers", {"email": "treasurer@lakesareacc.org"})["Customer"][0]
    assert greta["creditAccount"] == {"creditLimit": "2000.00", "balance": "2000.00"}


def test_returns_never_exceed_what_is_left_and_refund_to_a_payment_type_of_the_sale_or_cash(session):
    sign_in(session, PRIYA)
    original = ok(session, "get_sale", {"sale_id": 40086})["Sale"]  # Uptown, paid by credit card
    lock_line = next(line["saleLineID"] for line in original["SaleLines"] if line["itemID"] == U_LOCK)
    args = {"sale_id": 40086, "register_id": ST_PAUL_1, "lines": [{"sale_line_id": lock_line, "quantity": 1}]}
    fails(
        session, "create_return", {**args, "payment_type_id": DEBIT}, "InvalidRequest", "payment type used on the sale"
    )
    fails(
        session,
        "create_return",
        {**args, "lines": [{"sale_line_id": lock_line, "quantity": 2}], "payment_type_id": CARD},
        "InvalidRequest",
        "Only 1 unit(s)",
    )
    uptown, st_paul = qoh(session, U_LOCK, 1), qoh(session, U_LOCK, 2)
    refund = ok(session, "create_return", {**args, "payment_type_id": CARD})["Sale"]
    assert refund["returnOfSaleID"] == 40086 and refund["calcTotal"] == "-82.42"
    assert (qoh(session, U_LOCK, 1), qoh(session, U_LOCK, 2)) == (uptown, st_paul + 1)  # back where it was returned
    fails(session, "create_return", {**args, "payment_type_id": CASH}, "InvalidRequest", "Only 0 unit(s)")
    fails(
        session,
        "create_return",
        {**args, "sale_id": 40090, "payment_type_id": CASH},
        "InvalidRequest",
        "not a completed sale",
    )


def test_a_return_to_a_credit_account_lowers_what_the_customer_owes(session):
    sign_in(session, PRIYA)
    club_sale = ok(session, "get_sale", {"sale_id": 40087})["Sale"]
    line = club_sale["SaleLines"][0]
    refund = ok(
        session,
        "create_return",
        {
            "sale_id": 40087,
            "register_id": ST_PAUL_1,
            "payment_type_id": ACCOUNT,
            "lines": [{"sale_line_id": line["saleLineID"], "quantity": 1}],
        },
    )["Sale"]
    greta = ok(session, "search_customers", {"name": "Greta Lindgren"})["Customer"][0]
    assert float(greta["creditAccount"]["balance"]) == round(1640.00 + float(refund["calcTotal"]), 2)


def test_registers_open_once_and_close_only_without_open_sales_and_with_a_note_when_off(session):
    sign_in(session, PRIYA)
    fails(session, "open_register", {"register_id": ST_PAUL_1, "opening_float": 100.0}, "Conflict", "already open")
    fails(session, "close_register", {"register_id": 22, "counted_cash": 0.0}, "InvalidRequest", "is closed")
    fails(
        session, "close_register", {"register_id": ST_PAUL_1, "counted_cash": 166.18}, "Conflict", "open sales (40096)"
    )
    ok(session, "void_sale", {"sale_id": 40096})
    fails(
        session,
        "close_register",
        {"register_id": ST_PAUL_1, "counted_cash": 160.0},
        "InvalidRequest",
        "A note is required",
    )
    closed = ok(session, "close_register", {"register_id": ST_PAUL_1, "counted_cash": 163.0})["RegisterCount"]
    assert (closed["expectedCash"], closed["variance"]) == ("166.18", "-3.18")
    opened = ok(session, "open_register", {"register_id": ST_PAUL_1, "opening_float": 150.0})["Shop"]
    register = next(r for r in opened["Registers"] if r["registerID"] == ST_PAUL_1)
    assert register["RegisterCount"]["expectedCash"] == "150.00" and register["lastClose"]["countedCash"] == "163.00"


def test_cash_sales_and_refunds_move_the_expected_cash(session):
    sign_in(session, MARCUS)
    shown = sale(session, [{"item_id": TUBE, "quantity": 1}])
    ok(session, "complete_sale", {"sale_id": shown["saleID"], "payments": [{"payment_type_id": CASH, "amount": 20.0}]})
    ok(
        session,
        "create_return",
        {
            "sale_id": shown["saleID"],
            "register_id": FRONT_COUNTER,
            "payment_type_id": CASH,
            "lines": [{"sale_line_id": shown["SaleLines"][0]["saleLineID"], "quantity": 1}],
        },
    )
    front = ok(session, "list_shops", {})["Shop"][0]["Registers"][0]
    assert front["RegisterCount"]["expectedCash"] == "264.15"  # the seed's, unchanged after sale and refund


def test_counts_add_up_scans_reconcile_by_managers_and_then_freeze(session):
    sign_in(session, TOM)
    count = ok(session, "create_inventory_count", {"shop_id": 3, "name": "Giro shelf"})["InventoryCount"]
    cid = count["inventoryCountID"]
    ok(session, "add_inventory_count_items", {"inventory_count_id": cid, "items": [{"item_id": GIRO_M, "qty": 2}]})
    shown = ok(
        session, "add_inventory_count_items", {"inventory_count_id": cid, "items": [{"item_id": GIRO_M, "qty": 1}]}
    )
    assert shown["InventoryCount"]["InventoryCountItems"] == [
        {"itemID": GIRO_M, "description": "Giro Syntax MIPS Helmet - Medium", "counted": 3, "qoh": 4, "difference": -1}
    ]
    fails(session, "reconcile_inventory_count", {"inventory_count_id": cid}, "PermissionDenied", "role Inventory")
    fails(session, "create_inventory_count", {"shop_id": 4, "name": "Closed shop"}, "InvalidRequest", "archived")
    sign_in(session, DANA)
    done = ok(session, "reconcile_inventory_count", {"inventory_count_id": cid})["InventoryCount"]
    assert done["status"] == "reconciled" and done["adjustments"][0]["difference"] == -1
    assert qoh(session, GIRO_M, 3) == 3
    fails(
        session,
        "add_inventory_count_items",
        {"inventory_count_id": cid, "items": [{"item_id": GIRO_M, "qty": 1}]},
        "Conflict",
        "already reconciled",
    )
    fails(session, "reconcile_inventory_count", {"inventory_count_id": cid}, "Conflict", "already reconciled")


def test_transfers_go_draft_sent_received_within_stock(session):
    sign_in(session, TOM)
    fails(
        session,
        "create_transfer",
        {"send_shop_id": 3, "receive_shop_id": 3, "items": [{"item_id": TUBE, "quantity": 1}]},
        "InvalidRequest",
        "must differ",
    )
    fails(
        session,
        "create_transfer",
        {"send_shop_id": 3, "receive_shop_id": 1, "items": [{"item_id": OLD_VERVE, "quantity": 1}]},
        "InvalidRequest",
        "archived",
    )
    big = ok(
        session,
        "create_transfer",
        {"send_shop_id": 3, "receive_shop_id": 1, "items": [{"item_id": HITCH_RACK, "quantity": 3}]},
    )["Transfer"]
    fails(session, "send_transfer", {"transfer_id": big["transferID"]}, "InvalidRequest", "2 on hand, 3 to send")
    small = ok(
        session,
        "create_transfer",
        {"send_shop_id": 3, "receive_shop_id": 1, "items": [{"item_id": HITCH_RACK, "quantity": 2}]},
    )["Transfer"]
    fails(session, "receive_transfer", {"transfer_id": small["transferID"]}, "Conflict", "only a sent transfer")
    ok(session, "send_transfer", {"transfer_id": small["transferID"]})
    assert qoh(session, HITCH_RACK, 3) == 0
    fails(session, "send_transfer", {"transfer_id": small["transferID"]}, "Conflict", "only a draft")
    fails(
        session,
        "receive_transfer",
        {"transfer_id": small["transferID"], "items": [{"item_id": HITCH_RACK, "received": 3}]},
        "InvalidRequest",
        "only 2 sent",
    )
    uptown = qoh(session, HITCH_RACK, 1)
    got = ok(
        session,
        "receive_transfer",
        {"transfer_id": small["transferID"], "items": [{"item_id": HITCH_RACK, "received": 1}]},
    )["Transfer"]
    assert got["status"] == "received" and got["TransferItems"][0]["received"] == 1
    assert qoh(session, HITCH_RACK, 1) == uptown + 1


def test_only_managers_change_prices_and_inventory_staff_set_reorder_points(session):
    sign_in(session, TOM)
    ok(session, "update_item", {"item_id": TUBE, "shop_id": 3, "reorder_point": 20, "reorder_level": 60})
    fails(session, "update_item", {"item_id": TUBE, "reorder_point": 20}, "InvalidRequest", "shopID is required")
    sign_in(session, DANA)
    shown = ok(session, "update_item", {"item_id": TUBE, "price": 9.49})["Item"]
    assert shown["price"] == "9.49"
    assert next(s for s in shown["ItemShops"] if s["shopID"] == 3)["reorderPoint"] == 20
    ok(session, "update_item", {"item_id": TUBE, "archived": True})
    assert ok(session, "search_items", {"query": "presta 48mm"})["Item"] == []
    assert ok(session, "search_items", {"query": "presta 48mm", "include_archived": True})["Item"][0]["archived"]
