"""DoorDash's business rules as pure functions: store hours in the store's timezone, delivery distance, scheduling
windows, checkout pricing (fees, DashPass, promos, credits), promo conditions, cancellation refunds, tip changes,
the support window and an order's drop-off fields."""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from envfactory_gym import Conflict, InvalidRequest, PermissionDenied
from envfactory_gym.errors import ToolError
from envfactory_gym.values import format_money, iso_timestamp, parse_date, parse_timestamp

DAYS = ("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN")
SMALL_ORDER_THRESHOLD = 1000  # delivery subtotals under $10 pay the store's small order fee
DASHPASS_MIN_SUBTOTAL = 1200  # DashPass waives delivery fees from $12
SERVICE_FEE_PERCENT = 15
DASHPASS_SERVICE_FEE_PERCENT = 5
MIN_SERVICE_FEE = 200
TAX_RATE_PER_100K = 8625  # San Francisco sales tax, 8.625%
PICKUP_RADIUS_MILES = 10.0
SCHEDULE_MIN_LEAD = timedelta(hours=1)
SCHEDULE_MAX_AHEAD = timedelta(days=7)
SUPPORT_WINDOW = timedelta(days=7)
TIP_RAISE_WINDOW = timedelta(hours=24)
ALCOHOL_AGE = 21
MAX_LINE_QUANTITY = 20
MAX_INSTRUCTIONS = 500
TIME_EXAMPLE = "2025-06-14T12:30:00"
_ZONED = re.compile(r"(Z|[+-]\d{2}(:?\d{2})?)$", re.I)


def dollars(cents: int) -> str:
    """Cents as people read them, e.g. 1250 -> "$12.50"."""
    return format_money(cents, "USD", {"USD": "$"})


def percent_of(amount: int, percent: int) -> int:
    """`percent` % of `amount` cents, rounded half up."""
    return (amount * percent + 50) // 100


