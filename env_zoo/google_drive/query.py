"""Drive's search language (the `q` of files.list): terms joined with `and`, `or`, `not` and parentheses.

    name contains 'budget' and mimeType = 'application/vnd.google-apps.spreadsheet' and trashed = false
    '1AbC...' in parents and modifiedTime > '2025-05-01T00:00:00' and not 'me' in owners

`name contains` matches the start of a word of the name (`'Bud'` finds "Q3 Budget", `'udget'` does not); `fullText
contains` finds a word or phrase anywhere in the name, description or content. Strings are single-quoted (`\\'` for a
quote); times are RFC 3339 (UTC unless they carry an offset); `'root'` is the user's My Drive, `'me'` the user."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Protocol

from envfactory_gym import InvalidRequest

from .errors import drive_error

TOKEN = re.compile(r"\s*(?:(?P<string>'(?:\\.|[^'\\])*')|(?P<op><=|>=|!=|=|<|>)|(?P<paren>[()])|(?P<word>[A-Za-z_]+))")
TEXT_FIELDS = {"name": ("contains", "=", "!="), "fullText": ("contains",), "mimeType": ("contains", "=", "!=")}
TIME_FIELDS = ("modifiedTime", "createdTime")
BOOL_FIELDS = ("trashed", "starred", "sharedWithMe", "hidden")
LIST_FIELDS = ("parents", "owners", "writers", "readers")
VISIBILITY = ("anyoneCanFind", "anyoneWithLink", "domainCanFind", "domainWithLink", "limited")
COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


class Facts(Protocol):
    """What a query can ask about an item, from the signed-in user's point of view."""

    def text(self, row: dict[str, Any]) -> str: ...
    def listed(self, field: str, row: dict[str, Any]) -> set[str]: ...
    def flag(self, field: str, row: dict[str, Any]) -> bool: ...
    def visibility(self, row: dict[str, Any]) -> str: ...


Predicate = Callable[[dict[str, Any], Facts], bool]


def invalid(detail: str) -> Exception:
    """Drive's answer to a query it can't parse."""
    return drive_error(InvalidRequest, 400, "invalid", f"Invalid Value (q): {detail}")


@dataclass
class Token:
    kind: str  # string | op | paren | word
    text: str


def tokenize(query: str) -> list[Token]:
    """The query's tokens; an unterminated string or a stray character is invalid."""
    tokens, position = [], 0
    while position < len(query):
        if query[position:].strip() == "":
            break
        match = TOKEN.match(query, position)
        if match is None:
            raise invalid(f"unexpected text at position {position}: {query[position : position + 12]!r}")
        kind = match.lastgroup or "word"
        text = match.group(kind)
        if kind == "string":
            text = re.sub(r"\\(.)", r"\1", text[1:-1])
        tokens.append(Token(kind, text))
        position = match.end()
    return tokens


def word_prefix(name: str, value: str) -> bool:
    """Whether `value` starts the name or one of its words (Drive's `name contains`), ignoring case."""
    name, value = name.lower(), value.lower().strip()
    if not value:
        return True
    start = name.find(value)
    while start != -1:
        if start == 0 or not name[start - 1].isalnum():
            return True
        start = name.find(value, start + 1)
    return False


def phrase(text: str, value: str) -> bool:
    """Whether the words of `value` appear together in `text`, whole words, ignoring case."""
    words = re.findall(r"\w+", value.lower())
    if not words:
        return True
    pattern = r"\b" + r"\W+".join(map(re.escape, words)) + r"\b"
    return re.search(pattern, text.lower()) is not None


