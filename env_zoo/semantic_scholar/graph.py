"""Reading the Academic Graph: paper ids in every style the API accepts, relevance search, year filters and
offset/limit paging."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, TypeVar
from urllib.parse import unquote, urlparse

from envfactory_gym import Database, InvalidRequest, NotFound
from sqlalchemy import func, select

from .schema import authors, citations, paper_authors, papers, venues

T = TypeVar("T")
SHA = re.compile(r"^[0-9a-f]{40}$")
EXTERNAL_PREFIXES = {
    "DOI": "DOI",
    "ARXIV": "ArXiv",
    "MAG": "MAG",
    "ACL": "ACL",
    "PMID": "PubMed",
    "PMCID": "PubMedCentral",
}
YEAR_PATTERN = r"^\s*(\d{4}|\d{4}-|-\d{4}|\d{4}-\d{4})\s*$"
STOPWORDS = {
    "a",
    "an",
    "the",
    "of",
    "for",
    "and",
    "in",
    "on",
    "with",
    "to",
    "by",
    "from",
    "is",
    "are",
    "via",
    "using",
    "about",
    "paper",
    "papers",
    "or",
}
MAX_SEARCH_RESULTS = 1000


# ---------------------------------------------------------------- paper ids


def resolve_paper(db: Database, paper_id: str) -> dict[str, Any]:
    """The paper a Semantic Scholar paper id names: a 40-character paperId, or `CorpusId:`, `DOI:`, `ARXIV:`,
    `MAG:`, `ACL:`, `PMID:`, `PMCID:` or `URL:` (semanticscholar.org, arxiv.org, aclanthology.org, doi.org)."""
    text = paper_id.strip()
    if SHA.match(text.lower()):
        rows = db.find(papers, paper_id=text.lower())
    else:
        prefix, _, value = text.partition(":")
        rows = _by_prefix(db, prefix.upper(), value.strip()) if value else []
    if not rows:
        raise NotFound(f"Paper with id {paper_id} not found")
    return rows[0]


def _by_prefix(db: Database, prefix: str, value: str) -> list[dict[str, Any]]:
    if prefix == "CORPUSID":
        return db.find(papers, corpus_id=int(value)) if value.isdigit() else []
    if prefix == "URL":
        return _by_url(db, value)
    key = EXTERNAL_PREFIXES.get(prefix)
    if key is None:
        return []
    wanted = _normal(key, value)
    stored = select(papers.c.paper_id, func.json_extract(papers.c.external_ids, f'$."{key}"'))
    ids = [pid for pid, found in db.conn.execute(stored) if found is not None and _normal(key, str(found)) == wanted]
    return [db.get(papers, pid, "Paper") for pid in ids[:1]]


def _normal(key: str, value: str) -> str:
    value = value.strip().lower()
    if key == "ArXiv":
        return re.sub(r"v\d+$", "", value)
    if key == "PubMedCentral":
        return value.removeprefix("pmc")
    return value


def _by_url(db: Database, url: str) -> list[dict[str, Any]]:
    parsed = urlparse(url if "://" in url else "https://" + url)
    host = parsed.netloc.lower().removeprefix("www.")
    path = unquote(parsed.path).strip("/")
    if host == "semanticscholar.org" and path.startswith("paper/"):
        return db.find(papers, paper_id=path.split("/")[-1].lower())
    if host == "arxiv.org" and path.split("/")[0] in ("abs", "pdf"):
        return _by_prefix(db, "ARXIV", path.split("/", 1)[1].removesuffix(".pdf"))
    if host == "aclanthology.org":
        return _by_prefix(db, "ACL", path.removesuffix(".pdf"))
    if host in ("doi.org", "dx.doi.org"):
        return _by_prefix(db, "DOI", path)
    raise InvalidRequest(
        f"Unsupported URL {url}: use a semanticscholar.org, arxiv.org, aclanthology.org or doi.org URL"
    )


# ---------------------------------------------------------------- search


def terms(text: str) -> list[str]:
    """Lower-cased, singularized query words without stopwords (hyphenated words also count joined)."""
    return list(_terms(text))


@lru_cache(maxsize=4096)
def _terms(text: str) -> tuple[str, ...]:
    """`terms` of a text, remembered: a paper's title and abstract are read by every search (a pure function of
    the text, so the cache cannot leak state between episodes)."""
    words: list[str] = []
    for chunk in re.findall(r"[\w'-]+", text.lower()):
        parts = [p for p in re.split(r"[-']", chunk) if p]
        for word in parts + (["".join(parts)] if len(parts) > 1 else []):
            if word not in STOPWORDS:
                words.append(_singular(word))
    return tuple(dict.fromkeys(words))


@lru_cache(maxsize=4096)
def _term_set(text: str) -> frozenset[str]:
    """The words of `terms` as a set, remembered like them."""
    return frozenset(_terms(text))


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def author_words(db: Database, words: list[str]) -> dict[str, set[str]]:
    """paperId -> the query words that are words of one of its authors' names. SQL's LIKE narrows the authors
    (ASCII names holding a word as a substring, and every name with a hyphen, an apostrophe or a non-ASCII letter,
    whose joined or case-folded words LIKE cannot see); the names' own words decide."""
    likes = ["name LIKE ?"] * len(words) + ["name LIKE '%-%'", "name LIKE '%''%'", "name GLOB '*[^ -~]*'"]
    found: dict[str, set[str]] = {}
    for row in db.select(authors, " OR ".join(likes), [f"%{w}%" for w in words]):
        matched = set(words) & set(_terms(row["name"]))
        if matched:
            found[row["author_id"]] = matched
    ids = list(found)
    out: dict[str, set[str]] = {}
    if ids:
        for link in db.select(paper_authors, f"author_id IN ({', '.join('?' * len(ids))})", ids):
            out.setdefault(link["paper_id"], set()).update(found[link["author_id"]])
    return out


