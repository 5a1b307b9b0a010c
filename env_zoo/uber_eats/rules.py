"""Uber Eats ordering rules: when a store takes orders (status, weekly and holiday hours), what a cart line may
hold (sold-out items, modifier group minimums and maximums, alcohol), the one-store cart, prices and fees (small
order fee, service fee, Uber One), promotions, and what cancelling or reporting an issue refunds. Store hours are
the city's local time, compared with the simulated clock as they are."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.values import iso_timestamp, parse_date, parse_timestamp

from .schema import cart_items, menu_items, modifier_groups, modifier_options, orders, promotions, stores

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
SMALL_ORDER_LIMIT = 1000  # delivery subtotals under $10 pay the small order fee
SMALL_ORDER_FEE = 200
SERVICE_RATE = 15  # percent of the subtotal, delivery orders only
MIN_SERVICE_FEE = 200
UBER_ONE_MIN_SUBTOTAL = 1500  # Uber One's $0 delivery fee applies from this subtotal
SCHEDULE_MIN = timedelta(hours=1)
SCHEDULE_MAX = timedelta(days=7)
ISSUE_WINDOW = timedelta(days=3)
LIVE_ORDER = ("SCHEDULED", "CREATED", "ACCEPTED", "HANDED_OFF")
SPENT = ("DENIED", "CANCELED")  # orders that did not use a promotion


def store(db: Database, store_id: str) -> dict[str, Any]:
    """A store visible in the app; an INVISIBLE one does not exist for eaters."""
    row = db.find_one(stores, not_found=f"Store {store_id} not found.", id=store_id.strip())
    if row["status"] == "INVISIBLE":
        raise NotFound(f"Store {store_id} not found.")
    return row


def periods_on(row: dict[str, Any], day: date) -> list[list[str]]:
    """The store's open periods on a date: its holiday hours that date if it has any, else its weekly hours."""
    special = row["holiday_hours"].get(day.isoformat())
    if special is not None:
        return list(special)
    return list(row["hours"].get(DAYS[day.weekday()], []))


def is_open(row: dict[str, Any], moment: datetime) -> bool:
    """Whether the store's hours cover a moment (HH:MM local)."""
    clock = moment.strftime("%H:%M")
    return any(start <= clock < end for start, end in periods_on(row, moment.date()))


def availability(db: Database, row: dict[str, Any], moment: datetime) -> tuple[str, str | None]:
    """The store's status at a moment: ONLINE, PAUSED (with PAUSED_BY_RESTAURANT) or OFFLINE (OUT_OF_MENU_HOURS)."""
    if row["status"] == "PAUSED" and (row["paused_until"] is None or row["paused_until"] > iso_timestamp(moment)):
        return "PAUSED", "PAUSED_BY_RESTAURANT"
    if not is_open(row, moment):
        return "OFFLINE", "OUT_OF_MENU_HOURS"
    return "ONLINE", None


def check_orderable(db: Database, row: dict[str, Any], scheduled_for: str | None) -> datetime | None:
    """Refuse an order the store can't take now, or at the scheduled time; the scheduled moment if any."""
    now = db.now()
    if scheduled_for is None:
        status, _ = availability(db, row, now)
        if status == "PAUSED":
            raise Conflict(f"{row['name']} is currently unavailable and isn't taking orders right now.")
        if status == "OFFLINE":
            raise Conflict(f"{row['name']} is closed right now. Schedule the order for when it's open.")
        return None
    moment = parse_timestamp(scheduled_for, "scheduled_for", example="2026-06-12T19:30:00Z")
    if not now + SCHEDULE_MIN <= moment <= now + SCHEDULE_MAX:
        raise InvalidRequest("Scheduled orders must be between 1 hour and 7 days from now.")
    status, _ = availability(db, row, moment)
    if status != "ONLINE":
        raise Conflict(f"{row['name']} isn't open at {moment.strftime('%Y-%m-%d %H:%M')}.")
    return moment


