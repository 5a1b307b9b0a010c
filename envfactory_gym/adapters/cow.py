"""Copy-on-write state for large record databases (a tau2 domain's Pydantic DB: collections of records).

Every session shares one frozen copy of each snapshot's records and owns only the records it changed:

- The records of a snapshot are frozen once per process: models and plain objects get a subclass whose attribute
  assignment raises `SharedMutation`, lists, dicts and sets become `FrozenList`, `FrozenDict`, `FrozenSet`. Each
  frozen object knows its record (collection, key), and pickles and copies as the original, unfrozen type.
- A session's database is a shell whose collections are shallow copies of the snapshot's (`TrackedDict`): a reset
  copies a few dict tables (microseconds, whatever the size of the data) and reads run at native speed on the
  shared records.
- A write copies the records it touches: a tool that mutates a shared record raises `SharedMutation` (also when the
  tool's own `except Exception` swallows it), the call is undone, the record is copied into the session and the call
  runs again. Tools learn which collections they change; next time they copy those records as they fetch them, so
  they run once.
- After a call the copied records are frozen again, so the next failed call can be undone and a read that changes
  a record is seen. A read-only tool may change what the dump leaves out (private attributes, declared cache fields);
  changing a row is undone and fails.
- `snapshot()` is a `StateVersion`: bytes (the changed records relative to the seed, pickled, for another process)
  that also carry the in-process tables, so restoring it in this process copies dicts again.

Its premise: records are trees (no object is reached from two records). The import replays every ground truth on
this state and on plain objects, compares them, and falls back to the plain object state when they differ.
"""

from __future__ import annotations

import copy
import datetime as _dt
import enum
import pickle
import threading
import uuid
import weakref
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable, Literal, Self, cast

from pydantic import BaseModel, TypeAdapter

from ..errors import ToolError
from ..state import CanonicalState
from .determinism import Entropy, session_entropy
from .network import NetworkPolicy, guarded
from .objects import ObjectHandle, ReadOnlyViolation, object_tables, plain, without_fields

ATTRIBUTES = "attributes"
_MISSING: Any = object()
_MAX_ATTEMPTS = 32
_SCALARS = frozenset({str, int, float, bool, bytes, type(None)})
_IMMUTABLE = (
    str,
    int,
    float,
    bool,
    bytes,
    complex,
    type(None),
    Decimal,
    _dt.date,
    _dt.time,
    _dt.timedelta,
    enum.Enum,
    uuid.UUID,
    frozenset,
    range,
    type,
)
Owner = tuple[str, str]  # (collection, key), or (ATTRIBUTES, attribute) for a database attribute that is no collection


class SharedMutation(BaseException):
    """A tool tried to change a frozen (shared) object. A BaseException, so `except Exception` in tools lets it by."""

    def __init__(self, target: Any) -> None:
        super().__init__(type(target).__name__)
        self.target = target


class Unfreezable(TypeError):
    """A value of a type this state cannot protect (the environment then uses the plain object state)."""


class UntrackableChange(ToolError):
    """A change reached an object outside the record it was fetched through."""

    kind = "internal"


_RUNNING: ContextVar["CowState | None"] = ContextVar("envfactory_cow_running", default=None)


def _refuse(self: Any, *args: Any, **kwargs: Any) -> Any:
    running = _RUNNING.get()
    if running is not None:
        running.noted.append(self)
    raise SharedMutation(self)


# ------------------------------------------------------------------------------------------------ frozen values
class FrozenList(list):
    """A list that refuses changes; copies and pickles as a plain list."""

    __slots__ = ()
    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (list, (list(self),))

    def __copy__(self) -> list:
        return copy.deepcopy(list(self))

    def __deepcopy__(self, memo: dict) -> list:
        return copy.deepcopy(list(self), memo)


class FrozenDict(dict):
    """A dict that refuses changes; copies and pickles as a plain dict."""

    __slots__ = ()
    __setitem__ = __delitem__ = pop = popitem = clear = update = setdefault = __ior__ = _refuse

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (dict, (dict(self),))

    def __copy__(self) -> dict:
        return copy.deepcopy(dict(self))

    def __deepcopy__(self, memo: dict) -> dict:
        return copy.deepcopy(dict(self), memo)


