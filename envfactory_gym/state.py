"""Environment state: the backend protocol, and SQLite-in-memory state with snapshot/restore and canonical dump."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional, Protocol, cast, runtime_checkable

from pydantic import TypeAdapter, ValidationError, create_model
from sqlalchemy import JSON, Boolean, Column, Connection, MetaData, Table, create_engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool
from sqlalchemy.util import LRUCache

from .errors import DataFileError
from .fastpath import json_value

META_TABLE = "_envfactory_meta"
#: Every row change (insert, update, delete) appends its table and primary key here, by trigger (see
#: `install_change_log`); a snapshot holds an empty log, so a session's log lists what it changed since reset.
CHANGE_LOG = "_envfactory_changes"
MAX_KEY_COLUMNS = 4

#: table name -> primary-key string -> row (volatile columns excluded)
CanonicalState = dict[str, dict[str, dict[str, Any]]]
#: (table name, primary-key string as in `CanonicalState`): one row's identity across states of one schema
RowKey = tuple[str, str]
Row = dict[str, Any]

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


@runtime_checkable
class ChangeTracking(Protocol):
    """A state that can know which rows it changed, so comparisons read only those rows (`SQLiteState` restored
    from a snapshot that `build_snapshot` made does; `tracks_changes` says whether this one does now)."""

    @property
    def tracks_changes(self) -> bool:
        """Whether the state holds a change log (the methods below need one)."""

    def mark(self) -> int:
        """A position in the change log: `changed_since(mark)` later lists what changed after it."""

    def changed_since(self, mark: int) -> dict[RowKey, tuple[Any, ...]]:
        """Rows inserted, updated or deleted after `mark`: canonical key -> primary-key values."""

    def rows(self, keys: dict[RowKey, tuple[Any, ...]]) -> dict[RowKey, Row | None]:
        """The canonical rows (None: absent) of the given keys, read from the current state."""

    def trial(self) -> Any:
        """Context manager: everything done inside is undone at its end."""


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


_CHANGE_TRACKING_TYPES: dict[type, bool] = {}


def tracks_changes(state: object) -> bool:
    """Whether a state can list the rows it changed (see `ChangeTracking`). The protocol check runs once per type:
    it walks the protocol's members and is the slowest part of a turn-ending step otherwise."""
    kind = type(state)
    capable = _CHANGE_TRACKING_TYPES.get(kind)
    if capable is None:
        capable = _CHANGE_TRACKING_TYPES[kind] = isinstance(state, ChangeTracking)
    return capable and cast(ChangeTracking, state).tracks_changes


def key_string(values: list[Any] | tuple[Any, ...]) -> str:
    """The canonical key of a row from its primary-key values (one value: its text; several: a JSON list)."""
    return str(values[0]) if len(values) == 1 else json.dumps(list(values), default=str)


