"""Carts and checkouts: line items priced for the cart's customer and checked against stock, one coupon code,
the billing address, one consignment with its shipping quote, and turning the checkout into an order."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import conflict, unprocessable
from .objects import cart_totals
from .rules import check_coupon, check_stock, fetch, move_stock, resolve_line, shipping_options, unit_price
from .schema import carts, coupons, customers, orders

#: Order product ids of new orders start above every seeded one.
ORDER_PRODUCT_BASE = 5000


def open_cart(db: Database, cart_id: str) -> dict[str, Any]:
    """A cart that has not yet become an order."""
    cart = fetch(db, carts, cart_id, "cart")
    if cart["order_id"] is not None:
        raise conflict(f"Checkout {cart_id} has already been converted to order {cart['order_id']}.")
    return cart


def priced_lines(db: Database, customer_id: int, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """New line items, checked and priced for the customer."""
    lines = []
    for item in items:
        choices = [(o["option_id"], o["option_value"]) for o in item["option_selections"]]
        product, variant, chosen = resolve_line(db, item["product_id"], item["variant_id"], choices)
        price = unit_price(db, product, variant, customer_id) + sum(c["price_adjuster"] for c in chosen)
        lines.append(
            {
                "id": db.new_uuid(carts),
                "product_id": product["id"],
                "variant_id": variant["id"] if variant else None,
                "name": product["name"],
                "sku": variant["sku"] if variant else product["sku"],
                "quantity": item["quantity"],
                "modifiers": chosen,
                "unit_price": price,
            }
        )
    return lines


def save_lines(db: Database, cart: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, Any]:
    """Store the cart's new line items; a change of items clears the chosen shipping quote."""
    check_stock(db, lines)
    consignment = cart["consignment"]
    if consignment:
        consignment = {**consignment, "selected_shipping_option": None}
    return db.update(carts, cart["id"], line_items=lines, consignment=consignment)


def create(db: Database, customer_id: int, items: list[dict[str, Any]]) -> dict[str, Any]:
    if customer_id:
        fetch(db, customers, customer_id, "customer")
    lines = priced_lines(db, customer_id, items)
    check_stock(db, lines)
    return db.insert(
        carts,
        id=db.new_uuid(carts),
        customer_id=customer_id,
        line_items=lines,
        coupon_code=None,
        billing_address=None,
        consignment=None,
        order_id=None,
        created_time=db.now_iso(),
    )


def add_items(db: Database, cart_id: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    cart = open_cart(db, cart_id)
    return save_lines(db, cart, cart["line_items"] + priced_lines(db, cart["customer_id"], items))


def remove_item(db: Database, cart_id: str, item_id: str) -> dict[str, Any]:
    cart = open_cart(db, cart_id)
    kept = [line for line in cart["line_items"] if line["id"] != item_id]
    if len(kept) == len(cart["line_items"]):
        raise unprocessable(f"Cart {cart_id} has no line item {item_id}.", "item_id")
    if not kept:
        raise unprocessable("A cart needs at least one line item; delete the cart instead.", "item_id")
    return save_lines(db, cart, kept)


def apply_coupon(db: Database, checkout_id: str, code: str) -> dict[str, Any]:
    cart = open_cart(db, checkout_id)
    found = [c for c in db.find(coupons) if c["code"].lower() == code.strip().lower()]
    if not found:
        raise unprocessable(f"The coupon code '{code}' is not valid.", "coupon_code")
    if cart["coupon_code"]:
        raise conflict(f"Coupon '{cart['coupon_code']}' is already applied; remove it before adding another.")
    check_coupon(db, found[0], cart_totals(db, cart)["subtotal"])
    return db.update(carts, cart["id"], coupon_code=found[0]["code"], consignment=cleared(cart))


def remove_coupon(db: Database, checkout_id: str, code: str) -> dict[str, Any]:
    cart = open_cart(db, checkout_id)
    if (cart["coupon_code"] or "").lower() != code.strip().lower():
        raise unprocessable(f"The coupon code '{code}' is not applied to this checkout.", "coupon_code")
    return db.update(carts, cart["id"], coupon_code=None, consignment=cleared(cart))


def cleared(cart: dict[str, Any]) -> dict[str, Any] | None:
    """The consignment with its shipping quote dropped (totals changed, so the quote must be chosen again)."""
    if not cart["consignment"]:
        return None
    return {**cart["consignment"], "selected_shipping_option": None}


def set_consignment(db: Database, checkout_id: str, address: dict[str, Any]) -> dict[str, Any]:
    cart = open_cart(db, checkout_id)
    consignment_id = cart["consignment"]["id"] if cart["consignment"] else db.new_uuid(carts)
    return db.update(
        carts, cart["id"], consignment={"id": consignment_id, "address": address, "selected_shipping_option": None}
    )


def choose_shipping(db: Database, checkout_id: str, consignment_id: str, option_id: str) -> dict[str, Any]:
    cart = open_cart(db, checkout_id)
    if not cart["consignment"] or cart["consignment"]["id"] != consignment_id:
        raise unprocessable(f"Checkout {checkout_id} has no consignment {consignment_id}.", "consignment_id")
    totals = cart_totals(db, cart)
    options = shipping_options(cart["consignment"]["address"]["country_code"], totals["subtotal"] - totals["discount"])
    option = next((o for o in options if o["id"] == option_id), None)
    if option is None:
        raise unprocessable(
            f"Shipping option '{option_id}' is not available for this consignment.", "shipping_option_id"
        )
    return db.update(carts, cart["id"], consignment={**cart["consignment"], "selected_shipping_option": option})


def place_order(db: Database, checkout_id: str) -> dict[str, Any]:
    """The order a complete checkout becomes (Awaiting Fulfillment: the card was charged at checkout); stock is
    taken and the coupon counted."""
    cart = open_cart(db, checkout_id)
    if not cart["billing_address"]:
        raise unprocessable("A billing address is required to create an order.", "billing_address")
    if not cart["consignment"]:
        raise unprocessable("A consignment with a shipping address is required.", "consignments")
    selected = cart["consignment"]["selected_shipping_option"]
    if not selected:
        raise unprocessable("Select a shipping option for the consignment before creating the order.", "consignments")
    check_stock(db, cart["line_items"])
    totals = cart_totals(db, cart)
    if cart["coupon_code"]:
        coupon = db.find(coupons, code=cart["coupon_code"])[0]
        check_coupon(db, coupon, totals["subtotal"])
        db.update(coupons, coupon["id"], num_uses=coupon["num_uses"] + 1)
    move_stock(db, cart["line_items"], -1)
    order_id = db.select(orders, order_by='"id" DESC', limit=1)[0]["id"] + 1
    products = [
        {
            "id": ORDER_PRODUCT_BASE + db.next_number("order_product"),
            **{k: line[k] for k in ("product_id", "variant_id", "name", "sku", "quantity")},
            "price": line["unit_price"],
        }
        for line in cart["line_items"]
    ]
    order = db.insert(
        orders,
        id=order_id,
        customer_id=cart["customer_id"],
        status_id=11,
        products=products,
        subtotal=totals["subtotal"],
        discount_amount=totals["discount"],
        coupon_code=cart["coupon_code"],
        shipping_cost=totals["shipping"],
        shipping_method=selected["description"],
        total=totals["total"],
        billing_address=cart["billing_address"],
        shipping_address=cart["consignment"]["address"],
        date_created=db.now_iso(),
    )
    db.update(carts, cart["id"], order_id=order_id)
    return order
