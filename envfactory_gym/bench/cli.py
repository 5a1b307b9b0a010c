"""`envfactory bench` (evaluate a model and the baselines on the zoo), `envfactory compare` (two runs, with a
paired test) and `envfactory leaderboard` (several runs, one row per model)."""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..cli.args import non_negative_int, positive_int
from ..cli.terminal import console
from ..llm.client import ENV_API_KEY, ENV_BASE_URL, env_value
from . import page
from .compare import NOTES as COMPARE_NOTES
from .compare import compare_runs, comparison_table, load_run
from .leaderboard import leaderboard, write_leaderboard
from .metrics import Summary, summarize
from .prices import Price, load_price_table
from .records import EpisodeRecord
from .report import md_table, write_report
from .rundir import RunDirectory
from .runner import BASELINES, BenchConfig, finished, plan_tasks, run_bench
from .settings import agent_prices, incompatibilities, run_settings


def _price(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must not be negative")
    return value


def _error(message: object) -> int:
    """Print a one-line error; exit status 2."""
    console.print(f"[red]{escape(str(message))}[/red]", soft_wrap=True, highlight=False)
    return 2


def config_from_args(args: argparse.Namespace) -> BenchConfig:
    """The run's configuration from the command line (endpoint and key default to the environment variables)."""
    baselines = tuple(b for b in args.baselines.split(",") if b) if args.baselines != "none" else ()
    unknown = set(baselines) - set(BASELINES)
    if unknown:
        raise SystemExit(f"unknown baselines {sorted(unknown)}: choose from {', '.join(BASELINES)}")
    base_url = args.base_url or env_value(ENV_BASE_URL)
    if args.model and not base_url:
        raise SystemExit("--model needs --base-url (or ENVFACTORY_LLM_BASE_URL)")
    if (args.price_in is None) != (args.price_out is None):
        raise SystemExit("--price-in and --price-out go together (dollars per million prompt / completion tokens)")
    return BenchConfig(
        model=args.model,
        base_url=base_url,
        api_key=args.api_key or env_value(ENV_API_KEY),
        envs=args.envs,
        domains=args.domain,
        split=args.split,
        k=args.k,
        concurrency=args.concurrency,
        user=args.user,
        user_model=args.user_model,
        user_base_url=args.user_base_url,
        tool_format=args.tool_format,
        temperature=args.temperature,
        max_tokens=args.max_tokens,
        thinking=args.thinking,
        max_steps=args.max_steps,
        episode_timeout=args.episode_timeout,
        request_timeout=args.request_timeout,
        request_retries=args.request_retries,
        seed=args.seed,
        baselines=baselines,
        price_in=args.price_in,
        price_out=args.price_out,
    )


def default_run_dir(config: BenchConfig) -> Path:
    """`runs/bench/<model or baselines>-<split>`."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", config.model or "baselines")
    return Path("runs") / "bench" / f"{name}-{config.split}"


class AgentProgress:
    """One progress row per agent: episodes done of its total and the mean reward of its finished episodes, the
    run's stored episodes included (a resumed run, or one refused at the start, shows the run's numbers)."""

    COLUMNS = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("mean reward {task.fields[mean]:.3f}"),
        TextColumn("{task.fields[rate]:.1f} episodes/s"),
        TimeElapsedColumn(),
    )

    def __init__(self, progress: Progress, agents: list[str], per_agent: int, stored: list[EpisodeRecord]) -> None:
        self.progress = progress
        self.started = time.perf_counter()
        self.totals = {agent: [0, 0.0, 0] for agent in agents}  # finished episodes, their reward sum, played now
        for record in finished(stored).values():
            if record.agent in self.totals:
                self.totals[record.agent][0] += 1
                self.totals[record.agent][1] += record.reward
        self.rows = {}
        for agent in agents:
            done, reward, _ = self.totals[agent]
            self.rows[agent] = progress.add_task(
                agent,
                total=per_agent,
                completed=min(int(done), per_agent),
                mean=reward / done if done else 0.0,
                rate=0.0,
            )

    def __call__(self, record: EpisodeRecord) -> None:
        """Count one played episode (an episode cut short counts only when it is played again to its end)."""
        totals = self.totals.get(record.agent)
        if totals is None or not record.finished:
            return
        totals[0] += 1
        totals[1] += record.reward
        totals[2] += 1
        self.progress.update(
            self.rows[record.agent],
            advance=1,
            mean=totals[1] / totals[0],
            rate=totals[2] / (time.perf_counter() - self.started),
        )


def cmd_bench(args: argparse.Namespace) -> int:
    """Run (or resume) a benchmark and write its report. Exit status 1 while transient errors left episodes to
    play again, 2 when the settings or the endpoint are unusable."""
    config = config_from_args(args)
    rundir = RunDirectory(args.run_dir or default_run_dir(config))
    try:
        table = load_price_table(args.price_table)
        per_agent = len(plan_tasks(config)) * config.k
    except ValueError as exc:
        return _error(exc)
    agents = [*config.baselines, *([config.model] if config.model else [])]
    with Progress(*AgentProgress.COLUMNS, console=console) as progress:
        tracker = AgentProgress(progress, agents, per_agent, rundir.records())
        try:
            records = run_bench(config, rundir, tracker)
        except ValueError as exc:
            progress.stop()
            return _error(exc)
    settings = run_settings(rundir)
    given = (
        Price(config.price_in, config.price_out)
        if config.price_in is not None and config.price_out is not None
        else None
    )  # both or neither (parse)
    prices = agent_prices(settings, table, given)
    paths = write_report(
        rundir.path, records, f"envfactory bench: {config.model or 'baselines'} ({config.split})", settings, prices
    )
    summaries = summarize(records, "all", prices)
    console.print(overview(summaries))
    console.print(f"report: {paths['markdown']} and {paths['html']}; episodes in {rundir.path / 'episodes.jsonl'}")
    refused = sum(s.errors - s.transient_errors for s in summaries)
    transient = sum(s.transient_errors for s in summaries)
    if refused:
        console.print(
            f"[yellow]{refused} episodes ended on a request the endpoint refused (e.g. a prompt beyond the "
            "context window); they count as failures.[/yellow]"
        )
    if transient:
        console.print(
            f"[red]{transient} episodes were cut short by the endpoint or a timeout; run the same command "
            "again to play them.[/red]"
        )
        return 1
    return 0


def overview(summaries: list[Summary]) -> Table:
    """The headline numbers per agent, for the terminal (the report has every column)."""
    table = Table(title="envfactory bench")
    for column in (
        "agent",
        "tasks",
        "episodes",
        "reward (95% CI)",
        "R_traj",
        "R_state",
        "pass^1",
        "pass^k",
        "tool err",
        "calls/ep",
        "tokens in/out",
        "cost",
        "call p50",
        "errors",
    ):
        table.add_column(column)
    for s in summaries:
        k = max(s.pass_hat)
        table.add_row(
            s.agent,
            str(s.tasks),
            str(s.episodes),
            f"{s.reward:.3f} ({s.reward_low:.2f}-{s.reward_high:.2f})",
            f"{s.components['trajectory']:.3f}",
            f"{s.components['state']:.3f}",
            f"{s.pass_hat[1]:.3f}",
            f"{s.pass_hat[k]:.3f} (k={k})",
            f"{s.tool_error_rate:.1%}",
            f"{s.calls:.1f}",
            f"{s.prompt_tokens:,.0f}/{s.completion_tokens:,.0f}",
            "-" if s.cost is None else f"${s.cost:,.4f}",
            "-" if s.call_latency_median is None else f"{s.call_latency_median:.2f} s",
            str(s.errors),
        )
    return table


def _check_comparable(runs: list, force: bool) -> tuple[list[str], int | None]:
    """Warnings to show, and an exit status when the runs must not be compared (unless `force`)."""
    refusals: list[str] = []
    warnings: list[str] = []
    for run in runs[1:]:
        refused, warned = incompatibilities(runs[0].settings, run.settings, str(runs[0].path), str(run.path))
        refusals += [r for r in refused if r not in refusals]
        warnings += [w for w in warned if w not in warnings]
    if refusals and not force:
        return warnings, _error("refusing to compare: " + "; ".join(refusals) + " (--force compares anyway)")
    for line in refusals + warnings:
        console.print(f"[yellow]warning: {escape(line)}[/yellow]", soft_wrap=True, highlight=False)
    return refusals + warnings, None


def cmd_compare(args: argparse.Namespace) -> int:
    """Print (and with --out, write as Markdown or HTML) the models of two runs side by side with a paired test
    over their shared tasks: overall, per domain, per environment. Refuses runs of different environment content,
    split or simulated user (unless --force); warns on other differences (tool format, k, tasks, ...)."""
    try:
        runs = [load_run(path) for path in (args.run_a, args.run_b)]
    except ValueError as exc:
        return _error(exc)
    warnings, status = _check_comparable(runs, args.force)
    if status is not None:
        return status
    a, b = runs
    name_a, name_b = (a.agent, b.agent) if a.agent != b.agent else (a.path.name, b.path.name)
    sections = compare_runs(a, b)
    if not sections["all"]:
        return _error(f"{a.path} and {b.path} share no task played by {a.agent} and {b.agent}")
    notes = COMPARE_NOTES.format(
        a=name_a, b=name_b, anchor=a.path if any(r.agent in BASELINES for r in a.records) else b.path
    )
    markdown = [f"# {name_b} vs {name_a}", "", notes, ""]
    html_sections = []
    for heading, by in (("Overall", "all"), ("Per domain", "domain"), ("Per environment", "env")):
        headers, cells = comparison_table(sections[by], name_a, name_b)
        markdown += [f"## {heading}", "", md_table(headers, cells), ""]
        verdicts = ["real" if row.test.real else "" for row in sections[by]]
        html_sections.append((by, heading, page.table(headers, cells, row_classes=verdicts)))
    text = "\n".join(markdown + [f"warning: {w}" for w in warnings])
    console.print(text, soft_wrap=True, highlight=False, markup=False)
    if args.out:
        out = Path(args.out)
        if out.suffix.lower() in (".html", ".htm"):
            intro = f"<p class=note>{page.esc(notes)}</p>" + "".join(
                f"<p class=note>warning: {page.esc(w)}</p>" for w in warnings
            )
            out.write_text(page.document(f"{name_b} vs {name_a}", html_sections, intro), encoding="utf-8")
        else:
            out.write_text(text + "\n", encoding="utf-8")
    return 0


def cmd_leaderboard(args: argparse.Namespace) -> int:
    """Write `leaderboard.md` and `leaderboard.html` of several runs (one row per model, ranked by mean reward,
    with intervals; the baselines as anchors) and print the table. Refuses runs of different environment content,
    split or simulated user (unless --force)."""
    try:
        runs = [load_run(path) for path in args.runs]
        table = load_price_table(args.price_table)
    except ValueError as exc:
        return _error(exc)
    warnings, status = _check_comparable(runs, args.force)
    if status is not None:
        return status
    headers, rows, agents = leaderboard(runs, table)
    paths = write_leaderboard(Path(args.out), headers, rows, agents, runs, warnings)
    console.print(md_table(headers, rows), soft_wrap=True, highlight=False, markup=False)
    console.print(f"leaderboard: {paths['markdown']} and {paths['html']}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add `bench`, `compare` and `leaderboard` to the `envfactory` command."""
    bench = sub.add_parser("bench", help="evaluate a model (OpenAI-compatible endpoint) and the baselines on the zoo")
    bench.add_argument("--model", help="served model name (without it, only the baselines run)")
    bench.add_argument(
        "--base-url",
        help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 (default: $ENVFACTORY_LLM_BASE_URL)",
    )
    bench.add_argument("--api-key", help="default: $ENVFACTORY_LLM_API_KEY or $OPENAI_API_KEY")
    bench.add_argument("--envs", nargs="*", default=[], help="environments (default: the whole zoo)")
    bench.add_argument("--domain", action="append", default=[], help="only these domains (repeatable)")
    bench.add_argument(
        "--split",
        choices=["test", "train", "all"],
        default="test",
        help="task split (default: the held-out test tasks)",
    )
    bench.add_argument("--k", type=positive_int, default=4, help="samples per task (pass^k, pass@k)")
    bench.add_argument("--concurrency", type=positive_int, default=64, help="model episodes in flight")
    bench.add_argument("--user", choices=["scripted", "llm"], default="scripted", help="simulated user")
    bench.add_argument("--user-model", help="the LLM user's model (default: --model)")
    bench.add_argument("--user-base-url", help="the LLM user's endpoint (default: --base-url)")
    bench.add_argument(
        "--tool-format",
        choices=["text", "native"],
        default="text",
        help="text: <tool_call> blocks in the prompt; native: the endpoint's tool calling",
    )
    bench.add_argument("--temperature", type=float, default=0.7, help="sampling temperature (default 0.7)")
    bench.add_argument("--max-tokens", type=positive_int, default=4096, help="per model answer")
    bench.add_argument(
        "--thinking",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="chat_template_kwargs.enable_thinking (Qwen3-style models); default: the server's",
    )
    bench.add_argument("--max-steps", type=positive_int, default=40, help="actions per episode before truncation")
    bench.add_argument("--episode-timeout", type=float, default=1200.0, help="seconds per episode")
    bench.add_argument("--request-timeout", type=float, default=300.0, help="seconds per model request")
    bench.add_argument(
        "--request-retries",
        type=non_negative_int,
        default=4,
        help="retries of a request that fails with 408/409/425/429/5xx or times out, with exponential backoff "
        "(default 4); what still fails is a transient error, played again when the run resumes",
    )
    bench.add_argument("--baselines", default=",".join(BASELINES), help="comma-separated, or 'none'")
    bench.add_argument("--seed", type=int, default=0, help="seed of the episodes and the sampling (default 0)")
    bench.add_argument("--run-dir", help="default: runs/bench/<model>-<split>; an existing run resumes")
    bench.add_argument("--price-in", type=_price, help="dollars per million prompt tokens (with --price-out)")
    bench.add_argument("--price-out", type=_price, help="dollars per million completion tokens (with --price-in)")
    bench.add_argument(
        "--price-table",
        help="JSON file of model -> [input, output] dollars per million tokens, extending the known prices",
    )
    bench.set_defaults(func=cmd_bench)
    compare = sub.add_parser("compare", help="two benchmark runs side by side, with a paired test per group")
    compare.add_argument("run_a", help="the first run directory")
    compare.add_argument("run_b", help="the second run directory")
    compare.add_argument("--out", help="also write the comparison here (Markdown, or HTML for a .html name)")
    compare.add_argument(
        "--force", action="store_true", help="compare runs of different environment content, split or user anyway"
    )
    compare.set_defaults(func=cmd_compare)
    board = sub.add_parser("leaderboard", help="one table of several runs, one row per model")
    board.add_argument("runs", nargs="+", metavar="RUN_DIR", help="bench run directories, one row per model")
    board.add_argument("--out", default="runs/leaderboard", help="folder for leaderboard.md and leaderboard.html")
    board.add_argument("--price-table", help="JSON file of model -> [input, output] dollars per million tokens")
    board.add_argument(
        "--force", action="store_true", help="rank runs of different environment content, split or user anyway"
    )
    board.set_defaults(func=cmd_leaderboard)
