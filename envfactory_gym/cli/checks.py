"""`envfactory verify` and `envfactory split`: the gate every environment passes, and its stored task split."""

from __future__ import annotations

import argparse
import sysconfig
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.progress import Progress

from .args import environment_names, environment_specs, fraction, workers_option
from .parallel import map_environments
from .terminal import console

if TYPE_CHECKING:
    from ..verify import VerificationReport


def verify_one(name: str) -> tuple[str, VerificationReport]:
    """Verify one environment (key, name, id or folder): its gymnasium id and report."""
    from ..verify import verify_environment

    spec = environment_specs([name])[0]
    return spec.env_id, verify_environment(spec)


def cmd_verify(args: argparse.Namespace) -> int:
    """Verify environments (names or folders), one worker process per core; non-zero exit when any fails."""
    failed = 0
    names = environment_names(args.names)
    with Progress(console=console, transient=True) as progress:
        job = progress.add_task(f"verifying {len(names)} environments", total=len(names))
        for env_id, report in map_environments(verify_one, names, args.workers):
            progress.advance(job)
            if report.passed:
                progress.console.print(
                    f"[green]PASS[/green] {env_id}: {report.tasks_checked} tasks replay to 1.0, check_env ok"
                )
                continue
            failed += 1
            progress.console.print(f"[red]FAIL[/red] {env_id}")
            for finding in report.findings:
                progress.console.print(f"  [{finding.component}] {finding.check}: {finding.message}")
    return 1 if failed else 0


def installed(folder: Path) -> bool:
    """Whether a folder lies inside an installed package (site-packages), where nothing may be written."""
    places = {Path(sysconfig.get_paths()[name]).resolve() for name in ("purelib", "platlib")}
    resolved = folder.resolve()
    return any(resolved.is_relative_to(place) for place in places)


def cmd_split(args: argparse.Namespace) -> int:
    """Store (or, with --check, only check) each environment's train/test split, where the environment lives."""
    from ..splits import TEST_FRACTION, assign, read_split, write_split
    from ..tasks import load_tasks

    share = TEST_FRACTION if args.test_fraction is None else args.test_fraction
    stale = 0
    for spec in environment_specs(args.names):
        stored = read_split(spec)
        split = assign(spec.name, sorted(load_tasks(spec)), stored, share)
        if args.check:
            stale += split != stored
            console.print(f"{'ok' if split == stored else '[red]stale[/red]'} {spec.env_id}")
            continue
        if installed(spec.folder):
            console.print(
                f"[red]{spec.env_id} is part of an installed package ({spec.folder}): its split ships "
                "with it and is not rewritten[/red]"
            )
            stale += 1
            continue
        if stored is not None and args.test_fraction is not None:
            console.print(f"{spec.env_id}: stored assignments are kept; --test-fraction places only new tasks")
        write_split(spec, share)
        console.print(f"{spec.env_id}: {len(split['train'])} train, {len(split['test'])} test")
    return 1 if stale else 0


def register(sub: Any) -> None:
    """Add verify and split."""
    verify = sub.add_parser("verify", help="replay every task's ground truth and run check_env")
    verify.add_argument(
        "names", nargs="*", help="environments (key, name, id) or environment folders (default: every environment)"
    )
    workers_option(verify)
    verify.set_defaults(func=cmd_verify)
    split = sub.add_parser("split", help="store each environment's held-out train/test task split")
    split.add_argument("names", nargs="*", help="environments or environment folders (default: every environment)")
    split.add_argument(
        "--test-fraction",
        type=fraction,
        default=None,
        help="share of the tasks held out for test, 0-1 (default 0.3; with a stored split it places only new tasks)",
    )
    split.add_argument("--check", action="store_true", help="only check that every stored split is complete")
    split.set_defaults(func=cmd_split)
