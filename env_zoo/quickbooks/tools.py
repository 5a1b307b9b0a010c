"""QuickBooks Online Accounting API tools as a connected user sees them: their companies (realms), the chart of
accounts, customers, vendors and items, invoices (created, updated with their SyncToken, voided, emailed), customer
payments applied to invoices and credit memos, credit memos, bills and bill payments; plus the user's own sign-in."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Database, PermissionDenied, tool
from envfactory_gym.fields import IsoDate, NonBlankText

from . import ledger, rules
from .access import company, realm_ids
from .objects import (
    Account,
    Bill,
    BillPayment,
    Company,
    CreditMemo,
    Customer,
    Invoice,
    Item,
    Payment,
    Vendor,
    bill_object,
    bill_payment_object,
    credit_memo_object,
    customer_object,
    invoice_object,
    item_object,
    payment_object,
    vendor_object,
)
from .schema import (
    accounts,
    bill_lines,
    bill_payment_lines,
    bill_payments,
    bills,
    customers,
    items,
    payment_lines,
    payments,
    sales_forms,
    sessions,
    users,
    vendors,
)

RealmId = Annotated[str, Field(pattern=r"^\d{10,20}$", description="the company's realmId")]
Id = Annotated[str, Field(pattern=r"^\d{1,10}$", description="a QuickBooks Id, e.g. '58'")]
SyncToken = Annotated[str, Field(pattern=r"^\d{1,6}$", description="the object's current SyncToken")]
Amount = Annotated[Decimal, Field(gt=0, max_digits=12, decimal_places=2, description="e.g. 1250.00")]
Email = Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$", max_length=100)]
Name = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[^:]*\S[^:]*$", description="no colons")]
Memo = Annotated[str, Field(max_length=1000)]
StartPosition = Annotated[int, Field(ge=1, description="1-based index of the first result")]
MaxResults = Annotated[int, Field(ge=1, le=1000)]
AccountType = Literal[
    "Bank", "Accounts Receivable", "Other Current Asset", "Credit Card", "Accounts Payable", "Income", "Expense",
    "Cost of Goods Sold", "Other Expense",
]  # fmt: skip
EXPENSE_TYPES = ("Expense", "Cost of Goods Sold", "Other Expense")
DEPOSIT_TYPES = ("Bank", "Other Current Asset")


class SalesLineInput(BaseModel):
    """An item line: Qty of an item at UnitPrice (the item's own price when left out)."""

    ItemRef: Id
    Qty: Annotated[int, Field(ge=1, le=100000)] = 1
    UnitPrice: Amount | None = None
    Description: Memo | None = None


class PaymentLineInput(BaseModel):
    """Part of a payment applied to an open invoice, or part of a credit memo's remaining credit used."""

    Amount: Amount
    TxnId: Id
    TxnType: Literal["Invoice", "CreditMemo"] = "Invoice"


class BillLineInput(BaseModel):
    """An expense line of a bill, posted to an expense account."""

    AccountRef: Id
    Amount: Amount
    Description: Memo | None = None


class BillPaymentLineInput(BaseModel):
    """Part of a bill payment applied to one open bill."""

    Amount: Amount
    BillId: Id


SalesLines = Annotated[list[SalesLineInput], Field(min_length=1, max_length=50)]


def _where(realm_id: str, *clauses: tuple[str, object]) -> tuple[str, list[object]]:
    """An SQL filter of the company's rows plus each (clause, value) whose value was given."""
    where, params = ["realm_id = ?"], [realm_id]
    for clause, value in clauses:
        if value is not None:
            where.append(clause)
            params.append(value)
    return " AND ".join(where), params


def _name_like(text: str | None) -> str | None:
    return None if text is None else f"%{text.strip().lower()}%"


# ---------------------------------------------------------------- the user and companies


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText, password: NonBlankText) -> list[Company]:
    """(User only) The user signs in with their Intuit account and connects the assistant to the companies they
    may open.

    Args:
        email: The Intuit account's email.
        password: Its password.
    """
    found = db.find(users, email=email.strip().lower())
    if not found or found[0]["password"] != password:
        raise PermissionDenied("AuthenticationFailed: the email or password is incorrect.")
    db.start_session(sessions, user_id=found[0]["id"])
    return list_companies(db)


@tool(read_only=True)
def list_companies(db: Database) -> list[Company]:
    """The companies (realms) the signed-in user connected, with their settings; every other call names one by its
    realmId."""
    return [get_company_info(db, realm) for realm in realm_ids(db)]


