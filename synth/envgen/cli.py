"""`envfactory synth env --topic ... --source DIR`: synthesize one verified environment into the zoo (EnvGen)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn

from envfactory_gym import registry
from envfactory_gym.cli.args import positive_int
from envfactory_gym.cli.terminal import console
from envfactory_gym.llm import ChatModel, LLMClient, RecordedLLM
from envfactory_gym.sandbox import Limits, Worker

from .models import EnvGenRecord
from .pipeline import EnvGen, EnvGenConfig
from .sources import LocalDocs


def _synth_group(subparsers: argparse._SubParsersAction) -> argparse._SubParsersAction:
    """The sub-commands of `envfactory synth`, created by whichever synth module registers first."""
    parser = subparsers.choices.get("synth")
    if parser is None:
        parser = subparsers.add_parser("synth", help="synthesis: environments and tasks")
        parser.add_subparsers(dest="synth_command", required=True)
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `synth env`."""
    env = _synth_group(subparsers).add_parser("env", help="EnvGen: propose, build and verify a new environment")
    env.add_argument("--topic", required=True, help='what to build, e.g. "library loans and holds"')
    env.add_argument(
        "--source",
        type=Path,
        action="append",
        default=[],
        required=True,
        help="folder of API docs (.md/.txt) and OpenAPI specs (.json/.yaml); repeatable",
    )
    env.add_argument("--llm", help="OpenAI-compatible base URL (default: $ENVFACTORY_LLM_BASE_URL)")
    env.add_argument("--model", help="model name (default: $ENVFACTORY_LLM_MODEL, else what the server lists)")
    env.add_argument("--api-key", help="API key (default: $ENVFACTORY_LLM_API_KEY or $OPENAI_API_KEY)")
    env.add_argument("--budget", type=positive_int, default=3, help="revision rounds after the first check (default 3)")
    env.add_argument("--out", type=Path, help="zoo folder the environment joins (default: the installed env_zoo)")
    env.add_argument(
        "--runs", type=Path, help="folder for the run record and last draft (default: runs/envgen/<topic>)"
    )
    env.add_argument(
        "--cassettes",
        type=Path,
        help="replay recorded LLM answers from this folder (offline); with --llm, record the missing ones there",
    )
    env.add_argument("--cpu", type=float, default=Limits.cpu_s, help="CPU seconds per sandboxed check")
    env.add_argument("--memory-mb", type=positive_int, default=Limits.memory_mb, help="memory per sandboxed check")
    env.set_defaults(func=cmd_env)


def make_model(args: argparse.Namespace) -> ChatModel:
    """The chat model the flags ask for: recorded, recording, or live."""
    live = LLMClient(args.llm, args.model, args.api_key) if args.llm or not args.cassettes else None
    if args.cassettes:
        return RecordedLLM(args.cassettes, record=live)
    assert live is not None
    return live


class StageProgress:
    """One spinner line per stage; a stage's line is ticked off when the next stage starts."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.tasks: dict[str, TaskID] = {}
        self.current: str | None = None

    def __call__(self, stage: str, message: str) -> None:
        if stage != self.current and self.current is not None:
            self.progress.update(self.tasks[self.current], completed=1)
        if stage not in self.tasks:
            self.tasks[stage] = self.progress.add_task("", total=1)
        self.progress.update(self.tasks[stage], description=f"[bold]{stage:<9}[/bold] {message}", completed=0)
        self.current = stage

    def finish(self) -> None:
        """Tick off the last stage."""
        if self.current is not None:
            self.progress.update(self.tasks[self.current], completed=1)


def print_record(record: EnvGenRecord) -> None:
    """The outcome: status, iterations, the last report's findings when it failed."""
    colour = {"passed": "green", "budget_exhausted": "yellow", "failed": "red"}[record.status]
    console.print(
        f"[{colour}]{record.status}[/{colour}] {record.name or record.topic}: {record.iterations} checks, "
        f"{record.revisions} revision rounds, {record.seconds:.1f} s"
        + (f" -> {record.output}" if record.output else "")
    )
    if record.reason:
        console.print(f"  {record.reason}")
    if record.status != "passed" and record.reports:
        console.print(record.reports[-1].render(), markup=False)


def cmd_env(args: argparse.Namespace) -> int:
    """Run EnvGen once; exit code 0 when an environment entered the zoo."""
    zoo = args.out or registry.zoo_root()
    runs = args.runs or Path("runs") / "envgen" / (re.sub(r"[^a-z0-9]+", "_", args.topic.lower()).strip("_") or "env")
    model = make_model(args)
    config = EnvGenConfig(budget=args.budget, limits=Limits(cpu_s=args.cpu, memory_mb=args.memory_mb))
    console.print(
        f"EnvGen: {args.topic!r} from {', '.join(map(str, args.source))} into {zoo} "
        f"(sandbox: {Worker(config.limits).isolation})"
    )
    columns = (SpinnerColumn(finished_text="[green]✓[/green]"), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        stages = StageProgress(progress)
        record = EnvGen(model, [LocalDocs(s) for s in args.source], zoo, runs, config, progress=stages).run(args.topic)
        stages.finish()
    print_record(record)
    usage = model.usage  # type: ignore[attr-defined]
    console.print(usage.table(model=str(getattr(model, "model", "") or ""), per=1, unit="env"))
    console.print(f"record: {runs / 'record.json'}")
    return 0 if record.status == "passed" else 1
