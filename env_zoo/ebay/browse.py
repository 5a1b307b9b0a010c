"""Browse search: eBay's keyword matching (every word in the title or brand, minus words like "and"), its filters
and its sort orders."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .orders import options_of
from .rules import effective_price, has_ended
from .schema import items

STOP_WORDS = {"a", "an", "and", "the", "of", "with", "for", "in", "on"}
CONDITION_GROUPS: dict[str, str] = {
    "1000": "NEW",
    "1500": "NEW",
    "2000": "CERTIFIED_REFURBISHED",
    "2010": "CERTIFIED_REFURBISHED",
    "2020": "CERTIFIED_REFURBISHED",
    "2030": "CERTIFIED_REFURBISHED",
    "2500": "SELLER_REFURBISHED",
    "2750": "USED",
    "3000": "USED",
    "4000": "USED",
    "5000": "USED",
    "6000": "USED",
    "7000": "FOR_PARTS_OR_NOT_WORKING",
}


def keywords(q: str | None) -> list[str]:
    """The words of a query that must match (eBay ignores words like "and", "the", "with")."""
    return [w for w in (q or "").casefold().replace("&", " ").split() if w not in STOP_WORDS]


def _matches(item: dict[str, Any], words: list[str]) -> bool:
    text = f"{item['title']} {item['brand'] or ''}".casefold()
    return all(word in text for word in words)


def find_listings(
    db: Database,
    q: str | None,
    category_id: str | None,
    conditions: list[str] | None,
    buying_options: list[str] | None,
    low: int | None,
    high: int | None,
    free_shipping: bool,
) -> list[dict[str, Any]]:
    """Active listings matching the keywords and every filter given (prices in cents, on the effective price)."""
    words = keywords(q)
    equals = {"listing_status": "ACTIVE", **({"category_id": category_id.strip()} if category_id else {})}
    found = []
    for item in db.find(items, **equals):
        if has_ended(db, item) or not _matches(item, words):
            continue
        if conditions and CONDITION_GROUPS.get(item["condition_id"]) not in conditions:
            continue
        if buying_options and not set(buying_options) & set(item["buying_options"]):
            continue
        price = effective_price(item)
        if (low is not None and price < low) or (high is not None and price > high):
            continue
        if free_shipping and not any(o["cost"] == 0 for o in options_of(db, item["item_id"])):
            continue
        found.append(item)
    return found


def sort_listings(db: Database, found: list[dict[str, Any]], sort: str) -> list[dict[str, Any]]:
    """Listings in eBay's sort order ("price" counts the cheapest shipping too); ties by item ID."""

    def with_shipping(item: dict[str, Any]) -> int:
        options = options_of(db, item["item_id"])
        return effective_price(item) + (options[0]["cost"] if options else 0)

    key, descending = {
        "BEST_MATCH": (lambda i: i["watch_count"], True),
        "price": (with_shipping, False),
        "-price": (with_shipping, True),
        "newlyListed": (lambda i: i["item_creation_date"], True),
        "endingSoonest": (lambda i: i["item_end_date"] or "9999", False),
    }[sort]
    return sorted(sorted(found, key=lambda i: i["item_id"]), key=key, reverse=descending)
