"""Walmart Marketplace API tools for a seller: sign in with client credentials, read ship nodes, items, prices,
promotions and inventory, reprice, schedule or delete promotional prices, retire items, update inventory per ship
node; list and read purchase orders, acknowledge them, ship lines with carrier tracking (and correct tracking
within four hours), cancel unshipped lines, refund shipped lines; list and read return orders and refund them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate, tool
from envfactory_gym.fields import ErrorText, IsoDate, IsoTimestamp, NonBlankText, page_size, text
from envfactory_gym.values import iso_timestamp, minor_units, parse_timestamp

from . import access, rules
from .objects import (
    InventoryObject,
    ItemObject,
    ItemSummary,
    OrderObject,
    OrderSummary,
    PromotionObject,
    ReturnObject,
    ReturnSummary,
    ShipNodeObject,
    inventory_object,
    item_object,
    item_summary,
    order_object,
    order_summary,
    promotion_object,
    return_object,
    return_summary,
    ship_node_object,
)
from .schema import (
    inventory,
    items,
    order_lines,
    orders,
    promotions,
    refunds,
    return_lines,
    returns,
    sellers,
    sessions,
    ship_nodes,
)

Sku = Annotated[
    str, Field(min_length=1, max_length=50), ErrorText("INVALID_REQUEST_PARAM: sku must be 1-50 characters.")
]
PurchaseOrderId = Annotated[
    str,
    Field(pattern=r"^\d{13}$"),
    ErrorText("INVALID_REQUEST_PARAM: purchaseOrderId is 13 digits, e.g. 1817421635108."),
]
ReturnOrderId = Annotated[
    str,
    Field(pattern=r"^\d{15}$"),
    ErrorText("INVALID_REQUEST_PARAM: returnOrderId is 15 digits, e.g. 771394650215683."),
]
ShipNodeId = Annotated[str, Field(pattern=r"^\d{6}$"), ErrorText("INVALID_REQUEST_CONTENT: shipNode is 6 digits.")]
Price = Annotated[
    str,
    Field(pattern=r"^\d{1,5}(\.\d{1,2})?$"),
    ErrorText("INVALID_REQUEST_CONTENT: price must be a positive amount in USD, e.g. 24.99."),
]
RefundAmount = Annotated[
    str,
    Field(pattern=r"^-\d{1,5}(\.\d{1,2})?$"),
    ErrorText("INVALID_REQUEST_CONTENT: the refund amount must be negative, e.g. -12.50."),
]
LineNumbers = Annotated[list[Annotated[int, Field(ge=1, le=99)]], Field(min_length=1, max_length=20)]
Carrier = Literal["UPS", "USPS", "FedEx", "OnTrac", "DHL", "LSO"]
MethodCode = Literal["Value", "Standard", "Express", "OneDay"]
LineStatus = Literal["Created", "Acknowledged", "Shipped", "Delivered", "Cancelled"]
CancellationReason = Literal[
    "CUSTOMER_REQUESTED_SELLER_TO_CANCEL",
    "SELLER_CANCEL_OUT_OF_STOCK",
    "SELLER_CANCEL_PRICING_ERROR",
    "SELLER_CANCEL_FRAUD_STOP_SHIPMENT",
    "SELLER_CANCEL_ADDRESS_NOT_SERVICEABLE",
]
RefundReason = Literal[
    "BillingError",
    "TaxExemptCustomer",
    "ItemNotAsAdvertised",
    "IncorrectItemReceived",
    "CancelledYetShipped",
    "ItemNotReceivedByCustomer",
    "IncorrectShippingPrice",
    "DamagedItem",
    "DefectiveItem",
    "CustomerChangedMind",
    "CustomerReceivedItemLate",
    "Goodwill",
]
PageSize = page_size(50)


class NodeUpdate(BaseModel):
    """The new on-hand quantity of an item at one ship node."""

    ship_node: ShipNodeId
    amount: Annotated[int, Field(ge=0, le=100000)]


def cents(value: str, name: str) -> int:
    """A USD amount argument as positive cents."""
    amount = abs(minor_units(value, "USD", name))
    if amount == 0:
        raise InvalidRequest(f"INVALID_REQUEST_CONTENT: {name} must be more than 0.00.")
    return amount


# ---------------------------------------------------------------- the seller


@tool(user_only=True)
def sign_in(db: Database, client_id: NonBlankText, client_secret: NonBlankText) -> list[ShipNodeObject]:
    """(User only) The seller enters their Marketplace API client id and secret; the assistant may then act for that
    seller. Returns the seller's ship nodes.

    Args:
        client_id: The API client id from Seller Center.
        client_secret: Its client secret.
    """
    found = db.find(sellers, client_id=client_id.strip())
    if not found or found[0]["client_secret"] != client_secret:
        raise PermissionDenied("UNAUTHORIZED: invalid client id or client secret.")
    db.start_session(sessions, partner_id=found[0]["partner_id"])
    return list_ship_nodes(db)


@tool(read_only=True)
def list_ship_nodes(db: Database) -> list[ShipNodeObject]:
    """List the signed-in seller's fulfillment centers (ship nodes): id, name, place and whether active."""
    return [ship_node_object(row) for row in db.find(ship_nodes, partner_id=access.partner_id(db))]


