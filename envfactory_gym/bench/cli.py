"""`envfactory bench` (evaluate a model and the baselines on the zoo) and `envfactory compare` (two runs side by
side)."""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..llm.client import ENV_API_KEY, ENV_BASE_URL, env_value
from ..terminal import console
from .metrics import Summary, summarize
from .records import EpisodeRecord
from .report import comparison, write_report
from .rundir import RunDirectory
from .runner import BASELINES, BenchConfig, finished, plan_tasks, run_bench


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def config_from_args(args: argparse.Namespace) -> BenchConfig:
    """The run's configuration from the command line (endpoint and key default to the environment variables)."""
    baselines = tuple(b for b in args.baselines.split(",") if b) if args.baselines != "none" else ()
    unknown = set(baselines) - set(BASELINES)
    if unknown:
        raise SystemExit(f"unknown baselines {sorted(unknown)}: choose from {', '.join(BASELINES)}")
    base_url = args.base_url or env_value(ENV_BASE_URL)
    if args.model and not base_url:
        raise SystemExit("--model needs --base-url (or ENVFACTORY_LLM_BASE_URL)")
    return BenchConfig(
        model=args.model, base_url=base_url, api_key=args.api_key or env_value(ENV_API_KEY), envs=args.envs,
        domains=args.domain, split=args.split, k=args.k, concurrency=args.concurrency, user=args.user,
        user_model=args.user_model, user_base_url=args.user_base_url, tool_format=args.tool_format,
        temperature=args.temperature, max_tokens=args.max_tokens, thinking=args.thinking, max_steps=args.max_steps,
        episode_timeout=args.episode_timeout, request_timeout=args.request_timeout, seed=args.seed,
        baselines=baselines,
    )


