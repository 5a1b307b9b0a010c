"""Walmart Marketplace objects as the seller sees them (items, prices, promotions, inventory per ship node,
purchase orders with their lines, refunds, return orders) and how stored rows become them. Amounts are USD
strings like "24.99"; refunds are shown negative, as Walmart records them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database
from envfactory_gym.values import format_amount

from . import rules
from .schema import inventory, refunds, return_lines, ship_nodes


def usd(cents: int) -> str:
    """Cents as a plain USD amount."""
    return format_amount(cents, "USD")


class ShipNodeObject(BaseModel):
    """A fulfillment center (ship node) of the seller."""

    ship_node: str
    name: str
    city: str
    state: str
    status: str


class ItemSummary(BaseModel):
    """An item in the catalog listing."""

    sku: str
    item_id: str
    gtin: str
    product_name: str
    brand: str
    lifecycle_status: str
    published_status: str
    price: str


class PromotionObject(BaseModel):
    """A promotional price of an item."""

    promo_id: str
    sku: str
    price_type: str = Field(description="REDUCED or CLEARANCE")
    current_price: str
    comparison_price: str
    start_at: str
    end_at: str
    status: str = Field(description="SCHEDULED, ACTIVE or EXPIRED")


class NodeQuantity(BaseModel):
    """An item's inventory at one ship node."""

    ship_node: str
    input_qty: int = Field(description="On hand, including units sold but not yet shipped")
    reserved_qty: int = Field(description="Sold, not yet shipped")
    avail_to_sell_qty: int


class InventoryObject(BaseModel):
    """An item's inventory across the seller's ship nodes."""

    sku: str
    nodes: list[NodeQuantity]
    total_avail_to_sell: int


class ItemObject(ItemSummary):
    """An item with its category, why it is unpublished, its promotions and its inventory."""

    category: str
    unpublished_reason: str | None
    price_updated_at: str | None
    promotions: list[PromotionObject]
    inventory: InventoryObject


class RefundObject(BaseModel):
    """A refund recorded on an order line."""

    refund_id: str
    line_number: int
    amount: str = Field(description="Negative, as Walmart records refunds")
    reason: str
    return_order_id: str | None
    created_at: str


class OrderLineObject(BaseModel):
    """A purchase order line: one SKU, its charges and its status."""

    line_number: int
    sku: str
    product_name: str
    quantity: int
    unit_price: str
    shipping: str
    tax: str
    status: str = Field(description="Created, Acknowledged, Shipped, Delivered or Cancelled")
    ship_node: str
    carrier: str | None
    method_code: str | None
    tracking_number: str | None
    shipped_at: str | None
    cancellation_reason: str | None
    refunded: str


class OrderSummary(BaseModel):
    """A purchase order in a listing."""

    purchase_order_id: str
    customer_order_id: str
    customer_name: str
    order_date: str
    method_code: str
    estimated_ship_date: str
    line_statuses: list[str]
    order_total: str


class OrderObject(OrderSummary):
    """A purchase order with its shipping address, lines and refunds."""

    customer_email: str
    estimated_delivery_date: str
    ship_to: str
    lines: list[OrderLineObject]
    refunds: list[RefundObject]


class ReturnLineObject(BaseModel):
    """A returned order line."""

    return_line_number: int
    order_line_number: int
    sku: str
    quantity: int
    refund_amount: str
    refunded: str


class ReturnSummary(BaseModel):
    """A return order in a listing."""

    return_order_id: str
    purchase_order_id: str
    customer_order_id: str
    customer_name: str
    status: str = Field(description="INITIATED, DELIVERED, COMPLETED or CANCELLED")
    return_reason: str
    created_at: str


class ReturnObject(ReturnSummary):
    """A return order with its lines."""

    refunded_at: str | None
    lines: list[ReturnLineObject]


def ship_node_object(row: dict[str, Any]) -> ShipNodeObject:
    return ShipNodeObject(**{k: row[k] for k in ShipNodeObject.model_fields})


def item_summary(row: dict[str, Any]) -> ItemSummary:
    return ItemSummary(**{k: row[k] for k in ItemSummary.model_fields if k != "price"}, price=usd(row["price"]))


