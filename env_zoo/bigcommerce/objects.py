"""BigCommerce's API objects as the JSON the tools return (field names as in the v3 catalog, carts and checkouts
and the v2 orders APIs; money as decimal dollars), and how stored rows become them."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .rules import STATUSES, coupon_discount, refunded, shipped_quantities, shipping_options
from .schema import coupons, modifiers, price_lists, refunds, shipments, variants


def dollars(amount: int) -> float:
    """Cents as the API's decimal amount."""
    return round(amount / 100, 2)


def variant_object(row: dict[str, Any], product: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "product_id": row["product_id"],
        "sku": row["sku"],
        "price": dollars(row["price"]) if row["price"] is not None else None,
        "calculated_price": dollars(row["price"] if row["price"] is not None else product["price"]),
        "inventory_level": row["inventory_level"],
        "purchasing_disabled": row["purchasing_disabled"],
        "option_values": row["option_values"],
    }


def product_summary(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "sku": row["sku"],
        "brand": row["brand"],
        "price": dollars(row["price"]),
        "categories": row["categories"],
        "inventory_tracking": row["inventory_tracking"],
        "inventory_level": row["inventory_level"],
        "is_visible": row["is_visible"],
    }


def product_object(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """A product with its variants and modifiers (include=variants,modifiers)."""
    mods = db.find(modifiers, product_id=row["id"])
    return {
        **product_summary(row),
        "date_modified": row["date_modified"],
        "variants": [variant_object(v, row) for v in db.find(variants, product_id=row["id"])],
        "modifiers": [
            {
                "id": m["id"],
                "display_name": m["display_name"],
                "required": m["required"],
                "option_values": [
                    {"id": v["id"], "label": v["label"], "price_adjuster": dollars(v["price_adjuster"])}
                    for v in m["option_values"]
                ],
            }
            for m in mods
        ],
    }


def customer_object(row: dict[str, Any]) -> dict[str, Any]:
    return {k: row[k] for k in ("id", "first_name", "last_name", "email", "company", "phone", "customer_group_id")} | {
        "date_created": row["date_created"]
    }


def group_object(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    price_list = db.get(price_lists, row["price_list_id"]) if row["price_list_id"] else None
    return {
        "id": row["id"],
        "name": row["name"],
        "discount_rules": [{"type": "all", "method": "percent", "amount": str(row["discount_percent"])}]
        if row["discount_percent"]
        else [],
        "price_list_id": row["price_list_id"],
        "price_list_name": price_list["name"] if price_list else None,
        "price_list_active": price_list["active"] if price_list else None,
    }


def line_item_object(line: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": line["id"],
        "product_id": line["product_id"],
        "variant_id": line["variant_id"],
        "name": line["name"],
        "sku": line["sku"],
        "quantity": line["quantity"],
        "options": [{"name": m["name"], "value": m["label"]} for m in line["modifiers"]],
        "sale_price": dollars(line["unit_price"]),
        "extended_sale_price": dollars(line["unit_price"] * line["quantity"]),
    }


def cart_totals(db: Database, cart: dict[str, Any]) -> dict[str, int]:
    """Subtotal, coupon discount, shipping and grand total of a cart or checkout, in cents."""
    subtotal = sum(line["unit_price"] * line["quantity"] for line in cart["line_items"])
    discount = 0
    if cart["coupon_code"]:
        coupon = db.find(coupons, code=cart["coupon_code"])[0]
        discount = coupon_discount(coupon, subtotal)
    consignment = cart["consignment"] or {}
    shipping = (consignment.get("selected_shipping_option") or {}).get("cost", 0)
    return {"subtotal": subtotal, "discount": discount, "shipping": shipping, "total": subtotal - discount + shipping}


def checkout_object(db: Database, cart: dict[str, Any]) -> dict[str, Any]:
    """A checkout: its cart, coupon, billing address, consignment with its shipping quotes, and totals."""
    totals = cart_totals(db, cart)
    consignment = None
    if cart["consignment"]:
        stored = cart["consignment"]
        selected = stored.get("selected_shipping_option")
        consignment = {
            "id": stored["id"],
            "address": stored["address"],
            "line_item_ids": [line["id"] for line in cart["line_items"]],
            "available_shipping_options": [
                {**o, "cost": dollars(o["cost"])}
                for o in shipping_options(stored["address"]["country_code"], totals["subtotal"] - totals["discount"])
            ],
            "selected_shipping_option": {**selected, "cost": dollars(selected["cost"])} if selected else None,
        }
    return {
        "id": cart["id"],
        "cart": {
            "id": cart["id"],
            "customer_id": cart["customer_id"],
            "currency": {"code": "USD"},
            "line_items": {"physical_items": [line_item_object(line) for line in cart["line_items"]]},
            "base_amount": dollars(totals["subtotal"]),
        },
        "coupons": [{"code": cart["coupon_code"], "discounted_amount": dollars(totals["discount"])}]
        if cart["coupon_code"]
        else [],
        "billing_address": cart["billing_address"],
        "consignments": [consignment] if consignment else [],
        "subtotal_inc_tax": dollars(totals["subtotal"]),
        "shipping_cost_total_inc_tax": dollars(totals["shipping"]),
        "grand_total": dollars(totals["total"]),
        "order_id": cart["order_id"],
    }


def order_summary(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "customer_id": row["customer_id"],
        "status_id": row["status_id"],
        "status": STATUSES[row["status_id"]],
        "date_created": row["date_created"],
        "items_total": sum(p["quantity"] for p in row["products"]),
        "total_inc_tax": f"{row['total'] / 100:.4f}",
    }


def order_object(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """An order with its products (shipped and refunded units), shipments, refunds and what is left to refund."""
    shipped = shipped_quantities(db, row["id"])
    done_total, done_units, done_shipping = refunded(db, row["id"])
    return {
        **order_summary(row),
        "subtotal_inc_tax": f"{row['subtotal'] / 100:.4f}",
        "discount_amount": f"{row['discount_amount'] / 100:.4f}",
        "coupon_code": row["coupon_code"],
        "shipping_cost_inc_tax": f"{row['shipping_cost'] / 100:.4f}",
        "shipping_method": row["shipping_method"],
        "billing_address": row["billing_address"],
        "shipping_address": row["shipping_address"],
        "products": [
            {
                "id": p["id"],
                "product_id": p["product_id"],
                "variant_id": p["variant_id"],
                "name": p["name"],
                "sku": p["sku"],
                "quantity": p["quantity"],
                "price_inc_tax": f"{p['price'] / 100:.4f}",
                "quantity_shipped": shipped.get(p["id"], 0),
                "quantity_refunded": done_units.get(p["id"], 0),
            }
            for p in row["products"]
        ],
        "shipments": [
            {k: s[k] for k in ("id", "tracking_number", "shipping_provider", "items", "date_created")}
            for s in db.find(shipments, order_id=row["id"])
        ],
        "refunds": [
            {"id": r["id"], "total_amount": dollars(r["total_amount"]), "reason": r["reason"], "created": r["created"]}
            for r in db.find(refunds, order_id=row["id"])
        ],
        "refunded_amount": f"{done_total / 100:.4f}",
        "refundable_amount": f"{(row['total'] - done_total) / 100:.4f}",
        "refundable_shipping": f"{(row['shipping_cost'] - done_shipping) / 100:.4f}",
    }


def page(rows: list[dict[str, Any]], page_number: int, limit: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """One page of rows and the `meta.pagination` block (page numbers from 1)."""
    start = (page_number - 1) * limit
    total = len(rows)
    return rows[start : start + limit], {
        "total": total,
        "count": len(rows[start : start + limit]),
        "per_page": limit,
        "current_page": page_number,
        "total_pages": max(1, -(-total // limit)),
    }
