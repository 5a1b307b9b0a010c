"""Who the assistant acts as (the owner of the personal access token) and what they may see and do: workspace
membership, project privacy and access levels, and the tasks those open up."""

from __future__ import annotations

from typing import Any

from envfactory_gym import Database, NotFound, PermissionDenied

from .schema import (
    project_memberships,
    projects,
    sections,
    sessions,
    tags,
    task_followers,
    task_memberships,
    tasks,
    team_memberships,
    users,
    workspace_memberships,
    workspaces,
)

NOT_AUTHORIZED = "Not Authorized"
RANK = {None: 0, "viewer": 1, "commenter": 2, "editor": 3, "admin": 4}


def me(db: Database) -> str:
    """The gid of the user whose token the assistant holds."""
    return db.current_session(sessions, NOT_AUTHORIZED)["user"]


def unknown(kind: str, gid: str) -> NotFound:
    """Asana's answer for an object that does not exist or that the user cannot see."""
    return NotFound(f"{kind}: Unknown object: {gid}")


def membership(db: Database, workspace: str, user: str) -> dict[str, Any] | None:
    """The user's active membership of a workspace, if any."""
    found = db.find(workspace_memberships, workspace=workspace, user=user, is_active=True)
    return found[0] if found else None


def workspace_of(db: Database, gid: str) -> dict[str, Any]:
    """A workspace the signed-in user belongs to."""
    if membership(db, gid, me(db)) is None:
        raise unknown("workspace", gid)
    return db.get(workspaces, gid)


def user_ref(db: Database, value: str, workspace: str, field: str) -> str:
    """A user given as a gid, an email or "me", who must be an active member of `workspace`."""
    value = value.strip()
    if value == "me":
        return me(db)
    found = db.find(users, email=value.lower()) if "@" in value else db.find(users, gid=value)
    if not found:
        raise NotFound(f"{field}: Unknown object: {value}")
    if membership(db, workspace, found[0]["gid"]) is None:
        raise PermissionDenied(f"{field}: {found[0]['name']} is not a member of this workspace")
    return str(found[0]["gid"])


def project_access(db: Database, project: dict[str, Any], user: str | None = None) -> str | None:
    """The user's access to a project: admin, editor, commenter, viewer, or None when they cannot see it."""
    user = user or me(db)
    member = membership(db, project["workspace"], user)
    if member is None:
        return None
    own = db.find(project_memberships, project=project["gid"], user=user)
    if own:
        return str(own[0]["access_level"])
    if member["is_guest"] or project["privacy_setting"] == "private":
        return None
    if project["privacy_setting"] == "private_to_team" and not db.find(
        team_memberships, team=project["team"], user=user
    ):
        return None
    return str(project["default_access_level"])


def project_of(db: Database, gid: str) -> dict[str, Any]:
    """A project the signed-in user can see."""
    found = db.find(projects, gid=gid.strip())
    if not found or project_access(db, found[0]) is None:
        raise unknown("project", gid)
    return found[0]


def task_access(db: Database, task: dict[str, Any], user: str | None = None) -> str | None:
    """The user's access to a task: the best of its projects' (a subtask's come from its parent), editor for a task
    outside any project that they created, are assigned or follow, else None (they cannot see it)."""
    user = user or me(db)
    if membership(db, task["workspace"], user) is None:
        return None
    best: str | None = None
    for row in db.find(task_memberships, task=task["gid"]):
        level = project_access(db, db.get(projects, row["project"]), user)
        if RANK[level] > RANK[best]:
            best = level
    if task["parent"]:
        inherited = task_access(db, db.get(tasks, task["parent"]), user)
        if RANK[inherited] > RANK[best]:
            best = inherited
    involved = user in (task["assignee"], task["created_by"]) or db.find(task_followers, task=task["gid"], user=user)
    if involved and RANK[best] < RANK["editor"]:
        best = "editor"
    return best


def section_of(db: Database, gid: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A section, with its project, of a project the signed-in user can see."""
    found = db.find(sections, gid=gid.strip())
    if not found:
        raise unknown("section", gid)
    return found[0], project_of(db, found[0]["project"])


def tag_of(db: Database, gid: str) -> dict[str, Any]:
    """A tag of a workspace the signed-in user belongs to."""
    found = db.find(tags, gid=gid.strip())
    if not found or membership(db, found[0]["workspace"], me(db)) is None:
        raise unknown("tag", gid)
    return found[0]


def visible_clause(db: Database, workspace: str) -> tuple[str, list[Any]]:
    """An SQL condition on `tasks` (with its parameters) true for the tasks of a workspace the signed-in user can
    see, the same ones `task_access` allows one at a time: tasks of projects they can see, tasks they created, are
    assigned or follow, and the subtasks of all of those."""
    user = me(db)
    member = membership(db, workspace, user)
    if member is None:
        return "0", []
    boards = (
        "SELECT gid FROM projects WHERE workspace = ?"
        ' AND (gid IN (SELECT project FROM project_memberships WHERE "user" = ?)'
        " OR (? AND (privacy_setting = 'public_to_workspace' OR (privacy_setting = 'private_to_team'"
        ' AND team IN (SELECT team FROM team_memberships WHERE "user" = ?)))))'
    )
    roots = (
        "SELECT gid FROM tasks WHERE workspace = ? AND (assignee = ? OR created_by = ?"
        ' OR gid IN (SELECT task FROM task_followers WHERE "user" = ?)'
        f" OR gid IN (SELECT task FROM task_memberships WHERE project IN ({boards})))"
    )
    sql = (
        f"gid IN (WITH RECURSIVE seen(gid) AS ({roots}"
        " UNION SELECT t.gid FROM tasks t JOIN seen ON t.parent = seen.gid) SELECT gid FROM seen)"
    )
    return sql, [workspace, user, user, user, workspace, user, not member["is_guest"], user]


def task_of(db: Database, gid: str) -> dict[str, Any]:
    """A task the signed-in user can see."""
    found = db.find(tasks, gid=gid.strip())
    if not found or task_access(db, found[0]) is None:
        raise unknown("task", gid)
    return found[0]


def editable_task(db: Database, gid: str) -> dict[str, Any]:
    """A task the signed-in user may change (editor or admin access)."""
    task = task_of(db, gid)
    if RANK[task_access(db, task)] < RANK["editor"]:
        raise PermissionDenied("Forbidden: you have comment-only access to this task")
    return task


def editable_project(db: Database, gid: str) -> dict[str, Any]:
    """A project the signed-in user may add tasks and sections to."""
    project = project_of(db, gid)
    if RANK[project_access(db, project)] < RANK["editor"]:
        raise PermissionDenied(f"Forbidden: you have comment-only access to the project {project['name']}")
    return project
