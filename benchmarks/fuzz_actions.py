"""Fuzz `ToolUseEnv.step` with hostile model output over the zoo: crashes (target 0), broken invariants, format-error
rate and throughput.

Run from the repository root: `.venv/bin/python benchmarks/fuzz_actions.py [--actions 100000] [--seed 0]
[--envs notion slack] [--tasks-per-env 3] [--workers 1] [--json out.json]`. The actions come from
`tests/hostile.py` (the generator of the property tests): nesting up to 20,000 levels, NaN/Infinity and
5,000-digit numbers, unpaired surrogates, control characters, tool-call floods, wrong types at every depth.
Environments are fuzzed round-robin (split between `--workers` processes); episodes run with the default
`max_steps` and restart on one of `--tasks-per-env` tasks when they end. A crash is an exception out of `step`;
its action is saved under `--crash-dir` to replay.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import Manager
from pathlib import Path
from queue import Empty
from random import Random
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the shared generator lives in tests/

from envfactory_gym import ToolUseEnv, resolve, zoo_keys  # noqa: E402
from tests.hostile import KINDS, assert_step_invariants, hostile_action  # noqa: E402


def fuzz_envs(
    keys: list[str], actions: int, seed: int, tasks_per_env: int, crash_dir: str, ticks: Any = None
) -> tuple[Counter, Counter]:
    """Step `actions` hostile actions round-robin over the environments `keys`; returns (counts, seconds inside
    step by path). Puts the number of actions done on `ticks` every 100 actions (for the progress bar)."""
    specs = [resolve(key) for key in keys]
    rng = Random(seed)
    envs = [ToolUseEnv(spec) for spec in specs]
    tasks = [env.task_ids[:tasks_per_env] for env in envs]
    infos = [env.reset(options={"task_id": rng.choice(ids)})[1] for env, ids in zip(envs, tasks)]
    counts: Counter[str] = Counter()
    seconds: Counter[str] = Counter()  # time inside step: actions that stayed in the turn, ended it, crashed
    for index in range(actions):
        slot = index % len(envs)
        env, spec = envs[slot], specs[slot]
        action = hostile_action(rng, spec)
        before = infos[slot]["format_errors"]
        tick = time.perf_counter()
        try:
            result = env.step(action)
        except Exception:
            seconds["crash"] += time.perf_counter() - tick
            counts["crashes"] += 1
            Path(crash_dir).mkdir(parents=True, exist_ok=True)
            (Path(crash_dir) / f"crash-{spec.key}-{seed}-{index}.json").write_text(
                json.dumps(
                    {
                        "env": spec.key,
                        "task_id": env.task.id if env.task else None,
                        "action": action,
                        "traceback": traceback.format_exc(),
                    },
                    ensure_ascii=True,
                )
            )
            infos[slot] = env.reset(options={"task_id": rng.choice(tasks[slot])})[1]
            continue
        elapsed = time.perf_counter() - tick
        counts["actions"] += 1
        counts["characters"] += len(action)
        try:
            assert_step_invariants(env, action, before, result)
        except AssertionError:
            counts["invariant_violations"] += 1
        info = result[4]
        counts["format_error_actions"] += info["format_errors"] > before
        counts["format_errors"] += info["format_errors"] - before
        counts["too_long"] += len(action) > env.action_space.max_length
        path = "turn_end" if "turn_reward" in info else "in_turn"
        counts[path] += 1
        seconds[path] += elapsed
        if result[2] or result[3]:
            counts["episodes"] += 1
            info = env.reset(options={"task_id": rng.choice(tasks[slot])})[1]
        infos[slot] = info
        if ticks is not None and index % 100 == 99:
            ticks.put(100)
    for env in envs:
        env.close()
    if ticks is not None:
        ticks.put(actions % 100)
    return counts, seconds


def fuzz(args: argparse.Namespace, console: Console) -> dict:
    """Run the fuzz over `args.workers` processes (environments split between them); returns counts and rates."""
    keys = [resolve(name).key for name in args.envs] or zoo_keys()
    workers = max(1, min(args.workers, len(keys)))
    groups = [keys[i::workers] for i in range(workers)]
    shares = [args.actions * len(group) // len(keys) for group in groups]
    shares[0] += args.actions - sum(shares)
    counts: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    started = time.perf_counter()
    columns = (TextColumn("fuzz"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress, Manager() as manager, ProcessPoolExecutor(workers) as pool:
        job = progress.add_task("fuzz", total=args.actions)
        ticks = manager.Queue()
        futures = [
            pool.submit(fuzz_envs, group, share, args.seed * 1000 + index, args.tasks_per_env, args.crash_dir, ticks)
            for index, (group, share) in enumerate(zip(groups, shares))
        ]
        while not all(future.done() for future in futures) or not ticks.empty():
            try:
                progress.advance(job, ticks.get(timeout=0.5))
            except Empty:
                pass
        for future in futures:
            part_counts, part_seconds = future.result()
            counts.update(part_counts)
            seconds.update(part_seconds)
    wall = time.perf_counter() - started
    done = max(1, counts["actions"])
    stepped = counts["actions"] + counts["crashes"]
    return {
        "actions": stepped,
        "environments": len(keys),
        "workers": workers,
        "seed": args.seed,
        "crashes": counts["crashes"],
        "invariant_violations": counts["invariant_violations"],
        "format_error_rate": counts["format_error_actions"] / done,
        "format_errors_per_action": counts["format_errors"] / done,
        "too_long_rate": counts["too_long"] / done,
        "turn_end_rate": counts["turn_end"] / done,
        "episodes_finished": counts["episodes"],
        "mean_action_chars": counts["characters"] / done,
        "actions_per_s_inside_step": stepped / total if (total := sum(seconds.values())) else 0.0,
        "step_mean_us_in_turn": seconds["in_turn"] / max(1, counts["in_turn"]) * 1e6,
        "step_mean_us_turn_end": seconds["turn_end"] / max(1, counts["turn_end"]) * 1e6,
        "actions_per_wall_s": stepped / wall,
        "wall_s": wall,
        "kinds": KINDS,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", nargs="*", default=[], help="environments (default: the whole zoo)")
    parser.add_argument("--tasks-per-env", type=int, default=3, help="tasks each env's episodes restart on")
    parser.add_argument("--workers", type=int, default=1, help="processes (the environments are split between them)")
    parser.add_argument("--crash-dir", default="runs/fuzz_crashes", help="where crashing actions are saved")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    console = Console(stderr=True)
    results = fuzz(args, console)
    table = Table(title=f"fuzz_actions: {results['actions']:,} hostile actions over {results['environments']} envs")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for name, value in results.items():
        if name != "kinds":
            table.add_row(name, f"{value:,.4f}" if isinstance(value, float) else f"{value:,}")
    Console().print(table)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    return 1 if results["crashes"] or results["invariant_violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
