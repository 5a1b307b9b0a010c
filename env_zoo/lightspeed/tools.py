"""Lightspeed Retail (R-Series) API tools: shops and registers (open and close with a cash count), items with
their per-shop stock, customers, payment types, sales (lines, payments, completion, voids, returns), inventory
counts and their reconciliation, and transfers between shops, all as the signed-in employee."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from envfactory_gym import Database, tool
from envfactory_gym.fields import ErrorText, NonBlankText

from . import inventory, sales
from .errors import bad_request
from .objects import (
    Customer,
    CustomerList,
    Employee,
    InventoryCount,
    Item,
    ItemList,
    PaymentType,
    RegisterCount,
    Sale,
    SaleList,
    SaleSummary,
    Shop,
    Transfer,
    count_object,
    customer_object,
    employee_object,
    item_object,
    item_summary,
    page,
    payment_type_object,
    register_count_object,
    sale_object,
    sale_summary,
    shop_object,
    transfer_object,
)
from .rules import authenticate, fetch, me, money, next_key, require, stock
from .schema import (
    customers,
    inventory_counts,
    item_shops,
    items,
    payment_types,
    shops,
    transfers,
)
from .schema import (
    sales as sales_table,
)

Limit = Annotated[int, Field(ge=1, le=100), ErrorText("400 Bad Request: limit must be between 1 and 100.")]
Offset = Annotated[int, Field(ge=0)]
Quantity = Annotated[int, Field(ge=1, le=999), ErrorText("400 Bad Request: unitQuantity must be 1 to 999.")]
Counted = Annotated[int, Field(ge=0, le=99999)]
Amount = Annotated[
    float, Field(gt=0, le=99999.99), ErrorText("400 Bad Request: amount must be above 0 and at most 99999.99.")
]
Price = Annotated[float, Field(ge=0, le=99999.99)]
Percent = Annotated[int, Field(ge=0, le=100)]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")]
Note = Annotated[str, Field(max_length=255)]


class EmployeeOut(TypedDict):
    Employee: Employee


class ShopsOut(TypedDict):
    Shop: list[Shop]


class ShopOut(TypedDict):
    Shop: Shop


class RegisterCountOut(TypedDict):
    RegisterCount: RegisterCount


class PaymentTypesOut(TypedDict):
    PaymentType: list[PaymentType]


class ItemOut(TypedDict):
    Item: Item


class CustomerOut(TypedDict):
    Customer: Customer


class SaleOut(TypedDict):
    Sale: Sale


class CompletedSaleOut(TypedDict):
    Sale: Sale
    change: str


class SaleSummaryOut(TypedDict):
    Sale: SaleSummary


class CountsOut(TypedDict):
    InventoryCount: list[InventoryCount]


class CountOut(TypedDict):
    InventoryCount: InventoryCount


class TransfersOut(TypedDict):
    Transfer: list[Transfer]


class TransferOut(TypedDict):
    Transfer: Transfer


def cents(amount: float) -> int:
    """A decimal amount of dollars as whole cents."""
    return int(round(amount * 100))


class SaleLineInput(BaseModel):
    """Units of an item to ring up; discount_percent replaces the customer type's discount on this line."""

    item_id: int
    quantity: Quantity
    discount_percent: Percent | None = None


class PaymentInput(BaseModel):
    """A payment toward a sale: a payment type and the amount tendered in dollars."""

    payment_type_id: int
    amount: Amount


class ReturnLineInput(BaseModel):
    """Units of a sale line to give back."""

    sale_line_id: int
    quantity: Quantity


class CountInput(BaseModel):
    """Units of an item counted on the shelf (scans of the same item add up)."""

    item_id: int
    qty: Counted


class TransferLineInput(BaseModel):
    """Units of an item to send."""

    item_id: int
    quantity: Quantity


class ReceivedInput(BaseModel):
    """Units of a transfer's item that arrived."""

    item_id: int
    received: Counted


# ---------------------------------------------------------------- the employee


