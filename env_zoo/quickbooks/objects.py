"""QuickBooks Online's API objects as output models (field names as in its JSON; references as {value, name};
amounts as decimal numbers in the company's currency), and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from .schema import (
    accounts,
    bill_lines,
    bill_payment_lines,
    bills,
    customers,
    items,
    payment_lines,
    payments,
    sales_forms,
    sales_lines,
    vendors,
)


def money(cents: int) -> float:
    """Cents as QuickBooks' decimal amount (1234.5 for 123450)."""
    return round(cents / 100, 2)


class Ref(BaseModel):
    """A reference to another object: its Id and display name."""

    value: str
    name: str


class Company(BaseModel):
    """A company (realm) the user may open; its realmId goes with every other call."""

    realmId: str
    CompanyName: str
    Country: str
    HomeCurrency: str
    BookCloseDate: str | None


class Account(BaseModel):
    """An account of the chart of accounts."""

    Id: str
    Name: str
    AccountType: str
    AcctNum: str | None
    Active: bool


class Customer(BaseModel):
    """A customer; Balance is what they owe (open invoices less unused credits and unapplied payments)."""

    Id: str
    SyncToken: str
    DisplayName: str
    CompanyName: str | None
    PrimaryEmailAddr: str | None
    PrimaryPhone: str | None
    Active: bool
    Balance: float


class Vendor(BaseModel):
    """A vendor; Balance is what the company owes them on open bills."""

    Id: str
    SyncToken: str
    DisplayName: str
    PrimaryEmailAddr: str | None
    TermDays: int
    Active: bool
    Balance: float


class Item(BaseModel):
    """A product or service sold on invoices."""

    Id: str
    Name: str
    Sku: str | None
    Type: str
    UnitPrice: float
    IncomeAccountRef: Ref
    Active: bool


class SalesLine(BaseModel):
    """An item line of an invoice or credit memo."""

    LineNum: int
    ItemRef: Ref
    Description: str | None
    Qty: int
    UnitPrice: float
    Amount: float


class LinkedTxn(BaseModel):
    """A transaction linked to this one: a payment applied to an invoice or credit memo."""

    TxnId: str
    TxnType: str
    TxnDate: str
    Amount: float


class Invoice(BaseModel):
    """An invoice; Balance is what is still open on it (0 once paid or voided)."""

    Id: str
    SyncToken: str
    DocNumber: str
    CustomerRef: Ref
    TxnDate: str
    DueDate: str | None
    TotalAmt: float
    Balance: float
    EmailStatus: str
    BillEmail: str | None
    CustomerMemo: str | None
    PrivateNote: str | None
    Line: list[SalesLine]
    LinkedTxn: list[LinkedTxn]


class CreditMemo(BaseModel):
    """A credit memo; RemainingCredit is what has not yet been applied to invoices."""

    Id: str
    SyncToken: str
    DocNumber: str
    CustomerRef: Ref
    TxnDate: str
    TotalAmt: float
    RemainingCredit: float
    PrivateNote: str | None
    Line: list[SalesLine]
    LinkedTxn: list[LinkedTxn]


class PaymentLine(BaseModel):
    """The part of a payment applied to one invoice or credit memo."""

    Amount: float
    TxnId: str
    TxnType: str
    DocNumber: str


class Payment(BaseModel):
    """A customer payment; UnappliedAmt is money received but not applied to any invoice."""

    Id: str
    SyncToken: str
    CustomerRef: Ref
    TxnDate: str
    TotalAmt: float
    UnappliedAmt: float
    PaymentRefNum: str | None
    DepositToAccountRef: Ref
    Line: list[PaymentLine]


class BillLine(BaseModel):
    """An expense line of a bill, posted to an account."""

    LineNum: int
    AccountRef: Ref
    Description: str | None
    Amount: float


class Bill(BaseModel):
    """A vendor's bill; Balance is what is still unpaid."""

    Id: str
    SyncToken: str
    DocNumber: str | None
    VendorRef: Ref
    TxnDate: str
    DueDate: str
    TotalAmt: float
    Balance: float
    PrivateNote: str | None
    Line: list[BillLine]


class BillPaymentLine(BaseModel):
    """The part of a bill payment applied to one bill."""

    Amount: float
    BillId: str
    DocNumber: str | None


class BillPayment(BaseModel):
    """A payment to a vendor by check (from a bank account) or credit card."""

    Id: str
    SyncToken: str
    VendorRef: Ref
    PayType: str
    AccountRef: Ref
    TxnDate: str
    TotalAmt: float
    DocNumber: str | None
    Line: list[BillPaymentLine]


def ref(db: Database, table: Any, key: str) -> Ref:
    row = db.get(table, key)
    return Ref(value=key, name=row.get("display_name") or row["name"])


def customer_balance(db: Database, customer_id: str) -> int:
    """Open invoice balances less unused credit memos and unapplied payments, in cents."""
    raw = db.select(sales_forms, "customer_id = ? AND balance != 0", (customer_id,))
    owed = sum(r["balance"] if r["kind"] == "Invoice" else -r["balance"] for r in raw)
    unapplied = db.select(payments, "customer_id = ? AND unapplied != 0", (customer_id,))
    return owed - sum(p["unapplied"] for p in unapplied)


def customer_object(db: Database, row: dict[str, Any]) -> Customer:
    return Customer(
        Id=row["id"], SyncToken=str(row["sync_token"]), DisplayName=row["display_name"],
        CompanyName=row["company_name"], PrimaryEmailAddr=row["email"], PrimaryPhone=row["phone"],
        Active=row["active"], Balance=money(customer_balance(db, row["id"])),
    )  # fmt: skip


