"""Square API tools: locations, the catalog, customers and cards on file, orders, payments (delayed capture
included), refunds and the loyalty program."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, Unordered, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoTimestamp

from . import catalog, loyalty
from . import customers as directory
from . import orders as ordering
from . import payments as paying
from .objects import (
    CardObject,
    CatalogObjectResult,
    CategoryObject,
    CustomerObject,
    ItemObject,
    ListPage,
    LocationObject,
    LoyaltyAccountObject,
    LoyaltyProgramObject,
    LoyaltyRewardObject,
    ModifierListObject,
    OrderObject,
    PaymentObject,
    RefundObject,
    VariationObject,
    account_object,
    card_object,
    category_object,
    customer_object,
    item_object,
    location_object,
    modifier_list_object,
    modifier_object,
    order_object,
    page_of,
    payment_object,
    program_object,
    refund_object,
    related_of_item,
    reward_object,
    variation_object,
)
from .rules import fetch
from .schema import (
    cards,
    categories,
    customers,
    items,
    locations,
    loyalty_programs,
    modifier_lists,
    modifiers,
    orders,
    payments,
    variations,
)

Limit = Annotated[
    int, Field(ge=1, le=100), ErrorText("INVALID_REQUEST_ERROR VALUE_TOO_HIGH (field: limit): limit must be 1 to 100")
]
Amount = Annotated[
    int,
    Field(ge=1, le=99_999_999),
    ErrorText("INVALID_REQUEST_ERROR VALUE_TOO_LOW (field: amount_money.amount): amount must be greater than 0"),
]
Email = Annotated[
    str,
    Field(pattern=r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$"),
    ErrorText("INVALID_REQUEST_ERROR INVALID_EMAIL_ADDRESS (field: email_address): Expected email_address to be valid"),
]
Phone = Annotated[
    str,
    Field(pattern=r"^\+?[0-9][0-9 ()\-.]{6,20}$"),
    ErrorText("INVALID_REQUEST_ERROR INVALID_PHONE_NUMBER (field: phone_number): Expected phone_number to be valid"),
]
Version = Annotated[int, Field(ge=1)]
Quantity = Annotated[
    str,
    Field(pattern=r"^[1-9][0-9]{0,2}$"),
    ErrorText("INVALID_REQUEST_ERROR INVALID_VALUE (field: quantity): quantity must be a whole number from 1 to 999"),
]
Name = Annotated[str, Field(min_length=1, max_length=255, pattern=r"\S")]
Note = Annotated[str, Field(max_length=500)]
OrderState = Literal["OPEN", "COMPLETED", "CANCELED"]
FulfillmentState = Literal["RESERVED", "PREPARED", "COMPLETED", "CANCELED", "FAILED"]
RefundReason = Annotated[str, Field(max_length=192)]


class MoneyInput(BaseModel):
    """An amount in cents: {"amount": 1250, "currency": "USD"} is $12.50."""

    amount: Amount
    currency: Literal["USD"]


class LineItemInput(BaseModel):
    """A line item: a catalog item variation (catalog_object_id), or an ad hoc item with a name and price."""

    quantity: Quantity
    catalog_object_id: str | None = Field(None, description="The ITEM_VARIATION sold.")
    name: Name | None = Field(None, description="Name of an ad hoc line item (no catalog_object_id).")
    base_price_money: MoneyInput | None = Field(
        None, description="Unit price: required for ad hoc items and variable-priced variations, else not allowed."
    )
    modifier_ids: Annotated[list[str], Unordered] = Field(
        default_factory=list, description="MODIFIER ids from the modifier lists enabled on the item."
    )
    note: Note | None = None


class PickupInput(BaseModel):
    """A PICKUP fulfillment: who collects the order and when."""

    recipient_display_name: Name | None = Field(None, description="Who collects; defaults to the order's customer.")
    pickup_at: IsoTimestamp | None = None
    note: Note | None = None


# ---------------------------------------------------------------- locations and catalog


@tool(read_only=True)
def list_locations(db: Database) -> list[LocationObject]:
    """List the seller's business locations (id, name, address, status ACTIVE or INACTIVE)."""
    return [location_object(row) for row in db.find(locations, order_by=[locations.c.name])]


