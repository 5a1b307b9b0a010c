"""State held as Python objects (Pydantic models, plain attributes): pickled snapshots, atomic calls, a table-like dump.

It plugs in beside SQLite through `EnvironmentSpec.backend` with the same semantics: a session owns its objects,
reset restores bytes, a failed call changes nothing, a read-only call may not change anything, and `dump()` is a
`{collection: {key: row}}` mapping, so `state_reward` compares it exactly as it compares tables.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import pickle
from contextlib import contextmanager
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from pydantic import BaseModel

from ..errors import ToolError
from ..state import CanonicalState

Roots = dict[str, Any]


class ReadOnlyViolation(ToolError):
    """A tool declared read-only changed the state (the change is undone)."""

    kind = "ReadOnlyViolation"


def plain(value: Any, _path: frozenset[int] = frozenset()) -> Any:
    """A JSON-like copy of `value`: models, dataclasses and objects become dicts of their public attributes, sets
    become sorted lists; a reference back to an enclosing object becomes "<cycle>"."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return plain(value.value, _path)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if id(value) in _path:
        return "<cycle>"
    path = _path | {id(value)}
    if isinstance(value, BaseModel):
        return {name: plain(getattr(value, name), path) for name in type(value).model_fields}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name), path) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v, path) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v, path) for v in value), key=lambda v: json.dumps(v, sort_keys=True, default=str))
    if isinstance(value, (list, tuple)):
        return [plain(v, path) for v in value]
    if hasattr(value, "__dict__") and not callable(value):
        return {k: plain(v, path) for k, v in vars(value).items() if not k.startswith("_")}
    return repr(value)


def object_tables(attributes: Mapping[str, Any], prefix: str = "", scalars: str = "attributes") -> CanonicalState:
    """Tables from named attributes: a mapping of mappings is a table keyed like the mapping, a list of mappings a
    table keyed by position; any other value is the row `{"value": ...}` of table `scalars`."""
    tables: CanonicalState = {}
    for name, value in attributes.items():
        data = plain(value)
        if isinstance(data, dict) and all(isinstance(row, dict) for row in data.values()):
            tables[prefix + name] = data
        elif isinstance(data, list) and all(isinstance(row, dict) for row in data):
            tables[prefix + name] = {str(i): row for i, row in enumerate(data)}
        else:
            tables.setdefault(prefix + scalars, {})[name] = {"value": data}
    return tables


class ObjectState:
    """The state of one session: named root objects whose attributes (private ones included) are the state."""

    def __init__(self, roots: Roots, view: Callable[[Roots], CanonicalState]) -> None:
        self.roots = roots
        self._view = view

    def snapshot(self) -> bytes:
        """Pickle of every root's attributes (a deep copy)."""
        return pickle.dumps({name: vars(obj) for name, obj in self.roots.items()}, protocol=pickle.HIGHEST_PROTOCOL)

    def restore(self, data: bytes) -> None:
        """Replace every root's attributes with those of a snapshot; the root objects themselves stay the same."""
        saved = pickle.loads(data)
        for name, obj in self.roots.items():
            attributes = vars(obj)
            attributes.clear()
            attributes.update(saved[name])

    @contextmanager
    def atomic(self, read_only: bool = False) -> Iterator[None]:
        """Undo the block's changes on any exception; a read-only block that changed the state is undone and fails."""
        before = self.snapshot()
        try:
            yield
        except BaseException:
            self.restore(before)
            raise
        if read_only and self.snapshot() != before:
            self.restore(before)
            raise ReadOnlyViolation("this tool is declared read-only but changed the state; the change was undone")

    def dump(self) -> CanonicalState:
        """Canonical table-like view of the objects."""
        return self._view(self.roots)

    def close(self) -> None:
        """Nothing to release."""


@dataclasses.dataclass(frozen=True)
class ObjectHandle:
    """What an external environment's tools receive: the state, the clock and the adapter's `invoke(name, kwargs)`."""

    state: Any
    clock: Any
    invoke: Callable[[str, dict[str, Any]], Any]


@dataclasses.dataclass(frozen=True, eq=False)
class ObjectBackend:
    """A `StateFactory` for object states: how to build the roots, apply a snapshot file's payload to fresh roots,
    view them as tables, and bind a session's roots to a tool caller `(name, arguments) -> result`."""

    make_roots: Callable[[], Roots]
    load: Callable[[Roots, Any], None]
    view: Callable[[Roots], CanonicalState]
    bind: Callable[[Roots], Callable[[str, dict[str, Any]], Any]]

    def create(self) -> ObjectState:
        """Fresh roots for one session."""
        return ObjectState(self.make_roots(), self.view)

    def handle(self, state: ObjectState, clock: Any) -> ObjectHandle:
        """The handle bound to `state`'s roots."""
        return ObjectHandle(state, clock, self.bind(state.roots))

    def snapshot(self, path: Path) -> bytes:
        """Bytes of the snapshot file's payload (JSON) applied to fresh roots."""
        state = self.create()
        self.load(state.roots, json.loads(Path(path).read_text()))
        return state.snapshot()


def replace_attributes(target: Any, source: Any) -> None:
    """Make `target` hold exactly `source`'s attributes (loads a freshly built object into a session's root)."""
    attributes = vars(target)
    attributes.clear()
    attributes.update(vars(source))
