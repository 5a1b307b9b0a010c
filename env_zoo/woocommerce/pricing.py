"""What things cost: a product's or variation's active price on a day (sale prices run inclusively between their
dates), and how coupons discount an order's line items, WooCommerce's validity checks included."""

from __future__ import annotations

from typing import Any

from envfactory_gym.values import format_money

from .errors import refused

INVALID_COUPON = "woocommerce_rest_invalid_coupon"


def on_sale(item: dict[str, Any], today: str) -> bool:
    """Whether a product or variation's sale price applies on `today` (YYYY-MM-DD)."""
    if item["sale_price"] is None:
        return False
    starts, ends = item["date_on_sale_from"], item["date_on_sale_to"]
    return (starts is None or starts <= today) and (ends is None or today <= ends)


def active_price(item: dict[str, Any], today: str) -> int | None:
    """The price charged on `today`: the sale price while the sale runs, else the regular price."""
    return item["sale_price"] if on_sale(item, today) else item["regular_price"]


def money(cents: int) -> str:
    """$50.00, the way WooCommerce words an amount in its messages."""
    return format_money(cents, "USD", {"USD": "$"})


def check_coupon(coupon: dict[str, Any], codes: list[str], lines: list[dict[str, Any]], buyer: str, today: str) -> None:
    """Refuse a coupon the order cannot use, with WooCommerce's own reasons."""
    code = coupon["code"]
    if coupon["date_expires"] is not None and today >= coupon["date_expires"]:
        raise refused(INVALID_COUPON, f'Coupon "{code}" has expired.')
    if coupon["usage_limit"] is not None and coupon["usage_count"] >= coupon["usage_limit"]:
        raise refused(INVALID_COUPON, f'Coupon "{code}" usage limit has been reached.')
    per_user = coupon["usage_limit_per_user"]
    if per_user is not None and coupon["used_by"].count(buyer) >= per_user:
        raise refused(INVALID_COUPON, f'Coupon "{code}" usage limit has been reached for this customer.')
    if len(codes) > 1 and coupon["individual_use"]:
        raise refused(
            INVALID_COUPON,
            f'Sorry, coupon "{code}" has already been applied and cannot be used in conjunction with other coupons.',
        )
    subtotal = sum(line["subtotal"] for line in lines)
    if coupon["minimum_amount"] is not None and subtotal < coupon["minimum_amount"]:
        raise refused(INVALID_COUPON, f"The minimum spend for this coupon is {money(coupon['minimum_amount'])}.")
    if coupon["product_ids"] and not any(line["product_id"] in coupon["product_ids"] for line in lines):
        raise refused(INVALID_COUPON, "Sorry, this coupon is not applicable to selected products.")
    if coupon["exclude_sale_items"]:
        sale = [line["on_sale"] for line in lines]
        if all(sale) or (coupon["discount_type"] == "fixed_cart" and any(sale)):
            raise refused(INVALID_COUPON, "Sorry, this coupon is not valid for sale items.")


def eligible(coupon: dict[str, Any], line: dict[str, Any]) -> bool:
    """Whether a coupon discounts this line (its product list, its sale-item exclusion)."""
    if coupon["product_ids"] and line["product_id"] not in coupon["product_ids"]:
        return False
    return not (coupon["exclude_sale_items"] and line["on_sale"])


def apply_coupon(coupon: dict[str, Any], lines: list[dict[str, Any]]) -> int:
    """Discount the lines' `total`s in place, in turn after earlier coupons; returns the discount given."""
    targets = [line for line in lines if eligible(coupon, line)]
    kind, amount = coupon["discount_type"], coupon["amount"]
    cuts: list[int] = []
    if kind == "percent":
        cuts = [min(line["total"], round(line["subtotal"] * amount / 10000)) for line in targets]
    elif kind == "fixed_product":
        cuts = [min(line["total"], amount * line["quantity"]) for line in targets]
    else:
        base = sum(line["total"] for line in targets)
        whole = min(amount, base)
        cuts = [whole * line["total"] // base if base else 0 for line in targets]
        if targets:
            cuts[-1] += whole - sum(cuts)
    for line, cut in zip(targets, cuts, strict=True):
        line["total"] -= cut
    return sum(cuts)
