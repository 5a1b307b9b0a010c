"""Shopify tools: storefront sign-in, product search, the shopper's cart and checkout (Storefront API), and the
shopper's orders with cancellations, refunds and returns (Admin API). Money is a decimal string in USD."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from envfactory_gym import Database, Page, fields, paginate, tool

from . import carts, rules
from . import orders as book
from .access import own_order, own_order_named, shopper, sign_in
from .objects import (
    Amount,
    CartLineInput,
    CartLineUpdateInput,
    CartObject,
    CheckoutResult,
    CustomerObject,
    DiscountCode,
    MailingAddress,
    OrderObject,
    OrderSummary,
    ProductObject,
    RefundLineItemInput,
    RefundObject,
    ReturnLineItemInput,
    ReturnObject,
    SessionObject,
    cart_object,
    checkout_result,
    customer_object,
    order_object,
    order_summary,
    product_object,
    refund_object,
    return_object,
)
from .schema import orders, refunds

CancelReason = Literal["customer", "inventory", "fraud", "declined", "other"]
PageSize = fields.page_size(50)
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")]
OrderName = Annotated[str, Field(pattern=r"^#\d+$")]
MAX_CART_LINES = 250  # lines one cart mutation may carry, as in the Storefront API


# ---------------------------------------------------------------- session, catalog, account


@tool(user_only=True)
def log_in(db: Database, email: Email) -> SessionObject:
    """(User only, on the storefront) The shopper signs in with their email and password; the password is typed
    in the store's sign-in form and never seen by the assistant.

    Args:
        email: The shopper's account email.
    """
    customer = sign_in(db, email)
    return SessionObject(customer_id=customer["id"], first_name=customer["first_name"], email=customer["email"])


@tool(read_only=True)
def search_products(
    db: Database,
    query: str = "",
    product_type: str | None = None,
    available_only: bool = False,
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[ProductObject]:
    """Search the online store's products, with their variants, prices and stock, sorted by title.

    Every word of the query must appear in the product's title, vendor, type, tags, variant titles or SKUs.
    Draft and archived products are not sold online and never appear.

    Args:
        query: Words to look for (case-insensitive). Empty lists every product.
        product_type: Only this product type, e.g. "Jackets", "Footwear", "Camp Kitchen".
        available_only: Only products with at least one variant that can be bought now.
        page_size: Products per page.
        cursor: The next_cursor of the previous page.
    """
    found = rules.find_products(db, query, product_type, available_only)
    page = paginate(found, page_size, cursor, max_page_size=50)
    return Page[ProductObject](
        results=[product_object(p, rows) for p, rows in page.results],
        next_cursor=page.next_cursor,
        has_more=page.has_more,
    )


@tool(read_only=True)
def get_customer(db: Database) -> CustomerObject:
    """The signed-in shopper's account: contact details, default address, saved card, order count, spend and cart."""
    customer = shopper(db)
    return customer_object(db, customer, db.find(orders, customer_id=customer["id"]))


# ---------------------------------------------------------------- cart and checkout


@tool(read_only=True)
def get_cart(db: Database) -> CartObject:
    """The signed-in shopper's cart: lines, stock left per line, discount codes and whether they apply, and cost
    before shipping."""
    return cart_object(db, carts.require_cart(db, shopper(db)["id"]))


@tool()
def cart_lines_add(
    db: Database, lines: Annotated[list[CartLineInput], Field(min_length=1, max_length=MAX_CART_LINES)]
) -> CartObject:
    """Add merchandise to the signed-in shopper's cart (creating the cart if they have none). Adding a variant
    that is already in the cart raises that line's quantity. A cart can't hold more of a variant than is in stock,
    unless the variant can be pre-ordered.

    Args:
        lines: Variants and quantities to add, e.g. [{"merchandise_id": "var_0012", "quantity": 2}].
    """
    return cart_object(db, carts.add_lines(db, carts.open_cart(db, shopper(db)["id"]), lines))


@tool()
def cart_lines_update(
    db: Database, lines: Annotated[list[CartLineUpdateInput], Field(min_length=1, max_length=MAX_CART_LINES)]
) -> CartObject:
    """Change the quantities of lines in the signed-in shopper's cart; a quantity of 0 removes the line.

    Args:
        lines: Cart line ids (from get_cart) and their new quantities.
    """
    return cart_object(db, carts.set_quantities(db, carts.require_cart(db, shopper(db)["id"]), lines))


@tool()
def cart_discount_codes_update(
    db: Database, discount_codes: Annotated[list[DiscountCode], Field(max_length=1)]
) -> CartObject:
    """Replace the discount code on the signed-in shopper's cart (one code per cart; an empty list removes it).
    A code must be live (between its start and end dates), under its usage limit, unused by this shopper if it is
    once-per-customer, and the cart must reach its minimum subtotal.

    Args:
        discount_codes: The code to apply, e.g. ["SUMMIT15"], or [] to remove the current one.
    """
    return cart_object(db, carts.apply_codes(db, carts.require_cart(db, shopper(db)["id"]), discount_codes))


