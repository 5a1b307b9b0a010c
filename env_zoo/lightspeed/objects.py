"""Lightspeed Retail's API objects as the JSON the tools return (field names as in the R-Series API: itemID,
systemSku, ItemShops, SaleLines, SalePayments...; money as decimal strings), and how stored rows become them."""

from __future__ import annotations

from typing import Any

from typing_extensions import NotRequired, TypedDict

from envfactory_gym import Database

from .inventory import counted
from .rules import expected_cash, line_amounts, money, sale_totals
from .sales import returned_units
from .schema import (
    categories,
    customer_types,
    customers,
    employees,
    item_shops,
    items,
    payment_types,
    register_counts,
    registers,
    sale_lines,
    sale_payments,
)


class Attributes(TypedDict):
    """A list's @attributes: how many records match, and the page shown."""

    count: int
    offset: int
    limit: int


class Employee(TypedDict):
    employeeID: int
    firstName: str
    lastName: str
    employeeNumber: str
    role: str
    shopID: int


class RegisterCount(TypedDict):
    """A register session: opened with a float; when closed, the cash counted and the variance."""

    registerCountID: int
    registerID: int
    openTime: str
    openEmployee: str
    openingFloat: str
    expectedCash: str
    closeTime: NotRequired[str]
    closeEmployee: NotRequired[str]
    countedCash: NotRequired[str]
    variance: NotRequired[str]
    notes: NotRequired[str]


class Register(TypedDict):
    registerID: int
    name: str
    shopID: int
    open: bool
    RegisterCount: RegisterCount | None
    lastClose: RegisterCount | None


class Shop(TypedDict):
    shopID: int
    name: str
    city: str
    taxRate: str
    archived: bool
    Registers: list[Register]


class ItemSummary(TypedDict):
    itemID: int
    systemSku: str
    customSku: str
    manufacturerSku: str
    description: str
    brand: str
    category: str
    price: str
    archived: bool
    qoh: NotRequired[int]


class ItemShop(TypedDict):
    shopID: int
    qoh: int
    reorderPoint: int
    reorderLevel: int


class Item(ItemSummary):
    defaultCost: str
    msrp: str
    tax: bool
    ItemShops: list[ItemShop]


class CustomerType(TypedDict):
    name: str
    discountPercent: int


class CreditAccount(TypedDict):
    creditLimit: str
    balance: str


class Customer(TypedDict):
    customerID: int
    firstName: str
    lastName: str
    company: str
    email: str
    phone: str
    customerType: CustomerType | None
    creditAccount: CreditAccount | None
    createTime: str
    archived: bool


class PaymentType(TypedDict):
    paymentTypeID: int
    name: str
    type: str


class SaleSummary(TypedDict):
    saleID: int
    ticketNumber: str
    shopID: int
    registerID: int
    employee: str
    customerID: int | None
    customerName: str | None
    completed: bool
    voided: bool
    returnOfSaleID: int | None
    createTime: str
    completeTime: str | None
    calcTotal: str


class SaleLine(TypedDict):
    saleLineID: int
    itemID: int
    description: str
    unitQuantity: int
    unitPrice: str
    discountPercent: int
    tax: bool
    calcSubtotal: str
    parentSaleLineID: NotRequired[int]
    returnedQuantity: NotRequired[int]


class SalePayment(TypedDict):
    salePaymentID: int
    paymentType: str
    paymentTypeID: int
    amount: str


class Sale(SaleSummary):
    calcSubtotal: str
    calcDiscount: str
    calcTax1: str
    balance: str
    SaleLines: list[SaleLine]
    SalePayments: list[SalePayment]


class CountedItem(TypedDict):
    itemID: int
    description: str
    counted: int
    qoh: NotRequired[int]
    difference: NotRequired[int]


class Adjustment(TypedDict):
    itemID: int
    qohBefore: int
    counted: int
    difference: int


class InventoryCount(TypedDict):
    inventoryCountID: int
    name: str
    shopID: int
    status: str
    startedBy: str
    createTime: str
    reconcileTime: str | None
    InventoryCountItems: list[CountedItem]
    adjustments: list[Adjustment] | None


class TransferItem(TypedDict):
    itemID: int
    toSend: int
    received: int
    description: str


class Transfer(TypedDict):
    transferID: int
    sendingShopID: int
    receivingShopID: int
    status: str
    note: str
    createdBy: str
    createTime: str
    sentOn: str | None
    receivedOn: str | None
    TransferItems: list[TransferItem]


