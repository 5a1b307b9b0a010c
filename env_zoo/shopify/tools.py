"""Shopify tools: storefront sign-in, product search, the shopper's cart and checkout (Storefront API), and the
shopper's orders with cancellations, refunds and returns (Admin API). Money is a decimal string in USD."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import func, select

from envfactory_gym import Conflict, Database, InvalidRequest, NotFound, Page, PermissionDenied, paginate, tool

from .schema import (
    cart_lines, carts, customers, discount_codes, fulfillments, line_items, orders, products, refunds, returns,
    storefront_sessions, transactions, variants,
)

CENT = Decimal("0.01")
STANDARD_RATE = Decimal("6.95")
EXPRESS_RATE = Decimal("14.95")
FREE_SHIPPING_OVER = Decimal("75.00")
RETURN_WINDOW = timedelta(days=30)
SHIPS_TO = {"US", "CA"}
FINAL_SALE_TAG = "final-sale"
STORE_DOMAIN = "alder-and-pine.myshopify.com"
REFUNDABLE = {"paid", "partially_refunded"}

CancelReason = Literal["customer", "inventory", "fraud", "declined", "other"]
ReturnReason = Literal[
    "size_too_small", "size_too_large", "unwanted", "not_as_described", "wrong_item", "defective", "style", "color",
    "other",
]


# ---------------------------------------------------------------- objects

class MailingAddress(BaseModel):
    """A shipping address."""

    first_name: str
    last_name: str
    address1: str
    address2: str | None = None
    city: str
    province_code: str = Field(description="state or province code, e.g. OR or BC")
    country_code: str = Field(description="two-letter country code, e.g. US")
    zip: str


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


class CartLineInput(BaseModel):
    """A line to add to the cart."""

    merchandise_id: str = Field(description="the variant's id, from search_products")
    quantity: int = 1


class CartLineUpdateInput(BaseModel):
    """A new quantity for a cart line; 0 removes the line."""

    id: str = Field(description="the cart line's id, from get_cart")
    quantity: int


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
    returnable_quantity: int = Field(description="delivered units that may still be returned (ignores the 30-day window)")


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


class RefundLineItemInput(BaseModel):
    """Units of a line item to refund."""

    line_item_id: str
    quantity: int


class RefundObject(BaseModel):
    """Money sent back to the original payment method."""

    id: str
    order_id: str
    return_id: str | None
    note: str
    amount: str
    refund_line_items: list[dict[str, Any]]
    created_at: str


class ReturnLineItemInput(BaseModel):
    """Units of a delivered line item being returned, and why."""

    line_item_id: str
    quantity: int
    return_reason: ReturnReason


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


# ---------------------------------------------------------------- money and lookups

def _dec(value: str) -> Decimal:
    return Decimal(value)


def _money(value: Decimal) -> str:
    return str(value.quantize(CENT, rounding=ROUND_HALF_UP))


def _parse_amount(amount: str) -> Decimal:
    try:
        value = Decimal(amount)
    except InvalidOperation:
        raise InvalidRequest(f"amount must be a decimal string such as '12.50', not {amount!r}") from None
    if not value.is_finite() or value != value.quantize(CENT) or value <= 0:
        raise InvalidRequest("amount must be positive with at most two decimals, e.g. '12.50'")
    return value


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _signed_in(db: Database) -> dict[str, Any]:
    """The shopper signed in on the storefront; the assistant acts only for them."""
    session = db.current_session(
        storefront_sessions, "No shopper is signed in. Ask the shopper to log in to the store first."
    )
    return db.get(customers, session["customer_id"], "Customer")


def _own_order(db: Database, customer: dict[str, Any], order_id: str) -> dict[str, Any]:
    row = db.conn.execute(select(orders).where(orders.c.id == order_id)).mappings().first()
    if row is None or row["customer_id"] != customer["id"]:
        raise NotFound(f"Order '{order_id}' not found for this customer")
    return dict(row)


def _sellable_variant(db: Database, variant_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    variant = db.conn.execute(select(variants).where(variants.c.id == variant_id)).mappings().first()
    product = db.get(products, variant["product_id"]) if variant else None
    if variant is None or product is None or product["status"] != "active":
        raise NotFound(f"The merchandise with id {variant_id} does not exist.")
    return dict(variant), product


def _label(product: dict[str, Any], variant: dict[str, Any]) -> str:
    return product["title"] if variant["title"] == "Default Title" else f"{product['title']} - {variant['title']}"


def _check_stock(product: dict[str, Any], variant: dict[str, Any], wanted: int) -> None:
    if variant["inventory_policy"] == "deny" and wanted > variant["inventory_quantity"]:
        left = max(variant["inventory_quantity"], 0)
        raise Conflict(f"Only {left} of '{_label(product, variant)}' in stock; the cart would hold {wanted}.")


def _restock(db: Database, variant_id: str, quantity: int) -> None:
    if quantity:
        row = db.get(variants, variant_id, "Variant")
        db.update(variants, variant_id, inventory_quantity=row["inventory_quantity"] + quantity)


# ---------------------------------------------------------------- carts and discounts

def _cart_of(db: Database, customer_id: str) -> dict[str, Any] | None:
    found = db.find(carts, customer_id=customer_id)
    return found[0] if found else None


def _require_cart(db: Database, customer_id: str) -> dict[str, Any]:
    cart = _cart_of(db, customer_id)
    if cart is None:
        raise NotFound("This shopper has no cart yet; add a line to create one.")
    return cart


def _cart_subtotal(db: Database, cart_id: str) -> Decimal:
    total = Decimal(0)
    for line in db.find(cart_lines, cart_id=cart_id):
        total += _dec(db.get(variants, line["variant_id"])["price"]) * line["quantity"]
    return total


def _code_row(db: Database, code: str) -> dict[str, Any]:
    found = db.find(discount_codes, code=code.strip().upper())
    if not found:
        raise NotFound(f"Discount code '{code}' is not valid.")
    return found[0]


def _code_problem(
    db: Database, row: dict[str, Any], customer_id: str, subtotal: Decimal
) -> Conflict | InvalidRequest | None:
    """Why a discount code cannot apply to this shopper's cart right now, or None."""
    now = db.now()
    if _at(row["starts_at"]) > now:
        return InvalidRequest(f"Discount code {row['code']} is not active yet (starts {row['starts_at'][:10]}).")
    if row["ends_at"] and _at(row["ends_at"]) <= now:
        return InvalidRequest(f"Discount code {row['code']} expired on {row['ends_at'][:10]}.")
    if row["usage_limit"] is not None and row["usage_count"] >= row["usage_limit"]:
        return Conflict(f"Discount code {row['code']} has reached its usage limit.")
    if row["once_per_customer"]:
        for order in db.find(orders, orders.c.cancel_reason.is_(None), customer_id=customer_id):
            if any(d["code"] == row["code"] for d in order["discount_codes"]):
                return Conflict(f"Discount code {row['code']} can be used once per customer; it was used on {order['name']}.")
    if row["minimum_subtotal"] and subtotal < _dec(row["minimum_subtotal"]):
        return InvalidRequest(
            f"Discount code {row['code']} needs a subtotal of at least {row['minimum_subtotal']}; "
            f"the cart is at {_money(subtotal)}."
        )
    return None