def parse_time(value: str) -> str:
    """An RFC 3339 time as a comparable UTC string."""
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise invalid(f"{value!r} is not an RFC 3339 date-time such as '2025-06-01T12:00:00'") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Parser:
    """Recursive descent over the tokens: or binds looser than and, not binds tightest."""

    def __init__(self, tokens: list[Token], aliases: dict[str, str]) -> None:
        self.tokens = tokens
        self.at = 0
        self.aliases = aliases
        self.depth = 0  # 0: the top-level conjunction, where plain terms give SQL hints
        self.hints: list[tuple[str, Any]] = []
        self.plain = True  # the whole query is one conjunction of plain terms

    def peek(self) -> Token | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> Token:
        token = self.peek()
        if token is None:
            raise invalid("the query ends too early")
        self.at += 1
        return token

    def keyword(self, word: str) -> bool:
        token = self.peek()
        if token is not None and token.kind == "word" and token.text.lower() == word:
            self.at += 1
            return True
        return False

    def parse(self) -> Predicate:
        predicate = self.disjunction()
        if self.peek() is not None:
            raise invalid(f"unexpected {self.peek().text!r}")  # type: ignore[union-attr]
        return predicate

    def disjunction(self) -> Predicate:
        parts = [self.conjunction()]
        while self.keyword("or"):
            if self.depth == 0:
                self.plain = False
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else (lambda row, facts: any(p(row, facts) for p in parts))

    def conjunction(self) -> Predicate:
        parts = [self.negation()]
        while self.keyword("and"):
            parts.append(self.negation())
        return parts[0] if len(parts) == 1 else (lambda row, facts: all(p(row, facts) for p in parts))

    def negation(self) -> Predicate:
        if self.keyword("not"):
            self.depth += 1
            inner = self.negation()
            self.depth -= 1
            return lambda row, facts: not inner(row, facts)
        token = self.peek()
        if token is not None and token.kind == "paren" and token.text == "(":
            self.take()
            self.depth += 1
            inner = self.disjunction()
            self.depth -= 1
            closing = self.take()
            if closing.text != ")":
                raise invalid("a '(' is never closed")
            return inner
        return self.term()

    def term(self) -> Predicate:
        first = self.take()
        if first.kind == "string":
            if not self.keyword("in"):
                raise invalid(f"expected 'in' after {first.text!r}")
            field = self.take().text
            if field not in LIST_FIELDS:
                raise invalid(f"'in' works with {', '.join(LIST_FIELDS)}, not {field!r}")
            if field == "parents":
                value = self.aliases["root"] if first.text == "root" else first.text
                self.hint('"parent_id" = ?', value)
            else:
                value = (self.aliases["me"] if first.text == "me" else first.text).lower()
            return lambda row, facts: value in facts.listed(field, row)
        if first.kind != "word":
            raise invalid(f"unexpected {first.text!r}")
        field = first.text
        if field == "sharedWithMe" and (self.peek() is None or self.peek().kind != "op"):  # type: ignore[union-attr]
            return lambda row, facts: facts.flag("sharedWithMe", row)
        operator = self.take()
        if operator.kind != "op" and operator.text.lower() != "contains":
            raise invalid(f"expected an operator after {field!r}")
        op = operator.text.lower() if operator.kind == "word" else operator.text
        value = self.take()
        return self.compare(field, op, value)

    def hint(self, sql: str, value: Any) -> None:
        """A SQL condition every match satisfies (recorded for terms of the top-level conjunction)."""
        if self.depth == 0:
            self.hints.append((sql, value))

    def compare(self, field: str, op: str, value: Token) -> Predicate:
        if field in TEXT_FIELDS:
            if op not in TEXT_FIELDS[field] or value.kind != "string":
                raise invalid(f"{field} takes {', '.join(TEXT_FIELDS[field])} and a quoted string")
            wanted = value.text
            if field == "name":
                if op == "contains":
                    if wanted.isascii():  # SQLite's LIKE ignores the case of ASCII letters only
                        self.hint("\"name\" LIKE ? ESCAPE '\\'", "%" + re.sub(r"([%_\\])", r"\\\1", wanted) + "%")
                    return lambda row, facts: word_prefix(row["name"], wanted)
                if op == "=":
                    self.hint('"name" = ?', wanted)
                return lambda row, facts: COMPARE[op](row["name"], wanted)
            if field == "mimeType":
                if op == "=":
                    self.hint('"mime_type" = ?', wanted)
                if op == "contains":
                    return lambda row, facts: wanted.lower() in row["mime_type"].lower()
                return lambda row, facts: COMPARE[op](row["mime_type"], wanted)
            return lambda row, facts: phrase(facts.text(row), wanted)
        if field in TIME_FIELDS:
            if op not in COMPARE or value.kind != "string":
                raise invalid(f"{field} takes a comparison (<, <=, =, !=, >, >=) and a quoted RFC 3339 time")
            moment, column = parse_time(value.text), "modified_time" if field == "modifiedTime" else "created_time"
            return lambda row, facts: COMPARE[op](row[column], moment)
        if field in BOOL_FIELDS:
            if op not in ("=", "!=") or value.text.lower() not in ("true", "false"):
                raise invalid(f"{field} takes = or != and true or false")
            expected = (value.text.lower() == "true") == (op == "=")
            if field == "trashed":
                self.hint('"trashed" = ?', int(expected))
                return lambda row, facts: bool(row["trashed"]) == expected
            return lambda row, facts: facts.flag(field, row) == expected
        if field == "visibility":
            if op not in ("=", "!=") or value.text not in VISIBILITY:
                raise invalid(f"visibility takes = or != and one of {', '.join(VISIBILITY)}")
            level = value.text
            return lambda row, facts: (facts.visibility(row) == level) == (op == "=")
        raise invalid(f"unknown query term {field!r}")


@dataclass
class Compiled:
    """A query as a predicate over file rows, and SQL conditions every match satisfies (empty when the query can't
    be narrowed that way: an `or` at the top, or no plain term)."""

    predicate: Predicate
    hints: list[tuple[str, Any]]


def compile_query(query: str, aliases: dict[str, str]) -> Compiled:
    """Compile a Drive query; `aliases` give 'root' (the user's My Drive root id) and 'me' (the user's address)."""
    tokens = tokenize(query)
    if not tokens:
        return Compiled(lambda row, facts: True, [])
    parser = Parser(tokens, aliases)
    predicate = parser.parse()
    return Compiled(predicate, parser.hints if parser.plain else [])