class FrozenSet(set):
    """A set that refuses changes; copies and pickles as a plain set."""

    __slots__ = ()
    add = discard = remove = pop = clear = update = _refuse
    intersection_update = difference_update = symmetric_difference_update = _refuse
    __ior__ = __iand__ = __isub__ = __ixor__ = _refuse

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (set, (set(self),))

    def __copy__(self) -> set:
        return copy.deepcopy(set(self))

    def __deepcopy__(self, memo: dict) -> set:
        return copy.deepcopy(set(self), memo)


_CONTAINERS: dict[type, type] = {list: FrozenList, dict: FrozenDict, set: FrozenSet}
_FROZEN_OF: dict[type, type] = {}
# Any: instances are made with each class's own __new__, which mypy's `type` cannot express
_ORIGINAL_OF: dict[type, Any] = {FrozenList: list, FrozenDict: dict, FrozenSet: set}
_CLASS_LOCK = threading.Lock()


def _rebuild_model(cls: Any, state: dict[str, Any]) -> Any:
    obj = cls.__new__(cls)
    obj.__setstate__(state)
    return obj


def _rebuild_object(cls: Any, attributes: dict[str, Any]) -> Any:
    obj = cls.__new__(cls)
    obj.__dict__.update(attributes)
    return obj


def _thawed_copy(self: Any, memo: dict | None = None) -> Any:
    """An unfrozen deep copy of a frozen model or object (copy.copy gets one too: a shallow copy would share frozen
    parts)."""
    memo = {} if memo is None else memo
    original = _ORIGINAL_OF[type(self)]
    new = original.__new__(original)
    memo[id(self)] = new
    if isinstance(self, BaseModel):
        object.__setattr__(new, "__dict__", copy.deepcopy(self.__dict__, memo))
        object.__setattr__(new, "__pydantic_fields_set__", set(self.__pydantic_fields_set__))
        object.__setattr__(new, "__pydantic_extra__", copy.deepcopy(self.__pydantic_extra__, memo))
        object.__setattr__(new, "__pydantic_private__", copy.deepcopy(self.__pydantic_private__, memo))
    else:
        new.__dict__.update(copy.deepcopy(vars(self), memo))
    return new


def _reduce_frozen(self: Any, protocol: Any) -> Any:
    original = _ORIGINAL_OF[type(self)]
    if isinstance(self, BaseModel):
        return (_rebuild_model, (original, self.__getstate__()))
    return (_rebuild_object, (original, dict(vars(self))))


def _equal_frozen(self: Any, other: Any) -> Any:
    original = _ORIGINAL_OF[type(self)]
    if _ORIGINAL_OF.get(type(other), type(other)) is not original:
        return NotImplemented
    if isinstance(self, BaseModel):
        return (
            self.__dict__ == other.__dict__
            and self.__pydantic_extra__ == other.__pydantic_extra__
            and self.__pydantic_private__ == other.__pydantic_private__
        )
    return vars(self) == vars(other)


def frozen_class(cls: type) -> type:
    """The frozen subclass of a model or plain class (made once; same layout, so instances switch class)."""
    frozen = _FROZEN_OF.get(cls)
    if frozen is not None:
        return frozen
    with _CLASS_LOCK:
        if cls not in _FROZEN_OF:
            namespace = {
                "__slots__": (),
                "__module__": cls.__module__,
                "__qualname__": f"Frozen{cls.__qualname__}",
                "__setattr__": _refuse,
                "__delattr__": _refuse,
                "__reduce_ex__": _reduce_frozen,
                "__copy__": _thawed_copy,
                "__deepcopy__": _thawed_copy,
                "__eq__": _equal_frozen,
                "__hash__": cls.__hash__,
            }
            frozen = type.__new__(type(cls), f"Frozen{cls.__name__}", (cls,), namespace)  # no metaclass set-up
            _ORIGINAL_OF[frozen] = cls
            _FROZEN_OF[cls] = frozen
        return _FROZEN_OF[cls]


def is_frozen(value: Any) -> bool:
    """Whether a value is a frozen container or object."""
    return type(value) in _ORIGINAL_OF


