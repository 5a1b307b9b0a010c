"""A sampled tool chain: the ordered tools, the links that produced them, and the graph they came from."""

from __future__ import annotations

from dataclasses import dataclass, field

from envfactory_synth.graph.model import ToolGraph


@dataclass
class Chain:
    """An ordered tool list tau = [v1, ..., vn] (dependencies first).

    `links` are the graph edges the sampler followed: (prior, tool) for a resolved dependency and
    (tool, neighbour) for a forward expansion. `depth` is the recursion depth at which each tool entered
    (0: from the BFS queue; d >= 1: a prior sampled d levels below a queued tool).
    """

    tools: list[str]
    start: str
    method: str
    graph: ToolGraph = field(repr=False, compare=False)
    links: list[tuple[str, str]] = field(default_factory=list)
    depth: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.tools)

    def missing_inputs(self) -> list[tuple[str, str]]:
        """Required internal inputs (tool, input) that no earlier tool of the chain produces, and groups of
        which a tool needs one (`needs_one_of`) with none external or produced (input `a|b`)."""
        missing = []
        for index, tool in enumerate(self.tools):
            earlier = self.tools[:index]
            for item in self.graph.inputs(tool):
                if not item["required"] or self.graph.role(tool, item["name"]) == "external":
                    continue
                if not any(self.graph.provides(u, tool, item["name"]) for u in earlier):
                    missing.append((tool, item["name"]))
            group = [
                i["name"] for i in self.graph.inputs(tool) if i["name"] in self.graph.tool(tool).get("needs_one_of", [])
            ]
            if group and not any(
                self.graph.role(tool, name) == "external" or any(self.graph.provides(u, tool, name) for u in earlier)
                for name in group
            ):
                missing.append((tool, "|".join(group)))
        return missing

    def executable(self) -> bool:
        """Every required input is user-providable (external) or produced by an earlier tool of the chain."""
        return not self.missing_inputs()
