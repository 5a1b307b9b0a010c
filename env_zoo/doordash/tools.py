"""DoorDash consumer tools: sign-in, the consumer and saved addresses, store search and menus, the one-store
cart with promo codes, checkout (delivery or pickup, scheduled or ASAP, DashPass, credits, tips), order tracking,
cancellation, Drive-style delivery updates, post-delivery support and the alcohol ID check at the door."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, Unordered, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, NonBlankText, page_size

from . import address_book
from .access import dropoff_address, me, own_address, own_order, sign_in
from .catalog import chosen_options, search, store_object
from .checkout import add_line, cart_object, checkout, open_cart, place, promo_context, set_quantity
from .objects import (
    AddressObject,
    CartObject,
    ConsumerObject,
    IssueObject,
    ItemObject,
    MenuObject,
    OrderObject,
    OrderSummary,
    StoreObject,
    StoreSummary,
    address_object,
    consumer_object,
    issue_object,
    item_object,
    menu_item_summary,
    order_object,
    order_summaries,
)
from .orders import cancel, hand_over_with_id, report_issue, update_delivery
from .rules import MAX_INSTRUCTIONS, MAX_LINE_QUANTITY, alcohol_problem, promo_problem, trimmed
from .schema import addresses, carts, items, orders, promotions, stores

Fulfillment = Literal["delivery", "pickup"]
DropoffOption = Literal["leave_at_door", "hand_to_me"]
OrderStatus = Literal["submitted", "confirmed", "picked_up", "delivered", "cancelled"]
IssueType = Literal["missing_item", "incorrect_item"]
Resolution = Literal["credits", "refund"]
StorePageSize = page_size(50)
LineQuantity = Annotated[
    int, Field(ge=1, le=MAX_LINE_QUANTITY), ErrorText(f"must be between 1 and {MAX_LINE_QUANTITY}.")
]
NewQuantity = Annotated[
    int, Field(ge=0, le=MAX_LINE_QUANTITY), ErrorText(f"must be between 0 and {MAX_LINE_QUANTITY}.")
]
IssueQuantity = Annotated[int, Field(ge=1), ErrorText("must be at least 1.")]
Tip = Annotated[int, Field(ge=0), ErrorText("can't be negative (cents).")]
Instructions = Annotated[
    str,
    Field(max_length=MAX_INSTRUCTIONS),
    ErrorText(f"can be at most {MAX_INSTRUCTIONS} characters."),
]
ItemNote = Annotated[str, Field(max_length=200), ErrorText("can be at most 200 characters.")]
Street = Annotated[
    str,
    Field(min_length=1, max_length=100, pattern=r"\S"),
    ErrorText("required: a street number and name, at most 100 characters."),
]
ShortName = Annotated[str, Field(max_length=40), ErrorText("can be at most 40 characters.")]
ZipCode = Annotated[str, Field(pattern=r"^\s*\d{5}\s*$"), ErrorText("must be a five-digit ZIP code.")]
ScheduledTime = Annotated[
    str,
    Field(pattern=r"^\s*\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", json_schema_extra={"format": "date-time"}),
    ErrorText("must be an ISO 8601 time like 2025-06-14T12:30:00."),
]


# ---------------------------------------------------------------- the consumer


@tool(user_only=True)
def log_in(db: Database, email: NonBlankText) -> ConsumerObject:
    """(Consumer only) The consumer signs in to the DoorDash app with their email and the 6-digit code texted to
    their phone; the assistant then acts on that account.

    Args:
        email: The email of the DoorDash account.
    """
    return consumer_object(db, sign_in(db, email))


@tool(read_only=True)
def get_consumer(db: Database) -> ConsumerObject:
    """Get the signed-in consumer: profile, DashPass membership, DoorDash credits balance, payment card and saved
    addresses with their drop-off instructions."""
    return consumer_object(db, me(db))


@tool()
def add_address(
    db: Database,
    street: Street,
    zip_code: ZipCode,
    subpremise: ShortName | None = None,
    label: ShortName | None = None,
    dropoff_instructions: Instructions = "",
    dropoff_option: DropoffOption = "leave_at_door",
    make_default: bool = False,
) -> AddressObject:
    """Save a new delivery address inside DoorDash's delivery area. The first address saved becomes the default.

    Args:
        street: Street number and name, e.g. "455 Valencia St".
        zip_code: Five-digit ZIP code.
        subpremise: Apartment, suite or floor, e.g. "Apt 4B".
        label: A name for the address such as "Home" or "Work".
        dropoff_instructions: What the Dasher should know (gate code, where to leave it), at most 500 characters.
        dropoff_option: leave_at_door (contactless) or hand_to_me.
        make_default: true to make it the default delivery address.
    """
    fields = {"street": street.strip(), "subpremise": trimmed(subpremise), "label": trimmed(label)}
    fields.update(dropoff_instructions=dropoff_instructions.strip(), dropoff_option=dropoff_option)
    address_id = address_book.save(db, me(db), zip_code.strip(), fields, make_default)
    return address_object(db.get(addresses, address_id))


@tool()
def update_address(
    db: Database,
    address_id: str,
    dropoff_instructions: Instructions | None = None,
    dropoff_option: DropoffOption | None = None,
    label: ShortName | None = None,
    subpremise: ShortName | None = None,
    make_default: bool = False,
) -> AddressObject:
    """Change a saved address's drop-off instructions, drop-off option, label or unit, or make it the default.

    Args:
        address_id: The address's ID, from get_consumer.
        dropoff_instructions: New instructions for the Dasher (replace the old ones), at most 500 characters.
        dropoff_option: leave_at_door (contactless) or hand_to_me.
        label: New name for the address.
        subpremise: New apartment, suite or floor.
        make_default: true to make it the default delivery address.
    """
    consumer = me(db)
    address = own_address(db, consumer, address_id)
    changes: dict[str, Any] = given(dropoff_option=dropoff_option)
    if dropoff_instructions is not None:
        changes["dropoff_instructions"] = dropoff_instructions.strip()
    changes.update({k: trimmed(v) for k, v in given(label=label, subpremise=subpremise).items()})
    if not changes and not make_default:
        raise InvalidRequest("Nothing to update.")
    if changes:
        db.update(addresses, address["id"], **changes)
    if make_default:
        address_book.set_default(db, consumer, address["id"])
    return address_object(db.get(addresses, address["id"]))


# ---------------------------------------------------------------- stores and menus


@tool(read_only=True)
def search_stores(
    db: Database,
    query: str | None = None,
    address_id: str | None = None,
    fulfillment_type: Fulfillment = "delivery",
    open_now: bool = False,
    dashpass_only: bool = False,
    page_size: StorePageSize = 10,
    cursor: str | None = None,
) -> Page[StoreSummary]:
    """Search the stores that deliver to an address (or, for pickup, that are within 10 miles), nearest first.
    The query matches store names, cuisines and dishes.

    Args:
        query: Words to look for, e.g. "ramen" or "burrito".
        address_id: The saved address to search around; defaults to the default address.
        fulfillment_type: delivery (stores whose delivery radius covers the address) or pickup.
        open_now: Only stores open right now.
        dashpass_only: Only DashPass stores.
        page_size: Stores per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    address = own_address(db, me(db), address_id)
    found = search(db, address, query, fulfillment_type, open_now, dashpass_only)
    return paginate(found, page_size, cursor, max_page_size=50)


