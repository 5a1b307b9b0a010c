"""The handle every tool receives first: SQL access, the simulated clock, seeded ids and shared helpers."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone
from typing import Any, Generic, Iterable, Sequence, TypeVar

from sqlalchemy import Connection, Table, and_, select

from .errors import InvalidRequest, NotFound, PermissionDenied
from .fastpath import reader, row_decoder, simple_value
from .generics import KeptGeneric
from .state import META_TABLE, SQLiteState

T = TypeVar("T")
DEFAULT_CLOCK = datetime(2025, 1, 15, 9, 0, tzinfo=timezone.utc)
_ID_NAMESPACE = uuid.UUID("6f1c1f0e-5d4b-4c55-9a3e-8e7f6a0b1c2d")


class SimClock:
    """Simulated time: starts at the task's clock and moves a fixed tick per executed tool call."""

    def __init__(self, start: datetime = DEFAULT_CLOCK, tick: timedelta = timedelta(seconds=30)) -> None:
        self.start = start
        self.tick = tick
        self.calls = 0

    def reset(self, start: datetime) -> None:
        """Restart the clock at `start`."""
        self.start = start if start.tzinfo else start.replace(tzinfo=timezone.utc)
        self.calls = 0

    def now(self) -> datetime:
        """Current simulated time."""
        return self.start + self.tick * self.calls

    def advance(self) -> None:
        """Move one tick forward (the executor calls this after each tool call)."""
        self.calls += 1


class Page(KeptGeneric, Generic[T]):
    """One page of a listing, cursor-paginated the way most product APIs do."""

    results: list[T]
    next_cursor: str | None = None
    has_more: bool = False


def paginate(items: Sequence[T], page_size: int, cursor: str | None = None, max_page_size: int = 100) -> Page[T]:
    """Slice `items` into a page; `cursor` is the opaque offset returned as `next_cursor` by the previous page."""
    if not 1 <= page_size <= max_page_size:
        raise InvalidRequest(f"page_size must be between 1 and {max_page_size}")
    try:
        start = int(cursor) if cursor else 0
    except ValueError:
        raise InvalidRequest(f"invalid cursor {cursor!r}") from None
    if start < 0 or start > len(items):
        raise InvalidRequest(f"invalid cursor {cursor!r}")
    end = start + page_size
    more = end < len(items)
    return Page[Any](results=list(items[start:end]), next_cursor=str(end) if more else None, has_more=more)


CURRENT_SESSION = "current"


def given(**filters: Any) -> dict[str, Any]:
    """The filters whose argument was given (not None), for `db.find(table, **given(status=status, owner=owner))`:
    an optional argument filters only when the caller set it."""
    return {name: value for name, value in filters.items() if value is not None}


