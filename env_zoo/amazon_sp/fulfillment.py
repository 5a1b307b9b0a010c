"""Order fulfilment and after-sale: confirming merchant-fulfilled shipments package by package, cancelling
unshipped orders (stock goes back to the SKU), FBA inbound shipments moving units from working to shipped, return
requests within the 30-day window, and refunds of shipped units (a CustomerReturn refund needs the return back)."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database
from envfactory_gym.values import parse_timestamp

from .access import seller_id
from .errors import conflict, invalid, not_found
from .rules import (
    FBA,
    OPEN,
    move_inbound,
    order,
    order_item,
    refunded_units,
    shipped_status,
    unit_price,
    within_return_window,
)
from .schema import (
    inbound_items,
    inbound_shipments,
    inventory,
    listing_issues,
    listings,
    order_items,
    orders,
    package_confirmations,
    refunds,
    returns,
)

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def base36(number: int, width: int) -> str:
    """A number in upper-case base 36, zero-padded (Amazon shipment ids look like FBA15K2M8Q1X)."""
    out = ""
    for _ in range(width):
        number, digit = divmod(number, 36)
        out = ALPHABET[digit] + out
    return out


DESTINATIONS = {"ATVPDKIKX0DER": "ONT8", "A2EUQ1WTGCTBG2": "YYZ4", "A1AM78C64UM0Y8": "MEX1"}


def confirm(db: Database, order_id: str, marketplace_id: str, package: dict[str, Any]) -> dict[str, Any]:
    """Confirm a package of an MFN order; a known packageReferenceId edits that package's carrier and tracking."""
    row = order(db, order_id)
    if row["marketplace_id"] != marketplace_id:
        raise invalid(f"Order {order_id} does not belong to marketplace {marketplace_id}.")
    if row["fulfillment_channel"] == "AFN":
        raise invalid(f"Order {order_id} is fulfilled by Amazon; its shipment cannot be confirmed by the seller.")
    ship_date = parse_timestamp(package["shipDate"], "shipDate")
    if ship_date > db.now():
        raise invalid("shipDate cannot be in the future.")
    if ship_date < parse_timestamp(row["purchase_date"], "PurchaseDate"):
        raise invalid(f"shipDate cannot be before the order's PurchaseDate {row['purchase_date']}.")
    ref = package["packageReferenceId"]
    earlier = db.find(package_confirmations, order_id=order_id, package_reference_id=ref)
    details = {
        "carrier_code": package["carrierCode"],
        "tracking_number": package["trackingNumber"],
        "ship_date": package["shipDate"],
    }
    if earlier:
        db.update(package_confirmations, earlier[0]["id"], **details)
        return {"AmazonOrderId": order_id, "packageReferenceId": ref, "OrderStatus": row["status"], "edited": True}
    if row["status"] not in OPEN:
        raise invalid(
            f"Order {order_id} is {row['status']}; only Unshipped or PartiallyShipped orders can be confirmed."
        )
    asked: dict[str, int] = {}
    for item in package["orderItems"]:
        asked[item["orderItemId"]] = asked.get(item["orderItemId"], 0) + item["quantity"]
    for item_id, quantity in asked.items():
        line = order_item(db, order_id, item_id)
        left = line["quantity"] - line["quantity_shipped"]
        if quantity > left:
            raise invalid(f"OrderItemId {item_id} has {left} unit(s) left to ship; {quantity} were confirmed.")
    asked = dict(sorted(asked.items()))  # the order of the package's items does not matter
    for item_id, quantity in asked.items():
        line = db.get(order_items, item_id)
        db.update(order_items, item_id, quantity_shipped=line["quantity_shipped"] + quantity)
    db.insert(
        package_confirmations,
        order_id=order_id,
        package_reference_id=ref,
        items=[{"orderItemId": k, "quantity": v} for k, v in asked.items()],
        **details,
    )
    new_status = shipped_status(db.find(order_items, order_id=order_id))
    db.update(orders, order_id, status=new_status, last_update_date=db.now_iso())
    return {"AmazonOrderId": order_id, "packageReferenceId": ref, "OrderStatus": new_status, "edited": False}


