"""OpenAlex's list parameters compiled to SQL: the `filter` syntax subset (attribute:value pairs joined by commas
for AND, `|` for OR within a value, `+` for AND within an attribute, `!` to negate, `<` / `>` and `a-b` ranges on
numbers, `.search` attributes), the `search` words, `sort` keys and the page / cursor window."""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from typing import Any, Callable

from envfactory_gym import InvalidRequest

from .ids import normalize_id

MAX_BASIC_RESULTS = 10000  # page * per_page may not pass the first 10,000 results; cursor paging is for more


@dataclass(frozen=True)
class Field:
    kind: str  # int | bool | text | id | index | date_from | date_to | search | cites | cited_by | issn
    column: str
    id_prefix: str = ""


def _f(kind: str, column: str, id_prefix: str = "") -> Field:
    return Field(kind, column, id_prefix)


WORK_FIELDS: dict[str, Field] = {
    "publication_year": _f("int", "publication_year"),
    "from_publication_date": _f("date_from", "publication_date"),
    "to_publication_date": _f("date_to", "publication_date"),
    "publication_date": _f("text", "publication_date"),
    "type": _f("text", "type"),
    "language": _f("text", "language"),
    "is_oa": _f("bool", "is_oa"),
    "open_access.is_oa": _f("bool", "is_oa"),
    "oa_status": _f("text", "oa_status"),
    "open_access.oa_status": _f("text", "oa_status"),
    "primary_location.license": _f("text", "license"),
    "cited_by_count": _f("int", "cited_by_count"),
    "is_retracted": _f("bool", "is_retracted"),
    "doi": _f("text", "doi"),
    "authorships.author.id": _f("index", "author_ids", "A"),
    "author.id": _f("index", "author_ids", "A"),
    "authorships.institutions.id": _f("index", "institution_ids", "I"),
    "institutions.id": _f("index", "institution_ids", "I"),
    "authorships.institutions.country_code": _f("index", "country_codes"),
    "institutions.country_code": _f("index", "country_codes"),
    "primary_location.source.id": _f("id", "source_id", "S"),
    "primary_topic.id": _f("id", "primary_topic_id", "T"),
    "topics.id": _f("index", "topic_ids", "T"),
    "cites": _f("cites", "id", "W"),
    "cited_by": _f("cited_by", "id", "W"),
    "title.search": _f("search", "title"),
    "abstract.search": _f("search", "abstract"),
    "title_and_abstract.search": _f("search", "title || ' ' || abstract"),
}
AUTHOR_FIELDS: dict[str, Field] = {
    "display_name.search": _f("search", "display_name"),
    "last_known_institutions.id": _f("id", "last_known_institution_id", "I"),
    "last_known_institution.id": _f("id", "last_known_institution_id", "I"),
    "has_orcid": _f("bool", "orcid IS NOT NULL"),
    "orcid": _f("text", "orcid"),
    "works_count": _f("int", "works_count"),
    "cited_by_count": _f("int", "cited_by_count"),
    "summary_stats.h_index": _f("int", "h_index"),
}
INSTITUTION_FIELDS: dict[str, Field] = {
    "display_name.search": _f("search", "display_name"),
    "country_code": _f("text", "country_code"),
    "type": _f("text", "type"),
    "ror": _f("text", "ror"),
    "works_count": _f("int", "works_count"),
    "cited_by_count": _f("int", "cited_by_count"),
}
SOURCE_FIELDS: dict[str, Field] = {
    "display_name.search": _f("search", "display_name"),
    "type": _f("text", "type"),
    "is_oa": _f("bool", "is_oa"),
    "issn": _f("text", "issn_l"),
    "country_code": _f("text", "country_code"),
    "works_count": _f("int", "works_count"),
    "cited_by_count": _f("int", "cited_by_count"),
}
TOPIC_FIELDS: dict[str, Field] = {
    "display_name.search": _f("search", "display_name"),
    "subfield.id": _f("int", "subfield_id"),
    "field.id": _f("int", "field_id"),
    "domain.id": _f("int", "domain_id"),
    "works_count": _f("int", "works_count"),
}

