"""A tool session: one isolated, stateful instance of an environment (state + clock + executor)."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from .database import DEFAULT_CLOCK, Database, SimClock
from .execution import Caller, ToolExecutor, ToolOutcome
from .spec import EnvironmentSpec
from .state import CanonicalState, SQLiteState, StateBackend, load_snapshot

DEFAULT_SNAPSHOT = "seed"


@lru_cache(maxsize=None)
def snapshot_bytes(spec: EnvironmentSpec, snapshot: str) -> bytes:
    """Serialized state bytes of one of an environment's named snapshots (built once, then cached)."""
    if spec.backend is not None:
        return spec.backend.snapshot(spec.snapshot_path(snapshot))
    return load_snapshot(spec.schema, spec.snapshot_path(snapshot))


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

    def reset(self, snapshot: str = DEFAULT_SNAPSHOT, clock: datetime = DEFAULT_CLOCK) -> None:
        """Restore a named snapshot of the environment and restart the clock."""
        self.state.restore(snapshot_bytes(self.spec, snapshot))
        self.clock.reset(clock)

    def restore_bytes(self, data: bytes, clock: datetime) -> None:
        """Restore serialized state bytes (e.g. a mid-episode snapshot) and restart the clock there."""
        self.state.restore(data)
        self.clock.reset(clock)

    def call(self, name: Any, arguments: Any, caller: Caller = "agent") -> ToolOutcome:
        """Execute one tool call atomically."""
        return self.executor.call(name, arguments, caller)

    def dump(self) -> CanonicalState:
        """Canonical dump of the current state."""
        return self.state.dump()

    def close(self) -> None:
        """Release the state."""
        self.state.close()
