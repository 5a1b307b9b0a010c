"""EnvScaler environments: class source, tool schemas, init configs, and check functions as a reward component."""

from __future__ import annotations

import pytest

from envfactory_gym import RewardConfig
from envfactory_gym.adapters import ImportOptions, adapter
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

FIXTURE = FIXTURES / "envscaler"
OPTIONS = ImportOptions(tasks=str(FIXTURE / "task_items.json"), solutions=str(FIXTURE / "solutions.jsonl"))
CHECKLIST_ONLY = RewardConfig(checklist=1.0, gamma=0.0)


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    return convert("envscaler", FIXTURE / "env_items.json", tmp_path_factory.mktemp("pantry"), OPTIONS)


def test_load(spec):
    assert adapter("envscaler").discover(FIXTURE / "env_items.json", OPTIONS) == ["env_7_rl"]
    assert {n: t.read_only for n, t in spec.tools.items()} == {
        "list_items": True,
        "use_item": False,
        "add_to_shopping_list": False,
    }
    assert "Quantities never go below zero." in spec.description
    tasks = load_tasks(spec)
    assert [c.name for c in tasks["env_7_rl-task_2"].agent_calls] == ["list_items", "add_to_shopping_list"]
    session = ToolSession(spec)
    session.reset(tasks["env_7_rl-task_1"].snapshot)  # init_config given as a JSON string
    assert session.dump()["items"]["eggs"] == {"name": "eggs", "quantity": 6}
    session.close()


def test_check_env(spec):
    assert_check_env(spec)


def test_ground_truth_scores_one_and_passes_every_check(spec):
    assert_ground_truth_scores_one(spec)
    assert play(spec, "env_7_rl-task_1")["components"]["checklist"] == 1.0


def test_wrong_write_scores_lower_and_fails_a_check(spec):
    bad = assert_wrong_write_scores_lower(spec, "env_7_rl-task_1", "use_item", lambda a: {**a, "quantity": 3})
    assert bad["components"]["checklist"] == pytest.approx(2 / 3)


def test_checklist_weight_makes_the_pass_fraction_the_reward(spec):
    nothing = play(spec, "env_7_rl-task_2", [[]], reward_config=CHECKLIST_ONLY)
    assert nothing["reward"] == 0.5  # "pantry unchanged" holds, "flour is listed" does not
    default = play(spec, "env_7_rl-task_2", [[]])
    assert default["components"]["checklist"] == 0.5 and default["reward"] == 0.0  # weight 0: reported only


def test_sessions_are_isolated(spec):
    assert_isolated(spec, "seed", "add_to_shopping_list", {"item_id": "salt"})


DESK = FIXTURES / "envscaler_real"


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    options = ImportOptions(tasks=str(DESK / "task_items.json"), solutions=str(DESK / "solutions.jsonl"))
    return convert_checked("envscaler", DESK / "env_items.json", tmp_path_factory.mktemp("desk"), options)


def test_random_uuid_and_time_are_the_sessions(desk):
    spec, findings = desk
    assert not findings.nondeterministic
    opened = []
    for _ in range(2):
        session = ToolSession(spec)
        session.reset(load_tasks(spec)["desk-1"].snapshot)
        opened.append(session.call("open_ticket", {"subject": "wifi"}).output["data"])
        session.close()
    assert opened[0] == opened[1] and opened[0]["opened"] == 1736931600  # 2025-01-15 09:00 UTC, the task's clock


def test_private_caches_and_failing_solution_calls(desk):
    spec, findings = desk
    assert spec.tools["get_ticket"].read_only and not findings.behaviour  # _lookups is private
    assert load_tasks(spec)["desk-2"].calls[1].expected_error == "KeyError: 't9'"
    for task_id in ("desk-1", "desk-2"):
        result = play(spec, task_id)
        assert result["reward"] == 1.0 and result["components"]["checklist"] == 1.0
