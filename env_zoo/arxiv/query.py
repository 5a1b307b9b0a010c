"""The arXiv API's search_query syntax compiled to SQL over the papers table: field prefixes (ti, au, abs, co, jr,
cat, rn, id, all), quoted phrases, a trailing * wildcard, the boolean operators AND, OR and ANDNOT, parentheses,
and submittedDate / lastUpdatedDate ranges ([YYYYMMDDTTTT TO YYYYMMDDTTTT]). AND and ANDNOT bind tighter than OR;
a bare word searches all fields."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from envfactory_gym import InvalidRequest

TEXT_FIELDS = {
    "ti": ["search_ti"],
    "abs": ["search_abs"],
    "au": ["search_au"],
    "co": ["search_co"],
    "jr": ["search_jr"],
}
ALL_FIELDS = ["search_ti", "search_abs", "search_au", "search_co"]
PREFIXES = ("ti", "au", "abs", "co", "jr", "cat", "rn", "id", "all", "submittedDate", "lastUpdatedDate")
TOKEN = re.compile(
    r"\s*(?:(?P<lp>\()|(?P<rp>\))|(?P<op>AND(?:NOT)?\b|OR\b)"
    r"|(?P<date>(?:submittedDate|lastUpdatedDate):\[\s*\d{8,14}\s+TO\s+\d{8,14}\s*\])"
    r'|(?P<term>(?:[A-Za-z]+:)?(?:"[^"]*"|[^\s()"]+)))'
)


@dataclass(frozen=True)
class Clause:
    sql: str
    params: tuple[str, ...]


def fold(text: str) -> str:
    """Lower case without accents or punctuation, as the search columns store text."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(re.sub(r"[^0-9a-z*]+", " ", plain).split())


def normalized(text: str) -> str:
    """A search column's value: folded words padded with spaces."""
    return " " + fold(text).replace("*", " ").strip() + " "


def _tokens(query: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    query = query.strip()
    while pos < len(query):
        found = TOKEN.match(query, pos)
        if not found or found.end() == pos:
            raise InvalidRequest(f"malformed search_query near '{query[pos : pos + 20]}'")
        kind = found.lastgroup or ""
        out.append((kind, found.group(kind).strip()))
        pos = found.end()
        while pos < len(query) and query[pos].isspace():
            pos += 1
    return out


def _word_clause(columns: list[str], value: str) -> Clause:
    words = fold(value)
    if not words:
        raise InvalidRequest(f"empty search term in '{value}'")
    if words.endswith("*"):
        pattern = "% " + words.rstrip("*") + "%"
    else:
        pattern = "% " + words.replace("*", "") + " %"
    return Clause("(" + " OR ".join(f"{c} LIKE ?" for c in columns) + ")", tuple(pattern for _ in columns))


def _date_clause(token: str) -> Clause:
    field, rest = token.split(":", 1)
    low, high = re.findall(r"\d{8,14}", rest)
    column = "published" if field == "submittedDate" else "updated"

    def iso(raw: str, end: bool) -> str:
        raw = raw.ljust(12, "9" if end else "0")[:12]
        return f"{raw[0:4]}-{raw[4:6]}-{raw[6:8]}T{raw[8:10]}:{raw[10:12]}:{'59' if end else '00'}Z"

    return Clause(f"({column} >= ? AND {column} <= ?)", (iso(low, False), iso(high, True)))


def _term(token: str) -> Clause:
    prefix, _, value = token.partition(":") if re.match(r"^[A-Za-z]+:", token) else ("all", "", token)
    if prefix not in PREFIXES:
        raise InvalidRequest(f"unknown field prefix '{prefix}:' (use ti, au, abs, co, jr, cat, rn, id or all)")
    value = value.strip('"')
    if prefix in TEXT_FIELDS:
        return _word_clause(TEXT_FIELDS[prefix], value)
    if prefix == "all":
        return _word_clause(ALL_FIELDS, value)
    if prefix == "cat":
        if value.endswith("*"):
            return Clause("lower(categories) LIKE ?", (f"%|{value[:-1].lower()}%",))
        return Clause("lower(categories) LIKE ?", (f"%|{value.lower()}|%",))
    if prefix == "rn":
        return Clause("lower(report_no) = ?", (value.lower(),))
    return Clause("id = ?", (re.sub(r"v\d+$", "", value),))


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.at = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def either(self) -> Clause:
        left = self.both()
        while self.peek() == ("op", "OR"):
            self.take()
            right = self.both()
            left = Clause(f"({left.sql} OR {right.sql})", left.params + right.params)
        return left

    def both(self) -> Clause:
        left = self.atom()
        while True:
            nxt = self.peek()
            if nxt is None or nxt[0] == "rp" or nxt == ("op", "OR"):
                return left
            op = self.take()[1] if nxt[0] == "op" else "AND"  # adjacent terms are ANDed
            right = self.atom()
            joiner = "AND NOT" if op == "ANDNOT" else "AND"
            left = Clause(f"({left.sql} {joiner} {right.sql})", left.params + right.params)

    def atom(self) -> Clause:
        if self.peek() is None:
            raise InvalidRequest("malformed search_query: it ends where a term was expected")
        kind, text = self.take()
        if kind == "lp":
            inner = self.either()
            if self.peek() is None or self.take()[0] != "rp":
                raise InvalidRequest("malformed search_query: unbalanced parentheses")
            return inner
        if kind == "date":
            return _date_clause(text)
        if kind == "term":
            return _term(text)
        raise InvalidRequest(f"malformed search_query: '{text}' where a term was expected")


def compile_query(query: str) -> Clause:
    """The SQL condition a search_query stands for; a malformed query is refused with where it went wrong."""
    parser = _Parser(_tokens(query))
    clause = parser.either()
    if parser.peek() is not None:
        raise InvalidRequest(f"malformed search_query: unexpected '{parser.peek()[1]}'")  # type: ignore[index]
    return clause


def relevance(query: str, row: dict) -> int:
    """A simple relevance score: query words found in the title count three, in the abstract one."""
    words = [w for w in fold(re.sub(r"\b[A-Za-z]+:", " ", query)).split() if w not in {"and", "or", "andnot", "to"}]
    return sum(3 * (f" {w} " in row["search_ti"]) + (f" {w} " in row["search_abs"]) for w in words)
