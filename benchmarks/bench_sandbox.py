"""Cost of isolation: importing external environments and stepping them in the sandbox vs in-process.

Run: `.venv/bin/python benchmarks/bench_sandbox.py [--episodes 3] [--json out.json]`.
For each adapter fixture (envfactory's Ledger, EnvScaler's pantry) it times `load_environment(..., isolate=True)`
(the worker's start, converting the environment and describing it) and the same import in-process, then plays the
reference agent over every task through `ToolUseEnv` both ways and reports the mean time of one `env.step`.
Targets (issue 20): <= 5 s per isolated import, <= 50 ms per isolated step. Also the start of a bare worker and the
round trip of an empty call. Numbers from one run, on one machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from envfactory_gym.adapters import ImportOptions, adapter, load_environment
from envfactory_gym.agents import ReferenceAgent, run_episode
from envfactory_gym.env import ToolUseEnv
from envfactory_gym.sandbox import Worker

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "adapters" / "fixtures"
CASES = {
    "envfactory": (FIXTURES / "envfactory", ImportOptions(tasks=str(FIXTURES / "envfactory" / "rl_rows.json"))),
    "envscaler": (
        FIXTURES / "envscaler" / "env_items.json",
        ImportOptions(
            tasks=str(FIXTURES / "envscaler" / "task_items.json"),
            solutions=str(FIXTURES / "envscaler" / "solutions.jsonl"),
        ),
    ),
}


def timed_import(fmt: str, path: Path, options: ImportOptions, folder: Path, isolate: bool):
    key = adapter(fmt).discover(path, options)[0]
    started = time.perf_counter()
    spec = load_environment(fmt, path, key, f"bench-{fmt}", folder, options, isolate=isolate)
    return spec, time.perf_counter() - started


def step_time(spec, episodes: int) -> tuple[float, int]:
    """Mean seconds per env.step over the reference agent's episodes of every task, and the step count."""
    env = ToolUseEnv(spec)
    steps, elapsed = 0, 0.0
    for _ in range(episodes):
        for task_id in env.task_ids:
            started = time.perf_counter()
            result = run_episode(env, ReferenceAgent(), seed=0, task_id=task_id)
            elapsed += time.perf_counter() - started
            steps += result["steps"]
    env.close()
    return elapsed / max(steps, 1), steps


def bare_worker() -> dict[str, float]:
    started = time.perf_counter()
    with Worker(files={"echo.py": "def main(payload):\n    return payload\n"}, preload=()) as worker:
        first = worker.call("echo.py:main", 0)
        start = time.perf_counter() - started
        rounds = []
        for i in range(200):
            began = time.perf_counter()
            worker.call("echo.py:main", i)
            rounds.append(time.perf_counter() - began)
    assert first.ok, first.reason
    return {"worker_start_s": start, "empty_call_ms": statistics.median(rounds) * 1e3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    report: dict[str, object] = {"bare": bare_worker(), "isolation": Worker().isolation}
    print(f"sandbox: {report['isolation']}")
    print(
        f"bare worker: start {report['bare']['worker_start_s']:.2f} s, empty call "
        f"{report['bare']['empty_call_ms']:.2f} ms (median of 200)"
    )
    print(
        f"{'format':<12}{'import isolated':>17}{'in-process':>12}{'step isolated':>15}{'in-process':>12}{'ratio':>8}"
        f"{'steps':>7}"
    )
    with tempfile.TemporaryDirectory() as root:
        for fmt, (path, options) in CASES.items():
            isolated, import_isolated = timed_import(fmt, path, options, Path(root) / f"{fmt}-iso", True)
            local, import_local = timed_import(fmt, path, options, Path(root) / f"{fmt}-local", False)
            step_isolated, steps = step_time(isolated, args.episodes)
            step_local, _ = step_time(local, args.episodes)
            report[fmt] = {
                "import_isolated_s": import_isolated,
                "import_in_process_s": import_local,
                "step_isolated_ms": step_isolated * 1e3,
                "step_in_process_ms": step_local * 1e3,
                "steps": steps,
            }
            print(
                f"{fmt:<12}{import_isolated:>15.2f} s{import_local:>10.2f} s{step_isolated * 1e3:>12.2f} ms"
                f"{step_local * 1e3:>9.2f} ms{step_isolated / step_local:>7.1f}x{steps:>7}"
            )
            isolated.backend.environment.close()
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
