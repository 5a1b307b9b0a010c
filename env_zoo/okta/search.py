"""Okta's filter and search expressions, the subset the assistant needs: `<attribute> <op> "<value>"` terms (ops eq,
sw, gt, ge, lt, le; `<attribute> pr` for present) joined by `and` / `or` (and binds tighter), e.g.
`status eq "ACTIVE" and profile.department eq "Sales"`. Comparisons of `eq` and `sw` ignore case, as Okta's do.
Expressions become SQL conditions, so lists filter in the database."""

from __future__ import annotations

import re

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


def _term_sql(column: str, op: str, value: str) -> tuple[str, list[str]]:
    quoted = f'"{column}"'
    if op == "pr":
        return f"({quoted} IS NOT NULL AND {quoted} != '')", []
    if op == "eq":
        return f"lower({quoted}) = lower(?)", [value]
    if op == "sw":
        return starts_with([column], value)
    return f"{quoted} {SQL_OPS[op]} ?", [value]


SQL_OPS = {"gt": ">", "ge": ">=", "lt": "<", "le": "<="}


def starts_with(columns: list[str], text: str) -> tuple[str, list[str]]:
    """An SQL condition: one of the columns starts with `text`, ignoring case."""
    pattern = text.strip().lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    sql = " OR ".join(f"lower(\"{column}\") LIKE ? ESCAPE '\\'" for column in columns)
    return f"({sql})", [pattern] * len(columns)


def where(expression: str, fields: dict[str, str]) -> tuple[str, list[str]]:
    """An expression as an SQL condition with its parameters, for `db.select`."""
    clauses, params = [], []
    for terms in parse(expression, fields):
        parts = []
        for column, op, value in terms:
            sql, values = _term_sql(column, op, value)
            parts.append(sql)
            params += values
        clauses.append("(" + " AND ".join(parts) + ")")
    return "(" + " OR ".join(clauses) + ")", params