@tool(read_only=True)
def get_company_info(db: Database, realmId: RealmId) -> Company:
    """A company's settings: country, home currency and the book close date (no transaction dated on or before it
    can be created, changed or deleted).

    Args:
        realmId: The company.
    """
    row = company(db, realmId)
    return Company(
        realmId=row["realm_id"], CompanyName=row["name"], Country=row["country"], HomeCurrency=row["currency"],
        BookCloseDate=row["book_close_date"],
    )  # fmt: skip


@tool(read_only=True)
def query_accounts(
    db: Database, realmId: RealmId, AccountType: AccountType | None = None, Active: bool | None = True
) -> list[Account]:
    """The chart of accounts by name: Bank accounts receive deposits and pay checks, Credit Card accounts pay card
    bill payments, expense accounts take bill lines.

    Args:
        realmId: The company.
        AccountType: Only accounts of this type.
        Active: Only active (true, the default) or inactive (false) accounts; null for both.
    """
    company(db, realmId)
    where, params = _where(realmId, ("account_type = ?", AccountType), ("active = ?", Active))
    return [
        Account(Id=a["id"], Name=a["name"], AccountType=a["account_type"], AcctNum=a["acct_num"], Active=a["active"])
        for a in db.select(accounts, where, params, order_by="name")
    ]


# ---------------------------------------------------------------- customers, vendors, items


@tool(read_only=True)
def query_customers(
    db: Database,
    realmId: RealmId,
    DisplayName: NonBlankText | None = None,
    Active: bool | None = True,
    StartPosition: StartPosition = 1,
    MaxResults: MaxResults = 100,
) -> list[Customer]:
    """Customers by display name, with their open Balance; DisplayName matches any part of the display name,
    company name or email, case-insensitively.

    Args:
        realmId: The company.
        DisplayName: Text the customer's name or email contains.
        Active: Only active (true, the default) or inactive (false) customers; null for both.
        StartPosition: First result to return (1-based).
        MaxResults: How many to return (at most 1000).
    """
    company(db, realmId)
    where, params = _where(realmId, ("active = ?", Active))
    like = _name_like(DisplayName)
    if like is not None:
        where += (
            " AND (lower(display_name) LIKE ? OR lower(coalesce(company_name, '')) LIKE ?"
            " OR lower(coalesce(email, '')) LIKE ?)"
        )
        params += [like] * 3
    rows = db.select(customers, where, params, order_by="lower(display_name)")
    return [customer_object(db, row) for row in rows[StartPosition - 1 : StartPosition - 1 + MaxResults]]


@tool(read_only=True)
def get_customer(db: Database, realmId: RealmId, Id: Id) -> Customer:
    """A customer by Id, with its current SyncToken and open Balance.

    Args:
        realmId: The company.
        Id: The customer's Id.
    """
    company(db, realmId)
    return customer_object(db, ledger.own(db, customers, realmId, Id, "Customer"))


@tool()
def create_customer(
    db: Database,
    realmId: RealmId,
    DisplayName: Name,
    CompanyName: Name | None = None,
    PrimaryEmailAddr: Email | None = None,
    PrimaryPhone: Annotated[str, Field(pattern=r"^[0-9+()\-. ]{7,20}$")] | None = None,
) -> Customer:
    """Create a customer; the display name must be unique among the company's customers and vendors, active or not.

    Args:
        realmId: The company.
        DisplayName: The name shown on invoices and lists.
        CompanyName: The customer's business name.
        PrimaryEmailAddr: Where invoices are emailed.
        PrimaryPhone: A phone number.
    """
    company(db, realmId)
    rules.check_unique_name(db, realmId, DisplayName)
    row = db.insert(
        customers, id=db.new_id(customers, "", 1), realm_id=realmId, display_name=DisplayName.strip(),
        company_name=CompanyName, email=PrimaryEmailAddr, phone=PrimaryPhone, active=True, sync_token=0,
    )  # fmt: skip
    return customer_object(db, row)


