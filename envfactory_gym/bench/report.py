"""Benchmark reports: `report.md`, a self-contained `report.html` and `metrics.json` with the run's settings, the
tables (overall, per domain, per env; baselines beside the model), cost and speed, failure analysis and the
per-task table (also `per_task.csv`/`.parquet`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Sequence

from . import page
from .failures import format_error_examples, stop_points, tool_error_classes
from .metrics import Summary, summarize
from .pertask import task_rows, write_per_task
from .plots import write_plots
from .prices import Price
from .records import EpisodeRecord
from .runner import BASELINES
from .settings import settings_rows

COLUMNS = (
    "agent",
    "group",
    "tasks",
    "episodes",
    "reward",
    "95% CI",
    "R_traj",
    "R_state",
    "P_length",
    "P_format",
    "solved",
    "pass^1",
    "pass^k",
    "pass@k",
    "tool err",
    "format err",
    "turns",
    "calls",
    "tokens",
    "errors",
)
SPEED_COLUMNS = (
    "agent",
    "episodes",
    "prompt tok/ep",
    "completion tok/ep",
    "tokens",
    "cost",
    "cost/episode",
    "call p50",
    "call p95",
    "episode p50",
    "episode p95",
)


def _cells(s: Summary) -> list[str]:
    k = max(s.pass_hat)
    return [
        s.agent,
        s.group,
        str(s.tasks),
        str(s.episodes),
        f"{s.reward:.3f}",
        f"{s.reward_low:.3f}-{s.reward_high:.3f}",
        f"{s.components['trajectory']:.3f}",
        f"{s.components['state']:.3f}",
        f"{s.components['length_penalty']:.3f}",
        f"{s.components['format_penalty']:.3f}",
        f"{s.solved:.3f}",
        f"{s.pass_hat[1]:.3f}",
        f"{s.pass_hat[k]:.3f} (k={k})",
        f"{s.pass_at[k]:.3f} (k={k})",
        f"{s.tool_error_rate:.1%}",
        f"{s.format_error_rate:.1%}",
        f"{s.turns:.1f}",
        f"{s.calls:.1f}",
        f"{s.tokens:,.0f}",
        str(s.errors),
    ]


def money(value: float | None) -> str:
    """Dollars, or `-` when unknown."""
    if value is None:
        return "-"
    return f"${value:,.4f}" if value < 1 else f"${value:,.2f}"


def seconds(value: float | None) -> str:
    """Seconds, or `-` when nothing was timed."""
    return "-" if value is None else f"{value:.2f} s"


def _speed_cells(s: Summary) -> list[str]:
    return [
        s.agent,
        str(s.episodes),
        f"{s.prompt_tokens:,.0f}",
        f"{s.completion_tokens:,.0f}",
        f"{(s.prompt_tokens + s.completion_tokens) * s.episodes:,.0f}",
        money(s.cost),
        money(s.cost / s.episodes if s.cost is not None else None),
        seconds(s.call_latency_median),
        seconds(s.call_latency_p95),
        seconds(s.episode_seconds_median),
        seconds(s.episode_seconds_p95),
    ]


def md_table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A GitHub Markdown table (pipes and line breaks in cells escaped)."""
    clean = lambda cell: str(cell).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(clean(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def anchor_classes(agents: Iterable[str]) -> list[str]:
    """Row classes: `anchor` for the baseline agents."""
    return ["anchor" if agent in BASELINES else "" for agent in agents]


def markdown_table(summaries: Iterable[Summary]) -> str:
    """The summaries as a GitHub Markdown table."""
    return md_table(COLUMNS, (_cells(s) for s in summaries))


def html_table(summaries: Iterable[Summary]) -> str:
    """The summaries as a sortable HTML table, the baselines marked as anchors."""
    summaries = list(summaries)
    return page.table(
        COLUMNS, [_cells(s) for s in summaries], row_classes=anchor_classes(s.agent for s in summaries), text_columns=2
    )


SECTIONS = (("Overall", "all"), ("Per domain", "domain"), ("Per environment", "env"))
NOTES = (
    "reward: mean over tasks of the composite reward (95% bootstrap interval over tasks). solved: every "
    "ground-truth call matched and the final state as expected. pass^k: all k samples of a task solved; "
    "pass@k: at least one (unbiased estimators over the samples run). tool err: failed calls / calls; "
    "format err: unparsable calls / attempted calls; turns, calls, tokens: per episode; errors: episodes that "
    "ended in an error (scored 0). The baseline agents (reference, random, noop; in grey in the HTML report) "
    "anchor every table."
)
SPEED_NOTES = (
    "Tokens as the endpoint reported them, per episode. cost: all episodes of the run at the price in the "
    "settings. call p50/p95: seconds per answered model call (median, 95th percentile); episode p50/p95: "
    "wall time per episode."
)
STOP_NOTES = (
    "completed: every turn of the task played; step limit: cut at --max-steps; refused: the endpoint "
    "refused a request (scored 0); cut short: endpoint down or timeout (played again on resume). stopped "
    "in: the turn reached by episodes that did not complete (turn/turns of the task); first missed turn: "
    "for completed but unsolved episodes, the first turn whose own score was below 1."
)
STOP_COLUMNS = (
    "agent",
    "group",
    "episodes",
    "completed",
    "step limit",
    "refused",
    "cut short",
    "stopped in",
    "first missed turn",
)


def _counts(counter: Any) -> str:
    return ", ".join(f"{key}: {value}" for key, value in sorted(counter.items())) or "-"


def _stop_cells(stop: Any) -> list[str]:
    return [
        stop.agent,
        stop.group,
        str(stop.episodes),
        *(str(stop.reasons.get(r, 0)) for r in ("completed", "step limit", "refused", "cut short")),
        _counts(stop.stopped_in),
        _counts(stop.first_missed),
    ]


def _failure_sections(records: list[EpisodeRecord], agents: list[str]) -> tuple[list[str], str, dict[str, Any]]:
    """The failure analysis as Markdown lines, HTML and JSON data."""
    model_first = [a for a in agents if a not in BASELINES] + [a for a in agents if a in BASELINES]
    stops = {by: stop_points(records, by) for by in ("all", "env")}
    classes = tool_error_classes(records, model_first)
    examples = format_error_examples(records)
    class_headers = ("environment", "error class", *model_first, "tools failing most", "example")
    class_rows = [
        [
            env,
            entry.name,
            *(entry.counts.get(a, 0) for a in model_first),
            ", ".join(f"{tool} ({n})" for tool, n in entry.tools.most_common(3)),
            entry.example,
        ]
        for env, entries in classes.items()
        for entry in entries[:5]
    ]
    example_headers = ("agent", "environment", "task", "sample", "the model wrote", "the environment answered")
    example_rows = [
        [e["agent"], e["env_id"], e["task_id"], e["sample"], e["text"] or "(empty)", e["error"]] for e in examples
    ]
    markdown = [
        "## Failure analysis",
        "",
        "### Where episodes stopped",
        "",
        STOP_NOTES,
        "",
        md_table(STOP_COLUMNS, [_stop_cells(s) for s in stops["all"]]),
        "",
        md_table(STOP_COLUMNS, [_stop_cells(s) for s in stops["env"]]),
        "",
        "### Tool errors per environment",
        "",
        "Failed calls by error class (the five most frequent per environment), per agent.",
        "",
        md_table(class_headers, class_rows) if class_rows else "No tool call failed.",
        "",
        "### Unparsable calls",
        "",
    ]
    markdown += [md_table(example_headers, example_rows) if examples else "No unparsable call.", ""]
    stop_rows = stops["all"] + stops["env"]
    example_html = (
        page.table(
            example_headers, example_rows, text_columns=3, row_classes=anchor_classes(e["agent"] for e in examples)
        )
        if examples
        else ""
    )
    html = (
        f"<h3>Where episodes stopped</h3><p class=note>{page.esc(STOP_NOTES)}</p>"
        + page.table(
            STOP_COLUMNS,
            [_stop_cells(s) for s in stop_rows],
            text_columns=2,
            row_classes=anchor_classes(s.agent for s in stop_rows),
        )
        + "<h3>Tool errors per environment</h3><p class=note>Failed calls by error class (the five most frequent "
        "per environment), per agent.</p>"
        + (page.table(class_headers, class_rows, text_columns=2) if class_rows else "<p>No tool call failed.</p>")
        + "<h3>Unparsable calls</h3>"
        + (example_html or "<p>No unparsable call.</p>")
    )
    data = {
        "stops": {by: [s.as_dict() for s in table] for by, table in stops.items()},
        "tool_errors": {env: [e.as_dict() for e in entries] for env, entries in classes.items()},
        "format_error_examples": examples,
    }
    return markdown, html, data


PER_TASK_COLUMNS = (
    "task",
    "agent",
    "samples",
    "reward",
    "R_traj",
    "R_state",
    "penalties",
    "solved",
    "calls",
    "tokens",
    "ended",
)


def _per_task_html(records: list[EpisodeRecord]) -> str:
    """One collapsible, sortable table per environment: each task's rows, one per agent."""
    parts = []
    for env, rows in task_rows(records).items():
        cells = [
            [
                r["task_id"],
                r["agent"],
                " ".join(f"{v:.2f}" for v in r["samples"]),
                f"{r['reward']:.3f}",
                f"{r['trajectory']:.3f}",
                f"{r['state']:.3f}",
                f"{r['penalties']:.3f}",
                f"{r['solved']}/{r['k']}",
                f"{r['calls']:.1f}",
                f"{r['tokens']:,.0f}",
                r["stop"],
            ]
            for r in rows
        ]
        tasks = len({r["task_id"] for r in rows})
        parts.append(
            f"<details><summary>{page.esc(env)} ({tasks} tasks)</summary>"
            + page.table(PER_TASK_COLUMNS, cells, text_columns=3, row_classes=anchor_classes(r["agent"] for r in rows))
            + "</details>"
        )
    return (
        "<p class=note>Each task's samples, one row per agent; click a column to sort. The same table, one row "
        "per episode, is in per_task.csv (and per_task.parquet).</p>" + "".join(parts)
    )


def write_report(
    folder: Path,
    records: list[EpisodeRecord],
    title: str,
    settings: dict[str, Any] | None = None,
    prices: dict[str, Price] | None = None,
) -> dict[str, Path]:
    """Write `report.md`, `report.html` (self-contained: plots embedded, no network), `metrics.json`, the plots and
    the per-task files into `folder`; returns their paths. `settings` (`run_settings`) head the reports; `prices`
    give the cost of an agent's tokens."""
    folder = Path(folder)
    prices = prices or {}
    tables = {by: summarize(records, by, prices) for _, by in SECTIONS}  # type: ignore[arg-type]
    plots = write_plots(folder, tables)
    agents = [s.agent for s in tables["all"]]
    rows = settings_rows(settings, prices) if settings else []
    markdown = [f"# {title}", ""]
    sections: list[tuple[str, str, str]] = []
    if rows:
        markdown += ["## Settings", "", md_table(("setting", "value"), rows), ""]
        sections.append(("settings", "Settings", page.settings_list(rows)))
    markdown += [NOTES, ""]
    for heading, by in SECTIONS:
        markdown += [f"## {heading}", "", markdown_table(tables[by]), ""]
        intro = f"<p class=note>{page.esc(NOTES)}</p>" if by == "all" else ""
        sections.append((by, heading, intro + html_table(tables[by])))
        if by == "all":
            speed = [_speed_cells(s) for s in tables["all"]]
            markdown += ["## Cost and speed", "", SPEED_NOTES, "", md_table(SPEED_COLUMNS, speed), ""]
            sections.append(
                (
                    "speed",
                    "Cost and speed",
                    f"<p class=note>{page.esc(SPEED_NOTES)}</p>"
                    + page.table(SPEED_COLUMNS, speed, row_classes=anchor_classes(agents)),
                )
            )
    if plots:
        markdown += ["## Plots", ""] + [f"![{name}]({path.name})\n" for name, path in plots.items()]
        sections.append(
            (
                "plots",
                "Plots",
                '<div class="plots">' + "".join(page.figure(path, name) for name, path in plots.items()) + "</div>",
            )
        )
    failure_md, failure_html, failures = _failure_sections(records, agents)
    markdown += failure_md
    sections.append(("failures", "Failure analysis", failure_html))
    data_files = write_per_task(folder, records)
    markdown += ["## Per task", "", "One row per episode: " + ", ".join(p.name for p in data_files.values()) + ".", ""]
    sections.append(("tasks", "Per task", _per_task_html(records)))
    paths = {"markdown": folder / "report.md", "html": folder / "report.html", "metrics": folder / "metrics.json"}
    paths["markdown"].write_text("\n".join(markdown), encoding="utf-8")
    paths["html"].write_text(page.document(title, sections), encoding="utf-8")
    metrics: dict[str, Any] = {
        "settings": settings,
        "prices": {a: p.as_dict() for a, p in prices.items()},
        **{by: [s.as_dict() for s in tables[by]] for by in tables},
        "failures": failures,
    }
    paths["metrics"].write_text(json.dumps(metrics, indent=1, default=list))
    return {**paths, **plots, **data_files}
