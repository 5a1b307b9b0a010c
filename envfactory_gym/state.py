"""Environment state: the backend protocol, and SQLite-in-memory state with snapshot/restore and canonical dump."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Optional, Protocol

from pydantic import TypeAdapter, create_model
from sqlalchemy import JSON, Boolean, Column, Connection, MetaData, Table, create_engine
from sqlalchemy.pool import StaticPool
from sqlalchemy.util import LRUCache

from .fastpath import json_value

META_TABLE = "_envfactory_meta"

#: table name -> primary-key string -> row (volatile columns excluded)
CanonicalState = dict[str, dict[str, dict[str, Any]]]

# One compiled-statement cache per process, shared by every SQLite state (SQLAlchemy's own cache is per engine).
_COMPILED_CACHE: LRUCache = LRUCache(4096)


class StateBackend(Protocol):
    """What the runtime needs from a state: snapshot bytes, restore, atomic calls and a canonical dump."""

    def snapshot(self) -> bytes:
        """Serialize the whole state."""

    def restore(self, data: bytes) -> None:
        """Replace the whole state with a serialized one."""

    def atomic(self, read_only: bool = False) -> Any:
        """Context manager: changes inside are kept on success and undone on any exception."""

    def dump(self) -> CanonicalState:
        """Canonical, comparable form of the state (volatile fields excluded)."""

    def close(self) -> None:
        """Release what the state holds."""


class StateFactory(Protocol):
    """How an environment whose state is not the default SQLite one builds its states (`EnvironmentSpec.backend`)."""

    def create(self) -> StateBackend:
        """A fresh, empty state for one session."""

    def handle(self, state: StateBackend, clock: Any) -> Any:
        """What the tools receive first; it exposes the `state` and the `clock` the executor uses."""

    def snapshot(self, path: Path) -> bytes:
        """Serialized state of a named snapshot file (the bytes `StateBackend.restore` accepts)."""


def state_hash(state: CanonicalState) -> str:
    """Stable SHA-256 of a canonical state."""
    return hashlib.sha256(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()


def volatile(column: Column) -> bool:
    """Whether a column is excluded from state comparison (declared with `info={"volatile": True}`)."""
    return bool(column.info.get("volatile"))


def _pk_key(table: Table, row: dict[str, Any]) -> str:
    values = [row[c.name] for c in table.primary_key.columns]
    return str(values[0]) if len(values) == 1 else json.dumps(values, default=str)


class SQLiteState:
    """An SQLite database in memory, owned by one environment instance; SQLAlchemy Core is its query layer."""

    def __init__(self, schema: MetaData) -> None:
        self.schema = schema
        self.raw = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self.raw.execute("PRAGMA foreign_keys=ON")
        self._engine = create_engine("sqlite://", creator=lambda: self.raw, poolclass=StaticPool)
        self.connection: Connection = self._engine.connect().execution_options(
            isolation_level="AUTOCOMMIT", compiled_cache=_COMPILED_CACHE
        )
        self._tables = [t for t in schema.sorted_tables]
        self._dump_sql = {t.name: _select_sql(t) for t in self._tables}

    def snapshot(self) -> bytes:
        """Serialize the database (sqlite3 `serialize`)."""
        return self.raw.serialize()

    def restore(self, data: bytes) -> None:
        """Replace the database with serialized bytes (sqlite3 `deserialize`, microseconds)."""
        self.raw.deserialize(data)

    @contextmanager
    def atomic(self, read_only: bool = False) -> Iterator[None]:
        """Run a block inside a SAVEPOINT; roll back on any exception. Read-only blocks cannot write at all."""
        raw = self.raw
        raw.execute("SAVEPOINT tool_call")
        if read_only:
            raw.execute("PRAGMA query_only=1")
        try:
            yield
        except BaseException:
            raw.execute("ROLLBACK TO tool_call")
            raise
        finally:
            if read_only:
                raw.execute("PRAGMA query_only=0")
            raw.execute("RELEASE tool_call")

    def dump(self) -> CanonicalState:
        """Table -> primary key -> row, volatile columns excluded; JSON and boolean columns decoded."""
        out: CanonicalState = {}
        for table in self._tables:
            sql, columns, decoders = self._dump_sql[table.name]
            rows: dict[str, dict[str, Any]] = {}
            for values in self.raw.execute(sql):
                row = {
                    name: (decode(value) if decode and value is not None else value)
                    for name, value, decode in zip(columns, values, decoders)
                }
                rows[_pk_key(table, row)] = row
            out[table.name] = rows
        return out

    def dump_snapshot(self) -> dict[str, Any]:
        """The full state (volatile columns included) in the JSON snapshot format that `load` accepts."""
        tables: dict[str, list[dict[str, Any]]] = {}
        for table in self._tables:
            result = self.connection.execute(table.select().order_by(*table.primary_key.columns))
            adapter = row_adapter(table)
            tables[table.name] = adapter.dump_python(
                adapter.validate_python([dict(r._mapping) for r in result]), mode="json"
            )
        return {"tables": tables}

    def close(self) -> None:
        """Release the connection."""
        self.connection.close()
        self._engine.dispose()
        self.raw.close()


def _select_sql(table: Table) -> tuple[str, list[str], list[Any]]:
    columns = [c for c in table.columns if not volatile(c)]
    names = [c.name for c in columns]
    decoders: list[Any] = []
    for c in columns:
        if isinstance(c.type, JSON):
            decoders.append(json_value)
        elif isinstance(c.type, Boolean):
            decoders.append(bool)
        else:
            decoders.append(None)
    order = ", ".join(f'"{c.name}"' for c in table.primary_key.columns)
    quoted = ", ".join(f'"{n}"' for n in names)
    return f'SELECT {quoted} FROM "{table.name}" ORDER BY {order}', names, decoders


def _python_type(column: Column) -> Any:
    if isinstance(column.type, JSON):
        return Any
    try:
        return column.type.python_type
    except NotImplementedError:
        return Any


@lru_cache(maxsize=None)
def row_adapter(table: Table) -> TypeAdapter:
    """Pydantic validator for a list of rows of a table, derived from its columns."""
    fields: dict[str, Any] = {}
    for c in table.columns:
        annotation = _python_type(c)
        optional = c.nullable or c.default is not None or c.server_default is not None or (
            c.primary_key and c.autoincrement is True
        )
        if c.nullable:
            annotation = Optional[annotation]
        fields[c.name] = (annotation, None if optional else ...)
    model = create_model(f"{table.name}_row", **fields)
    return TypeAdapter(list[model])  # type: ignore[valid-type]


_SNAPSHOT_LOCK = threading.Lock()
_SNAPSHOTS: dict[tuple[int, str], bytes] = {}


def load_snapshot(schema: MetaData, path: Path) -> bytes:
    """Serialized SQLite bytes of a JSON snapshot, built once per (schema, file) and cached."""
    key = (id(schema), str(path))
    cached = _SNAPSHOTS.get(key)
    if cached is not None:
        return cached
    with _SNAPSHOT_LOCK:
        if key not in _SNAPSHOTS:
            _SNAPSHOTS[key] = build_snapshot(schema, json.loads(Path(path).read_text()))
        return _SNAPSHOTS[key]


def build_snapshot(schema: MetaData, data: dict[str, Any]) -> bytes:
    """Validate a snapshot dict ({"tables": {name: [rows]}}) against the schema and serialize it as SQLite."""
    tables = data.get("tables", {})
    unknown = set(tables) - set(schema.tables)
    if unknown:
        raise ValueError(f"snapshot has tables not in the schema: {sorted(unknown)}")
    state = SQLiteState(schema)
    try:
        schema.create_all(state.connection)
        state.raw.execute(f'CREATE TABLE "{META_TABLE}" (key TEXT PRIMARY KEY, value INTEGER NOT NULL)')
        for table in schema.sorted_tables:
            rows = tables.get(table.name, [])
            groups: dict[frozenset[str], list[dict[str, Any]]] = {}
            for row in row_adapter(table).validate_python(rows):
                values = row.model_dump(exclude_unset=True)
                groups.setdefault(frozenset(values), []).append(values)
            for group in groups.values():  # executemany needs the same columns in every row
                state.connection.execute(table.insert(), group)
        return state.snapshot()
    finally:
        state.close()
