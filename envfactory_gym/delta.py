"""States held as the rows where they may differ from a base state, so comparing them costs what changed."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Protocol

from sqlalchemy import MetaData

from .state import CanonicalState, Row, RowKey, SQLiteState


class RowSource(Protocol):
    """A read-only state that answers single-row lookups (the base that deltas are taken against)."""

    def row(self, key: RowKey) -> Row | None:
        """The canonical row with this key, or None when there is none."""

    def full(self) -> CanonicalState:
        """The whole state in canonical form."""


class DumpRows:
    """A canonical state held in memory as a row source."""

    def __init__(self, state: CanonicalState) -> None:
        self.state = state

    def row(self, key: RowKey) -> Row | None:
        """The row from the dump."""
        return self.state.get(key[0], {}).get(key[1])

    def full(self) -> CanonicalState:
        """The dump itself."""
        return self.state


class SnapshotRows:
    """The rows of one serialized SQLite snapshot, looked up on demand and cached (thread-safe).

    One per (environment, snapshot) per process: deltas of every task on that snapshot share it."""

    def __init__(self, schema: MetaData, data: bytes) -> None:
        self._schema = schema
        self._data = data
        self._state: SQLiteState | None = None
        self._cache: dict[RowKey, Row | None] = {}
        self._raw_cache: dict[RowKey, tuple[Any, ...] | None] = {}
        self._full: CanonicalState | None = None
        self._lock = threading.Lock()

    def _open(self) -> SQLiteState:
        if self._state is None:
            self._state = SQLiteState(self._schema)
            self._state.restore(self._data)
        return self._state

    def rows(self, keys: Mapping[RowKey, tuple[Any, ...]]) -> dict[RowKey, Row | None]:
        """Rows of several keys whose primary-key values are known (cached)."""
        missing = {k: v for k, v in keys.items() if k not in self._cache}
        if missing:
            with self._lock:
                self._cache.update(self._open().rows(missing))
        return {k: self._cache[k] for k in keys}

    def raw_rows(self, keys: Mapping[RowKey, tuple[Any, ...]]) -> dict[RowKey, tuple[Any, ...] | None]:
        """Rows of several keys exactly as stored (row id and every column; cached)."""
        missing = {k: v for k, v in keys.items() if k not in self._raw_cache}
        if missing:
            with self._lock:
                self._raw_cache.update(self._open().raw_rows(missing))
        return {k: self._raw_cache[k] for k in keys}

    def prime(self, rows: Mapping[RowKey, Row | None]) -> None:
        """Record rows known to be this snapshot's (read from a replay cache written for the same content), so
        later lookups of their keys need no dump."""
        with self._lock:
            for key, row in rows.items():
                self._cache.setdefault(key, row)

    def row(self, key: RowKey) -> Row | None:
        """A row by canonical key; keys never recorded by `rows` are found through the full dump."""
        if key in self._cache:
            return self._cache[key]
        return self.full().get(key[0], {}).get(key[1])

    def full(self) -> CanonicalState:
        """The whole snapshot in canonical form (dumped once)."""
        with self._lock:
            if self._full is None:
                self._full = self._open().dump()
            return self._full


@dataclass(frozen=True, eq=False)
class StateDelta:
    """A state as `base` plus the rows that may differ from it (`rows`; None: the row is absent).

    Every row that differs from the base is in `rows`; rows may also hold rows equal to the base (a value
    changed and changed back). Two deltas compare equal when they describe the same full state."""

    base: RowSource
    rows: Mapping[RowKey, Row | None]

    def get(self, key: RowKey) -> Row | None:
        """The state's row for `key`."""
        return self.rows[key] if key in self.rows else self.base.row(key)

    def full(self) -> CanonicalState:
        """The whole state in canonical form (costs a dump of the base the first time)."""
        tables = {name: dict(rows) for name, rows in self.base.full().items()}
        for (table, key), row in self.rows.items():
            if row is None:
                tables.get(table, {}).pop(key, None)
            else:
                tables.setdefault(table, {})[key] = row
        return tables

    def differs_from_base(self) -> bool:
        """Whether any row differs from the base."""
        return any(row != self.base.row(key) for key, row in self.rows.items())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StateDelta) and other.base is self.base:
            return all(self.get(k) == other.get(k) for k in self.rows.keys() | other.rows.keys())
        if isinstance(other, (StateDelta, dict)):
            return self.full() == (other.full() if isinstance(other, StateDelta) else other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


EMPTY = DumpRows({})


def as_delta(state: CanonicalState | StateDelta) -> StateDelta:
    """A full canonical state as a delta over nothing (every row listed); deltas pass through."""
    if isinstance(state, StateDelta):
        return state
    rows = {(table, key): row for table, table_rows in state.items() for key, row in table_rows.items()}
    return StateDelta(EMPTY, rows)


def diff_dumps(base: CanonicalState, state: CanonicalState) -> dict[RowKey, Row | None]:
    """The rows of `state` that differ from `base` (None for rows `state` lacks): for states that cannot track
    their own changes."""
    out: dict[RowKey, Row | None] = {}
    for table in base.keys() | state.keys():
        before, after = base.get(table, {}), state.get(table, {})
        if before == after:  # one comparison in C; most tables are untouched
            continue
        for key in before.keys() | after.keys():
            if before.get(key) != after.get(key):
                out[(table, key)] = after.get(key)
    return out


@dataclass(frozen=True)
class Checkpoint:
    """A session's exact stored state where it may differ from its snapshot (row ids and every column of the rows
    it changed, the id counters) and its clock. Two sessions of one snapshot at equal checkpoints answer every
    call alike, so the same calls from either end in the same state."""

    clock: datetime
    counters: tuple[Any, ...]
    keys: Mapping[RowKey, tuple[Any, ...]]
    rows: Mapping[RowKey, tuple[Any, ...] | None]

    @classmethod
    def capture(cls, state: SQLiteState, clock: datetime) -> "Checkpoint":
        """The checkpoint of a session reset to a snapshot."""
        keys = state.changed_since(0)
        return cls(clock, state.counters(), keys, state.raw_rows(keys))

    def matches(self, state: SQLiteState, clock: datetime, base: SnapshotRows) -> bool:
        """Whether a session of the same snapshot is exactly at this checkpoint now (reads only changed rows)."""
        if clock != self.clock or state.counters() != self.counters:
            return False
        keys = {**self.keys, **state.changed_since(0)}
        now = state.raw_rows(keys)
        before = base.raw_rows({k: v for k, v in keys.items() if k not in self.rows})
        return all(now[k] == (self.rows[k] if k in self.rows else before[k]) for k in keys)
