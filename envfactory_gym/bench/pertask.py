"""The per-task table of a run: one row per episode as CSV (and Parquet, with pyarrow), and one row per agent and
task for the HTML report."""

from __future__ import annotations

import csv
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

from .failures import stop_reason
from .metrics import COMPONENTS
from .records import EpisodeRecord

EPISODE_COLUMNS = (
    "agent",
    "env_id",
    "env",
    "domain",
    "task_id",
    "sample",
    "reward",
    *COMPONENTS,
    "solved",
    "stop",
    "turns",
    "task_turns",
    "steps",
    "tool_calls",
    "tool_errors",
    "format_errors",
    "requests",
    "prompt_tokens",
    "completion_tokens",
    "seconds",
    "call_latency_median",
    "error",
)


def episode_rows(records: Iterable[EpisodeRecord]) -> list[dict[str, Any]]:
    """One row per episode (agent, environment, task, sample order), with the columns of `EPISODE_COLUMNS`."""
    rows = []
    for r in sorted(records, key=lambda r: (r.agent, r.env_id, r.task_id, r.sample)):
        rows.append(
            {
                "agent": r.agent,
                "env_id": r.env_id,
                "env": r.env,
                "domain": r.domain,
                "task_id": r.task_id,
                "sample": r.sample,
                "reward": r.reward,
                **{c: float(r.components.get(c, 0.0)) for c in COMPONENTS},
                "solved": r.solved,
                "stop": stop_reason(r),
                "turns": r.turns,
                "task_turns": r.task_turns,
                "steps": r.steps,
                "tool_calls": r.tool_calls,
                "tool_errors": r.tool_errors,
                "format_errors": r.format_errors,
                "requests": r.requests,
                "prompt_tokens": r.prompt_tokens,
                "completion_tokens": r.completion_tokens,
                "seconds": round(r.seconds, 4),
                "call_latency_median": round(statistics.median(r.call_seconds), 4) if r.call_seconds else None,
                "error": r.error,
            }
        )
    return rows


def write_per_task(folder: Path, records: list[EpisodeRecord]) -> dict[str, Path]:
    """`per_task.csv` and, when pyarrow is installed (the `bench` extra), `per_task.parquet`; returns the paths."""
    rows = episode_rows(records)
    paths = {"per-task CSV": folder / "per_task.csv"}
    with open(paths["per-task CSV"], "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=EPISODE_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return paths
    paths["per-task Parquet"] = folder / "per_task.parquet"
    columns = {name: [row[name] for row in rows] for name in EPISODE_COLUMNS}
    types = {"call_latency_median": pa.float64(), "error": pa.string()}
    table = pa.table({name: pa.array(values, type=types.get(name)) for name, values in columns.items()})
    pq.write_table(table, paths["per-task Parquet"])
    return paths


def task_rows(records: Iterable[EpisodeRecord]) -> dict[str, list[dict[str, Any]]]:
    """Per environment (sorted), one row per task and agent: each sample's reward, the means of the reward and its
    components, how many samples solved it, calls and tokens per episode, and how the episodes ended."""
    grouped: dict[tuple[str, str, str], list[EpisodeRecord]] = defaultdict(list)
    order: dict[str, int] = {}
    for record in records:
        order.setdefault(record.agent, len(order))
        grouped[(record.env_id, record.task_id, record.agent)].append(record)
    by_env: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for env_id, task_id, agent in sorted(grouped, key=lambda key: (key[0], key[1], order[key[2]])):
        runs = sorted(grouped[(env_id, task_id, agent)], key=lambda r: r.sample)
        stops = sorted({stop_reason(r) for r in runs})
        by_env[env_id].append(
            {
                "task_id": task_id,
                "agent": agent,
                "samples": [r.reward for r in runs],
                "reward": statistics.fmean(r.reward for r in runs),
                "trajectory": statistics.fmean(float(r.components.get("trajectory", 0.0)) for r in runs),
                "state": statistics.fmean(float(r.components.get("state", 0.0)) for r in runs),
                "penalties": statistics.fmean(
                    float(r.components.get("length_penalty", 0.0)) + float(r.components.get("format_penalty", 0.0))
                    for r in runs
                ),
                "solved": sum(r.solved for r in runs),
                "k": len(runs),
                "calls": statistics.fmean(r.tool_calls for r in runs),
                "tokens": statistics.fmean(r.prompt_tokens + r.completion_tokens for r in runs),
                "stop": ", ".join(stops),
            }
        )
    return dict(sorted(by_env.items()))
