"""Listings Items submissions: putListingsItem (create or fully replace a SKU's listing, offer-only on an
existing ASIN or a new product), patchListingsItem (add, replace or delete attributes, optionally as a
VALIDATION_PREVIEW) and deleteListingsItem. A submission either is ACCEPTED and applied, or comes back INVALID
with its issues and changes nothing."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .access import seller_id
from .rules import FBA, fba_row, price_issue
from .schema import catalog_items, inventory, listing_issues, listings, restrictions

ATTRIBUTE_OF_PATH = {
    "/attributes/item_name": "item_name",
    "/attributes/brand": "brand",
    "/attributes/bullet_point": "bullet_point",
    "/attributes/condition_type": "condition_type",
    "/attributes/purchasable_offer": "purchasable_offer",
    "/attributes/fulfillment_availability": "fulfillment_availability",
}
CONDITIONS = ("new_new", "used_like_new", "used_very_good", "used_good", "used_acceptable")


def issue(code: str, message: str, attribute: str, category: str) -> dict[str, Any]:
    return {
        "code": code,
        "message": message,
        "severity": "ERROR",
        "attributeNames": [attribute],
        "categories": [category],
    }


def response(db: Database, sku: str, issues: list[dict[str, Any]]) -> dict[str, Any]:
    """A ListingsItemSubmissionResponse (INVALID when any issue came up)."""
    number = db.next_number("submission")
    return {
        "sku": sku,
        "status": "INVALID" if issues else "ACCEPTED",
        "submissionId": f"{number:08x}-5f1e-4c2a-9b7d-a3c0e{number:07d}",
        "issues": issues,
    }


def cents(amount: Any) -> int:
    return int(round(float(amount) * 100))


def restriction_issues(db: Database, asin: str, marketplace_id: str, condition: str) -> list[dict[str, Any]]:
    """Listings Restrictions that keep this seller from offering the ASIN in this condition."""
    found = db.find(restrictions, asin=asin, marketplace_id=marketplace_id, condition_type=condition)
    return [issue("5665", r["message"], "merchant_suggested_asin", "QUALIFICATION_REQUIRED") for r in found]


def put(db: Database, sku: str, marketplace_id: str, product_type: str, requirements: str, a: dict[str, Any]) -> dict:
    """Create the SKU's listing, or replace it whole when it exists on the same ASIN."""
    me = seller_id(db)
    issues: list[dict[str, Any]] = []
    asin = a.get("merchant_suggested_asin")
    item_name, brand = a.get("item_name"), a.get("brand")
    existing = db.find(listings, seller_id=me, sku=sku, marketplace_id=marketplace_id)
    if asin:
        found = db.find(catalog_items, asin=asin)
        if not found:
            return response(
                db,
                sku,
                [
                    issue(
                        "4000003",
                        f"ASIN {asin} was not found in the Amazon catalog.",
                        "merchant_suggested_asin",
                        "INVALID_ATTRIBUTE",
                    )
                ],
            )
        item_name, brand = item_name or found[0]["title"], brand or found[0]["brand"]
        issues += restriction_issues(db, asin, marketplace_id, a["condition_type"])
    elif requirements == "LISTING_OFFER_ONLY":
        issues.append(
            issue(
                "90220",
                "'merchant_suggested_asin' is required but not supplied.",
                "merchant_suggested_asin",
                "MISSING_ATTRIBUTE",
            )
        )
    for name, value in (("item_name", item_name), ("brand", brand)):
        if not value:
            issues.append(issue("90220", f"'{name}' is required but not supplied.", name, "MISSING_ATTRIBUTE"))
    if existing and asin and existing[0]["asin"] != asin:
        issues.append(
            issue(
                "8541",
                f"SKU '{sku}' is already matched to ASIN {existing[0]['asin']}; the submitted "
                f"ASIN {asin} conflicts with it.",
                "merchant_suggested_asin",
                "INVALID_ATTRIBUTE",
            )
        )
    price, low, high = (
        cents(a["our_price"]),
        a.get("minimum_seller_allowed_price"),
        a.get("maximum_seller_allowed_price"),
    )
    low, high = (cents(low) if low is not None else None), (cents(high) if high is not None else None)
    why = price_issue(price, low, high)
    if why:
        issues.append(issue("90244", why, "purchasable_offer", "INVALID_PRICE"))
    if issues:
        return response(db, sku, issues)
    values = {
        "asin": asin or (existing[0]["asin"] if existing else f"B0{db.next_number('asin') + 0xD4A000:08X}"),
        "product_type": product_type,
        "item_name": item_name,
        "brand": brand,
        "bullet_points": list(a.get("bullet_points") or []),
        "condition_type": a["condition_type"],
        "fulfillment_channel": a["fulfillment_channel_code"],
        "price": price,
        "min_price": low,
        "max_price": high,
        "quantity": (a.get("quantity") or 0) if a["fulfillment_channel_code"] != FBA else 0,
        "last_updated_date": db.now_iso(),
    }
    if existing:
        for old in db.find(listing_issues, listing_id=existing[0]["id"]):
            db.delete(listing_issues, old["id"])
        row = db.update(listings, existing[0]["id"], **values)
    else:
        row = db.insert(
            listings, seller_id=me, marketplace_id=marketplace_id, sku=sku, created_date=db.now_iso(), **values
        )
    if row["fulfillment_channel"] == FBA and fba_row(db, row) is None:
        db.insert(
            inventory,
            seller_id=me,
            marketplace_id=marketplace_id,
            sku=sku,
            asin=row["asin"],
            fnsku=f"X00{db.next_number('fnsku') + 0x5B2C00:07X}",
            fulfillable=0,
            inbound_working=0,
            inbound_shipped=0,
            inbound_receiving=0,
            reserved=0,
            unfulfillable=0,
            last_updated_time=db.now_iso(),
        )
    return response(db, sku, [])