class SQLiteState:
    """An SQLite database in memory, owned by one environment instance; SQLAlchemy Core is its query layer."""

    def __init__(self, schema: MetaData) -> None:
        self.schema = schema
        self.raw = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False, cached_statements=1024)
        self.raw.execute("PRAGMA foreign_keys=ON")
        self.raw.execute("PRAGMA recursive_triggers=ON")  # rows that REPLACE deletes reach the change log too
        self._engine = create_engine("sqlite://", creator=lambda: self.raw, poolclass=StaticPool)
        self.connection: Connection = self._engine.connect().execution_options(
            isolation_level="AUTOCOMMIT", compiled_cache=_COMPILED_CACHE
        )
        self._tables = [t for t in schema.sorted_tables]
        self._dump_sql = {t.name: _dump_sql(t) for t in self._tables}
        self._row_sql = {t.name: _row_sql(t) for t in self._tables}
        self._raw_sql = {t.name: _raw_row_sql(t) for t in self._tables}
        self._key_columns = {t.name: [c.name for c in t.primary_key.columns] for t in self._tables}
        self._batch_sql = {t.name: _batch_sql(t) for t in self._tables}
        self._tracks: bool | None = None
        self._has_sequences: bool | None = None
        self._restores = self._rollbacks = 0
        self._mark: tuple[tuple[int, int, int], int] | None = None  # (change count, log position) when last read
        # (change count, result) of the last `changed_since(0)`: a turn's end asks for it twice (its score, then
        # whether the next turn begins on the expected path)
        self._since_start: tuple[tuple[int, int, int], dict[RowKey, tuple[Any, ...]]] | None = None

    def snapshot(self) -> bytes:
        """Serialize the database (sqlite3 `serialize`)."""
        return self.raw.serialize()

    def restore(self, data: bytes) -> None:
        """Replace the database with serialized bytes (sqlite3 `deserialize`, microseconds)."""
        self.raw.deserialize(data)
        self._tracks = self._has_sequences = None
        self._restores += 1

    def change_count(self) -> tuple[int, int, int]:
        """A value that differs whenever the stored rows may have changed (restores, rollbacks, and every row
        written, even by a write later rolled back), read without a query: results computed from the rows can be
        kept under it."""
        return self._restores, self._rollbacks, self.raw.total_changes

    @property
    def tracks_changes(self) -> bool:
        """Whether the database holds a change log (snapshots made by `build_snapshot` do)."""
        if self._tracks is None:
            found = self.raw.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (CHANGE_LOG,))
            self._tracks = found.fetchone() is not None
        return self._tracks

    @contextmanager
    def atomic(self, read_only: bool = False) -> Iterator[None]:
        """Run a block inside a SAVEPOINT; roll back on any exception. Read-only blocks cannot write at all."""
        raw = self.raw
        raw.execute("SAVEPOINT tool_call")
        written = raw.total_changes
        if read_only:
            raw.execute("PRAGMA query_only=1")
        try:
            yield
        except BaseException:
            if raw.total_changes != written:  # rows written then undone: what was read from them is stale
                self._rollbacks += 1
            raw.execute("ROLLBACK TO tool_call")
            raise
        finally:
            if read_only:
                raw.execute("PRAGMA query_only=0")
            raw.execute("RELEASE tool_call")

    @contextmanager
    def trial(self) -> Iterator[None]:
        """Run a block whose every change is undone at its end (a SAVEPOINT rolled back), e.g. a what-if replay."""
        self.raw.execute("SAVEPOINT trial")
        written = self.raw.total_changes
        try:
            yield
        finally:
            if self.raw.total_changes != written:
                self._rollbacks += 1
            self.raw.execute("ROLLBACK TO trial")
            self.raw.execute("RELEASE trial")

    def mark(self) -> int:
        """The change log's current position (0 right after restoring a snapshot)."""
        count = self.change_count()
        if self._mark is not None and self._mark[0] == count:
            return self._mark[1]
        position = self.raw.execute(f'SELECT coalesce(max(seq), 0) FROM "{CHANGE_LOG}"').fetchone()[0]
        self._remember_mark(count, position)
        return position

    def _remember_mark(self, count: tuple[int, int, int], position: int) -> None:
        """Keep the log's position under the change count, but only outside a transaction: inside one, a rollback
        that does not pass through `atomic` or `trial` (a caller's own savepoint) could undo it unseen."""
        if not self.raw.in_transaction:
            self._mark = (count, position)

    def changed_since(self, mark: int) -> dict[RowKey, tuple[Any, ...]]:
        """Rows inserted, updated or deleted after `mark` (undone calls leave no trace): key -> primary key. The
        log's position comes with it, so a `mark()` before the next write needs no query. Everything since the
        snapshot (`mark` 0) is kept under the change count, like the position (`_remember_mark`)."""
        count = self.change_count()
        if mark == 0 and self._since_start is not None and self._since_start[0] == count:
            return dict(self._since_start[1])
        out: dict[RowKey, tuple[Any, ...]] = {}
        position = mark
        sql = f'SELECT tbl, k1, k2, k3, k4, max(seq) FROM "{CHANGE_LOG}" WHERE seq > ? GROUP BY tbl, k1, k2, k3, k4'
        for table, *values, last in self.raw.execute(sql, (mark,)):
            width = self._row_sql[table][3]
            out[(table, key_string(values[:width]))] = tuple(values[:width])
            position = max(position, last)
        if out or mark == 0:  # with nothing after `mark`, the position is `mark` only if nothing was rolled back
            self._remember_mark(count, position)
        if mark == 0 and not self.raw.in_transaction:
            self._since_start = (count, dict(out))
        return out

    def rows(self, keys: dict[RowKey, tuple[Any, ...]]) -> dict[RowKey, Row | None]:
        """Canonical rows of the given keys as they are now (None for a row that does not exist)."""
        out: dict[RowKey, Row | None] = {}
        for key, found in self._fetch(keys, raw=False).items():
            _, columns, decoders, _ = self._row_sql[key[0]]
            out[key] = (
                None
                if found is None
                else {
                    name: (decode(value) if decode and value is not None else value)
                    for name, value, decode in zip(columns, found, decoders)
                }
            )
        return out

    def raw_rows(self, keys: dict[RowKey, tuple[Any, ...]]) -> dict[RowKey, tuple[Any, ...] | None]:
        """Rows of the given keys exactly as stored: every column, volatile ones included, and the row id."""
        return self._fetch(keys, raw=True)

    def _fetch(self, keys: dict[RowKey, tuple[Any, ...]], raw: bool) -> dict[RowKey, tuple[Any, ...] | None]:
        """The stored tuples of the given keys (`raw`: row id and every column, else the canonical columns): one
        query per table for tables keyed by one column, one per key otherwise."""
        by_table: dict[str, list[tuple[RowKey, tuple[Any, ...]]]] = {}
        for key, values in keys.items():
            by_table.setdefault(key[0], []).append((key, values))
        out: dict[RowKey, tuple[Any, ...] | None] = {}
        for table, items in by_table.items():
            batch = self._batch_sql[table]
            if batch is None or len(items) == 1 or any(values[0] is None for _, values in items):  # IN skips NULL
                one = self._raw_sql[table] if raw else self._row_sql[table][0]
                out.update((key, self.raw.execute(one, values).fetchone()) for key, values in items)
                continue
            select, pk_at = batch[1] if raw else batch[0]
            for start in range(0, len(items), _BATCH):
                chunk = items[start : start + _BATCH]
                sql = f"{select} IN ({', '.join('?' * len(chunk))})"
                found = {key_string([row[pk_at]]): row for row in self.raw.execute(sql, [v[0] for _, v in chunk])}
                out.update((key, found.get(key[1])) for key, _ in chunk)
        return out

    def counters(self) -> tuple[Any, ...]:
        """What else tools read besides rows: the id counters (and SQLite's AUTOINCREMENT sequences)."""
        meta = self.raw.execute(f'SELECT key, value FROM "{META_TABLE}" ORDER BY key').fetchall()
        if self._has_sequences is None:
            found = self.raw.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'")
            self._has_sequences = found.fetchone() is not None
        sequences = (
            self.raw.execute("SELECT name, seq FROM sqlite_sequence ORDER BY name").fetchall()
            if self._has_sequences
            else []
        )
        return tuple(meta), tuple(sequences)

    def dump(self) -> CanonicalState:
        """Table -> primary key -> row, volatile columns excluded; JSON and boolean columns decoded."""
        return {table.name: self.decode_table(table.name, self.table_rows(table.name)) for table in self._tables}

    @property
    def table_names(self) -> list[str]:
        """The schema's tables in dependency order (the order of `dump`)."""
        return [table.name for table in self._tables]

    def table_rows(self, table: str) -> list[tuple[Any, ...]]:
        """A table's stored rows as `dump` reads them (its non-volatile columns, then any volatile key columns), in
        key order, undecoded."""
        return self.raw.execute(self._dump_sql[table][0]).fetchall()

    def decode_table(self, table: str, stored: Iterable[tuple[Any, ...]]) -> dict[str, dict[str, Any]]:
        """`dump`'s view of one table from its stored rows (`table_rows`): primary key -> decoded row."""
        _, columns, decoders = self._dump_sql[table]
        decoded = [(name, decode) for name, decode in zip(columns, decoders) if decode]
        keys = self._key_columns[table]
        plain_key = len(keys) == 1 and keys[0] in columns and keys[0] not in {name for name, _ in decoded}
        at = columns.index(keys[0]) if plain_key else -1
        rows: dict[str, dict[str, Any]] = {}
        for values in stored:
            row = dict(zip(columns, values))  # volatile key columns follow the row's columns: left out here
            for name, decode in decoded:
                if row[name] is not None:
                    row[name] = decode(row[name])
            if plain_key:
                rows[str(values[at])] = row
            else:
                kept = dict(zip(keys, values[len(columns) :]))
                rows[key_string([row[name] if name in row else kept[name] for name in keys])] = row
        return rows

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


