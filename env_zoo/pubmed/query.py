"""The ESearch term language, the subset PubMed users type: words and "quoted phrases", field tags ([au], [1au],
[ti], [tiab], [mh], [majr], [pt], [ta], [la], [dp], [all]), publication-date ranges (2019:2021[dp],
2020/03/01:2020/06/30[dp]) and AND / OR / NOT, applied left to right, with parentheses. A parsed term becomes an
SQL filter over the articles table and PubMed's query translation."""

from __future__ import annotations

import re
from dataclasses import dataclass

from envfactory_gym import InvalidRequest

TAGS = {
    "au": "Author",
    "author": "Author",
    "1au": "Author - First",
    "ti": "Title",
    "title": "Title",
    "tiab": "Title/Abstract",
    "mh": "MeSH Terms",
    "mesh": "MeSH Terms",
    "majr": "MeSH Major Topic",
    "pt": "Publication Type",
    "ta": "Journal",
    "journal": "Journal",
    "la": "Language",
    "dp": "Publication Date",
    "pdat": "Publication Date",
    "all": "All Fields",
}
LANGUAGES = {
    "english": "eng",
    "eng": "eng",
    "french": "fre",
    "fre": "fre",
    "german": "ger",
    "ger": "ger",
    "spanish": "spa",
    "spa": "spa",
}
TOKEN = re.compile(r'\s*(?:(\()|(\))|"([^"]*)"|(\[[^\]]*\])|([^\s()\[\]"]+))')
DATE = re.compile(r"^(\d{4})(?:/(\d{2}))?(?:/(\d{2}))?$")
OPERATORS = {"AND", "OR", "NOT"}


@dataclass(frozen=True)
class Compiled:
    """An SQL condition over `articles` with its parameters, and PubMed's translation of the term."""

    sql: str
    params: tuple[str, ...]
    translation: str


def _tokens(term: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    position = 0
    while position < len(term):
        match = TOKEN.match(term, position)
        if match is None or match.end() == position:
            if term[position:].strip() == "":
                break
            raise InvalidRequest(f"Unterminated quote in search term at position {position}")
        position = match.end()
        opened, closed, phrase, tag, word = match.groups()
        if opened:
            found.append(("(", "("))
        elif closed:
            found.append((")", ")"))
        elif phrase is not None:
            found.append(("phrase", phrase))
        elif tag:
            found.append(("tag", tag[1:-1].strip().lower()))
        elif word:
            found.append(("op", word) if word in OPERATORS else ("word", word))
    return found


def _bound(text: str, upper: bool) -> str:
    match = DATE.match(text.strip())
    if match is None:
        raise InvalidRequest(f"Invalid date '{text}' in [dp]: use YYYY, YYYY/MM or YYYY/MM/DD")
    year, month, day = match.groups()
    if upper:
        return f"{year}-{month or '12'}-{day or '31'}"
    return f"{year}-{month or '01'}-{day or '01'}"


def _leaf(text: str, tag: str) -> Compiled:
    """One search term in one field."""
    if tag not in TAGS:
        raise InvalidRequest(f"Field not found: [{tag}] is not a PubMed search field")
    value = " ".join(text.lower().replace("*", "").split())
    if not value:
        raise InvalidRequest("Empty search term before a field tag")
    shown = f'"{value}"[{TAGS[tag]}]'
    like = f"%{value}%"
    if tag in ("au", "author"):
        return Compiled("author_index LIKE ?", (f"%|{value}%",), shown)
    if tag == "1au":
        return Compiled("author_index LIKE ?", (f"|{value}%",), shown)
    if tag in ("ti", "title"):
        return Compiled("lower(title) LIKE ?", (like,), shown)
    if tag == "tiab":
        return Compiled("(lower(title) LIKE ? OR lower(abstract) LIKE ?)", (like, like), shown)
    if tag in ("mh", "mesh"):
        return Compiled("(mesh_index LIKE ? OR mesh_index LIKE ?)", (f"%|{value}|%", f"%|{value}*|%"), shown)
    if tag == "majr":
        return Compiled("mesh_index LIKE ?", (f"%|{value}*|%",), shown)
    if tag == "pt":
        return Compiled("lower(publication_types) LIKE ?", (f'%"{value}"%',), shown)
    if tag in ("ta", "journal"):
        sql = "nlm_id IN (SELECT nlm_id FROM journals WHERE lower(iso_abbreviation) = ? OR lower(title) = ?)"
        return Compiled(sql, (value, value), shown)
    if tag == "la":
        return Compiled("language = ?", (LANGUAGES.get(value, value),), shown)
    if tag in ("dp", "pdat"):
        low, _, high = value.partition(":")
        start, end = _bound(low, upper=False), _bound(high or low, upper=True)
        return Compiled("(pub_date >= ? AND pub_date <= ?)", (start, end), f"{low}:{high or low}[{TAGS[tag]}]")
    sql = (
        "(lower(title) LIKE ? OR lower(abstract) LIKE ? OR mesh_index LIKE ? OR author_index LIKE ? "
        "OR lower(keywords) LIKE ?)"
    )
    return Compiled(sql, (like, like, like, f"%|{value}%", like), f'"{value}"[All Fields]')


def _combine(left: Compiled, operator: str, right: Compiled) -> Compiled:
    sql = f"({left.sql} AND NOT {right.sql})" if operator == "NOT" else f"({left.sql} {operator} {right.sql})"
    return Compiled(sql, left.params + right.params, f"({left.translation} {operator} {right.translation})")


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.at = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def expression(self) -> Compiled:
        result = self.operand()
        while (token := self.peek()) is not None and token[0] != ")":
            operator = "AND"
            if token[0] == "op":
                operator = token[1]
                self.at += 1
            result = _combine(result, operator, self.operand())
        return result

    def operand(self) -> Compiled:
        token = self.peek()
        if token is None:
            raise InvalidRequest("Search term ends where a term was expected")
        kind, value = token
        self.at += 1
        if kind == "(":
            inner = self.expression()
            if self.peek() != (")", ")"):
                raise InvalidRequest("Unbalanced parentheses in search term")
            self.at += 1
            return inner
        if kind in (")", "op", "tag"):
            raise InvalidRequest(f"Unexpected '{value}' in search term")
        if kind == "phrase":
            return _leaf(value, self._tag() or "all")
        words = [value]
        while (following := self.peek()) is not None and following[0] == "word":
            words.append(following[1])
            self.at += 1
        tag = self._tag()
        if tag is not None:
            return _leaf(" ".join(words), tag)
        result = _leaf(words[0], "all")
        for word in words[1:]:
            result = _combine(result, "AND", _leaf(word, "all"))
        return result

    def _tag(self) -> str | None:
        token = self.peek()
        if token is not None and token[0] == "tag":
            self.at += 1
            return token[1]
        return None


def compile_term(term: str) -> Compiled:
    """The SQL filter and query translation of an ESearch term; InvalidRequest for a term PubMed would refuse."""
    parser = _Parser(_tokens(term))
    result = parser.expression()
    if parser.peek() is not None:
        raise InvalidRequest("Unbalanced parentheses in search term")
    return result
