"""The subset of JQL that issue search understands.

Clauses `field operator value` joined by AND, OR, NOT and parentheses, then an optional ORDER BY. Operators: =, !=,
>, >=, <, <=, ~, !~, IN, NOT IN, IS, IS NOT. Values: words, "quoted strings", numbers, lists `(a, b)`, EMPTY/NULL
and functions: currentUser(), openSprints(), closedSprints(), futureSprints(), releasedVersions(),
unreleasedVersions(), now(), startOfDay(), endOfDay(), startOfWeek(), endOfWeek(), startOfMonth() (the date
functions take an optional offset such as -1 or "+2d"). Dates are 2025-06-01, 2025/06/01 or relative (-7d, -2w, -4h).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from envfactory_gym import InvalidRequest

TOKEN = re.compile(
    r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\')|(?P<op>!=|>=|<=|!~|=|>|<|~)'
    r'|(?P<punct>[(),])|(?P<word>[^\s(),=!<>~"\']+))'
)
RELATIVE = re.compile(r"^([+-]?)(\d+)([wdhm])$")
DATE = re.compile(r"^(\d{4})[-/](\d{2})[-/](\d{2})(?:[ T](\d{2}):(\d{2}))?$")
UNIT = {"w": "weeks", "d": "days", "h": "hours", "m": "minutes"}
FIELDS = {
    "project": "project",
    "key": "key",
    "issuekey": "key",
    "id": "key",
    "issuetype": "issuetype",
    "type": "issuetype",
    "status": "status",
    "statuscategory": "statuscategory",
    "assignee": "assignee",
    "reporter": "reporter",
    "priority": "priority",
    "labels": "labels",
    "label": "labels",
    "component": "component",
    "fixversion": "fixversion",
    "sprint": "sprint",
    "resolution": "resolution",
    "parent": "parent",
    "text": "text",
    "summary": "summary",
    "description": "description",
    "comment": "comment",
    "created": "created",
    "createddate": "created",
    "updated": "updated",
    "updateddate": "updated",
    "resolved": "resolved",
    "resolutiondate": "resolved",
    "duedate": "duedate",
    "due": "duedate",
    "watcher": "watcher",
    "story points": "storypoints",
    "story point estimate": "storypoints",
    "storypoints": "storypoints",
    "cf[10016]": "storypoints",
}
TEXT_FIELDS = {"text", "summary", "description", "comment"}
DATE_FIELDS = {"created", "updated", "resolved", "duedate"}
ORDER_FIELDS = {
    "key",
    "created",
    "updated",
    "priority",
    "duedate",
    "status",
    "assignee",
    "summary",
    "storypoints",
    "resolved",
    "rank",
    "issuetype",
}
OPERATORS = {"=", "!=", ">", ">=", "<", "<=", "~", "!~", "in", "not in", "is", "is not"}


@dataclass(frozen=True)
class Func:
    """A JQL function call such as openSprints() or startOfDay(-1)."""

    name: str
    args: tuple[str, ...] = ()


Value = str | Func | list | None  # None is EMPTY


@dataclass(frozen=True)
class Clause:
    """One `field operator value` clause."""

    field: str
    op: str
    value: Value


@dataclass(frozen=True)
class BoolOp:
    """AND / OR of sub-queries, or NOT of one."""

    op: str
    parts: tuple[Any, ...]


@dataclass(frozen=True)
class Query:
    """A parsed query: the condition (None matches everything) and the ORDER BY keys."""

    where: Clause | BoolOp | None
    order: list[tuple[str, bool]] = field(default_factory=list)  # (field, descending)


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        match = TOKEN.match(text, pos)
        if not match or match.end() == pos:
            raise InvalidRequest(f"Error in the JQL Query: The character '{text[pos]}' is a reserved JQL character.")
        kind = match.lastgroup or ""
        raw = match.group(kind)
        if kind == "str":
            raw = re.sub(r"\\(.)", r"\1", raw[1:-1])
        out.append((kind, raw))
        pos = match.end()
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.pos = 0

    def peek(self, offset: int = 0) -> tuple[str, str]:
        index = self.pos + offset
        return self.tokens[index] if index < len(self.tokens) else ("end", "")

    def word(self, *words: str) -> bool:
        kind, raw = self.peek()
        return kind == "word" and raw.lower() in words

    def take(self) -> tuple[str, str]:
        token = self.peek()
        self.pos += 1
        return token

    def expect(self, raw: str) -> None:
        got = self.take()[1]
        if got != raw:
            shown = got or "the end of the query"
            raise InvalidRequest(f"Error in the JQL Query: Expecting '{raw}' but got '{shown}'.")

    def query(self) -> Query:
        where = None
        if self.peek()[0] != "end" and not self._order_by_ahead():
            where = self.disjunction()
        order = self.order_by() if self._order_by_ahead() else []
        if self.peek()[0] != "end":
            raise InvalidRequest(f"Error in the JQL Query: Expecting either 'OR' or 'AND' but got '{self.peek()[1]}'.")
        return Query(where, order)

    def _order_by_ahead(self) -> bool:
        return self.word("order") and self.peek(1)[1].lower() == "by"

    def order_by(self) -> list[tuple[str, bool]]:
        self.pos += 2  # ORDER BY
        keys = []
        while True:
            kind, raw = self.take()
            name = FIELDS.get(raw.lower(), raw.lower()) if kind in ("word", "str") else ""
            if name not in ORDER_FIELDS:
                raise InvalidRequest(f"Not able to sort using field '{raw}'.")
            descending = False
            if self.word("asc", "desc"):
                descending = self.take()[1].lower() == "desc"
            keys.append((name, descending))
            if self.peek() != ("punct", ","):
                return keys
            self.take()

    def disjunction(self) -> Clause | BoolOp:
        parts = [self.conjunction()]
        while self.word("or"):
            self.take()
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else BoolOp("or", tuple(parts))

    def conjunction(self) -> Clause | BoolOp:
        parts = [self.negation()]
        while self.word("and"):
            self.take()
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else BoolOp("and", tuple(parts))

    def negation(self) -> Clause | BoolOp:
        if self.word("not"):
            self.take()
            return BoolOp("not", (self.negation(),))
        if self.peek() == ("punct", "("):
            self.take()
            inner = self.disjunction()
            self.expect(")")
            return inner
        return self.clause()

    def clause(self) -> Clause:
        kind, raw = self.take()
        if kind not in ("word", "str"):
            raise InvalidRequest(f"Error in the JQL Query: Expecting a field name but got '{raw or 'the end'}'.")
        name = FIELDS.get(raw.lower())
        if name is None:
            raise InvalidRequest(f"Field '{raw}' does not exist or you do not have permission to view it.")
        op = self.operator(raw)
        value: Value
        if op in ("in", "not in"):
            value = self.value_list()
        else:
            value = self.value()
        if op in ("is", "is not") and value is not None:
            raise InvalidRequest(f"The operator '{op.upper()}' can only be used with EMPTY or NULL.")
        return Clause(name, op, value)

    def operator(self, field_name: str) -> str:
        kind, raw = self.peek()
        if kind == "op":
            self.take()
            return raw
        if self.word("in"):
            self.take()
            return "in"
        if self.word("is"):
            self.take()
            if self.word("not"):
                self.take()
                return "is not"
            return "is"
        if self.word("not") and self.peek(1)[1].lower() == "in":
            self.pos += 2  # NOT IN
            return "not in"
        raise InvalidRequest(f"Error in the JQL Query: Expecting operator after '{field_name}' but got '{raw}'.")

    def value_list(self) -> list[Value]:
        if self.peek() != ("punct", "("):
            return [self.value()]
        self.take()
        values = [self.value()]
        while self.peek() == ("punct", ","):
            self.take()
            values.append(self.value())
        self.expect(")")
        return values

    def value(self) -> Value:
        kind, raw = self.take()
        if kind == "str":
            return raw
        if kind != "word":
            raise InvalidRequest(f"Error in the JQL Query: Expecting a value but got '{raw or 'the end'}'.")
        if raw.lower() in ("empty", "null"):
            return None
        if self.peek() == ("punct", "("):
            self.take()
            args: list[str] = []
            while self.peek() != ("punct", ")"):
                arg_kind, arg = self.take()
                if arg_kind == "end":
                    raise InvalidRequest(f"Error in the JQL Query: Expecting ')' after '{raw}('.")
                if arg_kind != "punct":
                    args.append(arg)
            self.take()
            return Func(raw.lower(), tuple(args))
        return raw


def parse(text: str) -> Query:
    """Parse a JQL string; errors are InvalidRequest with Jira's wording."""
    return _Parser(text).query()


