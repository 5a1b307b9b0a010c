"""Asana REST API tools as the owner of a personal access token sees them: workspaces and their people, projects
and sections, tasks and subtasks, dependencies, tags, comments and followers; plus the user's own sign-in."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from envfactory_gym import Database, InvalidRequest, PermissionDenied, Unordered, tool
from envfactory_gym.fields import ErrorText, IsoDate, IsoTimestamp, NonBlankText, PageSize
from envfactory_gym.values import parse_timestamp

from . import rules
from .access import (
    RANK,
    editable_project,
    editable_task,
    me,
    project_access,
    project_of,
    section_of,
    tag_of,
    task_access,
    task_of,
    user_ref,
    visible_clause,
    workspace_of,
)
from .objects import (
    Empty,
    Listing,
    Project,
    ProjectCompact,
    Section,
    Story,
    Tag,
    Task,
    TaskCompact,
    User,
    WorkspaceUser,
    listing,
    named,
    project_compact,
    project_object,
    ref,
    section_object,
    task_compacts,
    task_object,
    user_object,
)
from .schema import (
    project_memberships,
    projects,
    sections,
    sessions,
    stories,
    tags,
    task_dependencies,
    task_memberships,
    task_tags,
    tasks,
    team_memberships,
    teams,
    tokens,
    users,
    workspace_memberships,
    workspaces,
)

Gid = Annotated[str, Field(pattern=r"^\s*\d{1,20}\s*$"), ErrorText("Not a recognized ID")]
Gids = Annotated[list[Gid], Unordered, Field(min_length=1, max_length=30)]
UserId = Annotated[str, Field(min_length=1, description='a user gid, their email, or "me"')]
UserIds = Annotated[list[UserId], Unordered, Field(min_length=1, max_length=30)]
DateOrClear = Annotated[str, Field(pattern=r"^(\d{4}-\d{2}-\d{2}|none)$", description='YYYY-MM-DD, or "none" to clear')]
TimeOrClear = Annotated[str, Field(min_length=4, description='ISO 8601 date-time, or "none" to clear')]
TaskName = Annotated[str, Field(min_length=1, max_length=1024, pattern=r"\S"), ErrorText("name: Missing input")]
Notes = Annotated[str, Field(max_length=65535)]
Subtype = Literal["default_task", "milestone"]
SortBy = Literal["due_date", "created_at", "completed_at", "modified_at"]


def _touch(db: Database, task: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return db.update(tasks, task["gid"], modified_at=db.now_iso(), **changes)


# ---------------------------------------------------------------- the user


@tool(user_only=True)
def sign_in(db: Database, token: NonBlankText) -> User:
    """(User only) The user gives the assistant a personal access token from the Asana developer console; the
    assistant then acts as that user.

    Args:
        token: The personal access token, 2/<user gid>/<app gid>:<32 hex characters>.
    """
    found = db.find(tokens, token=token.strip())
    if not found:
        raise PermissionDenied("Not Authorized")
    db.start_session(sessions, user=found[0]["user"])
    return user_object(db, found[0]["user"])


@tool(read_only=True)
def get_me(db: Database) -> User:
    """Get the signed-in user with the workspaces they belong to (GET /users/me)."""
    return user_object(db, me(db))


# ---------------------------------------------------------------- people, projects, sections, tags


@tool(read_only=True)
def list_users(db: Database, workspace: Gid, limit: PageSize = 50, offset: str | None = None) -> Listing[WorkspaceUser]:
    """List the people of a workspace, with their teams (GET /users?workspace=). Removed members are not listed.

    Args:
        workspace: The workspace's gid (from get_me).
        limit: Results per page, 1 to 100.
        offset: The next_page.offset token of the previous page.
    """
    space = workspace_of(db, workspace)
    team_names = {t["gid"]: t["name"] for t in db.find(teams, workspace=space["gid"])}
    people = []
    for m in db.find(workspace_memberships, workspace=space["gid"], is_active=True):
        person = db.get(users, m["user"])
        joined = sorted(
            team_names[t["team"]] for t in db.find(team_memberships, user=m["user"]) if t["team"] in team_names
        )
        people.append(
            WorkspaceUser(
                gid=person["gid"], name=person["name"], email=person["email"], is_guest=m["is_guest"], teams=joined
            )
        )
    people.sort(key=lambda p: (p.name.lower(), p.gid))
    return listing(people, limit, offset)


@tool(read_only=True)
def list_projects(
    db: Database,
    workspace: Gid,
    team: Gid | None = None,
    archived: bool | None = None,
    limit: PageSize = 50,
    offset: str | None = None,
) -> Listing[ProjectCompact]:
    """List the projects of a workspace you can see, A-Z (GET /projects).

    Args:
        workspace: The workspace's gid (from get_me).
        team: Only this team's projects (a team gid, from a project's team).
        archived: Only archived (true) or only active (false) projects; both when left out.
        limit: Results per page, 1 to 100.
        offset: The next_page.offset token of the previous page.
    """
    space = workspace_of(db, workspace)
    filters: dict[str, Any] = {"workspace": space["gid"]}
    if team is not None:
        filters["team"] = team.strip()
    if archived is not None:
        filters["archived"] = archived
    rows = [r for r in db.find(projects, **filters) if project_access(db, r) is not None]
    rows.sort(key=lambda r: (r["name"].lower(), r["gid"]))
    return listing([project_compact(db, r) for r in rows], limit, offset)


@tool(read_only=True)
def get_project(db: Database, project: Gid) -> Project:
    """Get a project with its notes, dates, privacy, members and your access level (GET /projects/{gid}).

    Args:
        project: The project's gid.
    """
    row = project_of(db, project)
    return project_object(db, row, db.find(project_memberships, project=row["gid"]))


@tool(read_only=True)
def list_sections(db: Database, project: Gid, limit: PageSize = 50, offset: str | None = None) -> Listing[Section]:
    """List a project's sections in order (GET /projects/{gid}/sections).

    Args:
        project: The project's gid.
        limit: Results per page, 1 to 100.
        offset: The next_page.offset token of the previous page.
    """
    row = project_of(db, project)
    found = db.find(sections, project=row["gid"], order_by=[sections.c.position])
    return listing([section_object(db, s) for s in found], limit, offset)


@tool(read_only=True)
def list_tags(db: Database, workspace: Gid, limit: PageSize = 50, offset: str | None = None) -> Listing[Tag]:
    """List a workspace's tags, A-Z (GET /tags?workspace=).

    Args:
        workspace: The workspace's gid (from get_me).
        limit: Results per page, 1 to 100.
        offset: The next_page.offset token of the previous page.
    """
    space = workspace_of(db, workspace)
    found = sorted(db.find(tags, workspace=space["gid"]), key=lambda t: (t["name"].lower(), t["gid"]))
    home = named(db, workspaces, space["gid"], "workspace")
    return listing([Tag(gid=t["gid"], name=t["name"], color=t["color"], workspace=home) for t in found], limit, offset)


# ---------------------------------------------------------------- reading tasks


@tool(read_only=True)
def get_tasks(
    db: Database,
    project: Gid | None = None,
    section: Gid | None = None,
    assignee: UserId | None = None,
    workspace: Gid | None = None,
    completed_since: str | None = None,
    limit: PageSize = 50,
    offset: str | None = None,
) -> Listing[TaskCompact]:
    """List the top-level tasks of a project or a section (in their order there), or those assigned to someone in
    a workspace (by due date) (GET /tasks). Give exactly one of project, section, or assignee + workspace.

    Args:
        project: A project's gid.
        section: A section's gid.
        assignee: With workspace: a user gid, email or "me".
        workspace: With assignee: the workspace's gid.
        completed_since: "now" for incomplete tasks only, or an ISO 8601 time: incomplete tasks and those
            completed since then. All tasks when left out.
        limit: Results per page, 1 to 100.
        offset: The next_page.offset token of the previous page.
    """
    chosen = [project is not None, section is not None, assignee is not None and workspace is not None]
    if sum(chosen) != 1 or (assignee is None) != (workspace is None):
        raise InvalidRequest(
            "Must specify exactly one of project, tag, section, user task list, or assignee + workspace"
        )
    if section is not None:
        row, _ = section_of(db, section)
        links = db.find(task_memberships, section=row["gid"], order_by=[task_memberships.c.position])
        rows = [db.get(tasks, link["task"]) for link in links]
    elif project is not None:
        board = project_of(db, project)
        links = db.find(task_memberships, project=board["gid"], order_by=[task_memberships.c.position])
        rows = [db.get(tasks, link["task"]) for link in links]
    else:
        assert workspace is not None and assignee is not None  # exactly one scope was given, checked above
        space = workspace_of(db, workspace)
        who = user_ref(db, assignee, space["gid"], "assignee")
        visible, params = visible_clause(db, space["gid"])
        rows = db.select(tasks, f"assignee = ? AND {visible}", [who, *params])
        rows.sort(key=lambda r: (r["due_on"] is None, r["due_on"] or "", r["gid"]))
    if completed_since is not None:
        since = None if completed_since.strip() == "now" else parse_timestamp(completed_since, "completed_since")
        rows = [
            r
            for r in rows
            if not r["completed"]
            or (since is not None and r["completed_at"] and parse_timestamp(r["completed_at"], "completed_at") >= since)
        ]
    return listing(task_compacts(db, rows), limit, offset)


@tool(read_only=True)
def search_tasks(
    db: Database,
    workspace: Gid,
    text: str | None = None,
    assignee_any: UserIds | None = None,
    projects_any: Gids | None = None,
    tags_any: Gids | None = None,
    completed: bool | None = None,
    is_subtask: bool | None = None,
    due_on_before: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")] | None = None,
    due_on_after: Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$")] | None = None,
    sort_by: SortBy = "modified_at",
    sort_ascending: bool = False,
    limit: PageSize = 50,
) -> Listing[TaskCompact]:
    """Search the tasks of a workspace you can see (GET /workspaces/{gid}/tasks/search). Search does not page:
    narrow the filters or raise limit.

    Args:
        workspace: The workspace's gid (from get_me).
        text: Words to find in the task's name or notes (case-insensitive).
        assignee_any: Tasks assigned to any of these people (user gids, emails or "me").
        projects_any: Tasks in any of these projects.
        tags_any: Tasks with any of these tags.
        completed: Only completed (true) or only incomplete (false) tasks.
        is_subtask: Only subtasks (true) or only top-level tasks (false).
        due_on_before: Due strictly before this date (YYYY-MM-DD).
        due_on_after: Due strictly after this date (YYYY-MM-DD).
        sort_by: due_date, created_at, completed_at or modified_at.
        sort_ascending: Oldest or earliest first (default newest or latest first).
        limit: Results, 1 to 100.
    """
    space = workspace_of(db, workspace)
    visible, params = visible_clause(db, space["gid"])
    where = [visible]
    if text:
        where.append("(lower(name) LIKE ? OR lower(notes) LIKE ?)")
        needle = f"%{text.strip().lower()}%"
        params += [needle, needle]
    if assignee_any:
        people = [user_ref(db, a, space["gid"], "assignee.any") for a in assignee_any]
        where.append(f"assignee IN ({', '.join('?' for _ in people)})")
        params += people
    if completed is not None:
        where.append("completed = ?")
        params.append(completed)
    if is_subtask is not None:
        where.append("parent IS NOT NULL" if is_subtask else "parent IS NULL")
    if due_on_before:
        where.append("due_on < ?")
        params.append(due_on_before)
    if due_on_after:
        where.append("due_on > ?")
        params.append(due_on_after)
    if projects_any:
        wanted = [project_of(db, p)["gid"] for p in projects_any]
        where.append(f"gid IN (SELECT task FROM task_memberships WHERE project IN ({', '.join('?' for _ in wanted)}))")
        params += wanted
    if tags_any:
        marked = [tag_of(db, t)["gid"] for t in tags_any]
        where.append(f"gid IN (SELECT task FROM task_tags WHERE tag IN ({', '.join('?' for _ in marked)}))")
        params += marked
    rows = db.select(tasks, " AND ".join(where), params)
    column = {
        "due_date": "due_on",
        "created_at": "created_at",
        "completed_at": "completed_at",
        "modified_at": "modified_at",
    }[sort_by]
    dated = sorted((r for r in rows if r[column]), key=lambda r: (r[column], r["gid"]), reverse=not sort_ascending)
    rows = dated + [r for r in rows if not r[column]]
    return listing(task_compacts(db, rows[:limit]), limit, None)


@tool(read_only=True)
def get_task(db: Database, task: Gid) -> Task:
    """Get a task with its notes, dates, assignee, projects and sections, tags, followers, dependencies, dependents
    and subtask count (GET /tasks/{gid}).

    Args:
        task: The task's gid.
    """
    return task_object(db, task_of(db, task))


@tool(read_only=True)
def get_subtasks(db: Database, task: Gid, limit: PageSize = 50, offset: str | None = None) -> Listing[TaskCompact]:
    """List a task's subtasks in order (GET /tasks/{gid}/subtasks).

    Args:
        task: The parent task's gid.
        limit: Results per page, 1 to 100.
        offset: The next_page.offset token of the previous page.
    """
    parent = task_of(db, task)
    found = db.find(tasks, parent=parent["gid"], order_by=[tasks.c.created_at])
    return listing(task_compacts(db, found), limit, offset)


@tool(read_only=True)
def get_stories(db: Database, task: Gid, limit: PageSize = 50, offset: str | None = None) -> Listing[Story]:
    """List a task's comments and change history, oldest first (GET /tasks/{gid}/stories).

    Args:
        task: The task's gid.
        limit: Results per page, 1 to 100.
        offset: The next_page.offset token of the previous page.
    """
    row = task_of(db, task)
    found = db.find(stories, task=row["gid"], order_by=[stories.c.created_at])
    return listing(
        [
            Story(
                gid=s["gid"],
                type=s["type"],
                resource_subtype=s["resource_subtype"],
                text=s["text"],
                created_by=ref(db, users, s["created_by"], "user"),
                created_at=s["created_at"],
                is_pinned=s["is_pinned"],
            )
            for s in found
        ],
        limit,
        offset,
    )


# ---------------------------------------------------------------- creating and changing tasks


@tool()
def create_task(
    db: Database,
    name: TaskName,
    workspace: Gid | None = None,
    projects: Gids | None = None,
    section: Gid | None = None,
    notes: Notes = "",
    assignee: UserId | None = None,
    due_on: IsoDate | None = None,
    due_at: IsoTimestamp | None = None,
    start_on: IsoDate | None = None,
    followers: UserIds | None = None,
    tags: Gids | None = None,
    resource_subtype: Subtype = "default_task",
) -> Task:
    """Create a task in a workspace or in projects (POST /tasks). It goes at the top of each project's first
    section, or of `section`. You follow the tasks you create; the assignee follows it too.

    Args:
        name: The task's name.
        workspace: The workspace's gid; may be left out when projects are given.
        projects: Gids of projects to add it to (same workspace; you need edit access).
        section: A section of one of those projects to put it in.
        notes: The description.
        assignee: A user gid, email or "me".
        due_on: The due date, YYYY-MM-DD.
        due_at: A due date and time, ISO 8601 (instead of due_on).
        start_on: The start date (needs a due date on or after it).
        followers: People to add as followers.
        tags: Gids of tags to add (same workspace).
        resource_subtype: default_task, or milestone.
    """
    boards = [editable_project(db, p) for p in projects or []]
    if workspace is None and not boards:
        raise InvalidRequest("You should specify one of workspace, parent, projects")
    home = workspace_of(db, workspace)["gid"] if workspace is not None else boards[0]["workspace"]
    if any(b["workspace"] != home for b in boards):
        raise InvalidRequest("projects: Every project must be in the task's workspace")
    target = None
    if section is not None:
        target, board = section_of(db, section)
        if board["gid"] not in {b["gid"] for b in boards}:
            raise InvalidRequest(f"section: {target['name']} is not a section of the task's projects")
    user = me(db)
    dates = rules.schedule({}, due_on, due_at, start_on)
    who = user_ref(db, assignee, home, "assignee") if assignee else None
    row = db.insert(
        tasks,
        gid=db.new_id(tasks, "12099900", width=8),
        workspace=home,
        name=name.strip(),
        notes=notes,
        resource_subtype=resource_subtype,
        assignee=who,
        start_on=dates.get("start_on"),
        due_on=dates.get("due_on"),
        due_at=dates.get("due_at"),
        completed=False,
        created_by=user,
        created_at=db.now_iso(),
        modified_at=db.now_iso(),
    )
    for board in boards:
        rules.place(db, row, board, target if target is not None and target["project"] == board["gid"] else None)
    for person in [user, *([who] if who else []), *(user_ref(db, f, home, "followers") for f in followers or [])]:
        rules.follow(db, row["gid"], person)
    for tag in tags or []:
        found = tag_of(db, tag)
        if found["workspace"] != home:
            raise InvalidRequest(f"tags: {found['name']} is a tag of another workspace")
        db.insert(task_tags, task=row["gid"], tag=found["gid"])
    return task_object(db, db.get(tasks, row["gid"]))


@tool()
def create_subtask(
    db: Database,
    parent: Gid,
    name: TaskName,
    notes: Notes = "",
    assignee: UserId | None = None,
    due_on: IsoDate | None = None,
    due_at: IsoTimestamp | None = None,
) -> Task:
    """Create a subtask under a task, after its other subtasks (POST /tasks/{gid}/subtasks). A subtask is in no
    project unless added to one.

    Args:
        parent: The parent task's gid.
        name: The subtask's name.
        notes: The description.
        assignee: A user gid, email or "me".
        due_on: The due date, YYYY-MM-DD.
        due_at: A due date and time, ISO 8601 (instead of due_on).
    """
    above = editable_task(db, parent)
    user = me(db)
    dates = rules.schedule({}, due_on, due_at, None)
    who = user_ref(db, assignee, above["workspace"], "assignee") if assignee else None
    row = db.insert(
        tasks,
        gid=db.new_id(tasks, "12099900", width=8),
        workspace=above["workspace"],
        name=name.strip(),
        notes=notes,
        resource_subtype="default_task",
        assignee=who,
        start_on=None,
        due_on=dates.get("due_on"),
        due_at=dates.get("due_at"),
        completed=False,
        parent=above["gid"],
        created_by=user,
        created_at=db.now_iso(),
        modified_at=db.now_iso(),
    )
    for person in [user, *([who] if who else [])]:
        rules.follow(db, row["gid"], person)
    return task_object(db, row)


@tool()
def update_task(
    db: Database,
    task: Gid,
    name: TaskName | None = None,
    notes: Notes | None = None,
    assignee: UserId | None = None,
    due_on: DateOrClear | None = None,
    due_at: TimeOrClear | None = None,
    start_on: DateOrClear | None = None,
    completed: bool | None = None,
    resource_subtype: Subtype | None = None,
) -> Task:
    """Change a task's fields; only those given change (PUT /tasks/{gid}). The new assignee starts following it.
    Completing a task does not complete its subtasks.

    Args:
        task: The task's gid.
        name: The new name.
        notes: The new description (replaces the old one).
        assignee: A user gid, email or "me"; "none" to unassign.
        due_on: The due date, YYYY-MM-DD, or "none" to clear the due date.
        due_at: A due date and time, ISO 8601, or "none" to clear it.
        start_on: The start date, YYYY-MM-DD, or "none" to clear it.
        completed: true to mark complete, false to reopen.
        resource_subtype: default_task or milestone.
    """
    row = editable_task(db, task)
    changes: dict[str, Any] = rules.schedule(row, due_on, due_at, start_on)
    if name is not None:
        changes["name"] = name.strip()
    if notes is not None:
        changes["notes"] = notes
    if resource_subtype is not None:
        changes["resource_subtype"] = resource_subtype
    if completed is not None and completed != row["completed"]:
        changes.update(rules.completion(db, completed, me(db)))
    if assignee is not None:
        changes["assignee"] = (
            None if assignee.strip() == rules.CLEAR else user_ref(db, assignee, row["workspace"], "assignee")
        )
        if changes["assignee"]:
            rules.follow(db, row["gid"], changes["assignee"])
    return task_object(db, _touch(db, row, **changes))


@tool()
def delete_task(db: Database, task: Gid) -> Empty:
    """Delete a task, with its subtasks, comments and links to other tasks (DELETE /tasks/{gid}).

    Args:
        task: The task's gid.
    """
    rules.delete(db, editable_task(db, task))
    return Empty()


@tool()
def add_project_to_task(
    db: Database,
    task: Gid,
    project: Gid,
    section: Gid | None = None,
    insert_before: Gid | None = None,
    insert_after: Gid | None = None,
) -> Empty:
    """Add a task to a project, or move it within one it is already in (POST /tasks/{gid}/addProject). A task can
    be in several projects, in one section of each.

    Args:
        task: The task's gid.
        project: The project's gid (same workspace; you need edit access).
        section: A section of that project (default: the task's current one, else the first).
        insert_before: Put it just before this task of the section.
        insert_after: Put it just after this task of the section.
    """
    row, board = editable_task(db, task), editable_project(db, project)
    if board["workspace"] != row["workspace"]:
        raise InvalidRequest("project: The project is in another workspace than the task")
    target = section_of(db, section)[0] if section is not None else None
    before = task_of(db, insert_before) if insert_before else None
    after = task_of(db, insert_after) if insert_after else None
    rules.place(db, row, board, target, before, after)
    _touch(db, row)
    return Empty()


@tool()
def remove_project_from_task(db: Database, task: Gid, project: Gid) -> Empty:
    """Remove a task from a project; the task itself stays (POST /tasks/{gid}/removeProject).

    Args:
        task: The task's gid.
        project: The project's gid.
    """
    row, board = editable_task(db, task), editable_project(db, project)
    if not rules.remove_links(db, task_memberships, task=row["gid"], project=board["gid"]):
        raise InvalidRequest(f"project: {row['name']} is not in {board['name']}")
    _touch(db, row)
    return Empty()


@tool()
def add_task_to_section(
    db: Database, section: Gid, task: Gid, insert_before: Gid | None = None, insert_after: Gid | None = None
) -> Empty:
    """Move a task into a section of a project it is in, out of its other section there (POST
    /sections/{gid}/addTask). It goes to the top unless insert_before or insert_after names a task of the section.

    Args:
        section: The section's gid.
        task: The task's gid.
        insert_before: Put it just before this task of the section.
        insert_after: Put it just after this task of the section.
    """
    target, board = section_of(db, section)
    row = editable_task(db, task)
    if RANK[project_access(db, board)] < RANK["editor"]:
        raise PermissionDenied(f"Forbidden: you have comment-only access to the project {board['name']}")
    if not db.find(task_memberships, task=row["gid"], project=board["gid"]):
        raise InvalidRequest(f"task: {row['name']} is not in the project {board['name']}; add it to the project first")
    before = task_of(db, insert_before) if insert_before else None
    after = task_of(db, insert_after) if insert_after else None
    rules.place(db, row, board, target, before, after)
    _touch(db, row)
    return Empty()


@tool()
def add_dependencies(db: Database, task: Gid, dependencies: Gids) -> Empty:
    """Mark tasks as dependencies of this task: it waits on them (POST /tasks/{gid}/addDependencies). A task cannot
    depend on itself or on a task that waits on it, and has at most 30 dependencies and dependents together.

    Args:
        task: The gid of the task that waits.
        dependencies: Gids of the tasks it waits on.
    """
    row = editable_task(db, task)
    for gid in dependencies:
        rules.add_dependency(db, row, task_of(db, gid))
    _touch(db, row)
    return Empty()


@tool()
def remove_dependencies(db: Database, task: Gid, dependencies: Gids) -> Empty:
    """Unlink tasks from this task's dependencies (POST /tasks/{gid}/removeDependencies).

    Args:
        task: The gid of the task that waits.
        dependencies: Gids of the tasks it should no longer wait on.
    """
    row = editable_task(db, task)
    for gid in dependencies:
        other = task_of(db, gid)
        if not rules.remove_links(db, task_dependencies, task=row["gid"], dependency=other["gid"]):
            raise InvalidRequest(f"dependencies: {row['name']} does not depend on {other['name']}")
    _touch(db, row)
    return Empty()


@tool()
def add_tag_to_task(db: Database, task: Gid, tag: Gid) -> Empty:
    """Add a tag to a task (POST /tasks/{gid}/addTag); the tag must be of the task's workspace.

    Args:
        task: The task's gid.
        tag: The tag's gid (from list_tags).
    """
    row, found = editable_task(db, task), tag_of(db, tag)
    if found["workspace"] != row["workspace"]:
        raise InvalidRequest(f"tag: {found['name']} is a tag of another workspace")
    if not db.find(task_tags, task=row["gid"], tag=found["gid"]):
        db.insert(task_tags, task=row["gid"], tag=found["gid"])
    _touch(db, row)
    return Empty()


@tool()
def remove_tag_from_task(db: Database, task: Gid, tag: Gid) -> Empty:
    """Remove a tag from a task (POST /tasks/{gid}/removeTag).

    Args:
        task: The task's gid.
        tag: The tag's gid.
    """
    row, found = editable_task(db, task), tag_of(db, tag)
    if not rules.remove_links(db, task_tags, task=row["gid"], tag=found["gid"]):
        raise InvalidRequest(f"tag: {row['name']} does not have the tag {found['name']}")
    _touch(db, row)
    return Empty()


@tool()
def add_followers(db: Database, task: Gid, followers: UserIds) -> Task:
    """Add people as followers of a task; they are notified of its changes (POST /tasks/{gid}/addFollowers).

    Args:
        task: The task's gid.
        followers: User gids, emails or "me".
    """
    row = task_of(db, task)
    if RANK[task_access(db, row)] < RANK["commenter"]:
        raise PermissionDenied("Forbidden: you have view-only access to this task")
    for person in followers:
        rules.follow(db, row["gid"], user_ref(db, person, row["workspace"], "followers"))
    return task_object(db, _touch(db, row))


@tool()
def add_comment(
    db: Database,
    task: Gid,
    text: Annotated[str, Field(min_length=1, max_length=65535, pattern=r"\S"), ErrorText("text: Missing input")],
    is_pinned: bool = False,
) -> Story:
    """Comment on a task (POST /tasks/{gid}/stories); you start following it. Comment-only access is enough.

    Args:
        task: The task's gid.
        text: The comment.
        is_pinned: Pin the comment to the top of the task.
    """
    row = task_of(db, task)
    if RANK[task_access(db, row)] < RANK["commenter"]:
        raise PermissionDenied("Forbidden: you have view-only access to this task")
    story = rules.comment(db, row["gid"], me(db), text, is_pinned)
    return Story(
        gid=story["gid"],
        type="comment",
        resource_subtype="comment_added",
        text=story["text"],
        created_by=ref(db, users, story["created_by"], "user"),
        created_at=story["created_at"],
        is_pinned=story["is_pinned"],
    )
