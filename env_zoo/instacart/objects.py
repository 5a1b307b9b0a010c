"""Instacart's API objects as output models, and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .rules import benefits_active, cart_lines, cart_subtotal, item, store, window_problems
from .schema import addresses, order_issues, order_items, stores


class SessionObject(BaseModel):
    """Who is signed in."""

    user_id: str
    first_name: str
    email: str


class MembershipObject(BaseModel):
    """The customer's Instacart+ membership."""

    plan: str | None = Field(description="monthly ($9.99) or annual ($99.00)")
    status: str = Field(description="trialing, active, canceled (benefits until current_period_end) or expired")
    auto_renew: bool
    current_period_end: str | None
    trial_used: bool
    benefits_active: bool = Field(description="whether $0 delivery fees on orders of $35+ apply right now")


class AddressObject(BaseModel):
    """A saved delivery address."""

    id: str
    label: str | None
    street: str
    apartment: str | None
    city: str
    state: str
    postal_code: str
    delivery_instructions: str | None
    is_default: bool


class AccountObject(BaseModel):
    """The signed-in customer's account."""

    user_id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    credit_balance_cents: int = Field(description="Instacart credits, applied automatically at checkout")
    default_address: AddressObject | None
    instacart_plus: MembershipObject | None


class StoreObject(BaseModel):
    """A retailer's store that serves a ZIP code."""

    location_code: str
    retailer_key: str
    retailer_name: str
    retailer_logo_url: str
    name: str
    street: str
    city: str
    postal_code: str
    delivery_available: bool = Field(description="whether the store delivers to the ZIP code asked about")
    pickup_available: bool
    order_minimum_cents: int
    hours: str


class ItemObject(BaseModel):
    """A product in one store's catalog."""

    item_id: str
    location_code: str
    product_id: str
    name: str
    brand: str | None
    size: str
    category: str
    price_cents: int
    stock_level: str = Field(description="in_stock, low_stock or out_of_stock")
    purchase_limit: int | None = Field(description="most units one order may hold")


class ReplacementChoice(BaseModel):
    """The specific replacement picked for an item (users_choice)."""

    item_id: str
    name: str
    size: str
    price_cents: int


class ReplacementPreference(BaseModel):
    """What the shopper does if an item is out of stock."""

    item_id: str
    name: str
    order_id: str | None = Field(description="the order holding the item; null for a cart item")
    replacement_policy: str
    replacement_item: ReplacementChoice | None


class CartItemObject(BaseModel):
    """A line of a cart."""

    item_id: str
    name: str
    size: str
    price_cents: int
    quantity: int
    line_total_cents: int
    stock_level: str
    replacement_policy: str = Field(
        description="shoppers_choice (best match), users_choice (the specific replacement) or no_replacements "
        "(refund if not found)"
    )
    replacement_item: ReplacementChoice | None
    special_instructions: str | None


class CartObject(BaseModel):
    """The customer's cart at one store."""

    cart_id: str
    location_code: str
    store_name: str
    items: list[CartItemObject]
    item_count: int
    subtotal_cents: int
    order_minimum_cents: int
    minimum_remaining_cents: int = Field(description="what is still missing to reach the store's order minimum")


class Availability(BaseModel):
    """Whether a window can be booked."""

    available: bool
    reasons: list[str] = Field(description="why not: window_full, window_started")


class ServiceOptionObject(BaseModel):
    """A delivery or pickup window of a store."""

    id: int
    location_code: str
    fulfillment_type: str
    window_type: str = Field(description="standard (2-hour window) or express (within the hour)")
    start_at: str
    end_at: str
    fee_cents: int = Field(description="delivery or pickup fee; waived for Instacart+ members on orders of $35+")
    express_fee_cents: int = Field(description="priority surcharge, charged to everyone")
    availability: Availability


class ReplacementObject(BaseModel):
    """What the shopper picked instead of an item that was not found."""

    item_id: str
    name: str
    size: str
    unit_price_cents: int


class OrderItemObject(BaseModel):
    """A line of an order."""

    line_num: int
    item_id: str
    name: str
    size: str
    unit_price_cents: int
    quantity: int
    replacement_policy: str
    replacement_item_id: str | None
    special_instructions: str | None
    status: str = Field(description="pending, found, replaced or refunded (not found)")
    replacement: ReplacementObject | None
    replacement_status: str | None = Field(description="pending_approval, approved or rejected")


class IssueObject(BaseModel):
    """A reported problem with a delivered item and how it was made good."""

    id: str
    order_id: str
    line_num: int
    item_name: str
    issue_type: str
    quantity: int
    resolution: str = Field(description="refund (to the original payment method) or credit (Instacart credits)")
    amount_cents: int


class OrderObject(BaseModel):
    """An order with its items, fees and issue reports."""

    id: str
    status: str
    fulfillment_type: str
    location_code: str
    store_name: str
    service_option_id: int | None
    window_start_at: str
    window_end_at: str
    address_id: str | None
    address: dict[str, Any] | None
    delivery_instructions: str | None
    shopper_name: str | None
    items: list[OrderItemObject]
    subtotal_cents: int
    delivery_fee_cents: int
    express_fee_cents: int
    service_fee_cents: int
    tip_cents: int
    credits_applied_cents: int
    total_cents: int
    refunded_cents: int
    issues: list[IssueObject]
    created_at: str
    completed_at: str | None
    canceled_at: str | None