@tool(read_only=True)
def search_catalog_items(
    db: Database,
    text_filter: str = "",
    category_ids: Annotated[list[str], Unordered] | None = None,
    archived_state: Literal[
        "ARCHIVED_STATE_NOT_ARCHIVED", "ARCHIVED_STATE_ARCHIVED", "ARCHIVED_STATE_ALL"
    ] = "ARCHIVED_STATE_NOT_ARCHIVED",
    limit: Limit = 100,
    cursor: str | None = None,
) -> ListPage[ItemObject]:
    """Search catalog items, with their variations and prices, by words in the name, description, variation name or
    SKU (case-insensitive; every word must match), sorted by name.

    Args:
        text_filter: Words to look for; empty returns every item.
        category_ids: Only items in these categories.
        archived_state: Whether to return items that are not archived (default), archived ones, or both.
        limit: Items per page, 1 to 100.
        cursor: The cursor returned by the previous page.
    """
    return page_of(
        catalog.find_items(db, text_filter, category_ids, archived_state),
        limit,
        cursor,
        lambda row: item_object(db, row),
    )


@tool(read_only=True)
def retrieve_catalog_object(db: Database, object_id: str, include_related_objects: bool = False) -> CatalogObjectResult:
    """Retrieve one catalog object by id: an ITEM (with its variations), ITEM_VARIATION, CATEGORY, MODIFIER_LIST or
    MODIFIER. With include_related_objects, an item comes with its category and modifier lists (a variation with
    its item).

    Args:
        object_id: The catalog object's id.
        include_related_objects: Also return the objects this one refers to.
    """
    if found := db.find(items, id=object_id):
        related = related_of_item(db, found[0]) if include_related_objects else []
        return CatalogObjectResult(object_type="ITEM", item=item_object(db, found[0]), related_objects=related)
    if found := db.find(variations, id=object_id):
        item = db.get(items, found[0]["item_id"])
        related = [item_object(db, item), *related_of_item(db, item)] if include_related_objects else []
        return CatalogObjectResult(
            object_type="ITEM_VARIATION", item_variation=variation_object(found[0]), related_objects=related
        )
    if found := db.find(categories, id=object_id):
        return CatalogObjectResult(object_type="CATEGORY", category=category_object(found[0]))
    if found := db.find(modifier_lists, id=object_id):
        return CatalogObjectResult(object_type="MODIFIER_LIST", modifier_list=modifier_list_object(db, found[0]))
    return CatalogObjectResult(
        object_type="MODIFIER", modifier=modifier_object(fetch(db, modifiers, object_id, "catalog object"))
    )


@tool(read_only=True)
def list_catalog(
    db: Database, types: Literal["CATEGORY", "MODIFIER_LIST"], limit: Limit = 100, cursor: str | None = None
) -> ListPage[CategoryObject | ModifierListObject]:
    """List the catalog's categories or its modifier lists (with their modifiers and prices), sorted by name.

    Args:
        types: Which kind of catalog object to list.
        limit: Objects per page, 1 to 100.
        cursor: The cursor returned by the previous page.
    """
    if types == "CATEGORY":
        return page_of(db.find(categories, order_by=[categories.c.name]), limit, cursor, category_object)
    rows = db.find(modifier_lists, order_by=[modifier_lists.c.name])
    return page_of(rows, limit, cursor, lambda row: modifier_list_object(db, row))