def vendor_object(db: Database, row: dict[str, Any]) -> Vendor:
    owed = sum(b["balance"] for b in db.select(bills, "vendor_id = ? AND balance != 0", (row["id"],)))
    return Vendor(
        Id=row["id"], SyncToken=str(row["sync_token"]), DisplayName=row["display_name"], PrimaryEmailAddr=row["email"],
        TermDays=row["term_days"], Active=row["active"], Balance=money(owed),
    )  # fmt: skip


def item_object(db: Database, row: dict[str, Any]) -> Item:
    return Item(
        Id=row["id"], Name=row["name"], Sku=row["sku"], Type=row["type"], UnitPrice=money(row["unit_price"]),
        IncomeAccountRef=ref(db, accounts, row["income_account_id"]), Active=row["active"],
    )  # fmt: skip


def _sales_lines(db: Database, form_id: str) -> list[SalesLine]:
    return [
        SalesLine(
            LineNum=line["line_num"],
            ItemRef=ref(db, items, line["item_id"]),
            Description=line["description"],
            Qty=line["qty"],
            UnitPrice=money(line["unit_price"]),
            Amount=money(line["amount"]),
        )  # fmt: skip
        for line in db.find(sales_lines, form_id=form_id, order_by=[sales_lines.c.line_num])
    ]


def _linked_payments(db: Database, form_id: str) -> list[LinkedTxn]:
    linked = []
    for line in db.find(payment_lines, form_id=form_id):
        paid = db.get(payments, line["payment_id"])
        linked.append(
            LinkedTxn(TxnId=paid["id"], TxnType="Payment", TxnDate=paid["txn_date"], Amount=money(line["amount"]))
        )
    return linked


def invoice_object(db: Database, row: dict[str, Any]) -> Invoice:
    return Invoice(
        Id=row["id"], SyncToken=str(row["sync_token"]), DocNumber=row["doc_number"],
        CustomerRef=ref(db, customers, row["customer_id"]), TxnDate=row["txn_date"], DueDate=row["due_date"],
        TotalAmt=money(row["total"]), Balance=money(row["balance"]), EmailStatus=row["email_status"],
        BillEmail=row["bill_email"], CustomerMemo=row["customer_memo"], PrivateNote=row["private_note"],
        Line=_sales_lines(db, row["id"]), LinkedTxn=_linked_payments(db, row["id"]),
    )  # fmt: skip


def credit_memo_object(db: Database, row: dict[str, Any]) -> CreditMemo:
    return CreditMemo(
        Id=row["id"], SyncToken=str(row["sync_token"]), DocNumber=row["doc_number"],
        CustomerRef=ref(db, customers, row["customer_id"]), TxnDate=row["txn_date"], TotalAmt=money(row["total"]),
        RemainingCredit=money(row["balance"]), PrivateNote=row["private_note"], Line=_sales_lines(db, row["id"]),
        LinkedTxn=_linked_payments(db, row["id"]),
    )  # fmt: skip


def payment_object(db: Database, row: dict[str, Any]) -> Payment:
    lines = []
    for line in db.find(payment_lines, payment_id=row["id"]):
        form = db.get(sales_forms, line["form_id"])
        lines.append(
            PaymentLine(
                Amount=money(line["amount"]), TxnId=form["id"], TxnType=form["kind"], DocNumber=form["doc_number"]
            )
        )
    return Payment(
        Id=row["id"], SyncToken=str(row["sync_token"]), CustomerRef=ref(db, customers, row["customer_id"]),
        TxnDate=row["txn_date"], TotalAmt=money(row["total"]), UnappliedAmt=money(row["unapplied"]),
        PaymentRefNum=row["ref_num"], DepositToAccountRef=ref(db, accounts, row["deposit_account_id"]), Line=lines,
    )  # fmt: skip


def bill_object(db: Database, row: dict[str, Any]) -> Bill:
    return Bill(
        Id=row["id"], SyncToken=str(row["sync_token"]), DocNumber=row["doc_number"],
        VendorRef=ref(db, vendors, row["vendor_id"]), TxnDate=row["txn_date"], DueDate=row["due_date"],
        TotalAmt=money(row["total"]), Balance=money(row["balance"]), PrivateNote=row["memo"],
        Line=[
            BillLine(
                LineNum=line["line_num"], AccountRef=ref(db, accounts, line["account_id"]),
                Description=line["description"], Amount=money(line["amount"]),
            )  # fmt: skip
            for line in db.find(bill_lines, bill_id=row["id"], order_by=[bill_lines.c.line_num])
        ],
    )  # fmt: skip


def bill_payment_object(db: Database, row: dict[str, Any]) -> BillPayment:
    return BillPayment(
        Id=row["id"], SyncToken=str(row["sync_token"]), VendorRef=ref(db, vendors, row["vendor_id"]),
        PayType=row["pay_type"], AccountRef=ref(db, accounts, row["account_id"]), TxnDate=row["txn_date"],
        TotalAmt=money(row["total"]), DocNumber=row["doc_number"],
        Line=[
            BillPaymentLine(
                Amount=money(line["amount"]),
                BillId=line["bill_id"],
                DocNumber=db.get(bills, line["bill_id"])["doc_number"],
            )
            for line in db.find(bill_payment_lines, bill_payment_id=row["id"])
        ],
    )  # fmt: skip
