"""The `envfactory` command line. The core commands (list, info, index, new, verify, split, rollout) are here;
every other one comes from the `envfactory.commands` entry-point group (pyproject) and loads only when it is the
one asked for, so the runtime never imports the layers above it and a quick command stays quick."""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import EntryPoint, entry_points

from ..errors import ExternalEnvironmentError, UnknownName
from . import checks, rollout, zoo

COMMAND_GROUP = "envfactory.commands"
CORE_COMMANDS = {"list", "info", "index", "new", "verify", "split", "rollout"}


def command_entry_points(command: str | None = None) -> list[EntryPoint]:
    """Entry points of the `envfactory.commands` group, named `<command>` or `<command>.<part>`; all of them, or
    only those of one command."""
    found = sorted(entry_points(group=COMMAND_GROUP), key=lambda e: e.name)
    return [e for e in found if command is None or e.name.split(".")[0] == command]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with the core sub-commands and those that entry points add: all of them (`command`
    None) or only those of `command` (none when it is a core command)."""
    from .. import __version__

    parser = argparse.ArgumentParser(prog="envfactory", description=__doc__)
    parser.add_argument("--version", action="version", version=f"envfactory-gym {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    registered: set[str] = set()
    for entry in command_entry_points(command):
        if entry.value not in registered:  # one module may provide several commands
            registered.add(entry.value)
            entry.load()(sub)
    for module in (zoo, checks, rollout):
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `envfactory` command. A name nothing answers to, or an imported environment that cannot
    load here, is one line on stderr and exit status 2."""
    argv = sys.argv[1:] if argv is None else argv
    command = next((a for a in argv if not a.startswith("-")), None)
    if command in CORE_COMMANDS:
        parser = build_parser("")
    else:
        parser = build_parser(command if command and command_entry_points(command) else None)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (UnknownName, ExternalEnvironmentError, FileExistsError) as exc:
        print(f"envfactory {args.command}: {exc}", file=sys.stderr)
        return 2
