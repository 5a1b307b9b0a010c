"""The Benchling environment's tools on the real seed: sign-in and project roles, entry editing, review and the
reviewer's e-signature, schema fields, registration and naming, box grids, transfers, check-out, archiving,
requests and the audit log, with every error path leaving the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, restore_seed_with, session_fixture

SPEC = resolve("benchling")
CLOCK = datetime(2025, 6, 10, 14, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]

session = session_fixture(SPEC, CLOCK)


def one(table: str, **match) -> dict:
    rows = [r for r in SEED[table] if all(r[k] == v for k, v in match.items())]
    assert len(rows) == 1, (table, match, len(rows))
    return rows[0]


def uid(handle: str) -> str:
    return one("users", handle=handle)["id"]


def entry(name: str) -> dict:
    return one("entries", name=name)


def seq(name: str) -> str:
    return one("dna_sequences", name=name)["id"]


def ent(name: str, **match) -> str:
    return one("custom_entities", name=name, **match)["id"]


def con(name: str) -> str:
    return one("containers", name=name)["id"]


def folder(name: str, project: str | None = None) -> str:
    match = {"project_id": one("projects", name=project)["id"]} if project else {}
    return one("folders", name=name, **match)["id"]


def box(name: str) -> str:
    return one("boxes", name=name)["id"]


def schema(name: str) -> str:
    return one("schemas", name=name)["id"]


def request(schema_name: str, key: str, value) -> dict:
    sid = schema(schema_name)
    return next(
        r
        for r in SEED["requests"]
        if r["schema_id"] == sid
        and r["fields"].get(key) == value
        and r["request_status"] not in ("COMPLETED", "CANCELLED")
    )


REGISTRY = one("registries", name="Corvid Registry")["id"]
THERMO = entry("R3 thermostability assay - variants 07-12")
EXPRESSION = entry("R3 expression test - variants 07-09, autoinduction")
TRANSFECTION = entry("Transfection of CHO-K1 GS-KO with pCVD-GS-Dual-214-v2")


def sign_in(session: ToolSession, handle: str) -> None:
    ok(session, "sign_in", {"email": one("users", handle=handle)["email"]}, caller="user")


def container(session: ToolSession, container_id: str) -> dict:
    return session.dump()["containers"][container_id]


# ---------------------------------------------------------------- interface, sign-in, project access


def test_interface_and_user_only_tools(session):
    assert len(SPEC.tools) == 23
    assert sorted(t.name for t in SPEC.tools.values() if t.user_only) == ["sign_entry_review", "sign_in"]
    assert SPEC.tools["list_registries"].input_schema["properties"] == {}
    assert SPEC.tools["register_entities"].unordered_inputs == {"entity_ids"}
    outcome = session.call("sign_in", {"email": "marcus.chen@corvidbio.com"})
    assert not outcome.ok and outcome.error_kind == "user_only"
    sign_in(session, "evasquez")
    outcome = session.call("sign_entry_review", {"display_id": EXPRESSION["display_id"], "decision": "ACCEPTED"})
    assert not outcome.ok and outcome.error_kind == "user_only"
    assert session.dump()["entries"][EXPRESSION["id"]]["review_status"] == "NEEDS_REVIEW"


def test_every_call_needs_a_signed_in_user(session):
    fails(session, "list_projects", {}, "PermissionDenied", "401 Unauthorized")
    fails(session, "sign_in", {"email": "ben.adler@corvidbio.com"}, "PermissionDenied", "suspended", caller="user")
    fails(session, "sign_in", {"email": "nobody@corvidbio.com"}, "NotFound", "No Benchling account", caller="user")
    sign_in(session, "gpark")
    assert session.dump()["sessions"]["current"]["user_id"] == uid("gpark")


def test_projects_show_only_collaborations_with_roles(session):
    sign_in(session, "gpark")
    names = {p["id"]: p["name"] for p in SEED["projects"] if not p["archive_reason"]}
    expected = {
        names[c["project_id"]]: c["role"]
        for c in SEED["collaborations"]
        if c["user_id"] == uid("gpark") and c["project_id"] in names
    }
    listed = ok(session, "list_projects", {})["results"]
    assert {p["name"]: p["your_role"] for p in listed} == expected and len(expected) == 3
    assert [p["name"] for p in listed] == sorted(expected)
    ip = one("projects", name="IP & Licensing")["id"]
    fails(session, "list_folders", {"project_id": ip}, "NotFound", "Project")
    sign_in(session, "mchen")
    names = [p["name"] for p in ok(session, "list_projects", {"include_archived": True})["results"]]
    assert "Lipase Screening 2023" in names
    assert "Lipase Screening 2023" not in [p["name"] for p in ok(session, "list_projects", {})["results"]]


# ---------------------------------------------------------------- notebook entries


def test_read_role_cannot_create_entries(session):
    sign_in(session, "gpark")
    fails(
        session,
        "create_entry",
        {"name": "PCR practice 2", "folder_id": folder("Round 3 - Thermostability")},
        "PermissionDenied",
        "you have READ",
    )
    created = ok(
        session,
        "create_entry",
        {"name": "PCR practice 2", "folder_id": folder("Grace Park"), "schema_id": schema("Experiment")},
    )
    latest = max(e["display_id"] for e in SEED["entries"] if e["display_id"].startswith("EXP25"))
    assert created["display_id"] == f"EXP25{int(latest[5:]) + 1:06d}"
    assert created["review_record"]["status"] == "IN_PROGRESS"
    assert [a["id"] for a in created["authors"]] == [uid("gpark")]
    assert created["days"] == [{"date": "2025-06-10", "notes": []}]


def test_archived_projects_folders_and_non_writer_authors(session):
    sign_in(session, "mchen")
    fails(session, "create_entry", {"name": "x", "folder_id": folder("Screening Data")}, "Conflict", "archived")
    fails(session, "create_entry", {"name": "x", "folder_id": folder("Old drafts")}, "Conflict", "archived")
    fails(
        session,
        "create_entry",
        {"name": "x", "folder_id": folder("Round 2 - Screening"), "author_ids": [uid("gpark")]},
        "InvalidRequest",
        "Grace Park needs WRITE",
    )
    fails(
        session,
        "create_entry",
        {"name": "x", "folder_id": folder("Round 2 - Screening"), "schema_id": schema("Plasmid")},
        "InvalidRequest",
        "not a entry schema",
    )


def test_only_authors_or_a_project_admin_edit_an_entry(session):
    sign_in(session, "npetrova")
    fails(
        session, "update_entry", {"entry_id": THERMO["id"], "name": "Mine now"}, "PermissionDenied", "Only the authors"
    )
    sign_in(session, "evasquez")  # ADMIN of the PETase project
    updated = ok(session, "update_entry", {"entry_id": THERMO["id"], "name": "R3 thermostability assay"})
    assert updated["name"] == "R3 thermostability assay"


def test_entries_under_review_or_accepted_are_locked(session):
    sign_in(session, "npetrova")
    fails(session, "update_entry", {"entry_id": EXPRESSION["id"], "name": "x"}, "Conflict", "waiting for review")
    sign_in(session, "mchen")
    summary = entry("R2 screening summary")
    fails(session, "update_entry", {"entry_id": summary["id"], "name": "x"}, "Conflict", "has been accepted")
    fails(session, "update_entry", {"entry_id": THERMO["id"]}, "InvalidRequest", "Nothing to update")


def test_schema_fields_are_validated(session):
    sign_in(session, "mchen")
    args = {"entry_id": THERMO["id"]}
    fails(session, "update_entry", args | {"fields": {"Colour": "blue"}}, "InvalidRequest", "Unknown field 'Colour'")
    fails(session, "update_entry", args | {"fields": {"Outcome": "Great"}}, "InvalidRequest", "one of: Successful")
    fails(session, "update_entry", args | {"fields": {"Related Construct": "seq_missing"}}, "NotFound", "Entity")
    linked = ok(
        session,
        "update_entry",
        args | {"fields": {"Related Construct": seq("pCVD-PETase-R3-07"), "Outcome": "Successful"}},
    )
    assert linked["fields"] == {
        "Experiment Type": "Enzyme Assay",
        "Outcome": "Successful",
        "Related Construct": seq("pCVD-PETase-R3-07"),
    }
    cleared = ok(session, "update_entry", args | {"fields": {"Outcome": None}})
    assert "Outcome" not in cleared["fields"]


def test_review_needs_required_fields_and_proper_reviewers(session):
    sign_in(session, "mchen")
    args = {"entry_id": THERMO["id"], "reviewer_ids": [uid("evasquez")]}
    fails(session, "submit_entry_for_review", args, "InvalidRequest", "required field(s) Outcome")
    ok(session, "update_entry", {"entry_id": THERMO["id"], "fields": {"Outcome": "Partially Successful"}})
    fails(
        session, "submit_entry_for_review", args | {"reviewer_ids": [uid("mchen")]}, "InvalidRequest", "can't review it"
    )
    fails(session, "submit_entry_for_review", args | {"reviewer_ids": [uid("iduarte")]}, "InvalidRequest", "no access")
    fails(session, "submit_entry_for_review", args | {"reviewer_ids": [uid("badler")]}, "InvalidRequest", "suspended")
    fails(
        session,
        "submit_entry_for_review",
        args | {"reviewer_ids": []},
        "invalid_arguments",
        "reviewer_ids: Choose at least one reviewer.",
    )
    sent = ok(session, "submit_entry_for_review", args)
    assert sent["review_record"]["status"] == "NEEDS_REVIEW"
    assert [r["id"] for r in sent["assigned_reviewers"]] == [uid("evasquez")]
    fails(session, "submit_entry_for_review", args, "Conflict", "is waiting for review")


def test_only_authors_send_for_review(session):
    sign_in(session, "evasquez")
    fails(
        session,
        "submit_entry_for_review",
        {"entry_id": entry("R3-07 and R3-08 Ni-NTA purification")["id"], "reviewer_ids": [uid("riyer")]},
        "PermissionDenied",
        "Only the authors",
    )


def test_e_signature_only_by_an_assigned_reviewer(session):
    sign_in(session, "mchen")
    args = {"display_id": EXPRESSION["display_id"], "decision": "ACCEPTED"}
    fails(session, "sign_entry_review", args, "PermissionDenied", "not an assigned reviewer", caller="user")
    sign_in(session, "evasquez")
    fails(
        session,
        "sign_entry_review",
        args | {"decision": "REJECTED"},
        "InvalidRequest",
        "comment is required",
        caller="user",
    )
    signed = ok(session, "sign_entry_review", args | {"comment": "Looks good"}, caller="user")
    assert (signed["review_record"]["status"], signed["review_record"]["signed_by"]["id"]) == (
        "ACCEPTED",
        uid("evasquez"),
    )
    fails(session, "sign_entry_review", args, "Conflict", "not waiting for review", caller="user")
    log = ok(session, "get_audit_log", {"object_id": EXPRESSION["id"]})["results"]
    assert log[-1]["action"] == "REVIEW" and log[-1]["changes"] == {"review_status": ["NEEDS_REVIEW", "ACCEPTED"]}


def test_rejected_entry_reopens_for_edit_and_resubmission(session):
    sign_in(session, "hbrooks")
    ok(
        session,
        "sign_entry_review",
        {"display_id": TRANSFECTION["display_id"], "decision": "REJECTED", "comment": "Add viability counts."},
        caller="user",
    )
    coauthored = ok(
        session, "update_entry", {"entry_id": TRANSFECTION["id"], "author_ids": [uid("therrera"), uid("falsayed")]}
    )
    assert [a["id"] for a in coauthored["authors"]] == [uid("therrera"), uid("falsayed")]
    sign_in(session, "therrera")
    again = ok(session, "submit_entry_for_review", {"entry_id": TRANSFECTION["id"], "reviewer_ids": [uid("hbrooks")]})
    assert (again["review_record"]["status"], again["review_record"]["comment"]) == ("NEEDS_REVIEW", None)


def test_list_entries_filters_and_pages(session):
    sign_in(session, "riyer")
    first = ok(session, "list_entries", {"page_size": 5})
    second = ok(session, "list_entries", {"page_size": 5, "next_token": first["next_cursor"]})
    assert first["has_more"] and len(first["results"]) == 5
    ids = [e["display_id"] for e in first["results"] + second["results"]]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == 10
    waiting = ok(session, "list_entries", {"review_status": "NEEDS_REVIEW", "page_size": 50})["results"]
    assert {e["name"] for e in waiting} >= {EXPRESSION["name"], TRANSFECTION["name"]}
    assert all(e["review_record"]["status"] == "NEEDS_REVIEW" for e in waiting)
    assert "Scratch notes" not in [e["name"] for e in ok(session, "list_entries", {"page_size": 50})["results"]]
    fails(session, "list_entries", {"next_token": "x"}, "InvalidRequest", "invalid cursor")
    fails(session, "list_entries", {"page_size": 51}, "invalid_arguments", "page_size")


# ---------------------------------------------------------------- registry


def test_create_dna_sequence_validates_bases_and_annotations(session):
    sign_in(session, "srossi")
    args = {"name": "YL-test", "bases": "acgt tgca", "folder_id": folder("Primers", "Strain Engineering - Yarrowia")}
    for bad in ("ACGXTZ", "   ", ""):
        fails(
            session,
            "create_dna_sequence",
            args | {"bases": bad},
            "invalid_arguments",
            "bases: Invalid bases: use IUPAC",
        )
    fails(session, "create_dna_sequence", args | {"name": "  "}, "invalid_arguments", "name: name is required.")
    feature = {"name": "f", "type": "misc_feature", "start": 6, "end": 2}
    fails(session, "create_dna_sequence", args | {"annotations": [feature]}, "InvalidRequest", "outside")
    fails(
        session,
        "create_dna_sequence",
        args | {"annotations": [feature | {"start": 0, "end": 9}]},
        "InvalidRequest",
        "outside",
    )
    fails(
        session,
        "create_dna_sequence",
        args | {"schema_id": schema("Oligo"), "fields": {"Purpose": "Cloning"}},
        "InvalidRequest",
        "Purpose",
    )
    made = ok(session, "create_dna_sequence", args | {"is_circular": True, "annotations": [feature]})
    assert (made["bases"], made["length"], made["entity_registry_id"]) == ("ACGTTGCA", 8, None)
    assert made["annotations"][0]["start"] == 6 and made["annotations"][0]["end"] == 2


def test_register_assigns_the_next_id_of_the_schema_prefix(session):
    sign_in(session, "evasquez")
    numbers = [
        int(s["entity_registry_id"][2:])
        for s in SEED["dna_sequences"]
        if (s["entity_registry_id"] or "").startswith("PL")
    ]
    done = ok(
        session,
        "register_entities",
        {
            "registry_id": REGISTRY,
            "naming_strategy": "NEW_IDS",
            "entity_ids": [seq("pCVD-PETase-R3-07"), seq("pCVD-PETase-R3-08")],
        },
    )
    assert [d["entity_registry_id"] for d in done] == [f"PL{max(numbers) + 1:04d}", f"PL{max(numbers) + 2:04d}"]
    stored = session.dump()["dna_sequences"][seq("pCVD-PETase-R3-07")]
    assert (stored["registry_id"], stored["name"]) == (REGISTRY, "pCVD-PETase-R3-07")
    fails(
        session,
        "register_entities",
        {"registry_id": REGISTRY, "naming_strategy": "NEW_IDS", "entity_ids": [seq("pCVD-PETase-R3-07")]},
        "Conflict",
        "already registered as PL",
    )


def test_registration_is_all_or_nothing_and_needs_required_fields(session):
    sign_in(session, "evasquez")
    fails(
        session,
        "register_entities",
        {
            "registry_id": REGISTRY,
            "naming_strategy": "NEW_IDS",
            "entity_ids": [seq("pCVD-PETase-R3-07"), seq("pCVD-PETase-R3-09")],
        },
        "InvalidRequest",
        "missing required field(s): Resistance",
    )
    fails(
        session,
        "register_entities",
        {"registry_id": REGISTRY, "naming_strategy": "NEW_IDS", "entity_ids": [seq("NEB pMAL-c5X (GenBank import)")]},
        "PermissionDenied",
        "WRITE access",
    )
    sign_in(session, "dokafor")
    fails(
        session,
        "register_entities",
        {"registry_id": REGISTRY, "naming_strategy": "NEW_IDS", "entity_ids": [seq("NEB pMAL-c5X (GenBank import)")]},
        "InvalidRequest",
        "needs a schema of the Corvid Registry",
    )


def test_registered_names_are_unique_per_schema(session):
    sign_in(session, "falsayed")
    duplicate = ent("CVD-214 clone C3", entity_registry_id=None)
    original = one("custom_entities", name="CVD-214 clone C3", registry_id=REGISTRY)["entity_registry_id"]
    fails(
        session,
        "register_entities",
        {"registry_id": REGISTRY, "naming_strategy": "NEW_IDS", "entity_ids": [duplicate]},
        "Conflict",
        f"already registered as {original}",
    )
    fails(
        session,
        "register_entities",
        {"registry_id": REGISTRY, "naming_strategy": "NEW_IDS", "entity_ids": [ent("CVD-214 clone D4")]},
        "InvalidRequest",
        "Mycoplasma Tested",
    )


def test_naming_strategies(session):
    sign_in(session, "srossi")
    deleted = ok(
        session,
        "register_entities",
        {"registry_id": REGISTRY, "naming_strategy": "DELETE_NAMES", "entity_ids": [seq("pYL-TEF-ELO2")]},
    )[0]
    stored = session.dump()["dna_sequences"][seq("pYL-TEF-ELO2")]
    assert stored["name"] == deleted["entity_registry_id"] and stored["aliases"] == ["pYL-TEF-ELO2"]
    sign_in(session, "therrera")
    kept = ok(
        session,
        "register_entities",
        {"registry_id": REGISTRY, "naming_strategy": "KEEP_NAMES", "entity_ids": [seq("pCVD-GS-Dual-214-v2")]},
    )[0]
    assert kept["entity_registry_id"] == "pCVD-GS-Dual-214-v2"


def test_list_sequences_filters_registration_state(session):
    sign_in(session, "mchen")
    unregistered = ok(session, "list_dna_sequences", {"is_registered": False, "page_size": 100})["results"]
    assert {s["name"] for s in unregistered} >= {"pCVD-PETase-R3-07", "pCVD-PETase-R3-09"}
    assert all(s["entity_registry_id"] is None for s in unregistered)
    assert "pCVD-PETase-R2-04 (old draft)" not in {s["name"] for s in unregistered}
    full = ok(session, "get_dna_sequence", {"dna_sequence_id": seq("pCVD-PETase-R3-07")})
    assert len(full["bases"]) == full["length"] and full["annotations"][0]["name"] == "T7 promoter"
    sign_in(session, "iduarte")
    fails(session, "get_dna_sequence", {"dna_sequence_id": seq("pCVD-PETase-R3-07")}, "NotFound", "DNA sequence")


# ---------------------------------------------------------------- inventory


def test_transfer_dilutes_by_volume(session):
    sign_in(session, "aokoye")
    result = ok(
        session,
        "transfer_into_container",
        {
            "destination_container_id": con("CVD-214 L3 working 0.5 mg/mL"),
            "source_container_id": con("CVD-214 mAb lot 3 stock"),
            "transfer_quantity": {"value": 0.02, "units": "mL"},
        },
    )
    assert result["source"]["quantity"] == {"value": 430.0, "units": "uL"}
    assert result["destination"]["quantity"] == {"value": 400.0, "units": "uL"}
    content = result["destination"]["contents"][0]
    assert (content["entity"]["name"], content["concentration"]) == (
        "CVD-214 mAb lot 3",
        {"value": 0.5, "units": "mg/mL"},
    )
    log = ok(session, "get_audit_log", {"object_id": con("CVD-214 mAb lot 3 stock")})["results"]
    assert log[-1]["action"] == "TRANSFER" and log[-1]["changes"]["quantity"] == [450.0, 430.0]


def test_transfer_rules(session):
    sign_in(session, "aokoye")
    stock, work = con("CVD-214 mAb lot 3 stock"), con("CVD-214 L3 working 0.5 mg/mL")
    args = {"destination_container_id": work, "source_container_id": stock}
    fails(
        session,
        "transfer_into_container",
        args | {"transfer_quantity": {"value": 451, "units": "uL"}},
        "Conflict",
        "only holds 450 uL",
    )
    fails(
        session,
        "transfer_into_container",
        args | {"transfer_quantity": {"value": 1, "units": "mg"}},
        "InvalidRequest",
        "measured in uL",
    )
    fails(
        session,
        "transfer_into_container",
        args | {"transfer_quantity": {"value": -5, "units": "uL"}},
        "invalid_arguments",
        "greater than 0",
    )
    fails(
        session,
        "transfer_into_container",
        args | {"source_container_id": work, "transfer_quantity": {"value": 1, "units": "uL"}},
        "InvalidRequest",
        "different containers",
    )
    fails(
        session,
        "transfer_into_container",
        args
        | {
            "destination_container_id": con("CVD-214 L4 2 mg aliquot"),
            "source_container_id": con("CVD-214 lot 4 lyophilized"),
            "transfer_quantity": {"value": 20, "units": "mg"},
        },
        "Conflict",
        "only holds 10 mg",
    )
    sign_in(session, "loconnor")
    fails(
        session,
        "transfer_into_container",
        {
            "destination_container_id": con("PETase-WT HPLC calibration series"),
            "source_container_id": con("PETase-WT reference standard 1 mg/mL vial 3"),
            "transfer_quantity": {"value": 10, "units": "uL"},
        },
        "Conflict",
        "reserved for Lucas Moreau",
    )


def test_mass_transfer_into_an_empty_vial(session):
    sign_in(session, "jfeld")
    result = ok(
        session,
        "transfer_into_container",
        {
            "destination_container_id": con("CVD-214 L4 2 mg aliquot"),
            "source_container_id": con("CVD-214 lot 4 lyophilized"),
            "transfer_quantity": {"value": 2000, "units": "ug"},
        },
    )
    assert result["destination"]["quantity"] == {"value": 2.0, "units": "mg"}
    assert result["source"]["quantity"] == {"value": 8.0, "units": "mg"}
    assert [(c["entity"]["name"], c["concentration"]) for c in result["destination"]["contents"]] == [
        ("CVD-214 mAb lot 4", None)
    ]


def test_moving_a_container_into_a_box_position(session):
    sign_in(session, "mlin")
    strains, stock = box("Yarrowia Strains"), con("Po1f TEF-ELO2 glycerol 1")
    listed = ok(session, "list_storage", {"name_includes": "Yarrowia Strains"})["results"][0]
    assert (listed["filled_positions"], listed["empty_positions"][0]) == (17, "B9")
    fails(
        session,
        "update_container",
        {"container_id": stock, "parent_storage_id": f"{strains}:A1"},
        "Conflict",
        "already occupied by 'Po1f TEF-DGA1 glycerol 1'",
    )
    fails(
        session,
        "update_container",
        {"container_id": stock, "parent_storage_id": f"{strains}:J1"},
        "InvalidRequest",
        "not a position",
    )
    fails(
        session,
        "update_container",
        {"container_id": stock, "parent_storage_id": strains},
        "InvalidRequest",
        "Give a position",
    )
    fails(
        session,
        "update_container",
        {"container_id": stock, "parent_storage_id": box("Lipase Library 2023") + ":A1"},
        "Conflict",
        "archived",
    )
    moved = ok(session, "update_container", {"container_id": stock, "parent_storage_id": f"{strains}:b9"})
    assert (moved["parent_storage_id"], moved["position"]) == (strains, "B9")
    listed = ok(session, "list_storage", {"name_includes": "Yarrowia Strains"})["results"][0]
    assert (listed["filled_positions"], listed["empty_positions"][0]) == (18, "C1")
    inside = ok(session, "list_containers", {"parent_storage_id": strains, "page_size": 100})["results"]
    assert [c["position"] for c in inside][:3] == ["A1", "A2", "A3"] and inside[-1]["position"] == "B9"


def test_boxes_of_other_projects_are_off_limits(session):
    sign_in(session, "mchen")  # READ on the Yarrowia project
    fails(
        session,
        "update_container",
        {"container_id": con("pCVD-PETase-R2-04 miniprep 3"), "parent_storage_id": f"{box('Yarrowia Strains')}:C1"},
        "PermissionDenied",
        "you have READ",
    )
    sign_in(session, "gpark")
    assert ok(session, "list_storage", {"name_includes": "CHO"})["results"] == []


def test_plate_wells_stay_in_their_plate(session):
    sign_in(session, "pshah")
    plate = one("plates", name="Sanger Plate SQ-0610")["id"]
    well = next(c["id"] for c in SEED["containers"] if c["parent_storage_id"] == plate and c["position"] == "A1")
    fails(
        session,
        "update_container",
        {"container_id": well, "parent_storage_id": one("locations", name="Sequencing Bench (Core)")["id"]},
        "InvalidRequest",
        "Plate wells",
    )
    fails(
        session,
        "update_container",
        {"container_id": con("Q5 2X Master Mix lot 10231"), "parent_storage_id": f"{plate}:H12"},
        "InvalidRequest",
        "transfer into its wells",
    )
    listed = ok(session, "list_storage", {"storage_type": "plate", "name_includes": "Sanger"})["results"][0]
    assert (listed["rows"], listed["columns"], listed["filled_positions"]) == (8, 12, 3)


def test_checkout_rules(session):
    sign_in(session, "therrera")
    reserved, mine, free = (
        con("CHO-K1 GS-KO WB-2025 vial 04"),
        con("CHO-K1 GS-KO WB-2025 vial 05"),
        con("CHO-K1 GS-KO WB-2025 vial 06"),
    )
    fails(
        session,
        "checkout_containers",
        {"container_ids": [reserved], "action": "check_out", "assignee_id": uid("therrera")},
        "Conflict",
        "reserved for Hannah Brooks",
    )
    fails(
        session,
        "checkout_containers",
        {"container_ids": [free], "action": "check_out"},
        "InvalidRequest",
        "assignee_id is required",
    )
    fails(
        session, "checkout_containers", {"container_ids": [free], "action": "check_in"}, "Conflict", "not checked out"
    )
    fails(
        session,
        "checkout_containers",
        {"container_ids": [reserved], "action": "check_in"},
        "PermissionDenied",
        "only they or a project ADMIN",
    )
    fails(
        session,
        "checkout_containers",
        {"container_ids": [mine], "action": "check_out", "assignee_id": uid("therrera")},
        "Conflict",
        "already checked out",
    )
    taken = ok(
        session,
        "checkout_containers",
        {"container_ids": [free], "action": "check_out", "assignee_id": uid("therrera"), "comment": "Thaw"},
    )[0]
    assert taken["checkout_record"] == {
        "status": "CHECKED_OUT",
        "comment": "Thaw",
        "assignee": {"id": uid("therrera"), "handle": "therrera", "name": "Tomás Herrera"},
    }
    sign_in(session, "hbrooks")  # ADMIN of the CHO project checks in someone else's vial
    back = ok(session, "checkout_containers", {"container_ids": [mine], "action": "check_in"})[0]
    assert back["checkout_record"]["status"] == "AVAILABLE" and back["checkout_record"]["assignee"] is None


def test_a_reservation_becomes_a_checkout_for_its_holder(session):
    sign_in(session, "lmoreau")
    vial = con("PETase-WT reference standard 1 mg/mL vial 3")
    out = ok(
        session, "checkout_containers", {"container_ids": [vial], "action": "check_out", "assignee_id": uid("lmoreau")}
    )[0]
    assert out["checkout_record"]["status"] == "CHECKED_OUT"
    assert container(session, vial)["checkout_comment"] == ""


def test_archiving_frees_the_position_and_is_final(session):
    sign_in(session, "kwatanabe")
    dry = con("pCVD-PETase-R2-04 miniprep 2")
    assert one("containers", id=dry)["position"] == "B1"
    change = ok(session, "archive_containers", {"container_ids": [dry], "reason": "Expended"})
    assert change == {"container_ids": [dry], "reason": "Expended"}
    assert (container(session, dry)["parent_storage_id"], container(session, dry)["archive_reason"]) == (
        None,
        "Expended",
    )
    fails(session, "archive_containers", {"container_ids": [dry], "reason": "Other"}, "Conflict", "archived")
    fails(session, "update_container", {"container_id": dry, "name": "x"}, "Conflict", "archived")
    names = [c["name"] for c in ok(session, "list_containers", {"name_includes": "R2-04"})["results"]]
    assert "pCVD-PETase-R2-04 miniprep 2" not in names
    fresh = ok(
        session,
        "update_container",
        {
            "container_id": con("pCVD-PETase-R2-04 miniprep 3"),
            "parent_storage_id": f"{box('PETase Plasmids Box 1')}:B1",
        },
    )
    assert fresh["position"] == "B1"
    fails(
        session,
        "archive_containers",
        {"container_ids": [con("CHO-K1 GS-KO WB-2025 vial 04")], "reason": "Expired"},
        "PermissionDenied",
        "you have READ",
    )


def test_inventory_outside_your_projects_is_invisible(session):
    sign_in(session, "srossi")
    vial = con("CHO-K1 GS-KO WB-2025 vial 06")
    fails(
        session,
        "checkout_containers",
        {"container_ids": [vial], "action": "check_out", "assignee_id": uid("srossi")},
        "NotFound",
        "Container",
    )
    assert ok(session, "list_containers", {"name_includes": "WB-2025"})["results"] == []


# ---------------------------------------------------------------- requests and the audit log


def test_request_status_moves_forward_by_assignees(session):
    sign_in(session, "pshah")
    waiting = request("Sanger Sequencing", "Construct", "pCVD-PETase-R3-07 to R3-09")
    fails(
        session,
        "update_request",
        {"request_id": waiting["id"], "request_status": "COMPLETED"},
        "Conflict",
        "can't go from REQUESTED to COMPLETED",
    )
    fails(
        session,
        "update_request",
        {"request_id": waiting["id"], "request_status": "SCHEDULED"},
        "InvalidRequest",
        "Give scheduled_on",
    )
    fails(
        session, "update_request", {"request_id": waiting["id"], "scheduled_on": "2025-06-09"}, "InvalidRequest", "past"
    )
    for bad in ("June 20", "2025-6-20"):
        fails(
            session,
            "update_request",
            {"request_id": waiting["id"], "scheduled_on": bad},
            "invalid_arguments",
            "scheduled_on: scheduled_on must be a date like 2025-06-12.",
        )
    fails(
        session,
        "update_request",
        {"request_id": waiting["id"], "scheduled_on": "2025-06-31"},
        "InvalidRequest",
        "scheduled_on '2025-06-31' is not a valid date",
    )
    fails(
        session,
        "update_request",
        {"request_id": waiting["id"], "assignee_ids": []},
        "invalid_arguments",
        "assignee_ids: A request needs at least one assignee.",
    )
    started = ok(session, "update_request", {"request_id": waiting["id"], "request_status": "IN_PROGRESS"})
    assert started["request_status"] == "IN_PROGRESS"
    done = ok(session, "update_request", {"request_id": waiting["id"], "request_status": "COMPLETED"})
    assert done["request_status"] == "COMPLETED"
    fails(
        session,
        "update_request",
        {"request_id": waiting["id"], "scheduled_on": "2025-06-20"},
        "Conflict",
        "COMPLETED and can't change",
    )


def test_only_assignees_work_a_request_but_requestors_cancel(session):
    sign_in(session, "therrera")
    maxi = request("Plasmid Maxiprep", "Plasmid", "pCVD-GS-Dual-214-v2")
    fails(
        session,
        "update_request",
        {"request_id": maxi["id"], "request_status": "IN_PROGRESS"},
        "PermissionDenied",
        "Only the assignees",
    )
    assert (
        ok(session, "update_request", {"request_id": maxi["id"], "request_status": "CANCELLED"})["request_status"]
        == "CANCELLED"
    )


def test_reassigning_a_request(session):
    sign_in(session, "gpark")  # READ on the core project
    ben = request("Sanger Sequencing", "Construct", "pCVD-GS-Dual-214-v2")
    fails(
        session,
        "update_request",
        {"request_id": ben["id"], "assignee_ids": [uid("pshah")]},
        "PermissionDenied",
        "WRITE access",
    )
    sign_in(session, "dokafor")
    fails(
        session,
        "update_request",
        {"request_id": ben["id"], "assignee_ids": [uid("iduarte")]},
        "InvalidRequest",
        "no access",
    )
    fails(
        session,
        "update_request",
        {"request_id": ben["id"], "assignee_ids": [uid("badler")]},
        "InvalidRequest",
        "suspended",
    )
    moved = ok(session, "update_request", {"request_id": ben["id"], "assignee_ids": [uid("pshah")]})
    assert [a["handle"] for a in moved["assignees"]] == ["pshah"]
    assert ben["id"] in {r["id"] for r in ok(session, "list_requests", {"assignee_id": uid("pshah")})["results"]}


def test_audit_log_records_changes_and_follows_access(session):
    sign_in(session, "mchen")
    ok(session, "update_entry", {"entry_id": THERMO["id"], "name": "R3 DSF assay"})
    log = ok(session, "get_audit_log", {"object_id": THERMO["id"]})["results"]
    assert log[0]["action"] == "CREATE" and log[-1]["changes"] == {
        "name": ["R3 thermostability assay - variants 07-12", "R3 DSF assay"]
    }
    assert log[-1]["user"]["handle"] == "mchen"
    sign_in(session, "iduarte")
    fails(session, "get_audit_log", {"object_id": THERMO["id"]}, "NotFound", "Object")
    fails(session, "get_audit_log", {"object_id": "xyz_1"}, "NotFound", "Object")


@pytest.mark.parametrize("handle", ["cmendes", "iduarte", "gpark"])
def test_requests_are_scoped_to_projects(session, handle):
    sign_in(session, handle)
    mine = {c["project_id"] for c in SEED["collaborations"] if c["user_id"] == uid(handle)}
    expected = {r["id"] for r in SEED["requests"] if r["project_id"] in mine}
    listed = ok(session, "list_requests", {"page_size": 100})["results"]
    assert {r["id"] for r in listed} == expected
    created = [r["created_at"] for r in listed]
    assert created == sorted(created)


# ---------------------------------------------------------------- bounds in the argument types (v2)


def test_names_and_id_lists_are_refused_by_their_types_with_benchling_wording(session):
    sign_in(session, "mchen")
    target = folder("Round 3 - Thermostability")
    for bad in ("", "   ", "x" * 201):
        fails(
            session,
            "create_entry",
            {"name": bad, "folder_id": target},
            "invalid_arguments",
            "name: Entry names must be 1 to 200 characters long.",
        )
        fails(
            session,
            "update_entry",
            {"entry_id": THERMO["id"], "name": bad},
            "invalid_arguments",
            "name: Entry names must be 1 to 200 characters long.",
        )
    assert ok(session, "create_entry", {"name": "x" * 200, "folder_id": target})["name"] == "x" * 200
    fails(
        session,
        "register_entities",
        {"registry_id": REGISTRY, "naming_strategy": "NEW_IDS", "entity_ids": []},
        "invalid_arguments",
        "entity_ids: Give at least one entity to register.",
    )
    vial = con("CHO-K1 GS-KO WB-2025 vial 06")
    for tool, extra in (("checkout_containers", {"action": "check_in"}), ("archive_containers", {"reason": "Retired"})):
        fails(session, tool, {"container_ids": []} | extra, "invalid_arguments", "container_ids: Give at least one")
    fails(
        session,
        "update_container",
        {"container_id": vial, "name": " "},
        "invalid_arguments",
        "name: name can't be empty.",
    )
    for tool in ("list_projects", "list_containers", "list_requests", "get_audit_log"):
        args = {"object_id": THERMO["id"]} if tool == "get_audit_log" else {}
        fails(session, tool, args | {"page_size": 0}, "invalid_arguments", "page_size")
        fails(session, tool, args | {"page_size": 101}, "invalid_arguments", "page_size")


def test_date_fields_take_real_calendar_dates(session):
    def add_date_field(tables):
        experiment = next(s for s in tables["schemas"] if s["name"] == "Experiment")
        experiment["fields"].append({"name": "Run Date", "type": "date", "is_required": False, "options": None})

    restore_seed_with(session, add_date_field, CLOCK)
    sign_in(session, "mchen")
    args = {"entry_id": THERMO["id"]}
    for bad in ("2025-02-30", "June 3", "2025-6-3"):
        fails(session, "update_entry", args | {"fields": {"Run Date": bad}}, "InvalidRequest", "takes a date value")
    assert (
        ok(session, "update_entry", args | {"fields": {"Run Date": "2025-06-03"}})["fields"]["Run Date"] == "2025-06-03"
    )