def _dump_sql(table: Table) -> tuple[str, list[str], list[Any]]:
    """The canonical select of every row, with the primary-key columns appended after the row's columns (a
    volatile key column is left out of the row but still names it)."""
    _, names, decoders = _select_sql(table)
    keys = ", ".join(f'"{c.name}"' for c in table.primary_key.columns)
    quoted = ", ".join([*(f'"{n}"' for n in names), keys])
    return f'SELECT {quoted} FROM "{table.name}" ORDER BY {keys}', names, decoders


def _row_sql(table: Table) -> tuple[str, list[str], list[Any], int]:
    """The canonical select of one row by primary key: (sql, columns, decoders, number of key columns)."""
    sql, names, decoders = _select_sql(table)
    keys = list(table.primary_key.columns)
    where = " AND ".join(f'"{c.name}" IS ?' for c in keys)
    return f"{sql.split(' ORDER BY ')[0]} WHERE {where}", names, decoders, len(keys)


#: Keys per query when rows of one table are read together.
_BATCH = 500


def _batch_sql(table: Table) -> tuple[tuple[str, int], tuple[str, int]] | None:
    """For a table keyed by one column: the canonical and the raw select of several rows, each ending in
    `WHERE "<key>"` (an IN list follows), with the key's position in the result; None for composite keys."""
    keys = list(table.primary_key.columns)
    canonical, names, _ = _select_sql(table)
    if len(keys) != 1 or keys[0].name not in names:
        return None
    where = f' WHERE "{keys[0].name}"'
    return (
        (canonical.split(" ORDER BY ")[0] + where, names.index(keys[0].name)),
        (_raw_select(table) + where, 1 + list(table.columns).index(keys[0])),
    )


