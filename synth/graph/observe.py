"""Signals from the seed: execute the tools on the snapshot and observe which values their outputs carry and which
values their inputs accept.

- **Keys of the state.** A table's primary key, and any column whose values are all distinct short tokens, is a
  *key column*; every other column whose values lie inside a key column refers to it (`messages.channel_id` ->
  `conversations.id`).
- **What an input accepts.** Each input (and each scalar field of an input that is a list of objects) is
  probed: the tool is called with a bogus value, with a value of a key column, and with a near miss of that
  value (one character changed), the other inputs filled from the same row where they can be. An input
  *accepts* a key column when the real value changes the outcome (another error, success, or results where the
  bogus value found none) and the near miss does not: the tool looked the value up.
- **What an output carries.** Every successful call of the probing is kept; an output path's values say which
  key columns it carries (for a write, looked up in the state it left), whether they only repeat the call's own
  arguments (an *echo*), and, for a write, whether they are new to the state (ids it created).
- **Which pairs work.** A few values of each output are passed to each other tool whose input accepts their
  kind; whether any such call succeeds is kept (`works`): a listing of finished rentals feeds a reservation
  number that is found but cannot be changed.

The user signs in first (`envfactory_synth.sampling.account`), as every task's user would. Calls run in a real
`ToolSession`; the state is restored after every successful write, so every probe starts from the same state.
"""

from __future__ import annotations

import json
import re
import sqlite3
import string
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable, Iterator

import numpy as np

from envfactory_gym.session import ToolSession
from envfactory_gym.spec import EnvironmentSpec

from .entities import id_entity, is_id_like, singular, snake_case, words
from .params import resolve_schema

Column = tuple[str, str]
QUERY = re.compile(r"(^|_)(query|q|search|keyword|keywords|term|terms|text_search)$")
PAGING = re.compile(r"(^|_)(cursor|start_cursor|starting_after|ending_before|page_token|next_token)$")
PAGING_TEXT = re.compile(r"\b(next_cursor|next_start|next_page|previous page)\b", re.I)
SIZE = re.compile(r"(^|_)(size|limit|count|per_page|page|max_results|max|top)$")
BOGUS_TEXT = "zq0probe9x"
BOGUS_NUMBER = 987654321
ROWS_PER_COLUMN = 2
MAX_VALUE_LENGTH = 80
DOMAIN_SHARE = 0.2
DOMAIN_COUNT = 2
PROBE_BUDGET = 48  # calls per probed slot
PAIR_VALUES = 5  # values of an output tried in another tool
MIN_PROBE_LENGTH = 3  # one- and two-letter codes change too many messages by accident
_SPACE = re.compile(r"\s")


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def flatten(value: Any) -> Iterator[Any]:
    """Every scalar (string or integer) inside a JSON value."""
    if isinstance(value, dict):
        for item in value.values():
            yield from flatten(item)
    elif isinstance(value, list):
        for item in value:
            yield from flatten(item)
    elif _scalar(value):
        yield value


def values_at(data: Any, path: str) -> list[Any]:
    """Scalars at an output path (`id`, `results[].id`, `[].id`, `order.line_items[].id`, or `` for the result);
    lists found at the end are flattened."""
    out: list[Any] = []
    for value in raw_values(data, path):
        if isinstance(value, list):
            out.extend(v for v in value if _scalar(v))
        elif _scalar(value):
            out.append(value)
    return out


def raw_values(data: Any, path: str) -> list[Any]:
    """What an output path points at in a JSON value, one entry per match (objects and lists as they are)."""
    current = [data]
    for part in [p for p in path.split(".") if p] if path else []:
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


