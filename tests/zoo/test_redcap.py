"""REDCap's rules, each tested through the tools on the seed: sign-in and project membership (expired access),
data access groups (visibility, record assignment, DAG-prefixed auto-numbering), Import Records' checks (format,
range, choices, unknown fields, events and their instruments, repeat instances, all or nothing, normal versus
overwrite), instrument and export rights, record locking and e-signatures, Analysis/Cleanup data locks, design
changes only in development, DAG and user-rights management, logging, delete and rename; every refused call
changes nothing."""

from __future__ import annotations

from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("redcap")
CLOCK = datetime(2025, 1, 20, 14, 0, tzinfo=timezone.utc)
HF, PILOT, EXT, SLEEP, ASTHMA = 1523, 1288, 1611, 1587, 1402

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, username: str = "dmoreno") -> dict:
    return ok(session, "sign_in", {"username": username}, caller="user")


def vitals(record: str = "412-19", event: str = "week_6_arm_1", **values: str) -> dict:
    return {"record_id": record, "redcap_event_name": event, **values}


def test_tools_sign_in_and_membership(session):
    assert 15 <= len(SPEC.tools) <= 25
    assert sorted(t.name for t in SPEC.tools.values() if t.user_only) == ["esign_form", "sign_in"]
    fails(session, "list_projects", {}, "PermissionDenied", "sign in")
    fails(session, "sign_in", {"username": "nobody"}, "NotFound", "No REDCap user", caller="user")
    assert not session.call("sign_in", {"username": "dmoreno"}).ok  # the agent cannot sign in
    sign_in(session, "akim")
    assert [p["project_id"] for p in ok(session, "list_projects")["projects"]] == [HF]
    fails(session, "export_project_info", {"project_id": SLEEP}, "NotFound", "not a user")
    sign_in(session, "tobrien")
    fails(session, "export_records", {"project_id": HF}, "PermissionDenied", "expired on 2024-12-31")


def test_a_dag_user_sees_and_changes_only_their_group(session):
    sign_in(session, "akim")
    info = ok(session, "export_project_info", {"project_id": HF})
    assert info["record_count"] == 22
    rows = ok(session, "export_records", {"project_id": HF, "forms": ["enrollment"]})["rows"]
    assert {r["record_id"].split("-")[0] for r in rows} == {"412"}
    assert "dob" not in rows[0] and "first_name" not in rows[0]  # de-identified export
    fails(session, "get_record_status", {"project_id": HF, "record": "413-1"}, "NotFound", "does not exist")
    row = vitals("413-1", "week_6_arm_2", hr="70")
    fails(session, "import_records", {"project_id": HF, "data": [row]}, "InvalidRequest", "another Data Access Group")
    assert ok(session, "generate_next_record_name", {"project_id": HF})["record"] == "412-23"
    new = {"record_id": "412-23", "redcap_event_name": "screening_arm_1", "first_name": "Ann", "last_name": "Lee"}
    ok(session, "import_records", {"project_id": HF, "data": [new]})
    assert (
        ok(session, "get_record_status", {"project_id": HF, "record": "412-23"})["data_access_group"]
        == "boston_general"
    )
    with_dag = dict(new, redcap_data_access_group="worcester_memorial")
    fails(session, "import_records", {"project_id": HF, "data": [with_dag]}, "InvalidRequest", "cannot assign")


def test_import_checks_every_value_and_saves_nothing_on_error(session):
    sign_in(session)
    cases = [
        (vitals(sbp="300"), "outside the acceptable range (70 - 250)"),
        (vitals(hr="fast"), "does not follow the expected format"),
        (vitals(visit_date="2025-02-30"), "does not follow the expected format"),
        ({"record_id": "412-19", "redcap_event_name": "screening_arm_1", "sex": "3"}, "not a valid category for sex"),
        ({"record_id": "412-19", "redcap_event_name": "screening_arm_1", "email": "x@y"}, "expected format"),
        (vitals(bp="120/80"), "not found in the project as real data fields: bp"),
        (vitals(event="week_9_arm_1", hr="70"), "not a valid unique event name"),
        (vitals(event="screening_arm_1", hr="70"), "not designated for the event 'screening_arm_1'"),
        (vitals(event="week_6_arm_2", hr="70"), "in Arm 1"),
        (vitals(ae_term="Cough"), "give redcap_repeat_instrument 'adverse_events'"),
        (vitals(redcap_repeat_instrument="vitals", redcap_repeat_instance="2", hr="70"), "does not repeat"),
        (vitals(vitals_complete="5"), "not a valid category for vitals_complete"),
    ]
    for row, message in cases:
        fails(session, "import_records", {"project_id": HF, "data": [row]}, "InvalidRequest", message)
    good = vitals(hr="71")
    fails(session, "import_records", {"project_id": HF, "data": [good, vitals(sbp="20")]}, "InvalidRequest", "range")
    classic = {"record_id": "1", "redcap_event_name": "event_1_arm_1", "unit": "1"}
    fails(session, "import_records", {"project_id": SLEEP, "data": [classic]}, "InvalidRequest", "not longitudinal")


