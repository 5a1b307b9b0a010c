"""The Linear environment's tools on the real seed: sign-in (user only, deactivated accounts refused), private teams
invisible to non-members, issue creation (per-team identifiers, default state), the team estimate scales, assignees
(active team members only), label groups (one label each, groups never applied), parents without loops, cycles (own
team, not ended), projects and milestones, state timestamps, relations (duplicates move to a canceled state, one per
pair), archiving with sub-issues, comment threads and authorship, project completion and milestone rules, Relay-style
paging and Linear's GraphQL error shape. Every refused call is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("linear")
CLOCK = datetime(2026, 3, 10, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
TEAM = {t["key"]: t["id"] for t in SEED["teams"]}
KEY = {v: k for k, v in TEAM.items()}
USER = {u["name"]: u["id"] for u in SEED["users"]}
STATE = {(KEY[s["team_id"]], s["name"]): s["id"] for s in SEED["workflow_states"]}
LABEL = {(KEY[lb["team_id"]] if lb["team_id"] else None, lb["name"]): lb["id"] for lb in SEED["labels"]}
CYCLE = {(KEY[c["team_id"]], c["number"]): c["id"] for c in SEED["cycles"]}
PROJECT = {p["name"]: p["id"] for p in SEED["projects"]}
MILESTONE = {m["name"]: m["id"] for m in SEED["milestones"]}

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, email: str = "priya@tidewater.io") -> Any:
    return ok(session, "sign_in", {"email": email}, caller="user")


def new_issue(session: ToolSession, team: str = "ENG", **extra: Any) -> dict[str, Any]:
    return ok(session, "create_issue", {"team_id": TEAM[team], "title": "Test issue", **extra})


def error_body(outcome: Any) -> dict[str, Any]:
    return json.loads(outcome.error.split(": ", 1)[1])


def test_sign_in_is_the_users_and_deactivated_accounts_are_refused(session):
    fails(session, "get_viewer", {}, "PermissionDenied", "authentication_error")
    assert not session.call("sign_in", {"email": "priya@tidewater.io"}).ok
    fails(session, "sign_in", {"email": "jordan@tidewater.io"}, "PermissionDenied", "deactivated", "user")
    fails(session, "sign_in", {"email": "nobody@tidewater.io"}, "NotFound", "Entity not found: User", "user")
    me = sign_in(session, "PRIYA@tidewater.io")
    assert me["name"] == "Priya Raman" and me["teams"] == ["ENG", "PLAT"]


def test_private_team_and_its_issues_are_invisible_to_non_members(session):
    sign_in(session, "grace@tidewater.io")
    assert "PLAT" not in [t["key"] for t in ok(session, "list_teams")]
    outcome = fails(session, "get_issue", {"id": "PLAT-44"}, "NotFound", "Entity not found: Issue")
    assert error_body(outcome)["extensions"]["userPresentableMessage"] == "Could not find referenced Issue."
    fails(session, "list_workflow_states", {"team_id": TEAM["PLAT"]}, "NotFound", "Team")
    assert ok(session, "search_issues", {"query": "solver worker pool"})["nodes"] == []
    sign_in(session, "omar@tidewater.io")
    assert ok(session, "get_issue", {"id": "plat-44"})["identifier"] == "PLAT-44"


def test_create_issue_numbers_per_team_and_takes_the_default_state(session):
    sign_in(session)
    first = new_issue(session)
    second = new_issue(session, "PLAT")
    third = new_issue(session)
    assert (first["identifier"], second["identifier"], third["identifier"]) == ("ENG-117", "PLAT-45", "ENG-118")
    assert first["state"]["name"] == "Backlog" and first["creator"]["name"] == "Priya Raman"
    assert first["priorityLabel"] == "No priority"
    fails(
        session,
        "create_issue",
        {"team_id": TEAM["ENG"], "title": "x", "state_id": STATE[("MOB", "Todo")]},
        "InvalidRequest",
        "does not belong to the issue's team",
    )


def test_estimates_follow_each_teams_scale(session):
    sign_in(session, "nia@tidewater.io")
    fails(session, "update_issue", {"id": "ENG-104", "estimate": 4}, "InvalidRequest", "fibonacci scale")
    fails(session, "update_issue", {"id": "MOB-55", "estimate": 3}, "InvalidRequest", "exponential scale")
    fails(session, "update_issue", {"id": "DES-36", "estimate": 1}, "InvalidRequest", "does not use estimates")
    assert ok(session, "update_issue", {"id": "ENG-104", "estimate": 5})["estimate"] == 5
    assert ok(session, "update_issue", {"id": "MOB-55", "estimate": 4})["estimate"] == 4


def test_assignees_must_be_active_members_of_the_team(session):
    sign_in(session)
    fails(
        session, "update_issue", {"id": "ENG-110", "assignee_id": USER["Jordan Blake"]}, "InvalidRequest", "deactivated"
    )
    fails(
        session, "update_issue", {"id": "ENG-110", "assignee_id": USER["Alex Kimura"]}, "InvalidRequest", "not a member"
    )
    out = ok(session, "update_issue", {"id": "ENG-110", "assignee_id": USER["Alex Kim"]})
    assert out["assignee"]["name"] == "Alex Kim"
    assert ok(session, "update_issue", {"id": "ENG-110", "unassign": True})["assignee"] is None
    fails(
        session,
        "update_issue",
        {"id": "ENG-110", "assignee_id": USER["Alex Kim"], "unassign": True},
        "InvalidRequest",
        "not both",
    )


def test_label_groups_allow_one_label_and_are_never_applied_themselves(session):
    sign_in(session)
    sev1, sev2 = LABEL[(None, "sev-1")], LABEL[(None, "sev-2")]
    fails(session, "update_issue", {"id": "ENG-110", "added_label_ids": [sev1, sev2]}, "InvalidRequest", "Severity")
    fails(
        session,
        "update_issue",
        {"id": "ENG-110", "added_label_ids": [LABEL[(None, "Severity")]]},
        "InvalidRequest",
        "group",
    )
    fails(
        session, "update_issue", {"id": "ENG-110", "added_label_ids": [LABEL[("MOB", "ios")]]}, "NotFound", "IssueLabel"
    )
    # ENG-96 already carries sev-2: adding sev-1 conflicts unless sev-2 goes
    fails(session, "update_issue", {"id": "ENG-96", "added_label_ids": [sev1]}, "InvalidRequest", "only one label")
    out = ok(session, "update_issue", {"id": "ENG-96", "added_label_ids": [sev1], "removed_label_ids": [sev2]})
    assert "sev-1" in out["labels"] and "sev-2" not in out["labels"]


def test_parents_cannot_loop(session):
    sign_in(session)
    fails(session, "update_issue", {"id": "ENG-98", "parent_id": "ENG-98"}, "InvalidRequest", "own parent")
    fails(session, "update_issue", {"id": "ENG-98", "parent_id": "ENG-100"}, "InvalidRequest", "own parent")
    child = new_issue(session, parent_id="ENG-100")
    assert child["parent"] == "ENG-100"
    assert ok(session, "get_issue", {"id": "ENG-100"})["children"] == [child["identifier"]]


def test_cycles_are_the_own_teams_and_not_ended(session):
    sign_in(session)
    fails(session, "update_issue", {"id": "ENG-110", "cycle_id": CYCLE[("MOB", 5)]}, "InvalidRequest", "another team")
    fails(session, "update_issue", {"id": "ENG-110", "cycle_id": CYCLE[("ENG", 6)]}, "Conflict", "completed")
    fails(session, "list_cycles", {"team_id": TEAM["DES"]}, "InvalidRequest", "not enabled")
    current = [c for c in ok(session, "list_cycles", {"team_id": TEAM["ENG"]}) if c["isActive"]]
    assert [c["number"] for c in current] == [7]
    assert ok(session, "update_issue", {"id": "ENG-110", "cycle_id": CYCLE[("ENG", 8)]})["cycle"] == 8


def test_projects_and_milestones_must_fit_the_issue(session):
    sign_in(session)
    fails(
        session,
        "update_issue",
        {"id": "ENG-110", "project_id": PROJECT["Driver App 3.0"]},
        "InvalidRequest",
        "not part of",
    )
    fails(
        session, "update_issue", {"id": "ENG-110", "project_id": PROJECT["Q4 Onboarding Flow"]}, "Conflict", "completed"
    )
    fails(
        session,
        "update_issue",
        {"id": "ENG-110", "project_milestone_id": MILESTONE["Build"]},
        "InvalidRequest",
        "different project",
    )
    out = ok(
        session,
        "update_issue",
        {"id": "ENG-110", "project_id": PROJECT["Carrier Portal Redesign"], "project_milestone_id": MILESTONE["Build"]},
    )
    assert out["project"] == "Carrier Portal Redesign" and out["projectMilestone"]["name"] == "Build"


def test_state_changes_stamp_started_completed_and_canceled(session):
    sign_in(session)
    started = ok(session, "update_issue", {"id": "ENG-110", "state_id": STATE[("ENG", "In Progress")]})
    assert started["startedAt"] and started["completedAt"] is None
    done = ok(session, "update_issue", {"id": "ENG-110", "state_id": STATE[("ENG", "Done")]})
    assert done["completedAt"] and done["startedAt"] == started["startedAt"]
    reopened = ok(session, "update_issue", {"id": "ENG-110", "state_id": STATE[("ENG", "Todo")]})
    assert reopened["completedAt"] is None


def test_duplicates_move_to_a_canceled_state_and_pairs_relate_once(session):
    sign_in(session)
    fails(
        session,
        "create_issue_relation",
        {"issue_id": "ENG-97", "related_issue_id": "ENG-96", "type": "duplicate"},
        "Conflict",
        "already related",
    )
    fails(
        session,
        "create_issue_relation",
        {"issue_id": "ENG-96", "related_issue_id": "ENG-96", "type": "related"},
        "InvalidRequest",
        "itself",
    )
    ok(session, "create_issue_relation", {"issue_id": "ENG-105", "related_issue_id": "ENG-104", "type": "duplicate"})
    dup = ok(session, "get_issue", {"id": "ENG-105"})
    assert dup["state"]["name"] == "Duplicate" and dup["canceledAt"]
    assert [r["direction"] for r in dup["relations"]] == ["duplicate of"]
    ok(session, "create_issue_relation", {"issue_id": "MOB-50", "related_issue_id": "MOB-55", "type": "duplicate"})
    assert ok(session, "get_issue", {"id": "MOB-50"})["state"]["name"] == "Canceled"
    relation = dup["relations"][0]["id"]
    assert ok(session, "delete_issue_relation", {"id": relation})["success"]
    fails(session, "delete_issue_relation", {"id": relation}, "NotFound", "IssueRelation")


def test_archiving_takes_sub_issues_along_and_freezes_the_issue(session):
    sign_in(session)
    ok(session, "archive_issue", {"id": "ENG-98"})
    assert ok(session, "get_issue", {"id": "ENG-101"})["archivedAt"]
    fails(session, "update_issue", {"id": "ENG-98", "priority": 1}, "Conflict", "archived")
    fails(session, "archive_issue", {"id": "ENG-98"}, "Conflict", "already archived")
    fails(session, "create_comment", {"issue_id": "ENG-101", "body": "hi"}, "Conflict", "archived")
    hidden = ok(session, "search_issues", {"query": "pilot carrier"})["nodes"]
    shown = ok(session, "search_issues", {"query": "pilot carrier", "include_archived": True})["nodes"]
    assert "ENG-98" not in [i["identifier"] for i in hidden] and "ENG-98" in [i["identifier"] for i in shown]


def test_comments_thread_one_level_and_only_authors_edit(session):
    sign_in(session)
    thread = ok(session, "list_comments", {"issue_id": "ENG-96"})
    root, reply = thread[0], thread[1]
    assert reply["parentId"] == root["id"]
    mine = ok(session, "create_comment", {"issue_id": "ENG-96", "body": "Ack", "parent_id": reply["id"]})
    assert mine["parentId"] == root["id"]
    fails(session, "update_comment", {"id": root["id"], "body": "changed"}, "PermissionDenied", "your own comments")
    fails(session, "create_comment", {"issue_id": "ENG-96", "body": "   "}, "InvalidRequest", "empty")
    other = ok(session, "list_comments", {"issue_id": "ENG-104"})[0]["id"]
    fails(session, "create_comment", {"issue_id": "ENG-96", "body": "x", "parent_id": other}, "NotFound", "Comment")
    edited = ok(session, "update_comment", {"id": reply["id"], "body": "Edited"})
    assert edited["body"] == "Edited" and edited["editedAt"]


def test_project_completion_dates_lead_and_milestones(session):
    sign_in(session, "omar@tidewater.io")
    pg = PROJECT["Postgres 16 Upgrade"]
    fails(session, "update_project", {"id": pg, "state": "completed"}, "Conflict", "PLAT-39, PLAT-40, PLAT-41")
    fails(session, "update_project", {"id": pg, "target_date": "2026-01-01"}, "InvalidRequest", "before the start")
    fails(session, "update_project", {"id": pg, "lead_id": USER["Jordan Blake"]}, "InvalidRequest", "deactivated")
    fails(session, "create_project_milestone", {"project_id": pg, "name": "staging"}, "Conflict", "already exists")
    fails(
        session,
        "create_project_milestone",
        {"project_id": pg, "name": "Later", "target_date": "2026-04-30"},
        "InvalidRequest",
        "after the project",
    )
    made = ok(
        session, "create_project_milestone", {"project_id": pg, "name": "Replica rebuild", "target_date": "2026-03-24"}
    )
    assert [m["name"] for m in ok(session, "get_project", {"id": pg})["milestones"]][-1] == made["name"]
    for issue in ("PLAT-39", "PLAT-40", "PLAT-41"):
        ok(session, "update_issue", {"id": issue, "state_id": STATE[("PLAT", "Done")]})
    done = ok(session, "update_project", {"id": pg, "state": "completed"})
    assert done["state"] == "completed" and done["progress"] == 1.0 and done["completedAt"]
    sign_in(session)
    fails(
        session,
        "create_project_milestone",
        {"project_id": PROJECT["Q4 Onboarding Flow"], "name": "x"},
        "Conflict",
        "completed",
    )


def test_search_pages_relay_style(session):
    sign_in(session)
    first = ok(session, "search_issues", {"team_id": TEAM["ENG"], "first": 10})
    assert len(first["nodes"]) == 10 and first["pageInfo"]["hasNextPage"]
    second = ok(
        session, "search_issues", {"team_id": TEAM["ENG"], "first": 10, "after": first["pageInfo"]["endCursor"]}
    )
    assert not {i["id"] for i in first["nodes"]} & {i["id"] for i in second["nodes"]}
    triage = ok(session, "search_issues", {"team_id": TEAM["ENG"], "state_type": "triage"})["nodes"]
    assert {i["state"]["type"] for i in triage} == {"triage"}
    labelled = ok(session, "search_issues", {"label": "security", "team_id": TEAM["ENG"]})["nodes"]
    assert labelled and all("Security" in i["labels"] for i in labelled)
