"""gymnasium vector envs: `gym.make_vec` in sync and async mode, Unicode through async workers, autoreset modes."""

from __future__ import annotations

import copy
import json
import multiprocessing as mp
from contextlib import closing

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

from envfactory_gym import resolve
from envfactory_gym.agents import format_call
from envfactory_gym.rollout import GroundTruthPolicy
from envfactory_gym.spaces import UnicodeText

ENV_ID = resolve("notion").env_id
Q4_ROADMAP = "0cc6d305-4262-5867-b148-bd95a0e0bcd3"
ENGINEERING = "88582c1e-8322-5608-a4ba-ad75f2c0fcb8"
UNICODE_TITLE = "Café ☕ 日本語 — Ünïcödé 🗺️ naïve\u00a0spaces"
MODES = ["sync", "async"]


@pytest.fixture(scope="module")
def policy() -> GroundTruthPolicy:
    return GroundTruthPolicy(["notion"])


def ground_truth_actions(policy: GroundTruthPolicy, infos: dict, n: int) -> tuple[str, ...]:
    return tuple(policy.act(list(infos["messages"][i])) for i in range(n))


@pytest.mark.parametrize("mode", MODES)
def test_make_vec_plays_ground_truth_with_autoreset(mode, policy):
    n = 3
    with closing(gym.make_vec(ENV_ID, num_envs=n, vectorization_mode=mode)) as envs:
        assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
        observations, infos = envs.reset(seed=[11, 12, 13])
        assert all(isinstance(o, str) and o for o in observations)
        finished: list[tuple[int, str, float]] = []
        returns = np.zeros(n)
        for _ in range(40):
            observations, rewards, terminated, truncated, infos = envs.step(ground_truth_actions(policy, infos, n))
            assert not truncated.any()
            returns += rewards  # an autoreset step pays 0
            for i in np.flatnonzero(terminated):
                assert infos["reward_components"]["state"][i] == 1.0
                finished.append((int(i), infos["task_id"][i], float(returns[i])))
                returns[i] = 0.0
        assert len(finished) >= n and {i for i, _, _ in finished} == set(range(n))
        assert all(paid == pytest.approx(1.0) for _, _, paid in finished)  # each episode's return is its score
        assert len({task for _, task, _ in finished}) > 1  # seeds drew different tasks


def unicode_episode(envs) -> list[tuple[str, ...]]:
    """Observations of two steps that bring non-ASCII text back: an emoji icon and a title the agent wrote."""
    observations, _ = envs.reset(options={"task_id": "notion-0003"})
    steps = [observations]
    for action in (
        format_call("retrieve_page", {"page_id": Q4_ROADMAP}),
        format_call("create_page", {"parent_page_id": ENGINEERING, "title": UNICODE_TITLE}),
    ):
        observations, *_ = envs.step((action,) * envs.num_envs)
        steps.append(tuple(observations))
    return steps


@pytest.mark.parametrize("vector_kwargs", [None, {"shared_memory": True}, {"shared_memory": False}])
def test_async_observations_keep_unicode(vector_kwargs):
    with closing(gym.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync")) as sync_envs:
        expected = unicode_episode(sync_envs)
    with closing(gym.make_vec(ENV_ID, num_envs=2, vectorization_mode="async", vector_kwargs=vector_kwargs)) as envs:
        got = unicode_episode(envs)
    assert got == expected
    assert "postmortem" in got[0][0]
    assert "🗺️" in got[1][0] and json.loads(got[1][1].split("\n")[1])["icon"] == "🗺️"
    assert UNICODE_TITLE in got[2][0] and "\x00" not in got[2][0]


@pytest.mark.parametrize("mode", MODES)
def test_next_step_autoreset_ignores_the_action_after_the_end(mode, policy):
    with closing(gym.make_vec(ENV_ID, num_envs=2, vectorization_mode=mode)) as envs:
        _, infos = envs.reset(seed=5, options={"task_id": "notion-0004"})
        terminated = np.zeros(2, dtype=bool)
        steps, returns = 0, np.zeros(2)
        while not terminated.all():
            observations, rewards, terminated, truncated, infos = envs.step(ground_truth_actions(policy, infos, 2))
            steps += 1
            returns += rewards
            assert not truncated.any() and terminated.all() == terminated.any()
        assert steps == 5  # 2 calls + reply, 1 call + reply
        assert tuple(observations) == ("", "") and returns.tolist() == pytest.approx([1.0, 1.0])
        assert infos["reward_components"]["total"].tolist() == [1.0, 1.0]  # batched dict: one array per key

        broken = "<tool_call>{not json"  # ignored: this step only resets
        observations, rewards, terminated, truncated, infos = envs.step((broken, broken))
        assert rewards.tolist() == [0.0, 0.0] and not terminated.any() and not truncated.any()
        assert infos["step"].tolist() == [0, 0]
        assert all(len(messages) == 2 for messages in infos["messages"])  # system prompt + first query
        assert [m[1]["content"] for m in infos["messages"]] == list(observations)
        assert "reward_components" not in infos


@pytest.mark.parametrize("mode", MODES)
def test_same_step_autoreset_returns_the_next_episode_at_once(mode, policy):
    vector_kwargs = {"autoreset_mode": AutoresetMode.SAME_STEP}
    with closing(gym.make_vec(ENV_ID, num_envs=2, vectorization_mode=mode, vector_kwargs=vector_kwargs)) as envs:
        _, infos = envs.reset(seed=5, options={"task_id": "notion-0004"})
        returns = np.zeros(2)
        for _ in range(4):
            _, rewards, terminated, _, infos = envs.step(ground_truth_actions(policy, infos, 2))
            returns += rewards
            assert not terminated.any()
        observations, rewards, terminated, truncated, infos = envs.step(ground_truth_actions(policy, infos, 2))
        assert terminated.tolist() == [True, True] and (returns + rewards).tolist() == pytest.approx([1.0, 1.0])
        assert tuple(infos["final_obs"]) == ("", "")
        final_info = infos["final_info"]
        assert final_info["task_id"].tolist() == ["notion-0004"] * 2 and final_info["step"].tolist() == [5, 5]
        assert final_info["reward_components"]["total"].tolist() == [1.0, 1.0]
        # the returned observation and info already belong to the next episode
        assert infos["step"].tolist() == [0, 0]
        assert [m[1]["content"] for m in infos["messages"]] == list(observations) and all(observations)
        _, rewards, terminated, _, infos = envs.step(ground_truth_actions(policy, infos, 2))
        assert infos["step"].tolist() == [1, 1] and not terminated.any()


def test_shared_text_memory_round_trips_any_unicode():
    space = UnicodeText(max_length=16)
    memory = create_shared_memory(space, n=3, ctx=mp.get_context())
    view = read_from_shared_memory(space, memory, n=3)
    values = ["🗺️ map", "", "lone \ud800 surr"]
    for index, value in enumerate(values):
        write_to_shared_memory(space, index, value, memory)
    assert copy.deepcopy(view) == tuple(values) and isinstance(copy.deepcopy(view), tuple)
    write_to_shared_memory(space, 1, "日本語", memory)
    assert view[1] == "日本語" and view[0] == "🗺️ map"  # the view is live; neighbours untouched
    assert view[1:] == ("日本語", values[2])
    with pytest.raises(ValueError):
        write_to_shared_memory(space, 0, "x" * 17, memory)