@dataclass
class StateIndex:
    """The state's tables with their key columns: which columns are keys, which key each column refers to, and
    which key columns hold a value."""

    tables: dict[str, list[dict[str, Any]]]
    primary: dict[str, str] = field(default_factory=dict)
    keys: list[Column] = field(default_factory=list)
    values: dict[Column, frozenset] = field(default_factory=dict)
    refers: dict[Column, Column] = field(default_factory=dict)
    holders: dict[Any, set[Column]] = field(default_factory=dict)
    mentions: dict[Any, int] = field(default_factory=dict)

    @classmethod
    def build(cls, tables: dict[str, list[dict[str, Any]]], primary_keys: dict[str, str]) -> "StateIndex":
        """Index a snapshot's tables (`primary_keys`: table -> its single primary-key column)."""
        index = cls(tables, dict(primary_keys))
        columns: dict[Column, list[Any]] = {}
        for table, rows in tables.items():
            for row in rows:
                for column, value in row.items():
                    if _scalar(value):
                        columns.setdefault((table, column), []).append(value)
                    elif isinstance(value, list):
                        columns.setdefault((table, f"{column}[]"), []).extend(v for v in value if _scalar(v))
        index.values = {c: frozenset(v) for c, v in columns.items()}
        for table, pk in primary_keys.items():
            if (table, pk) in index.values:
                index.keys.append((table, pk))
        for column, found in columns.items():
            if column in index.keys or column[1].endswith("[]") or len(found) < 2 or len(set(found)) != len(found):
                continue
            if all(isinstance(v, int) or (len(v) <= MAX_VALUE_LENGTH and not _SPACE.search(v)) for v in found):
                if not any(index.values[column] <= index.values[k] for k in index.keys):
                    index.keys.append(column)
        for column, found in index.values.items():
            containing = [k for k in index.keys if found and len(found & index.values[k]) >= 0.95 * len(found)]
            if containing:
                index.refers[column] = (
                    column if column in containing else min(containing, key=lambda k: len(index.values[k]))
                )
        for key in index.keys:
            for value in index.values[key]:
                index.holders.setdefault(value, set()).add(key)
        for column, found in columns.items():
            if column not in index.keys:
                for value in found:
                    index.mentions[value] = index.mentions.get(value, 0) + 1
        return index

    def numbered(self, column: Column) -> bool:
        """Whether a key column numbers records (an integer primary key, or an id or number by name) rather
        than counting something (small integers of a limit or a balance would pass many range checks)."""
        primary = column[0] in self.primary and self.primary[column[0]] == column[1]
        return primary or is_id_like(column[1]) or column[1].endswith("number")

    def rows_with(self, column: Column, value: Any) -> list[dict[str, Any]]:
        """Rows of `column`'s table whose column holds `value`."""
        table, name = column
        return [r for r in self.tables.get(table, []) if r.get(name) == value]


@dataclass(frozen=True)
class Slot:
    """Where a probed value goes: an input, or a field of the object(s) an input takes (`lines[].merchandise_id`)."""

    input: str
    field: str | None
    kind: str  # "string" | "integer"
    many: bool  # the input is a list (of values, or of objects)

    @property
    def name(self) -> str:
        """`input`, or `input[].field` / `input.field`."""
        if self.field is None:
            return self.input
        return f"{self.input}{'[]' if self.many else ''}.{self.field}"


@dataclass
class ObservedCall:
    """One successful call: its arguments, its output, and for a write the key columns each new value lies in
    after the call."""

    tool: str
    arguments: dict[str, Any]
    output: Any
    created: dict[Any, set[Column]] = field(default_factory=dict)