@tool()
def update_customer(
    db: Database,
    realmId: RealmId,
    Id: Id,
    SyncToken: SyncToken,
    DisplayName: Name | None = None,
    CompanyName: Name | None = None,
    PrimaryEmailAddr: Email | None = None,
    PrimaryPhone: Annotated[str, Field(pattern=r"^[0-9+()\-. ]{7,20}$")] | None = None,
    Active: bool | None = None,
) -> Customer:
    """Sparse update of a customer: only the fields given change. The SyncToken must be the customer's current one;
    a customer with an open balance cannot be made inactive.

    Args:
        realmId: The company.
        Id: The customer's Id.
        SyncToken: The customer's current SyncToken.
        DisplayName: A new display name (unique among customers and vendors).
        CompanyName: A new business name.
        PrimaryEmailAddr: A new email address.
        PrimaryPhone: A new phone number.
        Active: false to make the customer inactive, true to reactivate.
    """
    company(db, realmId)
    row = ledger.own(db, customers, realmId, Id, "Customer")
    rules.check_sync_token(row, SyncToken)
    changes: dict[str, object] = {}
    if DisplayName is not None:
        rules.check_unique_name(db, realmId, DisplayName, keep=Id)
        changes["display_name"] = DisplayName.strip()
    if Active is False and row["active"]:
        balance = customer_object(db, row).Balance
        if balance != 0:
            raise rules.business_error(
                f"{row['display_name']} has an open balance of {balance:.2f}. Settle or credit it before making the "
                "customer inactive."
            )
    for column, value in (
        ("company_name", CompanyName),
        ("email", PrimaryEmailAddr),
        ("phone", PrimaryPhone),
        ("active", Active),
    ):
        if value is not None:
            changes[column] = value
    return customer_object(db, ledger.touch(db, customers, row, **changes))


@tool(read_only=True)
def query_vendors(
    db: Database,
    realmId: RealmId,
    DisplayName: NonBlankText | None = None,
    Active: bool | None = True,
    StartPosition: StartPosition = 1,
    MaxResults: MaxResults = 100,
) -> list[Vendor]:
    """Vendors by display name, with what is owed to them; DisplayName matches any part of the name or email.

    Args:
        realmId: The company.
        DisplayName: Text the vendor's name or email contains.
        Active: Only active (true, the default) or inactive (false) vendors; null for both.
        StartPosition: First result to return (1-based).
        MaxResults: How many to return (at most 1000).
    """
    company(db, realmId)
    where, params = _where(realmId, ("active = ?", Active))
    like = _name_like(DisplayName)
    if like is not None:
        where += " AND (lower(display_name) LIKE ? OR lower(coalesce(email, '')) LIKE ?)"
        params += [like] * 2
    rows = db.select(vendors, where, params, order_by="lower(display_name)")
    return [vendor_object(db, row) for row in rows[StartPosition - 1 : StartPosition - 1 + MaxResults]]


@tool()
def create_vendor(
    db: Database,
    realmId: RealmId,
    DisplayName: Name,
    PrimaryEmailAddr: Email | None = None,
    TermDays: Literal[0, 10, 15, 30, 45, 60] = 30,
) -> Vendor:
    """Create a vendor; the display name must be unique among the company's customers and vendors.

    Args:
        realmId: The company.
        DisplayName: The vendor's name.
        PrimaryEmailAddr: The vendor's email.
        TermDays: Payment terms in days (a bill is due this long after its date unless it says otherwise).
    """
    company(db, realmId)
    rules.check_unique_name(db, realmId, DisplayName)
    row = db.insert(
        vendors, id=db.new_id(vendors, "", 1), realm_id=realmId, display_name=DisplayName.strip(),
        email=PrimaryEmailAddr, term_days=TermDays, active=True, sync_token=0,
    )  # fmt: skip
    return vendor_object(db, row)


@tool(read_only=True)
def query_items(
    db: Database,
    realmId: RealmId,
    Name: NonBlankText | None = None,
    Type: Literal["Service", "NonInventory", "Inventory"] | None = None,
    Active: bool | None = True,
) -> list[Item]:
    """Products and services by name, with their sales price; Name matches any part of the name or SKU.

    Args:
        realmId: The company.
        Name: Text the item's name or SKU contains.
        Type: Only items of this type.
        Active: Only active (true, the default) or inactive (false) items; null for both.
    """
    company(db, realmId)
    where, params = _where(realmId, ("type = ?", Type), ("active = ?", Active))
    like = _name_like(Name)
    if like is not None:
        where += " AND (lower(name) LIKE ? OR lower(coalesce(sku, '')) LIKE ?)"
        params += [like] * 2
    return [item_object(db, row) for row in db.select(items, where, params, order_by="lower(name)")]


# ---------------------------------------------------------------- invoices