def _items_discount(row: dict[str, Any], subtotal: Decimal) -> Decimal:
    if row["value_type"] == "percentage":
        return (subtotal * _dec(row["value"]) / 100).quantize(CENT, rounding=ROUND_HALF_UP)
    if row["value_type"] == "fixed_amount":
        return min(_dec(row["value"]), subtotal)
    return Decimal(0)


def _cart_object(db: Database, cart: dict[str, Any]) -> CartObject:
    lines = []
    subtotal = Decimal(0)
    for line in db.find(cart_lines, cart_id=cart["id"]):
        variant = db.get(variants, line["variant_id"])
        product = db.get(products, variant["product_id"])
        line_total = _dec(variant["price"]) * line["quantity"]
        subtotal += line_total
        lines.append(CartLineObject(
            id=line["id"], merchandise_id=variant["id"], product_title=product["title"],
            variant_title=variant["title"], sku=variant["sku"], quantity=line["quantity"],
            unit_price=variant["price"], subtotal=_money(line_total),
            quantity_available=max(variant["inventory_quantity"], 0),
        ))
    codes, discount = [], Decimal(0)
    for code in cart["discount_codes"]:
        row = _code_row(db, code)
        problem = _code_problem(db, row, cart["customer_id"], subtotal)
        if problem is None:
            discount += _items_discount(row, subtotal)
        codes.append(CartDiscountCode(code=code, applicable=problem is None, message=str(problem) if problem else None))
    return CartObject(
        id=cart["id"], checkout_url=f"https://{STORE_DOMAIN}/cart/c/{cart['id']}", buyer_customer_id=cart["customer_id"],
        lines=lines, discount_codes=codes, total_quantity=sum(line.quantity for line in lines),
        subtotal_amount=_money(subtotal), discount_amount=_money(discount), total_amount=_money(subtotal - discount),
    )


def _touch_cart(db: Database, cart_id: str) -> dict[str, Any]:
    return db.update(carts, cart_id, updated_at=db.now_iso())


# ---------------------------------------------------------------- order bookkeeping

