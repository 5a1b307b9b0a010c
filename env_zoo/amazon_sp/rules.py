"""The seller's business rules shared by the tools: a listing's status (BUYABLE needs an offer, stock and no
ERROR issue), the allowed price range, what an order has left to ship or refund, the 30-day return window and
how inbound shipments move FBA inventory between working, shipped and fulfillable."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from envfactory_gym import Database
from envfactory_gym.values import parse_timestamp

from .access import seller_id
from .errors import not_found
from .schema import inventory, listing_issues, listings, order_items, orders, refunds

FBA = "AMAZON_NA"
MFN = "DEFAULT"
RETURN_WINDOW_DAYS = 30
#: Order statuses whose items can still ship from the seller.
OPEN = ("Unshipped", "PartiallyShipped")


def listing(db: Database, sku: str, marketplace_id: str) -> dict[str, Any]:
    """The signed-in seller's listing of this SKU in the marketplace, or SP-API's 404."""
    return db.find_one(
        listings,
        seller_id=seller_id(db),
        sku=sku,
        marketplace_id=marketplace_id,
        not_found=f"404 NotFound: SKU '{sku}' was not found for marketplace {marketplace_id}.",
    )


def fba_row(db: Database, row: dict[str, Any]) -> dict[str, Any] | None:
    """The FBA inventory row of a listing (None for merchant-fulfilled SKUs)."""
    found = db.find(inventory, seller_id=row["seller_id"], sku=row["sku"], marketplace_id=row["marketplace_id"])
    return found[0] if found else None


def available(db: Database, row: dict[str, Any]) -> int:
    """Units a buyer can order now: the MFN quantity, or FBA's fulfillable units."""
    if row["fulfillment_channel"] == FBA:
        stock = fba_row(db, row)
        return int(stock["fulfillable"]) if stock else 0
    return int(row["quantity"])


def status_of(row: dict[str, Any], has_error: bool, units: int) -> list[str]:
    """The listing's status: DISCOVERABLE without ERROR issues and with a title; BUYABLE when also priced and
    in stock."""
    if has_error or not row["item_name"]:
        return []
    if row["price"] is not None and units > 0:
        return ["BUYABLE", "DISCOVERABLE"]
    return ["DISCOVERABLE"]


def status(db: Database, row: dict[str, Any]) -> list[str]:
    """One listing's status, read from its issues and stock."""
    errors = db.find(listing_issues, listing_id=row["id"], severity="ERROR")
    return status_of(row, bool(errors), available(db, row))


def statuses(db: Database, rows: list[dict[str, Any]]) -> dict[int, tuple[list[str], list[dict[str, Any]]]]:
    """Status and issues of many listings of one seller at once, by listing id (three queries, not three each)."""
    if not rows:
        return {}
    marks = ", ".join("?" for _ in rows)
    issues: dict[int, list[dict[str, Any]]] = {r["id"]: [] for r in rows}
    for issue in db.select(listing_issues, f"listing_id IN ({marks})", [r["id"] for r in rows]):
        issues[issue["listing_id"]].append(issue)
    stock = {
        (i["marketplace_id"], i["sku"]): int(i["fulfillable"])
        for i in db.select(inventory, "seller_id = ?", [rows[0]["seller_id"]])
    }
    out = {}
    for row in rows:
        units = (
            stock.get((row["marketplace_id"], row["sku"]), 0) if row["fulfillment_channel"] == FBA else row["quantity"]
        )
        has_error = any(i["severity"] == "ERROR" for i in issues[row["id"]])
        out[row["id"]] = (status_of(row, has_error, int(units)), issues[row["id"]])
    return out


def price_issue(price: int | None, low: int | None, high: int | None) -> str | None:
    """Why an offer price falls outside the seller's own minimum and maximum allowed prices (None: it does not)."""
    if price is None:
        return None
    if low is not None and price < low:
        return f"The price {price / 100:.2f} is below the minimum_seller_allowed_price {low / 100:.2f}."
    if high is not None and price > high:
        return f"The price {price / 100:.2f} is above the maximum_seller_allowed_price {high / 100:.2f}."
    return None


def order(db: Database, order_id: str) -> dict[str, Any]:
    """The signed-in seller's order, or a 404."""
    return db.find_one(
        orders, id=order_id, seller_id=seller_id(db), not_found=f"404 NotFound: Order {order_id} was not found."
    )


def order_item(db: Database, order_id: str, order_item_id: str) -> dict[str, Any]:
    """An item of the order, or a 404 naming both."""
    found = db.find(order_items, id=order_item_id, order_id=order_id)
    if not found:
        raise not_found(f"OrderItemId {order_item_id} is not in order {order_id}.")
    return found[0]


def refunded_units(db: Database, order_item_id: str) -> int:
    """Units of an order item refunded so far."""
    return sum(r["quantity"] for r in db.find(refunds, order_item_id=order_item_id))


def unit_price(item: dict[str, Any]) -> int:
    """One unit's share of the line's item price, in cents."""
    return int(item["item_price"]) // int(item["quantity"])


def within_return_window(db: Database, row: dict[str, Any], request_date: str) -> bool:
    """Whether a return was requested within 30 days of the order's purchase."""
    bought = parse_timestamp(row["purchase_date"], "PurchaseDate")
    asked = parse_timestamp(request_date, "requestDate")
    return asked - bought <= timedelta(days=RETURN_WINDOW_DAYS)


def shipped_status(items: list[dict[str, Any]]) -> str:
    """The order status its items' shipped quantities imply."""
    shipped = sum(i["quantity_shipped"] for i in items)
    total = sum(i["quantity"] for i in items)
    if shipped == 0:
        return "Unshipped"
    return "Shipped" if shipped >= total else "PartiallyShipped"


def move_inbound(db: Database, seller: str, marketplace_id: str, sku: str, **deltas: int) -> None:
    """Add the deltas (inbound_working=+5, inbound_shipped=-5...) to a SKU's FBA inventory row."""
    row = db.find_one(
        inventory,
        seller_id=seller,
        marketplace_id=marketplace_id,
        sku=sku,
        not_found=f"404 NotFound: SKU '{sku}' has no FBA inventory record.",
    )
    db.update(inventory, row["id"], last_updated_time=db.now_iso(), **{k: row[k] + v for k, v in deltas.items()})