@tool(user_only=True)
def sign_in(db: Database, employee_number: NonBlankText, pin: NonBlankText) -> EmployeeOut:
    """(User only) The employee signs in at the register with their employee number and PIN; the assistant then
    acts as them, with their role's rights.

    Args:
        employee_number: The employee number on their badge.
        pin: Their four-digit PIN.
    """
    return {"Employee": employee_object(authenticate(db, employee_number, pin))}


# ---------------------------------------------------------------- shops and registers


@tool(read_only=True)
def list_shops(db: Database) -> ShopsOut:
    """List the account's shops (tax rate) with their registers: whether each is open, the open RegisterCount
    (opening float, cash expected in the drawer now) and the last close."""
    me(db)
    return {"Shop": [shop_object(db, row) for row in db.find(shops)]}


@tool()
def open_register(db: Database, register_id: int, opening_float: Price) -> ShopOut:
    """Open a closed register with the cash float counted into its drawer.

    Args:
        register_id: The register's id.
        opening_float: Dollars of cash in the drawer at opening.
    """
    register = sales.open_session(db, register_id, cents(opening_float))
    return {"Shop": shop_object(db, db.get(shops, register["shop_id"]))}


@tool()
def close_register(db: Database, register_id: int, counted_cash: Price, notes: Note = "") -> RegisterCountOut:
    """Close an open register: the cash counted in the drawer is checked against the cash expected (float plus
    cash taken less cash refunded). Refused while a sale on it is still open; a note is required when the count is
    off by more than 5.00.

    Args:
        register_id: The register's id.
        counted_cash: Dollars of cash counted in the drawer.
        notes: Why the count differs, if it does.
    """
    return {
        "RegisterCount": register_count_object(db, sales.close_session(db, register_id, cents(counted_cash), notes))
    }


@tool(read_only=True)
def list_payment_types(db: Database) -> PaymentTypesOut:
    """List the payment types the registers take (cash, cards, check, credit account)."""
    me(db)
    return {"PaymentType": [payment_type_object(r) for r in db.find(payment_types, archived=False)]}


# ---------------------------------------------------------------- items


@tool(read_only=True)
def search_items(
    db: Database,
    query: str = "",
    shop_id: int | None = None,
    include_archived: bool = False,
    offset: Offset = 0,
    limit: Limit = 50,
) -> ItemList:
    """Search items by words of their description or brand, or an exact system, custom or manufacturer SKU. With
    a shop, each item shows its quantity on hand there.

    Args:
        query: Words that must all appear in the description or brand, or a SKU.
        shop_id: Show stock at this shop.
        include_archived: Also list archived items.
        offset: Items to skip.
        limit: Items per page, 1 to 100.
    """
    me(db)
    words = query.lower().split()
    where = [] if include_archived else ["archived = 0"]
    params: list[Any] = []
    if len(words) == 1:
        where.append(
            "(lower(description || ' ' || brand) LIKE ? OR system_sku = ? OR custom_sku = ? OR manufacturer_sku = ?)"
        )
        params += [f"%{words[0]}%", query.strip(), query.strip(), query.strip()]
    else:
        for word in words:
            where.append("lower(description || ' ' || brand) LIKE ?")
            params.append(f"%{word}%")
    rows = db.select(items, " AND ".join(where), params, order_by="description")
    shown, attributes = page(rows, offset, limit)
    found = []
    for row in shown:
        summary = item_summary(db, row)
        if shop_id is not None:
            summary["qoh"] = stock(db, row["item_id"], shop_id)["qoh"]
        found.append(summary)
    return {"@attributes": attributes, "Item": found}


@tool(read_only=True)
def get_item(db: Database, item_id: int) -> ItemOut:
    """Get an item with its cost, MSRP, tax flag and ItemShops (quantity on hand, reorder point and level per shop).

    Args:
        item_id: The item's id.
    """
    me(db)
    return {"Item": item_object(db, fetch(db, items, item_id, "Item"))}


