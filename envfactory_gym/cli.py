"""The `envfactory` command line: list, index, info, verify, split and rollout here; every other command comes
from the `envfactory.commands` entry-point group (pyproject), loaded only when it is the one asked for, so the
runtime never imports the layers above it and a quick command stays quick."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from importlib.metadata import EntryPoint, entry_points
from typing import Callable

from rich.table import Table

from .index import build_card, read_index, write_index
from .registry import load_zoo_environment, resolve, zoo_cards, zoo_keys, zoo_root
from .agents import AGENTS
from .errors import DataFileError, ExternalEnvironmentError
from .terminal import console

COMMAND_GROUP = "envfactory.commands"


def _specs(names: list[str]):
    return [resolve(n) for n in names] if names else [load_zoo_environment(k) for k in zoo_keys()]


def cmd_list(args: argparse.Namespace) -> int:
    """Print the zoo from its index (imports no environment): env id, domain, tools, tasks (or, with --external,
    the imported external environments)."""
    if getattr(args, "external", False):
        from .adapters.cli import list_external

        return list_external()
    cards = list(zoo_cards().values())
    table = Table(title="envfactory zoo")
    for column in ("env id", "domain", "product", "tools", "user tools", "tasks", "writing tasks"):
        table.add_column(column)
    for card in cards:
        table.add_row(card.env_id, card.domain, card.product, str(card.tools), str(card.user_tools),
                      str(card.tasks), f"{card.writing_tasks} ({card.writing_tasks / max(1, card.tasks):.0%})")
    console.print(table)
    tools, tasks = sum(c.tools for c in cards), sum(c.tasks for c in cards)
    domains: dict[str, int] = {}
    for card in cards:
        domains[card.domain] = domains.get(card.domain, 0) + 1
    console.print(f"{len(cards)} environments, {tools} tools ({tools / max(1, len(cards)):.1f} per env), {tasks} tasks")
    console.print("per domain: " + ", ".join(f"{d} {n}" for d, n in sorted(domains.items())))
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    """Write the zoo's index (or, with --check, only report whether it is current). An environment whose content
    changed at an unchanged version is refused unless --no-bump says the change leaves tools, schema, seed, tasks
    and rules as they were (a refactor)."""
    root = zoo_root()
    stored = read_index(root)
    fresh = [build_card(load_zoo_environment(key)) for key in zoo_keys()]
    unbumped = [c.key for c in fresh if c.key in stored and c.content_hash != stored[c.key].content_hash
                and c.version == stored[c.key].version]
    if args.check:
        stale = [c.key for c in fresh if stored.get(c.key) != c] + sorted(set(stored) - set(zoo_keys()))
        for key in stale:
            console.print(f"[red]stale[/red] {key}" + (" (content changed, same version)" if key in unbumped else ""))
        console.print("index is current" if not stale else "run `envfactory index` to update it")
        return 1 if stale else 0
    if unbumped and not args.no_bump:
        console.print(f"[red]content changed at the same version[/red]: {', '.join(unbumped)}. Bump `version` in "
                      "their metadata.json and add a CHANGELOG.md line, or pass --no-bump for a change that leaves "
                      "tools, schema, seed, tasks and rules as they were.")
        return 1
    console.print(f"wrote {write_index(root, fresh)} ({len(fresh)} environments)")
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
    from .verify import verify_environment

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
    from .splits import TEST_FRACTION, assign, read_split, write_split
    from .tasks import load_tasks

    fraction = TEST_FRACTION if args.test_fraction is None else args.test_fraction
    stale = 0
    for spec in _specs(args.names):
        stored = read_split(spec)
        split = assign(spec.name, sorted(load_tasks(spec)), stored, fraction)
        if args.check:
            stale += split != stored
            console.print(f"{'ok' if split == stored else '[red]stale[/red]'} {spec.env_id}")
            continue
        write_split(spec, fraction)
        console.print(f"{spec.env_id}: {len(split['train'])} train, {len(split['test'])} test")
    return 1 if stale else 0


def cmd_rollout(args: argparse.Namespace) -> int:
    """Run an agent over environments and print the mean reward per environment."""
    from rich.progress import Progress

    from .adapters.catalog import env_kwargs as external_env_kwargs
    from .agents import run_episode
    from .env import ToolUseEnv
    from .tasks import load_tasks

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


def command_entry_points(command: str | None = None) -> list[EntryPoint]:
    """Entry points of the `envfactory.commands` group, named `<command>` or `<command>.<part>`; all of them, or
    only those of one command."""
    found = sorted(entry_points(group=COMMAND_GROUP), key=lambda e: e.name)
    return [e for e in found if command is None or e.name.split(".")[0] == command]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with the core sub-commands and those that entry points add: all of them (`command`
    None) or only those of `command` (none when it is a core command)."""
    parser = argparse.ArgumentParser(prog="envfactory", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    registered: set[str] = set()
    for entry in command_entry_points(command):
        if entry.value not in registered:  # one module may provide several commands
            registered.add(entry.value)
            entry.load()(sub)
    listing = sub.add_parser("list", help="list the zoo")
    listing.add_argument("--external", action="store_true", help="list imported external environments instead")
    listing.set_defaults(func=cmd_list)
    index = sub.add_parser("index", help="write the zoo's index (names, versions, counts, task ids, content hashes)")
    index.add_argument("--check", action="store_true", help="only check that the stored index is current")
    index.add_argument("--no-bump", action="store_true",
                       help="record changed content at the same version (a refactor that changes no behaviour)")
    index.set_defaults(func=cmd_index)
    info = sub.add_parser("info", help="tools and schemas of one environment")
    info.add_argument("name")
    info.set_defaults(func=cmd_info)
    verify = sub.add_parser("verify", help="replay every task's ground truth and run check_env")
    verify.add_argument("names", nargs="*")
    verify.set_defaults(func=cmd_verify)
    split = sub.add_parser("split", help="store each environment's held-out train/test task split")
    split.add_argument("names", nargs="*", help="environments (default: the whole zoo)")
    split.add_argument("--test-fraction", type=float, default=None,
                       help="share of a new environment's tasks held out for test (default 0.3)")
    split.add_argument("--check", action="store_true", help="only check that every stored split is complete")
    split.set_defaults(func=cmd_split)
    rollout = sub.add_parser("rollout", help="run a baseline agent and print mean rewards")
    rollout.add_argument("names", nargs="*", help="environments (default: the whole zoo)")
    rollout.add_argument("--agent", choices=sorted(AGENTS), default="reference")
    rollout.add_argument("--episodes", type=int, default=0, help="episodes per environment (default: every task)")
    rollout.add_argument("--seed", type=int, default=0)
    rollout.set_defaults(func=cmd_rollout)
    return parser


CORE_COMMANDS = {"list", "index", "info", "verify", "split", "rollout"}


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `envfactory` command. An imported environment that cannot load here, or a malformed
    data file (tasks.jsonl, a snapshot: named by file, line or table and row, and problem), is one line on stderr
    without a traceback: exit status 2."""
    argv = sys.argv[1:] if argv is None else argv
    command = next((a for a in argv if not a.startswith("-")), None)
    if command in CORE_COMMANDS:
        parser = build_parser("")
    else:
        parser = build_parser(command if command and command_entry_points(command) else None)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ExternalEnvironmentError, DataFileError) as exc:
        print(f"envfactory {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
