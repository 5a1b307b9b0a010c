"""The subset of Airtable's formula language that filterByFormula and views accept here: `{Field}` references,
"text" and numbers, = != < > <= >=, &, and the functions AND, OR, NOT, FIND, SEARCH, LOWER, UPPER, LEN, BLANK,
TRUE, FALSE, TODAY, IS_BEFORE, IS_AFTER, DATETIME_DIFF (days). A record is kept when the formula's value is truthy."""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Callable

from .errors import unprocessable

TOKEN = re.compile(r"\s*(?:(\{[^}]*\})|(\"[^\"]*\"|'[^']*')|(\d+(?:\.\d+)?)|(<=|>=|!=|[=<>&(),])|([A-Za-z_]+))")
Node = tuple[Any, ...]


def invalid(detail: str = "Invalid formula. Please check your formula text.") -> Exception:
    return unprocessable("INVALID_FILTER_BY_FORMULA", f"The formula for filtering records is invalid: {detail}")


def tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise invalid()
        kind = ("field", "str", "num", "op", "name")[m.lastindex - 1]  # type: ignore[operator]
        out.append((kind, m.group(m.lastindex)))  # type: ignore[arg-type]
        pos = m.end()
    return out


class Parser:
    """Recursive descent over the tokens: comparison < concatenation < atom."""

    def __init__(self, text: str) -> None:
        self.toks = tokens(text)
        self.i = 0

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if tok is None or (value is not None and tok[1] != value):
            raise invalid()
        self.i += 1
        return tok

    def parse(self) -> Node:
        node = self.comparison()
        if self.peek() is not None:
            raise invalid()
        return node

    def comparison(self) -> Node:
        left = self.concat()
        tok = self.peek()
        if tok and tok[0] == "op" and tok[1] in ("=", "!=", "<", ">", "<=", ">="):
            self.i += 1
            return ("cmp", tok[1], left, self.concat())
        return left

    def concat(self) -> Node:
        node = self.atom()
        while (tok := self.peek()) and tok[1] == "&":
            self.i += 1
            node = ("call", "CONCAT", [node, self.atom()])
        return node

    def atom(self) -> Node:
        kind, value = self.take()
        if kind == "field":
            return ("field", value[1:-1])
        if kind == "str":
            return ("lit", value[1:-1])
        if kind == "num":
            return ("lit", float(value))
        if kind == "op" and value == "(":
            node = self.comparison()
            self.take(")")
            return node
        if kind == "name":
            name = value.upper()
            if name not in FUNCTIONS:
                raise invalid(f"Unknown function names: {value}")
            self.take("(")
            args: list[Node] = []
            if self.peek() and self.peek()[1] != ")":  # type: ignore[index]
                args.append(self.comparison())
                while self.peek() and self.peek()[1] == ",":  # type: ignore[index]
                    self.i += 1
                    args.append(self.comparison())
            self.take(")")
            return ("call", name, args)
        raise invalid()


def _num(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _days(a: Any, b: Any) -> float:
    try:
        return float((date.fromisoformat(_text(a)[:10]) - date.fromisoformat(_text(b)[:10])).days)
    except ValueError:
        return 0.0


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "AND": lambda *a: all(_truthy(x) for x in a),
    "OR": lambda *a: any(_truthy(x) for x in a),
    "NOT": lambda a: not _truthy(a),
    "FIND": lambda n, h, *s: _text(h).find(_text(n)) + 1,
    "SEARCH": lambda n, h, *s: _text(h).lower().find(_text(n).lower()) + 1,
    "LOWER": lambda a: _text(a).lower(),
    "UPPER": lambda a: _text(a).upper(),
    "LEN": lambda a: float(len(_text(a))),
    "BLANK": lambda: None,
    "TRUE": lambda: True,
    "FALSE": lambda: False,
    "CONCAT": lambda a, b: _text(a) + _text(b),
    "IS_BEFORE": lambda a, b: bool(_text(a)) and _text(a)[:10] < _text(b)[:10],
    "IS_AFTER": lambda a, b: bool(_text(a)) and _text(a)[:10] > _text(b)[:10],
    "DATETIME_DIFF": lambda a, b, *unit: _days(a, b),
}


def _truthy(value: Any) -> bool:
    return value not in (None, "", 0, 0.0, False) and value != []


def _compare(op: str, a: Any, b: Any) -> bool:
    x: Any = a
    y: Any = b
    if isinstance(a, str) or isinstance(b, str) or (a is None and b is None):
        x, y = _text(a), _text(b)
    else:
        x, y = _num(a) or 0.0, _num(b) or 0.0
    return {"=": x == y, "!=": x != y, "<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}[op]


def evaluate(node: Node, values: dict[str, Any], today: str) -> Any:
    """The node's value for a record whose cells (by field name, as formulas see them) are `values`."""
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "field":
        return values.get(node[1])
    if kind == "cmp":
        return _compare(node[1], evaluate(node[2], values, today), evaluate(node[3], values, today))
    name, args = node[1], node[2]
    if name == "TODAY":
        return today
    try:
        return FUNCTIONS[name](*(evaluate(a, values, today) for a in args))
    except TypeError:
        raise invalid(f"Wrong number of arguments to {name}") from None


def field_names(node: Node) -> set[str]:
    """Every `{Field}` the formula names."""
    if node[0] == "field":
        return {node[1]}
    if node[0] == "cmp":
        return field_names(node[2]) | field_names(node[3])
    if node[0] == "call":
        return set().union(*(field_names(a) for a in node[2])) if node[2] else set()
    return set()


def compile_formula(text: str, known: set[str]) -> Node:
    """Parse; 422 INVALID_FILTER_BY_FORMULA for bad syntax or a field the table lacks."""
    node = Parser(text).parse()
    unknown = sorted(field_names(node) - known)
    if unknown:
        raise invalid(f"Unknown field names: {', '.join(u.lower() for u in unknown)}")
    return node
