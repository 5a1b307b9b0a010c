"""The baseline: a random walk over the tool graph (the "vanilla" sampler the paper compares against)."""

from __future__ import annotations

import numpy as np

from envfactory_synth.graph.model import ToolGraph

from .chain import Chain


class RandomWalkSampler:
    """From the start tool, repeatedly step to a uniformly chosen successor not yet visited."""

    def __init__(self, graph: ToolGraph) -> None:
        self.graph = graph

    def sample(self, start: str, n: int, rng: np.random.Generator | int) -> Chain:
        """A walk of at most `n` distinct tools; it ends early at a tool with no unvisited successor."""
        rng = np.random.default_rng(rng)
        chain = Chain(tools=[start], start=start, method="random_walk", graph=self.graph, depth={start: 0})
        while len(chain.tools) < n:
            current = chain.tools[-1]
            options = [v for v in self.graph.successors(current) if v not in chain.tools]
            if not options:
                break
            nxt = options[int(rng.integers(len(options)))]
            chain.links.append((current, nxt))
            chain.tools.append(nxt)
            chain.depth[nxt] = 0
        return chain
