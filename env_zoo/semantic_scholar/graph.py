"""Reading the Academic Graph: paper ids in every style the API accepts, relevance search, year filters and
offset/limit paging."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, TypeVar
from urllib.parse import unquote, urlparse

from envfactory_gym import Database, InvalidRequest, NotFound, paginate
from sqlalchemy import select

from .schema import authors, paper_authors, papers

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
YEAR_RANGE = re.compile(r"^(\d{4})?(-)?(\d{4})?$")
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
    return [
        r for r in db.find(papers) if key in r["external_ids"] and _normal(key, str(r["external_ids"][key])) == wanted
    ]


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
    words: list[str] = []
    for chunk in re.findall(r"[\w'-]+", text.lower()):
        parts = [p for p in re.split(r"[-']", chunk) if p]
        for word in parts + (["".join(parts)] if len(parts) > 1 else []):
            if word not in STOPWORDS:
                words.append(_singular(word))
    return list(dict.fromkeys(words))


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def names_by_paper(db: Database) -> dict[str, str]:
    """paperId -> its authors' names in one string, for matching author words."""
    out: dict[str, str] = {}
    stmt = select(paper_authors.c.paper_id, authors.c.name).join(
        authors, paper_authors.c.author_id == authors.c.author_id
    )
    for paper_id, name in db.conn.execute(stmt):
        out[paper_id] = f"{out.get(paper_id, '')} {name}"
    return out


def relevance(query: list[str], row: dict[str, Any], author_names: str) -> float:
    """How well a paper matches the query words: title words count most, then authors, abstract and venue; 0 when
    fewer than two thirds of the words occur anywhere."""
    if not query:
        return 0.0
    title = set(terms(row["title"]))
    people = set(terms(author_names))
    rest = set(terms(f"{row['abstract'] or ''} {row['venue']} {row['tldr'] or ''}"))
    score, found = 0.0, 0
    for word in query:
        weight = 3.0 if word in title else 2.0 if word in people else 1.0 if word in rest else 0.0
        score += weight
        found += weight > 0
    return score if found * 3 >= len(query) * 2 else 0.0


def year_bounds(year: str) -> tuple[int | None, int | None]:
    """`2019`, `2016-2020`, `2010-` or `-2015` as inclusive bounds."""
    match = YEAR_RANGE.match(year.strip())
    if not match or not (match.group(1) or match.group(3)) or (match.group(2) is None and match.group(3)):
        raise InvalidRequest(f"Invalid year {year!r}: use 2019, 2016-2020, 2010- or -2015")
    low = int(match.group(1)) if match.group(1) else None
    high = int(match.group(3)) if match.group(3) else (low if match.group(2) is None else None)
    if low is not None and high is not None and low > high:
        raise InvalidRequest(f"Invalid year {year!r}: the range is empty")
    return low, high


def in_years(row: dict[str, Any], bounds: tuple[int | None, int | None]) -> bool:
    """Whether a paper's year lies within the bounds."""
    low, high = bounds
    if row["year"] is None:
        return False
    return (low is None or row["year"] >= low) and (high is None or row["year"] <= high)


# ---------------------------------------------------------------- paging


def window(items: Sequence[T], offset: int, limit: int, max_limit: int) -> tuple[list[T], int | None]:
    """The `limit` items from `offset` and the offset of the next page (None on the last page)."""
    if offset < 0:
        raise InvalidRequest("offset must be >= 0")
    if not 1 <= limit <= max_limit:
        raise InvalidRequest(f"limit must be between 1 and {max_limit}")
    if offset >= len(items):
        return [], None
    page = paginate(items, limit, str(offset), max_page_size=max_limit)
    return page.results, int(page.next_cursor) if page.next_cursor else None
