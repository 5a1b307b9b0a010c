"""Shopify's objects: the inputs the tools take (their constraints are in the types, so the schema shows them) and
the Storefront/Admin objects they return, with how stored rows become them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database
from envfactory_gym.fields import NonEmptyText

from . import carts, rules
from . import orders as book
from .rules import STORE_DOMAIN, money
from .schema import fulfillments, line_items, products, refunds, returns, transactions

ReturnReason = Literal[
    "size_too_small",
    "size_too_large",
    "unwanted",
    "not_as_described",
    "wrong_item",
    "defective",
    "style",
    "color",
    "other",
]
#: A positive amount of USD with at most two decimals, as Shopify writes money: "12.50".
Amount = Annotated[
    str,
    Field(
        pattern=r"^(\d*[1-9]\d*(\.\d{1,2})?|0+\.(0[1-9]|[1-9]\d?))$",
        description='a positive decimal string with at most two decimals, e.g. "12.50"',
    ),
]
#: A discount code as the shopper types it (any case).
DiscountCode = Annotated[str, Field(min_length=1, max_length=255)]


# ---------------------------------------------------------------- inputs


class MailingAddress(BaseModel):
    """A shipping address."""

    first_name: NonEmptyText
    last_name: NonEmptyText
    address1: NonEmptyText
    address2: str | None = None
    city: NonEmptyText
    province_code: str = Field(description="state or province code, e.g. OR or BC")
    country_code: str = Field(pattern=r"^[A-Za-z]{2}$", description="two-letter country code, e.g. US")
    zip: NonEmptyText


class CartLineInput(BaseModel):
    """A line to add to the cart."""

    merchandise_id: str = Field(description="the variant's id, from search_products")
    quantity: int = Field(1, ge=1)


class CartLineUpdateInput(BaseModel):
    """A new quantity for a cart line; 0 removes the line."""

    id: str = Field(description="the cart line's id, from get_cart")
    quantity: int = Field(ge=0)


class RefundLineItemInput(BaseModel):
    """Units of a line item to refund."""

    line_item_id: str
    quantity: int = Field(ge=1)


class ReturnLineItemInput(BaseModel):
    """Units of a delivered line item being returned, and why."""

    line_item_id: str
    quantity: int = Field(ge=1)
    return_reason: ReturnReason


# ---------------------------------------------------------------- the shopper and the catalog


class SessionObject(BaseModel):
    """The shopper signed in on the storefront."""

    customer_id: str
    first_name: str
    email: str


class VariantObject(BaseModel):
    """A purchasable variant of a product (the cart's merchandise)."""

    id: str
    title: str
    sku: str
    price: str
    compare_at_price: str | None
    available_for_sale: bool
    quantity_available: int
    inventory_policy: Literal["deny", "continue"] = Field(description="continue: can be pre-ordered when out of stock")


class ProductObject(BaseModel):
    """A product of the online store with its variants."""

    id: str
    title: str
    handle: str
    vendor: str
    product_type: str
    tags: list[str]
    description: str
    variants: list[VariantObject]


class PaymentMethodObject(BaseModel):
    """The shopper's saved card."""

    brand: str
    last_digits: str


class CustomerObject(BaseModel):
    """The signed-in shopper's account."""

    id: str
    first_name: str
    last_name: str
    email: str
    phone: str | None
    accepts_marketing: bool
    tags: list[str]
    default_address: MailingAddress | None
    payment_method: PaymentMethodObject | None
    orders_count: int
    total_spent: str
    cart_id: str | None


# ---------------------------------------------------------------- cart


class CartLineObject(BaseModel):
    """A line of the cart."""

    id: str
    merchandise_id: str
    product_title: str
    variant_title: str
    sku: str
    quantity: int
    unit_price: str
    subtotal: str
    quantity_available: int


class CartDiscountCode(BaseModel):
    """A discount code entered on the cart and whether it currently applies."""

    code: str
    applicable: bool
    message: str | None = None


class CartObject(BaseModel):
    """The shopper's cart; shipping is added at checkout."""

    id: str
    checkout_url: str
    buyer_customer_id: str
    lines: list[CartLineObject]
    discount_codes: list[CartDiscountCode]
    total_quantity: int
    subtotal_amount: str
    discount_amount: str
    total_amount: str


# ---------------------------------------------------------------- orders


class OrderSummary(BaseModel):
    """An order in a listing."""

    id: str
    name: str
    created_at: str
    financial_status: str
    fulfillment_status: str | None
    cancelled: bool
    total_price: str
    items: list[str] = Field(description="'<quantity> x <product> - <variant>' per line item")


class LineItemObject(BaseModel):
    """A line item of an order, with how many units shipped, arrived, were refunded and returned."""

    id: str
    product_id: str
    variant_id: str
    title: str
    variant_title: str
    sku: str
    quantity: int
    price: str
    total_discount: str
    final_sale: bool
    fulfilled_quantity: int
    delivered_quantity: int
    refunded_quantity: int
    returned_quantity: int
    refundable_quantity: int
    returnable_quantity: int = Field(
        description="delivered units that may still be returned (ignores the 30-day window)"
    )


class FulfillmentObject(BaseModel):
    """A shipment of (part of) an order."""

    id: str
    status: str
    shipment_status: str
    tracking_company: str
    tracking_number: str
    line_items: list[dict[str, Any]]
    created_at: str
    delivered_at: str | None


class TransactionObject(BaseModel):
    """A payment, refund or void on the order's card."""

    id: str
    kind: str
    status: str
    amount: str
    gateway: str
    processed_at: str


class RefundObject(BaseModel):
    """Money sent back to the original payment method."""

    id: str
    order_id: str
    return_id: str | None
    note: str
    amount: str
    refund_line_items: list[dict[str, Any]]
    created_at: str


class ReturnObject(BaseModel):
    """A processed return: its units are back in stock and refunded."""

    id: str
    order_id: str
    name: str
    status: str
    return_line_items: list[dict[str, Any]]
    created_at: str
    refund: RefundObject | None


class OrderObject(BaseModel):
    """An order with its money, line items, shipments, payments, refunds and returns."""

    id: str
    name: str
    email: str
    created_at: str
    financial_status: str
    fulfillment_status: str | None
    cancel_reason: str | None
    cancelled_at: str | None
    total_line_items_price: str
    total_discounts: str
    subtotal_price: str
    total_shipping_price: str
    total_price: str
    total_received: str
    total_refunded: str
    discount_codes: list[dict[str, Any]]
    shipping_line: str
    shipping_address: MailingAddress
    line_items: list[LineItemObject]
    fulfillments: list[FulfillmentObject]
    transactions: list[TransactionObject]
    refunds: list[RefundObject]
    returns: list[ReturnObject]


class CheckoutResult(BaseModel):
    """The order a completed checkout created."""

    order: OrderObject
    next_action: str | None = Field(description="what the shopper still has to do for the payment, if anything")


# ---------------------------------------------------------------- rows to objects


def _pick(row: dict[str, Any], model: type[BaseModel]) -> dict[str, Any]:
    return {name: row[name] for name in model.model_fields if name in row}


def product_object(product: dict[str, Any], rows: list[dict[str, Any]]) -> ProductObject:
    """A product with its variants (in position order), their stock and whether they can be bought now."""
    return ProductObject(
        **_pick(product, ProductObject)
        | {
            "variants": [
                VariantObject(
                    **_pick(v, VariantObject),
                    available_for_sale=rules.available_for_sale(v),
                    quantity_available=max(v["inventory_quantity"], 0),
                )
                for v in rows
            ]
        },
    )


def customer_object(db: Database, customer: dict[str, Any], placed: list[dict[str, Any]]) -> CustomerObject:
    """The shopper's account with their order count, net spend (paid less refunded) and cart."""
    spent = 0
    for order in placed:
        paid, refunded = book.order_balance(db, order["id"])
        spent += paid - refunded
    card = customer["payment_method"]
    cart = carts.cart_of(db, customer["id"])
    return CustomerObject(
        **_pick(customer, CustomerObject)
        | {
            "payment_method": PaymentMethodObject(**_pick(card, PaymentMethodObject)) if card else None,
            "orders_count": len(placed),
            "total_spent": money(spent),
            "cart_id": cart["id"] if cart else None,
        },
    )


def cart_object(db: Database, cart: dict[str, Any]) -> CartObject:
    """The cart with its lines, stock left per line, and whether each discount code applies right now."""
    lines = []
    subtotal = 0
    for line, variant, product, line_total in carts.priced_lines(db, cart["id"]):
        subtotal += line_total
        lines.append(
            CartLineObject(
                id=line["id"],
                merchandise_id=variant["id"],
                product_title=product["title"],
                variant_title=variant["title"],
                sku=variant["sku"],
                quantity=line["quantity"],
                unit_price=variant["price"],
                subtotal=money(line_total),
                quantity_available=max(variant["inventory_quantity"], 0),
            )
        )
    codes, discount = [], 0
    for code in cart["discount_codes"]:
        row = rules.code_row(db, code)
        problem = rules.code_problem(db, row, cart["customer_id"], subtotal)
        if problem is None:
            discount += rules.items_discount(row, subtotal)
        codes.append(CartDiscountCode(code=code, applicable=problem is None, message=str(problem) if problem else None))
    return CartObject(
        id=cart["id"],
        checkout_url=f"https://{STORE_DOMAIN}/cart/c/{cart['id']}",
        buyer_customer_id=cart["customer_id"],
        lines=lines,
        discount_codes=codes,
        total_quantity=sum(line.quantity for line in lines),
        subtotal_amount=money(subtotal),
        discount_amount=money(discount),
        total_amount=money(subtotal - discount),
    )


def order_summary(db: Database, order: dict[str, Any]) -> OrderSummary:
    """An order as a listing shows it: status, total and one line per item."""
    return OrderSummary(
        **_pick(order, OrderSummary),
        cancelled=order["cancel_reason"] is not None,
        items=[
            f"{li['quantity']} x {li['title']} - {li['variant_title']}"
            for li in db.find(line_items, order_id=order["id"])
        ],
    )


def refund_object(row: dict[str, Any]) -> RefundObject:
    """A stored refund."""
    return RefundObject(**_pick(row, RefundObject))


def return_object(row: dict[str, Any], refund_rows: list[dict[str, Any]]) -> ReturnObject:
    """A stored return with the refund it produced (among the order's `refund_rows`)."""
    refund = next((r for r in refund_rows if r["return_id"] == row["id"]), None)
    return ReturnObject(**_pick(row, ReturnObject), refund=refund_object(refund) if refund else None)


def order_object(db: Database, order: dict[str, Any]) -> OrderObject:
    """An order in full: per line item shipped, delivered, refunded and returnable units; shipments, payments,
    refunds and returns."""
    items = db.find(line_items, order_id=order["id"])
    counts = book.line_counts(db, order["id"], items)
    tags = {item["product_id"]: db.get(products, item["product_id"])["tags"] for item in items}
    rendered = []
    for item in items:
        c = counts[item["id"]]
        rendered.append(
            LineItemObject(
                **_pick(item, LineItemObject),
                final_sale=rules.FINAL_SALE_TAG in tags[item["product_id"]],
                fulfilled_quantity=c["fulfilled"],
                delivered_quantity=c["delivered"],
                refunded_quantity=book.refunded_units(c),
                returned_quantity=c["returned"],
                refundable_quantity=item["quantity"] - book.refunded_units(c),
                returnable_quantity=book.returnable(c),
            )
        )
    txns = db.find(transactions, order_id=order["id"], order_by=[transactions.c.processed_at])
    paid, refunded = book.paid_and_refunded(txns)
    refund_rows = db.find(refunds, order_id=order["id"])
    return OrderObject(
        **_pick(order, OrderObject),
        total_received=money(paid),
        total_refunded=money(refunded),
        line_items=rendered,
        fulfillments=[
            FulfillmentObject(**_pick(f, FulfillmentObject))
            for f in db.find(fulfillments, order_id=order["id"], order_by=[fulfillments.c.created_at])
        ],
        transactions=[TransactionObject(**_pick(t, TransactionObject)) for t in txns],
        refunds=[refund_object(r) for r in refund_rows],
        returns=[return_object(r, refund_rows) for r in db.find(returns, order_id=order["id"])],
    )


def checkout_result(db: Database, order: dict[str, Any], pending: bool) -> CheckoutResult:
    """The new order, and the 3-D Secure step left to the shopper when the card needs it."""
    next_action = (
        f"The shopper must approve the {order['total_price']} payment for {order['name']} in their banking app "
        "(3-D Secure)."
        if pending
        else None
    )
    return CheckoutResult(order=order_object(db, order), next_action=next_action)
