"""The offline refinement: input classes and dependency edges from the seed observations, names, types and
embedding similarity (no LLM).

Classes (`seed_roles`), first rule that applies:
1. inputs of user-only tools are external (the user performs those calls with what they hold);
2. choices (enums, booleans, non-integer numbers, dates) and search text (`query`, `q`, `keyword`) are external;
3. paging tokens (`cursor`, or a description naming the previous page's `next_cursor`) are internal;
4. an input the seed showed accepting key values is internal unless one of those keys is what a person says
   (a name, a title, an email, a phone number, text with spaces): ids, codes and numbers of records are internal;
5. an input whose bogus value was accepted (it looked nothing up) is external;
6. otherwise the name decides: ids, keys, tokens, handles, a description calling it an "ID", or the name of a
   table whose keys look system-made (`customer`, `channel`) are internal; everything else external.
An input that takes objects is internal when a required field of them is (cart lines name variant ids).

Edges (`link_with_seed`): `u -> v` via (output of `u`, input `p` of `v`) when `p` is internal, the types fit,
the output carries the kind of value `p` takes, and `u` produces it:
- *kind*: the key columns the output's values lie in meet the key columns `p` accepts; where the seed showed
  nothing for one side, the names decide (`rules.output_entities` / `rules.input_entity`, or inputs of the same
  name elsewhere), or an embedding similarity of at least the edge threshold;
- *produces*: a read produces values it was not given (an output that only ever echoed the call's own arguments
  produces nothing); a write produces only what it brought into being (values new to the state: the ids of what
  it created). Unobserved, the schema decides (a read's output that is not the id it was given; a write's own
  top-level `id`/`key`).
A pair whose values, passed on the seed, made the taking tool succeed scores 1.0 (`observe`'s pair checks); one
whose values never did 0.95; one the seed never tried (names or borrowed kinds) 0.9; an embedding-only pair its
cosine. The sampler prefers the best-scored producers.
"""

from __future__ import annotations

import re
from typing import Any

from envfactory_gym.llm.state_view import looks_internal
from envfactory_gym.spec import EnvironmentSpec

from .classify import heuristic_role
from .entities import BARE_IDS, snake_case, words
from .model import Role, ToolGraph
from .observe import PAGING, PAGING_TEXT, QUERY, Column, SeedObservations, slots
from .params import feeds, resolve_schema
from .rules import RULE_SCORE, _pass_through, input_entity, output_entities

FAILED_SCORE = 0.95  # a pair whose values, passed on the seed, never made the taking tool succeed
UNSEEN_SCORE = 0.9  # a pair the names (or borrowed kinds) support but the seed never tried

ID_TEXT = re.compile(r"\b(ID|IDs|id of|ids of|[Kk]eys? of)\b")
RETRIEVED = re.compile(r"\b(last retrieved|current version|as listed by|as returned by)\b", re.I)
TIME_TEXT = re.compile(r"\b(unix time|time|date|datetime|timestamp)\b", re.I)
TOOL_WORD = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
LABEL_COLUMNS = frozenset(
    "name title full_name display_name real_name username subject label first_name last_name email phone".split()
)
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
_PHONE = re.compile(r"^(?=.*[\s()+-])\+?[\d\s().-]{7,}$")
_URL = re.compile(r"^https?://")


# ---------------------------------------------------------------------------------------------- classes


def human_column(obs: SeedObservations, column: Column) -> bool:
    """Whether a key column holds what a person says: names and titles, emails, phone numbers, links, text."""
    if column[1] in LABEL_COLUMNS:
        return True
    values = [v for v in obs.index.values.get(column, ()) if isinstance(v, str)][:50]
    if not values:
        return False
    human = sum(bool(_EMAIL.match(v) or _PHONE.match(v) or _URL.match(v) or " " in v) for v in values)
    return human >= 0.5 * len(values)


def _table_entities(obs: SeedObservations) -> dict[str, str]:
    return {"_".join(words(table)): table for table in obs.index.tables}


