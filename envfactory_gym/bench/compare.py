"""Two runs side by side, with a paired test over the tasks both played: overall, per domain and per environment,
the difference in mean reward, its 95% interval and a permutation p-value, the baselines as anchors."""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .paired import PairedDifference, paired_difference
from .records import EpisodeRecord
from .rundir import RunDirectory
from .runner import BASELINES
from .settings import run_settings

TaskKey = tuple[str, str]


@dataclass
class LoadedRun:
    """A run directory's settings and records (the latest of each episode), and the agent it evaluated (its
    model, or the reference agent for a baselines-only run)."""

    path: Path
    settings: dict[str, Any]
    records: list[EpisodeRecord]
    agent: str


def load_run(path: str | Path) -> LoadedRun:
    """Load a run directory; `ValueError` with a one-line reason when it holds no run."""
    rundir = RunDirectory(path)
    settings = run_settings(rundir)
    records = list({r.key: r for r in rundir.records()}.values())
    return LoadedRun(Path(path), settings, records, settings.get("model") or "reference")


def task_scores(records: list[EpisodeRecord], agent: str) -> dict[TaskKey, tuple[float, float, str, str]]:
    """Per task of `agent`: (mean reward over its samples, share of samples solved, domain, env id)."""
    runs: dict[TaskKey, list[EpisodeRecord]] = defaultdict(list)
    for record in records:
        if record.agent == agent:
            runs[(record.env_id, record.task_id)].append(record)
    return {
        key: (
            statistics.fmean(r.reward for r in rs),
            statistics.fmean(r.solved for r in rs),
            rs[0].domain,
            rs[0].env_id,
        )
        for key, rs in runs.items()
    }


@dataclass
class ComparisonRow:
    """One group of a comparison: the paired difference and, over the same tasks, pass^1 of both sides and the
    mean reward of each baseline (anchors)."""

    test: PairedDifference
    pass1_a: float
    pass1_b: float
    anchors: dict[str, float]


def compare_runs(a: LoadedRun, b: LoadedRun, seed: int = 0) -> dict[str, list[ComparisonRow]]:
    """Overall (`all`), per `domain` and per `env` rows over the tasks both runs' agents played."""
    left, right = task_scores(a.records, a.agent), task_scores(b.records, b.agent)
    anchor_run = a if any(r.agent in BASELINES for r in a.records) else b
    anchors = {name: task_scores(anchor_run.records, name) for name in BASELINES}
    shared = sorted(set(left) & set(right))
    sections: dict[str, list[ComparisonRow]] = {}
    for by in ("all", "domain", "env"):
        groups: dict[str, list[TaskKey]] = defaultdict(list)
        for key in shared:
            groups["all" if by == "all" else left[key][2] if by == "domain" else left[key][3]].append(key)
        rows = []
        for group, keys in sorted(groups.items()):
            test = paired_difference(group, {k: left[k][0] for k in keys}, {k: right[k][0] for k in keys}, seed)
            assert test is not None
            rows.append(
                ComparisonRow(
                    test,
                    statistics.fmean(left[k][1] for k in keys),
                    statistics.fmean(right[k][1] for k in keys),
                    {
                        name: statistics.fmean(scores[k][0] for k in keys)
                        for name, scores in anchors.items()
                        if all(k in scores for k in keys)
                    },
                )
            )
        sections[by] = rows
    return sections


def comparison_table(rows: list[ComparisonRow], name_a: str, name_b: str) -> tuple[list[str], list[list[str]]]:
    """Headers and cells of one section."""
    anchors = list(dict.fromkeys(name for row in rows for name in row.anchors))
    headers = [
        "group",
        "tasks",
        f"reward {name_a}",
        f"reward {name_b}",
        "change",
        "95% CI",
        "p",
        "verdict",
        f"pass^1 {name_a}",
        f"pass^1 {name_b}",
        *anchors,
    ]
    cells = []
    for row in rows:
        t = row.test
        verdict = {"B better": f"{name_b} better", "A better": f"{name_a} better"}.get(t.verdict, t.verdict)
        cells.append(
            [
                t.group,
                str(t.tasks),
                f"{t.mean_a:.3f}",
                f"{t.mean_b:.3f}",
                f"{t.difference:+.3f}",
                f"{t.low:+.3f} to {t.high:+.3f}",
                f"{t.p_value:.3g}",
                verdict,
                f"{row.pass1_a:.3f}",
                f"{row.pass1_b:.3f}",
                *(f"{row.anchors[n]:.3f}" if n in row.anchors else "-" for n in anchors),
            ]
        )
    return headers, cells


NOTES = (
    "change: mean reward of {b} minus {a} over the tasks both played (each task's mean over its samples). "
    "95% CI: paired bootstrap over tasks; p: two-sided sign-flip permutation test of no difference; a verdict "
    "names a side only when the interval excludes 0 and p < 0.05. With many environments, about one in twenty "
    "shows p < 0.05 by chance. The baselines' columns (from {anchor}) are mean rewards over the same tasks."
)