def cancel(db: Database, order_id: str, reason: str) -> dict[str, Any]:
    """Cancel a Pending or Unshipped MFN order; its units go back to the SKUs' quantity."""
    row = order(db, order_id)
    if row["fulfillment_channel"] == "AFN":
        raise invalid(f"Order {order_id} is fulfilled by Amazon; Amazon handles its cancellation.")
    if row["status"] not in ("Pending", "Unshipped"):
        raise invalid(f"Order {order_id} is {row['status']}; only Pending or Unshipped orders can be canceled.")
    for line in db.find(order_items, order_id=order_id):
        sku = db.find(listings, seller_id=row["seller_id"], sku=line["sku"], marketplace_id=row["marketplace_id"])
        if sku and sku[0]["fulfillment_channel"] != FBA:
            db.update(listings, sku[0]["id"], quantity=sku[0]["quantity"] + line["quantity"])
    return db.update(orders, order_id, status="Canceled", cancel_reason=reason, last_update_date=db.now_iso())


def shipment(db: Database, shipment_id: str) -> dict[str, Any]:
    return db.find_one(
        inbound_shipments,
        id=shipment_id,
        seller_id=seller_id(db),
        not_found=f"404 NotFound: Shipment {shipment_id} was not found.",
    )


def check_inbound_skus(db: Database, marketplace_id: str, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The FBA inventory rows of the SKUs to send: each must be an FBA listing without ERROR issues."""
    me = seller_id(db)
    rows = []
    for item in items:
        sku = item["SellerSKU"]
        found = db.find(listings, seller_id=me, sku=sku, marketplace_id=marketplace_id)
        if not found:
            raise not_found(f"SKU '{sku}' was not found for marketplace {marketplace_id}.")
        if found[0]["fulfillment_channel"] != FBA:
            raise invalid(f"SKU '{sku}' is merchant-fulfilled; convert it to Fulfilled by Amazon before sending it.")
        if db.find(listing_issues, listing_id=found[0]["id"], severity="ERROR"):
            raise invalid(f"SKU '{sku}' has listing issues of severity ERROR; fix them before sending it inbound.")
        rows.append(db.find(inventory, seller_id=me, sku=sku, marketplace_id=marketplace_id)[0])
    if len({i["SellerSKU"] for i in items}) != len(items):
        raise invalid("Each SellerSKU may appear only once in InboundShipmentItems.")
    return rows


def create_inbound(db: Database, marketplace_id: str, name: str, label: str, items: list[dict[str, Any]]) -> dict:
    items = sorted(items, key=lambda i: i["SellerSKU"])  # stored in SKU order, whatever order they came in
    rows = check_inbound_skus(db, marketplace_id, items)
    number = db.next_number("inbound", inbound_shipments)
    shipment_id = "FBA15" + base36((number * 7919 + 1_000_003) % 36**7, 7)
    row = db.insert(
        inbound_shipments,
        id=shipment_id,
        seller_id=seller_id(db),
        marketplace_id=marketplace_id,
        name=name,
        destination=DESTINATIONS[marketplace_id],
        status="WORKING",
        label_prep_type=label,
        created_date=db.now_iso(),
    )
    for item, stock in zip(items, rows, strict=True):
        db.insert(
            inbound_items,
            shipment_id=shipment_id,
            sku=item["SellerSKU"],
            fnsku=stock["fnsku"],
            quantity_shipped=item["QuantityShipped"],
            quantity_received=0,
        )
        move_inbound(db, row["seller_id"], marketplace_id, item["SellerSKU"], inbound_working=item["QuantityShipped"])
    return row


def update_inbound(db: Database, shipment_id: str, status: str, items: list[dict[str, Any]] | None) -> dict:
    """Change a shipment's items (WORKING only) or its status: WORKING -> SHIPPED, WORKING/SHIPPED -> CANCELLED."""
    row = shipment(db, shipment_id)
    current = row["status"]
    me, mp = row["seller_id"], row["marketplace_id"]
    if items is not None:
        if current != "WORKING":
            raise conflict(f"Shipment {shipment_id} is {current}; its items can only change while WORKING.")
        items = sorted(items, key=lambda i: i["SellerSKU"])
        check_inbound_skus(db, mp, items)
        for old in db.find(inbound_items, shipment_id=shipment_id):
            move_inbound(db, me, mp, old["sku"], inbound_working=-old["quantity_shipped"])
            db.delete(inbound_items, old["id"])
        for item in items:
            stock = db.find(inventory, seller_id=me, sku=item["SellerSKU"], marketplace_id=mp)[0]
            db.insert(
                inbound_items,
                shipment_id=shipment_id,
                sku=item["SellerSKU"],
                fnsku=stock["fnsku"],
                quantity_shipped=item["QuantityShipped"],
                quantity_received=0,
            )
            move_inbound(db, me, mp, item["SellerSKU"], inbound_working=item["QuantityShipped"])
    if status == current:
        return db.get(inbound_shipments, shipment_id)
    allowed = {("WORKING", "SHIPPED"), ("WORKING", "CANCELLED"), ("SHIPPED", "CANCELLED")}
    if (current, status) not in allowed:
        raise conflict(f"Shipment {shipment_id} is {current} and cannot be set to {status}.")
    stage = "inbound_working" if current == "WORKING" else "inbound_shipped"
    for item in db.find(inbound_items, shipment_id=shipment_id):
        deltas = {stage: -item["quantity_shipped"]}
        if status == "SHIPPED":
            deltas["inbound_shipped"] = item["quantity_shipped"]
        move_inbound(db, me, mp, item["sku"], **deltas)
    return db.update(inbound_shipments, shipment_id, status=status)


def return_request(db: Database, return_id: str) -> dict[str, Any]:
    found = db.find(returns, id=return_id)
    if not found:
        raise not_found(f"Return request {return_id} was not found.")
    order(db, found[0]["order_id"])  # the signed-in seller's own
    return found[0]


def decide_return(db: Database, return_id: str, decision: str, decline_reason: str | None) -> dict[str, Any]:
    """Authorize (an RMA id is issued) or decline a pending return request; inside the 30-day window Amazon's
    return policy allows no decline."""
    row = return_request(db, return_id)
    if row["status"] != "PENDING_AUTHORIZATION":
        raise conflict(f"Return request {return_id} is {row['status']}; only pending requests can be decided.")
    if decision == "AUTHORIZE":
        return db.update(returns, return_id, status="AUTHORIZED", rma_id=f"RMA{db.next_number('rma', returns):07d}")
    if decline_reason is None:
        raise invalid("declineReason is required to decline a return request.")
    if within_return_window(db, order(db, row["order_id"]), row["request_date"]):
        raise invalid(f"Return request {return_id} was made within the 30-day return window and must be authorized.")
    return db.update(returns, return_id, status="DECLINED", decline_reason=decline_reason)


def refund(db: Database, order_id: str, item_id: str, quantity: int, reason: str, return_id: str | None) -> dict:
    """Refund shipped, not yet refunded units of an order item at their unit price."""
    order(db, order_id)
    line = order_item(db, order_id, item_id)
    if line["quantity_shipped"] == 0:
        raise invalid(f"OrderItemId {item_id} has not shipped; cancel the order instead of refunding it.")
    left = line["quantity_shipped"] - refunded_units(db, item_id)
    if quantity > left:
        raise invalid(f"OrderItemId {item_id} has {left} shipped unit(s) left to refund; {quantity} were asked.")
    if reason == "CustomerReturn":
        if return_id is None:
            raise invalid("A CustomerReturn adjustment needs the returnRequestId of the received return.")
        back = return_request(db, return_id)
        if back["order_item_id"] != item_id or back["status"] != "RECEIVED" or back["quantity"] < quantity:
            raise invalid(
                f"Return request {return_id} is {back['status']} for {back['quantity']} unit(s) of "
                f"{back['order_item_id']}; refund a CustomerReturn only once that return is RECEIVED."
            )
        db.update(returns, return_id, status="CLOSED")
    elif return_id is not None:
        raise invalid("returnRequestId goes only with the CustomerReturn adjustment reason.")
    amount = unit_price(line) * quantity
    number = db.next_number("refund", refunds)
    made = db.insert(
        refunds,
        id=f"ADJ-{number:06d}",
        order_id=order_id,
        order_item_id=item_id,
        quantity=quantity,
        amount=amount,
        reason=reason,
        return_id=return_id,
        posted_date=db.now_iso(),
    )
    db.update(orders, order_id, last_update_date=db.now_iso())
    return made
