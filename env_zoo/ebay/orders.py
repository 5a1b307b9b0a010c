"""Purchase orders: what a Buy It Now checkout, an accepted Best Offer or a won auction becomes. Every order waits
for the buyer to confirm the payment in the eBay app."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envfactory_gym import Database, InvalidRequest

from .rules import delivery_window, sales_tax
from .schema import items, line_items, purchase_orders, shipping_options


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
