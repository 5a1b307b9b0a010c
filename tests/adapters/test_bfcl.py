"""BFCL multi-turn: backend classes, function docs, ground truth as call strings parsed with ast."""

from __future__ import annotations

import inspect

import pytest

from envfactory_gym.adapters import ImportOptions, adapter
from envfactory_gym.adapters.bfcl import parse_call
from envfactory_gym.session import ToolSession
from envfactory_gym.tasks import load_tasks

from .conftest import FIXTURES
from .contract import (assert_check_env, assert_ground_truth_scores_one, assert_isolated, assert_wrong_write_scores_lower,
                       convert)

QUESTIONS = FIXTURES / "bfcl" / "BFCL_v4_multi_turn_base.json"
OPTIONS = ImportOptions(code=str(FIXTURES / "bfcl" / "backend"))


@pytest.fixture(scope="module")
def specs(tmp_path_factory):
    return {key: convert("bfcl", QUESTIONS, tmp_path_factory.mktemp(key.replace("+", "_")), OPTIONS, key)
            for key in ("NotesAPI", "NotesAPI+UnitConverter")}


def test_entries_group_by_involved_classes(specs):
    assert adapter("bfcl").discover(QUESTIONS, OPTIONS) == ["NotesAPI", "NotesAPI+UnitConverter"]
    assert set(specs["NotesAPI"].tools) == {"create_note", "append_to_note", "delete_note", "list_notes"}
    assert set(specs["NotesAPI+UnitConverter"].tools) == set(specs["NotesAPI"].tools) | {"convert"}
    assert specs["NotesAPI"].tools["create_note"].input_schema["properties"]["body"]["default"] == ""
    unit_to = specs["NotesAPI+UnitConverter"].tools["convert"].input_schema["properties"]["unit_to"]
    assert unit_to["enum"] == ["mi", "km", "kg", "lb"]


def test_ground_truth_strings_are_parsed_not_evaluated():
    signatures = {"mv": inspect.signature(lambda source, destination=".": None)}
    assert parse_call("mv('a.txt', destination=('x', 'y'))", signatures) == {
        "name": "mv", "arguments": {"source": "a.txt", "destination": ["x", "y"]}, "masked": []}
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
    assert session.dump() == {"NotesAPI.notes": {"1": {"title": "todo", "body": "call mom"}},
                              "NotesAPI.attributes": {"next_id": {"value": 2}}}
    session.close()


def test_check_env(specs):
    assert_check_env(specs["NotesAPI+UnitConverter"])


def test_ground_truth_scores_one(specs):
    for spec in specs.values():
        assert_ground_truth_scores_one(spec)


def test_wrong_note_scores_lower(specs):
    assert_wrong_write_scores_lower(specs["NotesAPI+UnitConverter"], "multi_turn_base_0", "append_to_note",
                                    lambda a: {**a, "text": "5 km"})


def test_sessions_are_isolated(specs):
    assert_isolated(specs["NotesAPI"], "seed", "create_note", {"title": "x"})
