"""Uber Eats objects as the eater's tools return them (eater, places, stores with hours and status, menus with
modifier groups, the cart with its price breakdown, promotions, orders, issues) and how stored rows become them.
Amounts are integer cents (USD), like the Marketplace API's price_info."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from . import rules
from .schema import modifier_options, places


class PlaceObject(BaseModel):
    """A saved delivery address."""

    place_id: str
    label: str
    address: str
    neighborhood: str
    dropoff_option: str
    instructions: str | None


class EaterObject(BaseModel):
    """The signed-in eater."""

    eater_id: str
    name: str
    email: str
    phone: str
    uber_one: bool = Field(description="Uber One member: $0 delivery fee at eligible stores from a $15 subtotal")
    uber_cash: int = Field(description="Uber Cash balance in cents")
    places: list[PlaceObject]


class StoreSummary(BaseModel):
    """A store in search results."""

    store_id: str
    name: str
    cuisine: str
    neighborhood: str
    status: str = Field(description="ONLINE, PAUSED or OFFLINE right now")
    delivers_to_place: bool | None = Field(description="Whether it delivers to the place searched from")
    delivery_fee: int
    rating: float
    price_bucket: str
    uber_one_eligible: bool


class TimePeriod(BaseModel):
    """An open period, HH:MM local."""

    start_time: str
    end_time: str


class DayHours(BaseModel):
    """A day's open periods."""

    day_of_week: str
    time_periods: list[TimePeriod]


class HolidayHours(BaseModel):
    """Date-specific hours replacing the weekly hours that date (no periods: closed all day)."""

    date: str
    open_time_periods: list[TimePeriod]


class StoreObject(BaseModel):
    """A store's details."""

    store_id: str
    name: str
    cuisine: str
    address: str
    neighborhood: str
    status: str = Field(description="ONLINE, PAUSED or OFFLINE right now")
    offline_reason: str | None = Field(description="OUT_OF_MENU_HOURS or PAUSED_BY_RESTAURANT")
    paused_until: str | None
    service_availability: list[DayHours]
    holiday_hours: list[HolidayHours]
    delivers_to: list[str]
    delivers_to_place: bool | None
    delivery_fee: int
    min_order: int = Field(description="Smallest subtotal the store takes, cents (0: none)")
    prep_minutes: int
    pickup: bool
    uber_one_eligible: bool
    sells_alcohol: bool
    rating: float
    rating_count: int
    price_bucket: str


class MenuItemSummary(BaseModel):
    """An item on a store's menu."""

    item_id: str
    title: str
    description: str
    price: int
    has_customizations: bool
    sold_out: bool


class MenuCategory(BaseModel):
    """A menu category and its items."""

    title: str
    items: list[MenuItemSummary]


class MenuObject(BaseModel):
    """A store's menu."""

    store_id: str
    store_name: str
    categories: list[MenuCategory]


class ModifierOption(BaseModel):
    """One choice in a modifier group."""

    option_id: str
    title: str
    price: int


class ModifierGroupObject(BaseModel):
    """A customization of an item: choose between min_permitted and max_permitted of its options."""

    modifier_group_id: str
    title: str
    min_permitted: int
    max_permitted: int
    options: list[ModifierOption]


class ItemObject(BaseModel):
    """A menu item with its customizations."""

    item_id: str
    store_id: str
    title: str
    description: str
    category: str
    price: int
    sold_out: bool
    suspended_until: str | None
    alcohol: bool
    modifier_groups: list[ModifierGroupObject]


class CartLine(BaseModel):
    """An item in the cart."""

    cart_item_id: str
    item_id: str
    title: str
    quantity: int
    options: list[str]
    option_ids: list[str]
    special_instructions: str | None
    unit_price: int
    total: int


class PriceBreakdown(BaseModel):
    """What an order costs, in cents."""

    subtotal: int
    delivery_fee: int
    small_order_fee: int
    service_fee: int
    discount: int
    tip: int
    total: int


class CartObject(BaseModel):
    """The eater's cart (one store) with the price it would come to."""

    store_id: str | None
    store_name: str | None
    items: list[CartLine]
    promo_code: str | None
    fulfillment_type: str
    price: PriceBreakdown | None
    min_order: int | None
    warnings: list[str]


class PromotionObject(BaseModel):
    """A promotion the eater can enter by code."""

    code: str
    description: str
    type: str = Field(description="FLATOFF (cents off), PERCENTOFF (percent off, capped) or FREEDELIVERY")
    amount: int
    max_discount: int | None
    min_subtotal: int
    store_id: str | None
    store_name: str | None
    first_order_only: bool
    uber_one_only: bool
    uses_left: int
    expires_at: str


class OrderLine(BaseModel):
    """An item of a placed order."""

    line_id: str
    item_id: str
    title: str
    quantity: int
    options: list[str]
    total: int


class OrderSummary(BaseModel):
    """An order in the eater's history."""

    order_id: str
    display_id: str
    store_name: str
    current_state: str
    placed_at: str
    scheduled_for: str | None
    total: int
    item_count: int


class IssueObject(BaseModel):
    """A reported problem with an order and its refund."""

    issue_id: str
    line_id: str
    issue_type: str
    quantity: int
    refund: int
    refund_to: str


