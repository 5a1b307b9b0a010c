"""The QuickBooks Online environment's tools on the real seed: signing in and realm access, display names unique
across customers and vendors, SyncToken concurrency (every write bumps it, a stale one is refused), inactive
references, invoice numbering, due dates, duplicate numbers, voiding and sending, payments applied to invoices and
credit memos (never above a balance, same customer, credits only toward invoices, unapplied remainder), deleting a
payment, bills and bill payments (terms, duplicate vendor numbers, expense accounts, pay type and account, totals)
and the book close date. Every error path is checked to leave the state unchanged and to use Intuit's Fault shape."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("quickbooks")
CLOCK = datetime(2025, 6, 16, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
A, B, C = "9130357766900101", "9130357766900202", "9130357766900303"

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, who: str = "dana") -> Any:
    logins = {
        "dana": ("dana@whitfieldlandscaping.com", "Greenway#2025"),
        "priya": ("priya@copperkettlecatering.com", "Kettle!Boil88"),
        "marcus": ("marcus@bellstreetbikes.com", "Spokes&Chains7"),
    }
    email, password = logins[who]
    return ok(session, "sign_in", {"email": email, "password": password}, caller="user")


def row_id(table: str, realm: str, **match: Any) -> str:
    return next(r["id"] for r in SEED[table] if r["realm_id"] == realm and all(r[k] == v for k, v in match.items()))


def customer(realm: str, name: str) -> str:
    return row_id("customers", realm, display_name=name)


def vendor(realm: str, name: str) -> str:
    return row_id("vendors", realm, display_name=name)


def account(realm: str, name: str) -> str:
    return row_id("accounts", realm, name=name)


def item(realm: str, name: str) -> str:
    return row_id("items", realm, name=name)


def fault(outcome: Any) -> dict[str, Any]:
    """The first error of an Intuit Fault body."""
    body = json.loads(outcome.error.split(": ", 1)[1])
    assert body["Fault"]["type"] in ("ValidationFault", "AuthorizationFault")
    return body["Fault"]["Error"][0]


def open_invoice(session: ToolSession, realm: str, name: str, txn_date: str) -> dict[str, Any]:
    found = ok(session, "query_invoices", {"realmId": realm, "CustomerRef": customer(realm, name), "OpenOnly": True})
    return next(i for i in found if i["TxnDate"] == txn_date)


def new_invoice(session: ToolSession, **extra: Any) -> dict[str, Any]:
    args = {
        "realmId": A,
        "CustomerRef": customer(A, "Mark Jensen"),
        "TxnDate": "2025-06-16",
        "Line": [{"ItemRef": item(A, "Hedge Trimming"), "Qty": 2}],
        **extra,
    }
    return ok(session, "create_invoice", args)


def test_sign_in_lists_the_users_companies_and_others_are_refused(session):
    fails(session, "list_companies", {}, "PermissionDenied", "AuthenticationFailed")
    fails(
        session,
        "sign_in",
        {"email": "dana@whitfieldlandscaping.com", "password": "x"},
        "PermissionDenied",
        "incorrect",
        "user",
    )
    names = [c["CompanyName"] for c in sign_in(session)]
    assert names == ["Whitfield Landscaping LLC", "Copper Kettle Catering"]
    outcome = fails(session, "query_customers", {"realmId": C}, "PermissionDenied", "not authorized")
    assert fault(outcome)["code"] == "3100"
    assert ok(session, "get_company_info", {"realmId": A})["BookCloseDate"] == "2025-03-31"


def test_sign_in_is_for_the_user_only(session):
    outcome = session.call("sign_in", {"email": "marcus@bellstreetbikes.com", "password": "Spokes&Chains7"})
    assert not outcome.ok


def test_display_names_are_unique_across_customers_and_vendors(session):
    sign_in(session)
    outcome = fails(
        session, "create_customer", {"realmId": A, "DisplayName": "mark jensen"}, "Conflict", "already exists"
    )
    assert fault(outcome)["code"] == "6240"
    fails(session, "create_customer", {"realmId": A, "DisplayName": "Sunbelt Rentals"}, "Conflict", "Another vendor")
    fails(
        session, "create_vendor", {"realmId": A, "DisplayName": "Oakwood Village HOA"}, "Conflict", "Another customer"
    )
    # inactive ones keep their name too
    fails(
        session,
        "create_vendor",
        {"realmId": A, "DisplayName": "SiteOne Landscape Supply (old acct)"},
        "Conflict",
        "6240",
    )
    made = ok(session, "create_customer", {"realmId": A, "DisplayName": "Mark Jensen (Elm St)"})
    assert made["SyncToken"] == "0" and made["Balance"] == 0
    # a name used in another company is free here
    assert ok(session, "create_customer", {"realmId": B, "DisplayName": "Oakwood Village HOA"})["Active"]


def test_every_write_bumps_the_sync_token_and_a_stale_one_changes_nothing(session):
    sign_in(session)
    oak = customer(A, "Oakwood Village HOA")
    before = ok(session, "get_customer", {"realmId": A, "Id": oak})
    after = ok(
        session,
        "update_customer",
        {"realmId": A, "Id": oak, "SyncToken": before["SyncToken"], "PrimaryPhone": "(555) 310-4477"},
    )
    assert int(after["SyncToken"]) == int(before["SyncToken"]) + 1
    assert after["PrimaryEmailAddr"] == before["PrimaryEmailAddr"]  # sparse: untouched fields stay
    outcome = fails(
        session,
        "update_customer",
        {"realmId": A, "Id": oak, "SyncToken": before["SyncToken"], "PrimaryPhone": "1234567"},
        "Conflict",
        "Stale Object Error",
    )
    assert fault(outcome)["code"] == "5010"
    june = open_invoice(session, A, "Oakwood Village HOA", "2025-06-02")
    stale = str(int(june["SyncToken"]) + 3)
    fails(
        session,
        "update_invoice",
        {"realmId": A, "Id": june["Id"], "SyncToken": stale, "DueDate": "2025-07-30"},
        "Conflict",
        "5010",
    )
    fails(session, "void_invoice", {"realmId": A, "Id": june["Id"], "SyncToken": stale}, "Conflict", "Stale Object")
    sent = ok(session, "send_invoice", {"realmId": A, "Id": june["Id"]})
    assert int(sent["SyncToken"]) == int(june["SyncToken"]) + 1


def test_unknown_ids_and_inactive_references_are_object_not_found(session):
    sign_in(session)
    assert (
        fault(fails(session, "get_invoice", {"realmId": A, "Id": "99999"}, "NotFound", "Invoice with Id 99999"))["code"]
        == "610"
    )
    # an invoice of another company is not found here
    other = open_invoice(session, B, "Meridian Tech Inc.", "2025-06-05")
    fails(session, "get_invoice", {"realmId": A, "Id": other["Id"]}, "NotFound", "is not found")
    inactive_customer = next(c for c in SEED["customers"] if c["realm_id"] == A and not c["active"])
    outcome = fails(
        session,
        "create_invoice",
        {
            "realmId": A,
            "CustomerRef": inactive_customer["id"],
            "TxnDate": "2025-06-16",
            "Line": [{"ItemRef": item(A, "Hedge Trimming")}],
        },
        "InvalidRequest",
        "made inactive",
    )
    assert fault(outcome)["element"] == "CustomerRef"
    fails(
        session,
        "create_invoice",
        {
            "realmId": A,
            "CustomerRef": customer(A, "Mark Jensen"),
            "TxnDate": "2025-06-16",
            "Line": [{"ItemRef": item(A, "Snow Plowing")}],
        },
        "InvalidRequest",
        "made inactive",
    )
    fails(
        session,
        "create_bill",
        {
            "realmId": A,
            "VendorRef": vendor(A, "SiteOne Landscape Supply (old acct)"),
            "TxnDate": "2025-06-16",
            "Line": [{"AccountRef": account(A, "Supplies & Materials"), "Amount": 10}],
        },
        "InvalidRequest",
        "610",
    )


def test_invoices_number_in_sequence_default_to_net_30_and_refuse_used_numbers(session):
    sign_in(session)
    numbers = [int(i["DocNumber"]) for i in ok(session, "query_invoices", {"realmId": A, "MaxResults": 1000})]
    made = new_invoice(session)
    assert made["DocNumber"] == str(max(numbers) + 1)
    assert made["DueDate"] == "2025-07-16" and made["TotalAmt"] == 240.0 and made["Balance"] == 240.0
    assert made["BillEmail"] == "mark.jensen@gmail.com" and made["EmailStatus"] == "NotSet"
    assert made["Line"][0]["UnitPrice"] == 120.0
    outcome = fails(
        session,
        "create_invoice",
        {
            "realmId": A,
            "CustomerRef": customer(A, "Mark Jensen"),
            "TxnDate": "2025-06-16",
            "DocNumber": made["DocNumber"],
            "Line": [{"ItemRef": item(A, "Hedge Trimming")}],
        },
        "Conflict",
        "Duplicate Document Number",
    )
    assert fault(outcome)["code"] == "6140" and f"TxnType=Invoice with TxnId={made['Id']}" in fault(outcome)["Detail"]
    fails(
        session,
        "create_invoice",
        {
            "realmId": A,
            "CustomerRef": customer(A, "Mark Jensen"),
            "TxnDate": "2025-06-16",
            "DueDate": "2025-06-01",
            "Line": [{"ItemRef": item(A, "Hedge Trimming")}],
        },
        "InvalidRequest",
        "due date cannot be earlier",
    )
    custom = new_invoice(session, DocNumber="JEN-1")
    assert custom["DocNumber"] == "JEN-1"


def test_nothing_dated_in_closed_books_can_be_created_changed_or_deleted(session):
    sign_in(session)
    outcome = fails(
        session,
        "create_invoice",
        {
            "realmId": A,
            "CustomerRef": customer(A, "Mark Jensen"),
            "TxnDate": "2025-03-31",
            "Line": [{"ItemRef": item(A, "Hedge Trimming")}],
        },
        "Conflict",
        "Account Period Closed",
    )
    assert fault(outcome)["code"] == "6210"
    april = open_invoice(session, B, "St. Brigid's School", "2025-04-15")
    fails(
        session,
        "update_invoice",
        {"realmId": B, "Id": april["Id"], "SyncToken": april["SyncToken"], "DueDate": "2025-07-01"},
        "Conflict",
        "6210",
    )
    fails(
        session, "void_invoice", {"realmId": B, "Id": april["Id"], "SyncToken": april["SyncToken"]}, "Conflict", "6210"
    )
    old = next(p for p in SEED["payments"] if p["realm_id"] == A and p["txn_date"] <= "2025-03-31")
    fails(
        session,
        "delete_payment",
        {"realmId": A, "Id": old["id"], "SyncToken": str(old["sync_token"])},
        "Conflict",
        "6210",
    )


def test_void_zeroes_the_invoice_and_is_refused_while_payments_are_linked(session):
    sign_in(session)
    june = open_invoice(session, A, "Oakwood Village HOA", "2025-06-02")
    voided = ok(session, "void_invoice", {"realmId": A, "Id": june["Id"], "SyncToken": june["SyncToken"]})
    assert (voided["TotalAmt"], voided["Balance"], voided["PrivateNote"]) == (0, 0, "Voided")
    fails(
        session,
        "void_invoice",
        {"realmId": A, "Id": june["Id"], "SyncToken": voided["SyncToken"]},
        "InvalidRequest",
        "already voided",
    )
    fails(
        session,
        "update_invoice",
        {"realmId": A, "Id": june["Id"], "SyncToken": voided["SyncToken"], "DueDate": "2025-08-01"},
        "InvalidRequest",
        "voided",
    )
    fails(session, "send_invoice", {"realmId": A, "Id": june["Id"]}, "InvalidRequest", "voided")
    partly = open_invoice(session, B, "Harlow & Finch Events", "2025-05-10")
    outcome = fails(
        session,
        "void_invoice",
        {"realmId": B, "Id": partly["Id"], "SyncToken": partly["SyncToken"]},
        "InvalidRequest",
        "payments linked",
    )
    assert fault(outcome)["code"] == "6000"


def test_sending_needs_an_address_and_records_it(session):
    sign_in(session)
    church = ok(session, "query_invoices", {"realmId": A, "CustomerRef": customer(A, "Riverside Community Church")})[0]
    assert church["EmailStatus"] == "NeedToSend"
    outcome = fails(
        session, "send_invoice", {"realmId": A, "Id": church["Id"]}, "InvalidRequest", "Email Address is missing"
    )
    assert fault(outcome)["element"] == "BillEmail"
    sent = ok(session, "send_invoice", {"realmId": A, "Id": church["Id"], "SendTo": "office@riversidecc.org"})
    assert (sent["EmailStatus"], sent["BillEmail"]) == ("EmailSent", "office@riversidecc.org")


def test_update_replaces_lines_but_never_below_what_was_paid(session):
    sign_in(session, "priya")
    wedding = open_invoice(session, B, "Harlow Wedding (June)", "2025-06-01")
    paid = wedding["TotalAmt"] - wedding["Balance"]
    assert paid == 2500.0
    fails(
        session,
        "update_invoice",
        {
            "realmId": B,
            "Id": wedding["Id"],
            "SyncToken": wedding["SyncToken"],
            "Line": [{"ItemRef": item(B, "Wedding Cake (per tier)"), "Qty": 1}],
        },
        "InvalidRequest",
        "cannot be less than the payments applied",
    )
    changed = ok(
        session,
        "update_invoice",
        {
            "realmId": B,
            "Id": wedding["Id"],
            "SyncToken": wedding["SyncToken"],
            "Line": [{"ItemRef": item(B, "Plated Dinner (per guest)"), "Qty": 50}],
        },
    )
    assert changed["TotalAmt"] == 2700.0 and changed["Balance"] == 200.0 and len(changed["Line"]) == 1


def test_payments_apply_up_to_each_balance_for_the_same_customer(session):
    sign_in(session)
    oak = customer(A, "Oakwood Village HOA")
    april = open_invoice(session, A, "Oakwood Village HOA", "2025-04-01")
    base = {
        "realmId": A,
        "CustomerRef": oak,
        "TxnDate": "2025-06-16",
        "DepositToAccountRef": account(A, "Business Checking"),
    }
    fails(
        session,
        "create_payment",
        {**base, "TotalAmt": 400, "Line": [{"Amount": 340.01, "TxnId": april["Id"]}]},
        "InvalidRequest",
        "exceeds its open balance",
    )
    fails(
        session,
        "create_payment",
        {**base, "TotalAmt": 100, "Line": [{"Amount": 340, "TxnId": april["Id"]}]},
        "InvalidRequest",
        "exceeds the payment amount",
    )
    jensen = open_invoice(session, A, "Mark Jensen", "2025-05-20")
    fails(
        session,
        "create_payment",
        {**base, "TotalAmt": 100, "Line": [{"Amount": 100, "TxnId": jensen["Id"]}]},
        "InvalidRequest",
        "different customer",
    )
    fails(
        session,
        "create_payment",
        {**base, "TotalAmt": 100, "DepositToAccountRef": account(A, "Amex Business Card"), "Line": []},
        "InvalidRequest",
        "Credit Card account",
    )
    fails(session, "create_payment", {**base, "TotalAmt": 0}, "InvalidRequest", "transaction amount")
    paid = ok(session, "create_payment", {**base, "TotalAmt": 400, "Line": [{"Amount": 340, "TxnId": april["Id"]}]})
    assert paid["UnappliedAmt"] == 60.0
    assert ok(session, "get_invoice", {"realmId": A, "Id": april["Id"]})["Balance"] == 0
    # the unapplied 60 lowers what the customer owes
    assert ok(session, "get_customer", {"realmId": A, "Id": oak})["Balance"] == 1530.0 - 400.0


def test_credit_memos_are_used_only_toward_invoices_and_deleting_gives_credit_back(session):
    sign_in(session, "priya")
    mt = customer(B, "Meridian Tech Inc.")
    memo = ok(session, "query_credit_memos", {"realmId": B, "CustomerRef": mt, "OpenOnly": True})[0]
    lunch = open_invoice(session, B, "Meridian Tech Inc.", "2025-05-22")
    base = {
        "realmId": B,
        "CustomerRef": mt,
        "TxnDate": "2025-06-16",
        "DepositToAccountRef": account(B, "Business Checking"),
    }
    fails(
        session,
        "create_payment",
        {
            **base,
            "TotalAmt": 0,
            "Line": [
                {"Amount": 100, "TxnId": lunch["Id"]},
                {"Amount": 180.01, "TxnId": memo["Id"], "TxnType": "CreditMemo"},
            ],
        },
        "InvalidRequest",
        "remaining credit",
    )
    fails(
        session,
        "create_payment",
        {**base, "TotalAmt": 50, "Line": [{"Amount": 100, "TxnId": memo["Id"], "TxnType": "CreditMemo"}]},
        "InvalidRequest",
        "Credits applied may not exceed",
    )
    fails(
        session,
        "create_payment",
        {**base, "TotalAmt": 10, "Line": [{"Amount": 10, "TxnId": memo["Id"], "TxnType": "Invoice"}]},
        "NotFound",
        "Invoice with Id",
    )
    used = ok(
        session,
        "create_payment",
        {
            **base,
            "TotalAmt": 0,
            "Line": [
                {"Amount": 180, "TxnId": lunch["Id"]},
                {"Amount": 180, "TxnId": memo["Id"], "TxnType": "CreditMemo"},
            ],
        },
    )
    assert used["UnappliedAmt"] == 0
    assert ok(session, "query_credit_memos", {"realmId": B, "CustomerRef": mt})[0]["RemainingCredit"] == 0
    assert ok(session, "get_invoice", {"realmId": B, "Id": lunch["Id"]})["Balance"] == lunch["Balance"] - 180
    gone = ok(session, "delete_payment", {"realmId": B, "Id": used["Id"], "SyncToken": used["SyncToken"]})
    assert gone["Id"] == used["Id"]
    assert ok(session, "query_credit_memos", {"realmId": B, "CustomerRef": mt})[0]["RemainingCredit"] == 180.0
    assert ok(session, "get_invoice", {"realmId": B, "Id": lunch["Id"]})["Balance"] == lunch["Balance"]
    fails(session, "delete_payment", {"realmId": B, "Id": used["Id"], "SyncToken": "0"}, "NotFound", "Payment with Id")


def test_a_customer_with_an_open_balance_cannot_be_made_inactive(session):
    sign_in(session)
    ter = ok(session, "get_customer", {"realmId": A, "Id": customer(A, "Oakwood Terrace Apartments")})
    fails(
        session,
        "update_customer",
        {"realmId": A, "Id": ter["Id"], "SyncToken": ter["SyncToken"], "Active": False},
        "InvalidRequest",
        "open balance",
    )
    gd = ok(session, "get_customer", {"realmId": A, "Id": customer(A, "Greenfield Dental")})
    done = ok(session, "update_customer", {"realmId": A, "Id": gd["Id"], "SyncToken": gd["SyncToken"], "Active": False})
    assert not done["Active"]
    assert [c["DisplayName"] for c in ok(session, "query_customers", {"realmId": A, "DisplayName": "greenfield"})] == []
    assert len(ok(session, "query_customers", {"realmId": A, "DisplayName": "greenfield", "Active": None})) == 1
    fails(
        session,
        "update_customer",
        {"realmId": A, "Id": gd["Id"], "SyncToken": done["SyncToken"], "DisplayName": "Marcia Jensen"},
        "Conflict",
        "already exists",
    )


def test_bills_follow_vendor_terms_and_refuse_repeated_vendor_numbers(session):
    sign_in(session)
    sun = vendor(A, "Sunbelt Rentals")
    line = [{"AccountRef": account(A, "Equipment Rental"), "Amount": 250.25}]
    bill = ok(
        session,
        "create_bill",
        {"realmId": A, "VendorRef": sun, "TxnDate": "2025-06-16", "Line": line, "DocNumber": "SR-560001"},
    )
    assert bill["DueDate"] == "2025-07-01" and bill["TotalAmt"] == 250.25 and bill["Balance"] == 250.25
    outcome = fails(
        session,
        "create_bill",
        {"realmId": A, "VendorRef": sun, "TxnDate": "2025-06-16", "Line": line, "DocNumber": "SR-558120"},
        "Conflict",
        "Duplicate Document Number",
    )
    assert fault(outcome)["code"] == "6140"
    # another vendor may use the same number
    ok(
        session,
        "create_bill",
        {
            "realmId": A,
            "VendorRef": vendor(A, "Home Depot"),
            "TxnDate": "2025-06-16",
            "Line": line,
            "DocNumber": "SR-558120",
        },
    )
    fails(
        session,
        "create_bill",
        {
            "realmId": A,
            "VendorRef": sun,
            "TxnDate": "2025-06-16",
            "Line": [{"AccountRef": account(A, "Business Checking"), "Amount": 5}],
        },
        "InvalidRequest",
        "is a Bank account",
    )


def test_bill_payments_match_their_lines_and_the_pay_type_account(session):
    sign_in(session)
    sun = vendor(A, "Sunbelt Rentals")
    bills = ok(session, "query_bills", {"realmId": A, "VendorRef": sun, "OpenOnly": True})
    grinder = next(b for b in bills if b["DocNumber"] == "SR-558120")
    base = {
        "realmId": A,
        "VendorRef": sun,
        "TxnDate": "2025-06-16",
        "PayType": "Check",
        "AccountRef": account(A, "Business Checking"),
    }
    fails(
        session,
        "create_bill_payment",
        {**base, "TotalAmt": 600, "Line": [{"Amount": 500, "BillId": grinder["Id"]}]},
        "InvalidRequest",
        "must equal the sum",
    )
    fails(
        session,
        "create_bill_payment",
        {**base, "TotalAmt": 700, "Line": [{"Amount": 700, "BillId": grinder["Id"]}]},
        "InvalidRequest",
        "exceeds its open balance",
    )
    fails(
        session,
        "create_bill_payment",
        {
            **base,
            "AccountRef": account(A, "Amex Business Card"),
            "TotalAmt": 100,
            "Line": [{"Amount": 100, "BillId": grinder["Id"]}],
        },
        "InvalidRequest",
        "Credit Card account",
    )
    fails(
        session,
        "create_bill_payment",
        {
            **base,
            "AccountRef": account(A, "Old Operating Account"),
            "TotalAmt": 100,
            "Line": [{"Amount": 100, "BillId": grinder["Id"]}],
        },
        "InvalidRequest",
        "made inactive",
    )
    valley = next(b for b in SEED["bills"] if b["doc_number"] == "VM-2291")
    fails(
        session,
        "create_bill_payment",
        {**base, "TotalAmt": 100, "Line": [{"Amount": 100, "BillId": valley["id"]}]},
        "InvalidRequest",
        "different vendor",
    )
    paid = ok(
        session,
        "create_bill_payment",
        {
            **base,
            "PayType": "CreditCard",
            "AccountRef": account(A, "Amex Business Card"),
            "TotalAmt": 685,
            "Line": [{"Amount": 685, "BillId": grinder["Id"]}],
        },
    )
    assert paid["PayType"] == "CreditCard" and paid["Line"][0]["DocNumber"] == "SR-558120"
    left = ok(session, "query_bills", {"realmId": A, "VendorRef": sun, "OpenOnly": True})
    assert "SR-558120" not in [b["DocNumber"] for b in left] and "SR-559044" in [b["DocNumber"] for b in left]
    vendor_row = ok(session, "query_vendors", {"realmId": A, "DisplayName": "Sunbelt"})[0]
    assert vendor_row["Balance"] == round(sum(b["Balance"] for b in left), 2)


def test_queries_page_by_start_position_and_max_results(session):
    sign_in(session, "marcus")
    everyone = ok(session, "query_customers", {"realmId": C, "Active": None, "MaxResults": 1000})
    page = ok(session, "query_customers", {"realmId": C, "Active": None, "StartPosition": 11, "MaxResults": 5})
    assert [c["Id"] for c in page] == [c["Id"] for c in everyone[10:15]]
    assert session.call("query_customers", {"realmId": C, "MaxResults": 1001}).ok is False
    ruiz = ok(session, "query_customers", {"realmId": C, "DisplayName": "ruiz"})
    assert sorted(c["DisplayName"] for c in ruiz) == ["Anna Ruiz", "Dr. Ana Ruiz"]
