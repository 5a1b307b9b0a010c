"""SP-API objects as the JSON the tools return (field names as in Listings Items 2021-08-01, Orders v0, FBA
Inventory v1 and Fulfillment Inbound v0; money as {"CurrencyCode", "Amount"}), and how stored rows become them."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database
from envfactory_gym.values import format_amount

from .rules import FBA, fba_row, refunded_units, status
from .schema import listing_issues, marketplaces, order_items, package_confirmations


def money(cents: int | None, currency: str) -> dict[str, str] | None:
    """Cents as SP-API's Money object."""
    return None if cents is None else {"CurrencyCode": currency, "Amount": format_amount(cents, currency)}


def currency_of(db: Database, marketplace_id: str) -> str:
    return str(db.get(marketplaces, marketplace_id)["currency"])


def issue_object(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "code": row["code"],
        "message": row["message"],
        "severity": row["severity"],
        "attributeNames": [row["attribute_name"]],
        "categories": [row["category"]],
    }


def listing_summary(
    db: Database, row: dict[str, Any], known: tuple[list[str], list[dict[str, Any]]] | None = None
) -> dict[str, Any]:
    """A listing as searchListingsItems shows it (summaries with status, price and the count of issues); `known`
    is its status and issues when already read (see rules.statuses)."""
    currency = currency_of(db, row["marketplace_id"])
    state, issues = known if known is not None else (status(db, row), db.find(listing_issues, listing_id=row["id"]))
    return {
        "sku": row["sku"],
        "summaries": [
            {
                "marketplaceId": row["marketplace_id"],
                "asin": row["asin"],
                "productType": row["product_type"],
                "conditionType": row["condition_type"],
                "status": state,
                "itemName": row["item_name"],
                "createdDate": row["created_date"],
                "lastUpdatedDate": row["last_updated_date"],
            }
        ],
        "offers": [{"marketplaceId": row["marketplace_id"], "offerType": "B2C", "price": money(row["price"], currency)}]
        if row["price"] is not None
        else [],
        "fulfillmentChannelCode": row["fulfillment_channel"],
        "issueCount": {
            "ERROR": sum(i["severity"] == "ERROR" for i in issues),
            "WARNING": sum(i["severity"] == "WARNING" for i in issues),
        },
    }