@tool(read_only=True)
def query_invoices(
    db: Database,
    realmId: RealmId,
    CustomerRef: Id | None = None,
    DocNumber: NonBlankText | None = None,
    OpenOnly: bool = False,
    TxnDateFrom: IsoDate | None = None,
    TxnDateTo: IsoDate | None = None,
    StartPosition: StartPosition = 1,
    MaxResults: MaxResults = 100,
) -> list[Invoice]:
    """Invoices, newest TxnDate first; a voided invoice has a zero total and the note "Voided".

    Args:
        realmId: The company.
        CustomerRef: Only this customer's (their Id).
        DocNumber: Only the invoice with this number.
        OpenOnly: Only invoices with an open Balance.
        TxnDateFrom: Dated on or after this day.
        TxnDateTo: Dated on or before this day.
        StartPosition: First result to return (1-based).
        MaxResults: How many to return (at most 1000).
    """
    company(db, realmId)
    where, params = _where(
        realmId, ("kind = ?", "Invoice"), ("customer_id = ?", CustomerRef),
        ("doc_number = ?", DocNumber.strip() if DocNumber else None), ("balance > ?", 0 if OpenOnly else None),
        ("txn_date >= ?", TxnDateFrom), ("txn_date <= ?", TxnDateTo),
    )  # fmt: skip
    rows = db.select(sales_forms, where, params, order_by="txn_date DESC, doc_number DESC")
    return [invoice_object(db, row) for row in rows[StartPosition - 1 : StartPosition - 1 + MaxResults]]


@tool(read_only=True)
def get_invoice(db: Database, realmId: RealmId, Id: Id) -> Invoice:
    """An invoice by Id: lines, balance, email status, the payments linked to it and its current SyncToken.

    Args:
        realmId: The company.
        Id: The invoice's Id.
    """
    company(db, realmId)
    return invoice_object(db, ledger.form(db, realmId, Id, "Invoice"))


@tool()
def create_invoice(
    db: Database,
    realmId: RealmId,
    CustomerRef: Id,
    Line: SalesLines,
    TxnDate: IsoDate,
    DueDate: IsoDate | None = None,
    DocNumber: Annotated[str, Field(min_length=1, max_length=21)] | None = None,
    BillEmail: Email | None = None,
    CustomerMemo: Memo | None = None,
) -> Invoice:
    """Create an invoice for an active customer from item lines. It is numbered after the company's last invoice
    unless DocNumber is given (which must be unused), due 30 days after TxnDate unless DueDate says otherwise, and
    emailed later to BillEmail (the customer's email when left out).

    Args:
        realmId: The company.
        CustomerRef: The customer's Id.
        Line: The item lines.
        TxnDate: The invoice date (after the book close date).
        DueDate: When payment is due (on or after TxnDate).
        DocNumber: The invoice number, when not the next in sequence.
        BillEmail: Where to email it.
        CustomerMemo: A message shown to the customer.
    """
    company(db, realmId)
    who = ledger.customer(db, realmId, CustomerRef)
    rules.check_book_close(db, realmId, TxnDate)
    due = DueDate or (date.fromisoformat(TxnDate) + timedelta(days=30)).isoformat()
    if due < TxnDate:
        raise rules.business_error("The due date cannot be earlier than the transaction date.")
    used = db.find(sales_forms, realm_id=realmId, kind="Invoice", doc_number=(DocNumber or "").strip())
    if used:
        raise rules.duplicate_number(used[0]["doc_number"], "Invoice", used[0]["id"])
    form_id = db.new_id(sales_forms, "", 1)
    db.insert(
        sales_forms, id=form_id, realm_id=realmId, kind="Invoice",
        doc_number=DocNumber.strip() if DocNumber else ledger.next_doc_number(db, realmId, "Invoice"),
        customer_id=CustomerRef, txn_date=TxnDate, due_date=due, total=0, balance=0,
        bill_email=BillEmail or who["email"], email_status="NotSet", customer_memo=CustomerMemo, private_note=None,
        voided=False, sync_token=0, updated=db.now_iso(),
    )  # fmt: skip
    total = ledger.write_sales_lines(db, realmId, form_id, Line)
    return invoice_object(db, db.update(sales_forms, form_id, total=total, balance=total))


