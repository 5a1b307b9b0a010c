"""The HubSpot environment's tools on the real seed: sign-in (401 before it, deactivated users refused), property
validation (emails, enumeration options, active owners, unique contact emails, forward-only lifecycle stages unless
cleared), deal pipeline rules (stages of the deal's pipeline only, required properties per stage, no skipping in
Renewals, today's close date on closing, pipeline moves need a stage), v4 associations (unlabeled plus labels, a new
Primary replacing the old, the one-Billing-contact limit, removing one label or all), filter-group search (OR of ANDs,
IN, NOT_HAS_PROPERTY, associations.<object>, sort and paging, the 25-filter cap), contact merges and archiving. Every
error path is checked to leave the state unchanged, with HubSpot's {status, message, category} body."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("hubspot")
CLOCK = datetime(2026, 3, 16, 14, 0, tzinfo=timezone.utc)
MAYA = "maya.okafor@brightlane.io"

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, email: str = MAYA) -> dict:
    return ok(session, "sign_in", {"email": email}, caller="user")


def deal_filter(prop: str, op: str, **extra) -> dict:
    return {"filters": [{"propertyName": prop, "operator": op, **extra}]}


def labels_between(session: ToolSession, kind: str, rid: str, to: str) -> dict[str, list]:
    rows = ok(session, "list_associations", {"object_type": kind, "object_id": rid, "to_object_type": to})
    return {r["toObjectId"]: sorted(str(t["label"]) for t in r["associationTypes"]) for r in rows}


# ---------------------------------------------------------------- sign-in


def test_tools_need_a_signed_in_user(session):
    fails(session, "search_crm", {"object_type": "contacts"}, "PermissionDenied", "INVALID_AUTHENTICATION")


def test_deactivated_user_cannot_sign_in(session):
    fails(session, "sign_in", {"email": "ken.adams@brightlane.io"}, "PermissionDenied", "deactivated", caller="user")
    fails(session, "sign_in", {"email": "nobody@brightlane.io"}, "NotFound", "OBJECT_NOT_FOUND", caller="user")


def test_sign_in_returns_the_owner(session):
    me = sign_in(session)
    assert me["id"] == "51001" and me["teams"] == ["Enterprise Sales"]
    assert [o["id"] for o in ok(session, "list_owners", {"archived": True})] == ["51009"]
    hannahs = [o["email"] for o in ok(session, "list_owners", {}) if o["firstName"] == "Hannah"]
    assert sorted(hannahs) == ["hannah.brooks@brightlane.io", "hannah.lee@brightlane.io"]


# ---------------------------------------------------------------- property validation


def test_contact_emails_are_unique_and_valid(session):
    sign_in(session)
    fails(
        session,
        "create_contact",
        {"email": "Jordan.Ellis@acmelogistics.com"},
        "Conflict",
        "Contact already exists. Existing ID: 30001",
    )
    fails(
        session,
        "update_contact",
        {"contact_id": "30014", "email": "jordan.ellis@acmelogistics.com"},
        "Conflict",
        "30001",
    )
    fails(session, "create_contact", {"email": "not-an-email"}, "invalid_arguments", "INVALID_EMAIL")
    made = ok(session, "create_contact", {"email": "New.Person@example.com", "firstname": "New"})
    assert made["properties"]["email"] == "new.person@example.com" and int(made["id"]) > 30001


def test_enumeration_options_and_owners_are_checked(session):
    sign_in(session)
    fails(
        session,
        "update_contact",
        {"contact_id": "30001", "lifecyclestage": "vip"},
        "invalid_arguments",
        "INVALID_OPTION",
    )
    fails(session, "update_company", {"company_id": "18001", "industry": "TOYS"}, "invalid_arguments", "INVALID_OPTION")
    fails(
        session, "update_deal", {"deal_id": "92001", "hubspot_owner_id": "51009"}, "InvalidRequest", "hubspot_owner_id"
    )
    fails(session, "update_deal", {"deal_id": "92001", "hubspot_owner_id": "59999"}, "InvalidRequest", "INVALID_OPTION")
    assert (
        ok(session, "update_deal", {"deal_id": "92001", "hubspot_owner_id": ""})["properties"]["hubspot_owner_id"]
        is None
    )


def test_lifecycle_stage_moves_forward_unless_cleared(session):
    sign_in(session)
    fails(
        session,
        "update_contact",
        {"contact_id": "30001", "lifecyclestage": "lead"},
        "InvalidRequest",
        "cannot be set backward from customer to lead",
    )
    assert ok(session, "update_contact", {"contact_id": "30001", "lifecyclestage": "evangelist"})
    assert (
        ok(session, "update_contact", {"contact_id": "30001", "lifecyclestage": ""})["properties"]["lifecyclestage"]
        is None
    )
    back = ok(session, "update_contact", {"contact_id": "30001", "lifecyclestage": "lead"})
    assert back["properties"]["lifecyclestage"] == "lead"
    fails(
        session,
        "update_company",
        {"company_id": "18001", "lifecyclestage": "opportunity"},
        "InvalidRequest",
        "backward",
    )


# ---------------------------------------------------------------- deals and pipelines


def test_stage_must_belong_to_the_deal_pipeline(session):
    sign_in(session)
    fails(session, "update_deal", {"deal_id": "92001", "dealstage": "1170303"}, "InvalidRequest", "pipeline default")
    fails(session, "update_deal", {"deal_id": "92001", "pipeline": "1170301"}, "InvalidRequest", "needs a dealstage")
    fails(
        session,
        "create_deal",
        {"dealname": "X", "dealstage": "appointmentscheduled", "pipeline": "nope"},
        "InvalidRequest",
        "pipeline",
    )
    moved = ok(session, "update_deal", {"deal_id": "92001", "pipeline": "1170401", "dealstage": "1170402"})
    assert moved["properties"]["pipeline"] == "1170401"


def test_stages_require_their_properties(session):
    sign_in(session)
    fails(
        session,
        "update_deal",
        {"deal_id": "92006", "dealstage": "contractsent"},
        "InvalidRequest",
        "amount is required",
    )
    fails(
        session,
        "update_deal",
        {"deal_id": "92006", "dealstage": "contractsent", "amount": 48000},
        "InvalidRequest",
        "closedate is required",
    )
    fails(
        session, "update_deal", {"deal_id": "92001", "dealstage": "closedlost"}, "InvalidRequest", "closed_lost_reason"
    )
    fails(session, "create_deal", {"dealname": "Y", "dealstage": "closedwon"}, "InvalidRequest", "amount is required")
    done = ok(
        session,
        "update_deal",
        {"deal_id": "92006", "dealstage": "contractsent", "amount": 48000, "closedate": "2026-04-30"},
    )
    assert done["properties"]["hs_deal_stage_probability"] == 0.9


def test_closing_sets_todays_close_date_unless_given(session):
    sign_in(session)
    won = ok(session, "update_deal", {"deal_id": "92004", "dealstage": "closedwon"})
    assert won["properties"]["closedate"] == "2026-03-16T00:00:00Z" and won["properties"]["hs_is_closed"] is True
    lost = ok(
        session,
        "update_deal",
        {"deal_id": "92003", "dealstage": "closedlost", "closed_lost_reason": "Price", "closedate": "2026-03-10"},
    )
    assert lost["properties"]["closedate"] == "2026-03-10T00:00:00Z"


def test_renewals_pipeline_cannot_skip_open_stages(session):
    sign_in(session)
    fails(
        session, "update_deal", {"deal_id": "92002", "dealstage": "1170304"}, "InvalidRequest", "STAGE_SKIP_NOT_ALLOWED"
    )
    assert ok(session, "update_deal", {"deal_id": "92002", "dealstage": "1170303"})
    assert ok(session, "update_deal", {"deal_id": "92002", "dealstage": "1170304"})
    assert ok(session, "update_deal", {"deal_id": "92002", "dealstage": "1170302"})  # back is allowed
    churn = {"deal_id": "92002", "dealstage": "1170306", "closed_lost_reason": "Budget"}
    assert ok(session, "update_deal", churn)["properties"]["hs_is_closed"] is True  # closing may skip
    # the Sales Pipeline does not restrict skipping
    assert ok(session, "update_deal", {"deal_id": "92010", "dealstage": "decisionmakerboughtin"})


def test_pipelines_list_stages_in_order(session):
    sign_in(session)
    pipes = {p["id"]: p for p in ok(session, "list_pipelines")}
    assert pipes["1170301"]["restrictSkippingStages"] and not pipes["default"]["restrictSkippingStages"]
    assert [s["id"] for s in pipes["default"]["stages"]][:2] == ["appointmentscheduled", "qualifiedtobuy"]
    closed = {s["id"]: s["requiredProperties"] for s in pipes["default"]["stages"] if s["isClosed"]}
    assert closed == {"closedwon": ["amount"], "closedlost": ["closed_lost_reason"]}


# ---------------------------------------------------------------- associations


def test_new_primary_company_replaces_the_old(session):
    sign_in(session)
    out = ok(
        session,
        "associate_records",
        {
            "from_object_type": "companies",
            "from_object_id": "18011",
            "to_object_type": "contacts",
            "to_object_id": "30001",
            "label": "primary",
        },
    )
    assert out["changed"] == ["company 18001 is no longer Primary"]
    links = labels_between(session, "contacts", "30001", "companies")
    assert links["18011"] == ["None", "Primary"] and "Primary" not in links["18001"]
    assert "Decision maker" in links["18001"]


def test_a_deal_has_one_billing_contact(session):
    sign_in(session)
    args = {
        "from_object_type": "deals",
        "from_object_id": "92002",
        "to_object_type": "contacts",
        "to_object_id": "30014",
        "label": "Billing contact",
    }
    fails(session, "associate_records", args, "InvalidRequest", "Association limit exceeded")
    drop = {**args, "to_object_id": "30001"}
    kept = ok(session, "remove_association", drop)
    assert [t["label"] for t in kept["associationTypes"]] == [None]  # still associated, unlabeled
    assert ok(session, "associate_records", args)
    fails(session, "remove_association", drop, "NotFound", "No Billing contact association")


def test_association_pairs_and_labels_are_checked(session):
    sign_in(session)
    pair = {"from_object_type": "tasks", "from_object_id": "61001", "to_object_type": "notes", "to_object_id": "74001"}
    fails(session, "associate_records", pair, "InvalidRequest", "not supported")
    bad = {
        "from_object_type": "contacts",
        "from_object_id": "30001",
        "to_object_type": "companies",
        "to_object_id": "18001",
        "label": "Partner",
    }
    fails(session, "associate_records", bad, "InvalidRequest", "Labels: Primary, Decision maker, Former employee")
    gone = {**bad, "to_object_id": "18999", "label": None}
    fails(session, "associate_records", gone, "NotFound", "Company 18999 not found")


def test_removing_the_association_drops_every_label(session):
    sign_in(session)
    args = {
        "from_object_type": "contacts",
        "from_object_id": "30014",
        "to_object_type": "deals",
        "to_object_id": "92001",
    }
    assert ok(session, "remove_association", args)["associationTypes"] == []
    assert "30014" not in labels_between(session, "deals", "92001", "contacts")
    fails(session, "remove_association", args, "NotFound", "No association")


# ---------------------------------------------------------------- search


def test_filter_groups_or_their_and_groups(session):
    sign_in(session)
    mine_open = {
        "filters": [
            {"propertyName": "hubspot_owner_id", "operator": "EQ", "value": "51001"},
            {"propertyName": "dealstage", "operator": "NOT_IN", "values": ["closedwon", "closedlost"]},
        ]
    }
    lost = deal_filter("dealstage", "EQ", value="closedlost")
    a = ok(session, "search_crm", {"object_type": "deals", "filter_groups": [mine_open], "limit": 200})
    b = ok(session, "search_crm", {"object_type": "deals", "filter_groups": [lost], "limit": 200})
    both = ok(session, "search_crm", {"object_type": "deals", "filter_groups": [mine_open, lost], "limit": 200})
    ids_a, ids_b = {r["id"] for r in a["results"]}, {r["id"] for r in b["results"]}
    assert {r["id"] for r in both["results"]} == ids_a | ids_b and ids_a and ids_b
    assert all(r["properties"]["hubspot_owner_id"] == "51001" for r in a["results"])


def test_search_operators_sort_and_paging(session):
    sign_in(session)
    unowned = ok(
        session,
        "search_crm",
        {"object_type": "companies", "filter_groups": [deal_filter("hubspot_owner_id", "NOT_HAS_PROPERTY")]},
    )
    assert "18011" in {r["id"] for r in unowned["results"]}
    linked = ok(
        session,
        "search_crm",
        {"object_type": "tasks", "filter_groups": [deal_filter("associations.deal", "EQ", value="92004")]},
    )
    assert {r["id"] for r in linked["results"]} == {"61002", "61005"}
    big = {"propertyName": "amount", "direction": "DESCENDING"}
    first = ok(session, "search_crm", {"object_type": "deals", "sorts": [big], "limit": 2})
    second = ok(
        session, "search_crm", {"object_type": "deals", "sorts": [big], "limit": 2, "after": first["paging_after"]}
    )
    amounts = [r["properties"]["amount"] for r in first["results"] + second["results"]]
    assert amounts == sorted(amounts, reverse=True) and first["total"] == second["total"] == 110
    named = ok(session, "search_crm", {"object_type": "contacts", "query": "hannah cole"})
    assert {r["id"] for r in named["results"]} == {"30003", "30017"}


def test_search_refuses_unknown_properties_and_too_many_filters(session):
    sign_in(session)
    fails(
        session,
        "search_crm",
        {"object_type": "deals", "filter_groups": [deal_filter("color", "EQ", value="red")]},
        "InvalidRequest",
        "Property 'color' does not exist on deals",
    )
    group = {"filters": [{"propertyName": "amount", "operator": "GT", "value": i} for i in range(9)]}
    fails(
        session,
        "search_crm",
        {"object_type": "deals", "filter_groups": [group] * 3},
        "InvalidRequest",
        "Too many filters",
    )


# ---------------------------------------------------------------- merge and archive


def test_merge_keeps_primary_values_and_moves_associations(session):
    sign_in(session)
    out = ok(session, "merge_contacts", {"primary_object_id": "30013", "object_id_to_merge": "30018"})
    assert out["contact"]["properties"]["phone"] == "+1 216 555 0147" and out["movedAssociations"] == 0
    fails(session, "get_contact", {"contact_id": "30018"}, "NotFound", "Contact 30018 not found")
    merged = ok(session, "merge_contacts", {"primary_object_id": "30001", "object_id_to_merge": "30002"})
    assert merged["contact"]["properties"]["email"] == "jordan.ellis@acmelogistics.com"
    fails(
        session,
        "merge_contacts",
        {"primary_object_id": "30001", "object_id_to_merge": "30001"},
        "InvalidRequest",
        "itself",
    )


def test_merge_brings_over_links_and_fills_blanks(session):
    sign_in(session)
    ok(
        session,
        "associate_records",
        {"from_object_type": "contacts", "from_object_id": "30002", "to_object_type": "deals", "to_object_id": "92011"},
    )
    out = ok(session, "merge_contacts", {"primary_object_id": "30017", "object_id_to_merge": "30002"})
    assert out["movedAssociations"] == 1 and out["contact"]["properties"]["phone"] == "+1 312 555 0198"
    assert "30017" in labels_between(session, "deals", "92011", "contacts")


def test_archived_records_leave_reads(session):
    sign_in(session)
    assert ok(session, "archive_record", {"object_type": "deals", "record_id": "92010"})["archived"] is True
    fails(session, "get_deal", {"deal_id": "92010"}, "NotFound", "OBJECT_NOT_FOUND")
    found = ok(session, "search_crm", {"object_type": "deals", "query": "Harbor Freightways"})
    assert "92010" not in {r["id"] for r in found["results"]}
    assert "92010" not in labels_between(session, "contacts", "30006", "deals")
    fails(session, "archive_record", {"object_type": "deals", "record_id": "92010"}, "NotFound", "Deal 92010")


def test_notes_default_to_the_signed_in_owner_and_tasks_need_a_due_time(session):
    sign_in(session)
    note = ok(session, "create_note", {"hs_note_body": "Called."})
    assert note["properties"]["hubspot_owner_id"] == "51001"
    task = ok(session, "create_task", {"hs_task_subject": "Call back", "hs_timestamp": "2026-03-20"})
    assert task["properties"]["hs_timestamp"] == "2026-03-20T00:00:00Z"
    assert task["properties"]["hs_task_status"] == "NOT_STARTED"
    fails(session, "create_task", {"hs_task_subject": "No due"}, "invalid_arguments", "hs_timestamp")
    done = ok(session, "update_task", {"task_id": task["id"], "hs_task_status": "COMPLETED"})
    assert done["properties"]["hs_task_status"] == "COMPLETED"
