"""What happens to a placed order: a new window, address or driver notes and item edits until shopping starts (the
retailer's minimum still met, fees recomputed), the tip until 24 hours after delivery, free cancellation before
shopping, the customer's answer to a shopper's replacement, and self-reported problems within 4 days."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, PermissionDenied

from .access import order_line, own_address
from .rules import (
    ISSUE_HOURS,
    TIP_HOURS,
    add_order_line,
    address_snapshot,
    book_window,
    bookable_window,
    check_orderable,
    deliverable,
    dollars,
    grant_credits,
    line_charge,
    release_window,
    reprice,
    require_placed,
    store,
    tip_problem,
    within,
)
from .schema import order_issues, order_items, orders, service_options


def change(
    db: Database,
    user: dict[str, Any],
    order: dict[str, Any],
    service_option_id: int | None,
    address_id: str | None,
    instructions: str | None,
    tip_cents: int | None,
) -> dict[str, Any]:
    """Move an order to another window or address, change its driver notes or its tip; fees are recomputed."""
    if order["status"] == "canceled":
        raise Conflict(f"Order {order['id']} was canceled.")
    if service_option_id is None and address_id is None and instructions is None and tip_cents is None:
        raise InvalidRequest("Nothing to update: give a window, address, instructions or tip.")
    changes: dict[str, Any] = {}
    window = None
    if service_option_id is not None or address_id is not None or instructions is not None:
        require_placed(order, "change its window, address or instructions")
    if service_option_id is not None:
        if service_option_id == order["service_option_id"]:
            raise InvalidRequest(f"Order {order['id']} is already booked in that window.")
        window = bookable_window(db, service_option_id, order["location_code"])
        if window["fulfillment_type"] != order["fulfillment_type"]:
            raise InvalidRequest(
                f"This is a {order['fulfillment_type']} order; pick a {order['fulfillment_type']} window."
            )
        release_window(db, order["service_option_id"])
        book_window(db, window)
    if (address_id is not None or instructions is not None) and order["fulfillment_type"] != "delivery":
        raise InvalidRequest("Pickup orders take no delivery address or instructions.")
    if address_id is not None:
        address = deliverable(store(db, order["location_code"]), own_address(db, user, address_id))
        changes.update(
            address_id=address["id"],
            address=address_snapshot(address),
            delivery_instructions=address["delivery_instructions"],
        )
    if instructions is not None:
        changes["delivery_instructions"] = instructions
    if tip_cents is not None:
        if problem := tip_problem(tip_cents, order["fulfillment_type"]):
            raise problem
        if order["completed_at"] is not None and not within(db, order["completed_at"], TIP_HOURS):
            raise Conflict("Tips can only be changed until 24 hours after delivery.")
        changes.update(tip_cents=tip_cents, total_cents=order["total_cents"] + tip_cents - order["tip_cents"])
    order = db.update(orders, order["id"], **changes) if changes else order
    if order["status"] == "placed":
        order = reprice(db, order, window or db.get(service_options, order["service_option_id"], "Service option"))
    return order


def edit_item(db: Database, order: dict[str, Any], product: dict[str, Any], quantity: int) -> dict[str, Any]:
    """Add an item of the order's store, change its quantity or remove it (0), keeping the retailer's minimum."""
    require_placed(order, "edit its items")
    order_id = order["id"]
    if product["location_code"] != order["location_code"]:
        raise InvalidRequest(f"{product['name']} is from another store than order {order_id}.")
    lines = db.find(order_items, order_id=order_id, order_by=[order_items.c.line_num])
    line = next((r for r in lines if r["item_id"] == product["item_id"]), None)
    if quantity == 0:
        if line is None:
            raise NotFound(f"Item '{product['item_id']}' is not in order {order_id}")
        if len(lines) == 1:
            raise Conflict("That's the last item in the order; cancel the order instead.")
        db.delete(order_items, line["id"])
    elif line is None:
        check_orderable(product, quantity)
        add_order_line(db, order_id, lines[-1]["line_num"] + 1, product, quantity)
    else:
        if quantity > line["quantity"]:
            check_orderable(product, quantity)
        db.update(order_items, line["id"], quantity=quantity)
    shop = store(db, order["location_code"])
    order = reprice(db, order, db.get(service_options, order["service_option_id"], "Service option"))
    if order["subtotal_cents"] < shop["order_minimum_cents"]:
        raise Conflict(
            f"The order would fall below the {dollars(shop['order_minimum_cents'])} minimum at {shop['retailer_name']}."
        )
    return order


def cancel(db: Database, user: dict[str, Any], order: dict[str, Any]) -> dict[str, Any]:
    """Cancel an order before shopping starts: its window spot and applied credits come back."""
    require_placed(order, "cancel it")
    release_window(db, order["service_option_id"])
    grant_credits(db, user, order["credits_applied_cents"], "returned_from_order", order["id"])
    return db.update(orders, order["id"], status="canceled", credits_applied_cents=0, canceled_at=db.now_iso())


def review(db: Database, user: dict[str, Any], item_name: str, approve: bool) -> dict[str, Any]:
    """The customer's answer to a replacement waiting for approval in an order being shopped; a rejected one is
    refunded."""
    for order in db.find(orders, user_id=user["id"], status="shopping"):
        for line in db.find(order_items, order_id=order["id"], replacement_status="pending_approval"):
            if line["name"].casefold() == item_name.strip().casefold():
                changes = (
                    {"replacement_status": "approved"}
                    if approve
                    else {"replacement_status": "rejected", "status": "refunded"}
                )
                updated = db.update(order_items, line["id"], **changes)
                reprice(db, order)
                return updated
    raise NotFound(f"No replacement for '{item_name}' is waiting for your approval")


def report(
    db: Database,
    user: dict[str, Any],
    order: dict[str, Any],
    item_id: str,
    issue_type: str,
    resolution: str,
    quantity: int | None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Make good a problem with a delivered item, once per item and within 4 days: credits or a refund of what was
    paid for the affected units. The issue row and its order line."""
    order_id = order["id"]
    if order["status"] not in ("delivered", "picked_up"):
        raise Conflict(f"Order {order_id} is {order['status']}; problems can be reported once it's delivered.")
    if not within(db, order["completed_at"], ISSUE_HOURS):
        raise PermissionDenied(
            "It's been more than 4 days since this order arrived, so it can't be self-reported; "
            "contact Instacart Customer Experience."
        )
    line = order_line(db, order_id, item_id)
    if line["status"] == "refunded":
        raise Conflict(f"{line['name']} wasn't found by your shopper and was already refunded.")
    if issue_type == "poor_replacement" and line["status"] != "replaced":
        raise InvalidRequest(f"{line['name']} wasn't replaced; pick another issue type.")
    if db.find(order_issues, order_item_id=line["id"]):
        raise Conflict(f"A problem with {line['name']} was already reported on this order.")
    count = line["quantity"] if quantity is None else quantity
    if count > line["quantity"]:
        raise InvalidRequest(f"quantity must be between 1 and {line['quantity']}.")
    amount = line_charge(line) // line["quantity"] * count
    if resolution == "credit":
        grant_credits(db, user, amount, "issue_credit", order_id)
    else:
        db.update(orders, order_id, refunded_cents=order["refunded_cents"] + amount)
    row = db.insert(
        order_issues,
        id=db.new_id(order_issues, "iss_"),
        order_id=order_id,
        order_item_id=line["id"],
        issue_type=issue_type,
        quantity=count,
        resolution=resolution,
        amount_cents=amount,
        created_at=db.now_iso(),
    )
    return row, line
