"""BigCommerce's business rules shared by the tools: prices a customer pays (price lists, group discounts,
modifier adjusters), stock by inventory_tracking mode, coupon eligibility, shipping quotes, the order status flow,
what is left to ship and what is left to refund."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table

from envfactory_gym import Database

from .errors import conflict, not_found, unprocessable
from .schema import (
    customer_groups,
    customers,
    modifiers,
    price_lists,
    price_records,
    products,
    refunds,
    shipments,
    variants,
)

STATUSES = {
    0: "Incomplete",
    1: "Pending",
    2: "Shipped",
    3: "Partially Shipped",
    4: "Refunded",
    5: "Cancelled",
    6: "Declined",
    7: "Awaiting Payment",
    8: "Awaiting Pickup",
    9: "Awaiting Shipment",
    10: "Completed",
    11: "Awaiting Fulfillment",
    12: "Manual Verification Required",
    13: "Disputed",
    14: "Partially Refunded",
}
#: Statuses with no captured payment: nothing to ship or refund yet.
UNPAID = (0, 1, 6, 7)
#: Statuses no further change leaves.
FINAL = (4, 5)
FREE_SHIPPING_FROM = 15000  # cents, after the coupon
DOMESTIC = "US"


def fetch(db: Database, table: Table, key: Any, entity: str) -> dict[str, Any]:
    """The row with this id, or BigCommerce's 404 naming the entity."""
    found = db.find(table, id=key)
    if not found:
        raise not_found(entity, key)
    return found[0]


def cents(amount: float) -> int:
    """A decimal amount of dollars as whole cents."""
    return int(round(amount * 100))


def group_of(db: Database, customer_id: int) -> dict[str, Any] | None:
    """The customer's group (None for guests and customers in no group)."""
    if not customer_id:
        return None
    customer = fetch(db, customers, customer_id, "customer")
    if customer["customer_group_id"] is None:
        return None
    return db.get(customer_groups, customer["customer_group_id"])


def unit_price(db: Database, product: dict[str, Any], variant: dict[str, Any] | None, customer_id: int) -> int:
    """What one unit costs this customer before modifiers: the group's active price list record when there is one
    (no group discount on top), else the variant's or product's price less the group's discount percent."""
    group = group_of(db, customer_id)
    if group and group["price_list_id"] and variant is not None:
        active = db.get(price_lists, group["price_list_id"])["active"]
        record = db.find(price_records, price_list_id=group["price_list_id"], variant_id=variant["id"])
        if active and record:
            return int(record[0]["price"])
    base = variant["price"] if variant is not None and variant["price"] is not None else product["price"]
    percent = group["discount_percent"] if group else 0
    return int(base) * (100 - percent) // 100


def resolve_line(
    db: Database, product_id: int, variant_id: int | None, modifier_choices: list[tuple[int, int]]
) -> tuple[dict[str, Any], dict[str, Any] | None, list[dict[str, Any]]]:
    """The product, variant and chosen modifier values of a line item, checked: a product with variants needs
    one of its own purchasable variants, and every required modifier needs a value."""
    product = fetch(db, products, product_id, "product")
    if not product["is_visible"]:
        raise unprocessable(f"Product {product_id} is not available for purchase.", "product_id")
    own = db.find(variants, product_id=product_id)
    variant = None
    if variant_id is not None:
        variant = next((v for v in own if v["id"] == variant_id), None)
        if variant is None:
            raise unprocessable(f"Variant {variant_id} does not belong to product {product_id}.", "variant_id")
        if variant["purchasing_disabled"]:
            raise unprocessable(f"Variant {variant['sku']} is not available for purchase.", "variant_id")
    elif len(own) > 1:
        raise unprocessable(f"Product {product_id} has options: a variant_id is required.", "variant_id")
    elif own:
        variant = own[0]
    chosen = []
    choices = dict(modifier_choices)
    for modifier in db.find(modifiers, product_id=product_id):
        value_id = choices.pop(modifier["id"], None)
        if value_id is None:
            if modifier["required"]:
                raise unprocessable(f"The '{modifier['display_name']}' option is required.", "option_selections")
            continue
        value = next((v for v in modifier["option_values"] if v["id"] == value_id), None)
        if value is None:
            raise unprocessable(f"Value {value_id} is not an option of '{modifier['display_name']}'.", "option_value")
        chosen.append({"modifier_id": modifier["id"], "name": modifier["display_name"], **value})
    if choices:
        raise unprocessable(f"Product {product_id} has no modifier {next(iter(choices))}.", "option_id")
    return product, variant, chosen


def in_stock(product: dict[str, Any], variant: dict[str, Any] | None) -> int | None:
    """Units on hand under the product's inventory_tracking (None: not tracked, always purchasable)."""
    if product["inventory_tracking"] == "product":
        return int(product["inventory_level"])
    if product["inventory_tracking"] == "variant" and variant is not None:
        return int(variant["inventory_level"])
    return None


def check_stock(db: Database, lines: list[dict[str, Any]]) -> None:
    """Every tracked product or variant has the units the lines ask for (lines of one SKU counted together)."""
    wanted: dict[tuple[int, int | None], int] = {}
    for line in lines:
        product = db.get(products, line["product_id"])
        key = (product["id"], line["variant_id"] if product["inventory_tracking"] == "variant" else None)
        wanted[key] = wanted.get(key, 0) + line["quantity"]
    for (product_id, variant_id), quantity in wanted.items():
        product = db.get(products, product_id)
        variant = db.get(variants, variant_id) if variant_id is not None else None
        available = in_stock(product, variant)
        if available is not None and quantity > available:
            raise unprocessable(
                f"{product['name']} does not have sufficient stock: {quantity} requested, {available} available.",
                "quantity",
            )


