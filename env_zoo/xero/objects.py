"""Xero's API objects as output models (field names as in Xero's JSON; amounts as decimal numbers in the
organisation's currency), and how stored rows become them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from envfactory_gym import Database

from .rules import amount_due
from .schema import allocations, contacts, line_items, payments, tracking_categories, tracking_options


def money(cents: int) -> float:
    """Cents as Xero's decimal amount (1234.5 for 123450)."""
    return round(cents / 100, 2)


class Connection(BaseModel):
    """An organisation (tenant) the user has connected; its tenantId goes with every other call."""

    tenantId: str
    tenantName: str


class Organisation(BaseModel):
    """An organisation's settings: base currency and the period lock date (nothing dated on or before it changes)."""

    OrganisationID: str
    Name: str
    BaseCurrency: str
    CountryCode: str
    PeriodLockDate: str | None


class Account(BaseModel):
    """An account in the chart of accounts; BANK accounts hold payments and bank transactions."""

    AccountID: str
    Code: str
    Name: str
    Type: str
    TaxType: str
    Status: str
    BankAccountNumber: str | None = None


class Contact(BaseModel):
    """A customer and/or supplier."""

    ContactID: str
    Name: str
    EmailAddress: str | None
    IsCustomer: bool
    IsSupplier: bool
    ContactStatus: str
    ContactGroups: list[str] = []


class ContactGroup(BaseModel):
    """A named group of contacts."""

    ContactGroupID: str
    Name: str
    Contacts: list[str]


class TrackingOption(BaseModel):
    """An option of a tracking category (a region, a department)."""

    TrackingOptionID: str
    Name: str


class TrackingCategory(BaseModel):
    """A tracking category and its options."""

    TrackingCategoryID: str
    Name: str
    Options: list[TrackingOption]


class LineItem(BaseModel):
    """A line of an invoice or credit note; amounts exclude tax, TaxAmount is the line's tax."""

    Description: str
    Quantity: int
    UnitAmount: float
    AccountCode: str
    TaxType: str
    LineAmount: float
    TaxAmount: float
    Tracking: str | None = None


class Payment(BaseModel):
    """A payment against an invoice or credit note, from or into a bank account."""

    PaymentID: str
    InvoiceID: str
    InvoiceNumber: str
    AccountCode: str
    Date: str
    Amount: float
    Reference: str | None
    Status: str
    IsReconciled: bool


class Allocation(BaseModel):
    """Part of a credit note set against an invoice."""

    AllocationID: str
    CreditNoteID: str
    InvoiceID: str
    Amount: float
    Date: str


class InvoiceSummary(BaseModel):
    """An invoice or credit note as lists show it."""

    InvoiceID: str
    Type: str
    InvoiceNumber: str
    Contact: str
    Date: str
    DueDate: str | None
    Reference: str | None
    Status: str
    Total: float
    AmountDue: float


class Invoice(InvoiceSummary):
    """An invoice or credit note in full: totals, lines, payments and credit allocations."""

    CurrencyCode: str
    SubTotal: float
    TotalTax: float
    AmountPaid: float
    AmountCredited: float
    LineItems: list[LineItem]
    Payments: list[Payment]
    Allocations: list[Allocation]


class BankTransaction(BaseModel):
    """Money received (RECEIVE) or spent (SPEND) straight through a bank account, without an invoice."""

    BankTransactionID: str
    Type: str
    Contact: str
    BankAccountCode: str
    Date: str
    Reference: str | None
    Description: str
    AccountCode: str
    TaxType: str
    SubTotal: float
    TotalTax: float
    Total: float
    Status: str
    IsReconciled: bool


class StatementLine(BaseModel):
    """A line of an imported bank statement; reconciled lines name the payment or bank transaction they match."""

    StatementLineID: str
    BankAccountCode: str
    Date: str
    Amount: float
    Payee: str
    Reference: str | None
    Status: str
    PaymentID: str | None
    BankTransactionID: str | None


