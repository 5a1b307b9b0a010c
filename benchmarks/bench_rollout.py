"""Rollout throughput and memory per live env.

Two modes:
- zero latency (default): a policy that answers at once (pure environment overhead); compares gymnasium's sync
  and async vector envs, the asyncio rollout engine (threads), its process backend and the Ray backend at 1..N
  workers, each one's scaling against its own 1-worker run.
- `--latency-ms 200`: a policy that waits like a served model before each reply, then plays the ground truth,
  with every task of `--env` played `--group-size` times at `--concurrency` episodes in flight (RL-scale
  rollouts); prints episodes/s and the environment's CPU per step (time the env work held a worker) for the
  thread, process and Ray backends at 1..N workers.

    .venv/bin/python benchmarks/bench_rollout.py --env notion --episodes 200 --workers 1,2,4
    .venv/bin/python benchmarks/bench_rollout.py --env amadeus --latency-ms 200 --concurrency 512 --group-size 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from contextlib import closing
from typing import Callable

import gymnasium as gym
import numpy as np

import envfactory_gym
from envfactory_gym import ToolUseEnv, resolve
from envfactory_gym.rollout import GroundTruthPolicy, arollout, expand_tasks, make_pool, rollout


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


class LatencyPolicy:
    """The ground truth, each reply after `latency` seconds (a served model's response time)."""

    def __init__(self, envs: list[str], latency: float) -> None:
        self.truth = GroundTruthPolicy(envs)
        self.latency = latency

    async def __call__(self, messages: list, tools: list) -> str:
        await asyncio.sleep(self.latency)
        return self.truth.act(messages)


def latency_run(
    env: str, backend: str, workers: int, latency: float, concurrency: int, group_size: int, task_limit: int | None
) -> dict[str, float]:
    """Every task of `env` (the first `task_limit`), `group_size` samples each, through `rollout` with a slow
    policy. The floor is the policy's own time: the longest episode's replies one after another."""
    policy = LatencyPolicy([env], latency)
    refs = expand_tasks([env], split="all")[:task_limit]
    pool = make_pool(backend, workers)  # type: ignore[arg-type]

    async def run() -> tuple[list, float]:
        await arollout(policy, refs[:workers], backend=pool, concurrency=workers)  # start workers, fill caches
        start = time.perf_counter()
        played = await arollout(policy, refs, concurrency=concurrency, group_size=group_size, backend=pool)
        seconds = time.perf_counter() - start
        await pool.aclose()
        return played, seconds

    trajectories, seconds = asyncio.run(run())
    assert all(t.ok and t.reward == 1.0 for t in trajectories), [t.error for t in trajectories if t.error][:3]
    steps = sum(t.steps for t in trajectories)
    env_seconds = sum(t.timings["env_s"] for t in trajectories)
    return {
        "episodes": len(trajectories),
        "seconds": seconds,
        "episodes_per_s": len(trajectories) / seconds,
        "env_ms_per_step": 1e3 * env_seconds / steps,
        "floor_s": latency * max(t.steps for t in trajectories),
    }


def main_latency(args: argparse.Namespace, workers: list[int]) -> None:
    """The latency mode's table."""
    backends = [m for m in args.modes.split(",") if m in ("local", "process", "ray")] or ["local", "process"]
    if "ray" in backends:
        import ray

        ray.init(num_cpus=max(workers), include_dashboard=False, log_to_driver=False)
    print(
        f"env={args.env} latency={args.latency_ms:.0f} ms concurrency={args.concurrency} group_size={args.group_size}"
    )
    print(
        f"{'backend':8} {'workers':>7} {'episodes':>8} {'seconds':>8} {'floor s':>8} {'over floor':>10} "
        f"{'episodes/s':>11} {'env ms/step':>12} {'scaling':>8}"
    )
    results = []
    for backend in backends:
        base = None
        for n in workers:
            row = latency_run(
                args.env, backend, n, args.latency_ms / 1e3, args.concurrency, args.group_size, args.task_limit
            )
            base = base or row["episodes_per_s"]
            results.append({"backend": backend, "workers": n, **row})
            print(
                f"{backend:8} {n:>7} {row['episodes']:>8.0f} {row['seconds']:>8.1f} {row['floor_s']:>8.1f} "
                f"{row['seconds'] - row['floor_s']:>10.1f} {row['episodes_per_s']:>11.1f} "
                f"{row['env_ms_per_step']:>12.2f} {row['episodes_per_s'] / base:>7.2f}x",
                flush=True,
            )
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"env": args.env, "latency_ms": args.latency_ms, "results": results}, out, indent=2)


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
    parser.add_argument(
        "--modes",
        default="sync,async,engine,process,ray",
        help="zero-latency modes; in latency mode the backends among local,process,ray",
    )
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="policy latency: switches to latency mode")
    parser.add_argument("--concurrency", type=int, default=512, help="episodes in flight (latency mode)")
    parser.add_argument("--group-size", type=int, default=8, help="samples per task (latency mode)")
    parser.add_argument(
        "--task-limit", type=int, help="only the first N tasks of --env (latency mode), e.g. an older task set"
    )
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    if args.latency_ms > 0:
        main_latency(args, workers)
        return
    policy = GroundTruthPolicy([args.env])
    runners: dict[str, Callable[[int], tuple[int, int, float]]] = {
        "sync": lambda n: vector(args.env, "sync", n, args.episodes, policy),
        "async": lambda n: vector(args.env, "async", n, args.episodes, policy),
        "engine": lambda n: engine(args.env, "local", n, args.episodes, policy),
        "process": lambda n: engine(args.env, "process", n, args.episodes, policy),
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
