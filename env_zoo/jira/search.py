"""JQL resolved against the site: what values name, what an issue holds for a field, and ORDER BY."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, InvalidRequest

from .access import has_permission, me
from .jql import Context, Func, Query, Value
from .schema import (
    comments,
    components,
    issue_types,
    issues,
    priorities,
    projects,
    resolutions,
    sprints,
    statuses,
    users,
    versions,
    watchers,
)

CATEGORIES = {"to do": "new", "new": "new", "in progress": "indeterminate", "indeterminate": "indeterminate",
              "done": "done", "complete": "done"}


def _named(rows: list[dict[str, Any]], value: str, *columns: str) -> set[Any]:
    lowered = value.strip().lower()
    return {r["id"] for r in rows if any(str(r[c]).lower() == lowered for c in columns)}


class SiteIndex:
    """Everything a search over the browsable issues needs, read once."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.me = me(db)["account_id"]
        self.projects = [p for p in db.find(projects) if has_permission(db, p, "BROWSE_PROJECTS")]
        visible = {p["id"] for p in self.projects}
        self.issues = [i for i in db.find(issues) if i["project_id"] in visible]
        self.statuses = {s["id"]: s for s in db.find(statuses)}
        self.priorities = db.find(priorities)
        self.users = db.find(users)
        self.names = {u["account_id"]: u["display_name"] for u in self.users}
        self.watchers: dict[str, list[str]] = {}
        for w in db.find(watchers):
            self.watchers.setdefault(w["issue_id"], []).append(w["account_id"])
        self._comments: dict[str, str] | None = None

    def comment_text(self, issue_id: str) -> str:
        if self._comments is None:
            self._comments = {}
            for c in self.db.find(comments):
                self._comments[c["issue_id"]] = self._comments.get(c["issue_id"], "") + "\n" + c["body"]
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
            return {i["id"] for i in self.issues if i["key"].lower() == lowered or i["id"] == lowered}
        if name == "issuetype":
            return _named(self.db.find(issue_types), value, "name", "id")
        if name == "status":
            return _named(list(self.statuses.values()), value, "name", "id")
        if name == "statuscategory":
            return {CATEGORIES[lowered]} if lowered in CATEGORIES else set()
        if name in ("assignee", "reporter", "watcher"):
            return {u["account_id"] for u in self.users if lowered in (
                u["account_id"].lower(), u["display_name"].lower(), u["email_address"].lower())}
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
            states = {"opensprints": ("active", "future"), "closedsprints": ("closed",),
                      "futuresprints": ("future",)}[func.name]
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
            "project": issue["project_id"], "key": issue["id"], "issuetype": issue["issue_type_id"],
            "status": issue["status_id"], "statuscategory": self.statuses[issue["status_id"]]["category"],
            "assignee": issue["assignee_account_id"], "reporter": issue["reporter_account_id"],
            "priority": issue["priority_id"], "resolution": issue["resolution_id"], "parent": issue["parent_id"],
            "storypoints": issue["story_points"], "created": issue["created"], "updated": issue["updated"],
            "resolved": issue["resolution_date"], "duedate": issue["due_date"],
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
        column = {"issuetype": "issue_type_id", "storypoints": "story_points", "resolved": "resolution_date",
                  "duedate": "due_date"}.get(name, name)
        return issue[column]
