"""The `envfactory` command line: list, info, verify and rollout (more commands join in later modules)."""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
from typing import Callable

from rich.progress import Progress
from rich.table import Table

from .adapters.build import ExternalEnvironmentError
from .adapters.catalog import env_kwargs as external_env_kwargs
from .agents import AGENTS, run_episode
from .env import ToolUseEnv
from .registry import load_zoo_environment, resolve, zoo_keys
from .splits import TEST_FRACTION, assign, read_split, write_split
from .tasks import load_tasks
from .terminal import console
from .verify import verify_environment


def _specs(names: list[str]):
    return [resolve(n) for n in names] if names else [load_zoo_environment(k) for k in zoo_keys()]


def cmd_list(args: argparse.Namespace) -> int:
    """Print the zoo: env id, domain, tools, tasks (or, with --external, the imported external environments)."""
    if getattr(args, "external", False):
        from .adapters.cli import list_external

        return list_external()
    table = Table(title="envfactory zoo")
    for column in ("env id", "domain", "product", "tools", "user tools", "tasks", "writing tasks"):
        table.add_column(column)
    totals = [0, 0]
    domains: dict[str, int] = {}
    for spec in _specs([]):
        domains[spec.domain] = domains.get(spec.domain, 0) + 1
        tasks = load_tasks(spec)
        writing = sum(t.changes_state(spec) for t in tasks.values())
        user_tools = sum(t.user_only for t in spec.tools.values())
        totals[0] += len(spec.tools)
        totals[1] += len(tasks)
        table.add_row(spec.env_id, spec.domain, spec.product, str(len(spec.tools)), str(user_tools),
                      str(len(tasks)), f"{writing} ({writing / max(1, len(tasks)):.0%})")
    console.print(table)
    count = len(zoo_keys())
    console.print(f"{count} environments, {totals[0]} tools ({totals[0] / max(1, count):.1f} per env), "
                  f"{totals[1]} tasks")
    console.print("per domain: " + ", ".join(f"{d} {n}" for d, n in sorted(domains.items())))
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    """Print one environment's metadata and tool schemas."""
    spec = resolve(args.name)
    console.print(f"[bold]{spec.env_id}[/bold] ({spec.domain}) mirrors {spec.product}: {spec.docs_url}")
    console.print(spec.description)
    for tool in spec.tools.values():
        flags = ("read" if tool.read_only else "write") + (", user-only" if tool.user_only else "")
        console.print(f"\n[bold]{tool.name}[/bold] [{flags}] {tool.description}")
        console.print_json(json.dumps(tool.input_schema))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Verify environments; non-zero exit when any fails."""
    failed = 0
    for spec in _specs(args.names):
        report = verify_environment(spec)
        if report.passed:
            console.print(f"[green]PASS[/green] {spec.env_id}: {report.tasks_checked} tasks replay to 1.0, check_env ok")
        else:
            failed += 1
            console.print(f"[red]FAIL[/red] {spec.env_id}")
            for finding in report.findings:
                console.print(f"  [{finding.component}] {finding.check}: {finding.message}")
    return 1 if failed else 0


def cmd_split(args: argparse.Namespace) -> int:
    """Store (or, with --check, only check) each environment's train/test split."""
    stale = 0
    for spec in _specs(args.names):
        stored = read_split(spec)
        split = assign(spec.name, sorted(load_tasks(spec)), stored, args.test_fraction)
        if args.check:
            stale += split != stored
            console.print(f"{'ok' if split == stored else '[red]stale[/red]'} {spec.env_id}")
            continue
        write_split(spec, args.test_fraction)
        console.print(f"{spec.env_id}: {len(split['train'])} train, {len(split['test'])} test")
    return 1 if stale else 0


def cmd_rollout(args: argparse.Namespace) -> int:
    """Run an agent over environments and print the mean reward per environment."""
    make_agent: Callable = AGENTS[args.agent]
    table = Table(title=f"rollout: {args.agent} agent")
    for column in ("env id", "episodes", "mean reward", "R_traj", "R_state", "steps"):
        table.add_column(column)
    specs = _specs(args.names)
    means = []
    with Progress(console=console, transient=True) as progress:
        job = progress.add_task("episodes", total=sum(min(args.episodes or 10**9, len(load_tasks(s))) for s in specs))
        for spec in specs:
            env = ToolUseEnv(spec, **(external_env_kwargs(spec.name) if spec.extra.get("source") else {}))
            task_ids = env.task_ids[: args.episodes] if args.episodes else env.task_ids
            results = []
            for index, task_id in enumerate(task_ids):
                agent = make_agent(seed=args.seed + index) if args.agent == "random" else make_agent()
                results.append(run_episode(env, agent, seed=args.seed + index, task_id=task_id))
                progress.advance(job)
            env.close()
            mean = statistics.fmean(r["reward"] for r in results)
            means.append(mean)
            table.add_row(
                spec.env_id, str(len(results)), f"{mean:.3f}",
                f"{statistics.fmean(r['components']['trajectory'] for r in results):.3f}",
                f"{statistics.fmean(r['components']['state'] for r in results):.3f}",
                f"{statistics.fmean(r['steps'] for r in results):.1f}",
            )
    console.print(table)
    console.print(f"overall mean reward: {statistics.fmean(means):.3f}")
    return 0


#: Modules that add their own sub-commands: each defines `register(subparsers)`.
COMMAND_MODULES: list[str] = [
    "envfactory_gym.serve_cli", "envfactory_gym.play", "envfactory_gym.bench.cli", "training.cli", "synth.graph.cli",
    "synth.querygen.cli", "synth.envgen.cli", "envfactory_gym.adapters.cli",
]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command."""
    parser = argparse.ArgumentParser(prog="envfactory", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for module in COMMAND_MODULES:
        importlib.import_module(module).register(sub)
    listing = sub.add_parser("list", help="list the zoo")
    listing.add_argument("--external", action="store_true", help="list imported external environments instead")
    listing.set_defaults(func=cmd_list)
    info = sub.add_parser("info", help="tools and schemas of one environment")
    info.add_argument("name")
    info.set_defaults(func=cmd_info)
    verify = sub.add_parser("verify", help="replay every task's ground truth and run check_env")
    verify.add_argument("names", nargs="*")
    verify.set_defaults(func=cmd_verify)
    split = sub.add_parser("split", help="store each environment's held-out train/test task split")
    split.add_argument("names", nargs="*", help="environments (default: the whole zoo)")
    split.add_argument("--test-fraction", type=float, default=TEST_FRACTION)
    split.add_argument("--check", action="store_true", help="only check that every stored split is complete")
    split.set_defaults(func=cmd_split)
    rollout = sub.add_parser("rollout", help="run a baseline agent and print mean rewards")
    rollout.add_argument("names", nargs="*", help="environments (default: the whole zoo)")
    rollout.add_argument("--agent", choices=sorted(AGENTS), default="reference")
    rollout.add_argument("--episodes", type=int, default=0, help="episodes per environment (default: every task)")
    rollout.add_argument("--seed", type=int, default=0)
    rollout.set_defaults(func=cmd_rollout)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `envfactory` command."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except ExternalEnvironmentError as exc:  # an imported environment that cannot load here: one line, no traceback
        print(f"envfactory {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