def patch_changes(row: dict[str, Any], patches: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict], set[str]]:
    """The column changes a list of patch operations asks for, the issues they raise and the attributes touched."""
    changes: dict[str, Any] = {}
    issues: list[dict[str, Any]] = []
    touched: set[str] = set()
    for p in patches:
        attribute = ATTRIBUTE_OF_PATH[p["path"]]
        touched.add(attribute)
        values = p.get("value") or []
        if p["op"] != "delete" and not values:
            issues.append(
                issue("4000001", f"A value is required to {p['op']} {p['path']}.", attribute, "INVALID_ATTRIBUTE")
            )
            continue
        first = values[0] if values else {}
        if attribute in ("item_name", "brand"):
            if p["op"] == "delete" or not first.get("value"):
                issues.append(
                    issue("90220", f"'{attribute}' is required but not supplied.", attribute, "MISSING_ATTRIBUTE")
                )
            else:
                changes[attribute] = first["value"]
        elif attribute == "bullet_point":
            changes["bullet_points"] = [] if p["op"] == "delete" else [v["value"] for v in values if v.get("value")]
        elif attribute == "condition_type":
            if p["op"] == "delete" or first.get("value") not in CONDITIONS:
                issues.append(
                    issue(
                        "8115",
                        f"condition_type must be one of {', '.join(CONDITIONS)}.",
                        attribute,
                        "INVALID_ATTRIBUTE",
                    )
                )
            else:
                changes["condition_type"] = first["value"]
        elif attribute == "purchasable_offer":
            if p["op"] == "delete":
                changes["price"] = None
                continue
            for key, column in (
                ("our_price", "price"),
                ("minimum_seller_allowed_price", "min_price"),
                ("maximum_seller_allowed_price", "max_price"),
            ):
                if first.get(key) is not None:
                    changes[column] = cents(first[key])
        else:
            if row["fulfillment_channel"] == FBA:
                issues.append(
                    issue(
                        "4000002",
                        f"SKU '{row['sku']}' is fulfilled by Amazon: its quantity comes from "
                        "FBA inventory and fulfillment_availability cannot be set.",
                        attribute,
                        "INVALID_ATTRIBUTE",
                    )
                )
            elif p["op"] == "delete" or first.get("quantity") is None:
                changes["quantity"] = 0
            else:
                changes["quantity"] = first["quantity"]
    merged = row | changes
    why = price_issue(merged["price"], merged["min_price"], merged["max_price"])
    if why and touched & {"purchasable_offer"}:
        issues.append(issue("90244", why, "purchasable_offer", "INVALID_PRICE"))
    return changes, issues, touched


def patch(db: Database, row: dict[str, Any], patches: list[dict[str, Any]], preview: bool) -> dict[str, Any]:
    """Apply the patches when they raise no issue and this is no preview; issues on touched attributes clear."""
    changes, issues, touched = patch_changes(row, patches)
    if issues or preview:
        return response(db, row["sku"], issues)
    db.update(listings, row["id"], last_updated_date=db.now_iso(), **changes)
    for old in db.find(listing_issues, listing_id=row["id"]):
        if old["attribute_name"] in touched:
            db.delete(listing_issues, old["id"])
    return response(db, row["sku"], [])
