"""`envfactory import FORMAT PATH`: convert another project's environments, check their ground truth, and register
them persistently as `envfactory/ext-<name>-v0`; `envfactory list --external` lists them."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import Any, Callable

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..cli.terminal import console
from ..tasks import load_tasks
from . import FORMATS, adapter, env_name, load_environment
from .build import ImportOptions
from .catalog import catalog_path, env_folder, gym_id, read_catalog, register_external, save_entries
from .checks import REFERENCE_TASKS, ImportFindings, analyze
from .network import network_imports

#: The Env's default action budget; environments with longer ground truths register with a larger one.
DEFAULT_MAX_STEPS = 40


def _absolute(value: str | None) -> str | None:
    return str(Path(value).resolve()) if value else None


def _names(value: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in value.split(",") if n.strip())


def options_of(args: argparse.Namespace) -> ImportOptions:
    """The import options given on the command line (paths made absolute)."""
    return ImportOptions(
        tasks=_absolute(args.tasks),
        solutions=_absolute(args.solutions),
        code=_absolute(args.code),
        docs=_absolute(args.docs),
        writes=_names(args.writes),
        reads=_names(args.reads),
        only=tuple(args.only),
        cache_fields=_names(args.cache_fields),
        allow_network=args.allow_network,
    )


def _notes(
    spec: Any, findings: ImportFindings, tasks: int, fmt: str, path: Path, key: str, options: ImportOptions
) -> list[str]:
    """What the import says about one environment besides its numbers."""
    notes = [str(note) for note in spec.extra.get("notes", [])]
    if not tasks:
        notes.append(
            f"[yellow]no tasks[/yellow]: gym.make needs tasks (see docs/adapters.md for this format's task "
            f"files); `envfactory serve {spec.name}` and `envfactory play {spec.name}` work without one"
        )
    calls = sum(len(errors) for errors in findings.expected_errors.values())
    if calls:
        notes.append(
            f"{calls} ground-truth call(s) in {len(findings.expected_errors)} task(s) fail in the original "
            "too; an agent call matches them by failing the same way"
        )
    for tool, decision in sorted(findings.behaviour.items()):
        notes.append(f"{tool}: {decision}")
    for task_id, where in sorted(findings.nondeterministic.items())[:5]:
        notes.append(f"[red]nondeterministic[/red] task {task_id}: two replays differ at {where}")
    for task_id, problem in sorted(findings.failing.items())[:5]:
        notes.append(f"[red]failing[/red] task {task_id}: {problem}")
    if findings.reference_checked and not findings.reference_differences:
        notes.append(
            f"copy-on-write state: agrees with plain objects on the ground truth of "
            f"{findings.reference_checked} of {tasks} task(s)"
        )
    if findings.reference_differences:
        task_id, where = sorted(findings.reference_differences.items())[0]
        notes.append(
            f"the copy-on-write state differs from plain objects on {len(findings.reference_differences)} "
            f"task(s) (first: {task_id}, {where}); using plain objects"
        )
    files = adapter(fmt).sources(path, key, options) + sorted((spec.folder / "source").glob("*.py"))
    for file, modules in network_imports(files).items():
        notes.append(
            f"{Path(file).name} imports {', '.join(modules)}: network use is "
            f"{'allowed (--allow-network)' if options.allow_network else 'refused unless --allow-network'}"
        )
    for attempt in findings.network:
        notes.append(f"network use {'seen' if options.allow_network else 'refused'} while replaying: {attempt}")
    return notes


def reward_label(entry: dict[str, Any]) -> str:
    """How an entry is scored: by its checks only, or the composite reward (with any changed weights)."""
    reward = entry.get("reward") or {}
    if reward.get("checklist"):
        return "checklist"
    changed = ", ".join(f"{k}={v}" for k, v in sorted(reward.items()))
    return f"composite ({changed})" if changed else "composite"


def import_one(
    fmt: str, path: Path, key: str, env: str, options: ImportOptions, isolate: bool, advance: Callable[[int], None]
) -> tuple[dict[str, Any], list[str], dict[str, str]]:
    """Convert, replay and check one environment: its catalog entry, notes and tool decisions."""
    folder = env_folder(env)

    def reload(chosen: ImportOptions) -> Any:
        return load_environment(fmt, path, key, env, folder, chosen, isolate)

    spec = reload(options)
    tasks = load_tasks(spec)
    reference = getattr(spec.backend, "reference", None) is not None
    advance(-(2 * len(tasks) + (min(len(tasks), REFERENCE_TASKS) if reference else 0)))  # the replays to come
    spec, findings = analyze(spec, tasks, lambda: advance(1), reload, options)
    chosen = findings.options(options)  # what later loads apply (this spec already has all but expected errors)
    if findings.reference_differences:
        chosen = dataclasses.replace(chosen, object_state="plain")
    unsolved = sum(1 for t in tasks.values() if not t.agent_calls)
    entry = {
        "name": env,
        "format": fmt,
        "path": str(path),
        "key": key,
        "options": chosen.to_json(),
        "isolate": isolate,
        "description": spec.description.splitlines()[0] if spec.description else "",
        "tools": len(spec.tools),
        "tasks": len(tasks),
        "failing_tasks": sorted(findings.failing),
        "skipped_tasks": spec.extra.get("skipped_tasks", 0),
        "nondeterministic_tasks": sorted(findings.nondeterministic),
        "expected_failing_calls": sum(len(e) for e in findings.expected_errors.values()),
        # tasks without ground-truth calls can only be scored by their checks; a format may set its own weights
        "reward": {"checklist": 1.0, "gamma": 0.0}
        if unsolved and spec.checklist is not None
        else spec.extra.get("reward"),
        # room for the longest ground truth: one action per call and one message per turn, and as much again
        "max_steps": max([DEFAULT_MAX_STEPS] + [2 * (len(t.agent_calls) + len(t.turns)) for t in tasks.values()]),
    }
    decisions = dict(spec.extra.get("tool_decisions", {}))
    return entry, _notes(spec, findings, len(tasks), fmt, path, key, chosen), decisions


def import_environments(
    fmt: str,
    path: Path,
    name: str,
    options: ImportOptions,
    isolate: bool = False,
    show_progress: bool = False,
) -> tuple[list[dict[str, Any]], list[str], dict[str, tuple[list[str], dict[str, str]]]]:
    """Convert every environment found at `path`, replay each task's ground truth (twice), and save the ones that
    load to the catalog. Returns (catalog entries, error messages, notes and tool decisions per environment)."""
    keys = adapter(fmt).discover(path, options)
    chosen = [k for k in keys if not options.only or k in options.only]
    if not chosen:
        return [], [f"no environment found at {path}" + (f" among {keys}" if keys else "")], {}
    entries, errors, reports = [], [], {}
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not show_progress,
    )
    with progress:
        for key in chosen:
            env = env_name(name, key, chosen)
            job = progress.add_task(f"{env}: converting", total=None)

            def advance(step: int, job: Any = job, env: str = env) -> None:
                if step < 0:  # the number of replays to come
                    progress.update(job, total=-step, description=f"{env}: replaying ground truth")
                else:
                    progress.advance(job, step)

            try:
                entry, notes, decisions = import_one(fmt, path, key, env, options, isolate, advance)
            except Exception as exc:  # report the environment that does not convert and go on with the others
                errors.append(f"{env} ({key}): {type(exc).__name__}: {exc}")
                continue
            finally:
                progress.remove_task(job)
            entries.append(entry)
            reports[env] = (notes, decisions)
    if entries:
        save_entries(entries)
        register_external()
    return entries, errors, reports


def cmd_import(args: argparse.Namespace) -> int:
    """Import, then print what was registered and decided; non-zero exit when an environment failed to convert."""
    path = Path(args.path).resolve()
    name = args.name or (path.stem if path.is_file() else path.name)
    entries, errors, reports = import_environments(
        args.format, path, name, options_of(args), args.isolate, show_progress=True
    )
    table = Table(title=f"imported from {path}")
    table.add_column("env id", no_wrap=True)
    for column in ("source key", "tools", "tasks", "ground truth failing", "nondeterministic", "skipped", "reward"):
        table.add_column(column)
    for entry in entries:
        table.add_row(
            gym_id(entry["name"]),
            entry["key"],
            str(entry["tools"]),
            str(entry["tasks"]),
            str(len(entry["failing_tasks"])),
            str(len(entry["nondeterministic_tasks"])),
            str(entry["skipped_tasks"]),
            reward_label(entry),
        )
    console.print(table)
    for env, (notes, decisions) in reports.items():
        console.print(f"[bold]{gym_id(env)}[/bold]")
        reads = sorted(t for t, why in decisions.items() if why.startswith("read"))
        writes = sorted(t for t, why in decisions.items() if why.startswith("write"))
        console.print(
            f"  reads ({len(reads)}): " + ", ".join(f"{t} [dim]({decisions[t].split(': ', 1)[1]})[/dim]" for t in reads)
        )
        console.print(
            f"  writes ({len(writes)}): "
            + ", ".join(f"{t} [dim]({decisions[t].split(': ', 1)[1]})[/dim]" for t in writes)
        )
        for note in notes:
            console.print(f"  {note}")
    for error in errors:
        console.print(f"[red]FAIL[/red] {error}")
    console.print(f"catalog: {catalog_path()}")
    return 1 if errors else 0


def list_external() -> int:
    """Print the catalog of imported environments."""
    catalog = read_catalog()
    table = Table(title=f"external environments ({catalog_path()})")
    table.add_column("env id", no_wrap=True)
    for column in ("format", "source", "tools", "tasks", "reward"):
        table.add_column(column)
    for name, entry in sorted(catalog.items()):
        table.add_row(
            gym_id(name),
            entry["format"],
            f"{entry['path']} [{entry['key']}]",
            str(entry.get("tools", "")),
            str(entry.get("tasks", "")),
            reward_label(entry),
        )
    console.print(table)
    console.print(f"{len(catalog)} external environments")
    return 0


def register(subparsers: Any) -> None:
    """Add `envfactory import`."""
    parser = subparsers.add_parser("import", help="import environments of another project (see docs/adapters.md)")
    parser.add_argument("format", choices=sorted(FORMATS), help="the other project's format")
    parser.add_argument("path", help="the file or folder to import (per format: see docs/adapters.md)")
    parser.add_argument("--name", help="name of the import: envs become ext-<name>[-<key>] (default: from the path)")
    parser.add_argument("--tasks", help="tasks / RL rows / possible answers file")
    parser.add_argument("--solutions", help="ground-truth calls for tasks that have none (AWM, EnvScaler)")
    parser.add_argument("--code", help="code folder (tau2 domain code, BFCL backend classes)")
    parser.add_argument("--docs", help="function docs folder (BFCL)")
    parser.add_argument("--writes", default="", help="comma-separated tools to treat as writing")
    parser.add_argument("--reads", default="", help="comma-separated tools to treat as read-only")
    parser.add_argument(
        "--cache-fields", default="", help="comma-separated field names that are caches, left out of the compared state"
    )
    parser.add_argument(
        "--allow-network", action="store_true", help="let the environment's code use the network (refused by default)"
    )
    parser.add_argument("--only", action="append", default=[], help="import only this key (repeatable)")
    parser.add_argument(
        "--isolate", action="store_true", help="run the external code in the sandbox (envfactory_gym.sandbox)"
    )
    parser.set_defaults(func=cmd_import)
