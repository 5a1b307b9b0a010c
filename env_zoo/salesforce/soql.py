"""A subset of SOQL, translated to SQL on the object's table: SELECT fields (parent fields through Account.,
Owner., Who. and What. relationships, or COUNT()) FROM one object, WHERE comparisons (=, !=, <, <=, >, >=, LIKE,
IN, NOT IN) joined by AND / OR with parentheses, ORDER BY, LIMIT and OFFSET. Values are quoted strings, numbers,
true/false/null, dates (2026-03-31) and the date literals TODAY, YESTERDAY, TOMORROW, LAST_N_DAYS:n and
NEXT_N_DAYS:n. Deleted records are left out, as SOQL does."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Table

from envfactory_gym import Database

from .rules import PREFIXES, sf_error
from .schema import contact_roles

TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^'\\]|\\.)*')|(?P<op>!=|<=|>=|<>|=|<|>|\(|\)|,)|(?P<word>[A-Za-z_][\w.]*(?::\d+)?)"
    r"|(?P<num>-?\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z)?|-?\d+(?:\.\d+)?))"
)
#: Relationship name -> (lookup field, objects it may point at).
RELATIONSHIPS = {"Account": ("AccountId", ("Account",)), "Owner": ("OwnerId", ("User",)),
                 "Parent": ("ParentId", ("Account",)), "Contact": ("ContactId", ("Contact",)),
                 "Opportunity": ("OpportunityId", ("Opportunity",)), "Who": ("WhoId", ("Contact", "Lead")),
                 "What": ("WhatId", ("Account", "Opportunity", "Case"))}  # fmt: skip
#: The objects a query may read, by name.
TABLES: dict[str, Table] = {name: table for name, (_, table) in PREFIXES.items()} | {
    "OpportunityContactRole": contact_roles
}
MAX_ROWS = 200


def malformed(near: str) -> Exception:
    return sf_error("MALFORMED_QUERY", f"unexpected token: '{near}'")


@dataclass
class Query:
    """A parsed query: what to select from which object, the SQL filter and its parameters, order and window."""

    sobject: str
    fields: list[str]
    count: bool = False
    where: str = ""
    params: list[Any] = field(default_factory=list)
    order_by: str = ""
    limit: int | None = None
    offset: int = 0


class Parser:
    """Reads one SOQL statement token by token."""

    def __init__(self, text: str, today: date, tables: dict[str, Any]) -> None:
        self.tokens: list[str] = []
        pos, text = 0, text.strip()
        while pos < len(text):
            match = TOKEN.match(text, pos)
            if match is None or match.end() == pos:
                raise malformed(text[pos : pos + 10].strip())
            self.tokens.append(match.group(0).strip())
            pos = match.end()
        self.at, self.today, self.tables = 0, today, tables

    def peek(self) -> str:
        return self.tokens[self.at] if self.at < len(self.tokens) else ""

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if not token or (expected is not None and token.upper() != expected):
            raise malformed(token or "<EOF>")
        self.at += 1
        return token

    def keyword(self, word: str) -> bool:
        if self.peek().upper() == word:
            self.at += 1
            return True
        return False

    def parse(self) -> Query:
        self.take("SELECT")
        names, count = [], False
        while True:
            name = self.take()
            if name.upper() == "COUNT" and self.peek() == "(":
                self.take("(")
                self.take(")")
                count = True
            else:
                names.append(name)
            if not self.keyword(","):
                break
        self.take("FROM")
        sobject = self.object_name(self.take())
        query = Query(sobject, names, count)
        for name in names:
            self.column(sobject, name)
        clauses, params = ['"IsDeleted" = 0'] if "IsDeleted" in self.tables[sobject].c else [], []
        if self.keyword("WHERE"):
            clauses.append(f"({self.disjunction(sobject, params)})")
        query.where, query.params = " AND ".join(clauses), params
        if self.keyword("ORDER"):
            self.take("BY")
            parts = []
            while True:
                column = self.column(sobject, self.take(), sortable=True)
                direction = "DESC" if self.keyword("DESC") else ("ASC", self.keyword("ASC"))[0]
                nulls = "NULLS LAST" if direction == "ASC" else "NULLS FIRST"
                if self.keyword("NULLS"):
                    nulls = "NULLS " + ("FIRST" if self.keyword("FIRST") else self.take("LAST").upper())
                parts.append(f"{column} {direction} {nulls}")
                if not self.keyword(","):
                    break
            query.order_by = ", ".join(parts)
        if self.keyword("LIMIT"):
            query.limit = self.integer()
        if self.keyword("OFFSET"):
            query.offset = self.integer()
        if self.peek():
            raise malformed(self.peek())
        return query

    def integer(self) -> int:
        token = self.take()
        if not token.isdigit():
            raise malformed(token)
        return int(token)

    def object_name(self, name: str) -> str:
        found = next((o for o in self.tables if o.lower() == name.lower()), None)
        if found is None:
            raise sf_error("INVALID_TYPE", f"sObject type '{name}' is not supported.")
        return found

    def column(self, sobject: str, name: str, sortable: bool = False) -> str:
        """The SQL for a field of `sobject` (a parent's field through a relationship becomes a subquery)."""
        table = self.tables[sobject]
        if "." in name:
            relation, _, parent_field = name.partition(".")
            lookup, targets = RELATIONSHIPS.get(relation, ("", ()))
            if lookup not in table.c:
                raise self.no_column(sobject, relation)
            parent = self.tables[targets[0]]
            if parent_field not in parent.c or parent_field == "Password":
                raise self.no_column(targets[0], parent_field)
            return f'(SELECT "{parent_field}" FROM "{parent.name}" WHERE "Id" = "{table.name}"."{lookup}")'
        if name not in table.c or name == "Password":
            raise self.no_column(sobject, name)
        return f'"{table.name}"."{name}"' if sortable else f'"{name}"'

    @staticmethod
    def no_column(sobject: str, name: str) -> Exception:
        return sf_error(
            "INVALID_FIELD",
            f"No such column '{name}' on entity '{sobject}'. If you are attempting to use a custom field, be sure "
            "to append the '__c' after the custom field name.",
        )

    def disjunction(self, sobject: str, params: list[Any]) -> str:
        parts = [self.conjunction(sobject, params)]
        while self.keyword("OR"):
            parts.append(self.conjunction(sobject, params))
        return " OR ".join(parts)

    def conjunction(self, sobject: str, params: list[Any]) -> str:
        parts = [self.condition(sobject, params)]
        while self.keyword("AND"):
            parts.append(self.condition(sobject, params))
        return " AND ".join(parts)

    def condition(self, sobject: str, params: list[Any]) -> str:
        if self.keyword("("):
            inner = self.disjunction(sobject, params)
            self.take(")")
            return f"({inner})"
        if self.keyword("NOT"):
            return f"NOT ({self.condition(sobject, params)})"
        column = self.column(sobject, self.take(), sortable=True)
        op = self.take().upper()
        if op == "NOT":
            self.take("IN")
            op = "NOT IN"
        if op in ("IN", "NOT IN"):
            self.take("(")
            values = [self.value()]
            while self.keyword(","):
                values.append(self.value())
            self.take(")")
            params.extend(values)
            return f"{column} {op} ({', '.join('?' for _ in values)})"
        if op not in ("=", "!=", "<>", "<", "<=", ">", ">=", "LIKE"):
            raise malformed(op)
        value = self.value()
        if value is None:
            return f"{column} IS {'NOT ' if op in ('!=', '<>') else ''}NULL"
        params.append(value)
        if op == "LIKE":
            return f"lower({column}) LIKE lower(?)"
        return f"{column} {'!=' if op == '<>' else op} ?"

    def value(self) -> Any:
        token = self.take()
        upper = token.upper()
        if token.startswith("'"):
            return re.sub(r"\\(.)", r"\1", token[1:-1])
        if upper in ("TRUE", "FALSE"):
            return int(upper == "TRUE")
        if upper == "NULL":
            return None
        relative = {"TODAY": 0, "YESTERDAY": -1, "TOMORROW": 1}
        if upper in relative:
            return (self.today + timedelta(days=relative[upper])).isoformat()
        match = re.fullmatch(r"(LAST|NEXT)_N_DAYS:(\d+)", upper)
        if match:
            days = int(match.group(2)) * (-1 if match.group(1) == "LAST" else 1)
            return (self.today + timedelta(days=days)).isoformat()
        if re.fullmatch(r"-?\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?|-?\d+(\.\d+)?", token):
            return token if "-" in token[1:] else float(token)
        raise malformed(token)


def run(db: Database, text: str) -> dict[str, Any]:
    """Run a SOQL query: {totalSize, done, records}. totalSize counts every match (after OFFSET and LIMIT); at most
    200 records come back a call, and done is false when more matched (page on with LIMIT and OFFSET)."""
    query = Parser(text, db.now().date(), TABLES).parse()
    end = None if query.limit is None else query.offset + query.limit
    rows = db.select(TABLES[query.sobject], query.where, query.params, order_by=query.order_by, limit=end)
    matched = rows[query.offset :]
    if query.count:
        return {"totalSize": len(matched), "done": True, "records": []}
    records = [project(db, query.sobject, row, query.fields) for row in matched[:MAX_ROWS]]
    return {"totalSize": len(matched), "done": len(records) == len(matched), "records": records}


def project(db: Database, sobject: str, row: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """One record as SOQL returns it: attributes, then the selected fields (parents nested by relationship)."""
    record: dict[str, Any] = {
        "attributes": {"type": sobject, "url": f"/services/data/v60.0/sobjects/{sobject}/{row['Id']}"}
    }
    for name in names:
        if "." not in name:
            record[name] = row[name]
            continue
        relation, _, parent_field = name.partition(".")
        lookup, targets = RELATIONSHIPS[relation]
        target = row[lookup]
        parent = None
        if target:
            kind = next((t for t in targets if target.startswith(PREFIXES[t][0])), targets[0])
            found = db.find(TABLES[kind], Id=target)
            parent = found[0] if found else None
        if parent is None:
            record[relation] = None
            continue
        nested = record.get(relation) or {"attributes": {"type": kind}}
        nested[parent_field] = parent.get(parent_field)
        record[relation] = nested
    return record