class Registry:
    """The record (owner) of each frozen object; a session's registry falls back to its snapshot's."""

    def __init__(self, parent: "Registry | None" = None) -> None:
        self.entries: dict[int, tuple[Any, Owner]] = {}
        self.parent = parent

    def owner(self, obj: Any) -> Owner | None:
        """The record `obj` belongs to, or None."""
        entry = self.entries.get(id(obj))
        if entry is not None and entry[0] is obj:
            return entry[1]
        return self.parent.owner(obj) if self.parent is not None else None


def freeze(value: Any, owner: Owner, registry: Registry) -> Any:
    """`value` frozen in place where possible (models, objects), rebuilt where not (containers); every frozen part
    registered as belonging to `owner`. A frozen part owned by another record is copied, so records stay trees."""
    kind = type(value)
    if kind in _SCALARS or isinstance(value, _IMMUTABLE):
        return value
    if kind in _ORIGINAL_OF:
        if registry.owner(value) == owner:
            return value
        value = copy.deepcopy(value)  # shared with another record: this record gets its own copy
        kind = type(value)
    if kind is tuple:
        return tuple(freeze(item, owner, registry) for item in value)
    container = _CONTAINERS.get(kind)
    if container is not None:
        if kind is dict:
            frozen: Any = container({k: freeze(v, owner, registry) for k, v in value.items()})
        else:
            frozen = container(freeze(item, owner, registry) for item in value)
        registry.entries[id(frozen)] = (frozen, owner)
        return frozen
    if isinstance(value, BaseModel):
        attributes = value.__dict__
        for name, item in attributes.items():
            attributes[name] = freeze(item, owner, registry)
        for extra in (value.__pydantic_extra__, value.__pydantic_private__):
            if extra:
                for name, item in extra.items():
                    extra[name] = freeze(item, owner, registry)
    elif hasattr(value, "__dict__") and not callable(value) and kind.__module__ != "builtins":
        attributes = vars(value)
        for name, item in attributes.items():
            attributes[name] = freeze(item, owner, registry)
    else:
        raise Unfreezable(f"cannot protect a {kind.__qualname__} value (in {owner[0]}[{owner[1]}])")
    try:
        object.__setattr__(value, "__class__", frozen_class(kind))
    except TypeError as exc:
        raise Unfreezable(f"cannot protect a {kind.__qualname__} value (in {owner[0]}[{owner[1]}]): {exc}") from exc
    registry.entries[id(value)] = (value, owner)
    return value


# ------------------------------------------------------------------------------------------------ session tables
class TrackedDict(dict[Any, Any]):
    """A session's collection: reads are a dict's; every change is logged so the call can be undone."""

    __slots__ = ("_state", "_name")
    _state: CowState
    _name: str

    def __setitem__(self, key: Any, value: Any) -> None:
        self._state.log_item(self, key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        self._state.log_item(self, key)
        dict.__delitem__(self, key)

    def pop(self, key: Any, *default: Any) -> Any:
        if key in self:
            self._state.log_item(self, key)
        return dict.pop(self, key, *default)

    def popitem(self) -> Any:
        key = next(reversed(self))
        return key, self.pop(key)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, key)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def clear(self) -> None:
        for key in list(self):
            del self[key]

    # misc: dict's own `|=` accepts only mappings where its `|` is overloaded; ours takes what update() takes
    def __ior__(self, other: Any) -> Self:  # type: ignore[misc]
        self.update(other)
        return self

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (dict, (dict(self),))


class CopyOnGetDict(TrackedDict):
    """A collection during a call of a tool known to change it: fetching a record copies it into the session."""

    __slots__ = ()

    def __getitem__(self, key: Any) -> Any:
        value = dict.__getitem__(self, key)
        return self._state.thaw_item(self, key, value) if type(value) in _ORIGINAL_OF else value

    def get(self, key: Any, default: Any = None) -> Any:
        value = dict.get(self, key, _MISSING)
        if value is _MISSING:
            return default
        return self._state.thaw_item(self, key, value) if type(value) in _ORIGINAL_OF else value


def _tracking_setattr(self: Any, name: str, value: Any) -> None:
    state = _SHELL_STATES.get(id(self))
    if state is not None and not name.startswith("__"):
        state.log_attribute(name)
    object.__setattr__(self, name, value)