def relevance(query: list[str], row: dict[str, Any], people: set[str]) -> float:
    """How well a paper matches the query words: title words count most, then authors, abstract and venue; 0 when
    fewer than two thirds of the words occur anywhere."""
    if not query:
        return 0.0
    title = _term_set(row["title"])
    rest = _term_set(f"{row['abstract'] or ''} {row['venue']} {row['tldr'] or ''}")
    score, found = 0.0, 0
    for word in query:
        weight = 3.0 if word in title else 2.0 if word in people else 1.0 if word in rest else 0.0
        score += weight
        found += weight > 0
    return score if found * 3 >= len(query) * 2 else 0.0


def search(
    db: Database,
    query: str,
    year: str | None,
    fields_of_study: list[str] | None,
    publication_types: list[str] | None,
    venue: list[str] | None,
    open_access_pdf: bool,
    min_citation_count: int | None,
) -> list[dict[str, Any]]:
    """Paper rows matching the query words and every given filter, most relevant first (ties: more cited, then
    paperId). Year and citation bounds are applied in SQL, the rest on the remaining rows."""
    words = terms(query)
    if not words:
        raise InvalidRequest("query must contain at least one search word")
    low, high = year_bounds(year) if year is not None else (None, None)
    clauses, params = ["year IS NOT NULL"] if year is not None else [], []
    for clause, value in (("year >= ?", low), ("year <= ?", high), ("citation_count >= ?", min_citation_count)):
        if value is not None:
            clauses.append(clause)
            params.append(value)
    wanted_venues = {v.strip().casefold() for v in venue or []}
    venue_names = _venue_names(db) if wanted_venues else {}
    people = author_words(db, words)
    scored = []
    for row in db.select(papers, " AND ".join(clauses), params):
        if fields_of_study and not set(fields_of_study) & set(row["fields_of_study"]):
            continue
        if publication_types and not set(publication_types) & set(row["publication_types"]):
            continue
        names = {row["venue"].casefold()} | venue_names.get(row["publication_venue_id"], set())
        if wanted_venues and not wanted_venues & names:
            continue
        if open_access_pdf and row["open_access_pdf"] is None:
            continue
        score = relevance(words, row, people.get(row["paper_id"], set()))
        if score > 0:
            scored.append((-score, -row["citation_count"], row["paper_id"], row))
    return [item[3] for item in sorted(scored, key=lambda item: item[:3])]


