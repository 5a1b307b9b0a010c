"""Plausible argument values drawn from a state: existing titles, names and dates for external parameters,
existing ids for internal ones, and values found inside earlier tool outputs."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from synth.graph.entities import id_entity, words
from synth.graph.params import resolve_schema

_SIZE = re.compile(r"(^|_)(size|limit|count|per_page|top|max|n)$")
_DATE = re.compile(
    r"(^|_)(date|day|at|on|time|deadline|due|start|end|from|to|until|since|birthday|check_in|check_out)$"
)
_QUERY = re.compile(r"(^|_)(query|q|search|keyword|keywords|term|terms)$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")
_TEXTUAL = ("text", "title", "name", "content", "body", "message", "note", "description", "comment", "subject")


def values_at(data: Any, path: str) -> list[Any]:
    """Values at an output path: `id`, `results[].id`, `[].id`, or `` (the result, or its items if a list)."""
    if path == "":
        return [v for v in (data if isinstance(data, list) else [data]) if v is not None]
    current = [data]
    for part in path.split("."):
        key, is_list = (part[:-2], True) if part.endswith("[]") else (part, False)
        found = []
        for item in current:
            value = (item.get(key) if isinstance(item, dict) else None) if key else item
            if is_list:
                found.extend(value if isinstance(value, list) else [])
            else:
                found.append(value)
        current = found
    return [v for v in current if v is not None]


def values_about(data: Any, path: str, entity: str | None) -> list[Any]:
    """`values_at`, preferring list items that say they are an `entity` (a field whose value is the entity's
    name, such as `"object": "database"`) when some items do."""
    if not entity or "[]." not in path:
        return values_at(data, path)
    head, _, tail = path.rpartition("[].")
    items = [i for i in values_at(data, f"{head}[]" if head else "") if isinstance(i, dict)]
    tagged = [i for i in items if entity in {v.lower() for v in i.values() if isinstance(v, str)}]
    chosen = tagged or items
    return [i[tail] for i in chosen if i.get(tail) is not None]


class ValuePool:
    """The values of one state (snapshot JSON `{"tables": {...}}`), indexed by column name and by entity."""

    def __init__(self, snapshot: dict[str, Any], entities: list[str], clock: datetime) -> None:
        self.clock = clock
        self.columns: dict[str, list[Any]] = {}
        self.table_columns: dict[tuple[str, str], list[Any]] = {}
        self.ids: dict[str, list[Any]] = {}
        for table, rows in snapshot.get("tables", {}).items():
            entity = "_".join(words(table))
            for row in rows:
                for column, value in row.items():
                    if value is None or isinstance(value, (dict, list)):
                        continue
                    self.columns.setdefault(column, []).append(value)
                    self.table_columns.setdefault((entity, column), []).append(value)
            if entity in entities and rows and "id" in rows[0]:
                self.ids[entity] = [r["id"] for r in rows]

    def existing(self, name: str) -> list[Any]:
        """Values of columns matching a parameter name: `title`; `page_title` -> `title` of pages; `title`
        anywhere for `new_title`."""
        if name in self.columns:
            return self.columns[name]
        tokens = name.split("_")
        for split in range(1, len(tokens)):
            entity, column = "_".join(words("_".join(tokens[:split]))), "_".join(tokens[split:])
            if (entity, column) in self.table_columns:
                return self.table_columns[(entity, column)]
        return self.columns.get(tokens[-1], [])

    def entity_ids(self, name: str) -> list[Any]:
        """Existing ids of the entity an id-like name points at (`page_id` -> ids of `pages`)."""
        entity = id_entity(name, list(self.ids))
        return self.ids.get(entity, []) if entity else self.columns.get(name, [])

    def date(self, rng: np.random.Generator, with_time: bool = False) -> str:
        """A date within two weeks either side of the clock (ISO, with a time when asked): past dates for what
        was done (activities, expenses), future ones for what is planned (bookings, events)."""
        moment = self.clock + timedelta(days=int(rng.integers(-14, 15)), hours=int(rng.integers(0, 9)))
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ" if with_time else "%Y-%m-%d")


def external_value(
    name: str, schema: dict[str, Any], defs: dict[str, Any], pool: ValuePool, rng: np.random.Generator
) -> Any:
    """A plausible value a user could give for an input: an option, an existing title/name/date of the state,
    a word of an existing title for a search query, or a short made-up text."""
    schema = resolve_schema(schema, defs)
    if "enum" in schema:
        return schema["enum"][int(rng.integers(len(schema["enum"])))]
    if "const" in schema:
        return schema["const"]
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        return external_value(name, [o for o in options if o.get("type") != "null"][0], defs, pool, rng)
    kind = schema.get("type", "string")
    if kind == "boolean":
        return bool(rng.integers(2))
    if kind in ("integer", "number"):
        return _number(name, schema, pool, rng, kind)
    if kind == "array":
        return [external_value(name.rstrip("s"), schema.get("items", {}), defs, pool, rng)]
    if kind == "object":
        props = schema.get("properties", {})
        chosen = [k for k in props if k in schema.get("required", []) or k in _TEXTUAL]
        return {k: external_value(k, props[k], defs, pool, rng) for k in chosen}
    return _string(name, schema, pool, rng)


def _number(name: str, schema: dict[str, Any], pool: ValuePool, rng: np.random.Generator, kind: str) -> int | float:
    low = schema["minimum"] if "minimum" in schema else schema.get("exclusiveMinimum", 0) + 1
    high = schema["maximum"] if "maximum" in schema else schema.get("exclusiveMaximum", 11) - 1
    if _SIZE.search(name):
        return int(min(max(10, low), high))
    found = [v for v in pool.existing(name) if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if found:
        value = found[int(rng.integers(len(found)))]
        return int(value) if kind == "integer" else value
    return int(rng.integers(int(low), int(high) + 1))


def _string(name: str, schema: dict[str, Any], pool: ValuePool, rng: np.random.Generator) -> str:
    fmt = schema.get("format", "")
    found = [v for v in pool.existing(name) if isinstance(v, str) and v]
    if fmt in ("date", "date-time") or (_DATE.search(name) and not found):
        return pool.date(rng, with_time=fmt == "date-time")
    if _QUERY.search(name):
        titles = [v for v in pool.existing("title") + pool.existing("name") if isinstance(v, str)]
        if titles:
            title_words = [w for w in titles[int(rng.integers(len(titles)))].split() if len(w) > 3] or ["notes"]
            return title_words[int(rng.integers(len(title_words)))]
    if found:
        return found[int(rng.integers(len(found)))]
    return f"{name.replace('_', ' ').capitalize()} {int(rng.integers(1, 100))}"
