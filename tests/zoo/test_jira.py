"""The Jira environment's tools on the real seed: permissions from project roles, JQL, field validation and default
assignees, workflow conditions and validators, editability, worklogs and estimates, links, watchers, restricted
comments, sprints (one active per board, completion, moving issues) and the user's own OAuth consent. Every error
path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("jira")
CLOCK = datetime(2025, 6, 12, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
USERS = {u["display_name"].split()[0]: u for u in SEED["users"]}
ISSUES = {i["key"]: i for i in SEED["issues"]}
SPRINTS = {s["name"]: s["id"] for s in SEED["sprints"]}
STATUS = {s["id"]: s for s in SEED["statuses"]}

session = session_fixture(SPEC, CLOCK)


def acct(first_name: str) -> str:
    return USERS[first_name]["account_id"]


def sign_in(session: ToolSession, first_name: str) -> None:
    ok(session, "authorize_app", {"email": USERS[first_name]["email_address"]}, caller="user")


def issue(session: ToolSession, key: str) -> dict:
    return ok(session, "get_issue", {"issue_key": key})


def keys(session: ToolSession, jql: str) -> list[str]:
    """Every key a search finds, over all its pages."""
    found, token = [], None
    while True:
        page = ok(session, "search_issues", {"jql": jql, "max_results": 25, "next_page_token": token})
        found += [i["key"] for i in page["issues"]]
        token = page["nextPageToken"]
        if page["isLast"]:
            return found


def transition_ids(session: ToolSession, key: str) -> list[str]:
    return [t["id"] for t in ok(session, "get_transitions", {"issue_key": key})]


# ---------------------------------------------------------------- interface and identity


def test_tools_and_the_consent_screen_is_user_only(session):
    assert len(SPEC.tools) == 21
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["authorize_app"]
    assert SPEC.tools["get_myself"].input_schema["properties"] == {}
    outcome = session.call("authorize_app", {"email": USERS["Priya"]["email_address"]})
    assert not outcome.ok and outcome.error_kind == "user_only"
    assert ok(session, "get_myself")["displayName"] == "Dana Whitfield"


def test_authorize_app_switches_who_the_assistant_acts_as(session):
    sign_in(session, "Lena")
    assert ok(session, "get_myself")["accountId"] == acct("Lena")
    fails(
        session,
        "authorize_app",
        {"email": USERS["Tomás"]["email_address"]},
        "PermissionDenied",
        "doesn't have access to Jira",
        caller="user",
    )
    fails(
        session,
        "authorize_app",
        {"email": USERS["Ethan"]["email_address"]},
        "PermissionDenied",
        "deactivated",
        caller="user",
    )
    fails(
        session,
        "authorize_app",
        {"email": USERS["Automation"]["email_address"]},
        "NotFound",
        "Atlassian account",
        caller="user",
    )
    assert ok(session, "get_myself")["accountId"] == acct("Lena")
    grants = session.dump()["authorizations"]  # one grant at a time
    assert list(grants) == ["current"] and grants["current"]["account_id"] == acct("Lena")


def test_without_a_grant_nothing_can_be_read(session):
    restore_seed_with(session, lambda tables: tables["authorizations"].clear(), CLOCK)
    fails(session, "get_myself", {}, "PermissionDenied", "must be authenticated")
    fails(session, "search_issues", {"jql": "project = MOB"}, "PermissionDenied", "must be authenticated")
    sign_in(session, "Dana")
    assert ok(session, "get_myself")["displayName"] == "Dana Whitfield"


def _schema(tool: str, argument: str) -> dict:
    """An argument's JSON schema, the optional ones' non-null branch."""
    found = SPEC.tools[tool].input_schema["properties"][argument]
    return next((b for b in found.get("anyOf", []) if b.get("type") != "null"), found)


def test_every_bound_a_tool_enforces_is_in_its_schema():
    assert (_schema("create_issue", "summary")["maxLength"], _schema("create_issue", "summary")["minLength"]) == (
        255,
        1,
    )
    assert _schema("create_issue", "priority")["enum"] == ["Highest", "High", "Medium", "Low", "Lowest"]
    assert _schema("create_issue", "issue_type")["enum"] == ["Epic", "Story", "Task", "Bug", "Subtask"]
    assert _schema("create_issue", "labels")["items"]["pattern"] == r"^\S+$"
    assert _schema("create_issue", "story_points")["minimum"] == 0
    assert _schema("create_issue", "due_date")["format"] == "date"
    assert "pattern" in _schema("add_worklog", "time_spent") and "pattern" in _schema("add_worklog", "started")
    assert _schema("transition_issue", "resolution")["enum"] == ["Done", "Won't Do", "Duplicate", "Cannot Reproduce"]
    assert _schema("add_comment", "body")["maxLength"] == 32767
    assert _schema("add_comment", "visibility_role")["enum"] == ["Administrators", "Developers", "Viewers"]
    assert _schema("link_issues", "link_type")["enum"] == ["Blocks", "Duplicate", "Relates", "Cloners"]
    assert _schema("create_sprint", "name")["maxLength"] == 30
    assert (
        _schema("move_issues_to_sprint", "issue_keys")["minItems"],
        _schema("move_issues_to_sprint", "issue_keys")["maxItems"],
    ) == (1, 50)
    assert _schema("search_issues", "max_results")["maximum"] == 25
    assert _schema("list_sprints", "max_results")["maximum"] == 50
    assert _schema("find_assignable_users", "max_results")["maximum"] == 100
    assert _schema("search_projects", "start_at")["minimum"] == 0


def test_times_with_a_zone_are_stored_in_utc(session):
    logged = ok(
        session, "add_worklog", {"issue_key": "MOB-102", "time_spent": "1h", "started": "2025-06-11T10:00:00+02:00"}
    )
    assert logged["started"] == "2025-06-11T08:00:00Z"
    sprint = ok(
        session,
        "create_sprint",
        {"board_id": 1, "name": "MOB Sprint 25", "start_date": "2025-06-30", "end_date": "2025-07-11 17:00"},
    )
    assert (sprint["startDate"], sprint["endDate"]) == ("2025-06-30T00:00:00Z", "2025-07-11T17:00:00Z")


# ---------------------------------------------------------------- permissions


def test_a_project_without_a_role_does_not_exist_for_the_user(session):
    assert "SEC" not in [p["key"] for p in ok(session, "search_projects")["results"]]
    fails(session, "get_issue", {"issue_key": "SEC-9"}, "NotFound", "does not exist or you do not have permission")
    fails(session, "get_project", {"project_key": "SEC"}, "NotFound", "No project could be found with key 'SEC'")
    fails(
        session,
        "search_issues",
        {"jql": "project = SEC"},
        "InvalidRequest",
        "The value 'SEC' does not exist for the field 'project'",
    )
    sign_in(session, "Rafael")
    assert issue(session, "SEC-9")["key"] == "SEC-9"


def test_a_viewer_can_comment_but_not_edit_assign_or_transition(session):
    assert "EDIT_ISSUES" not in ok(session, "get_project", {"project_key": "DATA"})["myPermissions"]
    fails(
        session,
        "edit_issue",
        {"issue_key": "DATA-22", "priority": "High"},
        "PermissionDenied",
        "permission to edit issues in project DATA",
    )
    fails(
        session,
        "assign_issue",
        {"issue_key": "DATA-22", "account_id": acct("Zoe")},
        "PermissionDenied",
        "assign issues",
    )
    assert ok(session, "get_transitions", {"issue_key": "DATA-22"}) == []
    fails(
        session,
        "transition_issue",
        {"issue_key": "DATA-22", "transition_id": "21"},
        "InvalidRequest",
        "Transition id '21' is not valid",
    )
    note = ok(session, "add_comment", {"issue_key": "DATA-22", "body": "Blocking our release review."})
    assert note["author"]["accountId"] == acct("Dana")


def test_get_project_shows_roles_and_the_callers_permissions(session):
    mob = ok(session, "get_project", {"project_key": "mob"})
    assert {"MANAGE_SPRINTS_PERMISSION", "CLOSE_ISSUES", "MANAGE_WATCHERS"} <= set(mob["myPermissions"])
    assert "Tomás Ribeiro" in [u["displayName"] for u in mob["roles"]["Developers"]]
    assert [c["name"] for c in mob["components"]][:2] == ["Accessibility", "Android"]
    assert [v["name"] for v in mob["versions"] if v["archived"]] == ["4.10.0", "4.11.0"]
    web = ok(session, "get_project", {"project_key": "WEB"})
    assert "EDIT_ISSUES" in web["myPermissions"]
    assert not {"CLOSE_ISSUES", "MANAGE_SPRINTS_PERMISSION", "MANAGE_WATCHERS"} & set(web["myPermissions"])


def test_assignable_users_are_active_licensed_role_holders(session):
    found = {u["displayName"] for u in ok(session, "find_assignable_users", {"project_key": "MOB"})}
    assert {"Dana Whitfield", "Kenji Watanabe", "Omar Haddad"} <= found
    assert not {"Tomás Ribeiro", "Ethan Brooks", "Priya Natarajan", "Kwame Mensah"} & found  # no licence, left, viewers
    assert [u["displayName"] for u in ok(session, "find_assignable_users", {"project_key": "OPS", "query": "dev"})] == [
        "Dev Patel"
    ]


# ---------------------------------------------------------------- JQL


def test_jql_filters_and_orders(session):
    jql = 'fixVersion = "4.13.0" AND resolution = Unresolved AND priority = Low'
    expected = sorted(
        (
            k
            for k, i in ISSUES.items()
            if "10003" in i["fix_version_ids"] and i["resolution_id"] is None and i["priority_id"] == "4"
        ),
        key=lambda k: int(k.split("-")[1]),
    )
    assert keys(session, jql + " ORDER BY key ASC") == expected
    assert keys(session, jql + " ORDER BY key DESC") == expected[::-1]
    by_priority = keys(session, "sprint = 10 ORDER BY priority DESC, key ASC")
    ranks = [int(ISSUES[k]["priority_id"]) for k in by_priority]
    assert ranks == sorted(ranks) and len(by_priority) == sum(i["sprint_id"] == 10 for i in ISSUES.values())


def test_jql_functions_empty_and_not_equal(session):
    mine = {k for k, i in ISSUES.items() if i["assignee_account_id"] == acct("Dana") and not k.startswith("SEC")}
    assert set(keys(session, "assignee = currentUser()")) == mine
    open_sprints = {k for k, i in ISSUES.items() if i["sprint_id"] in (10, 11, 12, 13, 14)}
    assert set(keys(session, "sprint in openSprints()")) == open_sprints
    unassigned = set(keys(session, "project = MOB AND sprint = 10 AND assignee IS EMPTY"))
    assert unassigned == {"MOB-103", "MOB-106"}
    not_kenji = set(keys(session, f"project = MOB AND sprint = 10 AND assignee != {acct('Kenji')}"))
    assert not unassigned & not_kenji and "MOB-107" not in not_kenji and "MOB-101" in not_kenji
    assert keys(session, 'text ~ "VoiceOver"') == ["MOB-105"]
    assert keys(session, "project = DATA AND duedate < 2025-01-01") == []


def test_jql_errors_are_reported_in_jiras_words(session):
    fails(session, "search_issues", {"jql": "colour = red"}, "InvalidRequest", "Field 'colour' does not exist")
    fails(session, "search_issues", {"jql": "summary = crash"}, "InvalidRequest", "operator '=' is not supported")
    fails(
        session,
        "search_issues",
        {"jql": "status = Shipped"},
        "InvalidRequest",
        "The value 'Shipped' does not exist for the field 'status'",
    )
    fails(session, "search_issues", {"jql": "created > yesterday"}, "InvalidRequest", "Date value 'yesterday'")
    fails(session, "search_issues", {"jql": "(project = MOB"}, "InvalidRequest", "Expecting ')'")
    fails(session, "search_issues", {"jql": "project = MOB ORDER BY colour"}, "InvalidRequest", "Not able to sort")


def test_search_pages_through_results(session):
    total = sum(i["project_id"] == "10000" for i in ISSUES.values())
    seen, token = [], None
    while True:
        page = ok(session, "search_issues", {"jql": "project = MOB", "next_page_token": token})
        assert page["total"] == total and len(page["issues"]) == min(20, total - len(seen))
        seen += [i["key"] for i in page["issues"]]
        token = page["nextPageToken"]
        if page["isLast"]:
            break
    assert len(seen) == len(set(seen)) == total and token is None
    fails(session, "search_issues", {"jql": "project = MOB", "next_page_token": "abc"}, "InvalidRequest", "cursor")
    fails(
        session,
        "search_issues",
        {"jql": "project = MOB", "max_results": 26},
        "invalid_arguments",
        "max_results: Input should be less than or equal to 25",
    )


def test_project_search_and_sprint_lists_paginate(session):
    first = ok(session, "search_projects", {"max_results": 2})
    assert [p["key"] for p in first["results"]] == ["DATA", "MOB"] and first["next_cursor"] == "2"
    rest = ok(session, "search_projects", {"max_results": 2, "start_at": 2})
    assert [p["key"] for p in rest["results"]] == ["OPS", "WEB"] and not rest["has_more"]
    board = [s for s in SEED["sprints"] if s["board_id"] == 1]
    page = ok(session, "list_sprints", {"board_id": 1, "max_results": 4})
    assert len(page["results"]) == 4 and page["has_more"] and page["next_cursor"] == "4"
    tail = ok(session, "list_sprints", {"board_id": 1, "start_at": 4, "max_results": 4})
    assert len(page["results"]) + len(tail["results"]) == len(board)
    assert [s["name"] for s in ok(session, "list_sprints", {"board_id": 1, "state": ["active"]})["results"]] == [
        "MOB Sprint 23"
    ]


# ---------------------------------------------------------------- creating and editing issues


def test_create_issue_takes_the_next_key_and_the_component_lead(session):
    counter = next(p["issue_counter"] for p in SEED["projects"] if p["key"] == "MOB")
    made = ok(
        session,
        "create_issue",
        {
            "project_key": "MOB",
            "issue_type": "Story",
            "summary": "Refund flow",
            "components": ["Payments"],
            "story_points": 5,
            "parent_key": "MOB-3",
        },
    )
    assert made["key"] == f"MOB-{counter + 1}" and made["status"]["name"] == "To Do"
    assert made["assignee"]["displayName"] == "Marcus Bell" and made["parent"] == "MOB-3"
    assert made["reporter"]["accountId"] == acct("Dana") and made["watches"]["isWatching"]
    again = ok(session, "create_issue", {"project_key": "MOB", "issue_type": "Task", "summary": "Another"})
    assert again["key"] == f"MOB-{counter + 2}" and int(again["id"]) == int(made["id"]) + 1
    assert again["assignee"] is None  # MOB's default assignee is Unassigned


def test_default_assignee_skips_an_inactive_component_lead(session):
    widget = ok(
        session,
        "create_issue",
        {"project_key": "MOB", "issue_type": "Bug", "summary": "Widget bug", "components": ["Widgets"]},
    )
    assert widget["assignee"] is None and widget["status"]["name"] == "Open"  # Ethan left; Bugs use the bug workflow
    web = ok(session, "create_issue", {"project_key": "WEB", "issue_type": "Task", "summary": "Footer copy"})
    assert web["assignee"]["displayName"] == "Priya Natarajan"  # WEB's default assignee is the project lead


def test_create_issue_validates_fields(session):
    base = {"project_key": "MOB", "issue_type": "Story", "summary": "New story"}
    fails(
        session,
        "create_issue",
        {**base, "labels": ["ux debt"]},
        "invalid_arguments",
        "labels.0: A label can't contain spaces",
    )
    fails(session, "create_issue", {**base, "fix_versions": ["4.11.0"]}, "InvalidRequest", "archived")
    fails(session, "create_issue", {**base, "components": ["Web"]}, "InvalidRequest", "Component name 'Web'")
    fails(session, "create_issue", {**base, "summary": "x" * 256}, "invalid_arguments", "less than 255 characters")
    fails(session, "create_issue", {**base, "summary": "Two\nlines"}, "invalid_arguments", "summary: You must specify")
    fails(session, "create_issue", {**base, "summary": "  "}, "invalid_arguments", "summary: You must specify")
    fails(session, "create_issue", {**base, "priority": "Urgent"}, "invalid_arguments", "priority selected is invalid")
    fails(session, "create_issue", {**base, "issue_type": "Feature"}, "invalid_arguments", "valid issue type")
    fails(session, "create_issue", {**base, "story_points": -1}, "invalid_arguments", "positive number")
    fails(
        session, "create_issue", {**base, "original_estimate": "2 days"}, "invalid_arguments", "Invalid time duration"
    )
    fails(session, "create_issue", {**base, "parent_key": "MOB-101"}, "InvalidRequest", "must be an epic")
    fails(session, "create_issue", {**base, "issue_type": "Subtask"}, "InvalidRequest", "parent issue key")
    fails(
        session,
        "create_issue",
        {**base, "issue_type": "Subtask", "parent_key": "MOB-101", "story_points": 2},
        "InvalidRequest",
        "customfield_10016",
    )
    fails(
        session,
        "create_issue",
        {**base, "project_key": "OPS", "issue_type": "Epic"},
        "InvalidRequest",
        "not valid in project OPS",
    )
    fails(
        session, "create_issue", {**base, "assignee_account_id": acct("Tomás")}, "InvalidRequest", "cannot be assigned"
    )


def test_a_subtask_joins_its_parents_sprint(session):
    made = ok(
        session,
        "create_issue",
        {"project_key": "MOB", "issue_type": "Subtask", "summary": "Sheet a11y", "parent_key": "MOB-101"},
    )
    assert made["sprint"] == "MOB Sprint 23" and made["parent"] == "MOB-101"
    assert made["key"] in [s["key"] for s in issue(session, "MOB-101")["subtasks"]]


def test_edit_issue_labels_versions_and_estimates(session):
    before = ISSUES["MOB-103"]["labels"]
    edited = ok(
        session,
        "edit_issue",
        {
            "issue_key": "MOB-103",
            "add_labels": ["ios", "crash"],
            "remove_labels": ["regression"],
            "fix_versions": ["4.14.0", "5.0.0"],
            "original_estimate": "1d 4h",
        },
    )
    assert edited["labels"] == [label for label in before if label != "regression"] + ["ios"]
    assert edited["fixVersions"] == ["4.14.0", "5.0.0"]
    assert issue(session, "MOB-103")["timetracking"]["remainingEstimateSeconds"] == 12 * 3600
    fails(session, "edit_issue", {"issue_key": "MOB-103"}, "InvalidRequest", "No fields to update")
    fails(session, "edit_issue", {"issue_key": "MOB-103", "due_date": "12/06/2025"}, "invalid_arguments", "yyyy-MM-dd")
    fails(
        session, "edit_issue", {"issue_key": "MOB-103", "due_date": "2025-02-30"}, "InvalidRequest", "not a valid date"
    )
    fails(session, "edit_issue", {"issue_key": "MOB-123", "story_points": 1}, "InvalidRequest", "customfield_10016")


def test_assignment_needs_an_assignable_user(session):
    for name in ("Tomás", "Ethan", "Priya"):  # no Jira licence, deactivated, only a viewer in MOB
        fails(
            session,
            "assign_issue",
            {"issue_key": "MOB-103", "account_id": acct(name)},
            "InvalidRequest",
            "cannot be assigned issues",
        )
    assert (
        ok(session, "assign_issue", {"issue_key": "MOB-103", "account_id": "-1"})["assignee"]["displayName"]
        == "Kenji Watanabe"
    )  # the iOS component's lead
    assert ok(session, "assign_issue", {"issue_key": "MOB-103", "account_id": None})["assignee"] is None


# ---------------------------------------------------------------- workflows


def test_only_the_assignee_can_start_progress_on_a_bug(session):
    assert "4" not in transition_ids(session, "MOB-105")  # assigned to Tomás
    fails(
        session,
        "transition_issue",
        {"issue_key": "MOB-105", "transition_id": "4"},
        "InvalidRequest",
        "not valid for this issue",
    )
    ok(session, "assign_issue", {"issue_key": "MOB-105", "account_id": acct("Dana")})
    assert "4" in transition_ids(session, "MOB-105")
    assert (
        ok(session, "transition_issue", {"issue_key": "MOB-105", "transition_id": "4"})["status"]["name"]
        == "In Progress"
    )


def test_resolving_needs_a_resolution_and_reopening_clears_it(session):
    fails(
        session,
        "transition_issue",
        {"issue_key": "MOB-104", "transition_id": "5"},
        "InvalidRequest",
        "Resolution is required",
    )
    fails(
        session,
        "transition_issue",
        {"issue_key": "MOB-104", "transition_id": "5", "resolution": "Fixed"},
        "invalid_arguments",
        "resolution selected is invalid",
    )
    done = ok(
        session,
        "transition_issue",
        {
            "issue_key": "MOB-104",
            "transition_id": "5",
            "resolution": "Won't Do",
            "fix_versions": ["4.13.0"],
            "comment": "Works as intended.",
        },
    )
    assert (done["status"]["name"], done["resolution"], done["fixVersions"]) == ("Resolved", "Won't Do", ["4.13.0"])
    full = issue(session, "MOB-104")
    assert full["resolutiondate"] and full["comments"][-1]["body"] == "Works as intended."
    reopened = ok(session, "transition_issue", {"issue_key": "MOB-104", "transition_id": "3"})
    assert (reopened["status"]["name"], reopened["resolution"]) == ("Reopened", None)
    assert issue(session, "MOB-104")["resolutiondate"] is None


def test_closing_is_for_project_administrators(session):
    assert "2" not in transition_ids(session, "WEB-70")  # Dana is a developer in WEB
    assert "2" in transition_ids(session, "MOB-110")  # and an administrator in MOB
    sign_in(session, "Priya")
    closed = ok(session, "transition_issue", {"issue_key": "WEB-70", "transition_id": "2"})
    assert (closed["status"]["name"], closed["resolution"]) == ("Closed", "Done")  # keeps its resolution


def test_screens_validators_and_default_resolutions(session):
    fails(
        session,
        "transition_issue",
        {"issue_key": "MOB-106", "transition_id": "21"},
        "InvalidRequest",
        "Assignee is required",
    )
    fails(
        session,
        "transition_issue",
        {"issue_key": "MOB-102", "transition_id": "21", "resolution": "Done"},
        "InvalidRequest",
        "cannot be set",
    )
    done = ok(session, "transition_issue", {"issue_key": "MOB-102", "transition_id": "41"})
    assert (done["status"]["name"], done["resolution"]) == ("Done", "Done")
    back = ok(session, "transition_issue", {"issue_key": "MOB-102", "transition_id": "11"})
    assert (back["status"]["name"], back["resolution"]) == ("To Do", None)
    sign_in(session, "Hannah")
    fails(
        session,
        "transition_issue",
        {"issue_key": "OPS-41", "transition_id": "41"},
        "InvalidRequest",
        "Resolution is required",
    )  # the ops workflow's Done has a resolution validator


def test_a_closed_issue_must_be_reopened_before_editing(session):
    fails(session, "edit_issue", {"issue_key": "MOB-87", "priority": "Highest"}, "Conflict", "doesn't allow edits")
    fails(session, "add_worklog", {"issue_key": "MOB-87", "time_spent": "1h"}, "Conflict", "doesn't allow edits")
    fails(
        session, "assign_issue", {"issue_key": "MOB-87", "account_id": acct("Dana")}, "Conflict", "doesn't allow edits"
    )
    ok(session, "add_comment", {"issue_key": "MOB-87", "body": "Still seeing this on 18.5."})
    assert transition_ids(session, "MOB-87") == ["3"]
    ok(session, "transition_issue", {"issue_key": "MOB-87", "transition_id": "3"})
    assert ok(session, "edit_issue", {"issue_key": "MOB-87", "priority": "Highest"})["priority"] == "Highest"


# ---------------------------------------------------------------- worklogs, links, watchers, comments


def test_worklogs_move_time_spent_and_the_remaining_estimate(session):
    start = ISSUES["MOB-102"]
    log = ok(
        session,
        "add_worklog",
        {"issue_key": "MOB-102", "time_spent": "3h", "started": "2025-06-11", "comment": "Mapping errors"},
    )
    assert (log["timeSpent"], log["started"]) == ("3h", "2025-06-11T00:00:00Z")
    tracking = issue(session, "MOB-102")["timetracking"]
    assert tracking["remainingEstimateSeconds"] == start["remaining_estimate"] - 3 * 3600
    assert tracking["timeSpentSeconds"] == start["time_spent"] + 3 * 3600
    ok(
        session,
        "add_worklog",
        {"issue_key": "MOB-102", "time_spent": "1d", "adjust_estimate": "new", "new_estimate": "5h"},
    )
    assert issue(session, "MOB-102")["timetracking"]["remainingEstimate"] == "5h"
    ok(
        session,
        "add_worklog",
        {"issue_key": "MOB-102", "time_spent": "30m", "adjust_estimate": "manual", "reduce_by": "2w"},
    )
    assert issue(session, "MOB-102")["timetracking"]["remainingEstimateSeconds"] == 0  # never below zero
    fails(
        session,
        "add_worklog",
        {"issue_key": "MOB-102", "time_spent": "three hours"},
        "invalid_arguments",
        "Invalid time duration",
    )
    fails(session, "add_worklog", {"issue_key": "MOB-102", "time_spent": "0m"}, "InvalidRequest", "at least one minute")
    fails(
        session,
        "add_worklog",
        {"issue_key": "MOB-102", "time_spent": "1h", "started": "yesterday"},
        "invalid_arguments",
        "started: Invalid date",
    )
    fails(
        session,
        "add_worklog",
        {"issue_key": "MOB-102", "time_spent": "1h", "adjust_estimate": "new"},
        "InvalidRequest",
        "newEstimate is required",
    )


def test_links_read_from_both_sides_and_are_not_repeated(session):
    made = ok(
        session, "link_issues", {"link_type": "Blocks", "outward_issue_key": "MOB-103", "inward_issue_key": "MOB-125"}
    )
    assert made["relation"] == "MOB-103 blocks MOB-125"

    def links(key: str) -> list[tuple[str, str]]:
        return [(link["relation"], link["issue"]["key"]) for link in issue(session, key)["issuelinks"]]

    assert ("blocks", "MOB-125") in links("MOB-103") and ("is blocked by", "MOB-103") in links("MOB-125")
    fails(
        session,
        "link_issues",
        {"link_type": "Blocks", "outward_issue_key": "MOB-103", "inward_issue_key": "MOB-125"},
        "Conflict",
        "already blocks",
    )
    fails(
        session,
        "link_issues",
        {"link_type": "Relates", "outward_issue_key": "MOB-103", "inward_issue_key": "MOB-103"},
        "InvalidRequest",
        "to itself",
    )
    fails(
        session,
        "link_issues",
        {"link_type": "Causes", "outward_issue_key": "MOB-103", "inward_issue_key": "MOB-125"},
        "invalid_arguments",
        "No issue link type",
    )
    fails(
        session,
        "link_issues",
        {"link_type": "Relates", "outward_issue_key": "DATA-22", "inward_issue_key": "MOB-125"},
        "PermissionDenied",
        "link issues in project DATA",
    )


def test_watching_others_needs_manage_watchers(session):
    added = ok(session, "add_watcher", {"issue_key": "MOB-120", "account_id": acct("Omar")})
    assert "Omar Haddad" in [w["displayName"] for w in added["watchers"]]
    fails(
        session,
        "add_watcher",
        {"issue_key": "MOB-120", "account_id": acct("Grace")},
        "InvalidRequest",
        "does not have permission to view this issue",
    )  # Grace has no role in MOB
    fails(
        session,
        "add_watcher",
        {"issue_key": "WEB-61", "account_id": acct("Priya")},
        "PermissionDenied",
        "manage the watchers",
    )  # Dana is only a developer in WEB
    mine = ok(session, "add_watcher", {"issue_key": "WEB-61"})
    assert (
        mine["isWatching"] and mine["watchCount"] == ok(session, "add_watcher", {"issue_key": "WEB-61"})["watchCount"]
    )  # watching twice changes nothing


def test_restricted_comments_need_the_role_and_are_hidden_from_others(session):
    fails(
        session,
        "add_comment",
        {"issue_key": "WEB-61", "body": "Admins only", "visibility_role": "Administrators"},
        "InvalidRequest",
        "not a member of the project role",
    )
    fails(session, "add_comment", {"issue_key": "WEB-61", "body": "   "}, "invalid_arguments", "can not be empty")
    fails(session, "add_comment", {"issue_key": "WEB-61", "body": "x" * 32768}, "invalid_arguments", "32767")
    fails(
        session,
        "add_comment",
        {"issue_key": "WEB-61", "body": "Hi", "visibility_role": "Staff"},
        "invalid_arguments",
        "Invalid role level",
    )
    note = ok(
        session, "add_comment", {"issue_key": "MOB-121", "body": "Card network bug", "visibility_role": "Developers"}
    )
    assert note["visibility"] == {"type": "role", "value": "Developers"}
    assert issue(session, "MOB-121")["watches"]["isWatching"]  # commenting watches the issue
    sign_in(session, "Kwame")  # a viewer in MOB
    assert "Card network bug" not in [c["body"] for c in issue(session, "MOB-121")["comments"]]


# ---------------------------------------------------------------- boards and sprints


def test_a_board_has_one_active_sprint_and_starting_needs_dates(session):
    sprint24 = SPRINTS["MOB Sprint 24"]
    fails(
        session,
        "update_sprint",
        {"sprint_id": sprint24, "state": "active", "start_date": "2025-06-16", "end_date": "2025-06-27"},
        "Conflict",
        "already has an active sprint",
    )
    ok(session, "update_sprint", {"sprint_id": SPRINTS["MOB Sprint 23"], "state": "closed"})
    fails(
        session,
        "update_sprint",
        {"sprint_id": sprint24, "state": "active"},
        "InvalidRequest",
        "needs a start date and an end date",
    )
    fails(
        session,
        "update_sprint",
        {"sprint_id": sprint24, "start_date": "2025-06-27", "end_date": "2025-06-16"},
        "InvalidRequest",
        "end date must be after",
    )
    started = ok(
        session,
        "update_sprint",
        {"sprint_id": sprint24, "state": "active", "start_date": "2025-06-16", "end_date": "2025-06-27"},
    )
    assert (started["state"], started["startDate"]) == ("active", "2025-06-16T00:00:00Z")
    fails(
        session,
        "update_sprint",
        {"sprint_id": SPRINTS["MOB Sprint 23"], "goal": "Rewrite history"},
        "Conflict",
        "closed and can't be changed",
    )


def test_completing_a_sprint_sends_unfinished_work_to_the_backlog(session):
    in_sprint = {k for k, i in ISSUES.items() if i["sprint_id"] == SPRINTS["MOB Sprint 23"]}
    unfinished = {k for k in in_sprint if STATUS[ISSUES[k]["status_id"]]["category"] != "done"}
    ok(session, "update_sprint", {"sprint_id": SPRINTS["MOB Sprint 23"], "state": "closed"})
    assert keys(session, "sprint in openSprints() AND project = MOB") == keys(session, "sprint = 12")
    assert set(keys(session, "sprint = 10")) == in_sprint  # the closed sprint stays in their history
    backlog = set(keys(session, "project = MOB AND sprint not in openSprints() AND statusCategory != Done"))
    assert unfinished <= backlog
    assert issue(session, "MOB-101")["closedSprints"] == ["MOB Sprint 23"]
    fails(
        session,
        "update_sprint",
        {"sprint_id": SPRINTS["MOB Sprint 24"], "state": "closed"},
        "Conflict",
        "only an active sprint can be completed",
    )


def test_moving_issues_into_a_sprint(session):
    target = SPRINTS["MOB Sprint 24"]
    moved = ok(session, "move_issues_to_sprint", {"sprint_id": target, "issue_keys": ["MOB-116", "MOB-109"]})
    assert moved["movedIssues"] == ["MOB-116", "MOB-124", "MOB-109"]  # the subtask follows its parent
    assert issue(session, "MOB-124")["sprint"] == "MOB Sprint 24"
    fails(
        session,
        "move_issues_to_sprint",
        {"sprint_id": target, "issue_keys": ["MOB-123"]},
        "InvalidRequest",
        "is a subtask; move its parent MOB-101",
    )
    fails(
        session,
        "move_issues_to_sprint",
        {"sprint_id": target, "issue_keys": ["WEB-61"]},
        "InvalidRequest",
        "not on the board",
    )
    fails(
        session,
        "move_issues_to_sprint",
        {"sprint_id": SPRINTS["MOB Sprint 22"], "issue_keys": ["MOB-109"]},
        "Conflict",
        "is closed",
    )
    fails(
        session,
        "move_issues_to_sprint",
        {"sprint_id": target, "issue_keys": []},
        "invalid_arguments",
        "between 1 and 50",
    )
    fails(
        session,
        "move_issues_to_sprint",
        {"sprint_id": target, "issue_keys": [f"MOB-{n}" for n in range(51)]},
        "invalid_arguments",
        "between 1 and 50",
    )


def test_kanban_boards_have_no_sprints_and_sprints_need_manage_sprints(session):
    fails(session, "list_sprints", {"board_id": 3}, "InvalidRequest", "does not support sprints")
    fails(session, "create_sprint", {"board_id": 3, "name": "Ops 1"}, "InvalidRequest", "does not support sprints")
    fails(session, "create_sprint", {"board_id": 2, "name": "WEB Sprint 43"}, "PermissionDenied", "manage sprints")
    fails(session, "create_sprint", {"board_id": 1, "name": "M" * 31}, "invalid_arguments", "1 to 30 characters")
    fails(session, "create_sprint", {"board_id": 1, "name": " "}, "invalid_arguments", "1 to 30 characters")
    fails(session, "list_sprints", {"board_id": 5}, "NotFound", "Board 5 does not exist")  # the Security board
    made = ok(session, "create_sprint", {"board_id": 1, "name": "MOB Sprint 25", "goal": "Offline beta"})
    assert made["id"] == max(SPRINTS.values()) + 1 and made["state"] == "future"
    assert [b["id"] for b in ok(session, "list_boards")] == [1, 2, 3, 4]
