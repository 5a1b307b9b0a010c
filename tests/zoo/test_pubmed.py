"""The PubMed environment's tools on the real seed: the ESearch term language (field tags, date ranges, Boolean
order, paging cap, sort), ESummary/EFetch/ELink with retractions and errata linked, unknown PMIDs, and My NCBI's
rules for collections, saved searches, My Bibliography and filters. Every error path leaves the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("pubmed")
CLOCK = datetime(2025, 11, 14, 9, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
ART = {a["pmid"]: a for a in SEED["articles"]}

session = session_fixture(SPEC, CLOCK)

FAVORITES, CRE, LONG_COVID, TO_READ = "62100001", "62100002", "62100003", "62100005"
OKAFOR_PUBLIC, LINDQVIST_PRIVATE = "62100007", "62100008"
RETRACTED = next(
    p
    for p in ART
    if "Retracted Publication" in ART[p]["publication_types"]
    and p in {i["pmid"] for i in SEED["collection_items"] if i["collection_id"] == CRE}
)
PRIYA = [p for p, a in ART.items() if "|raman priya|" in a["author_index"]]
PRAKASH = [p for p, a in ART.items() if "|raman prakash|" in a["author_index"]]
IN_BIB = {r["pmid"] for r in SEED["bibliography"] if r["owner_id"] == "praman_umich"}


def pmids(session, term, **kw):
    return ok(session, "esearch", {"term": term, "retmax": 1000, **kw})["idlist"]


# ---------------------------------------------------------------- interface


def test_tool_surface_has_no_user_only_tools_and_three_parameterless_reads():
    assert len(SPEC.tools) == 22
    assert not [t.name for t in SPEC.tools.values() if t.user_only]
    assert {t.name for t in SPEC.agent_tools if not t.input_schema["properties"]} == {
        "list_collections",
        "list_saved_searches",
        "get_my_bibliography",
        "list_filters",
    }


# ---------------------------------------------------------------- ESearch


def test_field_tags_match_only_their_field(session):
    by_title = pmids(session, "klebsiella[ti]")
    assert by_title and all("klebsiella" in ART[p]["title"].lower() for p in by_title)
    by_mesh = pmids(session, "klebsiella infections[mh]")
    assert by_mesh and all("|klebsiella infections" in ART[p]["mesh_index"] for p in by_mesh)
    major = pmids(session, "klebsiella infections[majr]")
    assert set(major) <= set(by_mesh) and all("|klebsiella infections*|" in ART[p]["mesh_index"] for p in major)
    reviews = pmids(session, "review[pt]")
    assert reviews and all("Review" in ART[p]["publication_types"] for p in reviews)
    french = pmids(session, "french[la]")
    assert french and all(ART[p]["language"] == "fre" for p in french)
    first = pmids(session, "raman priya[1au]")
    assert all(ART[p]["author_index"].startswith("|raman p|raman priya|") for p in first)


def test_author_initials_find_both_people_sharing_them(session):
    found = set(pmids(session, "raman p[au]"))
    assert found == set(PRIYA) | set(PRAKASH)
    assert set(pmids(session, "raman priya[au]")) == set(PRIYA)


def test_date_ranges_are_inclusive_and_month_precise(session):
    in_range = pmids(session, "2020:2021[dp]")
    assert in_range and all("2020-01-01" <= ART[p]["pub_date"] <= "2021-12-31" for p in in_range)
    march = pmids(session, "2022/03[dp]")
    assert all(ART[p]["pub_date"].startswith("2022-03") for p in march)
    assert len(in_range) == sum("2020" <= a["pub_date"][:4] <= "2021" for a in ART.values())


def test_booleans_apply_left_to_right_and_parentheses_regroup(session):
    a, b, c = (set(pmids(session, t)) for t in ("sepsis[mh]", "fatigue[tiab]", "review[pt]"))
    assert set(pmids(session, "sepsis[mh] OR fatigue[tiab] AND review[pt]")) == (a | b) & c
    assert set(pmids(session, "sepsis[mh] OR (fatigue[tiab] AND review[pt])")) == a | (b & c)
    assert set(pmids(session, "sepsis[mh] NOT review[pt]")) == a - c
    found = ok(session, "esearch", {"term": "sepsis[mh] NOT review[pt]"})
    assert found["querytranslation"] == '("sepsis"[MeSH Terms] NOT "review"[Publication Type])'


def test_untagged_words_are_all_required_in_any_field(session):
    both = set(pmids(session, "carbapenem wastewater"))
    assert both == set(pmids(session, "carbapenem")) & set(pmids(session, "wastewater"))


def test_paging_and_sort_orders(session):
    everything = pmids(session, "humans[mh]", sort="pub_date")
    dates = [ART[p]["pub_date"] for p in everything]
    assert dates == sorted(dates, reverse=True)
    page = ok(session, "esearch", {"term": "humans[mh]", "retstart": 5, "retmax": 3, "sort": "pub_date"})
    assert page["idlist"] == everything[5:8] and page["count"] == len(everything)
    assert ok(session, "esearch", {"term": "humans[mh]", "retmax": 0})["idlist"] == []
    by_title = pmids(session, "sepsis[mh]", sort="title")
    assert [ART[p]["title"].lower() for p in by_title] == sorted(ART[p]["title"].lower() for p in by_title)


def test_bad_terms_and_windows_are_refused(session):
    fails(session, "esearch", {"term": "sepsis[zz]"}, "InvalidRequest", "Field not found")
    fails(session, "esearch", {"term": "(sepsis[mh] AND fatigue"}, "InvalidRequest", "Unbalanced parentheses")
    fails(session, "esearch", {"term": "sepsis AND"}, "InvalidRequest", "term was expected")
    fails(session, "esearch", {"term": "2020-2021[dp]"}, "InvalidRequest", "Invalid date")
    fails(session, "esearch", {"term": "   "}, "invalid_arguments", "Empty term and query_key")
    fails(session, "esearch", {"term": "sepsis", "retstart": 9999}, "InvalidRequest", "first 9999 records")
    fails(session, "esearch", {"term": "sepsis", "retmax": 10001}, "invalid_arguments", "retmax")


# ---------------------------------------------------------------- ESummary, EFetch, ELink


def test_unknown_pmids_are_errors_everywhere(session):
    fails(session, "esummary", {"ids": [PRIYA[0], "99999999"]}, "NotFound", "UID=99999999: cannot get document summary")
    fails(session, "efetch", {"ids": ["99999999"]}, "NotFound", "cannot get document summary")
    fails(session, "elink", {"id": "99999999"}, "NotFound", "99999999")
    fails(session, "add_to_collection", {"collection_id": TO_READ, "pmids": ["99999999"]}, "NotFound", "99999999")
    fails(session, "esummary", {"ids": ["PMC123"]}, "invalid_arguments", "ids.0")
    fails(session, "elink", {"id": "PMC123"}, "invalid_arguments", "Invalid uid")


def test_retraction_is_linked_both_ways(session):
    record = ok(session, "efetch", {"ids": [RETRACTED]})[0]
    notice = next(r for r in record["comments_corrections"] if r["reftype"] == "RetractionIn")
    summary = ok(session, "esummary", {"ids": [notice["pmid"]]})["result"][0]
    assert summary["pubtype"] == ["Retraction of Publication"]
    assert summary["references"][0] == {**summary["references"][0], "reftype": "RetractionOf", "pmid": RETRACTED}
    assert "Retracted Publication" in record["publication_types"]


def test_elink_similar_citedin_and_refs(session):
    similar = ok(session, "elink", {"id": RETRACTED})["links"]
    scores = [link["score"] for link in similar]
    assert scores == sorted(scores, reverse=True) and len(similar) == 4
    cited_in = {
        link["id"] for link in ok(session, "elink", {"id": RETRACTED, "linkname": "pubmed_pubmed_citedin"})["links"]
    }
    assert cited_in == {r["citing_pmid"] for r in SEED["citations"] if r["cited_pmid"] == RETRACTED}
    for citer in cited_in:
        refs = ok(session, "elink", {"id": citer, "linkname": "pubmed_pubmed_refs"})["links"]
        assert RETRACTED in {link["id"] for link in refs}


# ---------------------------------------------------------------- collections


def test_collections_list_own_only_with_favorites_first(session):
    listed = ok(session, "list_collections")
    assert listed[0]["is_favorites"] and all(c["owner"] == "Priya Raman" for c in listed)
    assert OKAFOR_PUBLIC not in {c["collection_id"] for c in listed}


def test_other_users_public_collections_are_read_only_and_private_ones_hidden(session):
    assert ok(session, "get_collection", {"collection_id": OKAFOR_PUBLIC})["collection"]["owner"] == "Chinedu Okafor"
    fails(
        session,
        "add_to_collection",
        {"collection_id": OKAFOR_PUBLIC, "pmids": [PRIYA[0]]},
        "PermissionDenied",
        "only view",
    )
    fails(session, "get_collection", {"collection_id": LINDQVIST_PRIVATE}, "PermissionDenied", "private")
    fails(session, "get_collection", {"collection_id": "99999999"}, "NotFound", "Collection")


def test_collection_names_are_unique_per_user_and_favorites_is_fixed(session):
    fails(session, "create_collection", {"name": "to READ"}, "Conflict", "already have a collection named 'To read'")
    fails(session, "update_collection", {"collection_id": CRE, "name": "Favorites"}, "Conflict", "already have")
    fails(
        session,
        "update_collection",
        {"collection_id": FAVORITES, "name": "Best"},
        "InvalidRequest",
        "cannot be renamed",
    )
    fails(session, "delete_collection", {"collection_id": FAVORITES}, "InvalidRequest", "cannot be deleted")
    made = ok(session, "create_collection", {"name": "AMR surveillance reading list"})  # another user's name is fine
    assert made["item_count"] == 0 and made["public"] is False
    assert ok(session, "update_collection", {"collection_id": FAVORITES, "public": True})["public"] is True


def test_adding_skips_members_and_removing_needs_membership(session):
    before = ok(session, "get_collection", {"collection_id": TO_READ})["pmids"]
    after = ok(session, "add_to_collection", {"collection_id": TO_READ, "pmids": [before[0], PRIYA[0]]})
    assert after["item_count"] == len(before) + (PRIYA[0] not in before)
    fails(
        session,
        "remove_from_collection",
        {"collection_id": TO_READ, "pmids": [PRAKASH[0]]},
        "InvalidRequest",
        "not in collection",
    )
    gone = ok(session, "remove_from_collection", {"collection_id": TO_READ, "pmids": [before[0]]})
    assert gone == {"removed": [before[0]], "remaining": after["item_count"] - 1}


def test_a_collection_holds_at_most_5000_items(session):
    filler = [f"{40000000 + n}" for n in range(5000)]

    def full(tables):
        base = next(a for a in tables["articles"] if a["pmid"] == PRIYA[0])
        tables["articles"] += [{**base, "pmid": p} for p in filler]
        tables["collection_items"] = [i for i in tables["collection_items"] if i["collection_id"] != TO_READ]
        tables["collection_items"] += [
            {"item_key": f"{TO_READ}/{p}", "collection_id": TO_READ, "pmid": p, "added_at": "2025-10-01T12:00:00Z"}
            for p in filler
        ]

    restore_seed_with(session, full, CLOCK)
    fails(
        session, "add_to_collection", {"collection_id": TO_READ, "pmids": [PRIYA[1]]}, "Conflict", "at most 5000 items"
    )
    assert ok(session, "add_to_collection", {"collection_id": TO_READ, "pmids": [filler[0]]})["item_count"] == 5000


def test_deleting_a_collection_removes_its_items_but_not_the_records(session):
    ok(session, "delete_collection", {"collection_id": CRE})
    dump = session.dump()
    assert not [k for k, row in dump["collection_items"].items() if row["collection_id"] == CRE]
    assert RETRACTED in dump["articles"]


# ---------------------------------------------------------------- saved searches


def test_saved_search_names_are_unique_per_user_only(session):
    fails(session, "save_search", {"name": "cre icu", "term": "sepsis"}, "Conflict", "must be unique")
    fails(session, "update_saved_search", {"search_id": "4400003", "name": "CRE ICU"}, "Conflict", "must be unique")
    mine = [s["name"] for s in ok(session, "list_saved_searches")]
    assert "Presepsin" not in mine  # Maria Lindqvist's
    made = ok(session, "save_search", {"name": "Presepsin", "term": "presepsin[tiab]"})
    assert made["frequency"] == "none" and made["last_run"] == "2025-11-14"
    fails(session, "delete_saved_search", {"search_id": "4400007"}, "NotFound", "Saved search")


def test_email_schedule_must_fit_the_frequency(session):
    base = {"name": "New", "term": "sepsis[mh]"}
    fails(session, "save_search", {**base, "frequency": "weekly"}, "InvalidRequest", "weekday")
    fails(
        session,
        "save_search",
        {**base, "frequency": "monthly", "send_day": "Monday"},
        "InvalidRequest",
        "day of the month",
    )
    fails(
        session,
        "save_search",
        {**base, "frequency": "daily", "send_day": 3},
        "InvalidRequest",
        "only to weekly or monthly",
    )
    fails(session, "save_search", {**base, "frequency": "monthly", "send_day": 31}, "invalid_arguments", "send_day")
    fails(session, "save_search", {**base, "term": "sepsis[xx]"}, "InvalidRequest", "Field not found")
    fails(session, "save_search", {**base, "max_items": 7}, "invalid_arguments", "max_items")
    saved = ok(session, "save_search", {**base, "frequency": "monthly", "send_day": 28})
    assert saved["send_day"] == "28"
    moved = ok(session, "update_saved_search", {"search_id": "4400001", "frequency": "daily"})
    assert moved["send_day"] is None and moved["frequency"] == "daily"
    fails(
        session,
        "update_saved_search",
        {"search_id": "4400001", "send_day": "Friday"},
        "InvalidRequest",
        "only to weekly",
    )


# ---------------------------------------------------------------- My Bibliography


def test_bibliography_takes_only_own_new_citations(session):
    missing = [p for p in PRIYA if p not in IN_BIB]
    not_hers = next(p for p, a in ART.items() if "|raman p|" not in a["author_index"])
    fails(
        session, "add_to_my_bibliography", {"pmids": [missing[0], not_hers]}, "InvalidRequest", "does not list Raman P"
    )
    fails(session, "add_to_my_bibliography", {"pmids": [sorted(IN_BIB)[0]]}, "Conflict", "already in My Bibliography")
    added = ok(session, "add_to_my_bibliography", {"pmids": missing})
    assert set(added["pmids"]) == set(PRIYA)
    dates = [s["pubdate"] for s in added["summaries"]]
    assert dates == sorted(dates, reverse=True)
    fails(session, "remove_from_my_bibliography", {"pmids": [PRAKASH[-1]]}, "InvalidRequest", "not in My Bibliography")
    assert ok(session, "set_bibliography_visibility", {"public": True})["public"] is True


def test_bibliography_cannot_tell_same_initials_apart(session):
    """Prakash Raman's papers also list 'Raman P': the rule passes them, so the agent must check affiliations."""
    outsider = next(p for p in PRAKASH if p not in IN_BIB)
    assert outsider in ok(session, "add_to_my_bibliography", {"pmids": [outsider]})["pmids"]


# ---------------------------------------------------------------- filters


def test_filters_names_unique_and_at_most_15_active(session):
    listed = ok(session, "list_filters")
    assert {f["name"] for f in listed if f["active"]} == {"Reviews", "English"}
    fails(session, "create_filter", {"name": "english", "term": "english[la]"}, "Conflict", "already have a filter")
    fails(session, "create_filter", {"name": "Bad", "term": "x[qq]"}, "InvalidRequest", "Field not found")
    fails(session, "set_filter_active", {"filter_id": "90009", "active": True}, "NotFound", "Filter")  # Okafor's
    for n in range(13):
        ok(session, "create_filter", {"name": f"F{n}", "term": f"{2010 + n}[dp]"})
    fails(session, "create_filter", {"name": "One more", "term": "humans[mh]"}, "Conflict", "At most 15")
    fails(session, "set_filter_active", {"filter_id": "90003", "active": True}, "Conflict", "At most 15")
    assert ok(session, "set_filter_active", {"filter_id": "90001", "active": False})["active"] is False
    assert ok(session, "set_filter_active", {"filter_id": "90003", "active": True})["active"] is True