def _line_counts(db: Database, order_id: str) -> dict[str, dict[str, Any]]:
    """Per line item: fulfilled, delivered (and last delivery), refunded by restock type, returned units."""
    counts = {
        li["id"]: {"fulfilled": 0, "delivered": 0, "last_delivery": None, "cancel": 0, "no_restock": 0, "return": 0,
                   "returned": 0}
        for li in db.find(line_items, order_id=order_id)
    }
    for shipment in db.find(fulfillments, order_id=order_id, status="success"):
        for entry in shipment["line_items"]:
            c = counts[entry["line_item_id"]]
            c["fulfilled"] += entry["quantity"]
            if shipment["shipment_status"] == "delivered":
                c["delivered"] += entry["quantity"]
                c["last_delivery"] = max(filter(None, [c["last_delivery"], shipment["delivered_at"]]))
    for refund in db.find(refunds, order_id=order_id):
        for entry in refund["refund_line_items"]:
            counts[entry["line_item_id"]][entry["restock_type"]] += entry["quantity"]
    for ret in db.find(returns, order_id=order_id):
        for entry in ret["return_line_items"]:
            counts[entry["line_item_id"]]["returned"] += entry["quantity"]
    return counts


def _unshipped(item: dict[str, Any], c: dict[str, Any]) -> int:
    return item["quantity"] - c["fulfilled"] - c["cancel"]


def _refunded(c: dict[str, Any]) -> int:
    return c["cancel"] + c["no_restock"] + c["return"]


def _returnable(c: dict[str, Any]) -> int:
    return max(c["delivered"] - c["no_restock"] - c["returned"], 0)


def _line_refund(item: dict[str, Any], quantity: int) -> Decimal:
    """Price of `quantity` units of a line item, less their share of the order discount."""
    share = (_dec(item["total_discount"]) * quantity / item["quantity"]).quantize(CENT, rounding=ROUND_HALF_UP)
    return _dec(item["price"]) * quantity - share


def _paid_and_refunded(db: Database, order_id: str) -> tuple[Decimal, Decimal]:
    paid = refunded = Decimal(0)
    for txn in db.find(transactions, order_id=order_id, status="success"):
        if txn["kind"] == "sale":
            paid += _dec(txn["amount"])
        elif txn["kind"] == "refund":
            refunded += _dec(txn["amount"])
    return paid, refunded


def _gateway_details(db: Database, order_id: str) -> dict[str, Any] | None:
    sales = db.find(transactions, order_id=order_id, kind="sale")
    return sales[0]["payment_details"] if sales else None


def _record_refund(
    db: Database, order: dict[str, Any], amount: Decimal, entries: list[dict[str, Any]], note: str,
    return_id: str | None = None,
) -> dict[str, Any]:
    """Insert a refund and, for a non-zero amount, its refund transaction and the order's new financial status."""
    now = db.now_iso()
    refund = db.insert(
        refunds, id=db.new_id(refunds, "ref_"), order_id=order["id"], return_id=return_id, note=note,
        amount=_money(amount), refund_line_items=entries, created_at=now,
    )
    if amount > 0:
        db.insert(
            transactions, id=db.new_id(transactions, "txn_"), order_id=order["id"], kind="refund", status="success",
            amount=_money(amount), gateway="shopify_payments", payment_details=_gateway_details(db, order["id"]),
            processed_at=now,
        )
        paid, refunded = _paid_and_refunded(db, order["id"])
        db.update(orders, order["id"], financial_status="refunded" if refunded >= paid else "partially_refunded")
    return refund


def _fulfillment_status(db: Database, order_id: str) -> str | None:
    shipped = pending = 0
    counts = _line_counts(db, order_id)
    for item in db.find(line_items, order_id=order_id):
        shipped += counts[item["id"]]["fulfilled"]
        pending += _unshipped(item, counts[item["id"]])
    if not shipped:
        return None
    return "partial" if pending else "fulfilled"


def _refund_object(row: dict[str, Any]) -> RefundObject:
    return RefundObject(**{k: row[k] for k in RefundObject.model_fields})


def _return_object(db: Database, row: dict[str, Any]) -> ReturnObject:
    refund = db.find(refunds, return_id=row["id"])
    return ReturnObject(
        **{k: row[k] for k in ReturnObject.model_fields if k != "refund"},
        refund=_refund_object(refund[0]) if refund else None,
    )


