"""Asana's API objects as output models (field names as in the API's JSON), how stored rows become them, and the
offset-token pagination of its lists."""

from __future__ import annotations

import base64
import json
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, Field

from envfactory_gym import Database, InvalidRequest, KeptGeneric, paginate

from .access import project_access
from .schema import (
    projects,
    sections,
    tags,
    task_dependencies,
    task_followers,
    task_memberships,
    task_tags,
    tasks,
    teams,
    users,
    workspace_memberships,
    workspaces,
)

T = TypeVar("T")
BAD_OFFSET = "offset: Your pagination token is invalid."


class NextPage(BaseModel):
    """Where the next page starts: pass `offset` back with the same filters."""

    offset: str


class Listing(KeptGeneric, Generic[T]):
    """One page of a list: `data`, and `next_page` (null on the last page)."""

    data: list[T]
    next_page: NextPage | None


def _token(position: int) -> str:
    return base64.urlsafe_b64encode(json.dumps({"o": position}).encode()).decode().rstrip("=")


def listing(items: list[T], limit: int, offset: str | None) -> Listing[T]:
    """The page of `items` starting at the opaque `offset` token (from an earlier page's next_page)."""
    start = 0
    if offset:
        try:
            start = int(json.loads(base64.urlsafe_b64decode(offset.strip() + "==="))["o"])
        except (ValueError, KeyError, TypeError):
            raise InvalidRequest(BAD_OFFSET) from None
        if not 0 <= start <= len(items):
            raise InvalidRequest(BAD_OFFSET)
    page = paginate(items, limit, str(start))
    following = NextPage(offset=_token(start + limit)) if page.has_more else None
    return Listing[Any](data=page.results, next_page=following)


class Compact(BaseModel):
    """A reference to another object."""

    gid: str
    name: str
    resource_type: str


class User(BaseModel):
    """A user, with the workspaces they belong to (GET /users/{gid})."""

    gid: str
    resource_type: Literal["user"] = "user"
    name: str
    email: str
    workspaces: list[Compact]


class WorkspaceUser(BaseModel):
    """A member of a workspace as lists show them."""

    gid: str
    resource_type: Literal["user"] = "user"
    name: str
    email: str
    is_guest: bool
    teams: list[str] = Field(description="names of the user's teams in this workspace")


class ProjectCompact(BaseModel):
    """A project as lists show it."""

    gid: str
    resource_type: Literal["project"] = "project"
    name: str
    archived: bool
    team: Compact | None
    owner: Compact | None


class ProjectMember(BaseModel):
    """A person's membership of a project."""

    user: Compact
    access_level: str = Field(description="admin, editor, commenter or viewer")


class Project(BaseModel):
    """A project (GET /projects/{gid})."""

    gid: str
    resource_type: Literal["project"] = "project"
    name: str
    notes: str
    archived: bool
    color: str | None
    privacy_setting: str = Field(description="public_to_workspace, private_to_team or private")
    default_access_level: str = Field(description="what people who can see it without being members get")
    your_access_level: str | None
    start_on: str | None
    due_on: str | None
    workspace: Compact
    team: Compact | None
    owner: Compact | None
    members: list[ProjectMember]
    created_at: str


class Section(BaseModel):
    """A section of a project, in board or list order."""

    gid: str
    resource_type: Literal["section"] = "section"
    name: str
    project: Compact


class Membership(BaseModel):
    """Where a task sits in one of its projects."""

    project: Compact
    section: Compact


class TaskCompact(BaseModel):
    """A task as lists show it."""

    gid: str
    resource_type: Literal["task"] = "task"
    resource_subtype: str
    name: str
    assignee: Compact | None
    due_on: str | None
    completed: bool


class Task(BaseModel):
    """A task with everything about it (GET /tasks/{gid})."""

    gid: str
    resource_type: Literal["task"] = "task"
    resource_subtype: str = Field(description="default_task or milestone")
    name: str
    notes: str
    assignee: Compact | None
    start_on: str | None
    due_on: str | None
    due_at: str | None
    completed: bool
    completed_at: str | None
    completed_by: Compact | None
    created_at: str
    created_by: Compact
    modified_at: str
    parent: Compact | None
    workspace: Compact
    memberships: list[Membership]
    projects: list[Compact]
    tags: list[Compact]
    followers: list[Compact]
    dependencies: list[Compact] = Field(description="the tasks this task waits on (it is blocked until they are done)")
    dependents: list[Compact] = Field(description="the tasks waiting on this task")
    num_subtasks: int
    permalink_url: str


class Story(BaseModel):
    """A comment or a record of a change on a task."""

    gid: str
    resource_type: Literal["story"] = "story"
    type: str = Field(description="comment or system")
    resource_subtype: str
    text: str
    created_by: Compact | None
    created_at: str
    is_pinned: bool