_SHELL_CLASSES: dict[type, type] = {}
_SHELL_STATES: "weakref.WeakValueDictionary[int, CowState]" = weakref.WeakValueDictionary()


def shell_class(cls: type) -> Any:
    """The subclass of a database class whose attribute assignments are logged."""
    with _CLASS_LOCK:
        if cls not in _SHELL_CLASSES:
            namespace = {
                "__slots__": (),
                "__module__": cls.__module__,
                "__setattr__": _tracking_setattr,
                "__qualname__": f"Session{cls.__qualname__}",
            }
            _SHELL_CLASSES[cls] = type.__new__(type(cls), f"Session{cls.__name__}", (cls,), namespace)
        return _SHELL_CLASSES[cls]


# ------------------------------------------------------------------------------------------------ versions
class StateVersion(bytes):
    """A snapshot: its bytes rebuild it in any process (seed + changed records, pickled); in the process that took it
    it also carries the tables themselves, so restoring it copies dicts."""

    tables: dict[str, dict[Any, Any]]
    attributes: dict[str, Any]
    registry: dict[int, tuple[Any, Owner]]
    rows: dict[int, tuple[Any, Any]]
    changed: frozenset[Owner]
    entropy: Any
    store: "CowStore"

    def __reduce__(self) -> Any:
        return (bytes, (bytes(self),))  # another process gets the bytes only


@dataclass
class Layout:
    """Which attributes of the database are collections of records, and the types that validate them."""

    collections: tuple[str, ...]
    attributes: tuple[str, ...]
    adapters: dict[str, TypeAdapter] = field(default_factory=dict)


