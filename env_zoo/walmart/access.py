"""Who is signed in: the seller (partner) whose client credentials the user entered; every read and write is
scoped to that seller's items, ship nodes, orders and returns."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound

from .schema import items, orders, returns, sessions, ship_nodes

NOT_SIGNED_IN = "UNAUTHORIZED: ask the user to sign in with their Walmart Marketplace client credentials."


def partner_id(db: Database) -> str:
    """The signed-in seller's partner id; refused when nobody has signed in."""
    return str(db.current_session(sessions, NOT_SIGNED_IN)["partner_id"])


def item(db: Database, sku: str) -> dict[str, Any]:
    """One of the signed-in seller's items by SKU (another seller's SKU is not found, as Walmart answers)."""
    return db.find_one(
        items,
        sku=sku,
        partner_id=partner_id(db),
        not_found=f"CONTENT_NOT_FOUND: Item not found for SKU '{sku}'.",
    )


def order(db: Database, purchase_order_id: str) -> dict[str, Any]:
    """One of the signed-in seller's purchase orders."""
    return db.find_one(
        orders,
        purchase_order_id=purchase_order_id,
        partner_id=partner_id(db),
        not_found=f"CONTENT_NOT_FOUND: No order found for purchaseOrderId '{purchase_order_id}'.",
    )


def return_order(db: Database, return_order_id: str) -> dict[str, Any]:
    """One of the signed-in seller's return orders."""
    return db.find_one(
        returns,
        return_order_id=return_order_id,
        partner_id=partner_id(db),
        not_found=f"CONTENT_NOT_FOUND: No return order found for returnOrderId '{return_order_id}'.",
    )


def ship_node(db: Database, node: str) -> dict[str, Any]:
    """One of the signed-in seller's ship nodes (fulfillment centers)."""
    found = db.find(ship_nodes, ship_node=node, partner_id=partner_id(db))
    if not found:
        raise NotFound(f"INVALID_REQUEST: shipNode '{node}' is not one of your fulfillment centers.")
    return found[0]