@tool(read_only=True)
def get_store(db: Database, store_id: str, address_id: str | None = None) -> StoreObject:
    """Get a store's details: opening hours (local time), whether it is open and accepting orders, its delivery
    radius and whether it reaches an address, prep time, fees, subtotal minimum and what it offers.

    Args:
        store_id: The store's ID.
        address_id: The saved address to measure from; defaults to the default address.
    """
    address = own_address(db, me(db), address_id)
    return store_object(db, db.get(stores, store_id, "Store"), address)


@tool(read_only=True)
def get_menu(db: Database, store_id: str) -> MenuObject:
    """Get a store's menu: every item with its category, base price in cents, whether it is sold out and which
    choices are required (see get_item for the options).

    Args:
        store_id: The store's ID.
    """
    store = db.get(stores, store_id, "Store")
    rows = db.find(items, store_id=store_id, order_by=[items.c.sort_index])
    return MenuObject(store_id=store_id, store_name=store["name"], items=[menu_item_summary(db, r) for r in rows])


@tool(read_only=True)
def get_item(db: Database, item_id: str) -> ItemObject:
    """Get a menu item with its extras: each extra's options with prices, and how many options must
    (min_num_options) and may (max_num_options) be chosen.

    Args:
        item_id: The item's ID, from get_menu.
    """
    return item_object(db, db.get(items, item_id, "Item"))


# ---------------------------------------------------------------- the cart