@tool()
def update_item(
    db: Database,
    item_id: int,
    price: Price | None = None,
    archived: bool | None = None,
    shop_id: int | None = None,
    reorder_point: Counted | None = None,
    reorder_level: Counted | None = None,
) -> ItemOut:
    """Change an item's default price or archive it (managers), or set its reorder point and reorder level at one
    shop (managers and inventory staff).

    Args:
        item_id: The item's id.
        price: The new default price in dollars.
        archived: True to archive the item, False to restore it.
        shop_id: The shop whose reorder settings change.
        reorder_point: Reorder when stock falls to this.
        reorder_level: Order up to this.
    """
    item = fetch(db, items, item_id, "Item")
    if price is not None or archived is not None:
        require(db, "catalog")
        changes: dict[str, Any] = {"time_stamp": db.now_iso()}
        if price is not None:
            changes["default_price"] = cents(price)
        if archived is not None:
            changes["archived"] = archived
        item = db.update(items, item_id, **changes)
    if reorder_point is not None or reorder_level is not None:
        require(db, "count")
        if shop_id is None:
            raise bad_request("shopID is required to change reorder settings.")
        record = stock(db, item_id, shop_id)
        db.update(
            item_shops,
            record["item_shop_id"],
            reorder_point=record["reorder_point"] if reorder_point is None else reorder_point,
            reorder_level=record["reorder_level"] if reorder_level is None else reorder_level,
        )
    return {"Item": item_object(db, item)}


# ---------------------------------------------------------------- customers


@tool(read_only=True)
def search_customers(
    db: Database,
    name: str = "",
    email: str | None = None,
    phone: str | None = None,
    offset: Offset = 0,
    limit: Limit = 50,
) -> CustomerList:
    """Search customers by words of their name or company, exact email or phone digits.

    Args:
        name: Words of the first name, last name or company.
        email: The exact email address.
        phone: Digits of the phone number.
        offset: Customers to skip.
        limit: Customers per page, 1 to 100.
    """
    me(db)
    where, params = ["archived = 0"], []
    for word in name.lower().split():
        where.append("lower(first_name || ' ' || last_name || ' ' || company) LIKE ?")
        params.append(f"%{word}%")
    if email is not None:
        where.append("lower(email) = ?")
        params.append(email.strip().lower())
    rows = db.select(customers, " AND ".join(where), params, order_by="last_name, first_name")
    if phone is not None:
        digits = "".join(c for c in phone if c.isdigit())
        rows = [r for r in rows if digits in "".join(c for c in r["phone"] if c.isdigit())]
    shown, attributes = page(rows, offset, limit)
    return {"@attributes": attributes, "Customer": [customer_object(db, r) for r in shown]}


@tool()
def create_customer(
    db: Database,
    first_name: NonBlankText,
    last_name: NonBlankText,
    email: Email | None = None,
    phone: str = "",
    company: str = "",
) -> CustomerOut:
    """Add a customer (no customer type, no credit account).

    Args:
        first_name: First name.
        last_name: Last name.
        email: Email address.
        phone: Phone number.
        company: Company, if any.
    """
    require(db, "sell")
    row = db.insert(
        customers,
        customer_id=next_key(db, customers),
        first_name=first_name.strip(),
        last_name=last_name.strip(),
        company=company,
        email=email or "",
        phone=phone,
        customer_type_id=None,
        credit_limit=0,
        credit_balance=0,
        create_time=db.now_iso(),
        archived=False,
    )
    return {"Customer": customer_object(db, row)}


# ---------------------------------------------------------------- sales


@tool()
def create_sale(db: Database, register_id: int, lines: list[SaleLineInput], customer_id: int | None = None) -> SaleOut:
    """Start a sale on an open register with its lines at the items' default prices. A customer's type discount
    applies to each line unless the line gives its own discount_percent (over 20% needs a manager).

    Args:
        register_id: The register ringing it up (its shop's tax and stock apply).
        lines: Items, quantities and optional line discounts.
        customer_id: The customer, if any.
    """
    sale = sales.create(db, register_id, customer_id, [line.model_dump() for line in lines])
    return {"Sale": sale_object(db, sale)}


