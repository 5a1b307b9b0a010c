"""Core runtime speed and memory: reset and step latency, against deepcopy restore and an MCP in-memory call.

Run: `.venv/bin/python benchmarks/bench_core.py [--env notion] [--n 2000] [--instances 1000]`.
Prints medians, p99s and ratios measured in this one run.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import gc
import json
import statistics
import time
from pathlib import Path
from typing import Callable

from envfactory_gym import ToolUseEnv, resolve
from envfactory_gym.agents import format_call


def timings(fn: Callable[[], object], n: int, warmup: int = 50) -> list[float]:
    """Seconds per call of `fn`, n samples after a warm-up."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def summary(samples: list[float]) -> tuple[float, float]:
    """(median, p99) in microseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1e6, ordered[int(len(ordered) * 0.99) - 1] * 1e6


def rss_mib() -> float:
    """Resident memory of this process in MiB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def mcp_call_samples(env_name: str, tool: str, arguments: dict, n: int) -> list[float] | None:
    """Per-call seconds of the same tool through a FastMCP in-memory client, if the MCP module is available."""
    try:
        from fastmcp import Client

        from envfactory_gym.mcp import server
    except ImportError:
        return None

    async def run() -> list[float]:
        async with Client(server(env_name)) as client:
            for _ in range(20):
                await client.call_tool(tool, arguments)
            samples = []
            for _ in range(n):
                start = time.perf_counter()
                await client.call_tool(tool, arguments)
                samples.append(time.perf_counter() - start)
            return samples

    return asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--env", default="notion")
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--instances", type=int, default=1000)
    args = parser.parse_args()

    spec = resolve(args.env)
    env = ToolUseEnv(spec)
    task_id = env.task_ids[0]
    env.reset(seed=0, options={"task_id": task_id})
    snapshot_rows = json.loads(spec.snapshot_path(env.task.snapshot).read_text())
    rows = sum(len(v) for v in snapshot_rows["tables"].values())

    reset = summary(timings(lambda: env.reset(options={"task_id": task_id}), args.n))
    restore = summary(timings(lambda: env.session.state.restore(env.session.state.snapshot()), args.n))
    deepcopy = summary(timings(lambda: copy.deepcopy(snapshot_rows), max(200, args.n // 10), warmup=5))

    read_call = next(  # a typical call: a read of one entity by its id, as agents make most often
        c
        for t in env.tasks.values()
        for c in t.agent_calls
        if spec.tools[c.name].read_only and any(k.endswith("_id") for k in c.arguments)
    )
    read_tool, arguments = spec.tools[read_call.name], read_call.arguments
    action = format_call(read_tool.name, arguments)

    def one_step() -> None:
        if env._done or env._steps > 30:
            env.reset(options={"task_id": task_id})
        env.step(action)

    step = summary(timings(one_step, args.n))
    call = summary(timings(lambda: env.session.call(read_tool.name, arguments), args.n))
    mcp = mcp_call_samples(args.env, read_tool.name, arguments, max(200, args.n // 5))

    gc.collect()
    before = rss_mib()
    live = [ToolUseEnv(spec) for _ in range(args.instances)]
    for i, e in enumerate(live):
        e.reset(seed=i)
    gc.collect()
    per_env_kib = (rss_mib() - before) * 1024 / args.instances

    print(f"environment: {spec.env_id}, snapshot rows: {rows}, task: {task_id}, step tool: {read_tool.name}")
    print(f"{'measure':42s} {'median µs':>10s} {'p99 µs':>10s}")
    for name, (median, p99) in [
        ("reset() (restore + first turn)", reset),
        ("  sqlite deserialize alone", restore),
        ("  deepcopy of the same rows", deepcopy),
        ("step() with one tool call", step),
        ("  ToolSession.call alone", call),
    ]:
        print(f"{name:42s} {median:10.1f} {p99:10.1f}")
    print(f"ratio deepcopy / reset():              {deepcopy[0] / reset[0]:8.1f}x (target >= 50x, reset <= 50 µs)")
    print(f"ratio deepcopy / deserialize:          {deepcopy[0] / restore[0]:8.1f}x")
    if mcp is not None:
        m = summary(mcp)
        print(f"{'  FastMCP in-memory call':42s} {m[0]:10.1f} {m[1]:10.1f}")
        print(f"ratio FastMCP in-memory / step():      {m[0] / step[0]:8.1f}x")
    print(
        f"{args.instances} live envs: {per_env_kib:.0f} KiB each, {per_env_kib * args.instances / 1024:.0f} MiB total "
        "(target < 1 GiB)"
    )


if __name__ == "__main__":
    main()