@tool()
def upsert_item_variation(
    db: Database,
    item_id: str,
    name: Name,
    price_money: MoneyInput,
    sku: Annotated[str, Field(max_length=40)] | None = None,
    variation_id: str | None = None,
    version: Version | None = None,
) -> VariationObject:
    """Create a new variation of an item, or update an existing one (name, price, SKU). Updating needs the
    variation's current version (optimistic concurrency). Orders already placed keep the price they were rung up at.

    Args:
        item_id: The ITEM the variation belongs to.
        name: The variation's name, e.g. "12 oz bag"; unique within the item.
        price_money: The fixed price.
        sku: Stock-keeping unit.
        variation_id: The ITEM_VARIATION to update; omit to create a new one.
        version: The variation's current version; required with variation_id.
    """
    return variation_object(catalog.upsert_variation(db, item_id, name, price_money.amount, sku, variation_id, version))


# ---------------------------------------------------------------- customers


@tool(read_only=True)
def search_customers(
    db: Database,
    text: str = "",
    email_address: str | None = None,
    phone_number: str | None = None,
    reference_id: str | None = None,
    limit: Limit = 100,
    cursor: str | None = None,
) -> ListPage[CustomerObject]:
    """Search the Customer Directory, newest profiles first. `text` matches words of the name, company, email or
    phone (fuzzy, case-insensitive); email_address, phone_number (digits compared) and reference_id match exactly.

    Args:
        text: Words of the customer's name, company, email or phone.
        email_address: Exact email address.
        phone_number: Exact phone number (formatting ignored).
        reference_id: Exact reference id (e.g. a wholesale account number).
        limit: Profiles per page, 1 to 100.
        cursor: The cursor returned by the previous page.
    """
    rows = directory.find_customers(db, text, email_address, phone_number, reference_id)
    return page_of(rows, limit, cursor, customer_object)


@tool()
def create_customer(
    db: Database,
    given_name: Name | None = None,
    family_name: Name | None = None,
    company_name: Name | None = None,
    email_address: Email | None = None,
    phone_number: Phone | None = None,
    reference_id: str | None = None,
    note: Note | None = None,
    birthday: Annotated[str, Field(pattern=r"^(\d{4}|0000)-\d{2}-\d{2}$")] | None = None,
) -> CustomerObject:
    """Create a customer profile. At least one of given_name, family_name, company_name, email_address or
    phone_number is required. Square does not refuse duplicates: search first.

    Args:
        given_name: First name.
        family_name: Last name.
        company_name: Business name.
        email_address: Email address.
        phone_number: Phone number.
        reference_id: The seller's own id for the customer.
        note: A note about the customer.
        birthday: YYYY-MM-DD (0000-MM-DD when the year is unknown).
    """
    row = directory.create_customer(
        db,
        given_name=given_name,
        family_name=family_name,
        company_name=company_name,
        email_address=email_address,
        phone_number=phone_number,
        reference_id=reference_id,
        note=note,
        birthday=birthday,
    )
    return customer_object(row)


@tool()
def update_customer(
    db: Database,
    customer_id: str,
    given_name: Name | None = None,
    family_name: Name | None = None,
    company_name: Name | None = None,
    email_address: Email | None = None,
    phone_number: Phone | None = None,
    reference_id: str | None = None,
    note: Note | None = None,
    version: Version | None = None,
) -> CustomerObject:
    """Update a customer profile: only the fields given change.

    Args:
        customer_id: The customer to update.
        given_name: New first name.
        family_name: New last name.
        company_name: New business name.
        email_address: New email address.
        phone_number: New phone number.
        reference_id: New reference id.
        note: New note (replaces the old one).
        version: The profile's current version; when given, the update fails if someone changed it since.
    """
    changes = given(
        given_name=given_name,
        family_name=family_name,
        company_name=company_name,
        email_address=email_address,
        phone_number=phone_number,
        reference_id=reference_id,
        note=note,
    )
    return customer_object(directory.update_customer(db, customer_id, changes, version))