@tool()
def clear_cart(db: Database) -> CartObject:
    """Empty the signed-in shopper's cart: remove every line and discount code."""
    return cart_object(db, carts.empty(db, carts.require_cart(db, shopper(db)["id"])))


@tool()
def checkout_cart(
    db: Database,
    shipping_address: MailingAddress | None = None,
    shipping_method: Literal["standard", "express"] = "standard",
) -> CheckoutResult:
    """Check out the signed-in shopper's cart with their saved card: creates the order, takes the stock and uses
    up the discount code; the cart is then gone. Standard shipping costs 6.95 (free from 75.00 after discounts),
    express 14.95; the store ships to the US and Canada. If the card needs 3-D Secure, the order stays pending until
    the shopper approves the payment in their banking app.

    Args:
        shipping_address: Where to ship; defaults to the shopper's default address.
        shipping_method: standard (3-5 business days) or express (1-2 business days).
    """
    customer = shopper(db)
    cart = carts.require_cart(db, customer["id"])
    given = shipping_address.model_dump() if shipping_address else None
    order, pending = book.place_order(db, customer, cart, given, shipping_method)
    return checkout_result(db, order, pending)


@tool(user_only=True)
def confirm_payment_3ds(db: Database, order_name: OrderName) -> OrderObject:
    """(User only, in the banking app) The shopper approves the 3-D Secure challenge of a pending card payment.

    Args:
        order_name: The order's number as shown to the shopper, e.g. "#1187".
    """
    order = own_order_named(db, shopper(db), order_name)
    return order_object(db, book.approve_payment(db, order))


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def list_orders(
    db: Database,
    status: Literal["open", "cancelled", "any"] = "any",
    page_size: PageSize = 10,
    cursor: str | None = None,
) -> Page[OrderSummary]:
    """The signed-in shopper's orders, newest first, with status, total and items.

    Args:
        status: open (not cancelled), cancelled, or any.
        page_size: Orders per page.
        cursor: The next_cursor of the previous page.
    """
    rows = db.find(orders, customer_id=shopper(db)["id"])
    rows.sort(key=lambda r: r["created_at"], reverse=True)  # newest first; a stable sort keeps ties in id order
    if status != "any":
        rows = [r for r in rows if (r["cancel_reason"] is not None) == (status == "cancelled")]
    page = paginate(rows, page_size, cursor, max_page_size=50)
    return Page[OrderSummary](
        results=[order_summary(db, r) for r in page.results], next_cursor=page.next_cursor, has_more=page.has_more
    )


@tool(read_only=True)
def get_order(db: Database, order_id: str) -> OrderObject:
    """One of the signed-in shopper's orders in full: line items (shipped, delivered, refunded, returnable units),
    shipments with tracking and delivery dates, payments, refunds and returns.

    Args:
        order_id: The order's id, from list_orders.
    """
    return order_object(db, own_order(db, shopper(db), order_id))


@tool()
def cancel_order(db: Database, order_id: str, reason: CancelReason = "customer") -> OrderObject:
    """Cancel an order that has not shipped at all: its units go back into stock and everything paid is refunded
    to the card (a payment still awaiting 3-D Secure approval is voided). Orders with any shipment can't be
    cancelled.

    Args:
        order_id: The order to cancel.
        reason: customer (the shopper changed their mind), inventory, fraud, declined (payment) or other.
    """
    order = own_order(db, shopper(db), order_id)
    return order_object(db, book.cancel(db, order, reason))


@tool()
def create_refund(
    db: Database,
    order_id: str,
    refund_line_items: Annotated[list[RefundLineItemInput], Field(min_length=1)] | None = None,
    amount: Amount | None = None,
    note: str = "",
) -> RefundObject:
    """Refund part of a paid order to the original card, for units the shopper keeps or that haven't shipped
    (use create_return for items sent back). Refunded units that have not shipped are cancelled and restocked.
    The amount defaults to the units' price less their share of the order discount; an explicit amount (e.g. a
    goodwill credit, or shipping) may be given instead. Refunds never exceed what was paid minus earlier refunds.

    Args:
        order_id: The order to refund.
        refund_line_items: Units to refund per line item.
        amount: Amount to refund as a decimal string, e.g. "10.00"; required when no line items are given.
        note: Why the refund was issued.
    """
    order = own_order(db, shopper(db), order_id)
    value = rules.cents(amount) if amount is not None else None
    return refund_object(book.refund(db, order, refund_line_items, value, note))


@tool()
def create_return(
    db: Database, order_id: str, return_line_items: Annotated[list[ReturnLineItemInput], Field(min_length=1)]
) -> ReturnObject:
    """Return delivered items of a paid order: the units go back into stock and their price, less their share of
    the order discount, is refunded to the card (capped at what remains refundable). Items can be returned within
    30 days of delivery; final-sale items can't be returned.

    Args:
        order_id: The order the items came from.
        return_line_items: Line items, quantities and reasons, e.g.
            [{"line_item_id": "li_00042", "quantity": 1, "return_reason": "size_too_small"}].
    """
    order = own_order(db, shopper(db), order_id)
    ret = book.process_return(db, order, return_line_items)
    return return_object(ret, db.find(refunds, order_id=order["id"]))