@tool()
def add_sale_line(
    db: Database, sale_id: int, item_id: int, quantity: Quantity, discount_percent: Percent | None = None
) -> SaleOut:
    """Add units of an item to a sale that is not completed.

    Args:
        sale_id: The sale's id.
        item_id: The item's id.
        quantity: Units.
        discount_percent: This line's discount, replacing the customer type's.
    """
    employee = require(db, "sell")
    sale = sales.open_sale(db, sale_id)
    sales.add_line(db, employee, sale, item_id, quantity, discount_percent)
    return {"Sale": sale_object(db, sale)}


@tool(read_only=True)
def get_sale(db: Database, sale_id: int) -> SaleOut:
    """Get a sale with its lines (units already returned), payments, subtotal, discount, tax, total and balance.

    Args:
        sale_id: The sale's id.
    """
    me(db)
    return {"Sale": sale_object(db, fetch(db, sales_table, sale_id, "Sale"))}


@tool(read_only=True)
def list_sales(
    db: Database,
    shop_id: int | None = None,
    customer_id: int | None = None,
    status: Literal["completed", "open", "voided", "any"] = "any",
    since: str | None = None,
    offset: Offset = 0,
    limit: Limit = 50,
) -> SaleList:
    """List sales, newest first, by shop, customer, status or start time.

    Args:
        shop_id: Only this shop's sales.
        customer_id: Only this customer's sales.
        status: completed, open (still being rung up), voided, or any.
        since: Only sales started at or after this ISO date or timestamp.
        offset: Sales to skip.
        limit: Sales per page, 1 to 100.
    """
    me(db)
    where, params = [], []
    for column, value in (("shop_id", shop_id), ("customer_id", customer_id)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    if status != "any":
        where.append(
            {"completed": "completed = 1", "open": "completed = 0 AND voided = 0", "voided": "voided = 1"}[status]
        )
    if since is not None:
        where.append("create_time >= ?")
        params.append(since)
    rows = db.select(sales_table, " AND ".join(where), params, order_by="create_time DESC")
    shown, attributes = page(rows, offset, limit)
    return {"@attributes": attributes, "Sale": [sale_summary(db, r) for r in shown]}


@tool()
def complete_sale(db: Database, sale_id: int, payments: list[PaymentInput]) -> CompletedSaleOut:
    """Take payment and complete a sale: the payments must cover the total; only cash may exceed it (the rest is
    change); a credit account payment needs the customer's account to have room. Stock leaves the shop.

    Args:
        sale_id: The sale's id.
        payments: Payment types and amounts tendered in dollars.
    """
    tendered = [{"payment_type_id": p.payment_type_id, "amount": cents(p.amount)} for p in payments]
    sale, change = sales.complete(db, sale_id, tendered)
    return {"Sale": sale_object(db, sale), "change": money(change)}


@tool()
def void_sale(db: Database, sale_id: int) -> SaleSummaryOut:
    """Void a sale that has not been completed (completed sales are undone with a return).

    Args:
        sale_id: The sale's id.
    """
    return {"Sale": sale_summary(db, sales.void(db, sale_id))}


@tool()
def create_return(
    db: Database, sale_id: int, register_id: int, lines: list[ReturnLineInput], payment_type_id: int
) -> SaleOut:
    """Return units of a completed sale at an open register (any shop: the stock goes back there). The refund is
    paid with a payment type used on the sale, or cash; never more units than are left to return.

    Args:
        sale_id: The original sale's id.
        register_id: The register taking the return.
        lines: Sale lines and units given back.
        payment_type_id: How the refund is paid.
    """
    refund = sales.create_return(db, sale_id, register_id, [line.model_dump() for line in lines], payment_type_id)
    return {"Sale": sale_object(db, refund)}


# ---------------------------------------------------------------- inventory counts


@tool(read_only=True)
def list_inventory_counts(
    db: Database, shop_id: int | None = None, status: Literal["open", "reconciled"] | None = None
) -> CountsOut:
    """List inventory counts with the items counted; an open count also shows each item's quantity on hand and
    the difference, a reconciled one what reconciling changed.

    Args:
        shop_id: Only this shop's counts.
        status: open or reconciled.
    """
    me(db)
    filters = {k: v for k, v in (("shop_id", shop_id), ("status", status)) if v is not None}
    return {"InventoryCount": [count_object(db, r) for r in db.find(inventory_counts, **filters)]}


@tool()
def create_inventory_count(
    db: Database, shop_id: int, name: Annotated[str, Field(min_length=1, max_length=80)]
) -> CountOut:
    """Start an inventory count at a shop.

    Args:
        shop_id: The shop being counted.
        name: A name for the count, e.g. 'Helmet wall April'.
    """
    return {"InventoryCount": count_object(db, inventory.create_count(db, shop_id, name))}


@tool()
def add_inventory_count_items(db: Database, inventory_count_id: int, items: list[CountInput]) -> CountOut:
    """Record counted units of items in an open count (a second entry for an item adds to the first).

    Args:
        inventory_count_id: The count's id.
        items: Items and units counted.
    """
    count = inventory.add_counted(db, inventory_count_id, [i.model_dump() for i in items])
    return {"InventoryCount": count_object(db, count)}


@tool()
def reconcile_inventory_count(db: Database, inventory_count_id: int) -> CountOut:
    """Reconcile an open count (managers): each counted item's quantity on hand at the shop becomes the count;
    items not counted keep theirs. It cannot be undone or counted into afterwards.

    Args:
        inventory_count_id: The count's id.
    """
    return {"InventoryCount": count_object(db, inventory.reconcile(db, inventory_count_id))}


# ---------------------------------------------------------------- transfers


@tool(read_only=True)
def list_transfers(
    db: Database,
    shop_id: int | None = None,
    status: Literal["draft", "sent", "received"] | None = None,
) -> TransfersOut:
    """List transfers between shops with their items, by a shop (sending or receiving) or status.

    Args:
        shop_id: Transfers this shop sends or receives.
        status: draft, sent or received.
    """
    me(db)
    rows = db.find(transfers, **({"status": status} if status else {}))
    rows = [r for r in rows if shop_id is None or shop_id in (r["send_shop_id"], r["receive_shop_id"])]
    return {"Transfer": [transfer_object(db, r) for r in rows]}


@tool()
def create_transfer(
    db: Database, send_shop_id: int, receive_shop_id: int, items: list[TransferLineInput], note: Note = ""
) -> TransferOut:
    """Create a draft transfer of items from one shop to another.

    Args:
        send_shop_id: The shop the stock leaves.
        receive_shop_id: The shop it goes to.
        items: Items and units to send.
        note: A note for the receiving shop.
    """
    transfer = inventory.create_transfer(db, send_shop_id, receive_shop_id, [i.model_dump() for i in items], note)
    return {"Transfer": transfer_object(db, transfer)}


@tool()
def send_transfer(db: Database, transfer_id: int) -> TransferOut:
    """Send a draft transfer: the stock leaves the sending shop (never more than it has on hand).

    Args:
        transfer_id: The transfer's id.
    """
    return {"Transfer": transfer_object(db, inventory.send(db, transfer_id))}


@tool()
def receive_transfer(db: Database, transfer_id: int, items: list[ReceivedInput] | None = None) -> TransferOut:
    """Receive a sent transfer into the receiving shop: everything sent, or the units that arrived per item
    (never more than sent; items left out arrived as none).

    Args:
        transfer_id: The transfer's id.
        items: Units that arrived per item; leave out when everything arrived.
    """
    arrived = [i.model_dump() for i in items] if items is not None else None
    return {"Transfer": transfer_object(db, inventory.receive(db, transfer_id, arrived))}
