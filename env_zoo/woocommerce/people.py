"""Customers and coupons as the shop manager sees them: a customer's order statistics, the billing an order takes
from its customer, and new coupons with unique lower-case codes."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database

from .catalog import cents
from .errors import clash, refused
from .objects import CustomerObject, customer_object
from .rules import PAID, fetch, new_post_id
from .schema import coupons, customers, orders, products, refunds


def show_customer(db: Database, row: dict[str, Any]) -> CustomerObject:
    """A customer with their order count and total spent (paid orders less refunds)."""
    placed = db.find(orders, customer_id=row["id"])
    paid = [o for o in placed if o["status"] in (*PAID, "refunded")]
    spent = sum(o["total"] for o in paid) - sum(r["amount"] for o in paid for r in db.find(refunds, order_id=o["id"]))
    return customer_object(row, len(placed), spent)


def billing_for(db: Database, customer_id: int, billing: dict[str, Any] | None) -> dict[str, Any]:
    """An order's billing: as given, or the registered customer's own; a guest must give it."""
    if customer_id:
        customer = fetch(db, customers, customer_id, "woocommerce_rest_invalid_customer_id")
        if billing is None:
            return {
                "first_name": customer["first_name"],
                "last_name": customer["last_name"],
                "email": customer["email"],
                **customer["billing"],
            }
    elif billing is None:
        raise refused("woocommerce_rest_required_billing", "A guest order needs billing details.")
    return billing


def new_coupon(db: Database, request: dict[str, Any]) -> dict[str, Any]:
    """Store a new coupon; its code (in lower case) must be free."""
    code = request["code"].lower()
    if db.find(coupons, code=code):
        raise clash("woocommerce_rest_coupon_code_already_exists", "The coupon code already exists")
    for product_id in request["product_ids"]:
        fetch(db, products, product_id, "woocommerce_rest_product_invalid_id")
    return db.insert(
        coupons,
        id=new_post_id(db),
        code=code,
        status="publish",
        discount_type=request["discount_type"],
        amount=cents(request["amount"], "amount"),
        description=request["description"],
        date_expires=request["date_expires"],
        usage_count=0,
        usage_limit=request["usage_limit"],
        usage_limit_per_user=request["usage_limit_per_user"],
        individual_use=request["individual_use"],
        exclude_sale_items=request["exclude_sale_items"],
        minimum_amount=cents(request["minimum_amount"], "minimum_amount"),
        product_ids=sorted(request["product_ids"]),
        used_by=[],
    )