def contact_object(db: Database, row: dict[str, Any], groups: list[str]) -> Contact:
    return Contact(
        ContactID=row["id"],
        Name=row["name"],
        EmailAddress=row["email"],
        IsCustomer=row["is_customer"],
        IsSupplier=row["is_supplier"],
        ContactStatus=row["status"],
        ContactGroups=groups,
    )


def summary_object(db: Database, row: dict[str, Any]) -> InvoiceSummary:
    return InvoiceSummary(
        InvoiceID=row["id"],
        Type=row["type"],
        InvoiceNumber=row["number"],
        Contact=db.get(contacts, row["contact_id"])["name"],
        Date=row["date"],
        DueDate=row["due_date"],
        Reference=row["reference"],
        Status=row["status"],
        Total=money(row["total"]),
        AmountDue=money(amount_due(row)),
    )


def payment_object(db: Database, row: dict[str, Any], number: str, code: str) -> Payment:
    return Payment(
        PaymentID=row["id"],
        InvoiceID=row["document_id"],
        InvoiceNumber=number,
        AccountCode=code,
        Date=row["date"],
        Amount=money(row["amount"]),
        Reference=row["reference"],
        Status=row["status"],
        IsReconciled=row["is_reconciled"],
    )


def _line(db: Database, row: dict[str, Any]) -> LineItem:
    tracking = None
    if row["tracking_option_id"]:
        option = db.get(tracking_options, row["tracking_option_id"])
        tracking = f"{db.get(tracking_categories, option['category_id'])['name']}: {option['name']}"
    return LineItem(
        Description=row["description"],
        Quantity=row["quantity"],
        UnitAmount=money(row["unit_amount"]),
        AccountCode=row["account_code"],
        TaxType=row["tax_type"],
        LineAmount=money(row["line_amount"]),
        TaxAmount=money(row["tax_amount"]),
        Tracking=tracking,
    )


def invoice_object(db: Database, row: dict[str, Any], bank_code: dict[str, str]) -> Invoice:
    """The full document; `bank_code` maps bank account ids to their codes."""
    summary = summary_object(db, row).model_dump()
    credit = row["type"].endswith("CREDIT")
    held = db.find(allocations, **{"credit_note_id" if credit else "invoice_id": row["id"]})
    return Invoice(
        **summary,
        CurrencyCode=row["currency"],
        SubTotal=money(row["sub_total"]),
        TotalTax=money(row["total_tax"]),
        AmountPaid=money(row["amount_paid"]),
        AmountCredited=money(row["amount_credited"]),
        LineItems=[
            _line(db, line) for line in db.find(line_items, document_id=row["id"], order_by=[line_items.c.position])
        ],
        Payments=[
            payment_object(db, p, row["number"], bank_code[p["account_id"]])
            for p in db.find(payments, document_id=row["id"])
        ],
        Allocations=[
            Allocation(
                AllocationID=a["id"],
                CreditNoteID=a["credit_note_id"],
                InvoiceID=a["invoice_id"],
                Amount=money(a["amount"]),
                Date=a["date"],
            )  # fmt: skip
            for a in held
        ],
    )


def bank_transaction_object(row: dict[str, Any], contact: str, bank_code: str) -> BankTransaction:
    return BankTransaction(
        BankTransactionID=row["id"],
        Type=row["type"],
        Contact=contact,
        BankAccountCode=bank_code,
        Date=row["date"],
        Reference=row["reference"],
        Description=row["description"],
        AccountCode=row["account_code"],
        TaxType=row["tax_type"],
        SubTotal=money(row["sub_total"]),
        TotalTax=money(row["total_tax"]),
        Total=money(row["total"]),
        Status=row["status"],
        IsReconciled=row["is_reconciled"],
    )


def statement_line_object(row: dict[str, Any], bank_code: str) -> StatementLine:
    return StatementLine(
        StatementLineID=row["id"],
        BankAccountCode=bank_code,
        Date=row["date"],
        Amount=money(row["amount"]),
        Payee=row["payee"],
        Reference=row["reference"],
        Status=row["status"],
        PaymentID=row["payment_id"],
        BankTransactionID=row["bank_transaction_id"],
    )
