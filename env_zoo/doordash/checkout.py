"""The cart and checkout: cart lines at menu prices (one store at a time), promo conditions in context, everything
place_order checks (store paused or closed, fulfillment offered, delivery radius, schedule, subtotal minimum,
alcohol, promo) gathered into one Checkout whose first problem blocks the order, and the order it writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.errors import ToolError
from envfactory_gym.values import iso_timestamp

from .objects import CartItemObject, CartObject, QuoteObject, cart_item_object, one_line
from .rules import (
    Charges,
    PromoContext,
    alcohol_problem,
    charges,
    closed_error,
    dollars,
    dropoff_fields,
    is_open,
    line_quantity,
    miles_between,
    parse_time,
    promo_problem,
    schedule_problem,
    travel_minutes,
)
from .schema import cart_items, carts, consumers, items, order_items, orders, promotions, stores


def open_cart(db: Database, consumer: dict[str, Any]) -> dict[str, Any] | None:
    """The consumer's cart, if any."""
    found = db.find(carts, consumer_id=consumer["id"])
    return found[0] if found else None


def cart_lines(db: Database, cart: dict[str, Any]) -> list[CartItemObject]:
    """The cart's lines in the order they were added."""
    rows = db.find(cart_items, cart_id=cart["id"])
    rows.sort(key=lambda r: (r["created_at"], r["id"]))
    return [cart_item_object(db, r) for r in rows]


def drop_cart(db: Database, cart: dict[str, Any]) -> None:
    """Delete a cart and its lines."""
    db.conn.execute(cart_items.delete().where(cart_items.c.cart_id == cart["id"]))
    db.delete(carts, cart["id"])


def cart_object(db: Database, cart: dict[str, Any] | None, quote: QuoteObject | None = None) -> CartObject:
    """The cart as the app shows it; an empty cart when there is none."""
    if cart is None:
        return CartObject(id=None, store_id=None, store_name=None, items=[], subtotal=0, promo_code=None)
    lines = cart_lines(db, cart)
    store = db.get(stores, cart["store_id"], "Store")
    return CartObject(
        id=cart["id"],
        store_id=store["id"],
        store_name=store["name"],
        items=lines,
        subtotal=sum(line.line_total for line in lines),
        promo_code=cart["promo_code"],
        quote=quote,
    )


def promo_context(
    db: Database,
    consumer: dict[str, Any],
    store: dict[str, Any],
    subtotal: int,
    code: str,
    fulfillment_type: str | None,
) -> PromoContext:
    """A promo's conditions in context: the consumer's earlier orders and uses of the code."""
    placed = orders.c.consumer_id == consumer["id"], orders.c.status != "cancelled"
    prior = db.conn.execute(select(func.count()).select_from(orders).where(*placed)).scalar_one()
    uses = db.conn.execute(
        select(func.count()).select_from(orders).where(*placed, orders.c.promo_code == code)
    ).scalar_one()
    return PromoContext(consumer, store, subtotal, prior, uses, db.now(), fulfillment_type)


@dataclass(frozen=True)
class Checkout:
    """A priced cart for one fulfillment, address, tip and schedule; `problem` is what stops the order."""

    store: dict[str, Any]
    lines: list[CartItemObject]
    address: dict[str, Any] | None
    fulfillment_type: str
    scheduled: datetime | None
    promo: dict[str, Any] | None
    charges: Charges
    contains_alcohol: bool
    eta: datetime
    problem: ToolError | None

    def quote(self) -> QuoteObject:
        """The checkout summary."""
        c = self.charges
        return QuoteObject(
            fulfillment_type=self.fulfillment_type,
            address_id=self.address["id"] if self.address else None,
            scheduled_time=iso_timestamp(self.scheduled) if self.scheduled else None,
            subtotal=c.subtotal,
            delivery_fee=c.delivery_fee,
            service_fee=c.service_fee,
            small_order_fee=c.small_order_fee,
            tax=c.tax,
            discount=c.discount,
            tip=c.tip,
            total=c.total,
            credits_applied=c.credits_applied,
            amount_charged=c.amount_charged,
            dashpass_applied=c.dashpass_applied,
            estimated_delivery_time=iso_timestamp(self.eta),
            can_place_order=self.problem is None,
            blocked_reason=str(self.problem) if self.problem else None,
        )


