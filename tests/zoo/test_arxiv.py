"""The arXiv environment's tools on the real seed: the search_query syntax (field prefixes, phrases, wildcards,
AND / OR / ANDNOT and parentheses, date ranges), id formats and versions, paging limits, mailing-day listings,
withdrawals (authors only, once, a new version, earlier ones kept), and the library's rules for folders, saved
articles, follows and alerts. Every error path leaves the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("arxiv")
CLOCK = datetime(2025, 3, 14, 15, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
PAPERS = {p["id"]: p for p in SEED["papers"]}
MINE, LABEL_TRANSFER, WITHDRAWN = "2411.02804", "2309.01363", "2403.00556"
NOT_MINE = "2503.39209"  # Callum's paper; Lucía is not an author
THESIS, READING, BATCH, TO_READ, CONFORMAL = "F0001", "F0002", "F0003", "F0004", "F0005"
CALLUMS_FOLDER = "F0007"

session = session_fixture(SPEC, CLOCK)


def found(session, query, **kw):
    return {
        e["id"].split("v")[0]
        for e in ok(session, "search_papers", {"search_query": query, "max_results": 2000, **kw})["entries"]
    }


# ---------------------------------------------------------------- interface


def test_tool_surface_is_23_agent_tools_with_typed_bounds():
    assert len(SPEC.tools) == 23
    assert not [t.name for t in SPEC.tools.values() if t.user_only]
    props = SPEC.tools["search_papers"].input_schema["properties"]
    assert props["max_results"]["maximum"] == 2000 and props["start"]["minimum"] == 0
    assert set(props["sort_by"]["enum"]) == {"relevance", "lastUpdatedDate", "submittedDate"}


def test_max_results_over_2000_is_refused_with_its_text(session):
    fails(
        session,
        "search_papers",
        {"search_query": "cat:cs.LG", "max_results": 2001},
        "invalid_arguments",
        "between 1 and 2000",
    )


def test_the_30000_result_window_is_enforced(session):
    fails(
        session,
        "search_papers",
        {"search_query": "cat:cs.LG", "start": 29500, "max_results": 1000},
        "InvalidRequest",
        "30,000",
    )


# ---------------------------------------------------------------- query syntax


def test_prefixes_search_their_own_fields(session):
    by_title = found(session, "ti:conformal")
    assert by_title and all("conformal" in PAPERS[p]["title"].lower() for p in by_title)
    by_author = found(session, "au:okafor")
    assert by_author and all("|okafor_c_1|" in PAPERS[p]["author_ids"] for p in by_author)
    in_cat = found(session, "cat:stat.ML")
    assert in_cat and all("|stat.ML|" in PAPERS[p]["categories"] for p in in_cat)
    assert found(session, "cat:q-bio.*") >= found(session, "cat:q-bio.GN")


def test_and_or_andnot_and_parentheses(session):
    ml, gn = found(session, "cat:cs.LG"), found(session, "cat:q-bio.GN")
    assert found(session, "cat:cs.LG AND cat:q-bio.GN") == ml & gn
    assert found(session, "cat:cs.LG OR cat:q-bio.GN") == ml | gn
    assert found(session, "cat:cs.LG ANDNOT cat:q-bio.GN") == ml - gn
    grouped = found(session, "au:herrera AND (ti:conformal OR ti:batch)")
    assert grouped == {MINE, "2406.00779"}


def test_phrases_match_adjacent_words_only(session):
    phrase = found(session, 'ti:"batch correction"')
    words = found(session, "ti:batch AND ti:correction")
    assert phrase and phrase <= words
    assert all("batch correction" in PAPERS[p]["title"].lower() for p in phrase)


def test_submitted_date_range_uses_first_versions(session):
    march = found(session, "cat:q-bio.GN AND submittedDate:[202503010000 TO 202503142359]")
    assert march and all(PAPERS[p]["published"].startswith("2025-03") for p in march)
    assert LABEL_TRANSFER not in march


def test_the_two_lucia_herreras_share_a_name_but_not_an_identifier(session):
    entries = ok(session, "search_papers", {"search_query": 'au:"Lucia Herrera"', "max_results": 50})["entries"]
    ids = {a["author_id"] for e in entries for a in e["authors"] if a["name"] == "Lucía Herrera"}
    assert ids == {"herrera_l_1", "herrera_l_2"}


def test_malformed_queries_are_refused(session):
    fails(session, "search_papers", {"search_query": "xx:foo"}, "InvalidRequest", "unknown field prefix")
    fails(session, "search_papers", {"search_query": "(ti:foo AND au:bar"}, "InvalidRequest", "unbalanced")
    fails(session, "search_papers", {"search_query": "ti:foo AND"}, "InvalidRequest", "malformed search_query")


def test_sorting_by_submitted_date(session):
    feed = ok(
        session,
        "search_papers",
        {"search_query": "cat:q-bio.GN", "sort_by": "submittedDate", "sort_order": "ascending", "max_results": 50},
    )
    dates = [e["published"] for e in feed["entries"]]
    assert dates == sorted(dates) and feed["total_results"] >= len(dates)


# ---------------------------------------------------------------- ids and versions


def test_versioned_ids_return_that_version_and_bare_ids_the_latest(session):
    latest, first = ok(session, "get_papers", {"id_list": [LABEL_TRANSFER, f"arXiv:{LABEL_TRANSFER}v1"]})
    assert latest["id"] == f"{LABEL_TRANSFER}v3" and latest["version"] == 3
    assert first["id"] == f"{LABEL_TRANSFER}v1" and first["comment"] != latest["comment"]
    link = ok(session, "get_papers", {"id_list": [f"https://arxiv.org/abs/{LABEL_TRANSFER}v2"]})[0]
    assert link["version"] == 2


def test_bad_ids_and_missing_versions(session):
    fails(session, "get_papers", {"id_list": ["2401.123"]}, "InvalidRequest", "incorrect id format for 2401.123")
    fails(session, "get_papers", {"id_list": ["2401.99999"]}, "NotFound", "Article 2401.99999 not found")
    fails(session, "get_papers", {"id_list": [f"{LABEL_TRANSFER}v9"]}, "NotFound", "latest version is v3")


# ---------------------------------------------------------------- listings


def test_a_mailing_splits_new_cross_lists_and_replacements(session):
    day = ok(session, "list_new", {"category_id": "q-bio.GN", "date": "2025-03-11"})
    assert all(i["primary_category"] == "q-bio.GN" and i["id"].endswith("v1") for i in day["new"])
    assert all(i["primary_category"] != "q-bio.GN" for i in day["cross_lists"])
    assert day["replacements"] and all(not i["id"].endswith("v1") for i in day["replacements"])
    assert ok(session, "list_new", {"category_id": "q-bio.GN"})["date"] == "2025-03-14"


def test_no_mailing_on_weekends_or_in_the_future(session):
    fails(session, "list_new", {"category_id": "q-bio.GN", "date": "2025-03-08"}, "NotFound", "Monday to Friday")
    fails(
        session,
        "list_new",
        {"category_id": "q-bio.GN", "date": "2025-03-17"},
        "NotFound",
        "No mailing for 2025-03-17 yet",
    )
    fails(session, "list_new", {"category_id": "bio.XX"}, "NotFound", "Unknown category")


def test_month_listing_pages(session):
    whole = ok(session, "list_month", {"category_id": "q-bio.GN", "month": "2025-03", "show": 100})
    page = ok(session, "list_month", {"category_id": "q-bio.GN", "month": "2025-03", "skip": 5, "show": 25})
    assert whole["total"] == page["total"] > 5
    assert [e["id"] for e in page["entries"]] == [e["id"] for e in whole["entries"]][5:30]


# ---------------------------------------------------------------- withdrawals


def test_withdrawal_adds_a_version_announced_on_the_next_mailing(session):
    history = ok(
        session,
        "withdraw_paper",
        {"arxiv_id": MINE, "reason": "An error in Section 3 invalidates the coverage claims."},
    )
    assert history["status"] == "withdrawn" and history["latest_version"] == 3
    notice = history["versions"][-1]
    assert notice["withdrawn"] and notice["announced"] == "2025-03-17"  # Friday afternoon -> Monday's mailing
    assert "withdrawn by the author(s): An error in Section 3" in notice["comments"]
    assert ok(session, "get_papers", {"id_list": [f"{MINE}v2"]})[0]["version"] == 2  # earlier versions stay readable


def test_only_authors_withdraw_and_only_once(session):
    reason = "A fatal error in the main theorem of the paper."
    fails(session, "withdraw_paper", {"arxiv_id": NOT_MINE, "reason": reason}, "PermissionDenied", "not an author")
    ok(session, "withdraw_paper", {"arxiv_id": MINE, "reason": reason})
    fails(session, "withdraw_paper", {"arxiv_id": MINE, "reason": reason}, "Conflict", "already withdrawn")
    fails(
        session, "withdraw_paper", {"arxiv_id": LABEL_TRANSFER, "reason": "too short"}, "invalid_arguments", "20 to 400"
    )


# ---------------------------------------------------------------- library


def test_withdrawn_articles_are_saved_only_at_an_earlier_version(session):
    fails(
        session,
        "save_paper",
        {"folder_id": TO_READ, "arxiv_id": WITHDRAWN},
        "InvalidRequest",
        f"save a specific earlier version (e.g. {WITHDRAWN}v2)",
    )
    fails(
        session,
        "save_paper",
        {"folder_id": TO_READ, "arxiv_id": f"{WITHDRAWN}v3"},
        "InvalidRequest",
        "withdrawal notice",
    )
    saved = ok(session, "save_paper", {"folder_id": TO_READ, "arxiv_id": f"{WITHDRAWN}v2", "tags": ["benchmark"]})
    assert saved["pinned_version"] == 2 and saved["status"] == "withdrawn"


def test_an_article_is_saved_once_per_folder(session):
    fails(
        session, "save_paper", {"folder_id": THESIS, "arxiv_id": LABEL_TRANSFER}, "Conflict", "already saved in folder"
    )
    fails(
        session,
        "save_paper",
        {"folder_id": TO_READ, "arxiv_id": NOT_MINE, "tags": ["Not A Tag"]},
        "invalid_arguments",
        "lower-case",
    )


def test_pinning_and_unpinning_versions(session):
    pinned = ok(session, "update_saved_paper", {"folder_id": THESIS, "arxiv_id": LABEL_TRANSFER, "pin_version": 2})
    assert pinned["pinned_version"] == 2
    assert (
        ok(session, "update_saved_paper", {"folder_id": THESIS, "arxiv_id": LABEL_TRANSFER, "pin_version": 0})[
            "pinned_version"
        ]
        is None
    )
    fails(
        session,
        "update_saved_paper",
        {"folder_id": THESIS, "arxiv_id": LABEL_TRANSFER, "pin_version": 7},
        "NotFound",
        "no version v7",
    )
    fails(
        session,
        "update_saved_paper",
        {"folder_id": THESIS, "arxiv_id": NOT_MINE, "note": "x"},
        "NotFound",
        "is not saved in folder",
    )


def test_moving_refuses_a_folder_that_already_holds_the_article(session):
    fails(
        session,
        "update_saved_paper",
        {"folder_id": CONFORMAL, "arxiv_id": MINE, "move_to": THESIS},
        "Conflict",
        "already saved in folder",
    )
    moved = ok(session, "update_saved_paper", {"folder_id": CONFORMAL, "arxiv_id": "2412.00750", "move_to": THESIS})
    assert (
        moved["folder_id"] == THESIS
        and not ok(session, "find_saved", {"arxiv_id": "2412.00750", "tag": "conformal"})[0]["folder_id"] == CONFORMAL
    )


def test_folder_names_are_unique_and_other_readers_folders_are_hidden(session):
    fails(session, "create_folder", {"name": "  to READ "}, "Conflict", "already have a folder named 'To read'")
    fails(session, "get_folder", {"folder_id": CALLUMS_FOLDER}, "NotFound", "Folder F0007 not found")
    fails(
        session,
        "update_folder",
        {"folder_id": READING, "name": "Conformal methods"},
        "Conflict",
        "already have a folder",
    )


def test_deleting_a_non_empty_folder_needs_a_target_without_duplicates(session):
    fails(session, "delete_folder", {"folder_id": CONFORMAL}, "Conflict", "still holds 2 articles")
    fails(
        session,
        "delete_folder",
        {"folder_id": CONFORMAL, "move_to": READING},
        "Conflict",
        "already saved in folder 'Reading group'",
    )
    ok(session, "delete_folder", {"folder_id": CONFORMAL, "move_to": TO_READ})
    moved = {a["arxiv_id"]: a["tags"] for a in ok(session, "get_folder", {"folder_id": TO_READ})["articles"]}
    assert moved[MINE] == ["own", "conformal"] and "2412.00750" in moved
    assert CONFORMAL not in {f["folder_id"] for f in ok(session, "list_folders")}


def test_follows_are_by_identifier_and_not_duplicated(session):
    fails(session, "follow", {"kind": "author", "target": "okafor_c_1"}, "Conflict", "already follow author okafor_c_1")
    fails(session, "follow", {"kind": "author", "target": "nobody_x_9"}, "NotFound", "No arXiv author")
    ok(session, "follow", {"kind": "author", "target": "berg_j_2"})
    assert "berg_j_2" in {f["target"] for f in ok(session, "list_follows")}
    fails(session, "unfollow", {"kind": "category", "target": "cs.CV"}, "NotFound", "do not follow category cs.CV")


def test_one_alert_per_category_and_queries_are_checked(session):
    fails(
        session, "create_alert", {"category_id": "q-bio.GN"}, "Conflict", "already have an alert for q-bio.GN (AL001)"
    )
    fails(
        session,
        "create_alert",
        {"category_id": "stat.ML", "search_query": "zz:foo"},
        "InvalidRequest",
        "unknown field prefix",
    )
    made = ok(
        session, "create_alert", {"category_id": "stat.ml", "frequency": "weekly", "search_query": "abs:conformal"}
    )
    assert made["category"] == "stat.ML" and made["status"] == "active"
    assert ok(session, "update_alert", {"alert_id": made["alert_id"], "status": "paused"})["status"] == "paused"
    fails(
        session, "update_alert", {"alert_id": "AL004", "status": "paused"}, "NotFound", "Alert AL004 not found"
    )  # Callum's
