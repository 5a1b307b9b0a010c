"""Where QueryGen's chains come from: a file of tool lists, or the topology-aware sampler (synth.sampling)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from envfactory_gym.spec import EnvironmentSpec


def read_chains(path: str | Path) -> list[list[str]]:
    """One chain per line: a JSON list of tool names, or an object with a `tools` list."""
    chains = []
    for line in Path(path).read_text().splitlines():
        if line.strip():
            data = json.loads(line)
            chains.append(list(data["tools"] if isinstance(data, dict) else data))
    return chains


def sample_chains(spec: EnvironmentSpec, n: int, seed: int, length: int = 5, min_length: int = 2) -> list[list[str]]:
    """`n` executable chains from the environment's offline tool graph (seed-refined), by topology-aware sampling from
    uniformly drawn agent tools; deterministic per seed."""
    from envfactory_synth.graph.build import build_graph
    from envfactory_synth.sampling.topology import TopologySampler

    sampler = TopologySampler(build_graph(spec))
    starts = [t.name for t in spec.agent_tools]
    rng = np.random.default_rng(seed)
    chains: list[list[str]] = []
    for _ in range(n * 20):
        if len(chains) == n:
            break
        chain = sampler.sample(starts[int(rng.integers(len(starts)))], length, rng)
        if len(chain.tools) >= min_length and chain.executable():
            chains.append(chain.tools)
    return chains
