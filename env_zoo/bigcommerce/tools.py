"""BigCommerce REST API tools: the v3 catalog (products, variants, modifiers, inventory), price lists, customers
and customer groups, v3 carts and checkouts (coupons, billing address, consignments, orders from checkouts) and
v2 orders (statuses, shipments, refund quotes and refunds)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, Unordered, tool
from envfactory_gym.fields import ErrorText, NonBlankText

from . import catalog, checkout
from . import orders as ordering
from .objects import (
    checkout_object,
    customer_object,
    group_object,
    order_object,
    order_summary,
    page,
    product_object,
    product_summary,
    variant_object,
)
from .rules import cents, fetch
from .schema import carts, customer_groups, customers, orders, price_records, products, variants

Limit = Annotated[
    int, Field(ge=1, le=250), ErrorText("422 Unprocessable Entity (errors.limit): limit must be 1 to 250")
]
PageNumber = Annotated[int, Field(ge=1)]
Price = Annotated[
    float, Field(ge=0, le=99999.99), ErrorText("422 Unprocessable Entity (errors.price): price must be 0 to 99999.99")
]
Quantity = Annotated[
    int, Field(ge=1, le=999), ErrorText("422 Unprocessable Entity (errors.quantity): quantity must be 1 to 999")
]
Stock = Annotated[int, Field(ge=0, le=1_000_000)]
StatusId = Literal[0, 1, 5, 6, 7, 8, 9, 10, 11, 12, 13]
Tracking = Literal["none", "product", "variant"]


class OptionSelection(BaseModel):
    """A modifier value chosen for a line item (a modifier's id and one of its option value ids)."""

    option_id: int
    option_value: int


class LineItemInput(BaseModel):
    """A product to put in the cart; products with options need the variant (size, colour...)."""

    product_id: int
    quantity: Quantity
    variant_id: int | None = None
    option_selections: Annotated[list[OptionSelection], Unordered] = Field(
        default_factory=list, description="Modifier values, e.g. gift wrap or engraving."
    )


class AddressInput(BaseModel):
    """A billing or shipping address."""

    first_name: NonBlankText
    last_name: NonBlankText
    address1: NonBlankText
    city: NonBlankText
    state_or_province: str = ""
    postal_code: NonBlankText
    country_code: Annotated[str, Field(pattern=r"^[A-Z]{2}$")]
    email: Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")] | None = None


class ShipmentItem(BaseModel):
    """Units of one order product in a shipment."""

    order_product_id: int
    quantity: Quantity


class RefundItem(BaseModel):
    """What to refund: units of an order product (PRODUCT, with item_id and quantity) or an amount of the
    order's shipping (SHIPPING, with amount)."""

    item_type: Literal["PRODUCT", "SHIPPING"]
    item_id: int | None = Field(None, description="The order product id (PRODUCT only).")
    quantity: Quantity | None = None
    amount: Price | None = Field(None, description="Dollars of shipping to refund (SHIPPING only).")


# ---------------------------------------------------------------- catalog


@tool(read_only=True)
def list_products(
    db: Database,
    keyword: str = "",
    category_id: int | None = None,
    sku: str | None = None,
    page_number: PageNumber = 1,
    limit: Limit = 50,
) -> dict[str, Any]:
    """List catalog products by name (GET /v3/catalog/products): words of the name, brand or SKU, a category,
    or an exact product or variant SKU.

    Args:
        keyword: Words that must all appear in the name, brand or a SKU.
        category_id: Only products in this category.
        sku: An exact product or variant SKU.
        page_number: Page to return, from 1.
        limit: Products per page, 1 to 250.
    """
    rows, meta = page(catalog.find_products(db, keyword, category_id, sku), page_number, limit)
    return {"data": [product_summary(r) for r in rows], "meta": {"pagination": meta}}


@tool(read_only=True)
def get_product(db: Database, product_id: int) -> dict[str, Any]:
    """Get one product with its variants (SKU, price, stock, option values) and modifiers (with price adjusters).

    Args:
        product_id: The product's id.
    """
    return {"data": product_object(db, fetch(db, products, product_id, "product"))}


@tool()
def update_product(
    db: Database,
    product_id: int,
    price: Price | None = None,
    inventory_tracking: Tracking | None = None,
    inventory_level: Stock | None = None,
    is_visible: bool | None = None,
) -> dict[str, Any]:
    """Update a product's price, inventory tracking (none, product or variant), product-level stock or
    visibility. Stock is set on the product only when it tracks inventory by product.

    Args:
        product_id: The product's id.
        price: The new default price in dollars.
        inventory_tracking: none (always purchasable), product, or variant (stock per variant).
        inventory_level: Units on hand (inventory_tracking 'product' only).
        is_visible: Whether shoppers can see and buy it.
    """
    row = catalog.update_product(
        db, product_id, cents(price) if price is not None else None, inventory_tracking, inventory_level, is_visible
    )
    return {"data": product_object(db, row)}


@tool()
def update_variant(
    db: Database,
    product_id: int,
    variant_id: int,
    price: Price | None = None,
    inventory_level: Stock | None = None,
    purchasing_disabled: bool | None = None,
) -> dict[str, Any]:
    """Update one variant's price, stock (when the product tracks inventory by variant) or whether it can be bought.

    Args:
        product_id: The product the variant belongs to.
        variant_id: The variant's id.
        price: The variant's own price in dollars.
        inventory_level: Units on hand of this variant.
        purchasing_disabled: True to stop sales of this variant.
    """
    row = catalog.update_variant(
        db, product_id, variant_id, cents(price) if price is not None else None, inventory_level, purchasing_disabled
    )
    return {"data": variant_object(row, db.get(products, product_id))}


@tool(read_only=True)
def list_price_list_records(db: Database, price_list_id: int, product_id: int | None = None) -> dict[str, Any]:
    """List a price list's records (a variant's price for the groups using the list), optionally for one product.

    Args:
        price_list_id: The price list's id (see the customer groups).
        product_id: Only records of this product's variants.
    """
    records = db.find(price_records, price_list_id=price_list_id)
    data = []
    for record in records:
        variant = db.get(variants, record["variant_id"])
        if product_id is None or variant["product_id"] == product_id:
            data.append(
                {
                    "price_list_id": price_list_id,
                    "variant_id": variant["id"],
                    "product_id": variant["product_id"],
                    "sku": variant["sku"],
                    "price": round(record["price"] / 100, 2),
                }
            )
    return {"data": data}


@tool()
def upsert_price_list_record(db: Database, price_list_id: int, variant_id: int, price: Price) -> dict[str, Any]:
    """Set a variant's price on a price list (creates the record or replaces its price).

    Args:
        price_list_id: The price list's id.
        variant_id: The variant priced.
        price: The price in dollars.
    """
    record = catalog.set_price_record(db, price_list_id, variant_id, cents(price))
    return {"data": {**record, "price": round(record["price"] / 100, 2)}}


# ---------------------------------------------------------------- customers


@tool(read_only=True)
def list_customer_groups(db: Database) -> list[dict[str, Any]]:
    """List the customer groups with their discount rules and price lists."""
    return [group_object(db, row) for row in db.find(customer_groups)]


@tool(read_only=True)
def list_customers(
    db: Database,
    name: str = "",
    email: str | None = None,
    customer_group_id: int | None = None,
    page_number: PageNumber = 1,
    limit: Limit = 50,
) -> dict[str, Any]:
    """List customers (GET /v3/customers) by words of their name or company, exact email or group.

    Args:
        name: Words of the first name, last name or company.
        email: The exact email address.
        customer_group_id: Only customers in this group.
        page_number: Page to return, from 1.
        limit: Customers per page, 1 to 250.
    """
    words = name.lower().split()
    rows = [
        row
        for row in db.find(customers, order_by=[customers.c.last_name, customers.c.first_name])
        if all(w in f"{row['first_name']} {row['last_name']} {row['company']}".lower() for w in words)
        and (email is None or row["email"].lower() == email.lower())
        and (customer_group_id is None or row["customer_group_id"] == customer_group_id)
    ]
    shown, meta = page(rows, page_number, limit)
    return {"data": [customer_object(r) for r in shown], "meta": {"pagination": meta}}


@tool()
def update_customer_group(db: Database, customer_id: int, customer_group_id: int | None) -> dict[str, Any]:
    """Move a customer into a customer group (None takes them out of any group). Carts created afterwards get
    the new group's pricing.

    Args:
        customer_id: The customer's id.
        customer_group_id: The group's id, or None.
    """
    fetch(db, customers, customer_id, "customer")
    if customer_group_id is not None:
        fetch(db, customer_groups, customer_group_id, "customer group")
    return {"data": customer_object(db.update(customers, customer_id, customer_group_id=customer_group_id))}


# ---------------------------------------------------------------- carts and checkouts


@tool()
def create_cart(db: Database, line_items: list[LineItemInput], customer_id: int = 0) -> dict[str, Any]:
    """Create a cart for a customer (0: a guest), priced with their group's price list or discount. The cart's
    id is also its checkout's id.

    Args:
        line_items: The products, variants, quantities and modifier choices.
        customer_id: The customer the cart belongs to; 0 for a guest.
    """
    cart = checkout.create(db, customer_id, [item.model_dump() for item in line_items])
    return {"data": checkout_object(db, cart)["cart"]}


@tool()
def add_cart_line_items(db: Database, cart_id: str, line_items: list[LineItemInput]) -> dict[str, Any]:
    """Add line items to a cart (stock is checked for the cart's whole quantity of each SKU).

    Args:
        cart_id: The cart's id.
        line_items: The products to add.
    """
    return {"data": checkout_object(db, checkout.add_items(db, cart_id, [i.model_dump() for i in line_items]))["cart"]}


@tool()
def delete_cart_line_item(db: Database, cart_id: str, item_id: str) -> dict[str, Any]:
    """Remove one line item from a cart.

    Args:
        cart_id: The cart's id.
        item_id: The line item's id.
    """
    return {"data": checkout_object(db, checkout.remove_item(db, cart_id, item_id))["cart"]}


@tool(read_only=True)
def get_checkout(db: Database, checkout_id: str) -> dict[str, Any]:
    """Get a checkout: cart, coupon, billing address, consignment with its shipping options, and totals.

    Args:
        checkout_id: The checkout's id (the cart's id).
    """
    return {"data": checkout_object(db, fetch(db, carts, checkout_id, "checkout"))}


@tool()
def add_checkout_coupon(db: Database, checkout_id: str, coupon_code: NonBlankText) -> dict[str, Any]:
    """Apply a coupon code to a checkout (one per checkout; codes are case-insensitive).

    Args:
        checkout_id: The checkout's id.
        coupon_code: The code the customer has.
    """
    return {"data": checkout_object(db, checkout.apply_coupon(db, checkout_id, coupon_code))}


@tool()
def delete_checkout_coupon(db: Database, checkout_id: str, coupon_code: NonBlankText) -> dict[str, Any]:
    """Remove the coupon code from a checkout.

    Args:
        checkout_id: The checkout's id.
        coupon_code: The applied code.
    """
    return {"data": checkout_object(db, checkout.remove_coupon(db, checkout_id, coupon_code))}


@tool()
def set_checkout_billing_address(db: Database, checkout_id: str, address: AddressInput) -> dict[str, Any]:
    """Set (or replace) the checkout's billing address.

    Args:
        checkout_id: The checkout's id.
        address: The billing address.
    """
    cart = checkout.open_cart(db, checkout_id)
    return {"data": checkout_object(db, db.update(carts, cart["id"], billing_address=address.model_dump()))}


@tool()
def add_checkout_consignment(db: Database, checkout_id: str, address: AddressInput) -> dict[str, Any]:
    """Ship the checkout's items to an address (one consignment holds every item; a new address replaces the
    old). Returns the available shipping options for it.

    Args:
        checkout_id: The checkout's id.
        address: The shipping address.
    """
    return {"data": checkout_object(db, checkout.set_consignment(db, checkout_id, address.model_dump()))}


@tool()
def update_checkout_consignment(
    db: Database, checkout_id: str, consignment_id: str, shipping_option_id: str
) -> dict[str, Any]:
    """Choose one of a consignment's available shipping options.

    Args:
        checkout_id: The checkout's id.
        consignment_id: The consignment's id.
        shipping_option_id: An id from available_shipping_options.
    """
    return {"data": checkout_object(db, checkout.choose_shipping(db, checkout_id, consignment_id, shipping_option_id))}


@tool()
def create_order_from_checkout(db: Database, checkout_id: str) -> dict[str, Any]:
    """Turn a complete checkout (billing address, consignment with a shipping option) into an order, charged
    to the card given at checkout: status Awaiting Fulfillment; stock is taken and the coupon used.

    Args:
        checkout_id: The checkout's id.
    """
    return {"data": {"id": checkout.place_order(db, checkout_id)["id"]}}


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def list_orders(
    db: Database,
    customer_id: int | None = None,
    status_id: int | None = None,
    min_date_created: str | None = None,
    page_number: PageNumber = 1,
    limit: Limit = 50,
) -> list[dict[str, Any]]:
    """List orders (GET /v2/orders), newest first, by customer, status id or creation date.

    Args:
        customer_id: Only this customer's orders.
        status_id: Only orders in this status (e.g. 11 Awaiting Fulfillment, 2 Shipped, 7 Awaiting Payment).
        min_date_created: Only orders created at or after this ISO date or timestamp.
        page_number: Page to return, from 1.
        limit: Orders per page, 1 to 250.
    """
    rows = db.find(orders, order_by=[orders.c.date_created.desc()])
    rows = [
        r
        for r in rows
        if (customer_id is None or r["customer_id"] == customer_id)
        and (status_id is None or r["status_id"] == status_id)
        and (min_date_created is None or r["date_created"] >= min_date_created)
    ]
    return [order_summary(r) for r in page(rows, page_number, limit)[0]]


@tool(read_only=True)
def get_order(db: Database, order_id: int) -> dict[str, Any]:
    """Get an order with its products (shipped and refunded units), shipments, refunds and refundable amount.

    Args:
        order_id: The order's id.
    """
    return order_object(db, fetch(db, orders, order_id, "order"))


@tool()
def update_order_status(db: Database, order_id: int, status_id: StatusId) -> dict[str, Any]:
    """Change an order's status (PUT /v2/orders/{id}). Cancelling (5) puts tracked stock back and is refused once
    anything shipped; shipped and refunded statuses come from shipments and refunds; Cancelled and Refunded orders
    do not change.

    Args:
        order_id: The order's id.
        status_id: 1 Pending, 5 Cancelled, 7 Awaiting Payment, 8 Awaiting Pickup, 9 Awaiting Shipment,
            10 Completed, 11 Awaiting Fulfillment, 12 Manual Verification Required, 13 Disputed, ...
    """
    return order_summary(ordering.change_status(db, order_id, status_id))


@tool()
def create_shipment(
    db: Database,
    order_id: int,
    items: list[ShipmentItem],
    tracking_number: Annotated[str, Field(min_length=1, max_length=50, pattern=r"^\S+$")],
    shipping_provider: Literal["ups", "usps", "fedex", "dhl", "custom"],
) -> dict[str, Any]:
    """Ship units of a paid order with a tracking number; the order becomes Shipped, or Partially Shipped
    while units are left.

    Args:
        order_id: The order's id.
        items: Order product ids and quantities in the parcel.
        tracking_number: The carrier's tracking number.
        shipping_provider: The carrier.
    """
    return ordering.ship(db, order_id, [i.model_dump() for i in items], tracking_number, shipping_provider)


@tool(read_only=True)
def create_refund_quote(db: Database, order_id: int, items: list[RefundItem]) -> dict[str, Any]:
    """Quote a refund (POST /v3/orders/{id}/payment_actions/refund_quotes): the amount refunding these items
    returns and the refund methods, checked against what is left to refund.

    Args:
        order_id: The order's id.
        items: Products (order product id and quantity) and/or shipping (amount) to refund.
    """
    return {"data": ordering.quote(db, order_id, ordering.refund_items(order_id, [i.model_dump() for i in items]))}


@tool()
def create_refund(
    db: Database,
    order_id: int,
    items: list[RefundItem],
    provider_id: Literal["braintree", "storecredit"],
    amount: Price,
    reason: Annotated[str, Field(max_length=255)] = "",
) -> dict[str, Any]:
    """Refund an order (POST /v3/orders/{id}/payment_actions/refunds): the amount must be the quote's
    total_refund_amount; the order becomes Refunded when nothing is left, else Partially Refunded.

    Args:
        order_id: The order's id.
        items: The same items as the quote.
        provider_id: braintree (the original card) or storecredit.
        amount: The quote's total_refund_amount in dollars.
        reason: Why, shown on the order.
    """
    row = ordering.refund(
        db,
        order_id,
        ordering.refund_items(order_id, [i.model_dump() for i in items]),
        provider_id,
        cents(amount),
        reason,
    )
    return {"data": {**row, "total_amount": round(row["total_amount"] / 100, 2)}}
