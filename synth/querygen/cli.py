"""`envfactory synth tasks NAME`: synthesize verified multi-turn tasks with SFT and RL data for one environment."""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from envfactory_gym.cli.args import positive_int
from envfactory_gym.cli.terminal import console
from envfactory_gym.llm import ChatModel, LLMClient, RecordedLLM
from envfactory_gym.registry import resolve

from .chains import read_chains, sample_chains
from .context import QueryGenConfig, QueryGenContext
from .models import SynthesisError
from .output import OutputDir
from .pipeline import synthesize


def _synth_subparsers(subparsers: argparse._SubParsersAction) -> argparse._SubParsersAction:
    """The sub-commands of `envfactory synth`, created by whichever synth module registers first (EnvGen
    adds `synth env` to the same group)."""
    parser = subparsers.choices.get("synth")
    if parser is None:
        parser = subparsers.add_parser("synth", help="synthesis: environments and tasks")
        parser.add_subparsers(dest="synth_command", required=True)
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `synth tasks`."""
    tasks = _synth_subparsers(subparsers).add_parser("tasks", help="QueryGen: tasks with SFT and RL data")
    tasks.add_argument("name", help="environment (key, name or gym id)")
    tasks.add_argument("--n", type=positive_int, default=50, help="tasks to synthesize")
    tasks.add_argument(
        "--llm", help="OpenAI-compatible base URL, e.g. http://localhost:8000/v1 (default: $ENVFACTORY_LLM_BASE_URL)"
    )
    tasks.add_argument("--model", help="model name (default: $ENVFACTORY_LLM_MODEL, else what the server lists)")
    tasks.add_argument("--api-key", help="API key (default: $ENVFACTORY_LLM_API_KEY or $OPENAI_API_KEY)")
    tasks.add_argument("--out", type=Path, help="output folder (default: runs/querygen/<env>)")
    tasks.add_argument("--concurrency", type=positive_int, default=16, help="tasks and LLM requests in flight")
    tasks.add_argument("--k", type=positive_int, default=3, help="candidate conversations per task")
    tasks.add_argument("--seed", type=int, default=0, help="seed of the chain draws and the LLM sampling")
    tasks.add_argument("--chain-length", type=positive_int, default=5, help="tools per sampled chain")
    tasks.add_argument("--chains", type=Path, help="jsonl of tool lists to use instead of sampling")
    tasks.add_argument(
        "--cassettes",
        type=Path,
        help="replay recorded LLM answers from this folder (offline); with --llm, record the missing ones there",
    )
    tasks.set_defaults(func=cmd_tasks)


def make_model(args: argparse.Namespace) -> ChatModel:
    """The chat model the flags ask for: recorded, recording, or live."""
    live = None
    if args.llm or not args.cassettes:
        live = LLMClient(args.llm, args.model, args.api_key, concurrency=args.concurrency)
    if args.cassettes:
        return RecordedLLM(args.cassettes, record=live)
    assert live is not None
    return live


def task_id(key: str, seed: int, index: int) -> str:
    """Stable id of the index-th task of a run (so a resumed run recognises finished tasks)."""
    return f"{key}-qg-s{seed}-{index:04d}"


async def run(ctx: QueryGenContext, out: OutputDir, jobs: list[tuple[str, list[str], int]], concurrency: int) -> dict:
    """Synthesize the jobs (id, chain, seed) with at most `concurrency` at once, writing each as it finishes."""
    counts = {"ok": 0, "failed": 0}
    limit = asyncio.Semaphore(concurrency)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        bar = progress.add_task("synthesizing", total=len(jobs))

        async def one(job_id: str, chain: list[str], seed: int) -> None:
            async with limit:
                try:
                    out.write(await synthesize(ctx, chain, job_id, seed))
                    counts["ok"] += 1
                except SynthesisError as exc:
                    out.fail(job_id, exc.stage, exc.reason)
                    counts["failed"] += 1
                except Exception as exc:  # an LLM outage or a bad answer costs one task, not the run
                    out.fail(job_id, type(exc).__name__, str(exc))
                    counts["failed"] += 1
                progress.update(bar, advance=1, description=f"ok {counts['ok']}  failed {counts['failed']}")

        await asyncio.gather(*(one(*job) for job in jobs))
    return counts


def cmd_tasks(args: argparse.Namespace) -> int:
    """Synthesize `--n` tasks (resuming a previous run in the same folder); prints the usage table."""
    spec = resolve(args.name)
    out = OutputDir(args.out or Path("runs") / "querygen" / spec.key)
    if args.chains:
        chains = read_chains(args.chains)[: args.n]
    else:
        chains = sample_chains(spec, args.n, args.seed, args.chain_length)
    done = out.done_ids()
    jobs = [
        (task_id(spec.key, args.seed, i), chain, args.seed + i)
        for i, chain in enumerate(chains)
        if task_id(spec.key, args.seed, i) not in done
    ]
    console.print(
        f"{spec.env_id}: {len(chains)} chains, {len(chains) - len(jobs)} already done, {len(jobs)} to go -> {out.path}"
    )
    model = make_model(args)
    ctx = QueryGenContext(spec, model, QueryGenConfig(k=args.k))
    started = time.perf_counter()
    counts = asyncio.run(run(ctx, out, jobs, args.concurrency)) if jobs else {"ok": 0, "failed": 0}
    elapsed = time.perf_counter() - started
    usage = model.usage  # type: ignore[attr-defined]
    out.write_usage({"stages": usage.as_dict(), **counts, "seconds": elapsed})
    attempted = counts["ok"] + counts["failed"]
    console.print(usage.table(model=str(getattr(model, "model", "") or ""), per=max(1, attempted), unit="task"))
    if attempted:
        console.print(
            f"success rate {counts['ok'] / attempted:.1%} ({counts['ok']}/{attempted}), "
            f"{elapsed / attempted:.1f} s per task"
        )
    return 0 if counts["ok"] or not jobs else 1
