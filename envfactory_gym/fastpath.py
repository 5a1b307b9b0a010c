"""Fast row reads and writes for simple tables: plain SQL on the sqlite3 connection, decoded and encoded as
SQLAlchemy would.

SQLAlchemy Core costs ~80 µs per statement in Python; tools read rows by key or by equality far more often than
they do anything else, and write rows one at a time. For tables whose columns are all of simple types this module
renders those statements once per shape and encodes JSON and booleans itself (JSON as `json.dumps`, None as
`null`, booleans as 0/1: exactly what SQLAlchemy stores); anything else (Python-side defaults it would fill, SQL
expressions as values, a boolean that is not one) falls back to SQLAlchemy.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable, Iterable, Optional

import orjson
from sqlalchemy import JSON, Boolean, Column, Float, Integer, String, Table, Text

_SIMPLE = (String, Text, Integer, Float, Boolean, JSON)
Decoder = Optional[Callable[[Any], Any]]


def _decoder(column: Column) -> Decoder:
    if isinstance(column.type, JSON):
        return json_value
    if isinstance(column.type, Boolean):
        return bool
    return None


def json_value(value: Any) -> Any:
    """A JSON column's value: SQLite hands back numbers stored in JSON columns as numbers, text as text.

    Text is parsed by orjson (several times faster; most of a dump's time is here); what orjson refuses and the
    standard library accepts (NaN, integers beyond 64 bits, lone surrogates) falls back to `json.loads`."""
    if not isinstance(value, str):
        return value
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return json.loads(value)


class TableReader:
    """Pre-rendered SELECTs and decoders of one table."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.names = [c.name for c in table.columns]
        self.decoders = [_decoder(c) for c in table.columns]
        self.pk = list(table.primary_key.columns)[0].name
        self.select = f"SELECT {', '.join(_q(n) for n in self.names)} FROM {_q(table.name)}"
        self.by_key = f"{self.select} WHERE {_q(self.pk)} = ?"
        self.order_pk = ", ".join(_q(c.name) for c in table.primary_key.columns)
        self.kinds = {
            c.name: JSON if isinstance(c.type, JSON) else Boolean if isinstance(c.type, Boolean) else None
            for c in table.columns
        }

    def decode(self, values: tuple) -> dict[str, Any]:
        """A raw row as a dict, JSON parsed and booleans as bool."""
        return {
            name: (decode(value) if decode is not None and value is not None else value)
            for name, value, decode in zip(self.names, values, self.decoders)
        }

    def insert(self, values: dict[str, Any]) -> tuple[str, tuple[Any, ...]] | None:
        """SQL and parameters inserting one row, or None when SQLAlchemy must do it."""
        columns = tuple(values)
        sql = self._insert_sql(columns)
        encoded = self._encode(values)
        return None if sql is None or encoded is None else (sql, encoded)

    def update(self, key: Any, values: dict[str, Any]) -> tuple[str, tuple[Any, ...]] | None:
        """SQL and parameters updating the row with primary key `key`, or None when SQLAlchemy must do it."""
        sql = self._update_sql(tuple(values))
        encoded = self._encode(values)
        single_key = len(self.table.primary_key.columns) == 1
        return (
            None
            if sql is None or encoded is None or not simple_value(key) or not single_key
            else (sql, (*encoded, key))
        )

    # The readers are module-level and live as long as their tables, so the cache holding `self` leaks nothing.
    @lru_cache(maxsize=256)  # noqa: B019
    def _insert_sql(self, columns: tuple[str, ...]) -> str | None:
        if (
            not columns
            or any(name not in self.table.c for name in columns)
            or any(c.default is not None for c in self.table.columns if c.name not in columns)
        ):
            return None
        return (
            f"INSERT INTO {_q(self.table.name)} ({', '.join(_q(n) for n in columns)}) "
            f"VALUES ({', '.join('?' * len(columns))})"
        )

    @lru_cache(maxsize=256)  # noqa: B019 - see _insert_sql
    def _update_sql(self, columns: tuple[str, ...]) -> str | None:
        if (
            not columns
            or any(name not in self.table.c for name in columns)
            or any(c.onupdate is not None for c in self.table.columns if c.name not in columns)
        ):
            return None
        sets = ", ".join(f"{_q(n)} = ?" for n in columns)
        return f"UPDATE {_q(self.table.name)} SET {sets} WHERE {_q(self.pk)} = ?"

    def _encode(self, values: dict[str, Any]) -> tuple[Any, ...] | None:
        out: list[Any] = []
        for name, value in values.items():
            kind = self.kinds[name]
            if kind is JSON:
                column_type = self.table.c[name].type
                assert isinstance(column_type, JSON)  # self.kinds says so
                out.append(None if value is None and column_type.none_as_null else json.dumps(value))
            elif kind is Boolean:
                if value is not None and value not in (True, False):
                    return None  # SQLAlchemy refuses it: let it say so
                out.append(None if value is None else int(value))
            elif simple_value(value):
                out.append(value)
            else:
                return None
        return tuple(out)

    def where_sql(self, equals: dict[str, Any], order_by: Iterable[Any]) -> str | None:
        """SQL for `column = ?` equalities (`column IS ?` for None, as SQLAlchemy renders `== None`) and
        plain-column ordering, or None when it needs SQLAlchemy."""
        if any(name not in self.table.c for name in equals):
            return None
        order = []
        for item in order_by:
            if not (isinstance(item, Column) and item.table is self.table):
                return None
            order.append(_q(item.name))
        order.append(self.order_pk)
        where = " AND ".join(f"{_q(n)} {'IS' if v is None else '='} ?" for n, v in equals.items())
        return f"{self.select}{' WHERE ' + where if where else ''} ORDER BY {', '.join(order)}"


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def simple_value(value: Any) -> bool:
    """Whether a value binds the same way in sqlite3 as through SQLAlchemy."""
    return value is None or isinstance(value, (str, int, float))


@lru_cache(maxsize=None)
def reader(table: Table) -> TableReader | None:
    """The fast reader of a table, or None when a column type needs SQLAlchemy's processing."""
    if all(isinstance(c.type, _SIMPLE) for c in table.columns) and table.primary_key.columns:
        return TableReader(table)
    return None


@lru_cache(maxsize=None)
def row_decoder(table: Table) -> Callable[[tuple], dict[str, Any]]:
    """Turns a raw row of all of `table`'s columns (in order) into a dict, JSON parsed and booleans as bool."""
    names = [c.name for c in table.columns]
    decoders = [_decoder(c) for c in table.columns]

    def decode(values: tuple) -> dict[str, Any]:
        return {name: (d(v) if d is not None and v is not None else v) for name, v, d in zip(names, values, decoders)}

    return decode