@tool(read_only=True)
def list_cards(db: Database, customer_id: str, include_disabled: bool = False) -> list[CardObject]:
    """List a customer's cards on file (brand, last 4 digits, expiry); a card's id is the source_id to charge it.

    Args:
        customer_id: The customer whose cards to list.
        include_disabled: Also list disabled cards.
    """
    fetch(db, customers, customer_id, "customer")
    rows = db.select(cards, "customer_id = ?", [customer_id], order_by="created_at DESC")
    return [card_object(row) for row in rows if row["enabled"] or include_disabled]


# ---------------------------------------------------------------- orders


@tool()
def create_order(
    db: Database,
    location_id: str,
    line_items: Annotated[list[LineItemInput], Field(min_length=1, max_length=50)],
    customer_id: str | None = None,
    pickup: PickupInput | None = None,
    reference_id: str | None = None,
) -> OrderObject:
    """Create an OPEN order at an active location. Catalog line items take the variation's current price and
    name; modifiers must come from lists enabled on the item (one per SINGLE list). A pickup adds a PICKUP
    fulfillment in PROPOSED state.

    Args:
        location_id: Where the order is placed.
        line_items: What is bought.
        customer_id: The buyer.
        pickup: A pickup fulfillment.
        reference_id: The seller's own reference (e.g. an invoice or PO number).
    """
    row = ordering.create_order(db, location_id, line_items, customer_id, pickup, reference_id)
    return order_object(db, row)


@tool(read_only=True)
def search_orders(
    db: Database,
    location_ids: Annotated[list[str], Unordered, Field(min_length=1, max_length=10)],
    customer_ids: Annotated[list[str], Unordered] | None = None,
    states: Annotated[list[OrderState], Unordered] | None = None,
    created_at_start: IsoTimestamp | None = None,
    created_at_end: IsoTimestamp | None = None,
    limit: Limit = 100,
    cursor: str | None = None,
) -> ListPage[OrderObject]:
    """Search orders at one or more locations, newest first, by customer, state and creation time.

    Args:
        location_ids: The locations to search (1 to 10).
        customer_ids: Only orders of these customers.
        states: Only orders in these states.
        created_at_start: Only orders created at or after this time (RFC 3339).
        created_at_end: Only orders created before this time (RFC 3339).
        limit: Orders per page, 1 to 100.
        cursor: The cursor returned by the previous page.
    """
    rows = ordering.find_orders(db, location_ids, customer_ids, states, created_at_start, created_at_end)
    return page_of(rows, limit, cursor, lambda row: order_object(db, row))


@tool(read_only=True)
def retrieve_order(db: Database, order_id: str) -> OrderObject:
    """Retrieve an order with its line items, discounts, fulfillments, tenders, refunds and totals.

    Args:
        order_id: The order's id.
    """
    return order_object(db, fetch(db, orders, order_id, "order"))


@tool()
def update_order(
    db: Database,
    order_id: str,
    version: Version,
    line_items_to_add: list[LineItemInput] | None = None,
    line_item_uids_to_remove: Annotated[list[str], Unordered] | None = None,
    fulfillment_uid: str | None = None,
    fulfillment_state: FulfillmentState | None = None,
    state: Literal["CANCELED"] | None = None,
) -> OrderObject:
    """Update an OPEN order at its current version: add or remove line items (only before it is paid), move a
    fulfillment forward (PROPOSED -> RESERVED -> PREPARED -> COMPLETED, or CANCELED/FAILED), or cancel an unpaid
    order. Completing the last fulfillment of a paid order completes the order. Each update raises the version.

    Args:
        order_id: The order to update.
        version: The order's current version.
        line_items_to_add: Line items to add.
        line_item_uids_to_remove: uids of line items to remove.
        fulfillment_uid: The fulfillment to move (with fulfillment_state).
        fulfillment_state: Its new state.
        state: CANCELED cancels the order (not possible once payments are applied: refund instead).
    """
    row = ordering.update_order(
        db,
        order_id,
        version,
        line_items_to_add or [],
        line_item_uids_to_remove or [],
        fulfillment_uid,
        fulfillment_state,
        state,
    )
    return order_object(db, row)