def _first_problem(
    db: Database,
    consumer: dict[str, Any],
    store: dict[str, Any],
    lines: list[CartItemObject],
    fulfillment_type: str,
    miles: float | None,
    scheduled: datetime | None,
    tip: int,
    promo: dict[str, Any] | None,
) -> ToolError | None:
    now = db.now()
    subtotal = sum(line.line_total for line in lines)
    line_items = [db.get(items, line.item_id, "Item") for line in lines]
    if not store["accepting_orders"]:
        return Conflict(f"{store['name']} isn't accepting orders right now.")
    if not store[f"offers_{fulfillment_type}"]:
        return InvalidRequest(f"{store['name']} doesn't offer {fulfillment_type}.")
    if fulfillment_type == "pickup" and tip:
        return InvalidRequest("Tips go to Dashers; pickup orders can't include one.")
    if miles is not None and miles > store["delivery_radius_miles"]:
        return InvalidRequest(
            f"{store['name']} doesn't deliver to this address ({miles:.1f} mi away; it delivers within "
            f"{store['delivery_radius_miles']:g} mi)."
        )
    sold_out = [i["name"] for i in line_items if not i["is_active"]]
    if sold_out:
        return Conflict(f"{sold_out[0]} is sold out; remove it from your cart.")
    if scheduled is not None:
        problem = schedule_problem(store, scheduled, now)
        if problem:
            return problem
    elif not is_open(store, now):
        return closed_error(store, now)
    if subtotal < store["minimum_subtotal"]:
        return InvalidRequest(
            f"{store['name']} has a {dollars(store['minimum_subtotal'])} subtotal minimum; add "
            f"{dollars(store['minimum_subtotal'] - subtotal)} more."
        )
    if any(i["contains_alcohol"] for i in line_items):
        problem = alcohol_problem(consumer, now)
        if problem:
            return problem
    if promo is not None:
        return promo_problem(promo, promo_context(db, consumer, store, subtotal, promo["code"], fulfillment_type))
    return None


def checkout(
    db: Database,
    consumer: dict[str, Any],
    cart: dict[str, Any],
    fulfillment_type: str,
    address: dict[str, Any] | None,
    tip: int,
    scheduled_time: str | None,
) -> Checkout:
    """Price the cart and find what, if anything, stops the order; `address` is the drop-off of a delivery (None
    for pickup)."""
    store = db.get(stores, cart["store_id"], "Store")
    lines = cart_lines(db, cart)
    scheduled = parse_time(scheduled_time, store["timezone"]) if scheduled_time else None
    promo = db.get(promotions, cart["promo_code"], "Promotion") if cart["promo_code"] else None
    miles = miles_between(store["lat"], store["lng"], address["lat"], address["lng"]) if address else None
    problem = _first_problem(db, consumer, store, lines, fulfillment_type, miles, scheduled, tip, promo)
    subtotal = sum(line.line_total for line in lines)
    priced = charges(consumer, store, subtotal, fulfillment_type, tip, promo)
    minutes = store["prep_time_minutes"] + (travel_minutes(miles) if miles is not None else 0)
    eta = scheduled if scheduled is not None else db.now() + timedelta(minutes=minutes)
    alcohol = any(db.get(items, line.item_id, "Item")["contains_alcohol"] for line in lines)
    return Checkout(store, lines, address, fulfillment_type, scheduled, promo, priced, alcohol, eta, problem)


