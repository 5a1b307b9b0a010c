"""The scenario's clock: the moment an environment's seed data is about ("now" for its users).

A seed is written around a day: reservations ahead of it are upcoming, those before it completed; flights are
scheduled from it on. Chains executed at another moment ask for dates the data never makes valid (a train not
open for booking, an expense dated in the future). The environment's own tasks that start from the snapshot say
which moment that is: the clock most of them use (the earliest of the most common ones). Without such tasks the
runtime's default clock is used.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from functools import lru_cache

from envfactory_gym.database import DEFAULT_CLOCK
from envfactory_gym.spec import EnvironmentSpec
from envfactory_gym.tasks import load_tasks


def scenario_clock(spec: EnvironmentSpec, snapshot: str = "seed") -> datetime:
    """The clock the environment's tasks from `snapshot` use most (module docstring), else `DEFAULT_CLOCK`."""
    return _clock_of(spec, snapshot)


@lru_cache(maxsize=64)
def _clock_of(spec: EnvironmentSpec, snapshot: str) -> datetime:
    if not spec.tasks_path.is_file():
        return DEFAULT_CLOCK
    clocks = Counter(task.clock for task in load_tasks(spec).values() if task.snapshot == snapshot)
    if not clocks:
        return DEFAULT_CLOCK
    most = max(clocks.values())
    return min(clock for clock, count in clocks.items() if count == most)