class OrderObject(BaseModel):
    """An order with its items, price, state and refunds."""

    order_id: str
    display_id: str
    store_id: str
    store_name: str
    fulfillment_type: str
    place_id: str | None
    current_state: str = Field(
        description="SCHEDULED, CREATED (waiting for the store), ACCEPTED, HANDED_OFF (with the courier), "
        "FINISHED, DENIED or CANCELED"
    )
    items: list[OrderLine]
    price: PriceBreakdown
    promo_code: str | None
    uber_cash_used: int
    charged_to_card: int
    placed_at: str
    scheduled_for: str | None
    delivered_at: str | None
    cancel_reason: str | None
    refund: int
    rating: int | None
    issues: list[IssueObject]


def place_object(row: dict[str, Any]) -> PlaceObject:
    """A stored place as the app shows it."""
    return PlaceObject(place_id=row["id"], **{k: row[k] for k in PlaceObject.model_fields if k != "place_id"})


def periods(raw: list[list[str]]) -> list[TimePeriod]:
    """Stored [start, end] pairs as time periods."""
    return [TimePeriod(start_time=start, end_time=end) for start, end in raw]


def store_object(db: Database, row: dict[str, Any], place: dict[str, Any] | None) -> StoreObject:
    """A stored store with its status now."""
    status, reason = rules.availability(db, row, db.now())
    return StoreObject(
        store_id=row["id"],
        name=row["name"],
        cuisine=row["cuisine"],
        address=row["address"],
        neighborhood=row["neighborhood"],
        status=status,
        offline_reason=reason,
        paused_until=row["paused_until"] if status == "PAUSED" else None,
        service_availability=[
            DayHours(day_of_week=day, time_periods=periods(row["hours"].get(day, []))) for day in rules.DAYS
        ],
        holiday_hours=[
            HolidayHours(date=day, open_time_periods=periods(spans))
            for day, spans in sorted(row["holiday_hours"].items())
        ],
        delivers_to=row["delivers_to"],
        delivers_to_place=None if place is None else place["neighborhood"] in row["delivers_to"],
        delivery_fee=row["delivery_fee"],
        min_order=row["min_order"],
        prep_minutes=row["prep_minutes"],
        pickup=row["pickup"],
        uber_one_eligible=row["uber_one_eligible"],
        sells_alcohol=row["alcohol"],
        rating=row["rating"] / 10,
        rating_count=row["rating_count"],
        price_bucket=row["price_bucket"],
    )


def store_summary(db: Database, row: dict[str, Any], place: dict[str, Any] | None) -> StoreSummary:
    """A stored store as a search result."""
    status, _ = rules.availability(db, row, db.now())
    return StoreSummary(
        store_id=row["id"],
        name=row["name"],
        cuisine=row["cuisine"],
        neighborhood=row["neighborhood"],
        status=status,
        delivers_to_place=None if place is None else place["neighborhood"] in row["delivers_to"],
        delivery_fee=row["delivery_fee"],
        rating=row["rating"] / 10,
        price_bucket=row["price_bucket"],
        uber_one_eligible=row["uber_one_eligible"],
    )


def item_object(db: Database, row: dict[str, Any]) -> ItemObject:
    """A stored item with its modifier groups and options."""
    groups = rules.groups_of(db, row)
    options = rules.options_of(db, [g["id"] for g in groups])
    return ItemObject(
        item_id=row["id"],
        store_id=row["store_id"],
        title=row["title"],
        description=row["description"],
        category=row["category"],
        price=row["price"],
        sold_out=rules.sold_out(db, row),
        suspended_until=row["suspended_until"] if rules.sold_out(db, row) else None,
        alcohol=row["alcohol"],
        modifier_groups=[
            ModifierGroupObject(
                modifier_group_id=g["id"],
                title=g["title"],
                min_permitted=g["min_permitted"],
                max_permitted=g["max_permitted"],
                options=[
                    ModifierOption(option_id=o["id"], title=o["title"], price=o["price"])
                    for o in options
                    if o["group_id"] == g["id"]
                ],
            )
            for g in groups
        ],
    )


def option_titles(db: Database, option_ids: list[str]) -> list[str]:
    """The titles of chosen options, in the order chosen."""
    if not option_ids:
        return []
    marks = ", ".join("?" for _ in option_ids)
    found = {o["id"]: o["title"] for o in db.select(modifier_options, f"id IN ({marks})", option_ids)}
    return [found.get(option_id, option_id) for option_id in option_ids]


def price_object(values: dict[str, int]) -> PriceBreakdown:
    """A price breakdown from stored or quoted cents."""
    return PriceBreakdown(**{key: values[key] for key in PriceBreakdown.model_fields})


def eater_object(db: Database, eater: dict[str, Any]) -> EaterObject:
    """The eater's account with their saved places."""
    saved = db.find(places, eater_id=eater["id"], order_by=[places.c.id])
    return EaterObject(
        eater_id=eater["id"],
        name=eater["name"],
        email=eater["email"],
        phone=eater["phone"],
        uber_one=eater["uber_one"],
        uber_cash=eater["uber_cash"],
        places=[place_object(row) for row in saved],
    )