def _order_object(db: Database, order: dict[str, Any]) -> OrderObject:
    counts = _line_counts(db, order["id"])
    items = []
    for item in db.find(line_items, order_id=order["id"]):
        c = counts[item["id"]]
        tags = db.get(products, item["product_id"])["tags"]
        items.append(LineItemObject(
            **{k: item[k] for k in ("id", "product_id", "variant_id", "title", "variant_title", "sku", "quantity",
                                    "price", "total_discount")},
            final_sale=FINAL_SALE_TAG in tags, fulfilled_quantity=c["fulfilled"], delivered_quantity=c["delivered"],
            refunded_quantity=_refunded(c), returned_quantity=c["returned"],
            refundable_quantity=item["quantity"] - _refunded(c), returnable_quantity=_returnable(c),
        ))
    paid, refunded = _paid_and_refunded(db, order["id"])
    return OrderObject(
        **{k: order[k] for k in OrderObject.model_fields if k in order},
        total_received=_money(paid), total_refunded=_money(refunded), line_items=items,
        fulfillments=[FulfillmentObject(**{k: f[k] for k in FulfillmentObject.model_fields})
                      for f in db.find(fulfillments, order_id=order["id"], order_by=[fulfillments.c.created_at])],
        transactions=[TransactionObject(**{k: t[k] for k in TransactionObject.model_fields})
                      for t in db.find(transactions, order_id=order["id"], order_by=[transactions.c.processed_at])],
        refunds=[_refund_object(r) for r in db.find(refunds, order_id=order["id"])],
        returns=[_return_object(db, r) for r in db.find(returns, order_id=order["id"])],
    )


# ---------------------------------------------------------------- tools: session, catalog, account

@tool(user_only=True)
def log_in(db: Database, email: str) -> SessionObject:
    """(User only, on the storefront) The shopper signs in with their email and password; the password is typed
    in the store's sign-in form and never seen by the assistant.

    Args:
        email: The shopper's account email.
    """
    found = db.find(customers, email=email.strip().lower())
    if not found:
        raise NotFound("Unidentified customer: no account with that email and password.")
    customer = found[0]
    if customer["state"] == "disabled":
        raise PermissionDenied("This customer account has been disabled by the store.")
    if customer["state"] != "enabled":
        raise PermissionDenied("This account is not activated yet; accept the invitation email first.")
    db.start_session(storefront_sessions, customer_id=customer["id"])
    return SessionObject(customer_id=customer["id"], first_name=customer["first_name"], email=customer["email"])


@tool(read_only=True)
def search_products(
    db: Database,
    query: str = "",
    product_type: str | None = None,
    available_only: bool = False,
    page_size: int = 10,
    cursor: str | None = None,
) -> Page[ProductObject]:
    """Search the online store's products, with their variants, prices and stock, sorted by title.

    Every word of the query must appear in the product's title, vendor, type, tags, variant titles or SKUs.
    Draft and archived products are not sold online and never appear.

    Args:
        query: Words to look for (case-insensitive). Empty lists every product.
        product_type: Only this product type, e.g. "Jackets", "Footwear", "Camp Kitchen".
        available_only: Only products with at least one variant that can be bought now.
        page_size: Products per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    words = query.casefold().split()
    found = []
    for product in db.find(products, status="active", order_by=[products.c.title]):
        if product_type and product["product_type"].casefold() != product_type.casefold():
            continue
        rows = db.find(variants, product_id=product["id"], order_by=[variants.c.position])
        haystack = " ".join([product["title"], product["vendor"], product["product_type"], *product["tags"],
                             *(v["title"] for v in rows), *(v["sku"] for v in rows)]).casefold()
        if not all(word in haystack for word in words):
            continue
        sellable = [v["inventory_quantity"] > 0 or v["inventory_policy"] == "continue" for v in rows]
        if available_only and not any(sellable):
            continue
        found.append(ProductObject(
            **{k: product[k] for k in ("id", "title", "handle", "vendor", "product_type", "tags", "description")},
            variants=[VariantObject(
                **{k: v[k] for k in ("id", "title", "sku", "price", "compare_at_price", "inventory_policy")},
                available_for_sale=ok, quantity_available=max(v["inventory_quantity"], 0),
            ) for v, ok in zip(rows, sellable)],
        ))
    return paginate(found, page_size, cursor, max_page_size=50)


@tool(read_only=True)
def get_customer(db: Database) -> CustomerObject:
    """The signed-in shopper's account: contact details, default address, saved card, order count, spend and cart."""
    customer = _signed_in(db)
    placed = db.find(orders, customer_id=customer["id"])
    spent = Decimal(0)
    for order in placed:
        paid, refunded = _paid_and_refunded(db, order["id"])
        spent += paid - refunded
    card = customer["payment_method"]
    cart = _cart_of(db, customer["id"])
    return CustomerObject(
        **{k: customer[k] for k in ("id", "first_name", "last_name", "email", "phone", "accepts_marketing", "tags",
                                    "default_address")},
        payment_method=PaymentMethodObject(brand=card["brand"], last_digits=card["last_digits"]) if card else None,
        orders_count=len(placed), total_spent=_money(spent), cart_id=cart["id"] if cart else None,
    )


# ---------------------------------------------------------------- tools: cart and checkout