@tool(read_only=True)
def get_cart(
    db: Database,
    fulfillment_type: Fulfillment = "delivery",
    address_id: str | None = None,
    tip: Tip = 0,
    scheduled_time: ScheduledTime | None = None,
) -> CartObject:
    """Get the cart with a checkout quote: subtotal, delivery, service and small-order fees (DashPass waivers
    applied), tax, promo discount, tip, credits and what the card would pay, plus whether the order can be placed
    and, if not, why.

    Args:
        fulfillment_type: delivery or pickup.
        address_id: The delivery address; defaults to the default address.
        tip: Dasher tip in cents.
        scheduled_time: A later delivery or pickup time (ISO 8601; without an offset it is the store's local
            time); omit for as soon as possible.
    """
    consumer = me(db)
    cart = open_cart(db, consumer)
    if cart is None:
        return cart_object(db, None)
    address = dropoff_address(db, consumer, fulfillment_type, address_id)
    return cart_object(db, cart, checkout(db, consumer, cart, fulfillment_type, address, tip, scheduled_time).quote())


@tool()
def add_to_cart(
    db: Database,
    item_id: str,
    quantity: LineQuantity = 1,
    option_ids: Annotated[list[str] | None, Unordered] = None,
    special_instructions: ItemNote | None = None,
    replace_cart: bool = False,
) -> CartObject:
    """Add a menu item with its chosen options to the cart. A cart holds one store's items: adding from another
    store fails unless replace_cart starts a new cart (the old one is discarded). The same item with the same
    options and instructions adds to its line's quantity.

    Args:
        item_id: The item's ID, from get_menu.
        quantity: How many, 1 to 20.
        option_ids: The chosen options' IDs (from get_item), covering every required extra.
        special_instructions: A note for the store about this item, at most 200 characters.
        replace_cart: true to empty a cart from another store and start a new one.
    """
    consumer = me(db)
    item = db.get(items, item_id, "Item")
    store = db.get(stores, item["store_id"], "Store")
    if not store["accepting_orders"]:
        raise Conflict(f"{store['name']} isn't accepting orders right now.")
    if not item["is_active"]:
        raise Conflict(f"{item['name']} is sold out at {store['name']}.")
    line = {"quantity": quantity, "option_ids": chosen_options(db, item, option_ids or [])}
    if item["contains_alcohol"] and (problem := alcohol_problem(consumer, db.now())):
        raise problem
    line["special_instructions"] = trimmed(special_instructions)
    return cart_object(db, add_line(db, consumer, item, store, line, replace_cart))


@tool()
def update_cart_item(db: Database, cart_item_id: str, quantity: NewQuantity) -> CartObject:
    """Change the quantity of a cart line; 0 removes it (an emptied cart is discarded with its promo code).

    Args:
        cart_item_id: The cart line's ID, from get_cart.
        quantity: The new quantity, 0 to 20.
    """
    return cart_object(db, set_quantity(db, me(db), cart_item_id, quantity))


@tool()
def apply_promo_code(db: Database, code: NonBlankText) -> CartObject:
    """Apply a promo code to the cart. One promo per order; its conditions (minimum subtotal, first order only,
    DashPass only, one store, expiry, uses per customer) are checked now and again at checkout.

    Args:
        code: The promo code, e.g. "SAVE5".
    """
    consumer = me(db)
    cart = open_cart(db, consumer)
    if cart is None:
        raise InvalidRequest("Add items to your cart before applying a promo code.")
    wanted = code.strip().upper()
    promo = db.find(promotions, code=wanted)
    if not promo:
        raise NotFound(f"Promo code {wanted} isn't valid.")
    if cart["promo_code"] is not None:
        already = f"{wanted} is already applied." if cart["promo_code"] == wanted else None
        raise Conflict(
            already or f"Only one promo per order: {cart['promo_code']} is already applied. Remove it first."
        )
    store = db.get(stores, cart["store_id"], "Store")
    subtotal = cart_object(db, cart).subtotal
    if problem := promo_problem(promo[0], promo_context(db, consumer, store, subtotal, wanted, None)):
        raise problem
    return cart_object(db, db.update(carts, cart["id"], promo_code=wanted))


@tool()
def remove_promo_code(db: Database) -> CartObject:
    """Remove the promo code applied to the cart."""
    cart = open_cart(db, me(db))
    if cart is None or cart["promo_code"] is None:
        raise Conflict("No promo code is applied to your cart.")
    return cart_object(db, db.update(carts, cart["id"], promo_code=None))


