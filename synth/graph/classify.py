"""Internal/external classification of input parameters (paper 3.3.2): an LLM, with a heuristic fallback.

External: the user can say it (a name, a date, a city, an amount, free text, a choice). Internal: system state
the user would not know or recall (ids, handles, cursors, tokens) — it must come from an earlier tool's output.
"""

from __future__ import annotations

import re
from typing import Any

from .llm import LLMClient, tool_listing
from .model import Role, ToolGraph
from .prompts import CLASSIFY_SYSTEM, CLASSIFY_USER

STAGE = "graph_classify"
_INTERNAL_NAME = re.compile(r"(?:^|_)(ids?|uuids?|guids?|keys?|tokens?|cursors?|handles?|refs?|hash|etag|session)$")
_INTERNAL_TEXT = re.compile(r"\b(as returned by|the next_cursor|opaque|internal id|returned from)\b", re.I)


def heuristic_role(name: str, description: str = "") -> Role:
    """`internal` for ids, handles, keys, tokens and cursors (by name, or a description such as "as returned
    by ..."); `external` for everything else (names, dates, cities, amounts, free text, options)."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
    if _INTERNAL_NAME.search(snake) or _INTERNAL_TEXT.search(description):
        return "internal"
    return "external"


def heuristic_roles(graph: ToolGraph) -> dict[str, Role]:
    """The heuristic class of every input, keyed `tool.input`."""
    return {
        f"{tool}.{item['name']}": heuristic_role(item["name"], item.get("description", ""))
        for tool in graph.tools()
        for item in graph.inputs(tool)
    }


def classify_messages(graph: ToolGraph, description: str) -> list[dict[str, str]]:
    """The chat messages asking an LLM to classify every input of the environment."""
    keys = "\n".join(f"- {key}" for key in heuristic_roles(graph))
    user = CLASSIFY_USER.format(
        env=graph.graph.graph.get("env_name", ""), description=description, tools=tool_listing(graph), keys=keys
    )
    return [{"role": "system", "content": CLASSIFY_SYSTEM}, {"role": "user", "content": user}]


def classify_inputs(
    graph: ToolGraph, llm: LLMClient | None = None, description: str = ""
) -> tuple[dict[str, Role], str]:
    """Classify every input; returns (roles keyed `tool.input`, source). The LLM's answer wins where it gives a
    valid class; inputs it skips keep the heuristic class (source `llm+heuristic` then)."""
    roles = heuristic_roles(graph)
    if llm is None:
        return roles, "heuristic"
    answer: dict[str, Any] = llm.complete_json(STAGE, classify_messages(graph, description)).get("roles", {})
    answered = {k: v for k, v in answer.items() if k in roles and v in ("internal", "external")}
    roles.update(answered)
    return roles, "llm" if len(answered) == len(roles) else "llm+heuristic"
