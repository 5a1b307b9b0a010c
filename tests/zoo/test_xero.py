"""The Xero environment's tools on the real seed: signing in and tenant access, contacts (unique active names, groups),
invoices and bills (numbering, line tax, supplier numbers, duplicates), the status rules (only DRAFT/SUBMITTED
delete, only AUTHORISED without payments or allocations void, PAID/VOIDED/DELETED final), payments (never above the
amount due, only on AUTHORISED documents, deleting reopens unless reconciled), credit notes and allocations,
spend/receive money, statement-line reconciliation (same account, same signed amount, once) and the period lock
date. Every error path is checked to leave the state unchanged and to use Xero's ValidationException shape."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("xero")
CLOCK = datetime(2025, 6, 16, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ORG = {o["name"].split()[0]: o["id"] for o in SEED["organisations"]}
F, K, KC = ORG["Fernbrook"], ORG["Oakridge"], ORG["Kestrel"]

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, email: str = "maya@fernbrookdesign.co.uk", password: str = "Fern!brook-2025") -> Any:
    return ok(session, "sign_in", {"email": email, "password": password}, caller="user")


def contact(tenant: str, name: str) -> str:
    return next(c["id"] for c in SEED["contacts"] if c["tenant_id"] == tenant and c["name"] == name)


def doc(tenant: str, number: str) -> str:
    return next(d["id"] for d in SEED["documents"] if d["tenant_id"] == tenant and d["number"] == number)


def line(tenant: str, payee: str) -> str:
    """The unreconciled statement line from this payee."""
    return next(
        s["id"]
        for s in SEED["statement_lines"]
        if s["tenant_id"] == tenant and s["payee"] == payee and s["status"] == "UNRECONCILED"
    )


def validation(outcome: Any) -> str:
    """The message of a ValidationException error text."""
    body = json.loads(outcome.error.split(": ", 1)[1])
    assert body["Type"] == "ValidationException" and body["ErrorNumber"] == 10
    return body["Elements"][0]["ValidationErrors"][0]["Message"]


def sales(session: ToolSession, tenant: str = F, status: str = "AUTHORISED", date: str = "2025-06-16") -> Any:
    return ok(
        session,
        "create_invoice",
        {
            "tenantId": tenant,
            "Type": "ACCREC",
            "ContactID": contact(tenant, "Atlas Physiotherapy") if tenant == F else contact(tenant, "Cafe Lune"),
            "Date": date,
            "DueDate": "2025-07-16",
            "Status": status,
            "LineItems": [
                {
                    "Description": "Logo refresh",
                    "Quantity": 2,
                    "UnitAmount": 325.50,
                    "AccountCode": "200",
                    "TaxType": "OUTPUT2",
                }
            ],
        },
    )


def test_sign_in_lists_only_connected_organisations_and_others_are_not_found(session):
    fails(session, "list_connections", {}, "PermissionDenied", "AuthenticationUnsuccessful")
    fails(
        session,
        "sign_in",
        {"email": "maya@fernbrookdesign.co.uk", "password": "nope"},
        "PermissionDenied",
        "wrong",
        "user",
    )
    names = [c["tenantName"] for c in sign_in(session)]
    assert names == ["Fernbrook Design Studio Ltd", "Oakridge Bakery Ltd"]
    fails(session, "get_organisation", {"tenantId": KC}, "NotFound", "not found among your connections")
    assert ok(session, "get_organisation", {"tenantId": F})["PeriodLockDate"] == "2025-03-31"


def test_sign_in_is_for_the_user_only(session):
    outcome = session.call("sign_in", {"email": "maya@fernbrookdesign.co.uk", "password": "Fern!brook-2025"})
    assert not outcome.ok


def test_contact_names_are_unique_among_active_contacts_and_search_hides_archived(session):
    sign_in(session)
    found = ok(session, "list_contacts", {"tenantId": F, "searchTerm": "harbour"})
    assert [c["Name"] for c in found] == ["Harbour Coffee Roasters"]
    everyone = ok(session, "list_contacts", {"tenantId": F, "searchTerm": "harbour", "includeArchived": True})
    assert len(everyone) == 2
    outcome = fails(
        session,
        "create_contact",
        {"tenantId": F, "Name": "harbour coffee roasters"},
        "InvalidRequest",
        "already assigned",
    )
    assert "unique across all active contacts" in validation(outcome)
    # the archived one's name is free again
    made = ok(session, "create_contact", {"tenantId": F, "Name": "Harbour Coffee Roasters Ltd", "IsCustomer": True})
    assert made["ContactStatus"] == "ACTIVE"


def test_contact_groups_add_once_and_refuse_other_tenants_contacts(session):
    sign_in(session)
    group = next(g for g in ok(session, "list_contact_groups", {"tenantId": F}) if g["Name"] == "Late payers")
    atlas = contact(F, "Atlas Physiotherapy")
    out = ok(
        session,
        "add_contacts_to_group",
        {"tenantId": F, "ContactGroupID": group["ContactGroupID"], "ContactIDs": [atlas, atlas]},
    )
    assert out["Contacts"].count("Atlas Physiotherapy") == 1
    fails(
        session,
        "add_contacts_to_group",
        {"tenantId": F, "ContactGroupID": group["ContactGroupID"], "ContactIDs": [contact(K, "Cafe Lune")]},
        "NotFound",
        "Contact",
    )


def test_sales_invoice_numbers_follow_on_and_tax_is_added_per_line(session):
    sign_in(session)
    inv = sales(session)
    assert inv["InvoiceNumber"] == "INV-0075"
    assert (inv["SubTotal"], inv["TotalTax"], inv["Total"], inv["AmountDue"]) == (651.0, 130.2, 781.2, 781.2)
    assert sales(session, status="DRAFT")["InvoiceNumber"] == "INV-0076"


def test_bills_need_the_supplier_number_and_refuse_a_live_duplicate(session):
    sign_in(session)
    args = {
        "tenantId": F,
        "Type": "ACCPAY",
        "ContactID": contact(F, "Pixel Print Co"),
        "Date": "2025-06-16",
        "DueDate": "2025-06-30",
        "LineItems": [{"Description": "Flyers", "UnitAmount": 50, "AccountCode": "461", "TaxType": "INPUT2"}],
    }
    fails(session, "create_invoice", args, "InvalidRequest", "supplier's invoice number")
    fails(session, "create_invoice", {**args, "InvoiceNumber": "PPC-2291"}, "InvalidRequest", "already exists")
    assert ok(session, "create_invoice", {**args, "InvoiceNumber": "PPC-2400"})["Status"] == "DRAFT"


def test_line_items_need_an_active_non_bank_account_code(session):
    sign_in(session)
    base = {
        "tenantId": F,
        "Type": "ACCREC",
        "ContactID": contact(F, "Atlas Physiotherapy"),
        "Date": "2025-06-16",
        "DueDate": "2025-07-16",
    }
    for code in ("090", "425", "999"):
        lines = [{"Description": "x", "UnitAmount": 10, "AccountCode": code, "TaxType": "OUTPUT2"}]
        fails(session, "create_invoice", {**base, "LineItems": lines}, "InvalidRequest", f"Account code '{code}'")


def test_nothing_dated_on_or_before_the_lock_date_is_created_or_changed(session):
    sign_in(session)
    outcome = fails(
        session,
        "create_invoice",
        {
            "tenantId": F,
            "Type": "ACCREC",
            "ContactID": contact(F, "Atlas Physiotherapy"),
            "Date": "2025-03-31",
            "DueDate": "2025-04-30",
            "LineItems": [{"Description": "x", "UnitAmount": 10, "AccountCode": "200", "TaxType": "OUTPUT2"}],
        },
        "Conflict",
        "period lock date",
    )
    assert "2025-03-31" in validation(outcome)
    locked = doc(F, "INV-0072")  # dated 2025-03-20, AUTHORISED, unpaid
    fails(
        session,
        "update_invoice",
        {"tenantId": F, "InvoiceID": locked, "Status": "VOIDED"},
        "Conflict",
        "period lock date",
    )
    fails(
        session,
        "create_payment",
        {"tenantId": F, "InvoiceID": doc(F, "INV-0071"), "BankAccountCode": "090", "Date": "2025-03-30", "Amount": 10},
        "Conflict",
        "period lock date",
    )


def test_only_draft_or_submitted_documents_delete_and_only_unpaid_authorised_ones_void(session):
    sign_in(session)
    draft = sales(session, status="DRAFT")
    assert (
        ok(session, "update_invoice", {"tenantId": F, "InvoiceID": draft["InvoiceID"], "Status": "DELETED"})["Status"]
        == "DELETED"
    )
    fails(
        session,
        "update_invoice",
        {"tenantId": F, "InvoiceID": draft["InvoiceID"], "Status": "DRAFT"},
        "Conflict",
        "not of valid status",
    )
    live = sales(session)
    fails(
        session,
        "update_invoice",
        {"tenantId": F, "InvoiceID": live["InvoiceID"], "Status": "DELETED"},
        "Conflict",
        "cannot be deleted",
    )
    fails(
        session,
        "update_invoice",
        {"tenantId": F, "InvoiceID": live["InvoiceID"], "Status": "DRAFT"},
        "Conflict",
        "from AUTHORISED to DRAFT",
    )
    ok(
        session,
        "create_payment",
        {"tenantId": F, "InvoiceID": live["InvoiceID"], "BankAccountCode": "090", "Date": "2025-06-16", "Amount": 100},
    )
    fails(
        session,
        "update_invoice",
        {"tenantId": F, "InvoiceID": live["InvoiceID"], "Status": "VOIDED"},
        "Conflict",
        "without payments",
    )
    paid = doc(F, "INV-0074")
    fails(
        session,
        "update_invoice",
        {"tenantId": F, "InvoiceID": paid, "Status": "VOIDED"},
        "Conflict",
        "not of valid status",
    )
    fresh = sales(session)
    assert (
        ok(session, "update_invoice", {"tenantId": F, "InvoiceID": fresh["InvoiceID"], "Status": "VOIDED"})["Status"]
        == "VOIDED"
    )


def test_payments_never_exceed_the_amount_due_and_settle_the_invoice(session):
    sign_in(session)
    inv = sales(session)
    args = {"tenantId": F, "InvoiceID": inv["InvoiceID"], "BankAccountCode": "090", "Date": "2025-06-16"}
    outcome = fails(
        session, "create_payment", {**args, "Amount": 781.21}, "InvalidRequest", "exceeds the amount outstanding"
    )
    validation(outcome)
    fails(
        session,
        "create_payment",
        {**args, "BankAccountCode": "200", "Amount": 10},
        "InvalidRequest",
        "not a valid bank account",
    )
    ok(session, "create_payment", {**args, "Amount": 500})
    assert ok(session, "get_invoice", {"tenantId": F, "InvoiceID": inv["InvoiceID"]})["AmountDue"] == 281.2
    ok(session, "create_payment", {**args, "Amount": 281.2})
    after = ok(session, "get_invoice", {"tenantId": F, "InvoiceID": inv["InvoiceID"]})
    assert (after["Status"], after["AmountDue"], after["AmountPaid"]) == ("PAID", 0.0, 781.2)
    fails(session, "create_payment", {**args, "Amount": 1}, "Conflict", "Authorised documents")


def test_payments_need_an_authorised_document(session):
    sign_in(session)
    draft = sales(session, status="DRAFT")
    fails(
        session,
        "create_payment",
        {"tenantId": F, "InvoiceID": draft["InvoiceID"], "BankAccountCode": "090", "Date": "2025-06-16", "Amount": 5},
        "Conflict",
        "Authorised",
    )


def test_deleting_a_payment_reopens_the_invoice_but_not_when_reconciled(session):
    sign_in(session)
    inv = sales(session)
    pay = ok(
        session,
        "create_payment",
        {"tenantId": F, "InvoiceID": inv["InvoiceID"], "BankAccountCode": "090", "Date": "2025-06-16", "Amount": 781.2},
    )
    assert ok(session, "delete_payment", {"tenantId": F, "PaymentID": pay["PaymentID"]})["Status"] == "DELETED"
    again = ok(session, "get_invoice", {"tenantId": F, "InvoiceID": inv["InvoiceID"]})
    assert (again["Status"], again["AmountDue"]) == ("AUTHORISED", 781.2)
    fails(session, "delete_payment", {"tenantId": F, "PaymentID": pay["PaymentID"]}, "Conflict", "already been deleted")
    reconciled = next(
        p for p in SEED["payments"] if p["tenant_id"] == F and p["is_reconciled"] and p["date"] > "2025-04-01"
    )
    fails(session, "delete_payment", {"tenantId": F, "PaymentID": reconciled["id"]}, "Conflict", "reconciled")


def test_credit_notes_allocate_to_the_same_contacts_matching_invoices_within_both_balances(session):
    sign_in(session)
    inv = sales(session)
    cn = ok(
        session,
        "create_credit_note",
        {
            "tenantId": F,
            "Type": "ACCRECCREDIT",
            "ContactID": contact(F, "Atlas Physiotherapy"),
            "Date": "2025-06-16",
            "Status": "AUTHORISED",
            "LineItems": [{"Description": "Discount", "UnitAmount": 100, "AccountCode": "200", "TaxType": "OUTPUT2"}],
        },
    )
    assert cn["InvoiceNumber"].startswith("CN-") and cn["Total"] == 120.0
    args = {"tenantId": F, "CreditNoteID": cn["InvoiceID"], "InvoiceID": inv["InvoiceID"], "Date": "2025-06-16"}
    fails(session, "allocate_credit_note", {**args, "Amount": 120.01}, "InvalidRequest", "credit remaining")
    fails(
        session,
        "allocate_credit_note",
        {**args, "InvoiceID": doc(F, "INV-0071"), "Amount": 1},
        "InvalidRequest",
        "same contact",
    )
    fails(
        session,
        "allocate_credit_note",
        {**args, "InvoiceID": doc(F, "PPC-2291"), "Amount": 1},
        "InvalidRequest",
        "types do not match",
    )
    out = ok(session, "allocate_credit_note", {**args, "Amount": 120})
    assert (out["AmountCredited"], out["AmountDue"]) == (120.0, 661.2)
    credit = ok(session, "get_invoice", {"tenantId": F, "InvoiceID": cn["InvoiceID"]})
    assert (credit["Status"], credit["AmountDue"]) == ("PAID", 0.0)
    fails(
        session,
        "update_invoice",
        {"tenantId": F, "InvoiceID": inv["InvoiceID"], "Status": "VOIDED"},
        "Conflict",
        "allocations",
    )


def test_bank_transactions_add_tax_and_reconcile_to_a_matching_line_once(session):
    sign_in(session)
    barclays = contact(F, "Barclays")
    base = {
        "tenantId": F,
        "Type": "SPEND",
        "ContactID": barclays,
        "BankAccountCode": "090",
        "Date": "2025-06-09",
        "Description": "Fee",
        "AccountCode": "404",
    }
    wrong = ok(session, "create_bank_transaction", {**base, "UnitAmount": 8.50, "TaxType": "INPUT2"})
    assert wrong["Total"] == 10.2
    fee_line = line(F, "Barclays")
    outcome = fails(
        session,
        "reconcile_statement_line",
        {"tenantId": F, "StatementLineID": fee_line, "BankTransactionID": wrong["BankTransactionID"]},
        "InvalidRequest",
        "does not match",
    )
    validation(outcome)
    right = ok(session, "create_bank_transaction", {**base, "UnitAmount": 8.50, "TaxType": "EXEMPTEXPENSES"})
    fails(
        session,
        "reconcile_statement_line",
        {"tenantId": F, "StatementLineID": fee_line},
        "InvalidRequest",
        "exactly one",
    )
    done = ok(
        session,
        "reconcile_statement_line",
        {"tenantId": F, "StatementLineID": fee_line, "BankTransactionID": right["BankTransactionID"]},
    )
    assert done["Status"] == "RECONCILED"
    fails(
        session,
        "reconcile_statement_line",
        {"tenantId": F, "StatementLineID": fee_line, "BankTransactionID": wrong["BankTransactionID"]},
        "Conflict",
        "already reconciled",
    )
    listed = ok(session, "list_bank_transactions", {"tenantId": F, "IsReconciled": False})
    assert right["BankTransactionID"] not in {b["BankTransactionID"] for b in listed}


def test_reconciling_a_payment_needs_the_same_account_and_direction(session):
    sign_in(session)
    harbour = doc(F, "INV-0071")
    on_savings = ok(
        session,
        "create_payment",
        {"tenantId": F, "InvoiceID": harbour, "BankAccountCode": "091", "Date": "2025-06-10", "Amount": 1440},
    )
    stmt = line(F, "HARBOUR COFFEE RSTR")
    fails(
        session,
        "reconcile_statement_line",
        {"tenantId": F, "StatementLineID": stmt, "PaymentID": on_savings["PaymentID"]},
        "InvalidRequest",
        "different bank account",
    )
    ok(session, "delete_payment", {"tenantId": F, "PaymentID": on_savings["PaymentID"]})
    fails(
        session,
        "reconcile_statement_line",
        {"tenantId": F, "StatementLineID": stmt, "PaymentID": on_savings["PaymentID"]},
        "Conflict",
        "deleted",
    )
    pay = ok(
        session,
        "create_payment",
        {"tenantId": F, "InvoiceID": harbour, "BankAccountCode": "090", "Date": "2025-06-10", "Amount": 1440},
    )
    octopus = line(F, "OCTOPUS ENERGY")  # money out: a customer's payment never matches it
    fails(
        session,
        "reconcile_statement_line",
        {"tenantId": F, "StatementLineID": octopus, "PaymentID": pay["PaymentID"]},
        "InvalidRequest",
        "does not match",
    )
    ok(session, "reconcile_statement_line", {"tenantId": F, "StatementLineID": stmt, "PaymentID": pay["PaymentID"]})
    listed = {p["PaymentID"]: p for p in ok(session, "list_payments", {"tenantId": F, "InvoiceID": harbour})}
    assert listed[pay["PaymentID"]]["IsReconciled"] is True and listed[on_savings["PaymentID"]]["Status"] == "DELETED"
    fails(session, "delete_payment", {"tenantId": F, "PaymentID": pay["PaymentID"]}, "Conflict", "reconciled")


def test_lists_filter_by_status_type_and_dates(session):
    sign_in(session)
    drafts = ok(session, "list_invoices", {"tenantId": F, "Type": "ACCREC", "Statuses": ["DRAFT"]})
    assert drafts and all(i["Status"] == "DRAFT" and i["Type"] == "ACCREC" for i in drafts)
    june = ok(session, "list_invoices", {"tenantId": F, "DateFrom": "2025-06-01", "DateTo": "2025-06-30"})
    assert june and all("2025-06-01" <= i["Date"] <= "2025-06-30" for i in june)
    first = ok(session, "list_invoices", {"tenantId": F})
    second = ok(session, "list_invoices", {"tenantId": F, "page": 2})
    assert len(first) == 100 and second and not {i["InvoiceID"] for i in first} & {i["InvoiceID"] for i in second}
    lines = ok(session, "list_statement_lines", {"tenantId": F, "BankAccountCode": "090", "Status": "UNRECONCILED"})
    assert {line["Payee"] for line in lines} >= {"Barclays", "HMRC", "HARBOUR COFFEE RSTR"}
    banks = ok(session, "list_accounts", {"tenantId": F, "Type": "BANK"})
    assert [a["Code"] for a in banks] == ["090", "091"]
    tracking = ok(session, "list_tracking_categories", {"tenantId": F})
    assert {c["Name"] for c in tracking} == {"Region", "Department"}


def test_tracking_options_must_belong_to_the_organisation(session):
    sign_in(session)
    cats = {o["id"]: o["category_id"] for o in SEED["tracking_options"]}
    tenants = {c["id"]: c["tenant_id"] for c in SEED["tracking_categories"]}
    other = next(o for o, c in cats.items() if tenants[c] == K)
    mine = next(o for o, c in cats.items() if tenants[c] == F)
    base = {"tenantId": F, "Type": "ACCREC", "ContactID": contact(F, "Atlas Physiotherapy"), "Date": "2025-06-16"}
    lines = [
        {"Description": "x", "UnitAmount": 10, "AccountCode": "200", "TaxType": "OUTPUT2", "TrackingOptionID": other}
    ]
    fails(
        session,
        "create_invoice",
        {**base, "DueDate": "2025-07-16", "LineItems": lines},
        "InvalidRequest",
        "does not exist",
    )
    lines[0]["TrackingOptionID"] = mine
    made = ok(session, "create_invoice", {**base, "DueDate": "2025-07-16", "LineItems": lines})
    assert made["LineItems"][0]["Tracking"] is not None


def test_due_date_never_before_the_invoice_date(session):
    sign_in(session)
    inv = sales(session)
    fails(
        session,
        "update_invoice",
        {"tenantId": F, "InvoiceID": inv["InvoiceID"], "DueDate": "2025-06-01"},
        "InvalidRequest",
        "Due date",
    )
    assert (
        ok(session, "update_invoice", {"tenantId": F, "InvoiceID": inv["InvoiceID"], "DueDate": "2025-08-01"})[
            "DueDate"
        ]
        == "2025-08-01"
    )
