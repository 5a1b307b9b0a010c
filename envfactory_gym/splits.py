"""Held-out task splits: each environment's tasks split into train and test, stored beside them in `splits.json`.

A stored split never moves a task: new tasks join by the hash of their id (the lowest hashes go to test until
the test fraction is met), so a model trained on `train` can always be benchmarked on `test`.
"""

from __future__ import annotations

import hashlib
import json
import math
import warnings
from pathlib import Path
from typing import Literal

from .spec import EnvironmentSpec
from .tasks import load_tasks

Split = Literal["train", "test"]
SPLITS: tuple[Split, ...] = ("train", "test")
TEST_FRACTION = 0.3
FILE_NAME = "splits.json"


def split_path(spec: EnvironmentSpec) -> Path:
    """Where an environment's split is stored."""
    return spec.folder / FILE_NAME


def _rank(env_name: str, task_id: str) -> str:
    return hashlib.sha256(f"{env_name}:{task_id}".encode()).hexdigest()


def assign(
    env_name: str, task_ids: list[str], stored: dict[str, list[str]] | None = None, test_fraction: float = TEST_FRACTION
) -> dict[str, list[str]]:
    """Train/test ids for the `task_ids` of environment `env_name`: stored assignments kept (dropped tasks
    forgotten), new tasks added to test, lowest hash of name and id first, until test holds
    `ceil(test_fraction * n)` tasks; the rest to train."""
    known = set(task_ids)
    split = {name: sorted(t for t in (stored or {}).get(name, []) if t in known) for name in SPLITS}
    placed = set(split["train"]) | set(split["test"])
    target = math.ceil(test_fraction * len(task_ids))
    for task_id in sorted((t for t in task_ids if t not in placed), key=lambda t: _rank(env_name, t)):
        split["test" if len(split["test"]) < target else "train"].append(task_id)
    return {name: sorted(ids) for name, ids in split.items()}


def read_split(spec: EnvironmentSpec) -> dict[str, list[str]] | None:
    """The stored split, or None when the environment has none yet."""
    path = split_path(spec)
    return json.loads(path.read_text()) if path.is_file() else None


def write_split(spec: EnvironmentSpec, test_fraction: float = TEST_FRACTION) -> dict[str, list[str]]:
    """Store the split of the environment's current tasks (keeping every stored assignment); returns it."""
    split = assign(spec.name, sorted(load_tasks(spec)), read_split(spec), test_fraction)
    split_path(spec).write_text(json.dumps(split, indent=1) + "\n")
    return split


def warn_if_held_out(split: str | None, what: str) -> None:
    """Warn when training is asked to use the held-out test tasks (or every task, test included)."""
    if split in ("test", "all"):
        warnings.warn(
            f"{what} uses the {split} split: the held-out test tasks are for evaluation "
            "(`envfactory bench`); train on split='train'",
            stacklevel=3,
        )


def split_task_ids(spec: EnvironmentSpec, split: Split) -> list[str]:
    """Task ids of one split; raises when the environment has no stored split or it misses some task."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: use 'train' or 'test'")
    stored = read_split(spec)
    if stored is None:
        raise FileNotFoundError(f"{spec.env_id} has no {FILE_NAME}: run `envfactory split {spec.key}`")
    missing = set(load_tasks(spec)) - set(stored.get("train", [])) - set(stored.get("test", []))
    if missing:
        raise ValueError(f"{spec.env_id}: tasks {sorted(missing)} are in no split: run `envfactory split {spec.key}`")
    return [task_id for task_id in stored[split] if task_id in load_tasks(spec)]
