"""Scoring cost per environment: reset, mid-turn, turn-ending and episode-ending steps beside a full state dump.

    python benchmarks/bench_scoring.py [ENV ...] [--tasks 6] [--out runs/bench_scoring.json]

For every environment (default: the whole zoo) and its first `--tasks` tasks, it plays each task twice:
- `exact`: the ground truth as the reference agent plays it (every turn starts where the task's expected replay
  did, so turn scores come from the cached replay);
- `offpath`: the ground truth with one extra read before each turn's calls (the clock moves, so every turn's
  ground truth is replayed from the turn's start: the cost an RL policy that wanders pays).
It prints per environment the snapshot's rows, reset (warm, and the first reset of a task in the process, which
replays its ground truth and writes it to the on-disk replay cache, and that first reset again once the process has
forgotten its replays and row sources, as a new process would, reading the replay cache; the built snapshot and the
content hash stay in memory: a new process pays for them once, with or without the cache), mid-turn step,
turn-ending and episode-ending steps for both plays (medians, ms) and the time of one full canonical dump of the
same final state, with the ratios dump / turn-ending step. A zoo median row and the largest environment's row close
the table, then the cold / cached first-reset ratio. The replay cache
lives in a fresh temporary folder for the run, so the cold column is truly cold.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import track
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from envfactory_gym import ToolUseEnv, load_zoo_environment, zoo_keys  # noqa: E402
from envfactory_gym.agents import format_call  # noqa: E402
from envfactory_gym.session import ToolSession, snapshot_rows  # noqa: E402
from envfactory_gym.tasks import _REPLAYS  # noqa: E402

MEASURES = (
    "reset",
    "first_reset",
    "first_reset_cached",
    "mid",
    "turn_end",
    "turn_end_offpath",
    "episode_end",
    "episode_end_offpath",
    "dump",
)


def _snapshot_rows(key: str) -> int:
    spec = load_zoo_environment(key)
    session = ToolSession(spec)
    session.reset()
    try:
        return sum(len(rows) for rows in session.dump().values())
    finally:
        session.close()


def _actions(env: ToolUseEnv, task_id: str, offpath: bool) -> list[list[str]]:
    """Each turn's actions: (an extra read,) the ground-truth calls, then a closing message."""
    spec, task = env.spec_env, env.tasks[task_id]
    extra = next(t for t in spec.agent_tools if t.read_only and not t.required_inputs)
    turns = []
    for turn in task.turns:
        calls = [format_call(c.name, c.arguments) for c in turn.agent_calls]
        turns.append(([format_call(extra.name, {})] if offpath else []) + calls + ["Done."])
    return turns


def _play(env: ToolUseEnv, task_id: str, offpath: bool, times: dict[str, list[float]]) -> None:
    env.reset(options={"task_id": task_id})
    for turn in _actions(env, task_id, offpath):
        for action in turn:
            start = time.perf_counter()
            _, _, terminated, truncated, info = env.step(action)
            elapsed = (time.perf_counter() - start) * 1e3
            if terminated or truncated:
                times["episode_end_offpath" if offpath else "episode_end"].append(elapsed)
                return
            if "turn_reward" in info:
                times["turn_end_offpath" if offpath else "turn_end"].append(elapsed)
            elif not offpath:
                times["mid"].append(elapsed)


def _first_resets(key: str, task_ids: list[str], times: list[float]) -> None:
    """Time the first reset of each task in a fresh environment."""
    env = ToolUseEnv(key)
    try:
        for task_id in task_ids:
            start = time.perf_counter()
            env.reset(options={"task_id": task_id})
            times.append((time.perf_counter() - start) * 1e3)
    finally:
        env.close()


def measure(key: str, tasks: int) -> dict[str, Any]:
    """Median costs (ms) of one environment over its first `tasks` tasks."""
    times: dict[str, list[float]] = {m: [] for m in MEASURES}
    env = ToolUseEnv(key)
    try:
        task_ids = env.task_ids[:tasks]
        for task_id in task_ids:  # the first reset of each task replays its ground truth
            start = time.perf_counter()
            env.reset(options={"task_id": task_id})
            times["first_reset"].append((time.perf_counter() - start) * 1e3)
        for task_id in task_ids:
            for _ in range(3):
                start = time.perf_counter()
                env.reset(options={"task_id": task_id})
                times["reset"].append((time.perf_counter() - start) * 1e3)
            _play(env, task_id, offpath=False, times=times)
            start = time.perf_counter()
            env.session.dump()
            times["dump"].append((time.perf_counter() - start) * 1e3)
            _play(env, task_id, offpath=True, times=times)
    finally:
        env.close()
    _REPLAYS.clear()  # forget replays and snapshot row sources as a new process would; the disk cache stays
    snapshot_rows.cache_clear()
    _first_resets(key, task_ids, times["first_reset_cached"])
    row: dict[str, Any] = {"env": key, "rows": _snapshot_rows(key)}
    row.update({m: statistics.median(v) if v else float("nan") for m, v in times.items()})
    row["first_reset_cold_over_cached"] = row["first_reset"] / row["first_reset_cached"]
    row["dump_over_turn_end"] = row["dump"] / row["turn_end"]
    row["dump_over_turn_end_offpath"] = row["dump"] / row["turn_end_offpath"]
    return row


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, write JSON when asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("envs", nargs="*", help="environments (default: the whole zoo)")
    parser.add_argument("--tasks", type=int, default=6, help="tasks per environment")
    parser.add_argument("--out", type=Path, help="write the rows as JSON here")
    args = parser.parse_args(argv)
    keys = args.envs or zoo_keys()
    os.environ["ENVFACTORY_CACHE_DIR"] = cache = tempfile.mkdtemp(prefix="bench-replay-cache-")
    gc.collect()
    try:
        rows = [measure(key, args.tasks) for key in track(keys, description="measuring")]
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    rows.sort(key=lambda r: r["rows"])
    summary = {"env": "zoo median", "rows": statistics.median(r["rows"] for r in rows)}
    for m in (*MEASURES, "first_reset_cold_over_cached", "dump_over_turn_end", "dump_over_turn_end_offpath"):
        summary[m] = statistics.median(r[m] for r in rows)
    table = Table(title="scoring cost (ms, medians)")
    headers = (
        "env",
        "rows",
        "reset",
        "first reset",
        "first reset (cached)",
        "mid-turn",
        "turn end",
        "off-path",
        "episode end",
        "off-path",
        "full dump",
        "dump / turn end",
        "off-path",
    )
    for header in headers:
        table.add_column(header, justify="left" if header == "env" else "right")
    for row in [*rows, summary, max(rows, key=lambda r: r["rows"])]:
        table.add_row(
            row["env"] if row is not summary else "[bold]zoo median[/bold]",
            f"{row['rows']:.0f}",
            *(f"{row[m]:.3f}" for m in MEASURES),
            f"{row['dump_over_turn_end']:.0f}x",
            f"{row['dump_over_turn_end_offpath']:.0f}x",
        )
    console = Console()
    console.print(table)
    console.print(
        f"first reset, cold / cached (zoo median of per-environment ratios): "
        f"{summary['first_reset_cold_over_cached']:.0f}x"
    )
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"rows": rows, "zoo_median": summary}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
