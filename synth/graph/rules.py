"""Step 2 without an LLM: rule-based refinement of the dependency graph, and the pruning every graph gets.

Rules (docs/graph.md explains them with examples):
1. id links: an output that is an id of entity E (`id` of a Page object, `page_id`) feeds every input that
   names an E id (`page_id`, `parent_page_id`) of another tool. E is a table of the environment or an object
   the tools return: `id` of a `FlightOffer` item is a flight offer id, for `new_flight_offer_id`, and a
   returned `nctId` is an id of an `nct` for `nct_id`. Keys count
   as ids (`item_key`), and one id can fill a list of ids (`ticket_ids`).
2. reads feed writes: a read-only tool precedes writing tools on the same entity.
3. parameter-less tools join their topic: a tool without inputs (`empty_trash`) is linked with the tools named
   after its topic (`move_page_to_trash`), else those whose description mentions it, else those on the same
   entity; writers come after them, readers before them.
4. no tool stays isolated: a tool still without edges is linked with the tool whose name and description share
   the most words with its own (readers before, writers after).
Pruning (always, after either refinement): self-loops go; `via` pairs whose types are incompatible go, and so do
pass-through pairs (`update_page` hands back the page id it was given: it does not *produce* that id, so it
cannot resolve another tool's need for one); a semantic edge left without pairs goes.
"""

from __future__ import annotations

from typing import Any

from .entities import (
    BARE_IDS,
    ID_SUFFIX,
    STOPWORDS,
    id_entity,
    is_id_like,
    keywords,
    mentioned,
    object_entities,
    snake_case,
    tool_entities,
    words,
)
from .model import ToolGraph
from .params import feeds, fills

RULE_SCORE = 1.0


def _entities(graph: ToolGraph) -> list[str]:
    return graph.graph.graph.get("entities", [])


def _returned_entities(output: dict[str, Any]) -> set[str]:
    """What a returned id names beyond the tables: its model for a bare `id`/`key` (`FlightOffer` ->
    `flight_offer`, `offer`), the words before the suffix for a named id (`nctId` -> `nct`)."""
    if output["name"].lower() in BARE_IDS:
        return object_entities(output.get("owner", ""))
    if is_id_like(output["name"]):
        prefix = "_".join(words(ID_SUFFIX.sub("", snake_case(output["name"]))))
        return {prefix} if prefix else set()
    return set()


def _object_entities(graph: ToolGraph) -> set[str]:
    """Entities named by the ids the tools return (see `_returned_entities`); computed once and kept on the
    graph (`object_entities`)."""
    meta = graph.graph.graph
    if "object_entities" not in meta:
        meta["object_entities"] = sorted(
            {e for t in graph.tools() for o in graph.outputs(t) for e in _returned_entities(o)}
        )
    return set(meta["object_entities"])


def _named_entity(graph: ToolGraph, name: str) -> str | None:
    """The entity an id-like name names: a table first (`current_account_id` -> `account`), else an object the
    tools return (`new_flight_offer_id` -> `flight_offer`)."""
    return id_entity(name, _entities(graph)) or id_entity(name, _object_entities(graph))


def output_entities(graph: ToolGraph, tool: str, output: dict[str, Any]) -> set[str]:
    """Entities whose id an output carries: from its name (`page_id`; `parent_id` names no entity), or for a
    bare `id`/`key` the tables named by the object it belongs to, that object's description or the tool, plus
    the entities the object's own name gives (`PricedFlightOffer` -> `flight_offer`, ...)."""
    entities = _entities(graph)
    if output["name"].lower() not in BARE_IDS:
        named = _named_entity(graph, output["name"]) if is_id_like(output["name"]) else None
        return {named} if named else set()
    owner = output.get("owner", "")
    tables = (
        mentioned(owner, entities)
        or mentioned(output.get("owner_description", ""), entities)
        or entities_of_tool(graph, tool)
    )
    return tables | object_entities(owner)


def input_entity(graph: ToolGraph, tool: str, item: dict[str, Any]) -> str | None:
    """The entity an id-like input points at (`_named_entity`: `page_id` -> `page`, `new_flight_offer_id` ->
    `flight_offer`); a bare `id` -> the tool's only entity."""
    if not is_id_like(item["name"]):
        return None
    named = _named_entity(graph, item["name"])
    if named:
        return named
    own = entities_of_tool(graph, tool)
    return next(iter(own)) if len(own) == 1 else None


def entities_of_tool(graph: ToolGraph, tool: str) -> set[str]:
    """Entities a tool works on (its name, else its description)."""
    return tool_entities(tool, graph.tool(tool)["description"], _entities(graph))


def link_ids(graph: ToolGraph) -> int:
    """Rule 1; returns how many (output, input) pairs it added."""
    added = 0
    tools = graph.tools()
    wanted = {v: [(i, input_entity(graph, v, i)) for i in graph.inputs(v)] for v in tools}
    for u in tools:
        for output in graph.outputs(u):
            carried = output_entities(graph, u, output)
            if not carried:
                continue
            for v in tools:
                for item, entity in wanted[v]:
                    if u != v and entity in carried and feeds(output["type"], item["type"]):
                        if not graph.provides(u, v, item["name"]):
                            added += 1
                        graph.add_dependency(
                            u,
                            v,
                            "rule",
                            [(output["path"], item["name"], RULE_SCORE)],
                            f"{output['path']} is a {entity} id",
                        )
    return added


