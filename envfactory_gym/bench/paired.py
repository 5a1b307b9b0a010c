"""Whether two runs really differ: a paired test over the tasks both played (bootstrap interval of the mean
difference, sign-flip permutation p-value)."""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass
from typing import Any, Mapping

import numpy as np

BOOTSTRAP_RESAMPLES = 5000
PERMUTATIONS = 10000
EXACT_UP_TO = 12  # tasks up to which every sign pattern is enumerated (2**12 patterns)


@dataclass(frozen=True)
class PairedDifference:
    """Run B minus run A over `tasks` shared tasks (each task's mean reward over its samples).

    `low`/`high`: the 95% paired-bootstrap interval of the mean difference (tasks resampled with their pair).
    `p_value`: two-sided sign-flip permutation test of "no difference" (exact for a few tasks). `real` is True when
    both agree: the interval excludes 0 and p < 1 - `level` (the bootstrap interval alone is too narrow on a
    handful of tasks; a single task, whose interval is NaN, is never enough).
    """

    group: str
    tasks: int
    mean_a: float
    mean_b: float
    difference: float
    low: float
    high: float
    p_value: float
    level: float = 0.95

    @property
    def real(self) -> bool:
        """The interval excludes no difference and the permutation test rejects it."""
        return (self.low > 0 or self.high < 0) and self.p_value < 1 - self.level

    @property
    def verdict(self) -> str:
        """`B better`, `A better` or `no clear difference`."""
        if not self.real:
            return "no clear difference"
        return "B better" if self.difference > 0 else "A better"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {**asdict(self), "real": self.real}


def _sign_flip_p(diffs: np.ndarray, rng: np.random.Generator) -> float:
    observed = abs(diffs.mean())
    n = len(diffs)
    if n <= EXACT_UP_TO:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=n)))
        return float(np.mean(np.abs(signs @ diffs / n) >= observed - 1e-12))
    signs = rng.choice((1.0, -1.0), size=(PERMUTATIONS, n))
    extreme = np.sum(np.abs(signs @ diffs / n) >= observed - 1e-12)
    return float((extreme + 1) / (PERMUTATIONS + 1))


def paired_difference(
    group: str, a: Mapping[Any, float], b: Mapping[Any, float], seed: int = 0, level: float = 0.95
) -> PairedDifference | None:
    """The paired test of B against A over the task keys both hold (None when they share none); deterministic for
    a seed."""
    shared = sorted(set(a) & set(b), key=repr)
    if not shared:
        return None
    left = np.array([a[key] for key in shared], dtype=float)
    right = np.array([b[key] for key in shared], dtype=float)
    diffs = right - left
    rng = np.random.default_rng(seed)
    if len(diffs) > 1:
        draws = rng.integers(0, len(diffs), size=(BOOTSTRAP_RESAMPLES, len(diffs)))
        means = diffs[draws].mean(axis=1)
        tail = (1 - level) / 2 * 100
        low, high = float(np.percentile(means, tail)), float(np.percentile(means, 100 - tail))
    else:  # one task: no interval to speak of
        low = high = float("nan")
    return PairedDifference(
        group,
        len(shared),
        float(left.mean()),
        float(right.mean()),
        float(diffs.mean()),
        low,
        high,
        _sign_flip_p(diffs, rng) if diffs.any() else 1.0,
        level,
    )
