"""The Zotero environment's tools: results and state transitions for each library rule (versions, item-type
fields, group permissions, trash, merge, collections), and every error path leaving the state unchanged. Runs the
real tools on the real seed through ToolSession."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest

from envfactory_gym import ToolSession, resolve
from envfactory_zoo.zotero.schema import api_keys, collections, items, libraries

from .toolkit import fails, ok, session_fixture

SPEC = resolve("zotero")
CLOCK = datetime(2025, 3, 11, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ME = "users/5871223"
READING, CONSORTIUM, COMMITTEE, SNOW = 2218430, 4401821, 3390117, 5120964


# ---------------------------------------------------------------- seed lookups (by title and name, never raw ids)


def item(title: str, library: str = ME, **where: Any) -> str:
    found = [
        i["key"]
        for i in SEED["items"]
        if i["title"] == title and i["library_id"] == library and all(i[k] == v for k, v in where.items())
    ]
    assert len(found) == 1, (title, found)
    return found[0]


def coll(name: str, library: str = ME) -> str:
    return next(c["key"] for c in SEED["collections"] if c["name"] == name and c["library_id"] == library)


KRATZERT = "Rainfall–runoff modelling using Long Short-Term Memory (LSTM) networks"
KRATZERT_DUP = "Rainfall-runoff modelling using Long Short-Term Memory (LSTM) networks"


session = session_fixture(SPEC, CLOCK)


def row(session: ToolSession, key: str) -> dict[str, Any]:
    return session.database.get(items, key)


def library_version(session: ToolSession, library: str = ME) -> int:
    return session.database.get(libraries, library)["version"]


# ---------------------------------------------------------------- interface


def test_twenty_tools_with_one_user_only_invitation_tool():
    assert len(SPEC.tools) == 20
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["accept_group_invitation"]
    assert SPEC.tools["get_key_info"].input_model.model_fields == {}
    assert "version" in SPEC.tools["update_item"].required_inputs


# ---------------------------------------------------------------- key and groups


def test_key_info_and_groups_show_roles_and_edit_rights(session):
    key = ok(session, "get_key_info")
    assert key["userID"] == 5871223 and key["username"] == "praman" and key["key"].endswith("****")
    assert key["user_access"] == {"library": True, "notes": True, "write": True}
    assert key["library_version"] == 4812
    groups = {g["name"]: g for g in ok(session, "list_groups")}
    assert set(groups) == {"CU Hydro-ML Reading Group", "NSF HydroSense Consortium", "Park Thesis Committee"}
    assert (groups["NSF HydroSense Consortium"]["role"], groups["NSF HydroSense Consortium"]["canEdit"]) == (
        "member",
        False,
    )
    assert (groups["CU Hydro-ML Reading Group"]["role"], groups["CU Hydro-ML Reading Group"]["canEdit"]) == (
        "member",
        True,
    )
    assert (groups["Park Thesis Committee"]["role"], groups["Park Thesis Committee"]["canEdit"]) == ("admin", True)


def test_read_only_group_member_can_read_but_not_write(session):
    listed = ok(session, "search_items", {"group_id": CONSORTIUM, "q": "annual report"})["items"]
    assert [i["title"] for i in listed] == ["HydroSense annual report 2024"]
    fails(
        session,
        "create_item",
        {"group_id": CONSORTIUM, "item_type": "book", "title": "X"},
        "PermissionDenied",
        "only group admins can edit",
    )
    report = item("HydroSense annual report 2024", f"groups/{CONSORTIUM}")
    fails(
        session,
        "create_note",
        {"group_id": CONSORTIUM, "parent_item": report, "note": "hi"},
        "PermissionDenied",
        "your role is member",
    )
    fails(session, "get_item", {"group_id": 999, "item_key": report}, "NotFound", "Group 999 not found")


def test_invitation_is_user_only_and_opens_the_group(session):
    fails(session, "search_items", {"group_id": SNOW}, "PermissionDenied", "not a member")
    fails(
        session,
        "accept_group_invitation",
        {"group_name": "Snow Remote Sensing Working Group"},
        "user_only",
        "only be performed by the user",
    )
    fails(
        session, "accept_group_invitation", {"group_name": "Nope"}, "NotFound", "No pending invitation", caller="user"
    )
    group = ok(session, "accept_group_invitation", {"group_name": "snow remote sensing working group"}, caller="user")
    assert (group["role"], group["canEdit"], group["numMembers"]) == ("member", True, 3)
    assert session.dump()["group_invitations"]["inv_0001"]["status"] == "accepted"
    assert ok(session, "search_items", {"group_id": SNOW, "limit": 100})["total_results"] == 16
    fails(
        session,
        "accept_group_invitation",
        {"group_name": "Snow Remote Sensing Working Group"},
        "NotFound",
        "No pending invitation",
        caller="user",
    )


def test_key_limits_apply_before_group_roles(session):
    session.database.update(api_keys, "P9NiFoyLeZu2bZNvvuQPDWsd", groups_access="read", notes_access=False)
    fails(
        session,
        "create_collection",
        {"group_id": READING, "name": "X"},
        "PermissionDenied",
        "can only read group libraries",
    )
    fails(session, "create_note", {"note": "hi"}, "PermissionDenied", "no notes access")
    session.database.update(api_keys, "P9NiFoyLeZu2bZNvvuQPDWsd", write_access=False, groups_access="none")
    fails(session, "create_collection", {"name": "X"}, "PermissionDenied", "read-only for your personal library")
    fails(session, "list_collections", {"group_id": READING}, "PermissionDenied", "no access to group libraries")


# ---------------------------------------------------------------- reading items


def test_search_matches_every_word_and_hides_the_trash(session):
    found = ok(session, "search_items", {"q": "kratzert lstm 2018"})["items"]
    assert {i["title"] for i in found} == {KRATZERT, KRATZERT_DUP}
    assert ok(session, "search_items", {"q": "Lundquist"})["items"] == []
    trash = ok(session, "search_items", {"trash": True, "limit": 50})
    assert {i["title"] for i in trash["items"]} == {
        "Untitled",
        "Google Scholar",
        "Neural snowpack emulators outperform all process-based models everywhere",
        "HydroSense quarterly report Q3 (draft)",
        "Rainfall-Runoff Modelling: The Primer",
        "Our skill in modeling mountain rain and snow is bypassing the skill of our observational networks",
    }
    assert all(i["deleted"] for i in trash["items"]) and trash["library_version"] == 4812
    assert ok(session, "search_items", {"q": "671-basin"})["items"] == []


def test_search_filters_sorting_and_pages(session):
    by_tag = ok(session, "search_items", {"tag": "METRICS", "sort": "title"})["items"]
    assert [i["title"][:20] for i in by_tag] == ["Decomposition of the", "River flow forecasti"]
    in_coll = ok(session, "search_items", {"collection_key": coll("Methods"), "limit": 100})["items"]
    assert in_coll and all(coll("Methods") in i["collections"] for i in in_coll)
    books = ok(session, "search_items", {"item_type": "book", "limit": 100})["items"]
    assert {i["itemType"] for i in books} == {"book"} and len(books) == 4  # Beven's primer is in the trash
    not_articles = ok(session, "search_items", {"item_type": "-journalArticle", "limit": 100})["items"]
    assert not_articles and all(i["itemType"] != "journalArticle" for i in not_articles)
    notes = ok(session, "search_items", {"item_type": "note", "top": False, "q": "reviewer", "qmode": "everything"})
    assert [i["parentItem"] for i in notes["items"]] == [
        item("What Role Does Hydrological Science Play in the Age of Machine Learning?")
    ]
    first = ok(session, "search_items", {"limit": 10, "sort": "dateAdded"})
    second = ok(session, "search_items", {"limit": 10, "sort": "dateAdded", "start": first["next_start"]})
    assert first["next_start"] == 10 and first["total_results"] > 100
    added = [i["dateAdded"] for i in first["items"] + second["items"]]
    assert added == sorted(added, reverse=True) and all(i["parentItem"] is None for i in first["items"])
    fails(session, "search_items", {"item_type": "article"}, "invalid_arguments", "item_type: Input should be")
    fails(session, "search_items", {"limit": 101}, "invalid_arguments", "limit:")
    fails(session, "search_items", {"start": -1}, "invalid_arguments", "start:")
    fails(
        session,
        "search_items",
        {"collection_key": coll("MODIS", f"groups/{SNOW}")},
        "NotFound",
        "not found in library My Library",
    )


def test_get_item_meta_and_children(session):
    key = item(KRATZERT)
    got = ok(session, "get_item", {"item_key": key})
    assert (got["creatorSummary"], got["parsedDate"], got["numChildren"]) == ("Kratzert et al.", "2018-11-22", 2)
    assert {"tag": "Hydrology", "type": 1} in got["tags"]
    children = ok(session, "list_item_children", {"item_key": key})
    assert sorted(c["itemType"] for c in children) == ["attachment", "note"]
    assert next(c for c in children if c["itemType"] == "attachment")["contentType"] == "application/pdf"
    lees = ok(session, "search_items", {"q": "Lees Great Britain"})["items"][0]
    assert lees["parsedDate"] == "2021-03-15" and lees["creatorSummary"] == "Lees et al."
    nash = ok(
        session,
        "get_item",
        {"item_key": item("River flow forecasting through conceptual models part I — A discussion of principles")},
    )
    assert (nash["parsedDate"], nash["creatorSummary"]) == ("1970-04", "Nash and Sutcliffe")
    fails(session, "get_item", {"item_key": "ZZZZZZZZ"}, "NotFound", "Item ZZZZZZZZ not found")


# ---------------------------------------------------------------- creating items and notes


def test_create_item_bumps_the_library_version(session):
    created = ok(
        session,
        "create_item",
        {
            "item_type": "book",
            "title": "Snow Hydrology",
            "date": "May 2021",
            "creators": [{"lastName": "Dozier", "firstName": "Jeff"}, {"creatorType": "editor", "name": "AGU"}],
            "fields": {"publisher": "Wiley", "ISBN": "978-1-119-00000-0"},
            "tags": ["snow", "to-read", "snow"],
            "collections": [coll("To read"), coll("Ch2 Snowmelt modeling")],
        },
    )
    assert created["version"] == library_version(session) == 4813
    assert (created["parsedDate"], created["creatorSummary"], created["numChildren"]) == ("2021-05", "Dozier", 0)
    assert [t["tag"] for t in created["tags"]] == ["snow", "to-read"]
    assert len(created["key"]) == 8 and created["key"] not in {i["key"] for i in SEED["items"]}
    stored = session.dump()["items"][created["key"]]
    assert stored["collections"] == sorted([coll("To read"), coll("Ch2 Snowmelt modeling")])
    assert stored["creators"][1] == {"creatorType": "editor", "name": "AGU"}


@pytest.mark.parametrize(
    "args,kind,text",
    [
        (
            {"item_type": "book", "title": "T", "fields": {"publicationTitle": "Nature"}},
            "InvalidRequest",
            "'publicationTitle' is not a valid field for type 'book'",
        ),
        ({"item_type": "article", "title": "T"}, "invalid_arguments", "item_type: not a valid itemType"),
        ({"item_type": "note", "title": "T"}, "invalid_arguments", "notes are created with create_note"),
        (
            {"item_type": "thesis", "title": "T", "creators": [{"creatorType": "editor", "lastName": "X"}]},
            "InvalidRequest",
            "'editor' is not a valid creator type for item type 'thesis'",
        ),
        (
            {"item_type": "book", "title": "T", "creators": [{"name": "IPCC", "lastName": "X"}]},
            "InvalidRequest",
            "not both",
        ),
        ({"item_type": "book", "title": "T", "fields": {"title": "U"}}, "InvalidRequest", "has its own argument"),
        ({"item_type": "book", "title": "  "}, "invalid_arguments", "title: title must not be empty"),
        ({"item_type": "book", "title": "T", "tags": ["x" * 256]}, "invalid_arguments", "1 to 255 characters"),
        ({"item_type": "book", "title": "T", "collections": ["ZZZZZZZZ"]}, "NotFound", "Collection ZZZZZZZZ"),
    ],
)
def test_create_item_validates_against_the_type(session, args, kind, text):
    fails(session, "create_item", args, kind, text)


def test_create_note_rules(session):
    paper = item(KRATZERT)
    pdf = next(i["key"] for i in SEED["items"] if i["parent_item"] == paper and i["item_type"] == "attachment")
    fails(session, "create_note", {"note": "x", "parent_item": pdf}, "InvalidRequest", "children of regular items")
    fails(
        session,
        "create_note",
        {"note": "x", "parent_item": paper, "collections": [coll("To read")]},
        "InvalidRequest",
        "Child items cannot be assigned to collections",
    )
    fails(session, "create_note", {"note": "   "}, "invalid_arguments", "note: note must not be empty")
    note = ok(session, "create_note", {"note": "<p>Follow up</p><p>with Grey</p>", "parent_item": paper})
    assert (note["title"], note["parentItem"], note["itemType"]) == ("Follow up", paper, "note")
    assert ok(session, "get_item", {"item_key": paper})["numChildren"] == 3
    group_note = ok(
        session,
        "create_note",
        {"group_id": READING, "note": "Agenda", "collections": [coll("Spring 2025", f"groups/{READING}")]},
    )
    assert group_note["createdByUser"] == "praman" and group_note["library"] == f"groups/{READING}"


@pytest.mark.parametrize("tool", ["create_item", "create_note", "update_item"])
def test_tag_lists_are_sets_in_the_schema(tool):
    assert "tags" in SPEC.tools[tool].unordered_inputs


def test_note_tags_are_stored_in_the_same_order_whatever_order_they_are_named_in(session):
    paper = item(KRATZERT)
    first = ok(session, "create_note", {"note": "a", "parent_item": paper, "tags": ["ch4", "Baseline", "lstm"]})
    second = ok(session, "create_note", {"note": "b", "parent_item": paper, "tags": ["lstm", "ch4", "Baseline"]})
    assert first["tags"] == second["tags"]


# ---------------------------------------------------------------- editing items


def test_update_item_needs_the_current_version(session):
    key = item("Deep Learning")
    current = row(session, key)["version"]
    fails(
        session,
        "update_item",
        {"item_key": key, "version": current - 1, "title": "X"},
        "Conflict",
        "412 Precondition Failed",
    )
    updated = ok(session, "update_item", {"item_key": key, "version": current, "fields": {"edition": "1", "url": ""}})
    assert updated["fields"] == {
        "publisher": "MIT Press",
        "place": "Cambridge, MA",
        "ISBN": "978-0-262-03561-3",
        "numPages": "775",
        "edition": "1",
    }
    assert updated["version"] == library_version(session) == 4813
    fails(
        session,
        "update_item",
        {"item_key": key, "version": current, "date": "2017"},
        "Conflict",
        f"modified since version {current} (current version 4813)",
    )


def test_changing_type_requires_fields_valid_for_the_new_type(session):
    key = item(
        "Benchmarking data-driven rainfall-runoff models in Great Britain: a comparison of LSTM-based models "
        "with four lumped conceptual models"
    )
    version = row(session, key)["version"]
    fails(
        session,
        "update_item",
        {"item_key": key, "version": version, "item_type": "journalArticle"},
        "InvalidRequest",
        "is not a valid field for type 'journalArticle'",
    )
    changed = ok(
        session,
        "update_item",
        {
            "item_key": key,
            "version": version,
            "item_type": "journalArticle",
            "fields": {
                "repository": "",
                "archiveID": "",
                "genre": "",
                "publicationTitle": "Hydrology and Earth System Sciences",
            },
        },
    )
    assert changed["itemType"] == "journalArticle" and "repository" not in changed["fields"]
    assert changed["fields"]["publicationTitle"] == "Hydrology and Earth System Sciences"
    fails(
        session,
        "update_item",
        {"item_key": key, "version": changed["version"], "item_type": "webpage", "fields": {"publicationTitle": ""}},
        "InvalidRequest",
        "'DOI' is not a valid field for type 'webpage'",
    )


def test_tags_replace_the_list_and_keep_automatic_types(session):
    key = item(KRATZERT)
    version = row(session, key)["version"]
    updated = ok(session, "update_item", {"item_key": key, "version": version, "tags": ["Hydrology", "LSTM", "zz"]})
    assert updated["tags"] == [{"tag": "Hydrology", "type": 1}, {"tag": "LSTM", "type": 0}, {"tag": "zz", "type": 0}]
    fails(
        session,
        "update_item",
        {"item_key": key, "version": updated["version"], "tags": [""]},
        "invalid_arguments",
        "tags.0: Tag names must be 1 to 255 characters and not blank",
    )


def test_notes_children_and_nothing_to_update(session):
    paper = item(KRATZERT)
    child_note = next(i for i in SEED["items"] if i["parent_item"] == paper and i["item_type"] == "note")
    v = child_note["version"]
    fails(
        session,
        "update_item",
        {"item_key": child_note["key"], "version": v, "title": "X"},
        "InvalidRequest",
        "A note has only",
    )
    fails(
        session,
        "update_item",
        {"item_key": child_note["key"], "version": v, "collections": [coll("To read")]},
        "InvalidRequest",
        "Child items cannot be assigned to collections",
    )
    fails(
        session,
        "update_item",
        {"item_key": paper, "version": row(session, paper)["version"], "note": "x"},
        "InvalidRequest",
        "only valid for notes",
    )
    fails(
        session,
        "update_item",
        {"item_key": paper, "version": row(session, paper)["version"]},
        "InvalidRequest",
        "Nothing to update",
    )
    edited = ok(session, "update_item", {"item_key": child_note["key"], "version": v, "note": "<p>New first line</p>"})
    assert edited["title"] == "New first line" and edited["note"] == "<p>New first line</p>"


def test_trash_and_restore(session):
    key = item("Long Short-Term Memory")
    trashed = ok(session, "update_item", {"item_key": key, "version": row(session, key)["version"], "deleted": True})
    assert trashed["deleted"]
    assert key in {i["key"] for i in ok(session, "search_items", {"trash": True, "limit": 50})["items"]}
    assert key not in {i["key"] for i in ok(session, "search_items", {"q": "Long Short-Term Memory"})["items"]}
    pdf = next(i["key"] for i in SEED["items"] if i["parent_item"] == key)
    hidden = ok(session, "search_items", {"top": False, "item_type": "attachment", "limit": 100})["items"]
    assert pdf not in {i["key"] for i in hidden}  # children go to the trash with their parent
    fails(
        session,
        "update_item",
        {"item_key": key, "version": trashed["version"], "deleted": True},
        "Conflict",
        "already in the trash",
    )
    restored = ok(session, "update_item", {"item_key": key, "version": trashed["version"], "deleted": False})
    assert not restored["deleted"]
    fails(
        session,
        "update_item",
        {"item_key": key, "version": restored["version"], "deleted": False},
        "Conflict",
        "not in the trash",
    )


def test_tag_counts_leave_out_the_trash(session):
    counts = {(t["tag"], t["type"]): t["numItems"] for t in ok(session, "list_tags", {"q": "metrics"})}
    assert counts == {("metrics", 0): 2}
    key = item(
        "Decomposition of the mean squared error and NSE performance criteria: Implications for improving "
        "hydrological modelling"
    )
    ok(session, "update_item", {"item_key": key, "version": row(session, key)["version"], "deleted": True})
    assert ok(session, "list_tags", {"q": "metrics"}) == [{"tag": "metrics", "type": 0, "numItems": 1}]


# ---------------------------------------------------------------- permanent deletes


def test_delete_items_needs_the_library_version_and_takes_children(session):
    key = item("Neural snowpack emulators outperform all process-based models everywhere")
    child = next(i["key"] for i in SEED["items"] if i["parent_item"] == key)
    fails(
        session,
        "delete_items",
        {"item_keys": [key], "library_version": 4800},
        "Conflict",
        "library has been modified since version 4800 (current version 4812)",
    )
    fails(session, "delete_items", {"item_keys": [key, "ZZZZZZZZ"], "library_version": 4812}, "NotFound", "ZZZZZZZZ")
    fails(session, "delete_items", {"item_keys": [key] * 51, "library_version": 4812}, "invalid_arguments", "1 to 50")
    fails(session, "delete_items", {"item_keys": [], "library_version": 4812}, "invalid_arguments", "item_keys:")
    fails(session, "delete_items", {"item_keys": [key], "library_version": -1}, "invalid_arguments", "library_version:")
    result = ok(session, "delete_items", {"item_keys": [key], "library_version": 4812})
    assert result == {"deleted": sorted([key, child]), "library_version": 4813}
    state = session.dump()["items"]
    assert key not in state and child not in state


# ---------------------------------------------------------------- merging duplicates


def test_merge_moves_children_tags_collections_and_trashes_the_duplicate(session):
    master, dup = item(KRATZERT), item(KRATZERT_DUP)
    dup_pdf = next(i["key"] for i in SEED["items"] if i["parent_item"] == dup)
    merged = ok(session, "merge_items", {"master_key": master, "other_keys": [dup]})
    assert merged["relations"] == {"dc:replaces": [f"http://zotero.org/{ME}/items/{dup}"]}
    assert "to-read" in {t["tag"] for t in merged["tags"]} and coll("To read") in merged["collections"]
    assert merged["fields"]["DOI"] == "10.5194/hess-22-6005-2018" and merged["numChildren"] == 3
    assert row(session, dup)["deleted"] and row(session, dup_pdf)["parent_item"] == master
    fails(session, "merge_items", {"master_key": master, "other_keys": [dup]}, "Conflict", "is in the trash")


@pytest.mark.parametrize(
    "master,others,kind,text",
    [
        (
            "Attention Is All You Need|conferencePaper",
            ["Attention Is All You Need|preprint"],
            "InvalidRequest",
            "must all be of the same item type",
        ),
        (KRATZERT, [KRATZERT], "InvalidRequest", "can't also be one of the items"),
        (KRATZERT, [], "invalid_arguments", "other_keys: other_keys must name at least one duplicate"),
        (KRATZERT, ["Untitled"], "Conflict", "is in the trash"),
    ],
)
def test_merge_rules(session, master, others, kind, text):
    def resolve_key(spec: str) -> str:
        title, _, kind_ = spec.partition("|")
        return item(title, item_type=kind_) if kind_ else item(title)

    fails(
        session,
        "merge_items",
        {"master_key": resolve_key(master), "other_keys": [resolve_key(o) for o in others]},
        kind,
        text,
    )


def test_merge_rejects_child_items(session):
    paper = item(KRATZERT)
    note = next(i["key"] for i in SEED["items"] if i["parent_item"] == paper and i["item_type"] == "note")
    fails(
        session,
        "merge_items",
        {"master_key": paper, "other_keys": [note]},
        "InvalidRequest",
        "only regular items can be merged",
    )


# ---------------------------------------------------------------- collections


def test_collection_tree_counts_and_moves(session):
    top = ok(session, "list_collections", {"top": True})
    assert "Dissertation" in [c["name"] for c in top] and all(c["parentCollection"] is None for c in top)
    dissertation = next(c for c in top if c["name"] == "Dissertation")
    assert dissertation["numCollections"] == 4
    created = ok(session, "create_collection", {"name": "Ch5 Synthesis", "parent_collection": coll("Dissertation")})
    assert created["parentCollection"] == coll("Dissertation") and created["numItems"] == 0
    baselines = session.database.get(collections, coll("Baselines"))
    moved = ok(
        session,
        "update_collection",
        {"collection_key": coll("Baselines"), "version": baselines["version"], "parent_collection": created["key"]},
    )
    assert moved["parentCollection"] == created["key"] and moved["version"] == library_version(session)
    subs = ok(session, "list_collections", {"parent_collection": created["key"]})
    assert [c["name"] for c in subs] == ["Baselines"]
    top_level = ok(
        session,
        "update_collection",
        {"collection_key": coll("Baselines"), "version": moved["version"], "parent_collection": ""},
    )
    assert top_level["parentCollection"] is None


def test_update_collection_rules(session):
    dissertation = session.database.get(collections, coll("Dissertation"))
    fails(
        session,
        "update_collection",
        {
            "collection_key": coll("Dissertation"),
            "version": dissertation["version"],
            "parent_collection": coll("Baselines"),
        },
        "InvalidRequest",
        "into itself or one of its subcollections",
    )
    fails(
        session,
        "update_collection",
        {"collection_key": coll("Dissertation"), "version": dissertation["version"] + 1, "name": "X"},
        "Conflict",
        "412",
    )
    fails(
        session,
        "update_collection",
        {"collection_key": coll("Dissertation"), "version": dissertation["version"]},
        "InvalidRequest",
        "Nothing to update",
    )
    fails(
        session,
        "create_collection",
        {"name": "X", "parent_collection": coll("MODIS", f"groups/{SNOW}")},
        "NotFound",
        "not found in library My Library",
    )


def test_delete_collection_removes_subcollections_but_keeps_items(session):
    archive, old = coll("Archive 2019-2021"), coll("Old coursework")
    filed = [i["key"] for i in SEED["items"] if archive in i["collections"] or old in i["collections"]]
    assert filed
    version = session.database.get(collections, archive)["version"]
    result = ok(session, "delete_collection", {"collection_key": archive, "version": version})
    assert result["deleted_collections"] == [archive, old] and result["items_updated"] == len(filed)
    state = session.dump()
    assert archive not in state["collections"] and old not in state["collections"]
    for key in filed:
        assert key in state["items"] and archive not in state["items"][key]["collections"]


def test_add_and_remove_items_from_a_collection(session):
    gupta = item(
        "Decomposition of the mean squared error and NSE performance criteria: Implications for improving "
        "hydrological modelling"
    )
    to_read = coll("To read")
    added = ok(session, "add_items_to_collection", {"collection_key": to_read, "item_keys": [gupta]})
    assert to_read in row(session, gupta)["collections"] and added["numItems"] >= 1
    fails(
        session,
        "add_items_to_collection",
        {"collection_key": to_read, "item_keys": [gupta]},
        "Conflict",
        "already in the collection",
    )
    pdf = next(i["key"] for i in SEED["items"] if i["parent_item"] == item(KRATZERT))
    fails(
        session,
        "add_items_to_collection",
        {"collection_key": to_read, "item_keys": [pdf]},
        "InvalidRequest",
        "Child items cannot be assigned to collections",
    )
    ok(session, "remove_items_from_collection", {"collection_key": to_read, "item_keys": [gupta]})
    assert row(session, gupta)["collections"] == [coll("Methods")]
    fails(
        session,
        "remove_items_from_collection",
        {"collection_key": to_read, "item_keys": [gupta]},
        "Conflict",
        "is not in the collection 'To read'",
    )


# ---------------------------------------------------------------- saved searches


def test_saved_searches(session):
    names = [s["name"] for s in ok(session, "list_saved_searches")]
    assert names == sorted(names) and "Unfiled" in names
    created = ok(
        session,
        "create_saved_search",
        {
            "name": "Snow ML",
            "conditions": [
                {"condition": "joinMode", "operator": "any"},
                {"condition": "tag", "operator": "is", "value": "snowmelt"},
                {"condition": "collection", "operator": "is", "value": coll("Ch2 Snowmelt modeling")},
            ],
        },
    )
    assert created["version"] == library_version(session) and len(created["conditions"]) == 3
    assert "Snow ML" in [s["name"] for s in ok(session, "list_saved_searches")]


@pytest.mark.parametrize(
    "conditions,text",
    [
        (
            [{"condition": "tag", "operator": "isBefore", "value": "x"}],
            "Invalid operator 'isBefore' for condition 'tag'",
        ),
        ([{"condition": "joinMode", "operator": "any"}], "needs at least one condition besides joinMode"),
        ([{"condition": "dateAdded", "operator": "isInTheLast", "value": "lately"}], "such as '30 days'"),
        ([{"condition": "date", "operator": "isAfter", "value": "soon"}], "'soon' is not a date"),
        ([{"condition": "itemType", "operator": "is", "value": "paper"}], "'paper' is not a valid itemType"),
        ([{"condition": "title", "operator": "contains", "value": " "}], "needs a value"),
    ],
)
def test_saved_search_validation(session, conditions, text):
    fails(session, "create_saved_search", {"name": "S", "conditions": conditions}, "InvalidRequest", text)


def test_saved_search_collection_must_exist_in_that_library(session):
    fails(
        session,
        "create_saved_search",
        {
            "name": "S",
            "conditions": [{"condition": "collection", "operator": "is", "value": coll("To read")}],
            "group_id": READING,
        },
        "NotFound",
        "not found in library CU Hydro-ML Reading Group",
    )


# ---------------------------------------------------------------- bounds in the argument types


@pytest.mark.parametrize(
    "tool,args,text",
    [
        ("create_collection", {"name": "   "}, "name: Collection name must be 1 to 255 characters"),
        ("create_collection", {"name": "x" * 256}, "name: Collection name must be 1 to 255 characters"),
        (
            "create_saved_search",
            {"name": "", "conditions": [{"condition": "tag", "operator": "is", "value": "x"}]},
            "name: Saved search name must not be empty",
        ),
        ("create_saved_search", {"name": "S", "conditions": []}, "conditions:"),
        (
            "create_saved_search",
            {"name": "S", "conditions": [{"condition": "color", "operator": "is", "value": "x"}]},
            "conditions.0.condition:",
        ),
        ("create_note", {"note": "x", "tags": ["ok", " "]}, "tags.1: Tag names must be 1 to 255 characters"),
        ("add_items_to_collection", {"collection_key": "ZZZZZZZZ", "item_keys": []}, "item_keys: Give 1 to 50"),
        ("update_collection", {"collection_key": "ZZZZZZZZ", "version": -1, "name": "N"}, "version:"),
        ("update_item", {"item_key": "ZZZZZZZZ", "version": 1, "item_type": "note"}, "item_type:"),
    ],
)
def test_bounds_are_in_the_types_and_refusals_change_nothing(session, tool, args, text):
    fails(session, tool, args, "invalid_arguments", text)
    schema = SPEC.tools[tool].input_schema["properties"]
    assert any(k in str(schema) for k in ("minLength", "maxLength", "minItems", "maxItems", "minimum", "enum"))


def test_the_argument_types_name_every_item_type_the_rules_know():
    from typing import get_args

    from envfactory_zoo.zotero import objects, rules

    assert set(get_args(objects.RegularItemType)) == set(rules.TYPE_FIELDS) == set(rules.CREATOR_TYPES)
    searchable = set(get_args(objects.ItemTypeFilter))
    assert searchable == {t for k in (*rules.TYPE_FIELDS, *rules.CHILD_TYPES) for t in (k, f"-{k}")}
    assert set(get_args(objects.CreatorType)) == set().union(*rules.CREATOR_TYPES.values())
    assert set(get_args(objects.ConditionName)) == set(rules.SEARCH_OPERATORS)
    assert set(get_args(objects.Operator)) == set().union(*rules.SEARCH_OPERATORS.values())
