"""BFCL multi-turn: backend classes, function docs, ground truth as call strings parsed with ast."""

from __future__ import annotations

import inspect

import pytest

from envfactory_gym import ToolUseEnv
from envfactory_gym.adapters import ImportOptions, adapter
from envfactory_gym.adapters.bfcl import ADDED_FUNCTIONS_PROMPT, parse_call
from envfactory_gym.adapters.bfcl_checker import compare
from envfactory_gym.agents import format_call
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

QUESTIONS = FIXTURES / "bfcl" / "BFCL_v4_multi_turn_base.json"
OPTIONS = ImportOptions(code=str(FIXTURES / "bfcl" / "backend"))


@pytest.fixture(scope="module")
def specs(tmp_path_factory):
    return {
        key: convert("bfcl", QUESTIONS, tmp_path_factory.mktemp(key.replace("+", "_")), OPTIONS, key)
        for key in ("NotesAPI", "NotesAPI+UnitConverter")
    }


def test_entries_group_by_involved_classes(specs):
    assert adapter("bfcl").discover(QUESTIONS, OPTIONS) == ["NotesAPI", "NotesAPI+UnitConverter"]
    assert set(specs["NotesAPI"].tools) == {"create_note", "append_to_note", "delete_note", "get_note", "list_notes"}
    assert set(specs["NotesAPI+UnitConverter"].tools) == set(specs["NotesAPI"].tools) | {"convert"}
    assert specs["NotesAPI"].tools["create_note"].input_schema["properties"]["body"]["default"] == ""
    unit_to = specs["NotesAPI+UnitConverter"].tools["convert"].input_schema["properties"]["unit_to"]
    assert unit_to["enum"] == ["mi", "km", "kg", "lb"]


def test_ground_truth_strings_are_parsed_not_evaluated():
    signatures = {"mv": inspect.signature(lambda source, destination=".": None)}
    assert parse_call("mv('a.txt', destination=('x', 'y'))", signatures) == {
        "name": "mv",
        "arguments": {"source": "a.txt", "destination": ["x", "y"]},
        "masked": [],
    }
    with pytest.raises(ValueError):
        parse_call("mv(source=__import__('os').getcwd())", signatures)
    with pytest.raises(ValueError):
        parse_call("rm(path='/')", signatures)


def test_tasks_keep_turns_and_skip_unreadable_calls(specs):
    tasks = load_tasks(specs["NotesAPI"])
    assert sorted(tasks) == ["multi_turn_base_1"] and specs["NotesAPI"].extra["skipped_tasks"] == 1
    turns = tasks["multi_turn_base_1"].turns
    assert [len(t.calls) for t in turns] == [1, 1, 0]  # the last request has no answer in the toolset
    assert turns[0].calls[0].arguments == {"note_id": 1}  # positional argument bound by name


def test_state_is_the_public_attributes(specs):
    session = ToolSession(specs["NotesAPI+UnitConverter"])
    session.reset(load_tasks(specs["NotesAPI+UnitConverter"])["multi_turn_base_0"].snapshot)
    assert session.dump() == {
        "NotesAPI.notes": {"1": {"title": "todo", "body": "call mom"}},
        "NotesAPI.attributes": {"next_id": {"value": 2}},
    }
    session.close()


def test_check_env(specs):
    assert_check_env(specs["NotesAPI+UnitConverter"])


def test_ground_truth_scores_one(specs):
    for spec in specs.values():
        assert_ground_truth_scores_one(spec)


def test_wrong_note_scores_lower(specs):
    assert_wrong_write_scores_lower(
        specs["NotesAPI+UnitConverter"], "multi_turn_base_0", "append_to_note", lambda a: {**a, "text": "5 km"}
    )


def test_sessions_are_isolated(specs):
    assert_isolated(specs["NotesAPI"], "seed", "create_note", {"title": "x"})


MISS_FUNC = FIXTURES / "bfcl" / "BFCL_v4_multi_turn_miss_func.json"
MISS_PARAM = FIXTURES / "bfcl" / "BFCL_v4_multi_turn_miss_param.json"


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    return {
        path.stem: convert_checked("bfcl", path, tmp_path_factory.mktemp(path.stem), OPTIONS)
        for path in (MISS_FUNC, MISS_PARAM)
    }


def test_a_missing_function_arrives_with_its_turn(variants):
    spec, _ = variants[MISS_FUNC.stem]
    task = load_tasks(spec)["multi_turn_miss_func_0"]
    assert [t.new_tools for t in task.turns] == [[], [], ["delete_note"], []]
    assert [t.expect_no_call for t in task.turns] == [False, True, False, False]
    assert task.turns[2].query == ADDED_FUNCTIONS_PROMPT
    env = ToolUseEnv(spec)
    observation, info = env.reset(options={"task_id": task.id})
    assert "delete_note" not in env._system and "delete_note" not in {t["function"]["name"] for t in info["tools"]}
    env.step(format_call("create_note", {"title": "groceries", "body": "milk"}))
    env.step("Done.")
    observation, *_, info = env.step(format_call("delete_note", {"note_id": 1}))
    assert "unknown tool 'delete_note'" in observation and "delete_note" not in observation.split("Available")[1]
    observation, *_, info = env.step("I cannot delete notes yet.")
    assert "delete_note" in observation and "delete_note" in {t["function"]["name"] for t in info["tools"]}
    observation, *_ = env.step(format_call("delete_note", {"note_id": 1}))
    assert '"status": "deleted"' in observation
    env.close()


def test_acting_before_the_turn_that_asks_scores_below_one(variants):
    for stem, task_id in ((MISS_FUNC.stem, "multi_turn_miss_func_0"), (MISS_PARAM.stem, "multi_turn_miss_param_0")):
        spec, _ = variants[stem]
        task = load_tasks(spec)[task_id]
        script = [[(c.name, dict(c.arguments)) for c in turn.agent_calls] for turn in task.turns]
        empty = next(i for i, turn in enumerate(task.turns) if turn.expect_no_call)
        early = [list(turn) for turn in script]
        early[empty], early[empty + 1] = early[empty + 1], []
        assert play(spec, task_id)["reward"] == 1.0
        assert play(spec, task_id, early)["reward"] < 1.0, stem


def test_a_failing_ground_truth_call_and_a_private_cache(variants):
    spec, findings = variants[MISS_FUNC.stem]
    task = load_tasks(spec)["multi_turn_miss_func_1"]
    failing = task.turns[0].calls[1]
    assert failing.arguments == {"note_id": "one", "text": "buy flowers"} and failing.expected_error.startswith(
        "invalid arguments for 'append_to_note'"
    )
    assert spec.tools["get_note"].read_only and not findings.behaviour  # its word-count cache is private
    assert play(spec, task.id)["reward"] == 1.0


def test_the_ground_truth_and_its_variations_agree_with_bfcls_own_checker(tmp_path):
    pytest.importorskip("bfcl_eval")
    for questions in (QUESTIONS, MISS_FUNC, MISS_PARAM):
        keys = adapter("bfcl").discover(questions, OPTIONS)
        specs = {
            key: convert_checked("bfcl", questions, tmp_path / questions.stem / key, OPTIONS, key)[0] for key in keys
        }
        agreement = compare(questions, specs, OPTIONS)
        kinds = agreement.by_kind()
        assert kinds["ground truth"][1] == kinds["ground truth"][0]  # BFCL calls every ground truth valid
        assert all(v.agrees for v in agreement.verdicts), [v for v in agreement.verdicts if not v.agrees]
        if questions is not QUESTIONS:
            assert kinds["one turn early"][0] == 2 and kinds["one turn early"][1] == 0
