"""Sampling quality: how many chains are executable (statically and for real), their length and branching."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

from envfactory_gym.spec import EnvironmentSpec
from envfactory_synth.graph.model import ToolGraph

from .chain import Chain
from .execute import execute_chain
from .random_walk import RandomWalkSampler
from .topology import TopologySampler

SAMPLERS: dict[str, Callable[[ToolGraph], object]] = {"topology": TopologySampler, "random_walk": RandomWalkSampler}


def branching(chain: Chain) -> tuple[float, bool]:
    """(mean number of successors among tools that have any, whether the chain is non-linear: some tool has
    two or more successors or predecessors), over the links between tools of the chain."""
    members = set(chain.tools)
    links = {(u, v) for u, v in chain.links if u in members and v in members and u != v}
    children: dict[str, int] = {}
    parents: dict[str, int] = {}
    for u, v in links:
        children[u] = children.get(u, 0) + 1
        parents[v] = parents.get(v, 0) + 1
    mean = statistics.fmean(children.values()) if children else 0.0
    return mean, any(c > 1 for c in children.values()) or any(p > 1 for p in parents.values())


@dataclass(frozen=True)
class SamplingReport:
    """One sampler on one environment."""

    env: str
    method: str
    chains: int
    executable: float
    executes: float
    mean_length: float
    mean_branching: float
    nonlinear: float
    failures: dict[str, int] = field(default_factory=dict)  # "tool: error" (values masked) -> chains it stopped

    def row(self) -> dict:
        """JSON-ready form."""
        return asdict(self)


_QUOTED_OR_CODED = re.compile(r"'[^']*'|\"[^\"]*\"|\b[\w-]*\d[\w-]*\b")


def failure_kind(tool: str | None, error: str | None) -> str:
    """A chain's failure as `tool: error`, quoted values and words holding digits masked as `X`, so failures of
    one cause group together ("Reservation X is completed")."""
    return f"{tool}: {_QUOTED_OR_CODED.sub('X', error or '')[:120]}"


def evaluate(
    spec: EnvironmentSpec,
    graph: ToolGraph,
    method: str,
    chains: int = 100,
    seed: int = 0,
    lengths: tuple[int, int] = (3, 6),
    snapshot: str = "seed",
) -> SamplingReport:
    """Sample `chains` chains (start tool and target length drawn per chain from `seed`, the same draws for
    every method), check each statically and execute it from `snapshot` with internal inputs taken only from
    earlier outputs, the scenario's user signed in (or, where nobody signs in, picked) from the seed's accounts
    (`execute_chain(..., internal_from_state=False, sign_in=True)`, at the scenario's clock); failed executions
    are counted by `failure_kind`."""
    sampler = SAMPLERS[method](graph)
    starts = graph.tools(agent_only=True)
    executable = executes = 0
    sizes, branches, nonlinear = [], [], 0
    failures: Counter = Counter()
    for index in range(chains):
        draw = np.random.default_rng([seed, index])
        start = starts[int(draw.integers(len(starts)))]
        n = int(draw.integers(lengths[0], lengths[1] + 1))
        chain = sampler.sample(start, n, np.random.default_rng([seed, index, 1]))
        executable += chain.executable()
        run = execute_chain(spec, chain, snapshot, seed=index, internal_from_state=False, sign_in=True)
        executes += run.ok
        if not run.ok:
            failures[failure_kind(run.failed_tool, run.error)] += 1
        mean, linear_not = branching(chain)
        sizes.append(len(chain))
        branches.append(mean)
        nonlinear += linear_not
    return SamplingReport(
        env=spec.key,
        method=method,
        chains=chains,
        executable=executable / chains,
        executes=executes / chains,
        mean_length=statistics.fmean(sizes),
        mean_branching=statistics.fmean(branches),
        nonlinear=nonlinear / chains,
        failures=dict(failures.most_common()),
    )
