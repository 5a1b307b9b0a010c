"""`envfactory train-data`: SFT chats or RL prompts of the zoo's tasks, in the trajectory format or a trainer's
form, written as a Hugging Face dataset (a parquet folder or one JSONL file)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Iterator

from rich.progress import Progress

from envfactory_gym.cli.terminal import console
from envfactory_gym.registry import resolve, zoo_keys

from .datasets import prompt_records, sft_records
from .export import write_dataset
from .renderers import TRAINERS, renderer


def _keys(names: list[str]) -> list[str]:
    """Zoo keys of the named environments (all of them when none is named)."""
    if not names:
        return zoo_keys()
    by_spec = {id(resolve(k)): k for k in zoo_keys()}
    return [by_spec[id(resolve(n))] for n in names]


def cmd_train_data(args: argparse.Namespace) -> int:
    """Render the records of every chosen environment for the chosen trainer and write them."""
    try:
        keys = _keys(args.names)
        render = renderer(args.trainer, "sft" if args.mode == "sft" else "prompt")
    except (KeyError, ValueError) as exc:
        print(f"envfactory train-data: {exc.args[0]}", file=sys.stderr)
        return 2

    def records_of(key: str) -> Any:
        return sft_records(key, args.split) if args.mode == "sft" else prompt_records(key, args.mode, args.split)

    split = "test" if args.split == "test" else "train"
    with Progress(console=console, transient=True) as progress:
        job = progress.add_task("environments", total=len(keys))

        def rows() -> Iterator[dict]:
            for key in keys:
                progress.update(job, description=f"rendering {key}")
                yield from map(render, records_of(key))
                progress.advance(job)

        try:
            count = write_dataset(
                rows(),
                Path(args.out),
                split=split,
                push_to_hub=args.push_to_hub,
                trajectory_format=args.trainer == "canonical",
            )
        except ValueError as exc:
            print(f"envfactory train-data: {exc}", file=sys.stderr)
            return 1
    print(
        f"wrote {count} {args.mode} rows ({args.trainer}) from {len(keys)} environments to {args.out}"
        + (f" and pushed them to {args.push_to_hub}" if args.push_to_hub else "")
    )
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `train-data` sub-command."""
    data = subparsers.add_parser(
        "train-data",
        help="write SFT chats or RL prompts as a Hugging Face dataset, for any supported trainer",
        description="turn: one prompt per turn, earlier turns replayed from the ground truth (the paper's RL "
        "samples); conversation: one prompt per task, the whole conversation is the episode; sft: ground-truth "
        "chats. Rows are in the trajectory format (--trainer canonical) or rendered for a trainer. --out ending "
        "in .jsonl writes one JSONL file, anything else a dataset folder (parquet); both load with "
        "datasets.load_dataset.",
    )
    data.add_argument("names", nargs="*", help="environments (default: the whole zoo)")
    data.add_argument(
        "--mode",
        choices=["turn", "conversation", "sft"],
        default="turn",
        help="turn or conversation prompts for RL, or sft chats (default turn)",
    )
    data.add_argument(
        "--split",
        choices=["train", "test", "all"],
        default="train",
        help="the environments' stored task split (splits.json; bench evaluates on test)",
    )
    data.add_argument(
        "--trainer",
        choices=TRAINERS,
        default="canonical",
        help="row form: the trajectory format, or what that trainer reads (see docs/training.md)",
    )
    data.add_argument("--out", required=True, help="output: a .jsonl file or a dataset folder")
    data.add_argument("--push-to-hub", metavar="REPO_ID", help="also push the rows to this Hugging Face dataset repo")
    data.set_defaults(func=cmd_train_data)