def _names_internal_table(obs: SeedObservations, name: str) -> bool:
    """Whether an input's name is a table's (`customer`, `channel`, `users`) whose keys look system-made."""
    table = _table_entities(obs).get("_".join(words(snake_case(name))))
    if table is None:
        return False
    keys = [k for k in obs.index.keys if k[0] == table and not human_column(obs, k)]
    values = [v for k in keys for v in list(obs.index.values[k])[:20] if isinstance(v, str)]
    return bool(values) and sum(looks_internal(v) for v in values) >= 0.5 * len(values)


def _choice(schema: dict[str, Any], defs: dict[str, Any]) -> bool:
    schema = resolve_schema(schema, defs)
    if schema.get("type") == "array":
        return _choice(schema.get("items", {}), defs)
    return (
        "enum" in schema
        or "const" in schema
        or schema.get("type") in ("boolean", "number")
        or schema.get("format") in ("date", "date-time")
    )


def _name_role(obs: SeedObservations | None, name: str, description: str, tools: set[str]) -> Role:
    if heuristic_role(name, description) == "internal" or ID_TEXT.search(description) or RETRIEVED.search(description):
        return "internal"
    if tools & set(TOOL_WORD.findall(description)):  # "the extra's code from list_extras"
        return "internal"
    if obs is not None and _names_internal_table(obs, name):
        return "internal"
    return "external"


def _borrowed(obs: SeedObservations | None) -> dict[str, set[Column]]:
    """Key columns accepted by slots of each name (`sipp_code`, `line_item_id`; never a bare `id`)."""
    found: dict[str, set[Column]] = {}
    if obs is not None:
        for (_, slot), columns in obs.accepts.items():
            last = slot.rpartition(".")[2]
            if columns and last.lower() not in BARE_IDS:
                found.setdefault(last, set()).update(columns)
    return found


def _lent(borrowed: dict[str, set[Column]], name: str, description: str) -> set[Column]:
    """Key columns slots of this name accept elsewhere, else those of a slot whose name ends this one's
    (`ts` for `thread_ts`), else those of a slot the description names ("The message's ts" for `timestamp`;
    not in a description of a time, "Only messages after this ts (Unix time)")."""
    if name in borrowed:
        return borrowed[name]
    ends = sorted((k for k in borrowed if name.endswith(f"_{k}")), key=len, reverse=True)
    if ends:
        return borrowed[ends[0]]
    if TIME_TEXT.search(description):
        return set()
    named = [w for w in re.findall(r"[A-Za-z_]+", description) if w in borrowed]
    return borrowed[named[0]] if named else set()


def _slot_role(
    obs: SeedObservations | None,
    tool: str,
    slot: str,
    name: str,
    description: str,
    tools: set[str],
    borrowed: dict[str, set[Column]],
) -> Role:
    if obs is not None:
        accepted = obs.accepted(tool, slot) or (
            (tool, slot) not in obs.unchecked and _lent(borrowed, name, description)
        )
        if accepted:
            return "external" if any(human_column(obs, c) for c in accepted) else "internal"
        if (tool, slot) in obs.unchecked:
            return "external"
    return _name_role(obs, name, description, tools)


def seed_role(
    spec: EnvironmentSpec,
    obs: SeedObservations | None,
    tool: str,
    name: str,
    borrowed: dict[str, set[Column]] | None = None,
) -> Role:
    """The class of one input (module docstring, rules 1-6)."""
    tool_spec = spec.tools[tool]
    if tool_spec.user_only:
        return "external"
    borrowed = _borrowed(obs) if borrowed is None else borrowed
    schema = tool_spec.input_schema
    defs = schema.get("$defs", {})
    prop = schema["properties"][name]
    description = tool_spec.input_model.model_fields[name].description or ""
    if _choice(prop, defs) or QUERY.search(snake_case(name)):
        return "external"
    if PAGING.search(snake_case(name)) or PAGING_TEXT.search(description):
        return "internal"
    tools = set(spec.tools) - {tool}
    fields = [s for s in slots(spec, tool) if s.input == name and s.field is not None]
    if fields:
        required = set(_object_schema(prop, defs).get("required", []))
        for slot in fields:
            if (
                slot.field in required
                and _slot_role(obs, tool, slot.name, slot.field, "", tools, borrowed) == "internal"
            ):
                return "internal"
        return "external"
    return _slot_role(obs, tool, name, name, description, tools, borrowed)


