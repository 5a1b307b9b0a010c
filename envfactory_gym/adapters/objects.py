"""State held as Python objects (Pydantic models, plain attributes): pickled snapshots, atomic calls, a table-like dump.

It plugs in beside SQLite through `EnvironmentSpec.backend` with the same semantics: a session owns its objects,
reset restores bytes, a failed call changes nothing, and `dump()` is a `{collection: {key: row}}` mapping, so
`state_reward` compares it exactly as it compares tables. The dump is also what "the state" means for a read-only
tool: a read that changes only what the dump leaves out (private attributes, declared cache fields) keeps its
change, as the original does; a read that changes the dump is undone and fails.

External code runs with its network guarded (adapters/network.py) and its randomness and clock bound to the
session (adapters/determinism.py); the session's generator is pickled with the state.
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
from typing import Any, Callable, Iterable, Iterator, Mapping

from pydantic import BaseModel

from ..database import DEFAULT_CLOCK
from ..errors import ToolError
from ..state import CanonicalState
from .determinism import Entropy, session_entropy
from .network import NetworkPolicy, guarded

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
        try:  # pydantic's own serializer: its fields, JSON-ready (what tau2's to_json_str sends, too)
            return value.model_dump(mode="json")
        except Exception:  # a value pydantic cannot serialize: field by field
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


def without_fields(data: Any, names: frozenset[str]) -> Any:
    """`data` (JSON-like) with every mapping key in `names` removed, at any depth (declared cache fields)."""
    if not names:
        return data
    if isinstance(data, dict):
        return {k: without_fields(v, names) for k, v in data.items() if k not in names}
    if isinstance(data, list):
        return [without_fields(v, names) for v in data]
    return data


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


def first_difference(before: CanonicalState, after: CanonicalState) -> str:
    """`table[key].field` of the first row that differs between two dumps (for error messages)."""
    for table in sorted(set(before) | set(after)):
        rows_before, rows_after = before.get(table, {}), after.get(table, {})
        for key in sorted(set(rows_before) | set(rows_after), key=str):
            row_before, row_after = rows_before.get(key), rows_after.get(key)
            if row_before != row_after:
                if isinstance(row_before, dict) and isinstance(row_after, dict):
                    fields = [
                        f for f in sorted(set(row_before) | set(row_after)) if row_before.get(f) != row_after.get(f)
                    ]
                    return f"{table}[{key}].{fields[0]}"
                return f"{table}[{key}]"
    return "nothing"


class ObjectState:
    """The state of one session: named root objects whose attributes (private ones included) are the state, plus
    the session's generator."""

    def __init__(self, roots: Roots, view: Callable[[Roots], CanonicalState], entropy: Entropy | None = None) -> None:
        self.roots = roots
        self.entropy = entropy or Entropy()
        self._view = view

    def snapshot(self) -> bytes:
        """Pickle of every root's attributes and of the generator (a deep copy)."""
        saved = {name: vars(obj) for name, obj in self.roots.items()}
        return pickle.dumps((saved, self.entropy), protocol=pickle.HIGHEST_PROTOCOL)

    def restore(self, data: bytes) -> None:
        """Replace every root's attributes with those of a snapshot; the root objects themselves stay the same."""
        saved, entropy = pickle.loads(data)
        for name, obj in self.roots.items():
            attributes = obj.__dict__
            attributes.clear()
            attributes.update(saved[name])
        self.entropy.random.setstate(entropy.random.getstate())

    @contextmanager
    def atomic(self, read_only: bool = False) -> Iterator[None]:
        """Undo the block's changes on any exception; a read-only block that changed the dump is undone and fails
        (changes the dump leaves out are kept)."""
        before = self.snapshot()
        view_before = self.dump() if read_only else None
        try:
            yield
        except BaseException:
            self.restore(before)
            raise
        if view_before is not None and self.snapshot() != before:
            view_after = self.dump()
            if view_after != view_before:
                self.restore(before)
                raise ReadOnlyViolation(
                    f"this tool is declared read-only but changed "
                    f"{first_difference(view_before, view_after)}; the change was undone (a cache "
                    "field? import with --cache-fields NAME)"
                )

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
    view them as tables, and bind a session's roots to a tool caller `(name, arguments) -> result`.

    `hidden_fields` (declared cache fields) are left out of the view; `network` guards the external code."""

    make_roots: Callable[[], Roots]
    load: Callable[[Roots, Any], None]
    view: Callable[[Roots], CanonicalState]
    bind: Callable[[Roots], Callable[[str, dict[str, Any]], Any]]
    hidden_fields: frozenset[str] = frozenset()
    network: NetworkPolicy | None = None

    def _view(self, roots: Roots) -> CanonicalState:
        return without_fields(self.view(roots), self.hidden_fields) if self.hidden_fields else self.view(roots)

    def create(self) -> ObjectState:
        """Fresh roots for one session."""
        with guarded(self.network):
            return ObjectState(self.make_roots(), self._view)

    def handle(self, state: ObjectState, clock: Any) -> ObjectHandle:
        """The handle bound to `state`'s roots: calls run guarded, with the session's generator and clock."""
        call = self.bind(state.roots)

        def invoke(name: str, arguments: dict[str, Any]) -> Any:
            with guarded(self.network), session_entropy(state.entropy, clock.now):
                return call(name, arguments)

        return ObjectHandle(state, clock, invoke)

    def snapshot(self, path: Path) -> bytes:
        """Bytes of the snapshot file's payload (JSON) applied to fresh roots."""
        return self.snapshot_of(json.loads(Path(path).read_text()))

    def snapshot_of(self, payload: Any) -> bytes:
        """Bytes of a payload applied to fresh roots (with a fresh generator and the default clock)."""
        state = self.create()
        with guarded(self.network), session_entropy(state.entropy, lambda: DEFAULT_CLOCK):
            self.load(state.roots, payload)
        return state.snapshot()


def replace_attributes(target: Any, source: Any) -> None:
    """Make `target` hold exactly `source`'s attributes (loads a freshly built object into a session's root)."""
    attributes = vars(target)
    attributes.clear()
    attributes.update(vars(source))


def public_attributes(obj: Any, hidden: Iterable[str] = ()) -> dict[str, Any]:
    """An object's attributes without private ones (leading underscore) and without `hidden` names."""
    skip = set(hidden)
    return {k: v for k, v in vars(obj).items() if not k.startswith("_") and k not in skip}
