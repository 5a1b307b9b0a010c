"""The store's rules: money in cents printed as Shopify's decimal strings, stock and pre-orders, discount codes,
shipping rates, and the 30-day return window."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, ToolError
from envfactory_gym.values import minor_units, parse_timestamp

from .schema import discount_codes, orders, products, variants

CURRENCY = "USD"
STANDARD_RATE = 695
EXPRESS_RATE = 1495
FREE_SHIPPING_OVER = 7500
RETURN_WINDOW = timedelta(days=30)
SHIPS_TO = ("US", "CA")
FINAL_SALE_TAG = "final-sale"
STORE_DOMAIN = "alder-and-pine.myshopify.com"
GATEWAY = "shopify_payments"


# ---------------------------------------------------------------- money


def cents(amount: str, name: str = "amount") -> int:
    """A decimal string in USD ("12.50") as cents (1250)."""
    return minor_units(amount, CURRENCY, name)


def money(amount: int) -> str:
    """Cents as Shopify's REST API prints money: a bare decimal string with two places, "1234.50" (not
    values.format_money's "$1,234.50", which is how people read it)."""
    sign = "-" if amount < 0 else ""
    return f"{sign}{abs(amount) // 100}.{abs(amount) % 100:02d}"


def share(amount: int, part: int, whole: int) -> int:
    """`amount * part / whole` in cents, rounded half up (`amount`, `part` >= 0, `whole` > 0)."""
    return (2 * amount * part + whole) // (2 * whole)


def percent_of(amount: int, percent: str) -> int:
    """`percent` ("15.0") of `amount` cents, rounded half up to the cent."""
    return int((Decimal(amount) * Decimal(percent) / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def moment(text: str) -> datetime:
    """A stored timestamp as an aware UTC datetime."""
    return parse_timestamp(text, "timestamp")


# ---------------------------------------------------------------- catalog and stock


def label(product: dict[str, Any], variant: dict[str, Any]) -> str:
    """How the store names a variant: "Ridge Beanie - Forest", or the product's title alone."""
    return product["title"] if variant["title"] == "Default Title" else f"{product['title']} - {variant['title']}"


def available_for_sale(variant: dict[str, Any]) -> bool:
    """In stock, or out of stock but open to pre-orders."""
    return variant["inventory_quantity"] > 0 or variant["inventory_policy"] == "continue"


def sellable_variant(db: Database, variant_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A variant of a product sold online (active), with its product."""
    found = db.find(variants, id=variant_id)
    product = db.get(products, found[0]["product_id"]) if found else None
    if product is None or product["status"] != "active":
        raise NotFound(f"The merchandise with id {variant_id} does not exist.")
    return found[0], product


def find_products(
    db: Database, query: str, product_type: str | None, available_only: bool
) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Active products (by title) whose title, vendor, type, tags, variant titles or SKUs hold every word of the
    query, each with its variants in position order."""
    words = query.casefold().split()
    wanted_type = product_type.casefold() if product_type else None
    by_product: dict[str, list[dict[str, Any]]] = {}
    for variant in db.find(variants, order_by=[variants.c.product_id, variants.c.position]):
        by_product.setdefault(variant["product_id"], []).append(variant)
    found = []
    for product in db.find(products, status="active", order_by=[products.c.title]):
        if wanted_type and product["product_type"].casefold() != wanted_type:
            continue
        rows = by_product.get(product["id"], [])
        haystack = " ".join(
            [
                product["title"],
                product["vendor"],
                product["product_type"],
                *product["tags"],
                *(v["title"] for v in rows),
                *(v["sku"] for v in rows),
            ]
        ).casefold()
        if all(word in haystack for word in words) and (not available_only or any(available_for_sale(v) for v in rows)):
            found.append((product, rows))
    return found


def check_stock(product: dict[str, Any], variant: dict[str, Any], wanted: int) -> None:
    """A cart or order can't hold more of a variant than is in stock, unless it can be pre-ordered."""
    if variant["inventory_policy"] == "deny" and wanted > variant["inventory_quantity"]:
        left = max(variant["inventory_quantity"], 0)
        raise Conflict(f"Only {left} of '{label(product, variant)}' in stock; the cart would hold {wanted}.")


def restock(db: Database, variant_id: str, quantity: int) -> None:
    """Put `quantity` units of a variant back into stock."""
    if quantity:
        row = db.get(variants, variant_id, "Variant")
        db.update(variants, variant_id, inventory_quantity=row["inventory_quantity"] + quantity)


# ---------------------------------------------------------------- discount codes


def code_row(db: Database, code: str) -> dict[str, Any]:
    """A discount code by its code, in any case."""
    return db.find_one(discount_codes, code=code.strip().upper(), not_found=f"Discount code '{code}' is not valid.")


def code_problem(db: Database, row: dict[str, Any], customer_id: str, subtotal: int) -> ToolError | None:
    """Why a discount code cannot apply to this shopper's cart of `subtotal` cents right now, or None."""
    now = db.now()
    if moment(row["starts_at"]) > now:
        return InvalidRequest(f"Discount code {row['code']} is not active yet (starts {row['starts_at'][:10]}).")
    if row["ends_at"] and moment(row["ends_at"]) <= now:
        return InvalidRequest(f"Discount code {row['code']} expired on {row['ends_at'][:10]}.")
    if row["usage_limit"] is not None and row["usage_count"] >= row["usage_limit"]:
        return Conflict(f"Discount code {row['code']} has reached its usage limit.")
    if row["once_per_customer"]:
        for order in db.find(orders, customer_id=customer_id):
            if order["cancel_reason"] is None and any(d["code"] == row["code"] for d in order["discount_codes"]):
                return Conflict(
                    f"Discount code {row['code']} can be used once per customer; it was used on {order['name']}."
                )
    if row["minimum_subtotal"] and subtotal < cents(row["minimum_subtotal"]):
        return InvalidRequest(
            f"Discount code {row['code']} needs a subtotal of at least {row['minimum_subtotal']}; "
            f"the cart is at {money(subtotal)}."
        )
    return None


def items_discount(row: dict[str, Any], subtotal: int) -> int:
    """What a code takes off the items, in cents (a free-shipping code takes nothing off them)."""
    if row["value_type"] == "percentage":
        return percent_of(subtotal, row["value"])
    if row["value_type"] == "fixed_amount":
        return min(cents(row["value"]), subtotal)
    return 0


def shipping_rate(method: str, subtotal: int) -> int:
    """Standard 6.95 (free from 75.00 after discounts) or express 14.95, in cents."""
    if method == "express":
        return EXPRESS_RATE
    return 0 if subtotal >= FREE_SHIPPING_OVER else STANDARD_RATE


def shipping_address(customer: dict[str, Any], given: dict[str, Any] | None) -> dict[str, Any]:
    """Where an order ships: the given address or the default one, inside the store's shipping zones."""
    address = given if given is not None else customer["default_address"]
    if address is None:
        raise InvalidRequest("A shipping address is required: the shopper has no default address.")
    address = {**address, "country_code": address["country_code"].upper()}
    if address["country_code"] not in SHIPS_TO:
        raise InvalidRequest(f"The store doesn't ship to {address['country_code']}; it ships to the US and Canada.")
    return address


# ---------------------------------------------------------------- returns


def return_window_closes(delivered_at: str) -> datetime:
    """The last moment delivered items can be returned: 30 days after delivery."""
    return moment(delivered_at) + RETURN_WINDOW
