"""DoorDash consumer tools: sign-in, the consumer and saved addresses, store search and menus, the one-store
cart with promo codes, checkout (delivery or pickup, scheduled or ASAP, DashPass, credits, tips), order tracking,
cancellation, Drive-style delivery updates, post-delivery support and the alcohol ID check at the door."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from envfactory_gym import (
    Conflict,
    Database,
    InvalidRequest,
    NotFound,
    Page,
    Unordered,
    paginate,
    tool,
)

from .checkout import cart_object, checkout, drop_cart, open_cart, promo_context
from .objects import (
    AddressObject,
    CartObject,
    ConsumerObject,
    DashPassObject,
    IssueObject,
    ItemObject,
    MenuObject,
    OpenHours,
    OrderObject,
    OrderSummary,
    StoreObject,
    StoreSummary,
    address_object,
    issue_object,
    item_object,
    menu_item_summary,
    one_line,
    order_object,
    order_summary,
)
from .rules import (
    PICKUP_RADIUS_MILES,
    SUPPORT_WINDOW,
    TIP_RAISE_WINDOW,
    alcohol_problem,
    cancellation,
    dollars,
    is_open,
    miles_between,
    promo_problem,
    travel_minutes,
)
from .schema import (
    addresses,
    cart_items,
    carts,
    consumers,
    extra_options,
    extras,
    items,
    order_issues,
    order_items,
    orders,
    promotions,
    sessions,
    stores,
    zip_codes,
)

Fulfillment = Literal["delivery", "pickup"]
DropoffOption = Literal["leave_at_door", "hand_to_me"]
OrderStatus = Literal["submitted", "confirmed", "picked_up", "delivered", "cancelled"]
MAX_LINE_QUANTITY = 20
MAX_INSTRUCTIONS = 500
MAX_ITEM_NOTE = 200


# ---------------------------------------------------------------- helpers


def _me(db: Database) -> dict[str, Any]:
    """The signed-in consumer."""
    session = db.current_session(sessions, "Sign in to DoorDash first.")
    return db.get(consumers, session["consumer_id"], "Consumer")


def _address(db: Database, consumer: dict[str, Any], address_id: str | None) -> dict[str, Any]:
    """One of the consumer's saved addresses; the default one when `address_id` is None."""
    if address_id is None:
        default = db.find(addresses, consumer_id=consumer["id"], is_default=True)
        if not default:
            raise InvalidRequest("Add a delivery address first.")
        return default[0]
    found = db.find(addresses, id=address_id, consumer_id=consumer["id"])
    if not found:
        raise NotFound(f"Address '{address_id}' not found")
    return found[0]


def _order(db: Database, consumer: dict[str, Any], order_id: str) -> dict[str, Any]:
    """One of the consumer's orders."""
    found = db.find(orders, id=order_id, consumer_id=consumer["id"])
    if not found:
        raise NotFound(f"Order '{order_id}' not found")
    return found[0]


def _dropoff(
    db: Database, consumer: dict[str, Any], fulfillment_type: str, address_id: str | None
) -> dict[str, Any] | None:
    """The delivery address of a delivery order (None for pickup)."""
    return _address(db, consumer, address_id) if fulfillment_type == "delivery" else None


def _delivery_fields(address: dict[str, Any] | None, alcohol: bool, instructions: str | None) -> dict[str, Any]:
    """An order's drop-off columns: the address, its instructions unless overridden, hand-off for alcohol."""
    if address is None:
        return {
            "address_id": None,
            "dropoff_address": None,
            "dropoff_instructions": None,
            "dropoff_option": None,
            "id_verified": None,
        }
    note = instructions if instructions is not None else address["dropoff_instructions"]
    return {
        "address_id": address["id"],
        "dropoff_address": one_line(address),
        "dropoff_instructions": _text(note, "dropoff_instructions", MAX_INSTRUCTIONS),
        "dropoff_option": "hand_to_me" if alcohol else address["dropoff_option"],
        "id_verified": False if alcohol else None,
    }


def _at(stamp: str) -> datetime:
    """A stored UTC timestamp as a datetime."""
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _miles(store: dict[str, Any], address: dict[str, Any]) -> float:
    """Distance from the store to an address."""
    return miles_between(store["lat"], store["lng"], address["lat"], address["lng"])


def _eta_minutes(store: dict[str, Any], miles: float) -> int:
    """Prep plus drive time of a delivery."""
    return store["prep_time_minutes"] + travel_minutes(miles)


