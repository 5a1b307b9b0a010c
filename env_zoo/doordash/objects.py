"""DoorDash's objects as output models, and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .schema import addresses, extra_options, extras, items, order_issues, order_items, orders, stores

TRACKING_URL = "https://track.doordash.com/share/{id}/track"


class AddressObject(BaseModel):
    """A saved delivery address with its drop-off preferences."""

    id: str
    label: str | None
    street: str
    subpremise: str | None
    city: str
    state: str
    zip_code: str
    dropoff_instructions: str
    dropoff_option: str = Field(description="leave_at_door or hand_to_me")
    is_default: bool


class DashPassObject(BaseModel):
    """The consumer's DashPass membership."""

    status: str = Field(description="active, cancelled or none")
    renews_on: str | None


class ConsumerObject(BaseModel):
    """The signed-in DoorDash consumer."""

    id: str
    first_name: str
    last_name: str
    email: str
    phone_number: str
    dashpass: DashPassObject
    credits_balance: int = Field(description="DoorDash credits in cents, applied automatically at checkout")
    payment_method: str
    orders_placed: int = Field(description="orders placed that were not cancelled")
    addresses: list[AddressObject]


class OpenHours(BaseModel):
    """One opening span in the store's local time (an end at or before the start runs past midnight)."""

    day_index: str
    start_time: str
    end_time: str


class StoreSummary(BaseModel):
    """A store in search results."""

    id: str
    name: str
    cuisines: list[str]
    price_range: str
    rating: float
    distance_miles: float
    is_open: bool
    accepting_orders: bool
    delivery_fee: int = Field(description="cents, before DashPass")
    dashpass_eligible: bool
    offers_pickup: bool
    estimated_delivery_minutes: int


class StoreObject(BaseModel):
    """A store's details: hours, delivery area, fees and what it offers."""

    id: str
    name: str
    business_name: str
    description: str
    cuisines: list[str]
    price_range: str
    address: str
    phone_number: str
    timezone: str
    open_hours: list[OpenHours]
    is_open: bool
    accepting_orders: bool
    offers_delivery: bool
    offers_pickup: bool
    delivery_radius_miles: float
    distance_miles: float = Field(description="from the address asked about")
    delivers_to_address: bool
    prep_time_minutes: int
    estimated_delivery_minutes: int
    delivery_fee: int = Field(description="cents, waived by DashPass on eligible orders of $12 or more")
    small_order_fee: int = Field(description="cents, added to delivery subtotals under $10")
    minimum_subtotal: int = Field(description="cents; 0 when the store has no minimum")
    dashpass_eligible: bool
    sells_alcohol: bool
    rating: float
    rating_count: int


class MenuItemSummary(BaseModel):
    """A menu item as listed on the store page."""

    id: str
    category: str
    name: str
    price: int
    is_active: bool = Field(description="false when sold out")
    contains_alcohol: bool
    required_choices: list[str] = Field(description="extras that need a choice before adding to the cart")


class MenuObject(BaseModel):
    """A store's menu."""

    store_id: str
    store_name: str
    items: list[MenuItemSummary]


class OptionObject(BaseModel):
    """One option of an extra."""

    id: str
    name: str
    price: int = Field(description="cents added to the item")
    is_active: bool


class ExtraObject(BaseModel):
    """An item's option group: choose between min_num_options and max_num_options of its options."""

    id: str
    name: str
    min_num_options: int
    max_num_options: int
    options: list[OptionObject]


class ItemObject(BaseModel):
    """A menu item with its extras."""

    id: str
    store_id: str
    category: str
    name: str
    description: str
    price: int
    is_active: bool
    contains_alcohol: bool
    extras: list[ExtraObject]


class ChosenOption(BaseModel):
    """An option chosen for a cart or order line."""

    id: str
    name: str
    price: int


class CartItemObject(BaseModel):
    """A line of the cart."""

    id: str
    item_id: str
    name: str
    quantity: int
    options: list[ChosenOption]
    special_instructions: str | None
    unit_price: int = Field(description="item plus options, cents")
    line_total: int


class QuoteObject(BaseModel):
    """What checkout would charge with the given fulfillment, address, tip and schedule."""

    fulfillment_type: str
    address_id: str | None
    scheduled_time: str | None
    subtotal: int
    delivery_fee: int
    service_fee: int
    small_order_fee: int
    tax: int
    discount: int
    tip: int
    total: int
    credits_applied: int
    amount_charged: int = Field(description="what the card pays: total minus credits")
    dashpass_applied: bool
    estimated_delivery_time: str | None
    can_place_order: bool
    blocked_reason: str | None