# ---------------------------------------------------------------- evaluation


@dataclass
class Context:
    """What clauses resolve against. `resolve(field, value)` maps a value to the ids it names (raising Jira's
    "does not exist for the field" error); `facts(issue, field)` gives an issue's values of a field."""

    resolve: Callable[[str, Value], set[Any]]
    facts: Callable[[dict[str, Any], str], list[Any]]
    text: Callable[[dict[str, Any], str], str]
    rank: Callable[[str, Any], Any]
    now: datetime


def moment(value: Value, now: datetime, field_name: str) -> datetime:
    """A date value: 2025-06-01, 2025/06/01 12:00, -7d, or a date function."""
    if isinstance(value, Func):
        return _date_function(value, now)
    if not isinstance(value, str):
        raise InvalidRequest(f"The field '{field_name}' needs a date value.")
    relative = RELATIVE.match(value)
    if relative:
        sign = -1 if relative.group(1) == "-" else 1
        return now + sign * timedelta(**{UNIT[relative.group(3)]: int(relative.group(2))})
    dated = DATE.match(value)
    if not dated:
        raise InvalidRequest(
            f"Date value '{value}' for field '{field_name}' is invalid. Valid formats include: 'yyyy/MM/dd HH:mm', "
            "'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'."
        )
    year, month, day, hour, minute = (int(g) if g else 0 for g in dated.groups())
    return datetime(year, month, day, hour, minute, tzinfo=now.tzinfo)