@tool(read_only=True)
def get_cart(db: Database) -> CartObject:
    """The signed-in shopper's cart: lines, stock left per line, discount codes and whether they apply, and cost
    before shipping."""
    customer = _signed_in(db)
    return _cart_object(db, _require_cart(db, customer["id"]))


@tool()
def cart_lines_add(db: Database, lines: list[CartLineInput]) -> CartObject:
    """Add merchandise to the signed-in shopper's cart (creating the cart if they have none). Adding a variant
    that is already in the cart raises that line's quantity. A cart can't hold more of a variant than is in stock,
    unless the variant can be pre-ordered.

    Args:
        lines: Variants and quantities to add, e.g. [{"merchandise_id": "var_0012", "quantity": 2}].
    """
    customer = _signed_in(db)
    if not lines:
        raise InvalidRequest("lines must not be empty")
    cart = _cart_of(db, customer["id"])
    if cart is None:
        now = db.now_iso()
        cart = db.insert(carts, id=db.new_id(carts, "cart_"), customer_id=customer["id"], discount_codes=[],
                         created_at=now, updated_at=now)
    for line in lines:
        if line.quantity < 1:
            raise InvalidRequest("The quantity must be greater than 0.")
        variant, product = _sellable_variant(db, line.merchandise_id)
        existing = db.find(cart_lines, cart_id=cart["id"], variant_id=variant["id"])
        wanted = line.quantity + (existing[0]["quantity"] if existing else 0)
        _check_stock(product, variant, wanted)
        if existing:
            db.update(cart_lines, existing[0]["id"], quantity=wanted)
        else:
            db.insert(cart_lines, id=db.new_id(cart_lines, "cl_"), cart_id=cart["id"], variant_id=variant["id"],
                      quantity=wanted)
    return _cart_object(db, _touch_cart(db, cart["id"]))


@tool()
def cart_lines_update(db: Database, lines: list[CartLineUpdateInput]) -> CartObject:
    """Change the quantities of lines in the signed-in shopper's cart; a quantity of 0 removes the line.

    Args:
        lines: Cart line ids (from get_cart) and their new quantities.
    """
    customer = _signed_in(db)
    cart = _require_cart(db, customer["id"])
    if not lines:
        raise InvalidRequest("lines must not be empty")
    for update in lines:
        found = db.find(cart_lines, id=update.id, cart_id=cart["id"])
        if not found:
            raise NotFound(f"Cart line '{update.id}' is not in this cart.")
        if update.quantity < 0:
            raise InvalidRequest("The quantity can't be negative.")
        if update.quantity == 0:
            db.delete(cart_lines, update.id)
            continue
        variant = db.get(variants, found[0]["variant_id"])
        _check_stock(db.get(products, variant["product_id"]), variant, update.quantity)
        db.update(cart_lines, update.id, quantity=update.quantity)
    return _cart_object(db, _touch_cart(db, cart["id"]))


@tool()
def cart_discount_codes_update(db: Database, discount_codes: list[str]) -> CartObject:
    """Replace the discount codes on the signed-in shopper's cart (one code per cart; an empty list removes it).
    A code must be live (between its start and end dates), under its usage limit, unused by this shopper if it is
    once-per-customer, and the cart must reach its minimum subtotal.

    Args:
        discount_codes: The code to apply, e.g. ["SUMMIT15"], or [] to remove the current one.
    """
    customer = _signed_in(db)
    cart = _require_cart(db, customer["id"])
    if len(discount_codes) > 1:
        raise InvalidRequest("Only one discount code can be applied to a cart.")
    codes = []
    for code in discount_codes:
        row = _code_row(db, code)
        problem = _code_problem(db, row, customer["id"], _cart_subtotal(db, cart["id"]))
        if problem is not None:
            raise problem
        codes.append(row["code"])
    db.update(carts, cart["id"], discount_codes=codes)
    return _cart_object(db, _touch_cart(db, cart["id"]))