def default_run_dir(config: BenchConfig) -> Path:
    """`runs/bench/<model or baselines>-<split>`."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", config.model or "baselines")
    return Path("runs") / "bench" / f"{name}-{config.split}"


def cmd_bench(args: argparse.Namespace) -> int:
    """Run (or resume) a benchmark and write its report. Exit status 1 while transient errors left episodes to
    play again, 2 when the settings are unusable."""
    config = config_from_args(args)
    rundir = RunDirectory(args.run_dir or default_run_dir(config))
    try:
        total = len(plan_tasks(config)) * config.k * (len(config.baselines) + bool(config.model))
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    started, totals = time.perf_counter(), {"episodes": 0, "reward": 0.0}
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("mean reward {task.fields[mean]:.3f}"), TextColumn("{task.fields[rate]:.1f} episodes/s"),
               TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        job = progress.add_task(f"bench {config.model or 'baselines'}", total=total, mean=0.0, rate=0.0)
        progress.update(job, completed=min(len(finished(rundir.records())), total))

        def on_record(record: EpisodeRecord) -> None:
            totals["episodes"] += 1
            totals["reward"] += record.reward
            progress.update(job, advance=1, mean=totals["reward"] / totals["episodes"],
                            rate=totals["episodes"] / (time.perf_counter() - started))

        try:
            records = run_bench(config, rundir, on_record)
        except ValueError as exc:
            console.print(f"[red]{exc}[/red]")
            return 2
    paths = write_report(rundir.path, records, f"envfactory bench: {config.model or 'baselines'} ({config.split})")
    summaries = summarize(records, "all")
    console.print(overview(summaries))
    console.print(f"report: {paths['markdown']} and {paths['html']}; episodes in {rundir.path / 'episodes.jsonl'}")
    refused = sum(s.errors - s.transient_errors for s in summaries)
    transient = sum(s.transient_errors for s in summaries)
    if refused:
        console.print(f"[yellow]{refused} episodes ended on a request the endpoint refused (e.g. a prompt beyond the "
                      "context window); they count as failures.[/yellow]")
    if transient:
        console.print(f"[red]{transient} episodes were cut short by the endpoint or a timeout; run the same command "
                      "again to play them.[/red]")
        return 1
    return 0


def overview(summaries: list[Summary]) -> Table:
    """The headline numbers per agent, for the terminal (the report has every column)."""
    table = Table(title="envfactory bench")
    for column in ("agent", "tasks", "episodes", "reward (95% CI)", "R_traj", "R_state", "pass^1", "pass^k",
                   "tool err", "calls/ep", "errors"):
        table.add_column(column)
    for s in summaries:
        k = max(s.pass_hat)
        table.add_row(
            s.agent, str(s.tasks), str(s.episodes), f"{s.reward:.3f} ({s.reward_low:.2f}-{s.reward_high:.2f})",
            f"{s.components['trajectory']:.3f}", f"{s.components['state']:.3f}", f"{s.pass_hat[1]:.3f}",
            f"{s.pass_hat[k]:.3f} (k={k})", f"{s.tool_error_rate:.1%}", f"{s.calls:.1f}", str(s.errors),
        )
    return table


def _model_summaries(run: Path, by: str) -> tuple[str, list]:
    rundir = RunDirectory(run)
    config = rundir.config()
    agent = config.get("model") or "reference"
    records = [r for r in {r.key: r for r in rundir.records()}.values() if r.agent == agent]
    return agent, summarize(records, by)  # type: ignore[arg-type]


#: Settings two runs must share for their numbers to be comparable (the model and its sampling may differ).
COMPARABLE = ("tasks", "split", "k", "user", "user_model", "max_steps", "seed")


def cmd_compare(args: argparse.Namespace) -> int:
    """Print (and with --out, write) the models of two runs side by side: overall, per domain, per env. Warns when
    the runs differ in a setting that makes their numbers incomparable (tasks, split, k, simulated user, ...)."""
    configs = [RunDirectory(Path(run)).config() for run in (args.run_a, args.run_b)]
    differing = [key for key in COMPARABLE if configs[0].get(key) != configs[1].get(key)]
    if differing:
        console.print(f"[yellow]warning: the runs differ in {', '.join(differing)}; their numbers are not directly "
                      "comparable[/yellow]")
    sections = []
    for heading, by in (("Overall", "all"), ("Per domain", "domain"), ("Per environment", "env")):
        name_a, left = _model_summaries(Path(args.run_a), by)
        name_b, right = _model_summaries(Path(args.run_b), by)
        if name_a == name_b:
            name_a, name_b = Path(args.run_a).name, Path(args.run_b).name
        sections.append(f"## {heading}\n\n{comparison(left, right, name_a, name_b)}\n")
    text = "\n".join(sections)
    console.print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add `bench` and `compare` to the `envfactory` command."""
    bench = sub.add_parser("bench", help="evaluate a model (OpenAI-compatible endpoint) and the baselines on the zoo")
    bench.add_argument("--model", help="served model name (without it, only the baselines run)")
    bench.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 "
                                          "(default: $ENVFACTORY_LLM_BASE_URL)")
    bench.add_argument("--api-key", help="default: $ENVFACTORY_LLM_API_KEY or $OPENAI_API_KEY")
    bench.add_argument("--envs", nargs="*", default=[], help="environments (default: the whole zoo)")
    bench.add_argument("--domain", action="append", default=[], help="only these domains (repeatable)")
    bench.add_argument("--split", choices=["test", "train", "all"], default="test",
                       help="task split (default: the held-out test tasks)")
    bench.add_argument("--k", type=_positive, default=4, help="samples per task (pass^k, pass@k)")
    bench.add_argument("--concurrency", type=int, default=64, help="model episodes in flight")
    bench.add_argument("--user", choices=["scripted", "llm"], default="scripted", help="simulated user")
    bench.add_argument("--user-model", help="the LLM user's model (default: --model)")
    bench.add_argument("--user-base-url", help="the LLM user's endpoint (default: --base-url)")
    bench.add_argument("--tool-format", choices=["text", "native"], default="text",
                       help="text: <tool_call> blocks in the prompt; native: the endpoint's tool calling")
    bench.add_argument("--temperature", type=float, default=0.7)
    bench.add_argument("--max-tokens", type=int, default=4096, help="per model answer")
    bench.add_argument("--thinking", action=argparse.BooleanOptionalAction, default=None,
                       help="chat_template_kwargs.enable_thinking (Qwen3-style models); default: the server's")
    bench.add_argument("--max-steps", type=int, default=40, help="actions per episode before truncation")
    bench.add_argument("--episode-timeout", type=float, default=1200.0, help="seconds per episode")
    bench.add_argument("--request-timeout", type=float, default=300.0, help="seconds per model request")
    bench.add_argument("--baselines", default=",".join(BASELINES), help="comma-separated, or 'none'")
    bench.add_argument("--seed", type=int, default=0)
    bench.add_argument("--run-dir", help="default: runs/bench/<model>-<split>; an existing run resumes")
    bench.set_defaults(func=cmd_bench)
    compare = sub.add_parser("compare", help="two benchmark runs side by side")
    compare.add_argument("run_a")
    compare.add_argument("run_b")
    compare.add_argument("--out", help="also write the comparison (Markdown) here")
    compare.set_defaults(func=cmd_compare)
