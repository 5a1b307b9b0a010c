"""Okta's filter and search expressions, the subset the assistant needs: `<attribute> <op> "<value>"` terms (ops eq,
sw, gt, ge, lt, le; `<attribute> pr` for present) joined by `and` / `or` (and binds tighter), e.g.
`status eq "ACTIVE" and profile.department eq "Sales"`. Comparisons of `eq` and `sw` ignore case, as Okta's do."""

from __future__ import annotations

import re
from typing import Any, Callable

from .errors import bad_search

TERM = re.compile(r'\s*([A-Za-z.]+)\s+(?:(eq|sw|gt|ge|lt|le)\s+"([^"]*)"|(pr))\s*', re.IGNORECASE)
JOIN = re.compile(r"(and|or)(?=\s)", re.IGNORECASE)

#: the user attributes an expression may name -> their column
USER_FIELDS = {
    "id": "id",
    "status": "status",
    "created": "created",
    "activated": "activated",
    "statusChanged": "status_changed",
    "lastLogin": "last_login",
    "lastUpdated": "last_updated",
    "passwordChanged": "password_changed",
    "profile.login": "login",
    "profile.email": "email",
    "profile.firstName": "first_name",
    "profile.lastName": "last_name",
    "profile.department": "department",
    "profile.title": "title",
    "profile.mobilePhone": "mobile_phone",
}

#: the group attributes an expression may name -> their column
GROUP_FIELDS = {"id": "id", "type": "type", "created": "created", "profile.name": "name"}

Term = tuple[str, str, str]


def _compare(value: Any, op: str, wanted: str) -> bool:
    if op == "pr":
        return value not in (None, "")
    if value is None:
        return False
    text = str(value)
    if op == "eq":
        return text.lower() == wanted.lower()
    if op == "sw":
        return text.lower().startswith(wanted.lower())
    return {"gt": text > wanted, "ge": text >= wanted, "lt": text < wanted, "le": text <= wanted}[op]


def parse(expression: str, fields: dict[str, str]) -> list[list[Term]]:
    """An expression as alternatives (or) of conjunctions (and) of (column, op, value) terms; E0000031 when it is
    not one Okta understands."""
    alternatives: list[list[Term]] = [[]]
    position = 0
    while True:
        match = TERM.match(expression, position)
        if not match or match.group(1) not in fields:
            raise bad_search()
        op = (match.group(2) or match.group(4)).lower()
        alternatives[-1].append((fields[match.group(1)], op, match.group(3) or ""))
        position = match.end()
        if position == len(expression):
            return alternatives
        join = JOIN.match(expression, position)
        if not join:
            raise bad_search()
        if join.group(1).lower() == "or":
            alternatives.append([])
        position = join.end()


def matcher(expression: str, fields: dict[str, str]) -> Callable[[dict[str, Any]], bool]:
    """A test of stored rows for an expression."""
    alternatives = parse(expression, fields)
    return lambda row: any(all(_compare(row[c], op, v) for c, op, v in terms) for terms in alternatives)
