"""The Google Drive environment's tools on the real seed: sign-in and OAuth scopes, what each person can see (roles
from ownership, permissions on the item and the folders above it, groups, shared drive membership and
restrictions, other people's trash, expired permissions), Drive's query language and corpora, creating, renaming,
starring, moving (one parent; into, within and out of shared drives), trashing and restoring, deleting for good and
emptying the trash, copying, sharing (roles per place, grantees, the organizations' policies, shared drive
restrictions, expiration dates, ownership transfers and pending owners), inherited permissions, revisions (keep
forever, restoring an old version), shared drive settings, comments and replies, and access requests. Every error
path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("google_drive")
CLOCK = datetime(2025, 6, 17, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
USERS = {u["email"]: u for u in SEED["users"]}
DRIVES = {d["name"]: d["id"] for d in SEED["drives"]}
FOLDER = "application/vnd.google-apps.folder"

MAYA, DANIEL, PRIYA, TOM = (
    "maya.okafor@cobaltridge.com",
    "daniel.reyes@cobaltridge.com",
    "priya.natarajan@cobaltridge.com",
    "tom.becker@cobaltridge.com",
)
HANNAH, LUIS, GRACE, SAM = (
    "hannah.cho@cobaltridge.com",
    "luis.ortega@cobaltridge.com",
    "grace.liu@cobaltridge.com",
    "sam.whitfield@cobaltridge.com",
)
DANIELLE, VICTOR = "danielle.reyes@lindenmoss.com", "victor.adeyemi@lindenmoss.com"
ELAINE, JESS, RAVI, MARCUS = (
    "elaine.foster.home@gmail.com",
    "jess.morgan.photo@gmail.com",
    "ravi.patel.build@gmail.com",
    "marcus.hale.studio@gmail.com",
)
PROJ, FIN, MKT, JOINT, ARCH, LMCALC = (
    DRIVES["Projects – Active"],
    DRIVES["Finance"],
    DRIVES["Marketing & Brand"],
    DRIVES["Harbor Point – Joint (Linden & Moss)"],
    DRIVES["Archive 2023"],
    DRIVES["L&M Calcs"],
)

session = session_fixture(SPEC, CLOCK)


def fid(name: str, drive: str | None = None, owner: str | None = None) -> str:
    """The id of the one seed item with this name (narrowed by shared drive or owner)."""
    found = [
        f["id"]
        for f in SEED["files"]
        if f["name"] == name
        and (drive is None or f["drive_id"] == drive)
        and (owner is None or f["owner_email"] == owner)
    ]
    assert len(found) == 1, (name, found)
    return found[0]


def pid(email: str) -> str:
    return USERS[email]["permission_id"]


def sign_in(session: ToolSession, email: str, scope: str = "drive") -> dict:
    return ok(session, "sign_in", {"email": email, "scope": scope}, caller="user")


def names(listing: dict) -> list[str]:
    return [f["name"] for f in listing["files"]]


def perms(session: ToolSession, file_id: str) -> dict[str, dict]:
    return {
        p["emailAddress"] or p["domain"] or p["id"]: p
        for p in ok(session, "permissions_list", {"fileId": file_id})["permissions"]
    }


NARR = "Harbor Point – Schematic Design Narrative"
BUDGET = "Foster Residence – Budget"


# ---------------------------------------------------------------- signing in


def test_nothing_works_before_sign_in_and_sign_in_is_the_users(session):
    assert len(SPEC.tools) == 23
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["sign_in"]
    fails(session, "files_list", {}, "PermissionDenied", "401 authError: Login Required")
    outcome = session.call("sign_in", {"email": DANIEL})
    assert not outcome.ok and outcome.error_kind == "user_only"
    fails(
        session,
        "sign_in",
        {"email": "nobody@cobaltridge.com"},
        "NotFound",
        "Couldn't find your Google Account",
        caller="user",
    )
    about = sign_in(session, " Daniel.Reyes@cobaltridge.com ")
    assert about["user"]["emailAddress"] == DANIEL and about["scope"] == "drive"
    assert ok(session, "about_get")["domainSharingPolicy"] == "allowedWithWarning"


def test_the_read_only_scope_reads_but_never_writes(session):
    sign_in(session, DANIEL, "drive.readonly")
    assert ok(session, "files_get", {"fileId": fid(BUDGET)})["name"] == BUDGET
    fails(
        session,
        "files_update",
        {"fileId": fid(BUDGET), "starred": True},
        "PermissionDenied",
        "403 insufficientPermissions: Request had insufficient authentication scopes",
    )


# ---------------------------------------------------------------- search


def test_trashed_items_are_listed_unless_the_query_excludes_them(session):
    sign_in(session, DANIEL)
    everything = names(ok(session, "files_list", {"q": "name contains 'Copy'"}))
    assert "Copy of Harbor Point – Schematic Design Narrative" in everything
    assert "Copy of Harbor Point – Schematic Design Narrative" not in names(
        ok(session, "files_list", {"q": "name contains 'Copy' and trashed = false"})
    )


def test_name_contains_matches_the_start_of_a_word(session):
    sign_in(session, DANIEL)
    assert "Harbor Point – personal notes" in names(ok(session, "files_list", {"q": "name contains 'pers'"}))
    assert names(ok(session, "files_list", {"q": "name contains 'ersonal'"})) == []
    assert names(ok(session, "files_list", {"q": "fullText contains 'childrens area'"})) == [
        "Harbor Point – personal notes"
    ]


def test_shared_drive_items_only_with_include_items_from_all_drives(session):
    sign_in(session, DANIEL)
    assert names(ok(session, "files_list", {"q": "name = 'Door schedule'"})) == []
    both = ok(
        session,
        "files_list",
        {"q": "name = 'Door schedule'", "corpora": "allDrives", "includeItemsFromAllDrives": True},
    )
    assert [f["driveId"] for f in both["files"]] == [PROJ, PROJ]
    fails(
        session,
        "files_list",
        {"corpora": "drive", "includeItemsFromAllDrives": True},
        "InvalidRequest",
        "driveId parameter must be specified if and only if corpora is set to drive",
    )
    fails(session, "files_list", {"driveId": PROJ}, "InvalidRequest", "if and only if corpora is set to drive")
    fails(
        session,
        "files_list",
        {"corpora": "drive", "driveId": PROJ},
        "InvalidRequest",
        "includeItemsFromAllDrives parameter must be set to true",
    )
    fails(
        session,
        "files_list",
        {"corpora": "drive", "driveId": LMCALC, "includeItemsFromAllDrives": True},
        "NotFound",
        "Shared drive not found",
    )
    finance = ok(
        session,
        "files_list",
        {
            "corpora": "drive",
            "driveId": FIN,
            "includeItemsFromAllDrives": True,
            "q": "mimeType = 'application/vnd.google-apps.spreadsheet'",
        },
    )
    assert sorted(names(finance)) == [
        "Payroll summary – May 2025",
        "Q1 Budget vs Actuals",
        "Q2 Budget vs Actuals",
        "Q3 Budget",
    ]


def test_query_terms_owners_parents_stars_sharing_visibility_and_times(session):
    sign_in(session, DANIEL)
    foster = fid("Foster Residence")
    inside = names(ok(session, "files_list", {"q": f"'{foster}' in parents", "orderBy": "name"}))
    assert inside[0] == "Foster Residence – Budget" and "Foster Residence – measured drawings.pdf" in inside
    not_mine = names(ok(session, "files_list", {"q": f"'{foster}' in parents and not 'me' in owners"}))
    assert not_mine == ["Foster Residence – measured drawings.pdf"]
    starred = names(
        ok(session, "files_list", {"q": "starred = true", "corpora": "allDrives", "includeItemsFromAllDrives": True})
    )
    assert "Harbor Point – personal notes" in starred and "RFI log" in starred
    shared = names(ok(session, "files_list", {"q": "sharedWithMe and trashed = false"}))
    assert "Harbor Point – connection details.pdf" in shared and "Foster wish list" in shared
    assert names(ok(session, "files_list", {"q": "visibility = 'anyoneWithLink'"})) == ["Portfolio 2024"]
    recent = names(ok(session, "files_list", {"q": "modifiedTime > '2025-06-14T00:00:00' and 'me' in owners"}))
    assert set(recent) == {"Harbor Point – personal notes", "Civic Libraries – conference talk"}
    fails(session, "files_list", {"q": "title contains 'x'"}, "InvalidRequest", "400 invalid: Invalid Value (q)")
    fails(session, "files_list", {"q": "name contains 'x"}, "InvalidRequest", "Invalid Value (q)")
    fails(session, "files_list", {"orderBy": "size desc"}, "InvalidRequest", "Invalid orderBy")


def test_link_only_files_are_opened_by_id_but_not_listed_and_domain_corpus_finds_discoverable_ones(session):
    sign_in(session, PRIYA)
    portfolio = fid("Portfolio 2024")
    assert ok(session, "files_get", {"fileId": portfolio})["capabilities"]["canEdit"] is False
    assert "Portfolio 2024" not in names(ok(session, "files_list", {"q": "name contains 'Portfolio'"}))
    assert "Expense policy 2025" not in names(ok(session, "files_list", {"q": "name contains 'Expense'"}))
    assert "Expense policy 2025" in names(
        ok(session, "files_list", {"q": "name contains 'Expense'", "corpora": "domain"})
    )


def test_pages_follow_next_page_token_and_page_size_is_bounded(session):
    sign_in(session, DANIEL)
    first = ok(session, "files_list", {"q": "mimeType = 'image/jpeg'", "pageSize": 5})
    assert len(first["files"]) == 5 and first["nextPageToken"]
    second = ok(
        session, "files_list", {"q": "mimeType = 'image/jpeg'", "pageSize": 5, "pageToken": first["nextPageToken"]}
    )
    assert not {f["id"] for f in first["files"]} & {f["id"] for f in second["files"]}
    fails(session, "files_list", {"pageSize": 1001}, "invalid_arguments", "pageSize")


# ---------------------------------------------------------------- who sees what


def test_invisible_items_are_not_found_and_other_peoples_trash_is_invisible(session):
    sign_in(session, DANIEL)
    fails(
        session,
        "files_get",
        {"fileId": fid("Partner compensation")},
        "NotFound",
        f"404 notFound: File not found: {fid('Partner compensation')}.",
    )
    sign_in(session, MAYA)
    fails(session, "files_get", {"fileId": fid("Q3 Budget (draft)")}, "NotFound", "File not found")
    sign_in(session, LUIS)
    assert ok(session, "files_get", {"fileId": fid("Q3 Budget (draft)")})["trashed"] is True


def test_folders_pass_access_down_and_groups_count(session):
    sign_in(session, RAVI)
    punch = ok(session, "files_get", {"fileId": fid("Alder Street – punch list")})
    assert punch["capabilities"]["canEdit"] is True and punch["ownedByMe"] is False
    sign_in(session, "owen.brooks@cobaltridge.com")  # through the Design Team group
    assert ok(session, "files_get", {"fileId": fid("Material library")})["capabilities"]["canEdit"] is True


def test_expired_permissions_grant_nothing(session):
    sign_in(session, ELAINE)
    fails(
        session, "files_get", {"fileId": fid("Foster Residence – Client presentation v1")}, "NotFound", "File not found"
    )
    assert ok(session, "files_get", {"fileId": fid(BUDGET)})["capabilities"]["canComment"] is False


def test_shared_drive_restrictions_cut_outsiders_and_non_members_off(session):
    sign_in(session, DANIELLE)
    fails(session, "files_get", {"fileId": fid("Q3 Budget")}, "NotFound", "File not found")
    assert ok(session, "files_get", {"fileId": fid("S-101 Foundation Plan.pdf")})["driveId"] == JOINT
    sign_in(session, DANIEL)
    fails(session, "files_get", {"fileId": fid("Harbor Point – lateral calcs")}, "NotFound", "File not found")


# ---------------------------------------------------------------- creating, renaming, starring


def test_create_lands_in_my_drive_or_belongs_to_the_shared_drive(session):
    sign_in(session, DANIEL)
    mine = ok(session, "files_create", {"name": "Harbor Point – CA phase", "mimeType": FOLDER})
    assert mine["parents"] == [USERS[DANIEL]["root_id"]] and mine["owners"] == [DANIEL]
    doc = ok(
        session,
        "files_create",
        {"name": "Punch walk notes", "mimeType": "application/vnd.google-apps.document", "parents": [fid("01 Admin")]},
    )
    assert doc["driveId"] == PROJ and doc["owners"] == [] and doc["headRevisionId"] == "1"
    assert ok(session, "revisions_list", {"fileId": doc["id"]})["revisions"][0]["id"] == "1"
    fails(
        session,
        "files_create",
        {"name": "x", "parents": [fid("2025")]},
        "PermissionDenied",
        "insufficientFilePermissions",
    )
    fails(
        session,
        "files_create",
        {"name": "x", "parents": [fid("Foster Residence – Budget")]},
        "InvalidRequest",
        "is not a folder",
    )
    fails(
        session,
        "files_create",
        {"name": "x", "parents": [fid("Foster Residence"), fid("Cedar Hollow sketches")]},
        "invalid_arguments",
        "Increasing the number of parents is not allowed",
    )


def test_renaming_needs_edit_access_and_stars_are_personal(session):
    sign_in(session, PRIYA)
    handover = fid("Handover – open items")
    fails(
        session,
        "files_update",
        {"fileId": handover, "name": "Handover"},
        "PermissionDenied",
        "insufficientFilePermissions",
    )
    starred = ok(session, "files_update", {"fileId": handover, "starred": True})
    assert starred["starred"] is True
    sign_in(session, DANIEL)
    assert ok(session, "files_get", {"fileId": handover})["starred"] is False
    renamed = ok(
        session,
        "files_update",
        {"fileId": fid("Foster Residence – Budget"), "name": "Foster – Budget", "description": "Working budget"},
    )
    assert renamed["name"] == "Foster – Budget" and renamed["version"] == "8"
    fails(session, "files_update", {"fileId": handover}, "InvalidRequest", "Nothing to change")


def test_sharing_settings_writers_can_share_is_the_owners_and_copy_restriction_needs_share_rights(session):
    sign_in(session, LUIS)
    comp = fid("Partner compensation")
    fails(
        session,
        "files_update",
        {"fileId": comp, "writersCanShare": True},
        "PermissionDenied",
        "Only the owner can change whether editors may share",
    )
    fails(
        session,
        "files_update",
        {"fileId": comp, "copyRequiresWriterPermission": False},
        "PermissionDenied",
        "insufficientFilePermissions",
    )
    sign_in(session, MAYA)
    assert ok(session, "files_update", {"fileId": comp, "writersCanShare": True})["writersCanShare"] is True
    fails(
        session,
        "files_update",
        {"fileId": fid("Q3 Budget"), "writersCanShare": False},
        "InvalidRequest",
        "not supported for items in shared drives",
    )


# ---------------------------------------------------------------- moving


def test_an_item_has_exactly_one_parent(session):
    sign_in(session, DANIEL)
    notes, foster = fid("Harbor Point – personal notes"), fid("Foster Residence")
    fails(
        session,
        "files_update",
        {"fileId": notes, "addParents": foster},
        "PermissionDenied",
        "403 cannotAddParent: Increasing the number of parents is not allowed.",
    )
    fails(
        session,
        "files_update",
        {"fileId": fid("RFI log"), "addParents": fid("Calcs")},
        "PermissionDenied",
        "403 teamDrivesParentLimit: A shared drive item must have exactly one parent.",
    )
    fails(
        session,
        "files_update",
        {"fileId": notes, "addParents": foster, "removeParents": foster},
        "InvalidRequest",
        "is not a parent of",
    )
    fails(
        session,
        "files_update",
        {"fileId": foster, "addParents": fid("Site visit photos"), "removeParents": "root"},
        "InvalidRequest",
        "cycle",
    )
    moved = ok(session, "files_update", {"fileId": notes, "addParents": foster, "removeParents": "root"})
    assert moved["parents"] == [foster]


def test_moving_into_a_shared_drive(session):
    sign_in(session, DANIEL)
    connection = fid("Harbor Point – connection details.pdf", owner=DANIEL)
    coordination = fid("Coordination")
    fails(
        session,
        "files_update",
        {"fileId": fid("Foster Residence"), "addParents": coordination, "removeParents": "root"},
        "PermissionDenied",
        "403 teamDrivesFolderMoveInNotSupported: Moving folders into shared drives is not supported.",
    )
    moved = ok(session, "files_update", {"fileId": connection, "addParents": coordination, "removeParents": "root"})
    assert moved["driveId"] == JOINT and moved["owners"] == [] and moved["ownedByMe"] is False
    assert DANIEL not in perms(session, connection) or perms(session, connection)[DANIEL]["inherited"]
    wish = fid("Foster wish list")  # Daniel writes it; Elaine (its owner) is no member of Projects – Active
    fails(
        session,
        "files_update",
        {"fileId": wish, "addParents": fid("Cedar Hollow Residence"), "removeParents": USERS[ELAINE]["root_id"]},
        "PermissionDenied",
        "403 fileOwnerNotMemberOfTeamDrive",
    )
    sign_in(session, PRIYA)
    fails(
        session,
        "files_update",
        {"fileId": fid("Door schedule (draft)"), "addParents": fid("Lakeview Clinic"), "removeParents": "root"},
        "PermissionDenied",
        "insufficientFilePermissions",
    )


def test_moving_within_and_out_of_a_shared_drive_needs_content_manager_and_manager(session):
    sign_in(session, PRIYA)  # a writer (contributor) of Projects – Active through the Design Team
    window = fid("Window schedule")
    fails(
        session,
        "files_update",
        {"fileId": window, "addParents": fid("Permit set"), "removeParents": fid("Alder Street Townhomes")},
        "PermissionDenied",
        "insufficientFilePermissions",
    )
    sign_in(session, TOM)  # content manager
    assert ok(
        session,
        "files_update",
        {"fileId": window, "addParents": fid("Permit set"), "removeParents": fid("Alder Street Townhomes")},
    )["parents"] == [fid("Permit set")]
    fails(
        session,
        "files_update",
        {"fileId": window, "addParents": "root", "removeParents": fid("Permit set")},
        "PermissionDenied",
        "Only managers of a shared drive can move its items out of it.",
    )
    sign_in(session, DANIEL)  # manager
    out = ok(session, "files_update", {"fileId": window, "addParents": "root", "removeParents": fid("Permit set")})
    assert out["driveId"] is None and out["owners"] == [DANIEL]
    assert perms(session, window)[DANIEL]["role"] == "owner"


# ---------------------------------------------------------------- trash and delete


def test_only_the_owner_trashes_and_a_folder_takes_its_contents_along(session):
    sign_in(session, HANNAH)
    fails(
        session,
        "files_update",
        {"fileId": fid(BUDGET), "trashed": True},
        "PermissionDenied",
        "insufficientFilePermissions",
    )
    sign_in(session, DANIEL)
    photos = fid("Site visit photos")
    trashed = ok(session, "files_update", {"fileId": photos, "trashed": True})
    assert trashed["trashed"] and trashed["explicitlyTrashed"] and trashed["trashingUser"]["me"]
    inside = ok(session, "files_get", {"fileId": fid("foster_site_01.jpg")})
    assert inside["trashed"] is True and inside["explicitlyTrashed"] is False
    sign_in(session, HANNAH)
    fails(session, "files_get", {"fileId": photos}, "NotFound", "File not found")
    sign_in(session, DANIEL)
    ok(session, "files_update", {"fileId": photos, "trashed": False})
    assert ok(session, "files_get", {"fileId": fid("foster_site_01.jpg")})["trashed"] is False


def test_restoring_an_item_whose_folder_stays_trashed_brings_it_to_the_top(session):
    sign_in(session, LUIS)
    restored = ok(session, "files_update", {"fileId": fid("payroll_export_2023_01.csv"), "trashed": False})
    assert restored["trashed"] is False and restored["parents"] == [USERS[LUIS]["root_id"]]


def test_shared_drive_trash_needs_content_manager(session):
    sign_in(session, PRIYA)
    fails(
        session,
        "files_update",
        {"fileId": fid("Window schedule"), "trashed": True},
        "PermissionDenied",
        "insufficientFilePermissions",
    )
    sign_in(session, TOM)
    assert ok(session, "files_update", {"fileId": fid("Window schedule"), "trashed": True})["trashed"] is True
    fails(
        session, "files_delete", {"fileId": fid("Window schedule")}, "PermissionDenied", "insufficientFilePermissions"
    )


def test_delete_for_good_is_the_owners_and_gives_others_files_back(session):
    sign_in(session, HANNAH)
    fails(
        session, "files_delete", {"fileId": fid("Foster Residence")}, "PermissionDenied", "insufficientFilePermissions"
    )
    sign_in(session, DANIEL)
    gone = ok(session, "files_delete", {"fileId": fid("Foster Residence")})
    assert gone["itemsDeleted"] == 11
    fails(session, "files_get", {"fileId": fid(BUDGET)}, "NotFound", "File not found")
    sign_in(session, HANNAH)
    drawings = ok(session, "files_get", {"fileId": fid("Foster Residence – measured drawings.pdf")})
    assert drawings["parents"] == [USERS[HANNAH]["root_id"]]


def test_emptying_the_trash_frees_storage(session):
    sign_in(session, LUIS)
    before = ok(session, "about_get")["storageQuota"]
    assert int(before["usageInDriveTrash"]) > 11_000_000_000
    emptied = ok(session, "files_empty_trash", {})
    assert emptied["itemsDeleted"] == 8 and emptied["bytesFreed"] == before["usageInDriveTrash"]
    after = ok(session, "about_get")["storageQuota"]
    assert after["usageInDriveTrash"] == "0"
    fails(session, "files_get", {"fileId": fid("Q3 Budget (draft)")}, "NotFound", "File not found")
    fails(session, "files_empty_trash", {"driveId": LMCALC}, "NotFound", "Shared drive not found")
    sign_in(session, TOM)
    fails(session, "files_empty_trash", {"driveId": PROJ}, "PermissionDenied", "Only managers")
    sign_in(session, DANIEL)
    assert ok(session, "files_empty_trash", {"driveId": PROJ})["itemsDeleted"] == 1


# ---------------------------------------------------------------- copying


def test_copies_are_the_copiers_and_copy_restrictions_hold(session):
    sign_in(session, DANIEL)
    fails(
        session,
        "files_copy",
        {"fileId": fid("Q3 Budget")},
        "PermissionDenied",
        "403 cannotCopyFile: This file cannot be copied by the authenticated user.",
    )
    fails(session, "files_copy", {"fileId": fid("Foster Residence")}, "InvalidRequest", "Folders can't be copied")
    sign_in(session, PRIYA)
    copy = ok(session, "files_copy", {"fileId": fid("Material library")})
    assert copy["name"] == "Copy of Material library" and copy["owners"] == [PRIYA]
    assert copy["parents"] == [USERS[PRIYA]["root_id"]]  # Sam's My Drive is not Priya's to add to
    here = ok(session, "files_copy", {"fileId": fid("Window schedule"), "name": "Window schedule – v2"})
    assert here["driveId"] == PROJ and here["parents"] == [fid("Alder Street Townhomes")] and here["owners"] == []


# ---------------------------------------------------------------- sharing


def test_share_with_people_groups_domains_and_anyone(session):
    sign_in(session, DANIEL)
    notes = fid("Harbor Point – personal notes")
    person = ok(
        session, "permissions_create", {"fileId": notes, "role": "commenter", "type": "user", "emailAddress": HANNAH}
    )
    assert person["id"] == pid(HANNAH) and person["displayName"] == "Hannah Cho"
    assert (
        ok(
            session,
            "permissions_create",
            {"fileId": notes, "role": "reader", "type": "group", "emailAddress": "design-team@cobaltridge.com"},
        )["type"]
        == "group"
    )
    link = ok(session, "permissions_create", {"fileId": notes, "role": "reader", "type": "anyone"})
    assert link["id"] == "anyoneWithLink" and link["allowFileDiscovery"] is False
    again = ok(
        session, "permissions_create", {"fileId": notes, "role": "writer", "type": "user", "emailAddress": HANNAH}
    )
    assert again["role"] == "writer" and perms(session, notes)[HANNAH]["role"] == "writer"
    fails(
        session,
        "permissions_create",
        {"fileId": notes, "role": "reader", "type": "user", "emailAddress": "paul.foster@fosterhomes.net"},
        "InvalidRequest",
        "No Google account associated with this email address",
    )
    fails(
        session,
        "permissions_create",
        {"fileId": notes, "role": "reader", "type": "user", "emailAddress": "leadership@cobaltridge.com"},
        "InvalidRequest",
        "share with it as type group",
    )
    fails(
        session,
        "permissions_create",
        {"fileId": notes, "role": "organizer", "type": "user", "emailAddress": HANNAH},
        "InvalidRequest",
        "only exists in shared drives",
    )
    fails(
        session,
        "permissions_create",
        {"fileId": notes, "role": "reader", "type": "user"},
        "InvalidRequest",
        "emailAddress is required",
    )


def test_who_may_share(session):
    sign_in(session, ELAINE)  # commenter
    fails(
        session,
        "permissions_create",
        {"fileId": fid("Foster Residence – Design Brief"), "role": "reader", "type": "user", "emailAddress": MARCUS},
        "PermissionDenied",
        "insufficientFilePermissions",
    )
    sign_in(session, LUIS)  # a writer, but editors may not share Partner compensation
    fails(
        session,
        "permissions_create",
        {"fileId": fid("Partner compensation"), "role": "reader", "type": "user", "emailAddress": TOM},
        "PermissionDenied",
        "insufficientFilePermissions",
    )
    sign_in(session, HANNAH)  # a writer of Daniel's folder may share what is inside
    assert (
        ok(
            session,
            "permissions_create",
            {"fileId": fid(BUDGET), "role": "reader", "type": "user", "emailAddress": TOM},
        )["role"]
        == "reader"
    )


def test_organization_policy_limits_sharing_outside(session):
    sign_in(session, DANIELLE)  # Linden & Moss shares outside only with Cobalt Ridge
    beams = fid("Alder Street beam sizing")
    assert (
        ok(session, "permissions_create", {"fileId": beams, "role": "reader", "type": "user", "emailAddress": HANNAH})[
            "domain"
        ]
        == "cobaltridge.com"
    )
    fails(
        session,
        "permissions_create",
        {"fileId": beams, "role": "reader", "type": "user", "emailAddress": RAVI},
        "PermissionDenied",
        "403 shareOutNotPermitted",
    )
    fails(
        session,
        "permissions_create",
        {"fileId": beams, "role": "reader", "type": "anyone"},
        "PermissionDenied",
        "403 publishOutNotPermitted",
    )
    sign_in(session, DANIEL)  # Cobalt Ridge allows it
    assert (
        ok(
            session,
            "permissions_create",
            {"fileId": fid("Portfolio 2024"), "role": "reader", "type": "user", "emailAddress": RAVI},
        )["role"]
        == "reader"
    )


def test_shared_drive_restrictions_on_sharing(session):
    sign_in(session, LUIS)
    q3 = fid("Q3 Budget")
    fails(
        session,
        "permissions_create",
        {"fileId": q3, "role": "reader", "type": "user", "emailAddress": DANIELLE},
        "PermissionDenied",
        "403 teamDriveDomainUsersOnlyRestriction",
    )
    fails(
        session,
        "permissions_create",
        {"fileId": q3, "role": "reader", "type": "user", "emailAddress": GRACE},
        "PermissionDenied",
        "403 teamDriveTeamMembersOnlyRestriction",
    )
    assert (
        ok(session, "permissions_create", {"fileId": q3, "role": "writer", "type": "user", "emailAddress": TOM})["role"]
        == "writer"
    )
    sign_in(session, PRIYA)  # writer in Marketing & Brand, where only managers share folders
    fails(
        session,
        "permissions_create",
        {"fileId": fid("Awards"), "role": "reader", "type": "user", "emailAddress": JESS},
        "PermissionDenied",
        "insufficientFilePermissions",
    )
    assert (
        ok(
            session,
            "permissions_create",
            {"fileId": fid("Project pages – copy"), "role": "commenter", "type": "user", "emailAddress": JESS},
        )["role"]
        == "commenter"
    )


def test_shared_drive_members_and_their_roles(session):
    sign_in(session, PRIYA)
    fails(
        session,
        "permissions_create",
        {"fileId": PROJ, "role": "writer", "type": "user", "emailAddress": RAVI},
        "PermissionDenied",
        "Only managers (organizers) of a shared drive can change its members.",
    )
    members = perms(session, PROJ)
    assert members["design-team@cobaltridge.com"]["role"] == "writer"
    assert members[DANIEL]["permissionDetails"][0]["permissionType"] == "member"
    sign_in(session, DANIEL)
    added = ok(
        session, "permissions_create", {"fileId": JOINT, "role": "commenter", "type": "user", "emailAddress": RAVI}
    )
    assert added["role"] == "commenter"
    fails(
        session,
        "permissions_create",
        {"fileId": JOINT, "role": "reader", "type": "domain", "domain": "cobaltridge.com"},
        "PermissionDenied",
        "cannotShareTeamDriveTopFolderWithAnyoneOrDomains",
    )
    fails(
        session,
        "permissions_create",
        {
            "fileId": JOINT,
            "role": "reader",
            "type": "user",
            "emailAddress": OLGA_,
            "expirationTime": "2025-07-01T00:00:00Z",
        },
        "PermissionDenied",
        "expirationDateNotAllowedForSharedDriveMembers",
    )
    fails(
        session,
        "permissions_create",
        {"fileId": JOINT, "role": "owner", "type": "user", "emailAddress": TOM, "transferOwnership": True},
        "InvalidRequest",
        "never an owner",
    )
    folder = ok(
        session,
        "permissions_create",
        {"fileId": fid("Coordination"), "role": "fileOrganizer", "type": "user", "emailAddress": HANNAH},
    )
    assert folder["role"] == "fileOrganizer"
    fails(
        session,
        "permissions_create",
        {"fileId": fid("RFI log"), "role": "organizer", "type": "user", "emailAddress": HANNAH},
        "InvalidRequest",
        "shared drive or a folder in it",
    )


OLGA_ = "olga.lindqvist@lindenmoss.com"


def test_expiration_dates(session):
    sign_in(session, DANIEL)
    brief = fid("Foster Residence – Design Brief")
    base = {"fileId": brief, "type": "user", "emailAddress": RAVI}
    made = ok(session, "permissions_create", {**base, "role": "reader", "expirationTime": "2025-07-15T17:00:00-07:00"})
    assert made["expirationTime"] == "2025-07-16T00:00:00Z"
    fails(
        session,
        "permissions_create",
        {**base, "role": "writer", "expirationTime": "2025-07-15T00:00:00Z"},
        "PermissionDenied",
        "403 cannotSetExpiration: Expiration dates can only be set on reader and commenter",
    )
    fails(
        session,
        "permissions_create",
        {**base, "role": "reader", "expirationTime": "2025-06-01T00:00:00Z"},
        "PermissionDenied",
        "expirationDatesMustBeInTheFuture",
    )
    fails(
        session,
        "permissions_create",
        {**base, "role": "reader", "expirationTime": "2026-07-01T00:00:00Z"},
        "PermissionDenied",
        "more than a year in the future",
    )
    fails(
        session,
        "permissions_create",
        {"fileId": brief, "type": "anyone", "role": "reader", "expirationTime": "2025-07-01T00:00:00Z"},
        "PermissionDenied",
        "cannotSetExpirationOnAnyoneOrDomain",
    )
    budget = fid(BUDGET)
    fails(
        session,
        "permissions_update",
        {"fileId": budget, "permissionId": pid(ELAINE), "role": "writer"},
        "PermissionDenied",
        "remove the expiration",
    )
    longer = ok(
        session,
        "permissions_update",
        {"fileId": budget, "permissionId": pid(ELAINE), "expirationTime": "2025-08-01T00:00:00Z"},
    )
    assert longer["expirationTime"] == "2025-08-01T00:00:00Z"
    editor = ok(
        session,
        "permissions_update",
        {"fileId": budget, "permissionId": pid(ELAINE), "role": "writer", "removeExpiration": True},
    )
    assert editor["role"] == "writer" and editor["expirationTime"] is None


def test_ownership_moves_only_within_the_organization(session):
    sign_in(session, SAM)
    light = fid("Harbor Point – lighting study")
    fails(
        session,
        "permissions_create",
        {"fileId": light, "role": "owner", "type": "user", "emailAddress": DANIEL},
        "PermissionDenied",
        "The transferOwnership parameter must be enabled when the permission role is 'owner'.",
    )
    fails(
        session,
        "permissions_create",
        {"fileId": light, "role": "owner", "type": "user", "emailAddress": JESS, "transferOwnership": True},
        "InvalidRequest",
        "400 ownershipChangeAcrossDomainNotPermitted: Ownership can only be transferred to another user in the "
        "same organization as the current owner.",
    )
    fails(
        session,
        "permissions_create",
        {
            "fileId": light,
            "role": "owner",
            "type": "user",
            "emailAddress": DANIEL,
            "transferOwnership": True,
            "sendNotificationEmail": False,
        },
        "InvalidRequest",
        "can't be turned off for ownership transfers",
    )
    moved = ok(
        session,
        "permissions_create",
        {
            "fileId": light,
            "role": "owner",
            "type": "user",
            "emailAddress": DANIEL,
            "transferOwnership": True,
            "moveToNewOwnersRoot": True,
        },
    )
    assert moved["role"] == "owner"
    now = perms(session, light)
    assert now[DANIEL]["role"] == "owner" and now[SAM]["role"] == "writer"
    item = ok(session, "files_get", {"fileId": light})
    assert item["owners"] == [DANIEL] and item["parents"] == [USERS[DANIEL]["root_id"]]
    fails(
        session, "files_update", {"fileId": light, "trashed": True}, "PermissionDenied", "insufficientFilePermissions"
    )
    sign_in(session, PRIYA)
    fails(
        session,
        "permissions_create",
        {
            "fileId": fid("Material library"),
            "role": "owner",
            "type": "user",
            "emailAddress": PRIYA,
            "transferOwnership": True,
        },
        "PermissionDenied",
        "insufficientFilePermissions",
    )
    sign_in(session, DANIEL)
    fails(
        session,
        "permissions_create",
        {"fileId": fid("RFI log"), "role": "owner", "type": "user", "emailAddress": MAYA, "transferOwnership": True},
        "InvalidRequest",
        "their ownership can't be transferred",
    )


def test_personal_accounts_transfer_ownership_once_the_new_owner_accepts(session):
    sign_in(session, JESS)
    prices = fid("Studio price list 2025")
    fails(
        session,
        "permissions_create",
        {"fileId": prices, "role": "owner", "type": "user", "emailAddress": MARCUS, "transferOwnership": True},
        "PermissionDenied",
        "403 consentRequiredForOwnershipTransfer",
    )
    fails(
        session,
        "permissions_update",
        {"fileId": prices, "permissionId": pid(MARCUS), "role": "owner", "transferOwnership": True},
        "PermissionDenied",
        "consentRequiredForOwnershipTransfer",
    )
    fails(
        session,
        "permissions_create",
        {"fileId": prices, "role": "reader", "type": "user", "emailAddress": RAVI, "pendingOwner": True},
        "PermissionDenied",
        "403 pendingOwnerWriterRequired",
    )
    pending = ok(
        session,
        "permissions_create",
        {"fileId": prices, "role": "writer", "type": "user", "emailAddress": MARCUS, "pendingOwner": True},
    )
    assert pending["pendingOwner"] is True
    sign_in(session, MARCUS)
    fails(
        session,
        "permissions_update",
        {"fileId": prices, "permissionId": pid(JESS), "role": "writer"},
        "InvalidRequest",
        "The owner's role can't be changed",
    )
    accepted = ok(
        session,
        "permissions_update",
        {"fileId": prices, "permissionId": pid(MARCUS), "role": "owner", "transferOwnership": True},
    )
    assert accepted["role"] == "owner"
    assert ok(session, "files_get", {"fileId": prices})["ownedByMe"] is True
    sign_in(session, DANIEL)
    fails(
        session,
        "permissions_create",
        {
            "fileId": fid("Portfolio 2024"),
            "role": "writer",
            "type": "user",
            "emailAddress": HANNAH,
            "pendingOwner": True,
        },
        "InvalidRequest",
        "pendingOwner is for transfers between personal Google accounts",
    )


def test_inherited_permissions_are_changed_where_they_come_from(session):
    sign_in(session, DANIEL)
    listed = perms(session, fid(BUDGET))
    assert listed[HANNAH]["inherited"] is True and listed[HANNAH]["permissionDetails"][0]["inheritedFrom"] == fid(
        "Foster Residence"
    )
    fails(
        session,
        "permissions_delete",
        {"fileId": fid(BUDGET), "permissionId": pid(HANNAH)},
        "PermissionDenied",
        "403 cannotModifyInheritedPermission",
    )
    rfi = perms(session, fid("RFI log"))
    assert rfi[MAYA]["permissionDetails"] == [
        {"permissionType": "member", "role": "organizer", "inherited": True, "inheritedFrom": JOINT}
    ]
    assert rfi[DANIELLE]["inherited"] is True
    fails(
        session,
        "permissions_update",
        {"fileId": fid("RFI log"), "permissionId": pid(DANIELLE), "role": "reader"},
        "PermissionDenied",
        "403 cannotModifyInheritedTeamDrivePermission: Cannot update or delete an inherited permission on a "
        "shared drive item.",
    )
    fails(
        session,
        "permissions_delete",
        {"fileId": fid("RFI log"), "permissionId": "12345"},
        "NotFound",
        "404 notFound: Permission not found: 12345.",
    )
    fails(
        session,
        "permissions_delete",
        {"fileId": fid(BUDGET), "permissionId": pid(DANIEL)},
        "PermissionDenied",
        "403 cannotRemoveOwner",
    )
    ok(session, "permissions_delete", {"fileId": fid("Foster Residence"), "permissionId": pid(HANNAH)})
    assert HANNAH not in perms(session, fid(BUDGET))


def test_listing_permissions_needs_edit_access_and_people_may_leave(session):
    sign_in(session, ELAINE)
    brief = fid("Foster Residence – Design Brief")
    fails(session, "permissions_list", {"fileId": brief}, "PermissionDenied", "insufficientFilePermissions")
    ok(session, "permissions_delete", {"fileId": brief, "permissionId": pid(ELAINE)})
    fails(session, "files_get", {"fileId": brief}, "NotFound", "File not found")
    sign_in(session, PRIYA)
    fails(
        session, "permissions_delete", {"fileId": PROJ, "permissionId": pid(MAYA)}, "PermissionDenied", "Only managers"
    )


# ---------------------------------------------------------------- revisions


def test_revisions_need_edit_access_and_folders_have_none(session):
    sign_in(session, PRIYA)
    fails(
        session,
        "revisions_list",
        {"fileId": fid("Handover – open items")},
        "PermissionDenied",
        "insufficientFilePermissions",
    )
    fails(session, "revisions_list", {"fileId": fid("Moodboards")}, "PermissionDenied", "403 revisionsNotSupported")
    listed = ok(session, "revisions_list", {"fileId": fid("A-101 Floor Plans.pdf")})["revisions"]
    assert [r["keepForever"] for r in listed] == [True, False, False, False]
    assert ok(session, "revisions_list", {"fileId": fid("A-101 Floor Plans.pdf"), "pageSize": 2})["nextPageToken"]


def test_keep_forever_is_for_binary_files_and_cannot_be_undone(session):
    sign_in(session, PRIYA)
    a101 = fid("A-101 Floor Plans.pdf")
    revs = ok(session, "revisions_list", {"fileId": a101})["revisions"]
    kept = ok(session, "revisions_update", {"fileId": a101, "revisionId": revs[2]["id"], "keepForever": True})
    assert kept["keepForever"] is True
    fails(
        session,
        "revisions_update",
        {"fileId": a101, "revisionId": revs[0]["id"], "keepForever": False},
        "InvalidRequest",
        "400 illegalKeepForeverModification",
    )
    doors = fid("Door schedule (draft)")
    fails(
        session,
        "revisions_update",
        {"fileId": doors, "revisionId": "1", "keepForever": True},
        "InvalidRequest",
        "only available for revisions of files with binary content",
    )
    fails(
        session,
        "revisions_update",
        {"fileId": a101, "revisionId": "nope", "keepForever": True},
        "NotFound",
        "Revision not found: nope.",
    )


def test_restoring_an_old_version_copies_it_into_a_new_revision(session):
    sign_in(session, PRIYA)
    a101 = fid("A-101 Floor Plans.pdf")
    revs = ok(session, "revisions_list", {"fileId": a101})["revisions"]
    restored = ok(session, "revisions_restore", {"fileId": a101, "revisionId": revs[1]["id"]})
    assert restored["restoredFrom"] == revs[1]["id"] and restored["size"] == revs[1]["size"]
    head = ok(session, "files_get", {"fileId": a101})
    assert head["headRevisionId"] == restored["id"] and head["size"] == revs[1]["size"]
    assert len(ok(session, "revisions_list", {"fileId": a101})["revisions"]) == 5
    fails(
        session,
        "revisions_restore",
        {"fileId": a101, "revisionId": restored["id"]},
        "Conflict",
        "already the file's current version",
    )
    sign_in(session, DANIEL)
    narrative = fid(NARR)
    again = ok(session, "revisions_restore", {"fileId": narrative, "revisionId": "4"})
    assert again["id"] == "7" and again["restoredFrom"] == "4"
    old = fid("Harbor Point – Schematic Design Narrative (old)")
    fails(session, "revisions_restore", {"fileId": old, "revisionId": "1"}, "InvalidRequest", "in the trash")


# ---------------------------------------------------------------- shared drives


def test_shared_drives_list_and_settings(session):
    sign_in(session, PRIYA)
    listed = {d["name"]: d for d in ok(session, "drives_list", {"pageSize": 100})["drives"]}
    assert set(listed) == {
        "Projects – Active",
        "Marketing & Brand",
        "Archive 2023",
        "Harbor Point – Joint (Linden & Moss)",
    }
    assert listed["Projects – Active"]["myRole"] == "writer"
    assert [d["name"] for d in ok(session, "drives_list", {"q": "name contains 'Harbor'"})["drives"]] == [
        "Harbor Point – Joint (Linden & Moss)"
    ]
    fails(session, "drives_update", {"driveId": PROJ, "name": "Projects"}, "PermissionDenied", "Only managers")
    sign_in(session, MAYA)
    fails(
        session,
        "drives_update",
        {"driveId": ARCH, "domainUsersOnly": False},
        "PermissionDenied",
        "403 insufficientAdministratorPrivileges",
    )
    sign_in(session, TOM)  # a Workspace administrator
    assert (
        ok(session, "drives_update", {"driveId": ARCH, "domainUsersOnly": False})["restrictions"]["domainUsersOnly"]
        is False
    )


def test_turning_on_domain_users_only_cuts_outside_members_off(session):
    sign_in(session, DANIEL)
    ok(session, "drives_update", {"driveId": JOINT, "domainUsersOnly": True})
    sign_in(session, DANIELLE)
    fails(session, "files_get", {"fileId": fid("S-101 Foundation Plan.pdf")}, "NotFound", "File not found")
    assert "Harbor Point – Joint (Linden & Moss)" not in [d["name"] for d in ok(session, "drives_list")["drives"]]


# ---------------------------------------------------------------- comments


def test_comments_need_commenter_and_threads_resolve(session):
    sign_in(session, ELAINE)
    fails(
        session,
        "comments_create",
        {"fileId": fid(BUDGET), "content": "Looks good"},
        "PermissionDenied",
        "insufficientFilePermissions",
    )
    brief = fid("Foster Residence – Design Brief")
    made = ok(
        session, "comments_create", {"fileId": brief, "content": "Can the pantry be bigger?", "quotedText": "pantry"}
    )
    assert made["author"]["me"] and made["quotedFileContent"]["value"] == "pantry"
    sign_in(session, DANIEL)
    threads = ok(session, "comments_list", {"fileId": brief})["comments"]
    assert len(threads) == 3 and threads[-1]["content"] == "Can the pantry be bigger?"
    resolved = ok(
        session,
        "replies_create",
        {"fileId": brief, "commentId": made["id"], "content": "Yes, +2 ft.", "action": "resolve"},
    )
    assert resolved["resolved"] is True and resolved["replies"][-1]["action"] == "resolve"
    fails(
        session,
        "replies_create",
        {"fileId": brief, "commentId": made["id"], "action": "resolve"},
        "Conflict",
        "already resolved",
    )
    assert (
        ok(session, "replies_create", {"fileId": brief, "commentId": made["id"], "action": "reopen"})["resolved"]
        is False
    )
    fails(session, "replies_create", {"fileId": brief, "commentId": made["id"]}, "InvalidRequest", "needs content")
    fails(session, "comments_list", {"fileId": fid("Foster Residence")}, "InvalidRequest", "Folders don't have")
    sign_in(session, TOM)
    move = fid("Office move plan")
    assert ok(session, "comments_list", {"fileId": move})["comments"] == []
    assert len(ok(session, "comments_list", {"fileId": move, "includeDeleted": True})["comments"]) == 1


# ---------------------------------------------------------------- access requests


def test_access_requests_are_resolved_by_people_who_can_share(session):
    sign_in(session, HANNAH)
    punch = fid("Alder Street – punch list")
    fails(session, "accessproposals_list", {"fileId": punch}, "PermissionDenied", "not an approver")
    sign_in(session, PRIYA)
    pending = ok(session, "accessproposals_list", {"fileId": punch})["accessProposals"]
    assert [(p["requesterEmailAddress"], p["rolesAndViews"][0]["role"]) for p in pending] == [(RAVI, "writer")]
    proposal = pending[0]["proposalId"]
    fails(
        session,
        "accessproposals_resolve",
        {"fileId": punch, "proposalId": proposal, "action": "ACCEPT"},
        "InvalidRequest",
        "role must contain at least one value",
    )
    done = ok(
        session,
        "accessproposals_resolve",
        {"fileId": punch, "proposalId": proposal, "action": "ACCEPT", "role": ["commenter"]},
    )
    assert done["permission"]["role"] == "commenter"
    assert ok(session, "accessproposals_list", {"fileId": punch})["accessProposals"] == []
    fails(
        session,
        "accessproposals_resolve",
        {"fileId": punch, "proposalId": proposal, "action": "DENY"},
        "NotFound",
        "Access proposal not found",
    )


def test_accepting_a_request_follows_the_sharing_rules(session):
    sign_in(session, DANIELLE)
    lateral = fid("Harbor Point – lateral calcs")
    proposal = ok(session, "accessproposals_list", {"fileId": lateral})["accessProposals"][0]
    assert proposal["requesterEmailAddress"] == DANIEL
    fails(
        session,
        "accessproposals_resolve",
        {"fileId": lateral, "proposalId": proposal["proposalId"], "action": "ACCEPT", "role": ["reader"]},
        "PermissionDenied",
        "teamDriveDomainUsersOnlyRestriction",
    )
    denied = ok(
        session,
        "accessproposals_resolve",
        {"fileId": lateral, "proposalId": proposal["proposalId"], "action": "DENY", "sendNotification": False},
    )
    assert denied["action"] == "DENY" and denied["permission"] is None
