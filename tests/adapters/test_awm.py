"""AWM scenarios: SQLite built from DDL and inserts, the FastAPI app called in-process through ASGI."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")  # the fixture app is a FastAPI app (the `adapters` extra)

from envfactory_gym.adapters import ImportOptions, adapter  # noqa: E402
from envfactory_gym.session import ToolSession
from envfactory_gym.tasks import load_tasks

from .conftest import FIXTURES
from .contract import (
    assert_check_env,
    assert_ground_truth_scores_one,
    assert_isolated,
    assert_wrong_write_scores_lower,
    convert,
    convert_checked,
    play,
)

FIXTURE = FIXTURES / "awm"
OPTIONS = ImportOptions(solutions=str(FIXTURE / "solutions.jsonl"))


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    return convert("awm", FIXTURE, tmp_path_factory.mktemp("library"), OPTIONS)


def test_load_builds_tools_from_the_app(spec):
    assert adapter("awm").discover(FIXTURE, OPTIONS) == ["library_1"]
    assert {name: tool.read_only for name, tool in spec.tools.items()} == {
        "search_books": True,
        "get_book": True,
        "borrow_book": False,
        "return_book": False,
    }
    assert spec.tools["borrow_book"].required_inputs == ("book_id", "member")  # body fields, flattened
    assert spec.tools["search_books"].input_schema["properties"]["only_available"]["default"] is False
    assert sorted(load_tasks(spec)) == ["library_1-0", "library_1-1"]


def test_snapshot_comes_from_ddl_and_inserts(spec):
    session = ToolSession(spec)
    session.reset("seed")
    state = session.dump()
    assert sorted(state["books"]) == ["1", "2", "3", "4"]
    assert list(state["loans"]) == ["1"]  # the insert that breaks a foreign key is skipped, as AWM does
    assert "created_at" not in state["loans"]["1"]  # timestamp columns are volatile
    session.close()


def test_check_env(spec):
    assert_check_env(spec)


def test_ground_truth_scores_one_and_passes_the_verifier(spec):
    assert_ground_truth_scores_one(spec)
    assert play(spec, "library_1-0")["components"]["checklist"] == 1.0


def test_wrong_borrow_scores_lower_and_fails_the_verifier(spec):
    bad = assert_wrong_write_scores_lower(spec, "library_1-0", "borrow_book", lambda a: {**a, "book_id": 4})
    assert bad["components"]["checklist"] == 0.0


def test_sessions_are_isolated(spec):
    assert_isolated(spec, "seed", "borrow_book", {"book_id": 1, "member": "lee"})


def test_http_errors_fail_the_call_and_change_nothing(spec):
    session = ToolSession(spec)
    session.reset("seed")
    before = session.dump()
    outcome = session.call("borrow_book", {"book_id": 2, "member": "lee"})
    assert outcome.text == "Error: HTTP 409: Book is already on loan"
    assert session.call("get_book", {"book_id": 99}).error_kind == "HTTP 404"
    assert session.dump() == before
    session.close()


def test_the_app_reads_the_simulated_clock(spec):
    stamps = []
    for _ in range(2):
        session = ToolSession(spec)
        session.reset("seed")
        session.call("search_books", {"query": "kindred"})
        session.call("borrow_book", {"book_id": 1, "member": "lee"})
        stamps.append(session.state.raw.execute("SELECT created_at FROM loans WHERE member = 'lee'").fetchone()[0])
        session.close()
    assert stamps[0] == stamps[1] and stamps[0].startswith("2025-01-15 09:00:30")


PIPELINE = FIXTURES / "awm_pipeline"  # what AWM's pipeline writes: gen_verifier.jsonl, rows as tables[].examples


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    return convert_checked(
        "awm", PIPELINE, tmp_path_factory.mktemp("desk"), ImportOptions(solutions=str(PIPELINE / "solutions.jsonl"))
    )


def test_examples_seed_the_database_and_gen_verifier_jsonl_is_read(desk):
    spec, _ = desk
    session = ToolSession(spec)
    session.reset("seed")
    assert {k: v["views"] for k, v in session.dump()["notes"].items()} == {"n1": 0, "n2": 3}
    session.close()
    assert play(spec, "notes_desk-0")["components"]["checklist"] == 1.0  # the code verifier of gen_verifier.jsonl
    assert play(spec, "notes_desk-1")["components"]["checklist"] is None  # its SQL-mode verifier needs a judge
    assert spec.extra["notes"] == ["1 SQL-mode verifier(s) left out: they hand their findings to an LLM judge"]


def test_a_get_that_writes_becomes_a_write_and_a_failing_call_is_expected(desk):
    spec, findings = desk
    assert findings.behaviour_writes == {"get_note"} and not spec.tools["get_note"].read_only
    assert spec.tools["list_notes"].read_only
    assert load_tasks(spec)["notes_desk-1"].calls[0].expected_error == "HTTP 404: Note not found"
    assert_ground_truth_scores_one(spec)


def test_the_apps_uuids_come_from_the_session(desk):
    spec, findings = desk
    assert not findings.nondeterministic
    ids = []
    for _ in range(2):
        session = ToolSession(spec)
        session.reset("seed")
        ids.append(session.call("create_note", {"title": "x"}).output["id"])
        ids.append(session.call("create_note", {"title": "y"}).output["id"])
        session.close()
    assert ids[0] == ids[2] and ids[1] == ids[3] and ids[0] != ids[1]
