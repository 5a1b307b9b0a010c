"""Instacart tools: the account, saved addresses and Instacart+; nearby retailers and store catalogs; carts (one per
store) with replacement preferences; delivery and pickup windows; placing, editing and canceling orders, tips and
issue reports; plus what only the customer does (signing in, answering a shopper's replacement on their phone)."""

from __future__ import annotations

import re
import unicodedata
from datetime import timedelta
from typing import Literal

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate, tool

from .objects import (
    AccountObject,
    AddressObject,
    CartObject,
    IssueObject,
    ItemObject,
    MembershipObject,
    OrderItemObject,
    OrderObject,
    OrderSummary,
    ReplacementPreference,
    ServiceOptionObject,
    SessionObject,
    StoreObject,
    address_object,
    choice_object,
    item_object,
    order_item_object,
)
from .rules import (
    add_order_line,
    address_snapshot,
    benefits_active,
    book_window,
    bookable_window,
    cart_lines,
    cart_object,
    cart_of,
    cart_subtotal,
    check_orderable,
    check_replacement_args,
    default_address,
    delivery_address,
    dollars,
    grant_credits,
    issue_object,
    item,
    line_charge,
    membership_object,
    membership_of,
    order_object,
    own_address,
    own_order,
    parse_time,
    release_window,
    replacement_choice,
    reprice,
    require_placed,
    service_fee,
    signed_in,
    store,
    window_fee,
    window_object,
    within,
)
from .schema import (
    addresses,
    cart_items,
    carts,
    memberships,
    order_issues,
    order_items,
    orders,
    service_options,
    sessions,
    store_items,
    stores,
    users,
)

