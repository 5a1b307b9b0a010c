"""Retailers and catalogs as a customer finds them: the stores serving a ZIP code, and one store's items matched by
name, brand or aisle (case and accents ignored), exact phrases first."""

from __future__ import annotations

import unicodedata
from typing import Any

from envfactory_gym import Database

from .objects import StoreObject
from .rules import store
from .schema import store_items, stores


def folded(text: str) -> str:
    """Text for matching searches: lower case, accents dropped (Häagen-Dazs matches haagen-dazs)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def retailers_for(db: Database, postal_code: str, fulfillment_type: str | None) -> list[StoreObject]:
    """The stores serving a ZIP code, by name; only those offering `fulfillment_type` when given."""
    found = []
    for row in db.find(stores, order_by=[stores.c.name]):
        if postal_code not in row["delivery_postal_codes"]:
            continue
        shop = store(db, row["location_code"])
        if fulfillment_type and not shop[f"{fulfillment_type}_available"]:
            continue
        found.append(StoreObject(**{k: shop[k] for k in StoreObject.model_fields}))
    return found


def search(
    db: Database, location_code: str, query: str, category: str | None, in_stock_only: bool
) -> list[dict[str, Any]]:
    """A store's items holding every query word in their name, brand or aisle; names with the whole phrase first."""
    words = folded(query).split()
    phrase = " ".join(words)
    matches = []
    for row in db.find(store_items, location_code=location_code, order_by=[store_items.c.name]):
        text = folded(f"{row['name']} {row['brand'] or ''} {row['category']}")
        if not all(w in text for w in words):
            continue
        if category is not None and row["category"].casefold() != category.strip().casefold():
            continue
        if in_stock_only and row["stock_level"] == "out_of_stock":
            continue
        matches.append(row)
    matches.sort(key=lambda r: phrase not in folded(r["name"]))
    return matches
