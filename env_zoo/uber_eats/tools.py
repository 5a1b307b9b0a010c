"""Uber Eats tools for a signed-in eater: find stores and read their hours, menus and item customizations, build a
one-store cart, use promotions, check out for delivery or pick-up (now or scheduled), and follow, cancel, rate and
report problems with orders."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, Unordered, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoTimestamp, NonBlankText, page_size, text

from . import access, checkout, rules
from .objects import (
    CartObject,
    EaterObject,
    ItemObject,
    MenuCategory,
    MenuItemSummary,
    MenuObject,
    OrderObject,
    OrderSummary,
    PlaceObject,
    PromotionObject,
    StoreObject,
    StoreSummary,
    eater_object,
    item_object,
    place_object,
    store_object,
    store_summary,
)
from .schema import cart_items, carts, eaters, menu_items, order_issues, orders, places, promotions, stores

Neighborhood = Literal[
    "Lincoln Park", "Wicker Park", "Logan Square", "West Loop", "River North",
    "Lakeview", "Pilsen", "Hyde Park", "Andersonville", "South Loop",
]  # fmt: skip
Fulfillment = Literal["DELIVERY_BY_UBER", "PICK_UP"]
Quantity = Annotated[int, Field(ge=1, le=25), ErrorText("quantity must be 1 to 25.")]
Tip = Annotated[int, Field(ge=0, le=10000), ErrorText("tip must be 0 to 10000 cents.")]
OrderState = Literal["SCHEDULED", "CREATED", "ACCEPTED", "HANDED_OFF", "FINISHED", "DENIED", "CANCELED"]
CancelReason = Literal["ORDERED_BY_MISTAKE", "CHANGED_MIND", "TAKING_TOO_LONG", "WRONG_ADDRESS", "OTHER"]
PageSize = page_size(50)


# ---------------------------------------------------------------- account


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> EaterObject:
    """Sign in to the Uber Eats app with the account's email (the eater does this themselves).

    Args:
        email: The account's email address.
    """
    return eater_object(db, access.sign_in(db, email))


@tool(read_only=True)
def get_eater(db: Database) -> EaterObject:
    """The signed-in eater's account: Uber One membership, Uber Cash balance and saved places."""
    return eater_object(db, access.me(db))


@tool()
def add_place(
    db: Database,
    label: text(40),
    address: text(200),
    neighborhood: Neighborhood,
    dropoff_option: Literal["LEAVE_AT_DOOR", "MEET_AT_DOOR", "MEET_OUTSIDE"] = "MEET_AT_DOOR",
    instructions: text(300) | None = None,
) -> PlaceObject:
    """Save a delivery address to the eater's account.

    Args:
        label: What the eater calls it, e.g. "Work" or "Mom's".
        address: Street address with unit, e.g. "2150 N Halsted St, Apt 3".
        neighborhood: The Chicago neighborhood it is in (stores deliver by neighborhood).
        dropoff_option: How the courier hands the order over.
        instructions: Notes for the courier (gate code, buzzer).
    """
    eater = access.me(db)
    row = db.insert(
        places,
        id=db.new_id(places, "pl_", width=3),
        eater_id=eater["id"],
        label=label.strip(),
        address=address.strip(),
        neighborhood=neighborhood,
        dropoff_option=dropoff_option,
        instructions=instructions,
    )
    return place_object(row)


# ---------------------------------------------------------------- stores and menus