def promotion_object(row: dict[str, Any], now: datetime) -> PromotionObject:
    return PromotionObject(
        promo_id=row["promo_id"],
        sku=row["sku"],
        price_type=row["price_type"],
        current_price=usd(row["current_price"]),
        comparison_price=usd(row["comparison_price"]),
        start_at=row["start_at"],
        end_at=row["end_at"],
        status=rules.promo_status(row, now),
    )


def inventory_object(db: Database, sku: str, partner_id: str) -> InventoryObject:
    nodes = {row["ship_node"] for row in db.find(ship_nodes, partner_id=partner_id)}
    quantities = [
        NodeQuantity(
            ship_node=row["ship_node"],
            input_qty=row["input_qty"],
            reserved_qty=row["reserved_qty"],
            avail_to_sell_qty=max(0, row["input_qty"] - row["reserved_qty"]),
        )
        for row in db.find(inventory, sku=sku, order_by=[inventory.c.ship_node])
        if row["ship_node"] in nodes
    ]
    return InventoryObject(sku=sku, nodes=quantities, total_avail_to_sell=sum(q.avail_to_sell_qty for q in quantities))


def item_object(db: Database, row: dict[str, Any], promos: list[dict[str, Any]]) -> ItemObject:
    now = db.now()
    return ItemObject(
        **item_summary(row).model_dump(),
        category=row["category"],
        unpublished_reason=row["unpublished_reason"],
        price_updated_at=row["price_updated_at"],
        promotions=[promotion_object(p, now) for p in promos],
        inventory=inventory_object(db, row["sku"], row["partner_id"]),
    )


def line_object(row: dict[str, Any]) -> OrderLineObject:
    money = {k: usd(row[k]) for k in ("unit_price", "shipping", "tax", "refunded")}
    plain = {k: row[k] for k in OrderLineObject.model_fields if k not in money}
    return OrderLineObject(**plain, **money)


def order_summary(row: dict[str, Any], lines: list[dict[str, Any]]) -> OrderSummary:
    total = sum(line["unit_price"] * line["quantity"] + line["shipping"] + line["tax"] for line in lines)
    return OrderSummary(
        **{k: row[k] for k in ("purchase_order_id", "customer_order_id", "customer_name", "order_date")},
        method_code=row["method_code"],
        estimated_ship_date=row["estimated_ship_date"],
        line_statuses=[line["status"] for line in lines],
        order_total=usd(total),
    )


def order_object(db: Database, row: dict[str, Any]) -> OrderObject:
    lines = rules.lines(db, row["purchase_order_id"])
    found = db.find(refunds, purchase_order_id=row["purchase_order_id"])
    return OrderObject(
        **order_summary(row, lines).model_dump(),
        customer_email=row["customer_email"],
        estimated_delivery_date=row["estimated_delivery_date"],
        ship_to=f"{row['customer_name']}, {row['address']}, {row['city']}, {row['state']} {row['postal_code']}",
        lines=[line_object(line) for line in lines],
        refunds=[
            RefundObject(
                refund_id=r["refund_id"],
                line_number=r["line_number"],
                amount=usd(-r["amount"]),
                reason=r["reason"],
                return_order_id=r["return_order_id"],
                created_at=r["created_at"],
            )
            for r in found
        ],
    )


def return_summary(row: dict[str, Any]) -> ReturnSummary:
    return ReturnSummary(**{k: row[k] for k in ReturnSummary.model_fields})


def return_object(db: Database, row: dict[str, Any]) -> ReturnObject:
    found = db.find(return_lines, return_order_id=row["return_order_id"], order_by=[return_lines.c.return_line_number])
    return ReturnObject(
        **return_summary(row).model_dump(),
        refunded_at=row["refunded_at"],
        lines=[
            ReturnLineObject(
                return_line_number=line["return_line_number"],
                order_line_number=line["order_line_number"],
                sku=line["sku"],
                quantity=line["quantity"],
                refund_amount=usd(line["refund_amount"]),
                refunded=usd(line["refunded"]),
            )
            for line in found
        ],
    )
