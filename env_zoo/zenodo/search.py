"""Record search as Zenodo's `q` reads it, reduced to what the seed needs: free words (all must match title,
description, creators or keywords), "quoted phrases", and `field:value` terms on title, creators.name, keywords,
doi, upload_type and access_right; sorted by best match, most recent or oldest first."""

from __future__ import annotations

import json
import re
from typing import Any

from envfactory_gym import Database

from .errors import bad_request
from .schema import depositions

TERM = re.compile(r'(?:(\w+(?:\.\w+)?):)?(?:"([^"]*)"|(\S+))')
FIELDS = {
    "title": ("title",),
    "creators.name": ("creators",),
    "creators": ("creators",),
    "keywords": ("keywords",),
    "description": ("description",),
    "doi": ("doi", "conceptdoi"),
    "upload_type": ("upload_type",),
    "access_right": ("access_right",),
}
ANYWHERE = ("title", "description", "creators", "keywords")


def _column(name: str, public: bool) -> str:
    """A searchable column; the public sees a record reopened for editing as it was last published."""
    if not public or name in ("doi", "conceptdoi"):
        return name
    return f"CASE WHEN state = 'inprogress' THEN json_extract(published_metadata, '$.{name}') ELSE {name} END"


def _haystack(columns: tuple[str, ...], public: bool) -> str:
    """The columns as one lower-case text, so each term costs one LIKE per row."""
    return "lower(" + " || ' ' || ".join(f"coalesce({_column(c, public)}, '')" for c in columns) + ")"


def where_clause(q: str | None, public: bool = False) -> tuple[list[str], list[Any], list[str]]:
    """SQL conditions and parameters for `q` (`public`: on what was published), and the plain words (for ranking
    best matches)."""
    clauses: list[str] = []
    params: list[Any] = []
    words: list[str] = []
    for match in TERM.finditer(q or ""):
        field, phrase, word = match.group(1), match.group(2), match.group(3)
        value = (phrase if phrase is not None else word).strip().lower()
        if not value or value in ("and", "*"):
            continue
        if field is not None and field not in FIELDS:
            raise bad_request(f"Invalid query field: {field}. Searchable: {', '.join(FIELDS)}.")
        haystack = _haystack(FIELDS[field] if field else ANYWHERE, public)
        escaped = json.dumps(value)[1:-1]  # how JSON columns (creators, keywords) store non-ASCII letters
        if escaped == value:
            clauses.append(f"{haystack} LIKE ?")
            params.append(f"%{value}%")
        else:
            clauses.append(f"({haystack} LIKE ? OR {haystack} LIKE ?)")
            params.extend([f"%{value}%", f"%{escaped}%"])
        words.append(value)
    return clauses, params, words


def search_records(
    db: Database, q: str | None, extra: list[str], extra_params: list[Any], sort: str, page: int, size: int
) -> tuple[int, list[int]]:
    """How many published records match `q` and extra SQL filters, and the ids on one page in the order `sort`
    asks for (bestmatch: most query words in the title first, then newest)."""
    clauses, params, words = where_clause(q, public=True)
    where = " AND ".join(["submitted = 1", *clauses, *extra])
    values = [*params, *extra_params]
    order = {"mostrecent": "published DESC", "-mostrecent": "published ASC"}.get(sort, "published DESC")
    rank: list[Any] = []
    if sort == "bestmatch" and words:
        title = f"lower({_column('title', True)})"
        order = " + ".join(f"({title} LIKE ?)" for _ in words) + " DESC, " + order
        rank = [f"%{w}%" for w in words]
    table = depositions.name
    sql = f"SELECT id, count(*) OVER () FROM {table} WHERE {where} ORDER BY {order}, id LIMIT ? OFFSET ?"
    rows = db.conn.exec_driver_sql(sql, (*values, *rank, size, (page - 1) * size)).all()
    if rows:
        return int(rows[0][1]), [int(r[0]) for r in rows]
    total = db.conn.exec_driver_sql(f"SELECT count(*) FROM {table} WHERE {where}", tuple(values)).scalar_one()
    return int(total), []