def _venue_names(db: Database) -> dict[str, set[str]]:
    """venue id -> its name and abbreviations, case-folded."""
    return {v["id"]: {v["name"].casefold(), *(a.casefold() for a in v["alternate_names"])} for v in db.find(venues)}


def find_authors(db: Database, query: str) -> list[dict[str, Any]]:
    """Authors whose name or an alias has a word starting with every query word, most cited first. SQL's LIKE
    narrows the candidates (every word somewhere in the name or aliases, or a non-ASCII or escaped character
    LIKE's ASCII case folding cannot see); the word-prefix rule decides."""
    words = [w.strip(".").casefold() for w in query.split() if w.strip(".")]
    if not words:
        raise InvalidRequest("query must contain a name")

    def matches(row: dict[str, Any]) -> bool:
        return any(
            all(any(part.casefold().startswith(w) for part in name.replace(".", " ").split()) for w in words)
            for name in [row["name"], *row["aliases"]]
        )

    every_word = " AND ".join(["(name LIKE ? OR aliases LIKE ?)"] * len(words))
    unusual = "name GLOB '*[^ -~]*' OR aliases GLOB '*[^ -~]*' OR aliases LIKE '%\\%'"
    candidates = db.select(authors, f"({every_word}) OR {unusual}", [f"%{w}%" for w in words for _ in range(2)])
    return sorted((a for a in candidates if matches(a)), key=lambda a: (-a["citation_count"], a["author_id"]))


def linked(db: Database, paper_id: str, direction: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(citation edge, other paper) pairs of a paper: its `citations` (citing papers, newest first) or its
    `references` (cited papers, oldest first)."""
    paper = resolve_paper(db, paper_id)["paper_id"]
    mine, other = (
        ("cited_paper_id", "citing_paper_id") if direction == "citations" else ("citing_paper_id", "cited_paper_id")
    )
    edges = db.find(citations, **{mine: paper})
    rows = {r["paper_id"]: r for r in _papers(db, [e[other] for e in edges])}
    pairs = [(e, rows[e[other]]) for e in edges]
    pairs.sort(
        key=lambda pair: (pair[1]["publication_date"] or "", pair[1]["paper_id"]), reverse=direction == "citations"
    )
    return pairs


def author_papers(db: Database, author_id: str) -> list[dict[str, Any]]:
    """An author's paper rows, newest first; NotFound for an unknown author."""
    author = db.get(authors, author_id.strip(), "Author")["author_id"]
    rows = _papers(db, [a["paper_id"] for a in db.find(paper_authors, author_id=author)])
    return sorted(rows, key=lambda r: (r["publication_date"] or "", r["paper_id"]), reverse=True)


def _papers(db: Database, ids: list[str]) -> list[dict[str, Any]]:
    """The paper rows of some paperIds, in one query."""
    if not ids:
        return []
    unique = list(dict.fromkeys(ids))
    return db.select(papers, f"paper_id IN ({', '.join('?' * len(unique))})", unique)


def year_bounds(year: str) -> tuple[int | None, int | None]:
    """`2019`, `2016-2020`, `2010-` or `-2015` (the type checks the shape) as inclusive bounds."""
    low_text, dash, high_text = year.strip().partition("-")
    low = int(low_text) if low_text else None
    high = int(high_text) if high_text else (low if not dash else None)
    if low is not None and high is not None and low > high:
        raise InvalidRequest(f"Invalid year {year!r}: the range is empty")
    return low, high


# ---------------------------------------------------------------- paging


def window(items: Sequence[T], offset: int, limit: int) -> tuple[list[T], int | None]:
    """The `limit` items from `offset` and the offset of the next page (None on the last page); the argument
    types bound offset and limit."""
    if offset >= len(items):
        return [], None
    end = offset + limit
    return list(items[offset:end]), end if end < len(items) else None
