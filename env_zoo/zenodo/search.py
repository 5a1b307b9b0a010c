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
        columns = FIELDS[field] if field else ANYWHERE
        escaped = json.dumps(value)[1:-1]  # how JSON columns (creators, keywords) store non-ASCII letters
        clauses.append(
            "("
            + " OR ".join(f"lower(coalesce({_column(c, public)}, '')) LIKE ?" for c in columns for _ in range(2))
            + ")"
        )
        params.extend(p for _ in columns for p in (f"%{value}%", f"%{escaped}%"))
        words.append(value)
    return clauses, params, words


def search_records(db: Database, q: str | None, extra: list[str], extra_params: list[Any], sort: str) -> list[dict]:
    """Published records matching `q` and extra SQL filters, in the order `sort` asks for."""
    clauses, params, words = where_clause(q, public=True)
    where = " AND ".join(["submitted = 1", *clauses, *extra])
    order = {"mostrecent": "published DESC", "-mostrecent": "published ASC"}.get(sort, "published DESC")
    rows = db.select(depositions, where, [*params, *extra_params], order_by=order)
    if sort == "bestmatch" and words:
        rows.sort(key=lambda r: -sum(w in r["title"].lower() for w in words))
    return rows
