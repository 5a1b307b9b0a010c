"""The Kaggle environment's tools on the real seed: sign-in and identity, competition rules acceptance (the gate on
data and submissions, entering as a team of one), the daily submission allowance and its UTC reset, kernel-output
submissions and their public scores (errored files still count), final-submission selection limits and the deadline,
team renames and merges (leader only, merger deadline, team size, the allowance-times-days submission cap, what
moves to the receiving team), dataset visibility and collaborator roles (private datasets hidden, writers version,
only owners share or publish, public never goes private), dataset versions and metadata, and kernel pushes (new
kernels need a title, public kernels can't use private datasets, competition sources need the rules). Every error
path is checked to leave the state unchanged."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from envfactory_gym import ToolSession, resolve

from .toolkit import fails, ok, session_fixture

SPEC = resolve("kaggle")
CLOCK = datetime(2026, 4, 14, 10, 0, tzinfo=timezone.utc)
SEED = json.loads(SPEC.snapshot_path("seed").read_text())["tables"]
PG = "playground-series-s6e4"
LLM = "llm-reasoning-judge"
HE = "home-energy-forecasting-2026"
COR = "coral-reef-segmentation"
LAGOS = "amaraobi/lagos-air-quality-sensors"
MELS = "tkowalski/birdclef-2026-mel-spectrograms"

session = session_fixture(SPEC, CLOCK)


def sign_in(session: ToolSession, username: str) -> dict:
    return ok(session, "sign_in", {"username": username}, caller="user")


def submit(session: ToolSession, comp: str, kernel: str, version: int, file_name: str = "submission.csv") -> dict:
    args = {"competition": comp, "kernel": kernel, "kernel_version": version, "file_name": file_name, "message": "t"}
    return ok(session, "submit_to_competition", args)


# ---------------------------------------------------------------- identity


def test_tools_need_a_token_and_identity_names_the_signed_in_kaggler(session):
    fails(session, "get_identity", {}, "PermissionDenied", "401")
    fails(session, "sign_in", {"username": "nobody-here"}, "NotFound", "404", caller="user")
    sign_in(session, "PriyaRaman")
    assert ok(session, "get_identity", {})["username"] == "priyaraman"


# ---------------------------------------------------------------- competitions


def test_rules_gate_data_and_submissions_and_accepting_enters_a_team_of_one(session):
    sign_in(session, "dfuentes")
    fails(session, "list_competition_files", {"competition": PG}, "PermissionDenied", "accept the rules")
    args = {
        "competition": PG,
        "kernel": "dfuentes/used-cars-starter",
        "kernel_version": 1,
        "file_name": "submission.csv",
        "message": "x",
    }
    fails(session, "submit_to_competition", args, "PermissionDenied", "accept the rules")
    detail = ok(session, "accept_competition_rules", {"competition": PG}, caller="user")
    assert detail["userHasEntered"] and detail["submissionsLeftToday"] == 5
    team = ok(session, "get_my_team", {"competition": PG})["team"]
    assert [m["username"] for m in team["members"]] == ["dfuentes"] and team["leader"] == "dfuentes"
    assert "sample_submission.csv" in {
        f["name"] for f in ok(session, "list_competition_files", {"competition": PG})["files"]
    }
    fails(session, "accept_competition_rules", {"competition": PG}, "Conflict", "already accepted", caller="user")


def test_ended_competitions_refuse_rules_submissions_and_selection_changes(session):
    sign_in(session, "dfuentes")
    fails(
        session,
        "accept_competition_rules",
        {"competition": "march-madness-2026"},
        "Conflict",
        "has ended",
        caller="user",
    )
    sign_in(session, "tkowalski")
    picked = next(
        s
        for s in ok(session, "list_submissions", {"competition": "playground-series-s6e3"})["submissions"]
        if s["selected"]
    )
    args = {"competition": "playground-series-s6e3", "submission_id": picked["ref"], "selected": False}
    fails(session, "select_submission", args, "Conflict", "has ended")


def test_general_list_shows_running_competitions_and_entered_lists_the_kagglers(session):
    sign_in(session, "tkowalski")
    running = {c["ref"] for c in ok(session, "list_competitions", {"page_size": 100})["competitions"]}
    assert "playground-series-s6e3" not in running and HE in running
    entered = {c["ref"] for c in ok(session, "list_competitions", {"group": "entered"})["competitions"]}
    assert entered == {HE, "birdclef-2026", "playground-series-s6e3"}


def test_submission_scores_from_the_kernel_output_and_counts_against_the_allowance(session):
    sign_in(session, "priyaraman")
    before = ok(session, "get_competition", {"competition": PG})["submissionsLeftToday"]
    sub = submit(session, PG, "priyaraman/used-cars-lgbm-baseline", 4)
    assert sub["status"] == "complete" and sub["publicScore"] == 0.06114
    errored = submit(session, PG, "priyaraman/used-cars-lgbm-baseline", 4, "oof.csv")
    assert errored["status"] == "error" and errored["publicScore"] is None
    assert ok(session, "get_competition", {"competition": PG})["submissionsLeftToday"] == before - 2
    board = ok(session, "get_leaderboard", {"competition": PG, "page_size": 100})["entries"]
    mine = next(e for e in board if e["members"] == ["priyaraman"])
    assert mine["score"] == 0.06114  # lower is better for RMSLE: the new best
    assert [e["score"] for e in board] == sorted(e["score"] for e in board)


def test_daily_allowance_refuses_the_next_submission_and_resets_at_utc_midnight(session):
    sign_in(session, "tkowalski")
    submit(session, HE, "tkowalski/home-energy-gbdt", 3)
    args = {
        "competition": HE,
        "kernel": "tkowalski/home-energy-gbdt",
        "kernel_version": 2,
        "file_name": "submission.csv",
        "message": "x",
    }
    fails(session, "submit_to_competition", args, "InvalidRequest", "daily Submission allowance (5)")
    session.reset("seed", datetime(2026, 4, 15, 0, 5, tzinfo=timezone.utc))
    sign_in(session, "tkowalski")
    assert ok(session, "get_competition", {"competition": HE})["submissionsLeftToday"] == 5


def test_only_own_kernels_existing_outputs_can_be_submitted(session):
    sign_in(session, "sofiamartins")
    args = {
        "competition": "titanic",
        "kernel": "dfuentes/titanic-first-try",
        "kernel_version": 1,
        "file_name": "submission.csv",
        "message": "x",
    }
    fails(session, "submit_to_competition", args, "PermissionDenied", "your own kernels")
    args.update(kernel="sofiamartins/titanic-stacking", file_name="nope.csv")
    fails(session, "submit_to_competition", args, "NotFound", "Kernel output")


def test_final_selection_is_capped_and_takes_only_scored_submissions(session):
    sign_in(session, "amaraobi")
    good = submit(session, COR, "amaraobi/coral-unet", 2)
    subs = ok(session, "list_submissions", {"competition": COR})["submissions"]
    older = next(s for s in subs if s["ref"] != good["ref"])
    ok(session, "select_submission", {"competition": COR, "submission_id": good["ref"], "selected": True})
    fails(
        session,
        "select_submission",
        {"competition": COR, "submission_id": older["ref"], "selected": True},
        "InvalidRequest",
        "at most 1",
    )
    listing = ok(session, "select_submission", {"competition": COR, "submission_id": good["ref"], "selected": False})
    assert listing["selectedCount"] == 0
    sign_in(session, "priyaraman")
    bad = submit(session, PG, "priyaraman/used-cars-lgbm-baseline", 4, "oof.csv")
    fails(
        session,
        "select_submission",
        {"competition": PG, "submission_id": bad["ref"], "selected": True},
        "InvalidRequest",
        "scored successfully",
    )
    fails(
        session,
        "select_submission",
        {"competition": PG, "submission_id": older["ref"], "selected": True},
        "NotFound",
        "404",
    )


# ---------------------------------------------------------------- teams


def test_accepting_a_merge_moves_members_and_submissions_and_closes_the_others(session):
    sign_in(session, "priyaraman")
    team = ok(session, "get_my_team", {"competition": LLM})
    before = team["team"]["submissionCount"]
    diego, big = team["incomingMergeRequests"]
    fails(
        session,
        "respond_to_merge_request",
        {"request_id": big["id"], "action": "accept"},
        "InvalidRequest",
        "maximum team size is 4",
    )
    merged = ok(session, "respond_to_merge_request", {"request_id": diego["id"], "action": "accept"})
    assert [m["username"] for m in merged["team"]["members"]] == ["dfuentes", "priyaraman", "sofiamartins"]
    assert merged["team"]["submissionCount"] == before + 4
    assert [r["status"] for r in merged["incomingMergeRequests"]] == ["accepted", "pending"]
    board = ok(session, "get_leaderboard", {"competition": LLM, "page_size": 100})["entries"]
    holding = [e for e in board if "dfuentes" in e["members"]]
    assert [e["teamId"] for e in holding] == [merged["team"]["teamId"]]
    fails(
        session,
        "respond_to_merge_request",
        {"request_id": diego["id"], "action": "decline"},
        "Conflict",
        "already accepted",
    )


def test_only_leaders_answer_merges_and_rename_and_names_are_unique(session):
    sign_in(session, "sofiamartins")
    fails(session, "respond_to_merge_request", {"request_id": 1, "action": "accept"}, "PermissionDenied", "team leader")
    fails(session, "rename_team", {"competition": LLM, "name": "Ours"}, "PermissionDenied", "team leader")
    sign_in(session, "priyaraman")
    fails(session, "rename_team", {"competition": LLM, "name": "judgement day"}, "Conflict", "already exists")
    assert ok(session, "rename_team", {"competition": LLM, "name": "CoT Judges"})["teamName"] == "CoT Judges"
    fails(session, "respond_to_merge_request", {"request_id": 1, "action": "withdraw"}, "NotFound", "404")


def test_merge_requests_stop_at_the_merger_deadline_and_can_be_withdrawn(session):
    sign_in(session, "tkowalski")
    board = ok(session, "get_leaderboard", {"competition": HE, "page_size": 5})["entries"]
    other = next(e for e in board if "tkowalski" not in e["members"])
    fails(session, "request_team_merge", {"competition": HE, "team_id": other["teamId"]}, "Conflict", "merger deadline")
    sign_in(session, "linwei")
    mine = ok(session, "get_my_team", {"competition": "birdclef-2026"})["team"]["teamId"]
    fails(session, "request_team_merge", {"competition": "birdclef-2026", "team_id": mine}, "InvalidRequest", "itself")
    tk = next(t["id"] for t in SEED["teams"] if t["competition"] == "birdclef-2026" and t["leader"] == "tkowalski")
    req = ok(session, "request_team_merge", {"competition": "birdclef-2026", "team_id": tk})
    fails(session, "request_team_merge", {"competition": "birdclef-2026", "team_id": tk}, "Conflict", "already asked")
    ok(session, "respond_to_merge_request", {"request_id": req["id"], "action": "withdraw"})
    assert (
        ok(session, "get_my_team", {"competition": "birdclef-2026"})["outgoingMergeRequests"][0]["status"]
        == "withdrawn"
    )


def test_merges_refuse_more_submissions_than_the_allowance_times_the_days_run(session):
    session.reset("seed", datetime(2026, 3, 5, 12, 0, tzinfo=timezone.utc))  # BirdCLEF's second day: cap 10
    sign_in(session, "linwei")
    tk = next(t["id"] for t in SEED["teams"] if t["competition"] == "birdclef-2026" and t["leader"] == "tkowalski")
    fails(
        session,
        "request_team_merge",
        {"competition": "birdclef-2026", "team_id": tk},
        "InvalidRequest",
        "more than the 10",
    )


# ---------------------------------------------------------------- datasets


def test_private_datasets_are_hidden_from_others_and_shared_with_collaborators(session):
    sign_in(session, "dfuentes")
    fails(session, "get_dataset", {"dataset": LAGOS}, "NotFound", "404")
    assert LAGOS not in {d["ref"] for d in ok(session, "list_datasets", {"search": "lagos"})["datasets"]}
    sign_in(session, "sofiamartins")
    assert ok(session, "get_dataset", {"dataset": LAGOS})["collaborators"] == [
        {"username": "sofiamartins", "role": "writer"}
    ]
    assert LAGOS in {d["ref"] for d in ok(session, "list_datasets", {"mine": True})["datasets"]}


def test_versions_carry_files_forward_with_uploads_and_removals(session):
    sign_in(session, "sofiamartins")  # a writer collaborator may version
    detail = ok(
        session,
        "create_dataset_version",
        {
            "dataset": LAGOS,
            "version_notes": "cal",
            "upload": [{"name": "sensors.csv", "total_bytes": 5}],
            "remove": ["readings_2025.csv"],
        },
    )
    assert detail["currentVersionNumber"] == 3 and detail["versions"][0]["creatorName"] == "sofiamartins"
    assert {f["name"]: f["totalBytes"] for f in detail["files"]} == {"sensors.csv": 5, "readings_2026q1.csv": 10300220}
    fails(
        session,
        "create_dataset_version",
        {"dataset": LAGOS, "version_notes": "x", "remove": ["gone.csv"]},
        "InvalidRequest",
        "no file named",
    )
    fails(
        session,
        "create_dataset_version",
        {"dataset": LAGOS, "version_notes": "x", "remove": ["sensors.csv", "readings_2026q1.csv"]},
        "InvalidRequest",
        "at least one file",
    )
    fails(
        session,
        "create_dataset_version",
        {"dataset": "priyaraman/judge-prompts-private", "version_notes": "x"},
        "PermissionDenied",
        "permission to update",
    )  # Sofia only reads Priya's prompts


def test_only_owners_publish_and_share_and_public_never_goes_private(session):
    sign_in(session, "sofiamartins")
    fails(
        session, "set_dataset_visibility", {"dataset": LAGOS, "is_private": False}, "PermissionDenied", "Only the owner"
    )
    fails(
        session,
        "set_dataset_collaborator",
        {"dataset": LAGOS, "username": "dfuentes", "role": "reader"},
        "PermissionDenied",
        "Only the owner",
    )
    sign_in(session, "amaraobi")
    assert ok(session, "set_dataset_visibility", {"dataset": LAGOS, "is_private": False})["isPrivate"] is False
    fails(
        session,
        "set_dataset_visibility",
        {"dataset": LAGOS, "is_private": True},
        "InvalidRequest",
        "can't be made private",
    )
    fails(
        session,
        "set_dataset_collaborator",
        {"dataset": LAGOS, "username": "amaraobi", "role": "reader"},
        "InvalidRequest",
        "owner can't",
    )
    fails(
        session,
        "set_dataset_collaborator",
        {"dataset": LAGOS, "username": "dfuentes", "role": "none"},
        "NotFound",
        "404",
    )
    shared = ok(session, "set_dataset_collaborator", {"dataset": LAGOS, "username": "dfuentes", "role": "reader"})
    assert {c["username"]: c["role"] for c in shared["collaborators"]} == {
        "dfuentes": "reader",
        "sofiamartins": "writer",
    }
    removed = ok(session, "set_dataset_collaborator", {"dataset": LAGOS, "username": "sofiamartins", "role": "none"})
    assert [c["username"] for c in removed["collaborators"]] == ["dfuentes"]


def test_create_dataset_starts_private_at_version_one_and_refuses_duplicates(session):
    sign_in(session, "dfuentes")
    args = {
        "slug": "bike-trips",
        "title": "Bike trips",
        "files": [{"name": "a.csv", "total_bytes": 3}],
        "license_name": "CC0-1.0",
    }
    created = ok(session, "create_dataset", args)
    assert created["ref"] == "dfuentes/bike-trips" and created["isPrivate"] and created["currentVersionNumber"] == 1
    fails(session, "create_dataset", args, "Conflict", "already exists")
    args2 = dict(
        args, slug="bike-trips-2", files=[{"name": "a.csv", "total_bytes": 3}, {"name": "a.csv", "total_bytes": 4}]
    )
    fails(session, "create_dataset", args2, "InvalidRequest", "same name")
    fails(session, "update_dataset_metadata", {"dataset": "dfuentes/bike-trips"}, "InvalidRequest", "Nothing to update")
    updated = ok(
        session,
        "update_dataset_metadata",
        {"dataset": "dfuentes/bike-trips", "license_name": "CC-BY-4.0", "keywords": ["b", "a"]},
    )
    assert (
        updated["licenseName"] == "CC-BY-4.0"
        and updated["keywords"] == ["a", "b"]
        and updated["currentVersionNumber"] == 1
    )


# ---------------------------------------------------------------- kernels


def test_push_creates_then_versions_a_kernel_and_keeps_unsent_settings(session):
    sign_in(session, "dfuentes")
    fails(session, "push_kernel", {"slug": "new-kernel", "version_notes": "v"}, "InvalidRequest", "needs a title")
    created = ok(
        session, "push_kernel", {"slug": "new-kernel", "title": "New kernel", "version_notes": "v", "enable_gpu": True}
    )
    assert created["isPrivate"] and created["versions"][0]["status"] == "queued"
    again = ok(session, "push_kernel", {"slug": "new-kernel", "version_notes": "v2"})
    assert again["currentVersionNumber"] == 2 and again["enableGpu"] and again["title"] == "New kernel"


def test_public_kernels_cant_use_private_datasets_and_sources_need_access(session):
    sign_in(session, "tkowalski")
    fails(
        session,
        "push_kernel",
        {"slug": "birdclef-effnet-b0", "version_notes": "p", "is_private": False},
        "InvalidRequest",
        "private dataset",
    )
    fails(
        session,
        "push_kernel",
        {"slug": "x-kernel", "title": "X kernel", "version_notes": "p", "dataset_sources": [LAGOS]},
        "NotFound",
        "404",
    )
    fails(
        session,
        "push_kernel",
        {"slug": "x-kernel", "title": "X kernel", "version_notes": "p", "competition_sources": [LLM]},
        "PermissionDenied",
        "accept the rules",
    )
    ok(session, "set_dataset_visibility", {"dataset": MELS, "is_private": False})
    assert (
        ok(session, "push_kernel", {"slug": "birdclef-effnet-b0", "version_notes": "p", "is_private": False})[
            "isPrivate"
        ]
        is False
    )


def test_private_kernels_are_hidden_from_others(session):
    sign_in(session, "dfuentes")
    fails(session, "get_kernel", {"kernel": "priyaraman/used-cars-nn"}, "NotFound", "404")
    refs = {k["ref"] for k in ok(session, "list_kernels", {"user": "priyaraman"})["kernels"]}
    assert refs == {"priyaraman/used-cars-lgbm-baseline"}