@dataclass
class SeedObservations:
    """What executing the tools on a snapshot showed (see the module docstring)."""

    env: str
    index: StateIndex
    account: Any = None
    accepts: dict[tuple[str, str], set[Column]] = field(default_factory=dict)
    probed: set[tuple[str, str]] = field(default_factory=set)
    unchecked: set[tuple[str, str]] = field(default_factory=set)
    calls: dict[str, list[ObservedCall]] = field(default_factory=dict)
    read_only: dict[str, bool] = field(default_factory=dict)
    plain: dict[str, tuple[dict[str, Any], bool]] = field(default_factory=dict)
    works: dict[tuple[str, str, str, str], bool] = field(default_factory=dict)

    def needs_one_of(self, tool: str) -> list[str]:
        """Optional inputs of which a call needs one: the call with its required inputs alone failed, and every
        successful call set at least one of them (Notion's `create_page` takes a parent page or a database)."""
        arguments, ok = self.plain.get(tool, ({}, True))
        calls = self.calls.get(tool, [])
        if ok or not calls:
            return []
        extra = [set(c.arguments) - set(arguments) for c in calls]
        if any(not e for e in extra):
            return []
        return sorted(set().union(*extra))

    def accepted(self, tool: str, slot: str) -> set[Column]:
        """Key columns whose values input (slot) `slot` of `tool` accepts; empty when none showed."""
        return self.accepts.get((tool, slot), set())

    def input_columns(self, tool: str, name: str) -> set[Column]:
        """Key columns accepted by an input or by any field of the objects it takes."""
        found: set[Column] = set()
        for (t, slot), columns in self.accepts.items():
            if t == tool and (slot == name or slot.startswith((f"{name}[].", f"{name}."))):
                found |= columns
        return found

    def shown_empty(self, tool: str, path: str) -> bool:
        """Whether calls of `tool` returned the objects an output path lies in, but never a value there (the
        notes of an item are never in a collection)."""
        parent = path.rpartition(".")[0]
        if not parent or self.output_values(tool, path):
            return False
        return any(raw_values(call.output, parent) for call in self.calls.get(tool, []))

    def observed(self, tool: str) -> bool:
        """Whether at least one call of `tool` succeeded."""
        return bool(self.calls.get(tool))

    def output_values(self, tool: str, path: str) -> list[tuple[ObservedCall, list[Any]]]:
        """(call, values at `path`) for every successful call of `tool` with values there."""
        found = []
        for call in self.calls.get(tool, []):
            values = values_at(call.output, path)
            if values:
                found.append((call, values))
        return found

    def output_columns(self, tool: str, path: str) -> set[Column]:
        """Key columns holding at least a fifth of the values seen at an output path (a parent may be a page
        or a database), or, for an id field, at least two (a search finds many pages and a few databases)."""
        seen = [v for _, values in self.output_values(tool, path) for v in values]
        if not seen:
            return set()
        counts: dict[Column, int] = {}
        created = {v: c for call in self.calls.get(tool, []) for v, c in call.created.items()}
        for value in seen:
            for column in self.index.holders.get(value, set()) | created.get(value, set()):
                counts[column] = counts.get(column, 0) + 1
        field_name = path.rpartition(".")[2].removesuffix("[]")
        few = DOMAIN_COUNT if is_id_like(field_name) else len(seen)  # a few ids among many of a list of ids
        return {c for c, n in counts.items() if n >= min(few, DOMAIN_SHARE * len(seen))}

    def echoes(self, tool: str, path: str) -> bool | None:
        """Whether an output path only ever repeated the call's own arguments (None: never seen)."""
        found = self.output_values(tool, path)
        if not found:
            return None
        return all(set(values) <= set(flatten(call.arguments)) for call, values in found)

    def creates(self, tool: str, path: str) -> bool | None:
        """Whether a write's output path carried values new to the state (None: never seen)."""
        found = self.output_values(tool, path)
        if not found:
            return None
        return any(any(v in call.created for v in values) for call, values in found)


# ---------------------------------------------------------------------------------------------- probing


def named_plainly(name: str, description: str) -> bool:
    """Whether a name or description already says what an input is, so probing it could not tell more: search
    text, a page size or number, a paging token."""
    snake = snake_case(name)
    return bool(QUERY.search(snake) or SIZE.search(snake) or PAGING.search(snake) or PAGING_TEXT.search(description))