SORTS: dict[str, dict[str, str]] = {
    "works": {
        "publication_date": "publication_date",
        "publication_year": "publication_year",
        "cited_by_count": "cited_by_count",
        "display_name": "lower(title)",
        "title": "lower(title)",
    },
    "authors": {
        "display_name": "lower(display_name)",
        "cited_by_count": "cited_by_count",
        "works_count": "works_count",
    },
    "institutions": {
        "display_name": "lower(display_name)",
        "cited_by_count": "cited_by_count",
        "works_count": "works_count",
    },
    "sources": {
        "display_name": "lower(display_name)",
        "cited_by_count": "cited_by_count",
        "works_count": "works_count",
    },
    "topics": {"display_name": "lower(display_name)", "works_count": "works_count"},
}
SEARCH_COLUMNS = {
    "works": "title || ' ' || abstract",
    "authors": "display_name",
    "institutions": "display_name",
    "sources": "display_name",
    "topics": "display_name || ' ' || keywords",
}
FIELDS = {
    "works": WORK_FIELDS,
    "authors": AUTHOR_FIELDS,
    "institutions": INSTITUTION_FIELDS,
    "sources": SOURCE_FIELDS,
    "topics": TOPIC_FIELDS,
}


@dataclass(frozen=True)
class Compiled:
    sql: str
    params: list[Any]


def _invalid(key: str, value: str, why: str) -> InvalidRequest:
    return InvalidRequest(f"Invalid filter: {key}:{value} ({why})")


def _number(key: str, raw: str) -> int:
    if not re.fullmatch(r"\d+", raw):
        raise _invalid(key, raw, f"{key} expects an integer")
    return int(raw)


def _one(key: str, field: Field, raw: str) -> tuple[str, list[Any]]:
    """SQL for one value (no `|`, `+` or `!`) of one attribute."""
    col = field.column
    if field.kind == "int":
        if m := re.fullmatch(r"([<>])(\d+)", raw):
            return f"{col} {m.group(1)} ?", [int(m.group(2))]
        if m := re.fullmatch(r"(\d+)-(\d+)", raw):
            return f"{col} BETWEEN ? AND ?", [int(m.group(1)), int(m.group(2))]
        return f"{col} = ?", [_number(key, raw)]
    if field.kind == "bool":
        if raw.lower() not in ("true", "false"):
            raise _invalid(key, raw, f"{key} expects true or false")
        truth = raw.lower() == "true"
        if " IS " in col:
            return (col if truth else f"NOT ({col})"), []
        return f"{col} = ?", [truth]
    if field.kind in ("date_from", "date_to"):
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw):
            raise _invalid(key, raw, f"{key} expects a date as YYYY-MM-DD")
        return f"{col} {'>=' if field.kind == 'date_from' else '<='} ?", [raw]
    if field.kind == "search":
        words = raw.lower().split()
        return " AND ".join(f"lower({col}) LIKE ?" for _ in words) or "1", [f"%{w}%" for w in words]
    if field.kind == "text":
        if key == "doi":
            raw = "https://doi.org/" + re.sub(r"^(https?://(dx\.)?doi\.org/|doi:)", "", raw, flags=re.I)
        return f"lower({col}) = ?", [raw.lower()]
    if field.kind == "index":
        token = normalize_id(raw, field.id_prefix) if field.id_prefix else raw.upper()
        return f"{col} LIKE ?", [f"%|{token}|%"]
    token = normalize_id(raw, field.id_prefix)
    if field.kind == "id":
        return f"{col} = ?", [token]
    if field.kind == "cites":
        return "id IN (SELECT citing_id FROM referenced_works WHERE cited_id = ?)", [token]
    return "id IN (SELECT cited_id FROM referenced_works WHERE citing_id = ?)", [token]  # cited_by


