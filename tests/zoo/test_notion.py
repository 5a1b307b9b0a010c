"""Notion's rules: the trash (a page goes with everything in it: sub-pages, child databases and their rows, comes
back with it, and emptying the trash leaves no page whose parent is gone), what the integration can see
(connections), locked pages, property values against a database's schema, blocks, and the bounds the argument
types carry with Notion's validation_error wording. Runs the real tools on the real seed through ToolSession; every
failure changes nothing."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from envfactory_gym import resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("notion")
CLOCK = datetime(2025, 1, 15, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]


def page(title: str) -> str:
    return next(p["id"] for p in SEED["pages"] if p["title"] == title and p["parent_type"] != "database_id")


def database(title: str) -> str:
    return next(d["id"] for d in SEED["databases"] if d["title"] == title)


def children(parent_id: str) -> list[str]:
    return [p["id"] for p in SEED["pages"] if p["parent_id"] == parent_id]


def row(title: str) -> str:
    return next(p["id"] for p in SEED["pages"] if p["title"] == title and p["parent_type"] == "database_id")


def block(page_id: str, text: str) -> str:
    return next(b["id"] for b in SEED["blocks"] if b["page_id"] == page_id and b["text"].startswith(text))


MEETING_NOTES, MARKETING, TEAM_HOME = page("Meeting Notes"), page("Marketing"), page("Team Home")
HR, ENGINEERING_WIKI = page("HR Policies"), page("Engineering Wiki")
CONTENT_CALENDAR, TASKS, CANDIDATES = database("Content Calendar"), database("Tasks"), database("Candidates")
MAYA = next(u["id"] for u in SEED["users"] if u["name"] == "Maya Chen")
BOT = next(u["id"] for u in SEED["users"] if u["role"] == "integration")
SEED_TRASHED = {p["id"] for p in SEED["pages"] if p["in_trash"]}

session = session_fixture(SPEC, CLOCK)


def in_trash(session, page_id: str) -> bool:
    return ok(session, "retrieve_page", {"page_id": page_id})["in_trash"]


def test_sub_pages_go_to_the_trash_and_come_back_with_their_page(session):
    notes = children(MEETING_NOTES)
    assert len(notes) == 7
    ok(session, "move_page_to_trash", {"page_id": MEETING_NOTES})
    assert all(in_trash(session, note) for note in notes)
    fails(session, "update_page", {"page_id": notes[0], "title": "x"}, "Conflict", "in the trash")
    found = ok(session, "search_pages", {"query": "sync", "page_size": 100})["results"]
    assert not {r["id"] for r in found} & set(notes)
    ok(session, "restore_page", {"page_id": MEETING_NOTES})
    assert not any(in_trash(session, note) for note in [MEETING_NOTES, *notes])


def test_child_databases_and_their_rows_go_along(session):
    rows = children(CONTENT_CALENDAR)
    assert rows
    ok(session, "move_page_to_trash", {"page_id": MARKETING})
    fails(session, "query_database", {"database_id": CONTENT_CALENDAR}, "NotFound", "Could not find database")
    assert all(in_trash(session, row) for row in rows)
    ok(session, "restore_page", {"page_id": MARKETING})
    listed = ok(session, "query_database", {"database_id": CONTENT_CALENDAR, "page_size": 100})["results"]
    assert {r["id"] for r in listed} == set(rows) - SEED_TRASHED


def test_a_page_trashed_on_its_own_stays_there_when_its_parent_comes_back(session):
    first, second = children(MEETING_NOTES)[:2]
    ok(session, "move_page_to_trash", {"page_id": first})
    ok(session, "move_page_to_trash", {"page_id": MEETING_NOTES})
    fails(session, "restore_page", {"page_id": second}, "Conflict", "went to the trash with 'Meeting Notes'")
    ok(session, "restore_page", {"page_id": MEETING_NOTES})
    assert in_trash(session, first) and not in_trash(session, second)


def test_emptying_the_trash_deletes_whole_subtrees_and_leaves_no_orphans(session):
    before = session.dump()
    ok(session, "move_page_to_trash", {"page_id": MARKETING})
    subtree = {MARKETING, *children(MARKETING), *children(CONTENT_CALENDAR)}
    report = ok(session, "empty_trash")
    assert report["deleted_pages"] == len(subtree | SEED_TRASHED)
    after = session.dump()
    assert len(after["pages"]) == len(before["pages"]) - report["deleted_pages"]
    assert CONTENT_CALENDAR not in after["databases"]
    kept = set(after["pages"]) | set(after["databases"])
    assert all(p["parent_id"] in kept for p in after["pages"].values() if p["parent_type"] != "workspace")
    assert all(b["page_id"] in after["pages"] for b in after["blocks"].values())


# ---------------------------------------------------------------- what the integration sees and may change


def test_pages_not_shared_with_the_integration_answer_not_found_until_the_user_connects_them(session):
    fails(session, "retrieve_page", {"page_id": HR}, "NotFound", "shared with your integration")
    fails(session, "query_database", {"database_id": CANDIDATES}, "NotFound", "Could not find database")
    assert not ok(session, "search_pages", {"query": "HR Policies"})["results"]
    fails(session, "add_connection", {"page_title": "HR Policies"}, "user_only", "only be performed by the user")
    shared = ok(session, "add_connection", {"page_title": "HR Policies"}, caller="user")
    assert HR in shared
    assert ok(session, "retrieve_page", {"page_id": HR})["title"] == "HR Policies"
    assert {r["title"] for r in ok(session, "query_database", {"database_id": CANDIDATES})["results"]} >= {
        "Offer: backend engineer (A. Silva)"
    }
    fails(session, "add_connection", {"page_title": "No such page"}, "NotFound", "No page titled", caller="user")


def test_locked_pages_are_read_only_and_trashed_pages_must_be_restored_first(session):
    assert ok(session, "retrieve_page", {"page_id": TEAM_HOME})["locked"]
    fails(session, "update_page", {"page_id": TEAM_HOME, "title": "Home"}, "PermissionDenied", "is locked")
    fails(session, "move_page_to_trash", {"page_id": TEAM_HOME}, "PermissionDenied", "is locked")
    fails(session, "create_page", {"title": "Note", "parent_page_id": TEAM_HOME}, "PermissionDenied", "is locked")
    old_ideas = page("Old campaign ideas")
    fails(
        session,
        "append_block_children",
        {"page_id": old_ideas, "children": [{"text": "x"}]},
        "Conflict",
        "Restore it first",
    )
    fails(session, "create_comment", {"page_id": old_ideas, "text": "x"}, "Conflict", "in the trash")
    fails(session, "move_page_to_trash", {"page_id": old_ideas}, "Conflict", "already in the trash")
    fails(session, "restore_page", {"page_id": MARKETING}, "Conflict", "is not in the trash")


def test_new_pages_need_exactly_one_parent_and_are_authored_by_the_integration(session):
    fails(session, "create_page", {"title": "Orphan"}, "InvalidRequest", "exactly one parent")
    fails(
        session,
        "create_page",
        {"title": "Both", "parent_page_id": ENGINEERING_WIKI, "database_id": TASKS},
        "InvalidRequest",
        "exactly one parent",
    )
    fails(
        session,
        "create_page",
        {"title": "Wiki page", "parent_page_id": ENGINEERING_WIKI, "properties": {"Status": "Done"}},
        "InvalidRequest",
        "only be set on pages in a",
    )
    created = ok(
        session,
        "create_page",
        {
            "title": "  Glossary ",
            "parent_page_id": ENGINEERING_WIKI,
            "children": [{"type": "heading_1", "text": "Terms"}, {"type": "to_do", "text": "Add ETA"}],
        },
    )
    assert created["title"] == "Glossary" and created["created_by"] == BOT
    content = ok(session, "retrieve_block_children", {"page_id": created["id"]})["results"]
    assert [(b["type"], b["position"], b["checked"]) for b in content] == [("heading_1", 0, None), ("to_do", 1, False)]


# ---------------------------------------------------------------- property values


@pytest.mark.parametrize(
    "properties, text",
    [
        ({"Colour": "Red"}, "Colour is not a property that exists"),
        ({"Status": "Waiting"}, "Invalid status option 'Waiting' for Status"),
        ({"Priority": "P1"}, "Invalid select option 'P1' for Priority"),
        ({"Assignee": "Maya Chen"}, "Assignee must be the id of a workspace person"),
        ({"Assignee": BOT}, "Assignee must be the id of a workspace person"),
        ({"Due": "Feb 3"}, "Due must be a date like 2025-02-03"),
        ({"Due": "2025-02-30"}, "'2025-02-30' is not a valid date"),
        ({"Estimate": "three"}, "Estimate must be a number"),
        ({"Estimate": True}, "Estimate must be a number"),
    ],
)
def test_property_values_are_checked_against_the_database_schema(session, properties, text):
    fails(
        session,
        "create_page",
        {"title": "Task", "database_id": TASKS, "properties": properties},
        "InvalidRequest",
        text,
    )
    fails(session, "update_page", {"page_id": row("Rotate API keys"), "properties": properties}, "InvalidRequest", text)


def test_updating_properties_keeps_the_others_and_only_database_rows_have_them(session):
    rotate = row("Rotate API keys")
    before = ok(session, "retrieve_page", {"page_id": rotate})["properties"]
    after = ok(session, "update_page", {"page_id": rotate, "properties": {"Assignee": MAYA, "Due": "2025-02-03"}})
    assert after["properties"] == {**before, "Assignee": MAYA, "Due": "2025-02-03"}
    fails(
        session,
        "update_page",
        {"page_id": ENGINEERING_WIKI, "properties": {"Status": "Done"}},
        "InvalidRequest",
        "only be set on pages in a database",
    )
    fails(session, "update_page", {"page_id": rotate}, "InvalidRequest", "Nothing to update")


# ---------------------------------------------------------------- blocks


def test_only_to_do_blocks_have_a_checkbox_and_dividers_have_no_text(session):
    release = page("Release process")
    heading = next(b for b in SEED["blocks"] if b["page_id"] == release and b["type"] != "to_do")
    fails(
        session,
        "update_block",
        {"block_id": heading["id"], "checked": True},
        "InvalidRequest",
        f"this block is a {heading['type']}",
    )
    fails(
        session,
        "append_block_children",
        {"page_id": release, "children": [{"type": "quote", "checked": True}]},
        "InvalidRequest",
        "only valid for to_do blocks",
    )
    divider = ok(session, "append_block_children", {"page_id": release, "children": [{"type": "divider"}]})[0]
    fails(session, "update_block", {"block_id": divider["id"], "text": "x"}, "InvalidRequest", "divider block has no")
    fails(session, "update_block", {"block_id": divider["id"]}, "InvalidRequest", "Nothing to update")
    ok(session, "delete_block", {"block_id": divider["id"]})
    fails(session, "delete_block", {"block_id": divider["id"]}, "NotFound", "not found")


# ---------------------------------------------------------------- bounds in the argument types


def test_bounds_are_in_the_schema_and_refused_with_notions_wording(session):
    tools = SPEC.tools
    size = tools["search_pages"].input_schema["properties"]["page_size"]
    assert (size["minimum"], size["maximum"]) == (1, 100)
    assert tools["query_database"].input_schema["properties"]["page_size"]["maximum"] == 100
    assert tools["create_comment"].input_schema["properties"]["text"]["maxLength"] == 2000
    children = tools["append_block_children"].input_schema["properties"]["children"]
    assert (children["minItems"], children["maxItems"]) == (1, 100)
    fails(
        session,
        "search_pages",
        {"page_size": 101},
        "invalid_arguments",
        "body failed validation: body.page_size should be",
    )
    fails(
        session,
        "retrieve_block_children",
        {"page_id": MARKETING, "page_size": 0},
        "invalid_arguments",
        "query failed validation: query.page_size",
    )
    fails(session, "query_database", {"database_id": TASKS, "page_size": 500}, "invalid_arguments", "body.page_size")
    fails(
        session,
        "create_page",
        {"title": "  ", "parent_page_id": ENGINEERING_WIKI},
        "invalid_arguments",
        "body.title should be a non-empty text",
    )
    fails(session, "update_page", {"page_id": ENGINEERING_WIKI, "title": ""}, "invalid_arguments", "body.title")
    fails(
        session,
        "create_comment",
        {"page_id": MARKETING, "text": "x" * 2001},
        "invalid_arguments",
        "body.rich_text[0].text.content",
    )
    assert tools["update_block"].input_schema["properties"]["text"]["anyOf"][0]["maxLength"] == 2000
    block = next(b for b in SEED["blocks"] if b["page_id"] == page("Release process") and b["type"] != "divider")
    fails(
        session,
        "update_block",
        {"block_id": block["id"], "text": "x" * 2001},
        "invalid_arguments",
        "text: body failed validation: body.rich_text[0].text.content should be at most 2000 characters",
    )
    assert ok(session, "update_block", {"block_id": block["id"], "text": "x" * 2000})["text"] == "x" * 2000
    fails(
        session, "append_block_children", {"page_id": MARKETING, "children": []}, "invalid_arguments", "at least 1 item"
    )
    fails(
        session,
        "append_block_children",
        {"page_id": MARKETING, "children": [{"text": "x"}] * 101},
        "invalid_arguments",
        "at most 100 items",
    )
    fails(
        session,
        "query_database",
        {"database_id": TASKS, "filter": [{"property": "Due", "before": "next week"}]},
        "invalid_arguments",
        "filter.0.before",
    )


# ---------------------------------------------------------------- database queries


def test_queries_filter_and_sort_on_properties_the_database_has(session):
    fails(
        session,
        "query_database",
        {"database_id": TASKS, "filter": [{"property": "Owner", "equals": "x"}]},
        "InvalidRequest",
        "Could not find property with name or id: Owner",
    )
    fails(
        session,
        "query_database",
        {"database_id": TASKS, "sorts": [{"property": "Owner"}]},
        "InvalidRequest",
        "Could not find sort property",
    )
    fails(
        session,
        "query_database",
        {"database_id": TASKS, "filter": [{"property": "Status"}]},
        "InvalidRequest",
        "has no condition",
    )
    due = ok(
        session,
        "query_database",
        {
            "database_id": TASKS,
            "page_size": 100,
            "filter": [{"property": "Status", "equals": "Blocked"}, {"property": "Due", "before": "2025-02-02"}],
            "sorts": [{"property": "Due", "direction": "descending"}],
        },
    )["results"]
    dates = [r["properties"]["Due"] for r in due]
    assert dates and dates == sorted(dates, reverse=True) and all(d < "2025-02-02" for d in dates)
    assert all(r["properties"]["Status"] == "Blocked" for r in due)