class OrderSummary(BaseModel):
    """An order as the order history lists it."""

    id: str
    status: str
    fulfillment_type: str
    store_name: str
    window_start_at: str
    window_end_at: str
    item_count: int
    total_cents: int
    created_at: str
    completed_at: str | None


def address_object(row: dict[str, Any]) -> AddressObject:
    """A stored address as the API returns it."""
    return AddressObject(**{k: row[k] for k in AddressObject.model_fields})


def item_object(row: dict[str, Any]) -> ItemObject:
    """A catalog row as the API returns it."""
    return ItemObject(**{k: row[k] for k in ItemObject.model_fields})


def choice_object(row: dict[str, Any]) -> ReplacementChoice:
    """A catalog row picked as a specific replacement."""
    return ReplacementChoice(item_id=row["item_id"], name=row["name"], size=row["size"], price_cents=row["price_cents"])


def order_item_object(row: dict[str, Any]) -> OrderItemObject:
    """A stored order line as the API returns it."""
    fields = {k: row[k] for k in OrderItemObject.model_fields if k != "replacement"}
    replacement = ReplacementObject(**row["replacement"]) if row["replacement"] else None
    return OrderItemObject(**fields, replacement=replacement)


def membership_object(db: Database, row: dict[str, Any]) -> MembershipObject:
    """A membership row as the API returns it."""
    return MembershipObject(
        **{k: row[k] for k in MembershipObject.model_fields if k != "benefits_active"},
        benefits_active=benefits_active(db, row),
    )


def default_address(db: Database, user_id: str) -> AddressObject | None:
    """The customer's default address."""
    found = db.find(addresses, user_id=user_id, is_default=True)
    return address_object(found[0]) if found else None


def window_object(db: Database, row: dict[str, Any]) -> ServiceOptionObject:
    """A stored window as the API returns it."""
    return ServiceOptionObject(
        **{k: row[k] for k in ServiceOptionObject.model_fields if k != "availability"},
        availability=Availability(available=not (reasons := window_problems(db, row)), reasons=reasons),
    )


def cart_object(db: Database, cart: dict[str, Any]) -> CartObject:
    """A cart with its lines, subtotal and what is missing to reach the order minimum."""
    shop = store(db, cart["location_code"])
    lines = cart_lines(db, cart["id"])
    subtotal = cart_subtotal(lines)
    items = []
    for line in lines:
        pick = item(db, line["replacement_item_id"]) if line["replacement_item_id"] else None
        replacement = choice_object(pick) if pick else None
        items.append(
            CartItemObject(
                item_id=line["item_id"],
                name=line["item"]["name"],
                size=line["item"]["size"],
                price_cents=line["item"]["price_cents"],
                quantity=line["quantity"],
                line_total_cents=line["item"]["price_cents"] * line["quantity"],
                stock_level=line["item"]["stock_level"],
                replacement_policy=line["replacement_policy"],
                replacement_item=replacement,
                special_instructions=line["special_instructions"],
            )
        )
    return CartObject(
        cart_id=cart["id"],
        location_code=shop["location_code"],
        store_name=shop["name"],
        items=items,
        item_count=sum(line["quantity"] for line in lines),
        subtotal_cents=subtotal,
        order_minimum_cents=shop["order_minimum_cents"],
        minimum_remaining_cents=max(shop["order_minimum_cents"] - subtotal, 0),
    )


def issue_object(row: dict[str, Any], line: dict[str, Any]) -> IssueObject:
    """An issue report with the line it is about."""
    return IssueObject(
        id=row["id"],
        order_id=row["order_id"],
        line_num=line["line_num"],
        item_name=line["name"],
        issue_type=row["issue_type"],
        quantity=row["quantity"],
        resolution=row["resolution"],
        amount_cents=row["amount_cents"],
    )


def order_object(db: Database, row: dict[str, Any]) -> OrderObject:
    """An order with its store name, items and issue reports."""
    lines = db.find(order_items, order_id=row["id"], order_by=[order_items.c.line_num])
    by_id = {line["id"]: line for line in lines}
    issues = [issue_object(i, by_id[i["order_item_id"]]) for i in db.find(order_issues, order_id=row["id"])]
    return OrderObject(
        **{k: row[k] for k in OrderObject.model_fields if k not in ("store_name", "items", "issues")},
        store_name=db.get(stores, row["location_code"], "Store")["name"],
        items=[order_item_object(line) for line in lines],
        issues=issues,
    )


def order_summaries(db: Database, rows: list[dict[str, Any]]) -> list[OrderSummary]:
    """Orders as the history lists them: their stores' names and item counts read in one query each."""
    if not rows:
        return []
    count: dict[str, int] = {}
    marks = ", ".join("?" * len(rows))
    for line in db.select(order_items, f"order_id IN ({marks})", [r["id"] for r in rows]):
        count[line["order_id"]] = count.get(line["order_id"], 0) + line["quantity"]
    codes = sorted({r["location_code"] for r in rows})
    names = {
        s["location_code"]: s["name"]
        for s in db.select(stores, f"location_code IN ({', '.join('?' * len(codes))})", codes)
    }
    keep = [k for k in OrderSummary.model_fields if k not in ("store_name", "item_count")]
    return [
        OrderSummary(**{k: r[k] for k in keep}, store_name=names[r["location_code"]], item_count=count.get(r["id"], 0))
        for r in rows
    ]