def reads_feed_writes(graph: ToolGraph) -> int:
    """Rule 2; returns how many edges it added."""
    added = 0
    tools = graph.tools()
    for r in tools:
        if not graph.tool(r)["read_only"]:
            continue
        for w in tools:
            if w == r or graph.tool(w)["read_only"]:
                continue
            shared = entities_of_tool(graph, r) & entities_of_tool(graph, w)
            if shared:
                added += not graph.has_dependency(r, w)
                graph.add_dependency(r, w, "rule", reason=f"read before write on {', '.join(sorted(shared))}")
    return added


def _related(graph: ToolGraph, tool: str) -> list[str]:
    topic = keywords(tool)
    others = [t for t in graph.tools() if t != tool]
    by_name = [t for t in others if topic & set(words(t))]
    if by_name:
        return by_name
    by_description = [t for t in others if topic & set(words(graph.tool(t)["description"]))]
    if by_description:
        return by_description
    own = entities_of_tool(graph, tool)
    return [t for t in others if own & entities_of_tool(graph, t)]


def _attach(graph: ToolGraph, tool: str, others: list[str], reason: str) -> int:
    added = 0
    for other in others:
        u, v = (tool, other) if graph.tool(tool)["read_only"] else (other, tool)
        added += not graph.has_dependency(u, v)
        graph.add_dependency(u, v, "rule", reason=reason)
    return added


def connect_parameterless(graph: ToolGraph) -> int:
    """Rule 3; returns how many edges it added."""
    added = 0
    for tool in graph.tools():
        if not graph.inputs(tool):
            added += _attach(graph, tool, _related(graph, tool), f"{tool} takes no parameters; same topic")
    return added


def _vocabulary(graph: ToolGraph, tool: str) -> set[str]:
    return {w for w in words(f"{tool} {graph.tool(tool)['description']}") if w not in STOPWORDS and len(w) > 2}


def connect_isolated(graph: ToolGraph) -> int:
    """Rule 4; returns how many edges it added."""
    added = 0
    for tool in graph.isolated_tools():
        mine = _vocabulary(graph, tool)
        scored = []
        for other in graph.tools():
            if other != tool:
                theirs = _vocabulary(graph, other)
                scored.append((len(mine & theirs) / max(1, len(mine | theirs)), other))
        best = max(scored, default=(0.0, None))
        if best[1] is not None and best[0] > 0:
            added += _attach(graph, tool, [best[1]], f"{tool} was isolated; closest description")
    return added


def refine_with_rules(graph: ToolGraph) -> dict[str, int]:
    """Apply rules 1-4 in order; returns what each added."""
    return {
        "id_links": link_ids(graph),
        "reads_feed_writes": reads_feed_writes(graph),
        "parameterless": connect_parameterless(graph),
        "isolated": connect_isolated(graph),
    }


def _pass_through(graph: ToolGraph, u: str, output_path: str, v: str, name: str) -> bool:
    """Whether output `output_path` of `u`, fed to input `name` of `v`, is an id `u` was given: it carries an
    id of an entity that one of `u`'s required inputs already names (`update_page` returns the page id it was
    called with) and that is the entity `name` wants, where `name` wants one (`get_zone_settings`, given a
    zone, does produce ids of the zone's settings)."""
    output = next((o for o in graph.outputs(u) if o["path"] == output_path), None)
    if output is None:
        return False
    given = {input_entity(graph, u, i) for i in graph.inputs(u) if i["required"]}
    echoed = output_entities(graph, u, output) & given
    wanted = next((input_entity(graph, v, i) for i in graph.inputs(v) if i["name"] == name), None)
    return bool(echoed) and (wanted is None or wanted in echoed)


def prune(graph: ToolGraph) -> dict[str, int]:
    """Remove self-loops; `via` pairs that are unknown, type-incompatible or pass-through (an id the producer
    was itself given is not produced by it); and semantic or seed edges left without pairs (rule and LLM edges
    stay as order-only edges)."""
    removed = {"self_loops": 0, "incompatible_pairs": 0, "pass_through_pairs": 0, "empty_edges": 0}
    for u, v, data in list(graph.dependencies()):
        if u == v:
            graph.remove_dependency(u, v)
            removed["self_loops"] += 1
            continue
        out_types = {o["path"]: o["type"] for o in graph.outputs(u)}
        in_types = {i["name"]: i["type"] for i in graph.inputs(v)}
        typed = [
            pair
            for pair in data["via"]
            if pair[0] in out_types
            and _input_of(pair[1]) in in_types
            and fills(out_types[pair[0]], in_types[_input_of(pair[1])])
        ]
        observed = "seed" in data["sources"]  # the seed already showed what it produces
        kept = [pair for pair in typed if observed or not _pass_through(graph, u, pair[0], v, pair[1])]
        removed["incompatible_pairs"] += len(data["via"]) - len(typed)
        removed["pass_through_pairs"] += len(typed) - len(kept)
        data["via"] = kept
        if not kept and set(data["sources"]) <= {"semantic", "seed"}:
            graph.remove_dependency(u, v)
            removed["empty_edges"] += 1
    return removed


def _input_of(slot: str) -> str:
    """The input a `via` slot belongs to (`segments[].origin` -> `segments`)."""
    return slot.split("[]", 1)[0].split(".", 1)[0]
