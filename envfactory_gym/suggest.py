"""Close matches for names the user mistyped ("did you mean ...")."""

from __future__ import annotations

import difflib
from typing import Iterable


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`"; did you mean 'x'?"` with the closest known names, or "" when none is close."""
    close = difflib.get_close_matches(str(name), list(known), n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