def slots(spec: EnvironmentSpec, tool: str) -> list[Slot]:
    """The probe-able places of a tool's inputs: scalar or list-of-scalar string/integer inputs (not enums), and
    the scalar fields of an input's object(s)."""
    schema = spec.tools[tool].input_schema
    defs = schema.get("$defs", {})
    fields = spec.tools[tool].input_model.model_fields
    found = []
    for name, prop in schema["properties"].items():
        if named_plainly(name, fields[name].description or ""):
            continue
        resolved = resolve_schema(prop, defs)
        many = resolved.get("type") == "array"
        inner = resolve_schema(resolved.get("items", {}), defs) if many else resolved
        kind = _kind(inner)
        if kind:
            found.append(Slot(name, None, kind, many))
        elif inner.get("type") == "object" and inner.get("properties"):
            for sub, sub_prop in inner["properties"].items():
                sub_kind = _kind(resolve_schema(sub_prop, defs))
                if sub_kind and (sub in inner.get("required", []) or is_id_like(sub)):
                    found.append(Slot(name, sub, sub_kind, many))
    return found


def _kind(schema: dict[str, Any]) -> str | None:
    if "enum" in schema or "const" in schema or schema.get("format") in ("date", "date-time"):
        return None
    kind = schema.get("type")
    return kind if kind in ("string", "integer") else None


def near_miss(value: Any, taken: frozenset | set, skip: int = 0) -> Any:
    """A value of the same shape that is not in `taken`: one character changed (the last letter or digit, or with
    `skip` the one `skip` places before it), or an integer moved far away."""
    if isinstance(value, int):
        return value + 100003 * (skip + 1)
    text = str(value)
    positions = [i for i in range(len(text) - 1, -1, -1) if text[i] in string.ascii_letters + string.digits]
    for position in positions[skip:] + positions[:skip]:
        char = text[position]
        if char in string.digits:
            options = [str((int(char) + step) % 10) for step in range(1, 10)]
        else:
            alphabet = string.ascii_lowercase
            options = [alphabet[(alphabet.index(char.lower()) + step) % 26] for step in range(1, 26)]
            options = [o.upper() if char.isupper() else o for o in options]
        for option in options:
            candidate = text[:position] + option + text[position + 1 :]
            if candidate not in taken:
                return candidate
    return text + "x"


def mask(message: str, values: Iterable[Any]) -> str:
    """`message` with each of `values` (as a whole token, in any case) replaced by `<v>`."""
    for value in values:
        if value is not None and str(value):
            message = re.sub(rf"(?<![A-Za-z0-9]){re.escape(str(value))}(?![A-Za-z0-9])", "<v>", message, flags=re.I)
    return message


def _size(output: Any) -> int:
    """How much a successful call returned: the items of a list result or of its list fields, else 1."""
    if isinstance(output, list):
        return len(output)
    if isinstance(output, dict):
        lists = [v for v in output.values() if isinstance(v, list)]
        if lists and not any(k in output for k in ("id", "key")):
            return sum(len(v) for v in lists)
    return 1


