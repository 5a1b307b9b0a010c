"""The Salesforce environment's tools on the real seed: log-in, the SOQL subset (parent fields, COUNT(), AND/OR,
LIKE, IN, date literals, deleted rows left out, its MALFORMED_QUERY / INVALID_FIELD / INVALID_TYPE errors), stage
probabilities and forecast categories, every validation rule of the org, duplicate rules and allowSave, inactive
owners, lookups of the wrong object, missing or deleted, deleting (permissions, DELETE_FAILED blockers, the
Recycle Bin cascade), case closing, reopening and escalation, contact roles, and lead conversion. Every failure is
checked to leave the state unchanged and to answer in Salesforce's [{message, errorCode, fields}] shape."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("salesforce")
CLOCK = datetime(2026, 3, 16, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
LOGINS = {
    "Priya Shah": ("priya.shah@brightwave.io", "Brightwave#2026"),
    "Tom Becker": ("tom.becker@brightwave.io", "Becker!Sales1"),
    "Mei Lin": ("mei.lin@brightwave.io", "MeiLin$upport9"),
    "Daniel Ortiz": ("daniel.ortiz@brightwave.io", "pw-ortiz-77"),
}

session = session_fixture(SPEC, CLOCK)


def row(table: str, **match: Any) -> dict[str, Any]:
    found = [r for r in SEED[table] if all(r.get(k) == v for k, v in match.items())]
    assert len(found) == 1, (table, match)
    return found[0]


def rid(table: str, **match: Any) -> str:
    return str(row(table, **match)["Id"])


def sign_in(session: ToolSession, who: str = "Priya Shah") -> Any:
    username, password = LOGINS[who]
    return ok(session, "sign_in", {"username": username, "password": password}, caller="user")


def error_body(error: str | None) -> dict[str, Any]:
    """The single error object of a Salesforce error array."""
    body = json.loads((error or "").split(": ", 1)[1])
    assert isinstance(body, list) and len(body) == 1
    return body[0]


def soql(session: ToolSession, q: str) -> dict[str, Any]:
    return ok(session, "query", {"q": q})


FLEET = rid("opportunity", Name="Harbor Freight - Fleet Analytics Expansion")
SUMMIT_WEST = rid("opportunity", Name="Summit Health West - Add-on Seats")  # open, close date in the past
VANTAGE = rid("opportunity", Name="Vantage Robotics - Expansion")  # amount 0
COBALT_WON = rid("opportunity", Name="Cobalt Energy - Renewal FY26")
HF = rid("account", Name="Harbor Freight Logistics")
POLAR = rid("account", Name="Polar Cold Chain")
TITAN = rid("account", Name="Titan Freight (old)")  # deleted
JORDAN = rid("contact", Name="Jordan Lee", AccountId=HF)
DASH_CASE = rid("case", Subject="Dashboards not refreshing since Friday")
ADD_USERS = rid("case", Subject="Cannot add users")
LUIS = rid("user", Name="Luis Romero")
MEGAN = rid("lead", Name="Megan Holt", Company="Copperline Brewing")
STAGE = "Proposal/Price Quote"


# ---------------------------------------------------------------- log-in


def test_a_wrong_password_is_refused_and_nothing_runs_before_log_in(session: ToolSession) -> None:
    fails(session, "query", {"q": "SELECT Id FROM Account"}, "PermissionDenied", "INVALID_SESSION_ID")
    fails(
        session, "sign_in", {"username": "priya.shah@brightwave.io", "password": "nope"}, "PermissionDenied",
        "INVALID_LOGIN", caller="user",
    )  # fmt: skip
    fails(
        session, "sign_in", {"username": "luis.romero@brightwave.io", "password": "gone-2025"}, "PermissionDenied",
        "INVALID_LOGIN", caller="user",
    )  # fmt: skip
    assert sign_in(session)["Name"] == "Priya Shah"
    me = ok(session, "get_user_info")
    assert (me["Id"], me["Profile"]) == (rid("user", Name="Priya Shah"), "Sales User")


def test_only_the_user_signs_in(session: ToolSession) -> None:
    outcome = session.call("sign_in", {"username": "priya.shah@brightwave.io", "password": "Brightwave#2026"})
    assert not outcome.ok and outcome.error_kind == "user_only"


# ---------------------------------------------------------------- SOQL


def test_soql_filters_with_parent_fields_and_nests_them_in_records(session: ToolSession) -> None:
    sign_in(session)
    out = soql(
        session,
        "SELECT Id, Name, Account.Name, Owner.Name FROM Opportunity WHERE Account.Name LIKE 'harbor freight%' "
        "AND (StageName = 'Negotiation/Review' OR StageName IN ('Proposal/Price Quote')) ORDER BY Amount DESC",
    )
    wanted = sorted(
        (o for o in SEED["opportunity"] if o["AccountId"] == HF and o["StageName"] in ("Negotiation/Review", STAGE)),
        key=lambda o: -o["Amount"],
    )  # fmt: skip
    assert [r["Id"] for r in out["records"]] == [o["Id"] for o in wanted] and FLEET in [o["Id"] for o in wanted]
    first = out["records"][0]
    assert first["Account"]["Name"] == "Harbor Freight Logistics" and first["Owner"]["Name"] == "Priya Shah"
    assert first["attributes"]["type"] == "Opportunity" and out["totalSize"] == len(wanted) and out["done"]


def test_soql_count_dates_limit_offset_and_deleted_rows(session: ToolSession) -> None:
    sign_in(session)
    open_cases = sum(1 for c in SEED["case"] if not c["IsClosed"] and not c["IsDeleted"])
    assert soql(session, "SELECT COUNT() FROM Case WHERE IsClosed = false")["totalSize"] == open_cases
    stale = soql(session, "SELECT Id FROM Opportunity WHERE IsClosed = false AND CloseDate < TODAY")
    expected = {
        o["Id"]
        for o in SEED["opportunity"]
        if not o["IsClosed"] and not o["IsDeleted"] and o["CloseDate"] < "2026-03-16"
    }
    assert {r["Id"] for r in stale["records"]} == expected and SUMMIT_WEST in expected
    page = soql(session, "SELECT Id FROM Account ORDER BY Name LIMIT 5 OFFSET 5")
    everything = soql(session, "SELECT Id FROM Account ORDER BY Name")
    assert [r["Id"] for r in page["records"]] == [r["Id"] for r in everything["records"]][5:10]
    assert TITAN not in {r["Id"] for r in everything["records"]}
    assert soql(session, "SELECT Id FROM Contact WHERE Email = null")["totalSize"] == 0


def test_soql_errors_use_salesforce_codes(session: ToolSession) -> None:
    sign_in(session)
    cases = [
        ("SELECT Id, Colour FROM Account", "INVALID_FIELD", "No such column 'Colour' on entity 'Account'"),
        ("SELECT Id FROM Widget", "INVALID_TYPE", "sObject type 'Widget' is not supported."),
        ("SELECT Id Name FROM Account", "MALFORMED_QUERY", "unexpected token: 'Name'"),
        ("SELECT Id FROM Account WHERE Name ~ 'x'", "MALFORMED_QUERY", "unexpected token"),
        ("SELECT Password FROM User", "INVALID_FIELD", "No such column 'Password'"),
    ]
    for q, code, text in cases:
        outcome = fails(session, "query", {"q": q}, "InvalidRequest", code)
        body = error_body(outcome.error)
        assert body["errorCode"] == code and text in body["message"], body


# ---------------------------------------------------------------- opportunities


def test_a_stage_sets_its_probability_and_forecast_category_unless_overridden(session: ToolSession) -> None:
    sign_in(session)
    moved = ok(session, "update_opportunity", {"record_id": FLEET, "StageName": "Negotiation/Review"})
    assert (moved["Probability"], moved["ForecastCategoryName"]) == (90.0, "Commit")
    custom = ok(
        session, "update_opportunity", {"record_id": FLEET, "StageName": "Value Proposition", "Probability": 35}
    )
    assert (custom["Probability"], custom["ForecastCategoryName"]) == (35.0, "Pipeline")
    won = ok(session, "update_opportunity", {"record_id": FLEET, "StageName": "Closed Won"})
    assert (won["Probability"], won["IsClosed"], won["IsWon"], won["ForecastCategoryName"]) == (
        100.0,
        True,
        True,
        "Closed",
    )
    created = ok(
        session, "create_opportunity",
        {"Name": "New deal", "StageName": "Proposal/Price Quote", "CloseDate": "2026-05-01", "AccountId": HF},
    )  # fmt: skip
    record = ok(session, "get_record", {"sobject": "Opportunity", "record_id": created["id"]})
    assert created["id"].startswith("006") and len(created["id"]) == 18 and record["Probability"] == 75.0


def test_opportunity_validation_rules(session: ToolSession) -> None:
    sign_in(session)
    lost = fails(session, "update_opportunity", {"record_id": FLEET, "StageName": "Closed Lost"}, "InvalidRequest",
                 "Loss Reason")  # fmt: skip
    assert error_body(lost.error) == {
        "message": "Select a Loss Reason before closing an opportunity as Closed Lost.",
        "errorCode": "FIELD_CUSTOM_VALIDATION_EXCEPTION",
        "fields": ["Loss_Reason__c"],
    }
    fails(session, "update_opportunity", {"record_id": VANTAGE, "StageName": "Closed Won"}, "InvalidRequest",
          "Amount greater than zero")  # fmt: skip
    fails(session, "update_opportunity", {"record_id": COBALT_WON, "Amount": 250000}, "InvalidRequest",
          "Closed Won opportunities are locked")  # fmt: skip
    # the past close date blocks any save of an open deal until the date moves
    fails(session, "update_opportunity", {"record_id": SUMMIT_WEST, "NextStep": "Demo"}, "InvalidRequest",
          "Close Date cannot be in the past")  # fmt: skip
    fails(
        session, "create_opportunity", {"Name": "Old", "StageName": "Prospecting", "CloseDate": "2026-03-01"},
        "InvalidRequest", "Close Date cannot be in the past",
    )  # fmt: skip
    fixed = ok(session, "update_opportunity", {"record_id": SUMMIT_WEST, "NextStep": "Demo", "CloseDate": "2026-04-15"})
    assert fixed["NextStep"] == "Demo"
    # a closed deal may keep a past close date
    lost_ok = ok(session, "update_opportunity",
                 {"record_id": FLEET, "StageName": "Closed Lost", "Loss_Reason__c": "Price",
                  "CloseDate": "2026-03-02"})  # fmt: skip
    assert lost_ok["IsClosed"] and not lost_ok["IsWon"] and lost_ok["Probability"] == 0.0


def test_picklists_and_required_fields_are_refused_with_salesforce_texts(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "update_opportunity", {"record_id": FLEET, "StageName": "Won"}, "invalid_arguments",
          "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST")  # fmt: skip
    fails(session, "create_contact", {"LastName": " "}, "invalid_arguments", "REQUIRED_FIELD_MISSING")
    fails(session, "get_record", {"sobject": "Account", "record_id": "nope"}, "invalid_arguments", "MALFORMED_ID")


def test_contact_roles_are_unique_per_contact_and_one_is_primary(session: ToolSession) -> None:
    sign_in(session)
    kevin = rid("contact", Name="Kevin Walsh")
    ok(session, "add_opportunity_contact_role",
       {"OpportunityId": FLEET, "ContactId": kevin, "Role": "Technical Buyer", "IsPrimary": True})  # fmt: skip
    roles = ok(session, "get_record", {"sobject": "Opportunity", "record_id": FLEET})["ContactRoles"]
    assert [r["ContactName"] for r in roles if r["IsPrimary"]] == ["Kevin Walsh"] and len(roles) == 2
    fails(session, "add_opportunity_contact_role", {"OpportunityId": FLEET, "ContactId": kevin}, "InvalidRequest",
          "DUPLICATE_VALUE")  # fmt: skip


# ---------------------------------------------------------------- references, duplicates, owners


def test_lookups_must_point_at_a_live_record_of_the_right_object(session: ToolSession) -> None:
    sign_in(session)
    wrong = fails(
        session, "create_task", {"Subject": "Call", "WhoId": HF}, "InvalidRequest", "FIELD_INTEGRITY_EXCEPTION"
    )
    assert error_body(wrong.error)["fields"] == ["WhoId"]
    fails(session, "create_contact", {"LastName": "X", "AccountId": "001Hs0000099999999"}, "InvalidRequest",
          "INVALID_CROSS_REFERENCE_KEY")  # fmt: skip
    fails(session, "create_contact", {"LastName": "X", "AccountId": TITAN}, "InvalidRequest", "ENTITY_IS_DELETED")
    fails(session, "update_account", {"record_id": TITAN, "Rating": "Hot"}, "InvalidRequest", "ENTITY_IS_DELETED")
    fails(session, "get_record", {"sobject": "Case", "record_id": FLEET}, "NotFound", "NOT_FOUND")


def test_duplicate_rules_refuse_until_allow_save(session: ToolSession) -> None:
    sign_in(session)
    dup = fails(session, "create_account", {"Name": "harbor logistics group"}, "Conflict", "DUPLICATES_DETECTED")
    assert rid("account", Name="Harbor Logistics Group") in error_body(dup.error)["message"]
    fails(session, "create_contact", {"LastName": "Lee", "Email": "JORDAN.LEE@harborfreightlogistics.com"}, "Conflict",
          "DUPLICATES_DETECTED")  # fmt: skip
    hugo = {"LastName": "Weiss", "Company": "Alpenglow", "Email": "hugo.weiss@alpenglowresorts.com"}
    fails(session, "create_lead", hugo, "Conflict", "DUPLICATES_DETECTED")
    saved = ok(session, "create_account", {"Name": "Harbor Logistics Group", "allowSave": True})
    assert saved["success"] and saved["id"].startswith("001")


def test_owners_must_be_active_users(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "update_account", {"record_id": HF, "OwnerId": LUIS}, "InvalidRequest", "INACTIVE_OWNER_OR_USER")
    fails(
        session, "update_account", {"record_id": HF, "OwnerId": JORDAN}, "InvalidRequest", "FIELD_INTEGRITY_EXCEPTION"
    )


# ---------------------------------------------------------------- deleting


def test_deleting_needs_ownership_and_no_cases_or_won_deals(session: ToolSession) -> None:
    sign_in(session)  # Priya: not the owner of Polar Cold Chain (Daniel Ortiz), not his manager
    fails(session, "delete_record", {"sobject": "Account", "record_id": POLAR}, "PermissionDenied",
          "INSUFFICIENT_ACCESS_OR_READONLY")  # fmt: skip
    blocked = fails(session, "delete_record", {"sobject": "Account", "record_id": HF}, "Conflict", "DELETE_FAILED")
    assert "associated with the following cases" in error_body(blocked.error)["message"]
    fails(session, "delete_record", {"sobject": "Contact", "record_id": JORDAN}, "Conflict", "DELETE_FAILED")


def test_deleting_an_account_takes_its_contacts_deals_and_tasks_to_the_recycle_bin(session: ToolSession) -> None:
    sign_in(session, "Tom Becker")  # Daniel Ortiz's manager
    contacts = {c["Id"] for c in SEED["contact"] if c["AccountId"] == POLAR}
    deals = {o["Id"] for o in SEED["opportunity"] if o["AccountId"] == POLAR}
    moved = set(ok(session, "delete_record", {"sobject": "Account", "record_id": POLAR}))
    assert {POLAR} | contacts | deals <= moved and contacts and deals
    assert soql(session, f"SELECT COUNT() FROM Contact WHERE AccountId = '{POLAR}'")["totalSize"] == 0
    fails(session, "get_record", {"sobject": "Account", "record_id": POLAR}, "InvalidRequest", "ENTITY_IS_DELETED")
    fails(session, "delete_record", {"sobject": "Account", "record_id": POLAR}, "InvalidRequest", "ENTITY_IS_DELETED")


# ---------------------------------------------------------------- cases


def test_closing_needs_a_reason_and_reopening_clears_the_closed_date(session: ToolSession) -> None:
    sign_in(session, "Mei Lin")
    fails(session, "update_case", {"record_id": DASH_CASE, "Status": "Closed"}, "InvalidRequest", "Case Reason")
    closed = ok(session, "update_case", {"record_id": DASH_CASE, "Status": "Closed", "Reason": "Performance"})
    assert closed["IsClosed"] and closed["ClosedDate"] is not None
    reopened = ok(session, "update_case", {"record_id": DASH_CASE, "Status": "Working"})
    assert not reopened["IsClosed"] and reopened["ClosedDate"] is None


def test_escalation_needs_high_priority(session: ToolSession) -> None:
    sign_in(session, "Mei Lin")
    fails(
        session,
        "update_case",
        {"record_id": ADD_USERS, "Status": "Escalated"},
        "InvalidRequest",
        "Priority set to High",
    )
    fails(
        session, "update_case", {"record_id": ADD_USERS, "IsEscalated": True}, "InvalidRequest", "Priority set to High"
    )
    fails(session, "create_case", {"Subject": "Down", "Origin": "Phone", "Status": "Escalated"}, "InvalidRequest",
          "Priority set to High")  # fmt: skip
    escalated = ok(session, "update_case", {"record_id": ADD_USERS, "Status": "Escalated", "Priority": "High"})
    assert escalated["IsEscalated"] and escalated["Status"] == "Escalated"


def test_a_new_case_gets_the_next_number_and_the_contacts_account(session: ToolSession) -> None:
    sign_in(session, "Mei Lin")
    top = max(int(c["CaseNumber"]) for c in SEED["case"])
    created = ok(session, "create_case", {"Subject": "Training", "Origin": "Phone", "ContactId": JORDAN})
    case = ok(session, "get_record", {"sobject": "Case", "record_id": created["id"]})
    assert case["CaseNumber"] == f"{top + 1:08d}" and case["AccountId"] == HF and case["Status"] == "New"
    comment = ok(session, "add_case_comment", {"ParentId": created["id"], "CommentBody": "Booked", "IsPublished": True})
    assert ok(session, "get_record", {"sobject": "Case", "record_id": created["id"]})["CaseComments"] == [comment]


# ---------------------------------------------------------------- leads


def test_converting_a_lead_makes_an_account_contact_and_deal_once(session: ToolSession) -> None:
    sign_in(session)
    res = ok(session, "convert_lead", {"leadId": MEGAN, "opportunityName": "Copperline - Taproom"})
    account = ok(session, "get_record", {"sobject": "Account", "record_id": res["accountId"]})
    contact = ok(session, "get_record", {"sobject": "Contact", "record_id": res["contactId"]})
    deal = ok(session, "get_record", {"sobject": "Opportunity", "record_id": res["opportunityId"]})
    assert account["Name"] == "Copperline Brewing" and contact["AccountId"] == res["accountId"]
    assert (deal["StageName"], deal["CloseDate"], deal["Name"]) == ("Prospecting", "2026-03-31", "Copperline - Taproom")
    lead = ok(session, "get_record", {"sobject": "Lead", "record_id": MEGAN})
    assert lead["IsConverted"] and lead["Status"] == "Closed - Converted"
    fails(session, "convert_lead", {"leadId": MEGAN}, "InvalidRequest", "CANNOT_UPDATE_CONVERTED_LEAD")
    fails(session, "update_lead", {"record_id": MEGAN, "Status": "Working - Contacted"}, "InvalidRequest",
          "CANNOT_UPDATE_CONVERTED_LEAD")  # fmt: skip


def test_converting_into_an_existing_account_checks_the_contact(session: ToolSession) -> None:
    sign_in(session)
    arjun = rid("lead", Name="Arjun Mehta")
    fails(session, "convert_lead", {"leadId": arjun, "contactId": JORDAN}, "InvalidRequest", "REQUIRED_FIELD_MISSING")
    other = rid("contact", Name="Aisha Rahman")
    fails(session, "convert_lead", {"leadId": arjun, "accountId": HF, "contactId": other}, "InvalidRequest",
          "does not belong to the account")  # fmt: skip
    res = ok(session, "convert_lead", {"leadId": arjun, "accountId": HF, "doNotCreateOpportunity": True})
    assert res["accountId"] == HF and res["opportunityId"] is None
    assert soql(session, "SELECT COUNT() FROM Account WHERE Name = 'Harbor Freight Logistics'")["totalSize"] == 1


def test_describe_lists_picklists_stage_probabilities_and_validation_rules(session: ToolSession) -> None:
    sign_in(session)
    out = ok(session, "describe_sobject", {"sobject": "Opportunity"})
    stages = {s["value"]: s["defaultProbability"] for s in out["stages"]}
    assert stages["Negotiation/Review"] == 90 and stages["Closed Lost"] == 0 and out["keyPrefix"] == "006"
    field = next(f for f in out["fields"] if f["name"] == "Loss_Reason__c")
    assert field["type"] == "picklist" and "Competitor" in field["picklistValues"]
    assert any(rule.startswith("Loss_Reason_Required") for rule in out["validationRules"])
