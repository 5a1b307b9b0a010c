"""The ClinicalTrials environment's tools: registry search and records, and the workspace rules (eligibility
pre-screens, consent, referrals under site enrollment limits, watch-list alerts), each error path leaving the state
unchanged. Runs the real tools on the real seed through ToolSession."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("clinicaltrials")
CLOCK = datetime(2025, 4, 15, 14, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]


# ---------------------------------------------------------------- seed lookups (by title and name)


def nct(title_start: str) -> str:
    found = [s["nct_id"] for s in SEED["studies"] if s["brief_title"].startswith(title_start)]
    assert len(found) == 1, (title_start, found)
    return found[0]


def person(name: str) -> str:
    return next(p["id"] for p in SEED["participants"] if p["display_name"] == name)


def site(study: str, facility: str) -> str:
    return next(loc["id"] for loc in SEED["locations"] if loc["nct_id"] == study and loc["facility"] == facility)


SUMMIT = nct("Once-Weekly NVT-2210")
KIDNEY = nct("Finerenone Plus Semaglutide")
HER2 = nct("Trastuzumab Deruxtecan After One Prior Line")
MEMORY = nct("Lecanemab Subcutaneous")
MEMORY2 = nct("Donanemab Dosing Regimens")
PSILO = nct("Psilocybin-Assisted Therapy")
PHASE1 = nct("First-in-Human Study of NVT-5150")
HFPEF = nct("Finerenone in Heart Failure With Preserved")
ORAL_INSULIN = nct("Oral Insulin Capsules")
T2D_DONE = nct("Tirzepatide Versus Insulin Glargine")


session = session_fixture(SPEC, CLOCK)


def screen(session: ToolSession, name: str, study: str) -> dict[str, Any]:
    return ok(session, "prescreen_participant", {"participant_id": person(name), "nct_id": study})


def refer(session: ToolSession, name: str, study: str, facility: str) -> dict[str, Any]:
    return ok(
        session,
        "contact_site",
        {
            "nct_id": study,
            "location_id": site(study, facility),
            "subject": "Referral",
            "message": "Referring a participant.",
            "participant_id": person(name),
        },
    )


def refer_fails(session: ToolSession, name: str, study: str, facility: str, kind: str, text: str) -> None:
    fails(
        session,
        "contact_site",
        {
            "nct_id": study,
            "location_id": site(study, facility),
            "subject": "Referral",
            "message": "Referring a participant.",
            "participant_id": person(name),
        },
        kind,
        text,
    )


# ---------------------------------------------------------------- interface


def test_nineteen_tools_with_one_user_only_consent_tool():
    assert len(SPEC.tools) == 19
    assert [t.name for t in SPEC.tools.values() if t.user_only] == ["grant_data_sharing_consent"]
    assert SPEC.tools["list_saved_studies"].input_model.model_fields == {}


# ---------------------------------------------------------------- registry search and records


def all_results(session: ToolSession, **args: Any) -> list[dict[str, Any]]:
    return ok(session, "search_studies", {**args, "page_size": 1000})["studies"]


def test_condition_search_uses_synonyms_and_filters(session):
    plain = {s["nctId"] for s in all_results(session, query_cond="type 2 diabetes")}
    assert {s["nctId"] for s in all_results(session, query_cond="T2DM")} == plain and SUMMIT in plain
    recruiting = all_results(session, query_cond="type 2 diabetes", overall_status=["RECRUITING"])
    assert recruiting and all(s["overallStatus"] == "RECRUITING" for s in recruiting)
    assert len(recruiting) < len(plain)
    htn = {s["nctId"] for s in all_results(session, query_cond="high blood pressure")}
    assert htn == {s["nctId"] for s in all_results(session, query_cond="hypertension")} and htn


def test_sex_age_phase_and_volunteer_filters(session):
    female = all_results(session, sex="FEMALE")
    assert all(s["sex"] in ("ALL", "FEMALE") for s in female) and any(s["sex"] == "FEMALE" for s in female)
    assert HER2 not in {s["nctId"] for s in all_results(session, sex="MALE")}
    kids = {s["nctId"] for s in all_results(session, query_cond="asthma", age=11)}
    assert kids == {nct("Tezepelumab in Children")}
    assert SUMMIT in {s["nctId"] for s in all_results(session, age=75)}
    assert SUMMIT not in {s["nctId"] for s in all_results(session, age=76)}
    phase1 = all_results(session, phase=["PHASE1"])
    assert phase1 and all("PHASE1" in s["phases"] for s in phase1)
    volunteers = all_results(session, healthy_volunteers=True, query_locn="Austin")
    assert PHASE1 in {s["nctId"] for s in volunteers}
    observational = all_results(session, study_type="OBSERVATIONAL")
    assert observational and all(s["phases"] == [] and s["interventions"] == [] for s in observational)


def test_location_and_geo_search(session):
    round_rock = {s["nctId"] for s in all_results(session, query_locn="Round Rock")}
    assert nct("Tezepelumab in Children") in round_rock
    near_austin = {s["nctId"] for s in all_results(session, geo="distance(30.2672,-97.7431,30mi)")}
    assert round_rock <= near_austin and SUMMIT in near_austin
    houston_only = nct("Elacestrant in ER-positive")  # its only site is in Houston, 145 mi away
    assert houston_only not in near_austin
    assert houston_only in {s["nctId"] for s in all_results(session, geo="distance(30.2672,-97.7431,250km)")}
    fails(session, "search_studies", {"geo": "near Austin"}, "invalid_arguments", "distance(")


def test_sort_and_pages(session):
    first = ok(session, "search_studies", {"sort": "EnrollmentCount:desc", "page_size": 5})
    second = ok(
        session,
        "search_studies",
        {"sort": "EnrollmentCount:desc", "page_size": 5, "page_token": first["nextPageToken"]},
    )
    counts = [s["enrollmentCount"] for s in first["studies"] + second["studies"]]
    assert counts == sorted(counts, reverse=True) and first["totalCount"] == len(SEED["studies"])
    ids = [s["nctId"] for s in ok(session, "search_studies", {"sort": "NCTId", "page_size": 20})["studies"]]
    assert ids == sorted(ids)
    fails(session, "search_studies", {"sort": "Title:asc"}, "invalid_arguments", "fields: LastUpdatePostDate")
    fails(session, "search_studies", {"page_size": 0}, "invalid_arguments", "page_size")


def test_get_study_and_its_sites(session):
    study = ok(session, "get_study", {"nct_id": SUMMIT})
    assert study["identificationModule"]["acronym"] == "SUMMIT-2"
    assert study["designModule"]["phases"] == ["PHASE3"] and study["eligibilityModule"]["maximumAge"] == "75 Years"
    sites = {s["facility"]: s for s in study["locations"]}
    assert sites["Capital City Diabetes & Endocrine Center"]["placesLeft"] == 0
    acri = sites["Austin Clinical Research Institute"]
    assert (acri["enrolled"], acri["openReferrals"], acri["placesLeft"]) == (28, 1, 1)
    recruiting = ok(
        session, "list_study_locations", {"nct_id": SUMMIT, "status": ["RECRUITING"], "query_locn": "Austin"}
    )
    assert [s["facility"] for s in recruiting] == [
        "Capital City Diabetes & Endocrine Center",
        "Austin Clinical Research Institute",
    ]
    fails(session, "get_study", {"nct_id": "NCT1"}, "InvalidRequest", "not a valid NCT number")
    fails(session, "get_study", {"nct_id": "NCT00000001"}, "NotFound", "Study NCT00000001 not found")


def test_field_values_count_every_study_once(session):
    stats = ok(session, "get_field_values", {"field": "OverallStatus", "limit": 200})
    assert sum(v["studiesCount"] for v in stats["topValues"]) == len(SEED["studies"])
    counts = [v["studiesCount"] for v in stats["topValues"]]
    assert counts == sorted(counts, reverse=True) and stats["uniqueValuesCount"] == 8
    fails(session, "get_field_values", {"field": "Condition", "limit": 0}, "invalid_arguments", "limit")


# ---------------------------------------------------------------- saved studies


def test_save_list_and_remove(session):
    saved = ok(session, "save_study", {"nct_id": PSILO, "label": "later", "note": "opens in June"})
    assert saved["overallStatus"] == "NOT_YET_RECRUITING"
    listed = ok(session, "list_saved_studies")
    assert listed[0]["nctId"] == PSILO and len(listed) == 9
    fails(session, "save_study", {"nct_id": PSILO}, "Conflict", "already saved")
    fails(session, "save_study", {"nct_id": KIDNEY, "label": "x" * 41}, "invalid_arguments", "at most 40")
    ok(session, "remove_saved_study", {"nct_id": PSILO})
    fails(session, "remove_saved_study", {"nct_id": PSILO}, "NotFound", "not in your saved studies")


# ---------------------------------------------------------------- watch lists


def test_alerts_show_new_changes_once(session):
    lists = {w["id"]: w for w in ok(session, "list_watchlists")}
    assert lists["wl_0001"]["unreadAlerts"] == 3 and lists["wl_0002"]["unreadAlerts"] == 0
    alerts = ok(session, "check_watchlist_alerts", {"watchlist_id": "wl_0001"})["alerts"]
    assert [(a["nctId"], a["eventType"]) for a in alerts] == [
        (SUMMIT, "NEW_SITE"),
        (T2D_DONE, "RESULTS_POSTED"),
        (ORAL_INSULIN, "STATUS_CHANGE"),
    ]
    assert ok(session, "check_watchlist_alerts", {"watchlist_id": "wl_0001"})["alerts"] == []
    heart = ok(session, "check_watchlist_alerts", {"watchlist_id": "wl_0003"})["alerts"]
    assert [(a["nctId"], a["eventType"]) for a in heart] == [(HFPEF, "STATUS_CHANGE")]
    fails(session, "check_watchlist_alerts", {"watchlist_id": "wl_0099"}, "NotFound", "Watch list 'wl_0099'")


def test_new_watch_lists_only_alert_on_later_changes(session):
    created = ok(
        session,
        "create_watchlist",
        {"name": "Memory", "nct_ids": [MEMORY, MEMORY2, MEMORY], "alert_on": ["STATUS_CHANGE"]},
    )
    assert created["nctIds"] == sorted([MEMORY, MEMORY2]) and created["unreadAlerts"] == 0
    assert created["frequency"] == "WEEKLY"
    updated = ok(session, "update_watchlist", {"watchlist_id": "wl_0002", "add_nct_ids": [ORAL_INSULIN]})
    assert updated["unreadAlerts"] == 0  # its suspension was posted before it joined the list


@pytest.mark.parametrize("alert_on", [["NEW_SITE", "STATUS_CHANGE", "NEW_SITE"], ["STATUS_CHANGE", "NEW_SITE"]])
def test_change_types_are_a_set_whatever_order_they_are_named_in(session, alert_on):
    created = ok(session, "create_watchlist", {"name": "Memory", "nct_ids": [MEMORY], "alert_on": alert_on})
    assert created["alertOn"] == ["STATUS_CHANGE", "NEW_SITE"]
    updated = ok(session, "update_watchlist", {"watchlist_id": "wl_0002", "alert_on": alert_on[::-1]})
    assert updated["alertOn"] == ["STATUS_CHANGE", "NEW_SITE"]


@pytest.mark.parametrize(
    "args,kind,text",
    [
        ({"name": "oncology REFERRALS", "nct_ids": [SUMMIT]}, "Conflict", "already exists"),
        ({"name": "X", "nct_ids": []}, "invalid_arguments", "at least one study"),
        ({"name": "X", "nct_ids": ["NCT00000001"]}, "NotFound", "not found"),
        ({"name": " ", "nct_ids": [SUMMIT]}, "invalid_arguments", "name must not be empty"),
        ({"name": "X", "nct_ids": [SUMMIT], "alert_on": []}, "invalid_arguments", "at least one change type"),
    ],
)
def test_create_watchlist_rules(session, args, kind, text):
    fails(session, "create_watchlist", args, kind, text)


def test_at_most_ten_watch_lists(session):
    for n in range(7):
        ok(session, "create_watchlist", {"name": f"List {n}", "nct_ids": [SUMMIT]})
    fails(session, "create_watchlist", {"name": "One too many", "nct_ids": [SUMMIT]}, "Conflict", "maximum")


def test_update_watchlist_rules(session):
    fails(
        session,
        "update_watchlist",
        {"watchlist_id": "wl_0001", "add_nct_ids": [SUMMIT]},
        "Conflict",
        "already on the watch list",
    )
    fails(
        session,
        "update_watchlist",
        {"watchlist_id": "wl_0001", "remove_nct_ids": [HER2]},
        "NotFound",
        "is not on the watch list",
    )
    fails(
        session,
        "update_watchlist",
        {"watchlist_id": "wl_0003", "remove_nct_ids": [HFPEF, nct("Remote Pulmonary")]},
        "InvalidRequest",
        "at least one study",
    )
    fails(
        session,
        "update_watchlist",
        {"watchlist_id": "wl_0003", "name": "Oncology referrals"},
        "Conflict",
        "already exists",
    )
    fails(session, "update_watchlist", {"watchlist_id": "wl_0003"}, "InvalidRequest", "Nothing to update")
    done = ok(
        session, "update_watchlist", {"watchlist_id": "wl_0001", "remove_nct_ids": [ORAL_INSULIN], "frequency": "DAILY"}
    )
    assert ORAL_INSULIN not in done["nctIds"] and done["frequency"] == "DAILY" and done["unreadAlerts"] == 2


# ---------------------------------------------------------------- participants and pre-screens


def test_create_and_update_participants(session):
    created = ok(
        session,
        "create_participant",
        {
            "display_name": "Ellen Park",
            "birth_date": "1984-09-17",
            "sex": "FEMALE",
            "city": "Austin",
            "state": "TX",
            "zip": "78745",
            "conditions": ["Migraine", "migraine"],
        },
    )
    assert (created["age"], created["consentStatus"], created["conditions"]) == (40, "NOT_GIVEN", ["Migraine"])
    fails(
        session,
        "create_participant",
        {
            "display_name": "ellen park",
            "birth_date": "1984-09-17",
            "sex": "FEMALE",
            "city": "Austin",
            "state": "TX",
            "zip": "78745",
        },
        "Conflict",
        "already exists",
    )
    fails(
        session,
        "create_participant",
        {
            "display_name": "A",
            "birth_date": "2030-01-01",
            "sex": "MALE",
            "city": "Austin",
            "state": "TX",
            "zip": "78745",
        },
        "InvalidRequest",
        "future",
    )
    fails(
        session,
        "create_participant",
        {
            "display_name": "A",
            "birth_date": "1990-02-30",
            "sex": "MALE",
            "city": "Austin",
            "state": "TX",
            "zip": "78745",
        },
        "InvalidRequest",
        "not a valid date",
    )
    fails(
        session, "update_participant", {"participant_id": created["id"], "zip": "787"}, "invalid_arguments", "5-digit"
    )
    fails(session, "update_participant", {"participant_id": created["id"]}, "InvalidRequest", "Nothing to update")
    moved = ok(session, "update_participant", {"participant_id": created["id"], "city": "Round Rock", "zip": "78664"})
    assert (moved["city"], moved["zip"]) == ("Round Rock", "78664")


def test_prescreen_applies_age_sex_condition_and_volunteer_rules(session):
    rosa = screen(session, "Rosa Martinez", SUMMIT)
    assert (rosa["outcome"], rosa["reasons"], rosa["ageYears"]) == ("ELIGIBLE", [], 57)
    james = screen(session, "James Whitfield", SUMMIT)  # 75 on the day: the maximum age is inclusive
    assert james["outcome"] == "ELIGIBLE" and james["ageYears"] == 75
    harold = screen(session, "Harold Jenkins", SUMMIT)
    assert harold["outcome"] == "INELIGIBLE" and harold["reasons"] == [
        "Age 86 years is above the maximum age of 75 Years"
    ]
    assert harold["id"] == "psc_0003"  # screening the same pair again replaces the record
    kevin = screen(session, "Kevin O'Brien", HER2)
    assert "The study enrolls female participants only" in kevin["reasons"]
    assert any("None of the participant's conditions" in r for r in kevin["reasons"])
    tomas = screen(session, "Tomás Herrera", SUMMIT)
    assert tomas["reasons"] == ["The study does not accept healthy volunteers"]
    assert screen(session, "Tomás Herrera", PHASE1)["outcome"] == "ELIGIBLE"
    assert screen(session, "Margaret O'Neill", MEMORY)["outcome"] == "ELIGIBLE"  # MCI is one of its conditions
    assert screen(session, "Margaret O'Neill", MEMORY2)["outcome"] == "INELIGIBLE"
    daniel = screen(session, "Daniel Cho", MEMORY)
    assert daniel["reasons"][0] == "Age 11 years is below the minimum age of 55 Years"
    screens = {p["displayName"]: p["prescreens"] for p in ok(session, "list_participants")}
    assert [s["nctId"] for s in screens["Harold Jenkins"]] == [SUMMIT]


def test_only_recruiting_studies_can_be_prescreened(session):
    fails(
        session,
        "prescreen_participant",
        {"participant_id": person("Marcus Reed"), "nct_id": HFPEF},
        "Conflict",
        "is ACTIVE_NOT_RECRUITING",
    )
    assert screen(session, "Priya Shah", PSILO)["outcome"] == "ELIGIBLE"  # not yet recruiting is fine
    fails(
        session,
        "prescreen_participant",
        {"participant_id": "par_0099", "nct_id": SUMMIT},
        "NotFound",
        "Participant 'par_0099'",
    )


def test_consent_is_given_by_the_participant_only(session):
    fails(
        session,
        "grant_data_sharing_consent",
        {"participant_name": "James Whitfield"},
        "user_only",
        "only be performed by the user",
    )
    fails(
        session,
        "grant_data_sharing_consent",
        {"participant_name": "Rosa Martinez"},
        "Conflict",
        "already given consent",
        caller="user",
    )
    fails(
        session,
        "grant_data_sharing_consent",
        {"participant_name": "Nobody"},
        "NotFound",
        "No participant",
        caller="user",
    )
    james = ok(session, "grant_data_sharing_consent", {"participant_name": "james whitfield"}, caller="user")
    assert (james["consentStatus"], james["consentDate"]) == ("GRANTED", "2025-04-15")


# ---------------------------------------------------------------- messages and referrals


def test_inquiries_reach_open_sites_even_before_recruiting(session):
    sent = ok(
        session,
        "contact_site",
        {
            "nct_id": PSILO,
            "location_id": site(PSILO, "Austin Clinical Research Institute"),
            "subject": "Start date",
            "message": "When do you open?",
        },
    )
    assert (sent["kind"], sent["status"], sent["participantId"]) == ("INQUIRY", "SENT", None)
    fails(
        session,
        "contact_site",
        {
            "nct_id": HER2,
            "location_id": site(HER2, "North Texas Heart & Vascular Institute"),
            "subject": "Hi",
            "message": "Hello",
        },
        "Conflict",
        "is WITHDRAWN",
    )
    fails(
        session,
        "contact_site",
        {
            "nct_id": HER2,
            "location_id": site(SUMMIT, "Gulf Coast Clinical Trials"),
            "subject": "Hi",
            "message": "Hello",
        },
        "NotFound",
        "is not a site of",
    )
    fails(
        session,
        "contact_site",
        {"nct_id": HER2, "location_id": site(HER2, "Bayou City Cancer Center"), "subject": "Hi", "message": "x" * 2001},
        "invalid_arguments",
        "at most 2000",
    )
    fails(
        session,
        "contact_site",
        {"nct_id": HER2, "location_id": site(HER2, "Bayou City Cancer Center"), "subject": " ", "message": "Hello"},
        "invalid_arguments",
        "must not be empty",
    )


def test_referral_needs_consent_and_an_eligible_prescreen(session):
    screen(session, "James Whitfield", KIDNEY)
    refer_fails(
        session, "James Whitfield", KIDNEY, "Dell Seton Medical Center", "PermissionDenied", "has not given consent"
    )
    screen(session, "Marcus Reed", nct("Remote Pulmonary"))
    refer_fails(
        session,
        "Marcus Reed",
        nct("Remote Pulmonary"),
        "Gulf Coast Clinical Trials",
        "PermissionDenied",
        "consent status REVOKED",
    )
    refer_fails(
        session, "Rosa Martinez", SUMMIT, "Austin Clinical Research Institute", "Conflict", "has not been pre-screened"
    )
    screen(session, "Kevin O'Brien", HER2)
    refer_fails(session, "Kevin O'Brien", HER2, "Bayou City Cancer Center", "Conflict", "INELIGIBLE")
    ok(session, "grant_data_sharing_consent", {"participant_name": "James Whitfield"}, caller="user")
    referral = refer(session, "James Whitfield", KIDNEY, "Dell Seton Medical Center")
    assert (referral["kind"], referral["status"]) == ("REFERRAL", "PENDING")
    refer_fails(session, "James Whitfield", KIDNEY, "Gulf Coast Clinical Trials", "Conflict", "open referral")


def test_referral_needs_a_recruiting_study_and_site(session):
    screen(session, "Priya Shah", PSILO)
    ok(session, "grant_data_sharing_consent", {"participant_name": "Priya Shah"}, caller="user")
    refer_fails(
        session,
        "Priya Shah",
        PSILO,
        "Austin Clinical Research Institute",
        "Conflict",
        "referrals open once it is RECRUITING",
    )
    screen(session, "Rosa Martinez", SUMMIT)
    refer_fails(session, "Rosa Martinez", SUMMIT, "Trinity Research Group", "Conflict", "not recruiting")


def test_site_enrollment_limits_count_open_referrals(session):
    screen(session, "Rosa Martinez", SUMMIT)
    refer_fails(
        session,
        "Rosa Martinez",
        SUMMIT,
        "Capital City Diabetes & Endocrine Center",
        "Conflict",
        "reached its enrollment limit (40 enrolled + 0 open referrals of 40)",
    )
    refer(session, "Rosa Martinez", SUMMIT, "Austin Clinical Research Institute")
    screen(session, "James Whitfield", SUMMIT)
    ok(session, "grant_data_sharing_consent", {"participant_name": "James Whitfield"}, caller="user")
    refer_fails(
        session,
        "James Whitfield",
        SUMMIT,
        "Austin Clinical Research Institute",
        "Conflict",
        "(28 enrolled + 2 open referrals of 30)",
    )
    ok(session, "withdraw_referral", {"message_id": "msg_0004"})  # frees the place the test referral held
    assert refer(session, "James Whitfield", SUMMIT, "Austin Clinical Research Institute")["status"] == "PENDING"


def test_withdraw_referral_rules_and_message_filters(session):
    fails(session, "withdraw_referral", {"message_id": "msg_0002"}, "InvalidRequest", "is an inquiry")
    fails(session, "withdraw_referral", {"message_id": "msg_0001"}, "Conflict", "is ACCEPTED")
    fails(session, "withdraw_referral", {"message_id": "msg_0099"}, "NotFound", "Message 'msg_0099'")
    withdrawn = ok(session, "withdraw_referral", {"message_id": "msg_0003"})
    assert withdrawn["status"] == "WITHDRAWN" and withdrawn["facility"] == "Bayou City Cancer Center"
    fails(session, "withdraw_referral", {"message_id": "msg_0003"}, "Conflict", "is WITHDRAWN")
    mine = ok(session, "list_site_messages", {"participant_id": person("Aaliyah Johnson")})
    assert [m["id"] for m in mine] == ["msg_0003"]
    about_summit = ok(session, "list_site_messages", {"nct_id": SUMMIT})
    assert {m["id"] for m in about_summit} == {"msg_0002", "msg_0004"}
    assert [m["id"] for m in ok(session, "list_site_messages", {"status": "DECLINED"})] == ["msg_0006"]
    sent = [m["sentAt"] for m in ok(session, "list_site_messages")]
    assert sent == sorted(sent, reverse=True)


PERSON = {"display_name": "Ana Ruiz", "birth_date": "1980-01-01", "sex": "FEMALE", "city": "Austin", "state": "TX"}


@pytest.mark.parametrize(
    ("name", "args", "text"),
    [
        ("search_studies", {"age": 121}, "age must be between 0 and 120"),
        ("search_studies", {"age": -1}, "age must be between 0 and 120"),
        ("search_studies", {"sort": "StartDate:up"}, "sort must be a field and a direction"),
        ("search_studies", {"page_size": 1001}, "page_size"),
        ("get_field_values", {"field": "Phase", "limit": 201}, "limit must be between 1 and 200"),
        ("create_watchlist", {"name": "X", "nct_ids": [SUMMIT] * 51}, "at most 50"),
        ("update_watchlist", {"watchlist_id": "wl_0001", "name": "  "}, "name must not be empty"),
        ("update_watchlist", {"watchlist_id": "wl_0001", "alert_on": []}, "at least one change type"),
        ("create_participant", {**PERSON, "zip": "7870"}, "5-digit ZIP code"),
        ("create_participant", {**PERSON, "zip": "78701", "birth_date": "01/01/1980"}, "YYYY-MM-DD"),
        ("create_participant", {**PERSON, "zip": "78701", "display_name": " "}, "display_name must not be empty"),
        ("create_participant", {**PERSON, "zip": "78701", "city": ""}, "must not be empty"),
        ("update_participant", {"participant_id": "par_0001", "state": " "}, "must not be empty"),
    ],
)
def test_typed_bounds_fail_validation_and_change_nothing(session, name, args, text):
    fails(session, name, args, "invalid_arguments", text)


def test_the_schema_shows_the_bounds():
    props = {name: SPEC.tools[name].input_schema["properties"] for name in SPEC.tools}
    assert props["search_studies"]["page_size"]["maximum"] == 1000
    assert props["search_studies"]["age"]["anyOf"][0]["maximum"] == 120
    assert "pattern" in props["search_studies"]["sort"] and "pattern" in props["search_studies"]["geo"]["anyOf"][0]
    assert props["get_field_values"]["limit"]["maximum"] == 200
    assert props["save_study"]["label"]["anyOf"][0]["maxLength"] == 40
    assert (props["create_watchlist"]["nct_ids"]["minItems"], props["create_watchlist"]["nct_ids"]["maxItems"]) == (
        1,
        50,
    )
    assert props["create_participant"]["birth_date"]["format"] == "date"
    assert props["create_participant"]["zip"]["pattern"] == r"^\d{5}$"
    assert props["contact_site"]["message"]["maxLength"] == 2000


def test_a_birth_date_off_the_calendar_or_in_the_future_is_refused(session):
    fails(
        session,
        "create_participant",
        {**PERSON, "zip": "78701", "birth_date": "1980-02-30"},
        "InvalidRequest",
        "not a valid date",
    )
    fails(
        session,
        "create_participant",
        {**PERSON, "zip": "78701", "birth_date": "2031-01-01"},
        "InvalidRequest",
        "future",
    )


def test_message_filters_combine(session):
    every = ok(session, "list_site_messages")
    referrals = ok(session, "list_site_messages", {"status": "PENDING"})
    one_study = ok(session, "list_site_messages", {"nct_id": SUMMIT, "status": "PENDING"})
    assert {m["status"] for m in referrals} == {"PENDING"} and len(referrals) < len(every)
    assert one_study and all(m["nctId"] == SUMMIT and m["status"] == "PENDING" for m in one_study)
    assert len(one_study) < len(referrals)
