"""Vinted's business rules: Buyer Protection fee, bundle discounts, shipping prices by carrier and parcel size,
the seller's 5 working days to ship, the buyer's 2-day window after delivery, and fresh integer ids."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Table

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound
from envfactory_gym.values import format_amount, parse_timestamp

from .schema import brands, items, members

CURRENCY = "GBP"
PROTECTION_FIXED = 70  # pence per order
PROTECTION_PERCENT = 5  # of the price paid for the items
ISSUE_WINDOW = timedelta(days=2)
SHIP_WORKING_DAYS = 5
SIZES = ("small", "medium", "large")
# pence by parcel size; which delivery types each carrier offers
SHIPPING: dict[str, dict[str, int]] = {
    "Evri": {"small": 289, "medium": 399, "large": 599},
    "InPost": {"small": 279, "medium": 349, "large": 549},
    "Royal Mail": {"small": 335, "medium": 459, "large": 699},
    "Yodel": {"small": 299, "medium": 419, "large": 629},
}
DELIVERY_TYPES: dict[str, tuple[str, ...]] = {
    "Evri": ("pickup_point", "home"),
    "InPost": ("pickup_point",),
    "Royal Mail": ("home",),
    "Yodel": ("pickup_point", "home"),
}
HOME_SURCHARGE = 100  # pence, Evri and Yodel to the door instead of a ParcelShop
BUYABLE = ("active", "reserved")


def gbp(pence: int) -> str:
    """Pence as the decimal amount the app shows, e.g. "12.50"."""
    return format_amount(pence, CURRENCY)


def protection_fee(price: int) -> int:
    """Buyer Protection: a fixed 70p plus 5% of the price paid for the items (shipping excluded), rounded."""
    return PROTECTION_FIXED + (price * PROTECTION_PERCENT + 50) // 100


def bundle_percent(seller: dict[str, Any], count: int) -> int:
    """The seller's bundle discount for `count` items: the highest tier at or below the count, 0 without one."""
    tiers = seller["bundle_discount"] or {}
    eligible = [int(size) for size in tiers if int(size) <= count]
    return tiers[str(max(eligible))] if eligible and count >= 2 else 0


def asking_price(seller: dict[str, Any], rows: list[dict[str, Any]]) -> tuple[int, int]:
    """(items price, bundle discount) in pence for buying these items together."""
    total = sum(row["price"] for row in rows)
    return total, total * bundle_percent(seller, len(rows)) // 100


def parcel_size(rows: list[dict[str, Any]]) -> str:
    """A bundle travels in one parcel: the largest item's size, one size up from four items."""
    index = max(SIZES.index(row["package_size"]) for row in rows)
    if len(rows) >= 4:
        index = min(index + 1, len(SIZES) - 1)
    return SIZES[index]


def shipping_fee(seller: dict[str, Any], carrier: str, delivery_type: str, size: str) -> int:
    """What the buyer pays to ship a parcel of `size` with `carrier`, which the seller must offer."""
    if carrier not in seller["carriers"]:
        offered = ", ".join(seller["carriers"])
        raise InvalidRequest(f"{seller['login']} doesn't ship with {carrier}. Choose one of: {offered}.")
    if delivery_type not in DELIVERY_TYPES[carrier]:
        raise InvalidRequest(f"{carrier} doesn't offer {delivery_type.replace('_', ' ')} delivery.")
    extra = HOME_SURCHARGE if delivery_type == "home" and len(DELIVERY_TYPES[carrier]) > 1 else 0
    return SHIPPING[carrier][size] + extra


def ship_by(paid: datetime) -> datetime:
    """5 working days (Monday to Friday) after payment."""
    moment, left = paid, SHIP_WORKING_DAYS
    while left:
        moment += timedelta(days=1)
        if moment.weekday() < 5:
            left -= 1
    return moment


def live_status(db: Database, order: dict[str, Any]) -> str:
    """The order's status now: a delivered order nobody reported an issue on completes after 2 days."""
    if order["status"] == "delivered" and db.now() >= delivered_at(order) + ISSUE_WINDOW:
        return "completed"
    return order["status"]


def delivered_at(order: dict[str, Any]) -> datetime:
    return parse_timestamp(order["delivered_at"], "delivered_at")


def next_id(db: Database, table: Table, floor: int) -> int:
    """The next integer id of `table` (ids only grow), at least `floor`."""
    top = db.select(table, "", (), order_by="id DESC", limit=1)
    return max(floor, top[0]["id"] + 1 if top else floor)


def item(db: Database, item_id: int) -> dict[str, Any]:
    return db.find_one(items, id=item_id, not_found=f"Item {item_id} not found.")


def member(db: Database, member_id: int) -> dict[str, Any]:
    return db.get(members, member_id, "Member")


def member_by_login(db: Database, login: str) -> dict[str, Any]:
    found = db.select(members, "lower(login) = ?", (login.strip().lower(),))
    if not found:
        raise NotFound(f"Member {login} not found.")
    return found[0]


def brand_title(db: Database, brand_id: int | None) -> str | None:
    return None if brand_id is None else db.get(brands, brand_id, "Brand")["title"]


def basket(db: Database, buyer: dict[str, Any], item_ids: list[int]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The seller and the items of a purchase or offer: one seller's items, none the buyer's own, all for sale."""
    if len(set(item_ids)) != len(item_ids):
        raise InvalidRequest("The same item is listed twice.")
    rows = [item(db, item_id) for item_id in item_ids]
    sellers = {row["user_id"] for row in rows}
    if len(sellers) > 1:
        raise InvalidRequest("A bundle can only hold items from one member's wardrobe.")
    seller = member(db, rows[0]["user_id"])
    if seller["id"] == buyer["id"]:
        raise Conflict("You can't buy or make an offer on your own item.")
    if seller["is_on_holiday"]:
        raise Conflict(f"{seller['login']} is on holiday; their items can't be bought right now.")
    for row in rows:
        if row["status"] == "sold":
            raise Conflict(f"Item {row['id']} has already been sold.")
        if row["status"] == "hidden":
            raise NotFound(f"Item {row['id']} not found.")
        if row["status"] == "reserved" and row["reserved_for"] != buyer["id"]:
            raise Conflict(f"Item {row['id']} is reserved for another member.")
    return seller, rows


def check_tiers(two: int, three: int, five: int) -> None:
    if not two <= three <= five:
        raise InvalidRequest("Bundle discounts must not get smaller for bigger bundles.")


def tracking_number(carrier: str, order_id: int) -> str:
    """A label's tracking number in the carrier's style."""
    if carrier == "Royal Mail":
        return f"VT{order_id % 100000000:08d}GB"
    if carrier == "InPost":
        return f"6{order_id:023d}"
    if carrier == "Evri":
        return f"H01{order_id:013d}"
    return f"JJD00{order_id:013d}"
