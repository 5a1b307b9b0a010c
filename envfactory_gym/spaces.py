"""Text spaces that accept any Python string (gymnasium's `Text` only accepts a fixed charset)."""

from __future__ import annotations

import string
from typing import Any

import numpy as np
from gymnasium.spaces import Text

PRINTABLE = string.ascii_letters + string.digits + string.punctuation + " "


class UnicodeText(Text):
    """A `Text` space whose `contains` accepts any `str` of allowed length; `sample` draws printable ASCII.

    Building gymnasium's `Text` over all of Unicode costs seconds and hundreds of MiB; this space keeps a small
    sampling charset and checks membership by type and length only.
    """

    def __init__(self, max_length: int, min_length: int = 0, seed: int | np.random.Generator | None = None) -> None:
        super().__init__(max_length=max_length, min_length=min_length, charset=PRINTABLE, seed=seed)

    def contains(self, x: Any) -> bool:
        """Any string whose length is within [min_length, max_length]."""
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """A random printable string of at most 64 characters (or `max_length` if smaller)."""
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        length = int(self.np_random.integers(self.min_length, min(self.max_length, 64) + 1))
        chars = self.np_random.choice(len(PRINTABLE), size=length)
        return "".join(PRINTABLE[i] for i in chars)

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UnicodeText) and (self.min_length, self.max_length) == (
            other.min_length,
            other.max_length,
        )