# ---------------------------------------------------------------- items and prices


@tool(read_only=True)
def list_items(
    db: Database,
    query: text(100) | None = None,
    lifecycle_status: Literal["ACTIVE", "RETIRED", "ARCHIVED"] | None = None,
    published_status: Literal["PUBLISHED", "UNPUBLISHED", "IN_PROGRESS", "SYSTEM_PROBLEM"] | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[ItemSummary]:
    """List the seller's catalog items, by SKU, optionally filtered.

    Args:
        query: Words the product name or brand must contain.
        lifecycle_status: ACTIVE, RETIRED or ARCHIVED.
        published_status: PUBLISHED, UNPUBLISHED, IN_PROGRESS or SYSTEM_PROBLEM.
        page_size: Items per page.
        cursor: next_cursor of the previous page.
    """
    where, params = ["partner_id = ?"], [access.partner_id(db)]
    if lifecycle_status is not None:
        where.append("lifecycle_status = ?")
        params.append(lifecycle_status)
    if published_status is not None:
        where.append("published_status = ?")
        params.append(published_status)
    for word in (query or "").lower().split():
        where.append("lower(product_name || ' ' || brand) LIKE ?")
        params.append(f"%{word}%")
    rows = db.select(items, " AND ".join(where), params, order_by="sku")
    return paginate([item_summary(row) for row in rows], page_size, cursor)


@tool(read_only=True)
def get_item(db: Database, id: NonBlankText, product_id_type: Literal["SKU", "GTIN", "ITEM_ID"] = "SKU") -> ItemObject:
    """Retrieve one item with its price, promotional prices and inventory at each ship node.

    Args:
        id: The item's SKU, GTIN (14 digits) or Walmart item id, as product_id_type says.
        product_id_type: SKU (default), GTIN or ITEM_ID.
    """
    column = {"SKU": "sku", "GTIN": "gtin", "ITEM_ID": "item_id"}[product_id_type]
    found = db.find(items, **{column: id.strip()}, partner_id=access.partner_id(db))
    if not found:
        raise NotFound(f"CONTENT_NOT_FOUND: Item not found for {product_id_type} '{id}'.")
    row = found[0]
    return item_object(db, row, db.find(promotions, sku=row["sku"], order_by=[promotions.c.start_at]))


@tool()
def update_price(db: Database, sku: Sku, price: Price) -> ItemSummary:
    """Set an item's regular selling price (USD). Retired items cannot be repriced.

    Args:
        sku: The item's SKU.
        price: The new price, e.g. "24.99".
    """
    row = access.item(db, sku)
    rules.check_active(row)
    return item_summary(db.update(items, sku, price=cents(price, "price"), price_updated_at=db.now_iso()))


@tool(read_only=True)
def list_promotions(db: Database, sku: Sku) -> list[PromotionObject]:
    """List an item's promotional prices (scheduled, active and expired), by start.

    Args:
        sku: The item's SKU.
    """
    access.item(db, sku)
    now = db.now()
    return [promotion_object(row, now) for row in db.find(promotions, sku=sku, order_by=[promotions.c.start_at])]


@tool()
def create_promotion(
    db: Database,
    sku: Sku,
    price_type: Literal["REDUCED", "CLEARANCE"],
    current_price: Price,
    comparison_price: Price,
    start_at: IsoTimestamp,
    end_at: IsoTimestamp,
) -> PromotionObject:
    """Schedule a promotional price: a REDUCED or CLEARANCE badge with the sale price and a struck-through
    comparison price. It must start more than four hours from now, end after it starts and within 180 days, not
    overlap another promotion of the SKU, and an item takes at most ten.

    Args:
        sku: The item's SKU.
        price_type: REDUCED or CLEARANCE.
        current_price: The sale price, e.g. "19.99".
        comparison_price: The higher price shown struck through, e.g. "24.99".
        start_at: When it starts (ISO 8601 with zone, e.g. 2026-03-14T05:00:00Z).
        end_at: When it ends.
    """
    row = access.item(db, sku)
    rules.check_active(row)
    start = parse_timestamp(start_at, "start_at", "2026-03-14T05:00:00Z")
    end = parse_timestamp(end_at, "end_at", "2026-03-21T05:00:00Z")
    sale, comparison = cents(current_price, "current_price"), cents(comparison_price, "comparison_price")
    rules.check_promotion(db, sku, start, end, sale, comparison)
    created = db.insert(
        promotions,
        promo_id=db.new_id(promotions, "PROMO-", 6),
        sku=sku,
        price_type=price_type,
        current_price=sale,
        comparison_price=comparison,
        start_at=iso_timestamp(start),
        end_at=iso_timestamp(end),
    )
    return promotion_object(created, db.now())


@tool()
def delete_promotion(
    db: Database, sku: Sku, promo_id: Annotated[str, Field(pattern=r"^PROMO-\d{6}$")]
) -> list[PromotionObject]:
    """Delete one promotional price of an item (not within the four hours before it starts). Returns the item's
    remaining promotions.

    Args:
        sku: The item's SKU.
        promo_id: The promotion's id, e.g. PROMO-000112.
    """
    access.item(db, sku)
    row = db.find_one(
        promotions,
        promo_id=promo_id,
        sku=sku,
        not_found=f"CONTENT_NOT_FOUND: promotion {promo_id} not found on SKU '{sku}'.",
    )
    rules.check_promo_cancel(db, row)
    db.delete(promotions, promo_id)
    return list_promotions(db, sku)


@tool()
def retire_item(db: Database, sku: Sku) -> ItemSummary:
    """Retire an item: it stays in the catalog with its history but is unpublished and no longer for sale. A
    retired SKU cannot be reused or repriced.

    Args:
        sku: The item's SKU.
    """
    row = access.item(db, sku)
    if row["lifecycle_status"] != "ACTIVE":
        raise Conflict(f"INVALID_REQUEST_CONTENT: item {sku} is already {row['lifecycle_status']}.")
    return item_summary(
        db.update(
            items,
            sku,
            lifecycle_status="RETIRED",
            published_status="UNPUBLISHED",
            unpublished_reason="Retired by seller",
        )
    )


# ---------------------------------------------------------------- inventory


@tool(read_only=True)
def get_inventory(db: Database, sku: Sku) -> InventoryObject:
    """An item's inventory at each of the seller's ship nodes: on hand (input), reserved (sold, not shipped) and
    available to sell.

    Args:
        sku: The item's SKU.
    """
    access.item(db, sku)
    return inventory_object(db, sku, access.partner_id(db))


@tool()
def update_inventory(
    db: Database, sku: Sku, nodes: Annotated[list[NodeUpdate], Field(min_length=1, max_length=10)]
) -> InventoryObject:
    """Set an item's on-hand quantity (input quantity, units EACH) at one or more ship nodes. The quantity counts
    units sold but not yet shipped, so it cannot be set below the reserved quantity; an inactive node takes none.

    Args:
        sku: The item's SKU.
        nodes: Ship node ids with their new on-hand amounts.
    """
    access.item(db, sku)
    if len({n.ship_node for n in nodes}) != len(nodes):
        raise InvalidRequest("INVALID_REQUEST_CONTENT: a shipNode is listed twice.")
    plans = []
    for node in nodes:
        if access.ship_node(db, node.ship_node)["status"] != "ACTIVE":
            raise Conflict(f"INVALID_REQUEST_CONTENT: shipNode {node.ship_node} is inactive.")
        row = rules.stock(db, sku, node.ship_node)
        reserved = row["reserved_qty"] if row else 0
        if node.amount < reserved:
            raise Conflict(
                f"INVALID_REQUEST_CONTENT: inputQty {node.amount} at shipNode {node.ship_node} is below the "
                f"{reserved} units reserved for unshipped orders."
            )
        plans.append((row, node))
    for row, node in plans:
        if row is None:
            db.insert(
                inventory,
                id=f"{sku}@{node.ship_node}",
                sku=sku,
                ship_node=node.ship_node,
                input_qty=node.amount,
                reserved_qty=0,
            )
        else:
            db.update(inventory, row["id"], input_qty=node.amount)
    return inventory_object(db, sku, access.partner_id(db))


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def list_orders(
    db: Database,
    status: LineStatus | None = None,
    sku: Sku | None = None,
    customer_order_id: Annotated[str, Field(pattern=r"^\d{13}$")] | None = None,
    created_start_date: IsoDate | None = None,
    created_end_date: IsoDate | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[OrderSummary]:
    """List the seller's purchase orders, newest first.

    Args:
        status: Only orders with a line in this status.
        sku: Only orders with a line of this SKU.
        customer_order_id: The customer's order number.
        created_start_date: Ordered on or after this date.
        created_end_date: Ordered on or before this date.
        page_size: Orders per page.
        cursor: next_cursor of the previous page.
    """
    where, params = ["partner_id = ?"], [access.partner_id(db)]
    if customer_order_id is not None:
        where.append("customer_order_id = ?")
        params.append(customer_order_id)
    if created_start_date is not None:
        where.append("order_date >= ?")
        params.append(created_start_date)
    if created_end_date is not None:
        where.append("order_date < ?")
        params.append(created_end_date + "T99")
    for column, value in (("status", status), ("sku", sku)):
        if value is not None:
            where.append(f"purchase_order_id IN (SELECT purchase_order_id FROM order_lines WHERE {column} = ?)")
            params.append(value)
    rows = db.select(orders, " AND ".join(where), params, order_by="order_date DESC")
    page = paginate(rows, page_size, cursor)
    return Page[OrderSummary](
        results=[order_summary(row, rules.lines(db, row["purchase_order_id"])) for row in page.results],
        next_cursor=page.next_cursor,
        has_more=page.has_more,
    )


@tool(read_only=True)
def get_order(db: Database, purchase_order_id: PurchaseOrderId) -> OrderObject:
    """Retrieve a purchase order: customer, ship-to address, shipping method and dates, every line with its status,
    ship node, tracking and refunds.

    Args:
        purchase_order_id: The purchase order's id (13 digits).
    """
    return order_object(db, access.order(db, purchase_order_id))


@tool()
def acknowledge_order(db: Database, purchase_order_id: PurchaseOrderId) -> OrderObject:
    """Acknowledge a purchase order: every Created line becomes Acknowledged. Required before shipping.

    Args:
        purchase_order_id: The purchase order's id.
    """
    row = access.order(db, purchase_order_id)
    created = [line for line in rules.lines(db, purchase_order_id) if line["status"] == "Created"]
    if not created:
        raise Conflict(
            f"INVALID_REQUEST_CONTENT: purchase order {purchase_order_id} has no lines in Created status "
            "to acknowledge."
        )
    for line in created:
        db.update(order_lines, line["id"], status="Acknowledged", updated_at=db.now_iso())
    return order_object(db, row)


@tool()
def ship_order_lines(
    db: Database,
    purchase_order_id: PurchaseOrderId,
    line_numbers: LineNumbers,
    carrier: Carrier,
    tracking_number: Annotated[str, Field(pattern=r"^[A-Z0-9]{8,30}$")],
    method_code: MethodCode | None = None,
    ship_date_time: IsoTimestamp | None = None,
) -> OrderObject:
    """Mark acknowledged lines Shipped with the carrier and tracking number; this charges the customer and takes
    the units off the ship node. The tracking number must have the carrier's format.

    Args:
        purchase_order_id: The purchase order's id.
        line_numbers: The lines shipped in this package.
        carrier: UPS, USPS, FedEx, OnTrac, DHL or LSO.
        tracking_number: The carrier's tracking number.
        method_code: The shipping method used; the order's method when left out.
        ship_date_time: When it shipped (UTC, not in the future); now when left out.
    """
    row = access.order(db, purchase_order_id)
    picked = rules.picked_lines(db, purchase_order_id, line_numbers)
    for line in picked:
        if line["status"] == "Created":
            raise Conflict(
                f"INVALID_REQUEST_CONTENT: line {line['line_number']} must be acknowledged before it is shipped."
            )
        if line["status"] != "Acknowledged":
            raise Conflict(
                f"INVALID_REQUEST_CONTENT: line {line['line_number']} is {line['status']} and cannot be shipped."
            )
    rules.check_tracking(carrier, tracking_number)
    shipped = db.now()
    if ship_date_time is not None:
        shipped = parse_timestamp(ship_date_time, "ship_date_time", "2026-03-10T14:30:00Z")
        if shipped > db.now():
            raise InvalidRequest("INVALID_REQUEST_CONTENT: shipDateTime cannot be in the future.")
        if shipped < rules.moment(row["order_date"]):
            raise InvalidRequest("INVALID_REQUEST_CONTENT: shipDateTime cannot be before the order date.")
    for line in picked:
        rules.release(db, line, shipped=True)
        db.update(
            order_lines,
            line["id"],
            status="Shipped",
            carrier=carrier,
            method_code=method_code or row["method_code"],
            tracking_number=tracking_number,
            shipped_at=iso_timestamp(shipped),
            updated_at=db.now_iso(),
        )
    return order_object(db, row)


@tool()
def update_tracking(
    db: Database,
    purchase_order_id: PurchaseOrderId,
    line_number: Annotated[int, Field(ge=1, le=99)],
    carrier: Carrier,
    tracking_number: Annotated[str, Field(pattern=r"^[A-Z0-9]{8,30}$")],
) -> OrderObject:
    """Correct the carrier or tracking number of a shipped line; allowed only within four hours of shipping.

    Args:
        purchase_order_id: The purchase order's id.
        line_number: The shipped line.
        carrier: The right carrier.
        tracking_number: The right tracking number.
    """
    row = access.order(db, purchase_order_id)
    line = rules.picked_lines(db, purchase_order_id, [line_number])[0]
    if line["status"] != "Shipped":
        raise Conflict(
            f"INVALID_REQUEST_CONTENT: line {line_number} is {line['status']}; "
            "only Shipped lines have tracking to update."
        )
    if db.now() > rules.moment(line["shipped_at"]) + rules.TRACKING_FIX_WINDOW:
        raise Conflict(
            f"INVALID_REQUEST_CONTENT: tracking for line {line_number} can only be updated within four hours "
            f"of shipping (shipped {line['shipped_at']})."
        )
    rules.check_tracking(carrier, tracking_number)
    db.update(order_lines, line["id"], carrier=carrier, tracking_number=tracking_number, updated_at=db.now_iso())
    return order_object(db, row)


@tool()
def cancel_order_lines(
    db: Database, purchase_order_id: PurchaseOrderId, line_numbers: LineNumbers, cancellation_reason: CancellationReason
) -> OrderObject:
    """Cancel unshipped lines (Created or Acknowledged) of a purchase order. Their reserved units are released;
    with SELLER_CANCEL_OUT_OF_STOCK Walmart also marks the SKU out of stock at that line's ship node.

    Args:
        purchase_order_id: The purchase order's id.
        line_numbers: The lines to cancel.
        cancellation_reason: Why; CUSTOMER_REQUESTED_SELLER_TO_CANCEL only when the customer asked.
    """
    row = access.order(db, purchase_order_id)
    picked = rules.picked_lines(db, purchase_order_id, line_numbers)
    for line in picked:
        if line["status"] not in rules.OPEN_LINE:
            raise Conflict(
                f"INVALID_REQUEST_CONTENT: line {line['line_number']} is {line['status']} and cannot be cancelled."
            )
    for line in picked:
        rules.release(db, line, shipped=False)
        if cancellation_reason == "SELLER_CANCEL_OUT_OF_STOCK":
            rules.mark_out_of_stock(db, line)
        db.update(
            order_lines,
            line["id"],
            status="Cancelled",
            cancellation_reason=cancellation_reason,
            updated_at=db.now_iso(),
        )
    return order_object(db, row)


@tool()
def refund_order_line(
    db: Database,
    purchase_order_id: PurchaseOrderId,
    line_number: Annotated[int, Field(ge=1, le=99)],
    amount: RefundAmount,
    reason: RefundReason,
) -> OrderObject:
    """Refund part or all of a shipped line (product and shipping charged). Walmart takes the amount negative and
    never more than is left of what the line was charged.

    Args:
        purchase_order_id: The purchase order's id.
        line_number: The shipped line.
        amount: The refund, negative, e.g. "-12.50".
        reason: Why, e.g. DamagedItem or CustomerReceivedItemLate.
    """
    row = access.order(db, purchase_order_id)
    line = rules.picked_lines(db, purchase_order_id, [line_number])[0]
    value = cents(amount, "amount")
    rules.check_refund(line, value)
    db.insert(
        refunds,
        refund_id=db.new_id(refunds, "RF-", 7),
        purchase_order_id=purchase_order_id,
        line_number=line_number,
        amount=value,
        reason=reason,
        return_order_id=None,
        created_at=db.now_iso(),
    )
    db.update(order_lines, line["id"], refunded=line["refunded"] + value, updated_at=db.now_iso())
    return order_object(db, row)


# ---------------------------------------------------------------- returns


@tool(read_only=True)
def list_returns(
    db: Database,
    status: Literal["INITIATED", "DELIVERED", "COMPLETED", "CANCELLED"] | None = None,
    purchase_order_id: PurchaseOrderId | None = None,
    customer_order_id: Annotated[str, Field(pattern=r"^\d{13}$")] | None = None,
    page_size: PageSize = 20,
    cursor: str | None = None,
) -> Page[ReturnSummary]:
    """List the seller's return orders, newest first.

    Args:
        status: INITIATED, DELIVERED (at the return center), COMPLETED or CANCELLED.
        purchase_order_id: Returns of this purchase order.
        customer_order_id: Returns of this customer order number.
        page_size: Returns per page.
        cursor: next_cursor of the previous page.
    """
    where, params = ["partner_id = ?"], [access.partner_id(db)]
    for column, value in (
        ("status", status),
        ("purchase_order_id", purchase_order_id),
        ("customer_order_id", customer_order_id),
    ):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    rows = db.select(returns, " AND ".join(where), params, order_by="created_at DESC")
    return paginate([return_summary(row) for row in rows], page_size, cursor)


@tool(read_only=True)
def get_return(db: Database, return_order_id: ReturnOrderId) -> ReturnObject:
    """Retrieve a return order with its lines and what each is due and has been refunded.

    Args:
        return_order_id: The return order's id (15 digits).
    """
    return return_object(db, access.return_order(db, return_order_id))


@tool()
def issue_return_refund(
    db: Database, return_order_id: ReturnOrderId, reason: RefundReason, return_line_numbers: LineNumbers | None = None
) -> ReturnObject:
    """Refund a return order (all its lines, or those named) for the amounts due; the return becomes COMPLETED once
    every line is refunded. Cancelled or completed returns take no refund.

    Args:
        return_order_id: The return order's id.
        reason: The refund reason, e.g. DefectiveItem.
        return_line_numbers: Only these return lines; every unrefunded line when left out.
    """
    row = access.return_order(db, return_order_id)
    if row["status"] not in ("INITIATED", "DELIVERED"):
        raise Conflict(f"INVALID_REQUEST_CONTENT: return {return_order_id} is {row['status']} and cannot be refunded.")
    all_lines = db.find(return_lines, return_order_id=return_order_id, order_by=[return_lines.c.return_line_number])
    by_number = {line["return_line_number"]: line for line in all_lines}
    numbers = return_line_numbers or [n for n, line in by_number.items() if line["refunded"] == 0]
    missing = [n for n in numbers if n not in by_number]
    if missing:
        raise InvalidRequest(
            f"INVALID_REQUEST_CONTENT: return line {missing[0]} does not exist on return {return_order_id}."
        )
    picked = [by_number[n] for n in numbers]
    for line in picked:
        if line["refunded"]:
            raise Conflict(f"INVALID_REQUEST_CONTENT: return line {line['return_line_number']} is already refunded.")
    order_line_rows = {line["line_number"]: line for line in rules.lines(db, row["purchase_order_id"])}
    for line in picked:
        rules.check_refund(order_line_rows[line["order_line_number"]], line["refund_amount"])
    for line in picked:
        order_line = order_line_rows[line["order_line_number"]]
        db.insert(
            refunds,
            refund_id=db.new_id(refunds, "RF-", 7),
            purchase_order_id=row["purchase_order_id"],
            line_number=order_line["line_number"],
            amount=line["refund_amount"],
            reason=reason,
            return_order_id=return_order_id,
            created_at=db.now_iso(),
        )
        db.update(
            order_lines,
            order_line["id"],
            refunded=order_line["refunded"] + line["refund_amount"],
            updated_at=db.now_iso(),
        )
        db.update(return_lines, line["id"], refunded=line["refund_amount"])
    if all(line["refunded"] for line in db.find(return_lines, return_order_id=return_order_id)):
        db.update(returns, return_order_id, status="COMPLETED", refunded_at=db.now_iso())
    return return_object(db, access.return_order(db, return_order_id))