def add_line(
    db: Database,
    consumer: dict[str, Any],
    item: dict[str, Any],
    store: dict[str, Any],
    line: dict[str, Any],
    replace_cart: bool,
) -> dict[str, Any]:
    """Add `line` (quantity, option_ids, special_instructions) to the consumer's cart, starting one at `store` (a
    cart from another store only with `replace_cart`); the same item with the same choices adds to its line."""
    cart = open_cart(db, consumer)
    if cart is not None and cart["store_id"] != store["id"]:
        if not replace_cart:
            other = db.get(stores, cart["store_id"], "Store")
            raise Conflict(
                f"Your cart has items from {other['name']}. Start a new cart (replace_cart) to order "
                f"from {store['name']}."
            )
        drop_cart(db, cart)
        cart = None
    if cart is None:
        cart = db.insert(
            carts,
            id=db.new_uuid(carts),
            consumer_id=consumer["id"],
            store_id=store["id"],
            promo_code=None,
            created_at=db.now_iso(),
        )
    same = [
        row
        for row in db.find(cart_items, cart_id=cart["id"], item_id=item["id"])
        if row["option_ids"] == line["option_ids"] and row["special_instructions"] == line["special_instructions"]
    ]
    if same:
        db.update(cart_items, same[0]["id"], quantity=line_quantity(same[0]["quantity"] + line["quantity"]))
    else:
        db.insert(
            cart_items,
            id=db.new_uuid(cart_items),
            cart_id=cart["id"],
            item_id=item["id"],
            created_at=db.now_iso(),
            **line,
        )
    return cart


def set_quantity(db: Database, consumer: dict[str, Any], cart_item_id: str, quantity: int) -> dict[str, Any] | None:
    """Change a cart line's quantity; 0 removes it, and an emptied cart is discarded. The cart, or None."""
    cart = open_cart(db, consumer)
    line = db.find(cart_items, id=cart_item_id, cart_id=cart["id"]) if cart else []
    if not cart or not line:
        raise NotFound(f"Cart item '{cart_item_id}' not found")
    if quantity:
        db.update(cart_items, cart_item_id, quantity=quantity)
        return cart
    db.delete(cart_items, cart_item_id)
    if db.find(cart_items, cart_id=cart["id"]):
        return cart
    drop_cart(db, cart)
    return None


def place(
    db: Database,
    consumer: dict[str, Any],
    cart: dict[str, Any],
    plan: Checkout,
    dropoff_instructions: str | None,
) -> str:
    """Write the order of a checkout without problems (its lines at today's prices), empty the cart and take the
    credits it used; the new order's ID."""
    quote = plan.quote()
    order_id = db.new_uuid(orders)
    alcohol = plan.contains_alcohol
    address = plan.address
    db.insert(
        orders,
        id=order_id,
        consumer_id=consumer["id"],
        store_id=plan.store["id"],
        status="submitted",
        fulfillment_type=plan.fulfillment_type,
        contains_alcohol=alcohol,
        **dropoff_fields(address, one_line(address) if address else None, alcohol, dropoff_instructions),
        scheduled_time=quote.scheduled_time,
        promo_code=cart["promo_code"],
        cancellation_fee=None,
        refunded_amount=0,
        refunded_credits=0,
        dasher_name=None,
        created_at=db.now_iso(),
        estimated_delivery_time=quote.estimated_delivery_time,
        **{k: v for k, v in plan.charges.as_dict().items() if k != "dashpass_applied"},
    )
    for line in plan.lines:
        db.insert(
            order_items,
            id=db.new_uuid(order_items),
            order_id=order_id,
            item_id=line.item_id,
            name=line.name,
            quantity=line.quantity,
            options=[o.model_dump() for o in line.options],
            unit_price=line.unit_price,
            special_instructions=line.special_instructions,
        )
    drop_cart(db, cart)
    db.update(consumers, consumer["id"], credits_balance=consumer["credits_balance"] - plan.charges.credits_applied)
    return order_id