class CartObject(BaseModel):
    """The consumer's cart (one store at a time)."""

    id: str | None
    store_id: str | None
    store_name: str | None
    items: list[CartItemObject]
    subtotal: int
    promo_code: str | None
    quote: QuoteObject | None = None


class OrderSummary(BaseModel):
    """An order in the order history."""

    id: str
    store_id: str
    store_name: str
    status: str
    fulfillment_type: str
    scheduled_time: str | None
    item_count: int
    total: int
    created_at: str


class OrderItemObject(BaseModel):
    """A line of a placed order."""

    id: str
    item_id: str
    name: str
    quantity: int
    options: list[ChosenOption]
    unit_price: int
    special_instructions: str | None


class OrderContains(BaseModel):
    """Restricted goods in the order (Drive's order_contains)."""

    alcohol: bool


class DeliveryObject(BaseModel):
    """The delivery of an order, with DoorDash Drive's fields."""

    dropoff_address: str
    dropoff_instructions: str
    dropoff_option: str
    contactless_dropoff: bool
    order_contains: OrderContains
    dropoff_requires_id: bool
    id_verified: bool | None
    dasher_name: str | None
    tracking_url: str
    dropoff_time_estimated: str | None


class IssueObject(BaseModel):
    """A problem reported on a delivered order and how it was made good."""

    id: str
    order_id: str
    order_item_id: str
    item_name: str
    issue_type: str
    quantity: int
    resolution: str = Field(description="credits (DoorDash credits) or refund (to the card)")
    amount: int


class OrderObject(BaseModel):
    """An order with its items, charges, delivery and support history."""

    id: str
    store_id: str
    store_name: str
    status: str = Field(description="submitted, confirmed, picked_up, delivered or cancelled")
    fulfillment_type: str
    scheduled_time: str | None
    items: list[OrderItemObject]
    subtotal: int
    delivery_fee: int
    service_fee: int
    small_order_fee: int
    tax: int
    discount: int
    promo_code: str | None
    tip: int
    total: int
    credits_applied: int
    amount_charged: int
    cancellation_fee: int | None
    refunded_amount: int
    refunded_credits: int
    delivery: DeliveryObject | None
    issues: list[IssueObject]
    created_at: str
    delivered_at: str | None
    cancelled_at: str | None


def address_object(row: dict[str, Any]) -> AddressObject:
    """A saved address."""
    return AddressObject(**{k: row[k] for k in AddressObject.model_fields})


def one_line(row: dict[str, Any]) -> str:
    """An address on one line, e.g. "455 Valencia St Apt 3, San Francisco, CA 94103"."""
    unit = f" {row['subpremise']}" if row.get("subpremise") else ""
    return f"{row['street']}{unit}, {row['city']}, {row['state']} {row['zip_code']}"


def item_object(db: Database, row: dict[str, Any]) -> ItemObject:
    """An item with its extras and their options."""
    groups = []
    for extra in db.find(extras, item_id=row["id"], order_by=[extras.c.sort_index]):
        options = db.find(extra_options, extra_id=extra["id"], order_by=[extra_options.c.sort_index])
        groups.append(
            ExtraObject(
                id=extra["id"],
                name=extra["name"],
                min_num_options=extra["min_num_options"],
                max_num_options=extra["max_num_options"],
                options=[OptionObject(**{k: o[k] for k in OptionObject.model_fields}) for o in options],
            )
        )
    return ItemObject(**{k: row[k] for k in ItemObject.model_fields if k != "extras"}, extras=groups)


def menu_item_summary(db: Database, row: dict[str, Any]) -> MenuItemSummary:
    """A menu item with the names of its required extras."""
    required = [
        e["name"]
        for e in db.find(extras, item_id=row["id"], order_by=[extras.c.sort_index])
        if e["min_num_options"] > 0
    ]
    return MenuItemSummary(
        **{k: row[k] for k in MenuItemSummary.model_fields if k != "required_choices"}, required_choices=required
    )


def chosen_options(db: Database, option_ids: list[str]) -> list[ChosenOption]:
    """The options of a cart line, as stored ids."""
    return [
        ChosenOption(**{k: o[k] for k in ChosenOption.model_fields})
        for o in (db.get(extra_options, i, "Option") for i in option_ids)
    ]


