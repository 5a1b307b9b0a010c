"""The catalog side: products and variations as the API shows them, and the price and stock edits WooCommerce
accepts (a sale price below the regular price, a stock quantity only where stock is managed)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table

from envfactory_gym import Database
from envfactory_gym.values import minor_units

from .errors import refused
from .objects import ProductObject, TermRef, VariationObject, amount, product_object, variation_object
from .pricing import active_price, on_sale
from .rules import stock_status_for
from .schema import categories, products, tags, variations


def today(db: Database) -> str:
    """The shop's current day, YYYY-MM-DD."""
    return db.now_iso()[:10]


def terms(db: Database) -> dict[str, dict[int, TermRef]]:
    """Every category and tag by id, for product listings."""
    return {
        "categories": {r["id"]: TermRef(id=r["id"], name=r["name"], slug=r["slug"]) for r in db.find(categories)},
        "tags": {r["id"]: TermRef(id=r["id"], name=r["name"], slug=r["slug"]) for r in db.find(tags)},
    }


def show_product(
    db: Database, row: dict[str, Any], known: dict[str, dict[int, TermRef]] | None = None
) -> ProductObject:
    """A product row as the API returns it, with its variation ids."""
    rows = db.find(variations, product_id=row["id"], order_by=[variations.c.menu_order])
    shown = product_object(row, today(db), known or terms(db), [v["id"] for v in rows])
    if rows:  # a variable product shows its lowest variation price, on sale when any variation is
        shown.price = amount(min(active_price(v, today(db)) for v in rows))
        shown.on_sale = any(on_sale(v, today(db)) for v in rows)
    return shown


def show_variation(db: Database, row: dict[str, Any]) -> VariationObject:
    """A variation row as the API returns it."""
    return variation_object(row, today(db))


def cents(value: str | None, field: str) -> int | None:
    """A decimal amount string as cents; "" clears the value (None)."""
    if value is None or value == "":
        return None
    return minor_units(value, "USD", field)


def price_and_stock_changes(item: dict[str, Any], edits: dict[str, Any], code: str) -> dict[str, Any]:
    """The column changes a product or variation update asks for, checked the way WooCommerce checks them."""
    changes: dict[str, Any] = {}
    if edits["regular_price"] is not None:
        changes["regular_price"] = cents(edits["regular_price"], "regular_price")
    if edits["sale_price"] is not None:
        changes["sale_price"] = cents(edits["sale_price"], "sale_price")
        if changes["sale_price"] is None:
            changes["date_on_sale_from"] = changes["date_on_sale_to"] = None
    for field in ("date_on_sale_from", "date_on_sale_to"):
        if edits[field] is not None:
            changes[field] = edits[field] or None
    merged = {**item, **changes}
    if merged["sale_price"] is not None and merged["regular_price"] is not None:
        if merged["sale_price"] >= merged["regular_price"]:
            raise refused(code, "Please enter in a value less than the regular price.")
    if merged["date_on_sale_from"] and merged["date_on_sale_to"]:
        if merged["date_on_sale_to"] < merged["date_on_sale_from"]:
            raise refused(code, "The sale end date must be on or after its start date.")
    if edits["manage_stock"] is not None:
        changes["manage_stock"] = edits["manage_stock"]
    manage = changes.get("manage_stock", item["manage_stock"])
    if edits["stock_quantity"] is not None:
        if not manage:
            raise refused(code, "stock_quantity needs manage_stock set to true.")
        changes["stock_quantity"] = edits["stock_quantity"]
        changes["stock_status"] = stock_status_for(merged, edits["stock_quantity"])
    if edits["stock_status"] is not None:
        if manage:
            raise refused(code, "stock_status is set from the stock quantity while manage_stock is true.")
        changes["stock_status"] = edits["stock_status"]
    if (
        manage
        and "manage_stock" in changes
        and merged.get("stock_quantity") is None
        and "stock_quantity" not in changes
    ):
        changes["stock_quantity"] = 0
        changes["stock_status"] = stock_status_for(merged, 0)
    return changes


def update_priced(db: Database, table: Table, item: dict[str, Any], edits: dict[str, Any], code: str) -> dict[str, Any]:
    """Apply price and stock edits to a product or variation row and return it."""
    changes = price_and_stock_changes(item, edits, code)
    return db.update(table, item["id"], **changes) if changes else item


def term_counts(db: Database, column: str) -> dict[int, int]:
    """How many products each category (`category_ids`) or tag (`tag_ids`) holds."""
    counts: dict[int, int] = {}
    for row in db.find(products):
        for term in row[column]:
            counts[term] = counts.get(term, 0) + 1
    return counts


def slugify(name: str) -> str:
    """A term's slug: lower case words joined by dashes."""
    return "-".join("".join(c for c in word if c.isalnum()) for word in name.lower().split())
