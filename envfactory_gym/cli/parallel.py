"""Per-environment work spread over worker processes, so `verify` and `rollout` use every core.

Scoring is Python work, so threads would share one core (the GIL); each environment is an independent unit, so a
process pool (the standard library's: nothing to install) gets the cores. Workers are spawned, not forked: the
parent runs rich's refresh thread, and a forked child could inherit a lock held by it.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")


def default_workers() -> int:
    """One worker per core."""
    return max(1, os.cpu_count() or 1)


def map_environments(work: Callable[[str], T], names: list[str], workers: int) -> Iterator[T]:
    """`work(name)` for every environment name, in order; with `workers` > 1 the calls run in that many
    spawned processes (`work` must be a module-level function). Results come back as soon as they are ready
    in order, so a progress bar moves while later environments still run."""
    if workers <= 1 or len(names) <= 1:
        yield from map(work, names)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(min(workers, len(names)), mp_context=context) as pool:
        yield from pool.map(work, names)
