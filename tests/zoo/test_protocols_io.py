"""protocols.io's rules, each tested through the tools on the seed: sign-in, visibility of drafts, who may edit,
the draft -> published state machine with its DOI, new versions (latest only, one draft at a time), forks, step
numbering, materials, sharing, comments and bookmarks; every refused call changes nothing."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("protocols_io")
CLOCK = datetime(2025, 1, 15, 10, 0, tzinfo=timezone.utc)
ANA = "ana.lopez@uv.es"
TRIZOL_V1, TRIZOL_V2, WB_DRAFT, WB_OLD, ISH_V1, ISH_DRAFT, MORPHOLINO, HOTSHOT = 1, 2, 3, 4, 5, 6, 7, 8
CRISPR_V2, CRYO_SHARED_EDIT, RNASEQ_SHARED_VIEW, E3_MARC, JONAS_DRAFT = 12, 17, 18, 16, 97

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, email: str = ANA) -> dict:
    return ok(session, "sign_in", {"email": email}, caller="user")


def test_tools_and_sign_in(session):
    assert 15 <= len(SPEC.tools) <= 25
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["sign_in"]
    fails(session, "search_protocols", {}, "PermissionDenied", "1219")
    assert not session.call("sign_in", {"email": ANA}).ok
    fails(session, "sign_in", {"email": "nobody@example.org"}, "NotFound", "No protocols.io account", caller="user")
    assert sign_in(session, " Ana.Lopez@UV.es ")["username"] == "ana-lopez"


def test_search_filters_and_latest_versions(session):
    sign_in(session)
    public = ok(session, "search_protocols", {"key": "trizol zebrafish", "page_size": 50})["items"]
    ids = [p["id"] for p in public]
    assert TRIZOL_V2 in ids and TRIZOL_V1 not in ids  # only the latest published version
    drafts = ok(session, "search_protocols", {"filter": "user_private", "page_size": 50})["items"]
    assert {p["id"] for p in drafts} == {WB_DRAFT, WB_OLD, ISH_DRAFT, MORPHOLINO}
    shared = {
        p["id"] for p in ok(session, "search_protocols", {"filter": "shared_with_user", "page_size": 50})["items"]
    }
    assert {CRYO_SHARED_EDIT, RNASEQ_SHARED_VIEW} <= shared and JONAS_DRAFT not in shared
    page = ok(session, "search_protocols", {"page_size": 5, "page_id": 2, "order_field": "id", "order_dir": "asc"})
    assert len(page["items"]) == 5 and page["total_pages"] == -(-page["total"] // 5)


def test_drafts_of_others_are_invisible_and_view_access_cannot_edit(session):
    sign_in(session)
    fails(session, "get_protocol", {"protocol_id": JONAS_DRAFT}, "NotFound", "Protocol not found")
    viewed = ok(session, "get_protocol", {"protocol_id": RNASEQ_SHARED_VIEW})
    assert viewed["can_edit"] is False
    fails(session, "add_step", {"protocol_id": RNASEQ_SHARED_VIEW, "text": "x"}, "PermissionDenied", "permission")
    assert ok(session, "get_protocol", {"protocol_id": CRYO_SHARED_EDIT})["can_edit"] is True
    ok(session, "add_step", {"protocol_id": CRYO_SHARED_EDIT, "text": "Dry slides."})
    fails(session, "publish_protocol", {"protocol_id": CRYO_SHARED_EDIT}, "PermissionDenied", "author")


def test_steps_are_numbered_and_renumbered(session):
    sign_in(session)
    out = ok(session, "add_step", {"protocol_id": WB_DRAFT, "text": "Quantify.", "after_step": 0})
    assert [s["number"] for s in out["steps"]] == list(range(1, 8)) and out["steps"][0]["text"] == "Quantify."
    fails(
        session, "add_step", {"protocol_id": WB_DRAFT, "text": "x", "after_step": 9}, "InvalidRequest", "does not exist"
    )
    out = ok(session, "delete_step", {"protocol_id": WB_DRAFT, "step_id": out["steps"][0]["id"]})
    assert [s["number"] for s in out["steps"]] == list(range(1, 7))
    fails(session, "delete_step", {"protocol_id": WB_DRAFT, "step_id": 1}, "NotFound", "Step not found")


def test_publishing_needs_abstract_steps_and_notes_and_mints_a_doi(session):
    sign_in(session)
    fails(session, "publish_protocol", {"protocol_id": MORPHOLINO}, "InvalidRequest", "abstract")
    ok(session, "update_protocol", {"protocol_id": MORPHOLINO, "description": "Injecting morpholinos."})
    fails(session, "publish_protocol", {"protocol_id": MORPHOLINO}, "InvalidRequest", "at least one step")
    fails(session, "publish_protocol", {"protocol_id": ISH_DRAFT}, "InvalidRequest", "version_notes")
    out = ok(session, "publish_protocol", {"protocol_id": ISH_DRAFT, "version_notes": "Same content."})
    assert out["state"] == "published" and out["doi"].startswith("dx.doi.org/10.17504/protocols.io.")
    assert out["can_edit"] is False
    fails(session, "publish_protocol", {"protocol_id": ISH_DRAFT}, "Conflict", "already published")


def test_published_protocols_are_frozen_and_never_deleted(session):
    sign_in(session)
    fails(session, "update_protocol", {"protocol_id": HOTSHOT, "title": "New title"}, "PermissionDenied", "new version")
    fails(session, "add_material", {"protocol_id": HOTSHOT, "name": "Water"}, "PermissionDenied", "new version")
    fails(session, "delete_protocol", {"protocol_id": HOTSHOT}, "PermissionDenied", "cannot be deleted")
    fails(session, "delete_protocol", {"protocol_id": CRYO_SHARED_EDIT}, "PermissionDenied", "author")
    ok(session, "delete_protocol", {"protocol_id": WB_OLD})
    fails(session, "get_protocol", {"protocol_id": WB_OLD}, "NotFound", "Protocol not found")


def test_new_versions_only_from_latest_and_one_draft_at_a_time(session):
    sign_in(session)
    fails(session, "create_new_version", {"protocol_id": TRIZOL_V1}, "Conflict", "Only the latest version")
    fails(session, "create_new_version", {"protocol_id": ISH_V1}, "Conflict", "already in draft")
    fails(session, "create_new_version", {"protocol_id": WB_DRAFT}, "Conflict", "Only published")
    fails(session, "create_new_version", {"protocol_id": CRISPR_V2}, "PermissionDenied", "author")
    draft = ok(session, "create_new_version", {"protocol_id": TRIZOL_V2})
    source = ok(session, "get_protocol", {"protocol_id": TRIZOL_V2})
    assert draft["version_number"] == 3 and draft["family_id"] == TRIZOL_V1 and draft["state"] == "draft"
    assert [s["text"] for s in draft["steps"]] == [s["text"] for s in source["steps"]]
    assert len(draft["materials"]) == len(source["materials"])
    versions = ok(session, "list_versions", {"protocol_id": TRIZOL_V1})["items"]
    assert [v["version_number"] for v in versions] == [3, 2, 1]


def test_forks_copy_content_and_point_back(session):
    sign_in(session)
    fork = ok(session, "fork_protocol", {"protocol_id": CRISPR_V2, "title": "My CRISPR"})
    assert fork["forked_from"] == CRISPR_V2 and fork["creator"]["username"] == "ana-lopez"
    assert fork["state"] == "draft" and fork["version_number"] == 1 and len(fork["steps"]) == 4
    fails(session, "fork_protocol", {"protocol_id": RNASEQ_SHARED_VIEW}, "Conflict", "Only published")


def test_materials_and_workspaces(session):
    sign_in(session)
    fails(
        session,
        "add_material",
        {"protocol_id": WB_DRAFT, "name": "pvdf membrane", "catalog_number": "IPVH00010"},
        "Conflict",
        "already",
    )
    out = ok(session, "remove_material", {"protocol_id": WB_DRAFT, "material_id": 11})
    assert 11 not in [m["id"] for m in out["materials"]]
    roles = {w["uri"]: w["role"] for w in ok(session, "list_workspaces")["items"]}
    assert roles["lopez-lab"] == "owner" and roles["crispr-methods-network"] == "viewer"
    args = {"title": "Viewer test", "workspace": "crispr-methods-network"}
    fails(session, "create_protocol", args, "PermissionDenied", "workspace")
    fails(session, "create_protocol", {"title": "x y z", "workspace": "nope"}, "NotFound", "Workspace")
    made = ok(session, "create_protocol", {"title": "Lab protocol", "workspace": "lopez-lab"})
    assert made["workspace"] == "lopez-lab" and made["state"] == "draft"


def test_sharing_rules(session):
    sign_in(session)
    fails(session, "share_protocol", {"protocol_id": HOTSHOT, "email": "marc.ferrer@uv.es"}, "Conflict", "Published")
    fails(session, "share_protocol", {"protocol_id": WB_DRAFT, "email": ANA}, "InvalidRequest", "yourself")
    fails(
        session,
        "share_protocol",
        {"protocol_id": CRYO_SHARED_EDIT, "email": "marc.ferrer@uv.es"},
        "PermissionDenied",
        "author",
    )
    ok(session, "share_protocol", {"protocol_id": WB_DRAFT, "email": "h.ward@ucl.ac.uk", "access": "view"})
    sign_in(session, "h.ward@ucl.ac.uk")
    assert ok(session, "get_protocol", {"protocol_id": WB_DRAFT})["can_edit"] is False
    sign_in(session)
    ok(session, "share_protocol", {"protocol_id": WB_DRAFT, "email": "h.ward@ucl.ac.uk", "access": "edit"})
    sign_in(session, "h.ward@ucl.ac.uk")
    assert ok(session, "get_protocol", {"protocol_id": WB_DRAFT})["can_edit"] is True


def test_comments_replies_and_bookmarks(session):
    sign_in(session)
    fails(session, "add_comment", {"protocol_id": TRIZOL_V2, "body": "x", "step_id": 1}, "NotFound", "Step not found")
    fails(session, "add_comment", {"protocol_id": TRIZOL_V2, "body": "x", "parent_id": 2}, "NotFound", "Comment")
    reply = ok(session, "add_comment", {"protocol_id": TRIZOL_V2, "body": "At 4 °C.", "parent_id": 74})
    assert reply["step_id"] == 9 and reply["parent_id"] == 74  # a reply sits on its parent's step
    fails(session, "bookmark_protocol", {"protocol_id": E3_MARC}, "Conflict", "already bookmarked")
    ok(session, "remove_bookmark", {"protocol_id": E3_MARC})
    fails(session, "remove_bookmark", {"protocol_id": E3_MARC}, "NotFound", "Bookmark not found")
    ok(session, "bookmark_protocol", {"protocol_id": E3_MARC})
    marked = {p["id"] for p in ok(session, "search_protocols", {"filter": "bookmarks"})["items"]}
    assert E3_MARC in marked
