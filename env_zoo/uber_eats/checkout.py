"""The cart and checkout: cart lines and their quote, adding items (one store per cart), placing an order from
the cart, and orders as the eater sees them."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import iso_timestamp

from . import rules
from .objects import (
    CartLine,
    CartObject,
    IssueObject,
    OrderLine,
    OrderObject,
    OrderSummary,
    option_titles,
    price_object,
)
from .schema import cart_items, carts, eaters, menu_items, order_issues, orders, stores


def cart_row(db: Database, eater_id: str) -> dict[str, Any] | None:
    """The eater's cart header, if they have one."""
    found = db.find(carts, eater_id=eater_id)
    return found[0] if found else None


def line_objects(db: Database, eater_id: str) -> list[CartLine]:
    """The eater's cart lines with their prices."""
    lines = rules.cart_lines(db, eater_id)
    if not lines:
        return []
    marks = ", ".join("?" for _ in lines)
    items = {row["id"]: row for row in db.select(menu_items, f"id IN ({marks})", [ln["item_id"] for ln in lines])}
    out = []
    for line in lines:
        row = items[line["item_id"]]
        unit = rules.unit_price(db, row, line["option_ids"])
        out.append(
            CartLine(
                cart_item_id=line["id"],
                item_id=row["id"],
                title=row["title"],
                quantity=line["quantity"],
                options=option_titles(db, line["option_ids"]),
                option_ids=line["option_ids"],
                special_instructions=line["special_instructions"],
                unit_price=unit,
                total=unit * line["quantity"],
            )
        )
    return out


def cart_object(
    db: Database, eater: dict[str, Any], fulfillment_type: str, place: dict[str, Any] | None, tip: int
) -> CartObject:
    """The cart with what it would cost for this fulfillment, and warnings about what would stop checkout."""
    header = cart_row(db, eater["id"])
    lines = line_objects(db, eater["id"])
    if header is None or not lines:
        return CartObject(
            store_id=None,
            store_name=None,
            items=[],
            promo_code=None,
            fulfillment_type=fulfillment_type,
            price=None,
            min_order=None,
            warnings=[],
        )
    store = db.get(stores, header["store_id"], "Store")
    subtotal = sum(line.total for line in lines)
    warnings = []
    promo = None
    if header["promo_code"] is not None:
        promo = rules.promotion(db, header["promo_code"])
        try:
            rules.check_promotion(db, eater, promo, store["id"], subtotal)
        except Conflict as problem:
            warnings.append(str(problem))
            promo = None
    if subtotal < store["min_order"]:
        warnings.append(f"{store['name']} has a ${store['min_order'] / 100:.2f} minimum order.")
    for line in lines:
        if rules.sold_out(db, db.get(menu_items, line.item_id, "Item")):
            warnings.append(f"{line.title} is sold out.")
    if place is not None and place["neighborhood"] not in store["delivers_to"]:
        warnings.append(f"{store['name']} doesn't deliver to {place['address']}.")
    quoted = rules.quote(db, eater, store, subtotal, fulfillment_type, promo, tip)
    return CartObject(
        store_id=store["id"],
        store_name=store["name"],
        items=lines,
        promo_code=header["promo_code"],
        fulfillment_type=fulfillment_type,
        price=price_object(quoted),
        min_order=store["min_order"],
        warnings=warnings,
    )


def add_line(
    db: Database,
    eater: dict[str, Any],
    row: dict[str, Any],
    quantity: int,
    option_ids: list[str],
    instructions: str | None,
    replace_cart: bool,
) -> None:
    """Put an item in the eater's cart, keeping the cart to one store."""
    store = rules.store(db, row["store_id"])
    if rules.sold_out(db, row):
        raise Conflict(f"{row['title']} is sold out right now.")
    rules.check_alcohol(db, eater, row)
    rules.check_selection(db, row, option_ids)
    header = cart_row(db, eater["id"])
    if header is not None and header["store_id"] != store["id"] and rules.cart_lines(db, eater["id"]):
        if not replace_cart:
            other = db.get(stores, header["store_id"], "Store")["name"]
            raise Conflict(
                f"Your cart already has items from {other}. Start a new cart (replace_cart) to order from "
                f"{store['name']}."
            )
        clear(db, eater["id"])
        header = None
    if header is None:
        db.insert(carts, eater_id=eater["id"], store_id=store["id"], promo_code=None)
    elif header["store_id"] != store["id"]:
        db.update(carts, eater["id"], store_id=store["id"], promo_code=None)
    db.insert(
        cart_items,
        id=db.new_id(cart_items, "ci_"),
        eater_id=eater["id"],
        item_id=row["id"],
        quantity=quantity,
        option_ids=rules.canonical_options(db, row, option_ids),
        special_instructions=instructions,
    )


