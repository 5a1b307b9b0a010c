"""WooCommerce's REST objects as the tools return them (amounts as decimal strings such as "12.50"), and how stored
rows become them."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from envfactory_gym import KeptGeneric
from envfactory_gym.values import format_amount

from .pricing import active_price, on_sale

T = TypeVar("T")


def amount(cents: int | None) -> str:
    """Cents as WooCommerce's decimal string ("" when unset)."""
    return "" if cents is None else format_amount(cents, "USD")


class ListPage(KeptGeneric, Generic[T]):
    """One page of a collection: WooCommerce's X-WP-Total and X-WP-TotalPages headers as fields."""

    items: list[T]
    total: int
    total_pages: int
    page: int


def page_of(rows: list[Any], page: int, per_page: int, convert: Any) -> ListPage[Any]:
    """Page `page` of `per_page` rows, converted with `convert`."""
    start = (page - 1) * per_page
    return ListPage[Any](
        items=[convert(row) for row in rows[start : start + per_page]],
        total=len(rows),
        total_pages=max(1, -(-len(rows) // per_page)),
        page=page,
    )


class TermRef(BaseModel):
    """A category or tag as a product lists it."""

    id: int
    name: str
    slug: str


class CategoryObject(TermRef):
    """A product category."""

    parent: int
    count: int


class TagObject(TermRef):
    """A product tag."""

    count: int


class ProductAttribute(BaseModel):
    """An attribute of a product and its options; `variation` marks those its variations choose from."""

    name: str
    options: list[str]
    variation: bool


class PricedObject(BaseModel):
    """Price and stock fields products and variations share."""

    id: int
    sku: str
    price: str
    regular_price: str
    sale_price: str
    date_on_sale_from: str | None
    date_on_sale_to: str | None
    on_sale: bool
    manage_stock: bool
    stock_quantity: int | None
    stock_status: str
    backorders: str


class ProductObject(PricedObject):
    """A product: simple, or variable with variations (whose ids `variations` lists)."""

    name: str
    type: str
    status: str
    description: str
    categories: list[TermRef]
    tags: list[TermRef]
    attributes: list[ProductAttribute]
    variations: list[int]
    total_sales: int


class VariationAttribute(BaseModel):
    """The option a variation takes for one attribute."""

    name: str
    option: str


class VariationObject(PricedObject):
    """A variation of a variable product."""

    product_id: int
    attributes: list[VariationAttribute]


def priced_fields(row: dict[str, Any], today: str) -> dict[str, Any]:
    """The shared price and stock fields of a product or variation row."""
    return {
        "id": row["id"],
        "sku": row["sku"],
        "price": amount(active_price(row, today)),
        "regular_price": amount(row["regular_price"]),
        "sale_price": amount(row["sale_price"]),
        "date_on_sale_from": row["date_on_sale_from"],
        "date_on_sale_to": row["date_on_sale_to"],
        "on_sale": on_sale(row, today),
        "manage_stock": row["manage_stock"],
        "stock_quantity": row["stock_quantity"],
        "stock_status": row["stock_status"],
        "backorders": row["backorders"],
    }


def product_object(
    row: dict[str, Any], today: str, terms: dict[str, dict[int, TermRef]], variation_ids: list[int]
) -> ProductObject:
    """A product row as the API returns it (`terms` maps "categories"/"tags" to id -> TermRef)."""
    return ProductObject(
        **priced_fields(row, today),
        name=row["name"],
        type=row["type"],
        status=row["status"],
        description=row["description"],
        categories=[terms["categories"][i] for i in row["category_ids"]],
        tags=[terms["tags"][i] for i in row["tag_ids"]],
        attributes=[ProductAttribute(**a) for a in row["attributes"]],
        variations=variation_ids,
        total_sales=row["total_sales"],
    )


def variation_object(row: dict[str, Any], today: str) -> VariationObject:
    """A variation row as the API returns it."""
    return VariationObject(
        **priced_fields(row, today),
        product_id=row["product_id"],
        attributes=[VariationAttribute(**a) for a in row["attributes"]],
    )


class Billing(BaseModel):
    """Billing details of an order or customer."""

    first_name: str = ""
    last_name: str = ""
    email: str = ""
    phone: str = ""
    address_1: str = ""
    city: str = ""
    state: str = ""
    postcode: str = ""


class CustomerObject(BaseModel):
    """A registered customer with their order count and what they have spent (paid orders, less refunds)."""

    id: int
    email: str
    first_name: str
    last_name: str
    username: str
    billing: Billing
    date_created: str
    orders_count: int
    total_spent: str


def customer_object(row: dict[str, Any], orders_count: int, spent: int) -> CustomerObject:
    """A customer row with its order statistics."""
    billing = Billing(first_name=row["first_name"], last_name=row["last_name"], email=row["email"], **row["billing"])
    return CustomerObject(
        id=row["id"],
        email=row["email"],
        first_name=row["first_name"],
        last_name=row["last_name"],
        username=row["username"],
        billing=billing,
        date_created=row["date_created"],
        orders_count=orders_count,
        total_spent=amount(spent),
    )


class LineItemObject(BaseModel):
    """One line of an order: `total` is after coupons; `refunded_quantity` and `refunded_total` what refunds took."""

    id: int
    name: str
    product_id: int
    variation_id: int
    sku: str
    quantity: int
    price: str
    subtotal: str
    total: str
    refunded_quantity: int
    refunded_total: str


class CouponLine(BaseModel):
    """A coupon used on an order and the discount it gave."""

    code: str
    discount: str


class RefundRef(BaseModel):
    """A refund as an order lists it (total negative, as WooCommerce shows it)."""

    id: int
    reason: str
    total: str


class OrderObject(BaseModel):
    """An order with its lines, coupons, shipping, totals and refunds."""

    id: int
    number: str
    status: str
    customer_id: int
    billing: Billing
    payment_method: str
    payment_method_title: str
    shipping_method: str
    shipping_total: str
    discount_total: str
    total: str
    coupon_lines: list[CouponLine]
    line_items: list[LineItemObject]
    refunds: list[RefundRef]
    remaining_refund_amount: str
    customer_note: str
    date_created: str
    date_paid: str | None
    date_completed: str | None


def order_object(row: dict[str, Any], lines: list[dict[str, Any]], refund_rows: list[dict[str, Any]]) -> OrderObject:
    """An order row with its lines and refunds."""
    taken: dict[int, tuple[int, int]] = {}
    for refund in refund_rows:
        for part in refund["line_items"]:
            qty, cents = taken.get(part["id"], (0, 0))
            taken[part["id"]] = (qty + part["quantity"], cents + part["refund_total"])
    refunded = sum(r["amount"] for r in refund_rows)
    return OrderObject(
        id=row["id"],
        number=str(row["id"]),
        status=row["status"],
        customer_id=row["customer_id"],
        billing=Billing(**row["billing"]),
        payment_method=row["payment_method"],
        payment_method_title=row["payment_method_title"],
        shipping_method=row["shipping_method"],
        shipping_total=amount(row["shipping_total"]),
        discount_total=amount(row["discount_total"]),
        total=amount(row["total"]),
        coupon_lines=[CouponLine(code=c["code"], discount=amount(c["discount"])) for c in row["coupon_lines"]],
        line_items=[
            LineItemObject(
                id=line["id"],
                name=line["name"],
                product_id=line["product_id"],
                variation_id=line["variation_id"] or 0,
                sku=line["sku"],
                quantity=line["quantity"],
                price=amount(line["price"]),
                subtotal=amount(line["subtotal"]),
                total=amount(line["total"]),
                refunded_quantity=taken.get(line["id"], (0, 0))[0],
                refunded_total=amount(taken.get(line["id"], (0, 0))[1]),
            )
            for line in lines
        ],
        refunds=[RefundRef(id=r["id"], reason=r["reason"], total=amount(-r["amount"])) for r in refund_rows],
        remaining_refund_amount=amount(row["total"] - refunded),
        customer_note=row["customer_note"],
        date_created=row["date_created"],
        date_paid=row["date_paid"],
        date_completed=row["date_completed"],
    )


class NoteObject(BaseModel):
    """An order note: `customer_note` true when it was emailed to the customer, else private."""

    id: int
    note: str
    customer_note: bool
    author: str
    date_created: str


class RefundLine(BaseModel):
    """A line item a refund covers."""

    id: int
    quantity: int
    refund_total: str


class RefundObject(BaseModel):
    """A refund of an order."""

    id: int
    order_id: int
    amount: str
    reason: str
    refunded_payment: bool
    line_items: list[RefundLine]
    date_created: str


def refund_object(row: dict[str, Any]) -> RefundObject:
    """A refund row as the API returns it."""
    return RefundObject(
        id=row["id"],
        order_id=row["order_id"],
        amount=amount(row["amount"]),
        reason=row["reason"],
        refunded_payment=row["refunded_payment"],
        line_items=[
            RefundLine(id=p["id"], quantity=p["quantity"], refund_total=amount(p["refund_total"]))
            for p in row["line_items"]
        ],
        date_created=row["date_created"],
    )


class CouponObject(BaseModel):
    """A coupon with its restrictions and usage."""

    id: int
    code: str
    status: str
    discount_type: str
    amount: str
    description: str
    date_expires: str | None
    usage_count: int
    usage_limit: int | None
    usage_limit_per_user: int | None
    individual_use: bool
    exclude_sale_items: bool
    minimum_amount: str
    product_ids: list[int]
    used_by: list[str]


def coupon_object(row: dict[str, Any]) -> CouponObject:
    """A coupon row as the API returns it."""
    return CouponObject(
        **{k: row[k] for k in CouponObject.model_fields if k not in ("amount", "minimum_amount")},
        amount=amount(row["amount"]),
        minimum_amount=amount(row["minimum_amount"]) or "0.00",
    )
