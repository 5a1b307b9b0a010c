"""WooCommerce REST API (v3) tools for the store manager: products, variations, categories and tags, orders, order
notes, refunds, coupons and customers."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, Unordered, tool
from envfactory_gym.database import given
from envfactory_gym.fields import ErrorText, IsoDate

from . import catalog, people
from . import orders as ordering
from .errors import clash, refused
from .objects import (
    CategoryObject,
    CouponObject,
    CustomerObject,
    ListPage,
    NoteObject,
    OrderObject,
    ProductObject,
    RefundObject,
    TagObject,
    VariationObject,
    coupon_object,
    page_of,
    refund_object,
)
from .rules import add_note, change_status, fetch, new_post_id
from .schema import categories as category_terms
from .schema import coupons, customers, line_items, order_notes, orders, products, refunds, variations
from .schema import tags as tag_terms

PerPage = Annotated[
    int,
    Field(ge=1, le=100),
    ErrorText("rest_invalid_param: per_page must be between 1 (inclusive) and 100 (inclusive)"),
]
PageNumber = Annotated[int, Field(ge=1), ErrorText("rest_invalid_param: page must be greater than or equal to 1")]
Money = Annotated[
    str,
    Field(pattern=r"^[0-9]{1,6}(\.[0-9]{1,2})?$"),
    ErrorText("rest_invalid_param: amounts are decimal strings such as 12.50"),
]
Price = Annotated[
    str,
    Field(pattern=r"^([0-9]{1,6}(\.[0-9]{1,2})?)?$"),
    ErrorText("rest_invalid_param: prices are decimal strings such as 12.50, or empty to clear"),
]
SaleDate = Annotated[
    str,
    Field(pattern=r"^([0-9]{4}-[0-9]{2}-[0-9]{2})?$"),
    ErrorText("rest_invalid_param: dates read YYYY-MM-DD, or empty to clear"),
]
Quantity = Annotated[int, Field(ge=1, le=999), ErrorText("rest_invalid_param: quantity must be 1 to 999")]
StockQuantity = Annotated[int, Field(ge=0, le=99999)]
OrderStatus = Literal["pending", "processing", "on-hold", "completed", "cancelled", "refunded", "failed"]
StockStatus = Literal["instock", "outofstock", "onbackorder"]
CouponCode = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
Email = Annotated[
    str,
    Field(pattern=r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$"),
    ErrorText("rest_invalid_param: billing.email is not a valid email address"),
]
NoteText = Annotated[str, Field(min_length=1, max_length=2000, pattern=r"\S")]
Limit = Annotated[int, Field(ge=1, le=100000)]


class LineItemInput(BaseModel):
    """A line of a new order: a product, the variation for a variable product, and a quantity."""

    product_id: int
    variation_id: int | None = Field(None, description="Required for a variable product; omit for a simple one.")
    quantity: Quantity


class CouponLineInput(BaseModel):
    """A coupon to apply to a new order, by code."""

    code: CouponCode


class BillingInput(BaseModel):
    """Billing details of a guest order."""

    first_name: Annotated[str, Field(min_length=1, max_length=60)]
    last_name: Annotated[str, Field(min_length=1, max_length=60)]
    email: Email
    phone: Annotated[str, Field(max_length=30)] = ""


class RefundLineInput(BaseModel):
    """A line item to refund: its id on the order, how many units come back and the amount refunded for it."""

    id: int
    quantity: Annotated[int, Field(ge=0, le=999)] = 0
    refund_total: Money


# ---------------------------------------------------------------- catalog


@tool(read_only=True)
def list_products(
    db: Database,
    search: str | None = None,
    sku: str | None = None,
    category: int | None = None,
    tag: int | None = None,
    type: Literal["simple", "variable"] | None = None,
    status: Literal["any", "publish", "draft", "private"] = "any",
    stock_status: StockStatus | None = None,
    on_sale: bool | None = None,
    per_page: PerPage = 10,
    page: PageNumber = 1,
) -> ListPage[ProductObject]:
    """List products, sorted by name, with prices (`price` is what is charged today), stock and categories.

    Args:
        search: Words in the product name or SKU (case-insensitive).
        sku: Exact SKU.
        category: A category id: products in it.
        tag: A tag id: products with it.
        type: simple or variable.
        status: Publication status; any (default) lists all.
        stock_status: instock, outofstock or onbackorder.
        on_sale: True for products with a sale running today (a variable product: any of its variations).
        per_page: Results per page (1-100).
        page: Page number, from 1.
    """
    rows = db.find(products, order_by=[products.c.name], **given(sku=sku, type=type, stock_status=stock_status))
    if status != "any":
        rows = [r for r in rows if r["status"] == status]
    if search:
        words = search.lower().split()
        rows = [r for r in rows if all(w in f"{r['name']} {r['sku']}".lower() for w in words)]
    if category is not None:
        rows = [r for r in rows if category in r["category_ids"]]
    if tag is not None:
        rows = [r for r in rows if tag in r["tag_ids"]]
    known = catalog.terms(db)
    shown = [catalog.show_product(db, r, known) for r in rows]
    if on_sale is not None:
        shown = [p for p in shown if p.on_sale == on_sale]
    return page_of(shown, page, per_page, lambda p: p)


@tool(read_only=True)
def retrieve_product(db: Database, product_id: int) -> ProductObject:
    """Retrieve one product with its price, stock, categories, tags, attributes and variation ids.

    Args:
        product_id: The product's id.
    """
    return catalog.show_product(db, fetch(db, products, product_id, "woocommerce_rest_product_invalid_id"))


@tool()
def update_product(
    db: Database,
    product_id: int,
    regular_price: Price | None = None,
    sale_price: Price | None = None,
    date_on_sale_from: SaleDate | None = None,
    date_on_sale_to: SaleDate | None = None,
    manage_stock: bool | None = None,
    stock_quantity: StockQuantity | None = None,
    stock_status: StockStatus | None = None,
    status: Literal["publish", "draft", "private"] | None = None,
    categories: Annotated[list[int], Unordered] | None = None,
    tags: Annotated[list[int], Unordered] | None = None,
) -> ProductObject:
    """Update a simple product's price, sale, stock, status, categories or tags (prices of a variable product
    live on its variations). A sale price must be below the regular price; its dates run inclusively, and an
    empty sale price ends the sale. With manage_stock, the stock status follows the quantity.

    Args:
        product_id: The product's id.
        regular_price: Regular price, e.g. "24.00".
        sale_price: Sale price, e.g. "19.00"; "" removes the sale.
        date_on_sale_from: First day of the sale, YYYY-MM-DD ("" for none).
        date_on_sale_to: Last day of the sale, YYYY-MM-DD ("" for none).
        manage_stock: Whether WooCommerce counts this product's stock.
        stock_quantity: Units in stock (needs manage_stock).
        stock_status: instock, outofstock or onbackorder (only where stock is not managed).
        status: publish, draft or private.
        categories: Category ids, replacing the current ones.
        tags: Tag ids, replacing the current ones.
    """
    product = fetch(db, products, product_id, "woocommerce_rest_product_invalid_id")
    code = "woocommerce_rest_product_invalid_data"
    edits = dict(
        regular_price=regular_price,
        sale_price=sale_price,
        date_on_sale_from=date_on_sale_from,
        date_on_sale_to=date_on_sale_to,
        manage_stock=manage_stock,
        stock_quantity=stock_quantity,
        stock_status=stock_status,
    )
    if product["type"] == "variable" and any(edits[k] is not None for k in ("regular_price", "sale_price")):
        raise refused(code, "A variable product's prices are set on its variations.")
    product = catalog.update_priced(db, products, product, edits, code)
    extra: dict[str, object] = {}
    if status is not None:
        extra["status"] = status
    if categories is not None:
        for term in categories:
            fetch(db, category_terms, term, "woocommerce_rest_term_invalid")
        extra["category_ids"] = sorted(categories)
    if tags is not None:
        for term in tags:
            fetch(db, tag_terms, term, "woocommerce_rest_term_invalid")
        extra["tag_ids"] = sorted(tags)
    if extra:
        product = db.update(products, product_id, **extra)
    return catalog.show_product(db, product)


@tool(read_only=True)
def list_product_variations(
    db: Database, product_id: int, per_page: PerPage = 10, page: PageNumber = 1
) -> ListPage[VariationObject]:
    """List a variable product's variations with their attributes, prices and stock.

    Args:
        product_id: The variable product's id.
        per_page: Results per page (1-100).
        page: Page number, from 1.
    """
    fetch(db, products, product_id, "woocommerce_rest_product_invalid_id")
    rows = db.find(variations, product_id=product_id, order_by=[variations.c.menu_order])
    return page_of(rows, page, per_page, lambda row: catalog.show_variation(db, row))


@tool()
def update_product_variation(
    db: Database,
    product_id: int,
    variation_id: int,
    regular_price: Price | None = None,
    sale_price: Price | None = None,
    date_on_sale_from: SaleDate | None = None,
    date_on_sale_to: SaleDate | None = None,
    manage_stock: bool | None = None,
    stock_quantity: StockQuantity | None = None,
    stock_status: StockStatus | None = None,
) -> VariationObject:
    """Update one variation's price, sale or stock, by the same rules as a simple product.

    Args:
        product_id: The variable product's id.
        variation_id: The variation's id.
        regular_price: Regular price, e.g. "24.00".
        sale_price: Sale price, e.g. "19.00"; "" removes the sale.
        date_on_sale_from: First day of the sale, YYYY-MM-DD ("" for none).
        date_on_sale_to: Last day of the sale, YYYY-MM-DD ("" for none).
        manage_stock: Whether WooCommerce counts this variation's stock.
        stock_quantity: Units in stock (needs manage_stock).
        stock_status: instock, outofstock or onbackorder (only where stock is not managed).
    """
    fetch(db, products, product_id, "woocommerce_rest_product_invalid_id")
    found = db.find(variations, id=variation_id, product_id=product_id)
    if not found:
        raise refused("woocommerce_rest_product_variation_invalid_id", "Invalid ID.")
    edits = dict(
        regular_price=regular_price,
        sale_price=sale_price,
        date_on_sale_from=date_on_sale_from,
        date_on_sale_to=date_on_sale_to,
        manage_stock=manage_stock,
        stock_quantity=stock_quantity,
        stock_status=stock_status,
    )
    row = catalog.update_priced(db, variations, found[0], edits, "woocommerce_rest_product_variation_invalid_data")
    return catalog.show_variation(db, row)


@tool(read_only=True)
def list_product_categories(db: Database, search: str | None = None) -> list[CategoryObject]:
    """List product categories with their parent (0: top level) and product count.

    Args:
        search: Words in the category name (case-insensitive).
    """
    counts = catalog.term_counts(db, "category_ids")
    rows = db.find(category_terms, order_by=[category_terms.c.name])
    if search:
        rows = [r for r in rows if search.lower() in r["name"].lower()]
    return [CategoryObject(**r, count=counts.get(r["id"], 0)) for r in rows]


@tool(read_only=True)
def list_product_tags(db: Database, search: str | None = None) -> list[TagObject]:
    """List product tags with their product count.

    Args:
        search: Words in the tag name (case-insensitive).
    """
    counts = catalog.term_counts(db, "tag_ids")
    rows = db.find(tag_terms, order_by=[tag_terms.c.name])
    if search:
        rows = [r for r in rows if search.lower() in r["name"].lower()]
    return [TagObject(**r, count=counts.get(r["id"], 0)) for r in rows]


@tool()
def create_product_tag(
    db: Database, name: Annotated[str, Field(min_length=1, max_length=60, pattern=r"\S")]
) -> TagObject:
    """Create a product tag (its slug is the name in lower case with dashes).

    Args:
        name: The tag's name, e.g. "Black Friday".
    """
    slug = catalog.slugify(name)
    if db.find(tag_terms, slug=slug):
        raise clash("term_exists", "A term with the name provided already exists.")
    row = db.insert(tag_terms, id=new_post_id(db), name=name.strip(), slug=slug)
    return TagObject(**row, count=0)


# ---------------------------------------------------------------- orders


@tool(read_only=True)
def list_orders(
    db: Database,
    status: OrderStatus | Literal["any"] = "any",
    customer: int | None = None,
    product: int | None = None,
    search: str | None = None,
    after: IsoDate | None = None,
    before: IsoDate | None = None,
    per_page: PerPage = 10,
    page: PageNumber = 1,
) -> ListPage[OrderObject]:
    """List orders, newest first.

    Args:
        status: Order status, or any (default).
        customer: A customer id: that customer's orders.
        product: A product id: orders with a line of it.
        search: Words in the billing name or email, or an order number.
        after: Orders created on or after this day (YYYY-MM-DD).
        before: Orders created before this day (YYYY-MM-DD).
        per_page: Results per page (1-100).
        page: Page number, from 1.
    """
    where, params = ordering.order_filter(status, customer, after, before)
    rows = db.select(orders, where, params, order_by="date_created DESC")
    if search:
        rows = [r for r in rows if ordering.matches(r, search)]
    if product is not None:
        wanted = {line["order_id"] for line in db.find(line_items, product_id=product)}
        rows = [r for r in rows if r["id"] in wanted]
    return page_of(rows, page, per_page, lambda row: ordering.show_order(db, row))


@tool(read_only=True)
def retrieve_order(db: Database, order_id: int) -> OrderObject:
    """Retrieve one order with its line items, coupons, totals, refunds and what is left to refund.

    Args:
        order_id: The order's id (its order number).
    """
    return ordering.show_order(db, fetch(db, orders, order_id, "woocommerce_rest_shop_order_invalid_id"))


@tool()
def create_order(
    db: Database,
    line_items: Annotated[list[LineItemInput], Field(min_length=1, max_length=20)],
    payment_method: Literal["stripe", "paypal", "bacs", "cod"],
    customer_id: int = 0,
    billing: BillingInput | None = None,
    coupon_lines: list[CouponLineInput] | None = None,
    shipping_method: Literal["flat_rate", "free_shipping", "local_pickup"] = "flat_rate",
    status: Literal["pending", "processing", "on-hold", "completed"] = "pending",
    customer_note: Annotated[str, Field(max_length=500)] = "",
) -> OrderObject:
    """Create an order at today's prices. Stock is checked (and reduced once the order is processing, on-hold or
    completed); coupons apply in the order given, with their restrictions; flat rate shipping is $7.95, local pickup
    free, free shipping only from $75.00 of goods after discounts.

    Args:
        line_items: The products (and variations) and quantities.
        payment_method: stripe, paypal, bacs (bank transfer) or cod (cash on delivery).
        customer_id: A registered customer's id; 0 (default) for a guest, who needs billing.
        billing: Billing details; defaults to the customer's own.
        coupon_lines: Coupon codes to apply.
        shipping_method: flat_rate (default), free_shipping or local_pickup.
        status: pending (default: awaiting payment), processing (paid), on-hold or completed.
        customer_note: The customer's note on the order.
    """
    billing_details = people.billing_for(db, customer_id, billing.model_dump() if billing else None)
    request = {
        "customer_id": customer_id,
        "billing": billing_details,
        "line_items": [line.model_dump() for line in line_items],
        "coupon_codes": [c.code for c in coupon_lines or []],
        "payment_method": payment_method,
        "shipping_method": shipping_method,
        "status": status,
        "customer_note": customer_note,
    }
    return ordering.show_order(db, ordering.place_order(db, request))


@tool()
def update_order(
    db: Database,
    order_id: int,
    status: OrderStatus | None = None,
    customer_note: Annotated[str, Field(max_length=500)] | None = None,
) -> OrderObject:
    """Change an order's status or customer note. Processing, on-hold and completed hold the order's stock;
    cancelling (or going back to pending) puts it back and cancelling gives coupon uses back; setting refunded
    refunds whatever is left, without restocking. Every status change is noted on the order.

    Args:
        order_id: The order's id.
        status: The new status.
        customer_note: The customer's note, replacing the current one.
    """
    order = fetch(db, orders, order_id, "woocommerce_rest_shop_order_invalid_id")
    if customer_note is not None:
        order = db.update(orders, order_id, customer_note=customer_note)
    if status is not None:
        order = change_status(db, order, status)
    return ordering.show_order(db, order)


@tool(read_only=True)
def list_order_notes(
    db: Database, order_id: int, type: Literal["any", "customer", "internal"] = "any"
) -> list[NoteObject]:
    """List an order's notes, newest first: customer notes were emailed to the customer, internal ones are private.

    Args:
        order_id: The order's id.
        type: any (default), customer or internal.
    """
    fetch(db, orders, order_id, "woocommerce_rest_shop_order_invalid_id")
    rows = db.find(
        order_notes, order_id=order_id, **given(customer_note={"any": None, "customer": True, "internal": False}[type])
    )
    rows.sort(key=lambda r: (r["date_created"], r["id"]), reverse=True)
    return [NoteObject(**{k: r[k] for k in NoteObject.model_fields}) for r in rows]


@tool()
def create_order_note(db: Database, order_id: int, note: NoteText, customer_note: bool = False) -> NoteObject:
    """Add a note to an order: private by default; a customer note is emailed to the customer.

    Args:
        order_id: The order's id.
        note: The note's text.
        customer_note: True to send it to the customer.
    """
    fetch(db, orders, order_id, "woocommerce_rest_shop_order_invalid_id")
    note_id = add_note(db, order_id, note, customer_note, author="Shop manager")
    row = db.get(order_notes, note_id)
    return NoteObject(**{k: row[k] for k in NoteObject.model_fields})


@tool(read_only=True)
def list_order_refunds(db: Database, order_id: int) -> list[RefundObject]:
    """List an order's refunds with the line items each covered.

    Args:
        order_id: The order's id.
    """
    fetch(db, orders, order_id, "woocommerce_rest_shop_order_invalid_id")
    return [refund_object(r) for r in db.find(refunds, order_id=order_id)]


@tool()
def create_order_refund(
    db: Database,
    order_id: int,
    amount: Money | None = None,
    reason: Annotated[str, Field(max_length=500)] = "",
    line_items: list[RefundLineInput] | None = None,
    api_refund: bool = True,
    api_restock: bool = True,
) -> RefundObject:
    """Refund part or all of an order. Name the line items when goods are refunded, so the order shows what came
    back; an amount alone refunds money tied to no item (shipping, goodwill). The amount (default: the sum of the
    line items' refund_total) can never exceed what is left to refund, nor a line more than its total or quantity
    left; refunding everything left marks the order refunded. api_refund sends the money back through the payment
    gateway (stripe and paypal only: bank transfer and cash on delivery orders are refunded by hand with
    api_refund false); api_restock puts the refunded quantities back in stock.

    Args:
        order_id: The order's id.
        amount: Amount to refund, e.g. "12.50".
        reason: Why (shown on the refund).
        line_items: Line items refunded: id, quantity coming back and refund_total.
        api_refund: Refund through the payment gateway (default true).
        api_restock: Restock the refunded quantities (default true).
    """
    order = fetch(db, orders, order_id, "woocommerce_rest_shop_order_invalid_id")
    request = {
        "amount": catalog.cents(amount, "amount"),
        "reason": reason,
        "line_items": [
            {"id": p.id, "quantity": p.quantity, "refund_total": catalog.cents(p.refund_total, "refund_total")}
            for p in line_items or []
        ],
        "api_refund": api_refund,
        "api_restock": api_restock,
    }
    return refund_object(ordering.refund_order(db, order, request))


# ---------------------------------------------------------------- coupons


@tool(read_only=True)
def list_coupons(
    db: Database, search: str | None = None, code: str | None = None, per_page: PerPage = 10, page: PageNumber = 1
) -> ListPage[CouponObject]:
    """List coupons, sorted by code, with their rules and usage.

    Args:
        search: Words in the code or description (case-insensitive).
        code: Exact coupon code.
        per_page: Results per page (1-100).
        page: Page number, from 1.
    """
    rows = db.find(coupons, order_by=[coupons.c.code], **given(code=code.lower() if code else None))
    if search:
        rows = [r for r in rows if search.lower() in f"{r['code']} {r['description']}".lower()]
    return page_of(rows, page, per_page, coupon_object)


@tool()
def create_coupon(
    db: Database,
    code: CouponCode,
    amount: Money,
    discount_type: Literal["percent", "fixed_cart", "fixed_product"] = "fixed_cart",
    description: Annotated[str, Field(max_length=300)] = "",
    date_expires: IsoDate | None = None,
    usage_limit: Limit | None = None,
    usage_limit_per_user: Limit | None = None,
    individual_use: bool = False,
    exclude_sale_items: bool = False,
    minimum_amount: Money | None = None,
    product_ids: Annotated[list[int], Unordered] | None = None,
) -> CouponObject:
    """Create a coupon. Codes are stored in lower case and must be unique.

    Args:
        code: The code customers type, e.g. "BF25".
        amount: The discount: a percentage for percent ("15"), else dollars ("10.00").
        discount_type: percent, fixed_cart (default: off the cart) or fixed_product (off each unit).
        description: Note for the shop team.
        date_expires: The day the coupon stops working (YYYY-MM-DD; it works until the day before).
        usage_limit: Uses in all.
        usage_limit_per_user: Uses per customer.
        individual_use: True when it cannot be combined with other coupons.
        exclude_sale_items: True when it does not discount items on sale.
        minimum_amount: Minimum goods subtotal, e.g. "50.00".
        product_ids: Products it applies to (empty: all).
    """
    request = {
        "code": code,
        "amount": amount,
        "discount_type": discount_type,
        "description": description,
        "date_expires": date_expires,
        "usage_limit": usage_limit,
        "usage_limit_per_user": usage_limit_per_user,
        "individual_use": individual_use,
        "exclude_sale_items": exclude_sale_items,
        "minimum_amount": minimum_amount,
        "product_ids": product_ids or [],
    }
    return coupon_object(people.new_coupon(db, request))


@tool()
def update_coupon(
    db: Database,
    coupon_id: int,
    amount: Money | None = None,
    description: Annotated[str, Field(max_length=300)] | None = None,
    date_expires: SaleDate | None = None,
    usage_limit: Limit | None = None,
    usage_limit_per_user: Limit | None = None,
    individual_use: bool | None = None,
    exclude_sale_items: bool | None = None,
    minimum_amount: Price | None = None,
    status: Literal["publish", "draft"] | None = None,
) -> CouponObject:
    """Update a coupon's amount, expiry, limits or restrictions; a draft coupon cannot be used.

    Args:
        coupon_id: The coupon's id.
        amount: The new discount amount.
        description: Note for the shop team.
        date_expires: The day the coupon stops working (YYYY-MM-DD; "" for never).
        usage_limit: Uses in all (not below the uses so far).
        usage_limit_per_user: Uses per customer.
        individual_use: True when it cannot be combined with other coupons.
        exclude_sale_items: True when it does not discount items on sale.
        minimum_amount: Minimum goods subtotal ("" for none).
        status: publish or draft.
    """
    coupon = fetch(db, coupons, coupon_id, "woocommerce_rest_shop_coupon_invalid_id")
    changes = {
        k: v
        for k, v in {
            "amount": catalog.cents(amount, "amount") if amount is not None else None,
            "description": description,
            "usage_limit": usage_limit,
            "usage_limit_per_user": usage_limit_per_user,
            "individual_use": individual_use,
            "exclude_sale_items": exclude_sale_items,
            "status": status,
        }.items()
        if v is not None
    }
    if date_expires is not None:
        changes["date_expires"] = date_expires or None
    if minimum_amount is not None:
        changes["minimum_amount"] = catalog.cents(minimum_amount, "minimum_amount")
    if usage_limit is not None and usage_limit < coupon["usage_count"]:
        raise refused(
            "woocommerce_rest_invalid_coupon",
            f"The usage limit cannot be below the {coupon['usage_count']} uses so far.",
        )
    return coupon_object(db.update(coupons, coupon_id, **changes) if changes else coupon)


# ---------------------------------------------------------------- customers


@tool(read_only=True)
def list_customers(
    db: Database, search: str | None = None, email: str | None = None, per_page: PerPage = 10, page: PageNumber = 1
) -> ListPage[CustomerObject]:
    """List registered customers, sorted by last then first name, with their order count and total spent.

    Args:
        search: Words in the name, email or username (case-insensitive).
        email: Exact email address.
        per_page: Results per page (1-100).
        page: Page number, from 1.
    """
    rows = db.find(customers, order_by=[customers.c.last_name, customers.c.first_name], **given(email=email))
    if search:
        words = search.lower().split()
        rows = [
            r
            for r in rows
            if all(w in f"{r['first_name']} {r['last_name']} {r['email']} {r['username']}".lower() for w in words)
        ]
    return page_of(rows, page, per_page, lambda row: people.show_customer(db, row))


@tool(read_only=True)
def retrieve_customer(db: Database, customer_id: int) -> CustomerObject:
    """Retrieve one customer with billing details, order count and total spent (paid orders less refunds).

    Args:
        customer_id: The customer's id.
    """
    return people.show_customer(db, fetch(db, customers, customer_id, "woocommerce_rest_invalid_id"))
