"""The Asana environment's tools on the real seed: sign-in, workspaces and people (guests, removed members), project
privacy and access levels (private, team-private, comment-only), listing with offset tokens, task reads and search,
creating tasks and subtasks, due dates and times, start dates, completion, assignees and followers, sections and
multi-homing, dependencies (self, cycles, the 30-link limit, workspaces), tags, comments and deletion. Every error
path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("asana")
CLOCK = datetime(2026, 3, 9, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
USER = {u["name"]: u["gid"] for u in SEED["users"]}
TOKEN = {t["user"]: t["token"] for t in SEED["tokens"]}
WORKSPACE = {w["name"]: w["gid"] for w in SEED["workspaces"]}
FERN, HOME = WORKSPACE["Fernway Outfitters"], WORKSPACE["Personal Projects"]
PROJECT = {p["name"]: p["gid"] for p in SEED["projects"]}
SECTION = {(s["project"], s["name"]): s["gid"] for s in SEED["sections"]}
TAG = {(t["workspace"], t["name"]): t["gid"] for t in SEED["tags"]}
MAYA, DANIEL, SAMANTHA, VICTOR = "Maya Okonkwo", "Daniel Reyes", "Samantha Ortiz", "Victor Amari"

session = session_fixture(SPEC, CLOCK)


def task_gid(name: str, project: str | None = None) -> str:
    """The gid of the seed task named `name` (in `project` when names repeat)."""
    homes = {m["task"] for m in SEED["task_memberships"] if project and m["project"] == PROJECT[project]}
    (found,) = [t["gid"] for t in SEED["tasks"] if t["name"] == name and (not project or t["gid"] in homes)]
    return found


def sign_in(session: ToolSession, person: str) -> dict[str, Any]:
    return ok(session, "sign_in", {"token": TOKEN[USER[person]]}, caller="user")


def section(project: str, name: str) -> str:
    return SECTION[(PROJECT[project], name)]


def names(listing: dict[str, Any]) -> list[str]:
    return [item["name"] for item in listing["data"]]


# ---------------------------------------------------------------- signing in, people, workspaces


def test_sign_in_is_the_users_and_a_bad_token_is_not_authorized(session):
    fails(session, "get_me", {}, "PermissionDenied", "Not Authorized")
    outcome = session.call("sign_in", {"token": TOKEN[USER[MAYA]]})
    assert not outcome.ok and outcome.error_kind == "user_only"
    fails(session, "sign_in", {"token": "2/1/2:deadbeef"}, "PermissionDenied", "Not Authorized", caller="user")
    me = sign_in(session, MAYA)
    assert me["name"] == MAYA and {w["name"] for w in me["workspaces"]} == {"Fernway Outfitters", "Personal Projects"}
    assert ok(session, "get_me")["gid"] == USER[MAYA]


def test_people_list_leaves_out_removed_members_and_marks_guests(session):
    sign_in(session, MAYA)
    people = {p["name"]: p for p in ok(session, "list_users", {"workspace": FERN, "limit": 100})["data"]}
    assert "Ivy Torres" not in people and people[VICTOR]["is_guest"] and not people[MAYA]["is_guest"]
    assert people[MAYA]["teams"] == ["Leadership", "Marketing"]
    fails(
        session,
        "update_task",
        {"task": task_gid("Performance reviews for Sam and Zoe"), "assignee": USER["Ivy Torres"]},
        "PermissionDenied",
        "Ivy Torres is not a member of this workspace",
    )
    sign_in(session, DANIEL)
    fails(session, "list_users", {"workspace": HOME}, "NotFound", f"workspace: Unknown object: {HOME}")


def test_lists_page_with_offset_tokens_and_refuse_bad_ones(session):
    sign_in(session, MAYA)
    first = ok(session, "list_users", {"workspace": FERN, "limit": 10})
    assert len(first["data"]) == 10 and first["next_page"]["offset"]
    second = ok(session, "list_users", {"workspace": FERN, "limit": 10, "offset": first["next_page"]["offset"]})
    third = ok(session, "list_users", {"workspace": FERN, "limit": 10, "offset": second["next_page"]["offset"]})
    everyone = names(first) + names(second) + names(third)
    assert third["next_page"] is None and len(everyone) == len(set(everyone)) == 24
    fails(
        session,
        "list_users",
        {"workspace": FERN, "offset": "not-a-token"},
        "InvalidRequest",
        "pagination token is invalid",
    )
    assert not session.call("list_users", {"workspace": FERN, "limit": 101}).ok
    assert not session.call("list_users", {"workspace": FERN, "limit": 0}).ok


# ---------------------------------------------------------------- project privacy and access


def test_private_projects_are_invisible_to_non_members(session):
    sign_in(session, MAYA)
    visible = names(ok(session, "list_projects", {"workspace": FERN, "limit": 100}))
    assert "Board Meeting - March" not in visible and "Reno Warehouse Move" not in visible
    assert "Hiring: Senior Product Designer" in visible  # a commenter member
    fails(session, "get_project", {"project": PROJECT["Board Meeting - March"]}, "NotFound", "project: Unknown object")
    fails(session, "get_task", {"task": task_gid("CEO letter")}, "NotFound", "task: Unknown object")
    sign_in(session, SAMANTHA)  # an Operations team member sees the team-private project
    assert "Reno Warehouse Move" in names(ok(session, "list_projects", {"workspace": FERN, "limit": 100}))


def test_archived_filter_separates_the_near_duplicate_catalogs(session):
    sign_in(session, MAYA)
    archived = names(ok(session, "list_projects", {"workspace": FERN, "archived": True}))
    active = names(ok(session, "list_projects", {"workspace": FERN, "archived": False, "limit": 100}))
    assert (
        archived == ["Spring 2025 Catalog"] and "Spring 2026 Catalog" in active and "Spring 2025 Catalog" not in active
    )


def test_comment_only_access_allows_comments_and_followers_but_not_edits(session):
    sign_in(session, MAYA)
    project = ok(session, "get_project", {"project": PROJECT["Website Replatform"]})
    assert project["your_access_level"] == "commenter"
    redirects = task_gid("301 redirects from legacy URLs")
    fails(session, "update_task", {"task": redirects, "due_on": "2026-04-10"}, "PermissionDenied", "comment-only")
    fails(
        session,
        "create_task",
        {"name": "x", "projects": [PROJECT["Website Replatform"]]},
        "PermissionDenied",
        "comment-only",
    )
    fails(
        session,
        "add_dependencies",
        {"task": redirects, "dependencies": [task_gid("Performance budget and Lighthouse checks")]},
        "PermissionDenied",
        "comment-only",
    )
    story = ok(session, "add_comment", {"task": redirects, "text": "Can this land by 4/10?"})
    assert story["type"] == "comment" and story["created_by"]["gid"] == USER[MAYA]
    assert USER[MAYA] in {f["gid"] for f in ok(session, "get_task", {"task": redirects})["followers"]}


def test_project_default_access_is_comment_only_for_non_members(session):
    sign_in(session, MAYA)
    escalation = task_gid("Kayak arrived with cracked hull")
    fails(session, "update_task", {"task": escalation, "completed": True}, "PermissionDenied", "comment-only")
    sign_in(session, DANIEL)  # an editor member
    assert ok(session, "update_task", {"task": escalation, "completed": True})["completed"]


def test_guests_see_only_projects_shared_with_them(session):
    sign_in(session, VICTOR)
    visible = names(ok(session, "list_projects", {"workspace": FERN, "limit": 100}))
    assert sorted(visible) == ["Brand Refresh", "Spring 2026 Catalog"]
    fails(session, "get_task", {"task": task_gid("Build checkout flow")}, "NotFound", "Unknown object")
    mine = names(ok(session, "get_tasks", {"assignee": "me", "workspace": FERN}))
    assert "Layout first draft" in mine


# ---------------------------------------------------------------- reading tasks


def test_get_tasks_needs_exactly_one_scope(session):
    sign_in(session, MAYA)
    message = "Must specify exactly one of project, tag, section, user task list, or assignee + workspace"
    fails(session, "get_tasks", {}, "InvalidRequest", message)
    fails(session, "get_tasks", {"assignee": "me"}, "InvalidRequest", message)
    fails(
        session,
        "get_tasks",
        {"project": PROJECT["Spring 2026 Catalog"], "section": section("Spring 2026 Catalog", "Copy")},
        "InvalidRequest",
        message,
    )
    copy = names(ok(session, "get_tasks", {"section": section("Spring 2026 Catalog", "Copy")}))
    assert copy == [
        "Write trail running spread copy",
        "Write camp kitchen spread copy",
        "Write paddle spread copy",
        "Copyedit all spreads",
    ]


def test_completed_since_now_keeps_open_tasks_only(session):
    sign_in(session, MAYA)
    everything = ok(session, "get_tasks", {"project": PROJECT["Spring 2025 Catalog"]})["data"]
    assert len(everything) == 10 and all(t["completed"] for t in everything)
    assert ok(session, "get_tasks", {"project": PROJECT["Spring 2025 Catalog"], "completed_since": "now"})["data"] == []


def test_search_filters_by_text_assignee_tags_and_dates(session):
    sign_in(session, DANIEL)
    found = names(ok(session, "search_tasks", {"workspace": FERN, "text": "fern15"}))
    assert sorted(found) == [
        "Coupon FERN15 not working",
        "Coupon code FERN15 rejected at checkout",
        "Customers report FERN15 coupon failing",
    ]
    urgent = names(ok(session, "search_tasks", {"workspace": FERN, "tags_any": [TAG[(FERN, "urgent")]]}))
    assert urgent == ["Coupon code FERN15 rejected at checkout"]
    due = ok(
        session,
        "search_tasks",
        {
            "workspace": FERN,
            "assignee_any": [USER["Liam Chen"]],
            "completed": False,
            "due_on_before": "2026-03-12",
            "sort_by": "due_date",
            "sort_ascending": True,
        },
    )["data"]
    assert [t["due_on"] for t in due] == sorted(t["due_on"] for t in due) and all(
        t["due_on"] < "2026-03-12" for t in due
    )
    assert (
        ok(session, "search_tasks", {"workspace": FERN, "text": "Headline options", "is_subtask": False})["data"] == []
    )


def test_get_task_shows_memberships_dependencies_and_subtasks(session):
    sign_in(session, MAYA)
    shoot = ok(session, "get_task", {"task": task_gid("Trail shoot - Marin Headlands")})
    assert shoot["memberships"][0]["section"]["name"] == "Photography" and shoot["num_subtasks"] == 3
    assert [d["name"] for d in shoot["dependents"]] == ["Retouch selects"]
    subtasks = names(ok(session, "get_subtasks", {"task": shoot["gid"]}))
    assert sorted(subtasks) == ["Gear pull from warehouse", "Location permits", "Shot list"]


# ---------------------------------------------------------------- creating and changing tasks


def test_create_task_needs_a_workspace_or_projects_and_places_it_at_the_top(session):
    sign_in(session, MAYA)
    fails(
        session,
        "create_task",
        {"name": "Orphan"},
        "InvalidRequest",
        "You should specify one of workspace, parent, projects",
    )
    fails(session, "create_task", {"name": "   ", "workspace": FERN}, "invalid_arguments", "name: Missing input")
    catalog = PROJECT["Spring 2026 Catalog"]
    fails(
        session,
        "create_task",
        {"name": "x", "projects": [catalog], "section": section("Ridgeline 2 Launch", "Prep")},
        "InvalidRequest",
        "is not a section of the task's projects",
    )
    fails(
        session, "create_task", {"name": "x", "workspace": HOME, "projects": [catalog]}, "InvalidRequest", "workspace"
    )
    made = ok(
        session,
        "create_task",
        {
            "name": "Index page",
            "projects": [catalog],
            "section": section("Spring 2026 Catalog", "Layout"),
            "assignee": "hannah.cole@fernway.com",
            "due_on": "2026-03-25",
        },
    )
    assert made["memberships"][0]["section"]["name"] == "Layout" and made["assignee"]["name"] == "Hannah Cole"
    assert {f["name"] for f in made["followers"]} == {MAYA, "Hannah Cole"}
    layout = names(ok(session, "get_tasks", {"section": section("Spring 2026 Catalog", "Layout")}))
    assert layout[0] == "Index page"
    assert not session.call("create_task", {"name": "x", "workspace": FERN, "due_on": "none"}).ok  # nothing to clear
    fails(
        session,
        "create_task",
        {"name": "x", "workspace": FERN, "start_on": "2026-03-10"},
        "InvalidRequest",
        "must also have a due date",
    )
    timed = ok(session, "create_task", {"name": "Printer call", "workspace": FERN, "due_at": "2026-03-10T18:30:00Z"})
    assert (timed["due_on"], timed["due_at"]) == ("2026-03-10", "2026-03-10T18:30:00Z")
    loose = ok(session, "create_task", {"name": "Call the printer", "workspace": FERN})
    assert loose["projects"] == [] and loose["assignee"] is None


def test_due_on_and_due_at_exclude_each_other_and_start_needs_a_due_date(session):
    sign_in(session, MAYA)
    expenses = task_gid("Submit February expenses")
    fails(
        session,
        "update_task",
        {"task": expenses, "due_on": "2026-03-12", "due_at": "2026-03-12T17:00:00Z"},
        "InvalidRequest",
        "You may only provide one of due_on or due_at",
    )
    fails(
        session,
        "update_task",
        {"task": expenses, "start_on": "2026-03-12"},
        "InvalidRequest",
        "on or before the due date",
    )
    fails(
        session,
        "update_task",
        {"task": expenses, "due_on": "none", "start_on": "2026-03-09"},
        "InvalidRequest",
        "must also have a due date",
    )
    assert not session.call("update_task", {"task": expenses, "due_on": "next week"}).ok
    timed = ok(session, "update_task", {"task": expenses, "due_at": "2026-03-12T17:00:00Z"})
    assert (timed["due_on"], timed["due_at"]) == ("2026-03-12", "2026-03-12T17:00:00Z")
    dated = ok(session, "update_task", {"task": expenses, "due_on": "2026-03-13", "start_on": "2026-03-11"})
    assert (dated["due_on"], dated["due_at"], dated["start_on"]) == ("2026-03-13", None, "2026-03-11")
    cleared = ok(session, "update_task", {"task": expenses, "start_on": "none", "due_on": "none"})
    assert (cleared["due_on"], cleared["start_on"]) == (None, None)


def test_completing_records_who_and_when_and_leaves_subtasks_open(session):
    sign_in(session, MAYA)
    shoot = task_gid("Trail shoot - Marin Headlands")
    done = ok(session, "update_task", {"task": shoot, "completed": True})
    assert (
        done["completed"]
        and done["completed_by"]["gid"] == USER[MAYA]
        and done["completed_at"].startswith("2026-03-09T09:0")
    )
    assert any(not t["completed"] for t in ok(session, "get_subtasks", {"task": shoot})["data"])
    reopened = ok(session, "update_task", {"task": shoot, "completed": False})
    assert not reopened["completed"] and reopened["completed_at"] is None and reopened["completed_by"] is None


def test_assigning_makes_a_follower_and_none_unassigns(session):
    sign_in(session, MAYA)
    kit = task_gid("Cover concept options")
    moved = ok(session, "update_task", {"task": kit, "assignee": "zoe.park@fernway.com"})
    assert moved["assignee"]["name"] == "Zoe Park" and "Zoe Park" in {f["name"] for f in moved["followers"]}
    assert ok(session, "update_task", {"task": kit, "assignee": "none"})["assignee"] is None
    fails(
        session, "update_task", {"task": kit, "assignee": "nobody@fernway.com"}, "NotFound", "assignee: Unknown object"
    )


def test_subtasks_go_under_their_parent_outside_projects(session):
    sign_in(session, MAYA)
    parent = task_gid("Write camp kitchen spread copy", "Spring 2026 Catalog")
    sub = ok(
        session, "create_subtask", {"parent": parent, "name": "Headline options", "assignee": USER["Sam Whitfield"]}
    )
    assert sub["parent"]["gid"] == parent and sub["projects"] == [] and sub["workspace"]["gid"] == FERN
    assert ok(session, "get_task", {"task": parent})["num_subtasks"] == 1
    sign_in(session, VICTOR)  # a guest edits subtasks of the shared project's tasks
    assert ok(session, "get_task", {"task": sub["gid"]})["name"] == "Headline options"


# ---------------------------------------------------------------- projects and sections


def test_moving_to_a_section_needs_the_project_and_keeps_one_section_per_project(session):
    sign_in(session, MAYA)
    blog = task_gid("Blog: 10 trail running tips for spring")
    launch_week = section("Ridgeline 2 Launch", "Launch week")
    fails(
        session,
        "add_task_to_section",
        {"section": launch_week, "task": blog},
        "InvalidRequest",
        "add it to the project first",
    )
    ok(session, "add_project_to_task", {"task": blog, "project": PROJECT["Ridgeline 2 Launch"], "section": launch_week})
    ok(session, "add_task_to_section", {"section": section("Ridgeline 2 Launch", "Prep"), "task": blog})
    memberships = ok(session, "get_task", {"task": blog})["memberships"]
    assert sorted((m["project"]["name"], m["section"]["name"]) for m in memberships) == [
        ("Q2 Content Calendar", "April"),
        ("Ridgeline 2 Launch", "Prep"),
    ]
    fails(
        session,
        "add_project_to_task",
        {"task": blog, "project": PROJECT["Ridgeline 2 Launch"], "section": section("Spring 2026 Catalog", "Copy")},
        "InvalidRequest",
        "is not a section of Ridgeline 2 Launch",
    )
    fails(
        session,
        "add_project_to_task",
        {"task": blog, "project": PROJECT["Kitchen Renovation"]},
        "InvalidRequest",
        "another workspace",
    )


def test_insert_after_orders_tasks_within_a_section(session):
    sign_in(session, DANIEL)
    fixing = section("Website Bugs", "Fixing")
    anchor = task_gid("Size dropdown shows sold-out sizes")
    moved = task_gid("Order tracking link 404s for UPS orders")
    ok(session, "add_task_to_section", {"section": fixing, "task": moved, "insert_after": anchor})
    order = names(ok(session, "get_tasks", {"section": fixing}))
    assert (
        order.index("Order tracking link 404s for UPS orders") == order.index("Size dropdown shows sold-out sizes") + 1
    )
    fails(
        session,
        "add_task_to_section",
        {"section": fixing, "task": moved, "insert_before": anchor, "insert_after": anchor},
        "InvalidRequest",
        "only provide one of insert_before or insert_after",
    )
    fails(
        session,
        "add_task_to_section",
        {"section": fixing, "task": moved, "insert_after": task_gid("Build checkout flow")},
        "InvalidRequest",
        "is not in the section Fixing",
    )


def test_removing_a_project_keeps_the_task(session):
    sign_in(session, DANIEL)
    escalation = task_gid("Customers report FERN15 coupon failing")
    ok(session, "remove_project_from_task", {"task": escalation, "project": PROJECT["Website Bugs"]})
    assert [p["name"] for p in ok(session, "get_task", {"task": escalation})["projects"]] == [
        "Customer Support Escalations"
    ]
    fails(
        session,
        "remove_project_from_task",
        {"task": escalation, "project": PROJECT["Website Bugs"]},
        "InvalidRequest",
        "is not in Website Bugs",
    )


# ---------------------------------------------------------------- dependencies


def test_a_task_cannot_depend_on_itself_or_form_a_cycle(session):
    sign_in(session, DANIEL)
    checkout, qa = task_gid("Build checkout flow"), task_gid("Full regression pass")
    fails(
        session,
        "add_dependencies",
        {"task": checkout, "dependencies": [checkout]},
        "InvalidRequest",
        "cannot depend on itself",
    )
    fails(
        session, "add_dependencies", {"task": checkout, "dependencies": [qa]}, "InvalidRequest", "would create a cycle"
    )
    cutover = task_gid("Cutover to new storefront")  # cutover -> qa -> checkout -> payments: a longer loop
    fails(
        session,
        "add_dependencies",
        {"task": task_gid("Payments integration (Stripe)"), "dependencies": [cutover]},
        "InvalidRequest",
        "would create a cycle",
    )
    ok(
        session,
        "add_dependencies",
        {"task": qa, "dependencies": [task_gid("Performance budget and Lighthouse checks")]},
    )
    ok(session, "add_dependencies", {"task": qa, "dependencies": [checkout]})  # already linked: nothing changes
    assert len(ok(session, "get_task", {"task": qa})["dependencies"]) == 4


def test_dependencies_stay_in_one_workspace_and_within_thirty_links(session):
    sign_in(session, MAYA)
    fails(
        session,
        "add_dependencies",
        {"task": task_gid("Order fridge"), "dependencies": [task_gid("Submit February expenses")]},
        "InvalidRequest",
        "same workspace",
    )
    hub = task_gid("Team offsite planning")
    fillers = [t["gid"] for t in SEED["tasks"] if t["workspace"] == FERN and t["gid"] != hub][:31]

    def crowd(tables: dict[str, list[dict[str, Any]]]) -> None:
        tables["task_dependencies"] += [{"task": hub, "dependency": gid} for gid in fillers[:30]]

    restore_seed_with(session, crowd, CLOCK)
    sign_in(session, MAYA)
    assert len(ok(session, "get_task", {"task": hub})["dependencies"]) == 30
    fails(
        session,
        "add_dependencies",
        {"task": hub, "dependencies": [fillers[30]]},
        "InvalidRequest",
        "already has 30 dependencies and dependents",
    )
    fails(
        session,
        "add_dependencies",
        {"task": fillers[30], "dependencies": [hub]},
        "InvalidRequest",
        "already has 30 dependencies and dependents",
    )


def test_removing_a_dependency_that_is_not_there_fails(session):
    sign_in(session, MAYA)
    press, video = task_gid("Press release"), task_gid("Launch video edit")
    fails(
        session, "remove_dependencies", {"task": press, "dependencies": [video]}, "InvalidRequest", "does not depend on"
    )
    ok(session, "add_dependencies", {"task": press, "dependencies": [video]})
    ok(session, "remove_dependencies", {"task": press, "dependencies": [video]})
    assert ok(session, "get_task", {"task": video})["dependents"] == []


# ---------------------------------------------------------------- tags, comments, followers, deletion


def test_tags_belong_to_a_workspace(session):
    sign_in(session, MAYA)
    fern_tags = names(ok(session, "list_tags", {"workspace": FERN, "limit": 100}))
    assert "urgent" in fern_tags and "Urgent (old)" in fern_tags
    fridge = task_gid("Order fridge")
    fails(
        session,
        "add_tag_to_task",
        {"task": fridge, "tag": TAG[(FERN, "urgent")]},
        "InvalidRequest",
        "tag of another workspace",
    )
    ok(session, "add_tag_to_task", {"task": fridge, "tag": TAG[(HOME, "urgent")]})
    ok(session, "add_tag_to_task", {"task": fridge, "tag": TAG[(HOME, "urgent")]})  # twice: still one tag
    assert [t["gid"] for t in ok(session, "get_task", {"task": fridge})["tags"]] == [TAG[(HOME, "urgent")]]
    ok(session, "remove_tag_from_task", {"task": fridge, "tag": TAG[(HOME, "urgent")]})
    fails(
        session,
        "remove_tag_from_task",
        {"task": fridge, "tag": TAG[(HOME, "urgent")]},
        "InvalidRequest",
        "does not have the tag",
    )


def test_comments_are_stories_and_need_text(session):
    sign_in(session, MAYA)
    budget = task_gid("Confirm print budget with finance", "Spring 2026 Catalog")
    fails(session, "add_comment", {"task": budget, "text": "  "}, "invalid_arguments", "text: Missing input")
    ok(session, "add_comment", {"task": budget, "text": "Quote attached.", "is_pinned": True})
    stories = ok(session, "get_stories", {"task": budget})["data"]
    assert stories[-1]["text"] == "Quote attached." and stories[-1]["is_pinned"]
    assert [s["type"] for s in stories].count("comment") == 2


def test_followers_must_be_workspace_members(session):
    sign_in(session, MAYA)
    copy = task_gid("Write paddle spread copy")
    fails(
        session,
        "add_followers",
        {"task": copy, "followers": [USER["Ivy Torres"]]},
        "PermissionDenied",
        "not a member of this workspace",
    )
    after = ok(session, "add_followers", {"task": copy, "followers": ["nora.lindqvist@fernway.com", "me"]})
    assert {"Nora Lindqvist", MAYA} <= {f["name"] for f in after["followers"]}


def test_deleting_a_task_takes_its_subtasks_and_links(session):
    sign_in(session, DANIEL)
    checkout = task_gid("Build checkout flow")
    subtasks = [t["gid"] for t in ok(session, "get_subtasks", {"task": checkout})["data"]]
    ok(session, "delete_task", {"task": checkout})
    for gid in [checkout, *subtasks]:
        fails(session, "get_task", {"task": gid}, "NotFound", "task: Unknown object")
    assert "Build checkout flow" not in [
        d["name"] for d in ok(session, "get_task", {"task": task_gid("Full regression pass")})["dependencies"]
    ]
    sign_in(session, MAYA)
    fails(session, "delete_task", {"task": task_gid("Cart and mini-cart")}, "PermissionDenied", "comment-only")


@pytest.mark.parametrize("gid", ["abc", "12-34", ""])
def test_malformed_gids_fail_validation(session, gid):
    sign_in(session, MAYA)
    fails(session, "get_task", {"task": gid}, "invalid_arguments", "Not a recognized ID")


@pytest.mark.parametrize("person", [MAYA, VICTOR, SAMANTHA])
def test_search_sees_exactly_the_tasks_a_person_can_open(session, person):
    """Lists and search decide visibility set-wise in SQL; get_task decides it one task at a time: they agree."""
    sign_in(session, person)
    counts: dict[str, int] = {}
    for row in SEED["tasks"]:
        counts[row["name"]] = counts.get(row["name"], 0) + 1
    for row in SEED["tasks"]:
        if row["workspace"] != FERN or counts[row["name"]] > 1:
            continue
        opens = session.call("get_task", {"task": row["gid"]}).ok
        found = ok(session, "search_tasks", {"workspace": FERN, "text": row["name"], "limit": 100})["data"]
        assert opens == (row["gid"] in {t["gid"] for t in found}), (person, row["name"])
