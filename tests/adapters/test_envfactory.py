"""EnvFactory tool files: per-session API objects, metadata descriptions, RL rows as tasks."""

from __future__ import annotations

import pytest

from envfactory_gym.adapters import ImportOptions, adapter
from envfactory_gym.adapters.build import import_path
from envfactory_gym.session import ToolSession

from .conftest import FIXTURES
from .contract import (assert_check_env, assert_ground_truth_scores_one, assert_isolated, assert_wrong_write_scores_lower,
                       convert)

FIXTURE = FIXTURES / "envfactory"
OPTIONS = ImportOptions(tasks=str(FIXTURE / "rl_rows.json"))


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    return convert("envfactory", FIXTURE, tmp_path_factory.mktemp("ledger"), OPTIONS)


def test_load_reads_tools_metadata_and_rl_rows(spec):
    assert adapter("envfactory").discover(FIXTURE, OPTIONS) == ["Ledger"]
    assert list(spec.tools) == ["get_balance", "transfer", "open_account"]  # load/save_scenario stay hidden
    assert spec.tools["get_balance"].read_only and not spec.tools["transfer"].read_only
    assert spec.tools["transfer"].description == "Move money from one account to another and log the transfer."
    assert spec.tools["transfer"].input_schema["properties"]["memo"]["default"] == ""
    assert spec.tools["transfer"].required_inputs == ("source", "target", "amount")
    from envfactory_gym.tasks import load_tasks

    tasks = load_tasks(spec)
    assert sorted(tasks) == ["ledger-rl-0000", "ledger-rl-0001"]  # the Airline row is another server's
    second = tasks["ledger-rl-0001"]
    assert second.turns[0].query == "Open acc-4 for Noor and send it 5 from acc-3."
    assert second.turns[0].calls[1].masked == ["memo"]


def test_check_env(spec):
    assert_check_env(spec)


def test_ground_truth_scores_one(spec):
    assert_ground_truth_scores_one(spec)


def test_wrong_transfer_scores_lower(spec):
    assert_wrong_write_scores_lower(spec, "ledger-rl-0000", "transfer", lambda a: {**a, "amount": 30})


def test_sessions_are_isolated(spec):
    assert_isolated(spec, "seed", "transfer", {"source": "acc-1", "target": "acc-2", "amount": 10})


def test_each_session_has_its_own_api_object(spec):
    module = import_path(FIXTURE / "envs" / "tools" / "Ledger.py")
    session = ToolSession(spec)
    session.reset("seed")
    assert session.call("open_account", {"account_id": "acc-9", "owner": "Zed"}).ok
    assert module.api.accounts == {}  # the module-level instance of the file is never used
    session.close()


def test_a_failing_call_changes_nothing(spec):
    session = ToolSession(spec)
    session.reset("seed")
    before = session.dump()
    outcome = session.call("open_account", {"account_id": "acc-1", "owner": "Someone"})
    assert not outcome.ok and outcome.text == "Error: ValueError: Account acc-1 already exists"
    assert not session.call("transfer", {"source": "acc-2", "target": "acc-1", "amount": 99}).ok
    assert session.dump() == before
    assert session.call("get_balance", {"account_id": "nope"}).output == {"error": "Account nope not found"}
    session.close()
