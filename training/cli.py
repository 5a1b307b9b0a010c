"""`envfactory train-data`: write OpenRLHF prompt datasets or SFT chats from the zoo's tasks."""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

from envfactory_gym.registry import resolve, zoo_keys

from .datasets import prompt_rows, sft_rows, write_jsonl


def _keys(names: list[str]) -> list[str]:
    """Zoo keys of the named environments (all of them when none is named)."""
    if not names:
        return zoo_keys()
    by_spec = {id(resolve(k)): k for k in zoo_keys()}
    return [by_spec[id(resolve(n))] for n in names]


def cmd_train_data(args: argparse.Namespace) -> int:
    """Write the rows of every chosen environment to one JSONL file."""
    try:
        keys = _keys(args.names)
    except KeyError as exc:
        print(f"envfactory train-data: {exc.args[0]}", file=sys.stderr)
        return 2
    if args.mode == "sft":
        rows = (sft_rows(k, args.split) for k in keys)
    else:
        rows = (prompt_rows(k, args.mode, args.split) for k in keys)
    count = write_jsonl(itertools.chain.from_iterable(rows), Path(args.out))
    print(f"wrote {count} {args.mode} rows from {len(keys)} environments to {args.out}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `train-data` sub-command."""
    data = subparsers.add_parser(
        "train-data", help="write OpenRLHF prompt datasets (per turn or per conversation) or SFT chats",
        description="turn: one prompt per turn, earlier turns replayed from the ground truth (the paper's RL "
        "samples); conversation: one prompt per task, the whole conversation is the episode; sft: ground-truth "
        "chats (messages + tools) for supervised fine-tuning.",
    )
    data.add_argument("names", nargs="*", help="environments (default: the whole zoo)")
    data.add_argument("--mode", choices=["turn", "conversation", "sft"], default="turn")
    data.add_argument("--split", choices=["train", "test", "all"], default="train",
                      help="the environments' stored task split (splits.json; bench evaluates on test)")
    data.add_argument("--out", required=True, help="output JSONL file")
    data.set_defaults(func=cmd_train_data)
