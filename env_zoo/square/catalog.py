"""The catalog's machinery: item search, variation upserts and turning requested line items into priced lines."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .errors import bad_request, conflict
from .rules import fetch, square_id
from .schema import items, modifier_lists, modifiers, variations


def _words(text: str) -> list[str]:
    return text.casefold().split()


def find_items(
    db: Database, text_filter: str, category_ids: list[str] | None, archived_state: str
) -> list[dict[str, Any]]:
    """Items whose name, description, variation names or SKUs hold every word of `text_filter`."""
    where, params = [], []
    if archived_state != "ARCHIVED_STATE_ALL":
        where.append("is_archived = ?")
        params.append(archived_state == "ARCHIVED_STATE_ARCHIVED")
    if category_ids:
        where.append(f"category_id IN ({', '.join('?' for _ in category_ids)})")
        params.extend(category_ids)
    rows = db.select(items, " AND ".join(where), params, order_by="name")
    words = _words(text_filter)
    if not words:
        return rows
    texts: dict[str, list[str]] = {}
    for variation in db.select(variations, "", []):
        texts.setdefault(variation["item_id"], []).extend([variation["name"], variation["sku"] or ""])
    found = []
    for row in rows:
        haystack = " ".join([row["name"], row["description"] or "", *texts.get(row["id"], [])]).casefold()
        if all(word in haystack for word in words):
            found.append(row)
    return found


def upsert_variation(
    db: Database,
    item_id: str,
    name: str,
    price: int,
    sku: str | None,
    variation_id: str | None,
    version: int | None,
) -> dict[str, Any]:
    """Create a variation of the item, or update one at its current version; the item's version rises too."""
    item = fetch(db, items, item_id, "item")
    if item["is_archived"]:
        raise bad_request("INVALID_VALUE", f"Item `{item_id}` is archived.", "item_id")
    siblings = db.find(variations, item_id=item_id)
    if any(v["name"].casefold() == name.casefold() and v["id"] != variation_id for v in siblings):
        raise bad_request("INVALID_VALUE", f"Item `{item_id}` already has a variation named `{name}`.", "name")
    now = db.now_iso()
    if variation_id is None:
        if version is not None:
            raise bad_request("INVALID_VALUE", "A new variation takes no version.", "version")
        row = db.insert(
            variations,
            id=square_id(db, variations, 24),
            item_id=item_id,
            name=name,
            sku=sku,
            ordinal=max((v["ordinal"] for v in siblings), default=-1) + 1,
            pricing_type="FIXED_PRICING",
            price_amount=price,
            currency="USD",
            version=1,
            updated_at=now,
        )
    else:
        current = fetch(db, variations, variation_id, "item variation")
        if current["item_id"] != item_id:
            raise bad_request("INVALID_VALUE", f"Variation `{variation_id}` belongs to another item.", "variation_id")
        if version is None:
            raise bad_request("MISSING_REQUIRED_PARAMETER", "Updating a variation requires its version.", "version")
        if version != current["version"]:
            raise conflict("VERSION_MISMATCH", "Object version does not match latest database version.", "version")
        row = db.update(
            variations,
            variation_id,
            name=name,
            sku=sku if sku is not None else current["sku"],
            pricing_type="FIXED_PRICING",
            price_amount=price,
            version=current["version"] + 1,
            updated_at=now,
        )
    db.update(items, item_id, version=item["version"] + 1)
    return row


def _modifier_lines(db: Database, item: dict[str, Any], modifier_ids: list[str], uid: str) -> list[dict[str, Any]]:
    """The line's modifiers, each from a list enabled on the item, at most one per SINGLE list."""
    chosen: dict[str, int] = {}
    lines = []
    for index, modifier_id in enumerate(modifier_ids):
        modifier = fetch(db, modifiers, modifier_id, "modifier")
        list_id = modifier["modifier_list_id"]
        if list_id not in item["modifier_list_ids"]:
            raise bad_request(
                "INVALID_VALUE",
                f"Modifier `{modifier['name']}` is not enabled on item `{item['name']}`.",
                "line_items.modifiers",
            )
        chosen[list_id] = chosen.get(list_id, 0) + 1
        modifier_list = db.get(modifier_lists, list_id)
        if modifier_list["selection_type"] == "SINGLE" and chosen[list_id] > 1:
            raise bad_request(
                "INVALID_VALUE",
                f"Modifier list `{modifier_list['name']}` allows only one selection.",
                "line_items.modifiers",
            )
        lines.append(
            {
                "uid": f"{uid}-m{index}",
                "catalog_object_id": modifier_id,
                "name": modifier["name"],
                "base_price_amount": modifier["price_amount"],
            }
        )
    return lines


def priced_line(db: Database, requested: Any, uid: str, location_id: str) -> dict[str, Any]:
    """A stored line item for a requested one: the catalog's name and price, or the ad hoc name and price."""
    given_price = requested.base_price_money.amount if requested.base_price_money else None
    if requested.catalog_object_id is None:
        if requested.name is None or given_price is None:
            raise bad_request(
                "MISSING_REQUIRED_PARAMETER",
                "An ad hoc line item needs a name and base_price_money.",
                "line_items.base_price_money",
            )
        if requested.modifier_ids:
            raise bad_request("INVALID_VALUE", "Ad hoc line items take no modifiers.", "line_items.modifiers")
        return {
            "uid": uid,
            "catalog_object_id": None,
            "name": requested.name,
            "variation_name": None,
            "quantity": requested.quantity,
            "base_price_amount": given_price,
            "modifiers": [],
            "note": requested.note,
        }
    variation = fetch(db, variations, requested.catalog_object_id, "item variation")
    item = db.get(items, variation["item_id"])
    if item["is_archived"]:
        raise bad_request("INVALID_VALUE", f"Item `{item['name']}` is archived.", "line_items.catalog_object_id")
    if item["present_at_location_ids"] is not None and location_id not in item["present_at_location_ids"]:
        raise bad_request(
            "INVALID_VALUE",
            f"Item `{item['name']}` is not sold at location `{location_id}`.",
            "line_items.catalog_object_id",
        )
    if variation["pricing_type"] == "VARIABLE_PRICING":
        if given_price is None:
            raise bad_request(
                "MISSING_REQUIRED_PARAMETER",
                f"`{item['name']} ({variation['name']})` is variably priced: base_price_money is required.",
                "line_items.base_price_money",
            )
        price = given_price
    else:
        if given_price is not None:
            raise bad_request(
                "INVALID_VALUE",
                "base_price_money cannot be set on a fixed-price catalog item.",
                "line_items.base_price_money",
            )
        price = variation["price_amount"]
    return {
        "uid": uid,
        "catalog_object_id": variation["id"],
        "name": item["name"],
        "variation_name": variation["name"],
        "quantity": requested.quantity,
        "base_price_amount": price,
        "modifiers": _modifier_lines(db, item, requested.modifier_ids, uid),
        "note": requested.note,
        "category_id": item["category_id"],
    }