@tool()
def update_invoice(
    db: Database,
    realmId: RealmId,
    Id: Id,
    SyncToken: SyncToken,
    Line: SalesLines | None = None,
    DueDate: IsoDate | None = None,
    BillEmail: Email | None = None,
    CustomerMemo: Memo | None = None,
) -> Invoice:
    """Sparse update of an invoice: only the fields given change; Line, when given, replaces all lines. The
    SyncToken must be the invoice's current one; a voided invoice or one dated in closed books cannot change, and
    the new total may not fall below what has already been paid.

    Args:
        realmId: The company.
        Id: The invoice's Id.
        SyncToken: The invoice's current SyncToken.
        Line: New item lines replacing the old ones.
        DueDate: A new due date (on or after the invoice date).
        BillEmail: A new address to email it to.
        CustomerMemo: A new message to the customer.
    """
    company(db, realmId)
    row = ledger.form(db, realmId, Id, "Invoice")
    rules.check_sync_token(row, SyncToken)
    if row["voided"]:
        raise rules.business_error(f"Invoice {row['doc_number']} is voided and cannot be changed.")
    rules.check_book_close(db, realmId, row["txn_date"])
    changes: dict[str, object] = {}
    if DueDate is not None:
        if DueDate < row["txn_date"]:
            raise rules.business_error("The due date cannot be earlier than the transaction date.")
        changes["due_date"] = DueDate
    for column, value in (("bill_email", BillEmail), ("customer_memo", CustomerMemo)):
        if value is not None:
            changes[column] = value
    if Line is not None:
        paid = row["total"] - row["balance"]
        ledger.clear_sales_lines(db, Id)
        total = ledger.write_sales_lines(db, realmId, Id, Line)
        if total < paid:
            raise rules.business_error(
                f"The invoice total ({total / 100:.2f}) cannot be less than the payments applied to it "
                f"({paid / 100:.2f})."
            )
        changes.update(total=total, balance=total - paid)
    return invoice_object(db, ledger.touch(db, sales_forms, row, **changes))


@tool()
def void_invoice(db: Database, realmId: RealmId, Id: Id, SyncToken: SyncToken) -> Invoice:
    """Void an invoice: its amounts become zero and it is noted "Voided"; it stays on record under its number. An
    invoice with payments applied cannot be voided until those payments are deleted.

    Args:
        realmId: The company.
        Id: The invoice's Id.
        SyncToken: The invoice's current SyncToken.
    """
    company(db, realmId)
    row = ledger.form(db, realmId, Id, "Invoice")
    rules.check_sync_token(row, SyncToken)
    if row["voided"]:
        raise rules.business_error(f"Invoice {row['doc_number']} is already voided.")
    rules.check_book_close(db, realmId, row["txn_date"])
    if db.find(payment_lines, form_id=Id):
        raise rules.business_error(
            f"Invoice {row['doc_number']} has payments linked to it. Delete or unapply those payments before "
            "voiding it."
        )
    return invoice_object(
        db, ledger.touch(db, sales_forms, row, total=0, balance=0, voided=True, private_note="Voided")
    )


@tool()
def send_invoice(db: Database, realmId: RealmId, Id: Id, SendTo: Email | None = None) -> Invoice:
    """Email an invoice to the customer: to SendTo when given (which also becomes its BillEmail), else to its
    BillEmail. Its EmailStatus becomes EmailSent. Voided invoices are not sent.

    Args:
        realmId: The company.
        Id: The invoice's Id.
        SendTo: The address to send it to instead.
    """
    company(db, realmId)
    row = ledger.form(db, realmId, Id, "Invoice")
    if row["voided"]:
        raise rules.business_error(f"Invoice {row['doc_number']} is voided and cannot be sent.")
    address = SendTo or row["bill_email"]
    if address is None:
        raise rules.fault(
            "2050", "Invalid String", "Email Address is missing: give SendTo or set the invoice's BillEmail.",
            element="BillEmail",
        )  # fmt: skip
    return invoice_object(db, ledger.touch(db, sales_forms, row, bill_email=address, email_status="EmailSent"))


# ---------------------------------------------------------------- payments and credit memos