class CowState:
    """One session's copy-on-write database (see the module docstring)."""

    def __init__(self, store: "CowStore") -> None:
        self.store = store
        self.entropy = Entropy()
        seed = store.seed()
        template = store.seed_db
        self.db = shell_class(type(template)).__new__(shell_class(type(template)))
        for slot in ("__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__"):
            if hasattr(template, slot):
                object.__setattr__(self.db, slot, copy.copy(getattr(template, slot)))
        object.__setattr__(self.db, "__dict__", {})
        _SHELL_STATES[id(self.db)] = self
        self.registry = Registry(store.base_registry)
        self.rows: dict[int, tuple[Any, Any]] = {}
        self.changed: set[Owner] = set()
        self.noted: list[Any] = []
        self._undo: list[tuple[Any, ...]] = []
        self._first: dict[Owner, Any] = {}
        self._in_call = False
        self._read_only = False
        self.restore(seed)
        with guarded(store.network):
            self.toolkit = store.make_toolkit(self.db)

    # -------------------------------------------------------------------------------------------- snapshots
    def snapshot(self) -> StateVersion:
        """The current state as a `StateVersion`."""
        records = {owner: self._current(owner) for owner in sorted(self.changed)}
        payload = pickle.dumps(("envfactory-cow", records, self.entropy.random.getstate()), pickle.HIGHEST_PROTOCOL)
        version = StateVersion(payload)
        version.tables = {name: dict(self.db.__dict__[name]) for name in self.store.layout.collections}
        version.attributes = {
            name: self.db.__dict__[name] for name in self.store.layout.attributes if name in self.db.__dict__
        }
        version.registry = dict(self.registry.entries)
        version.rows = dict(self.rows)
        version.changed = frozenset(self.changed)
        version.entropy = self.entropy.random.getstate()
        version.store = self.store
        return version

    def restore(self, data: bytes) -> None:
        """Make the state equal to a snapshot (a `StateVersion` of this store: dict copies; other bytes: rebuilt)."""
        version = (
            data
            if isinstance(data, StateVersion) and getattr(data, "store", None) is self.store
            else self.store.version_from_bytes(data)
        )
        attributes = self.db.__dict__
        attributes.clear()
        for name, rows in version.tables.items():
            table = TrackedDict(rows)
            table._state, table._name = self, name
            attributes[name] = table
        attributes.update(version.attributes)
        self.registry.entries = dict(version.registry)
        self.rows = dict(version.rows)
        self.changed = set(version.changed)
        self.entropy.random.setstate(version.entropy)
        self._undo.clear()
        self._first.clear()

    def _current(self, owner: Owner) -> Any:
        if owner[0] == ATTRIBUTES:
            return self.db.__dict__.get(owner[1], _MISSING_MARK)
        return dict.get(self.db.__dict__[owner[0]], owner[1], _MISSING_MARK)

    # -------------------------------------------------------------------------------------------- calls
    def atomic(self, read_only: bool = False) -> "_Call":
        """One call: undone on any exception; its copied records frozen again on success. A read-only call that
        changed a row is undone and fails. A call inside a call belongs to the outer one."""
        return _Call(self, read_only)

    def run(self, tool: str | None, function: Callable[[], Any]) -> Any:
        """Run external code that may change records (inside `atomic`): shared records it changes are copied into
        the session and the code runs again."""
        if not self._in_call:
            with self.atomic():
                return self.run(tool, function)
        learned: list[Owner] = []
        hinted = self.store.hinted(tool, self._read_only)
        tables = self.db.__dict__
        for _ in range(_MAX_ATTEMPTS):
            for learned_owner in learned:
                self._thaw(learned_owner)
            copying = [tables[name] for name in hinted if name in tables]
            for table in copying:
                table.__class__ = CopyOnGetDict
            self.noted.clear()
            token = _RUNNING.set(self)
            try:
                result = function()
                if self.noted:
                    raise SharedMutation(self.noted[0])
            except SharedMutation as mutation:
                owner = self.registry.owner(mutation.target)
                if owner is None or owner in learned:
                    raise UntrackableChange(
                        f"a change reached a shared {type(mutation.target).__name__} outside the record it was "
                        "fetched through; import this environment with the plain object state"
                    ) from None
                self._rollback_to_call_start()
                learned.append(owner)
                self.store.learn(tool, owner[0])
                continue
            finally:
                _RUNNING.reset(token)
                for table in copying:
                    table.__class__ = TrackedDict
            self.store.learn_changes(tool, {owner[0] for owner in self._first})
            return result
        raise UntrackableChange("too many shared records changed in one call")

    # -------------------------------------------------------------------------------------------- logging
    def log_item(self, table: TrackedDict, key: Any) -> None:
        """Remember a collection entry's value before a change."""
        owner = (table._name, key)
        old = dict.get(table, key, _MISSING)
        self._undo.append(("item", table, key, old))
        self._first.setdefault(owner, old)

    def log_attribute(self, name: str) -> None:
        """Remember a database attribute's value before a change."""
        old = self.db.__dict__.get(name, _MISSING)
        self._undo.append(("attribute", name, old))
        self._first.setdefault((ATTRIBUTES, name), old)

    def thaw_item(self, table: TrackedDict, key: Any, value: Any) -> Any:
        """Copy a shared record into the session (logged, so the call can undo it)."""
        thawed = self.store.thaw(value)
        self.log_item(table, key)
        dict.__setitem__(table, key, thawed)
        return thawed

    def _thaw(self, owner: Owner) -> None:
        if owner[0] == ATTRIBUTES:
            value = self.db.__dict__.get(owner[1], _MISSING)
            if value is not _MISSING and is_frozen(value):
                self.log_attribute(owner[1])
                self.db.__dict__[owner[1]] = self.store.thaw(value)
            return
        table = self.db.__dict__[owner[0]]
        value = dict.get(table, owner[1], _MISSING)
        if value is not _MISSING and is_frozen(value):
            self.thaw_item(table, owner[1], value)

    def _rollback_to_call_start(self) -> None:
        for entry in reversed(self._undo):
            if entry[0] == "item":
                _, table, key, old = entry
                if old is _MISSING:
                    dict.pop(table, key, None)
                else:
                    dict.__setitem__(table, key, old)
            else:
                _, name, old = entry
                if old is _MISSING:
                    self.db.__dict__.pop(name, None)
                else:
                    self.db.__dict__[name] = old
        self._undo.clear()
        self._first.clear()
        self.entropy.rollback()
        self.entropy.checkpoint()  # the call may go on (run again after a copy)

    def _rollback(self) -> None:
        self._rollback_to_call_start()

    def _commit(self) -> None:
        changed: list[Owner] = []
        for owner, old in self._first.items():
            new = self._current(owner)
            if new is old:
                continue
            if new is _MISSING_MARK:
                changed.append(owner)
                continue
            if owner[0] == ATTRIBUTES and owner[1] in self.store.layout.collections:
                self._replace_collection(owner[1], new)
                changed.extend((owner[1], key) for key in new)
                continue
            row = self.store.row(new)
            if old is not _MISSING and is_frozen(old) and row == self.row_of(old):
                self._put(owner, old)  # copied but not changed: keep sharing the snapshot's record
                continue
            frozen = freeze(new, owner, self.registry)
            self._put(owner, frozen)
            self.rows[id(frozen)] = (frozen, row)
            changed.append(owner)
        if changed and self._read_only:
            what = ", ".join(f"{c}[{k}]" for c, k in changed[:3])
            self._rollback()
            raise ReadOnlyViolation(f"this tool is declared read-only but changed {what}; the change was undone")
        self.changed.update(changed)

    def _replace_collection(self, name: str, records: Any) -> None:
        """A tool assigned a whole collection: it becomes a session table of frozen records again."""
        table = TrackedDict()
        table._state, table._name = self, name
        for key, record in dict(records).items():
            frozen = freeze(record, (name, key), self.registry)
            self.rows[id(frozen)] = (frozen, self.store.row(frozen))
            dict.__setitem__(table, key, frozen)
        self.db.__dict__[name] = table

    def _put(self, owner: Owner, value: Any) -> None:
        if owner[0] == ATTRIBUTES:
            self.db.__dict__[owner[1]] = value
        else:
            dict.__setitem__(self.db.__dict__[owner[0]], owner[1], value)

    # -------------------------------------------------------------------------------------------- dump
    def row_of(self, record: Any) -> Any:
        """The canonical row of a record (cached per frozen record)."""
        entry = self.rows.get(id(record))
        if entry is not None and entry[0] is record:
            return entry[1]
        return self.store.base_row(record)

    def dump(self) -> CanonicalState:
        """`{collection: {key: row}}`, and the other database attributes as `object_tables` renders them. A
        collection the session has not changed is the seed's own (read-only) table of rows; a changed one is a copy
        of it with the changed rows replaced: the cost follows what changed, not the size of the data."""
        attributes = self.db.__dict__
        seed_rows = self.store.seed_rows
        changed: dict[str, list[Any]] = {}
        for name, key in self.changed:
            changed.setdefault(name, []).append(key)
        tables: CanonicalState = {}
        for name in self.store.layout.collections:
            keys = changed.get(name)
            if not keys:
                tables[name] = seed_rows[name]
                continue
            rows = dict(seed_rows[name])
            table = attributes[name]
            for key in keys:
                record = dict.get(table, key, _MISSING)
                if record is _MISSING:
                    rows.pop(str(key), None)
                else:
                    rows[str(key)] = self.row_of(record)
            tables[name] = rows
        tables.update(attribute_tables(attributes, self.store.layout, self.store.hidden_fields))
        return tables

    def close(self) -> None:
        """Forget the shell."""
        _SHELL_STATES.pop(id(self.db), None)