def _object_schema(prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    resolved = resolve_schema(prop, defs)
    return resolve_schema(resolved.get("items", {}), defs) if resolved.get("type") == "array" else resolved


def seed_roles(spec: EnvironmentSpec, obs: SeedObservations | None) -> dict[str, Role]:
    """The class of every input, keyed `tool.input`."""
    borrowed = _borrowed(obs)
    return {
        f"{tool}.{name}": seed_role(spec, obs, tool, name, borrowed)
        for tool in spec.tools
        for name in spec.tools[tool].input_schema["properties"]
    }


# ---------------------------------------------------------------------------------------------- edges


class _Kinds:
    """Which key columns an input takes and an output carries: observed, else borrowed from inputs (or object
    fields) of the same name and from outputs of the same model and field that were observed. Bare `id`/`key`
    names are never borrowed: they say nothing about what they name."""

    def __init__(self, graph: ToolGraph, spec: EnvironmentSpec, obs: SeedObservations | None) -> None:
        self.graph = graph
        self.spec = spec
        self.obs = obs
        self.by_slot_name = _borrowed(obs)
        self.by_output_field: dict[tuple[str, str], set[Column]] = {}
        if obs is None:
            return
        for tool in graph.tools():
            for output in graph.outputs(tool):
                found = obs.output_columns(tool, output["path"])
                if found:
                    self.by_output_field.setdefault((output.get("owner", ""), output["name"]), set()).update(found)

    def slot(self, tool: str, slot: str) -> set[Column]:
        """Key columns one input (or object field) takes: observed, else borrowed by its name or the slot its
        description names."""
        if self.obs is None:
            return set()
        last = _last_name(slot)
        if self.obs.accepted(tool, slot) or last.lower() in BARE_IDS:
            return self.obs.accepted(tool, slot)
        field = self.spec.tools[tool].input_model.model_fields.get(slot)
        return _lent(self.by_slot_name, last, (field.description or "") if field else "")

    def input(self, tool: str, name: str) -> set[Column]:
        """Key columns an input or any field of its objects takes."""
        found: set[Column] = set()
        for slot in slots(self.spec, tool):
            if slot.input == name:
                found |= self.slot(tool, slot.name)
        return found

    def output(self, tool: str, output: dict[str, Any]) -> set[Column]:
        if self.obs is None:
            return set()
        if self.obs.output_values(tool, output["path"]):
            return named_among(self.obs.output_columns(tool, output["path"]), output)
        if self.obs.shown_empty(tool, output["path"]):
            return set()
        return self.by_output_field.get((output.get("owner", ""), output["name"]), set())


def named_among(columns: set[Column], output: dict[str, Any]) -> set[Column]:
    """Of the key columns an output's values lie in, those of tables its path or model names, when some are:
    Jira numbers projects, issues, statuses and components alike (`10001`), and a project's id is a project's."""
    said = set(words(f"{output.get('owner', '')} {output['path']}"))
    named = {c for c in columns if set(words(c[0])) & said}
    return named or columns


def _last_name(slot: str) -> str:
    return slot.rpartition(".")[2]


def _produces(graph: ToolGraph, kinds: _Kinds, tool: str, output: dict[str, Any], consumer: str, name: str) -> bool:
    """Whether `tool` produces the values of `output` (module docstring, *produces*)."""
    obs = kinds.obs
    read_only = graph.tool(tool)["read_only"]
    seen = obs is not None and bool(obs.output_values(tool, output["path"]))
    if seen:
        return not obs.echoes(tool, output["path"]) if read_only else bool(obs.creates(tool, output["path"]))
    if "[]" not in output["path"] and _pass_through(graph, tool, output["path"], consumer, name):
        return False
    carried = kinds.output(tool, output)
    given = [kinds.input(tool, i["name"]) for i in graph.inputs(tool) if i["required"]]
    if carried and any(carried & g for g in given):  # the kind of value it was given: an echo
        return False
    return read_only or (output["path"] == output["name"] and output["name"].lower() in BARE_IDS)


def _same_name(output: dict[str, Any], name: str) -> bool:
    """An output and an input of the same specific name (`library_version`); one word (`version`) is too
    vague: an item's version is not a collection's."""
    return output["name"] == name and len(words(name)) > 1


def _targets(
    graph: ToolGraph, spec: EnvironmentSpec, obs: SeedObservations | None, tool: str, item: dict[str, Any]
) -> list[tuple[str, str, str | None]]:
    """Where an internal input's values go: (slot name, value type, entity its name names). A plain input is one
    slot; an input taking objects has one per field that is itself internal (`segments[].origin`,
    `segments[].train_number`), so an edge says which field a value fills."""
    fields = [s for s in slots(spec, tool) if s.input == item["name"] and s.field is not None]
    if not fields:
        return [(item["name"], item["type"], input_entity(graph, tool, item))]
    tools = set(spec.tools) - {tool}
    borrowed = _borrowed(obs)
    return [
        (s.name, s.kind, input_entity(graph, tool, {"name": s.field}))
        for s in fields
        if _slot_role(obs, tool, s.name, s.field, "", tools, borrowed) == "internal"
    ]


def link_with_seed(graph: ToolGraph, spec: EnvironmentSpec, obs: SeedObservations | None) -> dict[str, int]:
    """Replace the semantic edges with the evidence-based ones (module docstring); returns counts by signal."""
    semantic = {(u, v, o, i): s for u, v, d in graph.dependencies() for o, i, s in d["via"]}
    for u, v, _ in list(graph.dependencies()):
        graph.remove_dependency(u, v)
    kinds = _Kinds(graph, spec, obs)
    counts = {"seed": 0, "names": 0, "semantic": 0}
    agents = [t for t in graph.tools() if not graph.tool(t)["user_only"]]
    for v in agents:
        for item in graph.inputs(v):
            if graph.role(v, item["name"]) != "internal":
                continue
            for slot, wanted_type, wanted_entity in _targets(graph, spec, obs, v, item):
                for u in agents:
                    if u == v:
                        continue
                    for output in graph.outputs(u):
                        if not feeds(output["type"], wanted_type) or (
                            obs is not None and obs.shown_empty(u, output["path"])
                        ):
                            continue
                        signal = _signal(graph, kinds, semantic, u, output, v, item["name"], slot, wanted_entity)
                        if signal is None or not _produces(graph, kinds, u, output, v, item["name"]):
                            continue
                        if signal == "semantic":
                            score = semantic[(u, v, output["path"], item["name"])]
                        elif obs is not None and (u, output["path"], v, slot) in obs.works:
                            score = RULE_SCORE if obs.works[(u, output["path"], v, slot)] else FAILED_SCORE
                        else:
                            score = UNSEEN_SCORE
                        graph.add_dependency(
                            u,
                            v,
                            {"seed": "seed", "names": "rule", "semantic": "semantic"}[signal],
                            [(output["path"], slot, score)],
                            f"{output['path']} -> {slot} ({signal})",
                        )
                        graph.tool(v).setdefault("slot_kinds", {})[slot] = _kind_names(
                            kinds.slot(v, slot), wanted_entity
                        )
                        counts[signal] += 1
    return counts


def _signal(
    graph: ToolGraph,
    kinds: _Kinds,
    semantic: dict,
    u: str,
    output: dict[str, Any],
    v: str,
    name: str,
    slot: str,
    wanted_entity: str | None,
) -> str | None:
    """Which signal says `output` of `u` is the kind of value slot `slot` of `v` takes: the seed (both sides
    observed or borrowed), else the names, else the embeddings; None when none does."""
    wanted = kinds.slot(v, slot)
    carried = kinds.output(u, output)
    if wanted and carried:
        return "seed" if wanted & carried else None
    if wanted_entity and wanted_entity in output_entities(graph, u, output) or _same_name(output, _last_name(slot)):
        return "names"
    if (u, v, output["path"], name) in semantic:
        return "semantic"
    return None


def _kind_names(columns: set[Column], entity: str | None) -> list[str]:
    """What kind of value a slot takes, for people: the key columns it accepts (`conversations.id`), else the
    entity its name names (`page`)."""
    return sorted(f"{table}.{column}" for table, column in columns) or ([entity] if entity else [])