@tool()
def clear_cart(db: Database) -> CartObject:
    """Empty the signed-in shopper's cart: remove every line and discount code."""
    customer = _signed_in(db)
    cart = _require_cart(db, customer["id"])
    lines = db.find(cart_lines, cart_id=cart["id"])
    if not lines and not cart["discount_codes"]:
        raise Conflict("The cart is already empty.")
    for line in lines:
        db.delete(cart_lines, line["id"])
    db.update(carts, cart["id"], discount_codes=[])
    return _cart_object(db, _touch_cart(db, cart["id"]))


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
    customer = _signed_in(db)
    cart = _require_cart(db, customer["id"])
    lines = db.find(cart_lines, cart_id=cart["id"])
    if not lines:
        raise Conflict("The cart is empty.")
    address = shipping_address.model_dump() if shipping_address else customer["default_address"]
    if address is None:
        raise InvalidRequest("A shipping address is required: the shopper has no default address.")
    address = {**address, "country_code": address["country_code"].upper()}
    if address["country_code"] not in SHIPS_TO:
        raise InvalidRequest(f"The store doesn't ship to {address['country_code']}; it ships to the US and Canada.")
    card = customer["payment_method"]
    if card is None:
        raise InvalidRequest("The shopper has no saved card to pay with.")
    priced = []
    for line in lines:
        variant = db.get(variants, line["variant_id"])
        product = db.get(products, variant["product_id"])
        if product["status"] != "active":
            raise Conflict(f"'{product['title']}' is no longer sold; remove it from the cart.")
        _check_stock(product, variant, line["quantity"])
        priced.append((line, variant, product, _dec(variant["price"]) * line["quantity"]))
    items_total = sum((p[3] for p in priced), Decimal(0))
    code_row = _code_row(db, cart["discount_codes"][0]) if cart["discount_codes"] else None
    discount = Decimal(0)
    if code_row is not None:
        problem = _code_problem(db, code_row, customer["id"], items_total)
        if problem is not None:
            raise Conflict(f"{problem} Remove the code or change the cart before checking out.")
        discount = _items_discount(code_row, items_total)
    subtotal = items_total - discount
    rate = EXPRESS_RATE if shipping_method == "express" else STANDARD_RATE
    if shipping_method == "standard" and subtotal >= FREE_SHIPPING_OVER:
        rate = Decimal(0)
    shipping = Decimal(0) if code_row is not None and code_row["value_type"] == "free_shipping" else rate
    number = (db.conn.execute(select(func.max(orders.c.order_number))).scalar() or 1000) + 1
    now = db.now_iso()
    codes = []
    if code_row is not None:
        saved = rate if code_row["value_type"] == "free_shipping" else discount
        kind = "shipping" if code_row["value_type"] == "free_shipping" else code_row["value_type"]
        codes = [{"code": code_row["code"], "amount": _money(saved), "type": kind}]
        db.update(discount_codes, code_row["id"], usage_count=code_row["usage_count"] + 1)
    total = subtotal + shipping
    order = db.insert(
        orders, id=db.new_id(orders, "ord_"), order_number=number, name=f"#{number}", customer_id=customer["id"],
        email=customer["email"], created_at=now, financial_status="pending" if card["three_d_secure"] else "paid",
        fulfillment_status=None, cancel_reason=None, cancelled_at=None, total_line_items_price=_money(items_total),
        total_discounts=_money(discount), subtotal_price=_money(subtotal), total_shipping_price=_money(shipping),
        total_price=_money(total), discount_codes=codes, shipping_line=shipping_method.capitalize(),
        shipping_address=address,
    )
    allocated = Decimal(0)
    for index, (line, variant, product, line_total) in enumerate(priced):
        if index == len(priced) - 1:
            share = discount - allocated
        else:
            share = (discount * line_total / items_total).quantize(CENT, rounding=ROUND_HALF_UP)
        allocated += share
        db.insert(
            line_items, id=db.new_id(line_items, "li_", width=5), order_id=order["id"], variant_id=variant["id"],
            product_id=product["id"], title=product["title"], variant_title=variant["title"], sku=variant["sku"],
            quantity=line["quantity"], price=variant["price"], total_discount=_money(share),
        )
        db.update(variants, variant["id"], inventory_quantity=variant["inventory_quantity"] - line["quantity"])
        db.delete(cart_lines, line["id"])
    db.insert(
        transactions, id=db.new_id(transactions, "txn_"), order_id=order["id"], kind="sale",
        status="pending" if card["three_d_secure"] else "success", amount=_money(total), gateway="shopify_payments",
        payment_details={"credit_card_company": card["brand"], "credit_card_number": f"•••• {card['last_digits']}"},
        processed_at=now,
    )
    db.delete(carts, cart["id"])
    next_action = (
        f"The shopper must approve the {_money(total)} payment for {order['name']} in their banking app (3-D Secure)."
        if card["three_d_secure"] else None
    )
    return CheckoutResult(order=_order_object(db, order), next_action=next_action)


@tool(user_only=True)
def confirm_payment_3ds(db: Database, order_name: str) -> OrderObject:
    """(User only, in the banking app) The shopper approves the 3-D Secure challenge of a pending card payment.

    Args:
        order_name: The order's number as shown to the shopper, e.g. "#1187".
    """
    customer = _signed_in(db)
    found = db.find(orders, name=order_name.strip(), customer_id=customer["id"])
    if not found:
        raise NotFound(f"Order {order_name} not found for this customer")
    order = found[0]
    pending = db.find(transactions, order_id=order["id"], kind="sale", status="pending")
    if not pending or order["financial_status"] != "pending":
        raise Conflict(f"Order {order['name']} has no card payment waiting for approval.")
    db.update(transactions, pending[0]["id"], status="success", processed_at=db.now_iso())
    return _order_object(db, db.update(orders, order["id"], financial_status="paid"))


