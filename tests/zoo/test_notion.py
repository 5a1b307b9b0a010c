"""Notion's trash: a page goes to the trash with everything in it (sub-pages, child databases and their rows),
comes back with it, and emptying the trash leaves no page whose parent is gone. Runs the real tools on the real
seed through ToolSession."""

from __future__ import annotations

import json
from datetime import datetime, timezone

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


MEETING_NOTES, MARKETING = page("Meeting Notes"), page("Marketing")
CONTENT_CALENDAR = database("Content Calendar")
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
    assert not {r["id"] for r in ok(session, "search_pages", {"query": "sync", "page_size": 100})["results"]} & set(
        notes
    )
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