def cart_item_object(db: Database, row: dict[str, Any]) -> CartItemObject:
    """A cart line priced at today's menu prices."""
    item = db.get(items, row["item_id"], "Item")
    options = chosen_options(db, row["option_ids"])
    unit = item["price"] + sum(o.price for o in options)
    return CartItemObject(
        id=row["id"],
        item_id=item["id"],
        name=item["name"],
        quantity=row["quantity"],
        options=options,
        special_instructions=row["special_instructions"],
        unit_price=unit,
        line_total=unit * row["quantity"],
    )


def order_summaries(db: Database, rows: list[dict[str, Any]]) -> list[OrderSummary]:
    """Orders as the history lists them: their stores' names and item counts read in one query each."""
    if not rows:
        return []
    marks = ", ".join("?" * len(rows))
    count: dict[str, int] = {}
    for line in db.select(order_items, f"order_id IN ({marks})", [r["id"] for r in rows]):
        count[line["order_id"]] = count.get(line["order_id"], 0) + line["quantity"]
    store_ids = sorted({r["store_id"] for r in rows})
    names = {s["id"]: s["name"] for s in db.select(stores, f"id IN ({', '.join('?' * len(store_ids))})", store_ids)}
    keep = [k for k in OrderSummary.model_fields if k not in ("store_name", "item_count")]
    return [
        OrderSummary(**{k: r[k] for k in keep}, store_name=names[r["store_id"]], item_count=count.get(r["id"], 0))
        for r in rows
    ]


def issue_object(db: Database, row: dict[str, Any]) -> IssueObject:
    """A reported problem with its item's name."""
    line = db.get(order_items, row["order_item_id"], "Order item")
    return IssueObject(**{k: row[k] for k in IssueObject.model_fields if k != "item_name"}, item_name=line["name"])


def delivery_object(row: dict[str, Any]) -> DeliveryObject | None:
    """The Drive-style delivery of a delivery order."""
    if row["fulfillment_type"] != "delivery":
        return None
    return DeliveryObject(
        dropoff_address=row["dropoff_address"],
        dropoff_instructions=row["dropoff_instructions"] or "",
        dropoff_option=row["dropoff_option"],
        contactless_dropoff=row["dropoff_option"] == "leave_at_door",
        order_contains=OrderContains(alcohol=row["contains_alcohol"]),
        dropoff_requires_id=row["contains_alcohol"],
        id_verified=row["id_verified"],
        dasher_name=row["dasher_name"],
        tracking_url=TRACKING_URL.format(id=row["id"]),
        dropoff_time_estimated=row["estimated_delivery_time"],
    )


def order_object(db: Database, row: dict[str, Any]) -> OrderObject:
    """An order with its lines, delivery and reported issues."""
    store = db.get(stores, row["store_id"], "Store")
    lines = [
        OrderItemObject(
            **{k: line[k] for k in OrderItemObject.model_fields if k != "options"},
            options=[ChosenOption(**o) for o in line["options"]],
        )
        for line in db.find(order_items, order_id=row["id"])
    ]
    issues = [issue_object(db, i) for i in db.find(order_issues, order_id=row["id"])]
    skip = {"store_name", "items", "delivery", "issues"}
    return OrderObject(
        **{k: row[k] for k in OrderObject.model_fields if k not in skip},
        store_name=store["name"],
        items=lines,
        delivery=delivery_object(row),
        issues=issues,
    )


def consumer_object(db: Database, consumer: dict[str, Any]) -> ConsumerObject:
    """The consumer with their membership, card, orders placed (not cancelled) and saved addresses, default first."""
    placed = [o for o in db.find(orders, consumer_id=consumer["id"]) if o["status"] != "cancelled"]
    saved = db.find(addresses, consumer_id=consumer["id"], order_by=[addresses.c.is_default.desc()])
    card = consumer["payment_method"]
    return ConsumerObject(
        **{k: consumer[k] for k in ("id", "first_name", "last_name", "email", "phone_number", "credits_balance")},
        dashpass=DashPassObject(status=consumer["dashpass_status"], renews_on=consumer["dashpass_renews_on"]),
        payment_method=f"{card['brand']} ending in {card['last4']}",
        orders_placed=len(placed),
        addresses=[address_object(a) for a in saved],
    )
