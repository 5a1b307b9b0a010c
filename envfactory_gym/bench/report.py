"""Benchmark reports: Markdown and HTML tables (overall, per domain, per env; baselines beside the model),
`metrics.json`, and a side-by-side comparison of two runs."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Iterable

from .metrics import Summary, summarize
from .plots import write_plots
from .records import EpisodeRecord

COLUMNS = ("agent", "group", "tasks", "episodes", "reward", "95% CI", "R_traj", "R_state", "P_length",
           "P_format", "solved", "pass^1", "pass^k", "pass@k", "tool err", "format err", "turns", "calls", "tokens",
           "errors")


def _cells(s: Summary) -> list[str]:
    k = max(s.pass_hat)
    return [
        s.agent, s.group, str(s.tasks), str(s.episodes), f"{s.reward:.3f}", f"{s.reward_low:.3f}-{s.reward_high:.3f}",
        f"{s.components['trajectory']:.3f}", f"{s.components['state']:.3f}",
        f"{s.components['length_penalty']:.3f}", f"{s.components['format_penalty']:.3f}", f"{s.solved:.3f}",
        f"{s.pass_hat[1]:.3f}", f"{s.pass_hat[k]:.3f} (k={k})", f"{s.pass_at[k]:.3f} (k={k})",
        f"{s.tool_error_rate:.1%}", f"{s.format_error_rate:.1%}", f"{s.turns:.1f}", f"{s.calls:.1f}",
        f"{s.tokens:,.0f}", str(s.errors),
    ]


def markdown_table(summaries: Iterable[Summary]) -> str:
    """The summaries as a GitHub Markdown table."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(_cells(s)) + " |" for s in summaries]
    return "\n".join(lines)


def html_table(summaries: Iterable[Summary]) -> str:
    """The summaries as an HTML table."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in COLUMNS)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in _cells(s)) + "</tr>" for s in summaries)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


SECTIONS = (("Overall", "all"), ("Per domain", "domain"), ("Per environment", "env"))
NOTES = ("reward: mean over tasks of the composite reward (95% bootstrap interval over tasks). solved: every "
         "ground-truth call matched and the final state as expected. pass^k: all k samples of a task solved; "
         "pass@k: at least one (unbiased estimators over the samples run). tool err: failed calls / calls; "
         "format err: unparsable calls / attempted calls; turns, calls, tokens: per episode; errors: episodes that "
         "ended in an error (scored 0).")


def write_report(folder: Path, records: list[EpisodeRecord], title: str) -> dict[str, Path]:
    """Write `report.md`, `report.html`, `metrics.json` and the plots into `folder`; returns their paths."""
    folder = Path(folder)
    tables = {by: summarize(records, by) for _, by in SECTIONS}  # type: ignore[arg-type]
    plots = write_plots(folder, tables)
    markdown = [f"# {title}", "", NOTES, ""]
    page = [f"<h1>{html.escape(title)}</h1>", f"<p>{html.escape(NOTES)}</p>"]
    for heading, by in SECTIONS:
        markdown += [f"## {heading}", "", markdown_table(tables[by]), ""]
        page += [f"<h2>{heading}</h2>", html_table(tables[by])]
    for name, path in plots.items():
        markdown += [f"![{name}]({path.name})", ""]
        page.append(f'<p><img src="{path.name}" alt="{html.escape(name)}"></p>')
    paths = {"markdown": folder / "report.md", "html": folder / "report.html", "metrics": folder / "metrics.json"}
    paths["markdown"].write_text("\n".join(markdown), encoding="utf-8")
    style = "table{border-collapse:collapse;font:13px sans-serif}td,th{border:1px solid #ccc;padding:3px 6px}"
    paths["html"].write_text(f"<!doctype html><meta charset=utf-8><title>{html.escape(title)}</title>"
                             f"<style>{style}</style>" + "".join(page), encoding="utf-8")
    paths["metrics"].write_text(json.dumps({by: [s.as_dict() for s in tables[by]] for by in tables}, indent=1))
    return {**paths, **plots}


def comparison(a: list[Summary], b: list[Summary], name_a: str, name_b: str) -> str:
    """Markdown table of one agent's summaries from two runs, group by group, with the change in mean reward and
    pass^1 (`-` where a run lacks the group)."""
    by_group = ({s.group: s for s in a}, {s.group: s for s in b})
    lines = [f"| group | reward {name_a} | reward {name_b} | change | pass^1 {name_a} | pass^1 {name_b} | change |",
             "|---|---|---|---|---|---|---|"]
    for group in sorted(set(by_group[0]) | set(by_group[1])):
        x, y = (side.get(group) for side in by_group)
        cells = [group]
        for metric in (lambda s: s.reward, lambda s: s.pass_hat[1]):
            va, vb = (metric(s) if s else None for s in (x, y))
            change = f"{vb - va:+.3f}" if va is not None and vb is not None else "-"
            cells += [f"{va:.3f}" if va is not None else "-", f"{vb:.3f}" if vb is not None else "-", change]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