def _clause(key: str, field: Field, value: str) -> tuple[str, list[Any]]:
    negate = value.startswith("!")
    body = value[1:] if negate else value
    if not body:
        raise _invalid(key, value, "empty value")
    if "+" in body and field.kind in ("int", "bool", "search"):
        raise _invalid(key, value, "'+' does not work for search, boolean or numeric filters")
    ors: list[str] = []
    params: list[Any] = []
    for alternative in body.split("|"):
        ands = []
        for part in alternative.split("+"):
            sql, p = _one(key, field, part.strip())
            ands.append(f"({sql})")
            params += p
        ors.append(" AND ".join(ands))
    sql = " OR ".join(f"({o})" for o in ors)
    return (f"NOT ({sql})" if negate else f"({sql})"), params


def compile_filter(entity: str, filter: str) -> Compiled:
    """The SQL WHERE clause for an OpenAlex `filter` string on one entity's list."""
    fields = FIELDS[entity]
    clauses: list[str] = []
    params: list[Any] = []
    for pair in (p.strip() for p in filter.split(",")):
        if not pair:
            continue
        key, sep, value = pair.partition(":")
        key = key.strip().lower()
        if not sep:
            raise InvalidRequest(f"Invalid filter: '{pair}' is not attribute:value")
        if key not in fields:
            raise InvalidRequest(
                f"Invalid filter: Unknown filter field: {key}. Valid {entity} filters: {', '.join(sorted(fields))}"
            )
        sql, p = _clause(key, fields[key], value.strip())
        clauses.append(sql)
        params += p
    return Compiled(" AND ".join(clauses), params)


def compile_search(entity: str, search: str) -> Compiled:
    words = search.lower().split()
    col = SEARCH_COLUMNS[entity]
    return Compiled(" AND ".join(f"lower({col}) LIKE ?" for _ in words), [f"%{w}%" for w in words])


def relevance(entity: str, search: str) -> Callable[[dict[str, Any]], int]:
    """A deterministic relevance score: title / name hits count three times as much as abstract hits."""
    words = search.lower().split()
    name = "title" if entity == "works" else "display_name"

    def score(row: dict[str, Any]) -> int:
        head = str(row[name]).lower()
        body = str(row.get("abstract") or row.get("keywords") or "").lower()
        return sum(3 * head.count(w) + body.count(w) for w in words)

    return score


def order_by(entity: str, sort: str | None, searching: bool) -> tuple[str, bool]:
    """The SQL ORDER BY for a `sort` value and whether relevance_score leads (it needs a search)."""
    if not sort:
        return ("cited_by_count DESC, id" if entity != "topics" else "works_count DESC, id"), searching
    allowed = SORTS[entity]
    terms: list[str] = []
    by_relevance = False
    for key in (k.strip() for k in sort.split(",")):
        name, _, direction = key.partition(":")
        if direction not in ("", "asc", "desc"):
            raise InvalidRequest(f"Invalid sort direction '{direction}' in '{key}': use asc or desc")
        if name == "relevance_score":
            if not searching:
                raise InvalidRequest(
                    "relevance_score sort requires a search: sorting by relevance_score without a search is not allowed"
                )
            by_relevance = not terms
            continue
        if name not in allowed:
            raise InvalidRequest(
                f"Invalid sort field: {name}. Valid sort fields for {entity}: "
                f"{', '.join([*allowed, 'relevance_score'])}"
            )
        terms.append(f"{allowed[name]} {'DESC' if direction == 'desc' else 'ASC'}")
    return ", ".join([*terms, "id"]), by_relevance


def cursor_for(query_key: str, offset: int) -> str:
    return base64.urlsafe_b64encode(f"{query_key}:{offset}".encode()).decode().rstrip("=")


def query_key(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:10]


def offset_of(cursor: str, key: str) -> int:
    """The offset a cursor from next_cursor points at; '*' starts; a cursor of another query is refused."""
    if cursor == "*":
        return 0
    try:
        decoded = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        made_for, _, offset = decoded.rpartition(":")
        if made_for == key:
            return int(offset)
    except (ValueError, UnicodeDecodeError):
        pass
    raise InvalidRequest(
        "Invalid cursor: use cursor=* for the first page, then the meta.next_cursor of the previous response of "
        "the same query (filter, search and sort unchanged)"
    )