def move_stock(db: Database, lines: list[dict[str, Any]], sign: int) -> None:
    """Take units out of (sign -1) or back into (sign +1) the tracked inventory of each line."""
    for line in lines:
        product = db.get(products, line["product_id"])
        if product["inventory_tracking"] == "product":
            db.update(products, product["id"], inventory_level=product["inventory_level"] + sign * line["quantity"])
        elif product["inventory_tracking"] == "variant" and line["variant_id"] is not None:
            variant = db.get(variants, line["variant_id"])
            db.update(variants, variant["id"], inventory_level=variant["inventory_level"] + sign * line["quantity"])


def coupon_discount(coupon: dict[str, Any], subtotal: int) -> int:
    """What the coupon takes off this subtotal."""
    if coupon["type"] == "percentage_discount":
        return subtotal * int(coupon["amount"]) // 100
    return min(subtotal, int(coupon["amount"]))


def check_coupon(db: Database, coupon: dict[str, Any], subtotal: int) -> None:
    """A coupon is usable when enabled, unexpired, under its use limit and the subtotal reaches its minimum."""
    if not coupon["enabled"]:
        raise unprocessable(f"The coupon code '{coupon['code']}' is not valid.", "coupon_code")
    if coupon["expires"] and coupon["expires"] < db.now_iso():
        raise unprocessable(f"The coupon code '{coupon['code']}' has expired.", "coupon_code")
    if coupon["max_uses"] and coupon["num_uses"] >= coupon["max_uses"]:
        raise unprocessable(
            f"The coupon code '{coupon['code']}' has reached its maximum number of uses.", "coupon_code"
        )
    if subtotal < coupon["min_purchase"]:
        raise unprocessable(
            f"You must spend at least ${coupon['min_purchase'] / 100:.2f} to use the coupon '{coupon['code']}'.",
            "coupon_code",
        )


def shipping_options(country_code: str, goods: int) -> list[dict[str, Any]]:
    """The store's shipping quotes for an address and the goods' value after the coupon (cents)."""
    if country_code != DOMESTIC:
        return [{"id": "international", "description": "International Standard", "cost": 3999}]
    options = [
        {"id": "flat-rate", "description": "Flat Rate (5-7 business days)", "cost": 899},
        {"id": "expedited", "description": "Expedited (2 business days)", "cost": 2499},
    ]
    if goods >= FREE_SHIPPING_FROM:
        options.insert(0, {"id": "free-shipping", "description": "Free Shipping (orders $150+)", "cost": 0})
    return options


def shipped_quantities(db: Database, order_id: int) -> dict[int, int]:
    """Units shipped so far per order product id."""
    done: dict[int, int] = {}
    for shipment in db.find(shipments, order_id=order_id):
        for item in shipment["items"]:
            done[item["order_product_id"]] = done.get(item["order_product_id"], 0) + item["quantity"]
    return done


def refunded(db: Database, order_id: int) -> tuple[int, dict[int, int], int]:
    """What the order's refunds took back: the total, units per order product and the shipping amount."""
    total, units, shipping = 0, {}, 0
    for refund in db.find(refunds, order_id=order_id):
        total += refund["total_amount"]
        for item in refund["items"]:
            if item["item_type"] == "PRODUCT":
                units[item["item_id"]] = units.get(item["item_id"], 0) + item["quantity"]
            else:
                shipping += item["amount"]
    return total, units, shipping


def refund_total(db: Database, order: dict[str, Any], items: list[dict[str, Any]]) -> int:
    """What refunding these items returns, checked against what is left: each product's unrefunded units, the
    unrefunded shipping, and the order's remaining amount (a coupon makes that less than the lines' sum)."""
    if order["status_id"] in UNPAID or order["status_id"] == 5:
        raise unprocessable(f"Order {order['id']} has no captured payment to refund.", "order_id")
    done_total, done_units, done_shipping = refunded(db, order["id"])
    lines = {p["id"]: p for p in order["products"]}
    asked: dict[int, int] = {}
    shipping = 0
    for item in items:
        if item["item_type"] == "PRODUCT":
            if item["item_id"] not in lines:
                raise unprocessable(f"Order {order['id']} has no product {item['item_id']}.", "items.item_id")
            asked[item["item_id"]] = asked.get(item["item_id"], 0) + item["quantity"]
        else:
            shipping += item["amount"]
    total = shipping
    for product_id, quantity in asked.items():
        left = lines[product_id]["quantity"] - done_units.get(product_id, 0)
        if quantity > left:
            raise unprocessable(
                f"Refund quantity for item {product_id} exceeds the {left} refundable.", "items.quantity"
            )
        total += lines[product_id]["price"] * quantity
    if shipping > order["shipping_cost"] - done_shipping:
        left_shipping = order["shipping_cost"] - done_shipping
        raise unprocessable(
            f"Shipping refund exceeds the refundable shipping ${left_shipping / 100:.2f}.", "items.amount"
        )
    remaining = order["total"] - done_total
    if total > remaining:
        raise unprocessable(
            f"Refund amount is greater than remaining amount (${remaining / 100:.2f}).", "total_refund_amount"
        )
    return total


def check_status_change(db: Database, order: dict[str, Any], status_id: int) -> None:
    """Which status changes the store allows: none out of Cancelled or Refunded, and no cancelling once something
    shipped (shipped and refunded statuses are not settable: shipments and refunds set them)."""
    if order["status_id"] in FINAL:
        raise conflict(f"Order {order['id']} is {STATUSES[order['status_id']]}; its status cannot change.")
    if status_id == 5 and shipped_quantities(db, order["id"]):
        raise conflict(f"Order {order['id']} has shipments and cannot be cancelled; refund it instead.")