def attribute_tables(attributes: dict[str, Any], layout: Layout, hidden: frozenset[str]) -> CanonicalState:
    """The database attributes that are no collections, as `object_tables` renders them."""
    tables: CanonicalState = {}
    others = {name: attributes[name] for name in layout.attributes if name in attributes}
    for table, rows in object_tables(others).items():
        tables.setdefault(table, {}).update(without_fields(rows, hidden))
    return tables


def record_tables(db: Any, store: "CowStore") -> CanonicalState:
    """A plain database object dumped exactly as a `CowState` dumps its own (for the plain-object reference)."""
    store.seed()
    attributes = db.__dict__
    tables: CanonicalState = {
        name: {str(k): store.row(v) for k, v in attributes[name].items()}
        for name in store.layout.collections
        if name in attributes
    }
    tables.update(attribute_tables(attributes, store.layout, store.hidden_fields))
    return tables


class _Call:
    """The context of one call of a `CowState` (a plain class: a call's overhead is microseconds)."""

    __slots__ = ("state", "read_only", "outer")

    def __init__(self, state: CowState, read_only: bool) -> None:
        self.state, self.read_only, self.outer = state, read_only, False

    def __enter__(self) -> None:
        state = self.state
        self.outer = state._in_call
        if not self.outer:
            state._in_call, state._read_only = True, self.read_only
            state.entropy.checkpoint()

    def __exit__(self, kind: Any, error: Any, trace: Any) -> Literal[False]:
        if self.outer:
            return False
        state = self.state
        try:
            if kind is None:
                state._commit()
            else:
                state._rollback()
        finally:
            state._in_call = False
            state._undo.clear()
            state._first.clear()
        return False


