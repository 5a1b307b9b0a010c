"""Benchmark metrics over episode records: mean reward with a bootstrap interval, reward components, pass^k and
pass@k (tau-bench's estimators), error rates, turns, calls, tokens, cost and latency, by agent and by env or
domain."""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from math import comb
from typing import Any, Callable, Iterable, Literal, Mapping

import numpy as np

from .prices import Price
from .records import EpisodeRecord

GroupBy = Literal["all", "domain", "env"]
COMPONENTS = ("trajectory", "state", "length_penalty", "format_penalty")
BOOTSTRAP_RESAMPLES = 2000


def pass_hat_k(trials: int, successes: int, k: int) -> float:
    """pass^k of one task: the chance that k trials drawn without replacement from `trials` all succeed."""
    if not 1 <= k <= trials:
        raise ValueError(f"pass^k needs 1 <= k <= trials (k={k}, trials={trials})")
    return comb(successes, k) / comb(trials, k)


def pass_at_k(trials: int, successes: int, k: int) -> float:
    """pass@k of one task: the chance that at least one of k trials drawn from `trials` succeeds."""
    if not 1 <= k <= trials:
        raise ValueError(f"pass@k needs 1 <= k <= trials (k={k}, trials={trials})")
    return 1.0 - comb(trials - successes, k) / comb(trials, k)


def bootstrap_interval(values: list[float], seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of `values` (deterministic for a seed)."""
    if len(values) < 2:
        return (values[0], values[0]) if values else (float("nan"), float("nan"))
    data = np.asarray(values, dtype=float)
    draws = np.random.default_rng(seed).integers(0, len(data), size=(BOOTSTRAP_RESAMPLES, len(data)))
    means = data[draws].mean(axis=1)
    tail = (1 - level) / 2 * 100
    return float(np.percentile(means, tail)), float(np.percentile(means, 100 - tail))


@dataclass
class Summary:
    """Metrics of one agent over one group of episodes (everything, one domain or one env).

    `reward` is the mean over tasks of each task's mean reward, with its 95% bootstrap interval over tasks
    (`reward_low`, `reward_high`). `pass_hat` and `pass_at` map k to the mean over tasks; k runs up to the fewest
    samples any task of the group has. `errors` counts episodes that ended in an error (scored 0), of which
    `transient_errors` were stopped by the endpoint or a timeout rather than by the model. Rates are per call
    (`tool_error_rate`: failed calls / calls; `format_error_rate`: unparsable calls / all attempted calls); `turns`,
    `calls`, `tokens` (prompt + completion), `prompt_tokens`, `completion_tokens` per episode. `pass1_low` and
    `pass1_high` bound pass^1 (95% bootstrap over tasks). `cost`: dollars for all the group's episodes (None without
    a price). `call_latency_*`: seconds per answered model call, median and 95th percentile (None when no call was
    timed, as for the baselines); `episode_seconds_*`: wall time per episode.
    """

    agent: str
    group: str
    episodes: int
    tasks: int
    reward: float
    reward_low: float
    reward_high: float
    components: dict[str, float]
    solved: float
    pass_hat: dict[int, float] = field(default_factory=dict)
    pass_at: dict[int, float] = field(default_factory=dict)
    tool_error_rate: float = 0.0
    format_error_rate: float = 0.0
    turns: float = 0.0
    calls: float = 0.0
    tokens: float = 0.0
    errors: int = 0
    transient_errors: int = 0
    pass1_low: float = 0.0
    pass1_high: float = 0.0
    prompt_tokens: float = 0.0
    completion_tokens: float = 0.0
    cost: float | None = None
    call_latency_median: float | None = None
    call_latency_p95: float | None = None
    episode_seconds_median: float = 0.0
    episode_seconds_p95: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return asdict(self)


def _median_p95(values: list[float]) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    return float(np.median(values)), float(np.percentile(values, 95))


def _summary(agent: str, group: str, records: list[EpisodeRecord], price: Price | None = None) -> Summary:
    grouped: dict[tuple[str, str], list[EpisodeRecord]] = defaultdict(list)
    for record in records:
        grouped[(record.env_id, record.task_id)].append(record)
    by_task = {task: grouped[task] for task in sorted(grouped)}  # the order episodes finished in does not matter
    task_means = [statistics.fmean(r.reward for r in runs) for runs in by_task.values()]
    low, high = bootstrap_interval(task_means)
    max_k = min(len(runs) for runs in by_task.values())
    solved = {task: sum(r.solved for r in runs) for task, runs in by_task.items()}

    def over_tasks(estimator: Callable[[int, int, int], float], k: int) -> float:
        return statistics.fmean(estimator(len(by_task[t]), solved[t], k) for t in by_task)

    calls = sum(r.tool_calls for r in records)
    attempted = calls + sum(r.format_errors for r in records)
    pass1_low, pass1_high = bootstrap_interval([solved[t] / len(by_task[t]) for t in by_task])
    prompt, completion = sum(r.prompt_tokens for r in records), sum(r.completion_tokens for r in records)
    latency = _median_p95([s for r in records for s in r.call_seconds])
    episode_seconds = _median_p95([r.seconds for r in records])
    return Summary(
        agent=agent,
        group=group,
        episodes=len(records),
        tasks=len(by_task),
        reward=statistics.fmean(task_means),
        reward_low=low,
        reward_high=high,
        components={c: statistics.fmean(float(r.components.get(c, 0.0)) for r in records) for c in COMPONENTS},
        solved=statistics.fmean(r.solved for r in records),
        pass_hat={k: over_tasks(pass_hat_k, k) for k in range(1, max_k + 1)},
        pass_at={k: over_tasks(pass_at_k, k) for k in range(1, max_k + 1)},
        tool_error_rate=sum(r.tool_errors for r in records) / calls if calls else 0.0,
        format_error_rate=sum(r.format_errors for r in records) / attempted if attempted else 0.0,
        turns=statistics.fmean(r.turns for r in records),
        calls=statistics.fmean(r.tool_calls for r in records),
        tokens=statistics.fmean(r.prompt_tokens + r.completion_tokens for r in records),
        errors=sum(r.error is not None for r in records),
        transient_errors=sum(r.error is not None and r.error_transient for r in records),
        pass1_low=pass1_low,
        pass1_high=pass1_high,
        prompt_tokens=prompt / len(records),
        completion_tokens=completion / len(records),
        cost=price.cost(prompt, completion) if price else None,
        call_latency_median=latency[0],
        call_latency_p95=latency[1],
        episode_seconds_median=episode_seconds[0] or 0.0,
        episode_seconds_p95=episode_seconds[1] or 0.0,
    )


def summarize(
    records: Iterable[EpisodeRecord], by: GroupBy = "all", prices: Mapping[str, Price] | None = None
) -> list[Summary]:
    """One `Summary` per (agent, group), agents in order of first appearance, groups sorted; `prices` gives the
    price of an agent's tokens (agents without one get no cost)."""
    groups: dict[tuple[str, str], list[EpisodeRecord]] = defaultdict(list)
    agents: dict[str, None] = {}
    for record in records:
        agents.setdefault(record.agent)
        group = "all" if by == "all" else record.domain if by == "domain" else record.env_id
        groups[(record.agent, group)].append(record)
    order = {agent: index for index, agent in enumerate(agents)}
    prices = prices or {}
    return [
        _summary(agent, group, groups[(agent, group)], prices.get(agent))
        for agent, group in sorted(groups, key=lambda key: (order[key[0]], key[1]))
    ]