def test_normal_ignores_blanks_and_overwrite_erases(session):
    sign_in(session)
    ok(session, "import_records", {"project_id": HF, "data": [vitals(hr="", dbp="81")]})
    row = ok(session, "export_records", {"project_id": HF, "records": ["412-19"], "events": ["week_6_arm_1"]})["rows"][
        0
    ]
    assert row["hr"] != "" and row["dbp"] == "81"
    out = ok(session, "import_records", {"project_id": HF, "data": [vitals(hr="")], "overwrite_behavior": "overwrite"})
    assert out == {"count": 1, "ids": ["412-19"]}
    row = ok(session, "export_records", {"project_id": HF, "records": ["412-19"], "events": ["week_6_arm_1"]})["rows"][
        0
    ]
    assert row["hr"] == ""
    aes = {"redcap_repeat_instrument": "adverse_events", "redcap_repeat_instance": "1", "ae_term": "Cough"}
    ok(session, "import_records", {"project_id": HF, "data": [vitals(**aes)]})
    repeated = ok(session, "export_records", {"project_id": HF, "records": ["412-19"], "forms": ["adverse_events"]})
    assert [(r["redcap_repeat_instrument"], r["redcap_repeat_instance"]) for r in repeated["rows"]] == [
        ("adverse_events", "1")
    ]


def test_instrument_and_export_rights(session):
    sign_in(session)
    spiro = {"record_id": "PAR-0004", "fev1_pct": "70"}
    fails(session, "import_records", {"project_id": ASTHMA, "data": [spiro]}, "InvalidRequest", "edit rights")
    row = ok(session, "export_records", {"project_id": ASTHMA, "records": ["PAR-0004"]})["rows"][0]
    assert "mrn" not in row and "dob" not in row and "pft_date" not in row and row["fev1_pct"] == "87"
    ok(session, "import_user_rights", {"project_id": EXT, "username": "rchen"})
    sign_in(session, "rchen")
    fails(session, "export_records", {"project_id": EXT}, "PermissionDenied", "Data Export")
    fails(session, "import_records", {"project_id": HF, "data": [vitals(hr="70")]}, "InvalidRequest", "edit rights")
    new = {"record_id": "999", "redcap_event_name": "screening_arm_1", "first_name": "X"}
    fails(session, "import_records", {"project_id": HF, "data": [new]}, "PermissionDenied", "Create Records")


def test_locking_and_e_signatures(session):
    sign_in(session)
    key = {"project_id": HF, "record": "412-19", "instrument": "vitals", "event": "week_6_arm_1"}
    fails(session, "lock_form", dict(key, instrument="study_completion", event="week_12_arm_1"), "Conflict", "no data")
    fails(session, "lock_form", dict(key, event=None), "InvalidRequest", "unique event name")
    fails(session, "esign_form", key, "Conflict", "must be locked", caller="user")
    assert ok(session, "lock_form", key)["locked_by"] == "dmoreno"
    fails(session, "lock_form", key, "Conflict", "already locked")
    fails(session, "import_records", {"project_id": HF, "data": [vitals(hr="70")]}, "InvalidRequest", "is locked")
    fails(session, "delete_records", {"project_id": HF, "records": ["412-19"]}, "Conflict", "is locked")
    assert ok(session, "esign_form", key, caller="user")["esigned_by"] == "dmoreno"
    fails(session, "esign_form", key, "Conflict", "already e-signed", caller="user")
    out = ok(session, "unlock_form", key)
    assert not out["locked"] and not out["esigned"]
    fails(session, "unlock_form", key, "Conflict", "not locked")
    ok(session, "import_records", {"project_id": HF, "data": [vitals(hr="70")]})
    details = ok(session, "export_logging", {"project_id": HF, "log_type": "lock_record", "page_size": 3})["entries"]
    assert "e-signature negated" in details[0]["details"]
    sign_in(session, "akim")
    fails(session, "lock_form", key, "PermissionDenied", "Record Locking")
    ok(session, "sign_in", {"username": "mchen"}, caller="user")
    ok(session, "lock_form", key)


