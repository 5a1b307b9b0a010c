"""eBay's buyer rules shared by the tools: money and dates, the signed-in buyer, listing state, where sellers
ship, sales tax, delivery estimates and Best Offer limits."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from envfactory_gym import Conflict, Database, PermissionDenied
from envfactory_gym.values import format_amount, format_money, iso_timestamp, parse_timestamp

from .schema import best_offers, items, line_items, purchase_orders

OFFER_HOURS = 48
MAX_OFFERS_PER_ITEM = 5
#: US sales tax eBay collects and remits for the buyer's state (state base rates).
SALES_TAX = {
    "CA": "0.0725",
    "CO": "0.029",
    "FL": "0.06",
    "GA": "0.04",
    "IL": "0.0625",
    "MA": "0.0625",
    "MI": "0.06",
    "MN": "0.06875",
    "NJ": "0.06625",
    "NY": "0.04",
    "NC": "0.0475",
    "OH": "0.0575",
    "PA": "0.06",
    "TX": "0.0625",
    "WA": "0.065",
    "AZ": "0.056",
    "TN": "0.07",
    "HI": "0.04",
    "AK": "0",
    "OR": "0",
    "MT": "0",
    "NH": "0",
    "DE": "0",
}


# ---------------------------------------------------------------- money and dates


def dollars(cents: int) -> str:
    """Cents as eBay's amount value, e.g. 2499 -> "24.99"."""
    return format_amount(cents, "USD")


def usd(cents: int) -> str:
    """Cents as a buyer reads them, e.g. 2499 -> "$24.99"."""
    return format_money(cents, "USD", {"USD": "$"})


def percent_of(cents: int, rate: str) -> int:
    """A rate applied to cents, rounded half up."""
    return int((Decimal(cents) * Decimal(rate)).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def moment(value: str) -> datetime:
    """A stored ISO timestamp ("2025-06-18T17:00:00Z") as an aware datetime."""
    return parse_timestamp(value, "timestamp")


def later(db: Database, hours: int) -> str:
    """A timestamp `hours` from now."""
    return iso_timestamp(db.now() + timedelta(hours=hours))


def today(db: Database) -> date:
    """The simulated date (UTC)."""
    return db.now().date()


# ---------------------------------------------------------------- listings


def listing(db: Database, item_id: str) -> dict[str, Any]:
    """A listing by its RESTful item ID (v1|<legacy item number>|0)."""
    return db.find_one(items, item_id=item_id.strip(), not_found=f"The item {item_id} was not found.")


def has_ended(db: Database, item: dict[str, Any]) -> bool:
    """Sold out, ended by the seller, or past its end time."""
    if item["listing_status"] != "ACTIVE":
        return True
    return item["item_end_date"] is not None and moment(item["item_end_date"]) <= db.now()


def require_active(db: Database, item: dict[str, Any]) -> None:
    """Raise unless the listing can still be bought, bid on or watched."""
    if has_ended(db, item):
        raise Conflict(f"This listing has ended: '{item['title']}' is no longer available.")


def is_auction(item: dict[str, Any]) -> bool:
    """Whether the listing is an auction (with or without Buy It Now)."""
    return "AUCTION" in item["buying_options"]


def effective_price(item: dict[str, Any]) -> int:
    """What the listing costs now: the current bid of an auction with bids, else the Buy It Now price."""
    if is_auction(item) and (item["bid_count"] or item["price"] is None):
        return item["current_price"]
    return item["price"]


def check_ships_to(item: dict[str, Any], address: dict[str, Any]) -> None:
    """Sellers block buyers where they don't ship (PermissionDenied)."""
    regions = item["ship_to_locations"]
    included = regions.get("regionIncluded", [])
    excluded = regions.get("regionExcluded", [])
    place = address["stateOrProvince"] if address["country"] == "US" else address["country"]
    if (
        ("WORLDWIDE" not in included and address["country"] not in included)
        or place in excluded
        or address["country"] in excluded
    ):
        raise PermissionDenied(f"The seller of '{item['title']}' doesn't ship to {place}, {address['country']}.")


def sales_tax(address: dict[str, Any], taxable: int) -> int:
    """The sales tax eBay collects on items and shipping for the buyer's state."""
    if address["country"] != "US":
        return 0
    return percent_of(taxable, SALES_TAX.get(address["stateOrProvince"], "0.06"))


def delivery_window(db: Database, item: dict[str, Any], option: dict[str, Any]) -> tuple[str, str]:
    """Estimated delivery dates: handling time plus the service's transit days, from today."""
    start = today(db) + timedelta(days=item["handling_time_days"])
    return (
        str(start + timedelta(days=option["min_transit_days"])),
        str(start + timedelta(days=option["max_transit_days"])),
    )


def bought_before(db: Database, buyer: dict[str, Any], item_id: str) -> int:
    """Units of a listing the buyer already bought (orders not cancelled)."""
    orders = {
        o["purchase_order_id"]
        for o in db.find(purchase_orders, buyer=buyer["username"])
        if o["purchase_order_status"] != "CANCELLED"
    }
    return sum(li["quantity"] for li in db.find(line_items, item_id=item_id) if li["purchase_order_id"] in orders)


def check_quantity(db: Database, buyer: dict[str, Any], item: dict[str, Any], quantity: int) -> None:
    """Quantity available and the seller's per-buyer limit."""
    if quantity > item["quantity"]:
        raise Conflict(f"Only {item['quantity']} available for '{item['title']}'.")
    limit = item["quantity_limit_per_buyer"]
    if limit is not None and bought_before(db, buyer, item["item_id"]) + quantity > limit:
        raise Conflict(f"The seller limits '{item['title']}' to {limit} per buyer.")


# ---------------------------------------------------------------- Best Offers


def offer_status(db: Database, offer: dict[str, Any]) -> str:
    """The offer's status, with pending offers and counteroffers past their 48 hours as EXPIRED."""
    if offer["status"] in ("PENDING", "COUNTERED") and moment(offer["expiration"]) <= db.now():
        return "EXPIRED"
    return offer["status"]


def check_offer_allowed(db: Database, buyer: dict[str, Any], item: dict[str, Any]) -> None:
    """One active offer per item, and at most five offers per item (each offer the buyer made counts, declined
    or expired ones too)."""
    mine = db.find(best_offers, item_id=item["item_id"], buyer=buyer["username"])
    if any(offer_status(db, o) in ("PENDING", "COUNTERED") for o in mine):
        raise Conflict(
            "You already have an active offer on this item; wait for the seller or answer their counteroffer."
        )
    if len(mine) >= MAX_OFFERS_PER_ITEM:
        raise Conflict(f"You've reached the maximum of {MAX_OFFERS_PER_ITEM} offers for this item.")


def seller_decision(item: dict[str, Any], price: int) -> str:
    """The seller's automatic answer to an offer: ACCEPTED, DECLINED, or PENDING for the seller to review."""
    if item["auto_accept_price"] is not None and price >= item["auto_accept_price"]:
        return "ACCEPTED"
    if item["auto_decline_price"] is not None and price < item["auto_decline_price"]:
        return "DECLINED"
    return "PENDING"
