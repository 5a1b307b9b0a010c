"""The process backend: env workers as local processes holding many envs, behind the same `rollout` API."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal

import pytest

from envfactory_gym.rollout import GroundTruthPolicy, expand_tasks, replay_trajectory, rollout
from envfactory_gym.rollout.process_pool import ProcessEnvPool, WorkerDied
from envfactory_gym.state import state_hash

GT = GroundTruthPolicy(["notion"])


async def stops_early_by_hash(messages, tools) -> str:
    """Ground truth, but ends a turn early when the conversation's hash says so (a deterministic policy)."""
    if hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).digest()[0] % 4 == 0:
        return "Done."
    return GT.act(messages)


def test_process_rollout_equals_the_local_one():
    tasks = expand_tasks(["notion"])
    options = dict(concurrency=32, group_size=2, digest_state=True, workers=2)
    remote = rollout(stops_early_by_hash, tasks, backend="process", **options)
    local = rollout(stops_early_by_hash, tasks, backend="local", **options)
    assert {t.reward for t in remote} != {1.0}
    for there, here in zip(remote, local, strict=True):
        assert there.ok and there.final_state_digest == state_hash(replay_trajectory(there))
        there.timings = here.timings = {}
        assert there.as_dict() == here.as_dict()


def test_envs_spread_over_the_workers_and_a_dead_worker_fails_its_calls_only():
    async def run() -> None:
        pool = ProcessEnvPool(workers=2)
        first = await pool.acquire("notion")
        second = await pool.acquire("notion")
        assert pool.size == 2 and {p.load for p in pool._processes} == {1}
        await first.reset(options={"task_id": "notion-0001"})
        await second.reset(options={"task_id": "notion-0001"})
        victim = second.call.__self__  # the worker process that holds the second env
        os.kill(victim.process.pid, signal.SIGKILL)
        with pytest.raises(WorkerDied):
            await second.step("Done.")
        _, _, terminated, _, info = await first.step("Done.")  # the other worker serves on
        assert not terminated and info["turn"] == 1
        with pytest.raises(KeyError):  # the worker's exception reaches the caller; the worker serves on
            await first.reset(options={"task_id": "no-such-task"})
        _, info = await first.reset(options={"task_id": "notion-0002"})
        assert info["task_id"] == "notion-0002"
        await pool.aclose()

    asyncio.run(run())