@tool(read_only=True)
def query_payments(
    db: Database,
    realmId: RealmId,
    CustomerRef: Id | None = None,
    TxnDateFrom: IsoDate | None = None,
    TxnDateTo: IsoDate | None = None,
    StartPosition: StartPosition = 1,
    MaxResults: MaxResults = 100,
) -> list[Payment]:
    """Customer payments, newest first, with the invoices and credit memos each is applied to.

    Args:
        realmId: The company.
        CustomerRef: Only this customer's (their Id).
        TxnDateFrom: Dated on or after this day.
        TxnDateTo: Dated on or before this day.
        StartPosition: First result to return (1-based).
        MaxResults: How many to return (at most 1000).
    """
    company(db, realmId)
    where, params = _where(
        realmId, ("customer_id = ?", CustomerRef), ("txn_date >= ?", TxnDateFrom), ("txn_date <= ?", TxnDateTo)
    )
    rows = db.select(payments, where, params, order_by="txn_date DESC")
    return [payment_object(db, row) for row in rows[StartPosition - 1 : StartPosition - 1 + MaxResults]]


@tool()
def create_payment(
    db: Database,
    realmId: RealmId,
    CustomerRef: Id,
    TotalAmt: Annotated[Decimal, Field(ge=0, max_digits=12, decimal_places=2, description="e.g. 1250.00")],
    TxnDate: IsoDate,
    DepositToAccountRef: Id,
    Line: Annotated[list[PaymentLineInput], Field(max_length=50)] = [],  # noqa: B006
    PaymentRefNum: Annotated[str, Field(min_length=1, max_length=21)] | None = None,
) -> Payment:
    """Record money received from a customer and apply it to their open invoices. A line may also use a credit
    memo's remaining credit (TxnType CreditMemo) toward the invoices in the same payment. Each amount may not
    exceed the invoice's balance (or the memo's remaining credit); what reaches no invoice stays UnappliedAmt.

    Args:
        realmId: The company.
        CustomerRef: The paying customer's Id.
        TotalAmt: The money received (0 when only applying a credit memo).
        TxnDate: The payment date (after the book close date).
        DepositToAccountRef: The Bank or Undeposited Funds account it goes into.
        Line: The invoices (and credit memos) it is applied to.
        PaymentRefNum: The customer's check or reference number.
    """
    company(db, realmId)
    ledger.customer(db, realmId, CustomerRef)
    ledger.account(db, realmId, DepositToAccountRef, DEPOSIT_TYPES, "DepositToAccountRef")
    rules.check_book_close(db, realmId, TxnDate)
    total, to_invoices, credits = rules.cents(TotalAmt), 0, 0
    linked: list[tuple[dict, int]] = []
    for line in Line:
        row = ledger.form(db, realmId, line.TxnId, line.TxnType)
        amount = rules.cents(line.Amount)
        if row["customer_id"] != CustomerRef:
            raise rules.business_error(f"{line.TxnType} {row['doc_number']} belongs to a different customer.")
        already = sum(a for r, a in linked if r["id"] == row["id"])
        if amount + already > row["balance"]:
            what = "open balance" if line.TxnType == "Invoice" else "remaining credit"
            raise rules.business_error(
                f"The amount applied to {line.TxnType} {row['doc_number']} ({(amount + already) / 100:.2f}) "
                f"exceeds its "
                f"{what} ({row['balance'] / 100:.2f})."
            )
        linked.append((row, amount))
        to_invoices, credits = (
            (to_invoices + amount, credits) if line.TxnType == "Invoice" else (to_invoices, credits + amount)
        )
    if credits > to_invoices:
        raise rules.business_error("Credits applied may not exceed the amount applied to invoices in the same payment.")
    if to_invoices > total + credits:
        raise rules.business_error(
            f"The amount applied to invoices ({to_invoices / 100:.2f}) exceeds the payment amount plus credits "
            f"({(total + credits) / 100:.2f})."
        )
    if total == 0 and not linked:
        raise rules.business_error("You must set a transaction amount.")
    payment_id = db.new_id(payments, "", 1)
    db.insert(
        payments, id=payment_id, realm_id=realmId, customer_id=CustomerRef, txn_date=TxnDate, total=total,
        unapplied=total + credits - to_invoices, ref_num=PaymentRefNum, deposit_account_id=DepositToAccountRef,
        sync_token=0,
    )  # fmt: skip
    for row, amount in linked:
        ledger.apply(db, payment_id, row, amount)
    return payment_object(db, db.get(payments, payment_id))


@tool()
def delete_payment(db: Database, realmId: RealmId, Id: Id, SyncToken: SyncToken) -> Payment:
    """Delete a payment (e.g. a bounced check or one recorded twice): the invoices it paid are open again and any
    credit memo it used gets its credit back. Returns the payment as it was.

    Args:
        realmId: The company.
        Id: The payment's Id.
        SyncToken: The payment's current SyncToken.
    """
    company(db, realmId)
    row = ledger.own(db, payments, realmId, Id, "Payment")
    rules.check_sync_token(row, SyncToken)
    rules.check_book_close(db, realmId, row["txn_date"])
    before = payment_object(db, row)
    ledger.unapply_all(db, Id)
    db.delete(payments, Id)
    return before


