"""`envfactory import FORMAT PATH`: convert another project's environments, check their ground truth, and register
them persistently as `envfactory/ext-<name>-v0`; `envfactory list --external` lists them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.table import Table

from ..tasks import load_tasks, replay
from ..terminal import console
from . import FORMATS, adapter, env_name, load_environment
from .build import ImportOptions
from .catalog import catalog_path, env_folder, gym_id, read_catalog, register_external, save_entries


def _absolute(value: str | None) -> str | None:
    return str(Path(value).resolve()) if value else None


def _names(value: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in value.split(",") if n.strip())


def options_of(args: argparse.Namespace) -> ImportOptions:
    """The import options given on the command line (paths made absolute)."""
    return ImportOptions(
        tasks=_absolute(args.tasks), solutions=_absolute(args.solutions), code=_absolute(args.code),
        docs=_absolute(args.docs), writes=_names(args.writes), reads=_names(args.reads), only=tuple(args.only),
    )


def import_environments(
    fmt: str, path: Path, name: str, options: ImportOptions, isolate: bool = False
) -> tuple[list[dict[str, Any]], list[str]]:
    """Convert every environment found at `path`, replay each task's ground truth, and save the ones that load to
    the catalog. Returns (catalog entries, error messages)."""
    keys = adapter(fmt).discover(path, options)
    chosen = [k for k in keys if not options.only or k in options.only]
    if not chosen:
        return [], [f"no environment found at {path}" + (f" among {keys}" if keys else "")]
    entries, errors = [], []
    for key in chosen:
        env = env_name(name, key, chosen)
        try:
            spec = load_environment(fmt, path, key, env, env_folder(env), options, isolate)
            tasks = load_tasks(spec)
            failing = [task_id for task_id, task in tasks.items() if replay(spec, task).failures]
        except Exception as exc:  # report the environment that does not convert and go on with the others
            errors.append(f"{env} ({key}): {type(exc).__name__}: {exc}")
            continue
        unsolved = sum(1 for t in tasks.values() if not t.agent_calls)
        entries.append({
            "name": env, "format": fmt, "path": str(path), "key": key, "options": options.to_json(), "isolate": isolate,
            "description": spec.description.splitlines()[0] if spec.description else "", "tools": len(spec.tools),
            "tasks": len(tasks), "failing_tasks": failing, "skipped_tasks": spec.extra.get("skipped_tasks", 0),
            # tasks without ground-truth calls can only be scored by their checks
            "reward": {"checklist": 1.0, "gamma": 0.0} if unsolved and spec.checklist is not None else None,
        })
    if entries:
        save_entries(entries)
        register_external()
    return entries, errors


def cmd_import(args: argparse.Namespace) -> int:
    """Import, then print what was registered; non-zero exit when an environment failed to convert."""
    path = Path(args.path).resolve()
    name = args.name or (path.stem if path.is_file() else path.name)
    entries, errors = import_environments(args.format, path, name, options_of(args), args.isolate)
    table = Table(title=f"imported from {path}")
    table.add_column("env id", no_wrap=True)
    for column in ("source key", "tools", "tasks", "ground truth failing", "skipped", "reward"):
        table.add_column(column)
    for entry in entries:
        reward = "checklist" if entry["reward"] else "composite"
        table.add_row(gym_id(entry["name"]), entry["key"], str(entry["tools"]), str(entry["tasks"]),
                      str(len(entry["failing_tasks"])), str(entry["skipped_tasks"]), reward)
    console.print(table)
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
        table.add_row(gym_id(name), entry["format"], f"{entry['path']} [{entry['key']}]", str(entry.get("tools", "")),
                      str(entry.get("tasks", "")), "checklist" if entry.get("reward") else "composite")
    console.print(table)
    console.print(f"{len(catalog)} external environments")
    return 0


def register(subparsers: Any) -> None:
    """Add `envfactory import`."""
    parser = subparsers.add_parser("import", help="import environments of another project (see docs/adapters.md)")
    parser.add_argument("format", choices=sorted(FORMATS))
    parser.add_argument("path", help="the file or folder to import (per format: see docs/adapters.md)")
    parser.add_argument("--name", help="name of the import: envs become ext-<name>[-<key>] (default: from the path)")
    parser.add_argument("--tasks", help="tasks / RL rows / possible answers file")
    parser.add_argument("--solutions", help="ground-truth calls for tasks that have none (AWM, EnvScaler)")
    parser.add_argument("--code", help="code folder (tau2 domain code, BFCL backend classes)")
    parser.add_argument("--docs", help="function docs folder (BFCL)")
    parser.add_argument("--writes", default="", help="comma-separated tools to treat as writing")
    parser.add_argument("--reads", default="", help="comma-separated tools to treat as read-only")
    parser.add_argument("--only", action="append", default=[], help="import only this key (repeatable)")
    parser.add_argument("--isolate", action="store_true", help="run the external code in the sandbox (envfactory_gym.sandbox)")
    parser.set_defaults(func=cmd_import)
