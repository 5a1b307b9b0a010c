"""Same seed and task, same episode: on every zoo environment, within one process and across processes whose
string hashing differs (PYTHONHASHSEED), for the reference agent and a seeded random agent."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest

from envfactory_gym import ToolUseEnv, zoo_keys
from envfactory_gym.agents import RandomAgent, ReferenceAgent


def episode_digests(keys: list[str], tasks_per_env: int = 3) -> dict[str, str]:
    """SHA-256 of each episode's messages, rewards and final state, by `env/task/agent`."""
    digests = {}
    for key in keys:
        env = ToolUseEnv(key)
        for task_id in env.task_ids[:tasks_per_env]:
            for name, agent in (("reference", ReferenceAgent()), ("random", RandomAgent(seed=5))):
                observation, info = env.reset(seed=11, options={"task_id": task_id})
                agent.reset(env, info)
                trace = [observation]
                while True:
                    observation, reward, terminated, truncated, info = env.step(agent.act(observation, info))
                    trace.append([observation, reward, terminated, truncated])
                    if terminated or truncated:
                        break
                blob = json.dumps([trace, info["messages"], env.session.dump()], sort_keys=True, default=str)
                digests[f"{key}/{task_id}/{name}"] = hashlib.sha256(blob.encode()).hexdigest()
        env.close()
    return digests


@pytest.mark.parametrize("key", zoo_keys())
def test_two_runs_in_one_process_are_identical(key):
    assert episode_digests([key]) == episode_digests([key])


@pytest.mark.slow
def test_episodes_do_not_depend_on_the_process_hash_seed():
    code = (
        "import json, sys; sys.path.insert(0, '.'); from tests.test_determinism import episode_digests; "
        "from envfactory_gym import zoo_keys; print(json.dumps(episode_digests(zoo_keys(), 2)))"
    )
    runs = []
    for hash_seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            cwd=os.path.dirname(os.path.dirname(__file__)),
        )
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    differing = sorted(k for k in runs[0] if runs[0][k] != runs[1].get(k))
    assert not differing and len(runs[0]) >= 4 * len(zoo_keys())