class Database:
    """What a tool works with: `conn` (SQLAlchemy Core connection), `now()`, `new_id()` and row helpers.

    Helpers raise the runtime's errors (NotFound, ...) with short messages; tools never format observations.
    """

    def __init__(self, state: SQLiteState, clock: SimClock) -> None:
        self.state = state
        self.conn: Connection = state.connection
        self.clock = clock

    def now(self) -> datetime:
        """Simulated current time (timezone-aware, UTC)."""
        return self.clock.now()

    def now_iso(self) -> str:
        """Simulated current time as an ISO 8601 string with a `Z` suffix."""
        return self.clock.now().strftime("%Y-%m-%dT%H:%M:%SZ")

    def next_number(self, counter: str, table: Table | None = None) -> int:
        """Next value of a named counter kept inside the state (so it snapshots and rolls back with it)."""
        raw = self.state.raw
        row = raw.execute(f'SELECT value FROM "{META_TABLE}" WHERE key = ?', (counter,)).fetchone()
        if row is None:
            start = raw.execute(f'SELECT count(*) FROM "{table.name}"').fetchone()[0] if table is not None else 0
            value = start + 1
            raw.execute(f'INSERT INTO "{META_TABLE}" (key, value) VALUES (?, ?)', (counter, value))
        else:
            value = row[0] + 1
            raw.execute(f'UPDATE "{META_TABLE}" SET value = ? WHERE key = ?', (value, counter))
        return value

    def new_id(self, table: Table, prefix: str, width: int = 4) -> str:
        """A fresh, deterministic id such as `ord_0042` for `table`, never one that exists there already."""
        pk = list(table.primary_key.columns)[0]
        taken = f'SELECT 1 FROM "{table.name}" WHERE "{pk.name}" = ?'
        while True:
            candidate = f"{prefix}{self.next_number(f'id:{table.name}', table):0{width}d}"
            if self.state.raw.execute(taken, (candidate,)).fetchone() is None:
                return candidate

    def new_uuid(self, table: Table) -> str:
        """A fresh, deterministic UUID string for `table` (derived from a counter in the state)."""
        return str(uuid.uuid5(_ID_NAMESPACE, f"{table.name}:{self.next_number(f'uuid:{table.name}')}"))

    def get(self, table: Table, key: Any, entity: str | None = None) -> dict[str, Any]:
        """The row with primary key `key`; raises NotFound("<Entity> '<key>' not found")."""
        fast = reader(table)
        if fast is not None and simple_value(key):
            values = self.state.raw.execute(fast.by_key, (key,)).fetchone()
            row = fast.decode(values) if values is not None else None
        else:
            pk = list(table.primary_key.columns)[0]
            found = self.conn.execute(select(table).where(pk == key)).mappings().first()
            row = dict(found) if found is not None else None
        if row is None:
            raise NotFound(f"{entity or table.name.rstrip('s').capitalize()} '{key}' not found")
        return row

    def find(self, table: Table, *conditions: Any, order_by: Iterable[Any] = (), **equals: Any) -> list[dict[str, Any]]:
        """Rows matching SQLAlchemy `conditions` and `column=value` equalities, ordered by `order_by` then key."""
        fast = reader(table)
        if fast is not None and not conditions and all(simple_value(v) for v in equals.values()):
            sql = fast.where_sql(equals, order_by)
            if sql is not None:
                return [fast.decode(values) for values in self.state.raw.execute(sql, tuple(equals.values()))]
        clauses = list(conditions) + [table.c[name] == value for name, value in equals.items()]
        stmt = select(table)
        if clauses:
            stmt = stmt.where(and_(*clauses))
        stmt = stmt.order_by(*order_by, *table.primary_key.columns)
        return [dict(r) for r in self.conn.execute(stmt).mappings()]

    def find_one(
        self, table: Table, *conditions: Any, not_found: str, order_by: Iterable[Any] = (), **equals: Any
    ) -> dict[str, Any]:
        """The first row `find` gives for the same filters; raises NotFound(`not_found`) when none matches (e.g.
        one of the signed-in user's own orders: `db.find_one(orders, id=order_id, user_id=me, not_found=...)`)."""
        found = self.find(table, *conditions, order_by=order_by, **equals)
        if not found:
            raise NotFound(not_found)
        return found[0]

    def select(
        self, table: Table, where: str = "", params: Sequence[Any] = (), order_by: str = "", limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Rows of `table` matching an SQL `where` clause with `?` parameters, ordered by an SQL `order_by`
        (then the primary key), decoded like `find`: for filters `find` cannot say (ranges, LIKE, IN, OR), at
        raw-SQL speed. Column names are the table's; quote any that SQL reserves."""
        decode = row_decoder(table)
        order = ", ".join(filter(None, [order_by, ", ".join(f'"{c.name}"' for c in table.primary_key.columns)]))
        sql = (
            f'SELECT {", ".join(f"{chr(34)}{c.name}{chr(34)}" for c in table.columns)} FROM "{table.name}"'
            f"{' WHERE ' + where if where else ''} ORDER BY {order}{' LIMIT ?' if limit is not None else ''}"
        )
        values = (*params, limit) if limit is not None else tuple(params)
        return [decode(row) for row in self.state.raw.execute(sql, values)]

    def insert(self, table: Table, /, **values: Any) -> dict[str, Any]:
        """Insert one row and return it as stored."""
        fast = reader(table)
        statement = fast.insert(values) if fast is not None else None
        if statement is not None:
            self.state.raw.execute(*statement)
        else:
            self.conn.execute(table.insert().values(**values))
        pk = list(table.primary_key.columns)[0]
        key = values.get(pk.name)
        if key is None:
            key = self.state.raw.execute("SELECT last_insert_rowid()").fetchone()[0]
        return self.get(table, key)

    def update(self, table: Table, key: Any, /, **values: Any) -> dict[str, Any]:
        """Update the row with primary key `key` (which must exist) and return it."""
        self.get(table, key)
        fast = reader(table)
        statement = fast.update(key, values) if fast is not None else None
        if statement is not None:
            self.state.raw.execute(*statement)
        else:
            pk = list(table.primary_key.columns)[0]
            self.conn.execute(table.update().where(pk == key).values(**values))
        return self.get(table, key)

    def start_session(self, table: Table, **owner: Any) -> dict[str, Any]:
        """Sign in: `table` holds one session row (key "current") naming `owner` (e.g. `user_id=...`) and the
        sign-in time; an earlier session is replaced."""
        self.conn.execute(table.delete())
        key = list(table.primary_key.columns)[0].name
        return self.insert(table, **{key: CURRENT_SESSION}, **owner, signed_in_at=self.now_iso())

    def current_session(self, table: Table, not_signed_in: str) -> dict[str, Any]:
        """The session row `start_session` wrote; PermissionDenied with `not_signed_in` when no one is signed in."""
        try:
            return self.get(table, CURRENT_SESSION)
        except NotFound:
            raise PermissionDenied(not_signed_in) from None

    def delete(self, table: Table, key: Any) -> dict[str, Any]:
        """Delete the row with primary key `key` (which must exist) and return what it held."""
        row = self.get(table, key)
        pk = list(table.primary_key.columns)[0]
        self.conn.execute(table.delete().where(pk == key))
        return row
