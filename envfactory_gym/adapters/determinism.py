"""Imported code made deterministic per session: `random`, `secrets`, `uuid`, `time` and `datetime` as the external
modules see them are replaced by stand-ins that draw from the calling session's seeded generator and read its
simulated clock.

Each session owns an `Entropy` (a seeded `random.Random`) that lives inside its state, so it is restored with a
snapshot and rolled back with a failed call: the same task replays the same ids, prices and timestamps. Code that
runs outside any session (a module's import, a class body) reads a fixed fallback generator and the default clock.
"""

from __future__ import annotations

import datetime as _datetime_module
import random as _random_module
import secrets as _secrets_module
import time as _time_module
import types
import uuid as _uuid_module
from contextvars import ContextVar
from typing import Any, Callable

from ..database import DEFAULT_CLOCK

SEED = 20250115
_REAL_DATETIME = _datetime_module.datetime
_REAL_DATE = _datetime_module.date
#: Methods of `random.Random` that the module-level functions of `random` are bound to.
_RANDOM_FUNCTIONS = frozenset(
    {
        "random",
        "uniform",
        "triangular",
        "randint",
        "choice",
        "randrange",
        "sample",
        "shuffle",
        "choices",
        "normalvariate",
        "lognormvariate",
        "expovariate",
        "vonmisesvariate",
        "gammavariate",
        "gauss",
        "betavariate",
        "paretovariate",
        "weibullvariate",
        "getrandbits",
        "randbytes",
        "binomialvariate",
        "seed",
        "getstate",
        "setstate",
    }
)


class Entropy:
    """A session's source of randomness (picklable: it is part of the session's state). `checkpoint()` marks the
    start of a call; the generator's state is saved only if the call draws from it, so `rollback()` can undo it."""

    def __init__(self, seed: int = SEED) -> None:
        self.random = _random_module.Random(seed)
        self._pending = False
        self._saved: Any = None

    def __getstate__(self) -> dict[str, Any]:
        return {"random": self.random}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.random, self._pending, self._saved = state["random"], False, None

    def checkpoint(self) -> None:
        """A call starts: remember the generator's state when (if) the call first draws."""
        self._pending, self._saved = True, None

    def rollback(self) -> None:
        """Undo what the call since `checkpoint()` drew."""
        if self._saved is not None:
            self.random.setstate(self._saved)
        self._pending, self._saved = False, None

    def draw(self) -> _random_module.Random:
        """The generator, its state saved first if a call is checkpointed."""
        if self._pending:
            self._saved, self._pending = self.random.getstate(), False
        return self.random

    def uuid4(self) -> _uuid_module.UUID:
        """A version-4 UUID drawn from the generator."""
        return _uuid_module.UUID(int=self.draw().getrandbits(128), version=4)


_FALLBACK = Entropy()
_ACTIVE: ContextVar[tuple[Entropy, Callable[[], _datetime_module.datetime]] | None] = ContextVar(
    "envfactory_entropy", default=None
)


class session_entropy:  # noqa: N801 - used as a context manager, like contextlib's
    """Run external code with `entropy` and the clock `now` as its randomness and time."""

    __slots__ = ("value", "token")

    def __init__(self, entropy: Entropy, now: Callable[[], _datetime_module.datetime]) -> None:
        self.value = (entropy, now)

    def __enter__(self) -> None:
        self.token = _ACTIVE.set(self.value)

    def __exit__(self, *exc: Any) -> None:
        _ACTIVE.reset(self.token)


def _entropy() -> Entropy:
    active = _ACTIVE.get()
    return active[0] if active else _FALLBACK


def _generator() -> _random_module.Random:
    return _entropy().draw()


def _now() -> _datetime_module.datetime:
    active = _ACTIVE.get()
    return active[1]() if active else DEFAULT_CLOCK


# ------------------------------------------------------------------------------------------------ stand-ins
def _random_function(name: str) -> Callable[..., Any]:
    def draw(*args: Any, **kwargs: Any) -> Any:
        return getattr(_generator(), name)(*args, **kwargs)

    draw.__name__ = name
    return draw


def _session_generator(*args: Any, **kwargs: Any) -> _random_module.Random:
    """`random.SystemRandom()` and friends: the session's generator instead of the operating system's."""
    return _generator()


class _StandIn(types.ModuleType):
    """A module whose listed attributes are replaced; everything else is the real module's."""

    def __init__(self, real: types.ModuleType, replaced: dict[str, Any]) -> None:
        super().__init__(real.__name__, real.__doc__)
        self.__dict__.update(replaced)
        self._real = real

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def _uuid1(node: Any = None, clock_seq: Any = None) -> _uuid_module.UUID:
    return _uuid_module.UUID(int=_generator().getrandbits(128), version=1)


