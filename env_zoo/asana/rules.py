"""Asana's rules for tasks: due dates and times, start dates, completion, followers added by assigning and
commenting, dependencies (never on itself, never a cycle, at most 30 links), and a task's place in a project."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_

from envfactory_gym import Conflict, Database, InvalidRequest
from envfactory_gym.values import iso_timestamp, parse_date, parse_timestamp

from .schema import sections, stories, task_dependencies, task_followers, task_memberships, task_tags, tasks

MAX_DEPENDENCY_LINKS = 30
CLEAR = "none"


def schedule(current: dict[str, Any], due_on: str | None, due_at: str | None, start_on: str | None) -> dict[str, Any]:
    """The date columns after a change: due_on and due_at exclude each other (due_at sets due_on to its date),
    "none" clears one, and a start date needs a due date on or after it."""
    if due_on is not None and due_at is not None:
        raise InvalidRequest("You may only provide one of due_on or due_at")
    changes: dict[str, Any] = {}
    if due_on is not None:
        changes["due_at"] = None
        changes["due_on"] = None if due_on == CLEAR else parse_date(due_on, "due_on").isoformat()
    if due_at is not None:
        if due_at == CLEAR:
            changes.update(due_at=None, due_on=None)
        else:
            moment = parse_timestamp(due_at, "due_at")
            changes.update(due_at=iso_timestamp(moment), due_on=moment.date().isoformat())
    if start_on is not None:
        changes["start_on"] = None if start_on == CLEAR else parse_date(start_on, "start_on").isoformat()
    after = {**current, **changes}
    if after.get("start_on"):
        if not after.get("due_on"):
            raise InvalidRequest("start_on: A task with a start date must also have a due date")
        if after["start_on"] > after["due_on"]:
            raise InvalidRequest("start_on: The start date must be on or before the due date")
    return changes


def completion(db: Database, completed: bool, user: str) -> dict[str, Any]:
    """The completion columns for marking a task complete or incomplete."""
    if completed:
        return {"completed": True, "completed_at": db.now_iso(), "completed_by": user}
    return {"completed": False, "completed_at": None, "completed_by": None}


def follow(db: Database, task: str, user: str) -> None:
    """Make a user a follower (collaborator) of a task, if they are not already."""
    if not db.find(task_followers, task=task, user=user):
        db.insert(task_followers, task=task, user=user)


def comment(db: Database, task: str, user: str, text: str, pinned: bool) -> dict[str, Any]:
    """Add a comment story; the commenter starts following the task."""
    story = db.insert(
        stories,
        gid=db.new_id(stories, "12099700", width=8),
        task=task,
        type="comment",
        resource_subtype="comment_added",
        text=text,
        created_by=user,
        is_pinned=pinned,
        created_at=db.now_iso(),
    )
    follow(db, task, user)
    return story


def _waits_on(db: Database, task: str) -> set[str]:
    """Every task `task` waits on, directly or through other dependencies."""
    seen: set[str] = set()
    frontier = [task]
    while frontier:
        current = frontier.pop()
        for link in db.find(task_dependencies, task=current):
            if link["dependency"] not in seen:
                seen.add(link["dependency"])
                frontier.append(link["dependency"])
    return seen


def add_dependency(db: Database, task: dict[str, Any], dependency: dict[str, Any]) -> None:
    """Make `task` wait on `dependency` (already linked: nothing to do)."""
    gid, other = task["gid"], dependency["gid"]
    if gid == other:
        raise InvalidRequest("dependencies: A task cannot depend on itself")
    if dependency["workspace"] != task["workspace"]:
        raise InvalidRequest("dependencies: Tasks must be in the same workspace")
    if db.find(task_dependencies, task=gid, dependency=other):
        return
    if gid in _waits_on(db, other):
        raise InvalidRequest(
            f"dependencies: {dependency['name']} already waits on {task['name']}; the dependency would create a cycle"
        )
    for end in (task, dependency):
        links = len(db.find(task_dependencies, task=end["gid"])) + len(
            db.find(task_dependencies, dependency=end["gid"])
        )
        if links >= MAX_DEPENDENCY_LINKS:
            raise InvalidRequest(
                f"dependencies: {end['name']} already has {MAX_DEPENDENCY_LINKS} dependencies and dependents"
            )
    db.insert(task_dependencies, task=gid, dependency=other)


def remove_links(db: Database, table: Any, **where: Any) -> int:
    """Delete rows of a link table matching `where`; returns how many went."""
    clauses = [table.c[name] == value for name, value in where.items()]
    return int(db.conn.execute(table.delete().where(and_(*clauses))).rowcount)


def place(
    db: Database,
    task: dict[str, Any],
    project: dict[str, Any],
    section: dict[str, Any] | None,
    insert_before: dict[str, Any] | None = None,
    insert_after: dict[str, Any] | None = None,
) -> None:
    """Put a task in a project (added if missing) and a section of it (the first section when none is named), at
    the top of the section, or just before or after another task of the project."""
    if insert_before is not None and insert_after is not None:
        raise InvalidRequest("You may only provide one of insert_before or insert_after")
    if section is None:
        current = db.find(task_memberships, task=task["gid"], project=project["gid"])
        if current:
            section = db.get(sections, current[0]["section"])
        else:
            ordered = db.find(sections, project=project["gid"], order_by=[sections.c.position])
            if not ordered:
                raise Conflict(f"project: {project['name']} has no sections")
            section = ordered[0]
    if section["project"] != project["gid"]:
        raise InvalidRequest(f"section: {section['name']} is not a section of {project['name']}")
    members = db.find(
        task_memberships, project=project["gid"], section=section["gid"], order_by=[task_memberships.c.position]
    )
    members = [m for m in members if m["task"] != task["gid"]]
    anchor = insert_before or insert_after
    if anchor is not None:
        index = next((i for i, m in enumerate(members) if m["task"] == anchor["gid"]), None)
        if index is None:
            raise InvalidRequest(
                f"insert_before/insert_after: {anchor['name']} is not in the section {section['name']}"
            )
        if insert_after is not None:
            index += 1
    else:
        index = 0
    before = members[index - 1]["position"] if index > 0 else (members[0]["position"] - 2 if members else 0.0)
    after = members[index]["position"] if index < len(members) else before + 2
    position = (before + after) / 2
    remove_links(db, task_memberships, task=task["gid"], project=project["gid"])
    db.insert(task_memberships, task=task["gid"], project=project["gid"], section=section["gid"], position=position)


def delete(db: Database, task: dict[str, Any]) -> int:
    """Delete a task with its subtasks (recursively) and everything that hangs on them; returns how many tasks."""
    count = 0
    for child in db.find(tasks, parent=task["gid"]):
        count += delete(db, child)
    gid = task["gid"]
    for table in (task_memberships, task_followers, task_tags, stories):
        remove_links(db, table, task=gid)
    remove_links(db, task_dependencies, task=gid)
    remove_links(db, task_dependencies, dependency=gid)
    db.delete(tasks, gid)
    return count + 1
