"""Held-out splits: every zoo env stores one covering its tasks; stored assignments never move; envs and
`gym.make` can be limited to a split."""

from __future__ import annotations

import math

import gymnasium as gym
import pytest

from envfactory_gym import ToolUseEnv, load_tasks, resolve
from envfactory_gym.cli import main
from envfactory_gym.splits import TEST_FRACTION, assign, read_split, split_task_ids


def test_every_zoo_env_stores_a_complete_split(zoo_spec):
    stored = read_split(zoo_spec)
    assert stored is not None, f"run `envfactory split {zoo_spec.key}`"
    tasks = set(load_tasks(zoo_spec))
    assert set(stored["train"]) | set(stored["test"]) == tasks
    assert not set(stored["train"]) & set(stored["test"])
    assert len(stored["test"]) == math.ceil(TEST_FRACTION * len(tasks))


def test_stored_assignments_never_move_and_new_tasks_fill_test_first():
    ids = [f"t-{i:03d}" for i in range(20)]
    first = assign("Demo", ids)
    assert len(first["test"]) == 6 and assign("Demo", ids) == first  # deterministic
    assert first != assign("Other", ids)  # the environment's name takes part in the hash
    grown = assign("Demo", ids + [f"t-{i:03d}" for i in range(20, 30)], first)
    assert set(first["test"]) <= set(grown["test"]) and set(first["train"]) <= set(grown["train"])
    assert len(grown["test"]) == 9
    shrunk = assign("Demo", ids[:10], first)
    assert set(shrunk["test"]) | set(shrunk["train"]) == set(ids[:10])


def test_envs_draw_only_from_their_split():
    test_ids = split_task_ids(resolve("notion"), "test")
    env = ToolUseEnv("notion", split="test")
    drawn = {env.reset(seed=seed)[1]["task_id"] for seed in range(40)}
    assert drawn == set(test_ids)
    made = gym.make(resolve("notion").env_id)  # gym.make trains: the train split unless told otherwise
    assert set(made.unwrapped.task_ids).isdisjoint(test_ids) and made.unwrapped.split == "train"
    with pytest.warns(UserWarning, match="not in the train split"):
        ToolUseEnv("notion", split="train", task_ids=test_ids[:1])
    with pytest.warns(UserWarning, match="not among this env's tasks"):
        made.reset(options={"task_id": test_ids[0]})
    assert set(gym.make(resolve("notion").env_id, split="all").unwrapped.task_ids) > set(test_ids)
    with pytest.raises(ValueError, match="unknown split"):
        split_task_ids(resolve("notion"), "dev")  # type: ignore[arg-type]


def test_split_check_reports_every_zoo_split_complete(capsys):
    assert main(["split", "--check"]) == 0
    assert "stale" not in capsys.readouterr().out
