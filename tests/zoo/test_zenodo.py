"""The Zenodo environment's tools on the real seed: sign-in, record search (q words, phrases and field terms, sort,
pages, latest versions only, communities) and what the public sees of a record (files only where access allows,
the last published metadata of a record reopened for editing), the user's depositions (others' drafts unknown,
others' records read-only), creating and changing drafts (licenses, embargo dates, creator names and ORCIDs),
publishing (every missing field listed, DOIs and concept DOIs), frozen files and undeletable records, editing and
discarding, new versions (latest only, one draft at a time, metadata and files copied), bucket uploads (size,
checksum, unique names, the file limit), communities and inclusion requests (closed communities, curators'
direct inclusion, accepting, declining, cancelling). Every error path is checked to leave the state unchanged."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("zenodo")
CLOCK = datetime(2025, 3, 18, 10, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
INES, JANA = "ines.carvalho@ulisboa.pt", "jana.novak@geomar.de"
TAGUS_V1, TAGUS_V2, TAGUS_CONCEPT = 8412330, 11203877, 8412329
CARBCALC_LATEST, CARBCALC_DRAFT = 12650413, 14980212
SADO_NUTRIENTS, POSTER, ARTICLE, CRUISE, CTD, BUOY = 6630118, 10881904, 13544790, 9876543, 5512870, 12007311
SADO_PH_DRAFT, FIGURES_DRAFT, TEST_DRAFT = 15020077, 15031410, 14002211
AVEIRO = 13301552  # the other Inês Carvalho's record

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, email: str = INES) -> dict:
    return ok(session, "sign_in", {"email": email}, caller="user")


def pending(session: ToolSession, word: str) -> dict:
    hits = ok(session, "list_requests", {"community": "atlantic-ocean-obs", "status": "submitted"})["hits"]
    return next(r for r in hits if word in r["record_title"])


def body(outcome) -> dict:
    """Zenodo's JSON error body inside the runtime's error text."""
    text = outcome.error
    return json.loads(text[text.index("{") :])


# ---------------------------------------------------------------- signing in


def test_nothing_works_before_sign_in_and_sign_in_is_the_users(session):
    assert 15 <= len(SPEC.tools) <= 25
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["sign_in"]
    fails(session, "list_depositions", {}, "PermissionDenied", '"status": 401')
    outcome = session.call("sign_in", {"email": INES})
    assert not outcome.ok and outcome.error_kind == "user_only"
    fails(session, "sign_in", {"email": "nobody@example.org"}, "NotFound", "No Zenodo account", caller="user")
    me = sign_in(session, " Ines.Carvalho@ULisboa.pt ")
    assert me["username"] == "icarvalho" and me["orcid"] == "0000-0002-7314-4518"


# ---------------------------------------------------------------- search and records


def test_search_lists_latest_versions_unless_all_versions(session):
    sign_in(session)
    latest = ok(session, "search_records", {"q": "Tagus dissolved alkalinity"})
    assert [h["id"] for h in latest["hits"]] == [TAGUS_V2]
    every = ok(session, "search_records", {"q": "Tagus dissolved alkalinity", "all_versions": True})
    assert {h["id"] for h in every["hits"]} == {TAGUS_V1, TAGUS_V2}
    assert all(h["conceptrecid"] == TAGUS_CONCEPT for h in every["hits"])


def test_search_fields_phrases_filters_sort_and_pages(session):
    sign_in(session)
    two = ok(session, "search_records", {"q": 'creators.name:"Carvalho, Inês" lagoon'})
    assert [h["id"] for h in two["hits"]] == [AVEIRO]
    assert ok(session, "search_records", {"q": "doi:10.5281/zenodo.8412329"})["total"] == 1
    fails(session, "search_records", {"q": "owner:someone"}, "InvalidRequest", "Invalid query field: owner")
    software = ok(session, "search_records", {"type": "software", "communities": "open-science-tools", "size": 100})
    assert software["total"] > 0
    assert all(h["upload_type"] == "software" and "open-science-tools" in h["communities"] for h in software["hits"])
    newest = ok(session, "search_records", {"sort": "mostrecent", "size": 5})
    oldest = ok(session, "search_records", {"sort": "-mostrecent", "size": 5})
    assert newest["total"] == oldest["total"] and newest["hits"][0]["id"] != oldest["hits"][0]["id"]
    page1 = ok(session, "search_records", {"sort": "mostrecent", "size": 3, "page": 1})
    page2 = ok(session, "search_records", {"sort": "mostrecent", "size": 3, "page": 2})
    assert not {h["id"] for h in page1["hits"]} & {h["id"] for h in page2["hits"]}
    assert session.call("search_records", {"size": 101}).ok is False


def test_records_show_files_only_where_access_allows(session):
    sign_in(session)
    assert [f["filename"] for f in ok(session, "get_record", {"record_id": TAGUS_V2})["files"]] == [
        "README.md",
        "station_positions.csv",
        "tagus_dic_ta_2021_2023.csv",
    ]
    for closed in (ARTICLE, CRUISE, CTD):  # embargoed until June, restricted, closed
        assert ok(session, "get_record", {"record_id": closed})["files"] is None
    old = ok(session, "get_record", {"record_id": TAGUS_V1})
    assert old["is_latest"] is False and old["conceptdoi"] == "10.5281/zenodo.8412329"
    fails(session, "get_record", {"record_id": SADO_PH_DRAFT}, "NotFound", "PID does not exist")


def test_a_record_reopened_for_editing_shows_what_was_published(session):
    sign_in(session)
    public = ok(session, "get_record", {"record_id": BUOY})
    assert "DRAFT NOTE" not in public["metadata"]["description"]
    assert "DRAFT NOTE" in ok(session, "get_deposition", {"deposition_id": BUOY})["metadata"]["description"]
    assert ok(session, "search_records", {"q": "drift correction"})["total"] == 0


# ---------------------------------------------------------------- depositions


def test_depositions_are_the_users_own(session):
    sign_in(session)
    mine = ok(session, "list_depositions", {"size": 100})
    assert mine["total"] == 18 and AVEIRO not in {h["id"] for h in mine["hits"]}
    drafts = ok(session, "list_depositions", {"status": "draft", "size": 100})
    assert {h["id"] for h in drafts["hits"]} == {14751020, SADO_PH_DRAFT, FIGURES_DRAFT, TEST_DRAFT, CARBCALC_DRAFT}
    fails(session, "get_deposition", {"deposition_id": AVEIRO}, "PermissionDenied", "not one of its owners")
    other_draft = (
        next(d["id"] for d in SEED["depositions"] if d["owner_id"] != 1 and not d["submitted"])
        if any(d["owner_id"] != 1 and not d["submitted"] for d in SEED["depositions"])
        else None
    )
    assert other_draft is None  # the seed holds no one else's drafts: they would be invisible (404)
    fails(session, "update_deposition", {"deposition_id": AVEIRO, "title": "Mine"}, "PermissionDenied", "owners")


def test_create_gives_an_id_and_today_and_checks_values(session):
    sign_in(session)
    draft = ok(session, "create_deposition", {"title": "Pilot data", "upload_type": "dataset"})
    assert draft["id"] == 15100001 and draft["state"] == "unsubmitted" and draft["doi"] is None
    assert draft["metadata"]["publication_date"] == "2025-03-18" and draft["metadata"]["access_right"] == "open"
    fails(
        session, "create_deposition", {"title": "X licensed", "license": "wtfpl"}, "InvalidRequest", "Invalid license"
    )
    outcome = fails(
        session,
        "create_deposition",
        {"title": "Late embargo", "access_right": "embargoed", "embargo_date": "2025-03-18"},
        "InvalidRequest",
        "Embargo date must be in the future",
    )
    assert body(outcome) == {
        "status": 400,
        "message": "Validation error.",
        "errors": [{"field": "metadata.embargo_date", "messages": ["Embargo date must be in the future."]}],
    }
    fails(
        session, "create_deposition", {"creators": [{"name": "Ines Carvalho"}]}, "invalid_arguments", "creators.0.name"
    )
    fails(
        session,
        "create_deposition",
        {"creators": [{"name": "Carvalho, Inês", "orcid": "0000-0002"}]},
        "invalid_arguments",
        "creators.0.orcid",
    )


def test_update_merges_fields_and_needs_an_open_deposition(session):
    sign_in(session)
    after = ok(session, "update_deposition", {"deposition_id": SADO_PH_DRAFT, "license": "cc-by-4.0"})
    assert after["metadata"]["license"] == "cc-by-4.0" and after["metadata"]["keywords"] == [
        "pH",
        "calibration",
        "Sado",
        "SeaFET",
    ]
    fails(
        session,
        "update_deposition",
        {"deposition_id": TAGUS_V2, "title": "New title"},
        "InvalidRequest",
        "reopen it for editing",
    )


def test_publishing_lists_every_missing_field(session):
    sign_in(session)
    outcome = fails(
        session, "publish_deposition", {"deposition_id": FIGURES_DRAFT}, "InvalidRequest", "Validation error"
    )
    assert {e["field"] for e in body(outcome)["errors"]} == {"metadata.image_type", "files"}
    outcome = fails(
        session, "publish_deposition", {"deposition_id": SADO_PH_DRAFT}, "InvalidRequest", "Validation error"
    )
    assert {e["field"] for e in body(outcome)["errors"]} == {"metadata.description", "metadata.license"}
    report = ok(
        session, "create_deposition", {"title": "A report", "upload_type": "publication", "access_right": "restricted"}
    )
    outcome = fails(
        session, "publish_deposition", {"deposition_id": report["id"]}, "InvalidRequest", "Validation error"
    )
    assert {e["field"] for e in body(outcome)["errors"]} == {
        "metadata.publication_type",
        "metadata.description",
        "metadata.creators",
        "metadata.access_conditions",
        "files",
    }


def test_publishing_mints_the_doi_and_the_concept_doi(session):
    sign_in(session)
    ok(
        session,
        "update_deposition",
        {"deposition_id": SADO_PH_DRAFT, "description": "Calibrations.", "license": "cc0-1.0"},
    )
    done = ok(session, "publish_deposition", {"deposition_id": SADO_PH_DRAFT})
    assert done["state"] == "done" and done["submitted"]
    assert done["doi"] == f"10.5281/zenodo.{SADO_PH_DRAFT}" and done["conceptdoi"] == f"10.5281/zenodo.{SADO_PH_DRAFT}"
    fails(session, "publish_deposition", {"deposition_id": SADO_PH_DRAFT}, "Conflict", "already published")
    version = ok(session, "publish_deposition", {"deposition_id": CARBCALC_DRAFT})
    assert version["doi"] == f"10.5281/zenodo.{CARBCALC_DRAFT}" and version["conceptdoi"] == "10.5281/zenodo.7321044"
    assert ok(session, "list_record_versions", {"record_id": 7321044})["hits"][0]["id"] == CARBCALC_DRAFT


def test_published_records_cannot_be_deleted_and_their_files_are_frozen(session):
    sign_in(session)
    fails(session, "delete_deposition", {"deposition_id": TAGUS_V2}, "PermissionDenied", "cannot be deleted")
    fails(
        session,
        "upload_file",
        {"deposition_id": TAGUS_V2, "filename": "x.csv", "content": "a"},
        "InvalidRequest",
        "new version",
    )
    file_id = ok(session, "get_deposition", {"deposition_id": BUOY})["files"][0]["id"]
    fails(session, "delete_file", {"deposition_id": BUOY, "file_id": file_id}, "InvalidRequest", "cannot be changed")
    fails(
        session, "delete_file", {"deposition_id": SADO_PH_DRAFT, "file_id": file_id}, "NotFound", "File does not exist"
    )
    gone = ok(session, "delete_deposition", {"deposition_id": SADO_PH_DRAFT})
    assert gone == {"id": str(SADO_PH_DRAFT), "deleted": True}
    fails(session, "get_deposition", {"deposition_id": SADO_PH_DRAFT}, "NotFound", "PID does not exist")
    assert all(f["deposition_id"] != SADO_PH_DRAFT for f in session.dump()["files"].values())


def test_uploads_report_size_and_checksum_and_names_are_unique(session):
    sign_in(session)
    added = ok(session, "upload_file", {"deposition_id": FIGURES_DRAFT, "filename": "fig1.svg", "content": "<svg/>"})
    assert added["filesize"] == 6 and added["checksum"] == "md5:" + hashlib.md5(b"<svg/>").hexdigest()
    fails(
        session,
        "upload_file",
        {"deposition_id": FIGURES_DRAFT, "filename": "fig1.svg", "content": "other"},
        "InvalidRequest",
        "already exists",
    )
    fails(
        session,
        "upload_file",
        {"deposition_id": FIGURES_DRAFT, "filename": "a/b.svg", "content": "x"},
        "invalid_arguments",
        "slashes",
    )


def test_a_record_holds_at_most_one_hundred_files(session):
    def fill(tables):
        tables["files"].extend(
            {
                "id": f"00000000-0000-0000-0000-{n:012d}",
                "deposition_id": FIGURES_DRAFT,
                "filename": f"f{n}.svg",
                "filesize": 10,
                "checksum": "md5:0",
                "created": "2025-03-14T08:00:00Z",
            }
            for n in range(100)
        )

    restore_seed_with(session, fill, CLOCK)
    sign_in(session)
    fails(
        session,
        "upload_file",
        {"deposition_id": FIGURES_DRAFT, "filename": "f100.svg", "content": "x"},
        "InvalidRequest",
        "at most 100",
    )


def test_editing_a_published_record_and_discarding_the_changes(session):
    sign_in(session)
    fails(session, "edit_deposition", {"deposition_id": SADO_PH_DRAFT}, "InvalidRequest", "not published yet")
    fails(session, "edit_deposition", {"deposition_id": BUOY}, "Conflict", "already open for editing")
    fails(session, "discard_deposition", {"deposition_id": TAGUS_V2}, "InvalidRequest", "Only a published deposition")
    restored = ok(session, "discard_deposition", {"deposition_id": BUOY})
    assert restored["state"] == "done" and "DRAFT NOTE" not in restored["metadata"]["description"]
    ok(session, "edit_deposition", {"deposition_id": TAGUS_V2})
    fails(
        session,
        "update_deposition",
        {"deposition_id": TAGUS_V2, "access_right": "embargoed", "embargo_date": "2025-01-01"},
        "InvalidRequest",
        "future",
    )
    ok(session, "update_deposition", {"deposition_id": TAGUS_V2, "title": "Renamed"})
    assert ok(session, "get_record", {"record_id": TAGUS_V2})["metadata"]["title"].startswith("Dissolved")
    saved = ok(session, "publish_deposition", {"deposition_id": TAGUS_V2})
    assert saved["doi"] == f"10.5281/zenodo.{TAGUS_V2}" and saved["metadata"]["title"] == "Renamed"
    assert ok(session, "get_record", {"record_id": TAGUS_V2})["metadata"]["title"] == "Renamed"


def test_new_versions_come_from_the_latest_one_draft_at_a_time(session):
    sign_in(session)
    fails(session, "new_version", {"deposition_id": TAGUS_V1}, "InvalidRequest", f"latest version (record {TAGUS_V2})")
    fails(session, "new_version", {"deposition_id": CARBCALC_LATEST}, "Conflict", f"deposition {CARBCALC_DRAFT}")
    fails(session, "new_version", {"deposition_id": BUOY}, "Conflict", "open for editing")
    fails(session, "new_version", {"deposition_id": SADO_PH_DRAFT}, "InvalidRequest", "Only a published deposition")
    draft = ok(session, "new_version", {"deposition_id": TAGUS_V2})
    assert draft["id"] == 15100001 and draft["conceptrecid"] == TAGUS_CONCEPT and draft["doi"] is None
    assert draft["conceptdoi"] == "10.5281/zenodo.8412329" and draft["metadata"]["publication_date"] == "2025-03-18"
    assert draft["metadata"]["title"] == ok(session, "get_record", {"record_id": TAGUS_V2})["metadata"]["title"]
    source = ok(session, "get_deposition", {"deposition_id": TAGUS_V2})["files"]
    assert [(f["filename"], f["checksum"]) for f in draft["files"]] == [(f["filename"], f["checksum"]) for f in source]
    assert not {f["id"] for f in draft["files"]} & {f["id"] for f in source}
    assert ok(session, "list_record_versions", {"record_id": TAGUS_V1})["draft_id"] == 15100001
    fails(session, "new_version", {"deposition_id": TAGUS_V2}, "Conflict", "already exists")


# ---------------------------------------------------------------- licenses and communities


def test_licenses_and_communities_are_searchable(session):
    sign_in(session)
    assert [h["id"] for h in ok(session, "list_licenses", {"q": "attribution 4.0 international"})["hits"]][
        0
    ] == "cc-by-4.0"
    assert ok(session, "list_licenses", {"q": "mit"})["hits"][0]["kind"] == "software"
    mine = {c["slug"]: c["my_role"] for c in ok(session, "list_communities", {"mine": True})["hits"]}
    assert mine == {"atlantic-ocean-obs": "curator", "ocean-acidification": "reader", "blueclimate-horizon": "reader"}


def test_submitting_records_to_communities(session):
    sign_in(session)
    fails(
        session,
        "submit_to_community",
        {"record_id": SADO_PH_DRAFT, "community": "atlantic-ocean-obs"},
        "InvalidRequest",
        "publish the draft first",
    )
    fails(
        session,
        "submit_to_community",
        {"record_id": TAGUS_V2, "community": "atlantic-ocean-obs"},
        "Conflict",
        "already included",
    )
    fails(
        session,
        "submit_to_community",
        {"record_id": POSTER, "community": "coastal-sediments"},
        "PermissionDenied",
        "members only",
    )
    fails(
        session,
        "submit_to_community",
        {"record_id": POSTER, "community": "marine-genomics"},
        "Conflict",
        "open inclusion request",
    )
    fails(session, "submit_to_community", {"record_id": POSTER, "community": "no-such"}, "NotFound", "does not exist")
    fails(
        session,
        "submit_to_community",
        {"record_id": AVEIRO, "community": "atlantic-ocean-obs"},
        "PermissionDenied",
        "owners",
    )
    waiting = ok(session, "submit_to_community", {"record_id": POSTER, "community": "ocean-acidification"})
    assert waiting["status"] == "submitted" and POSTER not in {
        h["id"] for h in ok(session, "search_records", {"communities": "ocean-acidification", "size": 100})["hits"]
    }
    direct = ok(session, "submit_to_community", {"record_id": POSTER, "community": "atlantic-ocean-obs"})
    assert direct["status"] == "accepted"
    assert "atlantic-ocean-obs" in ok(session, "get_record", {"record_id": POSTER})["metadata"]["communities"]


def test_curators_accept_and_decline_and_submitters_cancel(session):
    sign_in(session)
    glider, reef = pending(session, "Glider"), pending(session, "Coral reef")
    accepted = ok(session, "accept_request", {"request_id": glider["id"], "comment": "Welcome"})
    assert accepted["status"] == "accepted" and accepted["decision_comment"] == "Welcome"
    assert (
        "atlantic-ocean-obs" in ok(session, "get_record", {"record_id": glider["record_id"]})["metadata"]["communities"]
    )
    fails(session, "decline_request", {"request_id": glider["id"]}, "Conflict", "already accepted")
    declined = ok(session, "decline_request", {"request_id": reef["id"], "comment": "Out of scope"})
    assert declined["status"] == "declined"
    assert ok(session, "get_record", {"record_id": reef["record_id"]})["metadata"]["communities"] == []
    fails(
        session,
        "cancel_request",
        {"request_id": pending(session, "PAP")["id"]},
        "PermissionDenied",
        "Only the submitter",
    )
    own = {
        r["community"]: r
        for r in ok(session, "list_requests", {"status": "submitted"})["hits"]
        if r["created_by"] == "icarvalho"
    }
    fails(session, "accept_request", {"request_id": own["ocean-acidification"]["id"]}, "PermissionDenied", "curators")
    assert ok(session, "cancel_request", {"request_id": own["marine-genomics"]["id"]})["status"] == "cancelled"
    fails(session, "cancel_request", {"request_id": own["marine-genomics"]["id"]}, "Conflict", "already cancelled")


def test_requests_are_seen_by_submitters_and_curators_only(session):
    sign_in(session, JANA)  # manager of atlantic-ocean-obs, owner of ocean-acidification
    seen = ok(session, "list_requests", {})["hits"]
    assert {r["community"] for r in seen} >= {"atlantic-ocean-obs", "ocean-acidification"}
    genomics = next(r["id"] for r in SEED["requests"] if r["record_id"] == POSTER and r["status"] == "submitted")
    fails(session, "accept_request", {"request_id": genomics}, "NotFound", "Request does not exist")
    mine_or_curated = ok(session, "list_requests", {"community": "marine-genomics"})
    assert mine_or_curated["total"] == 0


def test_clearing_fields_and_opening_a_restricted_record(session):
    sign_in(session)
    ok(session, "edit_deposition", {"deposition_id": CRUISE})
    fails(
        session,
        "update_deposition",
        {"deposition_id": CRUISE, "access_conditions": "Anyone.", "clear": ["access_conditions"]},
        "InvalidRequest",
        "cleared at once",
    )
    after = ok(
        session,
        "update_deposition",
        {"deposition_id": CRUISE, "access_right": "open", "license": "cc-by-4.0", "clear": ["access_conditions"]},
    )
    assert after["metadata"]["access_conditions"] is None and after["metadata"]["license"] == "cc-by-4.0"
    assert ok(session, "get_record", {"record_id": CRUISE})["files"] is None  # not saved yet
    ok(session, "publish_deposition", {"deposition_id": CRUISE})
    files = ok(session, "get_record", {"record_id": CRUISE})["files"]
    assert [f["filename"] for f in files] == ["cruise_report_PT-ATL-23-3.pdf"]
    ok(session, "edit_deposition", {"deposition_id": TAGUS_V2})
    assert (
        ok(session, "update_deposition", {"deposition_id": TAGUS_V2, "clear": ["related_identifiers"]})["metadata"][
            "related_identifiers"
        ]
        == []
    )


def test_an_embargo_ends_on_its_date(session):
    session.reset("seed", datetime(2025, 6, 1, 9, 0, tzinfo=timezone.utc))
    sign_in(session)
    record = ok(session, "get_record", {"record_id": ARTICLE})
    assert record["metadata"]["access_right"] == "embargoed"
    assert [f["filename"] for f in record["files"]] == ["carvalho_2024_accepted.pdf"]


def test_best_match_ranks_title_hits_first_and_own_listing_sorts_by_change(session):
    sign_in(session)
    hits = ok(session, "search_records", {"q": "alkalinity Tagus export", "sort": "bestmatch"})["hits"]
    assert hits[0]["id"] == ARTICLE  # every word in its title
    ok(session, "update_deposition", {"deposition_id": TEST_DRAFT, "title": "Saltmarsh cores"})
    newest = ok(session, "list_depositions", {"sort": "mostrecent", "size": 1})["hits"]
    oldest = ok(session, "list_depositions", {"sort": "-mostrecent", "size": 1})["hits"]
    assert newest[0]["id"] == TEST_DRAFT and oldest[0]["id"] == CTD
    assert [h["id"] for h in ok(session, "list_depositions", {"q": "saltmarsh"})["hits"]] == [TEST_DRAFT]