ItemList = TypedDict("ItemList", {"@attributes": Attributes, "Item": list[ItemSummary]})
CustomerList = TypedDict("CustomerList", {"@attributes": Attributes, "Customer": list[Customer]})
SaleList = TypedDict("SaleList", {"@attributes": Attributes, "Sale": list[SaleSummary]})


def page(rows: list[dict[str, Any]], offset: int, limit: int) -> tuple[list[dict[str, Any]], Attributes]:
    """One page of rows and the list's @attributes (count, offset, limit)."""
    return rows[offset : offset + limit], {"count": len(rows), "offset": offset, "limit": limit}


def employee_name(db: Database, employee_id: int) -> str:
    row = db.get(employees, employee_id)
    return f"{row['first_name']} {row['last_name']}"


def employee_object(row: dict[str, Any]) -> Employee:
    return {
        "employeeID": row["employee_id"],
        "firstName": row["first_name"],
        "lastName": row["last_name"],
        "employeeNumber": row["employee_number"],
        "role": row["role"],
        "shopID": row["shop_id"],
    }


def register_count_object(db: Database, row: dict[str, Any]) -> RegisterCount:
    closed = row["close_time"] is not None
    expected = row["expected_cash"] if closed else expected_cash(db, row)
    shown: RegisterCount = {
        "registerCountID": row["register_count_id"],
        "registerID": row["register_id"],
        "openTime": row["open_time"],
        "openEmployee": employee_name(db, row["open_employee_id"]),
        "openingFloat": money(row["opening_float"]),
        "expectedCash": money(expected),
    }
    if closed:
        shown.update(
            closeTime=row["close_time"],
            closeEmployee=employee_name(db, row["close_employee_id"]),
            countedCash=money(row["counted_cash"]),
            variance=money(row["counted_cash"] - row["expected_cash"]),
            notes=row["notes"],
        )
    return shown


def register_object(db: Database, row: dict[str, Any]) -> Register:
    count_id = row["open_register_count_id"]
    closed = db.select(
        register_counts, "register_id = ? AND close_time IS NOT NULL", [row["register_id"]], "open_time DESC", limit=1
    )
    last_closed = closed[0] if closed else None
    return {
        "registerID": row["register_id"],
        "name": row["name"],
        "shopID": row["shop_id"],
        "open": count_id is not None,
        "RegisterCount": register_count_object(db, db.get(register_counts, count_id)) if count_id else None,
        "lastClose": register_count_object(db, last_closed) if last_closed else None,
    }


def shop_object(db: Database, row: dict[str, Any]) -> Shop:
    rate = row["tax_rate"]
    return {
        "shopID": row["shop_id"],
        "name": row["name"],
        "city": row["city"],
        "taxRate": f"{rate // 1000}.{rate % 1000:03d}",
        "archived": row["archived"],
        "Registers": [register_object(db, r) for r in db.find(registers, shop_id=row["shop_id"])],
    }


def item_summary(db: Database, row: dict[str, Any]) -> ItemSummary:
    return {
        "itemID": row["item_id"],
        "systemSku": row["system_sku"],
        "customSku": row["custom_sku"],
        "manufacturerSku": row["manufacturer_sku"],
        "description": row["description"],
        "brand": row["brand"],
        "category": db.get(categories, row["category_id"])["name"],
        "price": money(row["default_price"]),
        "archived": row["archived"],
    }


def item_object(db: Database, row: dict[str, Any]) -> Item:
    return {
        **item_summary(db, row),
        "defaultCost": money(row["default_cost"]),
        "msrp": money(row["msrp"]),
        "tax": row["tax"],
        "ItemShops": [
            {
                "shopID": s["shop_id"],
                "qoh": s["qoh"],
                "reorderPoint": s["reorder_point"],
                "reorderLevel": s["reorder_level"],
            }
            for s in db.find(item_shops, item_id=row["item_id"])
        ],
    }


def customer_object(db: Database, row: dict[str, Any]) -> Customer:
    kind = db.get(customer_types, row["customer_type_id"]) if row["customer_type_id"] else None
    return {
        "customerID": row["customer_id"],
        "firstName": row["first_name"],
        "lastName": row["last_name"],
        "company": row["company"],
        "email": row["email"],
        "phone": row["phone"],
        "customerType": {"name": kind["name"], "discountPercent": kind["discount_percent"]} if kind else None,
        "creditAccount": (
            {"creditLimit": money(row["credit_limit"]), "balance": money(row["credit_balance"])}
            if row["credit_limit"]
            else None
        ),
        "createTime": row["create_time"],
        "archived": row["archived"],
    }


