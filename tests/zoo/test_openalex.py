"""The OpenAlex environment's tools on the real seed: the filter syntax (AND, OR, negation, inequalities, ranges,
`+` within an attribute, unknown fields and bad values), search and sort, basic and cursor paging, ids by URL, DOI
and merged id, and the library's rules for lists and saved searches. Every error path leaves the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("openalex")
CLOCK = datetime(2025, 11, 20, 10, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
WORKS = {w["id"]: w for w in SEED["works"]}
INGRID, NTNU_INGRID, TOMAS = "A5023888391", "A5088123407", "A5001459862"
REVIEW, TO_READ, TEACHING, LISBON_PUBLIC, TOMAS_PRIVATE = "L00001", "L00002", "L00004", "L00006", "L00007"
MERGED = next(m for m in SEED["merged_ids"] if m["old_id"].startswith("W"))

session = session_fixture(SPEC, CLOCK)


def ids(session, filter="", **kw):
    return [r["id"] for r in ok(session, "list_works", {"filter": filter, "per_page": 100, **kw})["results"]]


def in_list(session, list_id):
    return {i["work"]["id"]: i["note"] for i in ok(session, "get_list", {"list_id": list_id})["items"]}


# ---------------------------------------------------------------- interface


def test_tool_surface_is_22_agent_tools_with_two_parameterless_reads():
    assert len(SPEC.tools) == 22
    assert not [t.name for t in SPEC.tools.values() if t.user_only]
    assert {t.name for t in SPEC.agent_tools if not t.input_schema["properties"]} == {
        "list_my_lists",
        "list_saved_searches",
    }


def test_per_page_bounds_are_in_the_schema_and_refused_with_the_documented_text(session):
    schema = SPEC.tools["list_works"].input_schema["properties"]["per_page"]
    assert schema["maximum"] == 100 and schema["minimum"] == 1
    fails(session, "list_works", {"per_page": 101}, "invalid_arguments", "per_page must be between 1 and 100")


# ---------------------------------------------------------------- filters


def test_comma_is_and_pipe_is_or_and_bang_negates(session):
    reviews = set(ids(session, "type:review"))
    since = set(ids(session, "publication_year:>2022"))
    both = set(ids(session, "type:review,publication_year:>2022"))
    assert both and both == reviews & since
    either = set(ids(session, "type:review|preprint"))
    assert either == reviews | set(ids(session, "type:preprint"))
    not_reviews = ok(session, "list_works", {"filter": "type:!review", "per_page": 100})
    assert not {r["id"] for r in not_reviews["results"]} & reviews
    assert not_reviews["meta"]["count"] + len(reviews) == len(WORKS)


def test_inequalities_and_ranges_on_numbers(session):
    over = ids(session, "cited_by_count:>50")
    assert over and all(WORKS[w]["cited_by_count"] > 50 for w in over)
    span = ids(session, "publication_year:2019-2020")
    assert span and {WORKS[w]["publication_year"] for w in span} == {2019, 2020}
    dated = ids(session, "from_publication_date:2024-03-01,to_publication_date:2024-06-30")
    assert dated and all("2024-03-01" <= WORKS[w]["publication_date"] <= "2024-06-30" for w in dated)


def test_plus_means_both_authors_and_the_two_ingrids_are_kept_apart(session):
    joint = ids(session, f"authorships.author.id:{INGRID}+{TOMAS}")
    assert joint and all(
        f"|{INGRID}|" in WORKS[w]["author_ids"] and f"|{TOMAS}|" in WORKS[w]["author_ids"] for w in joint
    )
    theirs = set(ids(session, f"author.id:{NTNU_INGRID}"))
    assert theirs and not theirs & set(ids(session, f"author.id:{INGRID}"))
    names = ok(session, "list_authors", {"search": "ingrid solberg"})["results"]
    assert {a["id"] for a in names} == {INGRID, NTNU_INGRID}
    assert {a["last_known_institutions"][0]["display_name"] for a in names} == {
        "University of Bergen",
        "Norwegian University of Science and Technology",
    }


def test_cites_and_cited_by_follow_the_reference_links(session):
    link = SEED["referenced_works"][0]
    assert link["citing_id"] in ids(session, f"cites:{link['cited_id']}")
    assert link["cited_id"] in ids(session, f"cited_by:{link['citing_id']}")


def test_bad_filters_are_refused_with_openalex_wording(session):
    fails(
        session, "list_works", {"filter": "author_name:solberg"}, "InvalidRequest", "Unknown filter field: author_name"
    )
    fails(
        session,
        "list_works",
        {"filter": "publication_year:abc"},
        "InvalidRequest",
        "Invalid filter: publication_year:abc",
    )
    fails(session, "list_works", {"filter": "is_oa:maybe"}, "InvalidRequest", "expects true or false")
    fails(session, "list_works", {"filter": "cited_by_count:5+6"}, "InvalidRequest", "'+' does not work")
    fails(session, "list_works", {"filter": "from_publication_date:2024"}, "InvalidRequest", "YYYY-MM-DD")
    fails(session, "list_works", {"filter": "author.id:I4432739"}, "InvalidRequest", "not a valid OpenAlex Author id")
    fails(session, "list_institutions", {"filter": "publication_year:2020"}, "InvalidRequest", "Unknown filter field")


# ---------------------------------------------------------------- search, sort, paging


def test_search_needs_every_word_and_relevance_needs_a_search(session):
    hits = ok(session, "list_works", {"search": "microplastic sediments", "per_page": 100})["results"]
    assert hits and all(
        all(
            w in (WORKS[h["id"]]["title"] + " " + WORKS[h["id"]]["abstract"]).lower()
            for w in ("microplastic", "sediments")
        )
        for h in hits
    )
    fails(
        session,
        "list_works",
        {"sort": "relevance_score:desc"},
        "InvalidRequest",
        "relevance_score sort requires a search",
    )
    fails(session, "list_works", {"sort": "h_index"}, "InvalidRequest", "Invalid sort field: h_index")


def test_sort_keys_with_direction(session):
    newest = ok(session, "list_works", {"sort": "publication_date:desc", "per_page": 100})["results"]
    dates = [r["publication_date"] for r in newest]
    assert dates == sorted(dates, reverse=True)
    cited = ok(session, "list_authors", {"sort": "cited_by_count", "per_page": 100})["results"]
    assert [a["cited_by_count"] for a in cited] == sorted(a["cited_by_count"] for a in cited)


def test_basic_paging_stops_at_ten_thousand_and_cannot_mix_with_a_cursor(session):
    second = ok(session, "list_works", {"page": 2, "per_page": 10, "sort": "publication_date"})
    first = ok(session, "list_works", {"page": 1, "per_page": 20, "sort": "publication_date"})
    assert [r["id"] for r in second["results"]] == [r["id"] for r in first["results"][10:]]
    fails(session, "list_works", {"page": 101, "per_page": 100}, "InvalidRequest", "Maximum results size of 10,000")
    fails(session, "list_works", {"page": 1, "cursor": "*"}, "InvalidRequest", "either page or cursor")


def test_cursor_paging_walks_every_result_once_and_is_tied_to_its_query(session):
    query = {"filter": "primary_topic.id:T10203", "sort": "publication_date", "per_page": 7}
    seen, cursor = [], "*"
    while cursor:
        page = ok(session, "list_works", {**query, "cursor": cursor})
        assert page["meta"]["page"] is None
        seen += [r["id"] for r in page["results"]]
        cursor = page["meta"]["next_cursor"]
    assert len(seen) == len(set(seen)) == page["meta"]["count"] > 7
    start = ok(session, "list_works", {**query, "cursor": "*"})["meta"]["next_cursor"]
    fails(
        session, "list_works", {**query, "filter": "type:review", "cursor": start}, "InvalidRequest", "Invalid cursor"
    )
    fails(session, "list_works", {**query, "cursor": "not-a-cursor"}, "InvalidRequest", "Invalid cursor")


# ---------------------------------------------------------------- single entities


def test_a_work_by_url_lower_case_doi_or_merged_id(session):
    work = next(w for w in SEED["works"] if w["doi"])
    assert ok(session, "get_work", {"id": f"https://openalex.org/{work['id']}"})["id"] == work["id"]
    assert ok(session, "get_work", {"id": work["id"].lower()})["id"] == work["id"]
    bare = work["doi"].removeprefix("https://doi.org/")
    assert ok(session, "get_work", {"id": bare})["id"] == work["id"]
    assert ok(session, "get_work", {"id": f"doi:{bare}"})["id"] == work["id"]
    assert ok(session, "get_work", {"id": MERGED["old_id"]})["id"] == MERGED["merged_into"]
    assert ok(session, "get_author", {"id": "A5023888999"})["id"] == INGRID
    fails(session, "get_work", {"id": "W1"}, "NotFound", "Work W1 not found")
    fails(session, "get_work", {"id": "10.9999/none"}, "NotFound", "no work in OpenAlex has this DOI")
    fails(session, "get_topic", {"id": "S170547374"}, "InvalidRequest", "not a valid OpenAlex Topic id")


def test_a_work_in_full_names_its_byline_positions_and_references(session):
    wid = SEED["referenced_works"][0]["citing_id"]
    work = ok(session, "get_work", {"id": wid})
    positions = [a["author_position"] for a in work["authorships"]]
    assert positions[0] == "first" and positions[-1] == "last"
    assert SEED["referenced_works"][0]["cited_id"] in work["referenced_works"]
    assert work["referenced_works_count"] == len(work["referenced_works"])


# ---------------------------------------------------------------- lists


def test_create_list_names_are_unique_ignoring_case_and_capped_at_fifty(session):
    fails(session, "create_list", {"name": "to READ"}, "Conflict", "already have a list named 'To read'")
    made = ok(session, "create_list", {"name": "  Fjord   cores  "})
    assert made["name"] == "Fjord cores" and made["visibility"] == "private" and made["item_count"] == 0

    def many(tables):
        tables["lists"] += [
            dict(
                list_id=f"L9{n:04d}",
                owner_id="U10001",
                name=f"Extra {n}",
                description="",
                visibility="private",
                created_at="2025-01-01T00:00:00Z",
                updated_at="2025-01-01T00:00:00Z",
            )
            for n in range(45)
        ]

    restore_seed_with(session, many, CLOCK)
    fails(session, "create_list", {"name": "One too many"}, "Conflict", "50 lists")


def test_adding_refuses_duplicates_and_unknown_works_and_stores_merged_ids_as_the_survivor(session):
    present = next(iter(in_list(session, TO_READ)))
    fails(session, "add_works_to_list", {"list_id": TO_READ, "work_ids": [present]}, "Conflict", "already in list")
    fails(session, "add_works_to_list", {"list_id": TO_READ, "work_ids": ["W123"]}, "NotFound", "Work W123 not found")
    added = ok(session, "add_works_to_list", {"list_id": TO_READ, "work_ids": [MERGED["old_id"]], "note": "merged"})
    assert {i["work"]["id"]: i["note"] for i in added["items"]}[MERGED["merged_into"]] == "merged"
    fails(
        session, "add_works_to_list", {"list_id": TO_READ, "work_ids": [MERGED["merged_into"]]}, "Conflict", "already"
    )


def test_a_list_holds_at_most_200_works(session):
    def nearly_full(tables):
        tables["list_items"] = [i for i in tables["list_items"] if i["list_id"] != TO_READ]
        tables["list_items"] += [
            dict(
                item_key=f"{TO_READ}/{w['id']}",
                list_id=TO_READ,
                work_id=w["id"],
                note="",
                added_at="2025-01-01T00:00:00Z",
            )
            for w in tables["works"][:198]
        ]

    restore_seed_with(session, nearly_full, CLOCK)
    rest = [w["id"] for w in SEED["works"][198:201]]
    fails(session, "add_works_to_list", {"list_id": TO_READ, "work_ids": rest}, "Conflict", "at most 200")
    ok(session, "add_works_to_list", {"list_id": TO_READ, "work_ids": rest[:2]})
    assert ok(session, "get_list", {"list_id": TO_READ})["item_count"] == 200


def test_notes_and_removals_need_the_work_in_the_list(session):
    present = next(iter(in_list(session, REVIEW)))
    absent = next(w for w in WORKS if w not in in_list(session, REVIEW))
    ok(session, "set_item_note", {"list_id": REVIEW, "work_id": present, "note": "Key figure 2"})
    assert in_list(session, REVIEW)[present] == "Key figure 2"
    fails(
        session,
        "set_item_note",
        {"list_id": REVIEW, "work_id": absent, "note": "x"},
        "InvalidRequest",
        "is not in list",
    )
    fails(
        session,
        "remove_works_from_list",
        {"list_id": REVIEW, "work_ids": [present, absent]},
        "InvalidRequest",
        "not in",
    )
    fails(
        session,
        "set_item_note",
        {"list_id": REVIEW, "work_id": present, "note": "x" * 2001},
        "invalid_arguments",
        "2,000",
    )
    ok(session, "remove_works_from_list", {"list_id": REVIEW, "work_ids": [present]})
    assert present not in in_list(session, REVIEW)


def test_other_users_public_lists_are_read_only_and_private_ones_hidden(session):
    assert ok(session, "get_list", {"list_id": LISBON_PUBLIC})["owner"] == "U10002"
    fails(session, "update_list", {"list_id": LISBON_PUBLIC, "name": "Mine now"}, "PermissionDenied", "only view it")
    fails(
        session,
        "add_works_to_list",
        {"list_id": LISBON_PUBLIC, "work_ids": [MERGED["merged_into"]]},
        "PermissionDenied",
        "",
    )
    fails(session, "delete_list", {"list_id": LISBON_PUBLIC}, "PermissionDenied", "only view it")
    fails(session, "get_list", {"list_id": TOMAS_PRIVATE}, "PermissionDenied", "private to its owner")
    fails(session, "get_list", {"list_id": "L99999"}, "NotFound", "List L99999 not found")
    assert LISBON_PUBLIC not in {x["list_id"] for x in ok(session, "list_my_lists")}


def test_rename_visibility_and_delete_with_items(session):
    fails(session, "update_list", {"list_id": REVIEW, "name": "to read"}, "Conflict", "already have a list")
    changed = ok(session, "update_list", {"list_id": REVIEW, "visibility": "public", "name": "MPB review"})
    assert changed["visibility"] == "public" and changed["name"] == "MPB review"
    gone = ok(session, "delete_list", {"list_id": TEACHING})
    assert gone["item_count"] > 0
    assert TEACHING not in {x["list_id"] for x in ok(session, "list_my_lists")}
    assert not [row for row in session.dump()["list_items"].values() if row["list_id"] == TEACHING]


# ---------------------------------------------------------------- saved searches


def test_saved_searches_are_checked_unique_and_alert_only_on_works(session):
    base = {"entity": "works", "filter": "primary_topic.id:T10331"}
    fails(session, "save_search", {"name": "heatwave REVIEWS", **base}, "Conflict", "already exists")
    fails(
        session, "save_search", {"name": "Blooms", "filter": "bloom_size:3"}, "InvalidRequest", "Unknown filter field"
    )
    fails(session, "save_search", {"name": "Empty"}, "InvalidRequest", "needs a filter, search words or both")
    fails(
        session,
        "save_search",
        {
            "name": "IMR people",
            "entity": "authors",
            "filter": "last_known_institutions.id:I4210129474",
            "alert": "weekly",
        },
        "InvalidRequest",
        "Alerts are sent for new works only",
    )
    saved = ok(session, "save_search", {"name": "Blooms", "alert": "daily", **base})
    assert saved["match_count"] == len(ids(session, base["filter"])) > 0
    fails(session, "update_saved_search", {"search_id": "Q00003", "alert": "daily"}, "InvalidRequest", "works only")
    fails(session, "update_saved_search", {"search_id": "Q00005", "alert": "none"}, "NotFound", "Saved search Q00005")
    ok(session, "update_saved_search", {"search_id": saved["search_id"], "alert": "weekly", "filter": "type:review"})
    ok(session, "delete_saved_search", {"search_id": "Q00003"})
    names = {s["name"]: s for s in ok(session, "list_saved_searches")}
    assert "Bergen ocean authors" not in names and names["Blooms"]["alert"] == "weekly"
    assert "Tagus microplastics" not in names


def test_the_library_needs_a_signed_in_account(session):
    restore_seed_with(session, lambda t: t.update(sessions=[]), CLOCK)
    fails(session, "list_my_lists", {}, "PermissionDenied", "Sign in to OpenAlex first")
    assert ok(session, "list_works", {"per_page": 1})["meta"]["count"] == len(WORKS)