@tool(read_only=True)
def search_stores(
    db: Database,
    query: text(100) | None = None,
    cuisine: text(50) | None = None,
    place_id: str | None = None,
    open_now: bool = False,
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[StoreSummary]:
    """Search stores by name, cuisine or dish, best rated first; from a saved place, only stores that deliver
    there.

    Args:
        query: Words in the store's name, cuisine or one of its menu items.
        cuisine: Only this cuisine, e.g. "Thai".
        place_id: A saved place: only stores delivering there.
        open_now: Only stores taking orders right now.
        page_size: Stores per page.
        cursor: next_cursor of the previous page.
    """
    eater = access.me(db)
    place = access.own_place(db, eater, place_id) if place_id is not None else None
    rows = db.select(stores, "status != 'INVISIBLE'", order_by="rating DESC, rating_count DESC")
    if cuisine is not None:
        rows = [row for row in rows if cuisine.strip().lower() in row["cuisine"].lower()]
    if query is not None:
        words = query.lower().split()
        dishes = {
            row["store_id"]
            for row in db.select(
                menu_items,
                " AND ".join("lower(title || ' ' || description) LIKE ?" for _ in words),
                [f"%{w}%" for w in words],
            )
        }
        rows = [
            row
            for row in rows
            if row["id"] in dishes or all(w in f"{row['name']} {row['cuisine']}".lower() for w in words)
        ]
    if place is not None:
        rows = [row for row in rows if place["neighborhood"] in row["delivers_to"]]
    found = [store_summary(db, row, place) for row in rows]
    if open_now:
        found = [summary for summary in found if summary.status == "ONLINE"]
    return paginate(found, page_size, cursor)


@tool(read_only=True)
def get_store(db: Database, store_id: str, place_id: str | None = None) -> StoreObject:
    """A store's details: status now (and why it is offline), weekly hours, holiday hours, delivery area and fee,
    minimum order, pick-up, Uber One eligibility.

    Args:
        store_id: The store's ID.
        place_id: A saved place, to say whether the store delivers there.
    """
    eater = access.me(db)
    place = access.own_place(db, eater, place_id) if place_id is not None else None
    return store_object(db, rules.store(db, store_id), place)


@tool(read_only=True)
def get_menu(db: Database, store_id: str) -> MenuObject:
    """A store's menu by category, with each item's price and whether it is sold out.

    Args:
        store_id: The store's ID.
    """
    row = rules.store(db, store_id)
    categories: dict[str, list[MenuItemSummary]] = {}
    for item in db.find(menu_items, store_id=row["id"], order_by=[menu_items.c.position]):
        categories.setdefault(item["category"], []).append(
            MenuItemSummary(
                item_id=item["id"],
                title=item["title"],
                description=item["description"],
                price=item["price"],
                has_customizations=bool(item["modifier_group_ids"]),
                sold_out=rules.sold_out(db, item),
            )
        )
    return MenuObject(
        store_id=row["id"],
        store_name=row["name"],
        categories=[MenuCategory(title=title, items=found) for title, found in categories.items()],
    )


@tool(read_only=True)
def get_item(db: Database, item_id: str) -> ItemObject:
    """A menu item with its modifier groups: how many options each needs (min_permitted) and allows
    (max_permitted), and what each option adds to the price.

    Args:
        item_id: The item's ID, from get_menu.
    """
    return item_object(db, rules.item(db, item_id))


# ---------------------------------------------------------------- cart


@tool(read_only=True)
def get_cart(
    db: Database, fulfillment_type: Fulfillment = "DELIVERY_BY_UBER", place_id: str | None = None, tip: Tip = 0
) -> CartObject:
    """The cart with the price it would come to (fees, Uber One, promotion, tip) and anything that would stop
    checkout.

    Args:
        fulfillment_type: DELIVERY_BY_UBER or PICK_UP.
        place_id: The saved place it would be delivered to.
        tip: The tip to include in the quote, in cents.
    """
    eater = access.me(db)
    place = access.own_place(db, eater, place_id) if place_id is not None else None
    return checkout.cart_object(db, eater, fulfillment_type, place, tip)


@tool()
def add_to_cart(
    db: Database,
    item_id: str,
    quantity: Quantity = 1,
    option_ids: Annotated[list[str], Unordered] | None = None,
    special_instructions: text(200) | None = None,
    replace_cart: bool = False,
) -> CartObject:
    """Add an item, with its chosen options, to the cart. A cart holds one store's items: adding from another
    store fails unless replace_cart empties the old cart first.

    Args:
        item_id: The item's ID.
        quantity: How many.
        option_ids: The chosen options' IDs (get_item), meeting every modifier group's min and max.
        special_instructions: A note for the kitchen about this item.
        replace_cart: Start a new cart if the current one is from another store.
    """
    eater = access.me(db)
    row = rules.item(db, item_id)
    checkout.add_line(db, eater, row, quantity, option_ids or [], special_instructions, replace_cart)
    return checkout.cart_object(db, eater, "DELIVERY_BY_UBER", None, 0)


@tool()
def update_cart_item(
    db: Database,
    cart_item_id: str,
    quantity: Annotated[int, Field(ge=0, le=25)] | None = None,
    option_ids: Annotated[list[str], Unordered] | None = None,
) -> CartObject:
    """Change a cart line's quantity (0 removes it) or its chosen options.

    Args:
        cart_item_id: The cart line's ID, from get_cart.
        quantity: The new quantity; 0 removes the line.
        option_ids: The new set of chosen options (replaces the old ones).
    """
    eater = access.me(db)
    line = db.find_one(
        cart_items, id=cart_item_id, eater_id=eater["id"], not_found=f"Cart item {cart_item_id} not found."
    )
    if quantity == 0:
        db.delete(cart_items, cart_item_id)
        if not rules.cart_lines(db, eater["id"]):
            checkout.clear(db, eater["id"])
    else:
        item = db.get(menu_items, line["item_id"], "Item")
        if option_ids is not None:
            rules.check_selection(db, item, option_ids)
            option_ids = rules.canonical_options(db, item, option_ids)
        changes = given(quantity=quantity, option_ids=option_ids)
        if changes:
            db.update(cart_items, cart_item_id, **changes)
    return checkout.cart_object(db, eater, "DELIVERY_BY_UBER", None, 0)


@tool()
def clear_cart(db: Database) -> CartObject:
    """Empty the cart (and drop its promotion)."""
    eater = access.me(db)
    checkout.clear(db, eater["id"])
    return checkout.cart_object(db, eater, "DELIVERY_BY_UBER", None, 0)


# ---------------------------------------------------------------- promotions


@tool(read_only=True)
def list_promotions(db: Database) -> list[PromotionObject]:
    """The promotions running now that the eater could still use, with their conditions."""
    eater = access.me(db)
    now = db.now_iso()
    names = {row["id"]: row["name"] for row in db.select(stores, "status != 'INVISIBLE'")}
    out = []
    for promo in db.select(promotions, "starts_at <= ? AND expires_at > ?", (now, now), order_by="code"):
        if promo["uber_one_only"] and not eater["uber_one"]:
            continue
        if promo["store_id"] is not None and promo["store_id"] not in names:
            continue
        used = db.select(
            orders,
            "eater_id = ? AND promo_code = ? AND current_state NOT IN (?, ?)",
            (eater["id"], promo["code"], *rules.SPENT),
        )
        left = promo["uses_per_eater"] - len(used)
        if left <= 0:
            continue
        out.append(
            PromotionObject(
                **{k: promo[k] for k in PromotionObject.model_fields if k in promo},
                store_name=names.get(promo["store_id"]),
                uses_left=left,
            )
        )
    return out


@tool()
def apply_promo_code(db: Database, code: Annotated[str, Field(min_length=3, max_length=30)]) -> CartObject:
    """Apply a promo code to the cart (one per order; it replaces any code already applied).

    Args:
        code: The promo code, any case.
    """
    eater = access.me(db)
    header = checkout.cart_row(db, eater["id"])
    if header is None:
        raise InvalidRequest("Add items to your cart before applying a promo code.")
    promo = rules.promotion(db, code)
    subtotal = sum(line.total for line in checkout.line_objects(db, eater["id"]))
    rules.check_promotion(db, eater, promo, header["store_id"], subtotal)
    db.update(carts, eater["id"], promo_code=promo["code"])
    return checkout.cart_object(db, eater, "DELIVERY_BY_UBER", None, 0)


@tool()
def remove_promo_code(db: Database) -> CartObject:
    """Take the promo code off the cart."""
    eater = access.me(db)
    if checkout.cart_row(db, eater["id"]) is None:
        raise InvalidRequest("Your cart is empty.")
    db.update(carts, eater["id"], promo_code=None)
    return checkout.cart_object(db, eater, "DELIVERY_BY_UBER", None, 0)


# ---------------------------------------------------------------- orders


@tool()
def place_order(
    db: Database,
    fulfillment_type: Fulfillment,
    place_id: str | None = None,
    tip: Tip = 0,
    scheduled_for: IsoTimestamp | None = None,
    use_uber_cash: bool = False,
) -> OrderObject:
    """Check out the cart as an order, for delivery to a saved place or for pick-up, now or scheduled 1 hour to
    7 days ahead. The store must be open (or open at the scheduled time) and its minimum met; the cart empties.

    Args:
        fulfillment_type: DELIVERY_BY_UBER or PICK_UP.
        place_id: The saved place to deliver to (delivery only).
        tip: The courier's tip in cents (delivery only).
        scheduled_for: When to deliver or have it ready, ISO 8601 (omit for as soon as possible).
        use_uber_cash: Pay with the Uber Cash balance first.
    """
    eater = access.me(db)
    place = access.own_place(db, eater, place_id) if place_id is not None else None
    if fulfillment_type == "PICK_UP" and place is not None:
        raise InvalidRequest("Pick-up orders don't take a delivery address.")
    stored = checkout.place(db, eater, fulfillment_type, place, tip, scheduled_for, use_uber_cash)
    return checkout.order_object(db, stored)


@tool(read_only=True)
def list_orders(
    db: Database,
    state: OrderState | None = None,
    store_id: str | None = None,
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[OrderSummary]:
    """The eater's orders, newest first.

    Args:
        state: Only orders in this state.
        store_id: Only orders from this store.
        page_size: Orders per page.
        cursor: next_cursor of the previous page.
    """
    eater = access.me(db)
    found = db.find(
        orders,
        eater_id=eater["id"],
        **given(current_state=state, store_id=store_id),
        order_by=[orders.c.placed_at.desc()],
    )
    names = {row["id"]: row["name"] for row in db.find(stores)}
    return paginate([checkout.order_summary(row, names[row["store_id"]]) for row in found], page_size, cursor)


@tool(read_only=True)
def get_order(db: Database, order_id: str) -> OrderObject:
    """One of the eater's orders: items, price breakdown, state, refunds and reported issues.

    Args:
        order_id: The order's ID.
    """
    return checkout.order_object(db, access.own_order(db, access.me(db), order_id))


@tool()
def cancel_order(db: Database, order_id: str, reason: CancelReason, accept_charge: bool = False) -> OrderObject:
    """Cancel an order. Free (full refund) until the store accepts it; once accepted the food is charged and
    accept_charge must be true; once handed off to the courier it can't be cancelled.

    Args:
        order_id: The order's ID.
        reason: Why the eater cancels.
        accept_charge: The eater agrees to pay for food the store has started.
    """
    eater = access.me(db)
    order = access.own_order(db, eater, order_id)
    state = order["current_state"]
    if state == "HANDED_OFF":
        raise Conflict("Your order is already on its way and can't be cancelled.")
    if state not in rules.LIVE_ORDER:
        raise Conflict(f"This order is {state} and can't be cancelled.")
    refund = rules.cancel_refund(order)
    if state == "ACCEPTED" and not accept_charge:
        charge = order["subtotal"] - order["discount"]
        raise Conflict(
            f"The store has already started your order. Cancelling now charges ${charge / 100:.2f} for the food; "
            "confirm with accept_charge to cancel anyway."
        )
    back_to_cash = min(order["uber_cash_used"], refund)
    if back_to_cash:
        db.update(eaters, eater["id"], uber_cash=eater["uber_cash"] + back_to_cash)
    stored = db.update(orders, order["id"], current_state="CANCELED", cancel_reason=reason, refund=refund)
    return checkout.order_object(db, stored)


@tool()
def report_order_issue(
    db: Database,
    order_id: str,
    line_id: str,
    issue_type: Literal["MISSING_ITEM", "WRONG_ITEM", "QUALITY"],
    quantity: Quantity = 1,
    refund_to: Literal["UBER_CASH", "ORIGINAL_PAYMENT"] = "ORIGINAL_PAYMENT",
    details: text(500) | None = None,
) -> OrderObject:
    """Report a missing, wrong or poor item on a delivered order (within 3 days) and refund it, to Uber Cash or
    the original payment.

    Args:
        order_id: The order's ID.
        line_id: The order line's ID, from get_order.
        issue_type: MISSING_ITEM, WRONG_ITEM or QUALITY.
        quantity: How many of the line's units.
        refund_to: UBER_CASH or ORIGINAL_PAYMENT.
        details: What went wrong, in the eater's words.
    """
    eater = access.me(db)
    order = access.own_order(db, eater, order_id)
    rules.check_issue_window(db, order)
    line = next((ln for ln in order["items"] if ln["line_id"] == line_id), None)
    if line is None:
        raise InvalidRequest(f"Order line {line_id} is not part of this order.")
    reported = sum(i["quantity"] for i in db.find(order_issues, order_id=order["id"], line_id=line_id))
    if quantity > line["quantity"] - reported:
        raise Conflict(f"Only {line['quantity'] - reported} of {line['title']} can still be reported.")
    amount = line["total"] // line["quantity"] * quantity
    db.insert(
        order_issues,
        id=db.new_id(order_issues, "iss_"),
        order_id=order["id"],
        line_id=line_id,
        issue_type=issue_type,
        quantity=quantity,
        refund=amount,
        refund_to=refund_to,
        details=details,
        reported_at=db.now_iso(),
    )
    if refund_to == "UBER_CASH":
        db.update(eaters, eater["id"], uber_cash=eater["uber_cash"] + amount)
    stored = db.update(orders, order["id"], refund=order["refund"] + amount)
    return checkout.order_object(db, stored)


@tool()
def rate_order(
    db: Database,
    order_id: str,
    stars: Annotated[int, Field(ge=1, le=5)],
    comment: text(500) | None = None,
) -> OrderObject:
    """Rate a delivered order (once).

    Args:
        order_id: The order's ID.
        stars: 1 to 5.
        comment: What the eater wants the store to know.
    """
    eater = access.me(db)
    order = access.own_order(db, eater, order_id)
    if order["current_state"] != "FINISHED":
        raise Conflict("Only delivered orders can be rated.")
    if order["rating"] is not None:
        raise Conflict("You've already rated this order.")
    stored = db.update(orders, order["id"], rating=stars, rating_comment=comment)
    return checkout.order_object(db, stored)


@tool()
def reorder(db: Database, order_id: str, replace_cart: bool = False) -> CartObject:
    """Put a past order's items, with the same options, back in the cart; sold-out or removed items are left
    out (see the cart's warnings).

    Args:
        order_id: The past order's ID.
        replace_cart: Start a new cart if the current one is from another store.
    """
    eater = access.me(db)
    order = access.own_order(db, eater, order_id)
    added = 0
    skipped = []
    for line in order["items"]:
        found = db.find(menu_items, id=line["item_id"])
        if not found or rules.sold_out(db, found[0]):
            skipped.append(line["title"])
            continue
        option_ids = checkout.option_ids_for(db, found[0], line["options"])
        checkout.add_line(db, eater, found[0], line["quantity"], option_ids, None, replace_cart)
        added += 1
    if not added:
        raise Conflict("None of this order's items are available right now.")
    cart = checkout.cart_object(db, eater, "DELIVERY_BY_UBER", None, 0)
    cart.warnings.extend(f"{title} is unavailable and wasn't added." for title in skipped)
    return cart