@tool()
def place_order(
    db: Database,
    fulfillment_type: Fulfillment = "delivery",
    address_id: str | None = None,
    tip: Tip = 0,
    scheduled_time: ScheduledTime | None = None,
    dropoff_instructions: Instructions | None = None,
) -> OrderObject:
    """Check out the cart and place the order with the card on file (DoorDash credits pay first, except the tip).
    The store must be open (or the order scheduled inside its hours, 1 hour to 7 days ahead), accepting orders
    and, for delivery, reach the address; its subtotal minimum and the promo's conditions must be met. Alcohol
    needs the consumer to be 21+ and is handed over only after the Dasher checks ID.

    Args:
        fulfillment_type: delivery or pickup (pickup orders take no tip).
        address_id: The delivery address; defaults to the default address.
        tip: Dasher tip in cents.
        scheduled_time: A later delivery or pickup time (ISO 8601; without an offset it is the store's local
            time); omit for as soon as possible.
        dropoff_instructions: Instructions for this order only; defaults to the address's saved instructions.
    """
    consumer = me(db)
    cart = open_cart(db, consumer)
    if cart is None:
        raise InvalidRequest("Your cart is empty.")
    if fulfillment_type == "pickup" and dropoff_instructions is not None:
        raise InvalidRequest("Pickup orders have no drop-off instructions.")
    address = dropoff_address(db, consumer, fulfillment_type, address_id)
    plan = checkout(db, consumer, cart, fulfillment_type, address, tip, scheduled_time)
    if plan.problem is not None:
        raise plan.problem
    return order_object(db, db.get(orders, place(db, consumer, cart, plan, dropoff_instructions)))


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def list_orders(
    db: Database, status: OrderStatus | None = None, page_size: StorePageSize = 10, cursor: str | None = None
) -> Page[OrderSummary]:
    """List the consumer's orders, newest first.

    Args:
        status: Only orders in this status.
        page_size: Orders per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    rows = db.find(orders, consumer_id=me(db)["id"], order_by=[orders.c.created_at.desc()], **given(status=status))
    page = paginate(rows, page_size, cursor, max_page_size=50)
    summaries = order_summaries(db, page.results)
    return Page[OrderSummary](results=summaries, next_cursor=page.next_cursor, has_more=page.has_more)


@tool(read_only=True)
def get_order(db: Database, order_id: str) -> OrderObject:
    """Get an order: status, items (with their order item IDs), charges, refunds, the delivery (address,
    instructions, Dasher, tracking link, ID check for alcohol) and any problems reported.

    Args:
        order_id: The order's ID, from list_orders.
    """
    return order_object(db, own_order(db, me(db), order_id))


@tool()
def cancel_order(db: Database, order_id: str, accept_cancellation_fee: bool = False) -> OrderObject:
    """Cancel an order. Free (full refund, credits returned) until the store confirms it; once confirmed, the food
    (the subtotal) is charged as a cancellation fee, which the consumer must accept. Orders already picked up or
    delivered can't be cancelled.

    Args:
        order_id: The order's ID.
        accept_cancellation_fee: true once the consumer agrees to pay the cancellation fee of a confirmed order.
    """
    consumer = me(db)
    return order_object(db, cancel(db, consumer, own_order(db, consumer, order_id), accept_cancellation_fee))


@tool()
def update_order(
    db: Database, order_id: str, tip: Tip | None = None, dropoff_instructions: Instructions | None = None
) -> OrderObject:
    """Update a delivery like Drive's update delivery: change the drop-off instructions until it is delivered, or
    the Dasher tip. A tip can be changed freely before pickup; after pickup it can only be raised, up to 24 hours
    after delivery. The card is charged or refunded the difference.

    Args:
        order_id: The order's ID.
        tip: The new total tip in cents.
        dropoff_instructions: New instructions for the Dasher, at most 500 characters.
    """
    order = own_order(db, me(db), order_id)
    return order_object(db, update_delivery(db, order, tip, dropoff_instructions))


@tool()
def report_order_issue(
    db: Database,
    order_id: str,
    order_item_id: str,
    issue_type: IssueType,
    quantity: IssueQuantity = 1,
    resolution: Resolution = "credits",
) -> IssueObject:
    """Report a missing or incorrect item of a delivered (or picked-up pickup) order, within 7 days. The item's
    price for the reported quantity comes back as DoorDash credits (at once) or as a refund to the card (at most
    what the card paid).

    Args:
        order_id: The order's ID.
        order_item_id: The order item's ID, from get_order.
        issue_type: missing_item or incorrect_item.
        quantity: How many of that item were missing or wrong.
        resolution: credits (DoorDash credits) or refund (to the card).
    """
    consumer = me(db)
    order = own_order(db, consumer, order_id)
    return issue_object(db, report_issue(db, consumer, order, order_item_id, issue_type, quantity, resolution))


@tool(user_only=True)
def show_id_to_dasher(db: Database) -> OrderObject:
    """(Consumer only, at the door) The consumer hands the Dasher their government ID for the alcohol in their
    order; the Dasher scans it and completes the delivery."""
    return order_object(db, hand_over_with_id(db, me(db)))