def miles_between(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance in miles."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 3958.8 * 2 * math.asin(math.sqrt(a))


def travel_minutes(miles: float) -> int:
    """A Dasher's drive from the store to the door."""
    return round(5 + 3 * miles)


def parse_time(value: str, tz: str) -> datetime:
    """A scheduled time (ISO 8601) as UTC; a time without an offset is read in the store's timezone."""
    moment = parse_timestamp(value, "scheduled_time", TIME_EXAMPLE, naive_as_utc=True)
    if _ZONED.search(value.strip().upper().partition("T")[2]):
        return moment
    return moment.replace(tzinfo=ZoneInfo(tz)).astimezone(timezone.utc)


def stored_time(stamp: str) -> datetime:
    """A stored UTC timestamp as a datetime."""
    return parse_timestamp(stamp, "timestamp")


def _minutes(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


def is_open(store: dict[str, Any], moment: datetime) -> bool:
    """Whether `moment` falls inside the store's hours (local time; hours ending at or before their start run past
    midnight)."""
    local = moment.astimezone(ZoneInfo(store["timezone"]))
    now = local.hour * 60 + local.minute
    today, yesterday = DAYS[local.weekday()], DAYS[(local.weekday() - 1) % 7]
    for span in store["open_hours"]:
        start, end = _minutes(span["start_time"]), _minutes(span["end_time"])
        overnight = end <= start
        if span["day_index"] == today and start <= now and (overnight or now < end):
            return True
        if span["day_index"] == yesterday and overnight and now < end:
            return True
    return False


def next_opening(store: dict[str, Any], moment: datetime) -> datetime | None:
    """The next time the store opens after `moment` (within a week), in UTC."""
    tz = ZoneInfo(store["timezone"])
    local = moment.astimezone(tz)
    for offset in range(8):
        day = (local + timedelta(days=offset)).date()
        starts = sorted(_minutes(s["start_time"]) for s in store["open_hours"] if s["day_index"] == DAYS[day.weekday()])
        for start in starts:
            opening = datetime(day.year, day.month, day.day, start // 60, start % 60, tzinfo=tz)
            if opening > local:
                return opening.astimezone(timezone.utc)
    return None


def closed_error(store: dict[str, Any], moment: datetime) -> Conflict:
    """The error for an order the store can't take now."""
    opening = next_opening(store, moment)
    when = ""
    if opening is not None:
        local = opening.astimezone(ZoneInfo(store["timezone"]))
        when = f" It opens {local.strftime('%a')} at {local.strftime('%I:%M %p').lstrip('0')}."
    return Conflict(f"{store['name']} is closed right now.{when} Schedule the order for a time it's open.")


def schedule_problem(store: dict[str, Any], scheduled: datetime, now: datetime) -> ToolError | None:
    """Why a scheduled time can't be used (at least an hour ahead, at most 7 days ahead, inside the store's
    hours), or None."""
    if scheduled < now + SCHEDULE_MIN_LEAD:
        return InvalidRequest("Scheduled orders must be at least 1 hour from now.")
    if scheduled > now + SCHEDULE_MAX_AHEAD:
        return InvalidRequest("Orders can be scheduled at most 7 days ahead.")
    if not is_open(store, scheduled):
        local = scheduled.astimezone(ZoneInfo(store["timezone"]))
        return InvalidRequest(
            f"{store['name']} is closed at {local.strftime('%a')} {local.strftime('%I:%M %p').lstrip('0')}; "
            "pick a time inside its hours."
        )
    return None


def age_on(date_of_birth: str, moment: datetime) -> int:
    """Whole years of age on `moment`'s date."""
    born = parse_date(date_of_birth, "date_of_birth")
    day = moment.date()
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def alcohol_problem(consumer: dict[str, Any], now: datetime) -> ToolError | None:
    """Alcohol is sold only to consumers of 21 or older."""
    if age_on(consumer["date_of_birth"], now) < ALCOHOL_AGE:
        return PermissionDenied("You must be 21 or older to order alcohol.")
    return None


# ---------------------------------------------------------------- promos and pricing


@dataclass(frozen=True)
class PromoContext:
    """What a promo's conditions are checked against."""

    consumer: dict[str, Any]
    store: dict[str, Any]
    subtotal: int
    prior_orders: int  # the consumer's orders that were not cancelled
    uses: int  # the consumer's orders (not cancelled) that used this promo
    now: datetime
    fulfillment_type: str | None  # None while the promo is applied to the cart


def promo_problem(promo: dict[str, Any], ctx: PromoContext) -> ToolError | None:
    """Why the promo can't be used on this order, or None."""
    code, now = promo["code"], iso_timestamp(ctx.now)
    if now < promo["starts_at"]:
        return InvalidRequest(f"Promo {code} isn't active yet; it starts {promo['starts_at'][:10]}.")
    if now >= promo["expires_at"]:
        return InvalidRequest(f"Promo {code} expired on {promo['expires_at'][:10]}.")
    if promo["store_id"] is not None and promo["store_id"] != ctx.store["id"]:
        return InvalidRequest(f"Promo {code} isn't valid at {ctx.store['name']}.")
    if promo["first_order_only"] and ctx.prior_orders:
        return PermissionDenied(f"Promo {code} is only for your first DoorDash order.")
    if promo["dashpass_only"] and ctx.consumer["dashpass_status"] != "active":
        return PermissionDenied(f"Promo {code} is for DashPass members.")
    if ctx.uses >= promo["uses_per_consumer"]:
        return Conflict(f"You've already used promo {code}.")
    if ctx.subtotal < promo["min_subtotal"]:
        return InvalidRequest(
            f"Add {dollars(promo['min_subtotal'] - ctx.subtotal)} more to use {code} "
            f"(minimum subtotal {dollars(promo['min_subtotal'])})."
        )
    if ctx.fulfillment_type == "pickup" and (promo["delivery_only"] or promo["discount_type"] == "free_delivery"):
        return InvalidRequest(f"Promo {code} is for delivery orders only.")
    return None


@dataclass(frozen=True)
class Charges:
    """An order's price breakdown, in cents."""

    subtotal: int
    delivery_fee: int
    service_fee: int
    small_order_fee: int
    tax: int
    discount: int
    tip: int
    total: int
    credits_applied: int
    amount_charged: int
    dashpass_applied: bool

    def as_dict(self) -> dict[str, Any]:
        """The breakdown as column values."""
        return asdict(self)


def dashpass_applies(consumer: dict[str, Any], store: dict[str, Any], subtotal: int, fulfillment_type: str) -> bool:
    """DashPass benefits: active membership, an eligible store, delivery, subtotal of $12 or more."""
    return (
        consumer["dashpass_status"] == "active"
        and store["dashpass_eligible"]
        and fulfillment_type == "delivery"
        and subtotal >= DASHPASS_MIN_SUBTOTAL
    )


def charges(
    consumer: dict[str, Any],
    store: dict[str, Any],
    subtotal: int,
    fulfillment_type: str,
    tip: int,
    promo: dict[str, Any] | None,
) -> Charges:
    """Fees, tax, promo discount and tip; credits pay everything but the tip."""
    delivery = fulfillment_type == "delivery"
    dashpass = dashpass_applies(consumer, store, subtotal, fulfillment_type)
    delivery_fee = store["delivery_fee"] if delivery and not dashpass else 0
    if not delivery:
        service_fee = 0
    elif dashpass:
        service_fee = percent_of(subtotal, DASHPASS_SERVICE_FEE_PERCENT)
    else:
        service_fee = max(MIN_SERVICE_FEE, percent_of(subtotal, SERVICE_FEE_PERCENT))
    small = store["small_order_fee"] if delivery and subtotal < SMALL_ORDER_THRESHOLD else 0
    tax = (subtotal * TAX_RATE_PER_100K + 50_000) // 100_000
    discount = 0
    if promo is not None:
        if promo["discount_type"] == "percent":
            discount = percent_of(subtotal, promo["discount_value"])
            if promo["max_discount"] is not None:
                discount = min(discount, promo["max_discount"])
        elif promo["discount_type"] == "amount":
            discount = min(promo["discount_value"], subtotal)
        else:
            discount = delivery_fee
    total = subtotal + delivery_fee + service_fee + small + tax + tip - discount
    credits = min(consumer["credits_balance"], total - tip)
    return Charges(
        subtotal, delivery_fee, service_fee, small, tax, discount, tip, total, credits, total - credits, dashpass
    )


def cancellation(order: dict[str, Any]) -> tuple[int, int, int]:
    """(fee, card refund, credits refund) of cancelling an order: free until the store confirms it; after that
    the food (the subtotal) is charged, taken from the card payment first."""
    paid = order["amount_charged"] + order["credits_applied"]
    fee = 0 if order["status"] == "submitted" else min(order["subtotal"], paid)
    card = max(0, order["amount_charged"] - fee)
    credits = order["credits_applied"] - max(0, fee - order["amount_charged"])
    return fee, card, credits


def cancel_problem(order: dict[str, Any]) -> Conflict | None:
    """Why an order can't be cancelled (already cancelled, delivered or picked up), or None."""
    if order["status"] == "cancelled":
        return Conflict("This order is already cancelled.")
    if order["status"] == "delivered":
        return Conflict("This order was delivered; report a problem with it instead.")
    if order["status"] == "picked_up":
        who = "Your Dasher has" if order["fulfillment_type"] == "delivery" else "You've"
        return Conflict(f"{who} already picked up this order, so it can't be cancelled.")
    return None


def delivery_update_problem(
    order: dict[str, Any], tip: int | None, instructions: str | None, now: datetime
) -> ToolError | None:
    """Why a delivery's tip or drop-off instructions can't change: a tip can be changed freely before pickup and
    only raised after it, up to 24 hours after delivery; instructions change until delivery."""
    if tip is None and instructions is None:
        return InvalidRequest("Nothing to update: give a tip or dropoff_instructions.")
    if order["status"] == "cancelled":
        return Conflict("This order was cancelled.")
    if order["fulfillment_type"] == "pickup":
        return InvalidRequest("Pickup orders have no Dasher, so no tip or drop-off instructions.")
    if instructions is not None and order["status"] == "delivered":
        return Conflict("This order was already delivered.")
    if tip is not None:
        if order["status"] in ("picked_up", "delivered") and tip < order["tip"]:
            return Conflict(
                f"Tips can't be lowered after the Dasher picks up the order (the tip is {dollars(order['tip'])})."
            )
        if order["status"] == "delivered" and now > stored_time(order["delivered_at"]) + TIP_RAISE_WINDOW:
            return Conflict("Tips can be changed up to 24 hours after delivery.")
    return None


def support_problem(order: dict[str, Any], now: datetime) -> Conflict | None:
    """Problems are reported once a delivery is delivered (a pickup picked up), within 7 days."""
    done = order["delivered_at"] if order["status"] == "delivered" else None
    if order["status"] == "picked_up" and order["fulfillment_type"] == "pickup":
        done = order["picked_up_at"]
    if done is None:
        return Conflict("You can report a problem once the order has been delivered.")
    if now > stored_time(done) + SUPPORT_WINDOW:
        return Conflict("Problems with an order must be reported within 7 days of delivery.")
    return None


def trimmed(value: str | None) -> str | None:
    """Optional free text, trimmed: None when absent or blank."""
    if value is None:
        return None
    return value.strip() or None


def line_quantity(quantity: int) -> int:
    """A cart line's quantity after adding to it: at most 20 of one item with the same choices."""
    if quantity > MAX_LINE_QUANTITY:
        raise InvalidRequest(f"A cart line holds at most {MAX_LINE_QUANTITY} of an item (this would make {quantity}).")
    return quantity


def dropoff_fields(
    address: dict[str, Any] | None, one_line: str | None, alcohol: bool, instructions: str | None
) -> dict[str, Any]:
    """An order's drop-off columns: the address, its instructions unless overridden, hand-off for alcohol."""
    if address is None:
        return dict.fromkeys(("address_id", "dropoff_address", "dropoff_instructions", "dropoff_option", "id_verified"))
    note = instructions if instructions is not None else address["dropoff_instructions"]
    return {
        "address_id": address["id"],
        "dropoff_address": one_line,
        "dropoff_instructions": note.strip(),
        "dropoff_option": "hand_to_me" if alcohol else address["dropoff_option"],
        "id_verified": False if alcohol else None,
    }
