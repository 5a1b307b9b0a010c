"""New values for inputs an error said are taken ("The coupon code already exists", "Email: x@y.org is already
being used by another user").

Another record's value is taken too where values are unique across the state (logins, e-mail addresses, coupon
codes), so a new value is one of the same form that no record holds: the refused value with a number added, where
such a text goes (an e-mail address's local part: `ana.silva7@example.org`; a code or a name: `welcome10-7`,
`Summer trip 7`), as long as the input's pattern and length allow it. A person's name (one word of letters for an
input called a name: `ANNA` for `first_name`) gets no number: another person's name is said instead.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

import numpy as np

from envfactory_synth.graph.entities import words

TRIES = 20


def _variant(base: str, number: int) -> str:
    """`base` with `number` added where its form takes one."""
    local, at, domain = base.partition("@")
    if at and local and "." in domain:
        return f"{local}{number}@{domain}"
    if " " in base.strip():
        return f"{base.strip()} {number}"
    return f"{base}-{number}" if base[-1:].isdigit() else f"{base}{number}"


def _allowed(value: str, schema: dict[str, Any]) -> bool:
    pattern = schema.get("pattern")
    return (not pattern or re.search(pattern, value) is not None) and len(value) <= schema.get("maxLength", len(value))


def new_value(
    base: Any, taken: Iterable[Any], rng: np.random.Generator, schema: dict[str, Any], name: str = ""
) -> str | None:
    """A text of `base`'s form that is none of `taken` (module docstring); None for a base that is no text, a
    person's name for input `name`, or when the schema allows no such variant."""
    if not isinstance(base, str) or not base.strip() or ("name" in words(name) and base.isalpha()):
        return None
    held = {str(v).lower() for v in taken}
    for _ in range(TRIES):
        candidate = _variant(base, int(rng.integers(2, 100)))
        if candidate.lower() not in held and _allowed(candidate, schema):
            return candidate
    return None