def _uuid4() -> _uuid_module.UUID:
    return _entropy().uuid4()


def _timestamp() -> float:
    return _now().timestamp()


def _time_ns() -> int:
    return int(_now().timestamp() * 1e9)


def _sleep(seconds: float) -> None:
    """No real waiting inside an environment."""


def _struct(function: Callable[..., Any]) -> Callable[..., Any]:
    def call(secs: float | None = None) -> Any:
        return function(_timestamp() if secs is None else secs)

    return call


def _strftime(fmt: str, t: Any = None) -> str:
    return _time_module.strftime(fmt, _time_module.gmtime(_timestamp()) if t is None else t)


class _DateTimeMeta(type):
    """`isinstance(x, datetime)` stays true for every real datetime once `datetime` is the simulated class."""

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, cls.__bases__[0])

    def __subclasscheck__(cls, subclass: type) -> bool:
        return issubclass(subclass, cls.__bases__[0])


class SimulatedDateTime(_REAL_DATETIME, metaclass=_DateTimeMeta):
    """`datetime` whose now/utcnow/today read the session's simulated clock."""

    @classmethod
    def now(cls, tz: Any = None) -> _datetime_module.datetime:  # type: ignore[override]
        value = _now()
        return value.astimezone(tz) if tz is not None else value.replace(tzinfo=None)

    @classmethod
    def utcnow(cls) -> _datetime_module.datetime:  # type: ignore[override]
        return _now().astimezone(_datetime_module.timezone.utc).replace(tzinfo=None)

    @classmethod
    def today(cls) -> _datetime_module.datetime:  # type: ignore[override]
        return cls.now()


class SimulatedDate(_REAL_DATE, metaclass=_DateTimeMeta):
    """`date` whose today() reads the session's simulated clock."""

    @classmethod
    def today(cls) -> _datetime_module.date:  # type: ignore[override]
        return _now().date()


RANDOM = _StandIn(
    _random_module,
    {
        **{name: _random_function(name) for name in _RANDOM_FUNCTIONS if hasattr(_random_module.Random, name)},
        "SystemRandom": _session_generator,
    },
)
SECRETS = _StandIn(
    _secrets_module,
    {
        "token_bytes": lambda nbytes=32: _generator().randbytes(nbytes),
        "token_hex": lambda nbytes=32: _generator().randbytes(nbytes).hex(),
        "token_urlsafe": lambda nbytes=32: _generator().randbytes(nbytes).hex(),
        "choice": lambda seq: _generator().choice(seq),
        "randbelow": lambda n: _generator().randrange(n),
        "randbits": lambda k: _generator().getrandbits(k),
        "SystemRandom": _session_generator,
    },
)
UUID = _StandIn(_uuid_module, {"uuid1": _uuid1, "uuid4": _uuid4})
TIME = _StandIn(
    _time_module,
    {
        "time": _timestamp,
        "time_ns": _time_ns,
        "monotonic": _timestamp,
        "monotonic_ns": _time_ns,
        "perf_counter": _timestamp,
        "perf_counter_ns": _time_ns,
        "sleep": _sleep,
        "localtime": _struct(_time_module.gmtime),
        "gmtime": _struct(_time_module.gmtime),
        "ctime": _struct(_time_module.ctime),
        "strftime": _strftime,
    },
)
DATETIME = _StandIn(_datetime_module, {"datetime": SimulatedDateTime, "date": SimulatedDate})

#: Real object -> stand-in, for module globals bound with `import x` or `from x import y`.
_REPLACEMENTS: dict[int, Any] = {
    id(_random_module): RANDOM,
    id(_secrets_module): SECRETS,
    id(_uuid_module): UUID,
    id(_time_module): TIME,
    id(_datetime_module): DATETIME,
    id(_REAL_DATETIME): SimulatedDateTime,
    id(_REAL_DATE): SimulatedDate,
}
for _stand_in in (RANDOM, SECRETS, UUID, TIME):
    for _name, _value in _stand_in.__dict__.items():
        _real_value = getattr(_stand_in._real, _name, None)
        if callable(_value) and _real_value is not None and not isinstance(_real_value, type):
            _REPLACEMENTS[id(_real_value)] = _value


def make_deterministic(namespace: dict[str, Any]) -> list[str]:
    """Rebind the names of a module namespace that refer to `random`, `secrets`, `uuid`, `time`, `datetime` (or
    their clock and randomness functions) to the session-bound stand-ins; returns the names rebound."""
    rebound = []
    for name, value in list(namespace.items()):
        replacement = _REPLACEMENTS.get(id(value))
        if replacement is not None and not name.startswith("__"):
            namespace[name] = replacement
            rebound.append(name)
    return rebound
