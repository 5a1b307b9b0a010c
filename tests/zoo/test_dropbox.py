"""The Dropbox environment's tools on the real seed: sign-in, paths (case-insensitive, malformed, id:), listing with
cursors, search, create/upload (add, overwrite, update by rev, identical content, autorename), move/copy/delete
(conflicts, folder into itself, nested and copied shared folders, view-only shared folders), revisions and restore
(also of deleted files), shared links (one per item, plan-gated settings, resolved visibility, revoke), shared
folders (shareable folders, who manages members, team policy, owner protected) and file requests (plan-gated
deadlines, closed-only deletion). Every error path leaves the state unchanged and carries Dropbox's error_summary."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("dropbox")
CLOCK = datetime(2025, 9, 15, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
SF = {f["name"]: f["shared_folder_id"] for f in SEED["shared_folders"]}
LOGINS = {
    "priya": ("priya@nairstudio.com", "Skyline!Drafts24"),
    "dan": ("dan.okafor@gmail.com", "Bassline#2019"),
    "lena": ("lena.fischer@brightwell.io", "Quarterly$Lena8"),
}
HVR = "/Projects/Harbour View Residence"
ESD = "/Projects/Elm Street Duplex"
HER = f"{ESD}/Planning/Heritage statement.docx"

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, who: str = "priya") -> Any:
    email, password = LOGINS[who]
    return ok(session, "sign_in", {"email": email, "password": password}, caller="user")


def test_sign_in_required_and_wrong_password(session: ToolSession) -> None:
    fails(session, "list_folder", {"path": ""}, "PermissionDenied", "invalid_access_token/")
    fails(
        session, "sign_in", {"email": "priya@nairstudio.com", "password": "nope"}, "PermissionDenied", "wrong", "user"
    )
    assert sign_in(session)["account_type"] == "pro"
    assert ok(session, "list_folder", {"path": ""})["entries"]


def test_paths_are_case_insensitive_and_ids_resolve(session: ToolSession) -> None:
    sign_in(session)
    meta = ok(session, "get_metadata", {"path": HVR.upper() + "/CLIENT/FEE PROPOSAL.DOCX"})
    assert meta["path_display"] == f"{HVR}/Client/Fee Proposal.docx"
    assert ok(session, "get_metadata", {"path": meta["id"]})["rev"] == meta["rev"]
    fails(session, "get_metadata", {"path": "/Projects/"}, "invalid_arguments", "path/malformed_path/")
    fails(session, "get_metadata", {"path": "/Projects/Nope.pdf"}, "NotFound", "path/not_found/")


def test_deleted_entries_need_include_deleted(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "get_metadata", {"path": HER}, "NotFound", "path/not_found/")
    assert ok(session, "get_metadata", {"path": HER, "include_deleted": True})["tag"] == "deleted"
    listed = ok(session, "list_folder", {"path": f"{ESD}/Planning", "include_deleted": True})["entries"]
    assert any(e["tag"] == "deleted" and e["name"] == "Heritage statement.docx" for e in listed)


def test_list_folder_pages_with_cursor_and_refuses_files(session: ToolSession) -> None:
    sign_in(session)
    first = ok(session, "list_folder", {"path": "/Camera Uploads", "limit": 20})
    assert len(first["entries"]) == 20 and first["has_more"]
    rest = ok(session, "list_folder", {"path": "/Camera Uploads", "limit": 20, "cursor": first["cursor"]})
    assert not rest["has_more"] and len(rest["entries"]) == 10
    fails(session, "list_folder", {"path": f"{HVR}/Client/Fee Proposal.docx"}, "Conflict", "path/not_folder/")
    everything = ok(session, "list_folder", {"path": HVR, "recursive": True, "limit": 2000})["entries"]
    assert any(e["path_lower"].endswith("from client/garden-view.jpg") for e in everything)


def test_search_matches_every_word_and_filters(session: ToolSession) -> None:
    sign_in(session)
    names = {m["path_display"] for m in ok(session, "search", {"query": "fee proposal"})["matches"]}
    assert names == {f"{HVR}/Client/Fee Proposal.docx", "/Projects/Harbour View Cafe/Fee Proposal.docx"}
    only_pdf = ok(session, "search", {"query": "HVR", "file_extensions": ["pdf"]})["matches"]
    assert only_pdf and all(m["name"].endswith(".pdf") for m in only_pdf)
    deleted = ok(session, "search", {"query": "heritage", "file_status": "deleted"})["matches"]
    assert [m["tag"] for m in deleted] == ["deleted"]


def test_upload_modes_and_identical_content(session: ToolSession) -> None:
    sign_in(session)
    todo = f"{ESD}/Notes/todo.txt"
    before = ok(session, "get_metadata", {"path": todo})
    fails(session, "upload", {"path": todo, "content": "x"}, "Conflict", "path/conflict/file/")
    renamed = ok(session, "upload", {"path": todo, "content": "x", "autorename": True})
    assert renamed["name"] == "todo (1).txt"
    fails(
        session, "upload", {"path": todo, "content": "x", "mode": "update", "rev": "0123456789"}, "Conflict", "conflict"
    )
    fails(
        session,
        "upload",
        {"path": todo, "content": "x", "mode": "overwrite", "rev": before["rev"]},
        "InvalidRequest",
        "update",
    )
    updated = ok(session, "upload", {"path": todo, "content": "new", "mode": "update", "rev": before["rev"]})
    assert updated["rev"] != before["rev"] and updated["size"] == 3
    again = ok(session, "upload", {"path": todo, "content": "new", "mode": "overwrite"})
    assert again["rev"] == updated["rev"]
    assert len(ok(session, "list_revisions", {"path": todo})["entries"]) == 3


def test_download_current_and_earlier_revisions(session: ToolSession) -> None:
    sign_in(session)
    notes = f"{HVR}/Client/Meeting notes.txt"
    current = ok(session, "download", {"path": notes})
    assert current["is_text"] and "terrace removed" in current["content"]
    oldest = ok(session, "list_revisions", {"path": notes})["entries"][-1]
    first = ok(session, "download", {"path": notes, "rev": oldest["rev"]})
    assert "terrace" not in first["content"] and first["metadata"]["rev"] == oldest["rev"]
    binary = ok(session, "download", {"path": f"{HVR}/Client/Fee Proposal.docx"})
    assert not binary["is_text"] and binary["content"] is None
    fails(session, "download", {"path": f"{HVR}/Client"}, "Conflict", "path/not_file/")
    fails(session, "download", {"path": HER}, "NotFound", "path/not_found/")
    deleted_rev = ok(session, "list_revisions", {"path": HER})["entries"][0]["rev"]
    assert ok(session, "download", {"path": HER, "rev": deleted_rev})["metadata"]["rev"] == deleted_rev
    fails(session, "download", {"path": notes, "rev": deleted_rev}, "NotFound", "is not a revision")


def test_content_hash_is_dropbox_block_hash(session: ToolSession) -> None:
    import hashlib

    sign_in(session)
    meta = ok(session, "upload", {"path": "/Notes/a.txt", "content": "hello"})
    inner = hashlib.sha256(b"hello").digest()
    assert meta["content_hash"] == hashlib.sha256(inner).hexdigest()
    assert ok(session, "get_metadata", {"path": "/Notes"})["tag"] == "folder"  # missing parents are created


def test_writes_in_view_only_shared_folder_are_refused(session: ToolSession) -> None:
    sign_in(session)
    mpd = "/Projects/Marston Planning Docs"
    assert ok(session, "get_metadata", {"path": mpd})["sharing_info"]["read_only"] is True
    fails(session, "upload", {"path": f"{mpd}/n.txt", "content": "x"}, "PermissionDenied", "path/no_write_permission/")
    fails(
        session, "delete", {"path": f"{mpd}/Validation checklist 2025.pdf"}, "PermissionDenied", "path_write/no_write"
    )
    fails(session, "create_folder", {"path": f"{mpd}/Mine"}, "PermissionDenied", "no_write_permission")
    fails(
        session,
        "move",
        {"from_path": "/Admin/Rates 2025.xlsx", "to_path": f"{mpd}/r.xlsx"},
        "PermissionDenied",
        "to/no_write",
    )
    ok(session, "copy", {"from_path": f"{mpd}/Validation checklist 2025.pdf", "to_path": "/Admin/checklist.pdf"})


def test_move_rules(session: ToolSession) -> None:
    sign_in(session)
    fails(
        session,
        "move",
        {"from_path": "/Projects", "to_path": "/Projects/Active/Projects"},
        "Conflict",
        "cant_move_folder_into_itself/",
    )
    fails(session, "move", {"from_path": "/Nope", "to_path": "/Else"}, "NotFound", "from_lookup/not_found/")
    fails(
        session,
        "move",
        {"from_path": "/Admin/Rates 2025.xlsx", "to_path": "/Admin/Contacts.csv"},
        "Conflict",
        "to/conflict/file/",
    )
    est = "/Projects/Elm Street Structural"
    fails(session, "move", {"from_path": est, "to_path": f"{HVR}/Structural"}, "Conflict", "cant_nest_shared_folder/")
    fails(
        session,
        "move",
        {"from_path": "/Portfolio", "to_path": "/Admin/Contacts.csv/x"},
        "Conflict",
        "to/conflict/file_ancestor/",
    )


def test_move_keeps_id_revisions_links_and_file_requests(session: ToolSession) -> None:
    sign_in(session)
    plans = f"{HVR}/Drawings/HVR-A201 Floor Plans.pdf"
    before = ok(session, "get_metadata", {"path": plans})
    ok(session, "move", {"from_path": HVR, "to_path": "/Projects/Active/Harbour View Residence"})
    moved = "/Projects/Active/Harbour View Residence/Drawings/HVR-A201 Floor Plans.pdf"
    after = ok(session, "get_metadata", {"path": moved})
    assert (after["id"], after["rev"]) == (before["id"], before["rev"])
    assert ok(session, "list_shared_links", {"path": moved, "direct_only": True})
    requests = {r["title"]: r for r in ok(session, "list_file_requests")}
    assert requests["Harbour View site photos"]["destination"].startswith("/Projects/Active/Harbour View Residence/")
    case_only = ok(session, "move", {"from_path": "/Portfolio", "to_path": "/portfolio"})
    assert case_only["path_display"] == "/portfolio"


def test_copy_rules(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "copy", {"from_path": HVR, "to_path": "/Copy"}, "Conflict", "cant_copy_shared_folder/")
    fails(session, "copy", {"from_path": "/Portfolio", "to_path": "/Portfolio/Again"}, "Conflict", "into itself")
    src = ok(session, "get_metadata", {"path": "/Admin/Rates 2025.xlsx"})
    copy = ok(
        session,
        "copy",
        {"from_path": "/Admin/Rates 2025.xlsx", "to_path": "/Admin/Rates 2025.xlsx", "autorename": True},
    )
    assert copy["name"] == "Rates 2025 (1).xlsx" and copy["id"] != src["id"]
    assert copy["content_hash"] == src["content_hash"]
    assert len(ok(session, "list_revisions", {"path": copy["path_display"]})["entries"]) == 1
    folder = ok(session, "copy", {"from_path": "/Archive/Quay Street Loft", "to_path": "/Archive/QSL copy"})
    assert folder["tag"] == "folder"
    assert len(ok(session, "list_folder", {"path": "/Archive/QSL copy"})["entries"]) == 5  # four files and Snags/


def test_delete_folder_and_links_of_deleted_files(session: ToolSession) -> None:
    sign_in(session)
    link_count = len(ok(session, "list_shared_links"))
    ok(session, "delete", {"path": "/Invoices/2025"})
    fails(session, "get_metadata", {"path": "/Invoices/2025/INV-2025-012.pdf"}, "NotFound", "path/not_found/")
    assert len(ok(session, "list_shared_links")) == link_count - 1
    fails(session, "delete", {"path": "/Invoices/2025"}, "NotFound", "path_lookup/not_found/")


def test_restore_deleted_file_and_older_revision(session: ToolSession) -> None:
    sign_in(session)
    revs = ok(session, "list_revisions", {"path": HER})
    assert revs["is_deleted"] and len(revs["entries"]) == 3
    fails(session, "restore", {"path": HER, "rev": "0123456789abc"}, "Conflict", "invalid_revision/")
    oldest = revs["entries"][-1]
    restored = ok(session, "restore", {"path": HER, "rev": oldest["rev"]})
    assert restored["content_hash"] == oldest["content_hash"] and restored["rev"] not in {
        e["rev"] for e in revs["entries"]
    }
    again = ok(session, "list_revisions", {"path": HER})
    assert not again["is_deleted"] and len(again["entries"]) == 4
    fails(session, "list_revisions", {"path": ESD}, "Conflict", "path/not_file/")


def test_restore_recreates_deleted_parent_folders(session: ToolSession) -> None:
    sign_in(session)
    rev = ok(session, "get_metadata", {"path": "/Admin/Rates 2025.xlsx"})["rev"]
    ok(session, "delete", {"path": "/Admin"})
    ok(session, "restore", {"path": "/Admin/Rates 2025.xlsx", "rev": rev})
    assert ok(session, "get_metadata", {"path": "/Admin"})["tag"] == "folder"


def test_one_link_per_item_and_plan_gated_settings(session: ToolSession) -> None:
    sign_in(session, "dan")
    fails(
        session,
        "create_shared_link_with_settings",
        {"path": "/Band/Gig poster.pdf"},
        "Conflict",
        "shared_link_already_exists/",
    )
    args = {"path": "/Band/Logo.png", "requested_visibility": "password", "link_password": "x"}
    fails(session, "create_shared_link_with_settings", args, "PermissionDenied", "settings_error/not_authorized/")
    expiring = {"path": "/Band/Logo.png", "expires": "2025-12-01T00:00:00Z"}
    fails(session, "create_shared_link_with_settings", expiring, "PermissionDenied", "not_authorized")
    fails(
        session,
        "create_shared_link_with_settings",
        {"path": "/Band/Logo.png", "allow_download": False},
        "PermissionDenied",
        "Pro",
    )
    link = ok(session, "create_shared_link_with_settings", {"path": "/Band/Logo.png"})
    assert (
        link["url"].startswith("https://www.dropbox.com/scl/fi/")
        and link["link_permissions"]["resolved_visibility"] == "public"
    )


def test_link_settings_validation_on_paid_plans(session: ToolSession) -> None:
    sign_in(session)
    plans = f"{HVR}/Drawings/HVR-A301 Elevations.pdf"
    no_password = {"path": plans, "requested_visibility": "password"}
    fails(session, "create_shared_link_with_settings", no_password, "Conflict", "settings_error/invalid_settings/")
    past = {"path": plans, "expires": "2025-01-01T00:00:00Z"}
    fails(session, "create_shared_link_with_settings", past, "Conflict", "invalid_settings")
    fails(
        session,
        "create_shared_link_with_settings",
        {"path": plans, "requested_visibility": "team_only"},
        "Conflict",
        "Business",
    )
    link = ok(
        session,
        "create_shared_link_with_settings",
        {"path": "/Portfolio/Studio profile 2025.pdf", "requested_visibility": "password", "link_password": "pw"},
    )
    assert link["link_permissions"]["require_password"]
    folder = ok(session, "list_shared_links", {"path": "/Portfolio", "direct_only": True})[0]
    assert folder["url"].startswith("https://www.dropbox.com/scl/fo/")


def test_modify_and_revoke_links(session: ToolSession) -> None:
    sign_in(session, "lena")
    link = ok(
        session,
        "list_shared_links",
        {"path": "/Clients/Northwind Foods/Reports/Q2 2025 Report.pdf", "direct_only": True},
    )[0]
    assert (
        link["link_permissions"]["requested_visibility"] == "password"
        and not link["link_permissions"]["allow_download"]
    )
    changed = ok(
        session, "modify_shared_link_settings", {"url": link["url"], "remove_expiration": True, "allow_download": True}
    )
    assert changed["expires"] is None and changed["link_permissions"]["require_password"]
    public = ok(session, "modify_shared_link_settings", {"url": link["url"], "requested_visibility": "public"})
    assert not public["link_permissions"]["require_password"]
    both = {"url": link["url"], "expires": "2026-01-01T00:00:00Z", "remove_expiration": True}
    fails(session, "modify_shared_link_settings", both, "InvalidRequest", "invalid_settings")
    missing = "https://www.dropbox.com/scl/fi/nope/x?dl=0"
    fails(session, "revoke_shared_link", {"url": missing}, "NotFound", "shared_link_not_found/")
    ok(session, "revoke_shared_link", {"url": link["url"]})
    assert link["url"] not in {k["url"] for k in ok(session, "list_shared_links")}


def test_members_link_policy_resolves_to_shared_folder_only(session: ToolSession) -> None:
    sign_in(session, "lena")
    link = ok(session, "list_shared_links", {"path": "/Team Shared/Templates/Brand guidelines.pdf"})[0]
    assert link["link_permissions"]["resolved_visibility"] == "shared_folder_only"
    created = ok(
        session,
        "create_shared_link_with_settings",
        {"path": "/Clients/Acme Logistics/Contract.pdf", "requested_visibility": "team_only"},
    )
    assert created["link_permissions"]["resolved_visibility"] == "team_only"


def test_share_folder_rules(session: ToolSession) -> None:
    sign_in(session)
    fails(session, "share_folder", {"path": "/Admin/Rates 2025.xlsx"}, "Conflict", "bad_path/is_file/")
    fails(session, "share_folder", {"path": HVR}, "Conflict", "bad_path/already_shared/")
    fails(session, "share_folder", {"path": f"{HVR}/Drawings"}, "Conflict", "bad_path/inside_shared_folder/")
    fails(session, "share_folder", {"path": "/Projects"}, "Conflict", "bad_path/contains_shared_folder/")
    fails(session, "share_folder", {"path": ESD, "member_policy": "team"}, "Conflict", "team_policy")
    folder = ok(session, "share_folder", {"path": ESD})
    members = ok(session, "list_folder_members", {"shared_folder_id": folder["shared_folder_id"]})
    assert [(m["email"], m["access_type"]) for m in members] == [("priya@nairstudio.com", "owner")]
    assert ok(session, "get_metadata", {"path": ESD})["sharing_info"]["shared_folder_id"] == folder["shared_folder_id"]


def test_member_management_permissions(session: ToolSession) -> None:
    sign_in(session)
    est = SF["Elm Street Structural"]
    add = {"shared_folder_id": est, "members": [{"email": "a@b.com", "access_level": "viewer"}]}
    fails(session, "add_folder_member", add, "PermissionDenied", "no_permission/")
    fails(
        session,
        "list_folder_members",
        {"shared_folder_id": SF["Band"]},
        "PermissionDenied",
        "access_error/not_a_member/",
    )
    fails(session, "list_folder_members", {"shared_folder_id": "123"}, "NotFound", "access_error/invalid_id/")
    mpd = SF["Marston Planning Docs"]
    fails(
        session,
        "remove_folder_member",
        {"shared_folder_id": mpd, "email": "grace.lin@marstonplanning.org"},
        "PermissionDenied",
        "Viewers",
    )


def test_add_update_remove_members(session: ToolSession) -> None:
    sign_in(session)
    hvr = SF["Harbour View Residence"]
    bad = {"shared_folder_id": hvr, "members": [{"email": "not-an-email", "access_level": "viewer"}]}
    fails(session, "add_folder_member", bad, "invalid_arguments", "members.0.email")
    owner_level = {"shared_folder_id": hvr, "members": [{"email": "x@y.com", "access_level": "owner"}]}
    fails(session, "add_folder_member", owner_level, "invalid_arguments", "access_level")
    members = ok(session, "add_folder_member", {"shared_folder_id": hvr, "members": [
        {"email": "Site@Northgate-Build.co.uk", "access_level": "viewer_no_comment"},
        {"email": "marco@bellini-eng.com", "access_level": "viewer"},
    ]})  # fmt: skip
    by_email = {m["email"]: m for m in members}
    assert by_email["site@northgate-build.co.uk"]["is_invitee"]
    assert by_email["marco@bellini-eng.com"]["access_type"] == "editor"  # existing members keep their access
    owner = {"shared_folder_id": hvr, "email": "priya@nairstudio.com", "access_level": "viewer"}
    fails(session, "update_folder_member", owner, "PermissionDenied", "no_permission/")
    stranger = {"shared_folder_id": hvr, "email": "who@x.com", "access_level": "viewer"}
    fails(session, "update_folder_member", stranger, "NotFound", "member_error/not_a_member/")
    assert (
        ok(
            session,
            "update_folder_member",
            {**stranger, "email": "james.whitaker@outlook.com", "access_level": "editor"},
        )["access_type"]
        == "editor"
    )
    fails(
        session,
        "remove_folder_member",
        {"shared_folder_id": hvr, "email": "priya@nairstudio.com"},
        "PermissionDenied",
        "folder_owner/",
    )
    ok(session, "remove_folder_member", {"shared_folder_id": hvr, "email": "olivia.whitaker@outlook.com"})
    assert "olivia.whitaker@outlook.com" not in {
        m["email"] for m in ok(session, "list_folder_members", {"shared_folder_id": hvr})
    }


def test_team_member_policy_refuses_outside_emails(session: ToolSession) -> None:
    sign_in(session, "lena")
    outside = {
        "shared_folder_id": SF["Team Shared"],
        "members": [{"email": "ana@silva-design.pt", "access_level": "viewer"}],
    }
    fails(session, "add_folder_member", outside, "Conflict", "cant_share_outside_team/")
    inside = {
        "shared_folder_id": SF["Team Shared"],
        "members": [{"email": "new.hire@brightwell.io", "access_level": "viewer"}],
    }
    assert len(ok(session, "add_folder_member", inside)) == 4


def test_editors_policy_lets_editors_manage(session: ToolSession) -> None:
    sign_in(session, "dan")
    band = SF["Band"]
    members = ok(session, "list_folder_members", {"shared_folder_id": band})
    assert {m["access_type"] for m in members} == {"owner", "editor", "viewer"}
    ok(
        session,
        "update_folder_member",
        {"shared_folder_id": band, "email": "leo.marsh@gmail.com", "access_level": "editor"},
    )


def test_file_request_deadlines_need_paid_plan(session: ToolSession) -> None:
    sign_in(session, "dan")
    args = {"title": "Photos", "destination": "/Band/Photos 2", "deadline": "2025-10-01T00:00:00Z"}
    fails(session, "create_file_request", args, "PermissionDenied", "Professional and Business")
    created = ok(session, "create_file_request", {"title": "Photos", "destination": "/Band/Photos 2"})
    assert created["url"] == f"https://www.dropbox.com/request/{created['id']}" and created["is_open"]
    assert ok(session, "get_metadata", {"path": "/Band/Photos 2"})["tag"] == "folder"
    late = {"id": created["id"], "allow_late_uploads": "one_day"}
    fails(session, "update_file_request", late, "InvalidRequest", "needs a deadline")


def test_file_request_validation_and_deletion(session: ToolSession) -> None:
    sign_in(session)
    fails(
        session,
        "create_file_request",
        {"title": "X", "destination": "/Admin/Rates 2025.xlsx"},
        "Conflict",
        "not_a_folder/",
    )
    past = {"title": "X", "destination": "/Admin/X", "deadline": "2025-01-01T00:00:00Z"}
    fails(session, "create_file_request", past, "InvalidRequest", "future")
    view_only = {"title": "X", "destination": "/Projects/Marston Planning Docs/In"}
    fails(session, "create_file_request", view_only, "PermissionDenied", "no_permission/")
    requests = {r["title"]: r for r in ok(session, "list_file_requests")}
    open_one = requests["Harbour View site photos"]
    fails(session, "delete_file_request", {"ids": [open_one["id"]]}, "Conflict", "file_request_open/")
    fails(session, "update_file_request", {"id": "nope", "open": False}, "NotFound", "not_found/")
    ok(session, "update_file_request", {"id": open_one["id"], "open": False})
    gone = ok(session, "delete_file_request", {"ids": [open_one["id"], requests["Elm Street survey"]["id"]]})
    assert len(gone) == 2 and len(ok(session, "list_file_requests")) == 2


def test_update_file_request_deadline_and_clear(session: ToolSession) -> None:
    sign_in(session, "lena")
    req = {r["title"]: r for r in ok(session, "list_file_requests")}["Acme Retail Q3 data"]
    moved = ok(
        session, "update_file_request", {"id": req["id"], "deadline": "2025-10-10T17:00:00Z", "title": "Acme Q3"}
    )
    assert (moved["deadline"], moved["allow_late_uploads"], moved["title"]) == (
        "2025-10-10T17:00:00Z",
        "two_days",
        "Acme Q3",
    )
    both = {"id": req["id"], "deadline": "2025-10-11T17:00:00Z", "clear_deadline": True}
    fails(session, "update_file_request", both, "InvalidRequest", "not both")
    cleared = ok(session, "update_file_request", {"id": req["id"], "clear_deadline": True})
    assert cleared["deadline"] is None and cleared["allow_late_uploads"] is None


def test_accounts_see_only_their_own_dropbox(session: ToolSession) -> None:
    sign_in(session, "lena")
    fails(session, "get_metadata", {"path": HVR}, "NotFound", "path/not_found/")
    priya_link = next(k["url"] for k in SEED["shared_links"] if "Portfolio" in k["url"])
    fails(session, "revoke_shared_link", {"url": priya_link}, "NotFound", "shared_link_not_found/")
