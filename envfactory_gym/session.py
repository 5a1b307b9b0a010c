"""A tool session: one isolated, stateful instance of an environment (state + clock + executor)."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from .database import DEFAULT_CLOCK, Database, SimClock
from .delta import DumpRows, RowSource, SnapshotRows, StateDelta, diff_dumps
from .execution import Caller, ToolExecutor, ToolOutcome
from .spec import EnvironmentSpec
from .state import CanonicalState, SQLiteState, StateBackend, load_snapshot, tracks_changes

DEFAULT_SNAPSHOT = "seed"


@lru_cache(maxsize=None)
def snapshot_bytes(spec: EnvironmentSpec, snapshot: str) -> bytes:
    """Serialized state bytes of one of an environment's named snapshots (built once, then cached)."""
    if spec.backend is not None:
        return spec.backend.snapshot(spec.snapshot_path(snapshot))
    return load_snapshot(spec.schema, spec.snapshot_path(snapshot))


@lru_cache(maxsize=None)
def snapshot_rows(spec: EnvironmentSpec, snapshot: str) -> RowSource:
    """The rows of a named snapshot as a shared, cached row source (the base of every delta taken from it)."""
    if spec.backend is None:
        return SnapshotRows(spec.schema, snapshot_bytes(spec, snapshot))
    session = ToolSession(spec)
    try:
        session.reset(snapshot)
        return DumpRows(session.dump())
    finally:
        session.close()


class ToolSession:
    """Owns its own state (SQLite, or what `spec.backend` builds): sessions never share state. Used by the Env,
    replay and MCP serving."""

    def __init__(self, spec: EnvironmentSpec) -> None:
        self.spec = spec
        self.clock = SimClock()
        if spec.backend is None:
            self.state: StateBackend = SQLiteState(spec.schema)
            self.database: Any = Database(self.state, self.clock)
        else:
            self.state = spec.backend.create()
            self.database = spec.backend.handle(self.state, self.clock)
        self.executor = ToolExecutor(spec, self.database)
        self.snapshot: str | None = None
        self._delta: tuple[Any, StateDelta] | None = None  # (what it was computed at, the delta)

    def reset(self, snapshot: str = DEFAULT_SNAPSHOT, clock: datetime = DEFAULT_CLOCK) -> None:
        """Restore a named snapshot of the environment and restart the clock."""
        self.state.restore(snapshot_bytes(self.spec, snapshot))
        self.clock.reset(clock)
        self.snapshot = snapshot

    def restore_bytes(self, data: bytes, clock: datetime, snapshot: str | None = None) -> None:
        """Restore serialized state bytes (e.g. a mid-episode snapshot) and restart the clock there; `snapshot`
        names the snapshot those bytes descend from (since its reset), so `delta()` still works."""
        self.state.restore(data)
        self.clock.reset(clock)
        self.snapshot = snapshot

    def call(self, name: Any, arguments: Any, caller: Caller = "agent") -> ToolOutcome:
        """Execute one tool call atomically."""
        return self.executor.call(name, arguments, caller)

    def dump(self) -> CanonicalState:
        """Canonical dump of the current state."""
        return self.state.dump()

    def delta(self) -> StateDelta:
        """The current state as the rows where it may differ from the snapshot it was reset to. On SQLite state
        this reads only the rows the change log names; other states are dumped and compared."""
        if self.snapshot is None:
            raise RuntimeError("delta() needs a session reset to a named snapshot")
        base = snapshot_rows(self.spec, self.snapshot)
        if isinstance(self.state, SQLiteState) and tracks_changes(self.state) and isinstance(base, SnapshotRows):
            at = (self.snapshot, self.state.change_count())
            if self._delta is not None and self._delta[0] == at:  # turn and episode scores ask at the same step
                return self._delta[1]
            keys = self.state.changed_since(0)
            base.rows(keys)  # the base's own rows for these keys, cached for every later comparison
            delta = StateDelta(base, self.state.rows(keys))
            self._delta = (at, delta)
            return delta
        return StateDelta(base, diff_dumps(base.full(), self.dump()))

    def close(self) -> None:
        """Release the state."""
        self.state.close()