def _text(value: str, name: str, limit: int) -> str:
    """Free text, trimmed and at most `limit` characters."""
    clean = value.strip()
    if len(clean) > limit:
        raise InvalidRequest(f"{name} can be at most {limit} characters.")
    return clean


def _optional_text(value: str | None, name: str, limit: int) -> str | None:
    """Optional free text: None when absent or blank."""
    if value is None:
        return None
    return _text(value, name, limit) or None


def _set_default(db: Database, consumer: dict[str, Any], address_id: str) -> None:
    for other in db.find(addresses, consumer_id=consumer["id"], is_default=True):
        db.update(addresses, other["id"], is_default=False)
    db.update(addresses, address_id, is_default=True)


def _check_options(db: Database, item: dict[str, Any], option_ids: list[str]) -> list[str]:
    """The chosen options, validated against the item's extras (required choices, max selections)."""
    if len(set(option_ids)) != len(option_ids):
        raise InvalidRequest("Each option can be chosen only once.")
    groups = db.find(extras, item_id=item["id"], order_by=[extras.c.sort_index])
    owner = {o["id"]: (o, g) for g in groups for o in db.find(extra_options, extra_id=g["id"])}
    for option_id in option_ids:
        if option_id not in owner:
            raise InvalidRequest(f"Option '{option_id}' isn't an option of {item['name']}.")
        option, _ = owner[option_id]
        if not option["is_active"]:
            raise Conflict(f"{option['name']} is unavailable right now.")
    for group in groups:
        chosen = sum(1 for i in option_ids if owner[i][1]["id"] == group["id"])
        if chosen < group["min_num_options"]:
            raise InvalidRequest(f"Choose at least {group['min_num_options']} for '{group['name']}' ({item['name']}).")
        if chosen > group["max_num_options"]:
            raise InvalidRequest(f"Choose at most {group['max_num_options']} for '{group['name']}' ({item['name']}).")
    return sorted(option_ids)


def _quantity(quantity: int) -> int:
    """A line quantity, 1 to 20."""
    if not 1 <= quantity <= MAX_LINE_QUANTITY:
        raise InvalidRequest(f"quantity must be between 1 and {MAX_LINE_QUANTITY}.")
    return quantity


# ---------------------------------------------------------------- the consumer


@tool(user_only=True)
def log_in(db: Database, email: str) -> ConsumerObject:
    """(Consumer only) The consumer signs in to the DoorDash app with their email and the 6-digit code texted to
    their phone; the assistant then acts on that account.

    Args:
        email: The email of the DoorDash account.
    """
    wanted = email.strip().casefold()
    found = [c for c in db.find(consumers) if c["email"].casefold() == wanted]
    if not found:
        raise NotFound(f"No DoorDash account uses {email.strip()}.")
    db.start_session(sessions, consumer_id=found[0]["id"])
    return get_consumer(db)


@tool(read_only=True)
def get_consumer(db: Database) -> ConsumerObject:
    """Get the signed-in consumer: profile, DashPass membership, DoorDash credits balance, payment card and saved
    addresses with their drop-off instructions."""
    me = _me(db)
    placed = [o for o in db.find(orders, consumer_id=me["id"]) if o["status"] != "cancelled"]
    saved = db.find(addresses, consumer_id=me["id"], order_by=[addresses.c.is_default.desc()])
    card = me["payment_method"]
    return ConsumerObject(
        **{k: me[k] for k in ("id", "first_name", "last_name", "email", "phone_number", "credits_balance")},
        dashpass=DashPassObject(status=me["dashpass_status"], renews_on=me["dashpass_renews_on"]),
        payment_method=f"{card['brand']} ending in {card['last4']}",
        orders_placed=len(placed),
        addresses=[address_object(a) for a in saved],
    )


