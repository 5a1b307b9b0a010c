"""EnvFactory tool files: per-session API objects, metadata descriptions, RL rows as tasks."""

from __future__ import annotations

from pathlib import Path

import pytest

from envfactory_gym.adapters import ImportOptions, adapter
from envfactory_gym.adapters.build import ExternalEnvironmentError, MissingDependency, import_path
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


REAL = FIXTURES / "envfactory_real"
ROWS = ImportOptions(tasks=str(REAL / "rows.json"))


def real(name: str) -> Path:
    return REAL / "envs" / "tools" / f"{name}.py"


@pytest.fixture(scope="module")
def pantry(tmp_path_factory):
    return convert_checked("envfactory", real("Pantry"), tmp_path_factory.mktemp("pantry"), ROWS)


def test_files_written_for_mcp_before_2_import_and_their_hints_count(pantry):
    spec, _ = pantry
    assert list(spec.tools) == [
        "pantry_get_item",
        "pantry_quote",
        "pantry_place_order",
        "pantry_check_out_item",
        "pantry_audit",
    ]
    assert "ctx" not in spec.tools["pantry_get_item"].input_schema["properties"]  # Context is the server's
    decisions = spec.extra["tool_decisions"]
    assert decisions["pantry_audit"] == "read: MCP readOnlyHint"
    assert decisions["pantry_get_item"] == "read: name starts with 'get' after the prefix 'pantry'"
    assert decisions["pantry_place_order"].startswith("write")


def test_reads_that_touch_state_are_decided_by_their_replay(pantry):
    spec, findings = pantry
    assert findings.cache_fields == {"last_fetched"} and "pantry_get_item" in findings.behaviour
    assert spec.tools["pantry_get_item"].read_only and spec.tools["pantry_quote"].read_only  # private cache: a read
    assert findings.behaviour_writes == {"pantry_check_out_item"} and not spec.tools["pantry_check_out_item"].read_only
    session = ToolSession(spec)
    session.reset("seed")
    before = session.dump()
    assert "last_fetched" not in before["items"]["oats"]
    outcome = session.call("pantry_get_item", {"item_id": "oats"})
    assert outcome.ok and outcome.output["last_fetched"].startswith("2025-01-15T09:00")  # the original's answer
    assert session.dump() == before
    session.close()
    assert_ground_truth_scores_one(spec)


def test_a_ground_truth_call_that_fails_in_the_original_is_matched_by_failing_the_same_way(pantry):
    spec, findings = pantry
    task = load_tasks(spec)["pantry-rl-0001"]
    assert task.calls[0].expected_error == "ValueError: Only 4 rice bags left"
    script = [[(c.name, dict(c.arguments)) for c in turn.agent_calls] for turn in task.turns]
    assert play(spec, task.id)["reward"] == 1.0
    assert play(spec, task.id, [script[0][1:]])["components"]["trajectory"] < 1.0


def test_ids_and_times_are_the_same_in_every_session(pantry):
    spec, findings = pantry
    assert not findings.nondeterministic
    orders = []
    for _ in range(2):
        session = ToolSession(spec)
        session.reset("seed")
        orders.append(session.call("pantry_place_order", {"item_id": "oats", "quantity": 1}).output)
        session.close()
    assert orders[0] == orders[1] and orders[0]["placed_at"] == "2025-01-15T09:00:00"


def test_a_stale_first_checkpoint_falls_back_to_the_next_that_loads(pantry):
    spec, _ = pantry
    notes = spec.extra["notes"]
    assert notes[0].startswith("checkpoint scenario 0 does not load: ValidationError")
    assert notes[1] == "seed: checkpoint scenario 2 (the earlier ones do not load with the current code)"
    session = ToolSession(spec)
    session.reset("seed")
    assert sorted(session.dump()["items"]) == ["flour", "oats", "rice"]
    session.close()
    with pytest.raises(ExternalEnvironmentError, match="no checkpoint scenario loads with the current code"):
        convert("envfactory", real("Stale"), Path(pantry[0].folder).parent / "stale")


def test_state_kept_outside_the_scenario_is_reported_as_nondeterministic(tmp_path):
    _, findings = convert_checked("envfactory", real("Counter"), tmp_path, ROWS)
    assert list(findings.nondeterministic) == ["counter-rl-0006"]


def test_network_use_is_refused_unless_allowed(tmp_path):
    spec, findings = convert_checked("envfactory", real("Weather"), tmp_path / "refused", ROWS)
    assert findings.network == [
        "request to http://127.0.0.1:9/v1/stations",
        "request to http://127.0.0.1:9/v1/forecast/oslo",
    ]
    assert "NetworkRefused" in findings.failing["weather-rl-0004"]
    outcome = ToolSession(spec).call("get_forecast", {"station": "lima"})
    assert outcome.error_kind == "NetworkRefused" and "--allow-network" in outcome.error
    allowed, findings = convert_checked(
        "envfactory",
        real("Weather"),
        tmp_path / "allowed",
        ImportOptions(tasks=str(REAL / "rows.json"), allow_network=True),
    )
    assert not findings.failing and "connection to 127.0.0.1:9" in findings.network  # tried, and failed on its own


def test_a_missing_dependency_is_named(tmp_path):
    with pytest.raises(
        MissingDependency,
        match=r"^Holidays.py imports 'holidays', which is not installed here: "
        r"pip install holidays$",
    ):
        convert("envfactory", real("Holidays"), tmp_path)
