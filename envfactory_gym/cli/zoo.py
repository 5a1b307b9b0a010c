"""`envfactory list`, `info`, `index` and `new`: what environments there are, what one holds, and a new one."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.table import Table

from ..index import DOMAINS, build_card, read_index, write_index
from ..registry import load_zoo_environment, resolve, zoo_cards, zoo_keys, zoo_root
from .terminal import console, print_whole


def cmd_list(args: argparse.Namespace) -> int:
    """Print every environment from the index (imports none): key, env id, domain, counts; `--stats` adds the
    content statistics; `--external` lists imported external environments instead."""
    if args.external:
        from ..adapters.cli import list_external

        return list_external()
    cards = list(zoo_cards().values())
    table = Table(title="envfactory environments")
    columns = ["key", "env id", "domain", "tools", "user tools", "tasks", "writing"]
    if args.stats:
        columns += ["mean turns", "calls/turn", "sampled", "seed rows"]
    for column in columns:
        table.add_column(column)
    for card in cards:
        row = [
            card.key,
            card.env_id,
            card.domain,
            str(card.tools),
            str(card.user_tools),
            str(card.tasks),
            f"{card.writing_tasks / max(1, card.tasks):.0%}",
        ]
        if args.stats:
            row += [
                f"{card.mean_turns:.2f}",
                f"{card.mean_calls_per_turn:.2f}",
                f"{card.sampled_tasks / max(1, card.tasks):.0%}",
                str(card.seed_rows),
            ]
        table.add_row(*row)
    print_whole(table)
    tools, tasks = sum(c.tools for c in cards), sum(c.tasks for c in cards)
    domains: dict[str, int] = {}
    for card in cards:
        domains[card.domain] = domains.get(card.domain, 0) + 1
    console.print(f"{len(cards)} environments, {tools} tools ({tools / max(1, len(cards)):.1f} per env), {tasks} tasks")
    console.print("per domain: " + ", ".join(f"{d} {n}" for d, n in sorted(domains.items())))
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    """A readable summary of one environment (`--json`: its metadata and every tool schema, raw)."""
    spec = resolve(args.name)
    if args.json:
        console.print_json(
            json.dumps(
                {
                    "env_id": spec.env_id,
                    "key": spec.key,
                    "name": spec.name,
                    "domain": spec.domain,
                    "product": spec.product,
                    "docs_url": spec.docs_url,
                    "description": spec.description,
                    "tools": [
                        {
                            "name": t.name,
                            "read_only": t.read_only,
                            "user_only": t.user_only,
                            "description": t.description,
                            "input_schema": t.input_schema,
                            "output_schema": t.output_schema,
                        }
                        for t in spec.tools.values()
                    ],
                }
            )
        )
        return 0
    from ..tasks import load_tasks

    tasks = load_tasks(spec)
    console.print(f"[bold]{spec.env_id}[/bold] (key [bold]{spec.key}[/bold], {spec.domain}) mirrors {spec.product}")
    console.print(spec.docs_url)
    console.print(spec.description)
    table = Table(title=f"{len(spec.tools)} tools, {len(tasks)} tasks (name? = optional argument)")
    for column in ("tool", "kind", "arguments", "what it does"):
        table.add_column(column, overflow="fold")
    for tool in spec.tools.values():
        kind = ("read" if tool.read_only else "write") + (", user-only" if tool.user_only else "")
        required = set(tool.required_inputs)
        arguments = ", ".join(n if n in required else f"{n}?" for n in tool.input_schema["properties"])
        table.add_row(tool.name, kind, arguments, tool.description.split("\n")[0])
    console.print(table)
    console.print(f"[dim]`envfactory info {spec.key} --json` prints every schema[/dim]")
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    """Write the zoo's index (or, with --check, only report whether it is current). An environment whose content
    changed at an unchanged version is refused unless --no-bump says the change leaves tools, schema, seed, tasks
    and rules as they were (a refactor)."""
    root = zoo_root()
    stored = read_index(root)
    keys = [key for key in zoo_keys() if (root / key).is_dir()]
    fresh = [build_card(load_zoo_environment(key)) for key in keys]
    unbumped = [
        c.key
        for c in fresh
        if c.key in stored and c.content_hash != stored[c.key].content_hash and c.version == stored[c.key].version
    ]
    if args.check:
        stale = [c.key for c in fresh if stored.get(c.key) != c] + sorted(set(stored) - set(keys))
        for key in stale:
            console.print(f"[red]stale[/red] {key}" + (" (content changed, same version)" if key in unbumped else ""))
        console.print("index is current" if not stale else "run `envfactory index` to update it")
        return 1 if stale else 0
    if unbumped and not args.no_bump:
        console.print(
            f"[red]content changed at the same version[/red]: {', '.join(unbumped)}. Bump `version` in "
            "their metadata.json and add a CHANGELOG.md line, or pass --no-bump for a change that leaves "
            "tools, schema, seed, tasks and rules as they were."
        )
        return 1
    console.print(f"wrote {write_index(root, fresh)} ({len(fresh)} environments)")
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    """Scaffold an environment folder that passes `envfactory verify` as it is; fill in its tools and tasks."""
    from ..scaffold import scaffold

    folder = scaffold(args.name, args.domain, Path(args.path))
    console.print(f"created {folder}: a working example (one table, a read and a write tool, a task).")
    console.print(
        f"next: edit its files, then `envfactory verify {folder}`; add its parent folder to "
        "ENVFACTORY_PATH to use it by name (gym.make, rollout, serve)"
    )
    return 0


def register(sub: Any) -> None:
    """Add list, info, index and new."""
    listing = sub.add_parser("list", help="list every environment (key, id, domain, counts)")
    listing.add_argument(
        "--stats", action="store_true", help="also mean turns, calls per turn, sampled share and seed rows"
    )
    listing.add_argument("--external", action="store_true", help="list imported external environments instead")
    listing.set_defaults(func=cmd_list)
    info = sub.add_parser("info", help="what one environment holds: a table of its tools")
    info.add_argument("name", help="environment key, name or gymnasium id")
    info.add_argument("--json", action="store_true", help="print the metadata and every tool schema as JSON")
    info.set_defaults(func=cmd_info)
    index = sub.add_parser("index", help="write the zoo's index (names, versions, counts, task ids, content hashes)")
    index.add_argument("--check", action="store_true", help="only check that the stored index is current")
    index.add_argument(
        "--no-bump",
        action="store_true",
        help="record changed content at the same version (a refactor that changes no behaviour)",
    )
    index.set_defaults(func=cmd_index)
    new = sub.add_parser("new", help="scaffold a new environment folder that passes verify")
    new.add_argument("name", help="the product name, e.g. 'Library Loans' (the key is its snake_case)")
    new.add_argument("--domain", required=True, choices=sorted(DOMAINS), help="the environment's domain")
    new.add_argument("--path", default=".", help="folder to create it in (default: the current folder)")
    new.set_defaults(func=cmd_new)