@tool()
def pay_order(
    db: Database,
    order_id: str,
    payment_ids: Annotated[list[str], Unordered, Field(min_length=1, max_length=10)],
    order_version: Version | None = None,
) -> OrderObject:
    """Pay an order with APPROVED (or COMPLETED) payments created for it whose amounts add up exactly to the order's
    total; APPROVED payments are completed, loyalty rewards on the order are redeemed, and the order is COMPLETED
    (or stays OPEN, paid, until its fulfillments are done).

    Args:
        order_id: The order to pay.
        payment_ids: The payments to apply.
        order_version: The order's current version; when given, must match.
    """
    return order_object(db, ordering.pay_order(db, order_id, payment_ids, order_version))


# ---------------------------------------------------------------- payments and refunds


@tool()
def create_payment(
    db: Database,
    source_id: str,
    amount_money: MoneyInput,
    location_id: str,
    order_id: str | None = None,
    customer_id: str | None = None,
    tip_money: MoneyInput | None = None,
    autocomplete: bool = True,
    delay_action: Literal["CANCEL", "COMPLETE"] = "CANCEL",
    note: Note | None = None,
    reference_id: str | None = None,
) -> PaymentObject:
    """Take a payment. source_id is a card on file (ccof:..., which needs its customer_id), CASH or EXTERNAL.
    autocomplete=true completes it at once; false only authorizes it (APPROVED) so it can be completed or canceled
    within 7 days, after which delay_action runs. A payment for part of an order must use autocomplete=false and
    be applied with pay_order; a payment that covers the rest of an order with autocomplete=true pays the order.

    Args:
        source_id: ccof:<card id>, CASH or EXTERNAL.
        amount_money: The amount, tip excluded.
        location_id: The location taking the payment.
        order_id: The order this pays for (no more than what is left due).
        customer_id: The buyer; defaults to the order's customer.
        tip_money: A tip on top of amount_money.
        autocomplete: Complete the payment now (true) or only authorize it (false).
        delay_action: What happens to an APPROVED payment left alone for 7 days.
        note: A note shown with the payment.
        reference_id: The seller's own reference.
    """
    row = paying.create_payment(
        db,
        source_id=source_id,
        amount=amount_money.amount,
        location_id=location_id,
        order_id=order_id,
        customer_id=customer_id,
        tip=tip_money.amount if tip_money else 0,
        autocomplete=autocomplete,
        delay_action=delay_action,
        note=note,
        reference_id=reference_id,
    )
    return payment_object(db, row)


@tool()
def complete_payment(db: Database, payment_id: str) -> PaymentObject:
    """Complete (capture) an APPROVED payment that is not tied to an order (pay an order's payments with pay_order).

    Args:
        payment_id: The payment to complete.
    """
    return payment_object(db, paying.complete_payment(db, payment_id))


@tool()
def cancel_payment(db: Database, payment_id: str) -> PaymentObject:
    """Cancel (void) an APPROVED payment: the authorization is released and nothing is charged.

    Args:
        payment_id: The payment to cancel.
    """
    return payment_object(db, paying.cancel_payment(db, payment_id))


@tool(read_only=True)
def list_payments(
    db: Database,
    location_id: str | None = None,
    begin_time: IsoTimestamp | None = None,
    end_time: IsoTimestamp | None = None,
    last_4: Annotated[str, Field(pattern=r"^\d{4}$")] | None = None,
    card_brand: Literal["VISA", "MASTERCARD", "AMERICAN_EXPRESS", "DISCOVER"] | None = None,
    sort_order: Literal["ASC", "DESC"] = "DESC",
    limit: Limit = 100,
    cursor: str | None = None,
) -> ListPage[PaymentObject]:
    """List payments by creation time (newest first unless sort_order=ASC).

    Args:
        location_id: Only payments taken at this location.
        begin_time: Only payments created at or after this time (RFC 3339).
        end_time: Only payments created before this time (RFC 3339).
        last_4: Only card payments with these last 4 digits.
        card_brand: Only card payments of this brand.
        sort_order: DESC (newest first) or ASC.
        limit: Payments per page, 1 to 100.
        cursor: The cursor returned by the previous page.
    """
    rows = paying.find_payments(db, location_id, begin_time, end_time, last_4, card_brand, sort_order)
    return page_of(rows, limit, cursor, lambda row: payment_object(db, row))