class _Missing:
    def __reduce__(self) -> str:
        return "_MISSING_MARK"


_MISSING_MARK: Any = _Missing()


class CowStore:
    """The `StateFactory` of a copy-on-write environment.

    `load_seed()` builds the database model of the seed; `make_toolkit(db)` the object whose methods are the tools;
    `apply(state, payload)` turns the seed into a snapshot file's state (run inside calls of `state`)."""

    def __init__(
        self,
        load_seed: Callable[[], BaseModel],
        make_toolkit: Callable[[Any], Any],
        apply: Callable[["CowState", Any], None],
        hidden_fields: frozenset[str] = frozenset(),
        network: NetworkPolicy | None = None,
    ) -> None:
        self.load_seed, self.make_toolkit, self.apply = load_seed, make_toolkit, apply
        self.hidden_fields = hidden_fields
        self.network = network
        self.base_registry = Registry()
        self._base_rows: dict[int, tuple[Any, Any]] = {}
        self._thaw_bytes: dict[int, tuple[Any, bytes]] = {}
        self._hints: dict[str, set[str]] = {}
        self._versions: dict[str, StateVersion] = {}
        self._seed: StateVersion | None = None
        self._lock = threading.RLock()
        self.layout = Layout((), ())
        self.reference: Any = None  # the same environment on plain objects, which this state must agree with
        self.seed_db: Any = None
        self.seed_rows: dict[str, dict[str, Any]] = {}  # the seed's rows per collection (read-only)

    # -------------------------------------------------------------------------------------------- seed
    def seed(self) -> StateVersion:
        """The frozen seed (built once)."""
        if self._seed is None:
            with self._lock:
                if self._seed is None:
                    self._seed = self._build_seed()
        return self._seed

    def _build_seed(self) -> StateVersion:
        with guarded(self.network), session_entropy(Entropy(), lambda: _dt.datetime(2025, 1, 15, 9)):
            db = self.load_seed()
        collections, others = [], []
        for name in type(db).model_fields:
            value = db.__dict__.get(name)
            if isinstance(value, dict) and value and all(isinstance(v, (BaseModel, dict)) for v in value.values()):
                collections.append(name)
            else:
                others.append(name)
        self.layout = Layout(
            tuple(collections),
            tuple(others),
            {
                # cast: a model field always has an annotation (pydantic refuses one without)
                name: TypeAdapter(cast(Any, type(db).model_fields[name].annotation))
                for name in type(db).model_fields
            },
        )
        version = StateVersion(pickle.dumps(("envfactory-cow", {}, Entropy().random.getstate())))
        version.tables = {}
        for name in collections:
            table, rows = {}, {}
            for key, record in db.__dict__[name].items():
                table[key] = self._freeze_base(record, (name, key))
                rows[str(key)] = self.base_row(table[key])
            version.tables[name] = table
            self.seed_rows[name] = rows
        version.attributes = {name: self._freeze_base(db.__dict__[name], (ATTRIBUTES, name)) for name in others}
        version.registry, version.rows, version.changed = {}, {}, frozenset()
        version.entropy = Entropy().random.getstate()
        version.store = self
        self.seed_db = db
        return version

    def _freeze_base(self, record: Any, owner: Owner) -> Any:
        if isinstance(record, _IMMUTABLE):
            return record
        row = self.row(record)
        data = pickle.dumps(record, pickle.HIGHEST_PROTOCOL)  # before freezing: what a session's copy loads
        frozen = freeze(record, owner, self.base_registry)
        self._base_rows[id(frozen)] = (frozen, row)
        self._thaw_bytes[id(frozen)] = (frozen, data)
        return frozen

    # -------------------------------------------------------------------------------------------- records
    def row(self, record: Any) -> Any:
        """The canonical (JSON-like) row of a record, declared cache fields left out."""
        if isinstance(record, BaseModel):
            try:
                data = record.model_dump(mode="json")
            except Exception:  # a field pydantic cannot serialize: the generic conversion
                data = plain(record)
        else:
            data = plain(record)
        return without_fields(data, self.hidden_fields)

    def base_row(self, record: Any) -> Any:
        """The cached row of a snapshot record (computed for anything else)."""
        entry = self._base_rows.get(id(record))
        if entry is not None and entry[0] is record:
            return entry[1]
        return self.row(record)

    def thaw(self, frozen: Any) -> Any:
        """A private, unfrozen copy of a frozen record (a snapshot record's pickle is kept for the next copy)."""
        entry = self._thaw_bytes.get(id(frozen))
        if entry is not None and entry[0] is frozen:
            return pickle.loads(entry[1])
        if self.base_registry.owner(frozen) is None:
            return copy.deepcopy(frozen)
        data = pickle.dumps(frozen, pickle.HIGHEST_PROTOCOL)
        self._thaw_bytes[id(frozen)] = (frozen, data)
        return pickle.loads(data)

    # -------------------------------------------------------------------------------------------- hints
    def hinted(self, tool: str | None, read_only: bool) -> set[str]:
        """Collections whose records the tool copies as it fetches them (what it changed before; for a write tool
        not seen yet, every collection)."""
        if tool is None:
            return set()
        hints = self._hints.get(tool)
        if hints is None:
            return set() if read_only else set(self.layout.collections)
        return hints

    def learn(self, tool: str | None, collection: str) -> None:
        """The tool changed a record of `collection` through a shared object."""
        if tool is not None and collection != ATTRIBUTES:
            self._hints.setdefault(tool, set()).add(collection)

    def learn_changes(self, tool: str | None, collections: set[str]) -> None:
        """After a successful call: the collections the tool changed join its hints."""
        if tool is None:
            return
        hints = self._hints.setdefault(tool, set())
        hints.update(c for c in collections if c != ATTRIBUTES)

    # -------------------------------------------------------------------------------------------- StateFactory
    def create(self) -> CowState:
        """A session at the seed."""
        return CowState(self)

    def handle(self, state: CowState, clock: Any) -> ObjectHandle:
        """Tools call the session's toolkit, guarded, with the session's generator and clock."""

        def invoke(name: str, arguments: dict[str, Any]) -> Any:
            method = getattr(state.toolkit, name)
            with guarded(self.network), session_entropy(state.entropy, clock.now):
                return state.run(name, lambda: method(**arguments))

        return ObjectHandle(state, clock, invoke)

    def snapshot(self, path: Path) -> StateVersion:
        """The version of a snapshot file (built once per process)."""
        import json

        name = str(Path(path).resolve())
        with self._lock:
            if name not in self._versions:
                self._versions[name] = self.version_of(json.loads(Path(path).read_text()))
            return self._versions[name]

    def version_of(self, payload: Any) -> StateVersion:
        """The seed with a snapshot payload applied."""
        state = self.create()
        try:
            with guarded(self.network), session_entropy(state.entropy, lambda: _dt.datetime(2025, 1, 15, 9)):
                self.apply(state, payload)
            return state.snapshot()
        finally:
            state.close()

    def version_from_bytes(self, data: bytes) -> StateVersion:
        """A version rebuilt from its bytes (taken in another process): the seed, then the changed records."""
        marker, records, entropy = pickle.loads(data)
        if marker != "envfactory-cow":
            raise ValueError("these bytes are no copy-on-write state")
        state = self.create()
        try:
            with state.atomic():
                for (name, key), value in records.items():
                    if name == ATTRIBUTES:
                        setattr(state.db, key, value) if value is not _MISSING_MARK else delattr(state.db, key)
                    elif value is _MISSING_MARK:
                        state.db.__dict__[name].pop(key, None)
                    else:
                        state.db.__dict__[name][key] = value
            state.entropy.random.setstate(entropy)
            return state.snapshot()
        finally:
            state.close()
