"""Argument types and helpers the sub-commands share."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..spec import EnvironmentSpec


def positive_int(text: str) -> int:
    """An integer of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """An integer of at least 0."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def fraction(text: str) -> float:
    """A number strictly between 0 and 1."""
    value = float(text)
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value}")
    return value


def workers_option(parser: argparse.ArgumentParser) -> None:
    """Add `--workers`: how many processes share the environments (default: one per core)."""
    from .parallel import default_workers

    parser.add_argument(
        "--workers",
        type=positive_int,
        default=default_workers(),
        help="worker processes, each taking whole environments (default: one per core; 1 runs in this process)",
    )


def environment_names(names: list[str]) -> list[str]:
    """The names as given, or every environment's key when none is named (cheap: builds no spec)."""
    from ..registry import zoo_keys

    return list(names) if names else zoo_keys()


def environment_specs(names: list[str]) -> list["EnvironmentSpec"]:
    """Specs of the named environments (key, name, gymnasium id, or the path of an environment folder); every
    environment of every root when none is named."""
    from ..registry import is_environment, load_zoo_environment, resolve, zoo_keys
    from ..spec import load_environment_from_folder

    if not names:
        return [load_zoo_environment(key) for key in zoo_keys()]
    specs = []
    for name in names:
        folder = Path(name)
        if ("/" in name or name.startswith(".")) and folder.is_dir():
            if not is_environment(folder):
                raise ValueError(f"{name} is no environment folder (it needs metadata.json and __init__.py)")
            specs.append(load_environment_from_folder(folder, package=f"envfactory_local_{folder.resolve().name}"))
        else:
            specs.append(resolve(name))
    return specs
