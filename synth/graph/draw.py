"""A picture of a tool graph that stays readable when many tools share a kind of value.

Tools sit on an outer ring (read, write and user-only tools in their colours), the kinds of value they pass on an
inner ring (`conversations.id`, `page`): an arrow from a tool to a kind means it produces such values, an arrow
from a kind to a tool that it takes them. Twenty tools that all take a channel id are then twenty arrows from one
node, not a tangle of producer x consumer lines. Edges without parameters (order only, from an LLM or the name
rules) are drawn tool to tool, dashed. A slot's kind is what the seed showed it accepts (`slot_kinds`, written by
`seeded.link_with_seed`), else its input name.
"""

from __future__ import annotations

import math
from pathlib import Path

import networkx as nx

from .model import ToolGraph

NODE_COLORS = {"read": "#4C72B0", "write": "#DD8452", "user": "#55A868"}
PRODUCE_COLOR = "#4C72B0"
CONSUME_COLOR = "#C44E52"
ORDER_COLOR = "#999999"


def _kind(data: dict) -> str:
    return "user" if data.get("user_only") else "read" if data.get("read_only") else "write"


def kind_of(graph: ToolGraph, tool: str, slot: str) -> str:
    """The kind of value a slot of `tool` takes (its first accepted key column, else its input name)."""
    kinds = graph.tool(tool).get("slot_kinds", {}).get(slot)
    return kinds[0] if kinds else slot.rpartition(".")[2]


def value_graph(graph: ToolGraph) -> tuple[nx.DiGraph, list[tuple[str, str]]]:
    """Tools and kinds of value (`kind:<name>` nodes) with produce/take arrows, plus the order-only tool pairs."""
    picture = nx.DiGraph()
    picture.add_nodes_from((t, {"role": "tool", **graph.tool(t)}) for t in graph.tools())
    order_only = []
    for u, v, data in graph.dependencies():
        if not data["via"]:
            order_only.append((u, v))
        for _, slot, _ in data["via"]:
            node = f"kind:{kind_of(graph, v, slot)}"
            picture.add_node(node, role="kind")
            picture.add_edge(u, node, role="produces")
            picture.add_edge(node, v, role="takes")
    return picture, order_only


def _positions(picture: nx.DiGraph) -> dict[str, tuple[float, float]]:
    """Kinds on an inner ring, tools on an outer ring next to the kinds they deal with."""
    kinds = sorted((n for n, d in picture.nodes(data=True) if d["role"] == "kind"), key=lambda n: -picture.degree(n))
    tools = [n for n, d in picture.nodes(data=True) if d["role"] == "tool"]
    angle = {k: 2 * math.pi * i / max(1, len(kinds)) for i, k in enumerate(kinds)}

    def tool_angle(tool: str) -> float:
        linked = [angle[k] for k in list(picture.successors(tool)) + list(picture.predecessors(tool)) if k in angle]
        if not linked:
            return 10.0  # tools without values: at the end of the ring
        return math.atan2(sum(math.sin(a) for a in linked), sum(math.cos(a) for a in linked)) % (2 * math.pi)

    positions = {k: (0.45 * math.cos(a), 0.45 * math.sin(a)) for k, a in angle.items()}
    ordered = sorted(tools, key=lambda t: (tool_angle(t), t))
    for index, tool in enumerate(ordered):
        a = 2 * math.pi * index / max(1, len(ordered))
        positions[tool] = (math.cos(a), math.sin(a))
    return positions


def draw_graph(graph: ToolGraph, path: Path, title: str = "") -> Path:
    """Write a PNG of the graph (module docstring)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    picture, order_only = value_graph(graph)
    positions = _positions(picture)
    fig, ax = plt.subplots(figsize=(12, 12))
    for role, color in (("produces", PRODUCE_COLOR), ("takes", CONSUME_COLOR)):
        edges = [(u, v) for u, v, d in picture.edges(data=True) if d["role"] == role]
        nx.draw_networkx_edges(
            picture,
            positions,
            edgelist=edges,
            ax=ax,
            edge_color=color,
            alpha=0.45,
            arrowsize=9,
            node_size=700,
            connectionstyle="arc3,rad=0.08",
        )
    tool_graph = nx.DiGraph(order_only)
    nx.draw_networkx_edges(
        tool_graph,
        positions,
        edgelist=order_only,
        ax=ax,
        edge_color=ORDER_COLOR,
        style="dashed",
        alpha=0.7,
        arrowsize=9,
        node_size=700,
        connectionstyle="arc3,rad=0.15",
    )
    tools = [n for n, d in picture.nodes(data=True) if d["role"] == "tool"]
    nx.draw_networkx_nodes(
        picture,
        positions,
        nodelist=tools,
        ax=ax,
        node_size=700,
        node_color=[NODE_COLORS[_kind(picture.nodes[t])] for t in tools],
    )
    for tool in tools:
        x, y = positions[tool]
        degrees = math.degrees(math.atan2(y, x))
        ax.text(
            1.1 * x,
            1.1 * y,
            tool,
            fontsize=8,
            va="center",
            rotation_mode="anchor",
            ha="left" if x >= 0 else "right",
            rotation=degrees if x >= 0 else degrees - 180,
        )
    for node, data in picture.nodes(data=True):
        if data["role"] == "kind":
            x, y = positions[node]
            ax.text(
                x,
                y,
                node[5:],
                fontsize=8,
                ha="center",
                va="center",
                bbox={"boxstyle": "round,pad=0.3", "facecolor": "#F2F2F2", "edgecolor": "#888888"},
            )
    handles = [Line2D([], [], marker="o", ls="", color=c, label=f"{k} tool") for k, c in NODE_COLORS.items()]
    handles += [
        Line2D([], [], color=PRODUCE_COLOR, label="produces (tool -> kind of value)"),
        Line2D([], [], color=CONSUME_COLOR, label="takes (kind of value -> tool)"),
        Line2D([], [], color=ORDER_COLOR, ls="--", label="order only (no parameter)"),
    ]
    ax.legend(handles=handles, loc="lower left", fontsize=8)
    stats = graph.stats()
    kinds = sum(1 for _, d in picture.nodes(data=True) if d["role"] == "kind")
    ax.set_title(
        title
        or f"{graph.graph.graph.get('env_name', '')}: {stats['tools']} tools, {stats['dependencies']} "
        f"dependencies through {kinds} kinds of value, {stats['internal_inputs']} internal inputs"
    )
    ax.set_xlim(-1.7, 1.7)
    ax.set_ylim(-1.7, 1.7)
    ax.axis("off")
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