def listing_object(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """A listing with its attributes, issues and fulfillment availability (getListingsItem, all includedData)."""
    currency = currency_of(db, row["marketplace_id"])
    mp = row["marketplace_id"]
    offer = {
        "currency": currency,
        "our_price": format_amount(row["price"], currency) if row["price"] is not None else None,
        "minimum_seller_allowed_price": format_amount(row["min_price"], currency) if row["min_price"] else None,
        "maximum_seller_allowed_price": format_amount(row["max_price"], currency) if row["max_price"] else None,
    }
    attributes: dict[str, Any] = {
        "condition_type": [{"value": row["condition_type"], "marketplace_id": mp}],
        "bullet_point": [{"value": b, "marketplace_id": mp} for b in row["bullet_points"]],
        "purchasable_offer": [offer | {"marketplace_id": mp}],
    }
    if row["item_name"]:
        attributes["item_name"] = [{"value": row["item_name"], "marketplace_id": mp}]
    if row["brand"]:
        attributes["brand"] = [{"value": row["brand"], "marketplace_id": mp}]
    if row["fulfillment_channel"] != FBA:
        attributes["fulfillment_availability"] = [{"fulfillment_channel_code": "DEFAULT", "quantity": row["quantity"]}]
    stock = fba_row(db, row)
    quantity = row["quantity"] if row["fulfillment_channel"] != FBA else (stock["fulfillable"] if stock else 0)
    return listing_summary(db, row) | {
        "attributes": attributes,
        "issues": [issue_object(i) for i in db.find(listing_issues, listing_id=row["id"])],
        "fulfillmentAvailability": [{"fulfillmentChannelCode": row["fulfillment_channel"], "quantity": quantity}],
    }


def order_objects(db: Database, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Orders as getOrders shows them, their items and packages read in one query each."""
    if not rows:
        return []
    marks = ", ".join("?" for _ in rows)
    ids = [r["id"] for r in rows]
    items: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
    packages: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
    for item in db.select(order_items, f"order_id IN ({marks})", ids):
        items[item["order_id"]].append(item)
    for package in db.select(package_confirmations, f"order_id IN ({marks})", ids):
        packages[package["order_id"]].append(package)
    currencies = {m["id"]: m["currency"] for m in db.find(marketplaces)}
    return [order_object(db, r, items[r["id"]], packages[r["id"]], currencies[r["marketplace_id"]]) for r in rows]


def order_object(
    db: Database,
    row: dict[str, Any],
    items: list[dict[str, Any]] | None = None,
    packages: list[dict[str, Any]] | None = None,
    currency: str | None = None,
) -> dict[str, Any]:
    """An order as getOrders and getOrder show it (items, packages and currency read here unless given)."""
    currency = currency or currency_of(db, row["marketplace_id"])
    items = items if items is not None else db.find(order_items, order_id=row["id"])
    packages = packages if packages is not None else db.find(package_confirmations, order_id=row["id"])
    shipped = sum(i["quantity_shipped"] for i in items)
    total = sum(i["item_price"] + i["shipping_price"] for i in items)
    return {
        "AmazonOrderId": row["id"],
        "PurchaseDate": row["purchase_date"],
        "LastUpdateDate": row["last_update_date"],
        "OrderStatus": row["status"],
        "FulfillmentChannel": row["fulfillment_channel"],
        "ShipServiceLevel": row["ship_service_level"],
        "OrderTotal": money(total, currency),
        "NumberOfItemsShipped": shipped,
        "NumberOfItemsUnshipped": sum(i["quantity"] for i in items) - shipped,
        "MarketplaceId": row["marketplace_id"],
        "LatestShipDate": row["latest_ship_date"],
        "IsPrime": row["is_prime"],
        "IsBuyerRequestedCancel": row["is_buyer_requested_cancel"],
        "BuyerInfo": {"BuyerName": row["buyer_name"]},
        "ShippingAddress": {"City": row["ship_city"], "StateOrRegion": row["ship_state"]},
        "CancelReason": row["cancel_reason"],
        "Packages": [
            {
                "packageReferenceId": p["package_reference_id"],
                "carrierCode": p["carrier_code"],
                "trackingNumber": p["tracking_number"],
                "shipDate": p["ship_date"],
            }
            for p in packages
        ],
    }


def order_item_object(db: Database, row: dict[str, Any], currency: str) -> dict[str, Any]:
    return {
        "OrderItemId": row["id"],
        "ASIN": row["asin"],
        "SellerSKU": row["sku"],
        "Title": row["title"],
        "QuantityOrdered": row["quantity"],
        "QuantityShipped": row["quantity_shipped"],
        "QuantityRefunded": refunded_units(db, row["id"]),
        "ItemPrice": money(row["item_price"], currency),
        "ShippingPrice": money(row["shipping_price"], currency),
    }


def inventory_object(db: Database, row: dict[str, Any], details: bool) -> dict[str, Any]:
    """An FBA inventory summary (inventoryDetails only with details=true)."""
    total = sum(
        row[k]
        for k in ("fulfillable", "inbound_working", "inbound_shipped", "inbound_receiving", "reserved", "unfulfillable")
    )
    out: dict[str, Any] = {
        "asin": row["asin"],
        "fnSku": row["fnsku"],
        "sellerSku": row["sku"],
        "condition": "NewItem",
        "lastUpdatedTime": row["last_updated_time"],
        "totalQuantity": total,
    }
    if details:
        out["inventoryDetails"] = {
            "fulfillableQuantity": row["fulfillable"],
            "inboundWorkingQuantity": row["inbound_working"],
            "inboundShippedQuantity": row["inbound_shipped"],
            "inboundReceivingQuantity": row["inbound_receiving"],
            "reservedQuantity": {"totalReservedQuantity": row["reserved"]},
            "unfulfillableQuantity": {"totalUnfulfillableQuantity": row["unfulfillable"]},
        }
    return out


def shipment_object(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "ShipmentId": row["id"],
        "ShipmentName": row["name"],
        "DestinationFulfillmentCenterId": row["destination"],
        "ShipmentStatus": row["status"],
        "LabelPrepType": row["label_prep_type"],
        "MarketplaceId": row["marketplace_id"],
        "CreatedDate": row["created_date"],
    }


def shipment_item_object(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "ShipmentId": row["shipment_id"],
        "SellerSKU": row["sku"],
        "FulfillmentNetworkSKU": row["fnsku"],
        "QuantityShipped": row["quantity_shipped"],
        "QuantityReceived": row["quantity_received"],
    }


def return_object(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "returnRequestId": row["id"],
        "amazonOrderId": row["order_id"],
        "orderItemId": row["order_item_id"],
        "quantity": row["quantity"],
        "returnReason": row["reason"],
        "buyerComment": row["buyer_comment"],
        "status": row["status"],
        "requestDate": row["request_date"],
        "declineReason": row["decline_reason"],
        "rmaId": row["rma_id"],
    }


def sku_fba(db: Database, row: dict[str, Any]) -> dict[str, Any] | None:
    """The FBA stock numbers shown next to a listing (None for merchant-fulfilled SKUs)."""
    stock = fba_row(db, row)
    return inventory_object(db, stock, True) if stock else None
