"""Plausible argument values drawn from a state: existing titles, names and dates for external parameters (the
signed-in user's own first), existing ids for internal ones, and values found inside earlier tool outputs."""

from __future__ import annotations

import math
import random
import re
from datetime import datetime
from typing import Any

import numpy as np
import rstr

from envfactory_synth.graph.entities import id_entity, words
from envfactory_synth.graph.observe import raw_values, values_at
from envfactory_synth.graph.params import resolve_schema

from .dates import date_string, unix_time

_SIZE = re.compile(r"(^|_)(size|limit|count|per_page|top|max|n)$")
_QUERY = re.compile(r"(^|_)(query|q|search|keyword|keywords|term|terms)$")
_VAGUE = frozenset({"code", "id", "ids", "key", "type", "status", "kind", "value", "number"})
_TEXTUAL = ("text", "title", "name", "content", "body", "message", "note", "description", "comment", "subject")
_QUOTED = re.compile(r"\"([^\"]{1,80})\"")
_EMAIL = re.compile(r"[^@\s<>\"]+@[^@\s<>\"]+\.[A-Za-z]{2,}")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_MAIL_WORDS = frozenset({"recipient", "sender", "cc", "bcc", "mail", "email", "inbox"})


def snake(name: str) -> str:
    """`timeZone` -> `time_zone`: the state's columns are snake_case where a schema may be camelCase."""
    return _CAMEL.sub("_", name).lower()


def examples(description: str) -> list[str]:
    """The values a description quotes as examples (`e.g. "436.20"`, `"dana@example.org"`)."""
    return [m.group(1) for m in _QUOTED.finditer(description or "")]


_TEMPLATE = re.compile(r"\b((?:[a-z][\w.-]*:)+)<(\w+)>")


def templated(description: str, pool: "ValuePool") -> list[str]:
    """Values of the form a description spells out (`spotify:track:<id>`): the placeholder filled with that
    column of the entity the last fixed part names (ids of `tracks`), the user's own records first."""
    found: list[str] = []
    for prefix, column in _TEMPLATE.findall(description or ""):
        entity = "_".join(words(prefix.rstrip(":").split(":")[-1]))
        for table_columns in (pool.own_table_columns, pool.table_columns):
            values = [v for v in table_columns.get((entity, column), []) if isinstance(v, (str, int))]
            found += [f"{prefix}{v}" for v in dict.fromkeys(values)]
    return found


def constraint(schema: dict[str, Any], description: str = "", name: str = "") -> re.Pattern | None:
    """What a text input's value must look like: the schema's `pattern`, else an email address where the schema's
    format, the description's quoted examples, the input's name (`emailAddress`) or a description of a mail
    address (`Cc addresses`, "the sender's address") say so; None when nothing constrains it."""
    if schema.get("pattern"):
        return re.compile(schema["pattern"])
    quoted = examples(description)
    if schema.get("format") in ("email", "idn-email") or (quoted and all(_EMAIL.search(q) for q in quoted)):
        return re.compile(rf"^(?:{_EMAIL.pattern})$")
    said = set(words(description))
    if schema.get("type", "string") == "string" and (
        "email" in words(name) or ("address" in said and said & _MAIL_WORDS)
    ):
        return re.compile(rf"^(?:{_EMAIL.pattern})$")
    return None


def fits_constraint(value: Any, schema: dict[str, Any], description: str = "", name: str = "") -> bool:
    """Whether a text satisfies `constraint` (always, when nothing constrains the input)."""
    pattern = constraint(schema, description, name)
    return pattern is None or (isinstance(value, str) and pattern.search(value) is not None)


