"""Carts (one per store) and checkout: setting an item's quantity (a new line gets shoppers_choice; an emptied cart
goes away), replacement preferences on a cart or a placed order's item, and placing the order for a window: nothing
out of stock, the retailer's minimum reached, fees and credits applied, the window's spot taken."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound

from .access import order_line, own_order
from .rules import (
    add_order_line,
    address_snapshot,
    book_window,
    cart_lines,
    cart_of,
    cart_subtotal,
    check_orderable,
    dollars,
    grant_credits,
    replacement_choice,
    require_placed,
    service_fee,
    window_fee,
)
from .schema import cart_items, carts, order_items, orders


def set_quantity(
    db: Database, user: dict[str, Any], product: dict[str, Any], quantity: int, note: str | None
) -> dict[str, Any]:
    """Set how many of an item the cart of its store holds; 0 removes it (and an emptied cart). The cart."""
    cart = cart_of(db, user["id"], product["location_code"])
    found = db.find(cart_items, cart_id=cart["id"], item_id=product["item_id"]) if cart else []
    line = found[0] if found else None
    if quantity == 0:
        if cart is None or line is None:
            raise NotFound(f"{product['name']} is not in your cart")
        db.delete(cart_items, line["id"])
        if not db.find(cart_items, cart_id=cart["id"]):
            db.delete(carts, cart["id"])
        return cart
    check_orderable(product, quantity)
    if cart is None:
        cart = db.insert(
            carts,
            id=db.new_id(carts, "cart_"),
            user_id=user["id"],
            location_code=product["location_code"],
            updated_at=db.now_iso(),
        )
    else:
        db.update(carts, cart["id"], updated_at=db.now_iso())
    if line is not None:
        db.update(cart_items, line["id"], quantity=quantity, **({} if note is None else {"special_instructions": note}))
        return cart
    db.insert(
        cart_items,
        id=db.new_id(cart_items, "cli_"),
        cart_id=cart["id"],
        item_id=product["item_id"],
        quantity=quantity,
        replacement_policy="shoppers_choice",
        replacement_item_id=None,
        special_instructions=note,
        added_at=db.now_iso(),
    )
    return cart


def set_preference(
    db: Database,
    user: dict[str, Any],
    product: dict[str, Any],
    policy: str,
    replacement_item_id: str | None,
    order_id: str | None,
) -> dict[str, Any] | None:
    """Store a replacement preference on the cart line, or on the order's line until shopping starts; the picked
    replacement item (users_choice) or None."""
    if policy == "users_choice" and replacement_item_id is None:
        raise InvalidRequest("replacement_item_id is required with users_choice.")
    if policy != "users_choice" and replacement_item_id is not None:
        raise InvalidRequest("replacement_item_id is only used with users_choice.")
    pick = replacement_choice(db, product, replacement_item_id) if replacement_item_id else None
    if order_id is None:
        cart = cart_of(db, user["id"], product["location_code"])
        lines = db.find(cart_items, cart_id=cart["id"], item_id=product["item_id"]) if cart else []
        if not lines:
            raise NotFound(f"{product['name']} is not in your cart")
        table, key = cart_items, lines[0]["id"]
    else:
        require_placed(own_order(db, user, order_id), "change replacement preferences")
        table, key = order_items, order_line(db, order_id, product["item_id"])["id"]
    db.update(table, key, replacement_policy=policy, replacement_item_id=replacement_item_id)
    return pick


def cart_to_check_out(db: Database, user: dict[str, Any], shop: dict[str, Any]) -> list[dict[str, Any]]:
    """The lines of the customer's cart at `shop` (each with its catalog item under "item"); an empty cart can't be
    checked out."""
    cart = cart_of(db, user["id"], shop["location_code"])
    lines = cart_lines(db, cart["id"]) if cart else []
    if not lines:
        raise Conflict(f"Your {shop['name']} cart is empty.")
    return lines


def place(
    db: Database,
    user: dict[str, Any],
    shop: dict[str, Any],
    lines: list[dict[str, Any]],
    window: dict[str, Any],
    address: dict[str, Any] | None,
    tip_cents: int,
    instructions: str | None,
) -> dict[str, Any]:
    """Turn the cart `lines` into a placed order in `window` (delivered to `address`, or picked up when None)."""
    missing = [
        f"{ln['item']['name']} ({ln['item']['size']})" for ln in lines if ln["item"]["stock_level"] == "out_of_stock"
    ]
    if missing:
        raise Conflict(f"Out of stock: {', '.join(missing)}. Remove them from your cart before checking out.")
    subtotal = cart_subtotal(lines)
    if subtotal < shop["order_minimum_cents"]:
        raise Conflict(
            f"Add {dollars(shop['order_minimum_cents'] - subtotal)} more to reach the "
            f"{dollars(shop['order_minimum_cents'])} order minimum at {shop['retailer_name']}."
        )
    fee = window_fee(db, user["id"], window, subtotal)
    before_tip = subtotal + fee + window["express_fee_cents"] + service_fee(subtotal)
    credits = min(user["credit_balance_cents"], before_tip)
    order_id = db.new_id(orders, "583190", width=4)
    order = db.insert(
        orders,
        id=order_id,
        user_id=user["id"],
        location_code=shop["location_code"],
        fulfillment_type=window["fulfillment_type"],
        status="placed",
        service_option_id=window["id"],
        window_start_at=window["start_at"],
        window_end_at=window["end_at"],
        address_id=address["id"] if address else None,
        address=address_snapshot(address) if address else None,
        delivery_instructions=instructions
        if instructions is not None or not address
        else address["delivery_instructions"],
        shopper_name=None,
        subtotal_cents=subtotal,
        delivery_fee_cents=fee,
        express_fee_cents=window["express_fee_cents"],
        service_fee_cents=service_fee(subtotal),
        tip_cents=tip_cents,
        credits_applied_cents=credits,
        total_cents=before_tip + tip_cents - credits,
        refunded_cents=0,
        created_at=db.now_iso(),
        completed_at=None,
        canceled_at=None,
    )
    for number, line in enumerate(lines, start=1):
        policy, pick, note = line["replacement_policy"], line["replacement_item_id"], line["special_instructions"]
        add_order_line(db, order_id, number, line["item"], line["quantity"], policy, pick, note)
        db.delete(cart_items, line["id"])
    db.delete(carts, lines[0]["cart_id"])
    grant_credits(db, user, -credits, "applied_to_order", order_id)
    book_window(db, window)
    return order