# ---------------------------------------------------------------- tools: orders

@tool(read_only=True)
def list_orders(
    db: Database,
    status: Literal["open", "cancelled", "any"] = "any",
    page_size: int = 10,
    cursor: str | None = None,
) -> Page[OrderSummary]:
    """The signed-in shopper's orders, newest first, with status, total and items.

    Args:
        status: open (not cancelled), cancelled, or any.
        page_size: Orders per page, 1 to 50.
        cursor: The next_cursor of the previous page.
    """
    customer = _signed_in(db)
    rows = db.find(orders, customer_id=customer["id"], order_by=[orders.c.created_at.desc()])
    if status != "any":
        rows = [r for r in rows if (r["cancel_reason"] is not None) == (status == "cancelled")]
    summaries = [
        OrderSummary(
            **{k: r[k] for k in ("id", "name", "created_at", "financial_status", "fulfillment_status", "total_price")},
            cancelled=r["cancel_reason"] is not None,
            items=[f"{li['quantity']} x {li['title']} - {li['variant_title']}"
                   for li in db.find(line_items, order_id=r["id"])],
        )
        for r in rows
    ]
    return paginate(summaries, page_size, cursor, max_page_size=50)


@tool(read_only=True)
def get_order(db: Database, order_id: str) -> OrderObject:
    """One of the signed-in shopper's orders in full: line items (shipped, delivered, refunded, returnable units),
    shipments with tracking and delivery dates, payments, refunds and returns.

    Args:
        order_id: The order's id, from list_orders.
    """
    return _order_object(db, _own_order(db, _signed_in(db), order_id))


@tool()
def cancel_order(db: Database, order_id: str, reason: CancelReason = "customer") -> OrderObject:
    """Cancel an order that has not shipped at all: its units go back into stock and everything paid is refunded
    to the card (a payment still awaiting 3-D Secure approval is voided). Orders with any shipment can't be
    cancelled.

    Args:
        order_id: The order to cancel.
        reason: customer (the shopper changed their mind), inventory, fraud, declined (payment) or other.
    """
    order = _own_order(db, _signed_in(db), order_id)
    if order["cancel_reason"] is not None:
        raise Conflict(f"Order {order['name']} is already cancelled.")
    if db.find(fulfillments, order_id=order_id, status="success"):
        raise Conflict(
            f"Order {order['name']} has already shipped ({order['fulfillment_status']}) and can't be cancelled; "
            "delivered items can be returned instead."
        )
    counts = _line_counts(db, order_id)
    entries = []
    for item in db.find(line_items, order_id=order_id):
        units = _unshipped(item, counts[item["id"]])
        _restock(db, item["variant_id"], units)
        if units:
            entries.append({"line_item_id": item["id"], "quantity": units, "restock_type": "cancel",
                            "subtotal": _money(_line_refund(item, units))})
    paid, refunded = _paid_and_refunded(db, order_id)
    if entries or paid > refunded:
        _record_refund(db, order, paid - refunded, entries, "Order cancelled")
    pending = db.find(transactions, order_id=order_id, kind="sale", status="pending")
    if pending:
        db.insert(
            transactions, id=db.new_id(transactions, "txn_"), order_id=order_id, kind="void", status="success",
            amount=pending[0]["amount"], gateway="shopify_payments", payment_details=pending[0]["payment_details"],
            processed_at=db.now_iso(),
        )
        db.update(orders, order_id, financial_status="voided")
    updated = db.update(orders, order_id, cancel_reason=reason, cancelled_at=db.now_iso())
    return _order_object(db, updated)


def _checked_lines(db: Database, order_id: str, requested: list[Any]) -> dict[str, dict[str, Any]]:
    """The order's line items named in `requested`, each named once with a positive quantity."""
    items = {li["id"]: li for li in db.find(line_items, order_id=order_id)}
    if not requested:
        raise InvalidRequest("Give at least one line item.")
    seen: set[str] = set()
    for entry in requested:
        if entry.line_item_id not in items:
            raise NotFound(f"Line item '{entry.line_item_id}' is not part of this order.")
        if entry.line_item_id in seen:
            raise InvalidRequest(f"Line item '{entry.line_item_id}' is listed twice.")
        if entry.quantity < 1:
            raise InvalidRequest("Quantities must be at least 1.")
        seen.add(entry.line_item_id)
    return items