class Prober:
    """Runs the probes of one environment in one session, from one base state."""

    def __init__(
        self,
        spec: EnvironmentSpec,
        session: ToolSession,
        index: StateIndex,
        observations: SeedObservations,
        clock: datetime,
        rng: np.random.Generator,
    ) -> None:
        self.spec = spec
        self.session = session
        self.index = index
        self.obs = observations
        self.clock = clock
        self.rng = rng
        self.base = session.state.snapshot()
        self.cache: dict[str, tuple] = {}
        self.made = 0  # calls made (cache misses)
        self.pool = None

    # ------------------------------------------------------------------ one call

    def outcome(self, tool: str, arguments: dict[str, Any], probes: tuple = ()) -> tuple:
        """Call `tool` from the base state; the outcome's signature: ("ok", returned something) or ("error",
        kind, message with the probed values masked). Successful calls are recorded."""
        key = json.dumps([tool, arguments, probes], sort_keys=True, default=str)
        if key in self.cache:
            return self.cache[key]
        self.session.clock.reset(self.clock)
        self.made += 1
        result = self.session.call(tool, arguments, "agent")
        if result.ok:
            call = ObservedCall(tool, arguments, result.output)
            if not self.spec.tools[tool].read_only:
                call.created = self._created(result.output, arguments)
                self.session.restore_bytes(self.base, self.clock)
            self.obs.calls.setdefault(tool, []).append(call)
            signature: tuple = ("ok", _size(result.output) > 0)
        else:
            signature = ("error", result.error_kind, mask(result.error or "", (*probes, BOGUS_TEXT, BOGUS_NUMBER)))
        self.cache[key] = signature
        return signature

    def _created(self, output: Any, arguments: dict[str, Any]) -> dict[Any, set[Column]]:
        """Values of a write's output that the state did not hold before, with the key columns holding them now."""
        given = set(flatten(arguments))
        created: dict[Any, set[Column]] = {}
        raw = self.session.state.raw
        for value in set(flatten(output)) - given:
            if value in self.index.holders or (
                isinstance(value, str) and (len(value) > MAX_VALUE_LENGTH or _SPACE.search(value))
            ):
                continue
            where = set()
            for table, column in self.index.keys:
                try:
                    hit = raw.execute(f'SELECT 1 FROM "{table}" WHERE "{column}" = ? LIMIT 1', (value,)).fetchone()
                except sqlite3.Error:  # a key column of a non-SQL shape; nothing to look up
                    hit = None
                if hit:
                    where.add((table, column))
            if where:
                created[value] = where
        return created

    # ------------------------------------------------------------------ filling

    def fill(self, tool: str, skip: Slot | None, row: dict[str, Any] | None, table: str | None) -> dict[str, Any]:
        """Required arguments of `tool` (except the probed slot's input): values of `row` where a column matches,
        values of the columns an input is known to accept (the same row's, or rows it refers to), else a
        plausible external value."""
        schema = self.spec.tools[tool].input_schema
        defs = schema.get("$defs", {})
        arguments: dict[str, Any] = {}
        for name in self.spec.tools[tool].required_inputs:
            if skip is not None and name == skip.input and skip.field is None:
                continue
            prop = resolve_schema(schema["properties"][name], defs)
            many = prop.get("type") == "array"
            inner = resolve_schema(prop.get("items", {}), defs) if many else prop
            if inner.get("type") == "object" and inner.get("properties"):
                item = {}
                for sub in inner.get("required", []):
                    if skip is not None and (name, sub) == (skip.input, skip.field):
                        continue  # the probe puts its value there
                    item[sub] = self._value(
                        tool,
                        f"{name}{'[]' if many else ''}.{sub}",
                        sub,
                        resolve_schema(inner["properties"][sub], defs),
                        row,
                        table,
                        defs,
                    )
                arguments[name] = [item] if many else item
                continue
            value = self._value(tool, name, name, inner, row, table, defs)
            arguments[name] = [value] if many and not isinstance(value, list) else value
        return arguments

    def _value(
        self,
        tool: str,
        slot: str,
        name: str,
        schema: dict[str, Any],
        row: dict[str, Any] | None,
        table: str | None,
        defs: dict[str, Any],
    ) -> Any:
        from envfactory_synth.sampling.values import external_value

        known = self.obs.accepted(tool, slot)
        if known:
            value = self._coherent(known, row, table)
            if value is not None:
                return value
        if row is not None and _kind(schema):
            for column in _matching_columns(name, table, row):
                if row.get(column) is not None:
                    return row[column]
        if _kind(schema) and is_id_like(name):
            tables = {"_".join(words(t)): t for t in self.index.tables}
            entity = id_entity(name, list(tables))
            for key in self.index.keys:
                if entity and key[0] == tables[entity]:
                    rows = self._rows(key)
                    if rows:
                        return rows[0][key[1]]
        return external_value(name, schema, defs, self.pool, self.rng)

    def _coherent(self, columns: set[Column], row: dict[str, Any] | None, table: str | None) -> Any:
        """A value of one of `columns`: the context row's own, one it refers to, a row referring to it, or the
        first of the user's own (else any) rows."""
        if row is not None:
            for t, c in columns:
                if t == table and row.get(c) is not None:
                    return row[c]
            for column, value in row.items():
                if _scalar(value) and self.index.refers.get((table, column)) in columns:
                    return value
            for t, c in sorted(columns):
                for candidate in self.index.tables.get(t, []):
                    if (
                        any(v in row.values() for v in candidate.values() if _scalar(v))
                        and candidate.get(c) is not None
                    ):
                        return candidate[c]
        for column in sorted(columns):
            rows = self._rows(column)
            if rows:
                return rows[0][column[1]]
        return None

    def _rows(self, column: Column) -> list[dict[str, Any]]:
        """Rows of a key column's table with a value there: the user's own first, then those the most other
        records refer to (a page with sub-pages, an item with notes: the ones whose lookups return something)."""
        table, name = column
        rows = [r for r in self.index.tables.get(table, []) if r.get(name) is not None]
        account = self.obs.account
        mine = (
            (lambda r: account.owns(table, r))
            if account is not None and account.table is not None
            else (lambda r: False)
        )
        rows.sort(key=lambda r: (not mine(r), -self.index.mentions.get(r[name], 0)))
        return rows

    # ------------------------------------------------------------------ probes

    def place(self, arguments: dict[str, Any], slot: Slot, value: Any, tool: str) -> dict[str, Any]:
        """`arguments` with `value` put at `slot`."""
        placed = dict(arguments)
        if slot.field is None:
            placed[slot.input] = [value] if slot.many else value
            return placed
        current = placed.get(slot.input)
        item = dict(current[0] if isinstance(current, list) and current else current or {})
        item[slot.field] = value
        placed[slot.input] = [item] if slot.many else item
        return placed

    def with_object(self, tool: str, slot: Slot, arguments: dict[str, Any]) -> dict[str, Any]:
        """`arguments` holding the object(s) a field slot goes in (filled once, so every probe of it differs
        only at the slot)."""
        if slot.field is None or slot.input in arguments:
            return arguments
        item = self.fill_object(tool, slot.input)
        return {**arguments, slot.input: [item] if slot.many else item}

    def fill_object(self, tool: str, name: str) -> dict[str, Any]:
        """The required fields of the object an (optional) input takes, plausibly filled."""
        from envfactory_synth.sampling.values import external_value

        schema = self.spec.tools[tool].input_schema
        defs = schema.get("$defs", {})
        prop = resolve_schema(schema["properties"][name], defs)
        inner = resolve_schema(prop.get("items", {}), defs) if prop.get("type") == "array" else prop
        return {
            s: external_value(s, resolve_schema(inner["properties"][s], defs), defs, self.pool, self.rng)
            for s in inner.get("required", [])
        }

    def exercise(self, tool: str, rows: int = 4) -> None:
        """Call `tool` a few more times for its outputs: with its required inputs only, once with each option of
        an optional choice (pages, then databases), then in the context of rows of the columns its inputs
        accept: the first (the user's own, the most referred to) and the last (leaves: a child note, a reply),
        whose outputs differ."""
        plain = self.fill(tool, None, None, None)
        self.obs.plain[tool] = (plain, self.outcome(tool, plain)[0] == "ok")
        for name, options in self._options(tool):
            for option in options:  # each kind of result: pages, then databases
                self.outcome(tool, {**plain, name: option})
        accepted = [(s, c) for s in slots(self.spec, tool) for c in sorted(self.obs.accepted(tool, s.name))]
        for slot, column in accepted[:2]:
            found = self._rows(column)
            for row in found[: rows // 2] + found[len(found) - rows // 2 :] if len(found) > rows else found:
                arguments = self.with_object(tool, slot, self.fill(tool, slot, row, column[0]))
                arguments = self.place(arguments, slot, row[column[1]], tool)
                self.outcome(tool, arguments)

    def candidates(self, tool: str, slot: Slot) -> list[Column]:
        """Key columns of the slot's type, the likeliest first: tables and columns its name or description
        names (`channel`: "The conversation ID" -> `conversations.id`), primary keys before other keys."""
        field_name = slot.field or slot.input
        description = (
            "" if slot.field else (self.spec.tools[tool].input_model.model_fields[slot.input].description or "")
        )
        said = set(words(f"{field_name} {description}"))
        scored = []
        for position, column in enumerate(self.index.keys):
            if slot.kind == "integer" and not self.index.numbered(column):
                continue
            score = 2 * bool(set(words(column[0])) & said) + 2 * bool(set(words(column[1])) & said)
            score += self.index.primary.get(column[0]) == column[1]
            scored.append((-score, position, column))
        return [column for _, _, column in sorted(scored)]

    def _options(self, tool: str, most: int = 6) -> list[tuple[str, list[Any]]]:
        """Optional inputs that are a choice among a few options (`object_type`: page or database)."""
        schema = self.spec.tools[tool].input_schema
        found = []
        for name in set(schema["properties"]) - set(self.spec.tools[tool].required_inputs):
            prop = resolve_schema(schema["properties"][name], schema.get("$defs", {}))
            if "enum" in prop and len(prop["enum"]) <= most:
                found.append((name, list(prop["enum"])))
        return sorted(found)

    def check_pairs(self, tools: list[str], values: int = PAIR_VALUES) -> None:
        """For every output whose values are of a kind a slot of another tool accepts, call that tool with a few
        of those values (its other arguments those of a call that succeeded) and record whether any did: a
        reservation number from the points history is accepted, but names finished rentals that cannot be
        changed; one from the reservation list can."""
        consumers = [(t, s) for t in tools for s in slots(self.spec, t) if self.obs.accepted(t, s.name)]
        for producer in tools:
            for call_paths in self._output_paths(producer):
                path, found = call_paths
                kinds = self.obs.output_columns(producer, path)
                for tool, slot in consumers:
                    if tool == producer or not kinds & self.obs.accepted(tool, slot.name):
                        continue
                    works = False
                    base = self._template(tool, slot)
                    for value in found[:values]:
                        if (
                            value not in set(flatten(base))
                            and self.outcome(tool, self.place(base, slot, value, tool), (value,))[0] == "ok"
                        ):
                            works = True
                            break
                    self.obs.works[(producer, path, tool, slot.name)] = works

    def _template(self, tool: str, slot: Slot) -> dict[str, Any]:
        """Arguments to try another value in: those of a successful call of `tool` (optional inputs it needed
        included), else its required inputs filled as in probing."""
        for call in self.obs.calls.get(tool, []):
            return dict(call.arguments)
        return self.with_object(tool, slot, self.fill(tool, slot, None, None))

    def _output_paths(self, tool: str) -> list[tuple[str, list[Any]]]:
        """(path, distinct values seen there) for every output path of `tool` with key values."""
        paths: dict[str, list[Any]] = {}
        for call in self.obs.calls.get(tool, []):
            for path in _paths(call.output):
                for value in values_at(call.output, path):
                    if value in self.index.holders and value not in paths.setdefault(path, []):
                        paths[path].append(value)
        return [(p, v) for p, v in paths.items() if v]

    def probe(self, tool: str, slot: Slot) -> None:
        """Find the key columns `slot` accepts (see the module docstring)."""
        key = (tool, slot.name)
        self.obs.probed.add(key)
        bogus_value = BOGUS_NUMBER if slot.kind == "integer" else BOGUS_TEXT
        first = self.fill(tool, slot, None, None)
        first = self.with_object(tool, slot, first)
        first = self.place(first, slot, bogus_value, tool)
        if self.outcome(tool, first) == ("ok", True):
            self.obs.unchecked.add(key)
            return
        wanted = int if slot.kind == "integer" else str
        budget = self.made + PROBE_BUDGET
        for column in self.candidates(tool, slot):
            if self.made >= budget:
                break
            rows = [
                r
                for r in self._rows(column)
                if isinstance(r[column[1]], wanted) and (wanted is int or len(r[column[1]]) >= MIN_PROBE_LENGTH)
            ]
            rows = sorted(rows, key=lambda r: len(self.index.holders.get(r[column[1]], ())) > 1)[:ROWS_PER_COLUMN]
            for row in rows:
                value = row[column[1]]
                base = self.with_object(tool, slot, self.fill(tool, slot, row, column[0]))
                if value in set(flatten(base)):  # an origin filled from the very row a destination is probed with
                    base = self.with_object(tool, slot, self.fill(tool, slot, None, None))
                if value in set(flatten(base)):  # the same value elsewhere would blur the masked messages
                    continue
                taken = self.index.values[column]
                miss = near_miss(value, taken)
                other = near_miss(value, taken | {miss}, skip=1)
                trio = (value, miss, other)
                real = self.outcome(tool, self.place(base, slot, value, tool), trio)
                missed = self.outcome(tool, self.place(base, slot, miss, tool), trio)
                if real == missed:
                    continue
                if missed == self.outcome(tool, self.place(base, slot, other, tool), trio) and missed != ("ok", True):
                    self.obs.accepts.setdefault(key, set()).add(column)
                break


def _paths(data: Any, prefix: str = "") -> set[str]:
    """The output paths (`results[].id`, `order.line_items[].id`) of the scalar fields inside a JSON value."""
    found: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, (dict, list)):
                found |= _paths(value, f"{prefix}{key}.")
            elif _scalar(value):
                found.add(f"{prefix}{key}")
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, (dict, list)):
                found |= _paths(item, f"{prefix.rstrip('.')}[].")
            elif _scalar(item):
                found.add(prefix.rstrip("."))
    return found


