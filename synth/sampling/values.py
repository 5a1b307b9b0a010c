"""Plausible argument values drawn from a state: existing titles, names and dates for external parameters (the
signed-in user's own first), existing ids for internal ones, and values found inside earlier tool outputs."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import numpy as np

from envfactory_synth.graph.entities import id_entity, words
from envfactory_synth.graph.observe import raw_values, values_at
from envfactory_synth.graph.params import resolve_schema

from .dates import date_string, unix_time

_SIZE = re.compile(r"(^|_)(size|limit|count|per_page|top|max|n)$")
_QUERY = re.compile(r"(^|_)(query|q|search|keyword|keywords|term|terms)$")
_VAGUE = frozenset({"code", "id", "ids", "key", "type", "status", "kind", "value", "number"})
_TEXTUAL = ("text", "title", "name", "content", "body", "message", "note", "description", "comment", "subject")


def values_about(data: Any, path: str, entity: str | None) -> list[Any]:
    """`values_at`, preferring list items that say they are an `entity` (a field whose value is the entity's
    name, such as `"object": "database"`) when some items do."""
    if not entity or "[]." not in path:
        return values_at(data, path)
    head, _, tail = path.rpartition("[].")
    found = raw_values(data, f"{head}[]" if head else "")
    items = [i for v in found for i in (v if isinstance(v, list) else [v]) if isinstance(i, dict)]
    tagged = [i for i in items if entity in {v.lower() for v in i.values() if isinstance(v, str)}]
    chosen = tagged or items
    return [i[tail] for i in chosen if i.get(tail) is not None]


class ValuePool:
    """The values of one state (snapshot JSON `{"tables": {...}}`), indexed by column name and by entity; with
    an `own` table -> rows map (the signed-in user's records), values of those rows come first."""

    def __init__(
        self,
        snapshot: dict[str, Any],
        entities: list[str],
        clock: datetime,
        own: dict[str, list[dict[str, Any]]] | None = None,
    ) -> None:
        self.clock = clock
        self.columns: dict[str, list[Any]] = {}
        self.table_columns: dict[tuple[str, str], list[Any]] = {}
        self.ids: dict[str, list[Any]] = {}
        self.own_columns: dict[str, list[Any]] = {}
        self.own_table_columns: dict[tuple[str, str], list[Any]] = {}
        for table, rows in snapshot.get("tables", {}).items():
            self._index(table, rows, self.columns, self.table_columns)
            entity = "_".join(words(table))
            if entity in entities and rows and "id" in rows[0]:
                self.ids[entity] = [r["id"] for r in rows]
        for table, rows in (own or {}).items():
            self._index(table, rows, self.own_columns, self.own_table_columns)

    @staticmethod
    def _index(table: str, rows: list[dict[str, Any]], columns: dict, table_columns: dict) -> None:
        entity = "_".join(words(table))
        for row in rows:
            for column, value in row.items():
                if value is None or isinstance(value, (dict, list)):
                    continue
                columns.setdefault(column, []).append(value)
                table_columns.setdefault((entity, column), []).append(value)

    def mine(self, own: dict[str, list[dict[str, Any]]]) -> "ValuePool":
        """This pool (sharing its indexes of the state) with `own` as the user's records."""
        pool = object.__new__(ValuePool)
        pool.__dict__.update(self.__dict__)
        pool.own_columns, pool.own_table_columns = {}, {}
        for table, rows in own.items():
            self._index(table, rows, pool.own_columns, pool.own_table_columns)
        return pool

    def existing(self, name: str, own: bool = False) -> list[Any]:
        """Values of columns matching a parameter name: `title`; `page_title` -> `title` of pages; `title`
        anywhere for `new_title` (not for a vague last word: `country_code` is no discount `code`). With `own`,
        only the user's own records."""
        columns, table_columns = (
            (self.own_columns, self.own_table_columns) if own else (self.columns, self.table_columns)
        )
        if name in columns:
            return columns[name]
        tokens = name.split("_")
        for split in range(1, len(tokens)):
            entity, column = "_".join(words("_".join(tokens[:split]))), "_".join(tokens[split:])
            if (entity, column) in table_columns:
                return table_columns[(entity, column)]
        return [] if tokens[-1] in _VAGUE else columns.get(tokens[-1], [])

    def entity_ids(self, name: str) -> list[Any]:
        """Existing ids of the entity an id-like name points at (`page_id` -> ids of `pages`)."""
        entity = id_entity(name, list(self.ids))
        return self.ids.get(entity, []) if entity else self.columns.get(name, [])


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
    high = schema["maximum"] if "maximum" in schema else schema.get("exclusiveMaximum", low + 5) - 1
    if _SIZE.search(name):
        return int(min(max(10, low), high))
    found = _numbers(pool.existing(name, own=True)) or _numbers(pool.existing(name))
    moment = unix_time(name, found, pool.clock, rng) if kind == "integer" else None
    if moment is not None:
        return moment
    if found:
        value = found[int(rng.integers(len(found)))]
        return int(value) if kind == "integer" else value
    return int(rng.integers(int(low), int(high) + 1))


def _string(name: str, schema: dict[str, Any], pool: ValuePool, rng: np.random.Generator) -> str:
    found = _texts(pool.existing(name, own=True)) or _texts(pool.existing(name))
    date = date_string(name, schema, found, pool.clock, rng)
    if date is not None:
        return date
    if _QUERY.search(name):
        own = _texts(pool.existing("title", own=True) + pool.existing("name", own=True))
        titles = own or _texts(pool.existing("title") + pool.existing("name"))
        if titles:
            title_words = [w for w in titles[int(rng.integers(len(titles)))].split() if len(w) > 3] or ["notes"]
            return title_words[int(rng.integers(len(title_words)))]
    if found:
        return found[int(rng.integers(len(found)))]
    return f"{name.replace('_', ' ').capitalize()} {int(rng.integers(1, 100))}"


def _numbers(values: list[Any]) -> list[Any]:
    return [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]


def _texts(values: list[Any]) -> list[str]:
    return [v for v in values if isinstance(v, str) and v]
