"""The tool dependency graph: tools and parameters as networkx nodes, dependencies as edges, saved as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, Literal, Sequence

import networkx as nx

Role = Literal["internal", "external"]
Source = Literal["semantic", "rule", "seed", "llm"]
PARAM_PREFIX = "param:"


def fills_input(slot: str, name: str) -> bool:
    """Whether a `via` slot (an input name, or `input[].field` / `input.field`) puts values into input `name`."""
    return slot == name or slot.startswith((f"{name}[].", f"{name}."))


class ToolGraph:
    """A directed graph over one environment.

    Tool nodes are named by the tool (attributes: `kind="tool"`, `read_only`, `user_only`, `description`,
    `inputs`, `outputs`); parameter nodes are `param:<name>` (`kind="param"`, `members`: the parameters merged
    into it). Edges: tool -> parameter (`kind="output"`), parameter -> tool (`kind="input"`) and tool -> tool
    (`kind="dependency"`: `sources`, `via` = [[output path, input slot, score]], `reasons`; a slot is an input
    name, or `input[].field` for a field of the objects an input takes). `u -> v` with
    input `p` in its `via` means "u produces p for v" (the paper's p in O(u) with (u -> v) in E).
    """

    def __init__(self, graph: nx.DiGraph | None = None) -> None:
        self.graph = graph if graph is not None else nx.DiGraph()

    # ------------------------------------------------------------------ building

    def add_tool(self, name: str, **attributes: Any) -> None:
        """Add a tool node (`inputs`/`outputs` are lists of parameter dicts)."""
        self.graph.add_node(name, kind="tool", **attributes)

    def add_param(self, node: str, **attributes: Any) -> None:
        """Add a (merged) parameter node."""
        self.graph.add_node(node, kind="param", **attributes)

    def link_param(self, tool: str, node: str, direction: Literal["input", "output"], field: str) -> None:
        """Connect a tool with a parameter node it consumes (`input`) or produces (`output`)."""
        u, v = (node, tool) if direction == "input" else (tool, node)
        if self.graph.has_edge(u, v):
            self.graph.edges[u, v]["fields"].append(field)
        else:
            self.graph.add_edge(u, v, kind=direction, fields=[field])

    def add_dependency(
        self, u: str, v: str, source: Source, via: Sequence[tuple[str, str, float]] = (), reason: str = ""
    ) -> None:
        """Add (or extend) the dependency `u -> v`; `via` lists (output path of u, input name of v, score)."""
        if not self.graph.has_edge(u, v):
            self.graph.add_edge(u, v, kind="dependency", sources=[], via=[], reasons=[])
        data = self.graph.edges[u, v]
        if source not in data["sources"]:
            data["sources"].append(source)
        known = {(o, i) for o, i, _ in data["via"]}
        data["via"] += [[o, i, round(float(s), 4)] for o, i, s in via if (o, i) not in known]
        if reason and reason not in data["reasons"]:
            data["reasons"].append(reason)

    def remove_dependency(self, u: str, v: str) -> None:
        """Drop the dependency `u -> v` if present."""
        if self.has_dependency(u, v):
            self.graph.remove_edge(u, v)

    def set_roles(self, roles: dict[str, Role], source: str) -> None:
        """Store the internal/external class of every input (`tool.input` keys) on the graph and its tools."""
        self.graph.graph["roles"] = dict(sorted(roles.items()))
        self.graph.graph["roles_source"] = source
        for tool in self.tools():
            for item in self.inputs(tool):
                item["role"] = roles.get(f"{tool}.{item['name']}", "external")

    # ------------------------------------------------------------------ queries

    def tools(self, agent_only: bool = False) -> list[str]:
        """Tool names in insertion (definition) order; `agent_only` leaves user-only tools out."""
        return [
            n for n, d in self.graph.nodes(data=True) if d["kind"] == "tool" and not (agent_only and d.get("user_only"))
        ]

    def params(self) -> list[str]:
        """Parameter node ids."""
        return [n for n, d in self.graph.nodes(data=True) if d["kind"] == "param"]

    def tool(self, name: str) -> dict[str, Any]:
        """Attributes of a tool node."""
        return self.graph.nodes[name]

    def inputs(self, tool: str) -> list[dict[str, Any]]:
        """Input parameters of a tool: name, type, required, description, role, param (node id)."""
        return self.graph.nodes[tool]["inputs"]

    def outputs(self, tool: str) -> list[dict[str, Any]]:
        """Output parameters of a tool: name, path, type, param (node id)."""
        return self.graph.nodes[tool]["outputs"]

    def role(self, tool: str, name: str) -> Role:
        """`internal` or `external` for one input of a tool."""
        return self.graph.graph.get("roles", {}).get(f"{tool}.{name}", "external")

    def has_dependency(self, u: str, v: str) -> bool:
        """Whether the tool edge `u -> v` exists."""
        return self.graph.has_edge(u, v) and self.graph.edges[u, v]["kind"] == "dependency"

    def dependencies(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """Every tool -> tool edge with its data."""
        for u, v, data in self.graph.edges(data=True):
            if data["kind"] == "dependency":
                yield u, v, data

    def successors(self, tool: str) -> list[str]:
        """Tools `v` with `tool -> v`, in a stable order."""
        return [v for v in self.graph.successors(tool) if self.has_dependency(tool, v)]

    def predecessors(self, tool: str) -> list[str]:
        """Tools `u` with `u -> tool`, in a stable order."""
        return [u for u in self.graph.predecessors(tool) if self.has_dependency(u, tool)]

    def provides(self, u: str, v: str, name: str) -> bool:
        """Whether `u` produces input `name` of `v` (or a field of its objects): the edge `u -> v` exists and
        lists it in its `via`."""
        return self.has_dependency(u, v) and any(fills_input(i, name) for _, i, _ in self.graph.edges[u, v]["via"])

    def producers(self, v: str, name: str) -> list[str]:
        """Tools that produce input `name` of `v` (candidates for Algorithm 2's backward step)."""
        return [u for u in self.predecessors(v) if self.provides(u, v, name)]

    def via_score(self, u: str, v: str, name: str) -> float:
        """The best score of the pairs through which `u` feeds input `name` of `v` (0 when it does not)."""
        if not self.has_dependency(u, v):
            return 0.0
        return max((s for _, i, s in self.graph.edges[u, v]["via"] if fills_input(i, name)), default=0.0)

    def feeding_paths(self, u: str, v: str, name: str) -> list[str]:
        """Output paths of `u` that feed input `name` of `v` (a slot name, `segments[].origin`, names a field of
        the objects an input takes; an input name matches only pairs into the input itself)."""
        if not self.has_dependency(u, v):
            return []
        return [o for o, i, _ in self.graph.edges[u, v]["via"] if i == name]

    def isolated_tools(self) -> list[str]:
        """Tools without any dependency edge."""
        return [t for t in self.tools() if not self.successors(t) and not self.predecessors(t)]

    def stats(self) -> dict[str, Any]:
        """Counts a person can read: tools, parameters, dependencies by source, roles, isolated tools."""
        by_source: dict[str, int] = {}
        for _, _, data in self.dependencies():
            for source in data["sources"]:
                by_source[source] = by_source.get(source, 0) + 1
        roles = list(self.graph.graph.get("roles", {}).values())
        return {
            "tools": len(self.tools()),
            "parameters": sum(len(self.inputs(t)) + len(self.outputs(t)) for t in self.tools()),
            "parameter_nodes": len(self.params()),
            "dependencies": sum(1 for _ in self.dependencies()),
            "by_source": dict(sorted(by_source.items())),
            "internal_inputs": roles.count("internal"),
            "external_inputs": roles.count("external"),
            "isolated": self.isolated_tools(),
        }

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """networkx node-link data (plain JSON; never pickle)."""
        return nx.node_link_data(self.graph, edges="edges")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "ToolGraph":
        """Rebuild a graph from `to_json` output."""
        return cls(nx.node_link_graph(data, directed=True, multigraph=False, edges="edges"))

    def save(self, path: Path) -> Path:
        """Write the graph as JSON."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1, sort_keys=False) + "\n")
        return path

    @classmethod
    def load(cls, path: Path) -> "ToolGraph":
        """Read a graph written by `save`."""
        return cls.from_json(json.loads(Path(path).read_text()))