def _matching_columns(name: str, table: str | None, row: dict[str, Any]) -> list[str]:
    """Columns of a row an input name asks for: the same name, `<table>_<column>` (`page_id` for `pages.id`),
    or the same name in snake case."""
    snake = snake_case(name)
    found = [c for c in row if c in (name, snake)]
    if table is not None:
        entity = singular(table)
        found += [c for c in row if f"{entity}_{c}" == snake or (snake.endswith(f"_{c}") and entity in snake)]
    return found


def observe(
    spec: EnvironmentSpec,
    snapshot: str = "seed",
    clock: datetime | None = None,
    seed: int = 0,
    tools: Iterable[str] | None = None,
) -> SeedObservations:
    """Probe every agent tool (or `tools`) of an SQLite environment on `snapshot`, the scenario's user signed in,
    in two rounds (the second fills inputs with the columns the first found they accept), at `clock` (by default
    the scenario's: `envfactory_synth.sampling.clock.scenario_clock`)."""
    from envfactory_synth.sampling.account import sign_in
    from envfactory_synth.sampling.clock import scenario_clock
    from envfactory_synth.sampling.values import ValuePool

    clock = scenario_clock(spec, snapshot) if clock is None else clock

    session = ToolSession(spec)
    try:
        session.reset(snapshot, clock)
        dump = session.state.dump_snapshot()["tables"]
        primary = {
            t.name: list(t.primary_key.columns)[0].name
            for t in spec.schema.tables.values()
            if len(t.primary_key.columns) == 1
        }
        index = StateIndex.build(dump, primary)
        obs = SeedObservations(spec.key, index, read_only={n: t.read_only for n, t in spec.tools.items()})
        obs.account = sign_in(session, spec, dump)
        prober = Prober(spec, session, index, obs, clock, np.random.default_rng(seed))
        prober.pool = ValuePool({"tables": dump}, [singular(t) for t in dump], clock)
        names = [t for t in (tools or spec.tools) if not spec.tools[t].user_only]
        for _ in range(2):
            for tool in names:
                for slot in slots(spec, tool):
                    if (tool, slot.name) not in obs.accepts and (tool, slot.name) not in obs.unchecked:
                        prober.probe(tool, slot)
        for tool in names:
            prober.exercise(tool)
        prober.check_pairs(names)
        return obs
    finally:
        session.close()
