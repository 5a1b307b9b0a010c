"""The Zendesk environment's tools: the ticket state machine, assignment, problems and incidents, macros, merges,
SLA targets, search, views and the end user's email actions, with every error path leaving the state unchanged.
Runs the real tools on the real seed."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("zendesk")
CLOCK = datetime(2025, 6, 10, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ME = SEED["account"][0]["current_user_id"]
GROUP = {g["name"]: g["id"] for g in SEED["groups"]}
USER = {u["name"]: u for u in SEED["users"]}
MACRO = {m["title"]: m["id"] for m in SEED["macros"]}
VIEW = {v["title"]: v["id"] for v in SEED["views"]}


def ticket(subject: str) -> dict[str, Any]:
    found = [t for t in SEED["tickets"] if t["subject"] == subject]
    assert len(found) == 1, subject
    return found[0]


PROBLEM = ticket("EU-West dashboards fail to load after 2.14 release")
LOOSE = ticket("Dashboard loading forever")  # an unlinked report of the same outage, new and unassigned
REFUND = ticket("Refund for duplicate charge on June invoice")  # pending, Billing
GAVIN_OLD, GAVIN_NEW = ticket("Backups failing for northwind-prod"), ticket("URGENT backups still failing")
KOFI_CLOSED = ticket("Private networking between us-west clusters")
W9 = ticket("Where can I download our W-9?")  # open, Tier 1, unassigned
HUGO = ticket("Charged for Business plan after downgrade")  # open, Tier 1, Jonas
MARCO = ticket("Email forwarding to Google Workspace")  # pending
ESME = ticket("Production database unreachable")  # new, urgent, enterprise
THEO = ticket("Raise instance limit before June 19 launch")  # solved, rating offered


session = session_fixture(SPEC, CLOCK)


def show(session: ToolSession, ticket_id: int) -> dict[str, Any]:
    return ok(session, "show_ticket", {"ticket_id": ticket_id})


def comments(session: ToolSession, ticket_id: int) -> list[dict[str, Any]]:
    return ok(session, "list_ticket_comments", {"ticket_id": ticket_id})


def search(session: ToolSession, query: str, **extra: Any) -> list[dict[str, Any]]:
    return ok(session, "search_tickets", {"query": query, "page_size": 100, **extra})["results"]


# ---------------------------------------------------------------- interface


def test_tools_and_email_actions_are_user_only(session):
    assert 12 <= len(SPEC.tools) <= 20
    assert sorted(t.name for t in SPEC.tools.values() if t.user_only) == ["rate_satisfaction", "reply_by_email"]
    assert SPEC.tools["show_current_user"].input_schema["properties"] == {}
    fails(
        session,
        "reply_by_email",
        {"from_email": "gavin.moreau@northwindtraders.com", "ticket_id": GAVIN_OLD["id"], "body": "hi"},
        "user_only",
        "",
    )
    assert ok(session, "show_current_user", {})["role"] == "admin"


# ---------------------------------------------------------------- search and views


def test_search_filters_comparisons_negation_and_or(session):
    unassigned = search(session, "status<solved assignee:none")
    assert unassigned and all(
        t["status"] in ("new", "open", "pending", "hold") and t["assignee_id"] is None for t in unassigned
    )
    assert len(unassigned) == sum(
        1 for t in SEED["tickets"] if t["status"] in ("new", "open", "pending", "hold") and t["assignee_id"] is None
    )
    either = search(session, "status:new status:hold")
    assert {t["status"] for t in either} == {"new", "hold"}
    urgent = search(session, "priority>=high -tags:enterprise status<solved")
    assert urgent and all(t["priority"] in ("high", "urgent") and "enterprise" not in t["tags"] for t in urgent)
    mine = search(session, "assignee:me")
    assert mine and all(t["assignee_id"] == ME for t in mine)
    halcyon = search(session, 'organization:"Halcyon Health" created>2025-06-03')
    assert halcyon and all(t["organization_id"] == 5501 and t["created_at"] >= "2025-06-04" for t in halcyon)


def test_search_free_text_reads_comments_and_sorts(session):
    found = search(session, '"decommissioned Redis"')  # only in an internal note of the problem
    assert [t["id"] for t in found] == [PROBLEM["id"]]
    oldest = search(session, "status:hold", sort_by="created_at", sort_order="asc")
    assert [t["created_at"] for t in oldest] == sorted(t["created_at"] for t in oldest)


def test_search_rejects_unknown_keywords_and_other_objects(session):
    fails(session, "search_tickets", {"query": "color:red"}, "InvalidRequest", "Unsupported search keyword 'color'")
    fails(session, "search_tickets", {"query": "type:user dana"}, "InvalidRequest", "only finds tickets")
    fails(session, "search_tickets", {"query": "priority:critical"}, "InvalidRequest", "not a valid priority")


def test_views_use_the_current_user_and_sla_order(session):
    mine = ok(session, "execute_view", {"view_id": VIEW["Your unsolved tickets"], "page_size": 100})["results"]
    assert mine and all(t["assignee_id"] == ME and t["status"] not in ("solved", "closed") for t in mine)
    breach = ok(session, "execute_view", {"view_id": VIEW["SLA: next breach"], "page_size": 5})["results"]
    assert breach[0]["id"] == ESME["id"]
    times = [min(m["breach_at"] for m in t["sla_metrics"] if m["stage"] == "active") for t in breach]
    assert times == sorted(times) and times[0] == "2025-06-10T09:15:00Z"
    fails(session, "execute_view", {"view_id": VIEW["Old escalations (retired)"]}, "InvalidRequest", "inactive")


# ---------------------------------------------------------------- SLA


def test_sla_policy_follows_tags_and_priority_and_a_reply_achieves_it(session):
    before = show(session, ESME["id"])
    assert before["sla_policy"]["title"] == "Enterprise"
    assert before["sla_metrics"] == [
        {"metric": "first_reply_time", "target_minutes": 30, "breach_at": "2025-06-10T09:15:00Z", "stage": "active"}
    ]
    ok(
        session,
        "update_ticket",
        {"ticket_id": ESME["id"], "assignee_id": ME, "comment_body": "We're on it.", "comment_public": True},
    )
    assert show(session, ESME["id"])["sla_metrics"][0]["stage"] == "achieved"
    unprioritised = next(t for t in SEED["tickets"] if t["priority"] is None and t["status"] == "open")
    assert show(session, unprioritised["id"])["sla_policy"] is None
    standard = ok(session, "update_ticket", {"ticket_id": W9["id"], "remove_tags": ["business"]})
    assert standard["sla_policy"]["title"] == "Standard"
    enterprise = ok(session, "update_ticket", {"ticket_id": W9["id"], "additional_tags": ["enterprise", "vip"]})
    assert enterprise["sla_policy"]["title"] == "Enterprise"  # the first matching policy wins


def test_an_internal_note_does_not_count_as_a_reply(session):
    ok(session, "update_ticket", {"ticket_id": ESME["id"], "comment_body": "Paging the DBA.", "comment_public": False})
    assert show(session, ESME["id"])["sla_metrics"][0]["stage"] == "active"


# ---------------------------------------------------------------- status, assignment, comments


def test_closed_tickets_are_final(session):
    fails(
        session,
        "update_ticket",
        {"ticket_id": KOFI_CLOSED["id"], "priority": "low"},
        "Conflict",
        "Status: closed prevents ticket update",
    )
    fails(
        session,
        "apply_macro",
        {"ticket_id": KOFI_CLOSED["id"], "macro_id": MACRO["Take it"]},
        "Conflict",
        "closed prevents",
    )


def test_status_rules(session):
    fails(session, "update_ticket", {"ticket_id": HUGO["id"], "status": "new"}, "InvalidRequest", "back to new")
    fails(
        session,
        "update_ticket",
        {"ticket_id": W9["id"], "status": "solved"},
        "InvalidRequest",
        "Assignee: is required when solving",
    )
    solved = ok(
        session,
        "update_ticket",
        {"ticket_id": W9["id"], "status": "solved", "assignee_id": ME, "comment_body": "Here it is."},
    )
    assert solved["status"] == "solved" and solved["solved_at"] is not None
    opened = ok(session, "update_ticket", {"ticket_id": LOOSE["id"], "assignee_id": ME})
    assert opened["status"] == "open" and opened["group_id"] == USER["Priya Raman"]["default_group_id"]


def test_assignee_must_be_an_agent_of_the_group(session):
    fails(
        session,
        "update_ticket",
        {"ticket_id": HUGO["id"], "assignee_id": USER["Olivia Grant"]["id"]},
        "InvalidRequest",
        "is not a member of the group 'Tier 1 Support'",
    )
    fails(
        session,
        "update_ticket",
        {"ticket_id": HUGO["id"], "assignee_id": USER["Hugo Sato"]["id"]},
        "InvalidRequest",
        "is an end user",
    )
    moved = ok(session, "update_ticket", {"ticket_id": HUGO["id"], "group_id": GROUP["Billing"]})
    assert moved["group_id"] == GROUP["Billing"] and moved["assignee_id"] is None  # Jonas isn't in Billing
    both = ok(
        session,
        "update_ticket",
        {"ticket_id": W9["id"], "group_id": GROUP["Billing"], "assignee_id": USER["Olivia Grant"]["id"]},
    )
    assert (both["group_id"], both["assignee_id"]) == (GROUP["Billing"], USER["Olivia Grant"]["id"])


def test_only_agents_write_internal_notes_and_requester_replies_reopen(session):
    marco = USER["Marco Romano"]["id"]
    fails(
        session,
        "update_ticket",
        {"ticket_id": MARCO["id"], "comment_body": "secret", "comment_public": False, "comment_author_id": marco},
        "PermissionDenied",
        "Only agents",
    )
    fails(
        session,
        "update_ticket",
        {"ticket_id": MARCO["id"], "comment_body": "hello", "comment_author_id": USER["Gavin Moreau"]["id"]},
        "PermissionDenied",
        "isn't the requester or a CC",
    )
    reopened = ok(
        session,
        "update_ticket",
        {"ticket_id": MARCO["id"], "comment_body": "Yes please set it up.", "comment_author_id": marco},
    )
    assert reopened["status"] == "open"
    last = comments(session, MARCO["id"])[-1]
    assert (last["author_id"], last["public"], last["body"]) == (marco, True, "Yes please set it up.")


def test_tags_ccs_and_subject(session):
    row = ok(
        session,
        "update_ticket",
        {
            "ticket_id": HUGO["id"],
            "additional_tags": ["Plan Change", "billing"],
            "remove_tags": ["starter"],
            "subject": "Downgrade not applied",
            "additional_collaborators": ["olivia.grant@kestrelcloud.io"],
        },
    )
    assert row["tags"] == ["billing", "plan", "change"]
    assert row["collaborator_ids"] == [USER["Olivia Grant"]["id"]] and row["subject"] == "Downgrade not applied"
    fails(
        session,
        "update_ticket",
        {"ticket_id": HUGO["id"], "additional_collaborators": ["nobody@nowhere.com"]},
        "NotFound",
        "No user with the email",
    )


# ---------------------------------------------------------------- problems, incidents and tasks


def test_problem_links_and_solving_a_problem_solves_its_incidents(session):
    fails(
        session,
        "update_ticket",
        {"ticket_id": LOOSE["id"], "problem_id": PROBLEM["id"]},
        "InvalidRequest",
        "only incidents",
    )
    fails(
        session,
        "update_ticket",
        {"ticket_id": LOOSE["id"], "type": "incident", "problem_id": HUGO["id"]},
        "InvalidRequest",
        "is not a problem ticket",
    )
    fails(session, "update_ticket", {"ticket_id": PROBLEM["id"], "type": "question"}, "Conflict", "linked incidents")
    ok(session, "update_ticket", {"ticket_id": LOOSE["id"], "type": "incident", "problem_id": PROBLEM["id"]})
    incidents = show(session, PROBLEM["id"])["incident_ids"]
    assert LOOSE["id"] in incidents and len(incidents) == 6
    closed_before = {i for i in incidents if show(session, i)["status"] == "closed"}
    ok(
        session,
        "update_ticket",
        {
            "ticket_id": PROBLEM["id"],
            "status": "solved",
            "comment_body": "The cache config was rolled back; dashboards load again.",
        },
    )
    for incident in incidents:
        row = show(session, incident)
        assert row["status"] == ("closed" if incident in closed_before else "solved")
        assert row["assignee_id"] is not None
        assert comments(session, incident)[-1]["body"] == "The cache config was rolled back; dashboards load again."
    assert show(session, LOOSE["id"])["assignee_id"] == PROBLEM["assignee_id"]


def test_due_dates_only_on_tasks(session):
    fails(
        session,
        "update_ticket",
        {"ticket_id": HUGO["id"], "due_at": "2025-06-20"},
        "InvalidRequest",
        "only be set on tasks",
    )
    task = ok(session, "update_ticket", {"ticket_id": HUGO["id"], "type": "task", "due_at": "2025-06-20"})
    assert task["due_at"] == "2025-06-20T12:00:00Z"
    assert ok(session, "update_ticket", {"ticket_id": HUGO["id"], "type": "question"})["due_at"] is None


# ---------------------------------------------------------------- create


def test_create_ticket_creates_requester_in_the_domain_org_with_its_tags(session):
    unknown = {"subject": "Hi", "comment_body": "Hello", "requester_email": "new@halcyonhealth.com"}
    fails(session, "create_ticket", unknown, "InvalidRequest", "give requester_name")
    row = ok(
        session,
        "create_ticket",
        {
            "subject": "VPN down",
            "comment_body": "Our site-to-site VPN is down.",
            "requester_email": "Ellen.Park@halcyonhealth.com",
            "requester_name": "Ellen Park",
            "priority": "high",
            "tags": ["vpn"],
            "group_id": GROUP["Tier 2 Technical"],
            "assignee_id": USER["Ravi Shah"]["id"],
        },
    )
    assert row["id"] == max(t["id"] for t in SEED["tickets"]) + 1
    assert row["status"] == "open" and row["organization_id"] == 5501
    assert row["tags"] == ["vpn", "enterprise", "vip", "hipaa"] and row["sla_policy"]["title"] == "Enterprise"
    person = ok(session, "search_users", {"query": "ellen.park"})["results"]
    assert [(p["name"], p["role"], p["organization_id"]) for p in person] == [("Ellen Park", "end-user", 5501)]
    assert comments(session, row["id"])[0]["author_id"] == ME
    fails(
        session,
        "create_ticket",
        {"subject": "x", "comment_body": "y", "requester_email": "seo.rankings.boost@mail-promo.biz"},
        "PermissionDenied",
        "suspended",
    )


# ---------------------------------------------------------------- macros


def test_macros_respect_restrictions_and_activity_and_fill_placeholders(session):
    fails(
        session,
        "apply_macro",
        {"ticket_id": REFUND["id"], "macro_id": MACRO["Billing: refund processed"]},
        "PermissionDenied",
        "only available to agents in its groups",
    )
    fails(
        session,
        "apply_macro",
        {"ticket_id": REFUND["id"], "macro_id": MACRO["Holiday hours notice (2024)"]},
        "InvalidRequest",
        "inactive",
    )
    ok(session, "create_group_membership", {"user_id": ME, "group_id": GROUP["Billing"]})
    row = ok(session, "apply_macro", {"ticket_id": REFUND["id"], "macro_id": MACRO["Billing: refund processed"]})
    assert row["status"] == "solved" and "refund_processed" in row["tags"]
    last = comments(session, REFUND["id"])[-1]
    assert last["public"] and last["body"].startswith("Hi Dana,") and "Priya, Kestrel Billing" in last["body"]


def test_escalation_macro_moves_group_and_unassigns_an_agent_outside_it(session):
    row = ok(session, "apply_macro", {"ticket_id": HUGO["id"], "macro_id": MACRO["Escalate to Tier 2"]})
    assert (row["group_id"], row["assignee_id"], row["priority"]) == (GROUP["Tier 2 Technical"], None, "high")
    note = comments(session, HUGO["id"])[-1]
    assert not note["public"] and note["body"] == "Escalated from Tier 1 by Priya Raman."
    taken = ok(session, "apply_macro", {"ticket_id": HUGO["id"], "macro_id": MACRO["Take it"]})
    assert taken["assignee_id"] == ME


# ---------------------------------------------------------------- merge


def test_merge_closes_sources_and_quotes_them_on_the_target(session):
    result = ok(session, "merge_tickets", {"target_ticket_id": GAVIN_OLD["id"], "source_ticket_ids": [GAVIN_NEW["id"]]})
    assert result["closed_source_ids"] == [GAVIN_NEW["id"]]
    assert show(session, GAVIN_NEW["id"])["status"] == "closed"
    source_note = comments(session, GAVIN_NEW["id"])[-1]
    assert source_note["public"] and f"merged into request #{GAVIN_OLD['id']}" in source_note["body"]
    target_note = comments(session, GAVIN_OLD["id"])[-1]
    assert target_note["public"] and GAVIN_NEW["description"] in target_note["body"]
    fails(session, "update_ticket", {"ticket_id": GAVIN_NEW["id"], "status": "open"}, "Conflict", "closed")


def test_merge_of_different_requesters_is_private_and_adds_ccs(session):
    result = ok(
        session,
        "merge_tickets",
        {"target_ticket_id": W9["id"], "source_ticket_ids": [HUGO["id"]], "target_comment": "Same billing question."},
    )
    assert result["target"]["collaborator_ids"] == [HUGO["requester_id"]]
    note = comments(session, W9["id"])[-1]
    assert not note["public"] and note["body"].startswith("Same billing question.")


def test_merge_rules(session):
    fails(
        session,
        "merge_tickets",
        {"target_ticket_id": HUGO["id"], "source_ticket_ids": [HUGO["id"]]},
        "InvalidRequest",
        "into itself",
    )
    fails(
        session,
        "merge_tickets",
        {"target_ticket_id": HUGO["id"], "source_ticket_ids": [KOFI_CLOSED["id"]]},
        "Conflict",
        "is closed and can't be merged",
    )
    fails(
        session,
        "merge_tickets",
        {"target_ticket_id": HUGO["id"], "source_ticket_ids": []},
        "invalid_arguments",
        "source_ticket_ids: give 1 to 5 different tickets",
    )
    fails(
        session,
        "merge_tickets",
        {"target_ticket_id": HUGO["id"], "source_ticket_ids": [KOFI_CLOSED["id"], KOFI_CLOSED["id"]]},
        "InvalidRequest",
        "1 to 5 different",
    )


# ---------------------------------------------------------------- users and groups


def test_users_and_group_memberships(session):
    user = ok(session, "create_user", {"name": "Tess Morgan", "email": "tess.morgan@vertexgames.gg"})
    assert user["organization_id"] == 5524 and user["role"] == "end-user"
    fails(
        session,
        "create_user",
        {"name": "Dup", "email": "DANA.whitfield@brightline-logistics.com"},
        "Conflict",
        "already being used",
    )
    fails(
        session,
        "create_user",
        {"name": "Bad", "email": "not-an-email"},
        "invalid_arguments",
        "email: is not a properly formatted email address",
    )
    fails(
        session,
        "create_group_membership",
        {"user_id": user["id"], "group_id": GROUP["Billing"]},
        "InvalidRequest",
        "only agents",
    )
    fails(
        session,
        "create_group_membership",
        {"user_id": ME, "group_id": GROUP["Tier 1 Support"]},
        "Conflict",
        "already a member",
    )
    agent = ok(session, "create_user", {"name": "Yuki Tanaka", "email": "yuki.tanaka@kestrelcloud.io", "role": "agent"})
    ok(session, "create_group_membership", {"user_id": agent["id"], "group_id": GROUP["Onboarding"], "default": True})
    groups = {g["name"]: g for g in ok(session, "list_groups", {})}
    assert {"user_id": agent["id"], "name": "Yuki Tanaka", "default": True} in groups["Onboarding"]["members"]


# ---------------------------------------------------------------- the end user's email


def test_reply_by_email_reopens_or_follows_up(session):
    ingrid = "ingrid.lindgren@halcyonhealth.com"
    fails(
        session,
        "reply_by_email",
        {"from_email": ingrid, "ticket_id": MARCO["id"], "body": "x"},
        "PermissionDenied",
        "isn't the requester or a CC",
        caller="user",
    )
    result = ok(
        session,
        "reply_by_email",
        {"from_email": "marco.romano@fjordline.no", "ticket_id": MARCO["id"], "body": "Yes, please set it up."},
        caller="user",
    )
    assert result == {
        "ticket_id": MARCO["id"],
        "comment_id": result["comment_id"],
        "status": "open",
        "follow_up_of": None,
    }
    follow = ok(
        session,
        "reply_by_email",
        {
            "from_email": "kofi.okonkwo@aurorarobotics.io",
            "ticket_id": KOFI_CLOSED["id"],
            "body": "Peering broke again.",
        },
        caller="user",
    )
    assert follow["follow_up_of"] == KOFI_CLOSED["id"] and follow["ticket_id"] != KOFI_CLOSED["id"]
    new = show(session, follow["ticket_id"])
    assert (new["subject"], new["via_followup_source_id"], new["assignee_id"], new["status"]) == (
        "Re: " + KOFI_CLOSED["subject"],
        KOFI_CLOSED["id"],
        KOFI_CLOSED["assignee_id"],
        "open",
    )
    assert show(session, KOFI_CLOSED["id"])["status"] == "closed"


def test_only_the_requester_rates_only_solved_tickets(session):
    theo = "theo.brennan@vertexgames.gg"
    fails(
        session,
        "rate_satisfaction",
        {"from_email": theo, "ticket_id": HUGO["id"], "score": "good"},
        "PermissionDenied",
        "Only the requester",
        caller="user",
    )
    fails(
        session,
        "rate_satisfaction",
        {"from_email": "kofi.okonkwo@aurorarobotics.io", "ticket_id": KOFI_CLOSED["id"], "score": "bad"},
        "InvalidRequest",
        "only solved tickets",
        caller="user",
    )
    first = ok(
        session,
        "rate_satisfaction",
        {"from_email": theo, "ticket_id": THEO["id"], "score": "bad", "comment": "Slow"},
        caller="user",
    )
    again = ok(
        session,
        "rate_satisfaction",
        {"from_email": theo, "ticket_id": THEO["id"], "score": "good", "comment": "Actually fine"},
        caller="user",
    )
    assert again["id"] == first["id"] and again["score"] == "good"
    assert show(session, THEO["id"])["satisfaction_rating"] == {"score": "good", "comment": "Actually fine"}
    bad = ok(session, "list_satisfaction_ratings", {"score": "bad", "start_time": "2025-06-01"})
    assert bad and all(r["score"] == "bad" and r["updated_at"] >= "2025-06-01" for r in bad)


# ---------------------------------------------------------------- bounds in the argument types


def test_schemas_show_the_bounds_the_tools_enforce():
    tools = SPEC.tools
    create = tools["create_ticket"].input_schema["properties"]
    assert create["subject"]["pattern"] == r"\S" and create["comment_body"]["minLength"] == 1
    assert "@" in create["requester_email"]["pattern"]
    due = create["due_at"]["anyOf"][0]["pattern"]
    assert due.startswith("^\\d{4}") and "T" in due
    merge = tools["merge_tickets"].input_schema["properties"]["source_ticket_ids"]
    assert (merge["minItems"], merge["maxItems"]) == (1, 5)
    for name in ("search_tickets", "search_users", "execute_view"):
        size = tools[name].input_schema["properties"]["page_size"]
        assert (size["minimum"], size["maximum"]) == (1, 100), name


def test_bad_values_fail_validation_with_zendesk_wording_and_change_nothing(session):
    bad = [
        ("update_ticket", {"ticket_id": HUGO["id"], "subject": "   "}, "subject: can't be blank"),
        ("update_ticket", {"ticket_id": HUGO["id"], "comment_body": ""}, "comment_body: can't be blank"),
        ("update_ticket", {"ticket_id": HUGO["id"], "type": "task", "due_at": "20 June"}, "due_at: use a date"),
        ("update_ticket", {"ticket_id": HUGO["id"], "additional_collaborators": ["x@"]}, "properly formatted"),
        ("create_ticket", {"subject": "Hi", "comment_body": "Hey", "requester_email": "a@b"}, "requester_email"),
        ("create_user", {"name": " ", "email": "tess.morgan@vertexgames.gg"}, "name: can't be blank"),
        ("reply_by_email", {"from_email": "x@y.com", "ticket_id": HUGO["id"], "body": " "}, "body: can't be blank"),
        ("search_tickets", {"query": "status:open", "page_size": 101}, "page_size"),
        ("search_tickets", {"query": "  "}, "query: The query is empty."),
        ("list_satisfaction_ratings", {"start_time": "last week"}, "start_time: use a date"),
        (
            "merge_tickets",
            {"target_ticket_id": HUGO["id"], "source_ticket_ids": [1, 2, 3, 4, 5, 6]},
            "give 1 to 5 different tickets",
        ),
    ]
    for name, args, text in bad:
        caller = "user" if name == "reply_by_email" else "agent"
        fails(session, name, args, "invalid_arguments", text, caller=caller)


def test_dates_are_real_calendar_dates(session):
    fails(
        session,
        "update_ticket",
        {"ticket_id": HUGO["id"], "type": "task", "due_at": "2025-02-30"},
        "InvalidRequest",
        "Due date '2025-02-30' is not a valid date",
    )
    fails(
        session,
        "update_ticket",
        {"ticket_id": HUGO["id"], "type": "task", "due_at": "2025-06-31T17:00:00Z"},
        "InvalidRequest",
        "Due date must be an ISO 8601 timestamp",
    )
    task = ok(session, "update_ticket", {"ticket_id": HUGO["id"], "type": "task", "due_at": "2025-06-20T17:00:00Z"})
    assert task["due_at"] == "2025-06-20T17:00:00Z"
    fails(session, "search_tickets", {"query": "created>2025-13-01"}, "InvalidRequest", "is not a valid date")
    fails(session, "search_tickets", {"query": "created>soon"}, "InvalidRequest", "or a span like 2days")


def test_satisfaction_ratings_filter_by_score_and_time(session):
    everything = ok(session, "list_satisfaction_ratings", {})
    assert len(everything) == len(SEED["satisfaction_ratings"])
    keys = [(r["updated_at"], r["id"]) for r in everything]
    assert keys == sorted(keys, reverse=True)
    bad = ok(session, "list_satisfaction_ratings", {"score": "bad", "start_time": "2025-06-01"})
    expected = {
        r["id"] for r in SEED["satisfaction_ratings"] if r["score"] == "bad" and r["updated_at"] >= "2025-06-01"
    }
    assert {r["id"] for r in bad} == expected and expected
    zoned = ok(session, "list_satisfaction_ratings", {"start_time": "2025-06-01T02:00:00+02:00"})
    assert {r["id"] for r in zoned} == {
        r["id"] for r in SEED["satisfaction_ratings"] if r["updated_at"] >= "2025-06-01"
    }