@tool()
def create_refund(
    db: Database,
    order_id: str,
    refund_line_items: list[RefundLineItemInput] | None = None,
    amount: str | None = None,
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
    order = _own_order(db, _signed_in(db), order_id)
    if order["financial_status"] not in REFUNDABLE:
        raise Conflict(f"Order {order['name']} has no captured payment to refund (financial status: "
                       f"{order['financial_status']}).")
    if not refund_line_items and amount is None:
        raise InvalidRequest("Give refund_line_items, an amount, or both.")
    paid, refunded = _paid_and_refunded(db, order_id)
    available = paid - refunded
    entries, computed = [], Decimal(0)
    if refund_line_items:
        items = _checked_lines(db, order_id, refund_line_items)
        counts = _line_counts(db, order_id)
        for entry in refund_line_items:
            item, c = items[entry.line_item_id], counts[entry.line_item_id]
            left = item["quantity"] - _refunded(c)
            if entry.quantity > left:
                raise InvalidRequest(f"Only {left} of '{item['title']} - {item['variant_title']}' can still be refunded.")
            cancelled = min(entry.quantity, _unshipped(item, c))
            for restock_type, units in (("cancel", cancelled), ("no_restock", entry.quantity - cancelled)):
                if units:
                    entries.append({"line_item_id": item["id"], "quantity": units, "restock_type": restock_type,
                                    "subtotal": _money(_line_refund(item, units))})
            _restock(db, item["variant_id"], cancelled)
            computed += _line_refund(item, entry.quantity)
    value = _parse_amount(amount) if amount is not None else min(computed, available)
    if value > available:
        raise InvalidRequest(f"Refund amount {_money(value)} exceeds the {_money(available)} that can still be "
                             f"refunded on order {order['name']}.")
    if value <= 0:
        raise Conflict(f"Nothing is left to refund on order {order['name']}.")
    refund = _record_refund(db, order, value, entries, note)
    db.update(orders, order_id, fulfillment_status=_fulfillment_status(db, order_id))
    return _refund_object(refund)


@tool()
def create_return(db: Database, order_id: str, return_line_items: list[ReturnLineItemInput]) -> ReturnObject:
    """Return delivered items of a paid order: the units go back into stock and their price, less their share of
    the order discount, is refunded to the card (capped at what remains refundable). Items can be returned within
    30 days of delivery; final-sale items can't be returned.

    Args:
        order_id: The order the items came from.
        return_line_items: Line items, quantities and reasons, e.g.
            [{"line_item_id": "li_00042", "quantity": 1, "return_reason": "size_too_small"}].
    """
    order = _own_order(db, _signed_in(db), order_id)
    if order["cancel_reason"] is not None:
        raise Conflict(f"Order {order['name']} was cancelled; there is nothing to return.")
    if order["financial_status"] not in REFUNDABLE | {"refunded"}:
        raise Conflict(f"Order {order['name']} is not paid (financial status: {order['financial_status']}).")
    items = _checked_lines(db, order_id, return_line_items)
    counts = _line_counts(db, order_id)
    now = db.now()
    entries, refund_entries, computed = [], [], Decimal(0)
    for entry in return_line_items:
        item, c = items[entry.line_item_id], counts[entry.line_item_id]
        label = f"{item['title']} - {item['variant_title']}"
        if FINAL_SALE_TAG in db.get(products, item["product_id"])["tags"]:
            raise InvalidRequest(f"'{label}' was a final-sale item and can't be returned.")
        if not c["delivered"]:
            state = "shipped but not delivered yet" if c["fulfilled"] else "not shipped yet"
            raise Conflict(f"'{label}' is {state}; only delivered items can be returned.")
        closes = _at(c["last_delivery"]) + RETURN_WINDOW
        if now > closes:
            raise InvalidRequest(f"The 30-day return window for '{label}' closed on {closes.date().isoformat()}.")
        if entry.quantity > _returnable(c):
            raise InvalidRequest(f"Only {_returnable(c)} of '{label}' can be returned.")
        entries.append({"line_item_id": item["id"], "quantity": entry.quantity, "return_reason": entry.return_reason})
        refund_entries.append({"line_item_id": item["id"], "quantity": entry.quantity, "restock_type": "return",
                               "subtotal": _money(_line_refund(item, entry.quantity))})
        _restock(db, item["variant_id"], entry.quantity)
        computed += _line_refund(item, entry.quantity)
    number = len(db.find(returns, order_id=order_id)) + 1
    ret = db.insert(
        returns, id=db.new_id(returns, "ret_"), order_id=order_id, name=f"{order['name']}-R{number}", status="closed",
        return_line_items=entries, created_at=db.now_iso(),
    )
    paid, refunded = _paid_and_refunded(db, order_id)
    _record_refund(db, order, min(computed, paid - refunded), refund_entries, f"Return {ret['name']}", ret["id"])
    return _return_object(db, ret)