def test_e_signing_needs_e_signature_authority(session):
    sign_in(session)
    ok(session, "import_user_rights", {"project_id": HF, "username": "jpatel", "lock_records": 1})
    sign_in(session, "jpatel")
    key = {"project_id": HF, "record": "413-18", "instrument": "vitals", "event": "baseline_arm_1"}
    ok(session, "lock_form", key)
    fails(session, "esign_form", key, "PermissionDenied", "Record Locking", caller="user")


def test_analysis_cleanup_with_locked_data_refuses_changes(session):
    sign_in(session)
    locked = "Analysis/Cleanup"
    fails(
        session, "import_records", {"project_id": PILOT, "data": [{"record_id": "7", "age": "64"}]}, "Conflict", locked
    )
    fails(session, "delete_records", {"project_id": PILOT, "records": ["7"]}, "Conflict", locked)
    fails(session, "rename_record", {"project_id": PILOT, "record": "7", "new_record_name": "7b"}, "Conflict", locked)
    assert len(ok(session, "export_records", {"project_id": PILOT})["rows"]) == 12


def test_design_changes_only_in_development(session):
    sign_in(session)
    field = {
        "project_id": HF,
        "field_name": "walk_aid",
        "form_name": "six_minute_walk",
        "field_type": "yesno",
        "field_label": "Walking aid?",
    }
    fails(session, "add_field", field, "Conflict", "Development status")
    event = {"project_id": HF, "event_name": "Week 24", "arm_num": 1, "day_offset": 168, "forms": ["vitals"]}
    fails(session, "create_event", event, "Conflict", "Development status")
    ext = dict(field, project_id=EXT, form_name="followup_visit")
    fails(session, "add_field", dict(ext, field_name="fu_sbp"), "InvalidRequest", "already exists")
    fails(session, "add_field", dict(ext, field_type="radio"), "InvalidRequest", "needs choices")
    fails(session, "add_field", dict(ext, validation="integer"), "InvalidRequest", "Only text fields")
    fails(session, "add_field", dict(ext, after_field="kccq_summary"), "InvalidRequest", "not on the instrument")
    ok(session, "add_field", dict(ext, after_field="fu_date"))
    names = [
        f["field_name"]
        for f in ok(session, "export_metadata", {"project_id": EXT, "forms": ["followup_visit"]})["fields"]
    ]
    assert names[:2] == ["fu_date", "walk_aid"]
    made = ok(session, "create_event", dict(event, project_id=EXT, event_name="Month 6", forms=["kccq"]))
    assert made["unique_event_name"] == "month_6_arm_1"
    fails(
        session,
        "create_event",
        dict(event, project_id=EXT, event_name="Month 6", forms=["kccq"]),
        "InvalidRequest",
        "already exists",
    )
    fails(session, "create_event", dict(event, project_id=EXT, arm_num=2, forms=["kccq"]), "InvalidRequest", "Arm 2")
    fails(session, "create_event", dict(event, project_id=SLEEP, forms=["psqi"]), "Conflict", "Development")


def test_dags_and_user_rights_management(session):
    sign_in(session)
    made = ok(session, "create_dag", {"project_id": HF, "data_access_group_name": "Lowell General Hospital"})
    assert made["unique_group_name"] == "lowell_general_hos" and made["data_access_group_id"] == 415
    fails(
        session,
        "create_dag",
        {"project_id": HF, "data_access_group_name": "boston general"},
        "InvalidRequest",
        "already exists",
    )
    fails(
        session,
        "create_dag",
        {"project_id": ASTHMA, "data_access_group_name": "X"},
        "PermissionDenied",
        "Data Access Groups",
    )
    fails(session, "assign_user_dag", {"project_id": HF, "username": "hgarza"}, "NotFound", "not a user")
    args = {"project_id": HF, "username": "akim", "unique_group_name": "nowhere"}
    fails(session, "assign_user_dag", args, "InvalidRequest", "does not exist")
    assert ok(session, "assign_user_dag", {"project_id": HF, "username": "akim"})["data_access_group"] is None
    fails(session, "import_user_rights", {"project_id": HF, "username": "ghost"}, "NotFound", "does not exist")
    fails(
        session,
        "import_user_rights",
        {"project_id": HF, "username": "akim", "forms": {"labs": 1}},
        "InvalidRequest",
        "labs",
    )
    fails(
        session, "import_user_rights", {"project_id": ASTHMA, "username": "bfoster"}, "PermissionDenied", "User Rights"
    )
    new = ok(session, "import_user_rights", {"project_id": HF, "username": "hgarza", "forms": {"vitals": 1}})
    assert new["forms"] == {
        "enrollment": 2,
        "vitals": 1,
        "six_minute_walk": 2,
        "adverse_events": 2,
        "study_completion": 2,
    }
    assert new["data_export"] == 0 and new["record_create"] == 0
    out = ok(session, "import_user_rights", {"project_id": HF, "username": "tobrien", "expiration": ""})
    assert out["expiration"] is None


