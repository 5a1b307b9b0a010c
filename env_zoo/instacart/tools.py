"""Instacart tools: the account, saved addresses and Instacart+; nearby retailers and store catalogs; carts (one per
store) with replacement preferences; delivery and pickup windows; placing, editing and canceling orders, tips and
issue reports; plus what only the customer does (signing in, answering a shopper's replacement on their phone)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Conflict, Database, InvalidRequest, Page, paginate, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, NonBlankText, PageSize, page_size

from . import address_book, checkout, membership
from . import orders as order_changes
from .access import own_address, own_order, signed_in
from .access import sign_in as start_session
from .catalog import retailers_for, search
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
    cart_object,
    choice_object,
    default_address,
    issue_object,
    item_object,
    membership_object,
    order_item_object,
    order_object,
    order_summaries,
    window_object,
)
from .rules import (
    MAX_INSTRUCTIONS,
    bookable_window,
    deliverable,
    item,
    membership_of,
    parse_time,
    store,
    tip_problem,
)
from .schema import addresses, carts, orders, service_options, stores

ReplacementPolicy = Literal["shoppers_choice", "users_choice", "no_replacements"]
FulfillmentType = Literal["delivery", "pickup"]
IssueType = Literal["missing", "wrong_item", "damaged", "poor_replacement"]
OrderStatus = Literal["placed", "shopping", "delivering", "delivered", "ready_for_pickup", "picked_up", "canceled"]
PostalCode = Annotated[str, Field(pattern=r"^\s*\d{5}\s*$"), ErrorText("must be a 5-digit ZIP code.")]
StateCode = Annotated[str, Field(pattern=r"^\s*[A-Za-z]{2}\s*$"), ErrorText("must be a two-letter code like CA.")]
Required = Annotated[str, Field(min_length=1, pattern=r"\S"), ErrorText("is required.")]
Notes = Annotated[str, Field(max_length=MAX_INSTRUCTIONS), ErrorText(f"can be at most {MAX_INSTRUCTIONS} characters.")]
Quantity = Annotated[int, Field(ge=0), ErrorText("can't be negative.")]
IssueQuantity = Annotated[int, Field(ge=1), ErrorText("must be at least 1.")]
Tip = Annotated[int, Field(ge=0), ErrorText("can't be negative (cents).")]
OrderPageSize = page_size(50)
LocalDate = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$"), ErrorText("must look like 2025-06-13.")]


# ---------------------------------------------------------------- what only the customer does


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText) -> SessionObject:
    """(User only) The customer signs in to their Instacart account; the password never reaches the assistant.

    Args:
        email: The account's email address.
    """
    user = start_session(db, email)
    return SessionObject(user_id=user["id"], first_name=user["first_name"], email=user["email"])


@tool(user_only=True)
def review_replacement(db: Database, item_name: str, approve: bool = True) -> OrderItemObject:
    """(User only, in the app while the shopper shops) Approve or reject the replacement the shopper picked for an
    item that was out of stock; a rejected replacement is refunded.

    Args:
        item_name: The name of the item the customer ordered, as the app shows it.
        approve: true to keep the replacement, false to reject it and get a refund.
    """
    return order_item_object(order_changes.review(db, signed_in(db), item_name, approve))


# ---------------------------------------------------------------- account, addresses, Instacart+


@tool(read_only=True)
def get_account(db: Database) -> AccountObject:
    """Get the signed-in customer's account: contact details, Instacart credit balance, default address and
    Instacart+ membership."""
    user = signed_in(db)
    row = membership_of(db, user["id"])
    return AccountObject(
        user_id=user["id"],
        **{k: user[k] for k in ("first_name", "last_name", "email", "phone", "credit_balance_cents")},
        default_address=default_address(db, user["id"]),
        instacart_plus=membership_object(db, row) if row else None,
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
    street: Required,
    city: Required,
    state: StateCode,
    postal_code: PostalCode,
    apartment: str | None = None,
    label: str | None = None,
    delivery_instructions: Notes | None = None,
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
    fields = {
        "label": label,
        "street": street.strip(),
        "apartment": apartment.strip() if apartment else None,
        "city": city.strip(),
        "state": state.strip().upper(),
        "postal_code": postal_code.strip(),
        "delivery_instructions": delivery_instructions,
    }
    return address_object(address_book.save(db, signed_in(db), fields, make_default))


@tool()
def delete_address(db: Database, address_id: str) -> AddressObject:
    """Delete a saved address. The default address can't be deleted, nor one that an upcoming order delivers to.

    Args:
        address_id: The address's ID (addr_...), from list_addresses.
    """
    return address_object(address_book.delete(db, signed_in(db), address_id))


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
    if action == "cancel":
        return membership_object(db, membership.cancel(db, membership_of(db, user["id"])))
    return membership_object(db, membership.join(db, user, plan))


# ---------------------------------------------------------------- retailers and catalogs


@tool(read_only=True)
def list_retailers(
    db: Database, postal_code: PostalCode, fulfillment_type: FulfillmentType | None = None
) -> list[StoreObject]:
    """List the retailers' stores that serve a ZIP code, with whether each delivers there or offers pickup and its
    order minimum.

    Args:
        postal_code: Five-digit ZIP code of the delivery address.
        fulfillment_type: Only stores offering delivery to it, or pickup near it.
    """
    signed_in(db)
    return retailers_for(db, postal_code.strip(), fulfillment_type)


@tool(read_only=True)
def search_items(
    db: Database,
    location_code: str,
    query: str,
    category: str | None = None,
    in_stock_only: bool = False,
    page_size: PageSize = 20,
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
    page = paginate(search(db, location_code, query, category, in_stock_only), page_size, cursor)
    return Page[ItemObject](
        results=[item_object(r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


# ---------------------------------------------------------------- carts


@tool(read_only=True)
def list_carts(db: Database) -> list[CartObject]:
    """List the customer's carts (one per store) with their items, subtotals and the stores' order minimums."""
    user = signed_in(db)
    return sorted((cart_object(db, c) for c in db.find(carts, user_id=user["id"])), key=lambda c: c.store_name)


@tool()
def update_cart(
    db: Database, item_id: str, quantity: Quantity, special_instructions: Notes | None = None
) -> CartObject:
    """Set how many of an item are in the cart of its store (adding it if needed; 0 removes it). New items get
    the shoppers_choice (best match) replacement preference.

    Args:
        item_id: The item's ID (items_...), from search_items.
        quantity: How many to have in the cart; 0 removes the item.
        special_instructions: A note for the shopper about this item, e.g. "Green bananas please".
    """
    user = signed_in(db)
    cart = checkout.set_quantity(db, user, item(db, item_id), quantity, special_instructions)
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
    pick = checkout.set_preference(db, user, product, replacement_policy, replacement_item_id, order_id)
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
    db: Database, location_code: str, fulfillment_type: FulfillmentType = "delivery", date: LocalDate | None = None
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
    rows = db.find(
        service_options,
        location_code=location_code,
        fulfillment_type=fulfillment_type,
        order_by=[service_options.c.start_at],
    )
    now = db.now()
    return [
        window_object(db, r)
        for r in rows
        if (date is None or r["start_at"].startswith(date)) and parse_time(r["end_at"]) > now
    ]


@tool()
def place_order(
    db: Database,
    location_code: str,
    service_option_id: int,
    address_id: str | None = None,
    tip_cents: Tip = 0,
    delivery_instructions: Notes | None = None,
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
    lines = checkout.cart_to_check_out(db, user, shop)
    window = bookable_window(db, service_option_id, location_code)
    delivery = window["fulfillment_type"] == "delivery"
    if problem := tip_problem(tip_cents, window["fulfillment_type"]):
        raise problem
    if delivery and address_id is None:
        raise InvalidRequest("address_id is required for delivery.")
    if not delivery and (address_id is not None or delivery_instructions is not None):
        raise InvalidRequest("Pickup orders take no delivery address or instructions.")
    address = deliverable(shop, own_address(db, user, address_id)) if delivery and address_id else None
    order = checkout.place(db, user, shop, lines, window, address, tip_cents, delivery_instructions)
    return order_object(db, order)


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def list_orders(
    db: Database, status: OrderStatus | None = None, page_size: OrderPageSize = 10, cursor: str | None = None
) -> Page[OrderSummary]:
    """List the customer's orders, newest first.

    Args:
        status: Only orders in this status.
        page_size: Orders per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    user = signed_in(db)
    rows = db.find(orders, user_id=user["id"], order_by=[orders.c.created_at.desc()], **given(status=status))
    page = paginate(rows, page_size, cursor, max_page_size=50)
    return Page[OrderSummary](
        results=order_summaries(db, page.results), next_cursor=page.next_cursor, has_more=page.has_more
    )


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
    delivery_instructions: Notes | None = None,
    tip_cents: Tip | None = None,
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
    changed = order_changes.change(db, user, order, service_option_id, address_id, delivery_instructions, tip_cents)
    return order_object(db, changed)


@tool()
def edit_order_item(db: Database, order_id: str, item_id: str, quantity: Quantity) -> OrderObject:
    """Add an item of the same store to an order, change its quantity, or remove it (0), until the shopper starts
    shopping. The order must stay at or above the store's minimum; fees are recomputed.

    Args:
        order_id: The order number.
        item_id: The item's ID (items_...), from search_items or the order.
        quantity: The new quantity; 0 removes the item.
    """
    user = signed_in(db)
    order = own_order(db, user, order_id)
    return order_object(db, order_changes.edit_item(db, order, item(db, item_id), quantity))


@tool()
def cancel_order(db: Database, order_id: str) -> OrderObject:
    """Cancel an order at no charge before the shopper starts shopping; applied credits go back to the balance.

    Args:
        order_id: The order number.
    """
    user = signed_in(db)
    return order_object(db, order_changes.cancel(db, user, own_order(db, user, order_id)))


@tool()
def report_order_issue(
    db: Database,
    order_id: str,
    item_id: str,
    issue_type: IssueType,
    resolution: Literal["credit", "refund"] = "credit",
    quantity: IssueQuantity | None = None,
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
    row, line = order_changes.report(db, user, order, item_id, issue_type, resolution, quantity)
    return issue_object(row, line)
