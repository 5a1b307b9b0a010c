"""Shared memory for `UnicodeText` observations in gymnasium's `AsyncVectorEnv`.

Gymnasium's handlers for `Text` store charset indices and read the buffer once, when the vector env is built,
so every later observation comes back as the same padding characters (and characters outside the charset
crash the worker). These handlers store each observation as its length followed by its Unicode code points,
and the parent reads them through a live view: text of any script, emoji included, round-trips exactly.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Sequence
from multiprocessing.sharedctypes import SynchronizedArray
from types import ModuleType
from typing import Any, overload

import numpy as np
from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

from ..spaces import UnicodeText

_CODEC = "utf-32-le"
_ERRORS = "surrogatepass"  # lone surrogates are valid Python text: keep them


def _slots(shared_memory: SynchronizedArray, n: int, max_length: int) -> np.ndarray:
    """The buffer as an (n, 1 + max_length) int32 array: column 0 is the length, the rest the code points."""
    # a ctypes array has the buffer protocol, which numpy's stubs do not list for frombuffer
    codes = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)  # type: ignore[call-overload]
    return codes.reshape(n, max_length + 1)


class SharedTextBatch(Sequence[str]):
    """The batched observations of an `AsyncVectorEnv`, decoded from shared memory each time they are read.

    `AsyncVectorEnv(copy=True)` (the default) deep-copies it after every reset/step, which yields a plain tuple
    of strings; with `copy=False` this live view is returned and always shows the latest observations.
    """

    def __init__(self, shared_memory: SynchronizedArray, n: int, max_length: int) -> None:
        self._slots = _slots(shared_memory, n, max_length)

    def __len__(self) -> int:
        return self._slots.shape[0]

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(len(self))[index])
        row = self._slots[index]
        return row[1 : 1 + int(row[0])].tobytes().decode(_CODEC, _ERRORS)

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __repr__(self) -> str:
        return f"SharedTextBatch({tuple(self)!r})"


@create_shared_memory.register(UnicodeText)
def _create(space: UnicodeText, n: int = 1, ctx: ModuleType = mp) -> SynchronizedArray:
    return ctx.Array(np.dtype(np.int32).char, n * (space.max_length + 1))


@read_from_shared_memory.register(UnicodeText)
def _read(space: UnicodeText, shared_memory: SynchronizedArray, n: int = 1) -> SharedTextBatch:
    return SharedTextBatch(shared_memory, n, space.max_length)


@write_to_shared_memory.register(UnicodeText)
def _write(space: UnicodeText, index: int, value: str, shared_memory: SynchronizedArray) -> None:
    if not space.contains(value):
        raise ValueError(f"observation is not text of at most {space.max_length} characters: {value!r:.80}")
    codes = np.frombuffer(value.encode(_CODEC, _ERRORS), dtype=np.int32)
    row = _slots(shared_memory, len(shared_memory) // (space.max_length + 1), space.max_length)[index]
    row[0] = len(codes)
    row[1 : 1 + len(codes)] = codes