ReplacementPolicy = Literal["shoppers_choice", "users_choice", "no_replacements"]
FulfillmentType = Literal["delivery", "pickup"]
IssueType = Literal["missing", "wrong_item", "damaged", "poor_replacement"]
OrderStatus = Literal["placed", "shopping", "delivering", "delivered", "ready_for_pickup", "picked_up", "canceled"]
ACTIVE_STATUSES = ("placed", "shopping", "delivering", "ready_for_pickup")
PLAN_FEES = {"monthly": (999, 30), "annual": (9900, 365)}  # cents, days
TRIAL_DAYS = 14
TIP_HOURS = 24  # tips can change until 24 hours after delivery
ISSUE_HOURS = 96  # problems can be self-reported up to 4 days after delivery or pickup
MAX_INSTRUCTIONS = 250
POSTAL_CODE = re.compile(r"^\d{5}$")
STATE = re.compile(r"^[A-Z]{2}$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _check_text(value: str | None, name: str) -> None:
    if value is not None and len(value) > MAX_INSTRUCTIONS:
        raise InvalidRequest(f"{name} can be at most {MAX_INSTRUCTIONS} characters.")


def _check_tip(tip_cents: int, fulfillment_type: str) -> None:
    if tip_cents < 0:
        raise InvalidRequest("tip_cents can't be negative.")
    if tip_cents and fulfillment_type == "pickup":
        raise InvalidRequest("Tips are only for delivery orders.")


def _order_line(db: Database, order_id: str, item_id: str) -> dict:
    """The line of an order holding an item."""
    found = db.find(order_items, order_id=order_id, item_id=item_id)
    if not found:
        raise NotFound(f"Item '{item_id}' is not in order {order_id}")
    return found[0]


def _folded(text: str) -> str:
    """Text for matching searches: lower case, accents dropped (Häagen-Dazs matches haagen-dazs)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# ---------------------------------------------------------------- what only the customer does


@tool(user_only=True)
def sign_in(db: Database, email: str) -> SessionObject:
    """(User only) The customer signs in to their Instacart account; the password never reaches the assistant.

    Args:
        email: The account's email address.
    """
    found = db.find(users, email=email.strip().lower())
    if not found:
        raise NotFound("We couldn't find an Instacart account with that email and password.")
    db.start_session(sessions, user_id=found[0]["id"])
    return SessionObject(user_id=found[0]["id"], first_name=found[0]["first_name"], email=found[0]["email"])


@tool(user_only=True)
def review_replacement(db: Database, item_name: str, approve: bool = True) -> OrderItemObject:
    """(User only, in the app while the shopper shops) Approve or reject the replacement the shopper picked for an
    item that was out of stock; a rejected replacement is refunded.

    Args:
        item_name: The name of the item the customer ordered, as the app shows it.
        approve: true to keep the replacement, false to reject it and get a refund.
    """
    user = signed_in(db)
    for order in db.find(orders, user_id=user["id"], status="shopping"):
        for line in db.find(order_items, order_id=order["id"], replacement_status="pending_approval"):
            if line["name"].casefold() == item_name.strip().casefold():
                changes = (
                    {"replacement_status": "approved"}
                    if approve
                    else {"replacement_status": "rejected", "status": "refunded"}
                )
                updated = db.update(order_items, line["id"], **changes)
                reprice(db, order)
                return order_item_object(updated)
    raise NotFound(f"No replacement for '{item_name}' is waiting for your approval")


# ---------------------------------------------------------------- account, addresses, Instacart+


@tool(read_only=True)
def get_account(db: Database) -> AccountObject:
    """Get the signed-in customer's account: contact details, Instacart credit balance, default address and
    Instacart+ membership."""
    user = signed_in(db)
    membership = membership_of(db, user["id"])
    return AccountObject(
        user_id=user["id"],
        first_name=user["first_name"],
        last_name=user["last_name"],
        email=user["email"],
        phone=user["phone"],
        credit_balance_cents=user["credit_balance_cents"],
        default_address=default_address(db, user["id"]),
        instacart_plus=membership_object(db, membership) if membership else None,
    )


@tool(read_only=True)
def list_addresses(db: Database) -> list[AddressObject]:
    """List the customer's saved addresses, the default first."""
    user = signed_in(db)
    rows = db.find(addresses, user_id=user["id"], order_by=[addresses.c.is_default.desc(), addresses.c.label])
    return [address_object(r) for r in rows]


@tool()
def save_address(
    db: Database,
    street: str,
    city: str,
    state: str,
    postal_code: str,
    apartment: str | None = None,
    label: str | None = None,
    delivery_instructions: str | None = None,
    make_default: bool = False,
) -> AddressObject:
    """Save a new delivery address to the account (the first one saved becomes the default).

    Args:
        street: Street number and name, e.g. "2145 Mission St".
        city: City.
        state: Two-letter state code, e.g. "CA".
        postal_code: Five-digit ZIP code.
        apartment: Apartment, suite or floor.
        label: A name for the address, e.g. "Work".
        delivery_instructions: Notes for the driver, e.g. a gate code (at most 250 characters).
        make_default: true to make it the default address.
    """
    user = signed_in(db)
    if not street.strip() or not city.strip():
        raise InvalidRequest("street and city are required.")
    if not STATE.match(state.strip().upper()):
        raise InvalidRequest("state must be a two-letter code like CA.")
    if not POSTAL_CODE.match(postal_code.strip()):
        raise InvalidRequest("postal_code must be a 5-digit ZIP code.")
    _check_text(delivery_instructions, "delivery_instructions")
    saved = db.find(addresses, user_id=user["id"])
    for row in saved:
        if (row["street"].casefold(), (row["apartment"] or "").casefold(), row["postal_code"]) == (
            street.strip().casefold(),
            (apartment or "").strip().casefold(),
            postal_code.strip(),
        ):
            raise Conflict(f"This address is already saved as '{row['label'] or row['street']}'.")
    default = make_default or not saved
    if default:
        for row in saved:
            db.update(addresses, row["id"], is_default=False)
    row = db.insert(
        addresses,
        id=db.new_id(addresses, "addr_"),
        user_id=user["id"],
        label=label,
        street=street.strip(),
        apartment=apartment.strip() if apartment else None,
        city=city.strip(),
        state=state.strip().upper(),
        postal_code=postal_code.strip(),
        delivery_instructions=delivery_instructions,
        is_default=default,
        created_at=db.now_iso(),
    )
    return address_object(row)


@tool()
def delete_address(db: Database, address_id: str) -> AddressObject:
    """Delete a saved address. The default address can't be deleted, nor one that an upcoming order delivers to.

    Args:
        address_id: The address's ID (addr_...), from list_addresses.
    """
    user = signed_in(db)
    address = own_address(db, user, address_id)
    if address["is_default"]:
        raise Conflict("This is your default address; make another address your default first.")
    upcoming = [o for o in db.find(orders, user_id=user["id"], address_id=address_id) if o["status"] in ACTIVE_STATUSES]
    if upcoming:
        raise Conflict(f"Order {upcoming[0]['id']} is being delivered to this address; it can't be deleted yet.")
    return address_object(db.delete(addresses, address_id))


@tool()
def update_instacart_plus(
    db: Database, action: Literal["join", "cancel"], plan: Literal["monthly", "annual"] | None = None
) -> MembershipObject:
    """Join Instacart+ ($9.99 a month or $99 a year: $0 delivery fees on orders of $35 or more) or cancel it.
    Joining starts a 14-day free trial if the customer never had one; joining while a canceled membership still has
    benefits turns renewal back on. Canceling stops renewal; benefits last until the current period ends.

    Args:
        action: join or cancel.
        plan: monthly or annual; required to join unless renewal is only being turned back on.
    """
    user = signed_in(db)
    row = membership_of(db, user["id"])
    active = benefits_active(db, row)
    if action == "cancel":
        if not active or not row["auto_renew"]:
            raise Conflict("You don't have an Instacart+ membership that renews.")
        return membership_object(
            db, db.update(memberships, row["id"], status="canceled", auto_renew=False, updated_at=db.now_iso())
        )
    if active and row["auto_renew"]:
        raise Conflict("You're already an Instacart+ member.")
    if active:
        if plan is not None and plan != row["plan"]:
            raise InvalidRequest(
                f"Your {row['plan']} plan resumes as it was; change plans after {row['current_period_end']}."
            )
        status = "active" if row["fee_paid_cents"] else "trialing"
        return membership_object(
            db, db.update(memberships, row["id"], status=status, auto_renew=True, updated_at=db.now_iso())
        )
    if plan is None:
        raise InvalidRequest("Choose a plan to join Instacart+: monthly or annual.")
    trial = not (row and row["trial_used"])
    fee, days = (0, TRIAL_DAYS) if trial else PLAN_FEES[plan]
    values = {
        "plan": plan,
        "status": "trialing" if trial else "active",
        "auto_renew": True,
        "trial_used": True,
        "current_period_end": (db.now() + timedelta(days=days)).strftime("%Y-%m-%d"),
        "fee_paid_cents": fee,
        "updated_at": db.now_iso(),
    }
    if row is None:
        row = db.insert(memberships, id=db.new_id(memberships, "mbr_"), user_id=user["id"], **values)
    else:
        row = db.update(memberships, row["id"], **values)
    return membership_object(db, row)


# ---------------------------------------------------------------- retailers and catalogs


@tool(read_only=True)
def list_retailers(
    db: Database, postal_code: str, fulfillment_type: FulfillmentType | None = None
) -> list[StoreObject]:
    """List the retailers' stores that serve a ZIP code, with whether each delivers there or offers pickup and its
    order minimum.

    Args:
        postal_code: Five-digit ZIP code of the delivery address.
        fulfillment_type: Only stores offering delivery to it, or pickup near it.
    """
    signed_in(db)
    if not POSTAL_CODE.match(postal_code.strip()):
        raise InvalidRequest("postal_code must be a 5-digit ZIP code.")
    found = []
    for row in db.find(stores, order_by=[stores.c.name]):
        if postal_code.strip() not in row["delivery_postal_codes"]:
            continue
        shop = store(db, row["location_code"])
        if fulfillment_type and not shop[f"{fulfillment_type}_available"]:
            continue
        found.append(StoreObject(**{k: shop[k] for k in StoreObject.model_fields}))
    return found


@tool(read_only=True)
def search_items(
    db: Database,
    location_code: str,
    query: str,
    category: str | None = None,
    in_stock_only: bool = False,
    page_size: int = 20,
    cursor: str | None = None,
) -> Page[ItemObject]:
    """Search one store's catalog by name, brand or aisle; results show size, price, stock level and purchase
    limits.

    Args:
        location_code: The store's location code, from list_retailers.
        query: Words to look for, e.g. "oat milk" (every word must match).
        category: Only this aisle, e.g. "Dairy & Eggs".
        in_stock_only: true to leave out items that are out of stock.
        page_size: Items per page, 1 to 100.
        cursor: The next_cursor of the previous page.
    """
    signed_in(db)
    db.get(stores, location_code, "Store")
    words = _folded(query).split()
    phrase = " ".join(words)
    matches = []
    for row in db.find(store_items, location_code=location_code, order_by=[store_items.c.name]):
        text = _folded(f"{row['name']} {row['brand'] or ''} {row['category']}")
        if not all(w in text for w in words):
            continue
        if category is not None and row["category"].casefold() != category.strip().casefold():
            continue
        if in_stock_only and row["stock_level"] == "out_of_stock":
            continue
        matches.append(row)
    matches.sort(key=lambda r: phrase not in _folded(r["name"]))
    return paginate([item_object(r) for r in matches], page_size, cursor)


# ---------------------------------------------------------------- carts


@tool(read_only=True)
def list_carts(db: Database) -> list[CartObject]:
    """List the customer's carts (one per store) with their items, subtotals and the stores' order minimums."""
    user = signed_in(db)
    return sorted((cart_object(db, c) for c in db.find(carts, user_id=user["id"])), key=lambda c: c.store_name)


@tool()
def update_cart(db: Database, item_id: str, quantity: int, special_instructions: str | None = None) -> CartObject:
    """Set how many of an item are in the cart of its store (adding it if needed; 0 removes it). New items get
    the shoppers_choice (best match) replacement preference.

    Args:
        item_id: The item's ID (items_...), from search_items.
        quantity: How many to have in the cart; 0 removes the item.
        special_instructions: A note for the shopper about this item, e.g. "Green bananas please".
    """
    user = signed_in(db)
    product = item(db, item_id)
    _check_text(special_instructions, "special_instructions")
    if quantity < 0:
        raise InvalidRequest("quantity can't be negative.")
    cart = cart_of(db, user["id"], product["location_code"])
    found = db.find(cart_items, cart_id=cart["id"], item_id=item_id) if cart else []
    line = found[0] if found else None
    if quantity == 0:
        if line is None:
            raise NotFound(f"{product['name']} is not in your cart")
        db.delete(cart_items, line["id"])
        if not db.find(cart_items, cart_id=cart["id"]):
            db.delete(carts, cart["id"])
        return cart_object(db, cart)
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
    note = {"special_instructions": special_instructions} if special_instructions is not None else {}
    if line is None:
        db.insert(
            cart_items,
            id=db.new_id(cart_items, "cli_"),
            cart_id=cart["id"],
            item_id=item_id,
            quantity=quantity,
            replacement_policy="shoppers_choice",
            replacement_item_id=None,
            special_instructions=special_instructions,
            added_at=db.now_iso(),
        )
    else:
        db.update(cart_items, line["id"], quantity=quantity, **note)
    return cart_object(db, cart)


@tool()
def set_replacement_preference(
    db: Database,
    item_id: str,
    replacement_policy: ReplacementPolicy,
    replacement_item_id: str | None = None,
    order_id: str | None = None,
) -> ReplacementPreference:
    """Choose what the shopper does if an item is out of stock: shoppers_choice (best match), users_choice (a
    specific replacement from the same store) or no_replacements (refund it). Works on a cart item, or on an
    order's item until shopping starts.

    Args:
        item_id: The item's ID (items_...).
        replacement_policy: shoppers_choice, users_choice or no_replacements.
        replacement_item_id: With users_choice: the replacement's item ID, in stock at the same store.
        order_id: The order holding the item; leave out for an item in the cart.
    """
    user = signed_in(db)
    product = item(db, item_id)
    check_replacement_args(replacement_policy, replacement_item_id)
    pick = replacement_choice(db, product, replacement_item_id) if replacement_item_id else None
    if order_id is None:
        cart = cart_of(db, user["id"], product["location_code"])
        lines = db.find(cart_items, cart_id=cart["id"], item_id=item_id) if cart else []
        if not lines:
            raise NotFound(f"{product['name']} is not in your cart")
        table, key = cart_items, lines[0]["id"]
    else:
        order = own_order(db, user, order_id)
        require_placed(order, "change replacement preferences")
        table, key = order_items, _order_line(db, order_id, item_id)["id"]
    db.update(table, key, replacement_policy=replacement_policy, replacement_item_id=replacement_item_id)
    return ReplacementPreference(
        item_id=item_id,
        name=product["name"],
        order_id=order_id,
        replacement_policy=replacement_policy,
        replacement_item=choice_object(pick) if pick else None,
    )


# ---------------------------------------------------------------- windows and checkout


@tool(read_only=True)
def list_service_options(
    db: Database, location_code: str, fulfillment_type: FulfillmentType = "delivery", date: str | None = None
) -> list[ServiceOptionObject]:
    """List a store's upcoming delivery or pickup windows with their fees and whether each can still be booked
    (full windows and windows that already started can't).

    Args:
        location_code: The store's location code.
        fulfillment_type: delivery or pickup.
        date: Only windows on this local date (YYYY-MM-DD).
    """
    signed_in(db)
    shop = store(db, location_code)
    if not shop[f"{fulfillment_type}_available"]:
        raise Conflict(f"{shop['name']} doesn't offer {fulfillment_type}.")
    if date is not None and not DATE.match(date):
        raise InvalidRequest("date must look like 2025-06-13.")
    rows = db.find(
        service_options,
        location_code=location_code,
        fulfillment_type=fulfillment_type,
        order_by=[service_options.c.start_at],
    )
    return [
        window_object(db, r)
        for r in rows
        if (date is None or r["start_at"].startswith(date)) and parse_time(r["end_at"]) > db.now()
    ]


@tool()
def place_order(
    db: Database,
    location_code: str,
    service_option_id: int,
    address_id: str | None = None,
    tip_cents: int = 0,
    delivery_instructions: str | None = None,
) -> OrderObject:
    """Check out the cart of a store for a delivery or pickup window. The cart must reach the store's order
    minimum and hold nothing out of stock. Fees: the window's fee (waived for Instacart+ members on orders of $35
    or more), any express fee, and a 5% service fee; Instacart credits apply automatically (not to the tip).

    Args:
        location_code: The store whose cart to check out.
        service_option_id: The window's ID, from list_service_options.
        address_id: Saved address to deliver to (addr_...); required for delivery, left out for pickup.
        tip_cents: The shopper's tip in cents (delivery only), e.g. 800 for $8.
        delivery_instructions: Notes for the driver; defaults to the address's saved instructions.
    """
    user = signed_in(db)
    shop = store(db, location_code)
    cart = cart_of(db, user["id"], location_code)
    lines = cart_lines(db, cart["id"]) if cart else []
    if not lines:
        raise Conflict(f"Your {shop['name']} cart is empty.")
    window = bookable_window(db, service_option_id, location_code)
    delivery = window["fulfillment_type"] == "delivery"
    _check_tip(tip_cents, window["fulfillment_type"])
    _check_text(delivery_instructions, "delivery_instructions")
    if delivery and address_id is None:
        raise InvalidRequest("address_id is required for delivery.")
    if not delivery and (address_id is not None or delivery_instructions is not None):
        raise InvalidRequest("Pickup orders take no delivery address or instructions.")
    address = delivery_address(db, user, shop, address_id) if delivery else None
    missing = [
        f"{line['item']['name']} ({line['item']['size']})"
        for line in lines
        if line["item"]["stock_level"] == "out_of_stock"
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
        location_code=location_code,
        fulfillment_type=window["fulfillment_type"],
        status="placed",
        service_option_id=window["id"],
        window_start_at=window["start_at"],
        window_end_at=window["end_at"],
        address_id=address_id,
        address=address_snapshot(address) if address else None,
        delivery_instructions=delivery_instructions
        if delivery_instructions is not None or not address
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
        add_order_line(
            db,
            order_id,
            number,
            line["item"],
            line["quantity"],
            line["replacement_policy"],
            line["replacement_item_id"],
            line["special_instructions"],
        )
        db.delete(cart_items, line["id"])
    db.delete(carts, cart["id"])
    grant_credits(db, user, -credits, "applied_to_order", order_id)
    book_window(db, window)
    return order_object(db, order)


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def list_orders(
    db: Database, status: OrderStatus | None = None, page_size: int = 10, cursor: str | None = None
) -> Page[OrderSummary]:
    """List the customer's orders, newest first.

    Args:
        status: Only orders in this status.
        page_size: Orders per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    user = signed_in(db)
    equals = {"status": status} if status else {}
    rows = db.find(orders, user_id=user["id"], order_by=[orders.c.created_at.desc()], **equals)
    names = {s["location_code"]: s["name"] for s in db.find(stores)}
    summaries = [
        OrderSummary(
            **{k: r[k] for k in OrderSummary.model_fields if k not in ("store_name", "item_count")},
            store_name=names[r["location_code"]],
            item_count=sum(line["quantity"] for line in db.find(order_items, order_id=r["id"])),
        )
        for r in rows
    ]
    return paginate(summaries, page_size, cursor, max_page_size=50)


@tool(read_only=True)
def get_order(db: Database, order_id: str) -> OrderObject:
    """Get one order: status, window, address, items with their replacements, fees, tip, credits and issues.

    Args:
        order_id: The order number, from list_orders.
    """
    return order_object(db, own_order(db, signed_in(db), order_id))


@tool()
def update_order(
    db: Database,
    order_id: str,
    service_option_id: int | None = None,
    address_id: str | None = None,
    delivery_instructions: str | None = None,
    tip_cents: int | None = None,
) -> OrderObject:
    """Change an order: its window, delivery address or instructions until the shopper starts shopping; the tip
    of a delivery order until 24 hours after it was delivered. Fees are recomputed for a new window.

    Args:
        order_id: The order number.
        service_option_id: A new window of the same store and fulfillment type, from list_service_options.
        address_id: Another saved address the store delivers to (delivery orders); its saved delivery
            instructions come along unless delivery_instructions is given.
        delivery_instructions: New notes for the driver.
        tip_cents: The new tip in cents.
    """
    user = signed_in(db)
    order = own_order(db, user, order_id)
    if order["status"] == "canceled":
        raise Conflict(f"Order {order_id} was canceled.")
    if service_option_id is None and address_id is None and delivery_instructions is None and tip_cents is None:
        raise InvalidRequest("Nothing to update: give a window, address, instructions or tip.")
    changes: dict = {}
    window = None
    if service_option_id is not None or address_id is not None or delivery_instructions is not None:
        require_placed(order, "change its window, address or instructions")
        _check_text(delivery_instructions, "delivery_instructions")
    if service_option_id is not None:
        if service_option_id == order["service_option_id"]:
            raise InvalidRequest(f"Order {order_id} is already booked in that window.")
        window = bookable_window(db, service_option_id, order["location_code"])
        if window["fulfillment_type"] != order["fulfillment_type"]:
            raise InvalidRequest(
                f"This is a {order['fulfillment_type']} order; pick a {order['fulfillment_type']} window."
            )
        release_window(db, order["service_option_id"])
        book_window(db, window)
    if (address_id is not None or delivery_instructions is not None) and order["fulfillment_type"] != "delivery":
        raise InvalidRequest("Pickup orders take no delivery address or instructions.")
    if address_id is not None:
        address = delivery_address(db, user, store(db, order["location_code"]), address_id)
        changes.update(
            address_id=address_id,
            address=address_snapshot(address),
            delivery_instructions=address["delivery_instructions"],
        )
    if delivery_instructions is not None:
        changes["delivery_instructions"] = delivery_instructions
    if tip_cents is not None:
        _check_tip(tip_cents, order["fulfillment_type"])
        if order["completed_at"] is not None and not within(db, order["completed_at"], TIP_HOURS):
            raise Conflict("Tips can only be changed until 24 hours after delivery.")
        changes.update(tip_cents=tip_cents, total_cents=order["total_cents"] + tip_cents - order["tip_cents"])
    order = db.update(orders, order_id, **changes) if changes else order
    if order["status"] == "placed":
        order = reprice(db, order, window or db.get(service_options, order["service_option_id"], "Service option"))
    return order_object(db, order)


@tool()
def edit_order_item(db: Database, order_id: str, item_id: str, quantity: int) -> OrderObject:
    """Add an item of the same store to an order, change its quantity, or remove it (0), until the shopper starts
    shopping. The order must stay at or above the store's minimum; fees are recomputed.

    Args:
        order_id: The order number.
        item_id: The item's ID (items_...), from search_items or the order.
        quantity: The new quantity; 0 removes the item.
    """
    user = signed_in(db)
    order = own_order(db, user, order_id)
    require_placed(order, "edit its items")
    product = item(db, item_id)
    if product["location_code"] != order["location_code"]:
        raise InvalidRequest(f"{product['name']} is from another store than order {order_id}.")
    lines = db.find(order_items, order_id=order_id, order_by=[order_items.c.line_num])
    line = next((r for r in lines if r["item_id"] == item_id), None)
    if quantity < 0:
        raise InvalidRequest("quantity can't be negative.")
    if quantity == 0:
        if line is None:
            raise NotFound(f"Item '{item_id}' is not in order {order_id}")
        if len(lines) == 1:
            raise Conflict("That's the last item in the order; cancel the order instead.")
        db.delete(order_items, line["id"])
    elif line is None:
        check_orderable(product, quantity)
        add_order_line(db, order_id, lines[-1]["line_num"] + 1, product, quantity)
    else:
        if quantity > line["quantity"]:
            check_orderable(product, quantity)
        db.update(order_items, line["id"], quantity=quantity)
    shop = store(db, order["location_code"])
    order = reprice(db, order, db.get(service_options, order["service_option_id"], "Service option"))
    if order["subtotal_cents"] < shop["order_minimum_cents"]:
        raise Conflict(
            f"The order would fall below the {dollars(shop['order_minimum_cents'])} minimum at {shop['retailer_name']}."
        )
    return order_object(db, order)


@tool()
def cancel_order(db: Database, order_id: str) -> OrderObject:
    """Cancel an order at no charge before the shopper starts shopping; applied credits go back to the balance.

    Args:
        order_id: The order number.
    """
    user = signed_in(db)
    order = own_order(db, user, order_id)
    require_placed(order, "cancel it")
    release_window(db, order["service_option_id"])
    grant_credits(db, user, order["credits_applied_cents"], "returned_from_order", order_id)
    return order_object(
        db, db.update(orders, order_id, status="canceled", credits_applied_cents=0, canceled_at=db.now_iso())
    )


@tool()
def report_order_issue(
    db: Database,
    order_id: str,
    item_id: str,
    issue_type: IssueType,
    resolution: Literal["credit", "refund"] = "credit",
    quantity: int | None = None,
) -> IssueObject:
    """Report a problem with an item of a delivered or picked-up order, up to 4 days after, and get Instacart
    credits (added to the balance) or a refund to the original payment method for what was paid for it.

    Args:
        order_id: The order number.
        item_id: The item's ID as ordered (items_...), even when the shopper replaced it.
        issue_type: missing, wrong_item, damaged (also expired or spoiled) or poor_replacement.
        resolution: credit (Instacart credits) or refund (to the card).
        quantity: How many units were affected; defaults to all of them.
    """
    user = signed_in(db)
    order = own_order(db, user, order_id)
    if order["status"] not in ("delivered", "picked_up"):
        raise Conflict(f"Order {order_id} is {order['status']}; problems can be reported once it's delivered.")
    if not within(db, order["completed_at"], ISSUE_HOURS):
        raise PermissionDenied(
            "It's been more than 4 days since this order arrived, so it can't be self-reported; "
            "contact Instacart Customer Experience."
        )
    line = _order_line(db, order_id, item_id)
    if line["status"] == "refunded":
        raise Conflict(f"{line['name']} wasn't found by your shopper and was already refunded.")
    if issue_type == "poor_replacement" and line["status"] != "replaced":
        raise InvalidRequest(f"{line['name']} wasn't replaced; pick another issue type.")
    if db.find(order_issues, order_item_id=line["id"]):
        raise Conflict(f"A problem with {line['name']} was already reported on this order.")
    count = line["quantity"] if quantity is None else quantity
    if not 1 <= count <= line["quantity"]:
        raise InvalidRequest(f"quantity must be between 1 and {line['quantity']}.")
    amount = line_charge(line) // line["quantity"] * count
    if resolution == "credit":
        grant_credits(db, user, amount, "issue_credit", order_id)
    else:
        db.update(orders, order_id, refunded_cents=order["refunded_cents"] + amount)
    row = db.insert(
        order_issues,
        id=db.new_id(order_issues, "iss_"),
        order_id=order_id,
        order_item_id=line["id"],
        issue_type=issue_type,
        quantity=count,
        resolution=resolution,
        amount_cents=amount,
        created_at=db.now_iso(),
    )
    return issue_object(row, line)