def _raw_select(table: Table) -> str:
    """Select of stored rows: the row id, then every column (a WHERE clause follows)."""
    columns = ", ".join(f'"{c.name}"' for c in table.columns)
    return f'SELECT rowid, {columns} FROM "{table.name}"'


def _raw_row_sql(table: Table) -> str:
    """Select of one stored row by primary key: the row id, then every column."""
    where = " AND ".join(f'"{c.name}" IS ?' for c in table.primary_key.columns)
    return f"{_raw_select(table)} WHERE {where}"


def install_change_log(raw: sqlite3.Connection, tables: list[Table]) -> None:
    """Create the change log and, on every table, triggers that append each inserted, updated or deleted row's
    table and primary key to it. Triggers live in the database, so they travel with its snapshots."""
    raw.execute(f'CREATE TABLE "{CHANGE_LOG}" (seq INTEGER PRIMARY KEY, tbl TEXT NOT NULL, k1, k2, k3, k4)')
    for table in tables:
        keys = [c.name for c in table.primary_key.columns]
        if not 1 <= len(keys) <= MAX_KEY_COLUMNS:
            raise ValueError(f"table {table.name}: change tracking needs 1-{MAX_KEY_COLUMNS} primary-key columns")
        target = f'"{CHANGE_LOG}" (tbl, {", ".join(f"k{i + 1}" for i in range(len(keys)))})'
        name = "'" + table.name.replace("'", "''") + "'"
        old = ", ".join(f'OLD."{k}"' for k in keys)
        new = ", ".join(f'NEW."{k}"' for k in keys)
        moved = " OR ".join(f'NEW."{k}" IS NOT OLD."{k}"' for k in keys)
        quoted = '"' + table.name.replace('"', '""') + '"'
        trigger = '"_ef_{}_' + table.name.replace('"', '""') + '"'
        raw.executescript(
            f"CREATE TRIGGER {trigger.format('ins')} AFTER INSERT ON {quoted} "
            f"BEGIN INSERT INTO {target} VALUES ({name}, {new}); END;"
            f"CREATE TRIGGER {trigger.format('del')} AFTER DELETE ON {quoted} "
            f"BEGIN INSERT INTO {target} VALUES ({name}, {old}); END;"
            f"CREATE TRIGGER {trigger.format('upd')} AFTER UPDATE ON {quoted} "
            f"BEGIN INSERT INTO {target} VALUES ({name}, {old}); "
            f"INSERT INTO {target} SELECT {name}, {new} WHERE {moved}; END;"
        )


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
        optional = (
            c.nullable
            or c.default is not None
            or c.server_default is not None
            or (c.primary_key and c.autoincrement is True)
        )
        if c.nullable:
            annotation = Optional[annotation]
        fields[c.name] = (annotation, None if optional else ...)
    model = create_model(f"{table.name}_row", **fields)
    return TypeAdapter(list[model])  # type: ignore[valid-type]