def test_logging_needs_the_right_and_follows_the_dag(session):
    sign_in(session)
    fails(session, "export_logging", {"project_id": ASTHMA}, "PermissionDenied", "Logging")
    ok(session, "import_user_rights", {"project_id": HF, "username": "jpatel", "logging": 1, "lock_records": 1})
    page = ok(session, "export_logging", {"project_id": HF, "log_type": "record_add", "page_size": 5})
    assert page["has_more"] and len(page["entries"]) == 5
    sign_in(session, "jpatel")
    ok(session, "lock_form", {"project_id": HF, "record": "413-18", "instrument": "vitals", "event": "baseline_arm_1"})
    entries = ok(session, "export_logging", {"project_id": HF, "page_size": 100})["entries"]
    assert entries[0]["action"] == "Lock/Unlock record 413-18"
    assert entries and all(e["record"] and e["record"].startswith("413-") for e in entries)
    times = [e["timestamp"] for e in entries]
    assert times == sorted(times, reverse=True)


def test_delete_rename_and_next_record_name(session):
    sign_in(session)
    missing = "The following records do not exist: 999"
    fails(session, "delete_records", {"project_id": SLEEP, "records": ["70", "999"]}, "InvalidRequest", missing)
    fails(
        session, "delete_records", {"project_id": ASTHMA, "records": ["PAR-0001"]}, "PermissionDenied", "Delete Records"
    )
    part = {"project_id": SLEEP, "records": ["68"], "instrument": "sleep_diary", "repeat_instance": 2}
    ok(session, "delete_records", part)
    left = ok(session, "get_record_status", {"project_id": SLEEP, "record": "68"})["forms"]
    assert [(f["instrument"], f["instance"]) for f in left if f["instrument"] == "sleep_diary"] == [
        ("sleep_diary", 1),
        ("sleep_diary", 3),
    ]
    assert ok(session, "generate_next_record_name", {"project_id": SLEEP})["record"] == "71"
    ok(session, "delete_records", {"project_id": SLEEP, "records": ["70"]})
    fails(session, "get_record_status", {"project_id": SLEEP, "record": "70"}, "NotFound", "does not exist")
    fails(
        session,
        "rename_record",
        {"project_id": SLEEP, "record": "1", "new_record_name": "2"},
        "InvalidRequest",
        "already exists",
    )
    args = {"project_id": ASTHMA, "record": "PAR-0001", "new_record_name": "PAR-9"}
    fails(session, "rename_record", args, "PermissionDenied", "Rename Records")
    ok(session, "rename_record", {"project_id": SLEEP, "record": "1", "new_record_name": "N-1"})
    assert ok(session, "export_records", {"project_id": SLEEP, "records": ["N-1"]})["records"] == ["N-1"]


def test_filter_logic_and_parameter_errors(session):
    sign_in(session)
    out = ok(
        session,
        "export_records",
        {"project_id": SLEEP, "fields": ["psqi_global"], "filter_logic": "[psqi_global] >= 15 and [psqi_global] < 16"},
    )
    assert out["records"] == ["11", "28", "45", "59", "62"]
    either = ok(
        session,
        "export_records",
        {"project_id": SLEEP, "fields": ["unit"], "filter_logic": "[unit] = '4' or [unit] = '5'"},
    )
    assert either["count"] > 0 and all(r["unit"] in ("4", "5") for r in either["rows"])
    fails(
        session,
        "export_records",
        {"project_id": SLEEP, "filter_logic": "psqi_global > 3"},
        "InvalidRequest",
        "filterLogic",
    )
    fails(session, "export_records", {"project_id": SLEEP, "filter_logic": "[nope] = '1'"}, "InvalidRequest", "[nope]")
    error = "are not valid: 'nope'"
    fails(session, "export_records", {"project_id": SLEEP, "fields": ["nope"]}, "InvalidRequest", error)
    fails(session, "export_metadata", {"project_id": SLEEP, "fields": ["nope"]}, "InvalidRequest", error)
    assert ok(session, "export_events", {"project_id": SLEEP}) == {"arms": [], "events": []}
    site = ok(
        session,
        "export_records",
        {"project_id": HF, "forms": ["enrollment"], "filter_logic": "[record-dag-name] = 'springfield_heart'"},
    )
    assert site["count"] == 14 and all(r.startswith("414-") for r in site["records"])