def values_about(data: Any, path: str, entity: str | None) -> list[Any]:
    """`values_at`, preferring list items that say they are an `entity` (a field whose value is the entity's
    name, such as `"object": "database"`) when some items do; a list at the end is its items, as in `values_at`
    (a device's `entities`: `["lock.back_door", "sensor.back_door_battery"]`)."""
    if not entity or "[]." not in path:
        return values_at(data, path)
    head, _, tail = path.rpartition("[].")
    found = raw_values(data, f"{head}[]" if head else "")
    items = [i for v in found for i in (v if isinstance(v, list) else [v]) if isinstance(i, dict)]
    tagged = [i for i in items if entity in {v.lower() for v in i.values() if isinstance(v, str)}]
    chosen = tagged or items
    found = [v for i in chosen for v in raw_values(i, tail)]  # the tail may go deeper: `payload[].marketplace.id`
    return [x for v in found for x in (v if isinstance(v, list) else [v])]


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
        self.shaped: dict[str, dict[str, list[str]]] = {}  # pattern -> column -> texts of the state matching it
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
        name = snake(name)
        if name in columns:
            return columns[name]
        tokens = name.split("_")
        for split in range(1, len(tokens)):
            entity, column = "_".join(words("_".join(tokens[:split]))), "_".join(tokens[split:])
            if (entity, column) in table_columns:
                return table_columns[(entity, column)]
        return [] if tokens[-1] in _VAGUE else columns.get(tokens[-1], [])

    def matching(self, pattern: re.Pattern, name: str, description: str = "", own: bool = False) -> list[str]:
        """Texts of the state (with `own`, of the user's records) that `pattern` accepts, of the columns whose names
        share most words with the input's name and description (an IATA code from `iata_code`, not from a
        currency column)."""
        by_column = self.shaped.get(pattern.pattern)
        if by_column is None:
            by_column = {}
            for column, values in self.columns.items():
                texts = [v for v in dict.fromkeys(values) if isinstance(v, str) and pattern.search(v)]
                if texts:
                    by_column[column] = texts
            self.shaped[pattern.pattern] = by_column
        said = set(words(f"{name} {description}"))
        overlap = {c: len(said & set(words(c))) for c in by_column}
        best = max(overlap.values(), default=0)
        found: list[str] = []
        for column in sorted(c for c in by_column if overlap[c] == best):
            if own:
                accepted = set(by_column[column])
                found += [v for v in self.own_columns.get(column, []) if v in accepted]
            else:
                found += by_column[column]
        return found

    def entity_ids(self, name: str) -> list[Any]:
        """Existing ids of the entity an id-like name points at (`page_id` -> ids of `pages`)."""
        entity = id_entity(name, list(self.ids))
        return self.ids.get(entity, []) if entity else self.columns.get(name, [])


def external_value(
    name: str,
    schema: dict[str, Any],
    defs: dict[str, Any],
    pool: ValuePool,
    rng: np.random.Generator,
    description: str = "",
    side: int = 0,
) -> Any:
    """A plausible value a user could give for an input: an option, an existing title/name/date of the state,
    a word of an existing title for a search query, a text of the state of the form the input requires (its
    pattern, an email address its examples show), or a short made-up text. A date lies before the clock for
    `side` -1, after it for 1 (an error said so), else where its name says (`dates`)."""
    schema = resolve_schema(schema, defs)
    description = description or schema.get("description", "")
    if "enum" in schema:
        return schema["enum"][int(rng.integers(len(schema["enum"])))]
    if "const" in schema:
        return schema["const"]
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        chosen = [o for o in options if o.get("type") != "null"][0]
        return external_value(name, chosen, defs, pool, rng, description, side)  # `side` holds for an optional date
    kind = schema.get("type", "string")
    if kind == "boolean":
        return bool(rng.integers(2))
    if kind in ("integer", "number"):
        return _number(name, schema, pool, rng, kind, side)
    if kind == "array":
        return [external_value(name.rstrip("s"), schema.get("items", {}), defs, pool, rng, description, side)]
    if kind == "object":
        props = schema.get("properties", {})
        chosen = [k for k in props if k in schema.get("required", []) or k in _TEXTUAL]
        return {k: external_value(k, props[k], defs, pool, rng) for k in chosen}
    return _string(name, schema, pool, rng, description, side)


def _number(
    name: str, schema: dict[str, Any], pool: ValuePool, rng: np.random.Generator, kind: str, side: int = 0
) -> int | float:
    """A number for the input (`_any_number`) on the schema's step (`multipleOf`: points in hundreds)."""
    return on_step(_any_number(name, schema, pool, rng, kind, side), schema)