@tool()
def add_address(
    db: Database,
    street: str,
    zip_code: str,
    subpremise: str | None = None,
    label: str | None = None,
    dropoff_instructions: str = "",
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
    me = _me(db)
    area = db.find(zip_codes, zip_code=zip_code.strip())
    if not area:
        raise InvalidRequest(f"DoorDash doesn't deliver to {zip_code.strip()} yet.")
    clean = _text(street, "street", 100)
    if not clean:
        raise InvalidRequest("street is required.")
    unit = _optional_text(subpremise, "subpremise", 40)
    for saved in db.find(addresses, consumer_id=me["id"]):
        same_unit = (saved["subpremise"] or "").casefold() == (unit or "").casefold()
        if saved["street"].casefold() == clean.casefold() and same_unit:
            raise Conflict(f"This address is already saved{' as ' + saved['label'] if saved['label'] else ''}.")
    first = not db.find(addresses, consumer_id=me["id"])
    zone = area[0]
    row = db.insert(
        addresses,
        id=db.new_uuid(addresses),
        consumer_id=me["id"],
        label=_optional_text(label, "label", 40),
        street=clean,
        subpremise=unit,
        city=zone["city"],
        state=zone["state"],
        zip_code=zone["zip_code"],
        lat=zone["lat"],
        lng=zone["lng"],
        dropoff_instructions=_text(dropoff_instructions, "dropoff_instructions", MAX_INSTRUCTIONS),
        dropoff_option=dropoff_option,
        is_default=False,
        created_at=db.now_iso(),
    )
    if make_default or first:
        _set_default(db, me, row["id"])
    return address_object(db.get(addresses, row["id"]))


@tool()
def update_address(
    db: Database,
    address_id: str,
    dropoff_instructions: str | None = None,
    dropoff_option: DropoffOption | None = None,
    label: str | None = None,
    subpremise: str | None = None,
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
    me = _me(db)
    address = _address(db, me, address_id)
    changes: dict[str, Any] = {}
    if dropoff_instructions is not None:
        changes["dropoff_instructions"] = _text(dropoff_instructions, "dropoff_instructions", MAX_INSTRUCTIONS)
    if dropoff_option is not None:
        changes["dropoff_option"] = dropoff_option
    if label is not None:
        changes["label"] = _optional_text(label, "label", 40)
    if subpremise is not None:
        changes["subpremise"] = _optional_text(subpremise, "subpremise", 40)
    if not changes and not make_default:
        raise InvalidRequest("Nothing to update.")
    if changes:
        db.update(addresses, address["id"], **changes)
    if make_default:
        _set_default(db, me, address["id"])
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
    page_size: int = 10,
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
    me = _me(db)
    address = _address(db, me, address_id)
    words = (query or "").casefold().split()
    dishes: dict[str, list[str]] = {}
    for item in db.find(items):
        dishes.setdefault(item["store_id"], []).append(item["name"])
    now = db.now()
    found = []
    for store in db.find(stores):
        miles = _miles(store, address)
        if fulfillment_type == "delivery" and not (
            store["offers_delivery"] and miles <= store["delivery_radius_miles"]
        ):
            continue
        if fulfillment_type == "pickup" and not (store["offers_pickup"] and miles <= PICKUP_RADIUS_MILES):
            continue
        text = " ".join([store["name"], store["description"], *store["cuisines"], *dishes.get(store["id"], [])])
        if not all(w in text.casefold() for w in words):
            continue
        open_ = is_open(store, now)
        if (open_now and not open_) or (dashpass_only and not store["dashpass_eligible"]):
            continue
        found.append(
            (
                miles,
                store["name"],
                StoreSummary(
                    **{
                        k: store[k]
                        for k in (
                            "id",
                            "name",
                            "cuisines",
                            "price_range",
                            "rating",
                            "accepting_orders",
                            "delivery_fee",
                            "dashpass_eligible",
                            "offers_pickup",
                        )
                    },
                    distance_miles=round(miles, 1),
                    is_open=open_,
                    estimated_delivery_minutes=_eta_minutes(store, miles),
                ),
            )
        )
    found.sort(key=lambda f: (f[0], f[1]))
    return paginate([f[2] for f in found], page_size, cursor, max_page_size=50)


@tool(read_only=True)
def get_store(db: Database, store_id: str, address_id: str | None = None) -> StoreObject:
    """Get a store's details: opening hours (local time), whether it is open and accepting orders, its delivery
    radius and whether it reaches an address, prep time, fees, subtotal minimum and what it offers.

    Args:
        store_id: The store's ID.
        address_id: The saved address to measure from; defaults to the default address.
    """
    me = _me(db)
    store = db.get(stores, store_id, "Store")
    miles = _miles(store, _address(db, me, address_id))
    keep = set(StoreObject.model_fields) - {
        "address",
        "open_hours",
        "is_open",
        "distance_miles",
        "delivers_to_address",
        "estimated_delivery_minutes",
    }
    return StoreObject(
        **{k: store[k] for k in keep},
        address=f"{store['street']}, {store['city']}, CA {store['zip_code']}",
        open_hours=[OpenHours(**h) for h in store["open_hours"]],
        is_open=is_open(store, db.now()),
        distance_miles=round(miles, 1),
        delivers_to_address=store["offers_delivery"] and miles <= store["delivery_radius_miles"],
        estimated_delivery_minutes=_eta_minutes(store, miles),
    )


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
    tip: int = 0,
    scheduled_time: str | None = None,
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
    me = _me(db)
    cart = open_cart(db, me)
    if cart is None:
        return cart_object(db, None)
    address = _dropoff(db, me, fulfillment_type, address_id)
    return cart_object(db, cart, checkout(db, me, cart, fulfillment_type, address, tip, scheduled_time).quote())


@tool()
def add_to_cart(
    db: Database,
    item_id: str,
    quantity: int = 1,
    option_ids: Annotated[list[str] | None, Unordered] = None,
    special_instructions: str | None = None,
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
    me = _me(db)
    item = db.get(items, item_id, "Item")
    store = db.get(stores, item["store_id"], "Store")
    if not store["accepting_orders"]:
        raise Conflict(f"{store['name']} isn't accepting orders right now.")
    if not item["is_active"]:
        raise Conflict(f"{item['name']} is sold out at {store['name']}.")
    _quantity(quantity)
    chosen = _check_options(db, item, option_ids or [])
    if item["contains_alcohol"]:
        problem = alcohol_problem(me, db.now())
        if problem:
            raise problem
    note = _optional_text(special_instructions, "special_instructions", MAX_ITEM_NOTE)
    cart = open_cart(db, me)
    if cart is not None and cart["store_id"] != store["id"]:
        other = db.get(stores, cart["store_id"], "Store")
        if not replace_cart:
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
            consumer_id=me["id"],
            store_id=store["id"],
            promo_code=None,
            created_at=db.now_iso(),
        )
    same = [
        line
        for line in db.find(cart_items, cart_id=cart["id"], item_id=item_id)
        if line["option_ids"] == chosen and line["special_instructions"] == note
    ]
    if same:
        db.update(cart_items, same[0]["id"], quantity=_quantity(same[0]["quantity"] + quantity))
    else:
        db.insert(
            cart_items,
            id=db.new_uuid(cart_items),
            cart_id=cart["id"],
            item_id=item_id,
            quantity=quantity,
            option_ids=chosen,
            special_instructions=note,
            created_at=db.now_iso(),
        )
    return cart_object(db, cart)


@tool()
def update_cart_item(db: Database, cart_item_id: str, quantity: int) -> CartObject:
    """Change the quantity of a cart line; 0 removes it (an emptied cart is discarded with its promo code).

    Args:
        cart_item_id: The cart line's ID, from get_cart.
        quantity: The new quantity, 0 to 20.
    """
    me = _me(db)
    cart = open_cart(db, me)
    line = db.find(cart_items, id=cart_item_id, cart_id=cart["id"]) if cart else []
    if not line:
        raise NotFound(f"Cart item '{cart_item_id}' not found")
    if quantity == 0:
        db.delete(cart_items, cart_item_id)
        if not db.find(cart_items, cart_id=cart["id"]):
            drop_cart(db, cart)
            return cart_object(db, None)
    else:
        db.update(cart_items, cart_item_id, quantity=_quantity(quantity))
    return cart_object(db, cart)


@tool()
def apply_promo_code(db: Database, code: str) -> CartObject:
    """Apply a promo code to the cart. One promo per order; its conditions (minimum subtotal, first order only,
    DashPass only, one store, expiry, uses per customer) are checked now and again at checkout.

    Args:
        code: The promo code, e.g. "SAVE5".
    """
    me = _me(db)
    cart = open_cart(db, me)
    if cart is None:
        raise InvalidRequest("Add items to your cart before applying a promo code.")
    wanted = code.strip().upper()
    promo = db.find(promotions, code=wanted)
    if not promo:
        raise NotFound(f"Promo code {wanted} isn't valid.")
    if cart["promo_code"] == wanted:
        raise Conflict(f"{wanted} is already applied.")
    if cart["promo_code"] is not None:
        raise Conflict(f"Only one promo per order: {cart['promo_code']} is already applied. Remove it first.")
    store = db.get(stores, cart["store_id"], "Store")
    subtotal = cart_object(db, cart).subtotal
    problem = promo_problem(promo[0], promo_context(db, me, store, subtotal, wanted, None))
    if problem:
        raise problem
    return cart_object(db, db.update(carts, cart["id"], promo_code=wanted))


@tool()
def remove_promo_code(db: Database) -> CartObject:
    """Remove the promo code applied to the cart."""
    me = _me(db)
    cart = open_cart(db, me)
    if cart is None or cart["promo_code"] is None:
        raise Conflict("No promo code is applied to your cart.")
    return cart_object(db, db.update(carts, cart["id"], promo_code=None))


@tool()
def place_order(
    db: Database,
    fulfillment_type: Fulfillment = "delivery",
    address_id: str | None = None,
    tip: int = 0,
    scheduled_time: str | None = None,
    dropoff_instructions: str | None = None,
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
    me = _me(db)
    cart = open_cart(db, me)
    if cart is None:
        raise InvalidRequest("Your cart is empty.")
    if fulfillment_type == "pickup" and dropoff_instructions is not None:
        raise InvalidRequest("Pickup orders have no drop-off instructions.")
    address = _dropoff(db, me, fulfillment_type, address_id)
    plan = checkout(db, me, cart, fulfillment_type, address, tip, scheduled_time)
    if plan.problem is not None:
        raise plan.problem
    quote = plan.quote()
    order_id = db.new_uuid(orders)
    db.insert(
        orders,
        id=order_id,
        consumer_id=me["id"],
        store_id=plan.store["id"],
        status="submitted",
        fulfillment_type=fulfillment_type,
        contains_alcohol=plan.contains_alcohol,
        **_delivery_fields(address, plan.contains_alcohol, dropoff_instructions),
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
    db.update(consumers, me["id"], credits_balance=me["credits_balance"] - plan.charges.credits_applied)
    return order_object(db, db.get(orders, order_id))


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def list_orders(
    db: Database, status: OrderStatus | None = None, page_size: int = 10, cursor: str | None = None
) -> Page[OrderSummary]:
    """List the consumer's orders, newest first.

    Args:
        status: Only orders in this status.
        page_size: Orders per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    me = _me(db)
    equals = {"status": status} if status is not None else {}
    rows = db.find(orders, consumer_id=me["id"], order_by=[orders.c.created_at.desc()], **equals)
    return paginate([order_summary(db, r) for r in rows], page_size, cursor, max_page_size=50)


@tool(read_only=True)
def get_order(db: Database, order_id: str) -> OrderObject:
    """Get an order: status, items (with their order item IDs), charges, refunds, the delivery (address,
    instructions, Dasher, tracking link, ID check for alcohol) and any problems reported.

    Args:
        order_id: The order's ID, from list_orders.
    """
    return order_object(db, _order(db, _me(db), order_id))


@tool()
def cancel_order(db: Database, order_id: str, accept_cancellation_fee: bool = False) -> OrderObject:
    """Cancel an order. Free (full refund, credits returned) until the store confirms it; once confirmed, the food
    (the subtotal) is charged as a cancellation fee, which the consumer must accept. Orders already picked up or
    delivered can't be cancelled.

    Args:
        order_id: The order's ID.
        accept_cancellation_fee: true once the consumer agrees to pay the cancellation fee of a confirmed order.
    """
    me = _me(db)
    order = _order(db, me, order_id)
    if order["status"] == "cancelled":
        raise Conflict("This order is already cancelled.")
    if order["status"] == "delivered":
        raise Conflict("This order was delivered; report a problem with it instead.")
    if order["status"] == "picked_up":
        who = "Your Dasher has" if order["fulfillment_type"] == "delivery" else "You've"
        raise Conflict(f"{who} already picked up this order, so it can't be cancelled.")
    fee, card, credits = cancellation(order)
    if fee and not accept_cancellation_fee:
        raise Conflict(
            f"{db.get(stores, order['store_id'])['name']} has already confirmed this order; cancelling "
            f"now costs {dollars(fee)}. Cancel with accept_cancellation_fee if the consumer agrees."
        )
    db.update(consumers, me["id"], credits_balance=me["credits_balance"] + credits)
    row = db.update(
        orders,
        order_id,
        status="cancelled",
        cancellation_fee=fee,
        refunded_amount=card,
        refunded_credits=credits,
        cancelled_at=db.now_iso(),
    )
    return order_object(db, row)


@tool()
def update_order(
    db: Database, order_id: str, tip: int | None = None, dropoff_instructions: str | None = None
) -> OrderObject:
    """Update a delivery like Drive's update delivery: change the drop-off instructions until it is delivered, or
    the Dasher tip. A tip can be changed freely before pickup; after pickup it can only be raised, up to 24 hours
    after delivery. The card is charged or refunded the difference.

    Args:
        order_id: The order's ID.
        tip: The new total tip in cents.
        dropoff_instructions: New instructions for the Dasher, at most 500 characters.
    """
    me = _me(db)
    order = _order(db, me, order_id)
    if tip is None and dropoff_instructions is None:
        raise InvalidRequest("Nothing to update: give a tip or dropoff_instructions.")
    if order["status"] == "cancelled":
        raise Conflict("This order was cancelled.")
    if order["fulfillment_type"] == "pickup":
        raise InvalidRequest("Pickup orders have no Dasher, so no tip or drop-off instructions.")
    changes: dict[str, Any] = {}
    if dropoff_instructions is not None:
        if order["status"] == "delivered":
            raise Conflict("This order was already delivered.")
        changes["dropoff_instructions"] = _text(dropoff_instructions, "dropoff_instructions", MAX_INSTRUCTIONS)
    if tip is not None:
        if tip < 0:
            raise InvalidRequest("tip can't be negative.")
        if order["status"] in ("picked_up", "delivered") and tip < order["tip"]:
            raise Conflict(
                f"Tips can't be lowered after the Dasher picks up the order (the tip is {dollars(order['tip'])})."
            )
        if order["status"] == "delivered" and db.now() > _at(order["delivered_at"]) + TIP_RAISE_WINDOW:
            raise Conflict("Tips can be changed up to 24 hours after delivery.")
        delta = tip - order["tip"]
        changes.update(tip=tip, total=order["total"] + delta, amount_charged=order["amount_charged"] + delta)
    return order_object(db, db.update(orders, order_id, **changes))


@tool()
def report_order_issue(
    db: Database,
    order_id: str,
    order_item_id: str,
    issue_type: Literal["missing_item", "incorrect_item"],
    quantity: int = 1,
    resolution: Literal["credits", "refund"] = "credits",
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
    me = _me(db)
    order = _order(db, me, order_id)
    done = (
        order["delivered_at"]
        if order["status"] == "delivered"
        else (
            order["picked_up_at"] if order["status"] == "picked_up" and order["fulfillment_type"] == "pickup" else None
        )
    )
    if done is None:
        raise Conflict("You can report a problem once the order has been delivered.")
    if db.now() > _at(done) + SUPPORT_WINDOW:
        raise Conflict("Problems with an order must be reported within 7 days of delivery.")
    line = db.find(order_items, id=order_item_id, order_id=order_id)
    if not line:
        raise NotFound(f"Order item '{order_item_id}' not found in this order")
    item = line[0]
    reported = sum(i["quantity"] for i in db.find(order_issues, order_item_id=order_item_id))
    if quantity < 1:
        raise InvalidRequest("quantity must be at least 1.")
    if reported + quantity > item["quantity"]:
        raise Conflict(f"{item['name']}: {item['quantity']} ordered and {reported} already reported.")
    amount = item["unit_price"] * quantity
    if resolution == "refund":
        left = order["amount_charged"] - order["refunded_amount"]
        if amount > left:
            raise InvalidRequest(f"Only {dollars(left)} of this order can go back to your card; choose credits.")
        db.update(orders, order_id, refunded_amount=order["refunded_amount"] + amount)
    else:
        db.update(orders, order_id, refunded_credits=order["refunded_credits"] + amount)
        db.update(consumers, me["id"], credits_balance=me["credits_balance"] + amount)
    row = db.insert(
        order_issues,
        id=db.new_uuid(order_issues),
        order_id=order_id,
        order_item_id=order_item_id,
        issue_type=issue_type,
        quantity=quantity,
        resolution=resolution,
        amount=amount,
        created_at=db.now_iso(),
    )
    return issue_object(db, row)


@tool(user_only=True)
def show_id_to_dasher(db: Database) -> OrderObject:
    """(Consumer only, at the door) The consumer hands the Dasher their government ID for the alcohol in their
    order; the Dasher scans it and completes the delivery."""
    me = _me(db)
    waiting = db.find(orders, consumer_id=me["id"], status="picked_up", contains_alcohol=True, id_verified=False)
    if not waiting:
        raise NotFound("No Dasher is waiting to check your ID.")
    problem = alcohol_problem(me, db.now())
    if problem:
        raise problem
    order = waiting[0]
    return order_object(
        db, db.update(orders, order["id"], status="delivered", id_verified=True, delivered_at=db.now_iso())
    )
