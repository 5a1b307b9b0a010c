"""The Orcid environment's tools on the real seed: the iD's check digit, deprecated, deactivated and locked records,
the scopes a researcher grants the portal (none: 401 9017; the wrong one: 403 9004), what the portal may read
(public items; limited ones with /read-limited; private ones only where it is the source), writes only to the
portal's own items (9010), visibility never above the researcher's default and never changed by an update (9035),
duplicates of the portal's own identifiers (409 9021, person items 9030), works grouped by shared self identifiers
with the preferred version kept, disambiguated organizations (9045), fuzzy dates in order, and deterministic
put-codes. Every error path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("orcid")
CLOCK = datetime(2025, 6, 10, 14, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
OKAFOR, RIBEIRO, RIBEIRO_PORTO = "0000-0003-1742-2851", "0000-0002-6638-9149", "0000-0001-9930-4781"
LINDQVIST, ZHANG, ZHANG_TSINGHUA = "0000-0002-3315-7608", "0000-0003-4471-2037", "0000-0001-7784-5122"
BROOKS, ADEYEMI, ADEYEMI_OLD = "0000-0002-8843-107X", "0000-0001-5524-9813", "0000-0003-2298-8163"
NATARAJAN, FERREIRA, HOFFMANN = "0000-0002-2219-4585", "0000-0003-1187-7345", "0000-0002-4461-8238"
MEPS_CROSSREF, MEPS_PORTAL, PREPRINT = 107995, 108012, 108033
GATE_CROSSREF, GATE_SCOPUS = 108070, 108073
NATARAJAN_PRIVATE = 106317  # a private Crossref work: the portal is not its source
OKAFOR_POSTDOC, OKAFOR_TECHNICIAN, OKAFOR_NSF, OKAFOR_NOAA = 101540, 101579, 102173, 102212
TW, NSF = "https://ror.org/04tw4kq71", "http://dx.doi.org/10.13039/100000001"

session = session_fixture(SPEC, CLOCK)


def doi(value: str) -> list[dict[str, str]]:
    return [{"type": "doi", "value": value, "relationship": "self"}]


def article(orcid: str, value: str, **extra: object) -> dict[str, object]:
    return {"orcid": orcid, "title": "A test article", "type": "journal-article", "external_ids": doi(value), **extra}


def put_codes(works: dict) -> set[int]:
    return {summary["put_code"] for group in works["groups"] for summary in group["work_summaries"]}


# ---------------------------------------------------------------- iDs and record states


def test_the_check_digit_is_verified_and_a_wrong_one_names_the_id(session: ToolSession) -> None:
    assert ok(session, "get_person", {"orcid": "0000-0002-1825-0097"})["family_name"] == "Carberry"
    fails(session, "get_person", {"orcid": "0000-0002-1825-0098"}, "InvalidRequest", "check digit does not match")
    fails(session, "get_works", {"orcid": "0000-0002-1825-009"}, "invalid_arguments", "four blocks of four digits")


def test_an_unknown_id_is_404_9011(session: ToolSession) -> None:
    fails(session, "get_person", {"orcid": "0000-0001-2345-6789"}, "NotFound", "9011")


def test_a_deprecated_id_points_to_the_primary_record(session: ToolSession) -> None:
    outcome = fails(session, "get_works", {"orcid": ADEYEMI_OLD}, "NotFound", "301 Moved Permanently")
    assert ADEYEMI in (outcome.error or "") and "9007" in (outcome.error or "")
    hits = ok(session, "search_records", {"q": "samuel adeyemi"})["expanded_result"]
    assert [hit["orcid_id"] for hit in hits] == [ADEYEMI]


def test_a_deactivated_record_cannot_be_read_but_its_state_can(session: ToolSession) -> None:
    fails(session, "get_affiliations", {"orcid": HOFFMANN}, "Conflict", "deactivated")
    assert ok(session, "get_permissions", {"orcid": HOFFMANN})["record_state"] == "deactivated"
    assert ok(session, "search_records", {"q": "hoffmann"})["num_found"] == 0


def test_a_locked_record_is_readable_but_not_writable(session: ToolSession) -> None:
    assert ok(session, "get_affiliations", {"orcid": BROOKS})["affiliations"]
    fails(session, "add_work", article(BROOKS, "10.1/x"), "Conflict", "9018")
    fails(session, "add_keyword", {"orcid": BROOKS, "keyword": "RSV"}, "Conflict", "locked")


# ---------------------------------------------------------------- scopes


def test_no_permission_is_401_and_a_missing_scope_is_403_9004(session: ToolSession) -> None:
    fails(session, "add_work", article(FERREIRA, "10.1/x"), "PermissionDenied", "9017")
    fails(session, "add_work", article(LINDQVIST, "10.1/x"), "PermissionDenied", "/activities/update")
    fails(session, "add_keyword", {"orcid": RIBEIRO, "keyword": "DFT+U"}, "PermissionDenied", "9004")


def test_authorizing_adds_scopes_to_those_granted_before(session: ToolSession) -> None:
    fails(session, "authorize_portal", {"orcid": RIBEIRO, "scopes": ["/person/update"]}, "user_only", "user")
    granted = ok(session, "authorize_portal", {"orcid": RIBEIRO, "scopes": ["/person/update"]}, caller="user")
    assert granted["scopes"] == ["/activities/update", "/person/update", "/read-limited"]
    assert ok(session, "add_keyword", {"orcid": RIBEIRO, "keyword": "DFT+U"})["visibility"] == "limited"
    ok(session, "authorize_portal", {"orcid": FERREIRA, "scopes": ["/activities/update"]}, caller="user")
    assert ok(session, "get_permissions", {"orcid": FERREIRA})["scopes"] == ["/activities/update"]
    assert ok(session, "add_work", article(FERREIRA, "10.1/x"))["put_code"] == 9000002


# ---------------------------------------------------------------- what the portal reads


def test_limited_items_need_read_limited_and_private_ones_need_the_portal_as_source(session: ToolSession) -> None:
    porto = ok(session, "get_person", {"orcid": RIBEIRO_PORTO})
    assert [k["content"] for k in porto["keywords"]] == ["Atlantic trade"]  # "maritime history" is limited
    okafor = ok(session, "get_person", {"orcid": OKAFOR})
    assert "blue carbon" in [k["content"] for k in okafor["keywords"]]  # limited, but /read-limited was granted
    assert [e["email"] for e in okafor["emails"]] == ["a.okafor@tidewater.edu"]  # the private Gmail is hidden
    assert NATARAJAN_PRIVATE not in put_codes(ok(session, "get_works", {"orcid": NATARAJAN}))
    fails(session, "get_work", {"orcid": NATARAJAN, "put_code": NATARAJAN_PRIVATE}, "NotFound", "9016")
    zhang = ok(session, "get_affiliations", {"orcid": ZHANG, "section": "employment"})["affiliations"]
    assert [a["visibility"] for a in zhang] == ["private"]  # private, but the portal added it


def test_search_matches_every_word_and_filters_by_affiliation(session: ToolSession) -> None:
    both = ok(session, "search_records", {"q": "ana ribeiro"})["expanded_result"]
    assert {hit["orcid_id"] for hit in both} == {RIBEIRO, RIBEIRO_PORTO}
    ours = ok(session, "search_records", {"q": "ribeiro", "affiliation_org_name": "tidewater"})["expanded_result"]
    assert [hit["orcid_id"] for hit in ours] == [RIBEIRO]
    assert ok(session, "search_records", {"q": "张伟"})["num_found"] == 2
    page = ok(session, "search_records", {"q": "a", "rows": 2, "start": 1})
    assert len(page["expanded_result"]) == 2 and page["num_found"] > 3


def test_organizations_match_name_or_city_and_country(session: ToolSession) -> None:
    found = ok(session, "search_organizations", {"q": "science foundation", "country": "US"})["organizations"]
    assert [o["id"] for o in found] == [NSF]
    assert ok(session, "search_organizations", {"q": "lisbon"})["organizations"][0]["name"].startswith("Fundação")


# ---------------------------------------------------------------- works and their groups


def test_versions_sharing_a_doi_are_one_group_and_the_researchers_choice_stays_preferred(session: ToolSession) -> None:
    ok(session, "authorize_portal", {"orcid": OKAFOR, "scopes": ["/read-limited"]}, caller="user")
    groups = ok(session, "get_works", {"orcid": OKAFOR})["groups"]
    (meps,) = [g for g in groups if MEPS_CROSSREF in {s["put_code"] for s in g["work_summaries"]}]
    assert {s["put_code"] for s in meps["work_summaries"]} == {MEPS_CROSSREF, MEPS_PORTAL}
    assert meps["preferred_put_code"] == MEPS_CROSSREF
    ok(session, "authorize_portal", {"orcid": NATARAJAN, "scopes": ["/read-limited"]}, caller="user")
    added = ok(session, "add_work", article(NATARAJAN, "HTTPS://DOI.ORG/10.1038/S41564-025-01933-8"))
    groups = ok(session, "get_works", {"orcid": NATARAJAN})["groups"]
    (gate,) = [g for g in groups if GATE_CROSSREF in {s["put_code"] for s in g["work_summaries"]}]
    assert {s["put_code"] for s in gate["work_summaries"]} == {GATE_CROSSREF, GATE_SCOPUS, added["put_code"]}
    assert gate["preferred_put_code"] == GATE_CROSSREF


def test_a_work_with_two_identifiers_joins_two_groups_into_one(session: ToolSession) -> None:
    before = len(ok(session, "get_works", {"orcid": NATARAJAN})["groups"])
    ok(
        session,
        "add_work",
        {
            **article(NATARAJAN, "10.1038/s41564-025-01933-8"),
            "external_ids": doi("10.1038/s41564-025-01933-8") + doi("10.1016/j.str.2016.01486"),
        },
    )
    assert len(ok(session, "get_works", {"orcid": NATARAJAN})["groups"]) == before - 1


def test_the_portal_cannot_add_an_identifier_it_already_used_on_the_record(session: ToolSession) -> None:
    outcome = fails(session, "add_work", article(OKAFOR, "https://doi.org/10.3354/MEPS14702"), "Conflict", "9021")
    assert f"put-code {MEPS_PORTAL}" in (outcome.error or "")
    fails(
        session,
        "update_work",
        {"orcid": OKAFOR, "put_code": PREPRINT, "external_ids": doi("10.3354/meps14702")},
        "Conflict",
        "matched by external identifiers",
    )
    ok(session, "update_work", {"orcid": OKAFOR, "put_code": MEPS_PORTAL, "external_ids": doi("10.3354/meps14702")})


def test_a_work_needs_a_self_identifier(session: ToolSession) -> None:
    only_part_of = [{"type": "doi", "value": "10.1/whole", "relationship": "part-of"}]
    fails(session, "add_work", {**article(OKAFOR, "x"), "external_ids": only_part_of}, "InvalidRequest", "9023")
    fails(session, "update_work", {"orcid": OKAFOR, "put_code": PREPRINT, "external_ids": []}, "InvalidRequest", "9023")


def test_only_the_portals_own_items_change(session: ToolSession) -> None:
    fails(
        session, "update_work", {"orcid": OKAFOR, "put_code": MEPS_CROSSREF, "title": "x"}, "PermissionDenied", "9010"
    )
    fails(
        session,
        "delete_item",
        {"orcid": NATARAJAN, "section": "work", "put_code": GATE_SCOPUS},
        "PermissionDenied",
        "not the source of the work",
    )
    fails(
        session,
        "update_affiliation",
        {"orcid": OKAFOR, "put_code": OKAFOR_TECHNICIAN, "end_date": "2019-09"},
        "PermissionDenied",
        "9010",
    )
    fails(
        session,
        "update_funding",
        {"orcid": OKAFOR, "put_code": OKAFOR_NOAA, "end_date": "2025-12"},
        "PermissionDenied",
        "9010",
    )
    fails(
        session,
        "delete_item",
        {"orcid": OKAFOR, "section": "researcher-urls", "put_code": 101301},
        "PermissionDenied",
        "9010",
    )
    changed = ok(
        session, "update_work", {"orcid": OKAFOR, "put_code": PREPRINT, "title": "New title", "visibility": "public"}
    )
    assert changed["title"] == "New title" and changed["type"] == "preprint"


def test_delete_finds_the_item_in_the_named_section_only(session: ToolSession) -> None:
    fails(
        session,
        "delete_item",
        {"orcid": OKAFOR, "section": "education", "put_code": OKAFOR_POSTDOC},
        "NotFound",
        "9016",
    )
    fails(session, "delete_item", {"orcid": OKAFOR, "section": "work", "put_code": OKAFOR_NSF}, "NotFound", "No work")
    ok(session, "delete_item", {"orcid": OKAFOR, "section": "funding", "put_code": OKAFOR_NSF})
    assert OKAFOR_NSF not in [f["put_code"] for f in ok(session, "get_fundings", {"orcid": OKAFOR})["fundings"]]


# ---------------------------------------------------------------- visibility


def test_new_items_take_the_default_and_may_only_be_more_private(session: ToolSession) -> None:
    assert ok(session, "add_work", article(ZHANG, "10.1/a"))["visibility"] == "private"
    fails(session, "add_work", article(ZHANG, "10.1/b", visibility="public"), "PermissionDenied", "9035")
    fails(
        session,
        "add_funding",
        {
            "orcid": RIBEIRO,
            "type": "grant",
            "title": "t",
            "funder_id": NSF,
            "grant_number": "X-1",
            "visibility": "public",
        },
        "PermissionDenied",
        "default visibility ('limited')",
    )
    assert ok(session, "add_work", article(OKAFOR, "10.1/c", visibility="limited"))["visibility"] == "limited"


def test_an_update_cannot_change_an_items_visibility(session: ToolSession) -> None:
    fails(
        session,
        "update_work",
        {"orcid": OKAFOR, "put_code": PREPRINT, "visibility": "limited"},
        "PermissionDenied",
        "can't change the visibility",
    )
    fails(
        session,
        "update_affiliation",
        {"orcid": OKAFOR, "put_code": OKAFOR_POSTDOC, "visibility": "private"},
        "PermissionDenied",
        "9035",
    )
    fails(
        session,
        "update_funding",
        {"orcid": OKAFOR, "put_code": OKAFOR_NSF, "visibility": "private"},
        "PermissionDenied",
        "9035",
    )


# ---------------------------------------------------------------- affiliations and fundings


def test_affiliations_need_a_known_organization_and_dates_in_order(session: ToolSession) -> None:
    fails(
        session,
        "add_affiliation",
        {"orcid": OKAFOR, "section": "employment", "organization_id": "https://ror.org/000000000"},
        "InvalidRequest",
        "9045",
    )
    fails(
        session,
        "add_affiliation",
        {
            "orcid": OKAFOR,
            "section": "employment",
            "organization_id": TW,
            "start_date": "2025-07",
            "end_date": "2025-01",
        },
        "InvalidRequest",
        "before start-date",
    )
    fails(
        session,
        "update_affiliation",
        {"orcid": OKAFOR, "put_code": OKAFOR_POSTDOC, "end_date": "2020"},
        "InvalidRequest",
        "9020",
    )
    fails(
        session,
        "add_affiliation",
        {"orcid": OKAFOR, "section": "employment", "organization_id": TW, "start_date": "2025-13"},
        "invalid_arguments",
        "YYYY-MM",
    )


def test_an_end_date_is_set_and_cleared(session: ToolSession) -> None:
    ended = ok(session, "update_affiliation", {"orcid": OKAFOR, "put_code": OKAFOR_POSTDOC, "end_date": "2025-05-31"})
    assert ended["end_date"] == "2025-05-31" and ended["role_title"] == "Postdoctoral Research Associate"
    fails(
        session,
        "update_affiliation",
        {"orcid": OKAFOR, "put_code": OKAFOR_POSTDOC, "end_date": "2025-06", "clear_end_date": True},
        "InvalidRequest",
        "not both",
    )
    assert (
        ok(session, "update_affiliation", {"orcid": OKAFOR, "put_code": OKAFOR_POSTDOC, "clear_end_date": True})[
            "end_date"
        ]
        is None
    )


def test_fundings_need_a_funder_a_currency_with_an_amount_and_a_new_grant_number(session: ToolSession) -> None:
    grant = {"orcid": OKAFOR, "type": "grant", "title": "t", "funder_id": NSF, "grant_number": "OCE-9999999"}
    fails(session, "add_funding", {**grant, "funder_id": "http://dx.doi.org/10.13039/0"}, "InvalidRequest", "9045")
    fails(session, "add_funding", {**grant, "amount": "1000"}, "InvalidRequest", "currency")
    outcome = fails(session, "add_funding", {**grant, "grant_number": " oce-2231187 "}, "Conflict", "9021")
    assert f"put-code {OKAFOR_NSF}" in (outcome.error or "")
    fails(session, "add_funding", {**grant, "amount": "12.345", "currency": "USD"}, "invalid_arguments", "amount")
    added = ok(session, "add_funding", {**grant, "amount": "1000", "currency": "USD"})
    assert (
        ok(session, "update_funding", {"orcid": OKAFOR, "put_code": added["put_code"], "amount": "1500"})["amount"]
        == "1500"
    )
    fails(
        session,
        "update_funding",
        {"orcid": OKAFOR, "put_code": OKAFOR_NSF, "start_date": "2027-01"},
        "InvalidRequest",
        "before start-date",
    )


# ---------------------------------------------------------------- person items


def test_person_items_are_the_portals_and_not_duplicated(session: ToolSession) -> None:
    fails(session, "add_keyword", {"orcid": OKAFOR, "keyword": "Eelgrass"}, "Conflict", "9030")
    ok(session, "add_keyword", {"orcid": OKAFOR, "keyword": "Zostera marina"})  # the researcher's own copy is no clash
    ident = {
        "orcid": OKAFOR,
        "type": "Loop profile",
        "value": "1734567",
        "url": "https://loop.frontiersin.org/people/1734567",
    }
    ok(session, "add_external_identifier", ident)
    fails(session, "add_external_identifier", ident, "Conflict", "duplicated")
    fails(
        session,
        "add_researcher_url",
        {"orcid": OKAFOR, "name": "Lab", "url": "not a url"},
        "invalid_arguments",
        "invalid URL",
    )
    person = ok(session, "get_person", {"orcid": OKAFOR})
    assert [i["source"]["source_name"] for i in person["external_identifiers"]] == [
        "Scopus - Elsevier",
        "Tidewater University Research Portal",
    ]


def test_put_codes_count_up_from_9000001(session: ToolSession) -> None:
    first = ok(session, "add_keyword", {"orcid": OKAFOR, "keyword": "heat waves"})
    second = ok(session, "add_work", article(OKAFOR, "10.1/d"))
    assert (first["put_code"], second["put_code"]) == (9000001, 9000002)
    assert second["path"] == f"/{OKAFOR}/work/9000002"
    assert max(w["put_code"] for w in SEED["works"]) < 9000001


def test_peer_reviews_are_grouped_by_venue_newest_first(session: ToolSession) -> None:
    groups = ok(session, "get_peer_reviews", {"orcid": LINDQVIST})["groups"]
    assert {g["group_id"] for g in groups} <= {"issn:0022-1430", "issn:1994-0416"}
    for group in groups:
        dates = [review["completion_date"] for review in group["peer_reviews"]]
        assert dates == sorted(dates, reverse=True)
    assert ok(session, "get_peer_reviews", {"orcid": ZHANG_TSINGHUA})["groups"] == []


def test_connected_records_list_whoever_granted_the_portal_something(session: ToolSession) -> None:
    before = ok(session, "list_connected_records")["records"]
    assert FERREIRA not in [item["orcid"] for item in before] and len(before) == len(SEED["permissions"])
    ok(session, "authorize_portal", {"orcid": FERREIRA, "scopes": ["/read-limited"]}, caller="user")
    after = {item["orcid"]: item["scopes"] for item in ok(session, "list_connected_records")["records"]}
    assert after[FERREIRA] == ["/read-limited"] and after[LINDQVIST] == ["/read-limited"]


def test_a_researcher_who_revokes_the_portal_leaves_it_public_data_only(session: ToolSession) -> None:
    fails(session, "revoke_portal", {"orcid": OKAFOR}, "user_only", "user")
    ok(session, "revoke_portal", {"orcid": OKAFOR}, caller="user")
    assert OKAFOR not in [item["orcid"] for item in ok(session, "list_connected_records")["records"]]
    fails(session, "add_work", article(OKAFOR, "10.1/e"), "PermissionDenied", "9017")
    keywords = [k["content"] for k in ok(session, "get_person", {"orcid": OKAFOR})["keywords"]]
    assert "blue carbon" not in keywords and "eelgrass" in keywords  # limited gone; the portal's own item stays
    fails(session, "revoke_portal", {"orcid": OKAFOR}, "PermissionDenied", "not authorized", caller="user")