@tool(read_only=True)
def query_credit_memos(
    db: Database, realmId: RealmId, CustomerRef: Id | None = None, OpenOnly: bool = False
) -> list[CreditMemo]:
    """Credit memos, newest first, with their RemainingCredit.

    Args:
        realmId: The company.
        CustomerRef: Only this customer's (their Id).
        OpenOnly: Only memos with credit left to use.
    """
    company(db, realmId)
    where, params = _where(
        realmId, ("kind = ?", "CreditMemo"), ("customer_id = ?", CustomerRef), ("balance > ?", 0 if OpenOnly else None)
    )
    return [credit_memo_object(db, row) for row in db.select(sales_forms, where, params, order_by="txn_date DESC")]


@tool()
def create_credit_memo(
    db: Database,
    realmId: RealmId,
    CustomerRef: Id,
    Line: SalesLines,
    TxnDate: IsoDate,
    PrivateNote: Memo | None = None,
) -> CreditMemo:
    """Create a credit memo for a customer (a refund owed, a goodwill discount) from item lines; its credit is used
    later by applying it to an invoice in a payment.

    Args:
        realmId: The company.
        CustomerRef: The customer's Id.
        Line: The item lines credited.
        TxnDate: The memo date (after the book close date).
        PrivateNote: An internal note on why.
    """
    company(db, realmId)
    ledger.customer(db, realmId, CustomerRef)
    rules.check_book_close(db, realmId, TxnDate)
    form_id = db.new_id(sales_forms, "", 1)
    db.insert(
        sales_forms, id=form_id, realm_id=realmId, kind="CreditMemo",
        doc_number=ledger.next_doc_number(db, realmId, "CreditMemo"), customer_id=CustomerRef, txn_date=TxnDate,
        due_date=None, total=0, balance=0, bill_email=None, email_status="NotSet", customer_memo=None,
        private_note=PrivateNote, voided=False, sync_token=0, updated=db.now_iso(),
    )  # fmt: skip
    total = ledger.write_sales_lines(db, realmId, form_id, Line)
    return credit_memo_object(db, db.update(sales_forms, form_id, total=total, balance=total))


# ---------------------------------------------------------------- bills and bill payments


@tool(read_only=True)
def query_bills(
    db: Database,
    realmId: RealmId,
    VendorRef: Id | None = None,
    OpenOnly: bool = False,
    DueDateTo: IsoDate | None = None,
    StartPosition: StartPosition = 1,
    MaxResults: MaxResults = 100,
) -> list[Bill]:
    """Bills, soonest due first, with their expense lines and unpaid Balance.

    Args:
        realmId: The company.
        VendorRef: Only this vendor's (their Id).
        OpenOnly: Only bills with a Balance left to pay.
        DueDateTo: Due on or before this day.
        StartPosition: First result to return (1-based).
        MaxResults: How many to return (at most 1000).
    """
    company(db, realmId)
    where, params = _where(
        realmId, ("vendor_id = ?", VendorRef), ("balance > ?", 0 if OpenOnly else None), ("due_date <= ?", DueDateTo)
    )
    rows = db.select(bills, where, params, order_by="due_date")
    return [bill_object(db, row) for row in rows[StartPosition - 1 : StartPosition - 1 + MaxResults]]


