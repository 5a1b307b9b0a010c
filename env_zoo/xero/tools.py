"""Xero Accounting API tools as a connected user sees them: their organisations (tenants), the chart of accounts,
contacts and contact groups, tracking categories, invoices and bills, payments, credit notes and their allocations,
bank transactions, and bank statement lines with their reconciliation; plus the user's own sign-in."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from envfactory_gym import Conflict, Database, PermissionDenied, Unordered, tool
from envfactory_gym.database import given
from envfactory_gym.fields import IsoDate, NonBlankText

from . import rules
from .access import tenant, tenant_ids
from .ledger import account_by_code, bank_codes, contact, document, next_number, write_lines
from .objects import (
    Account,
    BankTransaction,
    Connection,
    Contact,
    ContactGroup,
    Invoice,
    InvoiceSummary,
    Organisation,
    Payment,
    StatementLine,
    TrackingCategory,
    TrackingOption,
    bank_transaction_object,
    contact_object,
    invoice_object,
    payment_object,
    statement_line_object,
    summary_object,
)
from .schema import (
    accounts,
    allocations,
    bank_transactions,
    contact_group_members,
    contact_groups,
    contacts,
    documents,
    organisations,
    payments,
    sessions,
    statement_lines,
    tracking_categories,
    tracking_options,
    users,
)

TenantId = Annotated[str, Field(min_length=36, max_length=36, description="the organisation's tenantId (a GUID)")]
Guid = Annotated[str, Field(min_length=36, max_length=36)]
Amount = Annotated[Decimal, Field(gt=0, max_digits=12, decimal_places=2, description="e.g. 1250.00")]
AccountCode = Annotated[str, Field(pattern=r"^\w{1,10}$")]
TaxType = Literal[
    "OUTPUT2", "INPUT2", "RROUTPUT", "ZERORATEDOUTPUT", "ZERORATEDINPUT", "EXEMPTOUTPUT", "EXEMPTEXPENSES", "NONE"
]  # fmt: skip
InvoiceType = Literal["ACCREC", "ACCPAY"]
CreditNoteType = Literal["ACCRECCREDIT", "ACCPAYCREDIT"]
Status = Literal["DRAFT", "SUBMITTED", "AUTHORISED", "PAID", "VOIDED", "DELETED"]
NewStatus = Literal["DRAFT", "SUBMITTED", "AUTHORISED"]
AccountType = Literal[
    "BANK", "CURRENT", "FIXED", "CURRLIAB", "EQUITY", "REVENUE", "SALES", "DIRECTCOSTS", "EXPENSE", "OVERHEADS"
]  # fmt: skip
Page = Annotated[int, Field(ge=1, description="pages of 100, from 1")]
PER_PAGE = 100


class LineItemInput(BaseModel):
    """A line: quantity times a tax-exclusive unit amount, posted to an account code with a tax type."""

    Description: NonBlankText
    Quantity: Annotated[int, Field(ge=1)] = 1
    UnitAmount: Amount
    AccountCode: AccountCode
    TaxType: TaxType
    TrackingOptionID: Guid | None = None


Lines = Annotated[list[LineItemInput], Field(min_length=1, max_length=50)]


# ---------------------------------------------------------------- the user and organisations


@tool(user_only=True)
def sign_in(db: Database, email: NonBlankText, password: NonBlankText) -> list[Connection]:
    """(User only) The user connects the assistant to their Xero login; it may then act for the organisations the
    login is connected to.

    Args:
        email: The Xero login's email.
        password: Its password.
    """
    found = db.find(users, email=email.strip().lower())
    if not found or found[0]["password"] != password:
        raise PermissionDenied("AuthenticationUnsuccessful: wrong email or password.")
    db.start_session(sessions, user_id=found[0]["id"])
    return list_connections(db)


@tool(read_only=True)
def list_connections(db: Database) -> list[Connection]:
    """List the organisations (tenants) the signed-in user connected; every other call names one by its tenantId."""
    return [Connection(tenantId=t, tenantName=db.get(organisations, t)["name"]) for t in tenant_ids(db)]


@tool(read_only=True)
def get_organisation(db: Database, tenantId: TenantId) -> Organisation:
    """An organisation's settings: base currency, country and the period lock date (no document, payment or bank
    transaction dated on or before it can be created or changed).

    Args:
        tenantId: The organisation.
    """
    org = tenant(db, tenantId)
    return Organisation(
        OrganisationID=org["id"], Name=org["name"], BaseCurrency=org["base_currency"], CountryCode=org["country"],
        PeriodLockDate=org["period_lock_date"],
    )  # fmt: skip


@tool(read_only=True)
def list_accounts(db: Database, tenantId: TenantId, Type: AccountType | None = None) -> list[Account]:
    """The chart of accounts (active and archived), by code; BANK accounts receive and pay money.

    Args:
        tenantId: The organisation.
        Type: Only accounts of this type.
    """
    tenant(db, tenantId)
    rows = db.find(accounts, tenant_id=tenantId, **given(type=Type), order_by=[accounts.c.code])
    return [
        Account(
            AccountID=a["id"],
            Code=a["code"],
            Name=a["name"],
            Type=a["type"],
            TaxType=a["tax_type"],
            Status=a["status"],
            BankAccountNumber=a["bank_account_number"],
        )  # fmt: skip
        for a in rows
    ]


@tool(read_only=True)
def list_tracking_categories(db: Database, tenantId: TenantId) -> list[TrackingCategory]:
    """Tracking categories (e.g. Region, Department) and their options, for tagging line items.

    Args:
        tenantId: The organisation.
    """
    tenant(db, tenantId)
    return [
        TrackingCategory(
            TrackingCategoryID=c["id"],
            Name=c["name"],
            Options=[
                TrackingOption(TrackingOptionID=o["id"], Name=o["name"])
                for o in db.find(tracking_options, category_id=c["id"], order_by=[tracking_options.c.name])
            ],
        )  # fmt: skip
        for c in db.find(tracking_categories, tenant_id=tenantId, order_by=[tracking_categories.c.name])
    ]


# ---------------------------------------------------------------- contacts


def _groups_of(db: Database, contact_id: str) -> list[str]:
    return sorted(
        db.get(contact_groups, m["group_id"])["name"] for m in db.find(contact_group_members, contact_id=contact_id)
    )


@tool(read_only=True)
def list_contacts(
    db: Database,
    tenantId: TenantId,
    searchTerm: NonBlankText | None = None,
    isCustomer: bool | None = None,
    isSupplier: bool | None = None,
    includeArchived: bool = False,
    page: Page = 1,
) -> list[Contact]:
    """List contacts by name; searchTerm matches any part of the name or email, case-insensitively.

    Args:
        tenantId: The organisation.
        searchTerm: Text the name or email contains.
        isCustomer: Only customers (true) or non-customers (false).
        isSupplier: Only suppliers (true) or non-suppliers (false).
        includeArchived: Also list ARCHIVED contacts.
        page: Which page of 100.
    """
    tenant(db, tenantId)
    where, params = ["tenant_id = ?"], [tenantId]
    if searchTerm is not None:
        where.append("(lower(name) LIKE ? OR lower(coalesce(email, '')) LIKE ?)")
        params += [f"%{searchTerm.strip().lower()}%"] * 2
    for column, value in (("is_customer", isCustomer), ("is_supplier", isSupplier)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(int(value))
    if not includeArchived:
        where.append("status = 'ACTIVE'")
    rows = db.select(contacts, " AND ".join(where), params, order_by="lower(name)")
    chosen = rows[(page - 1) * PER_PAGE : page * PER_PAGE]
    return [contact_object(db, row, _groups_of(db, row["id"])) for row in chosen]


@tool()
def create_contact(
    db: Database,
    tenantId: TenantId,
    Name: Annotated[str, Field(min_length=1, max_length=255, pattern=r"\S")],
    EmailAddress: Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")] | None = None,
    IsCustomer: bool = False,
    IsSupplier: bool = False,
) -> Contact:
    """Create a contact; its name must be unique among the organisation's active contacts.

    Args:
        tenantId: The organisation.
        Name: The contact's full (business) name.
        EmailAddress: Where invoices go.
        IsCustomer: Whether you sell to them.
        IsSupplier: Whether you buy from them.
    """
    tenant(db, tenantId)
    name = Name.strip()
    taken = db.select(contacts, "tenant_id = ? AND status = 'ACTIVE' AND lower(name) = ?", (tenantId, name.lower()))
    if taken:
        raise rules.validation_error(
            f"The contact name {name} is already assigned to another contact. The contact name must be unique across "
            "all active contacts."
        )
    row = db.insert(
        contacts, id=db.new_uuid(contacts), tenant_id=tenantId, name=name, email=EmailAddress,
        is_customer=IsCustomer, is_supplier=IsSupplier, status="ACTIVE",
    )  # fmt: skip
    return contact_object(db, row, [])


@tool(read_only=True)
def list_contact_groups(db: Database, tenantId: TenantId) -> list[ContactGroup]:
    """Contact groups and the names of their contacts.

    Args:
        tenantId: The organisation.
    """
    tenant(db, tenantId)
    return [
        ContactGroup(
            ContactGroupID=g["id"],
            Name=g["name"],
            Contacts=sorted(
                db.get(contacts, m["contact_id"])["name"] for m in db.find(contact_group_members, group_id=g["id"])
            ),
        )  # fmt: skip
        for g in db.find(contact_groups, tenant_id=tenantId, order_by=[contact_groups.c.name])
    ]


@tool()
def add_contacts_to_group(
    db: Database,
    tenantId: TenantId,
    ContactGroupID: Guid,
    ContactIDs: Annotated[list[Guid], Unordered, Field(min_length=1, max_length=50)],
) -> ContactGroup:
    """Add contacts to a contact group (ones already in it stay once).

    Args:
        tenantId: The organisation.
        ContactGroupID: The group.
        ContactIDs: The contacts to add.
    """
    tenant(db, tenantId)
    group = db.find_one(
        contact_groups, id=ContactGroupID, tenant_id=tenantId, not_found=f"Contact group '{ContactGroupID}' not found"
    )
    for contact_id in ContactIDs:
        contact(db, tenantId, contact_id)
    for contact_id in dict.fromkeys(ContactIDs):
        if not db.find(contact_group_members, group_id=group["id"], contact_id=contact_id):
            db.insert(contact_group_members, group_id=group["id"], contact_id=contact_id)
    return next(g for g in list_contact_groups(db, tenantId) if g.ContactGroupID == group["id"])


# ---------------------------------------------------------------- invoices and credit notes


@tool(read_only=True)
def list_invoices(
    db: Database,
    tenantId: TenantId,
    Type: InvoiceType | CreditNoteType | None = None,
    Statuses: Annotated[list[Status], Unordered] | None = None,
    ContactID: Guid | None = None,
    InvoiceNumber: NonBlankText | None = None,
    DateFrom: IsoDate | None = None,
    DateTo: IsoDate | None = None,
    page: Page = 1,
) -> list[InvoiceSummary]:
    """List invoices, bills and credit notes, newest date first.

    Args:
        tenantId: The organisation.
        Type: ACCREC (sales invoices), ACCPAY (bills), ACCRECCREDIT or ACCPAYCREDIT (credit notes).
        Statuses: Only these statuses.
        ContactID: Only this contact's.
        InvoiceNumber: Only the one with this number.
        DateFrom: Dated on or after this day.
        DateTo: Dated on or before this day.
        page: Which page of 100.
    """
    tenant(db, tenantId)
    where, params = ["tenant_id = ?"], [tenantId]
    for column, value in (("type", Type), ("contact_id", ContactID), ("number", InvoiceNumber)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value.strip() if column == "number" else value)
    if Statuses:
        where.append(f"status IN ({', '.join('?' for _ in Statuses)})")
        params += list(Statuses)
    if DateFrom is not None:
        where.append("date >= ?")
        params.append(DateFrom)
    if DateTo is not None:
        where.append("date <= ?")
        params.append(DateTo)
    rows = db.select(documents, " AND ".join(where), params, order_by="date DESC, number DESC")
    return [summary_object(db, row) for row in rows[(page - 1) * PER_PAGE : page * PER_PAGE]]


@tool(read_only=True)
def get_invoice(db: Database, tenantId: TenantId, InvoiceID: Guid) -> Invoice:
    """An invoice, bill or credit note in full: lines, totals, payments and credit allocations.

    Args:
        tenantId: The organisation.
        InvoiceID: The invoice's (or credit note's) id.
    """
    tenant(db, tenantId)
    return invoice_object(db, document(db, tenantId, InvoiceID), bank_codes(db, tenantId))


def _create_document(
    db: Database, tenant_id: str, kind: str, contact_id: str, date: str, due: str | None, lines: list[LineItemInput],
    reference: str | None, status: str, number: str | None,
) -> Invoice:  # fmt: skip
    org = tenant(db, tenant_id)
    who = contact(db, tenant_id, contact_id)
    if who["status"] != "ACTIVE":
        raise rules.validation_error(f"The contact {who['name']} is archived.")
    rules.check_lock_date(db, tenant_id, date)
    if due is not None and due < date:
        raise rules.validation_error("Due date must not be earlier than the invoice date.")
    if number is None:
        prefix, family = ("CN-", ("ACCRECCREDIT", "ACCPAYCREDIT")) if kind.endswith("CREDIT") else ("INV-", ("ACCREC",))
        number = next_number(db, tenant_id, prefix, family)
    elif db.select(
        documents,
        "tenant_id = ? AND type = ? AND number = ? AND contact_id = ? AND status NOT IN ('VOIDED', 'DELETED')",
        (tenant_id, kind, number, contact_id),
    ):
        raise rules.validation_error(f"Invoice # {number} already exists for this contact.")
    document_id = db.new_uuid(documents)
    db.insert(
        documents, id=document_id, tenant_id=tenant_id, type=kind, number=number, contact_id=contact_id, date=date,
        due_date=due, reference=reference, status=status, currency=org["base_currency"], sub_total=0, total_tax=0,
        total=0, amount_paid=0, amount_credited=0, updated=db.now_iso(),
    )  # fmt: skip
    sub_total, tax = write_lines(db, tenant_id, document_id, lines)
    row = db.update(documents, document_id, sub_total=sub_total, total_tax=tax, total=sub_total + tax)
    return invoice_object(db, row, bank_codes(db, tenant_id))


@tool()
def create_invoice(
    db: Database,
    tenantId: TenantId,
    Type: InvoiceType,
    ContactID: Guid,
    Date: IsoDate,
    DueDate: IsoDate,
    LineItems: Lines,
    Reference: Annotated[str, Field(max_length=255)] | None = None,
    Status: NewStatus = "DRAFT",
    InvoiceNumber: Annotated[str, Field(min_length=1, max_length=255)] | None = None,
) -> Invoice:
    """Create a sales invoice (ACCREC, numbered INV-nnnn in sequence) or a bill (ACCPAY, numbered with the supplier's
    own number). Amounts exclude tax; tax is added per line from its tax type.

    Args:
        tenantId: The organisation.
        Type: ACCREC (you bill a customer) or ACCPAY (a supplier bills you).
        ContactID: The customer or supplier.
        Date: The invoice date (must be after the period lock date).
        DueDate: When payment is due.
        LineItems: The lines.
        Reference: A reference shown on the invoice.
        Status: DRAFT, SUBMITTED (for approval) or AUTHORISED (approved, awaiting payment).
        InvoiceNumber: Bills: the supplier's invoice number; sales invoices take the next number when left out.
    """
    if Type == "ACCPAY" and InvoiceNumber is None:
        raise rules.validation_error("A bill needs the supplier's invoice number (InvoiceNumber).")
    return _create_document(db, tenantId, Type, ContactID, Date, DueDate, LineItems, Reference, Status, InvoiceNumber)


@tool()
def create_credit_note(
    db: Database,
    tenantId: TenantId,
    Type: CreditNoteType,
    ContactID: Guid,
    Date: IsoDate,
    LineItems: Lines,
    Reference: Annotated[str, Field(max_length=255)] | None = None,
    Status: NewStatus = "DRAFT",
) -> Invoice:
    """Create a credit note (numbered CN-nnnn): ACCRECCREDIT for money you owe a customer back, ACCPAYCREDIT for
    credit a supplier gives you. Allocate an AUTHORISED one to the contact's invoices to settle them.

    Args:
        tenantId: The organisation.
        Type: ACCRECCREDIT (to a customer) or ACCPAYCREDIT (from a supplier).
        ContactID: The customer or supplier.
        Date: The credit note's date (must be after the period lock date).
        LineItems: The lines being credited.
        Reference: A reference.
        Status: DRAFT, SUBMITTED or AUTHORISED.
    """
    return _create_document(db, tenantId, Type, ContactID, Date, None, LineItems, Reference, Status, None)


@tool()
def update_invoice(
    db: Database,
    tenantId: TenantId,
    InvoiceID: Guid,
    Status: Literal["DRAFT", "SUBMITTED", "AUTHORISED", "VOIDED", "DELETED"] | None = None,
    Reference: Annotated[str, Field(max_length=255)] | None = None,
    DueDate: IsoDate | None = None,
) -> Invoice:
    """Change an invoice's or credit note's status, reference or due date. Only DRAFT and SUBMITTED documents can be
    DELETED; only AUTHORISED ones with no payments or allocations can be VOIDED; PAID, VOIDED and DELETED ones are
    final. Documents dated on or before the period lock date cannot change.

    Args:
        tenantId: The organisation.
        InvoiceID: The invoice's (or credit note's) id.
        Status: The new status.
        Reference: A new reference.
        DueDate: A new due date.
    """
    tenant(db, tenantId)
    row = document(db, tenantId, InvoiceID)
    if row["status"] in ("PAID", "VOIDED", "DELETED"):
        raise rules.validation_error("Invoice not of valid status for modification", Conflict)
    rules.check_lock_date(db, tenantId, row["date"])
    if Status is not None:
        rules.check_transition(row, Status)
    if DueDate is not None and DueDate < row["date"]:
        raise rules.validation_error("Due date must not be earlier than the invoice date.")
    changes = given(status=Status, reference=Reference, due_date=DueDate)
    if changes:
        row = db.update(documents, InvoiceID, **changes, updated=db.now_iso())
    return invoice_object(db, row, bank_codes(db, tenantId))


@tool()
def allocate_credit_note(
    db: Database, tenantId: TenantId, CreditNoteID: Guid, InvoiceID: Guid, Amount: Amount, Date: IsoDate
) -> Invoice:
    """Set part or all of an AUTHORISED credit note against an AUTHORISED invoice of the same contact (sales credit
    to a sales invoice, supplier credit to a bill); returns the invoice as it now stands.

    Args:
        tenantId: The organisation.
        CreditNoteID: The credit note.
        InvoiceID: The invoice it pays down.
        Amount: How much to allocate: no more than the credit left or the amount due.
        Date: The allocation's date (after the period lock date).
    """
    tenant(db, tenantId)
    credit = document(db, tenantId, CreditNoteID, "Credit note")
    invoice = document(db, tenantId, InvoiceID)
    if not credit["type"].endswith("CREDIT") or rules.CREDIT_TYPES.get(invoice["type"]) != credit["type"]:
        raise rules.validation_error("The credit note and invoice types do not match.")
    if credit["contact_id"] != invoice["contact_id"]:
        raise rules.validation_error("The credit note and invoice must belong to the same contact.")
    if credit["status"] != "AUTHORISED" or invoice["status"] != "AUTHORISED":
        raise rules.validation_error("Allocations can only be made between AUTHORISED documents.", Conflict)
    rules.check_lock_date(db, tenantId, Date)
    cents = int(Amount * 100)
    if cents > rules.amount_due(credit):
        raise rules.validation_error("The amount allocated exceeds the credit remaining on the credit note.")
    if cents > rules.amount_due(invoice):
        raise rules.validation_error("The amount allocated exceeds the amount outstanding on the invoice.")
    db.insert(
        allocations,
        id=db.new_uuid(allocations),
        credit_note_id=CreditNoteID,
        invoice_id=InvoiceID,
        amount=cents,
        date=Date,
    )
    rules.settle(db, credit, credited=cents)
    return invoice_object(db, rules.settle(db, invoice, credited=cents), bank_codes(db, tenantId))


# ---------------------------------------------------------------- payments


@tool()
def create_payment(
    db: Database,
    tenantId: TenantId,
    InvoiceID: Guid,
    BankAccountCode: AccountCode,
    Date: IsoDate,
    Amount: Amount,
    Reference: Annotated[str, Field(max_length=255)] | None = None,
) -> Payment:
    """Record a payment against an AUTHORISED invoice, bill or credit note (a refund), into or out of a bank
    account; it may not exceed the amount due. The document becomes PAID when nothing is left.

    Args:
        tenantId: The organisation.
        InvoiceID: The invoice (or credit note) paid.
        BankAccountCode: The code of the BANK account the money went into or out of.
        Date: The payment date (after the period lock date).
        Amount: How much was paid.
        Reference: e.g. the bank reference.
    """
    tenant(db, tenantId)
    row = document(db, tenantId, InvoiceID)
    bank = account_by_code(db, tenantId, BankAccountCode, bank=True)
    if row["status"] != "AUTHORISED":
        raise rules.validation_error("Payments can only be made against Authorised documents", Conflict)
    rules.check_lock_date(db, tenantId, Date)
    cents = int(Amount * 100)
    if cents > rules.amount_due(row):
        raise rules.validation_error("Payment amount exceeds the amount outstanding on this document")
    payment = db.insert(
        payments, id=db.new_uuid(payments), tenant_id=tenantId, document_id=InvoiceID, account_id=bank["id"],
        date=Date, amount=cents, reference=Reference, status="AUTHORISED", is_reconciled=False,
    )  # fmt: skip
    rules.settle(db, row, paid=cents)
    return payment_object(db, payment, row["number"], bank["code"])


@tool(read_only=True)
def list_payments(
    db: Database,
    tenantId: TenantId,
    InvoiceID: Guid | None = None,
    DateFrom: IsoDate | None = None,
    DateTo: IsoDate | None = None,
    IsReconciled: bool | None = None,
) -> list[Payment]:
    """List payments (deleted ones included, with Status DELETED), newest first.

    Args:
        tenantId: The organisation.
        InvoiceID: Only payments of this invoice or credit note.
        DateFrom: Paid on or after this day.
        DateTo: Paid on or before this day.
        IsReconciled: Only reconciled (true) or unreconciled (false) payments.
    """
    tenant(db, tenantId)
    where, params = ["tenant_id = ?"], [tenantId]
    if InvoiceID is not None:
        where.append("document_id = ?")
        params.append(InvoiceID)
    if DateFrom is not None:
        where.append("date >= ?")
        params.append(DateFrom)
    if DateTo is not None:
        where.append("date <= ?")
        params.append(DateTo)
    if IsReconciled is not None:
        where.append("is_reconciled = ?")
        params.append(int(IsReconciled))
    codes = bank_codes(db, tenantId)
    rows = db.select(payments, " AND ".join(where), params, order_by="date DESC")
    return [payment_object(db, p, db.get(documents, p["document_id"])["number"], codes[p["account_id"]]) for p in rows]


@tool()
def delete_payment(db: Database, tenantId: TenantId, PaymentID: Guid) -> Payment:
    """Delete a payment (its status becomes DELETED and the invoice owes that amount again). A reconciled payment, or
    one dated on or before the period lock date, cannot be deleted.

    Args:
        tenantId: The organisation.
        PaymentID: The payment.
    """
    tenant(db, tenantId)
    row = db.find_one(payments, id=PaymentID, tenant_id=tenantId, not_found=f"Payment '{PaymentID}' not found")
    if row["status"] == "DELETED":
        raise rules.validation_error("This payment has already been deleted.", Conflict)
    if row["is_reconciled"]:
        raise rules.validation_error("Payment is reconciled and cannot be deleted; unreconcile it first.", Conflict)
    rules.check_lock_date(db, tenantId, row["date"])
    invoice = db.get(documents, row["document_id"])
    rules.settle(db, invoice, paid=-row["amount"])
    row = db.update(payments, PaymentID, status="DELETED")
    return payment_object(db, row, invoice["number"], bank_codes(db, tenantId)[row["account_id"]])


# ---------------------------------------------------------------- bank


@tool()
def create_bank_transaction(
    db: Database,
    tenantId: TenantId,
    Type: Literal["RECEIVE", "SPEND"],
    ContactID: Guid,
    BankAccountCode: AccountCode,
    Date: IsoDate,
    Description: NonBlankText,
    UnitAmount: Amount,
    AccountCode: AccountCode,
    TaxType: TaxType,
    Reference: Annotated[str, Field(max_length=255)] | None = None,
) -> BankTransaction:
    """Record money received (RECEIVE) or spent (SPEND) through a bank account without an invoice, e.g. a card
    purchase or a bank fee. UnitAmount excludes tax; the total adds the tax type's tax.

    Args:
        tenantId: The organisation.
        Type: RECEIVE or SPEND.
        ContactID: Who paid or was paid.
        BankAccountCode: The code of the BANK account.
        Date: The transaction date (after the period lock date).
        Description: What it was for.
        UnitAmount: The amount before tax.
        AccountCode: The account it is posted to (e.g. an expense account).
        TaxType: The tax type.
        Reference: e.g. the bank reference.
    """
    tenant(db, tenantId)
    who = contact(db, tenantId, ContactID)
    bank = account_by_code(db, tenantId, BankAccountCode, bank=True)
    account_by_code(db, tenantId, AccountCode, bank=False)
    rules.check_lock_date(db, tenantId, Date)
    sub_total, tax = rules.line_amounts(1, int(UnitAmount * 100), TaxType)
    row = db.insert(
        bank_transactions, id=db.new_uuid(bank_transactions), tenant_id=tenantId, type=Type, contact_id=ContactID,
        account_id=bank["id"], date=Date, reference=Reference, description=Description.strip(),
        account_code=AccountCode, tax_type=TaxType, sub_total=sub_total, total_tax=tax, total=sub_total + tax,
        status="AUTHORISED", is_reconciled=False,
    )  # fmt: skip
    return bank_transaction_object(row, who["name"], bank["code"])


@tool(read_only=True)
def list_bank_transactions(
    db: Database,
    tenantId: TenantId,
    BankAccountCode: AccountCode | None = None,
    DateFrom: IsoDate | None = None,
    DateTo: IsoDate | None = None,
    IsReconciled: bool | None = None,
) -> list[BankTransaction]:
    """List spend and receive money transactions, newest first.

    Args:
        tenantId: The organisation.
        BankAccountCode: Only this bank account's.
        DateFrom: On or after this day.
        DateTo: On or before this day.
        IsReconciled: Only reconciled (true) or unreconciled (false) ones.
    """
    tenant(db, tenantId)
    codes = bank_codes(db, tenantId)
    where, params = ["tenant_id = ?"], [tenantId]
    if BankAccountCode is not None:
        where.append("account_id = ?")
        params.append(account_by_code(db, tenantId, BankAccountCode, bank=True)["id"])
    if DateFrom is not None:
        where.append("date >= ?")
        params.append(DateFrom)
    if DateTo is not None:
        where.append("date <= ?")
        params.append(DateTo)
    if IsReconciled is not None:
        where.append("is_reconciled = ?")
        params.append(int(IsReconciled))
    rows = db.select(bank_transactions, " AND ".join(where), params, order_by="date DESC")
    return [bank_transaction_object(r, db.get(contacts, r["contact_id"])["name"], codes[r["account_id"]]) for r in rows]


@tool(read_only=True)
def list_statement_lines(
    db: Database,
    tenantId: TenantId,
    BankAccountCode: AccountCode,
    Status: Literal["UNRECONCILED", "RECONCILED"] | None = None,
    DateFrom: IsoDate | None = None,
    DateTo: IsoDate | None = None,
) -> list[StatementLine]:
    """Lines of a bank account's imported statement, oldest first (money in positive, money out negative).

    Args:
        tenantId: The organisation.
        BankAccountCode: The code of the BANK account.
        Status: Only UNRECONCILED or RECONCILED lines.
        DateFrom: On or after this day.
        DateTo: On or before this day.
    """
    tenant(db, tenantId)
    bank = account_by_code(db, tenantId, BankAccountCode, bank=True)
    where, params = ["account_id = ?"], [bank["id"]]
    for clause, value in (("status = ?", Status), ("date >= ?", DateFrom), ("date <= ?", DateTo)):
        if value is not None:
            where.append(clause)
            params.append(value)
    rows = db.select(statement_lines, " AND ".join(where), params, order_by="date")
    return [statement_line_object(r, bank["code"]) for r in rows]


@tool()
def reconcile_statement_line(
    db: Database,
    tenantId: TenantId,
    StatementLineID: Guid,
    PaymentID: Guid | None = None,
    BankTransactionID: Guid | None = None,
) -> StatementLine:
    """Match an unreconciled statement line to exactly one unreconciled payment or bank transaction of the same
    bank account and the same amount (money in for customer payments and RECEIVE, out for bill payments and SPEND).

    Args:
        tenantId: The organisation.
        StatementLineID: The statement line.
        PaymentID: The payment it matches.
        BankTransactionID: The bank transaction it matches.
    """
    tenant(db, tenantId)
    line = db.find_one(
        statement_lines,
        id=StatementLineID,
        tenant_id=tenantId,
        not_found=f"Statement line '{StatementLineID}' not found",
    )
    if (PaymentID is None) == (BankTransactionID is None):
        raise rules.validation_error("Give exactly one of PaymentID or BankTransactionID to match.")
    if line["status"] == "RECONCILED":
        raise rules.validation_error("This statement line is already reconciled.", Conflict)
    if PaymentID is not None:
        target = db.find_one(payments, id=PaymentID, tenant_id=tenantId, not_found=f"Payment '{PaymentID}' not found")
        incoming = db.get(documents, target["document_id"])["type"] in ("ACCREC", "ACCPAYCREDIT")
        table, changes = payments, {"payment_id": PaymentID}
        live = target["status"] == "AUTHORISED"
    else:
        assert BankTransactionID is not None
        target = db.find_one(
            bank_transactions,
            id=BankTransactionID,
            tenant_id=tenantId,
            not_found=f"Bank transaction '{BankTransactionID}' not found",
        )
        incoming = target["type"] == "RECEIVE"
        table, changes = bank_transactions, {"bank_transaction_id": BankTransactionID}
        live = target["status"] == "AUTHORISED"
        target = {**target, "amount": target["total"]}
    if not live or target["is_reconciled"]:
        raise rules.validation_error("That transaction is deleted or already reconciled.", Conflict)
    if target["account_id"] != line["account_id"]:
        raise rules.validation_error("The transaction is in a different bank account from the statement line.")
    signed = target["amount"] if incoming else -target["amount"]
    if signed != line["amount"]:
        raise rules.validation_error(
            f"The statement line amount ({line['amount'] / 100:.2f}) does not match the transaction "
            f"({signed / 100:.2f})."
        )
    db.update(table, target["id"], is_reconciled=True)
    row = db.update(statement_lines, StatementLineID, status="RECONCILED", **changes)
    return statement_line_object(row, bank_codes(db, tenantId)[row["account_id"]])
