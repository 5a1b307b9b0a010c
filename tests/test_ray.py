"""The Ray backend: env workers as actors holding many envs, behind the same `rollout` API as the local engine."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random

import pytest

from envfactory_gym import resolve
from envfactory_gym.rollout import GroundTruthPolicy, Trajectory, arollout, expand_tasks, replay_trajectory, rollout
from envfactory_gym.state import state_hash
from envfactory_gym.tasks import expected_replay, load_tasks

ray = pytest.importorskip("ray")

from envfactory_gym.rollout.ray_pool import RayEnvPool  # noqa: E402  (needs ray)

GT = GroundTruthPolicy(["notion"])


def expected_digest(trajectory: Trajectory) -> str:
    spec = resolve(trajectory.env_id)
    return state_hash(expected_replay(spec, load_tasks(spec)[trajectory.task_id]).final.full())


def replayed_digest(trajectory: Trajectory) -> str:
    return state_hash(replay_trajectory(trajectory))


async def stops_early_by_hash(messages, tools) -> str:
    """Ground truth, but ends a turn early when the conversation's hash says so (a deterministic policy)."""
    if hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).digest()[0] % 4 == 0:
        return "Done."
    return GT.act(messages)


@pytest.fixture(scope="session", autouse=True)
def ray_cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_rollout_equals_the_local_one():
    tasks = expand_tasks(["notion"])
    options = dict(concurrency=32, group_size=2, digest_state=True, workers=2)
    on_ray = rollout(stops_early_by_hash, tasks, backend="ray", **options)
    local = rollout(stops_early_by_hash, tasks, backend="local", **options)
    assert {t.reward for t in on_ray} != {1.0}
    for remote, here in zip(on_ray, local, strict=True):
        assert remote.ok and remote.final_state_digest == replayed_digest(remote)
        remote.timings = here.timings = {}
        assert remote.as_dict() == here.as_dict()


def test_actors_hold_many_envs_and_group_samples_stay_isolated():
    rng = random.Random(3)

    async def sometimes_stops(messages, tools) -> str:
        await asyncio.sleep(rng.random() * 0.002)
        return "Done." if rng.random() < 0.3 else GT.act(messages)

    tasks = [("notion", "notion-0006"), ("notion", "notion-0017"), ("notion", "notion-0001")]

    async def run():
        pool = RayEnvPool(workers=2)
        try:
            trajectories = await arollout(
                sometimes_stops, tasks, concurrency=64, group_size=8, backend=pool, digest_state=True
            )
            sizes = [await actor.size.remote() for actor in pool._actors]
            again = await arollout(GT, tasks, concurrency=64, group_size=8, backend=pool, digest_state=True)
            return trajectories, sizes, again, pool.size
        finally:
            await pool.aclose()

    trajectories, sizes, again, size_after = asyncio.run(run())
    assert len(sizes) == 2 and min(sizes) >= 8 and sum(sizes) == size_after  # both actors hold many envs
    for group in range(len(tasks)):
        samples = [t for t in trajectories if t.group == group]
        assert len({str(t.messages[:2]) for t in samples}) == 1
        assert len({t.final_state_digest for t in samples}) > 1
    for trajectory in trajectories:
        assert trajectory.ok and trajectory.final_state_digest == replayed_digest(trajectory)
    for trajectory in again:  # the reused envs start clean
        assert trajectory.reward == 1.0 and trajectory.final_state_digest == expected_digest(trajectory)


def test_a_timed_out_episode_leaves_its_actor_env_clean():
    async def hangs_in_second_turn(messages, tools) -> str:
        if len([m for m in messages if m["role"] == "user"]) == 2 and messages[1]["content"].startswith("Add a task"):
            await asyncio.sleep(120)
        return GT.act(messages)

    tasks = [("notion", "notion-0006")]

    async def run():
        pool = RayEnvPool(workers=1)
        try:
            first = await arollout(hangs_in_second_turn, tasks, group_size=3, backend=pool, episode_timeout=8.0)
            second = await arollout(GT, tasks, group_size=3, backend=pool, digest_state=True)
            return first, second, pool.size
        finally:
            await pool.aclose()

    first, second, size = asyncio.run(run())
    assert all(t.error and t.error.startswith("timeout") and len(t.messages) > 2 for t in first)
    assert size == 3
    assert all(t.reward == 1.0 and t.final_state_digest == expected_digest(t) for t in second)
