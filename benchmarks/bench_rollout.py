"""Rollout throughput with a zero-latency policy (pure environment overhead) and memory per live env.

Compares gymnasium's sync and async vector envs, the asyncio rollout engine (thread pool) and the Ray backend
at 1..N workers, and prints each one's scaling against its own 1-worker run.

    .venv/bin/python benchmarks/bench_rollout.py --env notion --episodes 200 --workers 1,2,4
"""

from __future__ import annotations

import argparse
import json
import time
from contextlib import closing
from typing import Callable

import gymnasium as gym
import numpy as np

import envfactory_gym
from envfactory_gym import ToolUseEnv, resolve
from envfactory_gym.rollout import GroundTruthPolicy, expand_tasks, rollout


def rss_mib() -> float:
    """Resident memory of this process."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 / 2**20


def vector(env: str, mode: str, workers: int, episodes: int, policy: GroundTruthPolicy) -> tuple[int, int, float]:
    """`workers` envs in one `gym.make_vec`; (episodes, agent steps, seconds) until `episodes` have ended."""
    with closing(gym.make_vec(resolve(env).env_id, num_envs=workers, vectorization_mode=mode)) as envs:
        _, infos = envs.reset(seed=list(range(workers)))
        done, steps, resetting = 0, 0, np.zeros(workers, dtype=bool)
        start = time.perf_counter()
        while done < episodes:
            actions = tuple(policy.act(list(infos["messages"][i])) for i in range(workers))
            _, _, terminated, truncated, infos = envs.step(actions)
            steps += int((~resetting).sum())  # a NEXT_STEP autoreset step only resets
            resetting = terminated | truncated
            done += int(resetting.sum())
        return done, steps, time.perf_counter() - start


def engine(env: str, backend: str, workers: int, episodes: int, policy: GroundTruthPolicy) -> tuple[int, int, float]:
    """`episodes` episodes through `rollout` with 16 episodes in flight per worker."""
    refs = expand_tasks([env])
    tasks = [refs[i % len(refs)] for i in range(episodes)]
    rollout(policy, tasks[: 2 * workers], backend=backend, workers=workers)  # start workers, fill caches
    start = time.perf_counter()
    trajectories = rollout(policy, tasks, concurrency=16 * workers, backend=backend, workers=workers)
    seconds = time.perf_counter() - start
    assert all(t.ok and t.reward == 1.0 for t in trajectories), [t.error for t in trajectories if t.error][:3]
    return len(trajectories), sum(t.steps for t in trajectories), seconds


def memory_per_env(env: str, count: int = 200) -> float:
    """MiB of resident memory per live env (built and reset on its first task)."""
    task_id = ToolUseEnv(env).task_ids[0]
    before = rss_mib()
    envs = [ToolUseEnv(env) for _ in range(count)]
    for e in envs:
        e.reset(options={"task_id": task_id})
    used = (rss_mib() - before) / count
    for e in envs:
        e.close()
    return used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="notion")
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--workers", default="1,2,4", help="comma-separated worker counts")
    parser.add_argument("--modes", default="sync,async,engine,ray")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    policy = GroundTruthPolicy([args.env])
    runners: dict[str, Callable[[int], tuple[int, int, float]]] = {
        "sync": lambda n: vector(args.env, "sync", n, args.episodes, policy),
        "async": lambda n: vector(args.env, "async", n, args.episodes, policy),
        "engine": lambda n: engine(args.env, "local", n, args.episodes, policy),
        "ray": lambda n: engine(args.env, "ray", n, args.episodes, policy),
    }
    modes = args.modes.split(",")
    if "ray" in modes:
        import ray

        ray.init(num_cpus=max(workers), include_dashboard=False, log_to_driver=False)

    print(f"env={args.env} episodes={args.episodes} envfactory-gym {envfactory_gym.__version__}")
    print(f"{'mode':8} {'workers':>7} {'episodes/s':>11} {'steps/s':>9} {'scaling':>8}")
    results = []
    for mode in modes:
        base = None
        for n in workers:
            done, steps, seconds = runners[mode](n)
            rate = done / seconds
            base = base or rate
            results.append({"mode": mode, "workers": n, "episodes_per_s": rate, "steps_per_s": steps / seconds})
            print(f"{mode:8} {n:>7} {rate:>11.1f} {steps / seconds:>9.1f} {rate / base:>7.2f}x", flush=True)
    memory = memory_per_env(args.env)
    print(f"memory per live env: {memory:.2f} MiB")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"env": args.env, "results": results, "memory_per_env_mib": memory}, out, indent=2)


if __name__ == "__main__":
    main()