def sale_summary(db: Database, row: dict[str, Any]) -> SaleSummary:
    totals = sale_totals(db, row)
    customer = db.get(customers, row["customer_id"]) if row["customer_id"] else None
    return {
        "saleID": row["sale_id"],
        "ticketNumber": row["ticket_number"],
        "shopID": row["shop_id"],
        "registerID": row["register_id"],
        "employee": employee_name(db, row["employee_id"]),
        "customerID": row["customer_id"],
        "customerName": f"{customer['first_name']} {customer['last_name']}" if customer else None,
        "completed": row["completed"],
        "voided": row["voided"],
        "returnOfSaleID": row["return_of_sale_id"],
        "createTime": row["create_time"],
        "completeTime": row["complete_time"],
        "calcTotal": money(totals["total"]),
    }


def sale_object(db: Database, row: dict[str, Any]) -> Sale:
    totals = sale_totals(db, row)
    lines = []
    for line in db.find(sale_lines, sale_id=row["sale_id"]):
        gross, off = line_amounts(line)
        item = db.get(items, line["item_id"])
        shown: SaleLine = {
            "saleLineID": line["sale_line_id"],
            "itemID": line["item_id"],
            "description": item["description"],
            "unitQuantity": line["unit_quantity"],
            "unitPrice": money(line["unit_price"]),
            "discountPercent": line["discount_percent"],
            "tax": line["tax"],
            "calcSubtotal": money(gross - off),
        }
        if line["parent_sale_line_id"] is not None:
            shown["parentSaleLineID"] = line["parent_sale_line_id"]
        elif row["completed"]:
            shown["returnedQuantity"] = returned_units(db, line["sale_line_id"])
        lines.append(shown)
    payments = [
        {
            "salePaymentID": p["sale_payment_id"],
            "paymentType": db.get(payment_types, p["payment_type_id"])["name"],
            "paymentTypeID": p["payment_type_id"],
            "amount": money(p["amount"]),
        }
        for p in db.find(sale_payments, sale_id=row["sale_id"])
    ]
    return {
        **sale_summary(db, row),
        "calcSubtotal": money(totals["subtotal"]),
        "calcDiscount": money(totals["discount"]),
        "calcTax1": money(totals["tax"]),
        "balance": money(totals["total"] - totals["paid"]) if not row["completed"] else "0.00",
        "SaleLines": lines,
        "SalePayments": payments,
    }


def count_object(db: Database, row: dict[str, Any]) -> InventoryCount:
    lines = []
    for item_id, qty in sorted(counted(db, row["inventory_count_id"]).items()):
        on_hand = db.find(item_shops, item_id=item_id, shop_id=row["shop_id"])[0]["qoh"]
        shown: CountedItem = {"itemID": item_id, "description": db.get(items, item_id)["description"], "counted": qty}
        if row["status"] == "open":
            shown.update(qoh=on_hand, difference=qty - on_hand)
        lines.append(shown)
    return {
        "inventoryCountID": row["inventory_count_id"],
        "name": row["name"],
        "shopID": row["shop_id"],
        "status": row["status"],
        "startedBy": employee_name(db, row["employee_id"]),
        "createTime": row["create_time"],
        "reconcileTime": row["reconcile_time"],
        "InventoryCountItems": lines,
        "adjustments": row["adjustments"],
    }


def transfer_object(db: Database, row: dict[str, Any]) -> Transfer:
    return {
        "transferID": row["transfer_id"],
        "sendingShopID": row["send_shop_id"],
        "receivingShopID": row["receive_shop_id"],
        "status": row["status"],
        "note": row["note"],
        "createdBy": employee_name(db, row["created_by"]),
        "createTime": row["create_time"],
        "sentOn": row["sent_time"],
        "receivedOn": row["received_time"],
        "TransferItems": [
            {**line, "description": db.get(items, line["itemID"])["description"]} for line in row["items"]
        ],
    }


def payment_type_object(row: dict[str, Any]) -> PaymentType:
    return {"paymentTypeID": row["payment_type_id"], "name": row["name"], "type": row["type"]}
