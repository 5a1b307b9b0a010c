"""A leaderboard of several runs: one row per model (reward and pass^1 with their 95% intervals, pass^k, pass@k,
per-domain reward, errors, tokens, cost, latency), ranked by reward, the baselines as anchors; Markdown and a
self-contained HTML page."""

from __future__ import annotations

from pathlib import Path

from . import page
from .compare import LoadedRun
from .metrics import Summary, summarize
from .prices import Price
from .report import anchor_classes, md_table, money, seconds
from .runner import BASELINES
from .settings import agent_prices


def _row(run: LoadedRun | None, s: Summary, domains: list[str], by_domain: dict[str, Summary]) -> list[str]:
    k = max(s.pass_hat)
    settings = run.settings if run else {}
    thinking = settings.get("thinking")
    return [
        s.agent,
        str(settings.get("tool_format", "-")) if run else "-",
        "-" if not run else "default" if thinking is None else "on" if thinking else "off",
        str(s.tasks),
        f"{s.reward:.3f}",
        f"{s.reward_low:.3f}-{s.reward_high:.3f}",
        f"{s.pass_hat[1]:.3f}",
        f"{s.pass1_low:.3f}-{s.pass1_high:.3f}",
        f"{s.pass_hat[k]:.3f} (k={k})",
        f"{s.pass_at[k]:.3f} (k={k})",
        *(f"{by_domain[d].reward:.3f}" if d in by_domain else "-" for d in domains),
        f"{s.tool_error_rate:.1%}",
        f"{s.format_error_rate:.1%}",
        f"{s.prompt_tokens:,.0f}",
        f"{s.completion_tokens:,.0f}",
        money(s.cost / s.episodes if s.cost is not None else None),
        seconds(s.call_latency_median),
        f"{settings.get('wall_seconds', 0.0):,.0f} s" if run else "-",
    ]


def leaderboard(
    runs: list[LoadedRun], table: dict[str, tuple[float, float]], given: Price | None = None
) -> tuple[list[str], list[list[str]], list[str]]:
    """Headers, rows (models ranked by mean reward, then the baselines of the first run that has them) and each
    row's agent."""
    entries: list[tuple[LoadedRun | None, Summary, dict[str, Summary]]] = []
    anchors: dict[str, tuple[Summary, dict[str, Summary]]] = {}
    for run in runs:
        prices = agent_prices(run.settings, table, given)
        overall = {s.agent: s for s in summarize(run.records, "all", prices)}
        domains: dict[str, dict[str, Summary]] = {}
        for s in summarize(run.records, "domain", prices):
            domains.setdefault(s.agent, {})[s.group] = s
        if run.agent in overall and run.agent not in BASELINES:
            entries.append((run, overall[run.agent], domains.get(run.agent, {})))
        for name in BASELINES:
            if name in overall and name not in anchors:
                anchors[name] = (overall[name], domains.get(name, {}))
    entries.sort(key=lambda entry: -entry[1].reward)
    entries += [(None, s, d) for s, d in anchors.values()]
    domain_names = sorted({d for _, _, by_domain in entries for d in by_domain})
    headers = [
        "rank",
        "model",
        "tool format",
        "thinking",
        "tasks",
        "reward",
        "95% CI",
        "pass^1",
        "pass^1 95% CI",
        "pass^k",
        "pass@k",
        *domain_names,
        "tool err",
        "format err",
        "prompt tok/ep",
        "completion tok/ep",
        "cost/episode",
        "call p50",
        "wall time",
    ]
    rows = []
    for index, (ranked, summary, by_domain) in enumerate(entries):
        rank = str(index + 1) if ranked is not None else "baseline"
        rows.append([rank, *_row(ranked, summary, domain_names, by_domain)])
    return headers, rows, [summary.agent for _, summary, _ in entries]


NOTES = (
    "One row per run's model, ranked by mean reward over tasks (95% bootstrap interval over tasks); pass^1 "
    "with its interval; pass^k / pass@k at the run's k; per-domain columns: mean reward. cost/episode: "
    "dollars per episode at the run's price; call p50: median seconds per model call. Baselines (grey) "
    "anchor the table."
)


def write_leaderboard(
    folder: Path,
    headers: list[str],
    rows: list[list[str]],
    agents: list[str],
    runs: list[LoadedRun],
    warnings: list[str],
) -> dict[str, Path]:
    """`leaderboard.md` and a self-contained `leaderboard.html` in `folder`; returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    sources = [f"{run.agent}: {run.path}" for run in runs]
    caution = [f"warning: {w}" for w in warnings]
    markdown = [
        "# envfactory leaderboard",
        "",
        NOTES,
        "",
        md_table(headers, rows),
        "",
        "Runs: " + "; ".join(sources),
        *([""] + caution if caution else []),
        "",
    ]
    body: list[tuple[str, str, str]] = [
        (
            "board",
            "Leaderboard",
            f"<p class=note>{page.esc(NOTES)}</p>"
            + page.table(headers, rows, row_classes=anchor_classes(agents), text_columns=4)
            + "".join(f"<p class=note>{page.esc(line)}</p>" for line in caution),
        ),
        ("runs", "Runs", "<ul>" + "".join(f"<li>{page.esc(line)}</li>" for line in sources) + "</ul>"),
    ]
    paths = {"markdown": folder / "leaderboard.md", "html": folder / "leaderboard.html"}
    paths["markdown"].write_text("\n".join(markdown), encoding="utf-8")
    paths["html"].write_text(page.document("envfactory leaderboard", body), encoding="utf-8")
    return paths