@tool()
def create_bill(
    db: Database,
    realmId: RealmId,
    VendorRef: Id,
    Line: Annotated[list[BillLineInput], Field(min_length=1, max_length=50)],
    TxnDate: IsoDate,
    DueDate: IsoDate | None = None,
    DocNumber: Annotated[str, Field(min_length=1, max_length=21)] | None = None,
    PrivateNote: Memo | None = None,
) -> Bill:
    """Enter a vendor's bill with expense lines. It is due after the vendor's payment terms unless DueDate says
    otherwise; the vendor's bill number (DocNumber) may not repeat one of that vendor's earlier bills.

    Args:
        realmId: The company.
        VendorRef: The vendor's Id.
        Line: The expense lines, each posted to an expense account.
        TxnDate: The bill date (after the book close date).
        DueDate: When it is due (on or after TxnDate).
        DocNumber: The vendor's own bill or invoice number.
        PrivateNote: A memo.
    """
    company(db, realmId)
    supplier = ledger.vendor(db, realmId, VendorRef)
    rules.check_book_close(db, realmId, TxnDate)
    due = DueDate or (date.fromisoformat(TxnDate) + timedelta(days=supplier["term_days"])).isoformat()
    if due < TxnDate:
        raise rules.business_error("The due date cannot be earlier than the transaction date.")
    used = db.find(bills, realm_id=realmId, vendor_id=VendorRef, doc_number=(DocNumber or "").strip())
    if used:
        raise rules.duplicate_number(used[0]["doc_number"], "Bill", used[0]["id"])
    bill_id = db.new_id(bills, "", 1)
    db.insert(
        bills, id=bill_id, realm_id=realmId, doc_number=DocNumber.strip() if DocNumber else None, vendor_id=VendorRef,
        txn_date=TxnDate, due_date=due, total=0, balance=0, memo=PrivateNote, sync_token=0,
    )  # fmt: skip
    total = 0
    for number, line in enumerate(Line, start=1):
        ledger.account(db, realmId, line.AccountRef, EXPENSE_TYPES, "AccountRef")
        amount = rules.cents(line.Amount)
        db.insert(
            bill_lines, bill_id=bill_id, line_num=number, account_id=line.AccountRef, description=line.Description,
            amount=amount,
        )  # fmt: skip
        total += amount
    return bill_object(db, db.update(bills, bill_id, total=total, balance=total))


@tool()
def create_bill_payment(
    db: Database,
    realmId: RealmId,
    VendorRef: Id,
    PayType: Literal["Check", "CreditCard"],
    AccountRef: Id,
    TxnDate: IsoDate,
    TotalAmt: Amount,
    Line: Annotated[list[BillPaymentLineInput], Field(min_length=1, max_length=50)],
    DocNumber: Annotated[str, Field(min_length=1, max_length=21)] | None = None,
) -> BillPayment:
    """Pay a vendor's open bills, by check from a Bank account or by credit card from a Credit Card account.
    TotalAmt must equal the sum of the lines; no line may exceed its bill's balance.

    Args:
        realmId: The company.
        VendorRef: The vendor's Id.
        PayType: Check or CreditCard.
        AccountRef: The Bank account (Check) or Credit Card account (CreditCard) paid from.
        TxnDate: The payment date (after the book close date).
        TotalAmt: The amount paid.
        Line: The bills paid and how much of each.
        DocNumber: The check number.
    """
    company(db, realmId)
    ledger.vendor(db, realmId, VendorRef)
    ledger.account(db, realmId, AccountRef, ("Bank",) if PayType == "Check" else ("Credit Card",), "AccountRef")
    rules.check_book_close(db, realmId, TxnDate)
    applied: dict[str, int] = {}
    for line in Line:
        bill = ledger.own(db, bills, realmId, line.BillId, "Bill")
        if bill["vendor_id"] != VendorRef:
            raise rules.business_error(f"Bill {line.BillId} belongs to a different vendor.")
        applied[bill["id"]] = applied.get(bill["id"], 0) + rules.cents(line.Amount)
        if applied[bill["id"]] > bill["balance"]:
            raise rules.business_error(
                f"The amount applied to bill {bill['doc_number'] or bill['id']} ({applied[bill['id']] / 100:.2f}) "
                f"exceeds its open balance ({bill['balance'] / 100:.2f})."
            )
    if sum(applied.values()) != rules.cents(TotalAmt):
        raise rules.business_error(
            f"The bill payment total ({TotalAmt:.2f}) must equal the sum of its lines "
            f"({sum(applied.values()) / 100:.2f})."
        )
    payment_id = db.new_id(bill_payments, "", 1)
    db.insert(
        bill_payments, id=payment_id, realm_id=realmId, vendor_id=VendorRef, pay_type=PayType, account_id=AccountRef,
        txn_date=TxnDate, total=rules.cents(TotalAmt), doc_number=DocNumber, sync_token=0,
    )  # fmt: skip
    for bill_id, amount in applied.items():
        db.insert(bill_payment_lines, bill_payment_id=payment_id, bill_id=bill_id, amount=amount)
        bill = db.get(bills, bill_id)
        ledger.touch(db, bills, bill, balance=bill["balance"] - amount)
    return bill_payment_object(db, db.get(bill_payments, payment_id))