class Tag(BaseModel):
    """A tag of a workspace."""

    gid: str
    resource_type: Literal["tag"] = "tag"
    name: str
    color: str | None
    workspace: Compact


class Empty(BaseModel):
    """What a call that changes links returns: an empty data record."""


def named(db: Database, table: Any, gid: str, kind: str) -> Compact:
    """A compact reference to a row."""
    return Compact(gid=gid, name=db.get(table, gid)["name"], resource_type=kind)


def ref(db: Database, table: Any, gid: str | None, kind: str) -> Compact | None:
    """A compact reference to a row, None for no gid."""
    return None if gid is None else named(db, table, gid, kind)


def user_ref(db: Database, gid: str | None) -> Compact | None:
    """A compact user, None for nobody."""
    return ref(db, users, gid, "user")


def task_ref(db: Database, gid: str) -> Compact:
    """A compact task."""
    return Compact(gid=gid, name=db.get(tasks, gid)["name"], resource_type="task")


def user_object(db: Database, gid: str) -> User:
    """A user with their active workspaces."""
    row = db.get(users, gid)
    spaces = [ref(db, workspaces, m["workspace"], "workspace") for m in db.find(workspace_memberships, user=gid)]
    return User(gid=gid, name=row["name"], email=row["email"], workspaces=[s for s in spaces if s])


def project_compact(db: Database, row: dict[str, Any]) -> ProjectCompact:
    """A project as lists show it."""
    return ProjectCompact(
        gid=row["gid"],
        name=row["name"],
        archived=row["archived"],
        team=ref(db, teams, row["team"], "team"),
        owner=user_ref(db, row["owner"]),
    )


def project_object(db: Database, row: dict[str, Any], members: list[dict[str, Any]]) -> Project:
    """A project with its members and the signed-in user's access."""
    return Project(
        gid=row["gid"],
        name=row["name"],
        notes=row["notes"],
        archived=row["archived"],
        color=row["color"],
        privacy_setting=row["privacy_setting"],
        default_access_level=row["default_access_level"],
        your_access_level=project_access(db, row),
        start_on=row["start_on"],
        due_on=row["due_on"],
        workspace=named(db, workspaces, row["workspace"], "workspace"),
        team=ref(db, teams, row["team"], "team"),
        owner=user_ref(db, row["owner"]),
        members=[
            ProjectMember(user=named(db, users, m["user"], "user"), access_level=m["access_level"]) for m in members
        ],
        created_at=row["created_at"],
    )


def section_object(db: Database, row: dict[str, Any]) -> Section:
    """A section with its project."""
    return Section(gid=row["gid"], name=row["name"], project=named(db, projects, row["project"], "project"))


def task_compacts(db: Database, rows: list[dict[str, Any]]) -> list[TaskCompact]:
    """Tasks as lists show them (the assignees' names read once for the whole list)."""
    people = {u["gid"]: u["name"] for u in db.find(users)} if rows else {}
    return [
        TaskCompact(
            gid=row["gid"],
            resource_subtype=row["resource_subtype"],
            name=row["name"],
            assignee=Compact(gid=row["assignee"], name=people[row["assignee"]], resource_type="user")
            if row["assignee"]
            else None,
            due_on=row["due_on"],
            completed=row["completed"],
        )
        for row in rows
    ]


def task_object(db: Database, row: dict[str, Any]) -> Task:
    """A task with its memberships, tags, followers, dependencies and subtask count."""
    gid = row["gid"]
    memberships = [
        Membership(
            project=named(db, projects, m["project"], "project"), section=named(db, sections, m["section"], "section")
        )
        for m in db.find(task_memberships, task=gid)
    ]
    return Task(
        gid=gid,
        resource_subtype=row["resource_subtype"],
        name=row["name"],
        notes=row["notes"],
        assignee=user_ref(db, row["assignee"]),
        start_on=row["start_on"],
        due_on=row["due_on"],
        due_at=row["due_at"],
        completed=row["completed"],
        completed_at=row["completed_at"],
        completed_by=user_ref(db, row["completed_by"]),
        created_at=row["created_at"],
        created_by=named(db, users, row["created_by"], "user"),
        modified_at=row["modified_at"],
        parent=task_ref(db, row["parent"]) if row["parent"] else None,
        workspace=named(db, workspaces, row["workspace"], "workspace"),
        memberships=memberships,
        projects=[m.project for m in memberships],
        tags=[named(db, tags, t["tag"], "tag") for t in db.find(task_tags, task=gid)],
        followers=[named(db, users, f["user"], "user") for f in db.find(task_followers, task=gid)],
        dependencies=[task_ref(db, d["dependency"]) for d in db.find(task_dependencies, task=gid)],
        dependents=[task_ref(db, d["task"]) for d in db.find(task_dependencies, dependency=gid)],
        num_subtasks=len(db.find(tasks, parent=gid)),
        permalink_url=f"https://app.asana.com/0/0/{gid}",
    )
