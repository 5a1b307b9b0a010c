"""The catalog's writes and searches: product and variant updates under the product's inventory_tracking mode,
and price list records."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import unprocessable
from .rules import fetch
from .schema import price_lists, price_records, products, variants


def find_products(db: Database, keyword: str, category_id: int | None, sku: str | None) -> list[dict[str, Any]]:
    """Products whose name, brand or SKU (a variant's included) holds every word of `keyword`, by name."""
    rows = db.select(products, order_by="name")
    words = keyword.lower().split()
    skus: dict[int, str] = {}
    for variant in db.select(variants):
        skus[variant["product_id"]] = skus.get(variant["product_id"], "") + " " + variant["sku"].lower()
    found = []
    for row in rows:
        haystack = f"{row['name']} {row['brand']} {row['sku']}".lower() + skus.get(row["id"], "")
        if any(w not in haystack for w in words):
            continue
        if category_id is not None and category_id not in row["categories"]:
            continue
        if sku is not None and sku.lower() not in [row["sku"].lower(), *skus.get(row["id"], "").split()]:
            continue
        found.append(row)
    return found


def update_product(
    db: Database,
    product_id: int,
    price: int | None,
    inventory_tracking: str | None,
    inventory_level: int | None,
    is_visible: bool | None,
) -> dict[str, Any]:
    product = fetch(db, products, product_id, "product")
    tracking = inventory_tracking or product["inventory_tracking"]
    if tracking == "variant" and len(db.find(variants, product_id=product_id)) < 2:
        raise unprocessable(
            "inventory_tracking 'variant' needs a product with options (variants beyond its base variant).",
            "inventory_tracking",
        )
    if inventory_level is not None and tracking != "product":
        raise unprocessable(
            "inventory_level can only be set on the product when inventory_tracking is 'product' "
            f"(it is '{tracking}').",
            "inventory_level",
        )
    changes: dict[str, Any] = {"inventory_tracking": tracking, "date_modified": db.now_iso()}
    if price is not None:
        changes["price"] = price
    if inventory_level is not None:
        changes["inventory_level"] = inventory_level
    if is_visible is not None:
        changes["is_visible"] = is_visible
    return db.update(products, product_id, **changes)


def update_variant(
    db: Database,
    product_id: int,
    variant_id: int,
    price: int | None,
    inventory_level: int | None,
    purchasing_disabled: bool | None,
) -> dict[str, Any]:
    product = fetch(db, products, product_id, "product")
    variant = fetch(db, variants, variant_id, "variant")
    if variant["product_id"] != product_id:
        raise unprocessable(f"Variant {variant_id} does not belong to product {product_id}.", "variant_id")
    if inventory_level is not None and product["inventory_tracking"] != "variant":
        raise unprocessable(
            "Variant inventory_level can only be set when the product's inventory_tracking is 'variant' "
            f"(it is '{product['inventory_tracking']}').",
            "inventory_level",
        )
    changes: dict[str, Any] = {}
    if price is not None:
        changes["price"] = price
    if inventory_level is not None:
        changes["inventory_level"] = inventory_level
    if purchasing_disabled is not None:
        changes["purchasing_disabled"] = purchasing_disabled
    if not changes:
        raise unprocessable("Nothing to update: give a price, inventory_level or purchasing_disabled.", "body")
    db.update(products, product_id, date_modified=db.now_iso())
    return db.update(variants, variant_id, **changes)


def set_price_record(db: Database, price_list_id: int, variant_id: int, price: int) -> dict[str, Any]:
    fetch(db, price_lists, price_list_id, "price list")
    fetch(db, variants, variant_id, "variant")
    existing = db.find(price_records, price_list_id=price_list_id, variant_id=variant_id)
    if existing:
        return db.update(price_records, existing[0]["id"], price=price)
    return db.insert(
        price_records,
        id=db.next_number("price_record", price_records),
        price_list_id=price_list_id,
        variant_id=variant_id,
        price=price,
    )
