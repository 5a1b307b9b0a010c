"""The CRM search request (POST /crm/v3/objects/{objectType}/search): filter groups are ORed, the filters inside one
group ANDed; `query` matches the object's default text properties; one sort; `associations.<type>` filters on an
associated record's id. Everything compiles to one SQL WHERE clause over the object's property columns."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from .errors import validation

STRING, NUMBER, DATETIME, ENUM = "string", "number", "datetime", "enumeration"
PROPERTIES: dict[str, dict[str, str]] = {
    "contacts": {
        "hs_object_id": NUMBER,
        "email": STRING,
        "firstname": STRING,
        "lastname": STRING,
        "phone": STRING,
        "jobtitle": STRING,
        "lifecyclestage": ENUM,
        "hs_lead_status": ENUM,
        "hubspot_owner_id": ENUM,
        "createdate": DATETIME,
        "lastmodifieddate": DATETIME,
    },
    "companies": {
        "hs_object_id": NUMBER,
        "name": STRING,
        "domain": STRING,
        "industry": ENUM,
        "city": STRING,
        "country": STRING,
        "numberofemployees": NUMBER,
        "annualrevenue": NUMBER,
        "lifecyclestage": ENUM,
        "hubspot_owner_id": ENUM,
        "createdate": DATETIME,
        "hs_lastmodifieddate": DATETIME,
    },
    "deals": {
        "hs_object_id": NUMBER,
        "dealname": STRING,
        "pipeline": ENUM,
        "dealstage": ENUM,
        "amount": NUMBER,
        "closedate": DATETIME,
        "dealtype": ENUM,
        "hs_priority": ENUM,
        "closed_lost_reason": STRING,
        "hubspot_owner_id": ENUM,
        "createdate": DATETIME,
        "hs_lastmodifieddate": DATETIME,
    },
    "tasks": {
        "hs_object_id": NUMBER,
        "hs_task_subject": STRING,
        "hs_task_body": STRING,
        "hs_task_status": ENUM,
        "hs_task_priority": ENUM,
        "hs_task_type": ENUM,
        "hs_timestamp": DATETIME,
        "hubspot_owner_id": ENUM,
    },
    "notes": {"hs_object_id": NUMBER, "hs_note_body": STRING, "hs_timestamp": DATETIME, "hubspot_owner_id": ENUM},
}
TEXT_FIELDS = {
    "contacts": ["firstname", "lastname", "email", "phone"],
    "companies": ["name", "domain"],
    "deals": ["dealname"],
    "tasks": ["hs_task_subject"],
    "notes": ["hs_note_body"],
}
ASSOCIATION_FILTERS = {
    "associations.contact": "contacts",
    "associations.company": "companies",
    "associations.deal": "deals",
}
MAX_FILTERS = 25

Operator = Literal[
    "EQ",
    "NEQ",
    "LT",
    "LTE",
    "GT",
    "GTE",
    "BETWEEN",
    "IN",
    "NOT_IN",
    "HAS_PROPERTY",
    "NOT_HAS_PROPERTY",
    "CONTAINS_TOKEN",
    "NOT_CONTAINS_TOKEN",
]


class Filter(BaseModel):
    """One condition on a property: `value` for most operators, `highValue` too for BETWEEN, `values` for IN and
    NOT_IN, nothing for HAS_PROPERTY / NOT_HAS_PROPERTY. Dates are ISO 8601 (2026-03-01 or 2026-03-01T09:00:00Z);
    `associations.contact|company|deal` with EQ matches records associated with that record id."""

    propertyName: str = Field(min_length=1)
    operator: Operator
    value: str | float | None = None
    highValue: str | float | None = None
    values: list[str] | None = None


class FilterGroup(BaseModel):
    """Filters that must all match (AND); groups are alternatives (OR)."""

    filters: list[Filter] = Field(min_length=1, max_length=10)


class Sort(BaseModel):
    """The order of results."""

    propertyName: str
    direction: Literal["ASCENDING", "DESCENDING"] = "ASCENDING"


def _column(object_type: str, name: str) -> tuple[str, str]:
    kind = PROPERTIES[object_type].get(name)
    if kind is None:
        raise validation(f"Property '{name}' does not exist on {object_type}")
    return ('"id"' if name == "hs_object_id" else f'"{name}"'), kind


def _operand(kind: str, value: Any, name: str) -> Any:
    if value is None:
        raise validation(f"Filter on {name} needs a value")
    if kind == NUMBER:
        try:
            return float(value)
        except ValueError:
            raise validation(f"'{value}' is not a number (filter on {name})") from None
    return str(value).strip()


def _condition(object_type: str, f: Filter, params: list[Any]) -> str:
    if f.propertyName in ASSOCIATION_FILTERS:
        other = ASSOCIATION_FILTERS[f.propertyName]
        if f.operator != "EQ" or f.value is None:
            raise validation(f"{f.propertyName} supports only EQ with a record id")
        params.extend([object_type, other, str(f.value), other, object_type, str(f.value)])
        return (
            "id IN (SELECT from_id FROM associations WHERE from_type = ? AND to_type = ? AND to_id = ? "
            "UNION SELECT to_id FROM associations WHERE from_type = ? AND to_type = ? AND from_id = ?)"
        )
    column, kind = _column(object_type, f.propertyName)
    cast = f"CAST({column} AS REAL)" if kind == NUMBER else f"lower({column})"
    op = f.operator
    if op == "HAS_PROPERTY":
        return f"({column} IS NOT NULL AND {column} != '')"
    if op == "NOT_HAS_PROPERTY":
        return f"({column} IS NULL OR {column} = '')"
    if op in ("IN", "NOT_IN"):
        if not f.values:
            raise validation(f"{op} on {f.propertyName} needs values")
        items = [_operand(kind, v, f.propertyName) for v in f.values]
        params.extend(v.lower() if isinstance(v, str) else v for v in items)
        marks = ", ".join("?" * len(items))
        return f"{cast} IN ({marks})" if op == "IN" else f"({column} IS NULL OR {cast} NOT IN ({marks}))"
    low = _operand(kind, f.value, f.propertyName)
    if isinstance(low, str):
        low = low.lower()
    if op in ("CONTAINS_TOKEN", "NOT_CONTAINS_TOKEN"):
        params.append("%" + str(low).replace("*", "") + "%")
        return f"{cast} LIKE ?" if op == "CONTAINS_TOKEN" else f"({column} IS NULL OR {cast} NOT LIKE ?)"
    if op == "BETWEEN":
        high = _operand(kind, f.highValue, f.propertyName)
        params.extend([low, high.lower() if isinstance(high, str) else high])
        return f"{cast} BETWEEN ? AND ?"
    sql = {"EQ": "=", "NEQ": "!=", "LT": "<", "LTE": "<=", "GT": ">", "GTE": ">="}[op]
    params.append(low)
    return f"({column} IS NOT NULL AND {cast} {sql} ?)"


def compile_search(
    object_type: str, groups: list[FilterGroup] | None, query: str | None, sorts: list[Sort] | None
) -> tuple[str, list[Any], str]:
    """WHERE clause, its parameters and ORDER BY for a search request (400 for unknown properties, too many
    filters, or more than one sort)."""
    params: list[Any] = []
    clauses = ["archived = 0"]
    if groups:
        if sum(len(g.filters) for g in groups) > MAX_FILTERS:
            raise validation(f"Too many filters: at most {MAX_FILTERS} filters in all filter groups together")
        ors = [" AND ".join(_condition(object_type, f, params) for f in g.filters) for g in groups]
        clauses.append("(" + " OR ".join(f"({o})" for o in ors) + ")")
    if query and query.strip():
        words = query.strip().lower().split()
        for word in words:
            fields = TEXT_FIELDS[object_type]
            clauses.append("(" + " OR ".join(f"lower(COALESCE(\"{c}\", '')) LIKE ?" for c in fields) + ")")
            params.extend([f"%{word}%"] * len(fields))
    order = "CAST(id AS INTEGER)"
    if sorts:
        column, kind = _column(object_type, sorts[0].propertyName)
        key = f"CAST({column} AS REAL)" if kind == NUMBER else column
        order = f"{key} {'DESC' if sorts[0].direction == 'DESCENDING' else 'ASC'}, CAST(id AS INTEGER)"
    return " AND ".join(clauses), params, order
