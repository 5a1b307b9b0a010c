"""JQL resolved against the site: what values name, what an issue holds for a field, and ORDER BY."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from envfactory_gym import Database, InvalidRequest
from envfactory_gym.fastpath import reader

from .access import browsable_projects, me
from .jql import TEXT_FIELDS, Clause, Context, Func, Query, Value, matcher, text_match
from .schema import (
    comments,
    components,
    issue_types,
    issues,
    priorities,
    resolutions,
    sprints,
    statuses,
    users,
    versions,
    watchers,
)

CATEGORIES = {
    "to do": "new",
    "new": "new",
    "in progress": "indeterminate",
    "indeterminate": "indeterminate",
    "done": "done",
    "complete": "done",
}
#: Fields holding one value, and the issue column that holds it: clauses on them narrow the rows SQL reads.
COLUMNS = {
    "project": "project_id",
    "key": "id",
    "issuetype": "issue_type_id",
    "status": "status_id",
    "assignee": "assignee_account_id",
    "reporter": "reporter_account_id",
    "priority": "priority_id",
    "resolution": "resolution_id",
    "parent": "parent_id",
    "statuscategory": "status_id",
}


def _named(rows: list[dict[str, Any]], value: str, *columns: str) -> set[Any]:
    lowered = value.strip().lower()
    return {r["id"] for r in rows if any(str(r[c]).lower() == lowered for c in columns)}


def _conjuncts(node: Any) -> list[Any]:
    """The parts every match must satisfy: the operands of a top-level AND (nested ANDs flattened)."""
    if node is None:
        return []
    if getattr(node, "op", None) == "and" and not isinstance(node, Clause):
        return [part for inner in node.parts for part in _conjuncts(inner)]
    return [node]


def _placeholders(values: list[Any]) -> str:
    return ", ".join("?" * len(values))


class SiteIndex:
    """Everything a search over the browsable issues needs, read once per search."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.me = me(db)["account_id"]
        self.projects = browsable_projects(db)
        self.statuses = {s["id"]: s for s in db.find(statuses)}
        self.priorities = db.find(priorities)
        self.users = db.find(users)
        self.names = {u["account_id"]: u["display_name"] for u in self.users}
        self._candidates: list[str] = []
        self._comments: dict[str, str] | None = None

    def search(self, query: Query) -> list[dict[str, Any]]:
        """The browsable issues matching the query, in its order. Clauses every match must meet on one-valued
        fields and sprints become SQL conditions and text clauses are tested on the raw rows, so only rows that may
        match are decoded; the whole condition is then checked on those rows."""
        check = matcher(query.where, self.context())  # JQL errors first, as Jira reports them
        where, params = self._narrowing(query.where)
        table = reader(issues)
        visible = [p["id"] for p in self.projects]
        sql = (
            f"{table.select} WHERE project_id IN ({_placeholders(visible)})"  # type: ignore[union-attr]
            f"{''.join(' AND ' + w for w in where)}"
        )
        raw = self.db.state.raw.execute(sql, (*visible, *params)).fetchall()
        at = {name: index for index, name in enumerate(table.names)}  # type: ignore[union-attr]
        self._candidates = [values[at["id"]] for values in raw]
        words = [
            c
            for c in _conjuncts(query.where)
            if isinstance(c, Clause) and c.field in TEXT_FIELDS and c.op == "~" and isinstance(c.value, str)
        ]
        if words:  # text every match must contain, tested before the row is decoded
            raw = [
                values
                for values in raw
                if all(
                    text_match(
                        self.text(
                            {
                                "id": values[at["id"]],
                                "summary": values[at["summary"]],
                                "description": values[at["description"]],
                            },
                            clause.field,
                        ),
                        clause.value,
                    )
                    for clause in words
                )
            ]
        rows = [table.decode(values) for values in raw]  # type: ignore[union-attr]
        return self.sort([r for r in rows if check(r)], query)

    def _narrowing(self, where: Any) -> tuple[list[str], list[Any]]:
        """SQL conditions (and their parameters) that the top-level clauses on one-valued fields and sprints imply:
        each selects every row its clause matches (on one-valued fields exactly those rows). Past sprints are found
        in the JSON text of closed_sprint_ids by their number, a superset the clause's own check then narrows
        (json_each in a correlated subquery crashes SQLite 3.40)."""
        conditions: list[str] = []
        params: list[Any] = []
        for clause in _conjuncts(where):
            if not isinstance(clause, Clause) or (clause.field not in COLUMNS and clause.field != "sprint"):
                continue
            name, op, value = clause.field, clause.op, clause.value
            if name == "resolution" and isinstance(value, str) and value.lower() == "unresolved" and op in ("=", "!="):
                op, value = ("is" if op == "=" else "is not"), None
            if op not in ("=", "!=", "in", "not in", "is", "is not"):
                continue
            if name == "sprint":
                condition = self._sprint_condition(op, value, params)
                if condition:
                    conditions.append(condition)
                continue
            column = COLUMNS[name]
            if op in ("is", "is not") or value is None:
                conditions.append(f"{column} {'IS' if op in ('is', '=') else 'IS NOT'} NULL")
                continue
            wanted = self._wanted(name, value)
            if name == "statuscategory":
                wanted = {s["id"] for s in self.statuses.values() if s["category"] in wanted}
            ids = sorted(wanted, key=str)
            conditions.append(
                f"{column} IN ({_placeholders(ids)})"
                if op in ("=", "in")
                else f"{column} IS NOT NULL AND {column} NOT IN ({_placeholders(ids)})"
            )
            params += ids
        return conditions, params

    def _wanted(self, name: str, value: Value) -> set[Any]:
        wanted: set[Any] = set()
        for item in value if isinstance(value, list) else [value]:
            wanted |= self.resolve(name, item)
        return wanted

    def _sprint_condition(self, op: str, value: Value, params: list[Any]) -> str | None:
        """Rows a sprint clause may match: in the sprint now, or holding its number among their past sprints."""
        in_any = "(sprint_id IS NOT NULL OR json_array_length(closed_sprint_ids) > 0)"
        if op in ("is", "is not") or value is None:
            return f"NOT {in_any}" if op in ("is", "=") else in_any
        if op in ("!=", "not in"):
            return in_any  # every row in some sprint may be in another one
        ids = sorted(self._wanted("sprint", value))
        if not ids:
            return "0"
        params += ids + [f"%{i}%" for i in ids]
        past = " OR ".join(["closed_sprint_ids LIKE ?"] * len(ids))
        return f"(ifnull(sprint_id IN ({_placeholders(ids)}), 0) OR {past})"

    @cached_property
    def watchers(self) -> dict[str, list[str]]:
        """Who watches each issue (read only when a query asks)."""
        found: dict[str, list[str]] = {}
        for w in self.db.find(watchers):
            found.setdefault(w["issue_id"], []).append(w["account_id"])
        return found

    def comment_text(self, issue_id: str) -> str:
        """The comments on an issue as one text (those of the search's rows are read on the first ask)."""
        if self._comments is None:
            self._comments = {}
            sql = (
                f"SELECT issue_id, body FROM {comments.name} WHERE issue_id IN "
                f"({_placeholders(self._candidates)}) ORDER BY id"
            )
            for owner, body in self.db.state.raw.execute(sql, self._candidates):
                self._comments[owner] = self._comments.get(owner, "") + "\n" + body
        return self._comments.get(issue_id, "")

    # ------------------------------------------------------------ resolving values

    def resolve(self, name: str, value: Value) -> set[Any]:
        if isinstance(value, Func):
            return self._function(name, value)
        assert isinstance(value, str)
        found = self._lookup(name, value)
        if not found:
            if name == "key":
                raise InvalidRequest(f"An issue with key '{value}' does not exist for field 'key'.")
            raise InvalidRequest(f"The value '{value}' does not exist for the field '{name}'.")
        return found

    def _lookup(self, name: str, value: str) -> set[Any]:
        lowered = value.strip().lower()
        if name == "project":
            return _named(self.projects, value, "key", "name", "id")
        if name in ("key", "parent"):
            visible = [p["id"] for p in self.projects]
            sql = (
                f"SELECT id FROM {issues.name} WHERE (lower(key) = ? OR id = ?) "
                f"AND project_id IN ({_placeholders(visible)})"
            )
            return {row[0] for row in self.db.state.raw.execute(sql, (lowered, lowered, *visible))}
        if name == "issuetype":
            return _named(self.db.find(issue_types), value, "name", "id")
        if name == "status":
            return _named(list(self.statuses.values()), value, "name", "id")
        if name == "statuscategory":
            return {CATEGORIES[lowered]} if lowered in CATEGORIES else set()
        if name in ("assignee", "reporter", "watcher"):
            return {
                u["account_id"]
                for u in self.users
                if lowered in (u["account_id"].lower(), u["display_name"].lower(), u["email_address"].lower())
            }
        if name == "priority":
            return _named(self.priorities, value, "name", "id")
        if name == "labels":
            return {lowered}
        if name == "component":
            return _named(self._in_projects(components), value, "name", "id")
        if name == "fixversion":
            return _named(self._in_projects(versions), value, "name", "id")
        if name == "sprint":
            return _named(self.db.find(sprints), value, "name", "id")
        if name == "resolution":
            return _named(self.db.find(resolutions), value, "name", "id")
        if name == "storypoints":
            return {self.rank(name, value)}
        raise InvalidRequest(f"The operator '=' is not supported by the '{name}' field.")

    def _in_projects(self, table: Any) -> list[dict[str, Any]]:
        visible = {p["id"] for p in self.projects}
        return [r for r in self.db.find(table) if r["project_id"] in visible]

    def _function(self, name: str, func: Func) -> set[Any]:
        if func.name == "currentuser" and name in ("assignee", "reporter", "watcher"):
            return {self.me}
        if name == "sprint" and func.name in ("opensprints", "closedsprints", "futuresprints"):
            states = {"opensprints": ("active", "future"), "closedsprints": ("closed",), "futuresprints": ("future",)}[
                func.name
            ]
            return {s["id"] for s in self.db.find(sprints) if s["state"] in states}
        if name == "fixversion" and func.name in ("releasedversions", "unreleasedversions"):
            rows = self._in_projects(versions)
            if func.args:
                keys = {a.lower() for a in func.args}
                ids = {p["id"] for p in self.projects if p["key"].lower() in keys or p["name"].lower() in keys}
                rows = [v for v in rows if v["project_id"] in ids]
            released = func.name == "releasedversions"
            return {v["id"] for v in rows if v["released"] == released}
        raise InvalidRequest(f"Function '{func.name}()' is not supported for the field '{name}'.")

    # ------------------------------------------------------------ an issue's values

    def facts(self, issue: dict[str, Any], name: str) -> list[Any]:
        single = {
            "project": issue["project_id"],
            "key": issue["id"],
            "issuetype": issue["issue_type_id"],
            "status": issue["status_id"],
            "statuscategory": self.statuses[issue["status_id"]]["category"],
            "assignee": issue["assignee_account_id"],
            "reporter": issue["reporter_account_id"],
            "priority": issue["priority_id"],
            "resolution": issue["resolution_id"],
            "parent": issue["parent_id"],
            "storypoints": issue["story_points"],
            "created": issue["created"],
            "updated": issue["updated"],
            "resolved": issue["resolution_date"],
            "duedate": issue["due_date"],
        }
        if name in single:
            return [] if single[name] is None else [single[name]]
        if name == "labels":
            return [label.lower() for label in issue["labels"]]
        if name == "component":
            return list(issue["component_ids"])
        if name == "fixversion":
            return list(issue["fix_version_ids"])
        if name == "sprint":
            return ([issue["sprint_id"]] if issue["sprint_id"] is not None else []) + list(issue["closed_sprint_ids"])
        return list(self.watchers.get(issue["id"], []))  # watcher

    def text(self, issue: dict[str, Any], name: str) -> str:
        parts = {"summary": issue["summary"], "description": issue["description"] or ""}
        if name in parts:
            return parts[name]
        if name == "comment":
            return self.comment_text(issue["id"])
        return "\n".join([parts["summary"], parts["description"], self.comment_text(issue["id"])])

    def rank(self, name: str, value: Any) -> float:
        if name == "priority":
            ids = _named(self.priorities, str(value), "name", "id")
            if not ids:
                raise InvalidRequest(f"The value '{value}' does not exist for the field 'priority'.")
            return 6.0 - int(next(iter(ids)))  # 1 Highest ... 5 Lowest
        try:
            return float(value)
        except ValueError:
            raise InvalidRequest(f"The value '{value}' is not a number for the field 'Story point estimate'.") from None

    def context(self) -> Context:
        return Context(self.resolve, self.facts, self.text, self.rank, self.db.now())

    # ------------------------------------------------------------ ORDER BY

    def sort(self, rows: list[dict[str, Any]], query: Query) -> list[dict[str, Any]]:
        """Rows in the query's order; without ORDER BY, newest first (ties: highest key number first)."""
        rows = sorted(rows, key=self._key_number, reverse=True)
        order = query.order or [("created", True)]
        for name, descending in reversed(order):
            present = [r for r in rows if self._sort_value(r, name) is not None]
            missing = [r for r in rows if self._sort_value(r, name) is None]
            present.sort(key=lambda r: self._sort_value(r, name), reverse=descending)
            rows = present + missing  # empty values sort last either way
        return rows

    @staticmethod
    def _key_number(issue: dict[str, Any]) -> tuple[str, int]:
        project, number = issue["key"].rsplit("-", 1)
        return project, int(number)

    def _sort_value(self, issue: dict[str, Any], name: str) -> Any:
        if name == "key":
            return self._key_number(issue)
        if name == "rank":
            return int(issue["id"])
        if name == "priority":
            return self.rank("priority", issue["priority_id"])
        if name == "status":
            return self.statuses[issue["status_id"]]["name"]
        if name == "assignee":
            return self.names.get(issue["assignee_account_id"])
        column = {
            "issuetype": "issue_type_id",
            "storypoints": "story_points",
            "resolved": "resolution_date",
            "duedate": "due_date",
        }.get(name, name)
        return issue[column]