def clear(db: Database, eater_id: str) -> None:
    """Empty the eater's cart."""
    for line in rules.cart_lines(db, eater_id):
        db.delete(cart_items, line["id"])
    if cart_row(db, eater_id) is not None:
        db.delete(carts, eater_id)


def place(
    db: Database,
    eater: dict[str, Any],
    fulfillment_type: str,
    place_row: dict[str, Any] | None,
    tip: int,
    scheduled_for: str | None,
    use_uber_cash: bool,
) -> dict[str, Any]:
    """Check the cart out as an order and empty the cart."""
    header = cart_row(db, eater["id"])
    lines = line_objects(db, eater["id"])
    if header is None or not lines:
        raise InvalidRequest("Your cart is empty.")
    store = rules.store(db, header["store_id"])
    rules.check_fulfillment(store, fulfillment_type, place_row, tip)
    moment = rules.check_orderable(db, store, scheduled_for)
    for line in lines:
        if rules.sold_out(db, db.get(menu_items, line.item_id, "Item")):
            raise Conflict(f"{line.title} is sold out right now. Remove it to check out.")
    subtotal = sum(line.total for line in lines)
    if subtotal < store["min_order"]:
        raise Conflict(f"{store['name']} has a ${store['min_order'] / 100:.2f} minimum order.")
    promo = None
    if header["promo_code"] is not None:
        promo = rules.promotion(db, header["promo_code"])
        rules.check_promotion(db, eater, promo, store["id"], subtotal)
    quoted = rules.quote(db, eater, store, subtotal, fulfillment_type, promo, tip)
    cash = min(eater["uber_cash"], quoted["total"]) if use_uber_cash else 0
    if cash:
        db.update(eaters, eater["id"], uber_cash=eater["uber_cash"] - cash)
    order_id = db.new_uuid(orders)
    stored = db.insert(
        orders,
        id=order_id,
        display_id=rules.display_id(db),
        eater_id=eater["id"],
        store_id=store["id"],
        fulfillment_type=fulfillment_type,
        place_id=None if place_row is None else place_row["id"],
        current_state="SCHEDULED" if moment is not None else "CREATED",
        items=[
            {
                "line_id": f"{order_id[:8]}-{n}",
                "item_id": line.item_id,
                "title": line.title,
                "quantity": line.quantity,
                "options": line.options,
                "total": line.total,
            }
            for n, line in enumerate(lines, start=1)
        ],
        promo_code=None if promo is None else promo["code"],
        uber_cash_used=cash,
        placed_at=db.now_iso(),
        scheduled_for=None if moment is None else iso_timestamp(moment),
        delivered_at=None,
        cancel_reason=None,
        refund=0,
        rating=None,
        rating_comment=None,
        **quoted,
    )
    clear(db, eater["id"])
    return stored


def order_object(db: Database, row: dict[str, Any]) -> OrderObject:
    """A stored order as the eater sees it."""
    store = db.get(stores, row["store_id"], "Store")
    issues = db.find(order_issues, order_id=row["id"], order_by=[order_issues.c.id])
    return OrderObject(
        order_id=row["id"],
        display_id=row["display_id"],
        store_id=store["id"],
        store_name=store["name"],
        fulfillment_type=row["fulfillment_type"],
        place_id=row["place_id"],
        current_state=row["current_state"],
        items=[OrderLine(**line) for line in row["items"]],
        price=price_object(row),
        promo_code=row["promo_code"],
        uber_cash_used=row["uber_cash_used"],
        charged_to_card=row["total"] - row["uber_cash_used"],
        placed_at=row["placed_at"],
        scheduled_for=row["scheduled_for"],
        delivered_at=row["delivered_at"],
        cancel_reason=row["cancel_reason"],
        refund=row["refund"],
        rating=row["rating"],
        issues=[
            IssueObject(
                issue_id=i["id"],
                line_id=i["line_id"],
                issue_type=i["issue_type"],
                quantity=i["quantity"],
                refund=i["refund"],
                refund_to=i["refund_to"],
            )
            for i in issues
        ],
    )


def order_summary(row: dict[str, Any], store_name: str) -> OrderSummary:
    """A stored order as a history entry."""
    return OrderSummary(
        order_id=row["id"],
        display_id=row["display_id"],
        store_name=store_name,
        current_state=row["current_state"],
        placed_at=row["placed_at"],
        scheduled_for=row["scheduled_for"],
        total=row["total"],
        item_count=sum(line["quantity"] for line in row["items"]),
    )


def option_ids_for(db: Database, row: dict[str, Any], titles: list[str]) -> list[str]:
    """The option ids of an item's options named as an order recorded them."""
    options = rules.options_of(db, [g["id"] for g in rules.groups_of(db, row)])
    by_title = {o["title"]: o["id"] for o in options}
    return [by_title[title] for title in titles if title in by_title]
