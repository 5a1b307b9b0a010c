"""Purchase orders: what a Buy It Now checkout, an accepted Best Offer or a won auction becomes. Every order waits
for the buyer to confirm the payment in the eBay app."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .rules import check_quantity, check_ships_to, delivery_window, listing, require_active, sales_tax
from .schema import checkout_sessions, items, line_items, purchase_orders, shipping_options


@dataclass(frozen=True)
class Purchase:
    """One line of a new order."""

    item: dict[str, Any]
    quantity: int
    unit_price: int
    option: dict[str, Any]
    purchase_type: str  # FIXED_PRICE | BEST_OFFER | AUCTION


def options_of(db: Database, item_id: str) -> list[dict[str, Any]]:
    """A listing's shipping options, cheapest (the default) first."""
    return db.find(shipping_options, item_id=item_id, order_by=[shipping_options.c.sort_order])


def option_by_id(db: Database, item: dict[str, Any], shipping_option_id: str) -> dict[str, Any]:
    """One of a listing's shipping options by its id (the shipping service code)."""
    for option in options_of(db, item["item_id"]):
        if option["shipping_service_code"].casefold() == shipping_option_id.strip().casefold():
            return option
    offered = ", ".join(o["shipping_service_code"] for o in options_of(db, item["item_id"]))
    raise InvalidRequest(f"Shipping option {shipping_option_id} isn't offered for this item (choose {offered}).")


def shipping_cost(option: dict[str, Any], quantity: int) -> int:
    """What a service costs for `quantity` units: the first unit, plus the additional-unit cost for the rest."""
    return option["cost"] + option["additional_unit_cost"] * (quantity - 1)


def take_stock(db: Database, item: dict[str, Any], quantity: int) -> None:
    """Sell units of a listing; a listing with none left, or an auction bought outright, ends."""
    left = item["quantity"] - quantity
    ended = left == 0 or "AUCTION" in item["buying_options"]
    db.update(
        items,
        item["item_id"],
        quantity=left,
        quantity_sold=item["quantity_sold"] + quantity,
        listing_status="ENDED" if ended else item["listing_status"],
    )


def create_order(db: Database, buyer: dict[str, Any], address: dict[str, Any], lines: list[Purchase]) -> dict[str, Any]:
    """Book a purchase order (payment PENDING until the buyer confirms it in the app) and sell the units."""
    order_id = db.new_id(purchase_orders, "25-13284-", width=5)
    subtotal = sum(p.unit_price * p.quantity for p in lines)
    delivery = sum(shipping_cost(p.option, p.quantity) for p in lines)
    tax = sales_tax(address, subtotal + delivery)
    order = db.insert(
        purchase_orders,
        purchase_order_id=order_id,
        buyer=buyer["username"],
        purchase_order_status="PENDING",
        payment_status="PENDING",
        payment_method=buyer["payment_method"],
        shipping_address=address,
        price_subtotal=subtotal,
        delivery_cost=delivery,
        tax=tax,
        total=subtotal + delivery + tax,
        refunded_amount=0,
        creation_date=db.now_iso(),
        paid_date=None,
    )
    for p in lines:
        earliest, latest = delivery_window(db, p.item, p.option)
        db.insert(
            line_items,
            line_item_id=db.new_id(line_items, "26501", width=7),
            purchase_order_id=order_id,
            item_id=p.item["item_id"],
            seller=p.item["seller"],
            title=p.item["title"],
            quantity=p.quantity,
            unit_price=p.unit_price,
            purchase_type=p.purchase_type,
            shipping_service_code=p.option["shipping_service_code"],
            shipping_cost=shipping_cost(p.option, p.quantity),
            fulfillment_status="NOT_STARTED",
            shipping_carrier=None,
            tracking_number=None,
            shipped_date=None,
            delivered_date=None,
            min_estimated_delivery_date=earliest,
            max_estimated_delivery_date=latest,
        )
        take_stock(db, db.get(items, p.item["item_id"], "Item"), p.quantity)
    return order


def buy_it_now_item(db: Database, buyer: dict[str, Any], item_id: str, quantity: int) -> dict[str, Any]:
    """A listing that can be bought now at its Buy It Now price, in this quantity, by this buyer."""
    item = listing(db, item_id)
    require_active(db, item)
    if "FIXED_PRICE" not in item["buying_options"]:
        raise Conflict(f"'{item['title']}' has no Buy It Now option (any longer): bid on it or make an offer.")
    check_ships_to(item, buyer["shipping_address"])
    check_quantity(db, buyer, item, quantity)
    return item


def start_checkout(db: Database, buyer: dict[str, Any], wanted: list[tuple[str, int]]) -> dict[str, Any]:
    """A checkout session for (item ID, quantity) lines, each with its cheapest shipping service."""
    lines: list[dict[str, Any]] = []
    for index, (item_id, quantity) in enumerate(wanted, start=1):
        item = buy_it_now_item(db, buyer, item_id, quantity)
        if any(line["itemId"] == item["item_id"] for line in lines):
            raise InvalidRequest(f"'{item['title']}' is listed twice; set its quantity instead.")
        lines.append(
            {
                "lineItemId": str(index),
                "itemId": item["item_id"],
                "quantity": quantity,
                "shippingOptionId": options_of(db, item["item_id"])[0]["shipping_service_code"],
            }
        )
    return db.insert(
        checkout_sessions,
        checkout_session_id=db.new_id(checkout_sessions, "1000", width=8),
        username=buyer["username"],
        line_items=lines,
        shipping_address=buyer["shipping_address"],
        status="ACTIVE",
        purchase_order_id=None,
        created=db.now_iso(),
    )


def choose_shipping(db: Database, session: dict[str, Any], line_item_id: str, shipping_option_id: str) -> dict:
    """A checkout session with another shipping service on one line."""
    lines = [dict(line) for line in session["line_items"]]
    line = next((li for li in lines if li["lineItemId"] == line_item_id.strip()), None)
    if line is None:
        raise NotFound(f"Line item {line_item_id} is not in checkout session {session['checkout_session_id']}.")
    item = db.get(items, line["itemId"], "Item")
    line["shippingOptionId"] = option_by_id(db, item, shipping_option_id)["shipping_service_code"]
    return db.update(checkout_sessions, session["checkout_session_id"], line_items=lines)


def place_session(db: Database, buyer: dict[str, Any], session: dict[str, Any]) -> dict[str, Any]:
    """Buy a checkout session's lines at their Buy It Now prices; the session records the order."""
    purchases = []
    for line in session["line_items"]:
        item = buy_it_now_item(db, buyer, line["itemId"], line["quantity"])
        option = option_by_id(db, item, line["shippingOptionId"])
        purchases.append(Purchase(item, line["quantity"], item["price"], option, "FIXED_PRICE"))
    order = create_order(db, buyer, session["shipping_address"], purchases)
    db.update(
        checkout_sessions,
        session["checkout_session_id"],
        status="ORDER_PLACED",
        purchase_order_id=order["purchase_order_id"],
    )
    return order