def item(db: Database, item_id: str) -> dict[str, Any]:
    """A menu item of a visible store."""
    row = db.find_one(menu_items, not_found=f"Item {item_id} not found.", id=item_id.strip())
    store(db, row["store_id"])
    return row


def sold_out(db: Database, row: dict[str, Any]) -> bool:
    """Whether the item is suspended (sold out) now."""
    until = row["suspended_until"]
    return until is not None and until > iso_timestamp(db.now())


def groups_of(db: Database, row: dict[str, Any]) -> list[dict[str, Any]]:
    """The item's modifier groups, in the item's order."""
    found = {g["id"]: g for g in db.select(modifier_groups, "store_id = ?", (row["store_id"],))}
    return [found[group_id] for group_id in row["modifier_group_ids"] if group_id in found]


def options_of(db: Database, group_ids: list[str]) -> list[dict[str, Any]]:
    """The options of some modifier groups."""
    if not group_ids:
        return []
    marks = ", ".join("?" for _ in group_ids)
    return db.select(modifier_options, f"group_id IN ({marks})", group_ids, order_by="group_id, position")


def check_selection(db: Database, row: dict[str, Any], option_ids: list[str]) -> None:
    """Refuse options that are not the item's, or a selection outside a group's min_permitted..max_permitted."""
    groups = groups_of(db, row)
    options = {o["id"]: o for o in options_of(db, [g["id"] for g in groups])}
    for option_id in option_ids:
        if option_id not in options:
            raise InvalidRequest(f"Option {option_id} is not a customization of {row['title']}.")
    for group in groups:
        chosen = sum(1 for option_id in option_ids if options[option_id]["group_id"] == group["id"])
        low, high = group["min_permitted"], group["max_permitted"]
        if chosen < low:
            raise InvalidRequest(f'{row["title"]}: choose at least {low} for "{group["title"]}".')
        if chosen > high:
            raise InvalidRequest(f'{row["title"]}: choose at most {high} for "{group["title"]}".')


def canonical_options(db: Database, row: dict[str, Any], option_ids: list[str]) -> list[str]:
    """Chosen options in menu order (the item's groups, then each group's options), whatever order they came in."""
    order = {group["id"]: n for n, group in enumerate(groups_of(db, row))}
    found = options_of(db, list(order))
    found.sort(key=lambda option: (order[option["group_id"]], option["position"]))
    wanted = set(option_ids)
    return [option["id"] for option in found if option["id"] in wanted]


def check_alcohol(db: Database, eater: dict[str, Any], row: dict[str, Any]) -> None:
    """Alcohol only for eaters 21 or older."""
    if not row["alcohol"]:
        return
    born = parse_date(eater["birth_date"], "birth_date")
    today = db.now().date()
    age = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
    if age < 21:
        raise Conflict("You must be 21 or older to order alcohol.")


def unit_price(db: Database, row: dict[str, Any], option_ids: list[str]) -> int:
    """One unit of an item with its chosen options, in cents."""
    prices = {o["id"]: o["price"] for o in options_of(db, row["modifier_group_ids"])}
    return int(row["price"] + sum(prices.get(option_id, 0) for option_id in option_ids))


def cart_lines(db: Database, eater_id: str) -> list[dict[str, Any]]:
    """The eater's cart lines, oldest first."""
    return db.find(cart_items, eater_id=eater_id, order_by=[cart_items.c.id])


def promotion(db: Database, code: str) -> dict[str, Any]:
    """A promotion by code (any case)."""
    found = db.select(promotions, "upper(code) = upper(?)", (code.strip(),), limit=1)
    if not found:
        raise NotFound(f"The promo code {code.strip().upper()} isn't valid.")
    return found[0]


