"""A picture of a tool graph: tools as nodes (read, write, user-only), dependencies coloured by source."""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from .model import ToolGraph

NODE_COLORS = {"read": "#4C72B0", "write": "#DD8452", "user": "#55A868"}
EDGE_COLORS = {"llm": "#8172B3", "seed": "#C44E52", "semantic": "#333333", "rule": "#999999"}


def _kind(data: dict) -> str:
    return "user" if data.get("user_only") else "read" if data.get("read_only") else "write"


def draw_graph(graph: ToolGraph, path: Path, title: str = "") -> Path:
    """Write a PNG of the tool-level graph (tools on a circle, grouped read / write / user-only): solid edges
    carry parameters, dashed ones are order-only."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    tools = nx.DiGraph()
    order = sorted(graph.tools(), key=lambda t: list(NODE_COLORS).index(_kind(graph.tool(t))))
    tools.add_nodes_from((t, graph.tool(t)) for t in order)
    tools.add_edges_from((u, v, d) for u, v, d in graph.dependencies())
    positions = nx.circular_layout(tools)
    fig, ax = plt.subplots(figsize=(11, 8))
    for source in ("rule", "semantic", "seed", "llm"):
        for with_via in (True, False):
            edges = [
                (u, v) for u, v, d in tools.edges(data=True)
                if _top_source(d["sources"]) == source and bool(d["via"]) == with_via
            ]
            nx.draw_networkx_edges(
                tools, positions, edgelist=edges, ax=ax, edge_color=EDGE_COLORS[source], alpha=0.6,
                style="solid" if with_via else "dashed", arrowsize=10, node_size=900, connectionstyle="arc3,rad=0.06",
            )
    nx.draw_networkx_nodes(
        tools, positions, ax=ax, node_size=900, node_color=[NODE_COLORS[_kind(d)] for _, d in tools.nodes(data=True)]
    )
    nx.draw_networkx_labels(tools, positions, ax=ax, font_size=7)
    handles = [Line2D([], [], marker="o", ls="", color=c, label=f"{k} tool") for k, c in NODE_COLORS.items()]
    handles += [Line2D([], [], color=c, label=f"{k} edge") for k, c in EDGE_COLORS.items()]
    handles.append(Line2D([], [], color="#999999", ls="--", label="order only (no parameter)"))
    ax.legend(handles=handles, loc="lower left", fontsize=8)
    stats = graph.stats()
    ax.set_title(title or f"{graph.graph.graph.get('env_name', '')}: {stats['tools']} tools, "
                 f"{stats['dependencies']} dependencies, {stats['internal_inputs']} internal inputs")
    ax.axis("off")
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _top_source(sources: list[str]) -> str:
    """The most informative source of an edge: llm over seed over semantic over rule."""
    return next(s for s in ("llm", "seed", "semantic", "rule") if s in sources)