def on_step(value: int | float, schema: dict[str, Any]) -> int | float:
    """`value` moved to the nearest multiple of the schema's `multipleOf` inside its range (unchanged without)."""
    step = schema.get("multipleOf")
    if not step or not isinstance(value, (int, float)) or isinstance(value, bool):
        return value
    low, high = schema.get("minimum", schema.get("exclusiveMinimum")), schema.get("maximum")
    stepped = round(value / step) * step
    if low is not None and stepped < low:
        stepped = math.ceil(low / step) * step
    if high is not None and stepped > high:
        stepped = math.floor(high / step) * step
    return int(stepped) if isinstance(step, int) and float(stepped).is_integer() else stepped


def _any_number(
    name: str, schema: dict[str, Any], pool: ValuePool, rng: np.random.Generator, kind: str, side: int = 0
) -> int | float:
    low = schema["minimum"] if "minimum" in schema else schema.get("exclusiveMinimum", 0) + 1
    high = schema["maximum"] if "maximum" in schema else schema.get("exclusiveMaximum", low + 5) - 1
    if _SIZE.search(snake(name)):
        return int(min(max(10, low), high))
    found = [
        v
        for v in _numbers(pool.existing(name, own=True)) or _numbers(pool.existing(name))
        if _within(v, schema)  # the state's values under that name, those the schema's range allows
    ]
    moment = unix_time(name, found, pool.clock, rng, side) if kind == "integer" else None
    if moment is not None:
        return moment
    if found:
        value = found[int(rng.integers(len(found)))]
        return int(value) if kind == "integer" else value
    return int(rng.integers(int(low), int(high) + 1))


def _string(
    name: str, schema: dict[str, Any], pool: ValuePool, rng: np.random.Generator, description: str, side: int = 0
) -> str:
    found = _texts(pool.existing(name, own=True)) or _texts(pool.existing(name))
    date = date_string(name, schema, found, pool.clock, rng, side)
    if date is not None:
        return date
    shaped = templated(description, pool)
    if shaped:
        return shaped[int(rng.integers(min(len(shaped), 10)))]
    pattern = constraint(schema, description, name)
    if pattern is not None:
        return _constrained(name, pattern, description, found, pool, rng)
    if _QUERY.search(name):
        own = _texts(pool.existing("title", own=True) + pool.existing("name", own=True))
        titles = own or _texts(pool.existing("title") + pool.existing("name"))
        if titles:
            title_words = [w for w in titles[int(rng.integers(len(titles)))].split() if len(w) > 3] or ["notes"]
            return title_words[int(rng.integers(len(title_words)))]
    if found:
        return found[int(rng.integers(len(found)))]
    return f"{name.replace('_', ' ').capitalize()} {int(rng.integers(1, 100))}"


def _constrained(
    name: str, pattern: re.Pattern, description: str, found: list[str], pool: ValuePool, rng: np.random.Generator
) -> str:
    """A text the input's constraint accepts: one of the state's values under its name, else of the columns it
    matches (`ValuePool.matching`; the user's own first), else an example its description quotes, else one drawn
    from the pattern itself (`rstr`: a random text its regular expression accepts)."""
    for texts in (
        [v for v in found if pattern.search(v)],
        pool.matching(pattern, name, description, own=True),
        pool.matching(pattern, name, description),
        [v for v in examples(description) if pattern.search(v)],
    ):
        if texts:
            return texts[int(rng.integers(len(texts)))]
    generator = rstr.Rstr(random.Random(int(rng.integers(2**31))))
    drawn = generator.xeger(pattern.pattern)
    return drawn.strip() if pattern.search(drawn.strip()) else drawn


def _within(value: float, schema: dict[str, Any]) -> bool:
    """Whether a number lies in the schema's range (`minimum`, `maximum` and their exclusive forms)."""
    return (
        value >= schema.get("minimum", value)
        and value <= schema.get("maximum", value)
        and ("exclusiveMinimum" not in schema or value > schema["exclusiveMinimum"])
        and ("exclusiveMaximum" not in schema or value < schema["exclusiveMaximum"])
    )


def _numbers(values: list[Any]) -> list[Any]:
    return [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]


def _texts(values: list[Any]) -> list[str]:
    return [v for v in values if isinstance(v, str) and v]