_SNAPSHOT_LOCK = threading.Lock()
_SNAPSHOTS: dict[tuple[int, str], bytes] = {}


def load_snapshot(schema: MetaData, path: Path) -> bytes:
    """Serialized SQLite bytes of a JSON snapshot, built once per (schema, file) and cached. Raises
    `DataFileError` naming the file (and the table and row) when it cannot be read or does not fit the schema."""
    key = (id(schema), str(path))
    cached = _SNAPSHOTS.get(key)
    if cached is not None:
        return cached
    with _SNAPSHOT_LOCK:
        if key not in _SNAPSHOTS:
            try:
                text = Path(path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise DataFileError(f"{path}: cannot be read ({exc})") from None
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise DataFileError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg}, column {exc.colno})") from None
            try:
                _SNAPSHOTS[key] = build_snapshot(schema, data)
            except DataFileError as exc:
                raise DataFileError(f"{path}: {exc}") from None
        return _SNAPSHOTS[key]


def _row_problem(table: Table, rows: list[Any], error: ValidationError) -> str:
    """The first invalid row of a table named by its index (and primary key), with what is wrong in it."""
    first = error.errors()[0]
    index, *field = first["loc"]
    row = rows[index] if isinstance(index, int) else None
    keys = [c.name for c in table.primary_key.columns]
    named = f" ({', '.join(f'{k}={row[k]!r}' for k in keys if k in row)})" if isinstance(row, dict) else ""
    where = ".".join(str(part) for part in field) or "row"
    return f"tables.{table.name}[{index}]{named}: {where}: {first['msg']}"


def _insert_rows(state: SQLiteState, table: Table, rows: list[dict[str, Any]]) -> None:
    """Insert validated rows, grouped by their columns (executemany needs the same columns in every row); a row
    the database refuses (a duplicate key, a broken constraint) is named by its index."""
    groups: dict[frozenset[str], list[tuple[int, dict[str, Any]]]] = {}
    for index, row in enumerate(rows):
        groups.setdefault(frozenset(row), []).append((index, row))
    for group in groups.values():
        try:
            with state.atomic():
                state.connection.execute(table.insert(), [row for _, row in group])
        except (IntegrityError, sqlite3.IntegrityError):
            for index, row in group:  # the whole group was rolled back: insert row by row to find the culprit
                try:
                    with state.atomic():
                        state.connection.execute(table.insert(), row)
                except (IntegrityError, sqlite3.IntegrityError) as exc:
                    detail = str(getattr(exc, "orig", exc)).split("\n")[0]
                    raise DataFileError(f"tables.{table.name}[{index}]: {detail}") from None
            raise


def build_snapshot(schema: MetaData, data: dict[str, Any]) -> bytes:
    """Validate a snapshot dict ({"tables": {name: [rows]}}) against the schema and serialize it as SQLite. Raises
    `DataFileError` naming the table and row (`tables.pages[3]`) and what is wrong."""
    tables = data.get("tables", {}) if isinstance(data, dict) else None
    if not isinstance(tables, dict):
        raise DataFileError('a snapshot is a JSON object {"tables": {table name: [rows]}}')
    unknown = set(tables) - set(schema.tables)
    if unknown:
        raise DataFileError(f"snapshot has tables not in the schema: {sorted(unknown)}")
    state = SQLiteState(schema)
    try:
        schema.create_all(state.connection)
        state.raw.execute(f'CREATE TABLE "{META_TABLE}" (key TEXT PRIMARY KEY, value INTEGER NOT NULL)')
        for table in schema.sorted_tables:
            rows = tables.get(table.name, [])
            if not isinstance(rows, list):
                raise DataFileError(f"tables.{table.name}: rows must be a JSON list, got {type(rows).__name__}")
            try:
                validated = row_adapter(table).validate_python(rows)
            except ValidationError as exc:
                raise DataFileError(_row_problem(table, rows, exc)) from None
            _insert_rows(state, table, [row.model_dump(exclude_unset=True) for row in validated])
        install_change_log(state.raw, state._tables)
        return state.snapshot()
    finally:
        state.close()