def check_promotion(db: Database, eater: dict[str, Any], promo: dict[str, Any], store_id: str, subtotal: int) -> None:
    """Refuse a promotion this eater can't use on this cart."""
    now = iso_timestamp(db.now())
    code = promo["code"]
    if promo["starts_at"] > now or promo["expires_at"] <= now:
        raise Conflict(f"The promo code {code} has expired.")
    if promo["store_id"] is not None and promo["store_id"] != store_id:
        raise Conflict(f"The promo code {code} can't be used at this store.")
    if promo["uber_one_only"] and not eater["uber_one"]:
        raise Conflict(f"The promo code {code} is for Uber One members only.")
    used = db.select(
        orders, "eater_id = ? AND promo_code = ? AND current_state NOT IN (?, ?)", (eater["id"], code, *SPENT)
    )
    if len(used) >= promo["uses_per_eater"]:
        raise Conflict(f"You've already used the promo code {code}.")
    if promo["first_order_only"]:
        placed = db.select(orders, "eater_id = ? AND current_state NOT IN (?, ?)", (eater["id"], *SPENT), limit=1)
        if placed:
            raise Conflict(f"The promo code {code} is for your first order only.")
    if subtotal < promo["min_subtotal"]:
        raise Conflict(f"Add ${(promo['min_subtotal'] - subtotal) / 100:.2f} more to your cart to use {code}.")


def quote(
    db: Database,
    eater: dict[str, Any],
    row: dict[str, Any],
    subtotal: int,
    fulfillment_type: str,
    promo: dict[str, Any] | None,
    tip: int,
) -> dict[str, int]:
    """The price breakdown of a cart or order in cents."""
    delivery = fulfillment_type == "DELIVERY_BY_UBER"
    delivery_fee = row["delivery_fee"] if delivery else 0
    if delivery and eater["uber_one"] and row["uber_one_eligible"] and subtotal >= UBER_ONE_MIN_SUBTOTAL:
        delivery_fee = 0
    small = SMALL_ORDER_FEE if delivery and subtotal < SMALL_ORDER_LIMIT else 0
    service = max(MIN_SERVICE_FEE, subtotal * SERVICE_RATE // 100) if delivery else 0
    discount = 0
    if promo is not None:
        if promo["type"] == "FLATOFF":
            discount = min(promo["amount"], subtotal)
        elif promo["type"] == "PERCENTOFF":
            discount = subtotal * promo["amount"] // 100
            if promo["max_discount"] is not None:
                discount = min(discount, promo["max_discount"])
        else:
            discount = delivery_fee
    total = subtotal + delivery_fee + small + service - discount + tip
    return {
        "subtotal": subtotal,
        "delivery_fee": delivery_fee,
        "small_order_fee": small,
        "service_fee": service,
        "discount": discount,
        "tip": tip,
        "total": total,
    }


def check_fulfillment(row: dict[str, Any], fulfillment_type: str, place: dict[str, Any] | None, tip: int) -> None:
    """Delivery only inside the store's area; pick-up only where offered, and without a tip."""
    if fulfillment_type == "DELIVERY_BY_UBER":
        if place is None:
            raise InvalidRequest("Choose a delivery address (place_id) for a delivery order.")
        if place["neighborhood"] not in row["delivers_to"]:
            raise Conflict(f"{row['name']} doesn't deliver to {place['address']}.")
    else:
        if not row["pickup"]:
            raise Conflict(f"{row['name']} doesn't offer pick-up.")
        if tip:
            raise InvalidRequest("Pick-up orders can't include a tip.")


def cancel_refund(order: dict[str, Any]) -> int:
    """What cancelling refunds: everything before the store accepts; after, all but the food (less its discount)."""
    if order["current_state"] in ("SCHEDULED", "CREATED"):
        return int(order["total"])
    return int(order["total"] - (order["subtotal"] - order["discount"]))


def check_issue_window(db: Database, order: dict[str, Any]) -> None:
    """Issues are reported on finished orders within 3 days of delivery."""
    if order["current_state"] != "FINISHED":
        raise Conflict("You can report a problem once the order has been delivered.")
    delivered = parse_timestamp(order["delivered_at"], "delivered_at")
    if db.now() - delivered > ISSUE_WINDOW:
        raise Conflict("This order is too old to report a problem with it in the app.")


def display_id(db: Database) -> str:
    """The next short order code shown to the eater and the store."""
    return f"{0x4A000 + db.next_number('order_codes'):05X}"