@tool(read_only=True)
def get_payment(db: Database, payment_id: str) -> PaymentObject:
    """Retrieve a payment with its status, amounts, card and what has been refunded.

    Args:
        payment_id: The payment's id.
    """
    return payment_object(db, fetch(db, payments, payment_id, "payment"))


@tool()
def refund_payment(
    db: Database, payment_id: str, amount_money: MoneyInput, reason: RefundReason | None = None
) -> RefundObject:
    """Refund all or part of a COMPLETED payment, never more than what is left (total with tip, less earlier
    PENDING or COMPLETED refunds). Card refunds start PENDING; cash and external ones are COMPLETED at once.
    APPROVED payments are canceled, not refunded.

    Args:
        payment_id: The payment to refund.
        amount_money: How much to give back.
        reason: Why, shown to the buyer and in the seller's records.
    """
    return refund_object(paying.refund_payment(db, payment_id, amount_money.amount, reason))


# ---------------------------------------------------------------- loyalty


@tool(read_only=True)
def retrieve_loyalty_program(db: Database) -> LoyaltyProgramObject:
    """Retrieve the seller's loyalty program: how points accrue, excluded categories and the reward tiers."""
    return program_object(db, db.find(loyalty_programs)[0])


@tool(read_only=True)
def search_loyalty_accounts(
    db: Database,
    phone_number: str | None = None,
    customer_id: str | None = None,
    limit: Limit = 30,
    cursor: str | None = None,
) -> ListPage[LoyaltyAccountObject]:
    """Find loyalty accounts by their phone number mapping (formatting ignored) or by customer; with neither,
    every account. Each comes with its point balance and ISSUED rewards.

    Args:
        phone_number: The phone number the account is mapped to.
        customer_id: The customer the account belongs to.
        limit: Accounts per page, 1 to 100.
        cursor: The cursor returned by the previous page.
    """
    rows = loyalty.find_loyalty_accounts(db, phone_number, customer_id)
    return page_of(rows, limit, cursor, lambda row: account_object(db, row))


@tool()
def accumulate_loyalty_points(db: Database, account_id: str, order_id: str, location_id: str) -> LoyaltyAccountObject:
    """Add the points a COMPLETED order earns to a loyalty account (one point per whole dollar of the order's total,
    less lines in excluded categories). An order earns points once, for its own customer's account.

    Args:
        account_id: The loyalty account.
        order_id: The completed order.
        location_id: The order's location.
    """
    return account_object(db, loyalty.accumulate_points(db, account_id, order_id, location_id))


@tool()
def create_loyalty_reward(
    db: Database, loyalty_account_id: str, reward_tier_id: str, order_id: str | None = None
) -> LoyaltyRewardObject:
    """Spend an account's points on a reward tier. With an OPEN, unpaid order, the reward's discount is added to it
    (a tier once per order) and the reward is redeemed when the order is paid.

    Args:
        loyalty_account_id: The account whose points are spent.
        reward_tier_id: The reward tier claimed.
        order_id: The order to discount.
    """
    return reward_object(loyalty.create_reward(db, loyalty_account_id, reward_tier_id, order_id))


@tool()
def delete_loyalty_reward(db: Database, reward_id: str) -> LoyaltyAccountObject:
    """Take back an ISSUED reward: its points return to the account and its discount leaves the order.

    Args:
        reward_id: The reward to delete.
    """
    return account_object(db, loyalty.delete_reward(db, reward_id))
