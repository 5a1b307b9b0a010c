"""Mealie's query filter strings, as cookbooks and meal plan rules store them, e.g.
`tags.name CONTAINS ALL ["Quick"] AND recipe_category.name IN ["Dinner", "Soup"] AND rating >= 4`.

Clauses are joined by AND. List attributes take IN, NOT IN, CONTAINS ALL, = and !=; `rating` takes numeric
comparisons. Names and slugs compare case-insensitively. A cookbook stores its filter in one canonical form, so
that filters meaning the same read the same."""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from envfactory_gym import InvalidRequest

LIST_ATTRIBUTES = {
    f"{prefix}.{field}" for prefix in ("recipe_category", "tags", "tools") for field in ("id", "name", "slug")
} | {"recipe_ingredient.food.id", "recipe_ingredient.food.name"}
NUMBER_OPERATORS: dict[str, Callable[[float, float], bool]] = {
    "=": operator.eq,
    "!=": operator.ne,
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}
LIST_OPERATORS = ("NOT IN", "IN", "CONTAINS ALL", "=", "!=")
_AND = re.compile(r"\s+AND\s+(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", re.IGNORECASE)
_CLAUSE = re.compile(
    r"^(?P<attr>[a-z_.]+)\s*(?P<op>NOT\s+IN|IN|CONTAINS\s+ALL|>=|<=|!=|=|>|<)\s*(?P<value>.+)$", re.IGNORECASE
)


@dataclass(frozen=True)
class Clause:
    """One comparison of a query filter."""

    attribute: str
    op: str
    values: tuple[str, ...] = ()
    number: float | None = None


def parse_filter(text: str) -> list[Clause]:
    """The clauses of a query filter string; raises InvalidRequest when it is malformed. Empty: no clauses."""
    if not text.strip():
        return []
    return [_clause(part.strip()) for part in _AND.split(text.strip())]


def _clause(part: str) -> Clause:
    match = _CLAUSE.match(part)
    if not match:
        raise InvalidRequest(f"Invalid query filter: can't read '{part}'")
    attribute = match["attr"].lower()
    op = " ".join(match["op"].upper().split())
    raw = match["value"].strip()
    if attribute == "rating":
        if op not in NUMBER_OPERATORS:
            raise InvalidRequest(f"Invalid query filter: rating can't be compared with {op}")
        try:
            return Clause(attribute, op, number=float(raw))
        except ValueError:
            raise InvalidRequest(f"Invalid query filter: '{raw}' is not a number") from None
    if attribute not in LIST_ATTRIBUTES:
        raise InvalidRequest(f"Invalid query filter: unknown attribute '{match['attr']}'")
    if op not in LIST_OPERATORS:
        raise InvalidRequest(f"Invalid query filter: {attribute} can't be compared with {op}")
    return Clause(attribute, op, values=_values(raw, op))


def _values(raw: str, op: str) -> tuple[str, ...]:
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        raise InvalidRequest(f"Invalid query filter: can't read the value {raw}") from None
    if op in ("=", "!="):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise InvalidRequest(f"Invalid query filter: {op} needs a non-empty list of quoted values")
    return tuple(" ".join(v.split()) for v in value)


def matches(clauses: list[Clause], facts: dict[str, Any]) -> bool:
    """Whether a recipe described by `facts` (attribute -> set of casefolded values, and `rating`) passes."""
    return all(_passes(clause, facts) for clause in clauses)


def _passes(clause: Clause, facts: dict[str, Any]) -> bool:
    if clause.attribute == "rating":
        rating = facts["rating"]
        return rating is not None and clause.number is not None and NUMBER_OPERATORS[clause.op](rating, clause.number)
    have: set[str] = facts[clause.attribute]
    wanted = {v.casefold() for v in clause.values}
    if clause.op in ("IN", "="):
        return bool(have & wanted)
    if clause.op in ("NOT IN", "!="):
        return not have & wanted
    return wanted <= have


def canonical_filter(clauses: list[Clause], proper: Callable[[str, str], str]) -> str:
    """One spelling per meaning: values renamed by `proper(attribute, value)` and sorted; values every recipe must
    have (= or one-value IN, CONTAINS ALL) joined into one CONTAINS ALL (IN for a single value); excluded values
    joined into one NOT IN; clauses sorted."""
    required: dict[str, set[str]] = {}
    excluded: dict[str, set[str]] = {}
    parts: list[str] = []
    for clause in clauses:
        if clause.attribute == "rating":
            parts.append(f"rating {clause.op} {clause.number:g}")
            continue
        values = {proper(clause.attribute, v) for v in clause.values}
        if clause.op in ("NOT IN", "!="):
            excluded.setdefault(clause.attribute, set()).update(values)
        elif clause.op == "CONTAINS ALL" or len(values) == 1:
            required.setdefault(clause.attribute, set()).update(values)
        else:
            parts.append(_render(clause.attribute, "IN", values))
    for attribute, values in required.items():
        parts.append(_render(attribute, "CONTAINS ALL" if len(values) > 1 else "IN", values))
    for attribute, values in excluded.items():
        parts.append(_render(attribute, "NOT IN", values))
    return " AND ".join(sorted(parts))


def _render(attribute: str, op: str, values: set[str]) -> str:
    return f"{attribute} {op} {json.dumps(sorted(values, key=str.casefold), ensure_ascii=False)}"
