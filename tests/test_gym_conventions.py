"""What gymnasium users expect: the return is the score wherever the episode stops, make kwargs for tasks, a task
per sub-env of a vector env, live envs that pickle, and splits that keep training off the held-out tasks."""

from __future__ import annotations

import dataclasses
import pickle
import warnings
from contextlib import closing

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.wrappers import TimeLimit

from envfactory_gym import ToolUseEnv, resolve
from envfactory_gym.agents import ReferenceAgent, format_call
from envfactory_gym.rollout import GroundTruthPolicy
from envfactory_gym.splits import split_task_ids
from envfactory_gym.vector import reset_to_tasks

NOTION = resolve("notion").env_id
TASK = "notion-0006"


def play(env: gym.Env, task_id: str = TASK) -> tuple[float, dict, bool]:
    """The reference agent until the episode stops for any reason: (return, last info, truncated)."""
    with warnings.catch_warnings():  # the task may be a held-out one: the warning is not what this checks
        warnings.simplefilter("ignore")
        observation, info = env.reset(options={"task_id": task_id})
    agent = ReferenceAgent()
    agent.reset(env.unwrapped, info)
    paid = 0.0
    while True:
        observation, reward, terminated, truncated, info = env.step(agent.act(observation, info))
        paid += float(reward)
        if terminated or truncated:
            return paid, info, truncated


@pytest.mark.parametrize("stop", ["own max_steps", "gym.make max_episode_steps", "user TimeLimit", "none"])
def test_the_return_is_the_score_wherever_the_episode_stops(stop):
    env = {
        "own max_steps": lambda: ToolUseEnv("notion", max_steps=2),
        "gym.make max_episode_steps": lambda: gym.make(NOTION, max_episode_steps=2),
        "user TimeLimit": lambda: TimeLimit(ToolUseEnv("notion"), 2),
        "none": lambda: ToolUseEnv("notion"),
    }[stop]()
    paid, info, truncated = play(env)
    score = info["reward_components"]
    assert truncated == (stop != "none")
    assert paid == pytest.approx(score["total"]) and (0.0 < paid < 1.0 if truncated else paid == pytest.approx(1.0))
    assert score["expected_calls"] > score["matched_calls"] if truncated else True
    env.close()


def test_a_vector_env_autoreset_after_truncation_pays_the_score():
    policy = GroundTruthPolicy(["notion"])
    with closing(gym.make_vec(NOTION, num_envs=2, vectorization_mode="sync", max_episode_steps=2)) as vec:
        _, infos = reset_to_tasks(vec, [TASK, "notion-0001"])
        returns = np.zeros(2)
        for _ in range(2):
            _, rewards, terminated, truncated, infos = vec.step(tuple(policy.act(list(m)) for m in infos["messages"]))
            returns += rewards
        assert truncated.all() and not terminated.any()
        assert returns.tolist() == pytest.approx(infos["reward_components"]["total"].tolist())
        assert (returns > 0).all()
        _, rewards, _, _, infos = vec.step(("Done.", "Done."))  # the autoreset step pays nothing
        assert rewards.tolist() == [0.0, 0.0] and infos["step"].tolist() == [0, 0]


def test_final_mode_pays_only_when_the_env_ends_the_episode():
    env = ToolUseEnv("notion", reward_mode="final", max_steps=3)
    env.reset(options={"task_id": TASK})
    look = format_call("list_users", {})
    rewards = [env.step(look)[1] for _ in range(2)]
    _, last, _, truncated, info = env.step(look)
    assert rewards == [0.0, 0.0] and truncated and last == info["reward_components"]["total"]
    with pytest.raises(ValueError, match="reward_mode"):
        ToolUseEnv("notion", reward_mode="sparse")  # type: ignore[arg-type]


def test_make_takes_task_ids_and_vectors_take_one_task_per_sub_env():
    env = gym.make(NOTION, task_id="notion-0002")
    assert env.unwrapped.task_ids == ["notion-0002"]
    assert env.reset(seed=3)[1]["task_id"] == "notion-0002"
    assert gym.make(NOTION, task_ids=["notion-0002", "notion-0001"]).unwrapped.task_ids == [
        "notion-0001",
        "notion-0002",
    ]
    with pytest.raises(ValueError, match="no task 'notion-9999'"):
        gym.make(NOTION, task_id="notion-9999")
    with closing(gym.make_vec(NOTION, num_envs=3, vectorization_mode="async")) as vec:
        _, infos = reset_to_tasks(vec, ["notion-0001", "notion-0002", "notion-0001"])
        assert list(infos["task_id"]) == ["notion-0001", "notion-0002", "notion-0001"]
        with pytest.raises(ValueError, match="one task id"):
            vec.reset(options={"task_id": ["notion-0001", "notion-0002", "notion-0001"]})


def test_a_live_env_pickles_with_its_episode():
    env = ToolUseEnv("notion", max_steps=30)
    observation, info = env.reset(options={"task_id": TASK})
    agent = ReferenceAgent()
    agent.reset(env, info)
    for _ in range(2):
        observation, _, _, _, info = env.step(agent.act(observation, info))
    copy = pickle.loads(pickle.dumps(env))
    assert copy.session.dump() == env.session.dump() and copy.current_score() == env.current_score()
    rest = []
    for _ in range(30):
        action = agent.act(observation, info)
        a, b = env.step(action), copy.step(action)
        assert a[:4] == b[:4] and a[4]["messages"] == b[4]["messages"]
        observation, info = a[0], a[4]
        if a[2]:
            break
        rest.append(action)
    assert a[2] and a[4]["reward_components"] == b[4]["reward_components"]
    spec = resolve("notion")
    orphan = ToolUseEnv(dataclasses.replace(spec, name="Orphan"))
    with pytest.raises(TypeError, match="no registered name resolves to"):
        pickle.dumps(orphan)


def test_training_stays_off_the_held_out_tasks():
    test_ids = split_task_ids(resolve("notion"), "test")
    made = gym.make(NOTION)
    assert made.unwrapped.split == "train" and not set(made.unwrapped.task_ids) & set(test_ids)
    with pytest.warns(UserWarning, match="not among this env's tasks"):
        made.reset(options={"task_id": test_ids[0]})
    held_out = ToolUseEnv("notion", split="test")
    with pytest.warns(UserWarning, match="the test split"):
        held_out.reset(options={"task_id": sorted(set(held_out.tasks) - set(test_ids))[0]})
    from envfactory_gym.rollout import rollout

    with pytest.warns(UserWarning, match="held-out test tasks are for evaluation"):
        played = rollout(GroundTruthPolicy(["notion"]), ["notion"], split="test", concurrency=4)
    assert sorted(t.task_id for t in played) == sorted(test_ids)
    trained = rollout(GroundTruthPolicy(["notion"]), ["notion"], concurrency=4)
    assert not {t.task_id for t in trained} & set(test_ids)
