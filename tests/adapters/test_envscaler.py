"""EnvScaler environments: class source, tool schemas, init configs, and check functions as a reward component."""

from __future__ import annotations

import pytest

from envfactory_gym import RewardConfig
from envfactory_gym.adapters import ImportOptions, adapter
from envfactory_gym.session import ToolSession
from envfactory_gym.tasks import load_tasks

from .conftest import FIXTURES
from .contract import (assert_check_env, assert_ground_truth_scores_one, assert_isolated, assert_wrong_write_scores_lower,
                       convert, play)

FIXTURE = FIXTURES / "envscaler"
OPTIONS = ImportOptions(tasks=str(FIXTURE / "task_items.json"), solutions=str(FIXTURE / "solutions.jsonl"))
CHECKLIST_ONLY = RewardConfig(checklist=1.0, gamma=0.0)


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    return convert("envscaler", FIXTURE / "env_items.json", tmp_path_factory.mktemp("pantry"), OPTIONS)


def test_load(spec):
    assert adapter("envscaler").discover(FIXTURE / "env_items.json", OPTIONS) == ["env_7_rl"]
    assert {n: t.read_only for n, t in spec.tools.items()} == {
        "list_items": True, "use_item": False, "add_to_shopping_list": False}
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
