"""Step 2 with an LLM (paper 3.3.1): the LLM proposes missing logical edges and prunes spurious ones."""

from __future__ import annotations

from typing import Any, Protocol

from .model import ToolGraph
from .prompts import REFINE_SYSTEM, REFINE_USER

STAGE = "graph_refine"


class LLMClient(Protocol):
    """Any LLM client that answers a chat as a JSON object (the project's OpenAI-compatible client does)."""

    def complete_json(self, stage: str, messages: list[dict[str, str]]) -> dict[str, Any]:
        """The model's answer to `messages`, parsed as a JSON object; `stage` names the pipeline step."""


def tool_listing(graph: ToolGraph) -> str:
    """Tools with flags, description, inputs and outputs, one block per tool (shared by the graph prompts)."""
    blocks = []
    for tool in graph.tools():
        data = graph.tool(tool)
        flags = ("read" if data["read_only"] else "write") + (", user only" if data["user_only"] else "")
        inputs = ", ".join(f"{i['name']}{'*' if i['required'] else ''} ({i['type']})" for i in graph.inputs(tool))
        outputs = ", ".join(f"{o['path'] or '(result)'} ({o['type']})" for o in graph.outputs(tool))
        description = " ".join(data["description"].split())
        blocks.append(
            f"- {tool} [{flags}]: {description}\n  inputs: {inputs or 'none'}\n  outputs: {outputs or 'none'}"
        )
    return "\n".join(blocks)


def edge_listing(graph: ToolGraph) -> str:
    """Current tool -> tool edges with the parameter pairs behind them."""
    lines = []
    for u, v, data in sorted(graph.dependencies()):
        pairs = "; ".join(f"{o} -> {i}" for o, i, _ in data["via"]) or "order only"
        lines.append(f"- {u} -> {v} via {pairs}")
    return "\n".join(lines) or "(none)"


def refine_messages(graph: ToolGraph, description: str) -> list[dict[str, str]]:
    """The chat messages of the refinement request."""
    user = REFINE_USER.format(
        env=graph.graph.graph.get("env_name", ""),
        description=description,
        tools=tool_listing(graph),
        edges=edge_listing(graph),
    )
    return [{"role": "system", "content": REFINE_SYSTEM}, {"role": "user", "content": user}]


def refine_with_llm(graph: ToolGraph, llm: LLMClient, description: str = "") -> dict[str, int]:
    """Ask the LLM for edges to add and remove and apply the valid ones; returns counts (added, removed,
    rejected: proposals naming unknown tools)."""
    answer = llm.complete_json(STAGE, refine_messages(graph, description))
    tools = set(graph.tools())
    counts = {"added": 0, "removed": 0, "rejected": 0}
    for item in answer.get("remove", []):
        u, v = item.get("from"), item.get("to")
        if graph.has_dependency(u, v):
            graph.remove_dependency(u, v)
            counts["removed"] += 1
        else:
            counts["rejected"] += 1
    for item in answer.get("add", []):
        u, v = item.get("from"), item.get("to")
        if u not in tools or v not in tools:
            counts["rejected"] += 1
            continue
        output, name = item.get("output"), item.get("input")
        known = any(o["path"] == output for o in graph.outputs(u)) and any(i["name"] == name for i in graph.inputs(v))
        via = [(output, name, 1.0)] if known else []
        counts["added"] += not graph.has_dependency(u, v)
        graph.add_dependency(u, v, "llm", via, item.get("reason", ""))
    return counts