def _date_function(func: Func, now: datetime) -> datetime:
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    starts = {
        "now": now,
        "startofday": day,
        "endofday": day + timedelta(days=1) - timedelta(seconds=1),
        "startofweek": day - timedelta(days=(day.weekday() + 1) % 7),  # Jira weeks start on Sunday
        "startofmonth": day.replace(day=1),
    }
    starts["endofweek"] = starts["startofweek"] + timedelta(days=7) - timedelta(seconds=1)
    if func.name not in starts:
        raise InvalidRequest(f"Unable to find JQL function '{func.name}()'.")
    point = starts[func.name]
    if func.args:
        offset = RELATIVE.match(func.args[0]) or RELATIVE.match(func.args[0] + "d")
        if not offset:
            raise InvalidRequest(f"Function '{func.name}' got an invalid offset '{func.args[0]}'.")
        sign = -1 if offset.group(1) == "-" else 1
        point += sign * timedelta(**{UNIT[offset.group(3)]: int(offset.group(2))})
    return point


def _words(value: str) -> list[str]:
    return [w for w in re.split(r"[^\w*]+", value.lower()) if w]


def text_match(haystack: str, needle: str) -> bool:
    """Every word of the search must start a word of the text (a trailing * is a prefix wildcard)."""
    stems = [term.rstrip("*") for term in _words(needle)]
    lowered = haystack.lower()
    if not all(stem in lowered for stem in stems):  # a word that starts with the stem contains it: a cheap first test
        return False
    words = set(_words(lowered))
    return all(any(w.startswith(stem) for w in words) for stem in stems)


def _predicate(clause: Clause, ctx: Context) -> Callable[[dict[str, Any]], bool]:
    name, op, value = clause.field, clause.op, clause.value
    if name == "resolution" and isinstance(value, str) and value.lower() == "unresolved" and op in ("=", "!="):
        op, value = ("is" if op == "=" else "is not"), None
    if name in TEXT_FIELDS:
        if op not in ("~", "!~") or not isinstance(value, str):
            shown = op.upper()
            raise InvalidRequest(f"The operator '{shown}' is not supported by the '{name}' field. Use '~' or '!~'.")
        return lambda i: text_match(ctx.text(i, name), value) == (op == "~")
    if op in ("~", "!~"):
        raise InvalidRequest(f"The operator '{op}' is not supported by the '{name}' field.")
    if op in ("is", "is not") or value is None:
        if op not in ("is", "is not", "=", "!="):
            raise InvalidRequest(f"The operator '{op}' can't be used with EMPTY.")
        empty = op in ("is", "=")
        return lambda i: (not ctx.facts(i, name)) == empty
    if name in DATE_FIELDS and op in (">", ">=", "<", "<=", "=", "!="):
        point = moment(value, ctx.now, name)
        stamp = point.strftime("%Y-%m-%dT%H:%M:%SZ") if name != "duedate" else point.strftime("%Y-%m-%d")
        compare = {
            ">": str.__gt__,
            ">=": str.__ge__,
            "<": str.__lt__,
            "<=": str.__le__,
            "=": str.__eq__,
            "!=": str.__ne__,
        }[op]
        return lambda i: any(compare(fact, stamp) for fact in ctx.facts(i, name))
    if op in (">", ">=", "<", "<="):
        if name not in ("priority", "storypoints"):
            raise InvalidRequest(f"The operator '{op}' is not supported by the '{name}' field.")
        bound = ctx.rank(name, value)
        compare = {">": float.__gt__, ">=": float.__ge__, "<": float.__lt__, "<=": float.__le__}[op]
        return lambda i: any(compare(float(ctx.rank(name, fact)), float(bound)) for fact in ctx.facts(i, name))
    values = value if isinstance(value, list) else [value]
    wanted: set[Any] = set()
    for item in values:
        wanted |= ctx.resolve(name, item)
    if op in ("=", "in"):
        return lambda i: bool(wanted & set(ctx.facts(i, name)))
    # != and NOT IN never match an empty field, as in Jira
    return lambda i: bool(ctx.facts(i, name)) and not wanted & set(ctx.facts(i, name))


def matcher(node: Clause | BoolOp | None, ctx: Context) -> Callable[[dict[str, Any]], bool]:
    """A predicate on issue rows for a parsed condition."""
    if node is None:
        return lambda i: True
    if isinstance(node, Clause):
        return _predicate(node, ctx)
    parts = [matcher(p, ctx) for p in node.parts]
    if node.op == "not":
        return lambda i: not parts[0](i)
    if node.op == "and":
        return lambda i: all(p(i) for p in parts)
    return lambda i: any(p(i) for p in parts)
