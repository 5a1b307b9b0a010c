"""Topology-aware sampling (paper 3.3.2, Appendix H): Algorithm 1 (BFS with priors) and Algorithm 2 (priors).

Deliberate readings of the pseudo-code, all documented in docs/graph.md:
- Algorithm 2, line 9 prints `IsValid and U < 0.1 -> continue`; the prose says a valid parameter is skipped
  *unless* a draw below p = 0.1 overrides it, which is what is implemented.
- A tool never counts as the producer of its own inputs (the start tool sits in V-hat before its priors).
- A group of optional inputs the seed showed a tool needs one of (`needs_one_of`: a parent page or a database)
  counts as one required input when none of them is external or provided.
- Algorithm 2 draws a producer uniformly; here it is drawn uniformly among the producers that need the fewest
  producers of their own (`find_member`, given an email, before `get_reservation`, which needs a
  reservation number), so the depth cap cuts fewer chains short, and among those the ones whose link scores
  best (the seed showed them returning such values).
- An extra producer (the p_extra draw, for an optional input) is only one needing no producers of its own: a
  producer whose needs are still being resolved (a cycle) would enter the chain without them.
- A tool joins V-hat before its own priors are resolved (the algorithms add it after), so a dependency cycle
  cannot add the same tool twice; it enters the ordered chain after its priors. A producer still pending (its
  own priors being resolved: a cycle) is never chosen as a prior, since it could not feed the tool.
- A producer whose link the seed showed never working (`FAILED_SCORE`) does not make an input valid while
  another producer's link worked, and forward expansion prefers neighbours a working link feeds: the chain gets
  the producer whose values the next tool accepts.
- V-hat is kept as an ordered list: priors enter before the tool that needs them, so the chain is an order.
- A dequeued tool already in V-hat (added earlier as someone's prior) is not resolved again, only expanded;
  each tool is expanded once.
- Forward expansion enqueues 1..k neighbours not yet sampled (the paper's Algorithm 1 samples one; the issue
  asks for 1..k, k=2 by default, for non-linear chains). Sampling stops when the queue runs dry, so a chain can
  be shorter than n, and longer by the priors of its last tool.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from envfactory_synth.graph.model import ToolGraph
from envfactory_synth.graph.seeded import FAILED_SCORE

from .chain import Chain

D_MAX = 3
P_EXTRA = 0.1


class TopologySampler:
    """Samples chains whose every required input is user-providable or produced by an earlier tool."""

    def __init__(self, graph: ToolGraph, k: int = 2, d_max: int = D_MAX, p_extra: float = P_EXTRA) -> None:
        self.graph = graph
        self.k = k
        self.d_max = d_max
        self.p_extra = p_extra

    def is_valid(self, tool: str, item: dict, visited: list[str]) -> bool:
        """IsValid: optional, external, or produced by an already sampled tool (other than `tool`)."""
        return not item["required"] or self.provided(tool, item, visited)

    def provided(self, tool: str, item: dict, visited: list[str]) -> bool:
        """External (the user says it), or produced by an already sampled tool (other than `tool`)."""
        if self.graph.role(tool, item["name"]) == "external":
            return True
        return any(u != tool and self.feeds(u, tool, item["name"]) for u in visited)

    def feeds(self, u: str, tool: str, name: str) -> bool:
        """Whether `u` produces input `name` of `tool` with values that can work: a link whose values the seed
        passed on without success (`FAILED_SCORE`: a reservation number from the points history names a finished
        rental) counts only when no producer of that input did better."""
        if not self.graph.provides(u, tool, name):
            return False
        if self.graph.via_score(u, tool, name) != FAILED_SCORE:
            return True
        return all(self.graph.via_score(p, tool, name) == FAILED_SCORE for p in self.graph.producers(tool, name))

    def open_group(self, tool: str, visited: list[str]) -> list[dict]:
        """The inputs of a group of which the tool needs one (`needs_one_of`, from the seed) when none of them
        is provided yet; empty otherwise."""
        group = [i for i in self.graph.inputs(tool) if i["name"] in self.graph.tool(tool).get("needs_one_of", [])]
        return [] if any(self.provided(tool, i, visited) for i in group) else group

    def unmet(self, tool: str, visited: list[str]) -> int:
        """How many required inputs (or needed groups) of `tool` would still need a producer of their own."""
        return sum(not self.is_valid(tool, item, visited) for item in self.graph.inputs(tool)) + bool(
            self.open_group(tool, visited)
        )

    def closes(self, tool: str, visited: list[str], depth: int, pending: set[str]) -> bool:
        """Whether `tool`, entering the chain at `depth`, can have every required input (and needed group) met
        by producers within the depth cap, none of them in `pending` (an approximation of Algorithm 2's
        recursion, so a producer whose own producer would be cut is not chosen while another one fits)."""
        inputs = [i for i in self.graph.inputs(tool) if not self.is_valid(tool, i, visited)]
        group = self.open_group(tool, visited)
        if not inputs and not group:
            return True
        if depth + 1 > self.d_max:
            return False
        below = pending | {tool}

        def met(item: dict) -> bool:
            return any(
                self.closes(u, visited, depth + 1, below)
                for u in self.graph.producers(tool, item["name"])
                if u not in below
            )

        return all(met(i) for i in inputs) and (not group or any(met(i) for i in group))

    def sample_priors(
        self, tool: str, visited: list[str], members: set[str], chain: Chain, depth: int, rng: np.random.Generator
    ) -> None:
        """Algorithm 2: add to `visited` (in order) a producer for every invalid input of `tool` (and for one
        input of an open needed group), each producer's own priors before it, down to depth `d_max`."""
        if depth >= self.d_max:
            return
        for item in self.graph.inputs(tool):
            if self.is_valid(tool, item, visited) and rng.random() >= self.p_extra:
                continue
            self._resolve(tool, item, visited, members, chain, depth, rng)
        group = [i for i in self.open_group(tool, visited) if self.graph.producers(tool, i["name"])]
        if group:
            item = group[int(rng.integers(len(group)))]
            self._resolve(tool, item, visited, members, chain, depth, rng, needed=True)

    def _resolve(
        self,
        tool: str,
        item: dict,
        visited: list[str],
        members: set[str],
        chain: Chain,
        depth: int,
        rng: np.random.Generator,
        needed: bool = False,
    ) -> None:
        """Add a producer of one input (Algorithm 2's backward step) with its own priors first; an input of a
        `needed` group counts as required (its producer may need producers of its own: a project listing needs
        the workspace)."""
        pending = members.difference(visited)
        candidates = [u for u in self.graph.producers(tool, item["name"]) if u not in pending]
        if not candidates:
            return
        needs = {u: self.unmet(u, visited) for u in candidates}
        # an extra producer for an input the chain can do without must not need others
        if not (item["required"] or needed):
            candidates = [u for u in candidates if needs[u] == 0]
            if not candidates:
                return
        closing = [u for u in candidates if self.closes(u, visited, depth + 1, pending | {tool})]
        candidates = closing or candidates  # a producer whose own needs the depth cap leaves open comes last
        candidates = [u for u in candidates if needs[u] == min(needs[u] for u in candidates)]
        scores = {u: self.graph.via_score(u, tool, item["name"]) for u in candidates}
        candidates = [u for u in candidates if scores[u] == max(scores.values())]
        prior = candidates[int(rng.integers(len(candidates)))]
        if prior not in members:
            members.add(prior)  # before recursing, so a cycle back to it cannot add it twice
            self.sample_priors(prior, visited, members, chain, depth + 1, rng)
            visited.append(prior)
            chain.depth[prior] = depth + 1
        if prior in visited:  # a prior still being resolved (a cycle) cannot feed this tool
            chain.links.append((prior, tool))

    def sample(self, start: str, n: int, rng: np.random.Generator | int) -> Chain:
        """Algorithm 1: a chain of about `n` tools grown breadth-first from `start`."""
        rng = np.random.default_rng(rng)
        chain = Chain(tools=[], start=start, method="topology", graph=self.graph)
        visited: list[str] = []
        members = {start}
        expanded: set[str] = set()
        queue = deque([start])
        while queue and (len(members) < n or start not in visited):
            tool = queue.popleft()
            if tool not in visited:
                members.add(tool)  # pending: its own priors must not add it again
                self.sample_priors(tool, visited, members, chain, 0, rng)
                visited.append(tool)
                chain.depth.setdefault(tool, 0)
            if tool not in expanded:
                expanded.add(tool)
                self._expand(tool, members, queue, chain, rng)
        chain.tools = visited
        return chain

    def _expand(self, tool: str, members: set[str], queue: deque, chain: Chain, rng: np.random.Generator) -> None:
        """Enqueue 1..k neighbours of `tool` not yet sampled, chosen uniformly."""
        fresh = [v for v in self.graph.successors(tool) if v not in members]
        working = [v for v in fresh if any(self.feeds(tool, v, i["name"]) for i in self.graph.inputs(v))]
        fresh = working or fresh
        if not fresh:
            return
        count = int(rng.integers(1, min(self.k, len(fresh)) + 1))
        for index in rng.permutation(len(fresh))[:count]:
            queue.append(fresh[index])
            chain.links.append((tool, fresh[index]))
