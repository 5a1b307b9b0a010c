"""The Figshare environment's tools on the real seed: mandatory metadata for publishing, DOIs reserved on drafts
and versioned on publish, which edits make a new version, embargo rules (future dates, permanent only for files,
whole-article embargoes holding a publish back), the storage quota, deletion of published items, collections of
public items with their own versions, project roles and collaborators. Every error path leaves the state
unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("figshare")
CLOCK = datetime(2026, 3, 16, 10, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ME = 2281904
BY_TITLE = {a["title"]: a["article_id"] for a in SEED["articles"]}
KELP22 = BY_TITLE["Kelp forest temperature loggers, Plymouth Sound 2022"]
KELP23 = BY_TITLE["Kelp forest temperature loggers, Plymouth Sound 2023"]
KELP24 = BY_TITLE["Kelp forest temperature loggers, Plymouth Sound 2024"]
URCHIN = BY_TITLE["Sea urchin grazing video transects"]
HEATWAVE = BY_TITLE["Marine heatwave exposure of UK kelp forests 1982-2024"]
KELPCOUNT = BY_TITLE["kelpcount: CNN classifier for kelp canopy images"]
WEMBURY = BY_TITLE["Canopy cover survey photographs, Wembury 2021-2024"]
TOMAS_DRAFT = BY_TITLE["Kelp canopy drone orthomosaics, Plymouth Sound 2025"]
PRIYA_DRAFT = BY_TITLE["Heatwave impacts on seagrass meadows: synthesis data"]
OTHERS_DRAFT = next(
    a["article_id"] for a in SEED["articles"] if a["owner_id"] != ME and a["status"] == "draft" and not a["project_id"]
)
LOGGERS, EUROPE = 6943512, 6951207
KELPWATCH, HOLDFAST, PRIYA_PROJECT, NORDIC = 187204, 187311, 187456, 187502
MD5 = "0123456789abcdef0123456789abcdef"

session = session_fixture(SPEC, CLOCK)


def upload(session, article_id, size=1000, name="data.csv"):
    return ok(session, "upload_file", {"article_id": article_id, "name": name, "size": size, "md5": MD5})


def test_tool_surface_reads_and_writes():
    assert len(SPEC.tools) == 25
    assert not [t.name for t in SPEC.tools.values() if t.user_only]
    reads = {t.name for t in SPEC.tools.values() if t.read_only}
    assert {"search_my_articles", "get_my_article", "list_article_versions", "list_licenses"} <= reads
    assert "publish_article" not in reads


# ---------------------------------------------------------------- reading


def test_search_my_articles_only_lists_own_items_and_filters(session):
    found = ok(session, "search_my_articles", {"search_for": "temperature loggers", "page_size": 100})
    assert {a["id"] for a in found} == {KELP22, KELP23, KELP24}
    drafts = ok(session, "search_my_articles", {"status": "draft", "page_size": 100})
    assert drafts and all(a["status"] == "draft" for a in drafts)
    first, second = (ok(session, "search_my_articles", {"page": n, "page_size": 5}) for n in (1, 2))
    assert len(first) == len(second) == 5 and not {a["id"] for a in first} & {a["id"] for a in second}


def test_search_for_needs_four_characters(session):
    fails(session, "search_my_articles", {"search_for": "eel"}, "invalid_arguments", "at least 4 characters")


def test_project_members_read_each_others_items_but_outsiders_do_not(session):
    assert ok(session, "get_my_article", {"article_id": TOMAS_DRAFT})["status"] == "draft"
    fails(session, "get_my_article", {"article_id": OTHERS_DRAFT}, "NotFound", "Article not found")


def test_public_search_finds_everyones_public_items_only(session):
    found = ok(session, "search_public_articles", {"search_for": "Svalbard", "page_size": 100})
    assert found and all(a["status"] == "public" for a in found)
    assert KELP24 not in {a["id"] for a in ok(session, "search_public_articles", {"search_for": "Plymouth Sound"})}


# ---------------------------------------------------------------- publishing and versions


def test_publish_names_the_first_missing_mandatory_field(session):
    fails(
        session,
        "publish_article",
        {"article_id": KELP24},
        "InvalidRequest",
        "Missing mandatory field for publication - license",
    )
    fails(session, "publish_article", {"article_id": URCHIN}, "InvalidRequest", "publication - description")


def test_first_publish_makes_version_one_and_keeps_a_reserved_doi(session):
    ok(session, "update_article", {"article_id": KELP24, "license": 1})
    doi = ok(session, "reserve_doi", {"article_id": KELP24})["doi"]
    assert doi == f"10.6084/m9.figshare.{KELP24}"
    published = ok(session, "publish_article", {"article_id": KELP24})
    assert (published["status"], published["version"], published["doi"]) == ("public", 1, doi)
    versions = ok(session, "list_article_versions", {"article_id": KELP24})
    assert [v["doi"] for v in versions] == [f"{doi}.v1"]


def test_reserving_twice_is_refused(session):
    fails(session, "reserve_doi", {"article_id": HEATWAVE}, "Conflict", "already has a DOI")


def test_metadata_only_edits_update_the_current_version(session):
    ok(session, "update_article", {"article_id": KELP22, "funding": "NERC"})
    assert ok(session, "get_my_article", {"article_id": KELP22})["has_unpublished_changes"]
    assert ok(session, "publish_article", {"article_id": KELP22})["version"] == 2
    assert len(ok(session, "list_article_versions", {"article_id": KELP22})) == 2


def test_title_licence_author_or_file_changes_make_a_new_version(session):
    ok(session, "update_article", {"article_id": KELP22, "license": 2})
    assert ok(session, "publish_article", {"article_id": KELP22})["version"] == 3
    upload(session, KELP22)
    assert ok(session, "publish_article", {"article_id": KELP22})["version"] == 4
    versions = ok(session, "list_article_versions", {"article_id": KELP22})
    assert "data.csv" in versions[-1]["files"] and "data.csv" not in versions[-2]["files"]


def test_publishing_without_changes_is_refused(session):
    fails(session, "publish_article", {"article_id": KELP23}, "Conflict", "no unpublished changes")


def test_published_items_cannot_be_deleted_but_drafts_can(session):
    fails(session, "delete_article", {"article_id": KELP23}, "Conflict", "Only private articles")
    ok(session, "delete_article", {"article_id": KELP24})
    fails(session, "get_my_article", {"article_id": KELP24}, "NotFound", "Article not found")
    assert not [f for f in session.dump()["files"].values() if f["article_id"] == KELP24]


def test_only_the_owner_changes_a_project_item(session):
    fails(
        session,
        "update_article",
        {"article_id": TOMAS_DRAFT, "title": "Mine now"},
        "PermissionDenied",
        "only its owner",
    )


def test_unknown_category_licence_or_author_is_refused(session):
    fails(
        session,
        "update_article",
        {"article_id": KELP24, "categories": [1]},
        "InvalidRequest",
        "Category with ID 1 not found",
    )
    fails(
        session,
        "update_article",
        {"article_id": KELP24, "license": 99},
        "InvalidRequest",
        "License with ID 99 not found",
    )
    fails(
        session, "update_article", {"article_id": KELP24, "authors": [{"id": 5}]}, "InvalidRequest", "Author with ID 5"
    )


def test_authors_by_name_become_authors_without_accounts(session):
    created = ok(
        session, "create_article", {"title": "New item", "defined_type": "dataset", "authors": [{"name": "Zed Quill"}]}
    )
    assert [(a["full_name"], a["is_active"]) for a in created["authors"]] == [("Zed Quill", False)]
    default = ok(session, "create_article", {"title": "Another item", "defined_type": "figure"})
    assert [a["full_name"] for a in default["authors"]] == ["Lena Fischer"]


# ---------------------------------------------------------------- embargoes and files


def test_embargo_dates_must_be_in_the_future_and_permanent_only_for_files(session):
    args = {"article_id": KELP24, "embargo_type": "article"}
    fails(session, "update_embargo", {**args, "embargo_date": "2026-03-16"}, "InvalidRequest", "Invalid expires date")
    fails(session, "update_embargo", {**args, "embargo_date": "0"}, "InvalidRequest", "only available for files")
    fails(session, "update_embargo", {**args, "embargo_date": "soon"}, "invalid_arguments", "Invalid expires date")
    assert ok(session, "update_embargo", {**args, "embargo_type": "file", "embargo_date": "0"})["embargo"][
        "is_embargoed"
    ]


def test_whole_article_embargo_holds_publication_until_lifted(session):
    ok(session, "update_embargo", {"article_id": HEATWAVE, "embargo_type": "article", "embargo_date": "2026-05-15"})
    held = ok(session, "publish_article", {"article_id": HEATWAVE})
    assert (held["status"], held["version"]) == ("embargoed", 0)
    released = ok(session, "delete_embargo", {"article_id": HEATWAVE})
    assert (released["status"], released["version"]) == ("public", 1)


def test_lifting_a_missing_embargo_is_refused(session):
    fails(session, "delete_embargo", {"article_id": KELP23}, "InvalidRequest", "not under embargo")
    assert ok(session, "delete_embargo", {"article_id": WEMBURY})["status"] == "public"


def test_uploads_count_against_the_storage_quota(session):
    fails(
        session,
        "upload_file",
        {"article_id": KELP24, "name": "big.nc", "size": 4_000_000_000, "md5": MD5},
        "Conflict",
        "Not enough storage",
    )
    upload(session, KELP24, size=3_000_000_000)


def test_file_must_belong_to_the_article_and_md5_is_checked(session):
    fails(session, "delete_file", {"article_id": KELP24, "file_id": 1}, "NotFound", "File not found")
    fails(
        session, "upload_file", {"article_id": KELP24, "name": "x", "size": 1, "md5": "xyz"}, "invalid_arguments", "md5"
    )


# ---------------------------------------------------------------- collections


def test_collections_hold_public_items_only(session):
    fails(
        session,
        "add_collection_articles",
        {"collection_id": EUROPE, "articles": [KELP24]},
        "InvalidRequest",
        "is not public",
    )
    fails(
        session,
        "add_collection_articles",
        {"collection_id": 6900000, "articles": [KELP23]},
        "NotFound",
        "Collection not found",
    )


def test_collection_publish_needs_description_categories_and_articles(session):
    fails(session, "publish_collection", {"collection_id": EUROPE}, "InvalidRequest", "publication - description")


def test_collection_versions_follow_article_changes_not_descriptions(session):
    ok(session, "update_collection", {"collection_id": LOGGERS, "description": "Yearly releases."})
    assert ok(session, "publish_collection", {"collection_id": LOGGERS})["version"] == 2
    fails(session, "publish_collection", {"collection_id": LOGGERS}, "Conflict", "no unpublished changes")
    ok(session, "remove_collection_article", {"collection_id": LOGGERS, "article_id": KELP22})
    published = ok(session, "publish_collection", {"collection_id": LOGGERS})
    assert (published["version"], published["doi"]) == (3, f"10.6084/m9.figshare.c.{LOGGERS}")
    fails(
        session,
        "remove_collection_article",
        {"collection_id": LOGGERS, "article_id": KELP22},
        "NotFound",
        "not found in collection",
    )


# ---------------------------------------------------------------- projects


def test_viewers_cannot_add_items_to_a_project(session):
    args = {"title": "Genotypes", "defined_type": "dataset", "project_id": NORDIC}
    fails(session, "create_article", args, "PermissionDenied", "Viewers cannot add items")
    assert ok(session, "create_article", {**args, "project_id": PRIYA_PROJECT})["project_id"] == PRIYA_PROJECT


def test_only_the_owner_manages_collaborators(session):
    fails(
        session,
        "invite_collaborator",
        {"project_id": PRIYA_PROJECT, "role_name": "viewer", "email": "a@b.org"},
        "PermissionDenied",
        "Only the project owner",
    )
    fails(
        session,
        "remove_collaborator",
        {"project_id": KELPWATCH, "user_id": ME},
        "InvalidRequest",
        "owner cannot be removed",
    )


def test_invitations_are_pending_unique_and_need_one_address(session):
    project = ok(
        session,
        "invite_collaborator",
        {"project_id": KELPWATCH, "role_name": "collaborator", "email": "hannah.berg@uib.no"},
    )
    invited = [c for c in project["collaborators"] if c["email"] == "hannah.berg@uib.no"]
    assert invited == [
        {
            "user_id": 2310962,
            "name": "Hannah Berg",
            "email": "hannah.berg@uib.no",
            "role_name": "collaborator",
            "status": "invited",
        }
    ]
    fails(
        session,
        "invite_collaborator",
        {"project_id": KELPWATCH, "role_name": "viewer", "user_id": 2310962},
        "Conflict",
        "already a member",
    )
    fails(
        session,
        "invite_collaborator",
        {"project_id": KELPWATCH, "role_name": "viewer"},
        "InvalidRequest",
        "either user_id or email",
    )


def test_projects_list_the_role_of_the_signed_in_account(session):
    roles = {p["id"]: p["role"] for p in ok(session, "list_my_projects")}
    assert roles == {KELPWATCH: "owner", HOLDFAST: "owner", PRIYA_PROJECT: "collaborator", NORDIC: "viewer"}
    fails(session, "get_project", {"project_id": 187618}, "NotFound", "Project not found")


def test_signed_out_account_is_refused(session):
    restore_seed_with(session, lambda tables: tables["sessions"].clear(), CLOCK)
    fails(session, "list_my_projects", {}, "PermissionDenied", "sign in")
